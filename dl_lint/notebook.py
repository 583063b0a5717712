"""Jupyter notebooks (``.ipynb``): their code cells as one Python source, and back.

:func:`notebook_to_python` turns the notebook's JSON into the Python source dl-lint analyses:
the code cells in order, each ending with a newline. IPython syntax that is not Python is
replaced line for line, so every row of the source is a row of a cell and columns are unchanged:

* a cell magic (``%%bash`` on the first line) blanks the whole cell; the cell magics whose body
  is Python (``%%time``, ``%%timeit``, ``%%capture``, ...) blank only their first line;
* line magics (``%time f()``, ``%pip install x``), automagics (``cd data/``, ``pip install x``:
  a magic's name without ``%`` on a line that is not Python), shell lines (``!ls``), help
  (``obj?``, ``?obj``, ``obj??``) and assignments from them (``files = !ls``, ``t = %timeit -o
  f()``) become ``pass`` at the same indentation (so a magic alone in a block stays valid Python);
  a magic continued with a trailing backslash blanks its continuation lines.

Lines inside strings and brackets are never taken for magics.

The :class:`CellMap` maps each row of the source to ``(cell, row in cell)``, where ``cell`` is
the 1-based index among *all* cells of the notebook, markdown and raw included, as Jupyter shows
them and as ruff's ``cell`` key counts them.

:func:`apply_cell_edits` is the way back, for fixes: given the source after edits, it rewrites
the ``source`` of the code cells that changed and leaves every other byte of the file as it was.
:func:`cell_diff` shows what a fix changes (``--diff``) as the cells are written, cell by cell.

Everything here is pure (bytes in, bytes or text out) and imports only the standard library.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from dl_lint.record import Record

__all__ = ["CellMap", "NotebookError", "apply_cell_edits", "cell_diff", "notebook_to_python"]


class NotebookError(ValueError):
    """The file is not a notebook dl-lint can read; ``str(e)`` is one line."""


class CellMap(Record):
    """Where each row of the converted source comes from. (A Record, not a dataclass: a check
    of a folder with notebooks reads them through this module.)"""

    __slots__ = ("rows", "code_cells")

    def __init__(
        self,
        # rows[r - 1] = (cell, row in cell) for source row r; both 1-based, cell among all cells
        rows: Tuple[Tuple[int, int], ...],
        # one (cell, first source row, number of rows) per code cell, in order
        code_cells: Tuple[Tuple[int, int, int], ...],
    ) -> None:
        self.rows = rows
        self.code_cells = code_cells

    def locate(self, row: int) -> Optional[Tuple[int, int]]:
        """``(cell, row in cell)`` for a 1-based source row; rows past the end map to the last
        row of the last code cell (a parser reports "unexpected end of file" there)."""
        if not self.rows:
            return None
        if row < 1:
            row = 1
        return self.rows[min(row, len(self.rows)) - 1]

    def source_row(self, cell: int, row_in_cell: int) -> Optional[int]:
        """The inverse of :meth:`locate`: the source row of a row in a cell (None if absent)."""
        for number, first, count in self.code_cells:
            if number == cell and 1 <= row_in_cell <= count:
                return first + row_in_cell - 1
        return None


# -- reading -------------------------------------------------------------------------------------

# Cell magics whose body is Python: only their first line is IPython syntax.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python", "python3", "pypy"})
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# ``name = !cmd``, ``a, b = %magic``, ``self.x = !cmd``
_ASSIGN_MAGIC = re.compile(r"^[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[%!]")
# ``obj?``, ``obj.attr??``, ``mod.func(?`` is not help; ``?obj`` is handled apart
# IPython's built-in line magics and its default shell aliases (IPython 8, ``%lsmagic``): with
# automagic on (the default), ``cd data/``, ``pip install x`` or ``mkdir -p out`` at the start of
# a line run as ``%cd data/`` and so on (``IPython.core.prefilter.AutoMagicChecker``), unless the
# rest of the line assigns (``time = 5``, ``cd, x = ...``) or a variable shadows the name.
AUTOMAGICS = frozenset(
    """alias alias_magic autoawait autocall automagic autosave bookmark cat cd clear colors conda
    config connect_info cp debug dhist dirs doctest_mode ed edit env gui hist history
    killbgscripts ldir less lf lk ll load load_ext loadpy logoff logon logstart logstate logstop
    ls lsmagic lx macro magic mamba man matplotlib micromamba mkdir more mv notebook page pastebin
    pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision prun psearch psource pushd pwd
    pycat pylab qtconsole quickref recall rehashx reload_ext rep rerun reset reset_selective rm
    rmdir run save sc set_env store sx system tb time timeit unalias unload_ext who who_ls whos
    xdel xmode""".split()
)
_AUTOMAGIC_LINE = re.compile(r"^([A-Za-z_]\w*)[ \t]+[^\s=,]")
_HELP_SUFFIX = re.compile(r"^[A-Za-z_*][\w.*\[\]]*\s*\?{1,2}\s*$")
_STRING_START = re.compile(r"""([rRbBuUfFtT]{0,2})('''|\"\"\"|'|")""")


def split_lines(text: str) -> List[str]:
    """Lines with their line breaks, broken at ``\\n``, ``\\r\\n`` and ``\\r`` only (as Python
    counts rows; ``str.splitlines`` also breaks at form feeds and other characters)."""
    out: List[str] = []
    start = 0
    for match in _LINE_BREAK.finditer(text):
        out.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        out.append(text[start:])
    return out


def _cell_text(cell: Dict[str, Any], number: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    raise NotebookError(f"cell {number}: 'source' must be a string or a list of strings")


def _load(data: bytes) -> Dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise NotebookError("invalid JSON: nested too deeply") from None
    except ValueError as exc:  # an integer of more than 4300 digits
        raise NotebookError(f"invalid JSON: {' '.join(str(exc).split())}") from None
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON is not an object")
    version = notebook.get("nbformat")
    if "cells" not in notebook:
        if isinstance(version, int) and version < 4:
            raise NotebookError(f"nbformat {version} is not supported (only nbformat 4)")
        raise NotebookError("not a notebook: no 'cells' list")
    if not isinstance(notebook["cells"], list):
        raise NotebookError("not a notebook: 'cells' is not a list")
    for number, cell in enumerate(notebook["cells"], 1):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {number} is not an object")
    return notebook


def is_python_notebook(notebook: Dict[str, Any]) -> bool:
    """False for notebooks whose kernel language is known and is not Python (R, Julia, ...)."""
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return True
    info = metadata.get("language_info")
    if isinstance(info, dict) and isinstance(info.get("name"), str):
        return info["name"].lower() in ("python", "python3", "ipython", "ipython3")
    kernel = metadata.get("kernelspec")
    if isinstance(kernel, dict) and isinstance(kernel.get("language"), str):
        return kernel["language"].lower() in ("python", "python3", "ipython", "ipython3")
    return True


def notebook_to_python(data: bytes) -> Tuple[str, CellMap]:
    """The notebook's code cells as one Python source, and where each of its rows comes from.

    Raises :class:`NotebookError` for anything that is not a readable nbformat-4 notebook. A
    notebook in another language (kernel metadata) gives an empty source."""
    notebook = _load(data)
    rows: List[Tuple[int, int]] = []
    code_cells: List[Tuple[int, int, int]] = []
    parts: List[str] = []
    python = is_python_notebook(notebook)
    for number, cell in enumerate(notebook["cells"], 1):
        if cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell, number)
        if not python:
            continue
        lines = python_lines(split_lines(text))
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n"
        code_cells.append((number, len(rows) + 1, len(lines)))
        rows.extend((number, i) for i in range(1, len(lines) + 1))
        parts.extend(lines)
    return "".join(parts), CellMap(tuple(rows), tuple(code_cells))


def python_lines(lines: Sequence[str]) -> List[str]:
    """One cell's lines with IPython syntax replaced (same number of lines, same line breaks)."""
    out = list(lines)
    if not out:
        return out
    first = out[0].lstrip()
    if first.startswith("%%"):
        name = re.match(r"%%(\w*)", first).group(1)  # type: ignore[union-attr]
        if name not in PYTHON_CELL_MAGICS:
            return [_ending(line) for line in out]
        out[0] = _ending(out[0])
    scanner = _Scanner()
    continued_magic = False
    for i, line in enumerate(out):
        if continued_magic:
            continued_magic = _body(line).endswith("\\")
            out[i] = _ending(line)
            continue
        if scanner.at_statement_start and _is_ipython(line):
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            continued_magic = _body(line).endswith("\\")
            out[i] = f"{indent}pass{_ending(line)}"
            continue
        scanner.feed(line)
    return out


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _body(line: str) -> str:
    return line.rstrip("\r\n").rstrip()


def _is_ipython(line: str) -> bool:
    text = _body(line).lstrip(" \t")
    if not text:
        return False
    if text[0] in "%!?":
        return not text.startswith("!=")
    if _ASSIGN_MAGIC.match(text) and not re.match(r"^[\w.,\s]+==", text):
        return True
    automagic = _AUTOMAGIC_LINE.match(text)
    if automagic is not None and automagic.group(1) in AUTOMAGICS:
        # ``cd data/``: an automagic when it is not Python (``ls -la`` and ``time (x)`` parse
        # as Python and are left so; which IPython runs changes nothing dl-lint reads)
        try:
            compile(text, "<cell>", "exec")
        except SyntaxError:
            return True
        except (ValueError, RecursionError, MemoryError):
            return False
        return False
    return "#" not in text and _HELP_SUFFIX.match(text) is not None


class _Scanner:
    """Just enough of Python's tokenizer to know whether a line starts a new statement: open
    brackets, strings (also triple-quoted and continued ones) and backslash continuations."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote: Optional[str] = None  # the open string's closing quote
        self.continued = False

    @property
    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def feed(self, line: str) -> None:
        text = line.rstrip("\r\n")
        self.continued = False
        i, n = 0, len(text)
        while i < n:
            if self.quote is not None:
                end = self._string_end(text, i)
                if end is None:
                    if len(self.quote) == 1 and not text.endswith("\\"):
                        self.quote = None  # unterminated one-line string: a syntax error anyway
                    return
                self.quote = None
                i = end
                continue
            char = text[i]
            if char == "#":
                return
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(self.depth - 1, 0)
            elif char == "\\" and i == n - 1:
                self.continued = True
            elif char in "'\"" or (
                char.isalpha() and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))
            ):
                match = _STRING_START.match(text, i)
                if match is not None:
                    self.quote = match.group(2)
                    i = match.end()
                    continue
                while i < n and (text[i].isalnum() or text[i] == "_"):
                    i += 1
                continue
            i += 1

    def _string_end(self, text: str, i: int) -> Optional[int]:
        quote = self.quote or ""
        n = len(text)
        while i < n:
            if text[i] == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                return i + len(quote)
            i += 1
        return None


# -- writing back --------------------------------------------------------------------------------


def apply_cell_edits(original: bytes, new_source: str, cell_map: CellMap) -> bytes:
    """The notebook ``original`` with its code cells rewritten to match ``new_source`` (the
    source from :func:`notebook_to_python` after fixes were applied to it).

    Only the ``source`` value of a cell whose text changed is replaced, in the file's own style
    (a list of lines or one string, the same indentation, ``\\uXXXX`` escapes if the file uses
    them); outputs, metadata, key order, the other cells and the file's final newline are kept
    byte for byte. Lines that were IPython syntax keep their original text unless an edit
    touched them. An insertion exactly between two cells goes to the start of the following cell.
    """
    notebook = _load(original)
    old_source, _ = notebook_to_python(original)
    if old_source == new_source:
        return original
    old_lines = split_lines(old_source)
    new_lines = split_lines(new_source)
    owner: List[int] = [cell for cell, _row in cell_map.rows]  # source row - 1 -> cell
    cells = notebook["cells"]
    originals: Dict[int, List[str]] = {}
    for number, _first, _count in cell_map.code_cells:
        originals[number] = split_lines(_cell_text(cells[number - 1], number))
    result: Dict[int, List[str]] = {number: [] for number, _f, _c in cell_map.code_cells}
    if not result:
        return original

    def original_line(row0: int) -> str:
        """The cell's own text of a source row (magics as written), with a line break."""
        cell, row_in_cell = cell_map.rows[row0]
        if row_in_cell > len(originals[cell]):
            return old_lines[row0]
        line = originals[cell][row_in_cell - 1]
        return line if line.endswith(("\n", "\r")) else line + _ending(old_lines[row0])

    def cell_at(row0: int) -> int:
        return owner[row0] if row0 < len(owner) else owner[-1]

    import difflib  # fixes only

    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for row0 in range(i1, i2):
                result[owner[row0]].append(original_line(row0))
        elif tag == "insert":
            result[cell_at(i1)].extend(new_lines[j1:j2])
        else:  # replace / delete: the new text goes to the cell of the first replaced row
            result[owner[i1]].extend(new_lines[j1:j2])
    changed: Dict[int, List[str]] = {}
    for number, lines in result.items():
        before = originals[number]
        after = list(lines)
        if after and (not before or not before[-1].endswith(("\n", "\r"))):
            after[-1] = after[-1].rstrip("\r\n") if after[-1].endswith(("\n", "\r")) else after[-1]
        if after != before:
            changed[number] = after
    if not changed:
        return original
    return _splice(original, notebook, changed)


def _splice(original: bytes, notebook: Dict[str, Any], changed: Dict[int, List[str]]) -> bytes:
    bom = original.startswith(b"\xef\xbb\xbf")
    text = original.decode("utf-8-sig")
    spans = _source_spans(text)
    ascii_only = _uses_ascii_escapes(text)
    pieces: List[str] = []
    last = 0
    for number in sorted(changed):
        span = spans.get(number)
        lines = changed[number]
        if span is None:  # a code cell without "source": cannot happen in valid nbformat 4
            raise NotebookError(f"cell {number} has no 'source' to rewrite")
        start, end = span
        pieces.append(text[last:start])
        pieces.append(_format_source(text, start, end, lines, ascii_only))
        last = end
    pieces.append(text[last:])
    out = "".join(pieces)
    return (b"\xef\xbb\xbf" if bom else b"") + out.encode("utf-8")


def _format_source(text: str, start: int, end: int, lines: List[str], ascii_only: bool) -> str:
    """The new ``source`` value, written as the old one was (string or list, indentation)."""
    old = text[start:end]

    def dump(value: str) -> str:
        return json.dumps(value, ensure_ascii=ascii_only)

    if old.startswith('"'):
        return dump("".join(lines))
    if not lines:
        return "[]"
    if "\n" not in old:
        separator = ", " if (", " in old or old == "[]") else ","
        return "[" + separator.join(dump(line) for line in lines) + "]"
    newline = "\r\n" if "\r\n" in old else "\n"
    line_start = text.rfind("\n", 0, start) + 1
    key_indent = re.match(r"[ \t]*", text[line_start:start]).group(0)  # type: ignore[union-attr]
    match = re.match(r"\[\r?\n([ \t]*)", old)
    item_indent = match.group(1) if match else key_indent + " "
    close = re.search(r"\n([ \t]*)\]$", old)
    close_indent = close.group(1) if close else key_indent
    items = ("," + newline).join(item_indent + dump(line) for line in lines)
    return "[" + newline + items + newline + close_indent + "]"


def _uses_ascii_escapes(text: str) -> bool:
    """Whether the file escapes non-ASCII characters (``json.dump``'s default) rather than
    writing them as UTF-8 (nbformat's way)."""
    if not text.isascii():
        return False
    return (
        re.search(
            r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})", text
        )
        is not None
    )


def _source_spans(text: str) -> Dict[int, Tuple[int, int]]:
    """Cell number (1-based) -> (start, end) offsets of its ``source`` value in ``text``."""
    decoder = json.JSONDecoder()
    spans: Dict[int, Tuple[int, int]] = {}
    ws = re.compile(r"[ \t\n\r]*")

    def skip(i: int) -> int:
        return ws.match(text, i).end()  # type: ignore[union-attr]

    def members(i: int):
        """Yield (key, value start, value end) of the object starting at ``i``; the object's end
        offset is the generator's return value."""
        i = skip(i)
        if text[i] != "{":
            raise NotebookError("not a notebook: expected an object")
        i = skip(i + 1)
        if text[i] == "}":
            return i + 1
        while True:
            key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
            i = skip(i)
            i = skip(i + 1)  # ':'
            _value, end = decoder.raw_decode(text, i)
            yield key, i, end
            i = skip(end)
            if text[i] == "}":
                return i + 1
            i = skip(i + 1)  # ','

    for key, start, end in members(0):
        if key != "cells":
            continue
        i = skip(start + 1)
        number = 0
        while text[i] != "]":
            number += 1
            gen = members(i)
            while True:
                try:
                    cell_key, value_start, value_end = next(gen)
                except StopIteration as stop:
                    i = stop.value
                    break
                if cell_key == "source":
                    spans[number] = (value_start, value_end)
            i = skip(i)
            if text[i] == ",":
                i = skip(i + 1)
    return spans


# -- showing a fix --------------------------------------------------------------------------------


def code_cells(data: bytes) -> List[Tuple[int, str]]:
    """(cell number among all cells, its text as written) of each code cell of a Python
    notebook, in order."""
    notebook = _load(data)
    if not is_python_notebook(notebook):
        return []
    return [
        (number, _cell_text(cell, number))
        for number, cell in enumerate(notebook["cells"], 1)
        if cell.get("cell_type") == "code"
    ]


def cell_diff(display: str, original: bytes, fixed: bytes) -> str:
    """The unified diff of each code cell a fix changed, as ruff's ``--diff`` shows a notebook
    (ruff 0.17.6, run on a notebook): the cell's own text (magics as written, not the ``pass``
    the analysis reads), a ``--- {display}:cell N`` / ``+++ {display}:cell N`` header pair with
    the cell numbered among all cells as Jupyter shows them, and a cell's last line printed with
    a line break even when it has none (no "No newline at end of file" marker). Unlike ruff,
    which also prints the header pair of every unchanged code cell, only changed cells appear."""
    import difflib

    before = code_cells(original)
    after = dict(code_cells(fixed))
    out: List[str] = []
    for number, text in before:
        new = after.get(number, text)
        if new == text:
            continue
        from dl_lint import printable

        header = f"{printable.text(display)}:cell {number}"
        out.extend(difflib.unified_diff(_diff_lines(text), _diff_lines(new), header, header))
    return "".join(out)


def _diff_lines(text: str) -> List[str]:
    lines = split_lines(text)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    return lines
