import os

from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule


class DistributedSamplerWithoutSetEpoch(Rule):
    code = "DL206"
    name = "distributed-sampler-without-set-epoch"
    severity = Severity.WARNING
    per_branch = True  # the sampler is built on the distributed path only: that path is judged
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
`for epoch in range(epochs):`), in this module or another module of the project
(`engine.train_one_epoch`, read through the project index), three calls deep.

It also reports a `set_epoch` call on a narrower condition than the one the shuffling sampler is
built under (`if args.distributed: sampler.set_epoch(epoch)` while the sampler is built on every
path): on the other paths the order repeats. Conditions are compared by their text; one that
names the sampler or the loader (`if sampler is not None:`) narrows nothing, and conditions
inside a function the loader is handed to are that function's own (not compared). And a loop
that builds a new shuffling `DistributedSampler` with a constant seed on every pass over the
same dataset: each new sampler starts at epoch 0, so every pass draws the same order (checked
with torch 2.13). It stays silent when set_epoch is called, the seed changes per pass
(`seed=epoch`), `shuffle=False`, or the sampler's dataset is bound by the loop (the passes may
iterate different datasets). A function decorated `@torch.no_grad()` or
`@torch.inference_mode()` that the loader is handed to is an evaluation: the order it visits the
data in does not change its result, so it is not an epoch's iteration; so is a loop inside a
`with torch.no_grad():`, `torch.inference_mode()` or `torch.set_grad_enabled(False)` block
(torchvision's references evaluate that way), and so is a loader whose name says it evaluates
(`eval_dataloader`, `val_loader`, `valid_loader`, `test_loader`, `dev_loader`): the order an
evaluation visits its data in does not change what it computes. An iterator of the loader bound
to a name (`data_iter = iter(loader)`, then `next(data_iter)`) starts a pass where it is made
(the DataLoader's iterator asks the sampler for its order when it is made, torch 2.13): made
again inside a loop, as an iteration-based training loop does when it runs out (`except
StopIteration: data_iter = iter(loader)` inside `for step in range(max_steps):`), that loop is
the epoch loop; made once, it is a single pass; `next(iter(loader))` takes one batch and is not
followed. A generator of the
project over its parameter (MetricLogger's `log_every(self, iterable, ...)`: `for obj in
iterable: yield obj`) passes the loader on to the `for` that iterates it, like `enumerate`, and
so does a conditional expression choosing it (`for batch in (other if c else loader)`).
A loader handed (by position or keyword) to a project function, or to a method of an instance
of a project class (`backend = Backend(...)`), in any module, whose every `return` gives that
parameter back unchanged, whole or at one position of a returned tuple (`def distribute(self,
model=None, optimizer=None, training_data=None): ...; return model, optimizer, training_data,
None`), comes back as the name the result lands in (`_, _, distr_dl, _ =
backend.distribute(training_data=dl)`): that name is followed as the loader. A function that
returns something else on any path, an object whose class is chosen at run time, and a result
bound more than once are not followed (silent).

A loader its function returns, whole (`return loader`, or the call itself: `return
DataLoader(...)`) or at one position of a returned tuple (`return train_loader, valset,
collate_fn`, the same place on every `return`), is followed to
the calls of that function: the name the caller binds it to (`train_loader, valset, collate_fn =
prepare_dataloaders(hparams)`, bound once) is read as the loader, so `for epoch in
range(epochs): for batch in train_loader:` in the caller is its epoch loop, and
`train_loader.sampler.set_epoch(epoch)` there counts. Callers in the loader's module are read at
the loader: any of them calling set_epoch, handing the loader to a library, calling the
function inside a loop, binding the result another way or to an evaluation name
(`val_loader`) silences it, except that a caller taking only the loader (`data_loader, _ =
init_data(...)`) that iterates it per epoch without set_epoch is reported whatever the other
callers do: each call builds a loader and a sampler of its own. Returned tuples may nest
(`return (loader, sampler), val_loader`), and the caller may bind the tuple to one name and take
it apart in a later statement (`loaders = build(args)` then `train_loader, val_loader = loaders`
or `train_loader = loaders[0]`), or hand the bound tuple whole to a function of the project
that takes it apart there (`train(dataloaders, model)` with `train_loader, val_loader =
dataloaders` in `train`, whose parameter is never rebound: the loader's reads are then those of
`train`); the tuple iterated, handed on any other way (to a method, a class, a library, two
functions) or indexed by a computed value silences it, and so does a name bound twice in the
caller (`dataloaders = ...` again later in the same script).
The loader's name may be bound in several arms of an `if` or `try` statement (`try: loader =
DataLoader(...)` / `except OSError: loader = DataLoader(...)`): after the statement it holds
either arm's loader, and each is judged. A name bound again later in straight-line code (a
script reusing `loader` for its test phase) holds the first loader until the rebinding
statement ends (its own value included), the second after it. A name bound in an `if` body
that returns (or raises) and bound again after that `if` (`if world_size is None: train_loader
= DataLoader(...); return train_loader, valid_loader` then the distributed loaders) is bound
once on each path: the first binding's reads are those of its arm. A caller in another module is
judged at its call (reported there, `prepare_dataloaders(): ...`, citing the loader), like other
findings of a factory; there, unlike the other rules, a loader on one branch of the factory that
the call does not decide is reported by itself (the other branch builds no DistributedSampler:
the distributed path is the one judged, as a conditional `sampler=` is at a loader's own call). A caller that returns the loader again is followed on, across modules (the modules that
import the function's module and call it), through functions that return it whole or in a new
tuple (jepa's `make_videodataset` -> `init_data` -> `make_dataloader`). A sampler returned beside
the loader (`return dataloader, len(dataset), train_sampler`) is followed the same way:
`train_sampler.set_epoch(epoch)` in the caller counts, and any other use of it there silences.

The sampler may come from a project factory (`sampler=data_sampler(dataset, shuffle=True,
distributed=args.distributed)` whose body returns `DistributedSampler(dataset, shuffle=shuffle)`
when distributed): its `shuffle` and `seed` are read with the factory's parameters bound to the
call, and any `set_epoch` on the sampler or the loader silences it (the factory's conditions are
not compared). The factory may be in another module, called through it
(`dist.data_sampler(...)` with `import distributed as dist`), and return another sampler on
other paths. The function the loader is handed to may wrap it in a progress bar on some path
(`if dist.is_primary(): loader = tqdm(loader)`, then `loader.set_description(...)`): the bar
iterates the loader, and its own methods (`set_description`, `set_postfix`, `update`, ...) do
not touch the sampler. The epoch loop may live in an endless generator the loader is handed to and
rebound to (`loader = sample_data(loader)`, `def sample_data(loader): while True: for batch in
loader: yield batch`, then `next(loader)` per training step): the generator's `while True` runs
the iteration again. It stays silent when the generator is taken from only outside loops, and a
`set_epoch` inside the generator counts.

A loader kept on an object is followed in the class that keeps it: handed to the constructor
of a module-level class of the project (`trainer = Trainer(model, train_loader, ...)`, in any
module) whose `__init__` only stores that parameter as one attribute (`self.train_loader =
train_loader`), built in a method of the class as an attribute (`self.train_loader =
DataLoader(ds, sampler=DistributedSampler(ds))`), or returned by a method of the class (its only
`return`, `return DataLoader(...)` or `return loader`) whose every call in the class is
`self.train_loader = self._prepare_dataloader(ds)` outside loops (minGPT-ddp's Trainer). Every method of the class is read: `for batch
in self.train_loader` (directly, through `enumerate`/`tqdm`, or in a method the loader is handed
to, `self._run_epoch(epoch, self.train_loader)`) in an epoch loop there, or in a method that
runs it once per call and is called in an epoch loop of another method (`for epoch in
range(self.epochs): self._run_epoch(epoch)`, two calls deep), is the loader's epoch; and
`self.train_loader.sampler.set_epoch(epoch)` anywhere in the class counts. It is silent when
the class has a base class (its methods are not read) or a subclass in its module (which may
override the method that iterates), when the class calls `set_epoch` on anything else (a
sampler kept as another attribute), when the object itself is handed anywhere
(`callback.on_epoch_start(self)`: a hook may call set_epoch), when an attribute of that name
is read or assigned anywhere in the module other than as a class's own `self.<attr>`
(`trainer.train_loader = other`, `trainer.train_loader.sampler.set_epoch(epoch)`) or its name
is written as a string (`getattr`, `setattr`), or when the caller uses the object other than by
calling its methods (`run(trainer)`). Subclasses are not searched.
A class that only holds a loader (the BTS lineage's `BtsDataLoader`, a `NyuLoader` whose
`__init__` keeps `self.data = DataLoader(...)`) is followed to its objects, in its module and in
every module that imports it: `train_loader = NyuLoader(args, "train").data` binds the loader to
a name read as above, and an object bound once (`dataloader = BtsDataLoader(args, "train")`)
has its `dataloader.data` read as the loader, its methods called as the class's own, and
`dataloader.train_sampler.set_epoch(epoch)` counted. Each object keeps a loader of its own: one
iterated per epoch without set_epoch is reported whatever the others do (a test-mode object
named `test_loader` is an evaluation). It is silent when an object is handed on, returned,
stored, built in a loop (a new loader per pass), read for another attribute, when its class is
built in more than 16 places or in more modules than are read, and when a module holding an
object calls `set_epoch` on anything not followed (`sampler = dataloader.train_sampler` then
`sampler.set_epoch(epoch)`). A store of the same attribute on the other arm of an `if` in the
same method (`self.data = DataLoader(test_set, ...)` for the test mode) is that arm's loader, not
a rebinding of this one. The sampler may be kept on the object too (`self.train_sampler =
DistributedSampler(dataset)`, then `sampler=self.train_sampler`), stored once by the class
(an `if`/`else` expression gives its paths, as for a name), or in the arms of one `if` of one
method (`if args.distributed: self.train_sampler = DistributedSampler(ds)` / `else:
self.train_sampler = None`): it is judged only when nothing in
the module calls or names `set_epoch` (a call on the kept sampler is not followed) and no
other object's attribute of that name is read or stored in the module, nor named by a string.
A name bound to the loader, or to a progress bar or `enumerate` over it, in every one of its
bindings (at most four: `if args.rank == 0: t_loader = tqdm(train_loader)` / `else: t_loader =
train_loader`, then `for batch in t_loader`) is read as the loader; a name that holds something
else on any binding is not followed (silent).

It fires only when all of this is visible. It is silent when the loader or its sampler goes
anywhere it cannot follow: handed to a library or to something that is not a project function,
returned where the callers cannot be read, stored on an object other than as above, wrapped or aliased. That includes the
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
        here = os.path.abspath(call.path)
        loop_path = os.path.abspath(epoch.path) if epoch.path else here
        loop = f"line {epoch.epoch_row}" if loop_path == here else "in another module"
        if facts.returned and loop_path != here:
            loop = f"line {epoch.epoch_row} of the caller's module, cited"
        through = f" through {epoch.through}()" if epoch.through else ""
        seed = f"seed {sampler.seed}" if sampler.seed is not None else "seed 0"
        returned = f", which {facts.returned}() returns," if facts.returned else ""
        if facts.kept:
            cls, attribute = facts.kept.split(".", 1)
            into = f"which {facts.returned}() returns into" if facts.returned else "kept as"
            returned = f", {into} self.{attribute} of {cls},"
        caller = " by a caller" if facts.returned else ""
        related = [Related(here, sampler.row, 1, "the DistributedSampler"), Related(loop_path, epoch.epoch_row, 1, "the epoch loop")]
        if facts.rebuilt:
            message = "a shuffling DistributedSampler is rebuilt on every pass with one seed: every pass has the same order."
            detail = (
                f"A new DistributedSampler (line {sampler.row}) with {seed} is built on every pass of the loop ({loop}) "
                "over the same dataset. Each new DistributedSampler starts at epoch 0, and its shuffle is seeded "
                "seed + epoch, so every pass draws the same permutation (checked with torch 2.13). Build the sampler "
                "and the loader once, before the loop, and call sampler.set_epoch(epoch) at the start of each pass "
                "(or pass seed=base_seed + epoch)."
            )
        elif facts.narrow is not None:
            row, condition = facts.narrow
            message = "set_epoch runs on a narrower condition than the shuffling sampler: other paths repeat one order."
            detail = (
                f"The DistributedSampler (line {sampler.row}) shuffles, but set_epoch (line {row}) runs only when "
                f"`{condition}`: otherwise this loader is iterated{through} in the epoch loop ({loop}) with the same "
                "order every epoch. The sampler is built, and the loader iterated, on paths where that condition "
                "does not hold; there epoch stays 0 and each rank gets the same permutation every epoch. Call "
                "sampler.set_epoch(epoch) under the same condition as the sampler is built (or unconditionally)."
            )
            related.append(Related(here, row, 1, "set_epoch, on a narrower condition"))
        else:
            message = "a shuffling DistributedSampler is never given set_epoch: every epoch visits the data in the same order."
            if facts.returned:  # reported at a caller's call too, after ``factory(): ``: kept shorter
                message = "a shuffling DistributedSampler is never given set_epoch: every epoch has the same order."
            detail = (
                f"The DistributedSampler (line {sampler.row}) shuffles, and this loader{returned} is iterated{through}{caller} in the "
                f"epoch loop ({loop}), which never calls set_epoch. "
                "DistributedSampler seeds its shuffle with seed + epoch, and epoch stays 0 until set_epoch is called, so "
                "each rank gets the same permutation every epoch. Call sampler.set_epoch(epoch) at the start of each "
                "epoch, before iterating the loader (or hand the loader to a trainer that does: Lightning, accelerate)."
            )
        yield self.finding(call, None, message, detail=detail, related=tuple(related))


RULE = DistributedSamplerWithoutSetEpoch()
