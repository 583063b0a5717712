"""The cross-file index: modules of the project, analysed on demand.

The project root is the nearest folder above the linted paths holding pyproject.toml,
setup.cfg, setup.py or .git. Every .py file under it can feed the index, but nothing is parsed
until a linted file needs it: an import of a constant, a dataset class defined elsewhere, a base
class, a helper. Accelerator evidence for DL102 is read from raw bytes and follows the import
graph, also built from bytes.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

if TYPE_CHECKING:
    from dl_lint.analysis.datasets import ClassFacts, FunctionFacts
    from dl_lint.analysis.values import Value


ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
MAX_PROJECT_FILES = 50_000
# A parsed module with its metadata takes about 100-150 bytes of memory per unit of weight
# (bytes of source, plus MODULE_WEIGHT per module for what every module costs). Analyses of
# project files beyond this weight are dropped, least recently used first, and parsed again if
# asked for: memory stays flat on large trees (~100 MB at most for analyses), and projects
# whose modules in use fit (most) never parse one twice.
LIVE_SOURCE_BUDGET = 640 * 1024
MODULE_WEIGHT = 2048

_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)", re.M)
_FROM_IMPORT = re.compile(rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w \t,\\\n]*)", re.M)


def find_root(path: Path) -> Path:
    """The nearest folder at or above ``path`` holding a project marker (else ``path``'s folder)."""
    # os.path: False for a folder we may not read (Path.exists raises PermissionError there).
    start = path if os.path.isdir(path) else path.parent
    start = start.absolute()
    for folder in (start, *start.parents):
        if any(os.path.exists(folder / marker) for marker in ROOT_MARKERS):
            return folder
    return start


def module_name_for(path: Path, absolute: bool = False) -> str:
    """The dotted module name, found by walking up through packages (``__init__.py``).
    ``absolute``: ``path`` is already an absolute, normalized path string."""
    path = path if absolute else os.path.abspath(path)
    folder, name = os.path.split(path)
    stem = os.path.splitext(name)[0]
    package = _package_of(folder)
    if name == "__init__.py":
        return package or stem
    return f"{package}.{stem}" if package else stem


@functools.lru_cache(maxsize=None)
def _package_of(folder: str) -> str:
    """The dotted package name of an absolute folder ("" when it has no ``__init__.py``):
    memoized, so a tree of files costs one probe per folder, not one per file and level."""
    if not os.path.isfile(os.path.join(folder, "__init__.py")):
        return ""
    parent, name = os.path.split(folder)
    if parent == folder or not name:
        return name
    outer = _package_of(parent)
    return f"{outer}.{name}" if outer else name


class _Tracked:
    """The project as one module's resolver sees it: every call is attributed to that module,
    so the project knows which modules each module's answers were built from (see
    ``Project.dependencies``; the results cache uses it)."""

    __slots__ = ("_project", "_key")

    def __init__(self, project: "Project", key: str) -> None:
        self._project = project
        self._key = key

    def __getattr__(self, name: str):
        attr = getattr(self._project, name)
        if not callable(attr):
            return attr
        project, key = self._project, self._key

        def call(*args, **kwargs):
            saved = project._source
            project._source = key
            try:
                return attr(*args, **kwargs)
            finally:
                project._source = saved

        return call


class Project:
    @property
    def datasets(self):
        """The dataset index over the project's classes (built when first asked for: a run
        answered from the cache never needs it)."""
        if self._datasets is None:
            from dl_lint.analysis.datasets import DatasetIndex

            self._datasets = DatasetIndex(self.class_facts, self.function_facts)
        return self._datasets

    def __init__(self, root: Optional[Path], extra_loaders: Sequence[str] = ()) -> None:
        self.root = root
        self.extra_loaders = tuple(extra_loaders)
        self._paths: Optional[Dict[str, List[Path]]] = None
        self._by_name: Dict[str, object] = {}  # linted files, registered as analysed
        self._by_path: Dict[str, object] = {}
        self._failed: Set[str] = set()
        self._graph: Optional[Tuple[Dict[str, frozenset], Dict[str, Set[str]]]] = None
        self._datasets = None
        self._seeded: Optional[Sequence[Path]] = None
        _package_of.cache_clear()  # folders may have gained or lost __init__.py since the last run
        # Dependency tracking: which module (abs path) asked (``_source``), what each module's
        # answers were built from (``_edges``), and what the file being linted touched.
        self._source: Optional[str] = None
        self._edges: Dict[str, Set[str]] = {}
        self._uses: Dict[str, Set[str]] = {}  # module -> {"files", "graph"}
        self._recorder: Optional[Tuple[Set[str], Set[str]]] = None
        self._importers: Optional[Dict[str, Set[str]]] = None
        self._packages: Optional[Set[str]] = None
        self._live: "OrderedDict[str, int]" = OrderedDict()  # evictable analyses -> source size
        self._live_bytes = 0
        self.budget = LIVE_SOURCE_BUDGET  # worker processes share the machine: each gets a part
        self._on_disk: Optional[Set[str]] = None
        self._added_as: Dict[str, str] = {}  # linted file -> the module name it was added as
        self._reaches: Dict[Tuple[str, str], bool] = {}

    def __getattr__(self, name: str):
        # Resolver hooks this class does not override keep ProjectHook's defaults. Not a base
        # class, so that importing the project index does not import libcst.
        if name.startswith("__"):
            raise AttributeError(name)
        from dl_lint.analysis.resolve import ProjectHook

        return getattr(ProjectHook, name).__get__(self)

    # -- dependency tracking (for the results cache) ---------------------------------------------
    def record(self, touched: Set[str], uses: Set[str]) -> None:
        """Until ``stop_recording()``, add the modules touched (absolute paths) to ``touched``
        and what else is consulted ("files", "graph") to ``uses``."""
        self._recorder = (touched, uses)

    def stop_recording(self) -> None:
        self._recorder = None

    def _touch(self, key: str) -> None:
        if self._source is not None and self._source != key:
            self._edges.setdefault(self._source, set()).add(key)
        if self._recorder is not None:
            self._recorder[0].add(key)

    def _use(self, what: str) -> None:
        if self._source is not None:
            self._uses.setdefault(self._source, set()).add(what)
        if self._recorder is not None:
            self._recorder[1].add(what)

    def dependencies(self, touched: Iterable[str], uses: Iterable[str] = ()) -> Tuple[Set[str], Set[str]]:
        """The modules (absolute paths) reachable from ``touched`` through what each module's
        answers were built from, and what they used besides files: "files" (which files exist
        in the project), "graph" (the import graph of every project file)."""
        seen: Set[str] = set()
        used = set(uses)
        todo = list(touched)
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            used |= self._uses.get(key, set())
            todo.extend(self._edges.get(key, ()))
        return seen, used

    def seed_files(self, files: Sequence[Path]) -> None:
        """The files under the root, when the caller has already walked it with the defaults
        (saves a second walk of the same tree)."""
        if self._paths is None:
            self._seeded = files

    # -- modules --------------------------------------------------------------------------------
    def module_paths(self) -> Dict[str, List[Path]]:
        """Module name -> files, for every .py file under the root (built once, lazily). A name
        can have several files (scripts named ``data.py`` in different example folders)."""
        self._use("files")
        if self._paths is None:
            self._paths = {}
            for path in self.files():
                self._register_path(path)
        return self._paths

    def files(self) -> Sequence[Path]:
        """Every .py file under the root (walked once, lazily; empty without a root)."""
        if self._seeded is None:
            self._seeded = ()
            if self.root is not None:
                from dl_lint.discovery import discover

                try:
                    self._seeded = discover([self.root]).files[:MAX_PROJECT_FILES]
                except Exception:  # noqa: BLE001 - the index is best effort; linting goes on
                    pass
        return self._seeded[:MAX_PROJECT_FILES]

    def _register_path(self, path: Path) -> None:
        assert self._paths is not None
        names = [module_name_for(path)]
        if self.root is not None:
            try:
                parts = list(path.absolute().relative_to(self.root).with_suffix("").parts)
            except ValueError:
                parts = []
            if parts and parts[-1] == "__init__":
                parts.pop()
            if parts:
                names.append(".".join(parts))
                if parts[0] in ("src", "lib") and len(parts) > 1:
                    names.append(".".join(parts[1:]))
        for name in dict.fromkeys(names):
            self._paths.setdefault(name, []).append(path)

    def add(self, module_name: str, analysis) -> None:
        """Register the analysis of a linted file, so other modules can import from it."""
        key = os.path.abspath(analysis.path)
        self._by_name.setdefault(module_name, analysis)
        self._by_path[key] = analysis
        self._added_as[key] = module_name
        self._keep(key, analysis)
        resolver = getattr(analysis, "resolver", None)
        if resolver is not None and getattr(resolver, "project", None) is self:
            resolver.project = _Tracked(self, key)  # attribute what it asks to this module

    def module_exists(self, module: str) -> bool:
        if not module:
            return False
        if module in self._by_name:
            return True
        paths = self.module_paths()
        if module in paths:
            return True
        if self._packages is None:  # every dotted prefix of a module name: namespace packages
            self._packages = set()
            for name in paths:
                parts = name.split(".")
                self._packages.update(".".join(parts[:i]) for i in range(1, len(parts)))
        return module in self._packages

    def module_path(self, module: str, near: str = "") -> Optional[str]:
        path = self._choose(module, near)
        return str(path) if path is not None else None

    def _choose(self, module: str, near: str) -> Optional[Path]:
        """The file of ``module`` as seen from the file ``near``: an exact path wins, then the
        candidate sharing the longest folder prefix with ``near`` (a sibling script)."""
        candidates = self.module_paths().get(module, [])
        if not candidates:
            return None
        if len(candidates) == 1 or not near:
            return candidates[0]
        near_abs = os.path.abspath(near)
        for candidate in candidates:
            if os.path.abspath(candidate) == near_abs:
                return candidate
        near_dir = os.path.dirname(near_abs)
        return max(candidates, key=lambda c: len(os.path.commonpath([near_dir, os.path.abspath(c)])))

    def analysis(self, module: str, near: str = ""):
        """The ModuleAnalysis of ``module`` (seen from ``near``), parsed on first use; None if
        it is not in the project or cannot be parsed."""
        path = self._choose(module, near)
        if path is None:
            found = self._by_name.get(module)
            if found is not None:
                self._touch(os.path.abspath(found.path))
            return found
        key = os.path.abspath(path)
        self._touch(key)
        if key in self._by_path:
            if key in self._live:
                self._live.move_to_end(key)
            return self._by_path[key]
        if key in self._failed:
            return None
        from libcst import ParserSyntaxError

        from dl_lint.analysis.module import ModuleAnalysis
        from dl_lint.source import decode

        try:
            source = decode(path.read_bytes())
            analysis = ModuleAnalysis(
                source, str(path), module, path.name == "__init__.py", _Tracked(self, key), self.extra_loaders
            )
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ParserSyntaxError, RecursionError):
            self._failed.add(key)
            return None
        self._by_path[key] = analysis
        self._keep(key, analysis)
        return analysis

    # -- memory ---------------------------------------------------------------------------------
    def _keep(self, key: str, analysis) -> None:
        """Account for a new analysis; drop the least recently used ones over the budget. Only
        .py files the index can find again are dropped (a notebook or piped source cannot be
        parsed again from disk)."""
        if not key.endswith(".py"):
            return
        if self._on_disk is None:
            self._on_disk = {os.path.abspath(p) for p in self.files()}
        if key not in self._on_disk:
            return
        size = len(getattr(analysis, "source", "") or "") + MODULE_WEIGHT
        self._live_bytes += size - self._live.pop(key, 0)
        self._live[key] = size
        while self._live_bytes > self.budget and len(self._live) > 1:
            old, old_size = self._live.popitem(last=False)
            self._live_bytes -= old_size
            dropped = self._by_path.pop(old, None)
            name = self._added_as.pop(old, None)
            if name is not None and self._by_name.get(name) is dropped:
                del self._by_name[name]

    # -- ProjectHook ----------------------------------------------------------------------------
    def import_value(self, module: str, name: str, depth: int, near: str = "") -> Value:
        from dl_lint.analysis.values import ModuleRef, Value

        analysis = self.analysis(module, near)
        if analysis is not None:
            value = analysis.global_value(name, depth)
            if not value.is_unknown:
                return value
        if self.module_exists(f"{module}.{name}"):
            return Value.known(ModuleRef(f"{module}.{name}"))
        return Value.unknown("import")

    def is_loader_class(self, module: str, name: str, depth: int, near: str = "") -> Optional[str]:
        analysis = self.analysis(module, near)
        return analysis.is_loader_class(name, depth) if analysis is not None else None

    def class_facts(self, module: str, name: str, near: str = "") -> Optional[ClassFacts]:
        analysis = self.analysis(module, near)
        return analysis.class_facts(name) if analysis is not None else None

    def function_facts(self, module: str, name: str, near: str = "") -> Optional[FunctionFacts]:
        analysis = self.analysis(module, near)
        if analysis is None:
            return None
        node = analysis.function_node(name)
        return analysis.function_facts(node) if node is not None else None

    # -- DL102: accelerator evidence along the import graph -------------------------------------
    def accelerator_reaches(self, module: str, extra: Iterable[Tuple[str, bytes]] = ()) -> bool:
        return self.signal_reaches(module, "accelerator", extra)

    def signal_reaches(self, module: str, kind: str, extra: Iterable[Tuple[str, bytes]] = ()) -> bool:
        """Whether a program-wide signal (``analysis.signals``) is connected to ``module``:
        evidence in the module itself, in a module it imports, or in a module that imports it
        (directly, through its package, or transitively). For DL102: can batches from this
        module reach an accelerator?"""
        signals, imports = self._import_graph(extra)
        if (module, kind) in self._reaches:
            return self._reaches[(module, kind)]
        found = self._signal_reaches(module, kind, signals, imports)
        self._reaches[(module, kind)] = found
        return found

    def _signal_reaches(self, module: str, kind: str, signals, imports) -> bool:
        empty: FrozenSet[str] = frozenset()

        class _Evidence:  # kind in the module's signals, without a dict per question
            @staticmethod
            def get(name: str) -> bool:
                return kind in signals.get(name, empty)

        evidence = _Evidence
        if evidence.get(module):
            return True
        if any(evidence.get(dep) for dep in imports.get(module, ())):
            return True
        if self._importers is None:  # built once per graph
            self._importers = {}
            for importer, deps in imports.items():
                for dep in deps:
                    self._importers.setdefault(dep, set()).add(importer)
        importers = self._importers
        todo, seen = [module], {module}
        while todo:
            current = todo.pop()
            targets = {current}
            parts = current.split(".")
            targets.update(".".join(parts[:i]) for i in range(1, len(parts)))  # through the package
            for target in targets:
                for importer in importers.get(target, ()):
                    if importer in seen:
                        continue
                    if evidence.get(importer):
                        return True
                    seen.add(importer)
                    todo.append(importer)
        return False

    def _import_graph(self, extra: Iterable[Tuple[str, bytes]]) -> Tuple[Dict[str, frozenset], Dict[str, Set[str]]]:
        from dl_lint.analysis.signals import signals_in

        self._use("graph")
        if self._graph is None:
            evidence: Dict[str, frozenset] = {}
            imports: Dict[str, Set[str]] = {}
            names_of: Dict[str, List[str]] = {}
            for name, paths in self.module_paths().items():
                for path in paths:
                    names_of.setdefault(os.fspath(path), []).append(name)
            read: Dict[str, List[int]] = {}  # module name -> hashes of the contents read for it
            shared: Dict[frozenset, frozenset] = {}  # equal sets stored once (memory, large trees)

            def add(name: str, found: frozenset, deps: frozenset) -> None:
                if name in evidence:
                    found, deps = evidence[name] | found, imports[name] | deps
                evidence[name] = shared.setdefault(found, found)
                imports[name] = shared.setdefault(deps, deps)

            for path_text in sorted(names_of):  # each file read and searched once, whatever its names
                path = Path(path_text)
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                found = signals_in(data)
                is_package = path.name == "__init__.py"
                for name in names_of[path_text]:
                    add(name, found, imported_modules(data, name, is_package))
                    read.setdefault(name, []).append(hash(data))
            for name, data in extra:
                if hash(data) in read.get(name, ()):
                    continue  # a linted file under the root: already in the graph
                add(name, signals_in(data), imported_modules(data, name, False))
            self._graph = (evidence, imports)
            self._importers = None
            self._reaches = {}
        return self._graph


def imported_modules(data: bytes, module: str, is_package: bool) -> FrozenSet[str]:
    """Modules an import statement in ``data`` names (absolute; ``from a import b`` gives both
    ``a`` and ``a.b``). Read from bytes: no parse."""
    out: Set[str] = set()
    for match in _IMPORT.finditer(data):
        for part in match.group(1).split(b","):
            name = part.strip().split()[0].decode("ascii", "replace") if part.strip() else ""
            if name:
                out.add(name)
    for match in _FROM_IMPORT.finditer(data):
        base = match.group(1).decode("ascii", "replace")
        base = _absolute(base, module, is_package)
        if base:
            out.add(base)
        for item in match.group(2).replace(b"\\", b" ").replace(b"\n", b" ").split(b","):
            words = item.split()
            if words and words[0] not in (b"(", b")"):
                name = words[0].strip(b"()").decode("ascii", "replace")
                if name and name != "*":
                    out.add(f"{base}.{name}" if base else name)
    return frozenset(sys.intern(name) for name in out)  # shared strings: one per module in the graph


def _absolute(module: str, current: str, is_package: bool) -> str:
    if not module.startswith("."):
        return module
    level = len(module) - len(module.lstrip("."))
    parts = current.split(".") if current else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(len(parts) - (level - 1), 0)]
    rest = module[level:]
    return ".".join(parts + ([rest] if rest else []))
