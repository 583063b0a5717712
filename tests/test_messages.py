"""Messages teach in two parts (issues #19 and #27): a short sentence, what is wrong, the numbers
and what happens, in at most 120 characters, for the concise line (and the formats read one line
at a time: GitHub annotations, GitLab, JUnit, flake8); and the detail (where the values come from,
torch's own error, the reasoning, what to write instead) for the full format, JSON, SARIF and the
language server. Places a message cites are data (``Diagnostic.related``), printed in the same
path form as the diagnostic's own path: no path is written into a message or a detail."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.model import Diagnostic, Fix, Location, Related, Severity
from dl_lint.report import render

from conftest import FIXTURES, ROOT

GROUPS = ("rules", "idioms", "versions", "spawn")


@pytest.fixture(scope="module")
def every_fixture_diagnostic():
    result = lint_paths([FIXTURES / g for g in GROUPS], overrides={"select": ("ALL",)})
    # DL104 reads the container definitions at the project root: its fixture projects are
    # linted as their own roots.
    roots = sorted(p for p in (FIXTURES / "rules").iterdir() if p.is_dir() and p.name.startswith("dl104_"))
    own = [d for root in roots for d in lint_paths([root]).diagnostics]
    return result.diagnostics + own


@pytest.fixture(scope="module")
def fixture_diagnostics(every_fixture_diagnostic):
    return [d for d in every_fixture_diagnostic if d.code != "DL000"]


def test_every_fixture_diagnostic_fits_the_concise_bound(every_fixture_diagnostic):
    """Issue 27: concise lines were 220-297 characters on real repositories, ruff's under 100."""
    from dl_lint.rules.base import MESSAGE_LIMIT

    assert MESSAGE_LIMIT == 120
    long = [f"{d.filename}:{d.location.row}: {d.code} ({len(d.message)}) {d.message}" for d in every_fixture_diagnostic
            if len(d.message) > MESSAGE_LIMIT]
    assert not long, "\n".join(long)


_PATH = re.compile(r"[\w.-]+\.(?:py|ya?ml|json|toml|ipynb|sh)\b")


def test_no_path_is_written_into_a_message_or_a_detail(every_fixture_diagnostic):
    """A file a diagnostic cites is a related location (printed as the diagnostic's own path is);
    the text never names it, where a bare ``loader.py`` could stand for ``pkg/loader.py``."""
    allowed = {"devcontainer.json", "pyproject.toml", "data/build.py", "build.py"}  # names of kinds of file
    for d in every_fixture_diagnostic:
        text = re.sub(r"`[^`]*`", "", d.full_message)  # code quoted from the source: OmegaConf.load('a.yaml')
        found = set(_PATH.findall(text))
        assert found <= allowed, f"{d.filename}:{d.location.row}: {d.code}: {sorted(found - allowed)}: {d.full_message}"


def test_every_rule_message_is_one_short_sentence_and_the_rest_is_its_detail(fixture_diagnostics):
    from dl_lint.rules import all_rules

    fired = {d.code for d in fixture_diagnostics}
    assert fired == set(all_rules()) - {"DL000"}  # every rule's messages are checked here
    for d in fixture_diagnostics:
        where = f"{d.filename}:{d.location.row}: {d.code} {d.message}"
        assert "\n" not in d.message and d.message.endswith("."), where
        assert not re.search(r"\.\s+[A-Z]", d.message), f"more than one sentence: {where}"
        assert "torch's error" not in d.message, where
        assert d.detail and d.detail.endswith((".", ")")), f"no detail: {where}"
        assert d.full_message == f"{d.message} {d.detail}"


def test_the_values_origins_are_in_the_detail_and_their_places_cited(tmp_path):
    """`num_workers=0 (default of --workers, train.py:12)` was in the concise line, with the bare
    name of the file: now the line says `num_workers=0`, the detail where the value comes from,
    and the line that sets it is a related location."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg" / "train.py").write_text(
        "import argparse\n"
        "from torch.utils.data import DataLoader\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--workers', type=int, default=0)\n"
        "args = parser.parse_args()\n"
        "loader = DataLoader([1, 2], num_workers=args.workers, prefetch_factor=2)\n"
    )
    [d] = [d for d in lint_paths([tmp_path / "pkg"]).diagnostics if d.code == "DL001"]
    assert d.message == "prefetch_factor=2 is passed but num_workers=0: torch >= 2.0 raises ValueError at construction."
    assert d.detail.startswith("Values: num_workers=0 (default of --workers). torch's error: ")
    assert d.related == (Related(str(tmp_path / "pkg" / "train.py"), 4, 1, "num_workers=0 is set here (default of --workers)"),)


def test_crash_rules_quote_torchs_error_in_the_detail(fixture_diagnostics):
    quoted = {
        "DL001": "prefetch_factor option could only be specified in multiprocessing",
        "DL002": "persistent_workers option needs num_workers > 0",
        "DL006": "sampler option is mutually exclusive with shuffle",
        "DL008": "batch_size=None option disables auto-batching",
    }
    for code, text in quoted.items():
        found = [d for d in fixture_diagnostics if d.code == code]
        assert found and all(text in d.detail for d in found), code


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (project / "pkg" / "data.py").write_text(
        "from torch.utils.data import IterableDataset\n\n\n"
        "class Stream(IterableDataset):\n"
        "    def __iter__(self):\n"
        "        return iter(range(10))\n"
    )
    (project / "pkg" / "train.py").write_text(
        "from torch.utils.data import DataLoader\n"
        "from pkg.data import Stream\n\n"
        "loader = DataLoader(Stream(), num_workers=4)\n"
    )
    return project


def _dl201(result_json: str) -> dict:
    [item] = [d for d in json.loads(result_json) if d["code"] == "DL201"]
    return item


def test_a_cited_place_is_printed_like_the_diagnostics_own_path(tmp_path, run_cli):
    project = _project(tmp_path)

    from_root = _dl201(run_cli("--output-format", "json", "pkg", cwd=project).stdout)
    assert from_root["filename"] == "pkg/train.py"
    assert from_root["related"] == [
        {"cell": None, "filename": "pkg/data.py", "location": {"column": 1, "row": 4},
         "note": "Stream is defined here"}
    ]
    assert "data.py" not in from_root["message"]  # the place is data, not text baked into the message

    # Answered from the results cache (kept at the project root), from another folder: the
    # cited path follows the working directory of this run, not the one that filled the cache.
    inside = _dl201(run_cli("--output-format", "json", ".", cwd=project / "pkg").stdout)
    assert inside["filename"] == "train.py" and inside["related"][0]["filename"] == "data.py"
    full = run_cli("--output-format", "full", ".", cwd=project / "pkg").stdout
    assert "  note: data.py:4:1: Stream is defined here" in full

    above = _dl201(run_cli("--output-format", "json", "proj/pkg", cwd=tmp_path).stdout)
    assert above["filename"] == "proj/pkg/train.py" and above["related"][0]["filename"] == "proj/pkg/data.py"

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    absolute = _dl201(run_cli("--output-format", "json", project / "pkg", cwd=elsewhere).stdout)
    assert absolute["filename"] == str(project / "pkg" / "train.py")
    assert absolute["related"][0]["filename"] == str(project / "pkg" / "data.py")


def test_a_cached_diagnostic_keeps_its_detail_and_places(tmp_path, monkeypatch):
    project = _project(tmp_path)
    monkeypatch.chdir(project)
    cold = lint_paths(["pkg"], cache=True)
    monkeypatch.chdir(project / "pkg")
    warm = lint_paths(["."], cache=True)
    assert cold.files_parsed == 1 and warm.files_parsed == 0  # the second run is the cache's
    [a] = [d for d in cold.diagnostics if d.code == "DL201"]
    [b] = [d for d in warm.diagnostics if d.code == "DL201"]
    assert (a.message, a.detail, a.related) == (b.message, b.detail, b.related)
    assert b.related == (Related(str(project / "pkg" / "data.py"), 4, 1, "Stream is defined here"),)


def test_a_place_in_a_notebook_is_cited_by_cell(tmp_path, run_cli):
    cells = [
        "from torch.utils.data import DataLoader, IterableDataset\n",
        "class Stream(IterableDataset):\n    def __iter__(self):\n        return iter(range(3))\n",
        "loader = DataLoader(Stream(), num_workers=4)\n",
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
            for source in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook))
    for _ in range(2):  # the second run is answered from the cache
        # (DL202 reports the loader too: its workers cannot import a class the notebook defines)
        [item] = json.loads(run_cli("--output-format", "json", "--select", "DL201", "nb.ipynb").stdout)
        assert (item["code"], item["cell"], item["location"]["row"]) == ("DL201", 3, 1)
        assert item["related"] == [
            {"cell": 2, "filename": "nb.ipynb", "location": {"column": 1, "row": 1}, "note": "Stream is defined here"}
        ]
    full = run_cli("--output-format", "full", "--select", "DL201", "nb.ipynb").stdout
    assert "  note: nb.ipynb:cell 2:1:1: Stream is defined here" in full.splitlines()


def test_a_loader_judged_at_a_call_cites_the_loader(run_cli):
    result = run_cli("--output-format", "json", "fixtures/rules/xmod_project", cwd=ROOT)
    item, *_ = [
        d for d in json.loads(result.stdout) if d["code"] == "DL001" and d["filename"].endswith("pkg/train.py")
        and d["message"].startswith("make_loader(): ") and d["detail"].startswith("With the arguments of this call, ")
    ]
    assert item["message"] == (
        "make_loader(): prefetch_factor=2 is passed but num_workers=0: torch >= 2.0 raises ValueError at construction."
    )
    assert item["detail"].startswith("With the arguments of this call, in the DataLoader make_loader() builds (cited): ")
    # The advice quotes the factory's code: the detail says that is where it goes.
    assert item["detail"].endswith(
        "Code in backquotes goes in make_loader(), where it builds the DataLoader; or change what this call passes."
    )
    [loader] = item["related"][:1]
    assert loader["filename"] == "fixtures/rules/xmod_project/pkg/factory.py"
    assert loader["note"] == "the DataLoader make_loader() builds"
    factory = (ROOT / loader["filename"]).read_text().splitlines()
    assert "DataLoader(" in factory[loader["location"]["row"] - 1]
    assert "prefetch_factor option could only be specified" in item["detail"]
    # Where the values come from: the factory's defaults, cited at their line in factory.py.
    assert {r["note"] for r in item["related"][1:]} == {
        "num_workers=0 is set here (default of parameter num_workers)",
        "prefetch_factor=2 is set here (default of parameter prefetch_factor)",
    }
    assert all(r["filename"] == loader["filename"] for r in item["related"])


DIAG = Diagnostic(
    code="DL201",
    name="unsharded-iterable-dataset",
    severity=Severity.WARNING,
    message="Stream does not shard by worker and num_workers=4: an epoch yields every sample 4 times.",
    filename="pkg/train.py",
    location=Location(4, 21),
    end_location=Location(4, 29),
    detail="Each of the 4 workers iterates the whole dataset. Shard in __iter__ with "
    "torch.utils.data.get_worker_info().",
    related=(Related(str(Path.cwd() / "pkg" / "my data.py"), 4, 1, "Stream is defined here"),),
)


def _spawn_run(run_cli, seed: str) -> list:
    result = run_cli(
        "--no-cache", "--output-format", "json", "--exit-zero", ".",
        cwd=FIXTURES / "spawn", env={"PYTHONHASHSEED": seed},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_loader_a_builder_has_another_module_build_is_cited_in_that_module(run_cli):
    # create_data() (_factories/builders.py) makes a CustomDatasetDataLoader, whose
    # initialize() builds the DataLoader in _factories/wrappers.py: the note cites that file's
    # line, not the same line of builders.py (which has ten lines).
    found = [
        d for d in _spawn_run(run_cli, "0")
        if d["filename"] == "dl203_held_by_builder_module.py" and d["code"] == "DL203"
    ]
    [item] = found
    [loader] = [r for r in item["related"] if r["note"] == "the DataLoader create_data() builds"]
    assert loader["filename"] == "_factories/wrappers.py"
    line = (FIXTURES / "spawn" / loader["filename"]).read_text().splitlines()[loader["location"]["row"] - 1]
    assert line[loader["location"]["column"] - 1 :].startswith("DataLoader(")


def test_a_call_site_finding_cites_its_callers_own_start_method_in_every_run(run_cli):
    # The factory's module is imported by many scripts that ask for spawn; which one a search
    # of the import graph met first used to depend on the hash seed, and with it whether the
    # caller's own set_start_method was cited. Two seeds give the same bytes now.
    first, second = _spawn_run(run_cli, "1"), _spawn_run(run_cli, "3")
    assert first == second
    [item] = [
        d for d in first if d["filename"] == "dl203_held_at_construction_direct.py" and d["code"] == "DL203"
    ]
    assert "The calling module asks for spawn/forkserver (line 7)." in item["detail"]
    assert {
        "filename": "dl203_held_at_construction_direct.py",
        "location": {"column": 1, "row": 7},
        "note": "the start method is set to spawn/forkserver here",
        "cell": None,
    } in item["related"]
    assert "set_start_method" in (FIXTURES / "spawn" / item["filename"]).read_text().splitlines()[6]


def test_concise_prints_the_sentence_and_full_prints_the_rest():
    concise = render("concise", [DIAG])
    assert concise.splitlines()[0] == f"pkg/train.py:4:21: DL201 {DIAG.message}"
    assert "Each of the 4 workers" not in concise and "defined here" not in concise

    full = render("full", [DIAG], sources={"pkg/train.py": "\n\n\nloader = DataLoader(Stream(), num_workers=4)\n"})
    lines = full.splitlines()
    assert lines[0] == concise.splitlines()[0]
    expected = textwrap.wrap(DIAG.detail, 100, initial_indent="  ", subsequent_indent="  ", break_long_words=False)
    start = lines.index(expected[0])
    assert lines[start : start + len(expected)] == expected  # after the snippet, before the note
    assert lines[start - 1] == "  |" and "^^^^^^^^" in lines[start - 2]
    assert lines[start + len(expected)] == "  note: pkg/my data.py:4:1: Stream is defined here"


def test_machine_formats_carry_the_detail_and_the_places():
    """JSON, SARIF (and the full format, the language server) carry the detail; the formats read
    a line at a time carry the concise message, as ruff's do: a GitHub annotation (with the fix's
    title as ruff's `help:`), GitLab's description, a JUnit failure."""
    root = str(Path.cwd())
    github = render("github", [DIAG], root=root)
    assert github.endswith(f"::pkg/train.py:4:21: DL201 {DIAG.message}\n")
    assert "Each of the 4 workers" not in github and "defined here" not in github
    fixable = DIAG.replace(fix=Fix("unsafe", "Shard __iter__ by worker", ()))
    assert render("github", [fixable], root=root).endswith(f"DL201 {DIAG.message}%0A  help: Shard __iter__ by worker\n")

    [result] = json.loads(render("sarif", [DIAG], root=root))["runs"][0]["results"]
    assert result["message"]["text"] == DIAG.full_message
    [related] = result["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"] == {"uri": "pkg/my%20data.py", "uriBaseId": "%SRCROOT%"}
    assert related["physicalLocation"]["region"] == {"startLine": 4, "startColumn": 1}
    assert related["message"]["text"] == "Stream is defined here"

    [item] = json.loads(render("json", [DIAG]))
    assert item["message"] == DIAG.message and item["detail"] == DIAG.detail
    assert item["related"][0]["filename"] == "pkg/my data.py"

    [issue] = json.loads(render("gitlab", [DIAG], root=root))
    assert issue["description"] == f"DL201: {DIAG.message}"  # ruff's "F401: `os` imported but unused"

    junit = render("junit", [DIAG])
    assert "Each of the 4 workers" not in junit and 'message="Stream does not shard by worker' in junit


def test_language_server_shows_the_sentence_first_and_links_the_places():
    from dl_lint.lsp import to_lsp_diagnostic  # lsprotocol comes with pygls, in the test extra

    lsp_diag = to_lsp_diagnostic(DIAG, ["", "", "", "loader = DataLoader(Stream(), num_workers=4)"])
    first, rest = lsp_diag.message.split("\n", 1)
    assert first == DIAG.message and rest == DIAG.detail
    [info] = lsp_diag.related_information
    assert info.location.uri == Path(DIAG.related[0].path).as_uri() and info.message == "Stream is defined here"
    assert info.location.range.start.line == 3


def test_flake8_plugin_reports_the_sentence(tmp_path):
    from dl_lint.flake8_plugin import Plugin

    path = tmp_path / "t.py"
    path.write_text("from torch.utils.data import DataLoader\nDataLoader([1], prefetch_factor=2)\n")
    [(row, col, text, _)] = list(Plugin(None, path.read_text().splitlines(True), str(path)).run())
    assert text.startswith("DL001 ") and text.endswith("raises ValueError at construction.")


def test_a_long_parse_error_is_split_into_a_short_message_and_its_detail(tmp_path):
    """DL000's reason comes from a parser or the system, of any length: the concise line keeps
    the bound, the rest is the detail, and the file that reads a broken YAML is cited, not named."""
    from dl_lint.files import split_message
    from dl_lint.rules.base import MESSAGE_LIMIT

    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\nmax-file-size = 300\n")
    (tmp_path / "big.py").write_text("from torch.utils.data import DataLoader\n" + "x = 1\n" * 60)
    (tmp_path / "train.py").write_text(
        "import hydra\nfrom torch.utils.data import DataLoader\n\n\n"
        '@hydra.main(version_base=None, config_path="conf", config_name="config")\n'
        "def main(cfg):\n"
        "    return DataLoader(range(8), num_workers=cfg.data.num_workers, persistent_workers=True)\n"
    )
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text("data:\n  num_workers: [0\n")
    found = {Path(d.filename).name: d for d in lint_paths([tmp_path]).diagnostics if d.code == "DL000"}
    assert set(found) == {"big.py", "config.yaml"}
    for d in found.values():
        assert len(d.message) <= MESSAGE_LIMIT, d.message
    assert found["big.py"].message.startswith("cannot parse: file too large to analyse")
    assert found["big.py"].detail == "Exclude it, or raise the limit."  # the message was 122 characters
    assert found["config.yaml"].message.startswith("cannot parse this YAML config: ")
    assert "train.py" not in found["config.yaml"].full_message
    assert [(r.path, r.note) for r in found["config.yaml"].related] == [
        (str(tmp_path / "train.py"), "this file reads the YAML config")
    ]
    assert split_message("cannot read file: short") == ("cannot read file: short", "")
    head, rest = split_message("x" * 300)
    assert len(head) <= MESSAGE_LIMIT and rest == "x" * 300
