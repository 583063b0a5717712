"""The data that flows between dl-lint's stages: small, frozen, import-free."""

from __future__ import annotations

import enum
from typing import Optional, Tuple

from dl_lint.record import Record


# Where dl-lint's rule documentation (docs/rules.md) is published, for the rule links of JSON
# ``url``, SARIF ``helpUri`` / ``informationUri`` and the language server's ``codeDescription``.
# Not published yet, so None: no link is printed rather than one to a place that does not exist.
# Whoever publishes dl-lint sets it here (docs/releasing.md); users set it with the
# ``documentation-url`` setting or the DL_LINT_DOCUMENTATION_URL environment variable
# (``config.documentation_url`` decides which applies). ``dl-lint rule CODE`` is the offline way.
DOCUMENTATION_URL: Optional[str] = None


def rule_url(code: str, documentation_url: Optional[str]) -> Optional[str]:
    """The link to a rule's documentation: ``documentation_url`` with ``{code}`` replaced by the
    code in lower case when it holds that placeholder (a page per rule), else with the rule's
    anchor, ``#dl001``, in place of any fragment (one page, docs/rules.md). None without a URL."""
    if not documentation_url:
        return None
    if "{code}" in documentation_url:
        return documentation_url.replace("{code}", code.lower())
    return f"{documentation_url.split('#', 1)[0]}#{code.lower()}"


def information_url(documentation_url: Optional[str]) -> Optional[str]:
    """The page about dl-lint as a whole (SARIF's ``informationUri``): the rules page, without
    a fragment; None without a URL, or when the URL has a page per rule (``{code}``)."""
    if not documentation_url or "{code}" in documentation_url:
        return None
    return documentation_url.split("#", 1)[0]


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:  # "error", not "Severity.ERROR"
        return self.value


class Location(Record):
    """A position in a source file: 1-based row, 1-based column (ruff's convention). Locations
    order by row, then column."""

    __slots__ = ("row", "column")

    def __init__(self, row: int, column: int) -> None:
        self.row = row
        self.column = column

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not Location:
            return NotImplemented
        return (self.row, self.column) < (other.row, other.column)  # type: ignore[attr-defined]

    def __le__(self, other: object) -> bool:
        if other.__class__ is not Location:
            return NotImplemented
        return (self.row, self.column) <= (other.row, other.column)  # type: ignore[attr-defined]

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not Location:
            return NotImplemented
        return (self.row, self.column) > (other.row, other.column)  # type: ignore[attr-defined]

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not Location:
            return NotImplemented
        return (self.row, self.column) >= (other.row, other.column)  # type: ignore[attr-defined]


class Edit(Record):
    """Replace the text between ``location`` and ``end_location`` with ``content``."""

    __slots__ = ("content", "location", "end_location")

    def __init__(self, content: str, location: Location, end_location: Location) -> None:
        self.content = content
        self.location = location
        self.end_location = end_location


class Fix(Record):
    __slots__ = ("applicability", "message", "edits")

    def __init__(self, applicability: str, message: str, edits: Tuple[Edit, ...]) -> None:
        self.applicability = applicability  # "safe" | "unsafe"
        self.message = message
        self.edits = edits


class Related(Record):
    """A place a diagnostic cites (where a dataset class is defined, the loader a call
    configures). ``path`` is absolute, so a cached diagnostic stays right whatever folder the
    next run starts in; reporters print it in the same form as the diagnostic's own path."""

    __slots__ = ("path", "row", "column", "note", "cell")

    def __init__(self, path: str, row: int, column: int, note: str, cell: Optional[int] = None) -> None:
        self.path = path
        self.row = row
        self.column = column
        self.note = note  # a short phrase: "LineStream is defined here"
        self.cell = cell  # in a notebook: the cell (numbered as Jupyter shows them), rows within it

    def position(self) -> str:
        """``row:col``, or ``cell N:row:col`` in a notebook (as a diagnostic's own position)."""
        where = f"{self.row}:{self.column}"
        return f"cell {self.cell}:{where}" if self.cell is not None else where


class Diagnostic(Record):
    """``message`` is one short sentence, what is wrong and what happens at runtime (the
    concise line); ``detail`` the rest: torch's own error text, the numbers behind it, and what to
    write instead (the full format, JSON, SARIF, GitHub annotations, the language server)."""

    __slots__ = (
        "code", "name", "severity", "message", "filename", "location", "end_location", "fix",
        "noqa_rows", "cell", "detail", "related", "evidence", "suppressed_at",
    )  # fmt: skip
    _uncompared = frozenset({"noqa_rows", "evidence"})

    def __init__(
        self,
        code: str,
        name: str,
        severity: Severity,
        message: str,
        filename: str,
        location: Location,
        end_location: Location,
        fix: Optional[Fix] = None,
        # Rows of the whole reported statement/call: a ``# noqa`` on any of them applies.
        noqa_rows: Tuple[int, int] = (0, 0),
        cell: Optional[int] = None,
        detail: str = "",
        related: Tuple[Related, ...] = (),
        # Absolute paths of the other files the finding rests on: its related locations and the
        # files its values come from. A run naming one of them reports the finding (issue 26).
        evidence: Tuple[str, ...] = (),
        # Set only while a run that reports unused noqa directives (DL012) is being judged:
        # this diagnostic is silenced by a directive in (absolute path, first row, last row); the
        # run drops it once DL012 has counted it (``dl_lint.unused_noqa``).
        suppressed_at: Optional[Tuple[str, int, int]] = None,
    ) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.message = message
        self.filename = filename
        self.location = location
        self.end_location = end_location
        self.fix = fix
        self.noqa_rows = noqa_rows
        self.cell = cell
        self.detail = detail
        self.related = related
        self.evidence = evidence
        self.suppressed_at = suppressed_at

    @property
    def noqa_row(self) -> int:
        return self.noqa_rows[0] or self.location.row

    @property
    def full_message(self) -> str:
        """The short message and its detail as one paragraph."""
        return f"{self.message} {self.detail}" if self.detail else self.message

    def sort_key(self) -> tuple:
        # Notebooks: rows restart in every cell, so the cell sorts first (None: a plain file).
        return (self.filename, self.cell or 0, self.location.row, self.location.column, self.code)
