"""Autofix: fixture pairs, properties over every fixture, verification, atomic writes, CLI."""

from __future__ import annotations

import codecs
import importlib.util
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from dl_lint import lint_source
from dl_lint.config import Settings
from dl_lint.fix_runner import FixError, fix_file, write_atomically
from dl_lint.fixes import apply_edits, fix_source, line_starts, to_offset
from dl_lint.model import Diagnostic, Edit, Fix, Location, Severity

from conftest import FIXTURES

FIXES = FIXTURES / "fixes"
PAIRS = sorted(p for p in FIXES.glob("*.py") if not p.name.endswith(".fixed.py") and not p.name.startswith("_"))
ALL = Settings(select=("ALL",))


def fixed_of(path: Path) -> Path:
    return path.with_name(path.name[: -len(".py")] + ".fixed.py")


@pytest.mark.parametrize("path", PAIRS, ids=[p.stem for p in PAIRS])
def test_fixture_pairs(path):
    result = fix_file(path, path.name, ALL, unsafe=path.name.startswith("unsafe"), write=False, project_root=FIXES)
    assert result.result.applied, "every fix fixture has something to fix"
    assert not result.result.failed
    expected = fixed_of(path).read_bytes()
    data = path.read_bytes()
    encoding = "latin-1" if b"latin-1" in data[:80] else "utf-8"
    produced = result.result.source.encode(encoding)
    if data.startswith(codecs.BOM_UTF8):
        produced = codecs.BOM_UTF8 + produced
    assert produced == expected


def test_every_fixable_rule_has_a_fixture_pair():
    from dl_lint.rules import all_rules

    fixed_codes = set()
    for path in PAIRS:
        result = fix_file(path, path.name, ALL, unsafe=True, write=False, project_root=FIXES)
        fixed_codes |= {d.code for d in result.result.applied}
    documented = {code for code, rule in all_rules().items() if not rule.fix_available.startswith("No automatic")}
    assert documented <= fixed_codes, documented - fixed_codes


def _rule_fixture_sources():
    roots = [FIXTURES / "rules", FIXTURES / "idioms", FIXTURES / "fixes", FIXTURES / "spawn"]
    return sorted(p for root in roots for p in root.rglob("*.py") if not p.name.endswith(".fixed.py"))


@pytest.mark.parametrize("path", _rule_fixture_sources(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fix_properties_over_all_fixtures(path):
    """fix → parses → the fixed diagnostics are gone → a second fix changes nothing → the
    bytes outside the edits are unchanged."""
    import libcst

    source = path.read_text(encoding="utf-8", errors="surrogateescape") if b"latin-1" not in path.read_bytes()[:80] else path.read_bytes().decode("latin-1")
    root = path.parent

    def lint(text):
        return lint_source(text, str(path), ALL, project_root=root)

    first = fix_source(source, lint, unsafe=True)
    libcst.parse_module(first.source)
    assert not first.failed
    remaining = {(d.code, d.message, d.detail) for d in first.remaining}
    for diag in first.applied:
        assert (diag.code, diag.message, diag.detail) not in remaining
    second = fix_source(first.source, lint, unsafe=True)
    assert second.source == first.source and not second.applied
    # Outside the edits nothing changed: undo each applied edit region by comparing the
    # unchanged prefix/suffix around every edit of the first pass.
    _assert_only_edits_changed(source, first)


def _assert_only_edits_changed(source, result):
    import difflib

    matcher = difflib.SequenceMatcher(a=source, b=result.source, autojunk=False)
    changed = [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]
    if not result.applied:
        assert not changed
        return
    # Every changed region of the original lies on a row some applied edit touched.
    starts = line_starts(source)
    touched = set()
    for diag in result.applied:
        for edit in diag.fix.edits:
            touched.update(range(edit.location.row - 1, edit.end_location.row + 2))
    for i1, i2 in changed:
        row = next(r for r in range(len(starts)) if starts[r] <= i1 < (starts[r + 1] if r + 1 < len(starts) else 10**12))
        assert row in touched or row + 1 in touched, f"an unedited row changed: {source[i1:i2]!r}"


@pytest.mark.torch
def test_fixed_error_fixtures_construct_under_torch():
    import torch
    for path in PAIRS:
        fixed = fixed_of(path)
        text = fixed.read_bytes()
        if b"def case_" not in text:
            continue
        sys.path.insert(0, str(FIXES))
        try:
            spec = importlib.util.spec_from_file_location(f"fixed_{path.stem}", fixed)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(FIXES))
        for name in dir(module):
            if name.startswith("case_"):
                loader = getattr(module, name)()
                assert isinstance(loader, torch.utils.data.DataLoader)
                next(iter(loader))


def test_overlapping_fixes_are_deferred_to_another_pass():
    source = "from torch.utils.data import DataLoader\nx = DataLoader(ds, prefetch_factor=2, timeout=3)\n"
    result = fix_source(source, lambda s: lint_source(s, "x.py", ALL), unsafe=True)
    assert result.source == "from torch.utils.data import DataLoader\nx = DataLoader(ds)\n"
    assert sorted(d.code for d in result.applied) == ["DL001", "DL005"]


def test_a_fix_that_breaks_the_file_is_dropped_and_reported():
    source = "x = 1\n"
    bad = Diagnostic(
        "DL001", "prefetch-without-workers", Severity.ERROR, "m", "x.py", Location(1, 1), Location(1, 2),
        Fix("safe", "breaks it", (Edit("(", Location(1, 1), Location(1, 2)),)),
    )
    calls = []

    def lint(text):
        calls.append(text)
        return [bad] if text == source else []

    result = fix_source(source, lint)
    assert result.source == source and not result.applied
    assert [d.code for d, _ in result.failed] == ["DL001"]


def test_a_fix_that_leaves_its_diagnostic_is_dropped():
    source = "x = 1\n"
    stubborn = Diagnostic(
        "DL002", "persistent-workers-without-workers", Severity.ERROR, "m", "x.py", Location(1, 5), Location(1, 6),
        Fix("safe", "no-op-ish", (Edit("2", Location(1, 5), Location(1, 6)),)),
    )
    result = fix_source(source, lambda text: [stubborn])
    assert result.source == source and [d.code for d, _ in result.failed] == ["DL002"]


def _fixes(source):
    """code -> (applicability, the text the fix removes or replaces) for every fix in ``source``."""
    starts = line_starts(source)
    out = {}
    for diag in lint_source(source, "x.py", ALL):
        if diag.fix is not None:
            edit = diag.fix.edits[0]
            span = source[to_offset(starts, edit.location) : to_offset(starts, edit.end_location)]
            out.setdefault(diag.code, []).append((diag.fix.applicability, span))
    return out


HEAD = "from torch.utils.data import DataLoader\n"


@pytest.mark.parametrize("workers", ["", "num_workers=0, "])
@pytest.mark.parametrize(
    "code,option",
    [
        ("DL001", "prefetch_factor=4"),
        ("DL002", "persistent_workers=True"),
        ("DL003", 'multiprocessing_context="spawn"'),
        ("DL005", "timeout=30"),
        ("DL304", "worker_init_fn=seed"),
        ("DL304", "in_order=False"),
    ],
)
def test_removing_an_option_written_for_workers_is_unsafe(workers, code, option):
    """num_workers literally 0 or absent: the value was written for workers (a developer set
    num_workers=0 to debug); deleting it loses it when they come back (ruff: a safe fix keeps
    the user's intent)."""
    fixes = _fixes(HEAD + f"x = DataLoader(ds, {workers}{option})\n")
    assert fixes[code] == [("unsafe", f", {option}")]


@pytest.mark.parametrize(
    "option,guarded",
    [
        ("prefetch_factor=4", "prefetch_factor=4 if nw > 0 else None"),
        ("persistent_workers=True", "persistent_workers=nw > 0"),
        ('multiprocessing_context="spawn"', 'multiprocessing_context="spawn" if nw > 0 else None'),
        ("timeout=30", "timeout=30 if nw > 0 else 0"),
    ],
)
def test_the_guarded_rewrite_for_a_num_workers_variable_stays_safe(option, guarded):
    source = HEAD + f"nw = 0\nx = DataLoader(ds, num_workers=nw, {option})\n"
    result = fix_source(source, lambda text: lint_source(text, "x.py", ALL))
    assert result.source == HEAD + f"nw = 0\nx = DataLoader(ds, num_workers=nw, {guarded})\n"


def test_a_fix_whose_edited_text_holds_a_comment_is_unsafe():
    own_line = HEAD + 'x = DataLoader(\n    ds,\n    pin_memory=True,\n    pin_memory_device="cuda",  # the A100 nodes\n)\n'
    assert _fixes(own_line)["DL303"] == [("unsafe", '    pin_memory_device="cuda",  # the A100 nodes\n')]
    # the same removal without the comment, and with a "#" inside a string, is safe
    plain = own_line.replace("  # the A100 nodes", "")
    assert _fixes(plain)["DL303"] == [("safe", '    pin_memory_device="cuda",\n')]
    hashed = HEAD + 'x = DataLoader(ds, pin_memory=True, pin_memory_device="cuda#0")  # outside the edit\n'
    assert _fixes(hashed)["DL303"] == [("safe", ', pin_memory_device="cuda#0"')]
    # a replaced value written over two lines with a comment inside (DL102's rewrite)
    split = HEAD + "x = DataLoader(ds, pin_memory=(  # pinned for speed\n    True))\n"
    assert [a for a, _ in _fixes(split)["DL102"]] == ["unsafe"]
    assert [a for a, _ in _fixes(split.replace("  # pinned for speed", ""))["DL102"]] == ["safe"]


def test_holds_comment_reads_tokens_not_characters():
    from dl_lint.fixes import holds_comment

    source = 'a = f("x # y", b)  # real\nc = 1\n'
    string = source.index("#")
    comment = source.index("# real")
    assert not holds_comment(source, [(string - 2, string + 3)])
    assert holds_comment(source, [(comment - 1, comment + 2)])
    assert not holds_comment(source, [(0, comment)])  # ends right before the comment
    # rows broken by \r alone and by \r\n, and a form feed (not a row break for Python)
    mixed = 'a = 1\rb = 2\r\n\x0cc = f(1)  # note\n'
    note = mixed.index("# note")
    assert holds_comment(mixed, [(note, note + 1)]) and not holds_comment(mixed, [(0, note)])
    # text the tokenizer rejects: any "#" in the span counts
    assert holds_comment('x = """\n# inside\n', [(4, 10)])


def test_a_form_feed_line_does_not_shift_the_fix():
    """Rows are counted as Python counts them; ``str.splitlines`` also breaks at a form feed,
    which put every edit below it on the wrong row (the fix then failed to verify)."""
    source = HEAD + "\x0c\ndef make(ds, w):\n    return DataLoader(ds, num_workers=w, persistent_workers=True)\n"
    result = fix_source(source, lambda text: lint_source(text, "x.py", ALL))
    assert not result.failed
    assert result.source == source.replace("persistent_workers=True", "persistent_workers=w > 0")


def test_apply_edits_is_byte_exact_outside_spans():
    source = "a = f(x,  y)   # keep\r\nb = 2\n"
    starts = line_starts(source)
    edit = Edit("z", Location(1, 7), Location(1, 8))
    assert apply_edits(source, [edit]) == "a = f(z,  y)   # keep\r\nb = 2\n"
    assert to_offset(starts, Location(2, 1)) == source.index("b")


# -- writing ----------------------------------------------------------------------------------------


def test_write_keeps_mode_and_is_atomic_under_interruption(tmp_path, monkeypatch):
    target = tmp_path / "train.py"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n" and stat.S_IMODE(target.stat().st_mode) == 0o640

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, b"newer\n")
    assert target.read_bytes() == b"new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]  # no temporary left behind


def test_read_only_file_is_refused(tmp_path):
    target = tmp_path / "ro.py"
    target.write_text("from torch.utils.data import DataLoader\nx = DataLoader(ds, timeout=3)\n")
    target.chmod(0o444)
    with pytest.raises(FixError, match="read-only"):
        fix_file(target, "ro.py", ALL, unsafe=True, write=True, project_root=tmp_path)
    assert "timeout=3" in target.read_text()


def test_symlink_out_of_the_project_is_refused(tmp_path):
    outside = tmp_path / "outside.py"
    outside.write_text("from torch.utils.data import DataLoader\nx = DataLoader(ds, timeout=3)\n")
    project = tmp_path / "project"
    project.mkdir()
    link = project / "link.py"
    link.symlink_to(outside)
    with pytest.raises(FixError, match="outside the project"):
        fix_file(link, "link.py", ALL, unsafe=True, write=True, project_root=project)
    assert "timeout=3" in outside.read_text()


# -- command line -----------------------------------------------------------------------------------

# DL011's guard is safe (num_workers is a parameter: the timeout is kept, and waited on only with
# workers); DL101's lower prefetch_factor is unsafe (throughput may change).
BAD = (
    "from torch.utils.data import DataLoader\n"
    "def x(ds, w): return DataLoader(ds, num_workers=w, timeout=3)\n"
    "y = DataLoader(ds, num_workers=16, prefetch_factor=8)\n"
)
GUARDED = "def x(ds, w): return DataLoader(ds, num_workers=w, timeout=3 if w > 0 else 0)\n"


def test_cli_fix_diff_and_exit_codes(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(BAD)
    listed = run_cli("a.py")
    assert "DL011 [*]" in listed.stdout and "DL101 [*]" not in listed.stdout
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option." in listed.stdout
    diff = run_cli("--diff", "a.py")
    assert diff.returncode == 1 and "+" + GUARDED in diff.stdout
    assert (tmp_path / "a.py").read_text() == BAD  # --diff writes nothing
    fixed = run_cli("--fix", "--show-fixes", "a.py")
    assert fixed.returncode == 1  # DL101 remains (its fix is unsafe)
    assert "1 × DL011 (unguarded-worker-option)" in fixed.stdout
    assert GUARDED in (tmp_path / "a.py").read_text()
    unsafe = run_cli("--fix", "--unsafe-fixes", "a.py")
    assert unsafe.returncode == 0, unsafe.stdout
    assert "num_workers=16, prefetch_factor=4)" in (tmp_path / "a.py").read_text()  # 64 in flight: the limit
    again = run_cli("--fix", "--unsafe-fixes", "a.py")
    assert again.returncode == 0 and (tmp_path / "a.py").read_text().count("prefetch_factor=4") == 1
    assert run_cli("--diff", "a.py").returncode == 0


def test_cli_fix_stdin(run_cli):
    result = run_cli("--fix", "--stdin-filename", "pkg/x.py", "-", input=BAD)
    assert result.returncode == 1  # the DL101 remains
    assert result.stdout.startswith("from torch.utils.data import DataLoader\n" + GUARDED)
    assert "pkg/x.py:3" in result.stderr and "DL101" in result.stderr


def test_cli_json_fix_shape(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(BAD)
    items = json.loads(run_cli("--output-format", "json", "a.py").stdout)
    fix = next(i for i in items if i["code"] == "DL011")["fix"]
    assert fix["applicability"] == "safe" and fix["message"]
    edit = {"content": "timeout=3 if w > 0 else 0", "end_location": {"column": 61, "row": 2}, "location": {"column": 52, "row": 2}}
    assert fix["edits"] == [edit]
    unsafe = next(i for i in items if i["code"] == "DL101")["fix"]
    assert unsafe["applicability"] == "unsafe"


def test_cli_fix_keeps_crlf_bom_and_encoding(tmp_path, run_cli):
    for name in ("crlf.py", "bom.py", "latin1.py"):
        (tmp_path / name).write_bytes((FIXES / name).read_bytes())
    result = run_cli("--fix", "crlf.py", "bom.py", "latin1.py")
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("crlf.py", "bom.py", "latin1.py"):
        assert (tmp_path / name).read_bytes() == fixed_of(FIXES / name).read_bytes()


def test_cli_read_only_error_and_run_goes_on(tmp_path, run_cli):
    (tmp_path / "ro.py").write_text(BAD)
    (tmp_path / "ro.py").chmod(0o444)
    (tmp_path / "rw.py").write_text(BAD)
    result = run_cli("--fix", "ro.py", "rw.py")
    assert "ro.py: file is read-only; not fixed" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "ro.py").read_text() == BAD
    assert GUARDED in (tmp_path / "rw.py").read_text()


@pytest.mark.torch  # the fixed module imports torch
def test_dl201_fix_makes_an_epoch_yield_each_sample_once():
    fixed = fixed_of(FIXES / "unsafe_shard.py")
    spec = importlib.util.spec_from_file_location("fixed_unsafe_shard_count", fixed)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("case_return_iter", "case_single_for"):
        loader = getattr(module, name)()
        seen = sorted(int(x) for x in loader)
        assert seen == list(range(12)), (name, seen)


NOTEBOOK = """{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Notes"]},
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {"tags": ["keep"]},
   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["hi\\n"]}],
   "source": [
    "%matplotlib inline\\n",
    "from torch.utils.data import DataLoader\\n",
    "loader = DataLoader(ds, batch_size=4, timeout=10)"
   ]
  }
 ],
 "metadata": {"kernelspec": {"name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""


def test_cli_fix_writes_back_valid_notebook_json(tmp_path, run_cli):
    nb = tmp_path / "nb.ipynb"
    nb.write_text(NOTEBOOK)
    listed = run_cli("nb.ipynb").stdout
    # num_workers not given: removing the timeout written for workers is unsafe
    assert "nb.ipynb:cell 2:3:39: DL005 timeout=10" in listed and "1 hidden fix" in listed
    assert run_cli("--fix", "nb.ipynb").returncode == 1 and nb.read_text() == NOTEBOOK
    result = run_cli("--fix", "--unsafe-fixes", "nb.ipynb")
    assert result.returncode == 0, result.stdout + result.stderr
    after = nb.read_text()
    assert json.loads(after)["cells"][1]["outputs"] == json.loads(NOTEBOOK)["cells"][1]["outputs"]
    expected = NOTEBOOK.replace("batch_size=4, timeout=10)", "batch_size=4)")
    assert after == expected  # only the fixed line changed, byte for byte


def test_the_documented_fix_example_is_real(tmp_path, run_cli):
    """docs/usage.md's "Fixes" example: its source, `dl-lint --fix src/` printing exactly what
    the page shows, and the file afterwards as the page describes it (the guarded rewrite is
    safe; removing what was written for workers waits for --unsafe-fixes)."""
    import re

    usage = (FIXTURES.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    section = usage[usage.index("## Fixes") : usage.index("\n## ", usage.index("## Fixes") + 1)]
    [source] = re.findall(r"For this `src/train.py`:\n\n```python\n(.*?)```", section, re.S)
    [block] = [b for b in re.findall(r"```console\n(.*?)```", section, re.S) if b.startswith("$ ")]
    command, *expected = block.splitlines()
    assert command == "$ dl-lint --fix src/"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(source)
    result = run_cli("--fix", "src/")
    assert result.returncode == 1 and result.stdout.splitlines() == expected, result.stdout
    fixed = (tmp_path / "src" / "train.py").read_text()
    assert fixed == source.replace("prefetch_factor=4)", "prefetch_factor=4 if args.workers > 0 else None)", 1)
    assert "# was 8; debugging" in fixed
    unsafe = run_cli("--fix", "--unsafe-fixes", "src/")
    assert unsafe.returncode == 0, unsafe.stdout
    after = (tmp_path / "src" / "train.py").read_text()
    assert "timeout=30" not in after and "num_workers=16, prefetch_factor=4)" in after


def test_guarded_fixes_parenthesise_operands_that_are_not_atoms():
    """A guarded form ``value if workers > 0 else None`` built from a conditional num_workers or
    a lambda value: the texts are parenthesised, so the fix parses and keeps its meaning (the
    fuzz test found ``0 if 0 if [] else 0 > 0 else None``, which does not parse)."""
    import ast

    source = (
        "from torch.utils.data import DataLoader\n"
        "loader = DataLoader([1], num_workers=(0 if [] else 0), multiprocessing_context='spawn', prefetch_factor=lambda: 2)\n"
    )
    fixes = {d.code: d.fix for d in lint_source(source, "train.py", Settings().with_overrides(select=("ALL",))) if d.fix}
    assert fixes["DL003"].edits[0].content == "multiprocessing_context='spawn' if (0 if [] else 0) > 0 else None"
    assert fixes["DL001"].edits[0].content == "prefetch_factor=(lambda: 2) if (0 if [] else 0) > 0 else None"
    for fix in fixes.values():
        ast.parse(apply_edits(source, fix.edits))


def test_dl011_guarded_fixes_parenthesise_operands_that_are_not_atoms():
    """DL011's fixes and the form its message shows, built from a conditional num_workers: the
    fuzz test found ``multiprocessing_context=0 if 1 if nw else 0 > 0 else None``, which does not
    parse; ``persistent_workers=a or b`` becomes ``(a or b) and (...) > 0``, keeping its meaning."""
    import ast

    source = (
        "import os\n"
        "from torch.utils.data import DataLoader\n"
        "nw = os.environ.get('W')\n"
        "loader = DataLoader([1], num_workers=(2 if nw else 0), multiprocessing_context='spawn', timeout=5,\n"
        "                    persistent_workers=bool(nw) or True)\n"
    )
    found = [d for d in lint_source(source, "train.py", Settings().with_overrides(select=("ALL",))) if d.code == "DL011"]
    fixes = {d.fix.edits[0].content.split("=", 1)[0]: d for d in found if d.fix}
    assert fixes["multiprocessing_context"].fix.edits[0].content == (
        "multiprocessing_context='spawn' if (2 if nw else 0) > 0 else None"
    )
    assert fixes["timeout"].fix.edits[0].content == "timeout=5 if (2 if nw else 0) > 0 else 0"
    assert "`multiprocessing_context='spawn' if (2 if nw else 0) > 0 else None`" in fixes["multiprocessing_context"].detail
    for diag in fixes.values():
        ast.parse(apply_edits(source, diag.fix.edits))
