from dl_lint.model import Severity
from dl_lint.rules.base import Rule, dataset_class_of, fires, has_workers


class CopyOnReadDataset(Rule):
    code = "DL103"
    name = "copy-on-read-dataset"
    severity = Severity.WARNING
    default_on = False
    summary = "A map-style Dataset indexes a Python list/dict built in __init__, loaded with workers: pages copied per worker."
    references = ('https://github.com/pytorch/pytorch/issues/13246', 'https://pytorch.org/docs/stable/data.html#multi-process-data-loading')
    doc = """
## What it does
Reports a map-style Dataset that builds a Python `list` or `dict` in `__init__` (a literal, a
comprehension, `list(...)`, `dict(...)`, `sorted(...)`) and indexes it in `__getitem__`, when a
DataLoader uses it with workers. Off by default: it is about memory growth, and many datasets
are small enough not to matter. Enable it with `extend-select = ["DL103"]`.

## Why is this bad?
Workers are forked with the dataset in memory shared copy-on-write. Reading a Python object
writes its reference count, so every page holding the list's objects is copied into every worker
as soon as it is read (pytorch issue 13246). Measured on torch 2.13: a 4M-item list read by 2
workers grew each worker's private memory from 14 to 136 MiB; the same data as a numpy array
stayed at 11 → 13 MiB. With 8 workers and a large index the host runs out of memory "slowly,
for no reason".

## Example
```python
class Captions(Dataset):
    def __init__(self, path):
        self.items = [json.loads(line) for line in open(path)]
    def __getitem__(self, i):
        return self.items[i]
```

## Use instead
Store per-sample data in arrays that hold no Python objects: a numpy array (strings as a
fixed-width or offsets+bytes array), a pyarrow table, or tensors; or read lazily from disk.

## Torch versions
All versions (a property of CPython's reference counting and fork).
"""

    def check_call(self, call, ctx):
        found = fires(call, ("num_workers", "dataset"), has_workers)
        if not found:
            return
        cls = dataset_class_of(ctx, found)
        if cls is None:
            return
        mro = ctx.datasets.mro(cls)
        if mro is None or not ctx.datasets.is_map_style(cls):
            return
        containers = {a for c in mro for a in c.init_containers}
        read = {a for c in mro for a in c.getitem_reads} & containers
        if not read:
            return
        attr = sorted(read)[0]
        yield self.finding(
            call,
            "dataset",
            f"{cls.name}.{attr} is a Python list/dict read in workers: each worker copies the pages it reads.",
            detail=f"self.{attr} is a Python list or dict built in {cls.name}.__init__ and read in __getitem__, and "
            "this loader starts workers. Reading a Python object writes its reference count, so copy-on-write copies "
            "every page a worker touches (measured: 14 → 136 MiB per worker for a 4M-item list, 11 → 13 MiB as a "
            "numpy array). Store the per-sample data in a numpy array, a pyarrow table or tensors.",
            cite=(found, ("num_workers",)),
        )


RULE = CopyOnReadDataset()
