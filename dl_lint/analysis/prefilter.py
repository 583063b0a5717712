"""Cheap decisions about which files and calls can construct a loader.

Bytes first, and only bytes decide whether a file is parsed: it must mention a loader name
(``DataLoader``, ``StatefulDataLoader``, an ``extra-loaders`` name), and show a call or a
rebinding of one: ``DataLoader(``, ``InfiniteDataLoader(``, ``FastLoader(`` (a class-like name
ending in Loader, as project subclasses are named), ``DataLoader as``, ``= DataLoader``,
``partial(DataLoader``, ``class X(DataLoader``, ``DataLoader if`` / ``else DataLoader``. Most
files that mention DataLoader do so in imports, type hints and docstrings only; parsing is the
largest cost of a run, so they are skipped.

Then, on the module's index (``analysis.scopes``, built from the one parse): which callees
could hold a loader class. Only those calls are resolved (resolving a callee can load another
module's summary). This check is conservative (a superset): a name that merely *could* hold a
loader class counts.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Dict, Iterable, List, Set, Tuple

from dl_lint.analysis.scopes import ModuleIndex
from dl_lint.analysis.syntax import is_literal_data

LOADER_NAMES = frozenset({"DataLoader", "StatefulDataLoader"})


def mentions_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    names = (*LOADER_NAMES, *(n.rsplit(".", 1)[-1] for n in extra_names))
    return any(name.encode() in data for name in names)


_CALL_AFTER = re.compile(rb"\w*\s*\(")  # DataLoader(, DataLoaderX(
_REBIND_AFTER = re.compile(rb"\s+(?:as|if)\b")  # import ... as L; DataLoader if c else Other
_REBIND_BEFORE = re.compile(
    rb"(?:=\s*\(?\s*|\belse\s+|\bpartial\s*\(\s*|\bclass\s+\w+\s*\([^)]*?)(?:[\w.]+\.)?$"
)
_CLASS_LIKE_CALL = re.compile(rb"Loader\w*\s*\(")


@lru_cache(maxsize=16)
def _names_pattern(extra: Tuple[str, ...]) -> "re.Pattern[bytes]":
    return re.compile(b"|".join(re.escape(n.encode()) for n in sorted({"DataLoader", *extra}, key=len, reverse=True)))


def may_construct(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """Whether the bytes of a file that mentions a loader show a call or a rebinding of one
    (see the module docstring): the files worth parsing. Every test is anchored on a literal
    (the loader names, ``Loader``), so the scan runs at the speed of a substring search.
    Occurrences in comments and doctest lines (``>>>``, ``...``) do not count."""
    extra = tuple(sorted({n.rsplit(".", 1)[-1] for n in extra_names}))
    for match in _names_pattern(extra).finditer(data):
        start, end = match.span()
        line_start = data.rfind(b"\n", 0, start) + 1
        before = data[max(line_start, start - 200) : start]
        if _in_comment_or_doctest(data, line_start, start):
            continue
        if _CALL_AFTER.match(data, end) or _REBIND_AFTER.match(data, end) or _REBIND_BEFORE.search(before):
            return True
    for match in _CLASS_LIKE_CALL.finditer(data):  # FastLoader(: a project subclass, by its name
        begin = match.start()
        while begin > 0 and (data[begin - 1 : begin].isalnum() or data[begin - 1 : begin] == b"_"):
            begin -= 1
        if begin < match.start() and data[begin : begin + 1].isupper():
            if not _in_comment_or_doctest(data, data.rfind(b"\n", 0, begin) + 1, begin):
                return True
    return False


def _in_comment_or_doctest(data: bytes, line_start: int, at: int) -> bool:
    prefix = data[line_start:at].lstrip()
    if prefix.startswith((b"#", b">>>", b"...")):
        return True
    hash_at = prefix.find(b"#")
    return hash_at >= 0 and b"'" not in prefix[:hash_at] and b'"' not in prefix[:hash_at]


def looks_like_loader(name: str) -> bool:
    """Imported project subclasses (``InfiniteDataLoader``) are only known by their name here."""
    return "loader" in name.lower()


class LoaderCallees:
    """Which callees of one module may construct a loader: the known names, import aliases, and
    names assigned or subclassed from expressions mentioning one (``Loader = partial(DataLoader)``),
    to a fixpoint. A name bound only by ``class``/``def`` statements of this module (never
    imported, assigned, or a parameter) counts only through its bases: its name alone
    (torch's ``_SingleProcessDataLoaderIter``) says nothing, and calling such a function
    constructs nothing here (any loader it builds is a call in its own body)."""

    def __init__(self, index: ModuleIndex, extra_names: Iterable[str] = ()) -> None:
        bindings: List[Tuple[Set[str], Set[str]]] = []
        defined: Set[str] = set()
        other: Set[str] = set()
        scopes = [index.module_scope, *index.scopes.values()]
        for scope in scopes:
            for name, found in scope.bindings.items():
                for binding in found:
                    if binding.kind in ("def", "class"):
                        defined.add(name)
                        if binding.kind == "class":
                            bindings.append(({name}, _used(binding, binding.node.bases)))
                        continue
                    other.add(name)
                    if binding.kind == "import":
                        alias = binding.alias
                        other.add(alias.name.rsplit(".", 1)[-1])
                        if alias.asname:
                            bindings.append(({alias.asname}, {alias.name.rsplit(".", 1)[-1]}))
                    elif binding.kind in ("assign", "unpack") and binding.value is not None:
                        bindings.append(({name}, _used(binding, (binding.value,))))
        for attr, used in index.attr_used.items():
            bindings.append(({attr}, used))
        self.plain = defined - other
        names: Set[str] = set(LOADER_NAMES) | {n.rsplit(".", 1)[-1] for n in extra_names}
        users: Dict[str, List[Set[str]]] = {}  # name -> what the bindings mentioning it bind
        for bound, used in bindings:
            for name in used:
                users.setdefault(name, []).append(bound)
        # A name that looks like a loader (and is not a plain class/def of this module) counts
        # as one when a binding mentions it.
        names |= {u for u in users if looks_like_loader(u)} - self.plain
        todo = list(names)
        while todo:
            for bound in users.get(todo.pop(), ()):
                for name in bound - names:
                    names.add(name)
                    todo.append(name)
        self.names = names

    def may_be_loader(self, func: ast.AST) -> bool:
        if isinstance(func, (ast.Name, ast.Attribute)):
            callee = func.id if isinstance(func, ast.Name) else func.attr
            if callee in self.names:
                return True
            if callee in self.plain and (isinstance(func, ast.Name) or _on_self(func)):
                return False  # a function, or a class not deriving from a loader, of this module
            return looks_like_loader(callee)
        return bool(used_names(func) & self.names)  # (DataLoader if c else Other)(...), partial(...)(...)

    def any_call(self, index: ModuleIndex) -> bool:
        return any(self.may_be_loader(call.func) for call, _, _, _ in index.calls)


def _used(binding, nodes) -> Set[str]:
    """The names a binding's value (or class bases) mentions: recorded by the collector, else
    found by walking them."""
    if binding.used is not None:
        return binding.used
    return {n for node in nodes for n in used_names(node)}


def _on_self(func: ast.AST) -> bool:
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")


def used_names(expr: ast.AST) -> Set[str]:
    out: Set[str] = set()
    if is_literal_data(expr):
        return out
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
    return out


def may_construct_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """True unless the module provably calls nothing that could be a loader: its bytes show no
    call (``may_construct``), or its parse shows none (a module that does not parse returns
    True, so the analysis reports it). The engine asks ``LoaderCallees`` on the index of its
    one parse instead of parsing here."""
    from dl_lint.analysis.scopes import collect
    from dl_lint.analysis.syntax import ParseFailure, parse
    from dl_lint.source import decode

    if not mentions_loader(data, extra_names) or not may_construct(data, extra_names):
        return False
    try:
        tree = parse(decode(data))
    except (ParseFailure, SyntaxError, UnicodeDecodeError, LookupError):
        return True
    index = collect(tree)
    return LoaderCallees(index, extra_names).any_call(index)
