"""Notebooks: converting cells to Python (magics, the cell map), linting .ipynb files through the
engine and the CLI (cells in the output, noqa in cells, DL000 for broken JSON), and writing fixes
back with apply_cell_edits (only the changed cells' source changes, byte for byte elsewhere)."""

from __future__ import annotations

import ast
import json

import pytest

from dl_lint.engine import lint_paths, lint_source
from dl_lint.notebook import (
    CellMap,
    NotebookError,
    apply_cell_edits,
    notebook_to_python,
    python_lines,
    split_lines,
)

BAD_CALL = "loader = DataLoader([1, 2], prefetch_factor=2)"


def code(source, outputs=(), count=None):
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "outputs": list(outputs),
        "source": source,
    }


def markdown(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def notebook(*cells, metadata=None, indent=1, ensure_ascii=False) -> bytes:
    nb = {
        "cells": list(cells),
        "metadata": metadata
        if metadata is not None
        else {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    # nbformat's own writer: indent=1, sorted keys, UTF-8, a final newline
    return (json.dumps(nb, indent=indent, sort_keys=True, ensure_ascii=ensure_ascii) + "\n").encode("utf-8")


DEMO = notebook(
    markdown(["# Training\n", "Some text."]),
    code(["%matplotlib inline\n", "from torch.utils.data import DataLoader"]),
    markdown("More text"),
    code(
        ["import os\n", "\n", BAD_CALL],
        outputs=[{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}],
        count=3,
    ),
)


# -- conversion ----------------------------------------------------------------------------------


def test_code_cells_in_order_with_a_map_over_all_cells():
    source, cell_map = notebook_to_python(DEMO)
    assert source == f"pass\nfrom torch.utils.data import DataLoader\nimport os\n\n{BAD_CALL}\n"
    # cells count markdown too (1-based, as Jupyter shows them and as ruff's `cell` key counts)
    assert cell_map.rows == ((2, 1), (2, 2), (4, 1), (4, 2), (4, 3))
    assert cell_map.code_cells == ((2, 1, 2), (4, 3, 3))
    assert cell_map.locate(5) == (4, 3)
    assert cell_map.locate(99) == (4, 3)  # past the end (a parser's EOF error): the last row
    assert cell_map.source_row(4, 3) == 5
    assert cell_map.source_row(1, 1) is None


@pytest.mark.parametrize(
    "cell, expected",
    [
        # line magics, shell, help, assignments from them: `pass` at the same indentation
        ("%time f()\nx = 1", "pass\nx = 1"),
        ("!pip install torch\nx = 1", "pass\nx = 1"),
        ("files = !ls\nout, err = %sx ls", "pass\npass"),
        ("DataLoader?\n?DataLoader\nDataLoader.__init__??", "pass\npass\npass"),
        ("for i in range(3):\n    %time f(i)", "for i in range(3):\n    pass"),
        # a magic continued with a backslash: its continuation lines are blank
        ("%pip install \\\n    torch\nx = 1", "pass\n\nx = 1"),
        # cell magics: the whole cell, unless its body is Python
        ("%%bash\necho hi\nls", "\n\n"),
        ("%%time\nx = 1", "\nx = 1"),
        # not magics: inside strings and brackets, comparisons, modulo, `!=`
        ("s = '''\n%d items\n!x\n'''", "s = '''\n%d items\n!x\n'''"),
        ("x = (10\n% 3)", "x = (10\n% 3)"),
        ("x = a % b\ny = x != 3\nz = '?'", "x = a % b\ny = x != 3\nz = '?'"),
        ("d = {'a': 1,\n  'b': 2}  # what?\nq = 1", "d = {'a': 1,\n  'b': 2}  # what?\nq = 1"),
        ("x = f'{a!r}'\n!ls", "x = f'{a!r}'\npass"),
        # automagics (IPython runs `cd data/` as `%cd data/`): a magic's name on a line that is
        # not Python; a line that is Python stays (`time = 5`, `ls -la`, `run(x)`, `pwd`)
        ("cd InstColorization/\nx = 1", "pass\nx = 1"),
        ("pip install -U torch==2.13.0\nmkdir -p out", "pass\npass"),
        ("if True:\n    cd data", "if True:\n    pass"),
        ("time = 5\nls -la\nrun(x)\npwd", "time = 5\nls -la\nrun(x)\npwd"),
    ],
)
def test_ipython_syntax_becomes_python_line_for_line(cell, expected):
    converted = python_lines(split_lines(cell))
    assert len(converted) == len(split_lines(cell))  # row for row
    out = "".join(converted)
    assert out == expected
    compile(out, "<cell>", "exec")  # what dl-lint parses is valid Python


def test_rows_break_only_at_python_line_breaks():
    assert split_lines("a\r\nb\x0cc\rd\ne") == ["a\r\n", "b\x0cc\r", "d\n", "e"]


def test_string_source_and_non_python_notebooks():
    source, cell_map = notebook_to_python(notebook(code("x = 1\ny = 2\n")))
    assert source == "x = 1\ny = 2\n" and cell_map.rows == ((1, 1), (1, 2))
    r_notebook = notebook(code("library(ggplot2)"), metadata={"language_info": {"name": "R"}})
    assert notebook_to_python(r_notebook) == ("", CellMap((), ()))


@pytest.mark.parametrize(
    "data, message",
    [
        (b"{not json", "invalid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        (b"[]", "not a notebook: the JSON is not an object"),
        (b'{"nbformat": 3, "worksheets": []}', "nbformat 3 is not supported (only nbformat 4)"),
        (b'{"metadata": {}}', "not a notebook: no 'cells' list"),
        (
            b'{"cells": [{"cell_type": "code", "source": 3}]}',
            "cell 1: 'source' must be a string or a list of strings",
        ),
        (b'\xff\xfe{"cells": []}', "not UTF-8 (invalid start byte at byte 0)"),
    ],
)
def test_unreadable_notebooks(data, message):
    with pytest.raises(NotebookError) as info:
        notebook_to_python(data)
    assert str(info.value) == message


# -- linting -------------------------------------------------------------------------------------


def test_lint_paths_finds_notebooks_and_maps_rows_to_cells(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nb.ipynb").write_bytes(DEMO)
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "nb-checkpoint.ipynb").write_bytes(DEMO)  # never linted
    result = lint_paths(["."])
    assert result.files_checked == 1
    [diag] = result.diagnostics
    assert (diag.filename, diag.cell, diag.code) == ("nb.ipynb", 4, "DL001")
    assert (diag.location.row, diag.location.column) == (3, 29)
    assert (diag.end_location.row, diag.end_location.column) == (3, 46)
    assert diag.noqa_row == 3


def test_cli_concise_and_json_show_the_cell(tmp_path, run_cli):
    (tmp_path / "nb.ipynb").write_bytes(DEMO)
    result = run_cli()
    assert result.returncode == 1
    assert result.stdout.startswith("nb.ipynb:cell 4:3:29: DL001 ")
    assert "prefetch_factor=2 is passed but num_workers=0" in result.stdout.splitlines()[0]
    as_json = run_cli("--output-format", "json", "nb.ipynb")
    [item] = json.loads(as_json.stdout)
    assert item["cell"] == 4
    assert item["location"] == {"row": 3, "column": 29}
    assert item["noqa_row"] == 3


def test_cells_survive_the_results_cache(tmp_path, run_cli):
    (tmp_path / "nb.ipynb").write_bytes(DEMO)
    first = run_cli("nb.ipynb")
    second = run_cli("nb.ipynb")  # served from the cache: the notebook is read for its map
    assert first.stdout == second.stdout
    assert second.stdout.startswith("nb.ipynb:cell 4:3:29: DL001")
    assert [
        (d.cell, d.location.row) for d in lint_paths([tmp_path / "nb.ipynb"], cache=True).diagnostics
    ] == [(4, 3)]
    assert [
        (d.cell, d.location.row) for d in lint_paths([tmp_path / "nb.ipynb"], cache=True).diagnostics
    ] == [(4, 3)]


def test_noqa_in_a_cell(tmp_path):
    silenced = notebook(
        code("from torch.utils.data import DataLoader"),
        code(["x = DataLoader(\n", "    [1, 2],\n", "    prefetch_factor=2,  # noqa: DL001\n", ")"]),
        code(BAD_CALL),
    )
    (tmp_path / "nb.ipynb").write_bytes(silenced)
    [diag] = lint_paths([tmp_path / "nb.ipynb"]).diagnostics
    assert (diag.cell, diag.location.row) == (3, 1)
    file_level = notebook(
        code("# dl-lint: noqa: DL001\nfrom torch.utils.data import DataLoader"), code(BAD_CALL)
    )
    (tmp_path / "nb.ipynb").write_bytes(file_level)
    assert lint_paths([tmp_path / "nb.ipynb"]).diagnostics == []


def test_diagnostics_sort_by_cell_then_row(tmp_path):
    nb = notebook(
        code("from torch.utils.data import DataLoader\n\n\n" + BAD_CALL),  # row 4 of cell 1
        code(BAD_CALL),  # row 1 of cell 2
    )
    (tmp_path / "nb.ipynb").write_bytes(nb)
    found = [(d.cell, d.location.row) for d in lint_paths([tmp_path / "nb.ipynb"]).diagnostics]
    assert found == [(1, 4), (2, 1)]


def test_broken_notebook_is_dl000(tmp_path, run_cli):
    (tmp_path / "broken.ipynb").write_text('{"cells": [')
    result = run_cli("broken.ipynb")
    assert result.returncode == 1
    assert result.stdout.startswith(
        "broken.ipynb:1:1: DL000 cannot read notebook: invalid JSON: Expecting value"
    )


def test_syntax_error_in_a_cell_is_reported_in_that_cell(tmp_path):
    cell = "DataLoader(\n  x y)"
    nb = notebook(code("from torch.utils.data import DataLoader"), markdown("x"), code(cell))
    (tmp_path / "nb.ipynb").write_bytes(nb)
    [diag] = lint_paths([tmp_path / "nb.ipynb"]).diagnostics
    assert diag.code == "DL000" and diag.cell == 3
    # The parser's position in the cell: 2:3 on Python 3.10+, 2:5 on 3.9 (its parser points
    # past the first name), the same as this Python's own error for the cell alone.
    with pytest.raises(SyntaxError) as parsed:
        ast.parse(cell)
    assert (diag.location.row, diag.location.column) == (parsed.value.lineno, parsed.value.offset)
    assert diag.message.startswith("cannot parse: invalid syntax")


def test_syntax_error_after_non_ascii_text_is_at_its_column_in_the_cell(tmp_path):
    """Python counts a syntax error's column on the line it reads from the file it is told the
    source came from; a notebook's JSON is not its cells' text (held-out set 45's qbh_project:
    column 20 for an error at 51, after Korean text). The column is the cell's own."""
    cell = "DataLoader([1])\ndataframe.insert(0, 'Class', [x['해당 요건'] for x in ])"
    nb = notebook(code("from torch.utils.data import DataLoader\n" + "# 설명\n" * 5), code(cell))
    (tmp_path / "nb.ipynb").write_bytes(nb)
    [diag] = lint_paths([tmp_path / "nb.ipynb"]).diagnostics
    with pytest.raises(SyntaxError) as parsed:
        ast.parse(cell)
    assert diag.code == "DL000" and diag.cell == 2
    assert (diag.location.row, diag.location.column) == (parsed.value.lineno, parsed.value.offset) == (2, 51)


def test_lint_source_and_stdin_take_notebooks(tmp_path, run_cli):
    [diag] = lint_source(DEMO.decode(), "nb.ipynb")
    assert (diag.cell, diag.location.row) == (4, 3)
    [broken] = lint_source("{", "nb.ipynb")
    assert broken.code == "DL000" and broken.message.startswith("cannot read notebook: invalid JSON")
    piped = run_cli("-", "--stdin-filename", "nb.ipynb", input=DEMO.decode())
    assert piped.stdout.startswith("nb.ipynb:cell 4:3:29: DL001")


def test_main_guard_rule_does_not_apply_to_notebooks(tmp_path, monkeypatch):
    """DL203 (a loop over a loader with workers outside `if __name__ == "__main__":`) is about
    scripts re-imported by spawned workers; the engine tells rules a notebook apart
    (RuleContext.is_notebook), and DL203 stays silent there."""
    script = (
        "from torch.utils.data import DataLoader\n"
        "loader = DataLoader([1, 2], num_workers=2)\n"
        "for batch in loader:\n"
        "    print(batch)\n"
    )
    (tmp_path / "train.py").write_text(script)
    (tmp_path / "nb.ipynb").write_bytes(notebook(code(script.splitlines(keepends=True))))
    monkeypatch.chdir(tmp_path)
    found = [(d.filename, d.code) for d in lint_paths(["."]).diagnostics]
    assert ("train.py", "DL203") in found
    assert [code for name, code in found if name == "nb.ipynb"] == []


# -- writing fixes back --------------------------------------------------------------------------


def fixed(data: bytes, old: str, new: str) -> bytes:
    source, cell_map = notebook_to_python(data)
    assert old in source
    return apply_cell_edits(data, source.replace(old, new), cell_map)


def test_apply_cell_edits_changes_only_the_edited_line():
    out = fixed(DEMO, "prefetch_factor=2", "num_workers=2")
    before, after = DEMO.decode().splitlines(), out.decode().splitlines()
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after)
    assert changed == [(f'    "{BAD_CALL}"', '    "loader = DataLoader([1, 2], num_workers=2)"')]
    assert out.endswith(b"}\n")  # the final newline is kept
    assert json.loads(out)["cells"][3]["outputs"] == json.loads(DEMO)["cells"][3]["outputs"]


def test_apply_cell_edits_keeps_magics_and_adds_lines_in_the_right_cell():
    out = fixed(DEMO, "import os\n", "import os\nimport sys\n")
    cells = json.loads(out)["cells"]
    assert cells[1]["source"] == ["%matplotlib inline\n", "from torch.utils.data import DataLoader"]
    assert cells[3]["source"] == ["import os\n", "import sys\n", "\n", BAD_CALL]
    # a line added at the very start of a cell goes to that cell, not the end of the one before
    out = fixed(DEMO, "import os\n", "import math\nimport os\n")
    assert json.loads(out)["cells"][3]["source"][:2] == ["import math\n", "import os\n"]
    assert json.loads(out)["cells"][1]["source"] == [
        "%matplotlib inline\n",
        "from torch.utils.data import DataLoader",
    ]


def test_apply_cell_edits_last_line_and_deleted_lines():
    out = fixed(DEMO, BAD_CALL + "\n", BAD_CALL + "\nprint(loader)\n")
    assert json.loads(out)["cells"][3]["source"][-2:] == [BAD_CALL + "\n", "print(loader)"]  # no final \n
    out = fixed(DEMO, "import os\n\n", "")
    assert json.loads(out)["cells"][3]["source"] == [BAD_CALL]


def test_apply_cell_edits_keeps_the_files_style():
    # two-space indentation, unsorted keys, a string source, ASCII escapes, no final newline
    nb = {
        "nbformat": 4,
        "nbformat_minor": 4,
        "metadata": {"title": "caf\u00e9"},
        "cells": [
            {
                "cell_type": "code",
                "source": "from torch.utils.data import DataLoader\n" + BAD_CALL,
                "outputs": [],
                "metadata": {},
                "execution_count": None,
            },
            {
                "source": ["x = 1"],
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "execution_count": None,
            },
        ],
    }
    data = json.dumps(nb, indent=2).encode()
    assert b"\\u00e9" in data
    out = fixed(data, "prefetch_factor=2)", "num_workers=2)  # \u00e9t\u00e9")
    text = out.decode()
    assert text.isascii()  # the file's escaping style is kept for the new text
    assert json.loads(out)["cells"][0]["source"] == (
        "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)  # \u00e9t\u00e9"
    )
    assert text == data.decode().replace("prefetch_factor=2)", "num_workers=2)  # \\u00e9t\\u00e9")
    assert not out.endswith(b"\n")


def test_apply_cell_edits_list_indentation_matches_the_file():
    data = notebook(code(["import os"]), code(["a = 1\n", "b = 2"]), indent=4)
    out = fixed(data, "a = 1\n", "a = 1\nc = 3\n")
    assert json.loads(out)["cells"][1]["source"] == ["a = 1\n", "c = 3\n", "b = 2"]
    assert out.decode() == data.decode().replace(
        '                "a = 1\\n",\n', '                "a = 1\\n",\n                "c = 3\\n",\n'
    )
    compact = json.dumps(
        {"cells": [{"cell_type": "code", "source": ["a = 1\n", "b = 2"]}], "nbformat": 4}
    ).encode()
    assert fixed(compact, "b = 2", "b = 3") == compact.replace(b'"b = 2"', b'"b = 3"')


def test_fix_edits_are_in_cell_rows_and_go_back_through_the_map():
    """How a fix engine writes a notebook fix: the diagnostic's edits are in its cell's rows;
    CellMap.source_row turns them back into rows of the converted source, where they apply, and
    apply_cell_edits writes the result into the notebook."""
    [diag] = lint_source(DEMO.decode(), "nb.ipynb")
    assert diag.fix is not None and diag.cell == 4
    source, cell_map = notebook_to_python(DEMO)
    rows = split_lines(source)
    for edit in sorted(diag.fix.edits, key=lambda e: e.location, reverse=True):
        assert edit.location.row == edit.end_location.row == 3  # row 3 of cell 4
        row = cell_map.source_row(diag.cell, edit.location.row)
        line = rows[row - 1]
        rows[row - 1] = line[: edit.location.column - 1] + edit.content + line[edit.end_location.column - 1 :]
    out = apply_cell_edits(DEMO, "".join(rows), cell_map)
    assert json.loads(out)["cells"][3]["source"][-1] != BAD_CALL
    assert [d.code for d in lint_source(out.decode(), "nb.ipynb")] == []
    before, after = DEMO.decode().splitlines(), out.decode().splitlines()
    assert len(before) == len(after)
    assert [b for a, b in zip(before, after) if a != b] == ['    "loader = DataLoader([1, 2])"']


def test_apply_cell_edits_without_changes_returns_the_same_bytes():
    source, cell_map = notebook_to_python(DEMO)
    assert apply_cell_edits(DEMO, source, cell_map) is DEMO


# -- --diff shows the cells as written -------------------------------------------------------------

# Cell 1 markdown; cell 2 code with a shell line and no final newline; cell 3 untouched code with
# a line magic; cell 4 a %%time cell with a shell line, two fixable loaders over its lines.
DIFF_NOTEBOOK = notebook(
    markdown(["# Training data"]),
    code(["!ls data\n", "from torch.utils.data import DataLoader\n", "workers = 0\n",
          "first = DataLoader(range(8), num_workers=workers, timeout=30)"]),
    code(["%time print(workers)"]),
    code(["%%time\n", "loader = DataLoader(range(8), num_workers=workers,\n",
          "                    prefetch_factor=2)  # tuned\n", "!nvidia-smi\n"]),
)
CELL_DIFF = """\
--- nb.ipynb:cell 2
+++ nb.ipynb:cell 2
@@ -1,4 +1,4 @@
 !ls data
 from torch.utils.data import DataLoader
 workers = 0
-first = DataLoader(range(8), num_workers=workers, timeout=30)
+first = DataLoader(range(8), num_workers=workers, timeout=30 if workers > 0 else 0)
--- nb.ipynb:cell 4
+++ nb.ipynb:cell 4
@@ -1,4 +1,4 @@
 %%time
 loader = DataLoader(range(8), num_workers=workers,
-                    prefetch_factor=2)  # tuned
+                    prefetch_factor=2 if workers > 0 else None)  # tuned
 !nvidia-smi
"""


def test_diff_of_a_notebook_shows_each_changed_cell_as_written(tmp_path, run_cli):
    """Issue 27 §5: --diff on a notebook shows the real cells (magics and shell lines as written,
    not the `pass` the analysis reads), one diff per changed cell headed `nb.ipynb:cell N` with
    the cell numbered among all cells (markdown counts), as ruff does; it writes nothing."""
    (tmp_path / "nb.ipynb").write_bytes(DIFF_NOTEBOOK)
    result = run_cli("--diff", "nb.ipynb")
    assert result.returncode == 1, result.stderr
    assert result.stdout == CELL_DIFF
    assert "pass" not in result.stdout and "a/nb.ipynb" not in result.stdout
    assert result.stderr == "Would fix 2 problems.\n"
    assert (tmp_path / "nb.ipynb").read_bytes() == DIFF_NOTEBOOK
    # the diff is what --fix writes: the cells after the fix are the diff's "+" side
    assert run_cli("--fix", "nb.ipynb").returncode == 0
    cells = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    assert "".join(cells[1]["source"]).endswith("timeout=30 if workers > 0 else 0)")  # still no final newline
    assert "".join(cells[3]["source"]).startswith("%%time\n") and cells[3]["source"][-1] == "!nvidia-smi\n"
    assert run_cli("--diff", "nb.ipynb").returncode == 0


def test_diff_and_fix_of_a_notebook_on_stdin(tmp_path, run_cli):
    """`--stdin-filename nb.ipynb`: --diff prints the same per-cell diff; --fix prints the whole
    fixed notebook (as ruff does), byte for byte what --fix writes to the file."""
    piped = run_cli("--diff", "--stdin-filename", "nb.ipynb", "-", input=DIFF_NOTEBOOK.decode())
    assert (piped.returncode, piped.stdout) == (1, CELL_DIFF)
    fixed = run_cli("--fix", "--stdin-filename", "nb.ipynb", "-", input=DIFF_NOTEBOOK.decode())
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stderr == "Found 2 problems (2 fixed, 0 remaining).\n"
    (tmp_path / "nb.ipynb").write_bytes(DIFF_NOTEBOOK)
    assert run_cli("--fix", "nb.ipynb").returncode == 0
    assert fixed.stdout == (tmp_path / "nb.ipynb").read_text()
    # not a notebook: echoed unchanged, its DL000 is what remains
    broken = run_cli("--fix", "--stdin-filename", "nb.ipynb", "-", input="{not json")
    assert (broken.returncode, broken.stdout) == (1, "{not json")
    assert "DL000" in broken.stderr
    assert run_cli("--diff", "--stdin-filename", "nb.ipynb", "-", input="{not json").returncode == 0
