"""DL202 and DL203 follow the start method of the target (issue 18, part 3): errors when no
Python the project runs on starts workers with fork (every allowed Python is 3.14 or later, or
the project runs only on macOS and Windows), warnings when fork stays possible. The allowed
Pythons come from the ``target-python`` setting or ``requires-python``, read conservatively.
tests/test_spawn.py runs the failing scripts under forkserver with torch."""

from __future__ import annotations

from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.pythons import lowest_python, platforms, start_method_target
from dl_lint.config import ConfigError, clear_caches, load_config_file
from dl_lint.model import Severity

from conftest import FIXTURES

FOURTEEN = FIXTURES / "versions" / "python_3_14"


@pytest.fixture(autouse=True)
def _fresh_caches():
    clear_caches()
    yield
    clear_caches()


@pytest.mark.parametrize(
    "specifier, lowest",
    [
        (">=3.14", (3, 14)),
        (">=3.14,<4", (3, 14)),
        ("<4, >=3.14.0rc1", (3, 14)),
        ("~=3.14", (3, 14)),
        ("==3.14.*", (3, 14)),
        ("3.14", (3, 14)),  # the target-python setting: that Python
        (">3.13", (3, 13)),  # allows 3.13.1
        (">=3.9", (3, 9)),
        (">=3.9,!=3.14.*", (3, 9)),
        ("<3.14", None),
        ("!=3.13", None),
    ],
)
def test_the_lowest_allowed_python_of_a_specifier(specifier, lowest):
    assert lowest_python(specifier) == lowest


@pytest.mark.parametrize("text", ["", "python3", "3", ">=", ">=3.14.*", "~=3", "3.14 or later", ">= three"])
def test_what_is_not_a_specifier_is_refused(text):
    with pytest.raises(ValueError):
        lowest_python(text)


def test_certain_only_when_no_allowed_python_or_platform_forks():
    assert start_method_target(">=3.14", "requires-python").methods == "forkserver or spawn"
    assert start_method_target(">3.13", "requires-python") is None
    assert start_method_target(">=3.10", "requires-python") is None
    assert start_method_target(None, "requires-python") is None
    assert start_method_target("not a specifier", "requires-python") is None  # unknown: keep warning
    windows = ["Operating System :: Microsoft :: Windows"]
    macos = ["Operating System :: MacOS :: MacOS X"]
    assert start_method_target(None, "requires-python", windows + macos).methods == "spawn"
    assert start_method_target(None, "requires-python", macos + ["Operating System :: POSIX :: Linux"]) is None
    assert start_method_target(None, "requires-python", ["Operating System :: OS Independent"]) is None
    # macOS used fork before Python 3.8: certain only when no older Python is allowed.
    assert start_method_target(">=3.6", "requires-python", macos, python_floor=(3, 6)) is None
    assert start_method_target(">=3.6", "requires-python", windows, python_floor=(3, 6)).methods == "spawn"
    assert platforms(macos + windows) == {"macos", "windows"}


def _severities(path) -> dict:
    return {(Path(d.filename).name, d.code): d.severity for d in lint_paths([path]).diagnostics}


def test_requires_python_314_makes_dl202_and_dl203_errors():
    diagnostics = lint_paths([FOURTEEN]).diagnostics
    assert {(Path(d.filename).name, d.code, d.severity) for d in diagnostics} == {
        ("train.py", "DL202", Severity.ERROR),
        ("evaluate.py", "DL203", Severity.ERROR),
    }
    for d in diagnostics:
        assert "Python >=3.14 (requires-python)" in d.detail and "spawn/forkserver workers fail" in d.message
        assert "requires-python allows only Python >=3.14" in d.detail


def _project(tmp_path: Path, project_table: str, tool_table: str = "", extra: str = "") -> Path:
    for script in ("train.py", "evaluate.py"):
        source = (FOURTEEN / script).read_text(encoding="utf-8")
        (tmp_path / script).write_text(extra + source, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(f"[project]\nname = 'p'\n{project_table}\n{tool_table}", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "project_table, tool_table, expected",
    [
        ('requires-python = ">=3.10"', "", Severity.WARNING),  # Linux still forks on 3.10 .. 3.13
        ('requires-python = ">3.13"', "", Severity.WARNING),  # 3.13.1 is allowed
        ("", "", Severity.WARNING),
        ('requires-python = ">=3.10"', '[tool.dl-lint]\ntarget-python = "3.14"\n', Severity.ERROR),
        ('requires-python = ">=3.14"', '[tool.dl-lint]\ntarget-python = "3.12"\n', Severity.WARNING),
        ('classifiers = ["Operating System :: Microsoft :: Windows"]', "", Severity.ERROR),
        ('classifiers = ["Operating System :: MacOS", "Operating System :: POSIX :: Linux"]', "", Severity.WARNING),
    ],
)
def test_the_severity_follows_the_target(tmp_path, project_table, tool_table, expected):
    project = _project(tmp_path, project_table, tool_table)
    assert _severities(project) == {("train.py", "DL202"): expected, ("evaluate.py", "DL203"): expected}


def test_a_program_that_asks_for_fork_keeps_warnings(tmp_path):
    fork = "import multiprocessing\nmultiprocessing.set_start_method('fork')\n"
    project = _project(tmp_path, 'requires-python = ">=3.14"', extra=fork)
    assert set(_severities(project).values()) == {Severity.WARNING}


def test_a_call_that_names_fork_keeps_a_warning(tmp_path):
    project = _project(tmp_path, 'requires-python = ">=3.14"')
    train = project / "train.py"
    train.write_text(train.read_text().replace("collate_fn=lambda batch: batch", "collate_fn=lambda b: b, multiprocessing_context='fork'"))
    assert _severities(project)[("train.py", "DL202")] is Severity.WARNING


def test_a_file_outside_the_project_is_judged_by_its_own_project(tmp_path):
    """The run's first path does not lend its requires-python to files of another project."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    project = _project(tmp_path / "a", 'requires-python = ">=3.14"')
    other = _project(tmp_path / "b", 'requires-python = ">=3.10"')
    diagnostics = lint_paths([project, other]).diagnostics
    by_project = {(Path(d.filename).parent.name, d.code): d.severity for d in diagnostics}
    assert by_project[("a", "DL202")] is Severity.ERROR and by_project[("b", "DL202")] is Severity.WARNING


def test_the_cache_notices_a_changed_requires_python(tmp_path):
    project = _project(tmp_path, 'requires-python = ">=3.10"')
    cache = tmp_path / ".cache"
    first = lint_paths([project], cache=True, cache_dir=cache).diagnostics
    assert {d.severity for d in first} == {Severity.WARNING}
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\nrequires-python = '>=3.14'\n")
    clear_caches()  # a new process would read the file again
    second = lint_paths([project], cache=True, cache_dir=cache).diagnostics
    assert {d.severity for d in second} == {Severity.ERROR}


@pytest.mark.parametrize("value", ['"3.14 please"', "3.14", '">=3"x"', '"python3"'])
def test_an_invalid_target_python_is_a_one_line_error(tmp_path, value):
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[tool.dl-lint]\ntarget-python = {value}\n")
    try:
        load_config_file(path, {"DL202": True})
    except ConfigError as error:
        message = str(error)
    else:
        raise AssertionError("no error")
    assert "\n" not in message
    assert "target-python" in message or "cannot parse TOML" in message


def test_target_python_is_read_and_validated(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.dl-lint]\ntarget-python = ">=3.14"\n')
    assert load_config_file(path, {"DL202": True}).target_python == ">=3.14"
    path = tmp_path / "dl-lint.toml"
    path.write_text('target-python = "three"\n')
    with pytest.raises(ConfigError, match=r"target-python: invalid value 'three'; expected a Python version"):
        load_config_file(path, {"DL202": True})
