"""Dataset classes: IterableDataset ancestry and per-worker sharding evidence.

Facts only. ``DatasetIndex`` answers "does this class derive from torch's IterableDataset
through classes we can see?" and "does its ``__iter__`` (or a method or helper it calls) shard
by worker?". Anything it cannot see (a base class from another library) makes it answer None,
which the rules treat as silence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Mapping, Optional, Set, Tuple

from dl_lint.analysis.names import absolute_module, project_key
from dl_lint.record import Record

if TYPE_CHECKING:
    from dl_lint.analysis.values import Instance
    from dl_lint.model import Location

ITERABLE_QUALNAMES = frozenset(
    {"torch.utils.data.IterableDataset", "torch.utils.data.dataset.IterableDataset"}
)
MAP_STYLE_QUALNAMES = frozenset({"torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset"})
# Names whose use inside ``__iter__`` (or what it calls) shows per-worker sharding.
SHARDING_NAMES = frozenset(
    {"get_worker_info", "split_by_worker", "split_by_node", "sharding_filter", "split_dataset_by_node"}
)
# Constructors of random generators (DL204: one made in ``__init__`` is copied into every worker).
RNG_QUALNAMES = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
        "torch.Generator",
    }
)


MethodFacts = Tuple[bool, FrozenSet[str], FrozenSet[str], bool]
# How many attribute objects deep DL202 looks for what a dataset keeps
# (``self.extractor = Extractor()`` whose ``self.transform`` holds a lambda is one).
MAX_OBJECT_DEPTH = 3
# Methods by which a class decides itself what pickling it keeps: such a class is not judged.
PICKLE_METHODS = ("__getstate__", "__reduce__", "__reduce_ex__")
# How deep calls are followed from ``__iter__`` (or a worker_init_fn) before giving up (unknown).
MAX_CALL_DEPTH = 6


class FunctionFacts(Record):
    __slots__ = ("name", "module", "path", "line", "shards", "calls", "uses_cuda", "reseeds", "opaque", "passes", "collates")

    def __init__(
        self,
        name: str,
        module: str,
        path: str,
        line: int,
        shards: bool,
        calls: FrozenSet[str] = frozenset(),
        uses_cuda: bool = False,  # moves tensors to CUDA (DL205 for collate_fn)
        reseeds: bool = False,  # mentions a seed or RNG (DL204: a worker_init_fn that may reseed)
        opaque: bool = False,  # makes a call that cannot be followed (a third-party function)
        passes: Tuple[int, ...] = (),  # DL206: the parameters it is a generator over (positions)
        collates: Optional[Tuple] = None,  # DL101: the batch it returns as a collate_fn (``summary.collate_fields``)
    ) -> None:
        self.collates = collates
        self.passes = passes
        self.name = name
        self.module = module
        self.path = path
        self.line = line
        self.shards = shards
        self.calls = calls
        self.uses_cuda = uses_cuda
        self.reseeds = reseeds
        self.opaque = opaque


class ClassFacts(Record):
    __slots__ = (
        "name", "module", "path", "line", "bases", "methods", "local", "init_containers", "getitem_reads",
        "init_rngs", "draws", "cuda_methods", "iter_shape", "sample", "unpicklable", "init_stores", "passes",
        "returned", "held_none", "held_default", "init_relays",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        module: str,
        path: str,
        line: int,
        # One entry per positional base: the qualified names it may denote (or its source text).
        bases: Tuple[FrozenSet[str], ...] = (),
        # method name -> (uses a sharding name, self.<method>() it calls, project functions and
        # methods it calls (``module.f@path``, ``module.Class@path::method``), whether it makes a
        # call that cannot be followed); None: a new empty dict
        methods: Optional[Mapping[str, "MethodFacts"]] = None,
        local: bool = False,  # defined inside a function: cannot be pickled (DL202)
        # DL103: attributes set to Python lists/dicts in __init__, and those indexed in __getitem__.
        init_containers: FrozenSet[str] = frozenset(),
        getitem_reads: FrozenSet[str] = frozenset(),
        # DL204: attributes holding a random generator made in __init__, and those drawn from in
        # __getitem__/__iter__ (and methods they call).
        init_rngs: FrozenSet[str] = frozenset(),
        draws: FrozenSet[str] = frozenset(),
        # DL205: methods that move tensors to CUDA.
        cuda_methods: FrozenSet[str] = frozenset(),
        # DL201's fix: when ``__iter__`` is a single ``for x in ITERABLE`` or ``return iter(ITERABLE)``:
        # (row of that statement, its indentation, ITERABLE's start and end, ITERABLE's text).
        iter_shape: Optional[Tuple[int, str, "Location", "Location", str]] = None,
        # DL101: (fields, parameter defaults) of one sample, from ``__getitem__``
        # (``summary.sample_bytes``; their bytes: ``sample_of``).
        sample: Optional[Tuple] = None,
        # DL202: (attribute, what it holds, path, line) for a lambda or local function kept on
        # self in ``__init__`` (``pickling.held_callable``), and the parameters kept on self
        # (name, position after self or -1).
        unpicklable: Tuple[Tuple[str, str, str, int], ...] = (),
        init_stores: Tuple[Tuple[str, int], ...] = (),
        # DL206: method name -> positions (after self) of the parameters it is a generator over.
        passes: Optional[Mapping[str, Tuple[int, ...]]] = None,
        # DL202: (attribute, what it holds, path, line, method) for ``self.attr = self.m(...)``
        # in ``__init__`` where every ``return`` of method ``m`` holds a lambda or a local
        # function (``summary.ClassRecord.method_returns``).
        returned: Tuple[Tuple[str, str, str, int, str], ...] = (),
        # DL202: what ``__init__`` keeps on the path a test of a parameter selects
        # (``SummaryModule.held_when_none``): (parameter, position after self or -1, attribute,
        # (what, path, line), (kind, the mark of the parameter's default)).
        held_none: Tuple[Tuple[str, int, str, Tuple[str, str, int], Tuple[str, str]], ...] = (),
        # DL202: what ``__init__`` keeps when a parameter whose default is a lambda is left out
        # (``SummaryModule.held_when_none(default=True)``): (parameter, position after self or
        # -1, attribute, (what, path, line)).
        held_default: Tuple[Tuple[str, int, str, Tuple[str, str, int]], ...] = (),
        # ``__init__`` calls its base's (``super().__init__(...)``, ``Base.__init__(self, ...)``)
        # as a statement of its own body: what the base's ``__init__`` keeps, this class keeps.
        init_relays: bool = False,
    ) -> None:
        self.init_relays = init_relays
        self.held_none = held_none
        self.held_default = held_default
        self.passes = {} if passes is None else passes
        self.returned = returned
        self.unpicklable = unpicklable
        self.init_stores = init_stores
        self.name = name
        self.module = module
        self.path = path
        self.line = line
        self.bases = bases
        self.methods = {} if methods is None else methods
        self.local = local
        self.init_containers = init_containers
        self.getitem_reads = getitem_reads
        self.init_rngs = init_rngs
        self.draws = draws
        self.cuda_methods = cuda_methods
        self.iter_shape = iter_shape
        self.sample = sample


class DatasetIndex:
    """Answers questions about dataset classes anywhere in the project. ``classes`` and
    ``functions`` look a (module, name) up, analysing the module on demand."""

    def __init__(
        self,
        classes: Callable[[str, str, str], Optional[ClassFacts]],
        functions: Callable[[str, str, str], Optional[FunctionFacts]],
        objects: Optional[Callable[[str, str, str], Tuple[Tuple[str, str, str, str, int], ...]]] = None,
        results: Optional[Callable[[str, str, str], Tuple[Tuple[str, str, str, str, int], ...]]] = None,
        returned: Optional[Callable[[str, str, str], Optional[Tuple[str, str, int]]]] = None,
    ) -> None:
        self._classes = classes
        self._functions = functions
        self._objects = objects
        self._results = results
        self._returned = returned
        self._held: Dict[Tuple[str, str, str, int], Optional[Tuple[str, str, str, int]]] = {}
        self._cuda: Dict[str, Optional[Tuple[str, str]]] = {}  # class key -> ``cuda_callee``

    def unpicklable(self, cls: ClassFacts, depth: int = 0) -> Optional[Tuple[str, str, str, int]]:
        """DL202: (attribute path, what it holds, path, line) of a lambda or local function an
        instance of ``cls`` keeps, pickled with it: set by ``__init__`` (its own or an
        ancestor's), returned by a method ``__init__`` keeps the result of (when no subclass
        overrides it), or kept by a project object ``__init__`` builds
        (``self.extractor = Extractor()``), ``MAX_OBJECT_DEPTH`` objects deep. None when none is
        certain; a class that defines ``__getstate__``/``__reduce__`` decides itself. Memoized
        per (class, depth): linear in the classes."""
        key = (cls.module, cls.name, cls.path, depth)
        if key not in self._held:
            self._held[key] = None  # a cycle finds nothing
            self._held[key] = self._find_held(cls, depth)
        return self._held[key]

    def _find_held(self, cls: ClassFacts, depth: int) -> Optional[Tuple[str, str, str, int]]:
        mro = self.mro(cls)
        if mro is None and depth:
            return None  # an attribute object of a class we cannot see whole
        classes = mro or [cls]
        if any(m in c.methods for c in classes for m in PICKLE_METHODS):
            return None
        # The ``__init__`` that runs is the first one along the MRO, and a base's after it only
        # when it calls the base's as a statement of its own body (``init_relays``): a subclass
        # whose ``__init__`` does not (``def __init__(self, n): self.n = n``) never gets the
        # attributes its base's ``__init__`` sets, lambdas included.
        first = next((i for i, c in enumerate(classes) if "__init__" in c.methods), len(classes) - 1)
        last = first
        while last + 1 < len(classes) and classes[last].init_relays:
            last += 1
        running = classes[: last + 1]
        for c in running:
            for attr, what, path, line in c.unpicklable:
                return attr, what, path, line
        for c in running:
            for attr, what, path, line, method in c.returned:
                owner = next((k for k in classes if method in k.methods), None)
                if owner is c:
                    return attr, what, path, line
        if self._results is not None and self._returned is not None:
            for c in running:  # ``self.transform = _build_transform(size)``: a helper's result
                for attr, module, name, path, _line in self._results(c.module, c.name, c.path):
                    found = self._returned(module, name, path)
                    if found is not None:
                        return (attr, *found)
        if depth >= MAX_OBJECT_DEPTH or self._objects is None:
            return None
        for c in running:
            for attr, module, name, path, _line in self._objects(c.module, c.name, c.path):
                inner = self._classes(module, name, path)
                if inner is None or inner.local:
                    continue
                found = self.unpicklable(inner, depth + 1)
                if found is not None:
                    return f"{attr}.{found[0]}", found[1], found[2], found[3]
        return None

    def lookup_class(self, module: str, name: str, path: str = "") -> Optional[ClassFacts]:
        return self._classes(module, name, path)

    def resolve_instance(self, instance: "Instance", current_module: str = "") -> Optional[ClassFacts]:
        """The class an ``Instance`` value denotes."""
        return self._classes(absolute_module(instance.module, current_module, False), instance.name, instance.path)

    def _by_qualname(self, key: str) -> Optional[ClassFacts]:
        qualname, _, path = key.partition("@")
        module, _, name = qualname.rpartition(".")
        return self._classes(module, name, path)

    def _base_classes(self, names: FrozenSet[str]) -> Optional[ClassFacts]:
        for qualname in names:
            found = self._by_qualname(qualname)
            if found is not None:
                return found
        return None

    def mro(self, cls: ClassFacts) -> Optional[List[ClassFacts]]:
        """The project classes in ``cls``'s ancestry (depth-first, cls first), or None when an
        ancestor is neither a project class nor a known torch dataset base (we cannot see it)."""
        out: List[ClassFacts] = []
        seen: Set[Tuple[str, str]] = set()

        def walk(c: ClassFacts) -> bool:
            key = (c.module, c.name)
            if key in seen:
                return True
            seen.add(key)
            out.append(c)
            for names in c.bases:
                if names & (ITERABLE_QUALNAMES | MAP_STYLE_QUALNAMES | _HARMLESS_BASES):
                    continue
                if any(n.startswith(("typing.Generic", "Generic[", "typing.Protocol")) for n in names):
                    continue
                base = self._base_classes(names)
                if base is None or not walk(base):
                    return False
            return True

        return out if walk(cls) else None

    def is_iterable(self, cls: ClassFacts) -> bool:
        """True when ``cls`` provably derives from torch's IterableDataset."""
        return self._derives(cls, ITERABLE_QUALNAMES, set())

    def is_map_style(self, cls: ClassFacts) -> bool:
        return self._derives(cls, MAP_STYLE_QUALNAMES, set()) and not self.is_iterable(cls)

    def derives_from(self, cls: ClassFacts, targets: FrozenSet[str]) -> bool:
        """True when ``cls`` provably derives from a class named in ``targets`` (qualified names)
        through classes we can see. A project class counts by its own qualified name, so a
        library's own repository (Lightning's tests subclassing its ``LightningModule``) is
        judged like its users."""
        return self._derives(cls, targets, set(), by_own_name=True)

    def _derives(
        self, cls: ClassFacts, targets: FrozenSet[str], seen: Set[Tuple[str, str]], by_own_name: bool = False
    ) -> bool:
        key = (cls.module, cls.name)
        if key in seen:
            return False
        seen.add(key)
        for names in cls.bases:
            if names & targets:
                return True
            if by_own_name and any(name.partition("@")[0] in targets for name in names):
                return True
            base = self._base_classes(names)
            if base is not None and self._derives(base, targets, seen, by_own_name):
                return True
        return False

    def iter_shards(self, cls: ClassFacts) -> Optional[bool]:
        """Whether iterating ``cls`` shards by worker: True (evidence found), False (we saw all
        of ``__iter__`` and everything it calls, and no sharding), None (cannot tell: a base
        class, a called function or a method of a held object we cannot see)."""
        methods = self._methods(cls)
        if methods is None or "__iter__" not in methods:
            return None
        # Libraries build sharded pipelines in ``__init__`` (webdataset's split_by_worker) and
        # iterate them in ``__iter__``: a sharding name anywhere in the class counts.
        if any(facts[0] for facts in methods.values()):
            return True
        return self._walk([f"{project_key(cls.module, cls.name, cls.path)}::__iter__"])

    def sample_bytes(self, cls: ClassFacts, instance: Optional["Instance"] = None, current_module: str = "") -> Optional[Tuple[int, str]]:
        """(bytes, description) of one sample of a map-style dataset, from the ``__getitem__``
        it runs (its own or inherited); None when that cannot be estimated. Dimensions an
        ``__init__`` parameter gives (``self.block_size``, the transform kept on self) are read
        where the dataset is constructed (``instance.given``), else from the parameter's literal
        default; a wrapper's inner dataset (a project dataset or a torchvision one the
        construction hands it) is read the same way, ``MAX_WRAPPERS`` deep."""
        parts = self._sample_parts(cls, instance, current_module, 0)
        return sample_of(*parts) if parts is not None else None

    def _sample_parts(self, cls: ClassFacts, instance: Optional["Instance"], current_module: str, depth: int):
        """(fields, values) of ``sample_bytes``: the sample's fields and the values of the
        parameters they name, an inner dataset's as ("dataset", fields, values)."""
        from dl_lint.analysis.values import Instance

        if depth > MAX_WRAPPERS:
            return None
        mro = self.mro(cls)
        for at, c in enumerate(mro or ()):
            if "__getitem__" in c.methods:
                if c.sample is None:
                    return None
                if len(c.sample) > 2 and c.sample[2] and any("__init__" in s.methods for s in mro[:at]):  # type: ignore[index]
                    return None  # a pipeline c's __init__ builds, and a subclass's __init__ of its own
                given = dict(instance.given) if instance is not None else {}
                values = {**dict(c.sample[1]), **given}
                if at and ("*" in given or any("__init__" in s.methods for s in mro[:at])):
                    # a subclass's construction: its arguments reach c's ``__init__`` through a
                    # signature of its own (or c's, unread): neither they nor c's defaults are known
                    values = {}
                for name, value in list(values.items()):
                    if isinstance(value, Instance):  # the inner dataset of a wrapper
                        inner = None if value.local else self.resolve_instance(value, current_module)
                        parts = None
                        if inner is not None and not self.is_iterable(inner):
                            parts = self._sample_parts(inner, value, current_module, depth + 1)
                        values[name] = ("dataset", *parts, inner.name) if parts is not None else None  # type: ignore[union-attr]
                return c.sample[0], values
        return None

    def function_facts(self, module: str, name: str, path: str = "") -> Optional[FunctionFacts]:
        return self._functions(module, name, path)

    def function_shards(self, module: str, name: str, path: str = "") -> Optional[bool]:
        """Whether a worker_init_fn (or helper) shards, itself or through what it calls."""
        if self._functions(module, name, path) is None:
            return None
        return self._walk([project_key(module, name, path)])

    def _methods(self, cls: ClassFacts) -> Optional[Dict[str, "MethodFacts"]]:
        mro = self.mro(cls)
        if mro is None:
            return None
        methods: Dict[str, MethodFacts] = {}
        for c in reversed(mro):  # subclasses override
            methods.update(c.methods)
        return methods

    def _walk(self, roots: List[str]) -> Optional[bool]:
        """Follow calls from ``roots`` (function keys, or ``class key::method``) through the
        project, ``MAX_CALL_DEPTH`` deep: True at the first sharding evidence; False when every
        call was followed to its end without any; None when some call could not be followed."""
        return self._reach(roots, 0)[0]

    def cuda_callee(self, cls: ClassFacts) -> Optional[Tuple[str, str]]:
        """DL205: a project function that a method a worker runs (``__getitem__``,
        ``__getitems__``, ``__iter__``) reaches through its calls, ``MAX_CALL_DEPTH`` deep, and
        that moves tensors to CUDA (``FunctionFacts.uses_cuda``): (the method, the function's
        name), or None. Only what is seen counts: a call that cannot be followed says nothing.
        Memoized per class: every loader of the class asks."""
        class_key = project_key(cls.module, cls.name, cls.path)
        if class_key not in self._cuda:
            self._cuda[class_key] = None
            for method in ("__getitem__", "__getitems__", "__iter__"):
                if method in (self._methods(cls) or ()):
                    found, key = self._reach([f"{class_key}::{method}"], 3)
                    if found and key:
                        self._cuda[class_key] = (method, key.partition("@")[0].rpartition(".")[2])
                        break
        return self._cuda[class_key]

    def _reach(self, roots: List[str], evidence: int) -> Tuple[Optional[bool], Optional[str]]:
        """``_walk`` for the evidence at position ``evidence`` of what ``_callee`` gives (0:
        sharding, 3: a CUDA move): (True, the key where it is), (False, None) when every call
        was followed to its end without it, (None, None) when some call could not be followed."""
        unknown = False
        seen: Set[str] = set()
        level = list(roots)
        for _ in range(MAX_CALL_DEPTH):
            following: List[str] = []
            for key in level:
                if key in seen:
                    continue
                seen.add(key)
                found = self._callee(key)
                if found is None:
                    unknown = True
                    continue
                if found[evidence]:
                    return True, key
                unknown = unknown or found[2]
                following.extend(found[1])
            level = following
            if not level:
                return (None if unknown else False), None
        return None, None  # deeper than we follow

    def _callee(self, key: str) -> Optional[Tuple[bool, List[str], bool, bool]]:
        """(shards, keys it calls, makes an unfollowable call, moves tensors to CUDA) for a
        function or method key (a method's own CUDA moves are its class's ``cuda_methods``,
        asked before any walk); None when the key names nothing we can see. Constructing a
        project class is followed into nothing: its methods are judged where the object is used."""
        target, _, method = key.partition("::")
        qualname, _, path = target.partition("@")
        module, _, name = qualname.rpartition(".")
        if not method:
            func = self._functions(module, name, path)
            if func is not None:
                return func.shards, sorted(func.calls), func.opaque, func.uses_cuda
            if self._classes(module, name, path) is not None:
                return False, [], False, False
            return None
        cls = self._classes(module, name, path)
        methods = self._methods(cls) if cls is not None else None
        if cls is None or methods is None or method not in methods:
            return None
        shards, self_calls, calls, opaque = methods[method]
        class_key = project_key(cls.module, cls.name, cls.path)
        own = [f"{class_key}::{m}" for m in sorted(self_calls) if m in methods]
        return shards or any(facts[0] for facts in methods.values()), own + sorted(calls), opaque, False


# The bytes of an element of each dtype a sample's field may have (``summary.sample_bytes``).
ITEMSIZE = {
    "float64": 8, "double": 8, "float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2,
    "int64": 8, "long": 8, "int32": 4, "int": 4, "int16": 2, "short": 2, "int8": 1, "uint8": 1, "bool": 1,
    "uint16": 2, "uint32": 4, "uint64": 8,
}  # fmt: skip


# The words for parts of a sample the code does not size (``summary.UNKNOWN_PART``), counted as 0
# bytes: a figure whose description holds them is a lower bound (``BatchFigure.lower``).
LOWER_BOUND = "not counted: the figure is a lower bound"
UNCOUNTED = f"a part of unknown size ({LOWER_BOUND})"
UNCOUNTED_MANY = f"parts of unknown size ({LOWER_BOUND})"

# How many wrappers deep an inner dataset's sample is read (a wrapper of a wrapper of a dataset).
MAX_WRAPPERS = 3


def sample_of(fields, values: Dict[str, object]) -> Optional[Tuple[int, str]]:
    """(bytes, description) of a sample's fields (``summary.sample_bytes``) with the values of
    the ``__init__`` parameters they name (an int; an image transform's (height, width, dtype);
    an inner dataset's ("dataset", fields, values, name) or a torchvision dataset's ("bytes",
    bytes, description)). A field whose size is not known (``summary.UNKNOWN_PART``, a
    parameter's value missing) counts as 0 bytes and is named as not counted (``UNCOUNTED``):
    the figure is then a lower bound. None when no field is known, or only numbers beside
    unknown ones."""
    total = 0
    shown: List[str] = []
    uncounted = 0
    for field in fields:
        part = _field_bytes(field, values)
        if part is None:
            uncounted += 1
            continue
        total += part[0]
        shown.append(part[1])
    if not shown:
        return None
    if uncounted and all(text == "a number" for text in shown):
        return None  # only labels known beside the unknown parts: a bound that says nothing
    if uncounted:
        shown.append(UNCOUNTED if uncounted == 1 else f"{uncounted} {UNCOUNTED_MANY}")
    return total, " + ".join(shown)


def _field_bytes(field, values: Dict[str, object]) -> Optional[Tuple[int, str]]:
    """(bytes, description) of one field of ``sample_of``; None when its size is not known."""
    if field[0] == "?":
        return None
    if field[0] in ("k", "ds"):
        return _part(field, values)
    if field[0] in ("img", "albu"):
        kind, param, channels = field
        image = values.get(param)
        if kind == "img" and isinstance(image, tuple) and image[:1] == ("views",) and channels:
            # a multi-view transform: each view is what its transform makes of the image
            sizes = [(h, w, dtype) for h, w, dtype in image[1] if h and dtype in ITEMSIZE]
            if len(sizes) != len(image[1]):
                return None
            each = " + ".join(f"{channels}×{h}×{w} {dtype}" for h, w, dtype in sizes)
            total = sum(channels * h * w * ITEMSIZE[dtype] for h, w, dtype in sizes)
            return total, f"{len(sizes)} views of the image ({each}, what {param} makes of it)"
        if not (isinstance(image, tuple) and image[:1] == ("image",)):
            return None
        library = image[4] if len(image) > 4 else "torchvision"
        if (kind == "albu") != (library == "albumentations"):
            return None  # called the other library's way
        height, width, dtype = image[1:4]
        if not height or dtype not in ITEMSIZE:
            return None  # (0, 0): the image's own size, not fixed
        return channels * height * width * ITEMSIZE[dtype], f"{channels}×{height}×{width} {dtype} (what {param} makes of the image)"
    _, dims, dtype = field
    numel = 1
    sizes = []
    for dim in dims:
        if isinstance(dim, str) or isinstance(dim, tuple):
            name, extra = (dim, 0) if isinstance(dim, str) else dim
            value = values.get(name)
            if type(value) is not int or value < 0:
                return None
            dim = value + extra
        numel *= dim
        sizes.append(str(dim))
    return numel * ITEMSIZE[dtype], f"{'×'.join(sizes)} {dtype}" if sizes else "a number"


def _part(field, values: Dict[str, object]) -> Optional[Tuple[int, str]]:
    """A dict's value at a key (("k", key, fields)), or what a wrapper takes of its inner
    dataset's sample (("ds", parameter, keys)): the whole sample, or its value at ``keys`` when
    the inner sample is a dict with that key."""
    if field[0] == "k":
        return sample_of(field[2], values)
    _, param, keys = field
    inner = values.get(param)
    if isinstance(inner, tuple) and inner[:1] == ("bytes",) and not keys:
        return inner[1], f"a sample of {param} ({inner[2]})"
    if not (isinstance(inner, tuple) and inner[:1] == ("dataset",)):
        return None
    _, chosen, inner_values, name = inner
    for key in keys:
        if not chosen or any(f[0] != "k" for f in chosen):
            return None  # not a dict sample (or one built another way): the key is not known
        matching = [f for f in chosen if f[1] == key]
        if len(matching) != 1:
            return None
        chosen = matching[0][2]
    found = sample_of(chosen, inner_values)  # type: ignore[arg-type]
    if found is None:
        return None
    what = f"{name}'s sample" + "".join(f"[{key!r}]" for key in keys)
    return found[0], f"{what} ({found[1]})"


_HARMLESS_BASES = frozenset({"object", "builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol"})

