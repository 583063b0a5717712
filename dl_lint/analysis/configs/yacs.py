"""yacs configs (``from yacs.config import CfgNode as CN``), as research repositories and
detectron2 keep them: a defaults module (``_C = CN(); _C.DATALOADER = CN();
_C.DATALOADER.NUM_WORKERS = 8``), YAML files merged over it (``cfg.merge_from_file(path)``), the
command line over both (``cfg.merge_from_list(args.opts)``), read by a loader of the same project
(``DataLoader(num_workers=cfg.DATALOADER.NUM_WORKERS)``). Facts only: the values a key can hold
in each run and the line that sets each; rules judge.

Checked in yacs 0.1.8 (``yacs/config.py``, the release on PyPI; ``tests/test_yacs_configs.py``
runs it on the fixtures):

- ``merge_from_file`` loads the YAML with ``yaml.safe_load`` and merges it key by key over the
  defaults (``_merge_a_into_b``): a key the defaults do not define raises ``KeyError`` (unless
  ``new_allowed``); a value of another type than the default raises ``ValueError``
  (``_check_and_coerce_cfg_value_type``: equal types, ``None`` on either side, list <-> tuple
  pass); a string is ``literal_eval``-ed first (``_decode_cfg_value``).
- ``merge_from_list`` does the same for ``KEY value`` pairs of the command line: every key is
  configurable, so every value found here is the default of a configurable setting.

And in fvcore (commit 0187d6f, ``fvcore/common/config.py``, whose ``CfgNode`` detectron2's
extends: detectron2 02b5c4e ``detectron2/config/config.py:12``): ``load_yaml_with_base`` reads
``_BASE_`` (one path, relative to the file, ``~`` expanded) first and merges the file over it,
dict by dict.

detectron2 02b5c4e's own loaders read one key of the config: ``DATALOADER.NUM_WORKERS``
(``detectron2/data/build.py:516`` train, ``:611`` test); ``build_batch_data_loader`` passes
``prefetch_factor=prefetch_factor if num_workers > 0 else None`` (``:366``, ``:384``) and
``persistent_workers=False``, ``pin_memory=False`` by default (``:304-306``); the test loader
passes only ``num_workers`` (``:675-682``); ``detectron2/config/defaults.py:115`` sets 4. So
the only crash a detectron2 config can cause there is a negative ``NUM_WORKERS``; its builders
are not modelled (see docs/configuration.md).

Runs: the defaults alone, and each YAML file of the repository that is a config of this tree
(a mapping of upper-case keys, each a key of the defaults, or ``_BASE_``) once the project calls
``merge_from_file``. A value is reported in the run that gives it, at the line that sets it.

What is not followed makes a key unknown (silence): a key assigned more than once, outside
module level, or from a non-literal; a key Python sets anywhere else in the project
(``cfg.DATALOADER.NUM_WORKERS = 0``, ``"DATALOADER.NUM_WORKERS"`` in a ``merge_from_list``
literal); a key defined by two defaults trees; a YAML value of another type than the default
or a string (that run fails in yacs, or is literal_eval-ed); a ``_BASE_`` that cannot be read.

Only bytes decide what is looked at: the defaults modules are found among the project's files
by ``CfgNode`` and a line-start ``X = CN()``; no YAML is read unless a defaults tree holds the key
a loader reads and some file calls ``merge_from_file``.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from dl_lint.analysis.syntax import literal
from dl_lint.analysis.configs.runs import RunOrigin, runs_value, variants  # noqa: F401 - re-exported
from dl_lint.analysis.values import Value

_KEY = re.compile(r"^[A-Z][A-Z0-9_]*$")
_ROOT = re.compile(rb"^[ \t]*\w+\s*=\s*(?:\w+\.)?(?:CN|CfgNode)\(\s*\)", re.M)
_UNKNOWN = object()
_NODE = object()  # a CN() sub-node
DEFAULTS_RUN = ""  # the run without a YAML file
MAX_YAML = 2000
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "env", "build", "dist"})


# The runs mechanism (one copy of a call per config file that runs it) is shared by every config
# source: ``configs.runs``. A yacs value's origin is a ``RunOrigin``.
YacsOrigin = RunOrigin


def candidate(data: bytes) -> bool:
    """From bytes: whether a Python file may define a yacs defaults tree."""
    return b"CfgNode" in data and _ROOT.search(data) is not None


def key_path(node: ast.AST) -> Optional[Tuple[str, ...]]:
    """``cfg.DATALOADER.NUM_WORKERS`` -> ("DATALOADER", "NUM_WORKERS"): the trailing upper-case
    attributes of a chain, at least two of them, on some base."""
    keys: List[str] = []
    while isinstance(node, ast.Attribute) and _KEY.match(node.attr):
        keys.append(node.attr)
        node = node.value
    if len(keys) < 2:
        return None
    return tuple(reversed(keys))


def _literal(node: ast.AST) -> Any:
    value = literal(node)  # a number (``-1`` too), string, bool or None
    return value if isinstance(value, (bool, int, float, str, type(None))) else _UNKNOWN


def _chain(node: ast.AST) -> Tuple[Optional[str], Tuple[str, ...]]:
    keys: List[str] = []
    while isinstance(node, ast.Attribute):
        keys.append(node.attr)
        node = node.value
    return (node.id if isinstance(node, ast.Name) else None), tuple(reversed(keys))


def read_defaults(tree: ast.Module, path: str) -> Dict[Tuple[str, ...], Tuple[Any, int, int]]:
    """The keys a defaults module sets on its module-level ``X = CN()`` roots: key path ->
    (value, line, column); ``_NODE`` for a sub-node, ``_UNKNOWN`` when not a literal set once
    at module level."""
    names = set()
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.ImportFrom):
            names.update(a.asname or a.name for a in stmt.names if a.name == "CfgNode")
    if not names:
        return {}
    return _read_roots(tree, names)


def base_kind(tree: ast.Module) -> Optional[bool]:
    """Whether the ``CfgNode`` a defaults module imports reads ``_BASE_``: True for fvcore's
    and detectron2's, False for yacs' own (a ``_BASE_`` key is a ``KeyError`` there), None when
    not known (a project's own subclass)."""
    kinds = set()
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.ImportFrom) and any(a.name == "CfgNode" for a in stmt.names):
            module = stmt.module or ""
            if stmt.level:
                kinds.add(None)
            elif module == "yacs.config":
                kinds.add(False)
            elif module in _WITH_BASE:
                kinds.add(True)
            else:
                kinds.add(None)
    return kinds.pop() if len(kinds) == 1 else None


# CfgNode classes whose merge_from_file follows ``_BASE_``: fvcore's (0187d6f fvcore/common/config.py:35-90).
# detectron2's subclass (02b5c4e detectron2/config/config.py:12) also asserts the tree's VERSION
# equals detectron2's own (config.py:49-54) before merging: a project tree built on it is unknown.
_WITH_BASE = frozenset({"fvcore.common.config"})


def _read_roots(tree: ast.Module, names: set) -> Dict[Tuple[str, ...], Tuple[Any, int, int]]:

    def is_node(value: ast.AST) -> bool:
        return (
            isinstance(value, ast.Call)
            and not value.args
            and not value.keywords
            and isinstance(value.func, ast.Name)
            and value.func.id in names
        )

    roots = {
        stmt.targets[0].id
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and is_node(stmt.value)
    }
    if not roots:
        return {}
    top = set(tree.body)
    out: Dict[Tuple[str, ...], Tuple[Any, int, int]] = {}
    for stmt in ast.walk(tree):
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            root, keys = _chain(target)
            if root not in roots or not keys:
                continue
            value = stmt.value
            if keys in out or stmt not in top or not isinstance(stmt, ast.Assign) or value is None:
                found: Any = _UNKNOWN
            else:
                found = _NODE if is_node(value) else _literal(value)
            out[keys] = (found, target.lineno, target.col_offset + 1)
    return out


class _Defaults:
    """Every defaults tree of the project, merged: key path -> (value, path, line)."""

    def __init__(self) -> None:
        self.keys: Dict[Tuple[str, ...], Tuple[Any, str, int]] = {}
        self.files: List[str] = []

    def add(self, path: str, found: Dict[Tuple[str, ...], Tuple[Any, int, int]]) -> None:
        self.files.append(path)
        for keys, (value, line, _column) in found.items():
            if keys in self.keys:
                value = _UNKNOWN  # two trees define it: which one the loader reads is not known
            self.keys[keys] = (value, path, line)

    @property
    def top(self) -> FrozenSet[str]:
        return frozenset(k[0] for k in self.keys)


class YacsIndex:
    """The project's yacs defaults and YAML runs, built once per run when a loader reads an
    upper-case key chain."""

    def __init__(self, paths: Sequence[str], read_bytes, read_yaml, root: Optional[str]) -> None:
        self.paths = tuple(paths)  # every file read: any may edit a key (then it is unknown)
        self._read_yaml = read_yaml
        self.root = root
        self.defaults = _Defaults()
        self.sources: Dict[str, bytes] = {}
        self.merges_files = False
        self.kinds: set = set()  # base_kind of each defaults module
        for path in paths:
            data = read_bytes(path)
            if b"merge_from_file" in data:
                self.merges_files = True
            if candidate(data):
                try:
                    tree = ast.parse(data, path)
                except (SyntaxError, ValueError, RecursionError):
                    continue
                found = read_defaults(tree, path)
                if found:
                    self.defaults.add(path, found)
                    self.kinds.add(base_kind(tree))
            self.sources[path] = data
        self._runs: Optional[List[Tuple[str, Optional[Dict[Tuple[str, ...], Any]], Tuple[str, ...]]]] = None
        self._edited: Dict[Tuple[str, ...], bool] = {}
        self.read: List[str] = []  # files the answers rest on

    def edited(self, keys: Tuple[str, ...]) -> bool:
        """Whether Python may set the key anywhere but its definition: ``X.A.B = ...`` (or
        ``+=``) of the key or a node above it, a quoted ``"A.B"`` (``merge_from_list`` literals)
        or ``"B"`` (``setattr``, ``cfg["A"]["B"] = ...``), a ``merge_from_other_cfg`` call."""
        found = self._edited.get(keys)
        if found is None:
            dotted = ".".join(keys)
            assigns = [
                re.compile(rb"\." + re.escape(".".join(keys[:n]).encode()) + rb"\s*[-+*/]?=(?!=)")
                for n in range(1, len(keys) + 1)
            ]
            quoted = re.compile(rb"[\"'](?:" + re.escape(dotted.encode()) + rb"|" + re.escape(keys[-1].encode()) + rb")[\"']")
            leaf = keys[-1].encode()
            found = False
            for path, data in self.sources.items():
                if b"merge_from_other_cfg" in data and path not in self.defaults.files:
                    found = True
                    break
                if keys[0].encode() not in data:
                    continue
                count = sum(len(a.findall(data)) for a in assigns) + (len(quoted.findall(data)) if leaf in data else 0)
                if path in self.defaults.files:
                    # its definitions (``_C.A = CN()``, ``_C.A.B = ...``), once each
                    count -= sum(
                        1
                        for k, (_, where, _) in self.defaults.keys.items()
                        if where == path and any(k[-n:] == keys[:n] for n in range(1, len(keys) + 1))
                    )
                if count > 0:
                    found = True
                    break
            self._edited[keys] = found
        return found

    def runs(self) -> List[Tuple[str, Optional[Dict[Tuple[str, ...], Any]], Tuple[str, ...]]]:
        """(YAML path, its merged keys -> Leaf (None when it cannot be read), files read) for
        each YAML config of this tree under the root."""
        if self._runs is None:
            self._runs = []
            # YAML runs only when the CfgNode class is known: yacs' or fvcore's (else unknown)
            if self.merges_files and self.root is not None and self.kinds in ({True}, {False}):
                for path in _yaml_files(self.root):
                    tree, files = self._merged(path, 0)
                    if tree is _NOT_CONFIG:
                        continue
                    self._runs.append((path, tree, files))
        return self._runs

    def _merged(self, path: str, depth: int):
        return merged_yaml(path, self._read_yaml, self.defaults.top, self.kinds != {False}, depth)


def merged_yaml(path: str, read_yaml, top: FrozenSet[str], with_base: bool, depth: int = 0):
    """A YAML config of a tree whose top-level keys are ``top``, merged over its ``_BASE_`` files
    as fvcore does (``with_base``; else a ``_BASE_`` makes it no run): (key path -> Leaf, or None
    when a base cannot be read; files read), or ``(_NOT_CONFIG, files)`` when it is no config of
    the tree."""
    from dl_lint.analysis.configs.yamlfile import Leaf, Tree

    tree = read_yaml(path)
    files: Tuple[str, ...] = (path,)
    if not isinstance(tree, Tree):
        return _NOT_CONFIG, files
    if not tree.entries or not all(k == "_BASE_" or (_KEY.match(k) and k in top) for k, _ in tree.entries):
        return _NOT_CONFIG, files
    merged: Optional[Dict[Tuple[str, ...], Any]] = {}
    base = tree.get("_BASE_")
    if base is not None and not with_base:
        return _NOT_CONFIG, files  # yacs' own CfgNode raises KeyError on _BASE_: no run
    if base is not None:
        text = base.value if isinstance(base, Leaf) else None
        if not isinstance(text, str) or depth > 8 or text.startswith(("http://", "https://")):
            merged = None
        else:
            text = os.path.expanduser(text)
            target = os.path.normpath(os.path.join(os.path.dirname(path), text))
            inner, more = merged_yaml(target, read_yaml, top, with_base, depth + 1)
            files += more
            merged = None if inner is _NOT_CONFIG else inner
    if merged is None:
        return None, files

    def flatten(node: Any, keys: Tuple[str, ...]) -> None:
        for key, child in node.entries:
            if key == "_BASE_" and not keys:
                continue
            if isinstance(child, Tree):
                flatten(child, keys + (key,))
            else:
                merged[keys + (key,)] = child

    flatten(tree, ())
    return merged, files


_NOT_CONFIG = object()


def _yaml_files(root: str) -> List[str]:
    out: List[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")):
                out.append(os.path.join(folder, name))
                if len(out) >= MAX_YAML:
                    return out
    return out


def _same_type(value: Any, default: Any) -> bool:
    """Whether yacs 0.1.8 merges ``value`` over ``default`` unchanged (see the docstring)."""
    if isinstance(value, str):
        return False  # literal_eval-ed first: not followed
    if type(value) is type(default) or value is None or default is None:
        return True
    return isinstance(value, (list, tuple)) and isinstance(default, (list, tuple))


def value_of(index: YacsIndex, keys: Tuple[str, ...], near: str) -> Tuple[Optional[Value], Tuple[str, ...]]:
    """The possible values of ``keys`` over the runs (None: not a key of a yacs tree here,
    or unknown), and the files that answer rests on."""
    entry = index.defaults.keys.get(keys)
    if entry is None:
        return None, ()
    default, path, line = entry
    read: Tuple[str, ...] = tuple(index.defaults.files)
    if default is _UNKNOWN or default is _NODE:
        return Value.unknown("config"), read
    if index.edited(keys):
        return Value.unknown("expression"), read  # Python sets it: not (only) the config's value
    dotted = ".".join(keys)
    places: Dict[Tuple[Any, str, int], set] = {}
    places.setdefault((default, path, line), set()).add(DEFAULTS_RUN)
    for run, merged, files in index.runs():
        read += files
        if merged is None:
            continue  # a base that cannot be read: this run is unknown
        leaf = merged.get(keys)
        if leaf is None:
            if any(k[: len(keys)] == keys for k in merged):
                continue  # a mapping where the default is a value: yacs rejects it
            places.setdefault((default, path, line), set()).add(run)
            continue
        if leaf.value is _yaml_unknown() or not _same_type(leaf.value, default):
            continue  # a run yacs rejects, or a value not followed: no possibility from it
        places.setdefault((leaf.value, leaf.path, leaf.line), set()).add(run)
    return runs_value(dotted, places, ", overridable"), read


def _yaml_unknown():
    from dl_lint.analysis.configs.yamlfile import UNKNOWN

    return UNKNOWN
