"""The `dl-lint` console script. Two commands people run by hand and from editors and scripts,
`dl-lint --version` and `dl-lint rule CODE`, are answered here without importing click (about
50 ms, a third of the time they take) or anything else they do not need; every other command
line, including those two with any other argument, goes to ``dl_lint.cli`` and behaves the
same. tests/test_cli.py checks that both paths print the same bytes."""

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
            try:
                sys.stdout.write(rule.markdown() + "\n")  # encodes all of it before writing
                return
            except UnicodeEncodeError:
                pass  # a stdout that cannot encode the text: click knows what to do
    from dl_lint import engine
    from dl_lint.cli import main as cli_main

    if argv is not None:  # called from Python (tests): behave like any function
        cli_main(args=args, prog_name="dl-lint")
        return
    # A process of its own: keep what the run built until the end and leave without tearing it
    # down (freeing the trees of a large project took a tenth of a second, and changes nothing),
    # and without the cyclic garbage collector, which a run does not need (the analysis frees its
    # own cycles) and which, left on, walked the whole heap once the lint was done.
    import gc

    gc.disable()
    engine.RETAINED = []
    try:
        cli_main(args=args, prog_name="dl-lint")
        code = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            sys.stderr.write(f"{exc.code}\n")
            code = 1
    _leave(code)


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
