"""Configs the project instantiates itself (dl_lint.analysis.configs.instantiate): the
taming-transformers / latent-diffusion family. Each YAML file the script may load is one run; a
crash its values decide is reported at its YAML line with the loader as related location, and
the fixture's own helper, run on each file with real torch and OmegaConf, agrees."""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES
from test_configs import _found

MAIN = FIXTURES / "rules" / "instantiate_main_module"
HELPER = FIXTURES / "rules" / "instantiate_helper_module"


def _predicted(root: Path) -> dict:
    """YAML file -> {(loader file, row)} dl-lint says raise in that file's run."""
    out: dict = {}
    for d in lint_paths([root]).diagnostics:
        if d.filename.endswith(".yaml") and d.severity.value == "error":
            loader = d.related[0]
            out.setdefault(Path(d.filename).resolve(), set()).add((Path(loader.path).resolve(), loader.row))
    return out


def _loader_rows(path: Path, cls: str) -> dict:
    rows = {}
    owner = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef) and n.name == cls)
    for node in owner.body:
        if isinstance(node, ast.FunctionDef):
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "DataLoader":
                    rows[node.name] = call.lineno
    return rows


@pytest.fixture
def project_on_path(monkeypatch):
    def enter(root: Path, names):
        monkeypatch.chdir(root)
        monkeypatch.syspath_prepend(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] in names]:
            monkeypatch.delitem(sys.modules, name)

    return enter


def _run(root: Path, node_of, helper, files, unknown=()):
    """Instantiate each file's node with the project's own helper, build and iterate each loader
    method the run binds: a method raises exactly when dl-lint reported its loader in that file
    (files in ``unknown`` hold values dl-lint does not read: it is silent, whatever they do)."""
    from omegaconf import OmegaConf

    predicted = _predicted(root)
    checked = 0
    for config in files:
        if config.name in unknown:
            assert config.resolve() not in predicted
            continue
        node = node_of(OmegaConf.load(config))
        if node is None:
            continue
        try:
            obj = helper(node)
        except (TypeError, KeyError, ModuleNotFoundError, AttributeError):  # no run: dl-lint is silent there
            assert config.resolve() not in predicted, config
            continue
        source = Path(sys.modules[type(obj).__module__].__file__).resolve()
        if hasattr(obj, "setup"):
            obj.setup()
        for method, row in _loader_rows(source, type(obj).__name__).items():
            hook = getattr(obj, method.lstrip("_"), None)
            if method.startswith("_") and getattr(hook, "func", hook) != getattr(obj, method):
                continue  # a hook __init__ did not bind in this run (itself, or a partial of it)
            if (source, row) in predicted.get(config.resolve(), set()):
                with pytest.raises(ValueError):
                    getattr(obj, method)()
            else:
                for _ in getattr(obj, method)():
                    pass
            checked += 1
    return checked


def test_main_module_family_each_base_file_is_a_run():
    assert sorted(_found(MAIN)) == [
        ("configs/debug.yaml", 7, "DL001"),  # num_workers: 0 with prefetch_factor: 4
        ("configs/zero_batch.yaml", 5, "DL002"),  # batch_size 0 -> num_workers = 0 * 2
        ("configs/zero_batch.yaml", 5, "DL010"),
    ]  # fine/default_workers: fine; fragment: no target; elsewhere: not in the project; typo: TypeError; interpolated: unknown


def test_helper_module_family_keys_come_from_the_helper():
    assert sorted(_found(HELPER)) == [
        ("configs/train.yaml", 5, "DL001"),  # the default prefetch_factor=2 with num_workers: 0
        ("configs/train.yaml", 14, "DL002"),  # build(): keys cls/kwargs
        ("gen/data/modules.py", 31, "DL011"),  # the Python call itself (as before)
        ("samples/sample.yaml", 6, "DL002"),  # a literal OmegaConf.load path
    ]  # extra: build_with passes its own kwargs; unknown/library: not project classes with their own __init__


@pytest.mark.torch  # runs the fixture with real OmegaConf and torch
def test_real_runs_agree_main_module(project_on_path):
    project_on_path(MAIN, {"main"})
    main = importlib.import_module("main")
    checked = _run(MAIN, lambda c: c.get("data"), main.instantiate_from_config, sorted((MAIN / "configs").glob("*.yaml")), unknown={"interpolated.yaml"})
    assert checked >= 6


@pytest.mark.torch
def test_real_runs_agree_helper_module(project_on_path):
    project_on_path(HELPER, {"gen"})
    util = importlib.import_module("gen.util")
    files = sorted((HELPER / "configs").glob("*.yaml"))
    # library.yaml: torch's own DataLoader built from the node (raises; a library class is not
    # read); unknown.yaml: alt is a subclass with an inherited __init__ (crashes; not followed)
    unknown = {"library.yaml", "unknown.yaml"}
    checked = _run(HELPER, lambda c: c.get("data"), util.instantiate_from_config, files + [HELPER / "samples" / "sample.yaml"], unknown)
    checked += _run(HELPER, lambda c: c.get("alt"), util.build, files, unknown)
    assert checked >= 5


def test_the_finding_cites_the_loader_and_the_values():
    diag = next(d for d in lint_paths([MAIN]).diagnostics if d.code == "DL001")
    assert diag.related[0].path == str((MAIN / "main.py").resolve()) and diag.related[0].row == 57
    assert "data.params.num_workers, overridable on the command line" in diag.detail
    assert any(r.path.endswith("debug.yaml") and r.row == 8 for r in diag.related)  # prefetch_factor: 4


def test_a_run_naming_only_the_yaml_file_or_the_loader_reports_it():
    yaml_only = lint_paths([MAIN / "configs" / "debug.yaml"]).diagnostics
    assert [(Path(d.filename).name, d.location.row, d.code) for d in yaml_only] == [("debug.yaml", 7, "DL001")]
    loader = lint_paths([HELPER / "gen" / "data" / "modules.py"]).diagnostics
    assert {(Path(d.filename).name, d.location.row, d.code) for d in loader} >= {("train.yaml", 5, "DL001"), ("sample.yaml", 6, "DL002")}


HELPERS = {
    "plain": ('return get_obj_from_str(config["target"])(**config.get("params", dict()))', True),
    "attribute": ("return get_obj_from_str(config.target)(**config.params)", True),
    "other keys": ('return get_obj_from_str(config["class_path"])(**config.get("init_args", {}))', True),
    "extra kwargs": ('return get_obj_from_str(config["target"])(**config.get("params", {}), **kw)', False),
    "positional": ('return get_obj_from_str(config["target"])(1, **config.get("params", {}))', False),
    "non-empty default": ('return get_obj_from_str(config["target"])(**config.get("params", {"a": 1}))', False),
    "unguarded work": ('x = len(config)\n    return get_obj_from_str(config["target"])(**config.get("params", {}))', False),
}


@pytest.mark.parametrize("case", sorted(HELPERS))
def test_the_helper_is_recognised_by_what_it_does(tmp_path, case):
    body, read = HELPERS[case]
    key = "class_path" if "class_path" in body else "target"
    params = "init_args" if "init_args" in body else "params"
    files = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "helpers.py": f"import importlib\n\n\ndef get_obj_from_str(s):\n    m, c = s.rsplit('.', 1)\n    return getattr(importlib.import_module(m), c)\n\n\ndef make(config, **kw):\n    {body}\n",
        "dm.py": "from torch.utils.data import DataLoader\n\n\nclass DM:\n    def __init__(self, num_workers=2, persistent_workers=False):\n        self.num_workers = num_workers\n        self.persistent_workers = persistent_workers\n\n    def loader(self):\n        return DataLoader(range(4), num_workers=self.num_workers, persistent_workers=self.persistent_workers)\n",
        "run.py": "from omegaconf import OmegaConf\nfrom helpers import make\n\nconfig = OmegaConf.load('cfg/run.yaml')\ndm = make(config.data)\n",
        "cfg/run.yaml": f"data:\n  {key}: dm.DM\n  {params}:\n    num_workers: 0\n    persistent_workers: true\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    assert found == ([("run.yaml", 4, "DL002")] if read else [])


def test_edits_of_the_key_path_and_other_config_builds_stay_unknown(tmp_path):
    base = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "dm.py": "import importlib\nfrom torch.utils.data import DataLoader\n\n\ndef get_obj(s):\n    m, c = s.rsplit('.', 1)\n    return getattr(importlib.import_module(m), c)\n\n\ndef make(config):\n    return get_obj(config['target'])(**config.get('params', {}))\n\n\nclass DM:\n    def __init__(self, num_workers=2, persistent_workers=False):\n        self.num_workers = num_workers\n        self.persistent_workers = persistent_workers\n\n    def loader(self):\n        return DataLoader(range(4), num_workers=self.num_workers, persistent_workers=self.persistent_workers)\n",
        "configs/run.yaml": "data:\n  target: dm.DM\n  params:\n    num_workers: 0\n    persistent_workers: true\n",
    }
    scripts = {
        "edited": "config = OmegaConf.load(args.config)\nconfig.data.params.num_workers = 4\ndm = make(config.data)\n",
        "updated": "config = OmegaConf.load(args.config)\nOmegaConf.update(config, 'data.params.num_workers', 4)\ndm = make(config.data)\n",
        "created": "config = OmegaConf.merge(OmegaConf.create({'data': {}}), OmegaConf.load(args.config))\ndm = make(config.data)\n",
        "two bases": "config = OmegaConf.merge(OmegaConf.load('configs/run.yaml'), OmegaConf.load(args.config))\ndm = make(config.data)\n",
        "edited through an alias": "config = OmegaConf.load(args.config)\nparams = config.data.params\nparams.num_workers = 4\ndm = make(config.data)\n",
        "rebound": "config = OmegaConf.load(args.config)\nconfig = other(config)\ndm = make(config.data)\n",
        "read as is": "config = OmegaConf.load(args.config)\ndm = make(config.data)\n",
    }
    head = "import argparse\nfrom omegaconf import OmegaConf\nfrom dm import make\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--config')\nargs = parser.parse_args()\n"
    for name, script in scripts.items():
        root = tmp_path / name.replace(" ", "_")
        for path, text in {**base, "run.py": head + script}.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        found = [d.code for d in lint_paths([root]).diagnostics if d.filename.endswith(".yaml")]
        assert found == (["DL002"] if name == "read as is" else []), name


def test_the_byte_gate():
    from dl_lint.analysis.configs.instantiate import candidate

    assert candidate(b"from omegaconf import OmegaConf\nc = OmegaConf.load(p)\n")
    assert not candidate(b"from omegaconf import OmegaConf\nc = OmegaConf.create({})\n")
    assert not candidate(b"import yaml\nc = yaml.safe_load(f)\n")


DATASETS = FIXTURES / "rules" / "instantiate_datasets"


def test_datasets_a_data_module_instantiates_from_nested_nodes():
    assert sorted(_found(DATASETS)) == [
        ("configs/big.yaml", 7, "DL101"),  # 3 x 2048 x 2048 float32 samples, 32 a batch, 8 workers
        ("configs/lambdas.yaml", 7, "DL202"),  # the dataset's __init__ keeps a lambda
        ("configs/stream.yaml", 5, "DL201"),  # an IterableDataset without sharding, 2 workers
        ("configs/stream.yaml", 7, "DL009"),  # ... and shuffle=True in the train loader
        ("configs/stream_train_only.yaml", 5, "DL201"),
        ("configs/stream_train_only.yaml", 7, "DL009"),
    ]  # small.yaml: 49 MiB at the peak; wrapped.yaml: a WrappedDataset (constructor argument); no_workers.yaml: no workers


def test_a_hook_bound_only_for_a_given_split_is_not_judged_without_it():
    """``self.val_dataloader = partial(self._val_dataloader, ...)`` only when ``validation`` is
    given: the train-only run's finding cites the train loader alone."""
    rows = {
        Path(d.filename).name: sorted(r.row for r in d.related if r.path.endswith("main.py"))
        for d in lint_paths([DATASETS]).diagnostics
        if d.code == "DL201"
    }
    assert rows == {"stream.yaml": [52, 55], "stream_train_only.yaml": [52]}


@pytest.mark.torch
def test_datasets_real_runs_agree(project_on_path):
    """The crash (DL009) raises, the duplicate samples (DL201) are there, and the dataset that
    keeps a lambda (DL202) fails to pickle under spawn while the plain one iterates."""
    import pickle

    from omegaconf import OmegaConf

    project_on_path(DATASETS, {"main", "data"})
    main = importlib.import_module("main")
    checked = _run(DATASETS, lambda c: c.get("data"), main.instantiate_from_config, [DATASETS / "configs" / n for n in ("stream.yaml", "no_workers.yaml", "stream_train_only.yaml")])
    assert checked == 5  # stream: train raises (DL009), validation iterates; no_workers: both iterate

    stream = main.instantiate_from_config(OmegaConf.load(DATASETS / "configs" / "stream.yaml").data)
    stream.setup()
    samples = sorted(int(x) for batch in stream.val_dataloader() for x in batch)
    assert samples == sorted([*range(8)] * 2)  # every sample twice: one copy per worker
    lambdas = main.instantiate_from_config(OmegaConf.load(DATASETS / "configs" / "lambdas.yaml").data)
    lambdas.setup()
    with pytest.raises((AttributeError, pickle.PicklingError, TypeError)):
        iter(lambdas._train_dataloader().__class__(lambdas.datasets["train"], num_workers=2, multiprocessing_context="spawn"))
    for _ in type(lambdas._val_dataloader())(lambdas.datasets["validation"], num_workers=1, multiprocessing_context="spawn"):
        pass
