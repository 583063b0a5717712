"""The run: read files, decide which need parsing, extract facts, apply rules, suppress.

``lint_paths`` and ``lint_source`` are the public API that the CLI (and tests, and later the
flake8 plugin and the language server) are thin layers over.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence

if TYPE_CHECKING:
    from dl_lint.analysis.datasets import DatasetIndex

from dl_lint.analysis.loaders import LoaderCall
from dl_lint.analysis.prefilter import may_construct_loader, mentions_loader
from dl_lint.analysis.project import Project, find_root, module_name_for
from dl_lint.analysis.signals import has_accelerator_evidence
from dl_lint.source import decode
from dl_lint.config import Settings, codes_for_file, load_config_file, settings_for_dir
from dl_lint.discovery import discover
from dl_lint.model import Diagnostic, Location, Severity
from dl_lint.rules import all_rules, checking_rules, known_codes
from dl_lint.suppression import parse_suppressions

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


class RuleContext:
    """What a rule may know beyond the call: settings and project-wide facts."""

    def __init__(
        self,
        settings: Settings,
        module_name: str,
        path: str,
        datasets: "DatasetIndex",
        accelerator: Callable[[LoaderCall], bool],
    ) -> None:
        self.settings = settings
        self.module_name = module_name
        self.path = path
        self.datasets = datasets
        self._accelerator = accelerator

    def torch_at_least(self, major: int, minor: int) -> bool:
        try:
            got = tuple(int(p) for p in self.settings.target_version.split(".")[:2])
        except ValueError:
            return True
        return got >= (major, minor)

    def has_accelerator_evidence(self, call: LoaderCall) -> bool:
        return self._accelerator(call)

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
    settings = settings or Settings()
    root = Path(project_root) if project_root is not None else None
    module_name = module_name_for(Path(path)) if root is not None else Path(path).stem
    file = _File(Path(path), path, module_name, settings, source.encode("utf-8"), source)
    project = Project(root, settings.extra_loaders)
    _analyse(file, project)
    own_evidence = has_accelerator_evidence(file.data)

    def accelerator(call: LoaderCall) -> bool:
        if own_evidence:
            return True
        return root is not None and project.accelerator_reaches(module_name, [(module_name, file.data)])

    return _judge([file], project, accelerator)


def lint_paths(
    paths: Sequence[os.PathLike | str] = (".",),
    *,
    config_file: Optional[os.PathLike | str] = None,
    overrides: Optional[Dict[str, object]] = None,
) -> LintResult:
    """Lint files and folders. Settings come from ``config_file`` or, per file, from the
    nearest pyproject.toml with a ``[tool.dl-lint]`` table; ``overrides`` (CLI flags) win."""
    overrides = overrides or {}
    codes = known_codes()
    cache: Dict = {}
    fixed: Optional[Settings] = None
    if config_file is not None:
        fixed = load_config_file(Path(config_file), codes).with_overrides(**overrides)

    def settings_for(directory: Path) -> Settings:
        if fixed is not None:
            return fixed
        return settings_for_dir(directory, codes, cache).with_overrides(**overrides)

    files: List[_File] = []
    seen = set()
    paths = list(paths or (".",))
    project = Project(find_root(Path(paths[0])), settings_for(Path(paths[0]).parent).extra_loaders)
    for given in paths:
        given = Path(given)
        base = settings_for(given if given.is_dir() else given.parent)
        found = discover(
            [given],
            exclude=base.exclude,
            extend_exclude=base.extend_exclude,
            respect_gitignore=base.respect_gitignore,
            root=Path(base.root) if base.root else None,
        )
        for problem_path, reason in found.problems:
            files.append(_unreadable(problem_path, reason, base))
        for path in found.files:
            key = os.path.abspath(path)
            if key in seen:
                continue
            seen.add(key)
            files.append(_File(path, display_path(path), module_name_for(path), settings_for(path.parent)))

    result = LintResult(files_checked=len(files))
    for file in files:
        if file.errors:
            continue
        try:
            file.data = file.path.read_bytes()
        except OSError as exc:
            file.errors.append(_dl000(file, f"cannot read file: {exc.strerror or exc}", 1, 1))
            continue
        extra = file.settings.extra_loaders
        if mentions_loader(file.data, extra) and may_construct_loader(file.data, extra):
            result.files_parsed += 1
            _analyse(file, project)
    by_path = {str(f.path): f for f in files}
    linted = [(f.module_name, f.data) for f in files if f.data]

    def accelerator(call: LoaderCall) -> bool:
        file = by_path.get(call.path)
        return project.accelerator_reaches(file.module_name if file else "", linted)

    result.diagnostics = _judge(files, project, accelerator)
    return result


# -- stages ------------------------------------------------------------------------------------


def _analyse(file: _File, project: Project) -> None:
    """Decode and parse one file into facts; problems become DL000 diagnostics."""
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
    except RecursionError:
        file.errors.append(_dl000(file, "cannot parse: expressions nested too deeply for the parser", 1, 1))
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the run
        file.errors.append(
            _dl000(file, f"internal error while analysing this file ({type(exc).__name__}: {_one_line(exc)})", 1, 1)
        )


def _judge(files: Iterable[_File], project: Project, accelerator: Callable[[LoaderCall], bool]) -> List[Diagnostic]:
    files = list(files)
    codes = known_codes()
    out: List[Diagnostic] = []
    for file in files:
        out.extend(file.errors)
        if file.facts is None or not file.facts.calls:
            continue
        rules = checking_rules(codes_for_file(file.settings, codes, file.path))
        ctx = RuleContext(file.settings, file.module_name, str(file.path), project.datasets, accelerator)
        suppressions = parse_suppressions(file.source or "")
        for call in file.facts.calls:
            for diag in _check(call, rules, ctx, file.display):
                if not suppressions.suppresses(diag):
                    out.append(diag)
    out.extend(_judge_call_sites(files, project, accelerator))
    out.sort(key=Diagnostic.sort_key)
    return out


def _check(call: LoaderCall, rules, ctx: RuleContext, display: str) -> Iterable[Diagnostic]:
    for rule in rules:
        for finding in rule.check_call(call, ctx):
            yield Diagnostic(
                code=rule.code,
                name=rule.name,
                severity=rule.severity,
                message=finding.message,
                filename=display,
                location=finding.location,
                end_location=finding.end_location,
                fix=finding.fix,
                noqa_rows=call.rows,
            )


def _judge_call_sites(
    files: List[_File], project: Project, accelerator: Callable[[LoaderCall], bool]
) -> List[Diagnostic]:
    """Loaders built from a function's parameters, judged once per call of that function in
    the linted files, with the call's arguments (or the defaults it relies on)."""
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
            ctx = RuleContext(callee_file.settings, ref.module, str(callee_file.path), project.datasets, accelerator)
            own = {(d.code, d.location) for c in callee_file.facts.calls for d in _check(c, rules, ctx, "")}
            start, end = analysis._location(call)
            for loader in callee.loader_calls_with(function, env):
                for diag in _check(loader, rules, ctx, caller.display):
                    if (diag.code, diag.location) in own:
                        continue  # reported at the loader itself already
                    where = f"{display_path(Path(callee_file.path))}:{loader.location.row}"
                    moved = Diagnostic(
                        code=diag.code,
                        name=diag.name,
                        severity=diag.severity,
                        message=f"with the arguments of this call, the DataLoader at {where}: {diag.message}",
                        filename=caller.display,
                        location=start,
                        end_location=end,
                        noqa_rows=(start.row, end.row),
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


# -- helpers -------------------------------------------------------------------------------------


def display_path(path: Path) -> str:
    """Paths under the working directory print relative to it, like ruff; others as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _one_line(exc: object) -> str:
    return " ".join(str(exc).split())


def _dl000(file: _File, message: str, row: int, column: int) -> Diagnostic:
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
