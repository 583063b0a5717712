"""One pass over a module's ``ast``: its scopes and bindings, and where things happen.

The resolver asks two kinds of questions, answered from what this pass records:

* *Which bindings can a name mean here?* Python's rules: a name bound anywhere in a function
  is local to it (unless declared ``global``/``nonlocal``); otherwise enclosing functions are
  searched (class bodies are skipped), then the module, then builtins. Each ``Scope`` keeps
  its bindings by name, each ``Binding`` its kind, value and ``Site``.
* *Which of them reach this use?* A *site* is a place in the code: its line, the stack of
  conditions around it (``if`` tests with their branch, loops, ``try`` bodies) and the
  function it is in. An assignment *dominates* a use when it comes earlier in the same
  function and its condition stack is a prefix of the use's.

The pass also records loader-call candidates (every call, with its site), ``add_argument``
calls, dict mutations, ``self.x = ...`` in classes, ``for`` loops, the ``__main__`` guard and,
per function, what its body uses (for dataset facts). It does not descend into containers of
constants (generated tables), which hold nothing it records.
"""

from __future__ import annotations

import ast
import builtins
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

from dl_lint.analysis.syntax import is_literal_data, literal, terminal

_BUILTINS = frozenset(dir(builtins))
_MUTATORS = frozenset({"update", "pop", "setdefault", "clear", "popitem"})
# Calls that only read what they are handed: a dict given to one of them keeps its entries.
_READERS = frozenset(
    {"print", "len", "str", "repr", "sorted", "list", "tuple", "dict", "set", "frozenset", "isinstance", "format",
     "dumps", "dump", "pprint", "pformat", "info", "debug", "warning", "warn", "error", "log", "deepcopy", "copy",
     "OrderedDict", "EasyDict", "Box", "munchify", "DataLoader", "getattr", "hasattr", "enumerate", "zip", "iter",
     "next", "any", "all", "sum", "min", "max", "type", "id", "hash", "bool", "int", "float", "open", "join",
     "exists", "isfile", "isdir", "makedirs", "mkdir", "echo", "write", "add_scalar", "add_text", "log_dict",
     # methods that take the object in without changing it (``kwargs.update(extra)``, ``items.append(d)``)
     "update", "append", "extend", "insert", "add", "setdefault", "get", "index", "count"}
)  # fmt: skip
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Containers longer than this are checked for being constants only before they are walked.
_LARGE = 16
_PATTERN = getattr(ast, "pattern", None)  # match statements (Python 3.10+)
# The fields that hold expressions of the expression classes the walk meets most, in ``_fields``
# order: what ``ast.iter_child_nodes`` yields, without its two generators per node and without
# operator and context nodes, which hold nothing. Other classes are walked generically.
_CHILD_FIELDS = {
    ast.BoolOp: ("values",),
    ast.BinOp: ("left", "right"),
    ast.UnaryOp: ("operand",),
    ast.IfExp: ("test", "body", "orelse"),
    ast.Dict: ("keys", "values"),
    ast.Set: ("elts",),
    ast.List: ("elts",),
    ast.Tuple: ("elts",),
    ast.Compare: ("left", "comparators"),
    ast.JoinedStr: ("values",),
    ast.FormattedValue: ("value", "format_spec"),
    ast.Starred: ("value",),
    ast.Slice: ("lower", "upper", "step"),
    ast.Await: ("value",),
    ast.Yield: ("value",),
    ast.YieldFrom: ("value",),
}


class Cond(NamedTuple):
    # "if" | "loop" | "try" | "except" | "exit": the statements after ``if test: return`` (or
    # ``raise``, ``continue``, ``break``) in the same block run only when ``test`` is false
    # (polarity False). "try": the body and ``else:`` of a ``try`` statement; "except": one of its
    # handlers (``finally:`` runs on every path: it keeps the conditions around the statement).
    kind: str
    test: Optional[ast.expr]
    polarity: bool
    # The arm of an ``if`` or ``try`` statement: (id of the statement, which arm, first row, last
    # row); arm 0 is the ``if`` body (or the ``try`` body and its ``else:``), 1 the ``else:``,
    # and 1 + i handler i. Two sites whose conditions first differ in two arms of one statement
    # are alternatives (``alternatives``). None in conditions rebuilt from a summary.
    arm: Optional[Tuple[int, int, int, int]] = None


class Site(NamedTuple):
    line: int
    conds: Tuple[Cond, ...]
    scope: Optional[ast.AST]  # the enclosing function node (None at module level)
    names: Optional["Scope"] = None  # the scope names are looked up from

    def in_loop(self) -> bool:
        return any(c.kind == "loop" for c in self.conds)


END = Site(10**9, (), None)  # "after everything at module level"
_LOOP = Cond("loop", None, True)


class Binding:
    """One binding of a name. ``kind``: "assign" (``value``), "unpack" (``value``, ``index``),
    "aug", "param" (``node`` is the ``ast.arg``, ``value`` its default), "import" (``node`` the
    statement, ``alias`` the ``ast.alias``), "def", "class" (``node`` the definition, ``nested``
    when inside a function), "other" (loop targets, ``with ... as``, ``except ... as``, walrus,
    ``del``: never evaluated)."""

    __slots__ = ("name", "kind", "node", "value", "index", "alias", "site", "nested", "used", "width")

    def __init__(self, name, kind, node=None, value=None, site=None, index=0, alias=None, nested=False, used=None, width=0):
        self.width = width  # "unpack": how many targets (-1 with a starred one)
        self.name = name
        self.kind = kind
        self.node = node
        self.value = value
        self.site = site
        self.index = index
        self.alias = alias
        self.nested = nested
        self.used = used  # names and attributes the value (or a class's bases) mentions

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Binding({self.name!r}, {self.kind!r}, line {self.site.line if self.site else '?'})"


class Scope:
    __slots__ = ("kind", "node", "parent", "bindings", "globals", "nonlocals")

    def __init__(self, kind: str, node: Optional[ast.AST], parent: Optional["Scope"]) -> None:
        self.kind = kind  # "module" | "class" | "function" | "lambda" | "comprehension"
        self.node = node
        self.parent = parent
        self.bindings: Dict[str, List[Binding]] = {}
        self.globals: Set[str] = set()
        self.nonlocals: Set[str] = set()

    def add(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)

    def lookup(self, name: str) -> Tuple[Optional["Scope"], List[Binding]]:
        """The scope ``name`` resolves to from here, and that scope's bindings of it (an empty
        list with no scope: a builtin or an undefined name)."""
        scope: Optional[Scope] = self
        if name in self.globals:
            scope = self.module()
        elif name in self.nonlocals:
            scope = self.parent
            while scope is not None and (scope.kind == "class" or name not in scope.bindings):
                scope = scope.parent
        first = True
        while scope is not None:
            if name in scope.bindings and (first or scope.kind != "class"):
                return scope, scope.bindings[name]
            first = False
            scope = scope.parent
        return None, []

    def module(self) -> "Scope":
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope


class FunctionUse:
    """What a function body uses (nested functions and lambdas included): names, ``self.m()``
    calls, plainly called names, ``self.x[...]`` reads, ``self.x.draw()`` calls, CUDA moves,
    and ``self.x = value`` assignments."""

    __slots__ = ("names", "self_calls", "called", "subscripted", "attr_calls", "self_assigns", "cuda")

    def __init__(self) -> None:
        self.names: Set[str] = set()
        self.self_calls: Set[str] = set()
        self.called: List[str] = []
        self.subscripted: Set[str] = set()
        self.attr_calls: Set[str] = set()
        self.self_assigns: List[Tuple[str, ast.expr]] = []
        self.cuda = False

    def merge(self, other: "FunctionUse") -> None:
        self.names |= other.names
        self.self_calls |= other.self_calls
        self.called.extend(other.called)
        self.subscripted |= other.subscripted
        self.attr_calls |= other.attr_calls
        self.self_assigns.extend(other.self_assigns)
        self.cuda = self.cuda or other.cuda


class ModuleIndex:
    """What the pass found; consumed by the resolver and the module analysis."""

    def __init__(self) -> None:
        self.module_scope = Scope("module", None, None)
        self.scopes: Dict[int, Scope] = {}  # id(function/class/lambda node) -> its scope
        # ``self.attr = value`` in methods: (class name, attr) -> [(value, site, method name)]
        self.self_attrs: Dict[Tuple[str, str], List[Tuple[ast.expr, Site, str]]] = {}
        # Mutations of a name: (function node or None, name) -> [(kind, node, site)];
        # kind "update" | "setitem" | "handed" (given to a call as an argument) | "other"
        self.mutations: Dict[Tuple[Optional[ast.AST], str], List[Tuple[str, ast.AST, Site]]] = {}
        self.calls: List[Tuple[ast.Call, Site, str, Optional[str]]] = []  # call, site, scope name, class
        self.add_arguments: List[ast.Call] = []
        # ``name.attr = value`` (name not self): (function node or None, name, attr) ->
        # [(value, site)]; value None for ``name.attr += ...`` (unknown).
        # Functions that parse a command line or build a parser (``namespaces``): only they
        # can return a namespace.
        self.parsing_functions: Set[int] = set()
        # A summary's ``arguments`` not parsed yet (``summary.read_arguments``).
        self.pending_arguments: Tuple[Tuple[str, int], ...] = ()
        self.attr_writes: Dict[Tuple[Optional[ast.AST], str, str], List[Tuple[Optional[ast.expr], Site]]] = {}
        self.module_classes: List[ast.ClassDef] = []
        self.module_functions: List[ast.AST] = []
        self.nested_defs: Set[int] = set()  # ids of defs/classes inside a function
        self.loops: List[Tuple[ast.AST, Site]] = []  # for/async for statements
        # Comprehensions, with the site of their first iterable (evaluated, and ``iter()`` called
        # on it, where the comprehension is written): DL203's iterations.
        self.comprehensions: List[Tuple[ast.AST, Site]] = []
        self.main_guard_lines: List[Tuple[int, int]] = []
        self.uses: Dict[int, FunctionUse] = {}  # id(function node) -> what its body uses
        self.attr_used: Dict[str, Set[str]] = {}  # ``self.attr = value``: names the values mention
        self.star_import = False  # ``from m import *`` at module level: names may come from it
        # ``name = Call(...)`` on one line in the module's own scope: id(call) -> name (the
        # twins of ``ModuleAnalysis._twin_shapes``)
        self.named_calls: Dict[int, str] = {}
        # Each star import in order: (base as written, whether an ``if``/``try``/loop holds it).
        self.stars: List[Tuple[str, bool]] = []
        self._declared_globals: Optional[Set[str]] = None  # ``declared_globals``, once asked

    def declared_globals(self) -> Set[str]:
        """The names some function of the module declares ``global`` (computed once)."""
        found = self._declared_globals
        if found is None:
            found = self._declared_globals = set().union(*(scope.globals for scope in self.scopes.values()))
        return found

    def release(self) -> None:
        """Break the reference cycles (scope -> binding -> site -> scope), so that the module's
        tree is freed as soon as nothing refers to it: the run pauses the cyclic garbage
        collector, which costs more than the analysis on large projects."""
        for scope in (self.module_scope, *self.scopes.values()):
            scope.bindings.clear()
        self.scopes.clear()
        self.self_attrs.clear()
        self.attr_writes.clear()
        self.mutations.clear()
        self.calls.clear()
        self.loops.clear()
        self.comprehensions.clear()
        self.import_rows: List[Tuple[int, int]] = []  # (first, last) rows of module-level statements


class Collector:
    """Builds a ModuleIndex. A hand-written walk (statements, then expressions) rather than a
    generic visitor: it is the one pass over every node of every analysed module."""

    def __init__(self) -> None:
        self.index = ModuleIndex()
        self.conds: Tuple[Cond, ...] = ()  # immutable: a site shares it
        self.function: Optional[ast.AST] = None  # enclosing function node
        self.scope = self.index.module_scope
        self.names: List[str] = []  # enclosing class/def names
        self.kinds: List[str] = []  # "class" | "def"
        self.scope_name = ""  # ".".join(self.names)
        self.cls: Optional[str] = None  # the innermost enclosing class
        self._saved: List[Tuple[str, Optional[str]]] = []
        self.use_stack: List[FunctionUse] = []
        self.divides = False  # a / // or % was walked since the last simple statement began

    # -- entry --------------------------------------------------------------------------------
    def collect(self, tree: ast.Module) -> ModuleIndex:
        self.statements(tree.body)
        return self.index

    def _push(self, name: str, kind: str) -> None:
        self._saved.append((self.scope_name, self.cls))
        self.names.append(name)
        self.kinds.append(kind)
        self.scope_name = f"{self.scope_name}.{name}" if self.scope_name else name
        if kind == "class":
            self.cls = name

    def _pop(self) -> None:
        self.names.pop()
        self.kinds.pop()
        self.scope_name, self.cls = self._saved.pop()

    def site(self, line: int) -> Site:
        return Site(line, self.conds, self.function, self.scope)

    # -- statements ---------------------------------------------------------------------------
    def statements(self, body: List[ast.stmt]) -> None:
        outer = self.conds
        for statement in body:
            self.divides = False
            self.statement(statement)
            if self.function is not None and type(statement) is ast.If and _exits(statement.body):
                # ``if num_workers == 0: return``: what follows runs only when the test is false.
                self.conds = self.conds + (Cond("exit", statement.test, False),)
            elif self.divides and type(statement) in _SIMPLE:
                self.divides = False
                for divisor in _divisors(statement):
                    # ``n = total / args.workers``: Python numbers raise ZeroDivisionError for 0,
                    # so what follows runs with it nonzero (arrays do not raise: see module.py).
                    zero = ast.Compare(divisor, [ast.Eq()], [ast.Constant(0)])
                    self.conds = self.conds + (Cond("divides", ast.copy_location(zero, divisor), False),)
        self.conds = outer

    def statement(self, node: ast.stmt) -> None:
        kind = type(node)
        if kind is ast.Assign:
            used: Set[str] = set()
            value = node.value
            if type(value) is ast.Call and self.scope.kind == "module" and len(node.targets) == 1:
                target = node.targets[0]
                if type(target) is ast.Name and value.lineno == value.end_lineno:
                    self.index.named_calls[id(value)] = target.id
            self.expr(value, used)
            for target in node.targets:
                self.target(target, node.value, node, used)
        elif kind is ast.Expr:
            self.expr(node.value)
        elif kind in _FUNCTIONS:
            self.function_def(node)
        elif kind is ast.ClassDef:
            self.class_def(node)
        elif kind is ast.If:
            self.if_statement(node)
        elif kind is ast.For or kind is ast.AsyncFor:
            self.expr(node.iter)
            self.index.loops.append((node, self.site(node.lineno)))
            outer = self.conds
            self.conds = outer + (_LOOP,)
            self.bind_target(node.target)
            self.statements(node.body)
            self.statements(node.orelse)
            self.conds = outer
        elif kind is ast.While:
            outer = self.conds
            self.conds = outer + (_LOOP,)
            self.expr(node.test)
            self.statements(node.body)
            self.statements(node.orelse)
            self.conds = outer
        elif kind is ast.Return:
            if node.value is not None:
                self.expr(node.value)
        elif kind is ast.Import or kind is ast.ImportFrom:
            self.import_statement(node)
        elif kind is ast.AnnAssign:
            self.expr(node.annotation)
            if node.value is not None:
                used = set()
                self.expr(node.value, used)
                self.target(node.target, node.value, node, used)
            elif isinstance(node.target, ast.Name) and self.scope.kind != "module":
                self.bind(Binding(node.target.id, "other", node, site=self.site(node.lineno)))
        elif kind is ast.AugAssign:
            self.expr(node.value)
            target = node.target
            if isinstance(target, ast.Name):
                self.bind(Binding(target.id, "aug", node, site=self.site(node.lineno)))
            else:
                self.expr(target)
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    self.mutation(target.value.id, "other", node)
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id != "self":
                    key = (self.function, target.value.id, target.attr)
                    self.index.attr_writes.setdefault(key, []).append((None, self.site(node.lineno)))
        elif kind is ast.With or kind is ast.AsyncWith:
            for item in node.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind_target(item.optional_vars)
            self.statements(node.body)
        elif kind is ast.Try or type(node).__name__ == "TryStar":
            # Each arm has a condition of its own: a name bound in the body and again in a
            # handler holds either value after the statement (the handler may run from any
            # point of the body); ``else:`` runs after the body, ``finally:`` on every path.
            outer = self.conds
            last = (node.orelse or node.body)[-1]
            body = Cond("try", None, True, (id(node), 0, node.lineno, last.end_lineno or last.lineno))
            self.conds = outer + (body,)
            self.statements(node.body)
            for number, handler in enumerate(node.handlers, 1):
                arm = (id(node), number, handler.lineno, handler.end_lineno or handler.lineno)
                self.conds = outer + (Cond("except", None, True, arm),)
                if handler.type is not None:
                    self.expr(handler.type)
                if handler.name:
                    self.bind(Binding(handler.name, "other", handler, site=self.site(handler.lineno)))
                self.statements(handler.body)
            self.conds = outer + (body,)
            self.statements(node.orelse)
            self.conds = outer
            self.statements(node.finalbody)
        elif kind is ast.Global:
            self.scope.globals.update(node.names)
        elif kind is ast.Nonlocal:
            self.scope.nonlocals.update(node.names)
        elif kind is ast.Delete:  # ``del x`` unbinds: what reaches a use before it is unchanged
            for target in node.targets:
                if not isinstance(target, ast.Name):
                    self.expr(target)
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                        self.mutation(target.value.id, "other", node)  # ``del kwargs["k"]``
        elif kind is ast.Raise or kind is ast.Assert:
            for child in ast.iter_child_nodes(node):
                self.expr(child)
        elif kind is ast.Pass or kind is ast.Break or kind is ast.Continue:
            pass
        else:  # match statements, type aliases, and anything newer: walk what they hold
            self.generic(node)

    def generic(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.statement(child)
            elif isinstance(child, ast.expr):
                self.expr(child)
            elif _PATTERN is not None and isinstance(child, _PATTERN):
                self.pattern(child)
            else:
                self.generic(child)

    def pattern(self, node: ast.AST) -> None:
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        if isinstance(name, str):
            self.bind(Binding(name, "other", node, site=self.site(getattr(node, "lineno", 0))))
        self.generic(node)

    def if_statement(self, node: ast.If) -> None:
        self.expr(node.test)
        if not self.names and _is_main_guard(node.test):
            self.index.main_guard_lines.append((node.lineno, node.end_lineno or node.lineno))
        outer = self.conds
        last = node.body[-1]
        self.conds = outer + (Cond("if", node.test, True, (id(node), 0, node.lineno, last.end_lineno or last.lineno)),)
        self.statements(node.body)
        if node.orelse:
            first, last = node.orelse[0], node.orelse[-1]
            self.conds = outer + (Cond("if", node.test, False, (id(node), 1, first.lineno, last.end_lineno or last.lineno)),)
            self.statements(node.orelse)
        self.conds = outer

    def import_statement(self, node: ast.AST) -> None:
        site = self.site(node.lineno)
        for alias in node.names:
            if alias.name == "*":
                if self.scope.kind == "module":
                    self.index.star_import = True
                    if isinstance(node, ast.ImportFrom):
                        base = "." * (node.level or 0) + (node.module or "")
                        self.index.stars.append((base, bool(site.conds)))
                continue
            bound = alias.asname or (alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name)
            self.bind(Binding(bound, "import", node, site=site, alias=alias))

    # -- definitions --------------------------------------------------------------------------
    def function_def(self, node: ast.AST) -> None:
        for decorator in node.decorator_list:
            self.expr(decorator)
        args = node.args
        for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            self.expr(default)
        nested = "def" in self.kinds
        if not self.names:
            self.index.module_functions.append(node)
        elif nested:
            self.index.nested_defs.add(id(node))
        self.bind(Binding(node.name, "def", node, site=self.site(node.lineno), nested=nested))
        self._enter_function(node, "function", node.name)

    def _enter_function(self, node: ast.AST, kind: str, name: Optional[str], used: Optional[Set[str]] = None) -> None:
        outer = self.site(getattr(node, "lineno", 0))  # where parameter defaults are evaluated
        scope = Scope(kind, node, self.scope)
        self.index.scopes[id(node)] = scope
        saved = (self.conds, self.function, self.scope)
        self.conds, self.function, self.scope = (), node, scope  # conditions around a def say nothing about its body
        if name is not None:
            self._push(name, "def")
        use = FunctionUse()
        self.use_stack.append(use)
        self._parameters(node.args, outer)
        if kind == "lambda":
            self.expr(node.body, used)
        else:
            self.statements(node.body)
        self.use_stack.pop()
        self.index.uses[id(node)] = use
        if self.use_stack:
            self.use_stack[-1].merge(use)
        if name is not None:
            self._pop()
        self.conds, self.function, self.scope = saved

    def _parameters(self, args: ast.arguments, site: Site) -> None:
        positional = [*args.posonlyargs, *args.args]
        defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for arg, default in zip(positional, defaults):
            self.bind(Binding(arg.arg, "param", arg, value=default, site=site))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            self.bind(Binding(arg.arg, "param", arg, value=default, site=site))
        for arg in (args.vararg, args.kwarg):
            if arg is not None:
                self.bind(Binding(arg.arg, "param", arg, value=None, site=site, index=-1))

    def class_def(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.expr(decorator)
        used: Set[str] = set()
        for base in node.bases:
            self.expr(base, used)
        for keyword in node.keywords:
            self.expr(keyword.value)
        nested = "def" in self.kinds
        if not self.names:
            self.index.module_classes.append(node)
        elif nested:
            self.index.nested_defs.add(id(node))
        self.bind(Binding(node.name, "class", node, site=self.site(node.lineno), nested=nested, used=used))
        scope = Scope("class", node, self.scope)
        self.index.scopes[id(node)] = scope
        saved = self.scope
        self.scope = scope
        self._push(node.name, "class")
        self.statements(node.body)
        self._pop()
        self.scope = saved

    # -- assignment targets -------------------------------------------------------------------
    def target(self, target: ast.expr, value: ast.expr, statement: ast.stmt, used: Set[str]) -> None:
        site = self.site(statement.lineno)
        if isinstance(target, ast.Name):
            self.bind(Binding(target.id, "assign", target, value=value, site=site, used=used))
        elif isinstance(target, (ast.Tuple, ast.List)):
            width = -1 if any(isinstance(e, ast.Starred) for e in target.elts) else len(target.elts)
            for i, element in enumerate(target.elts):
                if isinstance(element, ast.Name):
                    self.bind(Binding(element.id, "unpack", element, value=value, site=site, index=i, used=used, width=width))
                else:
                    self.bind_target(element)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
            if isinstance(target.value, ast.Name):
                if target.value.id != "self":
                    # ``args.workers = 8``: a write to an attribute of a namespace or config
                    # object, read back by ``Resolver.attribute_writes``.
                    key = (self.function, target.value.id, target.attr)
                    self.index.attr_writes.setdefault(key, []).append((value, site))
                    # an attribute dict (``cfg = EasyDict({...})``) changes its key there
                    self.mutation(target.value.id, "other", statement)
                if target.value.id == "self" and self.cls is not None:
                    cls = self.cls
                    method = self.names[-1] if self.kinds[-1] == "def" else ""
                    self.index.self_attrs.setdefault((cls, target.attr), []).append((value, site, method))
                    self.index.attr_used.setdefault(target.attr, set()).update(used)
                    if self.use_stack:
                        self.use_stack[-1].self_assigns.append((target.attr, value))
        elif isinstance(target, ast.Subscript):
            self.expr(target)
            if isinstance(target.value, ast.Name):
                self.mutation(target.value.id, "setitem", statement)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value)

    def bind_target(self, target: ast.expr) -> None:
        """A target that is bound but never evaluated (loop variables, ``with ... as``)."""
        if isinstance(target, ast.Name):
            self.bind(Binding(target.id, "other", target, site=self.site(target.lineno)))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind_target(element)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value)
        else:
            self.expr(target)

    def bind(self, binding: Binding) -> None:
        """Add a binding to the scope it belongs to: ``global`` names bind in the module."""
        if self.use_stack:
            self.use_stack[-1].names.add(binding.name)
            if binding.alias is not None:
                self.use_stack[-1].names.update(binding.alias.name.split("."))
        scope = self.scope
        if binding.name in scope.globals:
            scope = scope.module()
        elif binding.name in scope.nonlocals:
            found, _ = scope.lookup(binding.name)
            scope = found or scope
        scope.add(binding)

    def mutation(self, name: str, kind: str, node: ast.AST) -> None:
        site = self.site(node.lineno)
        self.index.mutations.setdefault((site.scope, name), []).append((kind, node, site))

    # -- expressions --------------------------------------------------------------------------
    def expr(self, node: ast.AST, used: Optional[Set[str]] = None) -> None:
        """Walk an expression; ``used`` collects the names and attributes it mentions (lambda
        and comprehension bodies included)."""
        stack = [node]
        use = self.use_stack[-1] if self.use_stack else None
        while stack:
            current = stack.pop()
            kind = type(current)
            if kind is ast.Name:
                if use is not None:
                    use.names.add(current.id)
                if used is not None:
                    used.add(current.id)
                continue
            if kind is ast.Constant:
                continue
            if kind is ast.Call:
                self.call(current, use)
                for keyword in reversed(current.keywords):
                    if use is not None and keyword.arg:
                        use.names.add(keyword.arg)
                    stack.append(keyword.value)
                stack.extend(reversed(current.args))
                stack.append(current.func)
                continue
            if kind is ast.Attribute:
                if use is not None:
                    use.names.add(current.attr)
                if used is not None:
                    used.add(current.attr)
                stack.append(current.value)
                continue
            if kind is ast.Subscript:
                if use is not None:
                    owner = _self_attr(current.value)
                    if owner:
                        use.subscripted.add(owner)
                stack.append(current.slice)
                stack.append(current.value)
                continue
            if kind is ast.Lambda:
                args = current.args
                for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
                    self.expr(default, used)
                self._enter_function(current, "lambda", None, used)
                continue
            if kind in _COMPREHENSIONS:
                self.comprehension(current, used)
                continue
            if kind is ast.NamedExpr:
                if isinstance(current.target, ast.Name):
                    scope = self.scope
                    while scope.kind == "comprehension" and scope.parent is not None:
                        scope = scope.parent
                    scope.add(Binding(current.target.id, "other", current.target, site=self.site(current.lineno)))
                stack.append(current.value)
                continue
            if (kind is ast.List or kind is ast.Tuple or kind is ast.Set) and len(current.elts) > _LARGE:
                if is_literal_data(current):
                    continue
            elif kind is ast.Dict and len(current.keys) > _LARGE and is_literal_data(current):
                continue
            if kind is ast.BinOp and type(current.op) in _DIVIDES:
                self.divides = True  # statements() reads the statement's divisions once
            fields = _CHILD_FIELDS.get(kind)
            if fields is None:
                stack.extend(reversed(list(ast.iter_child_nodes(current))))
                continue
            children = []
            for name in fields:
                child = getattr(current, name)
                if type(child) is list:
                    children.extend(c for c in child if c is not None)  # Dict keys: None for ``**d``
                elif child is not None:
                    children.append(child)
            stack.extend(reversed(children))  # popped in source order

    def comprehension(self, node: ast.AST, used: Optional[Set[str]] = None) -> None:
        generators = node.generators
        self.expr(generators[0].iter, used)  # evaluated in the enclosing scope
        self.index.comprehensions.append((node, self.site(node.lineno)))
        scope = Scope("comprehension", node, self.scope)
        saved = self.scope
        self.scope = scope
        for i, generator in enumerate(generators):
            if i:
                self.expr(generator.iter, used)
            self.bind_target(generator.target)
            for test in generator.ifs:
                self.expr(test, used)
        if isinstance(node, ast.DictComp):
            self.expr(node.key, used)
            self.expr(node.value, used)
        else:
            self.expr(node.elt, used)
        self.scope = saved

    def call(self, node: ast.Call, use: Optional[FunctionUse]) -> None:
        self.index.calls.append((node, Site(node.lineno, self.conds, self.function, self.scope), self.scope_name, self.cls))
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr == "add_argument":
                self.index.add_arguments.append(node)
            elif func.attr in _PARSING and self.function is not None:
                self.index.parsing_functions.add(id(self.function))
            if isinstance(func.value, ast.Name) and func.attr in _MUTATORS:
                self.mutation(func.value.id, "update" if func.attr == "update" else "other", node)
        if (node.args or node.keywords) and terminal(func) not in _READERS:
            # ``apply_overrides(loader_args, args)``: a function handed the dict itself may change
            # it (``**loader_args`` hands a copy; printing, logging or measuring it does not)
            for arg in (*node.args, *(k.value for k in node.keywords if k.arg is not None)):
                if type(arg) is ast.Name:
                    self.mutation(arg.id, "handed", node)
        elif isinstance(func, ast.Name) and func.id in _PARSING and self.function is not None:
            self.index.parsing_functions.add(id(self.function))
        if use is None:
            return
        if isinstance(func, ast.Attribute):
            base = func.value
            if isinstance(base, ast.Name) and base.id == "self":
                use.self_calls.add(func.attr)
            else:
                # ``m.f()``, ``Class.method()``, ``self.x.m()``, ``a.b.c()`` (kept as ``a.b...``):
                # the dataset rules follow these into the project; methods of the function's
                # own names (``line.strip()``) are calls on data and are not kept.
                first, deeper = func.attr, False
                while type(base) is ast.Attribute:
                    first, deeper = base.attr, True
                    base = base.value
                if type(base) is ast.Name and (base.id == "self" or base.id not in self.scope.bindings):
                    use.called.append(f"{base.id}.{first}..." if deeper else f"{base.id}.{first}")
            owner = _self_attr(func.value)
            if owner:
                use.attr_calls.add(owner)  # self.rng.integers(...)
            if func.attr == "cuda":
                use.cuda = True
            if func.attr == "to" and node.args:
                first = node.args[0]
                if _is_cuda_literal(first):
                    use.cuda = True
                elif type(first) is ast.Name:
                    self._device_name(first.id, use)
        elif isinstance(func, ast.Name):
            use.called.append(func.id)
        for keyword in node.keywords:
            if keyword.arg == "generator":
                owner = _self_attr(keyword.value)
                if owner:
                    use.attr_calls.add(owner)
            if keyword.arg == "device":
                if _is_cuda_literal(keyword.value):
                    use.cuda = True
                elif type(keyword.value) is ast.Name:
                    self._device_name(keyword.value.id, use)

    def _device_name(self, name: str, use: FunctionUse) -> None:
        """``.to(device)`` or ``device=device``: a CUDA move when the name, as seen from here,
        is bound so far to a CUDA device (``device = torch.device("cuda" if
        torch.cuda.is_available() else "cpu")`` in the function, or at module level above it; a
        parameter's default). A binding written later in the file is not seen (the pass reads in
        source order)."""
        if use.cuda:
            return
        _, bindings = self.scope.lookup(name)
        if any(b.kind in ("assign", "param") and b.value is not None and _is_cuda_literal(b.value) for b in bindings):
            use.cuda = True


def collect(tree: ast.Module) -> ModuleIndex:
    return Collector().collect(tree)


_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# Calls that make a function a candidate to return an argparse namespace or parser.
_PARSING = frozenset({"parse_args", "parse_known_args", "parse_known_intermixed_args", "ArgumentParser"})


_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)
_DIVIDES = (ast.Div, ast.FloorDiv, ast.Mod)
_CONDITIONAL = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _divisors(statement: ast.stmt) -> List[ast.expr]:
    """The names and attributes a statement certainly divides by (``a / n``, ``a // (b * n)``,
    ``a % n``): not under a conditional expression, a short-circuit, a lambda or a
    comprehension, where the division may not run. A product's factors each count."""
    found: List[ast.expr] = []
    stack: List[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, _CONDITIONAL):
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, _DIVIDES):
            factors = [node.right]
            while factors:
                factor = factors.pop()
                if isinstance(factor, ast.BinOp) and isinstance(factor.op, ast.Mult):
                    factors.extend((factor.left, factor.right))
                elif isinstance(factor, (ast.Name, ast.Attribute)):
                    found.append(factor)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _exits(body: List[ast.stmt]) -> bool:
    """Whether a block always leaves the statements after it: it ends in return, raise,
    continue or break."""
    return bool(body) and isinstance(body[-1], _EXITS)


def alternatives(first: Site, second: Site) -> Optional[Cond]:
    """Whether two sites of one scope lie in different arms of one ``if`` statement (its body and
    its ``else:``) or of one ``try`` statement (its body or ``else:`` and a handler, or two
    handlers): a name bound at both holds one value or the other after the statement, never the
    one then the other on the path that reaches it. The arm of ``second`` where they part
    (its rows say which reads are that arm's), or None."""
    if first.scope is not second.scope:
        return None
    a, b = plain_conds(first.conds), plain_conds(second.conds)
    for x, y in zip(a, b):
        if x == y:
            continue
        if x.arm is not None and y.arm is not None and x.arm[0] == y.arm[0] and x.arm[1] != y.arm[1]:
            return y
        return None
    return None


def plain_conds(conds: Tuple[Cond, ...]) -> Tuple[Cond, ...]:
    """The conditions of a site less the early exits before it (which bindings do not nest in)."""
    return tuple(c for c in conds if c.kind != "exit")


def _is_main_guard(test: ast.expr) -> bool:
    """A test true in the script run as ``__main__`` and false where a spawn or forkserver
    worker imports it again as ``__mp_main__``: ``__name__ == "__main__"`` (either side),
    ``"__main__" in __name__`` ("__main__" is not a substring of "__mp_main__"), and
    ``__name__ in ("__main__",)`` (a literal tuple, list or set of strings holding "__main__"
    and not "__mp_main__")."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    left, right, op = test.left, test.comparators[0], test.ops[0]
    if isinstance(op, ast.Eq):
        sides = [left, right]
        names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
        strings = [s for s in sides if literal(s) == "__main__"]
        return bool(names and strings)
    if isinstance(op, ast.In):
        if literal(left) == "__main__" and isinstance(right, ast.Name) and right.id == "__name__":
            return True
        if isinstance(left, ast.Name) and left.id == "__name__" and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            values = [literal(e) for e in right.elts]
            return all(isinstance(v, str) for v in values) and "__main__" in values and "__mp_main__" not in values
    return False


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _is_cuda_literal(node: ast.AST) -> bool:
    """A CUDA device: ``"cuda:0"``, ``torch.device("cuda")``, or either of them on the GPU side
    of a test of ``torch.cuda.is_available()`` (``"cuda" if torch.cuda.is_available() else
    "cpu"``): a CUDA device wherever there is a GPU, which is where training runs."""
    value = literal(node)
    if isinstance(value, str):
        return value.startswith("cuda")
    if isinstance(node, ast.Call) and node.args:  # torch.device("cuda")
        return _is_cuda_literal(node.args[0])
    if isinstance(node, ast.IfExp) and _asks_for_cuda(node.test):
        return _is_cuda_literal(node.body) or _is_cuda_literal(node.orelse)
    return False


def _asks_for_cuda(test: ast.AST) -> bool:
    """``torch.cuda.is_available()`` (or ``not`` it)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "is_available"


def is_builtin(name: str) -> bool:
    return name in _BUILTINS


__all__ = ["Cond", "Site", "END", "Binding", "Scope", "FunctionUse", "ModuleIndex", "collect", "is_builtin", "plain_conds", "terminal"]
