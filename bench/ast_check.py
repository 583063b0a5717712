"""Compare dl-lint's analysis with the independent ``ast`` oracle (tests/ast_oracle.py)
on real code: which (file, row) construct torch's DataLoader.

    python bench/ast_check.py REPO [REPO ...]      (e.g. /work/realcode/*)

Every file that mentions DataLoader is analysed as ``lint_paths`` would (a project per
repository, so subclasses and aliases defined in other modules resolve). Prints, per repository
and in total, the calls each side finds, how many agree, and every difference with its category
(see EXPECTED_* in tests/ast_oracle.py); exits 1 if a difference is unexplained.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from ast_oracle import compare, find_loader_calls  # noqa: E402


def check_repo(repo: Path, out: Counter, unexplained: list, shown: list) -> None:
    from dl_lint.analysis.project import Project, find_root, module_name_for
    from dl_lint.discovery import discover
    from dl_lint.source import decode

    project = Project(find_root(repo))
    for path in discover([repo]).files:
        data = path.read_bytes()
        if b"DataLoader" not in data:
            continue
        try:
            source = decode(data)
            module = module_name_for(path)
            analysis = project.parsed(str(path)) or project.parse(str(path), module, source)
            project.add(analysis)
            rows = {call.location.row for call in analysis.facts().calls}
        except Exception as exc:  # noqa: BLE001 - a file the analysis cannot take
            out["files not analysed"] += 1
            shown.append(f"  not analysed: {path}: {type(exc).__name__}: {str(exc)[:100]}")
            continue
        out["files"] += 1
        oracle = find_loader_calls(source)
        out["analysis"] += len(rows)
        out["oracle"] += len(oracle)
        out["agree"] += len(rows & oracle)
        lines = source.splitlines()
        for row, side, category in compare(source, rows):
            out[f"{side} only: {category}"] += 1
            text = lines[row - 1].strip()[:100] if row <= len(lines) else ""
            entry = f"  {side} only [{category}] {path}:{row}: {text}"
            (unexplained if category == "unexplained" else shown).append(entry)


def main(repos) -> int:
    total: Counter = Counter()
    unexplained: list = []
    for repo in repos:
        counts: Counter = Counter()
        shown: list = []
        check_repo(Path(repo), counts, unexplained, shown)
        total.update(counts)
        extra = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if " only" in k or k.startswith("files not"))
        print(
            f"{Path(repo).name}: {counts['files']} files, analysis {counts['analysis']}, oracle {counts['oracle']}, "
            f"agree {counts['agree']}" + (f"; {extra}" if extra else "")
        )
        for line in shown:
            print(line)
    print(
        f"total: {total['files']} files mentioning DataLoader, analysis {total['analysis']} calls, "
        f"oracle {total['oracle']}, agree {total['agree']}"
    )
    for key in sorted(k for k in total if " only" in k or k.startswith("files not")):
        print(f"  {key}: {total[key]}")
    if unexplained:
        print("unexplained differences:")
        for line in unexplained:
            print(line)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or sorted(str(p) for p in Path("/work/realcode").iterdir())))
