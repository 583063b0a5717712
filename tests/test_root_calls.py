"""A loader a method builds and iterates, reached from a script's unguarded top level (DL203):
it is judged at the script's calls of that method when the script calls it itself, and where it
is built otherwise. "Calls it itself" is decided by resolving the call, not by its name:
``strategy.train()`` of a class that delegates to ``Net.train`` once silenced the finding,
because the script called *something* named ``train``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from dl_lint import lint_paths

NETS = textwrap.dedent(
    """\
    from torch.utils.data import DataLoader


    class Net:
        def train(self, data):
            loader = DataLoader(data, num_workers=1)
            for x in loader:
                pass
    """
)
STRATEGY = textwrap.dedent(
    """\
    class Strategy:
        def __init__(self, dataset, net):
            self.dataset = dataset
            self.net = net

        def train(self):
            self.net.train(self.dataset)
    """
)
DELEGATING = "from nets import Net\nfrom strategy import Strategy\n\nstrategy = Strategy([1, 2, 3], Net())\nstrategy.train()\n"
DIRECT = "from nets import Net\n\nnet = Net()\nnet.train([1, 2])\n"


def _lint(tmp_path: Path, scripts):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nets.py").write_text(NETS)
    (tmp_path / "strategy.py").write_text(STRATEGY)
    for name, text in scripts.items():
        (tmp_path / name).write_text(text)
    return lint_paths([tmp_path]).diagnostics


def test_a_delegating_method_of_the_same_name_does_not_hide_the_loader(tmp_path):
    found = [d for d in _lint(tmp_path, {"demo.py": DELEGATING}) if d.code == "DL203"]
    assert [(Path(d.filename).name, d.location.row) for d in found] == [("nets.py", 6)]
    assert ("demo.py", 5) in [(Path(r.path).name, r.row) for r in found[0].related]


def test_a_script_calling_the_method_itself_is_judged_at_its_call(tmp_path):
    found = [d for d in _lint(tmp_path, {"demo.py": DELEGATING, "direct.py": DIRECT}) if d.code == "DL203"]
    assert [(Path(d.filename).name, d.location.row) for d in found] == [("direct.py", 4)]
