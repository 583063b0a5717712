"""Configs a getattr-by-name factory builds (``dl_lint.analysis.configs.instantiate``, the
victoresque/pytorch-template ``ConfigParser.init_obj`` family): each JSON file the command line
may pick is one run, the class its node names (in the module the call passes) is bound with the
node's ``args`` through the loader-subclass chain, and a crash its values decide is reported at
the JSON line with the loader as related location. The fixture's own ConfigParser, run on each
file with real torch, agrees."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES
from test_configs import _found

ROOT = FIXTURES / "rules" / "instantiate_by_name"
# files whose values dl-lint does not read: batch_size is a --bs option target (given on the
# command line, it replaces the file's value)
UNKNOWN = {"batch_override.json"}


def test_each_json_file_is_a_run():
    assert sorted(_found(ROOT)) == [
        ("configs/debug.json", 8, "DL001"),  # num_workers: 0, BaseDataLoader's prefetch_factor=2
        ("configs/persist.json", 8, "DL001"),
        ("configs/persist.json", 8, "DL002"),  # ... and persistent_workers: true
        # the subclass's own super().__init__ as written: its num_workers parameter may be 0
        # while BaseDataLoader passes prefetch_factor=2 (the loader-subclass DL011)
        ("data_loader/data_loaders.py", 22, "DL011"),
    ]  # config/default_workers: fine; batch_override: a command-line key; unknown_type, not_dict,
    # extra_key, plain (no dataset): no run; not_loader: builds no loader


def test_the_finding_cites_the_loader_and_the_value():
    diag = next(d for d in lint_paths([ROOT]).diagnostics if d.filename.endswith("debug.json"))
    assert (Path(diag.related[0].path).name, diag.related[0].row) == ("train.py", 9)
    assert "RangeDataLoader" in diag.related[0].note
    assert "num_workers=0 (data_loader.args.num_workers)" in diag.detail
    assert Path(diag.filename).name == "debug.json" and diag.location.row == 8


def test_a_run_naming_only_the_json_file_or_the_script_reports_what_the_full_run_does():
    full = {(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([ROOT]).diagnostics}
    json_only = {(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([ROOT / "configs" / "debug.json"]).diagnostics}
    assert json_only == {f for f in full if f[0] == "debug.json"} == {("debug.json", 8, "DL001")}
    script = {(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([ROOT / "train.py"]).diagnostics}
    # the JSON runs rest on train.py (the call); the subclass's own DL011 lives in data_loaders.py alone
    assert script == {f for f in full if f[0] != "data_loaders.py"} and ("data_loaders.py", 22, "DL011") in full


@pytest.mark.torch  # the fixture's own ConfigParser and loaders, with real torch
def test_real_runs_agree(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    for name in [m for m in sys.modules if m.split(".")[0] in {"parse_config", "utils", "base", "data_loader"}]:
        monkeypatch.delitem(sys.modules, name)
    import argparse

    parse_config = importlib.import_module("parse_config")
    module_data = importlib.import_module("data_loader.data_loaders")
    predicted = {Path(d.filename).resolve() for d in lint_paths([ROOT]).diagnostics if d.severity.value == "error"}
    raised = built = 0
    for config in sorted((ROOT / "configs").glob("*.json")):
        parser = argparse.ArgumentParser()
        parser.add_argument("-c", "--config", default=None)
        parser.add_argument("-r", "--resume", default=None)
        monkeypatch.setattr(sys, "argv", ["train.py", "-c", str(config)])
        try:
            parsed = parse_config.ConfigParser.from_args(parser, [])
            loader = parsed.init_obj("data_loader", module_data)
        except ValueError:
            assert config.resolve() in predicted or config.name in UNKNOWN, config.name  # torch raised
            raised += 1
            continue
        except (TypeError, AttributeError, KeyError):
            assert config.resolve() not in predicted, config.name  # no run: dl-lint is silent
            continue
        assert config.resolve() not in predicted, config.name
        for _ in loader if hasattr(loader, "__iter__") else ():
            pass
        built += 1
    assert raised == 3 and built >= 3  # debug, persist, batch_override raise; config, default_workers, not_loader build


def _project(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


PARSER = '''import json
from pathlib import Path


def read_json(fname):
    with Path(fname).open() as handle:
        return json.load(handle)


class Config:
    def __init__(self, config, modification=None):
        self._config = config

    @classmethod
    def from_args(cls, parser):
        args = parser.parse_args()
        config = read_json(args.config)
        return cls(config)

    def build(self, name, module, *args, **kwargs):
        BODY

    def __getitem__(self, name):
        return self.config[name]

    @property
    def config(self):
        return self._config
'''
LOADERS = '''from torch.utils.data import DataLoader


class Loader(DataLoader):
    def __init__(self, size, batch_size=2, num_workers=1, persistent_workers=False):
        super().__init__(range(size), batch_size=batch_size, num_workers=num_workers, persistent_workers=persistent_workers)
'''
SCRIPT = '''import argparse

import loaders as module_data
from parse import Config

parser = argparse.ArgumentParser()
parser.add_argument("-c", "--config", default="configs/run.json")
config = Config.from_args(parser)
loader = config.build(CALL)
'''
RUN = {"data": {"type": "Loader", "args": {"size": 4, "num_workers": 0, "persistent_workers": True}}}

BODIES = {
    "template": ('name_ = self[name]["type"]\n        a = dict(self[name]["args"])\n        assert all(k not in a for k in kwargs)\n        a.update(kwargs)\n        return getattr(module, name_)(*args, **a)', True),
    "config attribute": ('return getattr(module, self.config[name]["type"])(**self.config[name]["args"])', True),
    "no copy": ('t = self[name]["type"]\n        a = self[name]["args"]\n        return getattr(module, t)(*args, **a)', True),
    "other keys": ('return getattr(module, self[name]["cls"])(**self[name]["kwargs"])', True),
    "extra work": ('a = dict(self[name]["args"])\n        a["num_workers"] = 2\n        return getattr(module, self[name]["type"])(**a)', False),
    "another module": ('import os\n        return getattr(os, self[name]["type"])(**self[name]["args"])', False),
    "fixed class": ('return module.Loader(**self[name]["args"])', False),
}


@pytest.mark.parametrize("case", sorted(BODIES))
def test_the_factory_is_recognised_by_what_it_does(tmp_path, case):
    body, read = BODIES[case]
    run = RUN if "cls" not in body else {"data": {"cls": "Loader", "kwargs": RUN["data"]["args"]}}
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": PARSER.replace("BODY", body),
            "loaders.py": LOADERS,
            "train.py": SCRIPT.replace("CALL", '"data", module_data'),
            "configs/run.json": json.dumps(run, indent=4),
        },
    )
    found = [(Path(d.filename).name, d.code) for d in lint_paths([root]).diagnostics]
    assert found == ([("run.json", "DL002")] if read else []), case


CALLS = {
    "keywords": ('name="data", module=module_data', True),
    "extra keyword the node also sets": ('"data", module_data, num_workers=2', False),  # the assert fails: no run
    "extra keyword": ('"data", module_data, batch_size=1', True),
    "a string that is no node": ('"model", module_data', False),
    "a module the script does not import": ('"data", argparse', False),
}


@pytest.mark.parametrize("case", sorted(CALLS))
def test_the_call(tmp_path, case):
    call, read = CALLS[case]
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": PARSER.replace("BODY", BODIES["template"][0]),
            "loaders.py": LOADERS,
            "train.py": SCRIPT.replace("CALL", call),
            "configs/run.json": json.dumps(RUN, indent=4),
        },
    )
    found = [(Path(d.filename).name, d.code) for d in lint_paths([root]).diagnostics]
    assert found == ([("run.json", "DL002")] if read else []), case


CONFIGS = {
    "loaded in __init__": (
        PARSER.replace("self._config = config", "self._config = read_json(config)").replace("config = read_json(args.config)\n        return cls(config)", "return cls(args.config)"),
        True,
    ),
    "built in code": (PARSER.replace("config = read_json(args.config)", 'config = {"data": {"type": "Loader", "args": {}}}'), False),
    "edited by the parser": (PARSER.replace("self._config = config", "self._config = fill(config)") + '\n\ndef fill(config):\n    config["data"] = {"type": "Loader", "args": {"size": 4}}\n    return config\n', False),
    "kept twice": (PARSER.replace("        return self.config[name]", "        self._config = {}\n        return self.config[name]"), False),
}


@pytest.mark.parametrize("case", sorted(CONFIGS))
def test_where_the_config_comes_from(tmp_path, case):
    parser, read = CONFIGS[case]
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": parser.replace("BODY", BODIES["template"][0]),
            "loaders.py": LOADERS,
            "train.py": SCRIPT.replace("CALL", '"data", module_data'),
            "configs/run.json": json.dumps(RUN, indent=4),
        },
    )
    found = [(Path(d.filename).name, d.code) for d in lint_paths([root]).diagnostics]
    assert found == ([("run.json", "DL002")] if read else []), case


def test_the_byte_gate():
    from dl_lint.analysis.configs.instantiate import by_name_candidate

    assert by_name_candidate(b"import data_loader.data_loaders as module_data\nx = config.init_obj('data_loader', module_data)\n")
    assert by_name_candidate(b"from data import loaders\nx = cfg.initialize(name='data_loader', module=loaders)\n")
    assert not by_name_candidate(b"x = config.init_obj('data_loader', module_data)\n")  # nothing imported by that name
    assert not by_name_candidate(b"import os\nx = os.environ.get('HOME')\n")


EDITS = {
    "item": 'config["data"]["args"] = {"size": 4}\n',
    "kept attribute": 'config._config["data"] = {"type": "Loader", "args": {"size": 4}}\n',
    "read as is": "",
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_a_config_the_script_edits_is_unknown(tmp_path, case):
    script = SCRIPT.replace("loader = config.build", EDITS[case] + "loader = config.build").replace("CALL", '"data", module_data')
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": PARSER.replace("BODY", BODIES["template"][0]),
            "loaders.py": LOADERS,
            "train.py": script,
            "configs/run.json": json.dumps(RUN, indent=4),
        },
    )
    found = [(Path(d.filename).name, d.code) for d in lint_paths([root]).diagnostics]
    assert found == ([("run.json", "DL002")] if case == "read as is" else []), case


OPTIONS_SCRIPT = '''import argparse
import collections

import loaders as module_data
from parse import Config

parser = argparse.ArgumentParser()
parser.add_argument("-c", "--config", default="configs/run.json")
CustomArgs = collections.namedtuple("CustomArgs", "flags type target")
options = [CustomArgs(["--nw"], type=int, target="TARGET")]
config = Config.from_args(parser, options)
loader = config.build("data", module_data)
'''
DEFAULT_ZERO = LOADERS.replace("num_workers=1, persistent", "num_workers=0, persistent")
MODULE = '''from torch.utils.data import DataLoader


class Loader:
    def __init__(self, size, num_workers=2):
        self.size = size
        self.num_workers = num_workers

    def train_loader(self):
        return DataLoader(range(self.size), num_workers=self.num_workers, persistent_workers=True)
'''
OVERRIDES = {
    # the file leaves num_workers to the class's default 0; the command line may set it
    "a key the file leaves out": (DEFAULT_ZERO, "data;args;num_workers", {"size": 4, "persistent_workers": True}, []),
    "another key": (DEFAULT_ZERO, "data;args;batch_size", {"size": 4, "persistent_workers": True}, ["DL002"]),
    "a key the file sets": (LOADERS, "data;args;num_workers", {"size": 4, "num_workers": 0, "persistent_workers": True}, []),
    "a key the class does not take": (LOADERS, "data;args;colour", {"size": 4, "num_workers": 0, "persistent_workers": True}, ["DL002"]),
    "a data module's key": (MODULE, "data;args;num_workers", {"size": 4, "num_workers": 0}, []),
    "a data module, another key": (MODULE, "data;args;batch_size", {"size": 4, "num_workers": 0}, ["DL002"]),
    "the whole node": (LOADERS, "data;args", {"size": 4, "num_workers": 0, "persistent_workers": True}, []),
}


@pytest.mark.parametrize("case", sorted(OVERRIDES))
def test_keys_the_command_line_may_set_are_unknown(tmp_path, case):
    loaders, target, args, expected = OVERRIDES[case]
    parser = PARSER.replace("def from_args(cls, parser):", "def from_args(cls, parser, options=()):")
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": parser.replace("BODY", BODIES["template"][0]),
            "loaders.py": loaders,
            "train.py": OPTIONS_SCRIPT.replace("TARGET", target),
            "configs/run.json": json.dumps({"data": {"type": "Loader", "args": args}}, indent=4),
        },
    )
    found = [d.code for d in lint_paths([root]).diagnostics if d.filename.endswith(".json")]
    assert found == expected, case


def test_a_yaml_config_read_the_same_way(tmp_path):
    parser = PARSER.replace("import json", "import yaml").replace("json.load(handle)", "yaml.safe_load(handle)")
    root = _project(
        tmp_path,
        {
            "pyproject.toml": "[tool.dl-lint]\n",
            "parse.py": parser.replace("BODY", BODIES["template"][0]),
            "loaders.py": LOADERS,
            "train.py": SCRIPT.replace("CALL", '"data", module_data').replace("configs/run.json", "configs/run.yaml"),
            "configs/run.yaml": "data:\n  type: Loader\n  args:\n    size: 4\n    num_workers: 0\n    persistent_workers: true\n",
            "configs/other.json": json.dumps(RUN, indent=4),  # not what a YAML loader reads
        },
    )
    assert [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([root]).diagnostics] == [("run.yaml", 5, "DL002")]
