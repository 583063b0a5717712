"""Config files a project helper loads and returns (``keypaths.returned_config``, issue 25 §3):
``p = create_config(args.config_env, args.config_exp)`` then ``get_train_dataloader(p, ds)`` in
another module. The fixture ``fixtures/rules/config_helper`` is run through its own code (the
helpers and factories, PyYAML, json) and real torch; partial runs (issue 26), the results cache,
and the shapes that must stay silent."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
import textwrap
import types
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

FIXTURE = FIXTURES / "rules" / "config_helper"
CONFIG_SUFFIXES = (".yaml", ".yml", ".json")


def _module(name: str, relative: str):
    """A fixture module, imported under its own name (``easydict`` stubbed when not installed:
    an attribute dict, which is all the fixture uses of it)."""
    if "easydict" not in sys.modules:
        try:
            import easydict  # noqa: F401
        except ImportError:
            stub = types.ModuleType("easydict")

            class EasyDict(dict):
                __getattr__ = dict.__getitem__

            stub.EasyDict = EasyDict
            sys.modules["easydict"] = stub
    spec = importlib.util.spec_from_file_location(name, FIXTURE / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call_source(script: Path, row: int) -> str:
    tree = ast.parse(script.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DataLoader" and node.lineno == row:
            return ast.unparse(node)
    raise AssertionError(f"no DataLoader call at {script}:{row}")


def _loader(loader_path: Path, row: int, config: Path):
    """The loader at ``loader_path:row`` built with ``config`` loaded by the fixture's helper."""
    helpers = _module("fixture_config_helper_config", "utils/config.py")
    if loader_path.name == "loaders.py":
        factories = _module("fixture_config_helper_loaders", "data/loaders.py")
        function = {6: factories.get_train_dataloader, 10: factories.get_val_dataloader}[row]
        return function(helpers.create_config(str(FIXTURE / "configs/env.yml"), str(config)), list(range(8)))
    if loader_path.name == "train_json.py":
        from torch.utils.data import DataLoader

        cfg = helpers.load_json(str(config))
        return eval(_call_source(loader_path, row), {"DataLoader": DataLoader, "list": list, "range": range, "cfg": cfg})  # noqa: S307
    raise AssertionError(loader_path)


def _crashes():
    """(code, loader file, loader row, config file) of every crash the fixture reports from a config file."""
    out = []
    for diag in lint_paths([FIXTURE]).diagnostics:
        if diag.code not in ("DL001", "DL002", "DL004", "DL010"):
            continue
        places = [(Path(diag.filename).resolve(), diag.location.row), *((Path(r.path), r.row) for r in diag.related)]
        configs = [p for p, _ in places if p.suffix in CONFIG_SUFFIXES]
        loaders = [(p, row) for p, row in places if p.name in ("loaders.py", "train_json.py")]
        assert configs and loaders, diag
        out.append((diag.code, loaders[0][0], loaders[0][1], configs[0]))
    return out


@pytest.mark.torch
def test_torch_raises_for_every_crash_reported_through_a_helper_config():
    """Each crash: the factory (or the script's loader), built with the config the project's own
    helper loads from that file, raises the error the rule predicts."""
    from dl_lint.rules import all_rules

    rules = all_rules()
    reported = _crashes()
    assert {(code, config.name) for code, _, _, config in reported} == {
        ("DL002", "scan_debug.yml"),
        ("DL001", "scan_debug.yml"),
        ("DL004", "scan_negative.yml"),
        ("DL010", "scan_zero_batch.yml"),
        ("DL001", "small.json"),
    }
    for code, loader_path, row, config in reported:
        exc, text = rules[code].torch_raises
        with pytest.raises(exc, match=text):
            _loader(loader_path, row, config)


def test_crashes_are_reported_at_the_config_line_with_the_loader_cited():
    diags = [d for d in lint_paths([FIXTURE]).diagnostics if d.code in ("DL001", "DL002") and d.filename.endswith(".yml")]
    assert sorted((Path(d.filename).name, d.location.row, d.code) for d in diags) == [
        ("scan_debug.yml", 4, "DL001"),
        ("scan_debug.yml", 4, "DL002"),
    ]
    for diag in diags:
        assert any(Path(r.path).name == "loaders.py" for r in diag.related), diag.related
        calls = [(Path(r.path).name, r.row) for r in diag.related if Path(r.path).suffix == ".py" and Path(r.path).name != "loaders.py"]
        assert calls == [("scan.py", 16 if diag.code == "DL002" else 17)]  # the call that hands the factory the config


@pytest.mark.torch
@pytest.mark.parametrize("row", [6, 10])
@pytest.mark.parametrize("config", ["scan_good.yml"])
def test_a_safe_config_builds_and_iterates(row, config):
    path = FIXTURE / "configs" / "scan" / config
    assert not [c for c in _crashes() if c[3] == path.resolve()]
    loader = _loader(FIXTURE / "data" / "loaders.py", row, path)
    assert len(list(loader)) > 0


@pytest.mark.torch
def test_keys_the_script_or_the_helper_sets_are_not_the_files_values():
    """evaluate.py: ``eval_config`` sets num_workers itself, the script sets num_workers and
    batch_size on ``create_config``'s result, ``merged_config`` merges two files: none of their
    loaders is reported for scan_debug.yml's ``num_workers: 0``; the edited ones build."""
    found = lint_paths([FIXTURE]).diagnostics
    assert not [d for d in found if Path(d.filename).name == "evaluate.py" and d.code != "DL011"]
    assert not [d for d in found if any(Path(r.path).name == "evaluate.py" for r in d.related)]
    helpers = _module("fixture_config_helper_config", "utils/config.py")
    from torch.utils.data import DataLoader

    cfg = helpers.eval_config(str(FIXTURE / "configs/scan/scan_debug.yml"))
    assert len(list(DataLoader(list(range(8)), batch_size=4, num_workers=cfg["num_workers"], persistent_workers=True))) == 2
    factories = _module("fixture_config_helper_loaders", "data/loaders.py")
    p = helpers.create_config(str(FIXTURE / "configs/env.yml"), str(FIXTURE / "configs/scan/scan_debug.yml"))
    p["num_workers"] = 2
    p["batch_size"] = 4
    assert len(list(factories.get_train_dataloader(p, list(range(8))))) == 2


def test_files_without_the_keys_are_not_judged():
    found = lint_paths([FIXTURE]).diagnostics
    named = {Path(d.filename).name for d in found} | {Path(r.path).name for d in found for r in d.related}
    assert not named & {"scan_nokeys.yml", "scan_good.yml", "env.yml"}


def _rows(diags, name):
    return sorted((d.location.row, d.code) for d in diags if Path(d.filename).resolve() == (FIXTURE / name).resolve())


@pytest.mark.parametrize(
    "named",
    ["configs/scan/scan_debug.yml", "configs/scan/scan_negative.yml", "configs/json/small.json", "scan.py", "data/loaders.py", "train_json.py"],
)
def test_a_run_naming_one_file_reports_what_the_full_run_reports_there(named):
    """Issue 26: the YAML (or JSON) file alone, the script alone, the factory module alone."""
    full = lint_paths([FIXTURE]).diagnostics
    want = _rows(full, named)
    cwd = os.getcwd()
    os.chdir(FIXTURE)
    try:
        got = _rows(lint_paths([Path(named)]).diagnostics, named)
    finally:
        os.chdir(cwd)
    assert got == want
    if named in ("configs/scan/scan_debug.yml", "configs/json/small.json", "scan.py"):
        assert want  # the file holds findings: the partial run must find them


def _project(tmp_path: Path, files: dict) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _found(root: Path, **kwargs):
    return sorted(
        (Path(d.filename).resolve().relative_to(root.resolve()).as_posix(), d.location.row, d.code)
        for d in lint_paths([root], **kwargs).diagnostics
    )


SCRIPT = """\
import argparse
from torch.utils.data import DataLoader
from helpers import load

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/a.yaml")
args = parser.parse_args()
cfg = load(args.config)
DataLoader(range(8), num_workers=cfg["data"]["workers"], persistent_workers=True)
"""
CONFIG = "data:\n  workers: 0\n"


@pytest.mark.parametrize(
    "body",
    [
        "def load(path):\n    with open(path) as f:\n        return yaml.safe_load(f)\n",
        "def load(path):\n    return EasyDict(yaml.safe_load(open(path)))\n",
        "def load(path):\n    cfg = yaml.load(open(path), Loader=yaml.SafeLoader)\n    return dict(cfg)\n",
        "def load(path):\n    with open(path) as f:\n        loaded = yaml.safe_load(f)\n    out = {}\n    out.update(loaded)\n    out['name'] = 'x'\n    return out\n",
        "def load(path):\n    loaded = yaml.safe_load(Path(path).read_text())\n    out = EasyDict()\n    for key, value in loaded.items():\n        out[key] = value\n    return out\n",
        "def load(path='configs/a.yaml'):\n    return OmegaConf.load(path)\n",
    ],
)
def test_helper_shapes_that_hand_back_the_file(tmp_path, body):
    helpers = "import yaml\nfrom pathlib import Path\nfrom easydict import EasyDict\nfrom omegaconf import OmegaConf\n\n\n" + body
    root = _project(tmp_path, {"train.py": SCRIPT, "helpers.py": helpers, "configs/a.yaml": CONFIG})
    assert ("configs/a.yaml", 2, "DL002") in _found(root)


@pytest.mark.parametrize(
    "body",
    [
        # the helper sets the key (or a key above it) itself
        "def load(path):\n    cfg = yaml.safe_load(open(path))\n    cfg['data']['workers'] = 2\n    return cfg\n",
        "def load(path):\n    cfg = yaml.safe_load(open(path))\n    cfg['data'] = {'workers': 2}\n    return cfg\n",
        # two files merged
        "def load(path):\n    cfg = yaml.safe_load(open(path))\n    cfg.update(yaml.safe_load(open('configs/b.yaml')))\n    return cfg\n",
        "def load(path):\n    out = {}\n    for k, v in yaml.safe_load(open(path)).items():\n        out[k] = v\n    out.update(yaml.safe_load(open('configs/b.yaml')))\n    return out\n",
        # a file the code names from pieces, another value on some return, a rebound name
        "def load(path):\n    return yaml.safe_load(open(os.path.join(path, 'x.yaml')))\n",
        "def load(path):\n    if not path:\n        return {}\n    return yaml.safe_load(open(path))\n",
        "def load(path):\n    cfg = yaml.safe_load(open(path))\n    if cfg is None:\n        cfg = {}\n    return cfg\n",
        # a generator, and the stream's path rebound in the helper
        "def load(path):\n    yield yaml.safe_load(open(path))\n",
        "def load(path):\n    path = path + '.yaml'\n    return yaml.safe_load(open(path))\n",
    ],
)
def test_helper_shapes_that_stay_unknown(tmp_path, body):
    helpers = "import os\nimport yaml\n\n\n" + body
    files = {"train.py": SCRIPT, "helpers.py": helpers, "configs/a.yaml": CONFIG, "configs/b.yaml": "data:\n  workers: 4\n"}
    root = _project(tmp_path, files)
    assert not [f for f in _found(root) if f[2] in ("DL001", "DL002")]


def test_the_script_setting_the_key_silences_it(tmp_path):
    script = SCRIPT.replace("cfg = load(args.config)\n", "cfg = load(args.config)\nif args.config:\n    cfg['data']['workers'] = 4\n")
    helpers = "import yaml\n\n\ndef load(path):\n    return yaml.safe_load(open(path))\n"
    root = _project(tmp_path, {"train.py": script, "helpers.py": helpers, "configs/a.yaml": CONFIG})
    assert not [f for f in _found(root) if f[2] in ("DL001", "DL002")]


def test_a_helper_of_the_script_itself(tmp_path):
    script = SCRIPT.replace("from helpers import load\n", "import yaml\n\n\ndef load(path):\n    with open(path) as f:\n        return yaml.safe_load(f)\n\n\n")
    root = _project(tmp_path, {"train.py": script, "configs/a.yaml": CONFIG})
    assert ("configs/a.yaml", 2, "DL002") in _found(root)


def test_the_results_cache_follows_the_helper_and_the_file(tmp_path):
    helpers = "import yaml\n\n\ndef load(path):\n    return yaml.safe_load(open(path))\n"
    root = _project(tmp_path / "p", {"train.py": SCRIPT, "helpers.py": helpers, "configs/a.yaml": CONFIG})
    cache = tmp_path / "cache"
    assert ("configs/a.yaml", 2, "DL002") in _found(root, cache=True, cache_dir=cache)
    assert ("configs/a.yaml", 2, "DL002") in _found(root, cache=True, cache_dir=cache)  # from the cache
    (root / "helpers.py").write_text(helpers.replace("    return", "    cfg = yaml.safe_load(open(path))\n    cfg['data']['workers'] = 2\n    return cfg\n    return"))
    assert ("configs/a.yaml", 2, "DL002") not in _found(root, cache=True, cache_dir=cache)
    (root / "helpers.py").write_text(helpers)
    (root / "configs/a.yaml").write_text("data:\n  workers: 2\n")
    assert ("configs/a.yaml", 2, "DL002") not in _found(root, cache=True, cache_dir=cache)


def test_get_of_a_config_handed_to_a_factory(tmp_path):
    """``cfg.get("num_workers", 2)`` in a factory of another module: a file that sets the key
    is a run; a file without it takes the fallback (not judged)."""
    files = {
        "helpers.py": "import yaml\n\n\ndef load(path):\n    with open(path) as f:\n        return yaml.safe_load(f)\n",
        "factory.py": (
            "from torch.utils.data import DataLoader\n\n\ndef make(cfg, ds):\n"
            "    return DataLoader(ds, num_workers=cfg.get('num_workers', 2), persistent_workers=True)\n"
        ),
        "train.py": SCRIPT.split("DataLoader(range(8)")[0].replace("from helpers import load\n", "from helpers import load\nfrom factory import make\n") + "make(cfg, range(8))\n",
        "configs/a.yaml": "num_workers: 0\n",
        "configs/b.yaml": "other: 1\n",
    }
    found = _found(_project(tmp_path, files))
    assert ("configs/a.yaml", 1, "DL002") in found
    assert not [f for f in found if f[0] == "configs/b.yaml"]


def test_several_calls_one_config_line_one_diagnostic_citing_each_call(tmp_path):
    helpers = "import yaml\n\n\ndef load(path):\n    with open(path) as f:\n        return yaml.safe_load(f)\n"
    factory = (
        "from torch.utils.data import DataLoader\n\n\ndef make(cfg, ds):\n"
        "    return DataLoader(ds, num_workers=cfg['num_workers'], persistent_workers=True)\n"
    )
    script = "import sys\nfrom helpers import load\nfrom factory import make\n\nmake(load(sys.argv[1]), range(8))\n"
    files = {"helpers.py": helpers, "factory.py": factory, "a.py": script, "b.py": script, "configs/x.yaml": "num_workers: 0\n"}
    root = _project(tmp_path, files)
    found = [d for d in lint_paths([root]).diagnostics if d.code == "DL002"]
    assert len(found) == 1 and Path(found[0].filename).name == "x.yaml"
    assert sorted(Path(r.path).name for r in found[0].related if Path(r.path).name in ("a.py", "b.py")) == ["a.py", "b.py"]
