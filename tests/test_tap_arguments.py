"""Typed Argument Parser classes (``configs.tap``): every class variable is a command-line option
whose default is the value written in the class, read as an argparse default is. The fixture's
scripts run here with a real command line through typed-argument-parser 1.12.0 and torch: what
dl-lint calls a crash raises, what it leaves silent constructs and iterates."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

TAP = FIXTURES / "rules" / "tap_arguments"


def _found(root: Path):
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in lint_paths([root]).diagnostics)


def _copy(tmp_path: Path, old: str = "", new: str = "", name: str = "train.py") -> Path:
    root = tmp_path / "tap_arguments"
    shutil.copytree(TAP, root)
    if old:
        path = root / name
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))
    return root


def test_tap_options_are_configurable_defaults():
    # DebugArgs' inherited default of 0 workers crashes with its (unannotated) prefetch option;
    # TrainArgs' configurable 2 workers ask for the guard; process_args leaves num_workers
    # unknown (silent), configure only its default (the command line still sets it)
    assert _found(TAP) == [("train.py", 14, "DL001"), ("train.py", 20, "DL011"), ("train.py", 35, "DL011")]


@pytest.mark.parametrize(
    "call",
    [
        'DebugArgs(config_files=["defaults.txt"]).parse_args()',  # defaults read from a file
        'DebugArgs().parse_args(["--num_workers", "2"])',  # another command line than the script's
    ],
)
def test_values_from_elsewhere_are_unknown(tmp_path, call):
    root = _copy(tmp_path, "DebugArgs().parse_args()", call)
    assert ("train.py", 14, "DL001") not in _found(root)


def test_an_init_of_the_project_makes_every_option_unknown(tmp_path):
    root = _copy(tmp_path, 'num_workers: int = 0\n    prefetch = 2\n', 'num_workers: int = 0\n    prefetch = 2\n\n    def __init__(self):\n        super().__init__()\n', "argparser.py")
    assert ("train.py", 14, "DL001") not in _found(root)


def test_a_class_that_is_not_a_tap_parser_is_not_read(tmp_path):
    root = _copy(tmp_path, "from tap import Tap", "from argparse import Namespace as Tap", "argparser.py")
    assert ("train.py", 14, "DL001") not in _found(root)


@pytest.mark.torch
def test_tap_and_torch_agree(monkeypatch):
    from importlib.metadata import version

    assert version("typed-argument-parser") == "1.12.0"  # the version configs/tap.py was read at
    from dl_lint.rules import all_rules

    rules = all_rules()
    monkeypatch.syspath_prepend(str(TAP))
    for name in ("train", "argparser"):
        sys.modules.pop(name, None)
    module = importlib.import_module("train")
    monkeypatch.setattr(sys, "argv", ["train.py"])
    exc, text = rules["DL001"].torch_raises
    with pytest.raises(exc, match=text):
        module.main_debug()
    for silent in (module.main_unguarded, module.main_guarded, module.main_processed, module.main_configured):
        assert sum(len(batch[0]) for batch in silent()) == 8
    monkeypatch.setattr(sys, "argv", ["train.py", "--num_workers", "0"])
    persistent, persistent_text = rules["DL002"].torch_raises
    with pytest.raises(persistent, match=persistent_text):
        module.main_unguarded()  # DL011's warning: the command line's 0 crashes
    with pytest.raises(exc, match=text):
        module.main_configured()
    assert sum(len(batch[0]) for batch in module.main_guarded()) == 8
    assert sum(len(batch[0]) for batch in module.main_processed()) == 8  # process_args gives 2 workers
    monkeypatch.setattr(sys, "argv", ["train.py", "--num_workers", "2"])
    assert sum(len(batch[0]) for batch in module.main_debug()) == 8  # the default's crash was the workers
