"""DL203 through the interpretation of a script's top-level code (``analysis/import_flow.py``):
what a partial run reports, what the budgets do, and what the interpretation reads."""

from __future__ import annotations

import shutil
from pathlib import Path

from dl_lint import lint_paths
from dl_lint.analysis import import_flow

from conftest import FIXTURES

FLOW = FIXTURES / "rules" / "dl203_import_flow"
FOUND = [("experiments.py", 15), ("experiments.py", 16)]


def _dl203(paths) -> list:
    return sorted((Path(d.filename).name, d.location.row) for d in lint_paths(paths).diagnostics if d.code == "DL203")


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FLOW, root)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    return root


def test_the_finding_cites_the_script_and_the_loop(tmp_path):
    root = _project(tmp_path)
    found = [d for d in lint_paths([root]).diagnostics if d.code == "DL203"]
    assert sorted((Path(d.filename).name, d.location.row) for d in found) == FOUND
    for diag in found:
        cited = sorted((Path(r.path).name, r.row) for r in diag.related)
        assert ("run_benchmark.py", 8) in cited  # experiment.run(), outside any guard
        assert ("trainer.py", 3) in cited or ("trainer.py", 6) in cited  # the loops over the loaders
        assert "a script importing this module" in diag.detail


def test_a_run_naming_the_script_or_the_loop_reports_the_loaders(tmp_path):
    """Issue 26: the script and the function that loops are part of the findings' evidence, so a
    commit touching only one of them is told what it causes in experiments.py."""
    root = _project(tmp_path)
    assert _dl203([root / "run_benchmark.py"]) == FOUND
    assert _dl203([root / "lab" / "trainer.py"]) == FOUND
    assert _dl203([root / "lab" / "experiments.py"]) == FOUND
    assert _dl203([root / "guarded_run.py"]) == []  # not part of their evidence


def test_guarding_the_script_removes_them(tmp_path):
    root = _project(tmp_path)
    script = root / "run_benchmark.py"
    text = script.read_text()
    body = text[text.index("experiment = ") :]
    script.write_text(text[: text.index("experiment = ")] + 'if __name__ == "__main__":\n' + "".join(f"    {line}\n" for line in body.splitlines()))
    assert _dl203([root]) == []


def test_past_its_budget_the_interpretation_says_nothing(tmp_path, monkeypatch):
    root = _project(tmp_path)
    monkeypatch.setattr(import_flow, "MAX_FUNCTIONS", 2)
    assert _dl203([root]) == []
    monkeypatch.setattr(import_flow, "MAX_FUNCTIONS", 400)
    monkeypatch.setattr(import_flow, "MAX_PASSES", 1)  # no fixed point in one pass: unknown
    assert _dl203([root]) == []


def test_a_loader_rebound_to_an_unknown_call_of_itself_is_not_followed(tmp_path):
    root = _project(tmp_path)
    experiments = root / "lab" / "experiments.py"
    experiments.write_text(experiments.read_text().replace("        return train, val, quiet, measured", "        train = wrap(train)\n        return train, val, quiet, measured").replace("TRAIN = ", "wrap = print\nTRAIN = "))
    assert _dl203([root]) == [("experiments.py", 17)]  # val only (a line lower)


def test_a_script_or_a_test_module_is_not_searched_upward(tmp_path):
    """Scripts (a main guard of their own) and test modules are run, not imported: the import
    graph is not read for their loaders, only their own top level."""
    root = _project(tmp_path)
    experiments = root / "lab" / "experiments.py"
    experiments.write_text(experiments.read_text() + '\n\nif __name__ == "__main__":\n    Experiment(1).run()\n')
    assert _dl203([root]) == []  # run_benchmark.py imports it, but a script is not followed upward
    test = root / "lab" / "test_experiments.py"  # the same module without the guard, as a test module
    test.write_text(experiments.read_text().split('\n\nif __name__')[0])
    experiments.unlink()
    script = root / "run_benchmark.py"
    script.write_text(script.read_text().replace("lab.experiments", "lab.test_experiments"))
    assert _dl203([root]) == []
    test.rename(experiments)  # the control: as a library module it is followed
    script.write_text(script.read_text().replace("lab.test_experiments", "lab.experiments"))
    assert _dl203([root]) == FOUND


def test_a_finding_is_dropped_only_for_a_citation_of_its_own_place(tmp_path):
    # Another DL203 citing the same row and column of another file does not hide the one the
    # interpretation made: the place is a file's.
    from dl_lint.judge import drop_covered_flows
    from dl_lint.model import Diagnostic, Location, Related, Severity
    from dl_lint.rules.dl203_missing_main_guard import REACHED_FROM

    def dl203(path, related):
        at = Location(10, 5)
        return Diagnostic("DL203", "missing-main-guard", Severity.WARNING, "m", str(path), at, at, related=related)

    reached = dl203(tmp_path / "lib.py", (Related(str(tmp_path / "run.py"), 3, 1, REACHED_FROM),))
    elsewhere = dl203(tmp_path / "run.py", (Related(str(tmp_path / "other.py"), 10, 5, "the DataLoader make() builds"),))
    assert drop_covered_flows([reached, elsewhere]) == [reached, elsewhere]
    covering = dl203(tmp_path / "run.py", (Related(str(tmp_path / "lib.py"), 10, 5, "the DataLoader make() builds"),))
    assert drop_covered_flows([reached, covering]) == [covering]


LISTED = FIXTURES / "spawn" / "_factories" / "listed.py"


def _listed_project(tmp_path: Path, script: str) -> Path:
    root = tmp_path / "listed"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    shutil.copy(LISTED, root / "pkg" / "listed.py")
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "train.py").write_text("from pkg import listed\n\n" + script)
    return root


def test_lists_of_loaders_zipped_at_the_top_level(tmp_path):
    """A factory's loaders appended to the lists it returns, zipped and handed on by the
    script's top-level code: reported at the factory's call (the fixtures under fixtures/spawn
    run it under forkserver)."""
    root = _listed_project(tmp_path, "size, trains, tests = listed.prepare(16)\nfor a, b in zip(trains, tests):\n    listed.train(a)\n")
    assert _dl203([root]) == [("train.py", 3)]
    # the test loaders only: extend()ed into their list, never iterated
    root = _listed_project(tmp_path / "b", "size, trains, tests = listed.prepare(16)\nfor a, b in zip(trains, tests):\n    print(a, b)\n")
    assert _dl203([root]) == []


def test_a_factory_called_twice_at_the_top_level_is_not_told_apart(tmp_path):
    """The interpretation has one environment per function: with two calls of the factory at the
    top level, which one's loaders are iterated is not known, so neither call is reported."""
    once = "size, trains, tests = listed.prepare(16)\nfor a in trains:\n    listed.train(a)\n"
    assert _dl203([_listed_project(tmp_path, once)]) == [("train.py", 3)]
    twice = once + "other = listed.prepare(8)\nprint(len(other))\n"
    assert _dl203([_listed_project(tmp_path / "twice", twice)]) == []


CLI_DM = (
    "import lightning.pytorch as pl\nfrom torch.utils.data import DataLoader\n\n\n"
    "class DM(pl.LightningDataModule):\n    def __init__(self, num_workers: int = 2):\n        super().__init__()\n"
    "        self.num_workers = num_workers\n\n    def train_dataloader(self):\n"
    "        return DataLoader(range(8), num_workers=self.num_workers)\n\n    def test_dataloader(self):\n"
    "        return DataLoader(range(8), num_workers=2)\n"
)


def test_a_lightning_cli_at_module_level_fits_the_datamodule(tmp_path):
    """``LightningCLI(None, DM)`` unguarded runs ``fit``: the train loader (not the test one) is
    iterated at import. With ``parser_kwargs`` (``default_config_files``) the init args come
    from files and the class's defaults may be no run's values: nothing is claimed."""
    root = tmp_path / "cli"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "dm.py").write_text(CLI_DM)
    (root / "main.py").write_text("from lightning.pytorch.cli import LightningCLI\nfrom dm import DM\n\nLightningCLI(None, DM)\n")
    assert _dl203([root]) == [("dm.py", 11)]
    (root / "main.py").write_text(
        "from lightning.pytorch.cli import LightningCLI\nfrom dm import DM\n\n"
        'LightningCLI(None, DM, parser_kwargs={"default_config_files": ["defaults.yaml"]})\n'
    )
    assert _dl203([root]) == []
    (root / "main.py").write_text("from lightning.pytorch.cli import LightningCLI\nfrom dm import DM\n\nLightningCLI(None, DM, run=False)\n")
    assert _dl203([root]) == []
