"""One TOML file as the tree of keys with line numbers that the key-path reader shares with YAML
(``yamlfile.Tree``/``Leaf``).

The values are the standard library's (``tomllib``, Python 3.11+; ``tomli`` before, the same
parser), so what a program's ``tomllib.load``/``toml.load`` returns is what dl-lint reads. tomllib
keeps no positions, so each key's line comes from a scan of the text that follows TOML's grammar
as far as positions need: table headers (``[data]``, ``[data.loader]``), ``key = value`` lines
with bare, quoted and dotted keys, inline tables, and values spanning lines (multi-line strings
and arrays, skipped). A key whose line the scan does not find keeps its value, at its table's
line. Arrays of tables (``[[runs]]``) and arrays are not followed (no key path goes through
them). A file tomllib rejects is a ``YamlError`` with tomllib's position, as for YAML.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from dl_lint.analysis.configs.yamlfile import UNKNOWN, Leaf, Tree, YamlError, read_text

__all__ = ["read_toml", "parse_toml"]

MAX_NODES = 100_000
_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_BARE = re.compile(r"[A-Za-z0-9_-]+")


def read_toml(path: str, read: Optional[Callable[[str], bytes]] = None) -> Tuple[Optional[str], Union[Tree, YamlError, None]]:
    """(text, tree) of the TOML file at ``path``, read through ``read`` (the project's door) as
    ``yamlfile.read_yaml`` reads YAML: (None, None) outside the root or missing."""
    text, refused = read_text(path, read, "utf-8")
    return (text, parse_toml(text, path)) if text is not None else (None, refused)


def parse_toml(text: str, path: str) -> Union[Tree, YamlError]:
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the same parser, packaged (a dependency there)
        import tomli as tomllib  # type: ignore[no-redef]

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _POSITION.search(str(exc))
        line, column = (int(found.group(1)), int(found.group(2))) if found else (1, 1)
        return YamlError(path, str(exc).split(" (at ")[0][:80], line, column)
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)
    lines = _key_lines(text)
    budget = [MAX_NODES]
    try:
        return _tree(table, (), lines, path, 1, budget)
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)


def _tree(table: Dict[str, Any], keys: Tuple[str, ...], lines: Dict[Tuple[str, ...], Tuple[int, int, str]], path: str, line: int, budget: List[int]) -> Tree:
    entries = []
    for key, value in table.items():
        budget[0] -= 1
        if budget[0] < 0:
            break
        where = lines.get(keys + (key,))
        row = where[0] if where is not None else line
        if isinstance(value, dict):
            entries.append((key, _tree(value, keys + (key,), lines, path, row, budget)))
        elif isinstance(value, (bool, int)) and where is not None:
            entries.append((key, Leaf(value, path, where[0], where[1], where[2])))
        else:  # strings, floats, dates, arrays; or a key the scan did not place
            entries.append((key, Leaf(UNKNOWN, path, row, 1, "")))
    first = min((lines[keys + (k,)][0] for k in table if keys + (k,) in lines), default=line)
    return Tree(tuple(entries), path, first)


def _key_lines(text: str) -> Dict[Tuple[str, ...], Tuple[int, int, str]]:
    """Key path -> (line, column of the value, the value's text) for each ``key = value`` the
    scan places, and table path -> (line, 1, "") for each ``[table]`` header."""
    found: Dict[Tuple[str, ...], Tuple[int, int, str]] = {}
    table: Tuple[str, ...] = ()
    rows = text.split("\n")
    index = 0
    while index < len(rows):
        raw = rows[index]
        number = index + 1
        index += 1
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[["):
            table = ("\0array",)  # keys below an array of tables are not placed
            continue
        if stripped.startswith("["):
            header = _keys(stripped[1:].split("]", 1)[0])
            table = tuple(header) if header is not None else ("\0unknown",)
            found.setdefault(table, (number, 1, ""))
            continue
        key_text, equals, rest = raw.partition("=")
        keys = _keys(key_text) if equals else None
        if keys is None:
            continue
        column = len(key_text) + 2 + (len(rest) - len(rest.lstrip()))
        value = _value_text(rest)
        if value.startswith(('"""', "'''")) and value.count(value[:3]) < 2 or value.startswith("[") and not _closed(value):
            index = _skip(rows, index, value)  # a value spanning lines: not a key line inside it
        if table and table[0].startswith("\0"):
            continue
        found[table + tuple(keys)] = (number, column, value)
        if value.startswith("{") and _closed(value):  # ``loader = { num_workers = 0 }``
            _inline(found, table + tuple(keys), value, number, column)
    return found


def _inline(found: Dict[Tuple[str, ...], Tuple[int, int, str]], keys: Tuple[str, ...], value: str, number: int, column: int) -> None:
    """The keys of a one-line inline table, at that line (nested inline tables are not placed)."""
    inner = value[1 : value.rfind("}")]
    offset = column + 1
    for piece in _top_level_split(inner):
        key_text, equals, rest = piece.partition("=")
        parts = _keys(key_text) if equals else None
        if parts is not None and not rest.strip().startswith(("{", "[")):
            at = offset + len(key_text) + 1 + (len(rest) - len(rest.lstrip()))
            found[keys + tuple(parts)] = (number, at, rest.strip())
        offset += len(piece) + 1


def _top_level_split(text: str) -> List[str]:
    pieces, depth, quote, start = [], 0, "", 0
    for at, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            pieces.append(text[start:at])
            start = at + 1
    pieces.append(text[start:])
    return pieces


def _keys(text: str) -> Optional[List[str]]:
    """``data.loader`` / ``"my key"`` / ``a."b.c"``: the dotted key's parts, None when not a key."""
    parts: List[str] = []
    rest = text.strip()
    while rest:
        if rest[0] in "\"'":
            end = rest.find(rest[0], 1)
            if end < 0:
                return None
            parts.append(rest[1:end])
            rest = rest[end + 1 :].strip()
        else:
            match = _BARE.match(rest)
            if match is None:
                return None
            parts.append(match.group(0))
            rest = rest[match.end() :].strip()
        if rest.startswith("."):
            rest = rest[1:].strip()
        elif rest:
            return None
    return parts or None


def _value_text(rest: str) -> str:
    """The value as written, without a trailing comment (outside strings)."""
    value = rest.strip()
    if value[:1] in "\"'[{":
        return value
    return value.split("#", 1)[0].strip()


def _closed(value: str) -> bool:
    depth = 0
    quote = ""
    for char in value:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth <= 0


def _skip(rows: List[str], index: int, value: str) -> int:
    """The index of the first row after a multi-line string or array that starts on the row
    before ``index``."""
    if value.startswith(('"""', "'''")):
        mark = value[:3]
        while index < len(rows) and mark not in rows[index]:
            index += 1
        return index + 1
    depth = 0
    text = value
    while True:
        for char in text.split("#", 1)[0]:
            depth += char in "[{"
            depth -= char in "]}"
        if depth <= 0 or index >= len(rows):
            return index
        text = rows[index]
        index += 1
