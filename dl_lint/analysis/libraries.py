"""Library datasets that split work by DataLoader worker themselves, or that do not.

One table, read by DL201 (through the resolver: constructing a class of this table gives an
``Opaque`` value whose ``shards`` says what the library does with these arguments). Each row
was checked in the library's own source, at the version named; a class that is not here is
judged by its code when the project holds it, and is unknown (silent) when it does not.

| library (version, commit) | classes | shards by worker | where |
|---|---|---|---|
| webdataset 1.0.2 (e0953f9) | `WebDataset` | yes, unless `workersplitter=None`/`False` without `resampled=True` | compat.py:366, 396-397 append `workersplitter` (default `split_by_worker`) |
| webdataset 1.0.2 (e0953f9) | `DataPipeline(*stages)` | only with a `split_by_worker` stage; `ResampledShards` draws a different random stream per worker on purpose | pipeline.py:32-52 keeps the stages; shardlists.py:99-112 `split_by_worker` slices by worker; shardlists.py:283-330 `ResampledShards` seeds per worker |
| mosaicml-streaming 0.14.0.dev0 (89e7bb9) | `StreamingDataset` | yes | base/dataset.py:1496-1501 partitions samples by `World.detect_workers()`, world.py:83 `get_worker_info()` |
| HuggingFace datasets 5.0.2.dev0 (b7cb10b) | `datasets.IterableDataset` | yes (shards split between workers; extra workers stop) | iterable_dataset.py:2823-2828 `__iter__` goes to `_iter_pytorch` in a worker, :2703-2726 splits shard indices by worker |
| torch 2.13 | `datapipes.iter.ShardingFilter` (`.sharding_filter()`) | yes: the DataLoader applies sharding to it in each worker | utils/data/dataloader.py:119, 1127 `_sharding_worker_init_fn`; graph_settings.py:48 `apply_sharding` |
| torch 2.13 | `datapipes.iter.IterableWrapper` | no: every worker iterates it whole (run: 12 items, 2 workers, 24 samples) | datapipes/iter/utils.py `IterableWrapperIterDataPipe` |

Functions that shard by worker inside a class's ``__iter__`` (or what it calls) are found by name:
``SHARDING_NAMES`` in ``datasets.py``.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional

from dl_lint.record import Record


class LibraryDataset(Record):
    """One row: the qualified names a class is imported by, and how its construction decides
    sharding: "always", "never", "webdataset" (``WebDataset``'s ``workersplitter``) or
    "pipeline" (``DataPipeline``'s stages)."""

    __slots__ = ("name", "qualnames", "kind", "library")

    def __init__(self, name: str, qualnames: FrozenSet[str], kind: str, library: str) -> None:
        self.name = name
        self.qualnames = qualnames
        self.kind = kind
        self.library = library


def _names(module_paths: str, name: str) -> FrozenSet[str]:
    return frozenset(f"{module}.{name}" for module in module_paths.split())


LIBRARY_DATASETS = (
    LibraryDataset("WebDataset", _names("webdataset webdataset.compat", "WebDataset"), "webdataset", "webdataset 1.0.2"),
    LibraryDataset("DataPipeline", _names("webdataset webdataset.pipeline", "DataPipeline"), "pipeline", "webdataset 1.0.2"),
    LibraryDataset(
        "StreamingDataset",
        _names("streaming streaming.base streaming.base.dataset", "StreamingDataset"),
        "always",
        "mosaicml-streaming 0.14",
    ),
    LibraryDataset("IterableDataset", _names("datasets datasets.iterable_dataset", "IterableDataset"), "always", "datasets 5.0"),
    LibraryDataset(
        "ShardingFilter",
        _names("torch.utils.data.datapipes.iter torch.utils.data.datapipes.iter.sharding", "ShardingFilter")
        | _names("torch.utils.data.datapipes.iter.sharding", "ShardingFilterIterDataPipe")
        | _names("torchdata.datapipes.iter", "ShardingFilter"),
        "always",
        "torch 2.13",
    ),
    LibraryDataset(
        "IterableWrapper",
        _names("torch.utils.data.datapipes.iter", "IterableWrapper")
        | _names("torch.utils.data.datapipes.iter.utils", "IterableWrapperIterDataPipe"),
        "never",
        "torch 2.13",
    ),
)
BY_QUALNAME: Dict[str, LibraryDataset] = {q: row for row in LIBRARY_DATASETS for q in row.qualnames}

# webdataset 1.0.2: the stage that splits shards by worker, and the shard source that draws a
# different random stream in each worker instead (shardlists.py:99, :283).
WEBDATASET_SPLITTERS = frozenset({"webdataset.split_by_worker", "webdataset.shardlists.split_by_worker"})
WEBDATASET_RESAMPLERS = frozenset({"webdataset.ResampledShards", "webdataset.shardlists.ResampledShards"})


def library_dataset(qualname: str) -> Optional[LibraryDataset]:
    return BY_QUALNAME.get(qualname)
