from __future__ import annotations

import json

import pytest

from dl_lint.model import Diagnostic, Edit, Fix, Location, Severity
from dl_lint.report import FORMATS, render
from dl_lint.report import json as json_report
from dl_lint.report import text

ESC = "\x1b["


def diag(
    code="DL001",
    severity=Severity.ERROR,
    filename="train.py",
    row=3,
    col=5,
    fix=None,
    cell=None,
    noqa_rows=(0, 0),
    message="num_workers=0 with persistent_workers=True raises ValueError",
):
    return Diagnostic(
        code=code,
        name="persistent-workers-without-workers",
        severity=severity,
        message=message,
        filename=filename,
        location=Location(row, col),
        end_location=Location(row, col + 10),
        fix=fix,
        noqa_rows=noqa_rows,
        cell=cell,
    )


FIX = Fix(
    applicability="safe",
    message="Remove `persistent_workers=True`",
    edits=(Edit(content="", location=Location(3, 5), end_location=Location(3, 30)),),
)


def test_formats():
    assert FORMATS == ("concise", "full", "json", "json-lines", "github", "sarif", "junit", "gitlab")


def test_unknown_format_raises():
    with pytest.raises(ValueError):
        render("xml", [])


# --- concise -----------------------------------------------------------------------------------


def test_concise_line():
    out = render("concise", [diag()])
    assert out.splitlines()[0] == (
        "train.py:3:5: DL001 num_workers=0 with persistent_workers=True raises ValueError"
    )
    assert out.endswith("\n")


def test_concise_fixable_marker_and_fixable_line():
    out = render("concise", [diag(fix=FIX), diag(code="DL002", row=9, fix=FIX), diag(row=20)])
    lines = out.splitlines()
    assert lines[0].startswith("train.py:3:5: DL001 [*] num_workers")
    assert lines[1].startswith("train.py:9:5: DL002 [*] ")
    assert lines[2].startswith("train.py:20:5: DL001 num_workers")
    assert lines[-1] == "[*] 2 fixable with the `--fix` option."
    assert lines[-2] == "Found 3 problems: 3 errors."


def test_no_fixable_line_without_fixes():
    out = render("concise", [diag()])
    assert "fixable" not in out
    assert "[*]" not in out


def test_concise_sorted_by_file_row_col_code():
    diags = [
        diag(filename="b.py", row=1, col=1, code="DL001"),
        diag(filename="a.py", row=10, col=1, code="DL001"),
        diag(filename="a.py", row=2, col=9, code="DL001"),
        diag(filename="a.py", row=2, col=3, code="DL102"),
        diag(filename="a.py", row=2, col=3, code="DL003"),
    ]
    heads = [line.split(" ")[0] + line.split(" ")[1] for line in render("concise", diags).splitlines()[:5]]
    assert heads == [
        "a.py:2:3:DL003",
        "a.py:2:3:DL102",
        "a.py:2:9:DL001",
        "a.py:10:1:DL001",
        "b.py:1:1:DL001",
    ]


def test_concise_notebook_cell():
    out = render("concise", [diag(filename="nb.ipynb", cell=3, row=2, col=1)])
    assert out.splitlines()[0].startswith("nb.ipynb:cell 3:2:1: DL001 ")


def test_no_escape_codes_without_color():
    diags = [diag(), diag(severity=Severity.WARNING), diag(severity=Severity.INFO, fix=FIX)]
    assert ESC not in render("concise", diags)
    assert ESC not in render("concise", diags, color=False)


@pytest.mark.parametrize(
    "severity, code_style",
    [(Severity.ERROR, "\x1b[1;31m"), (Severity.WARNING, "\x1b[1;33m"), (Severity.INFO, "\x1b[1;34m")],
)
def test_color(severity, code_style):
    out = render("concise", [diag(severity=severity, fix=FIX)], color=True)
    line = out.splitlines()[0]
    reset = "\x1b[0m"
    colon = f"\x1b[36m:{reset}"
    assert line == (
        f"\x1b[1mtrain.py{reset}{colon}3{colon}5{colon} {code_style}DL001{reset} [*] "
        "num_workers=0 with persistent_workers=True raises ValueError"
    )
    # The summary is never coloured.
    assert ESC not in "\n".join(out.splitlines()[1:])


def test_color_strips_to_plain_output():
    import re

    diags = [diag(cell=2), diag(severity=Severity.WARNING, fix=FIX, row=7)]
    coloured = render("concise", diags, color=True)
    assert ESC in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render("concise", diags)


def test_all_checks_passed():
    assert render("concise", []) == "All checks passed!\n"
    assert text.summary_line([]) == "All checks passed!"


@pytest.mark.parametrize(
    "severities, expected",
    [
        ([Severity.ERROR], "Found 1 problem: 1 error."),
        ([Severity.WARNING], "Found 1 problem: 1 warning."),
        ([Severity.INFO], "Found 1 problem: 1 info."),
        ([Severity.ERROR, Severity.ERROR], "Found 2 problems: 2 errors."),
        ([Severity.WARNING, Severity.ERROR, Severity.WARNING], "Found 3 problems: 1 error, 2 warnings."),
        ([Severity.INFO, Severity.WARNING], "Found 2 problems: 1 warning, 1 info."),
        ([Severity.INFO, Severity.INFO, Severity.ERROR], "Found 3 problems: 1 error, 2 info."),
    ],
)
def test_summary_line(severities, expected):
    diags = [diag(severity=s) for s in severities]
    assert text.summary_line(diags) == expected
    assert expected in render("concise", diags).splitlines()


def test_fixable_line():
    assert text.fixable_line([diag()]) is None
    assert text.fixable_line([diag(fix=FIX)]) == "[*] 1 fixable with the `--fix` option."


# --- json --------------------------------------------------------------------------------------

RUFF_KEYS = [
    "cell",
    "code",
    "end_location",
    "filename",
    "fix",
    "location",
    "message",
    "name",
    "noqa_row",
    "severity",
    "url",
]
# dl-lint's own keys, added (never replacing one of ruff's) in ruff's alphabetical order.
KEYS = sorted(RUFF_KEYS + ["detail", "related"])


def test_json_empty():
    assert render("json", []) == "[]\n"
    assert json_report.render_lines([]) == ""


def test_json_keys_and_order():
    out = render("json", [diag(), diag(fix=FIX, row=8, noqa_rows=(6, 9), cell=4)])
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 2
    for obj in data:
        assert list(obj) == KEYS
        assert [key for key in obj if key in RUFF_KEYS] == RUFF_KEYS
        assert list(obj["location"]) == ["column", "row"]
        assert list(obj["end_location"]) == ["column", "row"]
    first, second = data
    assert first["cell"] is None
    assert first["fix"] is None
    assert first["severity"] == "error"
    assert first["location"] == {"column": 5, "row": 3}
    assert first["end_location"] == {"column": 15, "row": 3}
    assert first["noqa_row"] == 3
    assert first["url"] is None  # no documentation URL configured: no link to nowhere
    page = "https://example.org/dl-lint/rules.md"
    linked = json.loads(render("json", [diag()], documentation_url=page))[0]
    assert linked["url"] == page + "#dl001"
    per_rule = json.loads(render("json-lines", [diag()], documentation_url="https://example.org/rules/{code}/"))
    assert per_rule["url"] == "https://example.org/rules/dl001/"
    assert first["name"] == "persistent-workers-without-workers"
    assert second["cell"] == 4
    assert second["noqa_row"] == 6
    fix = second["fix"]
    assert list(fix) == ["applicability", "edits", "message"]
    assert fix["applicability"] == "safe"
    assert fix["message"] == "Remove `persistent_workers=True`"
    assert len(fix["edits"]) == 1
    assert list(fix["edits"][0]) == ["content", "end_location", "location"]
    assert fix["edits"][0] == {
        "content": "",
        "end_location": {"column": 30, "row": 3},
        "location": {"column": 5, "row": 3},
    }


def test_json_indent_two_and_sorted():
    out = render("json", [diag(row=9, severity=Severity.WARNING), diag(row=2)])
    lines = out.splitlines()
    assert lines[0] == "["
    assert lines[1] == "  {"
    assert lines[2] == '    "cell": null,'
    data = json.loads(out)
    assert [d["location"]["row"] for d in data] == [2, 9]
    assert data[1]["severity"] == "warning"


def test_json_ignores_color():
    assert render("json", [diag()], color=True) == render("json", [diag()])


def test_json_non_ascii_kept():
    out = render("json", [diag(message="größe → 0")])
    assert "größe → 0" in out


def test_json_lines():
    out = json_report.render_lines([diag(row=9), diag(row=2, fix=FIX)])
    lines = out.splitlines()
    assert out.endswith("\n")
    assert len(lines) == 2
    objs = [json.loads(line) for line in lines]
    assert [o["location"]["row"] for o in objs] == [2, 9]
    assert all(list(o) == KEYS for o in objs)
    assert ": " not in lines[1].replace(objs[1]["message"], "")  # compact separators
