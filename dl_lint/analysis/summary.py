"""A module as other modules see it: a small, plain-data summary, built from the one parse.

When the module being linted imports a constant, subclasses a dataset or calls a helper of
another module, the project index answers from that module's ``ModuleSummary``: its module-level
bindings (imports, assignments with the source text of their values, functions, classes), and
for top-level classes and functions the facts the dataset rules need (which methods shard by
worker, what ``__init__`` stores, what ``__getitem__`` reads...). Everything is strings,
numbers and tuples: a summary pickles cheaply (worker processes) and is stored as JSON in the
results cache by content hash, so an unchanged module is never parsed again.

References to other modules (base classes, called helpers, random generators) are kept as
source text and resolved when a question is asked (``SummaryModule``), because what they mean
depends on other files.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from dl_lint.analysis.datasets import ITEMSIZE, SHARDING_NAMES
from dl_lint.analysis.namespaces import (
    _writes_dict, build_writes, built_by, edited_attributes, expanded_set_defaults, namespace_return, option_classes, returns_dicts,
    static_builder, statements_of,
)
from dl_lint.analysis.scopes import Binding, Cond, FunctionUse, ModuleIndex, Site
from dl_lint.analysis.syntax import SourceText, docstring_statement, parse_expression, terminal
from dl_lint.analysis.values import literal_mark
from dl_lint.record import Record, as_dict

# Texts of module-level values longer than this are not kept: such a value (a generated table)
# is unknown to importers, which is what resolving it would give anyway.
MAX_TEXT = 2000
MAX_TEXT_LINES = 60
SUMMARY_FORMAT = 37  # 37: init_held has what __init__ appends to a container on self

_CONTAINER_CALLS = frozenset({"list", "dict", "sorted", "defaultdict", "OrderedDict"})


class BindingRecord(Record):
    """A module-level binding. ``kind`` as in ``scopes.Binding``; ``text`` is the value's source
    (assign/unpack; None when too large); imports keep ``base`` (``..pkg.mod`` for a
    from-import, "" for ``import x``), ``target`` (the imported name) and ``asname``."""

    __slots__ = ("name", "kind", "line", "conds", "text", "index", "base", "target", "asname")

    def __init__(
        self,
        name: str,
        kind: str,
        line: int,
        conds: Tuple[int, ...] = (),  # indices into ModuleSummary.conds
        text: Optional[str] = None,
        index: int = 0,
        base: Optional[str] = None,
        target: str = "",
        asname: Optional[str] = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.line = line
        self.conds = conds
        self.text = text
        self.index = index
        self.base = base
        self.target = target
        self.asname = asname


class MutationRecord(Record):
    """``D.update(...)`` (``text`` is the call) or ``D[k] = v`` (``text`` is the statement)."""

    __slots__ = ("name", "kind", "line", "conds", "text")

    def __init__(self, name: str, kind: str, line: int, conds: Tuple[int, ...], text: Optional[str]) -> None:
        self.name = name
        self.kind = kind
        self.line = line
        self.conds = conds
        self.text = text


class MethodRecord(Record):
    __slots__ = ("name", "shards", "self_calls", "called", "passes", "copies", "hands", "transfers")

    def __init__(
        self,
        name: str,
        shards: bool,
        self_calls: Tuple[str, ...],
        called: Tuple[str, ...],
        passes: Tuple[int, ...] = (),
        # DL306, as ``FunctionRecord.copies`` and ``.hands`` (positions after self).
        copies: Tuple[Tuple[int, int, int], ...] = (),
        hands: Tuple[Tuple[int, str, Tuple[int, ...]], ...] = (),
        # DL306, as ``FunctionRecord.transfers``: the parameters it iterates copying the batches
        # non-blocking (positions after self): ``trainer.train(epoch, loader)``.
        transfers: Tuple[Tuple[str, int, int, int], ...] = (),
    ) -> None:
        self.copies = copies
        self.hands = hands
        self.transfers = transfers
        self.name = name
        self.shards = shards
        self.self_calls = self_calls
        self.called = called
        self.passes = passes  # DL206: ``passes_through`` of the method (positions after self)


class ClassRecord(Record):
    __slots__ = (
        "name", "line", "bases", "keeps_signature", "methods", "init_containers", "init_rngs", "getitem_reads",
        "draws", "cuda_methods", "iter_shape", "sample", "init", "init_held", "init_stores", "init_objects",
        "method_returns", "init_attrs", "iter_copies", "assigns", "other_names", "setattr_config", "init_held_none",
        "init_held_default", "class_attrs", "dataclass", "returns_self", "static_builds", "init_relays",
        "local_returns",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        line: int,
        bases: Tuple[str, ...],  # positional bases, as source text
        keeps_signature: bool,  # no __init__, or __init__(self, *args, **kwargs)
        methods: Tuple[MethodRecord, ...],
        init_containers: Tuple[str, ...],
        init_rngs: Tuple[Tuple[str, str], ...],  # (attr, callee text) for ``self.attr = callee(...)``
        getitem_reads: Tuple[str, ...],
        draws: Tuple[str, ...],
        cuda_methods: Tuple[str, ...],
        # DL201's fix: (row, indent, start row, start col, end row, end col, text) of the iterable
        # of a one-statement ``__iter__``.
        iter_shape: Optional[Tuple[int, str, int, int, int, int, str]] = None,
        # DL101: the fields of one sample (``sample_bytes``), when every ``return`` of
        # ``__getitem__`` builds tensors of known shapes and numbers.
        sample: Optional[Tuple[Tuple[Any, ...], ...]] = None,
        # How ``__init__`` passes its arguments on to the base's (``subclasses.read_init``): None
        # when the class has no ``__init__``, ``subclasses.UNREADABLE`` when it cannot be read.
        init: Optional[Tuple] = None,
        # DL202: ``self.attr = VALUE`` in ``__init__`` where VALUE holds a lambda or a function
        # defined in ``__init__`` (attr, VALUE's text, line, those functions' names), resolved
        # when asked (``pickling.held_callable``); and the parameters ``__init__`` keeps on self
        # (name, position among the positional ones after self, or -1).
        init_held: Tuple[Tuple[str, str, int, Tuple[str, ...]], ...] = (),
        init_stores: Tuple[Tuple[str, int], ...] = (),
        # DL202, what an attribute object keeps: ``self.attr = CALLEE(...)`` as a statement of
        # ``__init__``'s own body, the only assignment of ``self.attr`` there (attr, CALLEE's
        # text, line): a project class built there is pickled with the dataset
        # (``DatasetIndex.unpicklable``); CALLEE ``self.m`` is a method whose result is kept.
        init_objects: Tuple[Tuple[str, str, int], ...] = (),
        # The methods ``init_objects`` calls on self whose body holds a lambda or defines a
        # function: (name, ((text, line) of each ``return``'s value, ...), its local functions);
        # no entry when a ``return`` has no value or its text is too long.
        method_returns: Tuple[Tuple[str, Tuple[Tuple[str, int], ...], Tuple[str, ...]], ...] = (),
        # What ``__init__`` stores on self for a subclass's methods to read (``self.num_workers``
        # set by a base class): (attr, "param", parameter, position after self or -1, default
        # text or "", line) for ``self.attr = parameter``, (attr, "value", text, -1, "", line)
        # for a literal or a module-level name; only for an attribute that one unconditional
        # statement of ``__init__``'s own body sets, and nothing else in the class.
        init_attrs: Tuple[Tuple[str, str, str, int, str, int], ...] = (),
        # DL306, a class the loader is handed to (``PrefetchLoader(loader)``, ``Trainer(model,
        # train_loader)``): the attributes of self its ``__iter__`` or another method loops over,
        # copying the batches with non_blocking=True: (attr, row, column) of the first copy
        # (``transfers.iter_copies``); what ``__init__`` stores there is ``init_attrs``.
        iter_copies: Tuple[Tuple[str, int, int], ...] = (),
        # DL202: the attributes any method of the class sets on self (``self.transform = ...``):
        # one a base's ``__init__`` keeps from a parameter is then not certainly that argument.
        assigns: Tuple[str, ...] = (),
        # DL306, a method looked up through the bases (``SummaryModule.method_home``): the names
        # the class body binds by anything but a ``def`` (``parse_batch = staticmethod(f)``, an
        # import, a nested class), which a lookup finds before any base's.
        other_names: Tuple[str, ...] = (),
        # A config whose ``__init__`` sets attributes from keywords (``configs.setattr_configs``):
        # (mode, checked, ((attr, default text, line), ...), names something else may set).
        setattr_config: Optional[Tuple] = None,
        # DL202: ``self.attr = VALUE`` holding a lambda or local function that ``__init__`` runs
        # only on the path a test of a parameter selects (``if p is None: self.attr = lambda x:
        # True`` with ``else: self.attr = p``; ``p or (lambda x: x)``; ``if augment: ... else:
        # self.transform = lambda i: i``; ``_held_when_none``): (attr, VALUE's text, line, local
        # functions, parameter, position after self or -1, (kind, the mark of the parameter's
        # default)). A construction whose literal argument (or the default it leaves) takes that
        # path keeps it (``values.takes_path``).
        init_held_none: Tuple[Tuple[str, str, int, Tuple[str, ...], str, int, Tuple[str, str]], ...] = (),
        # DL202: ``self.attr = param`` where the parameter's default is a lambda (``transform=
        # lambda x: x``) or a module-level name bound to one (``target_transform=identity``):
        # (attr, the lambda's text, its line, (), parameter, position after self or -1). A
        # construction that leaves the parameter out keeps the lambda.
        init_held_default: Tuple[Tuple[str, str, int, Tuple[str, ...], str, int], ...] = (),
        # Class attributes that hold one value for the whole run (``class_constants``): (attr,
        # the value's text, line), read through the class or an instance (``opt = Config()``,
        # ``opt.num_workers``; a config class of plain attributes).
        class_attrs: Tuple[Tuple[str, str, int], ...] = (),
        # A decorator named ``dataclass`` (``@dataclass``, ``@dataclasses.dataclass(frozen=True)``):
        # an importer reads the class's fields from its module (``Resolver._dataclass_owner``).
        dataclass: bool = False,
        # Methods every ``return`` of which gives the object back (``return self``: a fluent
        # ``Runner(cfg).enter_train()`` is the instance; ``Resolver._returned_self``).
        returns_self: Tuple[str, ...] = (),
        # ``@staticmethod``s every ``return`` of which constructs something (``namespaces.built_by``):
        # ``ImageNetDataset.get_test(path)`` is then resolved in this module
        # (``Resolver._static_factory``); asking the summary first keeps a comment edit from
        # making importers rest on the module's bytes.
        static_builds: Tuple[str, ...] = (),
        # DL202: ``__init__`` calls its base's as a statement of its own body (``_relays_init``).
        init_relays: bool = False,
        # DL202: (method, kind, name, row) of each method every ``return`` of which hands back a
        # lambda or a function it defines (``hands_back``: ``def get_collate_fn(self): def
        # _collate(batch): ...; return _collate``; ``Resolver._returned_local``).
        local_returns: Tuple[Tuple[str, str, str, int], ...] = (),
    ) -> None:
        self.local_returns = local_returns
        self.init_relays = init_relays
        self.static_builds = static_builds
        self.returns_self = returns_self
        self.dataclass = dataclass
        self.class_attrs = class_attrs
        self.init_held_default = init_held_default
        self.other_names = other_names
        self.setattr_config = setattr_config
        self.iter_copies = iter_copies
        self.assigns = assigns
        self.init_attrs = init_attrs
        self.name = name
        self.line = line
        self.init_objects = init_objects
        self.method_returns = method_returns
        self.bases = bases
        self.init = init
        self.init_held = init_held
        self.init_held_none = init_held_none
        self.init_stores = init_stores
        self.keeps_signature = keeps_signature
        self.sample = sample
        self.methods = methods
        self.init_containers = init_containers
        self.init_rngs = init_rngs
        self.getitem_reads = getitem_reads
        self.draws = draws
        self.cuda_methods = cuda_methods
        self.iter_shape = iter_shape


class FunctionRecord(Record):
    __slots__ = (
        "name", "line", "params", "shards", "called", "uses_cuda", "reseeds", "transfers", "passes", "namespace",
        "edited", "builds", "build_writes", "collates", "hands_back", "returns_held", "copies", "transfer_calls", "hands",
        "method_calls", "returns_param", "returns_config", "returns_dicts",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        line: int,
        params: Tuple[Tuple[str, Optional[str]], ...],  # (name, default text) of named parameters
        shards: bool,
        called: Tuple[str, ...],
        uses_cuda: bool,
        reseeds: bool,
        # DL306: parameters the function iterates, copying the batches with non_blocking=True:
        # (name, position among positional parameters or -1, row, column of the copy).
        transfers: Tuple[Tuple[str, int, int, int], ...] = (),
        # DL206: positions of the parameters the function is a generator over (``passes_through``).
        passes: Tuple[int, ...] = (),
        # What the function returns of an argparse parse (``namespaces.namespace_return``).
        namespace: Optional[int] = None,
        # For such a function: the attributes it sets (``namespaces.edited_attributes``).
        edited: Tuple[str, ...] = (),
        # A factory (``namespaces.built_by``): (callee text, row) of what each ``return`` builds.
        builds: Tuple[Tuple[str, int], ...] = (),
        # DL202, for such a factory: (attribute, what, row) of each lambda or local function it
        # stores on the object it returns (``namespaces.build_writes``).
        build_writes: Tuple[Tuple[str, str, int], ...] = (),
        # DL101: the fields of the batch a collate_fn returns when they are fixed by the batch's
        # length and literals (``collate_fields``): dims "__batch__" are the batch's samples.
        collates: Optional[Tuple[Tuple[Any, ...], ...]] = None,
        # DL202: the local callable every ``return`` hands back (``hands_back``): (kind, name, row).
        hands_back: Optional[Tuple[str, str, int]] = None,
        # DL202, a helper whose result an object keeps (``self.transform =
        # _build_transform(size)``): ((text, line) of each ``return``'s value, the functions it
        # defines), when its source holds a lambda or a nested ``def`` (``held_returns``).
        returns_held: Optional[Tuple[Tuple[Tuple[str, int], ...], Tuple[str, ...]]] = None,
        # DL306: (position, row, column) of the positional parameters the function copies to a
        # device with non_blocking=True (``transfers.parameter_copies``).
        copies: Tuple[Tuple[int, int, int], ...] = (),
        # DL306: calls of imported functions its loops over a parameter give the batches to:
        # (parameter, position or -1, callee text, argument positions) (``transfers.transfer_calls``).
        transfer_calls: Tuple[Tuple[str, int, str, Tuple[int, ...]], ...] = (),
        # DL306: imported functions it hands a positional parameter to: (position, callee text,
        # argument positions) (``transfers.parameter_handoffs``).
        hands: Tuple[Tuple[int, str, Tuple[int, ...]], ...] = (),
        # DL306: methods of another parameter its loops over a parameter give the batches to:
        # (iterated parameter, position or -1, object's parameter, position or -1, method,
        # argument positions) (``transfers.method_calls``); the class is the caller's.
        method_calls: Tuple[Tuple[str, int, str, int, str, Tuple[int, ...]], ...] = (),
        # The parameters it hands back unchanged (``returned_params``): (index in the returned
        # tuple, or -1 for the whole value; tuple length or 0; parameter; its position or -1).
        returns_param: Tuple[Tuple[int, int, str, int], ...] = (),
        # A config file it loads and returns (``keypaths.returned_config``): (dialect, position
        # of the parameter naming the file or -1, that parameter, literal path, edited keys).
        returns_config: Optional[Tuple[Any, ...]] = None,
        # Every ``return`` gives a dict display (``namespaces.returns_dicts``): a call of it
        # spread into a loader is read through its returns (``Resolver._returned_dicts``).
        returns_dicts: bool = False,
    ) -> None:
        self.returns_dicts = returns_dicts
        self.returns_config = returns_config
        self.returns_param = returns_param
        self.method_calls = method_calls
        self.hands = hands
        self.copies = copies
        self.transfer_calls = transfer_calls
        self.collates = collates
        self.returns_held = returns_held
        self.hands_back = hands_back
        self.builds = builds
        self.build_writes = build_writes
        self.passes = passes
        self.namespace = namespace
        self.edited = edited
        self.name = name
        self.line = line
        self.params = params
        self.shards = shards
        self.called = called
        self.uses_cuda = uses_cuda
        self.reseeds = reseeds
        self.transfers = transfers


class ModuleSummary(Record):
    __slots__ = (
        "path", "module", "is_package", "bindings", "conds", "mutations", "classes", "functions", "star_import",
        "arguments", "stars", "all_names", "option_classes",
    )  # fmt: skip

    def __init__(
        self,
        path: str,
        module: str,
        is_package: bool,
        bindings: Tuple[BindingRecord, ...],
        conds: Tuple[Tuple[str, Optional[str], bool], ...],
        mutations: Tuple[MutationRecord, ...],
        classes: Tuple[ClassRecord, ...],
        functions: Tuple[FunctionRecord, ...],
        star_import: bool = False,
        # The module's ``add_argument(...)`` and ``set_defaults(...)`` calls as (text, line), when
        # one of its functions returns a namespace or a parser (``namespaces``): its importers
        # read those defaults.
        arguments: Tuple[Tuple[str, int], ...] = (),
        # Each ``from BASE import *`` in order, as (BASE as written, conditional): a name no
        # statement binds may come from one (``Resolver.starred``).
        stars: Tuple[Tuple[str, bool], ...] = (),
        # What ``from this import *`` binds, when the module sets ``__all__``: its names when one
        # unconditional assignment of a literal list or tuple of strings sets it and nothing
        # changes it, ``("*",)`` when it is set otherwise (unknown); ``None`` without
        # ``__all__`` (the module's public names, as Python does).
        all_names: Optional[Tuple[str, ...]] = None,
        # ``namespaces.option_classes``: classes that add argparse flags and parse them
        # (pix2pix's ``BaseOptions``/``TrainOptions``), read by ``Resolver.option_parse``.
        option_classes: Tuple[Tuple[Any, ...], ...] = (),
    ) -> None:
        self.option_classes = option_classes
        self.all_names = all_names
        self.stars = stars
        self.arguments = arguments
        self.path = path
        self.module = module
        self.is_package = is_package
        self.bindings = bindings
        self.conds = conds
        self.mutations = mutations
        self.classes = classes
        self.functions = functions
        self.star_import = star_import

    # -- storage --------------------------------------------------------------------------------
    def digest(self) -> str:
        """A hash of everything importers can see of this module."""
        import hashlib
        import json

        blob = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")).encode()
        return hashlib.blake2b(blob, digest_size=16).hexdigest()

    def to_json(self) -> Dict[str, Any]:
        data = as_dict(self)
        data["format"] = SUMMARY_FORMAT
        return data

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "ModuleSummary":
        if data.get("format") != SUMMARY_FORMAT:
            raise ValueError("summary format")

        def tuples(value):
            return tuple(tuple(v) if isinstance(v, list) else v for v in value)

        return cls(
            path=data["path"],
            module=data["module"],
            is_package=bool(data["is_package"]),
            bindings=tuple(
                BindingRecord(**{**b, "conds": tuple(b["conds"])}) for b in data["bindings"]
            ),
            conds=tuple((c[0], c[1], bool(c[2])) for c in data["conds"]),
            mutations=tuple(MutationRecord(**{**m, "conds": tuple(m["conds"])}) for m in data["mutations"]),
            classes=tuple(
                ClassRecord(
                    **{
                        **c,
                        "bases": tuple(c["bases"]),
                        "methods": tuple(
                            MethodRecord(
                                m["name"],
                                bool(m["shards"]),
                                tuple(m["self_calls"]),
                                tuple(m["called"]),
                                tuple(m.get("passes", ())),
                                tuples(m.get("copies", ())),
                                _hands(m.get("hands", ())),
                                tuples(m.get("transfers", ())),
                            )
                            for m in c["methods"]
                        ),
                        "init_containers": tuple(c["init_containers"]),
                        "init_rngs": tuples(c["init_rngs"]),
                        "getitem_reads": tuple(c["getitem_reads"]),
                        "draws": tuple(c["draws"]),
                        "cuda_methods": tuple(c["cuda_methods"]),
                        "iter_shape": tuple(c["iter_shape"]) if c["iter_shape"] is not None else None,
                        "sample": _deep_tuple(c["sample"]) if c.get("sample") is not None else None,
                        "init": _deep_tuple(c["init"]) if c.get("init") is not None else None,
                        "init_held": _deep_tuple(c.get("init_held", ())),
                        "init_held_none": _deep_tuple(c.get("init_held_none", ())),
                        "init_held_default": _deep_tuple(c.get("init_held_default", ())),
                        "init_stores": _deep_tuple(c.get("init_stores", ())),
                        "init_objects": _deep_tuple(c.get("init_objects", ())),
                        "method_returns": _deep_tuple(c.get("method_returns", ())),
                        "init_attrs": _deep_tuple(c.get("init_attrs", ())),
                        "class_attrs": _deep_tuple(c.get("class_attrs", ())),
                        "iter_copies": tuples(c.get("iter_copies", ())),
                        "assigns": tuple(c.get("assigns", ())),
                        "other_names": tuple(c.get("other_names", ())),
                        "returns_self": tuple(c.get("returns_self", ())),
                        "local_returns": _deep_tuple(c.get("local_returns", ())),
                        "static_builds": tuple(c.get("static_builds", ())),
                        "setattr_config": _deep_tuple(c["setattr_config"]) if c.get("setattr_config") is not None else None,
                    }
                )
                for c in data["classes"]
            ),
            functions=tuple(
                FunctionRecord(
                    **{
                        **f,
                        "params": tuples(f["params"]),
                        "called": tuple(f["called"]),
                        "transfers": tuples(f["transfers"]),
                        "copies": tuples(f.get("copies", ())),
                        "hands": _hands(f.get("hands", ())),
                        "transfer_calls": tuple(
                            (str(a), int(b), str(c), tuple(d)) for a, b, c, d in f.get("transfer_calls", ())
                        ),
                        "method_calls": tuple(
                            (str(a), int(b), str(c), int(d), str(e), tuple(g)) for a, b, c, d, e, g in f.get("method_calls", ())
                        ),
                        "returns_param": tuples(f.get("returns_param", ())),
                        "returns_config": (
                            (*f["returns_config"][:4], _deep_tuple(f["returns_config"][4])) if f.get("returns_config") else None
                        ),
                        "passes": tuple(f.get("passes", ())),
                        "namespace": f.get("namespace"),
                        "edited": tuple(f.get("edited", ())),
                        "builds": tuples(f.get("builds", ())),
                        "build_writes": tuples(f.get("build_writes", ())),
                        "hands_back": tuple(f["hands_back"]) if f.get("hands_back") else None,
                        "returns_held": _deep_tuple(f["returns_held"]) if f.get("returns_held") else None,
                        "collates": _deep_tuple(f["collates"]) if f.get("collates") is not None else None,
                    }
                )
                for f in data["functions"]
            ),
            star_import=bool(data.get("star_import", False)),
            arguments=tuples(data.get("arguments", ())),
            stars=tuple((str(b), bool(c)) for b, c in data.get("stars", ())),
            all_names=tuple(data["all_names"]) if data.get("all_names") is not None else None,
            option_classes=_deep_tuple(data.get("option_classes", [])),
        )

    # -- the module-level index, rebuilt -----------------------------------------------------
    def module_index(self) -> ModuleIndex:
        """A ModuleIndex holding this module's module-level bindings and mutations, for a
        ``Resolver`` (values are parsed from their text when first resolved)."""
        index = ModuleIndex()
        index.star_import = self.star_import
        index.stars = list(self.stars)
        scope = index.module_scope
        conds: List[Cond] = []
        for kind, text, polarity in self.conds:
            test = parse_expression(text) if text is not None else None
            if kind == "if" and test is None:
                test = ast.Name(id="__dl_lint_unknown__", ctx=ast.Load())
            conds.append(Cond(kind, test, polarity))

        def site(line: int, indices: Sequence[int]) -> Site:
            return Site(line, tuple(conds[i] for i in indices), None, scope)

        for record in self.bindings:
            where = site(record.line, record.conds)
            if record.kind == "import":
                alias = ast.alias(name=record.target, asname=record.asname)
                if record.base is None:
                    node: ast.AST = ast.Import(names=[alias])
                else:
                    level = len(record.base) - len(record.base.lstrip("."))
                    node = ast.ImportFrom(module=record.base[level:] or None, names=[alias], level=level)
                scope.add(Binding(record.name, "import", node, site=where, alias=alias))
            elif record.kind in ("assign", "unpack"):
                value = _LazyExpression(record.text, record.line) if record.text is not None else None
                kind = record.kind if value is not None else "other"
                scope.add(LazyBinding(record.name, kind, None, value=value, site=where, index=record.index))
            else:
                scope.add(Binding(record.name, record.kind, None, site=where))
        for mutation in self.mutations:
            if mutation.text is None:
                node = None
            elif mutation.kind == "setitem":
                node = _parse_statement(mutation.text, mutation.line)
            else:
                node = parse_expression(mutation.text, mutation.line)
            where = site(mutation.line, mutation.conds)
            if node is None:
                index.mutations.setdefault((None, mutation.name), []).append(("other", ast.Pass(), where))
            else:
                index.mutations.setdefault((None, mutation.name), []).append((mutation.kind, node, where))
        index.pending_arguments = self.arguments  # parsed when asked (``read_arguments``)
        return index


def read_arguments(index: ModuleIndex) -> None:
    """Parse the ``add_argument``/``set_defaults`` calls a summary keeps into the index rebuilt
    from it, the first time an importer reads that module's parser."""
    pending, index.pending_arguments = index.pending_arguments, ()
    for text, line in pending:
        call = parse_expression(text, line)
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            continue
        if call.func.attr == "add_argument":
            index.add_arguments.append(call)
        else:
            index.calls.append((call, Site(line, (), None, index.module_scope), "", None))


def _deep_tuple(value: Any) -> Any:
    """JSON's lists back into the tuples they were."""
    return tuple(_deep_tuple(v) for v in value) if isinstance(value, list) else value


class _LazyExpression:
    __slots__ = ("text", "line")

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line


class LazyBinding(Binding):
    """A binding whose value is parsed from the summary's text when first read."""

    __slots__ = ()

    def __getattribute__(self, name: str):
        value = object.__getattribute__(self, name)
        if name == "value" and type(value) is _LazyExpression:
            parsed = parse_expression(value.text, value.line)
            object.__setattr__(self, "value", parsed)
            if parsed is None:
                object.__setattr__(self, "kind", "other")
            return parsed
        return value


def _parse_statement(text: str, line: int) -> Optional[ast.stmt]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1:
        return None
    ast.increment_lineno(tree, line - 1)
    return tree.body[0]


# -- building ------------------------------------------------------------------------------------


def build_summary(
    tree: ast.Module, index: ModuleIndex, text: SourceText, path: str, module: str, is_package: bool
) -> ModuleSummary:
    cond_ids: Dict[Cond, int] = {}
    conds: List[Tuple[str, Optional[str], bool]] = []

    def cond_indices(site: Optional[Site]) -> Tuple[int, ...]:
        out = []
        for cond in site.conds if site is not None else ():
            if cond not in cond_ids:
                cond_ids[cond] = len(conds)
                conds.append((cond.kind, _text(text, cond.test) if cond.test is not None else None, cond.polarity))
            out.append(cond_ids[cond])
        return tuple(out)

    bindings: List[BindingRecord] = []
    for name, found in index.module_scope.bindings.items():
        for binding in found:
            line = binding.site.line if binding.site is not None else 0
            if binding.kind == "import":
                node, alias = binding.node, binding.alias
                base = None if isinstance(node, ast.Import) else "." * (node.level or 0) + (node.module or "")
                bindings.append(
                    BindingRecord(name, "import", line, cond_indices(binding.site), base=base, target=alias.name, asname=alias.asname)
                )
            elif binding.kind in ("assign", "unpack"):
                bindings.append(
                    BindingRecord(
                        name,
                        binding.kind,
                        line,
                        cond_indices(binding.site),
                        text=_text(text, binding.value),
                        index=binding.index,
                    )
                )
            else:
                bindings.append(BindingRecord(name, binding.kind, line, cond_indices(binding.site)))
    mutations: List[MutationRecord] = []
    for (function, name), found in index.mutations.items():
        if function is not None:
            continue
        for kind, node, site in found:
            kept = _text(text, node) if kind in ("update", "setitem") else None
            mutations.append(MutationRecord(name, kind if kept is not None else "other", site.line, cond_indices(site), kept))
    sharding = _sharding_names(index)
    copies = _copies_of(index, text)
    assigned: Dict[str, List[str]] = {}
    for cls, attr in index.self_attrs:
        assigned.setdefault(cls, []).append(attr)
    transfers = _transfers_of(index, text)
    classes = tuple(_class_record(node, index, text, sharding, copies, assigned, transfers) for node in index.module_classes)
    functions = tuple(_function_record(node, index, text, sharding, transfers, copies) for node in index.module_functions)
    arguments: List[Tuple[str, int]] = []
    # Kept for importers where a namespace can leave the module: a helper returning it, or a
    # ``parser.parse_args()`` whose result a function hands to another module's factory.
    if index.add_arguments and (
        any(f.namespace is not None for f in functions)
        or any(isinstance(c.func, ast.Attribute) and c.func.attr == "parse_args" for c, _, _, _ in index.calls)
    ):
        for call in index.add_arguments:
            kept = _text(text, call)
            if kept is not None:
                arguments.append((kept, call.lineno))
        for call, site, _scope, _cls in index.calls:
            if isinstance(call.func, ast.Attribute) and call.func.attr == "set_defaults":
                if any(k.arg is None for k in call.keywords):
                    expanded = expanded_set_defaults(tree, index, call, site.scope)
                    if expanded is not None:  # the keys a helper's calls set, as literals at their lines
                        for dest, value, line in expanded:
                            shown = _text(text, value) if value is not None else None
                            arguments.append((f"x.set_defaults(**{{{dest!r}: {shown if shown is not None else '_unknown_()'}}})", line))
                        continue
                kept = _text(text, call)
                arguments.append((kept, call.lineno) if kept is not None else ("x.set_defaults(**_)", call.lineno))
    return ModuleSummary(
        path=path,
        module=module,
        is_package=is_package,
        bindings=tuple(bindings),
        conds=tuple(conds),
        mutations=tuple(mutations),
        classes=classes,
        functions=functions,
        star_import=index.star_import,
        arguments=tuple(arguments),
        stars=tuple(index.stars),
        all_names=_all_names(index),
        option_classes=option_classes(tree, index, lambda node: _text(text, node)),
    )


def class_record_of(index: ModuleIndex, text: SourceText, name: str, shared: Dict[str, Any]) -> Optional[ClassRecord]:
    """The record ``build_summary`` makes of the module-level class ``name`` (the last class of
    that name, as ``SummaryModule`` keeps it), built alone: a construction of a class of the
    module itself asks only this much (``Resolver._handed_sizes``). ``shared``: the module-wide
    facts the records need, filled on the first call and passed again for the module."""
    nodes = [node for node in index.module_classes if node.name == name]
    if not nodes:
        return None
    if not shared:
        assigned: Dict[str, List[str]] = {}
        for cls, attr in index.self_attrs:
            assigned.setdefault(cls, []).append(attr)
        shared.update(sharding=_sharding_names(index), copies=_copies_of(index, text), assigned=assigned, transfers=_transfers_of(index, text))
    return _class_record(nodes[-1], index, text, shared["sharding"], shared["copies"], shared["assigned"], shared["transfers"])


def _all_names(index: ModuleIndex) -> Optional[Tuple[str, ...]]:
    """``summary.ModuleSummary.all_names``: a module's ``__all__``, read from its one
    unconditional assignment of a literal list or tuple of strings (``__all__ = classes =
    [...]`` too); ``("*",)`` for any other way of setting it (a sum, a call, ``+=``,
    ``.append``, two assignments, one under ``if``); None when the module never binds it."""
    bindings = index.module_scope.bindings.get("__all__")
    if not bindings:
        return None
    if len(bindings) != 1 or (None, "__all__") in index.mutations:
        return ("*",)
    for call, _site, _scope, _cls in index.calls:  # ``__all__.append(...)``, ``.extend(...)``
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__all__":
            return ("*",)
    binding = bindings[0]
    value = binding.value if binding.kind == "assign" else None
    if binding.site is None or binding.site.conds or not isinstance(value, (ast.List, ast.Tuple)):
        return ("*",)
    names = []
    for element in value.elts:
        if not isinstance(element, ast.Constant) or not isinstance(element.value, str):
            return ("*",)
        names.append(element.value)
    return tuple(names)


def _text(text: SourceText, node: Optional[ast.AST]) -> Optional[str]:
    if node is None:
        return None
    if (node.end_lineno or node.lineno) - node.lineno > MAX_TEXT_LINES:
        return None
    segment = text.segment(node)
    return segment if len(segment) <= MAX_TEXT else None


def _sharding_names(index: ModuleIndex) -> FrozenSet[str]:
    """SHARDING_NAMES and the names this module imports them as
    (``from torch.utils.data import get_worker_info as current_worker``), at module level or
    inside a function."""
    aliases = set()
    for scope in (index.module_scope, *index.scopes.values()):
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                alias = binding.alias
                if binding.kind == "import" and alias is not None and alias.name.rpartition(".")[2] in SHARDING_NAMES:
                    aliases.add(name)
    return SHARDING_NAMES | aliases if aliases else SHARDING_NAMES


def _transfers_of(index: ModuleIndex, text: SourceText):
    """DL306's facts per module-level function (``transfers.function_transfers``), computed
    only in modules that write ``non_blocking`` at all."""
    if "non_blocking" not in text.source or ".pin_memory(" in text.source:
        return lambda function: ()  # nothing to report, or a module that pins by hand
    from dl_lint.analysis.transfers import function_transfers, module_helpers

    helpers = module_helpers(index.module_functions)

    def span(node: ast.AST) -> Tuple[int, int]:
        where = text.start(node)
        return where.row, where.column

    return lambda function: function_transfers(function, helpers, span)


# ``_iter_copies``' answer per module: id of its text -> (the text, its copy helpers, or None
# when the module writes no ``non_blocking`` or pins by hand).
_COPY_HELPERS: Dict[int, Tuple[SourceText, Any]] = {}


def _iter_copies(nodes: Dict[str, ast.AST], index: ModuleIndex, text: SourceText) -> Tuple[Tuple[str, int, int], ...]:
    """``ClassRecord.iter_copies`` over the class's methods (``__iter__`` first, then in
    order), the first copy of each attribute; read only in a module that writes
    ``non_blocking`` and never pins by hand."""
    if not nodes:
        return ()
    kept = _COPY_HELPERS.get(id(text))
    if kept is None or kept[0] is not text:  # once per module, not per class (3,000 classes)
        from dl_lint.analysis.transfers import module_helpers

        reads = "non_blocking" in text.source and ".pin_memory(" not in text.source
        if len(_COPY_HELPERS) >= 16:
            _COPY_HELPERS.clear()
        kept = _COPY_HELPERS[id(text)] = (text, module_helpers(index.module_functions) if reads else None)
    helpers = kept[1]
    if helpers is None:
        return ()
    from dl_lint.analysis.transfers import iter_copies

    def span(found: ast.AST) -> Tuple[int, int]:
        where = text.start(found)
        return where.row, where.column

    found: Dict[str, Tuple[str, int, int]] = {}
    for name in sorted(nodes, key=lambda n: n != "__iter__"):
        for attr, row, column in iter_copies(nodes[name], helpers, span, nodes):
            found.setdefault(attr, (attr, row, column))
    return tuple(found.values())


def _hands(data) -> Tuple[Tuple[int, str, Tuple[int, ...]], ...]:
    return tuple((int(a), str(b), tuple(c)) for a, b, c in data)


def _method_copies(node: ast.AST, copies) -> Tuple[Tuple, Tuple]:
    """``MethodRecord.copies`` and ``.hands`` of a method that takes ``self`` (not a static
    method): its parameters after the first."""
    decorators = {getattr(d, "id", getattr(d, "attr", "")) for d in node.decorator_list}
    if decorators & {"staticmethod", "classmethod", "property"}:
        return (), ()
    found, _calls, hands, _methods = copies(node, 1)
    return found, hands


def _method_transfers(node: ast.AST, transfers) -> Tuple[Tuple[str, int, int, int], ...]:
    """``MethodRecord.transfers`` of a method that takes ``self`` (not a static or class
    method): ``transfers``' answer with positions counted after ``self``."""
    decorators = {getattr(d, "id", getattr(d, "attr", "")) for d in node.decorator_list}
    if decorators & {"staticmethod", "classmethod", "property"}:
        return ()
    return tuple((name, index - 1 if index > 0 else -1, row, column) for name, index, row, column in transfers(node) if index != 0)


def _copies_of(index: ModuleIndex, text: SourceText):
    """DL306's copies and hand-offs per module-level function (``transfers.parameter_copies``,
    ``transfers.transfer_calls``): copies only in modules that write ``non_blocking``, hand-offs
    only from functions that call a name the module imports and loop (a ``for`` in the source)."""
    has_copies = "non_blocking" in text.source and ".pin_memory(" not in text.source
    # Hand-offs are kept for names imported one by one (``from utils import to_gpu``, ``from
    # .parallel import async_copy_to``): a call of a module's attribute (``torch.cat(x)``,
    # ``utils.to_gpu(x)``) is asked of the loop's own module, not kept here (a cost filter:
    # walking every function that calls ``torch.*`` with a parameter slowed a cold run by half).
    imported = {
        name
        for name, bindings in index.module_scope.bindings.items()
        if any(b.kind == "import" and isinstance(b.node, ast.ImportFrom) for b in bindings)
    }
    # A loop's batches given to a method of another parameter (``model.parse_batch(batch)`` in
    # ``def train(model, loader)``): kept for the caller, who may know the object's class.
    owned: Set[int] = set()
    if "for " in text.source and ".pin_memory(" not in text.source and index.module_functions:
        params: Dict[int, Set[str]] = {}
        functions = {id(f) for f in index.module_functions}
        for call, site, _scope, _cls in index.calls:
            func = call.func
            scope = site.scope
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and call.args and id(scope) in functions):
                continue
            names = params.get(id(scope))
            if names is None:
                args = getattr(scope, "args", None)
                names = params[id(scope)] = (
                    {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} if isinstance(args, ast.arguments) else set()
                )
            if func.value.id in names:
                owned.add(id(scope))
    if ".pin_memory(" in text.source or not (has_copies or imported or owned):
        return lambda function, skip=0: ((), (), (), ())
    from dl_lint.analysis.transfers import method_calls, module_helpers, parameter_copies, parameter_handoffs, transfer_calls

    helpers = module_helpers(index.module_functions)

    def span(node: ast.AST) -> Tuple[int, int]:
        where = text.start(node)
        return where.row, where.column

    def accept(callee: str) -> bool:
        return callee in imported

    handed: Dict[int, List[ast.Call]] = {}  # the calls of imported names, per function (no walk)
    for call, site, _scope, _cls in index.calls if imported else ():
        if isinstance(call.func, ast.Name) and call.func.id in imported and call.args and site.scope is not None:
            handed.setdefault(id(site.scope), []).append(call)

    # Only a function whose own lines write ``non_blocking``, or that calls one of the module's
    # functions that do (or one calling those), can copy a parameter: the others are not walked.
    lines = text.source.splitlines() if has_copies else []

    def writes(node: ast.AST) -> bool:
        return any("non_blocking" in line for line in lines[node.lineno - 1 : node.end_lineno or node.lineno])

    copying: Set[str] = {f.name for f in index.module_functions if writes(f)} if has_copies else set()
    for _ in range(2):
        copying |= {
            f.name
            for f in index.module_functions
            if any(c in copying for c in (index.uses.get(id(f)) or FunctionUse()).called)
        }

    def may_copy(function: ast.AST) -> bool:
        use = index.uses.get(id(function))
        return writes(function) or (use is not None and any(c in copying for c in use.called))

    def facts(function: ast.AST, skip: int = 0):
        copies = parameter_copies(function, helpers, span, skip) if has_copies and may_copy(function) else ()
        calls = hands = methods = ()
        mine = handed.get(id(function))
        if (mine or id(function) in owned) and not skip and "for " in text.source:
            found = transfer_calls(function, helpers)
            calls = tuple(c for c in found if accept(c[2]))
            methods = method_calls(function, found) if id(function) in owned else ()
        if mine:
            scope = index.scopes.get(id(function))
            hands = parameter_handoffs(function, mine, scope.bindings if scope is not None else {}, skip)
        return copies, calls, hands, methods

    return facts


def _function_record(
    node: ast.AST,
    index: ModuleIndex,
    text: SourceText,
    sharding: FrozenSet[str] = SHARDING_NAMES,
    transfers=None,
    copies=None,
) -> FunctionRecord:
    use = index.uses.get(id(node)) or FunctionUse()
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = [(a.arg, _text(text, d)) for a, d in zip(positional, defaults)]
    params += [(a.arg, _text(text, d)) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    # Only a function that parses or builds a parser, in a module that adds arguments, can hand
    # its callers a namespace with readable options.
    namespace = namespace_return(node) if index.add_arguments and id(node) in index.parsing_functions else None
    returns_param = returned_params(node)
    # A function handing back the object it is given (``args = get_class_splits(args)``) also
    # records the attributes it sets: a caller reads the rest as they were (``_passed_namespace``).
    relays = any(e[0] == -1 for e in returns_param)
    built = built_by(node)
    return FunctionRecord(
        name=node.name,
        line=node.lineno,
        params=tuple(params),
        shards=bool(use.names & sharding),
        called=tuple(dict.fromkeys(use.called)),
        uses_cuda=use.cuda,
        reseeds=any("seed" in n.lower() or "rng" in n.lower() or "random" in n.lower() for n in use.names),
        transfers=transfers(node) if transfers is not None else (),
        **dict(zip(("copies", "transfer_calls", "hands", "method_calls"), copies(node) if copies is not None else ((), (), (), ()))),
        passes=passes_through(node),
        namespace=namespace,
        edited=edited_attributes(node, use.names) if namespace is not None or relays else (),
        builds=tuple((t, row) for t, row in ((_text(text, call.func), row) for call, row in built) if t is not None),
        build_writes=tuple(build_writes(node)) if built else (),
        returns_param=returns_param,
        returns_config=config_return(node, index, use),
        returns_dicts=returns_dicts(node),
        # walked only when it calls len() and a constructor that takes a shape (cheap to ask)
        collates=collate_fields(node) if _may_collate(node, use) else None,
        hands_back=hands_back(node),
        returns_held=held_returns(node, text),
    )


_CONFIG_NAMES = frozenset({"yaml", "json", "OmegaConf", "hyperpyyaml", "load_hyperpyyaml", "safe_load", "full_load"})


def config_return(function: ast.AST, index: ModuleIndex, use: Optional[FunctionUse] = None) -> Optional[Tuple[Any, ...]]:
    """``FunctionRecord.returns_config`` (``keypaths.returned_config``), asked only of a function
    that names a loading module or function (a set lookup before any walk)."""
    if use is None:
        use = index.uses.get(id(function)) or FunctionUse()
    if not (use.names & _CONFIG_NAMES):
        return None
    from dl_lint.analysis.configs.keypaths import returned_config

    local: Dict[str, str] = {}
    for statement in statements_of(function):
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            local.update(_import_names(statement))

    def qualname_of(expr: ast.AST) -> Optional[str]:
        parts: List[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        head = local.get(expr.id)
        if head is None:
            found = index.module_scope.bindings.get(expr.id, [])
            if len(found) == 1 and found[0].kind == "import":
                head = _import_names(found[0].node).get(expr.id)
            elif not found and expr.id in ("open", "dict"):
                head = f"builtins.{expr.id}"
        if head is None:
            return None
        return ".".join([head, *reversed(parts)])

    return returned_config(function, qualname_of)


def _import_names(node: ast.AST) -> Dict[str, str]:
    """The names an absolute import statement binds, to what they name."""
    out: Dict[str, str] = {}
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                out[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                out[head] = head
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
        for alias in node.names:
            out[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return out


def held_returns(function: ast.AST, text: SourceText) -> Optional[Tuple[Tuple[Tuple[str, int], ...], Tuple[str, ...]]]:
    """DL202: the values a function's ``return``s hand back, as (text, line), and the functions
    it defines, when its lines hold ``lambda`` or a nested ``def`` (a byte check before any
    walk) and every ``return`` has a value; None otherwise (also for a generator). Read when an
    object a dataset keeps is built by calling it (``pickling.held_callable`` on each)."""
    body = "\n".join(text.lines[function.lineno : function.end_lineno or function.lineno])  # type: ignore[attr-defined]
    if "lambda" not in body and "def " not in body:
        return None
    from dl_lint.analysis.namespaces import returns_of

    returns = returns_of(function)
    if not returns:
        return None
    local = _nested_functions(function)
    values = []
    for statement in returns:
        found = _text(text, statement.value) if statement.value is not None else None
        # a value holds one only if its text names a lambda or a function defined here
        if found is None or ("lambda" not in found and not any(name in found for name in local)):
            return None
        values.append((found, statement.value.lineno))  # type: ignore[union-attr]
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
        return None
    return tuple(values), tuple(sorted(local))


def _calls_a_name(value: Optional[ast.AST]) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name)


def _hands_on(function: ast.AST, name: str, returns: List[ast.Return]) -> Optional[Tuple[str, str, int]]:
    """("call", name, row) when every ``return`` of ``function`` is a call of the same global
    name, bound nowhere in the function (``default_partial(cls)`` returning ``partial(cls,
    kept)``): what that function hands back, when it is one of the module (read where the
    summary is asked, ``Resolver._imported_factory``)."""
    if not returns or not all(_calls_a_name(r.value) and r.value.func.id == name for r in returns):
        return None
    args = function.args  # type: ignore[attr-defined]
    if name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}:
        return None
    if any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))
        or isinstance(n, (ast.Yield, ast.YieldFrom))
        or isinstance(n, (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom))
        for n in ast.walk(function)
    ):
        return None
    return "call", name, returns[0].lineno


def hands_back(function: ast.AST) -> Optional[Tuple[str, str, int]]:
    """DL202 through a factory of another module (``worker_init_fn=get_seed_worker(seed)``):
    (kind, name, row) of the local callable that every ``return`` of ``function`` hands back,
    a lambda or a function defined directly in its body under a name bound nowhere else in it,
    or a class defined so ("local-class": ``partial(dataset_class, kept)`` returning ``class
    PartialDataset(dataset_class)``, whose instances cannot be pickled), or an instance of one
    ("local-instance": ``return ReidDataset(dataset, root, transform)``), or ("call", name,
    row) when every ``return`` calls one global function (``_hands_on``); None otherwise (a generator, a return of anything else, a name rebound)."""
    body = function.body  # type: ignore[attr-defined]
    last = body[-1] if body else None
    if not (isinstance(last, ast.Return) and (isinstance(last.value, (ast.Name, ast.Lambda)) or _calls_a_name(last.value))):
        return None  # most functions: asked of the last statement alone, before any walk
    nested = {n.name: n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    if isinstance(last.value, ast.Name) and last.value.id not in nested:
        return None
    from dl_lint.analysis.namespaces import returns_of

    if isinstance(last.value, ast.Call) and last.value.func.id not in nested:
        return _hands_on(function, last.value.func.id, returns_of(function))
    returns = returns_of(function)
    if not returns or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
        return None
    found: List[Tuple[str, str, int]] = []
    for statement in returns:
        value = statement.value
        if isinstance(value, ast.Lambda):
            found.append(("lambda", "<lambda>", value.lineno))
        elif isinstance(value, ast.Name) and value.id in nested:
            kind = "local-class" if isinstance(nested[value.id], ast.ClassDef) else "nested"
            found.append((kind, value.id, nested[value.id].lineno))
        elif _calls_a_name(value) and isinstance(nested.get(value.func.id), ast.ClassDef):
            if any(isinstance(n, ast.FunctionDef) and n.name in ("__reduce__", "__reduce_ex__") for n in nested[value.func.id].body):
                return None  # the class says how it pickles
            found.append(("local-instance", value.func.id, nested[value.func.id].lineno))
        else:
            return None
    names = {name for kind, name, _ in found if kind in ("nested", "local-class", "local-instance")}
    if names and sum(
        1 for n in ast.walk(function) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name in names
    ) != len(names):
        return None  # defined twice (in a branch too)
    if names and any(isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id in names for n in ast.walk(function)):
        return None  # rebound
    return found[0]


def _class_record(
    node: ast.ClassDef,
    index: ModuleIndex,
    text: SourceText,
    sharding: FrozenSet[str] = SHARDING_NAMES,
    copies=None,
    assigned: Optional[Dict[str, List[str]]] = None,
    transfers=None,
) -> ClassRecord:
    methods: Dict[str, FunctionUse] = {}
    nodes: Dict[str, ast.AST] = {}
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods[statement.name] = index.uses.get(id(statement)) or FunctionUse()
            nodes[statement.name] = statement
    init = methods.get("__init__")
    containers: List[str] = []
    rngs: List[Tuple[str, str]] = []
    for attr, value in init.self_assigns if init is not None else ():
        if _is_container(value):
            containers.append(attr)
        elif isinstance(value, ast.Call):
            while isinstance(value.func, ast.Attribute) and value.func.attr == "manual_seed" and isinstance(value.func.value, ast.Call):
                value = value.func.value  # ``torch.Generator().manual_seed(0)`` returns the generator (torch 2.13)
            callee = _text(text, value.func)
            if callee is not None:
                rngs.append((attr, callee))
    reached = _reachable(methods, ("__getitem__", "__iter__", "__getitems__"))
    return ClassRecord(
        name=node.name,
        line=node.lineno,
        bases=tuple(t for t in (_text(text, b) for b in node.bases) if t is not None),
        keeps_signature=_keeps_signature(node),
        methods=tuple(
            MethodRecord(
                name,
                bool(use.names & sharding),
                tuple(sorted(use.self_calls)),
                tuple(dict.fromkeys(use.called)),
                passes_through(nodes[name], skip=1),
                *(_method_copies(nodes[name], copies) if copies is not None else ((), ())),
                _method_transfers(nodes[name], transfers) if transfers is not None else (),
            )
            for name, use in methods.items()
        ),
        init_containers=tuple(dict.fromkeys(containers)),
        init_rngs=tuple(dict.fromkeys(rngs)),
        getitem_reads=tuple(sorted({a for m in ("__getitem__", "__getitems__") if m in methods for a in methods[m].subscripted})),
        draws=tuple(sorted({a for m in reached for a in methods[m].attr_calls} - _reseeded(nodes, reached))),
        cuda_methods=tuple(m for m in reached if methods[m].cuda),
        iter_shape=_iter_shape(node, text),
        sample=sample_bytes(node, init, index) or view_fields(node, init),
        init=_loader_init(node, text),
        **_kept_in_init(node, init, text, index),
        **_objects_in_init(nodes, text),
        init_attrs=_init_attrs(node, nodes.get("__init__"), init, index, text),
        iter_copies=_iter_copies(nodes, index, text),
        assigns=tuple(sorted(set((assigned or {}).get(node.name, ())))) if node.bases else (),
        other_names=_other_names(node),
        setattr_config=_setattr_config(node, text),
        class_attrs=tuple((attr, kept, value.lineno) for attr, value in class_constants(node) for kept in (_text(text, value),) if kept is not None),
        dataclass=any(terminal(d.func if isinstance(d, ast.Call) else d) == "dataclass" for d in node.decorator_list),
        returns_self=tuple(name for name, method in nodes.items() if _returns_self(method)),
        static_builds=tuple(name for name, method in nodes.items() if static_builder(method)),
        init_relays=_relays_init(nodes.get("__init__")),
        local_returns=_local_returns(nodes),
    )


def _local_returns(nodes: Dict[str, ast.AST]) -> Tuple[Tuple[str, str, str, int], ...]:
    """``ClassRecord.local_returns``: the methods (not dunders) that hand back a local callable."""
    found = []
    for name, method in nodes.items():
        if name.startswith("__") or not isinstance(method, ast.FunctionDef):
            continue
        handed = hands_back(method)
        if handed is not None and handed[0] in ("lambda", "nested"):
            found.append((name, *handed))
    return tuple(found)


def _relays_init(init: Optional[ast.AST]) -> bool:
    """Whether ``__init__`` calls its base's as a statement of its own body: ``super().__init__(
    ...)``, ``super(Cls, self).__init__(...)`` or ``Base.__init__(self, ...)`` (then what the
    base's ``__init__`` sets, the instance has). One in an ``if``, a loop or a ``try`` may not
    run: not counted."""
    for statement in getattr(init, "body", ()):
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"):
            continue
        owner = call.func.value
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            return True
        if isinstance(owner, (ast.Name, ast.Attribute)) and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == "self":
            return True
    return False


def _returns_self(method: ast.AST) -> bool:
    """Whether ``method`` (a plain method: not a generator, no decorator) hands its object back
    on every ``return``: ``return self``."""
    args = getattr(method, "args", None)
    positional = [*args.posonlyargs, *args.args] if args is not None else []
    if not positional or not isinstance(method, ast.FunctionDef) or method.decorator_list:
        return False
    own = positional[0].arg
    returns = [n for n in statements_of(method) if isinstance(n, ast.Return)]
    if not returns or not all(isinstance(r.value, ast.Name) and r.value.id == own for r in returns):
        return False
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(method))


# A class that may change or compute its attributes at run time: these methods (or their
# absence) decide what ``instance.attr`` reads.
_ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__getattr__", "__getattribute__", "__init_subclass__", "__new__", "__set_name__", "__class_getitem__"})
_WRITERS = frozenset({"setattr", "delattr", "vars"})


def class_constants(node: ast.ClassDef) -> List[Tuple[str, ast.expr]]:
    """Class attributes that hold one value for the whole run, read through the class or an
    instance of it (a config class of plain attributes: ``class Config: num_workers = 4``,
    ``opt = Config()``): bound once by a statement of the class body itself (``attr = value``
    or ``attr: T = value``, not under an ``if``), the value naming no other name of the class
    body and holding no lambda; written by nothing in the class (no ``self.attr =``, ``cls.attr
    =`` or ``Config.attr =`` in a method), in a class with no base but ``object``, no decorator
    (``@dataclass`` is read as such elsewhere), no metaclass, no ``setattr``/``vars``, no
    ``__dict__`` but one a method only reads (``json.dump(self.__dict__, f)``) and no attribute
    hooks. Writes from outside the class are the reader's to rule
    out (``Resolver._class_constant``)."""
    if node.decorator_list or node.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in node.bases):
        return []
    counts: Dict[str, int] = {}
    values: Dict[str, ast.expr] = {}
    for statement in node.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            name, value = statement.targets[0].id, statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value is not None:
            name, value = statement.target.id, statement.value
        else:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name in _ATTRIBUTE_HOOKS:
                return []
            for child in ast.walk(statement) if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ():
                if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                    counts[child.id] = 2  # bound by an ``if``, a loop, ``+=``, unpacking: not one value
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[statement.name] = 2
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                for alias in statement.names:
                    counts[(alias.asname or alias.name).split(".")[0]] = 2
            continue
        counts[name] = counts.get(name, 0) + 1
        values[name] = value
    if not values:
        return []
    # ``json.dump(self.__dict__, f)`` in a method reads the object's own attributes (never the
    # class's); a write through it (``self.__dict__.update(kwargs)``) or one outside a method may
    # set any attribute (DeepCAD's pc2cad.py Config saves its __dict__ in __init__)
    dicts = 0  # ``x.__dict__`` anywhere in the class
    for child in ast.walk(node):
        kind = type(child)
        if kind is ast.Attribute:
            if child.attr == "__dict__":
                dicts += 1
            elif isinstance(child.ctx, (ast.Store, ast.Del)):
                counts[child.attr] = 2
        elif kind is ast.Call and isinstance(child.func, ast.Name) and child.func.id in _WRITERS:
            return []
    if dicts:  # rare: only then are the methods walked again
        methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        in_methods = sum(1 for m in methods for n in ast.walk(m) if isinstance(n, ast.Attribute) and n.attr == "__dict__")
        if in_methods != dicts or any(_writes_dict(m) for m in methods):
            return []
    found = []
    for name, value in values.items():
        if counts.get(name) != 1:
            continue
        if any(
            isinstance(n, (ast.Lambda, ast.NamedExpr)) or (isinstance(n, ast.Name) and n.id in counts)
            for n in ast.walk(value)
        ):
            continue  # a method in disguise, or a value that reads the class body
        found.append((name, value))
    return found


def _setattr_config(node: ast.ClassDef, text: SourceText) -> Optional[Tuple]:
    """``ClassRecord.setattr_config``: a default too long to keep is unknown."""
    if not node.body or not any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in node.body):
        return None
    from dl_lint.analysis.configs.setattr_configs import setattr_shape

    shape = setattr_shape(node)
    if shape is None:
        return None
    mode, checked, fields, unknown = shape
    kept, lost = [], list(unknown)
    for name, value, line in fields:
        written = _text(text, value)
        if written is None:
            lost.append(name)
        else:
            kept.append((name, written, line))
    return (mode, checked, tuple(kept), tuple(sorted(lost)))


def returned_params(function: ast.AST) -> Tuple[Tuple[int, int, str, int], ...]:
    """``FunctionRecord.returns_param``: the parameters every ``return`` hands back as they came
    (never rebound in the function, which is not a generator): the whole value (``return model``
    after ``model.load_state_dict(...)``: tacotron2's ``warm_start_model``, a helper that
    registers hooks and returns its module), or one position of a tuple every ``return`` builds
    with the same length (``return model, optimizer, lr, iteration``). A caller takes the
    argument it passed there as the result (``Resolver._returned_argument``)."""
    if isinstance(function, ast.AsyncFunctionDef):
        return ()
    from dl_lint.analysis.namespaces import returns_of

    returns = returns_of(function)
    if not returns or any(r.value is None for r in returns):
        return ()
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    names = {*positional, *(a.arg for a in args.kwonlyargs)}
    first = returns[0].value
    if isinstance(first, ast.Name):
        if first.id not in names or any(not (isinstance(r.value, ast.Name) and r.value.id == first.id) for r in returns):
            return ()
        shapes = [(-1, 0, first.id)]
    elif isinstance(first, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in first.elts):
        size = len(first.elts)
        shapes = []
        for i, element in enumerate(first.elts):
            if not (isinstance(element, ast.Name) and element.id in names):
                continue
            if all(
                isinstance(r.value, ast.Tuple) and len(r.value.elts) == size
                and isinstance(r.value.elts[i], ast.Name) and r.value.elts[i].id == element.id
                for r in returns
            ):
                shapes.append((i, size, element.id))
    else:
        return ()
    if not shapes or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
        return ()
    from dl_lint.analysis.transfers import bound_names

    rebound = bound_names(function.body)
    return tuple(
        (i, size, name, positional.index(name) if name in positional else -1) for i, size, name in shapes if name not in rebound
    )


def _other_names(node: ast.ClassDef) -> Tuple[str, ...]:
    """``ClassRecord.other_names``: names the class body binds other than by ``def``."""
    out: List[str] = []
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(statement, ast.ClassDef):
            out.append(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            out.extend((a.asname or a.name).split(".")[0] for a in statement.names)
        else:
            out.extend(n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)))
    return tuple(dict.fromkeys(out))


def _init_attrs(node: ast.ClassDef, function: Optional[ast.AST], use: Optional[FunctionUse], index: ModuleIndex, text: SourceText):
    """``ClassRecord.init_attrs``: the attributes ``__init__`` sets once, unconditionally, to a
    parameter of its own (not rebound) or to a literal or module-level name."""
    if use is None or not use.self_assigns or not isinstance(function, ast.FunctionDef):
        return ()
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)][1:]
    defaults: Dict[str, Optional[ast.expr]] = {a: None for a in positional}
    for arg, default in zip(reversed((*args.posonlyargs, *args.args)), reversed(args.defaults)):
        defaults[arg.arg] = default
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        defaults[arg.arg] = default
    out = []
    for attr, value in use.self_assigns:
        entries = index.self_attrs.get((node.name, attr), ())
        if len(entries) != 1 or entries[0][2] != "__init__":
            continue
        _expr, site, _method = entries[0]
        if site.conds or site.scope is not function or not any(
            isinstance(s, ast.Assign) and s.value is value for s in function.body
        ):
            continue
        scope = site.names
        if isinstance(value, ast.Name) and value.id in defaults:
            if scope is None or len(scope.bindings.get(value.id, ())) != 1:
                continue  # rebound in ``__init__``
            default = defaults[value.id]
            kept = _text(text, default) if default is not None else ""
            if kept is None:
                continue
            position = positional.index(value.id) if value.id in positional else -1
            out.append((attr, "param", value.id, position, kept, value.lineno))
        elif isinstance(value, ast.Constant) or (
            isinstance(value, ast.Name) and scope is not None and not scope.bindings.get(value.id)
        ):
            kept = _text(text, value)
            if kept is not None:
                out.append((attr, "value", kept, -1, "", value.lineno))
    return tuple(out)


# DL101: the fields of one sample of a map-style dataset. A field is ("t", dims, dtype): a
# tensor (a number is one of no dims, collated to int64 or float64: 8 bytes) whose dims are ints
# or the names of ``__init__`` parameters kept on self (``self.block_size``), or (name, offset)
# for ``self.block_size + 1``; or ("img", parameter, channels, mode): what the transform an
# ``__init__`` parameter holds makes of an image of ``channels`` (``Image.open(p).convert("RGB")``).
# Dims given by parameters are read where the dataset is constructed (``Instance.given``).
# ("k", key, fields): the fields of a returned dict's value at a string key (a wrapper dataset may
# take that key of it); ("ds", parameter, keys): the sample (or the value at ``keys``) of the
# dataset an ``__init__`` parameter gives a wrapper dataset (``_inner_sample``).
_SHAPED = {"zeros": "float32", "ones": "float32", "empty": "float32", "rand": "float32", "randn": "float32", "full": "float32", "randint": "int64"}
_NUMPY_SHAPED = {"zeros": "float64", "ones": "float64", "empty": "float64", "full": "float64"}
_NUMPY_RANDOM = {"rand": "float64", "randn": "float64", "random": "float64", "randint": "int64"}
# Tensor methods that set the dtype, and those that keep dtype and element count.
_CASTS = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32", "bool": "bool", "byte": "uint8", "short": "int16", "bfloat16": "bfloat16"}
_KEEPING = frozenset({"clone", "contiguous", "copy", "detach", "cpu", "numpy", "flatten", "reshape", "view"})
_NUMPY = ("np", "numpy")
# What a tokenizer call with padding="max_length" returns per field (HF tokenizers: int ids).
_TOKEN_FIELDS = frozenset({"input_ids", "attention_mask", "token_type_ids", "special_tokens_mask"})
_IMAGE_MODES = {"RGB": 3, "L": 1, "RGBA": 4}


def sample_bytes(node: ast.ClassDef, init: Optional[FunctionUse] = None, index: Optional[ModuleIndex] = None) -> Optional[Tuple[Any, ...]]:
    """The fields of one sample of a map-style dataset (see above), when every ``return`` of its
    ``__getitem__`` is made of tensors of known shapes (torch's and numpy's constructors of literal
    shapes, fixed-length slices of an array of known dtype, a tokenizer's fields padded to a
    fixed length, a fixed-size image transform kept on self) and numbers; the first return's
    fields when all returns agree. With the ``__init__`` parameters' literal defaults:
    ``(fields, defaults)``. None otherwise."""
    getitem = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__getitem__"), None
    )
    if getitem is None:
        return None
    assigned: Dict[str, List[ast.expr]] = {}
    params = getitem.args.args
    if len(params) >= 2:  # the index: an int (a number once collated)
        assigned[params[1].arg] = [ast.Constant(0)]
    returns: List[ast.expr] = []
    filled: Set[str] = set()  # names written into by element (``data[0] = ...``)
    # A copy: ``_sequenced`` may give the body itself, and popping from it emptied the tree's
    # ``__getitem__`` for everything that read the module after its summary was built.
    todo = list(_sequenced(getitem.body))
    while todo:
        statement = todo.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(statement, ast.Return):
            if statement.value is None:
                return None
            returns.append(statement.value)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            assigned.setdefault(statement.targets[0].id, []).append(statement.value)
        elif _audio_unpack(statement):  # ``y, sr = librosa.load(path, sr=16000)``: y is the array
            first, *rest = statement.targets[0].elts
            assigned.setdefault(first.id, []).append(statement.value)
            for name in rest:
                assigned.setdefault(name.id, []).append(ast.Constant(None))
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and _element_store(statement.targets[0]):
            filled.add(statement.targets[0].value.id)  # type: ignore[attr-defined]  # ``data[0, :, :] = wind_u``
        elif isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(ast.Constant(None))  # unpacked, augmented: unknown
        elif isinstance(statement, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            targets = [statement.target] if isinstance(statement, (ast.For, ast.AsyncFor)) else [i.optional_vars for i in statement.items if i.optional_vars]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(ast.Constant(None))
        elif isinstance(statement, (ast.Yield, ast.YieldFrom)):
            return None
        for child in ast.iter_child_nodes(statement):
            if isinstance(child, ast.stmt):
                todo.append(child)
    if not returns:
        return None
    for name in filled:
        # an element write keeps an array's shape and dtype (numpy casts the value into it, torch
        # too): only for a name bound once to numpy's or torch's shaped constructors; any other
        # value written into (a dict or list sample, ``sample["image"] = crop(...)``) is unknown
        values = assigned.get(name, [])
        if not (len(values) == 1 and _shaped_constructor(values[0])):
            assigned.setdefault(name, []).append(ast.Constant(None))
    kept = _Kept(node, init, index)  # read only when a field names self's attributes
    # A part the code does not size (a label looked up in a dict beside an image tensor) is
    # counted as 0 bytes: the figure is then a lower bound, which is all DL101 needs to say a
    # batch is at least that large. At least one part must be known, and every return agree.
    found = [_fields(value, assigned, kept, 0, lenient=True) for value in returns]
    if any(f is None for f in found) or any(f != found[0] for f in found):
        return None
    if all(field == UNKNOWN_PART for field in flat_fields(found[0])):  # type: ignore[arg-type]
        return None
    if kept.pipeline:
        # a subclass's own ``__init__`` may build another pipeline: only for this class. Its dims
        # may be parameters used as they are (``RandomCrop(height=size, ...)``): their positions.
        return (tuple(found[0]), _init_defaults(node), True, _init_positions(node))  # type: ignore[arg-type]
    return (tuple(found[0]), _init_defaults(node))  # type: ignore[arg-type]


def _element_store(target: ast.expr) -> bool:
    """``data[0, :, :] = ...``: a subscript of a bare name, its index made of constants, names
    and slices (nothing bound by it)."""
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and not any(
        isinstance(n, (ast.NamedExpr, ast.Call)) for n in ast.walk(target.slice)
    )


def _shaped_constructor(node: ast.expr) -> bool:
    """``np.empty((2, t, h, w), dtype=np.float32)``, ``torch.zeros(...)``: a new array of a shape
    and dtype that element writes keep."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)):
        return False
    owner, attr = node.func.value.id, node.func.attr
    return (owner in _NUMPY and attr in _NUMPY_SHAPED) or (owner == "torch" and attr in ("zeros", "ones", "empty", "full"))


def view_fields(node: ast.ClassDef, init: Optional[FunctionUse]) -> Optional[Tuple[Any, ...]]:
    """A multi-view transform (contrastive learning's ``TwoCropTransform``): a class without
    ``__getitem__`` whose ``__call__(self, x)`` only returns a list or tuple of transforms kept
    on self applied to ``x`` (``return [self.transform(x), self.transform(x)]``): one
    ("img", parameter, None) field per view, the image's channels the caller's. None otherwise."""
    body = {s.name: s for s in node.body if isinstance(s, ast.FunctionDef)}
    call = body.get("__call__")
    if call is None or "__getitem__" in body:
        return None
    args = call.args
    if len(args.args) != 2 or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return None
    image = args.args[1].arg
    statements = [s for s in call.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(statements) != 1 or not isinstance(statements[0], ast.Return):
        return None
    views = statements[0].value
    if not isinstance(views, (ast.List, ast.Tuple)) or not 2 <= len(views.elts) <= 16:
        return None
    kept = _Kept(node, init, None)
    fields = []
    for view in views.elts:
        if not (isinstance(view, ast.Call) and len(view.args) == 1 and not view.keywords
                and isinstance(view.args[0], ast.Name) and view.args[0].id == image):  # fmt: skip
            return None
        param = _param_of(view.func, kept)
        if param is None:
            return None
        fields.append(("img", param, None))
    return (tuple(fields), _init_defaults(node))


def is_views(sample: Any) -> bool:
    """Whether a class's ``sample`` is a multi-view transform's (``view_fields``)."""
    return bool(sample) and bool(sample[0]) and all(f[0] == "img" and f[2] is None for f in sample[0])


def flat_fields(fields) -> List[Tuple[Any, ...]]:
    """The fields of a sample with the keys of its dicts (("k", key, fields)) dropped."""
    out: List[Tuple[Any, ...]] = []
    for field in fields:
        if field[0] == "k":
            out.extend(flat_fields(field[2]))
        else:
            out.append(field)
    return out


def _init_positions(node: ast.ClassDef) -> Tuple[Tuple[str, int], ...]:
    """``__init__``'s parameters and their positions after self (-1: keyword-only)."""
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return ()
    positional = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
    return tuple((name, at) for at, name in enumerate(positional)) + tuple((a.arg, -1) for a in init.args.kwonlyargs)


def _may_collate(node: ast.AST, use: FunctionUse) -> bool:
    """Cheap: whether a function may be a collate_fn that pads to a fixed length (one parameter
    without a default, short, calling len() and a constructor that takes a shape)."""
    args = getattr(node, "args", None)
    if args is None or len(args.args) - len(args.defaults) != 1 or args.posonlyargs or args.vararg:
        return False
    if (getattr(node, "end_lineno", None) or node.lineno) - node.lineno > 60:
        return False
    return "len" in use.called and any(c.rpartition(".")[2] in _SHAPED for c in use.called)


def collate_fields(node: ast.AST) -> Optional[Tuple[Tuple[Any, ...], ...]]:
    """The fields of what a function taking the list of samples returns (a collate_fn), when
    every ``return`` builds tensors whose dims are ``len(batch)`` and literals
    (``torch.full((len(batch), 128), pad, dtype=torch.long)``, names bound once to one, filled in
    place afterwards): padding to a fixed length keeps that length. None otherwise."""
    if not isinstance(node, ast.FunctionDef) or not node.args.args:
        return None
    first = node.args.args[0].arg
    assigned: Dict[str, List[ast.expr]] = {}
    returns: List[ast.expr] = []
    todo = list(node.body)
    while todo:
        statement = todo.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(statement, ast.Return):
            if statement.value is None:
                return None
            returns.append(statement.value)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            assigned.setdefault(statement.targets[0].id, []).append(statement.value)
        elif isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            if isinstance(statement, ast.Assign):
                targets = statement.targets
            elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
                targets = [statement.target]
            elif isinstance(statement, (ast.For, ast.AsyncFor)):
                targets = [statement.target]
            else:
                targets = [i.optional_vars for i in statement.items if i.optional_vars]
            for target in targets:
                if isinstance(target, ast.Subscript):
                    continue  # ids[i, :n] = x: filled in place, the shape stays
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(ast.Constant(None))
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, (ast.Yield, ast.YieldFrom)):
            return None
        for child in ast.iter_child_nodes(statement):
            if isinstance(child, ast.stmt):
                todo.append(child)
    if not returns or first in assigned:
        return None
    # ``len(batch)``: the number of samples, a dim of its own
    assigned["__batch_param__"] = [ast.Name(first, ast.Load())]
    found = [_fields(value, assigned, {}, 0) for value in returns]
    if any(f is None for f in found) or any(f != found[0] for f in found):
        return None
    fields = tuple(flat_fields(found[0]))  # type: ignore[arg-type]
    if any(f[0] != "t" or "__batch__" not in f[1] for f in fields):
        return None  # every field is one per sample (a number of the batch's own: unknown)
    return fields


class _Kept:
    """``_kept_on_self`` of a class, computed at the first ``get`` (it walks every method)."""

    __slots__ = ("_node", "_init", "_found", "_index", "_albu", "_values", "steps", "pipeline")

    def __init__(self, node: ast.ClassDef, init: Optional[FunctionUse], index: Optional[ModuleIndex] = None) -> None:
        self._node, self._init, self._found = node, init, None
        self._index, self._albu = index, None
        self._values: Dict[str, List[ast.expr]] = {}  # ``values``, each attribute's walk once
        self.steps: Dict[Tuple[Any, ...], Optional[List[Any]]] = {}  # ``_albu_steps`` of an attribute
        self.pipeline = False  # a field rests on a pipeline this class's ``__init__`` builds

    @property
    def albu(self) -> Dict[str, str]:
        """The module's names for albumentations (``_albu_names``), read at the first use."""
        if self._albu is None:
            self._albu = _albu_names(self._index)
        return self._albu

    def get(self, attr: str, default: Any = None) -> Any:
        if self._found is None:
            self._found = _kept_on_self(self._node, self._init)
        return self._found.get(attr, default)

    def module_int(self, name: str) -> Optional[ast.Constant]:
        """``wind_lat = 121`` at module level, the name's only binding in the module and declared
        ``global`` by no function: a dimension ``__getitem__`` reads from the module (a name it
        does not bind itself)."""
        index = self._index
        bindings = index.module_scope.bindings.get(name, []) if index is not None else []
        if len(bindings) != 1 or bindings[0].kind != "assign":
            return None
        value = bindings[0].value
        if not (isinstance(value, ast.Constant) and type(value.value) is int and value.value >= 0):
            return None
        if name in index.declared_globals():  # type: ignore[union-attr]
            return None
        return value

    def untouched(self, attr: Optional[str], param: str) -> bool:
        """Whether nothing in the class sets an attribute of, or calls a method of, ``self.attr``
        or (in ``__init__``) the parameter ``param`` it holds, but ``__getitem__``/``__len__``:
        a wrapper setting ``dataset.transform = None`` changes the inner dataset's samples."""
        if attr is None:
            return False

        def held(node: ast.AST) -> bool:
            return _self_attr(node) == attr or (isinstance(node, ast.Name) and node.id == param)

        for sub in ast.walk(self._node):
            if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = sub.targets if isinstance(sub, (ast.Assign, ast.Delete)) else [sub.target]
                for target in targets:
                    for part in ast.walk(target):
                        if isinstance(part, (ast.Attribute, ast.Subscript)) and held(part.value):
                            return False
            elif isinstance(sub, ast.Call):
                func = sub.func
                if isinstance(func, ast.Attribute) and held(func.value) and func.attr not in ("__getitem__", "__len__"):
                    return False
                if isinstance(func, ast.Name) and func.id in ("setattr", "delattr", "vars") and sub.args and held(sub.args[0]):
                    return False
        return True

    def init_param(self, node: ast.AST) -> Optional[str]:
        """A parameter of ``__init__`` named as it is (never rebound there): its name."""
        init = next((s for s in self._node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is None or not isinstance(node, ast.Name):
            return None
        if node.id not in [a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)]:
            return None
        for sub in ast.walk(init):
            if isinstance(sub, ast.Name) and sub.id == node.id and not isinstance(sub.ctx, ast.Load):
                return None
        return node.id

    def values(self, attr: str) -> List[ast.expr]:
        """Every value ``__init__`` gives ``self.attr`` by ``self.attr = value`` (on any path);
        none when it is set any other way or by another method."""
        if attr not in self._values:
            self._values[attr] = self._read_values(attr)
        return self._values[attr]

    def _read_values(self, attr: str) -> List[ast.expr]:
        found: List[ast.expr] = []
        for statement in self._node.body:
            if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for sub in ast.walk(statement):
                if not isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                    continue
                direct = sub.targets if isinstance(sub, ast.Assign) else []
                targets = sub.targets if isinstance(sub, ast.Assign) else [getattr(sub, "target", None)] + [i.optional_vars for i in getattr(sub, "items", ())]
                for target in targets:
                    for node in ast.walk(target) if target is not None else ():
                        if _self_attr(node) == attr and isinstance(node.ctx, ast.Store):
                            if statement.name != "__init__" or node not in direct:
                                return []
                            found.append(sub.value)  # type: ignore[union-attr]
        return found


def _kept_on_self(node: ast.ClassDef, init: Optional[FunctionUse]) -> Dict[str, ast.expr]:
    """``self.attr = VALUE`` of ``__init__``: attr -> VALUE, for attributes set once there and
    nowhere else in the class."""
    out: Dict[str, List[ast.expr]] = {}
    for attr, value in init.self_assigns if init is not None else ():
        out.setdefault(attr, []).append(value)
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef) and statement.name != "__init__":
            for sub in ast.walk(statement):
                if isinstance(sub, (ast.Assign, ast.AugAssign)):
                    for target in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                            out.setdefault(target.attr, []).append(ast.Constant(None))
    return {attr: values[0] for attr, values in out.items() if len(values) == 1}


def _init_defaults(node: ast.ClassDef) -> Tuple[Tuple[str, int], ...]:
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return ()
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return tuple((a.arg, d.value) for a, d in pairs if isinstance(d, ast.Constant) and type(d.value) is int)


_ADDING = frozenset({"append", "appendleft", "extend", "insert", "add"})


def _appended_in_init(function: ast.FunctionDef, use: FunctionUse, text: SourceText, local: Tuple[str, ...]) -> List[Tuple[str, str, int, Tuple[str, ...]]]:
    """``self._manip_list = []`` then ``self._manip_list.append(lambda img: ...)``, statements
    of ``__init__``'s own body (so they always run): the container on self keeps what is added
    (camera_identification's ``Augmentator``). Not when a statement after the add sets the
    attribute again."""
    out = []
    for statement in function.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _ADDING and call.args):
            continue
        attr = _self_attr(call.func.value)
        added = call.args[-1]  # ``insert(index, value)``: the value
        if attr is None or not any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Name) and n.id in local) for n in ast.walk(added)):
            continue
        if any(name == attr and value.lineno > statement.lineno for name, value in use.self_assigns):
            continue
        found = _text(text, added)
        if found is not None:
            out.append((attr, found, added.lineno, local))
    return out


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _param_of(node: ast.AST, kept: Any) -> Optional[str]:
    """The ``__init__`` parameter ``self.attr`` holds as given (``self.attr = attr_param``)."""
    attr = _self_attr(node)
    value = kept.get(attr) if attr is not None else None
    return value.id if isinstance(value, ast.Name) else None


def _dim(node: ast.AST, assigned: Dict[str, List[ast.expr]], kept: Any, depth: int) -> Any:
    """A dimension: a non-negative int literal, a parameter kept on self, or either plus a
    literal; None otherwise."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0:
        return node.value
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        if not values and hasattr(kept, "module_int"):
            constant = kept.module_int(node.id)
            values = [constant] if constant is not None else []
        return _dim(values[0], assigned, kept, depth + 1) if len(values) == 1 else None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1
            and isinstance(node.args[0], ast.Name) and assigned.get("__batch_param__")
            and node.args[0].id == assigned["__batch_param__"][0].id):  # fmt: skip
        return "__batch__"
    param = _param_of(node, kept)
    if param is not None:
        return param
    attr = _self_attr(node)
    if attr is not None and isinstance(kept.get(attr), ast.Constant):
        return _dim(kept.get(attr), assigned, kept, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # a sample rate times seconds
        left, right = _dim(node.left, assigned, kept, depth + 1), _dim(node.right, assigned, kept, depth + 1)
        return left * right if type(left) is int and type(right) is int else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _dim(node.left, assigned, kept, depth + 1), _dim(node.right, assigned, kept, depth + 1)
        if left is None or right is None:
            return None
        if type(left) is int and type(right) is int:
            return left + right
        if type(right) is int and isinstance(left, str):
            return (left, right)
        if type(left) is int and isinstance(right, str):
            return (right, left)
        if isinstance(left, tuple) and type(right) is int:
            return (left[0], left[1] + right)
    return None


def _dtype_name(node: ast.AST) -> Optional[str]:
    """``torch.float16``, ``np.uint16``, ``numpy.int64``, ``"float32"``: the dtype's name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ITEMSIZE:
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("torch", *_NUMPY):
        return _CANONICAL.get(node.attr, node.attr) if node.attr in ITEMSIZE else None
    return None


_CANONICAL = {"long": "int64", "float": "float32", "double": "float64", "half": "float16", "int": "int32", "short": "int16"}


def _number() -> Tuple[Any, ...]:
    return ("t", (), "int64")


# A part of a sample whose size the code does not fix (``self.labels[index]`` beside a tensor of
# known shape): counted as 0 bytes, so that the sample's figure is a lower bound (``sample_of``).
UNKNOWN_PART = ("?",)


def _fields(
    node: ast.expr, assigned: Dict[str, List[ast.expr]], kept: Any, depth: int, lenient: bool = False
) -> Optional[List[Tuple[Any, ...]]]:
    """The fields of a sample expression (``sample_bytes``); None when one is not known.
    ``lenient``: an element of a tuple, list or dict display that is not known is an
    ``UNKNOWN_PART`` instead (at any depth of displays), the display itself still known."""
    if depth > 12:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return [("t", (), "bool")]  # collated to a bool tensor
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return [_number()]
    if isinstance(node, (ast.BinOp, ast.UnaryOp)):  # index % 10, -1: numbers of numbers
        parts = [_fields(n, assigned, kept, depth + 1) for n in ((node.left, node.right) if isinstance(node, ast.BinOp) else (node.operand,))]
        if all(p == [_number()] for p in parts):
            return [_number()]
        one = _tensor(node, assigned, kept, depth)  # an array's arithmetic (numpy's casting)
        return [one] if one is not None else None
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        if len(values) == 1:
            return _fields(values[0], assigned, kept, depth + 1, lenient)
        return _transformed(node.id, values, assigned, kept, depth)
    if isinstance(node, (ast.Tuple, ast.List)):
        parts = [_fields(e, assigned, kept, depth + 1, lenient) for e in node.elts]
        if lenient:
            parts = [[UNKNOWN_PART] if p is None else p for p in parts]
        if not parts or any(p is None for p in parts):
            return None
        return [f for p in parts for f in p]  # type: ignore[union-attr]
    if isinstance(node, ast.Dict):
        if not node.values or any(k is None for k in node.keys):
            return None
        parts = [_fields(v, assigned, kept, depth + 1, lenient) for v in node.values]
        if lenient:
            parts = [[UNKNOWN_PART] if p is None else p for p in parts]
        if any(p is None for p in parts):
            return None
        keys = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in node.keys]
        if None not in keys and len(set(keys)) == len(keys):  # a wrapper may take one key of it: kept
            return [("k", key, tuple(part)) for key, part in zip(keys, parts)]  # type: ignore[arg-type]
        return [f for p in parts for f in p]  # type: ignore[union-attr]
    one = _tensor(node, assigned, kept, depth)
    if one is None:
        return _inner_sample(node, assigned, kept, depth)
    return [one]


def _inner_sample(node: ast.AST, assigned, kept, depth: int) -> Optional[List[Tuple[Any, ...]]]:
    """A wrapper dataset's use of the dataset an ``__init__`` parameter gives it: ``self.dataset[i]``
    (or ``self.dataset.__getitem__(i)``), its whole sample, and ``sample["image"]`` of a name bound
    once to one, the value at that key of a dict sample: ("ds", parameter, keys). The inner
    dataset's sample is read where the wrapper is constructed (``Instance.given``). Not when the
    class sets an attribute of the inner dataset or calls a method of it (``dataset.transform =
    None`` changes what it returns)."""
    keys: List[str] = []
    while depth <= 12:
        if isinstance(node, ast.Name):
            values = assigned.get(node.id, [])
            if len(values) != 1:
                return None
            node, depth = values[0], depth + 1
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            keys.insert(0, node.slice.value)
            node, depth = node.value, depth + 1
            continue
        break
    else:
        return None
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Constant)):
        held = node.value
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__getitem__"
          and len(node.args) == 1 and not node.keywords):  # fmt: skip
        held = node.func.value
    else:
        return None
    param = _param_of(held, kept)
    if param is None or not hasattr(kept, "untouched") or not kept.untouched(_self_attr(held), param):
        return None
    return [("ds", param, tuple(keys))]


def _transformed(name: str, values: List[ast.expr], assigned, kept, depth: int) -> Optional[List[Tuple[Any, ...]]]:
    """``img = Image.open(p).convert("RGB")`` (or ``cv2.imread(p)`` then ``cv2.cvtColor(img,
    cv2.COLOR_BGR2RGB)``) and then ``if self.transform: img = self.transform(img)`` (albumentations:
    ``self.transform(image=img)["image"]``): the transform's output, when every other binding of
    the name is an image of the same known channels (the construction hands a transform, so the
    branch runs)."""
    applied = [v for v in values if _image_transform(v, assigned, kept, depth, name) is not None]
    if len(applied) != 1:
        return None
    others = [v for v in values if v is not applied[0]]
    channels = {_image_channels(v, assigned, depth + 1) for v in others}
    if not others or len(channels) != 1 or None in channels:
        return None
    kind, transform, _ = _image_transform(applied[0], assigned, kept, depth, name)  # type: ignore[misc]
    return [(kind, transform, channels.pop())]


_CV2_CHANNELS = {"COLOR_BGR2RGB": 3, "COLOR_RGB2BGR": 3, "COLOR_GRAY2RGB": 3, "COLOR_GRAY2BGR": 3, "COLOR_BGR2GRAY": 1, "COLOR_RGB2GRAY": 1, "COLOR_BGRA2RGB": 3}


def _image_channels(node: ast.AST, assigned, depth: int) -> Optional[int]:
    """The channels of an image read in a known mode: ``Image.open(path).convert("RGB")`` (3; "L"
    1, "RGBA" 4), ``np.array(...)``/``np.asarray(...)`` of one, ``cv2.imread(path)`` (3, BGR; with
    ``cv2.IMREAD_GRAYSCALE`` 1), ``cv2.cvtColor(x, cv2.COLOR_BGR2RGB)`` (by the code)."""
    if depth > 12:
        return None
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        return _image_channels(values[0], assigned, depth + 1) if len(values) == 1 else None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, (ast.Name, ast.Call))):
        return None
    func = node.func
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if owner in _NUMPY and func.attr in ("array", "asarray") and len(node.args) == 1 and not node.keywords:
        return _image_channels(node.args[0], assigned, depth + 1)
    if owner == "cv2" and func.attr == "imread" and not node.keywords:
        if len(node.args) == 1:
            return 3
        flag = node.args[1] if len(node.args) == 2 else None
        if isinstance(flag, ast.Attribute) and flag.attr in ("IMREAD_COLOR", "IMREAD_GRAYSCALE"):
            return 3 if flag.attr == "IMREAD_COLOR" else 1
        return None
    if owner == "cv2" and func.attr == "cvtColor" and len(node.args) == 2 and not node.keywords:
        code = node.args[1]
        return _CV2_CHANNELS.get(code.attr) if isinstance(code, ast.Attribute) else None
    if func.attr != "convert" or len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Constant):
        return None
    opened = func.value
    if not (isinstance(opened, ast.Call) and isinstance(opened.func, ast.Attribute) and opened.func.attr == "open"
            and isinstance(opened.func.value, ast.Name) and opened.func.value.id in ("Image", "PIL")):  # fmt: skip
        return None
    return _IMAGE_MODES.get(node.args[0].value)


def _image_transform(node: ast.AST, assigned, kept, depth: int, name: Optional[str] = None) -> Optional[Tuple[Any, ...]]:
    """``self.transform(image)`` (torchvision, timm: "img") or ``self.transform(image=image)["image"]``
    (albumentations: "albu") of an image with known channels, the transform an ``__init__``
    parameter holds. With ``name``: applied to that name (its channels are the caller's)."""
    kind = "img"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "image":
        node, kind = node.value, "albu"
    if not isinstance(node, ast.Call):
        return None
    if kind == "img" and not (len(node.args) == 1 and not node.keywords):
        return None
    if kind == "albu" and not (not node.args and len(node.keywords) == 1 and node.keywords[0].arg == "image"):
        return None
    param = _param_of(node.func, kept)
    if param is None:
        return None
    argument = node.args[0] if kind == "img" else node.keywords[0].value
    if name is not None:
        return (kind, param, None) if isinstance(argument, ast.Name) and argument.id == name else None
    channels = _image_channels(argument, assigned, depth + 1)
    return (kind, param, channels) if channels is not None else None


def _tensor(node: ast.AST, assigned, kept, depth: int) -> Optional[Tuple[Any, ...]]:
    """One tensor field of an expression (see ``sample_bytes``)."""
    if depth > 12:
        return None
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        return _tensor(values[0], assigned, kept, depth + 1) if len(values) == 1 else None
    image = _image_transform(node, assigned, kept, depth)
    if image is not None:
        return image
    applied = _albu_applied(node, assigned, kept, depth)
    if applied is not None:  # a pipeline built in __init__
        return ("t", applied[0], applied[1]) if _UNSIZED not in applied[0] else None
    if _numpy_shaped(node):
        array = _ndarray(node, assigned, kept, depth)
        if array is not None:
            return ("t", array[0], array[1]) if array[0] and _UNSIZED not in array[0] else None
    if isinstance(node, ast.Subscript):
        return _subscripted(node, assigned, kept, depth)
    if isinstance(node, ast.Attribute):
        if node.attr in _TOKEN_FIELDS:
            length = _tokenized(node.value, assigned, kept, depth + 1)
            return ("t", (length,), "int64") if length is not None else None
        return None
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    dtype_kw = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id == "torch" and func.attr in _SHAPED:
        return _constructed(node, func.attr, _SHAPED[func.attr], dtype_kw, assigned, kept, depth)
    if isinstance(owner, ast.Name) and owner.id in _NUMPY and func.attr in _NUMPY_SHAPED:
        return _constructed(node, func.attr, _NUMPY_SHAPED[func.attr], dtype_kw, assigned, kept, depth)
    if (isinstance(owner, ast.Attribute) and owner.attr == "random" and isinstance(owner.value, ast.Name)
            and owner.value.id in _NUMPY and func.attr in _NUMPY_RANDOM):  # fmt: skip
        return _numpy_random(node, func.attr, assigned, kept, depth)
    if isinstance(owner, ast.Name) and owner.id == "torch" and func.attr in _LEGACY_TENSORS:
        # ``torch.Tensor(array)``: a copy of an array of known shape in the constructor's dtype
        # (run on torch 2.13: ``torch.Tensor`` of a float64 or int64 array is float32, the default
        # dtype; a program that sets ``torch.set_default_dtype(torch.float64)`` gets float64, which
        # this figure then underestimates, as a lower bound may)
        if len(node.args) != 1 or node.keywords:
            return None
        inner = _tensor(node.args[0], assigned, kept, depth + 1)
        if inner is None or inner[0] != "t" or not inner[1]:
            return None  # ``torch.Tensor(3)`` is a tensor of 3 elements; numbers and lists: unknown
        return ("t", inner[1], _LEGACY_TENSORS[func.attr])
    if isinstance(owner, ast.Name) and owner.id == "torch" and func.attr in ("from_numpy", "as_tensor", "tensor"):
        if len(node.args) != 1 or any(k.arg not in ("dtype",) for k in node.keywords):
            return None
        inner = _tensor(node.args[0], assigned, kept, depth + 1)
        if inner is None or inner[0] != "t" or not inner[1]:
            return None  # numbers and lists: their dtype depends on the values
        if dtype_kw is not None:
            dtype = _dtype_name(dtype_kw)
            return ("t", inner[1], dtype) if dtype is not None and func.attr != "from_numpy" else None
        return inner
    # methods of a tensor
    inner = _tensor(owner, assigned, kept, depth + 1)
    if inner is None or inner[0] != "t":
        return None
    dims, dtype = inner[1], inner[2]
    if func.attr in _CASTS and not node.args and not node.keywords:
        return ("t", dims, _CASTS[func.attr])
    if func.attr == "astype" and len(node.args) == 1:
        cast = _dtype_name(node.args[0])
        return ("t", dims, cast) if cast is not None else None
    if func.attr == "to" and len(node.args) == 1 and not node.keywords:
        cast = _dtype_name(node.args[0])
        return ("t", dims, cast) if cast is not None else None
    if func.attr in _KEEPING and not node.keywords:
        return inner
    if func.attr == "squeeze" and not node.keywords:
        if not node.args:
            return ("t", tuple(d for d in dims if d != 1), dtype)
        at = node.args[0].value if isinstance(node.args[0], ast.Constant) and type(node.args[0].value) is int else None
        if at is None or not -len(dims) <= at < len(dims):
            return None
        return ("t", dims[:at] + dims[at + 1 :] if dims[at] == 1 else dims, dtype) if at >= 0 else inner
    if func.attr == "unsqueeze" and len(node.args) == 1 and not node.keywords:
        return ("t", dims + (1,), dtype)  # the element count is what counts
    return None


_LEGACY_TENSORS = {"Tensor": "float32", "FloatTensor": "float32", "DoubleTensor": "float64", "LongTensor": "int64", "IntTensor": "int32", "HalfTensor": "float16", "ByteTensor": "uint8", "BoolTensor": "bool"}


def _constructed(node: ast.Call, name: str, dtype: str, dtype_kw, assigned, kept, depth: int) -> Optional[Tuple[Any, ...]]:
    args = list(node.args)
    if name == "full":
        args = args[:1]  # full(size, fill_value)
    elif name == "randint":
        args = args[-1:]  # randint([low,] high, size)
        shape_kw = next((k.value for k in node.keywords if k.arg == "size"), None)
        if shape_kw is not None:
            args = [shape_kw]
    elif not args:
        shape_kw = next((k.value for k in node.keywords if k.arg in ("size", "shape")), None)
        args = [shape_kw] if shape_kw is not None else []
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = list(args[0].elts)
    dims = tuple(_dim(a, assigned, kept, 0) for a in args)  # (``_dim`` bounds its own walk: the depth of the expression around it is not its)
    if not dims or any(d is None for d in dims):
        return None
    for keyword in node.keywords:
        if keyword.arg == "dtype":
            dtype = _dtype_name(keyword.value)  # type: ignore[assignment]
            if dtype is None:
                return None
        elif keyword.arg not in ("size", "shape", "device", "requires_grad", "low", "high", "fill_value"):
            return None
    return ("t", dims, dtype)


def _numpy_random(node: ast.Call, name: str, assigned, kept, depth: int) -> Optional[Tuple[Any, ...]]:
    if name in ("rand", "randn"):
        if node.keywords:
            return None
        dims = tuple(_dim(a, assigned, kept, 0) for a in node.args)
    else:
        size = node.args[2] if name == "randint" and len(node.args) >= 3 else (node.args[0] if name == "random" and node.args else None)
        size = next((k.value for k in node.keywords if k.arg == "size"), size)
        if size is None:
            return None
        elts = list(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else [size]
        dims = tuple(_dim(a, assigned, kept, 0) for a in elts)
        if any(k.arg not in ("size", "low", "high", "dtype") for k in node.keywords):
            return None
    if not dims or any(d is None for d in dims):
        return None
    dtype = _NUMPY_RANDOM[name]
    dtype_kw = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    if dtype_kw is not None:
        dtype = _dtype_name(dtype_kw)  # type: ignore[assignment]
        if dtype is None:
            return None
    return ("t", dims, dtype)


def _subscripted(node: ast.Subscript, assigned, kept, depth: int) -> Optional[Tuple[Any, ...]]:
    """``enc["input_ids"]`` of a tokenizer call padded to a fixed length; ``x[a:a + n]`` of a
    tensor or array of known dtype (an attribute set once in ``__init__`` to a numpy array of a
    given dtype: ``np.memmap(path, dtype=np.uint16)``, ``np.fromfile(..., dtype=...)``)."""
    key = node.slice
    if isinstance(key, ast.Constant) and key.value in _TOKEN_FIELDS:
        length = _tokenized(node.value, assigned, kept, depth + 1)
        return ("t", (length,), "int64") if length is not None else None
    if not isinstance(key, ast.Slice) or key.step is not None or key.lower is None or key.upper is None:
        return None
    dtype = _array_dtype(node.value, assigned, kept, depth + 1)
    if dtype is None:
        return None
    upper = key.upper
    if not (isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Add)):
        return None
    # a + n (+ 1): the lower bound's text, then what is added
    terms: List[ast.AST] = []
    left: ast.AST = upper
    lower = ast.dump(key.lower)
    while ast.dump(left) != lower and isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
        terms.insert(0, left.right)
        left = left.left
    if ast.dump(left) != lower or not terms:
        return None
    constant, named = 0, []
    for term in terms:
        part = _dim(term, assigned, kept, depth + 1)
        if part is None:
            return None
        if type(part) is int:
            constant += part
        else:
            name, extra = (part, 0) if isinstance(part, str) else part
            named.append(name)
            constant += extra
    if len(named) > 1:
        return None
    length: Any = constant if not named else (named[0] if constant == 0 else (named[0], constant))
    return ("t", (length,), dtype)


def _audio_unpack(statement: ast.AST) -> bool:
    """``y, sr = librosa.load(...)`` (two plain names; see ``_librosa_dtype``)."""
    return (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Tuple)
        and len(statement.targets[0].elts) == 2
        and all(isinstance(e, ast.Name) for e in statement.targets[0].elts)
        and _librosa_dtype(statement.value) is not None
    )


def _librosa_dtype(value: ast.AST) -> Optional[str]:
    """The dtype of the array ``librosa.load(path, ...)`` returns when it is one-dimensional:
    librosa's ``load(path, sr=22050, mono=True, offset=0.0, duration=None, dtype=np.float32,
    ...)`` averages the channels to one when ``mono`` is true (``to_mono``) and returns
    ``(y, sr)`` (librosa/core/audio.py, read at commit 001cd58d). None for anything else
    (``mono=False`` or a mono flag not written as a literal: the channels are the file's)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "load"):
        return None
    if not (isinstance(value.func.value, ast.Name) and value.func.value.id == "librosa"):
        return None
    if any(k.arg is None for k in value.keywords) or len(value.args) > 1:
        return None  # **kwargs, or mono/dtype given by position: not read
    keywords = {k.arg: k.value for k in value.keywords}
    mono = keywords.get("mono")
    if mono is not None and not (isinstance(mono, ast.Constant) and mono.value is True):
        return None
    dtype = keywords.get("dtype")
    return _dtype_name(dtype) if dtype is not None else "float32"


def _array_dtype(node: ast.AST, assigned, kept, depth: int) -> Optional[str]:
    """The dtype of a one-dimensional numpy array read from a file with a given dtype, or of a
    mono waveform ``librosa.load`` returns (``y[start:start + 16000]`` is a fixed-length crop)."""
    attr = _self_attr(node)
    value = kept.get(attr) if attr is not None else None
    if value is None and isinstance(node, ast.Name) and len(assigned.get(node.id, [])) == 1:
        value = assigned[node.id][0]
    if value is not None and _librosa_dtype(value) is not None:
        return _librosa_dtype(value)
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name)):
        return None
    if value.func.value.id not in _NUMPY or value.func.attr not in ("memmap", "fromfile", "frombuffer"):
        return None
    if any(k.arg == "shape" for k in value.keywords) or len(value.args) > 2:
        return None  # several dimensions: a slice is rows, not elements
    dtype = next((k.value for k in value.keywords if k.arg == "dtype"), value.args[1] if len(value.args) == 2 else None)
    return _dtype_name(dtype) if dtype is not None else None


def _tokenized(node: ast.AST, assigned, kept, depth: int) -> Any:
    """The fixed length of a tokenizer call's fields: ``tok(text, padding="max_length",
    max_length=N, truncation=True)`` (N a literal or a parameter kept on self)."""
    if depth > 12:
        return None
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        return _tokenized(values[0], assigned, kept, depth + 1) if len(values) == 1 else None
    if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords):
        return None
    keywords = {k.arg: k.value for k in node.keywords}
    padding = keywords.get("padding")
    if not (isinstance(padding, ast.Constant) and padding.value == "max_length") or "max_length" not in keywords:
        return None
    truncation = keywords.get("truncation")  # without it, a longer text keeps its length
    if not (isinstance(truncation, ast.Constant) and truncation.value in (True, "longest_first", "only_first")):
        return None
    if isinstance(node.func, ast.Attribute) and node.func.attr not in ("__call__", "encode_plus") and _self_attr(node.func) is None:
        return None  # a method of something else (``batch_encode_plus``: a list of texts)
    return_tensors = keywords.get("return_tensors")
    if return_tensors is not None and not (isinstance(return_tensors, ast.Constant) and return_tensors.value in ("pt", "np", None)):
        return None
    if len(node.args) > 1:
        return None  # a pair of texts: still max_length, but keep to the common shape
    return _dim(keywords["max_length"], assigned, kept, depth + 1)

def _reseeded(nodes: Dict[str, ast.AST], reached: Sequence[str]) -> Set[str]:
    """DL204: attributes the worker's own path reseeds or replaces (``self.g.manual_seed(...)``,
    ``self.rng.seed(...)``, ``self.rng = ...`` in ``__iter__`` or a method it calls): the dataset
    takes charge of its generator inside the worker (pytorchvideo seeds it from
    ``get_worker_info()``), so the copy made at start is not what it draws from."""
    found: Set[str] = set()
    for name in reached:
        for node in ast.walk(nodes[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("manual_seed", "seed"):
                holder = node.func.value
                if isinstance(holder, ast.Attribute) and isinstance(holder.value, ast.Name) and holder.value.id == "self":
                    found.add(holder.attr)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                        found.add(target.attr)
    return found


def _reachable(methods: Dict[str, FunctionUse], roots: Sequence[str]) -> List[str]:
    """Methods reachable from ``roots`` through ``self.m()`` calls."""
    todo = [r for r in roots if r in methods]
    seen: List[str] = []
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.append(name)
        todo.extend(sorted(methods[name].self_calls))
    return seen


def _is_container(value: ast.AST) -> bool:
    """A Python list or dict of objects: literals, comprehensions, list()/dict()/sorted()."""
    if isinstance(value, (ast.List, ast.ListComp, ast.Dict, ast.DictComp)):
        return True
    return isinstance(value, ast.Call) and terminal(value.func) in _CONTAINER_CALLS


def passes_through(function: ast.AST, skip: int = 0) -> Tuple[int, ...]:
    """Positions (after the first ``skip``) of the parameters ``function`` is a generator over:
    ``for x in param:`` with a ``yield`` in its body, or ``yield from param`` (MetricLogger's
    ``log_every(self, iterable, ...)``): a ``for`` over its call iterates the argument once."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ()
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][skip:]
    if not params:
        return ()
    found = []
    for node in statements_of(function):  # statements only: expressions hold no loop
        if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.iter, ast.Name) and node.iter.id in params:
            if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for s in node.body for n in ast.walk(s)):
                found.append(params.index(node.iter.id))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.YieldFrom):
            value = node.value.value
            if isinstance(value, ast.Name) and value.id in params:
                found.append(params.index(value.id))
    return tuple(sorted(set(found)))


def _kept_in_init(node: ast.ClassDef, use: Optional[FunctionUse], text: SourceText, index: Optional[ModuleIndex] = None) -> Dict[str, Any]:
    """DL202's facts of ``__init__``: attributes set to values holding a lambda or a local
    function, and the parameters kept on self."""
    if use is None or not use.self_assigns:
        return {}
    function = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if function is None:
        return {}
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][1:]
    names = set(positional) | {a.arg for a in function.args.kwonlyargs}
    local = tuple(sorted(_nested_functions(function)))
    look = bool(local) or "lambda" in text.source  # else no value can hold one: skip the walks
    held = []
    stores = []
    plain = set()  # attributes some assignment sets to a value without one: another path (if/else)
    top_level = {id(s.value) for s in function.body if isinstance(s, ast.Assign) and len(s.targets) == 1}
    # the local names a lambda can reach (``f = lambda ...``, ``g = f``): only those are followed
    # (``self.root = root`` is not asked; one walk of ``__init__``, not one per attribute)
    rebound = {
        n.targets[0].id
        for n in ast.walk(function)
        if look and isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
        and isinstance(n.value, (ast.Lambda, ast.Name))
    }
    for attr, value in use.self_assigns:
        lambda_line = (
            _named_lambda(function, value, text)
            if isinstance(value, ast.Name) and value.id in rebound and id(value) in top_level and value.id not in local
            else None
        )
        if lambda_line is not None:
            held.append((attr, *lambda_line, local))  # ``parse_fn = lambda ...`` then ``self.map_fn = parse_fn``
        elif isinstance(value, ast.Name) and value.id in names and value.id not in local:
            stores.append((value.id, positional.index(value.id) if value.id in positional else -1))
            plain.add(attr)
        elif look and any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Name) and n.id in local) for n in ast.walk(value)):
            found = _text(text, value)
            if found is not None:
                held.append((attr, found, value.lineno, local))
        else:
            plain.add(attr)
    # ``self.field_encoders[TAGS] = TagEncoder(tokenize=lambda x: ...)``, a statement of
    # ``__init__``'s own body: the dict (or list) on self keeps the value (OpenKiwi's encoders)
    for statement in function.body if look else ():
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Subscript)):
            continue
        target = statement.targets[0]
        attr = _self_attr(target.value)
        if attr is None or not any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Name) and n.id in local) for n in ast.walk(statement.value)):
            continue
        found, key = _text(text, statement.value), _text(text, target.slice)
        if found is not None:
            held.append((f"{attr}[{key or '...'}]", found, statement.value.lineno, local))
    # ``if size: self.pre = Compose(...) else: self.pre = lambda **kw: kw``: the lambda is kept on
    # one path only (taming-transformers' ImagePaths with every config's size: 256): not counted,
    # unless the path is the one a parameter left None takes (``_held_when_none``)
    held = [entry for entry in held if entry[0] not in plain]
    held.extend(_appended_in_init(function, use, text, local) if look else ())
    when_none = _held_when_none(function, use, text, local) if look else ()
    by_default = _held_by_default(function, use, text, index) if look else ()
    return {
        "init_held": tuple(held),
        "init_stores": tuple(dict.fromkeys(stores)),
        "init_held_none": when_none,
        "init_held_default": by_default,
    }


def _named_lambda(function: ast.FunctionDef, value: ast.Name, text: SourceText) -> Optional[Tuple[str, int]]:
    """(text, line) of the lambda the name ``value`` certainly holds where a statement of
    ``function``'s own body reads it (``subclasses._lambda_on_every_path``), or None."""
    from dl_lint.analysis.subclasses import _lambda_on_every_path

    held = _lambda_on_every_path(function.body, value.id, value)
    found = _text(text, held)
    return (found, held.lineno) if held is not None and found is not None else None


def _param_defaults(function: ast.FunctionDef) -> Dict[str, ast.expr]:
    """The default expression of each parameter of ``function`` that has one."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    defaults = dict(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
    return defaults


def _held_by_default(function: ast.FunctionDef, use: FunctionUse, text: SourceText, index: Optional[ModuleIndex]):
    """``init_held_default``: ``self.attr = param`` in ``__init__`` where ``param``'s default is a
    lambda, or a module-level name bound once to a lambda, and ``self.attr`` is assigned
    nowhere else in ``__init__``."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    defaults = _param_defaults(function)
    after_self = positional[1:]
    counts: Dict[str, int] = {}
    for attr, _value in use.self_assigns:
        counts[attr] = counts.get(attr, 0) + 1
    out = []
    for attr, value in use.self_assigns:
        if counts[attr] != 1 or not isinstance(value, ast.Name) or value.id not in defaults:
            continue
        default = defaults[value.id]
        if isinstance(default, ast.Name) and index is not None:
            bindings = index.module_scope.bindings.get(default.id, ())
            default = bindings[0].value if len(bindings) == 1 and bindings[0].kind == "assign" else None
        if not isinstance(default, ast.Lambda):
            continue
        found = _text(text, default)
        if found is not None:
            position = after_self.index(value.id) if value.id in after_self else -1
            out.append((attr, found, default.lineno, (), value.id, position))
    return tuple(out)


def _param_test(test: ast.AST, params: Set[str]) -> Optional[Tuple[str, str, bool]]:
    """(parameter, kind, polarity) for a test of a parameter alone: ``p is None`` (``p ==
    None``) is ("none", True), ``p is not None`` ("none", False), ``not p`` ("falsy", True),
    ``p`` ("falsy", False); None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
        return (test.operand.id, "falsy", True) if test.operand.id in params else None
    if isinstance(test, ast.Name):
        return (test.id, "falsy", False) if test.id in params else None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id in params
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        if isinstance(test.ops[0], (ast.Is, ast.Eq)):
            return test.left.id, "none", True
        if isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
            return test.left.id, "none", False
    return None


def _param_arms(test: ast.AST, params: Set[str], when_true, when_false):
    """(parameter, kind, the arm that runs when the parameter is None ("none") or false
    ("falsy"), the other) for a test ``_param_test`` reads; None otherwise."""
    found = _param_test(test, params)
    if found is None:
        return None
    param, kind, polarity = found
    return (param, kind, when_true, when_false) if polarity else (param, kind, when_false, when_true)


def _held_when_none(function: ast.FunctionDef, use: FunctionUse, text: SourceText, local: Tuple[str, ...]):
    """``init_held_none``: in statements of ``__init__``'s own body (not under another ``if``,
    a loop or a ``try``, and with no ``return`` in ``__init__``), ``self.attr`` set to a value
    holding a lambda or a local function on the path a test of a parameter selects, which a
    construction decides by passing a literal or leaving the parameter to its literal default:
    - the parameter defaults to None and is None (``if p is None:``, ``not p``, ``p or (lambda
      ...)``, ``lambda ... if p is None else p``), the other path setting ``self.attr`` to the
      parameter or not at all; also the parameter itself rebound there (``if transform is None:
      transform = lambda x: x``, its only assignment) and then kept (``self.transform =
      transform``, every assignment of the attribute);
    - a flag is false or true (``if augment: self.transform = Augment() else:
      self.transform = lambda i: i``), the parameter's default a literal or none, the other
      path setting the attribute to anything; every assignment of ``self.attr`` in ``__init__``
      is in that ``if``.
    Each entry: (attr, VALUE's text, line, local functions, parameter, position after self or
    -1, (kind, the mark of the parameter's default)), kind "none", "falsy" or "truthy"."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    defaults = _param_defaults(function)
    nones = {n for n, d in defaults.items() if isinstance(d, ast.Constant) and d.value is None and n != "self"}
    # flags: parameters with a literal default, or none (a construction then gives it)
    literal = {n for n, d in defaults.items() if literal_mark(d) and n != "self"}
    required = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)} - set(defaults) - {"self"}
    flags = literal | required
    if not flags or any(isinstance(n, ast.Return) for n in ast.walk(function)):
        return ()

    def holds(value: ast.AST) -> bool:
        return any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Name) and n.id in local) for n in ast.walk(value))

    def self_attr(target: ast.AST) -> Optional[str]:
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            return target.attr
        return None

    def assigned(statements) -> Dict[str, List[ast.AST]]:
        out: Dict[str, List[ast.AST]] = {}
        for statement in statements:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                attr = self_attr(statement.targets[0])
                if attr is not None:
                    out.setdefault(attr, []).append(statement.value)
        return out

    # the first line that rebinds each parameter: a test after it reads that value, not the argument
    first_store: Dict[str, int] = {}
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and n.id in flags and isinstance(n.ctx, (ast.Store, ast.Del)):
            first_store[n.id] = min(first_store.get(n.id, n.lineno), n.lineno)

    def argument_decides(param: str, line: int) -> bool:
        return first_store.get(param, line + 1) > line

    found: List[Tuple[str, ast.AST, str, str, int]] = []  # (attr, value, parameter, kind, stores of attr allowed)
    via: List[Tuple[str, ast.AST, str, str]] = []  # the same, through the parameter rebound first
    rebound: Dict[str, Tuple[ast.AST, str]] = {}  # ``if p is None: p = lambda x: x``: what p holds then, the test's kind
    for statement in function.body:
        if isinstance(statement, ast.If):
            arms = _param_arms(statement.test, flags, statement.body, statement.orelse)
            if arms is None:
                continue
            param, kind, arm, other = arms
            if not argument_decides(param, statement.lineno):
                continue  # ``augment = augment and train`` before ``if augment:``
            if param in nones:
                own = [
                    s.value for s in arm
                    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and s.targets[0].id == param
                ]
                stores = sum(1 for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, (ast.Store, ast.Del)))
                if len(own) == 1 and stores == 1 and holds(own[0]):
                    rebound[param] = (own[0], kind)
            theirs = assigned(other)
            for attr, values in assigned(arm).items():
                if len(values) != 1 or not holds(values[0]):
                    continue
                if param in nones and all(isinstance(v, ast.Name) and v.id == param for v in theirs.get(attr, ())):
                    found.append((attr, values[0], param, kind, -1))
                elif param not in nones:
                    found.append((attr, values[0], param, kind, 1 + len(theirs.get(attr, ()))))
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and self_attr(statement.targets[0]):
            value = statement.value
            if isinstance(value, ast.Name) and value.id in rebound:
                held, kind = rebound[value.id]
                via.append((self_attr(statement.targets[0]), held, value.id, kind))  # then ``self.t = p``
            elif isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2:
                first, second = value.values
                if isinstance(first, ast.Name) and first.id in nones and argument_decides(first.id, statement.lineno) and holds(second):
                    found.append((self_attr(statement.targets[0]), second, first.id, "falsy", -1))
            elif isinstance(value, ast.IfExp):
                arms = _param_arms(value.test, nones, value.body, value.orelse)
                if arms is None:
                    continue
                param, kind, chosen, other = arms
                if isinstance(other, ast.Name) and other.id == param and argument_decides(param, statement.lineno) and holds(chosen):
                    found.append((self_attr(statement.targets[0]), chosen, param, kind, -1))
    out = []
    entries = [*found, *((attr, value, param, kind, 0) for attr, value, param, kind in via)]
    for attr, value, param, kind, allowed in entries:
        if allowed > 0:  # a flag's ``if``: every assignment of self.attr is in its arms
            if sum(1 for a, _ in use.self_assigns if a == attr) != allowed:
                continue
        else:
            # every assignment of self.attr in __init__ is the one found or the parameter itself
            others = sum(1 for a, v in use.self_assigns if a == attr and not (isinstance(v, ast.Name) and v.id == param))
            if others != (0 if allowed == 0 else 1):
                continue
        written = _text(text, value)
        if written is not None:
            position = positional.index(param) - 1 if param in positional else -1
            default = literal_mark(defaults[param]) if param in defaults else ""
            out.append((attr, written, value.lineno, local, param, position, (kind, default)))
    return tuple(out)


def _objects_in_init(methods: Dict[str, ast.AST], text: SourceText) -> Dict[str, Any]:
    """DL202's attribute objects: ``self.attr = CALLEE(...)`` statements of ``__init__``'s own
    body (not under an ``if``, a loop or a ``try``: they run whenever the object is built),
    each the only assignment of ``self.attr`` in ``__init__``; and, for ``self.m(...)``, the
    values method ``m`` returns, when its source can hold a lambda or a local function."""
    function = methods.get("__init__")
    if function is None:
        return {}
    objects = []
    for statement in function.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.value, ast.Call)):
            continue
        attr = _self_attr(statement.targets[0])
        func = statement.value.func
        if attr is None or not isinstance(func, (ast.Name, ast.Attribute)):
            continue
        callee = _text(text, func)
        if callee is not None:
            objects.append((attr, callee, statement.lineno))
    if not objects:
        return {}
    counts: Dict[str, int] = {}
    for node in statements_of(function):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else ()
        for target in targets:
            for leaf in ast.walk(target):
                attr = _self_attr(leaf)
                if attr is not None:
                    counts[attr] = counts.get(attr, 0) + 1
    objects = [o for o in objects if counts.get(o[0]) == 1]
    if not objects:
        return {}
    returns = []
    for name in sorted({c[5:] for _, c, _ in objects if c.startswith("self.") and c.count(".") == 1}):
        method = methods.get(name)
        if method is None or name == "__init__":
            continue
        local = tuple(sorted(_nested_functions(method)))
        if not local and "lambda" not in (text.segment(method) or ""):
            continue
        values = []
        for node in statements_of(method):
            if isinstance(node, ast.Return):
                found = _text(text, node.value) if node.value is not None else None
                if found is None:
                    values = []
                    break
                values.append((found, node.value.lineno))
        if values:
            returns.append((name, tuple(values), local))
    return {"init_objects": tuple(objects), "method_returns": tuple(returns)}


def _nested_functions(function: ast.AST) -> List[str]:
    """The functions a function defines in its body (statements only: expressions hold none)."""
    out: List[str] = []
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(node.name)
            continue
        if isinstance(node, ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(node, field, ()))
        for handler in getattr(node, "handlers", ()):
            stack.extend(handler.body)
    return out


_INIT_WORDS = ("loader", "sampler", "dataset", "folder")


def _holds_lambda(node: ast.ClassDef, text: SourceText) -> bool:
    """Whether the class's source lines hold the word ``lambda`` (DL202: an ``__init__`` that
    hands its base one, ``SummaryModule._handed_to_base``); the module's text is asked first."""
    if "lambda" not in text.source:
        return False
    lines = text.lines
    return any("lambda" in lines[row - 1] for row in range(node.lineno, min(node.end_lineno or node.lineno, len(lines)) + 1))


def _hands_base(node: ast.ClassDef) -> bool:
    """Whether the class's ``__init__`` calls its base's (``super().__init__(...)`` or
    ``Base.__init__(self, ...)``, a statement of its own body) with one of its own parameters,
    by name, or a ``**`` of one: what the base keeps of those, the class keeps. The ``nn.Module``
    family's ``super().__init__()`` hands nothing."""
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return False
    args = init.args
    params = {a.arg for a in (*args.posonlyargs, *args.args[1:], *args.kwonlyargs)}
    params.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    for statement in init.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"):
            continue
        for argument in (*call.args, *(k.value for k in call.keywords)):
            if isinstance(argument, ast.Starred):
                argument = argument.value
            if isinstance(argument, ast.Name) and argument.id in params:
                return True
    return False


def _loader_init(node: ast.ClassDef, text: SourceText) -> Optional[Tuple]:
    """``subclasses.read_init`` for a class that may derive from a loader or a dataset (any
    base): kept in the summary, read when an importer calls the class."""
    if not node.bases:
        return None
    names = [node.name] + [terminal(b) or "" for b in node.bases]
    if not any(word in n.lower() for n in names for word in _INIT_WORDS) and not (
        "torchvision" in text.source or "VisionDataset" in text.source or _holds_lambda(node, text) or _hands_base(node)
    ):
        # read only where a loader class is named so (the prefilter's rule for callees too), or
        # a dataset that may derive from one whose constructor arguments it keeps (DL202:
        # ``SummaryModule.kept_parameters``; torchvision's datasets: ``CIFAR10``, ``MNIST``), or
        # any class whose ``__init__`` hands its base some of its own parameters (an encoder
        # whose base keeps the ``tokenize`` function it is given: OpenKiwi's ``TagEncoder``)
        return None
    from dl_lint.analysis.subclasses import read_init

    return read_init(node, lambda n: _text(text, n))


def _keeps_signature(node: ast.ClassDef) -> bool:
    init = next(
        (s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"), None
    )
    if init is None:
        return True
    args = init.args
    return (
        len(args.posonlyargs) + len(args.args) == 1
        and not args.kwonlyargs
        and args.vararg is not None
        and args.kwarg is not None
    )


def _iter_shape(node: ast.ClassDef, text: SourceText):
    """For DL201's fix: ``__iter__`` made of one ``for x in X`` or ``return iter(X)``."""
    method = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__iter__"), None
    )
    if method is None:
        return None
    body = list(method.body)
    if body and docstring_statement(body[0]):
        body = body[1:]
    if len(body) != 1 or body[0].lineno == method.lineno:
        return None  # ``def __iter__(self): return ...`` on one line: no room for a prelude
    statement = body[0]
    target = None
    if isinstance(statement, ast.For):
        target = statement.iter
    elif (
        isinstance(statement, ast.Return)
        and isinstance(statement.value, ast.Call)
        and terminal(statement.value.func) == "iter"
        and len(statement.value.args) == 1
        and not statement.value.keywords
        and not isinstance(statement.value.args[0], ast.Starred)
    ):
        target = statement.value.args[0]
    if target is None:
        return None
    row = statement.lineno
    line = text.line(row)
    indent = line[: len(line) - len(line.lstrip())]
    start, end = text.span(target)
    return (row, indent, start.row, start.column, end.row, end.column, text.segment(target))


__all__ = [
    "ModuleSummary",
    "BindingRecord",
    "ClassRecord",
    "FunctionRecord",
    "MethodRecord",
    "build_summary",
    "SHARDING_NAMES",
    "LazyBinding",
]



# -- albumentations pipelines built in ``__init__``, and numpy arrays of images -----------------
# Read off albumentations 2.0.8 (``pip download albumentations==2.0.8 --no-deps``; the same
# signatures since 1.0 for the transforms below, and 0.4/0.5 for Resize and the crops):
# - Resize(height, width), CenterCrop(height, width), RandomCrop(height, width) return an image of
#   exactly height × width (geometric/resize.py, crops/transforms.py; a crop larger than the image
#   raises unless ``pad_if_needed``, which pads first: height × width either way);
#   RandomResizedCrop(size=(h, w)) (1.x: height, width) and RandomSizedCrop(min_max_height,
#   size=(h, w)) (1.x: min_max_height, height, width) resize their crop to (h, w). Their ``p``
#   defaults to 1: a ``p`` of less leaves the size unfixed.
# - SmallestMaxSize, LongestMaxSize, RandomScale, PadIfNeeded: sizes that depend on the image.
# - None of these changes the channels or the dtype (the image's: uint8 from PIL/cv2).
# - Normalize and ToFloat return float32 (``p`` 1 by default); ToTensorV2 (pytorch/transforms.py)
#   is ``torch.from_numpy(img.transpose(2, 0, 1))`` (an H×W image gets a channel of 1): C×H×W, the
#   dtype kept, a torch tensor from then on.
# numpy's arithmetic (numpy 1.x value-based casting and numpy 2's NEP 50 agree here): an integer
# or bool array divided by a Python number, or an integer array times/plus/minus a Python float,
# is float64 (``uint8 / 127.5`` is float64); a float array keeps its dtype; an integer array plus
# a small Python int (0..127) keeps its dtype. ``np.float32(a)`` is ``a.astype(np.float32)``;
# ``np.eye(n)[idx]`` of an integer array idx is idx's shape × n, float64.
_ALBU_RESIZING = frozenset({"SmallestMaxSize", "LongestMaxSize", "RandomScale", "PadIfNeeded"})
_ALBU_COMPOSE_KEYWORDS = frozenset({"additional_targets", "bbox_params", "keypoint_params", "is_check_shapes"})
_INTEGER = frozenset({"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"})
_FLOATS = frozenset({"float16", "float32", "float64"})
_UNSIZED = "?"  # a dim of an image's own (its height, its width): never a figure


def _albu_names(index: Optional[ModuleIndex]) -> Dict[str, str]:
    """The module's names for albumentations: "" for the package (``import albumentations as A``),
    the class name for ``from albumentations[.pytorch] import CenterCrop``."""
    if index is None:
        return {}
    found = getattr(index, "_albu_names", None)
    if found is None:
        found = {}
        for name, bindings in index.module_scope.bindings.items():
            if len(bindings) != 1 or bindings[0].kind != "import" or bindings[0].alias is None:
                continue
            statement, alias = bindings[0].node, bindings[0].alias
            if isinstance(statement, ast.Import) and alias.name.split(".")[0] == "albumentations" and (alias.asname is None or alias.name == "albumentations"):
                found[name] = ""
            elif isinstance(statement, ast.ImportFrom) and not statement.level and (statement.module or "").split(".")[0] == "albumentations":
                found[name] = alias.name
        index._albu_names = found  # type: ignore[attr-defined]
    return found


def _albu_class(func: ast.AST, names: Dict[str, str]) -> Optional[str]:
    """The albumentations class a call's function names (``A.CenterCrop``, ``CenterCrop``)."""
    if isinstance(func, ast.Name):
        return names.get(func.id) or None
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return parts[0] if parts and isinstance(func, ast.Name) and names.get(func.id) == "" else None


def _always(keywords: Dict[str, ast.expr]) -> bool:
    p = keywords.get("p")
    return p is None or (isinstance(p, ast.Constant) and type(p.value) in (int, float) and p.value == 1)


def _albu_attribute(attr: str, kept: Any, state: List[Any], depth: int) -> Optional[List[Any]]:
    """The state after ``self.attr``'s step (every value ``__init__`` gives it must agree), or
    None when not known."""
    values = kept.values(attr) if hasattr(kept, "values") else []
    outcomes = []
    for value in values:
        trial = list(state)
        if not _albu_steps(value, kept, trial, depth + 1):
            return None
        outcomes.append(trial)
    if not outcomes or any(o != outcomes[0] for o in outcomes):
        return None
    return outcomes[0]


def _albu_steps(node: ast.AST, kept: Any, state: List[Any], depth: int) -> bool:
    """Run one albumentations step (a call, or an attribute kept on self holding one: every
    value ``__init__`` gives it must agree) over ``state`` = [size (h, w) or None, dtype or None
    (the image's), C×H×W tensor]; False when what it makes is not known."""
    if depth > 8 or state[2]:
        return False  # nothing is read after ToTensorV2
    attr = _self_attr(node)
    if attr is not None:
        # one answer per attribute, state and depth: a pipeline listing another attribute N times,
        # itself listing one N times, was N² runs of the innermost (each walking the class)
        memo = getattr(kept, "steps", None)
        key = (attr, tuple(state), depth)
        if memo is not None and key in memo:
            found = memo[key]
        else:
            found = _albu_attribute(attr, kept, state, depth)
            if memo is not None:
                memo[key] = found
        if found is None:
            return False
        state[:] = found
        return True
    if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return False
    name = _albu_class(node.func, getattr(kept, "albu", {}))
    keywords = {k.arg: k.value for k in node.keywords}
    if name == "Compose":
        if len(node.args) != 1 or not isinstance(node.args[0], (ast.List, ast.Tuple)) or set(keywords) - _ALBU_COMPOSE_KEYWORDS:
            return False
        return all(_albu_steps(step, kept, state, depth + 1) for step in node.args[0].elts)
    if name in ("Resize", "CenterCrop", "RandomCrop", "RandomResizedCrop", "RandomSizedCrop"):
        if not _always(keywords):
            return False
        skip = 1 if name == "RandomSizedCrop" else 0
        args = node.args[skip:]
        if "size" in keywords or (args and isinstance(args[0], (ast.Tuple, ast.List))):
            size = keywords.get("size", args[0] if args else None)
            pair = list(size.elts) if isinstance(size, (ast.Tuple, ast.List)) and len(size.elts) == 2 else None
        else:
            height = args[0] if len(args) > 0 else keywords.get("height")
            width = args[1] if len(args) > 1 else keywords.get("width")
            pair = [height, width] if height is not None and width is not None else None
        dims = [(kept.init_param(d) if hasattr(kept, "init_param") else None) or _dim(d, {}, kept, depth + 1) for d in pair] if pair else []
        if len(dims) != 2 or not all(type(d) is int and d > 0 or isinstance(d, str) for d in dims):
            return False
        state[0] = tuple(dims)
        return True
    if name in _ALBU_RESIZING:
        state[0] = None
        return True
    if name in ("Normalize", "ToFloat"):
        if not _always(keywords):
            return False
        state[1] = "float32"
        return True
    if name == "ToTensorV2":
        if not _always(keywords):
            return False
        state[2] = True
        return True
    from dl_lint.analysis.libraries import ALBU_KEEPING

    return name in ALBU_KEEPING


def _albu_applied(node: ast.AST, assigned, kept, depth: int) -> Optional[Tuple[Tuple[Any, ...], str, bool]]:
    """``self.preprocessor(image=x)["image"]`` of an albumentations pipeline ``__init__`` keeps on
    self, applied to a numpy image of known channels and dtype: (dims, dtype, torch tensor)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "image"):
        return None
    call = node.value
    if not (isinstance(call, ast.Call) and not call.args and _self_attr(call.func) is not None):
        return None
    image = next((k.value for k in call.keywords if k.arg == "image"), None)
    if image is None or any(k.arg is None for k in call.keywords) or not getattr(kept, "albu", None):
        return None
    state: List[Any] = [None, None, False]
    if not _albu_steps(call.func, kept, state, 0) or state[0] is None:
        return None
    kept.pipeline = True
    given = _ndarray(image, assigned, kept, depth + 1)
    if given is None or len(given[0]) not in (2, 3) or _UNSIZED in given[0][2:]:
        return None
    dims, dtype = state[0] + given[0][2:], state[1] or given[1]
    if state[2]:  # C×H×W (H×W gets a channel of 1)
        dims = (dims[2] if len(dims) == 3 else 1, dims[0], dims[1])
    return dims, dtype, state[2]


_NUMPY_MADE = frozenset({"array", "asarray", "ascontiguousarray", "astype", "imread", "cvtColor", "transpose"})


def _numpy_shaped(node: ast.AST) -> bool:
    """Cheap: an expression ``_ndarray`` may know beyond ``_tensor``'s own forms."""
    if isinstance(node, (ast.BinOp, ast.UnaryOp)):
        return True
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "eye"
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
        node.func.attr in _NUMPY_MADE or (node.func.attr in ITEMSIZE and isinstance(node.func.value, ast.Name) and node.func.value.id in _NUMPY)
    )


def _ndarray(node: ast.AST, assigned, kept, depth: int) -> Optional[Tuple[Tuple[Any, ...], str]]:
    """(dims, dtype) of a numpy array: an image read in a known mode (``np.array(Image.open(p)
    .convert("RGB"))``, ``cv2.imread(p)``: uint8 of the image's own height and width), numpy's
    constructors, what an albumentations pipeline kept on self makes of an image, ``astype``,
    ``np.float32(a)``, arithmetic with a Python number and ``np.eye(n)[idx]`` as numpy does them."""
    if depth > 30:  # a chain of steps, inlined by ``_sequenced``
        return None
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, [])
        return _ndarray(values[0], assigned, kept, depth + 1) if len(values) == 1 else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _ndarray(node.operand, assigned, kept, depth + 1)
    if isinstance(node, ast.BinOp):
        return _numpy_arithmetic(node, assigned, kept, depth)
    if isinstance(node, ast.Subscript):
        applied = _albu_applied(node, assigned, kept, depth)
        if applied is not None:
            return None if applied[2] else applied[:2]
        eye = node.value
        if (isinstance(eye, ast.Call) and isinstance(eye.func, ast.Attribute) and eye.func.attr == "eye"
                and isinstance(eye.func.value, ast.Name) and eye.func.value.id in _NUMPY and len(eye.args) == 1):  # fmt: skip
            if any(k.arg != "dtype" for k in eye.keywords):
                return None
            dtype = _dtype_name(eye.keywords[0].value) if eye.keywords else "float64"
            n = _dim(eye.args[0], {}, kept, depth + 1)
            index = _ndarray(node.slice, assigned, kept, depth + 1)
            if dtype is None or n is None or isinstance(n, tuple) or index is None or index[1] not in _INTEGER:
                return None
            return index[0] + (n,), dtype
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    func, owner = node.func, node.func.value
    if isinstance(owner, ast.Name) and owner.id in _NUMPY:
        if func.attr in ("array", "asarray", "ascontiguousarray") and len(node.args) == 1 and all(k.arg == "dtype" for k in node.keywords):
            inner = _ndarray(node.args[0], assigned, kept, depth + 1)
            if inner is None:
                channels = _image_channels(node.args[0], assigned, 0)  # bounded by its own depth
                if channels is None:
                    return None
                inner = ((_UNSIZED, _UNSIZED, channels) if channels != 1 else (_UNSIZED, _UNSIZED)), "uint8"
            if node.keywords:
                dtype = _dtype_name(node.keywords[0].value)
                return (inner[0], dtype) if dtype is not None else None
            return inner
        if func.attr == "transpose" and node.args and not node.keywords:
            return _transposed(_ndarray(node.args[0], assigned, kept, depth + 1), node.args[1:])
        if func.attr in ITEMSIZE and func.attr not in _CANONICAL and func.attr != "bool" and len(node.args) == 1 and not node.keywords:
            inner = _ndarray(node.args[0], assigned, kept, depth + 1)  # np.float32(a): a cast
            return (inner[0], func.attr) if inner is not None and inner[0] else None
    if isinstance(owner, ast.Name) and owner.id == "cv2" and func.attr in ("imread", "cvtColor"):
        channels = _image_channels(node, assigned, 0)
        return ((_UNSIZED, _UNSIZED, channels) if channels != 1 else (_UNSIZED, _UNSIZED), "uint8") if channels else None
    if func.attr == "astype" and len(node.args) == 1 and all(k.arg == "copy" for k in node.keywords):
        inner = _ndarray(owner, assigned, kept, depth + 1)
        dtype = _dtype_name(node.args[0])
        return (inner[0], dtype) if inner is not None and dtype is not None else None
    if func.attr == "copy" and not node.args and not node.keywords:
        return _ndarray(owner, assigned, kept, depth + 1)
    if func.attr == "transpose" and not node.keywords and not (isinstance(owner, ast.Name) and owner.id in ("torch", "cv2")):
        axes = node.args[0].elts if len(node.args) == 1 and isinstance(node.args[0], (ast.Tuple, ast.List)) else node.args
        return _transposed(_ndarray(owner, assigned, kept, depth + 1), axes)  # ``a.transpose(2, 0, 1)``
    known = None
    if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if isinstance(owner, ast.Name) and owner.id in _NUMPY and func.attr in _NUMPY_SHAPED:  # np.zeros(...)
        known = _constructed(node, func.attr, _NUMPY_SHAPED[func.attr], None, assigned, kept, depth + 1)
    elif (isinstance(owner, ast.Attribute) and owner.attr == "random" and isinstance(owner.value, ast.Name)
            and owner.value.id in _NUMPY and func.attr in _NUMPY_RANDOM):  # fmt: skip
        known = _numpy_random(node, func.attr, assigned, kept, depth + 1)
    return (known[1], known[2]) if known is not None and known[1] else None


def _transposed(array: Optional[Tuple[Tuple[Any, ...], str]], axes: Sequence[ast.expr]) -> Optional[Tuple[Tuple[Any, ...], str]]:
    """``np.transpose(a, (1, 2, 3, 0))``: the same elements, the dims in the order the literal
    axes give (reversed without axes); None when the axes are not a permutation of literals."""
    if array is None or not array[0]:
        return None
    dims, dtype = array
    if len(axes) == 1 and isinstance(axes[0], (ast.Tuple, ast.List)):
        axes = axes[0].elts
    if not axes:
        return tuple(reversed(dims)), dtype
    order = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None for a in axes]
    if None in order or sorted(order) != list(range(len(dims))):  # type: ignore[type-var]
        return None
    return tuple(dims[i] for i in order), dtype  # type: ignore[index]


def _numpy_arithmetic(node: ast.BinOp, assigned, kept, depth: int) -> Optional[Tuple[Tuple[Any, ...], str]]:
    """A numpy array with a Python number (either side), as numpy casts it (see above)."""
    left, right = node.left, node.right
    if isinstance(left, ast.Constant) and not isinstance(right, ast.Constant):
        left, right = right, left
        if not isinstance(node.op, (ast.Add, ast.Mult, ast.Sub, ast.Div)):
            return None
    if not (isinstance(right, ast.Constant) and type(right.value) in (int, float)):
        return None
    array = _ndarray(left, assigned, kept, depth + 1)
    if array is None:
        return None
    dims, dtype = array
    number = right.value
    if isinstance(node.op, ast.Div):
        if dtype not in _FLOATS | _INTEGER | {"bool"}:
            return None
        return dims, dtype if dtype in _FLOATS else "float64"
    if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return None
    if dtype in _FLOATS:
        return dims, dtype
    if dtype in _INTEGER:
        if type(number) is float:
            return dims, "float64"
        return (dims, dtype) if 0 <= number <= 127 else None
    return None


def _mode_check(statement: ast.stmt) -> Optional[Tuple[str, str]]:
    """``if not img.mode == "RGB": img = img.convert("RGB")`` (or ``img.mode != "RGB"``): (name,
    mode). Afterwards the image is in that mode on both paths."""
    if not isinstance(statement, ast.If) or statement.orelse or len(statement.body) != 1:
        return None
    test, body = statement.test, statement.body[0]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Compare):
        test, op = test.operand, ast.Eq
    else:
        op = ast.NotEq
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], op)):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.Attribute) and left.attr == "mode" and isinstance(left.value, ast.Name) and isinstance(right, ast.Constant)):
        return None
    name, mode = left.value.id, right.value
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1 and isinstance(body.targets[0], ast.Name) and body.targets[0].id == name):
        return None
    value = body.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "convert"
            and isinstance(value.func.value, ast.Name) and value.func.value.id == name and len(value.args) == 1
            and not value.keywords and isinstance(value.args[0], ast.Constant) and value.args[0].value == mode):  # fmt: skip
        return None
    return (name, mode) if isinstance(mode, str) else None


class _Substitute(ast.NodeTransformer):
    def __init__(self, current: Dict[str, ast.expr]) -> None:
        self.current = current

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.current.get(node.id, node) if isinstance(node.ctx, ast.Load) else node


def _sequenced(body: List[ast.stmt]) -> List[ast.stmt]:
    """``__getitem__``'s statements with the names its top level rebinds in sequence replaced by
    what they hold at each use: ``img = Image.open(p)``, ``if img.mode != "RGB": img =
    img.convert("RGB")``, ``img = np.array(img)``, ``img = self.pre(image=img)["image"]``, and a
    dict filled key by key (``example = {}``, ``example["image"] = img``). Only names every
    binding of which is such a top-level statement, read nowhere inside a nested block (and a
    dict read only by ``d[key]`` or returned as it is); the body unchanged otherwise."""
    top: Dict[str, int] = {}  # name -> bindings at the top level
    dicts: Set[str] = set()
    allowed: Set[int] = set()  # the Name nodes of those bindings and of the dicts' reads
    for statement in body:
        checked = _mode_check(statement)
        if checked is not None:
            top[checked[0]] = top.get(checked[0], 0) + 1
            allowed.update(id(n) for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id == checked[0])
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                top[target.id] = top.get(target.id, 0) + 1
                allowed.add(id(target))
            elif (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                    and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str)):  # fmt: skip
                dicts.add(target.value.id)
                allowed.add(id(target.value))
            elif _element_store(target):  # ``data[0, :, :] = wind_u``: an array's element write
                allowed.add(id(target.value))
        elif isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
            allowed.add(id(statement.value))
    candidates = {n for n, count in top.items() if count > 1} | dicts
    if not candidates:
        return body
    for statement in body:
        nested = not isinstance(statement, (ast.Assign, ast.Return, ast.Expr)) and _mode_check(statement) is None
        for node in ast.walk(statement):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load):
                allowed.add(id(node.value))  # d[key]: a read
            if not isinstance(node, ast.Name) or node.id not in candidates or id(node) in allowed and not nested:
                continue
            if nested or (node.id in dicts) or not isinstance(node.ctx, ast.Load):
                candidates.discard(node.id)  # bound or read inside a block, a dict passed on
    candidates -= dicts - set(top)
    if not candidates:
        return body
    current: Dict[str, ast.expr] = {}
    out: List[ast.stmt] = []
    import copy

    for statement in body:
        checked = _mode_check(statement)
        if checked is not None and checked[0] in candidates:
            if checked[0] in current:
                current[checked[0]] = ast.Call(ast.Attribute(current[checked[0]], "convert", ast.Load()), [ast.Constant(checked[1])], [])
            continue
        if isinstance(statement, ast.Return) and statement.value is not None:
            statement = ast.Return(_Substitute(current).visit(copy.deepcopy(statement.value)))
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            value = _Substitute(current).visit(copy.deepcopy(statement.value))
            if isinstance(target, ast.Name) and target.id in candidates:
                if target.id in dicts:
                    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args and not value.keywords:
                        value = ast.Dict([], [])
                    if not (isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) for k in value.keys)):
                        value = ast.Constant(None)  # not a dict of known keys: unknown
                current[target.id] = value
                continue
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in candidates:
                held = current.get(target.value.id)
                if isinstance(held, ast.Dict):
                    keys = [k.value for k in held.keys]  # type: ignore[union-attr]
                    values = list(held.values)
                    key = target.slice.value  # type: ignore[attr-defined]
                    if key in keys:
                        values[keys.index(key)] = value
                    else:
                        keys.append(key)
                        values.append(value)
                    current[target.value.id] = ast.Dict([ast.Constant(k) for k in keys], values)
                elif _element_store(target) and held is not None and _shaped_constructor(held):
                    pass  # numpy and torch keep the array's shape and dtype
                else:
                    current[target.value.id] = ast.Constant(None)
                continue
            statement = ast.Assign([target], value)
        out.append(statement)
    return out
