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


LOADER = "loader = DataLoader(range(8), num_workers=2)\n"


@pytest.mark.parametrize(
    "body, row",
    [
        # calls that take the iterator when they are called (CPython): the iteration is that line
        (LOADER + "numbered = enumerate(loader)\n", 3),
        (LOADER + "other = [1, 2]\npairs = zip(other, loader)\n", 4),
        (LOADER + "first = next(iter(loader))\n", 3),
        ("import itertools\n" + LOADER + "head = itertools.islice(loader, 2)\n", 4),
        ("from itertools import cycle\n" + LOADER + "endless = cycle(loader)\n", 4),
        ("import itertools as it\n" + LOADER + "both = it.zip_longest([1], loader)\n", 4),
        (LOADER + "sizes = map(len, loader)\n", 3),
        (LOADER + "kept = filter(None, loader)\n", 3),
        (LOADER + "everything = sorted(loader, key=len)\n", 3),
        (LOADER + "numbered = enumerate(loader if True else [])\n", 3),
        ("numbered = enumerate(DataLoader(range(8), num_workers=2))\n", 2),
        # comprehensions: the first iterable is iterated where they are written
        (LOADER + "batches = [b for b in loader]\n", 3),
        (LOADER + "lazy = (b for b in loader)\n", 3),
        (LOADER + "from tqdm import tqdm\nbatches = [b for b in tqdm(loader)]\n", 4),
        # in a function that module-level code calls
        (LOADER + "def peek():\n    return list(zip(loader, loader))\npeek()\n", 5),
        ("def first(data):\n    return next(enumerate(data))\n" + LOADER + "first(loader)\n", 5),
        ("def build():\n    loader = DataLoader(range(8), num_workers=2)\n    return enumerate(loader)\nnumbered = build()\n", 5),
        # not iterating: the function position, a shadowed builtin, two-argument forms
        (LOADER + "out = map(loader, [1])\n", None),
        ("def zip(*items):\n    return items\n" + LOADER + "pairs = zip(loader)\n", None),
        (LOADER + "smaller = min(loader, [])\n", None),
        # lazy: itertools.chain and tqdm call iter() only when they are iterated themselves
        ("import itertools\n" + LOADER + "later = itertools.chain(loader, [])\n", None),
        ("from tqdm import tqdm\n" + LOADER + "bar = tqdm(loader)\nnumbered = enumerate(bar)\n", None),
        ("from tqdm import tqdm\n" + LOADER + "numbered = enumerate(tqdm(loader))\n", None),
        ("from tqdm import tqdm\n" + LOADER + "bar = tqdm(loader)\nlazy = (b for b in bar)\n", None),
        ("from tqdm import tqdm\n" + LOADER + "bar = tqdm(loader)\nbatches = [b for b in bar]\n", 5),
        # evaluated only on some runs of the statement: a branch of a conditional expression, a
        # later operand of and/or, the per-item part of a comprehension
        (LOADER + "flag = len(range(3)) > 2\nnumbered = enumerate(loader) if flag else []\n", None),
        (LOADER + "flag = len(range(3)) > 2\nbatches = [b for b in loader] if flag else []\n", None),
        (LOADER + "flag = len(range(3)) > 2\nfirst = flag and sorted(loader)\n", None),
        (LOADER + "many = [enumerate(loader) for _ in range(2)]\n", None),
        (LOADER + "pairs = [(i, b) for i, b in enumerate(loader) if i < 3]\n", 3),
        # under the main guard, or in a function nothing calls at import
        (LOADER + "if __name__ == '__main__':\n    numbered = enumerate(loader)\n", None),
        (LOADER + "peek = lambda: enumerate(loader)\n", None),
        (LOADER + "def peek():\n    return enumerate(loader)\n", None),
    ],
)
def test_a_call_that_takes_the_iterator_at_once_iterates_the_loader(body, row):
    assert iteration(body) == row


def several(body: str):
    calls = analyze_source(HEADER + textwrap.dedent(body), "script.py", "script").calls
    return [call.unguarded_iteration for call in calls]


def test_a_list_of_enumerates_zipped_at_module_level():
    """The held-out shape: loaders built in a module-level loop over checkpoints, enumerate of
    each kept in a list, then ``zip(*list)``: enumerate already starts each loader's workers."""
    setup = (
        "import argparse\nparser = argparse.ArgumentParser()\n"
        'parser.add_argument("--workers", type=int, default=8)\nargs = parser.parse_args()\n'
    )
    script = (
        "data_iter_list = []\n"
        'for checkpoint in ["a.pt", "b.pt"]:\n'
        "    data_loader = DataLoader(range(8), num_workers=args.workers)\n"
        "    data_gen = enumerate(data_loader)\n"
        "    data_iter_list.append(data_gen)\n"
        "for i, pairs in enumerate(zip(*data_iter_list)):\n"
        "    pass\n"
    )
    assert several(setup + script) == [9]
    guarded = "if __name__ == '__main__':\n" + textwrap.indent(script, "    ")
    assert several(setup + guarded) == [None]


BARS = "from tqdm import tqdm\nbars = []\nfor k in range(2):\n    one = DataLoader(range(8), num_workers=2)\n"


@pytest.mark.parametrize(
    "body, rows",
    [
        # the loaders themselves in the list: zip(*loaders) calls iter() on each
        ("a = DataLoader(range(8), num_workers=2)\nb = DataLoader(range(8), num_workers=2)\nboth = [a, b]\npairs = zip(*both)\n", [5, 5]),
        ("loaders = []\nfor k in range(2):\n    one = DataLoader(range(8), num_workers=2)\n    loaders.append(one)\npairs = zip(*loaders)\n", [6]),
        # progress bars in the list: lazy, so the zip must be walked (the loop's row)
        (BARS + "    bars.append(tqdm(one))\nfor pairs in zip(*bars):\n    pass\n", [7]),
        (BARS + "    bars.append(tqdm(one))\npairs = zip(*bars)\n", [None]),
        (BARS + "    bar = tqdm(one)\n    bars.append(bar)\nfor pairs in zip(*bars):\n    pass\n", [8]),
        # a list never unpacked into such a call, a lazy one, a list bound twice, under the guard
        ("a = DataLoader(range(8), num_workers=2)\nboth = [a]\nfor item in both:\n    pass\n", [None]),
        ("import itertools\na = DataLoader(range(8), num_workers=2)\nboth = [a]\nlater = itertools.chain(*both)\n", [None]),
        ("a = DataLoader(range(8), num_workers=2)\nboth = [a]\nboth = []\npairs = zip(*both)\n", [None]),
        ("a = DataLoader(range(8), num_workers=2)\nboth = [a]\nif __name__ == '__main__':\n    pairs = zip(*both)\n", [None]),
    ],
)
def test_a_list_holding_the_loader_unpacked_into_zip(body, rows):
    assert several(body) == rows
