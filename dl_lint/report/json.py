"""The ``json`` format: ruff's JSON schema (same keys, in ruff's alphabetical order), and JSON
lines. Two keys are dl-lint's own: ``detail`` (the rest of the message: torch's error, the
numbers, what to write instead; ``message`` is the short sentence the concise line shows, as in
ruff) and ``related`` (places the diagnostic cites, each ``{cell, filename, location, note}``
with the file in the same form as ``filename``; ``cell`` as the diagnostic's own).

Note: this module is ``dl_lint.report.json``; ``import json`` below is the standard library
(absolute import).
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Sequence

from ..model import Diagnostic, Edit, Fix, Location, rule_url
from ._common import cited_path

__all__ = ["render", "render_lines", "diagnostic_to_dict"]


def _location(loc: Location) -> Dict[str, int]:
    return {"column": loc.column, "row": loc.row}


def _edit(edit: Edit) -> Dict[str, Any]:
    return {
        "content": edit.content,
        "end_location": _location(edit.end_location),
        "location": _location(edit.location),
    }


def _fix(fix: Optional[Fix]) -> Optional[Dict[str, Any]]:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability,
        "edits": [_edit(e) for e in fix.edits],
        "message": fix.message,
    }


def diagnostic_to_dict(diag: Diagnostic, documentation_url: Optional[str] = None) -> Dict[str, Any]:
    """One diagnostic as ruff's JSON object (keys in ruff's order), plus ``detail`` and ``related``.
    ``url`` links the rule's documentation under ``documentation_url`` (null without one)."""
    return {
        "cell": diag.cell,
        "code": diag.code,
        "detail": diag.detail,
        "end_location": _location(diag.end_location),
        "filename": diag.filename,
        "fix": _fix(diag.fix),
        "location": _location(diag.location),
        "message": diag.message,
        "name": diag.name,
        "noqa_row": diag.noqa_row,
        "related": [
            {
                "cell": place.cell,
                "filename": cited_path(place.path, diag.filename),
                "location": {"column": place.column, "row": place.row},
                "note": place.note,
            }
            for place in diag.related
        ],
        "severity": getattr(diag.severity, "value", diag.severity),
        "url": rule_url(diag.code, documentation_url),
    }


def _sorted(diagnostics: Sequence[Diagnostic]):
    return sorted(diagnostics, key=lambda d: d.sort_key())


def render(diagnostics: Sequence[Diagnostic], documentation_url: Optional[str] = None) -> str:
    """A JSON array, indent 2 (``[]`` when empty), followed by a newline."""
    items = [diagnostic_to_dict(d, documentation_url) for d in _sorted(diagnostics)]
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def render_lines(diagnostics: Sequence[Diagnostic], documentation_url: Optional[str] = None) -> str:
    """JSON lines: one compact object per line, each ending with a newline ("" when empty)."""
    return "".join(
        json.dumps(diagnostic_to_dict(d, documentation_url), ensure_ascii=False, separators=(",", ":")) + "\n"
        for d in _sorted(diagnostics)
    )
