"""Config objects whose ``__init__`` sets attributes from keywords (minGPT's ``TrainerConfig``
and its many copies: decision-transformer, countless research repositories)::

    class TrainerConfig:
        max_epochs = 10
        num_workers = 0
        def __init__(self, **kwargs):
            for k, v in kwargs.items():
                setattr(self, k, v)

    tconf = TrainerConfig(max_epochs=2, num_workers=4)   # tconf.num_workers is 4

Facts (CPython's data model, 3.8-3.13): ``setattr(self, k, v)`` and ``self.__dict__.update(d)``
put the key in the instance dict, which an attribute read looks in before the class; an
attribute the construction leaves alone is the class attribute. So ``NAME`` of an instance is
the construction's keyword ``NAME`` when given, else the class attribute's value. Shapes read:
``**kwargs`` or one dict parameter, walked by ``for k, v in D.items(): setattr(self, k, v)``
(optionally under ``if hasattr(self, k):``, which skips names the class does not define) or
``self.__dict__.update(D)``.

Anything else that may set an attribute makes it unknown: another statement of ``__init__``
or a method assigning ``self.NAME`` (that name), ``setattr``/``vars``/``__dict__`` on self with
a name not written down, ``__setattr__``/``__getattr__``/``__getattribute__``, a base class or
a decorator (the whole class); the instance edited after construction is the resolver's
(``Resolver._config_edited``).
"""

from __future__ import annotations

import ast
from typing import Optional, Tuple

from dl_lint.analysis.syntax import items_loop

# (mode, checked, fields, unknown): mode "kwargs" (``def __init__(self, **kw)``) or "dict"
# (``def __init__(self, d)``); checked: under ``if hasattr(self, k)`` (keywords the class does not
# define are dropped); fields: (name, default expression, line) of each class attribute;
# unknown: names something else may set.
Shape = Tuple[str, bool, Tuple[Tuple[str, ast.expr, int], ...], Tuple[str, ...]]

_OPAQUE_METHODS = frozenset(
    {"__setattr__", "__getattr__", "__getattribute__", "__new__", "__init_subclass__", "__post_init__", "__slots__"}
)


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _setattr_call(node: ast.AST, key: str, value: str) -> bool:
    """``setattr(self, key, value)`` as a statement."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "setattr"
        and len(node.value.args) == 3
        and not node.value.keywords
        and _is_self(node.value.args[0])
        and isinstance(node.value.args[1], ast.Name)
        and node.value.args[1].id == key
        and isinstance(node.value.args[2], ast.Name)
        and node.value.args[2].id == value
    )


def _hasattr_test(test: ast.AST, key: str) -> bool:
    return (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "hasattr"
        and len(test.args) == 2
        and _is_self(test.args[0])
        and isinstance(test.args[1], ast.Name)
        and test.args[1].id == key
    )


def _raises_only(body) -> bool:
    """An ``else:`` of ``if hasattr(self, k):`` that sets nothing (raise, pass, print)."""

    def harmless(statement: ast.stmt) -> bool:
        if isinstance(statement, (ast.Raise, ast.Pass)):
            return True
        call = statement.value if isinstance(statement, ast.Expr) else None
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"

    return all(harmless(s) for s in body)


def _setter(statement: ast.stmt, source: str) -> Optional[bool]:
    """Whether ``statement`` sets every item of the dict ``source`` on self: False (all of
    them), True (those the class has, ``if hasattr(self, k)``), None (not such a statement)."""
    if (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and statement.value.func.attr == "update"
        and isinstance(statement.value.func.value, ast.Attribute)
        and statement.value.func.value.attr == "__dict__"
        and _is_self(statement.value.func.value.value)
        and len(statement.value.args) == 1
        and not statement.value.keywords
        and isinstance(statement.value.args[0], ast.Name)
        and statement.value.args[0].id == source
    ):
        return False
    walked = items_loop(statement)
    if walked is None or walked[2] != source or len(statement.body) != 1:
        return None
    key, value, _ = walked
    inner = statement.body[0]
    if _setattr_call(inner, key, value):
        return False
    if (
        isinstance(inner, ast.If)
        and _hasattr_test(inner.test, key)
        and len(inner.body) == 1
        and _setattr_call(inner.body[0], key, value)
        and _raises_only(inner.orelse)
    ):
        return True
    return None


def setattr_shape(cls: ast.ClassDef) -> Optional[Shape]:
    """The class's ``Shape`` when its ``__init__`` is a keyword setter, else None. A class that
    keeps its keywords in a dict it answers reads from (``item_stores``) has mode
    ``store:ACCESSES:WRITERS:STORE``: read like ``kwargs``, through the accesses its hooks answer
    ("attr", "item"), with WRITERS the methods that write a key they are given."""
    from dl_lint.analysis.configs.item_stores import store_shape

    if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in ("__getattr__", "__getitem__") for s in cls.body):
        return store_shape(cls)
    if cls.decorator_list or cls.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return None
    inits = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
    if len(inits) != 1 or isinstance(inits[0], ast.AsyncFunctionDef) or inits[0].decorator_list:
        return None
    init = inits[0]
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    if args.vararg is not None or args.kwonlyargs or args.defaults or not positional or positional[0].arg != "self":
        return None
    if args.kwarg is not None and len(positional) == 1:
        mode, source = "kwargs", args.kwarg.arg
    elif args.kwarg is None and len(positional) == 2:
        mode, source = "dict", positional[1].arg
    else:
        return None
    body = init.body[1:] if init.body and isinstance(init.body[0], ast.Expr) and isinstance(init.body[0].value, ast.Constant) else init.body
    checked: Optional[bool] = None
    unknown = set()
    for statement in body:
        found = _setter(statement, source) if checked is None else None
        if found is not None:
            checked = found
            continue
        # anything else: a ``self.NAME = ...`` makes NAME unknown; any other use of self (or of
        # the source, which it could edit first) the whole class
        stored = set()
        for node in ast.walk(statement):
            if isinstance(node, ast.Attribute) and _is_self(node.value) and isinstance(node.ctx, (ast.Store, ast.Del)):
                unknown.add(node.attr)
                stored.add(id(node.value))
        for node in ast.walk(statement):
            if (_is_self(node) and id(node) not in stored) or (isinstance(node, ast.Name) and node.id == source):
                return None
    if checked is None:
        return None
    fields = {}
    for statement in cls.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            if statement.targets[0].id in _OPAQUE_METHODS:
                return None  # ``__slots__``: setting another name raises
            fields[statement.targets[0].id] = (statement.value, statement.lineno)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value is not None:
            fields[statement.target.id] = (statement.value, statement.lineno)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if statement.name in _OPAQUE_METHODS:
                return None
            unknown.add(statement.name)
            if statement is init:
                continue
            for node in ast.walk(statement):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    if isinstance(node.ctx, (ast.Store, ast.Del)):
                        unknown.add(node.attr)
                    elif node.attr == "__dict__":
                        return None
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr", "vars"):
                    if node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in ("self", "cls"):
                        name = node.args[1] if len(node.args) > 1 else None
                        if node.func.id == "vars" or not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                            return None
                        unknown.add(name.value)
        elif isinstance(statement, (ast.Expr, ast.Pass)) and (statement is cls.body[0] or isinstance(statement, ast.Pass)):
            continue  # the docstring
        else:
            for node in ast.walk(statement):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    unknown.add(node.id)
    entries = tuple((name, value, line) for name, (value, line) in fields.items() if name not in unknown)
    return mode, checked, entries, tuple(sorted(unknown))
