"""fire and typer commands (fixtures/rules/fire_components.py, typer_commands.py), proven
with the frameworks and torch: every command is run with no arguments (a required option with
``--workers 2``), as ``python script.py COMMAND`` runs it; where dl-lint reports a crash (DL001,
DL002) inside the command's function, torch raises ValueError; elsewhere the loader is built
and yields a batch. Click's are in tests/test_click_options.py."""

from __future__ import annotations

import importlib.util

import pytest

pytestmark = pytest.mark.torch

from conftest import FIXTURES  # noqa: E402
from dl_lint import lint_paths  # noqa: E402

FIRE = FIXTURES / "rules" / "fire_components.py"
TYPER = FIXTURES / "rules" / "typer_commands.py"


def _module(path):
    spec = importlib.util.spec_from_file_location(path.stem + "_fixture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _crashes_in(path, function) -> bool:
    code = function.__code__
    first, last = code.co_firstlineno, max(row for _, _, row in code.co_lines() if row)
    rows = {d.location.row for d in lint_paths([path]).diagnostics if d.code in ("DL001", "DL002")}
    return any(first <= row <= last for row in rows)


def _check(run, crashes: bool) -> None:
    if crashes:
        with pytest.raises(ValueError):
            run()
    else:
        loader = run()
        assert next(iter(loader)) is not None


@pytest.mark.parametrize(
    "command, function",
    [(["main"], "main"), (["served"], "loader_of"), (["runner", "train"], "Runner.train"), (["runner", "evaluate"], "Runner.evaluate")],
)
def test_fire_runs_each_command_as_dl_lint_says(command, function):
    import fire

    module = _module(FIRE)
    components = {"main": module.main, "served": module.served, "runner": module.Runner}
    target = module
    for part in function.split("."):
        target = getattr(target, part)
    _check(lambda: fire.Fire(components, command=command), _crashes_in(FIRE, target))


@pytest.mark.parametrize("name, args", [("train", []), ("tune", []), ("evaluate", []), ("required", ["--workers", "2"])])
def test_typer_runs_each_command_as_dl_lint_says(name, args):
    import typer

    module = _module(TYPER)
    group = typer.main.get_command(module.app)
    _check(lambda: group.main(args=[name, *args], standalone_mode=False), _crashes_in(TYPER, getattr(module, name)))


def test_typer_run_of_a_plain_function():
    import typer

    module = _module(TYPER)
    command = typer.main.get_command(_app_of(typer, module.standalone))
    _check(lambda: command.main(args=[], standalone_mode=False), _crashes_in(TYPER, module.standalone))


def _app_of(typer, function):
    """What ``typer.run(function)`` builds: an app with that one command."""
    app = typer.Typer()
    app.command()(function)
    return app


def test_the_fixtures_report_their_crashes():
    assert {d.location.row for d in lint_paths([FIRE]).diagnostics if d.code in ("DL001", "DL002")} == {12, 28}
    assert {d.location.row for d in lint_paths([TYPER]).diagnostics if d.code in ("DL001", "DL002")} == {16, 21, 35}
