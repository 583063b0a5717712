"""Click commands' option defaults (fixtures/rules/click_options.py), proven with click and
torch: every command of the fixture is invoked without arguments (the one with a required
option with ``--workers 2``), as ``python script.py`` runs it; where dl-lint reports a crash
(DL001, DL002) inside the command, torch raises ValueError, and elsewhere the loader is built."""

from __future__ import annotations

import importlib.util

import pytest

pytestmark = pytest.mark.torch

from conftest import FIXTURES  # noqa: E402
from dl_lint import lint_paths  # noqa: E402

FIXTURE = FIXTURES / "rules" / "click_options.py"
ARGS = {"required": ["--workers", "2"]}


def _module():
    spec = importlib.util.spec_from_file_location("click_options_fixture", FIXTURE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _crash_rows():
    return {d.location.row for d in lint_paths([FIXTURE]).diagnostics if d.code in ("DL001", "DL002")}


COMMANDS = ["no_workers", "workers_from_text", "renamed", "train", "with_workers", "no_default", "required", "flagged"]


@pytest.mark.parametrize("name", COMMANDS)
def test_click_runs_each_command_as_dl_lint_says(name):
    import click
    import torch  # noqa: F401 - the oracle's torch

    module = _module()
    command = getattr(module, name)
    callback = command.callback
    first, last = callback.__code__.co_firstlineno, max(row for _, _, row in callback.__code__.co_lines() if row)
    crashes = any(first <= row <= last for row in _crash_rows())
    group = module.cli if name == "train" else None
    args = ARGS.get(name, [])
    invoke = (lambda: group.main(args=["train", *args], standalone_mode=False)) if group else (lambda: command.main(args=args, standalone_mode=False))
    if crashes:
        with pytest.raises(ValueError):
            invoke()
    else:
        loader = invoke()
        assert loader is not None and next(iter(loader)) is not None
    assert isinstance(command, click.Command)


def test_the_fixture_reports_crashes_in_four_commands():
    assert len(_crash_rows()) == 4
