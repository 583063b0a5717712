"""Settings read from YAML configs (dl_lint.analysis.configs): Hydra composition, reporting at the
YAML line, noqa in YAML, DL000 for broken YAML, the results cache, lazy PyYAML, and torch's
verdict on the materialised values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.hydra import HydraConfig, compose
from dl_lint.analysis.configs.yamlfile import UNKNOWN, Leaf, YamlError, parse_yaml, read_yaml

from conftest import FIXTURES

HYDRA = FIXTURES / "rules" / "hydra_configs"

TRAIN = """\
import hydra
from torch.utils.data import DataLoader


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg):
    return DataLoader(range(8), num_workers=cfg.data.num_workers, persistent_workers=True)
"""


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _found(root: Path, **kwargs):
    return [(Path(d.filename).resolve().relative_to(root.resolve()).as_posix(), d.location.row, d.code) for d in lint_paths([root], **kwargs).diagnostics]


# -- reading YAML -------------------------------------------------------------------------------


def test_yaml_keeps_lines_and_makes_custom_tags_unknown():
    tree = parse_yaml("a: 1\nb:\n  c: yes\n  d: !ref x\n  e: !!python/name:os.system\n", "x.yaml")
    assert tree.get("a") == Leaf(1, "x.yaml", 1, 4, "1")
    assert tree.get("b").get("c").value is True  # YAML 1.1 booleans, as OmegaConf's SafeLoader reads them
    assert tree.get("b").get("d").value is UNKNOWN
    assert tree.get("b").get("e").value is UNKNOWN


def test_broken_yaml_is_an_error_value_not_an_exception():
    found = parse_yaml("a: [1\n", "x.yaml")
    assert isinstance(found, YamlError) and found.line == 2


def test_alias_bombs_deep_nesting_and_several_documents_are_errors_not_hangs():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    assert "aliases are expanded" in parse_yaml(bomb, "x.yaml").message
    assert isinstance(parse_yaml("a: " + "[" * 5000 + "]" * 5000 + "\n", "x.yaml"), YamlError)
    assert parse_yaml("a: 1\n---\nb: 2\n", "x.yaml").line == 2  # Hydra reads one document


def test_missing_file_reads_as_nothing(tmp_path):
    assert read_yaml(str(tmp_path / "absent.yaml")) == (None, None)


# -- Hydra composition --------------------------------------------------------------------------


def _compose(tmp_path, files, name="config"):
    root = _project(tmp_path, files)
    config = HydraConfig(str(root / "conf"), name)
    return compose(config, lambda path: read_yaml(path)[1])


def _value(composed, dotted):
    found = composed.lookup(tuple(dotted.split(".")))
    return found.value if isinstance(found, Leaf) else None


def test_primary_keys_override_defaults_when_self_is_not_listed(tmp_path):
    composed = _compose(
        tmp_path,
        {"conf/config.yaml": "defaults:\n  - data: default\ndata:\n  num_workers: 2\n", "conf/data/default.yaml": "num_workers: 0\n"},
    )
    assert _value(composed, "data.num_workers") == 2


def test_self_first_lets_the_group_win(tmp_path):
    composed = _compose(
        tmp_path,
        {
            "conf/config.yaml": "defaults:\n  - _self_\n  - data: default\ndata:\n  num_workers: 2\n",
            "conf/data/default.yaml": "num_workers: 0\n",
        },
    )
    assert _value(composed, "data.num_workers") == 0


def test_package_override_and_global_header(tmp_path):
    composed = _compose(
        tmp_path,
        {
            "conf/config.yaml": "defaults:\n  - data@loader: fast\n  - env: local\n",
            "conf/data/fast.yaml": "num_workers: 8\n",
            "conf/env/local.yaml": "# @package _global_\nworkers: 3\n",
        },
    )
    assert _value(composed, "loader.num_workers") == 8
    assert _value(composed, "workers") == 3
    assert composed.lookup(("data", "num_workers")) is None


def test_what_is_not_followed_is_unknown(tmp_path):
    composed = _compose(
        tmp_path,
        {
            "conf/config.yaml": "defaults:\n  - data: nested\n  - model: other\n  - optional extra: absent\n"
            "env_workers: ${oc.env:WORKERS,4}\nrelative: ${.env_workers}\n",
            "conf/data/nested.yaml": "defaults:\n  - sub: a\nnum_workers: 0\n",
            "conf/model/other.yaml": "# @package foo.bar\nnum_workers: 0\n",
        },
    )
    assert composed.lookup(("data", "num_workers")) is None  # a nested default that names no config
    assert composed.lookup(("model", "num_workers")) is None  # mounted where a header says
    assert composed.lookup(("env_workers",)) is None  # a resolver
    assert composed.lookup(("relative",)) is None  # a relative interpolation


def test_a_group_configs_own_defaults_list_is_followed(tmp_path):
    """Hydra 1.1+: ``- base`` in data/default.yaml is data/base.yaml at ``data``, ``- sub: a``
    is data/sub/a.yaml at ``data.sub``; the file's own keys come last unless ``_self_`` is
    written earlier."""
    composed = _compose(
        tmp_path,
        {
            "conf/config.yaml": "defaults:\n  - data: default\n  - model: first\n",
            "conf/data/default.yaml": "defaults:\n  - base\n  - sub: a\nbatch_size: 16\n",
            "conf/data/base.yaml": "num_workers: 0\nbatch_size: 4\n",
            "conf/data/sub/a.yaml": "workers: 3\n",
            "conf/model/first.yaml": "defaults:\n  - _self_\n  - base\nnum_workers: 1\n",
            "conf/model/base.yaml": "num_workers: 5\n",
        },
    )
    assert _value(composed, "data.num_workers") == 0
    assert _value(composed, "data.batch_size") == 16  # the file's own key, after its defaults
    assert _value(composed, "data.sub.workers") == 3
    assert _value(composed, "model.num_workers") == 5  # _self_ first: the nested default wins


def test_nested_entries_not_followed_leave_their_config_unknown(tmp_path):
    composed = _compose(
        tmp_path,
        {
            "conf/config.yaml": "defaults:\n  - data: default\n  - model: m\n",
            "conf/data/default.yaml": "defaults:\n  - /other: x\nnum_workers: 0\n",
            "conf/other/x.yaml": "a: 1\n",
            "conf/model/m.yaml": "defaults:\n  - base@inner\nnum_workers: 0\n",
            "conf/model/base.yaml": "a: 1\n",
        },
    )
    assert composed.lookup(("data", "num_workers")) is None  # absolute: not followed
    assert composed.lookup(("model", "num_workers")) is None  # placed elsewhere: not followed


def test_a_structured_config_stored_in_a_group(tmp_path):
    """A defaults entry that names no YAML file is the dataclass the script stores under that
    group and name (Hydra's schema pattern); its defaults are the keys, cited at the field."""
    root = _project(
        tmp_path,
        {
            "train.py": """\
            from dataclasses import dataclass, field

            import hydra
            from hydra.core.config_store import ConfigStore
            from torch.utils.data import DataLoader


            @dataclass
            class Loader:
                num_workers: int = 0
                prefetch: int = 2


            @dataclass
            class DataConfig:
                batch_size: int = 8
                loader: Loader = field(default_factory=Loader)
                threads: int = len("abcd")


            cs = ConfigStore.instance()
            cs.store(group="data", name="base_data", node=DataConfig)


            @hydra.main(version_base="1.2", config_path="conf", config_name="config")
            def main(cfg):
                DataLoader(range(8), num_workers=cfg.data.loader.num_workers, prefetch_factor=2)
                DataLoader(range(8), num_workers=cfg.data.workers, persistent_workers=True)
                DataLoader(range(8), num_workers=cfg.data.threads, persistent_workers=True)
            """,
            "conf/config.yaml": "defaults:\n  - data: default\n  - _self_\n",
            "conf/data/default.yaml": "defaults:\n  - base_data\nworkers: 0\n",
        },
    )
    found = lint_paths([root]).diagnostics
    assert sorted((d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in found) == [
        ("default.yaml", 3, "DL002"),  # workers: 0 written in the group file, at its line
        ("train.py", 27, "DL001"),  # the dataclass default, at the call
        ("train.py", 29, "DL011"),  # a default that is not a literal: unknown, configurable
    ]
    (crash,) = [d for d in found if d.code == "DL001"]
    assert [(r.path.rsplit("/", 1)[-1], r.row) for r in crash.related] == [("train.py", 10)], crash.related


# -- reporting ----------------------------------------------------------------------------------


def test_finding_at_the_yaml_line_with_the_call_as_related_location(tmp_path):
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "batch_size: 4\nnum_workers: 0\n"})
    (diag,) = lint_paths([root]).diagnostics
    assert Path(diag.filename).resolve() == (root / "conf/data/default.yaml").resolve()
    assert (diag.code, diag.location.row, diag.fix) == ("DL002", 2, None)
    assert diag.message == "persistent_workers=True but num_workers=0: torch raises ValueError at construction."
    assert diag.detail.startswith("Values: num_workers=0 (overridable: data.num_workers=...). torch's error: ")
    assert diag.detail.endswith("At the DataLoader: write `persistent_workers=cfg.data.num_workers > 0`.")
    related, *origins = diag.related  # the DataLoader, then where the values are set (not the reported line)
    assert (related.path, related.row) == (str((root / "train.py").resolve()), 7)
    assert all((o.path, o.row) != (str((root / "conf/data/default.yaml").resolve()), 2) for o in origins)


def test_json_and_sarif_show_the_related_location(tmp_path, run_cli):
    _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "num_workers: 0\n"})
    out = run_cli("--no-cache", "--output-format", "json", ".")
    (item,) = json.loads(out.stdout)
    assert item["filename"] == os.path.join("conf", "data", "default.yaml")
    assert item["related"][0]["filename"] == "train.py" and item["related"][0]["location"]["row"] == 7
    sarif = json.loads(run_cli("--no-cache", "--output-format", "sarif", ".").stdout)
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "conf/data/default.yaml"
    assert result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "train.py"
    full = run_cli("--no-cache", "--output-format", "full", ".").stdout
    assert "note: train.py:7:12: the DataLoader that reads this value" in full


@pytest.mark.parametrize(
    "yaml_line,call_comment",
    [("num_workers: 0  # noqa: DL002", ""), ("num_workers: 0  # noqa", ""), ("num_workers: 0", "  # noqa: DL002")],
)
def test_noqa_in_the_yaml_or_at_the_call(tmp_path, yaml_line, call_comment):
    train = TRAIN.replace("persistent_workers=True)", "persistent_workers=True)" + call_comment)
    root = _project(tmp_path, {"train.py": train, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": yaml_line + "\n"})
    assert _found(root) == []


def test_noqa_for_another_code_does_not_suppress(tmp_path):
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "num_workers: 0  # noqa: DL001\n"})
    assert _found(root) == [("conf/data/default.yaml", 1, "DL002")]


def test_broken_yaml_is_a_dl000_and_its_values_stay_unknown(tmp_path):
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "num_workers: [0\n"})
    found = lint_paths([root]).diagnostics
    assert [(Path(d.filename).name, d.code) for d in found] == [("default.yaml", "DL000"), ("train.py", "DL011")]
    assert "cannot parse this YAML config" in found[0].message


def test_a_yaml_edit_invalidates_the_cached_diagnostics(tmp_path):
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "num_workers: 0\n"})
    cache_dir = tmp_path / ".cache"
    assert _found(root, cache=True, cache_dir=cache_dir) == [("conf/data/default.yaml", 1, "DL002")]
    assert _found(root, cache=True, cache_dir=cache_dir) == [("conf/data/default.yaml", 1, "DL002")]
    (root / "conf/data/default.yaml").write_text("# more workers\nnum_workers: 4\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == [("train.py", 7, "DL011")]
    (root / "conf/data/default.yaml").write_text("# none again\n\nnum_workers: 0\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == [("conf/data/default.yaml", 3, "DL002")]


def test_only_yaml_reached_from_python_is_read(tmp_path):
    """A stray YAML file with a crashing value is not linted: nothing reads it."""
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "defaults:\n  - data: default\n", "conf/data/default.yaml": "num_workers: 2\n", "conf/data/debug.yaml": "num_workers: [0\n", "other.yaml": "num_workers: 0\n"})
    assert _found(root) == [("train.py", 7, "DL011")]


def test_a_yaml_file_named_explicitly_reports_what_the_python_reading_it_finds(tmp_path, run_cli):
    """pre-commit passes the staged YAML files: their findings come from the Python files that
    compose them; other files' findings are not reported, and a YAML nothing reads is silent."""
    _project(
        tmp_path,
        {
            "train.py": TRAIN + "\nDataLoader(range(8), prefetch_factor=2)\n",
            "conf/config.yaml": "defaults:\n  - data: default\n",
            "conf/data/default.yaml": "num_workers: 0\n",
            "other.yaml": "num_workers: 0\n",
        },
    )
    out = run_cli("--no-cache", "conf/data/default.yaml")
    assert out.returncode == 1 and out.stdout.splitlines()[0].startswith(os.path.join("conf", "data", "default.yaml") + ":1:1: DL002")
    assert "train.py" not in out.stdout.split("\n", 1)[0] and "DL001" not in out.stdout
    assert run_cli("--no-cache", "other.yaml").returncode == 0
    # Naming train.py also shows the finding that rests on it (its loader reads the YAML value):
    # a change to the script cannot hide its consequence in a file that was not named (issue 26).
    both = run_cli("--no-cache", "conf/config.yaml", "train.py").stdout
    assert "train.py:9:" in both and "default.yaml:1:1: DL002" in both


def test_lint_source_returns_only_the_sources_own_diagnostics(tmp_path):
    """The flake8 plugin and the language server show one Python file: a finding reported in a
    YAML file the source reads is not theirs (the CLI reports it)."""
    from dl_lint.config import Settings
    from dl_lint.engine import lint_source

    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "data:\n  num_workers: 0\n"})
    assert [d.code for d in lint_paths([root]).diagnostics] == ["DL002"]
    assert lint_source(TRAIN, str(root / "train.py"), Settings(), project_root=root) == []


def test_a_check_without_hydra_configs_does_not_import_yaml():
    probe = (
        "import sys\nfrom dl_lint import lint_paths\nlint_paths([sys.argv[1], sys.argv[2]])\n"
        "print('YAML' if 'yaml' in sys.modules else 'NO-YAML')\n"
    )
    paths = [str(FIXTURES / "rules" / "resolve_argparse.py"), str(FIXTURES / "idioms")]
    out = subprocess.run([sys.executable, "-c", probe, *paths], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "NO-YAML", out.stderr


# -- torch agrees -------------------------------------------------------------------------------

# The option each error rule's fixture call passes beside the YAML's num_workers.
_OPTIONS = {"DL001": {"prefetch_factor": 2}, "DL002": {"persistent_workers": True}}


@pytest.mark.torch
@pytest.mark.parametrize("fixture", [HYDRA, FIXTURES / "rules" / "omegaconf_load"], ids=["hydra", "omegaconf_load"])
def test_torch_raises_for_every_yaml_value_reported_as_a_crash(fixture):
    """Each DL001/DL002 reported at a YAML line: the value loaded from that file with PyYAML
    (as Hydra's OmegaConf loader reads it), passed to a real DataLoader with the option the
    call writes, raises the ValueError the rule predicts."""
    import torch  # noqa: F401
    import yaml
    from torch.utils.data import DataLoader

    from dl_lint.rules import all_rules

    errors = [d for d in lint_paths([fixture]).diagnostics if d.filename.endswith(".yaml") and d.code in _OPTIONS]
    assert errors and {d.code for d in errors} <= set(_OPTIONS)
    class Loader(yaml.SafeLoader):  # the fixture's custom tags (``!ref``) read as None here
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    rules = all_rules()
    for diag in errors:
        path = Path(diag.filename)
        line = path.read_text().splitlines()[diag.location.row - 1]
        key = line.split(":", 1)[0].strip()
        document = yaml.load(path.read_text(), Loader=Loader)
        value = document[key] if key in document else document["data"][key]  # top level, or under data:
        exc, text = rules[diag.code].torch_raises
        with pytest.raises(exc, match=text):
            DataLoader(range(8), num_workers=value, **_OPTIONS[diag.code])


def test_dl011_cites_the_yaml_line_of_the_safe_default(tmp_path):
    root = _project(tmp_path, {"train.py": TRAIN, "conf/config.yaml": "data:\n  batch_size: 4\n  num_workers: 4\n"})
    (diag,) = lint_paths([root]).diagnostics
    assert (Path(diag.filename).name, diag.location.row, diag.code) == ("train.py", 7, "DL011")
    assert diag.detail.startswith("Values: num_workers=4 (overridable: data.num_workers=...). ")
    (related,) = diag.related
    assert (related.path, related.row, related.note) == (
        str((root / "conf/config.yaml").resolve()), 3, "num_workers=4 is set here (overridable: data.num_workers=...)"
    )


def test_config_path_written_with_os_path_join(tmp_path):
    """fairseq's spelling: config_path=os.path.join("..", "fairseq", "config")."""
    train = TRAIN.replace('config_path="conf"', 'config_path=os.path.join("..", "conf")').replace("import hydra", "import os\nimport hydra")
    root = _project(tmp_path, {"cli/train.py": train, "conf/config.yaml": "data:\n  num_workers: 0\n"})
    assert _found(root) == [("conf/config.yaml", 2, "DL002")]


def test_a_config_no_yaml_file_holds_stays_unknown(tmp_path):
    """A primary config registered in Python (Hydra's ConfigStore) has no YAML file here: the
    values are unknown (DL011 treats them as configurable, as before)."""
    root = _project(tmp_path, {"train.py": TRAIN})
    assert _found(root) == [("train.py", 7, "DL011")]


# -- Hydra itself agrees (when hydra-core is installed) -----------------------------------------

_LAYOUTS = {
    "fixture": (HYDRA / "conf", {}, ["data.num_workers", "data.batch_size", "loader_workers", "trainer.workers", "trainer.eval_workers"]),
    "self first": (
        None,
        {"config.yaml": "defaults:\n  - _self_\n  - data: default\ndata:\n  num_workers: 2\n", "data/default.yaml": "num_workers: 0\n"},
        ["data.num_workers"],
    ),
    "self implicit": (
        None,
        {"config.yaml": "defaults:\n  - data: default\ndata:\n  num_workers: 2\n", "data/default.yaml": "num_workers: 0\n"},
        ["data.num_workers"],
    ),
    "package and global header": (
        None,
        {
            "config.yaml": "defaults:\n  - data@loader: fast\n  - env: local\n  - _self_\nworkers: ${loader.num_workers}\n",
            "data/fast.yaml": "num_workers: 8\n",
            "env/local.yaml": "# @package _global_\nbatch: 3\n",
        },
        ["loader.num_workers", "batch", "workers"],
    ),
    "nested defaults": (
        None,
        {
            "config.yaml": "defaults:\n  - data: default\n  - model: first\n  - _self_\n",
            "data/default.yaml": "defaults:\n  - base\n  - sub: a\nbatch_size: 16\n",
            "data/base.yaml": "num_workers: 0\nbatch_size: 4\n",
            "data/sub/a.yaml": "workers: 3\n",
            "model/first.yaml": "defaults:\n  - _self_\n  - base\nnum_workers: 1\n",
            "model/base.yaml": "defaults:\n  - deeper\nnum_workers: 5\n",
            "model/deeper.yaml": "num_workers: 7\nthreads: 2\n",
        },
        ["data.num_workers", "data.batch_size", "data.sub.workers", "model.num_workers", "model.threads"],
    ),
    "overrides": (
        None,
        {
            # ``override`` entries of the primary config choose the option of a group wherever its
            # default is (here in base.yaml); those of Hydra's own groups (here and nested) touch
            # no key of the app (MMAudio's train_config.yaml)
            "config.yaml": "defaults:\n  - base\n  - override data: fast\n  - override hydra/job_logging: custom\n  - _self_\nbatch: 2\n",
            "base.yaml": "defaults:\n  - data: slow\n  - override hydra/hydra_logging: disabled\n  - _self_\nbatch: 8\n",
            "data/slow.yaml": "num_workers: 0\n",
            "data/fast.yaml": "num_workers: 4\nprefetch: 2\n",
            "hydra/job_logging/custom.yaml": "version: 1\n",
        },
        ["data.num_workers", "data.prefetch", "batch"],
    ),
    "override in the same list": (
        None,
        {"config.yaml": "defaults:\n  - data: slow\n  - override data: fast\n  - _self_\n", "data/slow.yaml": "num_workers: 0\n", "data/fast.yaml": "num_workers: 4\n"},
        ["data.num_workers"],
    ),
}


def test_an_override_of_a_group_no_default_names_is_unknown(tmp_path):
    """Hydra refuses to compose (``Could not override 'model'``): nothing is known."""
    from hydra import compose as hydra_compose, initialize_config_dir

    files = {"config.yaml": "defaults:\n  - data: slow\n  - override model: big\n", "data/slow.yaml": "num_workers: 0\n", "model/big.yaml": "x: 1\n"}
    folder = tmp_path / "conf"
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    with initialize_config_dir(config_dir=str(folder), version_base=None):
        with pytest.raises(Exception, match="Could not override 'model'"):
            hydra_compose(config_name="config")
    assert compose(HydraConfig(str(folder), "config"), lambda path: read_yaml(path)[1]).tree is None


@pytest.mark.parametrize("name", sorted(_LAYOUTS))
def test_composition_matches_hydra(tmp_path, name):
    """dl-lint's composition gives the values Hydra's own compose API gives (hydra-core is in
    the test extra; checked with hydra-core 1.3.8, omegaconf 2.3.1)."""
    from hydra import compose as hydra_compose, initialize_config_dir
    from omegaconf import OmegaConf

    folder, files, keys = _LAYOUTS[name]
    if folder is not None:  # the fixture, minus its custom tag (Hydra refuses to load one)
        import shutil

        shutil.copytree(folder, tmp_path / "conf")
        folder = tmp_path / "conf"
        data = folder / "data" / "default.yaml"
        data.write_text("".join(line for line in data.read_text().splitlines(True) if "!ref" not in line))
    else:
        folder = tmp_path / "conf"
        for relative, text in files.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_text(text)
    with initialize_config_dir(config_dir=str(folder), version_base=None):
        real = hydra_compose(config_name="config")
    ours = compose(HydraConfig(str(folder), "config"), lambda path: read_yaml(path)[1])
    for key in keys:
        assert _value(ours, key) == OmegaConf.select(real, key), key


def test_a_stored_group_node_composes_as_hydra_composes_it(tmp_path):
    """A group config whose defaults list names a structured config stored with ConfigStore
    (layout-dm's schema pattern): dl-lint's composition, given that node as the resolver reads
    it, gives Hydra's values (hydra-core 1.3.8)."""
    from dataclasses import dataclass

    from hydra import compose as hydra_compose, initialize_config_dir
    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    from dl_lint.analysis.configs.yamlfile import Tree

    @dataclass
    class DlLintTestDataConfig:
        batch_size: int = 64
        num_workers: int = 0

    ConfigStore.instance().store(group="dl_lint_test_data", name="dl_lint_test_base", node=DlLintTestDataConfig)
    folder = tmp_path / "conf"
    (folder / "dl_lint_test_data").mkdir(parents=True)
    (folder / "config.yaml").write_text("defaults:\n  - dl_lint_test_data: default\n  - _self_\n")
    (folder / "dl_lint_test_data" / "default.yaml").write_text("defaults:\n  - dl_lint_test_base\nbatch_size: 8\n")
    with initialize_config_dir(config_dir=str(folder), version_base="1.2"):
        real = hydra_compose(config_name="config")
    node = Tree((("batch_size", Leaf(64, "train.py", 3, 5)), ("num_workers", Leaf(0, "train.py", 4, 5))), "train.py", 2)
    ours = compose(HydraConfig(str(folder), "config", stored=(("dl_lint_test_data", "dl_lint_test_base", node),)), lambda path: read_yaml(path)[1])
    for key in ("dl_lint_test_data.batch_size", "dl_lint_test_data.num_workers"):
        assert _value(ours, key) == OmegaConf.select(real, key), key
    assert _value(ours, "dl_lint_test_data.batch_size") == 8


@pytest.mark.torch
def test_torch_raises_with_the_config_hydra_composes_for_the_fixture(tmp_path):
    """The fixture's calls, with the config Hydra itself composes: the DL001/DL002 ones raise,
    the DL011 ones construct (their default is safe; only an override to 0 crashes)."""
    import shutil

    from hydra import compose as hydra_compose, initialize_config_dir
    from torch.utils.data import DataLoader

    folder = tmp_path / "conf"
    shutil.copytree(HYDRA / "conf", folder)
    data = folder / "data" / "default.yaml"
    data.write_text("".join(line for line in data.read_text().splitlines(True) if "!ref" not in line))
    with initialize_config_dir(config_dir=str(folder), version_base=None):
        cfg = hydra_compose(config_name="config")
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(range(8), batch_size=cfg.data.batch_size, num_workers=cfg.data.num_workers, persistent_workers=True)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        DataLoader(range(8), num_workers=cfg.loader_workers, prefetch_factor=2)
    DataLoader(range(8), num_workers=cfg.trainer.workers, prefetch_factor=2)
    DataLoader(range(8), num_workers=cfg.trainer.eval_workers, persistent_workers=True)


def test_omegaconf_load_reads_what_dl_lint_reads():
    """OmegaConf.load itself gives the value dl-lint reports."""
    import omegaconf
    path = FIXTURES / "rules" / "omegaconf_load" / "configs" / "train.yaml"
    ours = compose(HydraConfig(str(path.parent), path.name, plain=True), lambda p: read_yaml(p)[1])
    real = omegaconf.OmegaConf.load(path)
    for key in ("data.num_workers", "data.workers"):
        assert _value(ours, key) == omegaconf.OmegaConf.select(real, key)
    assert list(real.defaults) == [{"data": "other"}]  # a plain key: no defaults list is composed


def test_a_named_yaml_loaded_with_omegaconf_is_judged_through_its_script(tmp_path, run_cli):
    script = (
        "from omegaconf import OmegaConf\nfrom torch.utils.data import DataLoader\n\n"
        'cfg = OmegaConf.load("configs/train.yaml")\n'
        "loader = DataLoader(range(8), num_workers=cfg.workers, persistent_workers=True)\n"
    )
    _project(tmp_path, {"train.py": script, "configs/train.yaml": "workers: 0\n"})
    out = run_cli("--no-cache", "configs/train.yaml")
    assert out.returncode == 1 and out.stdout.startswith(os.path.join("configs", "train.yaml") + ":1:1: DL002"), out.stdout


# -- dataclass configs (analysis.configs.dataclasses) -------------------------------------------
TYRO_SCRIPT = '''
import dataclasses

import tyro
from torch.utils.data import DataLoader


@dataclasses.dataclass
class Args:
    num_workers: int = 0
    prefetch_factor: int = 4


if __name__ == "__main__":
    args = tyro.cli(Args)
    DataLoader(range(8), num_workers=args.num_workers, prefetch_factor=args.prefetch_factor)
'''


def test_a_tyro_default_that_crashes_is_reported_with_its_field(tmp_path):
    """tyro.cli(Args) runs with the field defaults unless a flag is given: num_workers=0 and
    prefetch_factor=4 is torch's ValueError (the same pair the oracle runs for Config())."""
    script = tmp_path / "train.py"
    script.write_text(TYRO_SCRIPT)
    found = [d for d in lint_paths([script]).diagnostics if d.code == "DL001"]
    assert len(found) == 1
    assert found[0].message == "prefetch_factor=4 is passed but num_workers=0: torch >= 2.0 raises ValueError at construction."
    assert "num_workers=0 (default of field Args.num_workers, settable on the command line (tyro.cli))" in found[0].detail
    assert (str(script), 10) in {(r.path, r.row) for r in found[0].related}


@pytest.mark.parametrize(
    "change",
    [
        ("args = tyro.cli(Args)", "args = tyro.cli(Args, default=Args(num_workers=2))"),
        ("args = tyro.cli(Args)", "args = tyro.cli(Args)\n    args.num_workers = 2"),
        ("args = tyro.cli(Args)", "args = tyro.cli(Args)\n    setup(args)"),
        ("prefetch_factor: int = 4", "prefetch_factor: int = 4\n\n    def __post_init__(self):\n        self.num_workers = 2"),
        ("@dataclasses.dataclass", "@dataclasses.dataclass(init=False)"),
    ],
)
def test_dataclass_values_dl_lint_cannot_vouch_for_are_not_errors(tmp_path, change):
    script = tmp_path / "train.py"
    script.write_text(TYRO_SCRIPT.replace(*change))
    assert not [d for d in lint_paths([script]).diagnostics if d.code == "DL001"]


def test_a_tree_of_defaults_lists_naming_each_other_stays_bounded(tmp_path):
    """Ten entries per group config, each naming ten more, six deep, would be a million
    merges: the composition gives up on the entry (unknown) after a fixed number of configs
    (without the bound, the six levels all exist and data.num_workers would be known)."""
    files = {"conf/config.yaml": "defaults:\n  - data: c0\n  - _self_\nother: 1\n"}
    for level in range(7):
        entries = "".join(f"  - c{level + 1}_{k}\n" for k in range(10)) if level < 6 else ""
        for k in range(10):
            name = "c0" if level == 0 else f"c{level}_{k}"
            files[f"conf/data/{name}.yaml"] = (f"defaults:\n{entries}" if entries else "") + f"num_workers: {level}\n"
    composed = _compose(tmp_path, files)
    assert composed.lookup(("data", "num_workers")) is None
    assert _value(composed, "other") == 1
