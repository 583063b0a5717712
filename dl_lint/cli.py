"""The command line: flags and config in, text and an exit code out. The only place that exits
(with ``dl_lint.check``, which does what `check` does once its flags are read).

Exit codes: 0 nothing reported, 1 diagnostics reported, 2 usage/config error or internal failure.
"""

from __future__ import annotations

import sys
from typing import List, Optional, Tuple

import click

from dl_lint import __version__
from dl_lint.check import CACHE_DIR_ENV, EXIT_ERROR, OUTPUT_FORMAT_ENV, OUTPUT_FORMATS


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
    type=_Choice(list(OUTPUT_FORMATS)),
    default="concise",
    show_default=True,
    envvar=OUTPUT_FORMAT_ENV,
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
        statistics=statistics,
        exit_zero=exit_zero,
        quiet=quiet,
        silent=silent,
        stdin_filename=stdin_filename,
        force_exclude=force_exclude,
        jobs=jobs,
        no_cache=no_cache,
        cache_dir=cache_dir,
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        show_fixes=show_fixes,
        show_settings=show_settings,
        show_files=show_files,
    )


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
