"""Loader subclasses: how a class deriving from torch's DataLoader passes its own arguments on
to ``DataLoader.__init__``, read from its ``__init__``, and a call of it bound through that.

A class such as::

    class GraphLoader(torch.utils.data.DataLoader):
        def __init__(self, dataset, batch_size=1, shuffle=False, follow=None, **kwargs):
            kwargs.pop("collate_fn", None)
            super().__init__(dataset, batch_size, shuffle, collate_fn=Collater(follow), **kwargs)

is a loader with its own signature (positions do not line up with torch's: ``follow`` is
GraphLoader's 4th parameter, torch's 4th is ``sampler``) and its own defaults. ``read_init``
reads the mapping from the syntax alone (plain data, kept in the module's summary):

- each parameter of ``__init__`` (after ``self``) with its default as source text;
- the one ``super().__init__(...)`` (or ``Base.__init__(self, ...)``) call, at the top level of
  the body: each of its arguments is a parameter passed on (named, renamed, positional), a value
  that mentions no local name (a literal, a module constant: resolved in the class's module), a
  lambda (built in ``__init__``: it cannot be pickled), ``*args`` / ``**kwargs`` passed through,
  or anything else: given, with an unknown value;
- keys removed from ``**kwargs`` before the call (``kwargs.pop("collate_fn", None)``,
  ``del kwargs["x"]``);
- a keyword dict kept on ``self`` and spread into the call (pytorch-template's
  ``self.init_kwargs = {...}; super().__init__(**self.init_kwargs)``, ``self_dict``): its
  entries, each classified like an argument written at the call, when nothing that can run
  before the call changes it (``self_dict_reads``).

What cannot be read makes the mapping unknown (the class is not judged as a loader): no
``self``, a decorated ``__init__``, no such call or more than one, the call nested in an ``if``,
``try``, ``with`` or loop, a ``return`` before it. A parameter rebound anywhere in ``__init__``
passes on an unknown value; a ``**kwargs`` mutated otherwise than by removing literal keys
(``kwargs["num_workers"] = 0``, ``.update``, ``.setdefault``, rebinding it) carries unknown
values for every parameter it may hold; the same for ``*args``.

``Signature`` is a read mapping with its values resolved (``analysis.project`` resolves a
project class's defaults and values in its module; ``analysis.library_loaders`` holds the rows
of library classes read the same way); ``bind`` maps the arguments of one call, level by level
down a chain of such classes, to torch's parameters.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

# ``ClassRecord.init`` for an ``__init__`` that cannot be read (None: the class has none).
UNREADABLE: Tuple = ()


def read_init(node: ast.ClassDef, segment: Callable[[ast.AST], Optional[str]]) -> Optional[Tuple]:
    """The mapping of ``node``'s ``__init__`` as plain data (``UNREADABLE`` when it cannot be
    read; None when the class defines no ``__init__``):
    ``(params, varargs, varkw, target, args, dropped, kwargs_mutated, varargs_mutated, line)``:

    - params: ``(name, kind, default text or None, has default)``, kind "pos", "posonly", "kwonly";
    - target: "super", or the source text of the base named in ``Base.__init__(self, ...)``;
    - args: ``(kind, keyword, how, payload)`` per argument of the call, kind "pos", "kw", "*",
      "**"; how "param" (payload: its name), "value" (payload: source text), "lambda" (payload:
      its line), "opaque";
    - dropped: keys removed from ``**kwargs`` before the call."""
    init = next(
        (s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"), None
    )
    if init is None:
        return None
    if isinstance(init, ast.AsyncFunctionDef) or init.decorator_list:
        return UNREADABLE
    arguments = init.args
    positional = [*arguments.posonlyargs, *arguments.args]
    if not positional:
        return UNREADABLE
    self_name = positional[0].arg
    defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    params = []
    for index, (arg, default) in enumerate(zip(positional, defaults)):
        if index == 0:
            continue
        kind = "posonly" if index < len(arguments.posonlyargs) else "pos"
        params.append((arg.arg, kind, _text(segment, default), default is not None))
    for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
        params.append((arg.arg, "kwonly", _text(segment, default), default is not None))
    if any(p[2] is None and p[3] for p in params):
        return UNREADABLE  # a default too long to keep
    varargs = arguments.vararg.arg if arguments.vararg is not None else None
    varkw = arguments.kwarg.arg if arguments.kwarg is not None else None

    calls = [s.value for s in init.body if isinstance(s, ast.Expr) and _init_call(s.value, self_name)]
    nested = [n for n in _walk(init) if isinstance(n, ast.Call) and _init_call(n, self_name)]
    if len(calls) != 1 or len(nested) != 1:
        return UNREADABLE
    call = calls[0]
    if any(isinstance(n, ast.Return) and n.lineno < call.lineno for n in _walk(init)):
        return UNREADABLE  # some path may return before constructing the loader
    target = "super"
    args = list(call.args)
    if not isinstance(call.func.value, ast.Call):  # Base.__init__(self, ...)
        target = segment(call.func.value) or ""
        if not target:
            return UNREADABLE
        args = args[1:]

    stored = _stored_names(init)
    names = {p[0] for p in params} | {self_name} | stored | {n for n in (varargs, varkw) if n}
    parents = _parents(init)
    dropped, kwargs_mutated = _dict_uses(init, varkw, call, parents) if varkw else (set(), False)
    kwargs_mutated = kwargs_mutated or (varkw in stored)
    varargs_mutated = varargs in stored  # a tuple: only rebinding it changes what it holds

    def classify(expr: ast.AST) -> Tuple[str, str]:
        if isinstance(expr, ast.Name) and expr.id in {p[0] for p in params} and expr.id not in stored:
            return "param", expr.id
        if isinstance(expr, ast.Lambda):
            return "lambda", str(expr.lineno)
        if isinstance(expr, ast.Name) and expr.id in stored:
            held = _lambda_on_every_path(init.body, expr.id, call)
            if held is not None:
                return "lambda", str(held.lineno)
        if not any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr)):
            text = segment(expr)
            if text is not None:
                return "value", text
        return "opaque", ""

    entries = []
    for arg in args:
        if isinstance(arg, ast.Starred):
            if isinstance(arg.value, ast.Name) and arg.value.id == varargs and not varargs_mutated:
                entries.append(("*", "", "param", varargs))
            else:
                entries.append(("*", "", "opaque", ""))
        else:
            entries.append(("pos", "", *classify(arg)))
    for keyword in call.keywords:
        if keyword.arg is None:
            if isinstance(keyword.value, ast.Name) and keyword.value.id == varkw and not kwargs_mutated:
                entries.append(("**", "", "param", varkw))
                continue
            stored_dict = self_dict(node, init, keyword.value, self_name, call)
            if stored_dict is not None:
                entries.extend(("kw", key, *classify(value)) for key, value in stored_dict)
            else:
                entries.append(("**", "", "opaque", ""))
        else:
            entries.append(("kw", keyword.arg, *classify(keyword.value)))
    return (
        tuple(params),
        varargs,
        varkw,
        target,
        tuple(entries),
        tuple(sorted(dropped)),
        kwargs_mutated,
        varargs_mutated,
        call.lineno,
    )


def own_self_assigns(function: ast.AST, self_name: Optional[str]) -> List[ast.Assign]:
    """The statements of ``function``'s own body that assign one attribute of ``self_name``
    (``self.loader = loader``), in order."""
    return [
        s
        for s in getattr(function, "body", ())
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Attribute)
        and isinstance(s.targets[0].value, ast.Name)
        and s.targets[0].value.id == self_name
    ]


def self_dict(
    cls: ast.ClassDef, init: ast.AST, spread: ast.AST, self_name: str, call: ast.Call
) -> Optional[List[Tuple[str, ast.expr]]]:
    """The entries of ``**self.ATTR`` spread into ``call`` in ``__init__`` (``init``), when
    ``self.ATTR`` is a dict display (``{"num_workers": workers, ...}``, string keys, no
    ``**``) or a ``dict(key=value, ...)`` call, assigned once in the class, by a statement of
    ``init``'s own body before ``call``, and never changed: every other mention of it in the
    class only reads it (``self_dict_reads``). None: not such a dict (its keys are unknown)."""
    if not (
        isinstance(spread, ast.Attribute)
        and isinstance(spread.value, ast.Name)
        and spread.value.id == self_name
    ):
        return None
    attr = spread.attr
    assigned = [s for s in own_self_assigns(init, self_name) if s.targets[0].attr == attr and s.lineno < call.lineno]
    if len(assigned) != 1 or not self_dict_reads(cls, attr, before=(init, call.lineno), skip={id(assigned[0].targets[0])}):
        return None
    value = assigned[0].value
    entries: List[Tuple[str, ast.expr]] = []
    if isinstance(value, ast.Dict):
        for key, item in zip(value.keys, value.values):
            if key is None or _literal_key(key) is None:
                return None
            entries.append((_literal_key(key), item))
    elif (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "dict"
        and not value.args
        and all(k.arg is not None for k in value.keywords)
    ):
        entries = [(k.arg, k.value) for k in value.keywords]
    else:
        return None
    if len({key for key, _ in entries}) != len(entries):
        return None
    return entries


def self_dict_reads(
    cls: ast.ClassDef,
    attr: str,
    before: Optional[Tuple[ast.AST, int]] = None,
    skip: Set[int] = frozenset(),
    assignments: bool = False,
) -> bool:
    """Whether every mention of ``self.ATTR`` in ``cls``'s methods (``self`` being each
    method's first parameter) only reads the dict, besides the assignments in ``skip`` (every
    plain assignment with ``assignments``: the caller takes each as a possibility). With
    ``before`` (``__init__``, a line): only what can run before that line of ``__init__``
    counts, its statements above it and the methods they call on ``self`` (``self.name(...)``,
    followed from method to method): the other methods cannot have run yet. Read: spread
    (``**self.ATTR``), subscripted (``self.ATTR["k"]``), asked (``.get``, ``.keys``, ``.items``,
    ``.values``, ``.copy``), tested (``"k" in self.ATTR``), or given to ``len``/``dict``/...
    Anything else may change it: an assignment, ``self.ATTR["k"] = v``, ``del``, ``.update``,
    ``.pop``, ``.setdefault``, or handing it to another name or function (``kw = self.ATTR``
    then ``kw.update(...)``)."""
    methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    chosen = list(methods.values())
    limit: Dict[int, int] = {}
    if before is not None:
        init, line = before
        chosen, limit[id(init)] = [init], line
        todo = [init]
        while todo:
            method = todo.pop()
            positional = [*method.args.posonlyargs, *method.args.args]
            owner = positional[0].arg if positional else None
            for node in _walk(method):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == owner
                    and node.attr in methods
                    and (id(method) not in limit or node.lineno < limit[id(method)])
                    and methods[node.attr] not in chosen
                ):
                    chosen.append(methods[node.attr])
                    todo.append(methods[node.attr])
    for method in chosen:
        positional = [*method.args.posonlyargs, *method.args.args]
        if not positional:
            continue
        owner = positional[0].arg
        parents = _parents(method)
        for node in _walk(method):
            if id(method) in limit and getattr(node, "lineno", 0) >= limit[id(method)]:
                continue  # after the line asked about: it has not run yet
            if not (
                isinstance(node, ast.Attribute)
                and node.attr == attr
                and isinstance(node.value, ast.Name)
                and node.value.id == owner
            ):
                continue
            if id(node) in skip:
                continue
            parent = parents.get(id(node))
            if assignments and isinstance(parent, (ast.Assign, ast.AnnAssign)) and node is not getattr(parent, "value", None):
                if isinstance(parent, ast.AnnAssign) or node in parent.targets:
                    continue
            if not isinstance(node.ctx, ast.Load):
                return False
            if isinstance(parent, ast.keyword) and parent.arg is None:
                continue
            if isinstance(parent, ast.Compare) and node in parent.comparators:
                continue
            if isinstance(parent, ast.Call) and parent.func is not node and node in parent.args and _looks(parent):
                continue
            if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load):
                continue
            if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _READ_METHODS:
                holder = parents.get(id(parent))
                if isinstance(holder, ast.Call) and holder.func is parent:
                    continue
            return False
    return True


def passes_through(init: Tuple) -> bool:
    """``__init__(self, *args, **kwargs)`` calling ``super().__init__(*args, **kwargs)`` and
    nothing else on the way: the base's own signature (no level of its own in a chain)."""
    params, varargs, varkw, _target, entries, dropped, kwargs_mutated, varargs_mutated, _line = init
    return (
        not params
        and bool(varargs)
        and bool(varkw)
        and entries == (("*", "", "param", varargs), ("**", "", "param", varkw))
        and not dropped
        and not kwargs_mutated
        and not varargs_mutated
    )


def _text(segment: Callable[[ast.AST], Optional[str]], node: Optional[ast.AST]) -> Optional[str]:
    return segment(node) if node is not None else None


def _init_call(node: ast.AST, self_name: str) -> bool:
    """``super().__init__(...)``, ``super(Cls, self).__init__(...)`` or ``Base.__init__(self, ...)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"):
        return False
    owner = node.func.value
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
        return True
    return (
        isinstance(owner, (ast.Name, ast.Attribute))
        and bool(node.args)
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == self_name
    )


def _walk(function: ast.AST):
    """Every node of ``function``'s body, nested functions and classes included (a nested
    function may rebind a name through ``nonlocal``: counted, conservatively)."""
    for statement in function.body:
        yield from ast.walk(statement)


def _lambda_on_every_path(body: List[ast.stmt], name: str, call: ast.AST) -> Optional[ast.Lambda]:
    """The lambda ``name`` certainly holds when the statement of ``call`` runs (any
    node with a line: the statements before it count): ``body``'s statements before it bind it
    by ``name = lambda ...``, by ``name = other`` of a name that certainly holds one, and in
    ``if``/``else`` statements whose every arm ends with it bound so (DSprites' ``if
    target_transform is None: target_transform = lambda x: x[index] else: target_transform =
    lambda x: ...``; DCGAN's ``parse_fn = lambda ...`` on both arms, then ``map_fn_ = parse_fn``).
    Any other binding of a name (a loop, ``with``, ``try``, a walrus, an augmented assignment, a
    nested ``def``) leaves it holding something else. None when ``name`` holds no certain lambda."""
    return _lambda_states(body, call.lineno, {}).get(name)


def _lambda_states(
    statements: List[ast.stmt], before: int, states: Dict[str, Optional[ast.Lambda]]
) -> Dict[str, Optional[ast.Lambda]]:
    """Name -> the lambda it certainly holds (None: something else may be there) after
    ``statements`` that start before row ``before``, from ``states``."""
    states = dict(states)
    for statement in statements:
        if statement.lineno >= before:
            break
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            value = statement.value
            if isinstance(value, ast.Lambda):
                states[statement.targets[0].id] = value
            elif isinstance(value, ast.Name):
                states[statement.targets[0].id] = states.get(value.id)
            else:
                states[statement.targets[0].id] = None
            continue
        if isinstance(statement, ast.If) and statement.end_lineno is not None and statement.end_lineno < before:
            arm = _lambda_states(statement.body, before, states)
            other = _lambda_states(statement.orelse, before, states)
            states = {key: arm.get(key) if arm.get(key) is not None and other.get(key) is not None else None for key in {*arm, *other}}
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                states[node.id] = None
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                states[node.name] = None
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                states.update((n, None) for n in node.names)
    return states


def _stored_names(function: ast.AST) -> Set[str]:
    out: Set[str] = set()
    for node in _walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Nonlocal, ast.Global)):
            out.update(node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _parents(function: ast.AST) -> Dict[int, ast.AST]:
    parents: Dict[int, ast.AST] = {}
    for node in _walk(function):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


_READ_METHODS = frozenset({"get", "keys", "items", "values", "copy", "__contains__"})


def _dict_uses(function: ast.AST, name: str, call: ast.Call, parents: Dict[int, ast.AST]) -> Tuple[Set[str], bool]:
    """Keys removed from the ``**name`` dict before ``call`` (``name.pop("k", d)``,
    ``del name["k"]``), and whether it is used in any way that may change what it holds."""
    dropped: Set[str] = set()
    for node in _walk(function):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.keyword) and parent.arg is None:
            continue  # ``f(**kwargs)``: the callee gets a copy
        if isinstance(parent, ast.Compare) and node in parent.comparators:
            continue  # ``"k" in kwargs``
        if isinstance(parent, ast.Call) and parent.func is not node and node in parent.args and _looks(parent):
            continue  # len(kwargs), print(kwargs)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            holder = parents.get(id(parent))
            if not (isinstance(holder, ast.Call) and holder.func is parent):
                return dropped, True
            if parent.attr in _READ_METHODS:
                continue
            key = _literal_key(holder.args[0]) if holder.args else None
            if parent.attr == "pop" and key is not None and len(holder.args) <= 2 and not holder.keywords:
                if holder.lineno > call.lineno:
                    continue  # after the loader is built
                if not _unconditional(holder, parents):
                    return dropped, True  # removed on some paths only
                dropped.add(key)
                continue
            return dropped, True
        if isinstance(parent, ast.Subscript) and parent.value is node:
            key = _literal_key(parent.slice)
            if isinstance(parent.ctx, ast.Load) and key is not None:
                continue
            if isinstance(parent.ctx, ast.Del) and key is not None:
                if parent.lineno > call.lineno:
                    continue
                if not _unconditional(parent, parents):
                    return dropped, True
                dropped.add(key)
                continue
            return dropped, True
        return dropped, True
    return dropped, False


def _unconditional(node: ast.AST, parents: Dict[int, ast.AST]) -> bool:
    """Whether ``node`` runs whenever its top-level statement of ``__init__`` runs: no
    conditional expression, boolean operator, comprehension or lambda around it, and that
    statement is one of the body's own (not inside an ``if``, a loop, a ``try``...)."""
    current = node
    while id(current) in parents:
        current = parents[id(current)]
        if isinstance(current, (ast.IfExp, ast.BoolOp, ast.comprehension, ast.Lambda, ast.stmt)):
            if isinstance(current, ast.stmt):
                return id(current) not in parents  # a statement of the body itself
            return False
    return True


def _looks(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id in ("len", "print", "repr", "str", "isinstance", "bool", "list", "dict")


def _literal_key(node: ast.AST) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


# -- a read mapping, its values resolved --------------------------------------------------------


class Param:
    __slots__ = ("name", "kind", "default")

    def __init__(self, name: str, kind: str, default: Optional["Item"]) -> None:
        self.name = name
        self.kind = kind  # "pos", "posonly", "kwonly"
        self.default = default  # None: required


class Item:
    """One argument on its way down to torch: its value, and where the user wrote it (``node``
    None when it was not written at the call: a default, a value the class passes itself)."""

    __slots__ = ("value", "node", "written", "code")

    def __init__(self, value: Any, node: Optional[ast.AST] = None, written: str = "", code: str = "") -> None:
        self.value = value  # a ``values.Value``
        self.node = node  # the argument node at the call (an ``ast.keyword`` or expression)
        self.written = written  # the keyword as written at the call ("" when positional or not written)
        self.code = code  # source text of the value, for messages and guards


class Signature:
    """A loader class's ``__init__`` as a mapping to its parent's (``read_init``), its values
    resolved. ``label``: the class as messages name it (``GraphLoader``); ``key``: what tells
    two classes apart (qualified name and path)."""

    __slots__ = ("label", "key", "params", "varargs", "varkw", "args", "dropped", "kwargs_mutated", "varargs_mutated")

    def __init__(
        self,
        label: str,
        key: Tuple[str, str],
        params: Sequence[Param],
        varargs: Optional[str],
        varkw: Optional[str],
        args: Sequence[Tuple[str, str, str, Any]],  # (kind, keyword, how, payload: a param name or an Item)
        dropped: FrozenSet[str],
        kwargs_mutated: bool,
        varargs_mutated: bool,
    ) -> None:
        self.label = label
        self.key = key
        self.params = tuple(params)
        self.varargs = varargs
        self.varkw = varkw
        self.args = tuple(args)
        self.dropped = dropped
        self.kwargs_mutated = kwargs_mutated
        self.varargs_mutated = varargs_mutated


def build_signature(
    label: str,
    key: Tuple[str, str],
    init: Tuple,
    resolve: Callable[[str, str], Optional[Item]],
    lambda_item: Callable[[int], Item],
    default_item: Callable[[str, str], Optional[Item]],
) -> Signature:
    """A Signature from ``read_init``'s data: ``default_item(param, text)`` resolves a default,
    ``resolve("value", text)`` a value the class passes, ``lambda_item(line)`` a lambda; a None
    from either makes that value unknown."""
    from dl_lint.analysis.values import Value

    params_data, varargs, varkw, _target, entries, dropped, kwargs_mutated, varargs_mutated, _line = init
    params = []
    for name, kind, text, has_default in params_data:
        default = None
        if has_default:
            default = default_item(name, text) or Item(Value.unknown("expression"), code=text or "")
        params.append(Param(name, kind, default))
    args = []
    for kind, keyword, how, payload in entries:
        if how == "value":
            item = resolve(keyword, payload) or Item(Value.unknown("expression"), code=payload)
            args.append((kind, keyword, "item", item))
        elif how == "lambda":
            args.append((kind, keyword, "item", lambda_item(int(payload))))
        elif how == "opaque":
            args.append((kind, keyword, "opaque", None))
        else:
            args.append((kind, keyword, "param", payload))
    return Signature(label, key, params, varargs, varkw, args, frozenset(dropped), kwargs_mutated, varargs_mutated)


class Bound:
    """The arguments of one call as they reach a level: ``positional`` items, ``keywords``
    (name -> item); ``positional_open``: more positionals of unknown number follow (a ``*x``);
    ``keywords_open``: unknown keywords may follow (a ``**x``), except ``closed`` ones."""

    __slots__ = ("positional", "keywords", "positional_open", "keywords_open", "closed")

    def __init__(self, positional, keywords, positional_open=False, keywords_open=False, closed=frozenset()) -> None:
        self.positional: List[Item] = list(positional)
        self.keywords: Dict[str, Item] = dict(keywords)
        self.positional_open = positional_open
        self.keywords_open = keywords_open
        self.closed: FrozenSet[str] = frozenset(closed)


def pass_down(signature: Signature, bound: Bound, unknown: Callable[[], Any]) -> Optional[Bound]:
    """The arguments ``signature``'s class passes to its parent when called with ``bound``;
    None when the call raises TypeError (an argument too many, a keyword it does not take, a
    required one missing) or passes one twice: such a call is not judged."""
    env: Dict[str, Item] = {}
    positional = [p for p in signature.params if p.kind in ("pos", "posonly")]
    by_name = {p.name: p for p in signature.params if p.kind != "posonly"}
    rest_positional: List[Item] = []
    for index, item in enumerate(bound.positional):
        if index < len(positional):
            env[positional[index].name] = item
        elif signature.varargs:
            rest_positional.append(item)
        else:
            return None
    if bound.positional_open:
        for param in positional[len(bound.positional) :]:
            env.setdefault(param.name, Item(unknown()))
    rest_keywords: Dict[str, Item] = {}
    for name, item in bound.keywords.items():
        if name in by_name:
            if name in env:
                return None
            env[name] = item
        elif signature.varkw:
            rest_keywords[name] = item
        else:
            return None
    if bound.keywords_open:
        for name in by_name:
            if name not in env and name not in bound.closed:
                env[name] = Item(unknown())
    for param in signature.params:
        if param.name not in env:
            if param.default is None:
                return None  # a required argument missing: TypeError
            env[param.name] = param.default
    rest_open = bound.keywords_open
    if signature.kwargs_mutated:
        rest_keywords = {name: Item(unknown()) for name in rest_keywords}
        rest_open = True
    for name in signature.dropped:
        rest_keywords.pop(name, None)
    out = Bound([], {})
    opened = False
    foreign = False  # a ``**`` of something else than the parameters' dict: it may hold any key
    for kind, keyword, how, payload in signature.args:
        if kind == "pos":
            if out.positional_open:
                continue  # after a ``*x`` of unknown length: the position is unknown
            out.positional.append(_item(how, payload, env, unknown))
        elif kind == "kw":
            if keyword in out.keywords:
                return None
            out.keywords[keyword] = _item(how, payload, env, unknown)
        elif kind == "*":
            if how == "param" and payload == signature.varargs:
                if not out.positional_open:
                    out.positional.extend(rest_positional)
                if bound.positional_open or signature.varargs_mutated:
                    out.positional_open = True
            else:
                out.positional_open = True
        else:  # "**"
            if how == "param" and payload == signature.varkw:
                for name, item in rest_keywords.items():
                    if name in out.keywords:
                        return None
                    out.keywords[name] = item
                opened = opened or rest_open
            else:
                opened = foreign = True
    out.keywords_open = opened
    closed = set(out.keywords)
    if not foreign:  # what could not come in cannot go on either
        closed |= set(signature.dropped) | (bound.closed - set(by_name))
    out.closed = frozenset(closed)
    return out


def _item(how: str, payload: Any, env: Dict[str, Item], unknown: Callable[[], Any]) -> Item:
    if how == "param":
        return env.get(payload) or Item(unknown())
    if how == "item":
        return payload
    return Item(unknown())


def chain_key(chain: Sequence[Signature]) -> Tuple[Tuple[str, str], ...]:
    return tuple(s.key for s in chain)
