"""The command line: flags and config in, text and an exit code out. The only place that exits
(with ``dl_lint.check``, which does what `check` does once its flags are read).

Exit codes: 0 nothing reported, 1 diagnostics reported, 2 usage/config error or internal failure.
"""

from __future__ import annotations

import sys
from typing import List, Optional, Tuple

import click

from dl_lint import __version__
from dl_lint.check import CACHE_DIR_ENV, EXIT_ERROR, OUTPUT_FILE_ENV, OUTPUT_FORMAT_ENV, OUTPUT_FORMATS


class _OneLineUsageError(click.UsageError):
    """A bad command line: one line, ``dl-lint: error: ...``, and 2 (no usage block)."""

    exit_code = EXIT_ERROR

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        click.echo(f"dl-lint: error: {self.format_message()}", err=True)


def _one_line(exc: click.UsageError) -> str:
    """click's message for a usage error, as one line that names where a bad value came from:
    the flag, or the environment variable when the value was read from it (click names both
    whenever an option has one, even when the flag was used)."""
    if isinstance(exc, click.BadParameter) and exc.param is not None and exc.param_hint is None:
        param, ctx = exc.param, exc.ctx
        where = "/".join(f"'{opt}'" for opt in param.opts) if isinstance(param, click.Option) else f"'{param.name}'"
        if ctx is not None and param.name is not None and isinstance(param.envvar, str):
            from click.core import ParameterSource

            if ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT:
                where = f"{param.envvar} (environment variable)"
        return f"invalid value for {where}: {exc.message}"
    message = " ".join(exc.format_message().split())
    return message[:1].lower() + message[1:]


class _OneLineErrors:
    """Usage errors of a command (a bad value, an unknown option, a missing argument) as one
    ``dl-lint: error: ...`` line and exit 2, as every other error of dl-lint."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        try:
            return super().parse_args(ctx, args)  # type: ignore[misc]
        except _OneLineUsageError:
            raise
        except click.UsageError as exc:
            raise _OneLineUsageError(_one_line(exc), ctx=ctx) from None


class _Command(_OneLineErrors, click.Command):
    pass


def _noqa_reason(args: List[str]) -> List[str]:
    """``--add-noqa=REASON`` (ruff's spelling: the reason only with ``=``, so that
    ``--add-noqa src/`` lints src/) as the hidden ``--add-noqa-reason REASON``."""
    out: List[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        if arg.startswith("--add-noqa="):
            out += ["--add-noqa-reason", arg.split("=", 1)[1]]
        else:
            out.append(arg)
    return out


class _DefaultToCheck(_OneLineErrors, click.Group):
    """``dl-lint PATH...`` means ``dl-lint check PATH...`` (subcommands: check, rule, rules, estimate, measure)."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        elif args[0] in self.commands:
            from dl_lint.check import command_folder_note

            command_folder_note(args[0])
        if args[0] == "check":
            args = ["check", *_noqa_reason(args[1:])]
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


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="dl-lint", message="%(prog)s %(version)s")
def main() -> None:
    """Static checks for PyTorch DataLoader configurations: crashes, host memory, duplicated data.

    dl-lint reads source and never imports or runs it. Without a command it runs `check` on the
    PATHS given (default: the current folder).
    """


@main.command(cls=_Command, context_settings={"help_option_names": ["-h", "--help"]})
# readable=False: an unreadable path is the engine's DL000 (or the config's one-line error), not a usage error.
@click.argument("paths", nargs=-1, type=click.Path(path_type=str, readable=False))
@click.option("--select", multiple=True, metavar="CODES", help="Rules to enable (codes, prefixes such as DL1, or ALL); replaces the configured selection.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules to disable, added to the configured ones.")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to enable in addition to the selection.")
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOBS",
    help="Files and folders whose findings are not shown (globs, comma-separated; still read as dependencies of "
    "shown files); replaces the configured `exclude`.",
)
@click.option(
    "--extend-exclude",
    multiple=True,
    metavar="GLOBS",
    help="More files and folders whose findings are not shown, added to the configured ones.",
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
    type=click.Choice(list(OUTPUT_FORMATS)),
    default="concise",
    show_default=True,
    envvar=OUTPUT_FORMAT_ENV,
    show_envvar=True,
    help="How diagnostics are printed: concise lines, full (with source and fix hints), JSON or JSON lines, "
    "GitHub Actions annotations, SARIF 2.1.0, JUnit XML, or a GitLab Code Quality report.",
)
@click.option(
    "--output-file",
    "-o",
    metavar="FILE",
    type=click.Path(path_type=str, dir_okay=False, readable=False),
    envvar=OUTPUT_FILE_ENV,
    show_envvar=True,
    help="Write the report to this file instead of stdout (folders are created).",
)
@click.option("--statistics", is_flag=True, help="Print how often each rule fired (count, code, [*] if fixable, name) instead of the diagnostics.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics are reported.")
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="Exit 1 when --fix (or --fix-only) changed a file, even if nothing remains.",
)
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
@click.option(
    "--fix-only",
    is_flag=True,
    help="Apply safe fixes, report only what was fixed, and exit 0 whatever remains (implies --fix).",
)
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (with --fix) or show fixes that may change behaviour.")
@click.option("--diff", is_flag=True, help="Print the fixes as unified diffs and write nothing (exit 1 if there is a diff).")
@click.option("--show-fixes", is_flag=True, help="With --fix: list what was fixed.")
@click.option(
    "--add-noqa",
    "add_noqa_flag",
    is_flag=True,
    help="Add `# noqa: CODE` to a line of every diagnostic and write the files; `--add-noqa=REASON` "
    "writes REASON after the codes.",
)
@click.option("--add-noqa-reason", hidden=True, default=None)
@click.option("--watch", "-w", is_flag=True, help="Lint again whenever a file under the paths changes (Ctrl-C stops).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the results cache.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=str, file_okay=False, readable=False),
    envvar=CACHE_DIR_ENV,
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
    output_file: Optional[str],
    statistics: bool,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    quiet: bool,
    silent: bool,
    stdin_filename: Optional[str],
    force_exclude: bool,
    jobs: Optional[int],
    no_cache: bool,
    cache_dir: Optional[str],
    fix: bool,
    fix_only: bool,
    unsafe_fixes: bool,
    diff: bool,
    show_fixes: bool,
    add_noqa_flag: bool,
    add_noqa_reason: Optional[str],
    watch: bool,
    show_settings: bool,
    show_files: bool,
) -> None:
    """Lint Python files and folders (default: the current folder)."""
    from dl_lint.check import run

    run(
        paths,
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        exclude=exclude,
        extend_exclude=extend_exclude,
        torch_version=torch_version,
        config_file=config_file,
        output_format=output_format,
        output_file=output_file,
        statistics=statistics,
        exit_zero=exit_zero,
        exit_non_zero_on_fix=exit_non_zero_on_fix,
        quiet=quiet,
        silent=silent,
        stdin_filename=stdin_filename,
        force_exclude=force_exclude,
        jobs=jobs,
        no_cache=no_cache,
        cache_dir=cache_dir,
        fix=fix,
        fix_only=fix_only,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        show_fixes=show_fixes,
        add_noqa=add_noqa_reason if add_noqa_reason is not None else ("" if add_noqa_flag else None),
        watch=watch,
        show_settings=show_settings,
        show_files=show_files,
    )


@main.command("rule", cls=_Command)
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


@main.command("rules", cls=_Command)
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
