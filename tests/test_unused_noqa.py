"""DL012 (unused-noqa), ruff's RUF100 for dl-lint's codes: off by default; prefixes understood;
other tools' codes and the `external` setting left alone; a directive counted where it silences
(a call of a loader factory, a DataLoader whose value a YAML config decides); the same answer
from the results cache. The single-file cases are in fixtures/rules/dl012_unused_noqa.py."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from dl_lint import lint_paths, lint_source
from dl_lint.config import Settings

LOADER = "from torch.utils.data import DataLoader\n"
UNUSED = LOADER + "loader = DataLoader([1, 2], num_workers=2)  # noqa: DL001, E501\n"


def _project(root: Path, files: dict, config: str = "[tool.dl-lint]\nextend-select = ['DL012']\n") -> Path:
    (root / "pyproject.toml").write_text(config)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def _found(root: Path, **kwargs):
    diags = lint_paths([root], **kwargs).diagnostics
    return [
        (Path(d.filename).resolve().relative_to(root.resolve()).as_posix(), d.location.row, d.code, d.message)
        for d in diags
    ]


def test_off_by_default_and_on_when_selected(tmp_path, run_cli):
    (tmp_path / "train.py").write_text(UNUSED)
    assert run_cli("train.py").stdout == "All checks passed!\n"
    result = run_cli("--extend-select", "DL012", "--output-format", "json", "train.py")
    assert result.returncode == 1
    [item] = json.loads(result.stdout)
    assert (item["code"], item["name"], item["severity"]) == ("DL012", "unused-noqa", "info")
    assert item["message"] == "Unused `noqa` directive (unused: DL001): it silences nothing here."
    assert item["location"] == {"row": 2, "column": 45} and item["end_location"] == {"row": 2, "column": 64}
    assert item["fix"]["applicability"] == "safe" and item["fix"]["edits"][0]["content"] == " E501"
    fixed = run_cli("--extend-select", "DL012", "--fix", "train.py")
    assert fixed.returncode == 0
    assert (tmp_path / "train.py").read_text() == UNUSED.replace("DL001, E501", "E501")


def test_external_codes_and_non_enabled_rules(tmp_path):
    root = _project(
        tmp_path,
        {
            "a.py": LOADER + "a = DataLoader([1, 2], num_workers=2)  # noqa: DL101\n"
            "b = DataLoader([1, 2], num_workers=2)  # noqa: DL305\n"
            "c = DataLoader([1, 2], num_workers=2)  # noqa: DL203, DLX9\n",
        },
        "[tool.dl-lint]\nextend-select = ['DL012']\nexternal = ['DL1', 'dl2']\n",
    )
    assert _found(root) == [
        ("a.py", 3, "DL012", "Unused `noqa` directive (non-enabled: DL305): it silences nothing here."),
    ]  # DL101 and DL203 are declared another tool's (prefixes, any case); DLX9 is no dl-lint code


def test_a_bad_external_setting_is_a_config_error(tmp_path, run_cli):
    _project(tmp_path, {"a.py": UNUSED}, "[tool.dl-lint]\nexternal = ['E 501']\n")
    result = run_cli("a.py")
    assert result.returncode == 2
    assert result.stderr == (
        "dl-lint: error: pyproject.toml: external: invalid entry 'E 501'; expected a list of rule codes or "
        'prefixes of other tools, such as "DLX1"\n'
    )


def test_a_directive_used_by_a_finding_reported_at_a_factory_call(tmp_path):
    root = _project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/loaders.py": LOADER + "def make(ds, workers=0, prefetch=2):\n"
            "    return DataLoader(ds, num_workers=workers, prefetch_factor=prefetch)\n",
            "pkg/train.py": "from pkg.loaders import make\n"
            "a = make(range(8))  # noqa: DL001\n"
            "b = make(range(8), workers=2)  # noqa: DL001\n",
        },
    )
    assert [found[:3] for found in _found(root)] == [("pkg/train.py", 3, "DL012")]
    cache = tmp_path / ".cache"
    cold = _found(root, cache=True, cache_dir=cache)
    warm = _found(root, cache=True, cache_dir=cache)
    assert cold == warm == _found(root)


def test_a_directive_on_the_call_used_by_a_finding_in_the_yaml_it_reads(tmp_path):
    train = """\
        import hydra
        from torch.utils.data import DataLoader


        @hydra.main(version_base=None, config_path="conf", config_name="config")
        def main(cfg):
            return DataLoader(range(8), num_workers=cfg.data.num_workers, persistent_workers=True)  # noqa: DL002, DL001
        """
    root = _project(
        tmp_path,
        {
            "train.py": train,
            "conf/config.yaml": "defaults:\n  - data: default\n",
            "conf/data/default.yaml": "num_workers: 0\n",
        },
    )
    found = _found(root)
    assert found == [
        ("train.py", 7, "DL012", "Unused `noqa` directive (unused: DL001): it silences nothing here.")
    ]
    cache = tmp_path / ".cache"
    assert _found(root, cache=True, cache_dir=cache) == _found(root, cache=True, cache_dir=cache) == found


def test_silenced_like_any_rule(tmp_path):
    root = _project(
        tmp_path,
        {
            "ignored/a.py": UNUSED,
            "whole_file.py": "# dl-lint: noqa: DL012\n" + UNUSED,
            "kept.py": UNUSED.replace("E501", "DL012"),
            "reported.py": UNUSED,
        },
        "[tool.dl-lint]\nextend-select = ['DL012']\nper-file-ignores = { 'ignored/*' = ['DL012'] }\n",
    )
    assert [found[:3] for found in _found(root)] == [("reported.py", 2, "DL012")]


def test_lint_source_reports_it_too():
    """The flake8 plugin, the language server and the fix verification lint one source."""
    settings = Settings(extend_select=("DL012",))
    [diag] = lint_source(UNUSED, "train.py", settings)
    assert diag.code == "DL012" and diag.suppressed_at is None
    assert lint_source(UNUSED, "train.py", Settings()) == []
    silenced = LOADER + "loader = DataLoader([1, 2], prefetch_factor=2)  # noqa: DL001\n"
    assert lint_source(silenced, "train.py", settings) == []  # used: and the silenced DL001 is not shown


def test_a_directive_on_a_cited_dataset_class_is_used(tmp_path):
    """A `# noqa` on a line a finding cites (the IterableDataset's class) silences it (issue 26's
    rule): that directive is used, and a prefix of the code counts as flake8 reads it."""
    root = _project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/data.py": "from torch.utils.data import IterableDataset\n\n\n"
            "class Stream(IterableDataset):  # noqa: DL2\n"
            "    def __iter__(self):\n"
            "        return iter(range(10))\n\n\n"
            "class Other(IterableDataset):  # noqa: DL201\n"
            "    def __iter__(self):\n"
            "        return iter(range(10))\n",
            "pkg/train.py": "from torch.utils.data import DataLoader\n"
            "from pkg.data import Stream\n\n"
            "loader = DataLoader(Stream(), num_workers=4)\n",
        },
    )
    assert [found[:3] for found in _found(root)] == [("pkg/data.py", 9, "DL012")]  # Other is used by no loader
