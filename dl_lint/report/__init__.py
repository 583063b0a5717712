"""Diagnostics -> text, in the output formats of ``--output-format``. Pure: no I/O.

Every renderer returns the complete output as one string that ends with a newline (or is empty),
so the caller writes it as is, e.g. ``click.echo(text, nl=False)``.
"""

from __future__ import annotations

from typing import Sequence

from ..model import Diagnostic

__all__ = ["FORMATS", "render"]

FORMATS = ("concise", "json")


def render(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    *,
    color: bool = False,
    files_checked: int = 0,
) -> str:
    """Render ``diagnostics`` in format ``fmt`` (one of :data:`FORMATS`).

    ``color`` only affects ``concise``. ``files_checked`` is accepted for future summaries and is
    currently unused by every format. Raises ValueError for an unknown format.
    """
    if fmt == "concise":
        from .text import render as render_text

        return render_text(diagnostics, color=color, files_checked=files_checked)
    if fmt == "json":
        from .json import render as render_json

        return render_json(diagnostics)
    raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}")
