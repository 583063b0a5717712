"""mmengine / OpenMMLab Python config files (MMDetection style): ``train_dataloader = dict(...)``
(also ``val_dataloader``, ``test_dataloader``) in a config module read by ``Config.fromfile`` and
built by ``Runner.build_dataloader``. Facts only: the loader keys that reach torch unchanged, with
the file and line that set each; rules judge (only DL001 and DL002, see ``JUDGED_BY``).

Checked in mmengine's source, version 0.11.0rc0 (commit 2543429, 2025-10-27):

- runner/runner.py ``Runner.build_dataloader``: pops ``dataset`` and ``sampler`` (required),
  ``num_batch_per_epoch``, ``batch_sampler`` (and ``batch_size`` when a batch_sampler dict is
  given), ``worker_init_fn``, ``disable_subprocess_warning`` (with a seed), ``collate_fn``
  (default ``pseudo_collate``), and ``persistent_workers`` only on torch < 1.7; every other key
  goes to ``torch.utils.data.DataLoader(..., **dataloader_cfg)`` unchanged. So ``num_workers``
  (torch's default 0 when absent), ``persistent_workers`` and ``prefetch_factor`` are judged as
  torch judges them.
- config/config.py ``Config._file2dict``: the ``_base_`` files (a str or a list, relative to the
  file; ``pkg::path`` names another package) are read first and may not share keys; the file's
  own keys are merged on top by ``_merge_a_into_b``: dicts merge key by key, a dict with
  ``_delete_=True`` replaces the base's.

What is not modelled is unknown (silent): a base that cannot be read (another package, a
non-Python file, a non-literal ``_base_``), values that are not literals, a loader dict the file
changes after assigning it, lazy-import configs (``with read_base():``). A key the command line
can override (``--cfg-options train_dataloader.num_workers=4``) is a configurable default, as an
argparse default is: DL001/DL002 fire on a crashing default.

Evidence that a file is an mmengine config: a module-level ``_base_`` assignment, an import of
mmengine in the file, or a script of the project that loads it with ``Config.fromfile`` (a literal
naming the file, or a path the command line picks: the ``.py`` files of the config folders beside
the script and at the root; ``keypaths.fromfile_configs``, read from bytes, built only when a
module-level ``train_dataloader = dict(...)`` has no other evidence). Files in a ``_base_`` directory are fragments: a config that writes its own
loader dict is judged itself (a fragment's value cited); a loader dict a runnable config inherits
unchanged (it writes no ``train_dataloader``) is judged in the fragment, at its key, once, with one
such config as related location, and only then (a fragment no runnable config uses is silent). Only bytes decide whether a file is looked at (``candidate``): repositories without
these words parse nothing more.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Dict, List, Optional, Tuple

from dl_lint.analysis.syntax import literal
from dl_lint.analysis.values import Origin, Value
from dl_lint.model import Location

LOADER_KEYS = ("train_dataloader", "val_dataloader", "test_dataloader")
# Keys read from the config dict: torch receives them unchanged (see above).
MODELLED = ("num_workers", "persistent_workers", "prefetch_factor")
# The rules that judge a config loader: the others read arguments mmengine fills itself.
JUDGED_BY = frozenset({"DL001", "DL002"})
QUALNAME = "mmengine.runner.Runner.build_dataloader"

_UNKNOWN = object()  # a key whose value cannot be read


# A module-level ``_base_ =`` or an mmengine import, at the start of a line (``is_config`` decides).
_EVIDENCE = re.compile(rb"^_base_\s*=|^[ \t]*(?:from|import)[ \t]+mmengine\b", re.M)


def candidate(data: bytes) -> bool:
    """From bytes: whether a file may hold an mmengine loader config."""
    return b"_dataloader" in data and _may_be_evidence(data) and _EVIDENCE.search(data) is not None


def _may_be_evidence(data: bytes) -> bool:
    """Whether ``_EVIDENCE`` can match: each of its alternatives holds one of these words. A
    pattern anchored at line starts is tried at every byte; the words are found by a fast scan
    (most files that say ``_dataloader``, Lightning's ``def train_dataloader``, hold neither)."""
    return b"_base_" in data or b"mmengine" in data


def _has_line_start(data: bytes, words: Tuple[bytes, ...]) -> bool:
    """Whether a line of ``data`` starts with one of ``words`` (where a ``^`` of ``re.M``
    matches: the start, or after a newline), found by a fast scan before the anchored pattern
    that needs it is tried at every byte."""
    return data.startswith(words) or any(b"\n" + word in data for word in words)


class _Entry:
    """One key of a loader dict: its value (or ``_UNKNOWN``), file and line."""

    __slots__ = ("value", "path", "line", "column", "end")

    def __init__(self, value, path: str, line: int, column: int, end: Tuple[int, int]) -> None:
        self.value = value
        self.path = path
        self.line = line
        self.column = column
        self.end = end


class _Config:
    """What one file defines: its loader dicts (key -> entries, None when unreadable), whether
    every base could be read (``complete``) and where its assignments are."""

    def __init__(self) -> None:
        self.loaders: Dict[str, Optional[Dict[str, _Entry]]] = {}
        self.deleting: Dict[str, bool] = {}
        self.rows: Dict[str, Tuple[int, int, Tuple[int, int]]] = {}
        self.complete = True
        self.has_base = False
        self.partial: set = set()  # loaders merged onto a base value that cannot be read
        self.files: Tuple[str, ...] = ()  # the _base_ files read (or looked for), transitively


def _literal(node: ast.AST):
    value = literal(node)  # a number (``-1`` too), bool or None; not a string
    return value if isinstance(value, (bool, int, float, type(None))) else _UNKNOWN


def _items(node: ast.AST) -> Optional[List[Tuple[str, ast.AST, ast.AST]]]:
    """(key, value node, node to report) of a ``dict(k=v)`` call or ``{'k': v}`` display."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        out = []
        for kw in node.keywords:
            if kw.arg is None:
                return None  # dict(**other)
            out.append((kw.arg, kw.value, kw))
        return out
    if isinstance(node, ast.Dict):
        out = []
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            out.append((key.value, value, key))
        return out
    return None


def _changed_later(tree: ast.Module, name: str) -> bool:
    """The name is assigned more than once, or edited (``x.update``, ``x['k'] = v``, ``x.k = v``)."""
    assigned = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name) and sub.id == name:
                        assigned += 1
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            if not isinstance(node.ctx, ast.Load):
                return True
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
    return assigned != 1


def read_tree(tree: ast.Module, path: str, depth: int = 0, project: Any = None) -> _Config:
    """The config of a parsed file, merged with its ``_base_`` files as mmengine merges them;
    bases are read through ``project``'s door (none without a project: then it is incomplete)."""
    config = _Config()
    bases: List[str] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.With) and any(
            isinstance(item.context_expr, ast.Call) and getattr(item.context_expr.func, "id", "") == "read_base"
            for item in stmt.items
        ):
            config.has_base = True
            config.complete = False  # lazy-import bases: not modelled
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if name == "_base_":
            config.has_base = True
            value = stmt.value
            names = [value] if isinstance(value, ast.Constant) else list(getattr(value, "elts", [None]))
            for item in names:
                if isinstance(item, ast.Constant) and isinstance(item.value, str) and "::" not in item.value:
                    bases.append(item.value)
                else:
                    config.complete = False
        elif name in LOADER_KEYS:
            config.rows[name] = (stmt.lineno, stmt.col_offset + 1, (stmt.end_lineno or stmt.lineno, (stmt.end_col_offset or 0) + 1))
            items = _items(stmt.value)
            if items is None or _changed_later(tree, name):
                config.loaders[name] = None
                continue
            entries: Dict[str, _Entry] = {}
            for key, value, at in items:
                if key == "_delete_":
                    config.deleting[name] = _literal(value) is True
                    continue
                entries[key] = _Entry(
                    _literal(value),
                    path,
                    at.lineno,
                    at.col_offset + 1,
                    (at.end_lineno or at.lineno, (at.end_col_offset or 0) + 1) if not isinstance(at, ast.Constant) else (value.end_lineno or value.lineno, (value.end_col_offset or 0) + 1),
                )
            config.loaders[name] = entries
    merged: Dict[str, Optional[Dict[str, _Entry]]] = {}
    for base in bases:
        target = os.path.normpath(os.path.join(os.path.dirname(path), base))
        config.files += (target,)
        other = _read_file(target, depth + 1, project) if target.endswith(".py") and depth < 8 else None
        if other is None:
            config.complete = False
            continue
        if not other.complete:
            config.complete = False
        config.files += other.files
        merged.update(other.loaders)
        config.partial |= other.partial
    merged_names = set(merged)
    for name, entries in config.loaders.items():
        base = merged.get(name)
        if entries is None or config.deleting.get(name):
            merged[name] = entries
            config.partial.discard(name)
        elif base is None:
            merged[name] = entries
            if name in merged_names:  # merged onto a base value that cannot be read
                config.partial.add(name)
        else:
            merged[name] = {**base, **entries}
    config.loaders = merged
    return config


def _read_file(path: str, depth: int, project: Any) -> Optional[_Config]:
    """A base (or another config) read through the project's door (inside the root, a regular
    file, bounded), parsed once per run and depth; None when it cannot be read or parsed."""
    read = getattr(project, "read_config", None)
    if read is None:
        return None
    memo = project.config_memo
    key = ("mmengine", path, depth)
    if key not in memo:
        data = read(path)
        config = None
        if data is not None:
            try:
                config = read_tree(ast.parse(data, path), path, depth, project)
            except (SyntaxError, ValueError, RecursionError):
                config = None
        memo[key] = config
    return memo[key]


def relocate(finding, call):
    """A finding about a key set in a ``_base_`` file is reported at the key of this file that
    takes part (num_workers first), with the base's line as related location; at the loader
    dict when this file sets none of them."""
    from dl_lint.model import Related

    # The values' origins (``Rule.finding(cite=...)``): those set in this file sit beside the
    # reported key, so only a base's are cited.
    own = os.path.abspath(call.path)
    finding = finding.replace(related=tuple(r for r in finding.related if os.path.abspath(r.path) != own))
    cited = {(r.path, r.row) for r in finding.related}
    user = call.extra.get("user")
    if user:
        note = f"this config inherits {call.extra['mmengine']} unchanged"
        finding = finding.replace(related=finding.related + (Related(user, 1, 1, note),))
    inherited = call.extra.get("inherited") or {}
    if not inherited:
        return finding
    related = tuple(
        Related(path, line, column, f"{call.extra['mmengine']}.{key} is set here")
        for key, (path, line, column) in inherited.items()
        if (path, line) not in cited
    )
    own = [key for key in MODELLED if key in call.args and key not in inherited]
    if finding.location != call.location or not own:
        return finding.replace(related=finding.related + related)
    arg = call.args[own[0]]
    return finding.replace(location=arg.location, end_location=arg.end_location, related=finding.related + related)


_LOADER_LINE = re.compile(rb"^(?:train|val|test)_dataloader\s*=", re.M)
_LOADER_WORDS = (b"train_dataloader", b"val_dataloader", b"test_dataloader")  # how those lines start


def is_fragment(path: str) -> bool:
    """A file in a ``_base_`` folder: a fragment runnable configs inherit."""
    return "_base_" in os.path.normpath(path).split(os.sep)[:-1]


_PLAIN_DICT = re.compile(rb"^(?:train|val|test)_dataloader\s*=\s*(?:dict\(|\{)", re.M)


def plain_candidate(data: bytes) -> bool:
    """From bytes: a loader dict at line start (``train_dataloader = dict(``) with no other
    evidence of mmengine: a config only if a script loads it with ``Config.fromfile``
    (``is_config``)."""
    return b"_dataloader" in data and _has_line_start(data, _LOADER_WORDS) and _PLAIN_DICT.search(data) is not None


def fragment_candidate(path: str, data: bytes) -> bool:
    """From the path and bytes: a fragment that writes a loader dict at line start."""
    return is_fragment(path) and _has_line_start(data, _LOADER_WORDS) and _LOADER_LINE.search(data) is not None


def _may_crash(config: _Config, name: str) -> bool:
    """Whether a merged loader dict can be one DL001/DL002 judge a crash (no workers, with
    persistent workers or a prefetch factor): only then are its users looked for."""
    entries = config.loaders.get(name)
    if entries is None:
        return False
    workers = entries.get("num_workers")
    if workers is None:
        if not config.complete or name in config.partial:
            return False
    elif workers.value is _UNKNOWN or workers.value != 0:
        return False
    persistent = entries.get("persistent_workers")
    prefetch = entries.get("prefetch_factor")
    return (persistent is not None and persistent.value is not _UNKNOWN and bool(persistent.value)) or (
        prefetch is not None and prefetch.value is not _UNKNOWN and prefetch.value is not None
    )


def _same(one: Dict[str, _Entry], other: Dict[str, _Entry]) -> bool:
    keys = [k for k in MODELLED if k in one]
    if keys != [k for k in MODELLED if k in other]:
        return False
    return all((one[k].path, one[k].line) == (other[k].path, other[k].line) for k in keys)


def fragment_users(path: str, config: _Config, project) -> Dict[str, str]:
    """Loader name -> a runnable config (outside every ``_base_`` folder, under the folder that
    holds this fragment's ``_base_``) whose ``_base_`` list names this fragment and whose merged
    loader dict is the fragment's, unchanged (mmengine 0.11.0rc0 ``Config._file2dict``: a child
    that writes no ``train_dataloader`` gets its base's). Asked only for dicts that may crash."""
    names = [name for name in config.rows if _may_crash(config, name)]
    if not names or project is None:
        return {}
    parts = os.path.normpath(path).split(os.sep)
    top = os.sep.join(parts[: len(parts) - 1 - parts[::-1].index("_base_")])
    needle = os.path.basename(path).encode()
    users: Dict[str, str] = {}
    for candidate_path in sorted(os.fspath(p) for p in project.files()):
        other_path = os.path.abspath(candidate_path)
        if not other_path.startswith(top + os.sep) or is_fragment(other_path):
            continue
        data = project.source_bytes(other_path)
        if needle not in data or not _may_be_evidence(data) or _EVIDENCE.search(data) is None:
            continue
        other = _read_file(other_path, 0, project)
        if other is None or not other.complete or path not in other.files:
            continue
        for name in names:
            entries = other.loaders.get(name)
            if name in users or entries is None or name in other.partial or name in other.rows:
                continue
            if _same(entries, config.loaders[name]):
                users[name] = other_path
                project.read_config_file(other_path)
        if len(users) == len(names):
            break
    return users


def is_config(tree: ast.Module, path: str, project=None) -> bool:
    """Evidence: a module-level ``_base_`` (or ``read_base``), an import of mmengine, or a script
    of the project that loads the file with ``Config.fromfile`` (a literal naming it, or a path
    the command line picks among the config folders: ``keypaths.fromfile_configs``); not a
    fragment in a ``_base_`` directory."""
    if "_base_" in os.path.normpath(path).split(os.sep)[:-1]:
        return False
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_base_" for t in stmt.targets):
            return True
        if isinstance(stmt, ast.ImportFrom) and (stmt.module or "").split(".")[0] == "mmengine":
            return True
        if isinstance(stmt, ast.Import) and any(alias.name.split(".")[0] == "mmengine" for alias in stmt.names):
            return True
    loaded = getattr(project, "fromfile_configs", None)
    if loaded is None or not any(_loader_dict(stmt) for stmt in tree.body):
        return False  # ``train_dataloader = DataLoader(...)`` is a script, not a config
    return os.path.abspath(path) in loaded()


def _loader_dict(stmt: ast.stmt) -> bool:
    """``train_dataloader = dict(...)`` or ``= {...}`` at module level."""
    if not (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id in LOADER_KEYS for t in stmt.targets)):
        return False
    value = stmt.value
    return isinstance(value, ast.Dict) or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict")


def loader_calls(tree: ast.Module, path: str, project=None) -> list:
    """The loader dicts of an mmengine config file, as LoaderCalls of torch's DataLoader."""
    from dl_lint.analysis.loaders import PARAMETERS, BoundArg, LoaderCall

    if not any(
        isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id in LOADER_KEYS for t in stmt.targets)
        for stmt in tree.body
    ):
        return []
    users: Dict[str, str] = {}
    if is_fragment(os.path.abspath(path)):
        # A fragment is judged here only for the dicts a runnable config inherits unchanged (a
        # config that writes the dict is judged itself, citing this file): once, not per config.
        config = read_tree(tree, os.path.abspath(path), 0, project)
        users = fragment_users(os.path.abspath(path), config, project)
        if not users:
            return []
    elif not is_config(tree, path, project):
        return []
    else:
        config = read_tree(tree, os.path.abspath(path), 0, project)
    if project is not None:
        for base in config.files:
            project.read_config_file(base)  # the results cache rests on the bases' bytes
    calls = []
    own = os.path.abspath(path)
    for name, (row, column, end) in sorted(config.rows.items(), key=lambda item: item[1]):
        entries = config.loaders.get(name)
        if entries is None or (users and name not in users):
            continue
        location, end_location = Location(row, column), Location(*end)
        args = {}
        inherited: Dict[str, Tuple[str, int, int]] = {}
        for key in MODELLED:
            entry = entries.get(key)
            if entry is None:
                continue
            what = f"{name}.{key}"
            if entry.path == own:
                where, where_end = Location(entry.line, entry.column), Location(*entry.end)
                origin = Origin(what, entry.path, entry.line)
            else:
                where, where_end = location, end_location  # set in a base: reported at the loader dict
                origin = Origin(what, entry.path, entry.line)
                inherited[key] = (entry.path, entry.line, entry.column)
            value = Value.unknown("config") if entry.value is _UNKNOWN else Value.known(entry.value, origin)
            args[key] = BoundArg(key, value.with_aliases(key), "", where, where_end, True, "")
        # A key no file sets is torch's default only when every base was read.
        complete = config.complete and name not in config.partial
        opaque = frozenset(p for p in PARAMETERS if p not in args and (p not in MODELLED or not complete))
        calls.append(
            LoaderCall(
                path, QUALNAME, location, end_location, args, opaque=opaque,
                extra={"mmengine": name, "inherited": inherited, "user": users.get(name)},
            )
        )
    return calls
