"""Parsing with the standard library's ``ast`` (CPython's C parser), and the small helpers every
analysis needs: 1-based character columns, source text of a node, literal values.

``ast`` positions count columns in UTF-8 bytes of the line; reports count characters (as ruff
does), so every position goes through ``SourceText.location``. Lines are split as Python splits
them (``\\r\\n``, ``\\r``, ``\\n``; a form feed is whitespace, not a line break).
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from typing import Any, Dict, List, Optional, Tuple

from dl_lint.model import Location

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NO_LITERAL = object()


class ParseFailure(Exception):
    """The source is not Python this interpreter can parse: ``reason`` is one line, ``row`` and
    ``column`` (1-based) say where."""

    def __init__(self, reason: str, row: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.row = max(row or 1, 1)
        self.column = max(column or 1, 1)


def parse(source: str) -> ast.Module:
    """``ast.parse``, with every way it can fail turned into ``ParseFailure``. Python is given no
    file name: when one names a file on disk, CPython reads the error's line from that file to
    count its column, and a notebook's source (its cells joined) or an unsaved buffer is not that
    file's text (a notebook cell's error after Korean text was placed at column 20 instead of 51,
    counted on the JSON's line)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for "\d" and the like: not ours to report
            return ast.parse(source, "<dl-lint>")
    except SyntaxError as exc:
        message = " ".join(str(exc.msg or "invalid syntax").split())
        raise ParseFailure(message, exc.lineno or 1, exc.offset or 1) from None
    except (RecursionError, MemoryError):
        raise ParseFailure("expressions nested too deeply for the parser") from None
    except ValueError as exc:  # NUL bytes (before Python 3.12), lone surrogates
        raise ParseFailure(" ".join(str(exc).split()) or "invalid source") from None
    except UnicodeError as exc:  # pragma: no cover - a lone surrogate through the Python API
        raise ParseFailure(f"the source holds a character UTF-8 cannot encode ({exc.reason})") from None


class SourceText:
    """The lines of one source text, for positions and source segments."""

    __slots__ = ("source", "_lines")

    def __init__(self, source: str) -> None:
        self.source = source
        self._lines: Optional[List[str]] = None

    @property
    def lines(self) -> List[str]:
        if self._lines is None:
            source = self.source
            self._lines = source.split("\n") if "\r" not in source else _LINE_BREAK.split(source)
        return self._lines

    def line(self, row: int) -> str:
        lines = self.lines
        return lines[row - 1] if 0 < row <= len(lines) else ""

    def column(self, row: int, byte_col: int) -> int:
        """The 0-based character column of a UTF-8 byte column on ``row``."""
        text = self.line(row)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> Location:
        return Location(node.lineno, self.column(node.lineno, node.col_offset) + 1)

    def end(self, node: ast.AST) -> Location:
        row = node.end_lineno or node.lineno
        return Location(row, self.column(row, node.end_col_offset or 0) + 1)

    def span(self, node: ast.AST) -> Tuple[Location, Location]:
        return self.start(node), self.end(node)

    def segment(self, node: ast.AST) -> str:
        """The exact source text of ``node`` (comments and layout included)."""
        start, end = self.span(node)
        return self.between(start, end)

    def between(self, start: Location, end: Location) -> str:
        if start.row == end.row:
            return self.line(start.row)[start.column - 1 : end.column - 1]
        parts = [self.line(start.row)[start.column - 1 :]]
        parts.extend(self.line(row) for row in range(start.row + 1, end.row))
        parts.append(self.line(end.row)[: end.column - 1])
        return "\n".join(parts)


_PLAIN_BASES = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


def code(node: ast.AST) -> str:
    """Source text without whitespace: how guards and aliases are matched. Computed from the
    tree (not the file), so that the same expression gives the same key whether it was parsed
    from a whole module or from a summary's text."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and type(node.value) in _PLAIN_BASES:
        base = code(node.value)  # ``(a - b).abs`` goes to the unparser, which keeps the parentheses
        return f"{base}.{node.attr}"
    if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, bool)):
        return repr(node.value)  # what ast.unparse writes for them, without its visitor
    # Displays and calls of the above, joined as ast.unparse joins them (each element stands
    # alone between commas, so no parentheses change): a loader's ``[1]`` or ``range(n)`` without
    # the unparser, which cost 14 us a node (tests/test_syntax.py compares both).
    kind = type(node)
    if kind is ast.List:
        return f"[{','.join(map(code, node.elts))}]"
    if kind is ast.Tuple:
        inner = ",".join(map(code, node.elts))
        return f"({inner},)" if len(node.elts) == 1 else f"({inner})"
    if kind is ast.Call and type(node.func) in (ast.Name, ast.Attribute):
        parts = [code(a) for a in node.args]
        parts.extend(f"{k.arg}={code(k.value)}" if k.arg else f"**{code(k.value)}" for k in node.keywords)
        return f"{code(node.func)}({','.join(parts)})"
    return "".join(ast.unparse(node).split())


def parse_expression(text: str, line: int = 1) -> Optional[ast.expr]:
    """An expression kept as text in a module summary, parsed again (None if it does not parse,
    which cannot happen for text cut from a module that parsed)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(f"(\n{text}\n)", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if line > 2:
        ast.increment_lineno(tree, line - 2)  # the text starts on the second line of the wrapper
    return tree.body


def terminal(func: ast.AST) -> str:
    """The last name of a callee: ``DataLoader`` for ``torch.utils.data.DataLoader``."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def dotted(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for a chain of names, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def items_loop(node: ast.AST) -> Optional[Tuple[str, str, str]]:
    """(key, value, dict name) for ``for key, value in NAME.items():`` without an ``else``;
    None for any other statement."""
    if (
        isinstance(node, ast.For)
        and not node.orelse
        and isinstance(node.target, ast.Tuple)
        and len(node.target.elts) == 2
        and all(isinstance(e, ast.Name) for e in node.target.elts)
        and isinstance(node.iter, ast.Call)
        and isinstance(node.iter.func, ast.Attribute)
        and node.iter.func.attr == "items"
        and not node.iter.args
        and not node.iter.keywords
        and isinstance(node.iter.func.value, ast.Name)
    ):
        return node.target.elts[0].id, node.target.elts[1].id, node.iter.func.value.id
    return None


def flag_after_dashes(flag: ast.AST) -> Optional[ast.AST]:
    """``NAME`` of a flag written ``f"--{NAME}"`` or ``"--" + NAME``; None otherwise."""
    parts = flag.values if isinstance(flag, ast.JoinedStr) else [flag.left, flag.right] if isinstance(flag, ast.BinOp) and isinstance(flag.op, ast.Add) else []
    if len(parts) != 2 or literal(parts[0]) != "--":
        return None
    if isinstance(parts[1], ast.FormattedValue):
        return parts[1].value if parts[1].conversion == -1 and parts[1].format_spec is None else None
    return parts[1]


def literal(node: Optional[ast.AST]) -> Any:
    """The value of a literal number, string, bool or None (``-1`` included), else _NO_LITERAL."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, (bytes, type(Ellipsis))):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal(node.operand)
        if isinstance(inner, (int, float, complex)) and not isinstance(inner, bool):
            return -inner
    return _NO_LITERAL


NO_LITERAL = _NO_LITERAL


def is_literal_data(node: ast.AST, budget: int = 1 << 30) -> bool:
    """Whether ``node`` is a container of constants only (tuples of numbers, lists of strings...):
    such subtrees hold no call, name or scope, so walks can skip them. Cheap: one type check per
    element, no generic visit (large generated tables are thousands of these)."""
    stack = [node]
    constant = ast.Constant
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is constant:
            continue
        if kind is ast.Tuple or kind is ast.List or kind is ast.Set:
            stack.extend(current.elts)
        elif kind is ast.Dict:
            if any(k is None for k in current.keys):
                return False
            stack.extend(current.keys)
            stack.extend(current.values)
        elif kind is ast.UnaryOp and type(current.operand) is constant:
            continue
        else:
            return False
    return True


def is_generator(function: ast.AST) -> bool:
    """Whether ``function`` is a generator function: a ``yield`` of its own body (nested
    functions, lambdas and classes aside)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def docstring_statement(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


__all__ = [
    "ParseFailure",
    "parse",
    "SourceText",
    "code",
    "parse_expression",
    "terminal",
    "dotted",
    "literal",
    "NO_LITERAL",
    "is_literal_data",
    "docstring_statement",
]

if sys.version_info < (3, 9):  # pragma: no cover - requires-python says 3.9
    raise ImportError("dl-lint needs Python 3.9 or newer (ast.unparse)")


def arms(node: ast.AST, parents: Dict[int, ast.AST]) -> Dict[int, str]:
    """The ``if`` statements around ``node`` (by id, ``parents`` mapping each node's id to its
    parent), each with the arm it is in."""
    found: Dict[int, str] = {}
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            found[id(parent)] = "body" if any(child is s for s in parent.body) else "orelse"
        child, parent = parent, parents.get(id(parent))
    return found


def other_arms(a: ast.AST, b: ast.AST, parents: Dict[int, ast.AST]) -> bool:
    """Whether ``a`` and ``b`` sit in different arms of one ``if`` statement (``elif`` chains
    included): no path runs both."""
    first = arms(a, parents)
    return any(first.get(key, arm) != arm for key, arm in arms(b, parents).items())
