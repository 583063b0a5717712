"""Where an expression sits among the loops of its function: the loops around it, whether it is
in an ``except`` handler, how many times a loop runs when that is written down, and whether a
loop holds other loops. Facts for DL206 (an epoch loop around an iteration) and DL302 (a fresh
iterator at every step). Plain ``ast``; nested functions and classes are not entered (their
bodies run when called, not where they are written).
"""

from __future__ import annotations

import ast
from typing import Callable, Dict, Iterator, List, Optional, Tuple

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# Calls whose result a ``for`` loop walks without touching data: loops over these inside a step
# loop are bookkeeping (parameters, dict entries), not an epoch over a loader. ``range`` is not
# one: ``for i in range(steps_per_epoch)`` inside a loop makes that loop an epoch loop.
_BOOKKEEPING = frozenset({"parameters", "named_parameters", "items", "keys", "values", "modules", "children"})


def loops_around(owner: ast.AST, target: ast.AST) -> Optional[Tuple[List[ast.AST], bool]]:
    """The loops (``for``, ``while``, comprehensions; outermost first) of ``owner`` (a function
    or a module) that run ``target`` repeatedly, and whether ``target`` is in an ``except``
    handler. None when ``target`` is not in ``owner``'s own body."""
    for node, loops, handler in _walk(owner):
        if node is target:
            return list(loops), handler
    return None


def loop_map(owner: ast.AST) -> Dict[int, Tuple[Tuple[ast.AST, ...], bool]]:
    """``loops_around`` for every statement and call of ``owner``'s own body at once, by id:
    one walk of ``owner`` instead of one per question."""
    found: Dict[int, Tuple[Tuple[ast.AST, ...], bool]] = {}
    for node, loops, handler in _walk(owner):
        if isinstance(node, (ast.stmt, ast.Call)):
            found.setdefault(id(node), (loops, handler))
    return found


def _walk(owner: ast.AST) -> Iterator[Tuple[ast.AST, Tuple[ast.AST, ...], bool]]:
    """Every node of ``owner``'s own body (not inside the functions and classes it defines, which
    are yielded but not entered), in source order, with the loops around it (innermost last)
    and whether it is inside an ``except`` handler."""
    stack: List[Tuple[ast.AST, Tuple[ast.AST, ...], bool]] = [
        (statement, (), False) for statement in reversed(getattr(owner, "body", []))
    ]
    while stack:
        node, loops, handler = stack.pop()
        yield node, loops, handler
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, (ast.For, ast.AsyncFor)):
            inner = loops + (node,)
            children = [(node.iter, loops), (node.target, inner)]
            children += [(s, inner) for s in node.body] + [(s, loops) for s in node.orelse]
            stack.extend((child, where, handler) for child, where in reversed(children))
            continue
        if isinstance(node, ast.While):
            inner = loops + (node,)
            children = [(node.test, inner)] + [(s, inner) for s in node.body] + [(s, loops) for s in node.orelse]
            stack.extend((child, where, handler) for child, where in reversed(children))
            continue
        if isinstance(node, _COMPREHENSIONS):
            first = node.generators[0].iter  # evaluated once, outside the comprehension's loop
            inner = loops + (node,)
            rest = [child for child in ast.iter_child_nodes(node) if child is not first]
            stack.extend((child, inner, handler) for child in reversed(rest))
            stack.append((first, loops, handler))
            continue
        if isinstance(node, ast.ExceptHandler):
            stack.extend((child, loops, True) for child in reversed(list(ast.iter_child_nodes(node))))
            continue
        stack.extend((child, loops, handler) for child in reversed(list(ast.iter_child_nodes(node))))


def loop_count(loop: ast.AST, resolve: Callable[[ast.AST], object]) -> Optional[int]:
    """How many times the body runs, for ``for _ in range(...)`` with known integer arguments and
    for a literal list or tuple; None otherwise (``while`` loops, unknown bounds).
    ``resolve(node)`` gives an ``analysis.values.Value``."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        iterable = loop.iter
    elif isinstance(loop, _COMPREHENSIONS) and len(loop.generators) == 1:
        iterable = loop.generators[0].iter
    else:
        return None
    if isinstance(iterable, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in iterable.elts):
        return len(iterable.elts)
    if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range"):
        return None
    if iterable.keywords or not 1 <= len(iterable.args) <= 3:
        return None
    func = resolve(iterable.func).single
    if func is None or getattr(func.value, "qualname", None) != "builtins.range":
        return None  # a ``range`` of the project's own
    bounds = []
    for argument in iterable.args:
        single = resolve(argument).single
        value = single.value if single is not None else None
        if type(value) is not int:
            return None
        bounds.append(value)
    try:
        return len(range(*bounds))
    except (ValueError, OverflowError):
        return None


def has_inner_loop(loop: ast.AST) -> bool:
    """Whether the body of ``loop`` holds another loop (a ``while``, or a ``for`` over anything
    but a literal, a model's parameters or a dict's entries): then ``loop`` is likely an epoch
    loop (steps inside it), not a step loop."""
    body = list(getattr(loop, "body", []))
    stack: List[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.While):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor)) and not _bookkeeping(node.iter):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _bookkeeping(iterable: ast.AST) -> bool:
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return True
    if isinstance(iterable, ast.Call):
        func = iterable.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in ("enumerate", "reversed", "sorted") and iterable.args:
            return _bookkeeping(iterable.args[0])
        return name in _BOOKKEEPING
    return False
