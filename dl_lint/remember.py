"""Measured batch bytes, remembered: the project file ``dl-lint measure`` writes and the static
rules read (``analysis.batches``), so that a loader measured once is checked with its real
figure by every later lint.

The file is ``dl-lint-measured.json`` at the project root (meant to be committed)::

    {
      "format": "dl-lint-measured/1",
      "loaders": [
        {
          "path": "src/train.py",          # the loader call's file, relative to the root, with /
          "line": 42,                      # the first line of the call when it was measured
          "scope": "make_loader",          # the enclosing function ("" at module level)
          "fingerprint": "3f9a...",        # sha256 of the call's tokens (see ``fingerprint``)
          "batch_bytes": 77070336,         # tensor bytes of the first batch
          "target": "train:make_loader",   # what was measured, and with what
          "torch": "2.13.0"
        }
      ]
    }

A record applies to the loader call of its file whose fingerprint it carries (the call may have
moved: lines added above it do not matter). The fingerprint covers the call's lines without
whitespace and comments, and the function it sits in: any other change to the call (another
``batch_size``, another dataset) makes the record **stale**, which the rules and ``dl-lint
estimate`` report instead of using it. What the dataset returns can change without the call
changing; a record says what was measured, not what the code may do since.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from dl_lint.record import Record

# hashlib, json and tokenize are imported where they are used: a lint imports this module for
# ``Recorded`` and reads a records file only when the project has one (hashlib alone, with
# OpenSSL, costs about 2 ms to import).

FILENAME = "dl-lint-measured.json"
FORMAT = "dl-lint-measured/1"


def fingerprint(lines: Sequence[str], rows: Tuple[int, int], scope: str) -> str:
    """The sha256 (hex, 16 characters) of a call's rows (1-based, inclusive) without whitespace
    and comments, and of the function it is in."""
    import hashlib
    import io
    import tokenize

    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    text = "\n".join(lines[rows[0] - 1 : rows[1]])
    try:
        tokens = [t.string for t in tokenize.generate_tokens(io.StringIO(text + "\n").readline) if t.type not in skipped]
        body = "\x00".join(tokens)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        body = "".join(text.split())  # a call on part of a line an unbalanced statement holds
    return hashlib.sha256(f"{scope}\n{body}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


class Recorded(Record):
    """A record that matched a loader call: the figure, or ``stale`` (why it no longer applies)."""

    __slots__ = ("batch_bytes", "target", "torch", "stale", "file")

    def __init__(self, batch_bytes: int, target: str, torch: str, stale: Optional[str], file: str) -> None:
        self.batch_bytes = batch_bytes
        self.target = target
        self.torch = torch
        self.stale = stale
        self.file = file

    def describe(self) -> str:
        by = f" of {self.target}" if self.target else ""
        with_torch = f", torch {self.torch}" if self.torch else ""
        return f"`dl-lint measure`{by} ({self.file}{with_torch})"


def parse(data: bytes) -> Optional[List[Dict[str, Any]]]:
    """The well-formed records of a file's bytes; None when the file is not one of ours."""
    import json

    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != FORMAT or not isinstance(document.get("loaders"), list):
        return None
    out = []
    for entry in document["loaders"]:
        if not isinstance(entry, dict):
            continue
        size, path, line, mark = entry.get("batch_bytes"), entry.get("path"), entry.get("line"), entry.get("fingerprint")
        if type(size) is int and size > 0 and isinstance(path, str) and type(line) is int and isinstance(mark, str):
            out.append(entry)
    return out


def match(
    records: Sequence[Dict[str, Any]], relative: str, lines: Sequence[str], rows: Tuple[int, int], scope: str
) -> Optional[Recorded]:
    """The record of the call at ``rows`` of the file ``relative`` (to the root): one with its
    fingerprint; else one made at a line of the call, which is then stale; else None."""
    mine = [r for r in records if r["path"] == relative]
    if not mine:
        return None
    mark = fingerprint(lines, rows, scope)
    for entry in mine:
        if entry["fingerprint"] == mark:
            return Recorded(entry["batch_bytes"], str(entry.get("target", "")), str(entry.get("torch", "")), None, FILENAME)
    for entry in mine:
        if rows[0] <= entry["line"] <= rows[1]:
            stale = (
                f"{FILENAME} has a measured figure for the loader at line {entry['line']}, but the call changed "
                "since it was measured: run `dl-lint measure` again"
            )
            return Recorded(entry["batch_bytes"], str(entry.get("target", "")), str(entry.get("torch", "")), stale, FILENAME)
    return None


def write(root: str, entry: Dict[str, Any]) -> str:
    """Add (or replace: same path and fingerprint, or same path and line) a record in the root's
    file, keeping the others; returns the file's path. Sorted, two-space indented JSON, so the
    committed file diffs well."""
    import json

    from dl_lint.reading import Door, Refused

    path = os.path.join(root, FILENAME)
    records: List[Dict[str, Any]] = []
    if os.path.lexists(path):
        try:
            records = parse(Door(root).read(path)) or []  # the guarded reader: a regular file inside the root
        except Refused as exc:
            raise OSError(f"{path}: {exc}") from None
        if os.path.islink(path):
            raise OSError(f"{path}: a symbolic link; not written")
    records = [
        r
        for r in records
        if not (r["path"] == entry["path"] and (r["fingerprint"] == entry["fingerprint"] or r["line"] == entry["line"]))
    ]
    records.append(entry)
    records.sort(key=lambda r: (r["path"], r["line"]))
    document = {"format": FORMAT, "loaders": records}
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, indent=2, sort_keys=True) + "\n")
    return path
