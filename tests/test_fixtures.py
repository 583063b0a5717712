"""The generic fixture test: lint every fixture and compare with its ``# expect:`` markers.

A file is linted alone; a folder is linted as one run (cross-module fixtures). Every rule is
selected unless the fixture's own pyproject.toml says otherwise, except the rules that report
correct code on purpose (``NOISY_RULES``: DL305), which a fixture selects by naming them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dl_lint import lint_paths
from expectations import expected, fixture_cases, selection

from conftest import FIXTURES

CASES = [case for group in ("rules", "idioms", "spawn", "versions") if (FIXTURES / group).is_dir() for case in fixture_cases(FIXTURES / group)]


@pytest.mark.parametrize("name,path", CASES, ids=[name for name, _ in CASES])
def test_fixture_matches_expectations(name: str, path: Path) -> None:
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    has_config = path.is_dir() and (path / "pyproject.toml").exists()
    result = lint_paths([path], overrides={} if has_config else selection(files))

    def display(p: Path) -> str:
        return str(p.resolve())

    got = Counter((str(Path(d.filename).resolve()), d.location.row, d.code) for d in result.diagnostics)
    # YAML and TOML config files the Python files read carry markers too (findings reported at their lines).
    configs = sorted(p for ext in ("*.yaml", "*.yml", "*.toml") for p in path.rglob(ext)) if path.is_dir() else []
    want = expected([*files, *configs], display)
    # JSON files hold no comments: their markers sit in a ``json-expect.txt`` beside them
    # (``name.json:row: CODE`` lines).
    for sidecar in sorted(path.rglob("json-expect.txt")) if path.is_dir() else []:
        for line in sidecar.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                where, code = line.rsplit(":", 1)
                name, row = where.rsplit(":", 1)
                want[(display(sidecar.parent / name), int(row), code.strip())] += 1
    details = "\n".join(f"{d.filename}:{d.location.row}:{d.location.column}: {d.code} {d.message}" for d in result.diagnostics)
    assert got == want, f"diagnostics differ from the # expect: markers\n{details}"


def test_every_rule_has_positive_fixtures() -> None:
    """Each checking rule is exercised by at least one expectation in the fixtures."""
    from dl_lint.rules import all_rules

    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in FIXTURES.rglob("*.py"))
    missing = [code for code in all_rules() if code != "DL000" and f"expect: {code}" not in text]
    assert not missing, f"rules without a positive fixture: {missing}"
