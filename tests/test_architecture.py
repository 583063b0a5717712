"""The shape of the code (../shared/guide/architecture.md): data flows one way, so the imports
between dl-lint's modules form no circle; and each module of a run is parsed at most once."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES
from dl_lint import engine, lint_paths

PACKAGE = Path(__file__).resolve().parent.parent / "dl_lint"


def _imports() -> dict:
    """Module -> the dl_lint modules it imports (anywhere in it: lazy imports count too)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            graph[name].update(t for t in targets if t in modules and t not in (name, "dl_lint"))
    return graph


def _cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_imports_form_no_circle():
    graph = _imports()
    assert len(graph) > 40 and graph["dl_lint.engine"]  # the walk found the package
    assert _cycles(graph) == []


def test_a_circle_would_be_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_rules_never_import_the_engine_or_the_pipeline():
    graph = _imports()
    for name, targets in graph.items():
        if name.startswith("dl_lint.rules") or name.startswith("dl_lint.analysis"):
            assert not targets & {"dl_lint.engine", "dl_lint.pipeline", "dl_lint.judge", "dl_lint.cli"}, name


def test_each_module_is_parsed_at_most_once(tmp_path, monkeypatch):
    """Across every fixture (imports between modules, call sites, datasets in other files):
    one process parses each module once, however many files import it."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine, "RETAINED", [])
    result = lint_paths(["fixtures"], jobs=1)
    project, _files = engine.RETAINED[-1]
    assert result.files_parsed > 20 and project.parses
    assert {path: count for path, count in project.parses.items() if count > 1} == {}


def test_workers_parse_each_module_once(tmp_path, monkeypatch):
    """With worker processes too: a module outside the shares that files of both shares import
    (here a big settings module) is parsed by one process and read by the other."""
    from dl_lint import pipeline

    monkeypatch.chdir(tmp_path)
    (tmp_path / "settings.py").write_text(
        "WORKERS = 0\nclass LoaderConfig:\n    pass\n" + "".join(f"def helper{i}(x):\n    return x + {i}\n" for i in range(400))
    )
    for n in range(6):  # candidates that resolve names from settings (one looks like a loader)
        (tmp_path / f"train{n}.py").write_text(
            "from torch.utils.data import DataLoader\nfrom settings import WORKERS, LoaderConfig\n\n"
            f"config = LoaderConfig()\nloader = DataLoader([{n}], num_workers=WORKERS, prefetch_factor=2)\n"
        )
    serial = lint_paths(["."], jobs=1)
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(engine, "RETAINED", [])
    parallel = lint_paths(["."], jobs=2)
    project, _files = engine.RETAINED[-1]
    assert parallel.processes == 2 and parallel.diagnostics == serial.diagnostics
    assert len([d for d in serial.diagnostics if d.code == "DL001"]) == 6  # WORKERS was read
    assert project.parses.get(str(tmp_path / "settings.py")) == 1
    assert {path: count for path, count in project.parses.items() if count > 1} == {}


def test_shared_summaries_between_processes(tmp_path):
    """The first process to ask claims a module; another waits for its summary; a claimer that
    is gone (or too slow) leaves the module to whoever waits."""
    import os
    import time

    from dl_lint.workers import SharedSummaries

    shared = SharedSummaries(str(tmp_path))
    assert shared.take("/a.py", "a") == (False, None)  # claimed here
    shared.give("/a.py", "a", {"summary": 1})
    assert shared.take("/a.py", "a") == (True, {"summary": 1})
    assert shared.take("/a.py", "other.name") == (False, None)  # the module name is part of the key
    shared.give("/b.py", "b", None)  # a module that cannot be parsed: the others need not try
    assert shared.take("/b.py", "b") == (True, None)

    pid = os.fork()
    if pid == 0:  # claims, works for a while, publishes
        try:
            shared.take("/c.py", "c")
            time.sleep(0.3)
            shared.give("/c.py", "c", "made by the child")
        finally:
            os._exit(0)
    time.sleep(0.1)
    started = time.monotonic()
    assert shared.take("/c.py", "c") == (True, "made by the child")
    assert time.monotonic() - started > 0.05  # it waited
    os.waitpid(pid, 0)

    pid = os.fork()
    if pid == 0:  # claims and dies without publishing
        shared.take("/d.py", "d")
        os._exit(0)
    os.waitpid(pid, 0)  # reaped: gone
    started = time.monotonic()
    assert shared.take("/d.py", "d") == (False, None)
    assert time.monotonic() - started < 1

    shared.WAIT = 0.2  # a claimer that never publishes (this process, alive)
    shared.take("/e.py", "e")
    started = time.monotonic()
    assert shared.take("/e.py", "e") == (False, None)
    assert 0.15 < time.monotonic() - started < 2
    shared.remove()
    assert not os.path.exists(str(tmp_path))


def test_the_queue_gives_each_candidate_to_one_process():
    """Processes that read one queue at once take every index exactly once between them,
    costliest first; an empty queue says so (None); a queue too long for a pipe is refused
    (the shares are then fixed in advance)."""
    import os
    import struct

    from dl_lint.workers import _Queue

    order = list(range(5000, 0, -1))
    queue = _Queue.create(order)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            taken = []
            while (index := queue.take()) is not None:
                taken.append(index)
            os.write(writer, struct.pack(f"<{len(taken)}I", *taken) if taken else b"")
        finally:
            os._exit(0)
    os.close(writer)
    mine = []
    while (index := queue.take()) is not None:
        mine.append(index)
    os.waitpid(pid, 0)
    data = b""
    while chunk := os.read(reader, 65536):
        data += chunk
    theirs = list(struct.unpack(f"<{len(data) // 4}I", data))
    assert sorted(mine + theirs) == sorted(order)
    assert mine == sorted(mine, reverse=True) and theirs == sorted(theirs, reverse=True)
    assert queue.take() is None
    queue.close()
    assert _Queue.create(list(range(_Queue.TOKENS + 1))) is None


def test_a_plain_check_of_the_fixtures_imports_no_libcst(tmp_path):
    probe = (
        "import sys\nfrom dl_lint import lint_paths\nlint_paths([sys.argv[1]])\n"
        "print('LIBCST' if 'libcst' in sys.modules else 'NO-LIBCST')\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(FIXTURES)], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "NO-LIBCST", out.stderr


def test_a_plain_check_never_imports_dataclasses(tmp_path):
    """The data classes a check uses are ``dl_lint.record.Record`` classes: making dataclasses
    at import cost about 25 ms of startup, and the dataclasses module imports inspect. Checked
    through the console script (which reads a plain check command line without click) and
    through click's command, with the results cache cold and then warm, on files whose
    diagnostics have fixes (``dl_lint.fixes``) and a notebook (``dl_lint.notebook``)."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    cell = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
    notebook = {"cells": [{"cell_type": "code", "source": cell, "metadata": {}, "outputs": []}], "metadata": {}}
    (tmp_path / "fixtures" / "notebook.ipynb").write_text(json.dumps(notebook))
    report = "print(sorted(m for m in ('dataclasses', 'dl_lint.fixes', 'dl_lint.notebook') if m in sys.modules))"
    probes = {
        # entry.main ends the process with os._exit: report from there instead
        "console script": (
            "import sys\nfrom dl_lint import entry\n"
            f"entry._leave = lambda code: {report}\n"
            "sys.argv = ['dl-lint', '-q', 'fixtures']\nentry.main()\n"
        ),
        "click": (
            "import sys\nfrom dl_lint.cli import main\n"
            "try:\n    main(args=['-q', 'fixtures'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            f"{report}\n"
        ),
    }
    for path, probe in probes.items():
        shutil.rmtree(tmp_path / ".dl_lint_cache", ignore_errors=True)
        for run in ("cold cache", "warm cache"):
            out = subprocess.run(
                [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120
            )
            imported = out.stdout.strip().splitlines()[-1:]
            assert imported and "dataclasses" not in imported[0], (path, run, out.stdout[-2000:], out.stderr)
            if run == "cold cache":  # the modules that fixes and notebooks bring in were imported
                assert imported == ["['dl_lint.fixes', 'dl_lint.notebook']"], (path, out.stderr)
        assert (tmp_path / ".dl_lint_cache").exists()


def test_expression_walk_misses_no_child():
    """The collector walks common expression classes through a table of their expression fields
    (faster than ``ast.iter_child_nodes``): every other field must be an operator or a context,
    on the running Python too."""
    import ast

    from dl_lint.analysis.scopes import _CHILD_FIELDS

    for cls, fields in _CHILD_FIELDS.items():
        assert set(fields) <= set(cls._fields), cls
        skipped = set(cls._fields) - set(fields)
        assert skipped <= {"op", "ops", "ctx", "conversion"}, (cls.__name__, skipped)
    # and the walk records calls wherever they sit in such expressions
    from dl_lint.analysis.scopes import collect

    tree = ast.parse("x = (a(1) + -b(2), {c(3): d(4), **e(5)}, f'{g(6)!r:{h(7)}}', i(8)[j(9):k(10)], l(11) if m(12) else n(13))")
    called = sorted(call.func.id for call, _, _, _ in collect(tree).calls)
    assert called == sorted("abcdeghijklmn")


def test_a_summary_leaves_the_tree_as_parsed():
    """A module's summary is built from the same parse as its own analysis, at whatever point
    something first asks for it: building it must not change the tree (``sample_bytes`` popped
    the statements of ``__getitem__`` off the tree's own body), and building it again gives the
    same summary."""
    from dl_lint.analysis.module import ModuleAnalysis
    from dl_lint.analysis.syntax import parse

    path = Path(__file__).resolve().parent / "data" / "batches" / "token_slices.py"
    source = path.read_text(encoding="utf-8")
    analysis = ModuleAnalysis(parse(source), source, str(path), "token_slices", False, None, ())
    before = ast.dump(analysis.tree)
    summary = analysis.summary()
    assert ast.dump(analysis.tree) == before
    sample = {c.name: c.sample for c in summary.classes}["Tokens"]
    assert sample is not None
    again = ModuleAnalysis(analysis.tree, source, str(path), "token_slices", False, None, ()).summary()
    assert {c.name: c.sample for c in again.classes}["Tokens"] == sample
