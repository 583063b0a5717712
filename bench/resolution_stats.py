"""How much of real code dl-lint can see: for every DataLoader call found under the given
folders, which of num_workers, pin_memory, persistent_workers and prefetch_factor are written
(explicitly or through a ``**`` splat) and how many of those resolve to known values.

    python bench/resolution_stats.py REPO [REPO ...]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from dl_lint.analysis.project import Project, find_root, module_name_for
from dl_lint.config import Settings
from dl_lint.discovery import discover
from dl_lint.files import SourceFile, display_path
from dl_lint.judge import analyse

ARGS = ("num_workers", "pin_memory", "persistent_workers", "prefetch_factor")


def main(paths):
    calls = 0
    written, resolved, known = Counter(), Counter(), Counter()
    projects = {}
    for path in discover([Path(p) for p in paths]).files:
        project = projects.setdefault(find_root(path), Project(find_root(path)))
        data = path.read_bytes()
        if b"DataLoader" not in data:
            continue
        file = SourceFile(path, display_path(path), module_name_for(path), Settings(), data)
        analyse(file, project)
        if file.facts is None:
            continue
        for call in file.facts.calls:
            calls += 1
            for name in ARGS:
                if not call.value(name).is_unknown:
                    known[name] += 1
                if call.given(name) or name in call.opaque:
                    written[name] += 1
                    if not call.value(name).is_unknown:
                        resolved[name] += 1
    print(f"{calls} DataLoader calls")
    for name in ARGS:
        print(
            f"  {name:20s} passed (explicitly or via **) {written[name]:4d}, resolved {resolved[name]:4d};"
            f" value known in {known[name]:4d} of {calls} calls"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
