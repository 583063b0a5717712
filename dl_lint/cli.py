"""The command line: flags and config in, text and an exit code out. The only place that exits.

Exit codes: 0 nothing reported, 1 diagnostics reported, 2 usage/config error or internal failure.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

import click

from dl_lint import __version__

EXIT_CLEAN, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


class _DefaultToCheck(click.Group):
    """``dl-lint PATH...`` means ``dl-lint check PATH...`` (subcommands: check, rule, rules, estimate, measure)."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        return super().parse_args(ctx, args)


def _fail(message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    click.echo(f"dl-lint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _stop_on_sigterm() -> None:
    """SIGTERM (a CI job cancelled, a pre-commit run stopped) ends a run as Ctrl-C does: the
    file being written by --fix is finished or left as it was, its temporary file removed,
    and "interrupted" printed, instead of the process vanishing mid-way."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (an embedding application): leave it alone
        pass


def _split_codes(values: Tuple[str, ...]) -> Tuple[str, ...]:
    return tuple(code.strip().upper() for value in values for code in value.split(",") if code.strip())


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="dl-lint", message="%(prog)s %(version)s")
def main() -> None:
    """Static checks for PyTorch DataLoader configurations: crashes, host memory, duplicated data.

    dl-lint reads source and never imports or runs it. `dl-lint PATH...` is `dl-lint check PATH...`.
    """


@main.command()
# readable=False: an unreadable path is the engine's DL000 (or the config's one-line error), not a usage error.
@click.argument("paths", nargs=-1, type=click.Path(path_type=str, readable=False))
@click.option("--select", multiple=True, metavar="CODES", help="Rules to enable (codes, prefixes such as DL1, or ALL); replaces the configured selection.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules to disable, added to the configured ones.")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to enable in addition to the selection.")
@click.option("--config", "config_file", type=click.Path(path_type=str, readable=False), help="Read settings from this TOML file instead of the nearest pyproject.toml.")
@click.option(
    "--output-format",
    type=click.Choice(["concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab"]),
    default="concise",
    show_default=True,
    envvar="DL_LINT_OUTPUT_FORMAT",
    show_envvar=True,
    help="How diagnostics are printed: concise lines, full (with source and fix hints), JSON or JSON lines, "
    "GitHub Actions annotations, SARIF 2.1.0, JUnit XML, or a GitLab Code Quality report.",
)
@click.option("--statistics", is_flag=True, help="Print how often each rule fired (count, code, [*] if fixable, name) instead of the diagnostics.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics are reported.")
@click.option("--stdin-filename", metavar="PATH", help="With `-` as the path: the name to report for source read from stdin.")
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Apply the exclude settings to paths named on the command line too (for pre-commit, which names every file).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes for the files that need a full parse (default: one per core; started only when "
    "there are enough such files to pay for them). 1: no workers.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes and write the files (exit 1 if diagnostics remain).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (with --fix) or show fixes that may change behaviour.")
@click.option("--diff", is_flag=True, help="Print the fixes as unified diffs and write nothing (exit 1 if there is a diff).")
@click.option("--show-fixes", is_flag=True, help="With --fix: list what was fixed.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the results cache.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=str, file_okay=False, readable=False),
    envvar="DL_LINT_CACHE_DIR",
    show_envvar=True,
    help="Where to keep the results cache (default: .dl_lint_cache at the project root).",
)
def check(
    paths: Tuple[str, ...],
    select: Tuple[str, ...],
    ignore: Tuple[str, ...],
    extend_select: Tuple[str, ...],
    config_file: Optional[str],
    output_format: str,
    statistics: bool,
    exit_zero: bool,
    stdin_filename: Optional[str],
    force_exclude: bool,
    jobs: Optional[int],
    no_cache: bool,
    cache_dir: Optional[str],
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    show_fixes: bool,
) -> None:
    """Lint Python files and folders (default: the current folder)."""
    from dl_lint.config import ConfigError, validate_selectors
    from dl_lint.discovery import DiscoveryError
    from dl_lint.rules import known_codes

    codes = known_codes()
    overrides: Dict[str, object] = {}
    _stop_on_sigterm()
    try:
        for flag, values in (("--select", select), ("--ignore", ignore), ("--extend-select", extend_select)):
            parsed = _split_codes(values)
            if parsed:
                validate_selectors(parsed, codes, flag)
                overrides[flag[2:].replace("-", "_")] = parsed
        if config_file is not None and not os.path.isfile(config_file):
            raise ConfigError(f"{config_file}: config file does not exist")
        if (fix or diff) and list(paths) == ["-"]:
            _fix_stdin(stdin_filename, config_file, overrides, unsafe_fixes, diff)
        diagnostics, files = _run(
            paths,
            config_file,
            overrides,
            stdin_filename,
            force_exclude=force_exclude,
            jobs=jobs,
            cache=not no_cache,
            cache_dir=cache_dir or None,
        )
        fixed_files: list = []
        if (fix or diff) and diagnostics:
            diagnostics, fixed_files = _fix_files(diagnostics, config_file, overrides, unsafe_fixes, write=fix and not diff)
    except (ConfigError, DiscoveryError) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        _fail("interrupted")
    except Exception as exc:  # noqa: BLE001 - never show a traceback; say what failed
        _fail(f"internal error: {type(exc).__name__}: {exc}")

    if diff:
        patches = [f.diff() for f in fixed_files if f.result.changed]
        if patches:
            click.echo("".join(patches), nl=False)
        count = sum(len(f.result.applied) for f in fixed_files)
        click.echo(f"Would fix {count} error{'s' if count != 1 else ''}." if count else "No fixes available.", err=True)
        sys.exit(EXIT_FOUND if patches else EXIT_CLEAN)
    if show_fixes and fix:
        click.echo(_fixed_summary(fixed_files), nl=False)
    hidden = 0
    if not unsafe_fixes and output_format in ("concise", "full"):
        # An unsafe fix is not offered without --unsafe-fixes: no [*] for it, but say how many.
        from dataclasses import replace as _replace

        hidden = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability != "safe")
        diagnostics = [
            _replace(d, fix=None) if d.fix is not None and d.fix.applicability != "safe" else d for d in diagnostics
        ]

    from dl_lint.report import render, render_statistics
    from dl_lint.report_io import read_sources, repo_root

    color = output_format in ("concise", "full") and _use_color()
    if statistics:
        text = render_statistics(diagnostics, fmt=output_format)
    else:
        sources = None
        if output_format in ("full", "sarif", "gitlab") and list(paths) != ["-"]:
            # Piped source is not on disk (or differs from it): no snippets, message fingerprints.
            sources = read_sources(d.filename for d in diagnostics)
        root = repo_root() if output_format in ("github", "sarif", "gitlab") else None
        text = render(output_format, diagnostics, color=color, files_checked=files, sources=sources, root=root)
    if files == 0 and not diagnostics and output_format in ("concise", "full"):
        text = ""  # nothing to lint (every named file excluded, an empty folder): say nothing
    if text:
        click.echo(text, nl=False, color=color)
    if hidden and not statistics:
        click.echo(f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the `--unsafe-fixes` option.")
    sys.exit(EXIT_FOUND if diagnostics and not exit_zero else EXIT_CLEAN)


def _settings_for(path, config_file: Optional[str], overrides: Dict[str, object]):
    from pathlib import Path

    from dl_lint.config import load_config_file, settings_for_dir
    from dl_lint.rules import known_codes

    if config_file:
        return load_config_file(Path(config_file), known_codes()).with_overrides(**overrides)
    return settings_for_dir(Path(path).absolute().parent, known_codes(), {}).with_overrides(**overrides)


def _fix_files(diagnostics, config_file, overrides, unsafe: bool, *, write: bool):
    """Fix every file with an applicable fix; the diagnostics that remain, and the FileFixes."""
    from pathlib import Path

    from dl_lint.analysis.project import find_root
    from dl_lint.fix_runner import FixError, fix_file, fix_notebook
    from dl_lint.fixes import applicable

    names = sorted({d.filename for d in diagnostics if applicable(d, unsafe)})
    fixed = []
    remaining = [d for d in diagnostics if d.filename not in names]
    for name in names:
        path = Path(name)
        try:
            result = (fix_notebook if name.endswith(".ipynb") else fix_file)(
                path,
                name,
                _settings_for(path, config_file, overrides),
                unsafe=unsafe,
                write=write,
                project_root=find_root(path.absolute()),
            )
        except (FixError, OSError, UnicodeError, SyntaxError) as exc:
            click.echo(f"dl-lint: error: {exc if isinstance(exc, FixError) else f'{name}: cannot fix: {exc}'}", err=True)
            remaining.extend(d for d in diagnostics if d.filename == name)
            continue
        for diag, reason in result.result.failed:
            click.echo(f"dl-lint: warning: {name}:{diag.location.row}: {diag.code} fix dropped: {reason}", err=True)
        fixed.append(result)
        remaining.extend(result.result.remaining)
    remaining.sort(key=lambda d: d.sort_key())
    return remaining, fixed


def _fixed_summary(fixed_files) -> str:
    total = sum(len(f.result.applied) for f in fixed_files)
    if not total:
        return "No errors fixed.\n"
    lines = [f"Fixed {total} error{'s' if total != 1 else ''}:"]
    for f in fixed_files:
        if not f.result.applied:
            continue
        lines.append(f"- {f.display}:")
        counts: Dict[Tuple[str, str], int] = {}
        for d in f.result.applied:
            counts[(d.code, d.name)] = counts.get((d.code, d.name), 0) + 1
        for (code, name), n in sorted(counts.items()):
            lines.append(f"    {n} × {code} ({name})")
    return "\n".join(lines) + "\n"


def _fix_stdin(stdin_filename, config_file, overrides, unsafe: bool, diff: bool) -> None:
    """``--fix -``: the fixed source to stdout, what remains to stderr (as ruff does)."""
    from pathlib import Path

    from dl_lint.analysis.project import find_root
    from dl_lint.engine import lint_source
    from dl_lint.fixes import fix_source
    from dl_lint.report import render
    from dl_lint.source import decode

    name = stdin_filename or "<stdin>"
    settings = _settings_for(name, config_file, overrides)
    root = find_root(Path(name).absolute()) if stdin_filename else None
    source = decode(sys.stdin.buffer.read())
    result = fix_source(source, lambda s: lint_source(s, name, settings, project_root=root), unsafe=unsafe)
    if diff:
        import difflib

        patch = "".join(
            difflib.unified_diff(
                source.splitlines(keepends=True), result.source.splitlines(keepends=True), f"a/{name}", f"b/{name}"
            )
        )
        click.echo(patch, nl=False)
        sys.exit(EXIT_FOUND if patch else EXIT_CLEAN)
    sys.stdout.write(result.source)
    sys.stdout.flush()
    if result.remaining:
        click.echo(render("concise", result.remaining), nl=False, err=True)
    sys.exit(EXIT_FOUND if result.remaining else EXIT_CLEAN)


def _run(
    paths: Sequence[str],
    config_file: Optional[str],
    overrides: Dict[str, object],
    stdin_filename: Optional[str],
    *,
    force_exclude: bool = False,
    jobs: Optional[int] = None,
    cache: bool = False,
    cache_dir: Optional[str] = None,
):
    from dl_lint.engine import lint_bytes, lint_paths

    if list(paths) == ["-"]:
        from pathlib import Path

        from dl_lint.config import load_config_file, settings_for_dir
        from dl_lint.rules import known_codes

        name = stdin_filename or "<stdin>"
        if config_file:
            settings = load_config_file(Path(config_file), known_codes())
        else:
            settings = settings_for_dir(Path(name).absolute().parent, known_codes(), {})
        source = sys.stdin.buffer.read()
        from dl_lint.analysis.project import find_root

        root = find_root(Path(name).absolute()) if stdin_filename else None
        return lint_bytes(source, name, settings.with_overrides(**overrides), project_root=root), 1
    result = lint_paths(
        paths or (".",),
        config_file=config_file,
        overrides=overrides,
        force_exclude=force_exclude,
        jobs=jobs,
        cache=cache,
        cache_dir=cache_dir,
    )
    return result.diagnostics, result.files_checked


def _use_color() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


@main.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print the documentation of every rule.")
def rule_command(code: Optional[str], show_all: bool) -> None:
    """Print a rule's documentation (Markdown)."""
    from dl_lint.rules import all_rules, find_rule

    if show_all:
        click.echo("\n".join(r.markdown() for r in all_rules().values()))
        return
    if not code:
        _fail("give a rule code, such as `dl-lint rule DL001`, or --all")
    match = find_rule(code)
    if match is None:
        _fail(f"unknown rule {code!r}; `dl-lint rules` lists them")
    click.echo(match.markdown())


@main.command("rules")
@click.option("--markdown", is_flag=True, help="Print the table as Markdown (as in the README).")
def rules_command(markdown: bool) -> None:
    """List every rule: code, name, severity, on by default."""
    from dl_lint.rules import all_rules, markdown_table

    if markdown:
        click.echo(markdown_table())
        return

    rows = [(r.code, r.name, str(r.severity), "yes" if r.default_on else "no") for r in all_rules().values()]
    widths = [max(len(row[i]) for row in rows + [("code", "name", "severity", "default")]) for i in range(4)]
    header = ("code", "name", "severity", "default")
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())



class _LazyCommand(click.Command):
    """A subcommand whose module is imported only when it runs or shows its --help, so that
    `dl-lint --version` and `dl-lint check` do not pay for it."""

    def __init__(self, name: str, target: str, short_help: str) -> None:
        super().__init__(name, short_help=short_help, add_help_option=False)
        self._target = target

    def load(self) -> click.Command:
        import importlib

        module, attr = self._target.split(":")
        return getattr(importlib.import_module(module), attr)

    def make_context(self, info_name, args, parent=None, **extra):  # type: ignore[no-untyped-def]
        return self.load().make_context(info_name, args, parent=parent, **extra)


# `estimate` and `measure` live in dl_lint/estimator_cli.py (measure needs the `runtime` extra).
main.add_command(_LazyCommand("estimate", "dl_lint.estimator_cli:estimate", "Estimate a DataLoader's host and /dev/shm memory."))
main.add_command(_LazyCommand("measure", "dl_lint.estimator_cli:measure", "Run a DataLoader factory (runs your code!) and measure its memory."))
# `server` lives in dl_lint/lsp.py (needs the `lsp` extra, pygls).
main.add_command(_LazyCommand("server", "dl_lint.lsp:server", "Run the language server (LSP over stdio) for editors."))
