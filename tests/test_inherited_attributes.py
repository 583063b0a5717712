"""``self.num_workers`` read in a subclass's method, set by a project base class's ``__init__``
(issue 25 §3, the development split's remaining misses): from the base's parameter (its
default, a configurable value) or a constant, or from what the subclass's ``__init__`` passes
to ``super().__init__(...)``. What cannot be read that way stays unknown: an attribute of an
object dl-lint cannot see, which DL011 treats as configurable, and no error rule reports."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

BASE = """\
WORKERS = 0


class Base:
    def __init__(self, ds, num_workers=0, pin=True):
        self.ds = ds
        self.num_workers = num_workers
        self.fixed = WORKERS
"""


def _lint(tmp_path: Path, sub: str, base: str = BASE, named=(".",)):
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "pkg/__init__.py": "",
        "pkg/base.py": base,
        "train.py": "from torch.utils.data import DataLoader\nfrom pkg.base import Base\n\n\n" + textwrap.dedent(sub),
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in lint_paths([root / n for n in named]).diagnostics)


LOADER = "    def loader(self):\n        return DataLoader(self.ds, num_workers=self.ATTR, persistent_workers=True)\n"


def _sub(init: str, attr: str = "num_workers") -> str:
    return "class Sub(Base):\n" + init + LOADER.replace("ATTR", attr)


def test_base_parameter_default(tmp_path):
    # No ``__init__`` of its own: the base's default, a configurable value (as in the base).
    assert _lint(tmp_path, _sub("")) == [("train.py", 7, "DL002")]
    assert _lint(tmp_path / "one", _sub(""), named=("train.py",)) == [("train.py", 7, "DL002")]


def test_base_constant(tmp_path):
    assert _lint(tmp_path, _sub("", "fixed")) == [("train.py", 7, "DL002")]


def test_value_the_subclass_passes(tmp_path):
    literal = "    def __init__(self, ds):\n        super().__init__(ds, 0)\n\n"
    assert _lint(tmp_path, _sub(literal)) == [("train.py", 10, "DL002")]
    named = "    def __init__(self, ds):\n        Base.__init__(self, ds, num_workers=4)\n\n"
    assert _lint(tmp_path / "b", _sub(named)) == []  # 4 workers, known: nothing to guard
    # The subclass's own parameter: its default, configurable (DL011 for a safe default).
    own = "    def __init__(self, ds, workers=4, **kw):\n        super().__init__(ds, num_workers=workers, **kw)\n\n"
    assert _lint(tmp_path / "c", _sub(own)) == [("train.py", 10, "DL011")]
    left = "    def __init__(self, ds, **kw):\n        super().__init__(ds, **kw)\n\n"
    assert _lint(tmp_path / "d", _sub(left)) == [("train.py", 10, "DL002")]


@pytest.mark.parametrize(
    "init, base",
    [
        # The base's ``__init__`` may not run, or runs on some paths only.
        ("    def __init__(self, ds):\n        self.ds = ds\n\n", BASE),
        ("    def __init__(self, ds, c):\n        if c:\n            super().__init__(ds, 0)\n\n", BASE),
        # An argument hidden in ``*args``.
        ("    def __init__(self, *a):\n        super().__init__(*a)\n\n", BASE),
        # The base sets it conditionally, or in another method too, or from a rebound parameter.
        ("", BASE.replace("        self.num_workers = num_workers", "        if pin:\n            self.num_workers = num_workers")),
        ("", BASE + "\n    def reset(self):\n        self.num_workers = 2\n"),
        ("", BASE.replace("        self.num_workers = num_workers", "        num_workers = num_workers or 2\n        self.num_workers = num_workers")),
    ],
)
def test_unreadable_shapes_stay_unknown(tmp_path, init, base):
    assert [code for _, _, code in _lint(tmp_path, _sub(init), base)] == ["DL011"]


def test_several_bases_stay_unknown(tmp_path):
    sub = "class Mixin:\n    pass\n\n\nclass Sub(Base, Mixin):\n" + LOADER.replace("ATTR", "num_workers")
    assert _lint(tmp_path, sub) == [("train.py", 11, "DL011")]
