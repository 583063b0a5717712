"""Config files a script loads itself, linked by key path (``dl_lint.analysis.configs.keypaths``,
issue 25 §4): the fixture ``fixtures/rules/config_keypaths`` run through the real libraries
(PyYAML, json, HyperPyYAML 1.2.3 of the test extra, tomllib and toml 0.10.2) and real torch, partial runs, the results
cache, and hostile files in a config folder."""

from __future__ import annotations

import ast
import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

FIXTURE = FIXTURES / "rules" / "config_keypaths"
CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")


class _AttrDict(dict):
    """EasyDict's behaviour the fixture relies on: nested keys read as attributes."""

    def __init__(self, data):
        super().__init__({k: _AttrDict(v) if isinstance(v, dict) else v for k, v in data.items()})

    __getattr__ = dict.__getitem__


def _load(script: str, config: Path):
    """(name, object) the script binds its config to, loaded with the library the script uses."""
    if script == "train_yaml.py":
        import yaml

        return "cfg", yaml.safe_load(config.read_text())
    if script == "train_local_names.py":
        import yaml

        return "cfg", yaml.safe_load(config.read_text())
    if script == "train_json.py":
        return "config", _AttrDict(json.loads(config.read_text()))
    if script == "train_set_defaults.py":  # parser.set_defaults(**cfg): the file's keys are the flags' values
        import argparse

        import yaml

        return "args", argparse.Namespace(**yaml.safe_load(config.read_text()))
    if script == "train_toml.py":  # tomllib (3.11+) for the picked file, toml 0.10.2 for the literal one
        if config.parent.name == "settings":
            import toml

            return "fixed", toml.load(str(config))
        try:
            import tomllib
        except ImportError:  # Python < 3.11: the same parser, packaged (a dependency there)
            import tomli as tomllib

        with open(config, "rb") as stream:
            return "settings", tomllib.load(stream)
    if script == "train_hparams.py":
        from hyperpyyaml import load_hyperpyyaml

        with open(config) as fin:
            return "hparams", load_hyperpyyaml(fin, [])
    raise AssertionError(script)


def _call_source(script: Path, row: int) -> str:
    """The source of the DataLoader call that starts on ``row`` of ``script``."""
    tree = ast.parse(script.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DataLoader" and node.lineno == row:
            return ast.unparse(node)
    raise AssertionError(f"no DataLoader call at {script}:{row}")


def _construct(script: str, row: int, config: Path):
    from torch.utils.data import DataLoader

    name, loaded = _load(script, config)
    source = _call_source(next(FIXTURE.rglob(script)), row)  # (local_names/ holds one script)
    return eval(source, {"DataLoader": DataLoader, "range": range, name: loaded})  # noqa: S307 - the fixture's own call


def _runs_reported():
    """(code, script, call row, config file) of every crash the fixture reports from a config file."""
    out = []
    for diag in lint_paths([FIXTURE]).diagnostics:
        if diag.code not in ("DL001", "DL002", "DL004"):
            continue
        places = [Path(diag.filename).resolve(), *(Path(r.path) for r in diag.related)]
        rows = [diag.location.row, *(r.row for r in diag.related)]
        configs = [p for p in places if p.suffix in CONFIG_SUFFIXES]
        calls = [(p, row) for p, row in zip(places, rows) if p.suffix == ".py"]
        if configs and calls:
            out.append((diag.code, calls[0][0].name, calls[0][1], configs[0]))
    return out


@pytest.mark.torch
def test_torch_raises_for_every_config_file_run_reported_as_a_crash():
    """Each crash the key-path links report: the script's own DataLoader call, evaluated with the
    config file loaded by the library the script uses, raises the error the rule predicts."""
    pytest.importorskip("hyperpyyaml")
    from dl_lint.rules import all_rules

    rules = all_rules()
    reported = _runs_reported()
    assert {(code, config.name) for code, _, _, config in reported} >= {
        ("DL002", "debug.yaml"),
        ("DL001", "debug.yaml"),
        ("DL001", "small.json"),
        ("DL004", "small.json"),
        ("DL001", "fast.yaml"),
        ("DL002", "debug.toml"),
        ("DL002", "quick.yaml"),  # local_names/: a helper's local of the same name is not an edit
        ("DL001", "fixed.toml"),
    }
    for code, script, row, config in reported:
        exc, text = rules[code].torch_raises
        with pytest.raises(exc, match=text):
            _construct(script, row, config)


@pytest.mark.torch
@pytest.mark.parametrize(
    "script,row,config",
    [
        ("train_yaml.py", 19, "configs/base.yaml"),  # num_workers: 4
        ("train_yaml.py", 24, "configs/base.yaml"),  # the spread mapping has workers
        ("train_hparams.py", 14, "hparams/train.yaml"),  # no worker option
        ("train_set_defaults.py", 22, "configs/experiments/big.yaml"),  # 16 workers
        ("train_toml.py", 12, "configs/experiments/wide.toml"),  # 16 workers
        ("train_local_names.py", 25, "local_names/configs/full.yaml"),  # 6 workers
    ],
)
def test_runs_not_reported_construct_and_iterate(script, row, config):
    """Runs of the same calls with a safe file are not reported: torch builds and iterates them."""
    pytest.importorskip("hyperpyyaml")
    found = [(s, r, c.relative_to(FIXTURE.resolve()).as_posix()) for _, s, r, c in _runs_reported()]
    assert (script, row, config) not in found
    loader = _construct(script, row, FIXTURE / config)
    assert len(list(loader)) > 0


def test_dl_lint_reads_the_values_the_libraries_read():
    """Every value dl-lint takes from a fixture config file is the value the script's library
    gives (PyYAML, json, HyperPyYAML); the spellings the dialects disagree on are not taken."""
    pytest.importorskip("hyperpyyaml")
    from dl_lint.analysis.configs.keypaths import LoadedConfig, lookup
    from dl_lint.analysis.configs.tomlfile import read_toml
    from dl_lint.analysis.configs.yamlfile import read_yaml

    def data_of(path):
        return Path(path).read_bytes()

    def tree_of(path, dialect):
        return read_toml(path)[1] if dialect == "toml" else read_yaml(path, None, dialect)[1]

    cases = [
        ("train_yaml.py", "configs/base.yaml", "safe", [("data", "num_workers"), ("loader", "prefetch_factor")]),
        ("train_yaml.py", "configs/experiments/debug.yaml", "safe", [("data", "num_workers"), ("data", "quoted_workers")]),
        ("train_json.py", "configs/small.json", "json", [("train", "workers"), ("train", "prefetch"), ("eval_workers",)]),
        ("train_hparams.py", "hparams/debug.yaml", "hyperpyyaml", [("dataloader_opts", "num_workers"), ("valid_dataloader_opts", "persistent_workers"), ("valid_dataloader_opts", "prefetch_factor")]),
        ("train_hparams.py", "hparams/train.yaml", "hyperpyyaml", [("num_workers",), ("dataloader_opts", "num_workers")]),
        ("train_toml.py", "configs/debug.toml", "toml", [("loader", "workers")]),
        ("train_toml.py", "configs/experiments/wide.toml", "toml", [("loader", "workers"), ("loader", "batch", "drop_last"), ("loader", "batch", "size"), ("title",)]),
        ("train_toml.py", "settings/fixed.toml", "toml", [("loader", "workers"), ("loader", "prefetch")]),
    ]
    taken = 0
    for script, name, dialect, keys in cases:
        path = str(FIXTURE / name)
        _, real = _load(script, Path(path))
        for key in keys:
            kind, places = lookup(LoadedConfig((path,), key, dialect), data_of, tree_of)
            expected = real
            for part in key:
                expected = expected[part]
            if kind == "values":
                (value, _, _), = places
                assert value == expected and type(value) is type(expected), (name, key)
                taken += 1
    assert taken >= 6


def test_naming_only_the_config_file_reports_its_findings(run_cli, tmp_path):
    """A run on one config file (pre-commit passes staged YAML) reports what the full run reports
    in it, through the scripts that load it."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    full = lint_paths([root]).diagnostics
    for name in ("configs/experiments/debug.yaml", "hparams/debug.yaml", "configs/small.json", "configs/debug.toml"):
        want = sorted((d.location.row, d.code) for d in full if Path(d.filename).resolve() == (root / name).resolve())
        assert want, name
        got = lint_paths([root / name]).diagnostics
        mine = sorted((d.location.row, d.code) for d in got if Path(d.filename).resolve() == (root / name).resolve())
        assert mine == want, name
    out = run_cli("--no-cache", "configs/experiments/debug.yaml", cwd=root)
    assert out.stdout.startswith(os.path.join("configs", "experiments", "debug.yaml") + ":3:1: DL002"), out.stdout


def _project(tmp_path: Path, files: dict) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


SCRIPT = """
import sys
import yaml
from torch.utils.data import DataLoader

cfg = yaml.safe_load(open(sys.argv[1]))
DataLoader(range(8), num_workers=cfg["data"]["workers"], persistent_workers=True)
"""


def _found(root: Path, **kwargs):
    return sorted((Path(d.filename).resolve().relative_to(root.resolve()).as_posix(), d.location.row, d.code) for d in lint_paths([root], **kwargs).diagnostics)


def test_a_changed_config_file_is_judged_again_with_the_results_cache(tmp_path):
    root = _project(tmp_path / "p", {"train.py": SCRIPT, "configs/a.yaml": "data:\n  workers: 0\n"})
    cache = tmp_path / "cache"
    first = _found(root, cache=True, cache_dir=cache)
    assert ("configs/a.yaml", 2, "DL002") in first
    (root / "configs/a.yaml").write_text("data:\n  workers: 2\n")
    assert ("configs/a.yaml", 2, "DL002") not in _found(root, cache=True, cache_dir=cache)
    (root / "configs/b.yaml").write_text("data:\n  workers: 0\n")  # a new file in the folder: a new run
    assert ("configs/b.yaml", 2, "DL002") in _found(root, cache=True, cache_dir=cache)


def test_files_outside_the_named_places_are_not_runs(tmp_path):
    """Only a literal's file, a flag default's folder and the config folders are read."""
    root = _project(
        tmp_path,
        {
            "train.py": SCRIPT,
            "configs/safe.yaml": "data:\n  workers: 2\n",
            "experiments/other.yaml": "data:\n  workers: 0\n",  # not a config folder, not named
            "configs/model.yaml": "model:\n  workers: 0\n",  # not the key path the code reads
            "fixed.py": 'import yaml\nfrom torch.utils.data import DataLoader\ncfg = yaml.safe_load(open("configs/safe.yaml"))\n'
            'DataLoader(range(8), num_workers=cfg["data"]["workers"], persistent_workers=cfg["data"]["workers"] > 0)\n',
        },
    )
    found = _found(root)
    assert not [f for f in found if f[0].endswith(".yaml")], found


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(os, "symlink"), reason="needs FIFOs and links")
def test_hostile_files_in_a_config_folder_are_not_read(tmp_path):
    """A FIFO, a link out of the project and a huge file in the config folder: refused by the
    guarded reader, silently (they were found by walking); the real run is still judged."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("data:\n  workers: 0\n")
    root = _project(tmp_path / "p", {"train.py": SCRIPT, "configs/real.yaml": "data:\n  workers: 0\n"})
    os.mkfifo(root / "configs" / "fifo.yaml")
    os.symlink(outside, root / "configs" / "link.yaml")
    (root / "configs" / "huge.yaml").write_text("data:\n  workers: 0\n" + "# pad\n" * 800_000)
    found = _found(root)
    assert ("configs/real.yaml", 2, "DL002") in found
    assert not [f for f in found if f[0] != "configs/real.yaml" and f[0].endswith(".yaml")], found
    assert not [f for f in found if f[2] == "DL000"], found


def test_a_config_the_script_edits_is_not_judged_by_its_files(tmp_path):
    script = SCRIPT + 'cfg["data"]["workers"] = 4\n'
    root = _project(tmp_path, {"train.py": script, "configs/a.yaml": "data:\n  workers: 0\n"})
    assert not [f for f in _found(root) if f[0].endswith(".yaml")]


# -- the gaps of the dataclass and Hydra sources (issue 25 §4) --------------------------------------
@pytest.mark.torch
def test_hf_argument_parser_over_project_dataclasses_crashes_as_reported():
    """The fixture's dataclasses parsed by the real HfArgumentParser with no command-line
    arguments give the defaults dl-lint reports; torch raises for the DL001/DL002 calls."""
    pytest.importorskip("transformers")
    import importlib.util
    import sys

    from transformers import HfArgumentParser
    from torch.utils.data import DataLoader

    path = FIXTURES / "rules" / "resolve_hf_dataclasses.py"
    reported = {(d.location.row, d.code) for d in lint_paths([path], overrides={"select": ("ALL",)}).diagnostics}
    assert {(24, "DL002"), (25, "DL001")} <= reported
    spec = importlib.util.spec_from_file_location("hf_fixture", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["hf_fixture"] = module
    try:
        spec.loader.exec_module(module)  # defines the dataclasses; main() is not run
        (data_args,) = HfArgumentParser((module.DataArguments,)).parse_args_into_dataclasses(args=[], look_for_args_file=False)
    finally:
        del sys.modules["hf_fixture"]
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(range(8), num_workers=data_args.num_workers, persistent_workers=True)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        DataLoader(range(8), num_workers=data_args.num_workers, prefetch_factor=data_args.prefetch)
    loader = DataLoader(range(8), num_workers=data_args.eval_workers, persistent_workers=data_args.eval_workers > 0)
    assert len(list(loader)) == 8


def test_hf_argument_parser_with_an_args_file_beside_the_script_is_unknown(tmp_path):
    """parse_args_into_dataclasses reads ``<script>.args`` first when it exists: unknown."""
    source = (FIXTURES / "rules" / "resolve_hf_dataclasses.py").read_text()
    root = _project(tmp_path, {"train.py": source})
    assert ("train.py", 24, "DL002") in _found(root, overrides={"select": ("ALL",)})
    (root / "train.py").with_suffix(".args").write_text("--num_workers 2\n")
    assert ("train.py", 24, "DL002") not in _found(root, overrides={"select": ("ALL",)})


MMENGINE_FROMFILE = FIXTURES / "rules" / "mmengine_fromfile"


def _mmengine_build(loader_cfg: dict):
    """mmengine's own Runner.build_dataloader with a toy dataset registered."""
    from mmengine.registry import DATASETS
    from mmengine.runner import Runner
    from torch.utils.data import Dataset

    class ToyDataset(Dataset):
        def __init__(self, **kwargs):
            pass

        def __len__(self):
            return 8

        def __getitem__(self, index):
            return index

    DATASETS.register_module(module=ToyDataset, force=True)
    return Runner.build_dataloader(dict(loader_cfg))


@pytest.mark.torch
def test_plain_mmengine_configs_loaded_with_fromfile_crash_as_reported():
    """Config modules with no _base_ and no import, loaded by a script with Config.fromfile: each
    DL001/DL002 holds when mmengine reads the file and builds the loader; the clean loader dict
    builds and iterates; files no script loads are not judged."""
    pytest.importorskip("mmengine")
    from mmengine import Config

    from dl_lint.rules import all_rules

    rules = all_rules()
    diags = lint_paths([MMENGINE_FROMFILE]).diagnostics
    reported = {(Path(d.filename).resolve().relative_to(MMENGINE_FROMFILE.resolve()).as_posix(), d.code) for d in diags}
    assert reported == {("configs/plain.py", "DL002"), ("experiments/named.py", "DL001")}
    for diag in diags:
        cfg = Config.fromfile(diag.filename).to_dict()
        exc, text = rules[diag.code].torch_raises
        with pytest.raises(exc, match=text):
            _mmengine_build(cfg["train_dataloader"])
    clean = Config.fromfile(str(MMENGINE_FROMFILE / "configs" / "plain.py")).to_dict()["val_dataloader"]
    assert len(list(_mmengine_build(clean))) == 4


def test_a_plain_config_without_a_fromfile_script_is_not_judged(tmp_path):
    root = _project(tmp_path, {"configs/plain.py": (MMENGINE_FROMFILE / "configs" / "plain.py").read_text()})
    assert _found(root) == []
    (root / "train.py").write_text("from mmengine import Config\ncfg = Config.fromfile('configs/plain.py')\n")
    assert ("configs/plain.py", 4, "DL002") in _found(root)


HYDRA_WRAPPER = FIXTURES / "rules" / "hydra_wrapper"


@pytest.mark.torch
@pytest.mark.parametrize("script,config", [("train", "conf/data/small.yaml"), ("evaluate", "conf/eval.yaml")])
def test_scripts_behind_a_decorator_that_wraps_hydra_main_crash_as_reported(tmp_path, script, config):
    """Run with real Hydra (a project decorator around hydra.main, config_path relative to the
    script): the config file dl-lint reports is the one Hydra composes, and torch raises."""
    pytest.importorskip("hydra")
    import subprocess
    import sys

    reported = {(Path(d.filename).resolve(), d.code) for d in lint_paths([HYDRA_WRAPPER]).diagnostics}
    assert ((HYDRA_WRAPPER / config).resolve(), "DL002") in reported
    root = tmp_path / "w"
    shutil.copytree(HYDRA_WRAPPER, root)
    env = {**os.environ, "PYTHONPATH": str(root), "HYDRA_FULL_ERROR": "1"}
    run = subprocess.run([sys.executable, str(root / "pkg" / f"{script}.py"), f"hydra.run.dir={tmp_path / 'out'}"], cwd=root, capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode != 0 and "persistent_workers option needs num_workers > 0" in run.stderr, run.stderr[-2000:]
    # with the key set to 2 on the command line, the same script builds and iterates its loader
    key = "data.num_workers=2" if script == "train" else "workers=2"
    run = subprocess.run([sys.executable, str(root / "pkg" / f"{script}.py"), key, f"hydra.run.dir={tmp_path / 'out'}"], cwd=root, capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]


def test_a_config_file_named_alone_reaches_a_script_that_never_names_hydra(tmp_path):
    """Naming only the YAML file: the scripts behind a project decorator are read (they need not
    mention Hydra)."""
    root = tmp_path / "w"
    shutil.copytree(HYDRA_WRAPPER, root)
    assert "hydra" not in (root / "pkg" / "evaluate.py").read_text()
    got = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([root / "conf" / "eval.yaml"]).diagnostics]
    assert ("eval.yaml", 1, "DL002") in got


@pytest.mark.torch
def test_a_structured_config_stored_with_config_store_crashes_as_reported(tmp_path):
    """The fixture run with real Hydra: the stored dataclass's default (num_workers=0) reaches
    the loader and torch raises, as DL002 says; data.num_workers=2 on the command line builds."""
    pytest.importorskip("hydra")
    import subprocess
    import sys

    path = FIXTURES / "rules" / "hydra_structured.py"
    reported = {(d.location.row, d.code) for d in lint_paths([path], overrides={"select": ("ALL",)}).diagnostics}
    assert (39, "DL002") in reported and (48, "DL002") not in reported
    script = tmp_path / "app.py"
    shutil.copy(path, script)
    run = subprocess.run([sys.executable, str(script), f"hydra.run.dir={tmp_path / 'out'}"], capture_output=True, text=True, env={**os.environ, "HYDRA_FULL_ERROR": "1"}, timeout=120)
    assert run.returncode != 0 and "persistent_workers option needs num_workers > 0" in run.stderr, run.stderr[-2000:]
    run = subprocess.run([sys.executable, str(script), "data.num_workers=2", f"hydra.run.dir={tmp_path / 'out'}"], capture_output=True, text=True, env={**os.environ, "HYDRA_FULL_ERROR": "1"}, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]


IMPORTED_DATACLASSES = FIXTURES / "rules" / "imported_dataclasses"


@pytest.mark.torch
def test_dataclasses_imported_from_another_module_crash_as_reported(tmp_path):
    """The dataclasses live in configs.py; HfArgumentParser (no arguments) and Hydra's
    ConfigStore (the stored node's defaults) give the defaults dl-lint reports from there, and
    torch raises as it says; with workers on the command line both build."""
    pytest.importorskip("transformers")
    pytest.importorskip("hydra")
    import subprocess
    import sys

    reported = {
        (Path(d.filename).name, d.location.row, d.code, tuple(Path(r.path).name for r in d.related))
        for d in lint_paths([IMPORTED_DATACLASSES]).diagnostics
    }
    assert ("hf_train.py", 11, "DL002", ("configs.py",)) in reported  # the field's line is cited
    assert ("hf_train.py", 12, "DL001", ("configs.py", "configs.py")) in reported
    assert ("hydra_train.py", 16, "DL002", ("configs.py",)) in reported
    copy = tmp_path / "project"
    shutil.copytree(IMPORTED_DATACLASSES, copy)
    env = {**os.environ, "HYDRA_FULL_ERROR": "1"}
    probe = "import sys; sys.argv = ['hf_train.py'] + sys.argv[1:]; import hf_train; hf_train.main()"
    run = subprocess.run([sys.executable, "-c", probe], cwd=copy, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "persistent_workers option needs num_workers > 0" in run.stderr, run.stderr[-2000:]
    run = subprocess.run([sys.executable, "-c", probe, "--loader_workers", "2"], cwd=copy, capture_output=True, text=True, timeout=120)
    assert "persistent_workers option" not in run.stderr and "prefetch_factor option could only be specified" in run.stderr
    run = subprocess.run([sys.executable, "-c", probe, "--loader_workers", "2", "--num_workers", "2"], cwd=copy, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    args = [f"hydra.run.dir={tmp_path / 'out'}"]
    run = subprocess.run([sys.executable, "hydra_train.py", *args], cwd=copy, capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode != 0 and "persistent_workers option needs num_workers > 0" in run.stderr, run.stderr[-2000:]
    run = subprocess.run([sys.executable, "hydra_train.py", "data.num_workers=2", *args], cwd=copy, capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]


def test_imported_classes_of_another_dataclass_decorator_stay_unknown(tmp_path):
    """Only the standard library's ``dataclass`` is read: pydantic's (which validates and
    converts its fields) leaves the fields unknown, as in the script's own module. With the
    standard one, the default is certain (a construction without arguments): DL002."""
    root = _project(
        tmp_path,
        {
            "configs.py": "from pydantic.dataclasses import dataclass\n\n@dataclass\nclass Args:\n    num_workers: int = 0\n",
            "train.py": "from torch.utils.data import DataLoader\nfrom configs import Args\n\n"
            "cfg = Args()\nDataLoader(range(8), num_workers=cfg.num_workers, persistent_workers=True)\n",
        },
    )
    # a config object's attribute it cannot read: configurable (DL011), never the certain DL002
    assert [f for f in _found(root) if f[2] in ("DL002", "DL011")] == [("train.py", 5, "DL011")]
    (root / "configs.py").write_text("from dataclasses import dataclass\n\n@dataclass\nclass Args:\n    num_workers: int = 0\n")
    assert ("train.py", 5, "DL002") in _found(root)


def _fixture_module(path: Path, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.torch
def test_argparse_flags_generated_from_dataclass_fields_crash_as_reported(monkeypatch):
    path = FIXTURES / "rules" / "resolve_argparse_dataclass.py"
    reported = {(d.location.row, d.code) for d in lint_paths([path], overrides={"select": ("ALL",)}).diagnostics}
    assert {(26, "DL002"), (27, "DL001"), (37, "DL002")} <= reported
    module = _fixture_module(path, "argparse_dataclass_fixture")
    monkeypatch.setattr("sys.argv", ["train.py"])
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        module.main()
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        module.from_instance()
    monkeypatch.setattr("sys.argv", ["train.py", "--num_workers", "2"])
    module.main()  # every loader builds with workers


@pytest.mark.parametrize(
    "loop",
    [
        'for f in dataclasses.fields(Args):\n    parser.add_argument(f"--{f.name}", default=f.default, required=True)',
        'for f in dataclasses.fields(Args):\n    parser.add_argument(f"--{f.name}", default=0 if f.name else 1)',
        'for f in dataclasses.fields(Args):\n    parser.add_argument(f"--x-{f.name}", default=f.default)',
        "for k, v in vars(given).items():\n    parser.add_argument('--' + k, default=v)",
    ],
    ids=["required", "other default", "other flag", "another object"],
)
def test_generated_flags_stay_unknown_when_not_the_fields_defaults(tmp_path, loop):
    script = (
        "import argparse\nimport dataclasses\nfrom torch.utils.data import DataLoader\n\n"
        "@dataclasses.dataclass\nclass Args:\n    num_workers: int = 0\n\n"
        "given = Args(num_workers=2)\nparser = argparse.ArgumentParser()\n" + loop + "\n"
        "args = parser.parse_args()\nDataLoader(range(8), num_workers=args.num_workers, persistent_workers=True)\n"
    )
    root = _project(tmp_path, {"train.py": script})
    assert [code for _, _, code in _found(root)] in ([], ["DL011"])


def test_toml_files_give_values_at_their_lines_and_hostile_ones_an_error():
    """configs/tomlfile.py: tomllib's values at the lines a scan of the text finds (a key inside a
    multi-line string or array is not taken for one); a file tomllib rejects, or one nested past
    the recursion limit, is an error with a position, never an exception."""
    from dl_lint.analysis.configs.tomlfile import parse_toml
    from dl_lint.analysis.configs.yamlfile import Tree, YamlError

    text = textwrap.dedent('''\
        notes = """
        workers = 99
        """
        paths = [
          "a = 1",
        ]
        [loader]
        workers = 4  # a comment
        inline = { prefetch = 2, pin = true }
        "quoted key" = 8
        ''')
    tree = parse_toml(text, "c.toml")
    assert isinstance(tree, Tree) and tree.get("workers") is None
    loader = tree.get("loader")
    assert (loader.get("workers").value, loader.get("workers").line, loader.get("workers").column) == (4, 8, 11)
    assert (loader.get("inline").get("prefetch").value, loader.get("inline").get("prefetch").line) == (2, 9)
    assert (loader.get("quoted key").value, loader.get("quoted key").line) == (8, 10)
    broken = parse_toml("[loader]\nworkers = = 4\n", "b.toml")
    assert isinstance(broken, YamlError) and broken.line == 2
    deep = parse_toml("a = " + "[" * 5000 + "]" * 5000 + "\n" + "b = " + "{c = " * 3000 + "1" + "}" * 3000, "d.toml")
    assert isinstance(deep, (Tree, YamlError))
