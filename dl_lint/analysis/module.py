"""Analyse one module: its loader calls (arguments bound to torch's signature and resolved), and
what the rest of the project may ask of it (its summary).

``ModuleFacts`` is plain frozen data (no syntax nodes), so the rules never touch syntax and facts
can be cached. ``ModuleAnalysis`` keeps the module's tree and index alive while the run needs
them: loader calls re-bound with a caller's arguments (``loader_calls_with``) are resolved on
the same tree, never on a second parse.
"""

from __future__ import annotations

import ast
import copy
import os
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from dl_lint.analysis.loaders import (
    KEYWORD_ONLY,
    LOADER_QUALNAMES,
    PARAMETERS,
    POSITIONAL,
    BoundArg,
    FreshIterator,
    LoaderCall,
    SamplerEpochs,
)
from dl_lint.analysis.loops import has_inner_loop, loop_count, loop_map, loops_around
from dl_lint.analysis.prefilter import LoaderCallees
from dl_lint.analysis.resolve import MAX_COMPREHENSION_ROWS, MODULE_RETURNS_SELF, NAMESPACE_NAMES, LoaderClass, ProjectHook, Resolver
from dl_lint.analysis.scopes import END, Binding, ModuleIndex, Site, alternatives, collect, plain_conds
from dl_lint.analysis.summary import ModuleSummary, build_summary, class_record_of
from dl_lint.analysis.syntax import NO_LITERAL, SourceText, docstring_statement, is_generator, literal, other_arms, parse, terminal
from dl_lint.analysis.transfers import _TRANSPARENT, loop_copy, module_helpers, transparent_leaves
from dl_lint.analysis.values import ABSENT, DictValue, FunctionRef, Guard, Instance, Origin, Possible, Value, source_lower_bound
from dl_lint.analysis.namespaces import ParsedArgs, edited_attributes
from dl_lint.analysis.configs.keypaths import LoadedConfig
from dl_lint.model import Location
from dl_lint.record import Record

# Config sources whose loaders a module may build (``dl_lint.analysis.configs.<name>``: its
# ``candidate`` byte check and ``loader_calls``), each looked at only when the module's source
# holds the word; in this order.
_CONFIG_SOURCES = (
    ("hydra_target", "hydra"),
    ("detectron2", "build_detection_t"),
    ("transformers", "TrainingArguments"),
    ("lightning_cli", "LightningCLI("),
    ("instantiate", "import"),  # OmegaConf nodes, or a getattr-by-name factory's (its own byte check)
)
_BATCH_BYTES_COMMENT = re.compile(r"#\s*dl-lint:\s*batch-bytes\s*=\s*([0-9A-Za-z.]+)")
# How many calls deep DL203 follows module-level code into the functions of the module.
MAX_CALL_DEPTH = 4
# Literal tables longer than this are not judged row by row.
MAX_TABLE_ROWS = 64
# How many subclass ``__init__`` levels a construction's arguments are followed through to the
# ``__init__`` that keeps them (``ModuleAnalysis._relayed_init``).
MAX_RELAYS = 3


class ModuleFacts(Record):
    __slots__ = ("path", "module_name", "calls", "torch_name", "import_row", "factories", "has_main_guard", "twins")

    def __init__(
        self,
        path: str,
        module_name: str,
        calls: Tuple[LoaderCall, ...] = (),
        # For fixes that need torch: the name ``import torch`` binds here (None if not imported),
        # and the row where an ``import torch`` line can be inserted (after docstring/__future__).
        torch_name: Optional[str] = None,
        import_row: int = 1,
        # Module-level functions whose loader calls depend on their parameters: name -> params.
        factories: Tuple[Tuple[str, Tuple[str, ...]], ...] = (),
        has_main_guard: bool = False,
        # Loader calls that are twins of one in ``calls`` (``ModuleAnalysis._twin_shapes``):
        # (its position in ``calls``, row, column, end column); ``every_call`` builds them.
        twins: Tuple[Tuple[int, int, int, int], ...] = (),
    ) -> None:
        self.path = path
        self.module_name = module_name
        self.calls = calls
        self.torch_name = torch_name
        self.import_row = import_row
        self.factories = factories
        self.has_main_guard = has_main_guard
        self.twins = twins

    def every_call(self) -> Tuple[LoaderCall, ...]:
        """``calls`` and their twins, each a call of its own (in that order)."""
        if not self.twins:
            return self.calls
        calls = self.calls
        return (*calls, *(calls[first].moved_to(row, column, end) for first, row, column, end in self.twins))


def analyze_source(
    source: str,
    path: str,
    module_name: str = "",
    *,
    is_package: bool = False,
    project: Optional[ProjectHook] = None,
    extra_loaders: Sequence[str] = (),
) -> ModuleFacts:
    """Parse ``source`` and extract its facts. Raises ``syntax.ParseFailure`` on bad syntax."""
    return ModuleAnalysis(parse(source), source, path, module_name, is_package, project, extra_loaders).facts()


def _rebound_after(own: Binding, other: Binding, read_rows) -> Optional[Tuple[int, int]]:
    """When one of ``own`` and ``other`` rebinds the name after the other by a plain assignment
    in straight-line code from it: in the same block (the same conditions, no loop around
    either), or directly in one arm of an ``if``/``try`` statement of that block (a second phase
    under ``if args.compute_cer:``). The rows whose reads see ``other``: when ``other`` is the
    rebinding, from the end of its statement to the end of its block (the reads in its own value,
    ``loader = wrap(loader)``, still see ``own``); when ``own`` is, every row up to the end of
    its statement. In an arm, a read after the arm could see either binding: None then
    (``read_rows()``: the rows of the name's reads in the scope). None otherwise."""
    first, second = own.site, other.site
    if first is None or second is None or first.scope is not second.scope or second.line == first.line:
        return None
    earlier = second.line < first.line  # ``other`` comes first: ``own`` is the rebinding
    before, after = (other, own) if earlier else (own, other)
    exited = _exited_arm(before.site, after.site)
    if exited is not None:
        # ``if world_size is None: loader = DataLoader(a); return loader`` then ``loader =
        # DataLoader(b, sampler=s)``: the first binding's reads are all inside its arm, which
        # returns; the second is read only after the ``if``
        if earlier:
            return (1, getattr(after.value, "end_lineno", None) or after.site.line)
        return (exited[3] + 1, 10**9)
    outer, inner = plain_conds(before.site.conds), plain_conds(after.site.conds)
    if inner[: len(outer)] != outer or any(c.kind == "loop" for c in inner):
        return None
    if after.kind not in ("assign", "unpack") or after.value is None:
        return None
    end = getattr(after.value, "end_lineno", None)
    if end is None:
        return None
    extra = inner[len(outer) :]
    last = 10**9
    if extra:
        if len(extra) != 1 or extra[0].arm is None or extra[0].kind not in ("if", "try", "except"):
            return None
        last = extra[0].arm[3]
        if any(row > last for row in read_rows()):
            return None
    # the rows that see ``other``: up to the end of the rebinding's own statement when ``other``
    # came first; from there to the end of the rebinding's block when it comes after
    return (1, end) if earlier else (end + 1, last)


def _arms_end(bindings: Sequence[Binding]) -> Optional[int]:
    """For two to four assignments of one name, each in another arm of one ``if``/``try``
    statement (``scopes.alternatives``): the last row of those arms (a read after it sees one of
    them). None otherwise."""
    if not 1 < len(bindings) <= 4 or any(b.kind != "assign" or b.value is None or b.site is None for b in bindings):
        return None
    arms = [alternatives(a.site, b.site) for a in bindings for b in bindings if a is not b]
    if any(arm is None or arm.arm is None for arm in arms):
        return None
    return max(arm.arm[3] for arm in arms)


def _wrapped_leaf(value: Optional[ast.AST]) -> Optional[str]:
    """The name ``value`` is, or holds through transparent wrappers (``tqdm(enumerate(loader))``),
    the same on every branch of a conditional expression (``tqdm(loader) if verbose else
    loader``); None otherwise."""
    if isinstance(value, ast.Call) and not (value.args and terminal(value.func) in _TRANSPARENT):
        return None  # a call of anything else (``DataLoader(...)``): itself, no name
    branches, leaves = [value], set()
    while branches:
        expr = branches.pop()
        if isinstance(expr, ast.IfExp):
            branches += [expr.body, expr.orelse]
            continue
        leaf = transparent_leaves(expr)[-1] if expr is not None else None
        leaves.add(leaf.id if isinstance(leaf, ast.Name) else None)
    return next(iter(leaves)) if len(leaves) == 1 and None not in leaves else None


def _exited_arm(before: Site, after: Site) -> Optional[Tuple[int, int, int, int]]:
    """The arm (``Cond.arm``) of an ``if`` body that ``before`` lies in and that always leaves
    the function (it ends in ``return`` or ``raise``), when ``after`` follows that ``if``
    statement in its block with no loop around it (its conditions hold the statement's early
    exit): no path from ``before`` reaches ``after``, nor a read after the statement. None
    otherwise."""
    outer, inner = plain_conds(after.conds), plain_conds(before.conds)
    if len(inner) <= len(outer) or inner[: len(outer)] != outer or any(c.kind == "loop" for c in after.conds):
        return None
    arm = inner[len(outer)]
    if arm.kind != "if" or arm.arm is None or arm.arm[1] != 0 or arm.test is None:
        return None
    if not any(c.kind == "exit" and c.test is arm.test for c in after.conds):
        return None
    return arm.arm


# Fields of a statement that hold statements (``top_call_counts`` reads only its own expressions).
_NESTED_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers"})


class ModuleAnalysis:
    def __init__(
        self,
        tree: ast.Module,
        source: str,
        path: str,
        module_name: str = "",
        is_package: bool = False,
        project: Optional[ProjectHook] = None,
        extra_loaders: Sequence[str] = (),
        index: Optional[ModuleIndex] = None,
    ) -> None:
        self.tree = tree
        self.text = SourceText(source)
        self.path = path
        self.module_name = module_name
        self.is_package = is_package
        self.index = index if index is not None else collect(tree)
        self.extra_loaders = tuple(extra_loaders)
        self._configured: frozenset = frozenset()  # see _bind_torch
        self._configured_from = ""
        self.resolver = Resolver(
            self.index, path, module_name, is_package, project, LOADER_QUALNAMES | frozenset(extra_loaders)
        )
        self.resolver.tree = tree  # config objects are trusted only where every edit can be seen
        self._callees: Optional[LoaderCallees] = None
        self._facts: Optional[ModuleFacts] = None
        self._summary: Optional[ModuleSummary] = None
        self._class_records: Dict[str, Any] = {}  # ``class_record``, before the summary is built
        self._record_facts: Dict[str, Any] = {}  # the module-wide facts those records need
        self._assigned_by_value: Optional[Dict[int, str]] = None
        self._unpacked_by_value: Dict[int, List[Binding]] = {}  # "unpack" bindings by value (``assigned_name``)
        self._aliases: Dict[Tuple[Optional[int], str], List[Tuple[str, int]]] = {}  # see assigned_name
        self._builder_methods: frozenset = frozenset()  # see builder_facts
        self._relaying: Set[int] = set()  # relays being read (``_relayed``): no recursion
        self._relayed_calls: Dict[int, list] = {}  # ``_relay_calls`` of each relay read, once
        self._getter_calls: Dict[int, Dict[str, List[Tuple[str, str, int]]]] = {}  # see _held_iteration
        self._import_aliases: Optional[Dict[str, Set[str]]] = None  # see import_aliases
        self._returns: Dict[int, List[ast.expr]] = {}  # id(function) -> what its returns give
        # DL306: (id(scope), name) -> calls in that scope taking the bare name as an argument,
        # with the position (or -1) and keyword ("" when positional) it is passed as.
        self._passed: Optional[Dict[Tuple[int, str], List[Tuple[ast.Call, Site, int, str]]]] = None
        self._by_scope: Optional[Dict[int, list]] = None  # id(scope) -> its calls (``_calls_in``)
        self._helpers: Dict[int, Optional[ast.AST]] = {}  # id(nested function) -> its method (``_helper_method``)
        self._wrapped: Dict[Optional[int], Dict[str, List[Tuple[str, int]]]] = {}  # ``_wrapped_aliases``
        self._global_alias_index: Optional[Dict[str, List[Tuple[ast.AST, str, int]]]] = None  # ``_global_aliases``
        self._eager_kinds: Dict[int, str] = {}  # id(call) -> its ``EAGER_ITERATION`` kind, "" if none
        self._listed: Optional[Dict[Tuple[Optional[int], str], List[Tuple[str, int, bool]]]] = None  # ``_lists_holding``
        self._looped: Optional[Dict[Tuple[Optional[int], str], List[Tuple[str, int, int]]]] = None  # ``_loop_aliases``
        self._kept: Dict[int, Dict[str, str]] = {}  # id(class) -> ``_init_keeps``
        self._kept_names: Optional[Dict[str, Dict[str, str]]] = None  # class name -> attr -> name kept by __init__
        self._next_iters: Optional[Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]]] = None
        self._handed: Optional[Dict[str, List[Tuple[ast.Call, ast.Name, Site]]]] = None  # ``_handed_by_name``
        self._sites: Optional[Dict[int, Site]] = None
        self._dict_keys: Optional[Dict[str, Any]] = None  # ``_key_reads``: per module-level dict name
        self._iter_attrs: Optional[Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]]] = None  # ``_iter_attribute_calls``
        self._configs: Optional[list] = None  # loaders built from configs (``_config_calls``)
        # Per-module indexes, each built in one walk the first time a loader asks (``_Index``):
        # the questions below are asked once per loader, and a module may hold thousands.
        self._ix: Optional[_Index] = None
        self._loop_maps: Dict[int, Dict[int, Tuple[Tuple[ast.AST, ...], bool]]] = {}
        self._loop_changes: Dict[int, Tuple[Dict[str, int], Set[int], Set[str], Dict[str, List[ast.Call]]]] = {}  # DL302, per loop
        self._trainers: Dict[int, bool] = {}  # id(call) -> its receiver is a Trainer (``_trainer_runs``)
        self._overrides: Optional[Dict[str, Set[str]]] = None  # ``_overridden``
        self._unguarded_rows: Dict[int, Optional[int]] = {}
        self._whole_returns: Dict[int, List[ast.expr]] = {}  # id(function) -> its ``return`` values
        self._argument_loops: Dict[Tuple[int, str], bool] = {}
        # DL203: the functions of other modules found iterating a loader handed to them, while
        # one loader's ``_unguarded_iteration`` is worked out (cited as related locations).
        self._handed_elsewhere: List[Tuple[str, int, str]] = []
        self._top_call_counts: Optional[Dict[str, int]] = None  # ``flow_iteration``: calls per name at the top level
        self._top_call_keys: Dict[str, Set[Tuple[str, str]]] = {}  # ``_root_calls``: what they call, per name
        self._declared_global: Optional[Set[str]] = None  # names some function declares ``global``
        self._bound_once: Dict[str, int] = {}  # ``_bound_once_at``
        self._words_counted: Optional[Dict[str, int]] = None  # ``_word_counts``
        self._unpacking: Dict[int, Dict[int, ast.Assign]] = {}  # ``_tuple_assignments``, per function
        self._displays: Dict[int, Dict[str, List[Tuple[str, str, int]]]] = {}  # ``_dict_displays``, per scope
        # (caller's analysis, call, site, function) while ``loader_calls_with`` judges a call of
        # ``function`` from another module: DL206 follows a loader it returns into that caller.
        self.returned_to: Optional[tuple] = None

    @property
    def callees(self) -> LoaderCallees:
        if self._callees is None:
            self._callees = LoaderCallees(self.index, self.extra_loaders)
        return self._callees

    @property
    def source(self) -> str:
        return self.text.source

    @property
    def constructs_loader(self) -> bool:
        """Whether any call of this module may construct a loader (else it needs no facts)."""
        return self.callees.any_call(self.index) or bool(self._config_calls())

    def _builders(self, factories: Mapping[str, Tuple[str, ...]]) -> List[ast.AST]:
        """The module-level functions that are builders (``_builder_call``) of a method factory:
        one of this module's (``factories``, the object a class of this module), or one whose
        method name ``builder_facts`` was given (a builder in a module that builds no loader,
        found among a factory's callers). Each is a factory of the loaders its method builds
        (``_built_through``)."""
        found = []
        for function in self.index.module_functions:
            built = self._builder_call(function)
            if built is None:
                continue
            obj, call, method = built
            if method in self._builder_methods:
                found.append(function)
                continue
            made = call.func if method == "__init__" else self._made_by(function, obj)
            bindings = self.index.module_scope.bindings.get(made.id, ()) if isinstance(made, ast.Name) else ()
            if len(bindings) == 1 and bindings[0].kind == "class" and f"{made.id}.{method}" in factories:
                found.append(function)
        return found

    def builder_facts(self, methods: Set[str]) -> Optional[ModuleFacts]:
        """The facts of a module that builds no loader but may hold builders of the method
        factories named ``methods`` (``pipeline.Run._derive_builders``): None when it holds none."""
        if self._facts is None:
            self._builder_methods = frozenset(methods)
            facts = self.facts()
            return facts if facts.factories else None
        # analysed already (its bytes name a loader-like class: ``Holder(``), without builders
        saved = self._builder_methods
        self._builder_methods = frozenset(methods)
        own = dict(self._facts.factories)
        try:
            built = {f.name: tuple(_param_names(f)) for f in self._builders({}) if f.name not in own}
        finally:
            self._builder_methods = saved
        if not built:
            return None
        self._facts = self._facts.replace(factories=tuple(sorted({**own, **built}.items())))
        return self._facts

    def _config_calls(self) -> list:
        """The loaders this module builds from configs: the loader dicts of an mmengine config
        file (``configs.mmengine``), then each source of ``_CONFIG_SOURCES`` whose word the
        source holds and whose byte check passes (``candidate``), else []."""
        if self._configs is None:
            found: list = []
            if "_dataloader" in self.source:  # cheap: most modules hold no loader dict
                from dl_lint.analysis.configs.mmengine import loader_calls

                found = loader_calls(self.tree, self.path, self.resolver.project)
            data = None
            for name, word in _CONFIG_SOURCES:
                if word not in self.source:
                    continue
                import importlib

                config = importlib.import_module(f"dl_lint.analysis.configs.{name}")  # only the readers asked for
                if data is None:
                    data = self.source.encode("utf-8", "surrogatepass")
                if config.candidate(data):
                    found = found + config.loader_calls(self)
            self._configs = found
        return self._configs

    def release(self) -> None:
        """Free what this analysis holds (see ``ModuleIndex.release``); it must not be used
        afterwards."""
        self.summary()  # importers may still ask for it
        self.index.release()
        self.resolver.forget()
        self._callees = None
        self._returns.clear()
        self._getter_calls.clear()
        self._whole_returns.clear()
        self._relayed_calls.clear()
        self._passed = None
        self._handed = None
        self._by_scope = None
        self._helpers = {}
        self._wrapped = {}
        self._global_alias_index = None
        self._kept = {}
        self._kept_names = None
        self._ix = None
        self._loop_maps = {}
        self._loop_changes = {}
        self._listed = None
        self._looped = None
        self._displays = {}
        self._unpacking = {}
        self._top_call_counts = None
        self._top_call_keys = {}

    def class_record(self, name: str):
        """The summary's record of the module-level class ``name`` (None: no such class), from
        the summary when it is built, else built alone (``summary.class_record_of``)."""
        if self._summary is not None:
            return {c.name: c for c in self._summary.classes}.get(name)
        if name not in self._class_records:
            self._class_records[name] = class_record_of(self.index, self.text, name, self._record_facts)
        return self._class_records[name]

    def summary(self) -> ModuleSummary:
        if self._summary is None:
            self._summary = build_summary(self.tree, self.index, self.text, self.path, self.module_name, self.is_package)
        return self._summary

    # -- facts ----------------------------------------------------------------------------------
    def facts(self) -> ModuleFacts:
        if self._facts is None:
            calls = []
            reaching: List[Tuple[int, ast.Call, Optional[ast.AST]]] = []
            factories: Dict[str, Tuple[str, ...]] = {}
            named = self.index.named_calls
            shape_of = self._twin_shapes(named) if len(named) > 1 and not self.index.star_import else None
            shapes: Dict[str, Any] = {}  # a twin's text -> the first's position (or _UNSHARED, _UNBOUND)
            twinned: List[Tuple[int, int, int, int]] = []
            for call, site, scope_name, cls in self.index.calls:
                shape = shape_of(call, site) if shape_of is not None else None
                if shape is not None:
                    first = shapes.get(shape)
                    if first is _UNBOUND:
                        continue  # the same text at the same place in the module's flow: not a loader either
                    if first is not None and first is not _UNSHARED:
                        twinned.append((first, *self._columns(call)))
                        continue
                judged = call
                if isinstance(call.func, ast.Attribute) and call.func.attr == "__init__":
                    found = self._base_init(call, site, cls)
                    if found is None:
                        continue
                    judged, loader = found
                else:
                    loader = self._loader_for(call, site, cls)
                if loader is None or (bound := self._bind(judged, site, scope_name, loader, unread=shape is not None)) is None:
                    if shape is not None:
                        shapes[shape] = _UNBOUND
                    continue
                if shape is not None:
                    shapes[shape] = len(calls) if _twin_source(loader, bound) else _UNSHARED
                function, name = self._factory_of(site)
                if bound.unguarded_iteration is None and site.scope is not None and _certainly_workers(bound):
                    reaching.append((len(calls), judged, function))  # once the factories are known
                calls.append(bound)
                module_level = function is not None and function is site.scope and id(function) in self.ix.function_ids
                if function is not None and (
                    self._forwards_kwargs(call, function)
                    or (
                        any(bound.value(arg).source == "parameter" for arg in bound.args)
                        and (module_level or _mentions_own_parameter(call, function))
                    )
                    or (module_level and _reads_namespace_parameter(call, function, self._own_flags))
                    or (module_level and _reads_parameter_item(call, function, self.index.scopes.get(id(function))))
                    or self._runs_loader_with_workers(call, site, function, bound)
                    or self._kept_by_construction(call, site, function, bound)
                    or (
                        # a loader kept on the object and handed out by a getter, built from
                        # the options the method is given (pix2pixHD's ``initialize(self, opt)``)
                        function is site.scope
                        and _mentions_namespace_parameter(call, function)
                        and self._held(call, site) is not None
                    )
                ):
                    factories[name] = tuple(_param_names(function))
                elif function is None and cls is not None:
                    # a loader a class builds when it is constructed and hands out (``_held``):
                    # each construction ``Holder(...)`` is a call site of "Holder.__init__"
                    init = self._held_init(site)
                    if init is not None and self._held(call, site) is not None:
                        factories[f"{init[0].name}.__init__"] = tuple(_param_names(init[1]))
            for function in self._builders(factories):
                factories.setdefault(function.name, tuple(_param_names(function)))
            for function in self._relays(factories):
                factories.setdefault(function.name, tuple(_param_names(function)))
            for position, judged, function in reaching:
                judged_at_calls = function is not None and any(n.rsplit(".", 1)[-1] == function.name for n in factories)
                calls[position] = self._reached_at_import(judged, calls[position], function, judged_at_calls)
            if factories:
                # Dicts of this module holding factories (``LOADERS["msrvtt"]["train"](args)``):
                # their subscripts are call sites too, searched for as ``NAME[`` (``judge``).
                factories.update((f"{name}[", ()) for name in _dispatch_dicts(self.tree, factories))
            calls.extend(self._config_calls())
            self._facts = ModuleFacts(
                path=self.path,
                module_name=self.module_name,
                calls=tuple(calls),
                torch_name=self._torch_name(),
                import_row=self._import_row(),
                factories=tuple(sorted(factories.items())),
                has_main_guard=bool(self.index.main_guard_lines),
                twins=tuple(twinned),
            )
        return self._facts

    # -- twins: identical literal calls share one analysis -------------------------------------
    def _twin_shapes(self, targets: Dict[int, str]) -> Callable[[ast.Call, Site], Optional[str]]:
        """The function giving the shape a twin shares (its text), or None when a call cannot
        be one. Generated modules and tests
        repeat one call thousands of times (issue 28: 10,000 ``xN = DataLoader([1],
        num_workers=2)``); two calls of the same shape get the same analysis, its places moved
        (``ModuleFacts.twins``, ``LoaderCall.moved_to``), and the judge gives the second the
        first's findings when there are none (``judge.judge``), because nothing the analysis
        reads differs between them: the call is the value of a module-level ``name = ...`` on
        one line (``targets``: ``ModuleIndex.named_calls``), outside any ``if``, loop or early
        exit; its arguments are literals (``[1]``, ``2``, ``(0.5, -1)``: no name to resolve, no
        flow to follow); its callee's first name is bound once in the module, before the call,
        and never declared ``global`` (the same class at both); and its target is written
        nowhere else in the module (no iteration, copy, sampler or alias of it to find); and no
        ``# dl-lint: batch-bytes`` comment gives it a figure of its own. Everything else goes
        the usual way. Asked of every call of a module: kept lean."""
        lines = self.text.lines
        counts = self._word_counts()
        texts: Dict[str, str] = {}  # a call's text -> ``_twin_root`` of it: the same text is the same call
        comments = "batch-bytes" in self.source

        def shape(call: ast.Call, site: Site) -> Optional[str]:
            target = targets.get(id(call))
            if target is None or site.conds or site.scope is not None:
                return None
            row = call.lineno
            line = lines[row - 1]
            text = line[call.col_offset : call.end_col_offset] if line.isascii() else self.text.segment(call)
            root = texts.get(text)
            if root is None:
                root = texts[text] = _twin_root(call)
            if not root or self._bound_once_at(root) >= row or counts.get(target, 0) != 1:
                return None  # a callee bound elsewhere too; a target read, bound again, or in a string
            if comments and ("batch-bytes" in line or "batch-bytes" in self.text.line(row - 1)):
                return None  # a figure of its own (``_batch_bytes_comment`` reads it)
            return text

        return shape

    def _word_counts(self) -> Dict[str, int]:
        """How many times each identifier-like word is written in the source (``_twin_shapes``:
        a target written once is only bound there), counted once per module."""
        if self._words_counted is None:
            from collections import Counter

            self._words_counted = Counter(_WORD.findall(self.source))
        return self._words_counted

    def _bound_once_at(self, name: str) -> int:
        """The line of the one binding of ``name`` in the module, when it has one and no
        function declares it ``global`` (``_twin_shapes``); a line past every other else."""
        found = self._bound_once.get(name)
        if found is None:
            if self._declared_global is None:
                self._declared_global = set()
                for scope in self.index.scopes.values():
                    self._declared_global.update(scope.globals)
            bindings = self.index.module_scope.bindings.get(name, ())
            found = 10**9
            if len(bindings) == 1 and bindings[0].site is not None and name not in self._declared_global:
                found = bindings[0].site.line
            self._bound_once[name] = found
        return found

    def _columns(self, call: ast.Call) -> Tuple[int, int, int]:
        """(row, column, end column) of a call on one line, columns as ``Location``'s."""
        row = call.lineno
        if self.text.line(row).isascii():  # characters: here, the bytes ``ast`` counts
            return row, call.col_offset + 1, call.end_col_offset + 1
        start, end = self.text.span(call)
        return row, start.column, end.column

    def _runs_loader_with_workers(self, call: ast.Call, site: Site, function: ast.AST, bound: LoaderCall) -> bool:
        """Whether ``function`` (``_factory_of``) builds a loader that certainly has workers, on
        every path through it, and iterates it (itself or in a function it hands it to) or
        returns it whole, where this module does not iterate it at import itself: a call of
        ``function`` at import in another module (a script's ``runner.train_test()``, with
        ``DataLoader(ds, num_workers=8)`` inside) iterates a loader with workers there, whatever
        it passes (DL203 at that call, ``judge.judge_call_sites``). The cheap tests first."""
        if bound.unguarded_iteration is not None or not _numbered_workers(bound):
            return False
        if self._use_in(call, site, function) is None:
            return False
        return self._runs(site) is True  # built on one branch of several: not certainly this call's loader

    def _own_flags(self):
        """The dests of this module's argparse options (empty without a parser)."""
        return self.resolver._argparse_options() if self.index.add_arguments else ()

    def _loader_for(self, call: ast.Call, site: Site, cls: Optional[str]) -> Optional[LoaderClass]:
        why = self.callees.why(call.func)
        if why is None:
            return None
        if why and not any(self.resolver.project.may_name_loader_class(name, self.extra_loaders) for name in sorted(why)):
            return None  # no project file can make that name a loader class: nothing to resolve
        self.resolver.current_class = cls
        return self.resolver.loader_of(call.func, site)

    def _base_init(self, call: ast.Call, site: Site, cls: Optional[str]) -> Optional[Tuple[ast.Call, LoaderClass]]:
        """``super().__init__(...)`` (or ``Base.__init__(self, ...)``) in the ``__init__`` of a
        module-level class whose base is a loader class: a construction of that loader, judged
        as one, its values resolved in ``__init__`` (its parameters are configurable, as in a
        factory nobody calls: ``class L(DataLoader): def __init__(self, ds, workers):
        super().__init__(ds, num_workers=workers, prefetch_factor=2)`` can be built with 0
        workers). The call to judge (``Base.__init__``'s without ``self``) and the loader, or
        None. ``super()`` goes to the first base: only it is read."""
        scope = site.scope
        if cls is None or scope is None or getattr(scope, "name", "") != "__init__":
            return None
        owner = self.ix.method_class.get(id(scope))
        if owner is None or owner.name != cls or not owner.bases:
            return None
        func = call.func
        first = _first_param(scope)
        if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
            if func.value.keywords or (func.value.args and not (
                len(func.value.args) == 2
                and isinstance(func.value.args[0], ast.Name)
                and func.value.args[0].id == cls
                and isinstance(func.value.args[1], ast.Name)
                and func.value.args[1].id == first
            )):
                return None
            base, judged = owner.bases[0], call
        elif (
            isinstance(func.value, (ast.Name, ast.Attribute))
            and call.args
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == first
            and any(self.resolver.code(b) == self.resolver.code(func.value) for b in owner.bases)
        ):
            base = func.value
            judged = ast.copy_location(ast.Call(func=func, args=call.args[1:], keywords=call.keywords), call)
            judged.end_lineno, judged.end_col_offset = call.end_lineno, call.end_col_offset
        else:
            return None
        why = self.callees.why(base)
        if why is None:
            return None
        if why and not any(self.resolver.project.may_name_loader_class(name, self.extra_loaders) for name in sorted(why)):
            return None
        self.resolver.current_class = cls
        loader = self.resolver.loader_of(base, END)
        return (judged, loader) if loader is not None else None

    def _torch_name(self) -> Optional[str]:
        for statement in self.tree.body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.name == "torch":
                        return alias.asname or "torch"
                    if alias.asname is None and alias.name.startswith("torch."):
                        return "torch"  # ``import torch.nn`` binds ``torch`` too
        return None

    def _import_row(self) -> int:
        """The first row after the module docstring and ``from __future__`` imports."""
        row = 1
        for position, statement in enumerate(self.tree.body):
            is_doc = position == 0 and docstring_statement(statement)
            is_future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            if not (is_doc or is_future):
                decorators = getattr(statement, "decorator_list", ())
                return min([statement.lineno, *(d.lineno for d in decorators)])
            row = (statement.end_lineno or statement.lineno) + 1
        return row

    def _factory_of(self, site: Site) -> Tuple[Optional[ast.AST], str]:
        """The function a loader call is in, when calls of it can be judged with their arguments,
        and its factory name: a module-level function (``make``), or a method of a module-level
        class (``Walker.loader``, called on an instance of the class)."""
        function = self._module_function(site)
        if function is not None:
            return function, function.name
        scope = site.scope
        scope = self._helper_method(scope) or scope
        cls = self.ix.method_class.get(id(scope)) if scope is not None else None
        if cls is None or _static(scope) or not _first_param(scope) or scope.name.startswith("__"):
            return None, ""  # dunder and private-mangled methods are not called by their name
        return scope, f"{cls.name}.{scope.name}"

    def _init_keeps(self, cls: ast.ClassDef) -> Dict[str, str]:
        """The attributes ``cls.__init__`` keeps from its parameters (``self.config = config``,
        the attribute's only store in the class), each with the parameter's name. The module's
        stores are grouped by class once, for every class asked."""
        kept = self._kept.get(id(cls))
        if kept is None:
            if self._kept_names is None:
                self._kept_names = {}
                for (owner, attr), entries in self.index.self_attrs.items():
                    if len(entries) == 1 and entries[0][2] == "__init__" and isinstance(entries[0][0], ast.Name):
                        self._kept_names.setdefault(owner, {})[attr] = entries[0][0].id
            init = self.ix.methods.get((id(cls), "__init__"))
            params = set(_param_names(init)[1:]) if init is not None else set()
            kept = self._kept[id(cls)] = {a: n for a, n in self._kept_names.get(cls.name, {}).items() if n in params}
        return kept

    def _held_init(self, site: Site) -> Optional[Tuple[ast.ClassDef, ast.AST]]:
        """(class, ``__init__``) when ``site`` is in the ``__init__`` of a module-level class
        (not a nested helper of it): a loader built there is built by every construction."""
        scope = site.scope
        if scope is None or getattr(scope, "name", None) != "__init__":
            return None
        cls = self.ix.method_class.get(id(scope))
        if cls is None or _static(scope) or not _first_param(scope):
            return None
        bindings = self.index.module_scope.bindings.get(cls.name, ())
        if not any(b.kind == "class" and b.node is cls for b in bindings):
            return None  # a class nested in a function or another class
        return cls, scope

    def module_at(self, path: str, module: str) -> Optional["ModuleAnalysis"]:
        """The analysis of the project module at ``path``: this one, or another (parsed once per
        run), whose bytes the answer then rests on (recorded for the cache and partial runs);
        None when it cannot be read."""
        if not path or path == self.path:
            return self
        reader = getattr(self.resolver.project, "analysis_at", None)
        where = reader(path, module) if reader is not None else None
        if where is not None:
            self.resolver.project.read_config_file(path)
        return where

    def factory_node(self, name: str) -> Optional[ast.AST]:
        """The function a factory name of ``_factory_of`` names."""
        if "." not in name:
            return self.function_node(name)
        class_name, method = name.split(".", 1)
        for binding in self.index.module_scope.bindings.get(class_name, ()):
            if binding.kind == "class" and not binding.nested:  # the first module-level class of the name
                return self.ix.methods.get((id(binding.node), method))
        return None

    def _helper_method(self, scope: Optional[ast.AST]) -> Optional[ast.AST]:
        """The method a nested helper belongs to (minGPT's ``def run_epoch(split)`` in
        ``Trainer.train``): a function defined by a statement of the method's own body, bound
        once there, whose every use in the method is a call of it, one of them on every path
        (under no ``if`` or early exit; a loop around it is fine). Its loaders are the method's:
        built and iterated when the method runs. None otherwise."""
        if scope is None or id(scope) in self.ix.method_class or id(scope) in self.ix.function_ids:
            return None
        found = self._helpers.get(id(scope), False)
        if found is not False:
            return found
        found = None
        names = self.index.scopes.get(id(scope))
        parent = names.parent if names is not None else None
        method = parent.node if parent is not None and parent.kind == "function" else None
        if (
            method is not None
            and id(method) in self.ix.method_class
            and not _static(method)
            and any(statement is scope for statement in method.body)
            and len(parent.bindings.get(scope.name, ())) == 1
        ):
            uses = sum(1 for n in ast.walk(method) if isinstance(n, ast.Name) and n.id == scope.name)
            calls = [
                (c, where) for c, where, _, _ in self._calls_in(method) if isinstance(c.func, ast.Name) and c.func.id == scope.name
            ]
            inner = sum(1 for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == scope.name)
            if calls and uses - inner == len(calls) and any(
                not any(c.kind in ("if", "exit") for c in where.conds) for _, where in calls
            ):
                found = method
        self._helpers[id(scope)] = found
        return found

    def _helpers_of(self, function: ast.AST) -> List[ast.AST]:
        """The nested helpers (``_helper_method``) of a method."""
        return [s for s in function.body if isinstance(s, ast.FunctionDef) and self._helper_method(s) is function]

    def _kept_by_construction(self, call: ast.Call, site: Site, function: ast.AST, bound: LoaderCall) -> bool:
        """Whether a method's loader (or its helper's) reads what ``__init__`` keeps from its
        parameters (``self.config = config``, then ``config.num_workers`` through ``config =
        self.config`` or ``self.config.num_workers``) and some value is unknown here: the
        method is judged at each call on an instance whose construction the caller shows
        (``bind_parameters``: ``trainer = Trainer(model, ds, None, tconf)``)."""
        cls = self.ix.method_class.get(id(function))
        if cls is None or all(not bound.value(arg).is_unknown for arg in bound.args):
            return False
        kept = self._init_keeps(cls)
        if not kept:
            return False
        own = _first_param(function)

        def reads_kept(node: ast.AST) -> bool:
            return any(
                isinstance(n, ast.Attribute) and n.attr in kept and isinstance(n.value, ast.Name) and n.value.id == own
                for n in ast.walk(node)
            )

        aliases = set()
        for scope in {id(function): function, id(site.scope): site.scope}.values():
            names = self.index.scopes.get(id(scope))
            for name, bindings in (names.bindings.items() if names is not None else ()):
                if any(b.kind in ("assign", "unpack") and b.value is not None and reads_kept(b.value) for b in bindings):
                    aliases.add(name)
        return reads_kept(call) or any(isinstance(n, ast.Name) and n.id in aliases for n in ast.walk(call))

    @staticmethod
    def _forwards_kwargs(call: ast.Call, function: ast.AST) -> bool:
        """Whether the loader call spreads the function's own ``**kwargs`` (``DataLoader(ds,
        **kwargs)`` in ``def loader(self, **kwargs)``), or a parameter that holds a dict
        (``DataLoader(training_set, **params)`` in ``def get_dataloader(data, params)``,
        text2mol's): the caller's keywords, or the dict it passes, reach torch."""
        args = function.args
        spread = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        if args.kwarg is not None:
            spread.add(args.kwarg.arg)
        return any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id in spread for k in call.keywords)

    def _module_function(self, site: Site) -> Optional[ast.AST]:
        scope = site.scope
        if scope is not None and id(scope) in self.ix.function_ids:
            return scope
        return None

    # -- binding --------------------------------------------------------------------------------
    def _bind(
        self, call: ast.Call, site: Site, scope_name: str, loader: LoaderClass, given: Any = None, unread: bool = False
    ) -> Optional[LoaderCall]:
        """Bind the call's arguments (after any pre-bound by ``partial``) to torch's signature,
        through the signatures of the subclasses in between (None: the call raises TypeError
        there, and is not judged). ``given``: the arguments the call passes, already bound
        (``subclasses.Bound``: a factory's ``getattr(module, name)(**config_args)``, whose
        keywords come from a config file), instead of the call's own. ``unread``: the call is
        the value of a module-level ``name = ...`` whose name the module writes nowhere else
        (``_twin_shapes``): neither the call nor the name is iterated, returned, copied from or
        iterated afresh anywhere, and those searches (each an index of the whole module, built
        at its first question) are not made."""
        if given is not None:
            bound = self._bind_chain(call, site, loader, given)
            if bound is None:
                return None
            args, opaque, sampler_node = bound
        elif loader.chain:
            bound = self._bind_chain(call, site, loader)
            if bound is None:
                return None
            args, opaque, sampler_node = bound
        else:
            args, opaque, sampler_node = self._bind_torch(call, site, loader)
        start, end = self.text.span(call)
        extra = {}
        if not loader.chain and given is None and self._configured:
            extra["configured"] = self._configured
            extra["configured_from"] = self._configured_from
        holds = self._site_guards(site)
        if holds:
            extra["holds"] = holds
        divided = self._division_guards(site, args)
        if divided:
            extra["divided"] = divided
        if loader.chain:
            extra["loader_class"] = loader.chain[0].label
        if loader.chain and given is None:
            extra["keywords"] = frozenset(self._same_keywords(loader))
        if not loader.chain and given is None:
            elements = self._comprehension_elements(call, site, loader, args)
            if elements:
                extra["elements"] = elements
        self._handed_elsewhere = []
        unguarded = None if unread else self._unguarded_iteration(call, site)
        if unguarded is not None and self._handed_elsewhere:
            extra["iterated_elsewhere"] = tuple(dict.fromkeys(self._handed_elsewhere))
        return LoaderCall(
            path=self.path,
            qualname=loader.qualname,
            location=start,
            end_location=end,
            args=args,
            opaque=frozenset(opaque),
            batch_bytes=self._batch_bytes_comment(start.row, end.row),
            scope=scope_name,
            in_loop=site.in_loop() and not self._loader_per_item(call, site, args),
            unguarded_iteration=unguarded,
            returned=not unread and self._returned(call, site),
            nonblocking_copy=(
                None
                if unread or _always_pins(args, opaque)
                else self._nonblocking_copy(call, site, _never_pins(args, opaque))
            ),
            fresh_iterators=() if unread else self._fresh_iterators(call, site),
            sampler_epochs=self._sampler_epochs(call, site, sampler_node, args),
            extra=extra,
        )

    def _comprehension_elements(self, call: ast.Call, site: Site, loader: LoaderClass, args: Mapping[str, BoundArg]) -> tuple:
        """A loader built as the value of a dict comprehension (or the element of a list one)
        over a literal list of strings (``{x: DataLoader(image_datasets[x], ...) for x in
        ["train", "val"]}``, PyTorch's transfer-learning tutorial) is one loader per element,
        not one loader whose arguments may be any element's: ((element, its arguments bound with
        the variable that element), ...), when its arguments mention the variable; () else. DL202
        judges each element when the whole does not decide (only the "val" dataset keeps a
        lambda)."""
        names = site.names
        node = names.node if names is not None and names.kind == "comprehension" else None
        if not (isinstance(node, ast.DictComp) and node.value is call) and not (isinstance(node, ast.ListComp) and node.elt is call):
            return ()
        if len(node.generators) != 1 or node.generators[0].ifs or not isinstance(node.generators[0].target, ast.Name):
            return ()
        generator = node.generators[0]
        variable = generator.target.id
        written = [*call.args, *(k.value for k in call.keywords)]
        if not any(isinstance(n, ast.Name) and n.id == variable for a in written for n in ast.walk(a)):
            return ()  # every element gets the same arguments
        bindings = names.bindings.get(generator.target.id, ())
        if len(bindings) != 1 or bindings[0].kind != "other":
            return ()
        table = generator.iter
        rows = list(table.elts) if isinstance(table, (ast.List, ast.Tuple)) else []
        keys = [literal(row) for row in rows]
        if not keys or len(keys) > MAX_COMPREHENSION_ROWS or not all(isinstance(k, str) for k in keys):
            return ()
        resolver = self.resolver
        saved = resolver.param_env
        out = []
        try:
            for key in keys:
                resolver.param_env = {**saved, id(bindings[0].node): Value.known(key)}
                out.append((key, self._bind_torch(call, site, loader)[0]))
        finally:
            resolver.param_env = saved
        return tuple(out)

    def _root_calls(self, root: str, function: ast.AST) -> bool:
        """Whether the top-level code of the root file calls ``function`` itself outside the
        main guard (``runner.train_test()``, ``for batch in make_loader(...)``, ``first, second
        = make_loaders(4)``): then each such call of the factory is judged where it is
        (``judge.judge_call_sites``). The root's called names are gathered once per module; a
        call of that name counts only when it resolves to this very function, as the call-site
        phase resolves it (``call_keys.factory_key``): ``strategy.train()`` of another class, or
        ``model.train()``, is not a call of ``Net.train``."""
        name = getattr(function, "name", "")
        reader = getattr(self.resolver.project, "parsed", None)
        analysis = reader(root) if reader is not None else None
        if analysis is None or analysis.tree is None or name not in analysis.top_call_counts():
            return False
        cls = self.ix.method_class.get(id(function))
        wanted = (os.path.abspath(self.path), f"{cls.name}.{name}" if cls is not None else name)
        return wanted in analysis.top_call_keys(name)

    def top_call_keys(self, name: str) -> Set[Tuple[str, str]]:
        """The factories (``call_keys.factory_key``) this module's top-level code calls by
        ``name`` outside the main guard, resolved once per name (``_root_calls`` asks it for
        every loader a root reaches)."""
        found = self._top_call_keys.get(name)
        if found is None:
            from dl_lint.analysis.call_keys import factory_key

            found = set()
            for call, site in self.calls_named({name}):
                if site.scope is None and not self._guarded(site.line):
                    key = factory_key(self, call, site)
                    if key is not None:
                        found.add(key)
            self._top_call_keys[name] = found
        return found

    def _reached_at_import(self, call: ast.Call, bound: LoaderCall, function: Optional[ast.AST], judged_at_calls: bool = True) -> LoaderCall:
        """``bound`` iterated at import (``unguarded_iteration``, and the ``import_chain`` DL203
        cites: (root file, its top-level line), (file, line of the iteration)) when the
        top-level code of this module or of a module importing it (two steps up) iterates this
        construction, however the loader travels there (``import_flow``,
        ``Project.import_roots``): the general complement of ``_unguarded_iteration``'s shapes.
        A factory that script's top-level code calls itself is judged at those calls instead
        (``judge.judge_call_sites``), as before; any other function (``judged_at_calls``
        False: its loader takes nothing from its parameters, so it has no call sites) is judged
        here. Asked of a module's own loaders only, not at a
        factory's call sites: the interpretation reads every call of a function alike."""
        project = self.resolver.project
        roots = getattr(project, "import_roots", None)
        if roots is None:
            return bound
        key = (os.path.abspath(self.path), call.lineno, call.col_offset)
        # A script (a main guard of its own) or a test module is run, not imported: its own top
        # level is its only root, and the import graph is not read for it.
        own = not self.index.main_guard_lines and not _test_module(self.path)
        first = None  # the first root that reaches the loader without calling the function itself
        for root in roots(self.path) if own else (os.path.abspath(self.path),):
            found = project.import_flow(root).get(key)
            if found is None:
                continue
            if function is not None and self._root_calls(root, function):
                if judged_at_calls:
                    return bound
                # no call sites: judged here, but only a loader the function builds on every
                # path through it (the interpretation reads no test: ``if self.workers:``)
                site = self.site_of(call)
                if site is None or any(c.kind in ("if", "exit", "except") for c in site.conds):
                    return bound
                first = first or (root, found)
                break
            if first is None:
                first = (root, found)
                if function is None:
                    break
            # else: another root may call the function itself, and be judged at that call
        if first is None:
            return bound
        root, found = first
        chain = ((root, found[0]), (found[1], found[2]))
        return bound.replace(unguarded_iteration=found[0], extra={**bound.extra, "import_chain": chain})

    def _site_guards(self, site: Site) -> Tuple[Guard, ...]:
        """The conditions that hold whenever the call runs: the ``if`` tests around it (with
        their polarity) and the early exits before it (``if num_workers == 0: return`` makes
        ``num_workers != 0`` hold after it). Scenarios of the call's arguments that contradict
        one are impossible (``call_scenarios``)."""
        guards = []
        for cond in site.conds:
            if cond.kind in ("if", "exit") and cond.test is not None:
                guard = self.resolver.guard_for(cond.test, site)
                guards.append(guard if cond.polarity else guard.negate())
        return tuple(guards)

    def _division_guards(self, site: Site, args: Mapping[str, BoundArg]) -> Tuple[Guard, ...]:
        """``n != 0`` for every ``n`` a statement before the call divides by (``total / n``),
        when ``n`` is written as one of the call's arguments or their aliases (no other can
        decide a scenario, and resolving it would read modules for nothing): with Python
        numbers a 0 raises ZeroDivisionError there, so the call never sees it. Only the rules
        that claim a crash read these (``judge``): they can only make a crash claim quieter,
        while NumPy and torch divide by zero without raising, so a warning that needs workers
        must not take 0 as excluded."""
        divisions = [c for c in site.conds if c.kind == "divides" and c.test is not None]
        if not divisions:
            return ()
        written = {arg.code for arg in args.values()}
        for arg in args.values():
            written.update(arg.value.aliases)
        return tuple(
            self.resolver.guard_for(cond.test, site).negate()
            for cond in divisions
            if self.resolver.code(cond.test.left) in written
        )

    @staticmethod
    def _same_keywords(loader: LoaderClass) -> Set[str]:
        """torch's parameters a call of this subclass takes as keywords of the same name and
        passes on unchanged (through a parameter of that name or ``**kwargs``): a fix may write
        them at the call."""
        from dl_lint.analysis.subclasses import Bound, Item, pass_down

        out = set()
        outer = loader.chain[0].params
        for name in PARAMETERS:
            marker = Item(Value.known(name))
            given = {p.name: Item(Value.unknown()) for p in outer if p.default is None and p.kind != "posonly"}
            given[name] = marker
            bound: Optional[Bound] = Bound([], given)
            for signature in loader.chain:
                bound = pass_down(signature, bound, Value.unknown) if bound is not None else None
            if bound is not None and bound.keywords.get(name) is marker:
                out.add(name)
        return out

    def _bind_chain(self, call: ast.Call, site: Site, loader: LoaderClass, given: Any = None):
        """``_bind`` through a chain of subclass signatures: the call's arguments are bound to
        the outermost class's own signature (positions included), passed down level by level
        (``subclasses.pass_down``), then bound to torch's. An argument written at the call keeps
        its place (reports and fixes point at it); one the classes supply (a default, a value
        their ``__init__`` passes) is reported at the call and cannot be fixed there."""
        from dl_lint.analysis.subclasses import Bound, Item, pass_down

        resolver = self.resolver
        text = self.text
        bound = Bound([], {}) if given is None else given
        for arg in (*loader.preargs, *call.args, *call.keywords) if given is None else ():
            if isinstance(arg, ast.Starred):
                bound.positional_open = True
                continue
            if isinstance(arg, ast.keyword) and arg.arg is None:
                splat = resolver.resolve(arg.value, site)
                content = splat.single.value if splat.single is not None else None
                if isinstance(content, DictValue) and content.complete:
                    code = resolver.code(arg.value)
                    for key, value in content.entries:
                        if isinstance(key, str):
                            bound.keywords[key] = Item(value, arg, "", f"{code}[{key!r}]")
                else:
                    bound.keywords_open = True
                continue
            node = arg.value if isinstance(arg, ast.keyword) else arg
            if bound.positional_open and not isinstance(arg, ast.keyword):
                continue
            item = Item(resolver.resolve(node, site), arg, arg.arg if isinstance(arg, ast.keyword) else "", resolver.code(node))
            if isinstance(arg, ast.keyword):
                bound.keywords[arg.arg] = item
            else:
                bound.positional.append(item)
        prebound = set(map(id, loader.preargs))
        for signature in loader.chain:
            bound = pass_down(signature, bound, lambda: Value.unknown("expression"))
            if bound is None:
                return None
        args: Dict[str, BoundArg] = {}
        opaque: Set[str] = set()
        if len(bound.positional) > len(POSITIONAL):
            return None
        named = list(zip(POSITIONAL, bound.positional)) + list(bound.keywords.items())
        if len({name for name, _ in named}) != len(named) or any(name not in PARAMETERS for name, _ in named):
            return None  # torch raises TypeError
        if any(name in KEYWORD_ONLY for name, _ in named[: len(bound.positional)]):
            return None
        call_start, call_end = text.span(call)
        sampler_node = None
        for name, item in named:
            value = item.value
            if item.node is not None:
                start, end = text.span(item.node)
                keyword = isinstance(item.node, ast.keyword)
                same = id(item.node) not in prebound and (not keyword or item.written == name) and item.code
                written = text.segment(item.node.value if keyword else item.node) if same else ""
                if (not keyword or item.written) and name == "sampler" and id(item.node) not in prebound:
                    sampler_node = item.node.value if keyword else item.node
                if keyword and item.written and item.written != name and value.options is not None:
                    value = Value(
                        tuple(
                            p if p.origin is not None else Possible(p.value, Origin(f"passed as {item.written}="), p.guards)
                            for p in value.options
                        ),
                        value.source,
                        value.aliases,
                    )
            else:
                start, end, keyword, written = call_start, call_end, True, ""
            args[name] = BoundArg(name, value, item.code, start, end, keyword, written)
        if bound.positional_open:
            opaque.update(n for n in POSITIONAL[len(bound.positional) :] if n not in args)
        if bound.keywords_open:
            opaque.update(n for n in PARAMETERS if n not in args and n not in bound.closed)
        return args, opaque, sampler_node

    def _bind_torch(self, call: ast.Call, site: Site, loader: LoaderClass):
        """The call's arguments bound to torch's own signature."""
        resolver = self.resolver
        text = self.text
        args: Dict[str, BoundArg] = {}
        opaque: Set[str] = set()
        configured: Set[str] = set()  # carried only by ``**cfg.loader_kwargs``: config values
        plain: Set[str] = set()  # carried by ``*args`` or a ``**`` of anything else
        index = 0
        sampler_node: Optional[ast.AST] = None
        prebound = set(map(id, loader.preargs))
        spread: Set[str] = set()  # keys of the complete dicts spread into the call
        twice: Set[str] = set()  # a keyword both spread and written (or spread twice)
        for arg in (*loader.preargs, *call.args, *call.keywords):
            start, end = text.span(arg)
            if isinstance(arg, ast.Starred):
                carried = [name for name in POSITIONAL[index:] if name not in args]
                opaque.update(carried)
                plain.update(carried)
                index = len(POSITIONAL)
                continue
            if isinstance(arg, ast.keyword) and arg.arg is None:  # ``**kwargs``
                splat = resolver.resolve(arg.value, site)
                content = splat.single.value if splat.single is not None else None
                if isinstance(content, LoadedConfig):  # ``**hparams["loader_opts"]`` of a config file
                    content = resolver.spread_config(content, PARAMETERS)
                if isinstance(content, DictValue) and content.complete:
                    code = resolver.code(arg.value)
                    for key, value in content.entries:
                        if key in args or key in spread:
                            twice.add(key)  # given twice: TypeError, what torch gets is unknown
                        elif key in PARAMETERS:
                            args[key] = BoundArg(key, value, f"{code}[{key!r}]", start, end, True)
                            opaque.discard(key)
                        spread.add(key)
                else:
                    carried = [name for name in PARAMETERS if name not in args]
                    opaque.update(carried)
                    # ``**cfg.loader_kwargs``, ``**config["loader"]``: whatever it carries is a
                    # config value (configurable); any other unknown dict is just unknown.
                    config = splat.source == "config" and isinstance(arg.value, (ast.Attribute, ast.Subscript))
                    (configured if config else plain).update(carried)
                    if config:
                        self._configured_from = f"**{resolver.code(arg.value)}"
                continue
            if isinstance(arg, ast.keyword):
                name, keyword, node = arg.arg, True, arg.value
            else:
                if index >= len(POSITIONAL):
                    continue  # too many positionals: torch raises TypeError; not our business
                name, keyword, node = POSITIONAL[index], False, arg
                index += 1
            if name not in PARAMETERS:
                continue
            if name in spread:
                twice.add(name)
                continue
            value = resolver.resolve(node, site)
            if name == "sampler" and id(arg) not in prebound:
                sampler_node = node
            written = "" if id(arg) in prebound else text.segment(node)
            args[name] = BoundArg(name, value, resolver.code(node), start, end, keyword, written)
            opaque.discard(name)
        for name in twice:
            args.pop(name, None)
            opaque.add(name)
            plain.add(name)
        self._configured = frozenset((configured - plain) & opaque)
        return args, opaque, sampler_node

    # -- DL306: where this loader's batches are copied non-blocking ------------------------------
    def _nonblocking_copy(self, call: ast.Call, site: Site, returned: bool = True) -> Optional[Tuple[str, int, int]]:
        """(path, row, column) of a non-blocking device copy of this loader's batches: in a
        loop of the same function over the loader (or over the one name bound to it), or in a
        function of the project the name is passed to (``train(model, loader)``), which loops
        over that parameter (``analysis.transfers``)."""
        if self.ix.words(self.source)[0]:
            return None  # the module pins by hand (a collate_fn, a prefetcher): not judged
        name = self.assigned_name(call)
        found = self._name_copy(call, site, name, site.line, 0 if returned else _RETURN_DEPTH)
        if found is None and name is None and self.ix.words(self.source)[1]:
            found = self._attribute_copy(call, site)
        return found

    def _attribute_copy(self, call: ast.Call, site: Site) -> Optional[Tuple[str, int, int]]:
        """``self.train_loader = DataLoader(...)`` in a method of a module-level class, and a
        loop over ``self.train_loader`` (possibly wrapped: ``enumerate(tqdm(...))``) in a method
        of the same class that copies the batches non-blocking. The attribute must be stored
        once by the class (``self.train_loader = ...``) and by no other object of the module
        (``trainer.train_loader = ...``), and no string may name it (``setattr``): a loop then
        iterates this loader whenever its method runs. A base
        class or a subclass does not matter here: the loop and the store are this class's own
        code (a subclass overriding the looping method only adds a path without the copy)."""
        from dl_lint.analysis.epochs import _attribute_target

        target = _attribute_target(self, call, site)
        if target is None:
            return None
        cls, attribute, _store = target
        for _method, loop, loop_site in self._loops_over_attribute(cls, attribute):
            found = self._loop_copy_at(loop, loop_site)
            if found is not None:
                # last, as it walks the module: stored again (``self.loader =
                # accelerator.prepare(self.loader)``), from outside, or named by a string
                return found if self._stored_once(cls, attribute) else None
        return None

    def _loops_over_attribute(self, cls: ast.ClassDef, attribute: str):
        """(method, loop, site) for each ``for`` loop of a method of ``cls`` over
        ``self.<attribute>`` (possibly wrapped: ``enumerate(tqdm(self.loader))``)."""
        from dl_lint.analysis.epochs import _self_name

        for method in cls.body:
            owner = _self_name(method) if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            if owner is None:
                continue
            for loop, loop_site in self._loops_by_scope_of(method):
                if any(
                    isinstance(leaf, ast.Attribute) and leaf.attr == attribute and isinstance(leaf.value, ast.Name) and leaf.value.id == owner
                    for leaf in transparent_leaves(loop.iter)
                ):
                    yield method, loop, loop_site

    def _stored_once(self, cls: ast.ClassDef, attribute: str) -> bool:
        """Whether ``self.<attribute>`` is stored once by ``cls``, by no other object of the
        module, and named by no string (``_attribute_stores``)."""
        stores, named = self._attribute_stores()
        return stores.get((id(cls), attribute), 0) == 1 and (None, attribute) not in stores and attribute not in named

    def _loops_by_scope_of(self, scope: ast.AST) -> List[Tuple[ast.AST, Site]]:
        """The ``for`` loops whose innermost function is ``scope``."""
        return self.ix._loops_by_scope.get(id(scope), [])

    def _identifiers(self) -> Set[str]:
        """Every name, attribute name and identifier-like string of the module (docstrings and
        comments aside): ``_attribute_index``."""
        return self._attribute_index()[3]

    def _attributes_read_elsewhere(self) -> Set[str]:
        """The attribute names the module reads on anything but ``self`` in a method of a
        module-level class (``trainer.train_sampler``): ``_attribute_index``."""
        return self._attribute_index()[2]

    def _attribute_stores(self) -> Tuple[Dict[Tuple[Optional[int], str], int], Set[str]]:
        """How many times each attribute is assigned in the module (``x.attr = ...``, augmented,
        annotated, deleted, a ``for`` or ``with`` target): by (id(class), name) for
        ``self.<name>`` in a method of a module-level class, by (None, name) for any other
        object; and the identifier-like strings of the module (``getattr``/``setattr`` may name
        an attribute with one): ``_attribute_index``."""
        stores, named, _elsewhere, _identifiers = self._attribute_index()
        return stores, named

    def _attribute_index(self):
        """(stores, identifier-like strings, attributes read elsewhere, identifiers) of the
        module (``_attribute_stores``, ``_attributes_read_elsewhere``, ``_identifiers``): one
        walk of the module-level classes' methods for ``self.<attr>``, one of the module, on the
        first ask (the kept-attribute checks only ask once a loop over the attribute counts)."""
        from dl_lint.analysis.epochs import _self_name

        found = self.ix.attribute_index
        if found is None:
            stores: Dict[Tuple[Optional[int], str], int] = {}
            own: Set[int] = set()  # ``self.<attr>`` in a method of a module-level class
            for cls in self.index.module_classes:
                for method in cls.body:
                    name = _self_name(method) if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
                    for node in ast.walk(method) if name is not None else ():
                        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
                            own.add(id(node))
                            if not isinstance(node.ctx, ast.Load):
                                key = (id(cls), node.attr)
                                stores[key] = stores.get(key, 0) + 1
            named: Set[str] = set()
            elsewhere: Set[str] = set()
            identifiers: Set[str] = set()
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Attribute):
                    identifiers.add(node.attr)
                    if id(node) not in own:
                        if isinstance(node.ctx, ast.Load):
                            elsewhere.add(node.attr)
                        else:
                            stores[(None, node.attr)] = stores.get((None, node.attr), 0) + 1
                elif isinstance(node, ast.Name):
                    identifiers.add(node.id)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                    named.add(node.value)
            found = self.ix.attribute_index = (stores, named, elsewhere, identifiers | named)
        return found

    def _name_copy(
        self, call: Optional[ast.Call], site: Site, name: Optional[str], line: int, depth: int
    ) -> Optional[Tuple[str, int, int]]:
        """``_nonblocking_copy`` for the loader ``call`` (None when it is not written here) bound
        to ``name`` in the scope of ``site`` from ``line`` on; a loader ``scope`` returns is followed to the
        callers that bind it (``epochs.returned_bindings``, the mechanism DL206 reads), and read
        there the same way, ``epochs.FOLLOW_DEPTH`` functions deep."""
        scope, site_line = site.scope, line
        until = None  # the line of the name's next binding, when it is rebound
        spans: List[Tuple[int, int]] = []  # the other arms that bind the name (``rival_arms``)
        if name is not None:
            names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
            bindings = names.bindings.get(name, ()) if names is not None else ()
            spans = self.rival_arms(name, site, call) or [] if len(bindings) != 1 else []
            if len(bindings) != 1 and not spans:
                # rebound (``loader = accelerator.prepare(loader)``): not this loader's batches,
                # but the rebinding may hand it to a wrapper (``loader = PrefetchLoader(loader)``)
                later = sorted(b.site.line for b in bindings if b.site is not None and b.site.line > site_line)
                until = later[0] if later and all(b.site is not None for b in bindings) else None
                if until is None:
                    name = None
        entries = [
            entry
            for entry in self.ix.batch_loops(call, scope, name if until is None else None)
            if entry[0].lineno >= site_line and not any(first <= entry[0].lineno <= last for first, last in spans)
        ]
        for loop, loop_site in entries:
            found = self._loop_copy_at(loop, loop_site)
            if found is not None:
                return found
        if name is not None and until is None and not spans:
            found = self._taken_batch_copy(scope, name, site_line)
            if found is not None:
                return found
        if name is None:
            if call is None or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or depth >= _RETURN_DEPTH:
                return None  # (a lambda's value is no ``return``)
            return self._returned_copy(scope, call, depth)  # ``return DataLoader(...)``: in its callers
        for other, other_site, position, keyword in self._passed_names().get((id(scope), name), ()):
            if other_site.line < site_line:
                continue
            if until is not None and other_site.line > until:
                continue
            if any(first <= other_site.line <= last for first, last in spans):
                continue  # in another arm: the loader bound there
            if not self._may_be_function(other.func, other_site):
                func = other.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Name, ast.Call)) and position >= 0 and until is None:
                    # ``trainer.train(epoch, model, loader)``, ``Trainer().train(...)``: a method of
                    # an object of a project class (every value the name may hold) that loops over
                    # that parameter and copies the batches non-blocking (``_instances_transfer``)
                    built = self._constructed(func.value, other_site)
                    where = self._instances_transfer(built, func.attr, position) if built is not None else None
                    if where is not None:
                        return where
                continue
            target = self.resolver.resolve(other.func, other_site).single
            ref = target.value if target is not None else None
            if isinstance(ref, FunctionRef) and ref.kind == "class":
                where = self._wrapper_copy(ref, position, keyword)
                if where is not None:
                    return where
                continue
            if not isinstance(ref, FunctionRef) or ref.kind != "function" or until is not None:
                continue
            if ref.path == self.path:
                record = self._function_records().get(ref.name)
                transfers = record.transfers if record is not None else ()
            else:
                transfers = self.resolver.project.batch_transfers(ref.module, ref.name, self.path)
            for param, index, row, column in transfers:
                if (keyword and param == keyword) or (not keyword and index == position):
                    return ref.path, row, column
            for param, index, where in self.resolver.project.batch_handoffs(ref.module, ref.name, ref.path or self.path):
                if (keyword and param == keyword) or (not keyword and index == position):
                    return where
            for param, index, owner, at, method, positions in self.resolver.project.method_handoffs(
                ref.module, ref.name, ref.path or self.path
            ):
                if (keyword and param == keyword) or (not keyword and index == position):
                    where = self._passed_object_copy(other, other_site, owner, at, method, positions)
                    if where is not None:
                        return where
        if until is not None or scope is None or depth >= _RETURN_DEPTH:
            return None
        return self._returned_copy(scope, name, depth)

    def _taken_batch_copy(self, scope: Optional[ast.AST], name: str, after: int) -> Optional[Tuple[str, int, int]]:
        """DL306: a batch taken by hand from the loader ``name`` holds in ``scope`` from row
        ``after`` on: ``next(iter(loader))``, or ``next(it)`` of a name bound once to
        ``iter(loader)``. Its copy is looked for in the statement that takes it (``[t.to(device,
        non_blocking=True) for t in next(iter(loader))]``) and, when that statement binds it
        (``images, labels = next(iter(loader))``), in the statements after it in its block,
        read as a loop's body is (``transfers.batch_copy``)."""
        from dl_lint.analysis.transfers import batch_copy

        names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
        takes: List[Tuple[ast.Call, Site]] = []
        for _, other, other_site in self.ix.iterating_calls.get((id(scope), name), ()):
            if other_site.line < after or not (isinstance(other.func, ast.Name) and len(other.args) == 1):
                continue
            if other.func.id == "next" and _iter_of(other.args[0], name):
                takes.append((other, other_site))  # next(iter(loader))
            elif _iter_of(other, name):  # it = iter(loader), ``it`` bound only there; then next(it)
                held = self.assigned_name(other)
                if held is None or names is None or len(names.bindings.get(held, ())) != 1:
                    continue
                for _, taken, taken_site in self.ix.iterating_calls.get((id(scope), held), ()):
                    if isinstance(taken.func, ast.Name) and taken.func.id == "next" and taken.args and isinstance(taken.args[0], ast.Name):
                        takes.append((taken, taken_site))
        helpers = self.ix.helpers if self.ix.words(self.source)[1] else None
        for taken, taken_site in takes:
            placed = _statement_of(scope.body if scope is not None else self.tree.body, taken)
            if placed is None:
                continue
            block, index = placed
            statement = _replaced(block[index], taken, ast.Name(id=_TAKEN, ctx=ast.Load()))
            found = batch_copy([statement, *block[index + 1 :]], {_TAKEN}, helpers or _no_helpers, 1, self._remote_copy(taken_site))
            if found is not None:
                return self._copy_place(found)
        return None

    def _loop_copy_at(self, loop: ast.AST, loop_site: Site) -> Optional[Tuple[str, int, int]]:
        """A non-blocking copy of the batches of ``loop``: written in it, through helpers of
        this module, or (when another module of the project may copy: a call given the
        batches) through an imported function."""
        remote = self._remote_copy(loop_site)
        found = loop_copy([loop], self.ix.helpers if self.ix.words(self.source)[1] else _no_helpers, remote)
        return self._copy_place(found) if found is not None else None

    def _copy_place(self, found) -> Tuple[str, int, int]:
        """(path, row, column) of a copy ``transfers`` found: a node of this module, or the
        place another module's copy was found at."""
        if isinstance(found, tuple):
            return found
        start = self.text.start(found)
        return self.path, start.row, start.column

    def _returned_copy(self, scope: ast.AST, name, depth: int) -> Optional[Tuple[str, int, int]]:
        """A loader ``scope`` returns (``return train_loader, valset, collate_fn``, or its own
        call, ``return DataLoader(...)``, when ``name`` is that node): where a caller that binds
        it (``epochs.returned_bindings``) copies its batches non-blocking,
        read there as in the loader's own function; the first such copy. Callers are read from
        this module and from the call of another module being judged."""
        from dl_lint.analysis.epochs import returned_bindings, returned_place

        place = returned_place(self, scope, name)  # first: a local question, resting on nothing else
        if place is None:
            return None
        writes = getattr(self.resolver.project, "writes_non_blocking", None)
        if writes is not None and not writes():
            return None  # no ``non_blocking=True`` in the project: no caller's loop can copy so
        why, bindings = returned_bindings(self, scope, name, place)
        if why is not None:
            return None
        for where, _caller, call, call_site, statement, alias, _skip in bindings:
            if where is not self and where.ix.words(where.source)[0]:
                continue  # the caller's module pins by hand
            found = where._name_copy(call if not place else None, call_site, alias, statement.lineno, depth + 1)
            if found is not None:
                return found
        return None

    def _passed_object_copy(
        self, call: ast.Call, site: Site, owner: str, at: int, method: str, positions: Tuple[int, ...]
    ) -> Optional[Tuple[str, int, int]]:
        """``train(model, loader)`` where ``train``'s loop gives the batches to
        ``model.parse_batch``: where that method copies them, for the object this call passes
        as ``owner`` (at position ``at``, or by keyword). Every value the argument may hold must
        be an instance of a project class whose method (its own or inherited from a project
        base) copies them; anything else (a default, ``**kwargs``, a wrapper such as
        ``DistributedDataParallel(model)``, which does not forward methods) is silence."""
        node = None
        if at >= 0:
            if any(isinstance(a, ast.Starred) for a in call.args[: at + 1]):
                return None
            if at < len(call.args):
                node = call.args[at]
        if node is None:
            node = next((k.value for k in call.keywords if k.arg == owner), None)
        if node is None:
            return None
        return self._instances_copy(self.resolver.resolve(node, site), method, positions)

    def _instances_copy(self, value: Value, method: str, positions: Tuple[int, ...]) -> Optional[Tuple[str, int, int]]:
        """Where ``method`` of the object ``value`` copies the arguments at ``positions``: every
        value it may hold must be an instance of a project class whose method does (the first
        copy is cited); None otherwise."""
        project = self.resolver.project
        return self._every_instance(value, lambda instance: project.method_copy(instance, method, positions, self.path))

    def _every_instance(self, value: Value, where) -> Optional[Tuple[str, int, int]]:
        """``where(instance)`` for every value ``value`` may hold, each an instance of a project
        class (not a local one): the first answer, or None when a value is anything else or one
        answer is None."""
        if value.is_unknown or not value.options:
            return None
        found = None
        for option in value.options:
            instance = option.value
            if not isinstance(instance, Instance) or instance.local:
                return None
            answer = where(instance)
            if answer is None:
                return None
            found = found or answer
        return found

    def _constructed(self, expr: ast.AST, site: Site) -> Optional[Value]:
        """The object ``expr`` holds when it is a construction of a module-level class of the
        project (``Trainer()``), or a name its scope binds once, to one (``trainer =
        Trainer(cfg)``): an instance of that class, read from the callee alone (the
        construction's arguments are not resolved: an ``Accelerator(dataloader_config=...)``
        would read accelerate's modules for nothing). None otherwise."""
        if isinstance(expr, ast.Name):
            _, bindings = self.resolver.lookup(expr.id, site)
            if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
                return None
            expr, site = bindings[0].value, bindings[0].site or site
        if not isinstance(expr, ast.Call) or not isinstance(expr.func, (ast.Name, ast.Attribute)):
            return None
        found = self.resolver.resolve(expr.func, site).single
        ref = found.value if found is not None else None
        if not isinstance(ref, FunctionRef) or ref.kind != "class" or not ref.path:
            return None
        return Value.known(Instance(ref.module, ref.name, ref.line, ref.path))

    def _instances_transfer(self, value: Value, method: str, position: int) -> Optional[Tuple[str, int, int]]:
        """Where ``method`` of the object ``value``, handed a loader at ``position``, loops over
        it copying the batches non-blocking: every value it may hold must be an instance of a
        project class whose method does (the first copy is cited); None otherwise."""
        project = self.resolver.project
        return self._every_instance(value, lambda instance: project.method_transfer(instance, method, position, self.path))

    def _wrapper_copy(self, ref: FunctionRef, position: int, keyword: str) -> Optional[Tuple[str, int, int]]:
        """A project class handed the loader (``PrefetchLoader(loader)``): its ``__init__`` keeps
        the argument as ``self.attr`` and its ``__iter__`` loops over ``self.attr``, copying the
        batches non-blocking (``summary.ClassRecord.init_attrs``, ``.iter_copies``)."""
        found = self.resolver.project.summary(ref.module, ref.path or self.path)
        if found is None or (ref.path and found.path != ref.path):
            return None
        record = found.class_record(ref.name)
        if record is None or not record.iter_copies:
            return None
        copies = {attr: (row, column) for attr, row, column in record.iter_copies}
        for attr, kind, param, index, _default, _line in record.init_attrs:
            if kind != "param" or attr not in copies:
                continue
            # positions are counted after self; the call passes the loader at ``position``
            if (keyword and keyword == param) or (not keyword and index >= 0 and index == position):
                return (found.path, *copies[attr])
        return None

    def _remote_copy(self, site: Site):
        """``transfers.Remote`` for a loop at ``site``: a call of a module-level function of
        another module of the project (``to_gpu(x)``, ``utils.to_gpu(x)``) that copies one of
        the arguments given the batches (``project.function_copy``); a method of the object
        itself in a method of a module-level class (``self.to_device(batch)``)."""
        from dl_lint.analysis.epochs import _self_name

        cls = self.ix.method_class.get(id(site.scope)) if site.scope is not None else None
        own = _self_name(site.scope) if cls is not None else None

        def remote(call: ast.Call, positions: Tuple[int, ...]) -> Optional[Tuple[str, int, int]]:
            func = call.func
            if own is not None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == own:
                return self._own_method_copy(cls, func.attr, positions)  # ``self.to_device(batch)``
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and not self._may_be_function(func, site):
                # a method of an object of the project (``model.parse_batch(batch)``); every
                # value the name may hold (one per path) must copy
                return self._instances_copy(self.resolver.resolve(func.value, site), func.attr, positions)
            if not self._may_be_function(func, site):
                return None
            target = self.resolver.resolve(call.func, site).single
            ref = target.value if target is not None else None
            if not isinstance(ref, FunctionRef) or ref.kind != "function" or ref.path == self.path:
                return None
            return self.resolver.project.function_copy(ref, positions, self.path)

        remote.own_methods = own is not None  # type: ignore[attr-defined]
        return remote

    def _own_method_copy(self, cls: Optional[ast.ClassDef], method: str, positions: Tuple[int, ...]) -> Optional[Tuple[str, int, int]]:
        """``self.<method>(batch)`` in a method of the module-level class ``cls``: where that
        method (the class's own, or inherited from a project base: ``SummaryModule.method_copy``)
        copies the arguments at ``positions`` non-blocking. None when a class of this module
        derives from ``cls`` (it may override the method)."""
        from dl_lint.analysis.epochs import _class_closed

        if cls is None:
            return None
        why = _class_closed(self, cls)
        if why is not None and "subclass" in why:
            return None
        summary = self.resolver.project.summary(self.module_name, self.path)
        if summary is None:
            return None
        for position in positions:
            where = summary.method_copy(cls.name, method, position)
            if where is not None:
                return where
        return None

    def _may_be_function(self, func: ast.AST, site: Site) -> bool:
        """Whether a callee can resolve to a module-level function: a name, or an attribute of
        an imported module (``engine.train``); not a method of an object (``trainer.fit``),
        whose resolution can load whole modules for nothing."""
        if isinstance(func, ast.Name):
            return True
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            _, bindings = self.resolver.lookup(func.value.id, site)
            return any(b.kind == "import" for b in bindings)
        return False

    def _calls_in(self, scope: Optional[ast.AST]) -> list:
        """The calls (``index.calls`` entries, in order) whose site is in ``scope``: the loop and
        factory questions are asked of one function's calls, once per loader, and a test module
        holds thousands (on Lightning's test_dataloaders.py, 53 loaders walked 3,000 calls each)."""
        if self._by_scope is None:
            self._by_scope = {}
            for entry in self.index.calls:
                self._by_scope.setdefault(id(entry[1].scope), []).append(entry)
        return self._by_scope.get(id(scope), [])

    def _passed_names(self) -> Dict[Tuple[int, str], List[Tuple[ast.Call, Site, int, str]]]:
        if self._passed is None:
            self._passed = {}
            for other, other_site, _, _ in self.index.calls:
                for position, argument in enumerate(other.args):
                    if isinstance(argument, ast.Starred):
                        break
                    if isinstance(argument, ast.Name):
                        key = (id(other_site.scope), argument.id)
                        self._passed.setdefault(key, []).append((other, other_site, position, ""))
                for keyword in other.keywords:
                    if keyword.arg and isinstance(keyword.value, ast.Name):
                        key = (id(other_site.scope), keyword.value.id)
                        self._passed.setdefault(key, []).append((other, other_site, -1, keyword.arg))
        return self._passed

    # -- DL307: a loader its function returns ---------------------------------------------------
    def _returned(self, call: ast.Call, site: Site) -> bool:
        """Whether ``call`` is what its function returns: the value of a ``return``, an element
        of a returned list, tuple or dict display, or a local name that is returned and bound
        only to loader calls (``loader = DataLoader(...)`` ... ``return loader``)."""
        function = site.scope
        if function is None or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        returned = self._returned_items(function)
        if any(item is call for item in returned):
            return True
        name = self.assigned_name(call)
        if name is None or not any(isinstance(item, ast.Name) and item.id == name for item in returned):
            return False
        scope = self.index.scopes.get(id(function))
        bindings = scope.bindings.get(name, ()) if scope is not None else ()
        return bool(bindings) and all(
            b.kind == "assign"
            and isinstance(b.value, ast.Call)
            and self.callees.may_be_loader(b.value.func)
            and self.resolver.loader_of(b.value.func, b.site) is not None
            for b in bindings
        )

    def _returned_items(self, function: ast.AST) -> List[ast.expr]:
        """The expressions ``function`` returns (its own ``return`` statements, not those of
        nested functions or classes), with list, tuple and dict displays opened one level."""
        found = self._returns.get(id(function))
        if found is None:
            found = []
            for value in self._whole_returned(function):
                found.append(value)
                if isinstance(value, (ast.List, ast.Tuple)):
                    found.extend(value.elts)
                elif isinstance(value, ast.Dict):
                    found.extend(value.values)
            self._returns[id(function)] = found
        return found

    def _sampler_epochs(self, call: ast.Call, site: Site, sampler: Optional[ast.AST], args) -> Optional["SamplerEpochs"]:
        """DL206's facts, for a loader whose sampler argument may be a torch DistributedSampler."""
        from dl_lint.analysis.epochs import DISTRIBUTED_SAMPLERS, sampler_epochs

        bound = args.get("sampler")
        if sampler is None or bound is None:
            return None
        if bound.value.options is None:
            # A project factory choosing among samplers (``return DistributedSampler(...)`` on
            # one branch: vq-vae-2-pytorch's ``dist.data_sampler``) resolves to no one value;
            # ``sampler_epochs`` reads its returns (``_factory_samplers``).
            if not self._may_call_function(sampler, site):
                return None
        elif not any(getattr(p.value, "qualname", None) in DISTRIBUTED_SAMPLERS for p in bound.value.options):
            return None
        return sampler_epochs(self, call, site, sampler)

    def _may_call_function(self, sampler: ast.AST, site: Site) -> bool:
        """Whether the sampler argument is, or a name of this scope bound to, a call of a
        function by name or through an imported module (``_may_be_function``)."""
        if isinstance(sampler, ast.Name):
            scope = self.index.scopes.get(id(site.scope)) if site.scope is not None else self.index.module_scope
            bindings = scope.bindings.get(sampler.id, ()) if scope is not None else ()
            values = [b.value for b in bindings if b.kind == "assign"]
            return any(isinstance(v, ast.Call) and self._may_be_function(v.func, site) for v in values)
        return isinstance(sampler, ast.Call) and self._may_be_function(sampler.func, site)

    def site_of(self, node: ast.AST) -> Optional[Site]:
        """Where a call or a ``for`` loop of this module is (its conditions and function)."""
        if self._sites is None:
            self._sites = {id(c): s for c, s, _, _ in self.index.calls}
            self._sites.update((id(loop), s) for loop, s in self.index.loops)
        return self._sites.get(id(node))

    # -- DL302: a fresh iterator at every step ----------------------------------------------------
    def _loader_per_item(self, call: ast.Call, site: Site, args) -> bool:
        """DL302: the loader reads what the innermost loop around it changes, so each pass
        needs its own loader, not a restart: the loop's variable (``for dataset in datasets:
        loaders.append(DataLoader(dataset, ...))``, maskrcnn-benchmark's make_data_loader), or
        a name the loop body assigns, before the call, from such a value (a fold's subset in
        cross-validation, ``train_set = full[train_idx]``; a schedule's ``batch_size``; a
        split's dataset). Other names assigned in the body (``ds = MyDataset(root)`` in an epoch
        loop) do not count: that rebuild is the restart the rule reports."""
        where = self.loops_around(self.tree if site.scope is None else site.scope, call)
        if where is None or not where[0]:
            return False
        loop = where[0][-1]
        found = self._loop_changes.get(id(loop))
        if found is None:  # once per loop, however many loaders it holds
            found = self._loop_changes[id(loop)] = _loop_changes(loop, self._receiver_changes(site.scope))
        changed_at, once, mutated, constant_calls = found
        row = call.lineno
        if row in once:
            return True
        reads = [*call.args, *(k.value for k in call.keywords)]
        if any(
            at < row and _overlap(read, changed) for arg in reads for read in _chains(arg) for changed, at in changed_at.items()
        ):
            return True
        # The dataset the loop changes in place (``dataset.shuffle()``, ``ds.max_len = n``): each
        # worker holds a copy of it, so persistent workers would keep the first pass's copy. Not
        # the sampler's (it runs in this process: ``sampler.set_epoch(e)`` reaches it).
        dataset = args.get("dataset")
        if (mutated or constant_calls) and dataset is not None:
            node = next((a for a in reads if self.resolver.code(a) == dataset.code), None)
            if node is None:
                return False
            changed = set(mutated)
            for chain, calls in constant_calls.items():
                # ``val_dataset.set_random_offset(0)``: a setter of the dataset's own class called
                # with constants leaves it the same on every pass (Clair3's validation loader)
                if not (chain == _chain(node) and all(self._constant_setter(c, dataset.value) for c in calls)):
                    changed.add(chain)
            return any(_overlap(read, chain) for read in _chains(node) for chain in changed)
        return False

    def _constant_setter(self, call: ast.Call, dataset: Value) -> bool:
        """DL302: whether ``call``, ``ds.m(<constants>)`` on the loader's dataset, leaves the
        dataset the same whenever it runs: the dataset is an instance of one module-level class
        of the project (not a local class), which defines ``m`` itself as a setter, every
        statement of which stores a parameter or a constant on ``self`` (``def
        set_random_offset(self, offset): self.random_offset = offset``). Anything else (an
        inherited method, a call, a random draw, an append) may change it on every pass."""
        single = dataset.single
        instance = single.value if single is not None else None
        if not isinstance(instance, Instance) or instance.local or not isinstance(call.func, ast.Attribute):
            return False
        where = self.module_at(instance.path, instance.module)
        if where is None:
            return False
        method = where.factory_node(f"{instance.name}.{call.func.attr}")
        return isinstance(method, ast.FunctionDef) and _stores_arguments(method)

    def _receiver_changes(self, function: Optional[ast.AST]):
        """For a loop in a method of a module-level class: what a call statement
        ``self.m(...)`` changes of ``self`` (``_loop_changes``), as a function of the call that
        gives the chains it changes, rooted at the method's own ``self``, or None to mean
        anything of ``self``. A method of the class is read for its stores to ``self.<attr>``
        and the calls it makes on them (two methods deep; reading ``self.__dict__`` changes
        nothing, updating it anything); ``self.early_stopping(...)``, an
        attribute the class never defines as a method and cannot inherit (no base but
        ``object``, no subclass in the module overriding it), changes the object it holds.
        Anything else (a base, ``__dict__``, ``setattr``) may change anything of ``self``."""
        from dl_lint.analysis.epochs import _self_name

        if function is None or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        owner = self.ix.method_class.get(id(function))
        if owner is None:
            return None
        own = _self_name(function)
        if own is None:
            return None
        plain = all(isinstance(b, ast.Name) and b.id == "object" for b in owner.bases) and not owner.keywords
        methods = {m.name: m for m in owner.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
        overridden = self._overridden().get(owner.name, set())

        def changes(name: str, depth: int) -> Optional[Set[str]]:
            method = methods.get(name)
            if method is None:
                return {name} if plain and name not in overridden else None  # an attribute's object
            if name in overridden or depth <= 0 or any(terminal(d) not in ("property",) for d in method.decorator_list):
                return None
            inner = _self_name(method)
            if inner is None:
                return None
            out: Set[str] = set()
            for node in ast.walk(method):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr", "vars"):
                    return None
                targets: List[ast.AST] = []
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
                    func = node.value.func
                    if isinstance(func.value, ast.Name) and func.value.id == inner:
                        found = changes(func.attr, depth - 1)  # ``self.k(...)`` inside it
                        if found is None:
                            return None
                        out.update(found)
                        continue
                    targets.append(func.value)
                elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                    for changed in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                        if isinstance(changed, (ast.Attribute, ast.Subscript)):
                            targets.append(changed if isinstance(changed, ast.Attribute) else changed.value)
                for target in targets:
                    chain = _chain(target)
                    if chain is not None and (chain == inner or chain.startswith(inner + ".")):
                        if chain == inner or chain.startswith(f"{inner}.__dict__"):
                            return None  # ``self.__dict__.update(...)``: any attribute
                        out.add(chain[len(inner) + 1 :])
            return out

        def of_call(call: ast.Call) -> Optional[Set[str]]:
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == own):
                return None
            found = changes(func.attr, 2)
            return None if found is None else {f"{own}.{chain}" for chain in found}

        return of_call

    def _overridden(self) -> Dict[str, Set[str]]:
        """The methods the module's subclasses of each module-level class (by its name, the
        base written plainly) define: one pass over the classes, on the first ask."""
        if self._overrides is None:
            self._overrides = {}
            for other in self.index.module_classes:
                names = {m.name for m in other.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
                for base in other.bases:
                    if isinstance(base, ast.Name):
                        self._overrides.setdefault(base.id, set()).update(names)
        return self._overrides

    def _fresh_iterators(self, call: ast.Call, site: Site) -> Tuple[FreshIterator, ...]:
        """``next(iter(name))`` of this loader's only name in its scope, later in the same scope,
        inside loops that do not hold the construction: each pass makes a new iterator. Not in
        an ``except`` handler (restarting an exhausted iterator), and the innermost such loop
        must be a step loop (no loop over data inside it; an epoch loop that takes one batch for
        a preview makes one iterator per epoch on purpose)."""
        found: List[FreshIterator] = []
        if self._next_iter_calls():  # else no ``next(iter(...))`` in the module to follow the loader to
            for owner, name, after, outer in self._loader_holders(call, site):
                found.extend(self._fresh_uses(call, owner, name, after, outer))
        if not found:
            found.extend(self._fresh_elsewhere(call, site))
        return tuple(found)

    def _fresh_elsewhere(self, call: ast.Call, site: Site) -> List[FreshIterator]:
        """``_fresh_uses`` in a module-level function of another module of the project that the
        loader's name is handed to (``sample_batches(loader, 25)`` from ``helper``, whose loop
        takes ``next(iter(dataloader))`` at each step), read in that module's analysis, parsed
        only when its bytes hold ``next(``. Each use carries its file."""
        from types import SimpleNamespace

        from dl_lint.analysis.epochs import _parameter

        name = self.assigned_name(call)
        owner = self.tree if site.scope is None else site.scope
        project = self.resolver.project
        if name is None or not hasattr(project, "analysis_at"):
            return []
        candidates = [entry for entry in self._handed_by_name().get(name, ()) if entry[2].scope is site.scope]
        if not candidates or not self._bound_once_in(owner, name):
            return []
        end = call.end_lineno or call.lineno
        found: List[FreshIterator] = []
        for handed, read, _ in candidates:
            if read.lineno <= end:
                continue
            if self._called_function(handed.func.id, owner) is not None:
                continue  # one of this module's: ``_loader_holders`` follows it
            ref = self.resolver.resolve(handed.func, site).single
            target = ref.value if ref is not None else None
            if not (isinstance(target, FunctionRef) and target.kind == "function" and target.path):
                continue
            if os.path.abspath(target.path) == os.path.abspath(self.path):
                continue
            if not project.may_hold(target.module, target.path, b"next("):
                continue
            other = project.analysis_at(target.path, target.module)
            function = other._called_function(target.name, other.tree) if other is not None else None
            parameter = _parameter(function, handed, read) if function is not None else None
            if parameter is None or not other._bound_once_in(function, parameter):
                continue
            project.read_config_file(target.path)  # the answer rests on that module's bytes
            outside = SimpleNamespace(lineno=-1)  # no loop there holds the construction
            for fresh in other._fresh_uses(outside, function, parameter, function.lineno, None):
                found.append(fresh.replace(path=other.path))
        return found

    def _loader_holders(self, call: ast.Call, site: Site) -> List[Tuple[ast.AST, str, int, Optional[ast.AST]]]:
        """The names of this module that hold the loader ``call`` builds, as (owner, name, the
        row after which they hold it, the loop that binds the name or None): the name it is
        assigned to; the variable of a ``for`` over a list it is an element of (``loaders =
        [DataLoader(...) for ...]``, a display of loaders; ``for loader in loaders``, ``for i,
        loader in enumerate(loaders)``); and the parameter of a module-level function of this
        module such a name or list is handed to (``test(model, loaders)``), two calls deep. Each
        name is bound once in its function (a parameter never rebound)."""
        from dl_lint.analysis.epochs import _parameter

        owner = self.tree if site.scope is None else site.scope
        end = call.end_lineno or call.lineno
        start: List[Tuple[ast.AST, str, str, int]] = []  # (owner, name, "loader" | "list", after)
        name = self.assigned_name(call)
        if name is not None:
            start.append((owner, name, "loader", end))
        else:
            holder = self.name_reads(owner)[0].get(id(call))
            if isinstance(holder, ast.ListComp) and holder.elt is call or isinstance(holder, (ast.List, ast.Tuple)) and call in holder.elts:
                listed = self.assigned_name(holder)
                if listed is not None:
                    start.append((owner, listed, "list", holder.end_lineno or holder.lineno))
        out: List[Tuple[ast.AST, str, int, Optional[ast.AST]]] = []
        todo = [(*entry, 0) for entry in start]
        seen: Set[Tuple[int, str]] = set()
        while todo:
            where, held, kind, after, depth = todo.pop()
            if (id(where), held) in seen or not self._bound_once_in(where, held):
                continue
            seen.add((id(where), held))
            if kind == "loader":
                out.append((where, held, after, None))
            where_parents, by_name = self.name_reads(where)
            for read in by_name.get(held, ()):
                if read.lineno <= after:
                    continue
                parent = where_parents.get(id(read))
                if kind == "list":
                    loop = parent
                    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "enumerate" and parent.args[:1] == [read]:
                        loop = where_parents.get(id(parent))
                        target = loop.target.elts[1] if isinstance(loop, ast.For) and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2 else None
                    else:
                        target = loop.target if isinstance(loop, ast.For) else None
                    if isinstance(loop, ast.For) and (loop.iter is read or loop.iter is parent) and isinstance(target, ast.Name):
                        if self._bound_once_in(where, target.id):
                            out.append((where, target.id, loop.lineno, loop))
                        continue
                argument = where_parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
                if depth < 2 and isinstance(argument, ast.Call) and isinstance(argument.func, ast.Name) and argument.func is not read:
                    function = self._called_function(argument.func.id, where)
                    parameter = _parameter(function, argument, read) if function is not None else None
                    if parameter is not None:
                        todo.append((function, parameter, kind, 0, depth + 1))
        return out

    def _handed_by_name(self) -> Dict[str, List[Tuple[ast.Call, ast.Name, Site]]]:
        """Name -> (call, the argument, site) of each call of a plain name that hands it a
        plain name, positionally or by keyword: built once per module from the call index, so
        that asking for every loader costs one pass, not one walk of the module each."""
        if self._handed is None:
            self._handed = {}
            for node, node_site, _, _ in self.index.calls:
                if not isinstance(node.func, ast.Name):
                    continue
                for argument in (*node.args, *(k.value for k in node.keywords if k.arg is not None)):
                    if isinstance(argument, ast.Name):
                        self._handed.setdefault(argument.id, []).append((node, argument, node_site))
        return self._handed

    def _bound_once_in(self, owner: ast.AST, name: str) -> bool:
        scope = self.index.module_scope if isinstance(owner, ast.Module) else self.index.scopes.get(id(owner))
        return scope is not None and len(scope.bindings.get(name, ())) == 1 and name not in scope.globals and name not in scope.nonlocals

    def _called_function(self, name: str, where: ast.AST) -> Optional[ast.AST]:
        """The module-level function ``name`` when a call of it in ``where`` runs it (the name
        bound once in the module, by its ``def``, and not in ``where``)."""
        scope = None if isinstance(where, ast.Module) else self.index.scopes.get(id(where))
        if scope is not None and name in scope.bindings:
            return None
        bindings = self.index.module_scope.bindings.get(name, ())
        if len(bindings) != 1 or bindings[0].kind != "def" or id(bindings[0].node) not in self.ix.function_ids:
            return None
        return bindings[0].node

    def _fresh_uses(self, call: ast.Call, owner: ast.AST, name: str, after: int, outer: Optional[ast.AST]) -> List[FreshIterator]:
        """``next(iter(name))`` in ``owner`` after row ``after``, in step loops that do not hold
        the construction nor, for a loop variable, the loop that binds it (each pass of that
        loop takes another loader)."""
        scope_id = None if isinstance(owner, ast.Module) else id(owner)
        uses = self._next_iter_calls().get((scope_id, name))
        if not uses:
            return []
        found = []
        for use, use_site in uses:
            if use.lineno <= after:
                continue
            where = self.loops_around(owner, use)
            if where is None or where[1]:
                continue
            loops = [loop for loop in where[0] if not (loop.lineno <= call.lineno <= (loop.end_lineno or loop.lineno))]
            if outer is not None:
                if not any(loop is outer for loop in loops):
                    continue
                loops = loops[next(i for i, loop in enumerate(loops) if loop is outer) + 1 :]
            if not loops or has_inner_loop(loops[-1]):
                continue
            counts = [loop_count(loop, lambda node: self.resolver.resolve(node, use_site)) for loop in loops]
            starts = None
            counted = ""
            if all(count is not None for count in counts):
                starts = 1
                for count in counts:
                    starts *= count
                counted = " × ".join(self.text.segment(_loop_iterable(loop)) for loop in loops)
            start, stop = self.text.span(use)
            found.append(FreshIterator(self.text.segment(use), start, stop, loops[-1].lineno, starts, counted))
        return found

    def _next_iter_calls(self) -> Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]]:
        """Every ``next(iter(name))`` of the module (also ``next(enumerate(name))``, ``next(
        enumerate(name, 0))``: ``enumerate`` calls ``iter`` on the loader), by (id of its
        function, name)."""
        if self._next_iters is None:
            self._next_iters = {}
            for node, node_site, _, _ in self.index.calls:
                func = node.func
                if not (isinstance(func, ast.Name) and func.id == "next" and node.args and not node.keywords):
                    continue
                inner = node.args[0]
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and (
                        (inner.func.id == "iter" and len(inner.args) == 1 and not inner.keywords)
                        or (inner.func.id == "enumerate" and 1 <= len(inner.args) + len(inner.keywords) <= 2)
                    )
                    and inner.args
                    and isinstance(inner.args[0], ast.Name)
                    and not any(isinstance(a, ast.Starred) for a in inner.args)
                ):
                    self._next_iters.setdefault((id(node_site.scope), inner.args[0].id), []).append((node, node_site))
        return self._next_iters

    # -- DL203: where a loader is iterated --------------------------------------------------------
    def _guarded(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.index.main_guard_lines)

    def _unguarded_iteration(
        self, call: ast.Call, site: Site, depth: int = MAX_CALL_DEPTH, element: Optional[Tuple[int, int]] = None
    ) -> Optional[int]:
        """The row of an iteration of this loader that runs when the module is imported: at
        module level outside the ``__main__`` guard, or in a function of the module (a
        module-level function, or a method of a module-level class called on a module-level
        instance) that unguarded module-level code calls, directly or through other such
        functions (``MAX_CALL_DEPTH`` deep). The loop may be in a function the loader is passed
        to. A loader a function returns (``return DataLoader(...)``) is followed to the calls
        of that function: ``train_loader = get_loader(...)`` at module level is the loader; so
        is the name a call's tuple is unpacked to at the loader's position (``train, val =
        get_loaders(...)`` when it returns ``train_loader, val_loader``): ``element`` (index,
        length) says the loader is that element of ``call``'s value."""
        iteration = self._iteration_line(call, site, element)
        if site.scope is None:
            if iteration is not None and not self._guarded(iteration):
                return iteration
            return self._iterated_in_a_function(call, site, element)
        if iteration is None:
            if element is not None:
                return None  # an unpacked name handed on again is not followed
            row = self._iterated_where_returned(call, site, depth)
            return row if row is not None else self._iterated_as_attribute(call, site)
        function = self._runner(site.scope)
        if function is None:
            return None
        return self._unguarded_call_of(function, MAX_CALL_DEPTH, set())

    def _iterated_where_returned(self, call: ast.Call, site: Site, depth: int) -> Optional[int]:
        """For a loader its function returns as the whole return value (``return DataLoader(...)``,
        or ``return loader`` of a name bound only to loader calls): the row where a call of that
        function, anywhere in the module, has its result iterated at import (``depth`` factories
        deep)."""
        function = self._runner(site.scope)
        if function is None or depth <= 0 or not self._runs_at_import():
            return None
        element = None
        if not self._returned_whole(call, site):
            element = self._returned_element(call, site)  # ``return train_loader, val_loader``
            if element is None:
                return None
        for other, other_site in self._callers(function):
            row = self._unguarded_iteration(other, other_site, depth - 1, element)
            if row is not None:
                return row
        return None

    def _iterated_as_attribute(self, call: ast.Call, site: Site) -> Optional[int]:
        """``self.train_loader = DataLoader(...)`` in a method of a module-level class, stored
        once by the class and by nothing else in the module, no string naming it: the row of
        unguarded module-level code that calls (``MAX_CALL_DEPTH`` deep) a method of the class
        that loops over ``self.train_loader`` (``Trainer(args).fit()`` at the end of a script).
        An object whose method runs was constructed, so the loader was built."""
        from dl_lint.analysis.epochs import _attribute_target

        if not self._runs_at_import():
            return None
        target = _attribute_target(self, call, site)
        if target is None:
            return None
        cls, attribute, _store = target
        asked: Set[int] = set()
        for method, _loop, _loop_site in self._iterations_of_attribute(cls, attribute):
            if id(method) in asked:
                continue
            asked.add(id(method))
            row = self._unguarded_call_of(method, MAX_CALL_DEPTH, set())
            if row is not None:
                return row if self._stored_once(cls, attribute) else None
        return None

    def _iterations_of_attribute(self, cls: ast.ClassDef, attribute: str):
        """``_loops_over_attribute``, and the ``iter(self.<attribute>)`` calls of the class's
        methods (``self.iterator = iter(self.loader)`` in ``__init__``): each starts the workers
        (method, node, site)."""
        yield from self._loops_over_attribute(cls, attribute)
        calls = self._iter_attribute_calls()
        for method in cls.body:
            for node, node_site in calls.get((id(method), attribute), ()):
                yield method, node, node_site

    def _iter_attribute_calls(self) -> Dict[Tuple[int, str], List[Tuple[ast.Call, Site]]]:
        """Every ``iter(self.<attr>)`` (possibly wrapped) of the module's methods, by (id of the
        method, attr): one pass over the module's calls, however many loaders ask."""
        if self._iter_attrs is None:
            from dl_lint.analysis.epochs import _self_name

            self._iter_attrs = {}
            for node, node_site, _, _ in self.index.calls:
                if not (isinstance(node.func, ast.Name) and node.func.id == "iter" and len(node.args) == 1):
                    continue
                method = node_site.scope
                owner = _self_name(method) if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
                if owner is None:
                    continue
                for leaf in transparent_leaves(node.args[0]):
                    if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id == owner:
                        self._iter_attrs.setdefault((id(method), leaf.attr), []).append((node, node_site))
        return self._iter_attrs

    def _runs_at_import(self) -> bool:
        """Whether unguarded module-level code calls a function or method of the module at all
        (a name of a module-level function, or ``x.m(...)`` with ``m`` a method of a module-level
        class): without one, no loader a function builds is iterated at import. Asked once."""
        ix = self.ix
        if ix.runs_at_import is None:
            calls = [entry for name in ix.first_function for entry in ix.calls_of_name.get(name, ())]
            methods = {method for _, method in ix.methods}
            calls += [entry for method in methods for entry in ix.calls_of_attr.get(method, ())]
            classes = [c.name for c in getattr(self.tree, "body", ()) if isinstance(c, ast.ClassDef)]
            calls += [entry for name in classes for entry in ix.calls_of_name.get(name, ())]  # ``Wrapper(data)``
            ix.runs_at_import = any(site.scope is None and not self._guarded(site.line) for _, site in calls)
        return ix.runs_at_import

    def _whole_returned(self, function: ast.AST) -> List[ast.expr]:
        """``epochs.returned_values`` of ``function``, found once."""
        found = self._whole_returns.get(id(function))
        if found is None:
            from dl_lint.analysis.epochs import returned_values

            found = self._whole_returns[id(function)] = returned_values(function)
        return found

    def _returned_whole(self, call: ast.Call, site: Site) -> bool:
        """``_returned``, without the elements of a returned display (``return a, b`` is taken
        apart by the caller, and which element lands where is not followed)."""
        returned = self._whole_returned(site.scope)
        if any(item is call for item in returned):
            return True
        name = self.assigned_name(call)
        return (
            name is not None
            and any(isinstance(item, ast.Name) and item.id == name for item in returned)
            and (self._bound_once_to(name, call, site) or self._returned(call, site))
        )

    def _returned_element(self, call: ast.Call, site: Site) -> Optional[Tuple[Any, ...]]:
        """(index, length) when every ``return`` of the loader's function gives a tuple display
        of one length, without a starred element, and one of them holds the loader at that
        index (the call, or a name ``_returned`` accepts): ``return train_loader, val_loader``,
        which the caller unpacks (``_unpacked_name``); (index, length, key) when the function's
        one ``return`` holds there a dict display of literal keys whose value at ``key`` is the
        call (read by the caller as ``loaders["train"]``, ``_keyed_iteration``). None otherwise."""
        returned = self._whole_returned(site.scope) if site.scope is not None else []
        if returned:
            # the returns in other arms of an ``if`` than the loader's (``if mode == 'warmup':
            # return trainloader`` / ``elif mode == 'train': ...; return labeled, unlabeled``,
            # DivideMix's ``run``) are not on a path that builds it
            parents = self.name_reads(site.scope)[0]
            returned = [item for item in returned if not other_arms(item, call, parents)]
            # a ``return`` written before the loader ends the paths it is on before the loader is
            # built (swa_gaussian's ``if dataset == "CamVid": return camvid_loaders(...)``)
            returned = [item for item in returned if (getattr(item, "end_lineno", None) or getattr(item, "lineno", 0)) >= call.lineno]
        if not returned or not all(isinstance(item, ast.Tuple) for item in returned):
            return None
        lengths = {len(item.elts) for item in returned}
        if len(lengths) != 1 or any(isinstance(e, ast.Starred) for item in returned for e in item.elts):
            return None
        name = self.assigned_name(call)
        for item in returned:
            for index, value in enumerate(item.elts):
                if value is call:
                    return index, len(item.elts)
                if isinstance(value, ast.Dict) and len(returned) == 1:
                    # ``return {"train": DataLoader(...), ...}, num_classes`` (swa_gaussian's
                    # ``loaders``): the loader is the value at that literal key of that element
                    keys = [literal(k) if k is not None else None for k, v in zip(value.keys, value.values) if v is call]
                    if len(keys) == 1 and isinstance(keys[0], str) and all(k is not None and isinstance(literal(k), str) for k in value.keys):
                        return index, len(item.elts), keys[0]
        if name is None:
            return None
        for item in returned:
            for index, value in enumerate(item.elts):
                if isinstance(value, ast.Name) and value.id == name and (self._bound_once_to(name, call, site) or self._returned(call, site)):
                    return index, len(item.elts)
        return None

    def _bound_once_to(self, name: str, call: ast.Call, site: Site) -> bool:
        """``name`` has one binding in the scope of ``site``, ``name = call``: it holds what the
        call gives (the loader, or a factory's loader followed back to this call)."""
        names = self.index.scopes.get(id(site.scope)) if site.scope is not None else self.index.module_scope
        if names is None or name in names.globals or name in names.nonlocals:
            return False
        bindings = names.bindings.get(name, ())
        return len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].value is call

    def _subscripted_names(self, call: ast.Call, site: Site, element: Tuple[int, int]) -> List[Tuple[str, int]]:
        """(name, row) of the names of ``call``'s scope bound once to a literal subscript at
        ``element`` (index, length) of the name ``call``'s whole value is bound to once (FUNIT's
        ``loaders = get_train_loaders(config)``, then ``train_content_loader = loaders[0]``)."""
        holder = self.assigned_name(call)
        if holder is None or not self._bound_once_to(holder, call, site):
            return []
        index, length = element
        by_index = self._subscript_aliases(site.scope).get(holder, {})
        return by_index.get(index, []) + by_index.get(index - length, [])

    def _subscript_aliases(self, scope: Optional[ast.AST]) -> Dict[str, Dict[int, List[Tuple[str, int]]]]:
        """The names of ``scope`` bound once to a literal integer subscript of a name
        (``first = loaders[0]``), by subscripted name and index: (alias, row). Indexed once per
        scope."""
        key = ("subscripts", id(scope) if scope is not None else None)
        found = self._wrapped.get(key)
        if found is not None:
            return found
        found = {}
        for alias, binding, names in self._assigned_once(scope):
            value = binding.value
            if alias in names.globals or not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)):
                continue
            index = literal(value.slice)
            if isinstance(index, int) and not isinstance(index, bool):
                found.setdefault(value.value.id, {}).setdefault(index, []).append((alias, binding.site.line))
        self._wrapped[key] = found
        return found

    def _assigned_once(self, scope: Optional[ast.AST], kinds: Tuple[str, ...] = ("assign",)):
        """(name, its binding, the scope's names) for each name of ``scope`` bound once, by an
        assignment (``_wrapped_aliases``, ``_subscript_aliases``), or by one of ``kinds``
        ("unpack": ``a, b = x, y``, with the element's index and the target's width)."""
        names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
        for alias, bindings in (names.bindings.items() if names is not None else ()):
            if len(bindings) == 1 and bindings[0].kind in kinds:
                yield alias, bindings[0], names

    def _unpacked_name(self, call: ast.Call, site: Site, element: Tuple[int, int]) -> Optional[str]:
        """The name a statement ``a, b = call`` unpacks ``call``'s value to at ``element``
        (index, length), when the target is a tuple or list of that length without a starred
        element."""
        self.assigned_name(call)  # builds the maps
        index, length = element
        for binding in self._unpacked_by_value.get(id(call), ()):
            if binding.index == index and binding.width == length:
                return binding.name
        return None

    def _iterated_in_a_function(self, call: ast.Call, site: Site, element: Optional[Tuple[int, int]] = None) -> Optional[int]:
        """A module-level loader that a function of the module iterates through its global name
        (``for batch in train_loader`` in ``train()``, ``iter(train_loader)``), or hands to a
        function or method that iterates its parameter (``model.inference(x, subgraph_loader)``),
        where unguarded module-level code calls that function after the loader exists: the row
        of that call. ``element``: as ``_unguarded_iteration``."""
        if element is not None and len(element) == 3:
            return None  # the name holds the dict: its uses in functions are not followed
        for target, after in self.loader_names(call, site, element):
            row = self._global_iteration(target, after)
            if row is not None:
                return row
        if element is not None:
            return None
        found = self._iterated_by_key(call, site)
        if found is None:
            found = self._iterated_at_key(call, site)
        return found

    def _keyed_iteration(self, scope: Optional[ast.AST], name: str, key: str, after: int) -> Optional[int]:
        """The first row of ``scope`` after ``after`` that iterates ``name[key]`` (the name bound
        once in the scope, to a dict of loaders): a loop over it, through transparent wrappers
        (``tqdm(loaders["train"])``), or a call handing it to a function that iterates the
        parameter it lands in (``utils.train_epoch(loaders["train"], model)``, in this module or
        another at import: ``_iterates_argument``). At module level the row must run at import
        (outside the main guard). None when the name is rebound or stored into."""
        names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
        if names is None or len(names.bindings.get(name, ())) != 1:
            return None
        parents, by_name = self.name_reads(scope if scope is not None else self.tree)
        rows = []
        for read in by_name.get(name, ()):
            subscript = parents.get(id(read))
            if not (isinstance(subscript, ast.Subscript) and subscript.value is read):
                continue
            if not isinstance(subscript.ctx, ast.Load):
                return None  # ``loaders["train"] = other``: which loader it holds is not followed
            if subscript.lineno <= after:
                continue
            if literal(subscript.slice) != key and not _loop_key(subscript, key, parents):
                continue
            if scope is None:
                inner = _enclosing_function(subscript, parents)
                if inner is not None:
                    # ``dataloaders[phase]`` of the module's dict read in ``def train``: it runs at
                    # import only when unguarded module-level code calls that function (a
                    # ``train(...)`` under the main guard is not), and then at that call's row
                    if not isinstance(inner, ast.Lambda) and self._walked_at(subscript, parents)[2]:
                        row = self._unguarded_call_of(inner, MAX_CALL_DEPTH, set())
                        if row is not None:
                            rows.append(row)
                    continue
            node, parent, walked = self._walked_at(subscript, parents)
            if walked:
                rows.append(parent.lineno)
            elif (
                node is subscript
                and isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
                and len(names.bindings.get(parent.targets[0].id, ())) == 1
            ):
                # ``train_loader = loaders["train"]``, bound once: what iterates that name
                row = self._name_iteration(scope, parent.targets[0].id, parent.lineno)
                if row is not None:
                    rows.append(row)
        if scope is None:
            rows = [row for row in rows if not self._guarded(row)]
        return min(rows) if rows else None

    def _walked_at(self, read: ast.AST, parents: Mapping[int, ast.AST]) -> Tuple[ast.AST, Optional[ast.AST], bool]:
        """For an expression ``read`` (``loaders["train"]``): the outermost transparent wrapper
        around it (``enumerate(tqdm(...))``, or itself), that node's parent, and whether that
        parent walks it where it stands: a loop over it, or a call handing ``read`` itself to a
        function that iterates it (``_handed_to_iteration``)."""
        node, parent = read, parents.get(id(read))
        while isinstance(parent, ast.Call) and terminal(parent.func) in _WRAPPERS and node in parent.args:
            node, parent = parent, parents.get(id(parent))
        if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is node:
            return node, parent, True
        return node, parent, node is read and self._handed_to_iteration(parent, node)

    def _handed_to_iteration(self, parent: Optional[ast.AST], node: ast.AST) -> bool:
        """Whether ``parent`` is a call handing ``node`` (``loaders["train"]``) to a function that
        iterates the parameter it lands in (``train_epoch(loaders["train"], model)``: this
        module's, or another module's at import; ``_iterates_argument``)."""
        if not (isinstance(parent, ast.Call) and (node in parent.args or any(k.value is node for k in parent.keywords))):
            return False
        handed_site = self.site_of(parent)
        return handed_site is not None and self._iterates_argument(parent, node, handed_site)

    def _iterated_at_key(self, call: ast.Call, site: Site) -> Optional[int]:
        """A loader stored at a literal key of a module-level dict (``dataloaders = {}`` then
        ``dataloaders["training"] = DataLoader(...)`` at module level, or the value at that key of
        the display itself, ``loaders = {"train": DataLoader(...)}``), when every store into the
        dict has a literal key, this key is stored once, and the dict is never used whole (only
        ``dataloaders[...]``: not handed on, iterated, copied or rebound): ``dataloaders
        ["training"]`` is this loader wherever it is read. The row of the first loop over it
        (through ``enumerate``, ``tqdm``, ``zip``, ... or a name bound once to such a wrapper,
        ``data_iterator = tqdm(dataloaders["training"])``), or call handing it to a function that
        iterates the parameter it lands in (``_iterates_argument``), that runs at import after the
        store: at module level outside the main guard, or in a function unguarded module-level
        code calls."""
        if site.scope is not None or self.assigned_name(call) is not None:
            return None  # (``loader = DataLoader(...)``: no key; the module's parent map is not built)
        parents = self.name_reads(self.tree)[0]
        statement = parents.get(id(call))
        if isinstance(statement, ast.Dict):
            # ``loaders = {"train": DataLoader(...), "val": ...}``: a display bound to a name
            display, statement = statement, parents.get(id(statement))
            if not (isinstance(statement, ast.Assign) and statement.value is display and len(statement.targets) == 1):
                return None
            holder = statement.targets[0]
            keys = [literal(k) if k is not None else None for k, v in zip(display.keys, display.values) if v is call]
            if not isinstance(holder, ast.Name) or len(keys) != 1:
                return None
            name, key = holder.id, keys[0]
        else:
            if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1):
                return None
            target = statement.targets[0]
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
                return None
            name, key = target.value.id, literal(target.slice)
        if not isinstance(key, str):
            return None
        reads = self._key_reads(name, key)
        if reads is None:
            return None
        family = parents  # every node's parent in the module (``name_reads``)
        loops = []
        for read in reads:
            node, parent, walked = self._walked_at(read, family)
            if walked:
                loops.append(parent)
            elif isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                alias = parent.targets[0].id
                for loop, loop_site in self.index.loops:
                    names = self.index.scopes.get(id(loop_site.scope)) if loop_site.scope is not None else self.index.module_scope
                    if (
                        loop.lineno > parent.lineno
                        and names is not None
                        and len(names.bindings.get(alias, ())) == 1
                        and names.bindings[alias][0].value is node
                        and any(isinstance(leaf, ast.Name) and leaf.id == alias for leaf in _mentioned(loop.iter))
                    ):
                        loops.append(loop)
        for loop in sorted(loops, key=lambda l: l.lineno):
            loop_site = self.site_of(loop)
            if loop_site is None:
                continue
            if loop_site.scope is None:
                if loop.lineno > site.line and not self._guarded(loop.lineno):
                    return loop.lineno
                continue
            function = self._runner(loop_site.scope)
            if function is None:
                continue
            row = self._unguarded_call_of(function, MAX_CALL_DEPTH, set())
            if row is not None and row > site.line:
                return row
        return None

    def _key_reads(self, name: str, key: str) -> Optional[List[ast.Subscript]]:
        """The reads ``name[key]`` of the module-level dict ``name`` (``_iterated_at_key``):
        None unless ``name`` is bound once at module level to a dict display of literal keys, every
        subscript store into it has a literal key, ``key`` is stored once, and every other use of
        ``name`` anywhere in the module is a subscript of it. One walk per name."""
        if self._dict_keys is None:
            self._dict_keys = self._dict_key_uses()
        uses = self._dict_keys.get(name)
        if uses is None or uses[0].get(key) != 1:
            return None
        return uses[1].get(key, [])

    def _dict_key_uses(self) -> Dict[str, Any]:
        """For each name bound once at module level to a dict display with literal string keys
        (``{}`` included): (stores per literal key, the display's own keys counted, reads per
        literal key), or None when some use of it is not a subscript with a literal key (read
        with any other key is fine). From the module's ``name_reads``, for every name at once."""
        empty = {
            name: bindings[0].value
            for name, bindings in self.index.module_scope.bindings.items()
            if len(bindings) == 1 and bindings[0].kind == "assign" and isinstance(bindings[0].value, ast.Dict)
            and all(k is not None and isinstance(literal(k), str) for k in bindings[0].value.keys)
        }
        out: Dict[str, Any] = {}
        for name, display in empty.items():  # a display's own keys are its first stores
            stores: Dict[str, int] = {}
            for key in display.keys:
                stores[literal(key)] = stores.get(literal(key), 0) + 1
            out[name] = (stores, {})
        if not empty:
            return out
        # every read of the name in the module, ``d["k"] = ...`` and ``del d["k"]`` included (the
        # name itself is read there); ``d = {}`` stores it, and a rebinding is a second binding
        family, by_name = self.name_reads(self.tree)
        for node in (n for name in empty for n in by_name.get(name, ())):
            if out.get(node.id) is None:
                continue
            parent = family.get(id(node))
            if not (isinstance(parent, ast.Subscript) and parent.value is node):
                out[node.id] = None  # used whole: handed on, iterated, ``global`` in a function
                continue
            stores, reads = out[node.id]
            key = literal(parent.slice)
            if isinstance(parent.ctx, ast.Load):
                if isinstance(key, str):
                    reads.setdefault(key, []).append(parent)
                else:  # ``for phase in ["train", "valid"]: ... loaders[phase]``: a read of each key
                    for each in _loop_keys(parent, family):
                        reads.setdefault(each, []).append(parent)
                continue
            if not isinstance(key, str) or isinstance(parent.ctx, ast.Del):
                out[node.id] = None
                continue
            stores[key] = stores.get(key, 0) + 1
        return out

    def _iterated_by_key(self, call: ast.Call, site: Site) -> Optional[int]:
        """A module-level dict or list of loaders built by this one call in a comprehension
        (``dataloaders = {x: DataLoader(...) for x in ["train", "val"]}``), bound once and never
        stored into, whose element is iterated by subscript (``for inputs, labels in
        dataloaders[phase]``) at module level outside the guard, or in a function unguarded
        module-level code calls after the container exists: every element is a loader of this
        call, so the row of that iteration (or call). Iterating the container itself (its keys)
        is not iterating a loader."""
        if self.assigned_name(call) is not None:
            return None  # bound to a name: ``_global_iteration`` reads it
        parents = self.name_reads(self.tree)[0]
        holder = parents.get(id(call))
        if not (isinstance(holder, ast.DictComp) and holder.value is call) and not (isinstance(holder, ast.ListComp) and holder.elt is call):
            return None
        statement = parents.get(id(holder))
        if not (isinstance(statement, ast.Assign) and statement.value is holder and len(statement.targets) == 1):
            return None
        target = statement.targets[0]
        if not isinstance(target, ast.Name) or len(self.index.module_scope.bindings.get(target.id, ())) != 1:
            return None
        name = target.id
        uses = []
        for loop, loop_site in self.index.loops:
            if any(
                isinstance(leaf, ast.Subscript) and isinstance(leaf.value, ast.Name) and leaf.value.id == name
                for leaf in _mentioned(loop.iter)
            ):
                uses.append((loop, loop_site))
        if not uses:
            return None
        for node in ast.walk(self.tree):  # ``dataloaders["test"] = other``: not only this call's loaders
            if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id == name:
                return None
        for loop, loop_site in uses:
            if loop_site.scope is None:
                if loop.lineno > site.line and not self._guarded(loop.lineno):
                    return loop.lineno
                continue
            function = self._runner(loop_site.scope)
            scope = self.index.scopes.get(id(function)) if function is not None else None
            if function is None or (scope is not None and name in scope.bindings):
                continue  # not callable from module level, or a local of the same name
            row = self._unguarded_call_of(function, MAX_CALL_DEPTH, set())
            if row is not None and row > site.line:
                return row
        return None

    def _global_iteration(self, target: str, after: int) -> Optional[int]:
        """``_iterated_in_a_function`` for the module-level name ``target``, holding the loader
        from row ``after`` on."""
        ix = self.ix
        uses = [(loop_site, None) for _, loop_site in ix.loops_over_any.get(target, ())]
        uses += [(other_site, None) for _, _, other_site in ix.iterating_any.get(target, ())]
        uses += [(s, None) for c, s in ix.comprehensions_over_any.get(target, ()) if self._runs_with_statement(c, s)]
        uses += [(s, None) for _, c, s in ix.eager_any.get(target, ()) if self._eager(c, s, target)]
        uses += [(other_site, other) for _, other, other_site in ix.handing_any.get(target, ())]
        for use_site, handing in uses:
            function = self._runner(use_site.scope)
            if function is None:
                continue
            scope = self.index.scopes.get(id(function))
            if scope is not None and target in scope.bindings:
                continue  # a local of the same name
            if handing is not None and not self._iterates_argument(handing, target, use_site):
                continue
            row = self._unguarded_call_of(function, MAX_CALL_DEPTH, set())
            if row is not None and row > after:
                return row
        for function, alias, start in self._global_aliases().get(target, ()):
            # ``t = tqdm(train_loader)`` (or ``t = train_loader``, or one per arm of an ``if``)
            # in ``process_data()``, then ``for batch in t``: the function iterates the loader
            if self._name_iteration(function, alias, start, wrapped=True) is None:
                continue
            row = self._unguarded_call_of(function, MAX_CALL_DEPTH, set())
            if row is not None and row > after:
                return row
        return None

    def _global_aliases(self) -> Dict[str, List[Tuple[ast.AST, str, int]]]:
        """DL203: the names local to a module-level function (or a method of a module-level
        class) that hold a module-level name, bare or in transparent wrappers (``t =
        tqdm(train_loader, ncols=150)``), bound once or once in each arm of one ``if``/``try``
        statement (``if training: t = tqdm(train_loader)`` / ``else: t = tqdm(test_loader)``):
        by the module-level name, (function, local name, the row after which a read sees the
        binding: the end of the arms). The function must not bind the module-level name
        itself. Built once per module."""
        if self._global_alias_index is not None:
            return self._global_alias_index
        found: Dict[str, List[Tuple[ast.AST, str, int]]] = {}
        module_names = self.index.module_scope.bindings if self.index.module_scope is not None else {}
        for key, names in self.index.scopes.items():
            function = names.node
            if names.kind != "function" or function is None or self._runner(function) is None:
                continue
            for alias, bindings in names.bindings.items():
                if alias in names.globals or alias in names.nonlocals or len(bindings) > 4:
                    continue
                if any(b.kind != "assign" or b.value is None or b.site is None for b in bindings):
                    continue
                start = bindings[0].site.line if len(bindings) == 1 else _arms_end(bindings)
                if start is None:
                    continue  # rebound on one path: which value a read sees is not followed
                for binding in bindings:
                    name = _wrapped_leaf(binding.value)
                    if name is None or name in names.bindings or name not in module_names:
                        continue  # a local of that name, or not a module-level one
                    found.setdefault(name, []).append((function, alias, start))
        self._global_alias_index = found
        return found

    def _runner(self, scope: Optional[ast.AST]) -> Optional[ast.AST]:
        """``scope`` when module-level code can call it by name: a module-level function, or a
        method of a module-level class (called on a module-level instance, or on ``self`` from
        another such method)."""
        if scope is not None and (id(scope) in self.ix.function_ids or id(scope) in self.ix.method_class):
            return scope
        return None

    def _callers(self, function: ast.AST) -> List[Tuple[ast.Call, Site]]:
        """The calls of this module that run ``function``: ``name(...)`` for a module-level
        function; the constructions ``Class(...)`` for the ``__init__`` of a module-level class;
        for a method of a module-level class, ``instance.method(...)`` on a
        module-level instance of that class (``instance_class``) where no local of the same name
        hides it, and ``self.method(...)`` in the class's other methods."""
        ix = self.ix
        cls = ix.method_class.get(id(function))
        if cls is None:
            return ix.calls_of_name.get(function.name, [])
        out = []
        if function.name == "__init__":
            # ``Wrapper(data)`` runs ``Wrapper.__init__`` (a module-level class of this module)
            out.extend(ix.calls_of_name.get(cls.name, []))
        for other, other_site in ix.calls_of_attr.get(function.name, ()):
            if self._method_called(other, other_site) is function:
                out.append((other, other_site))
        return out

    def _runner_calls(self, function: ast.AST) -> List[Tuple[ast.Call, Site]]:
        """The calls of this module that hand the module-level ``function`` to a library that
        runs it before returning: ``study.optimize(objective, n_trials=...)`` on a study from
        ``optuna.create_study`` / ``optuna.load_study`` (read in optuna 5.1.0,
        ``study/_optimize.py``: ``_optimize`` runs ``func(trial)`` in the calling thread, or in a
        ``ThreadPoolExecutor`` of this process with ``n_jobs`` > 1; either way before
        ``optimize`` returns). ``study`` is such a call or a name bound once to one."""
        if self.ix.method_class.get(id(function)) is not None or not isinstance(function, ast.FunctionDef):
            return []
        out = []
        for call, site in self.ix.calls_of_attr.get("optimize", ()):
            handed = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "func"), None)
            if not (isinstance(handed, ast.Name) and handed.id == function.name):
                continue
            if self.ix.first_function.get(handed.id) is not function:
                continue
            local = self.index.scopes.get(id(site.scope)) if site.scope is not None else None
            if local is not None and handed.id in local.bindings:
                continue  # a local of the same name
            owner = call.func.value if isinstance(call.func, ast.Attribute) else None
            if isinstance(owner, ast.Name):
                _, bindings = self.resolver.lookup(owner.id, site)
                owner = bindings[0].value if len(bindings) == 1 and bindings[0].kind == "assign" else None
            if isinstance(owner, ast.Call) and self.resolver._qualname_of(owner.func, site, 1) in _STUDY_MAKERS:
                out.append((call, site))
        return out

    def _method_called(self, call: ast.Call, site: Site) -> Optional[ast.AST]:
        """The method of a module-level class that ``owner.method(...)`` runs, when ``owner`` is
        a module-level instance of that class or the ``self`` of one of its methods."""
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name):
            # ``Trainer(args).fit()``: a method of the module-level class constructed right there
            local = self.index.scopes.get(id(site.scope)) if site.scope is not None else None
            if local is not None and func.value.func.id in local.bindings:
                return None
            cls = self._constructed_class(func.value, "")
            return self.ix.methods.get((id(cls), func.attr)) if isinstance(cls, ast.ClassDef) else None
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        ix = self.ix
        owner = func.value.id
        scope = site.scope
        cls = ix.method_class.get(id(scope)) if scope is not None else None
        if cls is not None and _first_param(scope) == owner and not _static(scope):
            return ix.methods.get((id(cls), func.attr))
        if scope is not None:
            local = self.index.scopes.get(id(scope))
            if local is not None and owner in local.bindings:
                return None
        cls = self.instance_class(owner)
        return ix.methods.get((id(cls), func.attr)) if cls is not None else None

    def instance_class(self, name: str) -> Optional[ast.ClassDef]:
        """The module-level class whose instance the module-level name holds: every binding of
        it is ``Class(...)``, possibly followed by methods that return the object itself
        (``Net(...).to(device)``, ``model = model.cuda()``: torch.nn.Module's ``to``, ``cuda``,
        ``train``, ... return ``self``) that the class does not define itself. None otherwise."""
        cache = self.ix.instances
        if name in cache:
            return cache[name]
        found: Optional[ast.ClassDef] = None
        for binding in self.index.module_scope.bindings.get(name, ()):
            cls = self._constructed_class(binding.value if binding.kind == "assign" else None, name)
            if cls is None or (cls is not True and found is not None and cls is not found):
                found = None
                break
            if cls is not True:
                found = cls
        cache[name] = found
        return found

    def _constructed_class(self, value: Optional[ast.AST], name: str):
        """The module-level class ``value`` constructs (through self-returning Module methods),
        True for ``name.to(...)`` (the same object again), None otherwise."""
        methods: List[str] = []
        while (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in _RETURNS_SELF
        ):
            methods.append(value.func.attr)
            value = value.func.value
        if isinstance(value, ast.Name) and value.id == name and methods:
            return True
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return None
        bindings = self.index.module_scope.bindings.get(value.func.id, ())
        if len(bindings) != 1 or bindings[0].kind != "class" or bindings[0].nested:
            return None
        cls = bindings[0].node
        if any((id(cls), method) in self.ix.methods for method in methods):
            return None  # the class defines it: what it returns is not followed
        return cls

    def _unguarded_call_of(self, function: ast.AST, depth: int, seen: Set[int]) -> Optional[int]:
        """The row of unguarded module-level code that calls ``function`` (``_runner``), itself
        or through such functions that call it (``depth`` calls deep). The answer from the top
        (``MAX_CALL_DEPTH``, nothing seen) is kept per function: every loader of a function asks."""
        top = depth == MAX_CALL_DEPTH and not seen
        if top and id(function) in self._unguarded_rows:
            return self._unguarded_rows[id(function)]
        row = self._unguarded_call_search(function, depth, seen)
        if top:
            self._unguarded_rows[id(function)] = row
        return row

    def _unguarded_call_search(self, function: ast.AST, depth: int, seen: Set[int]) -> Optional[int]:
        seen.add(id(function))
        callers = []
        for other, other_site in (*self._callers(function), *self._runner_calls(function)):
            if other_site.scope is None:
                if not self._guarded(other_site.line):
                    return other_site.line
            elif depth > 1 and id(other_site.scope) not in seen and self._runner(other_site.scope) is not None:
                callers.append(other_site.scope)
        for caller in callers:
            row = self._unguarded_call_search(caller, depth - 1, seen)
            if row is not None:
                return row
        return None

    def _iteration_line(self, call: ast.Call, site: Site, element: Optional[Tuple[int, int]] = None) -> Optional[int]:
        """The row where this loader is iterated in its own scope: a loop over the call itself,
        then a loop over the name it is assigned to, then a later call of that scope that
        iterates the name (``iter(loader)``) or hands it to a function or method of this module
        that iterates its parameter (``train(loader)``, ``model.fit(loader)``). Every lookup
        goes through ``_Index``. ``element``: the loader is that element of the call's value
        (``_unguarded_iteration``), held by the name it is unpacked to."""
        ix = self.ix
        if element is not None and len(element) == 3:
            rows = [self._keyed_iteration(site.scope, name, element[2], after) for name, after in self.loader_names(call, site, element[:2])]
            rows = [row for row in rows if row is not None]
            return min(rows) if rows else None
        if element is not None:
            return self._names_iteration(call, site, self.loader_names(call, site, element))
        found = ix.loop_over_node.get(id(call))
        if found is None:
            found = ix.comprehension_over_node.get(id(call))
            if found is not None and not self._runs_with_statement(*found):
                found = None
        if found is not None and found[1].scope is site.scope:
            return found[1].line
        for _, other, other_site in ix.eager_over_node.get(id(call), ()):
            if other_site.scope is site.scope and self._eager(other, other_site, call):
                return other_site.line  # ``batches = enumerate(DataLoader(...))``
        handed = ix.handing_node.get(id(call))
        if handed is not None and handed[1].scope is site.scope and self._iterates_argument(handed[0], call, handed[1]):
            return handed[1].line  # ``train(DataLoader(...))``, ``trainer.fit(model, DataLoader(...))``
        return self._names_iteration(call, site, self.loader_names(call, site))

    def _names_iteration(self, call: ast.Call, site: Site, names: List[Tuple[str, int]]) -> Optional[int]:
        """``_iteration_line`` through the names holding the loader (``loader_names``)."""
        wrapped = self._wrapped_aliases(site.scope) if names else {}
        aliases = []
        if any(name in wrapped for name, _ in names) and self.rival_arms(names[0][0], site, call) is not None:
            # (the loader's name rebound on a path: which object the wrapper got is not followed)
            aliases = [(alias, row) for name, after in names for alias, row in wrapped.get(name, ()) if row > after]
        rows = [self._name_iteration(site.scope, name, after) for name, after in names]
        rows += [self._name_iteration(site.scope, alias, after, wrapped=True) for alias, after in aliases]
        looped = self._loop_aliases().get((id(site.scope) if site.scope is not None else None, names[0][0])) if names else None
        for variable, first, last in looped or ():
            if first > names[0][1]:
                row = self._name_iteration(site.scope, variable, first)
                rows.append(row if row is not None and row <= last else None)
        rows = [row for row in rows if row is not None]
        return min(rows) if rows else None

    def _loop_aliases(self) -> Dict[Tuple[Optional[int], str], List[Tuple[str, int, int]]]:
        """DL203: (id(scope) or None, name) -> (variable, first row, last row) of each ``for`` loop
        of that scope over a list or tuple display that holds the name, whose target (or the
        target's element at the name's position, ``for split, loader in [("train", train_loader),
        ...]``) is that variable, bound by nothing else in the loop: iterating the variable in
        the loop's body iterates each element (``for loader in [train_loader, val_loader]: for
        batch in loader``). Built once for the module, the first time a loader asks."""
        if self._looped is not None:
            return self._looped
        looped: Dict[Tuple[Optional[int], str], List[Tuple[str, int, int]]] = {}
        for loop, site in self.index.loops:
            first, last = loop.lineno, getattr(loop, "end_lineno", None) or loop.lineno
            key = id(site.scope) if site.scope is not None else None
            pairs: List[Tuple[str, str]] = []
            for variable, display in _parallel_displays(loop, site, self.resolver):
                pairs += [(element.id, variable) for element in display.elts if isinstance(element, ast.Name)]
            if isinstance(loop.iter, (ast.List, ast.Tuple)) and isinstance(loop.target, ast.Tuple):
                for element in loop.iter.elts:
                    if isinstance(element, ast.Tuple) and len(element.elts) == len(loop.target.elts):
                        pairs += [
                            (item.id, variable.id)
                            for variable, item in zip(loop.target.elts, element.elts)
                            if isinstance(variable, ast.Name) and isinstance(item, ast.Name)
                        ]
            scope = self.index.scopes.get(key) if key is not None else self.index.module_scope
            for name, variable in pairs:
                bindings = scope.bindings.get(variable, ()) if scope is not None else ()
                if name == variable or any(b.site is not None and first < b.site.line <= last for b in bindings):
                    continue  # rebound in the loop: which object the body iterates is not followed
                looped.setdefault((key, name), []).append((variable, first, last))
        self._looped = looped
        return looped

    def _wrapped_aliases(self, scope: Optional[ast.AST]) -> Dict[str, List[Tuple[str, int]]]:
        """DL203: the names of ``scope`` bound once to the loader's name in transparent wrappers
        (``enumerate``, ``tqdm``, ``iter``, ``islice``), on every branch of a conditional
        expression (minGPT's ``pbar = tqdm(enumerate(loader), total=len(loader)) if is_train
        else enumerate(loader)``, then ``for it, (x, y) in pbar``): iterating one iterates the
        loader; and the names bound once in each arm of one ``if``/``try`` (``_arms_end``), from
        the end of the arms. By wrapped name, (alias, row); indexed once per scope."""
        key = id(scope) if scope is not None else None
        found = self._wrapped.get(key)
        if found is not None:
            return found
        found = {}
        for alias, binding, _ in self._assigned_once(scope, ("assign", "unpack")):
            value = binding.value
            if binding.kind == "unpack":
                # ``total_loss, train_bar = 0.0, tqdm(data_loader)``: that element of the display
                if not isinstance(value, (ast.Tuple, ast.List)) or len(value.elts) != binding.width:
                    continue
                if any(isinstance(e, ast.Starred) for e in value.elts) or not 0 <= binding.index < len(value.elts):
                    continue
                value = value.elts[binding.index]
            # a bare name is a plain alias (``loader_names``); a branch may be one
            leaf = None if isinstance(value, ast.Name) else _wrapped_leaf(value)
            if leaf is not None:
                found.setdefault(leaf, []).append((alias, binding.site.line))
        names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
        for alias, bindings in names.bindings.items() if names is not None else ():
            # one binding per arm of an ``if``/``try`` (``if trainval: data = chain(train_loader,
            # val_loader)`` / ``else: data = chain(train_loader)``): a read after the arms sees
            # one of them, each wrapping its loader
            start = _arms_end(bindings) if len(bindings) > 1 and alias not in names.globals else None
            if start is None:
                continue
            for binding in bindings:
                leaf = _wrapped_leaf(binding.value)
                if leaf is not None:
                    found.setdefault(leaf, []).append((alias, start))
        self._wrapped[key] = found
        return found

    def _name_iteration(self, scope: Optional[ast.AST], target: str, after: int, wrapped: bool = False) -> Optional[int]:
        """``_iteration_line`` for the loader held by the name ``target`` of ``scope`` from row
        ``after`` on; ``wrapped``: ``target`` holds a wrapper over it (``_wrapped_aliases``), which
        may be lazy (tqdm): only what consumes it then counts (a loop, a list comprehension, the
        calls ``_Index.iterating_calls`` holds), not an eager call over it (``enumerate(bar)``
        calls ``iter()`` on the bar, whose generator has not started yet)."""
        ix = self.ix
        row = self._loop_over(scope, target, after)
        if row is not None:
            return row
        key = (id(scope), target)
        best: Optional[Tuple[int, int]] = None  # (position in the scope's calls, row)
        for position, other, other_site in ix.iterating_calls.get(key, ()):
            if other_site.line >= after:
                best = (position, other_site.line)
                break
        for position, other, other_site in ix.eager_calls.get(key, ()) if not wrapped else ():
            if best is not None and position > best[0]:
                break
            if other_site.line >= after and self._eager(other, other_site, target):
                best = (position, other_site.line)  # data_gen = enumerate(loader): iter() at once
                break
        kept_rows = []
        for position, other, other_site in ix.handing_calls.get(key, ()):
            if best is not None and position > best[0]:
                break
            if other_site.line >= after and self._iterates_argument(other, target, other_site):
                best = (position, other_site.line)  # train(loader), where train loops over its parameter
                break
            if other_site.line >= after and not wrapped:
                row = self._kept_and_run(other, target, other_site)
                if row is not None:
                    kept_rows.append(row)  # ``trainer = Trainer(model, loader)``, then ``trainer.fit()``
        rows = [best[1]] if best is not None else []
        rows += kept_rows[:1]
        rows += [
            other_site.line
            for comprehension, other_site in ix.comprehensions_over_name.get(key, ())
            if other_site.line > after
            and not (wrapped and isinstance(comprehension, ast.GeneratorExp))
            and self._runs_with_statement(comprehension, other_site)
        ][:1]
        rows += [row for row in [self._listed_iteration(scope, target, after, wrapped)] if row is not None]
        if not wrapped:
            rows += [row for row in [self._dict_held_iteration(scope, target, after)] if row is not None]
        return min(rows) if rows else None

    def _dict_held_iteration(self, scope: Optional[ast.AST], target: str, after: int) -> Optional[int]:
        """The loader held by ``target`` put at a literal key of a dict display bound once in the
        same scope (``dataloaders = {"train": train_loader, "val": val_loader}``, PyTorch's
        transfer-learning tutorial): where ``dataloaders["train"]`` is iterated, also as
        ``dataloaders[phase]`` in ``for phase in ["train", "val"]`` (``_keyed_iteration``)."""
        rows = []
        for holder, key, row in self._dict_displays(scope).get(target, ()):
            if row >= after:
                found = self._keyed_iteration(scope, holder, key, row)
                if found is not None:
                    rows.append(found)
        return min(rows) if rows else None

    def _dict_displays(self, scope: Optional[ast.AST]) -> Dict[str, List[Tuple[str, str, int]]]:
        """For ``scope``: each name a dict display bound once holds at one literal string key ->
        [(the dict's name, the key, the display's row)]; listed once per scope (a module of
        10,000 loaders asks for every one)."""
        found = self._displays.get(id(scope))
        if found is None:
            found = self._displays[id(scope)] = {}
            names = self.index.scopes.get(id(scope)) if scope is not None else self.index.module_scope
            for holder, bindings in (names.bindings.items() if names is not None else ()):
                if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Dict):
                    continue
                display = bindings[0].value
                row = bindings[0].site.line if bindings[0].site is not None else 0
                counts: Dict[str, List[str]] = {}
                for k, v in zip(display.keys, display.values):
                    if k is not None and isinstance(v, ast.Name) and isinstance(literal(k), str):
                        counts.setdefault(v.id, []).append(literal(k))
                for value, keys in counts.items():
                    if len(keys) == 1:
                        found.setdefault(value, []).append((holder, keys[0], row))
        return found

    def _eager(self, call: ast.Call, site: Site, held, starred: bool = False) -> bool:
        """Whether ``call`` is a call of one of ``EAGER_ITERATION``'s callables (the callee
        resolved: a function of the module named ``zip`` is not one) that calls ``iter()`` on
        ``held``: a name (``*name`` when ``starred``: ``zip(*loaders)``) or a node, written as a
        positional argument it iterates (or a branch of a conditional expression there)."""
        kind = self._eager_kinds.get(id(call))
        if kind is None:
            single = self.resolver.resolve(call.func, site).single
            qualname = getattr(single.value, "qualname", None) if single is not None else None
            kind = EAGER_ITERATION.get(qualname, "") if isinstance(qualname, str) else ""
            if qualname in _ONE_ARGUMENT and (len(call.args) != 1 or isinstance(call.args[0], ast.Starred)):
                kind = ""  # iter(callable, sentinel), min(a, b): nothing iterated
            self._eager_kinds[id(call)] = kind
        if not kind or (starred and kind == "first"):
            return False
        arguments = call.args if kind == "all" else call.args[:1] if kind == "first" else call.args[1:]
        for argument in arguments:
            if isinstance(argument, ast.Starred):
                if starred and isinstance(argument.value, ast.Name) and argument.value.id == held:
                    return self._runs_with_statement(call, site)
            elif not starred:
                for leaf in _branches(argument):
                    if leaf is held or (isinstance(leaf, ast.Name) and leaf.id == held):
                        return self._runs_with_statement(call, site)
        return False

    def _runs_with_statement(self, node: ast.AST, site: Site) -> bool:
        """Whether ``node`` is evaluated whenever its statement runs: not in a branch of a
        conditional expression (``enumerate(loader) if is_train else []``: the trainer may not
        run it), an operand of ``and``/``or`` after the first, or the per-item part of a
        comprehension (a loader's own ``if`` statements are not asked here: an iteration under
        an ``if`` counts, as a loop there does). Parents from ``name_reads``, one walk per scope."""
        parents, _ = self.name_reads(site.scope if site.scope is not None else self.tree)
        child, parent = node, parents.get(id(node))
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.IfExp) and child is not parent.test:
                return False
            if isinstance(parent, ast.BoolOp) and child is not parent.values[0]:
                return False
            if isinstance(parent, ast.comprehension) and child is not parent.iter:
                return False  # a generator's ``if``s
            if isinstance(parent, _COMPREHENSION_NODES) and child is not parent.generators[0]:
                return False  # the element, or a later generator: per item, maybe never
            child, parent = parent, parents.get(id(parent))
        return True

    def _listed_iteration(self, scope: Optional[ast.AST], target: str, after: int, wrapped: bool) -> Optional[int]:
        """The row where a list holding the loader is unpacked into an eager call (``loaders =
        [a, b]`` or ``loaders.append(loader)``, then ``zip(*loaders)``): ``iter()`` runs on every
        element there. An element that is a wrapper over the loader (``gens.append(tqdm(loader))``,
        or ``wrapped``) may be lazy: then the eager call must itself be walked (``for pairs in
        zip(*gens)``), at that loop's row. The list is a name bound once in ``scope``."""
        ix = self.ix
        if not ix.starred_calls:
            return None  # no ``f(*name)`` of an eager callable's name in the module
        for holder, row, inside in self._lists_holding().get((id(scope) if scope is not None else None, target), ()):
            if row < after:
                continue
            for _, other, other_site in ix.starred_calls.get((id(scope), holder), ()):
                if other_site.line < row or not self._eager(other, other_site, holder, starred=True):
                    continue
                if not (wrapped or inside):
                    return other_site.line
                walked = ix.loop_over_node.get(id(other))
                if walked is None:
                    walked = ix.comprehension_over_node.get(id(other))
                    if walked is not None and (isinstance(walked[0], ast.GeneratorExp) or not self._runs_with_statement(*walked)):
                        walked = None
                if walked is not None and walked[1].scope is scope:
                    return walked[1].line
        return None

    def _lists_holding(self) -> Dict[Tuple[Optional[int], str], List[Tuple[str, int, bool]]]:
        """(id(scope) or None, name) -> the (list name, row, wrapped) of each list of that scope
        the name goes into: ``lst.append(name)``, or ``lst = [name, ...]`` (a list or tuple
        display), the name bare or in transparent wrappers (``tqdm(name)``: wrapped), the list's
        name bound once (no other assignment, not global) in the scope. Built once for the
        module, the first time a loader asks."""
        if self._listed is not None:
            return self._listed
        from dl_lint.analysis.transfers import transparent_leaves

        listed: Dict[Tuple[Optional[int], str], List[Tuple[str, int, bool]]] = {}

        def add(scope_id, holder: str, element: ast.AST, row: int) -> None:
            leaf = transparent_leaves(element)[-1]
            if isinstance(leaf, ast.Name):
                listed.setdefault((scope_id, leaf.id), []).append((holder, row, leaf is not element))

        scopes = {None: self.index.module_scope}
        scopes.update(self.index.scopes)

        def once(scope_id, holder: str) -> bool:
            names = scopes.get(scope_id)
            return (
                names is not None
                and holder not in names.globals
                and holder not in names.nonlocals
                and len(names.bindings.get(holder, ())) == 1
                and names.bindings[holder][0].kind == "assign"
            )

        for call, site in self.ix.calls_of_attr.get("append", ()):
            if not isinstance(call.func.value, ast.Name):
                continue  # ``Buffer(...).append(x)``: no name holds it
            holder = call.func.value.id
            if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
                continue
            scope_id = id(site.scope) if site.scope is not None else None
            if once(scope_id, holder):
                add(scope_id, holder, call.args[0], site.line)
        for scope_id, names in scopes.items():
            if names is None:
                continue
            for holder, bindings in names.bindings.items():
                value = bindings[0].value if len(bindings) == 1 and bindings[0].kind == "assign" else None
                if isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) <= 64 and once(scope_id, holder):
                    for element in value.elts:
                        if not isinstance(element, ast.Starred):
                            add(scope_id, holder, element, bindings[0].site.line)
        self._listed = listed
        return listed

    def _loop_over(self, scope: Optional[ast.AST], name: str, after: int) -> Optional[int]:
        """The row of a ``for`` loop in ``scope``, after row ``after``, over ``name``."""
        for loop, loop_site in self.ix.loops_over_name.get((id(scope), name), ()):
            if loop_site.line > after:
                return loop_site.line
        return None

    def _iterates_argument(self, call: ast.Call, name: Union[str, ast.AST], site: Site) -> bool:
        """Whether ``call`` passes ``name`` (a name, or one expression node of the call:
        ``loaders["train"]``) to a module-level function of this module, or a
        method of a module-level class on one of its instances (``_method_called``), that
        iterates the parameter it lands in (``for batch in loader``, ``iter(loader)``). Where
        the call can run at import (``_may_run_at_import``), also a module-level function of
        another module of the project (``from engine import evaluate``, ``engine.evaluate(...)``),
        asked the same questions in that module's analysis; each one found is kept for the
        loader's diagnostic (``_handed_elsewhere``)."""
        if self._trainer_runs(call, name, site):
            return True
        where = self
        if isinstance(call.func, ast.Name):
            function = self.function_node(call.func.id)
            skip = 0
        else:
            function = self._method_called(call, site)
            skip = 0 if function is None or _static(function) else 1
        if function is None and self._may_run_at_import(site):
            where, function, skip = self._callee_elsewhere(call, site)
        if function is None:
            return False
        params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][skip:]

        landed = [params[i] for i, a in enumerate(call.args) if i < len(params) and _given(a, name)]
        landed += [k.arg for k in call.keywords if k.arg and _given(k.value, name)]
        found = any(where._iterates_parameter(function, param) for param in landed)
        if not found and isinstance(name, str) and not any(isinstance(a, ast.Starred) for a in call.args):
            listed = [
                params[i]
                for i, a in enumerate(call.args)
                if i < len(params) and isinstance(a, (ast.List, ast.Tuple)) and any(isinstance(e, ast.Name) and e.id == name for e in a.elts)
            ]
            found = any(where._iterates_elements(function, param) for param in listed)
        if found and where is not self:
            self._handed_elsewhere.append((where.path, function.lineno, function.name))
        return found

    def _trainer_runs(self, call: ast.Call, name: Union[str, ast.AST], site: Site) -> bool:
        """Whether ``call`` hands ``name`` to a Lightning Trainer's ``fit``, ``validate``,
        ``test`` or ``predict`` as a loader (``libraries.TRAINER_RUNS``): the Trainer iterates
        it before the call returns. The receiver must resolve to a Trainer (``pl.Trainer(...)``,
        ``pl.Trainer.from_argparse_args(args)``)."""
        from dl_lint.analysis.libraries import trainer_loader_arguments

        if not any(_given(argument, name) for argument in trainer_loader_arguments(call)):
            return False
        found = self._trainers.get(id(call))
        if found is None:  # once per call, however many loaders it is asked about
            found = self._trainers[id(call)] = self._builds_trainer(call.func.value, site)
        return found

    def _builds_trainer(self, node: ast.AST, site: Site) -> bool:
        """Whether ``node`` is a Lightning Trainer: a construction ``pl.Trainer(...)`` or
        ``pl.Trainer.from_argparse_args(args)``, or a name every binding of which (in the
        call's function, else at module level) is one. Only the callee's name is resolved, not
        the construction's arguments (a test module's dozens of ``trainer.fit`` calls)."""
        from dl_lint.analysis.libraries import LIGHTNING_TRAINERS, TRAINER_CONSTRUCTORS

        if isinstance(node, ast.Call):
            single = self.resolver.resolve(node.func, site).single
            qualname = getattr(single.value, "qualname", None) if single is not None else None
            return qualname in LIGHTNING_TRAINERS or qualname in TRAINER_CONSTRUCTORS
        if not isinstance(node, ast.Name):
            return False
        local = self.index.scopes.get(id(site.scope)) if site.scope is not None else None
        bindings = local.bindings.get(node.id) if local is not None and node.id in local.bindings else self.index.module_scope.bindings.get(node.id)
        return bool(bindings) and all(
            b.kind == "assign" and isinstance(b.value, ast.Call) and self._builds_trainer(b.value, b.site or site) for b in bindings
        )

    def _callee_elsewhere(self, call: ast.Call, site: Site) -> Tuple["ModuleAnalysis", Optional[ast.AST], int]:
        """(its module's analysis, the function, parameters the call does not give) for a call
        of a module-level function of another module of the project, or of a module-level class
        there (its ``__init__``, after ``self``): ``from engine import evaluate``,
        ``engine.evaluate(...)``, ``Runner(loader)``. (self, None, 0) for anything else; the
        answer then rests on that module's bytes (recorded for the cache and partial runs)."""
        from dl_lint.analysis.values import FunctionRef

        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
            found = self._method_elsewhere(call, site)
            if found is not None:
                return found
        if not self._may_be_function(call.func, site):
            return self, None, 0
        single = self.resolver.resolve(call.func, site).single
        ref = single.value if single is not None else None
        if not isinstance(ref, FunctionRef) or ref.kind not in ("function", "class") or not ref.path or ref.path == self.path:
            return self, None, 0
        project = self.resolver.project
        reader = getattr(project, "analysis_at", None)
        other = reader(ref.path, ref.module) if reader is not None else None
        if other is None:
            return self, None, 0
        project.read_config_file(ref.path)
        if ref.kind == "function":
            return other, other.function_node(ref.name), 0
        cls = next((n for n in other.tree.body if isinstance(n, ast.ClassDef) and n.name == ref.name), None)
        init = other.ix.methods.get((id(cls), "__init__")) if cls is not None else None
        return (other, init, 1) if init is not None and not _static(init) else (self, None, 0)

    def _method_elsewhere(self, call: ast.Call, site: Site) -> Optional[Tuple["ModuleAnalysis", ast.AST, int]]:
        """For ``trainer.train(...)`` where ``trainer`` is an instance of a module-level class of
        another module of the project (``trainer = Trainer(...)`` here, or imported): (that
        module's analysis, the method the class itself defines, 1); a static method takes no
        object (0). None when the name holds no such instance or the class does not define the
        method (an inherited one is not looked up)."""
        from dl_lint.analysis.values import Instance

        single = self.resolver.resolve(call.func.value, site).single
        instance = single.value if single is not None else None
        if not isinstance(instance, Instance) or instance.local or not instance.path or instance.path == self.path:
            return None
        project = self.resolver.project
        reader = getattr(project, "analysis_at", None)
        other = reader(instance.path, instance.module) if reader is not None and instance.module else None
        if other is None or other.tree is None:
            return None
        cls = next((n for n in other.tree.body if isinstance(n, ast.ClassDef) and n.name == instance.name), None)
        method = other.ix.methods.get((id(cls), call.func.attr)) if cls is not None else None
        if method is None or call.func.attr.startswith("__"):
            return None
        return other, method, 0 if _static(method) else 1

    def _kept_and_run(self, call: ast.Call, name: str, site: Site) -> Optional[int]:
        """A loader handed to the constructor of a class of another module of the project that
        keeps it (``self.loader = loader``, a statement of ``__init__``'s own body, the class's
        only store of that attribute) and whose method loops over it or calls ``iter()`` on it:
        the row of the first call of such a method on the new object in this scope
        (``trainer = Trainer(model, loader)`` then ``trainer.fit()``, the name bound once, or
        ``Trainer(model, loader).fit()``), when that code can run at import. The method is cited
        (``_handed_elsewhere``)."""
        if not self._may_run_at_import(site):
            return None
        where, init, skip = self._callee_elsewhere(call, site)
        if init is None or skip != 1 or where is self:
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        params = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
        landed = [params[i] for i, a in enumerate(call.args) if i < len(params) and isinstance(a, ast.Name) and a.id == name]
        landed += [k.arg for k in call.keywords if isinstance(k.value, ast.Name) and k.value.id == name]
        if len(landed) != 1 or not where._param_kept(init, landed[0]):
            return None
        from dl_lint.analysis.subclasses import own_self_assigns

        self_name = init.args.args[0].arg if init.args.args else None
        attributes = [
            statement.targets[0].attr
            for statement in own_self_assigns(init, self_name)
            if isinstance(statement.value, ast.Name) and statement.value.id == landed[0]
        ]
        cls = where.ix.method_class.get(id(init))
        if len(attributes) != 1 or cls is None or not where._stored_once(cls, attributes[0]):
            return None
        running = {method.name: method for method, _node, _site in where._iterations_of_attribute(cls, attributes[0])}
        if not running:
            return None
        parents = self.name_reads(site.scope if site.scope is not None else self.tree)[0]
        parent = parents.get(id(call))
        rows = []
        if isinstance(parent, ast.Attribute) and parent.attr in running:
            outer = parents.get(id(parent))
            if isinstance(outer, ast.Call) and outer.func is parent:
                rows.append((site.line, parent.attr))  # ``Trainer(model, loader).fit()``
        elif isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            obj = parent.targets[0].id
            names = self.index.scopes.get(id(site.scope)) if site.scope is not None else self.index.module_scope
            if names is not None and len(names.bindings.get(obj, ())) == 1 and obj not in names.globals:
                for method in running:
                    for other, other_site in self.ix.calls_of_attr.get(method, ()):
                        func = other.func
                        if (
                            other_site.scope is site.scope
                            and other_site.line >= site.line
                            and isinstance(func.value, ast.Name)
                            and func.value.id == obj
                        ):
                            rows.append((other_site.line, method))
        if not rows:
            return None
        row, method = min(rows)
        self._handed_elsewhere.append((where.path, running[method].lineno, f"{cls.name}.{method}"))
        return row

    def _may_run_at_import(self, site: Site) -> bool:
        """Whether code at ``site`` can run when the module is imported: module level outside
        the main guard, or any function when unguarded module-level code calls a function or
        method of the module (``_runs_at_import``). A script that runs everything under the
        guard asks no other module about the loaders it hands on (DL203 has nothing to say)."""
        if site.scope is None:
            return not self._guarded(site.line)
        return self._runs_at_import()

    def _param_kept(self, function: ast.AST, param: str) -> bool:
        """Whether every binding of ``param`` in ``function`` besides the parameter itself is a
        transparent wrapper of it (``loader = tqdm(loader)``)."""
        from dl_lint.analysis.transfers import transparent_leaves

        scope = self.index.scopes.get(id(function))
        if scope is None:
            return False
        for binding in scope.bindings.get(param, ()):
            if binding.kind == "param":
                continue
            value = binding.value if binding.kind == "assign" else None
            leaf = transparent_leaves(value)[-1] if value is not None else None
            if not (isinstance(leaf, ast.Name) and leaf.id == param and leaf is not value):
                return False
        return True

    def _iterates_elements(self, function: ast.AST, param: str) -> bool:
        """Whether ``function`` loops over its parameter ``param`` (``for loader in loaders``),
        never rebinding it, and iterates the loop's variable in that loop (``for batch in
        loader``, ``iter(loader)``, or hands it to a function of the module that does): every
        element of a list it is given is iterated."""
        key = (id(function), "[elements] " + param)
        if key in self._argument_loops:
            return self._argument_loops[key]  # answered, or being answered (a recursive function)
        self._argument_loops[key] = False
        found = self._elements_iterated(function, param)
        self._argument_loops[key] = found
        return found

    def _elements_iterated(self, function: ast.AST, param: str) -> bool:
        scope = self.index.scopes.get(id(function))
        if scope is None or len(scope.bindings.get(param, ())) != 1:
            return False
        for loop, _loop_site in self.ix.loops_over_name.get((id(function), param), ()):
            target = loop.target
            if not isinstance(target, ast.Name) or len(scope.bindings.get(target.id, ())) != 1:
                continue
            first, last = loop.lineno, loop.end_lineno or loop.lineno
            key = (id(function), target.id)
            inner = [s.line for _, s in self.ix.loops_over_name.get(key, ())]
            inner += [s.line for _, _, s in self.ix.iterating_calls.get(key, ())]
            inner += [s.line for _, other, s in self.ix.handing_calls.get(key, ()) if self._iterates_argument(other, target.id, s)]
            if any(first < row <= last for row in inner):
                return True
        return False

    def _iterates_parameter(self, function: ast.AST, param: str) -> bool:
        """Whether ``function`` iterates its parameter ``param``: a loop over it, ``iter()``, a
        comprehension or an eager call over it, the parameter never rebound to anything but a
        transparent wrapper of itself (``loader = tqdm(loader)`` is still the loader;
        ``loaders = ensure_tuple(loaders)`` may be a new container of it)."""
        key = (id(function), param)
        found = self._argument_loops.get(key)
        if found is None:
            self._argument_loops[key] = False  # (a function handing it back to itself: no)
            found = self._param_kept(function, param) and (
                self._loop_over(function, param, 0) is not None
                or bool(self.ix.iterating_calls.get(key))
                or any(self._runs_with_statement(c, s) for c, s in self.ix.comprehensions_over_name.get(key, ()))
                or any(self._eager(c, s, param) for _, c, s in self.ix.eager_calls.get(key, ()))
                or self._hands_parameter_on(function, param)
                or self._consumed_generator(function, param)
                or any(
                    self._name_iteration(function, alias, row, wrapped=True) is not None
                    for alias, row in self._wrapped_aliases(function).get(param, ())
                )  # ``train_bar = tqdm(data_loader)``, then ``for image, label in train_bar``
            )
            self._argument_loops[key] = found
        return found

    def _consumed_generator(self, function: ast.AST, param: str) -> bool:
        """Whether ``function`` binds a generator of the project over its parameter ``param``
        (``data = cycle(dataloader)``, DeepCAD's ``def cycle(iterable): while True: for x in
        iterable: yield x``, in any module: ``summary.passes_through``), as a statement of its
        own body or a loop's, to a name bound once, and takes from it (``next(data)``, a loop
        over it): the first value taken runs the generator's ``for``, which iterates the
        parameter."""
        from dl_lint.analysis.epochs import _generator_over

        scope = self.index.scopes.get(id(function))
        if scope is None:
            return False
        parents = None
        for call, call_site, _, _ in self._calls_in(function):
            if any(c.kind != "loop" for c in call_site.conds):
                continue  # under an ``if``: it may not be made
            argument = next((a for a in call.args if isinstance(a, ast.Name) and a.id == param), None)
            if argument is None:
                continue
            if parents is None:
                parents = self.name_reads(function)[0]
            statement = parents.get(id(call))
            if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1):
                continue
            target = statement.targets[0]
            if not isinstance(target, ast.Name) or len(scope.bindings.get(target.id, ())) != 1 or target.id in scope.globals:
                continue
            if not _generator_over(self, call, argument):
                continue
            if self._loop_over(function, target.id, 0) is not None:
                return True
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "next"
                    and node.args
                    and isinstance(node.args[0], ast.Name)
                    and node.args[0].id == target.id
                ):
                    return True
        return False

    def _hands_parameter_on(self, function: ast.AST, param: str) -> bool:
        """Whether ``function`` hands its parameter ``param``, as a statement of its own body
        or a loop's, to a module-level function of this module, to a method of its own class
        called on ``self``, or to a module-level function of another module of the project
        (``find_nearest.find_k_nearest_patches_to_prototypes(dataloader=dataloader)``,
        ``_callee_elsewhere``) that iterates it (``Trainer.train`` calling
        ``self.train_one_epoch(epoch, train_loader)``, which loops over it): asked of that
        function, in its module, as of this one."""
        cls = self.ix.method_class.get(id(function))
        me = _first_param(function) if cls is not None and not _static(function) else None
        for call, call_site, _, _ in self._calls_in(function):
            if any(c.kind not in ("loop",) for c in call_site.conds):
                continue  # under an ``if``: it may not be handed on
            if not any(isinstance(a, ast.Name) and a.id == param for a in call.args) and not any(
                isinstance(k.value, ast.Name) and k.value.id == param for k in call.keywords
            ):
                continue
            where = self
            if isinstance(call.func, ast.Name):
                callee, skip = self.ix.first_function.get(call.func.id), 0
            elif me is not None and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == me:
                callee = self.ix.methods.get((id(cls), call.func.attr))
                skip = 0 if callee is None or _static(callee) else 1
            else:
                callee, skip = None, 0
            if callee is None:
                where, callee, skip = self._callee_elsewhere(call, call_site)
                if callee is None or where is self:
                    continue
            if callee is function or any(isinstance(a, ast.Starred) for a in call.args) or is_generator(callee):
                continue  # a generator's body runs only when something takes from it (``_consumed_generator``)
            params = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)][skip:]
            landed = [params[i] for i, a in enumerate(call.args) if i < len(params) and isinstance(a, ast.Name) and a.id == param]
            landed += [k.arg for k in call.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id == param]
            if any(where._iterates_parameter(callee, name) for name in landed):
                return True
        return False

    def loops_around(self, owner: ast.AST, target: ast.AST) -> Optional[Tuple[List[ast.AST], bool]]:
        """``analysis.loops.loops_around`` from a map of ``owner`` built in one walk (the
        question is asked once per loader and per ``next(iter(...))``)."""
        where = self._loop_maps.get(id(owner))
        if where is None:
            where = self._loop_maps[id(owner)] = loop_map(owner)
        found = where.get(id(target))
        if found is None:
            return loops_around(owner, target) if not isinstance(target, (ast.stmt, ast.Call)) else None
        return list(found[0]), found[1]

    def name_reads(self, owner: ast.AST) -> Tuple[Dict[int, ast.AST], Dict[str, List[ast.Name]]]:
        """Every node's parent in ``owner`` (by id) and the names ``owner`` reads, by name:
        one walk per owner, however many loaders ask (DL206's ``epochs._collect``)."""
        found = self.ix.name_reads.get(id(owner))
        if found is None:
            parents: Dict[int, ast.AST] = {}
            by_name: Dict[str, List[ast.Name]] = {}
            stack: List[ast.AST] = [owner]
            while stack:
                node = stack.pop()
                for child in ast.iter_child_nodes(node):
                    parents[id(child)] = node
                    stack.append(child)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    by_name.setdefault(node.id, []).append(node)
            found = self.ix.name_reads[id(owner)] = (parents, by_name)
        return found

    def loop_at_row(self, owner: ast.AST, row: Optional[int]) -> Optional[ast.AST]:
        """The loop of ``owner`` that starts on ``row`` (``epochs.loops_by_row``, one walk per owner)."""
        from dl_lint.analysis.epochs import loops_by_row

        found = self.ix.loops_by_row.get(id(owner))
        if found is None:
            found = self.ix.loops_by_row[id(owner)] = loops_by_row(owner)
        return found.get(row) if row is not None else None

    def _function_records(self) -> Dict[str, object]:
        """The summary's function records by name (the first of a name, as a search finds it)."""
        if self.ix.records is None:
            records: Dict[str, object] = {}
            for record in self.summary().functions:
                records.setdefault(record.name, record)
            self.ix.records = records
        return self.ix.records

    @property
    def ix(self) -> "_Index":
        if self._ix is None:
            self._ix = _Index(self.index)
        return self._ix

    def assigned_name(self, call: ast.Call) -> Optional[str]:
        """The name ``call``'s value is assigned to (``loader = DataLoader(...)``), if any."""
        if self._assigned_by_value is None:
            self._assigned_by_value = {}
            self._aliases = {}
            self._unpacked_by_value = {}
            for scope in (self.index.module_scope, *self.index.scopes.values()):
                for name, bindings in scope.bindings.items():
                    for binding in bindings:
                        if binding.kind == "assign" and binding.value is not None:
                            self._assigned_by_value[id(binding.value)] = name
                        elif binding.kind == "unpack" and binding.value is not None:
                            self._unpacked_by_value.setdefault(id(binding.value), []).append(binding)
                    if len(bindings) == 1 and bindings[0].kind == "assign" and isinstance(bindings[0].value, ast.Name):
                        key = (id(scope.node) if scope.node is not None else None, bindings[0].value.id)
                        self._aliases.setdefault(key, []).append((name, bindings[0].site.line))
        return self._assigned_by_value.get(id(call))

    def _read_rows(self, name: str, site: Site) -> List[int]:
        """The rows where ``name`` is read in the scope of ``site``."""
        owner = self.tree if site.scope is None else site.scope
        return [n.lineno for n in self.name_reads(owner)[1].get(name, ())]

    def rival_arms(self, name: str, site: Site, value: Optional[ast.AST] = None) -> Optional[List[Tuple[int, int]]]:
        """When every other binding of ``name`` in the scope of ``site`` (where the name is
        bound) is in another arm of an ``if`` or ``try`` statement than this one
        (``scopes.alternatives``: ``try: loader = DataLoader(a)`` / ``except E: loader =
        DataLoader(b)``), the (first, last) rows of those arms: reads there see the other
        value, reads after the statement either. A binding in the same block as this one, later
        and outside any loop (a script reusing ``dataloaders`` for a second phase), counts too:
        the rows after its statement see it (``_rebound_after``). [] when the name is bound
        once; None when another binding may follow this one on any other path (a rebinding in
        a loop, in an ``if``), or the name is global."""
        names = self.index.scopes.get(id(site.scope)) if site.scope is not None else self.index.module_scope
        if names is None or name in names.globals or name in names.nonlocals:
            return None
        bindings = names.bindings.get(name, ())
        if len(bindings) == 1:
            return []
        own = [b for b in bindings if (b.value is value or b.node is value if value is not None else b.site is not None and b.site.line == site.line)]
        if len(own) != 1 or len(bindings) > 8:
            return None
        spans = []
        for other in bindings:
            if other is own[0]:
                continue
            arm = alternatives(own[0].site, other.site) if other.site is not None else None
            if arm is None:
                later = _rebound_after(own[0], other, lambda: self._read_rows(name, site))
                if later is None:
                    return None
                spans.append(later)
                continue
            spans.append(arm.arm[2:])
        return spans

    def loader_names(self, call: ast.Call, site: Site, element: Optional[Tuple[int, int]] = None) -> List[Tuple[str, int]]:
        """(name, row) of each name of ``call``'s scope that holds its loader from that row on:
        the name it is assigned to (``element``: the name that element of its value is unpacked
        to), then each name bound once, later, to that name (``dataset = data_loader``:
        pix2pixHD's scripts loop over the second name). Empty when the call is not assigned to
        a name."""
        if element is not None:
            target = self._unpacked_name(call, site, element)
            if target is None:
                return self._subscripted_names(call, site, element)  # each bound once
        else:
            target = self.assigned_name(call)
        if target is None:
            return []
        found = [(target, site.line)]
        scope = id(site.scope) if site.scope is not None else None
        aliases = self._aliases.get((scope, target), ())
        if not aliases:
            return found
        spans = self.rival_arms(target, site, call)
        if spans is None:
            return found  # the loader's name rebound: which object the second name got is not followed
        for alias, row in aliases:
            if row > site.line and alias != target and not any(first <= row <= last for first, last in spans):
                found.append((alias, row))
        return found

    def _batch_bytes_comment(self, first: int, last: int) -> Optional[int]:
        from dl_lint.config import parse_size

        # The comment may sit on any line of the call, or on the line just above it.
        for row in range(max(first - 1, 1), last + 1):
            line = self.text.line(row)
            if "batch-bytes" not in line:
                continue
            match = _BATCH_BYTES_COMMENT.search(line)
            if match:
                try:
                    return parse_size(match.group(1))
                except ValueError:
                    return None
        return None

    # -- call sites (parameters judged per caller) ----------------------------------------------
    def function_node(self, name: str) -> Optional[ast.AST]:
        return self.ix.first_function.get(name)

    def loop_rows(self, call: ast.Call, site: Site) -> Optional[List[Tuple[int, str, Dict[int, Value]]]]:
        """When ``call`` sits in a ``for`` loop over a literal table (``for w, p in [(0, 2),
        (4, 2)]:``) whose targets its arguments mention: per row, its number, its text and the
        values of the targets (keyed like parameters, for ``Resolver.param_env``). Every row of a
        literal table runs. None otherwise (the innermost such loop is used)."""
        mentioned = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        found = None
        for loop, loop_site in self.ix.loops_holding(site.scope, call.lineno):
            if not any(n.id in mentioned for n in ast.walk(loop.target) if isinstance(n, ast.Name)):
                continue
            if found is None or loop.lineno > found[0].lineno:
                found = (loop, loop_site)
        if found is None:
            return None
        loop, loop_site = found
        table, target = loop.iter, loop.target
        if not isinstance(table, (ast.List, ast.Tuple)) or not table.elts or len(table.elts) > MAX_TABLE_ROWS:
            return None
        rows = []
        for number, row in enumerate(table.elts, start=1):
            env: Dict[int, Value] = {}
            if isinstance(target, ast.Name):
                env[id(target)] = self.resolver.resolve(row, loop_site)
            elif (
                isinstance(target, (ast.Tuple, ast.List))
                and isinstance(row, (ast.Tuple, ast.List))
                and len(row.elts) == len(target.elts)
                and all(isinstance(t, ast.Name) for t in target.elts)
                and not any(isinstance(e, ast.Starred) for e in row.elts)
            ):
                for name, element in zip(target.elts, row.elts):
                    env[id(name)] = self.resolver.resolve(element, loop_site)
            else:
                return None
            rows.append((number, self.text.segment(row), env))
        return rows

    def import_aliases(self, names: Set[str]) -> Set[str]:
        """The names this module imports one of ``names`` under (``from data import loaders as
        make_loaders``: ``make_loaders``), in any scope."""
        if self._import_aliases is None:
            found: Dict[str, Set[str]] = {}
            for scope in (self.index.module_scope, *self.index.scopes.values()):
                for bindings in scope.bindings.values():
                    for binding in bindings:
                        alias = binding.alias
                        if binding.kind == "import" and alias is not None and alias.asname and alias.asname != alias.name:
                            found.setdefault(alias.name.rsplit(".", 1)[-1], set()).add(alias.asname)
            self._import_aliases = found
        return {alias for name in names for alias in self._import_aliases.get(name, ())}

    def calls_named(self, names: Set[str], dicts: Set[str] = frozenset()) -> List[Tuple[ast.Call, Site]]:
        """Calls of a name in ``names``, and calls of a subscript of a name in ``dicts``
        (``D[k]["train"](...)``)."""
        out = []
        for call, site, _, _ in self.index.calls:
            func = call.func
            if isinstance(func, (ast.Name, ast.Attribute)):
                if terminal(func) in names:
                    out.append((call, site))
            elif dicts and isinstance(func, ast.Subscript):
                while isinstance(func, ast.Subscript):
                    func = func.value
                if isinstance(func, (ast.Name, ast.Attribute)) and terminal(func) in dicts:
                    out.append((call, site))
        return out

    def loader_calls_with(
        self, function: ast.AST, env: Dict[int, Value], undecided: Optional[Dict[int, tuple]] = None, iterated=None, caller=None
    ) -> List[LoaderCall]:
        """The loader calls of ``function`` re-resolved with its parameters bound to ``env``;
        ``undecided`` maps the ids of those under an ``if`` (or after an early exit) whose test
        these values do not decide (``if process_group is None:`` with an unknown group) to
        their branch (``_branch``): one branch of several, which may not run; loaders of one
        branch run together. A factory that builds loaders and also returns what another
        factory of the module builds (``if dataset == "CamVid": return camvid_loaders(...)``,
        swa_gaussian) builds those too, on the branch of that call. ``iterated(use)``, when given, says where the
        calling module iterates each at import (DL203: ``unguarded_use``), from ``use``: "runs"
        for a loader ``function`` iterates itself, "returns" for one it returns, None otherwise.
        ``caller``: (analysis, call, site) of the call in another module, where a loader
        ``function`` returns lands (DL206: ``epochs._returned_to_callers``)."""
        saved = self.resolver.param_env
        self.resolver.param_env = env
        saved_caller = self.returned_to
        # (analysis, call, site, the function the call runs): a relay passes itself as the last
        self.returned_to = (tuple(caller) if len(caller) == 4 else (*caller, function)) if caller is not None and caller[0] is not self else None
        try:
            out = []
            calls = self._calls_in(function)
            if id(function) in self.ix.method_class:
                for helper in self._helpers_of(function):
                    calls = [*calls, *self._calls_in(helper)]
            for call, site, scope_name, cls in calls:
                # the callee first: most calls of a factory are not loaders, and whether a call
                # runs with these values resolves every test around it
                loader = self._loader_for(call, site, cls)
                if loader is None:
                    continue
                runs = self._runs(site)
                if runs is False:
                    continue
                bound = self._bind(call, site, scope_name, loader)
                if bound is not None:
                    if iterated is not None:
                        # the construction, for the caller's interpretation of its top level: asked
                        # only of a loader with workers on every path (DL203's question)
                        key = (os.path.abspath(self.path), call.lineno, call.col_offset) if _certainly_workers(bound) else None
                        bound = bound.replace(unguarded_iteration=iterated(self._use_in(call, site, function), key))
                    out.append(bound)
                    if undecided is not None and runs is None:
                        undecided[id(bound)] = _branch(site)
            built = []
            if not out and id(function) in self.ix.function_ids:
                built = self._built_through(function, undecided, iterated)
            if not built and id(function) in self.ix.function_ids:
                built = self._relayed(function, undecided, iterated, caller)
            return out + built
        finally:
            self.resolver.param_env = saved
            self.returned_to = saved_caller

    def _relays(self, factories: Mapping[str, Tuple[str, ...]]) -> List[ast.AST]:
        """The module-level functions that relay a factory of this module (``_relay_calls``),
        also a relay of a relay (``MAX_CALL_DEPTH`` rounds): each is a factory of the loaders
        the factories it calls build (``_relayed``)."""
        names = {name for name in factories if "." not in name and not name.endswith("[")}
        found: List[ast.AST] = []
        if not names:
            return found
        for _ in range(MAX_CALL_DEPTH):
            added = []
            for function in self.index.module_functions:
                if function.name not in names and self._relay_calls(function, names):
                    added.append(function)
            if not added:
                break
            names.update(function.name for function in added)
            found.extend(added)
        return found

    def _relay_calls(self, function: ast.AST, names: Set[str]) -> List[Tuple[ast.Call, Site, ast.AST]]:
        """The calls in ``function`` (a module-level function, the only one of its name) of a
        module-level factory among ``names`` whose arguments name ``function``'s own parameters
        and whose result ``function`` iterates or returns, whole or as an element of the tuple
        it returns (``_use_in``): ``def get_loaders(cfg): train = build_loader(cfg.workers);
        ...; return train, val`` (FUNIT's ``get_train_loaders``). (call, site, factory)."""
        if self.ix.first_function.get(function.name) is not function:
            return []
        params = set(_param_names(function))
        found = []
        for call, site, _, _ in self._calls_in(function):
            if not (isinstance(call.func, ast.Name) and call.func.id in names and call.func.id != function.name):
                continue
            target = self.ix.first_function.get(call.func.id)
            if target is None:
                continue
            read = {node.id for arg in (*call.args, *call.keywords) for node in ast.walk(arg) if isinstance(node, ast.Name)}
            if not (read & params or self._derived_from(function, read, params)):
                continue
            if self._use_in(call, site, function) is not None:
                found.append((call, site, target))
        return found

    def _tuple_assignments(self, function: ast.AST) -> Dict[int, ast.Assign]:
        """The statements of ``function`` that unpack a call into a tuple of names, by id of the
        call (``sampler, loader = construct_loader(...)``); listed once per function."""
        found = self._unpacking.get(id(function))
        if found is None:
            from dl_lint.analysis.namespaces import statements_of

            found = self._unpacking[id(function)] = {
                id(node.value): node
                for node in statements_of(function)
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Call)
            }
        return found

    def _derived_from(self, function: ast.AST, names: Set[str], params: Set[str]) -> bool:
        """Whether one of ``names`` is a local of ``function`` every assignment of which reads
        one of its parameters, directly or through such locals (``batch_size = cfg.batch_size``,
        ``pin_memory = cfg.pin_memory``): a factory's call that reads it takes its values from
        the caller (MMAudio's ``setup_training_datasets(cfg)``). Only the names asked about are
        followed, three assignments deep."""
        scope = self.index.scopes.get(id(function))
        if scope is None:
            return False
        seen: Set[str] = set()
        level = set(names) - params
        for _ in range(3):
            following: Set[str] = set()
            for name in level - seen:
                seen.add(name)
                bindings = scope.bindings.get(name, ())
                if not bindings or not all(b.kind == "assign" and b.value is not None for b in bindings):
                    continue
                read = [{n.id for n in ast.walk(b.value) if isinstance(n, ast.Name)} for b in bindings]
                if all(r & params for r in read):
                    return True
                following.update(n for r in read for n in r)
            level = following - params
        return False

    def _relayed(self, function: ast.AST, undecided, iterated, caller) -> List[LoaderCall]:
        """``loader_calls_with`` for a relay (``_relays``): the loaders each factory it calls
        builds, re-read with that factory's parameters bound to the relay's arguments (the
        relay's own parameters bound as they are now). What the relay does with the factory's
        result decides where the caller's loader is iterated (``_combined_use``)."""
        if id(function) in self._relaying:
            return []
        relayed = self._relayed_calls.get(id(function))
        if relayed is None:
            names = {name for name, _ in self.facts().factories if "." not in name}
            relayed = self._relayed_calls[id(function)] = self._relay_calls(function, names)
        out: List[LoaderCall] = []
        self._relaying.add(id(function))
        try:
            for call, site, target in relayed:
                runs = self._runs(site)
                if runs is False:
                    continue
                env = self.bind_parameters(call, site, self, target)
                if env is None:
                    continue
                use = self._use_in(call, site, function)

                def through(inner, key=None, use=use):
                    return iterated(_combined_use(inner, use), key)

                # A call of the relay in this module: where it iterates the loader is found from
                # the factory's call in the relay (``_iterated_where_returned`` follows the
                # relay's calls), reported there once; asked here too, it would be twice.
                local = caller is None or getattr(caller[0], "path", None) == self.path
                relay_use = (lambda inner, key=None: None) if local else through if iterated is not None else None
                # the call being judged calls the relay: a loader the factory returns lands in it
                # through the relay's own return (``epochs.returned_bindings``)
                relay_caller = (*caller[:3], function) if caller is not None else None
                found = self.loader_calls_with(target, env, undecided, relay_use, relay_caller)
                # the function that builds the DataLoader, for the messages at the relay's calls
                named = [b if "built_by" in b.extra else b.replace(extra={**b.extra, "built_by": target.name}) for b in found]
                if undecided is not None:
                    at = _branch(site) if runs is None else ()
                    for n, b in zip(named, found):
                        if runs is None or id(b) in undecided:
                            undecided[id(n)] = at + undecided.get(id(b), ())
                out.extend(named)
        finally:
            self._relaying.discard(id(function))
        return out

    def _made_by(self, function: ast.AST, obj: str) -> Optional[ast.AST]:
        """The callee of the call ``obj`` is bound to in a builder (``_builder_call``)."""
        scope = self.index.scopes.get(id(function))
        bindings = [b for b in (scope.bindings.get(obj, ()) if scope is not None else ()) if not _none_binding(b)]
        return bindings[0].value.func if bindings and isinstance(bindings[0].value, ast.Call) else None

    def _builder_call(self, function: ast.AST) -> Optional[Tuple[str, ast.Call, str]]:
        """A builder (pix2pixHD's ``CreateDataLoader(opt)``): a module-level function that binds
        a name once to a call (``data_loader = CustomDatasetDataLoader()``), calls a method on it
        with arguments that mention its own parameters as a statement of its body
        (``data_loader.initialize(opt)``), and returns that name on every ``return``: (the name,
        the method call, the method's name), else None. Without such a method call, a
        construction bound by a statement of the body (``data_loader = Holder(root, list_dir)``,
        after ``data_loader = None`` at most: CGIntrinsics' builders) and returned makes it a
        builder of ``Holder.__init__`` (the call, "__init__"). Read from the body's own
        statements (cheap: asked of every module-level function when the module's facts are
        built)."""
        body = function.body
        last = body[-1] if body else None
        if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name)):
            return None
        obj = last.value.id
        params = set(_param_names(function))
        found = None
        for statement in body:
            value = statement.value if isinstance(statement, ast.Expr) else None
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and isinstance(value.func.value, ast.Name)
                and value.func.value.id == obj
                and any(isinstance(n, ast.Name) and n.id in params for a in (*value.args, *value.keywords) for n in ast.walk(a))
            ):
                found = value
                break
        scope = self.index.scopes.get(id(function))
        bindings = scope.bindings.get(obj, ()) if scope is not None else ()
        method = found.func.attr if found is not None else "__init__"
        if found is None:
            # a construction builder: ``obj = None`` bindings only before the one construction
            made = [b for b in bindings if not _none_binding(b)]
            if len(made) != 1 or any(b.site is None or made[0].site is None or b.site.line > made[0].site.line for b in bindings if b is not made[0]):
                return None
            bindings = made
            value = made[0].value
            if not (made[0].kind == "assign" and isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                return None
            if not any(isinstance(statement, ast.Assign) and statement.value is value for statement in body):
                return None  # under an ``if`` or a loop: not what every call returns
            found = value
        if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
            return None
        if any(not (isinstance(v, ast.Name) and v.id == obj) for v in self._whole_returned(function)):
            return None
        return obj, found, method

    def _built_through(self, function: ast.AST, undecided, iterated) -> List[LoaderCall]:
        """``loader_calls_with`` for a builder (``_builder_call``): the loaders the method it
        calls builds, re-read with that method's parameters bound to the builder's arguments
        (the builder's own parameters bound as they are now), in the method's module (read
        through the project). A loader the method keeps on the object (``_held``) is held by
        what the builder returns ("held-returned": the caller's name for it); one the method
        iterates itself runs where the builder is called."""
        built = self._builder_call(function)
        site = self.site_of(built[1]) if built is not None else None
        if site is None:
            return []
        if built[2] == "__init__":  # a construction: the class's ``__init__`` builds the loader
            owner = self.resolver.resolve(built[1].func, site).single
            instance = owner.value if owner is not None else None
            if not (isinstance(instance, FunctionRef) and instance.kind == "class" and instance.path):
                return []
        else:
            owner = self.resolver.resolve(built[1].func.value, site).single
            instance = owner.value if owner is not None else None
            if not isinstance(instance, Instance) or instance.local:
                return []
        where = self.module_at(instance.path, instance.module)
        if where is None:
            return []
        method = where.factory_node(f"{instance.name}.{built[2]}")
        if method is None or where._runs(site) is False:
            return []
        env = where.bind_parameters(built[1], site, self, method)
        if env is None:
            return []

        def through(use, key=None):
            if isinstance(use, tuple):
                return iterated(("held-returned", *use[1:]), key)
            return iterated(use, key) if use == "runs" else None

        return where.loader_calls_with(method, env, undecided, through if iterated is not None else None)

    def _use_in(self, call: ast.Call, site: Site, function: ast.AST) -> Optional[str]:
        """What ``function`` does with a loader it builds: "runs" (iterates it, in its own body
        or a function it hands it to), "returns" (its whole return value), ("element", index,
        length) (an element of the tuple it returns: ``_returned_element``), ("held", ...)
        (``_held``), or None."""
        if site.scope is not function:
            if self._helper_method(site.scope) is function and self._iteration_line(call, site) is not None:
                return "runs"  # a nested helper the method calls on every path iterates it
            return None
        if self._iteration_line(call, site) is not None:
            return "runs"
        if self._returned_whole(call, site):
            return "returns"
        element = self._returned_element(call, site)
        if element is not None:
            return ("element", *element)
        unpacked = self._unpacked_use(call, function)
        if unpacked is not None:
            return unpacked
        return self._held(call, site)

    def _unpacked_use(self, call: ast.Call, function: ast.AST) -> Optional[Tuple[Any, ...]]:
        """A relay's call of a factory whose result it unpacks into names (``sampler, loader =
        construct_loader(...)``, one statement, plain names, each bound only there), then
        returns some of them (``return dataset, sampler, loader``, every ``return`` giving the
        name at one place): ("unpacked", width, ((position, what the relay does with the name
        bound there: "returns" or ("element", index, length)), ...)), read against what the
        factory returns by ``_combined_use``. None otherwise."""
        from dl_lint.analysis.epochs import returned_place

        if not isinstance(function, ast.FunctionDef):
            return None
        statement = self._tuple_assignments(function).get(id(call))
        if statement is None:
            return None
        target = statement.targets[0]
        if not all(isinstance(e, ast.Name) for e in target.elts):  # a Tuple (``_tuple_assignments``)
            return None
        scope = self.index.scopes.get(id(function))
        uses = []
        for position, element in enumerate(target.elts):
            if scope is None or len(scope.bindings.get(element.id, ())) != 1:
                continue
            place = returned_place(self, function, element.id)
            if place == ():
                uses.append((position, "returns"))
            elif place is not None and len(place) == 1:
                uses.append((position, ("element", *place[0])))
        return ("unpacked", len(target.elts), tuple(uses)) if uses else None

    def _held(self, call: ast.Call, site: Site) -> Optional[Tuple[str, Tuple[str, ...], Tuple[str, ...]]]:
        """A loader a method keeps on its object (``self.dataloader = DataLoader(...)`` in
        ``initialize``, the only assignment of that attribute in the class, made on every path
        through the method) that the object's class hands out: ("held", getters, self_getters),
        the getters being the methods whose body is ``return self.dataloader`` (pix2pixHD's
        ``load_data``), the self-getters those returning ``self`` when the class's ``__iter__``
        loops over ``self.dataloader`` (iterating the object iterates the loader), ``""`` among
        them standing for the object itself. None when the class hands it out no such way."""
        cls = self.ix.method_class.get(id(site.scope)) if site.scope is not None else None
        if cls is None or _static(site.scope) or any(c.kind != "exit" and c.kind != "divides" for c in site.conds):
            return None
        parents, _ = self.name_reads(site.scope)
        statement = parents.get(id(call))
        own = _first_param(site.scope)
        if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1):
            return None
        target = statement.targets[0]
        local = None  # ``data_loader = DataLoader(...)``, then handed to a wrapper kept on self
        if isinstance(target, ast.Name) and self._bound_once_to(target.id, call, site):
            local = target.id
        elif not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == own):
            return None
        attr = None if local is not None else target.attr
        if attr is not None and len(self.index.self_attrs.get((cls.name, attr), ())) != 1:
            return None  # set elsewhere too: which loader a getter hands out is not followed
        getters: List[str] = []
        returns_self: List[str] = []
        wrapping: List[str] = []  # getters of a second object that iterates the loader
        iterates = False
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or _static(method):
                continue
            me = _first_param(method)
            body = [b for b in method.body if not docstring_statement(b)]
            if method.name == "__iter__" and attr is not None:
                iterates = _iter_walks_attr(method, me, attr)
            if len(body) != 1 or not isinstance(body[0], ast.Return) or method.name.startswith("__"):
                continue
            value = body[0].value
            if attr is not None and _is_self_attr(value, me, attr):
                getters.append(method.name)
            elif attr is not None and isinstance(value, ast.Name) and value.id == me:
                returns_self.append(method.name)
            elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == me:
                if self._wraps_iteration(cls, value.attr, attr, local, site.scope):
                    wrapping.append(method.name)
        if iterates:
            returns_self.append("")
        else:
            returns_self = []
        returns_self.extend(wrapping)
        # built in ``__init__``: the object is what the construction returns
        kind = "held-returned" if self._held_init(site) is not None else "held"
        return (kind, tuple(getters), tuple(returns_self)) if getters or returns_self else None

    def _wraps_iteration(self, cls: ast.ClassDef, kept: str, attr: Optional[str], local: Optional[str], method: ast.AST) -> bool:
        """Whether ``self.<kept>`` of ``cls`` is, by its only store in the class, a construction
        of a module-level class of this module that is given the held loader as a positional
        argument (``self.<attr>``, or the name ``local`` it is bound to in ``method``, where the
        store then is), keeps that parameter on itself (its only store of that attribute, in
        ``__init__``) and walks it in its ``__iter__`` (a loop over it, or ``iter()`` of it):
        iterating the object iterates the loader (CGIntrinsics' ``self.paired_data =
        CGIntrinsicsData(self.data_loader, root)``, ``self.iiw_data = IIWTestData(data_loader)``)."""
        stores = self.index.self_attrs.get((cls.name, kept), ())
        if len(stores) != 1 or not isinstance(stores[0][0], ast.Call):
            return False
        value, store_site, _method = stores[0]
        if not isinstance(value.func, ast.Name) or any(isinstance(a, ast.Starred) for a in value.args):
            return False
        if local is not None and store_site.scope is not method:
            return False

        def is_loader(arg: ast.AST) -> bool:
            if local is not None:
                return isinstance(arg, ast.Name) and arg.id == local
            return isinstance(arg, ast.Attribute) and arg.attr == attr and isinstance(arg.value, ast.Name)

        position = next((i for i, a in enumerate(value.args) if is_loader(a)), None)
        if position is None:
            return False
        bindings = self.index.module_scope.bindings.get(value.func.id, ())
        if len(bindings) != 1 or bindings[0].kind != "class" or bindings[0].nested:
            return False
        wrapper = bindings[0].node
        init = self.ix.methods.get((id(wrapper), "__init__"))
        walker = self.ix.methods.get((id(wrapper), "__iter__"))
        if init is None or walker is None:
            return False
        params = _param_names(init)
        if init.args.posonlyargs or len(params) <= position + 1 or _first_param(init) is None:
            return False
        param = params[position + 1]
        keeps = [attr for attr, name in self._init_keeps(wrapper).items() if name == param]
        return any(_iter_walks_attr(walker, _first_param(walker), k) for k in keeps)

    def unguarded_use(self, call: ast.Call, site: Site, use: Optional[str]) -> Optional[int]:
        """For a call of a factory in this module (``judge.judge_call_sites``): the row where its
        loader is iterated at import. A factory that iterates its loader does so where this
        call runs (``_unguarded_call_of`` when the call is in a function); a returned loader is
        followed from the call as if the call built it (``_unguarded_iteration``)."""
        if use == "returns":
            return self._unguarded_iteration(call, site)
        if isinstance(use, tuple) and use[0] == "unpacked":
            return None  # read only through ``_combined_use``
        if isinstance(use, tuple) and use[0] == "element":
            return self._unguarded_iteration(call, site, element=tuple(use[1:]))
        if isinstance(use, tuple):
            return self._held_iteration(call, site, use)
        if use != "runs":
            return None
        if site.scope is None:
            return None if self._guarded(site.line) else site.line
        function = self._runner(site.scope)
        return self._unguarded_call_of(function, MAX_CALL_DEPTH, set()) if function is not None else None

    def top_call_counts(self) -> Dict[str, int]:
        """Calls per callee name (``terminal``) in the code that runs when this module is
        imported, outside the main guard: the expressions of each statement of
        ``import_flow.top_statements`` (its nested blocks are statements of that list of their
        own, so each call counts once; calls in the bodies of ``def``s and classes do not
        count). Gathered once per module (``_root_calls``, ``flow_iteration``)."""
        if self._top_call_counts is None:
            from dl_lint.analysis.import_flow import top_statements

            counts: Dict[str, int] = {}
            for statement in top_statements(self.tree.body) if self.tree is not None else ():
                if self._guarded(statement.lineno):
                    continue
                for field, part in ast.iter_fields(statement):
                    if field in _NESTED_BLOCKS:
                        continue
                    for piece in part if isinstance(part, list) else (part,):
                        if isinstance(piece, ast.AST):
                            for node in ast.walk(piece):
                                if isinstance(node, ast.Call):
                                    name = terminal(node.func)
                                    counts[name] = counts.get(name, 0) + 1
            self._top_call_counts = counts
        return self._top_call_counts

    def flow_iteration(self, call: ast.Call, site: Site, key: Tuple[str, int, int]) -> Optional[int]:
        """DL203 at a call of a factory in this module's unguarded top-level code, when the
        factory's loader travels where ``unguarded_use``'s shapes do not follow (appended to a
        list that is returned, zipped and handed on: ShuttleNet's ``prepare_dataset``): the line
        of the top-level statement from which the interpretation of this module's import-time
        code (``Project.import_flow``) iterates the construction ``key``. Only for the one call
        of the factory's name at the top level (the interpretation does not tell two calls
        apart), and not in a test module (pytest imports it; no worker does)."""
        if site.scope is not None or self._guarded(site.line) or _test_module(self.path) or self.tree is None:
            return None
        project = self.resolver.project
        flows = getattr(project, "import_flow", None)
        if flows is None:
            return None
        if self.top_call_counts().get(terminal(call.func), 0) != 1:
            return None
        found = flows(os.path.abspath(self.path)).get(key)
        return found[0] if found is not None else None

    def _held_iteration(self, call: ast.Call, site: Site, use: Tuple[str, Tuple[str, ...], Tuple[str, ...]]) -> Optional[int]:
        """``unguarded_use`` for a loader kept on an object (``_held``): the object is the
        receiver of the call (``data_loader.initialize(opt)``, use "held") or what the call
        returns (``data_loader = CreateDataLoader(opt)``, "held-returned"), a name bound once;
        the names bound once, after the call, to one of its getters (``dataset =
        data_loader.load_data()``) hold the loader, and so does the object itself when its class
        iterates the loader in ``__iter__``. The row where one of them is iterated at import."""
        kind, getters, self_getters = use
        if kind == "held":
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                return None
            obj = func.value.id
        else:
            obj = self.assigned_name(call)
        names = self.index.scopes.get(id(site.scope)) if site.scope is not None else self.index.module_scope
        if obj is None or names is None or self.rival_arms(obj, site, None if kind == "held" else call) is None:
            return None
        if kind == "held" and len(names.bindings.get(obj, ())) != 1:
            return None
        holders = [(obj, site.line)] if "" in self_getters else []
        for name, method, line in self._getter_bindings(names).get(obj, ()):
            if (method in getters or method in self_getters) and line >= site.line:
                holders.append((name, line))
        # the getter's result iterated where it is called (``for data in data_loader.load_data():``)
        holders += [(f"{obj}.{method}()", site.line) for method in (*getters, *self_getters) if method]
        for name, after in holders:
            row = self._name_iteration(site.scope, name, after)
            if site.scope is None:
                if row is not None and not self._guarded(row):
                    return row
                row = self._global_iteration(name, after)
                if row is not None:
                    return row
            elif row is not None:
                function = self._runner(site.scope)
                found = self._unguarded_call_of(function, MAX_CALL_DEPTH, set()) if function is not None else None
                if found is not None:
                    return found
        return None

    def _getter_bindings(self, names: Any) -> Dict[str, List[Tuple[str, str, int]]]:
        """The scope's names bound once to a method call without arguments on a name
        (``dataset = data_loader.load_data()``): object name -> [(name, method, row)], read once
        per scope (walking every binding at each held call was calls × bindings)."""
        found = self._getter_calls.get(id(names))
        if found is None:
            found = self._getter_calls[id(names)] = {}
            for name, bindings in names.bindings.items():
                if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].site is None:
                    continue
                value = bindings[0].value
                if _getter_key(value) is not None:
                    found.setdefault(value.func.value.id, []).append((name, value.func.attr, bindings[0].site.line))
        return found

    def _runs(self, site: Site) -> Optional[bool]:
        """Whether a call at ``site`` runs with the parameters bound as they are now: False when
        an ``if`` around it (or an early exit before it) has a test that is a known constant of
        the other truth value (``if is_training:`` with ``is_training=False`` given, or
        defaulted, by the call); True when every such test is a known constant of the value
        that runs it; None when some test is not decided."""
        decided = True
        for cond in site.conds:
            if cond.kind not in ("if", "exit") or cond.test is None:
                continue
            single = self.resolver.resolve(cond.test, site).single
            if single is None or not isinstance(single.value, (type(None), bool, int, float, str)):
                decided = False
            elif bool(single.value) is not cond.polarity:
                return False
        return True if decided else None

    def parameters(self, function: ast.AST) -> Tuple[List[Binding], List[Binding]]:
        """The function's named parameters as bindings: (positional, keyword-only)."""
        scope = self.index.scopes.get(id(function))
        args = function.args
        by_node = {}
        if scope is not None:
            for bindings in scope.bindings.values():
                for binding in bindings:
                    if binding.kind == "param":
                        by_node[id(binding.node)] = binding
        positional = [by_node[id(a)] for a in (*args.posonlyargs, *args.args) if id(a) in by_node]
        keyword = [by_node[id(a)] for a in args.kwonlyargs if id(a) in by_node]
        return positional, keyword

    def bind_parameters(self, call: ast.Call, site: Site, caller: "ModuleAnalysis", function: ast.AST) -> Optional[Dict[int, Value]]:
        """Map this module's ``function``'s parameters to the Values ``call`` (in ``caller``)
        gives them, defaults included; None when the call cannot be bound (``*args`` or
        ``**kwargs`` in the call, unknown keywords, a missing argument). For a method of a
        module-level class (called on an instance) the first parameter is the object, left to
        the method's own analysis. Keywords no named parameter takes go to the function's
        ``**kwargs`` parameter, as a complete dict (``def loader(self, **kwargs)``)."""
        positional, keyword_only = self.parameters(function)
        if id(function) in self.ix.method_class and not _static(function):
            positional = positional[1:]
        by_name = {b.name: b for b in (*positional, *keyword_only)}
        env = _CallerValues(caller.resolver, site)
        # ``def prepare(ds, num_workers=0, **kwargs)``: the keywords no named parameter takes
        # are its ``kwargs``, a dict whose keys are all known (empty when there are none).
        kwarg = self._kwarg_binding(function)
        extra: List[Tuple[str, object]] = []
        index = 0
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                return None
            if index >= len(positional):
                return None
            env.pending[id(positional[index].node)] = arg
            index += 1
        for keyword in call.keywords:
            if keyword.arg is None:
                # ``create_loader(ds, **loader_kwargs)``: a dict whose keys are all known, each
                # with a value on every path, binds those parameters.
                entries = _spread_entries(caller.resolver, keyword.value, site)
                if entries is None:
                    return None
                for key, value in entries:
                    binding = by_name.get(key)
                    if binding is None and kwarg is not None and all(k != key for k, _ in extra):
                        extra.append((key, value))
                        continue
                    if binding is None or id(binding.node) in env:
                        return None
                    env[id(binding.node)] = value
                continue
            binding = by_name.get(keyword.arg)
            if binding is None and kwarg is not None and all(k != keyword.arg for k, _ in extra):
                extra.append((keyword.arg, keyword.value))
                continue
            if binding is None or dict.__contains__(env, id(binding.node)):
                return None
            env.pending[id(binding.node)] = keyword.value
        for binding in by_name.values():
            if id(binding.node) in env:
                continue
            if binding.value is None:
                return None
            default = self.resolver.resolve(binding.value, binding.site)
            if default.is_unknown:
                env[id(binding.node)] = Value.unknown("parameter")
                continue
            origin = Origin(f"default of parameter {binding.name}", self.path, self.resolver.line(binding.node))
            env[id(binding.node)] = Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()))
        if kwarg is not None:
            entries = []
            for key, given in extra:
                if isinstance(given, ast.AST):  # written at the call: resolved there
                    env.pending[("**", key)] = given
                    given = env[("**", key)]
                    dict.pop(env, ("**", key))
                entries.append((key, given))
            env[id(kwarg.node)] = Value.known(DictValue(tuple(entries), True))
        cls = self.ix.method_class.get(id(function))
        if cls is not None and not _static(function):
            self._bind_construction(call, site, caller, cls, env)
        return env

    def _bind_construction(self, call: ast.Call, site: Site, caller: "ModuleAnalysis", cls: ast.ClassDef, env: "_CallerValues") -> None:
        """For ``trainer.train()`` on ``trainer = Trainer(model, ds, None, tconf)`` (the name
        bound once, to a construction of the method's own class): ``__init__``'s parameters
        bound to that construction's arguments too, so that what ``__init__`` keeps on self
        (``self.config = config``) is what the caller handed it. A config object handed by name
        has each attribute the caller may set after building it (``tconf.num_workers = 0``,
        ``trainer.config.num_workers = 0``, ``Resolver._config_edited``) unknown. Nothing is
        added when the construction cannot be read (then ``self.config`` stays unknown)."""
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            made, where = func.value, site  # built in place: ``trainer.fit(model, datamodule=DM(data, 64, 8))``
        else:
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                return
            _, bindings = caller.resolver.lookup(func.value.id, site)
            if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
                return
            made, where = bindings[0].value, bindings[0].site
        ref = caller.resolver.resolve(made.func, where).single
        target = ref.value if ref is not None else None
        if not (isinstance(target, FunctionRef) and target.kind == "class" and target.path):
            return
        own = target.name == cls.name and target.line == cls.lineno and os.path.abspath(target.path) == os.path.abspath(self.path)
        if own or self._inherits_init(caller, target, cls):
            init = self.ix.methods.get((id(cls), "__init__"))
            built = self.bind_parameters(made, where, caller, init) if init is not None else None
        else:
            built = self._relayed_init(made, where, caller, target.module, target.path, target.name, cls, MAX_RELAYS)
        if built is None:
            return
        for key in list(built.pending):
            built[key]
        relay = getattr(built, "relayed_by", None)
        for key, value in dict.items(built):
            node = built.nodes.get(key)
            if relay is not None and value.options and any(p.origin is None for p in value.options):
                value = Value(tuple(p if p.origin is not None else Possible(p.value, relay, p.guards) for p in value.options), value.source, value.aliases)
            elif isinstance(node, ast.Name) and relay is None:
                receiver = func.value.id if isinstance(func.value, ast.Name) else ""
                value = self._handed_config(node, value, made, where, site, caller, receiver) or value
            dict.__setitem__(env, key, value)

    def _relayed_init(
        self, made: ast.Call, where: Site, caller: "ModuleAnalysis", module: str, path: str, name: str, cls: ast.ClassDef, depth: int
    ) -> Optional["_CallerValues"]:
        """``Sub(ds, num_workers=0, persistent_workers=True)`` of a project subclass of ``cls``
        (this module's class, whose method is being bound) whose ``__init__`` hands its arguments
        on to ``cls``'s: ``super().__init__(ds, batch_size, num_workers, persistent_workers)`` or
        ``Base.__init__(self, ...)``, positionally or by keyword, as one unconditional statement
        of its body. The subclass's parameters are bound to the construction's arguments, then
        ``cls.__init__``'s to what the relay passes, read in the subclass's module with those
        values; a relay to a class that relays again is followed ``MAX_RELAYS`` levels deep.
        None (``self.X`` stays unknown) when a level cannot be read: the ``__init__`` that runs is
        not one such relay, a base is not a project class, a class on the way sets on ``self``
        an attribute ``cls.__init__`` sets (or anything, through ``setattr``/``__dict__``), or
        the call cannot be bound. The answer rests on the bytes of each subclass's module."""
        project = caller.resolver.project
        summary = getattr(project, "summary", None)
        found = summary(module, path) if summary is not None and depth > 0 else None
        if found is None or getattr(found, "path", None) != path:
            return None
        home = found.method_owner(name, "__init__")
        if not home:
            return None
        home_module, home_name = home[0], home[1]
        home_path = home_module.path
        if home_name == cls.name and os.path.abspath(home_path) == os.path.abspath(self.path):
            init = self.ix.methods.get((id(cls), "__init__"))
            return self.bind_parameters(made, where, caller, init) if init is not None else None
        if not _derives_from(project, home_module, home_name, cls, self.path, depth):
            return None  # read from the summaries first: no module is parsed for a class that is none of cls's
        sub = self if os.path.abspath(home_path) == os.path.abspath(self.path) else project.analysis_at(home_path, home_module.module_name)
        if sub is None or sub.tree is None:
            return None
        project.read_config_file(home_path)  # the answer rests on that ``__init__``'s body
        subcls = next((c for c in sub.index.module_classes if c.name == home_name), None)
        sub_init = sub.ix.methods.get((id(subcls), "__init__")) if subcls is not None else None
        if sub_init is None or not _keeps_apart(subcls, cls):
            return None
        relays = [
            (call, site)
            for call, site, _, _ in sub._calls_in(sub_init)
            if isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"
        ]
        if len(relays) != 1:
            return None
        relay, site = relays[0]
        statement = next((s for s in sub_init.body if isinstance(s, ast.Expr) and s.value is relay), None)
        if statement is None or site.conds:
            return None  # under an ``if``, a loop or a ``try``: it may not run
        inner = relay.func.value
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "super":
            base = _summary_base(home_module, home_name)
            given = relay
        elif isinstance(inner, (ast.Name, ast.Attribute)) and relay.args and isinstance(relay.args[0], ast.Name) and relay.args[0].id == "self":
            ref = sub.resolver.resolve(inner, site).single
            base = ref.value if ref is not None else None
            given = ast.copy_location(ast.Call(func=relay.func, args=relay.args[1:], keywords=relay.keywords), relay)
        else:
            return None
        if not (isinstance(base, FunctionRef) and base.kind == "class" and base.path):
            return None
        if _passes_through(sub_init, relay):  # ``def __init__(self, *args, **kwargs)``: the call's own arguments
            found = self._relayed_init(made, where, caller, base.module, base.path, base.name, cls, depth - 1)
        else:
            resolver = sub.resolver
            bound = sub.bind_parameters(made, where, caller, sub_init)
            if bound is None:
                return None
            saved = resolver.param_env, resolver.current_class
            resolver.param_env, resolver.current_class = bound, home_name
            try:  # the relay's arguments are read with the subclass's parameters as bound
                found = self._relayed_init(given, site, sub, base.module, base.path, base.name, cls, depth - 1)
            finally:
                resolver.param_env, resolver.current_class = saved
        if found is not None and not getattr(found, "relayed_by", None):
            # the relay that hands ``cls.__init__`` its arguments: cited by values written nowhere
            # else (a literal it passes, a caller's argument it passes on), so that a finding
            # rests on its file
            found.relayed_by = Origin(f"passed on to {cls.name}.__init__ by {home_name}.__init__", home_path, relay.lineno)
        return found

    def _inherits_init(self, caller: "ModuleAnalysis", target: Any, cls: ast.ClassDef) -> bool:
        """Whether constructing the project class ``target`` runs the ``__init__`` of ``cls``
        (a class of this module): a subclass that defines none, whose lookup finds ``cls``'s
        (``call_keys.inherited_home``): ``class Squares(Data): pass`` built with ``Data``'s
        parameters."""
        from dl_lint.analysis.call_keys import inherited_home

        home = inherited_home(caller.resolver.project, target.module, target.path, target.name, "__init__")
        return home is not None and home[1] == cls.name and os.path.abspath(home[0]) == os.path.abspath(self.path)

    @staticmethod
    def _handed_config(
        node: ast.Name, value: Value, made: ast.Call, where: Site, site: Site, caller: "ModuleAnalysis", receiver: str
    ) -> Optional[Value]:
        """A config object (``tconf = TrainerConfig(num_workers=4)``, a DataclassConfig) handed
        by name to the construction ``made``: the resolver leaves an object handed to any call
        an opaque Instance; here the call is the one whose ``__init__`` is read. The config as
        built, less what the caller may set on it (every field when it sets one it cannot
        place, hands the object to another call or keeps it in another object or a container).
        None: not such a config."""
        from dl_lint.analysis.configs.dataclasses import DataclassConfig
        from dl_lint.analysis.resolve import _edited_config_keys

        single = value.single
        if single is None or not isinstance(single.value, Instance):
            return None
        resolver = caller.resolver
        _, bindings = resolver.lookup(node.id, where)
        if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
            return None
        binding = bindings[0]
        built = resolver.resolve(binding.value, binding.site or END).single
        config = built.value if built is not None else None
        if not isinstance(config, DataclassConfig):
            return None
        within = binding.site.scope if binding.site is not None and binding.site.scope is not None else resolver.tree
        if within is None:
            return None
        for other in ast.walk(within):
            if isinstance(other, ast.Call) and other is not made:
                for arg in (*other.args, *(k.value for k in other.keywords)):
                    arg = arg.value if isinstance(arg, ast.Starred) else arg
                    if isinstance(arg, ast.Name) and arg.id == node.id:
                        return None  # handed to something else too, which may set anything
            elif isinstance(other, ast.Assign) and not all(isinstance(t, ast.Name) for t in other.targets):
                if any(isinstance(n, ast.Name) and n.id == node.id for n in ast.walk(other.value)):
                    return None  # kept in another object or a container (``args.config = tconf``)
        edited = _edited_config_keys(within, node.id, skip=binding.value)
        if any(not keys for keys in edited):
            return None
        gone = {keys[0] for keys in edited}
        writes = resolver.index.attr_writes
        fields = []
        for name, field in config.fields:
            if name in gone or resolver._config_edited(node, name, site, (receiver,)) or any(
                written == name and n == node.id for _scope, n, written in writes
            ):
                field = Value.unknown("config")
            fields.append((name, field))
        kept = DataclassConfig(config.module, config.name, config.line, config.path, config.local, config.holds, config.given, config.views, config.shape, fields=tuple(fields))
        return Value((Possible(kept, single.origin, single.guards),), value.source, value.aliases)

    def _kwarg_binding(self, function: ast.AST) -> Optional[Binding]:
        """The binding of ``function``'s ``**kwargs`` parameter, if it has one."""
        kwarg = function.args.kwarg
        scope = self.index.scopes.get(id(function)) if kwarg is not None else None
        if scope is None:
            return None
        for binding in scope.bindings.get(kwarg.arg, ()):
            if binding.kind == "param" and binding.node is kwarg:
                return binding
        return None


def _self_writes(cls: ast.ClassDef) -> Optional[Set[str]]:
    """The attributes the methods of ``cls`` set on ``self`` (``self.x = ...``, ``self.x += ...``);
    None when they may set any (``setattr(self, ...)``, ``self.__dict__``, ``vars(self)``)."""
    found: Set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr == "__dict__":
                return None
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                found.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "vars", "delattr"):
            if node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
                return None
    return found


def _summary_base(module: Any, name: str) -> Optional[FunctionRef]:
    """The one base of class ``name`` of a summarised module when it is a project class (what
    ``super()`` in its methods reaches); None for several bases or a library one."""
    from dl_lint.analysis.syntax import parse_expression

    record = module._classes_by_name.get(name)
    bases = [b for b in (record.bases if record is not None else ()) if "".join(b.split()) != "object"]
    if len(bases) != 1:
        return None
    node = parse_expression(bases[0], record.line)
    single = module.resolver.resolve(node, END).single if node is not None else None
    ref = single.value if single is not None else None
    return ref if isinstance(ref, FunctionRef) and ref.kind == "class" and ref.path else None


def _derives_from(project: Any, module: Any, name: str, cls: ast.ClassDef, path: str, depth: int) -> bool:
    """Whether class ``name`` of the summarised ``module`` derives from ``cls`` (of the file at
    ``path``) through single project bases, ``depth`` levels at most: read off the summaries."""
    target = os.path.abspath(path)
    for _ in range(depth):
        base = _summary_base(module, name)
        if base is None:
            return False
        if base.name == cls.name and os.path.abspath(base.path) == target:
            return True
        module = project.summary(base.module, base.path)
        if module is None or getattr(module, "path", None) != base.path:
            return False
        name = base.name
    return False


def _passes_through(init: ast.AST, relay: ast.Call) -> bool:
    """``def __init__(self, *args, **kwargs): super().__init__(*args, **kwargs)``: the relay
    passes the construction's arguments on as they are."""
    args = init.args
    if args.posonlyargs or len(args.args) != 1 or args.kwonlyargs or args.vararg is None or args.kwarg is None:
        return False
    if len(relay.args) != 1 or len(relay.keywords) != 1:
        return False
    star, spread = relay.args[0], relay.keywords[0]
    return (
        isinstance(star, ast.Starred) and isinstance(star.value, ast.Name) and star.value.id == args.vararg.arg
        and spread.arg is None and isinstance(spread.value, ast.Name) and spread.value.id == args.kwarg.arg
    )


def _keeps_apart(sub: ast.ClassDef, cls: ast.ClassDef) -> bool:
    """Whether the subclass ``sub`` leaves alone what ``cls.__init__`` keeps on ``self``: it sets
    none of those attributes itself, and nothing it cannot name."""
    mine = _self_writes(sub)
    theirs = _self_writes(cls)
    return mine is not None and theirs is not None and not (mine & theirs)


def _spread_entries(resolver: Resolver, expr: ast.AST, site: Site) -> Optional[List[Tuple[str, Value]]]:
    """The (key, value) pairs a ``**expr`` passes, when ``expr`` is a dict whose keys are all
    known and set on every path (None otherwise: the call is not bound)."""
    single = resolver.resolve(expr, site).single
    content = single.value if single is not None else None
    if not isinstance(content, DictValue) or not content.complete:
        return None
    out = []
    for key, value in content.entries:
        if not isinstance(key, str) or any(p.value is ABSENT for p in value.options or ()):
            return None
        out.append((key, value))
    return out


def _as_passed(value: Value, node: ast.AST, site: Site, resolver: Resolver) -> Value:
    """A namespace handed whole to a function (``make_loader(args)``): less the attributes the
    calling function sets on anything (``args.workers = 0`` before the call, or after it in a
    loop), which the callee cannot see as the caller does."""
    single = value.single
    if single is None or not isinstance(single.value, ParsedArgs):
        return value
    scope = site.scope if site.scope is not None else resolver.tree
    if scope is None:
        return Value.unknown("argparse")
    parsed = single.value
    edited = parsed.with_edits(edited_attributes(scope))
    return Value((Possible(edited, single.origin, single.guards),), value.source, value.aliases)


class _CallerValues(dict):
    """Parameter values at a call site (``Resolver.param_env``), each argument resolved in the
    caller only when the callee's analysis asks for it: an argument the loaders never read
    (``get_loader(accelerator, ...)``) can cost a whole module's parse to resolve. Resolved
    with the caller's parameter values as they were when the call was bound."""

    def __init__(self, resolver: Resolver, site: Site) -> None:
        super().__init__()
        self.resolver = resolver
        self.site = site
        self.context = (resolver.param_env, resolver.current_class)
        self.pending: Dict[int, ast.AST] = {}
        self.nodes: Dict[int, ast.AST] = {}  # the argument expressions already resolved
        self._attributes: Dict[Tuple[int, str], Optional[Value]] = {}

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.pending

    def __getitem__(self, key: int) -> Value:
        if not dict.__contains__(self, key) and key in self.pending:
            resolver = self.resolver
            saved = resolver.param_env, resolver.current_class
            resolver.param_env, resolver.current_class = self.context
            try:
                node = self.pending.pop(key)
                self.nodes[key] = node
                self[key] = _as_passed(resolver.resolve(node, self.site), node, self.site, resolver)
            finally:
                resolver.param_env, resolver.current_class = saved
        return dict.__getitem__(self, key)

    def attribute(self, key: int, attr: str) -> Optional[Value]:
        """``param.attr`` read by the callee, for a parameter given a name or an attribute
        (``CreateDataLoader(opt)``): ``opt.attr`` as the caller sees it at the call, its own
        writes included (``opt.nThreads = 1`` before the call, pix2pixHD's test.py). None when
        the argument is any other expression or the caller's answer is unknown."""
        found = self._attributes.get((key, attr), False)
        if found is not False:
            return found
        node = self.nodes.get(key, self.pending.get(key))
        value: Optional[Value] = None
        writes = self.resolver.index.attr_writes
        if isinstance(node, ast.Name) and any(
            scope is self.site.scope and name != node.id and written == attr for scope, name, written in writes
        ):
            node = None  # the attribute is set on another name too (an alias?): not followed
        if isinstance(node, (ast.Name, ast.Attribute)):
            read = ast.copy_location(ast.Attribute(value=node, attr=attr, ctx=ast.Load()), node)
            resolver = self.resolver
            saved = resolver.param_env, resolver.current_class
            resolver.param_env, resolver.current_class = self.context
            try:
                value = resolver.resolve(read, self.site)
            finally:
                resolver.param_env, resolver.current_class = saved
            if value.is_unknown:
                value = None
        self._attributes[(key, attr)] = value
        return value

    def _all(self) -> None:
        for key in list(self.pending):
            self[key]

    def __iter__(self):  # copies (``{**env}``) see every value
        self._all()
        return dict.__iter__(self)

    def keys(self):
        self._all()
        return dict.keys(self)

    def items(self):
        self._all()
        return dict.items(self)

    def values(self):
        self._all()
        return dict.values(self)

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.pending)


class _Index:
    """Lookups over one module's calls, loops and functions, built in one pass over the
    ``ModuleIndex``: what each loader asks (where it is iterated, where its batches are copied,
    which module function a name calls, which loops hold a line) is a dict lookup or a short
    chain, never a walk of the module. 10,000 loaders in one file took minutes when each walked
    every loop and call of its scope."""

    def __init__(self, index: ModuleIndex) -> None:
        self._scopes = index.scopes
        self._module_scope = index.module_scope
        self._wrappers: Dict[int, Dict[str, List[str]]] = {}  # ``_wrapper_names``, per scope
        functions = index.module_functions
        self.function_ids: Set[int] = {id(f) for f in functions}
        self.first_function: Dict[str, ast.AST] = {}
        for function in functions:
            self.first_function.setdefault(function.name, function)
        self.helpers = module_helpers(functions)
        self.records: Optional[Dict[str, object]] = None  # filled by ``_function_records``
        self._words: Optional[Tuple[bool, bool]] = None
        self.loops_by_row: Dict[int, Dict[int, ast.AST]] = {}
        self.name_reads: Dict[int, Tuple[Dict[int, ast.AST], Dict[str, List[ast.Name]]]] = {}
        # Loops: by the node (a loader call) and by the names their iterable is, possibly
        # wrapped (``_mentioned``: ``enumerate(x)``, ``zip(a, b)``); by ``transfers.iterates``
        # (the batches of the first argument only) for DL306.
        self.loop_over_node: Dict[int, Tuple[ast.AST, Site]] = {}
        self.loops_over_name: Dict[Tuple[int, str], List[Tuple[ast.AST, Site]]] = {}
        self.loops_over_any: Dict[str, List[Tuple[ast.AST, Site]]] = {}
        self._batches_of_node: Dict[int, List[Tuple[int, ast.AST, Site]]] = {}
        self._batches_of_name: Dict[Tuple[int, str], List[Tuple[int, ast.AST, Site]]] = {}
        self._loops_by_scope: Dict[int, List[Tuple[ast.AST, Site]]] = {}
        self._holding: Dict[int, Tuple[List[int], List[Tuple[ast.AST, Site]], List[int]]] = {}
        for position, (loop, site) in enumerate(index.loops):
            scope = id(site.scope)
            self._loops_by_scope.setdefault(scope, []).append((loop, site))
            names: List[str] = []
            for leaf in _mentioned(loop.iter):
                self.loop_over_node.setdefault(id(leaf), (loop, site))
                key = leaf.id if isinstance(leaf, ast.Name) else _getter_key(leaf)  # ``for b in holder.load_data():``
                if key is not None and key not in names:
                    names.append(key)
            for name in names:
                self.loops_over_name.setdefault((scope, name), []).append((loop, site))
                self.loops_over_any.setdefault(name, []).append((loop, site))
            for leaf in transparent_leaves(loop.iter):
                self._batches_of_node.setdefault(id(leaf), []).append((position, loop, site))
                if isinstance(leaf, ast.Name):
                    self._batches_of_name.setdefault((scope, leaf.id), []).append((position, loop, site))
        # Calls: by callee name; by (scope, name) for the calls that iterate the name
        # (``iter(name)``, ``next(...name...)``, ``list(name)``, through ``_mentioned``) and the
        # calls of a bare function name that take it as an argument.
        # The methods of module-level classes (defined in the class body): by (id(class),
        # name) and the class of each (``ModuleAnalysis._runner``).
        self.methods: Dict[Tuple[int, str], ast.AST] = {}
        self.method_class: Dict[int, ast.ClassDef] = {}
        for cls in index.module_classes:
            for statement in cls.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.methods.setdefault((id(cls), statement.name), statement)
                    self.method_class[id(statement)] = cls
        self.subclasses: Optional[Dict[str, str]] = None  # base's last name -> a subclass (``epochs._class_closed``)
        # the kept-attribute checks' index of the module (``_attribute_index``)
        self.attribute_index: Optional[tuple] = None
        self.instances: Dict[str, Optional[ast.ClassDef]] = {}  # ``ModuleAnalysis.instance_class``
        self.runs_at_import: Optional[bool] = None  # ``ModuleAnalysis._runs_at_import``
        self.calls_of_name: Dict[str, List[Tuple[ast.Call, Site]]] = {}
        self.calls_of_attr: Dict[str, List[Tuple[ast.Call, Site]]] = {}  # ``name.attr(...)``, ``Name(...).attr(...)`` by attr
        self.iterating_calls: Dict[Tuple[int, str], List[Tuple[int, ast.Call, Site]]] = {}
        self.handing_calls: Dict[Tuple[int, str], List[Tuple[int, ast.Call, Site]]] = {}
        self.iterating_any: Dict[str, List[Tuple[int, ast.Call, Site]]] = {}
        self.handing_any: Dict[str, List[Tuple[int, ast.Call, Site]]] = {}
        # Calls of ``EAGER_ITERATION``'s callables (by the name written) over a name, and over
        # ``*name`` (``zip(*loaders)``): by (scope, name), and by name outside module level.
        self.eager_calls: Dict[Tuple[int, str], List[Tuple[int, ast.Call, Site]]] = {}
        self.eager_any: Dict[str, List[Tuple[int, ast.Call, Site]]] = {}
        self.starred_calls: Dict[Tuple[int, str], List[Tuple[int, ast.Call, Site]]] = {}
        self.eager_over_node: Dict[int, List[Tuple[int, ast.Call, Site]]] = {}  # enumerate(DataLoader(...))
        # A call built in place as an argument of a named call (``train(DataLoader(...))``,
        # ``trainer.fit(model, DataLoader(...))``): id(argument) -> (that call, its site).
        self.handing_node: Dict[int, Tuple[ast.Call, Site]] = {}
        for position, (call, site, _, _) in enumerate(index.calls):
            scope = id(site.scope)
            func = call.func
            named = isinstance(func, ast.Name)
            if named:
                self.calls_of_name.setdefault(func.id, []).append((call, site))
            elif isinstance(func, ast.Attribute) and (
                isinstance(func.value, ast.Name) or (isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name))
            ):  # ``trainer.fit()``, and ``Trainer(args).fit()`` (``ModuleAnalysis._method_called``)
                self.calls_of_attr.setdefault(func.attr, []).append((call, site))
                named = True
            if named and (call.args or call.keywords):
                # the names handed: arguments, keyword values, and the names in a list or tuple
                # display (``evaluate(model, [val_loader, test_loader])``); one pass, the node
                # types compared directly (this runs for every call of the module)
                handed: List[str] = []
                for argument in call.args:
                    kind = type(argument)
                    if kind is ast.Name:
                        handed.append(argument.id)
                    elif kind is ast.Call:
                        self.handing_node[id(argument)] = (call, site)
                    elif kind is ast.List or kind is ast.Tuple:
                        handed += [e.id for e in argument.elts if type(e) is ast.Name]
                for keyword in call.keywords:
                    if keyword.arg:
                        kind = type(keyword.value)
                        if kind is ast.Name:
                            handed.append(keyword.value.id)
                        elif kind is ast.Call:
                            self.handing_node[id(keyword.value)] = (call, site)
                for name in dict.fromkeys(handed) if handed else ():
                    self.handing_calls.setdefault((scope, name), []).append((position, call, site))
                    if site.scope is not None:
                        self.handing_any.setdefault(name, []).append((position, call, site))
            callee = terminal(func)
            if callee in ("iter", "next", "list"):
                names = []
                for argument in call.args:
                    names += [leaf.id for leaf in _mentioned(argument) if isinstance(leaf, ast.Name)]
                    names += [key for key in map(_getter_key, _mentioned(argument)) if key is not None]
                for name in dict.fromkeys(names):
                    self.iterating_calls.setdefault((scope, name), []).append((position, call, site))
                    if site.scope is not None:
                        self.iterating_any.setdefault(name, []).append((position, call, site))
            if callee in _EAGER_NAMES and call.args:
                # ``enumerate(loader)``, ``zip(a, b)``, ``zip(*loaders)``: candidates by the
                # name written; ``ModuleAnalysis._eager`` checks the callee when one is asked.
                names, lists = [], []
                for argument in call.args:
                    if isinstance(argument, ast.Starred):
                        if isinstance(argument.value, ast.Name):
                            lists.append(argument.value.id)
                        continue
                    for leaf in _branches(argument):
                        if isinstance(leaf, ast.Name):
                            names.append(leaf.id)
                        elif isinstance(leaf, ast.Call):
                            self.eager_over_node.setdefault(id(leaf), []).append((position, call, site))
                for name in dict.fromkeys(names):
                    self.eager_calls.setdefault((scope, name), []).append((position, call, site))
                    if site.scope is not None:
                        self.eager_any.setdefault(name, []).append((position, call, site))
                for name in dict.fromkeys(lists):
                    self.starred_calls.setdefault((scope, name), []).append((position, call, site))
        # Comprehensions: their first iterable is iterated where they are written (a generator
        # expression calls ``iter()`` on it at once, like ``enumerate``), the others only
        # through eager wrappers (``(b for b in tqdm(loader))`` does not start the loader).
        self.comprehension_over_node: Dict[int, Tuple[ast.AST, Site]] = {}
        self.comprehensions_over_name: Dict[Tuple[int, str], List[Tuple[ast.AST, Site]]] = {}
        self.comprehensions_over_any: Dict[str, List[Tuple[ast.AST, Site]]] = {}
        for comprehension, site in index.comprehensions:
            iterable = comprehension.generators[0].iter
            consumed = not isinstance(comprehension, ast.GeneratorExp)
            for leaf in _mentioned(iterable) if consumed else _branches(iterable):
                self.comprehension_over_node.setdefault(id(leaf), (comprehension, site))
                if isinstance(leaf, ast.Name):
                    self.comprehensions_over_name.setdefault((id(site.scope), leaf.id), []).append((comprehension, site))
                    self.comprehensions_over_any.setdefault(leaf.id, []).append((comprehension, site))

    def words(self, source: str) -> Tuple[bool, bool]:
        """Whether the source holds ``.pin_memory(`` and ``non_blocking`` (searched once)."""
        if self._words is None:
            self._words = (".pin_memory(" in source, "non_blocking" in source)
        return self._words

    def batch_loops(self, call: ast.Call, scope: Optional[ast.AST], name: Optional[str]) -> List[Tuple[ast.AST, Site]]:
        """The loops of ``scope`` (in module order) that yield the batches of ``call`` or of the
        name ``name`` (``transfers.iterates``)."""
        found = [entry for entry in self._batches_of_node.get(id(call), ()) if entry[2].scope is scope]
        if name is not None:
            found += self._batches_of_name.get((id(scope), name), ())
            for alias in self._wrapper_names(scope, name):  # ``bar = tqdm(loader)``, then ``for b in bar``
                found += self._batches_of_name.get((id(scope), alias), ())
        unique = {entry[0]: entry for entry in found}
        return [(unique[position][1], unique[position][2]) for position in sorted(unique)]

    def _wrapper_names(self, scope: Optional[ast.AST], name: str) -> List[str]:
        """The names of ``scope`` bound once, and only, to a transparent wrapper of ``name``
        (``train_bar = tqdm(relative_train_loader, ncols=150)``, CLIP4Cir's training loop):
        their loops yield its batches."""
        if not self._batches_of_name:
            return []
        wrappers = self._wrappers.get(id(scope))
        if wrappers is None:  # once per scope: each name -> the names bound to a wrapper of it
            wrappers = self._wrappers[id(scope)] = {}
            names = self._scopes.get(id(scope)) if scope is not None else self._module_scope
            for alias, bindings in (names.bindings.items() if names is not None else ()):
                if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
                    continue
                leaves = transparent_leaves(bindings[0].value)
                if len(leaves) > 1 and isinstance(leaves[-1], ast.Name) and (id(scope), alias) in self._batches_of_name:
                    wrappers.setdefault(leaves[-1].id, []).append(alias)
        return wrappers.get(name, [])

    def loops_holding(self, scope: Optional[ast.AST], row: int) -> List[Tuple[ast.AST, Site]]:
        """The ``for`` loops of ``scope`` that start before ``row`` and end on it or after,
        innermost first. Loop statements nest or are apart, so these are the loop that starts
        last before ``row`` and the loops around it (a chain as long as the nesting is deep)."""
        held = self._holding.get(id(scope))
        if held is None:
            loops = sorted(self._loops_by_scope.get(id(scope), ()), key=lambda entry: entry[0].lineno)
            parents: List[int] = []
            stack: List[int] = []
            for position, (loop, _) in enumerate(loops):
                while stack and (loops[stack[-1]][0].end_lineno or 0) < loop.lineno:
                    stack.pop()
                parents.append(stack[-1] if stack else -1)
                stack.append(position)
            held = self._holding[id(scope)] = ([loop.lineno for loop, _ in loops], loops, parents)
        starts, loops, parents = held
        import bisect

        out = []
        position = bisect.bisect_left(starts, row) - 1
        while position >= 0:
            loop = loops[position][0]
            if loop.lineno < row <= (loop.end_lineno or 0):
                out.append(loops[position])
            position = parents[position]
        return out


# How many callers deep DL306 follows a returned loader (DL206's ``epochs.FOLLOW_DEPTH``).
_RETURN_DEPTH = 3

# DL306: the name a batch taken by hand (``next(iter(loader))``) is read under
# (``ModuleAnalysis._taken_batch_copy``); not an identifier a program can write.
_TAKEN = "<taken batch>"


def _iter_of(node: ast.AST, name: str) -> bool:
    """``iter(name)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "iter"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == name
    )


def _statement_of(body: Sequence[ast.stmt], node: ast.AST) -> Optional[Tuple[Sequence[ast.stmt], int]]:
    """The simple statement holding ``node`` among ``body`` and the blocks nested in it
    (functions and classes excluded): (its block, its index there)."""
    row = getattr(node, "lineno", 0)
    block: Sequence[ast.stmt] = body
    while True:
        for index, statement in enumerate(block):
            if not statement.lineno <= row <= (statement.end_lineno or statement.lineno):
                continue
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return None
            inner = [
                part
                for field in ("body", "orelse", "finalbody")
                for part in [getattr(statement, field, None)]
                if isinstance(part, list) and part and isinstance(part[0], ast.stmt)
            ]
            inner += [handler.body for handler in getattr(statement, "handlers", ())]
            inner += [case.body for case in getattr(statement, "cases", ())]
            nested = next((b for b in inner if b[0].lineno <= row <= (b[-1].end_lineno or b[-1].lineno)), None)
            if nested is not None:
                block = nested
                break
            if inner:
                return None  # in the header of a compound statement (``for x in next(iter(l)):``)
            return (block, index) if any(n is node for n in ast.walk(statement)) else None
        else:
            return None


def _replaced(tree: Any, node: ast.AST, by: ast.AST) -> Any:
    """A copy of ``tree`` (one statement) with ``node`` replaced by ``by``; the original is left
    as it is (each node copied, with its place)."""
    if tree is node:
        return ast.copy_location(by, node)
    new = copy.copy(tree)
    for field, value in ast.iter_fields(tree):
        if isinstance(value, list):
            setattr(new, field, [_replaced(item, node, by) if isinstance(item, ast.AST) else item for item in value])
        elif isinstance(value, ast.AST):
            setattr(new, field, _replaced(value, node, by))
    return new


def _never_pins(args: Dict[str, BoundArg], opaque) -> bool:
    """Whether ``pin_memory`` is False whatever runs (not given, or every value False): only
    then can DL306 report, so only then is a returned loader followed to its callers (reading
    them can load other modules' summaries)."""
    if "pin_memory" in opaque:
        return False
    arg = args.get("pin_memory")
    if arg is None:
        return True
    value = arg.value
    return not value.is_unknown and bool(value.options) and all(option.value is False for option in value.options)


def _always_pins(args: Dict[str, BoundArg], opaque) -> bool:
    """Whether no value ``pin_memory`` may have is False (``pin_memory=True``; an unknown value
    is not ruled out): DL306, the only reader of the non-blocking copy,
    needs pin_memory False in every scenario, so the copy is not looked for (on accelerate, the
    search read every loop over 218 loaders, loading modules for their methods)."""
    if "pin_memory" in opaque:
        return False
    arg = args.get("pin_memory")
    if arg is None or arg.value.is_unknown or not arg.value.options:
        return False
    return all(option.value is not False and option.value is not ABSENT for option in arg.value.options)


def _no_helpers(name: str) -> None:
    """No helper of a module that never writes ``non_blocking`` copies non-blocking itself."""
    return None


def _mentioned(expr: ast.AST) -> List[ast.AST]:
    """The expressions a loop or call over ``expr`` is taken to walk: ``expr``, and the arguments
    of ``enumerate``, ``tqdm``, ``iter``, ``zip`` and ``islice`` around it (recursively), so
    ``for i, (a, b) in enumerate(zip(loader, other))`` is a loop over ``loader``; and both
    branches of a conditional expression (``for batch in (dl if use_wds else other_dl)`` walks
    ``dl`` on the runs where the test holds)."""
    out = [expr]
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and terminal(node.func) in _WRAPPERS:
            out.extend(node.args)
            stack.extend(node.args)
        elif isinstance(node, ast.IfExp):
            out.extend((node.body, node.orelse))
            stack.extend((node.body, node.orelse))
    return out


def _given(argument: ast.AST, name: Union[str, ast.AST]) -> bool:
    """Whether a call's argument is ``name`` (a name) or the very expression node ``name``
    (``loaders["train"]``): ``_iterates_argument``, ``_trainer_runs``."""
    return argument is name if isinstance(name, ast.AST) else isinstance(argument, ast.Name) and argument.id == name


def _getter_key(node: ast.AST) -> Optional[str]:
    """``"holder.load_data()"`` for a call without arguments of a method on a name: the key
    under which the index keeps loops and iterating calls over what such a getter hands out
    (``for batch in holder.load_data():``, ``ModuleAnalysis._held_iteration``)."""
    if (
        isinstance(node, ast.Call)
        and not node.args
        and not node.keywords
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
    ):
        return f"{node.func.value.id}.{node.func.attr}()"
    return None


_WRAPPERS = ("enumerate", "tqdm", "iter", "zip", "islice", "progressbar", "chain")  # progressbar2: transfers._TRANSPARENT


def _branches(expr: ast.AST) -> List[ast.AST]:
    """``expr``, and both branches of a conditional expression, recursively: the objects an
    eager call over ``expr`` may call ``iter()`` on (not through other calls: those are calls of
    their own, eager or not)."""
    out, stack = [], [expr]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.IfExp):
            stack.extend((node.orelse, node.body))
    return out


# Callables that call ``iter()`` on arguments when they are called, not when their result is
# consumed (checked against CPython 3.11.7 with an object whose ``__iter__`` prints): a loader
# handed to one starts its workers on that line. By qualified name, which positional arguments
# are iterated: "first", "all", or "rest" (all but the first, a function). Lazy, and so not
# here: ``itertools.chain`` and ``chain.from_iterable`` (``iter()`` on their arguments only as
# they are consumed), ``reversed`` (no ``__reversed__`` on a DataLoader), and tqdm 4 (its
# ``__iter__`` is a generator: ``enumerate(tqdm(loader))`` does not touch the loader, checked
# with tqdm 4.70.1; a loop over ``tqdm(loader)`` is a loop over the loader, as before).
# ``iter``, ``min`` and ``max`` count in their one-argument form only.
EAGER_ITERATION: Dict[str, str] = {
    "builtins.iter": "first", "builtins.enumerate": "first", "builtins.zip": "all",
    "builtins.map": "rest", "builtins.filter": "rest",
    "builtins.list": "first", "builtins.tuple": "first", "builtins.set": "first",
    "builtins.frozenset": "first", "builtins.sorted": "first", "builtins.sum": "first",
    "builtins.any": "first", "builtins.all": "first", "builtins.min": "first", "builtins.max": "first",
    "itertools.islice": "first", "itertools.cycle": "first", "itertools.zip_longest": "all",
    "itertools.product": "all", "itertools.starmap": "rest", "itertools.takewhile": "rest",
    "itertools.dropwhile": "rest", "itertools.filterfalse": "rest", "itertools.tee": "first",
    "itertools.accumulate": "first", "itertools.pairwise": "first", "itertools.compress": "all",
    "itertools.groupby": "first",
}  # fmt: skip
_EAGER_NAMES = frozenset(qualname.rsplit(".", 1)[1] for qualname in EAGER_ITERATION)
_ONE_ARGUMENT = frozenset({"builtins.iter", "builtins.min", "builtins.max"})
_COMPREHENSION_NODES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _loop_iterable(loop: ast.AST) -> ast.AST:
    """What a counted loop walks: a ``for``'s iterable, a comprehension's first one."""
    return loop.iter if hasattr(loop, "iter") else loop.generators[0].iter


_RETURNS_SELF = MODULE_RETURNS_SELF


def _branch(site: Site) -> tuple:
    """Which branch of its function a site is on: the identities of the conditions around it
    (an arm of an ``if`` or a ``try``, an early exit before it, a loop), a division excepted.
    Sites of one block share them: their loaders run together or not at all."""
    return tuple(id(cond) for cond in site.conds if cond.kind != "divides")


def _combined_use(inner, outer):
    """What a relay's caller sees of a loader (``ModuleAnalysis._relayed``): ``inner`` is what
    the factory does with it (``_use_in``), ``outer`` what the relay does with the factory's
    result. A loader the factory iterates runs where the relay calls it; one it returns whole
    is what the relay does with the result; one it returns inside a tuple is followed only when
    the relay returns that tuple whole."""
    if inner == "runs":
        return "runs"
    if inner == "returns":
        return outer
    if isinstance(inner, tuple) and inner[0] == "element" and outer == "returns":
        return inner
    if isinstance(inner, tuple) and inner[0] == "element" and len(inner) == 3 and isinstance(outer, tuple) and outer[0] == "unpacked":
        # the relay unpacks the factory's tuple: what it does with the name the loader lands in
        return dict(outer[2]).get(inner[1]) if inner[2] == outer[1] else None
    return None


def _test_module(path: str) -> bool:
    """A module pytest collects or helps (``test_*.py``, ``*_test.py``, ``conftest.py``, or under
    a ``tests``/``test`` folder): pytest imports it, no script does."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py" or any(p in ("tests", "test") for p in parts[:-1])


# ``facts``: a twin shape whose first call is not a loader (or does not bind), or whose analysis
# holds places other than its own line (``_twin_source``).
_UNBOUND = object()
_UNSHARED = -1

_WORD = re.compile(r"\w+")


def _twin_root(call: ast.Call) -> str:
    """The first name of the callee of a call whose arguments are all literals (``_twin_shapes``),
    "" for any other call."""
    if not all(_literal_argument(arg) for arg in (*call.args, *call.keywords)):
        return ""
    root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    return root.id if isinstance(root, ast.Name) else ""


def _literal_argument(arg: ast.AST) -> bool:
    """Whether an argument is a literal (``[1]``, ``num_workers=2``, ``(0.5, -1)``): no name,
    call, splat or ``**``; what it resolves to is the same wherever it is written."""
    if isinstance(arg, ast.keyword):
        return arg.arg is not None and _literal_argument(arg.value)
    if isinstance(arg, ast.Constant):
        return True
    if isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
        return all(_literal_argument(e) for e in arg.elts)
    if isinstance(arg, ast.Dict):
        return all(k is not None and _literal_argument(k) for k in arg.keys) and all(_literal_argument(v) for v in arg.values)
    if isinstance(arg, ast.UnaryOp):
        return _literal_argument(arg.operand)
    if isinstance(arg, ast.BinOp):
        return _literal_argument(arg.left) and _literal_argument(arg.right)
    return False


def _twin_source(loader: LoaderClass, bound: LoaderCall) -> bool:
    """Whether a call's analysis can serve its twins (``ModuleAnalysis._twin_shapes``): torch's own
    loader (no subclass or ``partial`` placing values elsewhere), and nothing in the analysis
    but the call's own places (no iteration, copy, sampler, guard or origin line found)."""
    if loader.chain or loader.preargs or bound.extra or bound.opaque:
        return False
    if bound.unguarded_iteration is not None or bound.returned or bound.in_loop or bound.nonblocking_copy is not None:
        return False
    if bound.fresh_iterators or bound.sampler_epochs is not None or bound.location.row != bound.end_location.row:
        return False
    row = bound.location.row
    for arg in bound.args.values():
        if arg.location.row != row or arg.end_location.row != row:
            return False
        if any(p.guards or (p.origin is not None and p.origin.line) for p in arg.value.options or ()):
            return False
    return True


def _certainly_workers(bound: LoaderCall) -> bool:
    """Whether the loader has workers on every path: a positive number, or the machine's core
    count (``os.cpu_count()`` and positive arithmetic on it, at least 1 everywhere)."""
    workers = bound.value("num_workers")
    if workers.is_unknown:
        return (source_lower_bound(workers.source) or 0) >= 1
    return _numbered_workers(bound)


def _numbered_workers(bound: LoaderCall) -> bool:
    """Whether every possible num_workers of the loader is a positive number."""
    from dl_lint.analysis.loaders import DEFAULTS
    from dl_lint.analysis.values import scenarios

    found = scenarios({"num_workers": bound.value("num_workers")}, DEFAULTS, holds=bound.extra.get("holds", ()))
    if not found:
        return False
    for scenario in found:
        possible = scenario["num_workers"]
        value = DEFAULTS.get("num_workers") if possible.value is ABSENT else possible.value
        if not (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0):
            return False
    return True


def _mentions_own_parameter(call: ast.Call, function: ast.AST) -> bool:
    """Whether a loader call in a method names one of the method's own parameters (not the
    object): only then do the method's calls give it values of their own (a method reading
    ``self.batch_size`` alone gets the same at every call)."""
    args = function.args
    own = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)[1:]}
    return bool(own) and any(isinstance(node, ast.Name) and node.id in own for node in ast.walk(call))


def _none_binding(binding: Binding) -> bool:
    """``name = None``: a placeholder before the real binding."""
    return binding.kind == "assign" and isinstance(binding.value, ast.Constant) and binding.value.value is None


def _iter_walks_attr(method: ast.AST, me: Optional[str], attr: str) -> bool:
    """Whether ``__iter__`` loops over ``self.<attr>`` or calls ``iter()`` on it (so iterating
    the object starts the loader's workers)."""
    for node in ast.walk(method):
        if isinstance(node, (ast.For, ast.AsyncFor)) and _is_self_attr(_loop_iterable(node), me, attr):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "iter"
            and len(node.args) == 1
            and _is_self_attr(node.args[0], me, attr)
        ):
            return True
    return False


def _is_self_attr(node: Optional[ast.AST], me: Optional[str], attr: str) -> bool:
    """``self.attr`` (``me`` the method's first parameter), also inside ``enumerate(...)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "enumerate" and node.args:
        node = node.args[0]
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) and node.value.id == me


# Library functions that make an object whose ``optimize(func)`` runs ``func`` before it returns
# (``ModuleAnalysis._runner_calls``; optuna 5.1.0 ``optuna/__init__.py`` re-exports both).
_STUDY_MAKERS = frozenset(
    {"optuna.create_study", "optuna.load_study", "optuna.study.create_study", "optuna.study.load_study", "optuna.study.study.create_study", "optuna.study.study.load_study"}
)


def _first_param(function: ast.AST) -> Optional[str]:
    args = [*function.args.posonlyargs, *function.args.args]
    return args[0].arg if args else None


def _enclosing_function(node: ast.AST, parents: Mapping[int, ast.AST]) -> Optional[ast.AST]:
    """The innermost function or lambda around ``node`` (``parents``: a module's walk), or None
    for code that runs where the module runs it."""
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return parent
        parent = parents.get(id(parent))
    return None


def _loop_key(subscript: ast.Subscript, key: str, parents: Mapping[int, ast.AST]) -> bool:
    """Whether ``subscript``'s key is the variable of a ``for`` around it over a literal list or
    tuple of strings that holds ``key`` (``for phase in ["train", "val"]: ... loaders[phase]``):
    on the pass with that key it reads ``loaders[key]``."""
    return key in _loop_keys(subscript, parents)


def _loop_keys(subscript: ast.Subscript, parents: Mapping[int, ast.AST]) -> List[str]:
    """The keys ``subscript`` reads when its key is the variable of a ``for`` around it (in the
    same function) over a literal list or tuple of strings: each of them; [] otherwise."""
    name = subscript.slice
    if not isinstance(name, ast.Name):
        return []
    node = parents.get(id(subscript))
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == name.id:
            if not isinstance(node.iter, (ast.List, ast.Tuple)):
                return []
            keys = [literal(e) for e in node.iter.elts]
            return keys if all(isinstance(k, str) for k in keys) else []
        node = parents.get(id(node))
    return []


def _stores_arguments(method: ast.FunctionDef) -> bool:
    """Whether every statement of ``method`` (a docstring and ``pass`` aside) stores one of its
    parameters or a constant on ``self``: ``self.offset = offset``."""
    params = [a.arg for a in (*method.args.posonlyargs, *method.args.args)]
    if not params or method.decorator_list or method.args.vararg or method.args.kwarg:
        return False
    own, stored = params[0], False
    for statement in method.body:
        if isinstance(statement, ast.Pass) or (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
            continue
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            return False
        target, value = statement.targets[0], statement.value
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == own):
            return False
        if not (isinstance(value, ast.Constant) or (isinstance(value, ast.Name) and value.id in params[1:])):
            return False
        stored = True
    return stored


def _constant_arguments(call: ast.Call) -> bool:
    """Whether every argument of ``call`` is a literal constant (``-1`` too)."""
    values = [*call.args, *(k.value for k in call.keywords)]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return False
    return all(literal(v) is not NO_LITERAL for v in values)


# Methods that put what they are given into the object (DL302's ``_loop_changes``).
_FILLS = frozenset({"append", "extend", "insert", "add", "update", "appendleft", "extendleft"})


def _loop_changes(loop: ast.AST, receiver=None) -> Tuple[Dict[str, int], Set[int], Set[str], Dict[str, List[ast.Call]]]:
    """DL302, for one loop: the row from which each name or attribute chain holds what the
    loop changes (its variable: 0; a chain the body assigns from such a value: that
    assignment's row; a sibling attribute, ``self.epoch = epoch``, is not ``self.data``), followed in
    source order through assignments, ``for`` targets, ``with ... as`` names and ``:=``; the
    rows of blocks that run at most once (an ``if`` whose test requires ``not flag`` and whose
    body sets ``flag = True``: the unfreeze step of many detection repositories); and the names
    chains whose object the loop changes in place (a method called as a statement,
    ``name.m(...)``, or an attribute or item of it assigned or deleted: ``name``; ``self.epoch =
    e``: ``self.epoch``; ``self.m(...)``: what ``receiver`` says method m changes, when it can
    tell), anywhere in the loop: a change made in one pass is there in the next; a method called
    as a statement with constant arguments only (``ds.set_random_offset(0)``) is kept apart, by
    chain, for the caller to tell a setter from a change. One walk of the loop serves every loader in it."""
    target = getattr(loop, "target", None)
    changed_at: Dict[str, int] = {n.id: 0 for n in ast.walk(target) if isinstance(n, ast.Name)} if target is not None else {}
    writes = []
    once: Set[int] = set()
    mutated: Set[str] = set()
    constant_calls: Dict[str, List[ast.Call]] = {}
    augmented: Set[str] = set()  # chains an augmented assignment of the body changes
    plain: Set[str] = set()  # chains the body binds otherwise
    # What decides whether a statement of the body runs: the tests of the ``if``/``while``
    # around it and the iterables of the inner ``for`` loops, inside this loop. A list filled
    # (``+=``, ``append``, ``extend``) under a test that reads what the loop changes holds what
    # differs from pass to pass too (``if sub not in held_out: train_files += files[sub]``: a
    # fold's subset built by filling a list, as cross-validation scripts do); a plain
    # assignment under such a test (``if epoch % 5 == 0: test_set = Data(...)``) does not.
    deciders: Dict[int, List[ast.AST]] = {}
    stack: List[Tuple[ast.AST, Tuple[ast.AST, ...]]] = [(child, ()) for child in ast.iter_child_nodes(loop) if child is not getattr(loop, "iter", None)]
    while stack:
        parent, tests = stack.pop()
        if tests:
            deciders[id(parent)] = list(tests)
        inner = tests
        if isinstance(parent, (ast.If, ast.While)):
            inner = tests + (parent.test,)
        elif isinstance(parent, (ast.For, ast.AsyncFor)):
            inner = tests + (parent.iter,)
        for child in ast.iter_child_nodes(parent):
            stack.append((child, inner if child is not getattr(parent, "test", None) else tests))
    for node in ast.walk(loop):
        if node is loop:
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
            known = receiver(node.value) if receiver is not None else None
            if known is not None:  # ``self.m(...)``: what the method is seen to change
                mutated.update(known)
                continue
            owner = _chain(node.value.func.value)  # ``x.m(...)``: anything of x may change
            if owner is not None:
                if node.value.func.attr in _FILLS and isinstance(node.value.func.value, (ast.Name, ast.Attribute)):
                    # ``files.append(f)``: files holds what f holds (and what decides that it runs)
                    writes.append((node.lineno, node.col_offset, [node.value.func.value], [*node.value.args, *deciders.get(id(node), ())]))
                if _constant_arguments(node.value):
                    constant_calls.setdefault(owner, []).append(node.value)
                else:
                    mutated.add(owner)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            for changed in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                # ``x.a = v`` rebinds x.a (and changes x); ``x[i] = v`` changes x
                owner = _chain(changed) if isinstance(changed, ast.Attribute) else _chain(changed.value) if isinstance(changed, ast.Subscript) else None
                if owner is not None:
                    mutated.add(owner)
        bound: List[Tuple[List[ast.AST], ast.AST]] = []  # (targets, value) this node binds
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            bound.append((node.targets if isinstance(node, ast.Assign) else [node.target], node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            bound.append(([node.target], node.iter))
        elif isinstance(node, (ast.With, ast.AsyncWith)):  # ``with open(fn) as f``
            bound.extend(([item.optional_vars], item.context_expr) for item in node.items if item.optional_vars is not None)
        elif isinstance(node, ast.NamedExpr):
            bound.append(([node.target], node.value))
        for targets, value in bound:
            # an accumulation (``files += more``) keeps what earlier rounds added: what decides
            # whether it runs decides what it holds; a plain assignment holds its value alone
            decided = deciders.get(id(node), ()) if isinstance(node, ast.AugAssign) else ()
            writes.append((node.lineno, node.col_offset, targets, [value, *decided]))
            if not isinstance(node, ast.AugAssign):
                plain.update(b for t in targets for b in _bound_chains(t))
        if isinstance(node, ast.AugAssign) and isinstance(node.target, (ast.Name, ast.Attribute)):
            augmented.update(_bound_chains(node.target))
        if isinstance(node, ast.If) and node.body and _runs_once(node):
            once.update(range(node.body[0].lineno, (node.body[-1].end_lineno or node.body[-1].lineno) + 1))
    # An accumulator (``start += len(fold)``, anywhere in the body, even after the loader) holds
    # a new value on every pass, unless the body also assigns it plainly (then its rows decide).
    for chain in augmented - plain:
        changed_at.setdefault(chain, 0)
    if changed_at:
        writes.sort(key=lambda w: (w[0], w[1]))
        for row, _, targets, reads in writes:  # in source order: a chain of assignments follows in one pass
            if any(_overlap(read, changed) for value in reads for read in _chains(value) for changed in changed_at):
                for t in targets:
                    for bound in _bound_chains(t):
                        changed_at.setdefault(bound, row)
    return changed_at, once, mutated, constant_calls


def _bound_chains(target: ast.AST):
    """What an assignment target binds: ``x`` of ``x`` and of ``x, y``; ``self.epoch`` of
    ``self.epoch = ...``; ``x`` of ``x[i] = ...`` (an item of x)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _bound_chains(element)
    elif isinstance(target, ast.Starred):
        yield from _bound_chains(target.value)
    else:
        found = _chain(target.value if isinstance(target, ast.Subscript) else target)
        if found is not None:
            yield found


def _chain(node: ast.AST) -> Optional[str]:
    """``a.b.c`` of ``a.b.c``; ``a.b`` of ``a.b[i].c`` (what follows an item is not told
    apart); None when the chain does not start from a name."""
    parts: List[str] = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
        else:
            parts.clear()  # the part after an item: some object inside the one before
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _chains(node: ast.AST):
    """The longest name or attribute chains an expression reads (``self.data`` of
    ``Subset(self.data, idx)``: ``Subset``, ``self.data``, ``idx``), with the items' indices."""
    stack = [node]  # no recursion: a generated expression may nest thousands deep
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
            found = _chain(node)
            if found is not None:
                yield found
            while isinstance(node, (ast.Attribute, ast.Subscript)):
                if isinstance(node, ast.Subscript):
                    stack.append(node.slice)
                node = node.value
            if not isinstance(node, ast.Name):
                stack.append(node)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _overlap(read: str, changed: str) -> bool:
    """Whether the object a chain reads is what a change reaches: the same chain, one inside
    the other (``self.data`` and ``self.data.max_len``, ``self`` whose method ran and
    ``self.data``); a sibling (``self.epoch`` set, ``self.data`` read) is not."""
    return read == changed or read.startswith(changed + ".") or changed.startswith(read + ".")


def _runs_once(node: ast.If) -> bool:
    """``if ... and not flag:`` whose body sets ``flag = True``; the flag a name or an attribute
    chain (``not opt.refine_start`` ... ``opt.refine_start = True``: DenseFusion's switch to
    its refiner, which rebuilds its datasets and loaders once in the epoch loop)."""
    tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And) else [node.test]
    flags = {
        _flag_text(t.operand) for t in tests if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and _flag_text(t.operand)
    }
    return bool(flags) and any(
        isinstance(statement, ast.Assign)
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is True
        and any(_flag_text(t) in flags for t in statement.targets)
        for statement in node.body
    )


def _flag_text(node: ast.AST) -> str:
    """``flag`` or ``opt.refine_start`` (a name, or attributes of a name), else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _static(function: ast.AST) -> bool:
    """Whether a method is a ``staticmethod`` (its first parameter is not the object)."""
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)


# Parameters named like an options object, whose attributes a loader reads (``def make(cfg):``
# ``num_workers=cfg.workers``): argparse namespaces, config classes and objects, settings.
CONFIG_PARAMETER_NAMES = NAMESPACE_NAMES | frozenset(
    {"cfg", "config", "conf", "configs", "hp", "hps", "hparam", "hyp", "params", "param", "para", "settings", "setting", "C"}
)


def _parallel_displays(loop: ast.AST, site: Site, resolver) -> List[Tuple[str, ast.AST]]:
    """(variable, list or tuple display) for each loop variable bound to the elements of a
    display in turn: ``for v in [a, b]``; ``for i, v in enumerate([a, b])``; ``for k, v in
    zip(["train", "val"], [a, b])`` (``zip`` and ``enumerate`` the builtins, every argument a
    display, one target name per argument)."""
    target, iterable = loop.target, loop.iter
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return [(target.id, iterable)] if isinstance(target, ast.Name) else []
    if not isinstance(iterable, ast.Call) or iterable.keywords or not isinstance(target, ast.Tuple):
        return []
    name = iterable.func.id if isinstance(iterable.func, ast.Name) else ""
    if name not in ("zip", "enumerate"):
        return []
    single = resolver.resolve(iterable.func, site).single
    if single is None or getattr(single.value, "qualname", None) != f"builtins.{name}":
        return []  # a function of the module named zip
    arguments = list(iterable.args)
    if name == "enumerate":
        if len(arguments) != 1 or len(target.elts) != 2:
            return []
        arguments = [None, arguments[0]]
    if len(arguments) != len(target.elts):
        return []
    return [
        (variable.id, display)
        for variable, display in zip(target.elts, arguments)
        if isinstance(variable, ast.Name) and isinstance(display, (ast.List, ast.Tuple))
    ]


def _reads_namespace_parameter(call: ast.Call, function: ast.AST, own_flags) -> bool:
    """Whether an argument of ``call`` reads an attribute of a parameter of ``function`` named
    like an options object (``num_workers=args.workers`` in ``def make(args):``,
    ``cfg.workers`` in ``def make(cfg):``): what it holds is the caller's, so the function is
    judged at its calls. ``own_flags()``: the dests
    of this module's own parser; such an attribute is already read as its default
    (``Resolver._is_namespace``), so it does not count."""
    params = set(_param_names(function)) & CONFIG_PARAMETER_NAMES
    if not params:
        return False
    for value in (*call.args, *(k.value for k in call.keywords)):
        while isinstance(value, ast.Attribute):
            attr, value = value.attr, value.value
            if isinstance(value, ast.Name) and value.id in params and attr not in own_flags():
                return True
    return False


def _reads_parameter_item(call: ast.Call, function: ast.AST, scope) -> bool:
    """Whether an argument of ``call`` reads a string key of a parameter of ``function``:
    ``num_workers=cfg["NUM_WORKERS"]``, ``cfg.get("workers", 4)``, or a name of the function
    bound once to such a read (``NUM_WORKERS = config_dict["NUM_WORKERS"]``, dfobot's
    factories; ``scope``: the function's names, from the module index): a config dict the
    caller hands it, so the function is judged at its calls (``judge.judge_call_sites``, where
    a dict display or a name bound to one resolves)."""
    params = set(_param_names(function))
    if not params:
        return False

    def item(node: ast.AST) -> bool:
        if isinstance(node, ast.Subscript):
            key = node.slice
            return isinstance(node.value, ast.Name) and node.value.id in params and isinstance(key, ast.Constant) and isinstance(key.value, str)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            base, key = node.func.value, node.args[0]
            return isinstance(base, ast.Name) and base.id in params and isinstance(key, ast.Constant) and isinstance(key.value, str)
        return False

    for value in (*call.args, *(k.value for k in call.keywords)):
        if item(value):
            return True
        if isinstance(value, ast.Name) and value.id not in params and scope is not None:
            bindings = scope.bindings.get(value.id, ())
            if len(bindings) == 1 and bindings[0].kind == "assign" and item(bindings[0].value):
                return True
    return False


def _mentions_namespace_parameter(call: ast.Call, function: ast.AST) -> bool:
    """Whether an argument of ``call`` reads an attribute of a parameter of ``function`` named
    like an argparse namespace anywhere in its expression (``num_workers=int(opt.nThreads)``,
    ``shuffle=not opt.serial_batches``)."""
    params = set(_param_names(function)) & NAMESPACE_NAMES
    if not params:
        return False
    for value in (*call.args, *(k.value for k in call.keywords)):
        for node in ast.walk(value):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
                return True
    return False


def _dispatch_dicts(tree: ast.Module, factories: Dict[str, Tuple[str, ...]]) -> List[str]:
    """Module-level names bound to dict displays holding a factory by name, at any depth
    (``D = {"a": {"train": make_a}}``, or ``D["a"] = {"train": make_a}`` after ``D = {}``)."""
    found: List[str] = []
    for statement in tree.body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1 or not isinstance(statement.value, ast.Dict):
            continue
        target = statement.targets[0]
        while isinstance(target, ast.Subscript):
            target = target.value
        if not isinstance(target, ast.Name) or target.id in found:
            continue
        if any(isinstance(n, ast.Name) and n.id in factories for n in ast.walk(statement.value)):
            found.append(target.id)
    return found


def _param_names(function: ast.AST) -> List[str]:
    args = function.args
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]


__all__ = ["ModuleFacts", "ModuleAnalysis", "analyze_source", "END"]
