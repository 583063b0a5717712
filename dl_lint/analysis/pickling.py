"""What workers receive (DL202): under spawn and forkserver the DataLoader pickles the dataset
with everything it holds. A lambda or a local function kept on it, directly or inside a
transform, cannot be pickled: ``self.transform = transforms.Lambda(lambda x: x / 255)`` in
``__init__``, a closure stored in an attribute, ``defaultdict(lambda: [])``, or a transform
holding a lambda built elsewhere and handed to a dataset that keeps it.

``held_callable`` finds such a callable in an expression: the expression itself (a lambda, a
local function), a container display holding one, or the argument of a class known to keep its
arguments (``HOLDERS``, read in their source), or a value already known to hold one. Anything
else (a call of an unknown function, a factory's result) is not followed: silence.
"""

from __future__ import annotations

import ast
from typing import Callable, Collection, Optional, Tuple

from dl_lint.analysis.libraries import WEBDATASET_DATAPIPELINE, WEBDATASET_FILTERS

_ALBUMENTATIONS_COMPOSE = "Compose OneOf SomeOf RandomOrder OneOrOther SelectiveChannelTransform ReplayCompose Sequential"
ALBUMENTATIONS_HOLDERS = frozenset(
    {f"albumentations.{name}" for name in ("Lambda", *_ALBUMENTATIONS_COMPOSE.split())}
    | {f"albumentations.core.composition.{name}" for name in _ALBUMENTATIONS_COMPOSE.split()}
    | {
        f"albumentations.{module}Lambda"
        for module in ("augmentations.", "augmentations.transforms.", "augmentations.other.lambda_transform.")
    }
)

# torchvision's and albumentations' transform holders: a project helper of another module whose
# every ``return`` builds one (``return T.Compose([..., T.Lambda(to_tensor)])`` with a nested
# ``to_tensor``) is read in its module (``Resolver._library_built``).
TORCHVISION_HOLDERS = frozenset(
    f"torchvision.transforms.{module}{name}"
    for module in ("", "transforms.", "v2.")
    for name in ("Lambda", "Compose", "RandomApply", "RandomChoice", "RandomOrder")
)
TRANSFORM_HOLDERS = TORCHVISION_HOLDERS | ALBUMENTATIONS_HOLDERS

# Classes whose instances keep the callables (and transforms) they are built with, so pickling
# them pickles those: torchvision's transforms (pytorch/vision 00368603,
# torchvision/transforms/transforms.py: ``Lambda.__init__`` stores ``self.lambd``, ``Compose``
# and ``RandomTransforms`` (RandomApply, RandomChoice, RandomOrder) store ``self.transforms``;
# the v2 module keeps the same attributes), ``collections.defaultdict`` (its
# ``default_factory``: pickling a defaultdict pickles it) and ``functools.partial``.
HOLDERS = frozenset(
    TORCHVISION_HOLDERS
    | {"collections.defaultdict"}
    # albumentations: ``Lambda.__init__`` stores its ``image``/``mask``/``keypoints``/``bboxes``
    # functions in ``self.custom_apply_fns`` (2.0.8, augmentations/other/lambda_transform.py;
    # 1.x, augmentations/transforms.py, the same attribute), and ``BaseCompose.__init__`` (the base
    # of Compose, OneOf, SomeOf, RandomOrder, OneOrOther, SelectiveChannelTransform, ReplayCompose,
    # Sequential) stores ``self.transforms`` (core/composition.py); no class defines
    # ``__getstate__``/``__reduce__``. Run with 2.0.8: pickling ``Compose([Lambda(image=f)])``
    # with a nested ``f`` raises "Can't pickle local object" (albumentations itself warns that a
    # lambda "is incompatible with multiprocessing").
    | ALBUMENTATIONS_HOLDERS
    # ``functools.partial`` pickles the function it wraps and its arguments (CPython 3.11.7,
    # Lib/functools.py: ``partial.__reduce__`` returns ``(type(self), (self.func,), (self.func,
    # self.args, self.keywords or None, self.__dict__ or None))``; the C type reduces the same)
    | {"functools.partial"}
    # webdataset 1.0.2: a ``DataPipeline`` keeps its stages, a filter stage (``wds.map(f)``) its
    # arguments (``libraries.WEBDATASET_FILTERS``, where the source is cited).
    | WEBDATASET_FILTERS
    | WEBDATASET_DATAPIPELINE
    # torch 2.13.0 torch/utils/data/dataset.py: ``Subset.__init__`` stores ``self.dataset``,
    # ``ConcatDataset`` and ``ChainDataset`` ``self.datasets`` (a list of them), ``StackDataset``
    # its ``args``/``kwargs`` datasets: pickling the wrapper pickles the datasets it wraps.
    | {
        f"torch.utils.data.{module}{name}"
        for module in ("", "dataset.")
        for name in ("Subset", "ConcatDataset", "ChainDataset", "StackDataset")
    }
)

# The torch wrappers above that keep whole datasets, and where: Subset's first argument (or
# ``dataset=``), ConcatDataset's and ChainDataset's iterable of datasets, StackDataset's
# arguments (``Opaque.wraps``).
DATASET_WRAPPERS = frozenset(
    f"torch.utils.data.{module}{name}" for module in ("", "dataset.") for name in ("Subset", "ConcatDataset", "ChainDataset", "StackDataset")
)

# DL306: a TensorDataset's tensors are on the CPU when each is made by one of these torch
# functions without ``device=`` (torch's default device is the CPU unless the program changes
# it: ``torch.set_default_device``, which the rule checks for), then changed only by methods
# that keep the device.
TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
CPU_CONSTRUCTORS = frozenset(
    f"torch.{name}"
    for name in (
        "randn", "rand", "randint", "randperm", "zeros", "ones", "empty", "full", "arange", "linspace",
        "from_numpy", "eye",
    )
)
# ``x.to(torch.float)`` (or ``dtype=``): a conversion on the same device, when every argument is
# one of these dtypes of torch (``transfers`` reads ``x.to(torch.float16, non_blocking=True)``
# the same way).
TORCH_DTYPES = frozenset(
    f"torch.{name}"
    for name in (
        "float", "float16", "float32", "float64", "bfloat16", "half", "double", "int", "int8", "int16", "int32",
        "int64", "uint8", "long", "short", "bool", "complex64", "complex128",
    )
)
DEVICE_KEEPING = frozenset(
    {
        "float", "long", "int", "double", "half", "bool", "view", "reshape", "unsqueeze", "squeeze", "contiguous",
        "clone", "detach", "t", "permute", "transpose", "flatten", "abs", "sign", "clamp", "round",
    }
)

Held = Tuple[str, str, int]  # (what, path, line): "a lambda", "the local function scale"


def held_callable(
    node: ast.AST,
    path: str,
    value_of: Callable[[ast.AST], object],
    qualname_of: Callable[[ast.AST], Optional[str]],
    local_functions: Collection[str] = (),
    depth: int = 0,
) -> Optional[Held]:
    """The lambda or local function ``node`` is or keeps, when it certainly keeps one.
    ``value_of``: the resolved single value of a name (None when unknown); ``qualname_of``: the
    qualified name a callee denotes; ``local_functions``: names of functions defined in the
    scope being read (``__init__``'s nested ``def``s)."""
    if depth > 6:
        return None
    if isinstance(node, ast.Lambda):
        return "a lambda", path, node.lineno
    if isinstance(node, ast.Name):
        if node.id in local_functions:
            return f"the local function {node.id}", path, node.lineno
        return _held_by_value(value_of(node), path)
    if isinstance(node, (ast.Subscript, ast.IfExp)):
        # ``data_transforms["train"]`` (PyTorch's transfer-learning tutorial), ``t if train else
        # v``: what the expression resolves to, when certain (every possibility keeps a
        # callable). An attribute (``self._tokenizer``) is not read: resolving every attribute
        # a construction is handed cost torchtune's recipes 10 ms for nothing found.
        return _held_by_value(value_of(node), path)
    if isinstance(node, ast.Starred):  # ``DataPipeline(*stages)``, ``[*processing, ...]``
        return held_callable(node.value, path, value_of, qualname_of, local_functions, depth + 1)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for element in node.elts:
            found = held_callable(element, path, value_of, qualname_of, local_functions, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(node, ast.Dict):
        for element in node.values:
            found = held_callable(element, path, value_of, qualname_of, local_functions, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(node, ast.Call):
        qualname = qualname_of(node.func)
        if qualname not in HOLDERS:
            # an object the call builds: an instance of a local class (``T.ToTensor()`` with
            # ``ToTensor = wrapper(T.ToTensor)`` returning a class defined in ``wrapper``), or
            # one already known to keep a callable
            return _held_by_value(value_of(node), path)
        for argument in (*node.args, *(k.value for k in node.keywords)):
            found = held_callable(argument, path, value_of, qualname_of, local_functions, depth + 1)
            if found is not None:
                what, where, line = found
                holder = qualname.rsplit(".", 1)[1]
                return (what if " in a " in what else f"{what} in a {holder}"), where, line
        return None
    return None


def _held_by_value(value: object, path: str) -> Optional[Held]:
    from dl_lint.analysis.values import FunctionRef, Instance, Opaque

    if isinstance(value, FunctionRef) and value.kind == "lambda":
        return "a lambda", value.path or path, value.line
    if isinstance(value, FunctionRef) and value.kind == "nested":
        return f"the local function {value.name}", value.path or path, value.line
    if isinstance(value, Instance) and value.local:
        return f"an instance of the local class {value.name}", value.path or path, value.line
    if isinstance(value, (Opaque, Instance)) and value.holds is not None:
        return value.holds
    return None
