"""The ``concise`` format, like ruff's::

    train.py:12:9: DL001 [*] num_workers=0 with pin_memory=True ...
    nb.ipynb:cell 3:2:1: DL102 ...
    Found 2 problems: 1 error, 1 warning.
    [*] 1 fixable with the `--fix` option.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence

from ..model import Diagnostic, Severity

__all__ = ["render", "format_diagnostic", "summary_line", "fixable_line"]

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
    """One line: ``path:row:col: CODE [*] message`` (``path:cell N:row:col:`` in notebooks)."""
    sep = _paint(":", _CYAN, color)
    parts = [_paint(diag.filename, _BOLD, color)]
    if diag.cell is not None:
        parts.append(f"cell {diag.cell}")
    parts += [str(diag.location.row), str(diag.location.column)]
    code = _paint(diag.code, _CODE_STYLE[_severity(diag)], color)
    fixable = " [*]" if diag.fix is not None else ""
    return f"{sep.join(parts)}{sep} {code}{fixable} {diag.message}"


def _plural(count: int, word: str) -> str:
    # "info" is a mass noun: "2 info", not "2 infos".
    return f"{count} {word}" if count == 1 or word == "info" else f"{count} {word}s"


def summary_line(diagnostics: Iterable[Diagnostic]) -> str:
    """``Found 3 problems: 1 error, 2 warnings.`` or ``All checks passed!``."""
    counts = {severity: 0 for severity in _ORDER}
    for diag in diagnostics:
        counts[_severity(diag)] += 1
    total = sum(counts.values())
    if total == 0:
        return "All checks passed!"
    detail = ", ".join(_plural(counts[s], s.value) for s in _ORDER if counts[s])
    return f"Found {_plural(total, 'problem')}: {detail}."


def fixable_line(diagnostics: Iterable[Diagnostic]) -> Optional[str]:
    """``[*] 2 fixable with the `--fix` option.``, or None when nothing is fixable."""
    fixable = sum(1 for diag in diagnostics if diag.fix is not None)
    if not fixable:
        return None
    return f"[*] {fixable} fixable with the `--fix` option."


def render(
    diagnostics: Sequence[Diagnostic], *, color: bool = False, files_checked: int = 0
) -> str:
    """Sorted diagnostic lines, then the summary (and fixable) line; ends with a newline.

    ``files_checked`` is accepted for interface symmetry and currently unused.
    """
    ordered = sorted(diagnostics, key=lambda d: d.sort_key())
    lines: List[str] = [format_diagnostic(d, color=color) for d in ordered]
    lines.append(summary_line(ordered))
    fixable = fixable_line(ordered)
    if fixable is not None:
        lines.append(fixable)
    return "\n".join(lines) + "\n"
