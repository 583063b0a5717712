"""Issue 27 §4: ruff's everyday flags, each as ruff 0.17 does it (`--output-file`, `--add-noqa`,
`--exit-non-zero-on-fix`, `--fix-only`, `--watch`), bad flag values as one line, a command name
beside a folder of that name, `--diff` with nothing to change. Every test runs the installed
entry point in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LOADER = "from torch.utils.data import DataLoader\n"
BAD = LOADER + "loader = DataLoader([1, 2], prefetch_factor=2)\n"  # DL001, an unsafe fix (issue 27 §1)
GOOD = LOADER + "loader = DataLoader([1, 2], num_workers=2)\n"
PIN = LOADER + "loader = DataLoader([1, 2], pin_memory=True)\n"  # DL102, a safe fix
# DL102 (warning, safe fix), DL101 (warning, unsafe fix), DL005 (error, unsafe fix: timeout=3 is the user's).
MIXED = (
    LOADER
    + "a = DataLoader(ds, pin_memory=True)\n"
    + "b = DataLoader(ds, num_workers=16, prefetch_factor=8)\n"
    + "c = DataLoader(ds, timeout=3)\n"
)


# -- --output-file ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["concise", "full", "json", "sarif", "github"])
def test_output_file_gets_what_stdout_would(tmp_path, run_cli, fmt):
    (tmp_path / "bad.py").write_text(BAD)
    printed = run_cli("--no-cache", "--output-format", fmt, "bad.py")
    written = run_cli("--no-cache", "--output-format", fmt, "-o", "reports/out.txt", "bad.py")
    assert (written.returncode, written.stdout, written.stderr) == (1, "", "")
    assert (tmp_path / "reports" / "out.txt").read_text(encoding="utf-8") == printed.stdout
    assert printed.stdout  # the report is there, not an empty file


def test_output_file_from_the_environment_and_with_statistics(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("--statistics", "bad.py", env={"DL_LINT_OUTPUT_FILE": "stats.txt"})
    assert (result.returncode, result.stdout) == (1, "")
    assert (tmp_path / "stats.txt").read_text().startswith("1\tDL001\t[ ]\tprefetch-without-workers\n")
    flagged = run_cli(
        "--statistics", "--output-file=flag.txt", "bad.py", env={"DL_LINT_OUTPUT_FILE": "stats.txt"}
    )
    assert flagged.returncode == 1 and (tmp_path / "flag.txt").exists()  # the flag wins


def test_output_file_that_cannot_be_written_is_one_line(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "folder").mkdir()
    result = run_cli("--output-file", "folder", "bad.py")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("dl-lint: error: ") and result.stderr.count("\n") == 1


# -- --exit-non-zero-on-fix, --fix-only ---------------------------------------------------------


def test_exit_non_zero_on_fix(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(PIN)
    (tmp_path / "b.py").write_text(PIN)
    plain = run_cli("--fix", "a.py")
    assert (plain.returncode, plain.stdout) == (0, "Found 1 problem (1 fixed, 0 remaining).\n")
    strict = run_cli("--fix", "--exit-non-zero-on-fix", "b.py")
    assert (strict.returncode, strict.stdout) == (1, "Found 1 problem (1 fixed, 0 remaining).\n")
    assert (tmp_path / "b.py").read_text() != PIN  # fixed, and the exit code says a file changed
    again = run_cli("--fix", "--exit-non-zero-on-fix", "b.py")
    assert (again.returncode, again.stdout) == (0, "All checks passed!\n")  # nothing changed this time


def test_fix_only_reports_what_it_fixed_and_exits_0(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(MIXED)
    result = run_cli("--fix-only", "a.py")
    # DL101 and DL005 remain (their fixes are unsafe) and are not reported; ruff's "Fixed N
    # errors." in dl-lint's word.
    assert (result.returncode, result.stdout, result.stderr) == (0, "Fixed 1 problem.\n", "")
    assert "pin_memory=torch.cuda.is_available()" in (tmp_path / "a.py").read_text()
    nothing = run_cli("--fix-only", "a.py")
    assert (nothing.returncode, nothing.stdout, nothing.stderr) == (0, "", "")
    (tmp_path / "b.py").write_text(MIXED)
    strict = run_cli("--fix-only", "--exit-non-zero-on-fix", "--show-fixes", "b.py")
    assert strict.returncode == 1
    assert strict.stdout == "Fixed 1 problem:\n- b.py:\n    1 × DL102 (pin-memory-without-accelerator)\n\nFixed 1 problem.\n"
    (tmp_path / "c.py").write_text(MIXED)
    quiet = run_cli("--fix-only", "-q", "--output-format", "json", "--unsafe-fixes", "c.py")
    assert (quiet.returncode, quiet.stdout) == (0, "")
    assert "timeout=3" not in (tmp_path / "c.py").read_text()  # with --unsafe-fixes, the unsafe ones too


def test_fix_only_on_stdin(run_cli):
    result = run_cli("--fix-only", "--stdin-filename", "t.py", input=MIXED)
    assert result.returncode == 0
    assert "pin_memory=torch.cuda.is_available()" in result.stdout and "timeout=3" in result.stdout
    assert result.stderr == "Fixed 1 problem.\n"


# -- --diff, --statistics -----------------------------------------------------------------------


def test_diff_with_nothing_to_change_prints_nothing(tmp_path, run_cli):
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "memory.py").write_text(LOADER + "b = DataLoader(ds, num_workers=16, prefetch_factor=8)\n")
    for name in ("good.py", "memory.py"):  # nothing at all; only an unsafe fix (not applied)
        result = run_cli("--diff", name)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", ""), name
    (tmp_path / "pin.py").write_text(PIN)
    changed = run_cli("--diff", "pin.py")
    assert changed.returncode == 1 and changed.stdout.startswith("--- a/pin.py\n")
    assert changed.stderr == "Would fix 1 problem.\n"


# -- bad flag values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--output-format", "yaml"],
        ["--output-format=xml"],
        ["--jobs", "0"],
        ["-j", "many"],
        ["--bogus"],
        ["--select"],
        ["--select", "DL999"],
        ["--torch-version", "two"],
        ["--cache-dir", "bad.py"],
        ["--config", "missing.toml"],
        ["--add-noqa", "--fix"],
        ["--add-noqa", "--diff"],
        ["--add-noqa", "--statistics"],
        ["--add-noqa=a\nb"],
        ["--watch", "--stdin-filename", "piped.py"],
        ["--watch", "missing.py"],
        ["rule"],
        ["rule", "DL999"],
        ["rules", "--bogus"],
    ],
    ids=lambda a: " ".join(a).replace("\n", "\\n"),
)
def test_every_bad_flag_value_is_one_error_line(tmp_path, run_cli, args):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli(*args, "bad.py") if args[0] not in ("rule", "rules") else run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("dl-lint: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Usage:" not in result.stderr and "Traceback" not in result.stderr


def test_a_bad_value_names_where_it_came_from(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    flag = run_cli("--output-format", "yaml", "bad.py")
    assert flag.stderr.startswith(
        "dl-lint: error: invalid value for '--output-format': 'yaml' is not one of "
    )
    assert "DL_LINT_OUTPUT_FORMAT" not in flag.stderr
    env = run_cli("bad.py", env={"DL_LINT_OUTPUT_FORMAT": "yaml"})
    assert env.stderr.startswith(
        "dl-lint: error: invalid value for DL_LINT_OUTPUT_FORMAT (environment variable): "
    )
    jobs = run_cli("-j", "0", "bad.py")
    assert jobs.stderr == "dl-lint: error: invalid value for '--jobs'/'-j': 0 is not in the range x>=1.\n"


# -- a command beside a folder of the same name -------------------------------------------------


def test_a_command_name_runs_the_command_and_says_how_to_lint_the_folder(tmp_path, run_cli):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "bad.py").write_text(BAD)
    result = run_cli("rules")
    assert result.returncode == 0 and result.stdout.startswith("code ")  # the command ran
    assert result.stderr == (
        "dl-lint: warning: `rules` is a dl-lint command; to lint the folder rules/, run "
        "`dl-lint check rules` or `dl-lint ./rules`\n"
    )
    for args in (["check", "rules"], ["./rules"]):  # both lint the folder, without the note
        linted = run_cli(*args)
        assert linted.returncode == 1 and "rules/bad.py:2:29: DL001" in linted.stdout and linted.stderr == ""
    (tmp_path / "rule").mkdir()
    doc = run_cli("rule", "DL001")  # answered without click: the same line
    assert doc.returncode == 0 and doc.stdout.startswith("# prefetch-without-workers (DL001)")
    assert doc.stderr == (
        "dl-lint: warning: `rule` is a dl-lint command; to lint the folder rule/, run "
        "`dl-lint check rule` or `dl-lint ./rule`\n"
    )
    elsewhere = run_cli("rules", cwd=tmp_path / "rules")
    assert elsewhere.returncode == 0 and elsewhere.stderr == ""  # no such folder here: no note


# -- --add-noqa ---------------------------------------------------------------------------------


ADD_NOQA = (
    LOADER
    + "a = DataLoader([1, 2], prefetch_factor=2)  # a comment\n"
    + "b = DataLoader(\n"
    + "    [1, 2],\n"
    + "    timeout=3,\n"
    + ")\n"
    + "c = DataLoader([1, 2], prefetch_factor=2, timeout=1)  # noqa: E501\n"
    + 'd = DataLoader([1, 2], collate_fn=lambda b: b, num_workers=2, pin_memory="""x\n'
    + 'y""")\n'
    + "e = DataLoader([1, 2], \\\n"
    + "    timeout=1)\n"
)


def test_add_noqa_writes_a_directive_for_every_diagnostic(tmp_path, run_cli):
    path = tmp_path / "train.py"
    path.write_bytes(ADD_NOQA.replace("\n", "\r\n").encode())
    before = run_cli("--no-cache", "--output-format", "json", "train.py")
    assert len(json.loads(before.stdout)) == 6
    result = run_cli("--no-cache", "--add-noqa", "train.py")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "Added 5 noqa directives.\n")
    assert (
        path.read_bytes().decode()
        == (
            LOADER
            + "a = DataLoader([1, 2], prefetch_factor=2)  # a comment  # noqa: DL001\n"
            + "b = DataLoader(  # noqa: DL005\n"  # the call's first row (JSON's noqa_row)
            + "    [1, 2],\n"
            + "    timeout=3,\n"
            + ")\n"
            + "c = DataLoader([1, 2], prefetch_factor=2, timeout=1)  # noqa: DL001, DL005, E501\n"  # merged, sorted
            + 'd = DataLoader([1, 2], collate_fn=lambda b: b, num_workers=2, pin_memory="""x\n'
            + 'y""")  # noqa: DL202\n'  # the first row ends inside a string: the next row of the call
            + "e = DataLoader([1, 2], \\\n"
            + "    timeout=1)  # noqa: DL005\n"  # after a backslash: the row that can end in a comment
        ).replace("\n", "\r\n")
    )  # line endings kept
    after = run_cli("--no-cache", "train.py")
    assert (after.returncode, after.stdout) == (0, "All checks passed!\n")
    again = run_cli("--no-cache", "--add-noqa", "train.py")
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")  # nothing to add: nothing said


def test_add_noqa_with_a_reason_and_quiet(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(BAD)
    result = run_cli("--add-noqa=debugging, see #12", "-q", "a.py")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "a.py").read_text() == LOADER + (
        "loader = DataLoader([1, 2], prefetch_factor=2)  # noqa: DL001 debugging, see #12\n"
    )
    assert run_cli("a.py").returncode == 0
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "b.py").write_text(BAD)
    bare = run_cli("--add-noqa", "src")  # a path after the flag is a path, not a reason (ruff: `=`)
    assert bare.returncode == 0 and (tmp_path / "src" / "b.py").read_text().endswith("# noqa: DL001\n")


def test_add_noqa_leaves_what_it_cannot_edit_and_says_so(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "train.py").write_text(
        "import hydra\nfrom torch.utils.data import DataLoader\n\n\n"
        '@hydra.main(version_base=None, config_path="conf", config_name="config")\n'
        "def main(cfg):\n"
        "    return DataLoader(range(8), num_workers=cfg.data.num_workers, persistent_workers=True)\n"
    )
    (tmp_path / "conf" / "data").mkdir(parents=True)
    (tmp_path / "conf" / "config.yaml").write_text("defaults:\n  - data: default\n")
    (tmp_path / "conf" / "data" / "default.yaml").write_text("num_workers: 0\n")
    (tmp_path / "read_only.py").write_text(BAD)
    os.chmod(tmp_path / "read_only.py", 0o444)
    result = run_cli("--add-noqa", ".")
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        "dl-lint: warning: conf/data/default.yaml: --add-noqa edits Python files only; 1 diagnostic left as it is",
        "dl-lint: warning: read_only.py: file is read-only; no directive added",
    ]
    assert (tmp_path / "conf" / "data" / "default.yaml").read_text() == "num_workers: 0\n"


# -- --watch ------------------------------------------------------------------------------------


def _read_until(stream, wanted: str, timeout: float = 60) -> str:
    import selectors

    seen = ""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"waited for {wanted!r}, got {seen!r}"
        if selector.select(left):
            chunk = os.read(stream.fileno(), 65536).decode()
            assert chunk, f"stream closed before {wanted!r}: {seen!r}"
            seen += chunk
    return seen


def test_watch_lints_again_when_a_file_changes(tmp_path):
    (tmp_path / "train.py").write_text(GOOD)
    exe = Path(sys.executable).with_name("dl-lint")
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("DL_LINT_OUTPUT_FORMAT", None)
    process = subprocess.Popen(
        [str(exe), "--watch", "--no-cache", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        err = _read_until(process.stderr, "Watching for file changes.")
        assert "Starting linter in watch mode..." in err
        out = _read_until(process.stdout, "All checks passed!\n")
        time.sleep(0.1)
        (tmp_path / "train.py").write_text(BAD)
        out = _read_until(process.stdout, "1 hidden fix can be enabled with the `--unsafe-fixes` option.\n")
        assert "train.py:2:29: DL001 " in out and "Found 1 problem: 1 error." in out
        err = _read_until(process.stderr, "Watching for file changes.")
        assert "File change detected..." in err
        (tmp_path / "pyproject.toml").write_text(
            "[tool.dl-lint]\nselct = 1\n"
        )  # a broken config: said, watched
        err = _read_until(process.stderr, "Watching for file changes.")
        assert "dl-lint: error: pyproject.toml: selct: unknown key" in err
        (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\nignore = ['DL001']\n")
        _read_until(process.stdout, "All checks passed!\n")
    finally:
        process.send_signal(signal.SIGTERM)  # what a CI runner or a terminal closing sends; Ctrl-C alike
        code = process.wait(timeout=30)
    assert code == 0
