"""No input makes dl-lint crash, and one hostile file never costs the others their results.

Every case runs the installed entry point as a subprocess on a folder where a hostile input sits
beside ``bad.py``, a file with a known DL001. Each must end with a diagnostic for the hostile
input (DL000 when it cannot be linted) or a one-line error with the documented exit code, never a
traceback, and ``bad.py``'s DL001 must still be reported. (The inputs of CASES and NOTEBOOKS share
one run, each in its own folder beside its own bad.py: a run costs a second of start-up.)

Not covered here (``--fix``, being built): see the list at the end of this file.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

IMPORT = "from torch.utils.data import DataLoader\n"
CALL = "loader = DataLoader([1, 2], prefetch_factor=2)\n"
BAD = IMPORT + CALL  # DL001 at 2:29
BAD_DL001 = "bad.py:2:29: DL001 "


def assert_no_crash(result, exit_code=1):
    """No traceback, at most one line on stderr, the expected exit code."""
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) <= 1, result.stderr
    assert result.returncode == exit_code, (result.returncode, result.stdout[-2000:], result.stderr)


def nested(prefix, opening, middle, closing, depth):
    """A file with a loader call (so that it needs the full parse) and a deeply nested line."""
    return (IMPORT + CALL + prefix + opening * depth + middle + closing * depth + "\n").encode()


def deep(line):
    return (IMPORT + CALL + line + "\n").encode()


def as_parsed(case, data, call_at="2:29"):
    """A case whose outcome is the parser's: dl-lint parses with the Python that runs it (the
    installed entry point runs on this interpreter), so the file is DL000 with this Python's own
    words exactly when its ``ast.parse`` refuses it, and otherwise analysed like any file (the
    loader call's DL001 at ``call_at``)."""
    try:
        ast.parse(data)
    except (RecursionError, MemoryError):
        return (case, data, "DL000 cannot parse: expressions nested too deeply")
    except SyntaxError as error:
        return (case, data, f"DL000 cannot parse: {error.msg}")
    return (case, data, f"DL001 {call_at}")


# (case id, file content, what must be reported for it: "DL001 row:col", "DL000 <text>" or None)
CASES = [
    ("syntax-error", (IMPORT + "DataLoader(x,\n").encode(), "DL000 cannot parse"),
    ("py2-print", (IMPORT + "print 'hello'\n" + CALL).encode(), "DL000 cannot parse"),
    # Python 3.14 (PEP 758) reads this as ``except (ValueError, e):``; 3.10 to 3.13 reject it
    # ("multiple exception types must be parenthesized"), 3.9 with "invalid syntax".
    as_parsed("py2-except", (IMPORT + "try:\n    pass\nexcept ValueError, e:\n    pass\n" + CALL).encode(), "6:29"),
    ("py2-raise-with-comma", (IMPORT + "raise ValueError, 'message'\n" + CALL).encode(), "DL000 cannot parse"),
    ("py2-backticks-and-octal", (IMPORT + "x = `1` + 0777\n" + CALL).encode(), "DL000 cannot parse"),
    (
        "latin1-with-cookie",
        ("# -*- coding: latin-1 -*-\n" + IMPORT + "name = 'café'\n" + CALL).encode("latin-1"),
        "DL001 4:29",
    ),
    ("latin1-without-cookie", (IMPORT + "name = 'café'\n" + CALL).encode("latin-1"), "DL000 cannot decode file"),
    ("unknown-coding-cookie", ("# coding: klingon\n" + BAD).encode(), "DL000 cannot decode file"),
    ("utf8-bom", b"\xef\xbb\xbf" + BAD.encode(), "DL001 2:29"),
    ("bom-and-latin1-cookie", b"\xef\xbb\xbf# coding: latin-1\n" + BAD.encode(), "DL000 cannot decode file"),
    ("crlf", BAD.replace("\n", "\r\n").encode(), "DL001 2:29"),
    ("lone-cr", BAD.replace("\n", "\r").encode(), "DL001 2:29"),
    ("mixed-line-endings", (IMPORT + "x = 1\r" + "y = 2\r\n" + CALL).encode(), "DL001 4:29"),
    # A tab and a form feed each count as one column, as in every other linter.
    ("tabs-and-form-feeds", (IMPORT + "\x0cif True:\n\tloader = DataLoader([1, 2],\x0c prefetch_factor=2)\n").encode(), "DL001 3:31"),
    ("nul-byte", (IMPORT + "x = 1\x00\n" + CALL).encode(), "DL000 cannot parse"),
    ("binary", bytes(range(256)) * 40 + b"DataLoader(", "DL000 cannot decode file"),
    ("binary-valid-utf8", "\u0000\u0001DataLoader(\ufffe\U0010ffff".encode(), "DL000 cannot parse"),
    ("empty", b"", None),
    ("only-a-bom", b"\xef\xbb\xbf", None),
    ("no-final-newline", BAD.rstrip("\n").encode(), "DL001 2:29"),
    # CPython's tokenizer stops at 200 nested brackets ("too many nested parentheses").
    ("parens-5000-deep", nested("x = ", "(", "1", ")", 5000), "DL000 cannot parse: too many nested parentheses"),
    ("lists-10000-deep", nested("x = ", "[", "", "]", 10000), "DL000 cannot parse: too many nested parentheses"),
    ("calls-3000-deep", nested("x = ", "f(", "", ")", 3000), "DL000 cannot parse: too many nested parentheses"),
    # CPython's parser stops these at its own recursion limit (once, libcst's native parser
    # overflowed the C stack on them); long flat chains it takes, and so does the analysis.
    ("not-50000-deep", deep("x = " + "not " * 50000 + "1"), "DL000 cannot parse: expressions nested too deeply"),
    ("lambda-5000-deep", deep("x = " + "lambda: " * 5000 + "1"), "DL000 cannot parse: expressions nested too deeply"),
    ("and-chain-100000", deep("x = 1" + " and 1" * 100000), "DL001 2:29"),
    ("and-chain-10000", deep("x = 1" + " and 1" * 10000), "DL001 2:29"),
    # Left-nested chains: CPython 3.11 and 3.12 refuse to build their AST; 3.9 and 3.10 build it
    # (and 3.13 builds the shorter one), and then the analysis must take them without recursing.
    as_parsed("plus-chain-100000", deep("x = 1" + "+1" * 100000)),
    as_parsed("plus-chain-5000", deep("x = 1" + "+1" * 5000)),
    as_parsed("attribute-chain-50000", deep("x = a" + ".b" * 50000)),
    ("subscript-chain-1000", deep("x = a" + "[0]" * 1000), "DL001 2:29"),
    ("nesting-just-within-reach", deep("x = 1" + "+1" * 150), "DL001 2:29"),
    ("indentation-101-deep", (IMPORT + "".join(" " * i + "if x:\n" for i in range(101)) + " " * 101 + CALL).encode(), "DL000 cannot parse"),
    ("line-of-1-mb", (IMPORT + "x = '" + "a" * 1_000_000 + "'\n" + CALL).encode(), "DL001 3:29"),
    # Large files are analysed (the limit, max-file-size, is for pathological input: see below).
    ("file-of-5-mb", (IMPORT + ("x = '" + "a" * 9990 + "'\n") * 500 + CALL).encode(), "DL001 502:29"),
    ("file-of-5-mb-without-a-call", (IMPORT + ("x = '" + "a" * 9990 + "'  # DataLoader\n") * 500).encode(), None),
    ("file-of-100000-lines", (IMPORT + '"""\n' + "line\n" * 100_000 + '"""\n' + CALL).encode(), "DL001 100004:29"),
    ("file-of-100000-lines-without-a-call", ("# DataLoader\n" + "x = 1\n" * 100_000).encode(), None),
    # Constant folding that would take minutes and gigabytes: the value is unknown instead.
    ("power-tower", (IMPORT + "loader = DataLoader([1], num_workers=2 ** 10 ** 10, prefetch_factor=2)\n").encode(), None),
    ("huge-product", (IMPORT + "n = 10 ** 3000\nloader = DataLoader([1], num_workers=n * n * n * 0, prefetch_factor=2)\n").encode(), None),
    # Source Python rejects: reported as Python reports it.
    ("int-of-5000-digits", (IMPORT + "loader = DataLoader([1], num_workers=" + "1" * 5000 + ", prefetch_factor=2)\n").encode(), "DL000 cannot parse: Exceeds the limit"),
    ("non-ascii-bytes-literal", (IMPORT + "loader = DataLoader([1], multiprocessing_context=b'é', prefetch_factor=2)\n").encode(), "DL000 cannot parse: bytes can only contain ASCII"),
    ("bad-unicode-escape", (IMPORT + "loader = DataLoader([1], multiprocessing_context='\\N{NO SUCH NAME}', prefetch_factor=2)\n").encode(), "DL000 cannot parse"),
    ("surrogate-escape-in-string", (IMPORT + "x = '\\ud800'\n" + CALL).encode(), "DL001 3:29"),
]


def run_beside(root, cases, name):
    """One run over a folder per case, each holding the hostile input ``name`` and bad.py (one
    run, not one per case: each costs a second of start-up; with this many files the run also
    goes through the worker processes)."""
    for case, data, _ in cases:
        (root / case).mkdir()
        (root / case / name).write_bytes(data)
        (root / case / "bad.py").write_text(BAD)
    started = time.monotonic()
    result = _run_bytes(["."], root)
    assert time.monotonic() - started < 120
    return result


def check_case(result, case, name, expected):
    """bad.py beside the input is still linted; the input gets exactly what is expected."""
    assert_no_crash(result)
    lines = result.stdout.splitlines()
    assert f"{case}/{BAD_DL001}" in "\n".join(lines), result.stdout[-3000:]
    reported = [line for line in lines if line.startswith(f"{case}/{name}:")]
    if expected is None:
        assert reported == []
    elif expected.startswith("DL001 "):
        assert len(reported) == 1 and reported[0].startswith(f"{case}/{name}:{expected[6:]}: DL001 "), reported
    else:
        assert len(reported) == 1 and f": {expected}" in reported[0], reported


@pytest.fixture(scope="module")
def hostile_files_run(tmp_path_factory):
    return run_beside(tmp_path_factory.mktemp("hostile"), CASES, "hostile.py")


@pytest.mark.parametrize("case, expected", [pytest.param(i, e, id=i) for i, _, e in CASES])
def test_hostile_file_beside_a_bad_one(hostile_files_run, case, expected):
    check_case(hostile_files_run, case, "hostile.py", expected)


def test_hostile_source_on_stdin(tmp_path):
    for data, expected in (
        (bytes(range(256)), "<stdin>:1:1: DL000 cannot decode file"),
        (nested("x = ", "[", "", "]", 10000), "DL000 cannot parse: too many nested parentheses"),
        (deep("x = " + "not " * 50000 + "1"), "DL000 cannot parse: expressions nested too deeply"),
        (b"print 'py2'\n", "DL000 cannot parse"),
        (b"", None),
    ):
        result = _run_bytes(["-"], tmp_path, data)
        assert_no_crash(result, 1 if expected else 0)
        if expected:
            assert expected in result.stdout


# -- the file system -------------------------------------------------------------------------------


def test_symlink_loops(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "parent").symlink_to("..", target_is_directory=True)  # a folder loop
    (tmp_path / "self").symlink_to(".", target_is_directory=True)
    (tmp_path / "a.py").symlink_to("b.py")  # a file loop
    (tmp_path / "b.py").symlink_to("a.py")
    (tmp_path / "dangling.py").symlink_to("missing.py")
    result = run_cli(".")
    assert_no_crash(result)
    assert [line for line in result.stdout.splitlines() if ": DL" in line] == [result.stdout.splitlines()[0]]
    assert result.stdout.startswith(BAD_DL001)
    # Named on the command line, a loop is said to be one: one line, exit 2.
    explicit = run_cli("a.py", "bad.py")
    assert_no_crash(explicit, 2)
    assert explicit.stderr == "dl-lint: error: symbolic link loop: a.py\n"


def test_file_names_with_spaces_and_non_ascii_characters(tmp_path):
    names = ["with space.py", "naïve Ünïcödé.py", "日本語.py", "emoji 🚀.py", "-starts-with-dash.py"]
    for name in names:
        (tmp_path / name).write_text(BAD)
    with open(os.fsencode(tmp_path) + b"/caf\xe9.py", "wb") as handle:  # not UTF-8: printed as its bytes
        handle.write(BAD.encode())
    (tmp_path / "bad.py").write_text(BAD)
    for fmt in ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab"):
        result = _run_bytes(["--output-format", fmt, "."], tmp_path)
        assert_no_crash(result)
        for name in names:
            from urllib.parse import quote

            shown = quote(name) if fmt == "sarif" else name  # SARIF URIs are percent-encoded
            assert shown in result.stdout or json.dumps(name)[1:-1] in result.stdout, (fmt, name)
        if fmt == "sarif":
            assert '"uri": "caf%E9.py"' in result.stdout  # the name's own bytes, percent-encoded
    result = _run_bytes(["."], tmp_path)
    assert len([line for line in result.stdout.splitlines() if ": DL001 " in line]) == len(names) + 2
    assert "caf\udce9.py:2:29: DL001 " in result.stdout


def _run_bytes(args, cwd, data=None):
    """Run the entry point; output decoded as the file system encodes names (bytes that are
    not UTF-8 come back as surrogate escapes)."""
    result = subprocess.run([*_entry_point(), *args], cwd=cwd, input=data, capture_output=True, timeout=120, env=_env())
    return subprocess.CompletedProcess(
        result.args, result.returncode, os.fsdecode(result.stdout), os.fsdecode(result.stderr)
    )


def _entry_point():
    exe = Path(sys.executable).with_name("dl-lint")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]


def _env():
    env = dict(os.environ)
    env.pop("DL_LINT_OUTPUT_FORMAT", None)
    env["NO_COLOR"] = "1"
    return env


def _without_file_permission_override():
    """A command prefix under which chmod denies us access, or [] when it already does (not
    root). As root (here and in CI) chmod does not stop us: setpriv (util-linux) drops the
    capabilities that bypass permission bits (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the
    bounding and inheritable sets, so the command runs as root, reads what root owns with
    permission bits that allow it, and gets EACCES for mode 000."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.fail("running as root without setpriv (util-linux): cannot make a file unreadable")
    caps = "-dac_override,-dac_read_search"
    return ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}"]


def test_unreadable_file_and_folder(tmp_path):
    """A file and a folder nobody may read (mode 000) beside bad.py: each is one DL000, the
    rest is linted; named explicitly, the unreadable file (or one inside the unreadable folder)
    is still a DL000, and an unreadable --config or --cache-dir is not a traceback."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "secret.py").write_text(BAD)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside.py").write_text(BAD)
    (tmp_path / "secret.py").chmod(0)
    locked.chmod(0)
    prefix = _without_file_permission_override()

    def run(*args):
        result = subprocess.run(
            [*prefix, *_entry_point(), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env()
        )
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 1, result.stderr
        return result

    try:
        result = run(".")
        assert result.returncode == 1
        lines = result.stdout.splitlines()
        assert lines[0].startswith(BAD_DL001)
        assert "locked:1:1: DL000 cannot read directory: Permission denied" in lines
        assert "secret.py:1:1: DL000 cannot read file: Permission denied" in lines
        assert len([line for line in lines if ": DL" in line]) == 3
        named = run("secret.py", "locked/inside.py", "bad.py")
        assert named.returncode == 1
        assert "secret.py:1:1: DL000 cannot read file: Permission denied" in named.stdout
        assert "locked/inside.py:1:1: DL000 cannot read file: Permission denied" in named.stdout
        assert BAD_DL001 in named.stdout
        config = run("--config", "secret.py", "bad.py")
        assert config.returncode == 2 and config.stderr.startswith("dl-lint: error: secret.py: cannot read: Permission denied")
        cache = run("--cache-dir", "locked", "bad.py")
        assert cache.returncode == 1 and cache.stdout.startswith(BAD_DL001) and cache.stderr == ""
    finally:
        locked.chmod(0o755)


def test_file_deleted_during_the_run(tmp_path):
    """Deterministically: the real CLI, in a subprocess whose ``discover`` (dl_lint.engine's
    file walk) removes ``gone.py`` after listing it, so it vanishes between discovery and
    reading, as when a build deletes files while dl-lint runs."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "gone.py").write_text(BAD)
    hook = (
        "import os, sys\n"
        "import dl_lint.engine as engine\n"
        "real = engine.discover\n"
        "def discover(*args, **kwargs):\n"
        "    found = real(*args, **kwargs)\n"
        "    assert any(p.name == 'gone.py' for p in found.files)\n"
        "    os.remove('gone.py')\n"
        "    return found\n"
        "engine.discover = discover\n"
        "from dl_lint.cli import main\n"
        "sys.argv = ['dl-lint', '.']\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", hook], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env())
    assert_no_crash(result)
    assert not (tmp_path / "gone.py").exists()
    assert result.stdout.startswith(BAD_DL001)
    assert "gone.py:1:1: DL000 cannot read file: No such file or directory" in result.stdout.splitlines()


# -- notebooks and configuration -----------------------------------------------------------------------

NOTEBOOK_CALL = {"cells": [{"cell_type": "code", "source": BAD}]}

NOTEBOOKS = [
    ("truncated-json", b'{"cells": [', "DL000 cannot read notebook: invalid JSON"),
    ("empty-file", b"", "DL000 cannot read notebook: invalid JSON"),
    ("json-array", b"[1, 2]", "DL000 cannot read notebook: not a notebook"),
    ("cells-not-a-list", b'{"cells": 5}', "DL000 cannot read notebook: not a notebook"),
    ("no-cells", b'{"nbformat": 4}', "DL000 cannot read notebook: not a notebook"),
    ("nbformat-3", b'{"nbformat": 3, "worksheets": []}', "DL000 cannot read notebook: nbformat 3"),
    ("cell-is-null", b'{"cells": [null]}', "DL000 cannot read notebook: cell 1 is not an object"),
    ("source-is-a-number", b'{"cells": [{"cell_type": "code", "source": 5}]}', "DL000 cannot read notebook: cell 1"),
    ("source-list-with-a-number", b'{"cells": [{"cell_type": "code", "source": ["x", 1]}]}', "DL000 cannot read notebook: cell 1"),
    ("not-utf8", b'{"cells": [{"cell_type": "code", "source": "\xe9"}]}', "DL000 cannot read notebook: not UTF-8"),
    ("json-nested-100000-deep", b'{"cells": ' + b"[" * 100000 + b"]" * 100000 + b"}", "DL000 cannot read notebook: invalid JSON"),
    ("json-int-of-5000-digits", b'{"cells": [], "x": ' + b"1" * 5000 + b"}", "DL000 cannot read notebook: invalid JSON"),
    ("cell-type-is-a-list", b'{"cells": [{"cell_type": ["code"], "source": "x"}]}', None),
    ("metadata-of-wrong-types", json.dumps({**NOTEBOOK_CALL, "metadata": {"language_info": {"name": 5}, "kernelspec": 3}}).encode(), "DL001 cell 1:2:29"),
    ("lone-surrogate-in-a-cell", json.dumps({"cells": [{"cell_type": "code", "source": IMPORT + "x = '\ud800'\n" + CALL}]}).encode(), "DL000 cannot parse"),
    ("cell-nested-too-deeply", json.dumps({"cells": [{"cell_type": "code", "source": IMPORT + "x = " + "[" * 3000 + "]" * 3000 + "\n" + CALL}]}).encode(), "DL000 cannot parse: too many nested parentheses"),
    ("python-2-cell", json.dumps({"cells": [{"cell_type": "code", "source": IMPORT + "print 'x'\n" + CALL}]}).encode(), "DL000 cannot parse"),
]


@pytest.fixture(scope="module")
def hostile_notebooks_run(tmp_path_factory):
    return run_beside(tmp_path_factory.mktemp("notebooks"), NOTEBOOKS, "hostile.ipynb")


@pytest.mark.parametrize("case, expected", [pytest.param(i, e, id=i) for i, _, e in NOTEBOOKS])
def test_malformed_notebook(hostile_notebooks_run, case, expected):
    check_case(hostile_notebooks_run, case, "hostile.ipynb", expected)


@pytest.mark.parametrize(
    "content, message",
    [
        pytest.param(b'[tool.dl-lint\nselect = ["ALL"]\n', "cannot parse TOML", id="syntax-error"),
        pytest.param(b"\xff\xfe[tool.dl-lint]\n", "cannot parse TOML", id="not-utf8"),
        pytest.param(b"[tool.dl-lint]\nx = " + b"[" * 10000 + b"]" * 10000 + b"\n", "nested too deeply", id="nested-10000-deep"),
        pytest.param(b"[tool.dl-lint]\nmax-inflight-batches = " + b"1" * 5000 + b"\n", "cannot parse TOML", id="int-of-5000-digits"),
        pytest.param(b"[tool.dl-lint]\nmax-inflight-batches = inf\n", "max-inflight-batches", id="infinite-limit"),
        pytest.param(b"[tool.dl-lint]\nselect = \"DL001\"\n", "select", id="string-for-a-list"),
        pytest.param(b"[tool.dl-lint]\nselect = [\"DL001\", 1]\n", "select", id="number-in-a-list"),
        pytest.param(b"[tool]\ndl-lint = 5\n", "dl-lint", id="table-is-a-number"),
        pytest.param(b"\x00\x00", "cannot parse TOML", id="nul-bytes"),
    ],
)
def test_malformed_pyproject_is_a_one_line_error(tmp_path, run_cli, content, message):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_bytes(content)
    result = run_cli(".")
    assert_no_crash(result, 2)
    assert result.stderr.startswith("dl-lint: error: pyproject.toml") and message in result.stderr, result.stderr
    assert result.stdout == ""


def test_corrupted_results_cache_is_a_miss(tmp_path, run_cli):
    """The cache is an input too: garbage in its file (or in one entry) is ignored."""
    (tmp_path / "bad.py").write_text(BAD)
    first = run_cli(".")
    assert first.stdout.startswith(BAD_DL001)
    from dl_lint.cache import seal, unseal, user_key

    [store] = list((tmp_path / ".dl_lint_cache").glob("results-*.json"))
    secret = user_key()[0]  # the test session's (conftest): the subprocess uses the same one
    original = json.loads(unseal(store.read_bytes(), secret))
    [key] = list(original["entries"])
    variants = [b"garbage", b"[" * 100000, json.dumps({**original, "entries": 5}).encode()]
    for field, value in (("fa", 5), ("fa", ["a", None]), ("d", [{"c": 5}]), ("deps", 5)):
        entries = {key: {**original["entries"][key], field: value}}
        variants.append(json.dumps({**original, "entries": entries}).encode())
    for data in variants + [seal(data, secret) for data in variants]:
        store.write_bytes(data)
        result = run_cli(".")
        assert_no_crash(result)
        assert result.stdout.startswith(BAD_DL001), (data[:200], result.stdout)


def test_every_output_format_survives_hostile_diagnostics(tmp_path, run_cli):
    """DL000s with odd positions (past the end of a line, in a binary file, in a CR-only file)
    render in every format, snippets included."""
    for name, data, _ in CASES:
        if len(data) < 100_000:
            (tmp_path / f"{name}.py").write_bytes(data)
    (tmp_path / "bad.py").write_text(BAD)
    for fmt in ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab"):
        result = run_cli("--output-format", fmt, ".")
        assert_no_crash(result)
    statistics = run_cli("--statistics", ".")
    assert_no_crash(statistics)


# Writing with ``--fix`` is tested where it is built: tests/test_fixes.py (mode kept, atomic
# replace, read-only files and symlinks out of the project refused, CRLF/BOM/latin-1 kept byte
# for byte, notebooks keep every byte outside edited cells, idempotence, --diff writes nothing)
# and tests/test_safety.py (SIGKILL/SIGINT/SIGTERM mid-run, a full disk at each step of the
# write, a file edited while being fixed, nothing written but the fixed files and the cache).
# Hard links are not kept: the fixed file is a new inode (as with any atomic rename); the other
# names keep the old content.


def test_files_over_max_file_size_are_reported_not_analysed(tmp_path):
    """max-file-size guards against pathological input: a file over it is one DL000 (with the
    size and the setting's name), and the files beside it are still linted."""
    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\nmax-file-size = "64KiB"\n')
    (tmp_path / "big.py").write_bytes((IMPORT + "x = 1\n" * 20_000 + CALL).encode())
    (tmp_path / "bad.py").write_text(BAD)
    result = _run_bytes(["."], tmp_path)
    assert_no_crash(result)
    lines = result.stdout.splitlines()
    assert any(line.startswith(BAD_DL001) for line in lines), result.stdout
    [big] = [line for line in lines if line.startswith("big.py:")]
    size = len((IMPORT + "x = 1\n" * 20_000 + CALL).encode()) / 1024
    assert big.startswith(f"big.py:1:1: DL000 cannot parse: file too large to analyse ({size:.1f} KiB; the limit is 64 KiB")


def test_generated_tables_are_analysed_not_walked(tmp_path):
    """A module of literal tables (generated code) with one DataLoader: the finding is reported
    (the tables are skipped, not walked node by node, and not written out as text)."""
    rows = "".join(f"    ({i}, {i / 7:.5f}, 'label_{i % 13}', -{i}),\n" for i in range(20_000))
    names = "".join(f"    'k{i}': ({i}, 'v{i}'),\n" for i in range(20_000))
    source = IMPORT + "TABLE = [\n" + rows + "]\nNAMES = {\n" + names + "}\n" + CALL.replace("[1, 2]", "TABLE")
    (tmp_path / "tables.py").write_text(source)
    result = _run_bytes(["tables.py"], tmp_path)
    assert_no_crash(result)
    assert result.stdout.startswith(f"tables.py:{source.count(chr(10))}:"), result.stdout[:500]
    assert " DL001 " in result.stdout.splitlines()[0]
