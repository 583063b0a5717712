"""LightningCLI config files (dl_lint.analysis.configs.lightning_cli): each YAML file the CLI can be
run with (``--config``) is one run; a crash its values decide is reported at its YAML line, and the
real LightningCLI (lightning 2.6.6, jsonargparse 4.53.0) with real torch agrees."""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES
from test_configs import _found
from test_configs import _project as _make


def _project(root: Path, files: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    return _make(root, files)

CLI = FIXTURES / "rules" / "lightning_cli"
SUBCLASS = CLI / "subclass"


def test_fixed_classes_each_config_file_is_a_run():
    assert sorted(f for f in _found(CLI) if not f[0].startswith("subclass/")) == [
        ("configs/debug.yaml", 5, "DL001"),  # num_workers: 0 under the default prefetch_factor=2
        ("configs/debug.yaml", 5, "DL002"),  # ... and the default persistent_workers=True
        ("configs/model_debug.yaml", 3, "DL002"),  # model: the LightningModule's own loader
        ("datamodule.py", 18, "DL011"),  # the Python call itself (as before)
        ("datamodule.py", 23, "DL011"),
    ]  # fast/debug_fixed: fine; quiet: noqa in the YAML; sweep/typo: jsonargparse rejects them


def test_subclass_mode_reads_class_path_init_args_and_the_plain_form():
    assert sorted(_found(SUBCLASS)) == [
        ("configs/base_plain.yaml", 3, "DL002"),
        ("configs/tiny_debug.yaml", 4, "DL001"),
        ("loaders/data.py", 23, "DL011"),
        ("loaders/data.py", 35, "DL011"),
    ]  # tiny.yaml, base_init_args.yaml: fine; unrelated.yaml: not a BaseData (rejected); elsewhere.yaml: not a project class


def test_the_finding_points_at_the_dataloader_and_teaches():
    diag = next(d for d in lint_paths([CLI]).diagnostics if d.filename.endswith("model_debug.yaml"))
    assert "overridable: --model.loader_workers=..." in diag.detail and "overridable" not in diag.message
    assert diag.related[0].path == os.path.abspath(CLI / "model.py") and diag.related[0].row == 23
    assert "persistent_workers" in diag.detail


MAIN = """\
from lightning.pytorch.cli import LightningCLI
from dm import DM

LightningCLI(None, DM{extra})
"""
DM = """\
import lightning.pytorch as pl
from torch.utils.data import DataLoader


class DM(pl.LightningDataModule):
    def __init__(self, num_workers: int = 2, persistent_workers: bool = True):
        super().__init__()
        self.num_workers = num_workers
        self.persistent_workers = persistent_workers

    def train_dataloader(self):
        return DataLoader(range(8), num_workers=self.num_workers, persistent_workers=self.persistent_workers)
"""


def test_default_config_files_are_the_base_of_every_run(tmp_path):
    extra = ', parser_kwargs={"default_config_files": ["defaults.yaml"]}'
    root = _project(
        tmp_path,
        {
            "main.py": MAIN.format(extra=extra),
            "dm.py": DM,
            "defaults.yaml": "data:\n  num_workers: 0\n",
            "configs/workers.yaml": "data:\n  num_workers: 4\n",
            "configs/keep.yaml": "data:\n  persistent_workers: true\n",
        },
    )
    # defaults.yaml alone crashes; keep.yaml over it still has num_workers: 0 (from defaults.yaml)
    assert sorted(_found(root)) == [("defaults.yaml", 2, "DL002"), ("dm.py", 12, "DL011")]


def _yaml(root):
    return [f for f in _found(root) if f[0].endswith(".yaml")]


def test_unknowns_stay_silent(tmp_path):
    files = {"dm.py": DM, "configs/zero.yaml": "data:\n  num_workers: 0\n"}
    cases = [
        ', parser_kwargs={"default_config_files": ["missing/*.yaml"]}',  # read from the working directory
        ", parser_kwargs=kwargs",
        ', args=["--config", "x.yaml"]',
        ", subclass_mode_data=flag",
        ', parser_kwargs={"parser_mode": "jsonnet"}',
        ', parser_kwargs={"fit": {"default_config_files": ["configs/zero.yaml"]}}',
    ]
    plain = _project(tmp_path / "plain", {**files, "main.py": MAIN.format(extra="")})
    assert _yaml(plain) == [("configs/zero.yaml", 2, "DL002")]  # the control: each case below only adds an unknown
    for number, extra in enumerate(cases):
        root = _project(tmp_path / str(number), {**files, "main.py": MAIN.format(extra=extra)})
        assert _yaml(root) == [], extra
    sub = _project(tmp_path / "sub", {**files, "main.py": "from lightning.pytorch.cli import LightningCLI as L\nfrom dm import DM\n\nclass CLI(L):\n    pass\n\nCLI(None, DM)\n"})
    assert _yaml(sub) == []  # a subclass of LightningCLI: its parser may differ
    tagged = _project(tmp_path / "tag", {**files, "main.py": MAIN.format(extra=""), "configs/zero.yaml": "data:\n  num_workers: !env W\n"})
    assert _yaml(tagged) == []
    interpolated = _project(
        tmp_path / "omegaconf",
        {
            **files,
            "main.py": MAIN.format(extra=', parser_kwargs={"parser_mode": "omegaconf"}'),
            # OmegaConf resolves it to false: no crash, though the text "${...}" is truthy
            "configs/zero.yaml": "trainer:\n  enable_progress_bar: false\ndata:\n  num_workers: 0\n  persistent_workers: ${trainer.enable_progress_bar}\n",
        },
    )
    assert _yaml(interpolated) == []
    omegaconf = _project(tmp_path / "omegaconf2", {**files, "main.py": MAIN.format(extra=', parser_kwargs={"parser_mode": "omegaconf"}')})
    assert _yaml(omegaconf) == [("configs/zero.yaml", 2, "DL002")]  # plain values read as in YAML mode


def test_no_yaml_is_read_without_lightningcli(tmp_path, monkeypatch):
    from dl_lint.analysis.configs import lightning_cli

    root = _project(tmp_path, {"dm.py": DM, "configs/zero.yaml": "data:\n  num_workers: 0\n"})
    monkeypatch.setattr(lightning_cli, "_read", lambda *a: pytest.fail("read a YAML file"))
    assert _yaml(root) == []


# -- the real LightningCLI ------------------------------------------------------------------------


def _loader_rows(path: Path, cls: str) -> dict:
    """method name of class ``cls`` -> row of the DataLoader call it makes (one each here)."""
    rows = {}
    owner = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef) and n.name == cls)
    for node in owner.body:
        if isinstance(node, ast.FunctionDef):
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "DataLoader":
                    rows[(node.name)] = call.lineno
    return rows


def _runs(root: Path, make_cli, groups):
    """For each YAML config: the real CLI's objects, each loader method raising or iterating as
    dl-lint's findings in that file predict."""
    import re
    import shutil

    # dl-lint's verdicts without the fixture's ``# noqa`` comments (a suppressed crash still crashes)
    copy = Path(tempfile.mkdtemp()) / "copy"
    shutil.copytree(root, copy)
    for config in copy.rglob("*.yaml"):
        config.write_text(re.sub(r"#\s*noqa.*", "", config.read_text()))
    diags = lint_paths([copy]).diagnostics

    def back(path: str) -> Path:
        return (root / Path(path).resolve().relative_to(copy.resolve())).resolve()

    predicted = {}
    for d in diags:
        if d.filename.endswith(".yaml"):
            loader = d.related[0]
            predicted.setdefault(back(d.filename), set()).add((back(loader.path), loader.row))
    shutil.rmtree(copy.parent)
    checked = 0
    for config in sorted((root / "configs").glob("*.yaml")):
        try:
            cli = make_cli(["--config", str(config)])
        except (SystemExit, TypeError):  # jsonargparse rejects the file: there is no run, dl-lint is silent
            assert config.resolve() not in predicted, config
            continue
        for group, module_path in groups:
            obj = getattr(cli, group)
            source = Path(sys.modules[type(obj).__module__].__file__).resolve()
            for method, row in _loader_rows(source, type(obj).__name__).items():
                crash = (source, row) in predicted.get(config.resolve(), set())
                if crash:
                    with pytest.raises(ValueError):
                        getattr(obj, method)()
                else:
                    for _ in getattr(obj, method)():
                        pass
                checked += 1
    return checked


@pytest.fixture
def fixture_path(monkeypatch, tmp_path):
    def enter(root: Path, names):
        monkeypatch.syspath_prepend(str(root))
        monkeypatch.chdir(tmp_path)
        for name in names:
            monkeypatch.delitem(sys.modules, name, raising=False)

    return enter


@pytest.mark.torch
def test_real_lightningcli_fixed_classes(fixture_path):
    pytest.importorskip("lightning")
    pytest.importorskip("jsonargparse")
    from lightning.pytorch.cli import LightningCLI

    fixture_path(CLI, ["datamodule", "model"])
    from datamodule import RandomDataModule
    from model import LitRegressor

    def make(args):
        return LightningCLI(LitRegressor, RandomDataModule, args=args, run=False, save_config_callback=None)

    assert _runs(CLI, make, [("datamodule", "datamodule.py"), ("model", "model.py")]) >= 12


@pytest.mark.torch
def test_real_lightningcli_subclass_mode(fixture_path):
    pytest.importorskip("lightning")
    pytest.importorskip("jsonargparse")
    from lightning.pytorch.cli import LightningCLI

    fixture_path(SUBCLASS, ["loaders", "loaders.data", "loaders.net"])
    from loaders.data import BaseData
    from loaders.net import Net

    def make(args):
        return LightningCLI(Net, BaseData, subclass_mode_data=True, args=args, run=False, save_config_callback=None)

    assert _runs(SUBCLASS, make, [("datamodule", "")]) >= 4


def test_a_config_file_named_explicitly_reports_what_the_cli_script_finds(tmp_path, run_cli):
    """pre-commit passes the staged YAML files: a LightningCLI script's runs report them."""
    _project(tmp_path, {"main.py": MAIN.format(extra=""), "dm.py": DM, "configs/zero.yaml": "data:\n  num_workers: 0\n", "other.yaml": "num_workers: 0\n"})
    out = run_cli("--no-cache", "configs/zero.yaml")
    assert out.returncode == 1 and out.stdout.startswith(os.path.join("configs", "zero.yaml") + ":2:1: DL002"), out.stdout
    assert not any(line.startswith("dm.py") for line in out.stdout.splitlines())  # its own DL011: not named
    assert run_cli("--no-cache", "other.yaml").returncode == 0


def test_an_edit_of_the_datamodule_or_the_config_invalidates_the_cache(tmp_path):
    root = _project(tmp_path, {"main.py": MAIN.format(extra=""), "dm.py": DM, "configs/zero.yaml": "data:\n  num_workers: 0\n"})
    cache_dir = tmp_path / ".cache"
    assert _yaml_cached(root, cache_dir) == [("configs/zero.yaml", 2, "DL002")]
    assert _yaml_cached(root, cache_dir) == [("configs/zero.yaml", 2, "DL002")]
    (root / "configs/zero.yaml").write_text("data:\n  num_workers: 2\n")
    assert _yaml_cached(root, cache_dir) == []
    (root / "configs/zero.yaml").write_text("data:\n\n  num_workers: 0\n")
    assert _yaml_cached(root, cache_dir) == [("configs/zero.yaml", 3, "DL002")]
    (root / "dm.py").write_text(DM.replace("persistent_workers: bool = True", "persistent_workers: bool = False"))
    assert _yaml_cached(root, cache_dir) == []


def _yaml_cached(root, cache_dir):
    return [f for f in _found(root, cache=True, cache_dir=cache_dir) if f[0].endswith(".yaml")]


DM_AND_PLAIN = DM + '''

class NotDM:
    def __init__(self, num_workers: int = 2, persistent_workers: bool = True):
        self.num_workers = num_workers

    def train_dataloader(self):
        return DataLoader(range(8), num_workers=self.num_workers, persistent_workers=True)
'''


def test_lightning_root_classes_take_any_project_subclass_once_per_line(tmp_path):
    """``LightningCLI(LightningModule, LightningDataModule, subclass_mode_...=True)`` and
    ``LightningCLI()``: a class_path naming a LightningDataModule subclass is a run (reported once
    though both scripts read it); one naming another class is rejected by jsonargparse."""
    root = _project(
        tmp_path,
        {
            "dm.py": DM_AND_PLAIN,
            "a.py": "from lightning.pytorch.cli import LightningCLI\nfrom lightning.pytorch import LightningModule, LightningDataModule\n\n"
            "LightningCLI(LightningModule, LightningDataModule, subclass_mode_model=True, subclass_mode_data=True)\n",
            "b.py": "from lightning.pytorch.cli import LightningCLI\n\nLightningCLI()\n",
            "configs/x.yaml": "data:\n  class_path: dm.DM\n  init_args:\n    num_workers: 0\n",
            "configs/y.yaml": "data:\n  class_path: dm.NotDM\n  init_args:\n    num_workers: 0\n",
            "configs/plain.yaml": "data:\n  num_workers: 0\n",  # no class given: the plain form is rejected
        },
    )
    assert _yaml(root) == [("configs/x.yaml", 4, "DL002")]


def test_the_byte_gate_wants_a_call_and_an_import_from_a_cli_module():
    from dl_lint.analysis.configs.lightning_cli import candidate

    assert candidate(b"from lightning.pytorch.cli import LightningCLI\n\nLightningCLI(M, D)\n")
    assert candidate(b"from pytorch_lightning.utilities.cli import (\n    LightningCLI,\n)\nLightningCLI(M)\n")
    assert candidate(b"from lightning.pytorch import cli\ncli.LightningCLI(M)\n")
    assert not candidate(b"class LightningCLI:\n    def f(self):\n        return LightningCLI(self)\n")  # Lightning's cli.py
    assert not candidate(b"from lightning.pytorch.cli import LightningCLI\n# see LightningCLI docs\n")  # no call


def test_a_script_without_config_files_nearby_is_not_parsed(tmp_path):
    """A LightningCLI script whose folder holds no YAML, with no config folder there or at the
    project root (and no default_config_files), cannot be run with a config file of the
    project: it is not parsed for one. A YAML file beside it makes it a candidate."""
    from dl_lint.analysis.configs.lightning_cli import may_have_configs

    (tmp_path / "pyproject.toml").write_text("")
    script = tmp_path / "examples" / "main.py"
    script.parent.mkdir()
    data = b"from lightning.pytorch.cli import LightningCLI\n\nLightningCLI(M, D)\n"
    script.write_bytes(data)
    assert not may_have_configs(str(script), str(tmp_path), data)
    assert not may_have_configs(str(script), None, data)  # the root is found from the script
    (tmp_path / "conf").mkdir()
    assert may_have_configs(str(script), None, data)
    (tmp_path / "conf").rmdir()
    assert may_have_configs(str(script), str(tmp_path), data.replace(b"(M, D)", b"(M, D, parser_kwargs={'default_config_files': ['x.yaml']})"))
    (tmp_path / "configs").mkdir()
    assert may_have_configs(str(script), str(tmp_path), data)
    (tmp_path / "configs").rmdir()
    (script.parent / "fast.yml").write_text("data:\n  num_workers: 0\n")
    assert may_have_configs(str(script), str(tmp_path), data)
    result = lint_paths([tmp_path / "examples" / "main.py"], jobs=1)
    assert result.files_parsed == 1
    (script.parent / "fast.yml").unlink()
    assert lint_paths([tmp_path / "examples" / "main.py"], jobs=1).files_parsed == 0
