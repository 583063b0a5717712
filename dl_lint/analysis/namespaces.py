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

Two more sources live here: ``option_classes`` (pix2pix's ``BaseOptions``/``TrainOptions``:
``opt = TrainOptions().parse()`` carries the flags the classes of the chain add, read by
``Resolver.option_parse``) and ``expanded_set_defaults`` (timm's ``add_bool_arg`` helper:
``parser.set_defaults(**{dest_name: default})`` sets the keys its calls name).

What stays unknown: a parser whose arguments are added in another module than the one that
builds it, ``parse_args(argv)`` is read like ``parse_args()`` (as for a parser of the script), a
namespace passed through more than one helper call, and ``vars(args)``.
"""

from __future__ import annotations

import ast
import bisect
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from dl_lint.analysis.syntax import NO_LITERAL, literal
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

    __slots__ = ("module", "path", "edited", "chain")

    def __init__(
        self, module: str, path: str, edited: Tuple[str, ...] = (), chain: Tuple[Tuple[str, str, str], ...] = ()
    ) -> None:
        self.module = module
        self.path = path
        self.edited = edited
        # An option class's namespace (``TrainOptions().parse()``): its classes, base first, as
        # (module, path, class); the options are the ``add_argument`` calls of their bodies.
        self.chain = chain

    def with_edits(self, edited: Tuple[str, ...]) -> "ParsedArgs":
        return ParsedArgs(self.module, self.path, tuple(sorted(set(self.edited) | set(edited))), self.chain)


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
    if "__dict__" in names and not _writes_dict(function):
        # ``json.dump(self.__dict__, f)``, ``for k in sorted(args.__dict__)``: read, not written
        names = names - {"__dict__"}
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
_READS_DICT = frozenset(
    {"sorted", "len", "list", "print", "str", "repr", "format", "pprint", "pformat", "dump", "dumps", "safe_dump", "info", "debug"}
)  # a method's name (``json.dump``, ``yaml.safe_dump``, ``logger.info``) or a builtin's
_DICT_READ_METHODS = frozenset({"get", "items", "keys", "values", "copy", "__getitem__", "__contains__"})


def passed_edits(function: ast.AST) -> Tuple[str, ...]:
    """``edited_attributes`` of a function that hands a namespace back, reading its
    ``__dict__`` without changing it (``for key in sorted(args.__dict__): log(...)``): only a
    write through ``__dict__`` (``args.__dict__[k] = v``, ``.update(...)``, an alias, a call
    that may change it) makes every attribute unknown."""
    names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(function) if isinstance(n, ast.Attribute)}
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


def _dict_display(node: Optional[ast.expr]) -> bool:
    """``{...}`` or ``dict(...)`` (keywords only, or nothing)."""
    if isinstance(node, ast.Dict):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args


def returns_dicts(function: ast.AST) -> bool:
    """Whether every ``return`` of ``function`` (one to four, none bare) gives a dict: a display,
    ``dict(...)``, or a name the function assigns one of those to (``kw = {...}``, then
    ``kw["pin_memory"] = True``, ``return kw``). Syntax only (what the names hold is the
    resolver's question); a generator never does. ``loader_args(train=True)`` spread into a
    loader with ``**`` is read through its returns (``Resolver._returned_dicts``)."""
    returns = returns_of(function)
    if not returns or len(returns) > 4:
        return False
    named: Optional[Set[str]] = None
    for statement in returns:
        value = statement.value
        if _dict_display(value):
            continue
        if not isinstance(value, ast.Name):
            return False
        if named is None:
            named = {
                target.id
                for node in statements_of(function)
                if isinstance(node, ast.Assign) and _dict_display(node.value)
                for target in node.targets
                if isinstance(target, ast.Name)
            }
        if value.id not in named:
            return False
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function))


def return_paths(function: ast.AST) -> Dict[int, Tuple[Tuple[ast.expr, bool], ...]]:
    """For each ``return`` of a function (by id), the ``if`` tests that hold whenever it runs,
    with their polarity: the tests of the ``if`` arms around it, and of the earlier ``if``
    statements of its blocks whose arm always leaves the function (``if mode == "gt": return
    f`` makes ``mode != "gt"`` hold after it). Loops, ``with`` and ``try`` add nothing (a
    return inside them keeps the conditions around them). Kept on the function's node."""
    found = getattr(function, "_dl_return_paths", None)
    if found is not None:
        return found
    out: Dict[int, Tuple[Tuple[ast.expr, bool], ...]] = {}

    def leaves(body: Sequence[ast.stmt]) -> bool:
        return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))

    def walk(body: Sequence[ast.stmt], conds: Tuple[Tuple[ast.expr, bool], ...]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, ast.Return):
                out[id(node)] = conds
            elif isinstance(node, ast.If):
                walk(node.body, conds + ((node.test, True),))
                walk(node.orelse, conds + ((node.test, False),))
                if leaves(node.body) and not leaves(node.orelse):
                    conds = conds + ((node.test, False),)
                elif leaves(node.orelse) and not leaves(node.body):
                    conds = conds + ((node.test, True),)
            else:
                for field in ("body", "orelse", "finalbody"):
                    walk(getattr(node, field, ()), conds)
                for handler in getattr(node, "handlers", ()):
                    walk(handler.body, conds)
                for case in getattr(node, "cases", ()):
                    walk(case.body, conds)

    walk(getattr(function, "body", ()), ())
    try:
        function._dl_return_paths = out  # type: ignore[attr-defined]
    except AttributeError:
        pass
    return out


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
            returned = sum(isinstance(r.value, ast.Name) and r.value.id == value.id for r in returns)
            if reads.get(value.id, 0) != returned and reads.get(value.id, 0) != returned + len(
                _callable_writes(function, value.id, assigned)
            ):
                # read elsewhere too (``functools.update_wrapper(result, f)``, ``result.x = y``):
                # what it is when returned is not only the construction (a lambda or local
                # function stored on it is: ``build_writes``)
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


def static_builder(method: ast.AST) -> bool:
    """A ``@staticmethod`` every ``return`` of which constructs something (``built_by``):
    ``ImageNetDataset.get_test(path)`` (``ClassRecord.static_builds``,
    ``Resolver._static_factory``)."""
    return any(getattr(d, "id", None) == "staticmethod" for d in method.decorator_list) and bool(built_by(method))


def build_writes(function: ast.AST) -> List[Tuple[str, str, int]]:
    """DL202, for a factory (``built_by``) whose ``return NAME`` gives a local construction:
    (attribute, what, row) of each lambda or local function it stores on that object before
    handing it back (``dataset = Items(root)``, ``dataset.target_transform = lambda y: y - 1``,
    ``return dataset``): pickling the object pickles its attributes. [] when there is none;
    asked of a function ``built_by`` finds constructions in."""
    found: List[Tuple[str, str, int]] = []
    for statement in returns_of(function):
        if isinstance(statement.value, ast.Name):
            name = statement.value.id
            for write in _callable_writes(function, name, _assigned(function, name)):
                if write not in found:
                    found.append(write)
    return found


def _callable_writes(function: ast.AST, name: str, assigned: List[Optional[ast.AST]]) -> List[Tuple[str, str, int]]:
    """The statements ``NAME.attr = <lambda or local function>`` of ``function``'s own body (not
    under an ``if``, a loop or a ``try``: they run on every path), after every assignment of
    ``NAME`` and before every ``return``: (attribute, what, row) of each. What is stored: a
    lambda, a function the body defines, or a local name every assignment of which is a lambda."""
    body = getattr(function, "body", [])
    last_bound = max((getattr(v, "lineno", 0) for v in assigned if v is not None), default=0)
    first_return = min((r.lineno for r in returns_of(function)), default=0)
    defined = {s.name for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found: List[Tuple[str, str, int]] = []
    for statement in body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target = statement.targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name):
            continue
        if not last_bound < statement.lineno < first_return:
            continue
        stored = statement.value
        if isinstance(stored, ast.Lambda):
            what = "a lambda"
        elif isinstance(stored, ast.Name) and stored.id in defined:
            what = f"the local function {stored.id}"
        elif isinstance(stored, ast.Name) and stored.id != name and _all_lambdas(_assigned(function, stored.id)):
            what = "a lambda"
        else:
            continue
        found.append((target.attr, what, statement.lineno))
    return found


def _all_lambdas(values: List[Optional[ast.AST]]) -> bool:
    return bool(values) and all(isinstance(v, ast.Lambda) for v in values)


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


# ``parser.set_defaults(**{...})``: the keys a dict display sets, as (key, value node or None
# when the value is not a literal, line of the statement that sets it). ``None``: some key (or
# the whole mapping) is unknown, so any default of the parser may be replaced.
SetDefaults = Optional[List[Tuple[str, Optional[ast.expr], int]]]


def expanded_set_defaults(tree: Optional[ast.Module], index: "object", call: ast.Call, scope: Optional[ast.AST]) -> SetDefaults:
    """The keys ``call`` (a ``set_defaults`` with a ``**`` of a dict display) sets. In a
    module-level function (timm's ``add_bool_arg(parser, name, default=False)``: ``dest_name =
    name.replace('-', '_')`` ... ``parser.set_defaults(**{dest_name: default})``) a key or value
    computed from the function's parameters is evaluated at each call of the function in its
    module, with the literal arguments of that call (or the parameters' defaults); at module
    level the keys must be string literals. None (every default unknown) when a key is not a
    string computed so, a call passes anything but literals for a parameter a key needs (or
    uses ``*``/``**``), or the function's name is used other than by being called."""
    entries: List[Tuple[ast.expr, ast.expr]] = []
    for keyword in call.keywords:
        if keyword.arg is None:
            if not isinstance(keyword.value, ast.Dict) or any(k is None for k in keyword.value.keys):
                return None
            entries.extend(zip(keyword.value.keys, keyword.value.values))  # type: ignore[arg-type]
        else:
            entries.append((ast.Constant(keyword.arg), keyword.value))
    if scope is None:
        out: List[Tuple[str, Optional[ast.expr], int]] = []
        for key, value in entries:
            name = _string_of(key, {}, None, 0)
            if name is None:
                return None
            out.append((name, value if literal(value) is not NO_LITERAL else None, call.lineno))
        return out
    functions = getattr(index, "module_functions", ())
    if not isinstance(scope, ast.FunctionDef) or not any(f is scope for f in functions) or tree is None:
        return None
    name = scope.name
    calls = [c for c, _site, _n, _cls in getattr(index, "calls", ()) if isinstance(c.func, ast.Name) and c.func.id == name]
    mentions = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name)
    if mentions != len(calls):
        return None  # passed around or rebound: calls not seen here may set other keys
    params = [*scope.args.posonlyargs, *scope.args.args]
    by_name = {a.arg: a for a in (*params, *scope.args.kwonlyargs)}
    defaults: Dict[str, ast.expr] = {}
    for parameter, default in zip(params[len(params) - len(scope.args.defaults):], scope.args.defaults):
        defaults[parameter.arg] = default
    for parameter, default in zip(scope.args.kwonlyargs, scope.args.kw_defaults):
        if default is not None:
            defaults[parameter.arg] = default
    out = []
    for site_call in calls:
        if any(isinstance(a, ast.Starred) for a in site_call.args) or any(k.arg is None for k in site_call.keywords):
            return None
        if len(site_call.args) > len(params) or any(k.arg not in by_name for k in site_call.keywords):
            return None
        bound = dict(defaults)
        bound.update({p.arg: a for p, a in zip(params, site_call.args)})
        bound.update({k.arg: k.value for k in site_call.keywords if k.arg is not None})
        for key, value in entries:
            text = _string_of(key, bound, scope, 0)
            if text is None:
                return None
            if isinstance(value, ast.Name) and value.id in by_name and _unbound_locally(scope, value.id):
                value = bound.get(value.id)  # type: ignore[assignment]
                if value is None:
                    return None  # a required parameter the call does not pass: it raises anyway
            out.append((text, value if literal(value) is not NO_LITERAL else None, site_call.lineno))
    return out


def _unbound_locally(function: ast.AST, name: str) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
    return True


def _string_of(node: Optional[ast.AST], bound: Dict[str, ast.expr], function: Optional[ast.AST], depth: int) -> Optional[str]:
    """A string key: a literal, a parameter bound to a literal string, a local assigned once from
    such an expression, ``+`` of them, or ``.replace`` of one with literal arguments."""
    if node is None or depth > 4:
        return None
    value = literal(node)
    if isinstance(value, str):
        return value
    if isinstance(node, ast.Name) and function is not None:
        if node.id in bound and _unbound_locally(function, node.id):
            found = literal(bound[node.id])
            return found if isinstance(found, str) else None
        assigned = [
            n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == node.id and not isinstance(n.ctx, ast.Load)
        ]
        sources = [
            s.value
            for s in ast.walk(function)
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id == node.id
        ]
        if len(assigned) != 1 or len(sources) != 1 or any(isinstance(n, ast.Global) and node.id in n.names for n in ast.walk(function)):
            return None
        return _string_of(sources[0], bound, function, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_of(node.left, bound, function, depth + 1), _string_of(node.right, bound, function, depth + 1)
        return left + right if left is not None and right is not None else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "replace"
        and len(node.args) == 2
        and not node.keywords
    ):
        base = _string_of(node.func.value, bound, function, depth + 1)
        old, new = literal(node.args[0]), literal(node.args[1])
        if base is None or not isinstance(old, str) or not isinstance(new, str):
            return None
        return base.replace(old, new)
    return None


# -- option classes ---------------------------------------------------------------------------
# pix2pix / pix2pixHD / CycleGAN's ``class BaseOptions: def initialize(self, parser):
# parser.add_argument(...)`` ... ``def parse(self): opt = parser.parse_args(); ...; return opt``
# with ``class TrainOptions(BaseOptions)`` adding its own flags, and ``opt = TrainOptions().parse()``.

_INITIALIZERS = frozenset({"initialize", "__init__"})  # calls a parser may be handed to inside the chain
_DICT_READS = frozenset({"items", "keys", "values", "get", "copy"})
_READERS = frozenset({"sorted", "len", "list", "print", "str", "repr", "dict"})


def option_classes(tree: ast.Module, index: "object", text_of) -> Tuple[Tuple[Any, ...], ...]:
    """One record per module-level class whose body holds an ``add_argument`` or a
    ``parse_args`` call: (name, bases as text, parse methods as ((method, edited attributes),
    ...), opaque, the ``add_argument`` calls as ((text, line), ...)). ``opaque``: the class hands
    a parser or argument group to a call other than an ``initialize`` of the chain
    (``model_option_setter(parser, ...)``), calls ``parse_known_args`` or ``set_defaults``, or a
    kept call cannot be written back as text: its options are then unknown. A parse method is
    one whose every ``return`` gives the namespace ``parse_args()`` made in it (``self.opt =
    self.parser.parse_args()`` ... ``return self.opt``), its ``edited`` the attributes it sets on
    that namespace (``opt.isTrain = self.isTrain``: unknown), ``("*",)`` when it may change any
    (``vars(opt).update(...)``, ``setattr``, ``__dict__``)."""
    calls = getattr(index, "calls", ())
    wanted = [c for c, _s, _n, _k in calls if isinstance(c.func, ast.Attribute) and c.func.attr in ("parse_args", "parse_known_args", "set_defaults")]
    wanted.extend(getattr(index, "add_arguments", ()))
    lines = sorted(c.lineno for c in wanted)
    out = []
    for node in getattr(index, "module_classes", ()):
        at = bisect.bisect_left(lines, node.lineno)
        if (at >= len(lines) or lines[at] > (node.end_lineno or node.lineno)) and not _mentions_parser(node):
            continue
        record = _option_class(node, text_of)
        if record is not None:
            out.append(record)
    return tuple(out)


def _mentions_parser(node: ast.ClassDef) -> bool:
    """A class with a base whose methods take or assign a ``parser`` (a subclass of an option
    class that hands it on without adding flags itself)."""
    if not node.bases:
        return False
    for method in node.body:
        if isinstance(method, ast.FunctionDef) and any("parser" in a.arg.lower() for a in method.args.args):
            return True
    return False


def _receiver(node: ast.AST) -> Optional[str]:
    """``parser`` or ``self.parser``: a name or an attribute of a name, as text."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _option_class(node: ast.ClassDef, text_of) -> Optional[Tuple[Any, ...]]:
    receivers: Set[str] = set()
    arguments: List[Tuple[str, int]] = []
    opaque = False
    all_calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    for call in all_calls:
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        if func.attr in ("add_argument", "add_argument_group", "add_mutually_exclusive_group", "parse_args", "parse_known_args", "set_defaults"):
            owner = _receiver(func.value)
            if owner is None:
                opaque = True
            else:
                receivers.add(owner)
        if func.attr in ("parse_known_args", "set_defaults", "parse_intermixed_args", "parse_known_intermixed_args"):
            opaque = True
        if func.attr == "add_argument":
            kept = text_of(call)
            if kept is None:
                opaque = True
            else:
                arguments.append((kept, call.lineno))
    # a method's parameter named like a parser, and what ``initialize`` or ``ArgumentParser``
    # give, are parsers too (``parser = TrainOptions.initialize(self, parser)``)
    for n in ast.walk(node):
        if isinstance(n, ast.arg) and "parser" in n.arg.lower():
            receivers.add(n.arg)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
            callee = n.value.func
            called = callee.attr if isinstance(callee, ast.Attribute) else callee.id if isinstance(callee, ast.Name) else ""
            if called in _INITIALIZERS or called in _PARSER_CLASSES or called in ("add_argument_group", "add_mutually_exclusive_group"):
                receivers.update(r for r in (_receiver(t) for t in n.targets) if r is not None)
    for call in all_calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _INITIALIZERS:
            continue
        for argument in (*call.args, *(k.value for k in call.keywords)):
            if any(isinstance(p, (ast.Name, ast.Attribute)) and _receiver(p) in receivers for p in ast.walk(argument)):
                opaque = True  # handed to code that may add or change flags (``setter(self.initialize(parser))``)
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in ("setattr", "exec", "eval") or isinstance(n, ast.Attribute) and n.attr == "__dict__":
            opaque = True
    parse_methods = []
    for method in node.body:
        if isinstance(method, ast.FunctionDef):
            edited = _parse_method(method)
            if edited is not None:
                parse_methods.append((method.name, edited))
    if not receivers and not parse_methods:
        return None
    bases = tuple(text_of(b) or "?" for b in node.bases) + (("?",) if node.keywords else ())
    methods = tuple(m.name for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return (node.name, bases, tuple(parse_methods), opaque, tuple(arguments), methods)


def _parse_method(method: ast.FunctionDef) -> Optional[Tuple[str, ...]]:
    """The attributes ``method`` sets on the namespace it returns, when every ``return`` hands
    back the ``parse_args()`` it makes (through names or ``self`` attributes bound only to it);
    None when it is not such a method."""
    holders: Set[str] = set()
    sources: Dict[str, List[ast.expr]] = {}
    for statement in statements_of(method):
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                key = _receiver(target)
                if key is not None:
                    sources.setdefault(key, []).append(statement.value)
                elif not isinstance(target, (ast.Attribute, ast.Subscript)):
                    for part in ast.walk(target):
                        key = _receiver(part) if isinstance(part, ast.Name) else None
                        if key is not None:
                            sources.setdefault(key, []).append(ast.Constant(None))  # unpacked: not the namespace
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            if isinstance(statement, (ast.With, ast.AsyncWith)):
                bound = [i.optional_vars for i in statement.items if i.optional_vars is not None]
            else:
                bound = [statement.target]
            for target in bound:
                for part in ast.walk(target):
                    key = _receiver(part) if isinstance(part, (ast.Name, ast.Attribute)) and isinstance(part.ctx, ast.Store) else None
                    if key is not None:
                        sources.setdefault(key, []).append(ast.Constant(None))
    changed = True
    while changed:
        changed = False
        for key, values in sources.items():
            if key in holders:
                continue
            if all(
                (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "parse_args")
                or _receiver(v) in holders
                for v in values
            ):
                holders.add(key)
                changed = True
    returns = returns_of(method)
    if not holders or not returns or any(r.value is None or _receiver(r.value) not in holders for r in returns):
        return None
    edited: Set[str] = set()
    for statement in statements_of(method):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store) and _receiver(part.value) in holders:
                    edited.add(part.attr)
                elif isinstance(part, ast.Subscript) and isinstance(part.ctx, ast.Store):
                    return ("*",)
    for n in ast.walk(method):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "vars" and not _read_only_vars(method, n):
            return ("*",)
    return tuple(sorted(edited))


def _read_only_vars(method: ast.AST, call: ast.Call) -> bool:
    """``args = vars(self.opt)`` then only ``args.items()``, ``sorted(args)``...: the namespace
    is read, not changed."""
    parents: Dict[int, ast.AST] = {}
    for n in ast.walk(method):
        for child in ast.iter_child_nodes(n):
            parents[id(child)] = n

    def harmless(node: ast.AST) -> bool:
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr in _DICT_READS:
            return isinstance(parents.get(id(parent)), ast.Call)
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _READERS:
            return True
        if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Load):
            return True
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
            return True
        return False

    parent = parents.get(id(call))
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        uses = [n for n in ast.walk(method) if isinstance(n, ast.Name) and n.id == name and n is not parent.targets[0]]
        return all(isinstance(n.ctx, ast.Load) and harmless(n) for n in uses)
    return harmless(call)
