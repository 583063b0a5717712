"""The results cache and the returned-loader following (DL206 across modules, DL306 into the
callers' loops): a warm run reports what a cold run reports after each edit that decides the
finding, and an edit that cannot change it (a file that never names the functions) re-judges
nothing. The callers of a function rest on the files that call it and on no changed file
naming it (``Project.callers_of``), the DL306 gate on no changed file writing
``non_blocking=True`` (``Project.writes_non_blocking``), not on every file's bytes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from dl_lint import engine
from dl_lint.engine import lint_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"


def _codes(result, code):
    return sorted((d.filename.replace(os.sep, "/"), d.location.row) for d in result.diagnostics if d.code == code)


def _parsed(root: Path):
    project, _files = engine.RETAINED[-1]
    return sorted(os.path.relpath(path, root).replace(os.sep, "/") for path in project.parses)


def _warm(root: Path, code: str):
    """A warm run's findings of ``code``, checked against a cold run of the same tree."""
    warm = lint_paths(["."], jobs=1, cache=True, cache_dir=root / "cache")
    parsed = _parsed(root)
    assert _codes(warm, code) == _codes(lint_paths(["."], jobs=1), code)
    return _codes(warm, code), parsed


def _chain(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "chain"
    shutil.copytree(FIXTURES / "dl206_chain", root)
    (root / "notes.py").write_text("X = 1\n")
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    return root


REPORTED = [("loading/manager.py", 10)]


def test_an_edit_elsewhere_keeps_the_chain_finding_without_rejudging(tmp_path, monkeypatch):
    root = _chain(tmp_path, monkeypatch)
    assert _warm(root, "DL206")[0] == REPORTED
    (root / "notes.py").write_text("X = 2\n")
    found, parsed = _warm(root, "DL206")
    assert found == REPORTED
    assert parsed == []  # the loader's module, the factory and the callers: all answered by the cache


def test_the_caller_calling_set_epoch_removes_it_in_a_warm_run(tmp_path, monkeypatch):
    root = _chain(tmp_path, monkeypatch)
    assert _warm(root, "DL206")[0] == REPORTED
    caller = root / "train_eval.py"
    text = caller.read_text()
    edited = text.replace("    for epoch in range(epochs):\n", "    for epoch in range(epochs):\n        train_loader.sampler.set_epoch(epoch)\n")
    assert edited != text
    caller.write_text(edited)
    assert _warm(root, "DL206")[0] == []


def test_a_function_that_no_longer_returns_the_loader_removes_it_in_a_warm_run(tmp_path, monkeypatch):
    root = _chain(tmp_path, monkeypatch)
    assert _warm(root, "DL206")[0] == REPORTED
    caller = root / "train_eval.py"
    text = caller.read_text()
    # make_loader (the function of the caller's module the loader is returned on through) hands
    # the loader to code not read instead of returning it
    edited = text.replace("    return loader\n", "    return wrap(loader)\n")
    assert edited != text
    caller.write_text(edited)
    assert _warm(root, "DL206")[0] == []


def test_a_factory_module_that_no_longer_returns_the_loader_removes_it_in_a_warm_run(tmp_path, monkeypatch):
    root = _chain(tmp_path, monkeypatch)
    assert _warm(root, "DL206")[0] == REPORTED
    manager = root / "loading" / "manager.py"
    text = manager.read_text()
    edited = text.replace("    return (loader, sampler)\n", "    return (sampler, sampler)\n")
    assert edited != text
    manager.write_text(edited)
    assert _warm(root, "DL206")[0] == []


def test_a_file_that_comes_to_call_the_function_brings_it_in_a_warm_run(tmp_path, monkeypatch):
    """The only caller that repeats the order is written into a file that did not name the
    function before: a caller the cached answer never read."""
    root = _chain(tmp_path, monkeypatch)
    caller = root / "train_eval.py"
    text = caller.read_text()
    caller.write_text('"""Nothing here yet."""\n')
    assert _warm(root, "DL206")[0] == []
    caller.write_text(text)
    assert _warm(root, "DL206")[0] == REPORTED


WRAP = """from loading.manager import init_data


def loader_only(batch_size, rank, world_size):
    loader, _ = init_data(batch_size, data="samples", rank=rank, world_size=world_size)
    return loader
"""
CALLER = """import torch

from loading.wrap import loader_only


def train(model, rank, world_size, epochs):
    train_loader = loader_only(8, rank, world_size)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        for indices, x in train_loader:
            optimizer.zero_grad()
            model(x).pow(2).mean().backward()
            optimizer.step()
"""


def test_a_file_that_comes_to_call_a_function_returning_it_on_brings_it_in_a_warm_run(tmp_path, monkeypatch):
    """``loader_only`` (no factory: it builds no loader from its parameters) returns the
    loader on; the caller that repeats the order is written into a file that did not name it
    before, which no factory's call marks: only the cached answer's "no changed file names
    loader_only" catches it."""
    root = _chain(tmp_path, monkeypatch)
    (root / "loading" / "wrap.py").write_text(WRAP)
    caller = root / "train_eval.py"
    caller.write_text('"""Nothing here yet."""\n')
    assert _warm(root, "DL206")[0] == []
    (root / "notes.py").write_text("X = 2\n")
    assert _warm(root, "DL206") == ([], [])
    caller.write_text(CALLER)
    assert _warm(root, "DL206")[0] == REPORTED


NO_COPY = "def to_gpu(x):\n    return x.cuda(non_blocking=False)\n"
COPY = "def to_gpu(x):\n    return x.cuda(non_blocking=True)\n"
LOADERS = '''from torch.utils.data import DataLoader

from utils import to_gpu


def prepare_dataloaders(dataset):
    train_loader = DataLoader(dataset, batch_size=4, num_workers=2, pin_memory=False)
    return train_loader, dataset, None


def train(dataset):
    train_loader, valset, collate_fn = prepare_dataloaders(dataset)
    for epoch in range(3):
        for batch in train_loader:
            x = to_gpu(batch)
'''


def test_non_blocking_written_in_another_file_brings_dl306_in_a_warm_run(tmp_path, monkeypatch):
    root = tmp_path / "copies"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "loaders.py").write_text(LOADERS)
    (root / "utils.py").write_text(NO_COPY)
    (root / "notes.py").write_text("X = 1\n")
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    assert _warm(root, "DL306")[0] == []
    (root / "notes.py").write_text("X = 2\n")
    assert _warm(root, "DL306") == ([], [])  # nothing re-judged
    (root / "utils.py").write_text(COPY)
    assert _warm(root, "DL306")[0] == [("loaders.py", 7)]
    (root / "notes.py").write_text("X = 3\n")
    assert _warm(root, "DL306") == ([("loaders.py", 7)], [])
    (root / "utils.py").write_text(NO_COPY)
    assert _warm(root, "DL306")[0] == []
