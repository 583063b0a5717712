"""The output formats beyond concise/json, as pure functions: full, github, sarif, junit, gitlab,
statistics; plus the small I/O helpers the CLI uses to feed them (dl_lint.report_io)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dl_lint.model import Diagnostic, Edit, Fix, Location, Severity
from dl_lint.report import FORMATS, render, render_statistics
from dl_lint.report import github, sarif
from dl_lint.report_io import read_sources, repo_root

DATA = Path(__file__).resolve().parent / "data"
SCHEMA = DATA / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

SOURCE = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
MESSAGE = "prefetch_factor=2 is passed but num_workers=0"


def diag(
    code="DL001",
    severity=Severity.ERROR,
    filename="train.py",
    row=2,
    col=29,
    end_row=None,
    end_col=46,
    fix=None,
    message=MESSAGE,
    name="prefetch-without-workers",
    cell=None,
):
    return Diagnostic(
        code=code,
        name=name,
        severity=severity,
        message=message,
        filename=filename,
        location=Location(row, col),
        end_location=Location(row if end_row is None else end_row, end_col),
        fix=fix,
        cell=cell,
    )


FIX = Fix(
    applicability="unsafe",
    message="Remove `prefetch_factor=2`",
    edits=(Edit(content="", location=Location(2, 27), end_location=Location(2, 46)),),
)


def test_formats_and_dispatch():
    assert FORMATS == ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab")
    for fmt in FORMATS:
        out = render(fmt, [diag()], sources={"train.py": SOURCE}, root=None, files=["train.py"])
        assert out.endswith("\n"), fmt
    with pytest.raises(ValueError, match="gitlab"):
        render("pylint", [])


def test_json_lines_dispatch():
    out = render("json-lines", [diag(row=5), diag()])
    assert [json.loads(line)["location"]["row"] for line in out.splitlines()] == [2, 5]
    assert render("json-lines", []) == ""


# --- full --------------------------------------------------------------------------------------


def test_full_single_line_caret():
    out = render("full", [diag()], sources={"train.py": SOURCE})
    assert out == (
        f"train.py:2:29: DL001 {MESSAGE}\n"
        "  |\n"
        "2 | loader = DataLoader([1, 2], prefetch_factor=2)\n"
        "  |                             ^^^^^^^^^^^^^^^^^\n"
        "  |\n"
        "\n"
        "Found 1 problem: 1 error.\n"
    )
    caret_line = out.splitlines()[3]
    source_line = out.splitlines()[2]
    # The carets sit exactly under `prefetch_factor=2` (columns 29..45, end exclusive).
    start = caret_line.index("^")
    assert source_line[start : start + caret_line.count("^")] == "prefetch_factor=2"


def test_full_help_line_only_with_fix():
    out = render("full", [diag(fix=FIX)], sources={"train.py": SOURCE})
    lines = out.splitlines()
    assert lines[0].startswith("train.py:2:29: DL001 [*] ")
    assert "  help: Remove `prefetch_factor=2`" in lines
    assert lines[-1] == "[*] 1 fixable with the `--fix` option."
    assert "help:" not in render("full", [diag()], sources={"train.py": SOURCE})


def test_full_without_sources_has_no_snippet():
    out = render("full", [diag(fix=FIX)])
    assert out == (
        f"train.py:2:29: DL001 [*] {MESSAGE}\n"
        "  help: Remove `prefetch_factor=2`\n"
        "\n"
        "Found 1 problem: 1 error.\n"
        "[*] 1 fixable with the `--fix` option.\n"
    )
    # A row past the end of the known source, or a notebook cell, also shows no snippet.
    assert "|" not in render("full", [diag(row=40, end_col=3)], sources={"train.py": SOURCE})
    assert "|" not in render("full", [diag(cell=2)], sources={"train.py": SOURCE})


def test_full_multi_line_span_underlines_each_line():
    source = "x = DataLoader(\n    ds,\n\n    prefetch_factor=2)\n"
    out = render("full", [diag(row=1, col=5, end_row=4, end_col=22)], sources={"train.py": source})
    assert out.splitlines()[1:9] == [
        "  |",
        "1 | x = DataLoader(",
        "  |     ^^^^^^^^^^^",
        "2 |     ds,",
        "  |     ^^^",
        "3 |",  # a blank line gets no underline
        "4 |     prefetch_factor=2)",
        "  |     ^^^^^^^^^^^^^^^^^",  # up to column 22, exclusive: not the ")"
    ]


def test_full_long_span_is_elided():
    source = "".join(f"line{i}\n" for i in range(1, 21))
    out = render("full", [diag(row=2, col=1, end_row=15, end_col=7)], sources={"train.py": source})
    numbered = [line for line in out.splitlines() if re.match(r"^\s*\d+ \|", line)]
    assert [line.split("|")[0].strip() for line in numbered] == ["2", "3", "4", "13", "14", "15"]
    assert "   ..." in out.splitlines()


def test_full_tabs_and_empty_span():
    source = "a = 1\n\tx = DataLoader(ds, prefetch_factor=2)\n"
    out = render("full", [diag(row=2, col=6, end_col=16)], sources={"train.py": source})
    lines = out.splitlines()
    assert lines[2] == "2 |     x = DataLoader(ds, prefetch_factor=2)"  # tab shown as 4 spaces
    assert lines[3] == "  |         ^^^^^^^^^^"
    assert lines[2][lines[3].index("^") :].startswith("DataLoader")
    empty = render("full", [diag(row=1, col=3, end_col=3)], sources={"train.py": source})
    assert empty.splitlines()[3] == "  |   ^"


def test_full_gutter_widens_for_big_line_numbers():
    source = "\n" * 99 + "loader = DataLoader(ds, prefetch_factor=2)\n"
    out = render("full", [diag(row=100, col=10, end_col=20)], sources={"train.py": source})
    assert out.splitlines()[1:4] == [
        "    |",
        "100 | loader = DataLoader(ds, prefetch_factor=2)",
        "    |          ^^^^^^^^^^",
    ]


def test_full_color_only_adds_escapes():
    sources = {"train.py": SOURCE}
    coloured = render("full", [diag(fix=FIX)], sources=sources, color=True)
    assert "\x1b[1;31m^^^" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render("full", [diag(fix=FIX)], sources=sources)


def test_full_blocks_are_sorted_and_separated():
    sources = {"train.py": SOURCE, "a.py": SOURCE}
    out = render("full", [diag(), diag(filename="a.py", severity=Severity.WARNING)], sources=sources)
    blocks = out.split("\n\n")
    assert len(blocks) == 3
    assert blocks[0].startswith("a.py:2:29:") and blocks[1].startswith("train.py:2:29:")
    assert blocks[2] == "Found 2 problems: 1 error, 1 warning.\n"


# --- github ------------------------------------------------------------------------------------


def test_github_exact_line():
    d = diag(filename="src/train.py", row=12, col=5, end_col=30, message="message")
    assert render("github", [d]) == (
        "::error title=dl-lint (DL001),file=src/train.py,line=12,col=5,endLine=12,endColumn=30"
        "::src/train.py:12:5: DL001 message\n"
    )


@pytest.mark.parametrize(
    "severity, command",
    [(Severity.ERROR, "::error "), (Severity.WARNING, "::warning "), (Severity.INFO, "::notice ")],
)
def test_github_severity_commands(severity, command):
    assert render("github", [diag(severity=severity)]).startswith(command)


def test_github_escape_functions():
    # % first: "%0A" in the input must not turn into a newline for the reader.
    assert github.escape_data("100% %0A") == "100%25 %250A"
    assert github.escape_data("a\r\nb") == "a%0D%0Ab"
    assert github.escape_data("a:b,c") == "a:b,c"  # ':' and ',' only matter in properties
    assert github.escape_property("a:b,c") == "a%3Ab%2Cc"
    assert github.escape_property("%3A\n") == "%253A%0A"


def test_github_escaping_in_output():
    d = diag(filename="we,ird:dir/t.py", message="50% of\nbatches: lost, sadly")
    line = render("github", [d])
    assert line.count("\n") == 1  # one command, the message's newline escaped
    props, data = line.rstrip("\n")[len("::error ") :].split("::", 1)
    assert "file=we%2Cird%3Adir/t.py," in props
    assert data == "we,ird:dir/t.py:2:29: DL001 50%25 of%0Abatches: lost, sadly"


def test_github_multi_line_span_drops_columns():
    d = diag(row=3, col=9, end_row=5, end_col=2)
    assert render("github", [d]).startswith(
        "::error title=dl-lint (DL001),file=train.py,line=3,endLine=5::train.py:3:9: DL001 "
    )


def test_github_paths_relative_to_root(tmp_path):
    root = tmp_path / "repo"
    d_in = diag(filename=str(root / "src" / "train.py"))
    d_out = diag(filename=str(tmp_path / "elsewhere.py"))
    lines = render("github", [d_in, d_out], root=str(root)).splitlines()
    inside, outside = sorted(lines, key=lambda line: "elsewhere" in line)
    assert ",file=src/train.py," in inside
    assert "::src/train.py:2:29: DL001 " in inside
    # A file outside the root keeps the name it was given.
    assert f",file={github.escape_property(str(tmp_path / 'elsewhere.py'))}," in outside
    # Relative names are relative to the working directory.
    cwd_rel = render("github", [diag(filename="train.py")], root=os.path.dirname(os.getcwd()))
    assert f",file={os.path.basename(os.getcwd())}/train.py," in cwd_rel


def test_github_empty():
    assert render("github", []) == ""


def _commands(out):
    return [line for line in out.splitlines() if line.startswith("::")]


def test_github_at_most_ten_per_kind_needs_no_summary():
    out = render("github", [diag(row=r) for r in range(1, 11)] + [diag(severity=Severity.WARNING)] * 10)
    assert len(out.splitlines()) == 20
    assert all(line.startswith(("::error ", "::warning ")) for line in out.splitlines())


def test_github_summary_when_a_kind_overflows():
    diags = [diag(row=r) for r in range(1, 12)] + [diag(severity=Severity.WARNING, row=50)]
    out = render("github", diags)
    lines = out.splitlines()
    commands = _commands(out)
    assert len([c for c in commands if c.startswith("::error ")]) == 11  # all still emitted
    assert lines[-1].startswith("::notice title=dl-lint::")
    assert "11 errors, 1 warning, 0 notices in total" in lines[-1]
    plain = [line for line in lines if line.startswith("train.py:")]
    assert len(plain) == 12  # the plain listing has every diagnostic
    assert f"train.py:11:29: DL001 {MESSAGE}" in plain


def test_github_info_overflow_keeps_the_summary_visible():
    out = render("github", [diag(severity=Severity.INFO, row=r) for r in range(1, 16)])
    notices = [c for c in _commands(out) if c.startswith("::notice ")]
    assert len(notices) == github.GITHUB_LIMIT  # 9 annotations + the summary, all shown by GitHub
    assert notices[-1].startswith("::notice title=dl-lint::0 errors, 0 warnings, 15 notices")
    assert len([line for line in out.splitlines() if line.startswith("train.py:")]) == 15


def test_github_plain_listing_cannot_inject_commands():
    diags = [diag(row=r, message="x\n::error::injected") for r in range(1, 12)]
    lines = render("github", diags).splitlines()
    assert not any(line.startswith("::error::") for line in lines)


# --- sarif -------------------------------------------------------------------------------------


def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_vendored_schema_is_the_official_one():
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == SCHEMA_SHA256
    assert (DATA / "sarif-schema-2.1.0.LICENSE.md").is_file()
    import jsonschema

    # The schema's $schema says draft-04, and validator_for honours it.
    assert type(_validator()) is jsonschema.Draft4Validator


def _log(diagnostics, **kwargs):
    return json.loads(render("sarif", diagnostics, **kwargs))


SARIF_DIAGS = [
    diag(fix=FIX),
    diag(code="DL101", name="prefetch-memory", severity=Severity.WARNING, row=1, col=1, end_col=5),
    diag(code="DL102", severity=Severity.INFO, row=1, col=1, end_row=2, end_col=3),
    diag(code="DL999", name="made-up", filename="other.py"),
]


PAGE = "https://github.com/OWNER/dl-lint/blob/main/docs/rules.md"


def test_sarif_validates_against_the_oasis_schema():
    validator = _validator()
    validator.validate(_log(SARIF_DIAGS, sources={"train.py": SOURCE}, root=os.getcwd()))
    validator.validate(_log([]))
    validator.validate(_log(SARIF_DIAGS))
    # with a documentation URL (helpUri, informationUri), one page or a page per rule
    validator.validate(_log(SARIF_DIAGS, documentation_url=PAGE))
    validator.validate(_log(SARIF_DIAGS, documentation_url="https://docs.example.org/rules/{code}/"))


def test_sarif_schema_check_can_fail():
    validator = _validator()
    log = _log(SARIF_DIAGS)
    del log["runs"][0]["tool"]["driver"]["name"]
    assert list(validator.iter_errors(log))
    log = _log(SARIF_DIAGS)
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert list(validator.iter_errors(log))


def test_sarif_github_required_fields():
    log = _log(SARIF_DIAGS, sources={"train.py": SOURCE})
    assert log["$schema"] and log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "dl-lint"
    assert driver["rules"]
    for rule in driver["rules"]:
        assert rule["id"]
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["help"]["text"]
    assert len(run["results"]) == len(SARIF_DIAGS)
    for result in run["results"]:
        assert result["message"]["text"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
        assert result["partialFingerprints"]["primaryLocationLineHash"]


def test_sarif_driver_describes_every_registry_rule():
    from dl_lint import __version__
    from dl_lint.rules import all_rules

    driver = _log([])["runs"][0]["tool"]["driver"]
    assert driver["version"] == driver["semanticVersion"] == __version__
    # no documentation URL configured: no link to a place that does not exist
    assert "informationUri" not in driver and not any("helpUri" in r for r in driver["rules"])
    linked = _log([], documentation_url=PAGE)["runs"][0]["tool"]["driver"]
    assert linked["informationUri"] == PAGE
    assert [r["helpUri"] for r in linked["rules"]] == [f"{PAGE}#{code.lower()}" for code in all_rules()]
    per_rule = _log([], documentation_url="https://docs.example.org/rules/{code}/")["runs"][0]["tool"]["driver"]
    assert "informationUri" not in per_rule and per_rule["rules"][0]["helpUri"] == "https://docs.example.org/rules/dl000/"
    rules = all_rules()
    assert [r["id"] for r in driver["rules"]] == list(rules)
    for descriptor in driver["rules"]:
        rule = rules[descriptor["id"]]
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["help"]["text"] == descriptor["help"]["markdown"] == rule.markdown()
        assert descriptor["defaultConfiguration"]["level"] == sarif.LEVELS[rule.severity]
        assert descriptor["properties"]["tags"]
    dl001 = [r for r in driver["rules"] if r["id"] == "DL001"][0]
    assert dl001["fullDescription"]["text"].startswith("Reports a DataLoader that passes `prefetch_factor`")


def test_sarif_results():
    run = _log(SARIF_DIAGS, root=os.getcwd())["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert {r["ruleId"]: r["level"] for r in run["results"]} == {
        "DL001": "error",
        "DL101": "warning",
        "DL102": "note",
        "DL999": "error",
    }
    assert rules[by_rule["DL999"]["ruleIndex"]]["name"] == "made-up"  # unknown code: described too
    loc = by_rule["DL001"]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "train.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 2, "startColumn": 29, "endLine": 2, "endColumn": 46}
    assert by_rule["DL102"]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1,
        "startColumn": 1,
        "endLine": 2,
        "endColumn": 3,
    }
    assert by_rule["DL001"]["message"]["text"] == MESSAGE
    base = run["originalUriBaseIds"]["%SRCROOT%"]
    assert base["uri"] == Path(os.getcwd()).as_uri().rstrip("/") + "/"
    assert "fixes" not in by_rule["DL101"]
    assert by_rule["DL001"]["fixes"] == [
        {
            "description": {"text": "Remove `prefetch_factor=2`"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "train.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 2,
                                "startColumn": 27,
                                "endLine": 2,
                                "endColumn": 46,
                            },
                            "insertedContent": {"text": ""},
                        }
                    ],
                }
            ],
        }
    ]


def test_sarif_uri_is_repo_relative_with_forward_slashes(tmp_path):
    d = diag(filename=str(tmp_path / "src" / "pkg" / "train.py"))
    run = _log([d], root=str(tmp_path))["runs"][0]
    location = run["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "src/pkg/train.py"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"


@pytest.mark.parametrize(
    "name,uri",
    [
        ("my data/train.py", "my%20data/train.py"),
        ("100%/train.py", "100%25/train.py"),
        ("données/é.py", "donn%C3%A9es/%C3%A9.py"),
        ("a#b?c/[x].py", "a%23b%3Fc/%5Bx%5D.py"),
    ],
)
def test_sarif_uri_is_percent_encoded(tmp_path, name, uri):
    """SARIF URIs are RFC 3986 references: a space, ``%``, ``#`` or non-ASCII must be encoded."""
    from urllib.parse import unquote

    d = diag(filename=str(tmp_path / name))
    log = _log([d], root=str(tmp_path))
    _validator().validate(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == uri
    assert re.fullmatch(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*", uri)
    assert unquote(uri) == name


def test_sarif_uri_is_encoded_end_to_end(tmp_path, run_cli):
    folder = tmp_path / "my data"
    folder.mkdir()
    (folder / "train é.py").write_text(SOURCE)
    result = run_cli("--output-format", "sarif", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    _validator().validate(log)
    [res] = log["runs"][0]["results"]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20data/train%20%C3%A9.py"
    assert res["fixes"][0]["artifactChanges"][0]["artifactLocation"]["uri"] == "my%20data/train%20%C3%A9.py"


def _hash(log, i=0):
    return log["runs"][0]["results"][i]["partialFingerprints"]["primaryLocationLineHash"]


def test_sarif_fingerprint_stable_when_the_line_moves():
    moved_source = "# a comment\n\n\n" + SOURCE
    before = _log([diag()], sources={"train.py": SOURCE})
    after = _log([diag(row=5)], sources={"train.py": moved_source})
    assert _hash(before) == _hash(after)
    assert re.fullmatch(r"[0-9a-f]{16}:1", _hash(before))
    # ... and it changes when the line's text changes, or the code.
    edited = _log([diag()], sources={"train.py": SOURCE.replace("[1, 2]", "[1, 2, 3]")})
    assert _hash(edited) != _hash(before)
    assert _hash(_log([diag(code="DL101")], sources={"train.py": SOURCE})) != _hash(before)


def test_sarif_fingerprint_distinguishes_identical_lines():
    source = SOURCE + SOURCE.splitlines()[1] + "\n"
    log = _log([diag(row=3), diag(row=2)], sources={"train.py": source})
    hashes = [_hash(log, 0), _hash(log, 1)]
    assert hashes[0].split(":")[0] == hashes[1].split(":")[0]
    assert [h.split(":")[1] for h in hashes] == ["1", "2"]


def test_sarif_fingerprint_without_sources_uses_the_message():
    a = _hash(_log([diag()]))
    assert a == _hash(_log([diag(row=9)]))  # still no line number in it
    assert a != _hash(_log([diag(message="another message")]))


# --- junit -------------------------------------------------------------------------------------


def _junit(diagnostics, files=None):
    out = render("junit", diagnostics, files=files)
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(out.encode("utf-8"))


def test_junit_structure_and_counts():
    diags = [diag(), diag(row=7), diag(filename="b.py", code="DL101", severity=Severity.WARNING)]
    root = _junit(diags)
    assert root.tag == "testsuites" and root.get("name") == "dl-lint"
    [suite] = root.findall("testsuite")
    assert suite.get("name") == "dl-lint"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "2", "0")
    assert (root.get("tests"), root.get("failures")) == ("2", "2")
    cases = suite.findall("testcase")
    assert [(c.get("name"), c.get("classname")) for c in cases] == [
        ("b.py", "b.py"),
        ("train.py", "train.py"),
    ]
    failures = cases[1].findall("failure")
    assert len(failures) == 2
    assert failures[0].get("type") == "DL001"
    assert failures[0].get("message") == MESSAGE
    assert failures[0].text == f"train.py:2:29: DL001 {MESSAGE}"
    assert failures[1].text.startswith("train.py:7:29: DL001 ")
    assert cases[0].find("failure").get("type") == "DL101"


def test_junit_clean_files_pass_when_given():
    root = _junit([diag()], files=["a.py", "train.py", "z.py"])
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("3", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"a.py", "train.py", "z.py"}
    assert cases["a.py"].find("failure") is None and cases["z.py"].find("failure") is None
    assert len(cases["train.py"].findall("failure")) == 1


def test_junit_empty_and_hostile_text():
    root = _junit([])
    assert root.find("testsuite").get("tests") == "0" and root.find("testsuite").findall("testcase") == []
    root = _junit([diag(message='a <b> & "c"\x00\x1b[31m\nnext')])
    failure = root.find("testsuite/testcase/failure")
    assert failure.get("message") == 'a <b> & "c"\ufffd\ufffd[31m\nnext'


# --- gitlab ------------------------------------------------------------------------------------


def _gitlab(diagnostics, **kwargs):
    return json.loads(render("gitlab", diagnostics, **kwargs))


def test_gitlab_issue_fields_and_severities():
    issues = _gitlab(
        [
            diag(),
            diag(code="DL101", severity=Severity.WARNING, row=3),
            diag(code="DL102", severity=Severity.INFO, row=4, end_row=6),
        ]
    )
    assert [i["severity"] for i in issues] == ["critical", "major", "info"]
    first = issues[0]
    assert set(first) == {"description", "check_name", "fingerprint", "severity", "location"}
    assert first["description"] == f"DL001: {MESSAGE}" and first["check_name"] == "DL001"  # ruff's form
    assert first["location"] == {"path": "train.py", "lines": {"begin": 2, "end": 2}}
    assert issues[2]["location"]["lines"] == {"begin": 4, "end": 6}
    assert all(re.fullmatch(r"[0-9a-f]{32}", i["fingerprint"]) for i in issues)
    assert len({i["fingerprint"] for i in issues}) == 3
    assert _gitlab([]) == []


def test_gitlab_fingerprint_survives_line_moves_and_is_unique():
    moved = "import os\n" + SOURCE
    before = _gitlab([diag()], sources={"train.py": SOURCE})[0]["fingerprint"]
    after = _gitlab([diag(row=3)], sources={"train.py": moved})[0]["fingerprint"]
    assert before == after
    twice = SOURCE + SOURCE.splitlines()[1] + "\n"
    prints = [i["fingerprint"] for i in _gitlab([diag(), diag(row=3)], sources={"train.py": twice})]
    assert prints[0] == before and prints[1] != before
    assert _gitlab([diag()], sources={"train.py": SOURCE.replace("=2", "=4")})[0]["fingerprint"] != before


def test_gitlab_path_relative_to_root(tmp_path):
    [issue] = _gitlab([diag(filename=str(tmp_path / "src" / "t.py"))], root=str(tmp_path))
    assert issue["location"]["path"] == "src/t.py"


# --- statistics --------------------------------------------------------------------------------


def test_statistics_lines():
    diags = [
        diag(code="DL101", name="prefetch-memory"),
        diag(code="DL001"),
        diag(code="DL101", name="prefetch-memory"),
        diag(code="DL102", name="pin-memory-without-accelerator", fix=FIX),
        diag(code="DL102", name="pin-memory-without-accelerator"),
    ]
    assert render_statistics(diags) == (
        "2\tDL101\t[ ]\tprefetch-memory\n"
        "2\tDL102\t[*]\tpin-memory-without-accelerator\n"
        "1\tDL001\t[ ]\tprefetch-without-workers\n"
    )
    assert render_statistics([]) == ""
    assert json.loads(render_statistics(diags, fmt="json"))[1] == {
        "code": "DL102",
        "name": "pin-memory-without-accelerator",
        "count": 2,
        "fixable": True,
    }


# --- report_io (the CLI's side: reading files, finding the repository root) ----------------------


def test_repo_root(tmp_path):
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    assert repo_root(str(tmp_path / "repo" / "a" / "b")) == str(tmp_path / "repo")
    (tmp_path / "repo" / "a" / ".git").write_text("gitdir: ../.git/modules/a\n")  # a submodule
    assert repo_root(str(tmp_path / "repo" / "a" / "b")) == str(tmp_path / "repo" / "a")
    lone = tmp_path / "lone"
    lone.mkdir()
    if any((parent / ".git").exists() for parent in lone.parents):
        pytest.skip("the temporary folder is inside a git checkout")
    assert repo_root(str(lone)) == str(lone)  # no checkout: the folder itself


def test_read_sources(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\ns = '\xe9'\n")
    (tmp_path / "bad.py").write_bytes(b"s = '\xff\xfe'\n")
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfy = 2\n")
    names = [str(tmp_path / n) for n in ("ok.py", "latin.py", "bad.py", "bom.py", "missing.py")]
    sources = read_sources(names + ["<stdin>", str(tmp_path)])
    assert sources == {
        names[0]: "x = 1\n",
        names[1]: "# -*- coding: latin-1 -*-\ns = 'é'\n",
        names[3]: "y = 2\n",
    }
