"""Fuzzing the fixes (short run; bench/fuzz.py --cases N runs it long): on random programs with
random DataLoader calls, every fix a rule offers keeps the program parseable when applied on its
own, and ``fix_source`` (all fixes, unsafe included) never raises and returns parseable code."""

from __future__ import annotations

import ast
import warnings

from hypothesis import HealthCheck, given, settings

from dl_lint import lint_source
from dl_lint.config import Settings
from dl_lint.fixes import apply_edits, fix_source
from fuzzing import loader_programs

ALL = Settings(select=("ALL",))


def parses(source: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def check_fixes(source: str) -> int:
    """The property; returns how many fixes were checked."""
    lint = lambda text: lint_source(text, "train.py", ALL)  # noqa: E731
    diagnostics = lint(source)
    checked = 0
    if parses(source):
        for diag in diagnostics:
            if diag.fix is None:
                continue
            fixed = apply_edits(source, diag.fix.edits)
            assert parses(fixed), f"{diag.code} fix breaks the program: {diag.fix}\n--- before\n{source}\n--- after\n{fixed}"
            checked += 1
    if any(diag.fix is not None for diag in diagnostics):
        result = fix_source(source, lint, unsafe=True)
        assert not parses(source) or parses(result.source)
    return checked


@settings(max_examples=60, deadline=None, database=None, print_blob=True, suppress_health_check=list(HealthCheck))
@given(loader_programs(with_random_python=False))
def test_every_fix_keeps_the_program_parseable(source):
    check_fixes(source)
