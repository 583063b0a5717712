"""Count DataLoader constructions in source trees: standard library ``ast`` only, no dl-lint.

    python bench/count_loaders.py ROOT [ROOT ...]

One tab-separated line per root: the root, its ``.py`` files, then three counts of calls:

* ``torch``: the count of docs/real-world.md's script: calls spelled ``DataLoader(...)`` or
  ``StatefulDataLoader(...)`` (as a name or an attribute) in files that import DataLoader or
  StatefulDataLoader from ``torch.utils.data`` (or torchdata), import ``torch.utils.data``,
  spell ``torch.utils.data.DataLoader``, or (added here) write ``from torch.utils import data``.
  On the 21 repositories of docs/real-world.md the addition counts 2 more calls (detectron2's
  tests/data/test_sampler.py: 7 instead of 5; 1,003 in all). This is the "loader constructions"
  figure of docs/corpus.md.
* ``subclass``: calls of a class the same root defines as a subclass of torch's DataLoader
  (``class X(DataLoader)`` in a file that imports torch's DataLoader, or
  ``class X(torch.utils.data.DataLoader)``, and classes deriving from those, transitively),
  called by its name anywhere in the root, and not already counted as ``torch``.
* ``library``: calls of the loader classes of graph and streaming libraries that build a torch
  DataLoader inside (torch_geometric's ``*Loader`` classes and its sampler-loaders, dgl's
  ``DataLoader``/``GraphDataLoader``, webdataset's ``WebLoader``), by a name imported from the
  library or an attribute of the library's module, and not already counted as ``torch``.

Notebooks are not counted; files that do not parse are skipped. Classes are matched by name:
the counts are a census of where loaders are built, independent of what dl-lint resolves.
"""

from __future__ import annotations

import ast
import os
import warnings
import sys

TORCH_NAMES = ("DataLoader", "StatefulDataLoader")

# Library modules whose loader classes wrap a torch DataLoader, and which of their names count.
LIBRARY_MODULES = ("torch_geometric", "dgl", "webdataset")


PYG_SAMPLER_LOADERS = (
    "GraphSAINTNodeSampler",
    "GraphSAINTEdgeSampler",
    "GraphSAINTRandomWalkSampler",
    "ShaDowKHopSampler",
)


def _library_name(module: str, name: str) -> bool:
    """Whether ``module.name`` is a library loader class counted in the ``library`` column."""
    top = module.split(".")[0]
    if top == "torch_geometric":
        return name.endswith("Loader") or name in PYG_SAMPLER_LOADERS
    if top == "dgl":
        return name in ("DataLoader", "GraphDataLoader", "NodeDataLoader", "EdgeDataLoader")
    if top == "webdataset":
        return name == "WebLoader"
    return False


def torch_file(tree: ast.AST, text: str) -> bool:
    """The file test of docs/real-world.md's script, plus ``from torch.utils import data``."""
    if "torch.utils.data.DataLoader" in text or "torch.utils.data.dataloader.DataLoader" in text:
        return True
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith(("torch.utils.data", "torchdata"))
            and any(a.name in TORCH_NAMES for a in node.names)
        ):
            return True
        if isinstance(node, ast.Import) and any(a.name.startswith("torch.utils.data") for a in node.names):
            return True
        # Added for docs/corpus.md: `from torch.utils import data` then `data.DataLoader(...)`.
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "torch.utils"
            and any(a.name == "data" for a in node.names)
        ):
            return True
    return False


def _call_name(node: ast.Call):
    return getattr(node.func, "id", getattr(node.func, "attr", None))


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _parse_tree(root: str):
    """Yield (path, text, tree) for every parseable .py file under root, in sorted order."""
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8-sig", errors="replace") as f:
                text = f.read()
            try:
                with warnings.catch_warnings():  # the repository's own SyntaxWarnings are not ours
                    warnings.simplefilter("ignore")
                    tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                yield path, text, None
                continue
            yield path, text, tree


def _subclass_names(files) -> set:
    """Names of classes in the root deriving (transitively) from torch's DataLoader."""
    bases_of = {}
    direct = set()
    for _, text, tree, is_torch in files:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            names = set()
            for base in node.bases:
                dotted = _dotted(base)
                if not dotted:
                    continue
                last = dotted.rsplit(".", 1)[-1]
                spelled_torch = dotted in (
                    "torch.utils.data.DataLoader",
                    "torch.utils.data.dataloader.DataLoader",
                )
                if spelled_torch or (last in TORCH_NAMES and is_torch):
                    direct.add(node.name)
                names.add(last)
            bases_of.setdefault(node.name, set()).update(names)
    found = set(direct)
    changed = True
    while changed:
        changed = False
        for cls, bases in bases_of.items():
            if cls not in found and bases & found:
                found.add(cls)
                changed = True
    return found - set(TORCH_NAMES)


def _library_calls(tree: ast.AST, counted: set) -> int:
    names = set()
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(LIBRARY_MODULES):
            for alias in node.names:
                if _library_name(node.module, alias.name):
                    names.add(alias.asname or alias.name)
                elif node.module.split(".")[0] in LIBRARY_MODULES:
                    # `from torch_geometric import loader` / `from dgl import dataloading`
                    modules.add((alias.asname or alias.name, node.module + "." + alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(LIBRARY_MODULES):
                    modules.add(
                        (
                            alias.asname or alias.name.split(".")[0],
                            alias.name if alias.asname else alias.name.split(".")[0],
                        )
                    )
    if not names and not modules:
        return 0
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in counted:
            continue
        if isinstance(node.func, ast.Name) and node.func.id in names:
            count += 1
        elif isinstance(node.func, ast.Attribute):
            dotted = _dotted(node.func)
            head, _, rest = dotted.partition(".")
            for local, module in modules:
                if head == local and rest:
                    full = module + "." + rest
                    module_path, _, cls = full.rpartition(".")
                    if _library_name(module_path, cls):
                        count += 1
                        break
    return count


def count_root(root: str):
    files = []
    py_files = 0
    for path, text, tree in _parse_tree(root):
        py_files += 1
        if tree is None:
            continue
        files.append((path, text, tree, "DataLoader" in text and torch_file(tree, text)))
    subclasses = _subclass_names(files)
    torch_calls = subclass_calls = library_calls = 0
    for _, text, tree, is_torch in files:
        counted = set()
        if is_torch:
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _call_name(node) in TORCH_NAMES:
                    counted.add(id(node))
            torch_calls += len(counted)
        if subclasses:
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and id(node) not in counted and _call_name(node) in subclasses:
                    counted.add(id(node))
                    subclass_calls += 1
        library_calls += _library_calls(tree, counted)
    return py_files, torch_calls, subclass_calls, library_calls


def main(argv) -> int:
    if not argv or any(a.startswith("-") for a in argv):
        sys.stderr.write(__doc__)
        return 2
    print("root\tpy_files\ttorch\tsubclass\tlibrary")
    for root in argv:
        if not os.path.isdir(root):
            sys.stderr.write(f"count_loaders: not a folder: {root}\n")
            return 2
        py_files, torch_calls, subclass_calls, library_calls = count_root(root)
        print(f"{root}\t{py_files}\t{torch_calls}\t{subclass_calls}\t{library_calls}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
