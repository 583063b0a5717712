"""Which objects a script's import-time code iterates, however they travel (DL203).

Under spawn and forkserver every worker imports the main script again; a loader with workers
that the script's unguarded module-level code iterates starts processes during that import and
fails. ``ModuleAnalysis._unguarded_iteration`` recognises the shapes of one module (and of
functions handed a loader in another). This module is its general complement: starting at one
module's unguarded top-level statements (a *root*), it follows the code those statements run
across the project (module-level functions, classes and their methods, on the objects built
there, in any module) and tracks where each object built by an outside call goes: through
names, returns, tuples and lists (by position when unpacked; what ``append``/``extend``
adds joins the elements), list, set and dict comprehensions (their one element expression,
keyed by a literal list of strings; any subscript reads it), the containers
``zip``/``enumerate``/``list`` give back, dicts (by
constant key, also keys named by constants of another module; ``dict(k=v)``, and what
``items``/``values``/``get``/``pop`` give back), ``**dict`` spreads into parameters, attributes of
objects, and the parameters of the functions it is handed to. A module-level function of the
project handed by name as an argument (``Trainer(net, loading_data)``) is a value too: a call
of the parameter it lands in runs it (``dataloader()`` in ``Trainer.__init__``). An object is *iterated* where a
``for`` loop, a comprehension, ``iter()``/``enumerate()``/``zip()``/``list()``/... or a
Lightning Trainer's ``fit``/``validate``/``test``/``predict`` takes it (through transparent
wrappers such as ``tqdm``).

The analysis is flow-insensitive inside a function and context-insensitive across calls (each
function has one environment for every call of it), so it over-approximates where a value may
go; what it reports is still an iteration of that very construction on code import-time
statements reach. It stays silent past its budgets (functions, passes): unknown is silence.

Each root is interpreted once per run (``Project.import_flow``); its answer rests on the
bytes of every module it read.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, List, Optional, Set, Tuple

from dl_lint.analysis.scopes import Site
from dl_lint.analysis.transfers import transparent_leaves
from dl_lint.analysis.syntax import terminal

# Builtins that call ``iter()`` on their arguments when called (CPython): the loader's workers
# start on that line, whatever is done with the result.
_ITERATING = frozenset({"iter", "enumerate", "zip", "list", "tuple", "sorted", "sum", "set", "min", "max", "any", "all"})
# ... on their arguments after the first (a function)
_ITERATING_AFTER_FIRST = frozenset({"map", "filter"})
# Outside calls whose result iterates what they are given when it is iterated (progress bars).
_WRAPPERS = frozenset({"tqdm", "trange", "progressbar", "islice", "chain", "cycle"})
# Outside classes that hold a collection of loaders and iterate every one when iterated:
# Lightning's CombinedLoader (2.6.6, utilities/combined_loader.py: each mode's ``__iter__`` calls
# ``iter()`` on its iterables, ``sequential`` one after another), which also wraps a collection a
# ``*_dataloader`` hook returns (loops/fit_loop.py:242, loops/evaluation_loop.py:181).
_COLLECTION_LOADERS = frozenset({"CombinedLoader"})
# Methods of dicts, lists, sets and strings: ``CONSTANTS.get(key)`` on a name a star import binds
# is not a module's function (resolving it reads the whole constant).
_CONTAINER_METHODS = frozenset(
    {"get", "items", "keys", "values", "append", "extend", "update", "pop", "setdefault", "copy", "format", "join",
     "split", "strip", "replace", "lower", "upper", "startswith", "endswith", "add", "remove", "insert", "index", "count"}
)
# The hooks a Trainer's stage asks for its loaders, each with the step the model must override
# for it to be asked (Lightning 2.6.6: ``fit_loop.setup_data`` always asks for the training
# loaders; ``evaluation_loop.setup_data`` skips a stage whose step is not overridden).
_LIGHTNING_HOOKS = {
    "fit": (("train_dataloader", None), ("val_dataloader", "validation_step")),
    "validate": (("val_dataloader", "validation_step"),),
    "test": (("test_dataloader", "test_step"),),
    "predict": (("predict_dataloader", None),),
}
_LIGHTNING_CLIS = frozenset(
    {"lightning.pytorch.cli.LightningCLI", "lightning.pytorch.LightningCLI", "pytorch_lightning.cli.LightningCLI",
     "pytorch_lightning.utilities.cli.LightningCLI", "lightning.pytorch.utilities.cli.LightningCLI"}
)  # fmt: skip
# Methods that put values into a list or set (``_fill``).
_FILLING = frozenset({"append", "add", "insert", "extend"})
# Methods that give back what a dict or list holds (``_read``).
_READING = frozenset({"items", "values", "keys", "get", "pop", "copy"})
# Budgets: past them the root's answer is empty (unknown is silence).
MAX_FUNCTIONS = 400
MAX_PASSES = 40
MAX_STATEMENTS = 400_000  # statements interpreted, over all passes
MAX_RESTARTS = 4
MAX_NESTING = 24  # calls interpreted at once, one inside the other

# The values tracked: ("obj", path, line, column), what an outside call built; ("inst", path,
# class name), an object of a project class; ("cont", id(display)), a tuple, list or dict display.
Inst = Tuple[str, str, str]


class _Container:
    __slots__ = ("items", "keys", "all", "uniform")

    def __init__(self, items: Optional[List[Set]], uniform: bool = False) -> None:
        self.items = items  # by position (tuple/list displays), else None
        self.keys: Dict[str, Set] = {}  # by constant key (dicts)
        self.all: Set = set()
        # a comprehension's: every element is what its one element expression gives, so any
        # subscript (``dataloaders[phase]``) reads that
        self.uniform = uniform


class _Function:
    __slots__ = ("analysis", "node", "env", "returns", "root_line", "kind", "seen")

    def __init__(self, analysis, node, root_line: int, kind: str) -> None:
        self.analysis = analysis
        self.node = node  # a FunctionDef, or the module for the root's top level
        self.env: Dict[str, Set] = {}
        self.returns: Set = set()
        self.root_line = root_line
        self.kind = kind  # "function", "method", "static", "module"
        self.seen = -1  # the interpretation's change count when it last ran (``ImportFlow._run``)


class ImportFlow:
    """The interpretation of one root module (``run``); ``iterated`` maps (path, id(call)) of
    an outside call (its file, line and column) to (root line, file and line of the iteration)."""

    def __init__(self, project, root) -> None:
        self.project = project
        self.root = root
        self.read: Set[str] = {root.path}
        self.functions: Dict[int, _Function] = {}
        self.containers: Dict[int, _Container] = {}
        self.globals: Dict[str, Dict[str, Set]] = {}  # path -> name -> values (the root's top level)
        self.fields: Dict[Tuple[str, str], Dict[str, Set]] = {}  # (path, class) -> attr -> values
        self.iterated: Dict[Tuple[str, int, int], Tuple[int, str, int]] = {}
        self.members: Dict[Tuple[str, int, int], Set] = {}  # a CombinedLoader's loaders (``_COLLECTION_LOADERS``)
        self.changed = False
        self.overflow = False
        self.poisoned: Set[tuple] = set()  # names and attributes rebound to an unknown call of themselves
        self._classes: Dict[Tuple[str, str], Optional[Tuple[object, ast.ClassDef]]] = {}
        self._by_module: Dict[int, Tuple[object, Dict[str, ast.ClassDef]]] = {}  # ``_class_nodes``
        self._function_refs: Dict[int, Optional[Tuple[str, str, str, str]]] = {}  # ``_function_value``
        self._guarded = root.index.main_guard_lines
        self._paths: Dict[str, str] = {}
        # per node, unchanged between passes: callee resolutions, dict keys, self-rebindings
        self._refs: Dict[int, object] = {}
        self._static: Dict[int, object] = {}
        self._methods: Dict[tuple, object] = {}
        self._bodies: Dict[int, List[ast.stmt]] = {}
        self._active: Set[int] = set()  # functions being interpreted (a call of one waits)
        self._changes = 0
        self._steps = 0
        self._tainted = False
        self._keys: Dict[int, Optional[str]] = {}
        self._rebinding: Dict[int, tuple] = {}
        self._module_classes: Dict[int, Set[str]] = {}

    # -- driving ----------------------------------------------------------------------------
    def run(self) -> "ImportFlow":
        """Interpret until nothing changes; again from the start when a name or attribute
        turned out to be rebound to an unknown call of itself (what flowed through it before
        is not kept), at most ``MAX_RESTARTS`` times."""
        for _ in range(MAX_RESTARTS):
            self._tainted = False
            self._interpret()
            if not self._tainted:
                return self
            self.functions, self.containers, self.globals, self.fields, self.iterated = {}, {}, {}, {}, {}
            self.members = {}
            self.overflow = False
        self.iterated = {}
        return self

    def _interpret(self) -> None:
        top = _Function(self.root, self.root.tree, 0, "module")
        top.env = self.globals.setdefault(self.root.path, {})
        statements = [s for s in top_statements(self.root.tree.body) if not self._in_guard(s.lineno)]
        self._poison_names(top, statements)
        self._steps = 0
        for _ in range(MAX_PASSES):
            self.changed = False
            if top.seen != self._changes:  # else nothing it reads changed since its last pass
                for statement in statements:
                    top.root_line = statement.lineno
                    self._statement(top, statement)
                top.seen = self._changes
                self._steps += len(statements)
            for function in list(self.functions.values()):
                self._run(function)
                if self.overflow:
                    break
            if self.overflow:
                self.iterated = {}
                return
            if not self.changed:
                return
        self.iterated = {}  # no fixed point within the budget: unknown

    def _run(self, function: _Function) -> None:
        """Interpret a function's body (not while it is already being interpreted: a recursive
        call waits for the next pass)."""
        if id(function.node) in self._active or self.overflow or function.seen == self._changes:
            return  # (nothing changed since it last ran: it would find nothing new)
        body = self._bodies.get(id(function.node))
        if body is None:
            body = self._bodies[id(function.node)] = top_statements(function.node.body)
            self._poison_names(function, body)
        self._active.add(id(function.node))
        try:
            for statement in body:
                self._statement(function, statement)
        finally:
            self._active.discard(id(function.node))
        function.seen = self._changes
        self._steps += len(body)
        if self._steps > MAX_STATEMENTS:
            self.overflow = True

    def _poison_names(self, function: _Function, body: List[ast.stmt]) -> None:
        """The names a body rebinds to an unknown call of themselves, before anything flows."""
        for statement in body:
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name) and _rebinds_itself(target, statement.value):
                        self._poison(function, target)

    def _absolute(self, path: str) -> str:
        found = self._paths.get(path)
        if found is None:
            found = self._paths[path] = os.path.abspath(path)
        return found

    def _in_guard(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self._guarded)

    # -- statements -------------------------------------------------------------------------
    def _statement(self, fn: _Function, node: ast.stmt) -> None:
        kind = type(node)
        if kind is ast.Assign:
            values = self._eval(fn, node.value)
            rebound = self._rebinding.get(id(node))
            if rebound is None:
                rebound = self._rebinding[id(node)] = tuple(t for t in node.targets if _rebinds_itself(t, node.value))
            for target in rebound:
                self._poison(fn, target)
            for target in node.targets:
                self._assign(fn, target, values)
        elif kind is ast.AnnAssign:
            if node.value is not None:
                self._assign(fn, node.target, self._eval(fn, node.value))
        elif kind is ast.AugAssign:
            self._eval(fn, node.value)
        elif kind is ast.Expr:
            self._eval(fn, node.value)
        elif kind is ast.Return:
            if node.value is not None:
                self._add(fn.returns, self._eval(fn, node.value))
        elif kind in (ast.For, ast.AsyncFor):
            values = self._iterate(fn, node.iter, node.lineno)
            self._assign(fn, node.target, self._elements(values))
        elif kind in (ast.With, ast.AsyncWith):
            for item in node.items:
                values = self._eval(fn, item.context_expr)
                if item.optional_vars is not None:
                    self._assign(fn, item.optional_vars, values)
        elif kind in (ast.If, ast.While):
            self._eval(fn, node.test)

    def _assign(self, fn: _Function, target: ast.AST, values: Set) -> None:
        kind = type(target)
        if kind is ast.Name:
            self._add(self._env_of(fn, target.id), values)
        elif kind in (ast.Tuple, ast.List):
            width = len(target.elts)
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Starred):
                    continue
                part: Set = set()
                for value in values:
                    if value[0] == "cont":
                        box = self.containers[value[1]]
                        if box.items is not None and len(box.items) == width and not starred:
                            part |= box.items[index]  # another width or a starred target: not followed
                self._assign(fn, element, part)
        elif kind is ast.Attribute:
            for holder in self._eval(fn, target.value):
                if holder[0] == "inst":
                    self._add(self.fields.setdefault((holder[1], holder[2]), {}).setdefault(target.attr, set()), values)
        elif kind is ast.Subscript:
            key = self._key(fn, target.slice)
            for holder in self._eval(fn, target.value):
                if holder[0] == "cont":
                    box = self.containers[holder[1]]
                    if key is not None:
                        self._add(box.keys.setdefault(key, set()), values)
                    self._add(box.all, values)

    def _poison(self, fn: _Function, target: ast.AST) -> None:
        """A name or attribute rebound to an unknown call of itself holds nothing followed. When
        something had already flowed through it, the interpretation starts again (``run``)."""
        if isinstance(target, ast.Name):
            local = fn.kind != "module" and _binds(fn.analysis, fn.node, target.id)
            key = (id(fn.node) if local else fn.analysis.path, target.id)
            held = fn.env.get(target.id) if local else self.globals.get(fn.analysis.path, {}).get(target.id)
            keys = [key]
        else:
            keys, held = [], set()
            for holder in self._eval(fn, target.value):
                if holder[0] == "inst":
                    keys.append((holder[1], holder[2], target.attr))
                    held = held | self.fields.get((holder[1], holder[2]), {}).get(target.attr, set())
        for key in keys:
            if key not in self.poisoned:
                self.poisoned.add(key)
                if held:
                    self._tainted = True

    def _env_of(self, fn: _Function, name: str) -> Set:
        if fn.kind == "module" or not _binds(fn.analysis, fn.node, name):
            return self.globals.setdefault(fn.analysis.path, {}).setdefault(name, set())
        return fn.env.setdefault(name, set())

    def _add(self, into: Set, values: Set) -> None:
        if not values <= into:
            into |= values
            self.changed = True
            self._changes += 1

    # -- expressions ------------------------------------------------------------------------
    def _eval(self, fn: _Function, node: Optional[ast.AST]) -> Set:
        if node is None:
            return set()
        kind = type(node)
        if kind is ast.Name:
            if fn.kind != "module" and _binds(fn.analysis, fn.node, node.id):
                return set() if (id(fn.node), node.id) in self.poisoned else fn.env.get(node.id, set())
            if (fn.analysis.path, node.id) in self.poisoned:
                return set()
            return self.globals.get(fn.analysis.path, {}).get(node.id, set())
        if kind is ast.Call:
            return self._call(fn, node)
        if kind is ast.Attribute:
            found: Set = set()
            for holder in self._eval(fn, node.value):
                if holder[0] == "inst" and (holder[1], holder[2], node.attr) not in self.poisoned:
                    found |= self.fields.get((holder[1], holder[2]), {}).get(node.attr, set())
            return found
        if kind in (ast.Tuple, ast.List, ast.Set):
            box = self._container(node, kind is not ast.Set)
            items = [self._eval(fn, e.value if isinstance(e, ast.Starred) else e) for e in node.elts]
            if box.items is not None:
                for index, values in enumerate(items):
                    self._add(box.items[index], values)
            for values in items:
                self._add(box.all, values)
            return {("cont", id(node))}
        if kind is ast.Dict:
            box = self._container(node, False)
            for key, value in zip(node.keys, node.values):
                values = self._eval(fn, value)
                if key is None:  # ``{**other}``
                    self._spread_into(box, values)
                    continue
                name = self._key(fn, key)
                if name is not None:
                    self._add(box.keys.setdefault(name, set()), values)
                self._add(box.all, values)
            return {("cont", id(node))}
        if kind is ast.Subscript:
            key = self._key(fn, node.slice)
            self._eval(fn, node.slice)
            found = set()
            index = _index(node.slice)
            for holder in self._eval(fn, node.value):
                if holder[0] == "cont":
                    box = self.containers[holder[1]]
                    if box.uniform:
                        found |= box.keys.get(key, set()) if key is not None and box.keys else box.all
                    elif key is not None:
                        found |= box.keys.get(key, set())
                    elif index is not None and box.items is not None and -len(box.items) <= index < len(box.items):
                        found |= box.items[index]
                    # any other subscript may be any element: not followed
            return found
        if kind is ast.IfExp:
            self._eval(fn, node.test)
            return self._eval(fn, node.body) | self._eval(fn, node.orelse)
        if kind is ast.BoolOp:
            found = set()
            for value in node.values:
                found |= self._eval(fn, value)
            return found
        if kind is ast.NamedExpr:
            values = self._eval(fn, node.value)
            self._assign(fn, node.target, values)
            return values
        if kind in (ast.Await, ast.Starred):
            return self._eval(fn, node.value)
        if kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            for generator in node.generators:  # CPython calls iter() on the first when it is built
                self._iterate(fn, generator.iter, node.lineno)
            if kind is ast.GeneratorExp:
                return set()  # its elements are made only if it is iterated
            self._comprehension(fn, node)
            return {("cont", id(node))}
        if kind in (ast.BinOp, ast.Compare, ast.UnaryOp, ast.JoinedStr, ast.FormattedValue):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._eval(fn, child)
        return set()

    def _comprehension(self, fn: _Function, node: ast.AST) -> _Container:
        """The container a list, set or dict comprehension builds (``{x: DataLoader(sets[x],
        ...) for x in ["train", "val"]}``): every element is what its element expression gives
        (evaluated once: the interpretation is flow-insensitive), and a dict comprehension over
        a literal list of strings, keyed by its variable, has those keys."""
        box = self.containers.get(id(node))
        if box is None:
            box = self.containers[id(node)] = _Container(None, uniform=True)
        if isinstance(node, ast.DictComp):
            self._eval(fn, node.key)
            values = self._eval(fn, node.value)
            generator = node.generators[0]
            table = generator.iter
            if (
                len(node.generators) == 1
                and not generator.ifs
                and isinstance(generator.target, ast.Name)
                and isinstance(node.key, ast.Name)
                and node.key.id == generator.target.id
                and isinstance(table, (ast.List, ast.Tuple))
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in table.elts)
            ):
                for element in table.elts:
                    self._add(box.keys.setdefault(element.value, set()), values)
        else:
            values = self._eval(fn, node.elt)
        self._add(box.all, values)
        return box

    def _container(self, node: ast.AST, ordered: bool) -> _Container:
        box = self.containers.get(id(node))
        if box is None:
            width = len(node.elts) if ordered else 0
            box = self.containers[id(node)] = _Container([set() for _ in range(width)] if ordered else None)
        return box

    def _key(self, fn: _Function, node: ast.AST) -> Optional[str]:
        """A dict key's string: a literal, or a constant the resolver knows (``TRAIN_LOADER`` of
        a constants module), resolved once per node."""
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if id(node) not in self._keys:
            self._keys[id(node)] = self._resolve_key(fn, node)
        return self._keys[id(node)]

    def _resolve_key(self, fn: _Function, node: ast.AST) -> Optional[str]:
        if isinstance(node, (ast.Name, ast.Attribute)):
            site = fn.analysis.site_of(node) or Site(node.lineno, (), fn.node if fn.kind != "module" else None)
            try:
                single = fn.analysis.resolver.resolve(node, site).single
            except RecursionError:
                return None
            value = single.value if single is not None else None
            return value if isinstance(value, str) else None
        return None

    def _elements(self, values: Set) -> Set:
        """What iterating ``values`` yields that is followed: a container's elements."""
        found: Set = set()
        for value in values:
            if value[0] == "cont":
                found |= self.containers[value[1]].all
        return found

    def _iterate(self, fn: _Function, node: ast.AST, line: int) -> Set:
        """``node`` is iterated on ``line``: each outside object it may be (through transparent
        wrappers) is recorded; its values are returned."""
        values = self._eval(fn, node)
        for leaf in transparent_leaves(node):
            self._sink(fn, self._eval(fn, leaf) if leaf is not node else values, line)
        return values

    def _sink(self, fn: _Function, values: Set, line: int) -> None:
        todo = list(values)
        while todo:
            value = todo.pop()
            if value[0] == "obj" and value[1:] not in self.iterated:
                self.iterated[value[1:]] = (fn.root_line, fn.analysis.path, line)
                self.changed = True
                todo.extend(self.members.get(value[1:], ()))  # iterating a CombinedLoader iterates its loaders

    # -- calls ------------------------------------------------------------------------------
    def _call(self, fn: _Function, call: ast.Call) -> Set:
        func = call.func
        args = [self._eval(fn, a) for a in call.args]
        keywords = [(k.arg, self._eval(fn, k.value)) for k in call.keywords]
        if isinstance(func, ast.Name) and func.id in _ITERATING | _ITERATING_AFTER_FIRST and not _binds_anywhere(fn, func.id):
            skip = 1 if func.id in _ITERATING_AFTER_FIRST else 0
            for node, values in list(zip(call.args, args))[skip:]:
                if isinstance(node, ast.Starred):
                    self._sink(fn, self._elements(values), call.lineno)
                else:
                    for leaf in transparent_leaves(node):
                        self._sink(fn, values if leaf is node else self._eval(fn, leaf), call.lineno)
            if func.id == "iter":
                return args[0] if args else set()
            return self._built_container(call, func.id, args)
        if isinstance(func, ast.Name) and func.id == "dict" and not _binds_anywhere(fn, func.id):
            return self._dict_call(fn, call, args, keywords)
        if isinstance(func, ast.Attribute) and (func.attr in _FILLING or func.attr in _READING):
            boxes = [self.containers[v[1]] for v in self._eval(fn, func.value) if v[0] == "cont"]
            if boxes and func.attr in _FILLING and call.args:
                return self._fill(fn, call, func.attr, boxes, args)
            if boxes and func.attr in _READING:
                return self._read(fn, call, func.attr, boxes)
        if isinstance(func, ast.Attribute) and self._trainer_run(fn, call):
            return set()
        if terminal(func) == "LightningCLI" and self._lightning_cli(fn, call):
            return set()
        targets = self._callees(fn, call)
        if targets is None:  # outside the project: its result is an object of its own
            built = (self._absolute(fn.analysis.path), call.lineno, call.col_offset)
            found = {("obj", *built)}
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in _WRAPPERS and args:
                found |= args[0]
            if name in _COLLECTION_LOADERS:
                iterables = args[0] if args else next((values for key, values in keywords if key == "iterables"), set())
                members = self.members.setdefault(built, set())
                added = (iterables | self._elements(iterables)) - members
                if added:
                    members |= added
                    self.changed = True
            return found
        if self._handed_functions(fn, call, args, keywords):
            args = [values | self._function_value(fn, node) for node, values in zip(call.args, args)]
            keywords = [(name, values | self._function_value(fn, k.value)) for (name, values), k in zip(keywords, call.keywords)]
        found = set()
        for analysis, node, receiver, kind in targets:
            if kind == "class":
                instance = ("inst", analysis.path, node.name)
                found.add(instance)
                init = self._method(instance, "__init__")
                if init is not None:
                    self._enter(fn, call, init[0], init[1], instance, init[2], args, keywords)
                continue
            callee = self._enter(fn, call, analysis, node, receiver, kind, args, keywords)
            if callee is not None:
                found |= callee.returns
        return found

    def _handed_functions(self, fn: _Function, call: ast.Call, args: List[Set], keywords) -> bool:
        """Whether a call of the project hands a module-level function of the project, by name,
        as an argument (``Trainer(net, loading_data, optimizer)``): a name of no tracked value
        that resolves to one."""
        nodes = [*call.args, *(k.value for k in call.keywords)]
        values = [*args, *(v for _, v in keywords)]
        return any(not held and isinstance(node, ast.Name) and self._function_value(fn, node) for node, held in zip(nodes, values))

    def _function_value(self, fn: _Function, node: ast.AST) -> Set:
        """{("func", path, module, name)} when ``node`` is a name, not bound in ``fn``, that
        resolves to a module-level function of the project; empty otherwise. Once per node."""
        if not isinstance(node, ast.Name) or (fn.kind != "module" and _binds(fn.analysis, fn.node, node.id)):
            return set()
        key = id(node)
        if key not in self._function_refs:
            from dl_lint.analysis.values import FunctionRef

            found = None
            try:
                single = fn.analysis.resolver.resolve(node, self._site(fn, node)).single
            except RecursionError:
                single = None
            ref = single.value if single is not None else None
            if isinstance(ref, FunctionRef) and ref.kind == "function" and ref.path:
                found = ("func", ref.path, ref.module, ref.name)
            self._function_refs[key] = found
        found = self._function_refs[key]
        return {found} if found is not None else set()

    def _built_container(self, call: ast.Call, name: str, args: List[Set]) -> Set:
        """What an iterating builtin gives back, as a container of this call: ``zip(a, b)``
        yields tuples of an element of each (by position), ``enumerate(a)`` tuples of an index
        and an element, ``list(a)``, ``tuple(a)``, ``sorted(a)``, ``set(a)`` the elements.
        Anything else (``sum``, ``min``, ``any``, ...) nothing followed."""
        if name not in ("zip", "enumerate", "list", "tuple", "sorted", "set") or not args:
            return set()
        outer = self._synthetic(id(call), None)
        if name in ("zip", "enumerate"):
            parts = [self._elements(a) for a in args] if name == "zip" else [set(), self._elements(args[0])]
            inner = self._synthetic(id(call.func), len(parts))
            for index, part in enumerate(parts):
                self._add(inner.items[index], part)  # type: ignore[index]
                self._add(inner.all, part)
            self._add(outer.all, {("cont", id(call.func))})
        else:
            self._add(outer.all, self._elements(args[0]))
        return {("cont", id(call))}

    def _synthetic(self, key: int, width: Optional[int]) -> _Container:
        box = self.containers.get(key)
        if box is None:
            box = self.containers[key] = _Container([set() for _ in range(width)] if width is not None else None)
        return box

    def _fill(self, fn: _Function, call: ast.Call, method: str, boxes: List[_Container], args: List[Set]) -> Set:
        """``lst.append(x)``, ``s.add(x)``, ``lst.insert(i, x)``, ``lst.extend(xs)`` on a list or
        set this interpretation tracks: the value joins its elements (their positions are then
        unknown: ``a, b = lst`` is no longer read by position). ``extend`` iterates what it is
        given (CPython calls ``iter()`` on it)."""
        if method == "extend":
            for leaf in transparent_leaves(call.args[0]):
                self._sink(fn, args[0] if leaf is call.args[0] else self._eval(fn, leaf), call.lineno)
            joined = self._elements(args[0])
        elif method == "insert":
            joined = args[1] if len(args) > 1 else set()
        else:
            joined = args[0]
        for box in boxes:
            box.items = None
            self._add(box.all, joined)
        return set()

    def _dict_call(self, fn: _Function, call: ast.Call, args: List[Set], keywords) -> Set:
        """``dict(train=train_loader, val=val_loader)`` (or ``dict(other, ...)``): a dict of this
        call, each keyword a constant key; a mapping given first brings its keys."""
        box = self._synthetic(id(call), None)
        for values in args[:1]:
            self._spread_into(box, values)
        for name, values in keywords:
            if name is None:  # ``dict(**other)``
                self._spread_into(box, values)
            else:
                self._add(box.keys.setdefault(name, set()), values)
                self._add(box.all, values)
        return {("cont", id(call))}

    def _spread_into(self, box: _Container, values: Set) -> None:
        """``{**other}``, ``dict(other)``, ``dict(**other)``: the keys and elements of each
        dict among ``values`` join ``box``."""
        for other in values:
            if other[0] == "cont":
                inner = self.containers[other[1]]
                for name, held in list(inner.keys.items()):
                    self._add(box.keys.setdefault(name, set()), held)
                self._add(box.all, inner.all)

    def _read(self, fn: _Function, call: ast.Call, method: str, boxes: List[_Container]) -> Set:
        """What a tracked dict or list gives back: ``d.values()`` its elements, ``d.items()``
        pairs of a key and an element, ``d.get("train")`` / ``d.pop("train")`` the value at a
        constant key (else any element), ``lst.pop()`` any element, ``d.copy()`` the same
        container (a copy holding the same objects); ``keys()`` nothing followed."""
        held: Set = set()
        for box in boxes:
            held |= box.all
        if method == "copy":
            return {v for v in self._eval(fn, call.func.value) if v[0] == "cont"}
        if method in ("get", "pop"):
            key = self._key(fn, call.args[0]) if call.args else None
            if key is not None:
                found: Set = set()
                for box in boxes:
                    found |= box.keys.get(key, set())
                return found
            return held
        if method == "keys":
            return set()
        outer = self._synthetic(id(call), None)
        if method == "values":
            self._add(outer.all, held)
        else:  # items
            inner = self._synthetic(id(call.func), 2)
            self._add(inner.items[1], held)  # type: ignore[index]
            self._add(inner.all, held)
            self._add(outer.all, {("cont", id(call.func))})
        return {("cont", id(call))}

    def _trainer_run(self, fn: _Function, call: ast.Call) -> bool:
        """A Lightning Trainer's fit/validate/test/predict: the loaders it is given are iterated
        before it returns (``ModuleAnalysis._builds_trainer`` decides the receiver)."""
        from dl_lint.analysis.libraries import TRAINER_RUNS, trainer_loader_arguments

        func = call.func
        if func.attr not in TRAINER_RUNS:
            return False
        site = fn.analysis.site_of(call)
        if site is None or not fn.analysis._builds_trainer(func.value, site):
            return False
        self._eval(fn, func.value)
        loaders = trainer_loader_arguments(call)
        # A datamodule handed in the first loader slot is the datamodule (Lightning 2.6.6,
        # trainer.py: ``if isinstance(train_dataloaders, LightningDataModule): datamodule =
        # train_dataloaders``, and ``dataloaders`` alike for validate/test/predict): the common
        # ``trainer.fit(model, dm)``. An object of a project class there that defines one of the
        # run's hooks is taken for one.
        handed: Set = set()
        for argument in loaders:
            values = self._eval(fn, argument)
            modules = {v for v in values if v[0] == "inst" and any(self._method(v, hook) is not None for hook, _ in _LIGHTNING_HOOKS.get(func.attr, ()))}
            handed |= modules
            self._sink(fn, values - modules, call.lineno)
        if not loaders or handed:  # the loaders come from the hooks of the datamodule or the model
            model = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else next((k.value for k in call.keywords if k.arg == "model"), None)
            datamodule = next((k.value for k in call.keywords if k.arg == "datamodule"), None)
            self._run_hooks(
                fn, call, func.attr,
                {v for v in self._eval(fn, model) if v[0] == "inst"},
                {v for v in self._eval(fn, datamodule) if v[0] == "inst"} | handed,
            )
        return True

    def _run_hooks(self, fn: _Function, call: ast.Call, run: str, models: Set, datamodules: Set) -> None:
        """What a Trainer's ``fit``/``validate``/``test``/``predict`` given no loaders iterates: the
        loaders the stage's ``*_dataloader`` hooks return, the datamodule's when it defines the
        hook, else the model's (Lightning 2.6.6, ``trainer/connectors/data_connector.py``,
        ``_DataHookSelector``); an evaluation stage's loaders only when the model overrides its
        step (``validation_step``...: ``loops/evaluation_loop.py``, ``setup_data``), which a
        model of the project must then define (its own or a project base's)."""
        for hook, step in _LIGHTNING_HOOKS.get(run, ()):
            if step is not None and not any(self._method(model, step) is not None for model in models):
                continue
            sources = [d for d in datamodules if self._method(d, hook) is not None]
            if not sources:
                sources = [m for m in models if self._method(m, hook) is not None]
            for instance in sources:
                method = self._method(instance, hook)
                callee = self._enter(fn, call, method[0], method[1], instance, method[2], [], [])
                if callee is not None:
                    # a collection of loaders (a list, a dict) is wrapped in a CombinedLoader,
                    # which iterates each one
                    self._sink(fn, callee.returns | self._elements(callee.returns), call.lineno)

    def _lightning_cli(self, fn: _Function, call: ast.Call) -> bool:
        """``LightningCLI(Model, DataModule)`` (``run`` not False, no ``parser_kwargs``): it builds
        the model and the datamodule from their classes and runs the command line's subcommand,
        ``fit`` for a training script (Lightning 2.6.6, ``cli.py``: ``LightningCLI.__init__`` ends with
        ``self._run_subcommand``; 1.4 ran ``fit`` itself): what ``fit`` iterates."""
        from dl_lint.analysis.values import External, FunctionRef

        if any(k.arg == "run" and not (isinstance(k.value, ast.Constant) and k.value.value is True) for k in call.keywords):
            return False
        if any(k.arg in ("parser_kwargs", None) for k in call.keywords):
            # ``default_config_files`` (or anything unseen) set the init args of every run: the
            # classes' own defaults, which the loaders are judged with, may be no run's values
            return False
        site = self._site(fn, call)
        try:
            target = fn.analysis.resolver.resolve(call.func, site).single
        except RecursionError:
            return False
        if target is None or not isinstance(target.value, External) or target.value.qualname not in _LIGHTNING_CLIS:
            return False
        instances = []
        for position, keyword in ((0, "model_class"), (1, "datamodule_class")):
            node = call.args[position] if position < len(call.args) and not isinstance(call.args[position], ast.Starred) else next(
                (k.value for k in call.keywords if k.arg == keyword), None
            )
            found = set()
            if node is not None:
                ref = fn.analysis.resolver.resolve(node, site).single
                if ref is not None and isinstance(ref.value, FunctionRef) and ref.value.kind == "class" and ref.value.path:
                    cls = self._class(self._absolute(ref.value.path), ref.value.name)
                    if cls is not None:
                        instance = ("inst", cls[0].path, cls[1].name)
                        found.add(instance)
                        init = self._method(instance, "__init__")
                        if init is not None:
                            self._enter(fn, call, init[0], init[1], instance, init[2], [], [])
            instances.append(found)
        self._run_hooks(fn, call, "fit", instances[0], instances[1])
        return True

    def _callees(self, fn: _Function, call: ast.Call):
        """The project functions a call runs: [(analysis, node, receiver, kind)], kind "class"
        for a construction; None for a call outside the project (or unknown)."""
        func = call.func
        analysis = fn.analysis
        if isinstance(func, ast.Attribute):
            receivers = [v for v in self._eval(fn, func.value) if v[0] == "inst"]
            if receivers:
                found = []
                for receiver in receivers:
                    method = self._method(receiver, func.attr)
                    if method is not None:
                        found.append((method[0], method[1], receiver, method[2]))
                return found or None
        elif isinstance(func, ast.Name):
            if fn.kind != "module" and _binds(analysis, fn.node, func.id):
                # a local name: followed when it holds functions handed in (``dataloader()`` of
                # a parameter given ``loading_data``), else not
                handed = []
                for value in self._eval(fn, func):
                    if value[0] == "func":
                        target = self._analysis(value[1], value[2])
                        node = target.function_node(value[3]) if target is not None else None
                        if node is not None:
                            handed.append((target, node, None, "function"))
                return handed or None
        else:
            return None
        key = id(call)
        if key not in self._static:
            self._static[key] = self._static_callees(fn, call)
        return self._static[key]

    def _static_callees(self, fn: _Function, call: ast.Call):
        """``_callees`` of a call whose callee is a name or an imported module's attribute:
        the same on every pass."""
        func = call.func
        if isinstance(func, ast.Attribute) and (
            func.attr in _CONTAINER_METHODS
            or not (isinstance(func.value, ast.Name) and fn.analysis._may_be_function(func, self._site(fn, call)))
        ):
            return None
        ref = self._ref(fn, call)
        if ref is None:
            return None
        target = self._analysis(ref.path, ref.module)
        if target is None:
            return None
        if ref.kind == "function":
            node = target.function_node(ref.name)
            return [(target, node, None, "function")] if node is not None else None
        cls = self._class(ref.path, ref.name)
        return [(cls[0], cls[1], None, "class")] if cls is not None else None

    def _ref(self, fn: _Function, call: ast.Call):
        """What a call's callee resolves to (a project function or class), once per call."""
        key = id(call)
        if key not in self._refs:
            self._refs[key] = self._resolve_ref(fn, call)
        return self._refs[key]

    def _resolve_ref(self, fn: _Function, call: ast.Call):
        from dl_lint.analysis.values import FunctionRef

        analysis = fn.analysis
        if isinstance(call.func, ast.Name) and not _binds_anywhere(fn, call.func.id, module_too=False):
            name = call.func.id
            if analysis.function_node(name) is not None:
                return FunctionRef("function", analysis.module_name, name, 0, analysis.path)
            if name in self._class_names(analysis):
                return FunctionRef("class", analysis.module_name, name, 0, analysis.path)
        try:
            single = analysis.resolver.resolve(call.func, self._site(fn, call)).single
        except RecursionError:
            return None
        ref = single.value if single is not None else None
        if isinstance(ref, FunctionRef) and ref.kind in ("function", "class") and ref.path:
            return ref
        return None

    def _class_names(self, analysis) -> Set[str]:
        found = self._module_classes.get(id(analysis))
        if found is None:
            found = self._module_classes[id(analysis)] = {n.name for n in analysis.tree.body if isinstance(n, ast.ClassDef)}
        return found

    def _site(self, fn: _Function, node: ast.AST) -> Site:
        return fn.analysis.site_of(node) or Site(node.lineno, (), None if fn.kind == "module" else fn.node)

    def _enter(self, caller: _Function, call: ast.Call, analysis, node, receiver, kind: str, args, keywords) -> Optional[_Function]:
        """Reach ``node`` from ``call``: bind what the call passes to its parameters."""
        before = self._changes
        callee = self.functions.get(id(node))
        if callee is None:
            if len(self.functions) >= MAX_FUNCTIONS:
                self.overflow = True
                return None
            callee = self.functions[id(node)] = _Function(analysis, node, caller.root_line, kind)
            self.changed = True
            before = -1
        arguments = node.args
        params = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        if kind == "method":
            if params and receiver is not None:
                self._add(callee.env.setdefault(params[0], set()), {receiver})
            params = params[1:]
        elif kind == "classmethod":
            params = params[1:]
        names = set(params) | {a.arg for a in arguments.kwonlyargs}
        for index, (node_arg, values) in enumerate(zip(call.args, args)):
            if isinstance(node_arg, ast.Starred):
                break
            if index < len(params):
                self._add(callee.env.setdefault(params[index], set()), values)
        for name, values in keywords:
            if name is None:  # ``**spread``: bound by its constant keys
                for value in values:
                    if value[0] == "cont":
                        for key, held in list(self.containers[value[1]].keys.items()):
                            if key in names:
                                self._add(callee.env.setdefault(key, set()), held)
            elif name in names:
                self._add(callee.env.setdefault(name, set()), values)
        if before != self._changes and len(self._active) < MAX_NESTING:
            self._run(callee)  # what it returns now, in this pass: fewer passes to a fixed point
        return callee

    # -- classes ----------------------------------------------------------------------------
    def _analysis(self, path: str, module: str):
        if path == self.root.path:
            return self.root
        found = self.project.analysis_at(path, module)
        if found is not None and found.tree is not None:
            self.read.add(path)
            return found
        return None

    def _class(self, path: str, name: str):
        key = (path, name)
        if key not in self._classes:
            self._classes[key] = None
            analysis = self._analysis_by_path(path)
            cls = self._class_nodes(analysis).get(name) if analysis else None
            self._classes[key] = (analysis, cls) if cls is not None else None
        return self._classes[key]

    def _class_nodes(self, analysis) -> Dict[str, ast.ClassDef]:
        """The first module-level class of each name in ``analysis``, listed once per module
        (a walk of the module per class asked was quadratic: 3,000 classes)."""
        found = self._by_module.get(id(analysis))
        if found is None or found[0] is not analysis:
            classes: Dict[str, ast.ClassDef] = {}
            for node in analysis.tree.body:
                if isinstance(node, ast.ClassDef):
                    classes.setdefault(node.name, node)
            found = self._by_module[id(analysis)] = (analysis, classes)
        return found[1]

    def _analysis_by_path(self, path: str):
        if path == self.root.path:
            return self.root
        return self.project.parsed(path) or self._analysis(path, "")

    def _method(self, instance: Inst, name: str, depth: int = 0):
        """(analysis, node, kind) of the method ``name`` an object of the class finds: the class
        itself, then its project bases in order (four deep); once per class and name."""
        key = (instance, name, depth)
        if key not in self._methods:
            self._methods[key] = self._find_method(instance, name, depth)
        return self._methods[key]

    def _find_method(self, instance: Inst, name: str, depth: int):
        found = self._class(instance[1], instance[2])
        if found is None or depth > 4:
            return None
        analysis, cls = found
        method = analysis.ix.methods.get((id(cls), name))
        if method is not None:
            decorators = {d.id for d in method.decorator_list if isinstance(d, ast.Name)}
            kind = "static" if "staticmethod" in decorators else "classmethod" if "classmethod" in decorators else "method"
            return analysis, method, kind
        for base in cls.bases:
            ref = None
            if isinstance(base, ast.Name) and any(isinstance(n, ast.ClassDef) and n.name == base.id for n in analysis.tree.body):
                ref = (analysis.path, base.id)
            elif isinstance(base, (ast.Name, ast.Attribute)):
                from dl_lint.analysis.values import FunctionRef

                try:
                    single = analysis.resolver.resolve(base, Site(cls.lineno, (), None)).single
                except RecursionError:
                    single = None
                value = single.value if single is not None else None
                if isinstance(value, FunctionRef) and value.kind == "class" and value.path:
                    if self._analysis(value.path, value.module) is not None:
                        ref = (value.path, value.name)
            if ref is not None:
                inherited = self._method(("inst", ref[0], ref[1]), name, depth + 1)
                if inherited is not None:
                    return inherited
        return None


def _index(node: ast.AST) -> Optional[int]:
    """A literal integer subscript, negative ones included (``pair[-1]``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _index(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _rebinds_itself(target: ast.AST, value: ast.AST) -> bool:
    """``x = wrap(x)``, ``self.loader = wrap(self.loader)``: an outside call that is not a known
    wrapper replaces the value with one made from it (what it is, and what iterating it does,
    is unknown)."""
    if not isinstance(value, ast.Call) or not isinstance(target, (ast.Name, ast.Attribute)):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name in _WRAPPERS:
        return False
    text = ast.dump(target, annotate_fields=False).replace("Store()", "Load()")
    return any(ast.dump(node, annotate_fields=False) == text for node in ast.walk(value) if type(node) is type(target))


def top_statements(body) -> List[ast.stmt]:
    """A module's statements that run when it is imported, outside function and class bodies
    (into ``if``, ``for``, ``while``, ``with`` and ``try`` blocks)."""
    found: List[ast.stmt] = []
    todo = list(reversed(body))
    while todo:
        statement = todo.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        found.append(statement)
        for field in ("body", "orelse", "finalbody"):
            todo.extend(reversed(getattr(statement, field, ()) or ()))
        for handler in getattr(statement, "handlers", ()) or ():
            todo.extend(reversed(handler.body))
    return found


def _binds(analysis, function: ast.AST, name: str) -> bool:
    """Whether ``name`` is a local of ``function`` (bound in it and not declared global)."""
    scope = analysis.index.scopes.get(id(function))
    return scope is not None and name in scope.bindings and name not in scope.globals


def _binds_anywhere(fn: _Function, name: str, module_too: bool = True) -> bool:
    """Whether ``name`` is a local of the function, or (``module_too``) bound at module level:
    then it is not the builtin of that name."""
    if fn.kind != "module" and _binds(fn.analysis, fn.node, name):
        return True
    return module_too and name in fn.analysis.index.module_scope.bindings
