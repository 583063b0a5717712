"""Functions called through a dict (issue 25 §3): ``LOADERS[args.data]["train"](args, tok)``
where ``LOADERS = {"msrvtt": {"train": make_msrvtt_train, ...}, ...}`` (or ``LOADERS["msrvtt"]
= {...}`` after ``LOADERS = {}``), a module-level dict of the caller's module or of one it
imports. Each function the dict holds at the subscripted place is a candidate callee: the one
a literal key names, or every function value of that level when the key is unknown. Values
that are not project functions (``None`` for a split a dataset lacks, a lambda, a class) are
no candidates. The call is then judged once per candidate, as a direct call of it would be
(``judge.judge_call_sites``)."""

from __future__ import annotations

import ast
from typing import Any, List

from dl_lint.analysis.syntax import NO_LITERAL, literal
from dl_lint.analysis.values import DictValue, FunctionRef

# More candidates than this at one call: not followed (a generated registry, not a table).
MAX_CANDIDATES = 32


def dispatched(resolver: Any, func: ast.Subscript, site: Any) -> List[FunctionRef]:
    """The project functions ``func`` (a chain of subscripts of a dict) may denote."""
    keys = []
    node: ast.AST = func
    while isinstance(node, ast.Subscript):
        keys.append(node.slice)
        node = node.value
    value = resolver.resolve(node, site)
    current = [p.value for p in value.options or ()]
    for key_node in reversed(keys):
        key = literal(key_node)
        following = []
        for table in current:
            if not isinstance(table, DictValue):
                continue
            if key is NO_LITERAL:
                entries = [entry for _, entry in table.entries]
            else:
                found = table.get(key)
                entries = [found] if found is not None else []
            for entry in entries:
                following.extend(p.value for p in entry.options or ())
        current = following
    out: List[FunctionRef] = []
    seen = set()
    for ref in current:
        if isinstance(ref, FunctionRef) and ref.kind == "function" and ref.path and (ref.path, ref.name) not in seen:
            seen.add((ref.path, ref.name))
            out.append(ref)
    return out if len(out) <= MAX_CANDIDATES else []
