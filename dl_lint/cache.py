"""The results cache: ``.dl_lint_cache/`` at the project root, the nearest folder above the
linted path with a project marker, else in the working directory, as ruff places its cache (or
``--cache-dir``, ``DL_LINT_CACHE_DIR``). The folder is created only when a result is stored: a
run over an empty folder leaves nothing behind.

One JSON file per dl-lint build (the version plus a fingerprint of the installed package, so a
changed dl-lint never reads another's results) holds, for every linted file, its content hash,
the fingerprint of its effective settings, its diagnostics, and what they were built from: the
content hash of every other project file that was analysed or read while judging it, and
whether the set of project files or the byte-level import graph was consulted. An entry is
reused only when all of those are unchanged.

Content hashes are taken from the bytes; a table of (size, mtime, inode) lets a later run skip
re-reading a file whose stat did not change, except when its mtime is too close to when it was
hashed to prove anything (git's "racily clean" rule).

Writes are atomic (a temporary file renamed over the old one); a missing, corrupt or unreadable
cache is treated as empty, and a cache that cannot be written is skipped: the cache never
changes what is reported, and never fails a run.

The cache folder may have been written by someone else: committed to the repository a pull
request comes from, restored from another job, left in a shared folder. So every file dl-lint
writes there is sealed with an HMAC-SHA256 under a secret key of the user's, kept outside any
checkout (``user_key``), and a file whose seal does not verify is a miss (and is overwritten):
nobody without the key can make dl-lint believe an entry. Cache files are read only when they are
regular files (checked on the descriptor, opened without blocking and without following a
symbolic link) of at most ``MAX_CACHE_BYTES``; a cache folder that is a symbolic link, or is
reached through one inside the project, is not used (``unsafe_location``), since writing there
would write outside the project.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from dl_lint.model import Diagnostic, Edit, Fix, Location, Related, Severity

CACHE_DIR_NAME = ".dl_lint_cache"
# What makes a folder a project root (as dl_lint.analysis.project.ROOT_MARKERS; a test keeps
# them equal, this module does not import the analysis).
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
ENV_VAR = "DL_LINT_CACHE_DIR"
# 2: diagnostics carry ``detail`` ("t") and related locations ("r"); 3: dependencies carry the
# digest of the summary they were read through.
FORMAT = 3
# A file modified less than this before it was hashed may change again within the same mtime.
_RACY_NS = 2_000_000_000

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by dl-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
GITIGNORE = "# Automatically created by dl-lint.\n*\n"


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def combined_hash(parts: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
    return digest.hexdigest()


def build_fingerprint() -> str:
    """dl-lint's version and the stat of its own source files: results of another build (or
    a development checkout edited since) are never reused."""
    import dl_lint

    package = os.path.dirname(os.path.abspath(dl_lint.__file__))
    parts = [dl_lint.__version__]
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                parts.append(f"{os.path.relpath(path, package)}:{st.st_size}:{st.st_mtime_ns}")
    return combined_hash(parts)


# -- the user's key and the seal on every cache file ---------------------------------------------

KEY_BYTES = 32
# A cache file larger than this is not read (a miss): results take about 600 bytes per linted
# file (390 KB for Lightning's 646); this bounds what a planted file can make a run read.
MAX_CACHE_BYTES = 256 * 1024 * 1024
# Sealed file: SEAL_MAGIC, the hex HMAC-SHA256 of the body under the user's key, "\n", the body.
SEAL_MAGIC = b"dl-lint-hmac-sha256 "
_SEAL_HEAD = len(SEAL_MAGIC) + 64 + 1
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    | getattr(os, "O_NOFOLLOW", 0)  # dl-lint writes no symbolic links here: one is planted
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
)


class CacheUnavailable(Exception):
    """Why the results cache is not used in this run (one line)."""


def key_path() -> Optional[str]:
    """Where the user's cache key lives: ``$XDG_CACHE_HOME/dl-lint/key``, else (Windows)
    ``%LOCALAPPDATA%\\dl-lint\\key``, else ``~/.cache/dl-lint/key``; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        base = os.environ.get("LOCALAPPDATA") if os.name == "nt" else None
        if not base or not os.path.isabs(base):
            home = os.path.expanduser("~")
            if not os.path.isabs(home):
                return None
            base = os.path.join(home, ".cache")
    return os.path.join(base, "dl-lint", "key")


_KEY: List[Any] = []  # [key or None, why not]: read once per process


def user_key() -> Tuple[Optional[bytes], Optional[str]]:
    """The user's secret key (32 random bytes, made on first use) and None, or None and why
    there is none. The key is private to the user: a file of another owner, readable by others
    (a checkout's file is, git only stores modes 644 and 755), a link or of the wrong size is
    not used."""
    if not _KEY:
        try:
            _KEY[:] = [_load_or_create_key(), None]
        except CacheUnavailable as exc:
            _KEY[:] = [None, str(exc)]
    return _KEY[0], _KEY[1]


def _load_or_create_key() -> bytes:
    path = key_path()
    if path is None:
        raise CacheUnavailable("no home folder to keep its key in (set XDG_CACHE_HOME)")
    try:
        return _read_key(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    try:
        _create_key(path)
        return _read_key(path)
    except OSError as exc:
        why = exc.strerror or exc
        raise CacheUnavailable(
            f"cannot create its key {_shown(path)}: {why} (set XDG_CACHE_HOME to a writable folder, or use --no-cache)"
        ) from None


def _read_key(path: str) -> bytes:
    try:
        fd = os.open(path, _READ_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        raise
    except OSError as exc:
        raise CacheUnavailable(f"cannot read its key {_shown(path)}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        problem = None
        if not stat.S_ISREG(st.st_mode):
            problem = "is not a regular file"
        elif os.name != "nt" and st.st_uid != os.geteuid():
            problem = "belongs to another user"
        elif os.name != "nt" and st.st_mode & 0o077:
            problem = f"is open to other users (mode {stat.S_IMODE(st.st_mode):04o}, not 0600)"
        elif st.st_size != KEY_BYTES:
            problem = f"is not a dl-lint key ({st.st_size} bytes)"
        data = b"" if problem else os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if problem is None and len(data) != KEY_BYTES:
        problem = "is not a dl-lint key"
    if problem is not None:
        raise CacheUnavailable(f"its key {_shown(path)} {problem}; remove it and dl-lint makes a new one")
    return data


def _create_key(path: str) -> None:
    """Write a new key where there is none, atomically: the key appears whole (written to a
    temporary file, then linked to its name), and when two runs make one at once, the first
    link wins and both use it."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        try:
            data = os.urandom(KEY_BYTES)
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another run made it first: use theirs
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _shown(path: str) -> str:
    """A path for a one-line message: ``~`` for the home folder, control characters escaped."""
    home = os.path.expanduser("~")
    if os.path.isabs(home) and path.startswith(os.path.join(home, "")):
        path = os.path.join("~", path[len(os.path.join(home, "")) :])
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


def seal(body: bytes, key: bytes) -> bytes:
    """``body`` with its HMAC-SHA256 under ``key`` in front (the form of every cache file)."""
    import hmac

    return SEAL_MAGIC + hmac.digest(key, body, "sha256").hex().encode() + b"\n" + body


def unseal(blob: bytes, key: bytes) -> Optional[bytes]:
    """The body of a sealed ``blob`` if its HMAC verifies under ``key``, else None."""
    import hmac

    if len(blob) < _SEAL_HEAD or not blob.startswith(SEAL_MAGIC) or blob[_SEAL_HEAD - 1 : _SEAL_HEAD] != b"\n":
        return None
    body = blob[_SEAL_HEAD:]
    expected = hmac.digest(key, body, "sha256").hex().encode()
    return body if hmac.compare_digest(expected, blob[len(SEAL_MAGIC) : _SEAL_HEAD - 1]) else None


def read_cache_file(path: str, limit: int = MAX_CACHE_BYTES) -> Optional[bytes]:
    """The bytes of a cache file, or None (a miss) when it is missing, not a regular file (a
    FIFO, a device, a symbolic link to ``/dev/zero``: never waited on, never read), or larger
    than ``limit``. (``dl_lint.reading``, the door for project files, follows links.)"""
    try:
        fd = os.open(path, _READ_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        chunks = []
        total = 0
        want = st.st_size + 1  # one read for a file that did not grow since fstat
        while True:  # to the end, never past the limit (the size may have changed since)
            chunk = os.read(fd, min(want, limit + 1 - total))
            want = 1 << 20
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def unsafe_location(directory: os.PathLike | str, root: Optional[os.PathLike | str]) -> Optional[str]:
    """Why the cache folder ``directory`` must not be used, or None. It must not be a symbolic
    link, nor be reached through one inside the project ``root``: a repository that commits
    ``.dl_lint_cache`` (or ``build``, on the way to ``--cache-dir build/cache``) as a link to
    another folder would make dl-lint write there. Links above the project (a home folder that
    is one) are the user's own and are followed. ``..`` is resolved as the system does: after
    the link before it."""
    inside = os.path.join(os.path.realpath(root), "") if root is not None else None
    path = os.path.join(os.getcwd(), os.fspath(directory))
    drive, rest = os.path.splitdrive(path)
    parts = [p for p in rest.replace(os.altsep or os.sep, os.sep).split(os.sep) if p not in ("", ".")]
    current = drive + os.sep
    for index, part in enumerate(parts):
        if part == "..":
            current = os.path.dirname(current)
            continue
        step = os.path.join(current, part)
        try:
            st = os.lstat(step)
        except OSError:
            current = step  # not there yet: made by the first save, as a folder
            continue
        if stat.S_ISLNK(st.st_mode):
            last = index == len(parts) - 1
            if last or (inside is not None and os.path.join(step, "").startswith(inside)):
                what = "the cache folder" if last else "a folder on the way to the cache folder"
                return f"{_shown(_relative(step))} is a symbolic link ({what} must not be one)"
            current = os.path.realpath(step)
        else:
            current = step
    return None


def _relative(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def open_cache(directory: os.PathLike | str, root: Optional[os.PathLike | str]) -> "ResultsCache":
    """The results cache in ``directory`` for a run on the project at ``root``; raises
    ``CacheUnavailable`` (one line, for a warning) when it must not or cannot be used."""
    reason = unsafe_location(directory, root)
    if reason is None:
        key, reason = user_key()
        if key is not None:
            return ResultsCache(directory, key)
    raise CacheUnavailable(f"results cache not used: {reason}")


class ResultsCache:
    """Load once, look up and record during the run, ``save()`` once at the end."""

    def __init__(self, directory: os.PathLike | str, key: bytes) -> None:
        import dl_lint

        self.key = key
        self.directory = os.fspath(directory)
        self.version = dl_lint.__version__
        self.build = build_fingerprint()
        self.path = os.path.join(self.directory, f"results-{self.version}-{self.build[:16]}.json")
        self.summary_dir = os.path.join(self.directory, f"summaries-{self.version}-{self.build[:16]}")
        self.stats: Dict[str, List[Any]] = {}  # abspath -> [size, mtime_ns, ino, hashed_at_ns, hash]
        self.entries: Dict[str, Dict[str, Any]] = {}  # abspath -> entry
        self.callsites: Optional[Dict[str, Any]] = None
        # Every project file's hash when entries resting on names ("nw") were last checked.
        self.graph_snapshot: Optional[Dict[str, Any]] = None
        self.listings: Dict[str, list] = {}  # folder abspath -> listing (dl_lint.discovery)
        # abspath -> [content hash, plain imports, from-imports]: a module's import statements
        # (``analysis.project.raw_imports``), so a partial run's import graph reads no bytes.
        self.imports: Dict[str, list] = {}
        self.imports_at_load = 0  # how many ``imports`` the file held (this run adds more)
        self.dirty = False
        self._hashes: Dict[str, Optional[str]] = {}  # this run's content hashes
        self.overlays: Dict[str, bytes] = {}  # unsaved editor buffers (``lint_paths(overlays=...)``)
        self._load()

    # -- storage --------------------------------------------------------------------------------
    def _load(self) -> None:
        try:
            blob = read_cache_file(self.path)
            body = unseal(blob, self.key) if blob is not None else None
            if body is None:
                return  # missing, not a regular file, too large, or not sealed with our key
            import gc

            enabled = gc.isenabled()
            gc.disable()  # JSON builds no cycles; collections while it allocates are pure cost
            try:
                data = json.loads(body)
            finally:
                if enabled:
                    gc.enable()
            if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("build") != self.build:
                return
            stats, entries = data.get("stats"), data.get("entries")
            if isinstance(stats, dict) and isinstance(entries, dict):
                self.stats, self.entries = stats, entries
            callsites = data.get("callsites")
            self.callsites = callsites if isinstance(callsites, dict) else None
            snapshot = data.get("graph")
            self.graph_snapshot = snapshot if isinstance(snapshot, dict) else None
            listings = data.get("listings")
            self.listings = listings if isinstance(listings, dict) else {}
            imports = data.get("imports")
            self.imports = imports if isinstance(imports, dict) else {}
            self.imports_at_load = len(self.imports)
        except Exception:  # noqa: BLE001 - a corrupt or unreadable cache is an empty one
            self.stats, self.entries, self.callsites, self.listings, self.imports = {}, {}, None, {}, {}
            self.graph_snapshot = None

    def save(self, summaries: Optional[Dict[str, Tuple[Optional[str], Any]]] = None) -> None:
        """Write the results (when anything changed) and the new module summaries
        (``{path: (content hash, ModuleSummary)}``; those without a hash are not kept)."""
        if not self.dirty and not summaries:
            return
        if not self.entries and not summaries and not os.path.isdir(self.directory):
            return  # nothing linted (an empty or excluded folder): create no cache folder for it
        try:
            _make_cache_dir(self.directory)
            for name in os.listdir(self.directory):  # results of other builds are dead weight
                if name.startswith(("results-", "summaries-")) and name not in (
                    os.path.basename(self.path),
                    os.path.basename(self.summary_dir),
                ):
                    _remove(os.path.join(self.directory, name))
            if self.dirty:
                blob = json.dumps(
                    {
                        "format": FORMAT,
                        "version": self.version,
                        "build": self.build,
                        "stats": self.stats,
                        "entries": self.entries,
                        "callsites": self.callsites,
                        "graph": self.graph_snapshot,
                        "listings": self.listings,
                        "imports": self.imports,
                    },
                    separators=(",", ":"),
                ).encode()
                _write_atomic(self.path, seal(blob, self.key))
            folder_ready = False
            for path, (content_hash, summary) in (summaries or {}).items():
                if content_hash is None:
                    continue
                if not folder_ready:
                    _make_folder(self.summary_dir)
                    folder_ready = True
                record = {"path": path, "h": content_hash, "m": summary.module, "s": summary.to_json()}
                body = json.dumps(record, separators=(",", ":")).encode()
                _write_atomic(self._summary_file(path), seal(body, self.key))
        except Exception:  # noqa: BLE001 - e.g. a read-only checkout: lint without the cache
            pass

    # -- module summaries (analysis.project.SummaryStore) -----------------------------------------
    def holds_summary(self, path: str) -> bool:
        """Whether a summary of ``path`` is stored (of some content: ``get`` checks which)."""
        return os.path.isfile(self._summary_file(path))

    def _summary_file(self, path: str) -> str:
        return os.path.join(self.summary_dir, combined_hash([path])[:24] + ".json")

    def get(self, path: str, content_hash: str, module: str):
        """The stored summary of the file at ``path``, if it was made from these contents under
        this module name."""
        from dl_lint.analysis.summary import ModuleSummary

        try:
            blob = read_cache_file(self._summary_file(path))
            body = unseal(blob, self.key) if blob is not None else None
            if body is None:
                return None
            record = json.loads(body)
            if record["path"] != path or record["h"] != content_hash or record["m"] != module:
                return None
            return ModuleSummary.from_json(record["s"])
        except Exception:  # noqa: BLE001 - missing, corrupt or from another format: parse instead
            return None

    # -- content hashes -------------------------------------------------------------------------
    def trusted(self, path: str, st: os.stat_result) -> Optional[str]:
        """The recorded hash of ``path`` if its stat proves the content unchanged."""
        known = self.stats.get(path)
        if (
            isinstance(known, list)
            and len(known) == 5
            and known[0] == st.st_size
            and known[1] == st.st_mtime_ns
            and known[2] == st.st_ino
            and isinstance(known[3], int)
            and st.st_mtime_ns + _RACY_NS < known[3]
            and isinstance(known[4], str)
        ):
            return known[4]
        return None

    def remember(self, path: str, value: str) -> str:
        """Record a hash the caller proved with ``trusted``."""
        self._hashes[path] = value
        return value

    def hash_of(self, path: str, data: Optional[bytes] = None, st: Optional[os.stat_result] = None) -> Optional[str]:
        """The content hash of the file at absolute ``path`` (None if it cannot be read), from
        the stat table when its stat is unchanged, else from its bytes (``data`` if given)."""
        if path in self._hashes:
            return self._hashes[path]
        if path in self.overlays:  # an unsaved buffer: its hash, never recorded against the file's stat
            value = self._hashes[path] = content_hash(self.overlays[path])
            return value
        if st is None:
            try:
                st = os.stat(path)
            except OSError:
                self._hashes[path] = None
                return None
        value = self.trusted(path, st) if data is None else None
        if value is None:
            if data is None:
                from dl_lint.reading import Refused, read_regular

                try:  # the project files' door: never blocks on a FIFO put in the file's place
                    data = read_regular(path, MAX_CACHE_BYTES)
                except Refused:
                    self._hashes[path] = None
                    return None
            value = content_hash(data)
            import time

            self.stats[path] = [st.st_size, st.st_mtime_ns, st.st_ino, time.time_ns(), value]
            self.dirty = True
        self._hashes[path] = value
        return value

    # -- entries --------------------------------------------------------------------------------
    def lookup(
        self, path: str, own_hash: Optional[str], settings: str, module: str, context, filename: str, digest_of=None
    ) -> Optional[Tuple[Dict[str, Any], List[Diagnostic]]]:
        """The entry for ``path`` and its diagnostics (reported as ``filename``) if it is still
        valid; ``context`` answers ``files_hash()`` and ``graph_hash()`` for entries that
        consulted them; ``digest_of(path, module)``, when given, the summary digest of a
        dependency whose bytes changed (see ``deps_valid``)."""
        entry = self.entries.get(path)
        if not isinstance(entry, dict) or own_hash is None:
            return None
        try:
            if entry["h"] != own_hash or entry["s"] != settings or entry["m"] != module:
                return None
            if not self.deps_valid(entry, digest_of):
                return None
            if "fs" in entry and entry["fs"] != context.files_hash():
                return None
            if "gs" in entry and entry["gs"] != context.graph_hash():
                return None
            if ("nw" in entry or "nm" in entry) and not context.words_hold(entry):
                return None
            if "cl" in entry and not context.listings_hold(entry):
                return None
            diags = [diagnostic_from_json(d, filename) for d in entry["d"]]
            factories = entry.get("fa") or []
            if not isinstance(factories, list) or not all(isinstance(n, str) for n in factories):
                return None
        except Exception:  # noqa: BLE001 - a malformed entry is a miss
            return None
        return entry, diags

    def stale_only_by_summaries(self, path: str, own_hash: Optional[str], settings: str, module: str) -> bool:
        """Whether the entry for ``path`` is out of date only because files it read through
        their summaries changed: it may still hold if those summaries did not."""
        entry = self.entries.get(path)
        try:
            if not isinstance(entry, dict) or own_hash is None:
                return False
            if entry["h"] != own_hash or entry["s"] != settings or entry["m"] != module:
                return False
            return all(self.hash_of(p) == dep[0] or dep[1] is not None for p, dep in entry.get("deps", {}).items())
        except Exception:  # noqa: BLE001 - a malformed entry is a miss
            return False

    def deps_valid(self, entry: Dict[str, Any], digest_of=None) -> bool:
        """Every file the entry was built from is unchanged: the same bytes, or, for a file
        read only through its summary, the same summary (``digest_of(path, module)``; then the
        entry is brought up to date with the new bytes' hash)."""
        return self.invalid_deps(entry, digest_of, first=True) == set()

    def invalid_deps(self, entry: Dict[str, Any], digest_of=None, first: bool = False) -> Optional[Set[str]]:
        """The files among the entry's dependencies that changed (``deps_valid``; the others are
        brought up to date), or None when the entry is malformed. ``first``: stop at the first."""
        deps = entry.get("deps", {})
        if not isinstance(deps, dict):
            return None
        refreshed = {}
        invalid: Set[str] = set()
        for path, (content, digest, module) in deps.items():
            current = self.hash_of(path)
            if current == content:
                continue
            if digest is None or digest_of is None or current is None or digest_of(path, module) != digest:
                invalid.add(path)
                if first:
                    return invalid
                continue
            refreshed[path] = [current, digest, module]
        if refreshed:
            entry["deps"] = {**deps, **refreshed}
            self.dirty = True
        return invalid

    def store(self, path: str, entry: Dict[str, Any]) -> None:
        self.entries[path] = entry
        self.dirty = True

    def set_graph_snapshot(self, snapshot: Dict[str, Any]) -> None:
        self.graph_snapshot = snapshot
        self.dirty = True

    def set_callsites(self, record: Optional[Dict[str, Any]]) -> None:
        self.callsites = record
        self.dirty = True


def _make_cache_dir(directory: str) -> None:
    """Create the folder (with the user's umask) and mark it: CACHEDIR.TAG, and a .gitignore
    so that a cache inside a checkout is never committed."""
    os.makedirs(directory, exist_ok=True)
    for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", GITIGNORE)):
        target = os.path.join(directory, name)
        if not os.path.lexists(target):
            _write_atomic(target, text.encode())


def _make_folder(path: str) -> None:
    """The folder ``path`` in the cache folder, made a real folder if something else (a
    symbolic link a repository planted, a file) has its name: writing through a link would
    write outside the cache."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        os.mkdir(path)
        return
    if not stat.S_ISDIR(st.st_mode):
        _remove(path)
        os.mkdir(path)


def _remove(path: str) -> None:
    """Remove a file, a symbolic link (not what it points to) or a folder of the cache."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            import shutil

            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


def _write_atomic(path: str, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it over ``path``. The temporary
    file is created with ``open`` (so with the user's umask, unlike ``mkstemp``'s 0600)."""
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        with open(tmp, "xb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def default_cache_dir(root: os.PathLike | str) -> str:
    return os.environ.get(ENV_VAR) or os.path.join(os.fspath(root), CACHE_DIR_NAME)


def project_cache_dir(path: os.PathLike | str) -> str:
    """Where a run that lints ``path`` keeps its cache: ``DL_LINT_CACHE_DIR``, else
    ``.dl_lint_cache`` in the nearest folder at or above ``path`` that has a project marker
    (pyproject.toml, setup.cfg, setup.py, .git), else in the working directory."""
    start = os.path.abspath(path)
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    folder = start
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in ROOT_MARKERS):
            return default_cache_dir(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            return default_cache_dir(os.getcwd())
        folder = parent


# -- diagnostics as JSON ---------------------------------------------------------------------


def _loc(loc: Location) -> Tuple[int, int]:
    return (loc.row, loc.column)


def diagnostic_to_json(diag: Diagnostic, own: Optional[str] = None) -> Dict[str, Any]:
    """Everything but the file name (it is the display path, which depends on the working
    directory; it is set again when the entry is reused), unless the diagnostic is reported in
    another file than ``own`` (the linted file's display path), as a yacs defaults module."""
    out: Dict[str, Any] = {
        "c": diag.code,
        "n": diag.name,
        "v": str(diag.severity),
        "m": diag.message,
        "l": _loc(diag.location),
        "e": _loc(diag.end_location),
        "q": list(diag.noqa_rows),
    }
    if diag.filename.endswith((".yaml", ".yml", ".json", ".toml")) or (own is not None and diag.filename != own):
        # Reported in a config file the linted file reads: its own path (absolute, printed again
        # from wherever the next run starts).
        out["f"] = os.path.abspath(diag.filename)
    if diag.cell is not None:
        out["cell"] = diag.cell
    if diag.detail:
        out["t"] = diag.detail
    if diag.related:
        # Absolute paths: the next run may start in another folder and prints them from there.
        out["r"] = [[r.path, r.row, r.column, r.note, r.cell] for r in diag.related]
    if diag.evidence:
        out["ev"] = list(diag.evidence)
    if diag.suppressed_at is not None:
        out["s"] = list(diag.suppressed_at)
    if diag.fix is not None:
        out["fix"] = {
            "a": diag.fix.applicability,
            "m": diag.fix.message,
            "e": [[e.content, _loc(e.location), _loc(e.end_location)] for e in diag.fix.edits],
        }
    return out


def diagnostic_from_json(data: Dict[str, Any], filename: str = "") -> Diagnostic:
    fix = None
    if data.get("fix") is not None:
        f = data["fix"]
        fix = Fix(
            applicability=f["a"],
            message=f["m"],
            edits=tuple(Edit(c, Location(*s), Location(*e)) for c, s, e in f["e"]),
        )
    if "f" in data:
        from pathlib import Path

        from dl_lint.files import display_path

        filename = display_path(Path(data["f"]), data["f"])
    return Diagnostic(
        code=data["c"],
        name=data["n"],
        severity=Severity(data["v"]),
        message=data["m"],
        filename=filename,
        location=Location(*data["l"]),
        end_location=Location(*data["e"]),
        fix=fix,
        noqa_rows=tuple(data["q"]),
        cell=data.get("cell"),
        detail=data.get("t", ""),
        related=tuple(Related(*place) for place in data.get("r", ())),
        evidence=tuple(data.get("ev", ())),
        suppressed_at=tuple(data["s"]) if "s" in data else None,
    )


def diagnostics_to_json(diags: Sequence[Diagnostic], own: Optional[str] = None) -> List[Dict[str, Any]]:
    return [diagnostic_to_json(d, own) for d in diags]
