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

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage("dl-lint", "[OPTIONS] [PATHS]...")
        formatter.write_usage("dl-lint", "COMMAND [ARGS]...", prefix="       ")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """``dl-lint -h`` lists what people type most, the options of ``check`` (the default
        command), then ``--version`` and the subcommands."""
        command = self.commands["check"]
        sub = click.Context(command, info_name="check", parent=ctx)
        own = [p for p in command.get_params(sub) if isinstance(p, click.Option) and "--help" not in p.opts]
        rows = [p.get_help_record(sub) for p in own]
        rows += [p.get_help_record(ctx) for p in self.get_params(ctx)]
        with formatter.section("Options (of `dl-lint check`, the default command)"):
            formatter.write_dl([row for row in rows if row is not None])
        self.format_commands(ctx, formatter)


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

    dl-lint reads source and never imports or runs it. Without a command it runs `check` on the
    PATHS given (default: the current folder).
    """


class _Choice(click.Choice):
    """A choice whose error names the environment variable a bad value came from, with every
    click (8.2 does; 8.1, the newest on Python 3.9, does not)."""

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            from click.core import ParameterSource

            if (
                ctx is not None
                and param is not None
                and isinstance(param.envvar, str)
                and ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT
            ):
                hint = f"'{param.opts[0]}' (env var: '{param.envvar}')"
                raise click.BadParameter(exc.message, ctx=ctx, param=param, param_hint=hint) from None
            raise


def _split_globs(values: Tuple[str, ...]) -> Tuple[str, ...]:
    return tuple(glob.strip() for value in values for glob in value.split(",") if glob.strip())


@main.command(context_settings={"help_option_names": ["-h", "--help"]})
# readable=False: an unreadable path is the engine's DL000 (or the config's one-line error), not a usage error.
@click.argument("paths", nargs=-1, type=click.Path(path_type=str, readable=False))
@click.option("--select", multiple=True, metavar="CODES", help="Rules to enable (codes, prefixes such as DL1, or ALL); replaces the configured selection.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules to disable, added to the configured ones.")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to enable in addition to the selection.")
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOBS",
    help="Files and folders to skip while walking folders (globs, comma-separated); replaces the configured `exclude`.",
)
@click.option(
    "--extend-exclude",
    multiple=True,
    metavar="GLOBS",
    help="More files and folders to skip, added to the configured ones.",
)
@click.option(
    "--torch-version",
    metavar="X.Y",
    help="The torch version your code runs on (default: the configured `target-version`, else the newest); "
    "some rules depend on it. Not Python's version.",
)
@click.option("--config", "config_file", type=click.Path(path_type=str, readable=False), help="Read settings from this TOML file instead of the nearest pyproject.toml.")
@click.option(
    "--output-format",
    type=_Choice(["concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab"]),
    default="concise",
    show_default=True,
    envvar="DL_LINT_OUTPUT_FORMAT",
    show_envvar=True,
    help="How diagnostics are printed: concise lines, full (with source and fix hints), JSON or JSON lines, "
    "GitHub Actions annotations, SARIF 2.1.0, JUnit XML, or a GitLab Code Quality report.",
)
@click.option("--statistics", is_flag=True, help="Print how often each rule fired (count, code, [*] if fixable, name) instead of the diagnostics.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics are reported.")
@click.option("-q", "--quiet", is_flag=True, help="Print the diagnostics and nothing else: no summary, no warnings.")
@click.option(
    "--silent", is_flag=True, help="Print nothing (only errors that stop the run); the exit code still tells."
)
@click.option(
    "--stdin-filename",
    metavar="PATH",
    help="Read the source from stdin and report it under this name (with no path, or `-`).",
)
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
    help="Where to keep the results cache (default: .dl_lint_cache at the project root, else in the working folder).",
)
@click.option("--show-settings", is_flag=True, help="Print the settings used for the first path (config file, rules, excludes) and exit.")
@click.option("--show-files", is_flag=True, help="Print the files a run would lint and exit.")
def check(
    paths: Tuple[str, ...],
    select: Tuple[str, ...],
    ignore: Tuple[str, ...],
    extend_select: Tuple[str, ...],
    exclude: Tuple[str, ...],
    extend_exclude: Tuple[str, ...],
    torch_version: Optional[str],
    config_file: Optional[str],
    output_format: str,
    statistics: bool,
    exit_zero: bool,
    quiet: bool,
    silent: bool,
    stdin_filename: Optional[str],
    force_exclude: bool,
    jobs: Optional[int],
    no_cache: bool,
    cache_dir: Optional[str],
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    show_fixes: bool,
    show_settings: bool,
    show_files: bool,
) -> None:
    """Lint Python files and folders (default: the current folder)."""
    from dl_lint.config import ConfigError, validate_selectors
    from dl_lint.discovery import DiscoveryError
    from dl_lint.rules import known_codes

    quiet = quiet or silent
    codes = known_codes()
    overrides: Dict[str, object] = {}
    _stop_on_sigterm()
    if stdin_filename is not None and list(paths) != ["-"]:
        # As ruff: --stdin-filename means the source comes from stdin, never the current folder.
        if paths and not quiet:
            ignored = ", ".join(paths)
            click.echo(f"dl-lint: warning: ignoring {ignored} in favor of standard input (--stdin-filename)", err=True)
        paths = ("-",)
    try:
        for flag, values in (("--select", select), ("--ignore", ignore), ("--extend-select", extend_select)):
            parsed = _split_codes(values)
            if parsed:
                validate_selectors(parsed, codes, flag)
                overrides[flag[2:].replace("-", "_")] = parsed
        for flag, values in (("--exclude", exclude), ("--extend-exclude", extend_exclude)):
            if values:
                overrides[flag[2:].replace("-", "_")] = _split_globs(values)
        if torch_version is not None:
            overrides["target_version"] = _torch_version(torch_version)
        if config_file is not None and not os.path.isfile(config_file):
            raise ConfigError(f"{config_file}: config file does not exist")
        if show_settings or show_files:
            from dl_lint import show

            if show_settings:
                text = show.settings_text(
                    paths, config_file, overrides, output_format=output_format, cache=not no_cache, cache_dir=cache_dir
                )
            else:
                found, problems = show.files_to_lint(paths, config_file, overrides, force_exclude=force_exclude)
                text = "".join(f"{name}\n" for name in found)
                for name, reason in problems if not quiet else ():
                    click.echo(f"dl-lint: warning: {name}: {reason}", err=True)
                if not found and not quiet:
                    _no_files_warning(paths)
            click.echo(text, nl=False)
            sys.exit(EXIT_CLEAN)
        if (fix or diff) and list(paths) == ["-"]:
            _fix_stdin(stdin_filename, config_file, overrides, unsafe_fixes, diff, quiet=quiet, silent=silent)
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
            diagnostics, fixed_files = _fix_files(
                diagnostics, config_file, overrides, unsafe_fixes, write=fix and not diff, quiet=quiet
            )
    except (ConfigError, DiscoveryError) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        _fail("interrupted")
    except Exception as exc:  # noqa: BLE001 - never show a traceback; say what failed
        _fail(f"internal error: {type(exc).__name__}: {exc}")

    fixed = sum(len(f.result.applied) for f in fixed_files)
    if diff:
        patches = [f.diff() for f in fixed_files if f.result.changed]
        if patches and not silent:
            click.echo("".join(patches), nl=False)
        if not quiet:
            click.echo(f"Would fix {_plural(fixed, 'problem')}." if fixed else "No fixes available.", err=True)
        sys.exit(EXIT_FOUND if patches else EXIT_CLEAN)
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
    text_format = output_format in ("concise", "full")
    if files == 0 and not diagnostics:
        # A mistyped path, an empty or fully excluded folder: say so (ruff's warning), exit 0.
        if not quiet:
            _no_files_warning(paths)
        if text_format or statistics:
            sys.exit(EXIT_CLEAN)
    if silent:
        sys.exit(EXIT_FOUND if diagnostics and not exit_zero else EXIT_CLEAN)
    if statistics:
        click.echo(render_statistics(diagnostics, fmt=output_format), nl=False)
    elif text_format:
        sources = None
        if output_format == "full" and list(paths) != ["-"]:
            sources = read_sources(d.filename for d in diagnostics)
        body = render(output_format, diagnostics, color=color, files_checked=files, sources=sources, quiet=True)
        # ruff's order: what remains, then what was fixed, then the counts.
        parts = [body] if body else []
        if show_fixes and fix and fixed:
            parts.append(_fixed_summary(fixed_files))
        if not quiet:
            from dl_lint.report.text import summary

            parts.append("\n".join(summary(diagnostics, fixed=fixed, hidden=hidden)) + "\n")
        separator = "\n" if output_format == "full" or (show_fixes and fix and fixed) else ""
        click.echo(separator.join(parts), nl=False, color=color)
    else:
        sources = None
        if output_format in ("sarif", "gitlab") and list(paths) != ["-"]:
            # Piped source is not on disk (or differs from it): no snippets, message fingerprints.
            sources = read_sources(d.filename for d in diagnostics)
        root = repo_root() if output_format in ("github", "sarif", "gitlab") else None
        click.echo(render(output_format, diagnostics, files_checked=files, sources=sources, root=root), nl=False)
    sys.exit(EXIT_FOUND if diagnostics and not exit_zero else EXIT_CLEAN)


def _plural(count: int, word: str) -> str:
    from dl_lint.report.text import plural

    return plural(count, word)


def _torch_version(text: str) -> str:
    from dl_lint.config import ConfigError, _normalize_version

    try:
        return _normalize_version(text)
    except ValueError:
        raise ConfigError(f'--torch-version: invalid value {text!r}; expected a torch version such as "2.13"') from None


def _no_files_warning(paths: Sequence[str]) -> None:
    where = " ".join(paths) if paths else "."
    click.echo(f"dl-lint: warning: No Python files or notebooks found under the given path(s): {where}", err=True)


def _settings_for(path, config_file: Optional[str], overrides: Dict[str, object]):
    from pathlib import Path

    from dl_lint.config import load_config_file, settings_for_dir
    from dl_lint.rules import known_codes

    if config_file:
        return load_config_file(Path(config_file), known_codes()).with_overrides(**overrides)
    return settings_for_dir(Path(path).absolute().parent, known_codes(), {}).with_overrides(**overrides)


def _fix_files(diagnostics, config_file, overrides, unsafe: bool, *, write: bool, quiet: bool = False):
    """Fix every file with an applicable fix; the diagnostics that remain, and the FileFixes.

    A fix that was tried and refused (the file cannot be written, or the fixed code did not
    verify) is taken off the diagnostic that remains: it is not "fixable" any more in this run."""
    from dataclasses import replace
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
            remaining.extend(
                replace(d, fix=None) if applicable(d, unsafe) else d for d in diagnostics if d.filename == name
            )
            continue
        refused = set()
        for diag, reason in result.result.failed:
            refused.add((diag.code, diag.message))
            if not quiet:
                click.echo(f"dl-lint: warning: {name}:{diag.location.row}: {diag.code} fix dropped: {reason}", err=True)
        fixed.append(result)
        remaining.extend(
            replace(d, fix=None) if d.fix is not None and (d.code, d.message) in refused else d
            for d in result.result.remaining
        )
    remaining.sort(key=lambda d: d.sort_key())
    return remaining, fixed


def _fixed_summary(fixed_files) -> str:
    """``--show-fixes``: what was fixed, per file and rule (ruff's layout, with "problems")."""
    total = sum(len(f.result.applied) for f in fixed_files)
    if not total:
        return ""
    lines = [f"Fixed {_plural(total, 'problem')}:"]
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


def _fix_stdin(
    stdin_filename, config_file, overrides, unsafe: bool, diff: bool, *, quiet: bool = False, silent: bool = False
) -> None:
    """``--fix -``: the fixed source to stdout, what remains (and the counts) to stderr, as ruff
    does."""
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
    remaining, hidden = result.remaining, 0
    if not unsafe:  # as for files: an unsafe fix is not offered without --unsafe-fixes
        from dataclasses import replace

        hidden = sum(1 for d in remaining if d.fix is not None and d.fix.applicability != "safe")
        remaining = [
            replace(d, fix=None) if d.fix is not None and d.fix.applicability != "safe" else d for d in remaining
        ]
    if not silent and (remaining or (result.applied and not quiet)):
        text = render("concise", remaining, fixed=len(result.applied), hidden=hidden, quiet=quiet)
        click.echo(text, nl=False, err=True)
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
