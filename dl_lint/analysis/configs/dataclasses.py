"""Dataclass configs: ``@dataclass class Config: num_workers: int = 0``, then ``Config()``,
``Config(num_workers=4)`` or ``tyro.cli(Config)``.

Facts read at the versions named:

- ``dataclasses`` (CPython 3.8-3.13): a field is a class-level annotated name (not ``ClassVar``);
  its default is the assigned value or ``field(default=...)``; ``field(default_factory=...)`` is
  computed at each construction by calling the factory (read as that call: ``DataConfig()``, or
  the body of a ``lambda:``); ``__post_init__`` runs after the fields are set and
  may change any of them (then every field is unknown); inherited fields come first in the
  constructor, so positional arguments are bound only for classes without bases.
- tyro 1.0.15 (d0f2e3f, ``src/tyro/_cli.py:46-106``): ``tyro.cli(Config)`` builds a ``Config``
  whose fields the command line sets, each field's default being the dataclass default: a
  configurable value, like an argparse default. ``args=``/``default=`` replace what is parsed or
  the defaults, and ``return_unknown_args=True`` returns a tuple: unknown. A field annotated
  ``tyro.conf.Fixed[...]``/``SuppressFixed[...]`` (``conf/_markers.py:52,86``) cannot be set from
  the command line: its default is the value.

- simple_parsing 0.1.9 (PyPI; ``simple_parsing/parsing.py``): ``simple_parsing.parse(Config)``
  (:1003-1050) builds an ``ArgumentParser`` and ``add_arguments(Config, dest=...)``, then returns
  the parsed ``Config``; ``ArgumentParser().add_arguments(Config, dest="cfg")`` (:184-230) makes
  ``parser.parse_args().cfg`` a ``Config``. Every field is a command-line option whose default is
  the dataclass default: configurable, as with tyro. ``config_path=``/``add_config_path_arg=``
  (defaults read from a file, :300-320), ``default=`` (another instance's values) and ``args=``
  make the values unknown here.

The resolver (``analysis.resolve``) finds the class and binds the call; this module only reads
the class body.
"""

from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from dl_lint.analysis.syntax import terminal
from dl_lint.analysis.values import Instance
from dl_lint.record import Record

DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass"})
CLI_PARSERS = frozenset({"tyro.cli", "simple_parsing.parse", "simple_parsing.parsing.parse"})
# Keywords of those parsers that leave the parsed fields and their defaults alone.
CLI_HARMLESS_KEYWORDS = frozenset({"prog", "description", "use_underscores", "console_outputs", "add_help", "compact_help"})
SIMPLE_PARSING_HARMLESS = frozenset(
    {"dest", "prefix", "add_help", "nested_mode", "conflict_resolution", "add_option_string_dash_variants",
     "argument_generation_mode", "formatter_class", "description", "prog"}
)  # fmt: skip
SIMPLE_PARSING_PARSERS = frozenset({"simple_parsing.ArgumentParser", "simple_parsing.parsing.ArgumentParser"})
_FIXED_MARKERS = ("Fixed", "SuppressFixed")


class DataclassConfig(Instance):
    """An instance of a dataclass of the project (still an ``Instance``: rules that follow the
    class, for datasets or picklable callables, see the same thing), with each field's Value (a
    field missing here is unknown)."""

    __slots__ = ("fields",)

    def __init__(
        self,
        module: str,
        name: str,
        line: int = 0,
        path: str = "",
        local: bool = False,
        holds: Optional[Tuple[str, str, int]] = None,
        given: Tuple[Tuple[str, object], ...] = (),
        views: Optional[Tuple[Tuple[object, ...], ...]] = None,
        shape: Optional[Tuple] = None,
        rngs: Tuple[str, ...] = (),
        fields: Tuple[Tuple[str, object], ...] = (),
    ) -> None:
        super().__init__(module, name, line, path, local, holds, given, views, shape, rngs)
        self.fields = fields

    def get(self, key: str) -> Optional[object]:
        for k, v in self.fields:
            if k == key:
                return v
        return None


class StoreConfig(DataclassConfig):
    """An object of a keyword store (``item_stores``: ``HParams(num_workers=16)``), its keys as
    fields, read through the accesses its hooks answer ("attr", "item"); ``writers``: the
    methods that write a key they are given (``set_hparam``, ``__setitem__``), whose calls
    anywhere may change a key (``Project.writes_item``)."""

    __slots__ = ("accesses", "writers", "store")

    def __init__(
        self,
        module: str,
        name: str,
        line: int = 0,
        path: str = "",
        local: bool = False,
        holds: Optional[Tuple[str, str, int]] = None,
        given: Tuple[Tuple[str, object], ...] = (),
        views: Optional[Tuple[Tuple[object, ...], ...]] = None,
        shape: Optional[Tuple] = None,
        rngs: Tuple[str, ...] = (),
        fields: Tuple[Tuple[str, object], ...] = (),
        accesses: Tuple[str, ...] = (),
        writers: Tuple[str, ...] = (),
        store: str = "",
    ) -> None:
        super().__init__(module, name, line, path, local, holds, given, views, shape, rngs, fields)
        self.accesses = accesses
        self.writers = writers
        self.store = store  # the dict attribute: ``obj.STORE.update(...)`` elsewhere changes it


class Field(Record):
    """A field of a dataclass body: its name, the default expression (None: no default, or
    one computed at construction), the line, and whether the command line may not set it."""

    __slots__ = ("name", "default", "line", "fixed")

    def __init__(self, name: str, default: Optional[ast.expr], line: int, fixed: bool) -> None:
        self.name = name
        self.default = default
        self.line = line
        self.fixed = fixed


def _factory_default(factory: ast.expr) -> Optional[ast.expr]:
    """What ``field(default_factory=...)`` computes at each construction, as an expression: a
    call of the class or function named (``DataConfig`` gives ``DataConfig()``, resolved like a
    construction written there: a nested dataclass config), or the body of a lambda that takes
    no argument (``lambda: DataConfig(num_workers=4)``). None for anything else (unknown)."""
    if isinstance(factory, (ast.Name, ast.Attribute)):
        return ast.copy_location(ast.Call(func=factory, args=[], keywords=[]), factory)
    if isinstance(factory, ast.Lambda) and not factory.args.args and not factory.args.posonlyargs:
        if not factory.args.kwonlyargs and factory.args.vararg is None and factory.args.kwarg is None:
            return factory.body
    return None


def dataclass_fields(cls: ast.ClassDef) -> Optional[List[Field]]:
    """The fields the class body declares, in order; None when ``__post_init__`` (or a custom
    ``__init__``) may set them to something else."""
    fields: List[Field] = []
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name in ("__post_init__", "__init__"):
            return None
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        annotation = ast.unparse(statement.annotation) if hasattr(ast, "unparse") else ""
        if "ClassVar" in annotation or "InitVar" in annotation:
            continue
        default = statement.value
        if isinstance(default, ast.Call) and terminal(default.func) == "field":
            given = {k.arg: k.value for k in default.keywords}
            default = given.get("default")
            factory = given.get("default_factory")
            if default is None and factory is not None:
                default = _factory_default(factory)  # ``default_factory=DataConfig``: ``DataConfig()``
        fixed = any(marker in annotation.replace(".", " ").replace("[", " ").split() for marker in _FIXED_MARKERS)
        fields.append(Field(statement.target.id, default, statement.lineno, fixed))
    return fields
