"""``dl-lint check --show-files`` and ``--show-settings``: what a run would lint and with which
settings, without linting (ruff's flags of the same names).

The files are found the way ``engine.lint_paths`` finds them: for each given path, the settings of
its folder (the nearest configuration, with the command line's overrides) decide the excludes;
tests/test_cli_conventions.py checks that both agree (the files shown are the files a run reports on).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["files_to_lint", "settings_text"]


def _settings_lookup(config_file: Optional[str], overrides: Dict[str, object]):
    from dl_lint.config import load_config_file, settings_for_dir
    from dl_lint.rules import known_codes

    codes = known_codes()
    fixed = load_config_file(Path(config_file), codes).with_overrides(**overrides) if config_file else None
    configs: Dict = {}

    def settings_for(directory: Path):
        if fixed is not None:
            return fixed
        return settings_for_dir(directory, codes, configs).with_overrides(**overrides)

    return settings_for


def files_to_lint(
    paths: Sequence[str], config_file: Optional[str], overrides: Dict[str, object], *, force_exclude: bool = False
) -> Tuple[List[str], List[Tuple[str, str]]]:
    """The absolute paths a run over ``paths`` lints (sorted), and the paths it would report as
    unreadable (DL000) with the reason. Raises DiscoveryError for a path that does not exist."""
    from dl_lint.discovery import discover

    settings_for = _settings_lookup(config_file, overrides)
    found: Dict[str, None] = {}
    problems: List[Tuple[str, str]] = []
    for given in paths or (".",):
        path = Path(given)
        base = settings_for(path if os.path.isdir(path) else path.parent)
        result = discover(
            [path],
            exclude=base.exclude,
            extend_exclude=base.extend_exclude,
            respect_gitignore=base.respect_gitignore,
            root=Path(base.root) if base.root else None,
            suffixes=(".py", ".ipynb"),
            force_exclude=force_exclude,
        )
        problems += [(str(p), reason) for p, reason in result.problems]
        problems += [warning for warning in result.warnings if warning not in problems]
        for file in result.files:
            found.setdefault(os.path.abspath(file), None)
    return sorted(found), problems


def _display(path: Path) -> str:
    """Relative to the working directory when under it (as diagnostics print paths)."""
    absolute, cwd = os.path.abspath(path), os.getcwd()
    return os.path.relpath(absolute, cwd) if absolute.startswith(cwd + os.sep) else str(path)


def _value(value: object) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value, ensure_ascii=False)


def settings_text(
    paths: Sequence[str],
    config_file: Optional[str],
    overrides: Dict[str, object],
    *,
    output_format: str = "concise",
    cache: bool = True,
    cache_dir: Optional[str] = None,
) -> str:
    """The settings used for the first file a run over ``paths`` lints (the first path itself
    when it holds none), as TOML-like lines."""
    from dl_lint.cache import project_cache_dir
    from dl_lint.config import DOCUMENTATION_URL_ENV, codes_for_file, documentation_url, format_size
    from dl_lint.discovery import DEFAULT_EXCLUDES
    from dl_lint.rules import known_codes

    given = list(paths or (".",))
    files, _ = files_to_lint(given[:1], config_file, overrides)
    target = Path(files[0]) if files else Path(given[0])
    folder = target if os.path.isdir(target) else target.parent
    settings = _settings_lookup(config_file, overrides)(folder.absolute())
    enabled = sorted(codes_for_file(settings, known_codes(), target))
    docs = documentation_url(_settings_lookup(config_file, overrides)(Path.cwd()))

    def size(value: Optional[int]) -> str:
        return _value(None if value is None else format_size(value))

    if not cache:
        where = "off (--no-cache)"
    else:
        from dl_lint.cache import unsafe_location
        from dl_lint.roots import find_root

        where = os.path.abspath(cache_dir) if cache_dir else os.path.abspath(project_cache_dir(given[0]))
        refused = unsafe_location(where, find_root(Path(given[0])))
        if refused is not None:
            where += f" (not used: {refused})"
    per_file = {glob: list(codes) for glob, codes in settings.per_file_ignores}
    lines = [
        f"Resolved settings for: {_display(target)}",
        f"Settings file: {settings.config_path or '(none: the built-in defaults)'}",
        f"Cache: {where}",
        "",
        "# Rules",
        f"select = {_value(settings.select) if settings.select is not None else '(default: the rules on by default)'}",
        f"extend-select = {_value(settings.extend_select)}",
        f"ignore = {_value(settings.ignore)}",
        f"per-file-ignores = {_value(per_file)}",
        f"enabled for this file = {_value(enabled)}",
        f"external = {_value(settings.external)}  # other tools' codes in # noqa, never reported by DL012",
        "",
        "# Files",
        f"exclude = {_value(settings.exclude)}",
        f"extend-exclude = {_value(settings.extend_exclude)}",
        f"always excluded = {_value(DEFAULT_EXCLUDES)}",
        f"respect-gitignore = {_value(settings.respect_gitignore)}",
        "",
        "# Analysis",
        f"target-version = {_value(settings.target_version)}  # torch (--torch-version)",
        f"target-python = {_value(settings.target_python)}  # Python (not set: the project's requires-python)",
        f"max-inflight-batches = {settings.max_inflight_batches}",
        f"batch-bytes = {size(settings.batch_bytes)}",
        f"memory-budget = {size(settings.memory_budget)}",
        f"extra-loaders = {_value(settings.extra_loaders)}",
        "",
        "# Output",
        f"output-format = {_value(output_format)}",
        f"documentation-url = {_value(docs)}  # rule links of json, sarif (from the working folder's settings; "
        f"{DOCUMENTATION_URL_ENV} beats it)",
    ]
    from dl_lint import printable

    # Each line holds names and values from the project's files: shown on one line.
    return "".join(printable.text(line) + "\n" for line in lines)
