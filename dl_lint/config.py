"""Project configuration: ``[tool.dl-lint]`` in pyproject.toml, or dl-lint.toml.

Configuration is data only: it is read with tomllib and never executed.
Every problem is reported as a one-line :class:`ConfigError` naming the file,
the key and what is accepted, so the CLI can print it and exit 2.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterable, Mapping, Optional, Sequence, Tuple, Union

from dl_lint.discovery import glob_matches
from dl_lint.record import Record, as_dict

PYPROJECT = "pyproject.toml"
# Searched in this order within one directory; the first found wins (like ruff).
CONFIG_NAMES = (".dl-lint.toml", "dl-lint.toml", PYPROJECT)


class ConfigError(Exception):
    """A configuration problem; ``str(e)`` is one line:
    ``<file>: <key>: <what is wrong>; expected <what is accepted>``."""


# --------------------------------------------------------------------------- sizes

_BINARY = {"kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}
_DECIMAL = {"b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "tb": 1000**4}
_UNITS = {**_DECIMAL, **_BINARY}
_SIZE_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*$")
_SIZE_HELP = 'a size such as "512MiB", "8GiB", "100MB" or a number of bytes'


def parse_size(text: Union[str, int]) -> int:
    """Bytes in ``text``: ``"64MiB"``, ``"1.5GiB"``, ``"100MB"``, ``"4096"``, ``"4096B"`` or an int.

    Binary units (KiB..TiB) are powers of 1024, decimal units (KB..TB) powers of
    1000; units are case-insensitive. A bare "G" or "M" is rejected on purpose:
    it is ambiguous between the two, and memory math is what this tool checks.
    """
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise ValueError(f"not a size: {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"size must not be negative: {text}")
        return text
    match = _SIZE_RE.match(text)
    if match is None:
        what = "empty size" if not text.strip() else f"not a size: {text!r}"
        if text.strip().startswith("-"):
            what = f"size must not be negative: {text!r}"
        raise ValueError(what)
    number, unit = match.group(1), match.group(2).lower() or "b"
    if unit not in _UNITS:
        raise ValueError(f"unknown size unit {match.group(2)!r} in {text!r} (units: B, KB..TB, KiB..TiB)")
    if unit == "b" and "." in number:
        raise ValueError(f"not a whole number of bytes: {text!r}")
    # Exact rational arithmetic: "1.5GiB" is exact and big sizes lose no precision.
    from fractions import Fraction  # exact: 1.5 GiB is 1610612736 bytes

    return round(Fraction(number) * _UNITS[unit])


def format_size(n: int) -> str:
    """``536870912 -> "512 MiB"``, ``1610612736 -> "1.5 GiB"``, ``1000 -> "1000 B"``."""
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
    value, i = float(n), 0
    while abs(value) >= 1024 and i < len(units) - 1:
        value, i = value / 1024, i + 1
    if i == 0:
        return f"{n} B"
    text = f"{value:.1f}"
    if text.startswith("1024") and i < len(units) - 1:  # 1023.96 KiB rounds up to the next unit
        text, i = "1.0", i + 1
    return f"{text[:-2] if text.endswith('.0') else text} {units[i]}"


# ------------------------------------------------------------------------ settings


DEFAULT_MAX_FILE_SIZE = 32 * 1024 * 1024


class Settings(Record):
    """Effective settings for the files under one config file (or the defaults)."""

    __slots__ = (
        "select", "ignore", "extend_select", "per_file_ignores", "exclude", "extend_exclude",
        "respect_gitignore", "max_inflight_batches", "batch_bytes", "memory_budget", "target_version",
        "target_python", "extra_loaders", "max_file_size", "external", "documentation_url", "config_path", "root",
    )  # fmt: skip

    def __init__(
        self,
        select: Optional[Tuple[str, ...]] = None,  # None = the rules' defaults
        ignore: Tuple[str, ...] = (),
        extend_select: Tuple[str, ...] = (),
        per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = (),  # (glob, selectors)
        exclude: Tuple[str, ...] = (),  # user globs; DEFAULT_EXCLUDES always apply too
        extend_exclude: Tuple[str, ...] = (),
        respect_gitignore: bool = True,
        max_inflight_batches: int = 64,
        batch_bytes: Optional[int] = None,
        memory_budget: Optional[int] = None,
        target_version: str = "2.13",  # torch "MAJOR.MINOR"
        # The Pythons the code runs on (a version such as "3.14" or a specifier such as ">=3.14");
        # None: the project's requires-python decides (DL202/DL203 severity).
        target_python: Optional[str] = None,
        extra_loaders: Tuple[str, ...] = (),  # qualified names treated like DataLoader
        # Files larger than this are reported (DL000) instead of analysed: a guard against
        # pathological input only (a 1.5 MB generated module takes about a second).
        max_file_size: Optional[int] = DEFAULT_MAX_FILE_SIZE,
        # Codes and prefixes of other tools that look like dl-lint's: DL012 never reports them
        # in a ``# noqa`` (ruff's ``lint.external``).
        external: Tuple[str, ...] = (),
        # Where dl-lint's rule documentation is published (rule links in JSON, SARIF, the
        # language server); None: the built-in one, if any (``documentation_url`` below).
        documentation_url: Optional[str] = None,
        config_path: Optional[str] = None,  # where these came from; None = built-in defaults
        root: Optional[str] = None,  # directory the globs are relative to
    ) -> None:
        self.select = select
        self.ignore = ignore
        self.extend_select = extend_select
        self.per_file_ignores = per_file_ignores
        self.exclude = exclude
        self.extend_exclude = extend_exclude
        self.respect_gitignore = respect_gitignore
        self.max_inflight_batches = max_inflight_batches
        self.batch_bytes = batch_bytes
        self.memory_budget = memory_budget
        self.target_version = target_version
        self.target_python = target_python
        self.extra_loaders = extra_loaders
        self.max_file_size = max_file_size
        self.external = external
        self.documentation_url = documentation_url
        self.config_path = config_path
        self.root = root

    def with_overrides(
        self,
        *,
        select: Optional[Sequence[str]] = None,
        ignore: Optional[Sequence[str]] = None,
        extend_select: Optional[Sequence[str]] = None,
        per_file_ignores: Optional[Sequence[Tuple[str, Sequence[str]]]] = None,
        exclude: Optional[Sequence[str]] = None,
        extend_exclude: Optional[Sequence[str]] = None,
        respect_gitignore: Optional[bool] = None,
        max_inflight_batches: Optional[int] = None,
        batch_bytes: Optional[int] = None,
        memory_budget: Optional[int] = None,
        target_version: Optional[str] = None,
        extra_loaders: Optional[Sequence[str]] = None,
        max_file_size: Optional[int] = None,
    ) -> "Settings":
        """Apply command-line options (None = not given), the way ruff does:
        ``select`` and ``exclude`` replace, the list-valued others add to the config's."""
        changes: Dict[str, Any] = {}
        if select is not None:
            changes["select"] = tuple(select)
        if exclude is not None:
            changes["exclude"] = tuple(exclude)
        for name, extra in (
            ("ignore", ignore),
            ("extend_select", extend_select),
            ("extend_exclude", extend_exclude),
            ("extra_loaders", extra_loaders),
        ):
            if extra is not None:
                changes[name] = getattr(self, name) + tuple(extra)
        if per_file_ignores is not None:
            changes["per_file_ignores"] = self.per_file_ignores + tuple((g, tuple(c)) for g, c in per_file_ignores)
        for name, value in (
            ("respect_gitignore", respect_gitignore),
            ("max_inflight_batches", max_inflight_batches),
            ("batch_bytes", batch_bytes),
            ("memory_budget", memory_budget),
            ("max_file_size", max_file_size),
            ("target_version", _cli_version(target_version) if target_version is not None else None),
        ):
            if value is not None:
                changes[name] = value
        return self.replace(**changes)

    def fingerprint(self) -> str:
        """A stable hash of everything that can change results (not ``config_path``,
        which only appears in messages, nor ``documentation_url``, which only the reports
        print), for keying a results cache."""
        data = as_dict(self)
        del data["config_path"]
        del data["documentation_url"]
        import hashlib
        import json

        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:32]


# ---------------------------------------------------------------------- validation

KEYS: Dict[str, str] = {
    "select": "select",
    "ignore": "ignore",
    "extend-select": "extend_select",
    "per-file-ignores": "per_file_ignores",
    "exclude": "exclude",
    "extend-exclude": "extend_exclude",
    "respect-gitignore": "respect_gitignore",
    "max-inflight-batches": "max_inflight_batches",
    "batch-bytes": "batch_bytes",
    "memory-budget": "memory_budget",
    "target-version": "target_version",
    "target-python": "target_python",
    "extra-loaders": "extra_loaders",
    "max-file-size": "max_file_size",
    "external": "external",
    "documentation-url": "documentation_url",
}

_CODE_LIKE = re.compile(r"^[A-Za-z]+[0-9]*$")
_VERSION_RE = re.compile(r"^([0-9]+)\.([0-9]+)(?:\.[0-9]+)?$")


def _normalize_version(text: str) -> str:
    """``"2.13.0" -> "2.13"``; ValueError when it is not ``MAJOR.MINOR[.PATCH]``."""
    match = _VERSION_RE.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not a torch version: {text!r}")
    return f"{int(match.group(1))}.{int(match.group(2))}"


def _cli_version(text: str) -> str:
    try:
        return _normalize_version(text)
    except ValueError:
        raise ConfigError(f'--torch-version: invalid value {text!r}; expected a torch version such as "2.13"') from None


def validate_selectors(selectors: Any, known_codes: Mapping[str, bool], where: str) -> Tuple[str, ...]:
    """Check that ``selectors`` is a list of rule codes, prefixes of them, or ALL.

    ``where`` starts the message: ``"--select"`` or ``"pyproject.toml: select"``.
    """
    if isinstance(selectors, str) or not isinstance(selectors, (list, tuple)):
        raise ConfigError(
            f'{where}: not a list: {selectors!r}; expected a list of rule selectors such as ["DL001", "DL1"]'
        )
    for sel in selectors:
        if not isinstance(sel, str):
            raise ConfigError(f"{where}: not a string: {sel!r}; expected rule selectors as strings")
        if not (sel == "ALL" or (sel and any(code.startswith(sel) for code in known_codes))):
            raise ConfigError(
                f"{where}: unknown rule selector {sel!r}; "
                "expected a rule code such as DL001, a prefix such as DL1, or ALL"
            )
    return tuple(selectors)


def _string_list(value: Any, where: str, accepted: str, check: Callable[[str], bool] = bool) -> Tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list):
        raise ConfigError(f"{where}: not a list: {value!r}; expected a list of {accepted}")
    for item in value:
        if not isinstance(item, str) or not check(item):
            raise ConfigError(f"{where}: invalid entry {item!r}; expected a list of {accepted}")
    return tuple(value)


def _positive_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: invalid value {value!r}; expected a positive integer")
    return value


def _size(value: Any, where: str) -> int:
    try:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError(f"not a size: {value!r}")
        size = parse_size(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}; expected {_SIZE_HELP}") from None
    if size <= 0:
        raise ConfigError(f"{where}: size must be positive: {value!r}; expected {_SIZE_HELP}")
    return size


def _python_target(value: Any, where: str) -> str:
    from dl_lint.analysis.pythons import lowest_python

    try:
        if not isinstance(value, str):
            raise ValueError(value)
        lowest_python(value)
    except ValueError:
        expected = 'a Python version such as "3.14" or a version specifier such as ">=3.14"'
        raise ConfigError(f"{where}: invalid value {value!r}; expected {expected}") from None
    return value.strip()


def _is_dotted_name(text: str) -> bool:
    return all(part.isidentifier() for part in text.split("."))


def _parse_table(table: Mapping[str, Any], known_codes: Mapping[str, bool], display: str) -> Dict[str, Any]:
    """Validate a ``[tool.dl-lint]`` table and turn it into Settings field values."""
    fields: Dict[str, Any] = {}
    for key, value in table.items():
        where = f"{display}: {key}"
        if key not in KEYS:
            import difflib  # error path only

            close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            maybe = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{where}: unknown key{maybe}; expected one of: {', '.join(sorted(KEYS))}")
        if key in ("select", "ignore", "extend-select"):
            fields[KEYS[key]] = validate_selectors(value, known_codes, where)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f'{where}: not a table: {value!r}; expected a table of glob = ["DL001", ...]')
            fields["per_file_ignores"] = tuple(
                (glob, validate_selectors(codes, known_codes, f"{where}.{_quoted(glob)}"))
                for glob, codes in value.items()
            )
        elif key in ("exclude", "extend-exclude"):
            fields[KEYS[key]] = _string_list(value, where, "glob patterns (strings)")
        elif key == "respect-gitignore":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: invalid value {value!r}; expected true or false")
            fields["respect_gitignore"] = value
        elif key == "max-inflight-batches":
            fields["max_inflight_batches"] = _positive_int(value, where)
        elif key in ("batch-bytes", "memory-budget", "max-file-size"):
            fields[KEYS[key]] = _size(value, where)
        elif key == "target-version":
            try:
                fields["target_version"] = _normalize_version(value)
            except ValueError:
                expected = 'a torch version string such as "2.13"'
                raise ConfigError(f"{where}: invalid value {value!r}; expected {expected}") from None
        elif key == "target-python":
            fields["target_python"] = _python_target(value, where)
        elif key == "external":
            accepted = 'rule codes or prefixes of other tools, such as "DLX1"'
            fields["external"] = tuple(c.upper() for c in _string_list(value, where, accepted, _CODE_LIKE.match))
        elif key == "extra-loaders":
            accepted = 'dotted names such as "pkg.module.MyLoader"'
            fields["extra_loaders"] = _string_list(value, where, accepted, _is_dotted_name)
        elif key == "documentation-url":
            fields["documentation_url"] = _url(value, where)
    return fields


DOCUMENTATION_URL_ENV = "DL_LINT_DOCUMENTATION_URL"
_URL_HELP = (
    'an http(s) URL of dl-lint\'s rule documentation, such as "https://github.com/OWNER/dl-lint/blob/main/'
    'docs/rules.md" (or with {code} where a page per rule takes the code)'
)


def _url(value: Any, where: str) -> str:
    """A URL reports may print: http or https with a host, printable ASCII without spaces,
    quotes or angle brackets (percent-encode anything else), at most 2000 characters. The text
    comes from a project's file or the environment, so nothing else gets through."""
    from urllib.parse import urlsplit

    ok = isinstance(value, str) and 0 < len(value) <= 2000 and all(33 <= ord(c) <= 126 for c in value)
    ok = ok and not any(c in value for c in "\"'<>\\`")
    if ok:
        try:
            parts = urlsplit(value)
        except ValueError:
            parts = None
        ok = parts is not None and parts.scheme in ("http", "https") and bool(parts.hostname)
    if not ok:
        shown = repr(value) if not isinstance(value, str) or len(value) <= 80 else repr(value[:80] + "...")
        raise ConfigError(f"{where}: invalid value {shown}; expected {_URL_HELP}")
    return value


def documentation_url(settings: Optional[Settings]) -> Optional[str]:
    """The documentation URL reports link rules to: the DL_LINT_DOCUMENTATION_URL environment
    variable (as ruff's environment variables, it beats the configuration; empty: not set), else
    the ``documentation-url`` of ``settings``, else the one built into dl-lint
    (``model.DOCUMENTATION_URL``, None until dl-lint is published). Raises ConfigError for an
    environment value that is not such a URL."""
    from dl_lint.model import DOCUMENTATION_URL

    from_env = os.environ.get(DOCUMENTATION_URL_ENV)
    if from_env:
        return _url(from_env, DOCUMENTATION_URL_ENV)
    if settings is not None and settings.documentation_url:
        return settings.documentation_url
    return DOCUMENTATION_URL


# ------------------------------------------------------------------------- loading


def _display(path: Path) -> str:
    """The path relative to the working directory when it is under it (short messages)."""
    text = os.path.abspath(path)
    cwd = os.getcwd()
    return os.path.relpath(text, cwd) if text.startswith(cwd + os.sep) else str(path)


@functools.lru_cache(maxsize=None)
def _read_toml(path: str) -> Mapping[str, Any]:
    """Parsed TOML, cached: find_config and load_config_file read the same files."""
    if sys.version_info >= (3, 11):  # imported here: a tree without pyproject.toml never needs it
        import tomllib
    else:  # pragma: no cover - exercised on Python < 3.11 only
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"{_display(Path(path))}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a 5000-digit integer
        message = " ".join(str(exc).split())
        raise ConfigError(f"{_display(Path(path))}: cannot parse TOML: {message}") from None
    except RecursionError:
        raise ConfigError(f"{_display(Path(path))}: cannot parse TOML: arrays or tables nested too deeply") from None


@functools.lru_cache(maxsize=None)
def project_metadata(directory: str) -> Tuple[Optional[str], Optional[str], Tuple[str, ...]]:
    """The project a file in ``directory`` belongs to, as its packaging metadata says: (the
    pyproject.toml read, its ``requires-python``, its classifiers), from the nearest folder at or
    above ``directory`` that holds pyproject.toml, setup.cfg, setup.py or .git (a project's
    boundary). (None, None, ()) when that folder has no pyproject.toml with a ``[project]`` table,
    or it cannot be read (a broken file is the configuration's error to report, not this one's).
    Memoized per folder, recursing upward."""
    path = os.path.join(directory, PYPROJECT)
    if os.path.isfile(path):
        try:
            table = _read_toml(os.path.abspath(path)).get("project")
        except ConfigError:
            return path, None, ()
        if not isinstance(table, dict):
            return path, None, ()
        requires = table.get("requires-python")
        classifiers = table.get("classifiers")
        found = tuple(c for c in classifiers if isinstance(c, str)) if isinstance(classifiers, list) else ()
        return path, (requires if isinstance(requires, str) else None), found
    if any(os.path.exists(os.path.join(directory, marker)) for marker in ("setup.cfg", "setup.py", ".git")):
        return None, None, ()
    parent = os.path.dirname(directory)
    return (None, None, ()) if parent == directory else project_metadata(parent)


def _tool_table(data: Mapping[str, Any], display: str) -> Optional[Mapping[str, Any]]:
    tool = data.get("tool")
    if not isinstance(tool, dict) or "dl-lint" not in tool:
        return None
    table = tool["dl-lint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{display}: tool.dl-lint: not a table; expected a [tool.dl-lint] table")
    return table


def load_config_file(path: Path, known_codes: Mapping[str, bool]) -> Settings:
    """Settings from one file: its ``[tool.dl-lint]`` table if it has one, else
    (for any file not named pyproject.toml) its top-level keys; a pyproject.toml
    without the table gives the defaults."""
    path = Path(path)
    abspath = os.path.abspath(path)
    display = _display(path)
    data = _read_toml(abspath)
    table = _tool_table(data, display)
    if table is None:
        table = {} if path.name == PYPROJECT else data
    fields = _parse_table(table, known_codes, display)
    return Settings(**fields, config_path=display, root=os.path.dirname(abspath))


@functools.lru_cache(maxsize=None)
def _find_config_abs(directory: str) -> Optional[str]:
    """Memoized per directory, recursing upward, so each directory is probed once."""
    for name in CONFIG_NAMES:
        candidate = os.path.join(directory, name)
        if not os.path.isfile(candidate):
            continue
        if name != PYPROJECT or _tool_table(_read_toml(candidate), _display(Path(candidate))) is not None:
            return candidate
    parent = os.path.dirname(directory)
    return None if parent == directory else _find_config_abs(parent)


def find_config(start_dir: Path) -> Optional[Path]:
    """The nearest config at or above ``start_dir``: a .dl-lint.toml / dl-lint.toml
    (always), or a pyproject.toml that has a ``[tool.dl-lint]`` table (ones without
    it are skipped, like ruff). Raises ConfigError for a malformed file on the way."""
    found = _find_config_abs(os.path.abspath(start_dir))
    return Path(found) if found is not None else None


def settings_for_dir(dir: Path, known_codes: Mapping[str, bool], cache: Dict[Optional[Path], Settings]) -> Settings:
    """Settings for the files in ``dir``; ``cache`` maps config path -> Settings."""
    config = find_config(dir)
    if config not in cache:
        cache[config] = Settings() if config is None else load_config_file(config, known_codes)
    return cache[config]


def clear_caches() -> None:
    """Forget cached lookups (for long-running processes and tests that edit files)."""
    _read_toml.cache_clear()
    _find_config_abs.cache_clear()
    project_metadata.cache_clear()


# --------------------------------------------------------------------------- codes


def _matching(selectors: Iterable[str], known_codes: Mapping[str, bool]) -> FrozenSet[str]:
    selectors = tuple(selectors)
    if "ALL" in selectors:
        return frozenset(known_codes)
    return frozenset(code for code in known_codes if any(code.startswith(sel) for sel in selectors if sel))


def enabled_codes(settings: Settings, known_codes: Mapping[str, bool]) -> FrozenSet[str]:
    """``select`` (or the default-on rules) plus ``extend_select``, minus ``ignore``."""
    if settings.select is None:
        base = frozenset(code for code, on in known_codes.items() if on)
    else:
        base = _matching(settings.select, known_codes)
    return (base | _matching(settings.extend_select, known_codes)) - _matching(settings.ignore, known_codes)


def codes_for_file(settings: Settings, known_codes: Mapping[str, bool], path: Path) -> FrozenSet[str]:
    """Enabled codes for one file, after the per-file-ignores whose glob matches it.

    A glob matches the file's posix path relative to ``settings.root`` (else the
    working directory) or that of a parent directory, so ``"legacy"`` covers a
    whole tree; a glob without "/" matches a bare name at any depth, so
    ``"test_*.py"`` works everywhere (like ruff/flake8). See ``glob_matches``.
    """
    codes = enabled_codes(settings, known_codes)
    if not settings.per_file_ignores or not codes:
        return codes
    rel = Path(os.path.relpath(os.path.abspath(path), settings.root or os.getcwd())).as_posix()
    candidates = [(rel, False)]
    if not rel.startswith("../"):  # parent directories, only inside the root
        parts = rel.split("/")
        candidates += [("/".join(parts[:i]), True) for i in range(1, len(parts))]
    for glob, selectors in settings.per_file_ignores:
        if any(glob_matches(glob, cand, is_dir=is_dir) for cand, is_dir in candidates):
            codes = codes - _matching(selectors, known_codes)
    return codes


def _quoted(text: str) -> str:
    import json

    return json.dumps(text)
