"""One YAML file as a tree of keys with line numbers, read with PyYAML's composer.

``yaml.compose`` keeps each node's position (``start_mark``), which ``yaml.safe_load`` drops. A
scalar is constructed only when its tag is one of YAML's standard scalar tags, resolved as the
program that reads the file resolves them (``parse_yaml``'s dialects: OmegaConf's loader, or
PyYAML's SafeLoader). Custom tags (``!ref``, ``!include``, ``!!python/...``) make that value
unknown, never an error; a file PyYAML cannot read gives a ``YamlError`` with the position
PyYAML reports. Files come through the project's guarded door (``dl_lint.reading``).

PyYAML is imported here and only here, when the first YAML file is read.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Optional, Tuple, Union

from dl_lint.record import Record

__all__ = ["UNKNOWN", "Leaf", "Tree", "Items", "YamlError", "read_yaml", "read_text", "parse_yaml"]

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
    """A mapping: ``entries`` key -> Leaf or Tree, in file order; ``line`` of its first key;
    ``header``: a file's ``# @package`` header (Hydra), on the file's top mapping."""

    __slots__ = ("entries", "path", "line", "header")

    def __init__(self, entries: Tuple[Tuple[str, "Node"], ...], path: str, line: int, header: Optional[str] = None) -> None:
        self.entries = entries
        self.path = path
        self.line = line
        self.header = header

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


def read_yaml(path: str, read: Optional[Callable[[str], bytes]] = None, dialect: str = "omegaconf") -> Tuple[Optional[str], Union[Tree, Leaf, YamlError, None]]:
    """(text, tree) of the YAML file at ``path``: (None, None) when it does not exist or lies
    outside the project (unknown, silently), a YamlError when it exists but is refused (a FIFO,
    a device, too large) or PyYAML cannot read it. ``read``: the project's door
    (``Project.door.read``); without it, the file is read as a regular file of at most
    ``reading.MAX_CONFIG_BYTES``, wherever it is (tests, a caller that has no project)."""
    text, refused = read_text(path, read, "utf-8-sig")
    return (text, parse_yaml(text, path, dialect)) if text is not None else (None, refused)


def read_text(path: str, read: Optional[Callable[[str], bytes]], encoding: str) -> Tuple[Optional[str], Optional[YamlError]]:
    """A config file's text through ``read`` (the project's door; without it, a regular file of
    at most ``reading.MAX_CONFIG_BYTES``), shared by the YAML and TOML readers: (text, None),
    or (None, None) when it is outside the root or missing, or (None, the reason) when refused
    or not UTF-8."""
    from dl_lint.reading import MAX_CONFIG_BYTES, Refused, read_regular

    try:
        data = read(path) if read is not None else read_regular(path, MAX_CONFIG_BYTES)
    except Refused as exc:
        if exc.outside or exc.missing:
            return None, None
        reason = "larger than 4 MiB: not read" if exc.size is not None else exc.reason
        return None, YamlError(path, reason, 1, 1)
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as exc:
        return None, YamlError(path, f"not UTF-8 ({exc.reason})", 1, 1)


def parse_yaml(text: str, path: str, dialect: str = "omegaconf") -> Union[Tree, Leaf, YamlError, None]:
    """The first document of ``text`` as a Tree (or a Leaf for a scalar document; None when
    empty), or the YamlError PyYAML raised.

    ``dialect`` says which program reads the file: "omegaconf" (Hydra, ``OmegaConf.load``) as
    OmegaConf 2.3.1 reads it (``omegaconf/_utils.py``, ``get_yaml_loader``): a duplicate key
    (among string keys) is an error, floats such as ``1e3`` are floats, timestamps are strings;
    "safe": PyYAML's ``safe_load`` as yacs, fvcore, jsonargparse and transformers read it, the
    last of duplicate keys winning. Composed by libyaml when PyYAML has it (a 10 MB file: seconds,
    not half a minute), with the same resolution (the resolver is PyYAML's Python one either way)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=_loader(yaml, dialect))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return YamlError(path, _short(str(reason)), line, column)
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)
    if node is None:
        return None
    constructor = yaml.SafeLoader("")
    budget = [MAX_NODES]
    try:
        found = _convert(node, path, constructor, yaml, budget, dialect == "omegaconf")
    except RecursionError:
        return YamlError(path, "nested too deeply", 1, 1)
    except _TooLarge:
        return YamlError(path, f"more than {MAX_NODES} nodes once aliases are expanded", 1, 1)
    except _Duplicate as exc:
        return YamlError(path, f"found duplicate key {_short(exc.key)} (OmegaConf refuses the file)", exc.line, exc.column)
    if isinstance(found, Tree):
        found.header = _package_header(text)
    return found


def _short(text: str, limit: int = 80) -> str:
    """PyYAML's reasons quote the file's text: keep them to one short line."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


_PACKAGE_HEADER = re.compile(r"^#\s*@package\s+(\S+)")


def _package_header(text: str) -> Optional[str]:
    """The ``# @package`` header of a Hydra config (in its first comment lines), if any."""
    for line in text.splitlines()[:20]:
        line = line.strip()
        match = _PACKAGE_HEADER.match(line)
        if match:
            return match.group(1)
        if line and not line.startswith("#"):
            break
    return None


_LOADERS: Dict[str, Any] = {}


def _loader(yaml: Any, dialect: str) -> Any:
    """The loader class of a dialect (``parse_yaml``), made once."""
    found = _LOADERS.get(dialect)
    if found is None:
        base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        found = type(f"DlLint{dialect.title()}Loader", (base,), {})
        if dialect == "omegaconf":
            found.yaml_implicit_resolvers = {
                key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
                for key, resolvers in base.yaml_implicit_resolvers.items()
            }
            found.add_implicit_resolver("tag:yaml.org,2002:float", _OMEGACONF_FLOAT, list("-+0123456789."))
        _LOADERS[dialect] = found
    return found


# OmegaConf 2.3.1's float pattern (``omegaconf/_utils.py``): YAML 1.1's, plus ``1e3``-style.
_OMEGACONF_FLOAT = re.compile(
    r"""^(?:
     [-+]?[0-9]+(?:_[0-9]+)*\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+)
    |\.[0-9]+(?:_[0-9]+)*(?:[eE][-+][0-9]+)?
    |[-+]?[0-9]+(?:_[0-9]+)*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)


class _Duplicate(Exception):
    def __init__(self, key: str, line: int, column: int) -> None:
        self.key = key
        self.line = line
        self.column = column


# Aliases share nodes, so a small file can expand to billions ("billion laughs"); OmegaConf
# 2.4.0.dev14 refuses such files too (``max_yaml_expanded_nodes`` in ``omegaconf/_yaml.py``).
MAX_NODES = 100_000


class _TooLarge(Exception):
    pass


def _convert(node: Any, path: str, constructor: Any, yaml: Any, budget: list, unique: bool = False) -> Node:
    """``unique``: a duplicate string key raises ``_Duplicate`` (OmegaConf), else the last wins."""
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
            key = str(key_node.value)
            if unique and key in entries and key_node.tag == "tag:yaml.org,2002:str":
                raise _Duplicate(key, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            entries[key] = _convert(value_node, path, constructor, yaml, budget, unique)
        return Tree(tuple(entries.items()), path, line)
    if isinstance(node, yaml.SequenceNode) and node.tag == "tag:yaml.org,2002:seq":
        return Items(tuple(_convert(item, path, constructor, yaml, budget, unique) for item in node.value), path, line)
    if isinstance(node, yaml.ScalarNode) and node.tag in _STANDARD:
        try:
            value = constructor.construct_object(node)
        except Exception:  # noqa: BLE001 - a scalar PyYAML cannot build is simply unknown
            value = UNKNOWN
        return Leaf(value, path, line, column, str(node.value))
    return Leaf(UNKNOWN, path, line, column)  # a custom tag: not judged
