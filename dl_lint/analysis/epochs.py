"""DL206's facts: a loader's torch ``DistributedSampler``, and how the code around it uses the
loader and the sampler across epochs.

Everything is read from the function that builds the loader (or the module, for a module-level
loader) and the module-level functions of the same module it is handed to, three calls deep:
where the loader is iterated and whether a loop runs that iteration again (the epoch loop);
whether ``set_epoch`` is called on the sampler, on ``loader.sampler`` or on
``loader.batch_sampler.sampler``; and whether either object leaves what can be seen (handed to
another callee, stored, aliased, wrapped), which makes the answer unknown. A loader its function
returns is followed into the callers that bind it (``_returned_to_callers``). The rule
(``dl206_distributed_sampler_without_set_epoch``) decides.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from dl_lint.analysis.loaders import EpochLoop, SamplerEpochs, SamplerUse
from dl_lint.analysis.loops import loop_count
from dl_lint.analysis.syntax import is_generator, literal, other_arms, terminal
from dl_lint.analysis.values import Origin, Value

if TYPE_CHECKING:
    from dl_lint.analysis.scopes import Site

DISTRIBUTED_SAMPLERS = frozenset(
    {"torch.utils.data.DistributedSampler", "torch.utils.data.distributed.DistributedSampler"}
)
# Calls that pass a loader through to the ``for`` that iterates it.
_WRAPPERS = frozenset({"enumerate", "tqdm", "zip", "islice", "progressbar"})  # progressbar2: transfers._TRANSPARENT
# Builtins that only look at an object (``len(loader)``, ``print(sampler)``).
_LOOKS = frozenset({"len", "print", "str", "repr", "isinstance", "type", "id", "hasattr"})
# Attributes of a loader that only read it (``len(loader.dataset)``).
_READS = frozenset({"dataset", "batch_size", "num_workers", "drop_last", "pin_memory"})
# A progress bar over the loader (``loader = tqdm(loader)``): iterating it iterates the loader,
# and its own methods and counters (tqdm 4's API) never touch the loader's sampler.
_PROGRESS_BARS = frozenset({"tqdm"})
_PROGRESS_READS = frozenset(
    {
        "set_description", "set_description_str", "set_postfix", "set_postfix_str", "update", "close",
        "refresh", "clear", "reset", "write", "display", "unpause", "n", "total", "desc", "postfix",
    }
)  # fmt: skip
FOLLOW_DEPTH = 3
# How many (function, place) returns of the loader and its sampler are followed to callers, in all.
RETURN_HOPS = 8
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# DistributedSampler(dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False)
_SHUFFLE_AT, _SEED_AT = 3, 4


def sampler_epochs(analysis: Any, call: ast.Call, site: "Site", sampler: ast.AST) -> Optional[SamplerEpochs]:
    """The facts for the loader ``call`` (at ``site``) of ``analysis`` (the module's
    ``ModuleAnalysis``, which imports this module) whose ``sampler`` argument is the node
    ``sampler``; None when that sampler is not (in any case) a torch DistributedSampler built
    where it can be read."""
    constructions, sampler_name = _constructions(analysis, sampler, site)
    if not constructions:
        return None
    uses = tuple(use or _sampler_use(analysis, node, where) for node, where, _, use in constructions)
    # A sampler a factory returns: its conditions and rows are the factory's (not compared with
    # the caller's, nor placed in the caller's loops).
    factory = any(use is not None for *_, use in constructions)
    loader_name = analysis.assigned_name(call)
    # ``self.train_loader = DataLoader(...)`` in a method: the attribute is followed in the class.
    attribute = _attribute_target(analysis, call, site) if loader_name is None else None
    if loader_name is None and attribute is None and _returned_whole(analysis, call, site):
        # ``return DataLoader(...)``, the method's only return: followed into its class's attributes
        found = _Uses()
        if sampler_name is not None:  # ``self.sampler = sampler`` beside it: out of sight
            _collect(analysis, site.scope, {sampler_name: "sampler"}, {id(sampler)}, 0, found)
        if not _returned_to_attribute(analysis, site.scope, 0, found):
            return SamplerEpochs(uses, escape=f"the loader {site.scope.name}() returns goes to callers not read")
        _settle(found)
        epoch = next((loop for loop in found.iterations if loop.epoch_row is not None), None)
        return SamplerEpochs(uses, epoch, found.set_epoch, found.escape, None, False, found.returned, found.kept)
    if loader_name is None and attribute is None and isinstance(site.scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        parents = analysis.name_reads(site.scope)[0]
        if _returned_path(call, parents) is not None:
            # ``return DataLoader(...)`` (whole or in a tuple): followed into the callers that
            # bind it, as a returned name is (``_returned_to_callers``)
            found = _Uses()
            found.returners.add(id(site.scope))
            found.origin = id(site.scope)
            if sampler_name is not None:
                _collect(analysis, site.scope, {sampler_name: "sampler"}, {id(sampler)}, 0, found)
            _returned_to_callers(analysis, site.scope, call, parents, 0, found)
            _settle(found)
            epoch = next((loop for loop in found.iterations if loop.epoch_row is not None), None)
            return SamplerEpochs(uses, epoch, found.set_epoch, found.escape, None, False, found.returned, found.kept)
    # a name bound in several arms of an ``if``/``try``: the reads in the other arms are theirs
    others = _other_arms(analysis, site, loader_name, call, sampler_name) if loader_name is not None else None
    if attribute is not None:
        others = set()
    if others is None:
        return SamplerEpochs(uses, escape="the loader is not bound to one name")
    if _EVALUATION.match(loader_name or attribute[1]):
        return SamplerEpochs(uses, escape="the loader's name says it evaluates: its order does not change the result")
    owner = analysis.tree if site.scope is None else site.scope
    names = {loader_name: "loader"} if loader_name is not None else {}
    if sampler_name is not None:
        names[sampler_name] = "sampler"
    found = _Uses()
    if site.scope is not None:
        found.returners.add(id(site.scope))  # ``return loader``: followed to its callers
        found.origin = id(site.scope)
    _collect(analysis, owner, names, {id(sampler)} | others, 0, found)
    if attribute is not None:
        _follow_attribute(analysis, analysis, attribute[0], attribute[1], attribute[2], 0, found, objects=True)
        factory = True  # its iterations and set_epoch calls are in other methods: conditions not compared
    _settle(found)
    epoch = next((loop for loop in found.iterations if loop.epoch_row is not None), None)
    set_epoch, narrow = found.set_epoch, None
    # A loader its function returns: the callers' conditions are their own (not compared).
    factory = factory or bool(found.returned)
    if epoch is not None and found.set_epochs and not factory:
        mentioned = set(names) | {"sampler"}
        uncovered = [
            _uncovered(conds, [_conds(analysis, where) + extra for _, where, extra, _ in constructions], epoch.conds, mentioned)
            for _, conds in found.set_epochs
        ]
        if all(u is not None for u in uncovered):
            set_epoch, narrow = None, (found.set_epochs[0][0], uncovered[0])
    escape, rebuilt = found.escape, False
    if epoch is not None and not epoch.path and escape is None and not factory:
        loop = analysis.loop_at_row(owner, epoch.epoch_row)
        if loop is not None and all(loop.lineno < node.lineno <= (loop.end_lineno or 0) for node, *_ in constructions):
            rebuilt = True
            bound = _bound_in(loop)
            for node, *_ in constructions:
                dataset = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "dataset"), None)
                if dataset is None or any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(dataset)):
                    escape = "the sampler is built on every pass over what the loop's pass gives"
    return SamplerEpochs(uses, epoch, set_epoch, escape, narrow, rebuilt, found.returned, found.kept)


def _conds(analysis, site) -> Tuple[Tuple[str, bool], ...]:
    """The ``if`` conditions a site runs under, as (test text without spaces, polarity); a test
    ``not X`` is ``X`` of the other polarity (``if not args.webdataset:`` is the ``else`` arm of
    ``if args.webdataset:``)."""
    if site is None:
        return ()
    found = []
    for c in site.conds:
        if c.kind != "if" or c.test is None:
            continue
        test, polarity = c.test, c.polarity
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, polarity = test.operand, not polarity
        found.append(("".join(analysis.text.segment(test).split()), polarity))
    return tuple(found)


def _uncovered(conds, constructions, iteration, mentioned) -> Optional[str]:
    """The first condition of a ``set_epoch`` call that neither the iteration nor every sampler
    construction is under (a narrower one), or None. A condition that names the sampler or the
    loader (``if sampler is not None``, ``hasattr(loader.sampler, "set_epoch")``) holds wherever
    the sampler is a DistributedSampler: it narrows nothing."""
    for text, polarity in conds:
        if any(name in text for name in mentioned):
            continue
        if (text, polarity) in iteration:
            continue
        if all((text, polarity) in built for built in constructions):
            continue
        return text if polarity else f"not ({text})"
    return None


def loops_by_row(owner: ast.AST) -> Dict[int, ast.AST]:
    """The ``for`` and ``while`` loops of ``owner`` (nested functions included) by their first
    row, the first found by ``ast.walk`` for each: what ``ModuleAnalysis.loop_at_row`` keeps."""
    found: Dict[int, ast.AST] = {}
    for node in ast.walk(owner):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            found.setdefault(node.lineno, node)
    return found


def _bound_in(loop: ast.AST) -> Set[str]:
    """The names a loop binds on each pass: its target, and every name assigned in its body."""
    out: Set[str] = set()
    for part in (getattr(loop, "target", None), *loop.body):
        if part is None:
            continue
        for node in ast.walk(part):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
    return out


# -- the sampler ----------------------------------------------------------------------------------


def _constructions(analysis, sampler: ast.AST, site) -> Tuple[List[Tuple[ast.Call, "Site", tuple, Optional[SamplerUse]]], Optional[str]]:
    """The DistributedSampler calls the sampler argument can be, and the name it is held by:
    (call, site, conditions, None) for a call written here; (call, site, (), its SamplerUse)
    for one a project factory returns (``_factory_samplers``)."""
    if isinstance(sampler, ast.Call):
        if _is_distributed_sampler(analysis, sampler, site):
            return [(sampler, site, (), None)], None
        return _factory_samplers(analysis, sampler, site), None
    if isinstance(sampler, ast.Attribute):
        return _kept_sampler(analysis, sampler, site), None
    if not isinstance(sampler, ast.Name):
        return [], None
    scope = _scope(analysis, site)
    name = sampler.id
    if scope is None or name in scope.globals or name in scope.nonlocals:
        return [], None
    bindings = scope.bindings.get(name)
    if not bindings:
        return [], None  # bound in an enclosing scope, or imported: not read
    found = []
    for binding in bindings:
        if binding.kind != "assign" or binding.value is None:
            return [], None  # a parameter, a loop variable, an unpacking: unknown
        for branch, conds in _branches(analysis, binding.value):
            if isinstance(branch, ast.Call) and _is_distributed_sampler(analysis, branch, binding.site):
                found.append((branch, binding.site, conds, None))
            elif isinstance(branch, ast.Call):
                found.extend(_factory_samplers(analysis, branch, binding.site))
    return found, name


def _kept_sampler(analysis, sampler: ast.Attribute, site) -> list:
    """``sampler=self.train_sampler`` in a method of a module-level class that stores
    ``self.train_sampler = DistributedSampler(...)`` once: that construction, when nothing can
    call set_epoch on it unseen. Its set_epoch calls (``self.train_sampler.set_epoch(epoch)``)
    are not followed, so a module that writes ``set_epoch`` anywhere leaves it unknown, and so
    does any other object's attribute of that name in the module (``trainer.train_sampler``),
    another store, or a string naming it (``getattr``)."""
    method = site.scope
    cls = analysis.ix.method_class.get(id(method)) if method is not None else None
    owner = _self_name(method) if cls is not None else None
    if owner is None or not (isinstance(sampler.value, ast.Name) and sampler.value.id == owner):
        return []
    attribute = sampler.attr
    if "set_epoch" in analysis.source and "set_epoch" in analysis._identifiers():
        return []  # ``self.train_sampler.set_epoch(epoch)``, or through another name: not followed
    stores, named = analysis._attribute_stores()
    count = stores.get((id(cls), attribute), 0)
    if not count or (None, attribute) in stores or attribute in named:
        return []
    if attribute in analysis._attributes_read_elsewhere():
        return []  # ``trainer.train_sampler`` read outside the class's own methods
    assigns = []  # (method, statement): every store is a plain assignment of one method
    for other in cls.body:
        name = _self_name(other) if isinstance(other, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        for node in ast.walk(other) if name is not None else ():
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if isinstance(target, ast.Attribute) and target.attr == attribute and isinstance(target.value, ast.Name) and target.value.id == name:
                assigns.append((other, node))
    if len(assigns) != count or len({id(method) for method, _ in assigns}) != 1:
        return []
    if count > 1:
        # ``if args.distributed: self.train_sampler = DistributedSampler(ds)`` / ``else:
        # self.train_sampler = None``: stores in different arms of one ``if``, no path runs two
        parents = analysis.name_reads(assigns[0][0])[0]
        if not all(other_arms(a, b, parents) for i, (_, a) in enumerate(assigns) for _, b in assigns[i + 1 :]):
            return []
    found = []
    for _, node in assigns:
        for branch, conds in _branches(analysis, node.value):  # as for a sampler bound to a name
            store_site = analysis.site_of(branch) if isinstance(branch, ast.Call) else None
            if store_site is None:
                continue
            if _is_distributed_sampler(analysis, branch, store_site):
                found.append((branch, store_site, conds, None))
            else:
                found.extend(_factory_samplers(analysis, branch, store_site))
    return found


def _factory_samplers(analysis, call: ast.Call, site) -> list:
    """The DistributedSamplers a project function returns (``return DistributedSampler(...)``,
    the whole return value), for ``sampler=data_sampler(dataset, shuffle=True, ...)``: each with
    its shuffle and seed read in the factory's module with its parameters bound to this call's
    arguments (``ModuleAnalysis.bind_parameters``; unknown when they cannot be bound)."""
    from dl_lint.analysis.values import FunctionRef

    if not isinstance(call.func, (ast.Name, ast.Attribute)) or not analysis._may_be_function(call.func, site):
        return []  # ``data_sampler(...)``, or ``dist.data_sampler(...)`` of an imported module
    single = analysis.resolver.resolve(call.func, site).single
    ref = single.value if single is not None else None
    if not isinstance(ref, FunctionRef) or ref.kind != "function":
        return []
    if not ref.path or ref.path == analysis.path:
        where, function = analysis, analysis.function_node(ref.name)
    else:
        where, function = _function_elsewhere(analysis, call)
    if function is None:
        return []
    found = []
    for node in _returned_calls(function):
        node_site = where.site_of(node)
        if node_site is None or not _is_distributed_sampler(where, node, node_site):
            continue
        env = where.bind_parameters(call, site, analysis, function)
        saved = where.resolver.param_env
        where.resolver.param_env = env if env is not None else {}
        try:
            use = _sampler_use(where, node, node_site)
            seed = next((k.value for k in node.keywords if k.arg == "seed"), node.args[_SEED_AT] if len(node.args) > _SEED_AT else None)
            constant = use.seed_constant
            if not constant and seed is not None and env is not None:
                single = where.resolver.resolve(seed, node_site).single  # seed=seed, given a literal
                constant = single is not None and type(single.value) is int and where.resolver.resolve(seed, node_site).options is not None
        finally:
            where.resolver.param_env = saved
        # Cited at this call (the sampler this loader gets), with the factory's construction.
        shuffle = use.shuffle if env is not None else Value.unknown("parameter")
        text = f"{analysis.text.segment(call)} (returning {use.text})"
        use = SamplerUse(call.lineno, text, shuffle, use.seed, constant and env is not None)
        found.append((node, node_site, (), use))
    return found


def _returned_calls(function: ast.AST) -> List[ast.Call]:
    """The calls ``function`` returns as its whole value (``return f(...)``)."""
    return [value for value in returned_values(function) if isinstance(value, ast.Call)]


def returned_values(function: ast.AST) -> List[ast.expr]:
    """What the ``return`` statements of ``function`` give, each as a whole (``return a, b`` is
    one tuple), nested functions and classes left out (``namespaces.returns_of``)."""
    from dl_lint.analysis.namespaces import returns_of

    return [node.value for node in returns_of(function) if node.value is not None]


def _branches(analysis, value: ast.AST, conds: Tuple[Tuple[str, bool], ...] = ()) -> List[Tuple[ast.AST, Tuple[Tuple[str, bool], ...]]]:
    """``a if c else b`` is a (when c) or b (when not c); anything else is itself."""
    if isinstance(value, ast.IfExp):
        test = "".join(analysis.text.segment(value.test).split())
        return _branches(analysis, value.body, conds + ((test, True),)) + _branches(analysis, value.orelse, conds + ((test, False),))
    return [(value, conds)]


def _is_distributed_sampler(analysis, node: ast.Call, site) -> bool:
    single = analysis.resolver.resolve(node.func, site).single
    return single is not None and getattr(single.value, "qualname", None) in DISTRIBUTED_SAMPLERS


def _sampler_use(analysis, node: ast.Call, site) -> SamplerUse:
    """A DistributedSampler construction: its shuffle (True when not given) and seed."""
    text = analysis.text.segment(node)
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return SamplerUse(node.lineno, text, Value.unknown("splat"), None)
    keywords = {k.arg: k.value for k in node.keywords}
    shuffle_node = keywords.get("shuffle", node.args[_SHUFFLE_AT] if len(node.args) > _SHUFFLE_AT else None)
    seed_node = keywords.get("seed", node.args[_SEED_AT] if len(node.args) > _SEED_AT else None)
    if shuffle_node is None:
        shuffle = Value.known(True, Origin("not given; DistributedSampler's default"))
    else:
        shuffle = analysis.resolver.resolve(shuffle_node, site)
    seed = None if seed_node is None else analysis.text.segment(seed_node)
    constant = isinstance(seed_node, ast.Constant) and type(seed_node.value) is int
    return SamplerUse(node.lineno, text, shuffle, seed, seed_node is None or constant)


# -- the uses of the loader and the sampler -----------------------------------------------------------


class _Uses:
    def __init__(self) -> None:
        self.iterations: List[EpochLoop] = []
        self.set_epoch: Optional[int] = None
        self.set_epochs: List[Tuple[int, Tuple[Tuple[str, bool], ...]]] = []  # (row, conditions)
        self.escape: Optional[str] = None
        self.consumed = False  # the generator over the loader is taken from repeatedly
        self.bar = False  # the name may hold a progress bar over the loader (``_rebound_to_bar``)
        self.returners: Set[int] = set()  # functions whose ``return loader`` is followed to their callers
        self.followed: Set[Tuple[int, tuple]] = set()  # ... (function, ``_returned_path``) already followed
        self.returned = ""  # the function whose ``return`` took the loader to a caller
        self.kept = ""  # ``Class.attribute`` the loader is kept in (``_follow_attribute``)
        self.aliases: Set[Tuple[int, str]] = set()  # (owner, name) aliases already collected (``_alias``)
        self.origin: Optional[int] = None  # the function that builds the loader (its own module's callers only)
        # A caller judged alone, per function that returns the loader (``_returned_to_callers``),
        # and the reads of the returned sampler per caller, settled once every read is in
        # (``_settle``): another call's sampler is another object.
        self.alone: Dict[int, int] = {}
        self.sampler_reads: List[Tuple[int, int, "_Uses", str]] = []

    def add_set_epoch(self, row: int, conds: Tuple[Tuple[str, bool], ...]) -> None:
        self.set_epoch = self.set_epoch or row
        self.set_epochs.append((row, conds))


def _collect(
    analysis, owner: ast.AST, names: Dict[str, str], skip: Set[int], depth: int, found: _Uses, rebound: Optional[Tuple[str, int, ast.Call]] = None
) -> None:
    """Classify every read of ``names`` (name -> "loader" or "sampler") in ``owner``. For a
    module, reads inside a function where the name is the function's own (a parameter, a local)
    are not reads of it. ``rebound``: (name, row, call) when the name is rebound, by a statement
    ending on that row, to a generator over the loader (``loader = sample_data(loader)``): the
    loader is followed into the generator, and later reads take from the generator."""
    parents, by_name = analysis.name_reads(owner)
    reads = [node for name in names for node in by_name.get(name, ()) if id(node) not in skip]
    if isinstance(owner, ast.Module):
        reads = [node for node in reads if not _local_in_function(analysis, node, parents)]
    for node in sorted(reads, key=lambda n: (n.lineno, n.col_offset)):
        if rebound is not None and node.id == rebound[0] and node.lineno > rebound[1]:
            _generator_read(analysis, owner, node, parents, found)
        elif rebound is not None and node.id == rebound[0] and parents.get(id(node)) is rebound[2]:
            _handed_to(analysis, owner, rebound[2], node, depth, found)  # into the generator
        elif names[node.id] == "loader":
            _loader_read(analysis, owner, node, parents, depth, found)
        else:
            _sampler_read(analysis, owner, node, parents, depth, found)
    if rebound is not None and not found.consumed:
        found.escape = found.escape or "the generator over the loader is not taken from in a loop"


def _local_in_function(analysis, node: ast.Name, parents) -> bool:
    """Whether a read of a name, in a module, is in a function (or lambda) that binds that name
    itself: its own variable, not the module's."""
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = analysis.index.scopes.get(id(current))
            if scope is not None and node.id in scope.bindings and node.id not in scope.globals:
                return True
        current = parents.get(id(current))
    return False


def _generator_read(analysis, owner: ast.AST, node: ast.Name, parents, found: _Uses) -> None:
    """A read of a name rebound to a generator over the loader: ``next(gen)`` in a loop that
    runs more than once, or ``for batch in gen``, takes from it repeatedly. Nothing done with
    a generator reaches the loader's sampler."""
    parent = parents.get(id(node))
    if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is node:
        found.consumed = True
    elif isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "next" and parent.args[:1] == [node]:
        where = analysis.loops_around(owner, parent)
        if where is not None and any(_may_repeat(analysis, loop) for loop in where[0]):
            found.consumed = True


def _looked_at(node: ast.Name, parent: Optional[ast.AST]) -> bool:
    """``len(x)``, ``print(x)``, ``isinstance(x, ...)``: a builtin that only looks at ``x``."""
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in _LOOKS
        and node in parent.args
        and not parent.keywords
    )


def _tested(node: ast.Name, parent: Optional[ast.AST]) -> bool:
    """``x is None``, ``x is not None``, ``if x:``, ``not x``: reads that keep ``x`` here
    (``shuffle=(sampler is None)``)."""
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.Is, ast.IsNot)):
        other = parent.comparators[0] if parent.left is node else parent.left
        return isinstance(other, ast.Constant) and other.value is None
    if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and parent.test is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def _sampler_read(analysis, owner: ast.AST, node: ast.Name, parents, depth: int, found: _Uses) -> None:
    parent = parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.value is node:
        _attribute_read(analysis, node, parents, found, sampler=True)
    elif _looked_at(node, parent) or _tested(node, parent):
        pass
    elif isinstance(parent, (ast.Return, ast.Tuple)) and _returned_to_callers(analysis, owner, node, parents, depth, found, "sampler"):
        pass  # ``return loader, len(dataset), sampler``: the callers' name for it is the sampler
    else:
        found.escape = found.escape or f"the sampler is used on line {node.lineno}"


def _attribute_read(analysis, node: ast.Name, parents, found: _Uses, sampler: bool) -> None:
    """``x.set_epoch(...)``, ``loader.sampler.set_epoch(...)``, or a read such as
    ``loader.dataset``; ``loader.sampler`` used any other way takes the sampler elsewhere."""
    top = parents[id(node)]
    chain = [top.attr]
    while isinstance(parents.get(id(top)), ast.Attribute):
        top = parents[id(top)]
        chain.append(top.attr)
    holder = parents.get(id(top))
    if "set_epoch" in chain and isinstance(holder, ast.Call) and holder.func is top and chain[-1] == "set_epoch":
        found.add_set_epoch(node.lineno, _conds(analysis, analysis.site_of(holder)))
    elif not sampler and chain[0] not in _READS and not (found.bar and chain[0] in _PROGRESS_READS and len(chain) == 1):
        found.escape = found.escape or f"loader.{chain[0]} is used on line {node.lineno}"


def _loader_read(analysis, owner: ast.AST, node: ast.Name, parents, depth: int, found: _Uses) -> None:
    current: ast.AST = node
    while True:  # enumerate(loader), tqdm(loader): the iteration is the ``for`` around them
        parent = parents.get(id(current))
        if isinstance(parent, ast.Call) and current in parent.args and terminal(parent.func) in _WRAPPERS:
            current = parent
            continue
        if isinstance(parent, ast.Call) and _generator_over(analysis, parent, current):
            current = parent  # metric_logger.log_every(loader, ...): a generator over it
            continue
        if isinstance(parent, ast.IfExp) and current is not parent.test:
            current = parent  # ``(dl if use_wds else distr_dl)``: the loader on the runs it is chosen
            continue
        break
    parent = parents.get(id(current))
    if isinstance(parent, ast.Assign) and parent.value is current and _alias(analysis, owner, node, parent, depth, found):
        pass  # ``t_loader = tqdm(train_loader)`` on one arm, ``t_loader = train_loader`` on the other
    elif isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is current:
        if not _without_grad(parent, parents):
            _iteration(analysis, owner, parent, parent.lineno, "", found)
    elif isinstance(parent, ast.comprehension) and parent.iter is current and isinstance(parents.get(id(parent)), _COMPS):
        comprehension = parents[id(parent)]  # [f(b) for b in loader]: one pass per evaluation
        if not _without_grad(comprehension, parents):
            _iteration(analysis, owner, comprehension, comprehension.lineno, "", found)
    elif current is not node:
        found.escape = found.escape or f"the loader is wrapped on line {node.lineno}"
    elif isinstance(parent, ast.Attribute) and parent.value is node:
        _attribute_read(analysis, node, parents, found, sampler=False)
    elif _looked_at(node, parent) or _tested(node, parent):
        pass
    elif isinstance(parent, (ast.Return, ast.Tuple)) and _returned_to_callers(analysis, owner, node, parents, depth, found):
        pass
    elif _kept_iterator(analysis, node, parent, parents):
        # ``data_iter = iter(loader)``: a pass over the loader starts there (torch 2.13: the
        # DataLoader's iterator asks the sampler for its order when it is made), so one made
        # again inside a loop (``except StopIteration: data_iter = iter(loader)`` in a step
        # loop) starts a pass on every round that reaches it: that loop is the epoch loop
        if not _without_grad(parent, parents):
            _iteration(analysis, owner, parent, parent.lineno, "", found)
    elif isinstance(parent, ast.Call) and parent.func is not node:
        _handed_to(analysis, owner, parent, node, depth, found)
    elif isinstance(parent, ast.keyword) and parent.arg is not None and isinstance(parents.get(id(parent)), ast.Call):
        _handed_to(analysis, owner, parents[id(parent)], node, depth, found)  # f(training_data=loader)
    else:
        found.escape = found.escape or f"the loader is used on line {node.lineno}"


def _kept_iterator(analysis, node: ast.AST, parent: Optional[ast.AST], parents) -> bool:
    """``data_iter = iter(loader)``: the builtin ``iter`` of the loader alone (the module binds
    no ``iter`` of its own), its iterator bound to a name (then taken from with ``next``).
    ``next(iter(loader))``, one batch taken from a fresh iterator, is not an epoch."""
    if "iter" in analysis.index.module_scope.bindings or not (
        isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "iter"
        and len(parent.args) == 1 and parent.args[0] is node and not parent.keywords
    ):
        return False
    statement = parents.get(id(parent))
    return isinstance(statement, ast.Assign) and statement.value is parent and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)


def _alias(analysis, owner: ast.AST, node: ast.AST, statement: ast.Assign, depth: int, found: _Uses) -> bool:
    """A statement binding a new name to the loader, or to a progress bar or ``enumerate`` over
    it (``t_loader = tqdm(train_loader, desc=...)`` on the rank-0 arm, ``t_loader =
    train_loader`` on the other, then ``for batch in t_loader``): when every binding of that
    name in ``owner`` is such a statement over the same loader (the loader's name, or the same
    ``self.attribute``), at most four of them, the name's reads are the loader's. False for
    anything else (the caller then says the loader is wrapped or used)."""
    if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
        return False
    name = statement.targets[0].id
    if isinstance(node, ast.Name) and node.id == name:
        return False  # ``loader = tqdm(loader)``: a rebinding of the loader's own name
    scope = analysis.index.module_scope if isinstance(owner, ast.Module) else analysis.index.scopes.get(id(owner))
    bindings = scope.bindings.get(name, ()) if scope is not None else ()
    if not bindings or len(bindings) > 4 or name in scope.globals or name in scope.nonlocals:
        return False
    shape = ast.dump(node)
    bar = False
    for binding in bindings:
        value = binding.value if binding.kind == "assign" else None
        while isinstance(value, ast.Call) and terminal(value.func) in _WRAPPERS | _PROGRESS_BARS and value.args:
            bar = bar or terminal(value.func) in _PROGRESS_BARS
            value = value.args[0]
        if value is None or ast.dump(value) != shape:
            return False
    if (id(owner), name) not in found.aliases:
        found.aliases.add((id(owner), name))
        found.bar = found.bar or bar
        _collect(analysis, owner, {name: "loader"}, set(), depth, found)
    return True


def _iteration(analysis, owner: ast.AST, statement: ast.AST, row: int, through: str, found: _Uses) -> None:
    """An iteration of the loader at ``statement`` of ``owner``: the innermost loop around it
    that runs more than once is its epoch loop."""
    where = analysis.loops_around(owner, statement)
    if where is None:
        found.escape = found.escape or f"the loader is iterated where the loops around it are not known (line {row})"
        return
    loops = [loop for loop in where[0] if _may_repeat(analysis, loop)]
    conds = _conds(analysis, analysis.site_of(statement))
    found.iterations.append(EpochLoop(loops[-1].lineno if loops else None, row, through, "", conds))


def _may_repeat(analysis, loop: ast.AST) -> bool:
    site = analysis.site_of(loop)
    count = loop_count(loop, lambda node: analysis.resolver.resolve(node, site) if site else Value.unknown())
    return count is None or count > 1


def _handed_to(analysis, owner: ast.AST, call: ast.Call, node: ast.Name, depth: int, found: _Uses) -> None:
    """The loader passed to a callee: a function of this module is followed to the parameter it
    lands in; a library callee of the set_epoch table, or any other, takes it out of sight."""
    from dl_lint.analysis.libraries import set_epoch_caller

    callee = call.func
    function = analysis.function_node(callee.id) if isinstance(callee, ast.Name) else None
    where, skip = analysis, 0
    if function is None and isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
        cls = _class_of(analysis, owner)  # ``self._run_epoch(epoch, self.train_loader)``: a method of the class
        if cls is not None and callee.value.id == _self_name(owner) and _class_closed(analysis, cls) is None:
            function = analysis.ix.methods.get((id(cls), callee.attr))
            skip = 1 if function is not None and _self_name(function) is not None else 0  # a staticmethod gets no object
    if function is None and depth < FOLLOW_DEPTH:
        where, function = _function_elsewhere(analysis, call)
    if function is None and depth < FOLLOW_DEPTH:
        kept = _constructed_class(analysis, call, node)  # ``Trainer(model, train_loader)``
        if isinstance(kept, tuple):
            why = _instance_kept(analysis, owner, call, kept[2])
            if why is not None:
                found.escape = found.escape or why
                return
            _follow_attribute(analysis, *kept, depth + 1, found)
            return
        if kept is not None:
            found.escape = found.escape or kept
            return
    parameter = _parameter(function, call, node, skip) if function is not None else None
    if parameter is not None and _evaluates(function):
        return  # an evaluation (``@torch.no_grad()``): its result does not depend on the order
    if depth < FOLLOW_DEPTH and _passed_back(analysis, owner, call, node, where, function, parameter, depth, found):
        return
    rebound = None
    bar: Optional[ast.Name] = None
    if parameter is not None and depth < FOLLOW_DEPTH and not _bound_once_in(where, function, parameter):
        rebound = _rebound_to_generator(where, function, parameter, depth)
        bar = _rebound_to_bar(where, function, parameter) if rebound is None else None
    if parameter is not None and depth < FOLLOW_DEPTH and (
        rebound is not None or bar is not None or _bound_once_in(where, function, parameter)
    ):
        inner = _Uses()
        inner.bar = bar is not None
        _collect(where, function, {parameter: "loader"}, {id(bar)} if bar is not None else set(), depth + 1, inner, rebound)
        if inner.set_epoch:  # its own conditions are the function's: not compared
            found.add_set_epoch(call.lineno, _conds(analysis, analysis.site_of(call)))
        found.escape = found.escape or inner.escape
        elsewhere = "" if where is analysis else where.path
        for loop in inner.iterations:
            if loop.epoch_row is not None:
                label = loop.through or function.name
                found.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, label, loop.path or elsewhere))
            else:  # iterated once per call: the loops around the call decide
                _iteration(analysis, owner, call, call.lineno, function.name, found)
        return
    why = None
    site = analysis.site_of(call)
    if site is not None and isinstance(callee, ast.Attribute):
        base = analysis.resolver.resolve(callee.value, site).single
        why = set_epoch_caller(getattr(base.value, "qualname", None), callee.attr) if base is not None else None
    elif site is not None:
        target = analysis.resolver.resolve(callee, site).single
        qualname = getattr(target.value, "qualname", None) if target is not None else None
        why = set_epoch_caller(None, qualname) if qualname else None
    found.escape = found.escape or why or f"the loader is passed to {analysis.text.segment(callee)}() on line {call.lineno}"


def _passed_back(analysis, owner: ast.AST, call: ast.Call, node: ast.Name, where, function, parameter, depth: int, found: _Uses) -> bool:
    """The loader handed to a project function or method that gives it back unchanged on every
    ``return`` (``namespaces.returned_argument``: ``return loader``, or ``return model,
    optimizer, training_data, scheduler`` of ``backend.distribute(..., training_data=loader)``),
    where the result lands in a name (or the element of a tuple target at that position) bound
    once: that name is the loader. Its reads are followed here, and what the callee does with
    the loader besides returning it (``set_epoch``, an iteration, a use that takes it away) is
    read as for any function the loader is handed to. False when it is no such call."""
    from dl_lint.analysis.namespaces import returned_argument

    if function is None:
        where, function, parameter = _method_of_instance(analysis, call, node)
    if function is None or parameter is None:
        return False
    statement = analysis_parent_assign(analysis, owner, call)
    if statement is None:
        return False
    passed = returned_argument(function, parameter)
    if passed is None:
        return False
    position, length, returned = passed
    alias = _bound_at(statement.targets[0], position, length)
    if alias is None:
        return False
    site = analysis.site_of(call)
    if site is None or not _bound_once(analysis, site, alias):
        found.escape = found.escape or f"the loader {analysis.text.segment(call.func)}() gives back is bound more than once"
        return True
    inner = _Uses()
    _collect(where, function, {parameter: "loader"}, {id(n) for n in returned}, depth + 1, inner)
    if inner.set_epoch:
        found.add_set_epoch(call.lineno, _conds(analysis, analysis.site_of(call)))
    found.escape = found.escape or inner.escape
    if inner.iterations:
        found.escape = found.escape or f"{analysis.text.segment(call.func)}() iterates the loader it gives back"
    _collect(analysis, owner, {alias: "loader"}, set(), depth + 1, found)
    return True


def _returned_to_callers(analysis, owner: ast.AST, node: ast.Name, parents, depth: int, found: _Uses, role: str = "loader") -> bool:
    """``return loader`` or ``return loader, valset, collate_fn`` in the function that builds
    the loader (or a caller it was followed to): when every ``return`` of that function gives
    the loader at the same place (whole, or one position of tuple displays of one length,
    nested ones too: ``return (loader, sampler), val_loader``), each call of the function in
    this module (``ModuleAnalysis._callers``) whose result lands in a name bound once (or in
    alternative arms), at once or in a second statement that takes the bound tuple apart
    (``_bound_along``: ``loaders = make()`` then ``train_loader, val_loader = loaders``), binds
    the loader there, and that name's reads in the caller are collected like the loader's own. Any other use of a call's result, a caller calling it in a loop (a new
    loader and sampler per pass), a caller naming it for evaluation, or no caller in the
    module makes the answer unknown. ``role``: "sampler" for the loader's sampler returned
    beside it (``return loader, len(dataset), sampler``), followed the same way. False when
    this is no such return."""
    if id(owner) not in found.returners or depth >= FOLLOW_DEPTH:
        return False
    path = _returned_path(node, parents)
    if path is None:
        return False
    if (id(owner), path) in found.followed:
        return True  # another ``return`` of the same shape: its callers are already read
    if len(found.followed) >= RETURN_HOPS:
        found.escape = found.escape or f"the loader {owner.name}() returns is returned on further than is followed"
        return True
    found.followed.add((id(owner), path))
    followed = node.id if isinstance(node, ast.Name) else node  # a name, or the loader's own call
    why, bindings = returned_bindings(analysis, owner, followed, path, role, elsewhere=id(owner) != found.origin)
    if why is not None and why.endswith("returns goes to callers not read") and path == () and role == "loader":
        if _returned_to_attribute(analysis, owner, depth, found):
            return True  # ``self.train_loader = self._prepare_dataloader(ds)`` in its class
    if why is not None:
        found.escape = found.escape or why
        return True
    # Each call builds a loader (and sampler) of its own: a caller that takes only the loader
    # (``data_loader, _ = init_data(...)``), iterates it per epoch and never calls set_epoch
    # repeats its order whatever the other callers do with theirs.
    reads: List[Tuple[Any, Any, Any, _Uses]] = []
    for where, caller, call, call_site, statement, alias, skip in bindings:
        why = None
        if role == "loader" and _EVALUATION.match(alias):
            why = f"a caller names the loader {owner.name}() returns for evaluation ({alias})"
        else:
            loops = where.loops_around(caller, statement)
            if loops is None or any(_may_repeat(where, loop) for loop in loops[0]):
                why = f"{owner.name}() is called in a loop on line {call.lineno}: a new loader per pass"
        inner = _Uses()
        inner.returners, inner.followed, inner.origin = found.returners, found.followed, found.origin
        inner.alone, inner.sampler_reads = found.alone, found.sampler_reads
        inner.returned = found.returned or owner.name
        if why is not None:
            inner.escape = why
        else:
            if call_site.scope is not None:
                found.returners.add(id(call_site.scope))
            # the same loader, one call up: a return costs no handed-to depth (RETURN_HOPS bounds them)
            _collect(where, caller, {alias: role}, skip, depth, inner)
        reads.append((where, statement, alias, inner))
    alone = next(
        (
            entry
            for entry in reads
            if role == "loader"
            and entry[3].escape is None
            and not entry[3].set_epochs
            and any(loop.epoch_row is not None for loop in entry[3].iterations)
            and _takes_only(entry[0], entry[1], path)
        ),
        None,
    )
    if role == "sampler":
        for where, statement, alias, inner in reads:
            found.sampler_reads.append((id(owner), id(statement), inner, "" if where is analysis else where.path))
        found.returned = found.returned or owner.name
        return True
    if alone is not None:
        found.alone[id(owner)] = id(alone[1])
    for where, statement, alias, inner in [alone] if alone is not None else reads:
        found.returned = found.returned or inner.returned
        for row, conds in inner.set_epochs:
            found.add_set_epoch(row, conds)
        found.escape = found.escape or inner.escape
        for loop in inner.iterations:  # in the caller's module
            loop_path = loop.path or ("" if where is analysis else where.path)
            found.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, loop.through, loop_path, loop.conds))
    return True


def _settle(found: _Uses) -> None:
    """Merge the reads of the returned sampler in each caller (``_returned_to_callers``),
    except those of callers other than the one a function's loader is judged alone at."""
    for owner, statement, inner, path in found.sampler_reads:
        chosen = found.alone.get(owner)
        if chosen is not None and chosen != statement:
            continue  # another call's sampler: not the one the loader judged alone holds
        for row, conds in inner.set_epochs:
            found.add_set_epoch(row, conds)
        found.escape = found.escape or inner.escape
        for loop in inner.iterations:
            found.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, loop.through, loop.path or path, loop.conds))
    found.sampler_reads = []


def _takes_only(where, statement: ast.Assign, path) -> bool:
    """Whether the call's other returned elements are never read where it lands (``_``, or
    names the caller does not read): the caller cannot hold the loader's sampler but through
    the loader (``loader.sampler``, which the reads of the loader follow). Only a whole
    result bound to a name or one level of tuple target is judged (``path``, ``_returned_path``,
    of length 0 or 1); nested or two-step targets are not."""
    target = statement.targets[0]
    if not path:
        return isinstance(target, ast.Name)
    if len(path) != 1 or not isinstance(target, (ast.Tuple, ast.List)):
        return False
    position, length = path[0]
    if len(target.elts) != length:
        return False
    for index, element in enumerate(target.elts):
        if index == position:
            continue
        if not isinstance(element, ast.Name):
            return False
        if element.id == "_":
            continue
        site = where.site_of(statement.value)
        holder = where.tree if site is None or site.scope is None else site.scope
        if where.name_reads(holder)[1].get(element.id):
            return False
    return True


def _gives(value: ast.AST, name) -> bool:
    """Whether the returned ``value`` is what is followed: the name ``name`` (a str), or the
    node ``name`` itself (``return DataLoader(...)``: the loader's own call)."""
    if isinstance(name, str):
        return isinstance(value, ast.Name) and value.id == name
    return value is name


def _path_to(value: ast.AST, name, depth: int = 0) -> Optional[list]:
    """The paths (``_returned_path``) at which the tuple display ``value`` (nested ones too)
    gives ``name`` (``_gives``); a starred element makes them unknown (None)."""
    if _gives(value, name):
        return [()]
    if isinstance(value, ast.Name):
        return []
    if not isinstance(value, ast.Tuple) or depth >= FOLLOW_DEPTH:
        return []
    if any(isinstance(e, ast.Starred) for e in value.elts):
        return None
    out = []
    for index, element in enumerate(value.elts):
        inner = _path_to(element, name, depth + 1)
        if inner is None:
            return None
        out.extend(((index, len(value.elts)),) + rest for rest in inner)
    return out


def returned_place(analysis, owner: ast.AST, name) -> Optional[Tuple[Tuple[int, int], ...]]:
    """The path (``_returned_path``) when every ``return`` of ``owner`` gives ``name`` (a name,
    or a loader's own call node: ``_gives``) at the same place: () for the whole value, else
    (position, length) per tuple display (``return train_loader, valset, collate_fn`` gives
    ((0, 3),)); None otherwise."""
    place = None
    for value in analysis._whole_returned(owner):
        paths = _path_to(value, name)
        if not paths or len(paths) != 1:
            return None
        if place is not None and paths[0] != place:
            return None
        place = paths[0]
    return place


def returned_bindings(analysis, owner: ast.AST, name, path, role: str = "loader", elsewhere: bool = False, inner=(), depth: int = 0):
    """Where the ``name`` that ``owner`` returns (at ``path``, ``_returned_path``: whole, or
    nested tuple displays; ``name`` may also be the loader's own call, ``return
    DataLoader(...)``, ``_gives``) lands in its callers: (None, [(module analysis, caller scope, call,
    call's site, statement, name, reads to skip)]) for each call of ``owner`` in this module
    (``ModuleAnalysis._callers``), the call of another module being judged
    (``analysis.returned_to``, set by ``judge.judge_call_sites``), and, when ``elsewhere`` (a
    function the loader was returned on to, not the one that builds it), the calls in the
    modules that import it (``project_callers``), whose result lands in a name bound once
    there or in alternative arms (``_bound_along``: at once or in a second statement that takes
    the bound tuple apart), skipping callers that never read it; or (why, []) when some
    ``return`` gives something else, no caller is read, or a call's result lands elsewhere.
    A caller that returns the call itself (a relay: ``def setup(cfg): return
    construct_loader(...)``, or as an element of the tuple it returns, on every path) is
    followed to its own callers, the loader then at that place of the relay's result and at
    ``inner`` (the path inside what the call gives) below it, ``FOLLOW_DEPTH`` relays deep.
    One mechanism for "where does a returned loader go", read by DL206
    (``_returned_to_callers``) and DL306 (``ModuleAnalysis._returned_copy``)."""
    for value in analysis._whole_returned(owner):
        for position, length in path:
            value = value.elts[position] if isinstance(value, ast.Tuple) and len(value.elts) == length else None
        if value is None or not _gives(value, name):
            return f"{owner.name}() does not return the {role} on every path", []
    function = analysis._runner(owner)
    callers = [(analysis, call, site) for call, site in analysis._callers(function)] if function is not None else []
    external = analysis.returned_to
    if external is not None and external[3] is owner:
        callers.append(external[:3])  # the call of another module being judged (``judge_call_sites``)
    if not callers and elsewhere and function is not None and id(owner) not in analysis.ix.method_class:
        callers = project_callers(analysis, owner)
        if callers is None:
            return f"the {role} {owner.name}() returns goes to callers not read", []
    if not callers:
        return f"the {role} {owner.name}() returns goes to callers not read", []
    out = []
    for where, call, call_site in callers:
        caller = where.tree if call_site.scope is None else call_site.scope
        statement = analysis_parent_assign(where, caller, call)
        if statement is None and caller is not where.tree and depth < FOLLOW_DEPTH and isinstance(caller, ast.FunctionDef):
            place = returned_place(where, caller, call)
            if place is not None:  # a relay returns the call: where its callers bind it
                relay_of = where.returned_to[3] if where.returned_to is not None else None
                if relay_of is not None and relay_of is not caller:
                    continue  # another relay than the one the call being judged runs: not its loader
                why, deeper = returned_bindings(where, caller, call, place, role, elsewhere and relay_of is None, (*path, *inner), depth + 1)
                if why is not None:
                    return why, []
                out.extend(deeper)
                continue
        landing: list = []
        alias, skip = _bound_along(where, caller, call_site, statement.targets[0], (*path, *inner), 0, landing) if statement is not None else (None, None)
        if alias == "":
            continue  # never read there (``_, _, train_loader = make(...)``): nothing it does
        if alias is None or skip is None:
            return f"the {role} {owner.name}() returns is not bound to one name on line {call.lineno}", []
        if landing:  # handed on whole and taken apart in a function (``train(model, loaders)``)
            where, caller, call_site, statement = landing[0]
        out.append((where, caller, call, call_site, statement, alias, skip))
    return None, out


def project_callers(analysis, owner: ast.AST):
    """The calls of the module-level function ``owner`` in the other modules of the project
    (``Project.callers_of``: files whose bytes name it, each call resolved to this function):
    [(module analysis, call, site)], or None when they cannot be listed (a module analysed
    alone, more callers than are read)."""
    finder = getattr(analysis.resolver.project, "callers_of", None)
    if finder is None:
        return None
    return finder(analysis.path, owner.name)



# statements ``_bound_along`` follows from a bound tuple to the name its element lands in
# (``loaders = make()``; ``train_loader, val_loader = loaders`` is one): a chain of plain
# aliases was followed one frame each, a RecursionError (the whole file DL000) at ~1000
_ALIAS_DEPTH = 8


def _returned_path(node: ast.Name, parents) -> Optional[Tuple[Tuple[int, int], ...]]:
    """Where a ``return`` statement gives ``node``: () for the whole value (``return loader``),
    else (position, length) per tuple display from the outside in (``return loader, ds`` is
    ((0, 2),); ``return (loader, sampler), val`` gives the sampler at ((0, 2), (1, 2))). None
    when ``node`` is not returned that way (a starred element, a list, a call around it)."""
    path: List[Tuple[int, int]] = []
    current: ast.AST = node
    parent = parents.get(id(current))
    while isinstance(parent, ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in parent.elts):
            return None
        path.append((next(i for i, e in enumerate(parent.elts) if e is current), len(parent.elts)))
        current, parent = parent, parents.get(id(parent))
    if not isinstance(parent, ast.Return):
        return None
    return tuple(reversed(path))


def _bound_along(
    where, caller: ast.AST, site, target: ast.AST, path, depth: int = 0, landing: Optional[list] = None
) -> Tuple[Optional[str], Optional[Set[int]]]:
    """The name of ``caller`` that ends up holding the element at ``path`` (``_returned_path``)
    of a call's result assigned to ``target``, and the reads of it on no path that holds that
    binding (``_other_arms``). The target may take it apart at once (``train_loader, valset, _
    = make()``, nested targets: ``(loader, sampler), val = make()``) or bind the whole to a name
    that a later statement takes apart (``loaders = make()`` then ``train_loader, val_loader =
    loaders`` or ``train_loader = loaders[0]``); the name the element lands in must be bound
    once (or in alternative arms). The bound tuple may also be handed whole to a function of the
    project (``train(model, loaders)``) whose parameter, never rebound, is taken apart there the
    same way (``train_loader, val_loader = loaders`` in ``train``): the element lands in that
    function, and ``landing`` (a list) receives (module analysis, function, site, statement
    that binds the name) of where it is. ("", None) when the element is never read; (None, None) when it cannot be
    followed: another target, a name bound more than once, the whole tuple used some other way
    (iterated, a computed index, handed to anything else or to two functions)."""
    steps = list(path)
    while steps and isinstance(target, (ast.Tuple, ast.List)):
        position, length = steps.pop(0)
        starred = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
        if starred:
            # ``loader, *rest = make()``: the elements before the starred one are positional
            if len(starred) != 1 or position >= starred[0] or len(target.elts) - 1 > length:
                return None, None
        elif len(target.elts) != length:
            return None, None
        target = target.elts[position]
    if not isinstance(target, ast.Name):
        return None, None
    parents, by_name = where.name_reads(caller)
    if steps:
        # ``loaders = make()``: the element is wherever a later statement takes it from
        if depth >= _ALIAS_DEPTH:
            return None, None  # ``a1 = loaders; a2 = a1; ...``: a chain of names, not followed
        if where.rival_arms(target.id, site, target) != []:
            return None, None
        found: Optional[Tuple[ast.Assign, ast.AST]] = None
        handed: Optional[Tuple[ast.Call, ast.Name, tuple]] = None
        for read in by_name.get(target.id, ()):
            holder, parent, rest = read, parents.get(id(read)), list(steps)
            while rest and isinstance(parent, ast.Subscript) and parent.value is holder:
                index = literal(parent.slice)
                if type(index) is not int:
                    return None, None  # loaders[i]: which element is not known
                if index != rest[0][0] and index != rest[0][0] - rest[0][1]:
                    break  # another element (``val_loader = loaders[1]``)
                rest.pop(0)
                holder, parent = parent, parents.get(id(parent))
            else:
                if _looked_at(holder, parent):
                    continue  # ``len(loaders)``
                if holder is read and isinstance(parent, ast.Call) and landing is not None and handed is None:
                    handed = (parent, read, tuple(rest))  # ``train(model, loaders)``: followed below
                    continue
                if not (isinstance(parent, ast.Assign) and parent.value is holder and len(parent.targets) == 1):
                    return None, None  # handed on, iterated, returned: out of sight
                if found is not None:
                    return None, None  # taken apart twice
                found = (parent, tuple(rest))
                continue
        if handed is not None:
            if found is not None:
                return None, None  # taken apart here and handed on too
            return _handed_tuple(where, *handed, depth, landing)
        if found is None:
            return "", None
        statement, rest = found
        return _bound_along(where, caller, site, statement.targets[0], rest, depth + 1, landing)
    if not by_name.get(target.id):
        return "", None
    return target.id, _other_arms(where, site, target.id, target)


def _handed_tuple(where, call: ast.Call, node: ast.Name, path, depth: int, landing: list) -> Tuple[Optional[str], Optional[Set[int]]]:
    """``_bound_along`` for a bound tuple handed whole to ``call``: a function of this module or
    of another of the project, the parameter it lands in bound once there (never reassigned),
    followed there as the bound name was here. (None, None) for anything else: a method, a
    class, a library function, splats, a parameter rebound."""
    callee = call.func
    function = where.function_node(callee.id) if isinstance(callee, ast.Name) else None
    there = where
    if function is None:
        there, function = _function_elsewhere(where, call)
    if function is None or isinstance(function, ast.AsyncFunctionDef) or depth >= _ALIAS_DEPTH:
        return None, None
    parameter = _parameter(function, call, node)
    if parameter is None or not _bound_once_in(there, function, parameter):
        return None, None
    from dl_lint.analysis.namespaces import statements_of
    from dl_lint.analysis.scopes import Site

    site = Site(function.lineno, (), function)
    inner: list = []
    alias, skip = _bound_along(there, function, site, ast.Name(id=parameter, ctx=ast.Load()), path, depth + 1, inner)
    if alias and not inner:
        binding = next(
            (
                statement
                for statement in statements_of(function)
                if isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and any(isinstance(n, ast.Name) and n.id == alias for n in ast.walk(statement.targets[0]))
            ),
            None,
        )
        if binding is None:
            return None, None
        inner.append((there, function, Site(binding.lineno, (), function), binding))
    if alias:
        landing.append(inner[0])
    return alias, skip


def analysis_parent_assign(analysis, owner: ast.AST, call: ast.Call) -> Optional[ast.Assign]:
    """The assignment statement whose whole value is ``call`` (one target), if any."""
    parents, _ = analysis.name_reads(owner)
    statement = parents.get(id(call))
    if isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1:
        return statement
    return None


def _method_of_instance(analysis, call: ast.Call, node: ast.Name):
    """(module analysis, method, parameter) for ``obj.method(..., loader, ...)`` where ``obj`` is
    an instance of a module-level class of the project (``backend = Backend(...)``) that defines
    ``method`` itself, in this module or another (read through the project index); the
    parameter the loader lands in, the object's own skipped. (analysis, None, None) otherwise."""
    from dl_lint.analysis.values import Instance

    func = call.func
    site = analysis.site_of(call)
    if not isinstance(func, ast.Attribute) or site is None:
        return analysis, None, None
    base = analysis.resolver.resolve(func.value, site).single
    instance = base.value if base is not None else None
    if not isinstance(instance, Instance) or instance.local:
        return analysis, None, None
    where = analysis.module_at(instance.path, instance.module)
    if where is None:
        return analysis, None, None
    bindings = where.index.module_scope.bindings.get(instance.name, ())
    if len(bindings) != 1 or bindings[0].kind != "class":
        return analysis, None, None
    method = where.ix.methods.get((id(bindings[0].node), func.attr))
    if method is None or any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in method.decorator_list):
        return analysis, None, None
    parameter = _parameter(method, call, node, skip=1)
    return where, method, parameter


def _rebound_to_generator(analysis, function: ast.AST, parameter: str, depth: int) -> Optional[Tuple[str, int, ast.Call]]:
    """(parameter, last row, the call) when ``function``'s parameter is rebound once, unconditionally at the
    top of its body, to a call of a generator function of the project that takes it
    (``loader = sample_data(loader)``, ``def sample_data(loader): while True: for batch in
    loader: yield batch``): the generator holds the loader, and the name then holds the
    generator (whose ``while True`` is the epoch loop, found by following the call)."""
    scope = analysis.index.scopes.get(id(function))
    bindings = scope.bindings.get(parameter, ()) if scope is not None else ()
    if len(bindings) != 2 or bindings[0].kind != "param" or bindings[1].kind != "assign":
        return None
    binding = bindings[1]
    value = binding.value
    if binding.site is None or binding.site.conds or not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
        return None
    if not any(isinstance(a, ast.Name) and a.id == parameter for a in value.args):
        return None
    if not any(statement.lineno == binding.site.line for statement in function.body):
        return None
    generator = analysis.function_node(value.func.id)
    if generator is None and depth + 1 < FOLLOW_DEPTH:
        _, generator = _function_elsewhere(analysis, value)
    if generator is None or not is_generator(generator):
        return None
    return parameter, getattr(value, "end_lineno", None) or value.lineno, value


def _rebound_to_bar(analysis, function: ast.AST, parameter: str) -> Optional[ast.Name]:
    """The read of ``parameter`` in its one rebinding to a progress bar over itself, on any path
    (``if dist.is_primary(): loader = tqdm(loader)``: vq-vae-2-pytorch's train()), else None.
    The name then holds the loader or a bar that iterates it; that read is the wrapping, not a
    use of the loader (``_collect`` skips it)."""
    scope = analysis.index.scopes.get(id(function))
    bindings = scope.bindings.get(parameter, ()) if scope is not None else ()
    if len(bindings) != 2 or bindings[0].kind != "param" or bindings[1].kind != "assign":
        return None
    value = bindings[1].value
    if not (isinstance(value, ast.Call) and terminal(value.func) in _PROGRESS_BARS and value.args):
        return None
    first = value.args[0]
    if not (isinstance(first, ast.Name) and first.id == parameter):
        return None
    rest = [n for a in (*value.args[1:], *value.keywords) for n in ast.walk(a)]
    looked = {id(arg) for n in rest if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _LOOKS for arg in n.args}
    if any(isinstance(n, ast.Name) and n.id == parameter and id(n) not in looked for n in rest):
        return None  # the loader handed on in another argument too (``total=len(loader)`` only looks)
    return first


_NO_GRAD = frozenset({"no_grad", "inference_mode"})
# A loader named for evaluation (``eval_dataloader``, ``val_loader``, ``test_loader``,
# ``valid_data_loader``, ``dev_loader``): the order it visits the data in does not change what it
# computes (a sum of gradients for head importance, a metric), like a ``no_grad`` loop.
_EVALUATION = re.compile(r"(?i)^_*(?:eval|evaluation|val|valid|validation|test|dev)(?:_|loader|dataloader|data_?loader|$)")


def _evaluates(function: ast.AST) -> bool:
    """A function decorated ``@torch.no_grad()`` / ``@torch.inference_mode()`` (an evaluation:
    the order it visits the data in does not change what it computes)."""
    for decorator in getattr(function, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if terminal(target) in _NO_GRAD:
            return True
    return False


def _bound_at(target: ast.AST, position: int, length: int) -> Optional[str]:
    """The name an assignment target binds to what a function returns at ``position`` of a
    returned tuple of ``length`` (``WHOLE``: the whole return value): ``loader = make()``,
    ``_, loader, _ = make()``; None for any other target."""
    from dl_lint.analysis.namespaces import WHOLE

    if position == WHOLE:
        return target.id if isinstance(target, ast.Name) else None
    if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == length:
        element = target.elts[position]
        return element.id if isinstance(element, ast.Name) else None
    return None


def _without_grad(node: ast.AST, parents) -> bool:
    """Whether ``node`` runs inside ``with torch.no_grad():``, ``torch.inference_mode()`` or
    ``torch.set_grad_enabled(False)`` (in the function that iterates the loader): an
    evaluation, like a function decorated with them."""
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, (ast.With, ast.AsyncWith)):
            for item in current.items:
                context = item.context_expr
                if not isinstance(context, ast.Call):
                    continue
                name = terminal(context.func)
                if name in _NO_GRAD:
                    return True
                if (
                    name == "set_grad_enabled"
                    and len(context.args) == 1
                    and isinstance(context.args[0], ast.Constant)
                    and context.args[0].value is False
                ):
                    return True
        current = parents.get(id(current))
    return False


def _generator_over(analysis, call: ast.Call, argument: ast.AST) -> bool:
    """Whether ``call`` is a generator of the project over ``argument`` (its positional
    argument): a function or a method of a project object (``metric_logger.log_every(loader,
    10)``, MetricLogger's ``for obj in iterable: ... yield obj``), read in its module's summary
    (``summary.passes_through``). A ``for`` over the call then iterates the loader once."""
    from dl_lint.analysis.values import FunctionRef, Instance

    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    position = next((i for i, a in enumerate(call.args) if a is argument), None)
    site = analysis.site_of(call)
    if position is None or site is None:
        return False
    project = analysis.resolver.project
    func = call.func
    if isinstance(func, ast.Attribute):
        base = analysis.resolver.resolve(func.value, site).single
        instance = base.value if base is not None else None
        if not isinstance(instance, Instance) or instance.local:
            return False
        lookup = getattr(project, "class_facts", None)
        facts = lookup(instance.module, instance.name, instance.path) if lookup is not None else None
        return facts is not None and position in facts.passes.get(func.attr, ())
    if not isinstance(func, ast.Name):
        return False
    single = analysis.resolver.resolve(func, site).single
    ref = single.value if single is not None else None
    if not isinstance(ref, FunctionRef) or ref.kind != "function":
        return False
    lookup = getattr(project, "function_facts", None)
    facts = lookup(ref.module, ref.name, ref.path) if lookup is not None else None
    return facts is not None and position in facts.passes


def _function_elsewhere(analysis, call: ast.Call):
    """(the module's analysis, the function) a call leads to in another module of the project
    (``engine.train_one_epoch(model, loader)``, ``from engine import train_one_epoch``), read
    through the project index; (analysis, None) for anything else."""
    from dl_lint.analysis.values import FunctionRef

    site = analysis.site_of(call)
    if site is None or not analysis._may_be_function(call.func, site):
        return analysis, None
    single = analysis.resolver.resolve(call.func, site).single
    ref = single.value if single is not None else None
    if not isinstance(ref, FunctionRef) or ref.kind != "function" or not ref.path or ref.path == analysis.path:
        return analysis, None
    project = analysis.resolver.project
    reader = getattr(project, "analysis_at", None)
    other = reader(ref.path, ref.module) if reader is not None else None
    if other is None:
        return analysis, None
    project.read_config_file(ref.path)  # the answer rests on that module's bytes
    return other, other.function_node(ref.name)


def _parameter(function: ast.AST, call: ast.Call, node: ast.Name, skip: int = 0) -> Optional[str]:
    """The parameter of ``function`` that ``node`` lands in at ``call`` (None with splats);
    ``skip``: leading parameters the call does not give (a method's object)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)][skip:]
    for index, argument in enumerate(call.args):
        if argument is node:
            return positional[index] if index < len(positional) else None
    for keyword in call.keywords:
        if keyword.value is node:
            names = {a.arg for a in (*args.args, *args.kwonlyargs)}
            return keyword.arg if keyword.arg in names else None
    return None


# -- scopes ---------------------------------------------------------------------------------------


def _scope(analysis, site):
    return analysis.index.module_scope if site.scope is None else analysis.index.scopes.get(id(site.scope))


def _other_arms(analysis, site, name: str, value: Optional[ast.AST] = None, sampler: Optional[str] = None) -> Optional[Set[int]]:
    """The reads of ``name`` (and of the loader's ``sampler``) on no path that holds the binding
    at ``site`` (``value``): those in the other arms of the ``if``/``try`` statements that bind
    the name there too (``ModuleAnalysis.rival_arms``: ``try: loader = DataLoader(ds,
    sampler=s)`` / ``except E: loader = DataLoader(ds, sampler=s, num_workers=0)``); an empty
    set when the name is bound once, None when it is rebound (what a read sees is not followed)."""
    spans = analysis.rival_arms(name, site, value)
    if spans is None:
        return None
    if not spans:
        return set()
    owner = analysis.tree if site.scope is None else site.scope
    _, by_name = analysis.name_reads(owner)
    reads = [*by_name.get(name, ()), *(by_name.get(sampler, ()) if sampler is not None else ())]
    return {id(n) for n in reads if any(first <= n.lineno <= last for first, last in spans)}


def _bound_once(analysis, site, name: str) -> bool:
    scope = _scope(analysis, site)
    if scope is None or name in scope.globals or name in scope.nonlocals:
        return False
    return len(scope.bindings.get(name, ())) == 1


def _bound_once_in(analysis, function: ast.AST, name: str) -> bool:
    scope = analysis.index.scopes.get(id(function))
    return scope is not None and len(scope.bindings.get(name, ())) == 1


# -- loaders kept on an object --------------------------------------------------------------------


def _class_of(analysis, function: ast.AST) -> Optional[ast.ClassDef]:
    """The module-level class ``function`` is a method of (defined in its body), or None."""
    return analysis.ix.method_class.get(id(function))


def _self_name(method: ast.AST) -> Optional[str]:
    """The name a method's object is bound to (its first positional parameter); None for a
    static method or a method without parameters."""
    if any(terminal(d.func if isinstance(d, ast.Call) else d) == "staticmethod" for d in method.decorator_list):
        return None
    args = [*method.args.posonlyargs, *method.args.args]
    return args[0].arg if args else None


def _attribute_target(analysis, call: ast.Call, site) -> Optional[Tuple[ast.ClassDef, str, ast.Attribute]]:
    """(class, attribute, the store) for ``self.train_loader = DataLoader(...)`` in a method of
    a module-level class of this module; None for anything else."""
    method = site.scope
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    statement = analysis_parent_assign(analysis, method, call)
    target = statement.targets[0] if statement is not None else None
    name = _self_name(method)
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name):
        return None
    cls = _class_of(analysis, method)
    return (cls, target.attr, target) if cls is not None else None


def _constructed_class(analysis, call: ast.Call, node: ast.AST):
    """(module analysis, class, attribute, store) when ``call`` constructs a module-level class
    of the project (``Trainer(model, train_loader, ...)``) whose ``__init__`` keeps the
    parameter ``node`` lands in as one attribute of the object (``self.train_loader =
    train_loader``) and does nothing else with it; a reason (str) when the loader goes to a
    project class in a way that is not followed; None when the callee is no project class."""
    from dl_lint.analysis.values import FunctionRef

    site = analysis.site_of(call)
    if site is None or not isinstance(call.func, (ast.Name, ast.Attribute)):
        return None
    single = analysis.resolver.resolve(call.func, site).single
    ref = single.value if single is not None else None
    if not isinstance(ref, FunctionRef) or ref.kind != "class":
        return None
    where = analysis.module_at(ref.path, ref.module)
    if where is None:
        return None
    bindings = where.index.module_scope.bindings.get(ref.name, ())
    if len(bindings) != 1 or bindings[0].kind != "class":
        return None
    cls = bindings[0].node
    init = where.ix.methods.get((id(cls), "__init__"))
    if init is None:
        return f"the loader is passed to {ref.name}(), whose __init__ is not its own"
    parameter = _parameter(init, call, node, skip=1)
    if parameter is None or not _bound_once_in(where, init, parameter):
        return f"the loader is passed to {ref.name}() where it cannot be followed"
    parents, by_name = where.name_reads(init)
    self_name, kept = _self_name(init), None
    for read in by_name.get(parameter, ()):
        parent = parents.get(id(read))
        if _looked_at(read, parent) or _tested(read, parent):
            continue
        target = parent.targets[0] if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and parent.value is read else None
        if kept is None and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
            kept = target
            continue
        return f"{ref.name}.__init__ uses the loader on line {read.lineno}"
    if kept is None:
        return f"{ref.name}.__init__ does not keep the loader"
    return where, cls, kept.attr, kept


def _instance_kept(analysis, owner: ast.AST, call: ast.Call, attribute: str) -> Optional[str]:
    """Why the object ``call`` constructs may reach its loader attribute outside the class
    (``trainer.train_loader.sampler.set_epoch(...)``, ``trainer.train_loader = ...``, the object
    handed on), or None when the caller only calls its methods."""
    parents, by_name = analysis.name_reads(owner)
    statement = analysis_parent_assign(analysis, owner, call)
    if statement is None:
        parent = parents.get(id(call))
        return None if isinstance(parent, ast.Attribute) else f"the object built on line {call.lineno} is handed on"
    target = statement.targets[0]
    site = analysis.site_of(call)
    if not isinstance(target, ast.Name) or site is None or not _bound_once(analysis, site, target.id):
        return f"the object built on line {call.lineno} is not bound to one name"
    for read in by_name.get(target.id, ()):
        parent = parents.get(id(read))
        called = parents.get(id(parent))
        if not isinstance(parent, ast.Attribute) or parent.attr == attribute or not (isinstance(called, ast.Call) and called.func is parent):
            return f"the object built on line {call.lineno} is used on line {read.lineno}"
    return None


def _class_closed(where, cls: ast.ClassDef) -> Optional[str]:
    """Why ``self.method(...)`` in ``cls`` may run code not read: a base class (its methods are
    not read), or a subclass in the module (which may override the method); None otherwise.
    Subclasses in other modules are not searched."""
    if any(not (isinstance(base, ast.Name) and base.id == "object") for base in cls.bases) or cls.keywords:
        return f"{cls.name} has a base class whose methods are not read"
    subclasses = where.ix.subclasses
    if subclasses is None:
        subclasses = where.ix.subclasses = {}
        for node in ast.walk(where.tree):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    subclasses.setdefault(terminal(base), node.name)
    if cls.name in subclasses:
        return f"{cls.name} has a subclass ({subclasses[cls.name]}) that may override its methods"
    return None


def _attribute_unknown(where, cls: ast.ClassDef, attribute: str, store: ast.Attribute, handled: Set[int] = frozenset()) -> Optional[str]:
    """Why the loader kept in ``cls``'s ``attribute`` cannot be followed: a base class (whose
    methods are not read), a subclass in the module (which may override the methods), or
    another assignment of an attribute of that name anywhere in the module (the reads of it on
    the class's own objects, ``handled``, aside: ``_instance_reads``)."""
    why = _class_closed(where, cls)
    if why is not None:
        return why
    own = set(handled)  # ``self.<attribute>`` in a method of a class: that class's object
    for other in where.tree.body:
        if isinstance(other, ast.ClassDef):
            for method in other.body:
                name = _self_name(method) if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
                for node in ast.walk(method) if name is not None else ():
                    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
                        own.add(id(node))
    imported = {name for name, bindings in where.index.module_scope.bindings.items() if all(b.kind == "import" for b in bindings)}
    for statement in ast.walk(where.tree):
        if isinstance(statement, ast.Attribute) and statement.attr == attribute and id(statement) not in own:
            root = statement.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in imported and _module_chain(statement.value):
                continue  # ``torch.utils.data.DataLoader``: a module's attribute, not an object's
            # ``trainer.train_loader = other``, ``trainer.train_loader.sampler.set_epoch(e)``
            return f"the attribute {attribute} is used outside its class on line {statement.lineno}"
        if isinstance(statement, ast.Constant) and statement.value == attribute:
            return f"the attribute {attribute} is named on line {statement.lineno} (getattr, setattr)"
    return None


def _module_chain(node: ast.AST) -> bool:
    """Whether ``node`` is a dotted chain of names (``torch.utils``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _follow_attribute(
    here, where, cls: ast.ClassDef, attribute: str, store: ast.Attribute, depth: int, found: _Uses, objects: bool = False
) -> None:
    """The loader kept in ``self.<attribute>`` of ``cls`` (in the module of ``where``): its
    reads in every method of the class are read like a loader's (``for batch in
    self.train_loader``, ``self.train_loader.sampler.set_epoch(epoch)``, handed to
    ``self._run_epoch(epoch, self.train_loader)``); an iteration in a method that runs it once
    takes the loops around the calls of that method in the class (``self._run_epoch(epoch)`` in
    ``for epoch in range(self.epochs):``), two calls deep. The object itself handed anywhere
    (``callback.on_epoch_start(self)``) may reach the sampler: unknown. ``objects``: the class
    builds the loader itself, so every object of it keeps one, and the reads of the attribute
    on its objects are followed too (``_instance_reads``); a loader handed to the constructor
    is the caller's own object's (``_instance_kept``)."""
    found.kept = found.kept or f"{cls.name}.{attribute}"
    why = _class_closed(where, cls)
    instances: List[Tuple[Any, _Uses]] = []
    handled: Set[int] = set()
    if why is None and objects:
        why = _instance_reads(where, cls, attribute, depth, instances, handled)
    why = why or _attribute_unknown(where, cls, attribute, store, handled)
    if why is not None:
        found.escape = found.escape or why
        return
    methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    keeper = _method_of(cls, store)  # the method that stores the loader
    once: Dict[str, List[EpochLoop]] = {}  # method -> its iterations that run once per call
    inner = _Uses()
    for method in methods:
        name = _self_name(method)
        if name is None:
            continue
        parents, by_name = where.name_reads(method)
        mine = _Uses()
        for read in by_name.get(name, ()):
            parent = parents.get(id(read))
            if not isinstance(parent, ast.Attribute):
                inner.escape = inner.escape or f"the object is handed on on line {read.lineno}"
            elif parent.attr == attribute and parent is not store and not _evaluates(method):
                if not isinstance(parent.ctx, ast.Load) and method is keeper and _arms_apart(where, method, parent, store):
                    pass  # ``self.data = DataLoader(test_set, ...)`` on the other arm of the ``if`` that keeps this one
                elif not isinstance(parent.ctx, ast.Load):
                    inner.escape = inner.escape or f"the attribute {attribute} is assigned again on line {read.lineno}"
                else:
                    _loader_read(where, method, parent, parents, depth + 1, mine)
        for row, conds in mine.set_epochs:
            inner.add_set_epoch(row, conds)
        inner.escape = inner.escape or mine.escape
        for loop in mine.iterations:
            if loop.epoch_row is None:
                once.setdefault(method.name, []).append(loop)
            else:
                inner.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, loop.through or method.name, loop.path))
    for _ in range(2):  # the methods running the iteration once per call: the loops around their calls
        if not once:
            break
        later: Dict[str, List[EpochLoop]] = {}
        for method in methods:
            name = _self_name(method)
            if name is None:
                continue
            parents, by_name = where.name_reads(method)
            for read in by_name.get(name, ()):
                parent = parents.get(id(read))
                called = parents.get(id(parent))
                if not (isinstance(parent, ast.Attribute) and parent.attr in once and isinstance(called, ast.Call) and called.func is parent):
                    continue
                calls = _Uses()
                _iteration(where, method, called, called.lineno, parent.attr, calls)
                inner.escape = inner.escape or calls.escape
                for loop in calls.iterations:
                    if loop.epoch_row is None:
                        later.setdefault(method.name, []).append(loop)
                    else:
                        inner.iterations.append(loop)
        once = later
    if not inner.set_epoch and "set_epoch" in where.text.segment(cls):
        inner.escape = inner.escape or f"{cls.name} calls set_epoch on something not followed"
    # Each object of the class keeps a loader of its own: one that is iterated per epoch without
    # set_epoch repeats its order whatever the other objects' loaders do (``_returned_to_callers``).
    alone = next(
        (
            entry
            for entry in instances
            if entry[1].escape is None and not entry[1].set_epochs and any(loop.epoch_row is not None for loop in entry[1].iterations)
        ),
        None,
    )
    for other, uses in [alone] if alone is not None else instances:
        for row, conds in uses.set_epochs:
            inner.add_set_epoch(row, conds)
        inner.escape = inner.escape or uses.escape
        for loop in uses.iterations:
            inner.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, loop.through, loop.path or ("" if other is where else other.path)))
    for row, conds in inner.set_epochs:
        found.add_set_epoch(row, ())
    found.escape = found.escape or inner.escape
    path = "" if where is here else where.path
    for loop in inner.iterations:
        found.iterations.append(EpochLoop(loop.epoch_row, loop.iteration_row, loop.through, loop.path or path))


def _method_of(cls: ast.ClassDef, node: ast.AST) -> Optional[ast.AST]:
    """The method of ``cls`` that holds ``node``."""
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.lineno <= node.lineno <= (method.end_lineno or 0):
            return method
    return None


def _arms_apart(where, method: ast.AST, a: ast.AST, b: ast.AST) -> bool:
    """Whether ``a`` and ``b`` of ``method`` sit in different arms of one ``if``."""
    return other_arms(a, b, where.name_reads(method)[0])


# How many constructions of a class ``_instance_reads`` follows before it gives up.
_INSTANCES = 16


def _instance_reads(where, cls: ast.ClassDef, attribute: str, depth: int, instances: list, handled: Set[int]) -> Optional[str]:
    """The loader a closed class keeps in ``self.<attribute>`` read on its objects, in its module
    and in the modules that import it (``Project.callers_of``): ``NyuLoader(args,
    'train').data`` bound to a name (surface_normal_uncertainty's ``train_loader =
    NyuLoader(args, 'train').data``), or an object bound once (``loader = BtsDataLoader(args,
    'train')``) whose ``loader.data`` is read like the loader, while its methods are called
    (their reads of the attribute are the class's own) and ``loader.train_sampler.set_epoch(e)``
    counts. Appends (module analysis, reads) per construction to ``instances`` and the ids of
    the attribute nodes read to ``handled``; a reason when an object goes anywhere else (handed
    on, returned, stored, another attribute read), a construction runs in a loop, or the
    objects cannot all be listed. A module that writes ``set_epoch`` where nothing read calls
    it (``sampler = loader.train_sampler`` then ``sampler.set_epoch(e)``) is unknown too."""
    from dl_lint.analysis.values import FunctionRef

    calls = [(where, call, site) for call, site in where.ix.calls_of_name.get(cls.name, [])]
    finder = getattr(where.resolver.project, "callers_of", None)
    others = finder(where.path, cls.name) if finder is not None else None
    if others is None:
        return f"the objects of {cls.name} cannot all be listed" if finder is not None else None
    calls.extend(others)
    if len(calls) > _INSTANCES:
        return f"{cls.name} is constructed in more places than are followed"
    methods = {m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for module, call, site in calls:
        if module is where:
            if site.scope is not None and where.ix.method_class.get(id(site.scope)) is cls:
                return f"{cls.name} builds objects of itself"
            single = where.resolver.resolve(call.func, site).single if isinstance(call.func, ast.Name) else None
            ref = single.value if single is not None else None
            if not (isinstance(ref, FunctionRef) and ref.kind == "class" and ref.name == cls.name and (not ref.path or ref.path == where.path)):
                continue  # another ``NyuLoader`` (a local of that name)
        owner = module.tree if site.scope is None else site.scope
        parents, by_name = module.name_reads(owner)
        uses = _Uses()
        parent = parents.get(id(call))
        loops = module.loops_around(owner, call)
        if loops is None or any(_may_repeat(module, loop) for loop in loops[0]):
            return f"{cls.name}() is built in a loop on line {call.lineno}: a new loader per pass"
        if isinstance(parent, ast.Attribute) and parent.value is call:
            if parent.attr != attribute:
                if parent.attr in methods and isinstance(parents.get(id(parent)), ast.Call):
                    continue  # ``Runner(args).fit()``: the class's own reads
                return f"{cls.name}().{parent.attr} is read on line {call.lineno}"
            handled.add(id(parent))
            _kept_read(module, owner, parent, parents, site, depth, uses)
        else:
            statement = analysis_parent_assign(module, owner, call)
            target = statement.targets[0] if statement is not None else None
            if not isinstance(target, ast.Name) or not _bound_once(module, site, target.id):
                return f"the object {cls.name}() builds on line {call.lineno} is not bound to one name"
            for read in by_name.get(target.id, ()):
                held = parents.get(id(read))
                called = parents.get(id(held))
                if isinstance(held, ast.Attribute) and held.attr == attribute and isinstance(held.ctx, ast.Load):
                    handled.add(id(held))
                    _kept_read(module, owner, held, parents, site, depth, uses)
                elif isinstance(held, ast.Attribute) and held.attr in methods and isinstance(called, ast.Call) and called.func is held:
                    continue  # ``loader.reset()``: a method of the class, read with the class
                elif isinstance(held, ast.Attribute) and _set_epoch_chain(held, parents):
                    uses.add_set_epoch(read.lineno, ())  # ``loader.train_sampler.set_epoch(epoch)``
                else:
                    return f"the object {cls.name}() builds on line {call.lineno} is used on line {read.lineno}"
        if uses.set_epoch is None and "set_epoch" in module.source and "set_epoch" in module._identifiers():
            uses.escape = uses.escape or f"{module.path or 'the module'} calls set_epoch on something not followed"
        instances.append((module, uses))
    return None


def _set_epoch_chain(node: ast.Attribute, parents) -> bool:
    """``x.<attr>...set_epoch(...)``: the chain from ``node`` ends in a call of ``set_epoch``."""
    top = node
    while isinstance(parents.get(id(top)), ast.Attribute):
        top = parents[id(top)]
    holder = parents.get(id(top))
    return top.attr == "set_epoch" and isinstance(holder, ast.Call) and holder.func is top


def _kept_read(module, owner: ast.AST, node: ast.Attribute, parents, site, depth: int, uses: _Uses) -> None:
    """A read of the kept loader on an object (``NyuLoader(args, 'train').data``,
    ``loader.data``): bound to a name (once, or in alternative arms), the name's reads are the
    loader's; any other read is read as the loader itself (``for batch in loader.data``)."""
    statement = parents.get(id(node))
    if isinstance(statement, ast.Assign) and statement.value is node and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        name = statement.targets[0].id
        if _EVALUATION.match(name):
            uses.escape = uses.escape or f"the loader is named for evaluation ({name}) on line {node.lineno}"
            return
        others = _other_arms(module, site, name, node)
        if others is None:
            uses.escape = uses.escape or f"{name} is bound again on line {node.lineno}"
            return
        _collect(module, owner, {name: "loader"}, others, depth + 1, uses)
        return
    _loader_read(module, owner, node, parents, depth + 1, uses)


def _returned_whole(analysis, call: ast.Call, site) -> bool:
    """``return DataLoader(...)`` as the only ``return`` of a method of a module-level class."""
    method = site.scope
    if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or _class_of(analysis, method) is None:
        return False
    returns = analysis._whole_returned(method)
    return len(returns) == 1 and returns[0] is call


def _returned_to_attribute(analysis, method: ast.AST, depth: int, found: _Uses) -> bool:
    """A loader returned whole by a method of a closed class (``_class_closed``) whose every call
    in the class is ``self.<attr> = self.<method>(...)``, outside loops (minGPT-ddp's
    ``self.train_loader = self._prepare_dataloader(train_dataset)``): each attribute is followed
    in the class (``_follow_attribute``). False when the method is called any other way (the
    caller then says why it is unknown)."""
    cls = _class_of(analysis, method)
    if cls is None or _class_closed(analysis, cls) is not None:
        return False
    stores = []
    for other in cls.body:
        name = _self_name(other) if isinstance(other, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if name is None:
            continue
        parents, by_name = analysis.name_reads(other)
        for read in by_name.get(name, ()):
            parent = parents.get(id(read))
            call = parents.get(id(parent))
            if not (isinstance(parent, ast.Attribute) and parent.attr == method.name):
                continue
            if not (isinstance(call, ast.Call) and call.func is parent):
                return False
            statement = analysis_parent_assign(analysis, other, call)
            target = statement.targets[0] if statement is not None else None
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name):
                return False
            loops = analysis.loops_around(other, statement)
            if loops is None or any(_may_repeat(analysis, loop) for loop in loops[0]):
                return False
            stores.append(target)
    if not stores:
        return False
    if any(_EVALUATION.match(target.attr) for target in stores):
        found.escape = found.escape or f"a caller keeps the loader {method.name}() returns for evaluation"
        return True
    found.returned = found.returned or method.name
    for target in stores:
        _follow_attribute(analysis, analysis, cls, target.attr, target, depth + 1, found, objects=True)
    return True
