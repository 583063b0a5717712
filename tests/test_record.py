"""``dl_lint.record.Record``: what ``@dataclass(frozen=True)`` gave the data classes, without
importing ``dataclasses``: equality and hashing over the compared fields, repr, ``replace``,
``as_dict`` and pickling."""

from __future__ import annotations

import pickle
from typing import Optional, Tuple

import pytest

from dl_lint.record import Record, as_dict


class Point(Record):
    __slots__ = ("x", "y", "label")
    _uncompared = frozenset({"label"})

    def __init__(self, x: int, y: int = 0, label: str = "") -> None:
        self.x = x
        self.y = y
        self.label = label


class Shape(Record):
    __slots__ = ("points", "meta", "parent")

    def __init__(self, points: Tuple[Point, ...], meta: Optional[dict] = None, parent: Optional[Shape] = None) -> None:
        self.points = points
        self.meta = {} if meta is None else meta
        self.parent = parent


class Named(Record):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Mutable(Record):
    __slots__ = ("items",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, items: Optional[list] = None) -> None:
        self.items = [] if items is None else items


def test_fields_in_slots_order_and_compared_fields():
    assert Point._fields == ("x", "y", "label")
    assert Point._compared == ("x", "y")
    assert Named._fields == Named._compared == ("name",)


def test_equality_and_hash_ignore_uncompared_fields():
    assert Point(1, 2, "a") == Point(1, 2, "b")
    assert hash(Point(1, 2, "a")) == hash(Point(1, 2, "b")) == hash((1, 2))
    assert Point(1, 2) != Point(2, 1)
    assert Named("a") == Named("a") and hash(Named("a")) == hash(("a",))
    assert len({Point(1), Point(1, 0, "other"), Point(2)}) == 2


def test_equality_needs_the_same_class():
    class Other(Record):
        __slots__ = ("x", "y", "label")

        def __init__(self, x: int, y: int = 0, label: str = "") -> None:
            self.x, self.y, self.label = x, y, label

    assert Point(1, 2) != Other(1, 2)
    assert Point(1, 2) != (1, 2)
    assert Point(1, 2).__eq__((1, 2)) is NotImplemented


def test_a_mutable_record_is_not_hashable():
    with pytest.raises(TypeError):
        hash(Mutable())
    assert Mutable([1]) == Mutable([1])
    assert Mutable().items is not Mutable().items  # a fresh default each time


def test_repr_names_every_field():
    assert repr(Point(1, 2, "a")) == "Point(x=1, y=2, label='a')"
    assert repr(Named("n")) == "Named(name='n')"


def test_replace():
    point = Point(1, 2, "a")
    moved = point.replace(y=5)
    assert (moved.x, moved.y, moved.label) == (1, 5, "a") and type(moved) is Point
    assert (point.x, point.y) == (1, 2)  # unchanged
    with pytest.raises(TypeError, match="z"):
        point.replace(z=1)


def test_as_dict_converts_nested_records():
    shape = Shape((Point(1, 2, "a"),), {"k": [Named("n")]}, Shape(()))
    assert as_dict(shape) == {
        "points": ({"x": 1, "y": 2, "label": "a"},),
        "meta": {"k": [{"name": "n"}]},
        "parent": {"points": (), "meta": {}, "parent": None},
    }
    assert type(as_dict(shape)["points"]) is tuple and type(as_dict(shape)["meta"]["k"]) is list


def test_pickle_round_trip_keeps_every_field():
    shape = Shape((Point(1, 2, "a"), Point(3)), {"k": (Named("n"),)})
    back = pickle.loads(pickle.dumps(shape, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == shape and back.points[0].label == "a" and back.meta == {"k": (Named("n"),)}
    assert Point.__reduce__(Point(1, 2, "a")) == (Point, (1, 2, "a"))


# -- dl-lint's own records ---------------------------------------------------------------------


def _round_trip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def test_pickling_a_diagnostic_with_a_fix():
    from dl_lint.model import Diagnostic, Edit, Fix, Location, Related, Severity

    fix = Fix("safe", "Remove prefetch_factor", (Edit("", Location(3, 28), Location(3, 47)),))
    diag = Diagnostic(
        "DL001", "prefetch-without-workers", Severity.ERROR, "message", "train.py", Location(3, 8),
        Location(3, 48), fix, noqa_rows=(3, 4), cell=2, detail="detail",
        related=(Related("/abs/data.py", 5, 1, "Stream is defined here"),),
    )  # fmt: skip
    back = _round_trip(diag)
    assert back == diag and back.noqa_rows == (3, 4)  # checked apart: not compared
    assert back.fix.edits[0].end_location == Location(3, 47) and back.severity is Severity.ERROR
    assert repr(back) == repr(diag)


def test_pickling_a_module_summary():
    import ast

    from dl_lint.analysis.module import ModuleAnalysis

    source = (
        "import torch\nfrom torch.utils.data import IterableDataset\nWORKERS = 4\n"
        "if WORKERS:\n    OPTS = {'num_workers': WORKERS}\nOPTS.update(pin_memory=True)\n"
        "class Stream(IterableDataset):\n    def __init__(self):\n        self.rows = []\n"
        "    def __iter__(self):\n        return iter(self.rows)\n"
        "def make(batch_size=8):\n    return torch.utils.data.get_worker_info()\n"
    )
    summary = ModuleAnalysis(ast.parse(source), source, "m.py", "m").summary()
    assert summary.bindings and summary.classes and summary.functions and summary.mutations
    back = _round_trip(summary)
    assert back == summary and back.to_json() == summary.to_json()
    assert type(back.classes[0].methods[0]).__name__ == "MethodRecord"


def test_pickling_a_value_with_guards():
    from dl_lint.analysis.values import ABSENT, Guard, Origin, Possible, Value

    guard = Guard("args.workers", ">", 0, aliases=("nw",))
    value = Value(
        (Possible(2, Origin("literal", "train.py", 4), (guard,)), Possible(ABSENT, None, (guard.negate(),))),
        aliases=("prefetch",),
    )
    back = _round_trip(value)
    assert back == value and back.aliases == ("prefetch",)  # aliases are not compared
    assert back.options[0].guards[0].aliases == ("nw",) and back.options[1].value is ABSENT
    assert back.options[1].guards[0] == Guard("args.workers", "<=", 0)


def test_locations_order_by_row_then_column():
    from dl_lint.model import Location

    assert Location(1, 9) < Location(2, 1) <= Location(2, 1) < Location(2, 3)
    assert Location(3, 1) > Location(2, 9) and Location(3, 1) >= Location(3, 1)
    assert sorted([Location(2, 1), Location(1, 5), Location(1, 2)]) == [Location(1, 2), Location(1, 5), Location(2, 1)]
    assert Location(1, 1).__lt__((1, 2)) is NotImplemented
    with pytest.raises(TypeError):
        _ = Location(1, 1) < (1, 2)


def test_every_record_takes_its_fields_in_order():
    """``replace`` and pickling rebuild a record with ``cls(*fields)``: every record's ``__init__``
    must take exactly its fields, in ``__slots__`` order."""
    import importlib
    import inspect
    import pkgutil

    import dl_lint
    from dl_lint.record import Record

    for info in pkgutil.walk_packages(dl_lint.__path__, "dl_lint."):
        if info.name.startswith(("dl_lint.lsp", "dl_lint.measure")):
            continue  # need optional extras
        importlib.import_module(info.name)
    seen = []
    todo = list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("dl_lint."):
            seen.append(cls)
            params = list(inspect.signature(cls.__init__).parameters)[1:]
            assert params == list(cls._fields), cls.__qualname__
    assert len(seen) >= 30  # the walk found them (36 when written)


def test_a_module_summary_keeps_dl306_method_calls_and_other_names_through_json():
    import ast

    from dl_lint.analysis.module import ModuleAnalysis
    from dl_lint.analysis.summary import ModuleSummary

    source = (
        "class Model:\n    parse = staticmethod(len)\n    def parse_batch(self, batch):\n        return batch\n"
        "def train(model, loader, *, other=None):\n    for batch in loader:\n        model.parse_batch(batch)\n"
        "        other.step(batch[0], 1)\n"
    )
    summary = ModuleAnalysis(ast.parse(source), source, "m.py", "m").summary()
    [function] = summary.functions
    assert function.method_calls == (("loader", 1, "model", 0, "parse_batch", (0,)), ("loader", 1, "other", -1, "step", (0,)))
    assert summary.classes[0].other_names == ("parse",)
    back = ModuleSummary.from_json(summary.to_json())
    assert back == summary and back.functions[0].method_calls == function.method_calls


def test_a_module_summary_keeps_the_parameters_a_function_hands_back():
    import ast

    from dl_lint.analysis.module import ModuleAnalysis
    from dl_lint.analysis.summary import ModuleSummary

    source = (
        "def same(module):\n    module.flag = True\n    return module\n"
        "def restore(path, model, opt):\n    if path:\n        return model, opt, 1\n    return model, None, 0\n"
        "def rebinds(model):\n    model = wrap(model)\n    return model\n"
        "def gen(model):\n    yield 1\n    return model\n"
    )
    summary = ModuleAnalysis(ast.parse(source), source, "m.py", "m").summary()
    found = {f.name: f.returns_param for f in summary.functions}
    assert found == {"same": ((-1, 0, "module", 0),), "restore": ((0, 3, "model", 1),), "rebinds": (), "gen": ()}
    assert ModuleSummary.from_json(summary.to_json()) == summary
