"""LightningCLI: the DataModule (and LightningModule) a ``LightningCLI(...)`` script builds from a
YAML file given at run time with ``--config``, each such file judged as one possible run.

Checked by running Lightning 2.6.6 (``lightning/pytorch/cli.py``) with jsonargparse 4.53.0:

- ``LightningCLI.init_parser`` adds ``-c/--config`` (jsonargparse's ``ActionConfigFile``); the
  file's top-level keys are the parser's groups: ``trainer``, ``model``, ``data`` (only when a
  DataModule class is given or ``datamodule_class`` is None), ``seed_everything``, ``ckpt_path``
  (subcommands), ``optimizer``/``lr_scheduler``. Any other key is rejected ("does not accept
  option"), so a YAML file with other top-level keys is not a config of that CLI.
- ``add_core_arguments_to_parser``: ``model`` and ``data`` are the ``__init__`` parameters of the
  class given, written directly under the key (``data: {num_workers: 0}``); a
  ``class_path``/``init_args`` form is rejected for a fixed class. With ``subclass_mode_data=True``
  (or no class given: ``self.subclass_mode_data = (datamodule_class is None) or ...``) the value
  is ``{class_path: pkg.mod.Class, init_args: {...}}``; with a base class given, jsonargparse also
  accepts the plain form and ``init_args`` alone, both meaning the base class itself (tried with
  4.53.0); without a class, only ``class_path`` works.
- The keys under ``data``/``init_args`` must be ``__init__`` parameters (else the file is
  rejected); the class is built with them and the other parameters' defaults, so
  ``self.hparams`` after ``save_hyperparameters()`` holds the file's values.
- ``parser_kwargs={"default_config_files": [...]}`` (jsonargparse ``ArgumentParser``,
  ``_get_default_config_files``: each pattern globbed after ``~`` expansion, relative to the
  working directory) are read before the command line; a ``--config`` file overrides them.
  ``parser_kwargs={"fit": {...}}`` gives a subcommand's parser its own.

What dl-lint judges: for a direct ``LightningCLI(...)`` call without ``args=`` (a program that
reads its command line), each YAML file beside the script or under a ``config``/``configs``/
``conf`` folder of the script's folder or the project root whose top level has only the keys
above and sets ``data`` or ``model`` of a project class, merged over the default config files
(resolved from the script's folder; a pattern that finds nothing there makes the CLI unknown,
since it is read from the working directory). Every value is a default the command line can
override (``--data.num_workers=4``). Not followed (silence): subclasses of LightningCLI (their
``add_arguments_to_parser`` may link or add keys), ``args=``, ``parser_kwargs`` that are not a
literal dict, ``parser_mode`` other than yaml/omegaconf, ``${...}`` values, classes with an
inherited ``__init__``, loaders in inherited methods, YAML tags/merges, subcommand-keyed files.
"""

from __future__ import annotations

import ast
import glob
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from dl_lint.analysis.configs.yamlfile import UNKNOWN, Leaf, Tree
from dl_lint.analysis.scopes import END

__all__ = ["candidate", "QUALNAMES", "loader_calls", "JUDGED_BY"]

QUALNAMES = frozenset(
    {
        "lightning.pytorch.cli.LightningCLI",
        "lightning.pytorch.LightningCLI",
        "pytorch_lightning.cli.LightningCLI",
        "pytorch_lightning.utilities.cli.LightningCLI",
        "lightning.pytorch.utilities.cli.LightningCLI",
    }
)
# The rules whose findings a config value decides (reported at the YAML line): the others read
# the Python call, which the DataModule's own file already reports.
JUDGED_BY = frozenset({"DL001", "DL002"})
# Top-level keys LightningCLI's parser accepts in a config file (lightning 2.6.6, cli.py).
_TOP_KEYS = frozenset({"trainer", "model", "data", "seed_everything", "ckpt_path", "optimizer", "lr_scheduler"})
_CONFIG_DIRS = ("config", "configs", "conf")
# The class a group takes when none is given (lightning 2.6.6, cli.py: ``self._model_class =
# model_class or LightningModule``; ``self._datamodule_class = datamodule_class or
# LightningDataModule``): a ``class_path`` must name a subclass of it.
_ROOTS = {"model": "LightningModule", "data": "LightningDataModule"}
_MAX_FILES = 200
_SECTION = re.compile(rb"^(?:data|model)\s*:", re.M)


# An import from a ``cli`` module (``from lightning.pytorch.cli import LightningCLI``, ``from
# lightning.pytorch import cli``): Lightning's own cli.py, which defines the class, has none.
_CLI_IMPORT = re.compile(rb"\bcli\s+import\b|\bimport\s+[\w.]*\bcli\b")


def candidate(data: bytes) -> bool:
    """Whether a Python file's bytes may hold a LightningCLI call (cheap, before any parse): a
    ``LightningCLI(`` call and an import from a ``cli`` module."""
    return b"LightningCLI(" in data and _CLI_IMPORT.search(data) is not None


def may_have_configs(script: str, root: Optional[str], data: bytes) -> bool:
    """Whether a LightningCLI script may have config files (before parsing it): a YAML file
    beside it, or a config folder of its own, at the project root (the nearest folder above it
    with a project marker) or at ``root`` (the settings' folder), or ``default_config_files``
    (which name files anywhere). Lightning's own tests and examples call LightningCLI without
    any: parsing them for this was 2 parses per run there."""
    from pathlib import Path

    from dl_lint.roots import find_root

    if b"default_config_files" in data:
        return True
    here = os.path.dirname(os.path.abspath(script))
    try:
        if any(name.endswith((".yaml", ".yml")) for name in os.listdir(here)):
            return True
    except OSError:
        return True
    roots = {os.fspath(find_root(Path(here))), *([root] if root else [])}
    folders = [os.path.join(here, d) for d in _CONFIG_DIRS]
    folders.extend(os.path.join(r, d) for r in sorted(roots) for d in _CONFIG_DIRS)
    return any(os.path.isdir(folder) for folder in folders)


class _Cli:
    """One ``LightningCLI(...)`` call: the classes of its groups and whether they are subclass mode."""

    def __init__(self, script: str, classes: Dict[str, Any], subclass: Dict[str, bool], defaults: Tuple[str, ...]) -> None:
        self.script = script
        self.classes = classes  # "model"/"data" -> FunctionRef (or None: no class given)
        self.subclass = subclass
        self.defaults = defaults  # default config files (absolute)


def loader_calls(analysis: Any) -> list:
    """The loader calls of the project classes a LightningCLI of this module builds, once per
    config file, their parameters bound to that file's values (``LoaderCall.extra`` holds
    ``lightning_cli``: the config file). Only DL001/DL002 findings placed in a YAML file count."""
    if not analysis.path or "LightningCLI(" not in analysis.source or not candidate(analysis.source.encode("utf-8", "replace")):
        return []
    out: list = []
    for call, site, _scope, _cls in analysis.index.calls:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name != "LightningCLI":
            continue
        cli = _cli_of(analysis, call, site)
        if cli is None:
            continue
        out.extend(_judged_runs(analysis, cli))
    return out


def _cli_of(analysis: Any, call: ast.Call, site: Any) -> Optional[_Cli]:
    resolver = analysis.resolver
    target = resolver.resolve(call.func, site).single
    if target is None or getattr(target.value, "qualname", None) not in QUALNAMES:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    if None in keywords or any(isinstance(a, ast.Starred) for a in call.args) or "args" in keywords:
        return None
    written: Dict[str, Optional[ast.AST]] = {"model": None, "data": None}
    for position, key in enumerate(("model", "data")):
        if position < len(call.args):
            written[key] = call.args[position]
    for key, keyword in (("model", "model_class"), ("data", "datamodule_class")):
        if keyword in keywords:
            written[key] = keywords[keyword]
    classes: Dict[str, Any] = {}
    for key, expr in written.items():
        if expr is None or (isinstance(expr, ast.Constant) and expr.value is None):
            classes[key] = None
            continue
        ref = resolver.resolve(expr, site).single
        value = ref.value if ref is not None else None
        if _lightning_base(getattr(value, "qualname", None)) == _ROOTS[key]:
            classes[key] = None  # LightningCLI(LightningModule, LightningDataModule, ...): any subclass
            continue
        classes[key] = value if getattr(value, "kind", None) == "class" and getattr(value, "path", "") else False
    subclass: Dict[str, bool] = {}
    for key, keyword in (("model", "subclass_mode_model"), ("data", "subclass_mode_data")):
        flag = False
        if keyword in keywords:
            flag = resolver.resolve(keywords[keyword], site).single
            if flag is None or not isinstance(flag.value, bool):
                return None
            flag = flag.value
        subclass[key] = bool(flag) or classes[key] is None
    defaults: Tuple[str, ...] = ()
    if "parser_kwargs" in keywords:
        found = _default_files(analysis, keywords["parser_kwargs"])
        if found is None:
            return None
        defaults = found
    return _Cli(analysis.path, classes, subclass, defaults)


def _default_files(analysis: Any, expr: ast.AST) -> Optional[Tuple[str, ...]]:
    """The default config files a literal ``parser_kwargs`` names, found from the script's
    folder; None when they cannot be known (not a literal dict, a pattern that finds nothing
    there, subcommand parsers with their own)."""
    if not isinstance(expr, ast.Dict) or any(k is None for k in expr.keys):
        return None
    here = os.path.dirname(os.path.abspath(analysis.path))
    out: List[str] = []
    for key, value in zip(expr.keys, expr.values):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            return None
        if isinstance(value, ast.Dict):
            if any(isinstance(k, ast.Constant) and k.value == "default_config_files" for k in value.keys):
                return None  # a subcommand parser's own defaults: not followed
            continue
        if key.value == "parser_mode":
            if not isinstance(value, ast.Constant) or value.value not in ("yaml", "omegaconf"):
                return None  # jsonnet, or a mode of the project's own: not YAML as read here
            continue
        if key.value != "default_config_files":
            continue  # description, env_prefix, default_env, ...: the values stay defaults
        if not isinstance(value, (ast.List, ast.Tuple)):
            return None
        for element in value.elts:
            if not isinstance(element, ast.Constant) or not isinstance(element.value, str):
                return None
            pattern = os.path.expanduser(element.value)
            found = sorted(glob.glob(os.path.join(here, pattern)))
            if not found:
                return None  # read from the working directory at run time: unknown from here
            out.extend(os.path.abspath(f) for f in found)
    return tuple(out)


def _config_files(analysis: Any, cli: _Cli) -> List[str]:
    """YAML files that may be given to this CLI with ``--config``."""
    here = os.path.dirname(os.path.abspath(cli.script))
    folders = [here, *(os.path.join(here, d) for d in _CONFIG_DIRS)]
    root = getattr(analysis.resolver.project, "root", None)
    if root is not None:
        folders.extend(os.path.join(os.fspath(root), d) for d in _CONFIG_DIRS)
    out: List[str] = []
    seen = set()
    for number, folder in enumerate(folders):
        if not os.path.isdir(folder):
            continue
        for path in _yaml_below(folder, recursive=number > 0):
            real = os.path.realpath(path)
            if real in seen or not path.endswith((".yaml", ".yml")):
                continue
            seen.add(real)
            out.append(os.path.abspath(path))
            if len(out) >= _MAX_FILES:
                return out
    return out


def _yaml_below(folder: str, recursive: bool) -> List[str]:
    """The ``*.yaml``/``*.yml`` files of ``folder`` (and below, when ``recursive``), sorted, as
    ``glob`` finds them (names starting with a dot skipped) but without entering symbolic links
    to folders: a link loop, or a link out of the project, is never walked."""
    out: List[str] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if recursive else []
        out.extend(os.path.join(current, f) for f in files if f.endswith((".yaml", ".yml")) and not f.startswith("."))
        if len(out) >= 4 * _MAX_FILES:
            break
    return sorted(out)


def _read(analysis: Any, path: str) -> Optional[Tree]:
    """The file's tree when its bytes can be a LightningCLI config (a ``data:``/``model:`` line)."""
    project = analysis.resolver.project
    project.read_config_file(path)  # the answer rests on its bytes (the results cache)
    data = project.read_config(path)  # through the door: inside the root, regular, bounded
    if data is None or not _SECTION.search(data):
        return None
    tree = project.config_file(path, "safe")[1]  # jsonargparse: last duplicate wins
    if not isinstance(tree, Tree) or not tree.entries:
        return None
    if any(key not in _TOP_KEYS for key, _ in tree.entries):
        return None
    return tree


def _judged_runs(analysis: Any, cli: _Cli) -> list:
    """Loader calls for each run: the default config files alone, and each config file over them."""
    base: List[Tree] = []
    for path in cli.defaults:
        tree = _read(analysis, path)
        if tree is None:
            return []  # a default file dl-lint cannot read: every run's values are unknown
        base.append(tree)
    runs: List[List[Tree]] = [base] if base else []
    for path in _config_files(analysis, cli):
        if path in cli.defaults:
            continue
        tree = _read(analysis, path)
        if tree is not None:
            runs.append([*base, tree])
    out: list = []
    seen = set()
    for run in runs:
        for group in ("data", "model"):
            chosen = _group_values(analysis, cli, group, run)
            if chosen is None:
                continue
            ref, values = chosen
            for loader in _class_loaders(analysis, cli, group, ref, values):
                key = (loader.path, loader.location, tuple(sorted((n, repr(a.value)) for n, a in loader.args.items())))
                if key not in seen:
                    seen.add(key)
                    out.append(loader)
    return out


def _group_values(analysis: Any, cli: _Cli, group: str, run: Sequence[Tree]) -> Optional[Tuple[Any, Dict[str, Any]]]:
    """(class, {parameter: Leaf or UNKNOWN}) the run gives ``group``'s class; None when the run
    does not set the group or dl-lint cannot tell which class it builds."""
    base = cli.classes.get(group)
    if base is False:
        return None
    ref = base
    values: Dict[str, Any] = {}
    touched = False
    for tree in run:
        node = tree.get(group)
        if node is None:
            continue
        if not isinstance(node, Tree):
            return None  # a class name string, a tag, null: not followed
        touched = True
        keys = {k for k, _ in node.entries}
        if "class_path" in keys or "init_args" in keys:
            if not cli.subclass[group] or keys - {"class_path", "init_args"}:
                return None  # rejected for a fixed class, or keys dl-lint does not follow
            if "class_path" in keys:
                path = node.get("class_path")
                if not isinstance(path, Leaf) or not isinstance(path.value, str):
                    return None
                named = _class_named(analysis, path.value, base, group)
                if named is None:
                    return None
                if named != ref:
                    values = {}  # another class: jsonargparse starts its init_args afresh
                ref = named
            elif ref is None:
                return None
            args = node.get("init_args")
            if args is None:
                continue
            if not isinstance(args, Tree):
                return None
            entries = args.entries
        else:
            if ref is None:
                return None  # no class given: the plain form is rejected
            entries = node.entries
        for key, value in entries:
            values[key] = value
    if not touched or ref is None:
        return None
    return ref, values


def project_class(analysis: Any, dotted: str) -> Any:
    """The project class an import path names (``pkg.mod.Class``), else None. Shared by the
    config readers that name classes by path (LightningCLI's ``class_path``, ``target:``)."""
    module, _, name = dotted.rpartition(".")
    if not module or not name:
        return None
    project = analysis.resolver.project
    if not project.module_exists(module):
        return None
    value = project.import_value(module, name, 1, analysis.path).single
    found = value.value if value is not None else None
    if getattr(found, "kind", None) != "class" or not getattr(found, "path", ""):
        return None
    return found


def _class_named(analysis: Any, dotted: str, base: Any, group: str) -> Any:
    """The project class a ``class_path`` names (``pkg.mod.Class``, or the base class's own name)."""
    if base and dotted == base.name:
        return base
    found = project_class(analysis, dotted)
    if found is None:
        return None
    if not _derives(analysis, found, base or _ROOTS[group], 4):
        return None  # jsonargparse 4.53.0: "Import path ... does not correspond to a subclass of ..."
    return found


def _lightning_base(qualname: Optional[str]) -> Optional[str]:
    """``LightningModule``/``LightningDataModule`` when ``qualname`` is Lightning's class."""
    if not qualname or qualname.partition(".")[0] not in ("lightning", "pytorch_lightning"):
        return None
    name = qualname.rpartition(".")[2]
    return name if name in _ROOTS.values() else None


def _derives(analysis: Any, ref: Any, base: Any, depth: int) -> bool:
    """Whether the project class ``ref`` is ``base`` or derives from it through project classes
    (``base``: a project class, or the name of Lightning's root class of the group)."""
    if not isinstance(base, str) and (os.path.abspath(ref.path), ref.name) == (os.path.abspath(base.path), base.name):
        return True
    if depth <= 0:
        return False
    owner, cls = _class_node(analysis, ref)
    if cls is None:
        return False
    for expr in cls.bases:
        parent = owner.resolver.resolve(expr, END).single
        value = parent.value if parent is not None else None
        if isinstance(base, str) and _lightning_base(getattr(value, "qualname", None)) == base:
            return True
        if getattr(value, "kind", None) == "class" and getattr(value, "path", "") and _derives(analysis, value, base, depth - 1):
            return True
    return False


def _class_node(analysis: Any, ref: Any) -> Tuple[Any, Optional[ast.ClassDef]]:
    """(module analysis, ClassDef) of a project class."""
    path = os.path.abspath(ref.path)
    if path == os.path.abspath(analysis.path):
        owner = analysis
    else:
        owner = analysis.resolver.project.analysis_at(path, ref.module)
        analysis.resolver.project.read_config_file(path)  # its loaders are judged here: its bytes matter
    if owner is None:
        return None, None
    return owner, next((n for n in owner.tree.body if isinstance(n, ast.ClassDef) and n.name == ref.name), None)


def _class_loaders(analysis: Any, cli: _Cli, group: str, ref: Any, values: Dict[str, Any]) -> list:
    """The loader calls of the class's methods with its ``__init__`` parameters bound to the
    run's values (the others keep their defaults)."""
    from dl_lint.analysis.values import Origin, Possible, Value

    owner, cls = _class_node(analysis, ref)
    if cls is None:
        return []
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return []  # an inherited __init__: its parameters are not followed
    positional, keyword_only = owner.parameters(init)
    params = {b.name: b for b in (*positional[1:], *keyword_only)}
    if any(key not in params for key in values) and init.args.kwarg is None:
        return []  # jsonargparse rejects the file: no run
    env: Dict[int, Any] = {}
    for key, node in values.items():
        binding = params.get(key)
        if binding is None:
            continue
        if not isinstance(node, Leaf) or node.value is UNKNOWN or (isinstance(node.value, str) and "${" in node.value):
            # a mapping, a tag, or an interpolation (parser_mode="omegaconf" resolves it)
            env[id(binding.node)] = Value.unknown("config")
            continue
        origin = Origin(f"overridable: --{group}.{key}=...", node.path, node.line)
        env[id(binding.node)] = Value((Possible(node.value, origin),), "config")
    if not env:
        return []
    out = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__":
            continue
        for loader in owner.loader_calls_with(method, env):
            out.append(loader.replace(extra={**loader.extra, "lightning_cli": cli.script}))
    return out
