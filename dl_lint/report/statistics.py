"""``--statistics``: how often each rule fired, instead of the diagnostics (like ruff)::

    3	DL101	[ ]	prefetch-memory
    1	DL001	[*]	prefetch-without-workers

Tab-separated: count, code, ``[*]`` when any of its diagnostics has a fix (else ``[ ]``), name.
Sorted by count (most first), then code. Empty output when there is nothing to count.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from ..model import Diagnostic

__all__ = ["render", "render_json", "statistics"]


def statistics(diagnostics: Sequence[Diagnostic]) -> List[Dict[str, Any]]:
    """``[{"code", "name", "count", "fixable"}]`` in output order."""
    by_code: Dict[str, Dict[str, Any]] = {}
    for diag in diagnostics:
        entry = by_code.setdefault(
            diag.code, {"code": diag.code, "name": diag.name, "count": 0, "fixable": False}
        )
        entry["count"] += 1
        entry["fixable"] = entry["fixable"] or diag.fix is not None
    return sorted(by_code.values(), key=lambda e: (-e["count"], e["code"]))


def render(diagnostics: Sequence[Diagnostic]) -> str:
    lines = []
    for entry in statistics(diagnostics):
        marker = "[*]" if entry["fixable"] else "[ ]"
        lines.append(f"{entry['count']}\t{entry['code']}\t{marker}\t{entry['name']}\n")
    return "".join(lines)


def render_json(diagnostics: Sequence[Diagnostic]) -> str:
    """The same as a JSON array (indent 2) and a newline, for ``--statistics --output-format json``."""
    return json.dumps(statistics(diagnostics), indent=2, ensure_ascii=False) + "\n"
