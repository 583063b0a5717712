"""DL202 for a dataset that keeps a DataLoader holding a lambda (torch 2.13's DataLoader stores
``dataset``, ``collate_fn`` and ``worker_init_fn`` and defines no ``__getstate__``: the workers
receive the dataset pickled with the loader and what it keeps). Proven under forkserver by
fixtures/spawn/dl202_dataset_keeps_loader_with_lambda.py (fails) and ok_dataset_keeps_loader.py
(runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dl_lint import lint_paths

HEAD = """\
import torch
from torch.utils.data import DataLoader, Dataset


def collate(batch):
    return batch


class Generated(Dataset):
    def __init__(self, loader):
        self.loader = loader

    def __len__(self):
        return 8

    def __getitem__(self, index):
        return torch.tensor([index])


"""


def _dl202(tmp_path: Path, inner: str):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "train.py").write_text(HEAD + f"inner = {inner}\nouter = DataLoader(Generated(inner), num_workers=2)\n")
    return [d for d in lint_paths([tmp_path / "train.py"], cache=False).diagnostics if d.code == "DL202"]


@pytest.mark.parametrize(
    "inner",
    [
        "DataLoader(range(8), collate_fn=lambda b: b)",
        "DataLoader(range(8), 2, False, None, None, 0, lambda b: b)",  # collate_fn by position
        "DataLoader(range(8), worker_init_fn=lambda i: None)",
    ],
)
def test_a_kept_loader_holding_a_lambda(tmp_path, inner):
    found = _dl202(tmp_path, inner)
    assert len(found) == 1 and "keeps a DataLoader that keeps a lambda" in found[0].message + found[0].detail


@pytest.mark.parametrize(
    "inner",
    [
        "DataLoader(range(8))",
        "DataLoader(range(8), collate_fn=collate)",
        "DataLoader(range(8), 2, False, None, None, 0, collate)",
        "DataLoader(range(8), pin_memory=lambda: True)",  # not an argument the loader keeps as given
    ],
)
def test_a_kept_loader_without_one_is_silent(tmp_path, inner):
    assert _dl202(tmp_path, inner) == []
