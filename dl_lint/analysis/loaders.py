"""torch's DataLoader signature, and a loader call with its arguments bound to it.

Pure data (no libcst): a LoaderCall is built by ``analysis.module`` and read by the rules.
"""

from __future__ import annotations

from typing import Any, FrozenSet, Mapping, Optional, Tuple

from dl_lint.analysis.values import ABSENT, Origin, Possible, Value
from dl_lint.model import Location
from dl_lint.record import Record

TORCH_LOADER_QUALNAMES = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
LOADER_QUALNAMES = TORCH_LOADER_QUALNAMES | frozenset(
    {
        # torchdata's StatefulDataLoader keeps torch's signature (and adds keyword-only options).
        "torchdata.stateful_dataloader.StatefulDataLoader",
        "torchdata.stateful_dataloader.stateful_dataloader.StatefulDataLoader",
    }
)

# DL202: what a torch DataLoader keeps, so pickles with an object that keeps the loader (read in
# torch 2.13's torch/utils/data/dataloader.py: ``__init__`` stores ``self.dataset``,
# ``self.worker_init_fn`` and ``self.collate_fn``; ``DataLoader`` defines no ``__getstate__``,
# its iterators do): (parameter, position after self).
KEPT_BY_TORCH_LOADER = (("dataset", 0), ("collate_fn", 6), ("worker_init_fn", 10))

# Positional order of torch.utils.data.DataLoader.__init__ (torch 1.7 .. 2.13).
POSITIONAL = (
    "dataset",
    "batch_size",
    "shuffle",
    "sampler",
    "batch_sampler",
    "num_workers",
    "collate_fn",
    "pin_memory",
    "drop_last",
    "timeout",
    "worker_init_fn",
    "multiprocessing_context",
    "generator",
)
KEYWORD_ONLY = ("prefetch_factor", "persistent_workers", "pin_memory_device", "in_order")
PARAMETERS = POSITIONAL + KEYWORD_ONLY

# torch 2.x defaults (prefetch_factor became None in 2.0; before it was 2).
DEFAULTS: Mapping[str, Any] = {
    "dataset": ABSENT,
    "batch_size": 1,
    "shuffle": None,
    "sampler": None,
    "batch_sampler": None,
    "num_workers": 0,
    "collate_fn": None,
    "pin_memory": False,
    "drop_last": False,
    "timeout": 0,
    "worker_init_fn": None,
    "multiprocessing_context": None,
    "generator": None,
    "prefetch_factor": None,
    "persistent_workers": False,
    "pin_memory_device": "",
    "in_order": True,
}

_DEFAULT_ORIGIN = Origin("not given; torch's default")


class BoundArg(Record):
    """One argument of a loader call, as written."""

    __slots__ = ("name", "value", "code", "location", "end_location", "keyword", "text")

    def __init__(
        self,
        name: str,
        value: Value,
        code: str,  # source text of the value expression
        location: Location,  # of the whole argument (``name=value``)
        end_location: Location,
        keyword: bool = True,
        # The value's source exactly as written (for fixes); "" when the argument is not written
        # at the call itself (it came through a ``**dict`` or a ``partial``): then it is not fixable.
        text: str = "",
    ) -> None:
        self.name = name
        self.value = value
        self.code = code
        self.location = location
        self.end_location = end_location
        self.keyword = keyword
        self.text = text


class FreshIterator(Record):
    """DL302: ``next(iter(loader))`` inside a loop that does not also build the loader, so each
    pass makes a new iterator (a new epoch). ``starts``: how many passes, when every loop
    around it that does not hold the construction has a known count (``for _ in range(1000)``),
    and ``counted`` the loops' source (``range(10) × range(100)``)."""

    __slots__ = ("text", "location", "end_location", "loop_row", "starts", "counted", "path")

    def __init__(
        self,
        text: str,  # the call as written: ``next(iter(loader))``
        location: Location,
        end_location: Location,
        loop_row: int,  # the innermost loop around it
        starts: Optional[int] = None,
        counted: str = "",
        path: Optional[str] = None,  # its file, when a function of another module takes the loader
    ) -> None:
        self.text = text
        self.location = location
        self.end_location = end_location
        self.loop_row = loop_row
        self.starts = starts
        self.counted = counted
        self.path = path


class SamplerUse(Record):
    """DL206: one construction of a torch DistributedSampler a loader may get: its row and text,
    its shuffle (a Value; True when not given), and its seed as written (None: not given;
    ``seed_constant``: not given or an int literal, so the same in every epoch)."""

    __slots__ = ("row", "text", "shuffle", "seed", "seed_constant")

    def __init__(
        self, row: int, text: str, shuffle: Value, seed: Optional[str] = None, seed_constant: bool = True
    ) -> None:
        self.row = row
        self.text = text
        self.shuffle = shuffle
        self.seed = seed
        self.seed_constant = seed_constant


class EpochLoop(Record):
    """DL206: an iteration of the loader (``for batch in loader``, or a call of a function of the
    project that iterates it: ``through`` names it) and the loop that runs it again (None: none).
    ``path``: the file of that loop when it is not the loader's (a function of another module);
    ``conds``: the ``if`` conditions around the iteration, as (test text, polarity)."""

    __slots__ = ("epoch_row", "iteration_row", "through", "path", "conds")

    def __init__(
        self,
        epoch_row: Optional[int],
        iteration_row: int,
        through: str = "",
        path: str = "",
        conds: Tuple[Tuple[str, bool], ...] = (),
    ) -> None:
        self.epoch_row = epoch_row
        self.iteration_row = iteration_row
        self.through = through
        self.path = path
        self.conds = conds


class SamplerEpochs(Record):
    """DL206: a loader whose sampler is (in some case) a torch DistributedSampler. ``epoch``: an
    iteration inside an epoch loop; ``set_epoch``: the row of a ``set_epoch`` call on the sampler
    (or ``loader.sampler``, ``loader.batch_sampler.sampler``); ``escape``: why the loader or its
    sampler leaves the code that can be read (then nothing is known), None when it does not."""

    __slots__ = ("samplers", "epoch", "set_epoch", "escape", "narrow", "rebuilt", "returned", "kept")

    def __init__(
        self,
        samplers: Tuple[SamplerUse, ...],
        epoch: Optional[EpochLoop] = None,
        set_epoch: Optional[int] = None,
        escape: Optional[str] = None,
        # Every ``set_epoch`` runs on a narrower condition than the sampler and the iteration:
        # (row of the first, the condition it adds: ``args.distributed``); set_epoch is then None.
        narrow: Optional[Tuple[int, str]] = None,
        # The sampler is built anew inside the epoch loop, over the same dataset on every pass.
        rebuilt: bool = False,
        # The function that returns the loader, when it is followed into its callers.
        returned: str = "",
        # ``Class.attribute``: the object attribute the loader is kept in, when it is followed there.
        kept: str = "",
    ) -> None:
        self.samplers = samplers
        self.epoch = epoch
        self.set_epoch = set_epoch
        self.escape = escape
        self.narrow = narrow
        self.rebuilt = rebuilt
        self.returned = returned
        self.kept = kept


_ABSENT_VALUES: dict = {}  # parameter -> the Value of its absence (LoaderCall.value)


class LoaderCall(Record):
    __slots__ = (
        "path", "qualname", "location", "end_location", "args", "opaque", "batch_bytes", "scope", "in_loop",
        "unguarded_iteration", "returned", "nonblocking_copy", "fresh_iterators", "sampler_epochs", "extra",
    )  # fmt: skip

    def __init__(
        self,
        path: str,
        qualname: str,
        location: Location,  # of the call
        end_location: Location,
        args: Mapping[str, BoundArg],
        # Parameters an opaque ``*args``/``**kwargs`` could carry: they are unknown, not absent.
        opaque: FrozenSet[str] = frozenset(),
        batch_bytes: Optional[int] = None,  # from a ``# dl-lint: batch-bytes=...`` comment
        scope: str = "",  # qualified name of the enclosing function, "" at module level
        in_loop: bool = False,  # constructed inside a for/while body of its function (DL302)
        # DL203: the row where this loader is iterated outside an ``if __name__ == "__main__":``
        # guard (at module level, or in a function that module-level code calls), if any.
        unguarded_iteration: Optional[int] = None,
        # DL307: the loader is what its function returns (the return value itself, an element of
        # a returned list, tuple or dict display, or a local name bound only to loaders).
        returned: bool = False,
        # DL306: (path, row, column) of a ``.to(..., non_blocking=True)`` or
        # ``.cuda(non_blocking=True)`` applied to this loader's batches (``analysis.transfers``).
        nonblocking_copy: Optional[Tuple[str, int, int]] = None,
        # DL302: ``next(iter(loader))`` at every pass of a loop the loader is built before.
        fresh_iterators: Tuple[FreshIterator, ...] = (),
        sampler_epochs: Optional[SamplerEpochs] = None,  # DL206
        extra: Optional[Mapping[str, Any]] = None,  # None: a new empty dict
    ) -> None:
        self.path = path
        self.qualname = qualname
        self.location = location
        self.end_location = end_location
        self.args = args
        self.opaque = opaque
        self.batch_bytes = batch_bytes
        self.scope = scope
        self.in_loop = in_loop
        self.unguarded_iteration = unguarded_iteration
        self.returned = returned
        self.nonblocking_copy = nonblocking_copy
        self.fresh_iterators = fresh_iterators
        self.sampler_epochs = sampler_epochs
        self.extra = {} if extra is None else extra

    def moved_to(self, row: int, column: int, end_column: int) -> "LoaderCall":
        """This call's twin at ``row``, from ``column`` to ``end_column`` (``ModuleFacts.twins``:
        the same text on one line, whose analysis differs only in places)."""
        shift = column - self.location.column
        args = {}
        for name, arg in self.args.items():  # every place of a twin is on its one line
            args[name] = BoundArg(
                name,
                arg.value,
                arg.code,
                Location(row, arg.location.column + shift),
                Location(row, arg.end_location.column + shift),
                arg.keyword,
                arg.text,
            )
        return LoaderCall(
            self.path, self.qualname, Location(row, column), Location(row, end_column), args, self.opaque, self.batch_bytes, self.scope
        )

    def value(self, name: str) -> Value:
        """The resolved value of a parameter; torch's default when it is certainly absent."""
        bound = self.args.get(name)
        if bound is not None:
            return bound.value
        if name in self.opaque:
            # a key of ``**cfg.loader_kwargs`` is a config value (it may be absent, or 0)
            return Value.unknown("config" if name in self.extra.get("configured", ()) else "splat")
        found = _ABSENT_VALUES.get(name)
        if found is None:  # one per parameter: values are never changed in place
            found = _ABSENT_VALUES[name] = Value((Possible(ABSENT, _DEFAULT_ORIGIN),), None, (name,))
        return found

    def given(self, name: str) -> bool:
        return name in self.args

    def span(self, name: Optional[str]) -> Tuple[Location, Location]:
        """Where to report about ``name``: the argument when written, else the whole call."""
        bound = self.args.get(name) if name else None
        if bound is not None:
            return bound.location, bound.end_location
        return self.location, self.end_location

    @property
    def rows(self) -> Tuple[int, int]:
        return (self.location.row, self.end_location.row)
