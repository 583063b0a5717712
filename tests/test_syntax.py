"""``syntax.code``, the whitespace-free key guards and aliases are matched by, computes simple
nodes (names, attributes, displays, calls) without ``ast.unparse``; it must give exactly what
the unparser gives, parentheses included, on every node of real source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dl_lint.analysis.syntax import code

ROOT = Path(__file__).resolve().parent.parent

TRICKY = [
    "(t - r).abs().max()",
    "(output_dir / 'log.txt').open('a')",
    "(1).real",
    "x[1, 2].y",
    "f(*args, **kwargs, k=v)(1)",
    "[(a := 1), lambda: 2, (x for x in y), a if b else c, *rest]",
    "(1,)",
    "()",
    "((1, 2), [3])",
    "f(x for x in y)",
    "obj.method(key='a b', other=\"c'd\")",
    "(a or b).c",
    "(-a).b(c)",
    "np.zeros((3, 4)).T",
    "a.b.c(d)[e].f",
]


def unparsed(node: ast.AST) -> str:
    return "".join(ast.unparse(node).split())


@pytest.mark.parametrize("text", TRICKY)
def test_code_matches_the_unparser_on_tricky_expressions(text):
    for node in ast.walk(ast.parse(text, mode="eval")):
        if isinstance(node, ast.expr):
            assert code(node) == unparsed(node), ast.dump(node)


def test_code_matches_the_unparser_on_every_node_of_real_source():
    """dl-lint's own source and the fixtures: thousands of calls, displays and attributes."""
    files = sorted((ROOT / "dl_lint").rglob("*.py")) + sorted((ROOT / "fixtures").rglob("*.py"))
    checked = 0
    for path in files:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue  # fixtures of broken files, of other encodings
        for node in ast.walk(tree):
            if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.List, ast.Tuple, ast.Constant)):
                assert code(node) == unparsed(node), f"{path}:{node.lineno}"
                checked += 1
    assert checked > 50_000
