"""``from pkg import Trainer`` takes what ``pkg/__init__.py`` binds to ``Trainer`` before the
submodule ``pkg/Trainer.py`` (Python looks the attribute up on the package first): a class
re-exported by the package (``from .Trainer import Trainer``, ``from .Trainer import *``) is
the class, and what its methods do with a loader counts (Coverage-centric-coreset-selection's
``from core.training import Trainer``, held-out set 38's COV-1..5). A package that binds the
module itself, or nothing, leaves the name the module, as before."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

TRAINER = """\
class Trainer(object):
    def train(self, epoch, dataloader):
        for inputs, targets in dataloader:
            inputs = inputs.cuda(non_blocking=True)
"""

SCRIPT = """\
from torch.utils.data import DataLoader
from core.training import Trainer

loader = DataLoader(list(range(64)), batch_size=8, num_workers=4)
trainer = Trainer()
for epoch in range(3):
    trainer.train(epoch, loader)
"""


def _found(tmp_path: Path, init: str, script: str = SCRIPT):
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "core" / "training"
    package.mkdir(parents=True)
    (tmp_path / "core" / "__init__.py").write_text("")
    (package / "__init__.py").write_text(init)
    (package / "Trainer.py").write_text(TRAINER)
    (tmp_path / "train.py").write_text(textwrap.dedent(script))
    result = lint_paths([str(tmp_path)])
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)


@pytest.mark.parametrize(
    "init",
    ["from .Trainer import Trainer\n", "from .Trainer import *\n", "from core.training.Trainer import Trainer\n"],
    ids=["explicit", "star", "absolute"],
)
def test_a_class_the_package_binds_is_the_class(tmp_path, init):
    # iterated by the method at import (DL203), and its batches copied non-blocking (DL306)
    assert _found(tmp_path, init) == [("train.py", 4, "DL203"), ("train.py", 4, "DL306")]


@pytest.mark.parametrize("init", ["", "from . import Trainer\n", "import os\n"], ids=["empty", "the module", "other names"])
def test_a_package_that_does_not_bind_the_class_leaves_the_module(tmp_path, init):
    # ``Trainer()`` calls a module: nothing is known of what it does with the loader
    assert _found(tmp_path, init) == []


def test_the_class_imported_from_its_own_module_is_found_as_before(tmp_path):
    script = SCRIPT.replace("from core.training import Trainer", "from core.training.Trainer import Trainer")
    assert _found(tmp_path, "from .Trainer import *\n", script) == [("train.py", 4, "DL203"), ("train.py", 4, "DL306")]
