"""Messages teach in two parts (issue #19): a short first sentence, what is wrong and what happens
at runtime, for the concise line; and the detail (torch's own error, the numbers, what to write
instead) for the full format, JSON, SARIF, GitHub annotations and the language server. Places a
message cites are data (``Diagnostic.related``), printed in the same path form as the
diagnostic's own path."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.model import Diagnostic, Location, Related, Severity
from dl_lint.report import render

from conftest import FIXTURES, ROOT

GROUPS = ("rules", "idioms", "versions", "spawn")


@pytest.fixture(scope="module")
def fixture_diagnostics():
    result = lint_paths([FIXTURES / g for g in GROUPS], overrides={"select": ("ALL",)})
    # DL104 reads the container definitions at the project root: its fixture projects are
    # linted as their own roots.
    roots = sorted(p for p in (FIXTURES / "rules").iterdir() if p.is_dir() and p.name.startswith("dl104_"))
    own = [d for root in roots for d in lint_paths([root]).diagnostics]
    return [d for d in result.diagnostics + own if d.code != "DL000"]


def test_every_rule_message_is_one_short_sentence_and_the_rest_is_its_detail(fixture_diagnostics):
    from dl_lint.rules import all_rules

    fired = {d.code for d in fixture_diagnostics}
    assert fired == set(all_rules()) - {"DL000"}  # every rule's messages are checked here
    for d in fixture_diagnostics:
        where = f"{d.filename}:{d.location.row}: {d.code} {d.message}"
        assert "\n" not in d.message and d.message.endswith("."), where
        assert not re.search(r"\.\s+[A-Z]", d.message), f"more than one sentence: {where}"
        assert len(d.message) <= 270, where  # they were 300-450 characters on one line
        assert "torch's error" not in d.message, where
        assert d.detail and d.detail.endswith((".", ")")), f"no detail: {where}"
        assert d.full_message == f"{d.message} {d.detail}"


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
        [item] = json.loads(run_cli("--output-format", "json", "nb.ipynb").stdout)
        assert (item["code"], item["cell"], item["location"]["row"]) == ("DL201", 3, 1)
        assert item["related"] == [
            {"cell": 2, "filename": "nb.ipynb", "location": {"column": 1, "row": 1}, "note": "Stream is defined here"}
        ]
    full = run_cli("--output-format", "full", "nb.ipynb").stdout
    assert "  note: nb.ipynb:cell 2:1:1: Stream is defined here" in full.splitlines()


def test_a_loader_judged_at_a_call_cites_the_loader(run_cli):
    result = run_cli("--output-format", "json", "fixtures/rules/xmod_project", cwd=ROOT)
    [item] = [
        d for d in json.loads(result.stdout) if d["code"] == "DL001" and d["filename"].endswith("pkg/train.py")
        and d["message"].startswith("with the arguments of this call, the DataLoader in make_loader()")
    ]
    assert item["message"].startswith("with the arguments of this call, the DataLoader in make_loader(): ")
    assert "factory.py:" not in item["message"].split(": ", 1)[0]
    [loader] = item["related"][:1]
    assert loader["filename"] == "fixtures/rules/xmod_project/pkg/factory.py"
    assert loader["note"] == "the DataLoader make_loader() builds"
    factory = (ROOT / loader["filename"]).read_text().splitlines()
    assert "DataLoader(" in factory[loader["location"]["row"] - 1]
    assert "prefetch_factor option could only be specified" in item["detail"]


DIAG = Diagnostic(
    code="DL201",
    name="unsharded-iterable-dataset",
    severity=Severity.WARNING,
    message="Stream is an IterableDataset that does not shard by worker, and num_workers=4: an epoch yields "
    "every sample 4 times.",
    filename="pkg/train.py",
    location=Location(4, 21),
    end_location=Location(4, 29),
    detail="Each of the 4 workers iterates the whole dataset. Shard in __iter__ with "
    "torch.utils.data.get_worker_info().",
    related=(Related(str(Path.cwd() / "pkg" / "my data.py"), 4, 1, "Stream is defined here"),),
)


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
    root = str(Path.cwd())
    github = render("github", [DIAG], root=root)
    assert "%0AEach of the 4 workers iterates the whole dataset." in github
    assert "%0Anote: pkg/my data.py:4:1: Stream is defined here" in github

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
    assert issue["description"] == DIAG.full_message

    junit = render("junit", [DIAG])
    assert "Each of the 4 workers" in junit and 'message="Stream is an IterableDataset' in junit


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
