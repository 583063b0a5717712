"""The run: read files, decide which need parsing, extract facts, apply rules, suppress.

``lint_paths`` and ``lint_source`` are the public API that the CLI (and tests, and later the
flake8 plugin and the language server) are thin layers over.
"""

from __future__ import annotations

import functools
import gc
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence

if TYPE_CHECKING:
    from dl_lint.notebook import CellMap

from dl_lint.analysis.project import Project, absolute_path, find_root, module_name_for
from dl_lint.config import Settings, load_config_file, settings_for_dir
from dl_lint.discovery import discover
from dl_lint.files import SourceFile, display_path, dl000, is_notebook_path, one_line, read, read_notebook, unreadable
from dl_lint.model import Diagnostic, Location, Related
from dl_lint.record import Record


# Set by the console script (dl_lint.entry): runs are kept here instead of freed, because the
# process exits right after and tearing down a large project's trees costs time for nothing;
# for the same reason the run does not wait for its worker processes to exit (their teardown
# took 30 ms on a 200-file repository, and they are reaped by init once this process exits).
RETAINED: Optional[list] = None


class LintResult(Record):
    """Mutable (the run fills it in), so not hashable."""

    __slots__ = ("diagnostics", "files_checked", "files_parsed", "processes", "shown", "warnings")
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        diagnostics: Optional[List[Diagnostic]] = None,  # None: a new empty list
        files_checked: int = 0,
        files_parsed: int = 0,
        processes: int = 1,  # processes that analysed the files (see dl_lint.workers)
        shown: Optional[set] = None,  # absolute paths of the files whose findings the run shows
        warnings: Optional[List[str]] = None,  # one line each, for "dl-lint: warning: ..."
    ) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.files_checked = files_checked
        self.files_parsed = files_parsed
        self.processes = processes
        self.shown = set() if shown is None else shown
        self.warnings = [] if warnings is None else warnings


# -- public API ---------------------------------------------------------------------------------


def _collector_paused(func):
    """Run ``func`` with Python's cyclic garbage collector paused. Parsing makes hundreds of
    thousands of objects, and each full collection walks them all: on a large project that
    was more than half the run. The analysis frees its own cycles (``ModuleIndex.release``),
    so memory stays bounded; the previous state is restored afterwards."""

    @functools.wraps(func)
    def paused(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused



@_collector_paused
def lint_source(
    source: str,
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    *,
    project_root: Optional[os.PathLike | str] = None,
) -> List[Diagnostic]:
    """Lint one source text as if it were the file ``path`` (which need not exist). With
    ``project_root``, imports are resolved against the project's other files. Only the
    diagnostics of this source are returned: findings reported in a YAML config it reads are
    for ``lint_paths`` (the flake8 plugin and the language server show one Python file)."""
    from dl_lint.analysis.signals import has_accelerator_evidence
    from dl_lint.judge import analyse, judge, judge_call_sites, merge_repeats
    from dl_lint.unused_noqa import enabled_somewhere, report_unused

    settings = settings or Settings()
    root = Path(project_root) if project_root is not None else None
    module_name = module_name_for(Path(path)) if root is not None else Path(path).stem
    file = SourceFile(Path(path), path, module_name, settings, source.encode("utf-8", "surrogatepass"), source)
    if is_notebook_path(path):
        file.source = None
        read_notebook(file)
        if file.errors:
            return list(file.errors)
    project = Project(root, settings.extra_loaders, max_file_size=settings.max_file_size)
    analyse(file, project)
    own_evidence = has_accelerator_evidence(file.data)

    def accelerator(call) -> bool:
        if own_evidence:
            return True
        return root is not None and project.accelerator_reaches(module_name, {module_name: file.data})

    diagnostics = merge_repeats(judge([file], project, accelerator) + judge_call_sites([file], [file], project, accelerator))
    if any(d.suppressed_at is not None for d in diagnostics) or enabled_somewhere([file]):
        diagnostics = report_unused(diagnostics, [file])
    diagnostics = [d for d in diagnostics if d.filename == file.display]
    diagnostics.sort(key=Diagnostic.sort_key)
    return _map_cells(diagnostics, [file])


def lint_bytes(
    data: bytes,
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    *,
    project_root: Optional[os.PathLike | str] = None,
) -> List[Diagnostic]:
    """``lint_source`` for undecoded bytes (piped source): decoded as a file is (BOM, coding
    cookie, else UTF-8); bytes that cannot be decoded give the file's DL000."""
    from dl_lint.source import decode

    try:
        source = decode(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        file = SourceFile(Path(path), path, Path(path).stem, settings or Settings())
        return [dl000(file, f"cannot decode file: {one_line(exc)}", 1, 1)]
    return lint_source(source, path, settings, project_root=project_root)


@_collector_paused
def lint_paths(
    paths: Sequence[os.PathLike | str] = (".",),
    *,
    config_file: Optional[os.PathLike | str] = None,
    overrides: Optional[Dict[str, object]] = None,
    force_exclude: bool = False,
    jobs: Optional[int] = None,
    cache: bool = False,
    cache_dir: Optional[os.PathLike | str] = None,
    overlays: Optional[Dict[str, str]] = None,
) -> LintResult:
    """Lint files and folders. Settings come from ``config_file`` or, per file, from the
    nearest pyproject.toml with a ``[tool.dl-lint]`` table; ``overrides`` (CLI flags) win.
    With ``force_exclude``, the exclude settings apply to files named explicitly too.
    ``overlays``: path -> text of files whose unsaved text replaces what is on disk (an
    editor's open buffers), for the files named and for every module the analysis reads.

    ``jobs``: worker processes for the files that need the full analysis (None: one per
    core; they start only when there are enough such files to pay for them; 1: none).
    ``cache``: reuse and store results in ``cache_dir`` (default: ``.dl_lint_cache`` at the
    project root, else in the working directory); see ``dl_lint.pipeline``."""
    from dl_lint.rules import known_codes

    overrides = overrides or {}
    codes = known_codes()
    configs: Dict = {}
    fixed: Optional[Settings] = None
    if config_file is not None:
        fixed = load_config_file(Path(config_file), codes).with_overrides(**overrides)

    by_dir: Dict[str, Settings] = {}

    def settings_for(directory: os.PathLike | str) -> Settings:
        if fixed is not None:
            return fixed
        key = os.fspath(directory)
        if key not in by_dir:  # one Settings object per folder (and per config, below)
            found = settings_for_dir(Path(directory), codes, configs)
            by_config.setdefault(id(found), found.with_overrides(**overrides))
            by_dir[key] = by_config[id(found)]
        return by_dir[key]

    by_config: Dict[int, Settings] = {}

    files: List[SourceFile] = []
    seen = set()
    cwd = os.getcwd()
    paths = list(paths or (".",))
    # YAML files named explicitly (pre-commit passes the staged ones): not Python. Their
    # findings come from the Python files that read them (see ``_config_readers``).
    named_configs = [p for p in paths if os.fspath(p).endswith(CONFIG_SUFFIXES) and os.path.isfile(p)]
    # Makefiles and shell scripts named (a staged one): not Python either. They may be container
    # definitions (DL104), whose findings are reported at the loaders they rest on.
    named_configs += [p for p in paths if _shell_source(p) and os.path.isfile(p)]
    if named_configs:
        paths = [p for p in paths if p not in named_configs]
        if not paths:
            paths = [named_configs[0]]  # only the project root and settings are taken from it
    first = settings_for(Path(paths[0]).parent)
    project = Project(find_root(Path(paths[0])), first.extra_loaders, max_file_size=first.max_file_size)
    store = None
    warnings: List[str] = []
    if cache:
        from dl_lint.cache import CacheUnavailable, open_cache, project_cache_dir

        if cache_dir is None:
            cache_dir = project_cache_dir(paths[0])
        try:
            store = open_cache(cache_dir, project.root)
        except CacheUnavailable as exc:  # a planted link, no place for the key: say so once
            warnings.append(str(exc))
        except Exception:  # noqa: BLE001 - never fail a run because of the cache
            store = None
        project.store = store
        if store is not None:
            project.hash_of = store.hash_of  # also for the import graph of a partial run (``_dependencies``)
    unsaved = {absolute_path(os.fspath(k), cwd): v.encode("utf-8", "surrogatepass") for k, v in (overlays or {}).items()}
    project.overlays = unsaved
    if store is not None:
        store.overlays = unsaved
    for given in paths:
        given = Path(given)
        if given in named_configs or os.fspath(given) in map(os.fspath, named_configs):
            continue
        base = settings_for(given if os.path.isdir(given) else given.parent)  # no PermissionError
        found = discover(
            [given],
            exclude=base.exclude,
            extend_exclude=base.extend_exclude,
            respect_gitignore=base.respect_gitignore,
            root=Path(base.root) if base.root else None,
            suffixes=(".py", ".ipynb"),
            force_exclude=force_exclude,
            listings=store.listings if store is not None else None,
        )
        if found.listings_changed:
            store.dirty = True
        for path, reason in found.warnings:
            if f"{path}: {reason}" not in warnings:
                warnings.append(f"{path}: {reason}")
        if (
            project.root is not None
            and os.path.abspath(given) == os.fspath(project.root)
            and not (base.exclude or base.extend_exclude or force_exclude)
            and base.respect_gitignore
        ):  # the project index would walk the same tree the same way
            project.seed_files(tuple(p for p in found.files if p.suffix == ".py"))
        for problem_path, reason in found.problems:
            files.append(unreadable(problem_path, reason, base))
        for path in found.files:
            key = absolute_path(os.fspath(path), cwd)
            if key in seen:
                continue
            seen.add(key)
            files.append(
                SourceFile(
                    path,
                    display_path(path, key, cwd),
                    module_name_for(key, absolute=True),
                    settings_for(os.path.dirname(key)),
                    abspath=key,
                )
            )

    # Where findings are shown: the files found under the given paths (excludes applied) and
    # the config files named. What is read and judged: those and the rest of the project, as a
    # full run reads it, so naming files never changes what is reported in them (issue 26).
    shown_keys = {f.key for f in files}
    if named_configs:
        shown_keys |= _named_config_keys(named_configs, settings_for, force_exclude, cwd)
    result = LintResult(files_checked=len(files), shown=shown_keys, warnings=warnings)
    if project.root is not None:
        added = False
        for key in sorted(_dependencies(project, files, named_configs, cwd, store) - seen):
            seen.add(key)
            path = Path(key)
            module = module_name_for(key, absolute=True)
            files.append(SourceFile(path, display_path(path, key, cwd), module, settings_for(os.path.dirname(key)), abspath=key))
            added = True
        if added:
            # in the order of the project's files, as a full run meets them: the named files
            # first were analysed first, so the memory budget had dropped them (the oldest) by
            # the call-site phase, which parsed them again (Lightning's five-file run: 2 more parses)
            files.sort(key=lambda f: f.key)
    for file in files if unsaved else ():
        if file.key in unsaved:
            file.data = unsaved[file.key]
    from dl_lint.pipeline import run_files

    diagnostics, result.files_parsed, result.processes = run_files(
        files, project, jobs=jobs, store=store, wait_for_workers=RETAINED is None
    )
    from dl_lint.unused_noqa import enabled_somewhere, report_unused

    counting = enabled_somewhere(files)  # DL012: what each directive silences is kept, marked
    diagnostics = shown(diagnostics, shown_keys, settings_for, project, cwd, force_exclude, keep_silenced=counting)
    if counting or any(d.suppressed_at is not None for d in diagnostics):
        diagnostics = report_unused(diagnostics, [f for f in files if f.key in shown_keys])  # drops the marked
    diagnostics = _once_in_configs(diagnostics)
    result.diagnostics = _map_cells(diagnostics, files)
    if RETAINED is not None:
        RETAINED.append((project, files))
    return result


# -- where findings are shown ---------------------------------------------------------------------


def _dependencies(project: Project, files: List[SourceFile], named_configs, cwd: str, store=None) -> set:
    """The project files a run must read and judge besides the ones it shows, so that what it
    shows does not depend on which files were named: the Python files that read a named config
    file, and the import neighbourhood (``Project.neighbourhood``) of those and of the shown
    files. A full run without excludes shows every file already: nothing to add. Without a
    project marker (a stray script in a home folder), only the readers of named configs.

    Without the imports of a results cache (``--no-cache``, or a cache that holds none yet), the
    neighbourhood costs a read of every file's imports before anything is judged, and for a
    module of a package it is most of the project anyway: the package's other modules import it,
    and everything that imports the package follows (a Lightning module's neighbourhood is 557
    of its 646 files; the import graph made a run on one file 6-10% slower than the full run).
    So a run that names a module of a package (a folder with ``__init__.py``) reads and judges
    every project file, as a full run does, and costs what it costs (issue 26: no more than the
    full cold run); a run naming only scripts outside packages (a training script, a notebook's
    neighbour) keeps the neighbourhood, which is small there. The answer is the same either
    way; only the work differs. With cached imports the neighbourhood is cheap and always used."""
    keys = {f.key for f in files if not f.errors}
    configs = [p for p in named_configs if not _shell_source(p)]
    readers = {absolute_path(os.fspath(p), cwd) for p in _config_readers(project)} if configs else set()
    if not is_project_root(project.root):
        return readers
    index = {absolute_path(os.fspath(p), cwd) for p in project.files()}
    if named_configs and _names_a_container(project, named_configs, cwd):
        # DL104 may report at any loader of the project: every file is judged, notebooks too
        return readers | ((index | _project_notebooks(project, cwd)) - keys)
    if index <= keys:
        return readers
    if (store is None or not store.imports) and any(_in_package(key) for key in keys):
        return readers | index
    return readers | project.neighbourhood(keys | readers)


def _shell_source(path) -> bool:
    """A Makefile or shell script (by its name): never Python, maybe a container definition."""
    from dl_lint.analysis.containers import kind_by_name

    return kind_by_name(os.path.basename(os.fspath(path))) in ("makefile", "script")


def _names_a_container(project: Project, named, cwd: str) -> bool:
    """Whether a named file is one of the project's container definitions (DL104's evidence)."""
    definitions = {absolute_path(path, cwd) for path in project.container_files()}
    return any(absolute_path(os.fspath(p), cwd) in definitions for p in named)


def _project_notebooks(project: Project, cwd: str) -> set:
    """The notebooks under the project root (the index holds .py files only)."""
    from dl_lint.discovery import discover

    try:
        found = discover([project.root], suffixes=(".ipynb",)).files
    except Exception:  # noqa: BLE001 - best effort, as the index
        return set()
    return {absolute_path(os.fspath(p), cwd) for p in found}


def _in_package(path: str) -> bool:
    return os.path.isfile(os.path.join(os.path.dirname(path), "__init__.py"))


def is_project_root(root: os.PathLike | str) -> bool:
    """Whether ``root`` holds a project marker (``find_root`` falls back to a path's own folder,
    which is no project: a stray script in a home folder must not make the run walk it)."""
    from dl_lint.roots import ROOT_MARKERS

    return any(os.path.exists(os.path.join(root, marker)) for marker in ROOT_MARKERS)


def shown(
    diagnostics: List[Diagnostic],
    shown_keys: set,
    settings_for,
    project: Project,
    cwd: str,
    force_exclude: bool = False,
    keep_silenced: bool = False,
) -> List[Diagnostic]:
    """The findings a run shows, with the settings of the file each is reported in:

    - located in a file the run names (or found under a named folder), or resting on one (its
      related locations and the files its values come from: ``Diagnostic.evidence``) while its
      own file is not excluded by the ``exclude`` settings of its folder;
    - its code enabled for that file (``select``/``ignore`` and ``per-file-ignores`` matched
      against the reported file, not the file whose analysis found it);
    - no ``# noqa`` for it at its line (applied by the judge) or at one of its related
      locations in a Python file of the project. With ``keep_silenced`` (DL012 counts what
      each directive silences), one silenced at a related location is kept, marked with
      ``suppressed_at`` as the judge marks what it silences (``dl_lint.unused_noqa``)."""
    from dl_lint.config import codes_for_file
    from dl_lint.rules import known_codes

    codes = known_codes()
    out = []
    excluded: Dict[str, bool] = {}
    enabled: Dict[tuple, frozenset] = {}
    related_noqa: Dict[object, object] = {}
    for diag in diagnostics:
        key = absolute_path(diag.filename, cwd) if not diag.filename.startswith("<") else diag.filename
        if key not in shown_keys:
            if not any(e in shown_keys for e in diag.evidence):
                continue
            if key not in excluded:
                excluded[key] = _excluded(key, settings_for(os.path.dirname(key)))
            if excluded[key]:
                continue
        settings = settings_for(os.path.dirname(key))
        which = (id(settings), key)
        if which not in enabled:
            enabled[which] = codes_for_file(settings, codes, Path(key))
        if diag.code not in enabled[which] and diag.code != "DL000":
            continue
        if diag.related and diag.suppressed_at is None:
            place = _noqa_at_related(diag, project, related_noqa)
            if place is not None:
                if keep_silenced:
                    out.append(diag.replace(suppressed_at=(place.path, place.row, place.row)))
                continue
        out.append(diag)
    return out


def _excluded(key: str, settings: Settings) -> bool:
    """Whether a file is excluded by the ``exclude``/``extend-exclude`` globs of its settings
    (the file or a folder above it, up to the root), or by a default exclude."""
    from dl_lint.discovery import excluded_path

    return excluded_path(key, tuple(settings.exclude) + tuple(settings.extend_exclude), settings.root)


def _noqa_at_related(diag: Diagnostic, project: Project, cache: Dict[object, object]) -> Optional[Related]:
    """The related location (a Python file's line: the loader a call site configures, the
    dataset class) that has a ``# noqa`` for this diagnostic (its code, a prefix of it as flake8
    reads one, or bare), or None."""
    from dl_lint.source import decode
    from dl_lint.suppression import parse_suppressions

    for place in diag.related:
        if not place.path.endswith(".py") or place.cell is not None:
            continue
        lines = cache.get(("lines", place.path))
        if lines is None:
            data = project.source_bytes(place.path)
            lines = cache[("lines", place.path)] = data.splitlines() if data else []
        # A line without the word cannot hold a directive: the file is tokenized only for one that
        # has it (the values' origins are cited too, often in a long training script).
        if not 0 < place.row <= len(lines) or b"noqa" not in lines[place.row - 1].lower():  # type: ignore[index]
            continue
        found = cache.get(place.path)
        if found is None:
            data = project.source_bytes(place.path)
            try:
                found = parse_suppressions(decode(data)).lines if data else {}
            except (SyntaxError, UnicodeDecodeError, LookupError):
                found = {}
            cache[place.path] = found
        codes = found.get(place.row, False)  # type: ignore[union-attr]
        if codes is None or (codes and diag.code.upper().startswith(tuple(codes))):
            return place
    return None


# -- YAML configs named explicitly ---------------------------------------------------------------


def _once_in_configs(diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    """A finding in a YAML config reached from several Python files (two LightningCLI scripts
    sharing a configs folder) is the same finding: keep one of each identical diagnostic (same
    line, code, message and DataLoader)."""
    seen = set()
    out = []
    for diag in diagnostics:
        if diag.filename.endswith(CONFIG_SUFFIXES):
            key = (diag.filename, diag.location, diag.code, diag.message, repr(diag.related))
            if key in seen:
                continue
            seen.add(key)
        out.append(diag)
    return out


CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")  # config sources a run may name (pre-commit passes staged ones)


def _named_config_keys(named, settings_for, force_exclude: bool, cwd: str) -> set:
    """Absolute paths of the named YAML files (minus excluded ones under ``force_exclude``)."""
    keys = set()
    for given in named:
        base = settings_for(Path(given).parent)
        found = discover(
            [Path(given)],
            exclude=base.exclude,
            extend_exclude=base.extend_exclude,
            respect_gitignore=base.respect_gitignore,
            root=Path(base.root) if base.root else None,
            suffixes=CONFIG_SUFFIXES,
            force_exclude=force_exclude,
        )
        keys.update(absolute_path(os.fspath(p), cwd) for p in found.files)
    return keys


_HYDRA_WRAPPER = re.compile(rb"^[ \t]*(?:return\b|\w+\s*=)[^\n]*\bhydra\.main\(|^[ \t]+return[ \t]+main\(", re.M)


def _config_readers(project: Project) -> List[Path]:
    """The project's Python files that can report a finding in a YAML config: they name Hydra
    (or OmegaConf) and a DataLoader, load a config file themselves, or LightningCLI (whose config files set a DataModule's
    arguments), decided from their bytes; the analysis decides the rest."""
    from dl_lint.analysis.configs import instantiate, keypaths, lightning_cli, transformers

    if project.root is None:
        return []
    out = []
    readable = [(path, data) for path in project.files() for data in (project.module_bytes(os.fspath(path)),) if data is not None]
    # A project decorator that wraps hydra.main (``return hydra.main(...)``): its scripts need not
    # name Hydra; any script with a decorated function and a DataLoader may reach a config.
    wrapped = any(_HYDRA_WRAPPER.search(data) for _, data in readable if b"hydra" in data)
    # Module-level functions of modules that load a config file and may return it
    # (``keypaths.returned_config``): a file calling one may hand the config to a loader factory.
    helpers = keypaths.helper_names(data for _, data in readable)
    for path, data in readable:
        if wrapped and b"DataLoader" in data and b"@" in data:
            out.append(Path(path))
            continue
        if helpers and any(name in data for name in helpers):
            out.append(Path(path))
            continue
        if (
            ((b"hydra" in data or b"OmegaConf" in data) and b"DataLoader" in data)
            or lightning_cli.candidate(data)
            or transformers.candidate(data)  # HF arguments files (JSON/YAML)
            or keypaths.candidate(data)  # loads a YAML/JSON config itself (yaml.safe_load, json.load)
            or instantiate.candidate(data)  # OmegaConf nodes it instantiates into project classes
        ):
            out.append(Path(path))
        elif b"hydra" in data:
            from dl_lint.analysis.configs import hydra_target

            if hydra_target.candidate(data):  # instantiates a node that may name a DataLoader
                out.append(Path(path))
    return out


# -- notebooks -----------------------------------------------------------------------------------


def _map_cells(diagnostics: List[Diagnostic], files: Iterable[SourceFile]) -> List[Diagnostic]:
    """Diagnostics in notebooks get their ``cell`` and rows within that cell (noqa rows and fix
    edits too; an edit that would leave the cell drops the fix)."""
    files = list(files)
    reported = {diag.filename for diag in diagnostics if diag.cell is None}
    for file in files:
        # A notebook whose results came from the cache was not read: read it for its map.
        if file.cell_map is None and file.display in reported and not file.errors and is_notebook_path(file.path):
            read(file)
    maps = {file.display: file.cell_map for file in files if file.cell_map is not None}
    if not maps:
        return diagnostics
    out = []
    for diag in diagnostics:
        cell_map = maps.get(diag.filename)
        out.append(diag if cell_map is None or diag.cell is not None else _to_cell(diag, cell_map))
    out.sort(key=Diagnostic.sort_key)
    return out


def _to_cell(diag: Diagnostic, cell_map: "CellMap") -> Diagnostic:
    start = cell_map.locate(diag.location.row)
    if start is None:
        return diag
    cell = start[0]

    def row_in_cell(row: int, default: int) -> int:
        where = cell_map.locate(row)
        return where[1] if where is not None and where[0] == cell else default

    location = Location(start[1], diag.location.column)
    end = Location(row_in_cell(diag.end_location.row, start[1]), diag.end_location.column)
    if end < location:
        end = location
    noqa_rows = diag.noqa_rows
    if noqa_rows != (0, 0):
        noqa_rows = (row_in_cell(noqa_rows[0], start[1]), row_in_cell(noqa_rows[1], end.row))
    fix = diag.fix
    if fix is not None:
        edits = []
        for edit in fix.edits:
            a, b = cell_map.locate(edit.location.row), cell_map.locate(edit.end_location.row)
            if a is None or b is None or a[0] != cell or b[0] != cell:
                edits = None
                break
            edits.append(
                edit.replace(
                    location=Location(a[1], edit.location.column),
                    end_location=Location(b[1], edit.end_location.column),
                )
            )
        fix = fix.replace(edits=tuple(edits)) if edits is not None else None
    # Places cited in the same notebook: their rows too (a class defined in another cell).
    here = os.path.abspath(diag.filename)
    places = [(p, cell_map.locate(p.row) if p.cell is None and p.path == here else None) for p in diag.related]
    related = tuple(p.replace(cell=at[0], row=at[1]) if at else p for p, at in places)
    return diag.replace(
        cell=cell, location=location, end_location=end, noqa_rows=noqa_rows, fix=fix, related=related
    )


# -- helpers -------------------------------------------------------------------------------------
