"""bench/count_loaders.py, the census docs/corpus.md's loader counts come from: each column counts
what its docstring says, the columns never count a call twice, and several roots give one line
each (run as a subprocess, as the docs run it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "count_loaders.py"


def write(root: Path, files: dict) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def census(*roots: Path) -> dict:
    out = subprocess.run([sys.executable, str(SCRIPT), *map(str, roots)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines[0] == "root\tpy_files\ttorch\tsubclass\tlibrary"
    rows = {}
    for line in lines[1:]:
        root, *numbers = line.split("\t")
        rows[root] = tuple(int(n) for n in numbers)
    return rows


def test_torch_spellings_of_the_real_world_script_and_from_torch_utils_import_data(tmp_path):
    root = write(
        tmp_path / "repo",
        {
            "a.py": "from torch.utils.data import DataLoader\nDataLoader(ds)\nDataLoader(ds, num_workers=2)\n",
            "b.py": "import torch\nloader = torch.utils.data.DataLoader(ds)\n",
            "c.py": "from torch.utils import data\nloader = data.DataLoader(ds)\n",
            "d.py": "from torchdata.stateful_dataloader import StatefulDataLoader\nStatefulDataLoader(ds)\n",
            # a DataLoader that is not torch's: no torch import, not counted
            "e.py": "from mylib import DataLoader\nDataLoader(ds)\n",
            "broken.py": "def f(:\n",
        },
    )
    assert census(root)[str(root)] == (6, 5, 0, 0)


def test_project_subclasses_and_library_loaders_are_counted_apart(tmp_path):
    root = write(
        tmp_path / "repo",
        {
            "loaders.py": """\
                import torch.utils.data

                class GraphLoader(torch.utils.data.DataLoader):
                    pass

                class MaskingLoader(GraphLoader):
                    pass
                """,
            "train.py": """\
                from loaders import GraphLoader, MaskingLoader
                from torch_geometric.loader import NeighborLoader, DataLoader
                import webdataset as wds

                GraphLoader(ds, num_workers=4)
                MaskingLoader(ds)
                NeighborLoader(data, num_neighbors=[10])
                DataLoader(dataset, batch_size=32)
                wds.WebLoader(pipeline, num_workers=4)
                """,
            # the same PyG DataLoader in a file that also imports torch's: counted once, as torch
            "mixed.py": """\
                import torch.utils.data
                from torch_geometric.loader import DataLoader
                DataLoader(dataset)
                """,
        },
    )
    assert census(root)[str(root)] == (3, 1, 2, 3)


def test_one_line_per_root_and_bad_arguments(tmp_path):
    one = write(tmp_path / "one", {"a.py": "from torch.utils.data import DataLoader\nDataLoader(x)\n"})
    two = write(tmp_path / "two", {"b.py": "x = 1\n", "c.py": "y = 2\n"})
    assert census(one, two) == {str(one): (1, 1, 0, 0), str(two): (2, 0, 0, 0)}
    missing = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "nope")], check=False, capture_output=True, text=True)
    assert missing.returncode == 2 and "not a folder" in missing.stderr
    assert subprocess.run([sys.executable, str(SCRIPT)], check=False, capture_output=True, text=True).returncode == 2
