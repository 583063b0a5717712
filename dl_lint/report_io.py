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
    from dl_lint.reading import Refused, inside_its_project, read_regular

    sources: Dict[str, str] = {}
    for name in dict.fromkeys(filenames):
        if name.startswith("<"):
            continue
        # Through the guarded door: a DL000 about a named pipe, a device link or a link leading
        # out of the project must not make the report open it (or print what it holds).
        if not inside_its_project(name):
            continue
        try:
            sources[name] = _decode(read_regular(name, SNIPPET_SOURCE_LIMIT))
        except (Refused, SyntaxError, UnicodeDecodeError, LookupError, ValueError):
            continue
    return sources


SNIPPET_SOURCE_LIMIT = 64 * 1024 * 1024  # a file shown in a snippet was analysed (max-file-size) or is a config
