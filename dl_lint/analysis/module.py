"""Analyse one module with libcst: its loader calls (arguments bound to torch's signature and
resolved), its classes (for dataset analysis) and its module-level functions.

``ModuleFacts`` is plain frozen data (no CST nodes), so the rules never touch syntax and facts
can be cached. ``ModuleAnalysis`` keeps the parsed tree alive for the project index, which asks
it for module-level values, classes, and loader calls re-bound with a caller's arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import Assignment, MetadataWrapper, PositionProvider, ScopeProvider

from dl_lint.analysis.collect import END, Collector, Site
from dl_lint.analysis.datasets import SHARDING_NAMES, ClassFacts, FunctionFacts
from dl_lint.analysis.loaders import LOADER_QUALNAMES, PARAMETERS, POSITIONAL, BoundArg, LoaderCall
from dl_lint.analysis.prefilter import may_be_loader_callee
from dl_lint.analysis.resolve import LoaderClass, ProjectHook, Resolver
from dl_lint.analysis.values import DictValue, External, FunctionRef, Origin, Possible, Value
from dl_lint.model import Location
from dl_lint.source import parse_module

_BATCH_BYTES_COMMENT = re.compile(r"#\s*dl-lint:\s*batch-bytes\s*=\s*([0-9A-Za-z.]+)")


@dataclass(frozen=True)
class ModuleFacts:
    path: str
    module_name: str
    calls: Tuple[LoaderCall, ...] = ()
    # For fixes that need torch: the name ``import torch`` binds here (None if not imported),
    # and the row where an ``import torch`` line can be inserted (after docstring/__future__).
    torch_name: Optional[str] = None
    import_row: int = 1
    classes: Tuple[ClassFacts, ...] = ()
    functions: Tuple[FunctionFacts, ...] = ()
    # Module-level functions whose loader calls depend on their parameters: name -> params.
    factories: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    has_main_guard: bool = False


def analyze_source(
    source: str,
    path: str,
    module_name: str = "",
    *,
    is_package: bool = False,
    project: Optional[ProjectHook] = None,
    extra_loaders: Sequence[str] = (),
) -> ModuleFacts:
    """Parse ``source`` and extract its facts. Raises ``libcst.ParserSyntaxError`` on bad syntax."""
    return ModuleAnalysis(source, path, module_name, is_package, project, extra_loaders).facts()


class ModuleAnalysis:
    def __init__(
        self,
        source: str,
        path: str,
        module_name: str = "",
        is_package: bool = False,
        project: Optional[ProjectHook] = None,
        extra_loaders: Sequence[str] = (),
    ) -> None:
        self.source = source
        self.path = path
        self.module_name = module_name
        self.module = parse_module(source)  # guarded: SourceRejected (a RecursionError) for what libcst cannot take
        wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        collector = Collector()
        wrapper.visit(collector)
        self.index = collector.index
        self.positions = wrapper.resolve(PositionProvider)
        self.scopes = wrapper.resolve(ScopeProvider)
        loader_names = LOADER_QUALNAMES | frozenset(extra_loaders)
        self.resolver = Resolver(
            self.module,
            path,
            module_name,
            is_package,
            self.positions,
            self.scopes,
            self.index,
            project,
            loader_names,
        )
        self.lines = source.splitlines()
        self.extra_loaders = tuple(extra_loaders)
        self._candidates: Optional[Set[str]] = None
        self._assigned_by_value: Optional[Dict[int, str]] = None
        self._facts: Optional[ModuleFacts] = None
        self._classes: Dict[str, ClassFacts] = {}
        self._loader_classes: Dict[str, Optional[str]] = {}
        self._in_progress: Set[str] = set()

    # -- facts ----------------------------------------------------------------------------------
    def facts(self) -> ModuleFacts:
        if self._facts is None:
            calls = []
            factories: Dict[str, Tuple[str, ...]] = {}
            for call, site, scope_name, cls in self.index.calls:
                loader = self._loader_for(call, site, cls)
                if loader is None:
                    continue
                bound = self._bind(call, site, scope_name, loader)
                calls.append(bound)
                function = self._module_function(site)
                if function is not None and any(
                    bound.value(name).source == "parameter" for name in bound.args
                ):
                    factories[function.name.value] = tuple(p.name.value for p in _params(function))
            self._facts = ModuleFacts(
                path=self.path,
                module_name=self.module_name,
                calls=tuple(calls),
                torch_name=self._torch_name(),
                import_row=self._import_row(),
                factories=tuple(sorted(factories.items())),
                has_main_guard=bool(self.index.main_guard_lines),
            )
        return self._facts

    def _loader_for(self, call: cst.Call, site: Site, cls: Optional[str]) -> Optional[LoaderClass]:
        if not self._may_be_loader(call.func):
            return None
        self.resolver.current_class = cls
        return self.resolver.loader_of(call.func, site)

    def _torch_name(self) -> Optional[str]:
        for statement in self.module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import):
                        for alias in small.names:
                            if cst.helpers.get_full_name_for_node(alias.name) == "torch":
                                return alias.asname.name.value if alias.asname else "torch"
                            if alias.asname is None and (cst.helpers.get_full_name_for_node(alias.name) or "").startswith("torch."):
                                return "torch"  # ``import torch.nn`` binds ``torch`` too
        return None

    def _import_row(self) -> int:
        """The first row after the module docstring and ``from __future__`` imports."""
        row = 1
        for index, statement in enumerate(self.module.body):
            first = isinstance(statement, cst.SimpleStatementLine) and statement.body
            is_doc = index == 0 and first and isinstance(statement.body[0], cst.Expr) and isinstance(
                statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)
            )
            is_future = first and isinstance(statement.body[0], cst.ImportFrom) and getattr(
                statement.body[0].module, "value", None
            ) == "__future__"
            if not (is_doc or is_future):
                return self.positions[statement].start.line if statement in self.positions else row
            row = self.positions[statement].end.line + 1
        return row

    def _may_be_loader(self, func: cst.BaseExpression) -> bool:
        """Cheap syntactic test before resolving a callee (resolving can parse other modules):
        its name must be one that can hold a loader class, as the prefilter decides."""
        if self._candidates is None:
            import ast

            from dl_lint.analysis.prefilter import candidate_names

            try:
                self._candidates = candidate_names(ast.parse(self.source), self.extra_loaders)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._candidates = set()
        if isinstance(func, (cst.IfExp, cst.Call)):
            return True
        return may_be_loader_callee(_terminal(func), self._candidates)

    def _module_function(self, site: Site) -> Optional[cst.FunctionDef]:
        scope = site.scope
        if isinstance(scope, cst.FunctionDef) and scope in self.index.module_functions:
            return scope
        return None

    # -- binding --------------------------------------------------------------------------------
    def _location(self, node: cst.CSTNode) -> Tuple[Location, Location]:
        rng = self.positions[node]
        return Location(rng.start.line, rng.start.column + 1), Location(rng.end.line, rng.end.column + 1)

    def _bind(self, call: cst.Call, site: Site, scope_name: str, loader: LoaderClass) -> LoaderCall:
        """Bind the call's arguments (after any pre-bound by ``partial``) to torch's signature."""
        resolver = self.resolver
        args: Dict[str, BoundArg] = {}
        opaque: Set[str] = set()
        index = 0
        prebound = set(map(id, loader.preargs))
        for arg in (*loader.preargs, *call.args):
            start, end = self._location(arg)
            if arg.star == "*":
                opaque.update(name for name in POSITIONAL[index:] if name not in args)
                index = len(POSITIONAL)
                continue
            if arg.star == "**":
                splat = resolver.resolve(arg.value, site)
                content = splat.single.value if splat.single is not None else None
                if isinstance(content, DictValue) and content.complete:
                    code = resolver.code(arg.value)
                    for key, value in content.entries:
                        if key in PARAMETERS and key not in args:
                            args[key] = BoundArg(key, value, f"{code}[{key!r}]", start, end, True)
                            opaque.discard(key)
                else:
                    opaque.update(name for name in PARAMETERS if name not in args)
                continue
            if arg.keyword is not None:
                name, keyword = arg.keyword.value, True
            else:
                if index >= len(POSITIONAL):
                    continue  # too many positionals: torch raises TypeError; not our business
                name, keyword = POSITIONAL[index], False
                index += 1
            if name not in PARAMETERS:
                continue
            value = resolver.resolve(arg.value, site)
            text = "" if id(arg) in prebound else self.module.code_for_node(arg.value)
            args[name] = BoundArg(name, value, resolver.code(arg.value), start, end, keyword, text)
            opaque.discard(name)
        start, end = self._location(call)
        return LoaderCall(
            path=self.path,
            qualname=loader.qualname,
            location=start,
            end_location=end,
            args=args,
            opaque=frozenset(opaque),
            batch_bytes=self._batch_bytes_comment(start.row, end.row),
            scope=scope_name,
            in_loop=site.in_loop(),
            unguarded_iteration=self._unguarded_iteration(call, site),
        )

    # -- DL203: where a loader is iterated --------------------------------------------------------
    def _guarded(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.index.main_guard_lines)

    def _unguarded_iteration(self, call: cst.Call, site: Site) -> Optional[int]:
        """The row of an iteration of this loader that runs when the module is imported: at
        module level outside the ``__main__`` guard, or in a module-level function that
        unguarded module-level code calls."""
        iteration = self._iteration_line(call, site)
        if iteration is None:
            return None
        if site.scope is None:
            return None if self._guarded(iteration) else iteration
        function = self._module_function(site)
        if function is None:
            return None
        for other, other_site, _, _ in self.index.calls:
            if (
                other_site.scope is None
                and isinstance(other.func, cst.Name)
                and other.func.value == function.name.value
                and not self._guarded(other_site.line)
            ):
                return other_site.line
        return None

    def _iteration_line(self, call: cst.Call, site: Site) -> Optional[int]:
        for loop, loop_site in self.index.loops:
            if loop_site.scope is site.scope and _mentions(loop.iter, call, None):
                return loop_site.line
        target = self._assigned_name(call)
        if target is None:
            return None
        for loop, loop_site in self.index.loops:
            if loop_site.scope is site.scope and loop_site.line > site.line and _mentions(loop.iter, None, target):
                return loop_site.line
        for other, other_site, _, _ in self.index.calls:
            if (
                other_site.scope is site.scope
                and other_site.line >= site.line
                and _terminal(other.func) in ("iter", "next", "list")
                and any(_mentions(a.value, None, target) for a in other.args)
            ):
                return other_site.line
        return None

    def _assigned_name(self, call: cst.Call) -> Optional[str]:
        if self._assigned_by_value is None:
            self._assigned_by_value = {id(value): name.value for name, (value, _) in self.index.assigned.items()}
        return self._assigned_by_value.get(id(call))

    def _batch_bytes_comment(self, first: int, last: int) -> Optional[int]:
        from dl_lint.config import parse_size

        # The comment may sit on any line of the call, or on the line just above it.
        for row in range(max(first - 1, 1), last + 1):
            if row - 1 < len(self.lines):
                match = _BATCH_BYTES_COMMENT.search(self.lines[row - 1])
                if match:
                    try:
                        return parse_size(match.group(1))
                    except ValueError:
                        return None
        return None

    # -- what the project asks ------------------------------------------------------------------
    def global_value(self, name: str, depth: int) -> Value:
        """The value of a module-level name, as another module importing it sees it."""
        scope = self.scopes.get(self.module)
        if scope is None or name in self._in_progress:
            return Value.unknown("import")
        assignments = [a for a in scope[name] if a.scope is scope] if name in scope else []
        if not assignments:
            return Value.unknown("import")
        self._in_progress.add(name)
        try:
            options = []
            for assignment in assignments:
                value = self.resolver._resolve_assignment(assignment, name, END, depth + 1)
                if value.is_unknown:
                    return Value.unknown(value.source or "import")
                line = self._site_line(assignment)
                origin = Origin(f"{name} in {self.module_name or self.path}", self.path, line)
                options.extend(
                    p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ()
                )
            return Value(tuple(options), value.source)
        finally:
            self._in_progress.discard(name)

    def _site_line(self, assignment) -> Optional[int]:
        site = self.resolver._site_of(assignment)
        return site.line if site is not None else None

    def is_loader_class(self, name: str, depth: int) -> Optional[str]:
        """For a class of this module: the torch loader it subclasses, when its constructor
        keeps torch's signature (no ``__init__``, or one taking ``*args, **kwargs``)."""
        if name in self._loader_classes:
            return self._loader_classes[name]
        self._loader_classes[name] = None  # cycle guard
        node = next((c for c in self.index.module_classes if c.name.value == name), None)
        result = None
        if node is not None and _keeps_signature(node):
            for base in node.bases:
                if base.keyword is None:
                    found = self.resolver.loader_of(base.value, END, depth + 1)
                    if found is not None and not found.preargs:
                        result = found.qualname
                        break
        self._loader_classes[name] = result
        return result

    def class_facts(self, name: str) -> Optional[ClassFacts]:
        if name in self._classes:
            return self._classes[name]
        node = next((c for c in self.index.module_classes if c.name.value == name), None)
        if node is None:
            return None
        bases: List[FrozenSet[str]] = []
        for base in node.bases:
            if base.keyword is None:
                bases.append(self._describe(base.value))
        methods: Dict[str, Tuple[bool, FrozenSet[str], FrozenSet[str]]] = {}
        scans: Dict[str, _NameUse] = {}
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef):
                uses = _uses(statement)
                scans[statement.name.value] = uses
                methods[statement.name.value] = (
                    bool(uses.names & SHARDING_NAMES),
                    frozenset(uses.self_calls),
                    frozenset(self._called_functions(uses.call_nodes)),
                )
        init = scans.get("__init__")
        containers, rngs = set(), set()
        for attr, value in init.self_assigns if init is not None else ():
            if _is_container(value):
                containers.add(attr)
            elif isinstance(value, cst.Call):
                callee = self.resolver.resolve(value.func, END)
                if callee.single is not None and getattr(callee.single.value, "qualname", None) in RNG_QUALNAMES:
                    rngs.add(attr)
        reached = _reachable(scans, ("__getitem__", "__iter__", "__getitems__"))
        facts = ClassFacts(
            name=name,
            module=self.module_name,
            path=self.path,
            line=self.resolver.line(node),
            bases=tuple(bases),
            methods=methods,
            init_containers=frozenset(containers),
            getitem_reads=frozenset(a for m in ("__getitem__", "__getitems__") if m in scans for a in scans[m].subscripted),
            init_rngs=frozenset(rngs),
            draws=frozenset(a for m in reached for a in scans[m].attr_calls),
            cuda_methods=frozenset(m for m in reached if scans[m].cuda),
            iter_shape=self._iter_shape(node),
        )
        self._classes[name] = facts
        return facts

    def _iter_shape(self, node: cst.ClassDef):
        """For DL201's fix: ``__iter__`` made of one ``for x in X`` or ``return iter(X)``."""
        method = next(
            (s for s in node.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__iter__"), None
        )
        if method is None or not isinstance(method.body, cst.IndentedBlock):
            return None
        body = list(method.body.body)
        if body and _is_docstring(body[0]):
            body = body[1:]
        if len(body) != 1:
            return None
        statement = body[0]
        target = None
        if isinstance(statement, cst.For) and statement.asynchronous is None:
            target = statement.iter
        elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if (
                isinstance(small, cst.Return)
                and isinstance(small.value, cst.Call)
                and _terminal(small.value.func) == "iter"
                and len(small.value.args) == 1
                and not small.value.args[0].star
            ):
                target = small.value.args[0].value
        if target is None or statement not in self.positions:
            return None
        row = self.positions[statement].start.line
        indent = self.lines[row - 1][: len(self.lines[row - 1]) - len(self.lines[row - 1].lstrip())]
        start, end = self._location(target)
        return (row, indent, start, end, self.module.code_for_node(target))

    def function_facts(self, node: cst.FunctionDef) -> FunctionFacts:
        uses = _uses(node)
        return FunctionFacts(
            name=node.name.value,
            module=self.module_name,
            path=self.path,
            line=self.resolver.line(node),
            shards=bool(uses.names & SHARDING_NAMES),
            calls=frozenset(self._called_functions(uses.call_nodes)),
            uses_cuda=uses.cuda,
            reseeds=any("seed" in n.lower() or "rng" in n.lower() or "random" in n.lower() for n in uses.names),
        )

    def _describe(self, expr: cst.BaseExpression) -> FrozenSet[str]:
        """What a base-class expression denotes: qualified names, ``module.Class`` for project
        classes, or its source text when unknown."""
        value = self.resolver.resolve(expr, END)
        names = set()
        for p in value.options or ():
            if isinstance(p.value, External):
                names.add(p.value.qualname)
            elif isinstance(p.value, FunctionRef) and p.value.kind == "class":
                names.add(_key(p.value))
        return frozenset(names) or frozenset({self.resolver.code(expr)})

    def _called_functions(self, calls: Sequence[cst.Name]) -> Set[str]:
        """``module.function@path`` for each called name that may be a project function,
        without parsing other modules (they are parsed only if the key is looked up)."""
        out = set()
        for name in calls:
            key = self.resolver.function_key(name)
            if key is not None:
                out.add(key)
        return out

    # -- call sites (parameters judged per caller) ----------------------------------------------
    def function_node(self, name: str) -> Optional[cst.FunctionDef]:
        return next((f for f in self.index.module_functions if f.name.value == name), None)

    def calls_named(self, names: Set[str]) -> List[Tuple[cst.Call, Site]]:
        return [
            (call, site)
            for call, site, _, _ in self.index.calls
            if isinstance(call.func, (cst.Name, cst.Attribute)) and _terminal(call.func) in names
        ]

    def loader_calls_with(self, function: cst.FunctionDef, env: Dict[cst.Param, Value]) -> List[LoaderCall]:
        """The loader calls of ``function`` re-resolved with its parameters bound to ``env``."""
        saved = self.resolver.param_env
        self.resolver.param_env = env
        self.resolver._code_cache.clear()
        try:
            out = []
            for call, site, scope_name, cls in self.index.calls:
                if site.scope is not function:
                    continue
                loader = self._loader_for(call, site, cls)
                if loader is not None:
                    out.append(self._bind(call, site, scope_name, loader))
            return out
        finally:
            self.resolver.param_env = saved


def _mentions(expr: cst.BaseExpression, node: Optional[cst.CSTNode], name: Optional[str]) -> bool:
    """``expr`` is ``node`` / the name, possibly wrapped: ``enumerate(x)``, ``tqdm(x)``, ``iter(x)``."""
    if node is not None and expr is node:
        return True
    if name is not None and isinstance(expr, cst.Name) and expr.value == name:
        return True
    if isinstance(expr, cst.Call) and _terminal(expr.func) in ("enumerate", "tqdm", "iter", "zip", "islice"):
        return any(_mentions(a.value, node, name) for a in expr.args)
    return False


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_container(value: cst.BaseExpression) -> bool:
    """A Python list or dict of objects: literals, comprehensions, list()/dict()/sorted()."""
    if isinstance(value, (cst.List, cst.ListComp, cst.Dict, cst.DictComp)):
        return True
    return isinstance(value, cst.Call) and _terminal(value.func) in _CONTAINER_CALLS


def _reachable(scans: Dict[str, "_NameUse"], roots: Sequence[str]) -> List[str]:
    """Methods reachable from ``roots`` through ``self.m()`` calls."""
    todo = [r for r in roots if r in scans]
    seen: List[str] = []
    while todo:
        name = todo.pop()
        if name in seen or name not in scans:
            continue
        seen.append(name)
        todo.extend(scans[name].self_calls)
    return seen


def _key(ref: FunctionRef) -> str:
    """``module.Name@path``: how class facts name a project class or function (the path
    disambiguates modules with the same name in one project, e.g. several ``data.py`` scripts)."""
    qualname = f"{ref.module}.{ref.name}" if ref.module else ref.name
    return f"{qualname}@{ref.path}"


def _params(function: cst.FunctionDef) -> List[cst.Param]:
    p = function.params
    return [*p.posonly_params, *p.params, *p.kwonly_params]


def _terminal(func: cst.BaseExpression) -> str:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return ""


def _keeps_signature(node: cst.ClassDef) -> bool:
    init = next(
        (s for s in node.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None
    )
    if init is None:
        return True
    params = init.params
    return (
        len(params.params) == 1
        and not params.kwonly_params
        and isinstance(params.star_arg, cst.Param)
        and params.star_kwarg is not None
    )


class _NameUse(cst.CSTVisitor):
    """What a function body uses: names, ``self.m()`` calls, called names, ``self.x[...]``
    reads, ``self.x.draw()`` calls, CUDA moves, seeds, and ``self.x = ...`` assignments."""

    def __init__(self) -> None:
        self.names: Set[str] = set()
        self.self_calls: Set[str] = set()
        self.call_nodes: List[cst.Name] = []
        self.subscripted: Set[str] = set()
        self.attr_calls: Set[str] = set()
        self.self_assigns: List[Tuple[str, cst.BaseExpression]] = []
        self.cuda = False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.names.add(node.attr.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        attr = _self_attr(node.value)
        if attr:
            self.subscripted.add(attr)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            attr = _self_attr(target.target)
            if attr:
                self.self_assigns.append((attr, node.value))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            self.self_calls.add(func.attr.value)
        elif isinstance(func, cst.Name):
            self.call_nodes.append(func)
        if isinstance(func, cst.Attribute):
            owner = _self_attr(func.value)
            if owner:
                self.attr_calls.add(owner)  # self.rng.integers(...)
            if func.attr.value == "cuda":
                self.cuda = True
            if func.attr.value == "to" and any(_is_cuda_literal(a.value) for a in node.args):
                self.cuda = True
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "generator":
                owner = _self_attr(arg.value)
                if owner:
                    self.attr_calls.add(owner)
            if arg.keyword is not None and arg.keyword.value == "device" and _is_cuda_literal(arg.value):
                self.cuda = True


def _self_attr(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _is_cuda_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, str) and value.startswith("cuda")
    if isinstance(node, cst.Call) and node.args:  # torch.device("cuda")
        return _is_cuda_literal(node.args[0].value)
    return False


_CONTAINER_CALLS = frozenset({"list", "dict", "sorted", "defaultdict", "OrderedDict"})
RNG_QUALNAMES = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
        "torch.Generator",
    }
)


def _uses(node: cst.CSTNode) -> _NameUse:
    visitor = _NameUse()
    node.visit(visitor)
    return visitor


__all__ = ["ModuleFacts", "ModuleAnalysis", "analyze_source", "Assignment"]
