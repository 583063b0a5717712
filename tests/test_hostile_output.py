"""Hostile repositories, text output (issue 28, section 3): dl-lint runs in CI on pull requests,
and GitHub Actions reads every line a step prints; a line that starts (after leading whitespace)
with ``::`` or ``##[`` is a workflow command. No value from the project (strings, file names)
may break a line in any output, and no printed line may be a command that dl-lint did not make
as an annotation.

Each case builds a project with real injected names, runs the real CLI in a subprocess, reads
its stdout and stderr as bytes, and replays them as the runner does (lines end at ``\\r\\n``,
``\\r`` or ``\\n``; ``::stop-commands::TOKEN`` stops command processing until ``::TOKEN::``).
Each project makes dl-lint cite the hostile value (the positive control: the injected text is in
the output), so the output path under attack is the one that runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from dl_lint import printable
from dl_lint.report import FORMATS

TIMEOUT = 120
FORGED = "::error file=INJECTED.py,line=1::forged"
# What dl-lint prints as an annotation: a known command, a title of dl-lint, properties whose
# values escape ``:`` and ``,`` (so a forged ``file=`` cannot hide among them).
_ANNOTATION = re.compile(
    r"::(error|warning|notice) title=dl-lint(%20| )?(\(DL\d{3}\))?"
    r"(,file=[^,:]*,line=\d+(,col=\d+)?,endLine=\d+(,endColumn=\d+)?)?::"
)
_RUNNER_BREAK = re.compile(r"\r\n|\r|\n")
_MACHINE = ("json", "json-lines", "sarif", "gitlab")
_WITH_DETAIL = ("full", "json", "json-lines", "sarif")  # the formats that cite the flag's origin

TRAIN = """\
import argparse
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument({flag!r}, dest="workers", type=int, default=0)
args = parser.parse_args()
loader = DataLoader([1, 2], num_workers=args.workers, prefetch_factor=2)
"""

# One DL001 (an error with a safe fix) per loader line.
LOADERS = "from torch.utils.data import DataLoader\n" + "".join(
    f"loader{i} = DataLoader([1, 2], prefetch_factor=2)\n" for i in range(12)
)

HOSTILE_NAMES = [
    "inj\n" + FORGED + ".py",
    "inj\r" + FORGED + ".py",
    "::warning::x.py",
    "  ::warning file=INJECTED.py::x.py",
    "##[error]INJECTED.py",
]


def _run(root: Path, *args: str) -> str:
    """stdout and stderr of ``dl-lint --no-cache ARGS`` run in ``root``, as the runner reads
    them (bytes, no newline translation)."""
    exe = Path(sys.executable).with_name("dl-lint")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT_")}
    env["NO_COLOR"] = "1"
    done = subprocess.run(command + ["--no-cache", *args], cwd=root, capture_output=True, timeout=TIMEOUT, env=env)
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert done.returncode in (0, 1), err
    return out + err


def _commands(output: str) -> List[str]:
    """The workflow commands the runner would process in ``output``, as it splits lines and
    honours ``::stop-commands::``."""
    found = []
    stopped = None
    for line in _RUNNER_BREAK.split(output):
        stripped = line.lstrip()
        if stopped is not None:
            if stripped == f"::{stopped}::":
                stopped = None
            continue
        if stripped.startswith("::stop-commands::"):
            stopped = stripped[len("::stop-commands::") :]
            assert re.fullmatch(r"[0-9a-f]{32}", stopped), f"a guessable token: {stopped!r}"
            continue
        if stripped.startswith("::") or stripped.startswith("##["):
            found.append(stripped)
    assert stopped is None, "a ::stop-commands:: that never ends: the rest of the job log is not read"
    return found


def _assert_safe(output: str, fmt: str, *, broken_prefix: str) -> None:
    """No forged command; every line that shows the injected text also shows what came before
    it in the value (``broken_prefix``): the value stayed on one line."""
    for command in _commands(output):
        assert fmt == "github" and _ANNOTATION.match(command), f"{fmt}: a command dl-lint did not make: {command!r}"
    if fmt in _MACHINE:
        return  # JSON and percent-encoded values: one line by construction
    for line in _RUNNER_BREAK.split(output):
        if "INJECTED" in line:
            assert broken_prefix in line, f"{fmt}: a value from the project broke a line: {line!r}"


def _formats() -> List[List[str]]:
    return [["--output-format", fmt] for fmt in FORMATS] + [
        ["--statistics"],
        ["--unsafe-fixes", "--diff"],
        ["--unsafe-fixes", "--fix", "--show-fixes"],
    ]


@pytest.fixture
def injected_flag(tmp_path: Path) -> Path:
    root = tmp_path / "flag"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "train.py").write_text(TRAIN.format(flag="--workers\n" + FORGED))
    return root


@pytest.mark.parametrize("args", _formats(), ids=lambda a: "-".join(a))
def test_an_injected_flag_name_forges_no_line(injected_flag: Path, args: List[str]) -> None:
    output = _run(injected_flag, *args, "train.py")
    if args[-1] in _WITH_DETAIL:
        assert "INJECTED" in output, output  # the positive control: the cited origin is shown
    _assert_safe(output, args[-1], broken_prefix="--workers")


def test_the_full_format_shows_the_origin_escaped(injected_flag: Path) -> None:
    output = _run(injected_flag, "--output-format", "full", "train.py")
    assert "(default of --workers\\n::error file=INJECTED.py,line=1::forged)" in output


def _hostile_file(tmp_path: Path, name: str, source: str) -> Path:
    root = tmp_path / "names"
    root.mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    try:
        (root / name).write_text(source)
    except (OSError, ValueError):
        pytest.skip(f"the filesystem refuses the name {name!r}")
    return root


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=["newline", "carriage-return", "command", "spaced-command", "old-command"])
@pytest.mark.parametrize("args", _formats() + [["--show-files"]], ids=lambda a: "-".join(a))
def test_a_hostile_file_name_forges_no_line(tmp_path: Path, name: str, args: List[str]) -> None:
    """12 errors in one file: the github format's plain list is printed too."""
    root = _hostile_file(tmp_path, name, LOADERS)
    output = _run(root, *args, ".")
    prefix = name.split("INJECTED")[0].split("\n")[0].split("\r")[0].strip() or name[:4]
    _assert_safe(output, args[-1], broken_prefix=prefix)
    if args[-1] == "github":
        assert output.count("::error title=dl-lint") == 12  # the positive control: annotations
        assert "GitHub shows only 10" in output  # and the plain list


def test_a_file_named_like_a_command_is_listed_as_a_path(tmp_path: Path) -> None:
    root = _hostile_file(tmp_path, "::warning::x.py", LOADERS)
    concise = _run(root, ".")
    assert "./::warning::x.py:2:" in concise
    github = _run(root, "--output-format", "github", ".")
    assert "file=%3A%3Awarning%3A%3Ax.py," in github  # the annotation's own escaping
    assert "\n./::warning::x.py:2:" in github  # the plain list


def test_printable_escapes_controls_and_guards_line_starts() -> None:
    assert printable.text("a\nb\r\tc\x1b[31m\x85\u2028\u2029\x7fd") == "a\\nb\\r\\tc\\x1b[31m\\x85\\u2028\\u2029\\x7fd"
    assert printable.text("café ü → ok") == "café ü → ok"
    assert printable.path("::warning::x.py") == "./::warning::x.py"
    assert printable.path("src/::x.py") == "src/::x.py"
    assert printable.line("  ::error::x") == "  \\::error::x"
    assert printable.line("##[error]x") == "\\##[error]x"
    assert printable.line("a ::error::x") == "a ::error::x"
    assert printable.lines("ok\r\n::x\rb\n") == "ok\r\n\\::x\\rb\n"
