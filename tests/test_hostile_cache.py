"""Hostile repositories (issue 28, section 5): the results cache, .gitignore, --config, paths on
the command line and --fix's temporary files, attacked as a pull request would attack them.

Every case runs the real console script in a subprocess with a timeout, on real FIFOs, real
symbolic links to /dev/zero and real git repositories; a case that needs a FIFO or a link is
skipped only where the platform has none. (Output escaping is tested in tests/test_hostile.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import GIT_IDENTITY
from dl_lint import cache

LOADER = "from torch.utils.data import DataLoader\n"
# DL002: persistent_workers=True with the default num_workers=0 raises ValueError.
PERSISTENT = LOADER + "loader = DataLoader([1, 2], persistent_workers=True)\n"
TIMEOUT = 60  # seconds: every case must end well within this (a hang fails, never blocks CI)

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this platform")


def _can_symlink() -> bool:
    probe = Path(os.environ.get("TMPDIR", "/tmp")) / f"dl-lint-link-probe-{os.getpid()}"
    try:
        probe.symlink_to(".")
    except (OSError, NotImplementedError):
        return False
    probe.unlink()
    return True


needs_symlinks = pytest.mark.skipif(not _can_symlink(), reason="no symbolic links on this platform")


def dl_lint(*args, cwd, home=None, env=None, timeout=TIMEOUT):
    """The installed console script, as a user (or CI) runs it. ``home``: a fresh user (HOME
    there, no XDG_CACHE_HOME), else the test session's key folder (conftest)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT")}
    full["NO_COLOR"] = "1"
    if home is not None:
        full["HOME"] = str(home)
        full.pop("XDG_CACHE_HOME", None)
    full.update(env or {})
    exe = Path(sys.executable).with_name("dl-lint")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]
    started = time.monotonic()
    result = subprocess.run(
        command + [str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=full, timeout=timeout
    )
    result.seconds = time.monotonic() - started
    return result


def git(*args, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_IDENTITY)
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=60)


def one_warning(stderr: str, *needles: str) -> str:
    """The one ``dl-lint: warning:`` line of ``stderr``, which must hold every needle."""
    lines = [line for line in stderr.splitlines() if line.startswith("dl-lint: warning:")]
    assert len(lines) == 1, stderr
    assert all(n in lines[0] for n in needles), stderr
    assert "Traceback" not in stderr
    return lines[0]


def _project(root: Path, files=None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in (files or {"train.py": PERSISTENT}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _results_file(cache_dir: Path) -> Path:
    (found,) = cache_dir.glob("results-*.json")
    return found


# -- a cache committed to the repository --------------------------------------------------------


def test_a_committed_forged_cache_does_not_hide_a_finding(tmp_path):
    """The attack of issue 28: run dl-lint, edit the cache to drop a DL002, commit the cache.
    The forger's own key makes the forgery valid for the forger (shown first: the test can
    fail); a user with a key of their own, at the same path (CI checks out at a fixed path),
    still gets the finding, and the forged file is replaced with one sealed by the user."""
    repo = _project(tmp_path / "repo")
    git("init", "-q", cwd=repo)
    attacker, user = tmp_path / "attacker-home", tmp_path / "user-home"
    attacker.mkdir()
    user.mkdir()
    first = dl_lint(".", cwd=repo, home=attacker)
    assert first.returncode == 1 and "DL002" in first.stdout, first.stdout + first.stderr

    store = _results_file(repo / ".dl_lint_cache")
    attacker_key = (attacker / ".cache" / "dl-lint" / "key").read_bytes()
    data = json.loads(cache.unseal(store.read_bytes(), attacker_key))
    [entry] = [e for key, e in data["entries"].items() if key.endswith("train.py")]
    assert [d["c"] for d in entry["d"]] == ["DL002"]
    entry["d"] = []  # the forgery: no finding
    store.write_bytes(cache.seal(json.dumps(data).encode(), attacker_key))
    git("add", "-A", cwd=repo)
    git("add", "-f", ".dl_lint_cache", cwd=repo)  # past the folder's own .gitignore
    git("commit", "-q", "-m", "a pull request", cwd=repo)
    assert any(".dl_lint_cache/results-" in line for line in git("ls-files", cwd=repo).stdout.splitlines())

    forged = dl_lint(".", cwd=repo, home=attacker)
    assert forged.returncode == 0 and "All checks passed!" in forged.stdout, forged.stdout  # valid for them

    honest = dl_lint(".", cwd=repo, home=user)
    assert honest.returncode == 1, honest.stdout + honest.stderr
    assert "train.py:2:" in honest.stdout and "DL002" in honest.stdout
    assert honest.stderr == ""  # a foreign entry is a miss, not an event
    user_key = (user / ".cache" / "dl-lint" / "key").read_bytes()
    assert cache.unseal(store.read_bytes(), user_key) is not None  # overwritten with the user's seal
    assert cache.unseal(store.read_bytes(), attacker_key) is None
    again = dl_lint(".", cwd=repo, home=user)
    assert again.returncode == 1 and again.stdout == honest.stdout


def test_a_forged_module_summary_is_not_believed(tmp_path):
    """Summaries are cache files too: one that says an imported constant is 2 would hide the
    DL002 of ``num_workers=WORKERS``; only the user's own seal makes them believed."""
    repo = _project(
        tmp_path / "repo",
        {
            "consts.py": "WORKERS = 0\n",
            "train.py": LOADER + "from consts import WORKERS\nloader = DataLoader([1], num_workers=WORKERS, persistent_workers=True)\n",
        },
    )
    attacker, user = tmp_path / "attacker", tmp_path / "user"
    attacker.mkdir()
    user.mkdir()
    assert "DL002" in dl_lint(".", cwd=repo, home=attacker).stdout
    attacker_key = (attacker / ".cache" / "dl-lint" / "key").read_bytes()
    forged_any = False
    for path in (repo / ".dl_lint_cache").glob("summaries-*/*.json"):
        text = cache.unseal(path.read_bytes(), attacker_key).decode()
        if "WORKERS" in text and "consts" in text:
            path.write_bytes(cache.seal(text.replace('"0"', '"2"').encode(), attacker_key))
            forged_any = True
    assert forged_any
    _results_file(repo / ".dl_lint_cache").unlink()  # every result must be made again
    (repo / "train.py").write_text((repo / "train.py").read_text() + "# edited\n")
    result = dl_lint(".", cwd=repo, home=user)
    assert result.returncode == 1 and "DL002" in result.stdout, result.stdout + result.stderr


def test_the_key_is_private_and_made_once_by_concurrent_first_runs(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    probe = (
        "import sys; from dl_lint.cache import user_key; key, why = user_key(); "
        "sys.stdout.write(key.hex() if key else 'NONE ' + str(why))"
    )
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["HOME"] = str(home)
    procs = [
        subprocess.Popen([sys.executable, "-c", probe], env=env, stdout=subprocess.PIPE, text=True) for _ in range(8)
    ]
    keys = {proc.communicate(timeout=TIMEOUT)[0] for proc in procs}
    assert len(keys) == 1 and len(next(iter(keys))) == 64, keys  # one key, 32 bytes, for all
    key_file = home / ".cache" / "dl-lint" / "key"
    assert key_file.read_bytes().hex() == next(iter(keys))
    if os.name != "nt":
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert (key_file.parent.stat().st_mode & 0o077) == 0
    assert [p.name for p in key_file.parent.iterdir()] == ["key"]  # no temporary file left


@pytest.mark.skipif(os.name == "nt", reason="file modes are POSIX")
def test_a_key_open_to_others_is_refused_with_one_warning(tmp_path):
    """A key others can read could have been read (a committed one is 0644: git stores no
    0600): not used; one warning line saying what to do; the run goes on without the cache."""
    home = tmp_path / "home"
    repo = _project(tmp_path / "repo")
    key_file = home / ".cache" / "dl-lint" / "key"
    key_file.parent.mkdir(parents=True)
    key_file.write_bytes(b"k" * 32)
    key_file.chmod(0o644)
    result = dl_lint(".", cwd=repo, home=home)
    assert result.returncode == 1 and "DL002" in result.stdout
    one_warning(result.stderr, "results cache not used", "mode 0644", "remove it")
    assert not (repo / ".dl_lint_cache").exists()
    quiet = dl_lint("--quiet", ".", cwd=repo, home=home)
    assert quiet.stderr == "" and quiet.returncode == 1


def test_an_unwritable_home_means_no_cache_and_one_warning(tmp_path):
    """HOME where no folder can be made (under a regular file: root cannot either): no key, so
    no cache, one warning line, never a crash; --no-cache neither needs nor mentions a key."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    repo = _project(tmp_path / "repo")
    result = dl_lint(".", cwd=repo, home=blocker / "home")
    assert result.returncode == 1 and "DL002" in result.stdout
    one_warning(result.stderr, "results cache not used: cannot create its key", "XDG_CACHE_HOME", "--no-cache")
    assert not (repo / ".dl_lint_cache").exists()
    assert dl_lint("--no-cache", ".", cwd=repo, home=blocker / "home").stderr == ""
    # XDG_CACHE_HOME, when set, is where the key goes instead
    xdg = tmp_path / "xdg"
    ok = dl_lint(".", cwd=repo, home=blocker / "home", env={"XDG_CACHE_HOME": str(xdg)})
    assert ok.stderr == "" and (xdg / "dl-lint" / "key").is_file()


# -- the cache folder as a symbolic link -----------------------------------------------------


@needs_symlinks
def test_a_cache_folder_that_is_a_symlink_is_refused(tmp_path):
    outside = tmp_path / "victim"
    outside.mkdir()
    repo = _project(tmp_path / "repo")
    (repo / ".dl_lint_cache").symlink_to(outside, target_is_directory=True)
    result = dl_lint(".", cwd=repo)
    assert result.returncode == 1 and "DL002" in result.stdout
    one_warning(result.stderr, "results cache not used", ".dl_lint_cache is a symbolic link")
    assert list(outside.iterdir()) == []  # nothing written outside the project


@needs_symlinks
def test_a_link_on_the_way_to_the_cache_folder_inside_the_project_is_refused(tmp_path):
    """``--cache-dir build/cache`` (a pre-commit config may pass it) with ``build`` a committed
    link, or a ``..`` after a link: the system resolves the link first, and so does dl-lint."""
    outside = tmp_path / "victim"
    (outside / "sub").mkdir(parents=True)
    repo = _project(tmp_path / "repo")
    (repo / "build").symlink_to(outside, target_is_directory=True)
    for cache_dir in ("build/cache", "build/sub/../cache"):
        result = dl_lint("--cache-dir", cache_dir, ".", cwd=repo)
        assert result.returncode == 1 and "DL002" in result.stdout
        one_warning(result.stderr, "results cache not used", "build is a symbolic link")
    assert sorted(p.name for p in outside.iterdir()) == ["sub"]


@needs_symlinks
def test_links_above_the_project_are_the_users_own(tmp_path):
    """A project reached through a link (a home folder that is one) keeps its cache."""
    real = tmp_path / "real"
    repo = _project(real / "repo")
    (tmp_path / "via").symlink_to(real, target_is_directory=True)
    result = dl_lint(".", cwd=tmp_path / "via" / "repo")
    assert result.returncode == 1 and result.stderr == ""
    assert _results_file(repo / ".dl_lint_cache").is_file()


@needs_symlinks
def test_planted_links_inside_the_cache_folder_are_not_followed(tmp_path):
    """The results file and the summaries folder as links out of the cache: reading a link is a
    miss (never followed), and writing replaces the link, never what it points to."""
    outside = tmp_path / "victim"
    outside.mkdir()
    (outside / "secret.json").write_text('{"not": "yours"}')
    repo = _project(tmp_path / "repo", {"consts.py": "W = 0\n", "train.py": LOADER + "from consts import W\n" + "DataLoader([1], num_workers=W, persistent_workers=True)\n"})
    assert dl_lint(".", cwd=repo).returncode == 1
    cache_dir = repo / ".dl_lint_cache"
    store = _results_file(cache_dir)
    (summaries,) = cache_dir.glob("summaries-*")
    store.unlink()
    store.symlink_to(outside / "secret.json")
    import shutil

    shutil.rmtree(summaries)
    summaries.symlink_to(outside, target_is_directory=True)
    (repo / "train.py").write_text((repo / "train.py").read_text() + "# edited\n")
    result = dl_lint(".", cwd=repo)
    assert result.returncode == 1 and "DL002" in result.stdout and result.stderr == ""
    assert sorted(p.name for p in outside.iterdir()) == ["secret.json"]
    assert (outside / "secret.json").read_text() == '{"not": "yours"}'
    assert not store.is_symlink() and not summaries.is_symlink()


# -- cache files that are FIFOs, devices, or too large ------------------------------------------


def _cache_files(repo: Path):
    cache_dir = repo / ".dl_lint_cache"
    return [_results_file(cache_dir), *cache_dir.glob("summaries-*/*.json")]


def _warm_project(tmp_path: Path) -> Path:
    repo = _project(
        tmp_path / "repo",
        {"consts.py": "W = 0\n", "train.py": LOADER + "from consts import W\nDataLoader([1], num_workers=W, persistent_workers=True)\n"},
    )
    first = dl_lint(".", cwd=repo)
    assert first.returncode == 1 and "DL002" in first.stdout
    assert len(_cache_files(repo)) >= 2  # the results and at least one summary
    return repo


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param("fifo", marks=needs_fifo),
        pytest.param("dev-zero", marks=[needs_symlinks, needs_dev_zero]),
        "huge",
    ],
)
def test_cache_files_that_never_end_are_a_miss(tmp_path, kind):
    """Each cache file replaced by a FIFO (no writer: reading would wait forever), a link to
    /dev/zero (reading would never end) or a sparse file of 300 MiB (over the bound): the run
    ends at once, reports what a cold run reports, and says nothing about it."""
    repo = _warm_project(tmp_path)
    (repo / "train.py").write_text((repo / "train.py").read_text() + "# edited\n")  # summaries read
    for path in _cache_files(repo):
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev-zero":
            path.symlink_to("/dev/zero")
        else:
            with open(path, "wb") as handle:
                handle.truncate(300 * 1024 * 1024)
    result = dl_lint(".", cwd=repo, timeout=30)
    assert result.returncode == 1 and "DL002" in result.stdout, result.stdout + result.stderr
    assert result.stderr == "" and result.seconds < 20
    if kind != "huge":  # each special file was replaced by a sealed regular one
        assert all(p.is_file() and not p.is_symlink() for p in _cache_files(repo))


def test_the_size_bound_is_checked_before_reading(tmp_path):
    path = tmp_path / "results.json"
    path.write_bytes(b"x" * 1000)
    assert cache.read_cache_file(str(path), limit=1000) == b"x" * 1000
    assert cache.read_cache_file(str(path), limit=999) is None
    with open(path, "wb") as handle:  # sparse: a read of it would take 300 MiB of memory
        handle.truncate(300 * 1024 * 1024)
    assert cache.read_cache_file(str(path)) is None


# -- .gitignore that git would wait on ----------------------------------------------------------


def _git_project(root: Path) -> Path:
    repo = _project(root, {"train.py": PERSISTENT, "excluded.py": PERSISTENT, "data/ignored.py": PERSISTENT})
    git("init", "-q", cwd=repo)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("excluded.py\ndata/\n")
    return repo


@needs_fifo
@pytest.mark.parametrize("where", [".gitignore", "pkg/.gitignore", "pkg/deep/.gitignore"])
def test_a_gitignore_that_is_a_fifo_is_not_waited_on(tmp_path, where):
    """git opens every .gitignore it meets with a blocking open: a FIFO stopped the run for
    git's 120 s. The one at the top is seen before git starts; one further down as soon as git
    waits on it. Either way: one warning naming it, the run goes on at once without git's
    ignore rules (so excluded.py is linted too)."""
    repo = _git_project(tmp_path / "repo")
    (repo / where).parent.mkdir(parents=True, exist_ok=True)
    (repo / "pkg" / "mod.py").parent.mkdir(exist_ok=True)
    (repo / "pkg" / "mod.py").write_text("x = 1\n")
    os.mkfifo(repo / where)
    result = dl_lint(".", cwd=repo, timeout=30)
    assert result.returncode == 1 and result.seconds < 15, (result.seconds, result.stderr)
    one_warning(result.stderr, f"{where}: a named pipe (FIFO) is not a regular file", "without git's ignore rules")
    assert "train.py:2:" in result.stdout and "excluded.py:2:" in result.stdout


@needs_fifo
def test_a_fifo_gitignore_git_never_reads_changes_nothing(tmp_path):
    """A FIFO .gitignore inside an ignored folder: git does not enter the folder, so it is not
    waited on, and the ignore rules hold (no warning)."""
    repo = _git_project(tmp_path / "repo")
    os.mkfifo(repo / "data" / ".gitignore")
    result = dl_lint(".", cwd=repo, timeout=30)
    assert result.returncode == 1 and result.stderr == "", result.stderr
    assert "train.py:2:" in result.stdout and "excluded.py" not in result.stdout and "ignored.py" not in result.stdout


@needs_fifo
def test_without_proc_a_waiting_git_is_found_by_searching(tmp_path, monkeypatch):
    """Where the wait channel of a process cannot be read (macOS, a kernel that hides it), a git
    still running after a second makes dl-lint look for such a .gitignore itself."""
    from dl_lint import discovery

    repo = _git_project(tmp_path / "repo")
    (repo / "pkg").mkdir()
    os.mkfifo(repo / "pkg" / ".gitignore")
    monkeypatch.setattr(discovery, "_blocked_on_a_fifo", lambda pid: None)
    monkeypatch.chdir(repo)
    started = time.monotonic()
    found = discovery.discover([repo])
    assert time.monotonic() - started < 15
    assert found.warnings == ((os.path.join("pkg", ".gitignore"), "a named pipe (FIFO) is not a regular file: not read; files are found without git's ignore rules"),)
    assert repo / "excluded.py" in found.files


# -- files named on the command line -------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, expected",
    [
        pytest.param("fifo", "dl-lint: error: cfg.toml: config file is a named pipe (FIFO), not a regular file: not read", marks=needs_fifo),
        pytest.param("dev-zero", "dl-lint: error: cfg.toml: config file is a character device, not a regular file: not read", marks=[needs_symlinks, needs_dev_zero]),
        pytest.param("loop", "dl-lint: error: cfg.toml: config file is a symbolic link loop", marks=needs_symlinks),
        ("folder", "dl-lint: error: cfg.toml: config file is a directory, not a regular file: not read"),
        ("missing", "dl-lint: error: cfg.toml: config file does not exist"),
    ],
)
@pytest.mark.parametrize("fast", [True, False], ids=["plain", "through-click"])
def test_config_that_is_not_a_regular_file(tmp_path, kind, expected, fast):
    """``--config`` naming a FIFO waited for a writer (then said "does not exist"); /dev/zero
    said "does not exist". Now: what it is, one line, exit 2, at once, never opened. The
    command line is read by dl-lint's fast path or by click (``check``): both say the same."""
    repo = _project(tmp_path / "repo")
    target = repo / "cfg.toml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "loop":
        target.symlink_to("cfg.toml")
    elif kind == "folder":
        target.mkdir()
    args = ("--config", "cfg.toml", ".") if fast else ("check", "--config", "cfg.toml", ".")
    result = dl_lint(*args, cwd=repo, timeout=30)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", expected + "\n")
    assert result.seconds < 15


@needs_symlinks
@pytest.mark.parametrize("fast", [True, False], ids=["plain", "through-click"])
def test_a_symlink_loop_on_the_command_line_is_named_so(tmp_path, fast):
    repo = _project(tmp_path / "repo")
    (repo / "a.py").symlink_to("b.py")
    (repo / "b.py").symlink_to("a.py")
    (repo / "dangling.py").symlink_to("missing.py")
    check = () if fast else ("check",)
    loop = dl_lint(*check, "a.py", cwd=repo)
    assert (loop.returncode, loop.stdout, loop.stderr) == (2, "", "dl-lint: error: symbolic link loop: a.py\n")
    dangling = dl_lint(*check, "dangling.py", cwd=repo)
    assert dangling.stderr == "dl-lint: error: path does not exist: dangling.py\n"


# -- temporary files a killed --fix left behind -------------------------------------------------

FIXABLE = LOADER + "loader = DataLoader([1, 2], prefetch_factor=2)\n"  # DL001, an unsafe fix since issue 27 §1


def _fix_run(repo: Path, *, kill_before_replace=False, stale_seconds=None):
    """``dl-lint --fix --no-cache .`` through the console script's own entry point, with a
    SIGKILL delivered between writing the temporary file and the replace (the one moment that
    leaves it behind), or with a shorter age for leftovers (a test cannot wait 10 minutes)."""
    lines = ["import os, signal, sys", "import dl_lint.fix_runner as fix_runner"]
    if kill_before_replace:
        lines.append("fix_runner._same_file_state = lambda a, b: os.kill(os.getpid(), signal.SIGKILL)")
    if stale_seconds is not None:
        lines.append(f"fix_runner.STALE_SECONDS = {stale_seconds}")
    lines += ["from dl_lint.entry import main", "sys.argv = ['dl-lint', '--fix', '--unsafe-fixes', '--no-cache', '.']", "main()"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT")}
    return subprocess.run(
        [sys.executable, "-c", "\n".join(lines)], cwd=repo, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )


def _temporaries(folder: Path):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".dl-lint-tmp"))


def test_a_killed_fix_leaves_a_temporary_file_that_a_later_fix_removes(tmp_path):
    repo = _project(tmp_path / "repo", {"train.py": FIXABLE})
    committed = repo / ".train.py.abcdefgh.dl-lint-tmp"  # a look-alike the project tracks
    committed.write_text("tracked\n")
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "start", cwd=repo)

    killed = _fix_run(repo, kill_before_replace=True)
    assert killed.returncode == -9, killed.stderr
    assert (repo / "train.py").read_text() == FIXABLE  # the file is old or new, never half
    [leftover] = [n for n in _temporaries(repo) if n != committed.name]
    assert "prefetch_factor" not in (repo / leftover).read_text()  # the fixed text, never moved in place

    young = _fix_run(repo)  # a moment later: it may be a concurrent run's, so it stays
    assert young.returncode == 0, young.stdout + young.stderr
    assert (repo / leftover).exists() and "prefetch_factor" not in (repo / "train.py").read_text()

    (repo / "train.py").write_text(FIXABLE)
    elsewhere = repo / "docs" / ".notes.py.abcdefgh.dl-lint-tmp"  # a folder --fix does not write to
    elsewhere.parent.mkdir()
    elsewhere.write_text("x")
    time.sleep(2.2)
    fresh = repo / ".train.py.zzzzzzzz.dl-lint-tmp"  # a concurrent run's, just made
    fresh.write_text("being written\n")
    later = _fix_run(repo, stale_seconds=2)
    assert later.returncode == 0, later.stdout + later.stderr
    assert _temporaries(repo) == sorted([committed.name, fresh.name])  # the leftover is gone
    assert committed.read_text() == "tracked\n" and elsewhere.exists()
    assert "prefetch_factor" not in (repo / "train.py").read_text()


@needs_symlinks
def test_show_settings_says_a_linked_cache_folder_is_not_used(tmp_path):
    outside = tmp_path / "victim"
    outside.mkdir()
    repo = _project(tmp_path / "repo")
    (repo / ".dl_lint_cache").symlink_to(outside, target_is_directory=True)
    shown = dl_lint("--show-settings", ".", cwd=repo)
    assert shown.returncode == 0
    [line] = [line for line in shown.stdout.splitlines() if line.startswith("Cache: ")]
    assert line.endswith("(not used: .dl_lint_cache is a symbolic link (the cache folder must not be one))"), line
