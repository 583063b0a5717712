"""Turn an expression into an abstract Value, proving what can be proven.

Resolution is deliberately conservative: a literal, a comparison against a literal, a
conditional expression whose branches resolve, arithmetic over constants, and names whose every
binding in scope resolves. Everything else is unknown, with a ``source`` that says what kind of
thing it was (a parameter, an argparse value, ...), because "configurable" matters to DL011.
"""

from __future__ import annotations

import ast
import itertools
import operator
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import Assignment, ImportAssignment, Scope

from dl_lint.analysis.values import FunctionRef, Guard, Instance, Origin, Possible, Ref, Value

MAX_OPTIONS = 16  # more possibilities than this is as good as unknown
MAX_DEPTH = 12

_BINOPS: Dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv,
    cst.Divide: operator.truediv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
}
_CMP_OPS: Dict[type, str] = {
    cst.GreaterThan: ">",
    cst.GreaterThanEqual: ">=",
    cst.LessThan: "<",
    cst.LessThanEqual: "<=",
    cst.Equal: "==",
    cst.NotEqual: "!=",
    cst.Is: "is",
    cst.IsNot: "is not",
}
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!=", "is": "is", "is not": "is not"}
_BUILTIN_FUNCS: Dict[str, Callable[..., Any]] = {
    "int": int,
    "bool": bool,
    "float": float,
    "max": max,
    "min": min,
    "abs": abs,
    "round": round,
}


def normalize(code: str) -> str:
    """Source text without whitespace: the key guards and aliases are matched on."""
    return "".join(code.split())


class Resolver:
    """Resolves expressions of one module. ``scopes`` and ``qualnames`` are libcst metadata
    maps; ``assigned`` maps an assignment target Name to the value expression assigned."""

    def __init__(
        self,
        module: cst.Module,
        path: str,
        module_name: str,
        positions: Mapping[cst.CSTNode, Any],
        scopes: Mapping[cst.CSTNode, Optional[Scope]],
        assigned: Mapping[cst.CSTNode, cst.BaseExpression],
        local_classes: Mapping[cst.ClassDef, str],
        nested_defs: Sequence[cst.CSTNode] = (),
    ) -> None:
        self.module = module
        self.path = path
        self.module_name = module_name
        self.positions = positions
        self.scopes = scopes
        self.assigned = assigned
        self.local_classes = local_classes
        self.nested_defs = set(map(id, nested_defs))
        self._code_cache: Dict[int, str] = {}

    # -- helpers ------------------------------------------------------------------------------
    def code(self, node: cst.CSTNode) -> str:
        key = id(node)
        if key not in self._code_cache:
            self._code_cache[key] = normalize(self.module.code_for_node(node))
        return self._code_cache[key]

    def line(self, node: cst.CSTNode) -> int:
        pos = self.positions.get(node)
        return pos.start.line if pos is not None else 0

    # -- entry point --------------------------------------------------------------------------
    def resolve(self, node: cst.BaseExpression, depth: int = 0) -> Value:
        if depth > MAX_DEPTH:
            return Value.unknown("expression")
        value = self._resolve(node, depth)
        if value.options is not None and len(value.options) > MAX_OPTIONS:
            return Value.unknown("expression").with_aliases(*value.aliases)
        if _literal(node) is not _NO_LITERAL:
            return value  # a literal is not a subject anything can be guarded on
        return value.with_aliases(self.code(node))

    def _resolve(self, node: cst.BaseExpression, depth: int) -> Value:
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return Value.known(ast.literal_eval(node.value))
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            evaluated = node.evaluated_value
            return Value.known(evaluated) if evaluated is not None else Value.unknown("expression")
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return Value.known({"True": True, "False": False, "None": None}[node.value])
            return self._resolve_name(node, depth)
        if isinstance(node, cst.UnaryOperation):
            return self._resolve_unary(node, depth)
        if isinstance(node, cst.IfExp):
            return self._resolve_ifexp(node, depth)
        if isinstance(node, cst.Comparison):
            return self._resolve_comparison(node, depth)
        if isinstance(node, cst.BinaryOperation):
            return self._resolve_binop(node, depth)
        if isinstance(node, cst.Lambda):
            return Value.known(FunctionRef("lambda", self.module_name, "<lambda>", self.line(node)))
        if isinstance(node, cst.Call):
            return self._resolve_call(node, depth)
        return Value.unknown("expression")

    # -- names --------------------------------------------------------------------------------
    def _resolve_name(self, node: cst.Name, depth: int) -> Value:
        scope = self.scopes.get(node)
        if scope is None:
            return Value.unknown("expression")
        assignments = [a for a in scope[node.value]]
        if not assignments:
            return Value.unknown("expression")
        options: List[Possible] = []
        aliases: List[str] = []
        source: Optional[str] = None
        for assignment in assignments:
            value = self._resolve_assignment(assignment, depth)
            if value.is_unknown:
                return Value.unknown(value.source)
            options.extend(value.options or ())
            aliases.extend(value.aliases)
        if len(assignments) > 1:
            options = _dedupe(options)
        return Value(tuple(options), source).with_aliases(*aliases)

    def _resolve_assignment(self, assignment: Any, depth: int) -> Value:
        if isinstance(assignment, ImportAssignment):
            return self._resolve_import(assignment)
        if not isinstance(assignment, Assignment):
            return Value.unknown("expression")
        target = assignment.node
        if isinstance(target, cst.Param):
            return Value.unknown("parameter")
        if isinstance(target, cst.ClassDef):
            return Value.known(FunctionRef("class", self.module_name, target.name.value, self.line(target)))
        if isinstance(target, cst.FunctionDef):
            kind = "nested" if id(target) in self.nested_defs else "function"
            return Value.known(FunctionRef(kind, self.module_name, target.name.value, self.line(target)))
        expr = self.assigned.get(target)
        if expr is None:
            return Value.unknown("expression")
        return self.resolve(expr, depth + 1)

    def _resolve_import(self, assignment: ImportAssignment) -> Value:
        # Cross-module values are resolved by the project index (a later stage).
        node = assignment.node
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            module = "." * len(node.relative) + cst.helpers.get_full_name_for_node(node.module)
        elif isinstance(node, cst.ImportFrom):
            module = "." * len(node.relative)
        else:
            return Value.unknown("import")
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            bound = alias.asname.name.value if alias.asname else cst.helpers.get_full_name_for_node(alias.name)
            if bound == assignment.name:
                real = cst.helpers.get_full_name_for_node(alias.name) or ""
                return Value.known(Ref(module, real))
        return Value.unknown("import")

    # -- operators ----------------------------------------------------------------------------
    def _resolve_unary(self, node: cst.UnaryOperation, depth: int) -> Value:
        inner = self.resolve(node.expression, depth + 1)
        if inner.is_unknown:
            return Value.unknown(inner.source)
        if isinstance(node.operator, cst.Not):
            # ``not x`` swaps which guard holds; values become bools.
            return _map_options(inner, lambda v: not v)
        if isinstance(node.operator, cst.Minus):
            return _map_options(inner, operator.neg, numeric=True)
        if isinstance(node.operator, cst.Plus):
            return _map_options(inner, operator.pos, numeric=True)
        return Value.unknown("expression")

    def guard_for(self, test: cst.BaseExpression, depth: int = 0) -> Guard:
        """The guard that ``test`` expresses, matched later against the loader's arguments."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.guard_for(test.expression, depth).negate()
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            target = test.comparisons[0]
            op = _CMP_OPS.get(type(target.operator))
            if op is not None:
                right = _literal(target.comparator)
                if right is not _NO_LITERAL:
                    return Guard(self.code(test.left), op, right, aliases=self._aliases_of(test.left, depth))
                left = _literal(test.left)
                if left is not _NO_LITERAL:
                    return Guard(
                        self.code(target.comparator),
                        _FLIPPED[op],
                        left,
                        aliases=self._aliases_of(target.comparator, depth),
                    )
        return Guard(self.code(test), "truthy", aliases=self._aliases_of(test, depth))

    def _aliases_of(self, node: cst.BaseExpression, depth: int) -> Tuple[str, ...]:
        if isinstance(node, cst.Name) and depth < MAX_DEPTH:
            return self.resolve(node, depth + 1).aliases
        return ()

    def _resolve_ifexp(self, node: cst.IfExp, depth: int) -> Value:
        body = self.resolve(node.body, depth + 1)
        orelse = self.resolve(node.orelse, depth + 1)
        if body.is_unknown or orelse.is_unknown:
            return Value.unknown(body.source or orelse.source)
        test = self.resolve(node.test, depth + 1)
        if test.single is not None:  # a constant condition picks a branch
            return body if test.single.value else orelse
        guard = self.guard_for(node.test, depth)
        options = [p.with_guard(guard) for p in body.options or ()]
        options += [p.with_guard(guard.negate()) for p in orelse.options or ()]
        return Value(tuple(options))

    def _resolve_comparison(self, node: cst.Comparison, depth: int) -> Value:
        if len(node.comparisons) != 1:
            return Value.unknown("expression")
        left = self.resolve(node.left, depth + 1)
        right = self.resolve(node.comparisons[0].comparator, depth + 1)
        op = _CMP_OPS.get(type(node.comparisons[0].operator))
        if op is None:
            return Value.unknown("expression")
        if left.single is not None and right.single is not None:
            try:
                return Value.known(bool(Guard("", op, right.single.value).holds(left.single.value)))
            except Exception:  # noqa: BLE001
                return Value.unknown("expression")
        # ``num_workers > 0``: True exactly when the guard holds.
        guard = self.guard_for(node, depth)
        return Value((Possible(True, None, (guard,)), Possible(False, None, (guard.negate(),))))

    def _resolve_binop(self, node: cst.BinaryOperation, depth: int) -> Value:
        func = _BINOPS.get(type(node.operator))
        if func is None:
            return Value.unknown("expression")
        left = self.resolve(node.left, depth + 1)
        right = self.resolve(node.right, depth + 1)
        return _combine([left, right], lambda a, b: func(a, b), numeric=True)

    def _resolve_call(self, node: cst.Call, depth: int) -> Value:
        func = node.func
        if isinstance(func, cst.Name):
            scope = self.scopes.get(func)
            assignments = list(scope[func.value]) if scope is not None else []
            if not assignments and func.value in _BUILTIN_FUNCS and all(
                a.keyword is None and not a.star for a in node.args
            ):
                builtin = _BUILTIN_FUNCS[func.value]
                if func.value in ("max", "min") and len(node.args) == 1:
                    return Value.unknown("expression")
                values = [self.resolve(a.value, depth + 1) for a in node.args]
                return _combine(values, builtin, numeric=func.value not in ("bool",))
            if len(assignments) == 1 and isinstance(assignments[0], Assignment):
                target = assignments[0].node
                if isinstance(target, cst.ClassDef) and target in self.local_classes:
                    return Value.known(Instance(self.module_name, target.name.value, self.line(target)))
            if len(assignments) == 1 and isinstance(assignments[0], ImportAssignment):
                ref = self._resolve_import(assignments[0])
                if ref.single is not None and isinstance(ref.single.value, Ref):
                    r = ref.single.value
                    # An instance of an imported class: the project index decides what it is.
                    return Value.known(Instance(r.module, r.name))
        return Value.unknown("expression")


_NO_LITERAL = object()


def _literal(node: cst.BaseExpression) -> Any:
    if isinstance(node, (cst.Integer, cst.Float)):
        return ast.literal_eval(node.value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _literal(node.expression)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else _NO_LITERAL
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    return _NO_LITERAL


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, bool)


def _map_options(value: Value, func: Callable[[Any], Any], numeric: bool = False) -> Value:
    out = []
    for p in value.options or ():
        if numeric and not _is_number(p.value):
            return Value.unknown("expression")
        try:
            out.append(Possible(func(p.value), p.origin, p.guards))
        except Exception:  # noqa: BLE001 - an expression that would raise is not a value
            return Value.unknown("expression")
    return Value(tuple(out))


def _combine(values: Sequence[Value], func: Callable[..., Any], numeric: bool = True) -> Value:
    """Apply ``func`` over the cartesian product of the operands' possibilities."""
    if any(v.is_unknown for v in values):
        return Value.unknown(next((v.source for v in values if v.source), "expression"))
    out: List[Possible] = []
    for combo in itertools.product(*(v.options or () for v in values)):
        args = [p.value for p in combo]
        if numeric and not all(_is_number(a) for a in args):
            return Value.unknown("expression")
        try:
            result = func(*args)
        except Exception:  # noqa: BLE001
            return Value.unknown("expression")
        origin = next((p.origin for p in combo if p.origin is not None), None)
        guards = tuple(g for p in combo for g in p.guards)
        out.append(Possible(result, origin, guards))
        if len(out) > MAX_OPTIONS:
            return Value.unknown("expression")
    return Value(tuple(_dedupe(out)))


def _dedupe(options: Sequence[Possible]) -> List[Possible]:
    seen = set()
    out = []
    for p in options:
        key = (repr(p.value), p.origin, p.guards)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
