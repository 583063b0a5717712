"""A Trainer's run asks a LightningDataModule's hooks for its loaders: ``trainer.fit(model,
datamodule=dm)`` is judged as a call of ``dm.train_dataloader()`` with what the datamodule's
construction passes its ``__init__``, reported at the run, whichever files are named (issue 26).
The crash itself is run through real Lightning and torch by tests/test_oracle.py
(fixtures/rules/lightning_run_hooks.py)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

DATA = """\
import lightning.pytorch as pl
from torch.utils.data import DataLoader


class DM(pl.LightningDataModule):
    def __init__(self, dataset, batch_size, num_workers):
        super().__init__()
        self.dataset = dataset
        self.batch_size = batch_size
        self.num_workers = num_workers

    def train_dataloader(self):
        return DataLoader(self.dataset, batch_size=self.batch_size, num_workers=self.num_workers, persistent_workers=True)
"""

GUARDED = """\
import lightning.pytorch as pl
from data import DM


def main():
    dm = DM([1, 2, 3, 4], 2, {workers})
    trainer = pl.Trainer(max_epochs=1)
    trainer.fit(None, datamodule=dm)


if __name__ == "__main__":
    main()
"""

UNGUARDED = """\
import lightning.pytorch as pl
from data import DM

trainer = pl.Trainer(max_epochs=1)
trainer.{run}(None, datamodule=DM([1, 2, 3, 4], 2, 8))
"""


def _project(root: Path, script: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("")
    (root / "data.py").write_text(DATA)
    (root / "train.py").write_text(textwrap.dedent(script))
    return root


def _found(run_cli, root: Path, *named: str) -> list:
    done = run_cli("--no-cache", "--output-format", "json", *named, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout) if d["filename"] == "train.py")


@pytest.mark.parametrize("named", [["."], ["train.py"], ["data.py"]])
def test_a_datamodule_built_without_workers_crashes_at_the_run(tmp_path, run_cli, named):
    root = _project(tmp_path / "p", GUARDED.format(workers=0))
    assert _found(run_cli, root, *named) == [("train.py", 8, "DL002")]


def test_a_datamodule_built_with_workers_is_silent(tmp_path, run_cli):
    root = _project(tmp_path / "p", GUARDED.format(workers=2))
    assert _found(run_cli, root, ".") == []


def test_an_unguarded_fit_iterates_the_hook_loader_at_import(tmp_path, run_cli):
    root = _project(tmp_path / "p", UNGUARDED.format(run="fit"))
    assert _found(run_cli, root, ".") == [("train.py", 5, "DL203")]
    assert _found(run_cli, root, "data.py") == [("train.py", 5, "DL203")]


def test_a_run_that_does_not_ask_the_hook_is_silent(tmp_path, run_cli):
    # ``test`` asks for ``test_dataloader``, which DM does not define
    root = _project(tmp_path / "p", UNGUARDED.format(run="test"))
    assert _found(run_cli, root, ".") == []


POSITIONAL = """\
import lightning.pytorch as pl
from data import DM


def main():
    trainer = pl.Trainer(max_epochs=1)
    trainer.fit(None, DM([1, 2, 3, 4], 2, 0))


if __name__ == "__main__":
    main()
"""


def test_a_datamodule_in_the_first_loader_slot_is_the_datamodule(tmp_path, run_cli):
    # ``trainer.fit(model, dm)``: Lightning takes a LightningDataModule handed as
    # train_dataloaders for the datamodule (2.6.6 trainer.py), and asks its hook
    root = _project(tmp_path / "p", POSITIONAL)
    assert _found(run_cli, root, ".") == [("train.py", 7, "DL002")]


LITERAL = """\
import lightning.pytorch as pl
from torch.utils.data import DataLoader


class Data(pl.LightningDataModule):
    def train_dataloader(self):
        return DataLoader(list(range(8)), batch_size=2, num_workers=4)


class Model(pl.LightningModule):
    def training_step(self, batch, index):
        return None
"""

RUN = """\
import lightning.pytorch as pl
from literal import Data, Model

trainer = pl.Trainer(max_epochs=1)
trainer.fit(Model(), Data())
"""


def test_an_unguarded_fit_of_a_positional_datamodule_iterates_its_hook(tmp_path, run_cli):
    # the import-time flow (``import_flow``) takes the positional datamodule's hooks too
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "literal.py").write_text(LITERAL)
    (root / "run.py").write_text(RUN)
    done = run_cli("--no-cache", "--output-format", "json", ".", cwd=root)
    found = sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))
    assert found == [("literal.py", 7, "DL203")]


SUBCLASSES = """\
from data import DM


class Relayed(DM):
    def __init__(self, dataset, num_workers=2):
        super().__init__(dataset, 2, num_workers)
"""

SUBCLASS_ONLY = """\
import lightning.pytorch as pl
from subclasses import Relayed


def main():
    dm = Relayed([1, 2, 3, 4], num_workers={workers})
    trainer = pl.Trainer(max_epochs=1)
    trainer.fit(None, datamodule=dm)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("named", [["."], ["train.py"], ["subclasses.py"], ["data.py"]])
def test_a_caller_naming_only_a_relaying_subclass_is_judged(tmp_path, run_cli, named):
    # train.py names neither DM nor its hook: it is searched because it names a subclass of DM
    # (``pipeline._FactoryCalls.kin``), and Relayed.__init__ hands 0 workers on to DM.__init__
    # (``ModuleAnalysis._relayed_init``); a run naming only the subclass's module shows the
    # finding, which cites the relay's line
    root = _project(tmp_path / "p", SUBCLASS_ONLY.format(workers=0))
    (root / "subclasses.py").write_text(SUBCLASSES)
    assert _found(run_cli, root, *named) == [("train.py", 8, "DL002")]


def test_a_relaying_subclass_given_workers_is_silent(tmp_path, run_cli):
    root = _project(tmp_path / "p", SUBCLASS_ONLY.format(workers=2))
    (root / "subclasses.py").write_text(SUBCLASSES)
    assert _found(run_cli, root, ".") == []
