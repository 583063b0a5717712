from dl_lint.analysis.values import FunctionRef
from dl_lint.model import Severity
from dl_lint.rules.base import MESSAGE_LIMIT, Rule, dataset_class_of, fires, has_workers, value_of


class CudaInWorker(Rule):
    code = "DL205"
    name = "cuda-in-worker"
    severity = Severity.WARNING
    summary = "__getitem__, __iter__ or collate_fn moves tensors to CUDA while workers load the data."
    references = ('https://pytorch.org/docs/stable/notes/multiprocessing.html#cuda-in-multiprocessing',)
    doc = """
## What it does
Reports a DataLoader with workers whose dataset's `__getitem__`/`__iter__` (or a method or a
project function they call, six calls deep) or whose `collate_fn` moves tensors to CUDA
(`.cuda()`, `.to("cuda")`, `device="cuda"`, or a device that is CUDA wherever a GPU is:
`.to(device)` after `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")` in
the function or at module level above it). A call that cannot be followed (a library function)
says nothing.

## Why is this bad?
Worker processes forked from a process that has initialised CUDA cannot use it:
`RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing,
you must use the 'spawn' start method`. Even under spawn, each worker then creates its own CUDA
context (hundreds of MiB of GPU memory each) and the batches cross processes as CUDA IPC handles.

## Example
```python
def __getitem__(self, i):
    return self.images[i].cuda()
```

## Use instead
Return CPU tensors from the dataset and collate_fn, set `pin_memory=True`, and move each batch
in the training loop: `batch = batch.to(device, non_blocking=True)`.

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        found = fires(call, ("num_workers", "dataset", "collate_fn"), has_workers)
        if not found:
            return
        collate = {value_of(s, "collate_fn") for s in found}
        if len(collate) == 1:
            fn = next(iter(collate))
            if isinstance(fn, FunctionRef) and fn.kind == "function":
                facts = ctx.datasets.function_facts(fn.module, fn.name, fn.path)
                if facts is not None and facts.uses_cuda:
                    yield self.finding(call, "collate_fn", _message(f"collate_fn {fn.name}"), detail=DETAIL)
                    return
        cls = dataset_class_of(ctx, found)
        if cls is None:
            return
        mro = ctx.datasets.mro(cls)
        methods = sorted({m for c in mro or () for m in c.cuda_methods})
        if methods:
            yield self.finding(call, "dataset", _message(f"{cls.name}.{methods[0]}"), detail=DETAIL)
            return
        reached = ctx.datasets.cuda_callee(cls)
        if reached is not None:
            method, callee = reached
            message = f"{callee}(), called by {method}, moves tensors to CUDA in the workers: forked workers fail to initialize CUDA."
            if len(message) > MESSAGE_LIMIT:  # a long name: the concise line stays within the bound
                message = f"{callee}() moves tensors to CUDA in the workers: forked workers fail to initialize CUDA."
            yield self.finding(
                call,
                "dataset",
                message,
                detail=f"{cls.name}.{method} calls {callee}() (directly or through the functions it calls). {DETAIL}",
            )


def _message(where: str) -> str:
    return f"{where} moves tensors to CUDA in the worker processes: forked workers fail to initialize CUDA."


DETAIL = (
    "The error is \"RuntimeError: Cannot re-initialize CUDA in forked subprocess\"; spawned workers each create "
    "their own CUDA context instead. Return CPU tensors, set pin_memory=True, and move batches in the training "
    "loop with .to(device, non_blocking=True)."
)


RULE = CudaInWorker()
