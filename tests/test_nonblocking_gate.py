"""``Project.writes_non_blocking``: DL306 follows a returned loader into its callers' loops only
when some project file writes ``non_blocking=True`` (the only copy the rule counts), a bytes
search made once per run, so a project without one never loads the modules of the objects the
callers hand their batches to."""
from __future__ import annotations

import pytest

from dl_lint.analysis.project import Project


@pytest.mark.parametrize(
    "text, expected",
    [
        ("def to_gpu(x):\n    return x.cuda(non_blocking=True)\n", True),
        ("def to_gpu(x):\n    return x.cuda(non_blocking = (\n        # overlap\n        True))\n", True),
        ("def to_gpu(x, flag):\n    return x.cuda(non_blocking=flag)\n", False),
        ("class A:\n    def non_blocking(self):\n        return self.config.non_blocking\n", False),
        ("def to_gpu(x):\n    return x.cuda(non_blocking=Truthy)\n", False),
    ],
)
def test_writes_non_blocking(tmp_path, text, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text("from utils import to_gpu\n")
    (tmp_path / "utils.py").write_text(text)
    project = Project(tmp_path)
    assert project.writes_non_blocking() is expected


# The copy is looked for only where DL306 could use it: not for a loader whose pin_memory has no
# False value (``module._always_pins``); still for one that may not pin.
_LOOP = """
import torch
from torch.utils.data import DataLoader

def train(ds, flag):
    loader = DataLoader(ds, batch_size=8, PIN)
    for x in loader:
        x = x.cuda(non_blocking=True)
"""


@pytest.mark.parametrize(
    "pin, looked_for",
    [
        ("pin_memory=True", False),
        ("pin_memory=torch.cuda.is_available()", True),  # not read here: unknown, looked for
        ("pin_memory=False", True),
        ("num_workers=0", True),  # not given: False
        ("pin_memory=flag", True),  # a parameter: the caller's value decides
        ("pin_memory=True if flag else False", True),
        ("**flag", True),
    ],
)
def test_the_copy_is_looked_for_only_where_pin_memory_may_be_false(pin, looked_for):
    from dl_lint.analysis.module import analyze_source

    facts = analyze_source(_LOOP.replace("PIN", pin), "/p/train.py", "train")
    (call,) = facts.calls
    assert (call.nonblocking_copy is not None) is looked_for
