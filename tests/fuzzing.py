"""Hypothesis strategies shared by the fuzz tests (tests/test_fuzz*.py) and the long run
(bench/fuzz.py): random Python (hypothesmith) mixed with DataLoader calls carrying random
arguments, and byte-level mutations of the fixtures."""

from __future__ import annotations

from pathlib import Path
from typing import List

import hypothesmith
from hypothesis import strategies as st

from dl_lint.analysis.loaders import PARAMETERS, POSITIONAL

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

HEADER = """\
import os
import torch
import torch.utils.data as tud
from functools import partial
from torch.utils import data
from torch.utils.data import DataLoader
from torch.utils.data import DataLoader as Loader
from torch.utils.data.dataloader import DataLoader as DataLoader2
from torchdata.stateful_dataloader import StatefulDataLoader


class MyLoader(DataLoader):
    pass


PartialLoader = partial(DataLoader, num_workers=2)
loader_cls = DataLoader if os.environ.get("X") else Loader
"""

CALLEES = (
    "DataLoader",
    "Loader",
    "DataLoader2",
    "tud.DataLoader",
    "data.DataLoader",
    "torch.utils.data.DataLoader",
    "StatefulDataLoader",
    "MyLoader",
    "PartialLoader",
    "loader_cls",
    "partial(DataLoader, prefetch_factor=2)",
)
NAMES = ("nw", "workers", "args.workers", "cfg.num_workers", "self.num_workers", "kwargs", "ds", "os.environ", "N")

# -- values ---------------------------------------------------------------------------------------

_INTS = st.one_of(
    st.integers(-3, 40),
    st.sampled_from([0, 1, 2, 4, 8, 16, 64, 2**31, 2**64, -(2**63), 10**20]),
    st.integers(),
)
_LITERALS = st.one_of(
    _INTS.map(repr),
    st.floats(allow_nan=True, allow_infinity=True).map(repr).map(lambda r: r if r[0].isdigit() or r[0] == "-" else f"float({r!r})"),
    st.sampled_from(["None", "True", "False", "...", "''", "'spawn'", "'fork'", "'cuda'", "b'x'", "0j", "1_000", "0x10", "0o7", "1e400"]),
    st.text(max_size=12).map(repr),
)


def _tuple(items: List[str]) -> str:
    return "()" if not items else f"({', '.join(items)},)"


def _compound(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Valid expressions over ``children`` (every compound in parentheses)."""
    return st.one_of(
        st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(children, st.sampled_from(["+", "-", "*", "//", "/", "%", "**", "<<", "|", "&", "@"]), children).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(children, st.sampled_from(["<", ">", "==", "!=", ">=", "is", "is not", "in", "and", "or"]), children).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(st.sampled_from(["not ", "-", "+", "~"]), children).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(
            st.sampled_from(["max", "min", "int", "float", "bool", "len", "sum", "abs", "round", "os.cpu_count", "f", "dict", "list"]),
            st.lists(children, max_size=3),
        ).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.lists(children, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(children, max_size=3).map(_tuple),
        st.lists(st.tuples(children, children), max_size=3).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
        children.map(lambda c: f"(lambda *a, **k: {c})"),
        children.map(lambda c: f"(w := {c})"),
        st.sampled_from(NAMES[:3] + ("1", "x + 1")).map(lambda c: f"f'{{{c}}}'"),
        children.map(lambda c: f"({c})[0]"),
        children.map(lambda c: f"({c}).attr"),
    )


VALUES: st.SearchStrategy[str] = st.recursive(
    st.one_of(_LITERALS, st.sampled_from(NAMES)), _compound, max_leaves=6
)


@st.composite
def loader_calls(draw, comment: bool = True) -> str:
    """``callee(positional..., keyword=value..., *args, **{...})`` with a random subset of
    torch's parameters (and some that are not)."""
    callee = draw(st.sampled_from(CALLEES))
    parts: List[str] = [draw(VALUES) for _ in range(draw(st.integers(0, len(POSITIONAL) + 1)))]
    keywords = draw(
        st.lists(st.sampled_from(PARAMETERS + ("bogus", "worker_init", "num_worker")), unique=True, max_size=8)
    )
    parts += [f"{name}={draw(VALUES)}" for name in keywords]
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(["*args", "*[]", "*()", "*ds"])))
    for _ in range(draw(st.integers(0, 2))):
        splat = draw(
            st.one_of(
                st.just("{}"),
                st.sampled_from(["kwargs", "dict(num_workers=0)", "get_kwargs()", "{**kwargs}", "cfg"]),
                st.lists(st.tuples(st.sampled_from(PARAMETERS + ("x",)), VALUES), max_size=3).map(
                    lambda kv: "{" + ", ".join(f"{k!r}: {v}" for k, v in kv) + "}"
                ),
            )
        )
        parts.append(f"**{splat}")
    # Positional after keyword is a syntax error: keep the order valid most of the time.
    if draw(st.integers(0, 29)) == 0:
        parts = draw(st.permutations(parts))
    if not comment:
        return f"{callee}({', '.join(parts)})"
    tail = draw(st.sampled_from(["", "  # noqa", "  # noqa: DL001", "  # dl-lint: batch-bytes=64MiB", "  # dl-lint: batch-bytes=garbage"]))
    return f"{callee}({', '.join(parts)}){tail}"


@st.composite
def assignments(draw) -> str:
    name = draw(st.sampled_from(["nw", "workers", "N", "kwargs", "ds"]))
    value = draw(VALUES)
    form = draw(st.integers(0, 5))
    if form == 0:
        return f"{name} = {value}\n"
    if form == 1:
        return f"if {draw(VALUES)}:\n    {name} = {value}\nelse:\n    {name} = {draw(VALUES)}\n"
    if form == 2:
        return f"kwargs = dict(num_workers={value}, prefetch_factor={draw(VALUES)})\n"
    if form == 3:
        return f"kwargs.update({{'pin_memory': {value}}})\n"
    if form == 4:
        return f"parser.add_argument('--workers', type=int, default={value})\nargs = parser.parse_args()\n"
    return f"for {name} in range(3):\n    pass\n"


@st.composite
def placed_calls(draw) -> str:
    """A loader call at module level, in a function (with parameters, called later), in a
    method (``self.x``), in a loop or under ``__main__``."""
    call = draw(loader_calls())
    where = draw(st.integers(0, 4))
    if where == 0:
        return f"loader = {call}\n"
    if where == 1:
        default = draw(VALUES)
        return (
            f"def make(ds, num_workers={default}, **kw):\n    return {call}\n\n"
            f"make(ds, {draw(VALUES)})\nmake(ds, num_workers={draw(VALUES)}, pin_memory={draw(VALUES)})\n"
        )
    if where == 2:
        return (
            f"class Trainer:\n    def __init__(self, num_workers={draw(VALUES)}):\n"
            f"        self.num_workers = num_workers\n\n    def loader(self):\n        return {call}\n"
        )
    if where == 3:
        return f"for epoch in range(3):\n    for batch in {draw(loader_calls(comment=False))}:\n        pass\n"
    return f"if __name__ == '__main__':\n    loader = {call}\n"


# Built once: building the strategy compiles Python's grammar (seconds).
RANDOM_PYTHON = hypothesmith.from_grammar()


@st.composite
def loader_programs(draw, with_random_python: bool = True) -> str:
    """HEADER, optionally a random valid program (hypothesmith), then assignments and loader
    calls."""
    parts = []
    if with_random_python and draw(st.booleans()):
        program = draw(RANDOM_PYTHON)
        parts.append(program if program.endswith("\n") else program + "\n")
    parts.append(HEADER)
    for _ in range(draw(st.integers(1, 4))):
        parts.append(draw(st.one_of(assignments(), placed_calls())))
    parts.append(draw(placed_calls()))
    return "".join(parts)


# -- byte-level mutations of the fixtures ----------------------------------------------------------


def fixture_corpus() -> List[bytes]:
    paths = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".py", ".ipynb") and p.is_file())
    return [p.read_bytes() for p in paths]


_SPECIAL = [b"(", b")", b"[", b"{", b"\x00", b"\r", b"\n", b"\r\n", b"\t", b"\x0c", b"\xff", b"\xef\xbb\xbf", b'"""',
            b"'", b"\\", b"#", b"# -*- coding: latin-1 -*-\n", b"# coding: bogus\n", b"DataLoader(", b"**", b"*", b",",
            b"=", b"lambda", b"not ", b"async ", b"await ", b":", b"    ", b"\xc3", b"\xe9", b"\xf0\x9f\x9a\x80", b"(" * 300]


@st.composite
def mutations(draw, corpus: List[bytes]) -> bytes:
    """A fixture (or two spliced) with 1-4 random edits: flip, insert, delete, truncate,
    duplicate."""
    data = bytearray(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "special", "delete", "truncate", "splice", "duplicate"]))
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            at = min(at, len(data) - 1)
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "special":
            data[at:at] = draw(st.sampled_from(_SPECIAL))
        elif kind == "delete":
            data[at : at + draw(st.integers(1, 64))] = b""
        elif kind == "truncate":
            del data[at:]
        elif kind == "splice":
            other = draw(st.sampled_from(corpus))
            data[at:] = other[draw(st.integers(0, len(other))) :]
        elif kind == "duplicate":
            end = min(len(data), at + draw(st.integers(1, 200)))
            data[end:end] = data[at:end]
    return bytes(data)
