"""A second opinion on which calls construct torch's DataLoader, built only on the standard
library's ``ast`` and independent of dl-lint's own analysis: ``find_loader_calls`` gives the
rows of the calls whose callee is torch's DataLoader by a direct import spelling:

- ``from torch.utils.data import DataLoader [as X]``; ``from torch.utils.data.dataloader import DataLoader``
- ``import torch`` (or ``import torch.utils.data``) + ``torch.utils.data[.dataloader].DataLoader``
- ``import torch.utils.data as tud`` + ``tud.DataLoader``
- ``from torch.utils import data`` + ``data.DataLoader`` (also ``from torch import utils``,
  ``from torch.utils.data import dataloader``)

It ignores scopes. ``classify`` explains a difference with dl-lint's analysis: what it
legitimately finds beyond these spellings (``partial``, names bound by assignment, subclasses,
torchdata's StatefulDataLoader, ...), and what it legitimately skips (a name shadowed by a local
class, parameter or variable). ``compare`` returns the differences with their category;
"unexplained" is a bug in one of the two.
"""

from __future__ import annotations

import ast
import warnings
from typing import Dict, Iterable, List, Optional, Set, Tuple

TORCH_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})

# Categories of calls dl-lint's analysis finds and this oracle does not (all legitimate).
EXPECTED_ANALYSIS_EXTRA = {
    "partial": "functools.partial(DataLoader, ...) or a name bound to one",
    "alias-assignment": "a name (or attribute) bound to the class by assignment, or a conditional callee",
    "subclass": "a class deriving from DataLoader that keeps its signature",
    "base-init": "super().__init__(...) (or Base.__init__(self, ...)) in the __init__ of a class deriving from a loader: it constructs the base",
    "stateful": "torchdata's StatefulDataLoader",
    "aliased-module": "the torch module or a submodule reached through an assignment",
    "library": "a loader class of a library whose mapping to torch's arguments dl-lint read (torch_geometric, webdataset)",
}
# The libraries of dl-lint's table of loader classes (dl_lint/analysis/library_loaders.py).
LIBRARY_PACKAGES = frozenset({"torch_geometric", "webdataset"})
# Categories of calls this oracle finds and dl-lint's analysis does not (all legitimate).
EXPECTED_ORACLE_EXTRA = {
    "shadowed": "the callee's name is rebound in an enclosing scope (local class, parameter, variable)",
}


def parse(source: str) -> Optional[ast.Module]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _imports(tree: ast.AST) -> Dict[str, str]:
    """Local name -> qualified name, for every import anywhere in the module."""
    bound: Dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def dotted(expr: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        parts.append(expr.id)
        return ".".join(reversed(parts))
    return None


def qualified(expr: ast.AST, imports: Dict[str, str]) -> Optional[str]:
    name = dotted(expr)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    if head not in imports:
        return None
    return imports[head] + (f".{rest}" if rest else "")


def find_loader_calls(source: str) -> Set[int]:
    """Rows of calls of torch's DataLoader (by the direct spellings above)."""
    tree = parse(source)
    if tree is None:
        return set()
    imports = _imports(tree)
    return {
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and qualified(node.func, imports) in TORCH_LOADERS
    }


# -- explaining differences ------------------------------------------------------------------------


def _parents(tree: ast.AST) -> Dict[ast.AST, ast.AST]:
    out = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[child] = node
    return out


def _calls_at(tree: ast.AST, row: int) -> List[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno == row]


def _bound_in(scope: ast.AST, name: str) -> bool:
    """Whether ``name`` is bound directly in ``scope`` (not in nested functions or classes)."""
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = scope.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(p is not None and p.arg == name for p in params):
            return True
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
            continue  # its body is another scope
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                module = getattr(node, "module", None) or ""
                if local == name and not (module.startswith("torch") or alias.name.startswith("torch")):
                    return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _loader_names(tree: ast.AST, imports: Dict[str, str]) -> Set[str]:
    """Names (and attribute names) bound, by assignment, to something mentioning a loader
    class or a torch module, to a fixpoint; and classes deriving from one."""
    names = {local for local, qual in imports.items() if qual in TORCH_LOADERS or qual.endswith("DataLoader")}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            targets: List[ast.AST] = []
            used: Iterable[ast.AST] = ()
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                used = [node.value]
            elif isinstance(node, ast.ClassDef):
                targets, used = [], node.bases
                if any(_mentions(b, names, imports) for b in used) and node.name not in names:
                    names.add(node.name)
                    changed = True
                continue
            if any(_mentions(u, names, imports) for u in used):
                for target in targets:
                    for sub in ast.walk(target):
                        bound = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
                        if bound and bound not in names:
                            names.add(bound)
                            changed = True
    return names


def _mentions(expr: ast.AST, names: Set[str], imports: Dict[str, str]) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in names:
            return True
        if isinstance(node, ast.Attribute) and (node.attr in names or qualified(node, imports) in TORCH_LOADERS):
            return True
    return False


def classify(source: str, row: int, found_by: str) -> str:
    """Why the call at ``row`` is found by one side only (``found_by``: "analysis" or "oracle")."""
    tree = parse(source)
    if tree is None:
        return "unexplained"
    imports = _imports(tree)
    calls = _calls_at(tree, row)
    if found_by == "oracle":
        parents = _parents(tree)
        for call in calls:
            if qualified(call.func, imports) not in TORCH_LOADERS:
                continue
            head = dotted(call.func).split(".")[0]
            scope = parents.get(call)
            while scope is not None:
                if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
                    if _bound_in(scope, head):
                        return "shadowed"
                scope = parents.get(scope)
        return "unexplained"
    loader_names = _loader_names(tree, imports)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "__init__":
            owner = next(
                (
                    n
                    for n in ast.walk(tree)
                    if isinstance(n, ast.ClassDef)
                    and any(isinstance(m, ast.FunctionDef) and m.name == "__init__" and call in ast.walk(m) for m in n.body)
                ),
                None,
            )
            if owner is not None and owner.bases and _mentions(owner.bases[0], loader_names, imports):
                return "base-init"
        name = dotted(func) or ""
        terminal = name.rsplit(".", 1)[-1]
        qual = qualified(func, imports) or ""
        if "StatefulDataLoader" in (qual, terminal) or qual.endswith(".StatefulDataLoader"):
            return "stateful"
        if qual.split(".", 1)[0] in LIBRARY_PACKAGES:
            return "library"
        if isinstance(func, ast.Call) and (dotted(func.func) or "").endswith("partial"):
            return "partial"
        if isinstance(func, (ast.IfExp, ast.BoolOp)):
            return "alias-assignment"
        definition = next(
            (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == terminal), None
        )
        if definition is not None and terminal in loader_names:
            return "subclass"
        if terminal in loader_names:
            assigned = [
                n.value
                for n in ast.walk(tree)
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
                and any(
                    (isinstance(t, ast.Name) and t.id == terminal) or (isinstance(t, ast.Attribute) and t.attr == terminal)
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                )
            ]
            if any(isinstance(v, ast.Call) and (dotted(v.func) or "").endswith("partial") for v in assigned):
                return "partial"
            return "alias-assignment"
        head = name.split(".")[0]
        if head and head not in imports and name.endswith("DataLoader"):
            return "aliased-module"
    return "unexplained"


def compare(source: str, analysis_rows: Iterable[int]) -> List[Tuple[int, str, str]]:
    """Differences as (row, found by, category)."""
    oracle = find_loader_calls(source)
    found = set(analysis_rows)
    out = [(row, "analysis", classify(source, row, "analysis")) for row in sorted(found - oracle)]
    out += [(row, "oracle", classify(source, row, "oracle")) for row in sorted(oracle - found)]
    return sorted(out)
