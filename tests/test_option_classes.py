"""Option classes (issue 25 §3): ``opt = TrainOptions().parse()`` carries the defaults of the
flags the classes of its chain add; anything dl-lint cannot follow leaves them unknown."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

BASE = """
import argparse


class BaseOptions:
    def initialize(self, parser):
        parser.add_argument("--nThreads", type=int, default=0)
        return parser

    def parse(self):
        parser = argparse.ArgumentParser()
        parser = self.initialize(parser)
        opt = parser.parse_args()
        opt.isTrain = self.isTrain
        return opt
"""
TRAIN = """
from torch.utils.data import DataLoader
from base import BaseOptions


class TrainOptions(BaseOptions):
    def initialize(self, parser):
        parser = BaseOptions.initialize(self, parser)
        self.isTrain = True
        return parser


opt = TrainOptions().parse()
DataLoader([1], num_workers=opt.nThreads, prefetch_factor=2)
"""


def _codes(tmp_path: Path, base: str = BASE, train: str = TRAIN) -> list:
    (tmp_path / "base.py").write_text(textwrap.dedent(base))
    (tmp_path / "train.py").write_text(textwrap.dedent(train))
    found = lint_paths([tmp_path], overrides={"select": ("ALL",), "ignore": ("DL305",)}).diagnostics
    return sorted(d.code for d in found if d.filename.endswith("train.py"))


def test_the_default_of_a_base_class_flag(tmp_path):
    assert _codes(tmp_path) == ["DL001"]


@pytest.mark.parametrize(
    "old,new",
    [
        ("opt = parser.parse_args()", "opt, _ = parser.parse_known_args()"),  # merges unknown flags
        ("parser = self.initialize(parser)", "parser = setter(self.initialize(parser))"),  # handed to other code
        ("        return parser\n", "        parser.set_defaults(nThreads=2)\n        return parser\n"),
        ("opt.isTrain = self.isTrain", "vars(opt).update(load())"),  # options loaded from a file
        ("opt.isTrain = self.isTrain", "opt.nThreads = 2"),  # set by the parse method
        ("class BaseOptions:", "class BaseOptions(Mixin, Other):"),  # several bases
        ("class BaseOptions:", "class BaseOptions(argparse.ArgumentParser):"),  # a library base
        ("        return opt\n", "        return self.opt\n"),  # not the namespace it parses
    ],
)
def test_what_stays_unknown(tmp_path, old, new):
    changed = BASE.replace(old, new)
    assert changed != BASE
    assert "DL001" not in _codes(tmp_path, base=changed)


def test_a_subclass_that_hands_the_parser_on(tmp_path):
    train = TRAIN.replace("        parser = BaseOptions.initialize(self, parser)\n", "        parser = tweak(BaseOptions.initialize(self, parser))\n")
    assert "DL001" not in _codes(tmp_path, train=train)


def test_a_subclass_without_flags_that_overrides_a_method(tmp_path):
    train = TRAIN.replace(
        "class TrainOptions(BaseOptions):\n    def initialize(self, parser):\n        parser = BaseOptions.initialize(self, parser)\n        self.isTrain = True\n        return parser\n",
        "class TrainOptions(BaseOptions):\n    isTrain = True\n\n    def parse(self):\n        return load_options()\n",
    )
    assert "class TrainOptions(BaseOptions):\n    isTrain" in train
    assert "DL001" not in _codes(tmp_path, train=train)
