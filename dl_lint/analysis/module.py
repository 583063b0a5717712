"""Parse one module with libcst and extract its facts: loader calls with bound, resolved
arguments; classes (for dataset analysis); module-level functions.

The facts are plain frozen data (no CST nodes), so they can be cached and sent between
processes, and the rules never touch syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedNameProvider, ScopeProvider

from dl_lint.analysis.datasets import SHARDING_NAMES, ClassFacts, FunctionFacts
from dl_lint.analysis.loaders import LOADER_QUALNAMES, POSITIONAL, PARAMETERS, BoundArg, LoaderCall
from dl_lint.analysis.resolve import Resolver
from dl_lint.analysis.values import Value
from dl_lint.model import Location

_BATCH_BYTES_COMMENT = re.compile(r"#\s*dl-lint:\s*batch-bytes\s*=\s*([0-9A-Za-z.]+)")


@dataclass(frozen=True)
class ModuleFacts:
    path: str
    module_name: str
    calls: Tuple[LoaderCall, ...] = ()
    classes: Tuple[ClassFacts, ...] = ()
    functions: Tuple[FunctionFacts, ...] = ()
    # Problems met while reading the module's source, reported as DL000 by the engine.
    errors: Tuple[str, ...] = ()
    extra: Dict[str, object] = field(default_factory=dict, compare=False)


def analyze_source(source: str, path: str, module_name: str = "") -> ModuleFacts:
    """Parse ``source`` and extract its facts. Raises ``libcst.ParserSyntaxError`` on bad syntax."""
    module = cst.parse_module(source)
    return analyze_module(module, source, path, module_name)


def analyze_module(module: cst.Module, source: str, path: str, module_name: str = "") -> ModuleFacts:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    collector = _Collector()
    wrapper.visit(collector)
    positions = wrapper.resolve(PositionProvider)
    scopes = wrapper.resolve(ScopeProvider)
    qualnames = wrapper.resolve(QualifiedNameProvider)
    resolver = Resolver(
        module,
        path,
        module_name,
        positions,
        scopes,
        collector.assigned,
        {c: c.name.value for c in collector.module_classes},
        collector.nested_defs,
    )
    lines = source.splitlines()
    calls = []
    for call, scope_name in collector.calls:
        names = qualified_names(qualnames, call.func)
        loader = next((n for n in sorted(names) if n in LOADER_QUALNAMES), None)
        if loader is None:
            continue
        calls.append(_bind(call, loader, scope_name, resolver, positions, path, lines))
    classes = tuple(_class_facts(c, resolver, qualnames, path, module_name) for c in collector.module_classes)
    functions = tuple(
        FunctionFacts(
            name=f.name.value,
            module=module_name,
            path=path,
            line=resolver.line(f),
            shards=_uses_sharding(f),
            calls=frozenset(_called_names(f)),
        )
        for f in collector.module_functions
    )
    return ModuleFacts(path, module_name, tuple(calls), classes, functions)


class _Collector(cst.CSTVisitor):
    """One pass over the tree: calls (with their enclosing function), assignments, defs."""

    def __init__(self) -> None:
        self.calls: List[Tuple[cst.Call, str]] = []
        self.assigned: Dict[cst.CSTNode, cst.BaseExpression] = {}
        self.module_classes: List[cst.ClassDef] = []
        self.module_functions: List[cst.FunctionDef] = []
        self.nested_defs: List[cst.CSTNode] = []
        self._stack: List[str] = []
        self._depth_kinds: List[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if not self._stack:
            self.module_classes.append(node)
        elif "def" in self._depth_kinds:
            self.nested_defs.append(node)
        self._stack.append(node.name.value)
        self._depth_kinds.append("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._stack.pop()
        self._depth_kinds.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not self._stack:
            self.module_functions.append(node)
        elif "def" in self._depth_kinds:
            self.nested_defs.append(node)
        self._stack.append(node.name.value)
        self._depth_kinds.append("def")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._stack.pop()
        self._depth_kinds.pop()

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append((node, ".".join(self._stack)))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.assigned[target.target] = node.value

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self.assigned[node.target] = node.value


def qualified_names(qualnames: Dict, node: cst.CSTNode) -> Set[str]:
    """The qualified names libcst infers for ``node`` (computed lazily by the provider)."""
    found = qualnames.get(node)
    if found is None:
        return set()
    if callable(found):
        found = found()
    return {q.name for q in found}


def _location(positions: Dict, node: cst.CSTNode) -> Tuple[Location, Location]:
    rng = positions[node]
    return (
        Location(rng.start.line, rng.start.column + 1),
        Location(rng.end.line, rng.end.column + 1),
    )


def _bind(
    call: cst.Call,
    qualname: str,
    scope_name: str,
    resolver: Resolver,
    positions: Dict,
    path: str,
    lines: List[str],
) -> LoaderCall:
    """Bind the call's arguments to torch's signature."""
    args: Dict[str, BoundArg] = {}
    opaque: Set[str] = set()
    index = 0
    for arg in call.args:
        start, end = _location(positions, arg)
        if arg.star == "*":
            # Everything from here on could be carried positionally.
            opaque.update(name for name in POSITIONAL[index:] if name not in args)
            index = len(POSITIONAL)
            continue
        if arg.star == "**":
            # Contents unknown (a later stage resolves dict literals): any parameter not
            # written explicitly could be in there.
            opaque.update(name for name in PARAMETERS if name not in args)
            continue
        if arg.keyword is not None:
            name = arg.keyword.value
            keyword = True
        else:
            if index >= len(POSITIONAL):
                continue  # too many positionals: torch raises TypeError; not our business
            name = POSITIONAL[index]
            index += 1
            keyword = False
        if name not in PARAMETERS:
            continue
        value = resolver.resolve(arg.value)
        args[name] = BoundArg(name, value, resolver.code(arg.value), start, end, keyword)
        opaque.discard(name)
    start, end = _location(positions, call)
    return LoaderCall(
        path=path,
        qualname=qualname,
        location=start,
        end_location=end,
        args=args,
        opaque=frozenset(opaque),
        batch_bytes=_batch_bytes_comment(lines, start.row, end.row),
        scope=scope_name,
    )


def _batch_bytes_comment(lines: List[str], first: int, last: int) -> Optional[int]:
    from dl_lint.config import parse_size

    # The comment may sit on any line of the call, or on the line just above it.
    for row in range(max(first - 1, 1), last + 1):
        if row - 1 < len(lines):
            match = _BATCH_BYTES_COMMENT.search(lines[row - 1])
            if match:
                try:
                    return parse_size(match.group(1))
                except ValueError:
                    return None
    return None


# -- classes and functions ----------------------------------------------------------------------


class _NameUse(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: Set[str] = set()
        self.self_calls: Set[str] = set()
        self.calls: Set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.names.add(node.attr.value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            self.self_calls.add(func.attr.value)
        elif isinstance(func, cst.Name):
            self.calls.add(func.value)


def _uses(node: cst.CSTNode) -> _NameUse:
    visitor = _NameUse()
    node.visit(visitor)
    return visitor


def _uses_sharding(node: cst.CSTNode) -> bool:
    return bool(_uses(node).names & SHARDING_NAMES)


def _called_names(node: cst.CSTNode) -> Set[str]:
    return _uses(node).calls


def _class_facts(
    node: cst.ClassDef, resolver: Resolver, qualnames: Dict, path: str, module_name: str
) -> ClassFacts:
    bases: List[FrozenSet[str]] = []
    for base in node.bases:
        if base.keyword is not None:
            continue
        names = frozenset(qualified_names(qualnames, base.value))
        bases.append(names or frozenset({resolver.code(base.value)}))
    methods: Dict[str, Tuple[bool, FrozenSet[str], FrozenSet[str]]] = {}
    for statement in node.body.body:
        if isinstance(statement, cst.FunctionDef):
            uses = _uses(statement)
            methods[statement.name.value] = (
                bool(uses.names & SHARDING_NAMES),
                frozenset(uses.self_calls),
                frozenset(uses.calls),
            )
    return ClassFacts(
        name=node.name.value,
        module=module_name,
        path=path,
        line=resolver.line(node),
        bases=tuple(bases),
        methods=methods,
    )
