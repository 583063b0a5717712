"""Config files a script loads itself, linked by key path.

Many projects load their own YAML, JSON or TOML (``yaml.safe_load``, ``yaml.load``, ``json.load``,
``OmegaConf.load``, HyperPyYAML's ``load_hyperpyyaml``, ``tomllib.load``, ``toml.load``: TOML
files are read by ``configs.tomlfile``) from a path the command line picks
(``--config configs/train.yaml``). Such a file is a *run configuration* of the script when

- the code names it or its folder: a literal passed to the loading function (that file only), or,
  for a path the command line or the environment picks, the default path (an argparse default,
  its folder), a config folder beside the script or at the project root (``config``, ``configs``,
  ``conf``, ``cfg``, ``hparams``, and their subfolders); and
- the code reads one of its key paths: ``cfg.data.num_workers``, ``config["train"]["workers"]``,
  ``cfg.get("num_workers")``, ``**hparams["loader_opts"]`` spread into a loader.

Each such file is one run (``configs.runs``): a value that crashes in a file is reported at that
file's line, with the loader as related location; a file that lacks the key, or whose value is
not a plain literal, is not judged for it.

Cost, by design lazy: nothing is listed or read until a loader's argument reads a key of a loaded
config; a config folder is listed once per run; a file's bytes are read once and parsed only
when they hold every key of the path (``bytes`` test first); each file is parsed once per run
(``Project.config_file``). Everything is read through the project's guarded door.

Read in the libraries' sources (the test extra pins them; ``tests/test_keypaths.py`` loads the
fixtures with them): PyYAML 6 ``safe_load``/``load``/``full_load`` resolve scalars with YAML 1.1's
resolver (``yes`` is true); ``json.load`` is the standard library's; HyperPyYAML 1.2.3
(``hyperpyyaml/core.py``, ``load_hyperpyyaml``) reads with ruamel.yaml's YAML 1.2 loader (``yes``
is a string there) and its ``overrides`` argument replaces keys from the command line; only
values whose spelling means the same in every dialect are taken (decimal integers, ``true`` /
``false``, ``null``), anything else is unknown. Wrappers that keep the key paths of the dict they
are given (``EasyDict``, ``OmegaConf.create``, ``munchify``, ``addict.Dict``, ``Box``,
``ConfigDict``) are followed.

A project function that loads such a file from one of its parameters and returns it (as loaded,
wrapped, or copied key by key into an empty mapping: ``returned_config``) gives each of its callers
the config its argument names, with the same rule; the keys the function sets are edited.

Unknown (silent): a config the module edits (``cfg["data"]["num_workers"] = 0``, ``.update``,
``merge_with``), a file PyYAML cannot read (no DL000: it was found by walking), strings and
floats, custom tags (``!ref``), merges, interpolations, a path built from pieces not all known
when it is fixed (``os.path.join(args.dir, "config.yaml")`` is a picked path: folders are used).
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from dl_lint.record import Record

__all__ = ["LoadedConfig", "LOADERS", "WRAPPERS", "FOLDERS", "candidate", "candidate_files", "lookup"]

# qualname of the loading function -> (dialect, how the file is given: "stream" or "path")
LOADERS: Dict[str, Tuple[str, str]] = {
    "yaml.safe_load": ("safe", "stream"),
    "yaml.load": ("safe", "stream"),
    "yaml.full_load": ("safe", "stream"),
    "yaml.unsafe_load": ("safe", "stream"),
    "json.load": ("json", "stream"),
    "json.loads": ("json", "stream"),
    "hyperpyyaml.load_hyperpyyaml": ("hyperpyyaml", "stream"),
    "hyperpyyaml.core.load_hyperpyyaml": ("hyperpyyaml", "stream"),
    # TOML: the standard library's tomllib (and tomli, the same parser) read a binary stream,
    # ``toml`` (uiri/toml 0.10.2, toml/decoder.py ``load``) a path or a stream (a path here)
    "tomllib.load": ("toml", "stream"),
    "tomllib.loads": ("toml", "stream"),
    "tomli.load": ("toml", "stream"),
    "tomli.loads": ("toml", "stream"),
    "toml.load": ("toml", "path"),
    "toml.loads": ("toml", "stream"),
    "omegaconf.OmegaConf.load": ("omegaconf", "path"),
    "omegaconf.omegaconf.OmegaConf.load": ("omegaconf", "path"),
}
# Objects that keep the key paths of the one dict they are built from.
WRAPPERS = frozenset(
    {
        "easydict.EasyDict",
        "omegaconf.OmegaConf.create",
        "omegaconf.omegaconf.OmegaConf.create",
        "munch.munchify",
        "munch.Munch.fromDict",
        "addict.Dict",
        "box.Box",
        "ml_collections.ConfigDict",
        "ml_collections.config_dict.ConfigDict",
        "dict",
        "builtins.dict",
        "copy.deepcopy",
    }
)
OPENERS = frozenset({"builtins.open", "io.open", "codecs.open"})
_STREAM_METHODS = ("read", "read_text", "open", "read_bytes")
_PATHS = ("pathlib.Path", "pathlib.PurePath")


def opened_call(call: ast.Call, qualname_of: Callable[[Any], Optional[str]]) -> Tuple[str, Optional[Any]]:
    """What a call handed to a loading function reads: ("path", P) for ``open(P)``,
    ``Path(P).read_text()`` and ``Path(P).open()``; ("stream", S) for ``S.read()`` (the stream
    ``S`` to follow); ("", None) for anything else. The one reading of those calls that the
    key-path reader and the resolver share (each follows names its own way)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _STREAM_METHODS and not call.args:
        inner = func.value
        if isinstance(inner, ast.Call) and inner.args and qualname_of(inner.func) in _PATHS:
            return "path", inner.args[0]
        return "stream", inner
    if call.args and qualname_of(func) in OPENERS:
        return "path", call.args[0]
    return "", None
FOLDERS = ("config", "configs", "conf", "confs", "cfg", "cfgs", "hparams")
SUFFIXES = {
    "safe": (".yaml", ".yml"),
    "omegaconf": (".yaml", ".yml"),
    "hyperpyyaml": (".yaml", ".yml"),
    "json": (".json",),
    "toml": (".toml",),
    "mmengine": (".py",),
}
MAX_FILES = 500  # per folder listed (recursively)
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "env", "build", "dist", "outputs", "wandb"})
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")  # 010 is 8 in YAML 1.1, 10 in YAML 1.2


class LoadedConfig(Record):
    """A config a loading function returned (or a node of it, ``keys`` below its top): the files
    that may be it (absolute paths, each a run), the dialect that reads them, whether the command
    line may override a key (HyperPyYAML's ``overrides``), and the keys the module edits."""

    __slots__ = ("files", "keys", "dialect", "overridable", "edited")

    def __init__(
        self,
        files: Tuple[str, ...],
        keys: Tuple[str, ...] = (),
        dialect: str = "safe",
        overridable: bool = False,
        edited: Tuple[Tuple[str, ...], ...] = (),
    ) -> None:
        self.files = files
        self.keys = keys
        self.dialect = dialect
        self.overridable = overridable
        self.edited = edited

    def child(self, key: str) -> "LoadedConfig":
        return LoadedConfig(self.files, self.keys + (key,), self.dialect, self.overridable, self.edited)

    def edits(self, keys: Tuple[str, ...]) -> bool:
        """Whether the module may set ``keys`` (or a key above or below them) itself."""
        return any(keys[: len(e)] == e or e[: len(keys)] == keys for e in self.edited)


# What a module that loads a config file names (``candidate``, ``loads_config``).
_LOADING_WORDS = (b"safe_load", b"yaml.load", b"full_load", b"json.load", b"load_hyperpyyaml", b"toml.load", b"tomllib", b"tomli")


def candidate(data: bytes) -> bool:
    """From bytes: whether a Python file may load a config file of its own and build a loader
    from it (a named config file is then judged through it)."""
    return b"DataLoader" in data and any(word in data for word in _LOADING_WORDS)


_HELPER_DEF = re.compile(rb"^def[ \t]+(\w+)[ \t]*\(", re.M)


def loads_config(data: bytes) -> bool:
    """From bytes: a module that calls a loading function (a helper may return the config)."""
    return b"OmegaConf.load" in data or any(word in data for word in _LOADING_WORDS)


def helper_names(datas: Iterable[bytes]) -> Tuple[bytes, ...]:
    """From bytes: ``NAME(`` of the module-level functions of the modules that load a config
    file and return something (``returned_config`` decides which really hand one back)."""
    out: Dict[bytes, None] = {}
    for data in datas:
        if b"return" in data and loads_config(data):
            for match in _HELPER_DEF.finditer(data):
                if not match.group(1).startswith(b"_") and match.group(1) != b"main":
                    out[match.group(1) + b"("] = None
    return tuple(out)


_CONFIG_EDITS = frozenset(
    {"update", "merge_with", "merge_with_cli", "merge_with_dotlist", "merge", "set_struct", "setdefault", "pop"}
)


def edited_config_keys(
    function: Any, name: str, skip: Optional[Any] = None, skip_ids: Optional[set] = None
) -> Tuple[Tuple[str, ...], ...]:
    """The keys of the config parameter ``name`` that ``function`` sets itself
    (``cfg.data.num_workers = 0``, ``cfg["data"]["x"] += 1``); ``()`` in the result (every key)
    for edits dl-lint cannot place (``OmegaConf.update(cfg, ...)``, ``cfg.merge_with(...)``,
    ``setattr(cfg, ...)``, a computed subscript). ``skip_ids``: nodes not read (the key-by-key
    copy that fills a config, ``keypaths.returned_config``)."""
    edited = set()

    def path_of(node: Any) -> Optional[Tuple[str, ...]]:
        keys: List[str] = []
        while True:
            if isinstance(node, ast.Attribute):
                keys.append(node.attr)
                node = node.value
            elif isinstance(node, ast.Subscript):
                key = node.slice
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    keys = []  # a computed key: any key may be set
                else:
                    keys.append(key.value)
                node = node.value
            else:
                break
        if isinstance(node, ast.Name) and node.id == name:
            return tuple(reversed(keys))
        return None

    for node in _walk_same_name(function, name, skip):
        targets: List[Any] = []
        if skip_ids and id(node) in skip_ids:
            continue
        if isinstance(node, ast.Assign):
            targets = list(node.targets) if node.value is not skip else []  # skip: the binding itself
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.Call):
            func = node.func
            mentions = any(isinstance(a, ast.Name) and a.id == name for a in node.args)
            if isinstance(func, ast.Attribute) and func.attr in _CONFIG_EDITS:
                if mentions or path_of(func.value) is not None:
                    edited.add(())
            elif isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and mentions:
                edited.add(())
        for target in targets:
            if isinstance(target, ast.Name) and target.id == name:
                edited.add(())  # the parameter itself is rebound
                continue
            for element in ast.walk(target):
                found = path_of(element) if isinstance(element, (ast.Attribute, ast.Subscript)) else None
                if found is not None and found:
                    edited.add(found)
                    break
    return tuple(sorted(edited))


def _walk_same_name(root: Any, name: str, binding: Optional[Any] = None) -> Iterable[Any]:
    """``ast.walk(root)`` without the functions (and lambdas) below it in which ``name`` is a
    local variable of their own (a parameter, or bound there and declared neither ``global`` nor
    ``nonlocal``): ``run_d = config_d["run"]`` inside ``load_config`` is not the module's
    ``run_d``. A function that holds ``binding`` (the value the name being judged is bound to)
    is that name's own scope: walked."""
    todo = [root]
    while todo:
        node = todo.pop()
        if (node is not root and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and _local_in(node, name)
                and (binding is None or not any(inner is binding for inner in ast.walk(node)))):  # fmt: skip
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _local_in(function: Any, name: str) -> bool:
    args = function.args
    if any(a.arg == name for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None):
        return True
    if isinstance(function, ast.Lambda):
        return False
    bound = False
    todo = list(function.body)
    while todo:  # the function's own statements: not those of the functions and classes it defines
        node = todo.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            bound = True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound = bound or node.name == name
            continue
        if not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return bound


# -- which files ----------------------------------------------------------------------------------
def candidate_files(
    script: str,
    root: Optional[str],
    named: Sequence[str],
    fixed: bool,
    dialect: str,
    listing: Callable[[str], Tuple[str, ...]],
) -> Tuple[str, ...]:
    """The files that may be the loaded config (absolute, sorted): ``named`` paths (literals,
    argparse defaults) relative to the script's folder or the project root; when the path is
    not ``fixed`` (the command line picks it), also every file of the named files' folders and of
    the config folders beside the script and at the root (``listing`` lists a folder)."""
    suffixes = SUFFIXES[dialect]
    bases = [os.path.dirname(os.path.abspath(script))]
    if root is not None and os.path.abspath(root) not in bases:
        bases.append(os.path.abspath(root))
    found: Dict[str, None] = {}
    folders: Dict[str, None] = {}
    for text in named:
        if not text.strip() or os.path.isabs(text) and not fixed:
            continue  # ``default=''`` names no file (and no folder); an absolute default is a machine's
        for base in bases:
            path = os.path.normpath(os.path.join(base, os.path.expanduser(text)))
            if not root or not _inside(path, root) or path in bases:
                continue
            if os.path.isfile(path):
                if path.endswith(suffixes):
                    found[path] = None
                if not fixed:
                    folders[os.path.dirname(path)] = None
            elif not fixed and os.path.isdir(path):
                folders[path] = None
    if not fixed:
        for base in bases:
            for name in FOLDERS:
                folder = os.path.join(base, name)
                if os.path.isdir(folder):
                    folders[folder] = None
        for folder in folders:
            if root and _inside(folder, root) and os.path.abspath(folder) != os.path.abspath(root):
                for path in listing(folder):
                    if path.endswith(suffixes):
                        found[path] = None
    return tuple(sorted(found))


def _inside(path: str, root: str) -> bool:
    root = os.path.abspath(root)
    path = os.path.abspath(path)
    return path == root or path.startswith(os.path.join(root, ""))


def list_folder(folder: str) -> Tuple[str, ...]:
    """Config-like files under ``folder`` (YAML, JSON, and Python for mmengine's
    ``Config.fromfile``; recursively, hidden and build folders skipped), at most ``MAX_FILES``;
    symbolic links to folders are not followed."""
    out: List[str] = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if name.endswith((".yaml", ".yml", ".json", ".toml", ".py")):
                out.append(os.path.join(here, name))
                if len(out) >= MAX_FILES:
                    return tuple(out)
    return tuple(out)


# -- what a key path holds --------------------------------------------------------------------------
_NOTHING = object()


def _plain(leaf: Any, dialect: str) -> Any:
    """The value of a scalar when every reader of the dialect agrees on it, else ``_NOTHING``."""
    from dl_lint.analysis.configs.yamlfile import UNKNOWN

    value = leaf.value
    text = (leaf.text or "").strip()
    if value is UNKNOWN:
        return _NOTHING
    if isinstance(value, bool):
        return value if text.lower() in ("true", "false") else _NOTHING
    if isinstance(value, int):
        return value if _INT.match(text) else _NOTHING
    if value is None:
        return None if text in ("null", "Null", "NULL", "~") else _NOTHING
    return _NOTHING  # strings, floats, lists: not followed


def _node_at(tree: Any, keys: Tuple[str, ...]) -> Any:
    from dl_lint.analysis.configs.yamlfile import Tree

    node = tree
    for key in keys:
        if not isinstance(node, Tree):
            return None
        node = node.get(key)
    return node


def lookup(
    config: LoadedConfig,
    data_of: Callable[[str], Optional[bytes]],
    tree_of: Callable[[str, str], Any],
) -> Tuple[str, Any]:
    """What ``config.keys`` holds over the runs: ("mapping", None) when some run holds a mapping
    there; ("values", {(value, path, line): {run}}) for the runs holding a plain value;
    ("unknown", None) when no run holds either. ``data_of``: a file's bytes (None: refused);
    ``tree_of``: its tree as a dialect reads it (cached by the caller)."""
    from dl_lint.analysis.configs.yamlfile import Leaf, Tree

    needles = [key.encode("utf-8", "replace") for key in config.keys]
    dialect = "safe" if config.dialect in ("json", "hyperpyyaml") else config.dialect
    places: Dict[Tuple[Any, str, int], set] = {}
    mapping = False
    for path in config.files:
        data = data_of(path)
        if data is None or not all(needle in data for needle in needles):
            continue  # cannot hold the key path: not parsed
        node = _node_at(tree_of(path, dialect), config.keys)
        if isinstance(node, Tree):
            mapping = True
        elif isinstance(node, Leaf):
            value = _plain(node, config.dialect)
            if value is not _NOTHING:
                places.setdefault((value, node.path, node.line), set()).add(path)
    if mapping:
        return "mapping", None
    if places:
        return "values", places
    return "unknown", None


def spread(
    config: LoadedConfig,
    data_of: Callable[[str], Optional[bytes]],
    tree_of: Callable[[str, str], Any],
    names: Iterable[str],
) -> Optional[Dict[str, Dict[Tuple[Any, str, int], set]]]:
    """``**config`` spread into a call: for each of ``names`` (the loader's parameters), the
    places of its value over the runs whose file holds a mapping at ``config.keys``; a run
    without the key gives the absent value (``values.ABSENT``) at the mapping's line; a run
    whose value is not plain is left out of that name (not judged). None: no run holds a
    mapping there (unknown)."""
    from dl_lint.analysis.configs.yamlfile import Leaf, Tree
    from dl_lint.analysis.values import ABSENT

    needles = [key.encode("utf-8", "replace") for key in config.keys]
    dialect = "safe" if config.dialect in ("json", "hyperpyyaml") else config.dialect
    out: Dict[str, Dict[Tuple[Any, str, int], set]] = {name: {} for name in names}
    any_run = False
    for path in config.files:
        data = data_of(path)
        if data is None or not all(needle in data for needle in needles):
            continue
        node = _node_at(tree_of(path, dialect), config.keys)
        if not isinstance(node, Tree):
            continue
        any_run = True
        for name, places in out.items():
            leaf = node.get(name)
            if leaf is None:
                places.setdefault((ABSENT, node.path, node.line), set()).add(path)
            elif isinstance(leaf, Leaf):
                value = _plain(leaf, config.dialect)
                if value is not _NOTHING:
                    places.setdefault((value, leaf.path, leaf.line), set()).add(path)
    if not any_run:
        return None
    # a name no run gives is not spread at all (the loader's default), not a value per run
    return {name: places for name, places in out.items() if any(key[0] is not ABSENT for key in places)}


# -- mmengine's Config.fromfile ----------------------------------------------------------------------
# ``Config.fromfile("configs/x.py")`` (mmengine, mmcv): its first argument, when a string literal.
_FROMFILE = re.compile(rb"\bConfig\.fromfile\(\s*(?:[rRuU]?(['\"])([^'\"\n]+)\1\s*[,)])?")


def fromfile_candidate(data: bytes) -> bool:
    """From bytes: a script that may load mmengine configs with ``Config.fromfile``."""
    return b"Config.fromfile(" in data and (b"mmengine" in data or b"mmcv" in data)


def fromfile_configs(
    paths: Sequence[str],
    source_bytes: Callable[[str], bytes],
    root: Optional[str],
    listing: Callable[[str], Tuple[str, ...]],
) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """(config files, scripts read): the Python files the project's scripts load with
    ``Config.fromfile``: the file a literal names, and for any other path (the command line's
    ``config`` argument) every ``.py`` file of the config folders beside the script and at the
    root. Read from bytes only: no script is parsed for this."""
    found: Dict[str, None] = {}
    scripts: List[str] = []
    for path in paths:
        data = source_bytes(path)
        if not fromfile_candidate(data):
            continue
        scripts.append(path)
        for match in _FROMFILE.finditer(data):
            literal_path = match.group(2)
            if literal_path is not None:
                text = literal_path.decode("utf-8", "replace")
                found.update(dict.fromkeys(candidate_files(path, root, (text,), True, "mmengine", listing)))
            else:
                found.update(dict.fromkeys(candidate_files(path, root, (), False, "mmengine", listing)))
    return tuple(sorted(found)), tuple(scripts)


# -- a project function that returns a loaded config ------------------------------------------------
# Objects built empty and filled key by key from a loaded config (``cfg = EasyDict()`` then
# ``for k, v in config.items(): cfg[k] = v``): the terminal names of their constructors.
_EMPTY = frozenset({"EasyDict", "edict", "Munch", "Dict", "Box", "ConfigDict", "dict", "AttrDict", "OrderedDict"})
LOAD_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in LOADERS)


def returned_config(
    function: Any, qualname_of: Callable[[Any], Optional[str]]
) -> Optional[Tuple[str, int, Optional[str], Optional[str], Tuple[Tuple[str, ...], ...]]]:
    """What a project function hands back when every ``return`` gives one config file it loads
    (``create_config(config_file_exp)``: ``config = yaml.safe_load(stream)`` from ``with
    open(config_file_exp) as stream``, returned as is, through a wrapper (``EasyDict(config)``)
    or copied key by key into an empty one (``for k, v in config.items(): cfg[k] = v``,
    ``cfg.update(config)``)): (dialect, position of the parameter that names the file or -1,
    that parameter, the literal path when a string names it, the keys the function sets on the
    config itself: ``()`` among them for any key). A caller resolves the file from its argument
    (``Resolver._returned_config``). None for anything else: a path built from pieces, two loaded
    files merged, a name bound twice, a generator. ``qualname_of``: a callee's qualified name
    from the module's imports."""

    from dl_lint.analysis.namespaces import returns_of, statements_of

    if isinstance(function, ast.AsyncFunctionDef):
        return None
    returns = returns_of(function)
    if not returns or any(r.value is None for r in returns) or len(returns) > 4:
        return None
    assigned: Dict[str, List[Any]] = {}
    withs: Dict[str, Any] = {}
    with_uses: Dict[int, Any] = {}  # id of a Name read in a ``with`` block -> what it opened
    fills: Dict[str, List[Tuple[Any, Any]]] = {}  # name -> (statement, the config it copies)
    rebound: set = set()
    for statement in statements_of(function):
        if isinstance(statement, ast.Assign):
            if len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                assigned.setdefault(statement.targets[0].id, []).append(statement.value)
            else:
                for target in statement.targets:
                    rebound.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)) and isinstance(statement.target, ast.Name):
            rebound.add(statement.target.id)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                if isinstance(item.optional_vars, ast.Name):
                    name = item.optional_vars.id
                    withs[name] = item.context_expr
                    # ``with open(a) as stream`` then ``with open(b) as stream``: each use in a
                    # block is that block's stream
                    for inner in statement.body:
                        for node in ast.walk(inner):
                            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                                with_uses.setdefault(id(node), item.context_expr)
        elif isinstance(statement, (ast.For, ast.AsyncFor)):
            copied = _copy_loop(statement)
            if copied is not None:
                fills.setdefault(copied[0], []).append((statement, copied[1]))
            else:
                rebound.update(n.id for n in ast.walk(statement.target) if isinstance(n, ast.Name))
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            func = call.func
            if (
                isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name)
                and len(call.args) == 1 and not call.keywords
            ):
                fills.setdefault(func.value.id, []).append((statement, call.args[0]))

    def opened(expr: Any, hops: int = 0) -> Optional[Any]:
        """The path a stream given to a loading function was opened from."""
        if hops > 4:
            return None
        if isinstance(expr, ast.Call):
            kind, found = opened_call(expr, qualname_of)
            return opened(found, hops + 1) if kind == "stream" else found
        if isinstance(expr, ast.Name) and expr.id not in rebound:
            if expr.id in withs and expr.id not in assigned:
                found = with_uses.get(id(expr))
                return opened(found, hops + 1) if found is not None else None
            values = assigned.get(expr.id, [])
            if len(values) == 1 and expr.id not in withs:
                return opened(values[0], hops + 1)
        return None

    names: Dict[str, Any] = {}  # config names of the function -> the node that binds them (skipped as an edit)
    skipped: List[Any] = []

    def config_of(expr: Any, hops: int = 0) -> Optional[Tuple[str, Any]]:
        """(dialect, path expression) of the one file ``expr`` holds the config of."""
        if hops > 6:
            return None
        if isinstance(expr, ast.Call):
            qualname = qualname_of(expr.func)
            if qualname in LOADERS:
                dialect, given = LOADERS[qualname]
                if dialect == "hyperpyyaml" and (len(expr.args) > 1 or expr.keywords):
                    return None  # overrides from the command line: not followed here
                arg = expr.args[0] if expr.args else next(
                    (k.value for k in expr.keywords if k.arg in ("stream", "fp", "s", "yaml_stream", "file_", "f")), None
                )
                if arg is None or isinstance(arg, ast.Starred):
                    return None
                path = opened(arg) if given == "stream" else arg
                return (dialect, path) if path is not None else None
            if qualname in WRAPPERS and len(expr.args) == 1 and not expr.keywords and not isinstance(expr.args[0], ast.Starred):
                return config_of(expr.args[0], hops + 1)
            return None
        if isinstance(expr, ast.Name) and expr.id not in rebound and expr.id not in withs:
            values = assigned.get(expr.id, [])
            if len(values) != 1:
                return None
            value = values[0]
            filled = fills.get(expr.id, [])
            if filled:
                if not _empty(value) or len(filled) != 1:
                    return None  # filled from two sources, or on top of other keys
                statement, source = filled[0]
                found = config_of(source, hops + 1)
                if found is not None:
                    names[expr.id] = value
                    skipped.append(statement)
                return found
            found = config_of(value, hops + 1)
            if found is not None:
                names[expr.id] = value
            return found
        return None

    found = None
    for statement in returns:
        here = config_of(statement.value)
        if here is None or (found is not None and ast.dump(here[1]) != ast.dump(found[1])) or (found and here[0] != found[0]):
            return None
        found = here
    assert found is not None
    dialect, path = found
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    params = {*positional, *(a.arg for a in args.kwonlyargs)}
    if isinstance(path, ast.Name) and path.id in params and path.id not in rebound and path.id not in assigned and path.id not in withs:
        where = (positional.index(path.id) if path.id in positional else -1, path.id, None)
    elif isinstance(path, ast.Constant) and isinstance(path.value, str):
        where = (-1, None, path.value)
    else:
        return None
    inside = {id(n) for statement in skipped for n in ast.walk(statement)}
    edited: set = set()
    for name, binding in names.items():
        edited.update(edited_config_keys(function, name, skip=binding, skip_ids=inside))
    return dialect, where[0], where[1], where[2], tuple(sorted(edited))


def _copy_loop(statement: Any) -> Optional[Tuple[str, Any]]:
    """``for k, v in SOURCE.items(): OUT[k] = v`` (the whole body): (OUT, SOURCE)."""

    target, it = statement.target, statement.iter
    if statement.orelse or len(statement.body) != 1 or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
        return None
    key, value = target.elts
    if not (isinstance(key, ast.Name) and isinstance(value, ast.Name)):
        return None
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" and not it.args):
        return None
    body = statement.body[0]
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1 and isinstance(body.targets[0], ast.Subscript)):
        return None
    out = body.targets[0]
    if not (isinstance(out.value, ast.Name) and isinstance(out.slice, ast.Name) and out.slice.id == key.id):
        return None
    if not (isinstance(body.value, ast.Name) and body.value.id == value.id):
        return None
    return out.value.id, it.func.value


def _empty(expr: Any) -> bool:
    """``{}``, ``dict()``, ``EasyDict()``: an empty mapping."""

    if isinstance(expr, ast.Dict):
        return not expr.keys
    if isinstance(expr, ast.Call) and not expr.args and not expr.keywords:
        func = expr.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in _EMPTY
    return False
