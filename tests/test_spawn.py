"""DL202 and DL203 proven under the spawn start method: each script of fixtures/spawn runs in a
fresh interpreter. Scripts dl-lint flags must fail the way the rule says; the others must run."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.torch  # the spawn proof runs torch

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
