"""The ``full`` format: the concise line, then the source with the reported span underlined,
the diagnostic's detail, the places it cites and the fix hint::

    train.py:2:29: DL001 prefetch_factor=2 is passed but num_workers=0 ...
      |
    2 | loader = DataLoader([1, 2], prefetch_factor=2)
      |                             ^^^^^^^^^^^^^^^^^
      |
      torch's error: "prefetch_factor option could only be specified in multiprocessing" ...
      note: data.py:6:1: LineStream is defined here
      help: Remove `prefetch_factor=2`

Source text comes from ``sources`` (filename -> text), filled by the caller; a diagnostic whose
file is not in it (or whose rows are out of range) is shown without the snippet.
"""

from __future__ import annotations

import re
import textwrap
from typing import List, Mapping, Optional, Sequence

from .. import printable
from ..model import Diagnostic
from ._common import SourceLines, cited_path, severity_of, sorted_diagnostics
from .text import _CODE_STYLE, _RESET, format_diagnostic, summary

__all__ = ["render", "snippet"]

TAB_WIDTH = 4
DETAIL_WIDTH = 100  # the detail paragraph is wrapped to this many columns (code is never split)
MAX_SNIPPET_LINES = 8  # longer spans show their first and last HEAD_TAIL lines around "..."
HEAD_TAIL = 3


def _display_width(raw: str, index: int) -> int:
    """Display column of character ``index`` in ``raw`` once tabs are expanded (past the end of
    the line, one column per missing character)."""
    if index <= len(raw):
        return len(printable.text(raw[:index].expandtabs(TAB_WIDTH)))
    return len(printable.text(raw.expandtabs(TAB_WIDTH))) + (index - len(raw))


def _underline_range(diag: Diagnostic, row: int, raw: str) -> Optional[range]:
    start_row, end_row = diag.location.row, max(diag.end_location.row, diag.location.row)
    if row == start_row:
        start = max(diag.location.column - 1, 0)
    else:
        start = len(raw) - len(raw.lstrip())
    if row == end_row:
        end = max(diag.end_location.column - 1, 0)
    else:
        end = len(raw.rstrip())
    if start_row == end_row and end <= start:
        end = start + 1  # an empty span still gets one caret
    if end <= start:
        return None
    return range(_display_width(raw, start), _display_width(raw, end))


def snippet(diag: Diagnostic, lookup: SourceLines, *, color: bool = False) -> List[str]:
    """The gutter-and-caret lines for ``diag`` ([] when its source is not available)."""
    if diag.cell is not None:
        return []
    lines = lookup.lines(diag.filename)
    start = diag.location.row
    if lines is None or start < 1 or start > len(lines):
        return []
    end = min(max(diag.end_location.row, start), len(lines))
    rows: List[Optional[int]] = list(range(start, end + 1))
    if len(rows) > MAX_SNIPPET_LINES:
        rows = rows[:HEAD_TAIL] + [None] + rows[-HEAD_TAIL:]
    width = len(str(end))
    pad = " " * (width + 1)
    style = _CODE_STYLE[severity_of(diag)]
    out = [f"{pad}|"]
    for row in rows:
        if row is None:
            out.append(f"{pad}...")
            continue
        raw = lines[row - 1]
        out.append(f"{row:>{width}} | {printable.text(raw.expandtabs(TAB_WIDTH))}".rstrip())
        span = _underline_range(diag, row, raw)
        if span is not None:
            carets = "^" * len(span)
            if color:
                carets = f"{style}{carets}{_RESET}"
            out.append(f"{pad}| {' ' * span.start}{carets}")
    out.append(f"{pad}|")
    return out


_KEPT_SPACE = "\ue000"  # a private-use character: a space textwrap must not break at


def explanation(diag: Diagnostic) -> List[str]:
    """The lines under the snippet: the detail (wrapped, indented), then a ``note:`` per cited
    place, its path in the same form as the diagnostic's own."""
    lines: List[str] = []
    if diag.detail:
        # Code in backquotes stays on one line (`persistent_workers=args.workers > 0`): its
        # spaces are not places to break.
        kept = re.sub(r"`[^`\n]*`", lambda m: m.group(0).replace(" ", _KEPT_SPACE), printable.text(diag.detail))
        wrapped = textwrap.wrap(
            kept,
            DETAIL_WIDTH,
            initial_indent="  ",
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines += [line.replace(_KEPT_SPACE, " ") for line in wrapped]
    for place in diag.related:
        where = printable.text(cited_path(place.path, diag.filename))
        lines.append(f"  note: {where}:{place.position()}: {printable.text(place.note)}")
    return lines


def render(
    diagnostics: Sequence[Diagnostic],
    *,
    color: bool = False,
    files_checked: int = 0,
    sources: Optional[Mapping[str, str]] = None,
    fixed: int = 0,
    hidden: int = 0,
    quiet: bool = False,
) -> str:
    """Each diagnostic with its snippet and fix hint, blank-line separated, then the summary
    (``fixed``, ``hidden``, ``quiet``: as in :func:`dl_lint.report.text.render`)."""
    ordered = sorted_diagnostics(diagnostics)
    lookup = SourceLines(sources)
    blocks: List[str] = []
    for diag in ordered:
        lines = [format_diagnostic(diag, color=color)]
        lines += snippet(diag, lookup, color=color)
        lines += explanation(diag)
        if diag.fix is not None:
            lines.append(f"  help: {printable.text(diag.fix.message)}")
        blocks.append("\n".join(lines))
    if not quiet:
        blocks.append("\n".join(summary(ordered, fixed=fixed, hidden=hidden)))
    # A wrapped detail line may begin with a value from the project: no line is a command.
    return printable.lines("\n\n".join(blocks)) + "\n" if blocks else ""
