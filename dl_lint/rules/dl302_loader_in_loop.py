import os

from dl_lint.analysis.values import Instance, Opaque
from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule, call_scenarios, every, fires, has_workers, value_of, workers_of


class LoaderInLoop(Rule):
    code = "DL302"
    name = "loader-in-loop"
    severity = Severity.WARNING
    summary = (
        "A DataLoader with workers constructed inside a loop without persistent_workers, or a fresh "
        "`next(iter(loader))` at every step."
    )
    doc = """
## What it does
Reports a DataLoader with workers constructed inside a `for` or `while` body (of the same
function) without `persistent_workers=True`.

It also reports `next(iter(loader))` (or `next(enumerate(loader))`, `next(enumerate(loader,
0))`: `enumerate` calls `iter` on the loader) inside a step loop, when the loader is built
before the loop (and bound to that one name in its function). The name may also be the
parameter of a module-level function of the same module the loader is handed to
(`evaluate(model, loader)`, two calls deep, the parameter never rebound), or the variable of a
`for` over a list the loader is an element of (`loaders = [DataLoader(...) for std in stds]` or
a display of loaders, then `for loader in loaders` or `for i, loader in enumerate(loaders)`, in
the function or in one the list is handed to: ECCT's `test()`); each pass of that `for` takes
another loader, so only loops inside it count:
- with workers and without `persistent_workers=True`, each `iter()` starts all the workers
  again; when the loops around it have known counts (`for step in range(1000)`), the message
  gives the number of starts ("1,000 starts of 8 workers");
- with no shuffling (`shuffle` not given or false, no sampler) over a map-style dataset (a
  project class that is not an IterableDataset, `TensorDataset`, `Subset`, the torchvision
  image datasets), each `iter()` starts a new epoch at index 0, so every step gets the same
  first batch, with or without workers.

A loader that reads what its loop changes stays silent: each pass needs its own loader. That is
the loop's variable (`for dataset in datasets`), or a name the loop body assigns before the call
from such a value (a fold's subset in cross-validation, a schedule's batch size, a split's
dataset, a shard read from the loop's file), followed through assignments, `for` targets,
`with ... as` names and `:=`; an accumulator the body changes with an augmented assignment
anywhere in it (`start += size` after the loader: each fold's subset starts where the last one
ended) holds a new value on every pass, unless the body also assigns it plainly (then the rows
decide). A list the body fills (`+=`, `append`, `extend`, `insert`, `add`, `update`) with such a
value, or under an `if`/`while` test or inner `for` iterable that reads one, holds it too: a
leave-one-subject-out script fills each fold's file list in nested loops under `if subject !=
held_out:`, then filters and wraps it. (A plain assignment under such a test, `if epoch % 5 == 0:
test_set = Data(...)`, holds its value alone: still reported.) A dataset built again in the body from nothing the loop changes
(`ds = MyDataset(root)` in an epoch loop) is still reported. A block that runs at most once
stays silent too: an `if` that requires `not flag` and sets `flag = True` in its body (the
unfreeze step that rebuilds the loader with a new batch size; the flag may be an attribute,
`not opt.refine_start` ... `opt.refine_start = True`). So does a loader whose dataset
the loop changes in place, anywhere in its body (`dataset.shuffle()`, `ds.reset_max_len(n)`,
`ds.max_len = n`: a method called as a statement on it, or an attribute or item of it set):
each worker holds a copy of the dataset, and persistent workers would keep the first pass's.
Except a setter of the dataset's own class called with constants (`val_dataset.set_offset(0)`,
where `set_offset` only stores its parameters or constants on `self`): that leaves the dataset
the same on every pass, so the loader is still reported; any other method, an inherited one, or
one given a value the loop changes keeps it silent.
Not for the sampler (`sampler.set_epoch(epoch)`): it runs in the main process, so a loader
built once sees the change. A change made through another name (the items of a container the
loader's comprehension iterates again) is not followed.

Attributes are told apart: in a method, `self.epoch = epoch` in the loop changes `self.epoch`,
not the `self.validation_data` the loader reads, so that loader is still reported. A method of
the class called as a statement in the loop (`self.save(path)`) is read for what it stores on
`self` and the methods it calls on it (two methods deep): one that rebinds or changes what the
loader reads (`self.data = ...`, `self.data.reverse()`, `self.__dict__.update(...)`) keeps it
silent, and so does a method the class inherits or a subclass of the module overrides, which is
not read. `self.early_stopping(loss, self)`, an attribute the class (with no base but
`object`) never defines as a method, changes the object it holds. Workers given as the core
count (`num_workers=self.workers`, `workers=mp.cpu_count()` a constructor default) are workers.

A loop that holds another loop over data (an epoch loop taking one batch for a preview), a
`next(iter(loader))` in an `except` handler (restarting an exhausted iterator), and a name bound
more than once stay silent.

## Why is this bad?
Every iteration of the loop builds a new loader, so every epoch (or step) starts all worker
processes again: each re-imports or forks, rebuilds its dataset copy and refills W×P prefetched
batches before the first batch arrives. That start-up often dominates short epochs.

`iter(loader)` is a new epoch: torch creates a new multi-process iterator (starting the workers,
which prefetch W×P batches of which one is used) and asks the sampler for a new order. Without
shuffling that order starts at index 0 every time: the model trains on one batch, over and over
(checked with torch 2.13: two `next(iter(loader))` with `shuffle=False` return equal batches).

## Example
```python
for epoch in range(epochs):
    loader = DataLoader(ds, batch_size=64, num_workers=8)
    for batch in loader:
        ...

loader = DataLoader(ds, batch_size=64, num_workers=8)
for step in range(1000):
    batch = next(iter(loader))   # 1,000 starts of 8 workers, and always the first batch
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
and make one iterator, renewed only when it runs out:
```python
batches = iter(loader)
for step in range(1000):
    try:
        batch = next(batches)
    except StopIteration:
        batches = iter(loader)
        batch = next(batches)
```

## Torch versions
All versions (persistent_workers from 1.7).
"""

    def check_call(self, call, ctx):
        if call.in_loop:
            found = fires(
                call,
                ("num_workers", "persistent_workers"),
                lambda s: has_workers(s) and not value_of(s, "persistent_workers"),
                positive=True,  # only whether there are workers: ``os.cpu_count()`` has
            )
            if found:
                yield self.finding(
                    call,
                    None,
                    "this DataLoader with workers is built inside a loop: every iteration starts its workers again.",
                    detail="Each start forks or spawns the workers, copies the dataset to them and prefetches W×P "
                    "batches before the first batch. Build it once before the loop, with persistent_workers=True to "
                    "keep the workers between epochs.",
                    cite=(found, ("num_workers",)),
                )
        if call.fresh_iterators:
            finding = self._fresh_iterator(call, ctx)
            if finding is not None:
                yield finding

    def _fresh_iterator(self, call, ctx):
        fresh = call.fresh_iterators[0]
        restarts = fires(
            call, ("num_workers", "persistent_workers"), lambda s: has_workers(s) and not value_of(s, "persistent_workers")
        )
        same_batch = call_scenarios(call, "shuffle", "sampler", "batch_sampler", "dataset")
        if not every(same_batch, lambda s: _in_order(s, ctx)):
            same_batch = None
        if not restarts and not same_batch:
            return None
        workers = {workers_of(s) for s in restarts} if restarts else set()
        counted = f"{next(iter(workers))} workers" if len(workers) == 1 else "the workers"
        if fresh.path:  # in a function of another module: the place is the related location, not text
            detail = [f"`{fresh.text}`, in the function of another module the loader is handed to (cited), makes a new iterator at every step of its loop."]
        else:
            detail = [f"`{fresh.text}` (line {fresh.location.row}) makes a new iterator at every step of the loop on line {fresh.loop_row}."]
        if restarts:
            if fresh.starts is not None:
                detail.append(
                    f"The loops around it run {fresh.counted} = {fresh.starts:,} times: {fresh.starts:,} starts of {counted}."
                )
            detail.append(
                "Each iterator forks or spawns the workers, copies the dataset to them and prefetches W×P batches, "
                "of which the step uses one."
            )
        if same_batch:
            detail.append(
                "iter() starts a new epoch: the sampler restarts, and without shuffle it yields the same indices "
                "first."
            )
        if restarts and same_batch:
            outcome = f"starts {counted} again and gets the same first batch (unshuffled)"
        elif restarts:
            outcome = f"starts {counted} again"
        else:
            outcome = "gets the same first batch (unshuffled)"
        message = f"`{fresh.text}` inside a loop: every step {outcome}."
        detail.append(
            "Make the iterator once, before the loop (batches = iter(loader)), take next(batches) in the loop and "
            "make a new one only when it raises StopIteration"
            + (" (persistent_workers=True keeps the workers alive between iterators)." if restarts else ".")
        )
        where = os.path.abspath(fresh.path or call.path)
        related = (Related(where, fresh.location.row, fresh.location.column, "a new iterator here"),)
        cite = (restarts, ("num_workers",)) if restarts else None
        return self.finding(call, None, message, detail=" ".join(detail), related=related, cite=cite)


def _in_order(scenario, ctx):
    """No shuffling, no sampler: the default SequentialSampler over a map-style dataset."""
    if value_of(scenario, "shuffle") or value_of(scenario, "sampler") is not None:
        return False
    if value_of(scenario, "batch_sampler") is not None:
        return False
    dataset = scenario["dataset"].value
    if isinstance(dataset, (list, tuple)):
        return True
    if isinstance(dataset, Opaque):
        from dl_lint.analysis.libraries import is_map_style_library

        return is_map_style_library(dataset.qualname)
    if isinstance(dataset, Instance):
        cls = ctx.dataset_class(dataset)
        return cls is not None and not ctx.datasets.is_iterable(cls) and "__getitem__" in cls.methods
    return False


RULE = LoaderInLoop()
