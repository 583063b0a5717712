"""The loop facts DL206 and DL302 read (dl_lint.analysis.loops): which loops run an expression
again, its except handlers, loop counts, and step loops versus epoch loops."""

from __future__ import annotations

import ast

from dl_lint.analysis.loops import has_inner_loop, loop_count, loops_around
from dl_lint.analysis.values import External, Value

SOURCE = """
def train(model, loader, steps):
    for epoch in range(3):
        for step in range(steps):
            try:
                batch = next(iter(loader))
            except StopIteration:
                batch = next(iter(loader))
        preview = [next(iter(loader)) for _ in range(4)]
    while True:
        x = next(iter(loader))
        for p in model.parameters():
            pass
    def later():
        return next(iter(loader))
"""


def _tree():
    tree = ast.parse(SOURCE)
    function = tree.body[0]
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "next"]
    return function, sorted(calls, key=lambda n: (n.lineno, n.col_offset))


def _resolve(node):
    if isinstance(node, ast.Name) and node.id == "range":
        return Value.known(External("builtins.range"))
    if isinstance(node, ast.Constant):
        return Value.known(node.value)
    return Value.unknown("parameter")


def test_loops_around_an_expression_outermost_first_and_except_handlers():
    function, (in_try, in_handler, in_comprehension, in_while, in_nested_def) = _tree()
    loops, handler = loops_around(function, in_try)
    assert [type(loop).__name__ for loop in loops] == ["For", "For"] and not handler
    assert loops_around(function, in_handler)[1] is True
    loops, _ = loops_around(function, in_comprehension)
    assert [type(loop).__name__ for loop in loops] == ["For", "ListComp"]
    assert [type(loop).__name__ for loop in loops_around(function, in_while)[0]] == ["While"]
    assert loops_around(function, in_nested_def) is None  # a nested def runs when called


def test_loop_counts_are_known_only_for_literal_ranges_and_literals():
    function, calls = _tree()
    epoch, step = loops_around(function, calls[0])[0]
    assert loop_count(epoch, _resolve) == 3
    assert loop_count(step, _resolve) is None  # range(steps): a parameter
    assert loop_count(loops_around(function, calls[2])[0][1], _resolve) == 4
    assert loop_count(loops_around(function, calls[3])[0][0], _resolve) is None  # while
    shadowed = ast.parse("for i in range(5):\n    pass\n").body[0]
    assert loop_count(shadowed, lambda node: Value.unknown("expression")) is None  # range not builtins.range


def test_step_loops_hold_no_loop_over_data():
    function, calls = _tree()
    epoch, step = loops_around(function, calls[0])[0]
    assert has_inner_loop(epoch) and not has_inner_loop(step)
    (forever,) = loops_around(function, calls[3])[0]
    assert not has_inner_loop(forever)  # a loop over model.parameters() is bookkeeping
