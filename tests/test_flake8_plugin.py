"""The flake8 plugin, run by the real flake8 (its entry point is installed with dl-lint)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"


def flake8(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_flake8_prints_dl_lints_line_and_column(tmp_path, run_cli):
    (tmp_path / "x.py").write_text(BAD)
    result = flake8("--select", "DL", "x.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    own = run_cli("x.py").stdout.splitlines()[0]
    assert re.match(r"x\.py:2:29: DL001 (\[\*\] )?prefetch_factor=2 is passed but num_workers=0", own)
    # flake8 adds 1 to the plugin's 0-based column: the same line as dl-lint's own (which marks
    # a fixable diagnostic with [*]; flake8 has no fixes)
    assert result.stdout.splitlines() == [own.replace(" [*] ", " ", 1)]


def test_flake8_lists_the_plugin():
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--version"], capture_output=True, text=True, timeout=60
    )
    assert "dl-lint: " in result.stdout


def test_flake8_noqa(tmp_path):
    (tmp_path / "x.py").write_text(
        "from torch.utils.data import DataLoader\n"
        "a = DataLoader([1, 2], prefetch_factor=2)  # noqa\n"
        "b = DataLoader([1, 2], prefetch_factor=2)  # noqa: DL001\n"
        "c = DataLoader([1, 2], prefetch_factor=2)  # noqa: DL0\n"  # a prefix, as flake8 reads it
        "d = DataLoader([1, 2], prefetch_factor=2)  # noqa: E501\n"  # another code: reported
        "e = DataLoader(\n"
        "    [1, 2],\n"
        "    prefetch_factor=2,\n"
        ")  # noqa: DL001\n"  # dl-lint's own: any line of the call
    )
    result = flake8("--select", "DL", "x.py", cwd=tmp_path)
    assert [line.split(" ")[0] for line in result.stdout.splitlines()] == ["x.py:5:24:"]
    # dl-lint reads the `DL0` prefix as flake8 does: flake8's --disable-noqa turns off only flake8's
    disabled = flake8("--select", "DL", "--disable-noqa", "x.py", cwd=tmp_path)
    assert "x.py:4:24: DL001" not in disabled.stdout and "x.py:5:24: DL001" in disabled.stdout


# Lines with a `# noqa` that flake8 reads one way or another: the set each tool reports is the same.
PARITY_CASES = [
    "",  # no directive: reported
    "  # noqa",  # bare: every code
    "  # noqa: DL001",
    "  # noqa: DL0",  # a prefix (flake8's `code.startswith(tuple(codes))`)
    "  # noqa: DL00",
    "  # noqa:DL0",
    "  # noqa: DL1",  # the prefix of other codes: reported
    "  # noqa: DL",  # no digit: not a code (flake8's regex needs one): a bare noqa for both
    "  # noqa: DL0011",  # longer than the code: reported
    "  # noqa: E501,DL0",
    "  # noqa: E501 DL0",
    "  # NOQA: DL0",
    "  # noqa: E501",
]


def test_a_noqa_prefix_means_the_same_to_the_cli_and_to_flake8(tmp_path, run_cli):
    """Issue 27: `# noqa: DL0` silences DL001 in the CLI as in flake8 (ruff ignores prefixes;
    flake8's semantics are the ones the plugin's users already have). Real flake8 with
    --disable-noqa turned off and on, and the real CLI, on the same file."""
    lines = ["from torch.utils.data import DataLoader"]
    for index, comment in enumerate(PARITY_CASES):
        lines.append(f"loader_{index} = DataLoader([1, 2], prefetch_factor=2){comment}")
    (tmp_path / "x.py").write_text("\n".join(lines) + "\n")
    by_flake8 = {
        line.split(":")[1] for line in flake8("--select", "DL", "x.py", cwd=tmp_path).stdout.splitlines()
    }
    cli = run_cli("--output-format", "json", "--no-cache", "x.py")
    by_cli = {str(item["location"]["row"]) for item in json.loads(cli.stdout)}
    assert by_cli == by_flake8
    reported = {PARITY_CASES[int(row) - 2] for row in by_cli}
    assert reported == {"", "  # noqa: DL1", "  # noqa: DL0011", "  # noqa: E501"}
    # The plugin applies dl-lint's directives too, so flake8's own reading is shown apart: the
    # same directives for pycodestyle's E702 (DL0 -> E7, DL1 -> E2, ...) leave the same lines.
    as_e702 = {"DL0011": "E7021", "DL001": "E702", "DL00": "E70", "DL0": "E7", "DL1": "E2", "DL": "E", "E501": "W291"}
    lines = []
    for comment in PARITY_CASES:
        for code, other in as_e702.items():
            comment = comment.replace(f" {code}", f" {other}").replace(f",{code}", f",{other}").replace(f":{code}", f":{other}")
        lines.append(f"a = 1; b = 2{comment}")
    (tmp_path / "y.py").write_text("\n".join(lines) + "\n")
    own = flake8("--select", "E702", "y.py", cwd=tmp_path).stdout.splitlines()
    assert {int(line.split(":")[1]) - 1 for line in own} == {int(row) - 2 for row in by_cli}


def test_flake8_uses_the_dl_lint_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\nignore = ['DL001']\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "x.py").write_text(BAD)
    result = flake8("--select", "DL", "pkg/x.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\nignore = 'DL001'\n")
    broken = flake8("--select", "DL", "pkg/x.py", cwd=tmp_path)
    assert broken.stdout.startswith("pkg/x.py:1:1: DL000 invalid dl-lint configuration: ")


def test_flake8_with_other_files(tmp_path):
    (tmp_path / "clean.py").write_text("import os\n\nprint(os.sep)\n")
    (tmp_path / "good.py").write_text(
        "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)\n"
    )
    result = flake8("--select", "DL", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")


def test_flake8_on_a_two_module_project_gives_the_clis_answer(tmp_path, run_cli):
    """Issue 26: flake8 hands the plugin one file at a time; the plugin reports for it what
    `dl-lint FILE` reports there, a call site of another module's factory included."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "loader.py").write_text(
        "from torch.utils.data import DataLoader\n\n\n"
        "def make(ds, num_workers=4, prefetch_factor=2):\n"
        "    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)\n"
    )
    (tmp_path / "main.py").write_text("from pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=0)\n")
    cli = run_cli("--no-cache", "main.py", "pkg/loader.py", cwd=tmp_path).stdout.splitlines()[0]
    assert cli.startswith("main.py:3:10: DL001 ")
    for files in (["main.py", "pkg/loader.py"], ["main.py"], ["."]):
        result = flake8("--select", "DL", *files, cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        lines = result.stdout.splitlines()
        assert [line.split(" ", 1)[0] for line in lines] == ["main.py:3:10:" if files != ["."] else "./main.py:3:10:"]
        assert cli.split(": DL001 ", 1)[1].startswith(lines[0].split(": DL001 ", 1)[1][:60])
    assert flake8("--select", "DL", "pkg/loader.py", cwd=tmp_path).stdout == ""  # nothing located there
