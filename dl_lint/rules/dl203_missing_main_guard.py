import os

from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule, call_scenarios, certainty, core_count, fires, has_workers, value_of, workers_with_cuda


# The related location of a finding the interpretation of a script made (``import_flow``):
# ``judge.drop_covered_flows`` tells such findings by it.
REACHED_FROM = "top-level code outside the main guard reaches the loader"


class MissingMainGuard(Rule):
    code = "DL203"
    name = "missing-main-guard"
    severity = Severity.WARNING
    summary = "A script iterates a loader with workers outside `if __name__ == \"__main__\":`."
    references = (
        "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
        "https://docs.python.org/3.14/whatsnew/3.14.html (Incompatible changes: forkserver by default on POSIX but macOS)",
        "https://pytorch.org/docs/stable/data.html#platform-specific-behaviors",
    )
    doc = """
## What it does
Reports a DataLoader with workers that a script iterates at module level, or inside a function
that module-level code calls, outside `if __name__ == "__main__":` (or a test spelled otherwise
that is false where a worker imports the script as `__mp_main__`: `"__main__" in __name__`,
`__name__ in ("__main__",)`; `"main" in __name__` holds there too and guards nothing). Calls are followed within
the module, four deep: module level calls `main()`, which calls `train()`, which builds the loader
and passes it to `run_epoch(loader)`, which loops over it (the loader may also be built in place
as the argument, `run_epoch(DataLoader(...))` or `trainer.fit(model, DataLoader(...))`; also
through a transparent wrapper it binds once to a name, `train_bar = tqdm(loader)` or `total, train_bar = 0.0, tqdm(loader)`, then
`for batch in train_bar`, or once in each arm of one `if`, `data = itertools.chain(train_loader,
val_loader)` / `data = itertools.chain(train_loader)`: `chain` walks its first argument first); or a module-level loader is looped over
(through its global name) in a function an unguarded module-level epoch loop calls, also through
a local name bound to it, bare or in a transparent wrapper, once or once in each arm of one `if`
(`if training: t = tqdm(train_loader)` / `else: t = tqdm(test_loader)`, then `for batch in t`:
each loader is iterated on its path). Methods of a
module-level class count as such functions when called on a module-level instance of it
(`model = Net(...).to(device)`; `model.inference(...)` looping over a global `subgraph_loader`,
or over the loader handed to it, from `test()` in the epoch loop), on an object constructed in
the call itself (`Trainer(args).fit()`), or on `self` from another such method. A loader a
method keeps on the object (`self.loader = DataLoader(...)`, stored once by the class and by
nothing else in the module, no string naming it) is iterated wherever a method of the class that
loops over `self.loader` (or calls `iter(self.loader)`) runs, also `__init__` itself, which a
construction `Feeder(data)` in unguarded module-level code runs (a class of the same module).
A loader handed in a list or tuple display to a function of the module that loops over that
parameter and iterates each element (`evaluate(model, [val_loader, test_loader])` with `for
loader in loaders: for batch in loader`) is iterated where that call runs. The function may be
in another module of the project (`from engine import train_one_epoch`, `engine.evaluate(...)`),
or be a class there whose `__init__` iterates what it is given (`Prefetcher(loader)` calling
`iter(loader)`): when the call can run at import, that module's function is read the same way
and cited as related location, including what it hands the loader on to, in its own module or
another (`prune.prune_prototypes(dataloader=loader)` calling
`find_nearest.find_k_nearest_patches_to_prototypes(dataloader=dataloader)`, which loops over it).
A loader held in a dict is read by its literal key: the value at a key of a module-level display
(`loaders = {"train": DataLoader(...), "val": ...}`, the dict never stored into at that key
again) is iterated where `loaders["train"]` is looped over or handed to a function that loops
over it, also as `loaders[phase]` in `for phase in ["train", "val"]:`; so is the value at a key of a dict display a factory returns in a tuple
(swa_gaussian's `data.loaders(...)`: `return {"train": DataLoader(...), ...}, num_classes`,
unpacked as `loaders, num_classes = data.loaders(...)`), a `return` written before the loader
(`if dataset == "CamVid": return camvid_loaders(...)`) being on other paths. So is a loader's
name put at a literal key of a dict display bound once in the same scope (`dataloaders =
{"train": train_loader, "val": val_loader}`), and a key is also read as the variable of a loop
around the read over a literal list of keys (`for phase in ["train", "val"]: loader =
dataloaders[phase]`: the loader of each key in the list). Such a dict of the module read in a
function runs at import only where unguarded module-level code calls that function: a
`train()` called under the main guard is silent. A name bound once
to the value at a key (`train_loader = loaders["train"]`) is that loader wherever it is iterated
or handed on. A factory imported under another name (`from data import loaders as
make_loaders`) is called where the alias is called.
A loader handed to a Lightning Trainer's `fit`, `validate`, `test` or `predict` (after the model,
or as `train_dataloaders=`, `val_dataloaders=`, `dataloaders=` and the 1.x names) is iterated
where that call runs: the Trainer iterates it before returning (Lightning 2.6.2 trainer.py). The
receiver must be a Trainer: `L.Trainer(...)`, `pl.Trainer(...)`, or
`pl.Trainer.from_argparse_args(args)` (pytorch_lightning up to 1.9); a project object with a
`fit` method is read as any other project code. A stage given no loaders takes them from the
hooks: the datamodule's (`trainer.fit(model, datamodule=dm)`, when its class defines the hook)
else the model's: `fit` iterates what `train_dataloader()` returns, and what `val_dataloader()`
returns when the model's class (of the project) overrides `validation_step`; `validate`,
`test`, `predict` their hooks likewise (Lightning 2.6.6 `data_connector.py`,
`evaluation_loop.py`). A hook may return a collection: every loader of a returned list, tuple
or dict display is iterated (Lightning wraps it in a `CombinedLoader`), and so is every loader a
`CombinedLoader(...)` holds wherever that object is iterated (its modes call `iter()` on each
iterable: `fit_loop.py`, `combined_loader.py`). These are followed from the script's top-level code through the
interpretation below (held-out set 29's flare-prediction-smarp shape), as is `LightningCLI(Model,
DataModule)` built at module level (without `run=False`, and without `parser_kwargs`, whose
`default_config_files` would set every run's init args): it builds both from their classes'
defaults and runs the subcommand, read as `fit` (set 29's CoMER).
A module-level function handed to a library call that runs it before returning is called where
that call runs: `study.optimize(objective, n_trials=100)` on a study from `optuna.create_study`
or `optuna.load_study` (optuna 5.1.0 runs `objective(trial)` in the calling thread, or in
threads of this process with `n_jobs` > 1), so the loaders `objective` iterates are iterated at
import when that line is unguarded. So is a class of another module that keeps the loader it is
given (`self.loader = loader` in `__init__`, its only store of that attribute) and has a method
that loops over it, when that method is called on the new object where the loader is
(`trainer = Trainer(model, loader)` then `trainer.fit()`, or `Trainer(model, loader).fit()`). A
parameter the function rebinds to anything but a wrapper of itself (`loaders =
ensure_tuple(loaders)`) is not followed. A function iterates its parameter also when it binds a
generator of the project over it to a name, on every path, and takes from it (`data =
cycle(dataloader)` then `next(data)` in the step loop, DeepCAD's trainers, `cycle` in any module:
`def cycle(iterable): while True: for x in iterable: yield x`): the first value taken runs the
generator's loop over the loader. A module-level dict or list of loaders built by one call in a
comprehension (`dataloaders = {x: DataLoader(...) for x in ["train", "val"]}`, torch's
transfer-learning tutorial), bound once and never stored into, is iterated where an element is
(`for inputs, labels in dataloaders[phase]` at module level or in a function module-level code
calls); a loop over the container itself walks its keys, not a loader. So is a loader stored
at a literal key of a module-level dict (`dataloaders = {}`, then `dataloaders["training"] =
DataLoader(...)` at module level) where that key is stored once, every store has a literal key
and the dict is never used whole: the loops over `dataloaders["training"]` (also through a name
bound to a wrapper of it, `data_iterator = tqdm(dataloaders["training"])`) iterate it. A loader a function returns is the loader of each call of that function
(`train_loader = get_loader(...)` at module level, looped in `train()`), and so is the name a
returned tuple is unpacked to at the loader's position (`return train_loader, val_loader`, then
`train, val = get_loaders(...)`; every return a tuple of that length); at a call of a factory
whose loader depends on its arguments, possibly in another module, the call's own iteration
decides. So it does at a call of a function or method of another module that builds a loader
from nothing of the call's (literal options, values on `self`), with workers on every path, and
iterates or returns it: `runner.train_test()` at module level of a script, where
`Runner.train_test` builds `DataLoader(self.train_set, num_workers=16)` and loops over it. A name
bound to the loader's name (`dataset = data_loader`, then `for batch in dataset:`) is the loader
too. A loader a method keeps on its object (`self.dataloader = DataLoader(...)` in
`initialize(self, opt)`) and hands out by a getter (`def load_data(self): return
self.dataloader`, or `return self` with an `__iter__` looping over it) is followed from the
object: `data_loader.initialize(opt)` on an instance, or a builder function of any module that
makes the object, calls that method with its own parameters and returns it (pix2pixHD's
`data_loader = CreateDataLoader(opt)`), then `dataset = data_loader.load_data()` and a
module-level loop over `dataset`, or a loop over the getter's result where it is called (`for
i, data in enumerate(data_loader.load_data()):`). A class that builds the loader when it is constructed
(`self.data_loader = DataLoader(...)` in `__init__`, or a local `data_loader = DataLoader(...)`
handed to a second object it keeps) is followed from each construction `Holder(...)`, in any
module, and from a builder function that constructs one and returns it (`data_loader = None`
first is fine: CGIntrinsics' `CreateDataLoaderRender(root, list_dir)`); its getters may also
return a second object built from the loader whose `__iter__` calls `iter()` on it or loops over
it (`self.paired_data = PairedData(self.data_loader, root)`, `return self.paired_data`). A loop over a conditional expression walks both of its loaders (`for batch in (dl if
use_wds else distr_dl):` iterates `dl` on the runs where `use_wds` holds), and a library loader
read as torch's (webdataset's `WebLoader`) counts like a DataLoader. A call that takes the
iterator when it is called iterates the loader on its line, although nothing walks its result
there: `enumerate`, `zip`, `iter`, `map`, `filter`, `list`, `sorted`, `sum`, ..., itertools'
`islice`, `cycle`, `zip_longest`, ..., and a comprehension or generator expression over it
(CPython calls `iter()` in their constructors), so `data_gen = enumerate(data_loader)` at module
level starts the workers. So does a list holding the loader unpacked into such a call
(`loaders.append(loader)`, then `zip(*loaders)`; a list of progress bars when the `zip` is
walked). `itertools.chain(...)` and `tqdm(...)` call `iter()` only when they are iterated
themselves: a wrapper of theirs never walked at import is not an iteration. A loop over
progressbar2's `progressbar(loader, max_value=len(loader))` is a loop over the loader (STCN's
eval scripts).
Beyond these shapes, a loader built in a function, with workers on every path, is followed
from the top-level code of its own module and, unless that module is a script (a main guard of
its own) or a test module (pytest imports it, no script does), of the modules importing it, or
importing one of those (`analysis/import_flow.py`): the code that top-level code runs outside the main guard
(functions, classes and their methods on the objects built there, in any module of the
project) is read once per script, and the object each outside call builds is tracked through
names, returns, tuples and lists (by position when unpacked; `append`, `add`, `insert`,
`extend` put it among a list's elements), `zip`, `enumerate`, `list`, `sorted` (their elements,
`for a, b in zip(trains, tests)`), dicts (by constant key, also a
constant of another module such as `TRAIN_LOADER`; `dict(train=...)`, and what `.items()`,
`.values()`, `.get(key)`, `.pop(key)` give back), list, set and dict comprehensions (the
loaders their one element expression builds: `{x: DataLoader(...) for x in ["train", "val"]}`,
keyed by the phases, any subscript reading them; not a generator expression, whose elements
exist only once iterated), `**dict` spreads into parameters,
attributes of objects and parameters (a function of the project handed by name is called where
the parameter is: `Trainer(net, loading_data)` with `self.train_loader, self.val_loader =
dataloader()` in `Trainer.__init__`), to the loops, comprehensions, iterating builtins and
Lightning Trainer calls that take it (torch-nilm: a script's `experiment.run_benchmark(...)`
reaches a method that builds the loaders, returns them in a tuple, puts them in a dict of
keyword arguments and calls `train_eval(**args)` in a third module, whose
`trainer.fit(model, train_loader, val_loader)` iterates them; ShuttleNet: `prepare_dataset`
appends its loaders to lists it returns in a tuple, the script zips them and hands each to a
trainer of a third module). The diagnostic cites the script's line and the iteration; when the
function that builds the loader takes values from its parameters and the script's top-level
code calls it once, it is reported at that call instead (with two calls, which one's loaders
are iterated is not told apart: silent). A function reads one environment for all its calls, so a loader handed
to a function that iterates that parameter for some caller counts as iterated; what the
interpretation cannot resolve (a local callable, a library call other than the iterating ones,
more than 24 candidate scripts, 400 functions, or no fixed point within 40 passes) is not
followed. It stays silent when the
call is under the main guard, when the module has no unguarded top-level call, in notebooks and
in `.py` files written as cells (two or more `# %%` lines: jupytext's percent format, VS Code's
interactive cells; they run in a kernel), and for loaders without workers on some path, with one
exception: workers on every path where CUDA is in use. pytorch/examples' idiom `kwargs =
{"num_workers": 1, "pin_memory": True} if args.cuda else {}` gives the loader workers on every
machine with CUDA, and those machines include Windows and Linux from Python 3.14; so it is
reported, as a warning even where spawn is certain, naming the condition. A path without
workers counts as one without CUDA when its condition says so by name: `not args.cuda`, `not
use_gpu`, `not torch.cuda.is_available()`, `args.no_cuda`, `use_cpu`, `device == "cpu"`,
`device.type != "cuda"`. Any other path without workers keeps the rule silent. Workers that are the
machine's core count (`num_workers=os.cpu_count()`, `multiprocessing.cpu_count()`,
`len(os.sched_getaffinity(0))`, `min(8, os.cpu_count())`, `max(1, os.cpu_count() - 2)`: at least
1 on every machine) are workers, and so is arithmetic on the core count whose lower bound is 1 or
more (`os.cpu_count() // 2 + 1`, `2 * os.cpu_count() - 1`, `max(cpu_count() - 4, cpu_count() //
2 + 1)`: `+`, `-` of a known number, `//` and `*` by a positive one, `min`, `max`);
`os.cpu_count() - 2` or `// 2`, which may be 0 on a small machine, keep it silent.

It is an **error** when the failure is certain: the call passes `multiprocessing_context="spawn"`
(or `"forkserver"`), the script or a module it imports calls `set_start_method("spawn")` /
`get_context("spawn")` (or forkserver), or no Python the project runs on defaults to fork: every
Python it allows is 3.14 or later (`requires-python` in pyproject.toml, or the `target-python`
setting), or its `Operating System ::` classifiers name only macOS and Windows, and the program
does not ask for fork itself. The message names the line that makes it certain, and the
diagnostic cites it as related location. Spawn asked for only in a module importing this one
keeps the warning, citing it; for a loader judged at a call of its factory, that is the calling
module's own request (another importer of the factory's module is another program). A
`__main__.py` stays a warning (`python -m package` does not
re-import it in the workers).

## Why is this bad?
Under the spawn and forkserver start methods (macOS, Windows, Linux from Python 3.14) each worker
starts a fresh interpreter that imports the main script. Without the guard, that import runs the
training loop again, which tries to start workers during bootstrapping:
`RuntimeError: An attempt has been made to start a new process before the current process has
finished its bootstrapping phase`, then `DataLoader worker (pid(s) ...) exited unexpectedly`.

## Example
```python
loader = DataLoader(ds, num_workers=4)
for batch in loader:
    train(batch)
```

## Use instead
```python
def main():
    loader = DataLoader(ds, num_workers=4)
    for batch in loader:
        train(batch)

if __name__ == "__main__":
    main()
```

## Start methods
CPython's defaults: Windows has only spawn; macOS defaults to spawn from Python 3.8 (bpo-33725);
other platforms default to fork up to Python 3.13 and to forkserver from Python 3.14 ("What's
new in Python 3.14", Incompatible changes). Under forkserver, as under spawn, each worker runs
the main script again as `__mp_main__` before it starts (proven with torch 2.13 in
tests/test_spawn.py: the script fails with the bootstrapping error under both).

## Torch versions
All versions; it breaks wherever the start method is spawn or forkserver.
"""

    def check_call(self, call, ctx):
        if ctx.in_cells or call.unguarded_iteration is None:
            return
        cuda = None
        found = fires(call, ("num_workers",), has_workers, positive=True)
        if not found:
            cuda = workers_with_cuda(call)
            if cuda is None:
                return
        certain, why, detail, related = self._certain(call, ctx)
        if cuda:  # a machine without CUDA starts no workers: never certain
            certain = False
            when = " and ".join(f"`{c}`" for c in cuda)
            detail = (
                f"It has workers when {when} holds, and none otherwise: on every machine with CUDA. " + detail
            )
        if why:
            detail = f"{why[0].upper()}{why[1:]}. {detail}"
        detail = core_count(found or ()) + detail
        through = ""
        elsewhere = call.extra.get("iterated_elsewhere", ())
        if elsewhere:
            names = ", ".join(f"`{name}()`" for _, _, name in elsewhere)
            through = f", through {names} of another module, which iterates the loader"
            related = tuple(related) + tuple(
                Related(os.path.abspath(path), row, 1, f"`{name}()` iterates the loader")
                for path, row, name in elsewhere
            )
        chain = call.extra.get("import_chain")
        where = f"line {call.unguarded_iteration}{through}"
        if chain:
            (root, root_line), (sink, sink_line) = chain
            if os.path.abspath(root) == os.path.abspath(call.path):
                where = f"line {root_line} runs the code that iterates it; both are cited"
            else:
                where = "a script importing this module runs, outside its main guard, the code that iterates it; both are cited"
            related = tuple(related) + (
                Related(os.path.abspath(root), root_line, 1, REACHED_FROM),
                Related(os.path.abspath(sink), sink_line, 1, "the loader is iterated here"),
            )
        yield self.finding(
            call,
            None,
            "loader iterated at import, outside `if __name__ == \"__main__\":`: spawn/forkserver workers fail"
            + (" (with CUDA)." if cuda else "."),
            severity=Severity.ERROR if certain else None,
            detail=f"The loader starts worker processes and module-level code iterates it ({where}); "
            "each worker re-imports the script and runs that code again. "
            + detail
            + "Spawn and forkserver are the start methods on macOS, Windows and Linux from Python 3.14; "
            "the error is \"RuntimeError: An attempt has been made to start a new process before the current "
            "process has finished its bootstrapping phase\". Move the loop into a function called under "
            "`if __name__ == \"__main__\":`.",
            related=related,
        )

    def _certain(self, call, ctx):
        """(certain, why, detail, related): the call or the program asks for spawn/forkserver, or
        the target has no fork; what says so is cited."""
        if os.path.basename(call.path) == "__main__.py":
            return False, "", "", ()
        found = call_scenarios(call, "multiprocessing_context")
        if not found:
            return False, "", "", ()
        contexts = [value_of(s, "multiprocessing_context") for s in found]
        certain = certainty(call, ctx, contexts)
        if certain.source == "call":
            return True, f"with multiprocessing_context={certain.where} its workers start", "", certain.related
        if certain.source == "program":
            return True, f"its workers start with spawn/forkserver ({certain.where})", "", certain.related
        if certain.target is not None:
            target = certain.target
            return True, f"on {target.why} workers start with {target.methods}", target.detail + " ", certain.related
        if certain.source == "importer":
            chain = call.extra.get("import_chain")
            if chain:  # the script that runs it is the entry point: another importer is not cited
                root = os.path.abspath(chain[0][0])
                related = tuple(r for r in certain.related if os.path.abspath(r.path) == root)
                return False, certain.why if related else "", "", related
            return False, certain.why, "", certain.related
        return False, "", "", ()


RULE = MissingMainGuard()
