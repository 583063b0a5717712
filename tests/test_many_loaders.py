"""Hostile repositories, many loaders in one file (issue 28, section 4): the analysis asks where
each loader is iterated, copied, wrapped; asked by walking the module's loops and calls once per
loader, 8,000 loaders took 77 s and 2,000 loaders each with a loop took 110 s. These are hang
guards, not speed tests (bench/run.py measures speed): the real CLI must end within a generous
bound and report exactly what the file holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT = 60  # seconds; the linear analysis takes a few


def _lint(path: Path, *args: str) -> list:
    exe = Path(sys.executable).with_name("dl-lint")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT_")}
    try:
        done = subprocess.run(
            command + ["--no-cache", "-j1", "--output-format", "json", *args, path.name],
            cwd=path.parent, capture_output=True, text=True, env=env, timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"dl-lint did not end within {TIMEOUT} s")
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["code"], d["location"]["row"]) for d in json.loads(done.stdout))


def test_ten_thousand_loaders_in_one_file(tmp_path: Path) -> None:
    """10,000 lines ``xN = DataLoader([1], num_workers=2)`` (nothing to report) and, every
    1,000 lines, a loader with ``prefetch_factor`` and no workers (DL001): exactly those."""
    lines = ["from torch.utils.data import DataLoader"]
    expected = []
    for i in range(10_000):
        lines.append(f"x{i} = DataLoader([1], num_workers=2)")
        if i % 1000 == 999:
            lines.append(f"y{i} = DataLoader([1], prefetch_factor=2)")
            expected.append(("DL001", len(lines)))
    path = tmp_path / "many.py"
    path.write_text("\n".join(lines) + "\n")
    assert _lint(path) == expected


def test_two_thousand_loaders_each_iterated(tmp_path: Path) -> None:
    """2,000 module-level loaders, each looped over, handed to a function that loops over it,
    and started with ``next(iter(...))``, with no ``__main__`` guard: one DL203 each, at the
    loader."""
    lines = [
        "from torch.utils.data import DataLoader",
        "def train(loader):",
        "    for batch in loader:",
        "        pass",
    ]
    expected = []
    for i in range(2_000):
        lines.append(f"x{i} = DataLoader(list(range(8)), num_workers=2, pin_memory=True)")
        expected.append(("DL203", len(lines)))
        lines += [f"for b in x{i}:", "    b.to('cuda', non_blocking=True)", f"train(x{i})", f"it{i} = next(iter(x{i}))"]
    path = tmp_path / "iterated.py"
    path.write_text("\n".join(lines) + "\n")
    assert _lint(path, "--select", "ALL") == expected


def test_four_thousand_loaders_in_one_loop(tmp_path: Path) -> None:
    """4,000 loaders built in one epoch loop (DL302 asks, for each, what the loop changes before
    it: walked once per loader, that took 200 s): one DL302 each, and none for the one that
    reads the loop's variable."""
    lines = ["from torch.utils.data import DataLoader", "def run(ds, datasets):", "    for epoch in datasets:"]
    expected = []
    for i in range(4_000):
        lines.append(f"        x{i} = DataLoader(ds, num_workers=2)")
        expected.append(("DL302", len(lines)))
    lines.append("        per_item = DataLoader(epoch, num_workers=2)")
    path = tmp_path / "in_loop.py"
    path.write_text("\n".join(lines) + "\n")
    assert _lint(path, "--select", "DL302") == expected


def test_a_name_bound_on_many_lines_of_a_config_module(tmp_path: Path) -> None:
    """``opt.workers`` of an instance of another module's class asks whether that module binds
    ``workers`` in the class's body (``project._binds_in_class``); a module binding it as a
    function's local on 40,000 lines took minutes when each binding searched back for the line
    opening its block. The class never binds it, so the value stays unknown: DL011, once."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (project / "options.py").write_text("class Options:\n    name = 'run'\n\n\ndef fastest():\n" + "    workers = 0\n" * 40_000)
    (project / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom options import Options\n\nopt = Options()\n"
        "loader = DataLoader([1], num_workers=opt.workers, prefetch_factor=2)\n"
    )
    assert _lint(project) == [("DL011", 5)]


def test_a_round_to_a_huge_digit_count(tmp_path: Path) -> None:
    """``round(29, -256508035)`` in a loader's argument (the fuzzer's program): evaluating it
    computes ten to that power, minutes of big-integer work. Refused: the value is an unknown
    expression (nothing is reported on it), and the run ends at once."""
    path = tmp_path / "train.py"
    path.write_text(
        "from torch.utils.data import DataLoader\n\n"
        "loader = DataLoader([1], num_workers=round(29, -256508035), prefetch_factor=2)\n"
    )
    assert _lint(path) == []


def test_attributes_written_on_a_dataset_before_many_loaders(tmp_path: Path) -> None:
    """8,000 attribute writes on one dataset (``ds.aN = N``), then 8,000 loaders of it, and a
    lambda written on it last: DL202's reading of the writes (``Resolver._written_holds``) is
    done once per binding, not once per loader (a first version scanned every write at every
    loader: 3,000 × 3,000 took 11.5 s, 8,000 × 8,000 would take about 80). Every loader reports
    the lambda."""
    lines = [
        "from torch.utils.data import DataLoader, Dataset",
        "class Items(Dataset):",
        "    def __len__(self):",
        "        return 1",
        "    def __getitem__(self, index):",
        "        return index",
        "ds = Items()",
    ]
    lines += [f"ds.a{i} = {i}" for i in range(8_000)]
    lines.append("ds.target_transform = lambda y: y")
    first = len(lines) + 1
    lines += [f"x{i} = DataLoader(ds, num_workers=2)" for i in range(8_000)]
    path = tmp_path / "written.py"
    path.write_text("\n".join(lines) + "\n")
    assert _lint(path, "--select", "DL202") == [("DL202", row) for row in range(first, first + 8_000)]


def test_many_method_factories_of_one_name(tmp_path: Path) -> None:
    """3,000 classes whose ``train`` builds and iterates a loader, and a script calling each
    ``nK.train()`` at import: every call of ``train(`` may call each of the 3,000 factories, so
    the call-site search once kept a list entry per (call, factory) and counted each name in it
    (1,000 classes: 10 s; 3,000 about 90). It counts per name now. Every call is reported."""
    project = tmp_path / "p"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    count = 3_000
    nets = ["from torch.utils.data import DataLoader", ""]
    for i in range(count):
        nets += [f"class Net{i}:", "    def train(self):", "        loader = DataLoader([1], num_workers=2)", "        for x in loader:", "            pass", ""]
    (project / "nets.py").write_text("\n".join(nets) + "\n")
    script = ["from nets import *", ""] + [f"n{i} = Net{i}()" for i in range(count)] + [f"n{i}.train()" for i in range(count)]
    (project / "main.py").write_text("\n".join(script) + "\n")
    first = 3 + count
    assert _lint(project, "--select", "DL203") == [("DL203", row) for row in range(first, first + count)]
