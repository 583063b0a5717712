"""Turn an expression into an abstract Value, proving what can be proven.

Resolution is conservative. What resolves: literals; conditional expressions and comparisons
(which become guarded possibilities); arithmetic and ``int``/``min``/``max``-style builtins over
constants; names, through the assignments that reach the use (several reaching assignments give
a set); module constants of other project modules; argparse defaults (``args.workers``);
``self.x`` set in the class; dicts built for ``**kwargs``. Everything else is unknown, with a
``source`` that says what kind of thing it was (a parameter, a config value, an environment
variable...), because "configurable" matters to DL011.

The resolver works on a ``ModuleIndex`` (``analysis.scopes``): the full index of a module being
linted, or the module-level part rebuilt from another module's summary (``analysis.summary``).
"""

from __future__ import annotations

import ast
import itertools
import operator
import os
import sys
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from dl_lint.analysis.configs.dataclasses import CLI_PARSERS as _CLI_PARSERS
from dl_lint.analysis.configs.dataclasses import DataclassConfig, StoreConfig
from dl_lint.analysis.configs.hydra import LOAD_QUALNAMES, MAIN_QUALNAMES, HydraConfig
from dl_lint.analysis.configs.keypaths import LOADERS as _CONFIG_LOADERS
from dl_lint.analysis.configs.keypaths import WRAPPERS as _CONFIG_WRAPPERS
from dl_lint.analysis.configs.keypaths import LoadedConfig
from dl_lint.analysis.configs.keypaths import edited_config_keys as _edited_config_keys
from dl_lint.analysis.configs.keypaths import opened_call as _opened_call
from dl_lint.analysis.configs.yacs import key_path as yacs_key_path
from dl_lint.analysis.names import absolute_module, project_key
from dl_lint.analysis.library_packages import LIBRARY_PACKAGES
from dl_lint.analysis.libraries import WEBDATASET_DATAPIPELINE, WEBDATASET_KEEPING, WEBDATASET_PIPELINES, WEBDATASET_SAME
from dl_lint.analysis.pickling import CPU_CONSTRUCTORS, DATASET_WRAPPERS, DEVICE_KEEPING, HOLDERS, TENSOR_DATASETS, TORCH_DTYPES, TRANSFORM_HOLDERS, held_callable
from dl_lint.analysis.namespaces import (
    NAMESPACE,
    PARSER,
    ParsedArgs,
    ParserRef,
    edited_attributes,
    expanded_set_defaults,
    namespace_return,
    passed_edits,
    return_paths,
    returned_parameter,
    returns_dicts,
    returns_of,
    static_builder,
)
from dl_lint.analysis.scopes import END, Binding, ModuleIndex, Scope, Site, is_builtin, plain_conds
from dl_lint.analysis.syntax import NO_LITERAL, code, flag_after_dashes, items_loop, literal, parse_expression, terminal
from dl_lint.analysis.values import (
    ABSENT,
    BOUND,
    CONFIGURABLE,
    POSITIVE_SOURCES,
    DictValue,
    External,
    FunctionRef,
    Guard,
    Instance,
    ModuleRef,
    Opaque,
    Origin,
    Possible,
    Value,
    call_shape,
    source_lower_bound,
)
from dl_lint.analysis.loaders import KEPT_BY_TORCH_LOADER, TORCH_LOADER_QUALNAMES
from dl_lint.record import Record

MAX_OPTIONS = 16  # more possibilities than this is as good as unknown
MAX_DEPTH = 24
MAX_COMPREHENSION_ROWS = 16  # entries a dict comprehension over a literal list is read as (``_resolve_dict_comprehension``)

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
    ast.Add: _bounded(operator.add),
    ast.Sub: _bounded(operator.sub),
    ast.Mult: _bounded(operator.mul),
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: _bounded(_bounded_pow),
}
_CMP_OPS: Dict[type, str] = {
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!=", "is": "is", "is not": "is not"}
def _bounded_round(number: Any, ndigits: Any = None) -> Any:
    """``round`` that refuses a digit count it would take long to honour: ``round(29,
    -256508035)`` computes ten to that power (minutes; the fuzzer found it)."""
    if isinstance(ndigits, int) and abs(ndigits) > 400:
        raise OverflowError("too many digits to round to")
    return round(number, ndigits) if ndigits is not None else round(number)


_BUILTIN_FUNCS: Dict[str, Callable[..., Any]] = {
    "int": int,
    "bool": bool,
    "float": float,
    "max": max,
    "min": min,
    "abs": abs,
    "round": _bounded_round,
}
_OPAQUE_CONTAINERS = (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.SetComp, ast.GeneratorExp)
# Functions that make a class at run time (CPython 3.11: ``namedtuple`` sets the class's module
# to its caller's; ``make_dataclass`` and ``NamedTuple(...)`` likewise): called in a function,
# the class exists only there, and pickling an instance fails ("attribute lookup ... failed").
_CLASS_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple", "dataclasses.make_dataclass"})
# Expressions a guard (``if <subject> > 0``) can name, so their source text is an alias of
# their value; for anything else (containers, literals, lambdas) the text is not computed.
_MAX_CODE_LINES = 20  # longer expressions are not written out as guard subjects
_SUBJECTS = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp)
# Bindings the resolver evaluates; the others (parameters, imports, definitions) are not
# ordered by position when deciding what reaches a use.
_SITED = frozenset({"assign", "unpack", "aug"})


# torch.nn.Module methods that return the module itself (``model = Net(...).to(device)``).
MODULE_RETURNS_SELF = frozenset(
    ("to", "cuda", "cpu", "xpu", "mps", "train", "eval", "float", "half", "double", "bfloat16", "requires_grad_", "share_memory")
)
_TORCH_MODULE = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})


class LoaderClass(Record):
    """Something that constructs a torch loader when called: the class itself, a project or
    library subclass, or ``functools.partial(DataLoader, ...)`` (with its pre-bound arguments:
    positional expressions and ``ast.keyword`` nodes, in order). ``qualname``: the torch loader
    at the root; ``chain``: the subclasses' own signatures a call passes through on its way
    there (``analysis.subclasses``), outermost first; empty when the call binds to torch's."""

    __slots__ = ("qualname", "preargs", "chain")

    def __init__(self, qualname: str, preargs: Tuple[ast.AST, ...] = (), chain: Tuple[Any, ...] = ()) -> None:
        self.qualname = qualname
        self.preargs = preargs
        self.chain = chain

    def __hash__(self) -> int:  # signatures hold values: told apart by their classes
        return hash((self.qualname, tuple(map(id, self.preargs)), _chain_key(self.chain)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoaderClass):
            return NotImplemented
        return (
            self.qualname == other.qualname
            and self.preargs == other.preargs
            and _chain_key(self.chain) == _chain_key(other.chain)
        )


def _chain_key(chain: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """What tells two chains of subclass signatures apart (``subclasses.Signature.key``)."""
    return tuple(s.key for s in chain)


class ProjectHook:
    """What the resolver may ask of the rest of the project (see ``analysis.project``)."""

    def import_value(self, module: str, name: str, depth: int, near: str = "") -> Value:  # pragma: no cover
        return Value.unknown("import")

    def module_exists(self, module: str) -> bool:  # pragma: no cover - interface
        return False

    def star_exports(self, module: str, name: str, depth: int, near: str = "") -> Optional[bool]:  # pragma: no cover
        """Whether ``from module import *`` binds ``name`` (None: unknown)."""
        return None

    def read_config_file(self, path: str) -> None:  # pragma: no cover - interface
        """An mmengine ``_base_`` file was read: the answer rests on its bytes."""

    def module_path(self, module: str, near: str = "") -> Optional[str]:  # pragma: no cover - interface
        return None

    def is_loader_class(self, module: str, name: str, depth: int, near: str = "") -> Optional["LoaderClass"]:  # pragma: no cover
        return None

    def may_name_loader_class(self, name: str, extra_names: Sequence[str] = ()) -> bool:  # pragma: no cover
        return True

    def batch_transfers(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, int, int, int], ...]:  # pragma: no cover
        """DL306: the parameters a function of another module iterates with non-blocking
        copies of the batches (``summary.FunctionRecord.transfers``)."""
        return ()

    def batch_handoffs(self, module: str, name: str, near: str = "") -> Tuple[Any, ...]:  # pragma: no cover
        """DL306: where imported functions a function's loops hand the batches to copy them."""
        return ()

    def method_handoffs(self, module: str, name: str, near: str = "") -> Tuple[Any, ...]:  # pragma: no cover
        """DL306: the methods of another parameter a function's loops hand the batches to."""
        return ()

    def function_copy(self, ref: Any, positions: Tuple[int, ...], near: str, depth: int = 1) -> Optional[Tuple[str, int, int]]:  # pragma: no cover
        """DL306: where a project function copies one of its parameters non-blocking."""
        return None

    def method_copy(self, instance: Any, method: str, positions: Tuple[int, ...], near: str) -> Optional[Tuple[str, int, int]]:  # pragma: no cover
        """DL306: where a method of a project object copies one of its parameters non-blocking."""
        return None

    def summary(self, module: str, near: str = "") -> Any:  # pragma: no cover
        """Another module's summary (none without a project)."""
        return None

    def config_composed(self, config: Any, near: str = "") -> Any:
        """The composed Hydra config of a ``HydraConfig`` (``analysis.configs.hydra.Composed``),
        its YAML files read once per run (the project caches them, records them as
        dependencies of the file being linted, and keeps the broken ones for ``near``, the
        Python file that reached them)."""
        from dl_lint.analysis.configs.hydra import compose

        return compose(config, lambda path: None)  # no project: no file is read (unknown)

    def keypath_files(self, script: str, named: Sequence[str], fixed: bool, dialect: str) -> Tuple[str, ...]:
        """The files a config a script loads itself may be (``analysis.configs.keypaths``)."""
        return ()  # no project: no file is read (unknown)

    def keypath_lookup(self, config: Any, names: Optional[Sequence[str]] = None) -> Any:
        """What a loaded config's key path holds over its runs (``keypaths.lookup`` / ``spread``)."""
        return ("unknown", None) if names is None else None


def _library_class(qualname: str, loader_qualnames: frozenset) -> bool:
    """Whether ``qualname`` is a library class dl-lint knows by name (torch's loaders, an
    ``extra-loaders`` class, a row of the library loader table): what a star import of its
    module binds, though the module's other names are unknown."""
    if qualname in loader_qualnames:
        return True
    if qualname.split(".", 1)[0] not in LIBRARY_PACKAGES:
        return False
    from dl_lint.analysis.library_loaders import library_loader

    return library_loader(qualname) is not None


def import_base(node: ast.ImportFrom) -> str:
    return "." * (node.level or 0) + (node.module or "")


class Resolver:
    """Resolves expressions of one module."""

    def __init__(
        self,
        index: ModuleIndex,
        path: str,
        module_name: str,
        is_package: bool,
        project: Optional[ProjectHook] = None,
        loader_qualnames: frozenset = frozenset(),
    ) -> None:
        self.index = index
        self.path = path
        self.module_name = module_name
        self.is_package = is_package
        self.project = project or ProjectHook()
        self.loader_qualnames = loader_qualnames
        self.current_class: Optional[str] = None
        self.param_env: Dict[int, Value] = {}  # id(ast.arg) -> its value at a call site
        self._params_as_defaults = False
        self._code_cache: Dict[int, str] = {}
        self._changed: Dict[int, Tuple[ast.AST, frozenset]] = {}  # ``_may_change``'s walks
        self._library_built_of: Dict[str, bool] = {}  # ``_builds_in_every_return``, by function
        self._starred: Dict[str, Optional[Value]] = {}  # ``starred``: one answer per name
        self._argparse: Optional[Dict[str, List[Possible]]] = None
        self._foreign: Optional[List[Tuple[Any, ast.Call]]] = None  # ``_foreign_arguments``
        self._dict_flags: Optional[List[Tuple[str, Possible]]] = None  # ``_dict_flag_arguments``
        self._simple_parsing: Optional[Dict[str, Any]] = None  # ``_simple_parsing_dests``
        self._decorated: Optional[Dict[int, ast.AST]] = None  # see _hydra_config
        self._stored_nodes: Optional[Tuple[Tuple[str, str, Any], ...]] = None  # see _stored_groups
        self._namespace_stores: Dict[str, Any] = {}  # class name -> ``_namespace_store`` (this module's classes)
        self._with_targets: Optional[Dict[int, ast.AST]] = None  # see _opened_path
        self._with_loops: Optional[Dict[int, ast.AST]] = None  # see _dataclass_arguments
        self._setattr_shapes: Dict[int, Any] = {}  # id(class) -> its ``setattr_configs.setattr_shape``
        self._rewriter_calls: Dict[str, bool] = {}  # ``_handed_to_rewriter``
        self._object_edits: Optional[Tuple[Set[str], Dict[str, Set[Tuple[str, Optional[int]]]], Dict[str, Optional[Set[str]]]]] = None  # see _object_edits_of
        self._loads_configs: Optional[bool] = None  # see _may_load_configs
        self._namespaces: Dict[Tuple[str, str], Tuple[Optional[int], Tuple[str, ...]]] = {}  # see namespace_kind
        self._option_parses: Dict[Tuple[str, str, str, str], Optional[ParsedArgs]] = {}  # see option_parse
        self._chains: Dict[Tuple[Tuple[str, str, str], ...], Dict[str, List[Possible]]] = {}
        self._edits_by_function: Optional[List[Tuple[ast.AST, Set[str]]]] = None  # see _set_elsewhere
        self._factories: Dict[Tuple[str, str], Optional[Value]] = {}  # see _factory_result
        self._last_receiver: Optional[Tuple[ast.AST, Value]] = None  # ``_read_attribute``: the base it resolved last
        self._removals: Dict[Tuple[int, str], Optional[FrozenSet[int]]] = {}  # see _left_whole
        self._list_adds: Optional[Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]]] = None  # see _added_always
        self._writes_by_name: Optional[Dict[Tuple[int, str], List[Tuple[str, Optional[ast.expr], Site]]]] = None  # _written_holds
        self._written_callables: Dict[Tuple[int, int], List[Tuple[str, Site, Tuple[str, str, int]]]] = {}  # _kept_by_writes
        self._global_writes: Optional[Dict[str, Any]] = None  # ``_global_dict_writes``
        self._cli: Optional[Dict[int, Value]] = None  # ``_cli_params``
        self._subscript_keys: Set[int] = set()  # ``_resolve_subscript``: keys being resolved
        self._assigns: Dict[int, Dict[int, ast.Assign]] = {}  # see _unpacking
        self._changed_dicts: Dict[Tuple[int, str, Optional[int]], bool] = {}  # see _dict_changed
        self.tree: Optional[ast.AST] = None  # the module's tree, when parsed (not from a summary)

    # -- helpers ------------------------------------------------------------------------------
    def code(self, node: ast.AST) -> str:
        key = id(node)
        found = self._code_cache.get(key)
        if found is None:
            if (getattr(node, "end_lineno", None) or 0) - getattr(node, "lineno", 0) > _MAX_CODE_LINES:
                found = f"<expression at {node.lineno}:{node.col_offset}>"  # no guard names this
            else:
                found = code(node)
            self._code_cache[key] = found
        return found

    @staticmethod
    def line(node: ast.AST) -> int:
        return getattr(node, "lineno", 0)

    def absolute(self, module: str) -> str:
        return absolute_module(module, self.module_name, self.is_package)

    def lookup(self, name: str, site: Site) -> Tuple[Optional[Scope], List[Binding]]:
        scope = site.names if site.names is not None else self.index.module_scope
        return scope.lookup(name)

    def forget(self) -> None:
        """Drop what this resolver remembers (its module's analysis is being released)."""
        self.param_env = {}
        self._code_cache.clear()
        self._decorated = None
        self._stored_nodes = None
        self._namespace_stores = {}
        self._with_targets = None
        self._with_loops = None
        self._object_edits = None
        self._rewriter_calls = {}
        self._setattr_shapes = {}
        self._simple_parsing = None
        self._factories = {}
        self._namespaces = {}
        self._starred = {}
        self._edits_by_function = None
        self._assigns = {}
        self._changed_dicts = {}
        self._changed = {}
        self._library_built_of = {}
        self._writes_by_name = None
        self._written_callables = {}
        self._global_writes = None
        self._cli = None

    # -- entry point --------------------------------------------------------------------------
    def resolve(self, node: ast.AST, site: Site = END, depth: int = 0) -> Value:
        if depth > MAX_DEPTH:
            return Value.unknown("expression")
        value = self._resolve(node, site, depth)
        if value.options is not None and len(value.options) > MAX_OPTIONS:
            return Value.unknown("expression").with_aliases(*value.aliases)
        if not isinstance(node, _SUBJECTS) or literal(node) is not NO_LITERAL:
            return value  # not something a guard can test (a literal, a container, a lambda)
        return value.with_aliases(self.code(node))

    def _resolve(self, node: ast.AST, site: Site, depth: int) -> Value:
        kind = type(node)
        if kind is ast.Constant:
            if node.value is Ellipsis:
                return Value.unknown("expression")
            return Value.known(node.value)
        if kind is ast.Name:
            return self._resolve_name(node, site, depth)
        if kind is ast.Attribute:
            return self._resolve_attribute(node, site, depth)
        if kind is ast.UnaryOp:
            return self._resolve_unary(node, site, depth)
        if kind is ast.IfExp:
            return self._resolve_ifexp(node, site, depth)
        if kind is ast.Compare:
            return self._resolve_comparison(node, site, depth)
        if kind is ast.BinOp:
            return self._resolve_binop(node, site, depth)
        if kind is ast.BoolOp:
            return self._resolve_boolop(node, site, depth)
        if kind is ast.Lambda:
            return Value.known(FunctionRef("lambda", self.module_name, "<lambda>", self.line(node), self.path))
        if kind is ast.Call:
            return self._resolve_call(node, site, depth)
        if kind is ast.Dict:
            return self._resolve_dict_literal(node, site, depth)
        if kind is ast.DictComp:
            return self._resolve_dict_comprehension(node, site, depth)
        if isinstance(node, _OPAQUE_CONTAINERS):
            return Value.known(Opaque(f"builtins.{kind.__name__.lower()}"))  # exists: not None
        if kind is ast.Subscript:
            return self._resolve_subscript(node, site, depth)
        if kind is ast.JoinedStr:
            return self._resolve_fstring(node, site, depth)
        return Value.unknown("expression")

    def _resolve_fstring(self, node: ast.JoinedStr, site: Site, depth: int) -> Value:
        """``f"cuda:{CUDA_DEVICE}"``: the text, when every value formatted in it is a known
        constant (one text per combination of their possibilities, at most ``MAX_OPTIONS``,
        under their guards; configurable when one of them is). Unknown otherwise."""
        combos: List[Tuple[str, Optional[Origin], Tuple[Guard, ...]]] = [("", None, ())]
        source: Optional[str] = None
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                combos = [(text + part.value, origin, guards) for text, origin, guards in combos]
                continue
            if not isinstance(part, ast.FormattedValue):
                return Value.unknown("expression")
            spec = ""
            if part.format_spec is not None:
                pieces = getattr(part.format_spec, "values", None)
                if pieces is None or not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in pieces):
                    return Value.unknown("expression")
                spec = "".join(p.value for p in pieces)
            value = self.resolve(part.value, site, depth + 1)
            if value.is_unknown or not value.options:
                return Value.unknown(value.source if value.source in CONFIGURABLE else "expression")
            if value.source in CONFIGURABLE and source is None:
                source = value.source
            texts = []
            for option in value.options:
                item = option.value
                if item is ABSENT or not isinstance(item, (str, int, float, bool, type(None))):
                    return Value.unknown("expression")
                if part.conversion == ord("r"):
                    item = repr(item)
                elif part.conversion == ord("a"):
                    item = ascii(item)
                elif part.conversion == ord("s"):
                    item = str(item)
                try:
                    texts.append((format(item, spec), option.origin, option.guards))
                except (ValueError, TypeError):  # ``f"{x:d}"`` of a str raises when it runs
                    return Value.unknown("expression")
            combos = [
                (text + piece, origin or where, guards + more)
                for text, origin, guards in combos
                for piece, where, more in texts
            ]
            if len(combos) > MAX_OPTIONS:
                return Value.unknown("expression")
        return Value(tuple(Possible(text, origin, guards) for text, origin, guards in combos), source)

    # -- names --------------------------------------------------------------------------------
    def _reaching(self, bindings: Sequence[Binding], site: Site, depth: int = 0) -> List[Tuple[Binding, Tuple[Guard, ...]]]:
        """The bindings that can reach ``site``, each with the guards it holds under (its own,
        if a single ``if`` separates it from the use; the negations of later such bindings').
        ``depth``: the resolution's, which the guards' tests are read at (read from 0, a name
        bound in its own test's branches recursed without end: a notebook's cells)."""
        if len(bindings) > 1 and site is not END and any(b.kind == "other" for b in bindings) and not site.in_loop():
            # a loop variable (``with``/``except`` target, walrus) of this scope bound after the
            # use, in straight-line code, cannot reach it (``worker_init_fn=data.worker_init_fn``,
            # then ``for it, data in enumerate(loader)``)
            earlier = [
                b for b in bindings
                if b.kind != "other" or b.site is None or b.site.scope is not site.scope or b.site.line <= site.line
            ]
            if earlier:
                bindings = earlier
        sites = [b.site if b.kind in _SITED else None for b in bindings]
        if any(s is not None and s.scope is site.scope for s in sites) and site.scope is not None:
            # ``def main(args): args = parse_args()``: the parameters of the function the name
            # is assigned in are bound on entry, before any of its statements.
            entry = Site(0, (), site.scope)
            sites = [entry if b.kind == "param" else s for b, s in zip(bindings, sites)]
        same = all(s is not None and s.scope is site.scope for s in sites)
        if not same or site.in_loop() or site is END:
            return [(b, ()) for b in bindings]
        before = sorted(
            ((b, s) for b, s in zip(bindings, sites) if s.line < site.line), key=lambda pair: pair[1].line
        )
        if not before:
            return [(b, ()) for b in bindings]
        chosen: List[Tuple[Binding, Tuple[Guard, ...]]] = []
        use_conds = plain_conds(site.conds)
        # ``extra = {}`` then ``if nw > 0: extra = {...}``: the earlier binding reaches the use
        # only where the later one's ``if`` did not hold (the negations of the guards of the
        # later bindings one ``if`` deeper than the use).
        overridden: List[Guard] = []
        for binding, where in reversed(before):
            conds = plain_conds(where.conds)
            if conds == use_conds[: len(conds)]:
                chosen.append((binding, tuple(g.negate() for g in overridden)))
                break  # dominates: nothing earlier reaches
            guard = self._extra_guard(where, site, depth)
            if guard is not None and _tests_itself(guard, binding.name):
                # ``if bs == -1: bs = 36``: the test reads the value before the assignment, so it
                # is decided on the earlier bindings' values (``_PriorTest``), and those reach the
                # use only where it failed on them
                chosen.append((binding, (_PriorTest(guard), *(g.negate() for g in overridden))))
            else:
                chosen.append((binding, (guard, *(g.negate() for g in overridden)) if guard is not None else ()))
            if guard is not None:
                overridden.append(guard)
        return chosen

    def _extra_guard(self, where: Site, use: Site, depth: int = 0) -> Optional[Guard]:
        where_conds, use_conds = plain_conds(where.conds), plain_conds(use.conds)
        common = 0
        while common < min(len(where_conds), len(use_conds)) and where_conds[common] == use_conds[common]:
            common += 1
        extra = where_conds[common:]
        # The use may sit under conditions of its own (``if use_wds: ds = ...`` then, in another
        # ``if use_wds:``, ``WebLoader(ds, ...)``): the binding's guard holds for its value all
        # the same, and the use's own tests (``holds``) rule out the values they contradict.
        if len(extra) == 1 and extra[0].kind == "if":
            guard = self.guard_for(extra[0].test, END, depth)
            return guard if extra[0].polarity else guard.negate()
        return None

    def _resolve_name(self, node: ast.Name, site: Site, depth: int) -> Value:
        _, bindings = self.lookup(node.id, site)
        if not bindings:
            if self.index.star_import and not is_builtin(node.id):
                starred = self.starred(node.id, depth)
                if starred is not None:
                    return starred
            # A builtin, or a name bound nowhere here (a NameError, or a global set at run time
            # by other code): an object that exists, whatever else it is.
            return Value.known(External(f"builtins.{node.id}"))
        options: List[Possible] = []
        aliases: List[str] = []
        source: Optional[str] = None
        reaching = self._reaching(bindings, site, depth)
        resolved: List[Tuple[Tuple[Any, ...], Value]] = []
        for binding, guards in reaching:
            value = self.resolve_binding(binding, node.id, site, depth)
            if value.is_unknown:
                return Value.unknown(value.source).with_aliases(*value.aliases)
            resolved.append((guards, value))
        for index, (guards, value) in enumerate(resolved):
            source = source or value.source
            tests = [g.guard for g in guards if isinstance(g, _PriorTest)]
            if tests and not _may_pass(tests, [p for _, earlier in resolved[index + 1 :] for p in earlier.options or ()]):
                continue  # no value before the assignment passes its test: the branch never runs
            for p in value.options or ():
                kept: Optional[Possible] = p
                for guard in guards:
                    if isinstance(guard, _PriorTest):
                        continue
                    if _tests_itself(guard, node.id):  # a later test of this very value: decided on it
                        decided = guard.holds(p.value)
                        if decided is False:
                            kept = None
                            break
                        if decided:
                            continue
                    kept = kept.with_guard(guard)
                if kept is not None:
                    options.append(kept)
            aliases.extend(value.aliases)
        if len(reaching) > 1:
            options = _dedupe(options)
            if all(isinstance(p.value, DictValue) for p in options):
                options = [Possible(_merge_dict_options(options))]
            elif len(options) > 1 and isinstance(options[0].value, Instance) and all(p.value == options[0].value for p in options):
                # the same object on every path (``model = helper(model)`` under ``if``s, each
                # handing it back): one possibility, whatever the path
                options = [Possible(options[0].value, options[0].origin)]
        return Value(tuple(options), source).with_aliases(*aliases)

    def resolve_binding(self, binding: Binding, name: str, use: Site, depth: int) -> Value:
        kind = binding.kind
        if kind == "import":
            return self._resolve_import(binding, depth)
        if kind == "param":
            value = self._resolve_param(binding, depth)
            if binding.index == -1 and value.single is not None and isinstance(value.single.value, DictValue):
                # ``**kwargs`` bound at a call: its edits in the function (``kwargs.update``,
                # ``kwargs["k"] = v``; a ``pop`` makes it unknown), as for a local dict.
                function = use.scope
                if function is None or getattr(getattr(function, "args", None), "kwarg", None) is not binding.node:
                    return Value.unknown("parameter")  # read from a nested function: not followed
                start = Site(getattr(function, "lineno", 0), (), function)
                value = self._apply_mutations(value, name, start, use, depth)
            return value
        if kind == "class":
            local = "local-class" if binding.nested else "class"
            return Value.known(FunctionRef(local, self.module_name, name, binding.site.line, self.path))
        if kind == "def":
            nested = "nested" if binding.nested else "function"
            return Value.known(FunctionRef(nested, self.module_name, name, binding.site.line, self.path))
        if kind == "assign" and binding.value is not None:
            where = binding.site
            value = self.resolve(binding.value, where, depth + 1)
            single = value.single
            if single is not None and isinstance(single.value, HydraConfig) and single.value.plain and not single.value.keys:
                # ``cfg = OmegaConf.load(...)``: trusted only where the whole module can be seen
                # to leave it alone (no ``cfg.x = ...``, ``cfg.merge_with_cli()``, ...).
                if self.tree is None:
                    return Value.unknown("config")
                edited = _edited_config_keys(self.tree, name, skip=binding.value)
                return Value.known(single.value.replace(edited=edited)).with_aliases(*value.aliases)
            if single is not None and isinstance(single.value, LoadedConfig) and not single.value.keys:
                # ``cfg = yaml.safe_load(f)``: as ``OmegaConf.load``, trusted only where the module
                # can be seen to leave it alone; keys it sets are not the files' values.
                if self.tree is None:
                    return Value.unknown("config")
                edited = _edited_config_keys(self.tree, name, skip=binding.value)
                edited = tuple(sorted({*single.value.edited, *edited}))  # a helper's edits stay
                return Value.known(single.value.replace(edited=edited)).with_aliases(*value.aliases)
            if value.single is not None and isinstance(value.single.value, DictValue):
                value = self._apply_mutations(value, name, where, use, depth)
            if single is not None and isinstance(single.value, DataclassConfig):
                # A dataclass instance is mutable: trusted only where the module never sets a
                # field of the name nor hands the object to a function.
                within = where.scope if where.scope is not None else self.tree  # a local: its function
                if isinstance(single.value, StoreConfig) and "__setitem__" not in single.value.writers:
                    pass  # a keyword store: every write of a key is looked for where it is read (``_store_entry_holds``)
                elif within is None or _edited_config_keys(within, name, skip=binding.value) or _handed_over(within, name):
                    known = single.value  # still an instance of its class; its fields unknown
                    return Value.known(Instance(known.module, known.name, known.line, known.path, known.local))
            if single is not None and use is not END and self.index.attr_writes:
                written = self._written_holds(binding, name, single.value, use, depth)
                if written is not None:  # ``dataset.target_transform = remap`` before the use
                    return Value((Possible(written, single.origin, single.guards),), value.source).with_aliases(*value.aliases)
            return value
        if kind == "unpack" and binding.value is not None:
            if binding.index == 0 and _is_parse_args(binding.value, known=True):
                return Value.known(_NAMESPACE)
            if isinstance(binding.value, ast.Call):  # ``args, args_text = _parse_args()``
                func = self.resolve(binding.value.func, binding.site or END, depth + 1).single
                target = func.value if func is not None else None
                if isinstance(target, FunctionRef) and target.kind == "function" and self.namespace_kind(target) == binding.index:
                    return Value.known(self.parsed_by(target))
                if isinstance(target, (FunctionRef, External)) and binding.site is not None:
                    # ``model, optimizer, lr, it = load_checkpoint(path, model, optimizer)``
                    handed = self._unpacked_argument(target, binding, depth)
                    if handed is not None:
                        return handed
                if isinstance(target, FunctionRef) and target.kind == "nested" and binding.site is not None:
                    statement = self._unpacking(binding)  # ``train_set, val_set = build(args)``, ``build`` nested
                    if statement is not None:
                        built = self._nested_factory(binding.value, binding.site, depth, (binding.index, len(statement.targets[0].elts)))
                        if built is not None:
                            return built
                if isinstance(target, FunctionRef) and target.kind == "function" and target.path and binding.site is not None:
                    # ``train_set, val_set = build_datasets(args)``: the element built at that place,
                    # by a function of this module or another
                    statement = self._unpacking(binding)
                    if statement is not None and not any(isinstance(a, ast.Starred) for a in binding.value.args):
                        width = len(statement.targets[0].elts)
                        if target.path == self.path:
                            built = self._factory_value(target, binding.value, binding.site, depth, (binding.index, width))
                        else:
                            built = self._foreign_factory(target, binding.value, binding.site, depth, (binding.index, width))
                        if built is not None:
                            return built
            if isinstance(binding.value, (ast.Tuple, ast.List)) and binding.site is not None:
                # ``model, config = self.model, self.config`` (minGPT's ``Trainer.train``): the
                # element at the name's place, both sides of one length without ``*``
                statement = self._unpacking(binding)
                elts = binding.value.elts
                if (
                    statement is not None
                    and len(statement.targets[0].elts) == len(elts)
                    and not any(isinstance(e, ast.Starred) for e in elts)
                    and 0 <= binding.index < len(elts)
                ):
                    return self.resolve(elts[binding.index], binding.site, depth + 1)
            return self._hf_dataclass(binding.value, binding.index, binding.site, depth) or Value.unknown("expression")
        if kind == "other" and id(binding.node) in self.param_env:
            return self.param_env[id(binding.node)]  # a loop target, bound to one row of its table
        return Value.unknown("expression")

    def _resolve_param(self, binding: Binding, depth: int) -> Value:
        key = id(binding.node)
        if key in self.param_env:
            return self.param_env[key]
        name = binding.name
        hydra = self._hydra_config(binding)
        if hydra is not None:
            return Value.known(hydra).with_aliases(name)
        option = self._cli_params().get(key)
        if option is not None:
            return option.with_aliases(name)
        if self._params_as_defaults and binding.value is not None:
            default = self.resolve(binding.value, binding.site, depth + 1)
            if default.is_unknown and default.source in POSITIVE_SOURCES:
                # ``num_data_loader_workers=mp.cpu_count()``: at least 1 wherever the default holds
                return Value.unknown(default.source).with_aliases(name)
            if default.is_unknown:
                return Value.unknown("parameter").with_aliases(name)
            origin = Origin(f"default of parameter {name}", self.path, self.line(binding.node))
            return Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()), "parameter")
        return Value.unknown("parameter").with_aliases(name)

    def _cli_params(self) -> Dict[int, Value]:
        """The parameters a command-line framework fills from the command line, with the value
        each holds when the command line does not give it, as an argparse option's default is
        (``_parse_add_argument``): a configurable value. id of the parameter's node -> Value.
        Click commands (``_click_into``), functions and classes handed to ``fire.Fire``
        (``_fire_into``), Typer commands (``_typer_into``). Built once per module."""
        if self._cli is None:
            self._cli = {}
            functions = self.index.module_functions
            if functions:
                self._click_into(self._cli)
                self._fire_into(self._cli)
                self._typer_into(self._cli)
        return self._cli

    def _click_into(self, found: Dict[int, Value]) -> None:
        """Click commands (a top-level function decorated with ``@click.command()``/
        ``@click.group()``, or a group's ``.command()``, and ``@click.option``/
        ``@click.argument``): each declared parameter holds its option's default."""
        groups: Optional[Set[str]] = None  # the module's functions decorated ``@click.group()``
        for function in self.index.module_functions:
            decorators = [d for d in function.decorator_list if isinstance(d, ast.Call)]
            if not decorators or not any(terminal(d.func) in ("option", "argument") for d in decorators):
                continue  # no option: nothing to give (the callee's own name, before resolving it)
            if groups is None:
                groups = {
                    f.name for f in self.index.module_functions
                    if any(isinstance(d, ast.Call) and terminal(d.func) == "group" and self._qualname_of(d.func, END, 1) == "click.group" for d in f.decorator_list)
                }
            if not any(self._is_click_command(d, groups) for d in decorators):
                continue
            params = {a.arg: a for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
            for decorator in decorators:
                kind = self._qualname_of(decorator.func, END, 1) if terminal(decorator.func) in ("option", "argument") else None
                if kind not in ("click.option", "click.argument"):
                    continue
                option = _click_default(decorator, kind == "click.argument", self)
                if option is not None and option[0] in params:
                    found[id(params[option[0]])] = option[1]

    def _fire_into(self, found: Dict[int, Value]) -> None:
        """``fire.Fire(main)``, ``fire.Fire({"train": train, ...})``, ``fire.Fire(Runner)``:
        the parameters of the functions it exposes (a class: its ``__init__`` and its public
        methods) hold their defaults, which the command line may replace (fire 0.7.1, checked
        by running it: ``Fire(main, command=[])`` calls ``main()``; ``Fire(Runner,
        command=["train"])`` calls ``Runner().train()``). A parameter without a default is given
        on the command line. Not a function the program also calls itself (its calls give its
        arguments), nor every function of the module that ``fire.Fire()`` exposes (helpers
        among them)."""
        targets: List[ast.AST] = []
        for call, _, _, _ in self.index.calls:
            if terminal(call.func) != "Fire" or self._qualname_of(call.func, END, 1) != "fire.Fire":
                continue
            given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "component"), None)
            names = []
            if isinstance(given, ast.Name):
                names.append(given.id)
            elif isinstance(given, ast.Dict):
                names.extend(v.id for v in given.values if isinstance(v, ast.Name))
            for name in names:
                targets.extend(f for f in self.index.module_functions if f.name == name)
                for cls in (c for c in self.index.module_classes if c.name == name):
                    targets.extend(
                        m for m in cls.body
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and (m.name == "__init__" or not m.name.startswith("_"))
                    )
        called = self._called_names() if targets else set()
        for function in targets:
            if function.name in called:
                continue  # also called by the program itself, with its own arguments
            for arg, default in self._defaulted_params(function):
                value = self._cli_default(default, f"--{arg.arg} (fire.Fire)")
                if value is not None:
                    found[id(arg)] = value

    def _typer_into(self, found: Dict[int, Value]) -> None:
        """Typer commands: a function decorated with ``@app.command()`` (or ``.callback()``) of
        an ``app = typer.Typer(...)``, or handed to ``typer.run``. A parameter's default is its
        value, or the default given to ``typer.Option``/``typer.Argument`` (``typer.Option(0)``,
        ``typer.Option(default=0)``; ``...`` makes it required); with ``Annotated[int,
        typer.Option(...)] = 0`` the plain default (typer 0.29.2, checked by running it)."""
        apps = set()
        for name, bindings in self.index.module_scope.bindings.items():
            value = bindings[0].value if len(bindings) == 1 and bindings[0].kind == "assign" else None
            # the callee's own name first: resolving every module-level call's callee cost a third
            # of a second in a module of 10,000 ``xN = f(N)`` lines
            if isinstance(value, ast.Call) and terminal(value.func) == "Typer" and self._qualname_of(value.func, END, 1) == "typer.Typer":
                apps.add(name)
        commands = set()
        for function in self.index.module_functions:
            for decorator in function.decorator_list:
                func = decorator.func if isinstance(decorator, ast.Call) else None
                if isinstance(func, ast.Attribute) and func.attr in ("command", "callback") and isinstance(func.value, ast.Name) and func.value.id in apps:
                    commands.add(function.name)
        for call, _, _, _ in self.index.calls:
            if terminal(call.func) == "run" and call.args and isinstance(call.args[0], ast.Name) and self._qualname_of(call.func, END, 1) == "typer.run":
                commands.add(call.args[0].id)
        called = self._called_names() if commands else set()
        for function in self.index.module_functions:
            if function.name not in commands or function.name in called:
                continue  # (a command the program also calls itself gets that call's arguments)
            for arg, default in self._defaulted_params(function):
                if isinstance(default, ast.Call) and self._qualname_of(default.func, END, 1) in ("typer.Option", "typer.Argument"):
                    inner = default.args[0] if default.args else next((k.value for k in default.keywords if k.arg == "default"), None)
                    if inner is None or (isinstance(inner, ast.Constant) and inner.value is Ellipsis):
                        found[id(arg)] = Value.unknown("argparse")  # required, or None
                        continue
                    default = inner
                value = self._cli_default(default, f"--{arg.arg.replace('_', '-')} (typer)")
                if value is not None:
                    found[id(arg)] = value

    def _called_names(self) -> Set[str]:
        """The names the module calls as ``name(...)`` or ``obj.name(...)``."""
        found = set()
        for call, _, _, _ in self.index.calls:
            if isinstance(call.func, ast.Name):
                found.add(call.func.id)
            elif isinstance(call.func, ast.Attribute):
                found.add(call.func.attr)
        return found

    def _defaulted_params(self, function: ast.AST) -> List[Tuple[ast.arg, ast.expr]]:
        """Each parameter of ``function`` that has a default, with it (the index's parameter
        bindings)."""
        scope = self.index.scopes.get(id(function))
        if scope is None:
            return []
        return [(b.node, b.value) for bindings in scope.bindings.values() for b in bindings if b.kind == "param" and b.value is not None]

    def _cli_default(self, default: ast.expr, shown: str) -> Optional[Value]:
        """A command-line parameter's default as a configurable value (a number, a string or a
        bool; anything else unknown)."""
        value = self.resolve(default, END, 1).single
        if value is None or not isinstance(value.value, (int, float, str, bool)):
            return Value.unknown("argparse")
        return Value((Possible(value.value, Origin(f"default of {shown}", self.path, self.line(default))),), "argparse")

    def _is_click_command(self, decorator: ast.Call, groups: Set[str]) -> bool:
        """``@click.command(...)``, ``@click.group(...)``, or ``@GROUP.command(...)`` on a name
        bound to a click group (``cli = click.Group()``, or one of ``groups``, the functions
        decorated ``@click.group()``)."""
        func = decorator.func
        if terminal(func) not in ("command", "group"):
            return False
        kind = self._qualname_of(func, END, 1)
        if kind in ("click.command", "click.group"):
            return True
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id in groups:
                return True
            return self._qualname_of(func.value, END, 1) in ("click.Group", "click.core.Group")
        return False

    def _hydra_config(self, binding: Binding) -> Optional[Any]:
        """The config a ``@hydra.main(config_path=..., config_name=...)`` function receives as
        its first parameter (``analysis.configs.hydra``); None for any other parameter."""
        if binding.index != 0 or binding.value is not None:
            return None
        if self._decorated is None:  # first parameters of top-level functions with a called decorator
            self._decorated = {}
            for function in self.index.module_functions:
                args = function.args
                first = (args.posonlyargs or args.args or [None])[0]
                if first is not None and any(isinstance(d, ast.Call) for d in function.decorator_list):
                    self._decorated[id(first)] = function
        function = self._decorated.get(id(binding.node))
        if function is not None:
            for decorator in function.decorator_list:
                if not isinstance(decorator, ast.Call):
                    continue
                if self._qualname_of(decorator.func, END, 1) in MAIN_QUALNAMES:
                    written = {k.arg: k.value for k in decorator.keywords if k.arg}
                    for position, key in enumerate(("config_path", "config_name")):
                        if position < len(decorator.args):
                            written[key] = decorator.args[position]
                    given = {}
                    for key, expr in written.items():  # a literal, a module constant, os.path.join of them
                        given[key] = self._config_text(expr)
                else:
                    wrapped = self._hydra_wrapper(decorator)
                    if wrapped is None:
                        continue
                    given = wrapped
                config_path, config_name = given.get("config_path"), given.get("config_name")
                if isinstance(config_name, str) and not (isinstance(config_path, str) and self._yaml_primary(config_path, config_name)):
                    # no YAML primary config: a structured config stored with ConfigStore, if any
                    return self._stored_config(config_name, function, binding.name)
                if not isinstance(config_path, str) or not isinstance(config_name, str):
                    return None  # no config file, or one named by an expression
                if config_path.startswith("pkg://") or not self.path:
                    return None
                here = os.path.dirname(os.path.abspath(self.path))
                search = os.path.normpath(os.path.join(here, config_path))
                edited = _edited_config_keys(function, binding.name)
                return HydraConfig(search, config_name, (), config_path, edited, stored=self._stored_groups())
        return None

    def _yaml_primary(self, config_path: str, config_name: str) -> bool:
        """Whether ``config_path`` beside this script holds the YAML primary config (Hydra then
        reads it; else a ConfigStore node of that name is the primary config)."""
        if config_path.startswith("pkg://") or not self.path:
            return True  # not followed either way
        name = config_name if config_name.endswith((".yaml", ".yml")) else f"{config_name}.yaml"
        # any entry of that name (a FIFO, a link) is what Hydra reads: the YAML path judges it
        return os.path.lexists(os.path.join(os.path.dirname(os.path.abspath(self.path)), config_path, name))

    def _stored_config(self, config_name: str, function: ast.AST, name: str) -> Optional[Any]:
        """Hydra's structured config: ``cs = ConfigStore.instance(); cs.store(name="config",
        node=Config)`` in this module, ``@hydra.main(config_name="config")`` with no YAML file of
        that name. The decorated function's config is an instance of the dataclass, each field
        its default, settable on the command line (``data.num_workers=0``); a field whose
        default is ``field(default_factory=Sub)`` of another dataclass of the module is that
        config, nested. Unknown: a ``defaults`` field (composition with groups), a node that is
        not a dataclass of the module, several stores of the name, keys the function edits.
        Read in hydra-core 1.3.8 (``core/config_store.py``: ``store(name, node, group=None,
        package=None, provider=None)``; ``_internal/config_repository.py`` reads stored nodes
        alongside the YAML files of the search path)."""
        stores = [
            arguments.get("node")
            for _, arguments in self._config_store_calls()
            if literal(arguments.get("name")) == config_name and "group" not in arguments
        ]
        if len(stores) != 1 or stores[0] is None:
            return None
        if _edited_config_keys(function, name):
            return None
        return self._structured_node(self.resolve(stores[0], END, 1).single, 0)

    def _config_store_calls(self) -> List[Tuple[ast.Call, Dict[str, ast.expr]]]:
        """The ``store(...)`` calls of this module on ``ConfigStore.instance()`` (or a name bound
        once to it), with their arguments by keyword (``name``, ``node``, ``group``, ...)."""
        found = []
        for call, site, _, _ in self.index.calls:
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "store"):
                continue
            owner = func.value
            if isinstance(owner, ast.Name):
                _, bindings = self.lookup(owner.id, site)
                owner = bindings[0].value if len(bindings) == 1 and bindings[0].kind == "assign" else None
            if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and owner.func.attr == "instance"):
                continue
            if self._qualname_of(owner.func.value, END, 1) not in ("hydra.core.config_store.ConfigStore",):
                continue
            arguments = {k.arg: k.value for k in call.keywords if k.arg}
            # hydra-core 1.3.8: ``store(self, name, node, group=None, package=None, provider=None)``
            for position, key in enumerate(("name", "node", "group", "package", "provider")):
                if position < len(call.args):
                    arguments.setdefault(key, call.args[position])
            found.append((call, arguments))
        return found

    def _stored_groups(self) -> Tuple[Tuple[str, str, Any], ...]:
        """``HydraConfig.stored``: each ``cs.store(group="data", name="base", node=DataConfig)``
        of this module whose group and name are literals, without ``package``, and whose node
        is a dataclass of this module, as a Tree of its fields' defaults (literals, nested
        ``default_factory`` dataclasses; anything else unknown). A name stored twice in a group
        is left out (which one wins is not read)."""
        from dl_lint.analysis.configs.yamlfile import UNKNOWN, Leaf, Tree

        if self._stored_nodes is not None:
            return self._stored_nodes
        self._stored_nodes = ()
        entries: Dict[Tuple[str, str], List[Any]] = {}
        for call, arguments in self._config_store_calls():
            group, name = literal(arguments.get("group")), literal(arguments.get("name"))
            if not isinstance(group, str) or not isinstance(name, str) or "package" in arguments or "node" not in arguments:
                continue
            entries.setdefault((group.strip("/"), name), []).append(arguments["node"])

        def tree(node: ast.expr, depth: int, where: "Resolver") -> Optional[Any]:
            from dl_lint.analysis.configs.dataclasses import dataclass_fields

            target = where.resolve(node, END, 1).single
            owned = where._dataclass_owner(target.value, 1) if target is not None else None
            cls, owner = owned if owned is not None else (None, where)
            fields = dataclass_fields(cls) if cls is not None else None
            if fields is None or depth > 6:
                return None
            kept = []
            for field in fields:
                default = field.default
                value = literal(default) if default is not None else NO_LITERAL
                if isinstance(default, ast.Call) and not default.args and not default.keywords:
                    inner = tree(default.func, depth + 1, owner)  # ``field(default_factory=Sub)``
                    if inner is not None:
                        kept.append((field.name, inner))
                        continue
                if value is NO_LITERAL or isinstance(value, (list, dict, tuple, set)):
                    value = UNKNOWN
                column = (default.col_offset + 1) if default is not None else 1
                kept.append((field.name, Leaf(value, owner.path, field.line, column, owner.code(default) if default is not None else "")))
            return Tree(tuple(kept), owner.path, cls.lineno)

        stored = []
        for (group, name), nodes in entries.items():
            if len(nodes) == 1:
                found = tree(nodes[0], 0, self)
                if found is not None:
                    stored.append((group, name, found))
        self._stored_nodes = tuple(stored)
        return self._stored_nodes

    def _structured_node(self, target: Any, depth: int) -> Optional[Any]:
        """A dataclass of the module as a Hydra structured config (``_stored_config``)."""
        from dl_lint.analysis.configs.dataclasses import DataclassConfig

        if target is None or depth > 6:
            return None
        owned = self._dataclass_owner(target.value, depth)
        if owned is None:
            return None
        cls, owner = owned
        if owner is not self:  # its nested configs are names of that module
            return owner._structured_node(target, depth)
        fake = ast.Call(func=ast.Name("Config", ast.Load()), args=[], keywords=[])
        value = self._dataclass_value(target.value, fake, END, depth, parser="Hydra")
        config = value.single.value if value is not None and value.single is not None else None
        if not isinstance(config, DataclassConfig) or config.get("defaults") is not None:
            return None
        nested = {}
        for statement in cls.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and isinstance(statement.value, ast.Call):
                factory = next((k.value for k in statement.value.keywords if k.arg == "default_factory"), None)
                if factory is not None:
                    inner = self._structured_node(self.resolve(factory, END, 1).single, depth + 1)
                    if inner is not None:
                        nested[statement.target.id] = Value.known(inner)
        if nested:
            config = config.replace(fields=tuple((k, nested.get(k, v)) for k, v in config.fields))
        return config

    def _hydra_wrapper(self, decorator: ast.Call) -> Optional[Dict[str, Optional[str]]]:
        """A project decorator that wraps ``hydra.main`` (``@hydra_main("train")`` with ``def
        hydra_main(config_name, config_path="../configs"): return hydra.main(config_path=...,
        config_name=config_name)``, or a nested decorator applying it): its one ``hydra.main``
        call's ``config_path`` and ``config_name``, each a literal or constant of the wrapper's
        module, or a parameter of the wrapper bound by the decorator's arguments (or its
        default). Hydra resolves ``config_path`` from the file of the decorated function
        (``hydra/_internal/utils.py``, ``detect_calling_file_or_module_from_task_function``, 1.3.8),
        so it stays relative to this script. None when the wrapper does anything else with them."""
        target = self.resolve(decorator.func, END, 1).single
        ref = target.value if target is not None else None
        if not isinstance(ref, FunctionRef) or ref.kind != "function" or not ref.path:
            return None
        if os.path.abspath(ref.path) == os.path.abspath(self.path or ""):
            owner: Optional[Resolver] = self
        else:
            source_bytes = getattr(self.project, "source_bytes", None)
            if source_bytes is None or b"hydra" not in source_bytes(ref.path):
                return None  # a decorator of a module that never names Hydra: not parsed for this
            analysis_at = getattr(self.project, "analysis_at", None)
            analysis = analysis_at(ref.path, ref.module) if analysis_at is not None else None
            owner = getattr(analysis, "resolver", None)
        if owner is None:
            return None
        wrapper = next((f for f in owner.index.module_functions if f.name == ref.name and f.lineno == ref.line), None)
        if wrapper is None or any(isinstance(d, ast.Call) for d in getattr(wrapper, "decorator_list", ())):
            return None
        mains = [
            node
            for node in ast.walk(wrapper)
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and owner._qualname_of(node.func, END, 1) in MAIN_QUALNAMES
        ]
        if len(mains) != 1 or any(k.arg is None for k in mains[0].keywords) or any(isinstance(a, ast.Starred) for a in mains[0].args):
            return None
        if any(isinstance(a, ast.Starred) for a in decorator.args) or any(k.arg is None for k in decorator.keywords):
            return None
        params = [*wrapper.args.posonlyargs, *wrapper.args.args]
        defaults = dict(zip([p.arg for p in params][len(params) - len(wrapper.args.defaults) :], wrapper.args.defaults))
        defaults.update({p.arg: d for p, d in zip(wrapper.args.kwonlyargs, wrapper.args.kw_defaults) if d is not None})
        bound: Dict[str, ast.AST] = {p.arg: a for p, a in zip(params, decorator.args)}
        bound.update({k.arg: k.value for k in decorator.keywords if k.arg})
        rebound = {n.id for n in ast.walk(wrapper) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        main = mains[0]
        written = {k.arg: k.value for k in main.keywords if k.arg}
        for position, key in enumerate(("config_path", "config_name")):
            if position < len(main.args):
                written[key] = main.args[position]
        given: Dict[str, Optional[str]] = {}
        for key, expr in written.items():
            if isinstance(expr, ast.Name) and expr.id in defaults.keys() | {p.arg for p in params} | {p.arg for p in wrapper.args.kwonlyargs}:
                if expr.id in rebound:
                    return None  # the wrapper computes it
                if expr.id in bound:
                    given[key] = self._config_text(bound[expr.id])  # written at the decorator, in this module
                elif expr.id in defaults:
                    given[key] = owner._config_text(defaults[expr.id])
                else:
                    given[key] = None
            else:
                given[key] = owner._config_text(expr)
        return given

    def _omegaconf_load(self, node: ast.Call) -> Value:
        """``OmegaConf.load("conf/train.yaml")``: the file, when the path names exactly one
        existing file relative to the script's folder or the project root (the program is run
        from one of them, or it fails to find its config). Edits are checked where the result is
        bound to a name (``resolve_binding``)."""
        if len(node.args) != 1 or node.keywords:
            return Value.unknown("config")
        text = self._config_text(node.args[0])
        if text is None and self.path:
            return self._loaded_config("omegaconf.OmegaConf.load", node, END, 1)  # a path the command line picks
        if not text or not text.endswith((".yaml", ".yml")) or not self.path:
            return Value.unknown("config")
        bases = [os.path.dirname(os.path.abspath(self.path))]
        root = getattr(self.project, "root", None)
        if root is not None:
            bases.append(os.fspath(root))
        found = {os.path.realpath(os.path.join(base, text)) for base in bases if os.path.isfile(os.path.join(base, text))}
        if len(found) != 1:
            return Value.unknown("config")
        path = found.pop()
        return Value.known(HydraConfig(os.path.dirname(path), os.path.basename(path), (), text, ((),), plain=True))

    # -- config files the script loads itself (analysis.configs.keypaths) ------------------------
    def _may_load_configs(self) -> bool:
        """Whether the module calls a loading function by its name (``safe_load``, ``load``,
        ``load_hyperpyyaml``...): only then is ``x.get("key")`` asked whether ``x`` is a config."""
        if self._loads_configs is None:
            names = {qualname.rsplit(".", 1)[-1] for qualname in _CONFIG_LOADERS}
            self._loads_configs = any(terminal(call.func) in names for call, _, _, _ in self.index.calls)
        return self._loads_configs

    def _loaded_config(self, qualname: str, node: ast.Call, site: Site, depth: int) -> Value:
        """``yaml.safe_load(f)``, ``json.load(f)``, ``load_hyperpyyaml(f, overrides)``,
        ``OmegaConf.load(args.config)``: the config files it may read, each a run
        (``keypaths.candidate_files``); unknown when no file can be named."""
        dialect, given = _CONFIG_LOADERS[qualname]
        if not self.path or depth > MAX_DEPTH:
            return Value.unknown("config")
        arg = node.args[0] if node.args else None
        if arg is None:
            arg = next((k.value for k in node.keywords if k.arg in ("stream", "fp", "s", "yaml_stream", "file_")), None)
        if arg is None or isinstance(arg, ast.Starred):
            return Value.unknown("config")
        path_expr = self._opened_path(arg, site, depth) if given == "stream" else arg
        if path_expr is None:
            return Value.unknown("config")
        named, fixed = self._path_texts(path_expr, site, depth)
        files = self.project.keypath_files(self.path, named, fixed, dialect)
        if not files:
            return Value.unknown("config")
        overridable = dialect == "hyperpyyaml" and (len(node.args) > 1 or any(k.arg == "overrides" for k in node.keywords))
        return Value.known(LoadedConfig(files, (), dialect, overridable))

    def _returned_config(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``p = create_config(args.config_env, args.config_exp)``: a project function (this
        module's or another's, ``keypaths.returned_config``) that loads the config file one of
        its parameters names and returns it: the files the argument of this call may name, as
        if the script loaded them (an argparse default, a literal, the config folders for a path
        the command line picks), less the keys the function sets itself. None otherwise."""
        if not self.path or depth > MAX_DEPTH // 2 or not hasattr(self.project, "keypath_files"):
            return None
        if target.path == self.path:
            functions = [f for f in self.index.module_functions if getattr(f, "name", None) == target.name]
            if len(functions) != 1:
                return None
            key = ("config", target.name)
            if key not in self._factories:
                from dl_lint.analysis.summary import config_return

                self._factories[key] = config_return(functions[0], self.index)
            fact = self._factories[key]
            if fact is None:
                return None
            args = functions[0].args
            positional = [*args.posonlyargs, *args.args]
            defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
            params = [(a.arg, d) for a, d in zip(positional, defaults)] + list(zip((a.arg for a in args.kwonlyargs), args.kw_defaults))
            default = dict(params).get(fact[2]) if fact[2] is not None else None
            default_text = literal(default) if default is not None else None
        else:
            record = self._function_record(target, self.path)
            if record is None or record.returns_config is None:
                return None
            fact = record.returns_config
            text = dict(record.params).get(fact[2]) if fact[2] is not None else None
            expression = parse_expression(text) if text else None
            default_text = literal(expression) if expression is not None else None
        dialect, position, param, text, edited = fact
        if param is None:
            named, fixed = (text,), True
        else:
            arg = next((k.value for k in node.keywords if k.arg == param), None)
            if arg is None and 0 <= position < len(node.args):
                if any(isinstance(a, ast.Starred) for a in node.args[: position + 1]):
                    return None
                arg = node.args[position]
            if arg is None:
                if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                    return None
                if not isinstance(default_text, str):
                    return None
                named, fixed = (default_text,), True
            else:
                named, fixed = self._path_texts(arg, site, depth)
        files = self.project.keypath_files(self.path, named, fixed, dialect)
        if not files:
            return None
        return Value.known(LoadedConfig(files, (), dialect, False, tuple(edited)))

    def _opened_path(self, expr: ast.AST, site: Site, depth: int, hops: int = 0) -> Optional[ast.AST]:
        """The path expression of a stream handed to a loading function: ``open(P)``,
        ``open(P).read()``, ``Path(P).read_text()``, ``Path(P).open()``, a name bound once to
        one of those, or the target of ``with open(P) as f``."""
        if hops > 4:
            return None
        if isinstance(expr, ast.Call):
            kind, found = _opened_call(expr, lambda node: self._qualname_of(node, site, depth + 1))
            return self._opened_path(found, site, depth, hops + 1) if kind == "stream" else found
        if isinstance(expr, ast.Name):
            _, bindings = self.lookup(expr.id, site)
            if len(bindings) != 1:
                return None
            binding = bindings[0]
            if binding.kind == "assign" and binding.value is not None:
                return self._opened_path(binding.value, binding.site, depth, hops + 1)
            if binding.kind == "other":
                if self._with_targets is None:
                    self._with_targets = {}
                    if self.tree is not None:
                        for node in ast.walk(self.tree):
                            if isinstance(node, (ast.With, ast.AsyncWith)):
                                for item in node.items:
                                    if isinstance(item.optional_vars, ast.Name):
                                        self._with_targets[id(item.optional_vars)] = item.context_expr
                opened = self._with_targets.get(id(binding.node))
                if opened is not None:
                    return self._opened_path(opened, binding.site, depth, hops + 1)
        return None

    def _path_texts(self, expr: ast.AST, site: Site, depth: int) -> Tuple[Tuple[str, ...], bool]:
        """The paths a path expression names, and whether it is fixed (a literal, a constant, a
        join of them) rather than picked at run time (a flag's default names a file, its folder)."""
        value = self.resolve(expr, site, depth + 1)
        if value.is_unknown or value.source in CONFIGURABLE:
            named = tuple(p.value for p in value.options or () if isinstance(p.value, str))
            return named, False  # picked at run time: its default, its folder, the config folders
        text = self._config_text(expr)
        if isinstance(text, str):
            return (text,), True
        return (), False

    def _keypath_value(self, config: LoadedConfig, key: str) -> Value:
        """``cfg.data.num_workers`` of a loaded config: one possibility per value over the runs
        (``configs.runs``), each at its file's line; a mapping stays the config itself."""
        from dl_lint.analysis.configs.runs import runs_value

        child = config.child(key)
        if config.edits(child.keys):
            return Value.unknown("config")  # the module sets this key (or all of them) itself
        kind, found = self.project.keypath_lookup(child)
        if kind == "mapping":
            return Value.known(child)
        if kind == "values":
            suffix = ", overridable" if child.overridable else ""
            return runs_value("key " + ".".join(child.keys), found, suffix)
        return Value.unknown("config")

    def spread_config(self, config: LoadedConfig, names: Sequence[str]) -> Optional[DictValue]:
        """``**hparams["loader_opts"]`` spread into a call: the keys ``names`` over the runs
        whose file holds a mapping there (``keypaths.spread``), None when unknown."""
        from dl_lint.analysis.configs.runs import runs_value

        if config.edits(config.keys):
            return None
        found = self.project.keypath_lookup(config, tuple(names))
        if found is None:
            return None
        dotted = ".".join(config.keys)
        suffix = ", overridable" if config.overridable else ""
        entries = tuple((name, runs_value(f"key {dotted}.{name}", places, suffix)) for name, places in found.items())
        return DictValue(entries, True)

    def _config_text(self, expr: ast.AST) -> Optional[str]:
        """A string argument of ``@hydra.main``: a literal or constant, or ``os.path.join`` of
        such (fairseq writes ``config_path=os.path.join("..", "fairseq", "config")``)."""
        if isinstance(expr, ast.Call) and not expr.keywords and self._qualname_of(expr.func, END, 1) in _PATH_JOIN:
            parts = [self._config_text(arg) for arg in expr.args]
            if parts and all(isinstance(p, str) for p in parts):
                return os.path.join(*parts)  # type: ignore[arg-type]
            return None
        single = self.resolve(expr, END, 1).single
        return single.value if single is not None and isinstance(single.value, str) else None

    def _config_value(self, config: Any, attr: str) -> Value:
        """``cfg.data.num_workers``: the value the composed Hydra config holds, as the default
        of a setting the command line can override (source "config")."""
        from dl_lint.analysis.configs.yamlfile import Leaf

        child = config.child(attr)
        if config.edits(child.keys):
            return Value.unknown("config")  # the function sets this key (or all of them) itself
        try:
            composed = self.project.config_composed(child.replace(keys=()), self.path)
            if config.edited and composed.interpolates(child.keys):
                return Value.unknown("config")  # its target may be one of the keys edited
            found = composed.lookup(child.keys)
        except RecursionError:
            return Value.unknown("config")
        if isinstance(found, dict):
            return Value.known(child)
        if not isinstance(found, Leaf):
            return Value.unknown("config")
        dotted = ".".join(child.keys)
        # The place is the origin's path and line (cited as a related location), not its text.
        if config.plain:
            origin = Origin(f"key {dotted}", found.path, found.line)
        else:
            origin = Origin(f"overridable: {dotted}=...", found.path, found.line)
        return Value((Possible(found.value, origin),), "config")

    def _resolve_import(self, binding: Binding, depth: int) -> Value:
        node, alias = binding.node, binding.alias
        if isinstance(node, ast.Import):
            if alias.asname is not None:
                return self._module_value(alias.name)
            return self._module_value(binding.name)
        module = self.absolute(import_base(node))
        real = alias.name
        submodule = f"{module}.{real}" if module else real
        if self.project.module_exists(submodule):
            # ``from pkg import Trainer`` takes what ``pkg/__init__.py`` binds to ``Trainer``
            # first (Python looks the attribute up on the package before importing a submodule):
            # ``from .Trainer import Trainer`` (or ``import *``) there makes it the class of
            # ``pkg/Trainer.py``, not that module. Asked only of an ``__init__`` whose bytes
            # name it or star-import (a large ``__init__`` that does neither is not parsed).
            if module and (self.project.may_hold(module, self.path, real.encode()) or self.project.may_hold(module, self.path, b"import *")):
                return self.project.import_value(module, real, depth + 1, self.path)
            return Value.known(ModuleRef(submodule))
        if not self.project.module_exists(module):
            return Value.known(External(submodule))
        return self.project.import_value(module, real, depth + 1, self.path)

    def starred(self, name: str, depth: int) -> Optional[Value]:
        """A module-level name no statement of this module binds, in a module with star imports
        (``from .models import *``): what the last star import that binds it gives, as Python
        binds it. Each starred module is asked, from the last back, whether ``import *`` of it
        binds ``name`` (its literal ``__all__``, or its public names: ``Project.star_exports``);
        the first that does gives the value, read as an import of ``name`` from it (so its own
        star imports are followed the same way). Unknown when a starred module's answer is
        unknown (its ``__all__`` is not a literal, it is not in the project), or when the star
        import that may bind it sits under an ``if``/``try``; a library module binds a name
        dl-lint knows it for (torch's and the library loaders' classes: ``from
        torch.utils.data import *`` then ``DataLoader``), anything else of it is unknown. None
        when no star import binds it (a builtin, or a NameError). Only asked for an unbound
        name, so a module whose names are all bound reads no starred module."""
        if name in self._starred:
            return self._starred[name]
        if depth > MAX_DEPTH:
            return Value.unknown("import")
        found = self._starred[name] = self._star_value(name, depth)
        return found

    def _star_value(self, name: str, depth: int) -> Optional[Value]:
        for written, conditional in reversed(self.index.stars):
            module = self.absolute(written)
            if not module:
                return Value.unknown("import")
            if self.project.module_exists(module):
                exported = self.project.star_exports(module, name, depth + 1, self.path)
                if exported is False:
                    continue
                if exported is None or conditional:
                    return Value.unknown("import")
                return self.project.import_value(module, name, depth + 1, self.path)
            qualname = f"{module}.{name}"
            if not conditional and _library_class(qualname, self.loader_qualnames):
                return Value.known(External(qualname))
            return Value.unknown("import")  # a library module may bind anything
        return None

    def _module_value(self, module: str) -> Value:
        if self.project.module_exists(module):
            return Value.known(ModuleRef(module))
        return Value.known(External(module))

    def call_targets(self, called: Sequence[str]) -> Tuple[Set[str], bool]:
        """What the calls a function makes lead to, for following them (the dataset rules: does
        ``__iter__`` shard through a helper?). ``called`` holds plain names (``f``) and dotted
        callees recorded by the module pass (``World.detect``; ``a.b...`` when deeper). Returns
        the keys of project functions and class methods to follow (``module.f@path``,
        ``module.Class@path::method``) and whether some call cannot be followed at all (a
        third-party function, a method of an object held in ``self``): then whatever the
        followed calls show, "does not shard" cannot be concluded."""
        keys: Set[str] = set()
        opaque = False
        scope = self.index.module_scope
        for text in called:
            root, dot, rest = text.partition(".")
            deeper = rest.endswith("...")
            attr = rest[:-3] if deeper else rest
            if root == "self":
                opaque = True  # self.x.m(): a method of something the instance holds
                continue
            _, bindings = scope.lookup(root)
            if not bindings and self.index.star_import and not is_builtin(root):
                # A name a star import binds (``Resolver.starred``): a project function or class
                # is followed as if imported by name; anything else cannot be.
                starred = self.starred(root, 0)
                ref = starred.single.value if starred is not None and starred.single is not None else None
                if isinstance(ref, FunctionRef) and ref.kind in ("function", "class") and ref.path:
                    if not dot:
                        keys.add(project_key(ref.module, ref.name, ref.path))
                    elif not deeper and ref.kind == "class":
                        keys.add(f"{project_key(ref.module, ref.name, ref.path)}::{attr}")
                    else:
                        opaque = True
                elif starred is not None:
                    opaque = True
                continue
            if not bindings:
                # A builtin, or a name of the calling function (a parameter, a local): data.
                continue
            if len(bindings) != 1:
                opaque = True
                continue
            binding = bindings[0]
            if binding.kind == "def" and not binding.nested:
                if not dot:
                    keys.add(project_key(self.module_name, root, self.path))
                continue  # a function's attribute: rare, and not a call into its body
            if binding.kind == "class" and not binding.nested:
                if dot and not deeper:
                    keys.add(f"{project_key(self.module_name, root, self.path)}::{attr}")
                continue  # constructing a class of this module: its own methods are judged on use
            if binding.kind != "import":
                opaque = True
                continue
            node, alias = binding.node, binding.alias
            if isinstance(node, ast.ImportFrom):
                module = self.absolute(import_base(node))
                imported = f"{module}.{alias.name}" if module else alias.name
            else:
                module = ""
                imported = alias.name if alias.asname or not dot else root
            if not _in_project(self.project, imported, module):
                if imported.partition(".")[0] not in INERT_ROOTS:
                    opaque = True
                continue
            if self.project.module_exists(imported):  # a project module: m.f()
                path = self.project.module_path(imported, self.path)
                if dot and not deeper and path:
                    keys.add(project_key(imported, attr, path))
                elif dot:
                    opaque = True
                continue
            path = self.project.module_path(module, self.path) if module else None
            if path is None:
                opaque = True
            elif not dot:
                keys.add(project_key(module, alias.name, path))  # a function (or a class: constructing it)
            elif not deeper:
                keys.add(f"{project_key(module, alias.name, path)}::{attr}")  # Class.method()
            else:
                opaque = True
        return keys, opaque

    # -- attributes ---------------------------------------------------------------------------
    def _resolve_attribute(self, node: ast.Attribute, site: Site, depth: int) -> Value:
        base = node.value
        if isinstance(base, ast.Name) and base.id != "self" and self.index.attr_writes and site is not END:
            writes = self.index.attr_writes.get((site.scope, base.id, node.attr))
            if writes:
                return self._written_attribute(node, writes, site, depth)
        return self._read_attribute(node, site, depth)

    def _written_attribute(self, node: ast.Attribute, writes: Sequence[Tuple[Optional[ast.expr], Site]], site: Site, depth: int) -> Value:
        """``args.workers`` read after ``args.workers = ...`` in the same function: every write
        that can reach the read is a possibility (under the ``if`` it sits in, when one ``if``
        separates it from the read), and the value before any write is one too unless a write
        reaches the read on every path. A ``+=`` write, or one in a loop around the read, keeps
        what it can: an unknown write makes the whole value unknown."""
        alias = self.code(node)
        if site.in_loop() and any(where.in_loop() for _, where in writes):
            return Value.unknown("expression").with_aliases(alias)
        use_conds = plain_conds(site.conds)
        before = sorted((w for w in writes if w[1].line < site.line), key=lambda w: w[1].line)
        source: Optional[str] = None
        dominated = False
        # Latest write first: (its possibilities, its guard, whether the guard tests the
        # attribute itself: ``if args.batch_size == -1: args.batch_size = 36``).
        entries: List[Tuple[List[Possible], Optional[Guard], bool]] = []
        for value_node, where in reversed(before):
            conds = plain_conds(where.conds)
            dominates = conds == use_conds[: len(conds)] and not where.in_loop()
            if value_node is None:
                return Value.unknown("expression").with_aliases(alias)
            value = self.resolve(value_node, where, depth + 1)
            if value.is_unknown:
                return Value.unknown(value.source).with_aliases(alias)
            guard = None if dominates else self._extra_guard(where, site, depth)
            source = source or value.source
            origin = Origin(f"assigned to {alias}", self.path, where.line)
            found = [p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ()]
            entries.append((found, guard, guard is not None and _tests_itself(guard, alias)))
            if dominates:
                dominated = True
                break
        if not dominated:
            earlier = self._read_attribute(node, site, depth)
            if earlier.is_unknown:
                return earlier.with_aliases(alias)
            source = earlier.source or source
            entries.append((list(earlier.options or ()), None, False))
        return Value(tuple(_dedupe(_before_the_test(entries))), source).with_aliases(alias)

    def _read_attribute(self, node: ast.Attribute, site: Site, depth: int) -> Value:
        attr = node.attr
        base = node.value
        if isinstance(base, ast.Name) and base.id == "self" and self.current_class:
            return self._resolve_self_attr(attr, depth, site)
        if _is_self_hparams(base) and self.current_class:
            return self._saved_hparam(attr, depth)
        if isinstance(base, ast.Name):
            parsed = self._simple_parsing_config(base, attr, site, depth)
            if parsed is not None:
                return parsed
        if isinstance(base, ast.Name) and self._is_namespace(base, site, attr, depth):
            set_here = self._set_at_module_level(base, attr, site, depth)
            if set_here is not None:
                return set_here  # ``args.workers = 4`` after parsing, read in a function
            rewritten = self._object_edits_of()[2]
            if base.id in rewritten and (rewritten[base.id] is None or attr in rewritten[base.id]) or self._handed_to_rewriter(base.id):
                # ``vars(args).update(config)``, ``args.__dict__.update(...)``, ``setattr(args,
                # key, value)``, ``values = vars(args)`` then ``values[key] = ...``: any option may
                # hold what a config file gave it, not the parser's default
                return Value.unknown("argparse")
            return _option_value(self._argparse_options().get(attr))
        value = self.resolve(base, site, depth + 1)
        self._last_receiver = (node, value)  # ``_returned_self`` reads it back for a call of ``node``
        single = value.single
        edited = single is not None and isinstance(single.value, ParsedArgs) and attr in single.value.edited and "*" not in single.value.edited
        if isinstance(base, ast.Name) and (single is None or edited) and hasattr(self.param_env, "attribute"):
            # a parameter given an object the caller names (``opt``): its attribute as the
            # caller sees it at the call (``_CallerValues.attribute``), its writes included
            _, bindings = self.lookup(base.id, site)
            if len(bindings) == 1 and bindings[0].kind == "param" and id(bindings[0].node) in self.param_env:
                found = self.param_env.attribute(id(bindings[0].node), attr)
                if found is not None:
                    return found
        if single is not None:
            target = single.value
            if isinstance(target, Instance) and isinstance(base, ast.Name):
                held = self._instance_attr(target, attr, base, site, depth)
                if held is None:
                    held = self._foreign_instance_attr(target, attr, base, site, depth)
                if held is not None:
                    return held
            if isinstance(target, FunctionRef) and target.kind == "class" and isinstance(base, ast.Name):
                constant = self._class_constant(target.module, target.name, target.path, attr, base, site, depth)
                if constant is not None:
                    return constant  # ``Config.num_workers``: a class attribute
            if isinstance(target, Instance):
                bound = self._bound_method(target, attr)  # ``self.dataset.collate_fn`` too
                if bound is not None:
                    return bound
            if isinstance(target, ParsedArgs):
                if attr in target.edited and "*" not in target.edited and isinstance(base, ast.Name):
                    found = self._set_at_module_level(base, attr, site, depth)
                    if found is not None:
                        return found
                if attr in target.edited or "*" in target.edited:
                    return Value.unknown("expression")  # the helper may set it itself
                return _option_value(self.parser_options(target).get(attr))
            if isinstance(target, ModuleRef):
                return self.project.import_value(target.module, attr, depth + 1, self.path)
            if isinstance(target, External):
                return Value.known(External(f"{target.qualname}.{attr}"))
            if isinstance(target, DictValue):
                return Value.unknown("config")
            if isinstance(target, HydraConfig):
                return self._config_value(target, attr)
            if isinstance(target, LoadedConfig):
                return self._keypath_value(target, attr)
            if isinstance(target, DataclassConfig):
                if isinstance(base, ast.Name) and self._config_edited(base, attr, site):
                    return Value.unknown("config")
                if isinstance(target, StoreConfig) and not self._store_entry_holds(value, attr, base, "attr"):
                    return Value.unknown("config")
                entry = target.get(attr)
                return entry if entry is not None else Value.unknown("config")
        # An attribute of an object we cannot see: a config value, settable at run time; a key of
        # the project's yacs defaults (``cfg.DATALOADER.NUM_WORKERS``) holds what they set.
        keys = yacs_key_path(node)
        if keys is not None and not (single is not None and isinstance(single.value, ModuleRef)):
            ask = getattr(self.project, "yacs_value", None)
            found = ask(keys, self.path) if ask is not None else None
            if found is not None:
                return found
        return Value.unknown("config")

    def _config_edited(self, base: ast.Name, attr: str, site: Site, holders: Sequence[str] = ()) -> bool:
        """Whether ``base.attr`` of a config object may have been set after its construction in
        a way ``_written_attribute`` does not read: ``.attr`` written in another function of the
        module on the global, or on an alias of it (``g = f``), on an attribute chain from it or
        from one of the names ``holders`` that hold it (``trainer.config.attr = ...``) or from
        something else than a name, the object handed to ``setattr``/``vars`` or its ``__dict__``
        touched. Indexed once per module."""
        home, _ = self.lookup(base.id, site)
        for (scope, name, written), entries in self.index.attr_writes.items():
            if written != attr or (scope is site.scope and name == base.id) or not entries:
                continue
            where = entries[0][1]
            found, bindings = self.lookup(name, where)
            if name == base.id and found is home:
                return True  # the same variable, written elsewhere (a global set in a function)
            for binding in bindings:
                value = binding.value if binding.kind == "assign" else None
                if isinstance(value, ast.Name) and value.id == base.id and binding.site is not None and self.lookup(value.id, binding.site)[0] is home:
                    return True  # an alias of it (``other = tconf``)
        opaque, deep, _ = self._object_edits_of()
        if base.id in opaque:
            return True
        own = id(site.scope) if site.scope is not None else None
        for root, function in deep.get(attr, ()):
            if root == "":
                return True
            if root != base.id and root not in holders:
                continue
            if function == own:
                return True
            names = self.index.scopes.get(function) if function is not None else None
            if names is None or root not in names.bindings:
                return True  # a global, or a name of an enclosing function: maybe the same object
        return False

    def _object_edits_of(self) -> Tuple[Set[str], Dict[str, Set[Tuple[str, Optional[int]]]], Dict[str, Optional[Set[str]]]]:
        """(names whose object something in the module may change: handed to
        ``setattr``/``delattr``, or to ``vars`` other than to be read where it stands, or their
        ``__dict__`` mentioned; attribute -> (root name or "", function) of each write of that
        attribute on a chain that does not start at a plain name; name -> the attributes of its
        object rewritten through ``setattr``/``delattr`` or its ``vars()``/``__dict__`` written
        (``vars(args).update(config)``, ``args.__dict__[key] = value``) or bound to a name that
        is (``values = vars(args)`` then ``values[key] = ...``), None for any: a constant key
        (``setattr(args, "lr", 0.1)``, ``dict_args["nparams"] = 2``) rewrites that one, and a
        dict only read, handed to a function (``config=vars(args)`` for a logger) or spread
        (``**vars(args)``) none), indexed once per module."""
        if self._object_edits is None:
            opaque: Set[str] = set()
            rewritten: Dict[str, Optional[Set[str]]] = {}
            aliases: List[Tuple[str, str]] = []  # (name, owner) of ``values = vars(args)``
            # names written as dicts: the constant keys written (``values["n"] = 2``), or None
            # for any key (``values[key] = v``, ``values.update(...)``)
            written_dicts: Dict[str, Optional[Set[str]]] = {}
            deep: Dict[str, Set[Tuple[str, Optional[int]]]] = {}
            functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            stack = [(self.tree, None, None)] if self.tree is not None else []
            while stack:
                node, function, parent = stack.pop()
                if isinstance(node, ast.Attribute):
                    if isinstance(node.ctx, (ast.Store, ast.Del)) and not isinstance(node.value, ast.Name):
                        root = node.value
                        while isinstance(root, (ast.Attribute, ast.Subscript)):
                            root = root.value
                        deep.setdefault(node.attr, set()).add((root.id if isinstance(root, ast.Name) else "", function))
                    elif node.attr == "__dict__" and isinstance(node.value, ast.Name):
                        opaque.add(node.value.id)
                        _dict_write(node, parent, node.value.id, rewritten, aliases)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr", "vars"):
                    if node.args and isinstance(node.args[0], ast.Name) and not (node.func.id == "vars" and _read_only_dict(node, parent)):
                        opaque.add(node.args[0].id)
                        if node.func.id == "vars":
                            _dict_write(node, parent, node.args[0].id, rewritten, aliases)
                        else:
                            name = literal(node.args[1]) if len(node.args) > 1 else None
                            _rewrite(rewritten, node.args[0].id, {name} if isinstance(name, str) else None)
                if isinstance(node, ast.Name):
                    written, keys = _keys_written(node, parent)
                    if written:  # ``values["nparams"] = 2``: one key; ``values[key] = ...``, ``values.update(...)``: any
                        _rewrite(written_dicts, node.id, keys)
                inner = id(node) if isinstance(node, functions) else function
                stack.extend((child, inner, node) for child in ast.iter_child_nodes(node))
            for alias, owner in aliases:
                if alias in written_dicts:
                    _rewrite(rewritten, owner, written_dicts[alias])
            self._object_edits = (opaque, deep, rewritten)
        return self._object_edits

    def _resolve_self_attr(self, attr: str, depth: int, site: Site = END) -> Value:
        value = self._stored_self_attr(attr, depth)
        if value.options and any(isinstance(p.value, DictValue) for p in value.options) and self._dict_changed(attr, site):
            return Value.unknown("expression").with_aliases(f"self.{attr}")
        return value

    def _dict_changed(self, attr: str, site: Site) -> bool:
        """Whether ``self.ATTR``, a dict, may be changed in place before ``site`` reads it
        (``subclasses.self_dict_reads``): in ``__init__``, by what runs there before the read;
        anywhere else, by any method of the class (one may have run before)."""
        from dl_lint.analysis.subclasses import self_dict_reads

        classes = [c for c in self.index.module_classes if c.name == self.current_class]
        if len(classes) != 1:
            return True
        cls = classes[0]
        before = None
        scope = site.scope if site is not END else None
        if scope is not None and getattr(scope, "name", "") == "__init__" and scope in cls.body and not site.in_loop():
            before = (scope, site.line)
        key = (id(cls), attr, before[1] if before else None)
        found = self._changed_dicts.get(key)
        if found is None:
            found = self._changed_dicts[key] = not self_dict_reads(cls, attr, before=before, assignments=True)
        return found

    def _stored_self_attr(self, attr: str, depth: int) -> Value:
        entries = self.index.self_attrs.get((self.current_class or "", attr))
        if not entries:
            inherited = self._inherited_attr(attr, depth) if self.current_class else None
            if inherited is not None:
                return inherited.with_aliases(f"self.{attr}")
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

    def _inherited_attr(self, attr: str, depth: int) -> Optional[Value]:
        """``self.attr`` read in a class that never sets it, where its one base, a project class,
        sets it in ``__init__`` (``ClassRecord.init_attrs``): a literal or module constant there
        is that value; a parameter of the base's ``__init__`` is what this class's ``__init__``
        passes for it in its one ``super().__init__(...)`` (or ``Base.__init__(self, ...)``) call,
        a statement of its own body, resolved there (its own parameter stays a configurable
        value, its default), or the base's default (configurable) when the call leaves it out or
        the class has no ``__init__``. None (unknown): several bases, a base that is not a
        project class or does not set it that way, an ``__init__`` without that one call, an
        argument hidden in ``*args``."""
        if depth > MAX_DEPTH:
            return None
        ask = getattr(self.project, "init_attribute", None)
        classes = [c for c in self.index.module_classes if c.name == self.current_class]
        if ask is None or len(classes) != 1 or len(classes[0].bases) != 1 or classes[0].keywords:
            return None
        node = classes[0]
        ref = self.resolve(node.bases[0], END, depth + 1).single
        target = ref.value if ref is not None else None
        if not isinstance(target, FunctionRef) or target.kind != "class" or not target.path:
            return None
        found = ask(target.module, target.name, attr, depth + 1, target.path)
        if found is None:
            return None
        kind, param, position, value = found
        inits = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
        if len(inits) > 1:
            return None
        if not inits:
            return value  # the construction's arguments go to the base's ``__init__``
        init = inits[0]
        base_text = self.code(node.bases[0])
        calls = []
        for statement in ast.walk(init):
            if not isinstance(statement, ast.Call) or not isinstance(statement.func, ast.Attribute):
                continue
            func = statement.func
            if func.attr != "__init__":
                continue
            if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
                calls.append((statement, 0))
            elif self.code(func.value) == base_text:
                calls.append((statement, 1))
        if len(calls) != 1 or not any(isinstance(s, ast.Expr) and s.value is calls[0][0] for s in init.body):
            return None  # the base's ``__init__`` may not run, or twice
        if kind == "value":
            return value
        call, skip = calls[0]
        args = call.args[skip:]
        expr: Optional[ast.expr] = next((k.value for k in call.keywords if k.arg == param), None)
        if expr is None and 0 <= position:
            if any(isinstance(a, ast.Starred) for a in args[: position + 1]):
                return None
            if position < len(args):
                expr = args[position]
        if expr is None:
            return value  # left to the base's default (or to what ``**kwargs`` carries)
        site = next((where for c, where, _scope, _cls in self.index.calls if c is call), None)
        if site is None:
            return None
        saved = self._params_as_defaults
        self._params_as_defaults = True
        try:
            passed = self.resolve(expr, site, depth + 1)
        finally:
            self._params_as_defaults = saved
        return None if passed.is_unknown else passed

    def _bound_method(self, instance: Instance, attr: str) -> Optional[Value]:
        """``dataset.collate_fn`` where ``dataset`` is an instance of a class of this module that
        defines ``collate_fn`` as a plain method (no decorator) and never stores that name on
        self: a bound method, which pickles with its object (CPython 3.11 ``method.__reduce__``
        gives ``(getattr, (obj, name))``), an ``Opaque("builtins.method")`` that wraps the
        instance (DL202 reads what the object holds). The class may be of another module of the
        project (for an instance that keeps a callable it was given), and the method its base's
        (a module-level class of the same module, named plainly: ``class
        TagEncoder(TextEncoder)``). None for anything else."""
        if instance.local or not instance.path:
            return None
        index = self.index
        if instance.path != self.path:
            # Another module's class: only for an instance built with a callable it keeps (the
            # only kind whose method DL202 can report), and its module parsed only when its bytes
            # define a method of that name: ``accelerator.prepare`` asks too, and parsing
            # accelerate's 200 KB module for it cost its cold run 75 ms
            if instance.holds is None:
                return None
            where = self._class_module(instance, 0, (f"def {attr}(".encode(),))
            if where is None:
                return None
            index = where.index
        name: Optional[str] = instance.name
        for _ in range(MAX_DEPTH):
            cls = _one_class(index, name) if name is not None else None
            if cls is None or index.self_attrs.get((name, attr)):
                return None
            methods = [f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == attr]
            if methods:
                if len(methods) != 1 or methods[0].decorator_list:
                    return None
                return Value.known(Opaque("builtins.method", wraps=(instance,)))
            if attr in _class_level_names(cls) or len(cls.bases) != 1 or not isinstance(cls.bases[0], ast.Name):
                return None  # bound in the body some other way, or a base we do not read here
            name = cls.bases[0].id
        return None

    def _instance_attr(self, instance: Instance, attr: str, base: ast.Name, site: Site, depth: int) -> Optional[Value]:
        """``data_iter.num_workers`` where ``data_iter = DataIter(...)`` (a class of this module,
        the name bound once): what the class's methods store in ``self.num_workers``, with the
        ``__init__`` parameters bound to the construction's arguments (a parameter it leaves to
        its default stays a configurable value, as ``self.x`` read in the class). None: not
        readable that way (another module's class, a construction with ``*``/``**``, a name
        bound more than once)."""
        if instance.local or instance.path != self.path or depth > MAX_DEPTH:
            return None
        entries = self.index.self_attrs.get((instance.name, attr))
        if not entries:
            constant = self._class_constant(instance.module, instance.name, self.path, attr, base, site, depth)
            return constant if constant is not None else self._copied_option(instance, attr, base, site, depth)
        _, bindings = self.lookup(base.id, site)
        if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
            return None
        call, where = bindings[0].value, bindings[0].site
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        classes = [c for c in self.index.module_classes if c.name == instance.name]
        inits = [f for f in (classes[0].body if len(classes) == 1 else ()) if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
        if len(inits) != 1:
            return None
        if any(method != "__init__" for _expr, _where, method in entries) and attr in _class_level_names(classes[0]):
            return None  # a class attribute until that method runs (``num_workers = 0`` then ``def tune``)
        env = self._bound_arguments(inits[0], call, where, depth, skip=1)
        if env is None:
            return None
        saved = self.param_env, self._params_as_defaults, self.current_class
        self.param_env, self._params_as_defaults, self.current_class = env, True, instance.name
        try:
            options: List[Possible] = []
            source: Optional[str] = None
            for expr, at, _method in entries:
                value = self.resolve(expr, at, depth + 1)
                if value.is_unknown:
                    return Value.unknown(value.source or "config")
                source = source or value.source
                options.extend(value.options or ())
        finally:
            self.param_env, self._params_as_defaults, self.current_class = saved
        return Value(tuple(_dedupe(options)), source)

    def _class_constant(self, module: str, name: str, path: str, attr: str, base: ast.Name, site: Site, depth: int) -> Optional[Value]:
        """``opt.num_workers`` where ``opt`` is an instance of class ``name`` (of this module or
        another of the project), or the class itself (``Config.num_workers``), whose body binds
        ``num_workers`` once to one value for the run (``summary.class_constants``: a config
        class of plain attributes). None (unknown) when this module may set the attribute on
        the object elsewhere (``_config_edited``), or the class's module or a module importing
        it writes ``.attr`` on anything but ``self``, or sets attributes by computed name on an
        object named as the reader holds it or as the class (``Project.writes_attribute``)."""
        from dl_lint.analysis.summary import class_constants

        if depth > MAX_DEPTH or not path:
            return None
        if path == self.path:
            cls = _one_class(self.index, name)
            if cls is None:
                return None
            value_node = next((v for a, v in class_constants(cls) if a == attr), None)
            if value_node is None:
                return None
            value = self.resolve(value_node, END, depth + 1)
            if value.is_unknown:
                return None
            origin = Origin(f"class attribute {name}.{attr}", self.path, value_node.lineno)
            value = Value(tuple(p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ()), value.source)
        else:
            once = getattr(self.project, "stores_once", None)
            ask = getattr(self.project, "class_attribute", None)
            if once is None or ask is None or not module or not once(module, path, attr, name):
                return None
            value = ask(module, name, attr, depth + 1, path)
            if value is None or value.is_unknown:
                return None
        return None if self._set_at_run_time(base, attr, site, path, name) else value

    def _set_at_run_time(self, base: ast.Name, attr: str, site: Site, path: str, class_name: str) -> bool:
        """Whether ``base.attr``, a config object's attribute read from what its class (at
        ``path``) keeps, may be set at run time instead: this module may write it outside the
        reading scope (``_config_edited``), or the class's module or an importer writes
        ``.attr`` or sets attributes by computed name on an object of the name another module
        may hold it by: the class's, and ``base``'s own unless ``base`` is an object this
        function constructs itself (``Project.writes_attribute``)."""
        if self._config_edited(base, attr, site):
            return True
        writes = getattr(self.project, "writes_attribute", None)
        if writes is None:
            return True
        _, bindings = self.lookup(base.id, site)
        made_here = (
            len(bindings) == 1 and bindings[0].kind == "assign" and isinstance(bindings[0].value, ast.Call)
            and bindings[0].site is not None and bindings[0].site.scope is not None
        )
        return writes(path, attr, (class_name,) if made_here else (base.id, class_name))

    def _foreign_instance_attr(self, instance: Instance, attr: str, base: ast.Name, site: Site, depth: int) -> Optional[Value]:
        """``par.n_processors`` where ``par`` is an instance of a class of another project
        module (DeepVO's ``from params import par``, made there by ``par = Parameters()``; or
        ``p = Parameters()`` here): what that class's ``__init__`` stores in ``self.attr``, once
        and unconditionally, and nothing else in the class (``ClassRecord.init_attrs``) - a
        literal or module constant; a parameter of ``__init__`` is what a construction of this
        module passes (its default when left out, a configurable value), unknown for an instance
        made elsewhere. None (unknown) when this module may write the attribute elsewhere
        (``_config_edited``) or a module importing the class's module writes ``.attr =`` on
        anything but ``self`` (``Project.writes_attribute``: the config is set at run time)."""
        if instance.local or not instance.path or instance.path == self.path or depth > MAX_DEPTH:
            return None
        ask = getattr(self.project, "init_attribute", None)
        once = getattr(self.project, "stores_once", None)
        module = instance.module or ""
        if ask is None or once is None or not module or not once(module, instance.path, attr, instance.name):
            # never stored by name: the class may copy a parsed namespace onto the object
            return self._copied_option(instance, attr, base, site, depth) if module else None
        found = ask(module, instance.name, attr, depth + 1, instance.path)
        if found is None:
            return self._class_constant(module, instance.name, instance.path, attr, base, site, depth)
        kind, param, position, value = found
        if self._set_at_run_time(base, attr, site, instance.path, instance.name):
            return None
        if kind == "value":
            return value
        _, bindings = self.lookup(base.id, site)
        if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
            return None  # made elsewhere: which argument it was given is not read here
        call, where = bindings[0].value, bindings[0].site
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        given = next((k.value for k in call.keywords if k.arg == param), None)
        if given is None and 0 <= position < len(call.args):
            given = call.args[position]
        return self.resolve(given, where, depth + 1) if given is not None else value

    def _store_entry_holds(self, held: Value, key: str, base: ast.AST, access: str) -> bool:
        """Whether ``key`` of a keyword store's object, read by ``access``, is what its
        construction gave: the class answers that access, and nothing in the class's module or
        a module importing it writes the key (``Project.writes_item``)."""
        config = held.single.value
        if access not in config.accesses:
            return False
        writes = getattr(self.project, "writes_item", None)
        written = getattr(self.project, "writes_attribute", None)
        if writes is None or written is None:
            return False
        holders = (base.id, config.name) if isinstance(base, ast.Name) else (config.name,)
        # the class's module and its importers; the module that binds the object and its
        # importers (``from hparams import hparams``), when another
        paths = {config.path, *(p.origin.path for p in held.options or () if p.origin is not None and p.origin.path)}
        for path in sorted(paths):
            if writes(path, key, config.writers, config.store, holders):
                return False
            if access == "attr" and written(path, key, holders):
                return False  # ``hp.num_workers = 0``: an attribute of the object, found first
        return True

    def _stored_option(self, instance: Instance, key: str, base: ast.Name, site: Site, depth: int, access: str) -> Optional[Value]:
        """``para["num_workers"]`` (``access`` "item") or ``para.num_workers`` ("attr") where
        ``para`` is an object of a project class that parses the command line into a dict it
        answers reads from (``item_stores``: ``self.args = vars(parser.parse_args())`` in a
        method, ``__getitem__`` returning ``self.args[key]``): the option ``key`` of that parser
        (its default, configurable on the command line); under several fills (``parse_args`` on
        one path, ``parse_known_args`` on the other), each one's. None (unknown) when the class
        is not one, writes the key itself, binds the name (an attribute read finds it first), or
        the key may be written at run time (``Project.writes_item``; ``_set_at_run_time`` for an
        attribute)."""
        writes = getattr(self.project, "writes_item", None)
        if writes is None:
            return None
        # read off the bytes first: a module without the hook or a namespace is not parsed
        hook = b"__getitem__" if access == "item" else b"__getattr__"
        where = self._class_module(instance, depth, (hook,), (b"parse_args", b"parse_known_args"))
        if where is None:
            return None
        found = where.resolver._namespace_stores.get(instance.name, False)
        if found is False:
            found = where.resolver._namespace_stores[instance.name] = _namespace_store(where, instance.name)
        if found is None:
            return None
        store, accesses, fills, edits, names = found
        if access not in accesses or key in edits[0] or (access == "attr" and key in names):
            return None
        options: List[Possible] = []
        for method, _statement, source in fills:
            call = source
            if isinstance(source, ast.Name):
                scope = where.index.scopes.get(id(method))
                held = scope.bindings.get(source.id, ()) if scope is not None else ()
                if len(held) != 1 or held[0].kind not in ("assign", "unpack") or not isinstance(held[0].value, ast.Call):
                    return None
                if held[0].kind == "unpack" and held[0].index != 0:
                    return None
                if _namespace_edited(method, source.id):
                    return None  # ``args.num_workers = 2`` before the store is filled
                call = held[0].value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("parse_args", "parse_known_args")):
                return None
            call_site = where.site_of(call)
            if call_site is None:
                return None
            parsed = where.resolver.resolve(call, call_site, depth + 1).single
            if parsed is not None and isinstance(parsed.value, ParsedArgs):
                # its ``edited`` is not asked: the call is written in the method, so what may
                # change the namespace is the method's own writes (``_namespace_edited``) and the
                # store's (``store_edits``; ``vars()`` is the namespace's own dict)
                found = where.resolver.parser_options(parsed.value).get(key)
            else:
                # ``parser.parse_known_args()`` of a parser this module builds: its options, as
                # for a namespace the module parses itself (``_is_namespace``)
                found = where.resolver._argparse_options().get(key) if where.index.add_arguments else None
            if not found:
                return None
            options.extend(found)
        if writes(instance.path, key, edits[1], store, (base.id, instance.name)):
            return None
        if access == "attr" and self._set_at_run_time(base, key, site, instance.path, instance.name):
            return None
        return _option_value(_dedupe(options))

    def _class_module(self, instance: Instance, depth: int, *words: Tuple[bytes, ...]) -> Optional[Any]:
        """The analysis of the module defining ``instance``'s class, when its bytes hold one
        word of each group of ``words`` (``Project.holds_word``: a module that cannot answer is
        not parsed for the question); the answer then rests on that module's bytes (recorded).
        None for a local class, a class of no file, or too deep."""
        reader = getattr(self.project, "analysis_at", None)
        holds = getattr(self.project, "holds_word", None)
        if reader is None or holds is None or instance.local or not instance.path or depth > MAX_DEPTH:
            return None
        if not all(any(holds(instance.path, word) for word in group) for group in words):
            return None
        where = reader(instance.path, instance.module)
        if where is None:
            return None
        self.project.read_config_file(instance.path)
        return where

    def _copied_option(self, instance: Instance, attr: str, base: ast.Name, site: Site, depth: int) -> Optional[Value]:
        """``cfg.num_workers`` of an object whose class copies a parsed namespace onto itself
        (``_namespace_copy_option``) or keeps it in a dict its ``__getattr__`` answers from
        (``_stored_option``); None for anything else."""
        found = self._namespace_copy_option(instance, attr, base, site, depth)
        return found if found is not None else self._stored_option(instance, attr, base, site, depth, "attr")

    def _namespace_copy_option(self, instance: Instance, attr: str, base: ast.Name, site: Site, depth: int) -> Optional[Value]:
        """``cfg.num_workers`` where ``cfg`` is an object of a project class whose ``__init__``
        copies an argparse namespace onto itself (DeepCAD's ``ConfigLGAN``: ``parser, args =
        self.parse()``, then ``for k, v in args.__dict__.items(): self.__setattr__(k, v)``; also
        ``vars(args).items()``, ``setattr(self, k, v)``, ``self.__dict__.update(vars(args))``):
        the option ``attr`` of that parser (its default, configurable on the command line), when
        the class stores ``self.attr`` nowhere else (``_copied_namespace``). None (unknown) for
        anything else, an option the parser lacks, or an attribute set at run time
        (``_set_at_run_time``)."""
        # read off the bytes first: a module that parses no arguments, or sets no attribute by
        # computed name, is not parsed for this (a no rests on the word's absence)
        where = self._class_module(instance, depth, (b"parse_args", b"parse_known_args"), (b"setattr", b"__dict__"))
        if where is None:
            return None
        found = _copied_namespace(where, instance.name, attr)
        if found is None:
            return None
        call, call_site = found
        value = where.resolver.resolve(call, call_site, depth + 1)
        single = value.single
        parsed = single.value if single is not None else None
        if not isinstance(parsed, ParsedArgs) or attr in parsed.edited or "*" in parsed.edited:
            return None
        options = where.resolver.parser_options(parsed).get(attr)
        if not options or self._set_at_run_time(base, attr, site, instance.path, instance.name):
            return None
        return _option_value(options)

    def _saved_hparam(self, name: str, depth: int) -> Value:
        """``self.hparams.name`` in a class whose ``__init__`` calls Lightning's
        ``self.save_hyperparameters()``: the ``__init__`` parameter ``name``, read like
        ``self.name = name`` (its default, configurable). Unknown unless the saving is plain
        (``analysis.libraries.SAVE_HYPERPARAMETERS``): one call, in ``__init__``, with no
        arguments or string names (``ignore=`` literal), the parameter not rebound before it,
        and ``self.hparams`` only read anywhere in the class."""
        from dl_lint.analysis.libraries import HPARAMS_MUTATORS, SAVE_HYPERPARAMETERS

        unknown = Value.unknown("config").with_aliases(f"self.hparams.{name}")
        saves = [
            (call, site)
            for call, site, _scope, cls in self.index.calls
            if cls == self.current_class
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == SAVE_HYPERPARAMETERS
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "self"
        ]
        if len(saves) != 1:
            return unknown
        call, site = saves[0]
        init = site.scope
        scope = site.names
        if not isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)) or init.name != "__init__":
            return unknown
        if scope is None or scope.node is not init or scope.parent is None or not isinstance(scope.parent.node, ast.ClassDef):
            return unknown
        names = [literal(arg) for arg in call.args]
        if any(not isinstance(n, str) for n in names) or (names and name not in names):
            return unknown  # a dict, Namespace or config object saved, or `name` not among those saved
        for keyword in call.keywords:
            if keyword.arg is None:
                return unknown
            if keyword.arg == "ignore":
                value = keyword.value
                elements = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
                ignored = [literal(element) for element in elements]
                if any(not isinstance(n, str) for n in ignored) or name in ignored:
                    return unknown
        bindings = scope.bindings.get(name, [])
        if len(bindings) != 1 or bindings[0].kind != "param" or bindings[0].value is None:
            return unknown  # rebound in __init__ (save_hyperparameters stores the local), or no default
        if bindings[0].index < 0 or not _hparams_only_read(scope.parent.node, HPARAMS_MUTATORS):
            return unknown
        if not any(isinstance(node, ast.Name) and node.id == "super" for node in ast.walk(init)):
            return unknown  # Lightning collects the arguments of __init__ frames that hold __class__
        if id(bindings[0].node) in self.param_env:
            # bound by a run (a LightningCLI config file): the value keeps where it was written
            return self.param_env[id(bindings[0].node)].with_aliases(f"self.hparams.{name}")
        saved = self._params_as_defaults
        self._params_as_defaults = True
        try:
            default = self._resolve_param(bindings[0], depth + 1)
        finally:
            self._params_as_defaults = saved
        if default.is_unknown:
            return unknown
        origin = Origin(f"default of parameter {name}, saved by save_hyperparameters", self.path, self.line(bindings[0].node))
        return Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()), "parameter").with_aliases(
            f"self.hparams.{name}"
        )

    # -- argparse -----------------------------------------------------------------------------
    def _is_namespace(self, name: ast.Name, site: Site, attr: str, depth: int) -> bool:
        """Whether ``name`` holds an argparse namespace of this module."""
        if not self.index.add_arguments:
            return False
        _, bindings = self.lookup(name.id, site)
        if not bindings:
            return name.id in NAMESPACE_NAMES and attr in self._argparse_options()
        for binding in bindings:
            if binding.kind == "param":
                if name.id not in NAMESPACE_NAMES or attr not in self._argparse_options():
                    return False
                if attr in self._set_elsewhere(binding) or self._rebound_at_module_level(name.id, attr):
                    return False
            elif binding.kind == "assign":
                if not _is_parse_args(binding.value, known=False):
                    return False
            elif binding.kind == "unpack":
                if binding.index != 0 or not _is_parse_args(binding.value, known=True):
                    return False
            else:
                return False
        return True

    def _handed_to_rewriter(self, name: str) -> bool:
        """Whether the module hands the object named ``name`` to a function of another project
        module that sets attributes by computed name (``load_config(args)`` imported from a
        ``utils`` whose bytes hold ``setattr(args, key, value)``): it may come back with any
        option changed. Once per name and module."""
        found = self._rewriter_calls.get(name)
        if found is None:
            found = self._rewriter_calls[name] = False  # (a callee resolved below may read the name)
            ask = getattr(self.project, "rewrites_by_name", None)
            for call, site, _, _ in self.index.calls if ask is not None else ():
                given = [*call.args, *(k.value for k in call.keywords)]
                if not any(isinstance(arg, ast.Name) and arg.id == name for arg in given):
                    continue
                target = self.resolve(call.func, site).single
                ref = target.value if target is not None else None
                if isinstance(ref, FunctionRef) and ref.path and ref.path != self.path and ask(ref.path):
                    found = True
                    break
            self._rewriter_calls[name] = found
        return found

    def _rebound_at_module_level(self, name: str, attr: str) -> bool:
        """Whether the module's top level (its main guard included) binds ``name`` to anything
        but a ``parse_args()`` namespace: ``args, kwargs = load_config(default, args, unknown)``
        hands the functions it calls a namespace a helper may have filled from a config file
        (ronin's ``load_config`` writes ``vars(args)[key]``), so a namespace parameter does not
        hold the parser's defaults."""
        for binding in self.index.module_scope.bindings.get(name, ()):
            if binding.kind == "assign" and _is_parse_args(binding.value, known=False):
                continue
            if binding.kind == "unpack" and binding.index == 0 and _is_parse_args(binding.value, known=True):
                continue
            if binding.kind == "assign" and isinstance(binding.value, ast.Call) and not binding.value.args and not binding.value.keywords:
                # ``args = parse_args()``: this module's helper that parses its own options and
                # returns the namespace (diffusers' training scripts), its own edits aside
                target = self.resolve(binding.value.func, binding.site or END).single
                ref = target.value if target is not None else None
                if isinstance(ref, FunctionRef) and ref.path == self.path and ref.kind == "function":
                    kind, edited = self._namespace_facts(ref)
                    if kind == NAMESPACE and attr not in edited and "*" not in edited:
                        continue
            return True
        return False

    def _set_elsewhere(self, binding: Binding) -> Set[str]:
        """The attributes that the module-level functions of this module, other than the one
        ``binding`` is a parameter in, set on anything (``args.workers = int(args.workers /
        ngpus_per_node)`` in ``main_worker``, which then calls ``validate(..., args)``): a
        namespace parameter may hold such an attribute as its caller changed it, so it is not
        the parser's default there. Writes in the function itself are paths; ``setattr`` and
        ``vars(args)[...]`` are not followed (as there). The writes of each function are read
        once per module."""
        row = getattr(binding.node, "lineno", 0)
        out: Set[str] = set()
        for function, edited in self._function_edits():
            if not edited or function.lineno <= row <= (function.end_lineno or function.lineno):
                continue
            out |= edited
        return out

    def _function_edits(self) -> List[Tuple[ast.AST, Set[str]]]:
        """(function, the attributes it sets) for each module-level function, once per module:
        explicit writes only (``names=set()``): ``setattr``/``vars(args)`` are not followed, as
        in the function itself; ``config=vars(args)`` to log the options is common."""
        if self._edits_by_function is None:
            self._edits_by_function = [(f, set(edited_attributes(f, set()))) for f in self.index.module_functions]
        return self._edits_by_function

    def _simple_parsing_dests(self) -> Dict[str, Any]:
        """``parser.add_arguments(Config, dest="cfg")`` calls of this module on a
        ``simple_parsing.ArgumentParser(...)`` bound once to ``parser``: {"add_arguments": {(parser
        name, dest) in its function: (call, Config expression, site) or None when not readable}}; {}
        without any."""
        if self._simple_parsing is None:
            from dl_lint.analysis.configs.dataclasses import SIMPLE_PARSING_PARSERS

            found: Dict[Tuple[str, str], Any] = {}
            for call, site, _, _ in self.index.calls:
                func = call.func
                if not (isinstance(func, ast.Attribute) and func.attr == "add_arguments" and isinstance(func.value, ast.Name)):
                    continue
                bindings = self.lookup(func.value.id, site)[1]
                if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
                    continue
                built = bindings[0].value
                if self._qualname_of(built.func, site, 1) not in SIMPLE_PARSING_PARSERS:
                    continue
                keywords = {k.arg: k.value for k in call.keywords}
                dest = literal(call.args[1]) if len(call.args) > 1 else literal(keywords.get("dest")) if "dest" in keywords else None
                if not isinstance(dest, str) or not call.args:
                    continue
                readable = (
                    len(call.args) <= 2 and set(keywords) <= {"dest", "prefix"}
                    and not any(k.arg in ("config_path", "add_config_path_arg") or k.arg is None for k in built.keywords)
                )  # fmt: skip
                key = (id(site.scope), func.value.id, dest)
                found[key] = (call, call.args[0], site) if readable and key not in found else None
            self._simple_parsing = {"add_arguments": found} if found else {}
        return self._simple_parsing

    def _simple_parsing_config(self, name: ast.Name, attr: str, site: Site, depth: int) -> Optional[Value]:
        """``args.cfg`` where ``args = parser.parse_args()`` and ``parser.add_arguments(Config,
        dest="cfg")``: a Config at its field defaults, each settable on the command line."""
        dests = self._simple_parsing_dests().get("add_arguments")
        if not dests:
            return None  # the common case: a module without add_arguments (one pass over its calls, once)
        bindings = self.lookup(name.id, site)[1]
        if len(bindings) != 1 or bindings[0].kind != "assign" or not _is_parse_args(bindings[0].value, known=False):
            return None
        parse = bindings[0].value
        if not isinstance(parse, ast.Call) or not isinstance(parse.func.value, ast.Name):
            return None
        where = bindings[0].site
        entry = dests.get((id(where.scope if where else None), parse.func.value.id, attr), False)
        if entry is False:
            return None  # not a simple_parsing dest: argparse decides
        if entry is None or parse.args or parse.keywords:
            return Value.unknown("argparse")  # parse_args(argv): not the command line's defaults
        call, config, where = entry
        target = self.resolve(config, where, depth + 1).single
        found = self._dataclass_value(target.value if target else None, call, where, depth, parser="simple_parsing")
        return found if found is not None else Value.unknown("argparse")

    def _imported_factory(self, target: FunctionRef, depth: int) -> Optional[Value]:
        """``DataLoader(build_dataset(args), ...)`` with ``build_dataset`` in another module of
        the project, every ``return`` of which constructs a class of the project (read from its
        summary, ``namespaces.built_by``): an instance of that class, as if built at the call,
        with the factory's return line as origin (the finding rests on that module). The
        construction's arguments are not read (a library object such as a webdataset pipeline,
        which needs them, stays unknown)."""
        key = ("imported", f"{target.path}::{target.name}")
        if key in self._factories:
            return self._factories[key]
        self._factories[key] = None
        summary = self.project.summary(target.module, self.path) if hasattr(self.project, "summary") else None
        if summary is None or summary.path != target.path:
            return None
        records = [f for f in summary.summary.functions if f.name == target.name]
        handed = records[0].hands_back if len(records) == 1 else None
        for _ in range(3):  # ``return partial(cls, kept)``: what that function of the module hands back
            if handed is None or handed[0] != "call":
                break
            inner = [f for f in summary.summary.functions if f.name == handed[1]]
            handed = inner[0].hands_back if len(inner) == 1 else None
        if handed is not None and handed[0] != "call":
            kind, name, row = handed  # a local callable: not picklable, whatever the arguments
            origin = Origin(f"returned by {target.name}()", summary.path, row)
            if kind == "local-instance":  # ``return ReidDataset(...)`` of a class defined in the function
                found = Value((Possible(Instance(target.module, name, row, summary.path, True), origin),))
            else:
                found = Value((Possible(FunctionRef(kind, target.module, name, row, summary.path), origin),))
            self._factories[key] = found
            return found
        if len(records) != 1 or not records[0].builds:
            return None
        options: List[Possible] = []
        # DL202: a lambda or local function the factory stores on what it returns
        # (``dataset.target_transform = lambda y: y - 1``, then ``return dataset``) is kept by it
        written = records[0].build_writes
        holds = None
        if written:
            attr, what, row = min(written)
            holds = (f"{what} in .{attr} (set by {target.name}())", summary.path, row)
        for text, row in records[0].builds:
            callee = parse_expression(text, row)
            built = summary.resolver.resolve(callee, END, depth + 1).single if callee is not None else None
            ref = built.value if built is not None else None
            if not isinstance(ref, FunctionRef) or ref.kind != "class":
                return None
            origin = Origin(f"built by {target.name}()", summary.path, row)
            options.append(Possible(Instance(ref.module, ref.name, ref.line, ref.path, holds=holds), origin))
        found = Value(tuple(_dedupe(options)))
        self._factories[key] = found
        return found

    def _bound_arguments(
        self, function: ast.AST, call: ast.Call, site: Site, depth: int, skip: int = 0, spread: bool = False
    ) -> Optional[Dict[int, Value]]:
        """``param_env`` with ``function``'s parameters (after the first ``skip``: ``self``)
        bound to the values of ``call``'s arguments, by id of the parameter; None when an
        argument has no parameter (too many positionals, an unknown keyword). Starred arguments
        are the caller's to refuse, except that with ``spread`` a ``**mapping`` may fill any
        parameter the call does not name: each such parameter is then unknown (its default
        too), so that only what holds for every value it can take is concluded
        (``get_dataset(**config.data)``: the datasets every ``return`` builds)."""
        positional = [*function.args.posonlyargs, *function.args.args][skip:]  # type: ignore[attr-defined]
        by_name = {a.arg: a for a in (*positional, *function.args.kwonlyargs)}  # type: ignore[attr-defined]
        if len(call.args) > len(positional):
            return None
        env = dict(self.param_env)
        named = set()
        for argument, parameter in zip(call.args, positional):
            env[id(parameter)] = self.resolve(argument, site, depth + 1)
            named.add(parameter.arg)
        spreads = False
        for keyword in call.keywords:
            if keyword.arg is None and spread:
                spreads = True
                continue
            parameter = by_name.get(keyword.arg)
            if parameter is None:
                if keyword.arg is not None and function.args.kwarg is not None:  # type: ignore[attr-defined]
                    continue  # ``device=...`` for ``**kwargs``
                return None
            env[id(parameter)] = self.resolve(keyword.value, site, depth + 1)
            named.add(parameter.arg)
        if spreads:
            for name, parameter in by_name.items():
                if name not in named:
                    env[id(parameter)] = Value.unknown("expression")
        return env

    def _returned_argument(
        self, target: FunctionRef, node: ast.Call, site: Site, depth: int, index: int, size: int
    ) -> Optional[Value]:
        """What a call of the project function ``target`` hands back at ``index`` of the tuple it
        returns (``size`` long; -1 and 0: the whole value) when the function returns a parameter
        as it came (``summary.returned_params``): the value the call passes there, when it is an
        object a factory may hand back (``_built``). None when the argument is a default, under
        ``*args``/``**kwargs``, or anything else."""
        if not hasattr(self.project, "summary") or depth > MAX_DEPTH // 2:
            return None
        summary = self.project.summary(target.module, target.path or self.path)
        if summary is None or (target.path and summary.path != target.path):
            return None
        records = [f for f in summary.summary.functions if f.name == target.name]
        if len(records) != 1:
            return None
        entry = next((e for e in records[0].returns_param if e[0] == index and e[1] == size), None)
        if entry is None:
            return None
        return self._argument_value(node, entry[2], entry[3], site, depth)

    def _argument_value(self, node: ast.Call, name: str, position: int, site: Site, depth: int) -> Optional[Value]:
        """The object ``node`` passes for parameter ``name`` (at ``position``, -1: keyword-only)."""
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        if 0 <= position < len(node.args):
            argument = node.args[position]
        else:
            argument = next((k.value for k in node.keywords if k.arg == name), None)
        if argument is None:
            return None
        value = self.resolve(argument, site, depth + 1)
        if value.is_unknown or not value.options or not all(_built(p.value) for p in value.options):
            return None
        return value

    def _unpacked_argument(self, target: Any, binding: Binding, depth: int) -> Optional[Value]:
        """An element of a tuple unpacked from a call (``binding``, a plain tuple target of the
        returned tuple's length) that is an argument handed back: a project function's
        (``_returned_argument``), or apex's ``amp.initialize(model, optimizer, ...)``, which
        returns ``(model, optimizer)`` as given when ``model`` is one module (not a list) and an
        optimizer is given (apex 007c594 ``amp/_initialize.py``: it casts the model in place and
        patches its ``forward``)."""
        call = binding.value
        if isinstance(target, External):
            if target.qualname != "apex.amp.initialize" or binding.index != 0:
                return None
            statement = self._unpacking(binding)
            if statement is None or len(statement.targets[0].elts) != 2:
                return None
            if len(call.args) < 2 and not any(k.arg == "optimizers" for k in call.keywords):
                return None
            value = self._argument_value(call, "models", 0, binding.site, depth)
            if value is None or not all(isinstance(p.value, Instance) for p in value.options or ()):
                return None  # a list of models comes back as a list
            return value
        if target.kind != "function" or not self._hands_back(target, binding.index):
            return None
        statement = self._unpacking(binding)
        if statement is None:
            return None
        return self._returned_argument(target, call, binding.site, depth, binding.index, len(statement.targets[0].elts))

    def _hands_back(self, target: FunctionRef, index: int) -> bool:
        """Whether the project function ``target`` returns a parameter at ``index`` of a tuple
        (``summary.returned_params``; cheap: asked before the unpacking statement is looked for)."""
        if not hasattr(self.project, "summary"):
            return False
        summary = self.project.summary(target.module, target.path or self.path)
        if summary is None or (target.path and summary.path != target.path):
            return False
        return any(e[0] == index for f in summary.summary.functions if f.name == target.name for e in f.returns_param)

    def _unpacking(self, binding: Binding) -> Optional[ast.Assign]:
        """The ``a, b = CALL`` statement of an unpack binding: one target, a tuple or list of
        names or attributes without ``*``."""
        scope = binding.site.scope if binding.site is not None else None
        body = getattr(scope, "body", None) if scope is not None else (self.tree.body if self.tree is not None else None)
        if body is None:
            return None
        owner = scope if scope is not None else self.tree
        assigns = self._assigns.get(id(owner))
        if assigns is None:
            # the assignments of the scope by value, walked once per scope: a walk per unpack
            # binding was quadratic (2,000 ``x, y = helper(ds, 2)`` at module level: 30 s)
            assigns = self._assigns[id(owner)] = {}
            for node in ast.walk(owner):
                if isinstance(node, ast.Assign):
                    assigns.setdefault(id(node.value), node)
        node = assigns.get(id(binding.value))
        if node is None:
            return None
        if len(node.targets) != 1 or not isinstance(node.targets[0], (ast.Tuple, ast.List)):
            return None
        if not all(isinstance(e, (ast.Name, ast.Attribute)) for e in node.targets[0].elts):
            return None  # ``a, b, n, args.class_names = f()``: the places still line up
        return node

    def _factory_result(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``DataLoader(make_dataset(...), ...)``: a function of this module whose every
        ``return`` builds an object dl-lint can judge (an instance of a project class, a library
        dataset such as a webdataset pipeline, a callable): what it returns, resolved in the
        function with its parameters bound to the call's arguments (or their defaults), as if
        built at the call. None for anything else (a number, an unknown value): function results
        stay unknown. Calls without arguments are remembered per function."""
        if depth > MAX_DEPTH // 2:
            return None
        if target.path != self.path:
            handed = self._returned_argument(target, node, site, depth, -1, 0)
            if handed is not None:
                return handed  # ``model = apply_gradient_allreduce(model)``: the same object
            found = self._imported_factory(target, depth)
            if found is None and self._builds_in_every_return(target):
                # ``get_test(path)`` returning ``datasets.ImageFolder(path, Compose([...]))``: a
                # library object, judged by its arguments: the returns are resolved in that
                # module's analysis with this call's arguments bound (``_foreign_factory``)
                found = self._foreign_factory(target, node, site, depth, None)
            return found
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        plain = not node.args and not node.keywords
        key = ("factory", target.name)
        if plain and key in self._factories:
            return self._factories[key]
        if plain:
            self._factories[key] = None  # a factory calling itself is not followed
        found = self._factory_value(target, node, site, depth)
        if plain:
            self._factories[key] = found
        return found

    def _factory_value(
        self, target: FunctionRef, node: ast.Call, site: Site, depth: int, element: Optional[Tuple[int, int]] = None
    ) -> Optional[Value]:
        """``_factory_result`` for a function of this module; ``element`` (index, width): the
        call's result is unpacked into ``width`` names (``train_set, val_set = build(args)``)
        and every ``return`` is a tuple display of that width: what it builds at ``index``."""
        if element is not None and depth > MAX_DEPTH // 2:
            return None
        functions = [f for f in self.index.module_functions if getattr(f, "name", None) == target.name]
        if not functions and element is None and target.path:
            # a module read from its summary (no syntax tree: an importer asks for
            # ``ToTensor = wrapper(T.ToTensor)``): what the summary says its function returns
            return self._imported_factory(target, depth)
        if len(functions) != 1 or isinstance(functions[0], ast.AsyncFunctionDef):
            return None
        function = functions[0]
        env = self._bound_arguments(function, node, site, depth, spread=element is not None)
        if env is None:
            return None
        return self._built_returns(function, env, depth, element)

    def _returned_dict(self, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``defaults.update(model_and_diffusion_defaults())``: a call without arguments of a project function, of this module or another, whose one
        ``return`` gives a dict whose keys are all known (``res = dict(...)``, ``res.update(
        diffusion_defaults())``, ``return res``), resolved in that function's module: that dict.
        None for anything else (a generator, several returns, a dict with unseen keys)."""
        if node.args or node.keywords or depth > MAX_DEPTH // 2:
            return None
        found = self.resolve(node.func, site, depth + 1).single
        target = found.value if found is not None else None
        if not isinstance(target, FunctionRef) or target.kind != "function" or not target.path:
            return None
        key = ("dict", target.path, target.name)
        if key in self._factories:
            return self._factories[key]
        self._factories[key] = None  # a function calling itself is not followed
        function, resolver = self._project_function(target)
        if function is None or function.args.args or function.args.posonlyargs:
            return None
        returns = returns_of(function)
        if len(returns) != 1 or returns[0].value is None or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
            return None
        scope = resolver.index.scopes.get(id(function))
        if scope is None:
            return None
        value = resolver.resolve(returns[0].value, Site(returns[0].lineno, (), function, scope), depth + 2)
        table = value if _is_dict(value) and value.single.value.complete else None
        self._factories[key] = table
        return table

    def _returned_dicts(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``DataLoader(ds, **loader_args(train=True))``: a module-level function of the project,
        of this module or another, every ``return`` of which gives a dict whose keys are all
        known (``namespaces.returns_dicts``), resolved in its own module with its parameters
        bound to the call's arguments: one dict, each key holding what every return that can
        give the call's result sets there (ABSENT where a return lacks it), under the tests on
        the path to that return that read no parameter (``if not torch.cuda.is_available():
        return {...}``; a test of a parameter the call does not fix drops nothing and guards
        nothing). None for anything else."""
        if depth > MAX_DEPTH // 2 or any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        if target.path and target.path != self.path:
            record = self._function_record(target, self.path)
            if record is None or not record.returns_dicts:
                return None  # decided on the summary: the module is parsed only for such a function
        key = ("dicts", target.path, target.name)
        if key in self._factories:
            return None  # a function whose returns call itself
        function, resolver = self._project_function(target)
        if function is None or resolver is None or (resolver is self and not returns_dicts(function)):
            return None
        env = self._bound_arguments(function, node, site, depth)
        if env is None:
            return None
        resolver._factories[key] = None
        try:
            return resolver._dict_returns(function, env, depth + 1)
        finally:
            resolver._factories.pop(key, None)

    def _dict_returns(self, function: ast.FunctionDef, env: Dict[int, Value], depth: int) -> Optional[Value]:
        """``_returned_dicts`` in the function's own module, its parameters bound to ``env``."""
        scope = self.index.scopes.get(id(function))
        if scope is None:
            return None
        args = function.args
        params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        params.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
        saved = self.param_env, self._params_as_defaults
        self.param_env, self._params_as_defaults = env, True
        options: List[Possible] = []
        try:
            paths = return_paths(function)
            for statement in returns_of(function):
                where = Site(statement.lineno, (), function, scope)
                conds = paths.get(id(statement), ())
                if self._never_taken(conds, function, env, where, depth):
                    continue  # ``if not train: return {...}`` for a call passing train=True
                value = self.resolve(statement.value, where, depth + 1)
                if not _is_dict(value) or not value.single.value.complete:
                    return None
                guards = tuple(
                    self.guard_for(test, where, depth + 1) if polarity else self.guard_for(test, where, depth + 1).negate()
                    for test, polarity in conds
                    if not any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(test))
                )
                options.append(Possible(value.single.value, value.single.origin, guards))
        finally:
            self.param_env, self._params_as_defaults = saved
        if not options:
            return None
        if len(options) == 1:
            return Value.known(options[0].value)
        return Value.known(_merge_dict_options(options))

    def _nested_factory(self, node: ast.Call, site: Site, depth: int, element: Optional[Tuple[int, int]] = None) -> Optional[Value]:
        """``_factory_value`` for a function defined inside the function that calls it
        (``def dataset_fn(train, transform): return CIFAR10(..., transform=transform)`` in
        ``get_data``, then ``DataSubset(dataset_fn(True, transform_train))``): the one ``def``
        that reaches the call, its parameters bound to the call's arguments, the names it reads
        from the enclosing function resolved there. None for anything else (two definitions on
        different paths, a generator, an unknown return)."""
        func = node.func
        if depth > MAX_DEPTH // 2 or not isinstance(func, ast.Name):
            return None
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        _, bindings = self.lookup(func.id, site)
        reaching = self._reaching(bindings, site) if bindings else []
        if len(reaching) != 1:
            return None
        binding = reaching[0][0]
        function = binding.node
        if binding.kind != "def" or not isinstance(function, ast.FunctionDef):
            return None
        env = self._bound_arguments(function, node, site, depth)
        if env is None:
            return None
        return self._built_returns(function, env, depth + 1, element)

    def _project_function(self, target: FunctionRef) -> Tuple[Optional[ast.FunctionDef], Optional["Resolver"]]:
        """The module-level function ``target`` names (one ``def`` of the name) and the resolver
        of its module: this one, or another module's analysis (parsed once per run), whose bytes
        the answer then rests on. (None, None) when it cannot be read."""
        if target.path == self.path:
            functions = [f for f in self.index.module_functions if getattr(f, "name", None) == target.name]
            function = functions[0] if len(functions) == 1 else None
            return (function, self) if isinstance(function, ast.FunctionDef) else (None, None)
        reader = getattr(self.project, "analysis_at", None)
        other = reader(target.path, target.module) if reader is not None else None
        function = other.function_node(target.name) if other is not None else None
        if not isinstance(function, ast.FunctionDef):
            return None, None
        self.project.read_config_file(target.path)  # the answer rests on that module's bytes
        return function, other.resolver

    def _static_factory(self, func: ast.Attribute, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``ImageNetDataset.get_test(path)``: a ``@staticmethod`` of a module-level class of the
        project whose every ``return`` constructs something (``namespaces.built_by``): what it
        builds, resolved in its module (this one, or another's analysis, parsed once per run and
        only when its bytes hold ``@staticmethod``) with the call's arguments bound, as for a
        module-level function (``_foreign_factory``). None otherwise."""
        if depth > MAX_DEPTH // 2 or not isinstance(func.value, ast.Name) or not hasattr(self.project, "may_hold"):
            return None
        _, bindings = self.lookup(func.value.id, site)
        if len(bindings) != 1 or bindings[0].kind not in ("import", "class"):
            return None  # an object (``accelerator.prepare(...)``), not a class: not resolved for this
        owner = self.resolve(func.value, site, depth + 1).single
        cls = owner.value if owner is not None else None
        if not isinstance(cls, FunctionRef) or cls.kind != "class" or not cls.path:
            return None
        if cls.path == self.path:
            other: Any = self
        else:
            if not self.project.may_hold(cls.module, cls.path, b"@staticmethod"):
                return None
            summary = self.project.summary(cls.module, cls.path)
            records = [c for c in summary.summary.classes if c.name == cls.name] if summary is not None else []
            if len(records) != 1 or func.attr not in records[0].static_builds:
                return None  # (the summary's answer: a comment edit there keeps it)
            analysis = self.project.analysis_at(cls.path, cls.module)
            other = analysis.resolver if analysis is not None else None
            if other is None:
                return None
            self.project.read_config_file(cls.path)  # the answer rests on that module's bytes
        classes = [c for c in other.index.module_classes if c.name == cls.name]
        methods = [
            m for m in (classes[0].body if len(classes) == 1 else ())
            if isinstance(m, ast.FunctionDef) and m.name == func.attr
        ]
        if len(methods) != 1 or not static_builder(methods[0]):
            return None
        method = methods[0]
        env = self._bound_arguments(method, node, site, depth, spread=True)
        if env is None:
            return None
        return other._built_returns(method, env, depth + 1, None)

    def _builds_in_every_return(self, target: FunctionRef) -> bool:
        """Whether the summary of ``target``'s module says every ``return`` of that function
        constructs a dataset dl-lint reads by its arguments (``FunctionRecord.builds``): a
        torchvision dataset, a torch dataset wrapper, a class of the library table, or a
        project class. Only then is the module parsed and the call's arguments resolved
        (``_foreign_factory``): resolving them can read other modules (an ``Accelerator``
        handed to a helper returning a Hugging Face dataset)."""
        key = f"{target.path}::{target.name}"
        found = self._library_built_of.get(key)
        if found is None:  # once per function, not at each call of it
            found = self._library_built_of[key] = self._library_built(target)
        return found

    def _library_built(self, target: FunctionRef) -> bool:
        summary = self.project.summary(target.module, self.path) if hasattr(self.project, "summary") else None
        if summary is None or summary.path != target.path:
            return False
        records = [f for f in summary.summary.functions if f.name == target.name]
        if len(records) != 1 or not records[0].builds:
            return False
        from dl_lint.analysis.libraries import library_dataset

        for text, row in records[0].builds:
            callee = parse_expression(text, row)
            built = summary.resolver.resolve(callee, END, 1).single if callee is not None else None
            ref = built.value if built is not None else None
            if isinstance(ref, FunctionRef) and ref.kind == "class":
                continue
            qualname = ref.qualname if isinstance(ref, External) else ""
            if qualname in TRANSFORM_HOLDERS:
                continue  # ``return albu.Compose(steps)``: read there, it may keep a local function (DL202)
            if not (qualname.startswith("torchvision.datasets.") or qualname in DATASET_WRAPPERS or library_dataset(qualname) is not None):
                return False
        return True

    def _foreign_factory(self, target: FunctionRef, node: ast.Call, site: Site, depth: int, element: Optional[Tuple[int, int]]) -> Optional[Value]:
        """``_factory_value`` with ``element`` for a module-level function of another module of
        the project (``train_set, val_set, n = utils.get_dataset(...)``): the call's arguments
        bound here, the function's returns resolved in that module's own analysis (parsed once
        per run; the answer rests on its bytes, recorded for the cache and partial runs)."""
        if depth > MAX_DEPTH // 2:
            return None
        reader = getattr(self.project, "analysis_at", None)
        other = reader(target.path, target.module) if reader is not None else None
        if other is None:
            return None
        self.project.read_config_file(target.path)
        function = other.function_node(target.name)
        if not isinstance(function, ast.FunctionDef):
            return None
        env = self._bound_arguments(function, node, site, depth, spread=True)
        if env is None:
            return None
        return other.resolver._built_returns(function, env, depth + 1, element)

    def _built_returns(self, function: ast.FunctionDef, env: Dict[int, Value], depth: int, element: Optional[Tuple[int, int]]) -> Optional[Value]:
        """What every ``return`` of ``function`` (a function of this module) builds, resolved
        with its parameters bound to ``env`` (``_factory_value``)."""
        returns = returns_of(function)
        if not returns or len(returns) > 4 or any(r.value is None for r in returns):
            return None
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
            return None  # a generator: the call returns a generator object
        scope = self.index.scopes.get(id(function))
        if scope is None:
            return None
        saved = self.param_env, self._params_as_defaults
        self.param_env, self._params_as_defaults = env, True
        try:
            options: List[Possible] = []
            paths = return_paths(function)
            by_caller = False  # a test left open by a parameter of the function the call is in
            for statement in returns:
                site = Site(statement.lineno, (), function, scope)
                conds = paths.get(id(statement), ())
                if self._never_taken(conds, function, env, site, depth):
                    continue  # ``if mode == "gt": return f`` for a call passing "train"
                by_caller = by_caller or self._caller_decides(conds, function, env)
                returned = statement.value
                if element is not None:
                    index, width = element
                    if not isinstance(returned, ast.Tuple) or len(returned.elts) != width or any(isinstance(e, ast.Starred) for e in returned.elts):
                        return None
                    returned = returned.elts[index]
                value = self.resolve(returned, site, depth + 2)
                if value.is_unknown or not value.options:
                    return None
                if not all(_built(p.value) or (element is not None and _built_table(p.value)) for p in value.options):
                    return None
                options.extend(value.options)
        finally:
            self.param_env, self._params_as_defaults = saved
        if not options:
            return None
        # ``build_collate(kind)`` in ``def get_loader(ds, kind="pad")``: the returns depend on
        # what get_loader's callers pass, so the loader is judged at each call (a factory)
        return Value(tuple(_dedupe(options)), "parameter" if by_caller and len(options) > 1 else None)

    @staticmethod
    def _caller_decides(conds, function: ast.AST, env: Dict[int, Value]) -> bool:
        """Whether a path condition of a ``return`` reads a parameter of ``function`` that the
        call binds to a parameter of the function the call is in (its value's source is
        "parameter"): that function's callers decide the test."""
        args = function.args  # type: ignore[attr-defined]
        params = {a.arg: a for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        for test, _polarity in conds:
            for leaf in ast.walk(test):
                if isinstance(leaf, ast.Name) and leaf.id in params:
                    value = env.get(id(params[leaf.id]))
                    if value is not None and value.source == "parameter":
                        return True
        return False

    def _never_taken(self, conds, function: ast.AST, env: Dict[int, Value], site: Site, depth: int) -> bool:
        """Whether one of a ``return``'s path conditions (``namespaces.return_paths``) is false
        for the call being resolved: that return does not give the call's result. A test is
        decided only from values this call fixes: literals, the call's arguments when they are
        not configurable themselves (a caller's parameter, an option), and the defaults of the
        parameters it leaves out. Anything else decides nothing."""
        for test, polarity in conds:
            found = self._fixed_truth(test, function, env, site, depth)
            if found is not None and found != polarity:
                return True
        return False

    def _fixed_truth(self, test: ast.expr, function: ast.AST, env: Dict[int, Value], site: Site, depth: int) -> Optional[bool]:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._fixed_truth(test.operand, function, env, site, depth)
            return None if inner is None else not inner
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left = self._fixed_value(test.left, function, env, site, depth)
            right = self._fixed_value(test.comparators[0], function, env, site, depth)
            if left is NO_LITERAL or right is NO_LITERAL:
                return None
            if isinstance(test.ops[0], (ast.In, ast.NotIn)):
                if not isinstance(right, tuple):
                    return None
                return (left in right) == isinstance(test.ops[0], ast.In)
            op = _CMP_OPS.get(type(test.ops[0]))
            return None if op is None else Guard("", op, right).holds(left)
        value = self._fixed_value(test, function, env, site, depth)
        if value is NO_LITERAL or not isinstance(value, (bool, int, float, str, type(None))):
            return None
        return bool(value)

    def _fixed_value(self, node: ast.expr, function: ast.AST, env: Dict[int, Value], site: Site, depth: int) -> Any:
        found = literal(node)
        if found is not NO_LITERAL:
            return found
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = [literal(e) for e in node.elts]
            return NO_LITERAL if any(i is NO_LITERAL for i in items) else tuple(items)
        scope = self.index.scopes.get(id(function)) if isinstance(node, ast.Name) else None
        parameter = next((b for b in scope.bindings.get(node.id, ()) if b.kind == "param"), None) if scope is not None else None
        if parameter is None:
            return NO_LITERAL
        if id(parameter.node) in env:
            value = env[id(parameter.node)]
            if value.single is None or value.source in CONFIGURABLE:
                return NO_LITERAL
            return value.single.value
        return literal(parameter.value)  # its default (None: no default, not a literal)

    def namespace_kind(self, target: FunctionRef) -> Optional[int]:
        """``namespaces.namespace_return`` of a module-level function of the project (this
        module's, or another's through its summary)."""
        return self._namespace_facts(target)[0]

    def parsed_by(self, target: FunctionRef) -> ParsedArgs:
        """The namespace a call of ``target`` returns (its ``namespace_kind`` is a namespace)."""
        return ParsedArgs(target.module, target.path, self._namespace_facts(target)[1])

    def _namespace_facts(self, target: FunctionRef) -> Tuple[Optional[int], Tuple[str, ...]]:
        if target.path == self.path:
            key = ("namespace", target.name)
            if key not in self._namespaces:
                found = [f for f in self.index.module_functions if getattr(f, "name", None) == target.name]
                candidate = len(found) == 1 and id(found[0]) in self.index.parsing_functions
                kind = namespace_return(found[0]) if candidate else None
                use = self.index.uses.get(id(found[0])) if kind is not None else None
                self._namespaces[key] = (kind, edited_attributes(found[0], use.names if use is not None else None) if kind is not None else ())
            return self._namespaces[key]
        record = self._function_record(target, self.path)
        return (record.namespace, record.edited) if record is not None else (None, ())

    def parser_options(self, parsed: "ParsedArgs") -> Dict[str, List[Possible]]:
        """The argparse options of the module that builds the parser of ``parsed``."""
        if parsed.chain:
            return self._chain_options(parsed.chain)
        if parsed.path == self.path:
            return self._argparse_options()
        summary = self.project.summary(parsed.module, self.path) if hasattr(self.project, "summary") else None
        if summary is None or summary.path != parsed.path:
            return {}
        if summary.index.pending_arguments:
            from dl_lint.analysis.summary import read_arguments

            read_arguments(summary.index)
            summary.resolver._argparse = None
        return summary.resolver._argparse_options()

    def option_parse(self, func_node: ast.Attribute, site: Site, depth: int) -> Optional[Value]:
        """``opt = TrainOptions().parse()``: a method of a project option class (found through
        its project bases, ``namespaces.option_classes``) whose every ``return`` gives the
        namespace it parses: the namespace of the flags the classes' bodies add, less what the
        method sets on it. None when the object is not such a class, a class of the chain hands
        its parser to other code (or calls ``parse_known_args``/``set_defaults``), a base is not
        a project class, or a class has several bases."""
        if depth > MAX_DEPTH // 2 or not hasattr(self.project, "summary"):
            return None
        owner = self.resolve(func_node.value, site, depth + 1).single
        instance = owner.value if owner is not None else None
        if not isinstance(instance, Instance) or instance.local:
            return None
        key = (instance.module, instance.path, instance.name, func_node.attr)
        if key not in self._option_parses:
            self._option_parses[key] = None  # a chain that loops is not followed
            self._option_parses[key] = self._option_parse(instance, func_node.attr, depth)
        found = self._option_parses[key]
        return Value.known(found) if found is not None else None

    def _option_parse(self, instance: Instance, method: str, depth: int) -> Optional[ParsedArgs]:
        chain: List[Tuple[str, str, str]] = []
        records: List[Tuple[Any, ...]] = []
        module, path, name = instance.module, instance.path, instance.name
        for _ in range(8):
            summary = self.project.summary(module, self.path)
            if summary is None or (path and summary.path != path):
                return None
            classes = [c for c in summary.summary.classes if c.name == name]
            if len(classes) != 1:
                return None
            record = next((r for r in summary.summary.option_classes if r[0] == name), None)
            if record is not None and record[3]:
                return None  # the parser is handed to code whose flags dl-lint does not read
            methods = record[5] if record is not None else tuple(m.name for m in classes[0].methods)
            if record is None and methods:
                return None  # a class of the chain whose methods may change the parser (``self.parser = ...``)
            chain.append((summary.module_name, summary.path, name))
            records.append(record if record is not None else (name, (), (), False, (), methods))
            bases = [b for b in classes[0].bases if b != "object"]
            if not bases:
                break
            if len(bases) != 1:
                return None
            ref = summary.resolver.resolve(parse_expression(bases[0], classes[0].line), END, depth + 1).single
            target = ref.value if ref is not None else None
            if not isinstance(target, FunctionRef) or target.kind != "class" or not target.path:
                return None
            module, path, name = target.module, target.path, target.name
        else:
            return None
        owner = next((r for r in records if method in r[5]), None)
        if owner is None:
            return None
        edited = next((e for m, e in owner[2] if m == method), None)
        if edited is None:
            return None
        first = chain[0]
        return ParsedArgs(first[0], first[1], tuple(edited), tuple(reversed(chain)))

    def _chain_options(self, chain: Tuple[Tuple[str, str, str], ...]) -> Dict[str, List[Possible]]:
        """The options of an option class chain (base first): each class's ``add_argument``
        calls, read in its own module."""
        if chain in self._chains:
            return self._chains[chain]
        options: Dict[str, List[Possible]] = {}
        self._chains[chain] = options
        for module, path, name in chain:
            summary = self.project.summary(module, self.path)
            if summary is None or summary.path != path:
                options.clear()
                return options
            record = next((r for r in summary.summary.option_classes if r[0] == name), None)
            for text, line in record[4] if record is not None else ():
                call = parse_expression(text, line)
                parsed = summary.resolver._parse_add_argument(call) if isinstance(call, ast.Call) else None
                if parsed is not None:
                    dest, possible = parsed
                    options.setdefault(dest, []).append(possible)
        return options

    def _argparse_options(self) -> Dict[str, List[Possible]]:
        if self._argparse is None:
            self._argparse = {}
            for call in self.index.add_arguments:
                parsed = self._parse_add_argument(call)
                if parsed is not None:
                    dest, possible = parsed
                    self._argparse.setdefault(dest, []).append(possible)
                elif call.args and not isinstance(call.args[0], ast.Constant):
                    for dest, possible in self._dataclass_arguments(call):  # generated from a dataclass's fields
                        self._argparse.setdefault(dest, []).append(possible)
            for resolver, call in self._foreign_arguments():
                parsed = resolver._parse_add_argument(call)  # its defaults read in its own module
                if parsed is not None:
                    dest, possible = parsed
                    self._argparse.setdefault(dest, []).append(possible)
            for dest, possible in self._dict_flag_arguments():
                self._argparse.setdefault(dest, []).append(possible)
            self._apply_set_defaults(self._argparse)
        return self._argparse

    def _set_at_module_level(self, base: ast.Name, attr: str, site: Site, depth: int) -> Optional[Value]:
        """An attribute of the module's global namespace that module-level code sets after
        parsing (``args.workers = 4``, ``ModuleIndex.attr_writes``), read in a function through
        the global ``args``: the value set, when that is the only write of ``args.<attr>`` at
        module level and stands directly in the module's body (no ``if``, loop or ``try`` around
        it), and no other module-level function sets that attribute; unknown when it is written
        any other way (twice, under an ``if``, in another function: the parser's default is not
        what the function reads). ``setattr`` and ``vars(args)`` are not followed, as for a
        namespace parameter (``_set_elsewhere``). None when nothing outside the function sets
        it, or the read is at module level (resolved in order there)."""
        if site.scope is None or self.tree is None:
            return None
        own = self.index.scopes.get(id(site.scope))
        if own is None or base.id in own.bindings or own.parent is not self.index.module_scope:
            return None  # a parameter or local of the function, or a nested function: not the global
        if not self.index.module_scope.bindings.get(base.id):
            return None
        writes = self.index.attr_writes.get((None, base.id, attr), [])
        elsewhere = any(attr in edited for function, edited in self._function_edits() if function is not site.scope)
        if not writes and not elsewhere:
            return None
        if elsewhere or len(writes) != 1:
            return Value.unknown("argparse")
        value, where = writes[0]
        if value is None or plain_conds(where.conds):
            return Value.unknown("argparse")  # augmented, or under an ``if``, loop or ``try``
        return self.resolve(value, where, depth + 1)

    def _foreign_arguments(self) -> List[Tuple[Any, ast.Call]]:
        """The ``add_argument`` calls of the project functions of other modules that this module
        hands a parser to (``parser = params.basic_training_parameters(parser)``,
        ``add_model_args(parser)``), with their module's resolver: a parser assembled by helper
        functions of another module has their flags. Read in the function and in the functions
        of its module it hands its first parameter on to (one level more). A parser is a name
        some binding of the module gives ``ArgumentParser(...)``; found once per module."""
        if self._foreign is not None:
            return self._foreign
        self._foreign = []
        reader = getattr(self.project, "analysis_at", None)
        if reader is None or self.index is None:
            return self._foreign
        parsers = self._parser_names()
        if not parsers and not any(
            isinstance(a, ast.Call) and terminal(a.func) == "ArgumentParser" for call, _, _, _ in self.index.calls for a in call.args
        ):
            return self._foreign  # (a parser may be made in the call itself: ``init(ArgumentParser())``)
        seen: Set[Tuple[str, str]] = set()
        for call, site, _, _ in self.index.calls:
            if not any(
                (isinstance(a, ast.Name) and a.id in parsers) or (isinstance(a, ast.Call) and terminal(a.func) == "ArgumentParser")
                for a in (*call.args, *(k.value for k in call.keywords))
            ):
                continue
            if terminal(call.func) in ("parse_args", "parse_known_args", "ArgumentParser"):
                continue
            found = self.resolve(call.func, site).single
            ref = found.value if found is not None else None
            method = None
            if not isinstance(ref, FunctionRef) and isinstance(call.func, ast.Attribute):
                # ``Options().init(parser)``: a method of a class of another project module
                held = self.resolve(call.func.value, site).single
                target = held.value if held is not None else None
                if isinstance(target, Instance) and not target.local and target.path and target.path != self.path:
                    ref, method = FunctionRef("method", target.module, target.name, 0, target.path), call.func.attr
            if not isinstance(ref, FunctionRef) or ref.kind not in ("function", "method") or not ref.path or ref.path == self.path:
                continue
            if ref.kind == "method" and method is None:
                continue
            if (ref.path, f"{ref.name}.{method}" if method else ref.name) in seen or len(seen) >= 32:
                continue
            seen.add((ref.path, f"{ref.name}.{method}" if method else ref.name))
            other = reader(ref.path, ref.module)
            if other is None:
                continue
            function = other.function_node(ref.name) if method is None else _method_node(other.index, ref.name, method)
            if function is None:
                continue
            self.project.read_config_file(ref.path)  # the flags rest on that module's bytes
            functions = [function]
            first = [*function.args.posonlyargs, *function.args.args]
            if first:
                for node in ast.walk(function):  # ``parser = more_params(parser)`` inside it
                    if (
                        isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Name)
                        and any(isinstance(a, ast.Name) and a.id == first[0].arg for a in node.args)
                    ):
                        inner = other.function_node(node.func.id)
                        if inner is not None and inner is not function and inner not in functions:
                            functions.append(inner)
            for each in functions:
                for node in ast.walk(each):
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                        self._foreign.append((other.resolver, node))
        return self._foreign

    def _parser_names(self) -> Set[str]:
        """The names some binding of this module gives ``ArgumentParser(...)``."""
        parsers: Set[str] = set()
        for scope in (self.index.module_scope, *self.index.scopes.values()):
            for name, bindings in scope.bindings.items():
                if any(isinstance(b.value, ast.Call) and terminal(b.value.func) == "ArgumentParser" for b in bindings):
                    parsers.add(name)
        return parsers

    def _dict_flag_arguments(self) -> List[Tuple[str, Possible]]:
        """Flags a helper adds from a dict it is handed: ``add_dict_to_argparser(parser,
        defaults)`` (OpenAI's improved-diffusion and guided-diffusion, and the many projects
        built on them), a function of this module or another whose body walks a dict parameter
        and adds one flag per key with the key's value as its default::

            for k, v in default_dict.items():
                parser.add_argument(f"--{k}", default=v, type=v_type)

        At each call of it in this module that hands it a parser (a name bound to
        ``ArgumentParser(...)``) and a dict whose keys are all known (``DictValue`` complete),
        each key is a flag, its value the default. A loop that adds flags any other way
        (``action``, ``dest``, ``nargs``, a default that is not the value) is not read."""
        if self._dict_flags is not None:
            return self._dict_flags
        self._dict_flags = []
        parsers = self._parser_names() if self.index is not None else set()
        if not parsers:
            return self._dict_flags
        for call, site, _, _ in self.index.calls:
            if not any(isinstance(a, ast.Name) and a.id in parsers for a in call.args):
                continue
            found = self.resolve(call.func, site).single
            ref = found.value if found is not None else None
            if not isinstance(ref, FunctionRef) or ref.kind != "function" or not ref.path:
                continue
            function, _ = self._project_function(ref)  # (another module's: the flags rest on its bytes)
            walked = _dict_flag_loop(function) if function is not None else None
            if walked is None:
                continue
            parser_at, dict_at, dict_param = walked
            if len(call.args) <= parser_at or not (isinstance(call.args[parser_at], ast.Name) and call.args[parser_at].id in parsers):
                continue
            given = call.args[dict_at] if dict_at < len(call.args) else next((k.value for k in call.keywords if k.arg == dict_param), None)
            if given is None or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                continue
            content = self.resolve(given, site).single
            table = content.value if content is not None else None
            if not isinstance(table, DictValue) or not table.complete:
                continue
            origin_text = f"{self.code(call.func)}({self.code(given)})"
            for key, value in table.entries:
                if not isinstance(key, str):
                    continue
                dest = key.replace("-", "_")
                single = value.single
                if single is None or single.value is ABSENT:
                    self._dict_flags.append((dest, Possible(_UNKNOWN_DEFAULT)))
                    continue
                where = single.origin if single.origin is not None and single.origin.line else Origin(
                    f"default of --{key}, a key of the dict handed to {origin_text}", self.path, self.line(call)
                )
                self._dict_flags.append((dest, Possible(single.value, where)))
        return self._dict_flags

    def _handed_back_parser(self, node: ast.expr, site: Site, depth: int) -> bool:
        """Whether ``node`` is ``Options().init(parser)``: a plain method of a class of another
        project module, called on an instance and handed a parser (``ArgumentParser(...)`` or a
        name bound to one) as its first argument, whose every ``return`` gives that parameter
        back (``_foreign_arguments`` reads the flags it adds); or a name whose latest binding
        before ``site``, in straight-line code, is such a call (``parser = Options().init(parser)``)."""
        if isinstance(node, ast.Name) and depth <= MAX_DEPTH:
            _, bindings = self.lookup(node.id, site)
            earlier = [b for b in bindings if b.site is not None and b.site.line < site.line and b.site.scope is site.scope]
            latest = max(earlier, key=lambda b: b.site.line, default=None)
            if latest is None or latest.kind != "assign" or latest.site.conds != site.conds[: len(latest.site.conds)]:
                return False
            return self._handed_back_parser(latest.value, latest.site, depth + 1)
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or not node.args or depth > MAX_DEPTH:
            return False
        given = self.resolve(node.args[0], site, depth + 1).single
        if given is None or not isinstance(given.value, Opaque) or given.value.qualname != "argparse.ArgumentParser":
            return False
        held = self.resolve(node.func.value, site, depth + 1).single
        target = held.value if held is not None else None
        if not isinstance(target, Instance) or target.local or not target.path or target.path == self.path:
            return False
        reader = getattr(self.project, "analysis_at", None)
        other = reader(target.path, target.module) if reader is not None else None
        method = _method_node(other.index, target.name, node.func.attr) if other is not None else None
        params = method.args.args if isinstance(method, ast.FunctionDef) else []
        if len(params) < 2:
            return False
        returns = [n for n in ast.walk(method) if isinstance(n, ast.Return)]
        return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == params[1].arg for r in returns)

    def _dataclass_arguments(self, call: ast.Call) -> List[Tuple[str, Possible]]:
        """``for f in dataclasses.fields(Config): parser.add_argument(f"--{f.name}",
        default=f.default)`` (also ``for k, v in vars(Config()).items()`` / ``asdict(Config())``
        with ``f"--{k}", default=v``): one flag per field of the module's dataclass, its default
        the field's. A default written otherwise, ``action=``, ``dest=``, ``required=`` or a
        ``**`` make the flags' values unknown; a field without a plain default is unknown."""
        from dl_lint.analysis.configs.dataclasses import dataclass_fields

        if self._with_loops is None:
            self._with_loops = {}
            if self.tree is not None:
                wanted = {id(c) for c in self.index.add_arguments}
                for loop in ast.walk(self.tree):
                    if isinstance(loop, ast.For):
                        for node in ast.walk(loop):
                            if id(node) in wanted:
                                self._with_loops[id(node)] = loop  # the innermost loop wins (walked last)
        loop = self._with_loops.get(id(call))
        if loop is None or len(call.args) != 1:
            return []
        it = loop.iter
        name_of = default_of = None  # the loop variables naming a field and its default
        if isinstance(loop.target, ast.Name) and isinstance(it, ast.Call) and len(it.args) == 1 and self._qualname_of(it.func, END, 1) == "dataclasses.fields":
            source, name_of, default_of = it.args[0], ("attr", loop.target.id, "name"), ("attr", loop.target.id, "default")
        elif (
            isinstance(loop.target, ast.Tuple)
            and len(loop.target.elts) == 2
            and all(isinstance(e, ast.Name) for e in loop.target.elts)
            and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Attribute)
            and it.func.attr == "items"
            and isinstance(it.func.value, ast.Call)
            and len(it.func.value.args) == 1
            and self._qualname_of(it.func.value.func, END, 1) in ("builtins.vars", "dataclasses.asdict")
        ):
            source = it.func.value.args[0]
            name_of, default_of = ("name", loop.target.elts[0].id, ""), ("name", loop.target.elts[1].id, "")
        else:
            return []
        instance = isinstance(source, ast.Call) and not source.args and not source.keywords
        if name_of[0] == "name" and not instance:
            return []  # vars(obj) of an object built elsewhere: its fields may not be the defaults
        target = self.resolve(source.func if instance else source, END, 1).single
        owned = self._dataclass_owner(target.value if target is not None else None, 1)
        cls, owner = owned if owned is not None else (None, self)
        fields = dataclass_fields(cls) if cls is not None else None
        if not fields:
            return []

        def names(expr: ast.AST, what: Tuple[str, str, str]) -> bool:
            kind, var, attr = what
            if kind == "attr":
                return isinstance(expr, ast.Attribute) and expr.attr == attr and isinstance(expr.value, ast.Name) and expr.value.id == var
            return isinstance(expr, ast.Name) and expr.id == var

        named = flag_after_dashes(call.args[0])
        if named is None or not names(named, name_of):
            return []
        keywords = {k.arg: k.value for k in call.keywords}
        unknown = None in keywords or any(k in keywords for k in ("action", "dest", "required", "nargs", "const"))
        default = keywords.get("default")
        out = []
        for field in fields:
            if unknown or (default is not None and not names(default, default_of)) or field.default is None:
                out.append((field.name, Possible(_UNKNOWN_DEFAULT)))
                continue
            if default is None:
                out.append((field.name, Possible(None, Origin(f"default of --{field.name}", self.path, self.line(call)))))
                continue
            value = owner.resolve(field.default, END, 1).single
            if value is None:
                out.append((field.name, Possible(_UNKNOWN_DEFAULT)))
                continue
            out.append((field.name, Possible(value.value, Origin(f"default of --{field.name} (field {cls.name}.{field.name})", owner.path, field.line))))
        return out

    def _apply_set_defaults(self, options: Dict[str, List[Possible]]) -> None:
        """``parser.set_defaults(pin_mem=True)``: argparse's parser-level defaults override the
        ``default`` (or the ``store_true`` False) of every argument with that dest."""
        replaced: Set[str] = set()
        for call, site, _, _ in self.index.calls:
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "set_defaults"):
                continue
            if any(k.arg is None for k in call.keywords) and self._config_file_defaults(call, site, options):
                continue
            if any(k.arg is None for k in call.keywords):
                expanded = expanded_set_defaults(self.tree, self.index, call, site.scope)
                if expanded is not None:  # ``**{dest_name: default}`` of a helper: the keys its calls set
                    for dest, value, line in expanded:
                        if value is not None:
                            possible = Possible(literal(value), Origin(f"set_defaults({dest}=...)", self.path, line))
                        else:
                            possible = Possible(_UNKNOWN_DEFAULT)
                        if dest not in replaced:
                            options[dest] = []
                            replaced.add(dest)
                        options[dest].append(possible)
                    continue
            for keyword in call.keywords:
                dests = [keyword.arg] if keyword.arg is not None else list(options)  # ``**d``: any of them
                single = self.resolve(keyword.value, END, 1).single if keyword.arg is not None else None
                if single is not None:
                    possible = Possible(single.value, Origin(f"set_defaults({keyword.arg}=...)", self.path, self.line(call)))
                else:
                    possible = Possible(_UNKNOWN_DEFAULT)
                for dest in dests:
                    if dest not in replaced:
                        options[dest] = []
                        replaced.add(dest)
                    options[dest].append(possible)

    def _config_file_defaults(self, call: ast.Call, site: Site, options: Dict[str, List[Possible]]) -> bool:
        """``parser.set_defaults(**cfg)`` of a config file the script loads (``cfg =
        yaml.safe_load(f)``, timm's and configargparse's shape): each file that holds a flag's dest
        as a top-level key is a run giving that value (``configs.runs``); the flag's own default
        stays the run without a file. False when ``**`` is not such a config (then unknown)."""
        from dl_lint.analysis.configs.runs import DEFAULTS_RUN, RunOrigin, runs_value

        if len(call.keywords) != 1 or call.args:
            return False
        single = self.resolve(call.keywords[0].value, site, 1).single
        config = single.value if single is not None else None
        if not isinstance(config, LoadedConfig) or config.keys or config.edited:
            return False
        for dest, possibles in list(options.items()):
            kind, found = self.project.keypath_lookup(config.child(dest))
            if kind == "mapping":
                options[dest] = [Possible(_UNKNOWN_DEFAULT)]
                continue
            if kind != "values":
                continue  # no file sets it: the flag's default
            defaults = []
            for p in possibles:
                if p.value is _UNKNOWN_DEFAULT or p.origin is None:
                    defaults.append(p)
                    continue
                what = p.origin.describe()
                place = (what, p.origin.path or self.path, p.origin.line or 0, frozenset({DEFAULTS_RUN}))
                defaults.append(Possible(p.value, RunOrigin(what, place[1], place[2], (place,)), p.guards))
            options[dest] = [*defaults, *(runs_value(f"key {dest}", found).options or ())]
        return True

    def _parse_add_argument(self, call: ast.Call) -> Optional[Tuple[str, Possible]]:
        parts = _option_parts(call)
        if parts is None:
            return None
        flags, keywords = parts
        if "dest" in keywords:
            dest_value = literal(keywords["dest"])
            dest = dest_value if isinstance(dest_value, str) else None
            if dest is None:
                return None
        else:
            long = [f for f in flags if f.startswith("--")]
            chosen = long[0] if long else flags[0]
            dest = chosen.lstrip("-").replace("-", "_")
        action = literal(keywords["action"]) if "action" in keywords else None
        if "required" in keywords and literal(keywords["required"]) is not False:
            # ``required=True`` (or a computed flag): the command line always gives the value and
            # the default, None when there is none, is never what the program holds
            return dest, Possible(_UNKNOWN_DEFAULT)
        nargs = literal(keywords["nargs"]) if "nargs" in keywords else None
        if all(not f.startswith("-") for f in flags) and nargs not in ("?", "*"):
            return dest, Possible(_UNKNOWN_DEFAULT)  # a positional argument: given on every command line
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
        value = _typed(value, keywords.get("type"))
        if value is _UNKNOWN_DEFAULT:
            return dest, Possible(_UNKNOWN_DEFAULT)
        long = [f for f in flags if f.startswith("--")]
        shown = long[0] if long else flags[0]
        return dest, Possible(value, Origin(f"default of {shown}", self.path, self.line(call)))

    # -- operators ----------------------------------------------------------------------------
    def _resolve_unary(self, node: ast.UnaryOp, site: Site, depth: int) -> Value:
        inner = self.resolve(node.operand, site, depth + 1)
        if inner.is_unknown:
            return Value.unknown(inner.source)
        if isinstance(node.op, ast.Not):
            return _map_options(inner, lambda v: not v)
        if isinstance(node.op, ast.USub):
            return _map_options(inner, operator.neg, numeric=True)
        if isinstance(node.op, ast.UAdd):
            return _map_options(inner, operator.pos, numeric=True)
        return Value.unknown("expression")

    def guard_for(self, test: ast.AST, site: Site = END, depth: int = 0) -> Guard:
        """The guard that ``test`` expresses, matched later against the loader's arguments."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.guard_for(test.operand, site, depth).negate()
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            op = _CMP_OPS.get(type(test.ops[0]))
            if op is not None:
                comparator = test.comparators[0]
                right = literal(comparator)
                if right is not NO_LITERAL:
                    return Guard(self.code(test.left), op, right, aliases=self._aliases_of(test.left, site, depth))
                left = literal(test.left)
                if left is not NO_LITERAL:
                    return Guard(self.code(comparator), _FLIPPED[op], left, aliases=self._aliases_of(comparator, site, depth))
        return Guard(self.code(test), "truthy", aliases=self._aliases_of(test, site, depth))

    def _aliases_of(self, node: ast.AST, site: Site, depth: int) -> Tuple[str, ...]:
        if isinstance(node, (ast.Name, ast.Attribute)) and depth < MAX_DEPTH:
            return self.resolve(node, site, depth + 1).aliases
        return ()

    def _resolve_ifexp(self, node: ast.IfExp, site: Site, depth: int) -> Value:
        test = self.resolve(node.test, site, depth + 1)
        constant = test.single is not None and test.source not in CONFIGURABLE
        if constant and not isinstance(test.single.value, (External, ModuleRef)):
            return self.resolve(node.body if test.single.value else node.orelse, site, depth + 1)
        body = self.resolve(node.body, site, depth + 1)
        orelse = self.resolve(node.orelse, site, depth + 1)
        guard = self.guard_for(node.test, site, depth)
        # ``x if x is not None else os.cpu_count()``, ``n if n else 4``: a branch that is the
        # tested expression itself takes only the values the test lets through; when none of
        # the tested values does (a flag whose default is None), the other branch is the value.
        # When every tested value passes, the other branch never runs.
        runs, body = _narrowed(body, self.code(node.body), guard)
        if runs is not None:
            return body if runs else orelse
        runs, orelse = _narrowed(orelse, self.code(node.orelse), guard.negate())
        if runs is not None:
            return orelse if runs else body
        if body.is_unknown or orelse.is_unknown:
            return Value.unknown(body.source or orelse.source)
        if _is_dict(body) and _is_dict(orelse):
            return Value.known(_merge_dicts(body.single.value, orelse.single.value, guard))
        options = [p.with_guard(guard) for p in body.options or ()]
        options += [p.with_guard(guard.negate()) for p in orelse.options or ()]
        return Value(tuple(options), body.source or orelse.source)

    def _resolve_comparison(self, node: ast.Compare, site: Site, depth: int) -> Value:
        if len(node.ops) != 1:
            return Value.unknown("expression")
        op = _CMP_OPS.get(type(node.ops[0]))
        if op is None:
            return Value.unknown("expression")
        left = self.resolve(node.left, site, depth + 1)
        right = self.resolve(node.comparators[0], site, depth + 1)
        configurable = left.source in CONFIGURABLE or right.source in CONFIGURABLE
        if left.single is not None and right.single is not None and not configurable:
            result = Guard("", op, right.single.value).holds(left.single.value)
            return Value.known(result) if result is not None else Value.unknown("expression")
        # ``num_workers > 0``: True exactly when the guard holds.
        guard = self.guard_for(node, site, depth)
        return Value((Possible(True, None, (guard,)), Possible(False, None, (guard.negate(),))))

    def _resolve_binop(self, node: ast.BinOp, site: Site, depth: int) -> Value:
        func = _BINOPS.get(type(node.op))
        if func is None:
            return Value.unknown("expression")
        left = self.resolve(node.left, site, depth + 1)
        right = self.resolve(node.right, site, depth + 1)
        if left.is_unknown or right.is_unknown:
            bounded = _bounded_arithmetic(node.op, left, right)
            if bounded is not None:
                return bounded  # ``os.cpu_count() // 2 + 1``: at least 1 on every machine
        return _combine([left, right], func, numeric=True)

    def _resolve_boolop(self, node: ast.BoolOp, site: Site, depth: int) -> Value:
        values = [self.resolve(v, site, depth + 1) for v in node.values]
        if any(v.single is None for v in values):
            last = values[-1]
            if isinstance(node.op, ast.Or) and (
                (last.options and all(isinstance(p.value, int) and not isinstance(p.value, bool) and p.value >= 1 for p in last.options))
                or (last.is_unknown and last.source in POSITIVE_SOURCES)
            ):
                # ``args.workers or 4``, ``num_workers or os.cpu_count()``: an unknown count that
                # is never 0 (a falsy one is replaced by the last operand), a positive count for
                # the rules that ask for workers
                return Value.unknown("positive")
            return Value.unknown(next((v.source for v in values if v.source), None) or "expression")
        result = values[0].single.value
        for value in values[1:]:
            if isinstance(node.op, ast.And):
                result = value.single.value if result else result
            else:
                result = result if result else value.single.value
        return Value.known(result)

    # -- calls --------------------------------------------------------------------------------
    def _resolve_call(self, node: ast.Call, site: Site, depth: int) -> Value:
        func_node = node.func
        if (
            isinstance(func_node, ast.Name)
            and func_node.id == "getattr"
            and len(node.args) == 2
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and not self.lookup("getattr", site)[1]  # the builtin: no binding of the name
        ):
            member = self._module_member(node.args[0], node.args[1], site, depth)
            if member is not None:
                return member  # ``getattr(datasets, args.data)``
        if isinstance(func_node, ast.Attribute) and func_node.attr == "get" and _is_self_hparams(func_node.value):
            key = literal(node.args[0]) if node.args and not node.keywords else None
            if self.current_class and isinstance(key, str):
                return self._saved_hparam(key, depth)  # saved, so the fallback is never used
            return Value.unknown("config")
        if (
            isinstance(func_node, ast.Attribute)
            and func_node.attr == "get"
            and node.args
            and len(node.args) <= 2
            and not node.keywords
            and (self._may_load_configs() or bool(self.param_env))  # or a config handed to a factory
        ):
            key = literal(node.args[0])
            if isinstance(key, str):
                owner = self.resolve(func_node.value, site, depth + 1).single
                if owner is not None and isinstance(owner.value, LoadedConfig):
                    # ``cfg.get("num_workers", 0)``: the runs whose file holds the key (a run
                    # without it takes the fallback: not judged)
                    return self._keypath_value(owner.value, key)
        if isinstance(func_node, ast.Attribute) and func_node.attr == "get" and len(node.args) == 2 and not node.keywords:
            found = self._get_with_default(func_node.value, node, site, depth)
            if found is not None:
                return found
        if isinstance(func_node, ast.Attribute) and func_node.attr == "copy" and not node.args and not node.keywords:
            # ``_kwargs = kwargs.copy()``: the same entries (a mapping dl-lint cannot see stays unknown)
            owner = self.resolve(func_node.value, site, depth + 1)
            if _is_dict(owner):
                return Value.known(owner.single.value)
        if isinstance(func_node, ast.Attribute) and func_node.attr == "parse_args":
            found = self._tap_arguments(func_node.value, node, site, depth)
            if found is not None:
                return found
        if isinstance(func_node, ast.Attribute) and func_node.attr in ("parse_args", "parse_known_args"):
            parser = self.resolve(func_node.value, site, depth + 1).single
            if parser is not None and isinstance(parser.value, ParserRef):  # ``get_parser().parse_args()``
                parsed = ParsedArgs(parser.value.module, parser.value.path)
                if func_node.attr == "parse_args":
                    return Value.known(parsed)
                return Value.unknown("argparse")
            if (
                func_node.attr == "parse_args"
                and (
                    (parser is not None and isinstance(parser.value, Opaque) and parser.value.qualname == "argparse.ArgumentParser")
                    or (parser is None and self._handed_back_parser(func_node.value, site, depth))
                )
                and (self.index.add_arguments or self._foreign_arguments())
                and self.tree is not None
            ):
                # ``args = parser.parse_args()`` with a parser of this module: the namespace as the
                # functions it is handed to see it (``make_loader(args)`` in another module), less
                # the attributes the function that parses sets on anything.
                scope = site.scope if site.scope is not None else self.tree
                return Value.known(ParsedArgs(self.module_name, self.path, edited_attributes(scope)))
        if isinstance(func_node, ast.Attribute) and (func_node.attr in WEBDATASET_KEEPING or func_node.attr in WEBDATASET_SAME):
            stage = self._pipeline_stage(func_node, node, site, depth)
            if stage is not None:
                return stage
        if isinstance(func_node, ast.Attribute) and func_node.attr in MODULE_RETURNS_SELF:
            owner = self.resolve(func_node.value, site, depth + 1).single
            if owner is not None and isinstance(owner.value, Instance) and self._module_returns_self(owner.value, func_node.attr):
                return Value.known(owner.value)  # ``Net(...).to(device)``: the same module
        if isinstance(func_node, ast.Attribute) and _PARSE_LIKE in func_node.attr.lower():
            parsed_options = self.option_parse(func_node, site, depth)
            if parsed_options is not None:
                return parsed_options
        func = self.resolve(node.func, site, depth + 1)
        target = func.single.value if func.single is not None else None
        if isinstance(target, External):
            return self._resolve_external_call(target.qualname, node, site, depth)
        if target is None and isinstance(func_node, ast.Attribute):
            kept = self._returned_self(func_node, site, depth)
            if kept is not None:
                return kept
            local = self._returned_local(func_node, site, depth)
            if local is not None:
                return local
            built = self._static_factory(func_node, node, site, depth)
            if built is not None:
                return built
        if isinstance(target, Opaque) and target.qualname == "builtins.method" and isinstance(func_node, ast.Attribute):
            # ``ds.get_collate_fn()``: a method bound to an instance of a project class
            bound = target.wraps[0] if target.wraps and len(target.wraps) == 1 else None
            local = self._returned_local(func_node, site, depth, bound) if isinstance(bound, Instance) else None
            if local is not None:
                return local
        if isinstance(target, FunctionRef) and target.kind == "function":
            kind = self.namespace_kind(target)
            if kind == NAMESPACE:
                return Value.known(self.parsed_by(target))
            if kind == PARSER:
                return Value.known(ParserRef(target.module, target.path))
            passed = self._passed_namespace(target, node, site, depth)
            if passed is not None:
                return passed
            returned = self._returned_config(target, node, site, depth)
            if returned is not None:
                return returned
            built = self._factory_result(target, node, site, depth)
            if built is not None:
                return built
            dicts = self._returned_dicts(target, node, site, depth)
            if dicts is not None:
                return dicts
        if isinstance(target, FunctionRef) and target.kind == "nested":
            built = self._nested_factory(node, site, depth)
            if built is not None:
                return built
        if isinstance(target, FunctionRef) and target.kind in ("class", "local-class"):
            local = target.kind == "local-class"
            if not local and target.module:  # the library itself (webdataset's own tests): its table row
                library = self._library_value(f"{target.module}.{target.name}", node, site, depth)
                if library is not None:
                    return library
            if not local:
                config = self._dataclass_value(target, node, site, depth, parser=None)
                if config is None:
                    config = self._setattr_config_value(target, node, site, depth)
                if config is not None:
                    return config
            holds = None if local else self._handed_callable(target, node, site, depth)
            given = () if local else self._handed_sizes(target, node, site, depth)
            views = self._views(target, given) if given else None
            shape = None if local else call_shape(node)
            rngs = () if local else self._handed_rngs(target, node, site, depth)
            return Value.known(Instance(target.module, target.name, target.line, target.path, local, holds, given, views, shape, rngs))
        return Value.unknown(func.source if func.source in CONFIGURABLE else "expression")

    def _returned_self(self, func: ast.Attribute, site: Site, depth: int) -> Optional[Value]:
        """``Runner(cfg).enter_train()``, ``trainer.eval_mode()``: the instance itself, when its
        class (a module-level class of the project) defines the method and every ``return`` of
        it is ``return self`` (``summary._returns_self``). None otherwise."""
        if func.attr.startswith("__") or depth > MAX_DEPTH // 2 or not hasattr(self.project, "summary"):
            return None
        last = self._last_receiver
        owner = (last[1] if last is not None and last[0] is func else self.resolve(func.value, site, depth + 1)).single
        instance = owner.value if owner is not None else None
        if not isinstance(instance, Instance) or instance.local:
            return None
        holds = getattr(self.project, "may_hold", None)
        if holds is not None and not holds(instance.module, instance.path or self.path, b"return self"):
            return None  # no ``return self`` in its module: not summarised (parsed) for this
        summary = self.project.summary(instance.module, instance.path or self.path)
        if summary is None or (instance.path and summary.path != instance.path):
            return None
        records = [c for c in summary.summary.classes if c.name == instance.name]
        if len(records) != 1 or func.attr not in records[0].returns_self:
            return None
        return Value((Possible(instance, owner.origin),))

    def _returned_local(self, func: ast.Attribute, site: Site, depth: int, bound: Optional["Instance"] = None) -> Optional[Value]:
        """DL202: ``collate_fn = self.get_collate_fn()``, ``ds.get_collate_fn()``: a lambda or a
        nested function, when the instance's class (a module-level class of the project; the
        class the method is written in for ``self``) defines the method and every ``return`` of
        it hands one back (``ClassRecord.local_returns``). Not for a subclass that may override
        it: only the class itself is read. None otherwise."""
        if func.attr.startswith("__") or depth > MAX_DEPTH // 2 or not hasattr(self.project, "summary"):
            return None
        if bound is not None:
            owner = Possible(bound, None)
        else:
            last = self._last_receiver
            owner = (last[1] if last is not None and last[0] is func else self.resolve(func.value, site, depth + 1)).single
        instance = owner.value if owner is not None else None
        if isinstance(instance, Instance) and not instance.local:
            module, name, path = instance.module, instance.name, instance.path or self.path
        elif isinstance(func.value, ast.Name) and func.value.id == "self" and self.current_class and owner is None:
            module, name, path = self.module_name, self.current_class, self.path
        else:
            return None
        summary = self.project.summary(module, path)
        if summary is None or summary.path != path:
            return None
        record = summary.class_record(name)
        handed = [r for r in record.local_returns if r[0] == func.attr] if record is not None else []
        if len(handed) != 1:
            return None
        if isinstance(func.value, ast.Name) and func.value.id == "self" and self._overridden_below(module, name, func.attr):
            return None  # ``self`` may be a subclass's instance, whose method hands back another
        _, kind, local, row = handed[0]
        origin = Origin(f"returned by {name}.{func.attr}()", path, row)
        return Value((Possible(FunctionRef(kind, module, local, row, path), origin),))

    def _overridden_below(self, module: str, name: str, method: str) -> bool:
        """Whether a class of this module derives from ``name`` and defines ``method`` itself."""
        for node in self.index.module_classes:
            bases = {terminal(b) for b in node.bases}
            if name in bases and any(isinstance(s, ast.FunctionDef) and s.name == method for s in node.body):
                return True
        return False

    def _module_returns_self(self, instance: "Instance", method: str) -> bool:
        """Whether ``instance.method(...)`` gives the object back: its class derives from
        ``torch.nn.Module``, whose ``to``, ``cuda``, ``train``, ... return ``self``, directly or
        through project classes with one base each (``class Tacotron2(Base)``, ``class
        Base(nn.Module)``), none of which defines the method."""
        lookup = getattr(self.project, "class_facts", None)
        facts = lookup(instance.module, instance.name, instance.path) if lookup is not None and not instance.local else None
        for _ in range(6):
            if facts is None or method in (facts.methods or {}):
                return False
            if any(names & _TORCH_MODULE for names in facts.bases):
                return True
            if len(facts.bases) != 1:
                return False
            project_bases = [n for n in facts.bases[0] if "@" in n]
            if len(project_bases) != 1:
                return False
            qualname, _, path = project_bases[0].partition("@")
            module, _, name = qualname.rpartition(".")
            facts = lookup(module, name, path)
        return False

    def _passed_namespace(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``args = setup(args)`` where ``setup``, a function of this module or another, hands
        back the namespace it is given (``namespaces.returned_parameter``; another module's
        through its summary: ``returns_param`` and ``edited``): the same namespace, less the
        attributes ``setup`` sets. None for any other call."""
        if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if target.path != self.path:
            if not target.path:
                return None
            position, edited = self._foreign_relay(target)
        else:
            key = ("passes", target.name)
            if key not in self._namespaces:
                found = [f for f in self.index.module_functions if getattr(f, "name", None) == target.name]
                position = returned_parameter(found[0]) if len(found) == 1 else None
                self._namespaces[key] = (position, passed_edits(found[0]) if position is not None else ())
            position, edited = self._namespaces[key]
        if position is None or position >= len(node.args):
            return None
        single = self.resolve(node.args[position], site, depth + 1).single
        if single is None or not isinstance(single.value, ParsedArgs):
            return None
        parsed = single.value
        return Value.known(parsed.with_edits(edited))

    def _function_record(self, target: FunctionRef, near: str):
        """The summary's record of ``target``, a function of the project module at
        ``target.path`` (the summary looked up as seen from ``near``), when exactly one function
        of that name is recorded there; None otherwise."""
        summary = self.project.summary(target.module, near) if hasattr(self.project, "summary") else None
        if summary is None or summary.path != target.path:
            return None
        records = [f for f in summary.summary.functions if f.name == target.name]
        return records[0] if len(records) == 1 else None

    def _foreign_relay(self, target: FunctionRef) -> Tuple[Optional[int], Tuple[str, ...]]:
        """(position of the positional parameter every ``return`` of ``target``, a function of
        another module, hands back whole and unchanged, the attributes it sets), from its
        summary; (None, ()) when it does not, or cannot be read."""
        record = self._function_record(target, target.path)
        entry = next((e for e in record.returns_param if e[0] == -1 and e[3] >= 0), None) if record is not None else None
        return (entry[3], record.edited) if entry is not None else (None, ())

    def _get_with_default(self, base_node: ast.AST, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``cfg.get("num_workers", 4)``: of a dict dl-lint reads, the key's value (the default
        where the key may be absent, or when the dict certainly lacks it); of a config object or
        mapping it cannot see (a parameter, a loaded config, ``**kwargs``), the default written
        at the call, as a configurable value (the config may hold another). None: not such a
        call (a library's ``get``, ``os.environ.get``)."""
        key = literal(node.args[0])
        if not isinstance(key, str):
            return None
        base = self.resolve(base_node, site, depth + 1)
        single = base.single
        if single is not None and not isinstance(single.value, DictValue):
            return None  # a module, a library object, a Hydra config, a namespace...
        default = self.resolve(node.args[1], site, depth + 1)
        if default.is_unknown:
            return Value.unknown(default.source if default.source in CONFIGURABLE else "config")
        origin = Origin(f"default of {self.code(base_node)}.get({key!r})", self.path, self.line(node))
        fallback = [p if p.origin is not None else Possible(p.value, origin, p.guards) for p in default.options or ()]
        if single is not None:
            content: DictValue = single.value
            entry = content.get(key)
            if entry is None:
                return Value(tuple(fallback), default.source) if content.complete else Value.unknown("config")
            if entry.is_unknown:
                return entry
            options: List[Possible] = []
            for p in entry.options or ():
                if p.value is ABSENT:
                    options.extend(Possible(f.value, f.origin, f.guards + p.guards) for f in fallback)
                else:
                    options.append(p)
            return Value(tuple(_dedupe(options)), entry.source or default.source)
        if base.options is not None:
            return None  # one of several known values
        return Value(tuple(fallback), "config")

    # -- what an object holds (DL202: analysis.pickling) ------------------------------------------
    def _held(self, node: ast.AST, site: Site, depth: int, consumer: Optional[ast.AST] = None, objects: bool = False):
        """``pickling.held_callable`` of an expression of this module. A list handed by name to
        the holder ``node`` builds (``T.Compose(steps)``), or to ``consumer`` (a project class
        that keeps the argument), is read through its display and the adds that always run
        (``_held_in_display``). ``objects``: an object of a project class counts when it keeps
        a lambda by itself (``_instance_keeps``), asked for what a transform holder keeps."""
        if consumer is None and isinstance(node, ast.Call):
            consumer = node
        # The call each name of ``node`` is handed to directly: the holder that takes a list by
        # name (``D(transform=T.Compose(steps))``: ``steps`` is Compose's, not D's)
        holders: Dict[int, ast.AST] = {}
        if isinstance(node, ast.Call):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    for argument in (*inner.args, *(k.value for k in inner.keywords)):
                        argument = argument.value if isinstance(argument, ast.Starred) else argument
                        if isinstance(argument, ast.Name):
                            holders[id(argument)] = inner

        def value_of(name: ast.AST):
            value = self.resolve(name, site, depth + 1)
            single = value.single
            if single is None and value.options and all(getattr(p.value, "holds", None) is not None for p in value.options):
                single = value.options[0]  # ``dataset_fn(True, t)`` building CIFAR10 or SVHN, each keeping it
            if (single is None or getattr(single.value, "holds", None) is None) and depth < MAX_DEPTH:
                held = self._held_in_display(name, site, depth + 1, holders.get(id(name), consumer))  # ``*stages``, ``**mapping``, ``Compose(steps)``
                if held is not None:
                    return Opaque("builtins.list", holds=held)
            if objects and single is not None and isinstance(single.value, Instance) and single.value.holds is None and not single.value.local:
                # an object the argument is, or one a transform holder in it keeps
                kept = self._instance_keeps(single.value, depth)
                if kept is not None:
                    return single.value.replace(holds=kept)
            return single.value if single is not None else None

        return held_callable(node, self.path, value_of, lambda func: self._qualname_of(func, site, depth))

    def _instance_keeps(self, value: Instance, depth: int) -> Optional[Tuple[str, str, int]]:
        """A lambda or local function an object of a project class keeps by itself, whatever it
        was built with (``DatasetIndex.unpicklable``: its ``__init__`` stores one, directly, in a
        list it appends to, or in an object it builds): an ``Augmentator()`` whose ``__init__``
        fills ``self._manip_list`` with lambdas, handed to a dataset that keeps it, makes the
        dataset unpicklable too. Asked only when the class's module holds ``lambda`` (a local
        function, or an object of another module's class that keeps one, is not looked for
        here): reading every object's class cost Lightning 22 more parses."""
        index = getattr(self.project, "datasets", None) if depth < MAX_DEPTH else None
        may_hold = getattr(self.project, "may_hold", None)
        if index is None or (may_hold is not None and not may_hold(self.absolute(value.module), value.path or self.path, b"lambda")):
            return None  # no lambda in the class's module: its summary is not read for one
        cls = index.resolve_instance(value, self.module_name)
        found = index.unpicklable(cls) if cls is not None else None
        if found is None:
            return None
        attr, what, path, line = found
        return f"{what} in self.{attr} of its {value.name}", path, line

    def _wrapped_datasets(self, qualname: str, node: ast.Call, site: Site, depth: int) -> Tuple[Any, ...]:
        """The datasets a torch wrapper keeps (``pickling.DATASET_WRAPPERS``), each the single
        value its expression resolves to (an element of a list or tuple display for
        ``ConcatDataset``/``ChainDataset``); unknown ones are left out."""
        if depth > MAX_DEPTH:
            return ()
        name = qualname.rsplit(".", 1)[1]
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if name == "Subset":
            nodes = [node.args[0]] if node.args else [keywords["dataset"]] if "dataset" in keywords else []
        elif name in ("ConcatDataset", "ChainDataset"):
            given = node.args[0] if node.args else keywords.get("datasets")
            nodes = list(given.elts) if isinstance(given, (ast.List, ast.Tuple)) else []
        else:
            nodes = [*node.args, *keywords.values()]
        out = []
        for each in nodes:
            if isinstance(each, ast.Starred):
                continue
            single = self.resolve(each, site, depth + 1).single
            if single is not None and isinstance(single.value, (Instance, Opaque)):
                out.append(single.value)
        return tuple(out)

    def _handed_callable(self, target: Optional[FunctionRef], node: ast.Call, site: Site, depth: int, stores=None):
        """A lambda or local function handed to a project class's constructor for a parameter
        an instance keeps (``SummaryModule.kept_parameters``: ``self.transform = transform``, or
        passed on to a base's ``__init__`` that keeps it), when certain; ``stores``: the kept
        parameters of a library class (``libraries.TORCHVISION_KEEPING``) instead."""
        arguments = handed_arguments(node) if depth <= MAX_DEPTH else None
        if not arguments:
            return None
        held = []
        objects = []  # arguments read again, for objects that keep a lambda by themselves, if kept
        for index, keyword, argument in arguments:
            if not isinstance(argument, (ast.Lambda, ast.Name, ast.Call, ast.List, ast.Tuple, ast.Dict, ast.Subscript, ast.IfExp)):
                continue
            found = self._held(argument, site, depth, node)
            if found is not None:
                held.append((index, keyword, found))
            elif isinstance(argument, (ast.Name, ast.Call, ast.List, ast.Tuple)):
                objects.append((index, keyword, argument))
        if not held and not objects:
            return None
        if stores is None:
            # depth 0: the base chain counts its own steps, and the answer is memoized per class,
            # so it must not depend on how deep this resolution is (a first question asked deep
            # in a chain kept GDELT's inherited parameters unread for every later one: which
            # question came first differed between -j1 and -j2, and so did DL202)
            lookup = getattr(self.project, "kept_parameters", None)
            stores = lookup(target.module, target.name, target.path) if lookup is not None else ()
        for index, keyword, found in held:
            for name, position in stores:
                if _lands(index, keyword, name, position):
                    return found
        for index, keyword, argument in objects:  # ``CameraDataset(files, Augmentator())``
            if any(_lands(index, keyword, name, position) for name, position in stores):
                found = self._held(argument, site, depth, node, objects=True)  # also ``Compose([MyAug()])``
                if found is not None:
                    return found
        return None

    def _handed_rngs(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Tuple[str, ...]:
        """DL204 (``Instance.rngs``): the attributes a construction fills with a random generator
        it builds in its arguments, or a name of its scope bound once to one
        (``MAMLDataSet(..., rng=np.random.RandomState(args.seed))``,
        ``datasets.RNG_QUALNAMES``; ``torch.Generator().manual_seed(0)`` too) and hands to a
        parameter ``__init__`` stores on self once, unconditionally, and nowhere else
        (``ClassRecord.init_attrs``). Read off the class's summary; () without a generator."""
        from dl_lint.analysis.datasets import RNG_QUALNAMES

        arguments = handed_arguments(node) if depth <= MAX_DEPTH else None
        if not arguments:
            return ()
        handed = []
        for index, keyword, argument in arguments:
            if isinstance(argument, ast.Name):
                # ``rng = np.random.RandomState(seed)`` bound once in this scope, then handed
                _, bindings = self.lookup(argument.id, site)
                if len(bindings) == 1 and bindings[0].kind == "assign" and isinstance(bindings[0].value, ast.Call):
                    argument = bindings[0].value
            if not isinstance(argument, ast.Call):
                continue
            made = argument
            if isinstance(made.func, ast.Attribute) and made.func.attr == "manual_seed" and isinstance(made.func.value, ast.Call):
                made = made.func.value  # ``torch.Generator().manual_seed(0)`` returns the generator (torch 2.13)
            if self._qualname_of(made.func, site, depth + 1) in RNG_QUALNAMES:
                handed.append((index, keyword))
        if not handed:
            return ()
        ask = getattr(self.project, "class_record", None)
        record = ask(target.module, target.name, target.path or self.path) if ask is not None and target.module else None
        if record is None:
            return ()
        found = []
        for attr, kind, param, position, _default, _line in record.init_attrs:
            if kind == "param" and any(_lands(index, keyword, param, position) for index, keyword in handed):
                found.append(attr)
        return tuple(sorted(found))

    def _handed_sizes(self, target: FunctionRef, node: ast.Call, site: Site, depth: int) -> Tuple[Tuple[str, Any], ...]:
        """DL101: the ints and fixed-size image transforms a construction hands the parameters
        its ``__init__`` keeps on self (``Instance.given``), when the class's sample needs them."""
        if depth > MAX_DEPTH or not (node.args or node.keywords):
            return ()
        holds = getattr(self.project, "may_hold", None)
        if holds is not None and not holds(target.module, target.path, b"__getitem__") and not holds(target.module, target.path, b"def __call__"):
            return ()  # no sample without a __getitem__ (nor views without a __call__): the module need not be parsed for it
        lookup = getattr(self.project, "class_record", None)
        facts = lookup(target.module, target.name, target.path) if lookup is not None else None
        sample = getattr(facts, "sample", None)
        if not sample:
            # no ``__getitem__`` of its own: a base class's sample, whose parameters these
            # arguments may give (``datasets.sample_bytes`` then reads no parameter's value)
            return (("*", None),) if facts is not None and getattr(facts, "bases", ()) else ()
        from dl_lint.analysis.summary import flat_fields

        fields = flat_fields(sample[0])
        wanted = {f[1] for f in fields if f[0] in ("img", "albu", "ds")}
        for f in fields:
            if f[0] == "t":
                wanted.update(d if isinstance(d, str) else d[0] for d in f[1] if not isinstance(d, int))
        if not wanted:
            return ()
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return tuple((name, None) for name in sorted(wanted))  # *args, **kwargs: any may be given
        positions = dict((name, position) for name, position in getattr(facts, "init_stores", ()))
        if len(sample) > 3:  # parameters a pipeline built in ``__init__`` uses as they are
            positions.update((name, position) for name, position in sample[3] if name not in positions)
        found = []
        for name in sorted(wanted):
            if name not in positions:
                continue  # not a parameter kept on self
            argument = next((k.value for k in node.keywords if k.arg == name), None)
            position = positions.get(name, -1)
            if argument is None and 0 <= position < len(node.args):
                argument = node.args[position]
            if argument is None:
                continue
            single = self.resolve(argument, site, depth + 1).single
            value = single.value if single is not None else None
            if type(value) is int:
                found.append((name, value))
            elif isinstance(value, Opaque) and value.image is not None:
                found.append((name, ("image", *value.image)))
            elif isinstance(value, Instance) and value.views is not None:
                found.append((name, ("views", value.views)))  # a multi-view transform: each view's image
            elif isinstance(value, Instance) and value.name:
                found.append((name, value))  # a wrapper's inner dataset: its sample is read by ``datasets``
            elif isinstance(value, Opaque) and value.sample is not None:
                found.append((name, ("bytes", *value.sample)))  # a torchvision dataset of known samples
            else:
                found.append((name, None))  # given, but not known: not the parameter's default
        return tuple(found)

    def _views(self, target: FunctionRef, given: Tuple[Tuple[str, Any], ...]) -> Optional[Tuple[Tuple[Any, ...], ...]]:
        """DL101: the image of each view a multi-view transform of the project returns
        (``summary.view_fields``), when every view's transform is a fixed-size torchvision one."""
        from dl_lint.analysis.summary import is_views

        lookup = getattr(self.project, "class_record", None)
        facts = lookup(target.module, target.name, target.path) if lookup is not None else None
        sample = getattr(facts, "sample", None)
        if not is_views(sample):
            return None
        values = dict(given)
        views = tuple(values.get(field[1]) for field in sample[0])
        if not all(isinstance(v, tuple) and len(v) == 4 and v[0] == "image" for v in views):
            return None  # an albumentations pipeline, or a transform not known
        return tuple(v[1:] for v in views)  # type: ignore[index]

    def _cpu_tensors(self, node: ast.Call, site: Site, depth: int) -> bool:
        """DL306: every tensor of a ``TensorDataset(...)`` certainly made on the CPU: a torch
        constructor without ``device=`` (or with ``device="cpu"``), directly or through a name
        bound once to one, followed only by methods that keep the device."""
        if not node.args or node.keywords:
            return False
        return all(self._cpu_tensor(arg, site, depth, 0) for arg in node.args)

    def _cpu_tensor(self, expr: ast.AST, site: Site, depth: int, steps: int) -> bool:
        if steps > 8:
            return False
        if isinstance(expr, ast.Name):
            _, bindings = self.lookup(expr.id, site)
            return (
                len(bindings) == 1
                and bindings[0].kind == "assign"
                and bindings[0].value is not None
                and self._cpu_tensor(bindings[0].value, bindings[0].site, depth, steps + 1)
            )
        if not isinstance(expr, ast.Call) or any(isinstance(a, ast.Starred) for a in expr.args):
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and (func.attr in DEVICE_KEEPING or self._dtype_only(expr, site, depth)):
            single = self.resolve(func.value, site, depth + 1).single
            if single is not None and isinstance(single.value, ModuleRef):
                return False
            return self._cpu_tensor(func.value, site, depth, steps + 1)
        if self._qualname_of(func, site, depth) not in CPU_CONSTRUCTORS:
            return False
        for keyword in expr.keywords:
            if keyword.arg is None:
                return False
            if keyword.arg == "device" and literal(keyword.value) != "cpu":
                return False
        return True

    def _dtype_only(self, call: ast.Call, site: Site, depth: int) -> bool:
        """``x.to(torch.float)``, ``x.to(dtype=torch.long)``, ``x.type(torch.float32)``: a
        conversion that keeps the tensor on its device (one argument, a torch dtype; nothing
        else given)."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("to", "type"):
            return False
        given = [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]
        if len(given) != 1 or len(call.args) + len(call.keywords) != 1:
            return False
        return self._qualname_of(given[0], site, depth) in TORCH_DTYPES

    # -- dataclass configs (analysis.configs.dataclasses) -------------------------------------
    def _dataclass_owner(self, target: Any, depth: int) -> Optional[Tuple[ast.ClassDef, "Resolver"]]:
        """The ``@dataclass`` class a FunctionRef names and the resolver of its module: this
        one, or another project module's (``from configs import TrainConfig``: parsed once per
        run, only when its summary says the class has a decorator named ``dataclass``; the
        answer rests on that module's bytes). Its fields' defaults are resolved, and cited, in
        that module."""
        if not isinstance(target, FunctionRef) or target.kind != "class":
            return None
        if target.module == self.module_name and target.path == self.path:
            cls = self._dataclass_def(target, depth)
            return (cls, self) if cls is not None else None
        if not target.path or depth > MAX_DEPTH // 2 or not hasattr(self.project, "summary"):
            return None
        holds = getattr(self.project, "may_hold", None)
        if holds is not None and not holds(target.module, self.path, b"@dataclass") and not holds(target.module, self.path, b"@dataclasses.dataclass"):
            return None  # no such decorator in its bytes: the module is not summarised (parsed) for this
        summary = self.project.summary(target.module, self.path)
        if summary is None or summary.path != target.path:
            return None
        if (target.name, target.line) not in _dataclass_places(summary.summary):
            return None
        reader = getattr(self.project, "analysis_at", None)
        other = reader(target.path, target.module) if reader is not None else None
        if other is None:
            return None
        self.project.read_config_file(target.path)  # the answer rests on that module's bytes
        cls = other.resolver._dataclass_def(target, depth)
        return (cls, other.resolver) if cls is not None else None

    def _dataclass_def(self, target: Any, depth: int) -> Optional[ast.ClassDef]:
        """The ``@dataclass`` class of this module a FunctionRef names (another module's:
        ``_dataclass_owner``)."""
        from dl_lint.analysis.configs.dataclasses import DATACLASS_DECORATORS

        if not isinstance(target, FunctionRef) or target.kind != "class" or target.module != self.module_name or target.path != self.path:
            return None
        cls = next((c for c in self.index.module_classes if c.name == target.name and c.lineno == target.line), None)
        if cls is None:
            return None
        for decorator in cls.decorator_list:
            func = decorator.func if isinstance(decorator, ast.Call) else decorator
            if self._qualname_of(func, END, depth + 1) in DATACLASS_DECORATORS:
                if isinstance(decorator, ast.Call) and any(k.arg == "init" for k in decorator.keywords):
                    return None
                return cls
        return None

    def _dataclass_value(self, target: Any, node: ast.Call, site: Site, depth: int, parser: Optional[str]) -> Optional[Value]:
        """``Config(...)`` (``parser`` None: the arguments or the field defaults, known) or a
        command-line parser's ``Config`` (``parser`` "tyro.cli": the defaults, configurable)."""
        from dl_lint.analysis.configs.dataclasses import DataclassConfig, dataclass_fields

        owned = self._dataclass_owner(target, depth)
        cls, owner = owned if owned is not None else (None, self)
        fields = dataclass_fields(cls) if cls is not None else None
        if cls is None or fields is None:
            return None
        args = node.args if parser is None else []
        keywords = node.keywords if parser is None else []
        if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
            return None
        if args and (cls.bases or len(args) > len(fields)):
            return None  # inherited fields come first: positions cannot be bound
        given: Dict[str, ast.AST] = {f.name: a for f, a in zip(fields, args)}
        given.update({k.arg: k.value for k in keywords if k.arg})
        entries = []
        for field in fields:
            if field.name in given:
                value = self.resolve(given[field.name], site, depth + 1)
            elif field.default is not None:
                value = owner.resolve(field.default, END, depth + 1)
                if not value.is_unknown:
                    what = f"default of field {cls.name}.{field.name}"
                    configurable = parser is not None and not field.fixed
                    if configurable:
                        what += f", settable on the command line ({parser})"
                    origin = Origin(what, owner.path, field.line)
                    source = "argparse" if configurable else value.source
                    value = Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), source)
                elif parser is not None:
                    value = Value.unknown("argparse")
            else:
                value = Value.unknown("argparse" if parser is not None else "expression")
            entries.append((field.name, value))
        return Value.known(DataclassConfig(owner.module_name, cls.name, cls.lineno, owner.path, False, None, (), None, fields=tuple(entries)))

    def _setattr_config_value(self, target: Any, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``TrainerConfig(max_epochs=2, num_workers=4)`` of a class whose ``__init__`` sets its
        keywords on self (``configs.setattr_configs``): each attribute the keyword given, else
        the class attribute (a DataclassConfig: read like a dataclass's fields). None (an
        Instance) when the class is not one or the construction cannot be read (``*``/``**``,
        a dict argument whose keys are not all known)."""
        if not isinstance(target, FunctionRef) or target.kind != "class" or depth > MAX_DEPTH:
            return None
        shape = None
        cls = None
        if target.module == self.module_name and target.path == self.path:
            cls = next((c for c in self.index.module_classes if c.name == target.name and c.lineno == target.line), None)
            if cls is not None and id(cls) not in self._setattr_shapes:
                from dl_lint.analysis.configs.setattr_configs import setattr_shape

                self._setattr_shapes[id(cls)] = setattr_shape(cls) if "__init__" in self._class_method_names(cls) else None
            found = self._setattr_shapes.get(id(cls)) if cls is not None else None
            if found is not None:
                mode, checked, fields, unknown = found
                entries = []
                for attr, expr, line in fields:
                    value = self.resolve(expr, END, depth + 1)
                    if not value.is_unknown:
                        origin = Origin(f"class attribute {cls.name}.{attr}", self.path, line)
                        value = Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), value.source)
                    entries.append((attr, value))
                shape = (mode, checked, tuple(entries), unknown)
        if cls is None and target.path:
            # another module's class, or this module's read through its summary (whose index
            # keeps no class bodies: ``hparams = HParams(...)`` as an importer sees it)
            ask = getattr(self.project, "setattr_config", None)
            shape = ask(target.module, target.name, depth + 1, target.path) if ask is not None else None
        if shape is None:
            return None
        mode, checked, entries, unknown = shape
        from dl_lint.analysis.configs.item_stores import parse_mode

        store = parse_mode(mode)
        given: List[Tuple[str, Value]] = []
        if mode == "kwargs" or store is not None:
            if node.args or any(k.arg is None for k in node.keywords):
                return None
            given = [(k.arg, self.resolve(k.value, site, depth + 1)) for k in node.keywords if k.arg]
        else:
            if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
                return None
            single = self.resolve(node.args[0], site, depth + 1).single
            if single is None or not isinstance(single.value, DictValue) or not single.value.complete:
                return None
            for key, value in single.value.entries:
                if value.options is None or any(p.value is ABSENT for p in value.options):
                    return None  # a key set on some paths only
                given.append((key, value))
        fields = dict(entries)
        out = dict(entries)
        for key, value in given:
            if checked and key not in fields and key not in unknown:
                continue  # ``if hasattr(self, k)``: a name the class does not have is dropped
            out[key] = value
        for name in unknown:
            out[name] = Value.unknown("config")
        if store is not None:
            from dl_lint.analysis.configs.dataclasses import StoreConfig

            accesses, writers, attribute = store
            return Value.known(StoreConfig(target.module, target.name, target.line, target.path, fields=tuple(out.items()), accesses=accesses, writers=writers, store=attribute))
        return Value.known(DataclassConfig(target.module, target.name, target.line, target.path, False, None, (), None, fields=tuple(out.items())))

    @staticmethod
    def _class_method_names(cls: ast.ClassDef) -> Set[str]:
        return {s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def _hf_dataclass(self, expr: ast.AST, index: int, site: Site, depth: int) -> Optional[Value]:
        """``model_args, data_args, training_args = parser.parse_args_into_dataclasses()`` of an
        ``HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))``: the element
        ``index`` as an instance of the project's own dataclass, each field's default
        settable on the command line (transformers 4.57.6, ``hf_argparser.py:272-356``). None
        (unknown) for TrainingArguments (``configs.transformers`` judges the Trainer's loaders),
        other arguments, a ``<script>.args`` file the parser would read first (:309-315)."""
        if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "parse_args_into_dataclasses"):
            return None
        from dl_lint.analysis.configs.transformers import PARSERS as HF_PARSERS

        if expr.args or any(k.arg not in ("return_remaining_strings", "look_for_args_file") for k in expr.keywords):
            return None
        parser = expr.func.value
        if isinstance(parser, ast.Name):
            _, bindings = self.lookup(parser.id, site)
            if len(bindings) != 1 or bindings[0].kind != "assign":
                return None
            parser = bindings[0].value
        if not (isinstance(parser, ast.Call) and parser.args and self._qualname_of(parser.func, site, depth + 1) in HF_PARSERS):
            return None
        classes = parser.args[0]
        elements = list(classes.elts) if isinstance(classes, (ast.Tuple, ast.List)) else [classes]
        if index >= len(elements) or any(isinstance(e, ast.Starred) for e in elements):
            return None
        if not self.path:
            return None
        args_file = os.path.splitext(os.path.abspath(self.path))[0] + ".args"
        self.project.read_config_file(args_file)  # the answer rests on whether it exists (the results cache)
        if os.path.isfile(args_file):
            return None
        target = self.resolve(elements[index], site, depth + 1).single
        return self._dataclass_value(target.value if target else None, expr, site, depth, parser="HfArgumentParser")

    def _tap_arguments(self, receiver: ast.AST, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``Args().parse_args()`` (or ``parser = Args()`` bound once, then ``parser.parse_args()``)
        of a project class deriving from ``tap.Tap`` (``configs.tap``): a DataclassConfig whose
        fields are the class variables, each default settable on the command line. None when
        the receiver is no such class; unknown when the construction or the parse takes values
        from elsewhere (``config_files=``, ``args=[...]``)."""
        from dl_lint.analysis.configs.tap import HARMLESS_KEYWORDS, merged

        made = receiver
        if isinstance(receiver, ast.Name):
            _, bindings = self.lookup(receiver.id, site)
            if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
                return None
            made = bindings[0].value
        if not isinstance(made, ast.Call) or depth > MAX_DEPTH:
            return None
        target = self.resolve(made.func, site, depth + 1).single
        ref = target.value if target is not None else None
        if not (isinstance(ref, FunctionRef) and ref.kind == "class" and ref.path):
            return None
        levels = self._tap_levels(ref, depth + 1, 0)
        if levels is None:
            return None
        if made.args or any(k.arg not in HARMLESS_KEYWORDS for k in made.keywords):
            return Value.unknown("argparse")  # ``config_files=...``: defaults from files
        if node.args or any(k.arg != "known_only" for k in node.keywords):
            return Value.unknown("argparse")  # ``args=[...]``: another command line
        if not levels:
            return Value.unknown("argparse")  # a level that cannot be read (``__init__``)
        entries = []
        where = {n: place for _, _, n, place in levels}  # a class's name -> (its path, its resolver)
        for name, (default, line, owner, unknown) in merged([(o, u, n) for o, u, n, _ in levels]).items():
            path, resolver = where[owner]
            if unknown == "process_args":
                entries.append((name, Value.unknown("expression")))  # set after parsing: not an option's value
                continue
            if unknown or default is None:
                entries.append((name, Value.unknown("argparse")))
                continue
            value = resolver.resolve(default, END, depth + 1)
            if value.is_unknown:
                entries.append((name, Value.unknown("argparse")))
                continue
            origin = Origin(f"default of Tap argument {owner}.{name}, settable on the command line (tap)", path, line)
            entries.append((name, Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), "argparse")))
        return Value.known(DataclassConfig(ref.module, ref.name, ref.line, ref.path, False, None, (), None, fields=tuple(entries)))

    def _tap_levels(self, ref: Any, depth: int, level: int) -> Optional[list]:
        """The class bodies from ``tap.Tap`` down to the class ``ref`` names, base first:
        [(options, unknown names, class name, (path, resolver))]; ``[]`` when a level cannot be
        read (an ``__init__`` of its own), None when the class does not derive from ``Tap`` by
        single project bases. The answer rests on each level's module's bytes."""
        from dl_lint.analysis.configs.tap import TAP_CLASSES, class_options

        if level > 4 or depth > MAX_DEPTH:
            return None
        if ref.path == self.path and ref.module == self.module_name:
            owner = self
        else:
            holds = getattr(self.project, "may_hold", None)
            if holds is not None and not holds(ref.module, self.path, b"Tap"):
                return None  # no Tap in its bytes: the module is not parsed for this
            reader = getattr(self.project, "analysis_at", None)
            other = reader(ref.path, ref.module) if reader is not None else None
            if other is None:
                return None
            self.project.read_config_file(ref.path)
            owner = other.resolver
        cls = next((c for c in owner.index.module_classes if c.name == ref.name and c.lineno == ref.line), None)
        if cls is None or len(cls.bases) != 1 or cls.keywords:
            return None
        base = cls.bases[0]
        here = class_options(cls)
        if owner._qualname_of(base, END, depth + 1) in TAP_CLASSES:
            levels: Optional[list] = []
        else:
            found = owner.resolve(base, END, depth + 1).single
            base_ref = found.value if found is not None else None
            if not (isinstance(base_ref, FunctionRef) and base_ref.kind == "class" and base_ref.path):
                return None
            levels = owner._tap_levels(base_ref, depth + 1, level + 1)
            if levels is None:
                return None
            if not levels:
                return []  # a base's level cannot be read
        if here is None:
            return []
        return [*levels, (here[0], here[1], cls.name, (owner.path, owner))]

    def _parsed_dataclass(self, qualname: str, node: ast.Call, site: Site, depth: int) -> Value:
        """``tyro.cli(Config)``: a Config whose fields the command line sets."""
        from dl_lint.analysis.configs.dataclasses import CLI_HARMLESS_KEYWORDS

        from dl_lint.analysis.configs.dataclasses import SIMPLE_PARSING_HARMLESS

        harmless = SIMPLE_PARSING_HARMLESS if qualname.startswith("simple_parsing") else CLI_HARMLESS_KEYWORDS
        if len(node.args) != 1 or any(k.arg not in harmless for k in node.keywords):
            return Value.unknown("argparse")
        target = self.resolve(node.args[0], site, depth + 1).single
        found = self._dataclass_value(target.value if target else None, node, site, depth, parser=qualname)
        return found if found is not None else Value.unknown("argparse")

    def _library_value(self, qualname: str, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """A dataset class of the library table: an Opaque that says whether this construction
        shards by worker (``dl_lint.analysis.libraries``); None for other classes."""
        from dl_lint.analysis.libraries import library_dataset

        row = library_dataset(qualname)
        if row is None:
            return None
        shards: Optional[bool] = {"always": True, "never": False}.get(row.kind)
        if row.kind == "webdataset":
            shards = self._webdataset_shards(node, site, depth)
        elif row.kind == "pipeline":
            shards = self._pipeline_shards(node, site, depth)
        held = self._held(node, site, depth) if qualname in HOLDERS else None  # DataPipeline's stages
        return Value.known(Opaque(qualname, shards, holds=held))

    def _pipeline_stage(self, func: ast.Attribute, node: ast.Call, site: Site, depth: int) -> Optional[Value]:
        """``pipeline.map(f)``, ``.map_dict(**mapping)``, ``.batched(n)``, ... of a webdataset
        pipeline (``libraries.WEBDATASET_KEEPING``, read in webdataset 1.0.2): the same kind of
        pipeline, keeping what it kept and every argument of the method (DL202). A pipeline
        that shards by worker still does; otherwise what the stages do is not read (unknown)."""
        owner = self.resolve(func.value, site, depth + 1).single
        if owner is None or not isinstance(owner.value, Opaque) or owner.value.qualname not in WEBDATASET_PIPELINES:
            return None
        pipeline = owner.value
        held = pipeline.holds
        if held is None and func.attr in WEBDATASET_KEEPING:
            for argument in (*node.args, *(k.value for k in node.keywords)):
                held = self._held(argument, site, depth)
                if held is not None:
                    break
        return Value.known(Opaque(pipeline.qualname, True if pipeline.shards else None, holds=held))

    def _written_holds(self, binding: Binding, name: str, obj: Any, use: Site, depth: int) -> Optional[Any]:
        """DL202: the object ``name`` holds at ``use`` when a statement between its binding and
        the use stores a lambda or a local function on it (``dataset.target_transform =
        remap``, ``remap`` a lambda; ``pickling.held_callable``): a copy of ``obj`` that keeps
        it (pickling an object pickles its attributes). Only for an instance of a project
        class (DL202 still asks its ancestry for ``__getstate__``/``__reduce__``), a torch
        dataset wrapper or a torchvision dataset (neither defines them: torch 2.13.0
        torch/utils/data/dataset.py, torchvision 0.28.0 datasets/vision.py), keeping nothing
        yet; the write must be in the binding's own function, on every path to the use (not
        under an ``if`` the use is not under, not in a loop) and the last write of that
        attribute in the function (a later one, even after the loader is built, may replace
        it before the workers start). None otherwise."""
        if isinstance(obj, Instance):
            if obj.local or obj.holds is not None:
                return None
        elif not isinstance(obj, Opaque) or obj.holds is not None or not (
            obj.qualname in DATASET_WRAPPERS or obj.qualname.startswith("torchvision.datasets.")
        ):
            return None
        start = binding.site
        if start is None or start.scope is not use.scope:
            return None
        key = (id(binding), depth)
        kept = self._written_callables.get(key)
        if kept is None:  # once per binding: the uses only filter what it keeps
            kept = self._written_callables[key] = self._kept_by_writes(binding, name, depth)
        use_conds = plain_conds(use.conds)
        for attr, where, (what, path, line) in kept:
            conds = plain_conds(where.conds)
            if where.line < use.line and conds == use_conds[: len(conds)]:
                return obj.replace(holds=(f"{what} (assigned to .{attr} at line {where.line})", path, line))
        return None

    def _kept_by_writes(self, binding: Binding, name: str, depth: int) -> List[Tuple[str, Site, Tuple[str, str, int]]]:
        """``_written_holds`` for one binding: (attribute, write, what it keeps) for each
        attribute whose last write after the binding, in its function and not in a loop, stores
        a lambda or a local function (``pickling.held_callable``), in attribute order."""
        by_name = self._writes_by_name
        if by_name is None:
            by_name = self._writes_by_name = {}
            for (scope, base, attr), entries in self.index.attr_writes.items():
                by_name.setdefault((id(scope), base), []).extend((attr, value, where) for value, where in entries)
        start = binding.site
        last: Dict[str, Tuple[Optional[ast.expr], Site]] = {}
        for attr, value_node, where in by_name.get((id(start.scope), name), ()):
            if where.line > start.line and (attr not in last or where.line > last[attr][1].line):
                last[attr] = (value_node, where)
        kept = []
        for attr in sorted(last):
            value_node, where = last[attr]
            if value_node is None or where.in_loop():
                continue
            held = self._held(value_node, where, depth + 1)
            if held is not None:
                kept.append((attr, where, held))
        return kept

    def _held_in_display(self, node: ast.AST, site: Site, depth: int, consumer: Optional[ast.AST] = None):
        """What a name bound only to container displays keeps (``**image_mapping`` with
        ``image_mapping = {key: transform}``: the keys need not be known), when every binding
        that reaches ``site`` keeps a lambda or a local function (``*stages`` with ``stages = [...,
        wds.map(transform), ...]``), and nothing in its scope may take an element out (``pop``,
        ``remove``, ``clear``, a subscript written or deleted: silence); ``append``/``extend``
        only add (not read)."""
        if not isinstance(node, ast.Name):
            return None
        _, bindings = self.lookup(node.id, site)
        if not bindings or not all(b.kind == "assign" and isinstance(b.value, (ast.Dict, ast.List, ast.Tuple)) for b in bindings):
            return None
        if not self._left_whole(node.id, bindings[0], consumer):
            return None
        found = None
        for binding, _ in self._reaching(bindings, site):
            held = self._held(binding.value, binding.site, depth + 1)
            if held is None and isinstance(binding.value, (ast.List, ast.Tuple)):
                # an element added on every path the list is built on (``steps.append(T.Lambda(...))``
                # in the same block, before the use)
                for added in self._added_always(node.id, binding, site) or ():
                    held = self._held(added, binding.site, depth + 1)
                    if held is not None:
                        break
            if held is None:
                return None
            found = found or held
        return found

    def _left_whole(self, name: str, binding: Binding, consumer: Optional[ast.AST]) -> bool:
        """Whether nothing in the scope of ``binding`` (the name's) may take an element out of
        the container, or hand it to a call that might, but ``consumer`` (``_may_remove``)."""
        scope = binding.site.scope if binding.site is not None and binding.site.scope is not None else self.tree
        key = (id(scope), name)
        if key not in self._removals:
            self._removals[key] = _may_remove(scope, name)
        handed = self._removals[key]
        return handed is not None and all(call == id(consumer) for call in handed)

    def _added_always(self, name: str, binding: Binding, site: Site) -> Optional[List[ast.expr]]:
        """The elements ``name.append(x)`` / ``name.extend([...])`` add to the list ``binding``
        builds, each in the same block as the binding (its conditions) and between it and
        ``site`` when ``site`` is in that scope: they run whenever the list is built. None when an
        add sits on some path only (under an ``if``, in a loop), or adds what cannot be listed
        (``extend(other)``, ``insert``)."""
        where = binding.site
        if where is None:
            return None
        if self._list_adds is None:
            adds: Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]] = {}
            for call, call_site, _, _ in self.index.calls:
                func = call.func
                if isinstance(func, ast.Attribute) and func.attr in ("append", "extend", "insert") and isinstance(func.value, ast.Name):
                    adds.setdefault((id(call_site.scope), func.value.id), []).append((call, call_site))
            self._list_adds = adds
        out: List[ast.expr] = []
        for call, call_site in self._list_adds.get((id(where.scope), name), ()):
            if call_site.line <= where.line or (site.scope is where.scope and call_site.line >= site.line):
                continue
            if call_site.conds != where.conds or call.keywords or len(call.args) != 1:
                return None
            argument = call.args[0]
            if call.func.attr == "append":
                out.append(argument)
            elif call.func.attr == "extend" and isinstance(argument, (ast.List, ast.Tuple)):
                out.extend(argument.elts)
            else:
                return None
        return out

    def list_elements(self, node: ast.AST, site: Site, consumer: Optional[ast.AST] = None) -> Optional[List[ast.expr]]:
        """The elements of the list a name holds at ``site`` on every path (``steps = [A(), B()]``,
        then ``steps.append(C())`` in the same block): one binding reaching, a list or tuple
        display without ``*``, nothing that may take an element out or hand the list to a call
        but ``consumer``, and every add on the path the list is built on (``_added_always``).
        None otherwise."""
        if not isinstance(node, ast.Name):
            return None
        _, bindings = self.lookup(node.id, site)
        reaching = self._reaching(bindings, site) if bindings else []
        if len(reaching) != 1:
            return None
        binding = reaching[0][0]
        value = binding.value
        if binding.kind != "assign" or not isinstance(value, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in value.elts):
            return None
        if not self._left_whole(node.id, binding, consumer):
            return None
        added = self._added_always(node.id, binding, site)
        return None if added is None else [*value.elts, *added]

    def _webdataset_shards(self, node: ast.Call, site: Site, depth: int) -> Optional[bool]:
        """``WebDataset(urls, ...)`` (webdataset 1.0.2, compat.py:366, 396-397): it appends its
        ``workersplitter`` (default ``split_by_worker``) unless that is None or False; with
        ``resampled=True`` each worker draws its own random shards instead."""
        from dl_lint.analysis.libraries import WEBDATASET_SPLITTERS

        if len(node.args) > 1 or any(k.arg is None for k in node.keywords):
            return None  # positional options or a **splat: not read
        keywords = {k.arg: k.value for k in node.keywords}
        splitter = keywords.get("workersplitter")
        if splitter is None:
            return True
        if self._qualname_of(splitter, site, depth) in WEBDATASET_SPLITTERS:
            return True
        value = self.resolve(splitter, site, depth + 1)
        if value.single is None or value.single.value not in (None, False):
            return None  # a splitter of the project's own: it may shard
        for name in ("resampled", "mode"):
            if name in keywords:
                option = self.resolve(keywords[name], site, depth + 1)
                if option.single is None or option.single.value not in (None, False):
                    return None  # resampled (or unknown): each worker its own random stream
        return False

    def _pipeline_shards(self, node: ast.Call, site: Site, depth: int) -> Optional[bool]:
        """``DataPipeline(*stages)`` (webdataset 1.0.2, pipeline.py:32-52): shards only with a
        ``split_by_worker`` stage (or a ``ResampledShards`` source, different in each worker by
        design); without one, and with every stage one of webdataset's own, it does not."""
        from dl_lint.analysis.libraries import WEBDATASET_RESAMPLERS, WEBDATASET_SPLITTERS

        if node.keywords or not node.args:
            return None
        stages: List[ast.expr] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                return None
            stages.extend(arg.elts if isinstance(arg, ast.List) else [arg])
        known = True
        for stage in stages:
            if isinstance(stage, ast.Starred):
                return None
            qualname = self._qualname_of(stage.func if isinstance(stage, ast.Call) else stage, site, depth)
            if qualname in WEBDATASET_SPLITTERS or qualname in WEBDATASET_RESAMPLERS:
                return True
            if qualname is None or not qualname.startswith("webdataset."):
                known = False  # a stage of the project's own (or unknown): it may shard
        return False if known else None

    def _qualname_of(self, node: ast.AST, site: Site, depth: int) -> Optional[str]:
        """The qualified name a name or attribute denotes: a library's, or a project
        function's or class's (``module.name``)."""
        value = self.resolve(node, site, depth + 1)
        single = value.single
        if single is None:
            if isinstance(node, ast.Attribute):  # ``wds.tarfile_to_samples`` inside webdataset itself
                base = self.resolve(node.value, site, depth + 1).single
                if base is not None and isinstance(base.value, ModuleRef):
                    return f"{base.value.module}.{node.attr}"
            return None
        target = single.value
        if isinstance(target, External):
            return target.qualname
        if isinstance(target, FunctionRef) and target.kind in ("function", "class") and target.module:
            return f"{target.module}.{target.name}"
        return None

    def _resolve_external_call(self, qualname: str, node: ast.Call, site: Site, depth: int) -> Value:
        if qualname in _CLASS_FACTORIES and site.scope is not None and node.args:
            # ``HParams = collections.namedtuple("HParams", fields)`` inside a function: a class
            # made at run time, which pickle looks up by name in its module and does not find
            # there (BERT-ResSel's settings object): a local class, as ``class`` in a function
            typename = literal(node.args[0])
            name = typename if isinstance(typename, str) else qualname.rsplit(".", 1)[1]
            return Value.known(FunctionRef("local-class", self.module_name, name, self.line(node), self.path))
        name = qualname[len("builtins.") :] if qualname.startswith("builtins.") else None
        plain = not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
        if name in _BUILTIN_FUNCS and plain:
            if name in ("max", "min") and len(node.args) == 1:
                inner = node.args[0]
                if isinstance(inner, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in inner.elts):
                    values = [self.resolve(e, site, depth + 1) for e in inner.elts]
                    return _positive_extreme(name, values) or _combine(values, lambda *xs: _BUILTIN_FUNCS[name](xs), numeric=True)
                return Value.unknown("expression")
            values = [self.resolve(a, site, depth + 1) for a in node.args]
            if name in ("max", "min"):
                found = _positive_extreme(name, values)
                if found is not None:
                    return found
            if name in ("int", "float") and len(values) == 1:
                # ``int(args.num_workers)`` of a ``type=str`` option whose default is "8": a
                # number or a string, converted as Python converts it (a text it refuses: unknown)
                return _combine(values, _number_of(_BUILTIN_FUNCS[name]), numeric=False)
            return _combine(values, _BUILTIN_FUNCS[name], numeric=name != "bool")
        wrapper = qualname in _CONFIG_WRAPPERS or qualname in _KEEPING_WRAPPERS
        if wrapper and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred):
            inner = self.resolve(node.args[0], site, depth + 1).single
            if inner is not None and isinstance(inner.value, LoadedConfig) and qualname in _CONFIG_WRAPPERS:
                return Value.known(inner.value)  # EasyDict(cfg), OmegaConf.create(cfg): the same key paths
            if inner is not None and isinstance(inner.value, DictValue) and qualname in _KEEPING_WRAPPERS:
                # ``Box({"train": train_set, ...})``: the same entries, each object as it was given
                return Value((inner,))
        if name == "dict" or qualname in _DICT_TYPES:
            return self._resolve_dict_call(node, site, depth)
        if qualname in _CONFIG_LOADERS and qualname not in LOAD_QUALNAMES:
            return self._loaded_config(qualname, node, site, depth)
        if qualname in LOAD_QUALNAMES:
            return self._omegaconf_load(node)
        if qualname in _CLI_PARSERS:
            return self._parsed_dataclass(qualname, node, site, depth)
        if qualname in ("os.getenv", "os.environ.get", "os.environ.__getitem__"):
            return Value.unknown("environment")
        if qualname in ("os.cpu_count", "multiprocessing.cpu_count", "torch.multiprocessing.cpu_count"):
            return Value.unknown("cpu-count")
        if name == "len" and len(node.args) == 1 and isinstance(node.args[0], ast.Call):
            inner = self.resolve(node.args[0].func, site, depth + 1)
            if inner.single is not None and getattr(inner.single.value, "qualname", "") == "os.sched_getaffinity":
                return Value.unknown("cpu-count")
        if qualname in DATASET_WRAPPERS:
            held = self._held(node, site, depth)
            return Value.known(Opaque(qualname, holds=held, wraps=self._wrapped_datasets(qualname, node, site, depth)))
        if qualname in HOLDERS and qualname not in WEBDATASET_DATAPIPELINE:  # a pipeline: ``_library_value``
            held = self._held(node, site, depth, objects=True)
            if held is not None:
                return Value.known(Opaque(qualname, holds=held))
        if qualname in TENSOR_DATASETS:
            return Value.known(Opaque(qualname, on_cpu=self._cpu_tensors(node, site, depth)))
        from dl_lint.analysis.libraries import NEVER_NONE

        if qualname in NEVER_NONE:  # range(n), list(...), torch.randperm(n): not None, whatever else
            return Value.known(Opaque(qualname))
        if qualname.startswith("timm.data."):
            from dl_lint.analysis.libraries import TIMM_CREATE_TRANSFORM, timm_value

            if qualname in TIMM_CREATE_TRANSFORM:
                found = timm_value(node, lambda expr: self.resolve(expr, site, depth + 1))
                if found is not None:
                    return Value.known(found)
        if qualname.endswith(".from_argparse_args"):
            from dl_lint.analysis.libraries import TRAINER_CONSTRUCTORS

            if qualname in TRAINER_CONSTRUCTORS:  # ``pl.Trainer.from_argparse_args(args)``: a Trainer
                return Value.known(Opaque(qualname.rsplit(".", 1)[0]))
        if qualname in TORCH_LOADER_QUALNAMES:  # DL202: an object that keeps this loader pickles what it keeps
            held = self._handed_callable(None, node, site, depth, KEPT_BY_TORCH_LOADER)
            if held is not None:
                return Value.known(Opaque(qualname, holds=(f"a DataLoader that keeps {held[0]}", held[1], held[2])))
        if qualname.rsplit(".", 1)[-1][:1].isupper() and not qualname.startswith("builtins."):
            # Calling a library class gives an instance: not None, whatever else it is.
            library = self._library_value(qualname, node, site, depth)
            if library is not None:
                return library
            if qualname.startswith("albumentations."):
                from dl_lint.analysis.libraries import albumentations_value

                found = albumentations_value(qualname, node, lambda expr: self.resolve(expr, site, depth + 1), lambda expr: self._qualname_of(expr, site, depth))
                if found is not None:
                    return Value.known(found)
            if qualname.startswith("torchvision."):
                from dl_lint.analysis.libraries import TORCHVISION_KEEPING, image_value

                found = image_value(
                    qualname,
                    node,
                    lambda expr: self.resolve(expr, site, depth + 1),
                    lambda expr: self._qualname_of(expr, site, depth),
                    lambda expr: self.list_elements(expr, site, node),
                )
                kept = TORCHVISION_KEEPING.get(qualname)
                held = self._handed_callable(None, node, site, depth, kept) if kept else None
                if held is not None:  # DL202: ``ImageFolder(root, transform=t)`` keeps t
                    return Value.known(Opaque(qualname, sample=found.sample if found is not None else None, holds=held))
                if found is not None:
                    return Value.known(found)
            return Value.known(Opaque(qualname))
        return Value.unknown("expression")

    def loader_of(self, func: ast.AST, site: Site, depth: int = 0) -> Optional[LoaderClass]:
        """The loader a call to ``func`` constructs, when every possibility is a loader."""
        value = self._loader_value(func, site, depth)
        if value is None or value.options is None:
            return None
        found = {p.value for p in value.options}
        if len(found) == 1 and isinstance(next(iter(found)), LoaderClass):
            return next(iter(found))
        loaders = [v for v in found if isinstance(v, LoaderClass)]
        if len(loaders) == len(found) and len({(lc.preargs, _chain_key(lc.chain)) for lc in loaders}) == 1:
            return sorted(loaders, key=lambda lc: lc.qualname)[0]
        return None

    def _loader_value(self, func: ast.AST, site: Site, depth: int) -> Optional[Value]:
        if depth > MAX_DEPTH:
            return None
        if isinstance(func, ast.Call):
            # functools.partial(DataLoader, ...)
            if not func.args or (isinstance(func.func, ast.Attribute) and func.func.attr != "partial"):
                return None  # obj.method(...)(...): resolving obj can load whole modules, for nothing
            inner = self.resolve(func.func, site, depth + 1)
            if (
                inner.single is not None
                and isinstance(inner.single.value, External)
                and inner.single.value.qualname == "functools.partial"
                and func.args
                and not isinstance(func.args[0], ast.Starred)
            ):
                base = self.loader_of(func.args[0], site, depth + 1)
                if base is not None:
                    extra = tuple(func.args[1:]) + tuple(func.keywords)
                    return Value.known(LoaderClass(base.qualname, base.preargs + extra, base.chain))
            return None
        if isinstance(func, ast.IfExp):
            a = self._loader_value(func.body, site, depth + 1)
            b = self._loader_value(func.orelse, site, depth + 1)
            if a is None or b is None or a.options is None or b.options is None:
                return None
            return Value(a.options + b.options)
        if isinstance(func, ast.Name):
            _, bindings = self.lookup(func.id, site)
            if bindings and all(b.kind == "assign" and b.value is not None for b in bindings):
                options: List[Possible] = []
                for binding, _ in self._reaching(bindings, site):
                    value = self._loader_value(binding.value, binding.site, depth + 1)
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
            elif isinstance(target, External) and target.qualname.split(".", 1)[0] in LIBRARY_PACKAGES:
                from dl_lint.analysis.library_loaders import library_loader

                found_library = library_loader(target.qualname)
                if found_library is None:
                    return None
                out.append(Possible(LoaderClass(found_library[0], (), found_library[1])))
            elif isinstance(target, FunctionRef) and target.kind == "class":
                qualname = f"{target.module}.{target.name}"
                if qualname in self.loader_qualnames:  # an ``extra-loaders`` class is one as is
                    found: Optional[LoaderClass] = LoaderClass(qualname)
                else:
                    found = self.project.is_loader_class(target.module, target.name, depth + 1, target.path)
                if found is None:
                    return None
                out.append(Possible(found))
            else:
                return None
        return Value(tuple(out))

    # -- dicts --------------------------------------------------------------------------------
    def _resolve_dict_literal(self, node: ast.Dict, site: Site, depth: int) -> Value:
        entries: Dict[str, Value] = {}
        complete = True
        for key_node, value_node in zip(node.keys, node.values):
            if key_node is None:  # ``**other``
                inner = self.resolve(value_node, site, depth + 1)
                if not _is_dict(inner):
                    complete = False
                    continue
                merged = inner.single.value
                complete = complete and merged.complete
                entries.update(dict(merged.entries))
                continue
            key = literal(key_node)
            if not isinstance(key, str):
                complete = False
                continue
            entries[key] = self.resolve(value_node, site, depth + 1)
        return Value.known(DictValue(tuple(entries.items()), complete))

    def _resolve_dict_comprehension(self, node: ast.DictComp, site: Site, depth: int) -> Value:
        """``{x: ImageFolder(os.path.join(root, x), data_transforms[x]) for x in ["train",
        "val"]}`` (PyTorch's transfer-learning tutorial): a dict of one entry per element of a
        literal list of strings (written there, or a name bound to one: ``list_elements``),
        each key and value resolved with the variable bound to that element. One ``for``, no
        ``if``, a plain name as its target, at most ``MAX_COMPREHENSION_ROWS`` elements;
        unknown otherwise."""
        if len(node.generators) != 1:
            return Value.unknown("expression")
        generator = node.generators[0]
        target = generator.target
        if generator.ifs or generator.is_async or not isinstance(target, ast.Name):
            return Value.unknown("expression")
        table = generator.iter
        rows = list(table.elts) if isinstance(table, (ast.List, ast.Tuple)) else self.list_elements(table, site)
        if not rows or len(rows) > MAX_COMPREHENSION_ROWS or not all(isinstance(literal(row), str) for row in rows):
            return Value.unknown("expression")
        inner = Scope("comprehension", node, site.names if site.names is not None else self.index.module_scope)
        inner.add(Binding(target.id, "other", target, site=site))
        at = Site(site.line, site.conds, site.scope, inner)
        entries: Dict[str, Value] = {}
        saved = self.param_env
        try:
            for row in rows:
                self.param_env = {**saved, id(target): Value.known(literal(row))}
                key = self.resolve(node.key, at, depth + 1).single
                if key is None or not isinstance(key.value, str):
                    return Value.unknown("expression")
                entries[key.value] = self.resolve(node.value, at, depth + 1)
        finally:
            self.param_env = saved
        return Value.known(DictValue(tuple(entries.items()), True))

    def _resolve_dict_call(self, node: ast.Call, site: Site, depth: int) -> Value:
        entries: Dict[str, Value] = {}
        complete = True
        inner_nodes = [a for a in node.args] + [k.value for k in node.keywords if k.arg is None]
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                complete = False
        for inner_node in inner_nodes:
            if isinstance(inner_node, ast.Starred):
                continue
            inner = self.resolve(inner_node, site, depth + 1)
            if _is_dict(inner):
                complete = complete and inner.single.value.complete
                entries.update(dict(inner.single.value.entries))
            else:
                complete = False
        for keyword in node.keywords:
            if keyword.arg is not None:
                entries[keyword.arg] = self.resolve(keyword.value, site, depth + 1)
        return Value.known(DictValue(tuple(entries.items()), complete))

    def _resolve_subscript(self, node: ast.Subscript, site: Site, depth: int) -> Value:
        if _is_self_hparams(node.value) and self.current_class and isinstance(literal(node.slice), str):
            return self._saved_hparam(literal(node.slice), depth)  # self.hparams["num_workers"]
        if isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__" and not isinstance(node.slice, (ast.Slice, ast.Tuple)):
            member = self._module_member(node.value.value, node.slice, site, depth)
            if member is not None:
                return member  # ``datasets.__dict__[args.data]``
        base = self.resolve(node.value, site, depth + 1)
        if base.single is not None and isinstance(base.single.value, External):
            if base.single.value.qualname == "os.environ":
                return Value.unknown("environment")
        index = node.slice
        if not isinstance(index, (ast.Slice, ast.Tuple)):
            key = literal(index)
            if key is NO_LITERAL and isinstance(index, ast.Name) and _is_dict(base) and id(index) not in self._subscript_keys:
                # ``image_datasets[x]`` with ``x`` one known string (a comprehension's variable
                # bound to an element: ``analysis.module._comprehension_elements``)
                self._subscript_keys.add(id(index))
                try:
                    known = self.resolve(index, site, depth + 1)
                finally:
                    self._subscript_keys.discard(id(index))
                if known.single is not None and isinstance(known.single.value, str) and not known.single.guards:
                    key = known.single.value
            if _is_dict(base) and isinstance(key, str):
                entry = base.single.value.get(key)
                if entry is not None and all(p.value is not ABSENT for p in entry.options or ()):
                    return entry
            elif isinstance(key, str) and base.options and len(base.options) > 1:
                found = _entry_of_each(base, key)
                if found is not None:
                    return found  # ``data["train"]`` of one dict or another (a factory's two returns)
            held = base.single.value if base.single is not None else None
            if isinstance(held, StoreConfig) and isinstance(key, str):
                # ``hp["num_workers"]`` of a keyword store whose ``__getitem__`` reads its dict
                entry = held.get(key) if self._store_entry_holds(base, key, node.value, "item") else None
                return entry if entry is not None else Value.unknown("config")
            if isinstance(held, Instance) and not isinstance(held, DataclassConfig) and isinstance(key, str) and isinstance(node.value, ast.Name):
                stored = self._stored_option(held, key, node.value, site, depth, "item")
                if stored is not None:
                    return stored  # ``para["num_workers"]``: the option its namespace store holds
            if base.single is not None and isinstance(base.single.value, HydraConfig) and isinstance(key, str):
                return self._config_value(base.single.value, key)  # cfg["data"]["num_workers"]
            if base.single is not None and isinstance(base.single.value, LoadedConfig) and isinstance(key, str):
                return self._keypath_value(base.single.value, key)  # config["train"]["num_workers"]
            if key is NO_LITERAL and _is_dict(base):
                # ``COLLATES[args.kind]`` of a dict of callables, ``datasets[name]`` of a dict of
                # built datasets: one of its values (DL202 needs every one to be a lambda or a
                # local function, or to keep one; a mixed table stays silent).
                table = base.single.value
                options = [p for _, entry in table.entries for p in entry.options or ()] if table.complete else []
                if options and (
                    all(isinstance(p.value, FunctionRef) for p in options)
                    or all(isinstance(p.value, (Instance, Opaque)) for p in options)
                ):
                    return Value(tuple(_dedupe(options)))
        return Value.unknown("config")

    def _module_member(self, module: ast.AST, key: ast.AST, site: Site, depth: int) -> Optional[Value]:
        """The member of a project module named by a string value: ``datasets.__dict__[name]``
        or ``getattr(datasets, name)`` with ``datasets`` a module of the project and ``name`` a
        value of known possibilities (a literal, an argparse default, a config value): each
        possibility's member, under that possibility's guards. None when ``module`` is not a
        project module; unknown when a possibility is not a string or names nothing readable."""
        if depth > MAX_DEPTH:
            return None
        holder = self.resolve(module, site, depth + 1).single
        if holder is None or not isinstance(holder.value, ModuleRef):
            return None
        keys = self.resolve(key, site, depth + 1)
        if keys.options is None:
            return Value.unknown(keys.source or "expression")
        options: List[Possible] = []
        for possible in keys.options:
            if not isinstance(possible.value, str) or not possible.value.isidentifier():
                return Value.unknown(keys.source or "expression")
            member = self.project.import_value(holder.value.module, possible.value, depth + 1, self.path)
            if member.options is None:
                return Value.unknown(member.source or keys.source)
            for found in member.options:
                found = found if found.origin is not None else Possible(found.value, possible.origin, found.guards)
                for guard in possible.guards:
                    found = found.with_guard(guard)
                options.append(found)
        return Value(tuple(_dedupe(options)), keys.source)

    def _leaves_alone(self, call: ast.Call, name: str, site: Site, depth: int) -> bool:
        """Whether ``call``, handed the dict ``name`` as an argument, is a module-level function
        of the project that cannot change it: the parameter it lands in is never written into
        (a subscript or attribute store or delete), never the receiver of a method call other
        than reading ones, never handed on to a call other than reading ones, never rebound."""
        if depth > MAX_DEPTH // 2:
            return False
        found = self.resolve(call.func, site, depth + 1).single
        target = found.value if found is not None else None
        if not isinstance(target, FunctionRef) or target.kind != "function" or not target.path:
            return False
        function, _ = self._project_function(target)
        if function is None:
            return False
        positional = [*function.args.posonlyargs, *function.args.args]
        params = set()
        for index, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return False
            if isinstance(arg, ast.Name) and arg.id == name:
                if index >= len(positional):
                    return False  # into ``*args``
                params.add(positional[index].arg)
        by_name = {a.arg for a in (*positional, *function.args.kwonlyargs)}
        for keyword in call.keywords:
            if isinstance(keyword.value, ast.Name) and keyword.value.id == name:
                if keyword.arg not in by_name:
                    return False  # into ``**kwargs``
                params.add(keyword.arg)
        return bool(params) and not any(_may_change(function, param, self._changed) for param in params)

    def _apply_mutations(self, value: Value, name: str, start: Site, use: Site, depth: int) -> Value:
        """Apply ``d.update(...)`` / ``d[k] = v`` between the dict's assignment and its use. A
        dict of module level that a function changes (``def setup(): cfg["num_workers"] = 4``,
        ``cfg.num_workers = 4`` on an attribute dict) may have been changed before any read,
        whichever runs first: the keys written there are unknown, and the whole dict when what
        is written cannot be told."""
        mutations = self.index.mutations.get((start.scope, name), [])
        current: DictValue = value.single.value
        if start.scope is None:
            elsewhere = self._global_dict_writes().get(name)
            if elsewhere is not None:
                if elsewhere is _ANY_KEY:
                    return Value.unknown("expression")
                entries = dict(current.entries)
                for key, written in elsewhere.items():
                    # the value before the write, or the value it writes
                    before = entries.get(key)
                    found = before if before is not None and current.complete else Value.unknown("expression")
                    for node, where in written:
                        if found.is_unknown:
                            break
                        found = _union(found, self.resolve(node, where, depth + 1))
                    entries[key] = found
                current = DictValue(tuple(entries.items()), current.complete)
        arms: Dict[Tuple[str, tuple, int], Tuple[bool, Value]] = {}
        for kind, node, where in sorted(mutations, key=lambda m: m[2].line):
            if where.line <= start.line:
                continue
            if use is not END and where.line >= use.line and not use.in_loop():
                continue
            if kind == "handed":
                if self._leaves_alone(node, name, where, depth):
                    continue  # ``apply_test_time_pool(model, data_config)`` only reads it
                return Value.unknown("expression")
            if kind == "other":
                return Value.unknown("expression")
            update = self._mutation_entries(kind, node, where, depth)
            if update is None:
                return Value.known(DictValue(current.entries, False))
            conds = plain_conds(where.conds)
            dominates = use is not END and conds == plain_conds(use.conds)[: len(conds)] and not where.in_loop()
            guard = None if dominates else self._extra_guard(where, use, depth) if use is not END else None
            current = _overlay(current, update, dominates, guard)
            if dominates or use is END or where.in_loop() or not conds or conds[-1].kind != "if":
                continue
            # ``if flag: d["collate_fn"] = a`` / ``else: d["collate_fn"] = b``: together the two
            # arms set the key on every path that reaches the use (the key's value is a or b).
            arm, rest = conds[-1], conds[:-1]
            if rest != plain_conds(use.conds)[: len(rest)]:
                continue
            for key, new in update.entries:
                new = _guarded(new, guard) if guard is not None else new
                other = arms.get((key, rest, id(arm.test)))
                if other is not None and other[0] != arm.polarity:
                    entries = dict(current.entries)
                    entries[key] = _union(other[1], new)
                    current = DictValue(tuple(entries.items()), current.complete)
                else:
                    arms[(key, rest, id(arm.test))] = (arm.polarity, new)
        return Value.known(current)

    def _global_dict_writes(self) -> Dict[str, Any]:
        """Module-level names whose object a function of the module changes in place (the name
        not bound in that function, or declared ``global`` there): name -> {constant key written
        (``d["k"] = v``): [(the value written, its site)]}, or ``_ANY_KEY`` (another key,
        ``update``, an attribute write, the object handed to a call that may change it). Indexed
        once per module."""
        if self._global_writes is None:
            self._global_writes = found = {}  # (asked again while it is built: nothing yet)
            for (scope, name), mutations in self.index.mutations.items():
                if scope is None or not mutations:
                    continue
                home, _ = self.lookup(name, mutations[0][2])
                if home is not self.index.module_scope:
                    continue  # a local of that function (or of an enclosing one)
                keys = found.get(name, {})
                for kind, node, where in mutations:
                    if keys is _ANY_KEY:
                        break
                    key = _setitem_key(node) if kind == "setitem" else None
                    if kind == "handed" and self._leaves_alone(node, name, where, MAX_DEPTH // 2 - 1):
                        continue
                    if isinstance(key, str):
                        keys.setdefault(key, []).append((node.value, where))
                    else:
                        keys = _ANY_KEY
                found[name] = keys
        return self._global_writes

    def _mutation_entries(self, kind: str, node: ast.AST, where: Site, depth: int) -> Optional[DictValue]:
        if kind == "setitem":
            key = _setitem_key(node)
            return DictValue(((key, self.resolve(node.value, where, depth + 1)),)) if key is not None else None
        if kind == "update" and isinstance(node, ast.Call):
            entries: Dict[str, Value] = {}
            for arg in node.args:
                if isinstance(arg, ast.Starred):
                    return None
                returned = self._returned_dict(arg, where, depth) if isinstance(arg, ast.Call) else None
                inner = returned if returned is not None else self.resolve(arg, where, depth + 1)
                if not _is_dict(inner) or not inner.single.value.complete:
                    return None
                entries.update(dict(inner.single.value.entries))
            for keyword in node.keywords:
                if keyword.arg is not None:
                    entries[keyword.arg] = self.resolve(keyword.value, where, depth + 1)
                    continue
                inner = self.resolve(keyword.value, where, depth + 1)
                if not _is_dict(inner) or not inner.single.value.complete:
                    return None
                entries.update(dict(inner.single.value.entries))
            return DictValue(tuple(entries.items()))
        return None


def _setitem_key(node: ast.AST) -> Optional[str]:
    """The constant string key of a dict item assignment ``d["key"] = value``; None else."""
    target = node.targets[0] if isinstance(node, ast.Assign) else None
    if isinstance(target, ast.Subscript) and not isinstance(target.slice, (ast.Slice, ast.Tuple)):
        key = literal(target.slice)
        return key if isinstance(key, str) else None
    return None


_UNKNOWN_DEFAULT = object()
# ``Resolver._global_dict_writes``: a function writes keys of the dict that cannot be told.
_ANY_KEY = object()


class _PriorTest:
    """A guard on a name's binding that tests the name itself (``if bs == -1: bs = 36``): it
    reads the value before the assignment, so it is decided on the earlier bindings' values,
    not carried by the new value (where it would compare 36 with -1)."""

    __slots__ = ("guard",)

    def __init__(self, guard: Guard) -> None:
        self.guard = guard


def _tests_itself(guard: Guard, name: str) -> bool:
    return guard.subject == name or name in guard.aliases


def _may_pass(tests: Sequence[Guard], before: Sequence[Possible]) -> bool:
    """Whether some value before an assignment can pass the tests around it: False only when
    every one decidably fails one of them (none known: it may)."""
    if not before:
        return True
    return any(all(test.holds(p.value) is not False for test in tests) for p in before)


def _before_the_test(entries: Sequence[Tuple[List[Possible], Optional[Guard], bool]]) -> List[Possible]:
    """``_written_attribute``'s possibilities, latest write first: a write under a test of the
    attribute itself (``if args.batch_size == -1: args.batch_size = 36``) counts when a value
    before it may pass the test, and carries no guard (its test read the old value); the values
    before it reach the read only where the test failed on them (its negation). Other writes
    keep their guard."""
    out: List[Possible] = []
    failed: List[Guard] = []  # negated self-tests of later writes, for the values before them
    for index, (found, guard, itself) in enumerate(entries):
        if itself and guard is not None:
            before = [p for later in entries[index + 1 :] for p in later[0]]
            if _may_pass([guard], before):
                out.extend(q for q in (_with_guards(p, failed) for p in found) if q is not None)
            failed.append(guard.negate())
            continue
        for p in found:
            q = _with_guards(p, failed)
            if q is not None:
                out.append(q.with_guard(guard) if guard is not None else q)
    return out


def _with_guards(p: Possible, guards: Sequence[Guard]) -> Optional[Possible]:
    """``p`` under the negated self-tests of later writes, each decided on ``p``'s own value
    (it is the value those tests read): None when one decidably fails."""
    for guard in guards:
        decided = guard.holds(p.value)
        if decided is False:
            return None
        if decided is None:
            p = p.with_guard(guard)
    return p


_ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__getattr__", "__getattribute__", "__init_subclass__", "__new__"})


def _copied_namespace(where, class_name: str, attr: str) -> Optional[Tuple[ast.Call, Site]]:
    """The ``parse_args()`` call (and its site) whose namespace the ``__init__`` of the
    module-level class ``class_name`` of ``where`` (a ``ModuleAnalysis``) copies onto the object
    by a statement of its own body, on every path: ``for k, v in NS.items():`` (``NS`` being
    ``vars(args)`` or ``args.__dict__``) whose body calls ``setattr(self, k, v)`` or
    ``self.__setattr__(k, v)``, or ``self.__dict__.update(vars(args))``; ``args`` a local bound
    once, to that call (``args = parser.parse_args()``) or to what a method of the class returns
    (``args = self.parse()``, ``parser, args = self.parse()``: every ``return`` of it gives at
    that place a name bound once there to the call). None unless the class is plain (no base but
    ``object``, no decorator, no attribute hook), copies nothing else by computed name, and
    stores ``self.<attr>`` nowhere (a store would replace or be replaced by the copy)."""
    bindings = where.index.module_scope.bindings.get(class_name, ())
    if len(bindings) != 1 or bindings[0].kind != "class":
        return None
    cls = bindings[0].node
    if cls.decorator_list or cls.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return None
    methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    if init is None or _ATTRIBUTE_HOOKS & set(methods) or not init.args.args:
        return None
    me = init.args.args[0].arg
    copied = None
    for statement in init.body:
        source = _namespace_copy(statement, me)
        if source is not None:
            if copied is not None:
                return None
            copied = source
    if copied is None:
        return None
    stores, named = where._attribute_stores()
    if stores.get((id(cls), attr), 0) or (None, attr) in stores or attr in named:
        return None
    writers = 0  # the copy's own setattr / __dict__ write, and nothing else of the kind in the class
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id == "setattr")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "update" and _dict_of(node.func.value) is not None)
        ):
            writers += 1
    if writers != 1:
        return None
    scope = where.index.scopes.get(id(init))
    held = scope.bindings.get(copied, ()) if scope is not None else ()
    if len(held) != 1 or held[0].kind not in ("assign", "unpack") or not isinstance(held[0].value, ast.Call):
        return None
    value = held[0].value
    if isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name) and value.func.value.id == me:
        method = methods.get(value.func.attr)
        if method is None or value.args or value.keywords:
            return None
        width = held[0].width if held[0].kind == "unpack" else 0
        method_scope = where.index.scopes.get(id(method))
        calls = []
        for node in ast.walk(method):
            if isinstance(node, ast.Return):
                returned = node.value
                if width:
                    if not (isinstance(returned, ast.Tuple) and len(returned.elts) == width):
                        return None
                    returned = returned.elts[held[0].index]
                if not isinstance(returned, ast.Name) or method_scope is None:
                    return None
                named_once = method_scope.bindings.get(returned.id, ())
                if len(named_once) != 1 or named_once[0].kind != "assign" or not isinstance(named_once[0].value, ast.Call):
                    return None
                calls.append(named_once[0].value)
        if len({id(c) for c in calls}) != 1:
            return None
        value = calls[0]
    elif held[0].kind != "assign":
        return None
    if not (isinstance(value.func, ast.Attribute) and value.func.attr in ("parse_args", "parse_known_args")):
        return None
    call_site = where.site_of(value)
    return (value, call_site) if call_site is not None else None


def handed_arguments(node: ast.Call) -> Optional[List[Tuple[int, Optional[str], ast.AST]]]:
    """A construction's arguments as (position, None, node) and (-2, keyword, node), for the
    readers of what it hands ``__init__`` (``_handed_callable``, ``_handed_rngs``); None when
    ``*args`` or ``**kwargs`` may give any parameter."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    return [(i, None, a) for i, a in enumerate(node.args)] + [(-2, k.arg, k.value) for k in node.keywords]


def _lands(index: int, keyword: Optional[str], param: str, position: int) -> bool:
    """Whether an argument of ``handed_arguments`` lands in the parameter ``param`` at
    ``position`` (-1: keyword-only)."""
    return keyword == param if keyword is not None else index == position >= 0


def _namespace_store(where, class_name: str) -> Optional[Tuple[str, Any, Any, Any, Tuple[str, ...]]]:
    """(store, accesses, fills, (keys the class writes, writer methods), names its body binds)
    of the module-level class ``class_name`` of ``where`` when it keeps a parsed namespace in a
    dict its hooks answer from (``item_stores``); None otherwise. Kept per class by the class
    module's resolver (``Resolver._namespace_stores``): every read of every key asks."""
    from dl_lint.analysis.configs.item_stores import class_names, namespace_fills, store_edits, store_hooks

    bindings = where.index.module_scope.bindings.get(class_name, ())
    if len(bindings) != 1 or bindings[0].kind != "class":
        return None
    cls = bindings[0].node
    hooks = store_hooks(cls)
    if hooks is None:
        return None
    store, accesses = hooks
    fills = namespace_fills(cls, store)
    if fills is None:
        return None
    edits = store_edits(cls, store, frozenset(id(statement) for _, statement, _ in fills))
    if edits is None:
        return None
    return store, accesses, fills, edits, class_names(cls)


def _namespace_edited(function: ast.AST, name: str) -> bool:
    """Whether ``function`` writes an attribute of the local ``name`` (``args.x = ...``,
    ``setattr(args, ...)``, ``vars(args)[...] = ...``, ``args.__dict__``) or hands it to a call
    before copying it (anything but ``vars(args)``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            if isinstance(node.ctx, (ast.Store, ast.Del)) or node.attr == "__dict__":
                return True
        elif isinstance(node, ast.Call):
            named = [a for a in node.args if isinstance(a, ast.Name) and a.id == name]
            if named and not (isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1):
                return True
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            held = node.value
            if isinstance(held, ast.Call) and isinstance(held.func, ast.Name) and held.func.id == "vars" and held.args and isinstance(held.args[0], ast.Name) and held.args[0].id == name:
                return True
    return False


def _dict_of(node: ast.AST) -> Optional[str]:
    """``NAME`` of ``vars(NAME)`` or ``NAME.__dict__``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
        return node.id if isinstance(node, ast.Name) else None
    if isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _namespace_copy(statement: ast.stmt, me: str) -> Optional[str]:
    """The local whose namespace ``statement`` copies onto ``me`` (``_copied_namespace``)."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value  # self.__dict__.update(vars(args))
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "update"
            and _dict_of(func.value) == me
            and len(call.args) == 1
            and not call.keywords
        ):
            return _dict_of(call.args[0])
        return None
    if not (isinstance(statement, ast.For) and not statement.orelse and isinstance(statement.target, ast.Tuple) and len(statement.target.elts) == 2):
        return None
    key, item = statement.target.elts
    iterated = statement.iter
    if not (isinstance(key, ast.Name) and isinstance(item, ast.Name) and isinstance(iterated, ast.Call) and not iterated.args):
        return None
    if not (isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "items"):
        return None
    source = _dict_of(iterated.func.value)
    if source is None:
        return None
    for inner in statement.body:
        if not (isinstance(inner, ast.Expr) and isinstance(inner.value, ast.Call)):
            continue
        call = inner.value
        arguments = [a.id if isinstance(a, ast.Name) else None for a in call.args]
        if isinstance(call.func, ast.Name) and call.func.id == "setattr" and arguments == [me, key.id, item.id]:
            return source
        if (
            isinstance(call.func, ast.Attribute)
            and call.func.attr == "__setattr__"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == me
            and arguments == [key.id, item.id]
        ):
            return source
    return None


def _option_parts(call: ast.Call) -> Optional[Tuple[List[str], Dict[str, ast.expr]]]:
    """The string declarations (``"--workers", "-j"``) and the keywords of a call declaring a
    command-line option (argparse's ``add_argument``, click's ``option``/``argument``); None
    when a declaration is not a literal string, a keyword is spread, or none is declared."""
    declarations: List[str] = []
    for arg in call.args:
        value = literal(arg)
        if not isinstance(value, str):
            return None  # a starred or computed flag
        declarations.append(value)
    keywords: Dict[str, ast.expr] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        keywords[keyword.arg] = keyword.value
    return (declarations, keywords) if declarations else None


def _typed(value: Any, kind: Optional[ast.expr]) -> Any:
    """A string default converted by ``type=int``/``type=float`` as the parser converts it
    (``_UNKNOWN_DEFAULT`` for a text it refuses); anything else as it is."""
    if isinstance(value, str) and isinstance(kind, ast.Name) and kind.id in ("int", "float"):
        try:
            return int(value) if kind.id == "int" else float(value)
        except ValueError:
            return _UNKNOWN_DEFAULT
    return value


def _click_default(decorator: ast.Call, argument: bool, resolver: "Resolver") -> Optional[Tuple[str, Value]]:
    """(the parameter name, the value) a ``@click.option(...)`` or ``@click.argument(...)``
    gives its command when the command line does not: its ``default``, False for a flag
    without one, 0 for a counter without one. The name as click 8.5.1 makes it
    (``Option._parse_decls``, ``Argument._parse_decls``): a declaration that is an identifier,
    else the first of the longest-prefixed option names (``--num-workers`` before ``-w``), its
    dashes made underscores and lowercased. Unknown: a required option, several values
    (``multiple``, ``nargs``), a default that is computed or called at run time, or none (click
    passes None); the environment (``envvar``) can replace a default as the command line can."""
    parts = _option_parts(decorator)
    if parts is None:
        return None
    declarations, keywords = parts
    if argument:
        if len(declarations) != 1:
            return None
        name = declarations[0].replace("-", "_").lower()
        shown = declarations[0].upper()
    else:
        named = [d for d in declarations if d.isidentifier()]
        possible = []
        for declaration in declarations:
            if declaration.isidentifier():
                continue
            first = declaration.split(";" if declaration[:1] == "/" else "/", 1)[0].rstrip()
            if first:  # click's ``_split_opt``: a prefix of one non-alphanumeric character, or two alike
                prefix = 0 if first[:1].isalnum() else 2 if first[1:2] == first[:1] else 1
                possible.append((prefix, first))
        if not possible:
            return None
        possible.sort(key=lambda p: -p[0])  # stable: the first long option declared
        name = named[0] if named else possible[0][1][possible[0][0]:].replace("-", "_").lower()
        shown = possible[0][1]
    if not name.isidentifier():
        return None
    unknown = Value.unknown("argparse")
    if any(literal(keywords[k]) not in (None, False, 1) for k in ("multiple", "nargs") if k in keywords):
        return name, unknown
    if "required" in keywords and literal(keywords["required"]) is not False:
        return name, unknown
    origin = Origin(f"default of {shown}", resolver.path, resolver.line(decorator))
    if "default" in keywords:
        found = resolver.resolve(keywords["default"], END, 1)
        if found.single is None or isinstance(found.single.value, (FunctionRef, External)):
            return name, unknown  # several values, or a callable click calls for the default
        value = found.single.value
        if not isinstance(value, (int, float, str, bool)):
            return name, unknown
        kind = keywords.get("type")
        value = _typed(value, kind)
        if value is _UNKNOWN_DEFAULT or (isinstance(value, str) and kind is not None):
            return name, unknown  # another converter (``click.IntRange``, a path type) may change a string
    elif literal(keywords.get("is_flag", ast.Constant(False))) is True:
        value = False
    elif literal(keywords.get("count", ast.Constant(False))) is True:
        value = 0
    else:
        return name, unknown
    return name, Value((Possible(value, origin),), "argparse")


def _option_value(options: Optional[List[Possible]]) -> Value:
    """An option of a parser as a value: unknown (configurable on the command line) when the
    parser gives it no option or one whose default cannot be read (``set_defaults(**cfg)``,
    ``default=f()``); the marker itself reached DL011's message as ``<object object at ...>``."""
    if not options or any(p.value is _UNKNOWN_DEFAULT for p in options):
        return Value.unknown("argparse")
    return Value(tuple(options), "argparse")
_PARSE_LIKE = "parse"  # ``opt = TrainOptions().parse()``: the method names ``option_parse`` is tried on


class _Namespace:
    """Marker value: the result of ``parser.parse_args()``."""


_NAMESPACE = _Namespace()


def _is_parse_args(expr: Optional[ast.AST], known: bool) -> bool:
    """``parser.parse_args()`` (or ``parse_known_args()`` when unpacked / indexed [0])."""
    if isinstance(expr, ast.Subscript) and literal(expr.slice) == 0 and not isinstance(expr.slice, ast.Slice):
        return _is_parse_args(expr.value, known=True)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        attr = expr.func.attr
        return attr == "parse_args" or (known and attr in ("parse_known_args", "parse_known_intermixed_args"))
    return False


_PATH_JOIN = frozenset({"os.path.join", "posixpath.join"})

# Calls that may change a config's keys: ``OmegaConf.update(cfg, ...)``, ``cfg.merge_with(...)``.


# What a ``vars(obj)`` dict may be used for without changing the object: a view or copy of it
# (``vars(par).items()``), or an argument of a call that only reads it (``print(vars(args))``).
_DICT_READS = frozenset({"items", "keys", "values", "get", "copy"})
# Mappings built like ``dict(...)`` whose items read and write as a dict's (CPython 3.7+:
# ``OrderedDict`` differs only in order-sensitive equality and ``move_to_end``).
_DICT_TYPES = frozenset({"collections.OrderedDict", "typing.OrderedDict"})
# Attribute dicts built from a dict display that hand back each value that is not a dict or a
# list as the very object given (``Box({"train": ds})["train"] is ds``; a nested dict comes back
# as the wrapper's own type with the same entries, a list's elements are kept). Checked by
# running them: python-box 8.0.0, easydict 1.14, munch 4.0.0 (``munchify`` and ``Munch``),
# addict 2.4.0, ml_collections 1.1.0. ``OmegaConf.create`` is not one of them: it refuses
# objects it cannot type (``UnsupportedValueType``).
_KEEPING_WRAPPERS = frozenset(
    {
        "box.Box",
        "easydict.EasyDict",
        "munch.munchify",
        "munch.Munch",
        "munch.Munch.fromDict",
        "addict.Dict",
        "ml_collections.ConfigDict",
        "ml_collections.config_dict.ConfigDict",
    }
)
_DICT_READERS = frozenset({"print", "str", "repr", "len", "sorted", "dict", "list", "pprint", "pformat", "dumps", "dump"})


# Methods that change a dict in place.
_DICT_WRITES = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})


def _rewrite(rewritten: Dict[str, Optional[Set[str]]], owner: str, keys: Optional[Set[str]]) -> None:
    """Record that ``owner``'s attributes ``keys`` (None: any) may be rewritten."""
    if keys is None or owner in rewritten and rewritten[owner] is None:
        rewritten[owner] = None
    else:
        rewritten.setdefault(owner, set()).update(keys)  # type: ignore[union-attr]


def _keys_written(node: ast.AST, parent: Optional[ast.AST]) -> Tuple[bool, Optional[Set[str]]]:
    """Whether the dict ``node`` is written where it stands (a method of ``_DICT_WRITES``
    called on it, a subscript assigned or deleted), and the key written when it is a constant
    string (None: any key)."""
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _DICT_WRITES:
        return True, None
    if isinstance(parent, ast.Subscript) and parent.value is node and not isinstance(parent.ctx, ast.Load):
        key = literal(parent.slice)
        return True, {key} if isinstance(key, str) else None
    return False, None


def _dict_write(
    node: ast.AST, parent: Optional[ast.AST], owner: str, rewritten: Dict[str, Optional[Set[str]]], aliases: List[Tuple[str, str]]
) -> None:
    """Record what ``node`` (``vars(owner)`` or ``owner.__dict__``) does to the object's
    attributes where it stands (``_object_edits_of``): a write (``.update(...)``, a subscript
    assignment) rewrites them (a constant key: that one); bound to a name, it does when that
    name is written."""
    written, keys = _keys_written(node, parent)
    if written:
        _rewrite(rewritten, owner, keys)
    elif isinstance(parent, ast.Assign) and parent.value is node:
        for target in parent.targets:
            if isinstance(target, ast.Name):
                aliases.append((target.id, owner))


def _read_only_dict(call: ast.Call, parent: Optional[ast.AST]) -> bool:
    """Whether ``call`` (``vars(obj)``) is only read where it stands (``_DICT_READS``,
    ``_DICT_READERS``, a loop or comprehension over it)."""
    if isinstance(parent, ast.Attribute) and parent.value is call:
        return parent.attr in _DICT_READS
    if isinstance(parent, ast.Call) and call in parent.args:
        return terminal(parent.func) in _DICT_READERS
    if isinstance(parent, (ast.For, ast.comprehension)):
        return parent.iter is call
    return False


def _one_class(index: ModuleIndex, name: str) -> Optional[ast.ClassDef]:
    """The module-level class ``name``, when the module defines one class of that name."""
    classes = [c for c in index.module_classes if c.name == name]
    return classes[0] if len(classes) == 1 else None


def _method_node(index: ModuleIndex, class_name: str, name: str) -> Optional[ast.AST]:
    """The plain method ``name`` of the module-level class ``class_name`` (one class of the name,
    one such ``def`` in its own body, no decorator), else None."""
    cls = _one_class(index, class_name)
    methods = [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == name] if cls is not None else []
    return methods[0] if len(methods) == 1 and not methods[0].decorator_list else None


def _class_level_names(cls: ast.ClassDef) -> Set[str]:
    """The names a class body assigns (class attributes), not its methods."""
    names: Set[str] = set()
    for statement in cls.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, ast.AnnAssign) else []
        names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


# Methods and functions that read what they are given (``_may_change``).
_LEAVING = frozenset(
    {"get", "keys", "values", "items", "copy", "index", "count", "print", "len", "str", "repr", "sorted", "list",
     "tuple", "dict", "set", "isinstance", "format", "info", "debug", "warning", "error", "log", "dumps", "deepcopy"}
)  # fmt: skip


def _may_change(function: ast.AST, param: str, kept: Dict[int, Tuple[ast.AST, frozenset]]) -> bool:
    """Whether ``function``'s body may change the object its parameter ``param`` holds: a
    subscript or attribute of it stored or deleted, a method called on it other than reading
    ones, the name handed to a call other than reading ones, or the name rebound (then it is
    not followed). One walk of the body answers for every name (``_changed_names``), kept in
    ``kept`` (the resolver's: id(function) -> (function, names), the node held so that its id
    is never another's): a function handed many dicts, or one dict at many calls, is walked
    once per module."""
    entry = kept.get(id(function))
    if entry is None or entry[0] is not function:
        entry = kept[id(function)] = (function, _changed_names(function))
    return param in entry[1]


def _changed_names(function: ast.AST) -> frozenset:
    """The names whose object ``function``'s body may change (``_may_change``)."""
    changed = set()
    for node in ast.walk(function):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name):
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                changed.add(node.value.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            changed.add(node.id)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr not in _LEAVING:
                changed.add(func.value.id)
            if terminal(func) in _LEAVING:
                continue
            unpacked = {a.value.id for a in node.args if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name)}
            for arg in (*node.args, *(k.value for k in node.keywords)):
                # ``f(*param)`` unpacks it: the call receives its elements, not the object
                if isinstance(arg, ast.Name) and arg.id not in unpacked:
                    changed.add(arg.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            changed.update(node.names)
    return frozenset(changed)


def _handed_over(tree: ast.AST, name: str) -> bool:
    """Whether any call in ``tree`` receives the object ``name`` itself as an argument."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(arg, ast.Starred):
                    arg = arg.value
                if isinstance(arg, ast.Name) and arg.id == name:
                    return True
    return False


_READING = frozenset({"len", "print", "list", "tuple", "dict", "sorted", "enumerate", "str", "repr", "isinstance"})
_ADDING = frozenset({"append", "extend", "insert", "copy", "items", "keys", "values", "get", "index", "count", "__contains__"})


def _may_remove(scope: Optional[ast.AST], name: str) -> Optional[FrozenSet[int]]:
    """Whether code in ``scope`` may take an element out of the container ``name`` holds: any
    method call on it but those that add or read, or a subscript written or deleted (None);
    otherwise the ids of the calls the name is handed to, each of which may change it (empty
    when there is none). A caller that knows one such call only keeps what it is given
    (``Compose(steps)``: torchvision stores the list) allows that one."""
    if scope is None:
        return None
    handed = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            if node.attr not in _ADDING:
                return None
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            if not isinstance(node.ctx, ast.Load):
                return None
        elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _READING):
            if any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                handed.append(id(node))
    return frozenset(handed)


def _is_self_hparams(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "hparams"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _hparams_only_read(cls: ast.ClassDef, mutators: frozenset) -> bool:
    """Whether every ``self.hparams`` in the class is read (``.x``, ``[k]``, ``.get(...)``), never
    assigned, deleted, updated or handed to a function that might change it."""
    for parent in ast.walk(cls):
        for child in ast.iter_child_nodes(parent):
            if not _is_self_hparams(child):
                continue
            if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load) and parent.attr not in mutators:
                continue
            if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Load):
                continue
            return False
        if isinstance(parent, ast.Attribute) and parent.attr in ("_hparams", "_set_hparams") and isinstance(parent.value, ast.Name):
            return False
    return True


def _built(value: Any) -> bool:
    """What a factory may hand back as if built at the call: an instance of a project class, a
    library object (not a plain list or dict display), a callable."""
    if isinstance(value, Opaque):
        return not value.qualname.startswith("builtins.")
    return isinstance(value, (Instance, FunctionRef))


def _entry_of_each(value: Value, key: str) -> Optional[Value]:
    """The entry ``key`` of a value each possibility of which is a dict that surely has it: the
    entries' possibilities together, each under the guards of the dict it comes from. None when
    one possibility is not such a dict (or has the key only on some paths)."""
    options: List[Possible] = []
    for possible in value.options or ():
        table = possible.value
        entry = table.get(key) if isinstance(table, DictValue) else None
        if entry is None or not entry.options or any(p.value is ABSENT for p in entry.options):
            return None
        for found in entry.options:
            for guard in possible.guards:
                found = found.with_guard(guard)
            options.append(found)
    return Value(tuple(_dedupe(options)))


def _dataclass_places(summary: Any) -> FrozenSet[Tuple[str, int]]:
    """(name, line) of each dataclass a module summary lists, once per summary: a scan of its
    classes per class asked was quadratic (3,000 classes of one module)."""
    kept = _DATACLASS_PLACES.get(id(summary))
    if kept is None or kept[0] is not summary:
        if len(_DATACLASS_PLACES) >= 64:
            _DATACLASS_PLACES.clear()
        kept = _DATACLASS_PLACES[id(summary)] = (summary, frozenset((c.name, c.line) for c in summary.classes if c.dataclass))
    return kept[1]


_DATACLASS_PLACES: Dict[int, Tuple[Any, FrozenSet[Tuple[str, int]]]] = {}


def _built_table(value: Any) -> bool:
    """A dict of built objects a factory hands back in a tuple (``return Box({"train":
    train_set, "test": test_set}), meta``): every key known, every value ``_built``."""
    return (
        isinstance(value, DictValue)
        and value.complete
        and bool(value.entries)
        and all(entry.options and all(_built(p.value) for p in entry.options) for _, entry in value.entries)
    )


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float))


def _narrowed(value: Value, code: str, guard: Guard) -> Tuple[Optional[bool], Value]:
    """A conditional expression's branch ``value``, written ``code``, which runs when ``guard``
    holds (``_resolve_ifexp``). When the branch is the tested expression itself, it takes only
    the values the test lets through: (False, value) when none does (the branch never runs),
    (True, value) when every one does (the other never runs), else (None, the values that may
    pass). Any other branch: (None, value)."""
    if not code or (code != guard.subject and code not in guard.aliases) or value.options is None:
        return None, value
    verdicts = [None if p.guards else guard.holds(p.value) for p in value.options]
    if all(v is False for v in verdicts):
        return False, value
    if all(v is True for v in verdicts):
        return True, value
    return None, Value(tuple(p for p, v in zip(value.options, verdicts) if v is not False), value.source, value.aliases)


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


def _dict_flag_loop(function: ast.FunctionDef) -> Optional[Tuple[int, int, str]]:
    """(position of the parser parameter, position of the dict parameter, its name) when
    ``function``'s body walks a dict parameter with ``for k, v in D.items():`` and adds one
    flag per key to a parser parameter: ``P.add_argument(f"--{k}", default=v, ...)`` (or
    ``"--" + k``), with no ``action``, ``dest``, ``nargs``, ``const`` or ``required``; None
    otherwise. ``_dict_flag_arguments`` reads the calls of such a function."""
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    for loop in function.body:
        walked = items_loop(loop)
        if walked is None or walked[2] not in params:
            continue
        key, value, source = walked
        for node in ast.walk(loop):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in params
                and node.func.value.id != source
                and len(node.args) == 1
            ):
                continue
            named = flag_after_dashes(node.args[0])
            keywords = {k.arg: k.value for k in node.keywords}
            default = keywords.get("default")
            if (
                not (isinstance(named, ast.Name) and named.id == key)
                or None in keywords
                or any(k in keywords for k in ("action", "dest", "nargs", "const", "required"))
                or not (isinstance(default, ast.Name) and default.id == value)
            ):
                continue
            stores = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id in (key, value) and isinstance(n.ctx, ast.Store)]
            if len(stores) != 2:
                continue  # the key or the value rebound in the loop
            return params.index(node.func.value.id), params.index(source), source
    return None


# "bound:N" (``values.BOUND``): only arithmetic and ``min``/``max`` of the core count make one; a
# bound of 1 is "positive" (POSITIVE_SOURCES); the rules read every bound of 1 or more as
# workers (``rules.base.positive_workers``), any other as an expression.
_BOUND_LIMIT = 1 << 20  # bounds past this are not kept (no arithmetic on huge literals)


def _lower_bound(value: Value) -> Optional[int]:
    """The least integer ``value`` can be: its smallest option (ints only), 1 for the core count
    or a positive count, N for "bound:N"; None when it has none."""
    if value.is_unknown:
        return source_lower_bound(value.source)
    options = [p.value for p in value.options or ()]
    if not options or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _BOUND_LIMIT for v in options):
        return None
    return min(options)


def _bounded(bound: int) -> Optional[Value]:
    """An unknown at least ``bound``: "positive" for 1 (a rule reads it as workers), else
    "bound:N" (``rules.base.positive_workers`` reads N >= 1 as workers too)."""
    if abs(bound) > _BOUND_LIMIT:
        return None
    return Value.unknown("positive") if bound == 1 else Value.unknown(f"{BOUND}{bound}")


def _bounded_arithmetic(op: ast.operator, left: Value, right: Value) -> Optional[Value]:
    """``left OP right`` where one operand is the core count or a bound on it and the other a
    bound or known integers: the result's lower bound (``cpu_count() // 2 + 1`` >= 1,
    ``cpu_count() - 4`` >= -3, ``2 * cpu_count()`` >= 2). ``-`` needs the right operand known (its
    largest option), ``//`` and ``*`` a known positive integer on the constant side. None
    otherwise (the usual unknown)."""
    low_left, low_right = _lower_bound(left), _lower_bound(right)
    if low_left is None or low_right is None:
        return None
    constants = [p.value for p in (right.options or ())] if not right.is_unknown else None
    if isinstance(op, ast.Add):
        return _bounded(low_left + low_right)
    if isinstance(op, ast.Sub) and constants is not None:
        return _bounded(low_left - max(constants))
    if isinstance(op, ast.FloorDiv) and constants is not None and all(k >= 1 for k in constants):
        return _bounded(min(low_left // k for k in constants))
    if isinstance(op, ast.Mult):
        known, bound = (constants, low_left) if constants is not None else (
            [p.value for p in (left.options or ())] if not left.is_unknown else None, low_right)
        if known is not None and all(k >= 1 for k in known):
            return _bounded(min(bound * k for k in known))
    return None


def _positive_extreme(name: str, values: Sequence[Value]) -> Optional[Value]:
    """``min``/``max`` over operands one of which is the core count (unknown, but at least 1)
    or a bound on it (``_lower_bound``): unknown "positive" when the result is certainly at
    least 1 (``min(8, os.cpu_count())``: every operand is; ``max(1, os.cpu_count() - 2)``,
    ``max(cpu_count() - 4, cpu_count() // 2 + 1)``: one operand is), else the bound of the result
    when every operand has one, else None (the usual combination). Rules that need workers, not
    their number, read it (``rules.base``)."""
    if len(values) < 2 or not any(v.is_unknown for v in values):
        return None
    bounds = [_lower_bound(v) for v in values]
    if name == "min" and all(b is not None for b in bounds):
        return _bounded(min(bounds))
    if name == "max" and any(b is not None and b >= 1 for b in bounds):
        return Value.unknown("positive")
    if name == "max" and all(b is not None for b in bounds):
        return _bounded(max(bounds))
    return None


def _number_of(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``int``/``float`` of a number or a string only (``int(None)`` and the like: refused)."""

    def number(value: Any) -> Any:
        if isinstance(value, str) or _is_number(value):
            return convert(value)
        raise TypeError(f"not converted: {value!r}")

    return number


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
    entries = tuple((k, _union(_guarded(a.get(k), guard), _guarded(b.get(k), guard.negate()))) for k in keys)
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


def _in_project(project: "ProjectHook", imported: str, module: str) -> bool:
    """Whether an import names something of the project: the module it comes from (or the
    module imported) is one of the project's files."""
    return project.module_exists(module or imported) or project.module_exists(imported)


# Libraries a dataset calls that know nothing of DataLoader workers, so that calling them cannot
# shard (their sharding functions, torch's get_worker_info among them, are found by name):
# the standard library, torch and its domain libraries, and the array and image libraries.
INERT_ROOTS = frozenset(
    getattr(sys, "stdlib_module_names", ())
) | frozenset(
    {
        # Python 3.9 has no sys.stdlib_module_names: the modules datasets call most.
        "abc", "bisect", "collections", "contextlib", "copy", "csv", "functools", "glob", "gzip",
        "hashlib", "heapq", "io", "itertools", "json", "logging", "math", "operator", "os", "pathlib",
        "pickle", "queue", "random", "re", "shutil", "struct", "sys", "tarfile", "tempfile",
        "threading", "time", "typing", "warnings", "zipfile", "builtins",
        "torch", "torchvision", "torchaudio", "numpy", "PIL", "cv2", "pandas", "scipy", "tqdm",
    }
)  # fmt: skip
