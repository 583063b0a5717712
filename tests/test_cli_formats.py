"""The output formats through the installed entry point: --output-format, DL_LINT_OUTPUT_FORMAT,
--statistics."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
GOOD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)\n"


def _repo(tmp_path):
    """A checkout with src/bad.py; dl-lint runs from src/, so the repo root is one level up."""
    (tmp_path / ".git").mkdir()  # all repo_root looks for
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad.py").write_text(BAD)
    return src


def test_github_annotation(tmp_path, run_cli):
    src = _repo(tmp_path)
    result = run_cli("--output-format", "github", "bad.py", cwd=src)
    assert result.returncode == 1, result.stderr
    [line] = result.stdout.splitlines()
    assert line.startswith(
        "::error title=dl-lint (DL001),file=src/bad.py,line=2,col=29,endLine=2,endColumn=46"
        "::src/bad.py:2:29: DL001 prefetch_factor=2 is passed but num_workers=0"
    )


def test_env_var_sets_the_default_format(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("bad.py", env={"DL_LINT_OUTPUT_FORMAT": "json"})
    assert result.returncode == 1
    [item] = json.loads(result.stdout)
    assert item["code"] == "DL001" and item["filename"] == "bad.py"
    # The flag wins over the environment.
    flagged = run_cli("--output-format", "concise", "bad.py", env={"DL_LINT_OUTPUT_FORMAT": "json"})
    assert flagged.stdout.startswith("bad.py:2:29: DL001 ")


def test_invalid_format_from_env_is_a_usage_error(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("bad.py", env={"DL_LINT_OUTPUT_FORMAT": "xml"})
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "dl-lint: error: invalid value for DL_LINT_OUTPUT_FORMAT (environment variable): 'xml' is not one of "
        "'concise', 'full', 'json', 'json-lines', 'github', 'sarif', 'junit', 'gitlab'.\n"
    )
    # The flag's bad value names the flag, not the environment variable (click names both).
    flagged = run_cli("--output-format", "yaml", "bad.py", env={"DL_LINT_OUTPUT_FORMAT": "json"})
    assert (flagged.returncode, flagged.stdout) == (2, "")
    assert flagged.stderr.startswith("dl-lint: error: invalid value for '--output-format': 'yaml' is not one of ")
    assert flagged.stderr.count("\n") == 1 and "DL_LINT_OUTPUT_FORMAT" not in flagged.stderr


def test_statistics(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "also_bad.py").write_text(BAD)
    result = run_cli("--statistics", ".")
    assert result.returncode == 1
    # DL001's fix here (removing prefetch_factor) is unsafe: fixable only with --unsafe-fixes; ruff
    # ends its statistics with the summary lines, and so does dl-lint (its own words)
    assert result.stdout == (
        "2\tDL001\t[ ]\tprefetch-without-workers\n"
        "Found 2 problems: 2 errors.\n"
        "2 hidden fixes can be enabled with the `--unsafe-fixes` option.\n"
    )
    assert run_cli("--statistics", "-q", ".").stdout == "2\tDL001\t[ ]\tprefetch-without-workers\n"
    assert run_cli("--statistics", "--exit-zero", ".").returncode == 0
    as_json = run_cli("--statistics", "--output-format", "json", ".")
    assert json.loads(as_json.stdout) == [
        {"code": "DL001", "name": "prefetch-without-workers", "count": 2, "fixable": False}
    ]
    unsafe = run_cli("--statistics", "--unsafe-fixes", ".")
    assert unsafe.stdout.startswith("2\tDL001\t[*]\tprefetch-without-workers\nFound 2 problems: 2 errors.\n")
    as_json = run_cli("--statistics", "--unsafe-fixes", "--output-format", "json", ".")
    assert json.loads(as_json.stdout)[0]["fixable"] is True
    (tmp_path / "good.py").write_text(GOOD)
    clean = run_cli("--statistics", "good.py")
    assert (clean.returncode, clean.stdout) == (0, "")


def test_full_shows_the_source_and_caret(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("--output-format", "full", "bad.py")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bad.py:2:29: DL001 prefetch_factor=2")
    assert lines[1:5] == [
        "  |",
        "2 | loader = DataLoader([1, 2], prefetch_factor=2)",
        "  |                             ^^^^^^^^^^^^^^^^^",
        "  |",
    ]
    assert not any(line.startswith("  help:") for line in lines)  # the fix is unsafe: not offered
    unsafe = run_cli("--output-format", "full", "--unsafe-fixes", "bad.py").stdout.splitlines()
    assert unsafe[0].startswith("bad.py:2:29: DL001 [*] prefetch_factor=2")
    assert "  help: Remove prefetch_factor (there are no workers to prefetch)" in unsafe
    assert "Found 1 problem: 1 error." in lines


def test_full_from_stdin_has_no_snippet(tmp_path, run_cli):
    # The file on disk differs from what is piped in: its text must not be shown.
    (tmp_path / "bad.py").write_text("# something else entirely\n" * 3)
    result = run_cli("--output-format", "full", "-", "--stdin-filename", "bad.py", input=BAD)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0].startswith("bad.py:2:29: DL001 ")
    assert "|" not in result.stdout


def test_sarif_gitlab_junit_from_the_cli(tmp_path, run_cli):
    src = _repo(tmp_path)
    sarif = run_cli("--output-format", "sarif", "bad.py", cwd=src)
    assert sarif.returncode == 1, sarif.stderr
    run = json.loads(sarif.stdout)["runs"][0]
    [result] = run["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "src/bad.py",
        "uriBaseId": "%SRCROOT%",
    }
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"

    gitlab = run_cli("--output-format", "gitlab", "bad.py", cwd=src)
    [issue] = json.loads(gitlab.stdout)
    assert issue["location"] == {"path": "src/bad.py", "lines": {"begin": 2, "end": 2}}
    assert issue["severity"] == "critical"
    # The fingerprint follows the line's text, not its number.
    (src / "bad.py").write_text("import os\n\n" + BAD)
    [moved] = json.loads(run_cli("--output-format", "gitlab", "bad.py", cwd=src).stdout)
    assert moved["location"]["lines"]["begin"] == 4
    assert moved["fingerprint"] == issue["fingerprint"]

    junit = run_cli("--output-format", "junit", "bad.py", cwd=src)
    assert junit.returncode == 1
    suite = ET.fromstring(junit.stdout.encode("utf-8")).find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "1")
    assert suite.find("testcase/failure").get("type") == "DL001"


def test_clean_run_in_every_format(tmp_path, run_cli):
    from dl_lint.report import FORMATS

    (tmp_path / "good.py").write_text(GOOD)
    for fmt in FORMATS:
        result = run_cli("--output-format", fmt, "good.py")
        assert result.returncode == 0, (fmt, result.stderr)
        assert "Traceback" not in result.stderr


def test_cli_choices_match_the_renderers():
    from dl_lint.cli import check
    from dl_lint.report import FORMATS

    [option] = [p for p in check.params if p.name == "output_format"]
    assert tuple(option.type.choices) == FORMATS
    assert option.envvar == "DL_LINT_OUTPUT_FORMAT"


def test_documented_output_format_examples_are_real(tmp_path, run_cli):
    """Each console example in the "Output formats" section of docs/usage.md is real output,
    except for the text shortened with "…" (what is around each "…" appears in that order: the
    first piece is a prefix, the last a suffix)."""
    import re
    import shlex
    from pathlib import Path

    usage = (Path(__file__).resolve().parent.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    start = usage.index("## Output formats")
    section = usage[start : usage.index("\n## ", start + 1)]
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(BAD)
    blocks = re.findall(r"```console\n(.*?)```", section, re.S)
    checked = 0
    for block in blocks:
        command, *expected = block.splitlines()
        args = shlex.split(command[len("$ dl-lint ") :])
        if ">" in args:  # `> file`: run it, but the output is not shown
            args = args[: args.index(">")]
        result = run_cli(*args)
        assert result.returncode == 1, (command, result.stderr)
        if not expected:
            continue
        actual = result.stdout.splitlines()
        assert len(actual) == len(expected), command
        for want, got in zip(expected, actual):
            pieces = want.split("…")
            assert got.startswith(pieces[0]) and got.endswith(pieces[-1]), (command, want, got)
            at = len(pieces[0])
            for piece in pieces[1:-1]:
                at = got.find(piece, at)
                assert at >= 0, (command, piece, got)
                at += len(piece)
        checked += 1
    assert checked >= 5


def test_rule_links_only_where_a_documentation_url_is_configured(tmp_path, run_cli):
    """No URL is built in (dl-lint is not published): JSON `url` is null, SARIF has no helpUri
    nor informationUri. `documentation-url` in the working folder's configuration links them,
    DL_LINT_DOCUMENTATION_URL beats it, and a bad value is one error line with exit 2."""
    import jsonschema

    from conftest import ROOT

    src = _repo(tmp_path)
    [item] = json.loads(run_cli("--output-format", "json", "bad.py", cwd=src).stdout)
    assert item["url"] is None
    sarif = run_cli("--output-format", "sarif", "bad.py", cwd=src).stdout
    assert "helpUri" not in sarif and "informationUri" not in sarif and "github.com/dl-lint" not in sarif

    page = "https://github.com/OWNER/dl-lint/blob/main/docs/rules.md"
    (src / "pyproject.toml").write_text(f'[tool.dl-lint]\ndocumentation-url = "{page}"\n')
    [item] = json.loads(run_cli("--output-format", "json", "bad.py", cwd=src).stdout)
    assert item["url"] == f"{page}#dl001"
    log = json.loads(run_cli("--output-format", "sarif", "bad.py", cwd=src).stdout)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == page
    assert {rule["id"]: rule["helpUri"] for rule in driver["rules"]}["DL001"] == f"{page}#dl001"
    assert f"documentation-url = \"{page}\"" in run_cli("--show-settings", "bad.py", cwd=src).stdout

    env = {"DL_LINT_DOCUMENTATION_URL": "https://mirror.example.org/dl-lint/{code}.html"}
    [line] = run_cli("--output-format", "json-lines", "bad.py", cwd=src, env=env).stdout.splitlines()
    item = json.loads(line)
    assert item["url"] == "https://mirror.example.org/dl-lint/dl001.html"

    bad = run_cli("--output-format", "json", "bad.py", cwd=src, env={"DL_LINT_DOCUMENTATION_URL": "docs/rules.md"})
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("dl-lint: error: DL_LINT_DOCUMENTATION_URL: invalid value 'docs/rules.md'")
    assert bad.stderr.count("\n") == 1
    (src / "pyproject.toml").write_text('[tool.dl-lint]\ndocumentation-url = "ftp://example.org/rules"\n')
    broken = run_cli("--output-format", "sarif", "bad.py", cwd=src)
    assert broken.returncode == 2 and "documentation-url: invalid value 'ftp://example.org/rules'" in broken.stderr
