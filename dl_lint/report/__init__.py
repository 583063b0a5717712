"""Diagnostics -> text, in the output formats of ``--output-format``. Pure: no I/O.

Every renderer returns the complete output as one string that ends with a newline (or is empty),
so the caller writes it as is, e.g. ``click.echo(text, nl=False)``. Whatever a format needs from
the outside world arrives as arguments: source text (``sources``), the repository root that paths
are made relative to (``root``), the list of checked files (``files``).
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from ..model import Diagnostic

__all__ = ["FORMATS", "render", "render_statistics"]

FORMATS = ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab")


def render(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    *,
    color: bool = False,
    files_checked: int = 0,
    sources: Optional[Mapping[str, str]] = None,
    root: Optional[str] = None,
    files: Optional[Sequence[str]] = None,
    fixed: int = 0,
    hidden: int = 0,
    quiet: bool = False,
    documentation_url: Optional[str] = None,
) -> str:
    """Render ``diagnostics`` in format ``fmt`` (one of :data:`FORMATS`).

    - ``color``: ANSI colours; only ``concise`` and ``full`` use it.
    - ``files_checked``: accepted for future summaries; currently unused by every format.
    - ``sources``: filename (as in ``Diagnostic.filename``) -> source text. ``full`` shows snippets
      from it; ``sarif`` and ``gitlab`` fingerprint the reported line's text (else the message).
    - ``root``: the repository root; ``github``, ``sarif`` and ``gitlab`` print paths relative to
      it with forward slashes (None: paths as given).
    - ``files``: every checked file (display names); ``junit`` adds a passing test case for each
      clean one (None: only files with problems are listed).
    - ``fixed``, ``hidden``, ``quiet`` (``concise`` and ``full``): how many diagnostics ``--fix``
      fixed and how many unsafe fixes are not offered, for the summary; ``quiet`` leaves the
      summary out (``-q``).
    - ``documentation_url``: where the rule documentation is published (``json``, ``json-lines``
      and ``sarif`` link each rule there; None: no links).

    Raises ValueError for an unknown format.
    """
    if fmt == "concise":
        from .text import render as render_text

        return render_text(
            diagnostics, color=color, files_checked=files_checked, fixed=fixed, hidden=hidden, quiet=quiet
        )
    if fmt == "full":
        from .full import render as render_full

        return render_full(
            diagnostics,
            color=color,
            files_checked=files_checked,
            sources=sources,
            fixed=fixed,
            hidden=hidden,
            quiet=quiet,
        )
    if fmt == "json":
        from .json import render as render_json

        return render_json(diagnostics, documentation_url)
    if fmt == "json-lines":
        from .json import render_lines

        return render_lines(diagnostics, documentation_url)
    if fmt == "github":
        from .github import render as render_github

        return render_github(diagnostics, root=root)
    if fmt == "sarif":
        from .sarif import render as render_sarif

        return render_sarif(diagnostics, sources=sources, root=root, documentation_url=documentation_url)
    if fmt == "junit":
        from .junit import render as render_junit

        return render_junit(diagnostics, files=files)
    if fmt == "gitlab":
        from .gitlab import render as render_gitlab

        return render_gitlab(diagnostics, sources=sources, root=root)
    raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}")


def render_statistics(diagnostics: Sequence[Diagnostic], *, fmt: str = "concise") -> str:
    """``--statistics``: a JSON array when ``fmt`` is ``json``, else ruff's tab-separated lines."""
    from . import statistics

    return statistics.render_json(diagnostics) if fmt == "json" else statistics.render(diagnostics)
