from __future__ import annotations

import textwrap

import pytest

from dl_lint.model import Diagnostic, Location, Severity
from dl_lint.suppression import Suppressions, parse_suppressions


def diag(code="DL001", row=1, end_row=None, noqa_rows=(0, 0)):
    return Diagnostic(
        code=code,
        name="some-rule",
        severity=Severity.ERROR,
        message="msg",
        filename="t.py",
        location=Location(row, 1),
        end_location=Location(end_row if end_row is not None else row, 5),
        noqa_rows=noqa_rows,
    )


def parse(src: str) -> Suppressions:
    return parse_suppressions(textwrap.dedent(src))


# --- line directives -------------------------------------------------------------------------


def test_bare_noqa_suppresses_every_code_on_its_row_only():
    s = parse("x = 1  # noqa\ny = 2\n")
    assert s.lines == {1: None}
    assert s.suppresses(diag("DL001", row=1))
    assert s.suppresses(diag("DL999", row=1))
    assert not s.suppresses(diag("DL001", row=2))


@pytest.mark.parametrize(
    "comment, codes",
    [
        ("# noqa: DL001", {"DL001"}),
        ("# noqa:DL001,DL102", {"DL001", "DL102"}),
        ("# noqa: DL001 DL102", {"DL001", "DL102"}),
        ("# noqa: DL001, DL102,", {"DL001", "DL102"}),
        ("# noqa : DL001", {"DL001"}),
        ("# noqa: E501, DL001", {"E501", "DL001"}),
        ("# noqa: DL001 -- because the loader is tiny", {"DL001"}),
        ("# noqa: DL001 because DL102 is separate", {"DL001"}),
        ("# noqa: DL001, DL102x", {"DL001"}),  # codes are whole words
        ("# type: ignore # noqa: DL001", {"DL001"}),
        ("# noqa: DL001  # noqa: DL102", {"DL001", "DL102"}),
    ],
)
def test_codes_are_parsed(comment, codes):
    s = parse_suppressions(f"x = 1  {comment}\n")
    assert s.lines == {1: frozenset(codes)}


@pytest.mark.parametrize(
    "comment",
    ["# NOQA: DL001", "# NoQa:DL001", "# noqa: dl001", "#noqa:DL001"],
)
def test_case_and_spacing_insensitive(comment):
    s = parse_suppressions(f"x = 1  {comment}\n")
    assert s.suppresses(diag("DL001"))
    assert not s.suppresses(diag("DL102"))


def test_uppercase_bare_noqa():
    s = parse_suppressions("x = 1  # NOQA\n")
    assert s.lines == {1: None}


@pytest.mark.parametrize(
    "comment",
    ["# noqa  -- reason", "# noqa reason given", "# type: ignore  # noqa", "# noqa:", "# noqa: see below"],
)
def test_bare_forms(comment):
    # "# noqa:" with no valid code is treated as bare (documented decision).
    s = parse_suppressions(f"x = 1  {comment}\n")
    assert s.lines == {1: None}
    assert s.suppresses(diag("DL777"))


def test_codes_of_other_tools_do_not_suppress_dl_codes():
    s = parse_suppressions("x = 1  # noqa: E501, F401\n")
    assert s.lines == {1: frozenset({"E501", "F401"})}
    assert not s.suppresses(diag("DL001"))


def test_named_code_only():
    s = parse_suppressions("x = 1  # noqa: DL001\n")
    assert s.suppresses(diag("DL001"))
    assert not s.suppresses(diag("DL102"))


@pytest.mark.parametrize("comment", ["# noqanything", "# not noqa", "# see noqa docs"])
def test_not_a_directive(comment):
    s = parse_suppressions(f"x = 1  {comment}\n")
    assert s.lines == {}
    assert not s.suppresses(diag("DL001"))


def test_noqa_inside_strings_is_ignored():
    src = '''\
    a = "# noqa"
    b = '# noqa: DL001'
    c = """
    # noqa
    """
    d = f"{a} # noqa"
    '''
    s = parse(src)
    assert s.lines == {}
    assert not s.file_all
    for row in range(1, 7):
        assert not s.suppresses(diag("DL001", row=row))


def test_string_then_real_comment():
    s = parse_suppressions('x = "# noqa: DL999"  # noqa: DL001\n')
    assert s.lines == {1: frozenset({"DL001"})}


# --- multi-line calls --------------------------------------------------------------------------


MULTI = """\
loader = DataLoader(
    ds,
    num_workers=0,
)  # noqa: DL001
other = 1
"""


def test_noqa_on_last_row_of_multiline_call():
    s = parse_suppressions(MULTI)
    assert s.lines == {4: frozenset({"DL001"})}
    # Reported at the argument on row 3, call spans rows 1..4.
    d = diag("DL001", row=3, noqa_rows=(1, 4))
    assert s.suppresses(d)
    assert not s.suppresses(diag("DL102", row=3, noqa_rows=(1, 4)))
    # Without the call's span, the comment on row 4 does not reach row 3.
    assert not s.suppresses(diag("DL001", row=3))


def test_noqa_on_first_row_of_multiline_call():
    s = parse_suppressions("loader = DataLoader(  # noqa\n    ds,\n)\n")
    assert s.suppresses(diag("DL001", row=2, noqa_rows=(1, 3)))


def test_noqa_outside_noqa_rows_does_not_apply():
    s = parse_suppressions(MULTI)
    assert not s.suppresses(diag("DL001", row=6, noqa_rows=(5, 6)))
    assert not s.suppresses(diag("DL001", row=1, noqa_rows=(1, 3)))


def test_default_noqa_rows_use_location_span():
    s = parse_suppressions(MULTI)
    assert s.suppresses(diag("DL001", row=1, end_row=4))
    assert not s.suppresses(diag("DL001", row=1, end_row=3))


# --- file-level directives ---------------------------------------------------------------------


@pytest.mark.parametrize("comment", ["# dl-lint: noqa", "# DL-LINT: NOQA", "#dl-lint:noqa", "# flake8: noqa"])
def test_file_level_all(comment):
    s = parse_suppressions(f"import torch\n{comment}\nx = 1\n")
    assert s.file_all
    assert s.suppresses(diag("DL001", row=3))
    assert s.suppresses(diag("DL555", row=100))


def test_file_level_indented_counts():
    s = parse_suppressions("def f():\n    # dl-lint: noqa\n    return 1\n")
    assert s.file_all


def test_file_level_codes():
    s = parse_suppressions("# dl-lint: noqa: DL101, DL102\nx = 1\n")
    assert not s.file_all
    assert s.file_codes == frozenset({"DL101", "DL102"})
    assert s.suppresses(diag("DL101", row=2))
    assert s.suppresses(diag("DL102", row=50))
    assert not s.suppresses(diag("DL001", row=2))


@pytest.mark.parametrize(
    "line", ["x = 1  # dl-lint: noqa", "x = 1  # flake8: noqa", "x = 1  # dl-lint: noqa: DL001"]
)
def test_file_directive_trailing_code_does_nothing(line):
    s = parse_suppressions(f"{line}\ny = 2\n")
    assert not s.file_all
    assert s.file_codes == frozenset()
    # ... and it is not a line directive either.
    assert s.lines == {}
    assert not s.suppresses(diag("DL001", row=1))


def test_file_directive_inside_string_does_nothing():
    s = parse_suppressions('x = """\n# dl-lint: noqa\n"""\n')
    assert not s.file_all


def test_empty_suppressions_suppress_nothing():
    assert not Suppressions().suppresses(diag("DL001"))
    assert not parse_suppressions("").suppresses(diag("DL001"))


# --- broken source -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src",
    [
        "x = (1,  # noqa: DL001\n",  # EOF in multi-line statement
        "def f(:\n    y = 1  # noqa: DL001\n",  # syntax error
        "if x:\n        a = 1\n    b = 2\nz = 1  # noqa: DL001\n",  # bad dedent
        'x = """never closed\n',  # EOF in string
        "\x00 # noqa\n",
    ],
)
def test_broken_source_never_raises(src):
    s = parse_suppressions(src)
    assert isinstance(s, Suppressions)


def test_broken_source_falls_back_to_regex_and_respects_quotes():
    src = 'if x:\n        a = 1\n    b = "# noqa"\nc = 1  # noqa: DL001\nd = """\n# noqa\n"""\n'
    s = parse_suppressions(src)
    assert s.lines == {4: frozenset({"DL001"})}


def test_broken_source_keeps_comments_before_the_error():
    src = "a = 1  # noqa: DL001\nif x:\n        b = 1\n    c = 2  # noqa\n"
    s = parse_suppressions(src)
    assert s.lines == {1: frozenset({"DL001"}), 4: None}


def test_broken_source_uses_tokenize_before_the_error():
    # A backslash-continued string: the regex fallback would see a comment on row 2.
    src = 'x = "a\\\n# noqa: DL001"\nif x:\n        b = 1\n    c = 2\n'
    assert src.splitlines()[1] == '# noqa: DL001"'
    s = parse_suppressions(src)
    assert s.lines == {}


def test_crlf_rows():
    s = parse_suppressions("a = 1\r\nb = 2  # noqa\r\n")
    assert s.lines == {2: None}
