"""The run: read files, decide which need parsing, extract facts, apply rules, suppress.

``lint_paths`` and ``lint_source`` are the public API that the CLI (and tests, and later the
flake8 plugin and the language server) are thin layers over.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence

if TYPE_CHECKING:
    from dl_lint.analysis.datasets import DatasetIndex
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.notebook import CellMap

from dl_lint.analysis.project import Project, find_root, module_name_for
from dl_lint.config import Settings, codes_for_file, load_config_file, settings_for_dir
from dl_lint.discovery import discover
from dl_lint.model import Diagnostic, Location, Related, Severity

@dataclass
class LintResult:
    diagnostics: List[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    files_parsed: int = 0


@dataclass
class _File:
    path: Path
    display: str
    module_name: str
    settings: Settings
    data: bytes = b""
    source: Optional[str] = None
    facts: Optional[object] = None
    errors: List[Diagnostic] = field(default_factory=list)
    # Notebooks: ``data``/``source`` hold the code cells as Python; rows map back through this.
    cell_map: Optional["CellMap"] = None
    abspath: str = ""  # os.path.abspath(path), computed once (files found by lint_paths)


class RuleContext:
    """What a rule may know beyond the call: settings and project-wide facts."""

    def __init__(
        self,
        settings: Settings,
        module_name: str,
        path: str,
        datasets: "DatasetIndex",
        accelerator: Callable[[LoaderCall], bool],
        signal: Optional[Callable[[str], bool]] = None,
        is_notebook: bool = False,
    ) -> None:
        self.settings = settings
        self.module_name = module_name
        self.path = path
        self.datasets = datasets
        self._accelerator = accelerator
        self._signal = signal or (lambda kind: False)
        self.is_notebook = is_notebook
        # For fixes that need torch (DL102): how the module names torch, where to import it.
        self.torch_name: Optional[str] = "torch"
        self.import_row = 1

    def torch_at_least(self, major: int, minor: int) -> bool:
        try:
            got = tuple(int(p) for p in self.settings.target_version.split(".")[:2])
        except ValueError:
            return True
        return got >= (major, minor)

    def has_accelerator_evidence(self, call: LoaderCall) -> bool:
        return self._accelerator(call)

    def signal(self, kind: str) -> bool:
        """A program-wide signal connected to this module: "spawn", "distributed"."""
        return self._signal(kind)

    def dataset_class(self, value):
        """The project class of a dataset value (an Instance), if we can see it."""
        from dl_lint.analysis.values import Instance

        if isinstance(value, Instance) and not value.local:
            return self.datasets.resolve_instance(value, self.module_name)
        return None

    def dataset_is_iterable(self, value) -> bool:
        cls = self.dataset_class(value)
        return cls is not None and self.datasets.is_iterable(cls)

    def relative(self, path: str) -> str:
        return display_path(Path(path))


# -- public API ---------------------------------------------------------------------------------


def lint_source(
    source: str,
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    *,
    project_root: Optional[os.PathLike | str] = None,
) -> List[Diagnostic]:
    """Lint one source text as if it were the file ``path`` (which need not exist). With
    ``project_root``, imports are resolved against the project's other files."""
    from dl_lint.analysis.signals import has_accelerator_evidence

    settings = settings or Settings()
    root = Path(project_root) if project_root is not None else None
    module_name = module_name_for(Path(path)) if root is not None else Path(path).stem
    file = _File(Path(path), path, module_name, settings, source.encode("utf-8", "surrogatepass"), source)
    if is_notebook_path(path):
        file.source = None
        _read_notebook(file)
        if file.errors:
            return list(file.errors)
    project = Project(root, settings.extra_loaders)
    _analyse(file, project)
    own_evidence = has_accelerator_evidence(file.data)

    def accelerator(call: LoaderCall) -> bool:
        if own_evidence:
            return True
        return root is not None and project.accelerator_reaches(module_name, [(module_name, file.data)])

    return _map_cells(_judge([file], project, accelerator), [file])


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
        file = _File(Path(path), path, Path(path).stem, settings or Settings())
        return [_dl000(file, f"cannot decode file: {_one_line(exc)}", 1, 1)]
    return lint_source(source, path, settings, project_root=project_root)


def lint_paths(
    paths: Sequence[os.PathLike | str] = (".",),
    *,
    config_file: Optional[os.PathLike | str] = None,
    overrides: Optional[Dict[str, object]] = None,
    force_exclude: bool = False,
    jobs: Optional[int] = None,
    cache: bool = False,
    cache_dir: Optional[os.PathLike | str] = None,
) -> LintResult:
    """Lint files and folders. Settings come from ``config_file`` or, per file, from the
    nearest pyproject.toml with a ``[tool.dl-lint]`` table; ``overrides`` (CLI flags) win.
    With ``force_exclude``, the exclude settings apply to files named explicitly too.

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

    files: List[_File] = []
    seen = set()
    cwd = os.getcwd()
    paths = list(paths or (".",))
    project = Project(find_root(Path(paths[0])), settings_for(Path(paths[0]).parent).extra_loaders)
    store = None
    if cache:
        from dl_lint.cache import ResultsCache, project_cache_dir

        if cache_dir is None:
            cache_dir = project_cache_dir(paths[0])
        try:
            store = ResultsCache(cache_dir)
        except Exception:  # noqa: BLE001 - never fail a run because of the cache
            store = None
    for given in paths:
        given = Path(given)
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
        if (
            project.root is not None
            and os.path.abspath(given) == os.fspath(project.root)
            and not (base.exclude or base.extend_exclude or force_exclude)
            and base.respect_gitignore
        ):  # the project index would walk the same tree the same way
            project.seed_files(tuple(p for p in found.files if p.suffix == ".py"))
        for problem_path, reason in found.problems:
            files.append(_unreadable(problem_path, reason, base))
        for path in found.files:
            key = os.path.abspath(path)
            if key in seen:
                continue
            seen.add(key)
            files.append(
                _File(
                    path,
                    display_path(path, key, cwd),
                    module_name_for(key, absolute=True),
                    settings_for(os.path.dirname(key)),
                    abspath=key,
                )
            )

    result = LintResult(files_checked=len(files))
    from dl_lint.pipeline import run_files

    diagnostics, result.files_parsed = run_files(files, project, jobs=jobs, store=store)
    result.diagnostics = _map_cells(diagnostics, files)
    return result


def _read(file: _File) -> None:
    """Read one file into ``file.data`` (a notebook: the Python of its code cells); a file that
    cannot be read becomes a DL000 diagnostic (and keeps ``data`` empty)."""
    if not file.data:
        try:
            file.data = file.path.read_bytes()
        except OSError as exc:
            file.errors.append(_dl000(file, f"cannot read file: {exc.strerror or exc}", 1, 1))
            return
    if is_notebook_path(file.path) and file.cell_map is None:
        _read_notebook(file)


def _needs_analysis(file: _File) -> bool:
    """Whether a read file can construct a loader (the prefilter: bytes, then ``ast``)."""
    from dl_lint.analysis.prefilter import may_construct_loader, mentions_loader

    if file.errors or not file.data:
        return False
    extra = file.settings.extra_loaders
    return mentions_loader(file.data, extra) and may_construct_loader(file.data, extra)


def _accelerator_for(files: Sequence[_File], project: Project) -> Callable[[LoaderCall], bool]:
    """DL102's question for files linted together: does the loader's module reach an
    accelerator? Files not read yet (cached ones) are read only if the graph is built."""
    by_path = {str(f.path): f for f in files}

    def linted():
        for f in files:
            data = f.data
            if not data and not f.errors:
                if is_notebook_path(f.path):
                    _read(f)
                    data = f.data
                else:  # read for the graph only: not kept (a 20,000-file tree would stay in memory)
                    try:
                        data = f.path.read_bytes()
                    except OSError:
                        data = b""
            if data:
                yield (f.module_name, data)

    def accelerator(call: LoaderCall) -> bool:
        file = by_path.get(call.path)
        return project.accelerator_reaches(file.module_name if file else "", linted())

    return accelerator


# -- stages ------------------------------------------------------------------------------------


def _analyse(file: _File, project: Project) -> None:
    """Decode and parse one file into facts; problems become DL000 diagnostics."""
    from dl_lint.source import decode

    from libcst import ParserSyntaxError

    from dl_lint.analysis.module import ModuleAnalysis

    if file.source is None:
        try:
            file.source = decode(file.data)
        except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
            file.errors.append(_dl000(file, f"cannot decode file: {_one_line(exc)}", 1, 1))
            return
    try:
        analysis = ModuleAnalysis(
            file.source,
            str(file.path),
            file.module_name,
            file.path.name == "__init__.py",
            project,
            file.settings.extra_loaders,
        )
        project.add(file.module_name, analysis)
        file.facts = analysis.facts()
    except ParserSyntaxError as exc:
        file.errors.append(
            _dl000(file, f"cannot parse: {_one_line(exc.message)}", exc.raw_line, exc.raw_column + 1)
        )
    except RecursionError as exc:  # also dl_lint.source.SourceRejected: too deep or too large for libcst
        reason = getattr(exc, "reason", "expressions nested too deeply for the parser")
        file.errors.append(_dl000(file, f"cannot parse: {reason}", getattr(exc, "row", 1), getattr(exc, "column", 1)))
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the run
        from dl_lint.source import python_syntax_error

        syntax = python_syntax_error(file.source)  # libcst took source Python rejects (b'é', a 5000-digit int)
        if syntax is not None:
            message = f"cannot parse: {_one_line(syntax.msg)}"
            file.errors.append(_dl000(file, message, syntax.lineno or 1, syntax.offset or 1))
            return
        file.errors.append(
            _dl000(file, f"internal error while analysing this file ({type(exc).__name__}: {_one_line(exc)})", 1, 1)
        )


def _judge(
    files: Iterable[_File], project: Project, accelerator: Callable[[LoaderCall], bool], call_sites: bool = True
) -> List[Diagnostic]:
    from dl_lint.fixes import normalize_fix
    from dl_lint.rules import checking_rules, known_codes
    from dl_lint.suppression import parse_suppressions

    files = list(files)
    codes = known_codes()
    out: List[Diagnostic] = []
    for file in files:
        out.extend(file.errors)
        if file.facts is None or not file.facts.calls:
            continue
        rules = checking_rules(codes_for_file(file.settings, codes, file.path))
        ctx = RuleContext(
            file.settings,
            file.module_name,
            str(file.path),
            project.datasets,
            accelerator,
            _signal_for(project, file),
            is_notebook=file.cell_map is not None,
        )
        ctx.torch_name, ctx.import_row = file.facts.torch_name, file.facts.import_row
        suppressions = parse_suppressions(file.source or "")
        for call in file.facts.calls:
            for diag in _check(call, rules, ctx, file.display):
                if suppressions.suppresses(diag):
                    continue
                if diag.fix is not None:
                    diag = replace(diag, fix=normalize_fix(file.source or "", diag.fix))
                out.append(diag)
    if call_sites:
        out.extend(_judge_call_sites(files, project, accelerator))
    out.sort(key=Diagnostic.sort_key)
    return out


def _signal_for(project: Project, file: _File) -> Callable[[str], bool]:
    from dl_lint.analysis.signals import signals_in

    own = signals_in(file.data) if file.data else frozenset()
    extra = [(file.module_name, file.data)] if file.data else []
    return lambda kind: kind in own or (project.root is not None and project.signal_reaches(file.module_name, kind, extra))


def _check(call: LoaderCall, rules, ctx: RuleContext, display: str) -> Iterable[Diagnostic]:
    for rule in rules:
        try:
            findings = list(rule.check_call(call, ctx))
        except Exception as exc:  # noqa: BLE001 - a bug in one rule must not stop the run
            findings = []
            yield Diagnostic(
                code="DL000",
                name="parse-error",
                severity=Severity.ERROR,
                message=f"internal error in {rule.code} while checking this call ({type(exc).__name__}: "
                f"{_one_line(exc)}); please report it",
                filename=display,
                location=call.location,
                end_location=call.location,
                noqa_rows=call.rows,
            )
        for finding in findings:
            yield Diagnostic(
                code=rule.code,
                name=rule.name,
                severity=finding.severity or rule.severity,
                message=finding.message,
                filename=display,
                location=finding.location,
                end_location=finding.end_location,
                fix=finding.fix,
                noqa_rows=call.rows,
                detail=finding.detail,
                related=finding.related,
            )


def _judge_call_sites(
    files: List[_File], project: Project, accelerator: Callable[[LoaderCall], bool]
) -> List[Diagnostic]:
    """Loaders built from a function's parameters, judged once per call of that function in
    the linted files, with the call's arguments (or the defaults it relies on)."""
    from dl_lint.rules import checking_rules, known_codes
    from dl_lint.source import decode
    from dl_lint.suppression import parse_suppressions

    factories = {}
    for file in files:
        if file.facts is None:
            continue
        for name, _params in file.facts.factories:
            factories[(os.path.abspath(file.path), name)] = file
    if not factories:
        return []
    names = {name for _, name in factories}
    encoded = [n.encode() for n in names]
    codes = known_codes()
    out: List[Diagnostic] = []
    for caller in files:
        if not caller.data or not any(n in caller.data for n in encoded):
            continue
        analysis = project.analysis(caller.module_name, str(caller.path))
        if analysis is None:
            continue
        suppressions = None
        for call, site in analysis.calls_named(names):
            target = analysis.resolver.resolve(call.func, site).single
            ref = target.value if target is not None else None
            if getattr(ref, "kind", None) != "function":
                continue
            key = (os.path.abspath(ref.path), ref.name)
            if key not in factories:
                continue
            callee_file = factories[key]
            callee = project.analysis(ref.module, ref.path)
            function = callee.function_node(ref.name) if callee is not None else None
            env = _bind_parameters(call, site, analysis, function, callee) if function is not None else None
            if env is None:
                continue
            rules = checking_rules(codes_for_file(callee_file.settings, codes, callee_file.path))
            ctx = RuleContext(
                callee_file.settings,
                ref.module,
                str(callee_file.path),
                project.datasets,
                accelerator,
                _signal_for(project, callee_file),
                is_notebook=callee_file.cell_map is not None,
            )
            own = {(d.code, d.location) for c in callee_file.facts.calls for d in _check(c, rules, ctx, "")}
            start, end = analysis._location(call)
            for loader in callee.loader_calls_with(function, env):
                for diag in _check(loader, rules, ctx, caller.display):
                    if (diag.code, diag.location) in own:
                        continue  # reported at the loader itself already
                    at = loader.location
                    note = f"the DataLoader {ref.name}() builds"
                    loader_at = Related(os.path.abspath(callee_file.path), at.row, at.column, note)
                    moved = Diagnostic(
                        code=diag.code,
                        name=diag.name,
                        severity=diag.severity,
                        message=f"with the arguments of this call, the DataLoader in {ref.name}(): {diag.message}",
                        filename=caller.display,
                        location=start,
                        end_location=end,
                        noqa_rows=(start.row, end.row),
                        detail=diag.detail,
                        related=(loader_at, *diag.related),
                    )
                    if suppressions is None:
                        suppressions = parse_suppressions(caller.source or decode(caller.data))
                    if not suppressions.suppresses(moved):
                        out.append(moved)
    return out


def _bind_parameters(call, site, caller, function, callee) -> Optional[Dict]:
    """Map the callee's parameters to the Values this call gives them (defaults included);
    None when the call cannot be bound (``*args``/``**kwargs``, unknown keywords)."""
    from dl_lint.analysis.collect import END
    from dl_lint.analysis.values import Origin, Possible, Value

    params = function.params
    positional = [*params.posonly_params, *params.params]
    by_name = {p.name.value: p for p in (*positional, *params.kwonly_params)}
    env: Dict = {}
    index = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(positional):
                return None
            param = positional[index]
            index += 1
        else:
            param = by_name.get(arg.keyword.value)
            if param is None:
                return None
        env[param] = caller.resolver.resolve(arg.value, site)
    for param in by_name.values():
        if param not in env:
            if param.default is None:
                return None
            default = callee.resolver.resolve(param.default, END)
            if default.is_unknown:
                env[param] = Value.unknown("parameter")
                continue
            origin = Origin(f"default of parameter {param.name.value}", callee.path, callee.resolver.line(param))
            env[param] = Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()))
    return env


# -- notebooks -----------------------------------------------------------------------------------


def is_notebook_path(path: os.PathLike | str) -> bool:
    return os.fspath(path).lower().endswith(".ipynb")


def _read_notebook(file: _File) -> None:
    """Replace a notebook's JSON (``file.data``) by the Python source of its code cells; a
    notebook that cannot be read becomes a DL000 diagnostic."""
    from dl_lint.notebook import NotebookError, notebook_to_python

    try:
        source, file.cell_map = notebook_to_python(file.data)
    except NotebookError as exc:
        file.data = b""
        file.errors.append(_dl000(file, f"cannot read notebook: {exc}", 1, 1))
        return
    file.source = source
    file.data = source.encode("utf-8", "surrogatepass")  # a JSON "\ud800" escape: the parser reports it


def _map_cells(diagnostics: List[Diagnostic], files: Iterable[_File]) -> List[Diagnostic]:
    """Diagnostics in notebooks get their ``cell`` and rows within that cell (noqa rows and fix
    edits too; an edit that would leave the cell drops the fix)."""
    files = list(files)
    reported = {diag.filename for diag in diagnostics if diag.cell is None}
    for file in files:
        # A notebook whose results came from the cache was not read: read it for its map.
        if file.cell_map is None and file.display in reported and not file.errors and is_notebook_path(file.path):
            _read(file)
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
    import dataclasses
    import re

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
    message = diag.message
    if diag.code == "DL000":  # the parser's "error at ROW:COL" counts rows of the whole source
        message = re.sub(
            r"\berror at (\d+):(\d+)",
            lambda m: f"error at {row_in_cell(int(m.group(1)), start[1])}:{m.group(2)}",
            message,
        )
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
                dataclasses.replace(
                    edit,
                    location=Location(a[1], edit.location.column),
                    end_location=Location(b[1], edit.end_location.column),
                )
            )
        fix = dataclasses.replace(fix, edits=tuple(edits)) if edits is not None else None
    # Places cited in the same notebook: their rows too (a class defined in another cell).
    here = os.path.abspath(diag.filename)
    places = [(p, cell_map.locate(p.row) if p.cell is None and p.path == here else None) for p in diag.related]
    related = tuple(dataclasses.replace(p, cell=at[0], row=at[1]) if at else p for p, at in places)
    return dataclasses.replace(
        diag, cell=cell, location=location, end_location=end, noqa_rows=noqa_rows, fix=fix, message=message,
        related=related,
    )


# -- helpers -------------------------------------------------------------------------------------


def display_path(path: Path, absolute: Optional[str] = None, cwd: Optional[str] = None) -> str:
    """Paths under the working directory print relative to it, like ruff; others as given.
    ``absolute`` (``os.path.abspath(path)``) and ``cwd``: when the caller has them."""
    # What os.path.relpath would give, without its splitting (this runs once per file).
    absolute = absolute or os.path.abspath(path)
    cwd = cwd or os.getcwd()
    if absolute == cwd:
        return "."
    prefix = cwd if cwd.endswith(os.sep) else cwd + os.sep
    if absolute.startswith(prefix):
        rel = absolute[len(prefix) :]
        return str(path) if rel.startswith("..") else rel
    return str(path)  # outside the working directory: relpath would start with ".."


def _one_line(exc: object) -> str:
    return " ".join(str(exc).split())


def _dl000(file: _File, message: str, row: int, column: int) -> Diagnostic:
    from dl_lint.rules import all_rules

    rule = all_rules()["DL000"]
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        severity=Severity.ERROR,
        message=message,
        filename=file.display,
        location=Location(max(row, 1), max(column, 1)),
        end_location=Location(max(row, 1), max(column, 1)),
    )


def _unreadable(path: Path, reason: str, settings: Settings) -> _File:
    file = _File(path, display_path(path), path.name, settings)
    file.errors.append(_dl000(file, reason, 1, 1))
    return file
