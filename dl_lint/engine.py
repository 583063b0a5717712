"""The run: read files, decide which need parsing, extract facts, apply rules, suppress.

``lint_paths`` and ``lint_source`` are the public API that the CLI (and tests, and later the
flake8 plugin and the language server) are thin layers over.
"""

from __future__ import annotations

import io
import os
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from dl_lint.analysis.datasets import DatasetIndex
from dl_lint.analysis.loaders import LoaderCall
from dl_lint.analysis.prefilter import may_construct_loader, mentions_loader
from dl_lint.analysis.signals import has_accelerator_evidence
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
        datasets: DatasetIndex,
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
) -> List[Diagnostic]:
    """Lint one source text as if it were the file ``path`` (which need not exist)."""
    settings = settings or Settings()
    file = _File(Path(path), path, _module_name_for(Path(path)), settings, source.encode("utf-8"), source)
    _analyse(file)
    evidence = has_accelerator_evidence(file.data)
    return _judge([file], lambda call: evidence)


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
    for given in paths or (".",):
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
            files.append(_File(path, display_path(path), _module_name_for(path), settings_for(path.parent)))

    result = LintResult(files_checked=len(files))
    evidence = False
    for file in files:
        if file.errors:
            continue
        try:
            file.data = file.path.read_bytes()
        except OSError as exc:
            file.errors.append(_dl000(file, f"cannot read file: {exc.strerror or exc}", 1, 1))
            continue
        evidence = evidence or has_accelerator_evidence(file.data)
        extra = file.settings.extra_loaders
        if mentions_loader(file.data, extra) and may_construct_loader(file.data, extra):
            result.files_parsed += 1
            _analyse(file)
    result.diagnostics = _judge(files, lambda call: evidence)
    return result


# -- stages ------------------------------------------------------------------------------------


def _analyse(file: _File) -> None:
    """Decode and parse one file into facts; problems become DL000 diagnostics."""
    from libcst import ParserSyntaxError

    from dl_lint.analysis.module import analyze_source

    if file.source is None:
        try:
            file.source = decode(file.data)
        except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
            file.errors.append(_dl000(file, f"cannot decode file: {_one_line(exc)}", 1, 1))
            return
    try:
        file.facts = analyze_source(file.source, str(file.path), file.module_name)
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


def _judge(files: Iterable[_File], accelerator: Callable[[LoaderCall], bool]) -> List[Diagnostic]:
    files = list(files)
    datasets = DatasetIndex(
        (c for f in files if f.facts is not None for c in f.facts.classes),
        (fn for f in files if f.facts is not None for fn in f.facts.functions),
    )
    codes = known_codes()
    out: List[Diagnostic] = []
    for file in files:
        out.extend(file.errors)
        if file.facts is None or not file.facts.calls:
            continue
        enabled = codes_for_file(file.settings, codes, file.path)
        rules = checking_rules(enabled)
        ctx = RuleContext(file.settings, file.module_name, str(file.path), datasets, accelerator)
        suppressions = parse_suppressions(file.source or "")
        for call in file.facts.calls:
            for rule in rules:
                for finding in rule.check_call(call, ctx):
                    diag = Diagnostic(
                        code=rule.code,
                        name=rule.name,
                        severity=rule.severity,
                        message=finding.message,
                        filename=file.display,
                        location=finding.location,
                        end_location=finding.end_location,
                        fix=finding.fix,
                        noqa_rows=call.rows,
                    )
                    if not suppressions.suppresses(diag):
                        out.append(diag)
    out.sort(key=Diagnostic.sort_key)
    return out


# -- helpers -------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """Decode like Python does: BOM, then a PEP 263 coding cookie, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def display_path(path: Path) -> str:
    """Paths under the working directory print relative to it, like ruff; others as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _module_name_for(path: Path) -> str:
    """The dotted module name, found by walking up through packages (``__init__.py``)."""
    try:
        path = path.absolute()
    except OSError:
        return path.stem
    parts = [] if path.name == "__init__.py" else [path.stem]
    parent = path.parent
    while (parent / "__init__.py").is_file():
        parts.append(parent.name)
        if parent.parent == parent:
            break
        parent = parent.parent
    return ".".join(reversed(parts)) or path.stem


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
