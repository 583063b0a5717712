"""DL011 on a path an unrelated test chooses: the option is active where num_workers can be 0,
and torch 2.13 raises there; the silent shapes construct and iterate."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

pytestmark = pytest.mark.torch

RULES = FIXTURES / "rules"


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reported_function_raises_with_zero_workers_and_the_silent_ones_build():
    pytest.importorskip("torch")
    path = RULES / "dl011_conditional_option.py"
    found = [(d.location.row, d.code) for d in lint_paths([path], overrides={"select": ["DL011"]}).diagnostics]
    assert [code for _, code in found] == ["DL011"]
    module = _load(path)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        module.make_flag(0)
    assert list(module.make_flag(0, debug=True)) and list(module.make_flag(2))
    for build in (lambda: module.make_paired(True), module.make_paired, lambda: module.make_guarded(0), lambda: module.make_derived(0)):
        assert len(list(build())) == 2


@pytest.mark.parametrize(
    "argv, fails",
    [(["--num_workers", "0"], True), (["--debug", "--num_workers", "0"], False), (["--num_workers", "2"], False), ([], False)],
    ids=["zero workers without --debug", "--debug", "two workers", "the defaults"],
)
def test_the_command_line_shape_fails_only_where_dl011_says(argv, fails):
    pytest.importorskip("torch")
    path = RULES / "dl011_conditional_cli.py"
    rows = [d.location.row for d in lint_paths([path], overrides={"select": ["DL011"]}).diagnostics]
    text = path.read_text(encoding="utf-8").splitlines()
    assert rows == [row for row, line in enumerate(text, 1) if "expect: DL011" in line]
    run = subprocess.run([sys.executable, str(path), *argv], capture_output=True, text=True, timeout=300)
    if fails:
        assert run.returncode != 0 and "persistent_workers option needs num_workers > 0" in run.stderr
    else:
        assert run.returncode == 0, run.stderr[-2000:]
        assert run.stdout.split() == ["8", "8"]
