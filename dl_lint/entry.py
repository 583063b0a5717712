"""The `dl-lint` console script. Two commands people run by hand and from editors and scripts,
`dl-lint --version` and `dl-lint rule CODE`, are answered here without importing click (about
50 ms, a third of the time they take) or anything else they do not need; a check command line
that ``dl_lint.check.fast_arguments`` can read (paths and check's flags, spelled plainly: what
pre-commit, CI and people type) runs ``dl_lint.check.run`` without click too. Every other
command line goes to ``dl_lint.cli`` and behaves the same. tests/test_cli.py checks that both
paths print the same bytes and exit with the same code.
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from dl_lint import __version__

        sys.stdout.write(f"dl-lint {__version__}\n")
        return
    if len(args) == 2 and args[0] == "rule" and args[1][:1] not in ("-", ""):
        from dl_lint.rules import find_rule

        rule = find_rule(args[1])
        if rule is not None:
            text = rule.markdown() + "\n"
            try:
                text.encode(sys.stdout.encoding or "utf-8")
            except (UnicodeEncodeError, LookupError):
                pass  # a stdout that cannot encode the text: click knows what to do
            else:
                if os.path.isdir("rule"):
                    from dl_lint.check import command_folder_note

                    command_folder_note("rule")
                sys.stdout.write(text)
                return
    if argv is not None:  # called from Python (tests): behave like any function
        from dl_lint.cli import main as cli_main

        cli_main(args=args, prog_name="dl-lint")
        return
    try:
        from dl_lint import engine
        from dl_lint.check import fast_arguments

        options = fast_arguments(args)
    except KeyboardInterrupt:  # Ctrl-C while starting: one line, as during the run
        sys.stderr.write("dl-lint: error: interrupted\n")
        sys.exit(2)

    # A process of its own: keep what the run built until the end and leave without tearing it
    # down (freeing the trees of a large project took a tenth of a second, and changes nothing),
    # and without the cyclic garbage collector, which a run does not need (the analysis frees its
    # own cycles) and which, left on, walked the whole heap once the lint was done.
    import gc

    gc.disable()
    engine.RETAINED = []
    try:
        if options is not None:
            _check(options)
        else:
            from dl_lint.cli import main as cli_main

            cli_main(args=args, prog_name="dl-lint")
        code = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            sys.stderr.write(f"{exc.code}\n")
            code = 1
    _leave(code)


def _check(options: dict) -> None:
    """``dl_lint.check.run`` as click's ``main`` would run it: a reader that went away (EPIPE)
    ends the run with 1 and silences the streams. Ctrl-C or SIGTERM outside the lint itself
    (while the report is printed, once every fix is written) ends it as inside: one line,
    "dl-lint: error: interrupted", and 2 (click's "Aborted!" and 1 broke that promise when the
    signal came late)."""
    import errno

    from dl_lint.check import EXIT_ERROR, echo, run

    try:
        run(**options)
    except KeyboardInterrupt:
        echo("dl-lint: error: interrupted", err=True)
        sys.exit(EXIT_ERROR)
    except EOFError:
        echo(err=True)
        echo("Aborted!", err=True)
        sys.exit(1)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = _Quiet(sys.stdout)
        sys.stderr = _Quiet(sys.stderr)
        sys.exit(1)


class _Quiet:
    """A stream whose flush ignores a closed pipe (click's ``PacifyFlushWrapper``)."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError:
            pass

    def __getattr__(self, name: str):
        return getattr(self.wrapped, name)


def _leave(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except ValueError:  # closed already (the language server closes its transport)
            pass
        except OSError:  # the reader went away (``dl-lint . | head``)
            code = code or 1
    os._exit(code)


if __name__ == "__main__":
    main()
