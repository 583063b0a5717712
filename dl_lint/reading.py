"""The one door every project file comes through.

dl-lint runs in CI on pull requests, so the files it reads may have been written to hurt it: a
named pipe that blocks the first ``read`` forever, a link to ``/dev/zero`` that never ends, a link
or a ``../../`` path to a file outside the checkout whose text would then reach the output. Every
project file (Python modules, notebooks, YAML/JSON/TOML configs, run definitions) is read here:

- only a regular file, checked on the open descriptor (``fstat``), which is opened without
  blocking (``O_NONBLOCK``: opening a FIFO for reading then returns at once instead of waiting
  for a writer);
- at most ``limit`` bytes: a larger file is refused from its size, one that grows past the limit
  while read is refused when it does, so memory stays bounded whatever the file claims;
- with a ``Door``, only inside the project root once symbolic links are resolved.

What fails the door raises ``Refused`` with a one-line reason that names no path outside the
project. Callers decide what it means: a DL000 for a file that was named or referenced, silence
(unknown) for one only found by walking. dl-lint's own cache and run folders, stdin, language
server buffers and git's own reads do not come through here (the cache has its own checks).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Dict, Optional

__all__ = ["Refused", "read_regular", "Door", "MAX_CONFIG_BYTES", "file_kind", "inside_its_project"]

# Config files (YAML, JSON, TOML, run definitions) larger than this are not read: real ones are
# kilobytes, and a YAML file of this size already takes about a second to compose with libyaml.
MAX_CONFIG_BYTES = 4 * 1024 * 1024

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
_CHUNK = 1 << 20


class Refused(Exception):
    """A file the door does not read. ``reason``: one line, no path outside the project;
    ``size``: the file's size when it was refused for it; ``outside``: it resolves outside the
    project root; ``missing``: there is no such file (both mean "unknown", never a DL000)."""

    def __init__(self, reason: str, size: Optional[int] = None, outside: bool = False, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.size = size
        self.outside = outside
        self.missing = missing


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages ("a named pipe (FIFO)")."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def read_regular(path: str, limit: Optional[int]) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``; None: no limit), or
    ``Refused``. Symbolic links are followed (``Door`` decides where they may lead)."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        missing = exc.errno in (errno.ENOENT, errno.ENOTDIR)
        raise Refused(f"cannot read file: {exc.strerror or exc}", missing=missing) from None
    except ValueError:  # a NUL in the path
        raise Refused("cannot read file: invalid path") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{file_kind(st.st_mode)} is not a regular file: not read")
        if limit is not None and st.st_size > limit:
            raise Refused("file too large", st.st_size)
        # Read to the end, never past the limit: the size fstat gives may be stale.
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, _CHUNK if limit is None else min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:
                raise Refused("file too large", total)
    except OSError as exc:
        raise Refused(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


class Door:
    """Reads for one project: ``read`` refuses what resolves outside ``root`` (after symbolic
    links) as well as what ``read_regular`` refuses. Without a root (a source linted on its own)
    nothing outside the file itself is read, so every path is refused."""

    def __init__(self, root: "Optional[os.PathLike[str] | str]") -> None:
        self.root = os.path.realpath(root) if root is not None else None
        self._prefix = os.path.join(self.root, "") if self.root is not None else None
        self._inside: Dict[str, bool] = {}

    def contains(self, path: str) -> bool:
        """Whether ``path`` resolves (symbolic links followed) to the root or below it."""
        if self._prefix is None:
            return False
        found = self._inside.get(path)
        if found is None:
            try:
                real = os.path.realpath(path)
            except (OSError, ValueError):
                real = ""
            found = self._inside[path] = real == self.root or real.startswith(self._prefix)
        return found

    def read(self, path: str, limit: Optional[int] = MAX_CONFIG_BYTES) -> bytes:
        """The bytes of a project file that is not a linted module (configs, run definitions)."""
        if not self.contains(path):
            raise Refused("outside the project root: not read", outside=True)
        return read_regular(path, limit)


def inside_its_project(path: str) -> bool:
    """Whether ``path`` resolves inside the project it appears to belong to (its folder's root as
    ``roots.find_root`` defines it, resolved): false for a link that leads out of it."""
    from pathlib import Path

    from dl_lint.roots import find_root

    absolute = os.path.abspath(path)
    root = os.path.realpath(find_root(Path(os.path.dirname(absolute))))
    return Door(root).contains(absolute)
