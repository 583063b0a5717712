"""DL203's facts (``ModuleAnalysis._unguarded_iteration``): a loader held by a second name of
its scope (the cross-module runner is in test_partial_runs.py)."""

from __future__ import annotations

import textwrap

import pytest

from dl_lint.analysis.module import analyze_source

HEADER = "from torch.utils.data import DataLoader\n"


def iteration(body: str):
    (call,) = analyze_source(HEADER + textwrap.dedent(body), "script.py", "script").calls
    return call.unguarded_iteration


@pytest.mark.parametrize(
    "body, row",
    [
        ("loader = DataLoader(range(8), num_workers=2)\ndataset = loader\nfor batch in dataset:\n    pass\n", 4),
        ("loader = DataLoader(range(8), num_workers=2)\ndataset = loader\nbatches = iter(dataset)\n", 4),
        # the second name rebound to something else: which object the loop walks is not followed
        ("loader = DataLoader(range(8), num_workers=2)\ndataset = loader\ndataset = range(3)\nfor batch in dataset:\n    pass\n", None),
        # the loader's own name rebound: which object the second name got is not followed
        ("loader = DataLoader(range(8), num_workers=2)\nloader = range(3)\ndataset = loader\nfor batch in dataset:\n    pass\n", None),
        # bound before the loader exists: not its alias
        ("loader = None\ndataset = loader\nloader = DataLoader(range(8), num_workers=2)\nfor batch in dataset:\n    pass\n", None),
        (  # handed on under its second name (the row of the loop statement holding the call)
            "def train(data):\n    for batch in data:\n        pass\n"
            "loader = DataLoader(range(8), num_workers=2)\ndataset = loader\nfor epoch in range(2):\n    train(dataset)\n",
            8,
        ),
    ],
)
def test_a_second_name_of_the_loader_is_the_loader(body, row):
    assert iteration(body) == row
