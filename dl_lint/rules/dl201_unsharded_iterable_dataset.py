import os

from dl_lint.analysis.values import ABSENT, FunctionRef, Instance, Opaque
from dl_lint.model import Edit, Fix, Location, Related, Severity
from dl_lint.rules.base import Rule, call_scenarios, concrete, every, is_int


class UnshardedIterableDataset(Rule):
    code = "DL201"
    name = "unsharded-iterable-dataset"
    severity = Severity.WARNING
    summary = "An IterableDataset that does not shard by worker, loaded with 2+ workers: duplicated samples."
    fix_available = (
        "Unsafe: when `__iter__` is a single `for` over an iterable or returns `iter(...)`, and the class is "
        "in the loader's file, shard it with get_worker_info() and itertools.islice."
    )
    references = ('https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset', 'torch.utils.data.get_worker_info')
    doc = """
## What it does
Reports a DataLoader with `num_workers >= 2` whose dataset is an instance of a class deriving
from `torch.utils.data.IterableDataset` when neither the class's `__iter__` nor the loader's
`worker_init_fn` uses a sharding mechanism: `get_worker_info` (under any name it is imported
as), `split_by_worker`, `split_by_node`, `sharding_filter` or `split_dataset_by_node`. Calls are
followed through the project, six calls deep: methods of the class, methods of other classes
(`World.detect()`), functions of this and other modules and what they call. It fires only when
every call on the way could be followed: a call into a third-party library, a method of an
object the dataset holds (`self.source.records()`) or a base class it cannot see makes the answer
unknown, and unknown is silent. It reports at the dataset argument, naming the class and where
it is defined.

Datasets of libraries are judged by one table (`dl_lint/analysis/libraries.py`, each row checked
in the library's source at the version it names): webdataset's `WebDataset` shards unless
`workersplitter=None` (and not `resampled=True`); its `DataPipeline` shards only with a
`split_by_worker` stage (a `ResampledShards` source gives each worker its own random stream on
purpose); mosaicml-streaming's `StreamingDataset`, HuggingFace `datasets.IterableDataset` and
torch's `sharding_filter` datapipe shard; torch's `IterableWrapper` datapipe does not. A
library dataset built through a chain of methods (`WebDataset(...).decode("pil")`) is not
followed, and stays silent.

## Why is this bad?
Every worker process gets its own copy of an IterableDataset and iterates it from the start.
Without sharding, an epoch yields every sample once per worker (measured on torch 2.13: ×2 with
2 workers, ×4 with 4). Training silently sees duplicated data, and each copy keeps its own file
handles and buffers. `num_workers` 0 or 1 never duplicates.

## Example
```python
class Lines(IterableDataset):
    def __init__(self, path):
        self.path = path
    def __iter__(self):
        with open(self.path) as f:
            yield from f

loader = DataLoader(Lines("train.txt"), num_workers=4)
```

## Use instead
```python
import itertools
from torch.utils.data import get_worker_info

class Lines(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        with open(self.path) as f:
            if info is None:
                yield from f
            else:
                yield from itertools.islice(f, info.id, None, info.num_workers)
```
or shard in a `worker_init_fn` that edits `get_worker_info().dataset`.

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        found = call_scenarios(call, "num_workers", "dataset", "worker_init_fn")
        if not every(found, lambda s: _min_workers(s) >= 2):
            return
        classes = []
        for scenario in found:
            instance = scenario["dataset"].value
            if isinstance(instance, Opaque) and instance.shards is False:
                cls = _library_class(instance.qualname)  # a library dataset that does not shard
            elif not isinstance(instance, Instance):
                return
            else:
                cls = ctx.datasets.resolve_instance(instance, ctx.module_name)
                if cls is None or not ctx.datasets.is_iterable(cls) or ctx.datasets.iter_shards(cls) is not False:
                    return
            init = scenario["worker_init_fn"].value
            if init is not None and init is not ABSENT:
                if not isinstance(init, FunctionRef) or init.kind != "function":
                    return  # a lambda, partial or unknown callable may shard: stay silent
                if ctx.datasets.function_shards(init.module, init.name, init.path) is not False:
                    return
            classes.append(cls)
        cls = classes[0]
        workers = min(_min_workers(s) for s in found)
        if isinstance(cls, str):  # a library dataset (dl_lint.analysis.libraries)
            yield self.finding(
                call,
                "dataset",
                f"this {_LIBRARY_WHAT.get(cls, cls + ' does not shard by worker')} and num_workers={workers}: "
                f"an epoch yields every sample {workers} times.",
                None,
                detail=f"Each of the {workers} workers iterates every shard. {_LIBRARY_ADVICE.get(cls, '')}".rstrip(),
                cite=(found, ("num_workers",)),
            )
            return
        message = (
            f"{cls.name} does not shard by worker and num_workers={workers}: an epoch yields every sample {workers} times."
        )
        detail = (
            f"{cls.name} is an IterableDataset, and each of the {workers} workers iterates all of it: nothing in "
            "its __iter__ (or a worker_init_fn) splits the items by worker. Shard in __iter__ with "
            "torch.utils.data.get_worker_info() (for example itertools.islice(items, info.id, None, "
            "info.num_workers)), or in a worker_init_fn."
        )
        defined = Related(os.path.abspath(cls.path), cls.line, 1, f"{cls.name} is defined here")
        yield self.finding(
            call, "dataset", message, _fix(cls, call), detail=detail, related=(defined,), cite=(found, ("num_workers",))
        )


_LIBRARY_WHAT = {
    "WebDataset": "WebDataset (no workersplitter) does not shard by worker",
    "DataPipeline": "webdataset DataPipeline has no split_by_worker stage",
    "IterableWrapper": "IterableWrapper datapipe has no sharding_filter",
}
# What to write instead, per library dataset of the table that can be built without sharding.
_LIBRARY_ADVICE = {
    "WebDataset": "Drop workersplitter=None (the default is wds.split_by_worker), or pass resampled=True for "
    "an independent random stream per worker.",
    "DataPipeline": "Add wds.split_by_worker as a stage after the shard list (and wds.split_by_node for several "
    "ranks), or start from wds.ResampledShards(urls) for an independent random stream per worker.",
    "IterableWrapper": "Add .sharding_filter() to the pipe: the DataLoader then gives each worker its own slice.",
}


def _library_class(qualname):
    from dl_lint.analysis.libraries import library_dataset

    row = library_dataset(qualname)
    return row.name if row is not None else qualname.rsplit(".", 1)[-1]


def _fix(cls, call):
    """Shard ``__iter__`` with get_worker_info() when it is one ``for`` or ``return iter(...)``
    in the same file as the loader (unsafe: the order of samples changes)."""
    if cls.iter_shape is None or os.path.abspath(cls.path) != os.path.abspath(call.path):
        return None
    row, indent, start, end, text = cls.iter_shape
    if "\n" in text:
        return None
    prelude = (
        f"{indent}import itertools\n"
        f"{indent}from torch.utils.data import get_worker_info\n"
        f"{indent}info = get_worker_info()\n"
    )
    sharded = f"{text} if info is None else itertools.islice({text}, info.id, None, info.num_workers)"
    at = Location(row, 1)
    return Fix(
        "unsafe",
        "Shard __iter__ by worker with get_worker_info() (unsafe: each worker now yields a strided slice)",
        (Edit(prelude, at, at), Edit(f"({sharded})", start, end)),
    )


def _min_workers(scenario):
    workers = concrete("num_workers", scenario["num_workers"])
    return workers if is_int(workers) else 0


RULE = UnshardedIterableDataset()
