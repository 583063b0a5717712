"""Config objects that keep their values in a dict of their own and answer reads from it.

Two families, both common in research code:

* a keyword store (the ``HParams`` of the Tacotron / WaveNet / Wav2Lip lineage)::

      class HParams:
          def __init__(self, **kwargs):
              self.data = {}
              for key, value in kwargs.items():
                  self.data[key] = value
          def __getattr__(self, key):
              if key not in self.data:
                  raise AttributeError(key)
              return self.data[key]
          def set_hparam(self, key, value):
              self.data[key] = value

      hparams = HParams(num_workers=16, batch_size=16)   # hparams.num_workers is 16

* a namespace store (the STCN / XMem lineage): a method parses the command line into the
  store, ``self.args = vars(parser.parse_args())``, and ``__getitem__`` answers
  ``para['num_workers']`` from it: that option of the parser (its default, configurable).

Facts (CPython's data model, 3.8-3.13): ``obj.NAME`` calls ``__getattr__`` only when the
instance dict and the class have no ``NAME``, so a name the class binds (a method, a class
attribute) is not read from the store; ``obj[KEY]`` always calls ``__getitem__``.

What is read: a plain class (no base but ``object``, no decorator, no ``__setattr__`` /
``__getattribute__`` / ``__new__``) whose ``__getattr__(self, key)`` or ``__getitem__(self,
key)`` is ``return self.STORE[key]``, after only ``if ...: raise ...`` statements. The store is
assigned only by the statements that fill it (``fill``). Inside the class, a write of a literal
key (``self.args['lr'] = ...``) makes that key unknown; a method that writes a key it is given
(``set_hparam(self, key, value)``, ``__setitem__``) is a *writer*: who calls it, where, is the
resolver's question (``Project.writes_item``). Anything else that may change the store (a
computed key not given to the method, ``self.STORE.update(...)``, the store handed to a function
that is not known to only read it) makes the class unreadable: None.
"""

from __future__ import annotations

import ast
from typing import FrozenSet, List, Optional, Tuple

from dl_lint.analysis.syntax import items_loop

# Hooks that change how attributes are set or found: the class is not read.
_OPAQUE = frozenset({"__setattr__", "__getattribute__", "__new__", "__init_subclass__", "__delattr__"})
# What a method may call on the store without changing it.
_READS = frozenset({"get", "keys", "items", "values", "copy", "__contains__", "__getitem__"})
# Functions the store may be handed to that only read it.
_READ_ONLY_CALLS = frozenset({"str", "repr", "len", "print", "sorted", "list", "tuple", "set", "dict", "iter", "format", "pformat", "pprint", "dumps", "dump", "safe_dump"})

ACCESS_ATTR = "attr"
ACCESS_ITEM = "item"


def _is_self(node: ast.AST, me: str = "self") -> bool:
    return isinstance(node, ast.Name) and node.id == me


def _store_of(node: ast.AST, me: str) -> Optional[str]:
    """``STORE`` of ``me.STORE``."""
    return node.attr if isinstance(node, ast.Attribute) and _is_self(node.value, me) else None


def _plain_method(method: ast.AST, count: int) -> Optional[List[str]]:
    """The parameter names of a method with exactly ``count`` plain positional parameters (no
    defaults, ``*``, ``**``, keyword-only or decorators); None otherwise."""
    if not isinstance(method, ast.FunctionDef) or method.decorator_list:
        return None
    args = method.args
    positional = [*args.posonlyargs, *args.args]
    if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or len(positional) != count:
        return None
    return [a.arg for a in positional]


def _raises_only(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.If) and not statement.orelse and all(isinstance(s, ast.Raise) for s in statement.body)


def _hook_store(method: ast.FunctionDef) -> Optional[str]:
    """``STORE`` when the hook is ``return self.STORE[key]`` after raise-only ``if``s."""
    names = _plain_method(method, 2)
    if names is None:
        return None
    me, key = names
    body = method.body[1:] if method.body and isinstance(method.body[0], ast.Expr) and isinstance(method.body[0].value, ast.Constant) else method.body
    if not body or not all(_raises_only(s) for s in body[:-1]):
        return None
    last = body[-1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Subscript) and _is_self(last.value.slice, key)):
        return None
    return _store_of(last.value.value, me)


def store_hooks(cls: ast.ClassDef) -> Optional[Tuple[str, FrozenSet[str]]]:
    """(STORE, the accesses it answers: ``ACCESS_ATTR`` and/or ``ACCESS_ITEM``) of a plain class
    whose ``__getattr__`` / ``__getitem__`` read one dict attribute; None otherwise."""
    if cls.decorator_list or cls.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return None
    stores = {}
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name in _OPAQUE:
                return None
            if statement.name in ("__getattr__", "__getitem__"):
                store = _hook_store(statement) if isinstance(statement, ast.FunctionDef) else None
                if store is None:
                    return None
                stores[ACCESS_ATTR if statement.name == "__getattr__" else ACCESS_ITEM] = store
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if any(isinstance(t, ast.Name) and (t.id in _OPAQUE or t.id in ("__getattr__", "__getitem__", "__slots__")) for t in targets):
                return None
    if not stores or len(set(stores.values())) != 1:
        return None
    return next(iter(stores.values())), frozenset(stores)


def class_names(cls: ast.ClassDef) -> Tuple[str, ...]:
    """The names the class body binds: an attribute read of one is not the store's."""
    names = set()
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        else:
            for node in ast.walk(statement):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    names.add(node.id)
    return tuple(sorted(names))


def store_edits(cls: ast.ClassDef, store: str, fills: FrozenSet[int]) -> Optional[Tuple[Tuple[str, ...], Tuple[str, ...]]]:
    """(literal keys the class writes into the store, writer methods) of the class's methods;
    ``fills``: ids of the nodes that fill the store (left alone). None when something else may
    change it: another assignment of ``self.STORE``, a computed key that is not a parameter of
    the method, a mutating method call on it, or the store handed to an unknown function."""
    edited, writers = set(), set()
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if method.name in ("__getattr__", "__getitem__"):
            continue
        params = [a.arg for a in (*method.args.posonlyargs, *method.args.args)]
        if not params:
            continue
        me = params[0]
        parents = {}
        for node in ast.walk(method):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        skip = set()
        for node in ast.walk(method):
            if id(node) in fills:
                skip.update(id(n) for n in ast.walk(node))
        for node in ast.walk(method):
            if id(node) in skip or _store_of(node, me) != store:
                continue
            parent = parents.get(id(node))
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                return None  # ``self.STORE = ...`` that is not a fill
            if isinstance(parent, ast.Subscript) and parent.value is node:
                if isinstance(parent.ctx, ast.Load):
                    continue
                key = parent.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    edited.add(key.value)
                elif isinstance(key, ast.Name) and key.id in params[1:]:
                    writers.add(method.name)
                else:
                    return None
                continue
            if isinstance(parent, ast.Attribute) and parent.value is node:
                call = parents.get(id(parent))
                if parent.attr in _READS and isinstance(call, ast.Call) and call.func is parent:
                    continue
                return None
            if isinstance(parent, ast.Compare):
                continue  # ``key in self.STORE``
            if isinstance(parent, ast.Call) and node in parent.args:
                func = parent.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in _READ_ONLY_CALLS:
                    continue
            if isinstance(parent, (ast.FormattedValue, ast.BinOp)):
                continue  # formatted into a message
            return None
    return tuple(sorted(edited)), tuple(sorted(writers))


def kwargs_fill(init: ast.AST, store: str) -> Optional[FrozenSet[int]]:
    """The ids of the statements of ``__init__(self, **kw)`` that fill the store with the
    keywords (``self.S = {}`` and ``for k, v in kw.items(): self.S[k] = v``; ``self.S = kw``,
    ``dict(kw)``, ``dict(**kw)``, ``{**kw}``, ``kw.copy()``), when no other statement uses
    ``kw``; None otherwise."""
    names = None
    if isinstance(init, ast.FunctionDef) and not init.decorator_list:
        args = init.args
        positional = [*args.posonlyargs, *args.args]
        if args.kwarg and len(positional) == 1 and not args.vararg and not args.kwonlyargs and not args.defaults:
            names = positional[0].arg, args.kwarg.arg
    if names is None:
        return None
    me, kw = names
    fills, empty, looped = set(), False, False
    for statement in init.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and _store_of(statement.targets[0], me) == store:
            value = statement.value
            if isinstance(value, ast.Dict) and not value.keys:
                empty = True
            elif not _copies(value, kw):
                return None
            else:
                looped = True
            fills.add(id(statement))
            continue
        walked = items_loop(statement)
        if walked is not None and walked[2] == kw and len(statement.body) == 1:
            key, item, _ = walked
            inner = statement.body[0]
            if (
                isinstance(inner, ast.Assign)
                and len(inner.targets) == 1
                and isinstance(inner.targets[0], ast.Subscript)
                and _store_of(inner.targets[0].value, me) == store
                and _is_self(inner.targets[0].slice, key)
                and _is_self(inner.value, item)
            ):
                if not empty:
                    return None
                looped = True
                fills.add(id(statement))
                continue
        if any(_is_self(n, kw) for n in ast.walk(statement)):
            return None
    return frozenset(fills) if looped else None


def _copies(value: ast.AST, kw: str) -> bool:
    if _is_self(value, kw):
        return True
    if isinstance(value, ast.Dict) and len(value.keys) == 1 and value.keys[0] is None and _is_self(value.values[0], kw):
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and len(value.args) + len(value.keywords) == 1:
        given = value.args[0] if value.args else value.keywords[0].value if value.keywords[0].arg is None else None
        return given is not None and _is_self(given, kw)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "copy" and not value.args and _is_self(value.func.value, kw):
        return True
    return False


def namespace_fills(cls: ast.ClassDef, store: str) -> Optional[List[Tuple[ast.FunctionDef, ast.Assign, ast.AST]]]:
    """Each ``self.STORE = vars(NS)`` / ``NS.__dict__`` of the class's methods (NS a name, or a
    ``parse_args()`` / ``parse_known_args()[0]`` call written in place): (method, statement, NS).
    None when the store is also assigned anything else."""
    found = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or not method.args.args:
            continue
        me = method.args.args[0].arg
        for node in ast.walk(method):
            if not isinstance(node, ast.Assign) or not any(_store_of(t, me) == store for t in node.targets):
                continue
            if len(node.targets) != 1:
                return None
            source = _namespace_of(node.value)
            if source is None:
                return None
            found.append((method, node, source))
    return found or None


def _namespace_of(value: ast.AST) -> Optional[ast.AST]:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "vars" and len(value.args) == 1 and not value.keywords:
        inner = value.args[0]
    elif isinstance(value, ast.Attribute) and value.attr == "__dict__":
        inner = value.value
    else:
        return None
    if isinstance(inner, ast.Name):
        return inner
    if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant) and inner.slice.value == 0:
        inner = inner.value  # ``parser.parse_known_args()[0]``
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in ("parse_args", "parse_known_args"):
        return inner
    return None


def store_shape(cls: ast.ClassDef):
    """``setattr_configs.Shape`` of a keyword store: (``store:ACCESSES:WRITERS:STORE``, False, (),
    names unknown: the keys the class itself writes, and for attribute reads the names its
    body binds, which a read finds before ``__getattr__``). None when the class is not one."""
    hooks = store_hooks(cls)
    if hooks is None:
        return None
    store, accesses = hooks
    inits = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
    if len(inits) != 1:
        return None
    fills = kwargs_fill(inits[0], store)
    if fills is None:
        return None
    edits = store_edits(cls, store, fills)
    if edits is None:
        return None
    edited, writers = edits
    unknown = set(edited)
    if ACCESS_ATTR in accesses:
        unknown.update(class_names(cls))
    mode = f"store:{','.join(sorted(accesses))}:{','.join(writers)}:{store}"
    return mode, False, (), tuple(sorted(unknown))


def parse_mode(mode: str) -> Optional[Tuple[Tuple[str, ...], Tuple[str, ...], str]]:
    """(accesses, writers, store) of a ``store:`` mode; None for any other mode."""
    if not mode.startswith("store:"):
        return None
    _, accesses, writers, store = mode.split(":", 3)
    return tuple(accesses.split(",")), tuple(w for w in writers.split(",") if w), store
