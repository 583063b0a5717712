"""Hydra: the config a ``@hydra.main(config_path=..., config_name=...)`` function receives.

Checked in Hydra's source, 1.4.0.dev9 (facebookresearch/hydra 2c03d1b, 2026-08-14):

- ``config_path`` is relative to the folder of the file that declares the function
  (``hydra/_internal/utils.py``, ``compute_search_path_dir``); ``config_name`` names
  ``<config_path>/<config_name>.yaml`` (``.yaml`` may be written or not).
- The defaults list composes the config: ``- data: default`` mounts ``<config_path>/data/default.yaml``
  at the package ``data`` (``core/default_element.py``, ``get_default_package``: the group path
  with ``/`` read as ``.``); ``- data@loader: fast`` mounts it at ``loader``; a group file's
  ``# @package _global_`` header mounts it at the root. When ``_self_`` is not in the list it
  is appended at the end (``_internal/defaults_list.py``, ``_validate_self``): the primary
  config's own keys override its defaults.
- ``${a.b}`` is OmegaConf's interpolation of the absolute key ``a.b`` (resolved when read).
- Any key can be overridden on the command line (``python train.py data.num_workers=0``): every
  value found here is the default of a configurable setting.

- A group config's own defaults list is relative to it: ``- base`` in ``data/default.yaml`` is
  ``data/base`` mounted at ``data``; ``- sub: x`` is ``data/sub/x`` at ``data.sub``
  (``_internal/defaults_list.py``); a name with no YAML file may be a structured config the
  script stored in that group (``cs.store(group="data", name="base", node=DataConfig)``,
  ``core/config_store.py``; the repository reads stored nodes beside the files).

- ``- override GROUP: OPTION`` in the primary config's defaults list chooses OPTION for that
  group wherever its default is in the tree (``_internal/defaults_list.py``,
  ``_update_overrides``); an override of a group no default names makes Hydra refuse to compose
  (unknown here). ``override hydra/...`` entries, at any level, configure Hydra itself (its
  logging, launcher, sweeper): no key of the app.

What is not followed makes the affected keys unknown (silence): absolute, optional, override
(but of Hydra's own groups), placed or interpolated entries of a group config's defaults list,
other package headers, multi-select groups, ``${oc.env:...}`` and
other resolvers, relative interpolations, ``???`` (a value the command line must give), custom
YAML tags, merges (``<<:``).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from dl_lint.analysis.configs.yamlfile import UNKNOWN, Items, Leaf, Tree, YamlError
from dl_lint.record import Record

__all__ = ["HydraConfig", "Composed", "compose", "MAIN_QUALNAMES", "LOAD_QUALNAMES"]

MAIN_QUALNAMES = frozenset({"hydra.main"})
# ``OmegaConf.load(path)`` (omegaconf 2.4.0.dev14, ``omegaconf/omegaconf.py``: reads one YAML
# file with the loader of ``_yaml.py``; a ``defaults`` key is plain data there).
LOAD_QUALNAMES = frozenset({"omegaconf.OmegaConf.load", "omegaconf.omegaconf.OmegaConf.load"})

Reader = Callable[[str], Any]  # absolute path -> Tree / Leaf / Items / YamlError / None (absent)

_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}$")
_UNSURE = "\0unsure"  # key of a merged mapping: keys not written in it may exist (unknown)


class HydraConfig(Record):
    """The ``cfg`` of a Hydra main function, or a sub-config of it (``cfg.data``): the folder
    configs are searched in, the primary config's name, and the keys taken so far. ``shown``:
    how messages name the search folder (``config_path`` as written beside the script)."""

    __slots__ = ("search_dir", "name", "keys", "shown", "edited", "plain", "stored")
    _uncompared = frozenset({"shown", "edited"})

    def __init__(
        self,
        search_dir: str,
        name: str,
        keys: Tuple[str, ...] = (),
        shown: str = "",
        # Keys the Python function sets itself (``()``: it may set any): not the YAML's value.
        edited: Tuple[Tuple[str, ...], ...] = (),
        # ``OmegaConf.load(path)``: the file as it is (no defaults list), not overridable by
        # Hydra's command line.
        plain: bool = False,
        # Structured configs the script stores in config groups (``cs.store(group="data",
        # name="base", node=DataConfig)``): (group, name, Tree of the dataclass's defaults), found
        # by a defaults list that names no YAML file of that name.
        stored: Tuple[Tuple[str, str, Tree], ...] = (),
    ) -> None:
        self.stored = stored
        self.search_dir = search_dir
        self.name = name
        self.keys = keys
        self.shown = shown
        self.edited = edited
        self.plain = plain

    def child(self, key: str) -> "HydraConfig":
        return HydraConfig(self.search_dir, self.name, self.keys + (key,), self.shown, self.edited, self.plain, self.stored)

    def edits(self, keys: Tuple[str, ...]) -> bool:
        """Whether the function may set ``keys`` (or a key above or below them) itself."""
        return any(keys[: len(e)] == e or e[: len(keys)] == keys for e in self.edited)

    @property
    def primary(self) -> str:
        name = self.name if self.name.endswith((".yaml", ".yml")) else f"{self.name}.yaml"
        return os.path.join(self.search_dir, name)


class Composed(Record):
    """The composed config: nested dicts of Leaf (a dict may hold ``_UNSURE``: keys it does not
    show may exist), or None when nothing can be said; ``errors``: YAML files that failed."""

    __slots__ = ("tree", "errors")

    def __init__(self, tree: Optional[Dict[str, Any]], errors: Tuple[YamlError, ...] = ()) -> None:
        self.tree = tree
        self.errors = errors

    def lookup(self, keys: Tuple[str, ...], depth: int = 0) -> Union[Leaf, Dict[str, Any], None]:
        """The Leaf or mapping at ``keys``; None when unknown (not written, unsure, a custom
        tag, an interpolation dl-lint does not follow)."""
        node: Any = self.tree
        for key in keys:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        if isinstance(node, Leaf):
            return self._value(node, depth)
        return node if isinstance(node, dict) else None

    def interpolates(self, keys: Tuple[str, ...]) -> bool:
        """Whether the value written at ``keys`` is a ``${...}`` interpolation (read at access
        time: an edit of its target in Python changes it)."""
        node: Any = self.tree
        for key in keys:
            if not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        return isinstance(node, Leaf) and isinstance(node.value, str) and "${" in node.value

    def _value(self, leaf: Leaf, depth: int) -> Optional[Leaf]:
        value = leaf.value
        if value is UNKNOWN:
            return None
        if isinstance(value, str):
            if value == "???":
                return None  # mandatory: the command line must give it
            if "${" in value:
                match = _INTERPOLATION.match(value)
                if match is None or depth > 8:
                    return None
                target = self.lookup(tuple(match.group(1).split(".")), depth + 1)
                if not isinstance(target, Leaf):
                    return None
                return target
        return leaf


def compose(config: HydraConfig, read: Reader) -> Composed:
    """Compose ``config``'s primary YAML file with its defaults list."""
    errors: List[YamlError] = []
    primary = read(config.primary)
    if isinstance(primary, YamlError):
        return Composed(None, (primary,))
    if primary is None:
        return Composed(None)
    if not isinstance(primary, Tree):
        return Composed(None)
    if config.plain:  # OmegaConf.load: the file's keys, ``defaults`` included, as written
        tree: Dict[str, Any] = {}
        _merge_tree(tree, primary)
        return Composed(tree)
    defaults = primary.get("defaults")
    own = Tree(tuple((k, v) for k, v in primary.entries if k != "defaults"), primary.path, primary.line)
    # (package, tree or None for "unknown content here")
    sources: List[Tuple[Tuple[str, ...], Optional[Tree]]] = []
    has_self = False
    overrides: Dict[str, List[Any]] = {}
    if defaults is not None:
        if not isinstance(defaults, Items):
            return Composed(None)
        for item in defaults.items:
            found = _override(item)
            if found is not None:  # ``- override data: base``: the option chosen for that group, wherever its default is
                group, option = found
                if group is None or group in overrides:
                    return Composed(None)
                if group != "hydra" and not group.startswith("hydra/"):  # Hydra's own settings: not the app's keys
                    overrides[group] = [option, False]
        for item in defaults.items:
            if isinstance(item, Leaf) and item.value == "_self_":
                if has_self:
                    return Composed(None)
                has_self = True
                sources.append(((), own))
                continue
            if _override(item) is not None:
                continue
            sources.extend(_default(item, config.search_dir, read, errors, config.stored, overrides))
    if not has_self:
        sources.append(((), own))
    if any(not consumed for _, consumed in overrides.values()):
        return Composed(None)  # an override of a group no default names: Hydra refuses to compose
    merged: Dict[str, Any] = {}
    for package, tree in sources:
        _merge_at(merged, package, tree)
    return Composed(merged, tuple(errors))


Source = Tuple[Tuple[str, ...], Optional[Tree]]  # (package, tree; None: unknown content there)
_BUDGET = 256  # configs read for one entry of the primary defaults list, nested ones included
Stored = Tuple[Tuple[str, str, Tree], ...]


def _override(item: Any) -> Optional[Tuple[Optional[str], Optional[str]]]:
    """``- override GROUP: OPTION`` of a defaults list: (the group's path, the option); (None,
    None) for an override written otherwise (unknown); None for any other entry."""
    if not (isinstance(item, Tree) and len(item.entries) == 1 and item.entries[0][0].startswith("override ")):
        return None
    group, value = item.entries[0]
    group = group[len("override ") :].strip().lstrip("/")
    if "@" in group or not isinstance(value, Leaf) or not isinstance(value.value, str) or "${" in value.value or not group:
        return None, None
    return group, value.value


def _default(
    item: Any, search_dir: str, read: Reader, errors: List[YamlError], stored: Stored = (), overrides: Optional[Dict[str, List[Any]]] = None
) -> List[Source]:
    """One entry of a primary config's defaults list: where it mounts, and what it holds (None:
    unknown content; the package () with None makes everything unknown), a group config's own
    defaults list first (``_group``)."""
    if isinstance(item, Leaf) and isinstance(item.value, str):
        # ``- base``: another config of the same folder, at the root; ``- /base`` (absolute in
        # Hydra's search path, ``ConfigDefault.get_config_path``) is the same from a primary config
        group, option = "", item.value.lstrip("/")
    elif isinstance(item, Tree) and len(item.entries) == 1:
        group, value = item.entries[0]
        if not isinstance(value, Leaf) or not (isinstance(value.value, str) or value.value is None):
            return [((), None)]  # a multi-select list, a custom tag
        option = value.value
    else:
        return [((), None)]
    optional = group.startswith("optional ")
    if optional:
        group = group[len("optional ") :].strip()
    if group.startswith("override "):
        return [((), None)]  # overrides a nested default dl-lint does not follow
    group, _, package_text = group.partition("@")
    group = group.strip().lstrip("/")
    if group == "hydra" or group.startswith("hydra/"):
        return [(("hydra",), None)]  # Hydra's own settings, under cfg.hydra (not what a loader reads)
    if option is None:
        return [(("\0none",), None)]  # ``- data: null``: nothing is mounted
    if "${" in option:
        return [((), None)]
    if package_text:
        package = () if package_text == "_global_" else tuple(package_text.replace("_global_.", "").split("."))
        if package_text == "_group_":
            package = tuple(group.split("/"))
    else:
        package = tuple(p for p in group.split("/") if p)
    path = tuple(p for p in group.split("/") if p)
    if isinstance(item, Tree):  # ``- group: option``, not ``- config`` of the same folder
        option = _overridden(overrides, path, option)
    return _group(path, option, package, bool(package_text), optional, search_dir, read, errors, stored, 0, [_BUDGET], overrides)


def _overridden(overrides: Optional[Dict[str, List[Any]]], group: Tuple[str, ...], option: str) -> str:
    """The option an ``override`` entry of the primary config chooses for ``group`` (marked as
    used), else ``option``."""
    entry = overrides.get("/".join(group)) if overrides else None
    if entry is None:
        return option
    entry[1] = True
    return entry[0]


def _group(
    group: Tuple[str, ...], option: str, package: Tuple[str, ...], placed: bool, optional: bool,
    search_dir: str, read: Reader, errors: List[YamlError], stored: Stored, depth: int, budget: List[int],
    overrides: Optional[Dict[str, List[Any]]] = None,
) -> List[Source]:
    """The sources of config ``option`` of ``group`` mounted at ``package`` (``placed``: the
    entry wrote the package): its YAML file, else a structured config the script stored under
    that group and name (``HydraConfig.stored``); its own defaults list first, relative to it
    (``- base``: a config of the same group at the same package; ``- sub: x``: group
    ``GROUP/sub`` at ``PACKAGE.sub``), then its own keys where ``_self_`` stands (at the end
    when not written: Hydra 1.1+). Anything else nested makes its package unknown, as does a
    default past ``_BUDGET`` configs for one entry (a hostile tree of lists naming lists)."""
    budget[0] -= 1
    if budget[0] < 0:
        return [(package, None)]
    name = option if option.endswith((".yaml", ".yml")) else f"{option}.yaml"
    path = os.path.normpath(os.path.join(search_dir, *group, name))
    found = read(path)
    if isinstance(found, YamlError):
        errors.append(found)
        return [(package, None)]
    if found is None:
        node = next((t for g, n, t in stored if g == "/".join(group) and n == option), None)
        if node is not None:
            return [(package, node)]  # a structured config's keys: a dataclass has no defaults list
        return [(package, None)] if not optional else [(("\0none",), None)]
    if not isinstance(found, Tree):
        return [(package, None)]
    header = found.header
    if header is not None and not placed:
        if header == "_global_":
            package = ()
        elif header != "_group_":
            return [((), None)]  # mounted somewhere dl-lint does not follow
    defaults = found.get("defaults")
    if defaults is None:
        return [(package, found)]
    if not isinstance(defaults, Items) or depth > 6:
        return [(package, None)]
    own = Tree(tuple((k, v) for k, v in found.entries if k != "defaults"), found.path, found.line)
    sources: List[Source] = []
    has_self = False
    for item in defaults.items:
        if isinstance(item, Leaf) and item.value == "_self_":
            if has_self:
                return [(package, None)]
            has_self = True
            sources.append((package, own))
            continue
        found = _override(item)
        if found is not None and found[0] is not None and (found[0] == "hydra" or found[0].startswith("hydra/")):
            continue  # ``- override hydra/job_logging: custom``: Hydra's own settings, not the app's keys
        if isinstance(item, Leaf) and isinstance(item.value, str):
            sub, option_text = (), item.value  # a config of the same group, mounted here
        elif isinstance(item, Tree) and len(item.entries) == 1 and isinstance(item.entries[0][1], Leaf) and isinstance(item.entries[0][1].value, str):
            key, value = item.entries[0]
            sub, option_text = tuple(key.split("/")), value.value
        else:
            return [(package, None)]
        written = "/".join(sub) + option_text
        if written.startswith(("/", "optional", "override")) or "@" in written or "${" in written or not all(sub):
            return [(package, None)]  # absolute, optional, override, placed or interpolated: not followed
        if sub:
            option_text = _overridden(overrides, group + sub, option_text)
        nested = _group(group + sub, option_text, package + sub, False, False, search_dir, read, errors, stored, depth + 1, budget, overrides)
        if any(tree is None for _, tree in nested):
            return [(package, None)]  # absent (Hydra fails to compose), broken, or not followed
        sources.extend(nested)
    if not has_self:
        sources.append((package, own))
    return sources


def _merge_at(merged: Dict[str, Any], package: Tuple[str, ...], tree: Optional[Tree]) -> None:
    if package and package[0] == "\0none":
        return
    if package == ("hydra",) and tree is None:
        return
    node = merged
    for key in package:
        child = node.get(key)
        if not isinstance(child, dict):
            child = {_UNSURE: True} if child is not None else {}
            node[key] = child
        node = child
    if tree is None:
        node.clear()
        node[_UNSURE] = True  # anything may be here now
        return
    _merge_tree(node, tree)


def _merge_tree(node: Dict[str, Any], tree: Tree) -> None:
    for key, value in tree.entries:
        if isinstance(value, Tree):
            child = node.get(key)
            if not isinstance(child, dict):
                child = {}
                node[key] = child
            _merge_tree(child, value)
        else:
            node[key] = value  # a Leaf or Items replaces what was there (OmegaConf's merge)


def unsure(node: Dict[str, Any]) -> bool:
    return bool(node.get(_UNSURE))
