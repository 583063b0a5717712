"""The ``github`` format: GitHub Actions workflow commands, one annotation per diagnostic::

    ::error title=dl-lint (DL001),file=src/train.py,line=12,col=5,endLine=12,endColumn=30::src/train.py:12:5: DL001 message

Escaping follows actions/toolkit (``packages/core/src/command.ts``): message data escapes ``%``,
``\\r`` and ``\\n``; property values also ``:`` and ``,``; ``%`` first. Columns are left out when
a span covers several lines (the toolkit's ``AnnotationProperties`` rule).

GitHub shows at most 10 annotations of each kind per step and drops the rest silently. When a
kind overflows, the output also lists every diagnostic as a plain line (workflow command lines do
not appear in the job log) and ends with a summary ``::notice``; info-level annotations are then
capped at 9 so that the summary is one of the 10 notices GitHub shows.

The plain list is text from the project (paths, messages): each value is shown on one line
(``dl_lint.printable``: a file named ``::warning::x.py`` is listed as ``./::warning::x.py``), and
the list sits between ``::stop-commands::TOKEN`` and ``::TOKEN::`` with a random token, so the
runner reads no command inside it whatever it holds::

    ::stop-commands::5f0c...
    dl-lint found 12 problems; ...
    src/train.py:12:5: DL001 ...
    ::5f0c...::
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .. import printable
from ..model import Diagnostic, Severity
from ._common import relative_path, severity_of, sorted_diagnostics

__all__ = ["render", "escape_data", "escape_property", "command", "GITHUB_LIMIT"]

GITHUB_LIMIT = 10  # annotations of one kind that GitHub shows per step
_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a workflow command's message (toolkit ``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (toolkit ``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, properties: Sequence[Tuple[str, object]], message: str) -> str:
    """``::name key=value,...::message`` with escaping (properties in the given order)."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties)
    return f"::{name} {props}::{escape_data(message)}" if props else f"::{name}::{escape_data(message)}"


def _plain(diag: Diagnostic, path: str) -> str:
    return f"{path}:{diag.location.row}:{diag.location.column}: {diag.code} {diag.message}"


def _plain_line(diag: Diagnostic, path: str) -> str:
    """The plain list's line: path and message shown on one line (``dl_lint.printable``)."""
    return f"{printable.path(path)}:{diag.location.row}:{diag.location.column}: {diag.code} {printable.text(diag.message)}"


def _annotation_message(diag: Diagnostic, path: str, root: Optional[str]) -> str:
    """The concise line and, when there is a fix, its title on a line of its own, as ruff 0.17
    writes its annotations (``...: F401 `os` imported but unused%0A  help: Remove unused
    import``): an annotation is read beside the code, in one glance; the detail is the full
    format's, SARIF's and JSON's."""
    lines = [_plain(diag, path)]
    if diag.fix is not None:
        lines.append(f"  help: {diag.fix.message}")
    return "\n".join(lines)


def _annotation(diag: Diagnostic, path: str, root: Optional[str]) -> str:
    start, end = diag.location, diag.end_location
    properties: List[Tuple[str, object]] = [
        ("title", f"dl-lint ({diag.code})"),
        ("file", path),
        ("line", start.row),
    ]
    if end.row <= start.row:
        properties += [("col", start.column), ("endLine", start.row), ("endColumn", max(end.column, start.column))]
    else:
        properties += [("endLine", end.row)]
    return command(_COMMAND[severity_of(diag)], properties, _annotation_message(diag, path, root))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def stop_token() -> str:
    """A token for ``::stop-commands::`` that no project text can guess (128 random bits)."""
    import secrets

    return secrets.token_hex(16)


def render(diagnostics: Sequence[Diagnostic], *, root: Optional[str] = None, token: Optional[str] = None) -> str:
    """One annotation line per diagnostic (sorted); "" when there is none.

    ``root``: the repository root that paths are made relative to (None: keep them as given).
    ``token``: the ``::stop-commands::`` token around the plain list (None: a random one).
    """
    ordered = sorted_diagnostics(diagnostics)
    paths = [relative_path(d.filename, root) for d in ordered]
    counts: Dict[Severity, int] = {s: 0 for s in _COMMAND}
    for diag in ordered:
        counts[severity_of(diag)] += 1
    overflow = any(count > GITHUB_LIMIT for count in counts.values())

    lines: List[str] = []
    notices = 0
    for diag, path in zip(ordered, paths):
        if overflow and severity_of(diag) is Severity.INFO:
            notices += 1
            if notices >= GITHUB_LIMIT:  # keep a slot for the summary notice
                continue
        lines.append(_annotation(diag, path, root))
    if overflow:
        token = token or stop_token()
        lines.append(f"::stop-commands::{token}")
        lines.append(
            f"dl-lint found {_plural(len(ordered), 'problem')}; GitHub shows only {GITHUB_LIMIT} "
            "annotations of each kind per step, so here is the full list:"
        )
        # Plain lines of project text: one line each, none a workflow command, and the runner
        # reads no command until the token ends the list.
        lines += [printable.line(_plain_line(d, p)) for d, p in zip(ordered, paths)]
        lines.append(f"::{token}::")
        summary = (
            f"{_plural(counts[Severity.ERROR], 'error')}, {_plural(counts[Severity.WARNING], 'warning')}, "
            f"{_plural(counts[Severity.INFO], 'notice')} in total; GitHub shows {GITHUB_LIMIT} of each per "
            "step - see the job log or the SARIF output for all"
        )
        lines.append(command("notice", [("title", "dl-lint")], summary))
    return "".join(line + "\n" for line in lines)
