"""One diagnostic per problem: findings alike in all but their related locations become one
that cites every related location (a factory building three loaders, called at import without a
main guard: one DL203 at the call, not three identical lines). Found on DIG's SMixup runner."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

RUNNER = """\
from torch.utils.data import DataLoader


class Runner:
    def train_test(self, batch_size):
        train_loader = DataLoader([1, 2], batch_size=batch_size, num_workers=2)
        val_loader = DataLoader([3, 4], batch_size=batch_size, num_workers=2)
        for batch in train_loader:
            pass
        for batch in val_loader:
            pass
"""
RUN = """\
from pkg.runner import Runner

runner = Runner()
runner.train_test(2)
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for name, text in {"pyproject.toml": "[tool.dl-lint]\n", "pkg/__init__.py": "", "pkg/runner.py": RUNNER, "run.py": RUN}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


@pytest.mark.parametrize("named", [".", "run.py"])
def test_one_call_of_a_factory_with_two_loaders_is_one_dl203_citing_both(tmp_path, named):
    root = _project(tmp_path)
    found = [d for d in lint_paths([root / named]).diagnostics if d.code == "DL203"]
    assert [(Path(d.filename).name, d.location.row) for d in found] == [("run.py", 4)]
    assert sorted((Path(r.path).name, r.row) for r in found[0].related) == [("runner.py", 6), ("runner.py", 7)]


def test_the_cached_run_merges_the_same_way(tmp_path):
    root = _project(tmp_path)
    first = lint_paths([root], cache=True, cache_dir=tmp_path / "cache").diagnostics
    second = lint_paths([root], cache=True, cache_dir=tmp_path / "cache").diagnostics
    assert [(d.code, d.filename, d.location, len(d.related)) for d in first] == [
        (d.code, d.filename, d.location, len(d.related)) for d in second
    ]
    assert [d.code for d in second].count("DL203") == 1


LOADERS = """\
from torch.utils.data import DataLoader


def loaders(batch_size):
    return {
        "train": DataLoader([1, 2], batch_size=batch_size, num_workers=2),
        "test": DataLoader([3, 4], batch_size=batch_size, num_workers=2),
    }, 10
"""
SCRIPT = """\
from pkg.data import loaders

found, num_classes = loaders(2)
for batch in found["train"]:
    pass
for batch in found["test"]:
    pass
"""


def test_loaders_iterated_on_their_own_lines_are_one_dl203(tmp_path):
    # swa_gaussian's scripts: a factory's dict of loaders, each looped over on its own line. The
    # two findings differ only in the line their detail cites: one line, citing both loaders.
    root = tmp_path / "proj"
    for name, text in {"pyproject.toml": "[tool.dl-lint]\n", "pkg/__init__.py": "", "pkg/data.py": LOADERS, "run.py": SCRIPT}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for jobs in (1, 2):
        found = [d for d in lint_paths([root], jobs=jobs).diagnostics if d.code == "DL203"]
        assert [(Path(d.filename).name, d.location.row) for d in found] == [("run.py", 3)]
        assert sorted((Path(r.path).name, r.row) for r in found[0].related) == [("data.py", 6), ("data.py", 7)]
        assert "(line 4)" in found[0].detail and found[0].detail.endswith("The other DataLoaders cited are judged alike.")
