"""Functions started in other processes, as calls of them.

``torch.multiprocessing.spawn(fn, args=(a, b), nprocs=n)`` runs ``fn(i, a, b)`` in each of ``n``
processes, ``i`` the process index (torch 2.13, torch/multiprocessing/spawn.py: ``_wrap`` calls
``fn(i, *args)``; ``start_processes`` takes the same ``fn, args``). ``multiprocessing.Process(
target=fn, args=(a, b), kwargs={...})`` (and ``torch.multiprocessing.Process``, the same class)
runs ``fn(a, b, **kwargs)``. ``called_by_process`` gives, for such a call, the call of ``fn`` it
stands for (a synthetic ``ast.Call`` placed at the spawning call, the index an unknown int), so a
function whose loader takes its parameters is judged at ``mp.spawn(main_worker, ...)`` as at
``main_worker(...)`` (``judge.judge_call_sites``). Not followed: ``args`` that is not a tuple
display (``args=params``, a starred element), ``kwargs`` that is not a dict display with string
keys, a ``Process`` subclass, ``Pool.map``.
"""

from __future__ import annotations

import ast
from typing import Optional

SPAWNS = frozenset({"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes", "torch.multiprocessing.spawn.spawn", "torch.multiprocessing.spawn.start_processes"})
PROCESSES = frozenset({"multiprocessing.Process", "torch.multiprocessing.Process", "multiprocessing.context.Process"})
NAMES = frozenset({"spawn", "start_processes", "Process"})
# The process index ``spawn`` passes first: no name binds it, so it resolves as unknown.
INDEX = "<process index>"
_NONE = object()


def called_by_process(call: ast.Call, qualname: Optional[str]) -> Optional[ast.Call]:
    """The call of the started function that ``call`` (of ``qualname``) makes in each process,
    or None (not such a call, or one dl-lint cannot read). Kept on the node: one per call."""
    found = getattr(call, "_dl_lint_process_call", _NONE)
    if found is _NONE:
        found = _build(call, qualname)
        call._dl_lint_process_call = found  # type: ignore[attr-defined]
    return found


def _build(call: ast.Call, qualname: Optional[str]) -> Optional[ast.Call]:
    if qualname in SPAWNS:
        fn_key, positional = "fn", True
    elif qualname in PROCESSES:
        fn_key, positional = "target", False
        if call.args:
            return None  # ``Process(group, target, ...)`` positionally: not read
    else:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    if None in keywords:
        return None
    fn = keywords.get(fn_key)
    args = keywords.get("args")
    if positional:
        if call.args:
            fn = call.args[0] if fn is None else None
        if len(call.args) > 1:
            args = call.args[1] if args is None else None
        if len(call.args) > 2 or fn is None:
            return None
    if not isinstance(fn, (ast.Name, ast.Attribute)):
        return None
    if args is None:
        elements = []
    elif isinstance(args, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in args.elts):
        elements = list(args.elts)
    else:
        return None
    passed = []
    more = keywords.get("kwargs")
    if more is not None:
        if positional or not isinstance(more, ast.Dict):
            return None
        for key, value in zip(more.keys, more.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            passed.append(ast.keyword(arg=key.value, value=value))
    if positional:
        index = ast.Name(id=INDEX, ctx=ast.Load())
        ast.copy_location(index, call)
        elements.insert(0, index)
    made = ast.Call(func=fn, args=elements, keywords=passed)
    ast.copy_location(made, call)
    made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
    return made
