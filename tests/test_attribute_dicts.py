"""Attribute dicts built from a dict display (``EasyDict({...})``, ``Box({...})``) are read as
the dict they wrap (DL202's tables of datasets, 27c32f3); an attribute written on one changes
its key, so a later read of that key is unknown, never the display's value (a DL001 crash claim
on ``num_workers=0`` after ``cfg.num_workers = 4`` would be false: easydict's ``__setattr__``
sets the key, checked by running easydict 1.14)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

HEAD = """
from easydict import EasyDict
from torch.utils.data import DataLoader

cfg = EasyDict({"num_workers": 0, "prefetch_factor": 2})
"""
USE = 'loader = DataLoader(list(range(8)), num_workers=cfg["num_workers"], prefetch_factor=cfg["prefetch_factor"])\n'


def _codes(tmp_path: Path, middle: str):
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(HEAD) + middle + USE)
    return [d.code for d in lint_paths([path]).diagnostics]


def test_the_wrapped_display_is_read(tmp_path: Path) -> None:
    assert _codes(tmp_path, "") == ["DL001"]


@pytest.mark.parametrize(
    "middle",
    [
        "cfg.num_workers = 4\n",
        'cfg["num_workers"] = 4\n',
        "cfg.update(num_workers=4)\n",
        "configure(cfg)\n",
    ],
    ids=["attribute", "subscript", "update", "handed-to-unknown"],
)
def test_a_change_before_the_read_leaves_it_unknown(tmp_path: Path, middle: str) -> None:
    assert _codes(tmp_path, middle) == []
