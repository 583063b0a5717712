"""Loader-like class names judged from bytes (dl_lint.analysis.prefilter): which files need a
parse, which imported classes need their module parsed, and how the results cache keeps those
answers honest when other files change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dl_lint import engine
from dl_lint.analysis.prefilter import binds_any, construct_evidence, lone_class_line, may_name_loader_class
from dl_lint.engine import lint_paths

LOADER = "from torch.utils.data import DataLoader\n"
DOC = '"""Our DataLoader subclass, by name."""\n'  # only files that mention DataLoader are read further


@pytest.mark.parametrize(
    "source,expected",
    [
        (LOADER + "DataLoader(ds)\n", frozenset()),
        ("from torchdata.stateful_dataloader import StatefulDataLoader\nStatefulDataLoader(ds)\n", frozenset()),
        ("from x import InfiniteDataLoader\nInfiniteDataLoader(ds)\n", frozenset({"InfiniteDataLoader"})),
        ("cfg = DataLoaderConfiguration(split_batches=True)\n", frozenset({"DataLoaderConfiguration"})),
        ("from x import FastLoader\nloader = FastLoader(ds)\n", frozenset({"FastLoader"})),
        (LOADER + "InfiniteDataLoader(ds)\nDataLoader(ds)\n", frozenset()),  # a real call wins
        ("from torch.utils.data import DataLoader as L\nL(ds)\n", frozenset()),
        ('"""Wraps a DataLoader."""\n', None),
    ],
)
def test_construct_evidence(source, expected):
    data = source.encode()
    assert construct_evidence(data) == expected


def _can(name, *sources, extra=()):
    return may_name_loader_class(name, [s.encode() for s in sources], extra)[0]


def test_a_name_no_file_defines_comes_from_outside_and_is_no_loader():
    assert not _can("UlyssesSPDataLoaderAdapter", "from deepspeed.x import UlyssesSPDataLoaderAdapter\n")


def test_a_class_without_a_loader_base_is_no_loader():
    assert not _can("DataLoaderConfiguration", "@dataclass\nclass DataLoaderConfiguration:\n    split: bool = False\n")
    assert not _can("Shard", "class Shard(Base, metaclass=ABCMeta):\n    pass\n", "class Base:\n    pass\n")
    # an annotation with a default is no binding of the name
    assert not _can("Cfg", "class Cfg:\n    pass\n", "def f(cfg: Cfg = None):\n    pass\n")
    assert not _can("build_loader", "def build_loader(ds):\n    return DataLoader(ds)\n")  # a function


@pytest.mark.parametrize(
    "sources",
    [
        ("class FastLoader(DataLoader):\n    pass\n",),
        ("class FastLoader(torch.utils.data.DataLoader):\n    pass\n",),
        ("class FastLoader(Base):\n    pass\n", "class Base(\n    Mixin,\n    DataLoader,\n):\n    pass\n"),
        ("FastLoader = partial(DataLoader, num_workers=4)\n",),
        ("from torch.utils.data import DataLoader as FastLoader\n",),
        ("class FastLoader(*bases):\n    pass\n",),
        ("class FastLoader(MyBase):\n    pass\n",),  # MyBase is an extra loader
    ],
)
def test_what_can_make_a_name_a_loader_class(sources):
    assert _can("FastLoader", *sources, extra=("pkg.MyBase",))


def test_the_names_looked_up_are_returned():
    can, words = may_name_loader_class("A", [b"class A(B):\n    pass\nclass B(C):\n    pass\n"])
    assert not can and words == {"A", "B", "C"}


def test_binds_any_tells_bindings_from_uses():
    assert not binds_any(b"x = FastLoader(ds)\nisinstance(x, FastLoader)\nclass FastLoader:\n    pass\n", ["FastLoader"])
    assert binds_any(b"class FastLoader(Base):\n    pass\n", ["FastLoader"])
    assert binds_any(b"FastLoader = DataLoader\n", ["FastLoader"])
    assert binds_any(b"from x import DataLoader as FastLoader\n", ["FastLoader"])


@pytest.mark.parametrize(
    "source,line",
    [
        ("import os\n\n\nclass Accelerator:\n    pass\n", 4),
        ("class Accelerator(Base):\n    def f(self):\n        from accelerate import Accelerator\n", 1),  # local import
        ('def f():\n    """\n    >>> from accelerate import Accelerator\n    >>> a = Accelerator()\n    """\nclass Accelerator:\n    pass\n', 6),
        ("class Accelerator:\n    pass\nAccelerator = wrap(Accelerator)\n", None),
        ("class Accelerator:\n    pass\nclass Accelerator:\n    pass\n", None),
        ("from x import (\n    y,\n    Accelerator,\n)\nclass Accelerator:\n    pass\n", None),
        ("try:\n    from x import Accelerator\nexcept ImportError:\n    class Accelerator:\n        pass\n", None),
        ("from x import *\nclass Accelerator:\n    pass\n", None),
        ("if TYPE:\n    Accelerator = None\nclass Accelerator:\n    pass\n", None),
        ("Accelerator = 1\n", None),
        ("def f():\n    Accelerator = 1\nclass Accelerator:\n    pass\n", 3),  # local to f (line 1 opens it)
        ("import os\n" * 40 + "from x import (\n    Accelerator,\n)\nclass Accelerator:\n    pass\n", None),
        ("x = y * 2  # a star that imports nothing\nclass Accelerator:\n    pass\n", 2),
    ],
)
def test_lone_class_line(source, line):
    assert lone_class_line(source.encode(), "Accelerator") == line


def _project(root: Path, files: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def _parsed(root: Path):
    project, _files = engine.RETAINED[-1]
    return sorted(os.path.relpath(path, root) for path in project.parses)


def _codes(result):
    return [(d.filename, d.code, d.location.row) for d in result.diagnostics]


def test_a_file_calling_only_non_loader_classes_is_not_parsed(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {
            "config.py": "class DataLoaderConfiguration:\n    pass\n",
            "train.py": "from config import DataLoaderConfiguration\ncfg = DataLoaderConfiguration(prefetch_factor=2)\n",
            "notes.py": DOC + "from config import DataLoaderConfiguration\ncfg = DataLoaderConfiguration(prefetch_factor=2)\n",
            "loaders.py": LOADER + "class FastLoader(DataLoader):\n    pass\n",
            "fast.py": DOC + "from loaders import FastLoader\nloader = FastLoader([1], prefetch_factor=2)\n",
        },
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    result = lint_paths(["."], jobs=1)
    assert _codes(result) == [("fast.py", "DL001", 3)]
    assert "notes.py" not in _parsed(root) and "config.py" not in _parsed(root)
    assert "fast.py" in _parsed(root)


# A factory reads an attribute of its argument; the caller passes an instance of a class that a
# module binds only by its class statement.
LONE_CLASS_PROJECT = {
    "big.py": "import os\n\n\nclass Accelerator:\n    def num(self):\n        return os.cpu_count()\n",
    "data.py": LOADER + "def make(acc, workers):\n    return DataLoader([1], num_workers=workers, prefetch_factor=2, drop_last=acc.flag)\n",
    "train.py": "from big import Accelerator\nfrom data import make\naccelerator = Accelerator()\nmake(accelerator, 0)\n",
}


def test_a_lone_class_is_resolved_without_parsing_its_module(tmp_path, monkeypatch):
    """``accelerator = Accelerator()`` passed to a loader factory: knowing it is an instance of
    a class needs only the class statement, not a parse of a 200 KB module."""
    root = _project(
        tmp_path,
        LONE_CLASS_PROJECT,
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    result = lint_paths(["."], jobs=1)
    assert ("train.py", "DL001", 4) in _codes(result)
    assert _parsed(root) == ["data.py", "train.py"]


def test_the_cache_rechecks_a_no_only_when_a_changed_file_binds_the_name(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        {
            "loaders.py": "class FastLoader:\n    pass\n",
            "train.py": DOC + "from loaders import FastLoader\nloader = FastLoader([1], num_workers=0, prefetch_factor=2)\n",
            "notes.py": "X = 1\n",
        },
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    cache_dir = root / "cache"
    assert _codes(lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)) == []
    # An edit elsewhere, even one that uses the name, leaves the answer standing: nothing parsed.
    (root / "notes.py").write_text("X = 2\nfrom loaders import FastLoader\nprint(FastLoader)\n")
    again = lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)
    assert _codes(again) == [] and _parsed(root) == []
    # An edit that makes it a loader class: the file that calls it is judged again.
    (root / "loaders.py").write_text(LOADER + "class FastLoader(DataLoader):\n    pass\n")
    edited = lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)
    assert _codes(edited) == [("train.py", "DL001", 3)]
    assert _codes(edited) == _codes(lint_paths(["."], jobs=1))
    # A new file that binds the name another way counts too.
    (root / "loaders.py").write_text("class FastLoader:\n    pass\n")
    assert _codes(lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)) == []
    (root / "train.py").write_text(DOC + "from alias import FastLoader\nloader = FastLoader([1], num_workers=0, prefetch_factor=2)\n")
    (root / "alias.py").write_text(LOADER + "FastLoader = DataLoader\n")
    added = lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)
    assert _codes(added) == [("train.py", "DL001", 3)] == _codes(lint_paths(["."], jobs=1))


def test_an_importer_of_a_lone_class_rests_on_that_statement_only(tmp_path, monkeypatch):
    root = _project(
        tmp_path,
        LONE_CLASS_PROJECT,
    )
    monkeypatch.chdir(root)
    monkeypatch.setattr(engine, "RETAINED", [])
    cache_dir = root / "cache"
    cold = _codes(lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir))
    assert ("train.py", "DL001", 4) in cold
    (root / "big.py").write_text("import os\n\n\nclass Accelerator:\n    def num(self):\n        return 2\n\n\ndef helper():\n    pass\n")
    edited = lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)
    assert _codes(edited) == cold and _parsed(root) == []  # nothing read but big.py's bytes
    (root / "big.py").write_text("import os\n\n\nclass Accelerator:\n    pass\n\n\nAccelerator = {'flag': 0}\n")
    rebound = lint_paths(["."], jobs=1, cache=True, cache_dir=cache_dir)
    assert "train.py" in _parsed(root)
    assert _codes(rebound) == _codes(lint_paths(["."], jobs=1))


def test_the_word_index_gives_the_same_answers():
    """``WordIndex`` only narrows which files are searched: for every loader-like word of a
    corpus (the fixtures, and words that touch non-ASCII identifiers or file edges) and for
    bases followed from them, the answer and the names looked up are those of a full search."""
    import re

    from conftest import FIXTURES
    from dl_lint.analysis.prefilter import WordIndex

    sources = [p.read_bytes() for p in sorted(FIXTURES.rglob("*.py"))]
    sources += [
        b"class \xc3\xa9DataLoader(DataLoader):\n    pass\n",  # a word that starts with a non-ASCII letter
        b"FastLoader = DataLoader",  # at the very end of a file
        b"class MyLOADER(Base):\n    pass\nclass Base(DataLoader):\n    pass\n",
        b"from x import loader_factory as ImportedLoader\n",
        b"",
    ]
    index = WordIndex(sources)
    words = {w.decode("utf-8", "replace") for data in sources for w in re.findall(rb"[\w\x80-\xff]*[Ll][Oo][Aa][Dd][Ee][Rr][\w\x80-\xff]*", data)}
    words |= {"Base", "MyLOADER", "ImportedLoader", "NotThere", "DataLoader", "éDataLoader"}
    assert len(words) > 50
    for word in sorted(words):
        assert may_name_loader_class(word, (), (), index) == may_name_loader_class(word, sources), word
    assert may_name_loader_class("MyLOADER", sources)[0] and may_name_loader_class("FastLoader", sources)[0]
