"""The I/O that some output formats need, kept out of the pure ``dl_lint.report`` renderers.

The CLI calls these and passes the results to :func:`dl_lint.report.render` as ``sources`` and
``root``.
"""

from __future__ import annotations

import io
import os
import tokenize
from typing import Dict, Iterable, Optional

__all__ = ["repo_root", "read_sources"]


def repo_root(start: Optional[str] = None) -> str:
    """The top of the git work tree containing ``start`` (default: the working directory), found
    by looking for ``.git`` (a folder, or a file in worktrees and submodules); else ``start``."""
    here = os.path.abspath(start if start is not None else os.getcwd())
    current = here
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return here
        current = parent


def _decode(data: bytes) -> str:
    """As Python reads source: BOM, then a PEP 263 coding cookie, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def read_sources(filenames: Iterable[str]) -> Dict[str, str]:
    """filename -> text for each file that can be read and decoded; the others are left out
    (a renderer then shows that file's diagnostics without a snippet). Pseudo-names such as
    ``<stdin>`` are skipped."""
    sources: Dict[str, str] = {}
    for name in dict.fromkeys(filenames):
        if name.startswith("<"):
            continue
        try:
            with open(name, "rb") as handle:
                sources[name] = _decode(handle.read())
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ValueError):
            continue
    return sources
