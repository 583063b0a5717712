"""dl-lint as a flake8 plugin: ``flake8 --select DL`` reports dl-lint's diagnostics.

Registered under the ``flake8.extension`` entry point group as ``DL``. flake8 hands a plugin the
arguments its constructor names; this one takes ``tree`` (unused: dl-lint's analysis needs
its own index of the module, built from ``lines`` re-joined), ``lines`` and ``filename``.

Settings come from the nearest ``[tool.dl-lint]`` configuration above the file, as for
``dl-lint check``. In a project (a folder with pyproject.toml, setup.cfg, setup.py or .git) the
plugin reports for its file what ``dl-lint FILE`` reports there: the project is analysed once per
flake8 process, through the results cache the CLI keeps, so a call site in this file of a
factory defined in another is judged (issue 26). Outside a project, the file alone. Columns are yielded 0-based,
as flake8 expects (it prints them 1-based, so ``flake8`` and ``dl-lint`` print the same column).
flake8 applies ``# noqa`` itself; dl-lint's own suppressions (a ``# noqa`` on any line of a
multi-line call, ``# dl-lint: noqa``) apply as well.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Dict, Iterator, Optional, Sequence, Tuple, Type

from dl_lint import __version__, printable

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
        from dl_lint.engine import is_project_root, lint_source
        from dl_lint.rules import known_codes

        source = "".join(self.lines)
        on_disk = self.filename not in ("stdin", "-", "") and os.path.isfile(self.filename)
        path = Path(self.filename).absolute() if on_disk else Path.cwd() / "stdin.py"
        try:
            settings = settings_for_dir(path.parent, known_codes(), _SETTINGS_CACHE)
        except ConfigError as exc:
            yield 1, 0, f"DL000 invalid dl-lint configuration: {printable.text(exc)}", type(self)
            return
        root = find_root(path) if on_disk else None
        if root is not None and is_project_root(root):
            # The CLI's answer for this file: the project analysed as `dl-lint FILE` reads it.
            try:
                diagnostics = _project_answer(os.fspath(root), os.fspath(path), source)
            except ConfigError as exc:
                yield 1, 0, f"DL000 invalid dl-lint configuration: {printable.text(exc)}", type(self)
                return
        else:
            data = source.encode("utf-8", "surrogatepass")
            if not mentions_loader(data, settings.extra_loaders):
                return  # what `dl-lint check` skips without parsing: nothing to report
            diagnostics = lint_source(source, str(path) if on_disk else self.filename, settings, project_root=root)
        for diag in diagnostics:
            yield (
                diag.location.row,
                max(diag.location.column - 1, 0),
                f"{diag.code} {printable.text(diag.message)}",  # one line: flake8 prints it as is
                type(self),
            )


# root -> (abspath -> diagnostics located there, the files that run showed): one run of the whole
# project per flake8 process (flake8 calls the plugin once per file, in a few processes), with
# the results cache that `dl-lint` keeps, so later runs and the CLI share the analysis.
_PROJECT_RUNS: Dict[str, Tuple[Dict[str, list], frozenset]] = {}


def _project_answer(root: str, path: str, source: str) -> list:
    """What ``dl-lint PATH`` reports in ``path``. When flake8's text is the file's, from one run
    of the whole project per process (excludes do not hide a file flake8 names, as they do not
    hide a file named on dl-lint's command line); when it differs (flake8 read another text),
    from a run naming the file with that text in place of it."""
    from dl_lint.engine import lint_paths
    from dl_lint.reading import Refused, read_regular

    try:
        same = read_regular(path, None) == source.encode("utf-8", "surrogatepass")
    except Refused:
        same = False
    if same:
        found = _PROJECT_RUNS.get(root)
        if found is None:
            result = lint_paths([root], cache=True, jobs=1, overrides={"exclude": (), "extend_exclude": ()})
            by_file: Dict[str, list] = {}
            for diag in result.diagnostics:
                by_file.setdefault(os.path.abspath(diag.filename), []).append(diag)
            found = _PROJECT_RUNS[root] = (by_file, frozenset(result.shown))
        if path in found[1]:
            return found[0].get(path, [])
    result = lint_paths([path], cache=True, jobs=1, overlays={path: source})
    return [d for d in result.diagnostics if os.path.abspath(d.filename) == path]
