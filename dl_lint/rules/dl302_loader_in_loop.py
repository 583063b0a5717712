from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, has_workers, value_of


class LoaderInLoop(Rule):
    code = "DL302"
    name = "loader-in-loop"
    severity = Severity.WARNING
    summary = "A DataLoader with workers is constructed inside a loop without persistent_workers."
    doc = """
## What it does
Reports a DataLoader with workers constructed inside a `for` or `while` body (of the same
function) without `persistent_workers=True`.

## Why is this bad?
Every iteration of the loop builds a new loader, so every epoch (or step) starts all worker
processes again: each re-imports or forks, rebuilds its dataset copy and refills W×P prefetched
batches before the first batch arrives. That start-up often dominates short epochs.

## Example
```python
for epoch in range(epochs):
    loader = DataLoader(ds, batch_size=64, num_workers=8)
    for batch in loader:
        ...
```

## Use instead
Build the loader once, before the loop (with `persistent_workers=True` to keep workers alive
between epochs, if memory allows):
```python
loader = DataLoader(ds, batch_size=64, num_workers=8, persistent_workers=True)
for epoch in range(epochs):
    for batch in loader:
        ...
```

## Torch versions
All versions (persistent_workers from 1.7).
"""

    def check_call(self, call, ctx):
        if not call.in_loop:
            return
        found = fires(
            call, ("num_workers", "persistent_workers"), lambda s: has_workers(s) and not value_of(s, "persistent_workers")
        )
        if found:
            yield self.finding(
                call,
                None,
                "this DataLoader with workers is constructed inside a loop: every iteration starts all its worker "
                "processes again.",
                detail="Each start forks or spawns the workers, copies the dataset to them and prefetches W×P "
                "batches before the first batch. Build it once before the loop, with persistent_workers=True to "
                "keep the workers between epochs.",
            )


RULE = LoaderInLoop()
