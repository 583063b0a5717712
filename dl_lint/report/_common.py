"""Helpers shared by the output formats: paths, source lines, stable fingerprints.

Pure like the rest of ``dl_lint.report``: nothing here reads a file. Source text arrives as a
``Mapping[str, str]`` (filename -> text) that the caller filled.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ..model import Diagnostic, Severity

__all__ = [
    "severity_of",
    "sorted_diagnostics",
    "relative_path",
    "split_lines",
    "SourceLines",
    "occurrences",
    "fingerprint_parts",
    "digest",
    "cited_path",
    "uri_path",
]

_NEWLINE = re.compile(r"\r\n|\r|\n")


def severity_of(diag: Diagnostic) -> Severity:
    """The diagnostic's severity as the enum (an unknown value counts as an error)."""
    try:
        return Severity(diag.severity)
    except ValueError:
        return Severity.ERROR


def sorted_diagnostics(diagnostics: Sequence[Diagnostic]) -> List[Diagnostic]:
    return sorted(diagnostics, key=lambda d: d.sort_key())


def relative_path(filename: str, root: Optional[str]) -> str:
    """``filename`` relative to ``root``, with forward slashes.

    A relative ``filename`` is taken relative to the working directory (as dl-lint prints it).
    Without a ``root``, or for a file outside it, or a pseudo-name such as ``<stdin>``, the name
    is kept as given (slashes normalised).
    """
    name = filename
    if root is not None and not filename.startswith("<"):
        try:
            rel = os.path.relpath(os.path.abspath(filename), os.path.abspath(root))
        except ValueError:  # another drive on Windows
            rel = None
        if rel is not None and rel != ".." and not rel.startswith(".." + os.sep):
            name = rel
    for sep in (os.sep, os.altsep):
        if sep and sep != "/":
            name = name.replace(sep, "/")
    return name


def cited_path(path: str, like: str) -> str:
    """A related location's ``path`` (absolute) in the form of the diagnostic's own path
    ``like``: relative to the working directory when ``like`` is relative (as dl-lint prints the
    files it lints), absolute when ``like`` is absolute. Pseudo-names such as ``<stdin>`` are
    kept."""
    if path.startswith("<") or os.path.isabs(like) or not os.path.isabs(path):
        return path
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path


def uri_path(path: str) -> str:
    """A relative path as a URI reference (SARIF ``artifactLocation.uri``): forward slashes,
    and every character outside RFC 3986's unreserved set percent-encoded as UTF-8 (a space is
    ``%20``, ``%`` is ``%25``, ``é`` is ``%C3%A9``); a name that is not UTF-8 on disk keeps its
    own bytes (``caf\\xe9.py`` is ``caf%E9.py``)."""
    from urllib.parse import quote

    return quote(os.fsencode(path.replace(os.sep, "/") if os.sep != "/" else path), safe="/")


def split_lines(text: str) -> List[str]:
    """Lines as Python (and libcst) count them: split on ``\\r\\n``, ``\\r`` or ``\\n`` only."""
    return _NEWLINE.split(text)


class SourceLines:
    """Row -> text lookups over ``sources``, splitting each file once."""

    def __init__(self, sources: Optional[Mapping[str, str]]):
        self._sources = sources or {}
        self._split: Dict[str, Optional[List[str]]] = {}

    def lines(self, filename: str) -> Optional[List[str]]:
        if filename not in self._split:
            text = self._sources.get(filename)
            self._split[filename] = split_lines(text) if isinstance(text, str) else None
        return self._split[filename]

    def line(self, filename: str, row: int) -> Optional[str]:
        """Line ``row`` (1-based) of ``filename``, or None when unknown or out of range."""
        lines = self.lines(filename)
        if lines is None or row < 1 or row > len(lines):
            return None
        return lines[row - 1]


def fingerprint_parts(
    diagnostics: Sequence[Diagnostic], sources: Optional[Mapping[str, str]], root: Optional[str]
) -> List[Tuple[str, str, str, int]]:
    """For each diagnostic (in the given order): ``(code, path, anchor, occurrence)``.

    ``path`` is repo-relative (see :func:`relative_path`); ``anchor`` is the stripped text of the
    diagnostic's first line when ``sources`` has it, else the message; ``occurrence`` is 1-based
    and counts earlier diagnostics (in source order) with the same code, path and anchor. None of
    these depends on line numbers, so a fingerprint survives code moving up or down.
    """
    lookup = SourceLines(sources)
    keys: List[Tuple[str, str, str]] = []
    for diag in diagnostics:
        path = relative_path(diag.filename, root)
        text = None if diag.cell is not None else lookup.line(diag.filename, diag.location.row)
        anchor = "line:" + text.strip() if text is not None else "message:" + diag.message
        keys.append((diag.code, path, anchor))
    return [(*key, occ) for key, occ in zip(keys, occurrences(diagnostics, keys))]


def occurrences(diagnostics: Sequence[Diagnostic], keys: Sequence[Tuple[str, ...]]) -> List[int]:
    """1-based occurrence index of each key, counted in source order (not input order)."""
    order = sorted(range(len(diagnostics)), key=lambda i: diagnostics[i].sort_key())
    seen: Dict[Tuple[str, ...], int] = {}
    result = [0] * len(diagnostics)
    for i in order:
        seen[keys[i]] = seen.get(keys[i], 0) + 1
        result[i] = seen[keys[i]]
    return result


def digest(algorithm: str, parts: Sequence[object]) -> str:
    """Hex digest of the parts joined with NUL (so ``("ab", "c")`` and ``("a", "bc")`` differ)."""
    data = "\0".join(str(p) for p in parts).encode("utf-8", "surrogatepass")
    try:
        h = hashlib.new(algorithm, usedforsecurity=False)  # type: ignore[call-arg]  # FIPS builds
    except TypeError:  # pragma: no cover - Python builds without the keyword
        h = hashlib.new(algorithm)
    h.update(data)
    return h.hexdigest()
