"""Issue 25 §3: namespaces handed through helpers and dicts of factories (focused unit tests;
the behaviour end to end is in fixtures/rules/dl202_dispatch_dict and fixtures/spawn)."""

from __future__ import annotations

import ast

import pytest

from dl_lint.analysis.namespaces import passed_edits, returned_parameter


def _function(source: str) -> ast.FunctionDef:
    return ast.parse(source).body[0]


@pytest.mark.parametrize(
    "source,position",
    [
        ("def f(args):\n    args.x = 1\n    return args\n", 0),
        ("def f(logger, args):\n    if logger:\n        return args\n    return args\n", 1),
        ("def f(args):\n    args = copy(args)\n    return args\n", None),  # rebound: not the one given
        ("def f(args):\n    if args.x:\n        return None\n    return args\n", None),  # another return
        ("def f(args, other):\n    if other:\n        return other\n    return args\n", None),
        ("def f(args):\n    print(args)\n", None),  # no return
        ("def f(*, args):\n    return args\n", None),  # keyword-only: not bound by position
    ],
)
def test_a_function_that_hands_its_parameter_back(source, position):
    assert returned_parameter(_function(source)) == position


def test_reading_the_namespace_dict_edits_nothing_but_what_is_set():
    """CLIP4Clip's set_seed_logger logs every attribute through ``args.__dict__`` and sets two."""
    source = (
        "def f(args):\n"
        "    args.world_size = 2\n"
        "    args.rank = 0\n"
        "    for key in sorted(args.__dict__):\n"
        "        log(key, args.__dict__[key])\n"
        "    return args\n"
    )
    assert passed_edits(_function(source)) == ("rank", "world_size")


@pytest.mark.parametrize(
    "line",
    ["args.__dict__['workers'] = 0", "args.__dict__.update(extra)", "d = args.__dict__", "setattr(args, k, v)", "vars(args)"],
)
def test_a_write_through_the_namespace_dict_may_set_anything(line):
    assert passed_edits(_function(f"def f(args):\n    {line}\n    return args\n")) == ("*",)
