"""Configs the project instantiates itself: the taming-transformers / latent-diffusion family.

Shape (CompVis taming-transformers, and the many diffusion and generative repositories built
on it)::

    def get_obj_from_str(string):
        module, cls = string.rsplit(".", 1)
        return getattr(importlib.import_module(module), cls)

    def instantiate_from_config(config):
        return get_obj_from_str(config["target"])(**config.get("params", dict()))

    configs = [OmegaConf.load(c) for c in opt.base]          # ``--base``: nargs list of YAML files
    config = OmegaConf.merge(*configs, OmegaConf.from_dotlist(unknown))
    data = instantiate_from_config(config.data)

with ``data: {target: main.DataModuleFromConfig, params: {batch_size: 12, num_workers: 24}}``.
The class a YAML node names is built with its ``params`` as keyword arguments; its methods'
DataLoaders read them through ``self`` (``self.num_workers = num_workers``).

**The helper** is recognised by what it does, not by its name: a function (of any module of the
project) whose body, after guards (``if`` statements that only raise or return a constant), is
``return G(config[K])(**config.get(P, {}))`` where ``config`` is its first parameter, ``G`` is a
project function that returns ``getattr(importlib.import_module(...), ...)`` (it imports a dotted
string), ``K`` is read as ``config[K]``, ``config.K`` or ``config.get(K)``, and the mapping spread
is ``config.get(P, {})`` / ``config.get(P, dict())`` (a node without ``P`` gives no arguments)
or ``config[P]`` / ``config.P`` (a node without ``P`` raises: no run). ``K`` and ``P`` are the
helper's own string constants (``"target"``/``"params"`` in the family, any others work). Checked
once per function and run.

**The config** given to the helper is a key path (``config.data``, ``config["data"]``) of a name
bound once to ``OmegaConf.load(P)`` or to ``OmegaConf.merge(...)`` of one source of loaded files
(``*[OmegaConf.load(c) for c in opt.base]``, a name bound to that list, or one
``OmegaConf.load(P)``) and any number of command-line dotlists (``OmegaConf.from_dotlist``,
``OmegaConf.from_cli``). Nothing of the module may edit the key path (an assignment below or
above it, ``OmegaConf.update``, ``merge_with``): then it is unknown.

**Which YAML files are this project's configs** (the rule of ``configs.keypaths``, shared): a
literal path names that file only; a path the command line picks (``opt.base``, an argparse
option, a ``--base`` list) names its default's file and folder, and every ``.yaml``/``.yml``
file under a config folder (``config``, ``configs``, ``conf``, ``confs``, ``cfg``, ``cfgs``,
``hparams``) beside the script or at the project root, recursively, at most 500 files a folder;
inside the project root only, each read through the guarded door. Of those, a file is a run
when its bytes hold the key path and the helper's two keys, and it holds a mapping at the key
path whose ``K`` is a string naming a project class.

**Several files merged** (``--base a.yaml b.yaml``, later files overriding earlier ones) and the
command line's dotlist (``data.params.num_workers=0``) are not enumerated: each file present is
judged as the run that gives it alone, its values being the defaults of that run (as Hydra's).
A file without a ``K`` at the key path (a fragment meant to be merged over another) is no run.

**Binding**: the class named by ``K`` (``main.DataModuleFromConfig``: the project module
``main``, as ``importlib`` finds it from the root) with its own ``__init__`` (an inherited one
is not followed) takes the params by name; a key it has no parameter for (and no ``**kwargs``)
or a missing required parameter is a TypeError: no run. Parameters not given take their
defaults. Each method's loaders are re-resolved with those values (as LightningCLI's data
modules are: ``ModuleAnalysis.loader_calls_with``). A value that is a mapping, a list, an
interpolation ``${...}`` or a tag is unknown as a value; a mapping with the helper's keys that
the data module instantiates itself is its dataset (``_Datasets``).

**What is judged**: the rules of ``JUDGED_BY`` (they read argument values and the dataset), and
only findings that a value of the YAML file decides, reported at that value's line (or the
dataset node's key line) with the loader as related location; what the Python decides alone is
the loader's own file's.

Unknown (silent): a target that is not a project class (a library class, a module not in the
project, a typo), a helper that passes anything else (``**kwargs`` of its own, positional
arguments), a config built any other way.

**The getattr-by-name family** (victoresque/pytorch-template's ``ConfigParser`` and the many
repositories derived from it) goes through the same runs and binding::

    config = ConfigParser.from_args(args, options)             # read_json(Path(args.config))
    data_loader = config.init_obj("data_loader", module_data)  # getattr(module, self[name]["type"])(
                                                               #     *args, **self[name]["args"])

The factory method, the class keeping the loaded config and the files are recognised by what
they do (``_factory_method``, ``_read_config_class``, the keypaths folder rule; see the section
below and docs/configuration.md). The class a file's node names in the module passed is, when
a loader subclass, bound as a call of it with the node's ``args`` as keywords would be
(``ModuleAnalysis._bind`` with the arguments given: the loader-subclass chain down to torch's),
and otherwise read as a data module (``_class_loaders``). Keys the command line's ``options``
may set (``CustomArgs(..., target="data_loader;args;batch_size")``) are unknown.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Dict, Iterable, List, Optional, Tuple

from dl_lint.analysis.configs.lightning_cli import _class_node, project_class
from dl_lint.analysis.configs.yamlfile import UNKNOWN, Leaf, Tree
from dl_lint.analysis.scopes import END
from dl_lint.record import Record

__all__ = ["candidate", "loader_calls", "JUDGED_BY", "relocate"]

# The rules whose findings a YAML value decides (they read argument values only).
# DL011 (an option unguarded while num_workers can be 0) is about the Python call: not here.
# DL201/DL202 read the dataset a nested node instantiates (``_Datasets``).
JUDGED_BY = frozenset({"DL001", "DL002", "DL003", "DL004", "DL005", "DL006", "DL007", "DL008", "DL009", "DL010", "DL101", "DL201", "DL202"})
_LOAD_NAMES = frozenset({"load", "merge"})
_OVERRIDES = frozenset({"from_dotlist", "from_cli"})
_LOAD = re.compile(rb"OmegaConf\s*\.\s*load\s*\(")  # after a word boundary (``found_as_word``)


def candidate(data: bytes) -> bool:
    """From bytes: a Python file that may instantiate a class from a YAML node it loads with
    OmegaConf (``OmegaConf.load(``), or call a getattr-by-name factory (``by_name_candidate``)."""
    from dl_lint.analysis.configs import found_as_word

    return (b"OmegaConf" in data and found_as_word(_LOAD, data)) or by_name_candidate(data)


def loader_calls(analysis: Any) -> list:
    """The loader calls of the project classes this module instantiates from config nodes, once
    per config file (``LoaderCall.extra["instantiated"]``: the script)."""
    if not analysis.path:
        return []
    out = _omegaconf_calls(analysis) if "OmegaConf" in analysis.source else []
    return out + _by_name_calls(analysis)


def _omegaconf_calls(analysis: Any) -> list:
    roots = _config_roots(analysis)
    if not roots:
        return []
    out: list = []
    seen: set = set()
    writes = _LazyWrites(analysis.tree)
    for call, site, _scope, _cls in analysis.index.calls:
        if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
            continue
        chain = _chain(call.args[0])
        if chain is None or chain[0] not in roots or not chain[1]:
            continue
        try:
            _add_new(out, seen, _instantiated(analysis, call, site, chain, writes))
        except RecursionError:
            continue
    return out


def _add_new(out: list, seen: set, loaders: Iterable, by_path: bool = True) -> None:
    """Append the loader calls not seen yet (the same place built with the same values; the
    by-name factories' are told apart by location alone, as they always were)."""
    for loader in loaders:
        values = tuple(sorted((n, repr(a.value)) for n, a in loader.args.items()))
        key = (loader.path, loader.location, values) if by_path else (loader.location, values)
        if key not in seen:
            seen.add(key)
            out.append(loader)


# -- the config ----------------------------------------------------------------------------------
def _omegaconf_call(node: Any, names: frozenset) -> Optional[str]:
    """``OmegaConf.<name>(...)`` for a name of ``names``: that name, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names:
        base = node.func.value
        if (isinstance(base, ast.Name) and base.id == "OmegaConf") or (isinstance(base, ast.Attribute) and base.attr == "OmegaConf"):
            return node.func.attr
    return None


def _config_roots(analysis: Any) -> set:
    """Names the module binds to ``OmegaConf.load(...)`` or ``OmegaConf.merge(...)`` (cheap:
    from the syntax; the resolver confirms which OmegaConf it is)."""
    out = set()
    for node in ast.walk(analysis.tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if _omegaconf_call(node.value, _LOAD_NAMES):
                out.add(node.targets[0].id)
    return out


def _chain(expr: ast.AST) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """``config.data`` / ``config["data"]["x"]``: (root name, keys)."""
    keys: List[str] = []
    while True:
        if isinstance(expr, ast.Attribute):
            keys.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
            if not expr.slice.value.isprintable():
                return None  # keys are cited in messages: no line breaks from the project's strings
            keys.append(expr.slice.value)
            expr = expr.value
        elif isinstance(expr, ast.Name):
            return expr.id, tuple(reversed(keys))
        else:
            return None


def _is_omegaconf(analysis: Any, func: ast.AST, site: Any) -> bool:
    target = analysis.resolver.resolve(func.value, site).single
    qualname = getattr(target.value, "qualname", None) if target is not None else None
    return qualname in ("omegaconf.OmegaConf", "omegaconf.omegaconf.OmegaConf")


def _config_files(analysis: Any, name: str, site: Any) -> Optional[Tuple[str, ...]]:
    """The YAML files the config bound to ``name`` may be (each a run), or None (unknown)."""
    _, bindings = analysis.resolver.lookup(name, site)
    if len(bindings) != 1 or bindings[0].kind != "assign" or not isinstance(bindings[0].value, ast.Call):
        return None
    value, where = bindings[0].value, bindings[0].site or END
    kind = _omegaconf_call(value, _LOAD_NAMES)
    if kind is None or not _is_omegaconf(analysis, value.func, where):
        return None
    if kind == "load":
        return _loaded(analysis, value, where)
    if value.keywords:
        return None
    sources: List[Tuple[str, ...]] = []
    for arg in value.args:
        inner = arg.value if isinstance(arg, ast.Starred) else arg
        if isinstance(inner, ast.Name):  # ``cli = OmegaConf.from_dotlist(unknown)``, ``configs = [...]``
            _, found = analysis.resolver.lookup(inner.id, where)
            if len(found) != 1 or found[0].kind != "assign":
                return None
            inner = found[0].value
        if not isinstance(arg, ast.Starred) and _omegaconf_call(inner, _OVERRIDES):
            continue  # the command line's dotlist: values stay the file's defaults
        if isinstance(arg, ast.Starred) and isinstance(inner, ast.ListComp):
            if len(inner.generators) != 1 or inner.generators[0].ifs or inner.generators[0].is_async:
                return None
            generator = inner.generators[0]
            load = inner.elt
            if (
                _omegaconf_call(load, frozenset({"load"})) is None
                or len(load.args) != 1
                or not isinstance(generator.target, ast.Name)
                or not isinstance(load.args[0], ast.Name)
                or load.args[0].id != generator.target.id
            ):
                return None
            files = _picked(analysis, generator.iter, where)
        elif not isinstance(arg, ast.Starred) and _omegaconf_call(inner, frozenset({"load"})):
            files = _loaded(analysis, inner, where)
        else:
            return None  # OmegaConf.create(...), a config built by code: unknown
        if files is None:
            return None
        sources.append(files)
    if len(sources) != 1:
        return None  # a fixed base merged with picked files: not enumerated
    return sources[0]


def _loaded(analysis: Any, call: ast.Call, site: Any) -> Optional[Tuple[str, ...]]:
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
        return None
    return _picked(analysis, call.args[0], site)


def _picked(analysis: Any, expr: ast.AST, site: Any) -> Optional[Tuple[str, ...]]:
    """The files a path expression (or a list of paths: ``opt.base``) may name."""
    resolver = analysis.resolver
    named, fixed = resolver._path_texts(expr, site, 1)
    if not fixed:
        value = resolver.resolve(expr, site)
        for option in value.options or ():
            if isinstance(option.value, (list, tuple)):  # ``--base`` with a list default
                named = named + tuple(v for v in option.value if isinstance(v, str))
    files = resolver.project.keypath_files(analysis.path, named, fixed, "omegaconf")
    return files or None


class _Writes:
    """What the module may write, read once per module: names bound to a key path (``params =
    config.data.params``), every key path stored or deleted, every call of a method that
    changes a mapping in place."""

    def __init__(self, tree: ast.AST) -> None:
        self.bound: List[Tuple[str, str]] = []  # (alias, root)
        self.stores: List[Tuple[str, Tuple[str, ...]]] = []
        self.calls: List[Tuple[str, str, Any]] = []  # (base name, method, first argument)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Attribute, ast.Subscript)):
                chain = _chain(node.value)
                if chain is not None:
                    self.bound.extend((t.id, chain[0]) for t in node.targets if isinstance(t, ast.Name))
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for target in targets:
                    for sub in ast.walk(target):
                        if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                            chain = _chain(sub)
                            if chain is not None:
                                self.stores.append(chain)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                if node.func.attr in ("update", "merge_with", "pop", "setdefault"):
                    self.calls.append((node.func.value.id, node.func.attr, node.args[0] if node.args else None))

    def edit(self, name: str, keys: Tuple[str, ...]) -> bool:
        """Whether the module may change ``name``'s key path (a store at, above or below it, a
        store through a name bound to a node of it, or a call that merges or updates it)."""
        aliases = {alias for alias, root in self.bound if root == name}
        for root, written in self.stores:
            if root in aliases:
                return True
            if root == name and (written[: len(keys)] == keys or keys[: len(written)] == written):
                return True
        for base, attr, first in self.calls:
            if base in aliases:
                return True
            if base == name:
                if attr != "pop" or not isinstance(first, ast.Constant) or first.value == keys[0]:
                    return True
            if attr == "update" and isinstance(first, ast.Name) and first.id == name:
                return True  # OmegaConf.update(config, "data.params.num_workers", 0)
        return False


# -- the helper ----------------------------------------------------------------------------------
def _helper(analysis: Any, func: ast.AST, site: Any) -> Optional[Tuple[str, str, bool]]:
    """(target key, params key, whether params may be absent) when ``func`` is an instantiating
    helper (see the module's docstring), else None. Once per function and run."""
    target = analysis.resolver.resolve(func, site).single
    ref = target.value if target is not None else None
    if getattr(ref, "kind", None) != "function" or not getattr(ref, "path", ""):
        return None
    return _read_once(analysis, ("instantiate-helper", os.path.abspath(ref.path), ref.name), _function, ref, _helper_shape)


def _read_once(analysis: Any, key: tuple, find: Any, ref: Any, read: Any) -> Any:
    """``read(owner, node)`` of the definition ``find(analysis, ref)`` locates, once per key and
    run (``Project.config_memo``); None when it is not found or too deep to read."""
    memo = analysis.resolver.project.config_memo
    if key not in memo:
        memo[key] = None
        owner, node = find(analysis, ref)
        if node is not None:
            try:
                memo[key] = read(owner, node)
            except RecursionError:
                memo[key] = None
    return memo[key]


def _function(analysis: Any, ref: Any) -> Tuple[Any, Optional[ast.FunctionDef]]:
    path = os.path.abspath(ref.path)
    owner = analysis if path == os.path.abspath(analysis.path) else analysis.resolver.project.analysis_at(path, ref.module)
    if owner is None:
        return None, None
    if owner is not analysis:
        analysis.resolver.project.read_config_file(path)  # the answer rests on its bytes
    found = [n for n in owner.tree.body if isinstance(n, ast.FunctionDef) and n.name == ref.name]
    return (owner, found[0]) if len(found) == 1 else (owner, None)


def _guard(statement: ast.stmt) -> bool:
    """An ``if`` that only raises or returns a constant (``if "target" not in config: raise``)."""
    if not isinstance(statement, ast.If):
        return False
    for node in ast.walk(statement):
        if isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, ast.Constant):
            return False
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.With, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _read_key(expr: ast.AST, param: str) -> Optional[Tuple[str, bool]]:
    """``config[K]`` / ``config.K`` -> (K, True: required); ``config.get(K, {})`` /
    ``config.get(K, dict())`` / ``config.get(K)`` -> (K, False)."""
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id == param:
        if isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str) and expr.slice.value.isprintable():
            return expr.slice.value, True
        return None
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == param and expr.attr != "get":
        return expr.attr, True
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "get"
        and isinstance(expr.func.value, ast.Name)
        and expr.func.value.id == param
        and not expr.keywords
        and 1 <= len(expr.args) <= 2
        and isinstance(expr.args[0], ast.Constant)
        and isinstance(expr.args[0].value, str)
        and expr.args[0].value.isprintable()
    ):
        if len(expr.args) == 2 and not _empty_mapping(expr.args[1]):
            return None
        return expr.args[0].value, False
    return None


def _empty_mapping(expr: ast.AST) -> bool:
    if isinstance(expr, ast.Dict) and not expr.keys:
        return True
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "dict" and not expr.args and not expr.keywords


def _helper_shape(owner: Any, node: ast.FunctionDef) -> Optional[Tuple[str, str, bool]]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if not positional:
        return None
    param = positional[0].arg
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if not body or not isinstance(body[-1], ast.Return) or not all(_guard(s) for s in body[:-1]):
        return None
    built = body[-1].value
    if not isinstance(built, ast.Call) or built.args or len(built.keywords) != 1 or built.keywords[0].arg is not None:
        return None
    spread = _read_key(built.keywords[0].value, param)
    if spread is None:
        return None
    callee = built.func
    if not isinstance(callee, ast.Call) or not callee.args or isinstance(callee.args[0], ast.Starred):
        return None
    named = _read_key(callee.args[0], param)
    if named is None or not named[1] and isinstance(callee.args[0], ast.Call) and len(callee.args[0].args) != 1:
        return None
    if not _imports_dotted(owner, callee.func):
        return None
    return named[0], spread[0], not spread[1]


def _imports_dotted(owner: Any, func: ast.AST) -> bool:
    """Whether ``func`` (in ``owner``) is a project function that returns
    ``getattr(importlib.import_module(...), ...)``."""
    target = owner.resolver.resolve(func, END).single
    ref = target.value if target is not None else None
    if getattr(ref, "kind", None) != "function" or not getattr(ref, "path", ""):
        return False
    where, node = _function(owner, ref)
    if node is None:
        return False
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Return) or not isinstance(sub.value, ast.Call):
            continue
        call = sub.value
        if not (isinstance(call.func, ast.Name) and call.func.id == "getattr" and len(call.args) == 2):
            continue
        inner = call.args[0]
        if isinstance(inner, ast.Name):  # ``module = importlib.import_module(m); return getattr(module, cls)``
            values = [b.value for b in _local_bindings(node, inner.id)]
            inner = values[0] if len(values) == 1 else None
        if isinstance(inner, ast.Call):
            qualname = getattr((where.resolver.resolve(inner.func, END).single or _NONE).value, "qualname", None)
            if qualname == "importlib.import_module":
                return True
    return False


class _NoValue:
    value = None


_NONE = _NoValue()


def _local_bindings(function: ast.FunctionDef, name: str) -> List[ast.Assign]:
    out = []
    for sub in ast.walk(function):
        if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in sub.targets):
            out.append(sub)
    return out


# -- the runs ------------------------------------------------------------------------------------
def _instantiated(analysis: Any, call: ast.Call, site: Any, chain: Tuple[str, Tuple[str, ...]], writes: "_LazyWrites") -> list:
    shape = _helper(analysis, call.func, site)
    if shape is None:
        return []
    name, keys = chain
    if writes.edit(name, keys):
        return []
    files = _config_files(analysis, name, site)
    if not files:
        return []
    target_key, params_key, optional = shape
    project = analysis.resolver.project
    needles = [k.encode("utf-8", "replace") for k in (*keys, target_key)]
    out: list = []
    for path in files:
        project.read_config_file(path)  # the answer rests on its bytes
        data = project.read_config(path)
        if data is None or not all(n in data for n in needles):
            continue
        tree = project.config_file(path, "omegaconf")[1]
        node = tree
        for key in keys:
            node = node.get(key) if isinstance(node, Tree) else None
        if not isinstance(node, Tree):
            continue
        named = node.get(target_key)
        if not isinstance(named, Leaf) or not isinstance(named.value, str) or "${" in named.value:
            continue
        params = node.get(params_key)
        if params is None:
            if not optional:
                continue  # KeyError in the helper: no run
            entries: Tuple[Tuple[str, Any], ...] = ()
        elif isinstance(params, Tree):
            entries = params.entries
        else:
            continue  # null, a list, an interpolation: not followed
        ref = project_class(analysis, named.value)
        if ref is None:
            continue
        dotted = ".".join((*keys, params_key))
        out.extend(_class_loaders(analysis, ref, entries, dotted))
    return out


def _class_loaders(analysis: Any, ref: Any, entries: Tuple[Tuple[str, Any], ...], dotted: str) -> list:
    """The loader calls of the class's methods with its ``__init__`` bound to ``entries``."""
    from dl_lint.analysis.values import Origin, Possible, Value

    owner, cls = _class_node(analysis, ref)
    if cls is None:
        return []
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    if len(inits) != 1:
        return []  # an inherited __init__: its parameters are not followed
    init = inits[0]
    positional, keyword_only = owner.parameters(init)
    params = {b.name: b for b in (*positional[1:], *keyword_only)}
    given = dict(entries)
    if any(key not in params for key in given) and init.args.kwarg is None:
        return []  # TypeError: no run
    env: Dict[int, Any] = {}
    for pname, binding in params.items():
        node = given.get(pname)
        if node is None:
            if binding.value is None:
                return []  # a required parameter the node does not give: TypeError, no run
            default = owner.resolver.resolve(binding.value, binding.site or END)
            if default.is_unknown:
                env[id(binding.node)] = Value.unknown("parameter")
                continue
            origin = Origin(f"default of parameter {pname}", owner.path, owner.resolver.line(binding.node))
            env[id(binding.node)] = Value(tuple(Possible(p.value, origin, p.guards) for p in default.options or ()))
            continue
        if not isinstance(node, Leaf) or node.value is UNKNOWN or (isinstance(node.value, str) and "${" in node.value):
            env[id(binding.node)] = Value.unknown("config")  # a nested node, a list, a tag, an interpolation
            continue
        origin = Origin(f"{dotted}.{pname}, overridable on the command line", node.path, node.line)
        # the run's own value (decides the module's tests: ``x if num_workers is not None else y``)
        env[id(binding.node)] = Value((Possible(node.value, origin),))
    run = {name: given.get(name) for name in params}
    unused = _unbound_hooks(init, run)
    datasets = _Datasets(owner, cls, init, run, params, dotted)
    out = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__" or method.name in unused:
            continue
        for loader in owner.loader_calls_with(method, env):
            loader = datasets.bind(loader)
            out.append(loader.replace(extra={**loader.extra, "instantiated": analysis.path, "reader": f"the DataLoader {ref.name}.{method.name} builds"}))
    return out


class _Datasets:
    """The datasets a data module instantiates from nested nodes of its own params, read from
    its methods' syntax (the family's shapes):

    - ``self.A = P`` / ``self.A[K] = P`` / ``self.A = {K: P}`` in ``__init__`` for a parameter
      ``P`` the run gives a mapping: attribute ``A`` holds that node (or a table of them);
    - ``self.B = H(X)``, ``self.B = dict((k, H(self.A[k])) for k in self.A)`` or ``{k:
      H(self.A[k]) for k in self.A}`` in any method, with ``H`` an instantiating helper: ``B``
      holds the instance (or a table of them);
    - a loader's dataset ``self.B``, ``self.B[K]`` or ``H(X)`` is then an instance of the class
      the node's key names, built with its params (``Instance.given``: the ints it is handed).

    Any other write of ``self.B`` (or of an item of it) anywhere in the class makes ``B``
    unknown, unless under ``if self.W:`` with ``W`` a parameter kept on self that is false in
    the run (taming's ``if self.wrap:``)."""

    def __init__(self, owner: Any, cls: ast.ClassDef, init: ast.FunctionDef, run: Dict[str, Any], params: Dict[str, Any], dotted: str) -> None:
        self.owner = owner
        self.cls = cls
        self.run = run
        self.dotted = dotted
        self.nodes: Dict[str, Any] = {}  # attr -> (key path, node) or {K: (key path, node)}
        self.kept: Dict[str, str] = {}  # attr -> the parameter ``self.attr = param`` keeps
        self._built: Optional[Dict[str, Any]] = None
        for statement in init.body:
            self._read_init(statement)

    def _param_node(self, expr: ast.AST) -> Optional[Tuple[str, Tree]]:
        if isinstance(expr, ast.Name) and isinstance(self.run.get(expr.id), Tree):
            return f"{self.dotted}.{expr.id}", self.run[expr.id]
        return None

    def _read_init(self, statement: ast.stmt) -> None:
        if isinstance(statement, ast.If):  # ``if train is not None: self.dataset_configs["train"] = train``
            for sub in statement.body:
                self._read_init(sub)
            return
        if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
            return
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        if len(targets) != 1 or statement.value is None:
            return
        target, value = targets[0], statement.value
        attr = _self_attr(target)
        if attr is not None:
            if isinstance(value, ast.Name) and value.id in self.run:
                self.kept[attr] = value.id
            node = self._param_node(value)
            if node is not None:
                self.nodes[attr] = node
            elif _empty_mapping(value):
                self.nodes[attr] = {}  # ``self.dataset_configs = dict()``, filled below
            elif isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys):
                table = {}
                for key, item in zip(value.keys, value.values):
                    found = self._param_node(item)
                    if found is not None:
                        table[key.value] = found
                self.nodes[attr] = table
            return
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
            attr = _self_attr(target.value)
            node = self._param_node(value)
            if attr is not None and node is not None and isinstance(self.nodes.get(attr), dict):
                self.nodes[attr][target.slice.value] = node

    def _off(self, test: ast.AST) -> bool:
        """``self.W`` (or ``W``) false in the run: a kept parameter whose value is false."""
        name = _self_attr(test)
        param = self.kept.get(name) if name is not None else (test.id if isinstance(test, ast.Name) else None)
        if param is None or param not in self.run:
            return False
        node = self.run[param]
        if node is None:
            default = self._default(param)
            return default is not None and not default
        return isinstance(node, Leaf) and node.value is not UNKNOWN and not isinstance(node.value, str) and not node.value

    def _default(self, param: str) -> Any:
        init = next(n for n in self.cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        args = init.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        found = defaults.get(param)
        return found.value if isinstance(found, ast.Constant) else None

    def built(self) -> Dict[str, Any]:
        """attr -> (key path, node) or {K: (key path, node)} of the instances the class keeps."""
        if self._built is not None:
            return self._built
        built: Dict[str, Any] = {}
        spoiled = set()
        for method in self.cls.body:
            if not isinstance(method, ast.FunctionDef):
                continue
            for statement, off in _statements(method.body, self._off):
                targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
                for target in targets:
                    for sub in ast.walk(target) if target is not None else ():
                        if not isinstance(getattr(sub, "ctx", None), (ast.Store, ast.Del)):
                            continue
                        attr = _self_attr(sub) if isinstance(sub, ast.Attribute) else (_self_attr(sub.value) if isinstance(sub, ast.Subscript) else None)
                        if attr is None or off:
                            continue
                        found = self._instances(statement.value) if sub is target and isinstance(statement, ast.Assign) and isinstance(sub, ast.Attribute) else None
                        if found is None or attr in built:
                            spoiled.add(attr)
                        else:
                            built[attr] = found
        self._built = {attr: found for attr, found in built.items() if attr not in spoiled}
        return self._built

    def _helper_call(self, expr: ast.AST) -> Optional[Tuple[ast.AST, Tuple[str, str, bool]]]:
        if not isinstance(expr, ast.Call) or len(expr.args) != 1 or expr.keywords or isinstance(expr.args[0], ast.Starred):
            return None
        shape = _helper(self.owner, expr.func, END)
        return (expr.args[0], shape) if shape is not None else None

    def _node_of(self, expr: ast.AST) -> Optional[Tuple[str, Tree]]:
        found = self._param_node(expr)
        if found is not None:
            return found
        attr = _self_attr(expr)
        if attr is not None and isinstance(self.nodes.get(attr), tuple):
            return self.nodes[attr]
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
            attr = _self_attr(expr.value)
            table = self.nodes.get(attr) if attr is not None else None
            if isinstance(table, dict):
                return table.get(expr.slice.value)
        return None

    def _instances(self, value: ast.AST) -> Optional[Any]:
        """What ``self.B = value`` keeps: (key path, node, shape) of one instance, or a table
        {K: ...} for ``dict((k, H(self.A[k])) for k in self.A)`` / ``{k: H(self.A[k]) for k in
        self.A}``; None otherwise."""
        call = self._helper_call(value)
        if call is not None:
            node = self._node_of(call[0])
            return (*node, call[1]) if node is not None else None
        element = generator = None
        if isinstance(value, ast.DictComp) and len(value.generators) == 1:
            element, generator = (value.key, value.value), value.generators[0]
        elif (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "dict"
            and len(value.args) == 1
            and not value.keywords
            and isinstance(value.args[0], (ast.GeneratorExp, ast.ListComp))
            and len(value.args[0].generators) == 1
            and isinstance(value.args[0].elt, ast.Tuple)
            and len(value.args[0].elt.elts) == 2
        ):
            element, generator = tuple(value.args[0].elt.elts), value.args[0].generators[0]
        if element is None or generator.ifs or not isinstance(generator.target, ast.Name):
            return None
        source = _self_attr(generator.iter)
        table = self.nodes.get(source) if source is not None else None
        key, item = element
        call = self._helper_call(item)
        if not isinstance(table, dict) or call is None or not (isinstance(key, ast.Name) and key.id == generator.target.id):
            return None
        arg = call[0]
        if not (
            isinstance(arg, ast.Subscript)
            and _self_attr(arg.value) == source
            and isinstance(arg.slice, ast.Name)
            and arg.slice.id == generator.target.id
        ):
            return None
        return {k: (*node, call[1]) for k, node in table.items()}

    def bind(self, loader: Any) -> Any:
        """The loader with its dataset argument an instance of the class a node names, when
        its expression reads one (else as it is)."""
        arg = loader.args.get("dataset")
        if arg is None or not arg.code or not arg.value.is_unknown:
            return loader
        try:
            expr = ast.parse(arg.code.strip(), mode="eval").body
        except SyntaxError:
            return loader
        found = None
        call = self._helper_call(expr)
        if call is not None:
            node = self._node_of(call[0])
            found = (*node, call[1]) if node is not None else None
        else:
            attr = _self_attr(expr)
            if attr is None and isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
                table = self.built().get(_self_attr(expr.value) or "")
                found = table.get(expr.slice.value) if isinstance(table, dict) else None
            elif attr is not None and isinstance(self.built().get(attr), tuple):
                found = self.built()[attr]
        value = _instance_value(self.owner, found) if found is not None else None
        if value is None:
            return loader
        return loader.replace(args={**loader.args, "dataset": arg.replace(value=value)})


def _self_attr(expr: ast.AST) -> Optional[str]:
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr
    return None


def _statements(body: List[ast.stmt], off) -> List[Tuple[ast.stmt, bool]]:
    """Every assignment-like statement of ``body`` (nested blocks included), each with whether
    it sits under an ``if`` whose test ``off`` says is false in the run."""
    out: List[Tuple[ast.stmt, bool]] = []

    def walk(statements, under_off):
        for statement in statements:
            if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                out.append((statement, under_off))
            if isinstance(statement, ast.If):
                walk(statement.body, under_off or off(statement.test))
                walk(statement.orelse, under_off)
            elif isinstance(statement, (ast.For, ast.While, ast.With, ast.Try)):
                for field in ("body", "orelse", "finalbody"):
                    walk(getattr(statement, field, []) or [], under_off)
                for handler in getattr(statement, "handlers", []) or []:
                    walk(handler.body, under_off)

    walk(body, False)
    return out


def _instance_value(owner: Any, found: Tuple[str, Tree, Tuple[str, str, bool]]) -> Optional[Any]:
    """The Value of the instance a node builds: its class must be a project class; the ints of
    its params are what the construction hands its ``__init__`` (DL101's sample sizes)."""
    from dl_lint.analysis.values import Instance, Origin, Possible, Value

    dotted, node, (target_key, params_key, optional) = found
    named = node.get(target_key)
    if not isinstance(named, Leaf) or not isinstance(named.value, str) or "${" in named.value:
        return None
    params = node.get(params_key)
    if params is None and not optional or params is not None and not isinstance(params, Tree):
        return None
    ref = project_class(owner, named.value)
    if ref is None:
        return None
    given = tuple(
        (key, leaf.value)
        for key, leaf in (params.entries if isinstance(params, Tree) else ())
        if isinstance(leaf, Leaf) and isinstance(leaf.value, int) and not isinstance(leaf.value, bool)
    )
    origin = Origin(f"{dotted}.{target_key}: {ref.name}", named.path, named.line)
    return Value((Possible(Instance(ref.module, ref.name, ref.line, ref.path, given=given), origin),))


def _unbound_hooks(init: ast.FunctionDef, given: Dict[str, Any]) -> set:
    """Methods ``__init__`` binds as hooks only under ``if P is not None:`` (or ``if P:``) for
    a parameter ``P`` this run leaves out or sets to null (``self.train_dataloader =
    self._train_dataloader``, or ``partial(self._val_dataloader, shuffle=...)``, when ``train``
    is given): no loader of theirs is built in the run."""
    out = set()
    for statement in init.body:
        if not isinstance(statement, ast.If) or statement.orelse:
            continue
        test = statement.test
        name = None
        if isinstance(test, ast.Name):
            name = test.id
        elif (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            name = test.left.id
        if name is None or name not in given:
            continue
        node = given[name]
        if node is not None and not (isinstance(node, Leaf) and node.value is None and node.text.strip() in ("null", "~", "")):
            continue
        hooks = set()
        for sub in statement.body:
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1:
                target, value = sub.targets[0], sub.value
                if (
                    isinstance(value, ast.Call)
                    and value.args
                    and (
                        (isinstance(value.func, ast.Name) and value.func.id == "partial")
                        or (isinstance(value.func, ast.Attribute) and value.func.attr == "partial")
                    )
                ):
                    value = value.args[0]  # ``self.val_dataloader = partial(self._val_dataloader, shuffle=...)``
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and isinstance(value, ast.Attribute)
                    and isinstance(value.value, ast.Name)
                    and value.value.id == "self"
                ):
                    hooks.add(value.attr)
        out |= hooks
    return out


# -- where findings are reported -----------------------------------------------------------------
_NAMED = re.compile(r"\b([a-z_]+)=")


def relocate(finding, call, code: str = ""):
    """A finding placed by its rule (DL001/DL002's YAML line) stays; else it is placed at the
    YAML line of the first argument its message names whose every possibility was set by one
    line of a YAML file; else, for a finding about the dataset (DL202's "dataset is ...", a
    DL101/DL201/DL009 finding naming the dataset's class) whose class a YAML node names, at that
    node's key line. None when no YAML value decides it (the Python decides it: the loader's
    file reports it)."""
    if finding.place is not None:
        return finding
    for name in _NAMED.findall(finding.message):
        place = _yaml_place(call.args.get(name))
        if place is not None:
            return finding.replace(place=place)
    dataset = call.args.get("dataset")
    place = _yaml_place(dataset)
    if place is None:
        return None
    instance = dataset.value.options[0].value
    name = getattr(instance, "name", "")
    if code == "DL202" and finding.message.startswith("dataset "):
        return finding.replace(place=place)
    if code in ("DL009", "DL101", "DL201") and name and (name in finding.message or name in finding.detail):
        return finding.replace(place=place)
    return None


def _yaml_place(bound) -> Optional[Tuple[str, int, int]]:
    options = bound.value.options if bound is not None else None
    if not options or any(p.origin is None for p in options):
        return None
    places = {(p.origin.path, p.origin.line) for p in options}
    if len(places) != 1:
        return None
    path, line = next(iter(places))
    return (path, line, 1) if path and path.endswith((".yaml", ".yml", ".json")) and line else None


# -- the getattr-by-name factory (victoresque/pytorch-template's ConfigParser family) -------------
# ``config.init_obj("data_loader", module_data)`` (or ``name="data_loader", module=module_data``):
# a method call whose first argument is a string and whose second is a lowercase name the file
# imports (a module, by PEP 8's naming; or a parameter a caller passes one in), read before any
# walk. The call is matched from its ``(`` (a literal the regex engine scans for quickly); the
# import statements are read only in the files that have such a call.
_BY_NAME = r"\((?:['\"][\w.-]+['\"],\s?(_?[a-z]\w*)|\w+ ?= ?['\"][\w.-]+['\"],\s?\w+ ?= ?(_?[a-z]\w*))[,)]"
_BY_NAME_BYTES = re.compile(_BY_NAME.encode())
_BY_NAME_TEXT = re.compile(_BY_NAME)
# The method before the ``(``; a dict's lookups with a default (``d.get("torch", torch)``,
# ``.setdefault``, ``.pop``) are not factory calls (torch's own tree has such lines in files of
# 100-300 KB that were parsed for nothing).
_METHOD_BYTES = re.compile(rb"\.(?!(?:get|setdefault|pop)$)\w+$")
_METHOD_TEXT = re.compile(r"\.(?!(?:get|setdefault|pop)$)\w+$")
_IMPORTED_BYTES = re.compile(rb"import[ \t]+([\w., \t]+)")
_IMPORTED_TEXT = re.compile(r"import[ \t]+([\w., \t]+)")
_WORD_BYTES = re.compile(rb"\w+")
_WORD_TEXT = re.compile(r"\w+")
_PROPERTY = frozenset({"property"})
_COPIES = frozenset({"dict", "builtins.dict", "copy.deepcopy", "copy.copy", "collections.OrderedDict"})


def _calls_with_imported(data, call, method, imported, word) -> set:
    """The names of such calls (``call`` matches, ``method`` checks the text before the ``(``)
    that the file imports (``imported`` finds the import statements)."""
    found = set()
    names = None
    for match in call.finditer(data):
        name = match.group(1) or match.group(2)
        if names is None:
            names = {w for statement in imported.findall(data) for w in word.findall(statement)}
        if name in names and method.search(data, max(0, match.start() - 64), match.start()):
            found.add(name)
    return found


def by_name_candidate(data: bytes) -> bool:
    """From bytes: a method call ``X.M("key", name, ...)`` with ``name`` a lowercase name the
    file imports (a module a getattr-by-name factory may pick a class from)."""
    if _BY_NAME_BYTES.search(data) is None:
        return False
    return bool(_calls_with_imported(data, _BY_NAME_BYTES, _METHOD_BYTES, _IMPORTED_BYTES, _WORD_BYTES))


def _by_name_names(source: str) -> set:
    """The names such calls pass, when one of them is imported by the file (else empty): the
    parameters a caller may pass a module as are kept with them."""
    if _BY_NAME_TEXT.search(source) is None:
        return set()
    if not _calls_with_imported(source, _BY_NAME_TEXT, _METHOD_TEXT, _IMPORTED_TEXT, _WORD_TEXT):
        return set()
    return {m.group(1) or m.group(2) for m in _BY_NAME_TEXT.finditer(source)}


class _Factory(Record):
    """A method building the class a config node names: ``reads`` the attribute holding the
    config ("" for ``self[name]``), the node's two keys, whether the caller's ``**kwargs`` are
    merged into the node's arguments and its ``*args`` passed on."""

    __slots__ = ("slots", "reads", "type_key", "args_key", "merged", "varargs")

    def __init__(self, slots: Tuple[str, str], reads: str, type_key: str, args_key: str, merged: bool, varargs: bool) -> None:
        self.slots = slots  # the names of the method's (name, module) parameters
        self.reads = reads
        self.type_key = type_key
        self.args_key = args_key
        self.merged = merged
        self.varargs = varargs


class _ConfigClass(Record):
    """A class holding a config it loads from a file: the attribute that keeps it, how it is
    built (``via``: ``__init__`` or the classmethod that loads the file and returns ``cls(...)``),
    the dialect, whether every load names a literal path (``fixed``) and which, the command-line
    options its path reads (``args.config``), its factory methods."""

    __slots__ = ("attr", "via", "dialect", "fixed", "named", "options", "factories")

    def __init__(self, attr, via, dialect, fixed, named, options, factories) -> None:
        self.attr = attr
        self.via = via
        self.dialect = dialect
        self.fixed = fixed
        self.named = named
        self.options = options
        self.factories = factories


def _by_name_calls(analysis: Any) -> list:
    """The loaders the module's ``config.M("key", module, ...)`` calls build, one per config file
    (see the section's functions)."""
    captured = _by_name_names(analysis.source)
    if not captured:
        return []
    out: list = []
    seen: set = set()
    writes = _LazyWrites(analysis.tree)
    for call, site, scope_name, _cls in analysis.index.calls:
        func = call.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            continue
        given = [*call.args[:2], *(k.value for k in call.keywords if k.arg)]
        if not any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in given):
            continue
        if not any(isinstance(e, ast.Name) and e.id in captured for e in given):
            continue  # the module: a name the file imports, or a parameter its callers pass one in
        try:
            _add_new(out, seen, _built_by_name(analysis, call, site, scope_name, writes), by_path=False)
        except RecursionError:
            continue
    return out


class _LazyWrites:
    """``_Writes`` of a module, walked only when a factory call is found there."""

    def __init__(self, tree: ast.AST) -> None:
        self.tree = tree
        self.found: Optional[_Writes] = None

    def edit(self, name: str, keys: Tuple[str, ...]) -> bool:
        if self.found is None:
            self.found = _Writes(self.tree)
        return self.found.edit(name, keys)


def _callers_args(analysis: Any, name: str, site: Any, depth: int = 0) -> Optional[List[Tuple[ast.AST, Any]]]:
    """The expressions ``name`` may be at ``site``: its one assignment, or, for a parameter of a
    module-level function, the argument every call of that function in the module passes (at
    least one call). None when unknown."""
    _, bindings = analysis.resolver.lookup(name, site)
    if len(bindings) != 1:
        return None
    binding = bindings[0]
    if binding.kind == "assign" and binding.value is not None:
        return [(binding.value, binding.site or END)]
    if binding.kind != "param" or depth > 2:
        return None
    function = next(
        (n for n in analysis.tree.body if isinstance(n, ast.FunctionDef) and any(a is binding.node for a in n.args.args)), None
    )
    if function is None:
        return None
    position = [a.arg for a in function.args.args].index(name)
    out: List[Tuple[ast.AST, Any]] = []
    for call, where, _scope, _cls in analysis.index.calls:
        if not (isinstance(call.func, ast.Name) and call.func.id == function.name):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        arg = call.args[position] if position < len(call.args) else next((k.value for k in call.keywords if k.arg == name), None)
        if arg is None:
            return None
        if isinstance(arg, ast.Name):
            found = _callers_args(analysis, arg.id, where, depth + 1)
            if found is None:
                return None
            out.extend(found)
        else:
            out.append((arg, where))
    return out or None


def _built_by_name(analysis: Any, call: ast.Call, site: Any, scope_name: str, writes: "_LazyWrites") -> list:
    func = call.func
    if not any(_project_modules(analysis, e, site) for e in call.args[:2] if isinstance(e, ast.Name)) and not any(
        _project_modules(analysis, k.value, site) for k in call.keywords if isinstance(k.value, ast.Name)
    ):
        return []  # no module passed: not a factory call (checked before the config object)
    constructions = _callers_args(analysis, func.value.id, site)
    if not constructions:
        return []
    config = None
    edited: set = set()
    for construct, where in constructions:
        if not isinstance(construct, ast.Call):
            return []
        head = construct.func.value if isinstance(construct.func, ast.Attribute) else construct.func
        via = construct.func.attr if isinstance(construct.func, ast.Attribute) else "__init__"
        single = analysis.resolver.resolve(head, where).single
        ref = single.value if single is not None else None
        if getattr(ref, "kind", None) != "class" or not getattr(ref, "path", ""):
            return []
        if not analysis.resolver.project.may_hold(ref.module, analysis.path, b"getattr("):
            return []  # no factory there: its module is not parsed for this
        found = _config_class(analysis, ref)
        if found is None or found.via not in (via, "__init__") or (config is not None and found is not config):
            return []
        config = found
        paths = _option_targets(analysis, construct, where)
        if paths is None:
            return []
        edited |= paths
    factory = config.factories.get(func.attr)
    if factory is None:
        return []
    # the call bound to the method's (self, name, module, *args, **kwargs)
    positional = list(call.args)
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if any(isinstance(a, ast.Starred) for a in positional) or any(k.arg is None for k in call.keywords):
        return []
    slots = factory.slots
    bound: Dict[str, ast.AST] = dict(zip(slots, positional[:2]))
    extra_positional = positional[2:]
    extra_keywords = []
    for key, value in keywords.items():
        if key in slots and key not in bound:
            bound[key] = value
        else:
            extra_keywords.append((key, value))
    if set(bound) != set(slots) or {k for k, _ in extra_keywords} & set(slots):
        return []  # a slot missing or given twice: TypeError
    bound = {"name": bound[slots[0]], "module": bound[slots[1]]}
    node_key = bound["name"]
    if not isinstance(node_key, ast.Constant) or not isinstance(node_key.value, str) or not node_key.value.isprintable():
        return []
    name = node_key.value
    if extra_positional and not factory.varargs or extra_keywords and not factory.merged:
        return []  # passed to nothing / not merged: not followed
    held = {config.attr, factory.reads} - {""}
    if writes.edit(func.value.id, (name,)) or any(writes.edit(func.value.id, (attr,)) for attr in held):
        return []  # the script sets the node (``config["data_loader"]["args"] = ...``, ``config._config[...] = ...``)
    if any(e[: 1] == (name,) and len(e) <= 2 or e[:2] == (name, factory.type_key) for e in edited):
        return []  # the node, its class or all its arguments set on the command line
    modules = _project_modules(analysis, bound["module"], site)
    if len(set(modules)) != 1:
        return []
    module = modules[0]
    project = analysis.resolver.project
    named = _option_defaults(analysis, config.options) + config.named
    files = project.keypath_files(analysis.path, named, config.fixed, config.dialect)
    tree_dialect = "safe" if config.dialect in ("json", "hyperpyyaml") else config.dialect
    needles = [name.encode("utf-8", "replace"), factory.type_key.encode("utf-8", "replace")]
    out: list = []
    for path in files:
        project.read_config_file(path)  # the answer rests on its bytes
        data = project.read_config(path)
        if data is None or not all(n in data for n in needles):
            continue
        tree = project.config_file(path, tree_dialect)[1]
        node = tree.get(name) if isinstance(tree, Tree) else None
        if not isinstance(node, Tree):
            continue  # a list of nodes (picked by index), a missing node: not followed
        named_class = node.get(factory.type_key)
        params = node.get(factory.args_key)
        if not isinstance(named_class, Leaf) or not isinstance(named_class.value, str) or not isinstance(params, Tree):
            continue  # no class, no arguments (KeyError), arguments that are no mapping: no run
        ref = project_class(analysis, f"{module}.{named_class.value}")
        if ref is None:
            continue  # not a project class of that module (a library's, a typo): unknown
        dotted = f"{name}.{factory.args_key}"
        unknown = {e[2] for e in edited if e[:2] == (name, factory.args_key) and len(e) >= 3}
        out.extend(
            _by_name_loaders(
                analysis, call, site, scope_name, ref, params.entries, dotted, unknown, extra_positional, extra_keywords, config.dialect, func.attr
            )
        )
    return out


def _project_modules(analysis: Any, expr: ast.AST, site: Any) -> List[str]:
    """The project modules ``expr`` is (a name bound by an import, or a parameter every caller
    in the module passes one as); [] when any possibility is something else."""
    from dl_lint.analysis.values import ModuleRef

    exprs: Optional[List[Tuple[ast.AST, Any]]] = [(expr, site)]
    if isinstance(expr, ast.Name):
        _, bindings = analysis.resolver.lookup(expr.id, site)
        if len(bindings) != 1 or bindings[0].kind not in ("import", "param"):
            return []
        if bindings[0].kind == "param":
            exprs = _callers_args(analysis, expr.id, site)  # passed in by the module's callers
    out = []
    for each, where in exprs or ():
        single = analysis.resolver.resolve(each, where).single
        if single is None or not isinstance(single.value, ModuleRef):
            return []
        out.append(single.value.module)
    return out


def _by_name_loaders(
    analysis: Any,
    call: ast.Call,
    site: Any,
    scope_name: str,
    ref: Any,
    entries: Tuple[Tuple[str, Any], ...],
    dotted: str,
    unknown: set,
    extra_positional: List[ast.AST],
    extra_keywords: List[Tuple[str, ast.AST]],
    dialect: str,
    method: str,
) -> list:
    """The loader the named class is, built with the node's arguments (and the call's extra
    ones): a loader subclass is bound through its chain of signatures as a call of it would be
    (``ModuleAnalysis._bind`` with the arguments given); a class that builds loaders in its
    methods (a data module) as the OmegaConf family's are."""
    from dl_lint.analysis.configs.keypaths import _NOTHING, _plain
    from dl_lint.analysis.subclasses import Bound, Item
    from dl_lint.analysis.values import Origin, Possible, Value

    project = analysis.resolver.project
    loader = project.is_loader_class(ref.module, ref.name, 0, ref.path)
    project.read_config_file(os.path.abspath(ref.path))  # its signature is read here
    # keys the command line may set are unknown in every run, also where the file leaves them out
    # (then only those the class takes: given one it does not, that run raises TypeError)
    entries = tuple((key, Leaf(UNKNOWN, "", 0, 0)) if key in unknown else (key, leaf) for key, leaf in entries)
    left_out = unknown - {key for key, _ in entries}
    if loader is None or loader.preargs:
        if extra_positional or extra_keywords:
            return []
        owner, cls = _class_node(analysis, ref)
        init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None) if cls is not None else None
        taken = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)} if init is not None else set()
        overridable = tuple((key, Leaf(UNKNOWN, "", 0, 0)) for key in sorted(left_out & taken))
        out = _class_loaders(analysis, ref, entries + overridable, dotted)
        return [c.replace(extra={**c.extra, "reader": f"the DataLoader of the {ref.name} that {method}() builds"}) for c in out]
    resolver = analysis.resolver
    bound = Bound([], {})
    for expr in extra_positional:
        bound.positional.append(Item(resolver.resolve(expr, site), expr, "", resolver.code(expr)))
    keyword_nodes = {id(k.value): k for k in call.keywords}
    for key, expr in extra_keywords:
        bound.keywords[key] = Item(resolver.resolve(expr, site), keyword_nodes.get(id(expr)), key, resolver.code(expr))
    for key, leaf in entries:
        if key in bound.keywords:
            return []  # the factory asserts (or the call repeats a keyword): no run
        value = _plain(leaf, dialect) if isinstance(leaf, Leaf) and key not in unknown else _NOTHING
        if value is _NOTHING:
            bound.keywords[key] = Item(Value.unknown("config"), code=f"{dotted}.{key}")
        else:
            origin = Origin(f"{dotted}.{key}", leaf.path, leaf.line)  # the file is the finding's place
            bound.keywords[key] = Item(Value((Possible(value, origin),)), code=f"{dotted}.{key}")
    from dl_lint.analysis.loaders import PARAMETERS

    taken = {p.name for p in loader.chain[0].params} if loader.chain else set(PARAMETERS)
    for key in sorted(left_out & taken):
        if key not in bound.keywords:
            bound.keywords[key] = Item(Value.unknown("config"), code=f"{dotted}.{key}")
    built = analysis._bind(call, site, scope_name, loader, given=bound)
    if built is None or "dataset" not in built.args:
        return []  # TypeError in the class or in torch: no run
    reader = f"the {ref.name} that {method}() builds"
    return [built.replace(extra={**built.extra, "instantiated": analysis.path, "reader": reader})]


def _option_targets(analysis: Any, construct: ast.Call, site: Any) -> Optional[set]:
    """The key paths the command-line options handed to the config's construction may set
    (``CustomArgs(..., target="data_loader;args;batch_size")``: a string split at ``;`` or
    ``.``, or a tuple of strings): every string of the lists passed, the parser excepted. None
    when an argument is neither the parser nor a literal list the module binds."""
    out = set()
    for arg in [*construct.args, *(k.value for k in construct.keywords)]:
        if isinstance(arg, ast.Starred):
            return None
        expr, where = arg, site
        if isinstance(arg, ast.Name):
            _, bindings = analysis.resolver.lookup(arg.id, site)
            if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].value is None:
                return None
            expr, where = bindings[0].value, bindings[0].site or END
        if isinstance(expr, ast.Call):
            qualname = getattr((analysis.resolver.resolve(expr.func, where).single or _NONE).value, "qualname", None)
            if qualname == "argparse.ArgumentParser":
                continue
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str) and not expr.value:
            continue  # ``options=''``
        if not isinstance(expr, (ast.List, ast.Tuple)):
            return None
        grouped = set()
        for sub in ast.walk(expr):
            if isinstance(sub, (ast.List, ast.Tuple)) and sub.elts and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in sub.elts):
                if not any(e.value.startswith("-") for e in sub.elts):
                    out.add(tuple(e.value for e in sub.elts))
                grouped.update(id(e) for e in sub.elts)
        for sub in ast.walk(expr):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and id(sub) not in grouped and not sub.value.startswith("-"):
                text = sub.value
                out.add(tuple(text.split(";")) if ";" in text else tuple(text.split(".")))
    return out


def _option_defaults(analysis: Any, options: Tuple[str, ...]) -> Tuple[str, ...]:
    """The string defaults of the script's ``add_argument("--<option>", default=...)`` for the
    options the config's path reads."""
    if not options:
        return ()
    flags = {f"--{o}" for o in options}
    out = []
    for call, _site, _scope, _cls in analysis.index.calls:
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
            continue
        if not any(isinstance(a, ast.Constant) and a.value in flags for a in call.args):
            continue
        for k in call.keywords:
            if k.arg == "default" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
                out.append(k.value.value)
    return tuple(out)


# -- the config class ----------------------------------------------------------------------------
def _config_class(analysis: Any, ref: Any) -> Optional[_ConfigClass]:
    """The config class ``ref`` is (see ``_ConfigClass``), memoized per class and run."""
    return _read_once(analysis, ("by-name-class", os.path.abspath(ref.path), ref.name), _class_node, ref, _read_config_class)


def _decorated(function: ast.FunctionDef, names: frozenset) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id in names) or (isinstance(d, ast.Attribute) and d.attr in names) for d in function.decorator_list
    )


def _read_config_class(owner: Any, cls: ast.ClassDef) -> Optional[_ConfigClass]:
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    if init is None:
        return None
    # the attribute keeping the config: one ``self.A = V`` in the class, at the top of __init__
    stores = []
    for method in methods.values():
        for sub in ast.walk(method):
            if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, (ast.Store, ast.Del)) and _self_attr(sub) is not None:
                stores.append(sub)
    kept = [s for s in init.body if isinstance(s, ast.Assign) and len(s.targets) == 1 and _self_attr(s.targets[0]) is not None]
    found = None
    for statement in kept:
        attr = _self_attr(statement.targets[0])
        if sum(1 for s in stores if s.attr == attr) != 1:
            continue
        origin = _config_value(owner, init, statement.value, methods)
        if origin is not None:
            found = (attr, *origin)
            break
    if found is None:
        return None
    attr, via, dialect, fixed, named, options = found
    factories = {}
    for method in methods.values():
        shape = _factory_method(method)
        if shape is not None and _reads(methods, shape.reads) == attr:
            factories[method.name] = shape
    if not factories:
        return None
    return _ConfigClass(attr, via, dialect, fixed, named, options, factories)


def _reads(methods: Dict[str, ast.FunctionDef], reads: str) -> Optional[str]:
    """The attribute ``self[name]`` (``__getitem__`` returning ``self.X[name]``) or ``self.X``
    reads, through a property returning ``self.Y``."""
    if not reads:
        getitem = methods.get("__getitem__")
        body = _body(getitem) if getitem is not None else []
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Subscript):
            return None
        positional = getitem.args.args
        value = body[0].value
        if len(positional) != 2 or not (isinstance(value.slice, ast.Name) and value.slice.id == positional[1].arg):
            return None
        reads = _self_attr(value.value) or ""
        if not reads:
            return None
    prop = methods.get(reads)
    if prop is not None:
        body = _body(prop)
        if not _decorated(prop, _PROPERTY) or len(body) != 1 or not isinstance(body[0], ast.Return):
            return None
        return _self_attr(body[0].value)
    return reads


def _body(function: ast.FunctionDef) -> List[ast.stmt]:
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def _config_value(owner: Any, init: ast.FunctionDef, value: ast.AST, methods: Dict[str, ast.FunctionDef]) -> Optional[Tuple]:
    """(via, dialect, fixed, named, options) when ``value`` (kept by ``__init__``) is a loaded
    config: a local of ``__init__`` every binding of which loads a file, or a parameter that a
    classmethod passes as ``cls(config, ...)`` after loading it; possibly through a project
    function returning its first argument (which applies the command line's overrides in place)
    or a copy."""
    direct = _load_call(owner, value)
    if direct is not None:  # ``self._config = read_json(path)``
        dialect, path = direct
        literal = isinstance(path, ast.Constant) and isinstance(path.value, str)
        options = tuple(n.attr for n in ast.walk(path) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name))
        return "__init__", dialect, literal, (path.value,) if literal else (), options
    if isinstance(value, ast.Call) and value.args and not isinstance(value.args[0], ast.Starred):
        target = owner.resolver.resolve(value.func, END).single
        ref = target.value if target is not None else None
        qualname = getattr(ref, "qualname", None)
        if qualname not in _COPIES and not (getattr(ref, "kind", None) == "function" and _returns_first(owner, ref)):
            return None
        value = value.args[0]
    if not isinstance(value, ast.Name):
        return None
    positional = [a.arg for a in init.args.args]
    if value.id not in positional:
        found = _loads(owner, init, value.id)
        return ("__init__", *found) if found is not None else None
    index = positional.index(value.id)
    for name, method in methods.items():
        if not _decorated(method, frozenset({"classmethod"})) or not method.args.args:
            continue
        cls_name = method.args.args[0].arg
        for sub in ast.walk(method):
            if not (isinstance(sub, ast.Return) and isinstance(sub.value, ast.Call)):
                continue
            built = sub.value
            if not (isinstance(built.func, ast.Name) and built.func.id == cls_name):
                continue
            arg = built.args[index - 1] if 0 < index <= len(built.args) else next((k.value for k in built.keywords if k.arg == value.id), None)
            if isinstance(arg, ast.Name):
                found = _loads(owner, method, arg.id)
                if found is not None:
                    return (name, *found)
    return None


def _returns_first(owner: Any, ref: Any) -> bool:
    """A project function whose every ``return`` gives back its first parameter."""
    where, node = _function(owner, ref)
    if node is None or not node.args.args:
        return False
    first = node.args.args[0].arg
    returns = [s for s in ast.walk(node) if isinstance(s, ast.Return)]
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript) and isinstance(sub.ctx, (ast.Store, ast.Del)) and isinstance(sub.slice, ast.Constant):
            return False  # sets a key of its own (``config["data_loader"] = ...``): not only the overrides
    return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == first for r in returns)


def _loads(owner: Any, function: ast.FunctionDef, name: str) -> Optional[Tuple]:
    """(dialect, fixed, named, options) when every binding of ``name`` in ``function`` loads a
    config file (``json.load``, ``yaml.safe_load``..., or a project function returning one), and
    it is otherwise only updated with another load; else None."""
    dialects = set()
    fixed = True
    named: List[str] = []
    options: List[str] = []
    seen = False
    for sub in ast.walk(function):
        loaded = None
        if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
                if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                    return None  # unpacked into, or an item of it stored
                continue
            if not isinstance(sub, ast.Assign) or len(targets) != 1:
                return None
            loaded = sub.value
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and isinstance(sub.func.value, ast.Name)
            and sub.func.value.id == name
            and sub.func.attr == "update"
        ):
            loaded = sub.args[0] if len(sub.args) == 1 and not sub.keywords else None
            if loaded is None:
                return None
        else:
            continue
        found = _load_call(owner, loaded)
        if found is None:
            return None
        seen = True
        dialect, path = found
        dialects.add(dialect)
        if isinstance(path, ast.Constant) and isinstance(path.value, str):
            named.append(path.value)
        else:
            fixed = False
            for part in [path, *(b.value for b in _local_bindings(function, path.id))] if isinstance(path, ast.Name) else [path]:
                for node in ast.walk(part):
                    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                        options.append(node.attr)
    if not seen or len(dialects) != 1:
        return None
    return dialects.pop(), fixed, tuple(named), tuple(options)


def _load_call(owner: Any, expr: ast.AST) -> Optional[Tuple[str, ast.AST]]:
    """(dialect, path expression) of ``json.load(open(p))``-like calls, or of a project
    function returning such a load of its first parameter (``read_json(fname)``)."""
    from dl_lint.analysis.configs.keypaths import LOADERS

    if not isinstance(expr, ast.Call) or not expr.args or isinstance(expr.args[0], ast.Starred):
        return None
    target = owner.resolver.resolve(expr.func, END).single
    ref = target.value if target is not None else None
    qualname = getattr(ref, "qualname", None)
    if qualname in LOADERS:
        return LOADERS[qualname][0], expr.args[0]
    if getattr(ref, "kind", None) != "function" or not getattr(ref, "path", ""):
        return None
    key = ("by-name-loader", os.path.abspath(ref.path), ref.name)
    memo = owner.resolver.project.config_memo
    if key not in memo:
        memo[key] = None
        where, node = _function(owner, ref)
        if node is not None and node.args.args:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Return) and isinstance(sub.value, ast.Call):
                    inner = where.resolver.resolve(sub.value.func, END).single
                    name = getattr(inner.value, "qualname", None) if inner is not None else None
                    if name in LOADERS:
                        memo[key] = LOADERS[name][0]
    dialect = memo[key]
    return (dialect, expr.args[0]) if dialect is not None else None


def statement_updates(body: List[ast.stmt], name: str) -> bool:
    """Whether a statement of ``body`` is ``name.update(...)``."""
    return any(
        isinstance(s, ast.Expr)
        and isinstance(s.value, ast.Call)
        and isinstance(s.value.func, ast.Attribute)
        and s.value.func.attr == "update"
        and isinstance(s.value.func.value, ast.Name)
        and s.value.func.value.id == name
        for s in body
    )


def _factory_method(method: ast.FunctionDef) -> Optional[_Factory]:
    """The factory shape (the section's docstring) of a method ``(self, name, module, *args,
    **kwargs)``, else None."""
    positional = method.args.args
    if len(positional) != 3 or method.args.posonlyargs or method.decorator_list:
        return None
    _self, name, module = (a.arg for a in positional)
    varargs = method.args.vararg.arg if method.args.vararg is not None else None
    kwargs = method.args.kwarg.arg if method.args.kwarg is not None else None
    if method.args.kwonlyargs:
        return None
    reads: Dict[str, Tuple[str, str]] = {}  # local -> (reads, key) of ``self[name][key]`` (or a copy)
    merged = False

    def node_read(expr: ast.AST) -> Optional[Tuple[str, str]]:
        """``self[name][K]`` / ``self.X[name][K]`` -> (reads, K)."""
        if not (isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str)):
            return None
        inner = expr.value
        if not (isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Name) and inner.slice.id == name):
            return None
        if isinstance(inner.value, ast.Name) and inner.value.id == _self:
            return "", expr.slice.value
        attr = _self_attr(inner.value) if _self == "self" else None
        return (attr, expr.slice.value) if attr else None

    def copied(expr: ast.AST) -> ast.AST:
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
            head = expr.func
            if (isinstance(head, ast.Name) and head.id in ("dict", "deepcopy", "OrderedDict", "copy")) or (
                isinstance(head, ast.Attribute) and head.attr in ("deepcopy", "copy")
            ):
                return expr.args[0]
        return expr

    body = _body(method)
    if not body or not isinstance(body[-1], ast.Return):
        return None
    for statement in body[:-1]:
        if isinstance(statement, ast.Assert):
            continue
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            target = statement.targets[0].id
            read = node_read(copied(statement.value))
            if read is None or target in reads:
                return None
            reads[target] = read
            continue
        if (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute)
            and statement.value.func.attr == "update"
            and isinstance(statement.value.func.value, ast.Name)
            and statement.value.func.value.id in reads
            and len(statement.value.args) == 1
            and isinstance(statement.value.args[0], ast.Name)
            and statement.value.args[0].id == kwargs
            and not merged
        ):
            merged = True
            continue
        return None
    built = body[-1].value
    if not isinstance(built, ast.Call) or not isinstance(built.func, ast.Call):
        return None
    getter = built.func
    if not (isinstance(getter.func, ast.Name) and getter.func.id == "getattr" and len(getter.args) == 2 and not getter.keywords):
        return None
    if not (isinstance(getter.args[0], ast.Name) and getter.args[0].id == module):
        return None
    named = getter.args[1]
    type_read = reads.get(named.id) if isinstance(named, ast.Name) else node_read(named)
    if type_read is None:
        return None
    passes_varargs = False
    for arg in built.args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name) and arg.value.id == varargs and not passes_varargs:
            passes_varargs = True
        else:
            return None
    if len(built.keywords) != 1 or built.keywords[0].arg is not None:
        return None
    spread = built.keywords[0].value
    args_read = reads.get(spread.id) if isinstance(spread, ast.Name) else node_read(copied(spread))
    if args_read is None or args_read[0] != type_read[0] or args_read[1] == type_read[1]:
        return None
    if merged and not (isinstance(spread, ast.Name) and statement_updates(body, spread.id)):
        return None  # the caller's keywords merged into another dict than the one spread
    return _Factory((name, module), type_read[0], type_read[1], args_read[1], merged, passes_varargs)
