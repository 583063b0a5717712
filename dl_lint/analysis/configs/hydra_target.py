"""Hydra ``_target_`` nodes: a config node that names torch's DataLoader, built by
``hydra.utils.instantiate(cfg.data.train_loader, dataset=train_set)`` (or ``hydra.utils.call``)
in the function ``@hydra.main`` runs. The node's keys are the loader's keyword arguments (each
the default of a setting the command line can override, as any Hydra value), the call's keyword
arguments are added on top; rules judge the result as a DataLoader call (only those of
``JUDGED_BY``: they read nothing but argument values).

Checked in Hydra's source: hydra-core 1.3.8 as installed by the test extra
(``hydra/_internal/instantiate/_instantiate2.py``) and facebookresearch/hydra 2c03d1b
(2026-08-14, 1.4.0.dev), the same in both for what is used here:

- ``hydra/utils.py``: ``call = instantiate`` (one function, two names).
- ``instantiate(config, *args, **kwargs)``: the keyword arguments override the node's keys of
  the same name and add the others (1.3.8: ``OmegaConf.merge(config, kwargs)``; 2c03d1b:
  ``_iter_effective_keys(node, overrides)``); ``_target_`` itself can be given that way, as a
  class or its import path (``_prepare_input_dict_or_list`` / ``overrides[_target_]``).
- ``instantiate_node``: every key but ``_target_``, ``_convert_``, ``_recursive_`` and
  ``_partial_`` becomes a keyword argument of the target; ``_args_`` is popped by
  ``_extract_pos_args`` into positional arguments, replaced by the call's positional
  arguments when it passes any. ``_recursive_`` (default true) instantiates nested nodes that
  have a ``_target_``; ``_convert_`` changes how containers are passed: neither changes a
  scalar value. ``_partial_: true`` returns a partial of the target (nothing is constructed
  yet; a key left ``???`` is dropped): the loader is built where that partial is called, with
  the keyword arguments of that call on top.
- ``_resolve_target``: the target is ``_locate``d by its import path, so only the paths of
  torch's class are read as torch's DataLoader here; a project class stays unknown.

What is not followed stays unknown (silence): a ``_target_`` that is not torch's DataLoader, a
call with ``**kwargs`` or another ``_target_=``, a partial whose result escapes the function (returned,
passed on, stored), positional ``_args_`` in the YAML, values that are nested nodes, ``???``,
interpolations ``analysis.configs.hydra`` does not follow.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, List, Optional, Set, Tuple

from dl_lint.analysis.configs import found_as_word

ModuleAnalysis = Any  # dl_lint.analysis.module.ModuleAnalysis (which imports this module)

__all__ = ["candidate", "loader_calls", "JUDGED_BY", "INSTANTIATE_QUALNAMES"]

INSTANTIATE_QUALNAMES = frozenset(
    {
        "hydra.utils.instantiate",
        "hydra.utils.call",
        "hydra._internal.instantiate._instantiate2.instantiate",
    }
)
# Keys instantiate reads itself: never keyword arguments of the target (see above).
RESERVED = frozenset({"_target_", "_convert_", "_recursive_", "_partial_", "_args_"})
# The rules that judge such a loader: they read argument values only (the others read where the
# loader is built and used, which here is inside Hydra).
JUDGED_BY = frozenset({"DL001", "DL002", "DL003", "DL004", "DL005", "DL006", "DL007", "DL008", "DL009", "DL010"})

_IMPORT = re.compile(rb"^[ \t]*(?:import[ \t]+hydra\b|from[ \t]+hydra(?:\.utils)?[ \t]+import\b)", re.M)
_USE = re.compile(rb"(?:instantiate|call)[ \t]*\(")  # after a word boundary (``found_as_word``)
_LOADER = re.compile(rb"[Ll][Oo][Aa][Dd][Ee][Rr]")


def candidate(data: bytes) -> bool:
    """From bytes: whether a file may instantiate a Hydra node into a DataLoader: it imports
    hydra, calls ``instantiate(`` or ``call(``, and says "loader" somewhere (``cfg.train_loader``,
    ``dataloader = ...``). A Hydra app that instantiates only models and data modules is not
    parsed for this; a loader node instantiated without that word anywhere stays unknown."""
    return (
        b"hydra" in data
        and _LOADER.search(data) is not None
        and found_as_word(_USE, data)
        and _IMPORT.search(data) is not None
    )


def loader_calls(analysis: ModuleAnalysis) -> list:
    """The DataLoaders the module's ``instantiate(...)`` calls build from Hydra nodes whose
    ``_target_`` is torch's DataLoader."""
    out = []
    for call, site, scope_name, _cls in analysis.index.calls:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in ("instantiate", "call") or not call.args:
            continue
        target = analysis.resolver.resolve(func, site).single
        if getattr(target.value if target is not None else None, "qualname", None) not in INSTANTIATE_QUALNAMES:
            continue
        try:
            out.extend(_judged(analysis, call, site, scope_name))
        except RecursionError:
            continue
    return out


def _judged(analysis: ModuleAnalysis, call: ast.Call, site, scope_name: str) -> list:
    from dl_lint.analysis.configs.hydra import HydraConfig, unsure
    from dl_lint.analysis.configs.yamlfile import Leaf
    from dl_lint.analysis.loaders import LOADER_QUALNAMES

    resolver = analysis.resolver
    if isinstance(call.args[0], ast.Starred):
        return []
    config = resolver.resolve(call.args[0], site).single
    node = config.value if config is not None else None
    if not isinstance(node, HydraConfig) or not node.keys or node.plain:
        return []
    composed = resolver.project.config_composed(node.replace(keys=()), resolver.path)
    tree = composed.lookup(node.keys)
    if not isinstance(tree, dict):
        return []
    keywords = {k.arg: k for k in call.keywords if k.arg is not None}
    if len(keywords) != len(call.keywords):
        return []  # ``**kwargs`` may override any key
    if "_target_" in keywords:  # ``instantiate(cfg.loader, _target_=DataLoader)``: the call's wins
        written = resolver.resolve(keywords["_target_"].value, site).single
        qualname = getattr(written.value, "qualname", None) if written is not None else None
        if isinstance(written.value if written is not None else None, str):
            qualname = written.value
    else:
        target = composed.lookup(node.keys + ("_target_",))
        qualname = target.value if isinstance(target, Leaf) else None
    if qualname not in LOADER_QUALNAMES:
        return []  # another target, or one dl-lint cannot read
    if "_args_" in tree or unsure(tree) or any(isinstance(a, ast.Starred) for a in call.args):
        return []  # positional arguments from the YAML; or keys dl-lint cannot see
    partial = _flag(composed, node.keys + ("_partial_",), tree)
    if "_partial_" in keywords:
        written = resolver.resolve(keywords["_partial_"].value, site).single
        partial = written.value if written is not None and isinstance(written.value, bool) else None
    if partial is None:
        return []
    # The node's keys, then what the call passes (instantiate's kwargs win).
    entries: List[Tuple[str, object]] = [(key, ("yaml", key)) for key in tree if isinstance(key, str) and not key.startswith("\0")]
    entries += [(f"\0{i}", ("pos", arg)) for i, arg in enumerate(call.args[1:])]
    entries += [(k, ("kw", keyword)) for k, keyword in keywords.items()]
    builders = [call] if not partial else _partial_calls(analysis, call, site)
    if builders is None:
        return []
    out = []
    for built in builders:
        more: List[Tuple[str, object]] = []
        if built is not call:
            later = {k.arg: k for k in built.keywords if k.arg is not None}
            if len(later) != len(built.keywords) or any(isinstance(a, ast.Starred) for a in built.args):
                continue  # ``**kwargs`` at the partial's call: any key may be replaced
            more = [(f"\0p{i}", ("pos", arg)) for i, arg in enumerate(built.args)] + [(k, ("kw", kw)) for k, kw in later.items()]
        bound = _bind(analysis, node, entries + more, site, call, built)
        if bound is None:
            continue
        args, opaque = bound
        start, end = analysis.text.span(built)
        from dl_lint.analysis.loaders import LoaderCall

        out.append(
            LoaderCall(
                analysis.path,
                qualname,
                start,
                end,
                args,
                opaque=frozenset(opaque),
                scope=scope_name,
                extra={"hydra_target": ".".join(node.keys)},
            )
        )
    return out


def _flag(composed, keys: Tuple[str, ...], tree: dict) -> Optional[bool]:
    """``_partial_`` of the node: False when not written, None when it cannot be read."""
    from dl_lint.analysis.configs.hydra import unsure
    from dl_lint.analysis.configs.yamlfile import Leaf

    if keys[-1] not in tree:
        return None if unsure(tree) else False  # a file dl-lint does not follow may set it
    found = composed.lookup(keys)
    return found.value if isinstance(found, Leaf) and isinstance(found.value, bool) else None


def _bind(analysis: ModuleAnalysis, node, entries, site, call: ast.Call, built: ast.Call):
    """The loader's arguments: (name -> BoundArg, opaque names), or None when the positional
    and keyword arguments collide (a TypeError, not a rule's business)."""
    from dl_lint.analysis.loaders import PARAMETERS, POSITIONAL, BoundArg
    from dl_lint.analysis.values import Value

    resolver = analysis.resolver
    text = analysis.text
    args: Dict[str, BoundArg] = {}
    opaque: Set[str] = set()
    index = 0
    given_positional: Set[str] = set()
    given_keyword: Set[str] = set()
    call_start, call_end = text.span(built)  # where the loader is built (rules report at it)
    for key, (kind, what) in entries:
        if kind == "pos":
            if index >= len(POSITIONAL):
                continue
            name = POSITIONAL[index]
            index += 1
            given_positional.add(name)
        else:
            name = key
        if name in RESERVED or name not in PARAMETERS:
            continue
        if kind != "pos":
            given_keyword.add(name)
        if kind == "yaml":
            value = resolver._config_value(node, name)
            if isinstance(value.single.value if value.single is not None else None, type(node)):
                value = Value.unknown("config")  # a nested node (maybe instantiated itself)
            args[name] = BoundArg(name, value.with_aliases(name), "", call_start, call_end, True, "")
            opaque.discard(name)
            continue
        expr = what.value if isinstance(what, ast.keyword) else what
        start, end = text.span(what)
        where = analysis_site(analysis, built, site) if built is not call and _inside(built, what) else site
        args[name] = BoundArg(name, resolver.resolve(expr, where), resolver.code(expr), start, end, kind == "kw", "")
        opaque.discard(name)
    if given_positional & given_keyword:
        return None  # a parameter given twice: torch's TypeError, not a rule's business
    return args, opaque


def _inside(outer: ast.AST, node: ast.AST) -> bool:
    return any(sub is node for sub in ast.walk(outer))


def analysis_site(analysis: ModuleAnalysis, call: ast.Call, default):
    """The site of a call of the module (where its arguments are resolved)."""
    for found, site, _scope, _cls in analysis.index.calls:
        if found is call:
            return site
    return default


def _partial_calls(analysis: ModuleAnalysis, call: ast.Call, site) -> Optional[List[ast.Call]]:
    """Where the partial an ``instantiate`` returns is called: the calls of the one local name
    it is assigned to, when that name is used for nothing else in its function (else None); or
    the call it is the function of (``instantiate(cfg.loader)(dataset=ds)``)."""
    for outer, _site, _scope, _cls in analysis.index.calls:
        if outer.func is call:
            return [outer]
    name = analysis.assigned_name(call)
    if name is None:
        return None
    scope = site.scope
    names = analysis.index.scopes.get(id(scope)) if scope is not None else analysis.index.module_scope
    if names is None or len(names.bindings.get(name, ())) != 1:
        return None
    body = scope if scope is not None else analysis.tree
    calls: List[ast.Call] = []
    funcs = set()
    for sub in ast.walk(body):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == name:
            calls.append(sub)
            funcs.add(id(sub.func))
    for sub in ast.walk(body):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load) and id(sub) not in funcs:
            return None  # the partial escapes (returned, passed on): its calls cannot all be seen
        if isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
            return None
        if sub is not body and isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pass  # nested functions see the name too: ast.walk covers their uses
    return calls


_NAMED = re.compile(r"\b([a-z_]+)=")


def relocate(finding, call):
    """A finding a rule reports at the call, about an argument the YAML node sets (its span is
    the call's): at the YAML line of the first argument its message names that comes from one
    line of a YAML file. Findings about arguments written in Python stay where they are."""
    if finding.place is not None or finding.location != call.location:
        return finding
    for name in _NAMED.findall(finding.message):
        bound = call.args.get(name)
        options = bound.value.options if bound is not None else None
        if not options:
            continue
        places = {(p.origin.path, p.origin.line) for p in options if p.origin is not None and p.origin.path}
        if len(places) == 1 and len(options) == 1:
            path, line = next(iter(places))
            if path.endswith((".yaml", ".yml")) and line:
                return finding.replace(place=(path, line, 1))
        return finding
    return finding
