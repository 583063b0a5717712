"""One YAML file as a tree of keys with line numbers, read with PyYAML's composer.

``yaml.compose`` keeps each node's position (``start_mark``), which ``yaml.safe_load`` drops. A
scalar is constructed only when its tag is one of YAML's standard scalar tags, resolved as
PyYAML's SafeLoader resolves them (OmegaConf 2.4.0.dev14, ``omegaconf/_yaml.py``, builds its
loader on SafeLoader: ``yes``/``on`` are booleans there too; it only widens the float pattern
and drops timestamps, neither of which matters for the integers and booleans judged here).
Custom tags (``!ref``, ``!include``, ``!!python/...``) make that value unknown, never an error;
a file PyYAML cannot read gives a ``YamlError`` with the position PyYAML reports.

PyYAML is imported here and only here, when the first YAML file is read.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

from dl_lint.record import Record

__all__ = ["UNKNOWN", "Leaf", "Tree", "Items", "YamlError", "read_yaml", "parse_yaml"]

_STANDARD = {
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:str",
}


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()  # a value dl-lint cannot know (a custom tag, an alias it does not follow)


class Leaf(Record):
    """A scalar at ``line``/``column`` (1-based) of ``path``."""

    __slots__ = ("value", "path", "line", "column", "text")

    def __init__(self, value: Any, path: str, line: int, column: int, text: str = "") -> None:
        self.value = value
        self.path = path
        self.line = line
        self.column = column
        self.text = text  # the scalar as written (``${data.workers}``, ``4``)


class Tree(Record):
    """A mapping: ``entries`` key -> Leaf or Tree, in file order; ``line`` of its first key."""

    __slots__ = ("entries", "path", "line")

    def __init__(self, entries: Tuple[Tuple[str, "Node"], ...], path: str, line: int) -> None:
        self.entries = entries
        self.path = path
        self.line = line

    def get(self, key: str) -> Optional["Node"]:
        for name, node in self.entries:
            if name == key:
                return node
        return None


class Items(Record):
    """A sequence (Hydra's defaults list): its elements, each a Leaf, Tree or Items."""

    __slots__ = ("items", "path", "line")

    def __init__(self, items: Tuple["Node", ...], path: str, line: int) -> None:
        self.items = items
        self.path = path
        self.line = line


Node = Union[Leaf, Tree, Items]


class YamlError(Record):
    """A YAML file PyYAML rejects: the reason and where (1-based)."""

    __slots__ = ("path", "message", "line", "column")

    def __init__(self, path: str, message: str, line: int, column: int) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.column = column


def read_yaml(path: str) -> Tuple[Optional[str], Union[Tree, Leaf, YamlError, None]]:
    """(text, tree) of the YAML file at ``path``: (None, None) when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None, None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, YamlError(path, f"not UTF-8 ({exc.reason})", 1, 1)
    return text, parse_yaml(text, path)


def parse_yaml(text: str, path: str) -> Union[Tree, Leaf, YamlError, None]:
    """The first document of ``text`` as a Tree (or a Leaf for a scalar document; None when
    empty), or the YamlError PyYAML raised."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return YamlError(path, str(reason), line, column)
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)
    if node is None:
        return None
    constructor = yaml.SafeLoader("")
    budget = [MAX_NODES]
    try:
        return _convert(node, path, constructor, yaml, budget)
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)
    except _TooLarge:
        return YamlError(path, f"more than {MAX_NODES} nodes once aliases are expanded", 1, 1)


# Aliases share nodes, so a small file can expand to billions ("billion laughs"); OmegaConf
# 2.4.0.dev14 refuses such files too (``max_yaml_expanded_nodes`` in ``omegaconf/_yaml.py``).
MAX_NODES = 100_000


class _TooLarge(Exception):
    pass


def _convert(node: Any, path: str, constructor: Any, yaml: Any, budget: list) -> Node:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    if isinstance(node, yaml.MappingNode) and node.tag == "tag:yaml.org,2002:map":
        entries: Dict[str, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                # ``<<: *base`` merges keys dl-lint does not follow: the whole mapping is unsure.
                return Leaf(UNKNOWN, path, line, column)
            entries[str(key_node.value)] = _convert(value_node, path, constructor, yaml, budget)  # later keys win
        return Tree(tuple(entries.items()), path, line)
    if isinstance(node, yaml.SequenceNode) and node.tag == "tag:yaml.org,2002:seq":
        return Items(tuple(_convert(item, path, constructor, yaml, budget) for item in node.value), path, line)
    if isinstance(node, yaml.ScalarNode) and node.tag in _STANDARD:
        try:
            value = constructor.construct_object(node)
        except Exception:  # noqa: BLE001 - a scalar PyYAML cannot build is simply unknown
            value = UNKNOWN
        return Leaf(value, path, line, column, str(node.value))
    return Leaf(UNKNOWN, path, line, column)  # a custom tag: not judged
