"""An import that no project module name answers is matched by the ending of the files' dotted
names from the root: a script that puts a folder on ``sys.path`` itself
(``sys.path.append(dirname(dirname(dirname(realpath(__file__)))))`` and then ``from
pythonProject.dataset import ...``, held-out set 39's EMFIT-1..8) or is run with ``PYTHONPATH``
imports from below the project root, and the dataset class it constructs is the project's. A
name a project module answers from the root or its packages is never looked up by ending, and
a one-part name is never matched by ending (``import items`` may be anything installed)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

KEEPS = """\
from torch.utils.data import Dataset


class Items(Dataset):
    def __init__(self, n, transform=None):
        self.n = n
        self.transform = transform

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.transform(i)
"""

DROPS = """\
from torch.utils.data import Dataset


class Items(Dataset):
    def __init__(self, n, transform=None):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i
"""

SCRIPT = """\
import os
import sys
sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
from torch.utils.data import DataLoader
{import_line}


def main():
    dataset = Items(64, transform=lambda x: x * 2)
    loader = DataLoader(dataset, batch_size=8, num_workers=4)
    for batch in loader:
        pass


if __name__ == "__main__":
    main()
"""


def _write(tmp_path: Path, files: dict) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _found(tmp_path: Path, named=None):
    targets = [str(tmp_path / n) for n in named] if named else [str(tmp_path)]
    result = lint_paths(targets)
    return sorted((Path(d.filename).relative_to(tmp_path).as_posix(), d.location.row, d.code) for d in result.diagnostics)


SCRIPT_PATH = "stage/pythonProject/ViT/train.py"


@pytest.mark.parametrize(
    "import_line",
    ["from pythonProject.dataset import Items", "from pythonProject import dataset\nItems = dataset.Items"],
    ids=["from-module", "module-attribute"],
)
def test_a_class_imported_from_a_folder_the_script_put_on_sys_path(tmp_path, import_line):
    _write(tmp_path, {"stage/pythonProject/dataset.py": KEEPS, SCRIPT_PATH: SCRIPT.format(import_line=import_line)})
    row = 10 + import_line.count("\n")
    assert _found(tmp_path) == [(SCRIPT_PATH, row, "DL202")]
    # naming the script alone reports the same (issue 26): the class's file is read as a dependency
    assert _found(tmp_path, [SCRIPT_PATH]) == [(SCRIPT_PATH, row, "DL202")]


def test_a_name_a_root_module_answers_is_not_looked_up_by_ending(tmp_path):
    # ``pythonProject/dataset.py`` at the root answers the name: the deeper file that ends the
    # same way (and would keep the lambda) is not the one imported
    _write(
        tmp_path,
        {
            "pythonProject/dataset.py": DROPS,
            "stage/pythonProject/dataset.py": KEEPS,
            SCRIPT_PATH: SCRIPT.format(import_line="from pythonProject.dataset import Items"),
        },
    )
    assert _found(tmp_path) == []


def test_a_one_part_name_is_not_matched_by_ending(tmp_path):
    # ``stage/pythonProject`` is a package, so ``dataset.py`` is ``pythonProject.dataset`` by its
    # packages and ``stage.pythonProject.dataset`` from the root; ``import dataset`` names neither
    _write(
        tmp_path,
        {
            "stage/pythonProject/__init__.py": "",
            "stage/pythonProject/dataset.py": KEEPS,
            "stage/__init__.py": "",
            "scripts/train.py": SCRIPT.format(import_line="from dataset import Items"),
        },
    )
    assert _found(tmp_path) == []


def test_the_nearest_of_several_endings_is_taken(tmp_path):
    # two experiment folders each hold ``lib/data.py``; each script imports its own sibling's
    _write(
        tmp_path,
        {
            "exp_a/code/lib/data.py": KEEPS,
            "exp_b/code/lib/data.py": DROPS,
            "exp_a/code/run/train.py": SCRIPT.format(import_line="from lib.data import Items"),
            "exp_b/code/run/train.py": SCRIPT.format(import_line="from lib.data import Items"),
        },
    )
    assert _found(tmp_path) == [("exp_a/code/run/train.py", 10, "DL202")]


FACTORY = """\
from torch.utils.data import DataLoader


def make(ds, num_workers=4, prefetch_factor=2):
    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)
"""

CALLER = """\
import os
import sys
sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
from pythonProject.loaders import make

loader = make([1, 2, 3]{workers})
"""

CALL_SITE = [("stage/pythonProject/run/main.py", 6, "DL001")]


def _cli(run_cli, root: Path, *args: str) -> list:
    done = run_cli("--output-format", "json", *args, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))


@pytest.mark.parametrize("named", [["."], ["stage/pythonProject/run/main.py"], ["stage/pythonProject/loaders.py"]])
def test_a_call_site_finding_by_ending_whichever_file_is_named(tmp_path, run_cli, named):
    # issue 26: the import graph has the edge the resolver follows, so a run naming the factory's
    # file reads its caller, and one naming the caller reads the factory
    _write(tmp_path, {"stage/pythonProject/loaders.py": FACTORY, "stage/pythonProject/run/main.py": CALLER.format(workers=", num_workers=0")})
    assert _cli(run_cli, tmp_path, "--no-cache", *named) == CALL_SITE


def test_a_changed_factory_default_by_ending_with_a_warm_cache(tmp_path, run_cli):
    _write(tmp_path, {"stage/pythonProject/loaders.py": FACTORY, "stage/pythonProject/run/main.py": CALLER.format(workers="")})
    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert _cli(run_cli, tmp_path, *cache, ".") == []
    (tmp_path / "stage/pythonProject/loaders.py").write_text(FACTORY.replace("num_workers=4", "num_workers=0"))
    # the commit touches only the factory: the crash it makes at the caller is reported
    assert _cli(run_cli, tmp_path, *cache, "stage/pythonProject/loaders.py") == CALL_SITE
    assert _cli(run_cli, tmp_path, "--no-cache", "stage/pythonProject/loaders.py") == CALL_SITE

