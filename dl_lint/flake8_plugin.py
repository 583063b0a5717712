"""dl-lint as a flake8 plugin: ``flake8 --select DL`` reports dl-lint's diagnostics.

Registered under the ``flake8.extension`` entry point group as ``DL``. flake8 hands a plugin the
arguments its constructor names; this one takes ``tree`` (unused: dl-lint's analysis needs
its own index of the module, built from ``lines`` re-joined), ``lines`` and ``filename``.

Settings come from the nearest ``[tool.dl-lint]`` configuration above the file, as for
``dl-lint check``; imports are resolved against the file's project. Columns are yielded 0-based,
as flake8 expects (it prints them 1-based, so ``flake8`` and ``dl-lint`` print the same column).
flake8 applies ``# noqa`` itself; dl-lint's own suppressions (a ``# noqa`` on any line of a
multi-line call, ``# dl-lint: noqa``) apply as well.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Dict, Iterator, Optional, Sequence, Tuple, Type

from dl_lint import __version__

__all__ = ["Plugin"]

_SETTINGS_CACHE: Dict = {}


class Plugin:
    name = "dl-lint"
    version = __version__

    def __init__(self, tree: Optional[ast.AST], lines: Sequence[str], filename: str) -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[Tuple[int, int, str, Type["Plugin"]]]:
        from dl_lint.analysis.prefilter import mentions_loader
        from dl_lint.analysis.project import find_root
        from dl_lint.config import ConfigError, settings_for_dir
        from dl_lint.engine import lint_source
        from dl_lint.rules import known_codes

        source = "".join(self.lines)
        on_disk = self.filename not in ("stdin", "-", "") and os.path.exists(self.filename)
        path = Path(self.filename).absolute() if on_disk else Path.cwd() / "stdin.py"
        try:
            settings = settings_for_dir(path.parent, known_codes(), _SETTINGS_CACHE)
        except ConfigError as exc:
            yield 1, 0, f"DL000 invalid dl-lint configuration: {exc}", type(self)
            return
        data = source.encode("utf-8", "surrogatepass")
        extra = settings.extra_loaders
        if not mentions_loader(data, extra):
            return  # what `dl-lint check` skips without parsing: nothing to report
        root = find_root(path) if on_disk else None
        diagnostics = lint_source(
            source, str(path) if on_disk else self.filename, settings, project_root=root
        )
        for diag in diagnostics:
            yield (
                diag.location.row,
                max(diag.location.column - 1, 0),
                f"{diag.code} {diag.message}",
                type(self),
            )
