"""Issue 25 §7: where DL202 or DL203 is an error because the start method is certain, the
diagnostic names the line that makes it certain and cites it as related location; evidence
only in a module that imports the loader's (one entry point of possibly several) keeps the
warning, cited. Naming one file gives the same answer (the project index reads the others)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.config import clear_caches
from dl_lint.model import Severity

DATA = (
    "from torch.utils.data import DataLoader\n"
    "\n"
    "\n"
    "def make(ds):\n"
    "    return DataLoader(ds, num_workers=2, collate_fn=lambda b: b)\n"
)


@pytest.fixture(autouse=True)
def _fresh_caches():
    clear_caches()
    yield
    clear_caches()


def _project(tmp_path: Path, files: dict, pyproject: str = "[tool.dl-lint]\n") -> Path:
    (tmp_path / "pyproject.toml").write_text(pyproject)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _dl202(paths):
    found = [d for d in lint_paths(paths).diagnostics if d.code == "DL202"]
    assert len(found) == 1, found
    return found[0]


def test_spawn_in_the_loaders_module_is_certain_and_cited(tmp_path):
    text = DATA + "\nimport multiprocessing\nmultiprocessing.set_start_method('spawn')\n"
    root = _project(tmp_path, {"data.py": text})
    diag = _dl202([root])
    assert diag.severity is Severity.ERROR
    assert "(line 8)" in diag.full_message  # the concise line stays short; the detail names the line
    assert [(Path(r.path).name, r.row) for r in diag.related] == [("data.py", 8)]


def test_spawn_in_an_imported_module_is_certain_and_cited(tmp_path):
    root = _project(
        tmp_path,
        {
            "data.py": "import setup_mp\n" + DATA,
            "setup_mp.py": "import torch.multiprocessing as mp\n\nCTX = mp.get_context('forkserver')\n",
        },
    )
    for paths in ([root], [root / "data.py"]):
        diag = _dl202(paths)
        assert diag.severity is Severity.ERROR
        assert "(an imported module)" in diag.full_message  # no path in the text: the related location is it
        assert [(Path(r.path).name, r.row) for r in diag.related] == [("setup_mp.py", 3)]


def test_spawn_only_in_an_importer_keeps_the_warning_and_cites_it(tmp_path):
    main = "import multiprocessing\nfrom data import make\n\nif __name__ == '__main__':\n    multiprocessing.set_start_method('spawn')\n    make([1])\n"
    root = _project(tmp_path, {"data.py": DATA, "main.py": main})
    for paths in ([root], [root / "data.py"]):
        diag = _dl202(paths)
        assert diag.severity is Severity.WARNING
        assert "a module importing this one" in diag.full_message.lower()
        assert [(Path(r.path).name, r.row) for r in diag.related] == [("main.py", 5)]


def test_a_context_at_the_call_is_cited(tmp_path):
    root = _project(tmp_path, {"data.py": DATA.replace("num_workers=2,", "num_workers=2, multiprocessing_context='spawn',")})
    diag = _dl202([root])
    assert diag.severity is Severity.ERROR
    (related,) = diag.related
    assert (Path(related.path).name, related.row, related.note) == ("data.py", 5, "multiprocessing_context=spawn")


def test_the_pythons_of_pyproject_are_cited(tmp_path):
    pyproject = '[project]\nname = "x"\nversion = "0"\nrequires-python = ">=3.14"\n\n[tool.dl-lint]\n'
    root = _project(tmp_path, {"data.py": DATA}, pyproject)
    diag = _dl202([root])
    assert diag.severity is Severity.ERROR
    assert [(Path(r.path).name, r.row) for r in diag.related] == [("pyproject.toml", 4)]


def test_dl203_cites_what_makes_it_certain(tmp_path):
    script = (
        "import multiprocessing\n"
        "from torch.utils.data import DataLoader\n"
        "multiprocessing.set_start_method('forkserver')\n"
        "loader = DataLoader(list(range(8)), num_workers=2)\n"
        "for batch in loader:\n"
        "    pass\n"
    )
    root = _project(tmp_path, {"script.py": script})
    (diag,) = [d for d in lint_paths([root]).diagnostics if d.code == "DL203"]
    assert diag.severity is Severity.ERROR
    assert "(line 3)" in diag.full_message
    assert [(Path(r.path).name, r.row) for r in diag.related] == [("script.py", 3)]


FACTORY = (
    "from torch.utils.data import DataLoader\n"
    "\n"
    "\n"
    "def loader(ds, num_workers):\n"
    "    return DataLoader(ds, num_workers=num_workers)\n"
)
SCRIPT = "from data import loader\n\nfor batch in loader([1, 2], num_workers=2):\n    print(batch)\n"


def test_at_a_call_site_another_importer_of_the_factory_is_not_this_programs_evidence(tmp_path):
    """pytorch_geometric's shape: a test conftest imports the library and sets spawn in a fixture;
    an example script calls the library's factory at import. The DL203 at the script's call
    concerns the script's program: the conftest is neither cited nor part of its evidence (a run
    naming only the conftest would not report it)."""
    conftest = "import multiprocessing\nimport data\n\n\ndef fixture():\n    multiprocessing.set_start_method('spawn', force=True)\n"
    root = _project(tmp_path, {"data.py": FACTORY, "example.py": SCRIPT, "conftest.py": conftest})
    for paths in ([root], [root / "example.py"]):
        found = [d for d in lint_paths(paths).diagnostics if d.code == "DL203"]
        assert [(Path(d.filename).name, d.location.row) for d in found] == [("example.py", 3)]
        assert found[0].severity is Severity.WARNING
        assert "importing" not in found[0].full_message.lower()
        assert [Path(r.path).name for r in found[0].related] == ["data.py"]
        assert not any(Path(p).name == "conftest.py" for p in found[0].evidence)


def test_at_a_call_site_the_callers_own_spawn_is_cited(tmp_path):
    """The calling script is itself an importer of the factory's module: its own spawn stays
    cited (a warning: the loader's module does not decide it)."""
    script = "import multiprocessing\n" + SCRIPT.replace("for batch", "multiprocessing.set_start_method('spawn')\nfor batch")
    root = _project(tmp_path, {"data.py": FACTORY, "example.py": script})
    found = [d for d in lint_paths([root]).diagnostics if d.code == "DL203"]
    assert len(found) == 1
    assert ("example.py", 4) in [(Path(r.path).name, r.row) for r in found[0].related]
