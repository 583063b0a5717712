"""Applying fixes: text edits on exact spans, verified by re-parsing and re-linting.

Rules describe fixes as edits on the spans they know (an argument, a value). Here they become
clean source changes: deleting an argument also takes its comma (and its whole line when it
stands on a line of its own), so no dangling commas are left and comments on other lines stay.
Everything outside the edited spans is byte-identical: edits are applied to the text, not by
regenerating code.

``fix_source`` applies non-overlapping fixes together, defers overlapping ones to another pass
(at most ``MAX_PASSES``), and verifies each pass: the result must parse, the fixed diagnostics
must be gone and no new ones may appear. A pass that fails is retried fix by fix; a fix that
fails on its own is dropped and reported.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from dl_lint.model import Diagnostic, Edit, Fix, Location
from dl_lint.record import Record

MAX_PASSES = 10

_COMMENT_OR_SPACE = re.compile(r"[ \t]*(#[^\r\n]*)?(\r\n|\r|\n|$)")
_LINE_END = re.compile(r"\r\n|\r|\n")


# -- positions -----------------------------------------------------------------------------------


def line_starts(source: str) -> Sequence[int]:
    """Offsets of each row's first character, and the length of the source last (rows split
    as Python and libcst count them: at \\n, \\r\\n and \\r only; ``str.splitlines`` also splits
    at form feeds and other characters, which shifted every edit below such a line). Kept for
    the last few sources: every fix of a file asks (a tuple: callers share it)."""
    return _line_starts(source)


@functools.lru_cache(maxsize=4)
def _line_starts(source: str) -> Tuple[int, ...]:
    starts = [0]
    starts.extend(match.end() for match in _LINE_END.finditer(source))
    if starts[-1] != len(source):
        starts.append(len(source))
    return tuple(starts)


def to_offset(starts: Sequence[int], location: Location) -> int:
    row = min(max(location.row, 1), len(starts))
    return min(starts[row - 1] + location.column - 1, starts[-1])


def to_location(starts: Sequence[int], offset: int) -> Location:
    import bisect

    row = bisect.bisect_right(starts, offset)
    row = min(max(row, 1), len(starts))
    return Location(row, offset - starts[row - 1] + 1)


# -- making clean edits ----------------------------------------------------------------------------


def normalize_fix(source: str, fix: Fix) -> Fix:
    """Turn argument deletions (empty edits) into clean removals, using the text around them.

    A fix whose edited text holds a comment is unsafe, whatever the rule says (ruff's rule:
    removing a comment may remove intent, such as ``prefetch_factor=4,  # tuned on A100``)."""
    starts = line_starts(source)
    edits = []
    spans = []
    for edit in fix.edits:
        start, end = to_offset(starts, edit.location), to_offset(starts, edit.end_location)
        if edit.content == "":
            start, end = _deletion_span(source, start, end)
            edit = Edit("", to_location(starts, start), to_location(starts, end))
        edits.append(edit)
        spans.append((start, end))
    fix = fix.replace(edits=tuple(edits))
    if fix.applicability == "safe" and holds_comment(source, spans):
        fix = fix.replace(applicability="unsafe")
    return fix


def holds_comment(source: str, spans: Sequence[Tuple[int, int]]) -> bool:
    """Whether a comment starts inside one of the ``(start, end)`` offset spans of ``source``
    (a ``#`` inside a string is not a comment). When the source cannot be tokenized, any ``#``
    in a span counts: a fix is never called safe on a guess."""
    if not any("#" in source[start:end] for start, end in spans):
        return False
    comments = _comment_offsets(source)
    if comments is None:
        return True
    import bisect

    return any(bisect.bisect_left(comments, start) < bisect.bisect_left(comments, end) for start, end in spans)


@functools.lru_cache(maxsize=4)
def _comment_offsets(source: str) -> Optional[Tuple[int, ...]]:
    """The offsets where the comments of ``source`` start, in order (None: it does not
    tokenize); tokenized once per source, not once per fix."""
    import tokenize

    starts = line_starts(source)
    lines = [source[a:b] for a, b in zip(starts, starts[1:])]
    feed = iter(lines)
    try:
        return tuple(
            starts[token.start[0] - 1] + token.start[1]
            for token in tokenize.generate_tokens(lambda: next(feed, ""))
            if token.type == tokenize.COMMENT
        )
    except (tokenize.TokenError, SyntaxError, IndexError):  # IndentationError is a SyntaxError
        return None


def _deletion_span(text: str, start: int, end: int) -> Tuple[int, int]:
    """The span to delete so that removing the argument ``text[start:end]`` leaves clean code."""
    after = end
    while after < len(text) and text[after] in " \t":
        after += 1
    has_comma = after < len(text) and text[after] == ","
    if has_comma:
        after += 1
    line_start = text.rfind("\n", 0, start) + 1
    line_start = max(line_start, text.rfind("\r", 0, start) + 1)
    alone_before = text[line_start:start].strip() == ""
    rest = _COMMENT_OR_SPACE.match(text, after)
    if alone_before and rest is not None and (has_comma or _closes_next(text, rest.end())):
        # The argument stands on its own line(s): delete the whole line(s).
        return line_start, rest.end()
    if has_comma:
        if rest is not None and rest.group(1) is None and rest.end() > rest.start() and text[rest.end() - 1] in "\r\n":
            # ``a, b,`` at the end of a line: keep ``a,`` and the line break.
            before = start
            while before > line_start and text[before - 1] in " \t":
                before -= 1
            return before, after
        while after < len(text) and text[after] in " \t":
            after += 1
        return start, after
    # The last argument: take the comma before it instead.
    before = start
    while before > 0 and text[before - 1] in " \t\r\n":
        before -= 1
    if before > 0 and text[before - 1] == ",":
        return before - 1, end
    return start, end


def _closes_next(text: str, offset: int) -> bool:
    """Whether the next non-blank text is the closing parenthesis of the call."""
    while offset < len(text) and text[offset] in " \t\r\n":
        offset += 1
    return offset < len(text) and text[offset] == ")"


# -- applying ---------------------------------------------------------------------------------------


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits (sorted here, applied back to front)."""
    starts = line_starts(source)
    spans = sorted(
        ((to_offset(starts, e.location), to_offset(starts, e.end_location), e.content) for e in edits),
        key=lambda span: (span[0], span[1]),
    )
    out = source
    for start, end, content in reversed(spans):
        out = out[:start] + content + out[end:]
    return out


def _spans(source: str, fix: Fix) -> List[Tuple[int, int]]:
    starts = line_starts(source)
    return [(to_offset(starts, e.location), to_offset(starts, e.end_location)) for e in fix.edits]


def _overlaps(a: Sequence[Tuple[int, int]], b: Sequence[Tuple[int, int]]) -> bool:
    for s1, e1 in a:
        for s2, e2 in b:
            if s1 < e2 and s2 < e1 or (s1 == s2 and (s1 == e1 or s2 == e2)):
                return True
    return False


class FixResult(Record):
    """Mutable (fixing fills it in), so not hashable. A Record, not a dataclass: a check imports
    this module for ``normalize_fix`` as soon as a diagnostic has a fix."""

    __slots__ = ("source", "applied", "failed", "remaining")
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        source: str,
        applied: Optional[List[Diagnostic]] = None,  # None: a new empty list (each of them)
        failed: Optional[List[Tuple[Diagnostic, str]]] = None,
        remaining: Optional[List[Diagnostic]] = None,
    ) -> None:
        self.source = source
        self.applied = [] if applied is None else applied
        self.failed = [] if failed is None else failed
        self.remaining = [] if remaining is None else remaining

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def applicable(diag: Diagnostic, unsafe: bool) -> bool:
    return diag.fix is not None and (diag.fix.applicability == "safe" or unsafe)


def fix_source(source: str, lint: Callable[[str], List[Diagnostic]], *, unsafe: bool = False) -> FixResult:
    """Fix ``source`` until nothing applicable remains (bounded). ``lint`` lints a source text
    as the file being fixed (with its project context)."""
    result = FixResult(source)
    current = source
    rejected: set = set()
    diagnostics = lint(current)
    for _ in range(MAX_PASSES):
        candidates = [
            d for d in diagnostics if applicable(d, unsafe) and (d.code, d.message, d.detail) not in rejected
        ]
        chosen: List[Diagnostic] = []
        taken: List[Tuple[int, int]] = []
        for diag in sorted(candidates, key=lambda d: (d.location.row, d.location.column)):
            spans = _spans(current, diag.fix)
            if _overlaps(spans, taken):
                continue  # another pass
            chosen.append(diag)
            taken.extend(spans)
        if not chosen:
            break
        attempt = _try(current, chosen, diagnostics, lint)
        if attempt is None:
            # Retry one by one: keep those that verify, drop and report the others.
            progressed = False
            for diag in chosen:
                single = _try(current, [diag], diagnostics, lint)
                if single is None:
                    rejected.add((diag.code, diag.message, diag.detail))  # messages alone repeat (issue 27)
                    result.failed.append((diag, "the fixed code did not verify (parse and re-lint)"))
                    continue
                current, diagnostics = single
                result.applied.append(diag)
                progressed = True
                break  # positions changed: recompute the candidates
            if not progressed:
                continue
        else:
            current, diagnostics = attempt
            result.applied.extend(chosen)
    result.source = current
    result.remaining = diagnostics
    return result


def _try(
    source: str, chosen: Sequence[Diagnostic], before: Sequence[Diagnostic], lint
) -> Optional[Tuple[str, List[Diagnostic]]]:
    """Apply the chosen fixes and verify; the new source and its diagnostics, or None."""
    new = apply_edits(source, [e for d in chosen for e in d.fix.edits])
    if new == source or not _parses(new):
        return None
    after = lint(new)
    if any(d.code == "DL000" for d in after):
        return None
    count_before: Dict[str, int] = {}
    for d in before:
        count_before[d.code] = count_before.get(d.code, 0) + 1
    count_after: Dict[str, int] = {}
    for d in after:
        count_after[d.code] = count_after.get(d.code, 0) + 1
    fixed: Dict[str, int] = {}
    for d in chosen:
        fixed[d.code] = fixed.get(d.code, 0) + 1
    for code, n in count_after.items():
        if n > count_before.get(code, 0) - fixed.get(code, 0):
            return None  # a fixed diagnostic is still there, or a new one appeared
    return new, list(after)


def _parses(source: str) -> bool:
    from dl_lint.source import parse_module  # libcst, guarded against input that would crash it

    try:
        parse_module(source)
    except Exception:  # noqa: BLE001 - any failure means the fix broke the file
        return False
    return True
