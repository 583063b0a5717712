"""The per-file work of ``lint_paths``: read, prefilter, analyse, judge; with the results cache
and worker processes.

1. Files whose cached entry is still valid (``dl_lint.cache``) are not read at all.
2. The others are read; a file that never mentions a loader name needs nothing more.
3. The rest are parsed once each (``ast``), summarised for the project index, and analysed
   when they may construct a loader; then judged, while the project records what each one
   touched (the modules whose summaries it used, transitively, and whether the set of project
   files or the import graph was consulted): that is what its cache entry depends on.
   With enough of them (``PARALLEL_MIN_CANDIDATES`` per job) they are shared out between
   processes (``dl_lint.workers``).
4. Loaders built from a function's parameters are judged at each call of the function
   (``judge.judge_call_sites``), once every file's factories are known.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from dl_lint.files import SourceFile, is_notebook_path, read, read_module
from dl_lint.judge import STAGE_HOOKS, accelerator_for, analyse, called_name, construct_evidence, judge, judge_each, merge_repeats, parse_only
from dl_lint.model import Diagnostic
from dl_lint.reading import Refused

# Worker processes pay for themselves only above this many candidate bytes per job: forking
# one costs a few milliseconds; parsing and analysing costs about 0.3 ms per KB.
PARALLEL_MIN_BYTES = 96 * 1024
# Without --jobs, worker processes are started only while the run is expected to stay under this
# much memory in all; a worker adds about what this process holds, plus its share's trees.
DEFAULT_MEMORY_CAP = 150 * 1024 * 1024
WORKER_EXTRA_BYTES = 24 * 1024 * 1024
# ... unless the analysis itself is long: candidates of at least this many bytes take about a
# second alone (0.3 ms per KB), and a worker halves that for about what this process holds. Then
# the run may hold up to LONG_RUN_MEMORY_CAP (diffusers: 3.8 s and 317 MB in one process, 2.5 s
# and 405 MB in two; ruff 1.0 s). A generated tree of 20,000 small files, whose time goes to
# reading them, stays in one process (forking made it slower and doubled its memory).
LONG_ANALYSIS_BYTES = 3 * 1024 * 1024
LONG_RUN_MEMORY_CAP = 512 * 1024 * 1024
# Bytes of files that need no analysis kept in memory for the call-site phase (which searches
# every file for calls of factories): reading them again costs more than keeping them.
KEEP_BYTES = 48 * 1024 * 1024


def _resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        import resource
        import sys

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_files(
    files: Sequence[SourceFile],
    project: Any,
    *,
    jobs: Optional[int] = None,
    store=None,
    wait_for_workers: bool = True,
) -> Tuple[List[Diagnostic], int, int]:
    """Diagnostics of ``files`` (discovered and configured), how many were parsed, and how many
    processes analysed them. ``store``: the results cache (``dl_lint.cache.ResultsCache``), or
    None. ``wait_for_workers=False`` (a process that exits right after) leaves the worker
    processes to exit on their own once told there is nothing more."""
    run = Run(files, project, store)
    out: List[Diagnostic] = []
    todo = []
    deferred = []  # valid unless a file they read through its summary changed that summary
    for file in files:
        if file.errors:
            out.extend(file.errors)  # unreadable folders and the like: never cached
            continue
        if store is not None:
            hit = run.lookup(file)
            if hit is not None:
                out.extend(hit)
                continue
            if run.may_still_hold(file):
                deferred.append(file)
                continue
        todo.append(file)
    parsed, processes = _read_and_analyse(run, todo, out, jobs)
    if deferred:  # the changed files are summarised now: compare their summaries
        again = []
        for file in deferred:
            hit = run.lookup(file, digests=True)
            if hit is not None:
                out.extend(hit)
            else:
                again.append(file)
        parsed += _read_and_analyse(run, again, out, 1)[0]
    try:
        out.extend(run.call_sites())
    finally:
        if run.helpers is not None:
            run.helpers.close(wait=wait_for_workers)
    if store is not None:
        run.keep_imports()
        run.save_snapshot()
        # an unchanged file (judged from the cache) whose summary the store holds is not summarised again
        store.save(project.summaries_to_store(lambda key: key not in run.fresh and store.holds_summary(key)))
    out = merge_repeats(out)
    out.sort(key=Diagnostic.sort_key)
    return out, parsed, processes


def _read_and_analyse(run: "Run", todo: Sequence[SourceFile], out: List[Diagnostic], jobs: Optional[int]) -> Tuple[int, int]:
    """Read, prefilter, analyse and judge files the cache did not answer; how many were parsed,
    and in how many processes."""
    project, store = run.project, run.store
    found = []  # (file, evidence): what in its bytes can construct a loader
    kept = 0
    for file in todo:
        if store is not None:
            run.hash_file(file)
        read(file)
        evidence = construct_evidence(file)
        if evidence is not None:
            found.append((file, evidence))
            if file.cell_map is None:
                project.sources[file.key] = file.data
        else:
            out.extend(file.errors)  # unreadable files, broken notebooks (DL000)
            run.finish(file, list(file.errors), (), set(), set())
            kept += len(file.data)
            if kept > KEEP_BYTES and file.cell_map is None:
                file.data = b""  # read again only if the import graph or call sites need it
            elif file.data and file.cell_map is None:
                project.sources[file.key] = file.data
    candidates = []
    for file, names in found:
        uses: Set[str] = set()
        project.record(set(), uses)
        # A file whose only evidence is class-like names (``DataLoaderConfiguration(``) needs
        # a parse only if some project file can make one of them a loader class; decided once
        # every file is read (the entry rests on the files that hold those names: "word:").
        if not names or any(project.may_name_loader_class(name, file.settings.extra_loaders) for name in sorted(names)):
            candidates.append(file)
        else:
            run.finish(file, [], (), set(), {"graph"})
    explicit = jobs is not None
    jobs = default_jobs() if jobs is None else max(1, jobs)
    candidate_bytes = sum(len(f.data) for f in candidates)
    if not explicit and jobs > 1:
        # Each forked worker comes to hold about what this process holds now (inherited pages
        # are copied as reference counts touch them): without --jobs, fork only while the run
        # is expected to stay under DEFAULT_MEMORY_CAP (a 20,000-file tree stays in one process),
        # or LONG_RUN_MEMORY_CAP when the analysis is long enough to pay for the memory.
        rss = _resident_bytes()
        cap = LONG_RUN_MEMORY_CAP if candidate_bytes >= LONG_ANALYSIS_BYTES else DEFAULT_MEMORY_CAP
        jobs = min(jobs, max(1, cap // (rss + WORKER_EXTRA_BYTES)))
    run.analysed.update(f.key for f in candidates)
    processes = 1
    if jobs > 1 and len(candidates) > 1 and candidate_bytes >= PARALLEL_MIN_BYTES * jobs:
        from dl_lint import workers

        project.container_files()  # read once, before forking, so the workers share them (DL104)

        processes = workers.analyse_in_workers(run, candidates, jobs, out, analyse_and_judge)
    if processes == 1:
        for index, diags, factories, seen, used in analyse_and_judge(project, run, candidates):
            out.extend(diags)
            run.finish(candidates[index], diags, factories, seen, used)
    return len(candidates), processes


def analyse_and_judge(project: Any, run: "Run", candidates: Sequence[SourceFile]):
    """Analyse and judge each candidate in turn; yield (index, diagnostics, factory names,
    modules its result depends on, what else it consulted)."""
    accelerator = accelerator_for(run.files, project)
    for index, file in enumerate(candidates):
        key = file.key
        touched: Set[str] = {key}
        uses: Set[str] = set()
        project.record(touched, uses)
        try:
            analyse(file, project, run.hashes.get(key))
            diags = judge([file], project, accelerator)
        finally:
            project.stop_recording()
        seen, used = project.dependencies(touched, uses)
        factories = tuple(name for name, _ in file.facts.factories) if file.facts is not None else ()
        project.release_dropped()
        yield index, diags, factories, seen, used


class Run:
    def __init__(self, files: Sequence[SourceFile], project: Any, store) -> None:
        self.files = files
        self.project = project
        self.store = store
        self.display = {f.key: f.display for f in files}
        self.by_key = {f.key: f for f in files}
        # ``_FactoryCalls._subclass_words`` by the method factories' classes: the call-site
        # phase builds its search more than once, the bytes it reads do not change
        self.subclass_words: Dict[FrozenSet[bytes], Dict[bytes, Tuple[bytes, ...]]] = {}
        self.fresh: Set[str] = set()  # files judged in this run (not answered by the cache)
        # files analysed in this run (in this process or a worker): they build a loader, so no
        # builder is derived from them (``_derive_builders``) whichever process analysed them
        self.analysed: Set[str] = set()
        self.helpers = None  # worker processes still holding their shares (dl_lint.workers)
        self.factories: Dict[str, Tuple[str, ...]] = {}  # abspath -> factory names
        self.hashes: Dict[str, Optional[str]] = {}  # abspath -> content hash (linted files)
        self._fingerprints: Dict[int, str] = {}
        self._environment: Optional[str] = None
        self._files_hash: Optional[str] = None
        self._graph_hash: Optional[str] = None
        self._graph_files: Optional[Dict[str, Optional[str]]] = None
        self._changed: Optional[List[str]] = None  # files changed since the stored snapshot
        self._word_found: Dict[str, bool] = {}
        self._mentioned: Dict[str, bool] = {}  # word -> written by a file changed since the snapshot
        self.word_entries = False  # an entry rests on names ("nw"): keep a snapshot
        self._listing_hashes: Dict[str, str] = {}  # config folder -> its listing's hash ("cl")
        if store is not None:
            project.hash_of = store.hash_of
            project.remembered = self.remembered

    def fingerprint(self, settings) -> str:
        """The settings' fingerprint, with what of the project besides its Python files changes
        results (``Project.environment_key``: requires-python, classifiers)."""
        if id(settings) not in self._fingerprints:
            if self._environment is None:
                from dl_lint.cache import combined_hash

                self._environment = combined_hash([self.project.environment_key()])
            self._fingerprints[id(settings)] = f"{settings.fingerprint()}:{self._environment}"
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

            self._graph_hash = combined_hash(f"{p}:{h}" for p, h in sorted(self.graph_files().items()))
        return self._graph_hash

    def graph_files(self) -> Dict[str, Optional[str]]:
        """Every project file and linted file, with its content hash."""
        if self._graph_files is None:
            paths = {os.path.abspath(p) for p in self.project.files()}
            paths.update(f.key for f in self.files if not f.errors)
            self._graph_files = {p: self.store.hash_of(p) for p in sorted(paths)}
        return self._graph_files

    def listing_hash(self, folder: str) -> str:
        """Which config files a config folder holds (``configs.keypaths.list_folder``), once per run."""
        found = self._listing_hashes.get(folder)
        if found is None:
            from dl_lint.analysis.configs.keypaths import list_folder
            from dl_lint.cache import combined_hash

            found = self._listing_hashes[folder] = combined_hash(list(list_folder(folder)))
        return found

    def listings_hold(self, entry: Dict[str, Any]) -> bool:
        """An entry that rests on config folders' listings ("cl"): each folder holds the same files."""
        listed = entry.get("cl")
        return isinstance(listed, dict) and all(self.listing_hash(folder) == value for folder, value in listed.items())

    def words_hold(self, entry: Dict[str, Any]) -> bool:
        """An entry that rests on names no project file made a loader class ("nw", looked up
        when the files were in state "ng"): still valid when no file that changed since then
        binds one of those names (a file that lost a binding cannot make one a loader class).
        Likewise an entry that rests on words no other file writes ("nm": the callers of a
        function, ``Project.callers_of``; no ``non_blocking=True``): valid while no file that
        changed since writes one (``project.mentions``). Brought up to date with the current
        state when it holds."""
        words = entry.get("nw") or ()
        mentioned = entry.get("nm") or ()
        if not words and not mentioned:
            return True
        current = self.graph_hash()
        self.word_entries = True
        if entry.get("ng") == current:
            return True
        snapshot = self.store.graph_snapshot
        if not isinstance(snapshot, dict) or snapshot.get("h") != entry.get("ng") or not isinstance(snapshot.get("f"), dict):
            return False
        if not self._unchanged_words(snapshot, words) or not self._unmentioned(snapshot, mentioned):
            return False
        entry["ng"] = current
        self.store.dirty = True
        return True

    def _changed_since(self, snapshot: Dict[str, Any]) -> List[str]:
        """The files changed (or new) since ``snapshot`` (the same snapshot all run)."""
        if self._changed is None:
            old = snapshot["f"]
            self._changed = [p for p, h in self.graph_files().items() if old.get(p) != h]
        return self._changed

    def _unchanged_words(self, snapshot: Dict[str, Any], words) -> bool:
        """No file that changed since ``snapshot`` (or is new) binds one of ``words``
        (``prefilter.binds_any``)."""
        from dl_lint.analysis.prefilter import binds_any

        changed = self._changed_since(snapshot)
        for word in words:
            if word not in self._word_found:
                self._word_found[word] = any(binds_any(self.project.source_bytes(p), (word,)) for p in changed)
            if self._word_found[word]:
                return False
        return True

    def _unmentioned(self, snapshot: Dict[str, Any], words) -> bool:
        """No file that changed since ``snapshot`` (or is new) writes one of ``words``
        (``project.mentions``)."""
        if not words:
            return True
        from dl_lint.analysis.project import mentions

        changed = self._changed_since(snapshot)
        for word in words:
            found = self._mentioned.get(word)
            if found is None:
                found = self._mentioned[word] = any(mentions(self.project.source_bytes(p), word) for p in changed)
            if found:
                return False
        return True

    def remembered(self, key: Tuple[str, Tuple[str, ...]]) -> Optional[Tuple[bool, frozenset]]:
        """An answer of ``Project.may_name_loader_class`` from an earlier run, if it still holds:
        a yes always may (it only sends the name to the resolver, which decides), a no while no
        file that changed since binds one of the names it looked up."""
        snapshot = self.store.graph_snapshot if self.store is not None else None
        if not isinstance(snapshot, dict) or not isinstance(snapshot.get("n"), dict) or not isinstance(snapshot.get("f"), dict):
            return None
        record = snapshot["n"].get(_name_key(key))
        if not (isinstance(record, list) and len(record) == 2 and isinstance(record[1], list)):
            return None
        can, words = bool(record[0]), frozenset(record[1])
        if not can and snapshot.get("h") != self.graph_hash() and not self._unchanged_words(snapshot, words):
            return None
        return can, words

    def save_snapshot(self) -> None:
        """Keep the state of every file, for the entries that rest on names ("nw"), with the
        answers about names this run gave or found still valid."""
        if self.store is None:
            return
        answers = {_name_key(k): [can, sorted(words)] for k, (can, words) in self.project.name_answers().items()}
        snapshot = self.store.graph_snapshot
        kept = snapshot.get("n") if isinstance(snapshot, dict) else None
        if not (self.word_entries or answers or kept):
            return
        current = self.graph_hash()
        same = isinstance(snapshot, dict) and snapshot.get("h") == current
        if isinstance(kept, dict):
            # Earlier answers this run did not ask for: all of them while no file changed; else
            # the yeses (a yes only sends a name to the resolver); a no asked for again was
            # re-checked (``remembered``) and is among this run's answers.
            answers = {**{k: v for k, v in kept.items() if same or (isinstance(v, list) and v and v[0])}, **answers}
        if not same or snapshot.get("n") != answers:
            self.store.set_graph_snapshot({"h": current, "f": self.graph_files(), "n": answers})

    # -- cache ----------------------------------------------------------------------------------
    def keep_imports(self) -> None:
        """Give the results cache the import statements of every Python file this run read and
        hashed (``analysis.project.raw_imports``, from the bytes the run holds), so that the next
        partial run builds its import graph from the cache. Only the files the graph reached
        were kept before, and the files the run held were not: the first pre-commit run after a
        full one on Lightning read the imports of 600 files from their bytes (its neighbourhood
        took 115 ms, the next runs' 33 ms). Costs one scan of bytes already in memory."""
        kept = self.store.imports
        for file in self.files:
            key = file.key
            content_hash = self.hashes.get(key)
            if content_hash is None or file.cell_map is not None or not key.endswith(".py"):
                continue
            entry = kept.get(key)
            if isinstance(entry, list) and entry and entry[0] == content_hash:
                continue
            data = file.data or self.project.sources.get(key) or b""
            if not data and (self.store.stats.get(key) or [None])[0] != 0:
                data = None  # not held (``KEEP_BYTES``): the graph reads it when it needs it
            self.project.keep_imports(key, content_hash, data)

    def hash_file(self, file: SourceFile) -> None:
        """Hash a file's bytes, reading them (once) unless its stat proves them unchanged."""
        key = file.key
        if key in self.hashes:
            return
        if key in self.store.overlays:  # an unsaved buffer: hashed from its text
            self.hashes[key] = self.store.hash_of(key)
            return
        try:
            st = os.stat(key)
        except OSError:
            self.hashes[key] = None  # read() reports it
            return
        value = self.store.trusted(key, st)
        if value is not None:
            self.hashes[key] = self.store.remember(key, value)
            return
        try:
            data = read_module(key, file.settings.max_file_size)
        except Refused:
            self.hashes[key] = None  # read() reports it
            return
        if not file.data:
            file.data = data
        self.hashes[key] = self.store.hash_of(key, data, st)

    def lookup(self, file: SourceFile, digests: bool = False) -> Optional[List[Diagnostic]]:
        """The cached diagnostics of ``file`` if its entry still holds; with ``digests``, a
        dependency whose bytes changed counts as unchanged when its summary is."""
        self.hash_file(file)
        key = file.key
        hit = self.store.lookup(
            key,
            self.hashes[key],
            self.fingerprint(file.settings),
            file.module_name,
            self,
            file.display,
            self.project.summary_digest if digests else None,
        )
        if hit is None:
            return None
        entry, diags = hit
        names = entry.get("fa") or ()
        if names:
            self.factories[key] = tuple(names)
        return diags

    def _derive_builders(self, involved: List[SourceFile]) -> Dict[str, Tuple[str, ...]]:
        """Builders among the files that call a factory (``ModuleAnalysis._builder_call``:
        pix2pixHD's ``CreateDataLoader(opt)`` makes a ``CustomDatasetDataLoader``, calls its
        ``initialize(opt)`` method factory, and returns it), in modules that build no loader
        themselves (not parsed before): their factory names, by file. Their callers are then
        call sites too. One step: a builder of a builder is not followed."""
        derived: Dict[str, Tuple[str, ...]] = {}
        methods = {name.rsplit(".", 1)[1] for names in self.factories.values() for name in names if "." in name}
        if not methods:
            return derived
        for file in involved:
            if file.key in self.factories or file.errors or not file.data or b"return" not in file.data:
                continue
            if (file.key in self.analysed or file.facts is not None) and "__init__" not in methods:
                continue  # analysed, without factories: only a construction builder may be new there
            try:
                analysis = parse_only(file, self.project, self.hashes.get(file.key))
                facts = analysis.builder_facts(methods) if analysis is not None else None
            except (RecursionError, MemoryError, Exception):  # noqa: BLE001 - a builder not read is unknown
                facts = None  # (the file's own findings, and any DL000, come from its own analysis)
            if facts is not None:
                file.facts = facts
                derived[file.key] = tuple(name for name, _ in facts.factories)
        return derived

    def may_still_hold(self, file: SourceFile) -> bool:
        key = file.key
        return self.store.stale_only_by_summaries(key, self.hashes.get(key), self.fingerprint(file.settings), file.module_name)

    def finish(self, file: SourceFile, diags: List[Diagnostic], factories, touched: Set[str], uses: Set[str]) -> None:
        """Record a freshly judged file: its factories, and its cache entry."""
        key = file.key
        self.fresh.add(key)
        if factories:
            self.factories[key] = tuple(factories)
        if self.store is None or self.hashes.get(key) is None:
            return
        from dl_lint.cache import diagnostics_to_json

        entry: Dict[str, Any] = {
            "h": self.hashes[key],
            "s": self.fingerprint(file.settings),
            "m": file.module_name,
            "d": diagnostics_to_json(diags, file.display),
        }
        if factories:
            entry["fa"] = list(factories)
        self._depends(entry, touched - {key}, uses)
        self.store.store(key, entry)

    def _depends(self, entry: Dict[str, Any], touched: Set[str], uses: Set[str]) -> None:
        """What an entry rests on: each file it touched, by its bytes' hash and, when it was
        read only through its summary, the summary's digest (an edit that leaves the summary
        alone leaves the entry valid); the set of project files; the import graph."""
        from dl_lint.analysis.project import ABSENT, LONE, NO_SETTER, STORES

        # Files read only for a fact of their bytes, not through their summary: a lone class
        # statement (LONE), a word they lack (ABSENT, ``may_hold``), bytes that rule out a
        # keyword setter (NO_SETTER, ``setattr_config``), or assign ``self.attr`` other than
        # once (STORES, ``stores_once``). Each use is ``kind:path\0name``, its kind the marker's.
        partial: Dict[str, Dict[str, List[str]]] = {marker: {} for marker in (LONE, ABSENT, NO_SETTER, STORES)}
        for use in uses:
            kind, colon, rest = use.partition(":")
            found = partial.get(f"\0{kind}:") if colon else None
            if found is not None:
                path, name = rest.split("\0", 1)
                if path not in touched:
                    found.setdefault(path, []).append(name)
        if touched or any(partial.values()):
            deps = {}
            for path in sorted(touched):
                digest, module = None, ""
                if f"content:{path}" not in uses:
                    module = self.project.summarised_as(path)
                    digest = self.project.summary_digest(path, module) if module else None
                deps[path] = [self.store.hash_of(path), digest, module]
            for path in sorted(set().union(*partial.values())):
                module = "".join(marker + ",".join(sorted(set(found[path]))) for marker, found in partial.items() if path in found)
                deps[path] = [self.store.hash_of(path), self.project.summary_digest(path, module), module]
            entry["deps"] = deps
        if "files" in uses:
            entry["fs"] = self.files_hash()
        if "graph" in uses:
            entry["gs"] = self.graph_hash()
        folders = sorted(u[8:] for u in uses if u.startswith("listing:"))
        if folders:  # config folders listed for the runs of a loaded config (``configs.keypaths``)
            entry["cl"] = {folder: self.listing_hash(folder) for folder in folders}
        words = sorted(u[5:] for u in uses if u.startswith("word:"))
        if words:
            entry["nw"] = words
        from dl_lint.analysis.project import MENTION  # (the analysis ran: it is imported)

        mentioned = sorted(u[len(MENTION) :] for u in uses if u.startswith(MENTION))
        if mentioned:  # answers that hold while no file changed since writes these words
            entry["nm"] = mentioned
        if words or mentioned:
            entry["ng"] = self.graph_hash()
            self.word_entries = True

    # -- loaders built from parameters, judged at the calls -------------------------------------
    def call_sites(self) -> List[Diagnostic]:
        """Loaders built from a function's parameters, judged at each call of the function.
        Cached as one record: it holds while the factories are the same, the files involved
        (callers and factories) are unchanged, and no file changed since calls one. When it no
        longer holds as a whole, the callers whose own part still holds keep their findings and
        the others are judged again (``_holding_callers``)."""
        if not self.factories:
            if self.store is not None and self.store.callsites is not None:
                self.store.set_callsites(None)
            return []
        factories = sorted(f"{p}:{','.join(n)}" for p, n in self.factories.items())
        search = _FactoryCalls(self)
        derived: Dict[str, Tuple[str, ...]] = {}
        if self.store is not None:
            from dl_lint.cache import diagnostic_from_json

            record = self.store.callsites
            try:
                if record is not None and record.get("dv"):
                    # builders found among the callers last time: a new file calling one is a caller too
                    search = _FactoryCalls(self, {k: tuple(v) for k, v in record["dv"].items()})
                outside = self._outside_of(record) if record is not None else None
                if (
                    record is not None
                    and record["fa"] == factories
                    and all(self._state(key) == state for key, state in record["files"].items())
                    and not any(
                        search.called_in(f)
                        for f in self.files
                        if f.key not in record["files"] and (f.key in self.fresh or outside(f.key))
                    )
                    and not self._moved(record).intersection(record.get("cd", ()))
                    and self.store.deps_valid(record, self.project.summary_digest)
                    and ("fs" not in record or record["fs"] == self.files_hash())
                    and ("gs" not in record or record["gs"] == self.graph_hash())
                    and self.words_hold(record)
                ):
                    return [diagnostic_from_json(d, self.display.get(p, p)) for p, d in record["d"]]
            except Exception:  # noqa: BLE001 - a malformed record is a miss
                pass
            try:
                parts = self._holding_callers(record, factories, search) if record is not None else None
            except Exception:  # noqa: BLE001 - a malformed record is judged again whole
                parts = None
            if parts is not None:
                holding, involved, carried = parts
                again = [f for f in involved if f.key not in holding]
                derived = self._derive_builders(again)
                if not derived:  # (a new builder makes new callers: judged again whole, below)
                    # the factories those callers may call (their names are in their bytes)
                    named = {name for f in again for name in search._calls(f)}
                    factory_files = [f for f in involved if f.key in self.factories]
                    for file in factory_files:
                        if any(name.encode() in named for name in self.factories[file.key]):
                            self._give_facts(file)
                    diags, records = judge_each(again, factory_files, self.project, accelerator_for(self.files, self.project))
                    kept = [diagnostic_from_json(d, self.display.get(p, p)) for p, d in record["d"] if p in holding]
                    self._store_record(factories, {}, involved, kept + diags, records, record, holding, carried)
                    return kept + diags
        search = _FactoryCalls(self)
        involved = search.involved()
        derived.update(self._derive_builders(involved))
        if derived:
            search = _FactoryCalls(self, derived)
            involved = search.involved()
        factory_files = [f for f in involved if f.key in self.factories or f.key in derived]
        mine = list(involved)
        records: Dict[str, Tuple[Set[str], Set[str], Set[str]]] = {}
        answers: List[Tuple[List[Diagnostic], Dict[str, Tuple[Set[str], Set[str], Set[str]]]]] = []
        pending = None
        for file in involved:  # callees need their facts (the cache does not keep them)
            self._give_facts(file)
        if self.helpers is not None and self.helpers.children:
            # The calls in a worker's share are judged there, on the trees it kept, while this
            # process judges the calls in its own share.
            tasks: Dict[int, Tuple[List[str], List[str], Dict[str, Any]]] = {}
            facts = {f.key: f.facts for f in factory_files}
            keys = [f.key for f in factory_files]
            for file in involved:
                child = self.helpers.share_of(file.key)
                if child is not None:
                    tasks.setdefault(id(child), ([], keys, facts))[0].append(file.key)
            if tasks:
                pending = self.helpers.send(tasks)
                mine = [f for f in involved if self.helpers.share_of(f.key) is None]
        accelerator = accelerator_for(self.files, self.project)
        diags, records = judge_each(mine, factory_files, self.project, accelerator)
        if pending is not None:
            answers, failed = self.helpers.collect(pending)
            redo = {key for task in failed for key in task[0]}
            if redo:  # a worker that did not answer: its calls are judged here
                found, more = judge_each([f for f in involved if f.key in redo], factory_files, self.project, accelerator)
                diags.extend(found)
                records.update(more)
        for found, each in answers:
            diags.extend(found)
            records.update(each)
        if self.store is not None:
            self._store_record(factories, derived, involved, diags, records)
        return diags

    def _give_facts(self, file: SourceFile) -> None:
        """A factory's facts, for judging its calls (the cache does not keep them)."""
        if file.key in self.factories and file.facts is None and not file.errors:
            if not file.data:
                read(file)
            analyse(file, self.project, self.hashes.get(file.key))

    def _holding_callers(self, record: Dict[str, Any], factories: List[str], search: "_FactoryCalls"):
        """For a call-site record that no longer holds as a whole: the callers whose own part
        still holds (their file, the factory files their calls reached, and the modules and
        project facts their judgement used are unchanged: "pc"), and the files involved now
        (the record's, less those gone, and new callers). None when the record cannot be taken
        apart: the factories changed, builders were derived, a finding sits at a config line
        (several calls share it), or a config folder's listing changed."""
        each, files = record.get("pc"), record.get("files")
        if record.get("dv") or not isinstance(each, dict) or not isinstance(files, dict):
            return None
        # The factories of this run's files are those of the record (a partial run knows only
        # its own files' factories: the others stay the record's).
        if any(_entry_file(entry) not in self.by_key for entry in factories):
            return None
        if [entry for entry in record["fa"] if _entry_file(entry) in self.by_key] != factories:
            return None
        if set(each) != set(files) or any(path not in files for path, _ in record["d"]):
            return None
        if "cl" in record and not self.listings_hold(record):
            return None
        moved = self._moved(record)
        invalid = self.store.invalid_deps(record, self.project.summary_digest)
        if invalid is None:
            return None
        broken = {i for i, path in enumerate(sorted(record.get("deps", {}))) if path in invalid}
        files_hold = "fs" not in record or record["fs"] == self.files_hash()
        graph_holds = "gs" not in record or record["gs"] == self.graph_hash()
        words_hold = self.words_hold(record)
        # The record's files outside this run (a partial run) keep their part for a later run
        # that reads them; a file no longer in the project leaves the record. A caller whose
        # call reaches a factory outside the run is judged again (as a run of these files
        # alone judges it).
        project_files = self.project.file_keys()
        carried = {key: files[key] for key in files if key not in self.by_key and key in project_files}
        changed = {key for key, state in files.items() if key in carried or self._state(key) != state}
        holding: Set[str] = set()
        for key, (indices, callees, flags, content) in each.items():
            if key in changed or broken.intersection(indices) or moved.intersection(content) or changed.intersection(callees):
                continue
            if "x" in flags:  # judged by no process
                continue
            if ("f" in flags and not files_hold) or ("g" in flags and not graph_holds) or ("w" in flags and not words_hold):
                continue
            holding.add(key)
        outside = self._outside_of(record)
        involved = [self.by_key[key] for key in files if key in self.by_key]
        involved.extend(
            f for f in self.files if f.key not in files and (f.key in self.fresh or outside(f.key)) and search.called_in(f)
        )
        return holding, involved, carried

    def _moved(self, record: Dict[str, Any]) -> Set[int]:
        """The dependencies of ``record`` (indices among its sorted "deps") whose bytes changed.
        A caller that read one through its bytes ("cd", a caller's part) is judged again even
        when its summary is the same (``invalid_deps`` then holds it valid)."""
        deps = record.get("deps", {})
        return {i for i, path in enumerate(sorted(deps)) if self.store.hash_of(path) != deps[path][0]}

    def _store_record(
        self,
        factories: List[str],
        derived: Dict[str, Tuple[str, ...]],
        involved: List[SourceFile],
        diags: List[Diagnostic],
        records: Dict[str, Tuple[Set[str], Set[str], Set[str]]],
        old: Optional[Dict[str, Any]] = None,
        holding: Set[str] = frozenset(),
        carried: Optional[Dict[str, str]] = None,
    ) -> None:
        """Keep the call-site record: the findings, the files involved with their state, and by
        caller what its judgement rested on ("pc": indices into the record's "deps", the
        factory files reached, and "f"/"g"/"w" for the set of files, the import graph and
        words), the callers in ``holding`` with their part of ``old``, and the files outside
        this run in ``carried`` (with their state then) with their part and findings."""
        from dl_lint.analysis.project import MENTION
        from dl_lint.cache import diagnostic_to_json

        by_display = {d: p for p, d in self.display.items()}
        per: Dict[str, Tuple[Set[str], str, List[str], Set[str]]] = {}
        seen_all: Set[str] = set()
        used_all: Set[str] = set()
        for key, (touched, uses, callees) in records.items():
            # (through the factories reached: what their own analysis rested on)
            seen, used = self.project.dependencies(touched | callees, uses)
            seen.discard(key)
            content = {u[8:] for u in used if u.startswith("content:")}
            content.discard(key)
            seen |= content
            # (and the files read only for a lone class, a word they lack or no keyword setter:
            # in the table with their own digests, ``_depends``)
            paths = seen | {u.split(":", 1)[1].split("\0", 1)[0] for u in used if u.startswith(("lone:", "absent:", "nosetter:"))}
            paths.discard(key)
            flags = ("f" if "files" in used else "") + ("g" if "graph" in used else "")
            if any(u.startswith(("word:", MENTION)) for u in used):
                flags += "w"
            per[key] = (paths, flags, sorted(callees), content)
            seen_all |= seen
            used_all |= {u for u in used if not u.startswith("content:")}
        record: Dict[str, Any] = {
            "fa": factories,
            "dv": {k: list(v) for k, v in derived.items()},
            "files": {f.key: self._state(f.key) for f in involved},
            "d": [[by_display.get(d.filename, d.filename), diagnostic_to_json(d)] for d in diags],
            "cv": self._covered(),
        }
        # Digests wherever a summary was read: a caller that read a file's bytes says so in its
        # part ("content" indices, and "cd" for the record as a whole).
        self._depends(record, seen_all, used_all)
        deps = record.get("deps", {})
        kept: Dict[str, Tuple[Set[str], str, List[str], Set[str]]] = {}
        if old is not None:  # the factories of files outside this run, as the record has them
            project_files = self.project.file_keys()
            outside = [e for e in old["fa"] if _entry_file(e) not in self.by_key and _entry_file(e) in project_files]
            record["fa"] = sorted(factories + outside)
        if old is not None and carried:
            record["files"].update(carried)
            record["d"].extend(entry for entry in old["d"] if entry[0] in carried)
            holding = set(holding) | set(carried)
        if old is not None and holding:
            old_paths = sorted(old.get("deps", {}))
            for key in holding:
                indices, callees, flags, content = old["pc"][key]
                kept[key] = ({old_paths[i] for i in indices}, flags, list(callees), {old_paths[i] for i in content})
            deps = {**{p: old["deps"][p] for part in kept.values() for p in part[0]}, **deps}
            flags = "".join(part[1] for part in kept.values())
            if "f" in flags:
                record["fs"] = self.files_hash()
            if "g" in flags:
                record["gs"] = self.graph_hash()
            if "w" in flags:  # (they held: ``_holding_callers``)
                for field in ("nw", "nm"):
                    words = sorted(set(record.get(field, ())) | set(old.get(field) or ()))
                    if words:
                        record[field] = words
                record["ng"] = self.graph_hash()
                self.word_entries = True
            if "cl" in old:
                record["cl"] = {**old["cl"], **record.get("cl", {})}
            cv = old.get("cv")
            if record["cv"][0] != "all" and isinstance(cv, list) and not (len(cv) == 2 and cv[0] == "all"):
                record["cv"] = sorted(set(cv) | set(record["cv"]))
        if deps:
            record["deps"] = deps
        index = {path: i for i, path in enumerate(sorted(deps))}
        parts = {**kept, **per}
        record["pc"] = {
            key: [sorted(index[p] for p in paths if p in index), callees, flags, sorted(index[p] for p in content if p in index)]
            for key, (paths, flags, callees, content) in parts.items()
        }
        record["cd"] = sorted({index[p] for part in parts.values() for p in part[3] if p in index})
        for f in involved:  # a file involved but judged by no process (none left it a record)
            record["pc"].setdefault(f.key, [[], [], "x", []])
        self.store.set_callsites(record)

    def _covered(self):
        """The files this run searched for calls (what a later run may take the record's
        silence about as read): every project file ("all", with the set's hash), or the list of
        a partial run's files. A run naming one script searched only its neighbourhood; a later
        run naming another file must not take that record as saying the rest calls no factory
        (train.py's DL203 in pix2pixHD went missing after a run naming encode_features.py)."""
        keys = set(self.by_key)
        if {os.path.abspath(p) for p in self.project.files()} <= keys:
            return ["all", self.files_hash()]
        return sorted(keys)

    def _outside_of(self, record: Dict[str, Any]):
        """Whether a file was outside the files the run that made ``record`` searched (a
        record without that list: every file is)."""
        covered = record.get("cv")
        if isinstance(covered, list) and len(covered) == 2 and covered[0] == "all":
            if covered[1] == self.files_hash():
                return lambda key: False
            return lambda key: True
        inside = set(covered) if isinstance(covered, list) else set()
        return lambda key: key not in inside

    def _state(self, key: str) -> str:
        """A linted file as the call-site phase depends on it: content, settings, module name."""
        file = self.by_key.get(key)
        if file is None:
            return "gone"
        if key not in self.hashes and self.store is not None:
            self.hash_file(file)
        return f"{self.hashes.get(key)}:{self.fingerprint(file.settings)}:{file.module_name}"


def _entry_file(entry: str) -> str:
    """The file of a call-site record's factory entry (``path:name,name``)."""
    return entry.rsplit(":", 1)[0]


def _name_key(key: Tuple[str, Tuple[str, ...]]) -> str:
    name, extra = key
    return name + ("\0" + ",".join(extra) if extra else "")


class _FactoryCalls:
    """Which files call a factory (a module-level function whose loaders take its parameters):
    its name followed by ``(``, in another file, or again in its own."""

    def __init__(self, run: Run, derived: Optional[Dict[str, Tuple[str, ...]]] = None) -> None:
        self.run = run
        self.factories = {**run.factories, **(derived or {})}
        names = sorted({name for names in self.factories.values() for name in names})
        self.encoded = [n.encode() for n in names]
        self._class_calls: Optional[Tuple[bytes, FrozenSet[bytes]]] = None  # ``_defined``: the last file's
        # A method factory (``Walker.loader``) is called as ``obj.loader(``, in a file that
        # names the class (it builds the instance): its method's name, with the class's name
        # anywhere in the file. The definition matches once, as a function's does.
        # A class that builds its loader in ``__init__`` ("Holder.__init__") is called by its
        # own name: ``Holder(``.
        self.called_as = {n: called_name(n.decode()).encode() for n in self.encoded}
        self.classes = {n: n.rsplit(b".", 1)[0] for n in self.encoded if b"." in n}
        # A Lightning hook factory (``DM.train_dataloader``) is called by a Trainer's run in a
        # file that names its class (``trainer.fit(model, datamodule=DM(...))``: ``judge._hook_calls``).
        self.runs = {
            n: tuple(stage.encode() for stage, hooks in STAGE_HOOKS.items() if self.called_as[n].decode() in hooks)
            for n in self.classes
        }
        self.runs = {n: stages for n, stages in self.runs.items() if stages}
        # One pattern per name, starting with it: the regex engine then scans for the literal.
        # A dict holding factories (``LOADERS[``, see ``module._dispatch_dicts``) is called
        # through its subscripts.
        self.dicts = {n[:-1]: n for n in self.encoded if n.endswith(b"[")}
        # A module-level function is also called where a process starts it (``mp.spawn(name,
        # ...)``, ``Process(target=name, ...)``: ``analysis.spawns``).
        self.plain = {n for n in self.encoded if b"." not in n and not n.endswith(b"[")}
        self.patterns = {
            n: re.compile(re.escape(n[:-1]) + rb"\s*\[" if n.endswith(b"[") else re.escape(self.called_as[n]) + rb"\s*\(")
            for n in self.encoded
        }
        # With many factories, a file is searched only if its imports can bring one in: a call
        # resolves to one through its own file, a from-import of its name, or an import of its
        # module (or of a package on its path, for ``pkg.mod.factory(...)``).
        # A from-import reaches one when it imports a factory's name or a module (or package)
        # on a factory module's path (``from a.b import c``, then ``c.factory(...)``); a plain
        # import when it imports the package a factory module is in (``import a``, then
        # ``a.b.c.factory(...)``). ``from lightning.pytorch import Trainer`` reaches none.
        # With few, every file is scanned for their names first (that costs less than reading
        # every file's imports), and only a file that calls one has its imports checked: a
        # factory named ``main`` or ``train`` is "called" by every script's ``main()``, and
        # each such file was parsed (26 of accelerate's for one example's ``main``).
        self.many = len(self.encoded) > 16
        self.packages: Set[str] = set()
        self.reachable: Set[str] = {n.rstrip("[") for n in names}
        self.reachable.update(n.decode() for n in self.classes.values())  # a method factory: its class
        # A method factory is called on an instance, in a file that names its class: such a
        # file is searched whatever it imports (``_calls``), so the packages of a module that
        # holds only method factories are not needed (a datamodule in ``lightning.pytorch.demos``
        # made every file importing ``lightning`` a candidate: 169 of Lightning's files, not 40).
        self.class_words = sorted(set(self.classes.values()))
        # A method factory's class may be built as a project subclass that inherits the method
        # (``class Squares(Data): pass``, or an ``__init__`` relaying its parameters to Data's):
        # a file naming only the subclass calls it too. Each class's subclasses, as their words.
        self.kin: Dict[bytes, Tuple[bytes, ...]] = {}
        if self.class_words:
            key = frozenset(self.classes.values())
            if key not in run.subclass_words:
                run.subclass_words[key] = self._subclass_words()
            self.kin = run.subclass_words[key]
        if self.kin:
            self.class_words = sorted({*self.class_words, *(w for words in self.kin.values() for w in words)})
        modules = {f.key: f.module_name for f in run.files}
        for key, defined in self.factories.items():
            module = modules.get(key, "")
            if module:
                self.reachable.update(module.split("."))
                if any("." not in name for name in defined):
                    self.packages.update(module.split("."))  # "src.pkg.mod" is imported as pkg

    def calls_in(self, data: bytes, own: FrozenSet[bytes] = frozenset()) -> "Counter[bytes]":
        """How many times ``data`` calls each factory name (its own definitions included). A
        count, not a list of names: with many method factories of one name (``train`` of 3,000
        classes) every call of that name counts for each of them, and a list held one entry per
        pair. ``own``: the method factories of the file ``data`` is, which it may call on
        ``self`` (``call_keys.factory_key``); elsewhere ``self.name(`` is not a call of one."""
        found: "Counter[bytes]" = Counter()
        if self.many:  # many factories: one scan for every call, then a set lookup
            wanted: Dict[bytes, List[bytes]] = {}
            # Many method factories: the file's words once (a search of the file per class was
            # quadratic: 3,000 classes, each a ``train`` factory); few: a search each.
            holds = _holds_word
            if sum(1 for name in self.called_as if name in self.classes) > _FIND_EACH:
                words = frozenset(_WORD.findall(data))
                holds = lambda text, word: word in words if b"." not in word else _holds_word(text, word)  # noqa: E731
            for name, called in self.called_as.items():
                if not name.endswith(b"[") and (name not in self.classes or self._names_class(data, name, holds)):
                    wanted.setdefault(called, []).append(name)
            if len(wanted) <= _FIND_EACH:  # a substring search per name beats matching every call
                calls = {called: _call_count(data, called) for called in wanted}
            else:
                calls = Counter(called for called in _CALLED.findall(data) if called in wanted)
            for called, count in calls.items():
                if count:
                    for name in wanted[called]:
                        found[name] += count
            found.update(name for name in _started(data) if name in self.plain)
            if self.dicts and b"[" in data:
                found.update(self.dicts[name] for name in _SUBSCRIPTED.findall(data) if name in self.dicts)
            found.update(self._aliased(data))
            found.update(self._runs(data))
            return found
        for name in self.encoded:
            if name.endswith(b"["):
                if name[:-1] not in data:
                    continue
            elif self.called_as[name] not in data or (name in self.classes and not self._names_class(data, name)):
                continue
            for match in self.patterns[name].finditer(data):
                start = match.start()
                if start == 0 or not _is_word_byte(data[start - 1]):
                    if name in self.classes and name not in own and data[max(0, start - 5) : start] == b"self.":
                        continue  # another class's method on its object: not a call site (``call_keys.factory_key``)
                    found[name] += 1
        found.update(name for name in _started(data) if name in self.plain)
        found.update(self._aliased(data))
        found.update(self._runs(data))
        return found

    def _names_class(self, data: bytes, name: bytes, holds: Any = None) -> bool:
        """Whether ``data`` names the class of the method factory ``name`` or a project
        subclass of it (``kin``), as a whole word."""
        holds = holds or _holds_word
        cls = self.classes[name]
        return holds(data, cls) or any(holds(data, word) for word in self.kin.get(cls, ()))

    def _subclass_words(self) -> Dict[bytes, Tuple[bytes, ...]]:
        """The names of the project classes that derive from each method factory's class,
        directly or through such classes (three levels), found in the files' bytes
        (``class Sub(Base):``, ``class Sub(module.Base, Mixin):``): a word of the bases names
        the class. Read from the bytes kept for the call-site phase, and from the factories'
        own files (the base's module, where subclasses most often sit); a file whose bytes are
        not at hand adds none (its subclass's callers are then not searched: silence)."""
        roots: Dict[bytes, Set[bytes]] = {}  # a class word -> the factory classes it derives from
        for cls in set(self.classes.values()):
            roots.setdefault(cls.rsplit(b".", 1)[-1], set()).add(cls)
        datas: List[bytes] = []
        for file in self.run.files:
            data = file.data
            if not data and file.key in self.factories and not file.errors and not is_notebook_path(file.path):
                try:  # kept: the factory's file is searched for its calls next (``_calls``)
                    data = file.data = read_module(file.key, file.settings.max_file_size)
                except Refused:
                    data = b""
            if data and b"class" in data:
                datas.append(data)
        lines: Dict[int, List[Tuple[bytes, List[bytes]]]] = {}  # a file's ``class Sub(<bases>)``: Sub, the bases' words
        found: Dict[bytes, Set[bytes]] = {}
        frontier = dict(roots)
        for _level in range(3):
            added: Dict[bytes, Set[bytes]] = {}
            few = len(frontier) <= _FIND_EACH
            for index, data in enumerate(datas):
                # most files name none of the words: a substring search per word, or with many
                # words one pass over the file's words (a search per word and file was files ×
                # classes: 3,000 method-factory classes of one name in a generated tree)
                if few and not any(word in data for word in frontier):
                    continue
                if not few and frontier.keys().isdisjoint(_WORD.findall(data)):
                    continue
                if index not in lines:
                    lines[index] = [(m.group(1), _WORD.findall(m.group(2))) for m in _CLASS_WITH_BASES.finditer(data)]
                for sub, words in lines[index]:
                    for word in words:
                        for cls in frontier.get(word, ()):
                            if sub not in roots and sub not in found.get(cls, ()):
                                found.setdefault(cls, set()).add(sub)
                                added.setdefault(sub, set()).add(cls)
            if not added:
                break
            frontier = added
        return {cls: tuple(sorted(words)) for cls, words in found.items()}

    def _runs(self, data: bytes) -> "Counter[bytes]":
        """The runs of a Trainer that may call a hook factory (``self.runs``): each call of
        the run's name in a file that names the hook's class."""
        found: "Counter[bytes]" = Counter()
        for name, stages in self.runs.items():
            if self._names_class(data, name):
                count = sum(_call_count(data, stage) for stage in stages)
                if count:
                    found[name] += count
        return found

    def _aliased(self, data: bytes) -> List[bytes]:
        """The calls of a module-level factory imported under another name (``from data import
        loaders as make_loaders``, then ``make_loaders(...)``): one per call of the alias."""
        if b" as " not in data:
            return []
        found = []
        for name in self.plain:  # a substring search per name: cheaper than a pattern over the file
            at = data.find(name + b" as ")
            while at >= 0:
                match = _ALIAS_AT.match(data, at + len(name))
                if match and (at == 0 or not _is_word_byte(data[at - 1]) and data[at - 1] != 46):  # not ``x.name``
                    alias = match.group(1)
                    if alias != name:
                        found.extend([name] * _call_count(data, alias))
                at = data.find(name + b" as ", at + len(name))
        return found

    def _calls(self, file: SourceFile) -> "Counter[bytes]":
        """How many times ``file`` calls each factory name (its own definitions included)."""
        run = self.run
        checked = file.key in self.factories or file.is_notebook
        named_class = False  # reached only by naming a method factory's class: decided on its bytes
        if self.many and not checked:
            if not _may_reach(run.project.raw_imports(file.key), self.reachable, self.packages):
                if not self.class_words:
                    return Counter()
                named_class = True
            checked = True
        data = file.data
        if not data:
            if is_notebook_path(file.path):
                read(file)
                data = file.data
            else:  # kept below only if it calls a factory
                try:
                    data = read_module(file.key, file.settings.max_file_size)
                except Refused:
                    data = b""
        if named_class and not any(word in data for word in self.class_words):
            return Counter()
        found = self.calls_in(data, frozenset(n.encode() for n in self.factories.get(file.key, ()) if "." in n))
        if found and not checked and not _may_reach(run.project.raw_imports(file.key), self.reachable, self.packages):
            # a method factory's calls stand on the file naming its class (``calls_in``), as
            # with many factories: a plain ``import data_module as dataloader`` then
            # ``dataloader.Maker(...).run(...)`` reaches it (DivideMix's clothing1M script)
            found = Counter({name: count for name, count in found.items() if name in self.classes})
            if not found:
                return Counter()
        if found:
            file.data = data
        return found

    def called_in(self, file: SourceFile) -> bool:
        """Whether ``file`` calls a factory other than by defining it."""
        if file.errors:
            return False
        counts = self._calls(file)
        own = {n.encode() for n in self.factories.get(file.key, ())}
        return any(name not in own or count > self._defined(name, file.data) for name, count in counts.items())

    def _defined(self, name: bytes, data: bytes) -> int:
        """How many of a factory's matches in its own file are its definition: ``def name(`` is
        one; a class that builds its loader in ``__init__`` matches only as ``class Name(``
        (``class Name:`` does not look like a call). The file's ``class Name(`` are found in one
        scan, whatever the number of factories asked."""
        if not name.endswith(b".__init__"):
            return 1
        data = data or b""
        if self._class_calls is None or self._class_calls[0] is not data:
            self._class_calls = (data, frozenset(_CLASS_CALL.findall(data)))
        return 1 if self.called_as[name] in self._class_calls[1] else 0

    def involved(self) -> List[SourceFile]:
        """The files the call-site phase needs: those that call a factory, and the factories'
        files. Any call of a factory looks like one, so nothing else can matter."""
        occurs: Dict[str, Set[bytes]] = {}
        called: Set[bytes] = set()
        for file in self.run.files:
            if file.errors:
                continue
            counts = self._calls(file)
            if not counts:
                continue
            occurs[file.key] = set(counts)
            own = {n.encode() for n in self.factories.get(file.key, ())}
            for name, count in counts.items():
                # In its own file, the definition (``def name(``) matches once.
                if name not in own or count > self._defined(name, file.data):
                    called.add(name)
        if not called:
            return []
        return [
            f
            for f in self.run.files
            if occurs.get(f.key, set()) & called or any(n.encode() in called for n in self.factories.get(f.key, ()))
        ]


def _may_reach(raw, names: Set[str], packages: Set[str]) -> bool:
    """Whether a file's imports (``raw_imports``) can bring in a factory: a from-import of one
    of ``names`` (factory names and the parts of their modules' paths) or of ``*``, or a plain
    import of a module in one of ``packages`` (the factory modules' top-level packages)."""
    plain, froms = raw
    for module in plain:
        if module.split(".", 1)[0] in packages:
            return True
    for _base, imported in froms:
        if "*" in imported or not names.isdisjoint(imported):
            return True
    return False


# A class statement whose name is followed by ``(`` (``class Holder(object):``): group 1, the name.
_CLASS_CALL = re.compile(rb"\bclass\s+(\w+)\s*\(")
# A class statement with its bases (up to the first ``)``): ``class Sub(Base, Mixin):``.
_CLASS_WITH_BASES = re.compile(rb"^[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)", re.M)
# A subscripted name: an identifier (not preceded by another word character) followed by "[".
_SUBSCRIPTED = re.compile(rb"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\s*\[")
# A function started in other processes: ``spawn(fn``, ``start_processes(fn=fn``, ``target=fn``
# (``analysis.spawns``). Each pattern starts with a literal, which the regex engine scans for.
_STARTED = (
    re.compile(rb"spawn\s*\(\s*(?:fn\s*=\s*)?([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"),
    re.compile(rb"start_processes\s*\(\s*(?:fn\s*=\s*)?([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"),
    re.compile(rb"target\s*=\s*([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"),
)
_STARTED_WORDS = (b"spawn", b"start_processes", b"target")


def _started(data: bytes) -> List[bytes]:
    """The names ``data`` starts in other processes (``_STARTED``), each pattern tried only
    where its word occurs."""
    found: List[bytes] = []
    for word, pattern in zip(_STARTED_WORDS, _STARTED):
        if word in data:
            for match in pattern.finditer(data):
                start = match.start()
                if start == 0 or not _is_word_byte(data[start - 1]):
                    found.append(match.group(1))
    return found


# The alias after an imported name (``import ... loaders as make_loaders``); a ``with`` item
# (``open(p) as f``) never follows a bare name, which is followed by ``)`` there.
_ALIAS_AT = re.compile(rb" as[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
# A whole identifier (``calls_in``'s words of a file).
_WORD = re.compile(rb"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*")
# A called name: an identifier (not preceded by another word character) followed by "(".
_CALLED = re.compile(rb"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _holds_word(data: bytes, word: bytes) -> bool:
    """Whether ``word`` occurs in ``data`` as a whole identifier (``FullFinetuneRecipe`` is not
    in ``PPOFullFinetuneRecipe``): a method factory's class must be named in a file that calls it."""
    at = data.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _is_word_byte(data[at - 1])) and (end >= len(data) or not _is_word_byte(data[end])):
            return True
        at = data.find(word, end)
    return False


# Up to this many names, ``calls_in`` looks for each with ``bytes.find`` (a fast substring scan)
# instead of matching every call of the file with ``_CALLED`` (on Lightning's 48 files, 29 names:
# 7 ms instead of 18).
_FIND_EACH = 64
_SPACE = frozenset(b" \t\n\r\f\v")  # ``\s`` of a bytes pattern


def _call_count(data: bytes, called: bytes) -> int:
    """How many calls of the name ``called`` ``data`` holds: what ``_CALLED.findall`` counts for
    it (the whole identifier, then whitespace and ``(``)."""
    count, size, at = 0, len(data), data.find(called)
    while at >= 0:
        end = at + len(called)
        if (at == 0 or not _is_word_byte(data[at - 1])) and (end == size or not _is_word_byte(data[end])):
            while end < size and data[end] in _SPACE:
                end += 1
            if end < size and data[end] == 40:  # "("
                count += 1
        at = data.find(called, at + len(called))
    return count


def _is_word_byte(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122
