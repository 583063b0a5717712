"""The results cache (dl_lint.cache, dl_lint.pipeline) and worker processes: a warm run says
exactly what a cold one says; what a file's result was built from invalidates it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from dl_lint import cache, pipeline
from dl_lint.config import clear_caches
from dl_lint.engine import lint_paths

LOADER = "from torch.utils.data import DataLoader\n"


def _project(tmp_path: Path, files: dict) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def _lint(paths, **kwargs):
    kwargs.setdefault("cache", True)
    kwargs.setdefault("jobs", 1)
    return lint_paths([str(p) for p in paths], **kwargs)


def _codes(result):
    return [(d.filename, d.code, d.location.row) for d in result.diagnostics]


def _cache_file(cache_dir: Path) -> Path:
    (found,) = cache_dir.glob("results-*.json")
    return found


def _read_results(cache_dir: Path) -> dict:
    """The results file's JSON, its seal checked (it is made with this session's key)."""
    body = cache.unseal(_cache_file(cache_dir).read_bytes(), cache.user_key()[0])
    assert body is not None, "the results file should carry a valid seal"
    return json.loads(body)


def _write_results(cache_dir: Path, body: bytes) -> None:
    """Replace the results file with ``body``, sealed as dl-lint seals it (a genuine file whose
    contents are wrong, as a file from an older format would be)."""
    _cache_file(cache_dir).write_bytes(cache.seal(body, cache.user_key()[0]))


def _fixtures_copy(tmp_path: Path, monkeypatch) -> None:
    """The fixtures as a project of their own (the repository around them changes under us)."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    monkeypatch.chdir(tmp_path)


def test_warm_run_reports_what_the_cold_run_reports(tmp_path, monkeypatch):
    _fixtures_copy(tmp_path, monkeypatch)
    cache_dir = tmp_path / "cache"
    cold = lint_paths(["fixtures"], jobs=1)
    first = _lint(["fixtures"], cache_dir=cache_dir)
    warm = _lint(["fixtures"], cache_dir=cache_dir)
    assert cold.diagnostics, "the fixtures should report something"
    assert first.diagnostics == cold.diagnostics
    assert warm.diagnostics == cold.diagnostics
    assert warm.files_parsed == 0
    assert [d.noqa_rows for d in warm.diagnostics] == [d.noqa_rows for d in cold.diagnostics]


def test_cli_warm_output_is_identical(tmp_path, run_cli):
    _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    cold = run_cli("--no-cache", "--output-format", "json", ".")
    first = run_cli("--output-format", "json", ".")
    warm = run_cli("--output-format", "json", ".")
    assert cold.returncode == first.returncode == warm.returncode == 1
    assert cold.stdout == first.stdout == warm.stdout
    assert json.loads(warm.stdout)[0]["code"] == "DL001"


def test_cache_dir_is_marked_and_ignored_by_git(tmp_path, run_cli):
    _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], num_workers=2)\n"})
    assert run_cli(".").returncode == 0
    cache_dir = tmp_path / ".dl_lint_cache"
    assert (cache_dir / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert "*" in (cache_dir / ".gitignore").read_text().splitlines()
    assert _cache_file(cache_dir).is_file()
    assert not list(cache_dir.glob("*.tmp"))


def test_no_cache_writes_nothing(tmp_path, run_cli):
    _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    assert run_cli("--no-cache", ".").returncode == 1
    assert not (tmp_path / ".dl_lint_cache").exists()


def test_cache_dir_option_and_environment(tmp_path, run_cli):
    _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    assert run_cli("--cache-dir", "elsewhere", ".").returncode == 1
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").is_file()
    assert run_cli(".", env={"DL_LINT_CACHE_DIR": str(tmp_path / "from-env")}).returncode == 1
    assert (tmp_path / "from-env" / "CACHEDIR.TAG").is_file()
    assert not (tmp_path / ".dl_lint_cache").exists()


def test_editing_an_imported_constant_invalidates_the_importer(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {
            "settings.py": "WORKERS = 0\n",
            "train.py": LOADER + "from settings import WORKERS\nloader = DataLoader([1], num_workers=WORKERS, prefetch_factor=2)\n",
        },
    )
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    assert [c for _, c, _ in _codes(_lint(["train.py"], cache_dir=cache_dir))] == ["DL001"]
    warm = _lint(["train.py"], cache_dir=cache_dir)
    assert warm.files_parsed == 0 and [c for _, c, _ in _codes(warm)] == ["DL001"]
    (root / "settings.py").write_text("WORKERS = 4\n")
    edited = _lint(["train.py"], cache_dir=cache_dir)
    assert edited.files_parsed == 1
    assert _codes(edited) == []
    assert _codes(edited) == _codes(lint_paths(["train.py"], jobs=1))


def test_editing_a_module_two_imports_away_invalidates(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {
            "base.py": "N = 0\n",
            "cfg.py": "from base import N\nWORKERS = N\n",
            "train.py": LOADER + "from cfg import WORKERS\nloader = DataLoader([1], num_workers=WORKERS, prefetch_factor=2)\n",
            "other.py": LOADER + "from cfg import WORKERS\nloader2 = DataLoader([1], num_workers=WORKERS, prefetch_factor=3)\n",
        },
    )
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=cache_dir))] == ["DL001", "DL001"]
    assert _lint(["."], cache_dir=cache_dir).files_parsed == 0
    (root / "base.py").write_text("N = 1\n")
    edited = _lint(["."], cache_dir=cache_dir)
    assert _codes(edited) == _codes(lint_paths(["."], jobs=1)) == []


def test_adding_a_module_invalidates_files_that_looked_for_it(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {"train.py": LOADER + "from settings import WORKERS\nloader = DataLoader([1], num_workers=WORKERS, prefetch_factor=2)\n"},
    )
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    assert _codes(_lint(["train.py"], cache_dir=cache_dir)) == []  # WORKERS unknown: silent
    (root / "settings.py").write_text("WORKERS = 0\n")
    assert [c for _, c, _ in _codes(_lint(["train.py"], cache_dir=cache_dir))] == ["DL001"]


def test_a_settings_change_invalidates(tmp_path, monkeypatch):
    root = _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], num_workers=16, prefetch_factor=8)\n"})
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=cache_dir))] == ["DL101"]  # 128 > 64, the default
    with (root / "pyproject.toml").open("a") as handle:
        handle.write("[tool.dl-lint]\nmax-inflight-batches = 128\n")
    clear_caches()  # config lookups are memoized per process; the CLI starts a new one
    assert _codes(_lint(["."], cache_dir=cache_dir)) == []
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=cache_dir, overrides={"ignore": ("DL999",)}))] == []
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=cache_dir, overrides={"max_inflight_batches": 16}))] == ["DL101"]


def test_editing_the_linted_file_itself(tmp_path, monkeypatch):
    root = _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=cache_dir))] == ["DL001"]
    (root / "train.py").write_text(LOADER + "loader = DataLoader([1], prefetch_factor=2, num_workers=1)\n")
    assert _codes(_lint(["."], cache_dir=cache_dir)) == []


@pytest.mark.parametrize("garbage", [b"\x00not json", b"[1, 2]", b'{"format": 1}', None])
def test_a_corrupt_cache_is_ignored(tmp_path, monkeypatch, garbage):
    root = _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    expected = _codes(_lint(["."], cache_dir=cache_dir))
    if garbage is None:  # valid JSON, every entry malformed
        data = _read_results(cache_dir)
        data["entries"] = {key: {"h": 1, "d": "x"} for key in data["entries"]}
        data["stats"] = {key: "nonsense" for key in data["stats"]}
        garbage = json.dumps(data).encode()
    _write_results(cache_dir, garbage)
    assert _codes(_lint(["."], cache_dir=cache_dir)) == expected
    assert _codes(_lint(["."], cache_dir=cache_dir)) == expected
    _cache_file(cache_dir).write_bytes(garbage)  # and without a seal
    assert _codes(_lint(["."], cache_dir=cache_dir)) == expected


def test_an_unwritable_cache_dir_does_not_fail_the_run(tmp_path, monkeypatch):
    root = _project(tmp_path, {"train.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n"})
    monkeypatch.chdir(root)
    (root / "not-a-dir").write_text("a file where the cache folder would go")
    assert [c for _, c, _ in _codes(_lint(["."], cache_dir=root / "not-a-dir"))] == ["DL001"]


def test_call_sites_are_cached_and_invalidated(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {
            "loaders.py": LOADER + "def make(ds, workers=0):\n    return DataLoader(ds, num_workers=workers, prefetch_factor=2)\n",
            "train.py": "from loaders import make\nloader = make([1])\n",
        },
    )
    monkeypatch.chdir(root)
    cache_dir = root / "cache"
    cold = _codes(lint_paths(["."], jobs=1))
    assert ("train.py", "DL001", 2) in cold
    assert _codes(_lint(["."], cache_dir=cache_dir)) == cold
    warm = _lint(["."], cache_dir=cache_dir)
    assert _codes(warm) == cold and warm.files_parsed == 0
    (root / "train.py").write_text("from loaders import make\nloader = make([1], workers=2)\n")
    assert _codes(_lint(["."], cache_dir=cache_dir)) == _codes(lint_paths(["."], jobs=1))
    assert ("train.py", "DL001", 2) not in _codes(_lint(["."], cache_dir=cache_dir))


def test_workers_report_what_one_process_reports(tmp_path, monkeypatch):
    _fixtures_copy(tmp_path, monkeypatch)
    serial = lint_paths(["fixtures"], jobs=1)
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    parallel = lint_paths(["fixtures"], jobs=2)
    assert (serial.processes, parallel.processes) == (1, 2)
    assert parallel.diagnostics == serial.diagnostics
    assert parallel.files_parsed == serial.files_parsed


def test_a_worker_that_dies_has_its_share_redone(tmp_path, monkeypatch):
    """A worker that exits without answering, in round 1 or 2 or while judging the call sites
    of its share: this process redoes that work, and the report is the one process's."""
    import os
    import time

    from dl_lint import workers

    monkeypatch.chdir(tmp_path)
    (tmp_path / "loaders.py").write_text(
        "from torch.utils.data import DataLoader\n\n\n"
        "def make(ds, workers=2):\n    return DataLoader(ds, num_workers=workers, prefetch_factor=2)\n"
    )
    for n in range(4):  # callers that are candidates too, so that each process holds some
        (tmp_path / f"train{n}.py").write_text(
            "from torch.utils.data import DataLoader\nfrom loaders import make\n\n"
            f"DataLoader([1], batch_size={n + 1}, prefetch_factor=2)\nloader = make([1], workers=0)\n" + "# padding\n" * n * 20
        )
    serial = lint_paths(["."], jobs=1)
    at_calls = {d.filename for d in serial.diagnostics if d.code == "DL001" and d.location.row == 5}
    assert at_calls == {f"train{n}.py" for n in range(4)}
    own = {d.filename for d in serial.diagnostics if d.code == "DL001" and d.location.row == 4}
    assert own == at_calls  # each file's own finding: lost if its analysis were
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    # Shares fixed in advance, so that the worker surely holds callers (from the queue, this
    # process may take every file before the worker starts).
    monkeypatch.setattr(workers._Queue, "create", classmethod(lambda cls, order: None))
    died = tmp_path.parent / f"{tmp_path.name}-died"

    def die(*_args, **_kwargs):
        died.write_text("judging call sites")
        os._exit(3)

    monkeypatch.setattr(workers, "judge_share", die)
    parallel = lint_paths(["."], jobs=2)
    assert died.read_text() == "judging call sites"  # the worker had call sites to judge
    assert parallel.processes == 2 and parallel.diagnostics == serial.diagnostics

    parent = os.getpid()
    analyse_and_judge = pipeline.analyse_and_judge

    def die_in_the_worker(project, run, files):
        if os.getpid() != parent:
            died.write_text("round 2")
            os._exit(3)
        return analyse_and_judge(project, run, files)

    monkeypatch.setattr(pipeline, "analyse_and_judge", die_in_the_worker)
    parallel = lint_paths(["."], jobs=2)
    assert died.read_text() == "round 2"
    assert parallel.processes == 2 and parallel.diagnostics == serial.diagnostics

    # From the queue: a worker that dies in round 1 after taking a file; that file is done here.
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    summarise = workers._summarise

    died.unlink()

    def die_after_taking_one(project, run, files):
        if os.getpid() != parent:
            next(iter(files), None)
            died.write_text("round 1")
            os._exit(3)
        for _ in range(1000):  # this process waits until the worker has taken its file
            if died.exists():
                break
            time.sleep(0.01)
        return summarise(project, run, files)

    monkeypatch.setattr(workers, "_summarise", die_after_taking_one)
    parallel = lint_paths(["."], jobs=2)
    assert died.read_text() == "round 1"
    assert parallel.processes == 2 and parallel.diagnostics == serial.diagnostics


def test_workers_fill_the_cache_like_one_process(tmp_path, monkeypatch):
    _fixtures_copy(tmp_path, monkeypatch)
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    cache_dir = tmp_path / "cache"
    cold = lint_paths(["fixtures"], jobs=1)
    filled = _lint(["fixtures"], cache_dir=cache_dir, jobs=2)
    assert filled.processes == 2 and filled.diagnostics == cold.diagnostics
    warm = _lint(["fixtures"], cache_dir=cache_dir, jobs=2)
    assert warm.diagnostics == cold.diagnostics and warm.files_parsed == 0


# -- imports: the fast paths do not load libcst ------------------------------------------------

_PROBE = """
import sys
from dl_lint.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print("LIBCST" if "libcst" in sys.modules else "NO-LIBCST")
"""


@pytest.mark.parametrize("args", [["--version"], ["rule", "DL001"], ["rules"]])
def test_fast_paths_do_not_import_libcst(args):
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "NO-LIBCST"


def test_checking_files_without_loaders_does_not_import_libcst(tmp_path):
    (tmp_path / "a.py").write_text("import os\nprint(os.getcwd())\n")
    (tmp_path / "b.py").write_text("# DataLoader is mentioned, never called\nfrom torch.utils.data import DataLoader\n")
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, "--no-cache", "."], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "NO-LIBCST"
    assert not (tmp_path / ".dl_lint_cache").exists()
    assert os.listdir(tmp_path) == sorted(["a.py", "b.py"]) or set(os.listdir(tmp_path)) == {"a.py", "b.py"}


def test_checking_loaders_does_not_import_libcst(tmp_path):
    """The analysis reads the standard library's ast; libcst is the tool for rewriting source
    and is imported only when a fix is applied (--fix, --diff)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "data.py").write_text("from torch.utils.data import Dataset\nclass D(Dataset):\n    pass\n")
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom data import D\n"
        "loader = DataLoader(D(), prefetch_factor=2)\nfor batch in loader:\n    pass\n"
    )
    # DL001's fix here (removing prefetch_factor, num_workers not given) is unsafe: --unsafe-fixes
    for args, expected in ((["--no-cache", "."], "NO-LIBCST"), (["--no-cache", "--diff", "--unsafe-fixes", "."], "LIBCST")):
        proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert "DL001" in proc.stdout or "prefetch_factor" in proc.stdout, proc.stdout + proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == expected, (args, proc.stdout)


# -- folder listings ------------------------------------------------------------------------------

BAD = LOADER + "loader = DataLoader([1, 2], prefetch_factor=2)\n"


def _age(root: Path, seconds: float = 60) -> None:
    """Move every folder's mtime into the past, as in a checkout nobody is editing: listings
    younger than the clock's granularity are not trusted, so fresh folders would be re-read."""
    past = os.stat(root).st_mtime - seconds
    for folder, _dirs, _files in os.walk(root):
        os.utime(folder, (past, past))


def _scandirs(monkeypatch) -> list:
    calls = []
    real = os.scandir

    def counting(path="."):
        calls.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    return calls


def test_unchanged_folders_are_not_read_again(tmp_path, monkeypatch):
    root = _project(tmp_path / "p", {"a/bad.py": BAD, "a/b/ok.py": "x = 1\n", "c/bad.py": BAD})
    monkeypatch.chdir(root)
    _age(root)
    first = _lint(["."], cache_dir=tmp_path / "cache")
    calls = _scandirs(monkeypatch)
    warm = _lint(["."], cache_dir=tmp_path / "cache")
    assert _codes(warm) == _codes(first) and len(first.diagnostics) == 2
    assert [c for c in calls if not os.path.abspath(c).startswith(str(Path(pipeline.__file__).parent))] == []
    # every folder of the project came from the cache (dl-lint's own package is walked for its
    # build fingerprint)


@pytest.mark.parametrize(
    "change",
    ["add a file", "remove a file", "rename a file", "add a folder", "replace a file by a folder", "a symlink"],
)
def test_a_changed_folder_is_read_again(tmp_path, monkeypatch, change):
    root = _project(tmp_path / "p", {"a/bad.py": BAD, "a/b/ok.py": "x = 1\n"})
    monkeypatch.chdir(root)
    _age(root)
    _lint(["."], cache_dir=tmp_path / "cache")
    expected = {"add a file": ["a/bad.py", "a/new.py"], "remove a file": [], "rename a file": ["a/renamed.py"]}
    if change == "add a file":
        (root / "a" / "new.py").write_text(BAD)
    elif change == "remove a file":
        (root / "a" / "bad.py").unlink()
    elif change == "rename a file":
        (root / "a" / "bad.py").rename(root / "a" / "renamed.py")
    elif change == "add a folder":
        (root / "a" / "b" / "deep").mkdir()
        (root / "a" / "b" / "deep" / "bad.py").write_text(BAD)
        expected[change] = ["a/b/deep/bad.py", "a/bad.py"]
    elif change == "replace a file by a folder":
        (root / "a" / "b" / "ok.py").unlink()
        (root / "a" / "b" / "ok.py").mkdir()
        (root / "a" / "b" / "ok.py" / "inner.py").write_text(BAD)
        expected[change] = ["a/b/ok.py/inner.py", "a/bad.py"]
    elif change == "a symlink":
        (root / "elsewhere.py").write_text(BAD)
        (root / "a" / "b" / "link.py").symlink_to(root / "elsewhere.py")
        expected[change] = ["a/bad.py", "elsewhere.py"]  # one file, reported once
    warm = _lint(["."], cache_dir=tmp_path / "cache")
    cold = _lint(["."], cache=False)
    assert sorted(d.filename for d in warm.diagnostics) == sorted(d.filename for d in cold.diagnostics)
    assert sorted(d.filename for d in warm.diagnostics) == expected[change]


def test_a_symlink_retargeted_elsewhere_is_followed_anew(tmp_path, monkeypatch):
    """Pointing a link at another file does not change its folder's mtime if done in place
    (os.replace of a new link does; a target swapped under the same name does not): links
    are resolved on every run."""
    root = _project(tmp_path / "p", {"t/one.py": BAD, "t/two.py": "x = 1\n"})
    (root / "a").mkdir()
    (root / "a" / "link.py").symlink_to(root / "t" / "two.py")
    monkeypatch.chdir(root)
    _age(root)
    first = _lint(["a"], cache_dir=tmp_path / "cache")
    assert first.diagnostics == []
    (root / "t" / "two.py").unlink()
    (root / "t" / "two.py").symlink_to(root / "t" / "one.py")  # the target now leads to a bad file
    _age(root / "a")
    warm = _lint(["a"], cache_dir=tmp_path / "cache")
    assert [d.code for d in warm.diagnostics] == ["DL001"]


def test_listings_of_deleted_folders_are_dropped(tmp_path, monkeypatch):
    root = _project(tmp_path / "p", {"a/bad.py": BAD, "gone/deep/bad.py": BAD})
    monkeypatch.chdir(root)
    _lint(["."], cache_dir=tmp_path / "cache")
    listed = _read_results(tmp_path / "cache")["listings"]
    assert str(root / "gone" / "deep") in listed
    shutil.rmtree(root / "gone")
    _lint(["."], cache_dir=tmp_path / "cache")
    listed = _read_results(tmp_path / "cache")["listings"]
    assert not [k for k in listed if "gone" in k] and str(root / "a") in listed


# -- how many workers by default ----------------------------------------------------------------


def test_default_jobs_fork_only_for_enough_work(tmp_path, monkeypatch):
    """Without --jobs, a worker is forked only when the files to parse hold at least
    PARALLEL_MIN_BYTES per job (a fork costs more than a few small files), and only while the
    run is expected to stay under DEFAULT_MEMORY_CAP (a worker comes to hold about what this
    process holds), or LONG_RUN_MEMORY_CAP when the candidates hold LONG_ANALYSIS_BYTES or more;
    --jobs forks regardless of memory. The result is the same either way."""
    _fixtures_copy(tmp_path, monkeypatch)
    monkeypatch.setattr(pipeline, "default_jobs", lambda: 2)
    monkeypatch.setattr(pipeline, "DEFAULT_MEMORY_CAP", 10**12)
    serial = lint_paths(["fixtures"], jobs=1)
    # The fixtures grow with the rules: a threshold above their size keeps them "small".
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 10**9)
    small = lint_paths(["fixtures"])
    assert small.processes == 1  # the fixtures are below the threshold
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    forked = lint_paths(["fixtures"])
    assert forked.processes == 2
    monkeypatch.setattr(pipeline, "DEFAULT_MEMORY_CAP", 1)  # this process alone is over it
    monkeypatch.setattr(pipeline, "LONG_ANALYSIS_BYTES", 10**12)  # not a long analysis
    capped = lint_paths(["fixtures"])
    assert capped.processes == 1
    # A long analysis (candidates of LONG_ANALYSIS_BYTES or more) may use LONG_RUN_MEMORY_CAP.
    monkeypatch.setattr(pipeline, "LONG_ANALYSIS_BYTES", 1)
    monkeypatch.setattr(pipeline, "LONG_RUN_MEMORY_CAP", 10**12)
    long_run = lint_paths(["fixtures"])
    assert long_run.processes == 2
    monkeypatch.setattr(pipeline, "LONG_RUN_MEMORY_CAP", 1)
    assert lint_paths(["fixtures"]).processes == 1
    assert lint_paths(["fixtures"], jobs=2).processes == 2
    assert _codes(small) == _codes(forked) == _codes(capped) == _codes(serial) == _codes(long_run)


def test_an_edit_that_leaves_a_summary_alone_reparses_one_file(tmp_path, monkeypatch):
    """Importers read another module through its summary: an edit that does not change what
    they can see (a comment, a function body) re-reads and re-parses that file only; an edit
    that does (the constant they import) re-analyses them too."""
    from dl_lint import engine

    root = _project(
        tmp_path,
        {
            "settings.py": "WORKERS = 0\n\ndef helper():\n    return 1\n",
            "train.py": LOADER + "from settings import WORKERS\nloader = DataLoader([1], num_workers=WORKERS, prefetch_factor=2)\n",
            "other.py": LOADER + "loader = DataLoader([1], prefetch_factor=2)\n",
        },
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    cache_dir = root / "cache"
    cold = _codes(_lint(["."], cache_dir=cache_dir))
    assert ("train.py", "DL001", 3) in cold and ("other.py", "DL001", 2) in cold

    def parsed_files():
        project, _files = engine.RETAINED[-1]
        return sorted(os.path.relpath(path, root) for path in project.parses)

    (root / "settings.py").write_text("WORKERS = 0  # the default\n\ndef helper():\n    return 2\n")
    edited = _lint(["."], cache_dir=cache_dir)
    assert _codes(edited) == cold
    assert parsed_files() == ["settings.py"]  # train.py's result held: the summary is the same

    (root / "settings.py").write_text("WORKERS = 4\n")
    changed = _lint(["."], cache_dir=cache_dir)
    assert ("train.py", "DL001", 3) not in _codes(changed) and ("other.py", "DL001", 2) in _codes(changed)
    assert parsed_files() == ["settings.py", "train.py"]
    assert _codes(changed) == _codes(lint_paths(["."], jobs=1))


def _parses_recorded(root: Path, monkeypatch):
    """Run from ``root``, keeping each run's project: a function giving the files the last run
    parsed (relative to ``root``)."""
    from dl_lint import engine

    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])

    def parsed_files():
        project, _files = engine.RETAINED[-1]
        return sorted(os.path.relpath(path, root) for path in project.parses)

    return parsed_files


def _config_module_parsed_only_when_it_can_hold(tmp_path, monkeypatch, module: str, first: str, imports: str, then: str):
    """The cycle both tests below pin: ``train.py`` reads ``<object>.workers`` of a class of
    ``module`` (whose text is ``first``, which cannot hold a value for it): ``module`` is not
    parsed for it; an edit elsewhere in ``module`` keeps train.py's result (the answer rests on
    the bytes alone); ``then``, which holds 0, redoes train.py, which finds the crash."""
    root = _project(
        tmp_path,
        {module: first, "train.py": LOADER + imports + "loader = DataLoader([1], num_workers=opt.workers, prefetch_factor=2)\n"},
    )
    parsed_files = _parses_recorded(root, monkeypatch)
    cache_dir = root / "cache"

    assert ("train.py", "DL001", 4) not in _codes(_lint(["."], cache_dir=cache_dir))
    assert parsed_files() == ["train.py"]
    with open(root / module, "a") as handle:
        handle.write("# edited\n")
    assert ("train.py", "DL001", 4) not in _codes(_lint(["."], cache_dir=cache_dir))
    assert parsed_files() == []
    (root / module).write_text(then)
    assert ("train.py", "DL001", 4) in _codes(_lint(["."], cache_dir=cache_dir))
    assert parsed_files() == sorted([module, "train.py"])


def test_a_settings_attribute_parses_its_class_module_only_when_set_once(tmp_path, monkeypatch):
    """``par.workers`` of an object of another module's class is what ``__init__`` stores, once
    and unconditionally (``Resolver._foreign_instance_attr``). A module that assigns
    ``self.workers`` on several lines cannot hold such a class, so it is not parsed for that;
    the answer rests on that count alone: an edit elsewhere keeps it, one that leaves a single
    assignment redoes the file that reads it, which then finds the crash."""
    two = "class Settings:\n    def __init__(self, fast=False):\n        if fast:\n            self.workers = 2\n        else:\n            self.workers = 0\n"
    once = "class Settings:\n    def __init__(self):\n        self.workers = 0\n"
    _config_module_parsed_only_when_it_can_hold(
        tmp_path, monkeypatch, "settings.py", two, "from settings import Settings\nopt = Settings()\n", once
    )


def test_a_class_attribute_parses_its_class_module_only_when_the_class_binds_it(tmp_path, monkeypatch):
    """``opt.workers`` of an object of another module's class that never sets ``self.workers``
    can only be a class attribute (``summary.class_constants``): a module whose bytes bind
    ``workers`` only as a function's local variable is not parsed for it (accelerate's 200 KB
    ``accelerator.py`` holds such locals), and the answer rests on those bytes alone: an edit
    elsewhere keeps it, one that binds it in the class body redoes the file that reads it,
    which then finds the crash."""
    local = "class Options:\n    name = 'run'\n\n\ndef fastest():\n    workers = 0\n    return workers\n"
    bound = "class Options:\n    name = 'run'\n    workers = 0\n"
    _config_module_parsed_only_when_it_can_hold(
        tmp_path, monkeypatch, "options.py", local, "from options import Options\nopt = Options()\n", bound
    )


def test_a_construction_parses_its_class_module_only_when_it_can_have_a_sample(tmp_path, monkeypatch):
    """``Maker(size=3)`` asks the class for the sizes its sample needs (DL101). A module without
    a ``__getitem__`` has no sample, so it is not parsed for that (accelerate's examples parsed
    its 200 KB ``accelerator.py`` for ``Accelerator(...)``); the answer still rests on the
    module's lack of one: once it gains a ``__getitem__``, the cached result of the file that
    constructs the class is redone, and an edit elsewhere in the module keeps it."""
    root = _project(
        tmp_path,
        {
            # (``maker.mode`` is set on two branches: reading it does not need the class's
            # ``__init__``, as a settings object's attribute set once would)
            "shapes.py": (
                "class Maker:\n    def __init__(self, size, fast=False):\n        self.size = size\n"
                "        if fast:\n            self.mode = 'fp8'\n        else:\n            self.mode = 'no'\n"
            ),
            "train.py": LOADER + (
                "from shapes import Maker\nmaker = Maker(size=3)\n"
                "loader = DataLoader([1], prefetch_factor=2, drop_last=(maker.mode == 'fp8'))\n"
            ),
        },
    )
    parsed_files = _parses_recorded(root, monkeypatch)
    cache_dir = root / "cache"

    assert _codes(_lint(["."], cache_dir=cache_dir)) == [("train.py", "DL001", 4)]
    assert parsed_files() == ["train.py"]
    # An edit that adds no __getitem__ keeps train.py's result: it rests on the word's absence,
    # not on the module's bytes (which made every edit of accelerator.py redo its importers).
    with open(root / "shapes.py", "a") as handle:
        handle.write("# edited\n")
    assert _codes(_lint(["."], cache_dir=cache_dir)) == [("train.py", "DL001", 4)]
    assert parsed_files() == []
    (root / "shapes.py").write_text(
        "import torch\n\nclass Maker:\n    def __init__(self, size, fast=False):\n        self.size = size\n"
        "        if fast:\n            self.mode = 'fp8'\n        else:\n            self.mode = 'no'\n\n"
        "    def __getitem__(self, i):\n        return torch.zeros(self.size)\n"
    )
    assert _codes(_lint(["."], cache_dir=cache_dir)) == [("train.py", "DL001", 4)]
    assert parsed_files() == ["shapes.py", "train.py"]


def test_many_factories_are_judged_at_their_calls(tmp_path, monkeypatch):
    """With more than 16 factories the call-site search goes through each file's imports
    (a from-import of the name, an import of the module): the same calls are judged."""
    files = {
        f"loaders_{i}.py": LOADER + f"def make_{i}(ds, workers=0):\n    return DataLoader(ds, num_workers=workers, prefetch_factor=2)\n"
        for i in range(20)
    }
    files["train.py"] = (
        "from loaders_3 import make_3\nimport loaders_7\nfrom loaders_9 import *\n"
        "a = make_3([1])\nb = loaders_7.make_7([1], workers=2)\nc = loaders_7.make_7([1])\nd = make_9([1])\n"
    )
    files["unrelated.py"] = "def make_3(x):\n    return x\nmake_3(1)\n"
    root = _project(tmp_path, files)
    monkeypatch.chdir(root)
    found = sorted((d.filename, d.location.row) for d in lint_paths(["."], jobs=1).diagnostics if d.code == "DL001")
    assert found == [("train.py", 4), ("train.py", 6), ("train.py", 7)]  # make_9 through the star import


def test_a_warm_run_does_not_write_again_the_summaries_of_unchanged_files(tmp_path):
    """The call-site phase analyses an unchanged factory module again (its facts are not
    cached); its stored summary is not rebuilt and rewritten for that (``summaries_to_store``),
    and the findings stay those of a cold run."""
    from dl_lint import lint_paths

    root = tmp_path / "p"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "loader.py").write_text(
        "from torch.utils.data import DataLoader\n\n\n"
        "def make(ds, num_workers=4, prefetch_factor=2):\n"
        "    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)\n"
    )
    main = root / "main.py"
    main.write_text("from pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=0)\n")
    cache = tmp_path / "cache"

    def codes(paths):
        return sorted((d.code, d.location.row) for d in lint_paths(paths, cache=True, cache_dir=cache).diagnostics)

    cold = codes([root])
    assert ("DL001", 3) in cold
    stored = {p.name: p.stat().st_mtime_ns for p in cache.glob("summaries-*/*.json")}
    assert stored  # the full run kept the modules' summaries
    main.write_text(main.read_text() + "# edited\n")
    assert codes([main]) == cold  # the factory module judged again for its call, from its facts
    again = {p.name: p.stat().st_mtime_ns for p in cache.glob("summaries-*/*.json")}
    assert {name: again.get(name) for name in stored} == stored  # none written again


def test_the_cache_says_how_many_imports_it_brought(tmp_path):
    """``imports_at_load``: the imports the results file held, not those a run adds (the import
    graph is built whole only from a cache that brought most files')."""
    root = _project(tmp_path / "p", {"a.py": "import b\n", "b.py": "x = 1\n"})
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()  # a run that linted nothing makes no folder: this one did
    first = cache.open_cache(cache_dir, root)
    assert first.imports_at_load == 0
    first.imports[str(root / "a.py")] = ["hash-a", ["b"], []]
    first.imports[str(root / "b.py")] = ["hash-b", [], []]
    first.dirty = True
    first.save()
    again = cache.open_cache(cache_dir, root)
    assert again.imports_at_load == len(again.imports) == 2
    again.imports[str(root / "c.py")] = ["hash-c", [], []]  # what this run adds
    assert again.imports_at_load == 2


def test_a_full_run_gives_the_cache_every_files_imports(tmp_path):
    """The next partial run builds its import graph from the cache (``Run.keep_imports``), the
    first one after a full run too: every Python file the run read is there, by content hash;
    a file edited since is read again, never believed."""
    factory = LOADER + "\n\ndef make(ds, workers=2):\n    return DataLoader(ds, num_workers=workers)\n"
    files = {"pkg/__init__.py": "", "pkg/loader.py": factory, "main.py": "from pkg.loader import make\n\nmake([1], 0)\n", "util.py": "import os\n"}
    root = _project(tmp_path / "p", files)
    cache_dir = tmp_path / "cache"
    _lint([root], cache_dir=cache_dir)
    kept = cache.open_cache(cache_dir, root).imports
    assert sorted(kept) == sorted(str(root / name) for name in files)
    assert kept[str(root / "main.py")][1:] == [[], [["pkg.loader", ["make"]]]]
    assert kept[str(root / "util.py")][1:] == [["os"], []]
    (root / "util.py").write_text("import sys\n")
    _lint([root / "main.py"], cache_dir=cache_dir)
    assert cache.open_cache(cache_dir, root).imports[str(root / "util.py")][1:] == [["sys"], []]
