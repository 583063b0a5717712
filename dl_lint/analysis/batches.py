"""The bytes of one batch of a loader: the one source that DL101, DL104, ``dl-lint estimate`` and
the language server (through the rules' diagnostics) all read, so that they always agree.

Every figure says where it came from, in this order of precedence:

- ``annotation``: a ``# dl-lint: batch-bytes=64MiB`` comment on the call or the line above it;
- ``measured``: a figure ``dl-lint measure`` recorded for this loader in the project's
  ``dl-lint-measured.json`` (``dl_lint.remember``), whose loader call is unchanged since;
- ``setting``: the ``batch-bytes`` setting;
- ``estimated``: ``batch_size`` samples of what the dataset returns, when the sample's shape
  and dtype are known from the code (``analysis.summary.sample_bytes`` and the transforms of
  ``analysis.libraries``), with the lines the estimate rests on.

Unknown stays unknown: a figure is given only when a tensor of the sample is known, and ``why``
then says what is missing; parts of the sample the code does not size (a label looked up in a
dict beside an image of fixed shape) count as 0 bytes, and the figure is then a lower bound
(``BatchFigure.lower``), which the rules state as "at least". A recorded figure whose loader call changed is ``stale``: it
is not used, and the figure says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

from dl_lint.record import Record

if TYPE_CHECKING:
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.rules.context import RuleContext

ANNOTATION, MEASURED, SETTING, ESTIMATED = "annotation", "measured", "setting", "estimated"


class BatchFigure(Record):
    """``bytes`` of one batch (None: unknown), ``source`` (one of the four above, None when
    unknown), ``how``: the words for a message's detail (where the figure comes from, or why it
    is unknown); ``stale``: the words about a recorded figure that no longer applies, if any."""

    __slots__ = ("bytes", "source", "how", "stale", "where")

    def __init__(
        self,
        bytes: Optional[int],
        source: Optional[str],
        how: str,
        stale: Optional[str] = None,
        where: Optional[Tuple[str, int]] = None,  # the dataset class an estimate read: (path, line)
    ) -> None:
        self.where = where
        self.bytes = bytes
        self.source = source
        self.how = how
        self.stale = stale

    @property
    def known(self) -> bool:
        return self.bytes is not None

    @property
    def lower(self) -> bool:
        """Whether ``bytes`` is a lower bound: an estimate that left parts of the sample of
        unknown size out (``datasets.UNCOUNTED``)."""
        from dl_lint.analysis.datasets import LOWER_BOUND

        return self.source == ESTIMATED and LOWER_BOUND in self.how

    def detail(self) -> str:
        """The sentence a rule's detail starts with."""
        text = f"A batch's bytes, {_PHRASE[self.source]}: {self.how}." if self.source else ""
        if self.stale:
            text += f" {self.stale}."
        return text.strip()


_PHRASE = {
    ANNOTATION: "from the call's comment",
    MEASURED: "as measured",
    SETTING: "from the settings",
    ESTIMATED: "estimated from the code",
    None: "",
}


def batch_figure(call: "LoaderCall", ctx: "RuleContext", scenario: Optional[dict] = None) -> BatchFigure:
    """The bytes of one batch of ``call``, and where they come from (see the module doc).
    ``scenario``: one consistent combination of the call's values (``values.scenarios``) holding
    ``dataset`` and ``batch_size``: the figure of that path alone (a call whose dataset or
    batch_size depends on a condition has one figure per path; DL101 judges each)."""
    if call.batch_bytes is not None:
        return BatchFigure(call.batch_bytes, ANNOTATION, f"`# dl-lint: batch-bytes` on the call at line {call.location.row}")
    stale = None
    recorded = ctx.measured_for(call)
    if recorded is not None:
        if recorded.stale is None:
            return BatchFigure(recorded.batch_bytes, MEASURED, recorded.describe())
        stale = recorded.stale
    if ctx.settings.batch_bytes is not None:
        return BatchFigure(ctx.settings.batch_bytes, SETTING, "the batch-bytes setting", stale)
    estimated, why, where = estimate(call, ctx, scenario)
    if estimated is not None:
        return BatchFigure(estimated[0], ESTIMATED, estimated[1], stale, where)
    return BatchFigure(None, None, why, stale, where)


def estimate(
    call: "LoaderCall", ctx: "RuleContext", scenario: Optional[dict] = None
) -> Tuple[Optional[Tuple[int, str]], str, Optional[Tuple[str, int]]]:
    """((bytes, how), "", where) of one batch estimated from the dataset and a known batch_size,
    or (None, why it is unknown, where); ``where``: (path, line) of the dataset class read.
    ``scenario``: the dataset and batch_size of one path (see ``batch_figure``); without it, a
    dataset or batch_size with several possible values leaves the figure unknown."""
    from dl_lint.analysis.loaders import DEFAULTS
    from dl_lint.analysis.values import ABSENT, Instance, Opaque, scenarios

    where: Optional[Tuple[str, int]] = None
    collate = None  # a project collate_fn that pads to a fixed length: the batch is what it returns
    own = ""  # why a collate_fn or batch_sampler of the call's own leaves the batch unknown
    for name in ("collate_fn", "batch_sampler"):  # they decide what a batch is: only the defaults are read
        value = call.value(name)
        if value.options is None:
            own = own or f"{name} is not known statically"
            continue
        for possible in value.options:
            if possible.value is ABSENT or possible.value is None or _default_collate(possible.value):
                continue
            facts = _collate_facts(possible.value, ctx) if name == "collate_fn" and len(value.options) == 1 else None
            if facts is None or facts.collates is None:
                own = own or f"a {name} of its own decides what a batch holds"
            else:
                collate = facts
    if collate is not None and not own:  # the batch is what it returns, whatever the dataset
        from dl_lint.analysis.datasets import sample_of

        where = (collate.path, collate.line)
        options = (scenario["batch_size"],) if scenario is not None else call.value("batch_size").options
        sizes = {DEFAULTS.get("batch_size") if p.value is ABSENT else p.value for p in options or ()}
        batch_size = sizes.pop() if len(sizes) == 1 else None
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            return None, "batch_size is not known, or not a positive int", where
        batch = sample_of(collate.collates, {"__batch__": batch_size})
        if batch is None:
            return None, f"the size of what {collate.name} returns is not known", where
        return (batch[0], f"what the collate_fn {collate.name} returns for batch_size {batch_size}: {batch[1]}"), "", where
    found = [scenario] if scenario is not None else scenarios({n: call.value(n) for n in ("dataset", "batch_size")}, DEFAULTS)
    if not found:
        for name in ("dataset", "batch_size"):
            if call.value(name).options is None:
                return None, f"{name} is not known statically", where
        return None, "the dataset or batch_size is not known", where
    if len(found) != 1:
        return None, "the dataset or batch_size depends on a condition", where
    scenario = found[0]
    dataset = scenario["dataset"].value
    if isinstance(dataset, Opaque) and dataset.sample is not None:  # a torchvision image dataset
        sample, name = dataset.sample, dataset.qualname.rsplit(".", 1)[1]
    else:
        cls = ctx.dataset_class(dataset)
        if cls is None:
            if isinstance(dataset, Opaque):
                return None, f"the code fixes no size for the samples of {dataset.qualname.rsplit('.', 1)[1]}", where
            if isinstance(dataset, Instance):
                return None, f"the dataset class {dataset.name} is not visible", where
            return None, "the dataset is not known", where
        if ctx.datasets.is_iterable(cls):
            return None, f"{cls.name} is an IterableDataset: what it yields is not estimated", where
        sample = ctx.datasets.sample_bytes(cls, dataset, ctx.module_name)
        name = cls.name  # where it is: ``BatchFigure.where`` (a message names no path)
        where = (cls.path, cls.line)
        if sample is None:
            return None, f"the size of what {cls.name}.__getitem__ returns is not known", where
    if own:  # what the dataset returns is known, but not what becomes of it
        return None, own, where
    size = scenario["batch_size"].value
    batch_size = DEFAULTS.get("batch_size") if size is ABSENT else size
    if batch_size is None:
        return (sample[0], f"one sample of {name}: {sample[1]}, batch_size=None"), "", where
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        return None, "batch_size is not a positive int", where
    return (batch_size * sample[0], f"batch_size {batch_size} × a sample of {name}: {sample[1]}"), "", where


def _default_collate(value) -> bool:
    """torch's own ``default_collate`` (what a loader without collate_fn uses)."""
    qualname = getattr(value, "qualname", "")
    return qualname in ("torch.utils.data.default_collate", "torch.utils.data._utils.collate.default_collate", "torch.utils.data.dataloader.default_collate")


def _collate_facts(value, ctx: "RuleContext"):
    """The project function a collate_fn value names (``FunctionFacts``), if any."""
    from dl_lint.analysis.names import absolute_module
    from dl_lint.analysis.values import FunctionRef

    if not isinstance(value, FunctionRef) or value.kind != "function":
        return None
    return ctx.datasets.function_facts(absolute_module(value.module, ctx.module_name, False), value.name, value.path)
