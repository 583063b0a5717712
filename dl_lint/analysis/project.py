"""The cross-file index: modules of the project, analysed on demand.

The project root is the nearest folder above the linted paths holding pyproject.toml,
setup.cfg, setup.py or .git. Every .py file under it can feed the index, but nothing is parsed
until a linted file needs it: an import of a constant, a dataset class defined elsewhere, a base
class, a helper. Accelerator evidence for DL102 is read from raw bytes and follows the import
graph, also built from bytes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from dl_lint.analysis.datasets import ClassFacts, DatasetIndex, FunctionFacts
from dl_lint.analysis.resolve import ProjectHook
from dl_lint.analysis.signals import has_accelerator_evidence
from dl_lint.analysis.values import ModuleRef, Value

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
MAX_PROJECT_FILES = 50_000

_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)", re.M)
_FROM_IMPORT = re.compile(rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w \t,\\\n]*)", re.M)


def find_root(path: Path) -> Path:
    """The nearest folder at or above ``path`` holding a project marker (else ``path``'s folder)."""
    start = path if path.is_dir() else path.parent
    start = start.absolute()
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in ROOT_MARKERS):
            return folder
    return start


def module_name_for(path: Path) -> str:
    """The dotted module name, found by walking up through packages (``__init__.py``)."""
    path = path.absolute()
    parts = [] if path.name == "__init__.py" else [path.stem]
    parent = path.parent
    while (parent / "__init__.py").is_file():
        parts.append(parent.name)
        if parent.parent == parent:
            break
        parent = parent.parent
    return ".".join(reversed(parts)) or path.stem


class Project(ProjectHook):
    def __init__(self, root: Optional[Path], extra_loaders: Sequence[str] = ()) -> None:
        self.root = root
        self.extra_loaders = tuple(extra_loaders)
        self._paths: Optional[Dict[str, List[Path]]] = None
        self._by_name: Dict[str, object] = {}  # linted files, registered as analysed
        self._by_path: Dict[str, object] = {}
        self._failed: Set[str] = set()
        self._graph: Optional[Tuple[Dict[str, bool], Dict[str, Set[str]]]] = None
        self.datasets = DatasetIndex(self.class_facts, self.function_facts)

    # -- modules --------------------------------------------------------------------------------
    def module_paths(self) -> Dict[str, List[Path]]:
        """Module name -> files, for every .py file under the root (built once, lazily). A name
        can have several files (scripts named ``data.py`` in different example folders)."""
        if self._paths is None:
            self._paths = {}
            if self.root is not None:
                from dl_lint.discovery import discover

                try:
                    files = discover([self.root]).files[:MAX_PROJECT_FILES]
                except Exception:  # noqa: BLE001 - the index is best effort; linting goes on
                    files = ()
                for path in files:
                    self._register_path(path)
        return self._paths

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
        self._by_name.setdefault(module_name, analysis)
        self._by_path[os.path.abspath(analysis.path)] = analysis

    def module_exists(self, module: str) -> bool:
        if not module:
            return False
        if module in self._by_name:
            return True
        paths = self.module_paths()
        if module in paths:
            return True
        prefix = module + "."
        return any(name.startswith(prefix) for name in paths)  # a namespace package

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
            return self._by_name.get(module)
        key = os.path.abspath(path)
        if key in self._by_path:
            return self._by_path[key]
        if key in self._failed:
            return None
        from libcst import ParserSyntaxError

        from dl_lint.analysis.module import ModuleAnalysis
        from dl_lint.source import decode

        try:
            source = decode(path.read_bytes())
            analysis = ModuleAnalysis(
                source, str(path), module, path.name == "__init__.py", self, self.extra_loaders
            )
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ParserSyntaxError, RecursionError):
            self._failed.add(key)
            return None
        self._by_path[key] = analysis
        return analysis

    # -- ProjectHook ----------------------------------------------------------------------------
    def import_value(self, module: str, name: str, depth: int, near: str = "") -> Value:
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
        """Whether batches from ``module`` can reach an accelerator: evidence in the module
        itself, in a module it imports, or in a module that imports it (directly, through its
        package, or transitively)."""
        evidence, imports = self._import_graph(extra)
        if evidence.get(module):
            return True
        if any(evidence.get(dep) for dep in imports.get(module, ())):
            return True
        importers: Dict[str, Set[str]] = {}
        for importer, deps in imports.items():
            for dep in deps:
                importers.setdefault(dep, set()).add(importer)
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

    def _import_graph(self, extra: Iterable[Tuple[str, bytes]]) -> Tuple[Dict[str, bool], Dict[str, Set[str]]]:
        if self._graph is None:
            evidence: Dict[str, bool] = {}
            imports: Dict[str, Set[str]] = {}
            seen_paths: Set[str] = set()
            items = sorted((name, path) for name, paths in self.module_paths().items() for path in paths)
            for name, path in items:
                key = os.path.abspath(path)
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                evidence[name] = evidence.get(name, False) or has_accelerator_evidence(data)
                imports.setdefault(name, set()).update(imported_modules(data, name, path.name == "__init__.py"))
                seen_paths.add(key)
            for name, data in extra:
                evidence[name] = evidence.get(name, False) or has_accelerator_evidence(data)
                imports.setdefault(name, set()).update(imported_modules(data, name, False))
            self._graph = (evidence, imports)
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
    return frozenset(out)


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
