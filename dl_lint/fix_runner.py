"""``--fix`` and ``--diff`` on files: read, fix (``dl_lint.fixes``), and write back atomically.

A file is written only when its fixes verified, through a temporary file in the same folder
that replaces it in one ``os.replace``: an interrupted run leaves every file either old or new.
The file's encoding (coding cookie, BOM), line endings and permission bits are kept. Read-only
files and symlinks that lead out of the project are refused with a clear message.

Only a run killed outright (SIGKILL, a power cut) between creating the temporary file and the
replace leaves it behind. A later ``--fix`` removes such leftovers in each folder it writes to
(``remove_stale_temporaries``): regular files of the user's, named as this module names them
(``.NAME.XXXXXXXX.dl-lint-tmp``), unchanged for ``STALE_SECONDS`` (a concurrent run's file is
seconds old) and not tracked by git (a committed look-alike is the project's).
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Set, Tuple

from dl_lint.fixes import FixResult, fix_source
from dl_lint.model import Diagnostic


class FixError(Exception):
    """A file that cannot be fixed (one line, names the file)."""


@dataclass
class FileFix:
    path: Path
    display: str
    result: FixResult
    original: str
    written: bool = False
    # A notebook's bytes before and after the fix: its diff is shown cell by cell, as written.
    notebook: Optional[Tuple[bytes, bytes]] = None

    def diff(self) -> str:
        if self.notebook is not None:
            from dl_lint.notebook import cell_diff

            return cell_diff(self.display, *self.notebook)
        from dl_lint import printable

        name = printable.text(self.display)  # a header line: the name on one line
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.result.source.splitlines(keepends=True),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )
        )


def fix_file(path: Path, display: str, settings, *, unsafe: bool, write: bool, project_root: Optional[Path]) -> FileFix:
    """Fix one .py file. Raises FixError for files that must not or cannot be written."""
    from dl_lint.engine import lint_source

    before = os.stat(path)
    data = path.read_bytes()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = data.startswith(codecs.BOM_UTF8)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    newline = _newline(text)

    def lint(source: str) -> List[Diagnostic]:
        found = lint_source(source, str(path), settings, project_root=project_root)
        out = []
        for diag in found:
            if diag.fix is not None and newline != "\n":
                edits = tuple(e.replace(content=e.content.replace("\n", newline)) for e in diag.fix.edits)
                diag = diag.replace(fix=diag.fix.replace(edits=edits))
            out.append(diag.replace(filename=display))
        return out

    result = fix_source(text, lint, unsafe=unsafe)
    fixed = FileFix(path, display, result, text)
    if write and result.changed:
        new = result.source.encode(encoding if encoding != "utf-8-sig" else "utf-8")
        if bom and not new.startswith(codecs.BOM_UTF8):
            new = codecs.BOM_UTF8 + new
        write_atomically(path, new, project_root, expected=before)
        fixed.written = True
    return fixed


def _same_file_state(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_ino, a.st_dev, a.st_size, a.st_mtime_ns) == (b.st_ino, b.st_dev, b.st_size, b.st_mtime_ns)


def write_atomically(
    path: Path, data: bytes, project_root: Optional[Path] = None, expected: Optional[os.stat_result] = None
) -> None:
    """Replace ``path``'s content in one step, keeping its permission bits. With ``expected``
    (the file's stat when it was read), a file changed on disk since then is not overwritten."""
    target = Path(os.path.realpath(path))
    if path.is_symlink() and project_root is not None:
        root = os.path.realpath(project_root)
        if os.path.commonpath([root, str(target)]) != root:
            raise FixError(f"{path}: is a symbolic link to {target}, outside the project; not fixed")
    mode = stat.S_IMODE(target.stat().st_mode)
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise FixError(f"{path}: file is read-only; not fixed")
    folder = target.parent
    remove_stale_temporaries(str(folder))
    with _signals_held():  # Ctrl-C or SIGTERM wait until the file is replaced or left alone
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMPORARY_SUFFIX, dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            if expected is not None and not _same_file_state(expected, os.stat(target)):
                raise FixError(f"{path}: changed on disk while being fixed; not fixed")
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


TEMPORARY_SUFFIX = ".dl-lint-tmp"
# mkstemp's names: the prefix, 8 characters of tempfile's alphabet, the suffix.
_TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(TEMPORARY_SUFFIX) + r"\Z")
# A temporary file unchanged (content or inode) for this long is a leftover: a write takes
# milliseconds (seconds for a huge file on a slow disk), so no running fix still owns it.
STALE_SECONDS = 10 * 60
_CLEANED: Set[str] = set()  # folders already cleaned in this process


def remove_stale_temporaries(folder: str) -> List[str]:
    """Remove the temporary files a killed ``--fix`` left in ``folder`` (once per folder and
    process); the names removed. Kept: files of another user, links, files modified or
    changed (ctime: a copy that backdates its mtime is new) in the last ``STALE_SECONDS``,
    and files git tracks; everything when git cannot tell."""
    import time

    if folder in _CLEANED:
        return []
    _CLEANED.add(folder)
    now = time.time()
    stale = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.endswith(TEMPORARY_SUFFIX) or not _TEMPORARY.match(entry.name):
                    continue
                st = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or now - max(st.st_mtime, st.st_ctime) < STALE_SECONDS:
                    continue
                if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
                    continue
                stale.append(entry.name)
    except OSError:
        return []
    if not stale:
        return []
    tracked = _tracked(folder, stale)
    if tracked is None:
        return []
    removed = []
    for name in stale:
        if name not in tracked:
            try:
                os.unlink(os.path.join(folder, name))
                removed.append(name)
            except OSError:
                pass
    return removed


def _tracked(folder: str, names: List[str]) -> Optional[Set[str]]:
    """Which of ``names`` (files in ``folder``) git tracks; empty outside a checkout; None when
    git cannot tell (not installed, an unsafe repository): then nothing is removed."""
    import subprocess

    from dl_lint.discovery import _GIT_ENV_DROP, _checkout_top

    if _checkout_top(folder) is None:
        return set()
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV_DROP}
    # Literal pathspecs: a name with * or [ must not match other files. The index only: no
    # .gitignore is read, so nothing here can block.
    command = ["git", "--literal-pathspecs", "-C", folder, "-c", "core.fsmonitor=false", "ls-files", "-z", "--"]
    try:
        proc = subprocess.run(
            command + names, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            env=env, timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return {os.fsdecode(item) for item in proc.stdout.split(b"\0") if item}


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM for the few system calls of one write (they are delivered right
    after): an interrupt between creating the temporary file and entering the code that removes
    it on failure left it behind. Where signals cannot be held (Windows, another thread), the
    write is as before."""
    import signal
    import threading

    held = {getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    # The mask holds the signals for this thread only: one sent to the process may be taken by
    # another thread (a native library's), whose C-level handler then has this thread run the
    # Python handler at its next instruction, inside the write. So the Python handlers are
    # replaced too, by one that notes the signal; it is raised again once the write is done.
    pending: List[int] = []

    def note(signum, _frame) -> None:
        pending.append(signum)

    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    handlers = {}
    try:
        for signum in held:
            handlers[signum] = signal.signal(signum, note)
        yield
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        if pending:
            signal.raise_signal(pending[0])  # the run's own handler: KeyboardInterrupt, one line, exit 2


def _newline(text: str) -> str:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    if crlf > lf and crlf >= cr:
        return "\r\n"
    if cr > lf:
        return "\r"
    return "\n"


def fix_notebook_data(
    data: bytes, path: Path, settings, *, unsafe: bool, project_root: Optional[Path]
) -> Tuple[FixResult, bytes, str]:
    """Fix the code cells of the notebook ``data`` (found at, or named, ``path``): the result on
    the cells' Python, the notebook's new bytes (``data`` when nothing changed) and the Python
    it was fixed from. Raises NotebookError for bytes that are not a notebook."""
    from dl_lint.engine import lint_source
    from dl_lint.notebook import apply_cell_edits, notebook_to_python

    source, cell_map = notebook_to_python(data)
    # Lint the cells' Python as a module of its own (the notebook's folder is its project).
    pseudo = str(path.with_name(path.stem + "_ipynb.py"))

    def lint(text: str) -> List[Diagnostic]:
        return [d for d in lint_source(text, pseudo, settings, project_root=project_root) if d.code != "DL203"]

    result = fix_source(source, lint, unsafe=unsafe)
    new = apply_cell_edits(data, result.source, cell_map) if result.changed else data
    return result, new, source


def fix_notebook(path: Path, display: str, settings, *, unsafe: bool, write: bool, project_root: Optional[Path]) -> FileFix:
    """Fix the code cells of a notebook; outputs, metadata and the JSON's formatting are kept
    (``notebook.apply_cell_edits`` rewrites only the changed cells' ``source``)."""
    from dl_lint.engine import lint_paths

    before = os.stat(path)
    data = path.read_bytes()
    result, new, source = fix_notebook_data(data, path, settings, unsafe=unsafe, project_root=project_root)
    fixed = FileFix(path, display, result, source)
    if result.changed:
        fixed.notebook = (data, new)
        if write:
            write_atomically(path, new, project_root, expected=before)
            fixed.written = True
    # What remains, reported in cell coordinates by the normal pipeline.
    if fixed.written:
        result.remaining = list(lint_paths([path], overrides={}).diagnostics)
        result.remaining = [d.replace(filename=display) for d in result.remaining]
    else:
        result.remaining = []
    return fixed
