"""mmengine / MMDetection Python configs (dl_lint.analysis.configs.mmengine): which files count,
_base_ merging, reporting at the deciding key, the results cache, and torch's verdict on the loader
mmengine would build."""

from __future__ import annotations

from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.mmengine import candidate

from conftest import FIXTURES
from test_configs import _found, _project  # one project builder for the config tests

MMENGINE = FIXTURES / "rules" / "mmengine_configs"


BASE = "train_dataloader = dict(num_workers=2, persistent_workers=True, dataset=dict(type='X'))\n"


def test_a_plain_dict_is_never_judged(tmp_path):
    root = _project(tmp_path, {"settings.py": "train_dataloader = dict(num_workers=0, persistent_workers=True)\n"})
    assert _found(root) == []


def test_an_mmengine_import_is_evidence(tmp_path):
    source = "from mmengine.runner import Runner\ntrain_dataloader = dict(num_workers=0, persistent_workers=True)\n"
    root = _project(tmp_path, {"train.py": source})
    assert _found(root) == [("train.py", 2, "DL002")]


def test_a_fragment_its_children_override_is_judged_only_through_them(tmp_path):
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
    assert [(Path(r.path).name, r.row, r.note) for r in diag.related] == [
        ("data.py", 1, "persistent_workers=True is set here (train_dataloader.persistent_workers)")
    ]  # the base's value; this file's num_workers=0 is the reported key itself


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


def _config(path: Path) -> dict:
    """What mmengine itself makes of a fixture config (its _base_ files merged below it)."""
    from mmengine import Config

    return Config.fromfile(str(path)).to_dict()


def _build(loader_cfg: dict):
    """mmengine's own Runner.build_dataloader, with the fixture's mmdet types (a dataset and a
    batch sampler) registered as toys: everything but those two is mmengine's and torch's."""
    from mmengine.registry import DATA_SAMPLERS, DATASETS
    from mmengine.runner import Runner
    from torch.utils.data import BatchSampler, Dataset

    class CocoDataset(Dataset):
        def __init__(self, **kwargs):
            pass

        def __len__(self):
            return 8

        def __getitem__(self, index):
            return index

    class AspectRatioBatchSampler(BatchSampler):
        def __init__(self, sampler, batch_size, drop_last=False):
            super().__init__(sampler, batch_size, drop_last)

    DATASETS.register_module(module=CocoDataset, force=True)
    DATA_SAMPLERS.register_module(module=AspectRatioBatchSampler, force=True)
    return Runner.build_dataloader(dict(loader_cfg))


@pytest.mark.torch
def test_torch_raises_for_every_config_reported_as_a_crash():
    """Each DL001/DL002 in the fixture: the config read by mmengine (Config.fromfile) and the
    loader built by mmengine (Runner.build_dataloader) raises the predicted ValueError;
    the configs reported clean (and fully readable) build."""
    import torch  # noqa: F401

    from dl_lint.rules import all_rules

    rules = all_rules()
    diags = lint_paths([MMENGINE]).diagnostics
    assert diags and {d.code for d in diags} <= {"DL001", "DL002"}
    fragments = 0
    for diag in diags:
        path = Path(diag.filename).resolve()
        # a fragment is reported for the runnable config that inherits it unchanged: run that one
        users = [Path(r.path) for r in diag.related if r.note.endswith(" unchanged")]
        if "_base_" in path.parts:
            (user,) = users
            assert not [t for t in user.read_text().splitlines() if t.startswith(("train_dataloader", "val_", "test_"))]
            fragments += 1
        cfg = _config(users[0] if users else path)
        names = [name for name in cfg if name.endswith("_dataloader") and isinstance(cfg[name], dict)]
        # the loader dict the reported line belongs to: the last assignment above it
        above = path.read_text().splitlines()[: diag.location.row]
        name = next(n for text in reversed(above) for n in names if text.startswith(f"{n} ="))
        exc, text = rules[diag.code].torch_raises
        other = {"DL001": "persistent_workers", "DL002": "prefetch_factor"}[diag.code]
        loader = {k: v for k, v in cfg[name].items() if k != other}  # torch checks one option at a time
        with pytest.raises(exc, match=text):
            _build(loader)
    assert fragments == 1
    clean = MMENGINE / "configs" / "faster_rcnn" / "faster_rcnn_r50_fpn_1x_coco.py"
    cfg = _config(clean)
    for name in ("train_dataloader", "val_dataloader"):
        _build(cfg[name])


CRASHING = "train_dataloader = dict(num_workers=0, persistent_workers=True, dataset=dict(type='X'))\nval_dataloader = dict(num_workers=0, persistent_workers=True)\n"


def test_a_fragment_inherited_unchanged_is_reported_once_at_its_key(tmp_path):
    root = _project(tmp_path, {
        "configs/_base_/datasets/data.py": CRASHING,
        "configs/_base_/runtime.py": "default_scope = 'mmdet'\n",
        # two runnable configs inherit train_dataloader unchanged; one writes its own val_dataloader
        "configs/m/a.py": "_base_ = ['../_base_/datasets/data.py', '../_base_/runtime.py']\nval_dataloader = dict(num_workers=2)\n",
        "configs/m/b.py": "_base_ = ['../_base_/datasets/data.py']\nval_dataloader = dict(num_workers=2)\n",
    })
    result = lint_paths([root]).diagnostics
    # at the deciding key of the fragment (num_workers=0), with the first config that uses it cited
    assert [(Path(d.filename).name, d.location.row, d.location.column, d.code) for d in result] == [("data.py", 1, 40, "DL002")]
    assert [(Path(r.path).name, r.row, r.note) for r in result[0].related] == [("a.py", 1, "this config inherits train_dataloader unchanged")]


def test_a_fragment_no_runnable_config_uses_unchanged_is_silent(tmp_path):
    root = _project(tmp_path, {
        "configs/_base_/datasets/data.py": CRASHING,
        "configs/_base_/models/model.py": "_base_ = ['../datasets/data.py']\n",  # a fragment: not runnable
        # writes both dicts: judged itself (reported there, the fragment cited), not the fragment
        "configs/m/a.py": "_base_ = ['../_base_/datasets/data.py']\ntrain_dataloader = dict(num_workers=2)\nval_dataloader = dict(batch_size=1)\n",
        "other/c.py": "_base_ = ['../configs/_base_/datasets/data.py']\n",  # outside the configs tree
    })
    assert _found(root) == [("configs/m/a.py", 3, "DL002")]
