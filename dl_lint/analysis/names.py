"""How modules and the functions and classes of a project are named across modules."""

from __future__ import annotations


def absolute_module(module: str, current: str, is_package: bool) -> str:
    """``.data`` imported from ``pkg.train`` is ``pkg.data``."""
    if not module.startswith("."):
        return module
    level = len(module) - len(module.lstrip("."))
    parts = current.split(".") if current else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(len(parts) - (level - 1), 0)]
    rest = module[level:]
    return ".".join(parts + ([rest] if rest else []))


def project_key(module: str, name: str, path: str) -> str:
    """How a project function or class is named across modules: ``module.name@path`` (the
    path tells apart scripts of the same module name)."""
    return f"{module}.{name}@{path}" if module else f"{name}@{path}"
