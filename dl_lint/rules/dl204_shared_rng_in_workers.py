from dl_lint.analysis.values import ABSENT
from dl_lint.model import Severity
from dl_lint.rules.base import Rule, dataset_class_of, fires, has_workers, value_of


class SharedRngInWorkers(Rule):
    code = "DL204"
    name = "shared-rng-in-workers"
    severity = Severity.WARNING
    summary = "A generator created in Dataset.__init__ and drawn from per sample: every worker draws the same numbers."
    references = ('https://pytorch.org/docs/stable/data.html#randomness-in-multi-process-data-loading', 'https://pytorch.org/docs/stable/notes/faq.html#my-data-loader-workers-return-identical-random-numbers')
    doc = """
## What it does
Reports a Dataset that creates a random generator in `__init__` (`np.random.default_rng`,
`np.random.RandomState`, `random.Random`, `torch.Generator`), or keeps one its construction
builds and hands it (`MAMLDataSet(..., rng=np.random.RandomState(seed))` with `self.rng = rng`,
stored once in `__init__` and nowhere else), and draws from it in `__getitem__`
or `__iter__` (or a method they call), used by a DataLoader with workers and no
`worker_init_fn`. A dataset that reseeds or replaces the generator on the worker's own path
(`self.generator.manual_seed(...)`, `self.rng.seed(...)` or `self.rng = ...` in `__getitem__`,
`__iter__` or a method they call: pytorchvideo's `LabeledVideoDataset` seeds it from
`get_worker_info()`) is in charge of its seeds: silent. Reseeding in a method only the main
process calls does not count.

## Why is this bad?
Each worker gets a copy of the dataset, generator state included, so every worker produces the
same "random" augmentations (measured on torch 2.13), and without persistent workers the same
ones again every epoch. torch reseeds its own generator and Python's `random` per worker, and the
legacy global `np.random` since torch 1.9 — but not generator objects you create.

## Example
```python
class Augmented(Dataset):
    def __init__(self):
        self.rng = np.random.default_rng(0)
    def __getitem__(self, i):
        return crop(self.images[i], self.rng.integers(0, 32))
```

## Use instead
Seed per worker in a `worker_init_fn`:
```python
def seed_worker(worker_id):
    info = torch.utils.data.get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed % 2**32)

loader = DataLoader(ds, num_workers=4, worker_init_fn=seed_worker)
```
or create the generator lazily inside the worker from `torch.initial_seed()`.

## Torch versions
All versions (global `np.random` is reseeded per worker from torch 1.9).
"""

    def check_call(self, call, ctx):
        found = fires(call, ("num_workers", "dataset", "worker_init_fn"), has_workers)
        if not found:
            return
        if any(value_of(s, "worker_init_fn") not in (None, ABSENT) for s in found):
            return  # a worker_init_fn may reseed: stay silent
        cls = dataset_class_of(ctx, found)
        if cls is None:
            return
        mro = ctx.datasets.mro(cls)
        if mro is None:
            return
        rngs = {a for c in mro for a in c.init_rngs}
        # a generator the construction builds and hands to __init__, which keeps it, in every
        # scenario (``MAMLDataSet(..., rng=np.random.RandomState(seed))``, ``self.rng = rng``)
        handed = set.intersection(*(set(getattr(s["dataset"].value, "rngs", ()) or ()) for s in found))
        drawn = {a for c in mro for a in c.draws} & (rngs | handed)
        if not drawn:
            return
        attr = sorted(drawn)[0]
        made = "created in __init__" if attr in rngs else "handed to __init__ by its construction"
        yield self.finding(
            call,
            "dataset",
            f"{cls.name} draws from self.{attr}, {made}, in every worker: they all draw the same numbers.",
            detail=f"{cls.name} draws per sample from the generator self.{attr}, {made}, and this "
            "loader starts workers without a worker_init_fn. Each worker gets a copy of the same generator state, "
            "so the workers repeat each other's augmentations, and again every epoch. Reseed it per worker in a "
            f"worker_init_fn (info = get_worker_info(); info.dataset.{attr} = np.random.default_rng(info.seed % 2**32)).",
            cite=(found, ("num_workers",)),
        )


RULE = SharedRngInWorkers()
