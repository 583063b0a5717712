"""Fuzzing (short runs; `python bench/fuzz.py --cases 10000` is the long one): random Python
mixed with random DataLoader calls, and byte-level mutations of the fixtures, never make
``lint_source``/``lint_bytes``/``lint_paths`` raise, and every diagnostic points into the file."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from dl_lint import lint_paths, lint_source
from dl_lint.config import Settings
from dl_lint.engine import lint_bytes
from dl_lint.rules import known_codes
from fuzzing import fixture_corpus, loader_programs, mutations

ALL = Settings(select=("ALL",))
CODES = set(known_codes())
CORPUS = fixture_corpus()
BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"


def short(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


def check_diagnostics(diagnostics, source: str) -> None:
    rows = source.count("\n") + source.count("\r") + 2
    for diag in diagnostics:
        assert diag.code in CODES, diag
        assert 1 <= diag.location.row <= rows and diag.location.column >= 1, diag
        assert diag.location <= diag.end_location or diag.code == "DL000", diag
        assert "\n" not in diag.message, diag


@short(120)
@given(loader_programs())
def test_random_programs_with_loader_calls(source):
    check_diagnostics(lint_source(source, "train.py", ALL), source)


@short(200)
@given(mutations(CORPUS))
def test_mutated_fixtures_through_lint_bytes(data):
    for name in ("train.py", "train.ipynb"):
        lint_bytes(data, name, ALL)


@short(20)
@given(mutations(CORPUS))
def test_mutated_fixtures_through_lint_paths(data):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "mutated.py").write_bytes(data)
        (root / "mutated.ipynb").write_bytes(data)
        (root / "bad.py").write_text(BAD)
        result = lint_paths([root], jobs=1, cache=False)
    assert any(d.code == "DL001" and d.filename.endswith("bad.py") for d in result.diagnostics)
