"""The data that flows between dl-lint's stages: small, frozen, import-free."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional, Tuple


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:  # "error", not "Severity.ERROR"
        return self.value


@dataclass(frozen=True, order=True)
class Location:
    """A position in a source file: 1-based row, 1-based column (ruff's convention)."""

    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between ``location`` and ``end_location`` with ``content``."""

    content: str
    location: Location
    end_location: Location


@dataclass(frozen=True)
class Fix:
    applicability: str  # "safe" | "unsafe"
    message: str
    edits: Tuple[Edit, ...]


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    severity: Severity
    message: str
    filename: str
    location: Location
    end_location: Location
    fix: Optional[Fix] = None
    # Rows of the whole reported statement/call: a ``# noqa`` on any of them applies.
    noqa_rows: Tuple[int, int] = field(default=(0, 0), compare=False)
    cell: Optional[int] = None

    @property
    def noqa_row(self) -> int:
        return self.noqa_rows[0] or self.location.row

    @property
    def url(self) -> str:
        return f"https://github.com/dl-lint/dl-lint/blob/main/docs/rules.md#{self.code.lower()}"

    def sort_key(self) -> tuple:
        # Notebooks: rows restart in every cell, so the cell sorts first (None: a plain file).
        return (self.filename, self.cell or 0, self.location.row, self.location.column, self.code)
