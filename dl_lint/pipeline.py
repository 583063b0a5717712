"""The per-file work of ``lint_paths``: read, prefilter, analyse, judge; with the results cache
and worker processes.

1. Files whose cached entry is still valid (``dl_lint.cache``) are not read at all.
2. The others are read and prefiltered (bytes, then ``ast``); only candidates are parsed
   with libcst. Non-candidates keep no bytes in memory.
3. Candidates are analysed, then judged one by one while the project records what each one
   touched (the modules analysed for it, transitively, and whether the set of project files or
   the import graph was consulted): that is what its cache entry depends on.
   With enough candidates (``PARALLEL_MIN_CANDIDATES`` per job), this step runs in worker
   processes, each with its own ``Project`` over the same root (modules a worker needs are
   parsed on demand there: duplicated work, but no shared state). Without ``--jobs``, only as
   many workers start as keep the run under ``DEFAULT_MEMORY_CAP`` (often none: each worker
   comes to hold about what this process holds); ``--jobs N`` starts N regardless.
4. Loaders built from a function's parameters are judged at each call of the function
   (``engine._judge_call_sites``) in this process, once every file's factories are known.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from dl_lint.model import Diagnostic

# Worker processes pay for themselves only above this many candidate files per job: starting
# one costs about one libcst import (~0.2 s); a candidate costs 5-50 ms to analyse.
PARALLEL_MIN_CANDIDATES = 24
# Without --jobs, workers are started only while the run is expected to stay under this much
# memory in all (on a large project every worker holds its own view of the project index).
DEFAULT_MEMORY_CAP = 150 * 1024 * 1024
WORKER_EXTRA_BYTES = 24 * 1024 * 1024


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_files(files: Sequence[Any], project: Any, *, jobs: Optional[int] = None, store=None) -> Tuple[List[Diagnostic], int]:
    """Diagnostics of ``files`` (engine ``_File`` objects, discovered and configured) and how
    many were parsed with libcst. ``store``: the results cache (``dl_lint.cache.ResultsCache``),
    or None."""
    from dl_lint import engine

    run = _Run(files, project, store)
    out: List[Diagnostic] = []
    todo = []
    for file in files:
        if file.errors:
            out.extend(file.errors)  # unreadable folders and the like: never cached
            continue
        if store is not None:
            hit = run.lookup(file)
            if hit is not None:
                out.extend(hit)
                continue
        todo.append(file)

    candidates = []
    for file in todo:
        if store is not None:
            run.hash_file(file)
        engine._read(file)
        if engine._needs_analysis(file):
            candidates.append(file)
        else:
            out.extend(file.errors)  # unreadable files, broken notebooks (DL000)
            run.finish(file, list(file.errors), (), set(), set())
            if file.cell_map is None:
                file.data = b""  # read again only if the import graph or call sites need it
    explicit = jobs is not None
    jobs = default_jobs() if jobs is None else max(1, jobs)
    done = False
    if jobs > 1 and len(candidates) >= PARALLEL_MIN_CANDIDATES * jobs:
        done = _analyse_in_workers(run, candidates, jobs, out, explicit)
    if not done:
        _analyse_here(run, candidates, out)
    out.extend(run.call_sites())
    if store is not None:
        store.save()
    out.sort(key=Diagnostic.sort_key)
    return out, len(candidates)


class _Run:
    def __init__(self, files: Sequence[Any], project: Any, store) -> None:
        self.files = files
        self.project = project
        self.store = store
        self.keys = {id(f): f.abspath or os.path.abspath(f.path) for f in files}
        self.display = {self.keys[id(f)]: f.display for f in files}
        self.factories: Dict[str, Tuple[str, ...]] = {}  # abspath -> factory names
        self.hashes: Dict[str, Optional[str]] = {}  # abspath -> content hash (linted files)
        self._fingerprints: Dict[int, str] = {}
        self._files_hash: Optional[str] = None
        self._graph_hash: Optional[str] = None

    def key(self, file) -> str:
        return self.keys[id(file)]

    def fingerprint(self, settings) -> str:
        if id(settings) not in self._fingerprints:
            self._fingerprints[id(settings)] = settings.fingerprint()
        return self._fingerprints[id(settings)]

    # -- what entries depend on, besides files --------------------------------------------------
    def files_hash(self) -> str:
        """Which .py files the project index sees (adding or removing one can change how an
        import resolves)."""
        if self._files_hash is None:
            from dl_lint.cache import combined_hash

            self._files_hash = combined_hash(sorted({os.path.abspath(p) for p in self.project.files()}))
        return self._files_hash

    def graph_hash(self) -> str:
        """The contents of every file the import graph is built from (DL102 and the other
        program-wide signals)."""
        if self._graph_hash is None:
            from dl_lint.cache import combined_hash

            paths = {os.path.abspath(p) for p in self.project.files()}
            paths.update(self.keys[id(f)] for f in self.files if not f.errors)
            self._graph_hash = combined_hash(f"{p}:{self.store.hash_of(p)}" for p in sorted(paths))
        return self._graph_hash

    # -- cache ----------------------------------------------------------------------------------
    def hash_file(self, file) -> None:
        """Hash a file's bytes, reading them (once) unless its stat proves them unchanged."""
        key = self.key(file)
        if key in self.hashes:
            return
        try:
            st = os.stat(key)
        except OSError:
            self.hashes[key] = None  # engine._read reports it
            return
        value = self.store.trusted(key, st)
        if value is not None:
            self.hashes[key] = self.store.remember(key, value)
            return
        try:
            with open(key, "rb") as handle:
                data = handle.read()
        except OSError:
            self.hashes[key] = None
            return
        if not file.data:
            file.data = data
        self.hashes[key] = self.store.hash_of(key, data, st)

    def lookup(self, file) -> Optional[List[Diagnostic]]:
        self.hash_file(file)
        key = self.key(file)
        hit = self.store.lookup(
            key, self.hashes[key], self.fingerprint(file.settings), file.module_name, self, file.display
        )
        if hit is None:
            return None
        entry, diags = hit
        names = entry.get("fa") or ()
        if names:
            self.factories[key] = tuple(names)
        return diags

    def finish(self, file, diags: List[Diagnostic], factories, touched: Set[str], uses: Set[str]) -> None:
        """Record a freshly judged file: its factories, and its cache entry."""
        key = self.key(file)
        if factories:
            self.factories[key] = tuple(factories)
        if self.store is None or self.hashes.get(key) is None:
            return
        from dl_lint.cache import diagnostics_to_json

        entry: Dict[str, Any] = {
            "h": self.hashes[key],
            "s": self.fingerprint(file.settings),
            "m": file.module_name,
            "d": diagnostics_to_json(diags),
        }
        if factories:
            entry["fa"] = list(factories)
        self._depends(entry, touched - {key}, uses)
        self.store.store(key, entry)

    def _depends(self, entry: Dict[str, Any], touched: Set[str], uses: Set[str]) -> None:
        if touched:
            entry["deps"] = {p: self.store.hash_of(p) for p in sorted(touched)}
        if "files" in uses:
            entry["fs"] = self.files_hash()
        if "graph" in uses:
            entry["gs"] = self.graph_hash()

    # -- loaders built from parameters, judged at the calls -------------------------------------
    def call_sites(self) -> List[Diagnostic]:
        from dl_lint import engine

        if not self.factories:
            if self.store is not None and self.store.callsites is not None:
                self.store.set_callsites(None)
            return []
        phase_key = None
        if self.store is not None:
            from dl_lint.cache import combined_hash, diagnostic_from_json

            linted = sorted(
                f"{self.key(f)}:{self.hashes.get(self.key(f))}:{self.fingerprint(f.settings)}:{f.module_name}"
                for f in self.files
                if not f.errors
            )
            factories = sorted(f"{p}:{','.join(n)}" for p, n in self.factories.items())
            phase_key = combined_hash([*factories, "|", *linted])
            record = self.store.callsites
            try:
                if (
                    record is not None
                    and record["k"] == phase_key
                    and self.store.deps_valid(record)
                    and ("fs" not in record or record["fs"] == self.files_hash())
                    and ("gs" not in record or record["gs"] == self.graph_hash())
                ):
                    return [diagnostic_from_json(d, self.display.get(p, p)) for p, d in record["d"]]
            except Exception:  # noqa: BLE001 - a malformed record is a miss
                pass
        involved = self._call_site_files()
        for file in involved:  # callees need their facts (workers do not send them back)
            if self.key(file) in self.factories and file.facts is None and not file.errors:
                engine._analyse(file, self.project)
        touched: Set[str] = set()
        uses: Set[str] = set()
        self.project.record(touched, uses)
        try:
            diags = engine._judge_call_sites(involved, self.project, engine._accelerator_for(self.files, self.project))
        finally:
            self.project.stop_recording()
        if self.store is not None:
            from dl_lint.cache import diagnostic_to_json

            by_display = {d: p for p, d in self.display.items()}
            seen, used = self.project.dependencies(touched, uses)
            record = {"k": phase_key, "d": [[by_display.get(d.filename, d.filename), diagnostic_to_json(d)] for d in diags]}
            self._depends(record, seen, used)
            self.store.set_callsites(record)
        return diags


    def _call_site_files(self) -> List[Any]:
        """The files the call-site phase can need: those whose bytes name a factory that may be
        called (its name occurs in another file, or twice in its own), and those factories'
        files. Any call of a factory contains its name, so nothing else can matter."""
        from dl_lint import engine

        names = {name.encode() for names in self.factories.values() for name in names}
        occurs: Dict[str, Set[bytes]] = {}
        seen_in: Dict[bytes, int] = {}
        for file in self.files:
            if file.errors:
                continue
            data = file.data
            if not data:
                if engine.is_notebook_path(file.path):
                    engine._read(file)
                    data = file.data
                else:  # kept below only if it names a factory
                    try:
                        data = file.path.read_bytes()
                    except OSError:
                        data = b""
            if len(names) <= 16:
                found = {n for n in names if n in data}
            else:  # many factories: one pass over the words instead of one search per name
                found = names.intersection(_WORDS.findall(data))
            if found:
                file.data = data
                occurs[self.key(file)] = found
                for name in found:
                    seen_in[name] = seen_in.get(name, 0) + 1
        called: Set[bytes] = set()
        by_key = {self.key(f): f for f in self.files}
        for key, own in self.factories.items():
            data = (by_key[key].data if key in by_key else b"") or b""
            for name in own:
                encoded = name.encode()
                if seen_in.get(encoded, 0) > 1 or data.count(encoded) > 1:
                    called.add(encoded)
        if not called:
            return []
        return [
            f
            for f in self.files
            if occurs.get(self.key(f), set()) & called
            or any(n.encode() in called for n in self.factories.get(self.key(f), ()))
        ]


_WORDS = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


# -- analysing candidates ----------------------------------------------------------------------


def _analyse_here(run: _Run, candidates: Sequence[Any], out: List[Diagnostic]) -> None:
    for chunk in _by_budget(candidates):
        for index, diags, factories, touched, uses in _analyse_and_judge(run.project, run.files, chunk):
            file = chunk[index]
            out.extend(diags)
            run.finish(file, diags, factories, touched, uses)


def _by_budget(candidates: Sequence[Any]) -> List[List[Any]]:
    """Consecutive groups of candidates whose analyses fit in memory together (about half the
    project's budget, so that what they import fits too): each group is analysed, then judged,
    before the next one is parsed."""
    from dl_lint.analysis.project import LIVE_SOURCE_BUDGET, MODULE_WEIGHT

    chunks: List[List[Any]] = []
    size = 0
    for file in candidates:
        length = len(file.data or b"") + MODULE_WEIGHT
        if not chunks or size + length > LIVE_SOURCE_BUDGET // 2:
            chunks.append([])
            size = 0
        chunks[-1].append(file)
        size += length
    return chunks


def _analyse_and_judge(project, files, candidates: Sequence[Any]):
    """Analyse every candidate first (so that each is registered in the project before any is
    judged, as a linted module), then judge each; yield (index, diagnostics, factory names,
    modules it depends on, what else it consulted)."""
    from dl_lint import engine

    recorded = []
    for file in candidates:
        touched: Set[str] = set()
        uses: Set[str] = set()
        project.record(touched, uses)
        try:
            engine._analyse(file, project)
        finally:
            project.stop_recording()
        recorded.append((touched, uses))
    accelerator = engine._accelerator_for(files, project)
    for index, file in enumerate(candidates):
        touched, uses = recorded[index]
        project.record(touched, uses)
        try:
            diags = engine._judge([file], project, accelerator, call_sites=False)
        finally:
            project.stop_recording()
        key = os.path.abspath(file.path)
        seen, used = project.dependencies(touched | {key}, uses)
        factories = tuple(name for name, _ in file.facts.factories) if file.facts is not None else ()
        yield index, diags, factories, seen, used


_WORKER: Dict[str, Any] = {}
# Loader arguments that make a rule ask for a program-wide signal (DL102, DL202, DL301).
_GRAPH_WORDS = (b"pin_memory", b"multiprocessing_context", b"cpu_count")


class _NoCall:
    """A stand-in loader call: asking about it builds the import graph, nothing more."""

    path = ""


def _start_worker(payload) -> None:
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's terminate() ends workers at once
    if "project" in payload:  # fork: the parent's objects, inherited
        _WORKER.update(payload)
        _WORKER["project"].budget = payload["budget"]
        return
    from dl_lint.analysis.project import Project

    project = Project(payload["root"], payload["extra_loaders"])
    project.budget = payload["budget"]
    if payload["seeded"] is not None:
        project.seed_files(payload["seeded"])
    _WORKER.update(project=project, files=payload["files"], candidates=payload["candidates"])


def _work(indices: Sequence[int]):
    project, files, candidates = _WORKER["project"], _WORKER["files"], _WORKER["candidates"]
    chunk = [candidates[i] for i in indices]
    results = []
    for local, diags, factories, seen, used in _analyse_and_judge(project, files, chunk):
        results.append((indices[local], diags, factories, sorted(seen), sorted(used)))
    return results


def _resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def _analyse_in_workers(run: _Run, candidates: Sequence[Any], jobs: int, out: List[Diagnostic], explicit: bool = True) -> bool:
    """Analyse and judge the candidates in ``jobs`` worker processes; False (nothing done) if
    the pool cannot be used, and the caller does it here. Unless the number of jobs was asked
    for (``explicit``), fewer workers are started, or none, when ``jobs`` of them would take
    the run over DEFAULT_MEMORY_CAP."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    fork = sys.platform.startswith("linux") and "fork" in methods
    context = multiprocessing.get_context("fork" if fork else None)
    if fork:
        # What every worker would otherwise do again: import libcst, and (when a rule will ask
        # for a program-wide signal) read every project file for the import graph.
        import dl_lint.analysis.module  # noqa: F401
        from dl_lint import engine

        if any(any(word in (f.data or b"") for word in _GRAPH_WORDS) for f in candidates):
            engine._accelerator_for(run.files, run.project)(_NoCall())
        payload: Dict[str, Any] = {"project": run.project, "files": run.files, "candidates": candidates}
    else:
        payload = {
            "root": run.project.root,
            "extra_loaders": run.project.extra_loaders,
            "seeded": run.project._seeded,
            "files": run.files,
            "candidates": candidates,
        }
    # The memory budget for parsed modules is shared: together the workers keep what one
    # process would (more parsing again of modules many files import, flat memory).
    if not explicit:
        # Each forked worker comes to hold about what this process holds now (inherited pages
        # are copied as reference counts touch them) plus its share of the parse budget.
        rss = _resident_bytes()
        jobs = min(jobs, max(0, (DEFAULT_MEMORY_CAP - rss) // (rss + WORKER_EXTRA_BYTES)))
        if jobs < 2:
            return False  # one worker is no faster than this process
    from dl_lint.analysis.project import LIVE_SOURCE_BUDGET

    payload["budget"] = LIVE_SOURCE_BUDGET // jobs
    # Largest first, in small chunks: the pool balances the long tail.
    order = sorted(range(len(candidates)), key=lambda i: -len(candidates[i].data or b""))
    size = max(1, min(8, len(order) // (jobs * 4)))
    chunks = [order[i : i + size] for i in range(0, len(order), size)]
    results = []
    try:
        with context.Pool(jobs, initializer=_start_worker, initargs=(payload,)) as pool:
            for part in pool.imap_unordered(_work, chunks):
                results.extend(part)
    except (OSError, ImportError, RuntimeError, EOFError, AttributeError, TypeError) as exc:  # noqa: F841
        return False  # e.g. no /dev/shm for the pool's locks, or unpicklable state
    for index, diags, factories, seen, used in results:
        file = candidates[index]
        out.extend(diags)
        run.finish(file, diags, factories, set(seen), set(used))
    return True
