"""A file being linted: where it is, how it is shown, its settings, its bytes and source, and the
DL000 diagnostics for what went wrong reading it. Notebooks are read as the Python of their code
cells, with a map back to cells and rows.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

from dl_lint.model import Diagnostic, Location, Severity
from dl_lint.record import Record

if TYPE_CHECKING:
    from dl_lint.analysis.module import ModuleFacts
    from dl_lint.reading import Refused
    from dl_lint.config import Settings
    from dl_lint.notebook import CellMap


class SourceFile(Record):
    """Mutable (reading and analysing fill it in), so not hashable."""

    __slots__ = (
        "path", "display", "module_name", "settings", "data", "source", "facts", "errors", "cell_map", "abspath",
    )  # fmt: skip
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        path: Path,
        display: str,
        module_name: str,
        settings: "Settings",
        data: bytes = b"",
        source: Optional[str] = None,
        facts: Optional["ModuleFacts"] = None,
        errors: Optional[List[Diagnostic]] = None,  # None: a new empty list
        # Notebooks: ``data``/``source`` hold the code cells as Python; rows map back through this.
        cell_map: Optional["CellMap"] = None,
        abspath: str = "",  # os.path.abspath(path), computed once (files found by lint_paths)
    ) -> None:
        self.path = path
        self.display = display
        self.module_name = module_name
        self.settings = settings
        self.data = data
        self.source = source
        self.facts = facts
        self.errors = [] if errors is None else errors
        self.cell_map = cell_map
        self.abspath = abspath

    @property
    def key(self) -> str:
        if not self.abspath:
            self.abspath = os.path.abspath(self.path)
        return self.abspath

    @property
    def is_notebook(self) -> bool:
        return is_notebook_path(self.path)


def is_notebook_path(path: "os.PathLike[str] | str") -> bool:
    return os.fspath(path).lower().endswith(".ipynb")


def has_cell_markers(data: bytes) -> bool:
    """A ``.py`` file written as notebook cells (``# %%`` lines: jupytext's percent format,
    VS Code's and Spyder's interactive cells), at least two: it runs cell by cell in a kernel,
    where DL203's re-import of the script does not happen, as in a notebook."""
    marks = data.count(b"\n# %%") + data.count(b"\n#%%") + data.startswith((b"# %%", b"#%%"))
    return marks >= 2


def read(file: SourceFile) -> None:
    """Read one file into ``file.data`` (a notebook: the Python of its code cells); a file that
    cannot be read becomes a DL000 diagnostic (and keeps ``data`` empty)."""
    if not file.data:
        from dl_lint.reading import Refused

        try:  # a str path: pathlib's own overhead, 20,000 times, showed
            file.data = read_module(file.key, file.settings.max_file_size)
        except Refused as exc:
            file.errors.append(dl000(file, refusal(exc, file.settings.max_file_size, file.is_notebook), 1, 1))
            return
    if file.is_notebook and file.cell_map is None:
        read_notebook(file)


# A notebook is JSON holding its outputs (images, tables) beside the code: its file may be this
# many times ``max-file-size`` (the code cells still count against the limit once extracted).
NOTEBOOK_FACTOR = 8


def read_module(path: str, limit: Optional[int]) -> bytes:
    """A Python module's or notebook's bytes, through the guarded door (``dl_lint.reading``):
    a regular file of at most ``limit`` bytes (``max-file-size``), else ``Refused``."""
    from dl_lint.reading import read_regular

    if limit is not None and is_notebook_path(path):
        limit *= NOTEBOOK_FACTOR
    return read_regular(path, limit)


def refusal(exc: "Refused", limit: Optional[int], notebook: bool = False) -> str:
    """The DL000 message for a module the door refused."""
    if exc.size is not None and limit is not None:
        from dl_lint.config import format_size

        what = f"{NOTEBOOK_FACTOR} x {format_size(limit)} for a notebook file" if notebook else format_size(limit)
        return (
            f"cannot parse: file too large to analyse ({format_size(exc.size)}; the limit is "
            f"{what}, set by max-file-size): exclude it, or raise the limit"
        )
    return exc.reason


def decode_source(file: SourceFile) -> bool:
    """``file.source`` from its bytes (BOM, coding cookie, else UTF-8); False with a DL000 when
    the bytes cannot be decoded."""
    from dl_lint.source import decode

    if file.source is not None:
        return True
    try:
        file.source = decode(file.data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        file.errors.append(dl000(file, f"cannot decode file: {one_line(exc)}", 1, 1))
        return False
    return True


def read_notebook(file: SourceFile) -> None:
    """Replace a notebook's JSON (``file.data``) by the Python source of its code cells; a
    notebook that cannot be read becomes a DL000 diagnostic."""
    from dl_lint.notebook import NotebookError, notebook_to_python

    try:
        source, file.cell_map = notebook_to_python(file.data)
    except NotebookError as exc:
        file.data = b""
        file.errors.append(dl000(file, f"cannot read notebook: {exc}", 1, 1))
        return
    file.source = source
    file.data = source.encode("utf-8", "surrogatepass")  # a JSON "\ud800" escape: the parser reports it


def display_path(path: Path, absolute: Optional[str] = None, cwd: Optional[str] = None) -> str:
    """Paths under the working directory print relative to it, like ruff; others as given.
    ``absolute`` (``os.path.abspath(path)``) and ``cwd``: when the caller has them."""
    # What os.path.relpath would give, without its splitting (this runs once per file).
    absolute = absolute or os.path.abspath(path)
    cwd = cwd or os.getcwd()
    if absolute == cwd:
        return "."
    prefix = cwd if cwd.endswith(os.sep) else cwd + os.sep
    if absolute.startswith(prefix):
        rel = absolute[len(prefix) :]
        return str(path) if rel.startswith("..") else rel
    return str(path)  # outside the working directory: relpath would start with ".."


def one_line(exc: object) -> str:
    return " ".join(str(exc).split())


def dl000(file: SourceFile, message: str, row: int, column: int) -> Diagnostic:
    message, detail = split_message(message)
    return Diagnostic(
        code="DL000",
        name="parse-error",
        severity=Severity.ERROR,
        message=message,
        filename=file.display,
        location=Location(max(row, 1), max(column, 1)),
        end_location=Location(max(row, 1), max(column, 1)),
        detail=detail,
    )


# The concise line's bound (as dl_lint.rules.base.MESSAGE_LIMIT, which this module does not import).
MESSAGE_LIMIT = 120


def split_message(text: str, limit: int = MESSAGE_LIMIT):
    """(short message, detail) of a DL000's text, whose reason comes from a parser or the
    system (any length): cut at the last "; ", ": " or ", " that keeps the message within
    ``limit``; the rest is the detail. A text that fits is the message, with no detail."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text, ""
    cut = -1
    for separators in (("; ", ": "), (", ",)):  # the coarser boundary first
        cut = max(text.rfind(sep, 0, limit - 1) for sep in separators)
        if cut >= 20:
            break
    if cut < 20:
        cut = text.rfind(" ", 0, limit - 2)
        if cut < 20:
            cut = limit - 2
        return text[:cut].rstrip() + " …", text
    head, rest = text[:cut].rstrip(" .,;:") + ".", text[cut + 2 :].strip()
    return head, rest[:1].upper() + rest[1:] + ("" if rest.endswith((".", ")")) else ".")


def unreadable(path: Path, reason: str, settings: "Settings") -> SourceFile:
    file = SourceFile(path, display_path(path), path.name, settings)
    file.errors.append(dl000(file, reason, 1, 1))
    return file
