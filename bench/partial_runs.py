"""One answer however dl-lint is run (issue 26): partial runs against the full run, per repository.

    python bench/partial_runs.py ROOT [ROOT ...] [--select CODES] [--cache]

For each repository root (a tree written out with ../shared/tools/extract-snapshot.py), from that
root, with dl-lint's default rules (or ``--select``):

1. the full run: ``dl-lint .``;
2. for every diagnostic of the full run, a run naming only the file it is reported in must report
   it, at the same line (code, file, line and column compared);
3. every such run must report nothing in its named file that the full run does not;
4. for every diagnostic with a cross-file origin (``Diagnostic.evidence``: its related locations
   and the files its values come from, other than its own file), a run naming only that origin
   file must report it.

A tree written out by extract-snapshot has no ``.git``; a user's checkout has one, and without any
project marker (``.git``, ``pyproject.toml``, ``setup.py``, ``setup.cfg``) a run naming a file
reads only that file's folder (a stray script must not make dl-lint walk a home folder). With
``--as-checkout`` each root without a marker is copied to a temporary folder and made a git
repository (``git init``) first, as the pre-commit hook, an editor or CI find it.

Runs go through the Python API (``dl_lint.lint_paths``, the function the CLI calls), one process,
without the results cache unless ``--cache`` (then in a temporary folder, warm after the first
run, as pre-commit finds it). It prints one line per repository and the totals; every check must
be 100%. Exit code 1 when one is not.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Set, Tuple

MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")  # dl_lint.roots.ROOT_MARKERS
Key = Tuple[str, str, int, int]  # (absolute file, code, row, column)


def _key(diag, cwd: str) -> Key:
    return (os.path.normpath(os.path.join(cwd, diag.filename)), diag.code, diag.location.row, diag.location.column)


def _run(paths: List[str], args, cache_dir: str):
    from dl_lint import lint_paths

    overrides = {"select": tuple(args.select.split(","))} if args.select else None
    return lint_paths(paths, overrides=overrides, cache=args.cache, cache_dir=cache_dir or None).diagnostics


def check(root: Path, args) -> Dict[str, int]:
    cwd = os.getcwd()
    os.chdir(root)
    here = os.getcwd()
    cache_dir = tempfile.mkdtemp(prefix="dl-lint-partial-") if args.cache else ""
    counts = {"diagnostics": 0, "same_file": 0, "extra": 0, "named_runs": 0, "cross": 0, "cross_found": 0, "runs": 1}
    started = time.monotonic()
    try:
        full = _run(["."], args, cache_dir)
        full_keys: Set[Key] = {_key(d, here) for d in full}
        counts["diagnostics"] = len(full_keys)
        by_file: Dict[str, Set[Key]] = {}
        for key in full_keys:
            by_file.setdefault(key[0], set()).add(key)
        origins: Dict[str, Set[Key]] = {}  # origin file -> diagnostics resting on it
        for diag in full:
            own = _key(diag, here)
            for path in diag.evidence:
                if path != own[0] and path.startswith(here + os.sep):
                    origins.setdefault(path, set()).add(own)
        for path in sorted(set(by_file) | set(origins)):
            if not os.path.exists(path):
                continue
            found = {_key(d, here) for d in _run([os.path.relpath(path, here)], args, cache_dir)}
            counts["runs"] += 1
            mine = by_file.get(path, set())
            if mine:
                counts["named_runs"] += 1
                counts["same_file"] += len(mine & found)
                for missing in sorted(mine - found):
                    print(f"  MISSING when naming {os.path.relpath(path, here)}: {missing[1]} at line {missing[2]}")
            extra = {k for k in found if k[0] == path} - full_keys
            counts["extra"] += len(extra)
            for key in sorted(extra):
                print(f"  EXTRA when naming {os.path.relpath(path, here)}: {key[1]} at line {key[2]}")
            resting = origins.get(path, set())
            counts["cross"] += len(resting)
            counts["cross_found"] += len(resting & found)
            for missing in sorted(resting - found):
                print(f"  NOT SHOWN when naming origin {os.path.relpath(path, here)}: {os.path.relpath(missing[0], here)}:{missing[2]} {missing[1]}")
    finally:
        os.chdir(cwd)
    counts["seconds"] = round(time.monotonic() - started, 1)
    return counts


def _pct(a: int, b: int) -> str:
    return "100%" if a == b else f"{100 * a / b:.1f}%" if b else "n/a"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("roots", nargs="+", type=Path)
    parser.add_argument("--select", default="", help="rule codes (default: the rules on by default)")
    parser.add_argument(
        "--as-checkout", action="store_true", help="copy a root without a project marker and git-init the copy, as a clone is"
    )
    parser.add_argument("--cache", action="store_true", help="use a results cache (in a temporary folder)")
    args = parser.parse_args(argv)
    not_dirs = [str(root) for root in args.roots if not root.is_dir()]
    from dl_lint.config import ConfigError

    if not_dirs:
        parser.error(f"not a repository folder: {', '.join(not_dirs)}")
    totals = {"diagnostics": 0, "same_file": 0, "extra": 0, "cross": 0, "cross_found": 0}
    print("| repository | diagnostics | reported naming their file | extra in a named file | cross-file | reported naming the origin | runs | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    scratch = tempfile.mkdtemp(prefix="dl-lint-checkouts-") if args.as_checkout else ""
    for root in args.roots:
        where = root.resolve()
        if args.as_checkout and not any((where / marker).exists() for marker in MARKERS):
            where = Path(tempfile.mkdtemp(dir=scratch)) / root.name  # two roots may share a name
            shutil.copytree(root, where, symlinks=True)
            subprocess.run(["git", "init", "-q", str(where)], check=True)
        try:
            counts = check(where, args)
        except ConfigError as error:  # the CLI reports it and stops; so does every partial run
            print(f"| {root.name} | configuration error, not compared: {error} | | | | | | |")
            continue
        for name in totals:
            totals[name] += counts[name]
        print(
            f"| {root.name} | {counts['diagnostics']} | {counts['same_file']} ({_pct(counts['same_file'], counts['diagnostics'])}) "
            f"| {counts['extra']} | {counts['cross']} | {counts['cross_found']} ({_pct(counts['cross_found'], counts['cross'])}) "
            f"| {counts['runs']} | {counts['seconds']} |"
        )
    ok = totals["same_file"] == totals["diagnostics"] and totals["extra"] == 0 and totals["cross_found"] == totals["cross"]
    print(
        f"| **total** | {totals['diagnostics']} | {totals['same_file']} ({_pct(totals['same_file'], totals['diagnostics'])}) "
        f"| {totals['extra']} | {totals['cross']} | {totals['cross_found']} ({_pct(totals['cross_found'], totals['cross'])}) | | |"
    )
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    print("PASS: every check 100%" if ok else "FAIL: a partial run differs from the full run")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
