"""A method factory's calls are found in a file that names its class, whatever the file imports:
DivideMix's scripts do ``import dataloader_clothing1M as dataloader`` (a plain import, no star
import) and call ``dataloader.clothing_dataloader(...).run(mode)``. The file search once dropped
such a file because a plain import reached only the packages of plain factories."""

from __future__ import annotations

import textwrap
from pathlib import Path

from dl_lint import lint_paths

FACTORY = textwrap.dedent(
    """\
    from torch.utils.data import DataLoader


    class Maker:
        def __init__(self, workers):
            self.workers = workers

        def run(self, mode, prefetch=2):
            if mode == "train":
                return DataLoader(list(range(8)), num_workers=self.workers, prefetch_factor=prefetch)
            return DataLoader(list(range(8)), num_workers=self.workers)
    """
)


def _lint(tmp_path: Path, workers: int):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "data_mod.py").write_text(FACTORY)
    (tmp_path / "train.py").write_text(
        f"import data_mod as dataloader\n\nloader = dataloader.Maker(workers={workers})\ntrain_loader = loader.run('train')\n"
    )
    return [(Path(d.filename).name, d.code, d.location.row) for d in lint_paths([tmp_path]).diagnostics]


def test_a_plainly_imported_method_factory_is_judged_at_its_call(tmp_path):
    assert ("train.py", "DL001", 4) in _lint(tmp_path, 0)


def test_with_workers_the_call_is_clean(tmp_path):
    assert not [d for d in _lint(tmp_path, 2) if d[0] == "train.py"]
