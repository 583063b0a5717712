"""Speed and memory of dl-lint against the linters a team already runs.

    python bench/run.py [--repo PATH]... [--torch-tree PATH] [--runs 5] [--skip-torchfix] ...

Corpora:
  * real repositories (``--repo PATH``, repeatable; write a commit's Python files out with
    ../shared/tools/extract-snapshot.py): per repository, cold ``dl-lint --no-cache`` beside
    ``ruff check --isolated --no-cache`` (interleaved), warm (the results cache, nothing
    changed), and after one edit (a comment appended to the largest file that constructs a
    loader; restored afterwards), with peak memory;
  * the installed torch source tree (``--torch-tree``, else found with importlib in this
    interpreter or in the one next to the dl-lint executable);
  * a generated 1.5 MB module (40,000 lines of literal tables and one DataLoader mistake): the
    time to its finding against ``ast.parse`` of the same file, both in one process;
  * a generated module of many loaders (10,000 lines ``xN = DataLoader([1], num_workers=2)``;
    ``--many-loaders-sizes`` for a scaling table): ``dl-lint --no-cache -j1 FILE`` wall time
    minus ``dl-lint --version`` wall time (the start-up), against ``ast.parse`` of the same file
    in one process; the target is 3 × (issue 28: each loader walked the module, 8,000 took 77 s);
  * generated trees of 5,000, 10,000 and 20,000 files (about 5% mention DataLoader; about half
    of those construct one), built in a temporary folder.

Every tool runs as a subprocess; wall time is measured around it. Each time is the median of
``--runs`` runs, with the spread (min-max). Runs of the tools being compared are interleaved
(dl-lint, ruff, dl-lint, ruff, ...), so that other load on the machine affects both alike.
Peak memory comes from three more runs of each command, in which it is sampled every 10 ms
over the process and its workers: the sum of their proportional set sizes (PSS, which counts
once the pages forked workers share; summed RSS, shown beside it, counts them in each), and at
least the process's own max RSS (``os.wait4``). Timed runs are not sampled: the sampling took
enough CPU, on 2 cores, to slow a multi-process run by up to a quarter (Lightning: 929 ms
sampled, 690 ms not).

TorchFix takes many minutes on the torch tree. ``--torchfix-runs`` full-tree runs (default 1)
are measured as they are; with ``--torchfix-limit SECONDS`` a run still going then is stopped
(with its workers) and counts as "more than SECONDS": when the median falls on such a run the
table shows "> median" and the speed-up is a lower bound ("> N ×"), which is enough to show a
"at least N times faster" target and is never reported as more than was measured.
``--torchfix-subset N`` also times ``--runs`` runs on the first N files (sorted paths) and
extrapolates to the full tree by bytes. The output says which figure is which.
``--skip-torchfix`` leaves it out.

Benchmark-only tools (ruff, torchfix, psutil) are not dl-lint dependencies: install them in a
separate environment and point ``--ruff``/``--torchfix`` at them (default: on PATH, or next to
this interpreter).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

# -- running and measuring -------------------------------------------------------------------


class Sample:
    def __init__(
        self,
        seconds: float,
        max_rss_kb: int,
        returncode: int,
        tree_rss_kb: int = 0,
        stopped: bool = False,
        tree_pss_kb: int = 0,
    ) -> None:
        self.seconds = seconds
        self.max_rss_kb = max_rss_kb
        self.returncode = returncode
        self.tree_rss_kb = tree_rss_kb  # sampled: the process and all its workers together
        self.tree_pss_kb = tree_pss_kb  # the same, shared pages counted once
        # Stopped at the time limit: the command would have taken longer than ``seconds``.
        self.stopped = stopped


def _pss_kb(pid: int) -> Optional[int]:
    """A process's proportional set size from /proc/PID/smaps_rollup (cheap; Linux 4.14+)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _sample_tree_rss(pid: int, stop, peak: list) -> None:
    """Every 10 ms, the memory of ``pid`` and its descendants: ``peak[0]`` the largest sum of
    RSS (psutil), ``peak[1]`` the largest sum of PSS (proportional set size: a page that forked
    processes share counts once in all, divided between them; RSS counts it in each)."""
    import psutil

    try:
        root = psutil.Process(pid)
    except psutil.Error:
        return
    while not stop.is_set():
        rss = pss = 0
        try:
            for proc in [root, *root.children(recursive=True)]:
                try:
                    resident = proc.memory_info().rss
                except psutil.Error:
                    continue
                rss += resident
                share = _pss_kb(proc.pid)
                pss += share * 1024 if share is not None else resident
        except psutil.Error:
            break
        peak[0] = max(peak[0], rss // 1024)
        peak[1] = max(peak[1], pss // 1024)
        stop.wait(0.01)


def run_once(
    command: Sequence[str],
    cwd: Optional[str] = None,
    env: Optional[Dict[str, str]] = None,
    limit: Optional[float] = None,
    sample_memory: bool = True,
) -> Sample:
    """Wall time and peak RSS of one command: ``ru_maxrss`` (the largest single process among
    the command and the children it waited for) and, with psutil, the sampled peak of the sum
    over the command and its worker processes.

    With ``limit`` (seconds), a command still running then is killed with its whole process
    group and the sample is marked ``stopped``: its time is a lower bound."""
    import signal
    import threading

    start = time.perf_counter()
    proc = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=limit is not None,  # its own process group: the workers die with it
    )
    stopped = threading.Event()
    timer = None
    if limit is not None:

        def stop_it() -> None:
            stopped.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

        timer = threading.Timer(limit, stop_it)
        timer.daemon = True
        timer.start()
    stop, peak, sampler = threading.Event(), [0, 0], None
    try:
        import psutil  # noqa: F401 - benchmark-only dependency

        if sample_memory:
            sampler = threading.Thread(target=_sample_tree_rss, args=(proc.pid, stop, peak), daemon=True)
            sampler.start()
    except ImportError:
        pass
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if timer is not None:
        timer.cancel()
    stop.set()
    if sampler is not None:
        sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stopped.is_set():
        return Sample(limit, int(usage.ru_maxrss), proc.returncode, peak[0], stopped=True, tree_pss_kb=peak[1])
    return Sample(seconds, int(usage.ru_maxrss), proc.returncode, peak[0], tree_pss_kb=peak[1])


MEMORY_RUNS = 3


class Series:
    """Timed runs (``samples``) and the runs in which memory was sampled (``memory``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.samples: List[Sample] = []
        self.memory: List[Sample] = []

    def add(self, sample: Sample, memory: bool = False) -> None:
        (self.memory if memory else self.samples).append(sample)

    @property
    def median(self) -> float:
        """A stopped run counts as its time limit, which is at least as long as every finished
        run: the median stays a true lower bound (see ``median_is_lower_bound``)."""
        return statistics.median(s.seconds for s in self.samples)

    @property
    def median_is_lower_bound(self) -> bool:
        """Whether a stopped run is among the values the median is taken from."""
        ordered = sorted(self.samples, key=lambda s: (s.seconds, s.stopped))
        n = len(ordered)
        middle = ordered[(n - 1) // 2 : n // 2 + 1]
        return any(s.stopped for s in middle)

    @property
    def spread(self) -> Tuple[float, float]:
        return min(s.seconds for s in self.samples), max(s.seconds for s in self.samples)

    @property
    def peak_mb(self) -> float:
        """The memory the run took: the larger of the biggest single process (RSS) and the
        sampled sum over it and its workers of their proportional set sizes (PSS, which counts
        the pages forked workers share with it once; summed RSS counts them in each)."""
        return max(max(s.max_rss_kb, s.tree_pss_kb or s.tree_rss_kb) for s in self.samples + self.memory) / 1024

    @property
    def peak_rss_sum_mb(self) -> float:
        """The sampled sum of RSS over the process and its workers (shared pages counted in each)."""
        return max(s.tree_rss_kb for s in self.samples + self.memory) / 1024

    def row(self) -> str:
        lo, hi = self.spread
        codes = sorted({s.returncode for s in self.samples + self.memory})
        bound = "> " if self.median_is_lower_bound else ""
        top = "> " if any(s.stopped for s in self.samples) else ""
        stopped = sum(s.stopped for s in self.samples)
        name = f"{self.name} [{stopped} stopped at the time limit]" if stopped else self.name
        return (
            f"| {name} | {len(self.samples)} | {bound}{_fmt(self.median)} | {_fmt(lo)} – {top}{_fmt(hi)} | "
            f"{self.peak_mb:.0f} MB | {self.peak_rss_sum_mb:.0f} MB | {','.join(map(str, codes))} |"
        )


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def interleaved(
    series: Sequence[Tuple[Series, Sequence[str], Dict]], runs: int, before=None, memory_runs: int = MEMORY_RUNS
) -> None:
    """``runs`` timed runs of each command, interleaved, then ``memory_runs`` more in which
    memory is sampled: reading /proc/PID/smaps_rollup every 10 ms takes CPU and the process's
    memory lock, which slowed multi-process runs on 2 cores, so timed runs are not sampled.
    ``memory_runs=0``: the timed runs are sampled (for runs of minutes, such as TorchFix's)."""
    for _ in range(runs):
        for target, command, options in series:
            if before is not None:
                before(target)
            target.add(run_once(command, sample_memory=memory_runs == 0, **options))
    for _ in range(memory_runs):
        for target, command, options in series:
            if before is not None:
                before(target)
            target.add(run_once(command, **options), memory=True)
    for target, _command, _options in series:  # as it is measured: a stopped run keeps its numbers
        print(f"measured: {target.row()}", file=sys.stderr, flush=True)


# -- corpora ---------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory() -> str:
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB RAM"
    except OSError:
        pass
    return "RAM unknown"


def _torchfix_version(torchfix: str) -> str:
    try:
        out = subprocess.run([torchfix, "--version"], capture_output=True, text=True, timeout=60)
        return f"torchfix {out.stdout.strip() or out.stderr.strip()}"
    except OSError:
        return "torchfix not found"


def find_torch_tree(dl_lint: str) -> Optional[str]:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is not None and spec.origin:
        return os.path.dirname(spec.origin)
    python = Path(shutil.which(dl_lint) or dl_lint).with_name("python")
    if python.exists():
        code = "import importlib.util, os; s = importlib.util.find_spec('torch'); print(os.path.dirname(s.origin) if s else '')"
        out = subprocess.run([str(python), "-c", code], capture_output=True, text=True).stdout.strip()
        return out or None
    return None


_PLAIN = '''"""Module {i}: utilities that have nothing to do with data loading."""

import math
import os

CONSTANT_{i} = {i}


def helper_{i}(values, scale=1.0):
    """Scale and sum."""
    total = 0.0
    for value in values:
        total += math.sqrt(abs(value)) * scale
    return total + CONSTANT_{i}


class Thing{i}:
    def __init__(self, name):
        self.name = name
        self.path = os.path.join("/tmp", name)

    def describe(self):
        return f"{{self.name}} at {{self.path}} ({{helper_{i}([1, 2, 3])}})"
'''

_MENTIONS = '''"""Module {i}: wraps a torch DataLoader built elsewhere (only mentions it)."""

from torch.utils.data import DataLoader


def batches_{i}(loader: DataLoader) -> int:
    """How many batches a DataLoader yields."""
    return len(loader)
'''

_CONSTRUCTS = '''"""Module {i}: builds its loaders."""

import torch
from torch.utils.data import DataLoader, Dataset

from .settings import WORKERS


class Items{i}(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        return torch.tensor(index)


def make_loader_{i}(n, batch_size=32):
    return DataLoader(Items{i}(n), batch_size=batch_size, num_workers=WORKERS, prefetch_factor={pf})


loader_{i} = DataLoader(Items{i}(100), batch_size=8, num_workers={nw}, pin_memory=True)
'''


def build_tree(root: Path, files: int, mention_share: float = 0.05, seed: int = 0) -> Dict[str, int]:
    """``files`` modules in packages of 100; ``mention_share`` of them mention DataLoader, half
    of those construct one (some with findings). Deterministic for a seed."""
    rng = random.Random(seed)
    (root / "pyproject.toml").write_text("[project]\nname = 'generated'\n")
    counts = {"files": 0, "bytes": 0, "mentions": 0, "constructs": 0}
    per_package = 100
    for i in range(files):
        package = root / "pkg" / f"sub{i // per_package:04d}"
        if i % per_package == 0:
            package.mkdir(parents=True, exist_ok=True)
            for name, text in (("__init__.py", ""), ("settings.py", f"WORKERS = {rng.choice([0, 2, 4])}\n")):
                (package / name).write_text(text)
                counts["files"] += 1
                counts["bytes"] += len(text)
        roll = rng.random()
        if roll < mention_share / 2:
            text = _CONSTRUCTS.format(i=i, pf=rng.choice([2, 4, 8]), nw=rng.choice([0, 2, 8]))
            counts["constructs"] += 1
            counts["mentions"] += 1
        elif roll < mention_share:
            text = _MENTIONS.format(i=i)
            counts["mentions"] += 1
        else:
            text = _PLAIN.format(i=i) * rng.choice([1, 1, 2, 3])
        (package / f"mod{i:05d}.py").write_text(text)
        counts["files"] += 1
        counts["bytes"] += len(text)
    return counts


def tree_bytes(root: str) -> Tuple[int, int]:
    n = size = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".dl_lint_cache"]
        for name in names:
            if name.endswith(".py"):
                n += 1
                size += os.path.getsize(os.path.join(folder, name))
    return n, size


# -- the benchmark ---------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", action="append", default=[], help="a repository to measure (repeatable)")
    parser.add_argument("--torch-tree", help="the torch source tree (default: the installed torch)")
    parser.add_argument("--skip-torch-tree", action="store_true")
    parser.add_argument("--skip-large-file", action="store_true")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median and spread)")
    parser.add_argument("--dl-lint", default=None, help="the dl-lint executable")
    parser.add_argument("--ruff", default=None, help="the ruff executable")
    parser.add_argument("--torchfix", default=None, help="the torchfix executable")
    parser.add_argument("--skip-torchfix", action="store_true")
    parser.add_argument("--torchfix-runs", type=int, default=1, help="full-tree TorchFix runs (slow: ~15 min each on 2 cores)")
    parser.add_argument(
        "--torchfix-limit", type=float, default=None, help="stop a full-tree TorchFix run after this many seconds (a lower bound)"
    )
    parser.add_argument("--torchfix-subset", type=int, default=0, help="also time TorchFix on the first N files and extrapolate by bytes")
    parser.add_argument("--skip-generated", action="store_true")
    parser.add_argument("--skip-many-loaders", action="store_true")
    parser.add_argument("--many-loaders-sizes", default="10000", help="loaders per generated module (comma-separated)")
    parser.add_argument("--generated-sizes", default="5000,10000,20000")
    parser.add_argument("--jobs", default=None, help="pass --jobs to dl-lint")
    args = parser.parse_args(argv)

    here = Path(sys.executable).parent
    dl_lint = args.dl_lint or shutil.which("dl-lint") or str(here / "dl-lint")
    ruff = args.ruff or shutil.which("ruff") or str(here / "ruff")
    torchfix = args.torchfix or shutil.which("torchfix") or str(here / "torchfix")
    torch_tree = None if args.skip_torch_tree else (args.torch_tree or find_torch_tree(dl_lint))
    if not args.skip_torch_tree and (not torch_tree or not os.path.isdir(torch_tree)):
        parser.error("no torch tree: pass --torch-tree (or --skip-torch-tree)")
    extra = ["--jobs", args.jobs] if args.jobs else []
    runs = args.runs

    version = subprocess.run([dl_lint, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        ruff_version = subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        ruff_version = "ruff not found"
    print("## dl-lint benchmark\n")
    tf_version = "" if args.skip_torchfix else f"; {_torchfix_version(torchfix)}"
    print(
        f"Machine: {_cpu_model()}, {os.cpu_count()} cores, {_memory()}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()} (benchmark driver); {version}; {ruff_version}{tf_version}\n"
    )

    results: Dict[str, Series] = {}

    def series(name: str) -> Series:
        results[name] = Series(name)
        return results[name]

    env = dict(os.environ, NO_COLOR="1")
    env.pop("DL_LINT_CACHE_DIR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run it: bytecode written once, then reused
    cache_dir = tempfile.mkdtemp(prefix="dl-lint-bench-cache-")
    env_cache = dict(env, DL_LINT_CACHE_DIR=cache_dir)
    checks = []

    def clear(_):
        shutil.rmtree(cache_dir, ignore_errors=True)

    # Startup paths
    s_version, s_rule = series("dl-lint --version"), series("dl-lint rule DL001")
    interleaved([(s_version, [dl_lint, "--version"], {"env": env}), (s_rule, [dl_lint, "rule", "DL001"], {"env": env})], runs)
    checks.append((f"--version < 0.15 s: {_fmt(s_version.median)}", s_version.median < 0.15))
    checks.append((f"rule DL001 < 0.15 s: {_fmt(s_rule.median)}", s_rule.median < 0.15))

    # Real repositories: cold beside ruff, warm, one edit.
    repo_rows = []
    for repo in args.repo:
        name = os.path.basename(os.path.normpath(repo))
        n_files, n_bytes = tree_bytes(repo)
        cold = series(f"dl-lint --no-cache ({name}, {n_files} files, {n_bytes / 1e6:.1f} MB, cold)")
        ruff_s = series(f"ruff check --isolated --no-cache ({name})")
        dl_cmd = [dl_lint, "--no-cache", "--exit-zero", *extra, "."]
        ruff_cmd = [ruff, "check", "--isolated", "--no-cache", "--exit-zero", "."]
        run_once(dl_cmd, cwd=repo, env=env)  # page cache and .pyc warm, as for every tool
        run_once(ruff_cmd, cwd=repo, env=env)
        interleaved([(cold, dl_cmd, {"env": env, "cwd": repo}), (ruff_s, ruff_cmd, {"env": env, "cwd": repo})], runs)
        warm_cmd = [dl_lint, "--exit-zero", *extra, "."]
        clear(None)
        run_once(warm_cmd, cwd=repo, env=env_cache)  # fills the cache
        warm = series(f"dl-lint ({name}, warm cache, nothing changed)")
        interleaved([(warm, warm_cmd, {"env": env_cache, "cwd": repo})], runs)
        edited = None
        target = _loader_file(repo)
        if target is not None:
            original = open(target, "rb").read()
            edited = series(f"dl-lint ({name}, warm cache, one file edited: {os.path.relpath(target, repo)})")
            counter = [0]

            def edit(_):
                counter[0] += 1
                with open(target, "wb") as handle:
                    handle.write(original + f"# edit {counter[0]}\n".encode())

            try:
                interleaved([(edited, warm_cmd, {"env": env_cache, "cwd": repo})], runs, before=edit)
            finally:
                with open(target, "wb") as handle:
                    handle.write(original)
        clear(None)
        repo_rows.append((name, cold, ruff_s, warm, edited))
        ratio = cold.median / ruff_s.median
        checks.append((f"{name}: cold ≤ 3 × ruff: {_fmt(cold.median)} / {_fmt(ruff_s.median)} = {ratio:.2f} ×", ratio <= 3))
    # Partial runs (issue 26): pre-commit names the staged files; the run reads their import
    # neighbourhood. Warm: the cache of a full run, the named files edited (as staged files are).
    partial_rows = []
    for repo in args.repo:
        name = os.path.basename(os.path.normpath(repo))
        if name != "pytorch-lightning":
            continue
        named_files = _loader_files(repo, 5)
        for count in (1, 5):
            chosen = named_files[:count]
            if len(chosen) < count:
                continue
            rel = [os.path.relpath(f, repo) for f in chosen]
            originals = {f: open(f, "rb").read() for f in chosen}
            counter = [0]

            def edit_all(_):
                counter[0] += 1
                for f, data in originals.items():
                    with open(f, "wb") as handle:
                        handle.write(data + f"# staged {counter[0]}\n".encode())

            cold_p = series(f"dl-lint --no-cache {count} file(s) of {name} (cold)")
            # the full cold run again, alternated with the partial one: both read every file of a
            # package, so their difference is a few percent, less than the drift between series
            full_cold = series(f"dl-lint --no-cache {name} (cold, alternated with the {count}-file run)")
            warm_p = series(f"dl-lint {count} edited file(s) of {name} (warm cache of a full run)")
            try:
                interleaved(
                    [
                        (cold_p, [dl_lint, "--no-cache", "--exit-zero", *extra, *rel], {"env": env, "cwd": repo}),
                        (full_cold, [dl_lint, "--no-cache", "--exit-zero", *extra, "."], {"env": env, "cwd": repo}),
                    ],
                    runs,
                )
                clear(None)
                run_once([dl_lint, "--exit-zero", *extra, "."], cwd=repo, env=env_cache)
                interleaved([(warm_p, [dl_lint, "--exit-zero", *extra, *rel], {"env": env_cache, "cwd": repo})], runs, before=edit_all)
            finally:
                for f, data in originals.items():
                    with open(f, "wb") as handle:
                        handle.write(data)
                clear(None)
            partial_rows.append((f"{name}, {count} file(s)", cold_p, full_cold, warm_p))
            checks.append((f"{name}: {count} edited file(s), warm ≤ 0.3 s: {_fmt(warm_p.median)}", warm_p.median <= 0.3))
            checks.append(
                (f"{name}: {count} file(s) cold ≤ the full cold run (alternated): {_fmt(cold_p.median)} ≤ {_fmt(full_cold.median)}",
                 cold_p.median <= full_cold.median)
            )
    small = Path(tempfile.mkdtemp(prefix="dl-lint-bench-small-"))
    try:
        shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures" / "demo", small / "demo")
        (small / "demo" / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
        one_cold = series("dl-lint --no-cache one file of a small project (fixtures/demo)")
        one_warm = series("dl-lint one file of a small project (warm cache)")
        small_env = dict(env_cache, DL_LINT_CACHE_DIR=str(small / "cache"))
        interleaved([(one_cold, [dl_lint, "--no-cache", "--exit-zero", "train.py"], {"env": env, "cwd": small / "demo"})], runs)
        run_once([dl_lint, "--exit-zero", "."], cwd=small / "demo", env=small_env)
        interleaved([(one_warm, [dl_lint, "--exit-zero", "train.py"], {"env": small_env, "cwd": small / "demo"})], runs)
        partial_rows.append(("small project (fixtures/demo), 1 file", one_cold, None, one_warm))
        checks.append((f"small project: one file, cold < 0.1 s: {_fmt(one_cold.median)}", one_cold.median < 0.1))
    finally:
        shutil.rmtree(small, ignore_errors=True)
    for name, cold, ruff_s, warm, edited in repo_rows:
        if name == "pytorch-lightning":
            checks.append((f"{name}: warm ≤ 0.3 s: {_fmt(warm.median)}", warm.median <= 0.3))
            if edited is not None:
                checks.append((f"{name}: one file edited ≤ 0.5 s: {_fmt(edited.median)}", edited.median <= 0.5))
            checks.append((f"{name}: peak memory {cold.peak_mb:.0f} MB ≤ 150 MB", cold.peak_mb <= 150))

    # Torch tree: cold dl-lint vs ruff (interleaved), then warm.
    if torch_tree is not None:
        n_files, n_bytes = tree_bytes(torch_tree)
        print(f"Torch tree: {torch_tree} ({n_files} .py files, {n_bytes / 1e6:.1f} MB)\n", file=sys.stderr)
        cold = series(f"dl-lint --no-cache (torch tree, {n_files} files, {n_bytes / 1e6:.1f} MB, cold)")
        ruff_s = series("ruff check --isolated --no-cache (torch tree)")
        run_once([dl_lint, "--no-cache", *extra, torch_tree], env=env)
        run_once([ruff, "check", "--isolated", "--no-cache", "--exit-zero", torch_tree], env=env)
        interleaved(
            [
                (cold, [dl_lint, "--no-cache", *extra, torch_tree], {"env": env}),
                (ruff_s, [ruff, "check", "--isolated", "--no-cache", "--exit-zero", torch_tree], {"env": env}),
            ],
            runs,
        )
        warm = series("dl-lint (torch tree, warm cache, nothing changed)")
        run_once([dl_lint, *extra, torch_tree], env=env_cache)  # fills the cache
        interleaved([(warm, [dl_lint, *extra, torch_tree], {"env": env_cache})], runs)
        first = series("dl-lint (torch tree, empty cache: lint + write)")
        interleaved([(first, [dl_lint, *extra, torch_tree], {"env": env_cache})], runs, before=clear)
        ratio = cold.median / ruff_s.median
        checks.append((f"cold torch tree ≤ 0.25 × ruff: {_fmt(cold.median)} / {_fmt(ruff_s.median)} = {ratio:.2f} ×", ratio <= 0.25))

        # TorchFix
        if not args.skip_torchfix:
            sub_bytes = 0
            if args.torchfix_subset:
                files = sorted(str(p) for p in Path(torch_tree).rglob("*.py"))[: args.torchfix_subset]
                sub_bytes = sum(os.path.getsize(f) for f in files)
                tf_sub = series(f"torchfix --select TOR401 (first {len(files)} files, {sub_bytes / 1e6:.1f} MB)")
                interleaved([(tf_sub, [torchfix, "--select", "TOR401", *files], {"env": env})], runs, memory_runs=0)
                estimate = tf_sub.median * n_bytes / sub_bytes
                checks.append(
                    (f"≥ 500 × faster than TorchFix (extrapolated by bytes from {len(tf_sub.samples)} subset runs): "
                     f"~{_fmt(estimate)} / {_fmt(cold.median)} = {estimate / cold.median:.0f} ×", estimate / cold.median >= 500)
                )
            if args.torchfix_runs:
                tf_full = series("torchfix --select TOR401 (torch tree, full)")
                command = [torchfix, "--select", "TOR401", torch_tree]
                interleaved([(tf_full, command, {"env": env, "limit": args.torchfix_limit})], args.torchfix_runs, memory_runs=0)
                speedup = tf_full.median / cold.median
                bound = "> " if tf_full.median_is_lower_bound else ""
                stopped = sum(s.stopped for s in tf_full.samples)
                how = f", {stopped} stopped at {_fmt(args.torchfix_limit)} unfinished" if stopped else ""
                checks.append(
                    (f"≥ 500 × faster than TorchFix (measured, full tree, {len(tf_full.samples)} run(s){how}): "
                     f"{bound}{_fmt(tf_full.median)} / {_fmt(cold.median)} = {bound}{speedup:.0f} ×", speedup >= 500)
                )

    # The large generated module
    large = None
    if not args.skip_large_file:
        large = measure_large_module(dl_lint, runs)
        if "error" in large:
            checks.append((f"large module: the probe failed: {large['error']}", False))
        else:
            ratio = large["lint"] / large["parse"]
            reported = large["codes"] == ["DL001"]
            checks.append(
                (f"large module ({large['bytes'] / 1e6:.2f} MB): finding reported ({', '.join(large['codes']) or 'nothing'}) "
                 f"in {_fmt(large['lint'])} = {ratio:.2f} × ast.parse ({_fmt(large['parse'])}) ≤ 1.5 ×", reported and ratio <= 1.5)
            )

    # Many loaders in one module
    many_rows = []
    if not args.skip_many_loaders:
        for loaders in [int(n) for n in args.many_loaders_sizes.split(",") if n]:
            many = measure_many_loaders(dl_lint, runs, loaders, env)
            many_rows.append(many)
            if "error" in many:
                checks.append((f"{loaders} loaders in one module: the run failed: {many['error']}", False))
                continue
            ratio = many["analysis"] / many["parse"]
            checks.append(
                (f"{loaders} loaders in one module ({many['bytes'] / 1e6:.2f} MB): dl-lint {_fmt(many['lint'])} - "
                 f"--version {_fmt(many['version'])} = {_fmt(many['analysis'])} = {ratio:.2f} × ast.parse "
                 f"({_fmt(many['parse'])}) ≤ 3 ×", ratio <= 3)
            )

    # Generated trees
    scaling = []
    if not args.skip_generated:
        base = Path(tempfile.mkdtemp(prefix="dl-lint-bench-tree-"))
        try:
            for size in [int(s) for s in args.generated_sizes.split(",") if s]:
                root = base / f"tree{size}"
                root.mkdir()
                counts = build_tree(root, size)
                name = f"dl-lint --no-cache (generated, {counts['files']} files, {counts['bytes'] / 1e6:.1f} MB, {counts['constructs']} construct a loader)"
                s = series(name)
                run_once([dl_lint, "--no-cache", *extra, str(root)], env=env)
                interleaved([(s, [dl_lint, "--no-cache", *extra, str(root)], {"env": env})], runs)
                parsed = _files_parsed(dl_lint, root)
                scaling.append((counts, s, parsed))
        finally:
            shutil.rmtree(base, ignore_errors=True)
        if scaling:
            counts, s, parsed = scaling[-1]
            checks.append((f"generated {counts['files']} files: cold {_fmt(s.median)} ≤ 3 s", s.median <= 3))
            checks.append((f"generated {counts['files']} files: peak memory {s.peak_mb:.0f} MB ≤ 150 MB", s.peak_mb <= 150))
    shutil.rmtree(cache_dir, ignore_errors=True)

    print("| what | runs | median | spread (min – max) | peak memory (PSS) | summed RSS | exit codes |")
    print("|---|---|---|---|---|---|---|")
    for s in results.values():
        print(s.row())
    print()
    if repo_rows:
        print("### Repositories\n")
        print("| repository | dl-lint cold | ruff cold | ratio | dl-lint warm | one file edited | peak memory (cold) |")
        print("|---|---|---|---|---|---|---|")
        for name, cold, ruff_s, warm, edited in repo_rows:
            print(
                f"| {name} | {_fmt(cold.median)} | {_fmt(ruff_s.median)} | {cold.median / ruff_s.median:.2f} × | "
                f"{_fmt(warm.median)} | {_fmt(edited.median) if edited else '–'} | {cold.peak_mb:.0f} MB |"
            )
        print()
    if partial_rows:
        print("### Partial runs (files named, as pre-commit names them)\n")
        print("| run | no cache | the full run, no cache (alternated with it) | warm cache (named files edited) |")
        print("|---|---|---|---|")
        for what, cold_p, full_p, warm_p in partial_rows:
            full = _fmt(full_p.median) if full_p is not None else "–"
            print(f"| {what} | {_fmt(cold_p.median)} | {full} | {_fmt(warm_p.median)} |")
        print()
    print("### Targets\n")
    for text, ok in checks:
        print(f"- [{'x' if ok else ' '}] {'PASS' if ok else 'FAIL'}: {text}")
    if many_rows:
        print("\n### Many loaders in one module (medians)\n")
        print("| loaders | MB | dl-lint --no-cache -j1 | dl-lint --version | difference | ast.parse | ratio |")
        print("|---|---|---|---|---|---|---|")
        for many in many_rows:
            if "error" not in many:
                print(
                    f"| {many['loaders']} | {many['bytes'] / 1e6:.2f} | {_fmt(many['lint'])} | {_fmt(many['version'])} | "
                    f"{_fmt(many['analysis'])} | {_fmt(many['parse'])} | {many['analysis'] / many['parse']:.2f} × |"
                )
    if scaling:
        print("\n### Scaling (generated trees, cold)\n")
        print("| files | MB | construct a loader | parsed | median | ms per MB |")
        print("|---|---|---|---|---|---|")
        for counts, s, parsed in scaling:
            mb = counts["bytes"] / 1e6
            print(f"| {counts['files']} | {mb:.1f} | {counts['constructs']} | {parsed} | {_fmt(s.median)} | {s.median * 1000 / mb:.0f} |")
    return 0


_LARGE_ROW = "    ({i}, {x:.6f}, 'label_{m}', {n}, -{y:.4f}),"


def build_large_module(path: Path, lines: int = 40_000, seed: int = 0) -> int:
    """A generated module of ``lines`` lines of literal tables (about 1.5 MB) and, at the end, one
    DataLoader that torch rejects (DL001). Returns its size in bytes."""
    rng = random.Random(seed)
    out = ['"""Generated lookup tables, and one DataLoader."""', "from torch.utils.data import DataLoader", "", "TABLE = ["]
    rows = (lines - 8) // 2
    for i in range(rows):
        out.append(_LARGE_ROW.format(i=i, x=rng.random(), m=i % 97, n=rng.randint(0, 10**6), y=rng.random()))
    out += ["]", "NAMES = {"]
    for i in range(rows):
        out.append(f"    'k{i}': ({rng.randint(0, 999)}, 'v{i}'),")
    out += ["}", "", "loader = DataLoader(TABLE, batch_size=64, prefetch_factor=4)"]
    path.write_text("\n".join(out) + "\n")
    return path.stat().st_size


_LARGE_PROBE = """
import ast, gc, json, statistics, sys, time
from dl_lint import engine, lint_paths
gc.disable()
engine.RETAINED = []  # freeing trees is not part of either figure
path, runs = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
parse, lint, codes = [], [], []
for _ in range(runs):
    start = time.perf_counter(); tree = ast.parse(data); parse.append(time.perf_counter() - start)
    engine.RETAINED.append(tree)
    start = time.perf_counter(); result = lint_paths([path], jobs=1); lint.append(time.perf_counter() - start)
    codes = sorted({d.code for d in result.diagnostics})
print(json.dumps({"parse": statistics.median(parse), "lint": statistics.median(lint), "codes": codes}))
"""


def measure_large_module(dl_lint: str, runs: int) -> Dict[str, object]:
    """ast.parse and dl-lint's analysis of the generated module, alternated in one process."""
    python = Path(shutil.which(dl_lint) or dl_lint).with_name("python")
    folder = Path(tempfile.mkdtemp(prefix="dl-lint-bench-large-"))
    try:
        size = build_large_module(folder / "tables.py")
        out = subprocess.run([str(python), "-c", _LARGE_PROBE, str(folder / "tables.py"), str(runs)],
                             capture_output=True, text=True, cwd=folder)
        import json

        found = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else {"error": out.stderr[-500:]}
        found["bytes"] = size
        return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_PARSE_PROBE = """
import ast, gc, json, statistics, sys, time
gc.disable()
data = open(sys.argv[1], "rb").read()
kept, times = [], []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter(); kept.append(ast.parse(data)); times.append(time.perf_counter() - start)
print(json.dumps(statistics.median(times)))
"""


def build_many_loaders(path: Path, loaders: int) -> int:
    """``loaders`` lines ``xN = DataLoader([1], num_workers=2)`` after the import; its size."""
    lines = ["from torch.utils.data import DataLoader"] + [f"x{i} = DataLoader([1], num_workers=2)" for i in range(loaders)]
    path.write_text("\n".join(lines) + "\n")
    return path.stat().st_size


def measure_many_loaders(dl_lint: str, runs: int, loaders: int, env: Dict[str, str]) -> Dict[str, object]:
    """Median wall times of ``dl-lint --no-cache -j1 FILE`` and ``dl-lint --version``
    (interleaved), and of an in-process ``ast.parse`` of FILE; ``analysis`` is the difference of
    the first two. One unmeasured run first writes the bytecode."""
    import statistics

    python = Path(shutil.which(dl_lint) or dl_lint).with_name("python")
    folder = Path(tempfile.mkdtemp(prefix="dl-lint-bench-loaders-"))
    try:
        path = folder / "loaders.py"
        size = build_many_loaders(path, loaders)
        lint_cmd = [dl_lint, "--no-cache", "-j1", str(path)]
        version_cmd = [dl_lint, "--version"]
        first = subprocess.run(lint_cmd, capture_output=True, text=True, env=env, cwd=folder)
        if first.returncode not in (0, 1):
            return {"loaders": loaders, "bytes": size, "error": first.stderr[-500:]}
        lint, version = [], []
        for _ in range(runs):
            for times, command in ((lint, lint_cmd), (version, version_cmd)):
                start = time.perf_counter()
                subprocess.run(command, capture_output=True, env=env, cwd=folder)
                times.append(time.perf_counter() - start)
        out = subprocess.run([str(python), "-c", _PARSE_PROBE, str(path), str(runs)], capture_output=True, text=True)
        parse = float(out.stdout.strip())
        found = {"loaders": loaders, "bytes": size, "lint": statistics.median(lint), "version": statistics.median(version), "parse": parse}
        found["analysis"] = found["lint"] - found["version"]
        return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _loader_files(repo: str, count: int) -> List[str]:
    """``count`` files that construct a loader (sorted paths, tests and examples last): what a
    commit touching the data pipeline stages."""
    found = []
    for folder, dirs, names in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, "rb") as handle:
                    if b"DataLoader(" in handle.read():
                        found.append(path)
    found.sort(key=lambda p: (any(part in ("tests", "examples") for part in p.split(os.sep)), p))
    return found[:count]


def _loader_file(repo: str) -> Optional[str]:
    """The largest file of the repository that constructs a loader (what the edit touches)."""
    best = None
    for folder, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    data = open(path, "rb").read()
                except OSError:
                    continue
                if b"DataLoader(" in data and (best is None or len(data) > best[0]):
                    best = (len(data), path)
    return best[1] if best else None


def _files_parsed(dl_lint: str, root: Path) -> int:
    python = Path(shutil.which(dl_lint) or dl_lint).with_name("python")
    code = "import sys; from dl_lint.engine import lint_paths; print(lint_paths([sys.argv[1]], jobs=1).files_parsed)"
    out = subprocess.run([str(python), "-c", code, str(root)], capture_output=True, text=True)
    try:
        return int(out.stdout.strip())
    except ValueError:
        return -1


if __name__ == "__main__":
    sys.exit(main())
