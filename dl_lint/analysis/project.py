"""The cross-file index: every module of the project as other modules see it.

The project root is the nearest folder above the linted paths holding pyproject.toml,
setup.cfg, setup.py or .git. Every .py file under it can feed the index, but nothing is read
until a linted file needs it: an import of a constant, a dataset class defined elsewhere, a base
class, a helper. Then the module is summarised (``analysis.summary``): from the summary store
when its content is unchanged since a previous run, else from one parse, which also serves the
module's own analysis if it is linted in the same run. Parsed modules stay available while
they fit a memory budget, so that no module is parsed twice in a run unless the budget forced
it out (``parses`` counts, per file). Accelerator evidence for DL102 is read from raw bytes
and follows the import graph, also built from bytes.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from dl_lint.reading import Door, Refused
from dl_lint.roots import ROOT_MARKERS, find_root  # noqa: F401 - the project's root, used by importers of this module

if TYPE_CHECKING:
    from dl_lint.analysis.containers import RunDefinition
    from dl_lint.analysis.datasets import ClassFacts, DatasetIndex, FunctionFacts
    from dl_lint.analysis.module import ModuleAnalysis
    from dl_lint.analysis.resolve import LoaderClass
    from dl_lint.analysis.signals import Evidence
    from dl_lint.analysis.subclasses import Signature
    from dl_lint.analysis.summary import ModuleSummary
    from dl_lint.analysis.values import Value


MAX_PROJECT_FILES = 50_000
# How many importing modules that name a function ``callers_of`` reads before it gives up.
_MAX_CALLER_MODULES = 32
# ``import_roots``: a top-level line (column 0) with a call that is not an import, a definition,
# a decorator or the main guard; and how many such files one module's roots may be.
_TOP_CALL = re.compile(rb"^(?!(?:def|class|import|from|async|if\s+__name__)\b)[A-Za-z_][^\n]*\(", re.M)
_MAX_ROOTS = 24
# ``non_blocking=True`` as written (whitespace, parentheses, a line continuation or comments
# between): the only copy DL306 counts (``transfers``: the keyword's literal value is True)
_NON_BLOCKING_TRUE = re.compile(rb"non_blocking\s*=(?:[\s(\\]|#[^\n]*)*True\b")
# The "module" of a dependency on names a module binds only by a lone class statement.
LONE = "\0lone:"
# A use ``MENTION + word``: the answer holds while no file changed since writes ``word`` (its
# bytes; ``mentions``), checked against the files changed since the state it was given in.
MENTION = "mention:"
NON_BLOCKING_WORD = "\0non_blocking=True"  # ... the word ``_NON_BLOCKING_TRUE`` matches
ABSENT = "\0absent:"  # + a word: what a question rests on when the file lacks it (``may_hold``)
# + class names: what a question rests on when the bytes show that no ``class name`` of the file
# can be a keyword-setting config (``prefilter.may_be_keyword_setter``; ``Project.setattr_config``)
NO_SETTER = "\0nosetter:"
# + attribute names: what a question rests on when the bytes show that ``self.attr`` is not
# assigned exactly once (``Project.stores_once``)
STORES = "\0stores:"
# A parsed module (its ``ast`` tree and index) takes about 30-40 bytes of memory per byte of
# source. Parsed modules beyond this many bytes of source are dropped, least recently used
# first (their summaries stay): memory stays flat on large trees, and projects whose loader
# modules fit (most) never parse a module twice.
LIVE_SOURCE_BUDGET = 1536 * 1024

_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)", re.M)
# ``from BASE import NAMES``: a parenthesised list may span lines, a plain one ends with its line
# (a backslash continues it).
_FROM_IMPORT = re.compile(
    rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|((?:[^\n#;\\]|\\\r?\n)*))", re.M
)


def absolute_path(text: str, cwd: str) -> str:
    """``os.path.abspath(text)`` for a path relative to ``cwd`` (given, not asked for again),
    without normalising paths that need none: this runs for every file of a large tree."""
    if os.path.isabs(text):
        return text if "/." not in text else os.path.normpath(text)
    joined = os.path.join(cwd, text)
    return os.path.normpath(joined) if text.startswith(".") or "/." in text else joined


def module_name_for(path: Path, absolute: bool = False) -> str:
    """The dotted module name, found by walking up through packages (``__init__.py``).
    ``absolute``: ``path`` is already an absolute, normalized path string."""
    path = path if absolute else os.path.abspath(path)
    folder, name = os.path.split(path)
    stem = os.path.splitext(name)[0]
    package = _package_of(folder)
    if name == "__init__.py":
        return package or stem
    return f"{package}.{stem}" if package else stem


@functools.lru_cache(maxsize=None)
def _package_of(folder: str) -> str:
    """The dotted package name of an absolute folder ("" when it has no ``__init__.py``):
    memoized, so a tree of files costs one probe per folder, not one per file and level."""
    if not os.path.isfile(os.path.join(folder, "__init__.py")):
        return ""
    parent, name = os.path.split(folder)
    if parent == folder or not name:
        return name
    outer = _package_of(parent)
    return f"{outer}.{name}" if outer else name


def forget_folders() -> None:
    """Forget what folders were found to be packages (a long-running process: ``--watch``)."""
    _package_of.cache_clear()


_STAR_IMPORT = re.compile(rb"\bimport[ \t]*\*")


# ``self.attr = ...`` (``Project.stores_once``); ``obj.attr = ...``, ``obj.attr += ...`` and
# ``setattr(obj, "attr", ...)`` (``Project.writes_attribute``), read from bytes
_SELF_STORE = re.compile(rb"self\.\s*([A-Za-z_]\w*)\s*=(?!=)")
_WRITE_OP = rb"(?:[-+*/%|&^]|//|\*\*|<<|>>)?=(?!=)"  # ``=`` or an augmented assignment, not ``==``
_ATTR_WRITE = re.compile(rb"(\w*)\s*\.\s*([A-Za-z_]\w*)\s*" + _WRITE_OP)
_SETATTR_NAME = re.compile(rb"setattr\([^,()]+,\s*['\"]([A-Za-z_]\w*)['\"]")
# Writes of attributes by computed name on an object (group 1: its name, when it is one).
_ANY_WRITE = re.compile(
    rb"setattr\(\s*([\w.]*)\s*,\s*(?![\s'\"])|([\w.]*)\.__dict__\s*(?:\.\s*update\s*\(|\[)|vars\(\s*([\w.]*)\s*\)\s*(?:\.\s*update\s*\(|\[[^\]\n]*\]\s*=(?!=))"
)


def _self_stores(data: bytes) -> Dict[str, int]:
    """How many times ``data`` assigns each ``self.attr``."""
    counts: Dict[str, int] = {}
    for match in _SELF_STORE.finditer(data):
        name = match.group(1).decode()
        counts[name] = counts.get(name, 0) + 1
    return counts


def _kept_once(data: bytes, counts: Dict[str, int], attr: str, cls: str = "") -> bool:
    """Whether a module of these bytes may keep ``attr`` as one value for a config object
    (``Project.stores_once``): ``self.attr`` assigned exactly once (in ``__init__``), or never
    but bound in the body of class ``cls`` (a class attribute, ``summary.class_constants``)."""
    found = counts.get(attr, 0)
    return found == 1 or (found == 0 and bool(cls) and _binds_in_class(data, attr, cls))


def _binds_in_class(data: bytes, attr: str, cls: str) -> bool:
    """Whether ``data`` may bind ``attr`` in the body of ``class cls``: a line ``attr = ...`` (or
    ``attr: T = ...``) whose block is opened by a ``class cls`` line, the nearest line above it
    that is indented less (a local variable of the name in a function is not). One pass over
    the lines, keeping the lines that open the blocks around the current one (a stack of
    strictly growing indents), and only for bytes that hold such a line at all."""
    name = re.escape(attr.encode())
    if re.search(rb"(?m)^[ \t]+" + name + rb"[ \t]*(?::[^=\n]*)?=(?!=)", data) is None:
        return False
    binding = re.compile(rb"[ \t]+" + name + rb"[ \t]*(?::[^=\n]*)?=(?!=)")
    header = re.compile(rb"class[ \t]+" + re.escape(cls.encode()) + rb"\b")
    openers: List[Tuple[int, bool]] = []  # (indent, whether it is ``class cls``)
    for line in data.split(b"\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith(b"#"):
            continue
        expanded = line.expandtabs(8)
        indent = len(expanded) - len(expanded.lstrip())
        while openers and openers[-1][0] >= indent:
            openers.pop()
        if openers and openers[-1][1] and binding.match(line):
            return True
        openers.append((indent, header.match(stripped) is not None))
    return False


def _written_attributes(data: bytes) -> Set[str]:
    """The attributes ``data`` writes on anything but ``self``, or names in a ``setattr`` call;
    and "*NAME" for an object other than ``self`` whose attributes it may set by computed name
    (``setattr(cfg, key, value)``, ``cfg.__dict__.update(...)``, ``vars(cfg).update(...)``: "*cfg";
    the last name of a dotted holder)."""
    found = {m.group(2).decode() for m in _ATTR_WRITE.finditer(data) if m.group(1) != b"self"}
    found.update(m.group(1).decode() for m in _SETATTR_NAME.finditer(data))
    for match in _ANY_WRITE.finditer(data):
        holder = (match.group(1) or match.group(2) or match.group(3) or b"").rsplit(b".", 1)[-1]
        if holder != b"self":
            found.add("*" + holder.decode())
    return found


def mentions(data: bytes, word: str) -> bool:
    """Whether a file's bytes may undo an answer that rests on ``MENTION + word``: they write
    ``non_blocking=True`` (``NON_BLOCKING_WORD``), else the name ``word`` (anywhere: a call, an
    import, a re-export) or a star import (which re-exports names without writing them)."""
    if word == NON_BLOCKING_WORD:
        return _NON_BLOCKING_TRUE.search(data) is not None
    return word.encode() in data or (b"*" in data and _STAR_IMPORT.search(data) is not None)


class _Tracked:
    """The project as one module's resolver sees it: every call is attributed to that module,
    so the project knows which modules each module's answers were built from (see
    ``Project.dependencies``; the results cache uses it)."""

    __slots__ = ("_project", "_key")

    def __init__(self, project: "Project", key: str) -> None:
        self._project = project
        self._key = key

    def __getattr__(self, name: str):
        attr = getattr(self._project, name)
        if not callable(attr):
            return attr
        project, key = self._project, self._key

        def call(*args, **kwargs):
            saved = project._source
            project._source = key
            try:
                return attr(*args, **kwargs)
            finally:
                project._source = saved

        return call


class SummaryStore:
    """Summaries kept between runs (``dl_lint.cache``): ``get`` one for a file whose content
    hash and module name match, ``put`` a new one."""

    def get(self, path: str, content_hash: str, module: str) -> Optional["ModuleSummary"]:  # pragma: no cover
        return None

    def put(self, path: str, content_hash: str, summary: "ModuleSummary") -> None:  # pragma: no cover
        return None


# torchvision's VisionDataset keeps ``transform`` and ``target_transform`` twice: as themselves
# and in ``self.transforms`` (a ``StandardTransform`` of both; vision.py, torchvision 0.28.0).
_TRANSFORM_ATTRIBUTES = frozenset({"transform", "target_transform", "transforms"})


def _passed_on(init: Tuple, base: Tuple[Tuple[str, int], ...]) -> Tuple[Tuple[str, int], ...]:
    """The parameters of a class's ``__init__`` (``subclasses.read_init``'s data) that reach
    the base's kept parameters ``base`` ((name, position) each): passed as that keyword or at
    that position (before any ``*args``), or a keyword that ``**kwargs`` passes on unchanged."""
    params, _varargs, varkw, _target, entries, dropped, kwargs_mutated, _varargs_mutated, _line = init
    positional = [p[0] for p in params if p[1] in ("pos", "posonly")]
    named = {p[0] for p in params if p[1] != "posonly"}

    def position(param: str) -> int:
        return positional.index(param) if param in positional else -1

    out = []
    for base_name, base_position in base:
        index: Optional[int] = 0
        reached = None
        spread = False
        for kind, keyword, how, payload in entries:
            if kind == "pos" and index is not None:
                if index == base_position and how == "param":
                    reached = payload
                index += 1
            elif kind == "*":
                index = None  # positions after ``*args`` are unknown
            elif kind == "kw" and keyword == base_name and how == "param":
                reached = payload
            elif kind == "**" and how == "param" and payload == varkw and not kwargs_mutated:
                spread = True
        if reached is not None:
            out.append((reached, position(reached)))
        elif spread and base_name not in named and base_name not in dropped and not any(
            e[0] == "kw" and e[1] == base_name for e in entries
        ):
            out.append((base_name, -1))  # ``MyFolder(root, transform=t)`` through ``**kwargs``
    return tuple(out)


class SummaryModule:
    """Another module's summary, with a resolver over its module-level bindings: answers what an
    importer may ask (a constant's value, whether a class is a loader, dataset class facts)."""

    def __init__(self, summary: "ModuleSummary", project: Any, loader_names: FrozenSet[str]) -> None:
        from dl_lint.analysis.resolve import Resolver

        self.summary = summary
        self.path = summary.path
        self.module_name = summary.module
        self.index = summary.module_index()
        self.resolver = Resolver(self.index, summary.path, summary.module, summary.is_package, project, loader_names)
        self._classes_by_name = {c.name: c for c in summary.classes}
        self._functions_by_name = {f.name: f for f in summary.functions}
        self._in_progress: Set[str] = set()
        self._loader_classes: Dict[str, Optional["LoaderClass"]] = {}
        self._class_facts: Dict[str, Optional["ClassFacts"]] = {}
        self._function_facts: Dict[str, Optional["FunctionFacts"]] = {}
        self._objects: Dict[str, Tuple[Tuple[str, str, str, str, int], ...]] = {}
        self._results: Dict[str, Tuple[Tuple[str, str, str, str, int], ...]] = {}
        self._held_returns: Dict[str, Optional[Tuple[str, str, int]]] = {}
        self._kept: Dict[Tuple[str, int], Tuple[Tuple[str, int], ...]] = {}  # (class, chain depth) -> kept_parameters
        self._digest: Optional[str] = None  # ``digest``, once
        self.project = project

    def digest(self) -> str:
        """``ModuleSummary.digest``, computed once: a run checking the cache entries of many
        files asks it of the same summary each time (Lightning's partial run: 36 times for
        boring_classes.py, 25 ms of JSON serialisation in all)."""
        if self._digest is None:
            self._digest = self.summary.digest()
        return self._digest

    def global_value(self, name: str, depth: int) -> "Value":
        """The value of a module-level name, as another module importing it sees it."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.values import Origin, Possible, Value

        bindings = self.index.module_scope.bindings.get(name, [])
        if not bindings and self.summary.stars and name not in self._in_progress:
            self._in_progress.add(name)
            try:
                starred = self.resolver.starred(name, depth)
            finally:
                self._in_progress.discard(name)
            return starred if starred is not None else Value.unknown("import")
        if not bindings or name in self._in_progress:
            return Value.unknown("import")
        self._in_progress.add(name)
        try:
            options = []
            value = Value.unknown("import")
            for binding in bindings:
                value = self.resolver.resolve_binding(binding, name, END, depth + 1)
                if value.is_unknown:
                    return Value.unknown(value.source or "import")
                line = binding.site.line if binding.kind in ("assign", "unpack", "aug") else None
                origin = Origin(f"{name} in {self.module_name or self.path}", self.path, line)
                options.extend(
                    p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ()
                )
            return Value(tuple(options), value.source)
        finally:
            self._in_progress.discard(name)

    def init_attribute(self, name: str, attr: str, depth: int) -> Optional[Tuple[str, str, int, "Value"]]:
        """What class ``name``'s ``__init__`` stores in ``self.attr`` (``ClassRecord.init_attrs``),
        for a subclass's methods: ("param", parameter, position after self or -1, the value of
        its default as a configurable value) or ("value", "", -1, the value, resolved here).
        None when the class does not set it that way."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import Origin, Possible, Value

        record = self._classes_by_name.get(name)
        for entry in record.init_attrs if record is not None else ():
            if entry[0] != attr:
                continue
            _attr, kind, text, position, default, line = entry
            if kind == "param" and not default:
                return ("param", text, position, Value.unknown("parameter"))
            node = parse_expression(default if kind == "param" else text, line)
            value = self.resolver.resolve(node, END, depth + 1) if node is not None else Value.unknown("import")
            if value.is_unknown:
                return (kind, text if kind == "param" else "", position, Value.unknown(value.source or "config"))
            if kind == "param":
                origin = Origin(f"default of {name}'s parameter {text}", self.path, line)
                return ("param", text, position, Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), "parameter"))
            origin = Origin(f"self.{attr} set by {name}.__init__", self.path, line)
            options = tuple(p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ())
            return ("value", "", -1, Value(options, value.source))
        return None

    def class_attribute(self, name: str, attr: str, depth: int) -> Optional["Value"]:
        """The value of class ``name``'s attribute ``attr`` when it holds one for the whole run
        (``ClassRecord.class_attrs``), resolved here; None when the class does not keep it so."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import Origin, Possible, Value

        record = self._classes_by_name.get(name)
        for kept, text, line in record.class_attrs if record is not None else ():
            if kept != attr:
                continue
            node = parse_expression(text, line)
            value = self.resolver.resolve(node, END, depth + 1) if node is not None else Value.unknown("config")
            if value.is_unknown:
                return Value.unknown(value.source or "config")
            origin = Origin(f"class attribute {name}.{attr}", self.path, line)
            return Value(tuple(p if p.origin is not None else Possible(p.value, origin, p.guards) for p in value.options or ()), value.source)
        return None

    def setattr_config(self, name: str, depth: int):
        """Class ``name`` as a keyword-setting config (``ClassRecord.setattr_config``): (mode,
        checked, ((attr, Value of the class attribute), ...), names left unknown), each default
        resolved here; None when the class is not one."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import Origin, Possible, Value

        record = self._classes_by_name.get(name)
        shape = record.setattr_config if record is not None else None
        if shape is None:
            return None
        mode, checked, fields, unknown = shape
        entries = []
        for attr, text, line in fields:
            node = parse_expression(text, line)
            value = self.resolver.resolve(node, END, depth + 1) if node is not None else Value.unknown("config")
            if not value.is_unknown:
                origin = Origin(f"class attribute {name}.{attr}", self.path, line)
                value = Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), value.source)
            entries.append((attr, value))
        return mode, checked, tuple(entries), unknown

    def exports(self, name: str, depth: int) -> Optional[bool]:
        """Whether ``from <this module> import *`` binds ``name`` (None: unknown): a literal
        ``__all__`` decides; without one, the module's public names, its own bindings and those
        its star imports bind (a package's submodule may be bound too: unknown)."""
        names = self.summary.all_names
        if names is not None:
            return None if names == ("*",) else name in names
        if name.startswith("_"):
            return False
        if self.index.module_scope.bindings.get(name):
            return True
        if name in self._in_progress or depth > 24:
            return None
        unknown = False
        self._in_progress.add(name)
        try:
            for written, _conditional in self.summary.stars:
                module = self.resolver.absolute(written)
                if not module or not self.resolver.project.module_exists(module):
                    unknown = True
                    continue
                found = self.resolver.project.star_exports(module, name, depth + 1, self.path)
                if found:
                    return True
                unknown = unknown or found is None
        finally:
            self._in_progress.discard(name)
        if unknown or (self.summary.is_package and self.resolver.project.module_exists(f"{self.module_name}.{name}")):
            return None
        return False

    def is_loader_class(self, name: str, depth: int) -> Optional["LoaderClass"]:
        """For a class of this module deriving from a torch loader: the loader it constructs.
        Without ``__init__`` (or with ``__init__(self, *args, **kwargs)`` that cannot be read)
        it keeps its base's signature; an ``__init__`` that passes its arguments on to
        ``super().__init__`` (``subclasses.read_init``) adds its own level to the chain. None
        when the class is no loader, or its mapping cannot be read."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.subclasses import UNREADABLE, passes_through
        from dl_lint.analysis.syntax import parse_expression

        if name in self._loader_classes:
            return self._loader_classes[name]
        self._loader_classes[name] = None  # cycle guard
        record = self._classes_by_name.get(name)
        result = None
        if record is not None and (record.keeps_signature or (record.init is not None and record.init != UNREADABLE)):
            mapped = record.init is not None and record.init != UNREADABLE
            bases = record.bases
            if mapped and record.init[3] == "super":
                bases = bases[:1]  # super().__init__ is the first base's
            elif mapped:
                bases = tuple(b for b in bases if "".join(b.split()) == "".join(record.init[3].split()))[:1]
            for text in bases:
                base = parse_expression(text, record.line)
                found = self.resolver.loader_of(base, END, depth + 1) if base is not None else None
                if found is not None and not found.preargs:
                    result = found
                    if mapped and not passes_through(record.init):
                        result = found.replace(chain=(self._signature(record),) + found.chain)
                    break
        self._loader_classes[name] = result
        return result

    def kept_parameters(self, name: str, depth: int = 0) -> Tuple[Tuple[str, int], ...]:
        """DL202: the parameters of class ``name``'s constructor an instance keeps, so pickles
        with itself: (name, position after self or -1). Those its own ``__init__`` stores on
        self (``ClassRecord.init_stores``), and those it passes on to its base's ``__init__``
        that the base keeps, read as loader subclasses are (``subclasses.read_init``: a
        parameter passed by keyword or position, or a keyword ``**kwargs`` passes through);
        without an ``__init__`` (or with ``__init__(self, *args, **kwargs)`` passing both on)
        the base's own. The base is the first one (the ``__init__`` that runs): a project class,
        read the same way, or a torchvision dataset (``libraries.TORCHVISION_KEEPING``, read in
        its source). A base's parameter is not counted when the class sets that attribute on
        self in any method (``self.transform = ...``: replaced, maybe by something picklable),
        nor anything when it defines ``__getstate__``/``__reduce__`` (it decides what is
        pickled). Memoized per class and ``depth`` (the steps of the base chain so far: a chain
        read from its middle stops sooner, and that shorter answer must not stand for the
        whole chain's when the class is asked again from the start)."""
        key = (name, depth)
        if key in self._kept:
            return self._kept[key]
        self._kept[key] = ()  # cycle guard
        record = self._classes_by_name.get(name)
        found: Tuple[Tuple[str, int], ...] = ()
        if record is not None:
            found = self._kept_by(record, depth)
        self._kept[key] = found
        return found

    def _kept_by(self, record, depth: int) -> Tuple[Tuple[str, int], ...]:
        from dl_lint.analysis.datasets import PICKLE_METHODS
        from dl_lint.analysis.subclasses import UNREADABLE, passes_through

        methods = {m.name for m in record.methods}
        if methods.intersection(PICKLE_METHODS):
            return ()
        own = tuple(record.init_stores)
        if not record.bases or depth > 8:
            return own
        mapped = record.init is not None and record.init != UNREADABLE
        if "__init__" in methods and not mapped:
            return own  # an ``__init__`` of its own that cannot be read: the base's stay unknown
        base_text = record.bases[0]
        if mapped and record.init[3] != "super":
            if "".join(base_text.split()) != "".join(record.init[3].split()):
                return own  # ``Other.__init__(self, ...)``: not the first base's
        base = self._base_kept(base_text, record.line, depth)
        if not base:
            return own
        replaced = set(record.assigns)
        if replaced & _TRANSFORM_ATTRIBUTES:
            replaced |= _TRANSFORM_ATTRIBUTES  # torchvision keeps transform in self.transforms too
        base = tuple((n, p) for n, p in base if n not in replaced)
        if "__init__" not in methods or passes_through(record.init):
            inherited = base
        else:
            inherited = _passed_on(record.init, base)
        return tuple(dict.fromkeys(own + inherited))

    def _base_kept(self, text: str, line: int, depth: int) -> Tuple[Tuple[str, int], ...]:
        """What the base written ``text`` keeps of its constructor's parameters."""
        from dl_lint.analysis.libraries import TORCHVISION_KEEPING
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import External, FunctionRef

        node = parse_expression(text, line)
        if node is None:
            return ()
        single = self.resolver.resolve(node, END, depth + 1).single
        target = single.value if single is not None else None
        if isinstance(target, External):
            return TORCHVISION_KEEPING.get(target.qualname, ())
        if isinstance(target, FunctionRef) and target.kind == "class":
            lookup = getattr(self.project, "kept_parameters", None)
            return lookup(target.module, target.name, target.path, depth + 1) if lookup is not None else ()
        return ()

    def _signature(self, record) -> "Signature":
        """The mapping of a loader class of this module, its defaults and the values it passes
        resolved here (at module level: where defaults are evaluated)."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.subclasses import Item, build_signature
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import FunctionRef, Origin, Possible, Value

        label = record.name
        line = record.init[8]

        def resolved(text: str, origin: Origin) -> Optional[Item]:
            node = parse_expression(text, line)
            if node is None:
                return None
            value = self.resolver.resolve(node, END)
            if value.options is not None:
                value = Value(tuple(Possible(p.value, p.origin or origin, p.guards) for p in value.options), value.source, value.aliases)
            return Item(value, code=text)

        def default(param: str, text: str) -> Optional[Item]:
            return resolved(text, Origin(f"default of {label}'s parameter {param}", self.path, record.line))

        def passed(keyword: str, text: str) -> Optional[Item]:
            what = f"passed by {label}.__init__" + (f" as {keyword}=" if keyword else "")
            return resolved(text, Origin(what, self.path, line))

        def lambda_item(row: int) -> Item:
            ref = FunctionRef("lambda", self.module_name, "<lambda>", row, self.path)
            return Item(Value.known(ref, Origin(f"built in {label}.__init__", self.path, row)), code="lambda")

        key = (f"{self.module_name}.{record.name}" if self.module_name else record.name, self.path)
        return build_signature(label, key, record.init, passed, lambda_item, default)

    def class_record(self, name: str):
        """The summary's own record of a class (``summary.ClassRecord``), unbuilt."""
        return self._classes_by_name.get(name)

    def class_facts(self, name: str) -> Optional["ClassFacts"]:
        if name not in self._class_facts:
            self._class_facts[name] = self._build_class_facts(name)
        return self._class_facts[name]

    def _build_class_facts(self, name: str) -> Optional["ClassFacts"]:
        from dl_lint.analysis.datasets import ClassFacts
        from dl_lint.analysis.datasets import RNG_QUALNAMES
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.model import Location

        record = self._classes_by_name.get(name)
        if record is None:
            return None
        bases = []
        for text in record.bases:
            node = parse_expression(text, record.line)
            bases.append(self._describe(node, text))
        rngs = set()
        for attr, callee_text in record.init_rngs:
            callee = parse_expression(callee_text, record.line)
            value = self.resolver.resolve(callee, END) if callee is not None else None
            if value is not None and value.single is not None and getattr(value.single.value, "qualname", None) in RNG_QUALNAMES:
                rngs.add(attr)
        shape = None
        if record.iter_shape is not None:
            row, indent, srow, scol, erow, ecol, text = record.iter_shape
            shape = (row, indent, Location(srow, scol), Location(erow, ecol), text)
        return ClassFacts(
            name=name,
            module=self.module_name,
            path=self.path,
            line=record.line,
            bases=tuple(bases),
            methods={m.name: (m.shards, frozenset(m.self_calls), *self._targets(m.called)) for m in record.methods},
            init_containers=frozenset(record.init_containers),
            getitem_reads=frozenset(record.getitem_reads),
            init_rngs=frozenset(rngs),
            draws=frozenset(record.draws),
            cuda_methods=frozenset(record.cuda_methods),
            iter_shape=shape,
            sample=record.sample,
            unpicklable=self._unpicklable(record),
            returned=self._returned(record),
            held_none=self.held_when_none(name),
            held_default=self.held_when_none(name, default=True),
            init_stores=tuple(record.init_stores),
            passes={m.name: m.passes for m in record.methods if m.passes},
            init_relays=record.init_relays,
        )

    def _unpicklable(self, record) -> Tuple[Tuple[str, str, str, int], ...]:
        """DL202: the attributes ``__init__`` sets to values holding a lambda or a local
        function, as ``pickling.held_callable`` reads them in this module's scope."""
        from dl_lint.analysis.pickling import held_callable
        from dl_lint.analysis.syntax import parse_expression

        out = []
        for attr, text, line, local in record.init_held:
            node = parse_expression(text, line)
            if node is None:
                continue
            found = held_callable(
                node,
                self.path,
                self._handed_lambdas,  # a name of __init__ is not this scope's: unknown
                lambda func: self._qualname(func),
                local,
            )
            if found is not None:
                out.append((attr, found[0], found[1], found[2]))
        out.extend(self._handed_to_base(record))
        return tuple(out)

    def _handed_lambdas(self, node: ast.AST) -> object:
        """What a construction ``__init__`` keeps is, read for the lambdas written in its
        arguments only (``self.enc = Encoder(tokenize=lambda x: x.split())``: an ``Encoder``
        that keeps a lambda when its constructor, or its base's, keeps ``tokenize``); every
        other argument stays unknown (``__init__``'s names are not this scope's). None for
        anything else, and for a call with ``*``/``**`` (``Resolver._handed_callable`` reads
        none of those)."""
        from dl_lint.analysis.resolve import handed_arguments
        from dl_lint.analysis.scopes import END

        if not isinstance(node, ast.Call) or not any(isinstance(a, ast.Lambda) for _, _, a in handed_arguments(node) or ()):
            return None
        blank = ast.Name("__dl_lint_unknown__", ast.Load())
        only = ast.Call(
            node.func,
            [a if isinstance(a, ast.Lambda) else blank for a in node.args],
            [ast.keyword(k.arg, k.value if isinstance(k.value, ast.Lambda) else blank) for k in node.keywords],
        )
        single = self.resolver.resolve(ast.copy_location(only, node), END).single
        return single.value if single is not None else None

    def _handed_to_base(self, record) -> List[Tuple[str, str, str, int]]:
        """DL202: the lambdas ``__init__`` hands its base's ``__init__`` for a parameter the base
        keeps (``super().__init__(root, target_transform=lambda x: x - 1)``, or a name that is a
        lambda on every path there: ``subclasses.read_init``'s "lambda" arguments), so every
        instance keeps one: (the base's parameter, "a lambda", path, line). Not when the class
        sets that attribute itself in some method (replaced, maybe by something picklable), nor
        for a class that decides what it pickles (``__getstate__``/``__reduce__``)."""
        from dl_lint.analysis.datasets import PICKLE_METHODS
        from dl_lint.analysis.subclasses import UNREADABLE

        init = record.init
        if init is None or init == UNREADABLE or not record.bases or not any(e[2] == "lambda" for e in init[4]):
            return []
        if any(m.name in PICKLE_METHODS for m in record.methods):
            return []
        if init[3] != "super" and "".join(record.bases[0].split()) != "".join(init[3].split()):
            return []  # ``Other.__init__(self, ...)``: not the first base's
        base = self._base_kept(record.bases[0], record.line, 0)
        if not base:
            return []
        replaced = set(record.assigns)
        if replaced & _TRANSFORM_ATTRIBUTES:
            replaced |= _TRANSFORM_ATTRIBUTES
        out = []
        index: Optional[int] = 0
        for kind, keyword, how, payload in init[4]:
            name = None
            if kind == "pos" and index is not None:
                name = next((n for n, p in base if p == index), None)
                index += 1
            elif kind == "*":
                index = None
            elif kind == "kw":
                name = keyword if any(n == keyword for n, _ in base) else None
            if how == "lambda" and name is not None and name not in replaced:
                out.append((name, "a lambda", self.path, int(payload)))
        return out

    def held_when_none(self, name: str, default: bool = False) -> Tuple[Tuple[Any, ...], ...]:
        """DL202: the lambdas or local functions class ``name``'s ``__init__`` keeps on the path a
        test of a parameter selects (``ClassRecord.init_held_none``), as ``held_callable`` reads
        them in this module's scope: (parameter, position after self or -1, attribute, (what,
        path, line), (kind, the mark of the parameter's default)). None of them for a class that decides what it pickles
        (``__getstate__``/``__reduce__``). ``default``: those it keeps when a parameter whose
        default is a lambda is left out (``ClassRecord.init_held_default``) instead."""
        from dl_lint.analysis.datasets import PICKLE_METHODS
        from dl_lint.analysis.pickling import held_callable
        from dl_lint.analysis.syntax import parse_expression

        record = self._classes_by_name.get(name)
        entries = (getattr(record, "init_held_default", ()) if default else record.init_held_none) if record is not None else ()
        if not entries or any(m.name in PICKLE_METHODS for m in record.methods):
            return ()
        out = []
        for attr, text, line, local, param, position, *path in entries:
            node = parse_expression(text, line)
            found = held_callable(node, self.path, lambda _: None, lambda func: self._qualname(func), local) if node is not None else None
            if found is not None:
                out.append((param, position, attr, found, *path))
        return tuple(out)

    def _returned(self, record) -> Tuple[Tuple[str, str, str, int, str], ...]:
        """DL202: ``self.attr = self.m(...)`` in ``__init__`` where every ``return`` of ``m``
        holds a lambda or a local function (``Compose([..., lambda image: ..., ...])``)."""
        from dl_lint.analysis.pickling import held_callable
        from dl_lint.analysis.syntax import parse_expression

        if not record.method_returns:
            return ()
        returns = {name: (values, local) for name, values, local in record.method_returns}
        out = []
        for attr, callee, _line in record.init_objects:
            method = callee[5:] if callee.startswith("self.") else ""
            if method not in returns:
                continue
            values, local = returns[method]
            held = []
            for text, line in values:
                node = parse_expression(text, line)
                found = held_callable(node, self.path, lambda name: None, self._qualname, local) if node is not None else None
                if found is None:
                    break
                held.append(found)
            if held and len(held) == len(values):
                out.append((attr, held[0][0], held[0][1], held[0][2], method))
        return tuple(out)

    def attribute_objects(self, name: str) -> Tuple[Tuple[str, str, str, str, int], ...]:
        """DL202: (attr, module, class, path, line) of each project class whose instance the
        ``__init__`` of class ``name`` builds and keeps (``self.extractor = Extractor(...)``,
        through aliases and imports: ``Extractor = ExtractorCV2``), resolved in this module
        when asked (the dataset rules ask only for a loader with workers)."""
        if name in self._objects:
            return self._objects[name]
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import FunctionRef

        self._objects[name] = ()
        record = self._classes_by_name.get(name)
        out = []
        results = []
        for attr, callee, line in record.init_objects if record is not None else ():
            if callee.startswith("self."):
                continue
            node = parse_expression(callee, line)
            single = self.resolver.resolve(node, END).single if node is not None else None
            ref = single.value if single is not None else None
            if isinstance(ref, FunctionRef) and ref.kind == "class" and ref.path:
                out.append((attr, ref.module, ref.name, ref.path, line))
            elif isinstance(ref, FunctionRef) and ref.kind == "function" and ref.path:
                results.append((attr, ref.module, ref.name, ref.path, line))
        self._objects[name] = tuple(out)
        self._results[name] = tuple(results)
        return self._objects[name]

    def attribute_results(self, name: str) -> Tuple[Tuple[str, str, str, str, int], ...]:
        """DL202: (attr, module, function, path, line) of each project function whose result the
        ``__init__`` of class ``name`` keeps (``self.transform = _build_transform(size)``),
        resolved with ``attribute_objects``."""
        self.attribute_objects(name)
        return self._results.get(name, ())

    def returned_held(self, name: str) -> Optional[Tuple[str, str, int]]:
        """DL202: (what, path, line) of the lambda or local function that every ``return`` of
        the module-level function ``name`` holds (``return T.Compose([..., T.Lambda(lambda img:
        ...)])``, ``return transform`` of a nested ``def``, as ``pickling.held_callable`` reads
        them in this module); None when one ``return`` may hand back something picklable."""
        if name in self._held_returns:
            return self._held_returns[name]
        from dl_lint.analysis.pickling import held_callable
        from dl_lint.analysis.syntax import parse_expression

        self._held_returns[name] = None
        record = self._functions_by_name.get(name)
        if record is None or record.returns_held is None:
            return None
        values, local = record.returns_held
        held = []
        for text, line in values:
            node = parse_expression(text, line)
            found = held_callable(node, self.path, lambda _: None, self._qualname, local) if node is not None else None
            if found is None:
                return None
            held.append(found)
        self._held_returns[name] = held[0] if held else None
        return self._held_returns[name]

    def _qualname(self, func) -> Optional[str]:
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.values import External

        single = self.resolver.resolve(func, END).single
        return single.value.qualname if single is not None and isinstance(single.value, External) else None

    def function_facts(self, name: str) -> Optional["FunctionFacts"]:
        from dl_lint.analysis.datasets import FunctionFacts

        if name not in self._function_facts:
            record = self._functions_by_name.get(name)
            targets = self._targets(record.called) if record is not None else (frozenset(), False)
            self._function_facts[name] = (
                FunctionFacts(
                    name=name,
                    module=self.module_name,
                    path=self.path,
                    line=record.line,
                    shards=record.shards,
                    calls=targets[0],
                    opaque=targets[1],
                    uses_cuda=record.uses_cuda,
                    reseeds=record.reseeds,
                    passes=record.passes,
                    collates=record.collates,
                )
                if record is not None
                else None
            )
        return self._function_facts[name]

    def transfers(self, name: str) -> Tuple[Tuple[str, int, int, int], ...]:
        """DL306: the parameters function ``name`` iterates, copying batches non-blocking."""
        record = self._functions_by_name.get(name)
        return record.transfers if record is not None else ()

    def transfer_calls(self, name: str) -> Tuple[Tuple[str, int, str, Tuple[int, ...]], ...]:
        """DL306: the imported functions function ``name``'s loops over a parameter hand the
        batches to (``summary.FunctionRecord.transfer_calls``)."""
        record = self._functions_by_name.get(name)
        return record.transfer_calls if record is not None else ()

    def parameter_copy(self, name: str, position: int, depth: int = 1) -> Optional[Tuple[str, int, int]]:
        """DL306: (path, row, column) of the non-blocking copy function ``name`` makes of its
        positional parameter ``position`` (``summary.FunctionRecord.copies``), or through an
        imported function it hands the parameter to (``.hands``, ``depth`` such steps), or None."""
        return self._record_copy(self._functions_by_name.get(name), position, depth)

    def method_copy(self, cls: str, method: str, position: int, depth: int = 1) -> Optional[Tuple[str, int, int]]:
        """DL306: as ``parameter_copy``, for method ``method`` of class ``cls`` defined in this
        module (position after self), or the project base class it inherits it from
        (``method_home``); None when the method cannot be found that way."""
        home = self.method_home(cls, method)
        if not home:
            return None
        module, record = home
        return module._record_copy(record, position, depth)

    def method_transfer(self, cls: str, method: str, position: int) -> Optional[Tuple[str, int, int]]:
        """DL306: where method ``method`` of class ``cls`` (its own or inherited from a project
        base, ``method_home``) copies non-blocking the batches of the parameter at ``position``
        (after self) it iterates; None when it does not, or cannot be told."""
        home = self.method_home(cls, method)
        if not home:
            return None
        module, record = home
        for _name, index, row, column in record.transfers:
            if index == position and index >= 0:
                return module.path, row, column
        return None

    def method_home(self, cls: str, method: str, depth: int = 6):
        """(the SummaryModule, its ``MethodRecord``) of the ``def`` a lookup of ``method`` on an
        instance of class ``cls`` of this module finds (``method_owner``, less the class)."""
        found = self.method_owner(cls, method, depth)
        return found[::2] if found else found

    def method_owner(self, cls: str, method: str, depth: int = 6):
        """(the SummaryModule, the class's name, its ``MethodRecord``) of the ``def`` a lookup of
        ``method`` on an instance of class ``cls`` of this module finds: the class's own, else
        its base's, followed while the base is a project class and the only one (Python's C3
        order over several bases is not followed) and while the classes on the way bind the
        name by nothing but a ``def``. None when that cannot be told (a library base such as
        ``nn.Module``, which may define the name); ``()`` when every class on the way is seen
        and none defines it."""
        record = self._classes_by_name.get(cls)
        if record is None or method in record.other_names:
            return None
        found = next((m for m in record.methods if m.name == method), None)
        if found is not None:
            return self, cls, found
        if depth <= 0:
            return None
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.syntax import parse_expression
        from dl_lint.analysis.values import FunctionRef

        bases = [
            t for t in record.bases if "".join(t.split()) not in ("object", "Generic", "typing.Generic") and not t.startswith(("Generic[", "typing.Generic["))
        ]
        if len(bases) > 1:
            return None  # several bases: Python's C3 order is not followed here
        for text in bases:
            node = parse_expression(text, record.line)
            value = self.resolver.resolve(node, END).single if node is not None else None
            ref = value.value if value is not None else None
            if not isinstance(ref, FunctionRef) or ref.kind != "class":
                return None  # a library base (it may define the method) or an unknown one
            module = self.project.summary(ref.module, ref.path or self.path)
            if module is None or (ref.path and module.path != ref.path):
                return None
            home = module.method_owner(ref.name, method, depth - 1)
            if home != ():
                return home  # found, or unknown
        return ()

    def _record_copy(self, record, position: int, depth: int) -> Optional[Tuple[str, int, int]]:
        if record is None:
            return None
        for index, row, column in record.copies:
            if index == position:
                return self.path, row, column
        if depth > 0:
            for index, text, positions in record.hands:
                if index == position:
                    where = self.callee_copy(text, positions, depth - 1)
                    if where is not None:
                        return where
        return None

    def callee_copy(self, text: str, positions: Tuple[int, ...], depth: int = 0) -> Optional[Tuple[str, int, int]]:
        """DL306: where the function this module imports as ``text`` (``to_gpu``,
        ``utils.to_gpu``) copies one of the arguments at ``positions``; None when it does not
        certainly resolve to one module-level function of the project that does."""
        head, _, attr = text.partition(".")
        value = self.global_value(head, 0).single
        ref = value.value if value is not None else None
        if attr:
            from dl_lint.analysis.values import ModuleRef

            if not isinstance(ref, ModuleRef):
                return None
            found = self.project.summary(ref.module, self.path)
            ref = found.global_value(attr, 0).single if found is not None else None
            ref = ref.value if ref is not None else None
        return self.project.function_copy(ref, positions, self.path, depth)

    def _targets(self, called: Sequence[str]) -> Tuple[FrozenSet[str], bool]:
        """The project functions and methods these calls lead to, and whether some call
        cannot be followed (``Resolver.call_targets``)."""
        keys, opaque = self.resolver.call_targets(called)
        return frozenset(keys), opaque

    def _describe(self, node, text: str) -> FrozenSet[str]:
        """What a base-class expression denotes: qualified names, ``module.Class@path`` for
        project classes, or its source text when unknown."""
        from dl_lint.analysis.scopes import END
        from dl_lint.analysis.values import External, FunctionRef

        if node is None:
            return frozenset({"".join(text.split())})
        value = self.resolver.resolve(node, END)
        names = set()
        for p in value.options or ():
            if isinstance(p.value, External):
                names.add(p.value.qualname)
            elif isinstance(p.value, FunctionRef) and p.value.kind == "class":
                qualname = f"{p.value.module}.{p.value.name}" if p.value.module else p.value.name
                names.add(f"{qualname}@{p.value.path}")
        return frozenset(names) or frozenset({self.resolver.code(node)})


DEFAULT_MAX_FILE_SIZE = 32 * 1024 * 1024  # ``config.DEFAULT_MAX_FILE_SIZE``, for a Project made without settings


class Project:
    def __init__(
        self,
        root: Optional[Path],
        extra_loaders: Sequence[str] = (),
        store: Optional[SummaryStore] = None,
        max_file_size: Optional[int] = DEFAULT_MAX_FILE_SIZE,
    ) -> None:
        from dl_lint.analysis.loaders import LOADER_QUALNAMES

        self.root = root
        # Every file of the project is read through this door (``dl_lint.reading``): modules of
        # at most ``max_file_size`` bytes, configs inside the root only.
        self.door = Door(root)
        self.max_file_size = max_file_size
        # Unsaved editor buffers (absolute path -> bytes): they replace the files on disk.
        self.overlays: Dict[str, bytes] = {}
        self.extra_loaders = tuple(extra_loaders)
        self.loader_names = LOADER_QUALNAMES | frozenset(extra_loaders)
        self.store = store
        self.hash_of: Optional[Callable[[str], Optional[str]]] = None  # content hashes (the results cache)
        # Set in worker processes (``dl_lint.workers.SharedSummaries``): summaries of modules
        # outside the shares, made once for all processes.
        self.shared: Optional[Any] = None
        self._paths: Optional[Dict[str, List[Path]]] = None
        self._summaries: Dict[str, Optional[SummaryModule]] = {}  # abspath -> summary (None: unreadable)
        self._names: Dict[str, str] = {}  # abspath -> the module name it was summarised as
        self._callers: Dict[Tuple[str, str], Optional[list]] = {}  # ``callers_of``, per function
        self._roots: Dict[str, Tuple[List[str], Tuple[str, ...]]] = {}  # ``import_roots``, per file
        self._flows: Dict[str, Any] = {}  # ``import_flow``, per root file
        self._held_words: Dict[Tuple[str, bytes], bool] = {}  # ``holds_word``
        self._attr_writes: Dict[str, Set[str]] = {}  # ``writes_attribute``: attributes written, per module
        self._file_writes: Dict[str, Set[str]] = {}  # ``_written_attributes`` of each file's bytes (``_writes_in``)
        self._item_writes: Dict[Tuple[str, Tuple[str, ...]], bool] = {}  # ``writes_item``: per (module, words)
        self._self_store_counts: Dict[str, Dict[str, int]] = {}  # ``stores_once``, per file
        self._class_binds: Dict[Tuple[str, str, str], Optional[bool]] = {}  # ``stores_once``: (file, attr, class) -> bound in its body
        self._caller_files: Dict[Tuple[str, str], List[Tuple[str, bool]]] = {}  # ... and the files each rests on
        self._non_blocking: Optional[bool] = None  # ``writes_non_blocking``, once per run
        self._known_names: Set[str] = set()
        self._analyses: "OrderedDict[str, ModuleAnalysis]" = OrderedDict()  # parsed modules, LRU
        self._live_bytes = 0
        self._dropped: List["ModuleAnalysis"] = []
        self.budget = LIVE_SOURCE_BUDGET
        self.parses: Dict[str, int] = {}  # abspath -> times parsed in this run
        self._new_summaries: Dict[str, Tuple[Optional[str], "ModuleSummary"]] = {}  # for the store
        # Linted modules whose summary no one has asked for yet (abspath -> (analysis, content
        # hash)): it is built when an importer, a dependency digest or the store needs it.
        self._pending: Dict[str, Tuple["ModuleAnalysis", Optional[str]]] = {}
        self._graph: Optional["SignalGraph"] = None
        self._file_keys: Optional[Set[str]] = None
        self._root_prefix = os.path.join(os.fspath(root.absolute()), "") if root is not None else ""
        self._cwd = os.getcwd()
        # Bytes of files the run already read (absolute path -> bytes), so the index does not
        # read them again; the pipeline fills it.
        self.sources: Dict[str, bytes] = {}
        self._raw_imports: Dict[str, Tuple] = {}
        self._datasets: Optional["DatasetIndex"] = None
        self._seeded: Optional[Sequence[Path]] = None
        _package_of.cache_clear()  # folders may have gained or lost __init__.py since the last run
        # Dependency tracking: which module (abs path) asked (``_source``), what each module's
        # answers were built from (``_edges``), and what the file being linted touched.
        self._source: Optional[str] = None
        self._edges: Dict[str, Set[str]] = {}
        self._uses: Dict[str, Set[str]] = {}  # module -> {"files", "graph"}
        self._recorder: Optional[Tuple[Set[str], Set[str]]] = None
        self._packages: Optional[Set[str]] = None
        self._endings: Optional[Dict[str, List[Path]]] = None  # ``_ending_paths``
        self._reaches: Dict[Tuple[str, str], bool] = {}
        self._class_names: Dict[Tuple[str, Tuple[str, ...]], Tuple[bool, FrozenSet[str]]] = {}
        self._all_bytes: Optional[Any] = None  # every project file's (a WordIndex), when a name is judged
        self._lone: Dict[Tuple[str, str], Optional[int]] = {}  # (file, name) -> lone_class_line
        # YAML config files (absolute path -> (text, tree)) and composed Hydra configs.
        self._config_files: Dict[Tuple[str, str], Tuple[Optional[str], Any]] = {}
        self._config_bytes: Dict[str, Any] = {}  # absolute path -> bytes or the Refused
        self.config_memo: Dict[Any, Any] = {}  # what config readers derive from those bytes, once per run
        self._composed: Dict[Any, Any] = {}
        self._composed_reads: Dict[Any, Tuple[str, ...]] = {}
        self._config_errors: Dict[str, Set[Any]] = {}  # Python file -> broken YAML files it reached
        # Answers of earlier runs (the results cache): (name, extra loaders) -> answer or None.
        self.remembered: Optional[Callable[[Tuple[str, Tuple[str, ...]]], Optional[Tuple[bool, FrozenSet[str]]]]] = None
        self._container_files: Optional[Dict[str, bytes]] = None
        self._definitions: Optional[Tuple["RunDefinition", ...]] = None
        self._measured: Optional[list] = None
        self._yacs: Optional[Any] = None  # the yacs defaults and YAML runs (``yacs_value``)
        self._detectron2: Optional[Any] = None  # detectron2's config runs (``detectron2_workers``)

    @property
    def datasets(self) -> "DatasetIndex":
        """The dataset index over the project's classes (built when first asked for)."""
        if self._datasets is None:
            from dl_lint.analysis.datasets import DatasetIndex

            self._datasets = DatasetIndex(
                self.class_facts, self.function_facts, self.attribute_objects, self.attribute_results, self.returned_held
            )
        return self._datasets

    # -- the project's environment: its Pythons ---------------------------------------------------
    def python_metadata(self, path: str) -> Tuple[Optional[str], Tuple[str, ...]]:
        """``requires-python`` and the classifiers of the project the file at ``path`` belongs to
        (its nearest pyproject.toml; DL202/DL203: whether the start method is certainly spawn or
        forkserver). The answer rests on that pyproject.toml's bytes."""
        from dl_lint.config import project_metadata

        found, requires, classifiers = project_metadata(os.path.dirname(absolute_path(path, self._cwd)))
        if found is not None:
            self._touch(os.path.abspath(found), content=True)
        return requires, classifiers

    def environment_key(self) -> str:
        """What of the project outside its Python files can change results (the root's
        packaging metadata, its run definitions): a results cache entry holds only while this
        is unchanged."""
        from dl_lint.config import project_metadata

        if self.root is None:
            return ""
        import hashlib

        files = sorted((path, hashlib.blake2b(data, digest_size=16).hexdigest()) for path, data in self.container_files().items())
        return repr((project_metadata(os.fspath(self.root.absolute())), files))

    # -- the project's environment: its containers (DL104) ----------------------------------------
    def container_files(self) -> Dict[str, bytes]:
        """The run definitions' files at the root (``analysis.containers``), read once per run."""
        if self._container_files is None:
            from dl_lint.analysis.containers import MAX_DEFINITION_BYTES, candidate_files, relevant

            found: Dict[str, bytes] = {}
            if self.root is not None:
                listings = getattr(self.store, "listings", None)  # the results cache's, if any
                paths, changed = candidate_files(os.fspath(self.root.absolute()), listings)
                if changed:
                    self.store.dirty = True
                for path in paths:
                    try:
                        data = self.door.read(path, MAX_DEFINITION_BYTES)
                    except Refused:
                        continue
                    if relevant(path, data):
                        found[path] = data
            self._container_files = found
        return self._container_files

    def run_definitions(self, path: str) -> Tuple["RunDefinition", ...]:
        """The containers that run this project's code and the /dev/shm each leaves, for a file
        under the root (none for a file outside it); parsed once per run."""
        if not self._root_prefix or not absolute_path(path, self._cwd).startswith(self._root_prefix):
            return ()
        if self._definitions is None:
            from dl_lint.analysis.containers import run_definitions

            self._definitions = run_definitions(self.container_files())
        return self._definitions

    def measured(self, path: str) -> Tuple[Optional[str], list]:
        """(the path of the file relative to the root, with /, the records of the root's
        ``dl-lint-measured.json`` (``dl_lint.remember``)) for a file under the root; (None, [])
        for a file outside it. The records file is read once per run, through the door."""
        key = absolute_path(path, self._cwd)
        if not self._root_prefix or not key.startswith(self._root_prefix):
            return None, []
        from dl_lint import remember

        file = os.path.join(os.fspath(self.root.absolute()), remember.FILENAME)
        self.read_config_file(file)  # a result that rests on it is redone when it changes
        if self._measured is None:
            data = self.read_config(file) if os.path.isfile(file) else None
            self._measured = (remember.parse(data) if data else None) or []
        return os.path.relpath(key, os.fspath(self.root.absolute())).replace(os.sep, "/"), self._measured

    # -- dependency tracking (for the results cache) ---------------------------------------------
    def record(self, touched: Set[str], uses: Set[str]) -> None:
        """Until ``stop_recording()``, add the modules touched (absolute paths) to ``touched``
        and what else is consulted ("files", "graph") to ``uses``."""
        self._recorder = (touched, uses)

    def stop_recording(self) -> None:
        self._recorder = None

    def read_config_file(self, path: str) -> None:
        self._touch(os.path.abspath(path), content=True)

    def _touch(self, key: str, content: bool = False) -> None:
        """``key`` was consulted: through its summary, or (``content``) through its bytes, on
        which the answer then rests whatever its summary says."""
        if content:
            self._use(f"content:{key}")
        if self._source is not None and self._source != key:
            self._edges.setdefault(self._source, set()).add(key)
        if self._recorder is not None:
            self._recorder[0].add(key)

    def _use(self, what: str) -> None:
        if self._source is not None:
            self._uses.setdefault(self._source, set()).add(what)
        if self._recorder is not None:
            self._recorder[1].add(what)

    def dependencies(self, touched: Iterable[str], uses: Iterable[str] = ()) -> Tuple[Set[str], Set[str]]:
        """The modules (absolute paths) reachable from ``touched`` through what each module's
        answers were built from, and what they used besides files: "files" (which files exist
        in the project), "graph" (the import graph of every project file)."""
        seen: Set[str] = set()
        used = set(uses)
        todo = list(touched)
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            used |= self._uses.get(key, set())
            todo.extend(self._edges.get(key, ()))
        return seen, used

    def seed_files(self, files: Sequence[Path]) -> None:
        """The files under the root, when the caller has already walked it with the defaults
        (saves a second walk of the same tree)."""
        if self._paths is None:
            self._seeded = files

    # -- modules --------------------------------------------------------------------------------
    def module_paths(self) -> Dict[str, List[Path]]:
        """Module name -> files, for every .py file under the root (built once, lazily). A name
        can have several files (scripts named ``data.py`` in different example folders)."""
        self._use("files")
        if self._paths is None:
            self._paths = {}
            for path in self.files():
                self._register_path(path)
        return self._paths

    def files(self) -> Sequence[Path]:
        """Every .py file under the root (walked once, lazily; empty without a root)."""
        if self._seeded is None:
            self._seeded = ()
            if self.root is not None:
                from dl_lint.discovery import discover

                try:
                    self._seeded = discover([self.root]).files[:MAX_PROJECT_FILES]
                except Exception:  # noqa: BLE001 - the index is best effort; linting goes on
                    pass
        return self._seeded[:MAX_PROJECT_FILES]

    def _register_path(self, path: Path) -> None:
        assert self._paths is not None
        text = os.fspath(path)
        if not text.endswith(".py"):
            return
        absolute = absolute_path(text, self._cwd)
        names = [module_name_for(absolute, absolute=True)]
        if self._root_prefix and absolute.startswith(self._root_prefix):
            parts = absolute[len(self._root_prefix) : -3].split(os.sep)
            if parts and parts[-1] == "__init__":
                parts.pop()
            if parts:
                names.append(".".join(parts))
                if parts[0] in ("src", "lib") and len(parts) > 1:
                    names.append(".".join(parts[1:]))
        for name in dict.fromkeys(names):
            self._paths.setdefault(name, []).append(path)

    def module_exists(self, module: str) -> bool:
        if not module:
            return False
        if module in self._known_names:
            return True
        paths = self.module_paths()
        if module in paths or self._ending_paths(module):
            return True
        if self._packages is None:  # every dotted prefix of a module name: namespace packages
            self._packages = set()
            for name in paths:
                parts = name.split(".")
                self._packages.update(".".join(parts[:i]) for i in range(1, len(parts)))
        return module in self._packages

    def _ending_paths(self, module: str) -> List[Path]:
        """The files of an import of two parts or more that no project module name answers,
        matched by the ending of their dotted name from the root: the folder above them was put
        on ``sys.path`` at run time (``sys.path.append(dirname(dirname(realpath(__file__))))``
        before ``from pythonProject.dataset import ...``, ``sys.path.insert(0, "../..")``,
        ``PYTHONPATH=src/lib``), as ``SignalGraph._ending`` matches them. A name one project
        module answers never looks here; ``_choose`` picks among several files."""
        if "." not in module:
            return []
        if self._endings is None:
            paths = self.module_paths()
            endings: Dict[str, Dict[Path, None]] = {}
            for name, files in paths.items():
                parts = name.split(".")
                for i in range(1, len(parts) - 1):
                    ending = ".".join(parts[i:])
                    if ending not in paths:
                        endings.setdefault(ending, {}).update(dict.fromkeys(files))
            self._endings = {ending: list(files) for ending, files in endings.items()}
        return self._endings.get(module, [])

    def module_path(self, module: str, near: str = "") -> Optional[str]:
        path = self._choose(module, near)
        if path is not None:
            return str(path)
        for key, name in self._names.items():  # a linted file outside the root (piped source)
            if name == module:
                return key
        return None

    def _choose(self, module: str, near: str) -> Optional[Path]:
        """The file of ``module`` as seen from the file ``near``: an exact path wins, then the
        candidate sharing the longest folder prefix with ``near`` (a sibling script), then the
        shallowest (the package at the root, as an install of the project finds it: fastMRI's
        ``fastmri/`` rather than ``banding_removal/fastmri/`` for ``fastmri_examples/``)."""
        candidates = self.module_paths().get(module) or self._ending_paths(module)
        if not candidates:
            return None
        if len(candidates) == 1 or not near:
            return candidates[0]
        near_abs = os.path.abspath(near)
        for candidate in candidates:
            if os.path.abspath(candidate) == near_abs:
                return candidate
        near_dir = os.path.dirname(near_abs)
        return max(candidates, key=lambda c: (len(os.path.commonpath([near_dir, os.path.abspath(c)])), -os.path.abspath(c).count(os.sep)))

    # -- parsing and summaries --------------------------------------------------------------------
    def parse(
        self,
        path: str,
        module: str,
        source: str,
        *,
        is_package: Optional[bool] = None,
        extra_loaders: Optional[Sequence[str]] = None,
        tree: Optional[ast.AST] = None,
    ) -> "ModuleAnalysis":
        """Parse ``source`` (the file at ``path``) into a ModuleAnalysis and keep it. Raises
        ``syntax.ParseFailure``. ``tree``: the tree of that very source, parsed earlier in the
        run (an analysis under other settings is built again, not parsed again)."""
        from dl_lint.analysis.module import ModuleAnalysis
        from dl_lint.analysis.syntax import parse

        key = os.path.abspath(path)
        if tree is None:
            tree = parse(source)
            self.parses[key] = self.parses.get(key, 0) + 1
        package = os.path.basename(path) == "__init__.py" if is_package is None else is_package
        extra = self.extra_loaders if extra_loaders is None else tuple(extra_loaders)
        analysis = ModuleAnalysis(tree, source, path, module, package, _Tracked(self, key), extra)
        self._name(key, module)
        self._keep(key, analysis)
        return analysis

    def may_name_loader_class(self, name: str, extra_names: Sequence[str] = ()) -> bool:
        """Whether a class-like callee name (``InfiniteDataLoader``, ``DataLoaderConfiguration``)
        can be a loader class here, judged from the bytes of every project file
        (``prefilter.may_name_loader_class``): a file whose only evidence is such names need not
        be parsed when none can. Without a root, or over the file cap, the project is not known
        in full: yes. A no rests on the files that hold the names it looked up ("word:NAME":
        the results cache re-checks only the files that changed for them)."""
        if self.root is None:
            return True
        files = self.files()
        if len(files) >= MAX_PROJECT_FILES:
            return True
        key = (name, tuple(extra_names))
        found = self._class_names.get(key)
        if found is None and self.remembered is not None:
            found = self.remembered(key)  # an answer of an earlier run that still holds
            if found is not None:
                self._class_names[key] = found
        if found is None:
            from dl_lint.analysis.prefilter import WordIndex, may_name_loader_class

            if self._all_bytes is None:
                paths = dict.fromkeys(absolute_path(os.fspath(p), self._cwd) for p in files)
                paths.update(dict.fromkeys(self.sources))
                self._all_bytes = WordIndex([self.source_bytes(p) for p in paths])
            found = may_name_loader_class(name, (), extra_names, self._all_bytes)
            self._class_names[key] = found
        can, words = found
        if not can:  # a yes is followed by the resolver, which records what it reads
            for word in sorted(words):
                self._use(f"word:{word}")
        return can

    def name_answers(self) -> Dict[Tuple[str, Tuple[str, ...]], Tuple[bool, FrozenSet[str]]]:
        """The answers ``may_name_loader_class`` gave in this run (for the results cache)."""
        return dict(self._class_names)

    def source_bytes(self, path: str) -> bytes:
        """The bytes of a project file: held by the run (``sources``) or read from disk."""
        key = absolute_path(path, self._cwd)
        data = self.sources.get(key)
        if data is None:
            data = self.module_bytes(key) or b""
        return data

    def module_bytes(self, path: str) -> Optional[bytes]:
        """A project module's bytes through the guarded door (a regular file of at most
        ``max_file_size`` bytes; the walker found it inside the root), None when refused."""
        from dl_lint.files import read_module

        if path in self.overlays:
            return self.overlays[path]
        try:
            return read_module(path, self.max_file_size)
        except Refused:
            return None

    def config_bytes(self, path: str) -> bytes:
        """The bytes of a config file the analysis reads (YAML, JSON, a ``_base_`` module),
        through the door: inside the root, a regular file of at most ``reading.MAX_CONFIG_BYTES``;
        else ``Refused``. Read once per run (a refusal too)."""
        found = self._config_bytes.get(path)
        if found is None:
            try:
                found = self.door.read(path)
            except Refused as exc:
                found = exc
            self._config_bytes[path] = found
        if isinstance(found, Refused):
            raise found
        return found

    def read_config(self, path: str) -> Optional[bytes]:
        """``config_bytes``, None when refused."""
        try:
            return self.config_bytes(path)
        except Refused:
            return None

    def raw_imports(self, path: str):
        """``raw_imports`` of a project file's bytes, computed once per run."""
        key = absolute_path(path, self._cwd)
        found = self._raw_imports.get(key)
        if found is None:
            kept = getattr(self.store, "imports", None)  # the results cache's, by content hash
            content_hash = self.hash_of(key) if kept is not None and self.hash_of is not None and key not in self.sources else None
            entry = kept.get(key) if content_hash is not None else None
            if isinstance(entry, list) and len(entry) == 3 and entry[0] == content_hash:
                try:
                    found = (tuple(entry[1]), tuple((written, tuple(names)) for written, names in entry[2]))
                except (TypeError, ValueError):
                    found = None
            if found is None:
                found = raw_imports(self.source_bytes(key))
                if content_hash is not None:
                    kept[key] = _imports_entry(content_hash, found)
                    self.store.dirty = True
            self._raw_imports[key] = found
        return found

    def keep_imports(self, key: str, content_hash: str, data: Optional[bytes]) -> None:
        """Give the results cache the imports of the file at ``key`` (absolute), whose bytes
        hash to ``content_hash``: those this run read already, else read from ``data`` (None:
        the run does not hold them, and nothing is kept)."""
        found = self._raw_imports.get(key)
        if found is None:
            if data is None:
                return
            found = raw_imports(data)
        self.store.imports[key] = _imports_entry(content_hash, found)
        self.store.dirty = True

    def file_keys(self) -> Set[str]:
        """Absolute paths of the .py files the index reads from disk."""
        if self._file_keys is None:
            self._file_keys = {absolute_path(os.fspath(p), self._cwd) for p in self.files()}
        return self._file_keys

    def _name(self, key: str, module: str) -> None:
        if key not in self._names:
            self._names[key] = module
            self._known_names.add(module)

    def writes_non_blocking(self) -> bool:
        """Whether some project file writes ``non_blocking=True`` (searched in bytes, the first
        hit ends it; once per run): without one no copy of the project can make DL306's case,
        and following a returned loader into its callers' loops (which resolves the objects
        the batches are handed to, loading their modules) is skipped.

        A yes rests on no file: it only lets the callers be read, and what they give rests on
        the files read (a copy found is in one of them; none found is what a no gives). A no
        rests on the files that change later: it holds while none of them writes the literal
        (``MENTION``, checked against the files changed since, as the names of a no of
        ``may_name_loader_class`` are), not on every file's bytes (the import graph's state,
        which any edit changes)."""
        if self._non_blocking is None:
            search = _NON_BLOCKING_TRUE.search

            def writes(data: bytes) -> bool:
                return b"non_blocking" in data and search(data) is not None

            # the bytes the run holds first (the files that mention a loader: copies are near
            # their loops), then each other file once (``module_paths`` names a file several times)
            held = self.sources
            self._non_blocking = any(writes(data) for data in held.values()) or any(
                writes(self.source_bytes(key))
                for key in dict.fromkeys(absolute_path(os.fspath(p), self._cwd) for p in self.files())
                if key.endswith(".py") and key not in held
            )
        if not self._non_blocking:
            self._use(f"{MENTION}{NON_BLOCKING_WORD}")
        return self._non_blocking

    def callers_of(self, path: str, name: str):
        """The calls of the module-level function ``name`` of the file at ``path`` made in the
        other modules of the project that import that module (the import graph, read from
        bytes; ``SignalGraph.importers``), each call resolved to that function: [(module
        analysis, call, site)]. Found once per function (DL206 and DL306 follow a loader a
        function returns to these callers); None past ``_MAX_CALLER_MODULES`` importers naming
        it (the answer would not be complete). ``name`` may be a module-level class: its calls
        are the constructions of its objects (DL206 follows a loader an object keeps to the
        reads of that attribute on them, ``epochs._instance_reads``).

        The answer rests on the files that hold a call of it (their bytes), on the set of
        project files, and on no file gaining a call: a new caller writes the name, and so
        does a module that comes to re-export it (a star import aside), so the answer holds
        while no file changed since mentions it (``MENTION``), as the names of a no of
        ``may_name_loader_class`` are checked. An edit elsewhere leaves it, and the results
        that rest on it, valid (depending on the import graph would re-judge them after any
        edit)."""
        key = (os.path.abspath(path), name)
        self._use("files")
        self._use(f"{MENTION}{name}")
        if key in self._callers:
            for other, content in self._caller_files.get(key, ()):
                self._touch(other, content=content)
            return self._callers[key]
        from dl_lint.analysis.values import FunctionRef

        if self._graph is None:
            self._graph = SignalGraph(self)
        graph = self._graph
        own = key[0]
        names = [module for module, paths in graph.paths.items() if own in paths]
        importers: Set[str] = set()
        for module in names:
            importers |= graph.importers(module)
        encoded = name.encode()
        found: Optional[list] = []
        # (file, whether the answer rests on its bytes): a file that calls it, or any file
        # that names it when the answer is incomplete; the other files that name it through
        # their summaries (what their calls resolved through: a package that comes to bind a
        # submodule may make one resolve to it).
        held: List[Tuple[str, bool]] = []
        self._caller_files[key] = held
        modules = 0
        for module in sorted(importers):
            for other in graph.paths_of(module):
                if other == own or encoded not in self.source_bytes(other):
                    continue
                modules += 1
                if modules > _MAX_CALLER_MODULES:
                    # incomplete: holds while these files name it (a new one only adds to them)
                    named = [path for path, _ in held] + [other]
                    held[:] = [(path, True) for path in named]
                    for path in named:
                        self._touch(path, content=True)
                    self._callers[key] = None
                    return None
                analysis = self.analysis_at(other, module)
                calls = analysis is None  # unreadable now: its bytes decide
                for call, site in analysis.calls_named({name}) if analysis is not None else ():
                    if not isinstance(call.func, (ast.Name, ast.Attribute)) or not analysis._may_be_function(call.func, site):
                        continue
                    single = analysis.resolver.resolve(call.func, site).single
                    ref = single.value if single is not None else None
                    if isinstance(ref, FunctionRef) and ref.kind in ("function", "class") and ref.name == name and ref.path and os.path.abspath(ref.path) == own:
                        calls = True
                        if not any(c is call for _, c, _ in found):
                            found.append((analysis, call, site))
                held.append((other, calls))
                self._touch(other, content=calls)
        self._callers[key] = found
        return found

    def import_roots(self, path: str) -> List[str]:
        """The files whose import-time code may run the module at ``path``'s functions
        (``import_flow``): the file itself and the files of the modules importing it, or
        importing one of those (two steps up the import graph, read from bytes), that have a
        top-level line with a call besides imports and definitions (``_TOP_CALL``, read from
        bytes). Past ``_MAX_ROOTS`` such files the answer is empty (unknown: DL203 stays
        silent). It rests on the bytes of the files chosen, on the set of project files, and on no
        file gaining an import of these modules (``MENTION`` of their names)."""
        own = os.path.abspath(path)
        kept = self._roots.get(own)
        if kept is None:
            if self._graph is None:
                self._graph = SignalGraph(self)
            graph = self._graph
            files = {own}
            level = [module for module, paths in graph.paths.items() if own in paths]
            words: Set[str] = set()
            for _ in range(2):
                # a new importer of one of these modules names it: the answer holds while no file
                # changed since mentions it (``MENTION``), as ``callers_of``'s
                words.update(module.rsplit(".", 1)[-1] for module in level)
                above: Set[str] = set()
                for module in level:
                    above |= graph.importers(module)
                for module in above:
                    files.update(graph.paths_of(module))
                level = sorted(above)
            found = [f for f in sorted(files) if f == own or _TOP_CALL.search(self.source_bytes(f))]
            if len(found) > _MAX_ROOTS:
                found = []
            kept = self._roots[own] = (found, tuple(sorted(words)))
        found, words = kept
        self._use("files")
        for word in words:
            self._use(f"{MENTION}{word}")
        for root in found:
            self._touch(root, content=True)
        return found

    def import_flow(self, path: str) -> Dict[Tuple[str, int, int], Tuple[int, str, int]]:
        """What the top-level code of the file at ``path`` iterates when it is imported
        (``import_flow.ImportFlow``), by (file, line, column) of the construction: (line of the
        top-level statement, file and line of the iteration). Worked out once per run; the
        answer rests on every file the interpretation read."""
        own = os.path.abspath(path)
        kept = self._flows.get(own)
        if kept is None:
            from dl_lint.analysis.import_flow import ImportFlow

            found: Dict[Tuple[str, int, int], Tuple[int, str, int]] = {}
            read: Set[str] = {own}
            if self._graph is None:
                self._graph = SignalGraph(self)
            names = self._graph.names_of(own)
            root = self.analysis_at(own, names[0] if names else "")
            if root is not None and root.tree is not None:
                flow = ImportFlow(self, root).run()
                found, read = flow.iterated, flow.read
            kept = self._flows[own] = (found, tuple(sorted(read)))
        for other in kept[1]:
            self._touch(other, content=True)
        return kept[0]

    def writes_attribute(self, path: str, attr: str, holders: Sequence[str] = ()) -> bool:
        """Whether the file at ``path`` (a module defining a config class) or a project module
        importing it (the import graph, read from bytes) writes ``.attr`` on anything but
        ``self`` (``x.attr = ...``, ``x.attr += ...``) or names it in a ``setattr`` call, or sets
        attributes by computed name on an object named as one of ``holders`` (the name the
        reader holds it by, the class's name): then a config object's attribute is set at run
        time, and what its class stores is only a default (``Resolver._foreign_instance_attr``).
        Read once per module, for every attribute. The answer holds while no file changed since
        mentions ``attr`` or a holder (``MENTION``): a new write writes the name."""
        own = os.path.abspath(path)
        for word in (attr, *holders):
            self._use(f"{MENTION}{word}")  # a new write names the attribute, or the object's name
        written = self._attr_writes.get(own)
        if written is None:
            # each file's bytes read once, for every attribute asked of the module
            written = self._attr_writes[own] = set().union(*(self._writes_in(f) for f in self._importer_files(own)))
        return attr in written or any(f"*{holder}" in written for holder in holders)

    def _writes_in(self, path: str) -> Set[str]:
        """``_written_attributes`` of the bytes of one project file (an absolute path), read once
        per run for ``writes_attribute`` and ``rewrites_by_name`` alike."""
        found = self._file_writes.get(path)
        if found is None:
            found = self._file_writes[path] = _written_attributes(self.source_bytes(path))
        return found

    def rewrites_by_name(self, path: str) -> bool:
        """Whether the file at ``path`` sets attributes by computed name on some object other
        than ``self`` (``setattr(args, key, value)``, ``args.__dict__.update(...)``,
        ``vars(args)[key] = value``): a namespace handed to one of its functions may come back
        with any option changed (``Resolver._handed_to_rewriter``). The answer rests on the
        file's bytes."""
        own = os.path.abspath(path)
        self._touch(own, content=True)
        return any(name.startswith("*") for name in self._writes_in(own))

    def _importer_files(self, own: str) -> List[str]:
        """The file ``own`` and the files of every project module importing it (the import
        graph, read from bytes), sorted."""
        if self._graph is None:
            self._graph = SignalGraph(self)
        graph = self._graph
        names = [module for module, paths in graph.paths.items() if own in paths]
        files = {own}
        for module in names:
            for importer in graph.importers(module):
                files.update(graph.paths_of(importer))
        return sorted(files)

    def writes_item(self, path: str, key: str, writers: Sequence[str], store: str, holders: Sequence[str] = ()) -> bool:
        """Whether the file at ``path`` (a module defining a class that keeps a dict of values,
        ``item_stores``) or a project module importing it may write ``key`` into an object's
        store: ``[...]["key"] = ...`` on anything, a call of one of the class's ``writers`` with
        that key or a computed one (``hp.set_hparam("key", v)``), ``__setitem__`` among them and
        a computed key written on an object named as one of ``holders``, or the store itself
        changed from outside (``para.args.update(...)``). Read from bytes; the answer holds while
        no file changed since mentions the key, a writer, the store or a holder (``MENTION``)."""
        own = os.path.abspath(path)
        words = (key, *writers, store, *holders)
        for word in words:
            self._use(f"{MENTION}{word}")
        cached = self._item_writes.get((own, words))
        if cached is not None:
            return cached
        # group 1: the holder of a literal key's write; ``self.x["key"] = ...`` writes an
        # object of the class that method belongs to (this class's own are ``store_edits``)
        patterns = [rb"([\w.]*)\s*\[\s*['\"]" + re.escape(key.encode()) + rb"['\"]\s*\]\s*" + _WRITE_OP]
        if store:
            # on anything but ``self`` (the class's own writes are the caller's, ``store_edits``)
            patterns.append(rb"(?<!\bself)\.\s*" + re.escape(store.encode()) + rb"\s*(?:\.\s*(?:update|setdefault|pop|popitem|clear)\s*\(|\[[^\]\n]*\]\s*" + _WRITE_OP + rb")")
        for writer in writers:
            if writer == "__setitem__":
                for holder in holders:
                    patterns.append(rb"\b" + re.escape(holder.encode()) + rb"\s*\[\s*(?!['\"])[^\]\n]*\]\s*" + _WRITE_OP)
            else:
                patterns.append(rb"\.\s*" + re.escape(writer.encode()) + rb"\s*\(\s*(?:['\"]" + re.escape(key.encode()) + rb"['\"]|(?!['\"]))")
        found = re.compile(b"|".join(b"(?:" + p + b")" for p in patterns))

        def written(data: bytes) -> bool:
            for match in found.finditer(data):
                holder = match.group(1)
                if holder is None or not (holder == b"self" or holder.startswith(b"self.")):
                    return True
            return False

        answer = any(written(self.source_bytes(f)) for f in self._importer_files(own))
        self._item_writes[(own, words)] = answer
        return answer

    def analysis_at(self, path: str, module: str) -> Optional["ModuleAnalysis"]:
        """The full analysis of the file at ``path``: kept from earlier in the run, else parsed
        again (only when the memory budget dropped it); None if it cannot be read or parsed."""
        from dl_lint.analysis.syntax import ParseFailure
        from dl_lint.source import decode

        found = self.parsed(path)
        if found is not None:
            self._touch(os.path.abspath(path))
            return found
        data = self.module_bytes(path)
        if data is None:
            return None
        try:
            return self.parse(path, module, decode(data))
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ParseFailure, RecursionError, MemoryError):
            return None

    def parsed(self, path: str) -> Optional["ModuleAnalysis"]:
        """The module parsed earlier in this run, if it is still kept."""
        key = os.path.abspath(path)
        found = self._analyses.get(key)
        if found is not None:
            self._analyses.move_to_end(key)
        return found

    def add(self, analysis: "ModuleAnalysis", content_hash: Optional[str] = None) -> None:
        """Register a linted module's analysis: importers get its summary from it. The summary
        is built when first asked for (most linted modules are imported by no other linted
        one), or when the store or another process is given the new summaries."""
        key = os.path.abspath(analysis.path)
        if (key not in self._summaries or self._summaries[key] is None) and key not in self._pending:
            self._pending[key] = (analysis, content_hash)

    def _settle(self, key: str) -> None:
        """Build the summary of a linted module registered by ``add``, if it is still waiting."""
        pending = self._pending.pop(key, None)
        if pending is not None:
            analysis, content_hash = pending
            self._set_summary(key, analysis.summary(), content_hash)

    @property
    def new_summaries(self) -> Dict[str, Tuple[Optional[str], "ModuleSummary"]]:
        """The summaries made in this run (for the store, or the parent of a worker process)."""
        for key in list(self._pending):
            self._settle(key)
        return self._new_summaries

    @new_summaries.setter
    def new_summaries(self, value: Dict[str, Tuple[Optional[str], "ModuleSummary"]]) -> None:
        self._new_summaries = value

    def summaries_to_store(self, stored: Callable[[str], bool]) -> Dict[str, Tuple[Optional[str], "ModuleSummary"]]:
        """``new_summaries`` for the results cache, without the modules that ``stored(key)``
        says the store holds already (an unchanged file analysed again for the call-site
        phase: ten of Lightning's in a run naming five files, ~30 ms of summaries built and
        written again unchanged). A pending one of those is not built (it stays pending, built
        if asked later: the language server keeps the project between runs)."""
        for key in list(self._pending):
            if not stored(key):
                self._settle(key)
        return {key: found for key, found in self._new_summaries.items() if key not in self._pending and not stored(key)}

    def _set_summary(self, key: str, summary: "ModuleSummary", content_hash: Optional[str]) -> SummaryModule:
        module = SummaryModule(summary, _Tracked(self, key), self.loader_names)
        self._summaries[key] = module
        self._name(key, summary.module)
        self._new_summaries[key] = (content_hash, summary)
        return module

    def summarised_as(self, key: str) -> str:
        """The module name the file at ``key`` was summarised as in this run ("" if it was not)."""
        self._settle(key)
        found = self._summaries.get(key)
        return found.summary.module if found is not None else ""

    def summary_digest(self, key: str, module: str) -> Optional[str]:
        """A digest of the summary of the file at ``key`` as module ``module`` (from this run,
        the store, or one parse): importers' results stay valid while it is unchanged. For
        ``LONE`` + names, what importers read without a summary: the line of each name's lone
        class statement (``_lone_class``), from the bytes; for ``ABSENT`` + words (after it, or
        alone), whether the bytes hold each word (``may_hold``); for ``STORES`` + attributes,
        whether they assign each once (``stores_once``)."""
        if module.startswith("\0"):  # LONE + names, ABSENT + words, NO_SETTER + names, STORES + attributes
            parts = []
            for segment in module.split("\0")[1:]:
                kind, _, names = segment.partition(":")
                if kind == "lone":
                    parts.append(",".join(str(self._lone_line(key, n)) for n in names.split(",")))
                elif kind == "absent":
                    data = self.source_bytes(key)
                    parts.append(",".join("held" if w.encode() in data else "absent" for w in names.split(",")))
                elif kind == "stores":
                    data = self.source_bytes(key)
                    counts = _self_stores(data)
                    parts.append(",".join("once" if _kept_once(data, counts, *n.split("@", 1)) else "not" for n in names.split(",")))
                elif kind == "nosetter":
                    from dl_lint.analysis.prefilter import may_be_keyword_setter

                    data = self.source_bytes(key)
                    parts.append(",".join("maybe" if may_be_keyword_setter(data, n) else "not" for n in names.split(",")))
            return "|".join(parts)
        self._settle(key)
        found = self._summaries.get(key)
        if found is None or found.summary.module != module:
            found = self._load_summary(key, module)
            if found is None:
                return None
            self._summaries.setdefault(key, found)
        return found.digest()

    def adopt(
        self,
        summaries: Dict[str, Tuple[Optional[str], "ModuleSummary"]],
        parses: Dict[str, int],
        names: Optional[Dict[Tuple[str, Tuple[str, ...]], Tuple[bool, FrozenSet[str]]]] = None,
    ) -> None:
        """Take the summaries another process made (a worker), count its parses, and take its
        answers about class-like names (for the results cache)."""
        for key, answer in (names or {}).items():
            self._class_names.setdefault(key, answer)
        for key, (content_hash, summary) in summaries.items():
            self._settle(key)
            if self._summaries.get(key) is None:
                self._set_summary(key, summary, content_hash)
            else:
                self._new_summaries.setdefault(key, (content_hash, summary))
        for key, count in parses.items():
            self.parses[key] = self.parses.get(key, 0) + count

    def summary(self, module: str, near: str = "") -> Optional[SummaryModule]:
        """The summary of ``module`` (seen from ``near``): from this run, the store, or one
        parse; None if it is not in the project or cannot be read or parsed."""
        path = self._choose(module, near)
        if path is None:
            for key, name in self._names.items():
                if name == module and key in self._pending:
                    self._settle(key)
                if name == module and self._summaries.get(key) is not None:
                    self._touch(key)
                    return self._summaries[key]
            return None
        key = os.path.abspath(path)
        self._touch(key)
        self._settle(key)
        if key in self._summaries:
            return self._summaries[key]
        found = self._load_summary(key, module)
        self._summaries[key] = found
        return found

    def _load_summary(self, key: str, module: str) -> Optional[SummaryModule]:
        from dl_lint.analysis.syntax import ParseFailure
        from dl_lint.source import decode

        analysis = self._analyses.get(key)
        if analysis is not None:
            return self._set_summary(key, analysis.summary(), None)
        content_hash = self.hash_of(key) if self.hash_of is not None else None
        if content_hash is not None and self.store is not None:
            stored = self.store.get(key, content_hash, module)
            if stored is not None:
                found = SummaryModule(stored, _Tracked(self, key), self.loader_names)
                self._name(key, stored.module)
                return found
        shared = self.shared
        if shared is not None:
            found_shared, summary = shared.take(key, module)
            if found_shared:  # another process summarised it (None: it could not)
                return self._set_summary(key, summary, content_hash) if summary is not None else None
        summary = None
        try:
            data = self.module_bytes(key)
            if data is None:
                return None
            try:
                analysis = self.parse(key, module, decode(data))
            except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ParseFailure, RecursionError, MemoryError):
                return None
            summary = analysis.summary()
        finally:
            if shared is not None:
                shared.give(key, module, summary)
        return self._set_summary(key, summary, content_hash)

    # -- memory ---------------------------------------------------------------------------------
    def _keep(self, key: str, analysis: "ModuleAnalysis") -> None:
        """Keep a parsed module; drop the least recently used ones over the budget."""
        size = len(analysis.source)
        old = self._analyses.pop(key, None)
        if old is not None:
            self._live_bytes -= len(old.source)
        self._analyses[key] = analysis
        self._live_bytes += size
        while self._live_bytes > self.budget and len(self._analyses) > 1:
            _, dropped = self._analyses.popitem(last=False)
            self._live_bytes -= len(dropped.source)
            self._dropped.append(dropped)

    def release_dropped(self) -> None:
        """Free the parsed modules the memory budget dropped. Called between files, when no
        analysis is in use (an analysis dropped while a caller still held it would break)."""
        while self._dropped:
            self._dropped.pop().release()

    # -- ProjectHook ----------------------------------------------------------------------------
    def config_composed(self, config: Any, near: str = "") -> Any:
        """The composed Hydra config of ``config`` (``analysis.configs.hydra``). Each YAML file
        is read once per run; every file the composition reads (or finds missing) is recorded
        as a content dependency of the file being linted, so a cached diagnostic resting on a
        YAML value is judged again when that file changes."""
        from dl_lint.analysis.configs.hydra import compose

        composed = self._composed.get(config)
        if composed is None:
            read: List[str] = []

            def reader(path: str) -> Any:
                read.append(path)
                return self.config_file(path)[1]

            composed = compose(config, reader)
            self._composed[config] = composed
            self._composed_reads[config] = tuple(read)
        for path in self._composed_reads.get(config, ()):
            self._touch(path, content=True)
        if composed.errors and near:
            self._config_errors.setdefault(os.path.abspath(near), set()).update(composed.errors)
        return composed

    def yacs_value(self, keys: Tuple[str, ...], near: str = "") -> Optional["Value"]:
        """What ``cfg.A.B`` holds when ``A.B`` is a key of the project's yacs defaults
        (``analysis.configs.yacs``), else None. The index is built once per run, from the bytes of
        the project's files; every file the answer rests on is recorded as a dependency."""
        from dl_lint.analysis.configs.yacs import YacsIndex, value_of

        index = self._yacs
        if index is None:
            paths, root = self._paths_and_root()
            index = self._yacs = YacsIndex(paths, self.source_bytes, self.safe_yaml, root)
        self._use("files")
        value, read_files = value_of(index, keys, near)
        # the answer rests on every project file's bytes (an edit anywhere may define the key,
        # or set it, which makes it unknown) and on the YAML files read
        for path in dict.fromkeys((*index.paths, *read_files)):
            self._touch(path, content=True)
        return value

    def detectron2_workers(self, near: str = "") -> Optional["Value"]:
        """What ``cfg.DATALOADER.NUM_WORKERS`` holds where detectron2's builders read it
        (``analysis.configs.detectron2``), None when not followed. Built once per run, from the
        bytes of the project's files; the YAML files it read are recorded as dependencies."""
        from dl_lint.analysis.configs.detectron2 import Detectron2Index

        index = self._detectron2
        if index is None:
            paths, root = self._paths_and_root()
            index = self._detectron2 = Detectron2Index(paths, self.source_bytes, self.safe_yaml, root)
        self._use("files")
        value, read_files = index.workers(near)
        # the answer rests on every project file's bytes (any may set NUM_WORKERS) and the YAML read
        for path in dict.fromkeys((*index.paths, *read_files)):
            self._touch(path, content=True)
        return value

    # -- config files a script loads itself (``analysis.configs.keypaths``) -----------------------
    def keypath_files(self, script: str, named: Sequence[str], fixed: bool, dialect: str) -> Tuple[str, ...]:
        """The files a config loaded in ``script`` may be (``keypaths.candidate_files``): config
        folders are listed once per run; the answer rests on which files exist."""
        from dl_lint.analysis.configs.keypaths import candidate_files

        if self.root is None:
            return ()
        root = os.fspath(self.root.absolute())
        key = ("keypath-files", os.path.abspath(script), tuple(named), fixed, dialect)
        found = self.config_memo.get(key)
        if found is None:
            listed_folders: List[str] = []
            listing = self._folder_listing(listed_folders)
            found = self.config_memo[key] = (candidate_files(script, root, named, fixed, dialect, listing), tuple(listed_folders))
        # the answer rests on which config files exist in the folders listed (a new file is a run)
        for folder in found[1]:
            self._use(f"listing:{folder}")
        return found[0]

    def _folder_listing(self, listed: List[str]) -> Callable[[str], Tuple[str, ...]]:
        """A function listing a folder's config files (``keypaths.list_folder``, once per run and
        folder), which records each folder it is asked for in ``listed`` (what an answer rests on)."""
        from dl_lint.analysis.configs.keypaths import list_folder

        def listing(folder: str) -> Tuple[str, ...]:
            listed.append(folder)
            found = self.config_memo.get(("listing", folder))
            if found is None:
                found = self.config_memo[("listing", folder)] = list_folder(folder)
            return found

        return listing

    def fromfile_configs(self) -> FrozenSet[str]:
        """The Python files the project's scripts load with mmengine's ``Config.fromfile``
        (``keypaths.fromfile_configs``), from bytes, once per run. The answer rests on every
        project file (a script may start loading a config) and the config folders listed."""
        from dl_lint.analysis.configs.keypaths import fromfile_configs

        found = self.config_memo.get("fromfile")
        if found is None:
            folders: List[str] = []
            paths, root = self._paths_and_root()
            listing = self._folder_listing(folders)
            configs, scripts = fromfile_configs(paths, self.source_bytes, root, listing) if root is not None else ((), ())
            found = self.config_memo["fromfile"] = (frozenset(configs), tuple(scripts), tuple(dict.fromkeys(folders)))
        self._use("files")
        for script in found[1]:
            self._touch(script, content=True)
        for folder in found[2]:
            self._use(f"listing:{folder}")
        return found[0]

    def keypath_lookup(self, config: Any, names: Optional[Sequence[str]] = None) -> Any:
        """What a loaded config's key path holds over its runs (``keypaths.lookup``), or with
        ``names`` what spreading it gives (``keypaths.spread``); once per run. Every file whose
        bytes were read is a content dependency of the file being linted."""
        from dl_lint.analysis.configs import keypaths

        key = ("keypath", config, tuple(names) if names is not None else None)
        found = self.config_memo.get(key)
        if found is None:

            def tree_of(path: str, dialect: str) -> Any:
                return self.config_file(path, dialect)[1]

            if names is None:
                answer = keypaths.lookup(config, self.read_config, tree_of)
            else:
                answer = keypaths.spread(config, self.read_config, tree_of, names)
            found = self.config_memo[key] = answer
        for path in config.files:
            self._touch(path, content=True)
        return found

    def _paths_and_root(self) -> Tuple[List[str], Optional[str]]:
        """Every project file (absolute) and the project root, for the config indexes."""
        paths = [absolute_path(os.fspath(p), self._cwd) for p in self.files()]
        return paths, (os.fspath(self.root.absolute()) if self.root is not None else None)

    def config_errors(self, path: str) -> List[Any]:
        """The YAML files the Python file at ``path`` reached that PyYAML could not read
        (``analysis.configs.yamlfile.YamlError``), in path order."""
        return sorted(self._config_errors.get(os.path.abspath(path), ()), key=lambda e: (e.path, e.line))

    def safe_yaml(self, path: str) -> Any:
        """A YAML file's tree as ``yaml.safe_load`` reads it (yacs, fvcore, detectron2), None when
        it cannot be read or parsed (no DL000: such files are found by walking, and nothing says
        the project uses one), or lies outside the root (a ``_BASE_`` leading out: unknown)."""
        from dl_lint.analysis.configs.yamlfile import YamlError

        tree = self.config_file(path, "safe")[1]
        return None if isinstance(tree, YamlError) else tree

    def config_file(self, path: str, dialect: str = "omegaconf") -> Tuple[Optional[str], Any]:
        """(text, tree) of a YAML file (``analysis.configs.yamlfile.read_yaml``) as ``dialect``
        reads it, or of a TOML file for "toml" (``configs.tomlfile.read_toml``), read once,
        through the door: a file outside the root is (None, None)."""
        found = self._config_files.get((path, dialect))
        if found is None and dialect == "toml":
            from dl_lint.analysis.configs.tomlfile import read_toml

            found = self._config_files[(path, dialect)] = read_toml(path, self.config_bytes)
        elif found is None:
            from dl_lint.analysis.configs.yamlfile import read_yaml

            found = self._config_files[(path, dialect)] = read_yaml(path, self.config_bytes, dialect)
        return found

    def import_value(self, module: str, name: str, depth: int, near: str = "") -> "Value":
        from dl_lint.analysis.values import ModuleRef, Value

        quick = self._lone_class(module, name, near)
        if quick is not None:
            return quick
        found = self.summary(module, near)
        if found is not None:
            value = found.global_value(name, depth)
            if not value.is_unknown:
                return value
        if self.module_exists(f"{module}.{name}"):
            return Value.known(ModuleRef(f"{module}.{name}"))
        return Value.unknown("import")

    def init_attribute(self, module: str, name: str, attr: str, depth: int, near: str = ""):
        """``SummaryModule.init_attribute`` of class ``name`` of ``module``."""
        found = self.summary(module, near)
        return found.init_attribute(name, attr, depth) if found is not None else None

    def class_attribute(self, module: str, name: str, attr: str, depth: int, near: str = ""):
        """``SummaryModule.class_attribute`` of class ``name`` of ``module`` (ask ``stores_once``
        first: it rules most modules out by their bytes)."""
        found = self.summary(module, near)
        return found.class_attribute(name, attr, depth) if found is not None else None

    def setattr_config(self, module: str, name: str, depth: int, near: str = ""):
        """``SummaryModule.setattr_config`` of class ``name`` of ``module``; None without a
        parse when the module's bytes hold neither ``setattr(self,`` nor ``__dict__.update(``, nor
        a hook a keyword store answers reads with (``item_stores``)."""
        if not any(self.may_hold(module, near, word) for word in (b"setattr(self,", b"__dict__.update(", b"__getattr__", b"__getitem__")):
            return None  # no such setter: the module is not parsed for a construction of its class
        if not self._may_set_keywords(module, name, near):
            return None  # its bytes rule a keyword setter out: not parsed for that
        found = self.summary(module, near)
        return found.setattr_config(name, depth) if found is not None else None

    def star_exports(self, module: str, name: str, depth: int, near: str = "") -> Optional[bool]:
        """Whether ``from module import *`` binds ``name`` (``SummaryModule.exports``)."""
        found = self.summary(module, near)
        return found.exports(name, depth) if found is not None else None

    def _lone_class(self, module: str, name: str, near: str) -> Optional["Value"]:
        """``name`` of a module not summarised yet whose bytes bind it only by a top-level
        ``class`` statement (``prefilter.lone_class_line``): the class, as its summary would
        give it, without parsing the module (``accelerator = Accelerator()`` needs to know only
        that much; a question about the class itself loads the summary then)."""
        from dl_lint.analysis.values import FunctionRef, Origin, Possible, Value

        path = self._choose(module, near)
        if path is None:
            return None
        key = os.path.abspath(path)
        if key in self._summaries or key in self._analyses or key in self._pending:
            return None
        line = self._lone_line(key, name)
        if line is None:
            return None
        # Resting on that one statement: an edit elsewhere in the module keeps the answer
        # (``summary_digest`` of LONE + name re-reads only this).
        self._use(f"lone:{key}\0{name}")
        origin = Origin(f"{name} in {module or key}", key, None)
        return Value((Possible(FunctionRef("class", module, name, line, key), origin),))

    def _lone_line(self, key: str, name: str) -> Optional[int]:
        from dl_lint.analysis.prefilter import lone_class_line

        if (key, name) not in self._lone:
            self._lone[(key, name)] = lone_class_line(self.source_bytes(key), name)
        return self._lone[(key, name)]

    def is_loader_class(self, module: str, name: str, depth: int, near: str = "") -> Optional["LoaderClass"]:
        found = self.summary(module, near)
        return found.is_loader_class(name, depth) if found is not None else None

    def holds_word(self, path: str, word: bytes) -> bool:
        """Whether the file at ``path`` holds ``word``, by its bytes (read if not at hand; True
        when they cannot be read), summarised or not: a question only a file that writes the
        word can answer (``Resolver._copied_option``) does not parse it otherwise. A no rests on
        the word's absence alone ("absent:" use, as ``may_hold``'s)."""
        key = os.path.abspath(path)
        found = self._held_words.get((key, word))
        if found is None:
            data = self.sources.get(key)
            if data is None:
                data = self.module_bytes(key)  # read once per word: the answers are kept
            found = self._held_words[(key, word)] = data is None or word in data
        if not found:
            self._use(f"absent:{key}\0{word.decode()}")
        return found

    def may_hold(self, module: str, near: str, word: bytes) -> bool:
        """Whether the file ``summary(module, near)`` would read can hold ``word``: False only
        when its bytes are at hand and lack it, so that a question only such a file can answer
        (a class's sample needs its ``__getitem__``) does not parse a large module for nothing
        (accelerate's ``Accelerator(...)`` calls made every example parse its 200 KB module). A
        no rests on the word's absence alone ("absent:" use, ``summary_digest`` of ABSENT +
        word): an edit elsewhere in the file keeps the answer, one that adds the word does not
        (resting on the whole summary would need the summary, the parse this avoids)."""
        found = self._unsummarised_bytes(module, near)
        if found is None or word in found[1]:
            return True
        self._use(f"absent:{found[0]}\0{word.decode()}")
        return False

    def stores_once(self, module: str, near: str, attr: str, cls: str = "") -> bool:
        """Whether the file ``summary(module, near)`` would read assigns ``self.attr`` exactly
        once, or never but binds ``attr`` in the body of class ``cls`` (a class attribute,
        ``summary.class_constants``), by its bytes (True when they are not at hand): a class that sets it once,
        unconditionally, in ``__init__`` (``ClassRecord.init_attrs``) can only be that one, so a
        module assigning it never or several times is not summarised to learn that
        (accelerate's ``AcceleratorState`` sets ``self.num_processes`` on every branch; its
        ``Accelerator.mixed_precision`` is a property). Two classes of one module setting the
        same attribute are left unknown. A no rests on that count alone ("stores:" use,
        ``summary_digest`` of ``STORES`` + attribute): an edit elsewhere keeps it."""
        path = self._choose(module, near)
        key = os.path.abspath(path) if path is not None else None
        counts = self._self_store_counts.get(key) if key is not None else None
        data = None
        if counts is None and key is not None:
            data = self.sources.get(key) or self.module_bytes(key)
            if data is not None:
                counts = self._self_store_counts[key] = _self_stores(data)
        if counts is not None and cls and attr not in counts and (key, attr, cls) not in self._class_binds:
            if data is None:
                data = self.sources.get(key) or self.module_bytes(key)  # (a class attribute's line is asked)
            # one file's class attribute is asked again by each loader that reads it (accelerate's
            # ``Accelerator.mixed_precision``: four times over 198 KB)
            self._class_binds[(key, attr, cls)] = None if data is None else _binds_in_class(data, attr, cls)
        if counts is None:
            return True  # (the summary then read is what the answer rests on)
        found = counts.get(attr, 0)
        if found == 1 or (found == 0 and cls and self._class_binds.get((key, attr, cls), True) is not False):
            return True
        self._use(f"stores:{key}\0{attr}" + (f"@{cls}" if cls else ""))  # a no rests on the bytes alone
        return False

    def _unsummarised_bytes(self, module: str, near: str) -> Optional[Tuple[str, bytes]]:
        """(key, bytes) of the file ``summary(module, near)`` would read, when it is not
        summarised yet (a question it could answer costs nothing then) and its bytes are at hand."""
        path = self._choose(module, near)
        if path is None:
            return None
        key = os.path.abspath(path)
        if key in self._summaries or key in self._analyses or key in self._pending:
            return None
        data = self.sources.get(key)
        if data is None:
            data = self.module_bytes(key)
        return None if data is None else (key, data)

    def _may_set_keywords(self, module: str, name: str, near: str) -> bool:
        """Like ``may_hold``, for a keyword-setting config class (``may_be_keyword_setter``):
        False only when the file is not summarised yet and its bytes rule it out; the no rests
        on that alone ("nosetter:" use, ``summary_digest`` of NO_SETTER + names)."""
        from dl_lint.analysis.prefilter import may_be_keyword_setter

        found = self._unsummarised_bytes(module, near)
        if found is None or may_be_keyword_setter(found[1], name):
            return True
        self._use(f"nosetter:{found[0]}\0{name}")
        return False

    def class_record(self, module: str, name: str, near: str = ""):
        """A class's summary record (its sample's fields, what ``__init__`` keeps): cheaper than
        ``class_facts`` for a construction that only needs those. A class of the module that
        asks, linted and not summarised yet, is read off its analysis without summarising the
        whole module (a test module constructing its own dataset classes)."""
        path = self._choose(module, near)
        if path is not None and self._source is not None:
            key = os.path.abspath(path)
            pending = self._pending.get(key)
            if pending is not None and key == self._source:
                self._touch(key)  # as ``summary`` records it
                return pending[0].class_record(name)
        found = self.summary(module, near)
        return found.class_record(name) if found is not None else None

    def kept_parameters(self, module: str, name: str, near: str = "", depth: int = 0) -> Tuple[Tuple[str, int], ...]:
        """DL202: the constructor parameters an instance of a project class keeps
        (``SummaryModule.kept_parameters``)."""
        found = self.summary(module, near)
        return found.kept_parameters(name, depth) if found is not None else ()

    def class_facts(self, module: str, name: str, near: str = "") -> Optional["ClassFacts"]:
        found = self.summary(module, near)
        return found.class_facts(name) if found is not None else None

    def attribute_objects(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, str, str, str, int], ...]:
        """DL202: the project objects a class's ``__init__`` builds and keeps
        (``SummaryModule.attribute_objects``)."""
        found = self.summary(module, near)
        return found.attribute_objects(name) if found is not None else ()

    def function_facts(self, module: str, name: str, near: str = "") -> Optional["FunctionFacts"]:
        found = self.summary(module, near)
        return found.function_facts(name) if found is not None else None

    def attribute_results(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, str, str, str, int], ...]:
        """DL202: the project functions whose results a class's ``__init__`` keeps
        (``SummaryModule.attribute_results``)."""
        found = self.summary(module, near)
        return found.attribute_results(name) if found is not None else ()

    def returned_held(self, module: str, name: str, near: str = "") -> Optional[Tuple[str, str, int]]:
        """DL202: the lambda or local function every ``return`` of a project function holds
        (``SummaryModule.returned_held``)."""
        found = self.summary(module, near)
        return found.returned_held(name) if found is not None and found.path == near else None

    def batch_transfers(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, int, int, int], ...]:
        found = self.summary(module, near)
        return found.transfers(name) if found is not None else ()

    def batch_handoffs(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, int, Optional[Tuple[str, int, int]]], ...]:
        """DL306: for function ``name``'s parameters that it iterates, where an imported
        function its loop hands the batches to copies them: (parameter, position, location)."""
        found = self.summary(module, near)
        if found is None:
            return ()
        out = []
        for param, index, text, positions in found.transfer_calls(name):
            where = found.callee_copy(text, positions)
            if where is not None:
                out.append((param, index, where))
        return tuple(out)

    def method_handoffs(self, module: str, name: str, near: str = "") -> Tuple[Tuple[str, int, str, int, str, Tuple[int, ...]], ...]:
        """DL306: for function ``name``'s parameters that it iterates, the methods of another
        parameter its loops give the batches to (``summary.FunctionRecord.method_calls``)."""
        found = self.summary(module, near)
        record = found._functions_by_name.get(name) if found is not None else None
        return record.method_calls if record is not None else ()

    def function_copy(self, ref: Any, positions: Tuple[int, ...], near: str, depth: int = 1) -> Optional[Tuple[str, int, int]]:
        """DL306: where the module-level function ``ref`` (a ``FunctionRef``) copies one of its
        positional parameters ``positions`` non-blocking (``summary.FunctionRecord.copies``), itself
        or through ``depth`` more imported functions it hands them to."""
        from dl_lint.analysis.values import FunctionRef

        if not isinstance(ref, FunctionRef) or ref.kind != "function":
            return None
        found = self.summary(ref.module, ref.path or near)
        if found is None or (ref.path and found.path != ref.path):
            return None
        for position in positions:
            where = found.parameter_copy(ref.name, position, depth)
            if where is not None:
                return where
        return None


    def method_copy(self, instance: Any, method: str, positions: Tuple[int, ...], near: str) -> Optional[Tuple[str, int, int]]:
        """DL306: where method ``method`` of ``instance`` (an ``Instance`` of a project class) copies
        one of the arguments at ``positions`` (after self) non-blocking, itself or through one
        imported function (``SummaryModule.method_copy``). Only a method the class defines itself."""
        found = self.summary(instance.module, instance.path or near)
        if found is None or (instance.path and found.path != instance.path):
            return None
        for position in positions:
            where = found.method_copy(instance.name, method, position)
            if where is not None:
                return where
        return None

    def method_transfer(self, instance: Any, method: str, position: int, near: str) -> Optional[Tuple[str, int, int]]:
        """DL306: where method ``method`` of ``instance`` (an ``Instance`` of a project class)
        copies non-blocking the batches of the loader it is handed at ``position`` (after self),
        looping over it (``SummaryModule.method_transfer``)."""
        where = instance.path or near
        if not any(self.may_hold(instance.module, where, word) for word in (b"non_blocking=True", b"non_blocking = True")):
            # no such copy in the class's module: only a method it inherits can make one (its
            # module does not define the name), and only then is it parsed to find the bases
            # (``accelerator.prepare(loader)`` would parse accelerate's 200 KB module for nothing)
            if self.may_hold(instance.module, where, f"def {method}(".encode()):
                return None
        found = self.summary(instance.module, where)
        if found is None or (instance.path and found.path != instance.path):
            return None
        return found.method_transfer(instance.name, method, position)

    # -- DL102: accelerator evidence along the import graph -------------------------------------
    def neighbourhood(self, keys: Iterable[str]) -> Set[str]:
        """The project files (absolute paths) whose findings can be located in, or rest on, the
        files ``keys``: every module that imports one of them, transitively (a caller of a
        factory, a script using a constant), and every module those and ``keys`` import,
        transitively (the factories a call reaches, the modules values come from). What a run
        naming ``keys`` must read and judge to report what a full run reports there (issue 26).
        Imports are read from bytes (``raw_imports``), so this costs one scan of every file."""
        if self._graph is None:
            self._graph = SignalGraph(self)
        graph = self._graph
        self._use("graph")
        names_of: Dict[str, List[str]] = {}
        for name, paths in graph.paths.items():
            for path in paths:
                names_of.setdefault(path, []).append(name)
        start: Set[str] = set()
        for key in keys:
            if key in names_of:
                start.update(names_of[key])
            elif key.endswith((".py", ".ipynb")):  # a notebook, a file outside the index: its imports
                module = os.path.splitext(os.path.basename(key))[0]
                start.update(n for n in imported_modules(self.source_bytes(key), module, False) if n in graph.paths)
        up = set(start)
        todo = list(start)
        while todo:
            for importer in graph.importers(todo.pop()):
                if importer not in up:
                    up.add(importer)
                    todo.append(importer)
        found = set(up)
        todo = list(up)
        while todo:
            for imported in graph.imports(todo.pop()):
                if imported in graph.paths and imported not in found:
                    found.add(imported)
                    todo.append(imported)
        return {path for name in found for path in graph.paths[name]}

    def accelerator_reaches(self, module: str, extra: Optional[Dict[str, bytes]] = None) -> bool:
        return self.signal_reaches(module, "accelerator", extra)

    def signal_reaches(
        self, module: str, kind: str, extra: Optional[Dict[str, bytes]] = None, path: Optional[str] = None
    ) -> bool:
        """Whether a program-wide signal (``analysis.signals``) is connected to ``module``:
        evidence in the module itself, in a module it imports, or in a module that imports it
        (directly, through its package, or transitively). For DL102: can batches from this
        module reach an accelerator? ``extra``: module name -> bytes of linted sources the
        index cannot read from disk (notebooks, unsaved buffers, files outside the root)."""
        if self._graph is None:
            self._graph = SignalGraph(self)
        if extra and self._graph.add_sources(extra):
            self._reaches = {}
        key = self._reach_key(module, kind, path)
        if key not in self._reaches:
            found, chain = self._graph.reaches(module, kind, path)
            self._reaches[key] = (found, [p for name in chain for p in self._graph.paths_of(name)])
        found, paths = self._reaches[key]
        if found:
            for path in paths:  # the answer rests on these files only
                self._touch(path, content=True)
        else:
            self._use("graph")  # any file may gain an import of this module
        return found


    def _reach_key(self, module: str, kind: str, path: Optional[str]) -> Tuple[str, str, Optional[str]]:
        """``signal_reaches``'s cache key: the file matters only for a name several files share,
        so a question asked with a path for a name one file has shares the answer asked without."""
        if path is not None and self._graph is not None and len(self._graph.paths.get(module, ())) <= 1:
            path = None
        return module, kind, path

    def signal_evidence(
        self, module: str, kind: str, extra: Optional[Dict[str, bytes]] = None, path: Optional[str] = None
    ) -> Optional["Evidence"]:
        """``signal_reaches``, with the place of the evidence: in the module itself, in a module
        it imports, or only in a module that imports it (``signals.Evidence``). The answer rests
        on the same files as ``signal_reaches``'s."""
        from dl_lint.analysis.signals import Evidence, signal_line

        if not self.signal_reaches(module, kind, extra, path):
            return None
        graph = self._graph
        assert graph is not None
        own = [path] if path is not None and len(graph.paths.get(module, ())) > 1 else graph.paths_of(module)
        for candidate in own:
            line = signal_line(self.source_bytes(candidate), kind)
            if line is not None:
                return Evidence("module", candidate, line)
        if module in graph.extra:
            line = signal_line(graph.extra[module], kind)
            if line is not None:
                return Evidence("module", path or module, line)
        own_path = path if path is not None else (own[0] if own else "")
        imported = (
            imported_modules(b"", module, own_path.endswith("__init__.py"), self.raw_imports(own_path))
            if own_path
            else graph.imports(module)
        )
        for dep in sorted(imported):
            for candidate in graph.paths_of(dep):
                line = signal_line(self.source_bytes(candidate), kind)
                if line is not None:
                    return Evidence("import", candidate, line)
        for candidate in self._reaches.get(self._reach_key(module, kind, path), (False, []))[1]:
            line = signal_line(self.source_bytes(candidate), kind)
            if line is not None:
                return Evidence("importer", candidate, line)
        return None

    def python_lines(self, path: str) -> Tuple[Optional[str], Optional[int], Optional[int]]:
        """The pyproject.toml that gives the file at ``path`` its Pythons and platforms (as
        ``python_metadata``), and the lines of its ``requires-python`` and of its first
        ``Operating System ::`` classifier (None where absent): what a certain start method
        cites."""
        from dl_lint.config import project_metadata

        found = project_metadata(os.path.dirname(absolute_path(path, self._cwd)))[0]
        if found is None:
            return None, None, None
        try:
            data = self.door.read(os.path.abspath(found))
        except Refused:
            return os.path.abspath(found), None, None
        requires = classifier = None
        for number, line in enumerate(data.split(b"\n"), start=1):
            stripped = line.strip()
            if requires is None and stripped.startswith(b"requires-python"):
                requires = number
            if classifier is None and b"Operating System ::" in stripped:
                classifier = number
        return os.path.abspath(found), requires, classifier


_RELATIVE_IMPORT = re.compile(rb"(?m)^[ \t]*from[ \t]+\.")


def _relative(data: bytes) -> bool:
    """Whether ``data`` may hold a relative import (``from . import x``, ``from ..a import b``):
    the pattern, which has no literal to scan for, is tried only on bytes that hold one."""
    return (b"from ." in data or b"from\t" in data) and _RELATIVE_IMPORT.search(data) is not None


class SignalGraph:
    """The import graph read from bytes, as far as questions need it: a module's evidence and
    imports are read when a search reaches it; the reverse edges (who imports whom) are built
    for the top-level names a search goes up from, then for all at once (``importers``). A module
    whose importers, transitively, were all searched without evidence is remembered, so later
    searches stop there."""

    ROOTS = 3
    # Past this many words searched for one top-level name (its own, and the first names of the
    # endings of targets under it: ``_ending_words``), the whole graph is built instead: each
    # word is one search of every file not read yet, so the partial graph would cost files x
    # words, the whole one a read of every file's imports.
    WORDS = 8

    def __init__(self, project: "Project") -> None:
        self.project = project
        cwd = os.getcwd()
        self.paths: Dict[str, List[str]] = {
            name: [absolute_path(os.fspath(p), cwd) for p in paths] for name, paths in project.module_paths().items()
        }
        self.extra: Dict[str, bytes] = {}
        self._imports: Dict[str, FrozenSet[str]] = {}
        self._by_file: Dict[Tuple[str, str], FrozenSet[str]] = {}  # (path, name if relative) -> imports
        self._evidence: Dict[Tuple[str, str], bool] = {}
        self._reverse: Optional[Dict[str, Set[str]]] = None
        self._partial: Dict[str, Dict[str, Set[str]]] = {}  # top-level name -> reverse edges into it (``importers``)
        self._held: Optional[List[list]] = None  # [bytes, module names, relative or None] per file, while partial
        self._scanned: Dict[str, Tuple[Set[bytes], Set[int]]] = {}  # top-level name -> words and files read for it
        self._clean: Dict[str, Set[str]] = {}  # kind -> modules with no evidence above them
        self._below_clean: Set[str] = set()  # modules with no accelerator evidence below them
        self._by_path: Optional[Dict[str, List[str]]] = None  # file -> its module names
        self._endings: Optional[Dict[str, List[str]]] = None  # dotted ending -> module names

    def add_sources(self, extra: Dict[str, bytes]) -> bool:
        """Sources the index cannot read from disk; whether anything changed."""
        changed = False
        for name, data in extra.items():
            if self.extra.get(name) != data:
                self.extra[name] = data
                self._imports.pop(name, None)
                self._evidence = {k: v for k, v in self._evidence.items() if k[0] != name}
                self._reverse = None
                self._partial = {}
                self._scanned = {}
                self._held = None
                self._clean = {}
                changed = True
        return changed

    def _sources(self, name: str) -> List[Tuple[bytes, bool]]:
        read = self.project.source_bytes
        found = [(read(p), p.endswith("__init__.py")) for p in self.paths.get(name, ())]
        if name in self.extra:
            found.append((self.extra[name], False))
        return found

    def evidence(self, name: str, kind: str) -> bool:
        from dl_lint.analysis.signals import has_signal

        key = (name, kind)
        if key not in self._evidence:
            self._evidence[key] = any(has_signal(data, kind) for data, _ in self._sources(name))
        return self._evidence[key]

    def imports(self, name: str) -> FrozenSet[str]:
        if name not in self._imports:
            found: Set[str] = set()
            for path in self.paths.get(name, ()):
                raw = self.project.raw_imports(path)
                # A file known under two names (``src.pkg.mod`` and ``pkg.mod``) imports the same
                # modules unless it imports relatively: those are read once per file.
                key = (path, name) if any(written.startswith(".") for written, _ in raw[1]) else (path, "")
                got = self._by_file.get(key)
                if got is None:
                    got = imported_modules(b"", name, path.endswith("__init__.py"), raw)
                    got = self._by_file[key] = got | self._by_ending(got, path)
                found |= got
            if name in self.extra:
                found |= imported_modules(self.extra[name], name, False)
            self._imports[name] = frozenset(found)
        return self._imports[name]

    def _by_ending(self, imported: FrozenSet[str], path: str) -> FrozenSet[str]:
        """The names of the files that imports no project module answers resolve to by the
        ending of their dotted name, as the value resolver resolves them from ``path``
        (``Project._ending_paths``, the nearest file): ``from pythonProject.loaders import make``
        after ``sys.path.append(...)`` is an edge to ``stage.pythonProject.loaders``, so a run
        naming either file reads the other (issue 26)."""
        out: Set[str] = set()
        for name in imported:
            if "." in name and name not in self.paths:
                chosen = self.project._choose(name, path) if self.project._ending_paths(name) else None
                if chosen is not None:
                    out.update(self.names_of(absolute_path(os.fspath(chosen), os.getcwd())))
        return frozenset(out)

    def _ending_words(self, target: str) -> Set[bytes]:
        """The first names of the endings (two parts or more) of ``target`` that no project
        module answers: an importer by ending writes one of them, not ``target``'s first name."""
        parts = target.split(".")
        return {parts[i].encode() for i in range(1, len(parts) - 1) if ".".join(parts[i:]) not in self.paths}

    def importers(self, target: str) -> Set[str]:
        """The modules whose imports name ``target``. Only a file whose bytes hold the first
        name of a module (``import a.b.c``, ``from a.b import c``) or a relative import
        (``from . import x`` names its package without writing it) can import a module of that
        top-level name: the reverse edges into one top-level name are built from those files
        alone, when a search first goes up from a module under it (a script nobody imports,
        DL301's usual question, cost 34 ms of building the whole reverse graph on Lightning,
        and 3 ms this way; a search climbing ``examples.fabric.dcgan`` to ``examples`` stays
        under that name). Past ``ROOTS`` top-level names, or ``WORDS`` words searched for one,
        or when the results cache brought the files' imports, the whole reverse graph is built
        once (``_whole``)."""
        if self._reverse is not None:
            return self._reverse.get(target, set())
        first = target.partition(".")[0]
        partial = self._partial.get(first)
        if partial is None:
            if len(self._partial) >= self.ROOTS or self._imports_cached():
                return self._whole().get(target, set())
            partial = self._partial[first] = {}
            self._scanned[first] = (set(), set())
            self._scan(first, {first.encode()})
        words = self._ending_words(target) - self._scanned[first][0]
        if words:  # importers by ending write another first name: the files holding it too
            if len(self._scanned[first][0]) + len(words) > self.WORDS:
                return self._whole().get(target, set())  # a search per word would cost files x words
            self._scan(first, words)
        return partial.get(target, set())

    def _whole(self) -> Dict[str, Set[str]]:
        """Build the whole reverse graph (the imports read so far are reused) and drop the
        partial one."""
        self._partial = {}
        self._scanned = {}
        self._held = None
        self._reverse = {}
        for name in (*self.paths, *self.extra):
            for imported in self.imports(name):
                self._reverse.setdefault(imported, set()).add(name)
        return self._reverse

    def _imports_cached(self) -> bool:
        """Whether the results cache came with the imports of most files (a run after a full
        one): then the whole reverse graph costs a lookup per file and reads no bytes, while the
        partial one reads every file's bytes to search them (a pre-commit run naming five
        Lightning modules searched all 646 files, which nearly all hold ``lightning`` or
        ``pytorch``: the neighbourhood took 80 ms, 40 ms this way). Imports this run computed
        do not count: a first run's graph stays partial."""
        return getattr(self.project.store, "imports_at_load", 0) * 2 >= len(self._names_by_path())

    def _scan(self, first: str, words: Set[bytes]) -> None:
        """Add to the reverse edges into ``first`` those of the files whose bytes hold one of
        ``words`` (or a relative import), not read for ``first`` before."""
        partial = self._partial[first]
        scanned, files = self._scanned[first]
        scanned |= words
        if self._held is None:
            read = self.project.source_bytes
            held = [(read(path), names) for path, names in self._names_by_path().items()]
            held += [(data, [name]) for name, data in self.extra.items()]
            self._held = [[data, names, None] for data, names in held]
        held = self._held
        for index, entry in enumerate(held):
            if index in files:
                continue
            data, names, relative = entry
            if relative is None and not any(word in data for word in words):
                relative = entry[2] = _relative(data)
            if relative or any(word in data for word in words):
                files.add(index)
                for name in names:
                    for imported in self.imports(name):
                        if imported == first or imported.startswith(first + "."):
                            partial.setdefault(imported, set()).add(name)

    def reaches(self, module: str, kind: str, path: Optional[str] = None) -> Tuple[bool, List[str]]:
        """Whether evidence is connected to ``module``, and when it is, the modules the answer
        rests on (from ``module`` to the one with evidence): only a change to one of them can
        make it false. A false answer rests on every file (any file may gain an import).
        ``path``: the module's own file, when the name is ambiguous (scripts named
        ``train_torch.py`` in several example folders are all the module ``train_torch``)."""
        if path is not None and len(self.paths.get(module, ())) > 1:
            path = absolute_path(path, os.getcwd())
            # the file's own name from the root, when only it has that name (``utils.data_val``
            # for ``utils/data_val.py`` beside a ``jittor_lib/utils/data_val.py``, both ``data_val``
            # in folders without ``__init__.py``): its importers use that name
            found = self._reaches_script(module, kind, path)
            unique = [name for name in self.names_of(path) if name != module and self.paths.get(name) == [path]]
            if found[0] or not unique:
                return found
            return self._reaches(unique[0], kind, unique_only=True)
        return self._reaches(module, kind)

    def _reaches(self, module: str, kind: str, unique_only: bool = False) -> Tuple[bool, List[str]]:
        """``reaches`` by name; ``unique_only``: the other names of the module's file count only
        when each names that file alone (a bare ``data_val`` two files answer to does not)."""
        if self.evidence(module, kind):
            return True, [module]
        names = self.aliases(module)
        if unique_only:
            names = [name for name in names if name == module or len(self.paths.get(name, ())) == 1]
        for name in names:
            for dep in sorted(self.imports(name)):  # sorted: the same module cited in every run
                if self.evidence(dep, kind):
                    return True, [name, dep]
        if kind == "accelerator":  # generous evidence only: it can only silence DL102
            chain = self._below(names, kind)
            if chain:
                return True, chain
        clean = self._clean.setdefault(kind, set())
        todo = list(names)
        parent: Dict[str, str] = {name: "" for name in names}
        while todo:
            current = todo.pop()
            if current in clean and current != module:
                continue  # everything above it was searched already, without evidence
            parts = current.split(".")
            for target in [current] + [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]:
                for importer in sorted(self.importers(target)):
                    if importer in parent:
                        continue
                    parent[importer] = current
                    if self.evidence(importer, kind):
                        return True, _chain(parent, importer)
                    todo.append(importer)
        if kind == "accelerator":
            # what the programs that import it import (``trainer.py`` imports the loader's
            # module and ``utils/train.py``, whose ``train()`` moves the batches): generous
            # evidence again, only ever silencing DL102
            above = [name for name in parent if name not in names]
            chain = self._below(above, kind, self._below_clean) if above else []
            if chain:
                return True, _chain(parent, chain[0])[::-1] + chain[1:]
        clean.update(parent)
        return False, []

    def _reaches_script(self, module: str, kind: str, path: str) -> Tuple[bool, List[str]]:
        """``reaches`` for one file of an ambiguous module name: its own evidence and imports,
        and importers in its own folder (where ``import train_torch`` finds it), not those of
        the other files of that name."""
        from dl_lint.analysis.signals import has_signal

        if has_signal(self.project.source_bytes(path), kind):
            return True, [module]
        for dep in imported_modules(b"", module, path.endswith("__init__.py"), self.project.raw_imports(path)):
            if self.evidence(dep, kind):
                return True, [module, dep]
        # Its importers are in its own folder (where ``import train_torch`` finds it): read only
        # those files, not the whole project's reverse graph.
        folder = os.path.dirname(path)
        for name, paths in sorted(self.paths.items()):
            for other in paths:
                if other == path or os.path.dirname(other) != folder:
                    continue
                imported = imported_modules(b"", name, other.endswith("__init__.py"), self.project.raw_imports(other))
                if module in imported and has_signal(self.project.source_bytes(other), kind):
                    return True, [name, module]
        return False, []

    def paths_of(self, module: str) -> List[str]:
        return self.paths.get(module, [])

    def _below(self, names: List[str], kind: str, clean: Optional[Set[str]] = None) -> List[str]:
        """Evidence anywhere in what ``names`` import, transitively (``detector.run(batch)``:
        the batch is moved in a module the detector's module imports). An import no project
        module answers to is matched by its dotted ending (``from detectors.factory import``
        with ``src/lib`` put on ``sys.path`` by a helper: ``src.lib.detectors.factory``). The
        chain from ``names`` to the module with evidence, or []."""
        parent: Dict[str, str] = {name: "" for name in names}
        todo = list(names)
        while todo:
            current = todo.pop()
            for imported in sorted(self.imports(current)):
                for dep in ([imported] if imported in self.paths else self._ending(imported)):
                    if dep in parent or (clean is not None and dep in clean):
                        continue
                    parent[dep] = current
                    if self.evidence(dep, kind):
                        return _chain(parent, dep)[::-1]
                    todo.append(dep)
        if clean is not None:
            clean.update(parent)  # searched below without evidence: not again in this run
        return []

    def _ending(self, name: str) -> List[str]:
        """Project modules whose dotted name ends with ``.name``."""
        if self._endings is None:
            self._endings = {}
            for known in self.paths:
                parts = known.split(".")
                for i in range(1, len(parts)):
                    self._endings.setdefault(".".join(parts[i:]), []).append(known)
        return self._endings.get(name, [])

    def names_of(self, path: str) -> List[str]:
        """Every module name the file at ``path`` is known by."""
        return sorted(self._names_by_path().get(path, ()))

    def _names_by_path(self) -> Dict[str, List[str]]:
        """File -> the module names it is known by, built once."""
        if self._by_path is None:
            self._by_path = {}
            for name, paths in self.paths.items():
                for one in paths:
                    self._by_path.setdefault(one, []).append(name)
        return self._by_path

    def aliases(self, module: str) -> List[str]:
        """``module`` and the other names its one file is known by: a file in a folder without
        ``__init__.py`` is ``data`` by its packages and ``utils.data`` from the root, the name
        ``from utils.data import ...`` uses (a namespace package)."""
        own = self.paths.get(module, ())
        if len(own) != 1:
            return [module]
        return [module, *(name for name in self.names_of(own[0]) if name != module)]


def _chain(parent: Dict[str, str], end: str) -> List[str]:
    """The modules from ``end`` back to where a search of the import graph started (``parent``
    maps each module found to the one it was reached from; a start maps to "")."""
    chain = [end]
    while parent[chain[-1]]:
        chain.append(parent[chain[-1]])
    return chain


def _imports_entry(content_hash: str, found) -> list:
    """A results-cache entry of a file's ``raw_imports`` (``ResultsCache.imports``)."""
    return [content_hash, list(found[0]), [[w, list(n)] for w, n in found[1]]]


def raw_imports(data: bytes) -> Tuple[Tuple[str, ...], Tuple[Tuple[str, Tuple[str, ...]], ...]]:
    """The import statements of ``data``, read from bytes (no parse): the modules ``import``
    names, and each ``from BASE import NAMES`` with BASE as written (relative or not); a star
    import lists the name ``*``. The patterns are tried only at the start of lines that hold
    ``import`` (found with ``bytes.find``): scanning every position of a 17 MB tree with
    ``^``-anchored patterns took a third of a second."""
    plain: List[str] = []
    froms = []
    covered = 0  # the end of the last ``from`` statement (a parenthesised one spans lines)
    at = data.find(b"import")
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        if start >= covered:
            match = _IMPORT.match(data, start)
            if match is not None:
                for part in match.group(1).split(b","):
                    words = part.split()
                    if words:
                        plain.append(words[0].decode("ascii", "replace"))
            else:
                match = _FROM_IMPORT.match(data, start)
                if match is not None:
                    covered = match.end()
                    end = max(end, covered)
                    froms.append(_from_import(*match.groups()))
        if end < 0:
            break
        at = data.find(b"import", end)
    return tuple(plain), tuple(froms)


def _from_import(base: bytes, parenthesised: Optional[bytes], plain_names: Optional[bytes]) -> Tuple[str, Tuple[str, ...]]:
    names = parenthesised or plain_names or b""
    if b"#" in names:  # comments in a parenthesised list (``# noqa``) hide no name
        names = b"\n".join(line.split(b"#", 1)[0] for line in names.split(b"\n"))
    found = []
    for item in names.replace(b"\\", b" ").split(b","):
        words = item.split()
        if words and words[0] not in (b"(", b")"):
            name = words[0].strip(b"()")
            if name:
                found.append(name.decode("ascii", "replace"))
    return base.decode("ascii", "replace"), tuple(found)


def imported_modules(data: bytes, module: str, is_package: bool, raw=None) -> FrozenSet[str]:
    """Modules an import statement in ``data`` names (absolute; ``from a import b`` gives both
    ``a`` and ``a.b``), for the module ``module``. ``raw``: ``raw_imports(data)`` if known."""
    from dl_lint.analysis.names import absolute_module

    plain, froms = raw if raw is not None else raw_imports(data)
    out: Set[str] = set(plain)
    for written, names in froms:
        base = absolute_module(written, module, is_package) if written.startswith(".") else written
        names = [n for n in names if n != "*"]
        if base:
            out.add(base)
            out.update(f"{base}.{name}" for name in names)
        else:
            out.update(names)
    return frozenset(sys.intern(name) for name in out)  # shared strings: one per module in the graph
