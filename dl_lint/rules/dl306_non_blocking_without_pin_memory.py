import os

from dl_lint.analysis.values import FunctionRef, Opaque
from dl_lint.model import Edit, Fix, Related, Severity
from dl_lint.rules.base import Rule, call_scenarios, dataset_class_of, describe, every, value_of

# A TensorDataset's tensors may already live on the accelerator (a common way to keep a small
# dataset on the GPU); then the copy is a no-op and pinning would fail. Such loaders are judged
# only when every tensor was certainly made on the CPU (``analysis.pickling.CPU_CONSTRUCTORS``).
_TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})


class NonBlockingWithoutPinMemory(Rule):
    code = "DL306"
    name = "non-blocking-without-pin-memory"
    severity = Severity.WARNING
    summary = "Batches of a loader that does not pin memory are copied with non_blocking=True: the copy cannot overlap."
    fix_available = "Unsafe: write `pin_memory=True` (pinned batches are extra host memory)."
    references = (
        "torch 2.13 Tensor.cuda docstring (torch/_tensor_docs.py): non_blocking makes the copy asynchronous "
        "with respect to the host when the source is in pinned memory, and otherwise has no effect",
        "https://pytorch.org/tutorials/intermediate/pinmem_nonblock.html",
        "https://pytorch.org/docs/stable/data.html#memory-pinning",
        "transformers (commit 000945a9b726) src/transformers/trainer.py, create_accelerator_and_postprocess: "
        "the same warning at run time, for accelerate's non_blocking without dataloader_pin_memory",
    )
    doc = """
## What it does
Reports a DataLoader whose `pin_memory` is False in every case dl-lint can see (not given, or
resolved to False) when its batches are copied to a device with `non_blocking=True`:
`batch.to(device, non_blocking=True)` or `batch.cuda(non_blocking=True)`, on a batch from a
`for` loop over the loader, or taken by hand with `next(iter(loader))` (or `next(it)` of a name
bound once to `iter(loader)`), copied in the statement that takes it (`[t.to(device,
non_blocking=True) for t in next(iter(loader))]`) or in the statements after it in its block when
that statement binds it (`images, labels = next(iter(loader))`) (or something taken from it: `images, labels = batch`,
`batch["image"]`, `batch[0].copy()`, a comprehension over `batch.items()`, `Variable(x.float())`,
a function of torch given it first such as `torch.cat([x, y])` without `device=`: a host tensor
made from a pageable batch is pageable too), in the function
that builds the loader or in a function of the project it is passed to (`train(model, loader)`).
The copy may be made by project code the batch is given to: a function of any module of the
project that copies its parameter (`feed_dict = async_copy_to(feed_dict, gpu)`, recursing over a
dict; `utils.to_gpu(x)`), or a method of an object dl-lint knows is an instance of a project
class (the class's own method or one inherited from a project base class), handing the batch to
such a function (`x, y = model.parse_batch(batch)`). The object may be a parameter of the function
that loops (`def train(model, loader)`, `def validate(model, valset)`): its class is the one the
call passes (`train(Tacotron2(hparams), loader)`), judged at the loader when the call also passes
the loader, at the call when the function builds the loader itself. It may also be
made by a project class the loader is handed to (`loader = PrefetchLoader(loader)`,
`Trainer(model, train_loader)`) whose `__init__` keeps it in an attribute set nowhere else and
whose `__iter__` or another method loops over that attribute and copies the batches with
`non_blocking=True`, in the loop or through a method of the class itself (`batch =
self._to_device(batch)`). Or by a method of an object of a project class the loader is handed
to as a positional argument (`trainer.train(epoch, model, loader)`, `Trainer().train(...)`; the
class's own method or one inherited from a project base), which loops over that parameter and
copies the batches `non_blocking=True`: every value the object may hold must be such an
instance (a loader passed by keyword, or to a static method, is not followed). A
loader name bound in several arms of an `if` or `try` statement (`try: loader = DataLoader(...)`
/ `except OSError: loader = DataLoader(...)`) holds either arm's loader after the statement: a
loop there is judged for each, a loop inside one arm for that arm's loader. A name bound again
later in straight-line code (`train_dataloader = accelerator.prepare(...)` after a pass that
caches latents) is the first loader until that statement ends. The loader may reach
the loop through the function that returns it (`train_loader, valset, collate_fn =
prepare_dataloaders(hparams)`, then `for batch in train_loader` in the caller; or the call
itself, `return DataLoader(...)`), read in each caller that binds what every `return` gives at
one place (or binds the tuple to one name and hands it whole to a project function that takes
it apart: `fit(loaders, model)` with `train_loader, dev_loader = loaders` in `fit`), and on
through relays, functions that hand back what a factory returns (`return construct_loader(...)`,
or `sampler, loader = construct_loader(...)` then `return dataset, sampler, loader`), their
values taken from their own parameters or locals assigned from them (`pin_memory =
cfg.pin_memory`); at a call of a relay only that relay's callers are read. A method that
returns its object (`return self`) gives it back (`trainer = Runner(cfg).enter_train()`). Three
functions deep (only when some file of the project writes
`non_blocking=True`: the callers' loops are not read otherwise). A loader kept on the object
(`self.train_loader = DataLoader(...)` in a method of a module-level class) is judged at the
loops over `self.train_loader` in the class's methods (`for i, batch in
enumerate(self.train_loader)`), the copy written there or made by a method of the object
(`batch = self.to_device(batch)`, the class's own or inherited from a project base), when the
class stores that attribute once, nothing else in the module stores it and no string names it
(`setattr(self, "train_loader", ...)`); a method of the object is not read when a class of the
module derives from the class (it may override the method). A name bound once to a transparent wrapper of the loader (`train_bar = tqdm(loader, ncols=150)`)
is looped over as the loader is. The
diagnostic is at the loader, with the copy as related location. It is silent when pinning is unknown, in a
module that pins by hand (`.pin_memory()` anywhere in it, a custom collate_fn that pins for
instance), for copies to the CPU, dtype conversions and values already moved with
`.to()`/`.cuda()`, for helpers that copy something other than what they are given, for a
method of an object it cannot name (a parameter whose call passes an unknown value, leaves the
default, or passes `DistributedDataParallel(model)` or `DataParallel(model)`, which do not
forward the wrapped model's methods: torch 2.13's `nn.Module.__getattr__` looks only in
parameters, buffers and submodules), for a method inherited through several bases or from a
library base, and when the batches may already be
on the device: a `TensorDataset` whose
tensors may have been created on the GPU, a dataset whose `__getitem__` or a collate_fn that
moves tensors to CUDA. A `TensorDataset` is judged when each of its tensors is certainly made on
the CPU: by a torch constructor from shapes or NumPy (`torch.randn(50_000, 512)`,
`torch.from_numpy(x)`) without `device=`, directly or through a name bound once, changed only by
methods that keep the device (`.float()`, `.view(...)`, a dtype conversion such as
`.to(torch.float)` or `.to(dtype=torch.long)`), in a program that does not change
torch's default device (`torch.set_default_device`, `with torch.device(...)`).

## Why is this bad?
`non_blocking=True` asks for a host-to-device copy that overlaps with the Python code that
follows (the next forward pass, the next batch). That needs the source in page-locked (pinned)
memory: from ordinary pageable memory the CUDA driver first stages the batch through a pinned
buffer of its own while the host waits, so the copy does not overlap, and torch's documentation
of `Tensor.cuda` says `non_blocking` then has no effect. The code asks for asynchronous
transfers and gets synchronous ones. transformers' Trainer warns about the same combination at
run time ("`non_blocking` is enabled but `dataloader_pin_memory` is not"), once the model has
loaded.

`pin_memory=True` makes the loader copy each batch into pinned memory in a background thread,
so the transfers can overlap. Pinned memory is host memory: up to W×P more batches with
workers (torch's caching host allocator rounds each tensor up to a power of two).

## Example
```python
loader = DataLoader(dataset, batch_size=64, num_workers=4)
for images, labels in loader:
    images = images.to(device, non_blocking=True)
```

Through a helper of another module:
```python
# lib/parallel.py
def async_copy_to(obj, dev):
    if torch.is_tensor(obj):
        return obj.cuda(dev, non_blocking=True)
    return {k: async_copy_to(o, dev) for k, o in obj.items()}

# eval.py
loader = DataLoader(dataset_val, batch_size=1, num_workers=5)
for batch_data in loader:
    feed_dict = async_copy_to(batch_data[0].copy(), gpu)
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
# or pin_memory=torch.cuda.is_available() when the script also runs on CPU-only machines
```

## Fix safety
The fix writes `pin_memory=True`. It is unsafe: pinned batches are extra host memory (and
without an accelerator torch only warns and pins nothing; on Apple's MPS torch does not pin).

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        copy = call.nonblocking_copy
        if copy is None:
            return
        found = call_scenarios(call, "pin_memory")
        if not every(found, lambda s: value_of(s, "pin_memory") is False):
            return
        if _may_yield_device_tensors(call, ctx):
            return
        path, row, column = copy
        yield self.finding(
            call,
            "pin_memory",
            f"{describe('pin_memory', found)} but the batches are copied with non_blocking=True: the copy cannot overlap.",
            _fix(call),
            detail="This loader's batches are copied to the device with non_blocking=True (the copy is cited). "
            "non_blocking=True is asynchronous only from pinned (page-locked) memory; from pageable memory "
            "the driver stages each batch through a pinned buffer while the host waits. Set pin_memory=True (or "
            "pin_memory=torch.cuda.is_available()) so the loader pins batches in a background thread; pinned "
            "batches are extra host memory, up to W×P batches with workers.",
            related=(Related(os.path.abspath(path), row, column, "the non-blocking copy"),),
            cite=(found, ("pin_memory",)),
        )


def _may_yield_device_tensors(call, ctx) -> bool:
    """The batches may already be on the device: a TensorDataset (its tensors may be), a project
    dataset whose ``__getitem__`` moves tensors to CUDA, or a collate_fn of the project that does."""
    datasets = call_scenarios(call, "dataset") or []
    for scenario in datasets:
        value = scenario["dataset"].value
        if isinstance(value, Opaque) and value.qualname in _TENSOR_DATASETS:
            if not value.on_cpu or ctx.signal("default-device"):
                return True  # its tensors may have been made on the GPU
    cls = dataset_class_of(ctx, datasets) if datasets else None
    if cls is not None and any(c.cuda_methods for c in ctx.datasets.mro(cls) or (cls,)):
        return True
    for scenario in call_scenarios(call, "collate_fn") or []:
        fn = value_of(scenario, "collate_fn")
        if isinstance(fn, FunctionRef) and fn.kind == "function":
            facts = ctx.datasets.function_facts(fn.module, fn.name, fn.path)
            if facts is not None and facts.uses_cuda:
                return True
    return False


def _fix(call):
    """``pin_memory=True``: the value replaced when written at the call as a literal False, or
    the argument added after the last one written at the call."""
    message = "Pin the batches: `pin_memory=True` (unsafe: pinned batches are extra host memory)"
    bound = call.args.get("pin_memory")
    if bound is not None:
        if bound.text.strip() != "False":
            return None
        content = "pin_memory=True" if bound.keyword else "True"
        return Fix("unsafe", message, (Edit(content, bound.location, bound.end_location),))
    if "pin_memory" in call.opaque:
        return None
    written = [b for b in call.args.values() if b.text]
    if not written:
        return None
    last = max(written, key=lambda b: (b.end_location.row, b.end_location.column))
    return Fix("unsafe", message, (Edit(", pin_memory=True", last.end_location, last.end_location),))


RULE = NonBlockingWithoutPinMemory()
