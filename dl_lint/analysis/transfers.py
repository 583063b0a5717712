"""Where a loader's batches are copied to a device with ``non_blocking=True`` (DL306). Facts only.

A batch is a target of a ``for`` loop over the loader (``for images, labels in loader``, also
through ``enumerate``, ``tqdm``, ``iter``, ``islice``), or a value derived from one inside the
loop body: an element, attribute or item of it (``batch["image"]``, ``images, labels = batch``),
the result of a method called on it (``batch[0].float()``, not ``.to()`` or ``.cuda()``, which
may already be on the device), or a comprehension variable over it
(``{k: v for k, v in batch.items()}``). A copy is a call of ``.to(...)`` or ``.cuda(...)`` on a
batch, written with ``non_blocking=True``, that moves to a device: ``.cuda()``, or ``.to()``
with a device (``device=``, or a first argument that is not a dtype), never to the literal
``"cpu"``. A receiver pinned on the spot (``x.pin_memory().to(...)``) is not a copy from
pageable memory, and a loop body that calls ``pin_memory`` anywhere is not judged.

Helper functions of the same module are followed one call deep: ``batch = to_device(batch)``
where ``to_device`` copies its parameter, and ``train(model, loader)`` where ``train`` loops over
its parameter (``function_transfers``, also kept in module summaries for other modules).
Calls this module cannot follow go to a ``Remote`` callback: the module analysis resolves them
(a function of another module, a method of a project object) and asks that module's summary,
which keeps per function and method the parameters it copies (``parameter_copies``) and the
imported callees it hands them to (``parameter_handoffs``), per function the imported callees
its loops over a parameter hand the batches to (``transfer_calls``), and per class the
attributes of self its ``__iter__`` copies the batches of (``iter_copies``: a wrapper of a
loader). Anything else (an object that cannot be named, a name bound twice) is not followed: no
fact.
"""

from __future__ import annotations

import ast
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from dl_lint.analysis.syntax import literal, terminal

# Wrappers a ``for`` loop may put around the loader and still yield its batches. progressbar2's
# ``progressbar(iterable, ...)`` yields the iterable's items (read in progressbar2 4.6.0,
# shortcuts.py: ``iter(bar(iterable))``, where ``ProgressBar.__call__`` takes ``iter(iterable)``;
# a generator looping over it in 3.x).
# itertools.chain(a, b) yields a's items, then b's (lazily): the loop walks the first argument first.
_TRANSPARENT = frozenset({"enumerate", "tqdm", "iter", "islice", "progressbar", "chain"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# torch dtypes, as attributes of ``torch`` (``x.to(torch.float16, non_blocking=True)`` converts
# on the same device: not a transfer).
_DTYPES = frozenset(
    {
        "float", "float16", "float32", "float64", "bfloat16", "half", "double", "int", "int8", "int16", "int32",
        "int64", "uint8", "long", "short", "bool", "complex64", "complex128", "cfloat", "cdouble",
        "float8_e4m3fn", "float8_e5m2",
    }
)  # fmt: skip

# Methods that may move a tensor off the host: what they return is not judged as a host batch.
_MOVES = frozenset({"to", "cuda", "xpu", "npu", "mps"})

# (param name, position among positional parameters or -1, row, column of the copy)
Transfer = Tuple[str, int, int, int]
Helpers = Callable[[str], Optional[ast.AST]]  # a module-level function of this module by name
# Where a copy is when another module makes it: (path, row, column).
Location = Tuple[str, int, int]
# A call this module cannot follow (a function of another module): given the call and the
# positions of its arguments derived from a batch, where that function copies one of them
# non-blocking, or None (``module.ModuleAnalysis``, ``project.SummaryModule.callee_copy``).
Remote = Callable[[ast.Call, Tuple[int, ...]], Optional[Location]]
Found = Union[ast.Call, Location]


def iterates(expr: ast.AST, node: Optional[ast.AST], name: Optional[str]) -> bool:
    """``expr`` yields the batches of ``node`` (a loader call) or of the name ``name``."""
    if node is not None and expr is node:
        return True
    if name is not None and isinstance(expr, ast.Name) and expr.id == name:
        return True
    if isinstance(expr, ast.Call) and expr.args and terminal(expr.func) in _TRANSPARENT:
        return iterates(expr.args[0], node, name)
    return False


def transparent_leaves(expr: ast.AST) -> List[ast.AST]:
    """The expressions ``iterates`` compares with a node or a name: ``expr``, then the first
    argument of each transparent wrapper around it (``enumerate(tqdm(loader))``)."""
    out = [expr]
    while isinstance(expr, ast.Call) and expr.args and terminal(expr.func) in _TRANSPARENT:
        expr = expr.args[0]
        out.append(expr)
    return out


def target_names(target: ast.AST) -> Set[str]:
    """The names an assignment or loop target binds (``batch[k] = ...`` binds none)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(target_names(e) for e in target.elts))
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return set()


def batch_copy(
    body: Sequence[ast.stmt], batch: Set[str], helpers: Helpers, depth: int = 1, remote: Optional[Remote] = None
) -> Optional[Found]:
    """The first non-blocking device copy of a value derived from the names ``batch`` in the
    statements ``body`` (nested functions and classes excluded), or None. ``depth`` helper
    calls are followed (``to_device(batch)`` where the helper copies its parameter)."""
    if _pins(body):
        return None
    names = set(batch)
    for statement in _statements(body):
        for expr in _expressions(statement):
            found = _copy_in(expr, names, helpers, depth, remote)
            if found is not None:
                return found
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            bound = set().union(*(target_names(t) for t in targets))
            if derived(statement.value, names):
                names |= bound
            else:
                names -= bound  # rebound to something else (``images = images.to(device)``)
        elif isinstance(statement, (ast.For, ast.AsyncFor)) and derived(statement.iter, names):
            names |= target_names(statement.target)
    return None


def loop_copy(loops: Iterable[ast.AST], helpers: Helpers, remote: Optional[Remote] = None) -> Optional[Found]:
    """The first copy in the bodies of ``loops`` (``for`` statements over a loader)."""
    for loop in loops:
        found = batch_copy(loop.body, target_names(loop.target), helpers, 1, remote)
        if found is not None:
            return found
    return None


def function_transfers(function: ast.AST, helpers: Helpers, span: Callable[[ast.AST], Tuple[int, int]]) -> Tuple[Transfer, ...]:
    """For a function's parameters: the ones it iterates (``for batch in param``, the parameter
    never rebound) with a non-blocking copy of the batches, and where the copy is."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    names = [*positional, *(a.arg for a in args.kwonlyargs)]
    if not names:
        return ()
    every = _loops(function.body)
    iterated = {name: [loop for loop in every if iterates(loop.iter, None, name)] for name in names}
    if not any(iterated.values()):
        return ()  # before the walk for rebound names: most functions iterate no parameter
    rebound = bound_names(function.body)
    out: List[Transfer] = []
    for name in names:
        if name in rebound or not iterated[name]:
            continue
        found = loop_copy(iterated[name], helpers)
        if found is not None:
            row, column = span(found)
            out.append((name, positional.index(name) if name in positional else -1, row, column))
    return tuple(out)


def copies_parameter(
    function: ast.AST, position: int, helpers: Helpers, depth: int, remote: Optional[Remote] = None
) -> Optional[Found]:
    """The first non-blocking copy a function makes of its positional parameter ``position``
    (itself or what is derived from it). A parameter rebound to what is derived from it stays
    followed (``x = x.contiguous()``, tacotron2's ``to_gpu``); rebound to anything else, it is
    not followed from there on (``batch_copy``)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    if position >= len(positional):
        return None
    return batch_copy(function.body, {positional[position]}, helpers, depth, remote)


def parameter_copies(
    function: ast.AST, helpers: Helpers, span: Callable[[ast.AST], Tuple[int, int]], skip: int = 0
) -> Tuple[Tuple[int, int, int], ...]:
    """``summary.FunctionRecord.copies``: (position, row, column) of each positional parameter
    (after the first ``skip``: ``self``) the function copies non-blocking, itself or through a
    helper of its module (one call deep; ``async_copy_to`` recursing over a dict's values copies
    its parameter itself)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    count = len(positional)
    if count <= skip or batch_copy(function.body, set(positional[skip:]), helpers, 1) is None:
        return ()  # one walk for all the parameters: most functions copy none of them
    out = []
    for position in range(skip, count):
        found = copies_parameter(function, position, helpers, 1)
        if isinstance(found, ast.AST):
            out.append((position - skip, *span(found)))
    return tuple(out)


def parameter_handoffs(
    function: ast.AST, calls: Sequence[ast.Call], bindings: Dict[str, list], skip: int = 0
) -> Tuple[Tuple[int, str, Tuple[int, ...]], ...]:
    """``summary.FunctionRecord.hands``: of ``calls`` (the function's calls of names its module
    imports one by one, from the module index: no walk), those given a positional parameter
    (after the first ``skip``) or a value derived from it: (position, callee text, argument
    positions). A local name counts when the function binds it once, to such a value
    (``text_padded, ... = batch``: ``Tacotron2.parse_batch`` calling ``to_gpu(text_padded)``,
    imported from utils.py); a parameter the function rebinds does not."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)][skip:]
    if not positional or not calls:
        return ()
    params = {name: index for index, name in enumerate(positional)}

    def origins(expr: ast.AST, depth: int, line: int) -> Set[int]:
        """The parameters every binding of each name ``expr`` reads, before ``line``, derives
        from (a binding after it in a loop may reach back: then none)."""
        out: Set[int] = set()
        for name in _roots(expr):
            found = bindings.get(name, ())
            if any(b.site is None or (b.site.line >= line and b.site.in_loop()) for b in found):
                continue
            earlier = [b for b in found if b.site.line < line]
            if name in params and len(earlier) == 1 and earlier[0].kind == "param":
                out.add(params[name])
                continue
            if depth <= 0 or not earlier:
                continue
            common: Optional[Set[int]] = None
            for binding in earlier:
                if binding.kind == "param" and name in params:
                    reached = {params[name]}
                elif binding.kind in ("assign", "unpack") and binding.value is not None:
                    reached = origins(binding.value, depth - 1, binding.site.line)
                else:
                    reached = set()
                common = reached if common is None else common & reached
            out |= common or set()
        return out

    found: Dict[Tuple[int, str], Set[int]] = {}
    for call in calls:
        for position, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                break
            for param in origins(argument, 3, call.lineno):
                found.setdefault((param, call.func.id), set()).add(position)
    return tuple((param, callee, tuple(sorted(positions))) for (param, callee), positions in found.items())


def _roots(expr: ast.AST) -> List[str]:
    """The names ``expr`` is derived from (``derived``): the name an item, attribute or method
    result (not ``.to()``/``.cuda()``) is of, each element's for a tuple or list display."""
    out: List[str] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        while True:
            if isinstance(node, ast.Name):
                out.append(node.id)
                break
            if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
                node = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr not in _MOVES:
                node = node.func.value
            else:
                if isinstance(node, (ast.Tuple, ast.List)):
                    stack.extend(node.elts)
                break
    return out


def iter_copies(
    function: ast.AST, helpers: Helpers, span: Callable[[ast.AST], Tuple[int, int]], methods: Optional[Dict[str, ast.AST]] = None
) -> Tuple[Tuple[str, int, int], ...]:
    """``summary.ClassRecord.iter_copies``: the attributes of self a method loops over (``for x,
    y in self.loader``, also through ``enumerate`` and the like), copying the batches with
    non_blocking=True, in the loop or through a method of the class itself (``methods``: name ->
    node; ``batch = self.to_device(batch)``): (attr, row, column) of the first copy. effdet's
    and timm's ``PrefetchLoader``, which copy each batch on a side stream, and trainers."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if not positional:
        return ()
    me = positional[0]

    def own(call: ast.Call, positions: Tuple[int, ...]) -> Optional[Found]:
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == me):
            return None
        method = methods.get(func.attr) if methods else None
        if method is None:
            return None
        for position in positions:  # after self
            found = copies_parameter(method, position + 1, helpers, 1)
            if isinstance(found, ast.AST):
                return found
        return None

    own.own_methods = True  # type: ignore[attr-defined]
    out: Dict[str, Tuple[int, int]] = {}
    for loop in _loops(function.body):
        iterable = transparent_leaves(loop.iter)[-1]
        if not (isinstance(iterable, ast.Attribute) and isinstance(iterable.value, ast.Name) and iterable.value.id == me):
            continue
        if iterable.attr in out:
            continue
        found = batch_copy(loop.body, target_names(loop.target), helpers, 1, own if methods else None)
        if isinstance(found, ast.AST):
            out[iterable.attr] = span(found)
    return tuple((attr, row, column) for attr, (row, column) in out.items())


def transfer_calls(function: ast.AST, helpers: Helpers) -> Tuple[Tuple[str, int, str, Tuple[int, ...]], ...]:
    """``summary.FunctionRecord.transfer_calls``: for each parameter the function iterates (never
    rebound), the calls of its loops' bodies this module cannot follow that are given the
    batches: (parameter, position or -1, callee text, argument positions). Whether the callee
    copies them is asked when a loader is passed (``project.SummaryModule.callee_copy``)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    names = [*positional, *(a.arg for a in args.kwonlyargs)]
    if not names:
        return ()
    loops = _loops(function.body)
    if not loops:
        return ()
    iterated = {name: [loop for loop in loops if iterates(loop.iter, None, name)] for name in names}
    if not any(iterated.values()):
        return ()  # before the walk for rebound names
    rebound = bound_names(function.body)
    out: List[Tuple[str, int, str, Tuple[int, ...]]] = []
    for name in names:
        mine = iterated[name]
        if name in rebound or not mine:
            continue
        seen: List[Tuple[str, Tuple[int, ...]]] = []

        def record(call: ast.Call, positions: Tuple[int, ...]) -> None:
            seen.append((callee_text(call.func) or "", positions))
            return None

        loop_copy(mine, helpers, record)
        index = positional.index(name) if name in positional else -1
        out.extend((name, index, text, positions) for text, positions in dict.fromkeys(seen))
    return tuple(out)


def method_calls(
    function: ast.AST, found: Sequence[Tuple[str, int, str, Tuple[int, ...]]]
) -> Tuple[Tuple[str, int, str, int, str, Tuple[int, ...]], ...]:
    """``summary.FunctionRecord.method_calls``: of ``transfer_calls``' entries, the calls of a
    method of another parameter of the function, never rebound (``def train(model, loader):
    for batch in loader: model.parse_batch(batch)``): (iterated parameter, its position or -1,
    the object's parameter, its position or -1 for keyword-only, method, argument positions).
    Its class is the caller's to tell (``module.ModuleAnalysis._nonblocking_copy``)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    names = {*positional, *(a.arg for a in args.kwonlyargs)}
    out = []
    rebound: Optional[Set[str]] = None
    for name, index, text, positions in found:
        head, dot, method = text.partition(".")
        if not dot or head == name or head not in names:
            continue
        if rebound is None:
            rebound = bound_names(function.body)
        if head in rebound:
            continue
        owner = positional.index(head) if head in positional else -1
        out.append((name, index, head, owner, method, positions))
    return tuple(out)


# -- what counts as a batch, and as a copy ------------------------------------------------------


def derived(expr: ast.AST, names: Set[str]) -> bool:
    """``expr`` is one of ``names``, or an item, attribute, method result or display of one, or
    what ``Variable(x)`` or a function of ``torch`` given one first makes of it
    (``torch.cat([x, y])``, ``torch.squeeze(x)``; not with a ``device=``): a host tensor made
    from a pageable batch is pageable too."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id in names
        if isinstance(expr, (ast.Attribute, ast.Subscript, ast.Starred)):
            expr = expr.value
        elif isinstance(expr, ast.Call) and expr.args and _host_wrapper(expr):
            expr = expr.args[0]
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            if expr.func.attr in _MOVES:
                return False  # moved (or maybe moved) to a device already: no longer a host batch
            expr = expr.func.value
        elif isinstance(expr, (ast.Tuple, ast.List)):
            return any(derived(e, names) for e in expr.elts)
        else:
            return False


def _host_wrapper(call: ast.Call) -> bool:
    """``Variable(x)`` (``torch.autograd.Variable``: the tensor itself since torch 0.4) or
    ``torch.<function>(x, ...)`` without ``device=``: a host tensor made from its first
    argument."""
    func = call.func
    if any(k.arg == "device" for k in call.keywords):
        return False
    if terminal(func) == "Variable":
        return True
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "torch" and func.attr not in _MOVES


def _copy_in(expr: ast.AST, names: Set[str], helpers: Helpers, depth: int, remote: Optional[Remote]) -> Optional[Found]:
    """The first copy inside one expression (comprehensions over a batch included)."""
    stack: List[Tuple[ast.AST, Set[str]]] = [(expr, names)]
    while stack:
        node, known = stack.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, _COMPREHENSIONS):
            inner = set(known)
            for generator in node.generators:
                stack.append((generator.iter, inner))
                if derived(generator.iter, inner):
                    inner = inner | target_names(generator.target)
            elements = (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)
            stack.extend((e, inner) for e in elements)
            continue
        if isinstance(node, ast.Call):
            if _is_copy(node, known):
                return node
            if depth > 0 and isinstance(node.func, ast.Name) and helpers(node.func.id) is not None:
                found = _helper_copy(node, known, helpers, depth, remote)
                if found is not None:
                    return found
            elif remote is not None and (callee_text(node.func) is not None or (getattr(remote, "own_methods", False) and _method_of_name(node.func))):
                positions = _derived_positions(node, known)
                if positions:
                    found = remote(node, positions)
                    if found is not None:
                        return found
        stack.extend((child, known) for child in reversed(list(ast.iter_child_nodes(node))))
    return None


def _helper_copy(call: ast.Call, names: Set[str], helpers: Helpers, depth: int, remote: Optional[Remote]) -> Optional[Found]:
    function = helpers(call.func.id)
    if function is None:
        return None
    for position in _derived_positions(call, names):
        found = copies_parameter(function, position, helpers, depth - 1, remote)
        if found is not None:
            return found
    return None


def _derived_positions(call: ast.Call, names: Set[str]) -> Tuple[int, ...]:
    """The positions of the call's arguments derived from a batch, up to the first ``*args``
    (after it, positions are unknown)."""
    out = []
    for position, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred):
            break
        if derived(argument, names):
            out.append(position)
    return tuple(out)


def _method_of_name(func: ast.AST) -> bool:
    """``self.to_device``: a method of a name (a remote that reads the object's own methods,
    ``own_methods``, is asked about it)."""
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)


def callee_text(func: ast.AST) -> Optional[str]:
    """A callee another module may define: a name (``to_gpu``) or an attribute of a name
    (``utils.to_gpu``, resolved later only when the name is an imported module)."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id != "self":
        return f"{func.value.id}.{func.attr}"
    return None


def _is_copy(call: ast.Call, names: Set[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in ("to", "cuda"):
        return False
    if not any(k.arg == "non_blocking" and literal(k.value) is True for k in call.keywords):
        return False
    if _pinned(func.value) or not derived(func.value, names):
        return False
    if func.attr == "cuda":
        return True
    device = next((k.value for k in call.keywords if k.arg == "device"), None)
    if device is None and call.args:
        device = call.args[0]
    return device is not None and not _is_dtype(device) and not _is_cpu(device)


def _is_dtype(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in _DTYPES or node.attr.endswith("dtype")
    return isinstance(node, ast.Name) and node.id.endswith("dtype")


def _is_cpu(node: ast.AST) -> bool:
    value = literal(node)
    if isinstance(value, str):
        return value == "cpu"
    if isinstance(node, ast.Call) and node.args:  # torch.device("cpu")
        return literal(node.args[0]) == "cpu"
    return False


def _pinned(receiver: ast.AST) -> bool:
    """``x.pin_memory()`` somewhere in the receiver's chain."""
    node = receiver
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "pin_memory":
                return True
            node = node.func
        else:
            node = node.value
    return False


def _pins(body: Sequence[ast.stmt]) -> bool:
    """The statements mention ``pin_memory`` (a batch pinned by hand): not judged."""
    for statement in body:
        for node in ast.walk(statement):
            if (isinstance(node, ast.Attribute) and node.attr == "pin_memory") or (
                isinstance(node, ast.Name) and node.id == "pin_memory"
            ):
                return True
    return False


# -- walking ---------------------------------------------------------------------------------------


def _statements(body: Sequence[ast.stmt]) -> Iterable[ast.stmt]:
    """Every statement in ``body``, in source order, compound ones before their bodies; nested
    functions and classes are skipped."""
    stack = list(reversed(body))
    while stack:
        statement = stack.pop()
        if isinstance(statement, _NESTED):
            continue
        yield statement
        children: List[ast.stmt] = []
        for field in ("body", "orelse", "finalbody"):
            children.extend(getattr(statement, field, ()) or ())
        for handler in getattr(statement, "handlers", ()) or ():
            children.extend(handler.body)
        for case in getattr(statement, "cases", ()) or ():
            children.extend(case.body)
        stack.extend(reversed(children))


def _expressions(statement: ast.stmt) -> Iterable[ast.AST]:
    """The expressions a statement evaluates itself (not those of the statements it holds)."""
    for field, value in ast.iter_fields(statement):
        if field in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        if isinstance(value, ast.AST) and not isinstance(value, ast.stmt):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ast.AST) and not isinstance(v, ast.stmt))


def _loops(body: Sequence[ast.stmt]) -> List[ast.AST]:
    return [s for s in _statements(body) if isinstance(s, (ast.For, ast.AsyncFor))]


def bound_names(body: Sequence[ast.stmt]) -> Set[str]:
    """Names (re)bound by the statements: assignments, loop and ``with`` targets, walrus."""
    out: Set[str] = set()
    for statement in _statements(body):
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                out |= target_names(target)
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            out |= target_names(statement.target)
        elif isinstance(statement, (ast.For, ast.AsyncFor)):
            out |= target_names(statement.target)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                if item.optional_vars is not None:
                    out |= target_names(item.optional_vars)
        for expr in _expressions(statement):
            out |= {n.target.id for n in ast.walk(expr) if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)}
    return out


def module_helpers(functions: Iterable[ast.AST]) -> Helpers:
    """Look up a module-level function by name (the last definition wins, as at run time)."""
    by_name: Dict[str, ast.AST] = {}
    for function in functions:
        by_name[function.name] = function
    return by_name.get
