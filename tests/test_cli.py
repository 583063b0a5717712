"""The command line, through the installed entry point: exit codes, formats, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
GOOD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)\n"


def test_clean_file_exits_zero(tmp_path, run_cli):
    (tmp_path / "good.py").write_text(GOOD)
    result = run_cli("good.py")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "All checks passed!"


def test_default_path_is_current_folder(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli()
    assert result.returncode == 1
    # no [*]: removing the prefetch_factor written for workers is an unsafe fix
    assert result.stdout.startswith("bad.py:2:29: DL001 prefetch_factor=2 is passed but num_workers=0")
    assert "Found 1 problem: 1 error.\n1 hidden fix can be enabled with the `--unsafe-fixes` option." in result.stdout


def test_check_subcommand_and_module_entry(tmp_path, run_cli):
    import subprocess
    import sys

    (tmp_path / "bad.py").write_text(BAD)
    assert run_cli("check", "bad.py").returncode == 1
    module = subprocess.run([sys.executable, "-m", "dl_lint", "bad.py"], cwd=tmp_path, capture_output=True, text=True)
    assert module.returncode == 1
    assert "DL001" in module.stdout


def test_exit_zero(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("--exit-zero", "bad.py")
    assert result.returncode == 0
    assert "DL001" in result.stdout


def test_missing_path_is_a_one_line_error(run_cli):
    result = run_cli("no/such/file.py")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "does not exist" in result.stderr and "no/such/file.py" in result.stderr
    assert "Traceback" not in result.stderr


def test_json_shape(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("--output-format", "json", "bad.py")
    assert result.returncode == 1
    [item] = json.loads(result.stdout)
    assert list(item) == [
        "cell", "code", "detail", "end_location", "filename", "fix", "location", "message", "name", "noqa_row",
        "related", "severity", "url",
    ]
    # message: the short sentence the concise line shows; detail: torch's error and what to write instead
    assert item["message"].endswith("raises ValueError at construction.") and "\n" not in item["message"]
    assert "prefetch_factor option could only be specified in multiprocessing" in item["detail"]
    # what to write, in this call's names: it has no num_workers to guard with
    assert "Remove prefetch_factor, or give the loader workers" in item["detail"] and item["related"] == []
    assert item["code"] == "DL001" and item["name"] == "prefetch-without-workers"
    assert item["severity"] == "error" and item["cell"] is None
    assert item["fix"]["applicability"] == "unsafe" and item["fix"]["edits"][0]["content"] == ""
    assert item["location"] == {"row": 2, "column": 29}
    assert item["end_location"] == {"row": 2, "column": 46}
    assert item["noqa_row"] == 2 and item["filename"] == "bad.py"


def test_parse_error_is_dl000_and_other_files_still_linted(tmp_path, run_cli):
    (tmp_path / "broken.py").write_text("from torch.utils.data import DataLoader\nDataLoader(x,\n")
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli(".")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(line.startswith("bad.py:2:29: DL001") for line in lines)
    broken = [line for line in lines if line.startswith("broken.py:")]
    assert len(broken) == 1 and ": DL000 cannot parse" in broken[0]
    assert "Traceback" not in result.stderr


def test_undecodable_file_is_dl000(tmp_path, run_cli):
    (tmp_path / "latin.py").write_bytes(b"from torch.utils.data import DataLoader\nname = '\xe9'\n")
    result = run_cli("latin.py")
    assert result.returncode == 1
    assert "latin.py:1:1: DL000 cannot decode file" in result.stdout


def test_select_ignore_flags(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD + "other = DataLoader([1], num_workers=16, prefetch_factor=8)\n")
    assert {"DL001", "DL101"} <= set(run_cli("bad.py").stdout.split())
    only = run_cli("--select", "DL1", "bad.py").stdout
    assert "DL101" in only and "DL001" not in only
    ignored = run_cli("--ignore", "DL001", "bad.py").stdout
    assert "DL001" not in ignored and "DL101" in ignored


def test_unknown_selector_exits_2(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("--select", "DL999", "bad.py")
    assert result.returncode == 2
    assert "DL999" in result.stderr and "Traceback" not in result.stderr


def test_config_errors_exit_2_with_key(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nmax-inflight = 4\n')
    result = run_cli("bad.py")
    assert result.returncode == 2
    assert "pyproject.toml" in result.stderr and "max-inflight" in result.stderr
    assert "max-inflight-batches" in result.stderr  # what is accepted
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nselect = "DL001"\n')
    result = run_cli("bad.py")
    assert result.returncode == 2 and "select" in result.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nignore = ["DL77"]\n')
    result = run_cli("bad.py")
    assert result.returncode == 2 and "DL77" in result.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint\n")
    result = run_cli("bad.py")
    assert result.returncode == 2 and "pyproject.toml" in result.stderr and "Traceback" not in result.stderr


def test_config_file_settings_apply(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text("from torch.utils.data import DataLoader\nx = DataLoader([1], num_workers=4)\n")
    assert run_cli("bad.py").returncode == 0  # 4 × 2 = 8 within the default 16
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\nmax-inflight-batches = 4\n")
    result = run_cli("bad.py")
    assert result.returncode == 1 and "limit 4" in result.stdout
    (tmp_path / "other.toml").write_text("[tool.dl-lint]\nignore = ['DL101']\nmax-inflight-batches = 4\n")
    assert run_cli("--config", "other.toml", "bad.py").returncode == 0
    missing = run_cli("--config", "nope.toml", "bad.py")
    assert missing.returncode == 2 and "nope.toml" in missing.stderr


def test_per_file_ignores(tmp_path, run_cli):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bad.py").write_text(BAD)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint.per-file-ignores]\n"scripts/*" = ["DL001"]\n')
    result = run_cli(".")
    assert "bad.py:2:29: DL001" in result.stdout
    assert "scripts/bad.py" not in result.stdout


def test_noqa_file_level(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text("# dl-lint: noqa: DL001\n" + BAD)
    assert run_cli("bad.py").returncode == 0
    (tmp_path / "bad.py").write_text("# dl-lint: noqa: DL101\n" + BAD)
    assert run_cli("bad.py").returncode == 1


def test_explicit_path_is_linted_even_when_excluded(tmp_path, run_cli):
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "bad.py").write_text(BAD)
    assert run_cli(".").returncode == 0
    assert run_cli("build/bad.py").returncode == 1


def test_stdin(tmp_path, run_cli):
    result = run_cli("-", "--stdin-filename", "src/x.py", input=BAD)
    assert result.returncode == 1
    assert result.stdout.startswith("src/x.py:2:29: DL001")


def test_color_only_when_asked(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    assert "\x1b[" not in run_cli("bad.py").stdout  # not a terminal
    assert "\x1b[" in run_cli("bad.py", env={"NO_COLOR": "", "FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run_cli("bad.py", env={"NO_COLOR": "1", "FORCE_COLOR": "1"}).stdout


def test_rule_docs(run_cli):
    result = run_cli("rule", "DL001")
    assert result.returncode == 0
    for section in ("# prefetch-without-workers (DL001)", "## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Torch versions"):
        assert section in result.stdout
    assert run_cli("rule", "DL404").returncode == 2
    listing = run_cli("rules").stdout
    assert "DL201" in listing and "unsharded-iterable-dataset" in listing


def test_version(run_cli):
    from dl_lint import __version__

    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"dl-lint {__version__}"


def test_demo_fixture_output_matches_readme(run_cli):
    """The README shows the demo's output verbatim (between its demo-output markers, which CI's
    wheel check reads too); it must stay true."""
    import re

    readme = (FIXTURES.parent / "README.md").read_text(encoding="utf-8")
    [shown] = re.findall(r"<!-- demo-output:start -->\n```text\n(.*?)```\n<!-- demo-output:end -->", readme, re.S)
    result = run_cli("fixtures/demo", cwd=FIXTURES.parent)
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout == shown


def test_readme_rule_table_is_generated_from_the_rules():
    from dl_lint.rules import markdown_table

    readme = (FIXTURES.parent / "README.md").read_text(encoding="utf-8")
    start, end = "<!-- rules-table:start -->\n", "\n<!-- rules-table:end -->"
    table = readme[readme.index(start) + len(start) : readme.index(end)]
    assert table == markdown_table()


def test_every_rule_documents_the_fixed_sections():
    from dl_lint.rules import all_rules

    sections = ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Torch versions", "## References")
    for code, rule in all_rules().items():
        text = rule.markdown()
        missing = [s for s in sections if s not in text]
        assert not missing, (code, missing)
        assert rule.summary and rule.name and "Fix:" in text


# -- the fast path of the console script (dl_lint/entry.py) ------------------------------------


@pytest.mark.parametrize("args", [
    ["--version"],
    ["rule", "DL001"],
    ["rule", "dl101"],
    ["rule", "prefetch-without-workers"],
    ["rule", "DL999"],  # unknown: both paths end in click's one-line error
])
def test_fast_path_prints_what_click_prints(tmp_path, run_cli, args):
    fast = run_cli(*args)
    slow = subprocess.run(
        [sys.executable, "-c", "from dl_lint.cli import main; main(prog_name='dl-lint')", *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert fast.stdout or fast.stderr


@pytest.mark.parametrize("args", [["--version"], ["rule", "DL001"]])
def test_fast_path_imports_neither_click_nor_libcst(args):
    probe = (
        "import sys\n"
        "from dl_lint.entry import main\n"
        f"main({args!r})\n"
        "loaded = sorted(m for m in ('click', 'libcst', 'dl_lint.engine', 'dl_lint.rules.dl002_persistent_workers_without_workers') if m in sys.modules)\n"
        "print('LOADED', loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "LOADED []"


# Check command lines: plain ones run without click (dl_lint.check.fast_arguments), the others
# through click; both must print the same bytes and exit with the same code.
_FAST = [
    [],
    ["."],
    ["bad.py", "good.py"],
    ["--no-cache", "."],
    ["-q", "."],
    ["--quiet", "--exit-zero", "bad.py"],
    ["--silent", "."],
    ["--statistics", "."],
    ["--output-format", "json", "."],
    ["--output-format=github", "bad.py"],
    ["--output-format", "full", "--select", "DL001", "."],
    ["--select=DL1", "--ignore", "DL001", "."],
    ["--extend-select", "ALL", "--statistics", "."],
    ["--exclude", "bad.py", "."],
    ["--extend-exclude=sub", "."],
    ["--torch-version", "1.13", "."],
    ["--jobs", "2", "."],
    ["-j", "1", "."],
    ["-j1", "."],  # a short option's value attached, as click reads it
    ["-j2", "--no-cache", "."],
    ["-oreport.txt", "."],
    ["--force-exclude", "bad.py"],
    ["--diff", "."],
    ["--show-settings", "."],
    ["--show-files", "."],
    ["missing.py"],
    ["--config", "missing.toml", "."],
    ["--torch-version", "two", "."],
    ["--select", "DL999", "."],
    [".", "--no-cache", "good.py"],
    ["-"],
    ["--stdin-filename", "piped.py"],
]
_CLICK = [
    ["--output-format", "yaml", "."],
    ["--jobs", "0", "."],
    ["-j0", "."],
    ["-jx", "."],
    ["-qj", "1", "."],
    ["--no-cache=1", "."],
    ["--", "bad.py"],
    ["--select"],
    ["--bogus", "."],
    ["-h"],
    ["check", "bad.py"],
    ["rules"],
]


def _cli_project(root):
    (root / "sub").mkdir(parents=True)
    (root / "bad.py").write_text(BAD)
    (root / "good.py").write_text(GOOD)
    (root / "sub" / "more.py").write_text(BAD.replace("prefetch_factor=2", "prefetch_factor=4"))
    (root / "pyproject.toml").write_text("[tool.dl-lint]\nextend-exclude = ['build']\n")


def _both_paths(tmp_path, run_cli, args, env=None):
    for name in ("fast", "slow"):
        _cli_project(tmp_path / name)
    fast = run_cli(*args, cwd=tmp_path / "fast", input=BAD, env=env)
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    if env is None:
        environment.pop("DL_LINT_OUTPUT_FORMAT", None)
    slow = subprocess.run(
        [sys.executable, "-c", "from dl_lint.cli import main; main(prog_name='dl-lint')", *args],
        cwd=tmp_path / "slow", input=BAD, capture_output=True, text=True, timeout=120, env=environment,
    )
    for result, name in ((fast, "fast"), (slow, "slow")):  # the same output, folder names aside
        result.stdout = result.stdout.replace(str(tmp_path / name), "<root>")
        result.stderr = result.stderr.replace(str(tmp_path / name), "<root>")
    return fast, slow


def _uses_click(args, env=None, cwd=None):
    probe = (
        "import sys\n"
        "import dl_lint.entry as entry\n"
        "entry._leave = lambda code: print('CLICK', 'click' in sys.modules, code, file=sys.stderr)\n"
        f"sys.argv = ['dl-lint', *{args!r}]\n"
        "entry.main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], input="", capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})}, cwd=cwd,
    )
    return result.stderr.splitlines()[-1].split()[1] == "True"


@pytest.mark.parametrize("args", _FAST + _CLICK, ids=lambda a: " ".join(a) or "(none)")
def test_check_prints_the_same_with_or_without_click(tmp_path, run_cli, args):
    fast, slow = _both_paths(tmp_path, run_cli, args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    with_click = _uses_click(args, cwd=tmp_path / "fast")  # (``-oreport.txt`` writes there)
    assert with_click == (args in _CLICK), args


@pytest.mark.parametrize("value", ["json", "nonsense"])
def test_output_format_from_the_environment_with_or_without_click(tmp_path, run_cli, value):
    env = {"DL_LINT_OUTPUT_FORMAT": value}
    fast, slow = _both_paths(tmp_path, run_cli, ["."], env=env)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert _uses_click(["."], env=env) == (value == "nonsense")


def test_fixes_written_with_or_without_click(tmp_path, run_cli):
    fast, slow = _both_paths(tmp_path, run_cli, ["--fix", "--unsafe-fixes", "--show-fixes", "."])
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert "Fixed" in fast.stdout
    for name in ("bad.py", "good.py", "sub/more.py"):
        assert (tmp_path / "fast" / name).read_text() == (tmp_path / "slow" / name).read_text()
    assert (tmp_path / "fast" / "bad.py").read_text() != BAD


def test_fast_path_knows_every_subcommand():
    """A first argument naming a subcommand is not a path: the fast path must know them all."""
    from dl_lint.check import COMMANDS
    from dl_lint.cli import main

    assert set(COMMANDS) == set(main.commands)


def test_registry_codes_and_defaults_match_the_rule_modules():
    """known_codes() is built from module names and OFF_BY_DEFAULT without importing the rules;
    it must say what the rule classes say."""
    from dl_lint.rules import RULE_MODULES, all_rules, code_of, known_codes

    rules = all_rules()
    assert known_codes() == {code: rule.default_on for code, rule in rules.items()}
    assert list(known_codes()) == [code_of(m) for m in RULE_MODULES] == list(rules)
