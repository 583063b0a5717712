import os

from dl_lint.analysis.values import FunctionRef, Instance, Opaque, given_mark, left_out, takes_path
from dl_lint.model import Related, Severity
from dl_lint.rules.base import MESSAGE_LIMIT, Rule, call_scenarios, certainty, core_count, every, has_workers, no_workers, value_of


class UnpicklableWorkerCallable(Rule):
    code = "DL202"
    name = "unpicklable-worker-callable"
    severity = Severity.WARNING
    summary = "A lambda, nested function or local class given to workers: pickling fails under spawn/forkserver."
    torch_raises = ((AttributeError, TypeError, Exception), "Can't pickle|Can't get local object|cannot pickle|pickle")
    references = (
        "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
        "https://docs.python.org/3.14/whatsnew/3.14.html (Incompatible changes: forkserver by default on POSIX but macOS)",
        "https://pytorch.org/docs/stable/data.html#platform-specific-behaviors",
    )
    doc = """
## What it does
Reports a lambda, a function defined inside another function, or an instance of a class defined
inside a function, passed as `collate_fn`, `worker_init_fn` or `dataset` to a DataLoader with
workers; and an object passed there that keeps one (the workers receive the dataset pickled
with everything it holds): a project dataset whose `__init__` stores a lambda or a function it
defines (`self.transform = transforms.Lambda(lambda x: x / 255)`, `self.scale = scale` of a
nested `def scale`, `self.index = defaultdict(lambda: [])`), one built with such a callable for
a parameter its `__init__` keeps on self (`MyDataset(root, transform=t)` with `t =
transforms.Compose([transforms.Lambda(lambda x: x)])`, or with an object of a project class
that keeps one by itself, as the next sentences read what a dataset keeps: camera_identification's
`CameraDataset(files, Augmentator())`, whose `__init__` fills `self._manip_list` with lambdas by
`self._manip_list.append(lambda img: ...)` statements of its own body), or such a transform
itself. A loader built in a dict or list comprehension over a literal list of strings (PyTorch's
transfer-learning tutorial: `{x: DataLoader(image_datasets[x], ...) for x in ["train", "val"]}`)
is one loader per element, each judged with its own arguments: reported when one element's
dataset keeps a lambda (the "val" transform's `transforms.Lambda`), and the detail names it. A parameter
a class passes on to its base's `__init__` is kept when the base keeps it (by keyword, by
position, or through `**kwargs`; a class without `__init__` keeps what its base keeps). So is
a lambda a class's `__init__` hands its base for a parameter the base keeps:
`super().__init__(root, target_transform=lambda x: x - 1)`, or a local name that is a lambda on
every path to that call (`if target_transform is None: target_transform = lambda x: x[index]` /
`else: target_transform = lambda x: ...`, also handed on under a second name: `map_fn_ =
parse_fn`); a lambda on one path only, or a name rebound to something else first, is not read
there. The same local names count when a statement of `__init__`'s own body keeps one on self
(`scale = lambda x: 2 * x`, then `self.scale = scale`). A dataset class picked from a module of the project by
name (`datasets.__dict__[args.data]`, `getattr(datasets, name)`) is each class the name's
possible values (an argparse default, a literal, a config value) denote, and a class a factory
of another module defines inside itself and returns (`partial(dataset_class, kept)` returning
`class PartialDataset(dataset_class)`), or hands on what such a function of its module returns
(`default_partial(cls)` returning `partial(cls, kept)`), is a local class: its instances cannot be
pickled. A name unpacked from a tuple a builder returns (`train, val, n, args.classes =
utils.get_dataset(...)`, in the module or another) is what every `return` the call can take
builds at that place, with the call's arguments bound. That place may hold a table of
datasets (`data, meta = get_dataset(**config.data)`, returning `Box({"train": train_set, ...}),
{}`: a dict display, bare or in an attribute dict that hands back each object as given, `Box`,
`EasyDict`, `munchify`/`Munch`, `addict.Dict`, `ConfigDict`); `data["train"]` is the dataset at
that key in every table a `return` the call can take gives. A `**mapping` the call spreads
leaves each parameter it does not name unknown (its default too), so every branch counts, and
the rule reports only when the dataset at that key keeps a lambda in each of them. So is
what a function of another module returns when every `return` builds an instance of a class it
defines (`return ReidDataset(dataset, root, transform)`), unless that class defines
`__reduce__`/`__reduce_ex__`. An instance of a local class inside a transform a dataset keeps
counts like a lambda there (`T.Compose([T.ToTensor()])` where the module writes `ToTensor =
wrapper(T.ToTensor)` and `wrapper` returns a class it defines).
An attribute the script writes on the dataset after building it is kept like one `__init__`
sets: `dataset.target_transform = remap` with `remap = lambda y: mapping[y]` (or a lambda written
there, a local function, a `Compose` holding `T.Lambda(lambda ...)`), between the dataset's
assignment and the loader, in the same function, on every path to the loader (not under an `if`
the loader is not under, not in a loop), and the last write of that attribute in the function
(a later one may replace it before the workers start). Read for an instance of a project class,
a torch dataset wrapper (`Subset`, `ConcatDataset`, ...) and a torchvision dataset; a wrapper
built from such a dataset keeps it (`Subset(dataset, indices)`). A factory of another module that
does the same before handing the dataset back (`dataset = Items(root)`, `dataset.target_transform
= lambda y: y - 1`, `return dataset`) builds a dataset that keeps it: the write a statement of the
factory's own body (not under an `if`, a loop or a `try`), after every assignment of the name and
before every `return`, storing a lambda, a function the factory defines or a local name bound
only to lambdas; any other use of the name there (another write, a call given it) leaves the
factory's result unknown.
A method of a project class that defines the callable and hands it back (`def
get_collate_fn(self): def _collate(samples): ...; return _collate`, every `return` so) gives it
to its callers: `collate_fn=self.get_collate_fn()` in another method of the class, or
`dataset.get_collate_fn()` on an instance; for `self`, not when a class of the module derives from
it and defines the method again (`self` may be that subclass's instance).
A torch `DataLoader` keeps its `dataset`, `collate_fn` and `worker_init_fn` (read in torch
2.13's `dataloader.py`; it defines no `__getstate__`, only its iterators do), so a dataset that
keeps a loader built with a lambda `collate_fn` (`self.loader = loader`) pickles the lambda.
torchvision's datasets keep theirs (read in torchvision 0.28.0's source, every class of
`torchvision.datasets`: `VisionDataset.__init__` stores `transform`, `target_transform` and
`transforms`, `DatasetFolder` also `loader`): `datasets.ImageFolder(root, transform=t)`,
`ImageFolder(root, t)`, `CIFAR10(root, True, t)`, and a project `class
ImageFolderWithPaths(datasets.ImageFolder)` without `__init__`, or whose `__init__` forwards
the transform to `super().__init__(root, transform=transform)`, built with `t`. A subclass that
sets `self.transform` (or `self.transforms`) itself is not judged by its base's. Holders
followed: torchvision's `Lambda`, `Compose`, `RandomApply`, `RandomChoice`, `RandomOrder` (they
keep their arguments as attributes), albumentations' `Lambda` (its `image`/`mask`/`keypoints`/
`bboxes` functions) and compositions (`Compose`, `OneOf`, `SomeOf`, `Sequential`, ...; read in
albumentations 2.0.8, which itself warns that a lambda "is incompatible with multiprocessing"),
`collections.defaultdict` and `functools.partial` (it
pickles the function it wraps and its arguments: `partial(lambda b, pad: ..., pad=0)` fails like
the lambda). A list a holder (or a project class that keeps the argument) is given by name is
read through its display and what `append`/`extend` add to it in the same block before the
use (`steps = [T.ToTensor()]`, `steps.append(T.Lambda(lambda x: x.flatten()))`,
`T.Compose(steps)`, also written inside the dataset's call: `Digits(transform=T.Compose(steps))`);
an add under an `if` or in a loop does not count, and a list handed to any other call, or changed by `pop`, `remove`, a subscript write, is not
followed (silent). A class made at run time in a function (`collections.namedtuple(...)`,
`typing.NamedTuple(...)`, `dataclasses.make_dataclass(...)`) is a local class: pickle looks it
up by name in its module and does not find it (`PicklingError: ... attribute lookup HParams on
__main__ failed`, proven under forkserver), so a dataset keeping an instance of it fails too. A
transform read out of a dict (`data_transforms["train"]`, or
`data_transforms[x]` in a dict comprehension over `["train", "val"]`, every transform it may be
keeping one) or a conditional expression counts as what it resolves to, when certain (an
attribute, `cfg.transform`, is not read there). The objects a dataset
builds in its `__init__` and keeps are pickled with it: `self.extractor = Extractor(size=224)`
(a project class, in this module or another, also through an alias `Extractor =
ExtractorCV2`) whose `__init__` keeps a lambda, directly or as what a method returns
(`self.transform = self._transform(size)` where every `return` of `_transform` builds
`Compose([..., lambda image: image.convert("RGB"), ...])`), three objects deep. An object
or a method's result counts when its assignment is a statement of `__init__`'s own body (not
under an `if`, a loop or a `try`) and the only one of that attribute there; a method a subclass overrides counts as
the subclass's; a class that defines `__getstate__`, `__reduce__` or `__reduce_ex__` decides
itself what is pickled (silent). A transform object that keeps what a module-level helper
returns counts when every `return` of the helper holds a lambda or a function it defines
(`self._transform = _build_transform(size)` returning `T.Compose([..., T.Lambda(lambda img:
...)])` or a nested `def transform`), and a dataset built by a factory of another module is
each class it may build (`dataset = VQADataset(...)` on one branch, `CaptionDataset(...)` on
another, then `return dataset`): every one must keep such a callable. A helper of another
module whose every `return` builds one of the transform holders above is read there, with the
call's arguments bound: `preprocessing=data.get_preprocessing()` returning `albu.Compose(steps)`
with `steps = [albu.Lambda(image=to_tensor)]` and a nested `def to_tensor` (the
segmentation_models_pytorch tutorial's shape) is kept like that `Compose` written at the call;
a module-level `to_tensor` (or smp's `get_preprocessing_fn`, a `functools.partial` of a
module-level function) pickles. A subclass's own
`__init__` replaces its base's: what the base's `__init__` keeps (lambdas, objects, helper
results) counts only when the subclass's `__init__` calls it as a statement of its own body
(`super().__init__(...)`, `Base.__init__(self, ...)`); a subclass that never calls it never gets
those attributes, and one that calls it only under an `if` is not judged by them.
A lambda kept on one path only (another assignment of the same attribute in `__init__` keeps
something else: `if size: self.pre = Compose(...)` / `else: self.pre = lambda **kw: kw`) does
not count, unless that path is the one an argument left None takes: `if raw_sample_filter is
None: self.raw_sample_filter = lambda raw_sample: True` / `else: self.raw_sample_filter =
raw_sample_filter` (fastMRI's `SliceDataset`), `self.f = f or (lambda x: x)`, `self.f = f if f
is not None else lambda x: x` (also `not f`, `f == None` and the mirrored tests), or the
parameter itself rebound there and then kept (`if transform is None: transform = lambda x: x`,
its only assignment, then `self.transform = transform`), where the
parameter's default is `None`, the statement is one of `__init__`'s own body (no `return` in
`__init__`) and the other path keeps the argument or sets nothing. A construction that does not
give that argument, or gives the literal `None`, keeps the lambda; one that gives anything else
(a name is not resolved there, even one bound to `None`), or may (`*args`, `**kwargs`), stays
silent. So does the path a flag selects: `if augment: self.transform = ImgAugTransform()` /
`else: self.transform = lambda i: i` (age-estimation-pytorch's `FaceDataset`; also `if not
train:` with the arms swapped), where the flag's default is a literal (or it has none) and every
assignment of the attribute in `__init__` is in that `if`: a construction that passes a literal
taking the lambda's path (`augment=False`, `0`; `True` for the mirrored test), or leaves a
default that takes it, keeps the lambda; a name or any other expression stays silent, and so
does a parameter `__init__` rebinds before the test (`augment = not augment`). Read for lambdas only (a
local function kept on that path is not followed). A dataset a config file names (`target: pkg.data.MyDataset` under the `params` of a
data module the project instantiates from YAML, docs/configuration.md) is judged as built with
that node's `params`, and reported at the node's `target` line.

A dataset built by a function defined inside the function that builds the loader (`def
dataset_fn(train, transform): return CIFAR10(..., transform=transform)` in `get_data`, then
`dataset_fn(False, transform_test)` or `DataSubset(dataset_fn(True, transform_train))`) is what
every `return` of it builds, its parameters bound to the call's arguments and the names it reads
from the enclosing function resolved there; when every one of them keeps a lambda (`CIFAR10` on
one branch, `SVHN` on another, each given the same `Compose`), the dataset does. A dataset
looked up by an unknown key in a dict of built datasets (`datasets[dataset_name]` in a loop over
the names the command line gives) is each of its values: every one must keep such a callable.

A callable chosen by a conditional expression, an `if`/`else` assignment, or looked up in
a dict of callables (`COLLATES[args.kind]`) is reported when every candidate is a lambda or a
local function; a mixed choice stays silent (`fn if args.seed else None`, a `collate_fn` a
keyword dict receives only under a flag). It is reported when every path that starts workers
gets an unpicklable callable: `fn if args.num_workers > 0 else None` gives the nested function to
every worker, and `num_workers = 0 if remote else 1` with a lambda `collate_fn` fails on the
path with one worker (a warning then, even under spawn: the other path runs without workers).
Workers that are the machine's core count (`num_workers=os.cpu_count()`, `min(8,
os.cpu_count())`, `max(1, os.cpu_count() - 2)`: at least 1 on every machine) are workers;
`os.cpu_count() - 2` or `// 2`, which may be 0 on a small machine, stay unknown.
Keyword dicts spread into the call (`DataLoader(ds, **extra_kwargs)`, `DataLoader(**loader_kwargs)`
with `loader_kwargs = dict(..., collate_fn=lambda x: x)`) are read entry by entry; a key set on
both arms of one `if` is set on every path, and a dict chosen whole under `if num_workers > 0:`
(`extra = {}` before it) gives its callable to every path with workers. A callable a project
function returns counts as built at the call (`worker_init_fn=get_seed_worker(seed)`, in this
module or another) when every `return` of it hands back a lambda or a function it defines; a
factory that may return a module-level function stays silent. torch's dataset wrappers keep
what they wrap (torch 2.13 `torch/utils/data/dataset.py`: `Subset` stores `self.dataset`,
`ConcatDataset` and `ChainDataset` `self.datasets`, `StackDataset` its datasets): a `Subset(ds,
indices)` or `ConcatDataset([ds, other])` of a dataset that keeps a lambda is reported like the
dataset itself (proven under forkserver). A dataset whose `__init__` keeps a parameter whose
default is a lambda (`transform=lambda x: x`, or `target_transform=identity` with `identity =
lambda x: x` at module level) is reported when a construction leaves that parameter out
(passing anything for it, None included, replaces the lambda). A bound method of such a
dataset (`collate_fn=dataset.collate`, also `self.dataset.collate` of a dataset the object
keeps; a plain method of a project class, in this module or another (there only for an object
built with a callable it keeps), its own or a base's of the same module named plainly, the name
stored nowhere on self) pickles its object (CPython
3.11: `method.__reduce__` is `(getattr, (obj, name))`), so it fails the same way; a
staticmethod pickles by reference. The object may be any project object, not only a dataset
(OpenKiwi's encoders): `collate_fn=encoder.collate` of `encoder = TagEncoder(tokenize=lambda
x: ...)`, whose `__init__` hands `tokenize` on to its base's, which keeps it (any class whose
`__init__` hands its base one of its own parameters is read so); `collate_fn=Batcher().collate`
whose `__init__` keeps `self.encoder = TagEncoder(tokenize=lambda ...)` (a construction of
`__init__` is read for the lambdas written in its arguments); a lambda or such a construction
stored by key in `__init__`'s own body (`self.field_encoders["tags"] = TagEncoder(...)`) is kept
by the dict. A lambda a constructor only calls (`Applier(lambda t: t.split())` keeping the
result) is not kept. For a function of the same
module, a `return` whose `if` tests (`if kind == "pad": return pad_collate`, also an earlier
`if` that returns, and `in` a literal tuple) are false for what the call passes (literals, the
defaults of the parameters it leaves out) does not give that call's result: `build_collate(
"stack")` is the lambda of the last `return`. A test on a value the call does not fix (an
option, anything resolved at run time) decides nothing; one on the parameter of the function
the call is in (`build_collate(kind)` in `def get_loader(ds, kind="pad")`) is decided at each
call of that function, where the finding is reported (`get_loader(ds, "stack")`). A webdataset pipeline keeps
every callable given to its stages (read in webdataset 1.0.2: `DataPipeline` keeps its stages,
each fluid method adds a `FilterFunction` that keeps its arguments): `wds.WebDataset(urls)
.map(f)`, `.map_dict(image=f)` or `.map_dict(**mapping)` (a dict display: its keys need not be
known), `.map_tuple(f, g)`, `.select(pred)`, `.compose(stage)`, `.batched(n, collation_fn=f)`,
and `wds.DataPipeline(..., wds.map(f), ...)`, also `DataPipeline(*stages)` with `stages` a list
display bound once that nothing may shorten (`pop`, `remove`, a subscript written, the list
handed to a call): a lambda, a nested function or a torchvision `Compose` holding
`T.Lambda(lambda ...)` there is reported at the `WebLoader` or `DataLoader` that gets the
pipeline with workers. A `WebLoader`'s own stages (`wds.WebLoader(...).map(f)`) run in the main
process and are not pickled. Not followed (silent): a
helper's result kept under an `if` or by a method of another class, a parameter an `__init__`
that cannot be read may pass on (two `super().__init__` calls, one under an `if`), a dataset
handed to a library function through a provider callback (`pretrain(provider)`), an object a
constructor argument hands in (`self.extractor = extractor`), another library class's instance.

In a notebook (`.ipynb`), a class or function a cell defines is picklable, by its name in
`__main__`, but a spawn or forkserver worker cannot import it: the kernel's `__main__` has no
file. So the dataset of a class a cell defines (`class Squares(Dataset)` then
`DataLoader(Squares(), num_workers=2)`), and a `collate_fn` or `worker_init_fn` a cell defines,
fail as a lambda does, with "Can't get attribute 'Squares' on <module '__main__' (built-in)>"
in each worker (proven in a real ipykernel under forkserver: tests/test_notebook_workers.py).
A class imported from a module beside the notebook is found by name and is fine; what a
notebook's objects keep (a transform a cell defines, kept by a dataset of a module) is not
followed. It is an **error** when the start method is certainly spawn or forkserver: a
`multiprocessing_context` on the call, `set_start_method("spawn")` / `get_context("spawn")` in
the loader's module or in a module it imports, or a target where no Python defaults to fork:
every Python the project allows is 3.14 or later (`requires-python` in pyproject.toml, or the
`target-python` setting), or its `Operating System ::` classifiers name only macOS and Windows.
The message names the line that makes it certain, and the diagnostic cites it as related
location. It is a warning otherwise, and when the program asks for fork itself
(`set_start_method("fork")`, `get_context("fork")`). Spawn asked for only in a module that
imports the loader's module (one entry point of possibly several: another may not) keeps the
warning, citing that line; for a loader judged at a call of its factory, that is the calling
module's own request.

## Why is this bad?
Under spawn and forkserver the DataLoader pickles the dataset, the collate_fn and the
worker_init_fn to send them to each worker. Lambdas and local objects cannot be pickled: the
first iteration fails with `AttributeError: Can't pickle local object 'main.<locals>.<lambda>'`
(or `PicklingError`). Linux uses fork up to Python 3.13, so the code works there and breaks on
macOS and Windows (spawn) and on Python 3.14 (forkserver by default).
`functools.partial(top_level_function, ...)` pickles fine (with picklable arguments).

## Example
```python
loader = DataLoader(ds, num_workers=4, collate_fn=lambda batch: pad(batch, 0))
```

## Use instead
```python
def collate(batch, pad_value=0):
    return pad(batch, pad_value)

loader = DataLoader(ds, num_workers=4, collate_fn=functools.partial(collate, pad_value=0))
```

## Start methods
CPython's defaults: Windows has only spawn; macOS defaults to spawn from Python 3.8 (bpo-33725);
other platforms default to fork up to Python 3.13 and to forkserver from Python 3.14 ("What's
new in Python 3.14", Incompatible changes). `requires-python = ">=3.14"` therefore makes the
failure certain on every platform; `">=3.10"` leaves Linux with fork, and stays a warning.
Proven with torch 2.13: a lambda `collate_fn` under forkserver raises `AttributeError: Can't
pickle local object` at the first iteration (tests/test_spawn.py); so do webdataset 1.0.2
pipelines keeping a lambda in `.map_dict(**mapping)` (spawn), a module-level lambda in
`.map_tuple` (spawn) and a nested function in `DataPipeline(*stages)` through `wds.map`
(forkserver), while the same pipelines with module-level functions run; and a subclass without
`__init__` of a dataset that stores its transforms as torchvision's `VisionDataset` does, given
a lambda (forkserver; torchvision 0.28.0 itself does not import beside the CPU torch 2.13.0,
`operator torchvision::nms does not exist`, so its datasets' fixtures are linted only).

## Torch versions
All versions; the default start method depends on the platform and Python version.
"""

    def check_call(self, call, ctx):
        found = list(self._check_options(call, ctx))
        elements = call.extra.get("elements") if not found else None
        if not elements:
            yield from found
            return
        # one loader per element of a comprehension (``analysis.module._comprehension_elements``):
        # each judged with its own arguments; the first element that fails is reported
        rest = {k: v for k, v in call.extra.items() if k != "elements"}
        for key, args in elements:
            findings = list(self._check_options(call.replace(args=args, extra=rest), ctx))
            if findings:
                keys = ", ".join(repr(k) for k, _ in elements)
                note = f"The comprehension builds one loader per element of [{keys}]; the one for {key!r} gets it. "
                for finding in findings:
                    yield finding.replace(detail=note + (finding.detail or ""))
                return

    def _check_options(self, call, ctx):
        for option in ("collate_fn", "worker_init_fn", "dataset"):
            if not call.given(option):
                continue
            found = call_scenarios(call, "num_workers", option, "multiprocessing_context", positive=True)
            # Every path that starts workers gives them the unpicklable value; a path without
            # workers (num_workers certainly 0: `0 if remote else 1`, or `fn if workers > 0
            # else None`) is harmless, and at least one path has workers.
            crashing = [s for s in found or () if has_workers(s) and _unpicklable(value_of(s, option), ctx) is not None]
            fails = {id(s) for s in crashing}
            if not crashing or not every(found, lambda s: no_workers(s) or id(s) in fails):
                continue
            some_path = len(crashing) < len(found)
            found = crashing
            what, held = _unpicklable(value_of(found[0], option), ctx)
            what = _either(what, [_unpicklable(value_of(s, option), ctx)[0] for s in found[1:]])
            contexts = [value_of(s, "multiprocessing_context") for s in found]
            certain = certainty(call, ctx, contexts)
            if certain.spawn:
                runtime = f"{certain.why[0].upper()}{certain.why[1:]}: the first iteration fails. "
                when = "Under spawn and forkserver"
            elif certain.target is not None:
                target = certain.target
                runtime = f"On {target.why} workers start with {target.methods}: the first iteration fails. "
                when = f"{target.detail} Under {target.methods}"
            else:
                runtime = f"{certain.why[0].upper()}{certain.why[1:]}. " if certain.source == "importer" else ""
                when = (
                    "It works with fork (Linux up to Python 3.13); under spawn (macOS, Windows) and forkserver "
                    "(Linux from Python 3.14)"
                )
            related = certain.related
            if held is not None:
                related = (Related(os.path.abspath(held[1]), held[2], 1, f"{held[0]}: cannot be pickled"),) + related
            bound = call.args.get(option)
            ref = value_of(found[0], option)
            origin = found[0][option].origin
            if held is None and bound is not None and bound.text and isinstance(ref, FunctionRef) and ref.path and ref.line:
                if origin is not None and origin.what.startswith("returned by "):  # a factory of another module
                    related = (Related(os.path.abspath(ref.path), ref.line, 1, f"{what}, {origin.what}"),) + related
            if bound is not None and not bound.text and getattr(ref, "path", "") and getattr(ref, "line", 0):
                origin = found[0][option].origin
                note = f"{what}, {origin.what}" if origin is not None and origin.what else what
                related = (Related(os.path.abspath(ref.path), ref.line, 1, note),) + related
                what = f"{what} ({origin.what if origin is not None else 'not written here'})"  # its line: a related location
            paths = core_count(found)
            if some_path:
                workers = " or ".join(sorted({repr(value_of(s, "num_workers")) for s in found}))
                paths += f"On the paths with num_workers={workers} (another path has none) the workers receive it. "
            message = f"{option} is {what}: not picklable, so spawn/forkserver workers fail."
            notebook = all(_notebook_object(value_of(s, option)) is not None for s in found)
            if notebook:
                message = _notebook_message(option, _notebook_object(value_of(found[0], option)))
            elif len(message) > MESSAGE_LIMIT:  # a long name: what it is stays in the detail
                runtime = f"{option[0].upper()}{option[1:]} is {what}. {runtime}"
                kind = "an object" if "instance of the local class" in what else "a callable"
                message = f"{option} holds {kind} that is not picklable: spawn/forkserver workers fail."
                kept = what.partition(" that keeps ")[2]
                # the objects (``a CIFAR10 or a CIFAR100 or an SVHN``) are the detail's, and so is
                # where the callable was stored (`` in .target_transform (set by get_dataset())``)
                for shown in (kept, kept.partition(" (")[0], kept.partition(" in .")[0]) if kept else ():
                    if len(f"{option} keeps {shown}: not picklable, so spawn/forkserver workers fail.") <= MESSAGE_LIMIT:
                        message = f"{option} keeps {shown}: not picklable, so spawn/forkserver workers fail."
                        break
            yield self.finding(
                call,
                option,
                message,
                related=related,
                # another path runs without workers: not certain to fail, a warning
                severity=Severity.ERROR if (certain.spawn or certain.target is not None) and not some_path else None,
                detail=(
                    f"{paths}{runtime}{when} every worker unpickles it by its name in __main__, which in a notebook's "
                    "kernel is no file a worker can import: each worker dies with \"AttributeError: Can't get attribute "
                    f"'{_defined_name(_notebook_object(value_of(found[0], option)))}' on <module '__main__' (built-in)>\" and the loader raises "
                    "\"DataLoader worker exited unexpectedly\". Move it to a .py module beside the notebook and import it "
                    "from there."
                    if notebook
                    else f"{paths}{runtime}{when} every worker receives it pickled, and the first iteration raises \"AttributeError: "
                    "Can't pickle local object\" (for a class made at run time, such as a namedtuple made in a function: "
                    "\"PicklingError: Can't pickle <class ...>: attribute lookup ... failed\"). Define it at module level "
                    "(use functools.partial(top_level_function, ...) to bind arguments)."
                ),
                cite=(found, ("num_workers", "multiprocessing_context")),
            )


def _unpicklable(value, ctx):
    """(what, held) when ``value`` cannot be pickled: a lambda, a local function or class
    (``_local``; held is None), or an object keeping one (``analysis.pickling``): a dataset
    whose ``__init__`` stores it (``self.rescale = rescale``, ``self.transform =
    transforms.Lambda(lambda x: x)``), or built with one for a parameter it keeps, or a
    transform holding one. ``held``: (what, path, line) of the callable. None otherwise. A
    class or function a notebook defines (``_in_notebook``) is pickled by reference to
    ``__main__``, which a worker cannot import: it fails the same way."""
    local = _local(value) or _in_notebook(value)
    if local is not None:
        return local, None
    holds = getattr(value, "holds", None)
    if isinstance(value, Instance) and holds is not None and _pickles_itself(value, ctx):
        return None
    if isinstance(value, (Instance, Opaque)) and holds is not None:
        owner = _a(value.name if isinstance(value, Instance) else value.qualname.rsplit(".", 1)[1])
        what = holds[0]
        if what.endswith(f" in {owner}"):  # "a partial that keeps a lambda", not "... a lambda in a partial"
            what = what[: -len(f" in {owner}")]
        return f"{owner} that keeps {what}", holds  # where: a related location
    cls = ctx.dataset_class(value) if isinstance(value, Instance) else None
    found = ctx.datasets.unpicklable(cls) if cls is not None else None
    if found is not None:
        attr, what, path, line = found
        return f"{_a(value.name)} whose self.{attr} holds {what}", (what, path, line)
    for param, position, attr, (what, path, line), (kind, default) in cls.held_none if cls is not None else ():
        # ``if raw_sample_filter is None: self.f = lambda ...``; ``if augment: ... else: self.t = lambda i: i``
        if takes_path(value.shape, param, position, kind, default):
            mark = given_mark(value.shape, param, position)
            if (default if mark is None else mark) == "none":
                how = f"{param} left None"
            else:
                how = f"{param} {'true' if kind == 'truthy' else 'false'}"
            return f"{_a(value.name)} that keeps {what} in self.{attr} ({how})", (what, path, line)
    for param, position, attr, (what, path, line) in getattr(cls, "held_default", ()) if cls is not None else ():
        if left_out(value.shape, param, position):  # ``def __init__(self, transform=lambda x: x)``
            return f"{_a(value.name)} that keeps {what} in self.{attr} ({param}'s default)", (what, path, line)
    for inner in getattr(value, "wraps", ()) if isinstance(value, Opaque) else ():
        found = _unpicklable(inner, ctx)  # ``Subset(ds, indices)`` pickles ``ds``
        if found is not None:
            return f"{_a(value.qualname.rsplit('.', 1)[1])} of {found[0]}", found[1]
    return None


def _pickles_itself(value, ctx) -> bool:
    """Whether the class of ``value`` (a project class), or an ancestor dl-lint can see, defines
    ``__getstate__``, ``__reduce__`` or ``__reduce_ex__``: it decides what is pickled."""
    from dl_lint.analysis.datasets import PICKLE_METHODS

    cls = ctx.dataset_class(value)
    classes = (ctx.datasets.mro(cls) or [cls]) if cls is not None else []
    return any(m in c.methods for c in classes for m in PICKLE_METHODS)


def _either(what: str, others) -> str:
    """``an ImageFolder or a ReferenceDataset that keeps a lambda``: the scenarios' objects when
    they differ and keep the same callable (one factory choosing the class by an argument)."""
    head, sep, tail = what.partition(" that keeps ")
    heads = [head]
    for other in others:
        other_head, other_sep, other_tail = other.partition(" that keeps ")
        if not sep or not other_sep or other_tail != tail:
            return what
        if other_head not in heads:
            heads.append(other_head)
    heads.sort(key=lambda h: h.split(" ", 1)[-1])  # by the class's name, not its article
    return f"{' or '.join(heads)}{sep}{tail}" if len(heads) > 1 else what


def _a(name: str) -> str:
    """``a Dataset``, ``an ImageFolder`` (by the first letter: a class name is read as written),
    ``an MNIST``, ``an SVHN`` (a name opening with capitals is an initialism, read letter by
    letter: A, E, F, H, I, L, M, N, O, R, S and X then sound like a vowel; ``a KMNIST``, ``a USPS``)."""
    vowel = name[:1] in "AEFHILMNORSX" if name[:2].isupper() else name[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {name}"


NOTEBOOK = "defined in a notebook"


def _in_notebook(value):
    """A module-level class or function of a notebook (``.ipynb``), or an instance of such a
    class. The kernel's ``__main__`` has no file: a spawn or forkserver worker cannot import
    it, so unpickling ``__main__.Squares`` fails there ("Can't get attribute 'Squares' on
    <module '__main__' (built-in)>", checked with a real ipykernel 7.4 and torch 2.13:
    tests/test_notebook_workers.py)."""
    path = getattr(value, "path", "") or ""
    if not path.endswith(".ipynb"):
        return None
    if isinstance(value, FunctionRef) and value.kind == "function":
        return f"the function {value.name}, {NOTEBOOK}"
    if isinstance(value, FunctionRef) and value.kind == "class":
        return f"the class {value.name}, {NOTEBOOK}"
    if isinstance(value, Instance) and not value.local:
        return f"an instance of {value.name}, a class {NOTEBOOK}"
    return None


def _notebook_object(value):
    """What a notebook defines in ``value``: itself (``_in_notebook``), or a dataset a torch
    wrapper keeps (``Subset(Squares(), indices)``); None otherwise."""
    if _in_notebook(value) is not None:
        return value
    for inner in getattr(value, "wraps", ()) if isinstance(value, Opaque) else ():
        found = _notebook_object(inner)
        if found is not None:
            return found
    return None


def _notebook_message(option: str, value) -> str:
    """``dataset's class Squares is defined in a notebook: ...``; without the name when it is long."""
    tail = "is defined in a notebook: spawn/forkserver workers cannot import it and fail."
    subject = f"{option}'s class {value.name}" if isinstance(value, Instance) else f"{option} {value.name}"
    message = f"{subject} {tail}"
    if len(message) > MESSAGE_LIMIT:  # a long name: the detail names it
        message = f"{option}'s class {tail}" if isinstance(value, Instance) else f"{option} {tail}"
    return message


def _defined_name(value) -> str:
    return getattr(value, "name", "") or "?"


def _local(value):
    if isinstance(value, FunctionRef) and value.kind == "lambda":
        return "a lambda"
    if isinstance(value, FunctionRef) and value.kind == "nested":
        return f"the nested function {value.name}"
    if isinstance(value, FunctionRef) and value.kind == "local-class":
        return f"the local class {value.name}"
    if isinstance(value, Instance) and value.local:
        return f"an instance of the local class {value.name}"
    return None


RULE = UnpicklableWorkerCallable()
