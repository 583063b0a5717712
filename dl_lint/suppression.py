"""``# noqa`` comments: which diagnostics the user has silenced, and where.

Line directives (ruff / flake8 syntax), anywhere in a comment::

    x = DataLoader(ds)  # noqa                    -> every code on this row
    x = DataLoader(ds)  # noqa: DL001             -> DL001 only
    x = DataLoader(ds)  # noqa:DL001,DL102        -> separators: commas and/or whitespace
    x = DataLoader(ds)  # NoQA: E501, DL001 -- why   (case-insensitive; other tools' codes are
                                                      kept and simply never match a DL code)
    x = DataLoader(ds)  # type: ignore # noqa: DL001  (after another comment is fine)

Decisions (deliberately simple):

* ``noqa`` must directly follow a ``#`` (optional whitespace between) and must not continue as a
  word (``# noqanything`` is not a directive). Text after the directive is free-form.
* The code list after ``:`` is read as ``[A-Za-z]+[0-9]+`` items separated by commas/whitespace
  and stops at the first item that is not a code (``# noqa: DL001 because x`` names DL001 only).
  Codes are upper-cased, so ``# noqa: dl001`` names DL001.
* A code may be a prefix, as in flake8 (``flake8.violation.Violation.is_inline_ignored``,
  flake8 7.5: ``code in codes or code.startswith(tuple(codes))``): ``# noqa: DL0`` silences
  every DL0xx code, ``# noqa: DL`` nothing (a code needs a digit). Ruff ignores prefixes; the
  CLI follows flake8 so that a directive means the same in both (the flake8 plugin is flake8's).
* ``# noqa:`` followed by no valid code at all (``# noqa:``, ``# noqa: see below``) is treated as
  a bare ``# noqa`` (flake8's behaviour), i.e. it silences every code on that row.
* Several directives on one row are merged; if any of them is bare, the row is bare.

File directives, only on a line of their own (nothing but whitespace before the ``#``)::

    # dl-lint: noqa               -> silence the whole file   (``# flake8: noqa`` too)
    # dl-lint: noqa: DL101 DL102  -> silence these codes in the whole file

They are case-insensitive, and a ``# dl-lint: noqa:`` with no valid code counts as the bare form,
as for line directives. Trailing code, a file directive does nothing at all: it is neither a
file directive nor a line directive (only ``# noqa`` is a line directive).

Comments are found with :mod:`tokenize`, so ``"# noqa"`` inside a string does not count. If the
source cannot be tokenized, the comments seen before the failure are kept and the remaining
lines are scanned with a simple quote-aware regex. :func:`parse_suppressions` never raises.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, Iterator, List, Mapping, Optional, Tuple

from .model import Diagnostic
from .record import Record

__all__ = ["Suppressions", "LineDirective", "parse_suppressions", "parse_comment_suppressions", "line_directives"]

_CODE = r"[A-Za-z]+[0-9]+(?![A-Za-z0-9_])"  # a whole word: DL001, E501, PLR2004
_CODE_RE = re.compile(r"[A-Za-z]+[0-9]+")
# Every directive holds ``noqa`` (any case): without it, there is nothing to tokenize for.
_MAY_SUPPRESS = re.compile(r"noqa", re.IGNORECASE)
# Optional ``:`` and a comma/whitespace separated list that stops at the first non-code.
_CODE_LIST = r"(?:\s*:(?P<codes>[\s,]*" + _CODE + r"(?:[\s,]+" + _CODE + r")*)?)?"
# ``#``, optional whitespace, ``noqa`` not continued as a word; may follow other comment text.
# Letters in either case are spelled out (``[Nn]``) rather than compiled with re.IGNORECASE:
# the Unicode case-folding tables made each of these two patterns cost 1.5 ms to compile, in
# every process of a run; the codes' ``[A-Za-z]`` already takes both cases.
_LINE_NOQA_RE = re.compile(r"#\s*[Nn][Oo][Qq][Aa](?![A-Za-z0-9_])" + _CODE_LIST)
# Used with .match(): must start the comment, and the comment must start its line.
_FILE_NOQA_RE = re.compile(
    r"#\s*(?:[Dd][Ll]-[Ll][Ii][Nn][Tt]|[Ff][Ll][Aa][Kk][Ee]8)\s*:\s*[Nn][Oo][Qq][Aa](?![A-Za-z0-9_])" + _CODE_LIST
)


class Suppressions(Record):
    """The ``noqa`` directives of one source text (one notebook cell, for notebooks)."""

    __slots__ = ("lines", "file_all", "file_codes")

    def __init__(
        self,
        # row (1-based) -> None for a bare ``# noqa`` (every code), else the codes named (upper-case);
        # None: a new empty dict
        lines: Optional[Mapping[int, Optional[FrozenSet[str]]]] = None,
        file_all: bool = False,
        file_codes: FrozenSet[str] = frozenset(),
    ) -> None:
        self.lines = {} if lines is None else lines
        self.file_all = file_all
        self.file_codes = file_codes

    def suppresses(self, diag: Diagnostic) -> bool:
        """True if ``diag`` is silenced by a file directive or by a line directive on any row of
        ``diag.noqa_rows`` (inclusive; ``(0, 0)`` means ``location.row .. end_location.row``)."""
        return bool(self.matching(diag))

    def rows_of(self, diag: Diagnostic) -> Tuple[int, int]:
        """The rows a line directive may silence ``diag`` on."""
        return _rows(diag)

    def matching(self, diag: Diagnostic) -> List[Tuple[int, str]]:
        """The directives that silence ``diag``: (row, code or prefix named) for each, with row 0
        for a file directive and code "" for a bare one (every code)."""
        code = diag.code.upper()
        found: List[Tuple[int, str]] = []
        if self.file_all:
            found.append((0, ""))
        found += [(0, named) for named in self.file_codes if code.startswith(named)]
        if not self.lines:
            return found
        first, last = _rows(diag)
        for row, codes in self.lines.items():
            if first <= row <= last:
                if codes is None:
                    found.append((row, ""))
                else:
                    found += [(row, named) for named in codes if code.startswith(named)]
        return found


class LineDirective(Record):
    """One ``# noqa`` in a comment: its row, the 1-based columns of its text (``start`` at the
    ``#`` or, after other comment text, at the ``#`` of ``# noqa``; ``end`` one past the codes),
    the codes as written (upper-cased; None for a bare directive), and where the codes' list
    starts and ends (columns, for rewriting it)."""

    __slots__ = ("row", "start", "end", "codes", "codes_start")

    def __init__(self, row: int, start: int, end: int, codes: Optional[Tuple[str, ...]], codes_start: int) -> None:
        self.row = row
        self.start = start
        self.end = end
        self.codes = codes
        self.codes_start = codes_start


def line_directives(source: str) -> List[LineDirective]:
    """Every line ``# noqa`` directive of ``source``, in order (the ones ``parse_suppressions``
    reads, with their positions). Never raises."""
    if not _MAY_SUPPRESS.search(source):
        return []
    physical = _normalize_newlines(source).split("\n")
    found: List[LineDirective] = []
    for row, _own_line, text in _comments(source):
        line = physical[row - 1] if row - 1 < len(physical) else text
        base = len(line) - len(text) if line.endswith(text) else max(line.find(text), 0)
        for match in _LINE_NOQA_RE.finditer(text):
            codes = _codes(match)
            listed = tuple(c.upper() for c in _CODE_RE.findall(match.group("codes"))) if codes is not None else None
            codes_start = base + (match.start("codes") if codes is not None else match.end()) + 1
            found.append(LineDirective(row, base + match.start() + 1, base + match.end() + 1, listed, codes_start))
    return found


def _rows(diag: Diagnostic) -> Tuple[int, int]:
    first, last = diag.noqa_rows
    if first <= 0:
        first, last = diag.location.row, diag.end_location.row
    if last < first:
        last = first
    return first, last


def parse_suppressions(source: str) -> Suppressions:
    """Collect the line and file ``noqa`` directives of ``source``. Never raises."""
    if not _MAY_SUPPRESS.search(source):
        return Suppressions(lines={}, file_all=False, file_codes=frozenset())  # no tokenizing needed
    try:
        comments = list(_comments(source))
    except Exception:  # pragma: no cover - _comments already falls back; belt and braces
        comments = []
    return _from_comments(comments)


def parse_comment_suppressions(text: str) -> Suppressions:
    """The ``noqa`` directives of a YAML file: its ``#`` comments, found line by line (outside
    quotes), with the same line and file directives as Python. Never raises."""
    if not _MAY_SUPPRESS.search(text):
        return Suppressions(lines={}, file_all=False, file_codes=frozenset())
    comments = []
    for index, line in enumerate(_normalize_newlines(text).split("\n")):
        col, _ = _regex_comment(line)
        if col >= 0 and (col == 0 or line[col - 1] in " \t"):  # YAML: a comment follows a space
            comments.append((index + 1, line[:col].strip() == "", line[col:]))
    return _from_comments(comments)


def _from_comments(comments: List[Tuple[int, bool, str]]) -> Suppressions:
    lines: Dict[int, Optional[FrozenSet[str]]] = {}
    file_all = False
    file_codes: set = set()
    for row, own_line, text in comments:
        if own_line:
            m = _FILE_NOQA_RE.match(text)
            if m is not None:
                codes = _codes(m)
                if codes is None:
                    file_all = True
                else:
                    file_codes.update(codes)
        found, row_codes = _line_codes(text)
        if not found:
            continue
        if row in lines:
            old = lines[row]
            lines[row] = None if old is None or row_codes is None else old | row_codes
        else:
            lines[row] = row_codes
    return Suppressions(lines=lines, file_all=file_all, file_codes=frozenset(file_codes))


def _codes(match: "re.Match[str]") -> Optional[FrozenSet[str]]:
    """The codes named by a directive match, or None if it is bare (or names no valid code)."""
    codes = match.group("codes")
    if not codes:
        return None
    return frozenset(c.upper() for c in _CODE_RE.findall(codes))


def _line_codes(comment: str) -> Tuple[bool, Optional[FrozenSet[str]]]:
    """(any ``# noqa`` in the comment?, merged codes: None when any of them is bare)."""
    found = False
    merged: FrozenSet[str] = frozenset()
    for m in _LINE_NOQA_RE.finditer(comment):
        codes = _codes(m)
        if codes is None:
            return True, None
        found = True
        merged |= codes
    return found, merged


def _normalize_newlines(source: str) -> str:
    # Python's own tokenizer (and libcst) treat \r\n and a lone \r as line ends.
    return source.replace("\r\n", "\n").replace("\r", "\n")


def _comments(source: str) -> Iterator[Tuple[int, bool, str]]:
    """(row, comment is alone on its line, comment text from ``#``) for every comment."""
    import io
    import tokenize
    source = _normalize_newlines(source)
    physical = source.split("\n")
    done_row = 0  # every row <= done_row has been fully tokenized
    found: List[Tuple[int, bool, str]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                prefix = physical[row - 1][:col] if row - 1 < len(physical) else ""
                found.append((row, prefix.strip() == "", tok.string))
            elif tok.type in (tokenize.NEWLINE, tokenize.NL):
                done_row = tok.start[0]
    except Exception:
        # Broken source: keep what was tokenized, scan the rest line by line.
        found = [c for c in found if c[0] <= done_row]
        quote = ""  # an open triple quote carries over to the next line
        for index in range(done_row, len(physical)):
            col, quote = _regex_comment(physical[index], quote)
            if col >= 0:
                text = physical[index][col:]
                found.append((index + 1, physical[index][:col].strip() == "", text))
    return iter(found)


def _regex_comment(line: str, quote: str = "") -> Tuple[int, str]:
    """(column of the first ``#`` outside obvious quotes or -1, triple quote still open).

    ``quote`` is the triple quote left open by the previous line, if any.
    """
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif ch in "'\"":
            quote = ch * 3 if line.startswith(ch * 3, i) else ch
            i += len(quote)
            continue
        elif ch == "#":
            return i, ""
        i += 1
    return -1, quote if len(quote) == 3 else ""
