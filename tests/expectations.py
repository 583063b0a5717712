"""Reading the inline ``# expect: DL001, DL101`` markers of fixture files."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Iterable, List, Tuple

# Rules off by default because they report correct code on purpose (DL305: every loader without
# workers, which most fixtures build for other reasons). A fixture selects one by mentioning its
# code (an ``# expect:`` marker, or a comment saying the file is about it); otherwise the fixture
# runner ignores it, so the other fixtures stay about their own rules.
NOISY_RULES = ("DL305",)

EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")


def expected(paths: Iterable[Path], display) -> Counter:
    """(display path, row, code) -> count, from the markers in ``paths``."""
    found: Counter = Counter()
    for path in paths:
        for row, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                for code in re.split(r"\s*,\s*", match.group(1)):
                    found[(display(path), row, code)] += 1
    return found


def selection(paths: Iterable[Path]) -> dict:
    """The overrides a fixture is linted with: every rule, but the noisy ones only when named."""
    text = "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in paths)
    ignored = tuple(code for code in NOISY_RULES if code not in text)
    return {"select": ("ALL",), "ignore": ignored} if ignored else {"select": ("ALL",)}


def fixture_cases(root: Path) -> List[Tuple[str, Path]]:
    """Every top-level fixture under ``root``: a single file, or a folder linted as one run."""
    cases = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(("_", ".")) or entry.name == "__pycache__":
            continue
        if entry.is_dir() or entry.suffix == ".py":
            cases.append((f"{root.name}/{entry.name}", entry))
    return cases
