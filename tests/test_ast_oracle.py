"""A second opinion on the engine: dl-lint's analysis (scopes, resolution) and an independent
``ast`` oracle that only follows import spellings (tests/ast_oracle.py) agree on which calls construct torch's DataLoader in every fixture, up to
the classified, legitimate differences. (bench/ast_check.py runs the comparison on real code.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ast_oracle import EXPECTED_ANALYSIS_EXTRA, EXPECTED_ORACLE_EXTRA, compare, find_loader_calls
from conftest import FIXTURES
from dl_lint.analysis.project import Project
from dl_lint.source import decode

FILES = sorted(p for p in FIXTURES.rglob("*.py") if not p.name.endswith(".fixed.py"))


def analysis_rows(source: str, path: str = "train.py", module: str = "train") -> set:
    """The rows of the loader calls dl-lint's analysis finds, set up as ``lint_source`` does
    (a project, so that classes of the same module resolve)."""
    project = Project(None)
    analysis = project.parse(path, module, source)
    project.add(analysis)
    # mmengine config loaders (``train_dataloader = dict(...)``) are dicts, Hydra
    # ``instantiate(cfg.loader)`` builds a loader from YAML, and TrainingArguments hold the
    # Trainer's loader settings: the oracle compares DataLoader calls only
    return {
        call.location.row
        for call in analysis.facts().calls
        if not call.extra.get("mmengine") and not call.extra.get("hydra_target") and not call.extra.get("transformers")
    }


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIXTURES)) for p in FILES])
def test_fixture_agrees_with_the_oracle(path: Path):
    source = decode(path.read_bytes())
    differences = compare(source, analysis_rows(source, str(path), path.stem))
    for row, side, category in differences:
        expected = EXPECTED_ANALYSIS_EXTRA if side == "analysis" else EXPECTED_ORACLE_EXTRA
        assert category in expected, f"{path}:{row}: found by {side} only, unexplained"


def test_the_fixtures_exercise_the_comparison():
    total = sum(len(find_loader_calls(decode(p.read_bytes()))) for p in FILES)
    assert total > 150  # the oracle is not vacuously agreeing


CATEGORIES = {
    "partial": "import functools\nfrom torch.utils.data import DataLoader\nmake = functools.partial(DataLoader, num_workers=2)\nmake([1])\n",
    "alias-assignment": "from torch.utils.data import DataLoader\nloader_cls = DataLoader\nloader_cls([1])\n",
    "subclass": "from torch.utils.data import DataLoader\nclass Forever(DataLoader):\n    pass\nForever([1])\n",
    "base-init": "from torch.utils.data import DataLoader\nclass Fast(DataLoader):\n    def __init__(self, ds, workers):\n        super().__init__(ds, num_workers=workers)\n",
    "stateful": "from torchdata.stateful_dataloader import StatefulDataLoader\nStatefulDataLoader([1])\n",
    "library": "from torch_geometric.loader import NeighborLoader\nNeighborLoader(data, [10])\n",
}


@pytest.mark.parametrize("category", sorted(CATEGORIES))
def test_each_analysis_extra_is_classified(category):
    source = CATEGORIES[category]
    assert compare(source, analysis_rows(source)) == [(source.count("\n"), "analysis", category)]


def test_shadowing_is_classified():
    source = (
        "from torch.utils.data import DataLoader\n"
        "def build(DataLoader):\n"
        "    return DataLoader([1], prefetch_factor=4)\n"  # a parameter: not torch's
        "def local():\n"
        "    DataLoader = dict\n"
        "    return DataLoader(a=1)\n"
        "DataLoader([1])\n"
    )
    assert compare(source, analysis_rows(source)) == [(3, "oracle", "shadowed"), (6, "oracle", "shadowed")]


def test_every_torch_spelling_is_found_by_both():
    source = (
        "import torch\n"
        "import torch.utils.data as tud\n"
        "from torch.utils import data\n"
        "from torch.utils.data import DataLoader as Loader\n"
        "from torch.utils.data.dataloader import DataLoader\n"
        "torch.utils.data.DataLoader([1])\n"
        "tud.DataLoader([1])\n"
        "data.DataLoader([1])\n"
        "Loader([1])\n"
        "DataLoader([1])\n"
        "torch.utils.data.dataloader.DataLoader([1])\n"
    )
    assert find_loader_calls(source) == analysis_rows(source) == set(range(6, 12))


def test_an_unexplained_difference_is_reported():
    source = "from torch.utils.data import DataLoader\nDataLoader([1])\nprint(1)\n"
    assert compare(source, {2, 3}) == [(3, "analysis", "unexplained")]
    assert compare(source, set()) == [(2, "oracle", "unexplained")]
