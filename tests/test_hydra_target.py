"""Hydra ``_target_: torch.utils.data.DataLoader`` nodes built by ``hydra.utils.instantiate``
(dl_lint.analysis.configs.hydra_target): what dl-lint reports, where, and what the real
``hydra.utils.instantiate`` does with the config Hydra composes, on real torch."""

from __future__ import annotations

import ast
import gc
import re
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES
from test_configs import _found, _project

TARGET = FIXTURES / "rules" / "hydra_target"

TRAIN = """\
import hydra
import torch
from hydra.utils import instantiate


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg):
    loader = instantiate(cfg.data.loader, dataset=list(range(8)){extra})
    for batch in loader:
        pass


class MyLoader(torch.utils.data.DataLoader):
    pass
"""


def _app(tmp_path, node: str, extra: str = "", config: str = "defaults:\n  - data: default\n"):
    return _project(
        tmp_path,
        {"train.py": TRAIN.format(extra=extra), "conf/config.yaml": config, "conf/data/default.yaml": node},
    )


NODE = "loader:\n  _target_: torch.utils.data.DataLoader\n  num_workers: 0\n  persistent_workers: true\n"


def test_reported_at_the_yaml_line_with_the_instantiate_call_related(tmp_path):
    root = _app(tmp_path, NODE)
    (diag,) = lint_paths([root]).diagnostics
    assert (Path(diag.filename).resolve(), diag.location.row, diag.code, diag.fix) == ((root / "conf/data/default.yaml").resolve(), 3, "DL002", None)
    assert "num_workers=0 (overridable: data.loader.num_workers=...)" in diag.detail
    related, *origins = diag.related
    assert (related.path, related.row, related.note) == (str((root / "train.py").resolve()), 8, "the DataLoader that reads this value")
    assert [(o.row, o.note) for o in origins] == [(4, "persistent_workers=True is set here (overridable: data.loader.persistent_workers=...)")]


@pytest.mark.parametrize(
    "extra, want",
    [
        ("", [("conf/data/default.yaml", 3, "DL002")]),
        (", num_workers=2", []),  # the call's keyword wins over the node's key
        (", persistent_workers=False", []),
        (", **{'num_workers': 2}", []),  # any key may be replaced
        (", _target_='mypackage.Loader'", []),  # another target
        (", _target_=torch.utils.data.DataLoader", [("conf/data/default.yaml", 3, "DL002")]),  # a class
        (", _target_=MyLoader", []),  # a project's class: unknown
        (", _partial_=True", []),  # a partial, not called here: nothing is built
        (", _recursive_=False, _convert_='all'", [("conf/data/default.yaml", 3, "DL002")]),  # scalars unchanged
    ],
)
def test_the_call_keywords_merge_over_the_node(tmp_path, extra, want):
    assert _found(_app(tmp_path, NODE, extra)) == want


@pytest.mark.parametrize(
    "node",
    [
        NODE.replace("torch.utils.data.DataLoader", "mypackage.FastLoader"),  # not torch's class
        NODE.replace("num_workers: 0", "num_workers: ???"),  # the command line must give it
        NODE.replace("num_workers: 0", "num_workers: ${oc.env:WORKERS}"),  # a resolver
        NODE.replace("num_workers: 0", "num_workers: !custom 0"),  # a custom tag
        NODE.replace("  _target_", "  _args_: [[1, 2]]\n  _target_"),  # positional arguments in the YAML
        NODE.replace("num_workers: 0", "num_workers:\n    _target_: builtins.int"),  # a nested node
        NODE.replace("_target_: torch.utils.data.DataLoader", "_target_: ${loader_class}"),  # not written here
    ],
)
def test_what_dl_lint_cannot_read_is_silent(tmp_path, node):
    assert _found(_app(tmp_path, node)) == []


def test_a_node_not_reached_from_instantiate_is_not_judged(tmp_path):
    root = _project(
        tmp_path,
        {
            "train.py": "import hydra\nfrom hydra.utils import instantiate\n\n\n"
            '@hydra.main(version_base=None, config_path="conf", config_name="config")\n'
            "def main(cfg):\n    model = instantiate(cfg.model)\n",
            "conf/config.yaml": "defaults:\n  - data: default\nmodel:\n  _target_: torch.nn.Linear\n  in_features: 0\n",
            "conf/data/default.yaml": NODE,
        },
    )
    assert _found(root) == []


def test_positional_dataset_and_a_key_the_group_file_sets_under_self(tmp_path):
    """``instantiate(cfg.data.loader, dataset)``: the dataset is the first positional argument;
    the primary config's own keys override the group's (``_self_`` last)."""
    train = TRAIN.replace("dataset=list(range(8)){extra}", "list(range(8))")
    config = "defaults:\n  - data: default\n  - _self_\ndata:\n  loader:\n    num_workers: 2\n"
    root = _project(tmp_path, {"train.py": train, "conf/config.yaml": config, "conf/data/default.yaml": NODE})
    assert _found(root) == []
    (root / "conf/config.yaml").write_text("defaults:\n  - data: default\n")
    assert _found(root) == [("conf/data/default.yaml", 3, "DL002")]


def test_noqa_in_the_yaml(tmp_path):
    root = _app(tmp_path, NODE.replace("num_workers: 0", "num_workers: 0  # noqa: DL002"))
    assert _found(root) == []


def test_a_partial_that_escapes_or_is_called_with_splat_is_silent(tmp_path):
    node = NODE + "  _partial_: true\n"
    train = TRAIN.format(extra="").replace(", dataset=list(range(8))", "")
    escapes = train.replace("    for batch in loader:\n        pass\n", "    return loader\n")
    assert _found(_project(tmp_path, {"train.py": escapes, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": node})) == []
    splat = train.replace("    for batch in loader:", "    built = loader(list(range(8)), **options)\n    for batch in built:")
    (tmp_path / "train.py").write_text(splat)
    assert _found(tmp_path) == []
    called = train.replace("    for batch in loader:", "    built = loader(list(range(8)))\n    for batch in built:")
    (tmp_path / "train.py").write_text(called)
    assert _found(tmp_path) == [("conf/data/default.yaml", 3, "DL002")]


def test_a_repository_without_hydra_instantiate_parses_no_more_files():
    """The byte gate: a file is parsed for this only when it imports hydra and calls
    ``instantiate(``/``call(``."""
    from dl_lint.analysis.configs.hydra_target import candidate

    assert candidate(b"from hydra.utils import instantiate\nx = instantiate(cfg.loader)\n")
    assert candidate(b"import hydra\nx = hydra.utils.call(cfg.loader)\n")
    assert not candidate(b"# conceptually hydra.utils.instantiate(cfg)\ny = instantiate(cfg)\n")  # detectron2's own
    assert not candidate(b"import hydra\n\n@hydra.main()\ndef main(cfg):\n    pass\n")
    assert not candidate(b"import hydra\nmodel = hydra.utils.instantiate(cfg.model)\n")  # no loader in sight


# -- Hydra and torch agree ----------------------------------------------------------------------


def _composed(folder: Path, overrides):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(folder), version_base=None):
        return compose(config_name="train", overrides=overrides)


@pytest.mark.torch
def test_real_instantiate_raises_exactly_where_dl_lint_reports_a_crash(monkeypatch):
    """Every statement of the fixture's ``main`` run with the config Hydra composes and the real
    ``hydra.utils.instantiate`` (hydra-core from the test extra) and torch: each loader is
    built and iterated at once. The statements that fail are exactly those dl-lint reports an
    error for (at the YAML line, with the call as related location, or at the call), each with
    the error the rule predicts. Values dl-lint leaves unknown are given as a user would: the
    mandatory one on the command line, the environment variable in the environment."""
    import torch  # noqa: F401
    from hydra.errors import InstantiationException

    from dl_lint.rules import all_rules

    rules = all_rules()
    train = (TARGET / "train.py").resolve()
    reported = {}
    for diag in lint_paths([TARGET]).diagnostics:
        row = diag.location.row if Path(diag.filename).resolve() == train else diag.related[0].row
        assert Path(diag.filename).resolve() == train or diag.related[0].path == str(train)
        reported[row] = diag.code
    assert set(reported.values()) == {"DL001", "DL002", "DL005", "DL010"}

    monkeypatch.setenv("WORKERS", "2")
    monkeypatch.syspath_prepend(str(TARGET))
    cfg = _composed(TARGET / "configs", ["data.mandatory_loader.num_workers=2"])
    tree = ast.parse(train.read_text())
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    namespace = {}
    exec(compile(ast.Module([n for n in tree.body if n is not main and not isinstance(n, ast.If)], []), str(train), "exec"), namespace)
    namespace["cfg"] = cfg
    failed = {}
    for statement in main.body:
        if not isinstance(statement, (ast.Assign, ast.Expr)):
            continue  # the final loop: each loader is iterated here, at its own statement
        try:
            exec(compile(ast.Module([statement], []), str(train), "exec"), namespace)
            value = namespace.get(statement.targets[0].id) if isinstance(statement, ast.Assign) else None
            if isinstance(value, torch.utils.data.DataLoader):
                for _batch in value:
                    pass
        except Exception as exc:  # noqa: BLE001 - recorded, compared below
            failed[statement.lineno] = exc.__cause__ if isinstance(exc, InstantiationException) else exc
    assert set(failed) == set(reported), (failed, reported)
    for row, exc in failed.items():
        kind, text = rules[reported[row]].torch_raises
        assert isinstance(exc, kind) and re.search(text, str(exc)), (row, exc)
    run_result = namespace["run"](namespace["escaping"], namespace["train_set"])  # the partial that escapes
    assert len(list(run_result)) == 16
    del run_result
    namespace.clear()  # persistent workers stop with their loaders, not at interpreter exit
    gc.collect()


_SEEN: dict = {}


def _record(**kwargs):
    _SEEN.update(kwargs)


def test_dl_lint_and_hydra_read_the_same_node():
    """The keyword arguments dl-lint binds for each judged node are the ones Hydra passes to
    the target (its composed node minus the keys instantiate reads itself)."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from dl_lint.analysis.configs.hydra_target import RESERVED

    cfg = _composed(TARGET / "configs", [])
    for name in ("train_loader", "val_loader", "test_loader", "empty_batches"):
        node = OmegaConf.to_container(cfg.data[name], resolve=True)
        _SEEN.clear()
        real = instantiate(cfg.data[name], _target_=_record, _partial_=False)
        assert real is None and _SEEN == {k: v for k, v in node.items() if k not in RESERVED}


def test_a_partial_reports_a_value_only_the_yaml_sets_at_its_line(tmp_path):
    """DL010 reads batch_size alone: the partial's call is the loader, the YAML line the place."""
    node = "loader:\n  _target_: torch.utils.data.DataLoader\n  _partial_: true\n  batch_size: -1\n"
    train = TRAIN.format(extra="").replace(", dataset=list(range(8))", "").replace(
        "    for batch in loader:", "    built = loader(list(range(8)))\n    for batch in built:"
    )
    root = _project(tmp_path, {"train.py": train, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": node})
    (diag,) = lint_paths([root]).diagnostics
    assert (Path(diag.filename).name, diag.location.row, diag.code) == ("default.yaml", 4, "DL010")
    assert diag.related[0].row == 9  # the call of the partial: where torch raises


def test_a_partial_called_at_once(tmp_path):
    """``hydra.utils.instantiate(cfg.dataloader)(dataset=ds, batch_size=...)``: a real
    project's spelling; the outer call's keywords win over the node's."""
    node = NODE + "  _partial_: true\n"
    train = TRAIN.format(extra="").replace("dataset=list(range(8)))", "){extra}").replace("import hydra\n", "import hydra\n\n")
    root = _project(tmp_path, {"train.py": train.format(extra="(list(range(8)), shuffle=True)"), "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": node})
    assert _found(root) == [("conf/data/default.yaml", 3, "DL002")]
    (root / "train.py").write_text(train.format(extra="(list(range(8)), num_workers=2)"))
    assert _found(root) == []


def test_a_named_yaml_reports_what_the_instantiating_script_finds(tmp_path, run_cli):
    """``dl-lint check conf/data/default.yaml`` (the pre-commit hook on a staged YAML file): the
    script that instantiates the node is found although it never names DataLoader."""
    root = _app(tmp_path, NODE)
    script = TRAIN.format(extra="").split("\n\nclass MyLoader")[0].replace("import torch\n", "")
    assert "DataLoader" not in script
    (root / "train.py").write_text(script)
    out = run_cli("--no-cache", "--output-format", "json", "conf/data/default.yaml", cwd=tmp_path)
    import json

    (item,) = json.loads(out.stdout)
    assert (item["code"], item["location"]["row"], item["related"][0]["filename"]) == ("DL002", 3, "train.py")


def test_a_config_the_function_may_replace_is_not_read(tmp_path):
    """A real project's resume branch: ``cfg`` may be another object when the loader is built."""
    resume = TRAIN.format(extra="").replace(
        "def main(cfg):\n", "def main(cfg):\n    if cfg.resume:\n        cfg = DictConfig(torch.load(cfg.resume)['config'])\n"
    ).replace("import torch\n", "import torch\nfrom omegaconf import DictConfig\n")
    root = _app(tmp_path, NODE, config="defaults:\n  - data: default\nresume: null\n")
    (root / "train.py").write_text(resume)
    assert _found(root) == []


def test_a_node_a_nested_defaults_list_may_fill_is_silent(tmp_path):
    """A group file with its own defaults list (not followed): the node's other keys, and
    ``_partial_``/``_args_``, may come from there."""
    nested = "defaults:\n  - base\n" + NODE
    root = _app(tmp_path, nested)
    assert _found(root) == []
