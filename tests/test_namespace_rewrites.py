"""An argparse namespace whose options a config file fills (``vars(args).update(config)``,
``args.__dict__.update(...)``, ``values = vars(args)`` then ``values[key] = ...``,
``setattr(args, key, value)``, a helper of another module that does so, returning it or not): its
options no longer hold the parser's defaults, so no crash is claimed from them. Writes of named
keys and reads (a logger's ``config=vars(args)``, ``print(args.__dict__)``, ``**vars(args)``)
leave the defaults in place. Every script of ``fixtures/rules/namespace_rewrites`` is run as a
program with real torch: a script marked ``# expect: DL008`` raises torch's ValueError, every
other one builds its loader and prints a batch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

pytestmark = pytest.mark.torch

FIXTURE = FIXTURES / "rules" / "namespace_rewrites"
SCRIPTS = sorted(p for p in FIXTURE.rglob("*.py") if p.name not in ("options.py", "fill.py"))


def _expected(script: Path) -> set:
    return {
        (script.resolve(), row, "DL008")
        for row, line in enumerate(script.read_text().splitlines(), start=1)
        if "# expect: DL008" in line
    }


def test_dl_lint_reports_exactly_the_marked_lines():
    found = {(Path(d.filename).resolve(), d.location.row, d.code) for d in lint_paths([FIXTURE]).diagnostics}
    assert found == set().union(*(_expected(s) for s in SCRIPTS))
    assert len(found) == 2  # the two shapes that keep the parser's default


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(FIXTURE)))
def test_torch_agrees_with_each_script(script: Path):
    result = subprocess.run([sys.executable, script.name], cwd=script.parent, capture_output=True, text=True, timeout=120)
    if _expected(script):
        assert result.returncode != 0
        assert "ValueError: batch_size=None option disables auto-batching and is mutually exclusive with drop_last" in result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("tensor(")
