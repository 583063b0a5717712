"""Issue #19, "say what happened" and "conventions users type": what `--fix` prints, nothing to
lint, `--stdin-filename` without `-`, `-q`/`--silent`, `--exclude`/`--extend-exclude`,
`--torch-version`, `--show-settings`/`--show-files`, `dl-lint -h`, non-regular files, and where
the results cache goes. Every test runs the installed entry point."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

LOADER = "from torch.utils.data import DataLoader\n"
# DL005 (error, safe fix: the timeout guarded on the num_workers variable), DL101 (warning,
# unsafe fix), DL304 (info, safe fix: pin_memory_device removed, nothing is pinned).
MIXED = (
    LOADER
    + "nw = 0\n"
    + "a = DataLoader(ds, num_workers=nw, timeout=3)\n"
    + "b = DataLoader(ds, num_workers=16, prefetch_factor=8)\n"
    + 'c = DataLoader(ds, pin_memory_device="cuda")\n'
)
BAD = LOADER + "loader = DataLoader([1, 2], prefetch_factor=2)\n"
# DL001 with a safe fix: prefetch_factor guarded on the num_workers variable.
FIXABLE = LOADER + "nw = 0\nloader = DataLoader([1, 2], num_workers=nw, prefetch_factor=2)\n"


# -- what --fix says ------------------------------------------------------------------------------


def test_fix_says_what_it_fixed_and_what_remains(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(MIXED)
    before = run_cli("a.py")
    assert before.stdout.splitlines()[-3:] == [
        "Found 3 problems: 1 error, 1 warning, 1 info.",
        "[*] 2 fixable with the `--fix` option.",
        "1 hidden fix can be enabled with the `--unsafe-fixes` option.",
    ]
    fixed = run_cli("--fix", "a.py")
    assert fixed.returncode == 1  # the DL101 remains: its fix is unsafe
    lines = fixed.stdout.splitlines()
    assert lines[0].startswith("a.py:4:") and ": DL101 " in lines[0] and "[*]" not in lines[0]
    assert lines[1:] == [
        "Found 3 problems (2 fixed, 1 remaining: 1 warning).",
        "1 hidden fix can be enabled with the `--unsafe-fixes` option.",
    ]
    assert "error" not in fixed.stdout.replace("1 warning", "")  # a warning is not called an error


def test_fix_that_fixes_everything_says_so(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(FIXABLE)
    (tmp_path / "b.py").write_text(FIXABLE)
    result = run_cli("--fix", ".")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Found 2 problems (2 fixed, 0 remaining).\n"  # not "All checks passed!"
    again = run_cli("--fix", ".")
    assert (again.returncode, again.stdout) == (0, "All checks passed!\n")


def test_show_fixes_lists_them_between_what_remains_and_the_counts(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(MIXED)
    result = run_cli("--fix", "--show-fixes", "a.py")
    out = result.stdout
    assert out.index(": DL101 ") < out.index("\nFixed 2 problems:\n- a.py:\n") < out.index("\n\nFound 3 problems")
    assert "    1 × DL005 (timeout-without-workers)\n    1 × DL304 (ineffective-option)\n" in out


def test_diff_counts_problems(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(MIXED)
    result = run_cli("--diff", "a.py")
    assert result.returncode == 1 and result.stderr == "Would fix 2 problems.\n"
    assert (tmp_path / "a.py").read_text() == MIXED


def test_a_refused_fix_is_not_counted_as_fixable(tmp_path, run_cli):
    (tmp_path / "ro.py").write_text(FIXABLE)
    (tmp_path / "ro.py").chmod(0o444)
    assert "DL001 [*]" in run_cli("ro.py").stdout
    result = run_cli("--fix", "ro.py")
    assert result.returncode == 1
    assert result.stderr == "dl-lint: error: ro.py: file is read-only; not fixed\n"
    assert result.stdout.splitlines()[0].startswith("ro.py:3:45: DL001 prefetch_factor=2")  # no [*]
    assert result.stdout.splitlines()[1:] == ["Found 1 problem: 1 error."]  # nothing "fixable with --fix"


def test_fix_on_stdin_reports_counts_on_stderr(run_cli):
    result = run_cli("--fix", "--stdin-filename", "x.py", input=MIXED)
    assert result.returncode == 1
    assert "timeout=3 if nw > 0 else 0" in result.stdout and "pin_memory_device" not in result.stdout  # fixed
    assert result.stderr.splitlines()[-2:] == [
        "Found 3 problems (2 fixed, 1 remaining: 1 warning).",
        "1 hidden fix can be enabled with the `--unsafe-fixes` option.",
    ]


# -- --stdin-filename without `-` -------------------------------------------------------------------


def test_stdin_filename_alone_reads_stdin_not_the_folder(tmp_path, run_cli):
    (tmp_path / "other.py").write_text(BAD.replace("[1, 2]", "[3]"))  # must not be linted
    result = run_cli("--stdin-filename", "pkg/x.py", input=BAD)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith("pkg/x.py:2:29: DL001 ")
    assert "other.py" not in result.stdout and result.stderr == ""
    clean = run_cli("--stdin-filename", "pkg/x.py", input=LOADER)
    assert (clean.returncode, clean.stdout) == (0, "All checks passed!\n")


def test_stdin_filename_with_paths_says_it_ignores_them(tmp_path, run_cli):
    (tmp_path / "other.py").write_text(BAD)
    result = run_cli("--stdin-filename", "x.py", "other.py", input=LOADER)
    assert result.returncode == 0 and result.stdout == "All checks passed!\n"
    assert result.stderr == "dl-lint: warning: ignoring other.py in favor of standard input (--stdin-filename)\n"


# -- quiet and silent -------------------------------------------------------------------------------


def test_quiet_prints_only_the_diagnostics_and_silent_nothing(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(MIXED)
    quiet = run_cli("-q", "a.py")
    assert quiet.returncode == 1
    assert [line.split(": ")[1].split()[0] for line in quiet.stdout.splitlines()] == ["DL005", "DL101", "DL304"]
    assert run_cli("--quiet", "a.py").stdout == quiet.stdout
    full = run_cli("-q", "--output-format", "full", "a.py")
    assert "Found" not in full.stdout and "help:" in full.stdout
    silent = run_cli("--silent", "a.py")
    assert (silent.returncode, silent.stdout, silent.stderr) == (1, "", "")
    assert run_cli("--silent", "--exit-zero", "a.py").returncode == 0
    fixed = run_cli("-q", "--fix", "a.py")
    assert fixed.returncode == 1 and fixed.stdout.count("\n") == 1 and "DL101" in fixed.stdout
    errors = run_cli("--silent", "--select", "XX1", "a.py")  # an error that stops the run still says why
    assert errors.returncode == 2 and "unknown rule selector 'XX1'" in errors.stderr


# -- exclude, torch version -------------------------------------------------------------------------


def _tree(tmp_path: Path) -> None:
    for name in ("src/a.py", "src/generated/b.py", "scripts/c.py"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAD)


def _reported(result) -> list:
    return sorted({line.split(":")[0] for line in result.stdout.splitlines() if ": DL" in line})


def test_exclude_and_extend_exclude_flags(tmp_path, run_cli):
    _tree(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nexclude = ["scripts"]\n')
    assert _reported(run_cli(".")) == ["src/a.py", "src/generated/b.py"]
    # --exclude replaces the configured exclude (scripts/ comes back), as in ruff
    assert _reported(run_cli("--exclude", "generated", ".")) == ["scripts/c.py", "src/a.py"]
    # --extend-exclude adds to it; comma-separated and repeated values both work
    assert _reported(run_cli("--extend-exclude", "generated", ".")) == ["src/a.py"]
    assert _reported(run_cli("--exclude", "generated,scripts", ".")) == ["src/a.py"]
    assert _reported(run_cli("--exclude", "generated", "--exclude", "a.py", ".")) == ["scripts/c.py"]
    # a file named explicitly is linted anyway, unless --force-exclude
    assert _reported(run_cli("--exclude", "a.py", "src/a.py")) == ["src/a.py"]
    assert _reported(run_cli("--exclude", "a.py", "--force-exclude", "src/a.py")) == []


def test_torch_version_flag(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(
        LOADER
        + "a = DataLoader(ds, prefetch_factor=None)\n"  # DL001 only before torch 2.0
        + "b = DataLoader(ds, pin_memory=True, pin_memory_device='cuda', num_workers=2)\n"  # DL303 from 2.9
    )
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nselect = ["DL001", "DL303"]\n')
    assert [line.split()[1] for line in run_cli("a.py").stdout.splitlines() if ": DL" in line] == ["DL303"]
    old = run_cli("--torch-version", "1.13", "a.py")
    assert [line.split()[1] for line in old.stdout.splitlines() if ": DL" in line] == ["DL001"]
    assert "torch 1.13 raises ValueError" in old.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nselect = ["DL001", "DL303"]\ntarget-version = "1.13"\n')
    newer = run_cli("--torch-version", "2.9.1", "a.py")  # the flag wins over the configuration
    assert [line.split()[1] for line in newer.stdout.splitlines() if ": DL" in line] == ["DL303"]
    bad = run_cli("--torch-version", "latest", "a.py")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (
        "dl-lint: error: --torch-version: invalid value 'latest'; expected a torch version such as \"2.13\"\n"
    )
    assert "--target-version" not in run_cli("check", "--help").stdout  # not ruff's Python version flag


# -- show settings, show files ----------------------------------------------------------------------


def test_show_files_lists_what_a_run_lints(tmp_path, run_cli):
    _tree(tmp_path)
    (tmp_path / "src" / "nb.ipynb").write_text("{}")
    (tmp_path / "src" / "notes.txt").write_text("x")
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nextend-exclude = ["scripts"]\n')
    shown = run_cli("--show-files", ".")
    assert shown.returncode == 0 and shown.stderr == ""
    assert not (tmp_path / ".dl_lint_cache").exists()  # showing lints nothing, caches nothing
    assert shown.stdout.splitlines() == [
        str(tmp_path / "src" / "a.py"),
        str(tmp_path / "src" / "generated" / "b.py"),
        str(tmp_path / "src" / "nb.ipynb"),
    ]
    # The same files a run reports on (every .py here has a problem; the notebook is broken: DL000)
    linted = json.loads(run_cli("--output-format", "json", ".").stdout)
    assert sorted({str(tmp_path / d["filename"]) for d in linted}) == shown.stdout.splitlines()
    narrowed = run_cli("--show-files", "--exclude", "generated", "src")
    assert narrowed.stdout.splitlines() == [str(tmp_path / "src" / "a.py"), str(tmp_path / "src" / "nb.ipynb")]
    (tmp_path / "empty").mkdir()
    nothing = run_cli("--show-files", "empty")
    assert nothing.returncode == 0 and nothing.stdout == "" and "No Python files" in nothing.stderr


def test_show_settings_says_which_config_and_values_a_run_uses(tmp_path, run_cli):
    _tree(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.dl-lint]\n"
        'select = ["DL0", "DL1"]\n'
        'per-file-ignores = { "scripts/*" = ["DL001"] }\n'
        'batch-bytes = "64MiB"\n'
        'target-version = "2.4"\n'
    )
    shown = run_cli("--show-settings", "--ignore", "DL101", "scripts/c.py")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "Resolved settings for: scripts/c.py"
    assert lines[1] == "Settings file: pyproject.toml"
    assert lines[2] == f"Cache: {tmp_path / '.dl_lint_cache'}"
    assert 'select = ["DL0", "DL1"]' in lines and 'ignore = ["DL101"]' in lines
    enabled = json.loads(next(line for line in lines if line.startswith("enabled for this file = ")).split(" = ")[1])
    assert "DL001" not in enabled and "DL101" not in enabled and "DL002" in enabled and "DL201" not in enabled
    assert 'target-version = "2.4"  # torch (--torch-version)' in lines
    assert 'batch-bytes = "64 MiB"' in lines and "memory-budget = (not set)" in lines
    override = run_cli("--show-settings", "--torch-version", "2.13", "--no-cache", "--output-format", "json", "src")
    lines = override.stdout.splitlines()
    assert lines[0] == "Resolved settings for: src/a.py" and lines[2] == "Cache: off (--no-cache)"
    assert 'target-version = "2.13"  # torch (--torch-version)' in lines and 'output-format = "json"' in lines
    bare = run_cli("--show-settings", ".", cwd=tmp_path / "scripts", env={"DL_LINT_CACHE_DIR": str(tmp_path / "c")})
    assert f"Cache: {tmp_path / 'c'}" in bare.stdout.splitlines()


def test_help_shows_the_check_options(run_cli):
    result = run_cli("-h")
    assert result.returncode == 0
    out = result.stdout
    assert out.startswith("Usage: dl-lint [OPTIONS] [PATHS]...\n       dl-lint COMMAND [ARGS]...\n")
    for flag in ("--select", "--fix", "--output-format", "--exclude", "--torch-version", "-q, --quiet", "--silent",
                 "--show-settings", "--show-files", "--stdin-filename", "--version", "-h, --help"):
        assert flag in out, flag
    assert out.index("--select") < out.index("Commands:") and "estimate" in out.split("Commands:")[1]
    assert out.count("-h, --help") == 1
    assert run_cli("--help").stdout == out


# -- non-regular files ------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_named_explicitly_is_a_dl000_not_a_hang(tmp_path, run_cli):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("pipe.py", "bad.py")  # run_cli's timeout fails the test if this blocks
    assert result.returncode == 1
    assert result.stdout.splitlines()[:2] == [
        "bad.py:2:29: DL001 prefetch_factor=2 is passed but num_workers=0: torch >= 2.0 raises ValueError at "
        "construction.",
        "pipe.py:1:1: DL000 a named pipe (FIFO) is not a regular file: skipped without reading it",
    ]
    walked = run_cli(".")  # found by walking a folder: skipped like any non-file entry
    assert "pipe.py" not in walked.stdout and walked.returncode == 1


# -- where the cache goes ---------------------------------------------------------------------------


def test_cache_goes_to_the_project_root_or_the_working_directory(tmp_path, run_cli):
    work = tmp_path / "work"
    loose = tmp_path / "loose" / "deeper"  # no project marker anywhere above (tmp is not a checkout)
    loose.mkdir(parents=True)
    work.mkdir()
    (loose / "a.py").write_text(BAD)
    assert not any((tmp_path / marker).exists() for marker in (".git", "pyproject.toml"))
    assert run_cli(loose, cwd=work).returncode == 1
    assert (work / ".dl_lint_cache" / "CACHEDIR.TAG").is_file()  # ruff's rule: the working directory
    assert not (loose / ".dl_lint_cache").exists() and not (loose.parent / ".dl_lint_cache").exists()

    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "setup.cfg").write_text("[metadata]\nname = p\n")
    (project / "src" / "a.py").write_text(BAD)
    assert run_cli("project/src", cwd=tmp_path).returncode == 1
    assert (project / ".dl_lint_cache" / "CACHEDIR.TAG").is_file()
    assert not (project / "src" / ".dl_lint_cache").exists() and not (tmp_path / ".dl_lint_cache").exists()


def test_an_empty_folder_gets_no_cache(tmp_path, run_cli):
    (tmp_path / "empty").mkdir()
    (tmp_path / "only-text").mkdir()
    (tmp_path / "only-text" / "a.txt").write_text("x")
    for folder in ("empty", "only-text"):
        assert run_cli(folder, cwd=tmp_path).returncode == 0
        assert run_cli(".", cwd=tmp_path / folder).returncode == 0
    assert sorted(os.listdir(tmp_path)) == ["empty", "only-text"]
    assert os.listdir(tmp_path / "empty") == [] and os.listdir(tmp_path / "only-text") == ["a.txt"]


def test_cache_root_markers_match_the_projects():
    from dl_lint.analysis.project import ROOT_MARKERS
    from dl_lint.cache import ROOT_MARKERS as CACHE_MARKERS

    assert set(CACHE_MARKERS) == set(ROOT_MARKERS)
