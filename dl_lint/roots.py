"""The root of the project a path belongs to: the nearest folder with a project marker. A module
of its own (it imports nothing of dl-lint), so that any layer can ask."""

from __future__ import annotations

import os
from pathlib import Path

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def find_root(path: Path) -> Path:
    """The nearest folder at or above ``path`` holding a project marker (else ``path``'s folder).

    A package folder (one with ``__init__.py``) is passed over when a folder above it holds a
    marker too: its ``setup.py`` is a module (``dinov2/eval/setup.py`` is ``dinov2.eval.setup``),
    not the project's packaging script, and a run naming a file of that package must see the
    same project as a run of the whole repository."""
    # os.path: False for a folder we may not read (Path.exists raises PermissionError there).
    start = path if os.path.isdir(path) else path.parent
    start = start.absolute()
    first = None
    for folder in (start, *start.parents):
        found = [marker for marker in ROOT_MARKERS if os.path.exists(folder / marker)]
        if found:
            if not set(found) <= _MODULE_NAMES or not os.path.exists(folder / "__init__.py"):
                return folder
            if first is None:
                first = folder
    return first if first is not None else start


# Markers that can also be a package's modules (a ``.git`` or ``pyproject.toml`` always marks a root).
_MODULE_NAMES = frozenset({"setup.py", "setup.cfg"})
