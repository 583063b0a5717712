"""Namespaces as values: what a helper function that parses the command line returns.

``args = parse_args()`` where ``parse_args`` (in the script, or in a helper module the script
imports: ``from utils.args import parse_args``) returns ``parser.parse_args()``: ``args.workers``
is the default of ``--workers`` in the module that builds the parser, as if it were parsed in the
script. The add_argument calls counted are those of the helper's module (as for a parser of the
script itself: every ``add_argument`` of a module, whichever function makes it, so a parser
assembled by several functions of one module is read whole).

``namespace_return`` classifies a function by its ``return`` statements (pure syntax, kept in the
module summary so importers need not parse the module again):

- ``NAMESPACE`` (-1): every return gives the namespace itself (``return parser.parse_args()``, or a
  local name bound only to ``parser.parse_args()``);
- ``k >= 0``: every return gives a tuple whose element ``k`` is the namespace
  (``return args, args_text``; ``return parser.parse_known_args()`` is element 0);
- ``PARSER`` (-2): every return gives the parser (``return parser`` with ``parser =
  argparse.ArgumentParser(...)``), whose ``parse_args()`` the caller makes;
- None: anything else (then the call's result is unknown, as before).

What stays unknown: a parser whose arguments are added in another module than the one that
builds it, ``parse_args(argv)`` is read like ``parse_args()`` (as for a parser of the script), a
namespace passed through more than one helper call, and ``vars(args)``.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from dl_lint.record import Record

NAMESPACE = -1
PARSER = -2

_PARSE = frozenset({"parse_args"})
_PARSE_KNOWN = frozenset({"parse_known_args", "parse_known_intermixed_args"})
_PARSER_CLASSES = frozenset({"ArgumentParser"})
_ANY_ATTRIBUTE = frozenset({"setattr", "vars", "__dict__"})
# Element 0 of ``parser.parse_known_args()``, as ``_assigned`` reports it.
_PARSED = ast.Call(func=ast.Attribute(value=ast.Name(id="_"), attr="parse_args"), args=[], keywords=[])


class ParsedArgs(Record):
    """The namespace ``parse_args()`` returns for the parser of module ``module`` (file
    ``path``): its attributes are that module's argparse options, less ``edited`` (attributes
    the helper that returns it may set itself: unknown; ``"*"``: every one)."""

    __slots__ = ("module", "path", "edited")

    def __init__(self, module: str, path: str, edited: Tuple[str, ...] = ()) -> None:
        self.module = module
        self.path = path
        self.edited = edited


def edited_attributes(function: ast.AST, names: Optional[Set[str]] = None) -> Tuple[str, ...]:
    """The attributes a function sets on any object (``args.workers = 0``, ``args.x += 1``), or
    ``("*",)`` when it may set any (``setattr``, ``vars(...)``, ``__dict__``; ``names``: the
    names and attributes the function mentions, ``FunctionUse.names``). Without ``names``,
    computed once per function and kept on its node: a module-level ``parse_args()`` namespace
    handed to N calls asked it of the whole module at each call (N walks of the module)."""
    if names is None:
        found = getattr(function, "_dl_edited", None)
        if found is None:
            names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(function) if isinstance(n, ast.Attribute)}
            found = edited_attributes(function, names)
            try:
                function._dl_edited = found  # type: ignore[attr-defined]
            except AttributeError:  # not an ast node (no attributes of its own): not kept
                pass
        return found
    if names & _ANY_ATTRIBUTE:
        return ("*",)
    found = set()
    for node in statements_of(function):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                    found.add(part.attr)
    return tuple(sorted(found))


def returned_parameter(function: ast.AST) -> Optional[int]:
    """The position of the parameter every ``return`` of ``function`` hands back unchanged
    (``def setup(args): ...; return args``), when the function never rebinds it; else None."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    returns = returns_of(function)
    names = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if not returns or len(names) != 1 or any(not isinstance(r.value, ast.Name) for r in returns):
        return None
    name = names.pop()
    if name not in params:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return None
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
    return params.index(name)


WHOLE = -1  # ``returned_argument``: the whole return value (not an element of a returned tuple)


def returned_argument(function: ast.AST, param: str) -> Optional[Tuple[int, Optional[int], Tuple[ast.Name, ...]]]:
    """Where every ``return`` of ``function`` hands its parameter ``param`` back unchanged:
    ``WHOLE`` for ``return param``, ``i`` for element ``i`` of a returned tuple display of the
    same length everywhere (``return model, optimizer, training_data, scheduler``), with that
    length (None for the whole value) and the returned name nodes; None when a ``return`` gives anything else there (or nothing), or the
    function rebinds the parameter. A path that falls off the end returns None, which no loop
    iterates: where the result is iterated, it is the argument."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    returns = returns_of(function)
    if not returns:
        return None
    position: Optional[int] = None
    length: Optional[int] = None
    named: List[ast.Name] = []
    for statement in returns:
        value = statement.value
        if isinstance(value, ast.Name) and value.id == param:
            where, size, node = WHOLE, None, value
        elif isinstance(value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in value.elts):
            hits = [i for i, e in enumerate(value.elts) if isinstance(e, ast.Name) and e.id == param]
            if len(hits) != 1:
                return None
            where, size, node = hits[0], len(value.elts), value.elts[hits[0]]
        else:
            return None
        if position is not None and (where, size) != (position, length):
            return None
        position, length = where, size
        named.append(node)
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == param and isinstance(node.ctx, (ast.Store, ast.Del)):
            return None
        if isinstance(node, (ast.Global, ast.Nonlocal)) and param in node.names:
            return None
    return position, length, tuple(named)


# Calls that only read a ``__dict__`` they are given (``for k in sorted(args.__dict__)``).
_READS_DICT = frozenset({"sorted", "len", "list", "print", "str", "repr", "format", "pprint", "json.dumps", "info", "debug"})
_DICT_READ_METHODS = frozenset({"get", "items", "keys", "values", "copy", "__getitem__", "__contains__"})


def passed_edits(function: ast.AST) -> Tuple[str, ...]:
    """``edited_attributes`` of a function that hands a namespace back, reading its
    ``__dict__`` without changing it (``for key in sorted(args.__dict__): log(...)``): only a
    write through ``__dict__`` (``args.__dict__[k] = v``, ``.update(...)``, an alias, a call
    that may change it) makes every attribute unknown."""
    names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(function) if isinstance(n, ast.Attribute)}
    if "__dict__" in names and not _writes_dict(function):
        names.discard("__dict__")
    return edited_attributes(function, names)


def _writes_dict(function: ast.AST) -> bool:
    def is_dict(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "__dict__"

    uses = sum(1 for n in ast.walk(function) if is_dict(n))
    harmless = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript) and is_dict(node.value):
            if not isinstance(node.ctx, ast.Load):
                return True
            harmless += 1
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and is_dict(func.value):
                if func.attr not in _DICT_READ_METHODS:
                    return True
                harmless += 1
            callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if callee in _READS_DICT:
                harmless += sum(1 for a in node.args if is_dict(a))
        elif isinstance(node, (ast.For, ast.comprehension)) and is_dict(node.iter):
            harmless += 1
        elif isinstance(node, ast.Compare) and any(is_dict(c) for c in node.comparators):
            harmless += sum(1 for c in node.comparators if is_dict(c))
    return harmless < uses  # some other use: it may be changed


class ParserRef(Record):
    """A parser built by a helper of module ``module`` (file ``path``)."""

    __slots__ = ("module", "path")

    def __init__(self, module: str, path: str) -> None:
        self.module = module
        self.path = path


def statements_of(function: ast.AST) -> Iterator[ast.stmt]:
    """The statements of a function's body, at any depth of its blocks, not those of the
    functions and classes it defines (expressions are not walked: a body of a thousand
    ``add_argument`` calls costs one step per statement). Listed once per function and kept on
    its node: a function's summary asks five questions of the same statements."""
    found = getattr(function, "_dl_statements", None)
    if found is None:
        found = _statements_of(function)
        try:
            function._dl_statements = found  # type: ignore[attr-defined]
        except AttributeError:  # not an ast node (no attributes of its own): not kept
            pass
    return iter(found)


def _statements_of(function: ast.AST) -> Tuple[ast.stmt, ...]:
    out: List[ast.stmt] = []
    stack: List[ast.stmt] = list(getattr(function, "body", ()))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(node, field, ()))
        for handler in getattr(node, "handlers", ()):
            stack.extend(handler.body)
        for case in getattr(node, "cases", ()):
            stack.extend(case.body)
    return tuple(out)


def returns_of(function: ast.AST) -> List[ast.Return]:
    """The ``return`` statements of a function, not of the functions and classes it defines."""
    return [node for node in statements_of(function) if isinstance(node, ast.Return)]


def _call_kind(expr: ast.AST) -> Optional[int]:
    """NAMESPACE for ``x.parse_args(...)``, 0 for ``x.parse_known_args(...)`` (a tuple),
    PARSER for ``argparse.ArgumentParser(...)``, else None."""
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if isinstance(func, ast.Attribute) and name in _PARSE:
        return NAMESPACE
    if isinstance(func, ast.Attribute) and name in _PARSE_KNOWN:
        return 0
    if name in _PARSER_CLASSES:
        return PARSER
    return None


def _assigned(function: ast.AST, name: str) -> List[Optional[ast.AST]]:
    """The values assigned to a plain local ``name`` in the function (None for any other
    binding of it: unpacking, loops, augmented assignment, ``with``)."""
    values: List[Optional[ast.AST]] = []
    for node in statements_of(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    values.append(node.value)
                elif isinstance(target, (ast.Tuple, ast.List, ast.Starred)) and any(
                    isinstance(t, ast.Name) and t.id == name for t in ast.walk(target)
                ):
                    # ``args, rest = parser.parse_known_args()``: element 0 of that tuple
                    first = target.elts[0] if isinstance(target, (ast.Tuple, ast.List)) and target.elts else None
                    known = isinstance(first, ast.Name) and first.id == name and _call_kind(node.value) == 0
                    values.append(_PARSED if known else None)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            target = node.target
            if any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(target)):
                values.append(None)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None and any(
                    isinstance(t, ast.Name) and t.id == name for t in ast.walk(item.optional_vars)
                ):
                    values.append(None)
    return values


def _kind_of(function: ast.AST, expr: ast.AST, depth: int = 0) -> Optional[int]:
    kind = _call_kind(expr)
    if kind is not None:
        return kind
    if isinstance(expr, ast.Name) and depth < 2:
        values = _assigned(function, expr.id)
        kinds = {(_kind_of(function, v, depth + 1) if v is not None else None) for v in values}
        if len(kinds) == 1:
            return kinds.pop()
    return None


def namespace_return(function: ast.AST) -> Optional[int]:
    """What the function returns, as the module docstring says (None: not a namespace)."""
    returns = returns_of(function)
    if not returns or any(r.value is None for r in returns):
        return None
    kinds = set()
    for statement in returns:
        value = statement.value
        if isinstance(value, ast.Tuple):
            found = [i for i, element in enumerate(value.elts) if _kind_of(function, element) == NAMESPACE]
            kinds.add(found[0] if len(found) == 1 else None)
        else:
            kinds.add(_kind_of(function, value))
        if len(kinds) > 1 or None in kinds:
            return None
    return kinds.pop()


# At most this many constructions make a factory (a registry of a few dozen datasets is
# judged as each of them; beyond it, unknown).
MAX_BUILT = 32


def built_by(function: ast.AST) -> List[Tuple[ast.Call, int]]:
    """A factory's constructions: (call, row) of each ``return Name(...)`` or ``return
    module.Name(...)`` when every ``return`` (at most ``MAX_BUILT``) is one and the function is not a
    generator; a ``return NAME`` stands for every value assigned to the local ``NAME``, when each
    is such a call (``dataset = VQADataset(...)`` under one ``if``, ``dataset =
    CaptionDataset(...)`` under another); [] otherwise. Importers resolve the callee (a project class: the dataset is an
    instance of it, as if built at their call)."""
    returns = returns_of(function)
    if not returns or len(returns) > MAX_BUILT or isinstance(function, ast.AsyncFunctionDef):
        return []
    found = []
    parameters = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}  # type: ignore[attr-defined]
    reads: Optional[Dict[str, int]] = None
    for statement in returns:
        value = statement.value
        if isinstance(value, ast.Name) and value.id not in parameters:
            # ``dataset = VQA(...)`` / ``dataset = Caption(...)`` on branches, then ``return
            # dataset``: each construction assigned to the name (every binding of it one)
            assigned = _assigned(function, value.id)
            if not assigned or not all(isinstance(v, ast.Call) and v is not _PARSED and _dotted(v.func) for v in assigned):
                return []  # (``_PARSED``: ``args, _ = parser.parse_known_args()``, no construction)
            if reads is None:
                reads = _loads(function)
            if reads.get(value.id, 0) != sum(isinstance(r.value, ast.Name) and r.value.id == value.id for r in returns):
                # read elsewhere too (``functools.update_wrapper(result, f)``, ``result.x = y``):
                # what it is when returned is not only the construction
                return []
            found.extend((v, v.lineno) for v in assigned)  # type: ignore[union-attr]
            continue
        if not isinstance(value, ast.Call) or not _dotted(value.func):
            return []
        found.append((value, statement.lineno))
    if len(found) > MAX_BUILT:
        return []
    if any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in ast.walk(function)):
        return []
    return found


def _loads(function: ast.AST) -> Dict[str, int]:
    """How many times each name is read in a function (nested scopes included)."""
    counts: Dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
    return counts


def _dotted(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)
