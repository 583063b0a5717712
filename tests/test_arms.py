"""Names bound in several arms of one ``if`` or ``try`` statement (``scopes.alternatives``): each
arm's value is a possibility after the statement, and the name-following of the rules
(DL206's reads, DL306's loops) takes a loader bound in one arm as that name's loader outside
the other arms."""

from __future__ import annotations

import ast
import textwrap

import pytest

from dl_lint.analysis.module import analyze_source
from dl_lint.analysis.scopes import alternatives, collect


def _sites(source: str, name: str):
    index = collect(ast.parse(textwrap.dedent(source)))
    scope = next(iter(index.scopes.values())) if index.scopes else index.module_scope
    return [b.site for b in scope.bindings[name]]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("try:\n        x = 1\n    except E:\n        x = 2", True),
        ("try:\n        x = 1\n    except E:\n        pass\n    except F:\n        x = 2", True),
        ("try:\n        pass\n    except E:\n        x = 1\n    except F:\n        x = 2", True),
        ("try:\n        pass\n    except E:\n        x = 1\n    else:\n        x = 2", True),
        ("if c:\n        x = 1\n    else:\n        x = 2", True),
        ("if c:\n        x = 1\n    elif d:\n        x = 2", True),
        # one after the other on a path: not alternatives
        ("try:\n        x = 1\n    except E:\n        pass\n    else:\n        x = 2", False),
        ("try:\n        x = 1\n    finally:\n        x = 2", False),
        ("x = 1\n    try:\n        pass\n    except E:\n        x = 2", False),
        ("try:\n        x = 1\n    except E:\n        pass\n    try:\n        pass\n    except E:\n        x = 2", False),
        ("if c:\n        x = 1\n    if not c:\n        x = 2", False),
        ("if c:\n        x = 1\n        x = 2", False),
    ],
)
def test_alternative_arms(body, expected):
    first, second = _sites(f"def f(c, d):\n    {body}\n", "x")
    assert (alternatives(first, second) is not None) == expected
    assert (alternatives(second, first) is not None) == expected


def test_each_arm_of_a_try_is_a_possibility_after_it_and_finally_decides():
    def workers(body: str):
        source = "from torch.utils.data import DataLoader\n" f"def f(ds):\n    {body}\n    return DataLoader(ds, num_workers=nw)\n"
        value = analyze_source(source, "m.py", "m").calls[0].value("num_workers")
        return sorted(p.value for p in value.options or ())

    assert workers("try:\n        nw = 4\n    except OSError:\n        nw = 0") == [0, 4]
    assert workers("try:\n        nw = 4\n    except OSError:\n        nw = 0\n    finally:\n        nw = 2") == [2]
    # a binding in one ``try`` statement does not decide a use inside another one
    source = (
        "from torch.utils.data import DataLoader\n"
        "def f(ds):\n    nw = 0\n    try:\n        nw = 4\n    except OSError:\n        pass\n"
        "    try:\n        return DataLoader(ds, num_workers=nw)\n    except OSError:\n        pass\n"
    )
    value = analyze_source(source, "m.py", "m").calls[0].value("num_workers")
    assert sorted(p.value for p in value.options or ()) == [0, 4]


HEADER = "from torch.utils.data import DataLoader, DistributedSampler\n"


def _epochs(body: str):
    source = HEADER + textwrap.dedent(body)
    return [c.sampler_epochs for c in analyze_source(source, "train.py", "train").calls if c.sampler_epochs is not None]


def test_a_loader_bound_in_try_and_except_is_followed_outside_the_other_arm():
    found = _epochs(
        """
        def train(ds, epochs, engine):
            sampler = DistributedSampler(ds)
            try:
                loader = DataLoader(ds, sampler=sampler, num_workers=4)
            except OSError:
                loader = DataLoader(ds, sampler=sampler)
                engine.run(loader)
            for epoch in range(epochs):
                for batch in loader:
                    pass
        """
    )
    # the first loader: the handler's engine.run is the other loader's; the second escapes
    assert found[0].escape is None and found[0].set_epoch is None and found[0].epoch.epoch_row == 10
    assert found[1].escape is not None and "engine.run" in found[1].escape


def test_a_loader_name_rebound_after_the_statement_is_not_followed():
    (first, second) = _epochs(
        """
        def train(ds, epochs, wrap):
            sampler = DistributedSampler(ds)
            try:
                loader = DataLoader(ds, sampler=sampler, num_workers=4)
            except OSError:
                loader = DataLoader(ds, sampler=sampler)
            loader = wrap(loader)
            for epoch in range(epochs):
                for batch in loader:
                    pass
        """
    )
    assert first.escape == second.escape == "the loader is not bound to one name"


@pytest.mark.parametrize(
    "caller, reason",
    [
        ("loaders = make(ds)\n    loader, _, _ = loaders", None),
        ("loaders = make(ds)\n    loader = loaders[0]", None),
        ("loaders = make(ds)\n    loader = loaders[-3]", None),
        ("loaders = make(ds)\n    print(len(loaders))\n    val = loaders[1]\n    loader = loaders[0]", None),
        ("loaders = make(ds)\n    loader, _ = loaders", "not bound to one name"),
        ("loaders = make(ds)\n    loader = loaders[i]", "not bound to one name"),
        ("loaders = make(ds)\n    engine.run(*loaders)\n    loader = loaders[0]", "not bound to one name"),
        ("loaders = make(ds)\n    loader = loaders[0]\n    other = loaders[0]", "not bound to one name"),
        ("loaders = make(ds)\n    loaders = make(ds)\n    loader = loaders[0]", "not bound to one name"),
    ],
)
def test_a_returned_tuple_taken_apart_in_a_second_statement(caller, reason):
    found = _epochs(
        "def make(ds):\n"
        "    sampler = DistributedSampler(ds)\n"
        "    loader = DataLoader(ds, sampler=sampler)\n"
        "    return loader, ds, None\n"
        "\n"
        "def train(ds, engine, i):\n"
        f"    {caller}\n"
        "    for e in range(9):\n"
        "        for b in loader: pass\n"
    )
    (facts,) = found
    if reason is None:
        assert facts.escape is None and facts.set_epoch is None and facts.epoch is not None and facts.returned == "make"
    else:
        assert facts.escape is not None and reason in facts.escape, facts.escape


def test_nested_returned_tuples_carry_the_loader_and_its_sampler():
    (facts,) = _epochs(
        """
        def make(ds):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            return (loader, sampler), ds

        def train(ds):
            (loader, sampler), _ = make(ds)
            for e in range(9):
                sampler.set_epoch(e)
                for b in loader: pass
        """
    )
    assert facts.escape is None and facts.set_epoch == 11


def test_a_long_chain_of_aliases_of_a_returned_tuple_is_unknown_not_a_recursion_error():
    """``loaders = make(); a0 = loaders; a1 = a0; ...`` (3000 names): ``_bound_along`` followed
    each alias one frame deeper, a RecursionError that turned the whole file into a DL000."""
    chain = "\n".join(f"    a{i} = a{i - 1}" for i in range(1, 3000))
    (facts,) = _epochs(
        "def make(ds):\n"
        "    sampler = DistributedSampler(ds)\n"
        "    loader = DataLoader(ds, sampler=sampler)\n"
        "    return loader, sampler\n"
        "\n"
        "def train(ds):\n"
        "    loaders = make(ds)\n"
        "    a0 = loaders\n"
        f"{chain}\n"
        "    loader, _ = a2999\n"
        "    for e in range(9):\n"
        "        for b in loader: pass\n"
    )
    assert facts.escape is not None and "not bound to one name" in facts.escape


def test_a_short_chain_of_aliases_of_a_returned_tuple_is_followed():
    (facts,) = _epochs(
        "def make(ds):\n"
        "    sampler = DistributedSampler(ds)\n"
        "    loader = DataLoader(ds, sampler=sampler)\n"
        "    return loader, sampler\n"
        "\n"
        "def train(ds):\n"
        "    loaders = make(ds)\n"
        "    a0 = loaders\n"
        "    a1 = a0\n"
        "    loader, _ = a1\n"
        "    for e in range(9):\n"
        "        for b in loader: pass\n"
    )
    assert facts.escape is None and facts.set_epoch is None and facts.returned == "make"
