"""The ``concise`` format, like ruff's::

    train.py:12:9: DL001 [*] num_workers=0 with pin_memory=True ...
    nb.ipynb:cell 3:2:1: DL102 ...
    Found 2 problems: 1 error, 1 warning.
    [*] 1 fixable with the `--fix` option.

After ``--fix``, the summary counts what was fixed and what remains, as ruff's does, in the same
neutral word ("problems": warnings are not errors)::

    Found 4 problems (3 fixed, 1 remaining: 1 warning).
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence

from .. import printable
from ..model import Diagnostic, Severity

__all__ = ["render", "format_diagnostic", "summary_line", "fixable_line", "hidden_line", "summary", "plural"]

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_CYAN = "\x1b[36m"
_CODE_STYLE = {
    Severity.ERROR: "\x1b[1;31m",  # bold red
    Severity.WARNING: "\x1b[1;33m",  # bold yellow
    Severity.INFO: "\x1b[1;34m",  # bold blue
}
_ORDER = (Severity.ERROR, Severity.WARNING, Severity.INFO)


def _severity(diag: Diagnostic) -> Severity:
    try:
        return Severity(diag.severity)
    except ValueError:
        return Severity.ERROR


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def format_diagnostic(diag: Diagnostic, *, color: bool = False) -> str:
    """One line: ``path:row:col: CODE [*] message`` (``path:cell N:row:col:`` in notebooks).
    The path and the message come from the project: shown on one line (``dl_lint.printable``)."""
    sep = _paint(":", _CYAN, color)
    parts = [_paint(printable.path(diag.filename), _BOLD, color)]
    if diag.cell is not None:
        parts.append(f"cell {diag.cell}")
    parts += [str(diag.location.row), str(diag.location.column)]
    code = _paint(diag.code, _CODE_STYLE[_severity(diag)], color)
    fixable = " [*]" if diag.fix is not None else ""
    return f"{sep.join(parts)}{sep} {code}{fixable} {printable.text(diag.message)}"


def plural(count: int, word: str) -> str:
    """``1 problem``, ``2 problems``; "info" is a mass noun: "2 info", not "2 infos"; "fix": "fixes"."""
    if count == 1 or word == "info":
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith(("x", "s")) else f"{count} {word}s"


_plural = plural


def summary_line(diagnostics: Iterable[Diagnostic], *, fixed: int = 0) -> str:
    """``Found 3 problems: 1 error, 2 warnings.`` or ``All checks passed!``; after ``--fix``
    fixed ``fixed`` of them: ``Found 4 problems (3 fixed, 1 remaining: 1 warning).``."""
    counts = {severity: 0 for severity in _ORDER}
    for diag in diagnostics:
        counts[_severity(diag)] += 1
    remaining = sum(counts.values())
    detail = ", ".join(_plural(counts[s], s.value) for s in _ORDER if counts[s])
    if fixed:
        left = f"{remaining} remaining: {detail}" if remaining else "0 remaining"
        return f"Found {_plural(remaining + fixed, 'problem')} ({fixed} fixed, {left})."
    if remaining == 0:
        return "All checks passed!"
    return f"Found {_plural(remaining, 'problem')}: {detail}."


def fixable_line(diagnostics: Iterable[Diagnostic]) -> Optional[str]:
    """``[*] 2 fixable with the `--fix` option.``, or None when nothing is fixable."""
    fixable = sum(1 for diag in diagnostics if diag.fix is not None)
    if not fixable:
        return None
    return f"[*] {fixable} fixable with the `--fix` option."


def hidden_line(hidden: int) -> Optional[str]:
    """``2 hidden fixes can be enabled with the `--unsafe-fixes` option.``, or None."""
    if not hidden:
        return None
    return f"{_plural(hidden, 'hidden fix')} can be enabled with the `--unsafe-fixes` option."


def summary(diagnostics: Sequence[Diagnostic], *, fixed: int = 0, hidden: int = 0) -> List[str]:
    """The lines after the diagnostics: found (and fixed), fixable, hidden unsafe fixes."""
    lines = [summary_line(diagnostics, fixed=fixed)]
    for extra in (fixable_line(diagnostics), hidden_line(hidden)):
        if extra is not None:
            lines.append(extra)
    return lines


def render(
    diagnostics: Sequence[Diagnostic],
    *,
    color: bool = False,
    files_checked: int = 0,
    fixed: int = 0,
    hidden: int = 0,
    quiet: bool = False,
) -> str:
    """Sorted diagnostic lines, then the summary (and fixable) lines; ends with a newline.

    ``fixed``: how many ``--fix`` fixed; ``hidden``: unsafe fixes not offered; ``quiet``: the
    diagnostics only ("" when there is none). ``files_checked`` is accepted for interface
    symmetry and currently unused.
    """
    ordered = sorted(diagnostics, key=lambda d: d.sort_key())
    lines: List[str] = [format_diagnostic(d, color=color) for d in ordered]
    if not quiet:
        lines += summary(ordered, fixed=fixed, hidden=hidden)
    return "".join(printable.line(line) + "\n" for line in lines)
