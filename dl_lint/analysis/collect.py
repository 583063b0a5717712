"""One pass over a module's CST that records where things are assigned and under which
conditions, so the resolver can answer "which assignments of ``nw`` reach this call?".

A *site* is a place in the code: its line, the stack of conditions around it (``if`` tests with
their branch, loops, ``try`` bodies) and the function it is in. An assignment *dominates* a use
when it comes earlier in the same function and its condition stack is a prefix of the use's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Tuple

import libcst as cst
from libcst.metadata import PositionProvider


class Cond(NamedTuple):
    kind: str  # "if" | "loop" | "try"
    test: Optional[cst.BaseExpression]
    polarity: bool


class Site(NamedTuple):
    line: int
    conds: Tuple[Cond, ...]
    scope: Optional[cst.CSTNode]  # the enclosing FunctionDef (None at module level)

    def in_loop(self) -> bool:
        return any(c.kind == "loop" for c in self.conds)


END = Site(10**9, (), None)  # "after everything at module level"


@dataclass
class ModuleIndex:
    """What the collector found; consumed by the resolver."""

    assigned: Dict[cst.Name, Tuple[cst.BaseExpression, Site]] = field(default_factory=dict)
    # ``x += 1`` and other bindings we do not evaluate, with their sites (they still shadow)
    augmented: Dict[cst.Name, Site] = field(default_factory=dict)
    # ``a, b = expr``: target -> (expr, index, site)
    unpacked: Dict[cst.Name, Tuple[cst.BaseExpression, int, Site]] = field(default_factory=dict)
    # ``self.attr = value`` in methods: (class name, attr) -> [(value, site, method name)]
    self_attrs: Dict[Tuple[str, str], List[Tuple[cst.BaseExpression, Site, str]]] = field(default_factory=dict)
    # Mutations of a name: (scope, name) -> [(kind, node, site)], kind "update" | "setitem" | "other"
    mutations: Dict[Tuple[Optional[cst.CSTNode], str], List[Tuple[str, cst.CSTNode, Site]]] = field(
        default_factory=dict
    )
    calls: List[Tuple[cst.Call, Site, str, Optional[str]]] = field(default_factory=list)  # call, site, scope name, class
    add_arguments: List[cst.Call] = field(default_factory=list)
    module_classes: List[cst.ClassDef] = field(default_factory=list)
    module_functions: List[cst.FunctionDef] = field(default_factory=list)
    nested_defs: List[cst.CSTNode] = field(default_factory=list)
    function_sites: Dict[cst.FunctionDef, Site] = field(default_factory=dict)
    loops: List[Tuple[cst.For, Site]] = field(default_factory=list)
    main_guard_lines: List[Tuple[int, int]] = field(default_factory=list)


class Collector(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.index = ModuleIndex()
        self._conds: List[Cond] = []
        self._scopes: List[Optional[cst.CSTNode]] = [None]
        self._names: List[str] = []
        self._kinds: List[str] = []  # "class" | "def"
        self._saved_conds: List[List[Cond]] = []

    # -- sites ----------------------------------------------------------------------------------
    def site(self, node: cst.CSTNode) -> Site:
        line = self.get_metadata(PositionProvider, node).start.line
        return Site(line, tuple(self._conds), self._scopes[-1])

    # -- scopes ---------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if not self._names:
            self.index.module_classes.append(node)
        elif "def" in self._kinds:
            self.index.nested_defs.append(node)
        self._names.append(node.name.value)
        self._kinds.append("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._names.pop()
        self._kinds.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not self._names:
            self.index.module_functions.append(node)
        elif "def" in self._kinds:
            self.index.nested_defs.append(node)
        self.index.function_sites[node] = self.site(node)
        self._names.append(node.name.value)
        self._kinds.append("def")
        self._scopes.append(node)
        # Conditions around a definition say nothing about when its body runs.
        self._saved_conds.append(self._conds)
        self._conds = []

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._names.pop()
        self._kinds.pop()
        self._scopes.pop()
        self._conds = self._saved_conds.pop()

    # -- conditions -----------------------------------------------------------------------------
    def visit_If(self, node: cst.If) -> bool:
        node.test.visit(self)
        if _is_main_guard(node.test) and not self._names:
            pos = self.get_metadata(PositionProvider, node)
            self.index.main_guard_lines.append((pos.start.line, pos.end.line))
        self._conds.append(Cond("if", node.test, True))
        node.body.visit(self)
        self._conds.pop()
        if node.orelse is not None:
            self._conds.append(Cond("if", node.test, False))
            node.orelse.visit(self)
            self._conds.pop()
        return False

    def visit_For(self, node: cst.For) -> None:
        self.index.loops.append((node, self.site(node)))
        self._conds.append(Cond("loop", None, True))

    def leave_For(self, original_node: cst.For) -> None:
        self._conds.pop()

    def visit_While(self, node: cst.While) -> None:
        self._conds.append(Cond("loop", None, True))

    def leave_While(self, original_node: cst.While) -> None:
        self._conds.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self._conds.append(Cond("try", None, True))

    def leave_Try(self, original_node: cst.Try) -> None:
        self._conds.pop()

    # -- records --------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        cls = next((n for n, k in zip(reversed(self._names), reversed(self._kinds)) if k == "class"), None)
        self.index.calls.append((node, self.site(node), ".".join(self._names), cls))
        func = node.func
        if isinstance(func, cst.Attribute):
            if func.attr.value == "add_argument":
                self.index.add_arguments.append(node)
            if isinstance(func.value, cst.Name) and func.attr.value in _MUTATORS:
                kind = "update" if func.attr.value == "update" else "other"
                self._mutation(func.value.value, kind, node)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._target(target.target, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target, node.value, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self.index.augmented[node.target] = self.site(node)
        if isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name):
            self._mutation(node.target.value.value, "other", node)

    def _target(self, target: cst.BaseExpression, value: cst.BaseExpression, stmt: cst.CSTNode) -> None:
        site = self.site(stmt)
        if isinstance(target, cst.Name):
            self.index.assigned[target] = (value, site)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for i, element in enumerate(target.elements):
                if isinstance(element, cst.Element) and isinstance(element.value, cst.Name):
                    self.index.unpacked[element.value] = (value, i, site)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if target.value.value == "self" and "class" in self._kinds:
                cls = next(n for n, k in zip(reversed(self._names), reversed(self._kinds)) if k == "class")
                method = self._names[-1] if self._kinds[-1] == "def" else ""
                self.index.self_attrs.setdefault((cls, target.attr.value), []).append((value, site, method))
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            self._mutation(target.value.value, "setitem", stmt)

    def _mutation(self, name: str, kind: str, node: cst.CSTNode) -> None:
        site = self.site(node)
        self.index.mutations.setdefault((site.scope, name), []).append((kind, node, site))


_MUTATORS = frozenset({"update", "pop", "setdefault", "clear", "popitem"})


def _is_main_guard(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    sides = [test.left, test.comparisons[0].comparator]
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__"]
    return bool(names and strings) and isinstance(test.comparisons[0].operator, cst.Equal)
