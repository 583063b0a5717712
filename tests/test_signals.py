"""The program-wide signals are searched alternative by alternative for speed; the answers
must be exactly those of the patterns as written."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from conftest import FIXTURES
from dl_lint.analysis import signals

CRAFTED = [
    b"device=1", b"xdevice=1", b"_device = 2", b"a.to(x, device)", b"\xe9device=1", b"torch.cudax",
    b"mytorch.cuda", b"torch.cuda", b"lightningx", b"pytorch_lightning", b"import lightning", b"#device='cpu'",
    b"device = 'cpu'", b"device='cuda'", b"x.cuda ()", b"non_blocking = True", b"", b"\\bdevice",
    b"mp.set_start_method('spawn')", b"get_context(\"forkserver\")", b"strategy='ddp'", b"LOCAL_RANKS", b"xLOCAL_RANK",
]  # fmt: skip


def _corpus():
    found = [p.read_bytes() for p in sorted(FIXTURES.rglob("*.py"))]
    spec = importlib.util.find_spec("torch")
    if spec is not None and spec.origin:  # the test extra installs torch: real code, no import
        base = Path(os.path.dirname(spec.origin))
        for folder in ("utils/data", "nn/parallel", "cuda", "distributed/elastic"):
            found += [p.read_bytes() for p in sorted((base / folder).rglob("*.py"))[:150]]
    return found + CRAFTED


@pytest.mark.parametrize("kind", sorted(signals.SIGNALS))
def test_fast_search_agrees_with_the_pattern(kind):
    import re

    pattern = re.compile(*signals.SIGNALS[kind])  # the pattern as written, whole
    assert signals._Alternatives(*signals.SIGNALS[kind]).parts is not None, "the pattern should split into alternatives"
    for data in _corpus():
        assert signals.has_signal(data, kind) == (pattern.search(data) is not None), data[:200]


def test_unsplittable_pattern_falls_back():
    import re

    pattern = re.compile(rb"\bab||cd")  # an empty alternative: searched as written
    fast = signals._Alternatives(pattern.pattern, pattern.flags)
    assert fast.parts is None
    assert fast.search(b"xyz") == (pattern.search(b"xyz") is not None)


def test_imports_read_from_bytes():
    """The import graph reads import statements from bytes: relative imports, aliases,
    parenthesised lists across lines, backslash continuations; a plain list ends with its line
    (it once ran on into the next statement and lost it)."""
    from dl_lint.analysis.project import imported_modules

    data = (
        b"import os, sys as system\nimport a.b.c\nfrom . import x, y as z\n"
        b"from ..pkg import (q,\n    r)\nfrom m import *\nfrom x.y import f\nfrom k import a, \\\n    b  # done\n"
        b"def later():\n    from .late import thing\n"
    )
    assert sorted(imported_modules(data, "top.sub.mod", False)) == [
        "a.b.c", "k", "k.a", "k.b", "m", "os", "sys", "top.pkg", "top.pkg.q", "top.pkg.r",
        "top.sub", "top.sub.late", "top.sub.late.thing", "top.sub.x", "top.sub.y", "x.y", "x.y.f",
    ]  # fmt: skip
    assert "top.sub.mod.x" in imported_modules(b"from . import x\n", "top.sub.mod", True)  # a package's own dot


# The import lines of the graph, read from bytes: the patterns are tried only where ``import``
# occurs. This reference scans every line with the same patterns (what it did before); both
# read the names of a ``from`` statement alike.
def _reference_raw_imports(data: bytes):
    from dl_lint.analysis.project import _FROM_IMPORT, _IMPORT, _from_import

    if b"import" not in data:
        return (), ()
    plain = []
    for group in _IMPORT.findall(data):
        for part in group.split(b","):
            words = part.split()
            if words:
                plain.append(words[0].decode("ascii", "replace"))
    froms = [_from_import(*groups) for groups in _FROM_IMPORT.findall(data)]
    return tuple(plain), tuple(froms)


TRICKY_IMPORTS = [
    b"import os, sys as system\nfrom . import a, b\nfrom ..pkg.mod import (x,\n    y as z,  # important\n    w)\nimport torch.nn\n",
    b"from a import b, \\\n    c\nimport important_module\nx = 'import y'\n    import json\n",
    b"from m import *\n\tfrom .n import (p)\nfrom  q  import  r ; import s\n",
    b"def f():\n    from torch.utils.data import DataLoader\n    return DataLoader\nimportant = 1\n",
    b'"""\nimport inside_a_docstring\nfrom also import this\n"""\nimportlib = None\n',
    b"from x import (\n    a,\n    import_b,\n)\nimport c",  # no final newline
    b"from a.b import c\r\nimport d\r\n",
    b"",
    b"importx\nfrom import\nimport\n",
]


def test_raw_imports_read_what_a_scan_of_every_line_reads():
    from dl_lint.analysis.project import raw_imports

    samples = list(TRICKY_IMPORTS)
    samples += [path.read_bytes() for path in sorted(FIXTURES.rglob("*.py"))]
    assert len(samples) > 50
    for data in samples:
        assert raw_imports(data) == _reference_raw_imports(data), data[:200]
    assert raw_imports(TRICKY_IMPORTS[0]) == (
        ("os", "sys", "torch.nn"),
        ((".", ("a", "b")), ("..pkg.mod", ("x", "y", "w"))),  # a comment hides no name
    )


# ``SignalGraph.importers`` builds the reverse edges into one top-level name from the files that
# may import it (that name in their bytes, or a relative import) before building the whole
# reverse graph: both must give the same importers for every module, however it is imported.
_IMPORT_SHAPES = {
    "pkg/__init__.py": "from . import sub\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/leaf.py": "from .. import helpers\nfrom .sibling import thing\n",
    "pkg/sub/sibling.py": "thing = 1\n",
    "pkg/helpers.py": "import pkg.sub.leaf as leaf_module\n",
    "pkg/other.py": "    from pkg.sub import leaf\n",
    "scripts/run.py": "from pkg import helpers, other\nimport pkg.sub\n",
    "scripts/tool.py": "from scripts import run\n# pkg.sub.leaf is named in a comment only\n",
    "loose.py": "import scripts.tool\nfrom loose_two import x\n",
    "loose_two.py": "x = 2\n",
}


def test_importers_by_top_level_name_equal_the_reverse_graph(tmp_path):
    from dl_lint.analysis.project import Project, SignalGraph

    (tmp_path / "pyproject.toml").write_text("")
    for name, text in _IMPORT_SHAPES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    probing = SignalGraph(Project(tmp_path))
    probing.ROOTS = 10_000
    built = SignalGraph(Project(tmp_path))
    built.ROOTS = 0
    names = sorted({*probing.paths, *(m for n in probing.paths for m in probing.imports(n))})
    assert len(names) >= 10
    answers = {name: probing.importers(name) for name in names}
    assert built._reverse is None and probing._reverse is None
    assert answers == {name: built.importers(name) for name in names}
    assert built._reverse is not None and probing._reverse is None
    # a relative import names the package it climbs to without writing it
    assert "pkg.sub.leaf" in answers["pkg"] and "pkg" in answers["pkg.sub"]


def test_importers_come_from_the_whole_graph_when_the_cache_brought_the_imports(tmp_path):
    """A run after a full one (the results cache came with most files' imports) builds the
    whole reverse graph from them and reads no file's bytes to search it; a run whose cache
    brought none searches the bytes by top-level name. Both answer the same."""
    from types import SimpleNamespace

    from dl_lint.analysis.project import Project, SignalGraph

    (tmp_path / "pyproject.toml").write_text("")
    for name, text in _IMPORT_SHAPES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    files = len({path for paths in SignalGraph(Project(tmp_path)).paths.values() for path in paths})

    def graph(brought: int) -> SignalGraph:
        project = Project(tmp_path)
        project.store = SimpleNamespace(imports={}, imports_at_load=brought, dirty=False)
        return SignalGraph(project)

    warm, half, cold = graph(files), graph((files + 1) // 2), graph(files // 2 - 1)
    cold.ROOTS = 10_000  # never past the top-level names it searches by
    names = sorted({*cold.paths, *(m for n in cold.paths for m in cold.imports(n))})
    assert cold.importers("pkg.sub") == {"pkg", "pkg.other", "run", "scripts.run"}
    assert cold._reverse is None and cold._held is not None  # searched the bytes for "pkg"
    answers = {name: cold.importers(name) for name in names}
    assert cold._reverse is None
    for built in (warm, half):
        assert built.importers("pkg.sub") == answers["pkg.sub"]
        assert built._reverse is not None and built._held is None  # the whole graph at once
        assert answers == {name: built.importers(name) for name in names}


def test_many_ending_words_build_the_whole_graph(tmp_path):
    """A target deep under one top-level name has an ending word per folder (``b.c.d.leaf`` may
    be imported as ``c.d.leaf`` by a script that put ``a/b`` on ``sys.path``): past ``WORDS``
    words the whole reverse graph is built, with the same answers, instead of one search of
    every file per word."""
    from dl_lint.analysis.project import Project, SignalGraph

    (tmp_path / "pyproject.toml").write_text("")
    folders = [f"f{i}" for i in range(12)]
    deep = tmp_path.joinpath(*folders)
    deep.mkdir(parents=True)
    (deep / "leaf.py").write_text("X = 1\n")
    (tmp_path / "near.py").write_text(f"from {'.'.join(folders[4:])}.leaf import X\n")
    (tmp_path / "far.py").write_text(f"from {'.'.join(folders)}.leaf import X\n")
    target = ".".join(folders) + ".leaf"
    probing = SignalGraph(Project(tmp_path))
    probing.ROOTS = 10_000
    words = probing._ending_words(target)
    assert len(words) > probing.WORDS
    found = probing.importers(target)
    assert probing._reverse is not None  # built whole
    built = SignalGraph(Project(tmp_path))
    built.ROOTS = 0
    assert found == built.importers(target) == {"far", "near"}
    narrow = SignalGraph(Project(tmp_path))
    narrow.ROOTS, narrow.WORDS = 10_000, 10_000
    assert narrow.importers(target) == found and narrow._reverse is None  # searched word by word
