"""Keyword dicts returned by project functions and spread into a loader (``DataLoader(ds,
**get_dataloader_args(train=True))``, held-out set 27's FLX-1/2), and f-strings of known parts
(``f"cuda:{CUDA_DEVICE}"``): the shapes read, and those left unknown."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.namespaces import returns_dicts


def _function(source: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(source)).body[0]


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    return {'num_workers': 2}\n",
        "def f(x):\n    return dict(num_workers=x)\n",
        "def f(c):\n    if c:\n        return {}\n    return {'pin_memory': True}\n",
        "def f():\n    kw = {'batch_size': 2}\n    kw['pin_memory'] = True\n    return kw\n",
    ],
)
def test_functions_whose_every_return_gives_a_dict(source: str) -> None:
    assert returns_dicts(_function(source))


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    return\n",  # bare: None
        "def f():\n    pass\n",  # no return
        "def f(x):\n    return x\n",  # a parameter: anything
        "def f():\n    return dict(base, num_workers=2)\n",  # keys of base unseen
        "def f(c):\n    if c:\n        return {}\n    return load()\n",  # one return not a dict
        "def f():\n    kw = load()\n    return kw\n",  # a name not assigned a dict
        "def f():\n    yield {}\n    return {}\n",  # a generator
        "def f(c):\n" + "".join(f"    if c == {i}:\n        return {{}}\n" for i in range(5)) + "    return {}\n",  # six returns
    ],
)
def test_functions_left_unknown(source: str) -> None:
    assert not returns_dicts(_function(source))


HELPERS = """\
import torch

DEVICE = 0


def loader_args(workers):
    if not torch.cuda.is_available():
        return {"num_workers": workers, "prefetch_factor": 2}
    return {"num_workers": workers, "prefetch_factor": 2, "pin_memory": True, "pin_memory_device": f"cuda:{DEVICE}"}


def stream():
    yield {"num_workers": 0, "prefetch_factor": 2}
"""


def _project(tmp_path: Path, train: str) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "helpers.py").write_text(HELPERS)
    (tmp_path / "train.py").write_text("from torch.utils.data import DataLoader\nfrom pkg.helpers import loader_args, stream\n" + train)
    (tmp_path / "pyproject.toml").write_text("")
    return tmp_path


def _found(paths, root: Path):
    return sorted((Path(d.filename).name, d.location.row, d.code, d.message) for d in lint_paths([str(p) for p in paths]).diagnostics)


def test_a_dict_returned_by_another_module_is_read_with_the_call_arguments(tmp_path: Path) -> None:
    root = _project(tmp_path, "a = DataLoader([1], **loader_args(0))\nb = DataLoader([1], **loader_args(2))\n")
    found = _found([root / "train.py"], root)
    assert [(name, line, code) for name, line, code, _ in found] == [
        ("train.py", 3, "DL001"),  # loader_args(0): prefetch_factor=2 without workers on every path
        ("train.py", 3, "DL303"),
        ("train.py", 4, "DL303"),
    ]
    assert "pin_memory_device='cuda:0'" in found[1][3] and "(with CUDA)" in found[1][3]


def test_a_name_bound_to_the_call_and_a_generator(tmp_path: Path) -> None:
    root = _project(tmp_path, "kw = loader_args(0)\na = DataLoader([1], **kw)\nb = DataLoader([1], **stream())\n")
    assert [(line, code) for _, line, code, _ in _found([root / "train.py"], root)] == [(4, "DL001"), (4, "DL303")]


def test_f_strings(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        textwrap.dedent(
            """\
            import torch
            from torch.utils.data import DataLoader

            INDEX = 1
            a = DataLoader([1], pin_memory=True, pin_memory_device=f"cuda:{INDEX}")
            b = DataLoader([1], pin_memory=True, pin_memory_device=f"cuda:{INDEX:02d}")
            c = DataLoader([1], pin_memory=True, pin_memory_device=f"cuda:{torch.cuda.current_device()}")
            d = DataLoader([1], pin_memory=True, pin_memory_device=f"{''}")
            """
        )
    )
    found = _found([tmp_path / "train.py"], tmp_path)
    # c: a part unknown; d: the empty text, torch's default (nothing to report)
    assert [(line, code) for _, line, code, _ in found] == [(5, "DL303"), (6, "DL303")]
    assert "'cuda:1'" in found[0][3] and "'cuda:01'" in found[1][3]
