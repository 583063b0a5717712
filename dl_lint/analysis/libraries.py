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

The bytes of a torchvision image sample (DL101) are read off torchvision's source the same way:
see ``image_value`` below.

Who calls ``set_epoch`` on a loader's DistributedSampler (DL206: a loader handed to one of these
has its epochs numbered by the library; DL206 is silent for any loader that leaves the code it
can see, and names these as the reason):

| library (version, commit) | entry points | calls set_epoch | where |
|---|---|---|---|
| Lightning 2.6.2 (7f0c343) | `Trainer.fit/validate/test/predict` (the loaders it is given or a module's `*_dataloader()` returns) | yes, on `dataloader.sampler` and `dataloader.batch_sampler.sampler`, every epoch | fit_loop.py:445 `_set_sampler_epoch(dl, self.epoch_progress.current.processed)`; fabric/utilities/data.py:419-440 |
| Lightning Fabric 2.6.2 (7f0c343) | `Fabric.setup_dataloaders` | yes, at every `iter()` of the wrapped loader | fabric/wrappers.py:320 `_set_sampler_epoch(self._dataloader, self._num_iter_calls)` |
| accelerate 1.15.0.dev0 (16cb6eb) | `Accelerator.prepare`, `Accelerator.prepare_data_loader`, `accelerate.data_loader.prepare_data_loader` | yes, at every `iter()` of the prepared loader (`DataLoaderShard`, `DataLoaderDispatcher`) | data_loader.py:582 `self.set_epoch(self.iteration)`, :610 `self.iteration += 1`, :622-629 forwards to `batch_sampler.sampler.set_epoch`; :874 for the dispatcher |
| transformers (trainer.py as stored in the search index at 2cda12c) | `Trainer` builds its own loader (`get_train_dataloader`: `accelerator.prepare(DataLoader(...))`) | yes, every epoch: `if hasattr(epoch_dataloader, "set_epoch"): epoch_dataloader.set_epoch(epoch)` in the training loop, and the accelerate wrapper's own | a loader of the project's reaches it only returned from an overridden `get_train_dataloader` (a return: silent anyway) |

mmengine 0.11.0rc0 (commit 2543429) builds a config's loader dict in `Runner.build_dataloader`
(runner/runner.py): what it passes to torch unchanged, and how `_base_` files merge
(config/config.py), is in ``configs/mmengine.py``.

Functions that shard by worker inside a class's ``__iter__`` (or what it calls) are found by name:
``SHARDING_NAMES`` in ``datasets.py``.
"""

from __future__ import annotations

import ast
from typing import Dict, FrozenSet, List, Optional, Tuple

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


# DL202: what a webdataset pipeline keeps, so what the workers receive pickled with it
# (webdataset 1.0.2, e0953f9). ``DataPipeline.__init__`` keeps its stages in ``self.pipeline``
# (pipeline.py:40-52) and ``compose(*args)`` appends its arguments to a copy (:145-159). Every
# method of ``FluidInterface`` (compat.py:16-296) below returns ``self.compose(filters.X(*args,
# **kw))``: ``filters.X`` is a ``pipelinefilter``, a ``RestCurried`` whose call builds a
# ``FilterFunction`` keeping ``f``, ``args`` and ``kw`` (filters.py:33-120); ``decode`` keeps its
# handlers, ``pre`` and ``post`` in an ``autodecode.Decoder`` handed to ``map``. So a lambda or a
# nested function given to any of them (``.map(f)``, ``.map_dict(image=f)``, ``.map_tuple(f, g)``,
# ``.select(pred)``, ``.batched(n, collation_fn=f)``) is pickled with the pipeline: under spawn and
# forkserver the DataLoader's first iteration fails (tests/test_spawn.py). ``shuffle`` (keeps its
# keywords only when ``size >= 1``), ``mcached``, ``lmdb_cached``, ``with_epoch``, ``with_length``
# and ``repeat`` return the pipeline (or a copy) with what it kept: their own arguments are not
# read. ``WebLoader``'s fluid methods run in the main process, after the DataLoader: not here.
WEBDATASET_DATAPIPELINE = _names("webdataset webdataset.pipeline", "DataPipeline")
WEBDATASET_PIPELINES = (
    _names("webdataset webdataset.compat", "WebDataset") | WEBDATASET_DATAPIPELINE | _names("webdataset webdataset.compat", "FluidWrapper")
)
WEBDATASET_KEEPING = frozenset(
    {
        "batched", "unbatched", "listed", "unlisted", "log_keys", "map", "decode", "map_dict", "select",
        "to_tuple", "map_tuple", "slice", "rename", "rsample", "rename_keys", "extract_keys", "xdecode", "compose",
    }
)
WEBDATASET_SAME = frozenset({"shuffle", "mcached", "lmdb_cached", "with_epoch", "with_length", "repeat"})
# The pipelinefilter functions (filters.py; exported by webdataset/__init__.py): a stage built by
# one keeps every argument (``wds.map(f)`` in ``DataPipeline(..., wds.map(f))``).
_FILTERS = (
    "info shuffle select decode map rename associate map_dict to_tuple map_tuple batched unbatched rsample "
    "slice extract_keys rename_keys xdecode"
)
WEBDATASET_FILTERS = frozenset(
    f"{module}.{name}" for module in ("webdataset", "webdataset.filters") for name in _FILTERS.split()
) | _names("webdataset.filters", "log_keys") | _names("webdataset.filters", "unlisted")  # not exported


# -- torchvision: what a dataset keeps (DL202) ---------------------------------------------------
# The constructor parameters each class of ``torchvision.datasets`` keeps as attributes, so
# pickles with the dataset for spawn/forkserver workers: (parameter, position after self, or -1
# for keyword-only). Written by bench/torchvision_keeping.py from torchvision's source, read
# the way dl-lint reads a project class (``SummaryModule.kept_parameters``): ``VisionDataset.
# __init__`` (datasets/vision.py) stores ``self.transform``, ``self.target_transform`` and
# ``self.transforms`` (a ``StandardTransform`` of the first two when they are given); a class
# passing them on to ``super().__init__`` keeps them at its own positions (``ImageFolder(root,
# transform, target_transform, loader, ...)``, folder.py; ``DatasetFolder`` keeps ``loader``
# too); a class without ``__init__`` keeps its base's (``CIFAR100``).
# torchvision 0.28.0
# fmt: off
TORCHVISION_KEPT = {
    'CIFAR10': ('cifar', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3))),
    'CIFAR100': ('cifar', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3))),
    'CLEVRClassification': ('clevr', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'CREStereo': ('_stereo_matching', (('transforms', 1),)),
    'Caltech101': ('caltech', (('transform', 2), ('target_transform', 3))),
    'Caltech256': ('caltech', (('transform', 1), ('target_transform', 2))),
    'CarlaStereo': ('_stereo_matching', (('transforms', 1),)),
    'CelebA': ('celeba', (('root', 0), ('split', 1), ('target_type', 2), ('transform', 3), ('target_transform', 4))),
    'Cityscapes': ('cityscapes', (('root', 0), ('split', 1), ('target_type', 3), ('transform', 4), ('target_transform', 5), ('transforms', 6))),
    'CocoCaptions': ('coco', (('root', 0), ('transform', 2), ('target_transform', 3), ('transforms', 4))),
    'CocoDetection': ('coco', (('root', 0), ('transform', 2), ('target_transform', 3), ('transforms', 4))),
    'Country211': ('country211', (('transform', 2), ('target_transform', 3), ('loader', 5))),
    'DTD': ('dtd', (('root', 0), ('partition', 2), ('transform', 3), ('target_transform', 4), ('loader', 6))),
    'DatasetFolder': ('folder', (('root', 0), ('loader', 1), ('extensions', 2), ('transform', 3), ('target_transform', 4))),
    'EMNIST': ('mnist', (('root', 0), ('target_transform', -1), ('train', -1), ('transform', -1))),
    'ETH3DStereo': ('_stereo_matching', (('transforms', 2),)),
    'EuroSAT': ('eurosat', (('transform', 1), ('target_transform', 2), ('loader', 4))),
    'FER2013': ('fer2013', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'FGVCAircraft': ('fgvc_aircraft', (('root', 0), ('transform', 3), ('target_transform', 4), ('loader', 6))),
    'FakeData': ('fakedata', (('size', 0), ('image_size', 1), ('num_classes', 2), ('transform', 3), ('target_transform', 4), ('random_offset', 5))),
    'FallingThingsStereo': ('_stereo_matching', (('transforms', 2),)),
    'FashionMNIST': ('mnist', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3))),
    'Flickr30k': ('flickr', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 4))),
    'Flickr8k': ('flickr', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 4))),
    'Flowers102': ('flowers102', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'FlyingChairs': ('_optical_flow', (('transforms', 2),)),
    'FlyingThings3D': ('_optical_flow', (('transforms', 4), ('loader', 5))),
    'Food101': ('food101', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'GTSRB': ('gtsrb', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'HD1K': ('_optical_flow', (('transforms', 2), ('loader', 3))),
    'HMDB51': ('hmdb51', (('root', 0), ('fold', 5), ('train', 6), ('transform', 7))),
    'INaturalist': ('inaturalist', (('transform', 3), ('target_transform', 4), ('loader', 6))),
    'ImageFolder': ('folder', (('root', 0), ('transform', 1), ('target_transform', 2), ('loader', 3))),
    'ImageNet': ('imagenet', (('root', 0), ('loader', -1), ('target_transform', -1), ('transform', -1))),
    'Imagenette': ('imagenette', (('root', 0), ('transform', 4), ('target_transform', 5), ('loader', 6))),
    'InStereo2k': ('_stereo_matching', (('transforms', 2),)),
    'KMNIST': ('mnist', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3))),
    'Kinetics': ('kinetics', (('root', 0), ('transform', 6), ('extensions', 7), ('num_download_workers', 9), ('_legacy', 17))),
    'Kitti': ('kitti', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3), ('transforms', 4))),
    'Kitti2012Stereo': ('_stereo_matching', (('transforms', 2),)),
    'Kitti2015Stereo': ('_stereo_matching', (('transforms', 2),)),
    'KittiFlow': ('_optical_flow', (('transforms', 2), ('loader', 3))),
    'LFWPairs': ('lfw', (('transform', 3), ('target_transform', 4), ('loader', 6))),
    'LFWPeople': ('lfw', (('transform', 3), ('target_transform', 4), ('loader', 6))),
    'LSUN': ('lsun', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'LSUNClass': ('lsun', (('root', 0), ('transform', 1), ('target_transform', 2))),
    'MNIST': ('mnist', (('root', 0), ('train', 1), ('transform', 2), ('target_transform', 3))),
    'Middlebury2014Stereo': ('_stereo_matching', (('split', 1), ('use_ambient_views', 3), ('transforms', 4))),
    'MovingMNIST': ('moving_mnist', (('root', 0), ('split', 1), ('split_ratio', 2), ('transform', 4))),
    'Omniglot': ('omniglot', (('background', 1), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'OxfordIIITPet': ('oxford_iiit_pet', (('root', 0), ('transforms', 3), ('transform', 4), ('target_transform', 5))),
    'PCAM': ('pcam', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'PhotoTour': ('phototour', (('root', 0), ('name', 1), ('train', 2), ('transform', 3))),
    'Places365': ('places365', (('root', 0), ('small', 2), ('transform', 4), ('target_transform', 5), ('loader', 6))),
    'QMNIST': ('mnist', (('root', 0), ('compat', 2), ('train', 3), ('target_transform', -1), ('transform', -1))),
    'RenderedSST2': ('rendered_sst2', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'SBDataset': ('sbd', (('root', 0), ('transforms', 4))),
    'SBU': ('sbu', (('root', 0), ('transform', 1), ('target_transform', 2), ('loader', 4))),
    'SEMEION': ('semeion', (('root', 0), ('transform', 1), ('target_transform', 2))),
    'STL10': ('stl10', (('root', 0), ('transform', 3), ('target_transform', 4))),
    'SUN397': ('sun397', (('root', 0), ('transform', 1), ('target_transform', 2), ('loader', 4))),
    'SVHN': ('svhn', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'SceneFlowStereo': ('_stereo_matching', (('transforms', 3),)),
    'Sintel': ('_optical_flow', (('transforms', 3), ('loader', 4))),
    'SintelStereo': ('_stereo_matching', (('transforms', 2),)),
    'StanfordCars': ('stanford_cars', (('root', 0), ('transform', 2), ('target_transform', 3), ('loader', 5))),
    'UCF101': ('ucf101', (('root', 0), ('fold', 5), ('train', 6), ('transform', 7))),
    'USPS': ('usps', (('root', 0), ('transform', 2), ('target_transform', 3))),
    'VOCDetection': ('voc', (('root', 0), ('transform', 4), ('target_transform', 5), ('transforms', 6))),
    'VOCSegmentation': ('voc', (('root', 0), ('transform', 4), ('target_transform', 5), ('transforms', 6))),
    'VisionDataset': ('vision', (('root', 0), ('transforms', 1), ('transform', 2), ('target_transform', 3))),
    'WIDERFace': ('widerface', (('transform', 2), ('target_transform', 3))),
}
# fmt: on
TORCHVISION_KEEPING: Dict[str, Tuple[Tuple[str, int], ...]] = {
    f"torchvision.datasets{where}.{name}": kept
    for name, (module, kept) in TORCHVISION_KEPT.items()
    for where in ("", f".{module}")
}


def library_dataset(qualname: str) -> Optional[LibraryDataset]:
    return BY_QUALNAME.get(qualname)


# DL206: library callees that number a DistributedSampler's epochs themselves (the table above).
# (qualified names of the class, methods) for methods called on an instance, and functions.
SET_EPOCH_METHODS = (
    (
        _names("lightning lightning.pytorch pytorch_lightning lightning.pytorch.trainer.trainer", "Trainer"),
        frozenset({"fit", "validate", "test", "predict"}),
        "Lightning's Trainer calls set_epoch on its loaders' samplers every epoch",
    ),
    (
        _names("lightning lightning.fabric lightning_fabric lightning.fabric.fabric", "Fabric"),
        frozenset({"setup_dataloaders"}),
        "Fabric's wrapped loader calls set_epoch at every iteration",
    ),
    (
        _names("accelerate accelerate.accelerator", "Accelerator"),
        frozenset({"prepare", "prepare_data_loader"}),
        "accelerate's prepared loader calls set_epoch at every iteration",
    ),
)
SET_EPOCH_FUNCTIONS = {
    "accelerate.data_loader.prepare_data_loader": "accelerate's prepared loader calls set_epoch at every iteration",
}


# DL203: library methods that iterate the loaders they are given before they return, so a
# loader handed to one is iterated where the call runs: (position, keyword) of each loader
# parameter after the model, by method. Lightning 2.6.2 (7f0c343) trainer.py: ``fit(model,
# train_dataloaders, val_dataloaders, datamodule, ckpt_path)`` runs the sanity check over the
# val loaders and the epochs over the train loaders; ``validate``/``test``/``predict(model,
# dataloaders, ...)`` run one pass. Lightning 1.x named them ``train_dataloader`` (up to 1.4),
# ``test_dataloaders`` and ``val_dataloaders`` (the same positions).
TRAINER_RUNS = {
    "fit": ((1, "train_dataloaders"), (1, "train_dataloader"), (2, "val_dataloaders")),
    "validate": ((1, "dataloaders"), (1, "val_dataloaders")),
    "test": ((1, "dataloaders"), (1, "test_dataloaders")),
    "predict": ((1, "dataloaders"),),
}
LIGHTNING_TRAINERS = SET_EPOCH_METHODS[0][0]


def trainer_loader_arguments(call: ast.Call) -> List[ast.expr]:
    """The arguments a call of a Trainer method of ``TRAINER_RUNS`` hands in loader slots
    (before any ``*args``, or by the slots' keywords); [] for any other method. Whether the
    receiver is a Trainer is the caller's question."""
    func = call.func
    slots = TRAINER_RUNS.get(func.attr) if isinstance(func, ast.Attribute) else None
    if slots is None:
        return []
    found = [
        call.args[index]
        for index in sorted({index for index, _ in slots})
        if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: index + 1])
    ]
    keywords = {keyword for _, keyword in slots}
    return found + [k.value for k in call.keywords if k.arg in keywords]
# ``Trainer.from_argparse_args(args)`` builds a Trainer: ``return cls(**params)`` in
# pytorch_lightning 0.7-1.9 (trainer.py, then utilities/argparse.py; removed in 2.0).
TRAINER_CONSTRUCTORS = frozenset(f"{name}.from_argparse_args" for name in LIGHTNING_TRAINERS)


def set_epoch_caller(class_qualname: Optional[str], method: str) -> Optional[str]:
    """Why a loader handed to ``method`` of an instance of ``class_qualname`` (or to the function
    ``method`` when ``class_qualname`` is None) has its sampler's epochs set by the library."""
    if class_qualname is None:
        return SET_EPOCH_FUNCTIONS.get(method)
    for classes, methods, why in SET_EPOCH_METHODS:
        if class_qualname in classes and method in methods:
            return why
    return None


# Map-style library datasets (``__getitem__`` and ``__len__``, so the DataLoader's default sampler
# walks indices 0, 1, 2, ... in order): torch 2.13 ``utils/data/dataset.py:189`` TensorDataset,
# ``:386`` Subset; and the torchvision image datasets of ``IMAGE_DATASETS`` below (VisionDataset
# subclasses). DL302 uses it: with such a dataset and no shuffling, every new iterator starts
# with the same batch.
MAP_STYLE_DATASETS = frozenset(
    {
        "torch.utils.data.TensorDataset",
        "torch.utils.data.dataset.TensorDataset",
        "torch.utils.data.Subset",
        "torch.utils.data.dataset.Subset",
    }
)


def is_map_style_library(qualname: str) -> bool:
    return qualname in MAP_STYLE_DATASETS or qualname in IMAGE_DATASETS


# -- torchvision: the bytes of an image sample (DL101) ------------------------------------------
# Read off torchvision's source (transforms.py at 0036860, datasets/folder.py at 0773175,
# datasets/mnist.py at 01977a1; unchanged in these respects since): CenterCrop, RandomCrop and
# RandomResizedCrop make (s, s) of an int s and (h, w) of a pair; Resize makes (h, w) of a pair
# and matches only the smaller edge to an int (the size then depends on the image); ToTensor
# gives a float32 C×H×W tensor; ImageFolder's loader converts to RGB and CIFAR images are RGB
# (3 channels), MNIST's are mode "L" (1 channel); every one returns (image, int label), and an
# int label collates to 8 bytes.
_TRANSFORMS = "torchvision.transforms"
_SIZED = frozenset({"CenterCrop", "RandomCrop", "RandomResizedCrop", "Resize"})
_SIZE_KEEPING = frozenset({
    "Normalize", "RandomHorizontalFlip", "RandomVerticalFlip", "ColorJitter", "RandomGrayscale",
    "GaussianBlur", "RandomAutocontrast", "RandomEqualize", "RandomInvert", "RandomPosterize",
    "RandomSolarize", "RandomAdjustSharpness", "RandomErasing", "AutoAugment", "RandAugment",
    "TrivialAugmentWide",
})  # fmt: skip
IMAGE_DATASETS = {
    f"torchvision.datasets.{module}{name}": (channels, transform_position)
    for name, channels, transform_position, modules in (
        ("ImageFolder", 3, 1, ("", "folder.")),
        ("CIFAR10", 3, 2, ("", "cifar.")),
        ("CIFAR100", 3, 2, ("", "cifar.")),
        ("MNIST", 1, 2, ("", "mnist.")),
        ("FashionMNIST", 1, 2, ("", "mnist.")),
    )
    for module in modules
}
# The size of the images a dataset holds, when it is fixed (a Compose without a size keeps it).
NATIVE_SIZE = {"CIFAR10": (32, 32), "CIFAR100": (32, 32), "MNIST": (28, 28), "FashionMNIST": (28, 28)}


def _transform_name(qualname: Optional[str]) -> Optional[str]:
    if qualname is None or not qualname.startswith(_TRANSFORMS + "."):
        return None
    rest = qualname[len(_TRANSFORMS) + 1 :]
    for prefix in ("v2.", "transforms.", "_transforms."):  # torchvision.transforms.v2.X, .transforms.X
        if rest.startswith(prefix):
            rest = rest[len(prefix) :]
    return rest if "." not in rest else None


# What makes a tensor of an image, and of which dtype: ToTensor a float32 C×H×W in [0, 1];
# PILToTensor and v2's ToImage keep the image's uint8; v2's ToDtype(dtype) and
# ConvertImageDtype(dtype) convert a tensor (read off torchvision's transforms.py and
# v2/_type_conversion.py, _misc.py).
_TO_TENSOR = {"ToTensor": "float32", "PILToTensor": "uint8", "ToImage": "uint8", "ToImageTensor": "uint8"}
_TO_DTYPE = frozenset({"ToDtype", "ConvertImageDtype"})
# timm's ``create_transform(input_size=...)`` (timm/data/transforms_factory.py): training
# (RandomResizedCropAndInterpolation) and evaluation (Resize + CenterCrop) both end in
# ToTensor + Normalize at input_size, unless use_prefetcher (uint8 arrays) or separate
# (a tuple of transforms).
TIMM_CREATE_TRANSFORM = frozenset({"timm.data.create_transform", "timm.data.transforms_factory.create_transform"})


# albumentations (read off albumentations 1.3/1.4/2.0 augmentations/geometric and crops):
# Resize, CenterCrop, RandomCrop, RandomResizedCrop and RandomSizedCrop make (height, width)
# given positionally (height, width), as keywords, or as size=(h, w) (1.4 and later); Normalize
# and ToFloat make float32; ToTensorV2 makes C×H×W and keeps the dtype. The other transforms of
# _ALBU_KEEPING keep size and dtype. The image it gets is the dataset's (channels from how it is
# read: ``summary``), called as ``transform(image=img)["image"]``.
_ALBU_SIZED = {"Resize": 0, "CenterCrop": 0, "RandomCrop": 0, "RandomResizedCrop": 0, "RandomSizedCrop": 1}
_ALBU_FLOAT = frozenset({"Normalize", "ToFloat"})
ALBU_KEEPING = _ALBU_KEEPING = frozenset({
    "HorizontalFlip", "VerticalFlip", "RandomBrightnessContrast", "ColorJitter", "HueSaturationValue",
    "GaussNoise", "Blur", "GaussianBlur", "MotionBlur", "ShiftScaleRotate", "CoarseDropout", "CLAHE",
    "RandomGamma", "RGBShift", "ChannelShuffle", "ImageCompression", "Sharpen", "Emboss",
})  # fmt: skip
_ALBU_TENSOR = frozenset({"albumentations.pytorch.ToTensorV2", "albumentations.pytorch.transforms.ToTensorV2"})


def _albu_name(qualname: Optional[str]) -> Optional[str]:
    if qualname is None or not qualname.startswith("albumentations."):
        return None
    return qualname.rsplit(".", 1)[1]


def albumentations_value(qualname: str, node, resolve, qualname_of):
    """An Opaque for an albumentations ``Compose`` of fixed output size that ends in
    ``ToTensorV2`` after ``Normalize`` (float32 C×H×W); None for anything else."""
    import ast

    from dl_lint.analysis.values import Opaque

    if _albu_name(qualname) != "Compose" or not node.args or not isinstance(node.args[0], (ast.List, ast.Tuple)):
        return None
    if len(node.args) > 1 or any(k.arg is None for k in node.keywords):
        return None
    size: Optional[Tuple[int, int]] = None
    dtype: Optional[str] = None
    tensor = False
    for step in node.args[0].elts:
        if not isinstance(step, ast.Call) or tensor:
            return None  # a name, or anything after ToTensorV2
        qualified = qualname_of(step.func)
        name = _albu_name(qualified)
        if qualified in _ALBU_TENSOR:
            tensor = True
        elif name in _ALBU_SIZED:
            keywords = {k.arg: k.value for k in step.keywords}
            if "size" in keywords:
                size = _size(keywords["size"], resolve)
            else:
                skip = _ALBU_SIZED[name]
                args = step.args[skip : skip + 2]
                height = args[0] if len(args) > 0 else keywords.get("height")
                width = args[1] if len(args) > 1 else keywords.get("width")
                if height is None or width is None:
                    return None
                size = _size(ast.Tuple(elts=[height, width], ctx=ast.Load()), resolve)
            if size is None:
                return None
        elif name in _ALBU_FLOAT:
            dtype = "float32"
        elif name not in _ALBU_KEEPING:
            return None
    if not tensor or size is None or dtype is None:
        return None
    return Opaque(qualname, image=(size[0], size[1], dtype, "albumentations"))


def timm_value(node, resolve):
    """An Opaque for ``create_transform(input_size=...)`` of fixed output size; None otherwise."""
    from dl_lint.analysis.values import Opaque

    if node.args or any(k.arg is None for k in node.keywords):
        return None
    keywords = {k.arg: k.value for k in node.keywords}
    for flag in ("use_prefetcher", "separate", "tf_preprocessing"):
        if flag in keywords:
            value = resolve(keywords[flag]).single
            if value is None or value.value is not False:
                return None
    if "input_size" not in keywords:
        return None
    import ast

    given = keywords["input_size"]
    if isinstance(given, (ast.Tuple, ast.List)):
        parts = [resolve(e).single for e in given.elts]
        size = tuple(p.value for p in parts) if all(p is not None for p in parts) else None
    else:
        value = resolve(given).single
        size = value.value if value is not None else None
    if type(size) is int and size > 0:
        return Opaque("timm.data.create_transform", image=(size, size, "float32"))
    if isinstance(size, (tuple, list)) and len(size) == 3 and all(type(s) is int and s > 0 for s in size) and size[0] == 3:
        return Opaque("timm.data.create_transform", image=(size[1], size[2], "float32"))
    return None


def _size(node, resolve) -> Optional[Tuple[int, int]]:
    """(h, w) of a size argument: an int s is (s, s), a pair of ints is itself."""
    import ast

    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2:  # a literal pair: each part
        parts = [resolve(e).single for e in node.elts]
        if all(p is not None and type(p.value) is int and p.value > 0 for p in parts):
            return parts[0].value, parts[1].value
        return None
    value = resolve(node).single
    if value is None:
        return None
    size = value.value
    if type(size) is int and size > 0:
        return size, size
    if isinstance(size, (tuple, list)) and len(size) == 2 and all(type(s) is int and s > 0 for s in size):
        return size[0], size[1]
    return None


def _agreeing(value):
    """The one possibility of ``value``, or the first of several transforms that all make the
    same tensors (``Compose`` pipelines chosen by ``if args.aug == ...``, each cropping to 224):
    the sample's size does not depend on which one runs. None otherwise."""
    from dl_lint.analysis.values import Opaque

    if value.single is not None:
        return value.single
    options = value.options or ()
    if len(options) < 2:
        return None
    first = options[0].value
    if not isinstance(first, Opaque):
        return None
    made = (first.image, getattr(first, "views", None))
    if made == (None, None):
        return None
    same = all(isinstance(p.value, Opaque) and (p.value.image, getattr(p.value, "views", None)) == made for p in options)
    return options[0] if same else None


def image_value(qualname: str, node, resolve, qualname_of, elements=None):
    """An Opaque for a torchvision ``Compose`` whose output size and tensor type are fixed, or
    for an image dataset built with one; None for anything else (then an ordinary Opaque).
    ``elements(name)``: the steps of a list the Compose is given by name (``Resolver.list_elements``:
    ``steps = [...]``, ``steps.append(...)`` on every path), or None."""
    import ast

    from dl_lint.analysis.values import Opaque

    if _transform_name(qualname) == "Compose":
        if len(node.args) != 1 or node.keywords:
            return None
        given = node.args[0]
        steps = given.elts if isinstance(given, (ast.List, ast.Tuple)) else elements(given) if elements is not None else None
        if steps is None:
            return None
        size: Optional[Tuple[int, int]] = (0, 0)  # (0, 0): the source's own size
        tensor: Optional[str] = None  # the dtype once a tensor
        for step in steps:
            if not isinstance(step, ast.Call):  # a name bound to a transform: normalize = Normalize(...)
                single = resolve(step).single
                if single is None or not isinstance(single.value, Opaque):
                    return None
                if _transform_name(single.value.qualname) not in _SIZE_KEEPING:
                    return None
                continue
            name = _transform_name(qualname_of(step.func))
            if name in _SIZED:
                argument = step.args[0] if step.args else next((k.value for k in step.keywords if k.arg == "size"), None)
                if argument is None:
                    return None
                size = _size(argument, resolve)
                if name == "Resize" and size is not None and type(resolve(argument).single.value) is int:
                    size = None  # the smaller edge only: the other depends on the image
            elif name == "RandomApply":  # the steps, or nothing: keeps the size when every step does
                listed = step.args[0] if step.args else next((k.value for k in step.keywords if k.arg == "transforms"), None)
                if not isinstance(listed, (ast.List, ast.Tuple)) or not listed.elts:
                    return None
                for inner in listed.elts:
                    if isinstance(inner, ast.Call):
                        inner_name = _transform_name(qualname_of(inner.func))
                    else:
                        single = resolve(inner).single
                        inner_name = _transform_name(single.value.qualname) if single is not None and isinstance(single.value, Opaque) else None
                    if inner_name not in _SIZE_KEEPING:
                        return None
            elif name in _TO_TENSOR:
                tensor = _TO_TENSOR[name]
            elif name in _TO_DTYPE and tensor is not None:
                argument = step.args[0] if step.args else next((k.value for k in step.keywords if k.arg == "dtype"), None)
                dtype = (qualname_of(argument) or "") if argument is not None else ""
                if not dtype.startswith("torch.") or dtype[6:] not in _DTYPES:
                    return None
                tensor = _DTYPES[dtype[6:]]
            elif name not in _SIZE_KEEPING:
                return None
        if tensor is None or size is None:
            return None
        return Opaque(qualname, image=(size[0], size[1], tensor))  # (0, 0): as the source
    found = IMAGE_DATASETS.get(qualname)
    if found is None:
        return None
    channels, position = found
    transform = next((k.value for k in node.keywords if k.arg == "transform"), None)
    if transform is None and len(node.args) > position:
        transform = node.args[position]
    if transform is None or any(k.arg is None for k in node.keywords):
        return None
    single = _agreeing(resolve(transform))
    views = getattr(single.value, "views", None) if single is not None else None
    if views:  # a multi-view transform of the project (``TwoCropTransform(train_transform)``)
        if any(h == 0 or dtype not in _ITEMSIZE for h, w, dtype in views):
            return None  # a view of the source's size, or a dtype not known
        each = " + ".join(f"{channels}×{h}×{w} {dtype}" for h, w, dtype in views)
        return Opaque(
            qualname,
            sample=(sum(channels * h * w * _ITEMSIZE[dtype] for h, w, dtype in views) + 8, f"{len(views)} views ({each}) + a label"),
        )
    if single is None or not isinstance(single.value, Opaque) or single.value.image is None:
        return None
    if len(single.value.image) != 3:
        return None  # an albumentations pipeline: not what a torchvision dataset calls
    height, width, dtype = single.value.image
    if dtype not in _ITEMSIZE:
        return None
    if (height, width) == (0, 0):
        native = NATIVE_SIZE.get(qualname.rsplit(".", 1)[1])
        if native is None:
            return None
        height, width = native
    return Opaque(
        qualname,
        sample=(channels * height * width * _ITEMSIZE[dtype] + 8, f"{channels}×{height}×{width} {dtype} + a label"),
    )


_DTYPES = {"float32": "float32", "float": "float32", "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "float64": "float64", "double": "float64", "uint8": "uint8"}
_ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "uint8": 1}


# -- Lightning: the classes whose ``*_dataloader`` hooks Lightning calls (DL307) ----------------
# Read in Lightning 2.6.2 (commit 7f0c343): src/lightning/pytorch/trainer/connectors/
# data_connector.py:478-489 (``_process_dataloader``) warns "Your `{stage}_dataloader`'s sampler
# has shuffling enabled, it is strongly recommended that you turn shuffling off for val/test
# dataloaders" for every stage but training, where stage is the hook the loader came from
# (``val_dataloader`` for validation and the sanity check, ``test_dataloader``,
# ``predict_dataloader``); ``_DataLoaderSource.dataloader`` (:292-304) calls that hook on a
# LightningModule or a LightningDataModule. ``_is_dataloader_shuffled`` (utilities/data.py:339-361)
# answers with the ``shuffle`` argument the loader was built with when it was given, else with
# whether its sampler is a ``RandomSampler``. The classes are exported as ``lightning.X``,
# ``lightning.pytorch.X`` and ``lightning.pytorch.core.X`` (defined in core/module.py and
# core/datamodule.py); the ``pytorch_lightning`` package mirrors ``lightning.pytorch``, and
# pytorch_lightning before 1.9 defined LightningModule in ``core.lightning``.
LIGHTNING_HOOK_CLASSES = frozenset(
    f"{package}.{name}"
    for package, names in (
        ("lightning", ("LightningModule", "LightningDataModule")),
        ("lightning.pytorch", ("LightningModule", "LightningDataModule")),
        ("lightning.pytorch.core", ("LightningModule", "LightningDataModule")),
        ("lightning.pytorch.core.module", ("LightningModule",)),
        ("lightning.pytorch.core.datamodule", ("LightningDataModule",)),
        ("pytorch_lightning", ("LightningModule", "LightningDataModule")),
        ("pytorch_lightning.core", ("LightningModule", "LightningDataModule")),
        ("pytorch_lightning.core.module", ("LightningModule",)),
        ("pytorch_lightning.core.lightning", ("LightningModule",)),
        ("pytorch_lightning.core.datamodule", ("LightningDataModule",)),
    )
    for name in names
)
# The hooks whose loaders Lightning runs in a stage other than training.
LIGHTNING_EVAL_HOOKS = ("val_dataloader", "test_dataloader", "predict_dataloader")
# Every loader hook: ``_worker_check`` (data_connector.py:417-446) runs on the loaders of all
# stages, and warns "Consider setting `persistent_workers=True` in '{name}' to speed up the
# dataloader worker initialization." when num_workers > 0, the loader's start method
# (``multiprocessing_context.get_start_method()``, else torch's global one) is "spawn" and
# persistent_workers is off (DL308).
LIGHTNING_HOOKS = ("train_dataloader", *LIGHTNING_EVAL_HOOKS)
# torch's random sampler, which Lightning's check recognises when shuffle is not given.
RANDOM_SAMPLERS = frozenset({"torch.utils.data.RandomSampler", "torch.utils.data.sampler.RandomSampler"})

# Lightning's ``self.save_hyperparameters()`` (Lightning 2.6.2, 7f0c343;
# core/mixins/hparams_mixin.py:53-125, utilities/parsing.py:92-219). Called in ``__init__``, it
# stores the *current* local values of that ``__init__``'s parameters (``_get_init_args``: the
# frame's locals, so a parameter rebound before the call is stored rebound; ``**kwargs`` merged
# in; ``self``/``*args``/``**kwargs`` names dropped); with string arguments only those names;
# with one non-string argument (a dict, Namespace, DictConfig) that object instead; ``ignore=``
# (a name or a list of names) filters. The result is ``self.hparams``, an AttributeDict the
# user may mutate (``hparams`` property: "It is mutable by the user"); a subclass's ``__init__``
# frame is collected too, so its arguments of the same name override (a caller's choice, like
# any argument). Read by the resolver (``Resolver._saved_hparam``).
SAVE_HYPERPARAMETERS = "save_hyperparameters"
HPARAMS_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "__delitem__"})

# Calls that never give None: a value passed from one of these is "not None" (an ``Opaque``),
# which is all DL006, DL007 and DL009 need to know of a sampler (torch 2.13 raises for any
# sampler that is not None next to shuffle=True: ``sampler = range(10)`` as much as a
# ``RandomSampler``). Any other function may return None, and its result stays unknown.
# - Python's builtins, every version dl-lint supports (3.9-3.14): the types (calling one
#   constructs an instance of it, or raises) and ``sorted`` (a new list) and ``iter`` (an
#   iterator; one whose ``__iter__`` returns None raises TypeError).
# - torch 2.13's tensor factories: C functions (``torch._C._VariableFunctions``) whose every
#   overload in ``torch/_C/_VariableFunctions.pyi`` returns ``Tensor``.
# tests/test_oracle.py::test_the_never_none_table_holds checks both against the installed
# Python and torch.
NEVER_NONE_BUILTINS = (
    "range", "list", "tuple", "set", "frozenset", "reversed", "enumerate", "zip", "map", "filter",
    "sorted", "iter",
)  # fmt: skip
NEVER_NONE_TORCH = ("randperm", "arange", "tensor", "as_tensor", "randint", "multinomial")
NEVER_NONE = frozenset(
    [f"builtins.{name}" for name in NEVER_NONE_BUILTINS] + [f"torch.{name}" for name in NEVER_NONE_TORCH]
)
