"""The long fuzz run: N cases of each kind, counting crashes (any exception) instead of stopping.

    python bench/fuzz.py --cases 10000 [--kinds programs,mutations,paths,fixes] [--save DIR]

Kinds (strategies in tests/fuzzing.py, the same as the short runs in tests/test_fuzz*.py):

- programs:  random valid Python (hypothesmith) mixed with DataLoader calls carrying random
             arguments, through ``lint_source`` (every rule selected);
- mutations: byte-level mutations of the fixtures through ``lint_bytes`` as a .py and as an
             .ipynb file;
- paths:     the same mutations written to a folder beside a file with a known DL001, through
             ``lint_paths`` (which must still report it);
- fixes:     random loader programs; every offered fix applied alone must keep the program
             parseable, and ``fix_source`` (unsafe fixes too) must not raise.

Prints, per kind, the cases run, the crashes, the time and the slowest case; exits 1 if any
case crashed. ``--save DIR`` writes each crashing input there.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from fuzzing import fixture_corpus, loader_programs, mutations  # noqa: E402

KINDS = ("programs", "mutations", "paths", "fixes")
BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"


def run_kind(kind: str, cases: int, save: Path | None) -> dict:
    from dl_lint import lint_paths, lint_source
    from dl_lint.config import Settings
    from dl_lint.engine import lint_bytes

    everything = Settings(select=("ALL",))
    stats = {"cases": 0, "crashes": 0, "slowest": 0.0, "fixes checked": 0, "diagnostics": 0}

    def case(data) -> None:
        if kind == "programs":
            stats["diagnostics"] += len(lint_source(data, "train.py", everything))
        elif kind == "mutations":
            for name in ("train.py", "train.ipynb"):
                stats["diagnostics"] += len(lint_bytes(data, name, everything))
        elif kind == "paths":
            with tempfile.TemporaryDirectory() as folder:
                root = Path(folder)
                (root / "mutated.py").write_bytes(data)
                (root / "mutated.ipynb").write_bytes(data)
                (root / "bad.py").write_text(BAD)
                result = lint_paths([root], jobs=1, cache=False)
            stats["diagnostics"] += len(result.diagnostics)
            if not any(d.code == "DL001" and d.filename.endswith("bad.py") for d in result.diagnostics):
                raise AssertionError("bad.py's DL001 was lost")
        else:
            from test_fuzz_fixes import check_fixes

            stats["fixes checked"] += check_fixes(data)

    def record(data) -> None:
        stats["cases"] += 1
        started = time.monotonic()
        try:
            case(data)
        except Exception:  # noqa: BLE001 - count it, keep going
            stats["crashes"] += 1
            if stats["crashes"] <= 5:
                print(f"--- {kind}: crash on case {stats['cases']}", file=sys.stderr)
                traceback.print_exc()
            if save is not None:
                save.mkdir(parents=True, exist_ok=True)
                suffix = "bin" if isinstance(data, bytes) else "py"
                target = save / f"{kind}-{stats['cases']}.{suffix}"
                target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        stats["slowest"] = max(stats["slowest"], time.monotonic() - started)
        if stats["cases"] % 500 == 0:
            print(f"  {kind}: {stats['cases']} cases, {stats['crashes']} crashes so far", file=sys.stderr, flush=True)

    strategy = {
        "programs": loader_programs(),
        "mutations": mutations(fixture_corpus()),
        "paths": mutations(fixture_corpus()),
        "fixes": loader_programs(with_random_python=False),
    }[kind]
    run = settings(
        max_examples=cases,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(record))
    started = time.monotonic()
    run()
    stats["seconds"] = time.monotonic() - started
    return stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases of each kind (default 1000)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--save", type=Path, help="write each crashing input to this folder")
    args = parser.parse_args(argv)
    total = 0
    for kind in args.kinds.split(","):
        stats = run_kind(kind.strip(), args.cases, args.save)
        total += stats["crashes"]
        extra = f", {stats['fixes checked']} fixes checked" if kind == "fixes" else f", {stats['diagnostics']} diagnostics"
        print(
            f"{kind}: {stats['cases']} cases, {stats['crashes']} crashes, {stats['seconds']:.0f} s "
            f"(slowest case {stats['slowest']:.2f} s){extra}",
            flush=True,
        )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
