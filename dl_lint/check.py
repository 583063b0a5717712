"""`dl-lint check` itself, without click: what the command does once its flags are known.

``dl_lint.cli`` declares the flags (click) and calls ``run``. The console script
(``dl_lint.entry``) calls ``run`` directly for a command line that ``fast_arguments`` can read
(paths and check's own flags, spelled plainly): importing click takes about 20 ms, a sixth of
ruff's whole run on a 200-file repository, and a pre-commit hook pays it on every commit.
Anything else (help, subcommands, combined short flags, values click would reject) goes to
click, which prints its usual messages; tests/test_cli.py runs command lines through both
paths and compares the bytes.

Exit codes: 0 nothing reported, 1 diagnostics reported, 2 usage/config error or internal failure.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

EXIT_CLEAN, EXIT_FOUND, EXIT_ERROR = 0, 1, 2

OUTPUT_FORMATS = ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab")
OUTPUT_FORMAT_ENV = "DL_LINT_OUTPUT_FORMAT"
OUTPUT_FILE_ENV = "DL_LINT_OUTPUT_FILE"
CACHE_DIR_ENV = "DL_LINT_CACHE_DIR"
# The subcommands of ``dl_lint.cli.main``: a first argument naming one is not a path.
COMMANDS = ("check", "rule", "rules", "estimate", "measure", "server")

# check's flags, as ``dl_lint.cli`` declares them: the boolean ones, and those taking a value
# (name -> the keyword of ``run``; ``multiple`` ones collect every occurrence).
_FLAGS = {
    "--statistics": "statistics",
    "--exit-zero": "exit_zero",
    "--exit-non-zero-on-fix": "exit_non_zero_on_fix",
    "-q": "quiet",
    "--quiet": "quiet",
    "--silent": "silent",
    "--force-exclude": "force_exclude",
    "--fix": "fix",
    "--fix-only": "fix_only",
    "-w": "watch",
    "--watch": "watch",
    "--unsafe-fixes": "unsafe_fixes",
    "--diff": "diff",
    "--show-fixes": "show_fixes",
    "--no-cache": "no_cache",
    "--show-settings": "show_settings",
    "--show-files": "show_files",
}
_MULTIPLE = {
    "--select": "select",
    "--ignore": "ignore",
    "--extend-select": "extend_select",
    "--exclude": "exclude",
    "--extend-exclude": "extend_exclude",
}
_SINGLE = {
    "--torch-version": "torch_version",
    "--config": "config_file",
    "--output-format": "output_format",
    "--output-file": "output_file",
    "-o": "output_file",
    "--stdin-filename": "stdin_filename",
    "--jobs": "jobs",
    "-j": "jobs",
    "--cache-dir": "cache_dir",
}


def command_folder_note(command: str) -> None:
    """A command name always runs the command; when a folder of that name is in the working
    folder (``dl-lint rules`` beside ``rules/``), one stderr line says how to lint it instead."""
    if command != "check" and os.path.isdir(command):
        echo(
            f"dl-lint: warning: `{command}` is a dl-lint command; to lint the folder {command}/, run "
            f"`dl-lint check {command}` or `dl-lint ./{command}`",
            err=True,
        )


def fast_arguments(args: Sequence[str]) -> Optional[Dict[str, object]]:
    """The keyword arguments of ``run`` for a check command line, or None when click must read
    it (anything not spelled plainly, or a value click would refuse, so that click's own
    message is printed). Options and paths may come in any order, as click allows."""
    if args and (args[0] in COMMANDS or args[0] in ("-h", "--help", "--version")):
        return None
    if not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return None  # click adapts misconfigured streams (an ASCII locale); leave that to it
    options: Dict[str, object] = {name: () for name in _MULTIPLE.values()}
    paths: List[str] = []
    position = 0
    while position < len(args):
        arg = args[position]
        position += 1
        if arg == "-" or not arg.startswith("-"):
            paths.append(arg)
            continue
        if arg[:2] in ("-j", "-o") and len(arg) > 2:
            name, has_value, value = arg[:2], "=", arg[2:]  # ``-j2``: click reads the rest as the value
        else:
            name, has_value, value = arg.partition("=")
        if name == "--add-noqa":  # a flag, or ``--add-noqa=REASON`` (ruff's spelling)
            options["add_noqa"] = value
            continue
        if name in _FLAGS and not has_value:
            options[_FLAGS[name]] = True
            continue
        if name not in _MULTIPLE and name not in _SINGLE:
            return None  # -h, --, combined short flags, a typo: click says what it says
        if not has_value:
            if position >= len(args) or args[position].startswith("-"):
                return None
            value = args[position]
            position += 1
        if name in _MULTIPLE:
            key = _MULTIPLE[name]
            options[key] = (*options[key], value)  # type: ignore[misc]
        else:
            options[_SINGLE[name]] = value
    if "jobs" in options:
        text = str(options["jobs"])
        if not (text.isascii() and text.isdigit() and int(text) >= 1):
            return None
        options["jobs"] = int(text)
    if "output_format" not in options:
        options["output_format"] = os.environ.get(OUTPUT_FORMAT_ENV) or "concise"
    if options["output_format"] not in OUTPUT_FORMATS:
        return None
    if "output_file" not in options:
        options["output_file"] = os.environ.get(OUTPUT_FILE_ENV) or None
    if "cache_dir" not in options:
        options["cache_dir"] = os.environ.get(CACHE_DIR_ENV) or None
    cache_dir = options["cache_dir"]
    if cache_dir is not None and os.path.exists(str(cache_dir)) and not os.path.isdir(str(cache_dir)):
        return None  # click's "Directory ... is a file."
    options["paths"] = tuple(paths)
    return options


def _utf8(stream) -> bool:
    encoding = getattr(stream, "encoding", None)
    return isinstance(encoding, str) and encoding.lower().replace("-", "").replace("_", "") == "utf8"


def echo(
    message: str = "",
    *,
    err: bool = False,
    nl: bool = True,
    color: Optional[bool] = None,
    out=None,
    commands: bool = False,
) -> None:
    """Write ``message`` as ``click.echo`` does: to stdout (or stderr, or ``out``: the
    ``--output-file``), flushed, with the ANSI styles removed unless ``color`` says otherwise or
    the stream is a terminal.

    No line of it reads as a GitHub workflow command (``dl_lint.printable.lines``: a backslash
    before a leading ``::`` or ``##[``) unless ``commands`` says the text is the ``github``
    format's annotations, which escapes its own values. The values in the text are escaped
    where it is made; this is the last guard."""
    stream = sys.stderr if err else (out if out is not None else sys.stdout)
    if stream is None:
        return
    if not commands:
        from dl_lint import printable

        message = printable.lines(message)
    if nl:
        message += "\n"
    if message:
        strip = not color if color is not None else not _isatty(stream)
        if strip and "\x1b" in message:
            import re

            message = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", message)
        stream.write(message)
    stream.flush()


def _one_line(value: object) -> str:
    """A message or name from the run on one line (``dl_lint.printable.text``)."""
    from dl_lint import printable

    return printable.text(value)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - a stream without a terminal behind it
        return False


def fail(message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    """``dl-lint: error: MESSAGE`` on one line (names in it may come from the project) and exit 2."""
    from dl_lint import printable

    echo(f"dl-lint: error: {printable.text(message)}", err=True)
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


def _split_globs(values: Tuple[str, ...]) -> Tuple[str, ...]:
    return tuple(glob.strip() for value in values for glob in value.split(",") if glob.strip())


def run(
    paths: Tuple[str, ...] = (),
    *,
    select: Tuple[str, ...] = (),
    ignore: Tuple[str, ...] = (),
    extend_select: Tuple[str, ...] = (),
    exclude: Tuple[str, ...] = (),
    extend_exclude: Tuple[str, ...] = (),
    torch_version: Optional[str] = None,
    config_file: Optional[str] = None,
    output_format: str = "concise",
    output_file: Optional[str] = None,
    statistics: bool = False,
    exit_zero: bool = False,
    exit_non_zero_on_fix: bool = False,
    quiet: bool = False,
    silent: bool = False,
    stdin_filename: Optional[str] = None,
    force_exclude: bool = False,
    jobs: Optional[int] = None,
    no_cache: bool = False,
    cache_dir: Optional[str] = None,
    fix: bool = False,
    fix_only: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
    show_fixes: bool = False,
    add_noqa: Optional[str] = None,
    watch: bool = False,
    show_settings: bool = False,
    show_files: bool = False,
) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    """Lint ``paths`` (default: the current folder), print the report, and exit with its code.

    ``add_noqa``: None, or the reason to write after the codes ("" for none). ``watch``: lint
    again whenever a file under the paths changes, until interrupted."""
    _stop_on_sigterm()
    _refuse_conflicts(
        ("-",) if stdin_filename is not None else paths,
        statistics=statistics,
        fix=fix,
        fix_only=fix_only,
        diff=diff,
        add_noqa=add_noqa,
        watch=watch,
    )
    if stdin_filename is not None and list(paths) != ["-"]:
        # As ruff: --stdin-filename means the source comes from stdin, never the current folder.
        if paths and not (quiet or silent):
            ignored = ", ".join(paths)
            echo(f"dl-lint: warning: ignoring {ignored} in favor of standard input (--stdin-filename)", err=True)
        paths = ("-",)
    options = dict(
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
        fix=fix or fix_only,
        fix_only=fix_only,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        show_fixes=show_fixes,
        add_noqa=add_noqa,
        show_settings=show_settings,
        show_files=show_files,
    )
    if watch and not (show_settings or show_files):
        from dl_lint.watch import watch as watch_paths

        watch_paths(
            paths,
            lambda: _run_once(paths, watching=True, **options),
            lambda line: echo(line, err=True),
            clear=_isatty(sys.stdout),
            config_file=config_file,
        )
    sys.exit(_run_once(paths, **options))


def _refuse_conflicts(paths, *, statistics: bool, fix: bool, fix_only: bool, diff: bool, add_noqa, watch: bool) -> None:
    """Flags that cannot go together: one line and 2, before anything is read (as ruff)."""
    stdin = list(paths) == ["-"]
    if add_noqa is not None:
        for flag, given in (
            ("--fix", fix),
            ("--fix-only", fix_only),
            ("--diff", diff),
            ("--statistics", statistics),
            ("--watch", watch),
        ):
            if given:
                fail(f"--add-noqa cannot be used with {flag}")
        if stdin:
            fail("--add-noqa cannot be used with source from standard input: it writes the files it lints")
        if "\n" in add_noqa or "\r" in add_noqa:
            fail("--add-noqa: the reason must be one line")
    if watch and stdin:
        fail("--watch cannot be used with source from standard input")
    for path in paths if watch else ():
        if not os.path.exists(path):  # as a run says it, before the watch starts
            fail(f"path does not exist: {path}")


def _run_once(
    paths: Tuple[str, ...],
    *,
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
    add_noqa: Optional[str],
    show_settings: bool,
    show_files: bool,
    watching: bool = False,
) -> int:
    """One lint of ``paths``: the report printed, the exit code returned (``fail`` still exits
    2 at once). ``watching``: Ctrl-C is not an error but the end of ``--watch``."""
    from dl_lint.config import ConfigError, validate_selectors
    from dl_lint.discovery import DiscoveryError
    from dl_lint.rules import known_codes

    quiet = quiet or silent
    codes = known_codes()
    overrides: Dict[str, object] = {}
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
        if config_file is not None:
            from dl_lint.discovery import not_regular_file

            problem = not_regular_file(config_file, "config file")
            if problem is not None:  # before anything opens it: a FIFO would block the open
                raise ConfigError(problem)
        if show_settings or show_files:
            from dl_lint import show

            if show_settings:
                text = show.settings_text(
                    paths, config_file, overrides, output_format=output_format, cache=not no_cache, cache_dir=cache_dir
                )
            else:
                found, problems = show.files_to_lint(paths, config_file, overrides, force_exclude=force_exclude)
                from dl_lint import printable

                text = "".join(f"{printable.path(name)}\n" for name in found)
                for name, reason in problems if not quiet else ():
                    echo(f"dl-lint: warning: {printable.text(name)}: {printable.text(reason)}", err=True)
                if not found and not quiet:
                    _no_files_warning(paths)
            echo(text, nl=False)
            return EXIT_CLEAN
        if (fix or diff) and list(paths) == ["-"]:
            return _fix_stdin(
                stdin_filename, config_file, overrides, unsafe_fixes, diff, quiet=quiet, silent=silent,
                fix_only=fix_only, exit_non_zero_on_fix=exit_non_zero_on_fix,
            )
        out = _open_output(output_file)
        diagnostics, files, warnings = _run(
            paths,
            config_file,
            overrides,
            stdin_filename,
            force_exclude=force_exclude,
            jobs=jobs,
            cache=not no_cache,
            cache_dir=cache_dir or None,
        )
        for warning in warnings if not quiet else ():
            echo(f"dl-lint: warning: {_one_line(warning)}", err=True)
        if add_noqa is not None:
            return _add_noqa(diagnostics, add_noqa, quiet=quiet)
        fixed_files: list = []
        if (fix or diff) and diagnostics:
            diagnostics, fixed_files = _fix_files(
                diagnostics, config_file, overrides, unsafe_fixes, write=fix and not diff, quiet=quiet
            )
    except (ConfigError, DiscoveryError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        if watching:
            raise
        fail("interrupted")
    except Exception as exc:  # noqa: BLE001 - never show a traceback; say what failed
        fail(f"internal error: {type(exc).__name__}: {exc}")
    try:
        return _report(
            out,
            paths,
            config_file,
            overrides,
            diagnostics,
            files,
            fixed_files,
            output_format=output_format,
            statistics=statistics,
            exit_zero=exit_zero,
            exit_non_zero_on_fix=exit_non_zero_on_fix,
            quiet=quiet,
            silent=silent,
            fix=fix,
            fix_only=fix_only,
            unsafe_fixes=unsafe_fixes,
            diff=diff,
            show_fixes=show_fixes,
        )
    finally:
        if out is not sys.stdout:
            out.close()


def _report(
    out,
    paths: Tuple[str, ...],
    config_file: Optional[str],
    overrides: Dict[str, object],
    diagnostics: list,
    files: int,
    fixed_files: list,
    *,
    output_format: str,
    statistics: bool,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    quiet: bool,
    silent: bool,
    fix: bool,
    fix_only: bool,
    unsafe_fixes: bool,
    diff: bool,
    show_fixes: bool,
) -> int:
    """Print what a run found (and fixed) to ``out``; the exit code."""
    fixed = sum(len(f.result.applied) for f in fixed_files)
    if diff:
        patches = [f.diff() for f in fixed_files if f.result.changed]
        if patches and not silent:
            echo("".join(patches), nl=False, out=out)
        if patches and not quiet:  # nothing to change: nothing printed (ruff)
            echo(f"Would fix {_plural(fixed, 'problem')}.", err=True)
        return EXIT_FOUND if patches else EXIT_CLEAN
    changed = fixed > 0 and exit_non_zero_on_fix
    if fix_only:
        # ruff's --fix-only: what was fixed, never what remains; 0 unless --exit-non-zero-on-fix.
        if not quiet and fixed and output_format in ("concise", "full") and not statistics:
            listing = _fixed_summary(fixed_files) + "\n" if show_fixes else ""
            echo(f"{listing}Fixed {_plural(fixed, 'problem')}.", out=out)
        return EXIT_FOUND if changed else EXIT_CLEAN
    hidden = 0
    if not unsafe_fixes and (output_format in ("concise", "full") or statistics):
        # An unsafe fix is not offered without --unsafe-fixes: no [*] for it (nor "fixable" in
        # --statistics, text or JSON), but say how many.
        hidden = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability != "safe")
        diagnostics = [
            d.replace(fix=None) if d.fix is not None and d.fix.applicability != "safe" else d for d in diagnostics
        ]

    from dl_lint.report import render, render_statistics
    from dl_lint.report_io import read_sources, repo_root

    color = output_format in ("concise", "full") and out is sys.stdout and _use_color()
    text_format = output_format in ("concise", "full")
    found = EXIT_FOUND if (diagnostics and not exit_zero) or changed else EXIT_CLEAN
    if files == 0 and not diagnostics:
        # A mistyped path, an empty or fully excluded folder: say so (ruff's warning), exit 0.
        if not quiet:
            _no_files_warning(paths)
        if text_format or statistics:
            return found
    if silent:
        return found
    if statistics:
        text = render_statistics(diagnostics, fmt=output_format)
        if text_format and diagnostics and not quiet:
            from dl_lint.report.text import summary

            text += "\n".join(summary(diagnostics, hidden=hidden)) + "\n"  # ruff's last lines
        echo(text, nl=False, out=out)
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
        echo(separator.join(parts), nl=False, color=color, out=out)
    else:
        sources = None
        if output_format in ("sarif", "gitlab") and list(paths) != ["-"]:
            # Piped source is not on disk (or differs from it): no snippets, message fingerprints.
            sources = read_sources(d.filename for d in diagnostics)
        root = repo_root() if output_format in ("github", "sarif", "gitlab") else None
        docs = _documentation_url(config_file, overrides) if output_format in ("json", "json-lines", "sarif") else None
        text = render(output_format, diagnostics, files_checked=files, sources=sources, root=root, documentation_url=docs)
        echo(text, nl=False, out=out, commands=output_format == "github")
    return found


def _open_output(name: Optional[str]):
    """``--output-file``: the file the report goes to, created with its folders (as ruff does);
    stdout when not given. A file that cannot be written is a usage error."""
    if not name:
        return sys.stdout
    try:
        folder = os.path.dirname(name)
        if folder:
            os.makedirs(folder, exist_ok=True)
        return open(name, "w", encoding="utf-8", newline="")
    except OSError as exc:
        fail(f"--output-file: cannot write {name}: {exc.strerror or exc}")


def _add_noqa(diagnostics, reason: str, *, quiet: bool) -> int:
    """``--add-noqa``: a ``# noqa: CODE`` on a line of every diagnostic, files written; ruff's
    count on stderr and 0 (the diagnostics are suppressed now)."""
    from dl_lint.add_noqa import add_noqa_directives

    added, problems = add_noqa_directives(diagnostics, reason)
    for problem in problems:
        echo(f"dl-lint: warning: {_one_line(problem)}", err=True)
    if added and not quiet:
        echo(f"Added {_plural(added, 'noqa directive')}.", err=True)
    return EXIT_CLEAN


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
    echo(f"dl-lint: warning: No Python files or notebooks found under the given path(s): {_one_line(where)}", err=True)


def _documentation_url(config_file: Optional[str], overrides: Dict[str, object]) -> Optional[str]:
    """Where the reports link rules to: a setting of the run as a whole, so, as ruff reads its
    own such settings (output-format), from the configuration of the working folder (or
    ``--config``); DL_LINT_DOCUMENTATION_URL beats it. A bad value stops the run (exit 2)."""
    from dl_lint.config import ConfigError, documentation_url

    try:
        return documentation_url(_settings_for(os.path.join(os.getcwd(), "-"), config_file, overrides))
    except ConfigError as exc:
        fail(str(exc))


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
            echo(f"dl-lint: error: {_one_line(exc if isinstance(exc, FixError) else f'{name}: cannot fix: {exc}')}", err=True)
            remaining.extend(
                d.replace(fix=None) if applicable(d, unsafe) else d for d in diagnostics if d.filename == name
            )
            continue
        refused = set()
        for diag, reason in result.result.failed:
            refused.add((diag.code, diag.message, diag.detail))
            if not quiet:
                echo(f"dl-lint: warning: {_one_line(name)}:{diag.location.row}: {diag.code} fix dropped: {_one_line(reason)}", err=True)
        fixed.append(result)
        remaining.extend(
            d.replace(fix=None) if d.fix is not None and (d.code, d.message, d.detail) in refused else d
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
        lines.append(f"- {_one_line(f.display)}:")
        counts: Dict[Tuple[str, str], int] = {}
        for d in f.result.applied:
            counts[(d.code, d.name)] = counts.get((d.code, d.name), 0) + 1
        for (code, name), n in sorted(counts.items()):
            lines.append(f"    {n} × {code} ({name})")
    return "\n".join(lines) + "\n"


def _fix_stdin(
    stdin_filename,
    config_file,
    overrides,
    unsafe: bool,
    diff: bool,
    *,
    quiet: bool = False,
    silent: bool = False,
    fix_only: bool = False,
    exit_non_zero_on_fix: bool = False,
) -> int:
    """``--fix -``: the fixed source to stdout, what remains (and the counts) to stderr, as ruff
    does; the exit code."""
    from pathlib import Path

    from dl_lint.analysis.project import find_root
    from dl_lint.engine import lint_source
    from dl_lint.fixes import fix_source
    from dl_lint.report import render
    from dl_lint.source import decode

    name = stdin_filename or "<stdin>"
    settings = _settings_for(name, config_file, overrides)
    root = find_root(Path(name).absolute()) if stdin_filename else None
    if name.endswith(".ipynb"):
        _fix_stdin_notebook(name, settings, root, unsafe, diff, quiet=quiet, silent=silent)
    source = decode(sys.stdin.buffer.read())
    result = fix_source(source, lambda s: lint_source(s, name, settings, project_root=root), unsafe=unsafe)
    if diff:
        import difflib

        patch = "".join(
            difflib.unified_diff(
                source.splitlines(keepends=True), result.source.splitlines(keepends=True), f"a/{name}", f"b/{name}"
            )
        )
        echo(patch, nl=False)
        return EXIT_FOUND if patch else EXIT_CLEAN
    sys.stdout.write(result.source)
    sys.stdout.flush()
    changed = bool(result.applied) and exit_non_zero_on_fix
    if fix_only:
        if result.applied and not quiet:
            echo(f"Fixed {_plural(len(result.applied), 'problem')}.", err=True)
        return EXIT_FOUND if changed else EXIT_CLEAN
    remaining, hidden = result.remaining, 0
    if not unsafe:  # as for files: an unsafe fix is not offered without --unsafe-fixes
        hidden = sum(1 for d in remaining if d.fix is not None and d.fix.applicability != "safe")
        remaining = [
            d.replace(fix=None) if d.fix is not None and d.fix.applicability != "safe" else d for d in remaining
        ]
    if not silent and (remaining or (result.applied and not quiet)):
        text = render("concise", remaining, fixed=len(result.applied), hidden=hidden, quiet=quiet)
        echo(text, nl=False, err=True)
    return EXIT_FOUND if result.remaining or changed else EXIT_CLEAN


def _fix_stdin_notebook(name: str, settings, root, unsafe: bool, diff: bool, *, quiet: bool, silent: bool) -> None:
    """``--fix`` / ``--diff`` of a notebook piped in (``--stdin-filename nb.ipynb``): the whole
    fixed notebook on stdout (as ruff writes it), or the changed cells' diff; what remains, in
    cell coordinates, on stderr. Bytes that are not a notebook are echoed unchanged (their
    DL000 is what remains)."""
    from pathlib import Path

    from dl_lint.engine import lint_bytes
    from dl_lint.fix_runner import fix_notebook_data
    from dl_lint.notebook import NotebookError, cell_diff
    from dl_lint.report import render

    data = sys.stdin.buffer.read()
    applied = 0
    try:
        result, new, _ = fix_notebook_data(data, Path(name), settings, unsafe=unsafe, project_root=root)
        applied = len(result.applied)
    except NotebookError:
        new = data
    if diff:
        patch = cell_diff(name, data, new) if new != data else ""
        echo(patch, nl=False)
        sys.exit(EXIT_FOUND if patch else EXIT_CLEAN)
    sys.stdout.buffer.write(new)
    sys.stdout.flush()
    remaining = lint_bytes(new, name, settings, project_root=root)
    exit_code = EXIT_FOUND if remaining else EXIT_CLEAN
    hidden = 0
    if not unsafe:
        hidden = sum(1 for d in remaining if d.fix is not None and d.fix.applicability != "safe")
        remaining = [
            d.replace(fix=None) if d.fix is not None and d.fix.applicability != "safe" else d for d in remaining
        ]
    if not silent and (remaining or (applied and not quiet)):
        echo(render("concise", remaining, fixed=applied, hidden=hidden, quiet=quiet), nl=False, err=True)
    sys.exit(exit_code)


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
        return lint_bytes(source, name, settings.with_overrides(**overrides), project_root=root), 1, []
    result = lint_paths(
        paths or (".",),
        config_file=config_file,
        overrides=overrides,
        force_exclude=force_exclude,
        jobs=jobs,
        cache=cache,
        cache_dir=cache_dir,
    )
    return result.diagnostics, result.files_checked, result.warnings


def _use_color() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()
