"""`--force-exclude` (ruff's semantics): the exclude settings apply to paths named on the command
line too, which is what pre-commit does (it names every staged file). Without it, a path named
explicitly is always linted. With nothing left to lint, dl-lint exits 0 and prints nothing."""

from __future__ import annotations

from pathlib import Path

from dl_lint.discovery import discover

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"


def write(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAD)


def test_discover_force_exclude_checks_the_path_and_its_folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "src/a.py", "generated/b.py", "build/c.py", "src/gen_d.py", "deep/generated/e.py")
    named = ["src/a.py", "generated/b.py", "build/c.py", "src/gen_d.py", "deep/generated/e.py"]
    globs = {"exclude": ["generated/*", "gen_*.py"]}
    assert len(discover(named, **globs).files) == 5  # named explicitly: linted
    kept = discover(named, force_exclude=True, **globs).files
    # generated/* matches from the root only; build/ is a default exclude; gen_*.py is a name glob
    assert [p.as_posix() for p in kept] == ["deep/generated/e.py", "src/a.py"]
    # a named folder that is excluded is not walked
    assert discover(["generated"], force_exclude=True, **globs).files == ()
    # the root itself is never excluded, whatever its name
    assert [p.as_posix() for p in discover(["."], force_exclude=True, exclude=["gen_*.py"]).files] == [
        "deep/generated/e.py",
        "generated/b.py",
        "src/a.py",
    ]


def test_cli_force_exclude(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nexclude = ["generated/*"]\n')
    write(tmp_path, "generated/bad.py", "src/bad.py")
    assert run_cli("generated/bad.py").returncode == 1
    skipped = run_cli("--force-exclude", "generated/bad.py")
    # As ruff: nothing left to lint is worth a warning (a hook whose files are all excluded).
    assert (skipped.returncode, skipped.stdout) == (0, "")
    assert skipped.stderr == (
        "dl-lint: warning: No Python files or notebooks found under the given path(s): generated/bad.py\n"
    )
    both = run_cli("check", "--force-exclude", "generated/bad.py", "src/bad.py")
    assert both.returncode == 1
    assert [line.split(":")[0] for line in both.stdout.splitlines() if ": DL" in line] == ["src/bad.py"]


def test_nothing_to_lint_warns_and_exits_zero(tmp_path, run_cli):
    """Issue #19: a mistyped path or an empty folder must not pass CI silently (ruff's warning);
    the exit code stays 0, and no cache folder appears for it."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("no Python here\n")
    warning = "dl-lint: warning: No Python files or notebooks found under the given path(s): {}\n"
    for args in (["empty"], ["empty", "notes"]):
        result = run_cli(*args)
        assert (result.returncode, result.stdout) == (0, ""), result.stderr
        assert result.stderr == warning.format(" ".join(args))
    as_json = run_cli("--output-format", "json", "empty")  # machine formats still print a document
    assert (as_json.returncode, as_json.stdout.strip()) == (0, "[]")
    assert as_json.stderr == warning.format("empty")
    for flag in ("-q", "--quiet", "--silent"):
        quiet = run_cli(flag, "empty")
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "notes"]
    assert list((tmp_path / "empty").iterdir()) == []
