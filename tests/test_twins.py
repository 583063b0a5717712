"""Twins (issue 28, section 4): a module-level ``name = DataLoader(<literals>)`` whose text
repeats is analysed once, its twins placed by ``LoaderCall.moved_to`` (``ModuleFacts.twins``),
and judged through the first when the first has no finding. The twin path must give exactly
what the usual path gives. A module is written twice: as is, where its repeated calls are
twins, and with one last comment line naming every target, which makes each target "written
elsewhere" and sends every call down the usual path (a comment changes nothing else the
analysis reads). Facts and diagnostics must be equal, and the first module must have twins
(else these tests would compare the usual path with itself)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dl_lint import remember
from dl_lint.analysis.module import analyze_source
from dl_lint.config import Settings
from dl_lint.engine import lint_paths, lint_source
from dl_lint.record import as_dict

EVERYTHING = Settings(select=("ALL",))


def _module() -> str:
    lines = ["import torch", "from torch.utils.data import DataLoader", ""]
    for i in range(40):
        lines.append(f"q{i} = DataLoader([1], num_workers=2)")  # nothing to report
        if i % 4 == 0:
            lines.append(f"e{i} = DataLoader([1], prefetch_factor=2)")  # DL001: raises
        if i % 8 == 1:
            lines.append(f"e_quiet{i} = DataLoader([1], prefetch_factor=2)  # noqa: DL001")
        if i % 5 == 2:
            lines.append(f"p{i} = DataLoader([[1, 2], (3, -4)], batch_size=2 ** 3, num_workers=2, pin_memory=True)")
        if i % 10 == 3:
            lines.append(f"ü{i} = DataLoader(['é'], num_workers=0, persistent_workers=True)")  # DL002, non-ASCII columns
        if i == 17:
            lines.append("# dl-lint: batch-bytes=64MiB")
            lines.append(f"b{i} = DataLoader([1], num_workers=8, prefetch_factor=8)")
        if i % 10 == 5:
            lines.append(f"b{i} = DataLoader([1], num_workers=8, prefetch_factor=8)")
    lines += [
        "for batch in q3:  # read: q3 goes the usual way",
        "    pass",
        "if torch.cuda.is_available():",
        "    q_guarded = DataLoader([1], num_workers=2)  # in an if: the usual way",
        "q3 = DataLoader([1], num_workers=2)",
    ]
    return "\n".join(lines) + "\n"


def _without_twins(source: str) -> str:
    """The same module, every call down the usual path: a last comment line names every target."""
    targets = re.findall(r"^(\w+) = DataLoader", source, flags=re.MULTILINE)
    return source + "# " + " ".join(targets) + "\n"


def _plain(calls) -> list:
    return sorted((as_dict(call) for call in calls), key=lambda c: (c["location"]["row"], c["location"]["column"]))


def _diagnostics(diags) -> list:
    return [
        (d.code, d.location, d.end_location, d.message, d.detail, d.fix, d.related, d.noqa_rows, d.suppressed_at)
        for d in diags
    ]


def test_the_module_has_twins_and_the_comment_removes_them():
    source = _module()
    with_twins = analyze_source(source, "loaders.py")
    without = analyze_source(_without_twins(source), "loaders.py")
    assert len(with_twins.twins) > 60 and len(with_twins.calls) < 15
    assert without.twins == () and len(without.calls) == len(with_twins.every_call())


def test_twins_have_the_facts_of_the_usual_path():
    source = _module()
    with_twins = analyze_source(source, "loaders.py").every_call()
    without = analyze_source(_without_twins(source), "loaders.py").calls
    assert _plain(with_twins) == _plain(without)


def test_twins_have_the_diagnostics_of_the_usual_path():
    source = _module()
    with_twins = lint_source(source, "loaders.py", EVERYTHING)
    without = lint_source(_without_twins(source), "loaders.py", EVERYTHING)
    codes = {d.code for d in with_twins}
    assert {"DL001", "DL002"} <= codes, codes  # twins with findings are judged each
    assert sum(d.code == "DL001" for d in with_twins) == 10  # the e{i} lines; e_quiet{i} silenced
    assert _diagnostics(with_twins) == _diagnostics(without)


def test_a_measured_figure_of_one_twin_is_read_at_its_own_row(tmp_path: Path, monkeypatch):
    """A record of ``dl-lint measure`` for one twin (its fingerprint holds its target, so only
    that line matches): the first finds nothing (8 batches of unknown bytes), the measured twin
    is over the memory budget (9 batches of 4 GiB), as on the usual path."""
    source = "from torch.utils.data import DataLoader\n" + "".join(
        f"x{i} = DataLoader([1], batch_size=4, num_workers=4, prefetch_factor=2)\n" for i in range(30)
    )
    results = {}
    for name, text in (("twins", source), ("usual", _without_twins(source))):
        project = tmp_path / name
        project.mkdir()
        (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
        (project / "loaders.py").write_text(text)
        entry = {"path": "loaders.py", "line": 10, "scope": "", "batch_bytes": 4 * 2**30, "target": "", "torch": ""}
        entry["fingerprint"] = remember.fingerprint(text.splitlines(), (10, 10), "")
        remember.write(str(project), entry)
        monkeypatch.chdir(project)
        results[name] = _diagnostics(lint_paths(["loaders.py"], overrides={"select": ["ALL"]}, cache=False).diagnostics)
    assert len(analyze_source(source, "loaders.py").twins) == 29
    [measured] = [d for d in results["twins"] if d[0] == "DL101"]
    assert measured[1].row == 10 and "as measured" in measured[4]
    assert results["twins"] == results["usual"]


def test_the_json_output_of_many_twins_matches_the_usual_path(tmp_path: Path, run_cli):
    """Through the real command line, as a user runs it (the run's cache on)."""
    source = _module()
    outputs = []
    for name, text in (("twins", source), ("usual", _without_twins(source))):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "loaders.py").write_text(text, encoding="utf-8")
        result = run_cli("--select", "ALL", "--output-format", "json", "loaders.py", cwd=folder)
        assert result.returncode == 1, result.stderr
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]
