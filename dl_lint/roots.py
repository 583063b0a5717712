"""The root of the project a path belongs to: the nearest folder with a project marker. A module
of its own (it imports nothing of dl-lint), so that any layer can ask."""

from __future__ import annotations

import os
from pathlib import Path

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def find_root(path: Path) -> Path:
    """The nearest folder at or above ``path`` holding a project marker (else ``path``'s folder)."""
    # os.path: False for a folder we may not read (Path.exists raises PermissionError there).
    start = path if os.path.isdir(path) else path.parent
    start = start.absolute()
    for folder in (start, *start.parents):
        if any(os.path.exists(folder / marker) for marker in ROOT_MARKERS):
            return folder
    return start
