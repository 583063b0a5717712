"""mmengine / MMDetection Python configs (dl_lint.analysis.configs.mmengine): which files count,
_base_ merging, reporting at the deciding key, the results cache, and torch's verdict on the loader
mmengine would build."""

from __future__ import annotations

import os
import runpy
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.mmengine import candidate

from conftest import FIXTURES

MMENGINE = FIXTURES / "rules" / "mmengine_configs"


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _found(root: Path, **kwargs):
    return [(Path(d.filename).resolve().relative_to(root.resolve()).as_posix(), d.location.row, d.code) for d in lint_paths([root], **kwargs).diagnostics]


BASE = "train_dataloader = dict(num_workers=2, persistent_workers=True, dataset=dict(type='X'))\n"


def test_a_plain_dict_is_never_judged(tmp_path):
    root = _project(tmp_path, {"settings.py": "train_dataloader = dict(num_workers=0, persistent_workers=True)\n"})
    assert _found(root) == []


def test_an_mmengine_import_is_evidence(tmp_path):
    source = "from mmengine.runner import Runner\ntrain_dataloader = dict(num_workers=0, persistent_workers=True)\n"
    root = _project(tmp_path, {"train.py": source})
    assert _found(root) == [("train.py", 2, "DL002")]


def test_a_fragment_in_a_base_folder_is_judged_only_through_its_children(tmp_path):
    root = _project(tmp_path, {
        "configs/_base_/data.py": "train_dataloader = dict(num_workers=0, persistent_workers=True)\n",
        "configs/m/a.py": "_base_ = '../_base_/data.py'\ntrain_dataloader = dict(batch_size=2)\n",
    })
    # reported in the child, at its loader dict (it sets none of the keys), the base cited
    result = lint_paths([root]).diagnostics
    assert [(Path(d.filename).name, d.location.row, d.code) for d in result] == [("a.py", 2, "DL002")]
    assert [(Path(r.path).name, r.row) for r in result[0].related] == [("data.py", 1), ("data.py", 1)]


def test_the_key_of_the_file_is_reported_and_the_base_value_cited(tmp_path):
    root = _project(tmp_path, {"configs/_base_/data.py": BASE, "configs/m/a.py": "_base_ = ['../_base_/data.py']\ntrain_dataloader = dict(\n    num_workers=0)\n"})
    (diag,) = lint_paths([root]).diagnostics
    assert (Path(diag.filename).name, diag.location.row, diag.code) == ("a.py", 3, "DL002")
    assert [(Path(r.path).name, r.row, r.note) for r in diag.related] == [("data.py", 1, "train_dataloader.persistent_workers is set here")]


def test_delete_replaces_the_base_dict(tmp_path):
    child = "_base_ = ['../_base_/data.py']\ntrain_dataloader = dict(_delete_=True, num_workers=0, dataset=dict(type='X'))\n"
    root = _project(tmp_path, {"configs/_base_/data.py": BASE, "configs/m/a.py": child})
    assert _found(root) == []


def test_later_edits_and_unreadable_bases_are_unknown(tmp_path):
    root = _project(tmp_path, {
        "configs/_base_/data.py": BASE,
        "configs/m/a.py": "_base_ = ['../_base_/data.py']\ntrain_dataloader = dict(num_workers=0)\ntrain_dataloader['persistent_workers'] = False\n",
        "configs/m/b.py": "_base_ = ['mmdet::_base_/data.py']\ntrain_dataloader = dict(persistent_workers=True)\n",
        "configs/m/c.py": "_base_ = ['../_base_/missing.py']\ntrain_dataloader = dict(persistent_workers=True)\n",
        "configs/m/d.py": "_base_ = ['../_base_/data.py']\nn = 0\ntrain_dataloader = dict(num_workers=n)\n",
        # a base value that is not a dict display: the keys this file does not set are unknown
        "configs/_base_/alias.py": "val_dataloader = dict(num_workers=2)\ntest_dataloader = val_dataloader\n",
        "configs/m/e.py": "_base_ = ['../_base_/alias.py']\ntest_dataloader = dict(persistent_workers=True)\n",
    })
    assert _found(root) == []


def test_a_base_edit_invalidates_the_cached_diagnostics(tmp_path):
    root = _project(tmp_path, {"configs/_base_/data.py": BASE, "configs/m/a.py": "_base_ = ['../_base_/data.py']\ntrain_dataloader = dict(batch_size=2)\n"})
    cache_dir = tmp_path / ".cache"
    assert _found(root, cache=True, cache_dir=cache_dir) == []
    (root / "configs/_base_/data.py").write_text(BASE.replace("num_workers=2", "num_workers=0"))
    assert _found(root, cache=True, cache_dir=cache_dir) == [("configs/m/a.py", 2, "DL002")]


def test_only_files_with_the_words_are_parsed_for_configs():
    assert not candidate(b"x = dict(num_workers=0)\n")
    assert not candidate(b"train_dataloader = dict(num_workers=0)\n")
    assert candidate(b"_base_ = ['a.py']\ntrain_dataloader = dict()\n")
    assert candidate(b"from mmengine.runner import Runner\ntrain_dataloader = dict()\n")
    # the words alone (a docstring, an attribute) are not evidence
    assert not candidate(b'"""see _base_ and mmengine"""\ncfg._base_ = 1\ntrain_dataloader = dict()\n')


# -- torch agrees -------------------------------------------------------------------------------


def _merge(a: dict, b: dict) -> dict:
    """mmengine 0.11.0rc0 Config._merge_a_into_b (config/config.py), without list keys."""
    b = b.copy()
    for k, v in a.items():
        if isinstance(v, dict) and k in b and not v.pop("_delete_", False):
            b[k] = _merge(v, b[k])
        else:
            if isinstance(v, dict):
                v.pop("_delete_", None)
            b[k] = v
    return b


def _config(path: Path) -> dict:
    """What Config.fromfile gives for a fixture config: the file executed, its _base_ files
    (relative paths) executed and merged below it."""
    own = {k: v for k, v in runpy.run_path(str(path)).items() if not k.startswith("__")}
    bases = own.pop("_base_", [])
    merged: dict = {}
    for base in [bases] if isinstance(bases, str) else bases:
        merged.update(_config(Path(os.path.normpath(path.parent / base))))
    return _merge(own, merged)


def _build(loader_cfg: dict):
    """Runner.build_dataloader (mmengine 0.11.0rc0, runner/runner.py) with a toy dataset and no
    seed: the keys it pops are dropped, the rest go to torch's DataLoader."""
    from torch.utils.data import DataLoader

    cfg = dict(loader_cfg)
    cfg.pop("dataset")
    cfg.pop("num_batch_per_epoch", None)
    cfg.pop("sampler")
    if isinstance(cfg.pop("batch_sampler", None), dict):
        cfg.pop("batch_size")
    cfg.pop("worker_init_fn", None)
    cfg.pop("collate_fn", None)
    return DataLoader(dataset=range(8), sampler=None, batch_sampler=None, collate_fn=None, worker_init_fn=None, **cfg)


@pytest.mark.torch
def test_torch_raises_for_every_config_reported_as_a_crash():
    """Each DL001/DL002 in the fixture: the config executed and merged as mmengine does, the
    loader built with the keys Runner.build_dataloader passes, raises the predicted ValueError;
    the configs reported clean (and fully readable) build."""
    import torch  # noqa: F401

    from dl_lint.rules import all_rules

    rules = all_rules()
    diags = lint_paths([MMENGINE]).diagnostics
    assert diags and {d.code for d in diags} <= {"DL001", "DL002"}
    for diag in diags:
        path = Path(diag.filename).resolve()
        cfg = _config(path)
        names = [name for name in cfg if name.endswith("_dataloader") and isinstance(cfg[name], dict)]
        # the loader dict the reported line belongs to: the last assignment above it
        above = path.read_text().splitlines()[: diag.location.row]
        name = next(n for text in reversed(above) for n in names if text.startswith(f"{n} ="))
        exc, text = rules[diag.code].torch_raises
        other = {"DL001": "persistent_workers", "DL002": "prefetch_factor"}[diag.code]
        loader = {k: v for k, v in cfg[name].items() if k != other}  # torch checks one option at a time
        with pytest.raises(exc, match=text):
            _build(loader)
    clean = MMENGINE / "configs" / "faster_rcnn" / "faster_rcnn_r50_fpn_1x_coco.py"
    cfg = _config(clean)
    for name in ("train_dataloader", "val_dataloader"):
        _build(cfg[name])
