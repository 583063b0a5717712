"""``dl-lint --watch``: lint, then lint again whenever a file under the paths changes (as
``ruff check --watch`` does), until Ctrl-C.

Changes are found by polling (the standard library only: no file-system notification library to
install for a developer convenience): every ``INTERVAL`` seconds the modification time and size
of each file a lint reads (Python files, notebooks, the TOML/YAML/JSON settings and configs
beside them) under the linted paths is compared with the last snapshot. A snapshot walks the
tree, skipping the folders no lint looks at (``.git``, virtual environments, caches), so its cost
grows linearly with the tree; the results cache keeps each re-lint to the files that changed.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from typing import Callable, Dict, Iterable, Optional, Sequence, Tuple

INTERVAL = 0.5  # seconds between two snapshots
# What a lint reads: sources, notebooks, settings (pyproject.toml) and the configs values come from.
WATCHED_SUFFIXES = (".py", ".pyi", ".ipynb", ".toml", ".yaml", ".yml", ".json", ".cfg")
# Folders no lint reads (the default excludes that matter for speed), and dl-lint's own cache.
SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__", ".mypy_cache",
     ".ruff_cache", ".pytest_cache", ".dl_lint_cache", "site-packages", "build", "dist"}
)  # fmt: skip

Snapshot = Dict[str, Tuple[int, int]]


def snapshot(paths: Iterable[str], extra: Sequence[str] = ()) -> Snapshot:
    """path -> (mtime in ns, size) of every watched file under ``paths`` (and the ``extra``
    files, such as a ``--config`` file elsewhere)."""
    found: Snapshot = {}
    for given in list(paths) or ["."]:
        if os.path.isdir(given):
            for folder, dirs, names in os.walk(given):
                dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS and not d.endswith(".egg-info")]
                for name in names:
                    if name.endswith(WATCHED_SUFFIXES):
                        _stat_into(found, os.path.join(folder, name))
        else:
            _stat_into(found, given)
    for name in extra:
        _stat_into(found, name)
    return found


def _stat_into(found: Snapshot, path: str) -> None:
    try:
        info = os.stat(path)
    except OSError:
        return  # gone between the listing and the stat: the next snapshot says so
    found[path] = (info.st_mtime_ns, info.st_size)


def _forget_file_system() -> None:
    """What a run remembers about files for the rest of the process (configs read, folders
    that are packages): forgotten before each lint, which must see the files as they are now."""
    from dl_lint.analysis.configs import detectron2
    from dl_lint.analysis.project import forget_folders
    from dl_lint.config import clear_caches

    clear_caches()
    forget_folders()
    detectron2.forget_folders()


def _stamp() -> str:
    return datetime.now().strftime("[%H:%M:%S]")


def watch(
    paths: Sequence[str],
    lint: Callable[[], int],
    say: Callable[[str], None],
    *,
    clear: bool = False,
    config_file: Optional[str] = None,
    interval: float = INTERVAL,
) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    """Run ``lint`` now and after every change under ``paths``; Ctrl-C (or SIGTERM) ends the
    watch with 0. ``say`` prints a line on stderr; ``clear``: clear the terminal before each lint
    (only on a terminal)."""
    extra = [config_file] if config_file else []
    first = first_run = True
    try:
        while True:
            if clear:
                sys.stdout.write("\x1b[H\x1b[2J\x1b[3J")
            what = "Starting linter in watch mode..." if first else "File change detected..."
            say(f"{_stamp()} {what}")
            first = False
            before = snapshot(paths, extra)
            _forget_file_system()
            try:
                lint()
            except SystemExit:
                if first_run:
                    raise  # a path that does not exist, a broken config from the start: nothing to watch
                # a later run that failed (a config being edited) has said why: wait for the fix
            first_run = False
            say(f"{_stamp()} Watching for file changes.")
            while True:
                time.sleep(interval)
                now = snapshot(paths, extra)
                if now != before:
                    break
    except KeyboardInterrupt:
        sys.exit(0)
