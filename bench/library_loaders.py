"""Write the table of ``dl_lint/analysis/library_loaders.py`` from installed libraries' source.

    python bench/library_loaders.py            # rewrite the table (torch_geometric must be installed)
    python bench/library_loaders.py --check    # exit 1 when the table differs from the source

Each library is indexed as if it were a project (``dl_lint.analysis.project.Project`` over its
installed package folder) and every class is asked what the project asks of its own classes
(``SummaryModule.is_loader_class``): whether it derives from torch's DataLoader and how its
``__init__`` passes its arguments on (``analysis.subclasses.read_init``). The readable ones are
written, with the version read; the others are printed (they stay unknown to dl-lint).
Nothing of the library is imported or run: its files are read.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import pprint
import sys
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
TABLE_FILE = HERE.parent / "dl_lint" / "analysis" / "library_loaders.py"
NAMES_FILE = HERE.parent / "dl_lint" / "analysis" / "library_packages.py"
sys.path.insert(0, str(HERE.parent))

# (import name, distribution name): the libraries whose loaders are read.
LIBRARIES = (("torch_geometric", "torch_geometric"), ("webdataset", "webdataset"))
TORCH_LOADER = "torch.utils.data.DataLoader"
_BEGIN = "# fmt: off\nTABLE: Dict[str, Tuple[str, str, Tuple[Tuple[str, str, int, Tuple], ...]]] = {\n"
_END = "}\n# fmt: on\n"
_NAMES_BEGIN = "# fmt: off\nLIBRARY_PACKAGES = "
_NAMES_END = "# fmt: on\n"


def read_library(package: str, distribution: str) -> Tuple[Dict[str, tuple], List[str]]:
    """(rows, unreadable): the table's rows for one installed library, and the classes that
    derive from a loader (by their bases' names) whose mapping cannot be read."""
    from dl_lint.analysis.project import Project
    from dl_lint.analysis.subclasses import UNREADABLE

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"library_loaders: {package} is not installed")
    root = Path(list(spec.submodule_search_locations)[0])
    version = f"{package} {importlib.metadata.version(distribution)}"
    project = Project(root)
    modules = sorted(name for name in project.module_paths() if name == package or name.startswith(package + "."))
    defined: Dict[Tuple[str, str], tuple] = {}  # (module, class) -> row
    records: Dict[str, tuple] = {}  # key of a signature -> (module, record)
    loaders_by_name = set()
    for module in modules:
        summary = project.summary(module)
        if summary is None:
            continue
        for record in summary.summary.classes:
            records[f"{module}.{record.name}"] = (summary, record)
    for module in modules:
        summary = project.summary(module)
        if summary is None:
            continue
        for record in summary.summary.classes:
            found = summary.is_loader_class(record.name, 0)
            if found is None:
                continue
            loaders_by_name.add(record.name)
            levels = []
            for signature in found.chain:
                owner, level = records[signature.key[0]]
                path = os.path.relpath(owner.path, root.parent)
                levels.append((signature.key[0], path, level.init[8], level.init))
            defined[(module, record.name)] = (version, found.qualname, tuple(levels))
    for module in modules:  # wrappers: webdataset's WebLoader builds DataLoader(*args, **kw)
        summary = project.summary(module)
        if summary is None:
            continue
        for record in summary.summary.classes:
            if (module, record.name) in defined:
                continue
            init = _wrapper_init(summary, record)
            if init is not None:
                path = os.path.relpath(summary.path, root.parent)
                defined[(module, record.name)] = (version, TORCH_LOADER, ((f"{module}.{record.name}", path, init[8], init),))
    for module in modules:  # ``NeighborSampler = deprecated(...)(NeighborSampler)``
        summary = project.summary(module)
        if summary is None:
            continue
        for name, target in _kept_classes(summary):
            ref = _imported_class(summary, target)
            if ref is not None and (ref.module, ref.name) in defined:
                defined.setdefault((module, name), defined[(ref.module, ref.name)])
    rows: Dict[str, tuple] = {}
    for (module, name), row in defined.items():
        rows[f"{module}.{name}"] = row
    for module in modules:  # re-exports: ``from .neighbor_loader import NeighborLoader``
        summary = project.summary(module)
        if summary is None or not summary.summary.is_package:
            continue  # a package's public names, not every module's imports
        for binding in summary.summary.bindings:
            if binding.kind != "import":
                continue
            value = summary.global_value(binding.name, 0)
            single = value.single
            ref = single.value if single is not None else None
            if getattr(ref, "kind", None) == "class" and (ref.module, ref.name) in defined:
                rows.setdefault(f"{module}.{binding.name}", defined[(ref.module, ref.name)])
    unreadable = []
    for key, (summary, record) in sorted(records.items()):
        if record.init == UNREADABLE and any(b.rsplit(".", 1)[-1] in loaders_by_name | {"DataLoader"} for b in record.bases):
            unreadable.append(f"{key} ({os.path.relpath(summary.path, root.parent)}:{record.line})")
    return rows, unreadable


# Decorators that, applied to a class, return a subclass whose ``__init__`` does what the
# class's does with the same arguments, read in their source: torch_geometric 2.8.1's
# ``deprecation.deprecated`` makes ``type(name, (cls,), {})`` with ``__init__`` a wrapper that warns
# and calls ``cls.__init__(*args, **kwargs)`` (deprecation.py:14-19, 21-27). Its aliases
# (``torch_geometric.data.NeighborSampler``, ``.DataLoader``, ``loader.RandomNodeSampler``, ...,
# data/__init__.py:89-135, loader/__init__.py:55-58) bind their calls as the class they wrap.
KEEP_INIT_DECORATORS = frozenset({"torch_geometric.deprecation.deprecated"})


def _kept_classes(summary) -> List[Tuple[str, str]]:
    """(alias, wrapped name) for each module-level ``ALIAS = DECORATOR(...)(NAME)`` of the
    module, DECORATOR one of ``KEEP_INIT_DECORATORS`` (resolved in the module), bound once."""
    import ast

    from dl_lint.analysis.scopes import END

    text = Path(summary.path).read_text(encoding="utf-8")
    if "deprecated" not in text:
        return []
    tree = ast.parse(text)
    counts: Dict[str, int] = {}
    found = []
    for statement in tree.body:
        for target in getattr(statement, "targets", ()):
            if isinstance(target, ast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
            continue
        value = statement.value
        if not (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and len(value.args) == 1
            and not value.keywords and isinstance(value.args[0], ast.Name)
        ):
            continue
        decorator = summary.resolver.resolve(value.func.func, END).single
        ref = decorator.value if decorator is not None else None
        if getattr(ref, "kind", None) != "function" or f"{ref.module}.{ref.name}" not in KEEP_INIT_DECORATORS:
            continue
        found.append((statement.targets[0].id, value.args[0].id))
    return [(name, target) for name, target in found if counts.get(name) == 1]


def _imported_class(summary, name: str):
    """The class the module's one import of ``name`` binds (the value an alias wraps, before
    the alias rebinds the name), or None."""
    from dl_lint.analysis.scopes import END

    _, bindings = summary.resolver.lookup(name, END)
    imports = [b for b in bindings if b.kind == "import"]
    if len(imports) != 1:
        return None
    value = summary.resolver.resolve_binding(imports[0], name, END, 0).single
    ref = value.value if value is not None else None
    return ref if getattr(ref, "kind", None) == "class" else None


def _wrapper_init(summary, record) -> "tuple | None":
    """The ``read_init`` data of a class that is torch's DataLoader under another name: its
    ``__init__(self, *args, **kw)`` does one thing, build ``DataLoader(*args, **kw)`` (torch's:
    the name resolves to it, or to a stand-in the library defines only where torch cannot be
    imported), and hands it on (to ``super().__init__`` or an attribute). A call of the class
    passes its arguments to torch's DataLoader as written, so it is judged as that call; the
    data reads as a subclass whose ``__init__`` is ``super().__init__(*args, **kw)``. Whether
    iterating an instance iterates the loader is the library's (read in its source: see the
    table's documentation in dl_lint/analysis/library_loaders.py)."""
    import ast

    tree = ast.parse(Path(summary.path).read_text(encoding="utf-8"))
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == record.name and n.lineno == record.line), None)
    init = next((s for s in getattr(node, "body", ()) if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or init.decorator_list:
        return None
    arguments = init.args
    if (
        len(arguments.args) != 1 or arguments.posonlyargs or arguments.kwonlyargs
        or arguments.vararg is None or arguments.kwarg is None
    ):
        return None
    varargs, varkw = arguments.vararg.arg, arguments.kwarg.arg
    body = [s for s in init.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1:
        return None
    calls = [n for n in ast.walk(body[0]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    built = [c for c in calls if _is_torch_loader(summary, c.func.id)]
    if len(built) != 1:
        return None
    call = built[0]
    plain = (
        len(call.args) == 1 and isinstance(call.args[0], ast.Starred) and isinstance(call.args[0].value, ast.Name)
        and call.args[0].value.id == varargs and len(call.keywords) == 1 and call.keywords[0].arg is None
        and isinstance(call.keywords[0].value, ast.Name) and call.keywords[0].value.id == varkw
    )
    uses = [n for n in ast.walk(body[0]) if isinstance(n, ast.Name) and n.id in (varargs, varkw)]
    if not plain or len(uses) != 2:
        return None
    return ((), varargs, varkw, "super", (("*", "", "param", varargs), ("**", "", "param", varkw)), (), False, False, init.lineno)


def _is_torch_loader(summary, name: str) -> bool:
    """Whether ``name`` in the module is torch's DataLoader: every value it can have is, or is
    a class the library defines in an ``except ImportError`` (``ModuleNotFoundError``) handler
    for when torch is not installed (webdataset's ``pytorch.py``)."""
    import ast

    value = summary.global_value(name, 0)
    options = value.options or ()
    if not any(getattr(o.value, "qualname", None) == TORCH_LOADER for o in options):
        return False
    for option in options:
        ref = option.value
        if getattr(ref, "qualname", None) == TORCH_LOADER:
            continue
        if getattr(ref, "kind", None) != "class" or not ref.path:
            return False
        tree = ast.parse(Path(ref.path).read_text(encoding="utf-8"))
        handlers = [h for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler)]
        if not any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            and any(isinstance(s, ast.ClassDef) and s.name == ref.name and s.lineno == ref.line for s in h.body)
            for h in handlers
        ):
            return False
    return True


def render(rows: Dict[str, tuple]) -> str:
    body = "".join(f"    {key!r}: {pprint.pformat(rows[key], width=110, compact=True)},\n".replace("\n ", "\n     ") for key in sorted(rows))
    return _BEGIN + body + _END


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table instead of writing it")
    options = parser.parse_args()
    rows: Dict[str, tuple] = {}
    for package, distribution in LIBRARIES:
        found, unreadable = read_library(package, distribution)
        rows.update(found)
        for line in unreadable:
            print(f"unknown (mapping not readable): {line}")
    text = TABLE_FILE.read_text()
    start, end = text.index(_BEGIN), text.index(_END) + len(_END)
    new = text[:start] + render(rows) + text[end:]
    names = NAMES_FILE.read_text()
    start, end = names.index(_NAMES_BEGIN), names.index(_NAMES_END) + len(_NAMES_END)
    packages = sorted({name.split(".", 1)[0] for name in rows} | {p for p, _ in LIBRARIES})
    short = sorted({name.rsplit(".", 1)[1] for name in rows})
    constants = (
        f"{_NAMES_BEGIN}frozenset({{{', '.join(repr(p) for p in packages)}}})\n"  # sorted: a set's repr varies by run
        f"SHORT_NAMES = frozenset(\n    {pprint.pformat(set(short), width=100, compact=True)}\n)\n{_NAMES_END}"
    )
    new_names = names[:start] + constants + names[end:]
    if options.check:
        if new != text or new_names != names:
            print("library_loaders: the table differs from the installed libraries' source", file=sys.stderr)
            return 1
        print(f"library_loaders: {len(rows)} rows match")
        return 0
    TABLE_FILE.write_text(new)
    NAMES_FILE.write_text(new_names)
    print(f"library_loaders: wrote {len(rows)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
