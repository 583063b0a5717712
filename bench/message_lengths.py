"""How long dl-lint's concise messages are on real code (issue 27: they were 220-297 characters,
ruff's under 100; the bound is 120, location excluded): for each repository root given, and for
all of them together, the number of diagnostics and the minimum, median, 90th percentile and
maximum length of their messages, and how many are over the bound.

    python bench/message_lengths.py ROOT [ROOT ...] [--select ALL] [--show-long]

Each root is linted as the command line would lint it from that folder (default rules unless
``--select``), without the results cache. The length is that of the message alone, the part of
the concise line after ``path:row:col: CODE [*] `` (ruff's messages are measured the same way).
``--show-long`` prints the messages over the bound.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import List, Sequence

LIMIT = 120


def _percentile(values: Sequence[int], fraction: float) -> int:
    """The nearest-rank percentile (a value that occurs)."""
    ordered = sorted(values)
    rank = max(1, -(-int(round(fraction * 1000)) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


def _row(name: str, lengths: List[int]) -> str:
    if not lengths:
        return f"{name:<40} {0:>6} {'-':>5} {'-':>7} {'-':>5} {'-':>5} {0:>7}"
    over = sum(1 for n in lengths if n > LIMIT)
    median = statistics.median(lengths)
    return (
        f"{name:<40} {len(lengths):>6} {min(lengths):>5} {median:>7g} {_percentile(lengths, 0.9):>5} "
        f"{max(lengths):>5} {over:>7}"
    )


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="+", help="repository roots (folders)")
    parser.add_argument("--select", action="append", default=None, help="rules (default: the rules on by default)")
    parser.add_argument("--show-long", action="store_true", help=f"print the messages over {LIMIT} characters")
    args = parser.parse_args(argv)

    from dl_lint import lint_paths

    overrides = {"select": tuple(args.select)} if args.select else {}
    print(f"{'repository':<40} {'count':>6} {'min':>5} {'median':>7} {'p90':>5} {'max':>5} {'>' + str(LIMIT):>7}")
    everything: List[int] = []
    long = []
    here = os.getcwd()
    for root in args.roots:
        os.chdir(root)
        try:
            result = lint_paths(["."], overrides=overrides, cache=False)
        finally:
            os.chdir(here)
        lengths = [len(d.message) for d in result.diagnostics]
        everything += lengths
        long += [(root, d) for d in result.diagnostics if len(d.message) > LIMIT]
        print(_row(os.path.basename(os.path.normpath(root)), lengths))
    print(_row("all", everything))
    if args.show_long:
        for root, d in long:
            print(f"{root}/{d.filename}:{d.location.row}: {d.code} ({len(d.message)}) {d.message}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
