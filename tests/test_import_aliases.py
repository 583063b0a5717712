"""A factory imported under another name (``from pkg.loader import make as build_loader``) is
called where the alias is called: the call-site findings of the factory's loaders land there, in
a full run and in a run naming only the caller (issue 26), and an alias of anything else is not
taken for the factory."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

FACTORY = """\
from torch.utils.data import DataLoader


def make(ds, num_workers=4, prefetch_factor=2):
    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)
"""


def _project(tmp_path: Path, main: str) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "loader.py").write_text(FACTORY)
    (tmp_path / "main.py").write_text(textwrap.dedent(main))
    return tmp_path


def _found(paths):
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in lint_paths([str(p) for p in paths]).diagnostics)


@pytest.mark.parametrize(
    "main",
    [
        "from pkg.loader import make as build_loader\n\nloader = build_loader([1, 2, 3], num_workers=0)\n",
        "def run():\n    from pkg.loader import make as build\n    return build([1, 2, 3], num_workers=0)\n",
    ],
    ids=["module-level import", "import in a function"],
)
def test_a_call_of_the_alias_is_a_call_site(tmp_path, main):
    root = _project(tmp_path, main)
    row = 3
    assert _found([root]) == [("main.py", row, "DL001")]
    assert _found([root / "main.py"]) == [("main.py", row, "DL001")]


def test_an_alias_of_something_else_is_not_the_factory(tmp_path):
    main = """\
    from os.path import join as make
    from pkg import loader as make_loader

    with open("data.txt") as make_file:
        pass
    path = make("a", "b")
    made = make_loader.make([1, 2, 3], num_workers=4)
    """
    root = _project(tmp_path, main)
    assert _found([root]) == []
