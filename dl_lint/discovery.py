"""Which files to lint: walk the given paths, skipping excluded and git-ignored ones.

Git-ignore handling asks the real ``git`` (one ``ls-files`` call per walked root
and per nested repository) rather than re-implementing gitignore: nested
.gitignore files, negation, info/exclude and core.excludesFile then behave
exactly as in git. Without git or outside a checkout it is silently skipped.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import stat
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

from dl_lint.reading import file_kind as _file_kind
from dl_lint.record import Record

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".venv", "venv", "env", "build", "dist", "node_modules",
    "__pycache__", ".tox", ".nox", ".eggs", "site-packages", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".dl_lint_cache", ".ipynb_checkpoints",
)  # fmt: skip
_DEFAULT_EXCLUDES = frozenset(DEFAULT_EXCLUDES)
# Set inside git hooks; they would point git at the hook's repository, not the walked one.
# A folder listing is trusted only if the folder's mtime is this much older than the listing
# (coarse or lagging clocks: a change in the same tick would not move the mtime).
_RACY_NS = 2_000_000_000
_GIT_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")


class DiscoveryError(Exception):
    """A path given on the command line is unusable; ``str(e)`` is one line,
    e.g. ``path does not exist: foo/bar.py`` (the CLI prefixes ``dl-lint: ``)."""


class Discovered(Record):
    __slots__ = ("files", "problems", "listings_changed", "warnings")

    def __init__(
        self,
        files: Tuple[Path, ...],
        problems: Tuple[Tuple[Path, str], ...],  # (path, one-line reason), e.g. unreadable folders
        listings_changed: bool = False,  # ``listings`` was updated (the cache must be saved)
        warnings: Tuple[Tuple[str, str], ...] = (),  # (path, one-line reason): a .gitignore not read
    ) -> None:
        self.files = files
        self.problems = problems
        self.listings_changed = listings_changed
        self.warnings = warnings


def glob_matches(pattern: str, relpath: str, *, is_dir: bool = False) -> bool:
    """Whether an exclude / per-file-ignores glob matches a posix path relative to the root.

    A pattern without "/" matches the name at any depth (``"test_*.py"``); one with
    "/" matches the whole relative path (``"tests/fixtures"``, ``"src/**/gen_*.py"``),
    where a leading ``"**/"`` may also match zero directories. A trailing "/"
    restricts the pattern to directories. ``*`` may cross "/" (fnmatch).
    """
    dir_only, on_name, regex = _compile_glob(pattern)
    if dir_only and not is_dir:
        return False
    return regex.match(relpath.rsplit("/", 1)[-1] if on_name else relpath) is not None


@functools.lru_cache(maxsize=256)
def _compile_glob(pattern: str) -> Tuple[bool, bool, "re.Pattern[str]"]:
    """(directories only, match the name only, regex): compiled once per pattern."""
    dir_only = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    on_name = "/" not in pattern
    pattern = pattern.lstrip("/")
    regex = fnmatch.translate(pattern)
    if pattern.startswith("**/"):  # "**/x" also matches "x" at the top
        regex = f"(?:{regex})|(?:{fnmatch.translate(pattern[3:])})"
    return dir_only, on_name, re.compile(regex, re.IGNORECASE if os.name == "nt" else 0)


def _checkout_top(directory: str) -> Optional[str]:
    """The nearest folder at or above ``directory`` that holds ``.git`` (a folder, or a file in
    a worktree or submodule), or None: without one, git finds no repository (GIT_DIR and the
    like are dropped from its environment)."""
    folder = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


# How long git may run before dl-lint looks for a .gitignore it cannot read (a git that is
# not stuck on one is left to finish, up to _GIT_TIMEOUT).
_GIT_POLL = 0.05
_GIT_SEARCH_AFTER = 1.0
_GIT_TIMEOUT = 120
_SEARCH_MAX_FOLDERS = 100_000


def _special_ignore_file(folder: str) -> Optional[str]:
    """What is wrong with ``folder/.gitignore`` when git would block on it, or None (absent, a
    regular file, a folder). git opens it with a plain ``open``: a named pipe (FIFO) makes
    that wait for a writer for ever; a device may too. A link is judged by what it leads to
    (git before 2.32 follows it)."""
    path = os.path.join(folder, ".gitignore")
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            mode = os.stat(path).st_mode
            if not stat.S_ISFIFO(mode):  # git (1.x to 2.31) reads a device as empty (size 0)
                return None
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISSOCK(mode):  # a socket cannot be opened
        return None
    return f"{_file_kind(mode)} is not a regular file"


def _find_special_ignore_file(directory: str) -> Optional[Tuple[str, str]]:
    """The first ``.gitignore`` below ``directory`` (breadth first, never into ``.git`` or a
    linked folder, at most _SEARCH_MAX_FOLDERS folders) that git would block on, with why."""
    queue = [directory]
    for folder in queue:
        if len(queue) > _SEARCH_MAX_FOLDERS:
            return None
        reason = _special_ignore_file(folder)
        if reason is not None:
            return os.path.join(folder, ".gitignore"), reason
        try:
            with os.scandir(folder) as entries:
                queue.extend(e.path for e in entries if e.name != ".git" and e.is_dir(follow_symlinks=False))
        except OSError:
            continue
    return None


def _blocked_on_a_fifo(pid: int) -> Optional[bool]:
    """Whether process ``pid`` waits in the open of a named pipe (Linux: its wait channel is
    the kernel's ``wait_for_partner``); None where that cannot be told."""
    try:
        with open(f"/proc/{pid}/wchan", "rb") as handle:
            channel = handle.read().strip()
    except OSError:
        return None
    if channel in (b"", b"0"):  # hidden by the kernel
        return None
    return channel == b"wait_for_partner"


def _git_ignored(directory: str) -> Tuple[Set[str], Optional[Tuple[str, str]]]:
    """Absolute paths under ``directory`` that git ignores (untracked only: a tracked
    file is never ignored, as in git; an ignored directory comes back as one entry), and
    (path, reason) when a .gitignore git would read is not a regular file: then git is not
    asked (or is stopped once found waiting on it) and nothing counts as ignored."""
    top = _checkout_top(directory)
    if top is None:
        return set(), None  # git would only fail: save starting it
    # The .gitignore files of the folder and those above it, which git reads first: a few
    # lstat calls. One further down is found only if git waits on it (below).
    folder = os.path.abspath(directory)
    while True:
        reason = _special_ignore_file(folder)
        if reason is not None:
            return set(), (os.path.join(folder, ".gitignore"), reason)
        if folder == top or os.path.dirname(folder) == folder:
            break
        folder = os.path.dirname(folder)
    import subprocess
    import time

    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV_DROP}
    # core.fsmonitor in the walked repository's config names a command git would run: never.
    command = ["git", "-C", directory, "-c", "core.fsmonitor=false", "ls-files", "--others", "--ignored"]
    command += ["--exclude-standard", "--directory", "-z"]
    try:
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env
        )
    except (OSError, subprocess.SubprocessError):  # no git
        return set(), None
    started = time.monotonic()
    searched = False
    with proc:
        while True:
            try:
                output, _ = proc.communicate(timeout=_GIT_POLL)
                break
            except subprocess.TimeoutExpired:
                pass
            elapsed = time.monotonic() - started
            stuck = _blocked_on_a_fifo(proc.pid)
            found = None
            if stuck or (stuck is None and elapsed > _GIT_SEARCH_AFTER and not searched):
                searched = True
                found = _find_special_ignore_file(directory)
                if stuck and found is None:
                    found = (directory, "git waits on a named pipe (FIFO) it reads as ignore rules")
            if found is not None or elapsed > _GIT_TIMEOUT:
                proc.kill()
                proc.communicate()
                return set(), found
    if proc.returncode != 0:  # not a checkout, unsafe ownership, ...
        return set(), None
    # Output is relative to ``directory``; "./" means the directory itself is ignored.
    return {os.path.normpath(os.path.join(directory, os.fsdecode(item))) for item in output.split(b"\0") if item}, None


class _Walker:
    """One discover() run: the state shared by the walks of several roots.

    Paths are plain strings while walking (pathlib per entry costs more than the
    walk itself); they become Path objects once, at the end.
    """

    def __init__(
        self,
        patterns: Sequence[str],
        respect_gitignore: bool,
        root: str,
        suffixes: Tuple[str, ...],
        listings: Optional[Dict[str, list]] = None,
    ):
        self.listings = listings
        self.listed: Set[str] = set()  # folders listed in this run (kept in ``listings``)
        self.listings_changed = False
        self.globs = [_compile_glob(p) for p in patterns]
        self.respect_gitignore = respect_gitignore
        self.root_prefix = root.rstrip(os.sep) + os.sep
        self.suffixes = suffixes
        self.ignored: Set[str] = set()
        self.scanned: Set[str] = set()
        self.found: Dict[str, str] = {}  # real path -> path as given/joined (first wins)
        self.problems: List[Tuple[Path, str]] = []
        self.warnings: List[Tuple[str, str]] = []
        self.projects: Dict[str, str] = {}  # folder -> the real path of its project root, with a separator

    def inside_project(self, folder: str, real: str) -> bool:
        """Whether ``real`` (a resolved path) lies in the project ``folder`` belongs to (its root
        as ``find_root`` defines it, resolved): a symbolic link that leads out of the project is
        never read (the hostile-repository rule of ``dl_lint.reading``)."""
        prefix = self.projects.get(folder)
        if prefix is None:
            from dl_lint.roots import find_root

            prefix = self.projects[folder] = os.path.join(os.path.realpath(find_root(Path(folder))), "")
        return real.startswith(prefix)

    def scan_git(self, directory: str) -> None:
        if self.respect_gitignore and directory not in self.scanned:
            self.scanned.add(directory)
            ignored, unreadable = _git_ignored(directory)
            self.ignored |= ignored
            if unreadable is not None:
                path, reason = unreadable
                self.warnings.append((_shown(path), f"{reason}: not read; files are found without git's ignore rules"))

    def excluded(self, abspath: str, name: str, is_dir: bool) -> bool:
        return self.excluded_by_settings(abspath, name, is_dir) or abspath in self.ignored

    def excluded_by_settings(self, abspath: str, name: str, is_dir: bool) -> bool:
        if is_dir and name in _DEFAULT_EXCLUDES:
            return True
        if self.globs:
            if abspath.startswith(self.root_prefix):
                rel = abspath[len(self.root_prefix) :]
            else:
                rel = os.path.relpath(abspath, self.root_prefix)
            rel = rel.replace(os.sep, "/")
            for dir_only, on_name, regex in self.globs:
                if (is_dir or not dir_only) and regex.match(name if on_name else rel):
                    return True
        return False

    def excluded_path(self, path: str) -> bool:
        """Whether a path named explicitly is excluded: itself or a folder above it, up to
        the root (only the path itself when it is outside the root). Not git-ignore: a file
        a user or pre-commit names is tracked or meant."""
        abspath = os.path.abspath(path)
        if abspath + os.sep == self.root_prefix:
            return False  # the root itself, such as ".", whatever its name
        is_dir = os.path.isdir(abspath)
        if self.excluded_by_settings(abspath, os.path.basename(abspath), is_dir):
            return True
        if not abspath.startswith(self.root_prefix):
            return False
        parent = os.path.dirname(abspath)
        while parent.startswith(self.root_prefix):
            if self.excluded_by_settings(parent, os.path.basename(parent), True):
                return True
            parent = os.path.dirname(parent)
        return False

    def walk(self, top: str) -> None:
        """Depth-first with os.scandir. Symlinked directories are never entered, so
        the real path of everything below ``top`` is its real path joined with the
        names (no realpath per file), and symlink loops cannot happen."""
        sep = os.sep
        top_abs = os.path.abspath(top)
        self.scan_git(top_abs)
        # (directory as given/joined, ending in a separator; its absolute path; its real path)
        stack = [(top if top.endswith(("/", sep)) else top + sep, top_abs, os.path.realpath(top))]
        while stack:
            prefix, abspath, realpath = stack.pop()
            try:
                dirs, files, links, has_git = self.list_folder(prefix, abspath)
            except OSError as exc:
                self.problems.append((Path(prefix), f"cannot read directory: {exc.strerror or exc}"))
                continue
            if self.respect_gitignore and has_git:
                self.scan_git(abspath)  # a nested repository or submodule has its own rules
            plain = not (self.globs or self.ignored)  # only the default excludes apply
            for name in dirs:
                if plain:
                    if name in _DEFAULT_EXCLUDES:
                        continue
                elif self.excluded(f"{abspath}{sep}{name}", name, True):
                    continue
                stack.append((f"{prefix}{name}{sep}", f"{abspath}{sep}{name}", f"{realpath}{sep}{name}"))
            for name in files:
                if plain or not self.excluded(f"{abspath}{sep}{name}", name, False):
                    self.found.setdefault(f"{realpath}{sep}{name}", f"{prefix}{name}")
            for name in links:  # symbolic links: what they point to may change, so ask each time
                joined = f"{prefix}{name}"
                if os.path.isfile(joined) and (plain or not self.excluded(f"{abspath}{sep}{name}", name, False)):
                    real = os.path.realpath(joined)
                    if self.inside_project(top_abs, real):  # one leading out of the project: unknown
                        self.found.setdefault(real, joined)

    def list_folder(self, prefix: str, abspath: str) -> Tuple[List[str], List[str], List[str], bool]:
        """A folder's subfolders, files with a wanted suffix, symbolic links with a wanted suffix
        (the entries that are neither), and whether it holds ``.git``. With ``listings`` (the
        results cache's), a folder whose stat proves its entries unchanged is not read again:
        adding, removing or renaming an entry changes a folder's mtime (git's untracked cache
        relies on the same); a listing younger than the clock's granularity is not trusted."""
        st = None
        if self.listings is not None:
            self.listed.add(abspath)
            try:
                st = os.stat(prefix)
            except OSError:
                st = None
            known = self.listings.get(abspath)
            if (
                st is not None
                and isinstance(known, list)
                and len(known) == 8
                and known[0] == st.st_mtime_ns
                and known[1] == st.st_ino
                and isinstance(known[2], int)
                and st.st_mtime_ns + _RACY_NS < known[2]
                and known[3] == list(self.suffixes)
            ):
                return known[4], known[5], known[6], bool(known[7])
        dirs: List[str] = []
        files: List[str] = []
        links: List[str] = []
        has_git = False
        with os.scandir(prefix) as it:
            for entry in it:
                name = entry.name
                if name == ".git":
                    has_git = True
                try:
                    if entry.is_dir(follow_symlinks=False):
                        dirs.append(name)
                    elif name.endswith(self.suffixes):
                        if entry.is_symlink():
                            links.append(name)
                        elif entry.is_file():
                            files.append(name)
                except OSError:
                    continue
        if st is not None:
            import time

            self.listings_changed = True
            self.listings[abspath] = [
                st.st_mtime_ns, st.st_ino, time.time_ns(), list(self.suffixes), dirs, files, links, has_git
            ]
        return dirs, files, links, has_git


def discover(
    paths: Sequence[Union[Path, str]],
    *,
    exclude: Sequence[str] = (),
    extend_exclude: Sequence[str] = (),
    respect_gitignore: bool = True,
    root: Optional[Path] = None,
    suffixes: Sequence[str] = (".py",),
    force_exclude: bool = False,
    listings: Optional[Dict[str, list]] = None,
) -> Discovered:
    """The files to lint under ``paths``, sorted and without duplicates.

    A path named explicitly is always linted (even excluded, ignored or without
    a matching suffix); exclusions apply only to what is found by walking. With
    ``force_exclude`` (ruff's ``--force-exclude``, for pre-commit, which names every
    file), a named path is skipped when it, or a folder above it up to ``root``, is
    excluded by a default exclude or an ``exclude``/``extend_exclude`` glob.
    ``listings``: folder listings kept between runs (see ``_Walker.list_folder``), read and
    updated; listings of folders under a walked path that no longer exist are dropped.
    ``exclude``/``extend_exclude`` globs match names and posix paths relative to
    ``root`` (default: the working directory). Raises DiscoveryError for a path
    that does not exist; unreadable directories are reported in ``problems``.
    """
    walker = _Walker(
        tuple(exclude) + tuple(extend_exclude),
        respect_gitignore,
        os.path.abspath(root if root is not None else os.getcwd()),
        tuple(suffixes),
        listings,
    )
    for given in paths:
        path = os.fspath(given)
        try:
            st = os.stat(path)
        except PermissionError as exc:  # in a folder we may not read: a DL000, like a walked one
            walker.problems.append((Path(path), f"cannot read file: {exc.strerror or exc}"))
            continue
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
            raise DiscoveryError(f"{path_error(exc)}: {_shown(path, relative=False)}") from None
        if force_exclude and walker.excluded_path(path):
            continue
        if os.path.isdir(path):
            walker.walk(path)
            if listings is not None:
                top = os.path.abspath(path)
                below = top.rstrip(os.sep) + os.sep
                for gone in [k for k in listings if (k == top or k.startswith(below)) and k not in walker.listed]:
                    del listings[gone]
                    walker.listings_changed = True
        elif not stat.S_ISREG(st.st_mode):
            # A named pipe, socket or device named like a source file: reading it could block
            # forever (a FIFO waits for a writer), so it is reported (DL000) and never opened.
            reason = f"{_file_kind(st.st_mode)} is not a regular file: skipped without reading it"
            walker.problems.append((Path(path), reason))
        else:
            real = os.path.realpath(path)
            folder = os.path.dirname(os.path.abspath(path))
            if real == os.path.abspath(path) or walker.inside_project(folder, real):
                walker.found.setdefault(real, path)
            else:  # named, so reported (DL000), and never opened: its text must not reach the output
                walker.problems.append((Path(path), "a symbolic link that leads outside the project: not read"))
    # Sorted as Path.parts sorts (normpath drops "." and doubled separators, as parts does),
    # on strings: a Path per file is made once, after sorting.
    files = [Path(p) for p in sorted(walker.found.values(), key=lambda p: os.path.normpath(p).split(os.sep))]
    return Discovered(
        files=tuple(files),
        problems=tuple(walker.problems),
        listings_changed=walker.listings_changed,
        warnings=tuple(walker.warnings),
    )


def _shown(path: str, *, relative: bool = True) -> str:
    """A path for a one-line message: relative to the working directory when below it (with
    ``relative``), with control characters (a newline in a folder name) escaped."""
    if relative:
        try:
            shorter = os.path.relpath(path)
        except ValueError:  # another drive
            shorter = path
        if not shorter.startswith(".."):
            path = shorter
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


def path_error(exc: BaseException) -> str:
    """What a failed ``stat`` of a path named by the user means, in a few words."""
    import errno

    number = getattr(exc, "errno", None)
    if number == errno.ELOOP:
        return "symbolic link loop"
    if isinstance(exc, ValueError) or number in (errno.ENOENT, errno.ENOTDIR):
        return "path does not exist"
    return f"cannot read path ({getattr(exc, 'strerror', None) or exc})"


def not_regular_file(path: str, noun: str) -> Optional[str]:
    """Why the file ``path`` named by the user (``noun``: "config file") cannot be read as one,
    or None: it is missing, a link loop, or a FIFO, device or folder (told by ``stat``, never
    opened: a FIFO would wait for a writer), as "<path>: <noun> does not exist"."""
    shown = _shown(path, relative=False)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        why = path_error(exc)
        if why == "path does not exist":
            return f"{shown}: {noun} does not exist"
        if why == "symbolic link loop":
            return f"{shown}: {noun} is a symbolic link loop"
        return f"{shown}: {why.replace('path', noun, 1)}"
    if stat.S_ISREG(mode):
        return None
    kind = "a directory" if stat.S_ISDIR(mode) else _file_kind(mode)
    return f"{shown}: {noun} is {kind}, not a regular file: not read"


def excluded_path(path: str, patterns: Sequence[str], root: Optional[str]) -> bool:
    """Whether ``path`` (or a folder above it, up to ``root``) matches a default exclude or one
    of ``patterns`` (``exclude``/``extend-exclude`` globs relative to ``root``): where a run
    does not show findings, whichever file's analysis found them."""
    walker = _Walker(tuple(patterns), False, os.path.abspath(root if root is not None else os.getcwd()), (".py",))
    return walker.excluded_path(path)
