"""Names reached through star imports (issue 25, the development split's remaining misses):
``from .models import *`` re-exports (pytorch_geometric's ``torch_geometric.nn``) and a star
import in the module that builds or calls the loader. One resolution (``Resolver.starred``)
serves every imported name: classes, factories, constants and library loader classes. A
starred module binds what its literal ``__all__`` lists, or its public names; anything else
(a non-literal ``__all__``, a library module's other names, a star import under ``try``)
leaves the name unknown, and the rules silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

WALKER = """\
import torch
from torch.utils.data import DataLoader


class Walker(torch.nn.Module):
    def loader(self, **kwargs):
        return DataLoader(range(10), collate_fn=self._sample, **kwargs)

    def _sample(self, batch):
        return batch
"""

CONSTS = """\
WORKERS = 0
_PRIVATE = 0
"""


def _lint(tmp_path: Path, files: dict, named=(".",)):
    root = tmp_path / "proj"
    base = {"pyproject.toml": "[tool.dl-lint]\n", "pkg/__init__.py": "", "pkg/models/walker.py": WALKER, "pkg/models/consts.py": CONSTS}
    for name, text in {**base, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return sorted((d.filename.replace("\\", "/").rsplit("proj/", 1)[-1], d.location.row, d.code) for d in lint_paths([root / n for n in named]).diagnostics)


REEXPORT = {
    "pkg/models/__init__.py": "from .walker import Walker\nfrom .consts import *\n__all__ = classes = ['Walker', 'WORKERS']\n",
    "pkg/nn.py": "from .models import *  # noqa\n",
}


def test_class_reached_through_star_reexport_is_a_method_factory(tmp_path):
    # pytorch_geometric's metapath2vec example: MetaPath2Vec comes through ``from .models import *``.
    script = "from pkg.nn import Walker\n\nmodel = Walker()\nloader = model.loader(batch_size=2, num_workers=2)\nfor batch in loader:\n    pass\n"
    assert _lint(tmp_path, {**REEXPORT, "train.py": script}) == [("train.py", 4, "DL203")]
    assert _lint(tmp_path / "one", {**REEXPORT, "train.py": script}, named=("train.py",)) == [("train.py", 4, "DL203")]


def test_constant_through_two_star_imports(tmp_path):
    script = "from torch.utils.data import DataLoader\nfrom pkg.nn import WORKERS\n\nDataLoader([1], num_workers=WORKERS, persistent_workers=True)\n"
    assert _lint(tmp_path, {**REEXPORT, "train.py": script}) == [("train.py", 4, "DL002")]


def test_star_import_in_the_calling_module(tmp_path):
    # ``from pkg.mod import *`` (absolute) in the script itself: the factory and the constant.
    factory = "from torch.utils.data import DataLoader\nWORKERS = 0\n\ndef make(ds, num_workers=2):\n    return DataLoader(ds, num_workers=num_workers, prefetch_factor=2)\n"
    script = "from pkg.factories import *\n\nmake([1], num_workers=WORKERS)\n"
    assert _lint(tmp_path, {"pkg/factories.py": factory, "train.py": script}) == [("pkg/factories.py", 5, "DL011"), ("train.py", 3, "DL001")]


def test_loader_subclass_through_star_import(tmp_path):
    loaders = "from torch.utils.data import DataLoader\n\nclass WorkerLoader(DataLoader):\n    def __init__(self, ds, workers=0, **kw):\n        super().__init__(ds, num_workers=workers, **kw)\n"
    script = "from pkg.loaders import *\n\nWorkerLoader([1], persistent_workers=True)\n"
    assert _lint(tmp_path, {"pkg/loaders.py": loaders, "train.py": script}) == [("train.py", 3, "DL002")]


def test_library_loader_through_star_import(tmp_path):
    script = "from pkg.models.consts import *\nfrom torch.utils.data import *\n\nDataLoader([1], num_workers=0, prefetch_factor=2)\n"
    assert _lint(tmp_path, {"train.py": script}) == [("train.py", 4, "DL001")]


@pytest.mark.parametrize(
    "models, script",
    [
        # ``__all__`` leaves the name out: ``import *`` does not bind it (a NameError, not 0).
        ("from .consts import *\n__all__ = ['Walker']\n", "from pkg.models import *\n"),
        # A non-literal ``__all__``: what it lists is unknown.
        ("from .consts import *\n__all__ = names + ['Walker']\n", "from pkg.models import *\n"),
        ("from .consts import *\n__all__ = ['WORKERS']\n__all__.append('Walker')\n", "from pkg.models import *\n"),
        # A star import under ``try``: it may not have run.
        ("", "try:\n    from pkg.models.consts import *\nexcept ImportError:\n    pass\n"),
        # A library module starred after the project's may bind the name too.
        ("", "from pkg.models.consts import *\nfrom torch import *\n"),
    ],
)
def test_unknown_or_unbound_star_names_stay_silent(tmp_path, models, script):
    call = "from torch.utils.data import DataLoader\n" + script + "\nDataLoader([1], num_workers=WORKERS, persistent_workers=True)\n"
    assert _lint(tmp_path, {"pkg/models/__init__.py": models, "train.py": call}) == []


def test_private_names_are_not_starred(tmp_path):
    call = "from torch.utils.data import DataLoader\nfrom pkg.models.consts import *\n\nDataLoader([1], num_workers=_PRIVATE, persistent_workers=True)\n"
    assert _lint(tmp_path, {"train.py": call}) == []
    public = call.replace("_PRIVATE", "WORKERS")
    assert _lint(tmp_path / "b", {"train.py": public}) == [("train.py", 4, "DL002")]


def test_bound_names_read_no_starred_module(tmp_path):
    """A module whose names are all bound does not read its starred modules."""
    from dl_lint.analysis.project import Project

    root = tmp_path / "proj"
    for name, text in {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/heavy.py": "X = 1\n",
        "pkg/light.py": "WORKERS = 0\n",
        "train.py": "from torch.utils.data import DataLoader\nfrom pkg.heavy import *\nfrom pkg.light import WORKERS\n\nDataLoader([1], num_workers=WORKERS, persistent_workers=True)\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name and text)
    project = Project(root)
    analysis = project.parse(str(root / "train.py"), "train", (root / "train.py").read_text())
    assert [c.args["num_workers"].value.single.value for c in analysis.facts().calls] == [0]
    read = {Path(p).name for p in project.parses} | {Path(k).name for k in project._summaries}
    assert "heavy.py" not in read and "light.py" in read


SHARDING_HELPER = """\
from torch.utils.data import get_worker_info


def my_part(items):
    info = get_worker_info()
    if info is None:
        return items
    return items[info.id :: info.num_workers]
"""

STREAM = """\
from torch.utils.data import IterableDataset
from .helpers import *


class Stream(IterableDataset):
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(BODY)
"""


@pytest.mark.parametrize("body, expected", [("my_part(self.items)", []), ("list(self.items)", [("train.py", 5, "DL201")])])
def test_calls_followed_into_a_starred_helper(tmp_path, body, expected):
    # DL201 follows ``__iter__``'s calls: a helper bound by the star import shards (it was taken
    # for a builtin before, and the dataset reported as not sharding).
    script = "from torch.utils.data import DataLoader\nfrom pkg.data import Stream\n\nif __name__ == '__main__':\n    for b in DataLoader(Stream(list(range(10))), num_workers=2):\n        pass\n"
    files = {"pkg/helpers.py": SHARDING_HELPER, "pkg/data.py": STREAM.replace("BODY", body), "train.py": script}
    assert _lint(tmp_path, files) == expected
