"""Values taken from the project, made safe for a line of text output.

dl-lint runs in CI on pull requests, so file names, strings and config text it prints may be
written by a stranger. GitHub Actions reads every line a step prints and treats one that starts
(after leading whitespace) with ``::`` or with the older ``##[`` as a workflow command: a file
named ``inj\\n::error file=x.py::forged`` printed raw would forge an annotation, and
``::stop-commands::`` or ``::add-mask::`` could change what the rest of the job log means. So:

- :func:`text` shows a value on one line: line breaks (``\\n``, ``\\r``, and every character
  ``str.splitlines`` splits at), the other C0 and C1 control characters (ESC, which starts
  terminal escape sequences, among them), DEL and U+2028/U+2029 become visible escapes
  (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u2028``); everything else is kept as written.
- :func:`path` is :func:`text` for a path that may start a line: a relative path whose line
  would begin with ``::`` or ``##[`` gets ``./`` in front (still the same file).
- :func:`line` guards a finished line that dl-lint did not make as an annotation: when it
  begins, after leading whitespace, with ``::`` or ``##[``, a backslash goes in front of it.
- :func:`lines` applies :func:`line` to every line of a block of text.

Backslashes themselves are not doubled (Windows paths keep theirs), so ``\\n`` in the output
may be a backslash and an ``n`` in the name; the output is for reading, the machine formats
(json, sarif, gitlab, junit) carry the exact values.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["text", "path", "line", "lines", "starts_command", "optional"]

# C0 controls (tab and line feed included), DEL, C1 controls, the Unicode line and paragraph
# separators: everything that breaks a line or is not shown as itself.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# A workflow command (``::name ...::``, ``##[name]``) after leading whitespace; .NET's
# ``TrimStart`` (what the runner uses) also skips the Unicode spaces ``\s`` matches here.
_COMMAND = re.compile(r"^\s*(::|##\[)")


def _escape(match: "re.Match[str]") -> str:
    char = match.group(0)
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def text(value: object) -> str:
    """``value`` (a project-derived string) for one line of output: control characters and
    line separators shown as escapes, nothing else changed."""
    value = value if isinstance(value, str) else str(value)
    return _UNSAFE.sub(_escape, value) if _UNSAFE.search(value) else value


def optional(value: Optional[str]) -> Optional[str]:
    """:func:`text`, keeping None."""
    return None if value is None else text(value)


def starts_command(value: str) -> bool:
    """Whether a line holding ``value`` first would read as a workflow command."""
    return _COMMAND.match(value) is not None


def path(value: str) -> str:
    """A path for the start of an output line: :func:`text`, with ``./`` in front of a relative
    path that would otherwise begin a workflow command (``::warning::x.py``)."""
    shown = text(value)
    if starts_command(shown):
        return "./" + shown
    return shown


def line(value: str) -> str:
    """A finished output line that is not an annotation: a backslash in front of a workflow
    command at its start (after its leading whitespace), so no runner reads it as one."""
    match = _COMMAND.match(value)
    if match is None:
        return value
    at = match.start(1)
    return value[:at] + "\\" + value[at:]


def lines(block: str) -> str:
    """:func:`line` for every line of ``block``, the last guard before text is written: lines
    end at ``\\n`` (or ``\\r\\n``, kept as it is: a patch of a CRLF file stays one); a lone
    ``\\r``, where the runner also starts a new line, is shown as ``\\r``."""
    if "::" not in block and "##[" not in block and not _LONE_CR.search(block):
        return block
    return "\n".join(line(_LONE_CR.sub("\\\\r", part)) for part in block.split("\n"))


_LONE_CR = re.compile("\r(?!\n|$)")
