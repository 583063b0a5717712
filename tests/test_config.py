"""Tests for dl_lint.config: sizes, loading/validation, discovery of config files, codes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dl_lint.config import (
    KEYS,
    ConfigError,
    Settings,
    clear_caches,
    codes_for_file,
    enabled_codes,
    find_config,
    format_size,
    load_config_file,
    parse_size,
    settings_for_dir,
    validate_selectors,
)

KNOWN = {"DL001": True, "DL101": True, "DL102": True, "DL201": True, "DL103": False}


@pytest.fixture(autouse=True)
def _fresh_caches():
    clear_caches()
    yield
    clear_caches()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pyproject(tmp_path: Path, body: str) -> Path:
    return write(tmp_path / "pyproject.toml", "[tool.dl-lint]\n" + body)


def config_error(tmp_path: Path, body: str) -> str:
    path = pyproject(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config_file(path, KNOWN)
    message = str(info.value)
    assert "\n" not in message
    return message


# ------------------------------------------------------------------------ sizes


@pytest.mark.parametrize(
    "text, expected",
    [
        ("64MiB", 64 * 1024**2),
        ("8GiB", 8 * 1024**3),
        ("1.5GiB", 1536 * 1024**2),
        ("512KiB", 512 * 1024),
        ("2TiB", 2 * 1024**4),
        ("100MB", 100_000_000),
        ("1GB", 1_000_000_000),
        ("3kb", 3000),
        ("4096", 4096),
        ("4096B", 4096),
        (" 16 mib ", 16 * 1024**2),
        (4096, 4096),
        ("0", 0),
    ],
)
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("-5MiB", "negative"),
    (-1, "negative"),
    ("5 parsecs", "unknown size unit"),
    ("5G", "unknown size unit"),
    ("MiB", "not a size"),
    ("1.5", "whole number"),
    (True, "not a size"),
    (1.5, "not a size"),
])  # fmt: skip
def test_parse_size_rejects(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_size(text)


@pytest.mark.parametrize(
    "n, expected",
    [
        (536870912, "512 MiB"),
        (1610612736, "1.5 GiB"),
        (1000, "1000 B"),
        (0, "0 B"),
        (1024, "1 KiB"),
        (1536, "1.5 KiB"),
        (8 * 1024**3, "8 GiB"),
        (1024**2 - 1, "1 MiB"),  # 1023.999 KiB rounds to the next unit, not "1024 KiB"
    ],
)
def test_format_size(n, expected):
    assert format_size(n) == expected


# --------------------------------------------------------------------- loading


def test_load_all_keys(tmp_path):
    path = pyproject(
        tmp_path,
        """
select = ["DL1"]
ignore = ["DL102"]
extend-select = ["DL201"]
exclude = ["gen"]
extend-exclude = ["old/*.py"]
respect-gitignore = false
max-inflight-batches = 4
batch-bytes = "64MiB"
memory-budget = 1024
target-version = "2.1.0"
extra-loaders = ["pkg.loaders.FastLoader", "Plain"]

[tool.dl-lint.per-file-ignores]
"tests/*" = ["DL0"]
"conftest.py" = ["ALL"]
""",
    )
    s = load_config_file(path, KNOWN)
    assert s.select == ("DL1",)
    assert s.ignore == ("DL102",)
    assert s.extend_select == ("DL201",)
    assert s.per_file_ignores == (("tests/*", ("DL0",)), ("conftest.py", ("ALL",)))
    assert s.exclude == ("gen",) and s.extend_exclude == ("old/*.py",)
    assert s.respect_gitignore is False
    assert s.max_inflight_batches == 4
    assert s.batch_bytes == 64 * 1024**2 and s.memory_budget == 1024
    assert s.target_version == "2.1"
    assert s.extra_loaders == ("pkg.loaders.FastLoader", "Plain")
    assert s.root == str(tmp_path)
    assert s.config_path is not None and s.config_path.endswith("pyproject.toml")


def test_defaults():
    s = Settings()
    assert (s.select, s.max_inflight_batches, s.target_version, s.respect_gitignore) == (None, 64, "2.13", True)
    assert set(KEYS) == {
        "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude",
        "respect-gitignore", "max-inflight-batches", "batch-bytes", "memory-budget",
        "target-version", "target-python", "extra-loaders", "max-file-size", "external", "documentation-url",
    }  # fmt: skip
    assert s.max_file_size == 32 * 1024 * 1024
    assert KEYS["max-inflight-batches"] == "max_inflight_batches"


def test_unknown_key_lists_accepted_keys(tmp_path):
    message = config_error(tmp_path, "selct = ['DL001']\n")
    assert message.startswith(f"{tmp_path / 'pyproject.toml'}: selct: unknown key (did you mean 'select'?); expected one of: ")
    assert "batch-bytes, documentation-url, exclude, extend-exclude" in message


def test_snake_case_key_gets_a_hint(tmp_path):
    message = config_error(tmp_path, "max_inflight_batches = 3\n")
    assert "max_inflight_batches: unknown key (did you mean 'max-inflight-batches'?)" in message
    assert "(did you mean" not in config_error(tmp_path / "other", "zzz = 3\n")


@pytest.mark.parametrize(
    "body, fragment",
    [
        ('select = "DL001"', "select: not a list: 'DL001'; expected a list of rule selectors"),
        ("select = [1]", "select: not a string: 1"),
        ("max-inflight-batches = true", "max-inflight-batches: invalid value True; expected a positive integer"),
        ("max-inflight-batches = 0", "max-inflight-batches: invalid value 0; expected a positive integer"),
        ('max-inflight-batches = "4"', "max-inflight-batches: invalid value '4'; expected a positive integer"),
        ('batch-bytes = "lots"', "batch-bytes: not a size: 'lots'; expected a size such as"),
        ("batch-bytes = 0", "batch-bytes: size must be positive"),
        ("memory-budget = -3", "memory-budget: size must not be negative"),
        ("memory-budget = false", "memory-budget: not a size: False"),
        ('memory-budget = "8G"', "memory-budget: unknown size unit 'G'"),
        ('per-file-ignores = ["a"]', "per-file-ignores: not a table"),
        ('per-file-ignores = {"a.py" = "DL001"}', "per-file-ignores.\"a.py\": not a list"),
        ('respect-gitignore = "yes"', "respect-gitignore: invalid value 'yes'; expected true or false"),
        ("target-version = 2.13", "target-version: invalid value 2.13; expected a torch version string"),
        ('target-version = "2"', "target-version: invalid value '2'"),
        ('target-version = "latest"', "target-version: invalid value 'latest'"),
        ('extra-loaders = "a.B"', "extra-loaders: not a list"),
        ('extra-loaders = ["pkg.1bad"]', "extra-loaders: invalid entry 'pkg.1bad'; expected a list of dotted names"),
        ('exclude = [3]', "exclude: invalid entry 3"),
    ],
)
def test_wrong_types(tmp_path, body, fragment):
    message = config_error(tmp_path, body + "\n")
    assert fragment in message
    assert message.startswith(str(tmp_path / "pyproject.toml") + ": ")
    assert "; expected " in message


@pytest.mark.parametrize(
    "body, key",
    [
        ('select = ["DL999"]', "select"),
        ('ignore = ["XX"]', "ignore"),
        ('extend-select = ["dl001"]', "extend-select"),
        ('per-file-ignores = {"t/*" = ["DL9"]}', 'per-file-ignores."t/*"'),
        ('select = [""]', "select"),
    ],
)
def test_unknown_selectors(tmp_path, body, key):
    message = config_error(tmp_path, body + "\n")
    assert f": {key}: unknown rule selector " in message
    assert message.endswith("expected a rule code such as DL001, a prefix such as DL1, or ALL")


def test_validate_selectors_for_cli():
    assert validate_selectors(["DL001", "DL1", "DL", "ALL"], KNOWN, "--select") == ("DL001", "DL1", "DL", "ALL")
    with pytest.raises(ConfigError) as info:
        validate_selectors(["DL001", "DL999"], KNOWN, "--select")
    assert str(info.value) == (
        "--select: unknown rule selector 'DL999'; expected a rule code such as DL001, a prefix such as DL1, or ALL"
    )


def test_toml_syntax_error_is_one_line(tmp_path):
    path = write(tmp_path / "pyproject.toml", "[tool.dl-lint]\nselect = [\n\nignore = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config_file(path, KNOWN)
    message = str(info.value)
    assert message.startswith(f"{path}: cannot parse TOML: ")
    assert "line" in message and "\n" not in message


def test_unreadable_config_file(tmp_path):
    with pytest.raises(ConfigError, match="missing.toml: cannot read: "):
        load_config_file(tmp_path / "missing.toml", KNOWN)


def test_tool_table_must_be_a_table(tmp_path):
    path = write(tmp_path / "pyproject.toml", '[tool]\n"dl-lint" = 3\n')
    with pytest.raises(ConfigError, match="tool.dl-lint: not a table"):
        load_config_file(path, KNOWN)


def test_config_flag_file_kinds(tmp_path):
    # pyproject.toml without the table: the defaults.
    plain = write(tmp_path / "a" / "pyproject.toml", "[project]\nname = 'x'\n")
    s = load_config_file(plain, KNOWN)
    assert s.select is None and s.config_path is not None and s.root == str(tmp_path / "a")
    # dl-lint.toml: top-level keys.
    top = write(tmp_path / "b" / "dl-lint.toml", "select = ['DL2']\n")
    assert load_config_file(top, KNOWN).select == ("DL2",)
    # any other name: the [tool.dl-lint] table when present...
    other = write(tmp_path / "c" / "ci.toml", "[tool.dl-lint]\nignore = ['DL001']\n")
    assert load_config_file(other, KNOWN).ignore == ("DL001",)
    # ...else its top-level keys, validated like the table.
    bad = write(tmp_path / "d" / "ci.toml", "[tool.black]\nline-length = 3\n")
    with pytest.raises(ConfigError, match="ci.toml: tool: unknown key"):
        load_config_file(bad, KNOWN)


def test_messages_use_paths_relative_to_cwd(tmp_path, monkeypatch):
    pyproject(tmp_path / "proj", "nope = 1\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_config_file(Path("proj/pyproject.toml"), KNOWN)
    assert str(info.value).startswith(os.path.join("proj", "pyproject.toml") + ": nope: unknown key")


# ------------------------------------------------------------------ find_config


def test_find_config_skips_pyproject_without_table(tmp_path):
    top = pyproject(tmp_path, "select = ['DL1']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'inner'\n")
    (tmp_path / "pkg" / "sub").mkdir()
    assert find_config(tmp_path / "pkg" / "sub") == top
    assert find_config(tmp_path) == top


def test_find_config_nearest_wins(tmp_path):
    pyproject(tmp_path, "")
    inner = pyproject(tmp_path / "pkg", "ignore = ['DL001']\n")
    assert find_config(tmp_path / "pkg") == inner


def test_dl_lint_toml_wins_over_pyproject_in_same_dir(tmp_path):
    pyproject(tmp_path, "select = ['DL1']\n")
    dedicated = write(tmp_path / "dl-lint.toml", "")
    assert find_config(tmp_path) == dedicated
    hidden = write(tmp_path / ".dl-lint.toml", "select = ['DL2']\n")
    clear_caches()
    assert find_config(tmp_path) == hidden
    assert load_config_file(hidden, KNOWN).select == ("DL2",)


def test_find_config_none(tmp_path):
    found = find_config(tmp_path)
    assert found is None or tmp_path not in found.parents


def test_malformed_pyproject_on_the_way(tmp_path):
    pyproject(tmp_path, "select = ['DL1']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project\n")
    with pytest.raises(ConfigError) as info:
        find_config(tmp_path / "pkg")
    assert "pyproject.toml: cannot parse TOML:" in str(info.value)
    assert "\n" not in str(info.value)


def test_find_config_is_cached(tmp_path):
    path = pyproject(tmp_path, "")
    (tmp_path / "a").mkdir()
    assert find_config(tmp_path / "a") == path
    path.unlink()
    assert find_config(tmp_path / "a") == path  # cached: not probed again
    clear_caches()
    found = find_config(tmp_path / "a")
    assert found != path


def test_settings_for_dir(tmp_path):
    pyproject(tmp_path, "max-inflight-batches = 2\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    cache: dict = {}
    first = settings_for_dir(tmp_path / "a", KNOWN, cache)
    assert first.max_inflight_batches == 2
    assert settings_for_dir(tmp_path / "b", KNOWN, cache) is first
    assert list(cache) == [tmp_path / "pyproject.toml"]


def test_settings_for_dir_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr("dl_lint.config.find_config", lambda _dir: None)
    assert settings_for_dir(tmp_path, KNOWN, {}) == Settings()


# ------------------------------------------------------------------- overrides


def test_with_overrides_like_ruff():
    base = Settings(select=("DL1",), ignore=("DL102",), extend_select=("DL201",), exclude=("a",), extend_exclude=("b",))
    s = base.with_overrides(select=["DL0"], ignore=["DL101"], extend_select=["DL103"], exclude=["c"], extend_exclude=["d"])
    assert s.select == ("DL0",)
    assert s.ignore == ("DL102", "DL101")
    assert s.extend_select == ("DL201", "DL103")
    assert s.exclude == ("c",) and s.extend_exclude == ("b", "d")
    assert base.with_overrides() == base
    t = base.with_overrides(target_version="1.13.1", max_inflight_batches=3, respect_gitignore=False)
    assert (t.target_version, t.max_inflight_batches, t.respect_gitignore) == ("1.13", 3, False)
    assert base.with_overrides(per_file_ignores=[("x.py", ["DL1"])]).per_file_ignores == (("x.py", ("DL1",)),)
    with pytest.raises(ConfigError, match="^--torch-version: invalid value 'two'; expected a torch version"):
        base.with_overrides(target_version="two")


def test_fingerprint():
    a = Settings(select=("DL1",))
    assert a.fingerprint() == Settings(select=("DL1",)).fingerprint()
    assert a.fingerprint() != Settings(select=("DL2",)).fingerprint()
    assert a.fingerprint() != Settings(select=("DL1",), root="/x").fingerprint()
    assert a.fingerprint() == Settings(select=("DL1",), config_path="other.toml").fingerprint()
    assert len(a.fingerprint()) == 32


# ------------------------------------------------------------------------ codes


def test_enabled_codes():
    assert enabled_codes(Settings(), KNOWN) == {"DL001", "DL101", "DL102", "DL201"}
    assert enabled_codes(Settings(select=("DL1",)), KNOWN) == {"DL101", "DL102", "DL103"}
    assert enabled_codes(Settings(select=("ALL",)), KNOWN) == set(KNOWN)
    assert enabled_codes(Settings(extend_select=("DL103",)), KNOWN) == {"DL001", "DL101", "DL102", "DL201", "DL103"}
    assert enabled_codes(Settings(ignore=("DL1",)), KNOWN) == {"DL001", "DL201"}
    assert enabled_codes(Settings(select=("DL",), ignore=("DL10", "DL001")), KNOWN) == {"DL201"}
    assert enabled_codes(Settings(select=()), KNOWN) == frozenset()


def test_codes_for_file(tmp_path):
    s = Settings(
        per_file_ignores=(("tests/*", ("DL1",)), ("conftest.py", ("ALL",)), ("**/gen/*.py", ("DL201",)), ("legacy", ("DL001",))),
        root=str(tmp_path),
    )
    default = {"DL001", "DL101", "DL102", "DL201"}
    assert codes_for_file(s, KNOWN, tmp_path / "src" / "a.py") == default
    assert codes_for_file(s, KNOWN, tmp_path / "tests" / "a.py") == {"DL001", "DL201"}
    assert codes_for_file(s, KNOWN, tmp_path / "tests" / "deep" / "a.py") == {"DL001", "DL201"}
    assert codes_for_file(s, KNOWN, tmp_path / "src" / "tests" / "a.py") == default  # "/" anchors at the root
    assert codes_for_file(s, KNOWN, tmp_path / "a" / "b" / "conftest.py") == frozenset()
    assert codes_for_file(s, KNOWN, tmp_path / "gen" / "x.py") == default - {"DL201"}
    assert codes_for_file(s, KNOWN, tmp_path / "a" / "gen" / "x.py") == default - {"DL201"}
    assert codes_for_file(s, KNOWN, tmp_path / "legacy" / "old" / "x.py") == default - {"DL001"}


def test_codes_for_file_relative_to_root_not_cwd(tmp_path, monkeypatch):
    (tmp_path / "proj" / "tests").mkdir(parents=True)
    s = Settings(per_file_ignores=(("tests/*", ("ALL",)),), root=str(tmp_path / "proj"))
    monkeypatch.chdir(tmp_path / "proj" / "tests")
    assert codes_for_file(s, KNOWN, Path("t.py")) == frozenset()
    monkeypatch.chdir(tmp_path)
    assert codes_for_file(s, KNOWN, Path("proj/tests/t.py")) == frozenset()
    assert codes_for_file(s, KNOWN, Path("proj/t.py")) == {"DL001", "DL101", "DL102", "DL201"}


# -- documentation-url ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/OWNER/dl-lint/blob/main/docs/rules.md",
        "http://docs.internal:8080/dl-lint/rules.html#top",
        "https://docs.example.org/dl-lint/rules/{code}/",
    ],
)
def test_documentation_url_is_read(tmp_path, url):
    from dl_lint.config import documentation_url

    (tmp_path / "pyproject.toml").write_text(f'[tool.dl-lint]\ndocumentation-url = "{url}"\n')
    settings = load_config_file(tmp_path / "pyproject.toml", KNOWN)
    assert settings.documentation_url == url
    assert documentation_url(settings) == url
    # the URL is printed by reports only: results cached with another URL stay valid
    assert settings.fingerprint() == settings.replace(documentation_url=None).fingerprint()


@pytest.mark.parametrize(
    "value",
    ['"docs/rules.md"', '"ftp://example.org/rules"', '"javascript:alert(1)"', '"https://"', '"https://a b/"',
     '"https://x.org/\\u00e9"', '"https://x.org/\\"quoted\\""', "3", '["https://x.org"]', '""'],
)
def test_documentation_url_must_be_a_plain_http_url(tmp_path, value):
    message = config_error(tmp_path, f"documentation-url = {value}\n")
    assert ": documentation-url: invalid value " in message and "expected an http(s) URL" in message
    assert "\n" not in message


def test_the_environment_beats_the_setting_and_the_built_in_is_none(tmp_path, monkeypatch):
    from dl_lint import model
    from dl_lint.config import DOCUMENTATION_URL_ENV, documentation_url

    (tmp_path / "pyproject.toml").write_text('[tool.dl-lint]\ndocumentation-url = "https://a.example/rules.md"\n')
    settings = load_config_file(tmp_path / "pyproject.toml", KNOWN)
    monkeypatch.delenv(DOCUMENTATION_URL_ENV, raising=False)
    assert documentation_url(Settings()) is None and model.DOCUMENTATION_URL is None
    monkeypatch.setenv(DOCUMENTATION_URL_ENV, "https://b.example/rules.md")
    assert documentation_url(settings) == documentation_url(Settings()) == "https://b.example/rules.md"
    monkeypatch.setenv(DOCUMENTATION_URL_ENV, "")  # empty: not set
    assert documentation_url(settings) == "https://a.example/rules.md"
    monkeypatch.setenv(DOCUMENTATION_URL_ENV, "not a url")
    with pytest.raises(ConfigError, match=f"^{DOCUMENTATION_URL_ENV}: invalid value 'not a url'"):
        documentation_url(settings)
