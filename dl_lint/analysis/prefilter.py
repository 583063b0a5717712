"""Cheap decisions about which files need the full libcst analysis.

Two stages: a byte search (does the file mention a loader name at all?), then the standard
library's C parser: does the module contain a call whose callee could be a loader? Most files
that mention ``DataLoader`` only do so in docstrings, imports or type hints; libcst's scope
analysis costs about 30× an ``ast`` parse, so it is paid only where a call exists. The check is
conservative (a superset): a name that merely *could* hold a loader class counts.
"""

from __future__ import annotations

import ast
import re
import types
import warnings
from typing import Iterable, Set

LOADER_NAMES = frozenset({"DataLoader", "StatefulDataLoader"})


def mentions_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    names = (*LOADER_NAMES, *(n.rsplit(".", 1)[-1] for n in extra_names))
    return any(name.encode() in data for name in names)


def may_construct_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """True unless the module provably calls nothing that could be a loader. A module that
    does not parse returns True, so the full analysis reports it."""
    if not _code_mentions_loader(data, extra_names):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True
    plain = plain_classes(tree)
    names = candidate_names(tree, extra_names, plain)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if callee in names:
                return True
            if callee in plain and (isinstance(func, ast.Name) or _on_self(func)):
                continue  # a function, or a class not deriving from a loader, of this module
            if callee is not None and _looks_like_loader(callee):
                return True
            if callee is None and _used_names(func) & names:
                return True  # (DataLoader if c else Other)(...)
    return False


# Branches the compiler drops (``if False:``): names used only there are not in the code.
_DEAD_BRANCH = re.compile(rb"\b(?:if|elif|while)[ \t(]+(?:False|0|None|not[ \t]+__debug__)\b")


def _code_mentions_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """Whether an identifier that could name a loader occurs in the module's code rather than
    only in its docstrings, comments and strings (most files that mention DataLoader at all).
    Read from the names of the compiled code objects: compiling runs in C, several times
    faster than walking the tree in Python. Without such an identifier no call can construct
    a loader (``candidate_names`` starts from these names). True when unsure."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(data, "<dl-lint>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, MemoryError, RecursionError, OverflowError):
        return True  # the ast stage decides (and the full analysis reports a syntax error)
    if _DEAD_BRANCH.search(data):
        return True
    extra = {n.rsplit(".", 1)[-1] for n in extra_names}
    todo = [code]
    while todo:
        current = todo.pop()
        for group in (current.co_names, current.co_varnames, current.co_cellvars, current.co_freevars):
            for name in group:
                if name in extra or "loader" in name.lower():
                    return True
        todo.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return False


def _on_self(func: ast.AST) -> bool:
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")


def _looks_like_loader(name: str) -> bool:
    """Imported project subclasses (``InfiniteDataLoader``) are only known by their name here."""
    return "loader" in name.lower()


def plain_classes(tree: ast.AST) -> Set[str]:
    """Names bound only by ``class`` and ``def`` statements of this module (never imported,
    assigned, or used as a parameter or loop variable). Whether such a class is a loader depends
    only on its bases, which ``candidate_names`` follows, and calling such a function (or
    method, through ``self``/``cls``) constructs nothing here: any loader it builds is a call
    in its own body. The name alone (torch's ``_SingleProcessDataLoaderIter``,
    ``is_dataloader_function``) says nothing."""
    classes: Set[str] = set()
    other: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            classes.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            other.add(node.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                other.add(alias.asname or alias.name.split(".")[0])
                other.add(alias.name.rsplit(".", 1)[-1])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            other.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            other.update(node.names)
        elif type(node).__name__ in ("MatchAs", "MatchStar") and getattr(node, "name", None):
            other.add(node.name)
        elif type(node).__name__ == "MatchMapping" and getattr(node, "rest", None):
            other.add(node.rest)
    return classes - other


def candidate_names(tree: ast.AST, extra_names: Iterable[str] = (), plain: Set[str] = frozenset()) -> Set[str]:
    """Names that may be bound to a loader class: the known names, import aliases, and names
    assigned or subclassed from expressions mentioning one (``Loader = partial(DataLoader)``),
    to a fixpoint. Callees with other names are not loaders. A name in ``plain`` (see
    ``plain_classes``) counts only through its bases, not because it looks like a loader."""
    names: Set[str] = set(LOADER_NAMES) | {n.rsplit(".", 1)[-1] for n in extra_names}
    bindings = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.asname:
                    bindings.append(({alias.asname}, {alias.name.rsplit(".", 1)[-1]}))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bindings.append((_bound_names(targets), _used_names(node.value)))
        elif isinstance(node, ast.ClassDef):
            bindings.append(({node.name}, {n for base in node.bases for n in _used_names(base)}))
    changed = True
    while changed:
        changed = False
        for bound, used in bindings:
            if (used & names or any(_looks_like_loader(u) and u not in plain for u in used)) and not bound <= names:
                names |= bound
                changed = True
    return names


def may_be_loader_callee(callee: str, names: Set[str]) -> bool:
    return callee in names or _looks_like_loader(callee)


def _bound_names(targets) -> Set[str]:
    out: Set[str] = set()
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                out.add(node.id)
            elif isinstance(node, ast.Attribute):
                out.add(node.attr)
    return out


def _used_names(expr: ast.AST) -> Set[str]:
    out: Set[str] = set()
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
    return out
