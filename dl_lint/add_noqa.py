"""``dl-lint --add-noqa``: a ``# noqa: CODE`` directive for every diagnostic, written into the
files, as ``ruff check --add-noqa`` does (ruff 0.17: codes merged into a directive already on the
line and sorted; ``--add-noqa=REASON`` writes REASON after the codes).

Where: on the diagnostic's ``noqa_row`` (the first row of the reported call, the row JSON's
``noqa_row`` names), else on another row of the call that can end in a comment. A row can end
in a comment when a line break token ends it: not inside a string that spans lines, not after
a backslash continuation. Each edited file is checked before it is written: it still parses,
and its directives now cover every diagnostic added for; otherwise the file is left alone and a
warning says so. Files are replaced as ``--fix`` replaces them (``fix_runner.write_atomically``:
permission bits kept, read-only files and links out of the project refused), keeping their
encoding and line endings.

Only Python files are edited: a diagnostic in a notebook or a YAML config is left as it is,
with a warning (a directive there is written by hand, see docs/configuration.md).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import tokenize
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from dl_lint.model import Diagnostic

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def add_noqa_directives(diagnostics: Sequence[Diagnostic], reason: str = "") -> Tuple[int, List[str]]:
    """Add the directives; (how many were added or extended, warnings to print)."""
    by_file: Dict[str, List[Diagnostic]] = {}
    skipped: Dict[str, int] = {}
    for diag in diagnostics:
        if diag.code == "DL000":
            continue  # a file that cannot be read or parsed is not silenced by a directive
        if diag.cell is not None or not diag.filename.endswith((".py", ".pyi")):
            skipped[diag.filename] = skipped.get(diag.filename, 0) + 1
            continue
        by_file.setdefault(diag.filename, []).append(diag)
    problems = [
        f"{name}: --add-noqa edits Python files only; {count} diagnostic{'s' if count != 1 else ''} left as "
        f"{'they are' if count != 1 else 'it is'}"
        for name, count in sorted(skipped.items())
    ]
    added = 0
    for name in sorted(by_file):
        try:
            added += _add_to_file(Path(name), by_file[name], reason)
        except _Refused as exc:
            problems.append(f"{name}: {exc}; no directive added")
        except (OSError, UnicodeError, SyntaxError) as exc:
            problems.append(f"{name}: cannot add noqa directives: {exc}")
    return added, problems


class _Refused(Exception):
    pass


def _add_to_file(path: Path, diagnostics: List[Diagnostic], reason: str) -> int:
    from dl_lint.analysis.project import find_root
    from dl_lint.fix_runner import FixError, write_atomically

    before = os.stat(path)
    data = path.read_bytes()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(codecs.BOM_UTF8)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    breaks = _LINE_BREAK.findall(text)
    endable, comments = _row_ends(text)
    wanted: Dict[int, Set[str]] = {}
    for diag in diagnostics:
        row = _row_for(diag, endable)
        if row is None:
            raise _Refused(
                f"no line of the {diag.code} diagnostic at row {diag.location.row} can end in a comment"
            )
        wanted.setdefault(row, set()).add(diag.code)
    from dl_lint.suppression import _LINE_NOQA_RE, _codes  # one grammar for reading and writing

    count = 0
    for row, codes in sorted(wanted.items()):
        line = lines[row - 1]
        column = comments.get(row)
        match = _LINE_NOQA_RE.search(line, column) if column is not None else None
        if match is None:
            directive = f"# noqa: {', '.join(sorted(codes))}" + (f" {reason}" if reason else "")
            lines[row - 1] = f"{line.rstrip()}  {directive}" if line.strip() else directive
            count += 1
            continue
        present = _codes(match)
        if present is None:
            continue  # a bare directive already covers every code
        merged = ", ".join(sorted(present | codes))
        tail = line[match.end() :]
        extra = f" {reason}" if reason and not tail.strip() else ""
        lines[row - 1] = f"{line[: match.start('codes')]} {merged}{extra}{tail}"
        count += 1
    new = "".join(line + brk for line, brk in zip(lines, breaks + [""]))
    _verify(new, diagnostics)
    payload = new.encode(encoding if encoding != "utf-8-sig" else "utf-8")
    if bom and not payload.startswith(codecs.BOM_UTF8):
        payload = codecs.BOM_UTF8 + payload
    try:
        write_atomically(path, payload, find_root(path.absolute()), expected=before)
    except FixError as exc:
        raise _Refused(str(exc).split(": ", 1)[-1].replace("; not fixed", "")) from None
    return count


def _row_ends(text: str) -> Tuple[Set[int], Dict[int, int]]:
    """Rows that a line break token ends (a comment may be appended there), and the column of
    the comment already on a row."""
    endable: Set[int] = set()
    comments: Dict[int, int] = {}
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    for tok in tokenize.generate_tokens(io.StringIO(normalized).readline):
        if tok.type in (tokenize.NEWLINE, tokenize.NL):
            endable.add(tok.start[0])
        elif tok.type == tokenize.COMMENT:
            comments.setdefault(tok.start[0], tok.start[1])
    return endable, comments


def _row_for(diag: Diagnostic, endable: Set[int]) -> Optional[int]:
    first, last = diag.noqa_rows
    if first <= 0:
        first, last = diag.location.row, diag.end_location.row
    candidates = [diag.noqa_row, *range(first, max(first, last) + 1)]
    return next((row for row in candidates if row in endable), None)


def _verify(source: str, diagnostics: List[Diagnostic]) -> None:
    import ast

    from dl_lint.suppression import parse_suppressions

    try:
        ast.parse(source)
    except SyntaxError as exc:
        raise _Refused(f"the edited file would not parse ({exc.msg})") from None
    suppressions = parse_suppressions(source)
    for diag in diagnostics:
        if not suppressions.suppresses(diag):
            raise _Refused(
                f"a directive would not cover the {diag.code} diagnostic at row {diag.location.row}"
            )
