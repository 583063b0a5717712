"""Loader subclasses and library loaders (analysis.subclasses, analysis.library_loaders): how a
class's ``__init__`` is read, a call bound through it, the table of torch_geometric's loaders
regenerated from its source, and the answer not depending on which files are named."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.subclasses import UNREADABLE, passes_through, read_init

ROOT = Path(__file__).resolve().parent.parent


def _read(source: str):
    source = textwrap.dedent(source)
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    return read_init(node, lambda n: ast.get_source_segment(source, n))


def test_a_readable_init_maps_each_argument():
    init = _read(
        """
        class L(DataLoader):
            def __init__(self, dataset, batch_size=1, workers=0, *, follow=None, **kwargs):
                kwargs.pop("collate_fn", None)
                self.follow = follow
                super().__init__(dataset, batch_size, num_workers=workers, collate_fn=lambda b: b, drop_last=True,
                                 sampler=make(follow), **kwargs)
        """
    )
    params, varargs, varkw, target, entries, dropped, kwargs_mutated, varargs_mutated, line = init
    assert params == (
        ("dataset", "pos", None, False),
        ("batch_size", "pos", "1", True),
        ("workers", "pos", "0", True),
        ("follow", "kwonly", "None", True),
    )
    assert (varargs, varkw, target, kwargs_mutated, varargs_mutated) == (None, "kwargs", "super", False, False)
    assert entries == (
        ("pos", "", "param", "dataset"),
        ("pos", "", "param", "batch_size"),
        ("kw", "num_workers", "param", "workers"),
        ("kw", "collate_fn", "lambda", "6"),
        ("kw", "drop_last", "value", "True"),
        ("kw", "sampler", "opaque", ""),  # computed from a parameter: unknown
        ("**", "", "param", "kwargs"),
    )
    assert dropped == ("collate_fn",)


@pytest.mark.parametrize(
    "body",
    [
        "if dataset is not None:\n    super().__init__(dataset, **kwargs)",  # on one path only
        "super().__init__(dataset, **kwargs)\nsuper().__init__(dataset)",  # twice
        "if not dataset:\n    return\nsuper().__init__(dataset, **kwargs)",  # a return before it
        "try:\n    super().__init__(dataset, **kwargs)\nexcept TypeError:\n    pass",  # nested
        "self.x = 1",  # never
    ],
)
def test_an_init_that_may_not_build_the_loader_is_unreadable(body):
    source = "class L(DataLoader):\n    def __init__(self, dataset, **kwargs):\n" + textwrap.indent(body, " " * 8) + "\n"
    assert _read(source) == UNREADABLE


@pytest.mark.parametrize(
    "edit, mutated",
    [
        ('kwargs["num_workers"] = 0', True),
        ("kwargs.update(num_workers=0)", True),
        ('kwargs.setdefault("num_workers", 4)', True),
        ('if x:\n    kwargs.pop("num_workers")', True),  # removed on one path: unknown
        ("kwargs = dict(kwargs)", True),
        ('n = kwargs.get("num_workers", 0) > 0', False),
        ('del kwargs["sampler"]', False),
    ],
)
def test_kwargs_changed_in_init_carry_unknown_values(edit, mutated):
    source = (
        "class L(DataLoader):\n    def __init__(self, dataset, x=0, **kwargs):\n"
        + textwrap.indent(edit, " " * 8)
        + "\n        super().__init__(dataset, **kwargs)\n"
    )
    init = _read(source)
    assert init[6] is mutated
    if not mutated and "del" in edit:
        assert init[5] == ("sampler",)


def test_a_rebound_parameter_passes_an_unknown_value():
    init = _read(
        """
        class L(DataLoader):
            def __init__(self, dataset, workers=0):
                workers = max(workers, 1)
                super().__init__(dataset, num_workers=workers)
        """
    )
    assert ("kw", "num_workers", "opaque", "") in init[4]


def test_a_keyword_dict_kept_on_self_carries_its_entries():
    """pytorch-template's ``self.init_kwargs = {...}; super().__init__(**self.init_kwargs)``:
    each entry a keyword of the call, read like one written there."""
    init = _read(
        """
        class L(DataLoader):
            def __init__(self, dataset, batch_size, shuffle, workers, prefetch_factor=2):
                self.shuffle = shuffle
                self.init_kwargs = {"dataset": dataset, "batch_size": batch_size, "shuffle": self.shuffle,
                                    "num_workers": workers, "pin_memory": True, "prefetch_factor": prefetch_factor}
                super().__init__(sampler=None, **self.init_kwargs)

            def split_validation(self):
                return DataLoader(**self.init_kwargs)
        """
    )
    assert init[4] == (
        ("kw", "sampler", "value", "None"),
        ("kw", "dataset", "param", "dataset"),
        ("kw", "batch_size", "param", "batch_size"),
        ("kw", "shuffle", "opaque", ""),  # an attribute of self: unknown
        ("kw", "num_workers", "param", "workers"),
        ("kw", "pin_memory", "value", "True"),
        ("kw", "prefetch_factor", "param", "prefetch_factor"),
    )
    as_call = _read(
        "class L(DataLoader):\n    def __init__(self, ds, workers):\n"
        "        self.kw = dict(num_workers=workers)\n        super().__init__(ds, **self.kw)\n"
    )
    assert as_call[4] == (("pos", "", "param", "ds"), ("kw", "num_workers", "param", "workers"))


@pytest.mark.parametrize(
    "lines",
    [
        ['self.kw["prefetch_factor"] = None'],  # changed before the call
        ["self.kw.update(prefetch_factor=None)"],
        ["self.prepare()"],  # a method that changes it runs before the call
        ["self.kw = {}"],  # assigned twice
        ["kw = self.kw"],  # handed to another name, which may change it
    ],
)
def test_a_keyword_dict_changed_before_the_call_is_unknown(lines):
    source = (
        "class L(DataLoader):\n    def __init__(self, ds, workers):\n"
        '        self.kw = {"num_workers": workers, "prefetch_factor": 2}\n'
        + "".join(f"        {line}\n" for line in lines)
        + "        super().__init__(ds, **self.kw)\n"
        "    def prepare(self):\n        self.kw.pop('prefetch_factor')\n"
    )
    assert ("**", "", "opaque", "") in _read(source)[4]


def test_a_keyword_dict_changed_only_after_init_is_read_there():
    """A method that changes the dict cannot have run before ``__init__`` builds the loader
    (pytorch-template's ``split_validation`` updates it through another name)."""
    init = _read(
        """
        class L(DataLoader):
            def __init__(self, ds, workers):
                self.kw = {"num_workers": workers, "prefetch_factor": 2}
                super().__init__(ds, **self.kw)

            def split_validation(self, diff_kwargs=None):
                kw = self.kw
                if diff_kwargs is not None:
                    kw.update(diff_kwargs)
                return DataLoader(**self.kw)
        """
    )
    assert ("kw", "prefetch_factor", "value", "2") in init[4]


def test_the_subclass_module_alone_reports_what_a_full_run_reports(tmp_path):
    """Issue 26: the keyword dict lives in the base's module; a run naming only the module of
    the subclass (and of its calls) reports the same there."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "base.py").write_text(
        "from torch.utils.data import DataLoader\n\n\n"
        "class BaseLoader(DataLoader):\n"
        "    def __init__(self, dataset, batch_size, num_workers, prefetch_factor=2):\n"
        "        self.init_kwargs = {'dataset': dataset, 'batch_size': batch_size,\n"
        "                            'num_workers': num_workers, 'prefetch_factor': prefetch_factor}\n"
        "        super().__init__(**self.init_kwargs)\n"
    )
    (tmp_path / "loaders.py").write_text(
        "from base import BaseLoader\n\n\n"
        "class VideoLoader(BaseLoader):\n"
        "    def __init__(self, dataset, batch_size=2, num_workers=1, prefetch_factor=2):\n"
        "        super().__init__(dataset, batch_size, num_workers, prefetch_factor=prefetch_factor)\n\n\n"
        "def debug(data):\n"
        "    return VideoLoader(data, num_workers=0)\n"
    )
    whole = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    alone = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([tmp_path / "loaders.py"]).diagnostics]
    assert whole == [("base.py", 8, "DL011"), ("loaders.py", 10, "DL001")]
    assert alone == [("loaders.py", 10, "DL001")]
    cache = tmp_path / "cache"
    assert [d.code for d in lint_paths([tmp_path / "loaders.py"], cache=True, cache_dir=cache).diagnostics] == ["DL001"]
    base = (tmp_path / "base.py").read_text()
    (tmp_path / "base.py").write_text(base.replace("'prefetch_factor': prefetch_factor}", "'prefetch_factor': prefetch_factor if num_workers else None}"))
    assert lint_paths([tmp_path / "loaders.py"], cache=True, cache_dir=cache).diagnostics == []


@pytest.mark.torch
def test_the_template_loader_raises_with_zero_workers_and_runs_with_workers():
    """The fixture's classes through real torch: what dl-lint reports at the ``super().__init__``
    line (DL011) and at the calls (DL001) is torch's ValueError; with workers it iterates."""
    import importlib.util

    path = ROOT / "fixtures" / "rules" / "loader_subclasses" / "self_kwargs.py"
    spec = importlib.util.spec_from_file_location("self_kwargs_fixture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for build in (
        lambda: module.BaseDataLoader(module.DATA, 2, True, 0.0, 0),
        lambda: module.ExplicitSplitLoader(module.DATA, 2, False, 0),
        lambda: module.VideoLoader(module.DATA, num_workers=0),
    ):
        with pytest.raises(ValueError, match="prefetch_factor"):
            build()
    for loader in (module.VideoLoader(module.DATA, num_workers=2), module.BaseDataLoader(module.DATA, 2, False, 0.0, 1).split_validation()):
        assert len(list(loader)) == 4
    with pytest.raises(TypeError, match="multiple values"):
        module.TwiceLoader(module.DATA)  # silent: the call never reaches torch's checks


def test_args_kwargs_passed_through_keep_the_base_signature():
    init = _read(
        """
        class L(DataLoader):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.iterator = super().__iter__()
        """
    )
    assert passes_through(init)


def test_a_call_is_judged_in_its_own_file_when_the_class_lives_in_another(tmp_path):
    """Issue 26: the diagnostic at a subclass call does not depend on naming the class's
    module; an edit of the class's default changes it on the next cached run."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "loaders.py").write_text(
        "import torch.utils.data\n\n\n"
        "class WorkerLoader(torch.utils.data.DataLoader):\n"
        "    def __init__(self, dataset, workers=0, prefetch=2):\n"
        "        super().__init__(dataset, num_workers=workers, prefetch_factor=prefetch)\n"
    )
    (tmp_path / "train.py").write_text("from loaders import WorkerLoader\n\nloader = WorkerLoader([1, 2])\n")
    whole = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    alone = [(Path(d.filename).name, d.location.row, d.code) for d in lint_paths([tmp_path / "train.py"]).diagnostics]
    assert whole == alone == [("train.py", 3, "DL001")]
    cache = tmp_path / "cache"
    assert [d.code for d in lint_paths([tmp_path / "train.py"], cache=True, cache_dir=cache).diagnostics] == ["DL001"]
    (tmp_path / "loaders.py").write_text((tmp_path / "loaders.py").read_text().replace("workers=0", "workers=2"))
    assert lint_paths([tmp_path / "train.py"], cache=True, cache_dir=cache).diagnostics == []


def test_a_project_class_named_like_a_library_loader_is_the_projects(tmp_path):
    """``NeighborLoader`` of the project's own module is read from the project, not the table."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "graph.py").write_text(
        "from torch.utils.data import DataLoader\n\n\n"
        "class NeighborLoader(DataLoader):\n"
        "    def __init__(self, data, sizes, num_workers=3, **kwargs):\n"
        "        super().__init__(data, num_workers=num_workers, **kwargs)\n"
    )
    (tmp_path / "train.py").write_text(
        "from graph import NeighborLoader\n\nok = NeighborLoader([1], [2], prefetch_factor=2)\n"
        "bad = NeighborLoader([1], [2], num_workers=0, prefetch_factor=2)\n"
    )
    rows = [(d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    assert rows == [(4, "DL001")]


@pytest.mark.torch
def test_the_library_table_is_what_the_analysis_reads_in_the_installed_source():
    """bench/library_loaders.py --check: the rows of dl-lint's table are exactly what reading
    the installed torch_geometric (the pinned test dependency) gives today."""
    import torch_geometric

    assert torch_geometric.__version__ == "2.8.1"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "library_loaders.py"), "--check"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rows match" in result.stdout


@pytest.mark.torch
def test_the_table_binds_positions_as_torch_geometric_does():
    """For each library class of the table with a parameter where torch has another (the 4th
    of torch_geometric's DataLoader is follow_batch, torch's is sampler), a real instance built
    with those positions has the values dl-lint binds to torch's parameters."""
    import torch
    from torch_geometric.data import Data
    from torch_geometric.loader import DataLoader

    from dl_lint.analysis.library_loaders import library_loader
    from dl_lint.analysis.subclasses import Bound, Item, pass_down
    from dl_lint.analysis.values import Value

    graphs = [Data(x=torch.zeros(2, 1)) for _ in range(4)]
    real = DataLoader(graphs, 3, True, ["x"], num_workers=1, drop_last=True)
    bound = Bound([Item(Value.known(v)) for v in ("graphs", 3, True, ["x"])], {"num_workers": Item(Value.known(1))})
    bound.keywords["drop_last"] = Item(Value.known(True))
    for signature in library_loader("torch_geometric.loader.DataLoader")[1]:
        bound = pass_down(signature, bound, Value.unknown)
    torch_names = ("dataset", "batch_size", "shuffle")
    passed = dict(zip(torch_names, bound.positional))
    assert passed["batch_size"].value.single.value == real.batch_size == 3
    assert bound.keywords["num_workers"].value.single.value == real.num_workers == 1
    assert bound.keywords["drop_last"].value.single.value == real.drop_last is True
    assert "sampler" not in bound.keywords and len(bound.positional) == 3  # follow_batch stays PyG's
    assert isinstance(real.sampler, torch.utils.data.RandomSampler)  # shuffle=True, no sampler given


def test_library_loaders_are_listed_in_the_docs():
    """Every class of the table is named in docs/analysis.md with its version."""
    from dl_lint.analysis.library_loaders import TABLE

    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    versions = {row[0] for row in TABLE.values()}
    assert versions and all(version in text for version in versions)
    public = {name.rsplit(".", 1)[1] for name in TABLE if name.count(".") == 2}
    missing = sorted(name for name in public if f"`{name}`" not in text)
    assert not missing, missing
