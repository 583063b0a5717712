import os

from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule


class DistributedSamplerWithoutSetEpoch(Rule):
    code = "DL206"
    name = "distributed-sampler-without-set-epoch"
    severity = Severity.WARNING
    summary = "A shuffling DistributedSampler iterated in an epoch loop that never calls set_epoch: every epoch has the same order."
    references = (
        "torch/utils/data/distributed.py (DistributedSampler.__iter__ seeds with seed + epoch; set_epoch), torch 2.13",
        "https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler",
        "https://github.com/pytorch/pytorch/issues/31771",
    )
    doc = """
## What it does
Reports a DataLoader whose `sampler` is a torch `DistributedSampler` that shuffles (`shuffle`
not given, or true) with a constant seed, when the loader is iterated inside a loop that runs
the iteration again (the epoch loop) and nothing calls `set_epoch` on it: not
`sampler.set_epoch(epoch)`, `loader.sampler.set_epoch(...)` nor
`loader.batch_sampler.sampler.set_epoch(...)`. The iteration may be in a function of the same
module the loader is handed to (`train_one_epoch(model, loader)` inside
`for epoch in range(epochs):`), three calls deep.

It fires only when all of this is visible in the function that builds the loader. It is silent
when the loader or its sampler goes anywhere it cannot follow: handed to a callee of another
module or a library, returned, stored on `self`, wrapped or aliased. That includes the
libraries that call `set_epoch` themselves (checked in their source; the table in
`dl_lint/analysis/libraries.py`): Lightning's `Trainer.fit` (and Fabric's
`setup_dataloaders`), accelerate's `Accelerator.prepare`, and HuggingFace's `Trainer`, which
builds and prepares its own loader. It is silent with `shuffle=False`, with a `seed` that is
not a constant, and when no loop runs the iteration more than once.

## Why is this bad?
`DistributedSampler.__iter__` shuffles with a generator seeded `seed + epoch`, and `epoch` stays
0 until `set_epoch` changes it. Without it, every epoch visits the data in the same order on
every rank: the randomness of shuffling is lost after the first epoch (torch's documentation
warns about it; pytorch/pytorch#31771 and many reports rediscover it). Measured with torch
2.13, two ranks simulated with `num_replicas=2` and `rank=0/1`: each rank's order is identical
in every epoch without `set_epoch`, and changes with it.

## Example
```python
sampler = DistributedSampler(dataset)
loader = DataLoader(dataset, batch_size=64, sampler=sampler, num_workers=4)
for epoch in range(epochs):
    for batch in loader:
        train_step(batch)
```

## Use instead
```python
for epoch in range(epochs):
    sampler.set_epoch(epoch)
    for batch in loader:
        train_step(batch)
```

## Torch versions
All versions with `DistributedSampler.set_epoch` (torch ≥ 1.0).
"""

    def check_call(self, call, ctx):
        facts = call.sampler_epochs
        if facts is None or facts.escape is not None or facts.set_epoch is not None or facts.epoch is None:
            return
        for sampler in facts.samplers:
            if sampler.shuffle.options is None or not all(p.value for p in sampler.shuffle.options):
                return  # shuffle=False (or unknown): the order is meant to be fixed
            if not sampler.seed_constant:
                return  # a seed that may change with the epoch
        epoch = facts.epoch
        sampler = facts.samplers[0]
        through = f" through {epoch.through}()" if epoch.through else ""
        message = "a shuffling DistributedSampler is never given set_epoch: every epoch visits the data in the same order."
        detail = (
            f"The DistributedSampler (line {sampler.row}) shuffles, and this loader is iterated{through} in the "
            f"epoch loop (line {epoch.epoch_row}), which never calls set_epoch. "
            "DistributedSampler seeds its shuffle with seed + epoch, and epoch stays 0 until set_epoch is called, so "
            "each rank gets the same permutation every epoch. Call sampler.set_epoch(epoch) at the start of each "
            "epoch, before iterating the loader (or hand the loader to a trainer that does: Lightning, accelerate)."
        )
        path = os.path.abspath(call.path)
        related = (
            Related(path, sampler.row, 1, "the DistributedSampler"),
            Related(path, epoch.epoch_row, 1, "the epoch loop"),
        )
        yield self.finding(call, None, message, detail=detail, related=related)


RULE = DistributedSamplerWithoutSetEpoch()
