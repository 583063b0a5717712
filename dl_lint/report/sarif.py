"""The ``sarif`` format: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

One run. ``tool.driver.rules`` describes every rule in the registry (plus any code a diagnostic
carries that the registry lacks), so a viewer can show a rule's help even when it did not fire.
Each result has a repo-relative ``artifactLocation.uri`` under ``uriBaseId`` ``%SRCROOT%``
(percent-encoded: SARIF URIs are RFC 3986 references, so a space is ``%20``), a region with
dl-lint's own columns (1-based, end exclusive: what SARIF uses too), the whole message (the
short sentence and its detail) as ``message.text``, the places it cites as
``relatedLocations``, a ``partialFingerprints.primaryLocationLineHash`` that ignores line
numbers, and ``fixes`` when the diagnostic has a fix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .. import __version__
from ..model import Diagnostic, Edit, Location, Severity, information_url, rule_url
from ._common import digest, fingerprint_parts, relative_path, sorted_diagnostics, uri_path

__all__ = ["render", "to_sarif", "SCHEMA_URI", "LEVELS"]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
DEFAULT_TAGS = ("pytorch", "dataloader")


def _what_it_does(doc: str) -> str:
    """The text of the ``## What it does`` section of a rule's doc, on one line ("" if none)."""
    lines = doc.strip().splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower() == "## what it does":
            body: List[str] = []
            for follow in lines[i + 1 :]:
                if follow.startswith("## "):
                    break
                body.append(follow.strip())
            return " ".join(part for part in body if part)
    return ""


def _level(severity: Any) -> str:
    try:
        return LEVELS[Severity(severity)]
    except ValueError:
        return "error"


def _rule_descriptor(rule: Any, documentation_url: Optional[str]) -> Dict[str, Any]:
    summary = rule.summary or rule.name or rule.code
    markdown = rule.markdown()
    descriptor = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": _what_it_does(getattr(rule, "doc", "")) or summary},
        "help": {"text": markdown, "markdown": markdown},
        "helpUri": rule_url(rule.code, documentation_url),
        "defaultConfiguration": {"level": _level(rule.severity)},
        "properties": {"tags": list(getattr(rule, "tags", None) or DEFAULT_TAGS)},
    }
    if descriptor["helpUri"] is None:  # no documentation URL configured: no link to nowhere
        del descriptor["helpUri"]
    return descriptor


def _unknown_rule_descriptor(diag: Diagnostic, documentation_url: Optional[str]) -> Dict[str, Any]:
    """For a code the registry does not know: everything GitHub requires, from the diagnostic."""
    text = diag.name or diag.code
    url = rule_url(diag.code, documentation_url)
    descriptor = {
        "id": diag.code,
        "name": diag.name or diag.code,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "help": {"text": text, "markdown": text},
        "defaultConfiguration": {"level": _level(diag.severity)},
        "properties": {"tags": list(DEFAULT_TAGS)},
    }
    if url is not None:
        descriptor["help"] = {"text": f"See {url}", "markdown": f"See [{diag.code}]({url})."}
        descriptor["helpUri"] = url
    return descriptor


def _region(start: Location, end: Location) -> Dict[str, int]:
    return {
        "startLine": start.row,
        "startColumn": max(start.column, 1),
        "endLine": max(end.row, start.row),
        "endColumn": max(end.column, 1),
    }


def _artifact(path: str) -> Dict[str, str]:
    """``path``: repo-relative with forward slashes (as :func:`relative_path` gives it)."""
    return {"uri": uri_path(path), "uriBaseId": SRCROOT}


def _related(diag: Diagnostic, root: Optional[str]) -> List[Dict[str, Any]]:
    return [
        {
            "id": index,
            "physicalLocation": {
                "artifactLocation": _artifact(relative_path(place.path, root)),
                "region": {"startLine": max(place.row, 1), "startColumn": max(place.column, 1)},
            },
            "message": {"text": place.note},
        }
        for index, place in enumerate(diag.related)
    ]


def _replacement(edit: Edit) -> Dict[str, Any]:
    return {
        "deletedRegion": _region(edit.location, edit.end_location),
        "insertedContent": {"text": edit.content},
    }


def _line_hash(code: str, path: str, anchor: str, occurrence: int) -> str:
    """GitHub's shape, ``<hex>:<occurrence>``; the hex part hashes code, path and line text."""
    return f"{digest('sha256', ('dl-lint', code, path, anchor))[:16]}:{occurrence}"


def to_sarif(
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Optional[Mapping[str, str]] = None,
    root: Optional[str] = None,
    rules: Optional[Sequence[Any]] = None,
    documentation_url: Optional[str] = None,
) -> Dict[str, Any]:
    """The SARIF log as a dict. ``rules`` defaults to every rule in the registry. Without a
    ``documentation_url``, rules have no ``helpUri`` and the driver no ``informationUri``."""
    if rules is None:
        from ..rules import all_rules

        rules = list(all_rules().values())
    descriptors = [_rule_descriptor(rule, documentation_url) for rule in rules]
    index = {d["id"]: i for i, d in enumerate(descriptors)}

    ordered = sorted_diagnostics(diagnostics)
    prints = fingerprint_parts(ordered, sources, root)
    results: List[Dict[str, Any]] = []
    for diag, (code, path, anchor, occurrence) in zip(ordered, prints):
        if diag.code not in index:
            index[diag.code] = len(descriptors)
            descriptors.append(_unknown_rule_descriptor(diag, documentation_url))
        result: Dict[str, Any] = {
            "ruleId": diag.code,
            "ruleIndex": index[diag.code],
            "level": _level(diag.severity),
            "message": {"text": diag.full_message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(path),
                        "region": _region(diag.location, diag.end_location),
                    }
                }
            ],
            "partialFingerprints": {"primaryLocationLineHash": _line_hash(code, path, anchor, occurrence)},
        }
        if diag.related:
            result["relatedLocations"] = _related(diag, root)
        if diag.fix is not None and diag.fix.edits:
            result["fixes"] = [
                {
                    "description": {"text": diag.fix.message},
                    "artifactChanges": [
                        {
                            "artifactLocation": _artifact(path),
                            "replacements": [_replacement(e) for e in diag.fix.edits],
                        }
                    ],
                }
            ]
        results.append(result)

    base: Dict[str, Any] = {"description": {"text": "The root of the repository that was linted."}}
    if root is not None:
        base = {"uri": Path(os.path.abspath(root)).as_uri().rstrip("/") + "/", **base}
    driver: Dict[str, Any] = {"name": "dl-lint", "version": __version__, "semanticVersion": __version__}
    about = information_url(documentation_url)
    if about is not None:
        driver["informationUri"] = about
    driver["rules"] = descriptors
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "originalUriBaseIds": {SRCROOT: base},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def render(
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Optional[Mapping[str, str]] = None,
    root: Optional[str] = None,
    rules: Optional[Sequence[Any]] = None,
    documentation_url: Optional[str] = None,
) -> str:
    """The SARIF log as JSON (indent 2) and a newline."""
    log = to_sarif(diagnostics, sources=sources, root=root, rules=rules, documentation_url=documentation_url)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
