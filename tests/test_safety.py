"""Safety: dl-lint never imports or runs the code it reads, a plain lint run writes nothing (but
its results cache, created with the user's umask), its configuration is data that cannot run
code, and `--fix` stopped at any moment leaves every file either old or new.

(More on `--fix` writing in tests/test_fixes.py: mode kept, read-only files and symlinks out of
the project refused, encodings, BOM and line endings kept byte for byte.)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"


def evil(marker: Path, what: str = "imported") -> str:
    """Code that leaves ``marker`` behind (and then fails loudly) if anything imports or runs it."""
    return (
        f"import pathlib\npathlib.Path({str(marker)!r}).write_text({what!r})\n"
        "raise SystemExit('dl-lint ran this file')\n"
    )


def make_hostile_project(root: Path, marker: Path) -> None:
    """A project whose every file runs code when imported, with loader calls dl-lint must lint."""
    (root / "pyproject.toml").write_text("[project]\nname = 'evil'\n")
    (root / "setup.py").write_text(evil(marker, "setup.py"))
    (root / "conftest.py").write_text(evil(marker, "conftest.py"))
    (root / "sitecustomize.py").write_text(evil(marker, "sitecustomize.py"))
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(evil(marker, "pkg/__init__.py"))
    (pkg / "settings.py").write_text(evil(marker, "pkg/settings.py") + "WORKERS = 0\n")
    (pkg / "train.py").write_text(
        evil(marker, "pkg/train.py")
        + "from torch.utils.data import DataLoader\nfrom .settings import WORKERS\n"
        + "loader = DataLoader([1, 2], num_workers=WORKERS, prefetch_factor=2)\n"
        + "if __name__ == '__main__':\n    loader = DataLoader([1], prefetch_factor=2)\n"
    )
    (root / "train.py").write_text(
        "from torch.utils.data import DataLoader\nimport pkg.settings\nimport evil_dep\n"
        + "loader = DataLoader([1, 2], num_workers=evil_dep.N, prefetch_factor=2, worker_init_fn=__import__('os').system)\n"
        + evil(marker, "train.py")
    )
    (root / "evil_dep.py").write_text(evil(marker, "evil_dep.py") + "N = 0\n")
    # Modules named like what dl-lint imports: the console script must not pick them up.
    for name in ("click", "libcst", "tomllib", "tomli", "json", "ast", "typing", "dataclasses", "torch"):
        (root / f"{name}.py").write_text(evil(marker, f"{name}.py"))
    (root / "notebook.ipynb").write_text(
        json.dumps({"cells": [{"cell_type": "code", "source": evil(marker, "notebook") + BAD}], "metadata": {}})
    )


def test_never_imports_or_runs_the_code_it_reads(tmp_path, run_cli):
    marker = tmp_path / "MARKER"
    project = tmp_path / "project"
    project.mkdir()
    make_hostile_project(project, marker)
    for args in (
        ["--select", "ALL", "."],
        ["--select", "ALL", "--output-format", "full", "."],
        ["--select", "ALL", "--output-format", "sarif", "--no-cache", "."],
        ["--statistics", "."],
        ["pkg/train.py"],
        ["--jobs", "2", "."],
        ["estimate", "--batch-bytes", "1MiB", "pkg/train.py"],
        ["rule", "DL001"],
    ):
        result = run_cli(*args, cwd=project)
        assert "Traceback" not in result.stderr and "ran this file" not in result.stderr + result.stdout, (args, result.stderr)
        assert result.returncode in (0, 1), (args, result.returncode, result.stderr)
        assert not marker.exists(), (args, marker.read_text())
    lint = run_cli(".", cwd=project)
    # The imported constants were read from source, not imported.
    full = run_cli("--output-format", "full", ".", cwd=project).stdout
    assert "pkg/train.py:6:50: DL001 [*] prefetch_factor=2 is passed but num_workers=0: " in full
    assert "Values: num_workers=0 (WORKERS in pkg.settings)" in full.replace("\n  ", " ")
    assert "train.py:4:53: DL001 [*] prefetch_factor=2 is passed but num_workers=0: " in full
    assert "Values: num_workers=0 (N in evil_dep)" in full.replace("\n  ", " ")
    assert "notebook.ipynb:cell 1:" in lint.stdout


def test_never_imports_through_the_python_api(tmp_path):
    marker = tmp_path / "MARKER"
    make_hostile_project(tmp_path, marker)
    from dl_lint import lint_paths, lint_source

    result = lint_paths([tmp_path], jobs=1, cache=False)
    assert any(d.code == "DL001" for d in result.diagnostics)
    lint_source((tmp_path / "train.py").read_text(), str(tmp_path / "train.py"), project_root=tmp_path)
    assert not marker.exists()


def test_git_config_in_the_linted_repository_runs_nothing(tmp_path, run_cli):
    """``git ls-files`` (for .gitignore) would run the walked repository's core.fsmonitor."""
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test (dl-lint uses it for .gitignore)")
    marker = tmp_path / "MARKER"
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "core.fsmonitor", f"touch {marker}; false"], check=True)
    (repo / ".gitignore").write_text("ignored.py\n")
    (repo / "ignored.py").write_text(BAD)
    (repo / "bad.py").write_text(BAD)
    result = run_cli(".", cwd=repo)
    assert result.stdout.startswith("bad.py:2:29: DL001 ")
    assert "ignored.py" not in result.stdout  # .gitignore still honoured
    assert not marker.exists()


# -- writes -----------------------------------------------------------------------------------------


def snapshot(root: Path, skip=(".dl_lint_cache",)) -> dict:
    """Every file and folder under ``root``: type, mode, size, mtime and content hash."""
    state = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in dirs + files:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            digest = None
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            state[os.path.relpath(path, root)] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return state


@pytest.fixture
def tree(tmp_path):
    """A project with lintable files, a broken one, a notebook, a config, a git checkout."""
    root = tmp_path / "tree"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=False)
    (root / "pyproject.toml").write_text("[tool.dl-lint]\nselect = ['ALL']\n")
    (root / "bad.py").write_text(BAD)
    (root / "crlf.py").write_bytes(BAD.replace("\n", "\r\n").encode())
    (root / "broken.py").write_text("from torch.utils.data import DataLoader\nDataLoader(\n")
    (root / "src").mkdir()
    (root / "src" / "loaders.py").write_text(BAD + "def make(ds, workers=0):\n    return DataLoader(ds, num_workers=workers, pin_memory=True)\n")
    (root / "notebook.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": BAD}]}))
    return root


@pytest.mark.parametrize(
    "args",
    [
        ["."],
        ["--output-format", "full", "."],
        ["--output-format", "sarif", "."],
        ["--output-format", "gitlab", "."],
        ["--statistics", "."],
        ["--diff", "."],
        ["--jobs", "2", "src", "bad.py"],
        ["--unsafe-fixes", "."],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_plain_run_writes_only_its_cache(tree, run_cli, args):
    before = snapshot(tree)
    result = run_cli(*args, cwd=tree)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert snapshot(tree) == before
    # The cache is the only thing written, and only inside its own folder.
    assert {p.name for p in tree.iterdir()} - {".dl_lint_cache"} == {p.split(os.sep)[0] for p in before}


def test_no_cache_writes_nothing_at_all(tree, run_cli):
    before = snapshot(tree, skip=())
    result = run_cli("--no-cache", ".", cwd=tree)
    assert result.returncode == 1
    assert snapshot(tree, skip=()) == before
    assert not (tree / ".dl_lint_cache").exists()


def test_stdin_writes_nothing(tree, run_cli):
    before = snapshot(tree, skip=())
    result = run_cli("-", "--stdin-filename", "src/loaders.py", cwd=tree, input=BAD)
    assert result.returncode == 1 and "DL001" in result.stdout
    assert snapshot(tree, skip=()) == before


# -- configuration is data ------------------------------------------------------------------------


CODE = "__import__('os').system('touch {marker}')"


@pytest.mark.parametrize(
    "table, exit_code",
    [
        ("select = [\"{code}\"]", 2),
        ("ignore = [\"$(touch {marker})\"]", 2),
        ("extra-loaders = [\"{code}\"]", 2),
        ("extra-loaders = [\"os.system\", \"subprocess.run\"]", 1),  # names of classes, never imported
        ("exclude = [\"$(touch {marker})\", \"`touch {marker}`\"]", 1),
        ("per-file-ignores = {{ \"$(touch {marker})\" = [\"DL001\"] }}", 1),
        ("batch-bytes = \"{code}\"", 2),
        ("memory-budget = \"$(touch {marker})\"", 2),
        ("target-version = \"{code}\"", 2),
        ("max-inflight-batches = \"{code}\"", 2),
        ("respect-gitignore = \"{code}\"", 2),
    ],
)
def test_configuration_strings_that_look_like_code_are_data(tmp_path, run_cli, table, exit_code):
    marker = tmp_path / "MARKER"
    text = "[tool.dl-lint]\n" + table.format(code=CODE.format(marker=marker), marker=marker) + "\n"
    (tmp_path / "pyproject.toml").write_text(text)
    (tmp_path / "bad.py").write_text(BAD + "import os\nos.system('true')\n")
    result = run_cli(".")
    assert result.returncode == exit_code, (text, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 1
    assert not marker.exists()


def test_other_inputs_that_look_like_code_are_data(tmp_path, run_cli):
    marker = tmp_path / "MARKER"
    code = CODE.format(marker=marker)
    (tmp_path / "bad.py").write_text(
        "from torch.utils.data import DataLoader\n"
        f"loader = DataLoader([1], num_workers=8, prefetch_factor=8)  # dl-lint: batch-bytes={code}\n"
        f"# noqa: {code}\n# dl-lint: noqa: {code}\n"
    )
    (tmp_path / "dl-lint.toml").write_text(f"select = [\"ALL\"]\nexclude = [\"{code.replace(chr(39), '')}\"]\n")
    for args, env in (
        ([".", "--select", code], {}),
        ([".", "--stdin-filename", code], {}),
        (["."], {"DL_LINT_OUTPUT_FORMAT": code}),
        (["."], {"DL_LINT_CACHE_DIR": f"$(touch {marker})"}),
        (["--config", "dl-lint.toml", "."], {}),
        (["estimate", "--batch-bytes", code], {}),
    ):
        result = run_cli(*args, env=env)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert not marker.exists(), args


# -- the results cache and the umask ----------------------------------------------------------------


def _entry_point():
    exe = Path(sys.executable).with_name("dl-lint")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]


@pytest.mark.parametrize("umask, dir_mode, file_mode", [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600), (0o002, 0o775, 0o664)])
def test_cache_is_created_with_the_users_umask(tmp_path, umask, dir_mode, file_mode):
    (tmp_path / "bad.py").write_text(BAD)
    result = subprocess.run(
        [*_entry_point(), "."], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: os.umask(umask),
    )
    assert result.returncode == 1, result.stderr
    cache = tmp_path / ".dl_lint_cache"
    assert stat.S_IMODE(cache.stat().st_mode) == dir_mode
    files = list(cache.iterdir())
    assert {p.name for p in files} >= {"CACHEDIR.TAG", ".gitignore"} and len(files) >= 3
    for path in cache.rglob("*"):  # results, and the folder of module summaries
        expected = dir_mode if path.is_dir() else file_mode
        assert stat.S_IMODE(path.stat().st_mode) == expected, path.name


# -- --fix stopped at any moment ------------------------------------------------------------------

# Two safe fixes (DL001, DL005): both options guarded on the num_workers variable.
FIXABLE = "from torch.utils.data import DataLoader\nnw = 0\nloader = DataLoader([1, 2], num_workers=nw, prefetch_factor=2, timeout=5)\n"


def _fix_tree(root: Path, count: int) -> None:
    root.mkdir(exist_ok=True)
    for i in range(count):
        (root / f"m{i:03}.py").write_text(f"# module {i}\n" + FIXABLE)


def _expected_fixed(tmp_path: Path) -> str:
    """What --fix makes of one file (DL001 and DL005 guarded), found by running it."""
    one = tmp_path / "one"
    _fix_tree(one, 1)
    subprocess.run([*_entry_point(), "--fix", "--no-cache", "."], cwd=one, capture_output=True, timeout=120)
    fixed = (one / "m000.py").read_text()
    assert "prefetch_factor=2 if nw > 0 else None" in fixed and "timeout=5 if nw > 0 else 0" in fixed
    return fixed.replace("# module 0\n", "", 1)


def _check_old_or_new(root: Path, count: int, new_body: str) -> tuple:
    old = new = 0
    for i in range(count):
        text = (root / f"m{i:03}.py").read_text()
        if text == f"# module {i}\n" + FIXABLE:
            old += 1
        elif text == f"# module {i}\n" + new_body:
            new += 1
        else:
            pytest.fail(f"m{i:03}.py is neither the old nor the fixed file:\n{text}")
    return old, new


def test_fix_stopped_at_any_moment_leaves_every_file_old_or_new(tmp_path):
    """Run `dl-lint --fix` over 40 files and stop it at six moments spread over a normal run's
    duration, with SIGKILL, SIGINT and SIGTERM in turn: every file is byte for byte the old or
    the fixed one. SIGINT and SIGTERM are one line and exit 2 and leave no temporary file;
    SIGKILL may leave a hidden `.name.*.dl-lint-tmp` beside a file, never a partial file under
    its name."""
    count = 40
    new_body = _expected_fixed(tmp_path)
    root = tmp_path / "tree"
    # A normal run's duration: the shorter of two (the first also writes bytecode caches, so
    # later runs are faster, and signals timed by it landed after they ended).
    durations = []
    for _ in range(2):
        shutil.rmtree(root, ignore_errors=True)
        _fix_tree(root, count)
        started = time.monotonic()
        full = subprocess.run([*_entry_point(), "--fix", "--no-cache", "."], cwd=root, capture_output=True, timeout=300)
        durations.append(time.monotonic() - started)
        assert full.returncode == 0, full.stderr
        assert _check_old_or_new(root, count, new_body) == (0, count)
    duration = min(durations)

    stopped = []
    moments = [(signal.SIGKILL, 0.3), (signal.SIGINT, 0.45), (signal.SIGTERM, 0.6), (signal.SIGKILL, 0.75), (signal.SIGINT, 0.85), (signal.SIGTERM, 0.95)]
    for sig, fraction in moments:
        # a run that ended before its signal (a machine busy while the duration was measured,
        # quiet now) is run again with the signal sooner: each moment is tried up to 3 times
        for attempt in range(3):
            shutil.rmtree(root)
            _fix_tree(root, count)
            proc = subprocess.Popen(
                [*_entry_point(), "--fix", "--no-cache", "."], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            time.sleep(duration * fraction * 0.5**attempt)
            landed = proc.poll() is None
            if landed:
                proc.send_signal(sig)
                stopped.append(sig)
            _out, err = proc.communicate(timeout=120)
            old, new = _check_old_or_new(root, count, new_body)
            if sig != signal.SIGKILL:
                if proc.returncode != 0:
                    assert proc.returncode == 2 and err.decode().strip() == "dl-lint: error: interrupted", err
                assert not [p.name for p in root.iterdir() if p.name.endswith(".dl-lint-tmp")]
            if landed:
                break
    assert len(stopped) >= 3  # the signals did land mid-run


@pytest.mark.parametrize("step", ["write", "fsync", "chmod", "replace"])
def test_fix_failing_at_each_step_of_the_write_keeps_the_old_file(tmp_path, monkeypatch, step):
    """A failure (a full disk, an interrupt) at each step of writing the fixed file: the file
    keeps its old bytes and no temporary file is left."""
    import errno

    from dl_lint import fix_runner

    target = tmp_path / "train.py"
    target.write_text(FIXABLE)

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if step == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, handle):
                self.handle = handle

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

            def write(self, data):
                self.handle.write(data[: len(data) // 2])  # half of it reaches the disk
                raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(fix_runner.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(fix_runner.os, step, fail)
    with pytest.raises(OSError):
        fix_runner.fix_file(target, "train.py", None, unsafe=False, write=True, project_root=tmp_path)
    monkeypatch.undo()
    assert target.read_text() == FIXABLE
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]


def test_an_interrupt_taken_by_another_thread_waits_until_the_file_is_replaced(tmp_path, monkeypatch):
    """SIGINT sent to the process while the fixed file is written, taken by a thread that does
    not block it (a native library's): the write still completes, then the run is interrupted,
    and no temporary file is left (the main thread's signal mask alone let the Python handler
    raise inside the write)."""
    import threading

    from dl_lint import fix_runner

    target = tmp_path / "train.py"
    target.write_text(FIXABLE)
    start, sent = threading.Event(), threading.Event()

    def sender() -> None:  # started before the write: its signal mask blocks nothing
        start.wait(10)
        # sent to this thread, which takes it before pthread_kill returns (a signal sent to the
        # process could reach a thread only after the write, under load: a late KeyboardInterrupt
        # that escaped the test in CI once)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        sent.set()

    thread = threading.Thread(target=sender, daemon=True)
    thread.start()
    real_fsync = os.fsync

    def fsync(fd):
        start.set()
        assert sent.wait(10)
        for _ in range(1000):  # bytecode boundaries: where a Python handler would run
            pass
        return real_fsync(fd)

    monkeypatch.setattr(fix_runner.os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        fix_runner.fix_file(target, "train.py", None, unsafe=False, write=True, project_root=tmp_path)
    monkeypatch.undo()
    thread.join(10)
    assert target.read_text() != FIXABLE  # replaced: the interrupt waited for it
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]


def test_fix_does_not_overwrite_a_file_changed_while_it_was_being_fixed(tmp_path, monkeypatch):
    from dl_lint import fix_runner

    target = tmp_path / "train.py"
    target.write_text(FIXABLE)
    real = fix_runner.fix_source

    def fix_source_then_edit(*args, **kwargs):
        result = real(*args, **kwargs)
        target.write_text(FIXABLE + "# edited meanwhile in an editor\n")
        return result

    monkeypatch.setattr(fix_runner, "fix_source", fix_source_then_edit)
    with pytest.raises(fix_runner.FixError, match="changed on disk while being fixed"):
        fix_runner.fix_file(target, "train.py", None, unsafe=False, write=True, project_root=tmp_path)
    assert target.read_text() == FIXABLE + "# edited meanwhile in an editor\n"
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]


def test_an_interrupt_outside_the_lint_is_one_line_and_exit_2(monkeypatch, capsys):
    """Ctrl-C or SIGTERM that reaches the console script outside ``run``'s own handler (while
    the report is printed, once every fix is written): "dl-lint: error: interrupted" and 2, as
    inside, not click's "Aborted!" and 1 (a SIGINT timed late in a --fix run got that)."""
    from dl_lint import check, entry

    def interrupted(**_options):
        raise KeyboardInterrupt

    monkeypatch.setattr(check, "run", interrupted)
    with pytest.raises(SystemExit) as stopped:
        entry._check({"paths": (".",)})
    assert stopped.value.code == 2
    assert capsys.readouterr().err == "dl-lint: error: interrupted\n"
