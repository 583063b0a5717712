"""The oracle: real torch 2.13 decides whether dl-lint's error diagnostics are true.

Every ``case_*`` function of a rule fixture is run through torch. When dl-lint reports an error
inside the function, the loader must raise the exception that rule predicts (at construction or
at the first ``next()``); when it reports no error, the loader must construct and yield a batch.
DL201 is proven by counting: a flagged loader's epoch yields every sample num_workers times.
"""

from __future__ import annotations

import ast
import re
import importlib
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

pytestmark = pytest.mark.torch
try:
    import torch
except ImportError:  # Python 3.9 (no torch 2.13): deselected with -m "not torch"; else conftest fails them
    torch = None

from dl_lint import lint_paths  # noqa: E402
from dl_lint.model import Severity  # noqa: E402
from dl_lint.rules import all_rules  # noqa: E402

from conftest import FIXTURES  # noqa: E402

RULE_FIXTURES = FIXTURES / "rules"
# mmengine config files: every DL001/DL002 in them is built with torch by
# tests/test_mmengine_configs.py::test_torch_raises_for_every_config_reported_as_a_crash.
CONFIG_FIXTURES = RULE_FIXTURES / "mmengine_configs" / "configs"
HYDRA_TARGET_FIXTURE = RULE_FIXTURES / "hydra_target"
# Command-line frameworks' commands: tests/test_click_options.py and tests/test_cli_frameworks.py
# run each through click, fire or typer and torch.
CLI_FIXTURES = tuple(RULE_FIXTURES / name for name in ("click_options.py", "fire_components.py", "typer_commands.py"))
# yacs defaults modules: tests/test_yacs_configs.py merges them with yacs / fvcore and builds every run
YACS_DEFAULTS = (RULE_FIXTURES / "yacs_research" / "config", RULE_FIXTURES / "yacs_fvcore" / "slowfast" / "config")
# TrainingArguments and simple_parsing fixtures read the command line or JSON files, which the
# oracle's case functions cannot give: tests/test_transformers_args.py builds each of their
# findings with transformers, simple_parsing and torch.
PROVEN_ELSEWHERE = (
    CONFIG_FIXTURES, RULE_FIXTURES / "transformers_args", RULE_FIXTURES / "simple_parsing_configs",
    RULE_FIXTURES / "tap_arguments",  # tests/test_tap_arguments.py runs it with a command line through Tap and torch
)
# Config files a script loads itself and the dataclass/Hydra/mmengine gaps (issue 25 §4): their
# values come from config files, the command line or Hydra, which case functions cannot give;
# tests/test_keypaths.py runs each finding through the real loaders (PyYAML, json, HyperPyYAML,
# HfArgumentParser, argparse, Hydra, mmengine) and torch.
KEYPATH_FIXTURES = (
    RULE_FIXTURES / "config_keypaths",
    RULE_FIXTURES / "config_helper",  # tests/test_config_helpers.py builds each crash through the fixture's code
    RULE_FIXTURES / "mmengine_fromfile",
    RULE_FIXTURES / "hydra_wrapper",
    RULE_FIXTURES / "resolve_hf_dataclasses.py",
    RULE_FIXTURES / "resolve_argparse_dataclass.py",
    RULE_FIXTURES / "hydra_structured.py",
    RULE_FIXTURES / "imported_dataclasses" / "hf_train.py",  # with real transformers and Hydra, as those two
    RULE_FIXTURES / "imported_dataclasses" / "hydra_train.py",
    RULE_FIXTURES / "namespace_rewrites",  # scripts that read a config file: tests/test_namespace_rewrites.py runs each
)


def _case_functions(path: Path) -> Dict[str, Tuple[int, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name: (node.lineno, node.end_lineno)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("case_")
    }


def _proven_by(path: Path) -> Dict[int, str]:
    """Rows marked ``proven-by: case_x``: a diagnostic in a method that case_x calls."""
    out = {}
    for row, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = re.search(r"proven-by:\s*(case_\w+)", line)
        if match:
            out[row] = match.group(1)
    return out


def _oracle_cases() -> List[Tuple[Path, str, List[str]]]:
    """(file, case function, codes reported inside it) for single-file fixtures and for the
    files of multi-module fixture projects (folders, linted as one run)."""
    cases = []
    entries = [p for p in sorted(RULE_FIXTURES.iterdir()) if p.suffix == ".py" or p.is_dir()]
    for entry in entries:
        files = sorted(entry.rglob("*.py")) if entry.is_dir() else [entry]
        functions = {path: _case_functions(path) for path in files}
        if not any(functions.values()):
            continue
        has_config = entry.is_dir() and (entry / "pyproject.toml").exists()
        diagnostics = lint_paths([entry], overrides={} if has_config else {"select": ("ALL",)}).diagnostics
        for path, cases_in_file in functions.items():
            rows = [d for d in diagnostics if Path(d.filename).resolve() == path.resolve()]
            proven_by = _proven_by(path)
            for name, (first, last) in cases_in_file.items():
                codes = {d.code for d in rows if first <= d.location.row <= last}
                codes |= {d.code for d in rows if proven_by.get(d.location.row) == name}
                cases.append((path, name, sorted(codes)))
    return cases


CASES = _oracle_cases()


def _load(path: Path):
    """Import a fixture module; files of a fixture project are imported as package modules."""
    project = next((p for p in path.parents if p.parent == RULE_FIXTURES), None)
    root = project if project is not None else path.parent
    module_name = ".".join(path.relative_to(root).with_suffix("").parts)
    for name in list(sys.modules):
        if name == module_name.split(".")[0] or name.startswith(module_name.split(".")[0] + "."):
            del sys.modules[name]
    sys.path.insert(0, str(root))
    if project is not None:
        sys.path.insert(0, str(RULE_FIXTURES))  # _common.py
    try:
        return importlib.import_module(module_name)
    finally:
        sys.path.remove(str(root))
        if project is not None:
            sys.path.remove(str(RULE_FIXTURES))


def _count_samples(loader) -> int:
    count = 0
    for batch in loader:
        count += batch.numel() if isinstance(batch, torch.Tensor) else 1
    return count


@pytest.mark.parametrize(
    "path,name,codes",
    CASES,
    ids=[f"{p.relative_to(RULE_FIXTURES).with_suffix('')}::{n}[{','.join(c) or 'clean'}]" for p, n, c in CASES],
)
def test_torch_agrees(path: Path, name: str, codes: List[str]) -> None:
    rules = all_rules()
    errors = [c for c in codes if rules[c].severity is Severity.ERROR]
    build = getattr(_load(path), name)
    if errors:
        rule = rules[errors[0]]
        exception, fragment = rule.torch_raises
        with pytest.raises(exception, match=fragment):
            loader = build()
            next(iter(loader))
        return
    loader = build()
    if "DL201" in codes:
        workers = loader.num_workers
        reference = _count_samples(torch.utils.data.DataLoader(loader.dataset, batch_size=None))
        assert workers >= 2
        assert _count_samples(loader) == workers * reference
        return
    next(iter(loader))


def test_every_error_rule_is_proven() -> None:
    """Each error rule has at least one positive case run through torch, and every error
    expectation in the rule fixtures sits inside a case function (so none escapes the oracle)."""
    rules = all_rules()
    proven = {c for _, _, codes in CASES for c in codes}
    for code, rule in rules.items():
        if rule.severity is Severity.ERROR and code != "DL000":
            assert code in proven, f"{code} has no oracle case"
            assert hasattr(rule, "torch_raises"), f"{code} must say what torch raises"
    for path in RULE_FIXTURES.rglob("*.py"):
        if any(folder in path.parents for folder in PROVEN_ELSEWHERE + YACS_DEFAULTS):
            continue  # no case functions: proven by tests/test_mmengine_configs.py, test_yacs_configs.py, test_transformers_args.py, test_tap_arguments.py
        if HYDRA_TARGET_FIXTURE in path.parents:
            continue  # tests/test_hydra_target.py runs each statement through the real instantiate and torch
        if path in CLI_FIXTURES:
            continue  # commands: tests/test_click_options.py, tests/test_cli_frameworks.py
        if path in KEYPATH_FIXTURES or any(folder in path.parents for folder in KEYPATH_FIXTURES):
            continue  # tests/test_keypaths.py, tests/test_config_helpers.py
        functions = _case_functions(path)
        proven_by = _proven_by(path)
        for row, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for code, rule in rules.items():
                if rule.severity is Severity.ERROR and code != "DL000" and f"expect: {code}" in line:
                    inside = any(first <= row <= last for first, last in functions.values())
                    inside = inside or proven_by.get(row) in functions
                    assert inside, f"{path.name}:{row}: an {code} expectation outside a case_* function"


def test_sampler_with_shuffle_raises_for_an_iterable_dataset_too() -> None:
    """DL006 fires when the dataset is unknown because torch raises ValueError for every
    dataset: an IterableDataset with a sampler and shuffle=True is rejected (for its shuffle)
    with the message DL006's detail quotes for that case."""
    sys.path.insert(0, str(RULE_FIXTURES))
    try:
        from _common import SQUARES, Stream
    finally:
        sys.path.remove(str(RULE_FIXTURES))
    sampler = torch.utils.data.RandomSampler(SQUARES)
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        torch.utils.data.DataLoader(Stream(), sampler=sampler, shuffle=True)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        torch.utils.data.DataLoader(SQUARES, sampler=sampler, shuffle=True)


def test_batch_bytes_estimated_from_getitem_are_the_bytes_of_a_real_batch() -> None:
    """DL101 decides by the bytes of a batch when it can estimate them from ``__getitem__``:
    for each dataset of the fixture, batch_size × the estimated sample is exactly the bytes of
    the tensors in a batch torch builds (the collated labels included)."""
    from dl_lint.analysis.datasets import sample_of
    from dl_lint.analysis.summary import sample_bytes

    path = RULE_FIXTURES / "dl101_estimated_bytes.py"
    module = _load(path)
    classes = [n for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef)]
    assert [c.name for c in classes] == ["Images", "HalfClips"]
    for node in classes:
        fields, defaults = sample_bytes(node)
        estimated, _ = sample_of(fields, dict(defaults))
        for batch_size in (1, 4):
            batch = next(iter(torch.utils.data.DataLoader(getattr(module, node.name)(), batch_size=batch_size)))
            parts = batch.values() if isinstance(batch, dict) else batch
            assert sum(t.nbytes for t in parts) == batch_size * estimated, node.name


def test_a_lower_bound_on_batch_bytes_is_below_a_real_batch() -> None:
    """DL101 from a lower bound: parts of the sample the code does not size (a label from a
    dict, a file name from a list) count as 0 bytes. A real batch holds at least the estimate:
    its tensors are the image part exactly, plus the collated labels (the names stay strings, outside shared memory)."""
    from dl_lint.analysis.datasets import LOWER_BOUND, sample_of
    from dl_lint.analysis.summary import sample_bytes

    path = RULE_FIXTURES / "dl101_lower_bound.py"
    module = _load(path)
    node = next(n for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef) and n.name == "Labelled")
    fields, defaults = sample_bytes(node)
    estimated, how = sample_of(fields, dict(defaults))
    assert LOWER_BOUND in how and estimated == 3 * 224 * 224 * 4
    for batch_size in (1, 4):
        images, labels, names = next(iter(torch.utils.data.DataLoader(module.Labelled(), batch_size=batch_size)))
        assert images.nbytes == batch_size * estimated
        assert images.nbytes + labels.nbytes > batch_size * estimated and all(isinstance(n, str) for n in names)
    found = lint_paths([path], overrides={"select": ("DL101",)}).diagnostics
    assert len(found) == 1 and "in shared memory: at least 18.5 GiB at the peak" in found[0].message


def test_a_generator_handed_to_the_dataset_repeats_in_every_worker() -> None:
    """DL204 through a generator the construction builds and hands to __init__ (sigver's
    MAMLDataSet): each of the 2 workers draws from a copy of one state, so the samples come in
    equal pairs (worker 0 takes indices 0, 2, ...; worker 1 takes 1, 3, ...); with the fixture's
    worker_init_fn that reseeds per worker they do not."""
    module = _load(RULE_FIXTURES / "dl204_shared_rng.py")
    found = lint_paths([RULE_FIXTURES / "dl204_shared_rng.py"], overrides={"select": ("DL204",)}).diagnostics
    assert any("Handed draws from self.rng, handed to __init__" in d.message for d in found)
    flagged = [int(x) for x in torch.utils.data.DataLoader(module.Handed(8, module.np.random.RandomState(0)), num_workers=2)]
    assert flagged[0::2] == flagged[1::2] and len(set(flagged)) == 4

    def reseed(worker_id):
        info = torch.utils.data.get_worker_info()
        info.dataset.rng = module.np.random.RandomState(info.seed % 2**32)

    fixed = [int(x) for x in torch.utils.data.DataLoader(module.Handed(8, module.np.random.RandomState(0)), num_workers=2, worker_init_fn=reseed)]
    assert fixed[0::2] != fixed[1::2]


def test_a_fresh_iterator_at_every_step_repeats_the_first_batch_and_restarts_the_workers() -> None:
    """DL302's ``next(iter(loader))`` findings, run: without shuffling every step gets the same
    first batch (no workers needed), and with workers every ``iter()`` starts new worker
    processes (a new pid per step), unless persistent_workers keeps them."""
    path = RULE_FIXTURES / "dl302_loader_in_loop.py"
    reported = {d.location.row for d in lint_paths([path], overrides={"select": ("DL302",)}).diagnostics}
    module = _load(path)
    source = path.read_text(encoding="utf-8").splitlines()

    def row_of(function: str) -> int:
        start = next(i for i, line in enumerate(source) if line.startswith(f"def {function}("))
        return next(i + 1 for i in range(start, len(source)) if "DataLoader(" in source[i])

    assert {row_of("overfit_by_mistake"), row_of("restart_workers_every_step")} <= reported
    model = torch.nn.Linear(1, 1)
    seen = module.overfit_by_mistake(model, torch.optim.SGD(model.parameters(), lr=0.1), steps=3)
    assert len(seen) == 3 and all(torch.equal(seen[0], batch) for batch in seen)
    assert torch.equal(seen[0], torch.tensor([[0], [1]]))  # samples 0 and 1, every step
    pids = module.restart_workers_every_step(steps=3)
    assert len(set(pids)) == 3  # three iterators, three sets of workers
    persistent = torch.utils.data.DataLoader(module.WorkerPids(), batch_size=2, num_workers=2, persistent_workers=True)
    assert len({int(next(iter(persistent))[0]) for _ in range(3)}) == 1


def _ddp_script(name: str):
    """A script of fixtures/rules/dl206_ddp, imported with its folder on the path (for ``data``)."""
    folder = RULE_FIXTURES / "dl206_ddp"
    for module in ("data", "engine", "factories", "trainers", name):
        sys.modules.pop(module, None)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


@pytest.mark.parametrize(
    "script, repeats",
    [
        ("train_ddp", True),
        ("train_one_epoch", True),
        ("train_ddp_set_epoch", False),
        ("train_engine", True),  # the iteration in another module (engine.py)
        ("train_engine_set_epoch", False),
        ("train_logged", True),  # through MetricLogger.log_every, a generator over the loader
        ("train_narrow", True),  # set_epoch only when distributed (False here)
        ("train_same_condition", False),
        ("train_rebuilt", True),  # a new sampler, seed 0, on every pass
        ("train_rebuilt_ok", False),  # seed=epoch
        ("train_generator", True),  # a factory's sampler, the epochs in an endless generator
        ("train_generator_set_epoch", False),  # the generator calls set_epoch per pass
        ("train_step_loop", True),  # a step loop making ``iter(loader)`` again when it runs out
        ("train_step_loop_set_epoch", False),  # set_epoch before each new iterator
        ("train_passthrough", True),  # iterated as what backends.py's pass-through calls give back
        ("train_passthrough_set_epoch", False),
        ("train_chosen", True),  # the epoch loop iterates `(other if use_other else loader)`
        ("train_progress_bar", True),  # another module's factory; the epoch wraps the loader in tqdm
        ("train_progress_bar_set_epoch", False),
        ("train_returned", True),  # returned in a tuple by its factory, iterated by the caller
        ("train_returned_whole", True),  # returned whole; another caller only takes its length
        ("train_returned_set_epoch", False),  # the caller calls train_loader.sampler.set_epoch
        ("train_returned_elsewhere", True),  # factories.py's loader, reported at this module's call
        ("train_returned_elsewhere_set_epoch", False),
        ("train_returned_sampler", True),  # the sampler returned beside the loader, unused
        ("train_returned_sampler_set_epoch", False),  # the caller's train_sampler.set_epoch(epoch)
        ("train_returned_two_step", True),  # ``loaders = build()`` then ``train_loader, val_loader = loaders``
        ("train_returned_nested", True),  # ``return (loader, sampler), val``; the caller takes ``loaders[0][0]``
        ("train_returned_two_step_set_epoch", False),  # nested unpacking; the sampler's set_epoch
        ("train_try_arms", True),  # the loader bound in ``try:`` and in ``except RuntimeError:``
        ("train_try_arms_set_epoch", False),
        ("train_trainer", True),  # kept by Trainer(...) as self.train_loader, iterated in its epoch loop
        ("train_trainer_set_epoch", False),  # the trainer's epoch method calls set_epoch
        ("train_learner", True),  # built in Learner.__init__ as self.train_loader
        ("train_learner_set_epoch", False),  # self.train_loader.sampler.set_epoch(epoch)
        ("train_prepared", True),  # return DataLoader(...) of a method, kept as self.train_loader
        ("train_prepared_set_epoch", False),  # minGPT-ddp's _run_epoch: dataloader.sampler.set_epoch
    ],
)
def test_a_distributed_sampler_without_set_epoch_repeats_its_order(script, repeats) -> None:
    """DL206, run: two ranks simulated with explicit num_replicas/rank. Where dl-lint reports the
    loader, every epoch of each rank visits the same indices in the same order; with set_epoch
    (not reported) the order changes from epoch to epoch. The ranks always split the data."""
    folder = RULE_FIXTURES / "dl206_ddp"
    reported = {Path(d.filename).stem for d in lint_paths([folder]).diagnostics if d.code == "DL206"}
    assert (script in reported) == repeats
    module = _ddp_script(script)
    for rank in (0, 1):
        torch.manual_seed(0)
        orders = module.train(torch.nn.Linear(4, 1), rank, 2, 3)
        assert len(orders) == 3 and len(orders[0]) == 32
        same = all(order == orders[0] for order in orders)
        assert same == repeats, (script, rank, orders)
    first_rank = set(module.train(torch.nn.Linear(4, 1), 0, 2, 1)[0])
    second_rank = set(module.train(torch.nn.Linear(4, 1), 1, 2, 1)[0])
    assert first_rank.isdisjoint(second_rank) and len(first_rank | second_rank) == 64


def _chain_script(folder: str, name: str):
    """A script of fixtures/rules/<folder> (the loader returned through loading/manager.py)."""
    root = RULE_FIXTURES / folder
    for module in ("data", "loading", "loading.factory", "loading.manager", name):
        sys.modules.pop(module, None)
    sys.path.insert(0, str(root))
    try:
        importlib.import_module("loading.factory")  # init_data imports it when called
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(root))


@pytest.mark.parametrize(
    "folder, script, function, repeats",
    [
        ("dl206_chain", "train_eval", "train", True),  # the sampler dropped two functions up
        ("dl206_chain", "train_pretrain", "train", False),  # its own sampler's set_epoch
        ("dl206_chain_ok", "train_eval", "train", False),  # the sampler kept and given set_epoch
        ("dl206_chain_ok", "train_eval", "train_loader_sampler", False),  # through loader.sampler
        ("dl206_chain_ok", "train_pretrain", "train", False),
    ],
)
def test_a_loader_returned_through_a_chain_of_functions_repeats_where_dl206_cites(folder, script, function, repeats) -> None:
    """DL206 through a loader several project functions of several modules return (jepa's
    init_data): reported at the factory's call in loading/manager.py, citing the epoch loop of
    the one caller that repeats its order; each call builds its own loader and sampler, so the
    other caller's set_epoch does not help it. Run for two ranks."""
    root = RULE_FIXTURES / folder
    found = [d for d in lint_paths([root]).diagnostics if d.code == "DL206"]
    cited = {Path(r.path).stem for d in found for r in d.related}
    assert (script in cited and function == "train") == repeats
    assert [Path(d.filename).name for d in found] == (["manager.py"] if folder == "dl206_chain" else [])
    module = _chain_script(folder, script)
    for rank in (0, 1):
        torch.manual_seed(0)
        orders = getattr(module, function)(torch.nn.Linear(4, 1), rank, 2, 3)
        assert len(orders) == 3 and len(orders[0]) == 32
        assert all(order == orders[0] for order in orders) == repeats, (script, function, rank, orders)


def test_the_never_none_table_holds() -> None:
    """The calls dl-lint takes as never None (``libraries.NEVER_NONE``; DL006 fires on a sampler
    made by one of them): each builtin is a type (a call constructs an instance of it) or one of
    the two functions whose result is documented (``sorted``: a new list; ``iter``: an iterator,
    TypeError when ``__iter__`` gives None); each torch function is a C function every overload
    of which returns ``Tensor`` in the installed torch's ``_VariableFunctions.pyi``."""
    import builtins

    from dl_lint.analysis import libraries

    for name in libraries.NEVER_NONE_BUILTINS:
        function = getattr(builtins, name)
        assert isinstance(function, type) or name in ("sorted", "iter"), name
    assert isinstance(sorted(range(3)), list)

    class NoneIter:
        def __iter__(self):
            return None

    with pytest.raises(TypeError):
        iter(NoneIter())

    stub = Path(torch.__file__).parent / "_C" / "_VariableFunctions.pyi"
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    returns: Dict[str, set] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in libraries.NEVER_NONE_TORCH:
            returns.setdefault(node.name, set()).add(ast.unparse(node.returns))
    assert set(returns) == set(libraries.NEVER_NONE_TORCH)
    for name in libraries.NEVER_NONE_TORCH:
        assert returns[name] == {"Tensor"}, (name, returns[name])
        assert type(getattr(torch, name)).__name__ == "builtin_function_or_method", name
    assert libraries.NEVER_NONE == frozenset(
        [f"builtins.{n}" for n in libraries.NEVER_NONE_BUILTINS] + [f"torch.{n}" for n in libraries.NEVER_NONE_TORCH]
    )
