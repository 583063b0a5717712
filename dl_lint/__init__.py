"""dl-lint: a static linter for PyTorch DataLoader configurations.

The public API is ``lint_paths`` and ``lint_source``; importing this package stays cheap
(libcst is imported only when something is linted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["__version__", "lint_paths", "lint_source"]

if TYPE_CHECKING:
    from dl_lint.engine import lint_paths, lint_source


def __getattr__(name: str) -> Any:
    if name in ("lint_paths", "lint_source"):
        from dl_lint import engine

        return getattr(engine, name)
    raise AttributeError(name)
