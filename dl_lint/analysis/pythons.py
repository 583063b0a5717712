"""Which Pythons and platforms a project targets, and what that says about the start method of
DataLoader workers (DL202, DL203).

CPython's defaults, read in its documentation: Windows has only spawn; macOS defaults to spawn
from Python 3.8 (bpo-33725, ``Doc/library/multiprocessing.rst`` "Changed in version 3.8"); every
other platform defaults to fork up to 3.13 and to forkserver from 3.14 ("What's new in Python
3.14", Incompatible changes: "On platforms other than macOS and Windows, the default start
method for multiprocessing ... switches from fork to forkserver"). Under spawn and forkserver a
worker receives the dataset, collate_fn and worker_init_fn pickled, and re-imports the main
script. So the failure DL202 and DL203 predict is certain when every allowed Python is 3.14 or
later, or when the project runs only on macOS and Windows; when it is not certain, they warn.

The allowed Pythons come from a PEP 440 specifier (``requires-python``, or the ``target-python``
setting), read conservatively: only a clause that bounds the version from below (``>=``, ``>``,
``~=``, ``==``, ``===``) raises the lowest allowed (major, minor); ``<``, ``<=`` and ``!=`` never do.
``>3.13`` allows 3.13.1, so its lowest minor is 3.13.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Tuple

from dl_lint.record import Record

FORKSERVER_FROM = (3, 14)  # Linux and other POSIX: forkserver by default from this Python
MACOS_SPAWN_FROM = (3, 8)  # macOS: spawn by default from this Python

_CLAUSE = re.compile(
    r"^\s*(~=|===|==|!=|<=|>=|<|>)\s*"
    r"v?([0-9]+(?:\.[0-9]+)*)(\.\*)?"  # release, with a trailing .* only for == and !=
    r"((?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?"
    r"(?:[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?(?:\+[a-z0-9.]+)?)\s*$",
    re.IGNORECASE,
)
_PLAIN = re.compile(r"^\s*([0-9]+)\.([0-9]+)\s*$")


def lowest_python(specifier: str) -> Optional[Tuple[int, int]]:
    """The lowest (major, minor) every version a specifier allows is at or above; None when no
    clause bounds it from below. A bare ``"3.14"`` (the ``target-python`` setting) means that
    Python. Raises ValueError for text that is not a specifier."""
    if not isinstance(specifier, str) or not specifier.strip():
        raise ValueError(f"not a version specifier: {specifier!r}")
    plain = _PLAIN.match(specifier)
    if plain is not None:
        return int(plain.group(1)), int(plain.group(2))
    lowest: Optional[Tuple[int, int]] = None
    for clause in specifier.split(","):
        match = _CLAUSE.match(clause)
        if match is None:
            raise ValueError(f"not a version specifier: {specifier!r}")
        op, release, wildcard, _suffix = match.groups()
        if wildcard and op not in ("==", "!="):
            raise ValueError(f"not a version specifier: {specifier!r}")
        if op == "~=" and "." not in release:
            raise ValueError(f"not a version specifier: {specifier!r}")  # ~= needs two parts
        if op in ("<", "<=", "!="):
            continue
        parts = [int(p) for p in release.split(".")]
        bound = (parts[0], parts[1] if len(parts) > 1 else 0)
        lowest = bound if lowest is None or bound > lowest else lowest
    return lowest


def platforms(classifiers: Iterable[str]) -> frozenset:
    """The operating systems a project's ``Operating System ::`` classifiers name: "macos",
    "windows", or "other" (Linux, POSIX, OS Independent, anything else)."""
    found = set()
    for classifier in classifiers:
        if not isinstance(classifier, str) or not classifier.startswith("Operating System ::"):
            continue
        rest = classifier[len("Operating System ::") :].strip()
        if rest.startswith("MacOS"):
            found.add("macos")
        elif rest.startswith("Microsoft :: Windows"):
            found.add("windows")
        else:
            found.add("other")
    return frozenset(found)


class StartMethodTarget(Record):
    """Workers certainly start with spawn or forkserver: ``methods`` says which ("forkserver or
    spawn", "spawn"), ``why`` the target that decides it ("Python >=3.14 (requires-python)"),
    ``detail`` the longer account for a diagnostic's detail."""

    __slots__ = ("methods", "why", "detail", "path", "line")

    def __init__(self, methods: str, why: str, detail: str = "", path: Optional[str] = None, line: Optional[int] = None) -> None:
        self.methods = methods
        self.why = why
        self.detail = detail
        self.path = path  # the file and line that state the target (pyproject.toml), when known
        self.line = line


def start_method_target(
    specifier: Optional[str], source: str, classifiers: Iterable[str] = (), python_floor: Tuple[int, int] = (3, 8)
) -> Optional[StartMethodTarget]:
    """Whether the default start method is spawn or forkserver wherever the project runs.
    ``specifier``: the allowed Pythons (None: not stated); ``source`` names it for messages
    ("requires-python", "target-python"); ``python_floor``: the lowest Python the target torch
    version supports (torch 2.x: 3.8), used when the specifier says less."""
    lowest: Optional[Tuple[int, int]] = None
    if specifier is not None:
        try:
            lowest = lowest_python(specifier)
        except ValueError:
            lowest = None
    if lowest is not None and lowest >= FORKSERVER_FROM:
        allowed = specifier.strip()
        return StartMethodTarget(
            "forkserver or spawn",
            f"Python {allowed} ({source})",
            f"{source} allows only Python {allowed}: from Python 3.14 Linux starts workers with forkserver, "
            "and macOS and Windows with spawn, so no Python the project runs on uses fork.",
        )
    systems = platforms(classifiers)
    floor = max(lowest or python_floor, python_floor)
    if systems and "other" not in systems and (systems == {"windows"} or floor >= MACOS_SPAWN_FROM):
        names = " and ".join(sorted({"macos": "macOS", "windows": "Windows"}[s] for s in systems))
        return StartMethodTarget(
            "spawn",
            f"{names} only (its classifiers)",
            f"The project's Operating System classifiers name only {names}, where workers start with spawn "
            "(Windows always, macOS from Python 3.8).",
        )
    return None
