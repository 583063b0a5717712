"""DL202 and DL203 proven under the spawn start method: each script of fixtures/spawn runs in a
fresh interpreter. Scripts dl-lint flags must fail the way the rule says; the others must run."""

from __future__ import annotations

import subprocess
import sys

import pytest

# the spawn proof runs torch, a fresh interpreter per script: `python -m pytest -m slow` (CI's slow step)
pytestmark = [pytest.mark.torch, pytest.mark.slow]

from dl_lint import lint_paths  # noqa: E402

from conftest import FIXTURES  # noqa: E402

SCRIPTS = sorted((FIXTURES / "spawn").glob("*.py"))
# What each rule predicts the program prints when it fails.
FAILURE = {
    "DL202": ("pickle",),
    "DL203": ("bootstrapping phase", "exited unexpectedly"),
}


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_spawn_behaviour_matches_diagnostics(script):
    codes = {d.code for d in lint_paths([script], overrides={"select": ("ALL",)}).diagnostics}
    result = subprocess.run(
        [sys.executable, str(script)], cwd=script.parent, capture_output=True, text=True, timeout=120
    )
    predicted = codes & set(FAILURE)
    if predicted:
        assert result.returncode != 0, f"{script.name} ran cleanly although dl-lint reported {predicted}"
        output = result.stdout + result.stderr
        for code in predicted:
            assert any(fragment in output for fragment in FAILURE[code]), (code, output[-2000:])
    else:
        assert result.returncode == 0, result.stderr[-2000:]


def test_every_spawn_rule_has_a_failing_script():
    reported = set()
    for script in SCRIPTS:
        reported |= {d.code for d in lint_paths([script], overrides={"select": ("ALL",)}).diagnostics}
    assert set(FAILURE) <= reported


# Python 3.14's default start method on Linux, emulated on an older Python: forkserver is set as
# the default before the script runs as __main__ (its workers then re-import it as __mp_main__,
# as they would on 3.14).
AS_PYTHON_314 = (
    "import multiprocessing, runpy, sys; multiprocessing.set_start_method('forkserver'); "
    "runpy.run_path(sys.argv[1], run_name='__main__')"
)
PYTHON_314 = sorted((FIXTURES / "versions" / "python_3_14").glob("*.py"))


@pytest.mark.parametrize("script", PYTHON_314, ids=[s.stem for s in PYTHON_314])
def test_under_python_314s_default_start_method_the_errors_happen(script):
    """The project allows only Python >= 3.14, so DL202 and DL203 are errors there: run under
    forkserver, the flagged scripts fail as the rule says (a pickling error; the bootstrapping
    error), and the correct one runs."""
    diagnostics = lint_paths([script.parent]).diagnostics
    codes = {d.code for d in diagnostics if d.filename.endswith(script.name)}
    assert all(d.severity == "error" for d in diagnostics)
    result = subprocess.run(
        [sys.executable, "-c", AS_PYTHON_314, str(script)], cwd=script.parent, capture_output=True, text=True, timeout=120
    )
    if codes:
        assert result.returncode != 0, f"{script.name} ran cleanly under forkserver although dl-lint reported {codes}"
        for code in codes:
            assert any(fragment in result.stdout + result.stderr for fragment in FAILURE[code]), (code, result.stderr[-2000:])
    else:
        assert result.returncode == 0, result.stderr[-2000:]
    expected = {"train": {"DL202"}, "evaluate": {"DL203"}, "predict": set()}[script.stem]
    assert codes == expected
    if sys.platform.startswith("linux") and sys.version_info < (3, 14):  # this Python's default is fork
        fork = subprocess.run([sys.executable, str(script)], cwd=script.parent, capture_output=True, text=True, timeout=120)
        assert fork.returncode == 0, "under fork (Linux up to Python 3.13) the script runs: the target decides"
