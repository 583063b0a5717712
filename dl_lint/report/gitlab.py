"""The ``gitlab`` format: a GitLab Code Quality report (a JSON array of Code Climate issues)::

    [{"description": "...", "check_name": "DL001", "fingerprint": "<md5>", "severity": "critical",
      "location": {"path": "src/train.py", "lines": {"begin": 2, "end": 2}}}]

``fingerprint`` is the MD5 of the code, the repo-relative path, the stripped text of the reported
line (the message when the source is not given) and the occurrence index, and no line number: an
issue keeps its fingerprint when code above it moves, so GitLab does not show it as fixed + new.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..model import Diagnostic, Severity
from ._common import digest, fingerprint_parts, relative_path, severity_of, sorted_diagnostics

__all__ = ["render", "to_issues", "SEVERITIES"]

# GitLab's severities are info, minor, major, critical, blocker.
SEVERITIES = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}


def to_issues(
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Optional[Mapping[str, str]] = None,
    root: Optional[str] = None,
) -> List[Dict[str, Any]]:
    ordered = sorted_diagnostics(diagnostics)
    issues: List[Dict[str, Any]] = []
    # ``description`` is the code and the concise message, as ruff 0.17 writes it ("F401: `os`
    # imported but unused"): what a merge request's widget lists, one line per finding.
    for diag, parts in zip(ordered, fingerprint_parts(ordered, sources, root)):
        issues.append(
            {
                "description": f"{diag.code}: {diag.message}",
                "check_name": diag.code,
                "fingerprint": digest("md5", parts),
                "severity": SEVERITIES[severity_of(diag)],
                "location": {
                    "path": relative_path(diag.filename, root),
                    "lines": {
                        "begin": diag.location.row,
                        "end": max(diag.end_location.row, diag.location.row),
                    },
                },
            }
        )
    return issues


def render(
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Optional[Mapping[str, str]] = None,
    root: Optional[str] = None,
) -> str:
    """The JSON array (indent 2; ``[]`` when empty) and a newline."""
    return json.dumps(to_issues(diagnostics, sources=sources, root=root), indent=2, ensure_ascii=False) + "\n"
