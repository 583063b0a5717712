"""Turn an expression into an abstract Value, proving what can be proven.

Resolution is conservative. What resolves: literals; conditional expressions and comparisons
(which become guarded possibilities); arithmetic and ``int``/``min``/``max``-style builtins over
constants; names, through the assignments that reach the use (several reaching assignments give
a set); module constants of other project modules; argparse defaults (``args.workers``);
``self.x`` set in the class; dicts built for ``**kwargs``. Everything else is unknown, with a
``source`` that says what kind of thing it was (a parameter, a config value, an environment
variable...), because "configurable" matters to DL011.
"""

from __future__ import annotations

import ast
import itertools
import operator
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import Assignment, BuiltinAssignment, ImportAssignment, Scope

from dl_lint.analysis.collect import END, ModuleIndex, Site
from dl_lint.analysis.values import (
    ABSENT,
    CONFIGURABLE,
    Opaque,
    DictValue,
    External,
    FunctionRef,
    Guard,
    Instance,
    ModuleRef,
    Origin,
    Possible,
    Value,
)

MAX_OPTIONS = 16  # more possibilities than this is as good as unknown
MAX_DEPTH = 24

# Names conventionally bound to an argparse namespace when passed around as a parameter.
NAMESPACE_NAMES = frozenset({"args", "opt", "opts", "options", "flags", "FLAGS", "hparams", "cli_args"})


# Integer results above this many bits are not evaluated (OverflowError: the value is unknown):
# ``2 ** 10 ** 10`` would take minutes and gigabytes, and past 4300 digits str() raises.
_MAX_INT_BITS = 10_000


def _bounded_pow(base: Any, exponent: Any) -> Any:
    if isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1 and exponent > 0:
        if exponent * abs(base).bit_length() > _MAX_INT_BITS:
            raise OverflowError("integer power too large to evaluate")
    return operator.pow(base, exponent)


def _bounded(func: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any) -> Any:
        result = func(a, b)
        if isinstance(result, int) and result.bit_length() > _MAX_INT_BITS:
            raise OverflowError("integer too large to evaluate")
        return result

    return apply


_BINOPS: Dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: _bounded(operator.add),
    cst.Subtract: _bounded(operator.sub),
    cst.Multiply: _bounded(operator.mul),
    cst.FloorDivide: operator.floordiv,
    cst.Divide: operator.truediv,
    cst.Modulo: operator.mod,
    cst.Power: _bounded(_bounded_pow),
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


@dataclass(frozen=True)
class LoaderClass:
    """Something that constructs a torch-signature loader when called: the class itself, a
    project subclass, or ``functools.partial(DataLoader, ...)`` (with its pre-bound args)."""

    qualname: str
    preargs: Tuple[cst.Arg, ...] = ()


def normalize(code: str) -> str:
    """Source text without whitespace: the key guards and aliases are matched on."""
    return "".join(code.split())


class ProjectHook:
    """What the resolver may ask of the rest of the project (see ``analysis.project``)."""

    def import_value(self, module: str, name: str, depth: int, near: str = "") -> Value:  # pragma: no cover
        return Value.unknown("import")

    def module_exists(self, module: str) -> bool:  # pragma: no cover - interface
        return False

    def module_path(self, module: str, near: str = "") -> Optional[str]:  # pragma: no cover - interface
        return None

    def is_loader_class(self, module: str, name: str, depth: int, near: str = "") -> Optional[str]:  # pragma: no cover
        return None


class Resolver:
    """Resolves expressions of one module."""

    def __init__(
        self,
        module: cst.Module,
        path: str,
        module_name: str,
        is_package: bool,
        positions: Mapping[cst.CSTNode, Any],
        scopes: Mapping[cst.CSTNode, Optional[Scope]],
        index: ModuleIndex,
        project: Optional[ProjectHook] = None,
        loader_qualnames: frozenset = frozenset(),
    ) -> None:
        self.module = module
        self.path = path
        self.module_name = module_name
        self.is_package = is_package
        self.positions = positions
        self.scopes = scopes
        self.index = index
        self.project = project or ProjectHook()
        self.loader_qualnames = loader_qualnames
        self.nested_defs = set(index.nested_defs)
        self.local_classes = {c.name.value: c for c in index.module_classes}
        self.current_class: Optional[str] = None
        self.param_env: Dict[cst.Param, Value] = {}
        self._params_as_defaults = False
        self._code_cache: Dict[int, str] = {}
        self._argparse: Optional[Dict[str, List[Possible]]] = None

    # -- helpers ------------------------------------------------------------------------------
    def code(self, node: cst.CSTNode) -> str:
        key = id(node)
        if key not in self._code_cache:
            self._code_cache[key] = normalize(self.module.code_for_node(node))
        return self._code_cache[key]

    def line(self, node: cst.CSTNode) -> int:
        pos = self.positions.get(node)
        return pos.start.line if pos is not None else 0

    def absolute(self, module: str) -> str:
        """``.data`` imported from ``pkg.train`` is ``pkg.data``."""
        if not module.startswith("."):
            return module
        level = len(module) - len(module.lstrip("."))
        parts = self.module_name.split(".") if self.module_name else []
        if not self.is_package:
            parts = parts[:-1]
        if level > 1:
            parts = parts[: max(len(parts) - (level - 1), 0)]
        rest = module[level:]
        return ".".join(parts + ([rest] if rest else []))

    # -- entry point --------------------------------------------------------------------------
    def resolve(self, node: cst.BaseExpression, site: Site = END, depth: int = 0) -> Value:
        if depth > MAX_DEPTH:
            return Value.unknown("expression")
        value = self._resolve(node, site, depth)
        if value.options is not None and len(value.options) > MAX_OPTIONS:
            return Value.unknown("expression").with_aliases(*value.aliases)
        if _literal(node) is not _NO_LITERAL:
            return value  # a literal is not a subject anything can be guarded on
        return value.with_aliases(self.code(node))

    def _resolve(self, node: cst.BaseExpression, site: Site, depth: int) -> Value:
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return Value.known(ast.literal_eval(node.value))
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            evaluated = node.evaluated_value
            return Value.known(evaluated) if evaluated is not None else Value.unknown("expression")
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return Value.known({"True": True, "False": False, "None": None}[node.value])
            return self._resolve_name(node, site, depth)
        if isinstance(node, cst.Attribute):
            return self._resolve_attribute(node, site, depth)
        if isinstance(node, cst.UnaryOperation):
            return self._resolve_unary(node, site, depth)
        if isinstance(node, cst.IfExp):
            return self._resolve_ifexp(node, site, depth)
        if isinstance(node, cst.Comparison):
            return self._resolve_comparison(node, site, depth)
        if isinstance(node, cst.BinaryOperation):
            return self._resolve_binop(node, site, depth)
        if isinstance(node, cst.BooleanOperation):
            return self._resolve_boolop(node, site, depth)
        if isinstance(node, cst.Lambda):
            return Value.known(FunctionRef("lambda", self.module_name, "<lambda>", self.line(node), self.path))
        if isinstance(node, cst.Call):
            return self._resolve_call(node, site, depth)
        if isinstance(node, cst.Dict):
            return self._resolve_dict_literal(node, site, depth)
        if isinstance(node, (cst.List, cst.Tuple, cst.Set, cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return Value.known(Opaque(f"builtins.{type(node).__name__.lower()}"))  # exists: not None
        if isinstance(node, cst.Subscript):
            return self._resolve_subscript(node, site, depth)
        return Value.unknown("expression")

    # -- names --------------------------------------------------------------------------------
    def _site_of(self, assignment: Any) -> Optional[Site]:
        node = getattr(assignment, "node", None)
        if node in self.index.assigned:
            return self.index.assigned[node][1]
        if node in self.index.unpacked:
            return self.index.unpacked[node][2]
        if node in self.index.augmented:
            return self.index.augmented[node]
        return None

    def _reaching(self, assignments: Sequence[Any], site: Site) -> List[Tuple[Any, Optional[Guard]]]:
        """The assignments that can reach ``site``, each with the guard it holds under (if a
        single ``if`` separates it from the use)."""
        sites = [self._site_of(a) for a in assignments]
        same = all(s is not None and s.scope is site.scope for s in sites)
        if not same or site.in_loop() or site is END:
            return [(a, None) for a in assignments]
        before = sorted(
            ((a, s) for a, s in zip(assignments, sites) if s.line < site.line), key=lambda pair: pair[1].line
        )
        if not before:
            return [(a, None) for a in assignments]
        chosen: List[Tuple[Any, Optional[Guard]]] = []
        for assignment, where in reversed(before):
            if where.conds == site.conds[: len(where.conds)]:
                chosen.append((assignment, None))
                break  # dominates: nothing earlier reaches
            chosen.append((assignment, self._extra_guard(where, site)))
        return chosen

    def _extra_guard(self, where: Site, use: Site) -> Optional[Guard]:
        common = 0
        while common < min(len(where.conds), len(use.conds)) and where.conds[common] == use.conds[common]:
            common += 1
        extra = where.conds[common:]
        if len(extra) == 1 and extra[0].kind == "if" and common == len(use.conds):
            guard = self.guard_for(extra[0].test, END, 0)
            return guard if extra[0].polarity else guard.negate()
        return None

    def _resolve_name(self, node: cst.Name, site: Site, depth: int) -> Value:
        scope = self.scopes.get(node)
        if scope is None:
            return Value.unknown("expression")
        assignments = list(scope[node.value])
        if all(isinstance(a, BuiltinAssignment) for a in assignments):
            return Value.known(External(f"builtins.{node.value}"))
        options: List[Possible] = []
        aliases: List[str] = []
        source: Optional[str] = None
        reaching = self._reaching(assignments, site)
        for assignment, guard in reaching:
            value = self._resolve_assignment(assignment, node.value, site, depth)
            if value.is_unknown:
                return Value.unknown(value.source).with_aliases(*value.aliases)
            source = source or value.source
            for p in value.options or ():
                options.append(p.with_guard(guard) if guard is not None else p)
            aliases.extend(value.aliases)
        if len(reaching) > 1:
            options = _dedupe(options)
            if all(isinstance(p.value, DictValue) for p in options):
                options = [Possible(_merge_dict_options(options))]
        return Value(tuple(options), source).with_aliases(*aliases)

    def _resolve_assignment(self, assignment: Any, name: str, use: Site, depth: int) -> Value:
        if isinstance(assignment, ImportAssignment):
            return self._resolve_import(assignment, depth)
        if not isinstance(assignment, Assignment):
            return Value.unknown("expression")
        target = assignment.node
        if isinstance(target, cst.Param):
            return self._resolve_param(target, depth)
        if isinstance(target, cst.ClassDef):
            kind = "local-class" if target in self.nested_defs else "class"
            return Value.known(FunctionRef(kind, self.module_name, target.name.value, self.line(target), self.path))
        if isinstance(target, cst.FunctionDef):
            kind = "nested" if target in self.nested_defs else "function"
            return Value.known(FunctionRef(kind, self.module_name, target.name.value, self.line(target), self.path))
        if target in self.index.assigned:
            expr, where = self.index.assigned[target]
            value = self.resolve(expr, where, depth + 1)
            if value.single is not None and isinstance(value.single.value, DictValue):
                value = self._apply_mutations(value, name, where, use, depth)
            return value
        if target in self.index.unpacked:
            expr, position, where = self.index.unpacked[target]
            if position == 0 and _is_parse_args(expr, known=True):
                return Value.known(_NAMESPACE)
            return Value.unknown("expression")
        return Value.unknown("expression")

    def _resolve_param(self, param: cst.Param, depth: int) -> Value:
        if param in self.param_env:
            return self.param_env[param]
        name = param.name.value
        if self._params_as_defaults and param.default is not None:
            default = self.resolve(param.default, END, depth + 1)
            if default.is_unknown:
                return Value.unknown("parameter").with_aliases(name)
            origin = Origin(f"default of parameter {name}", self.path, self.line(param))
            return Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()), "parameter")
        return Value.unknown("parameter").with_aliases(name)

    def _resolve_import(self, assignment: ImportAssignment, depth: int) -> Value:
        node = assignment.node
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = cst.helpers.get_full_name_for_node(alias.name) or ""
                if alias.asname is not None:
                    bound = cst.helpers.get_full_name_for_node(alias.asname.name)
                    if bound == assignment.name:
                        return self._module_value(full)
                elif full.split(".")[0] == assignment.name:
                    return self._module_value(assignment.name)
            return Value.unknown("import")
        if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
            return Value.unknown("import")
        base = "." * len(node.relative) + (cst.helpers.get_full_name_for_node(node.module) if node.module else "")
        module = self.absolute(base)
        for alias in node.names:
            bound = cst.helpers.get_full_name_for_node(alias.asname.name) if alias.asname else None
            real = cst.helpers.get_full_name_for_node(alias.name) or ""
            if (bound or real) == assignment.name:
                submodule = f"{module}.{real}" if module else real
                if self.project.module_exists(submodule):
                    return Value.known(ModuleRef(submodule))
                if not self.project.module_exists(module):
                    return Value.known(External(submodule))
                return self.project.import_value(module, real, depth + 1, self.path)
        return Value.unknown("import")

    def _module_value(self, module: str) -> Value:
        if self.project.module_exists(module):
            return Value.known(ModuleRef(module))
        return Value.known(External(module))

    def function_key(self, name: cst.Name) -> Optional[str]:
        """``module.function@path`` of a called name, for a local function or a ``from m import
        f`` of the project — without analysing the other module."""
        scope = self.scopes.get(name)
        assignments = list(scope[name.value]) if scope is not None else []
        if len(assignments) != 1:
            return None
        assignment = assignments[0]
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.FunctionDef) and node not in self.nested_defs:
            return f"{self.module_name}.{node.name.value}@{self.path}" if self.module_name else f"{node.name.value}@{self.path}"
        if isinstance(assignment, ImportAssignment) and isinstance(node, cst.ImportFrom) and node.module is not None:
            if isinstance(node.names, cst.ImportStar):
                return None
            module = self.absolute("." * len(node.relative) + (cst.helpers.get_full_name_for_node(node.module) or ""))
            for alias in node.names:
                bound = cst.helpers.get_full_name_for_node(alias.asname.name) if alias.asname else None
                real = cst.helpers.get_full_name_for_node(alias.name) or ""
                if (bound or real) == name.value:
                    path = self.project.module_path(module, self.path)
                    return f"{module}.{real}@{path}" if path else None
        return None

    # -- attributes ---------------------------------------------------------------------------
    def _resolve_attribute(self, node: cst.Attribute, site: Site, depth: int) -> Value:
        attr = node.attr.value
        base = node.value
        if isinstance(base, cst.Name) and base.value == "self" and self.current_class:
            return self._resolve_self_attr(attr, depth)
        if isinstance(base, cst.Name) and self._is_namespace(base, site, attr, depth):
            options = self._argparse_options().get(attr)
            if options:
                return Value(tuple(options), "argparse")
            return Value.unknown("argparse")
        value = self.resolve(base, site, depth + 1)
        single = value.single
        if single is not None:
            target = single.value
            if isinstance(target, ModuleRef):
                return self.project.import_value(target.module, attr, depth + 1, self.path)
            if isinstance(target, External):
                return Value.known(External(f"{target.qualname}.{attr}"))
            if isinstance(target, DictValue):
                return Value.unknown("config")
        # An attribute of an object we cannot see: a config value, settable at run time.
        return Value.unknown("config")

    def _resolve_self_attr(self, attr: str, depth: int) -> Value:
        entries = self.index.self_attrs.get((self.current_class or "", attr))
        if not entries:
            return Value.unknown("config").with_aliases(f"self.{attr}")
        options: List[Possible] = []
        source: Optional[str] = None
        saved = self._params_as_defaults
        self._params_as_defaults = True
        try:
            for expr, where, _method in entries:
                value = self.resolve(expr, where, depth + 1)
                if value.is_unknown:
                    return Value.unknown(value.source or "config").with_aliases(f"self.{attr}")
                source = source or value.source
                options.extend(value.options or ())
        finally:
            self._params_as_defaults = saved
        return Value(tuple(_dedupe(options)), source).with_aliases(f"self.{attr}")

    # -- argparse -----------------------------------------------------------------------------
    def _is_namespace(self, name: cst.Name, site: Site, attr: str, depth: int) -> bool:
        """Whether ``name`` holds an argparse namespace of this module."""
        if not self.index.add_arguments:
            return False
        scope = self.scopes.get(name)
        assignments = list(scope[name.value]) if scope is not None else []
        if not assignments:
            return name.value in NAMESPACE_NAMES and attr in self._argparse_options()
        for assignment in assignments:
            target = getattr(assignment, "node", None)
            if isinstance(target, cst.Param):
                if name.value not in NAMESPACE_NAMES or attr not in self._argparse_options():
                    return False
            elif target in self.index.assigned:
                if not _is_parse_args(self.index.assigned[target][0], known=False):
                    return False
            elif target in self.index.unpacked:
                expr, position, _ = self.index.unpacked[target]
                if position != 0 or not _is_parse_args(expr, known=True):
                    return False
            else:
                return False
        return True

    def _argparse_options(self) -> Dict[str, List[Possible]]:
        if self._argparse is None:
            self._argparse = {}
            for call in self.index.add_arguments:
                parsed = self._parse_add_argument(call)
                if parsed is not None:
                    dest, possible = parsed
                    self._argparse.setdefault(dest, []).append(possible)
        return self._argparse

    def _parse_add_argument(self, call: cst.Call) -> Optional[Tuple[str, Possible]]:
        flags: List[str] = []
        keywords: Dict[str, cst.BaseExpression] = {}
        for arg in call.args:
            if arg.star:
                return None
            if arg.keyword is None:
                if isinstance(arg.value, cst.SimpleString) and isinstance(arg.value.evaluated_value, str):
                    flags.append(arg.value.evaluated_value)
                else:
                    return None
            else:
                keywords[arg.keyword.value] = arg.value
        if not flags:
            return None
        dest = None
        if "dest" in keywords:
            dest_value = _literal(keywords["dest"])
            dest = dest_value if isinstance(dest_value, str) else None
            if dest is None:
                return None
        else:
            long = [f for f in flags if f.startswith("--")]
            chosen = long[0] if long else flags[0]
            dest = chosen.lstrip("-").replace("-", "_")
        action = _literal(keywords["action"]) if "action" in keywords else None
        if "default" in keywords:
            default = self.resolve(keywords["default"], END, 1)
            if default.single is None:
                return dest, Possible(_UNKNOWN_DEFAULT)
            value = default.single.value
        elif action == "store_true":
            value = False
        elif action == "store_false":
            value = True
        else:
            value = None
        type_name = keywords.get("type")
        if isinstance(value, str) and isinstance(type_name, cst.Name) and type_name.value in ("int", "float"):
            try:
                value = int(value) if type_name.value == "int" else float(value)
            except ValueError:
                return dest, Possible(_UNKNOWN_DEFAULT)
        long = [f for f in flags if f.startswith("--")]
        shown = long[0] if long else flags[0]
        return dest, Possible(value, Origin(f"default of {shown}", self.path, self.line(call)))

    # -- operators ----------------------------------------------------------------------------
    def _resolve_unary(self, node: cst.UnaryOperation, site: Site, depth: int) -> Value:
        inner = self.resolve(node.expression, site, depth + 1)
        if inner.is_unknown:
            return Value.unknown(inner.source)
        if isinstance(node.operator, cst.Not):
            return _map_options(inner, lambda v: not v)
        if isinstance(node.operator, cst.Minus):
            return _map_options(inner, operator.neg, numeric=True)
        if isinstance(node.operator, cst.Plus):
            return _map_options(inner, operator.pos, numeric=True)
        return Value.unknown("expression")

    def guard_for(self, test: cst.BaseExpression, site: Site = END, depth: int = 0) -> Guard:
        """The guard that ``test`` expresses, matched later against the loader's arguments."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.guard_for(test.expression, site, depth).negate()
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            target = test.comparisons[0]
            op = _CMP_OPS.get(type(target.operator))
            if op is not None:
                right = _literal(target.comparator)
                if right is not _NO_LITERAL:
                    return Guard(self.code(test.left), op, right, aliases=self._aliases_of(test.left, site, depth))
                left = _literal(test.left)
                if left is not _NO_LITERAL:
                    subject = target.comparator
                    return Guard(self.code(subject), _FLIPPED[op], left, aliases=self._aliases_of(subject, site, depth))
        return Guard(self.code(test), "truthy", aliases=self._aliases_of(test, site, depth))

    def _aliases_of(self, node: cst.BaseExpression, site: Site, depth: int) -> Tuple[str, ...]:
        if isinstance(node, (cst.Name, cst.Attribute)) and depth < MAX_DEPTH:
            return self.resolve(node, site, depth + 1).aliases
        return ()

    def _resolve_ifexp(self, node: cst.IfExp, site: Site, depth: int) -> Value:
        test = self.resolve(node.test, site, depth + 1)
        constant = test.single is not None and test.source not in CONFIGURABLE
        if constant and not isinstance(test.single.value, (External, ModuleRef)):
            return self.resolve(node.body if test.single.value else node.orelse, site, depth + 1)
        body = self.resolve(node.body, site, depth + 1)
        orelse = self.resolve(node.orelse, site, depth + 1)
        if body.is_unknown or orelse.is_unknown:
            return Value.unknown(body.source or orelse.source)
        guard = self.guard_for(node.test, site, depth)
        if _is_dict(body) and _is_dict(orelse):
            return Value.known(_merge_dicts(body.single.value, orelse.single.value, guard))
        options = [p.with_guard(guard) for p in body.options or ()]
        options += [p.with_guard(guard.negate()) for p in orelse.options or ()]
        return Value(tuple(options), body.source or orelse.source)

    def _resolve_comparison(self, node: cst.Comparison, site: Site, depth: int) -> Value:
        if len(node.comparisons) != 1:
            return Value.unknown("expression")
        op = _CMP_OPS.get(type(node.comparisons[0].operator))
        if op is None:
            return Value.unknown("expression")
        left = self.resolve(node.left, site, depth + 1)
        right = self.resolve(node.comparisons[0].comparator, site, depth + 1)
        configurable = left.source in CONFIGURABLE or right.source in CONFIGURABLE
        if left.single is not None and right.single is not None and not configurable:
            result = Guard("", op, right.single.value).holds(left.single.value)
            return Value.known(result) if result is not None else Value.unknown("expression")
        # ``num_workers > 0``: True exactly when the guard holds.
        guard = self.guard_for(node, site, depth)
        return Value((Possible(True, None, (guard,)), Possible(False, None, (guard.negate(),))))

    def _resolve_binop(self, node: cst.BinaryOperation, site: Site, depth: int) -> Value:
        func = _BINOPS.get(type(node.operator))
        if func is None:
            return Value.unknown("expression")
        left = self.resolve(node.left, site, depth + 1)
        right = self.resolve(node.right, site, depth + 1)
        return _combine([left, right], func, numeric=True)

    def _resolve_boolop(self, node: cst.BooleanOperation, site: Site, depth: int) -> Value:
        left = self.resolve(node.left, site, depth + 1)
        right = self.resolve(node.right, site, depth + 1)
        if left.single is None or right.single is None:
            return Value.unknown(left.source or right.source or "expression")
        a, b = left.single.value, right.single.value
        if isinstance(node.operator, cst.And):
            return Value.known(b if a else a)
        return Value.known(a if a else b)

    # -- calls --------------------------------------------------------------------------------
    def _resolve_call(self, node: cst.Call, site: Site, depth: int) -> Value:
        func = self.resolve(node.func, site, depth + 1)
        target = func.single.value if func.single is not None else None
        if isinstance(target, External):
            return self._resolve_external_call(target.qualname, node, site, depth)
        if isinstance(target, FunctionRef) and target.kind in ("class", "local-class"):
            local = target.kind == "local-class"
            return Value.known(Instance(target.module, target.name, target.line, target.path, local))
        return Value.unknown(func.source if func.source in CONFIGURABLE else "expression")

    def _resolve_external_call(self, qualname: str, node: cst.Call, site: Site, depth: int) -> Value:
        name = qualname[len("builtins.") :] if qualname.startswith("builtins.") else None
        if name in _BUILTIN_FUNCS and all(a.keyword is None and not a.star for a in node.args):
            if name in ("max", "min") and len(node.args) == 1:
                inner = node.args[0].value
                if isinstance(inner, (cst.List, cst.Tuple)) and all(
                    isinstance(e, cst.Element) for e in inner.elements
                ):
                    values = [self.resolve(e.value, site, depth + 1) for e in inner.elements]
                    return _combine(values, lambda *xs: _BUILTIN_FUNCS[name](xs), numeric=True)
                return Value.unknown("expression")
            values = [self.resolve(a.value, site, depth + 1) for a in node.args]
            return _combine(values, _BUILTIN_FUNCS[name], numeric=name != "bool")
        if name == "dict":
            return self._resolve_dict_call(node, site, depth)
        if qualname in ("os.getenv", "os.environ.get", "os.environ.__getitem__"):
            return Value.unknown("environment")
        if qualname in ("os.cpu_count", "multiprocessing.cpu_count", "torch.multiprocessing.cpu_count"):
            return Value.unknown("cpu-count")
        if name == "len" and len(node.args) == 1 and isinstance(node.args[0].value, cst.Call):
            inner = self.resolve(node.args[0].value.func, site, depth + 1)
            if inner.single is not None and getattr(inner.single.value, "qualname", "") == "os.sched_getaffinity":
                return Value.unknown("cpu-count")
        if qualname.rsplit(".", 1)[-1][:1].isupper() and not qualname.startswith("builtins."):
            # Calling a library class gives an instance: not None, whatever else it is.
            return Value.known(Opaque(qualname))
        return Value.unknown("expression")

    def loader_of(self, func: cst.BaseExpression, site: Site, depth: int = 0) -> Optional[LoaderClass]:
        """The loader a call to ``func`` constructs, when every possibility is a loader."""
        value = self._loader_value(func, site, depth)
        if value is None or value.options is None:
            return None
        found = {p.value for p in value.options}
        if len(found) == 1 and isinstance(next(iter(found)), LoaderClass):
            return next(iter(found))
        loaders = [v for v in found if isinstance(v, LoaderClass)]
        if len(loaders) == len(found) and len({lc.preargs for lc in loaders}) == 1:
            return sorted(loaders, key=lambda lc: lc.qualname)[0]
        return None

    def _loader_value(self, func: cst.BaseExpression, site: Site, depth: int) -> Optional[Value]:
        if depth > MAX_DEPTH:
            return None
        if isinstance(func, cst.Call):
            # functools.partial(DataLoader, ...)
            inner = self.resolve(func.func, site, depth + 1)
            if (
                inner.single is not None
                and isinstance(inner.single.value, External)
                and inner.single.value.qualname == "functools.partial"
                and func.args
                and func.args[0].keyword is None
                and not func.args[0].star
            ):
                base = self.loader_of(func.args[0].value, site, depth + 1)
                if base is not None:
                    return Value.known(LoaderClass(base.qualname, base.preargs + tuple(func.args[1:])))
            return None
        if isinstance(func, cst.IfExp):
            a = self._loader_value(func.body, site, depth + 1)
            b = self._loader_value(func.orelse, site, depth + 1)
            if a is None or b is None or a.options is None or b.options is None:
                return None
            return Value(a.options + b.options)
        if isinstance(func, cst.Name):
            scope = self.scopes.get(func)
            assignments = list(scope[func.value]) if scope is not None else []
            if assignments and all(
                isinstance(a, Assignment) and getattr(a, "node", None) in self.index.assigned for a in assignments
            ):
                options: List[Possible] = []
                for assignment, _ in self._reaching(assignments, site):
                    expr, where = self.index.assigned[assignment.node]
                    value = self._loader_value(expr, where, depth + 1)
                    if value is None or value.options is None:
                        return None
                    options.extend(value.options)
                return Value(tuple(options))
        value = self.resolve(func, site, depth + 1)
        if value.options is None:
            return None
        out = []
        for p in value.options:
            target = p.value
            if isinstance(target, External) and target.qualname in self.loader_qualnames:
                out.append(Possible(LoaderClass(target.qualname)))
            elif isinstance(target, FunctionRef) and target.kind == "class":
                qualname = f"{target.module}.{target.name}"
                if qualname not in self.loader_qualnames:  # an ``extra-loaders`` class is one as is
                    qualname = self.project.is_loader_class(target.module, target.name, depth + 1, target.path)
                if qualname is None:
                    return None
                out.append(Possible(LoaderClass(qualname)))
            else:
                return None
        return Value(tuple(out))

    # -- dicts --------------------------------------------------------------------------------
    def _resolve_dict_literal(self, node: cst.Dict, site: Site, depth: int) -> Value:
        entries: Dict[str, Value] = {}
        complete = True
        for element in node.elements:
            if isinstance(element, cst.StarredDictElement):
                inner = self.resolve(element.value, site, depth + 1)
                if not _is_dict(inner):
                    complete = False
                    continue
                merged = inner.single.value
                complete = complete and merged.complete
                entries.update(dict(merged.entries))
                continue
            key = _literal(element.key)
            if not isinstance(key, str):
                complete = False
                continue
            entries[key] = self.resolve(element.value, site, depth + 1)
        return Value.known(DictValue(tuple(entries.items()), complete))

    def _resolve_dict_call(self, node: cst.Call, site: Site, depth: int) -> Value:
        entries: Dict[str, Value] = {}
        complete = True
        for arg in node.args:
            if arg.keyword is not None:
                entries[arg.keyword.value] = self.resolve(arg.value, site, depth + 1)
            else:
                inner = self.resolve(arg.value, site, depth + 1)
                if _is_dict(inner):
                    complete = complete and inner.single.value.complete
                    entries.update(dict(inner.single.value.entries))
                else:
                    complete = False
        return Value.known(DictValue(tuple(entries.items()), complete))

    def _resolve_subscript(self, node: cst.Subscript, site: Site, depth: int) -> Value:
        base = self.resolve(node.value, site, depth + 1)
        if base.single is not None and isinstance(base.single.value, External):
            if base.single.value.qualname == "os.environ":
                return Value.unknown("environment")
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = _literal(node.slice[0].slice.value)
            if _is_dict(base) and isinstance(key, str):
                entry = base.single.value.get(key)
                if entry is not None and all(p.value is not ABSENT for p in entry.options or ()):
                    return entry
        return Value.unknown("config")

    def _apply_mutations(self, value: Value, name: str, start: Site, use: Site, depth: int) -> Value:
        """Apply ``d.update(...)`` / ``d[k] = v`` between the dict's assignment and its use."""
        mutations = self.index.mutations.get((start.scope, name), [])
        current: DictValue = value.single.value
        for kind, node, where in sorted(mutations, key=lambda m: m[2].line):
            if where.line <= start.line:
                continue
            if use is not END and where.line >= use.line and not use.in_loop():
                continue
            if kind == "other":
                return Value.unknown("expression")
            update = self._mutation_entries(kind, node, where, depth)
            if update is None:
                return Value.known(DictValue(current.entries, False))
            dominates = use is not END and where.conds == use.conds[: len(where.conds)] and not where.in_loop()
            guard = None if dominates else self._extra_guard(where, use) if use is not END else None
            current = _overlay(current, update, dominates, guard)
        return Value.known(current)

    def _mutation_entries(self, kind: str, node: cst.CSTNode, where: Site, depth: int) -> Optional[DictValue]:
        if kind == "setitem" and isinstance(node, cst.Assign):
            target = node.targets[0].target
            if isinstance(target, cst.Subscript) and len(target.slice) == 1:
                index = target.slice[0].slice
                key = _literal(index.value) if isinstance(index, cst.Index) else _NO_LITERAL
                if isinstance(key, str):
                    return DictValue(((key, self.resolve(node.value, where, depth + 1)),))
            return None
        if kind == "update" and isinstance(node, cst.Call):
            entries: Dict[str, Value] = {}
            for arg in node.args:
                if arg.keyword is not None:
                    entries[arg.keyword.value] = self.resolve(arg.value, where, depth + 1)
                    continue
                inner = self.resolve(arg.value, where, depth + 1)
                if not _is_dict(inner) or not inner.single.value.complete:
                    return None
                entries.update(dict(inner.single.value.entries))
            return DictValue(tuple(entries.items()))
        return None


_NO_LITERAL = object()
_UNKNOWN_DEFAULT = object()


class _Namespace:
    """Marker value: the result of ``parser.parse_args()``."""


_NAMESPACE = _Namespace()


def _is_parse_args(expr: cst.BaseExpression, known: bool) -> bool:
    """``parser.parse_args()`` (or ``parse_known_args()`` when unpacked / indexed [0])."""
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1:
        index = expr.slice[0].slice
        if isinstance(index, cst.Index) and _literal(index.value) == 0:
            return _is_parse_args(expr.value, known=True)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        attr = expr.func.attr.value
        return attr == "parse_args" or (known and attr in ("parse_known_args", "parse_known_intermixed_args"))
    return False


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
    return isinstance(v, (int, float))


def _is_dict(value: Value) -> bool:
    return value.single is not None and isinstance(value.single.value, DictValue)


def _map_options(value: Value, func: Callable[[Any], Any], numeric: bool = False) -> Value:
    out = []
    for p in value.options or ():
        if numeric and not _is_number(p.value):
            return Value.unknown("expression")
        try:
            out.append(Possible(func(p.value), p.origin, p.guards))
        except Exception:  # noqa: BLE001 - an expression that would raise is not a value
            return Value.unknown("expression")
    return Value(tuple(out), value.source)


def _combine(values: Sequence[Value], func: Callable[..., Any], numeric: bool = True) -> Value:
    """Apply ``func`` over the cartesian product of the operands' possibilities."""
    if any(v.is_unknown for v in values):
        # One operand keeps its kind (``int(os.cpu_count())``); combined, it is an expression
        # (``os.cpu_count() // 2`` is no longer "the core count").
        source = values[0].source if len(values) == 1 else "expression"
        return Value.unknown(source or "expression")
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
    source = next((v.source for v in values if v.source), None)
    return Value(tuple(_dedupe(out)), source)


def _dedupe(options: Sequence[Possible]) -> List[Possible]:
    seen = set()
    out = []
    for p in options:
        key = (repr(p.value), p.origin, p.guards)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _guarded(value: Optional[Value], guard: Optional[Guard]) -> Value:
    """``value`` under ``guard`` (a missing key becomes ABSENT)."""
    if value is None:
        value = Value.known(ABSENT)
    if value.is_unknown or guard is None:
        return value
    return Value(tuple(p.with_guard(guard) for p in value.options or ()), value.source, value.aliases)


def _union(a: Value, b: Value) -> Value:
    if a.is_unknown or b.is_unknown:
        return Value.unknown(a.source or b.source)
    return Value((a.options or ()) + (b.options or ()), a.source or b.source, a.aliases + b.aliases)


def _merge_dicts(a: DictValue, b: DictValue, guard: Guard) -> DictValue:
    """``a if guard else b``, key by key."""
    keys = list(dict(a.entries)) + [k for k in dict(b.entries) if k not in dict(a.entries)]
    entries = tuple(
        (k, _union(_guarded(a.get(k), guard), _guarded(b.get(k), guard.negate()))) for k in keys
    )
    return DictValue(entries, a.complete and b.complete)


def _merge_dict_options(options: Sequence[Possible]) -> DictValue:
    """Several reaching dict assignments: every key may come from any of them."""
    dicts = list(options)
    keys: List[str] = []
    for p in dicts:
        keys += [k for k, _ in p.value.entries if k not in keys]
    entries = []
    for k in keys:
        merged: Optional[Value] = None
        for p in dicts:
            v = p.value.get(k) or Value.known(ABSENT)
            if p.guards and not v.is_unknown:
                v = Value(tuple(Possible(q.value, q.origin, q.guards + p.guards) for q in v.options or ()), v.source)
            merged = v if merged is None else _union(merged, v)
        entries.append((k, merged))
    return DictValue(tuple(entries), all(p.value.complete for p in dicts))


def _overlay(current: DictValue, update: DictValue, dominates: bool, guard: Optional[Guard]) -> DictValue:
    """The dict after ``update`` was applied, always (dominates) or only when ``guard`` holds."""
    entries = dict(current.entries)
    for key, new in update.entries:
        if dominates:
            entries[key] = new
            continue
        old = entries.get(key)
        if guard is None:
            entries[key] = _union(new, old if old is not None else Value.known(ABSENT))
        else:
            entries[key] = _union(_guarded(new, guard), _guarded(old, guard.negate()))
    return DictValue(tuple(entries.items()), current.complete)
