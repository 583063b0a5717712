"""Loaders kept on a wrapper object (``ModuleAnalysis._held``) and reached through its getter,
built by a method factory or a builder function (pix2pixHD's ``CreateDataLoader(opt)`` then
``data_loader.load_data()``): DL203 at the call, what is not followed, and one answer however the
project is run (issue 26). The failures themselves are proven under spawn in
fixtures/spawn/dl203_held_*.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

WRAPPER = """\
import torch.utils.data


class CustomDatasetDataLoader:
    def initialize(self, opt):
        self.dataset = list(range(8))
        self.dataloader = torch.utils.data.DataLoader(self.dataset, batch_size=2, num_workers=int(opt.nThreads))

    def load_data(self):
        return self.dataloader
"""
BUILDER = """\
def CreateDataLoader(opt):
    from data.wrapper import CustomDatasetDataLoader
    data_loader = CustomDatasetDataLoader()
    data_loader.initialize(opt)
    return data_loader
"""
SCRIPT = """\
import argparse
from data.builder import CreateDataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--nThreads", type=int, default=0)
opt = parser.parse_args()
{before}
data_loader = CreateDataLoader(opt)
{after}
dataset = data_loader.load_data()
for i, data in enumerate(dataset):
    pass
"""


def _project(root: Path, wrapper: str = WRAPPER, script: str = SCRIPT, before: str = "", after: str = "") -> Path:
    files = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "data/__init__.py": "",
        "data/wrapper.py": wrapper,
        "data/builder.py": BUILDER,
        "train.py": script.format(before=before, after=after),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _dl203(paths) -> list:
    return sorted((Path(d.filename).name, d.location.row) for d in lint_paths(paths).diagnostics if d.code == "DL203")


def test_a_write_before_the_call_is_what_the_builder_sees_and_the_run_on_one_file_agrees(tmp_path):
    root = _project(tmp_path, before="opt.nThreads = 1")
    assert _dl203([root]) == [("train.py", 8)]
    assert _dl203([root / "train.py"]) == [("train.py", 8)]
    assert _dl203([root / "data" / "builder.py"]) == [("train.py", 8)]  # rests on the named builder


@pytest.mark.parametrize(
    "before, after",
    [
        ("", ""),  # the parser's default: no workers
        ("", "opt.nThreads = 2"),  # written after the loader was built
        ("opt.nThreads = 1\nopt.nThreads = 0", ""),
    ],
)
def test_no_workers_at_the_call_is_silent(tmp_path, before, after):
    assert _dl203([_project(tmp_path, before=before, after=after)]) == []


@pytest.mark.parametrize(
    "change",
    [
        # the getter hands out another attribute
        ("        return self.dataloader", "        return self.dataset"),
        # the getter does more than return the attribute
        ("        return self.dataloader", "        print(self.dataset)\n        return self.dataloader"),
        # the loader built on one path of the method only
        ("        self.dataloader = torch", "        if opt.nThreads:\n            self.dataloader = torch"),
    ],
)
def test_shapes_not_followed_stay_silent(tmp_path, change):
    old, new = change
    assert old in WRAPPER
    root = _project(tmp_path, wrapper=WRAPPER.replace(old, new), before="opt.nThreads = 1")
    assert _dl203([root]) == []


def test_the_attribute_set_twice_is_not_followed(tmp_path):
    wrapper = WRAPPER + "\n    def reset(self):\n        self.dataloader = None\n"
    assert _dl203([_project(tmp_path, wrapper=wrapper, before="opt.nThreads = 1")]) == []


def test_a_main_guard_silences(tmp_path):
    script = textwrap.dedent(
        """\
        from data.builder import CreateDataLoader


        class Options:
            nThreads = 2


        def main():
            data_loader = CreateDataLoader(Options())
            for batch in data_loader.load_data():
                pass


        if __name__ == "__main__":
            main()
        """
    )
    assert _dl203([_project(tmp_path, script=script)]) == []


def test_a_write_through_another_name_is_not_followed(tmp_path):
    assert _dl203([_project(tmp_path, before="opt.nThreads = 1\nalias = opt\nalias.nThreads = 0")]) == []


def test_many_builder_calls_in_one_script_stay_linear(tmp_path):
    """2,000 ``data_loader_i = CreateDataLoader(opt)`` / ``dataset_i = data_loader_i.load_data()``
    at module level: each call read the module's edited attributes (a walk of the whole module
    for ``opt``) and every binding of the scope for its getters: 44 s for 1,000, now linear."""
    import time

    lines = [f"data_loader{i} = CreateDataLoader(opt)\ndataset{i} = data_loader{i}.load_data()" for i in range(2000)]
    script = SCRIPT.replace("data_loader = CreateDataLoader(opt)\n", "\n".join(lines) + "\ndata_loader = CreateDataLoader(opt)\n")
    root = _project(tmp_path, script=script, before="opt.nThreads = 1")
    started = time.monotonic()
    assert _dl203([root]) == [("train.py", 4008)]
    assert time.monotonic() - started < 15


def test_a_file_that_becomes_a_builder_is_read_again_in_a_warm_run(tmp_path):
    """A file the last call-site record read as no builder (it calls the method factory but
    hands nothing back) that changes into a builder is read again in a warm run, and its
    caller reported, as a cold run reports it (``Run._derive_builders``)."""
    no_builder = BUILDER.replace("return data_loader", "return None")  # calls the factory, hands nothing back
    root = _project(tmp_path / "p", before="opt.nThreads = 1")
    builder = root / "data" / "builder.py"
    builder.write_text(no_builder)
    cache = tmp_path / "cache"

    def warm(paths):
        found = lint_paths(paths, cache=True, cache_dir=cache).diagnostics
        return sorted((Path(d.filename).name, d.location.row) for d in found if d.code == "DL203")

    assert warm([root]) == [] and warm([root / "train.py"]) == []
    (root / "data" / "wrapper.py").write_text(WRAPPER + "# edited: the record is read again\n")
    assert warm([root / "data" / "wrapper.py"]) == []
    builder.write_text(BUILDER)
    assert warm([root / "data" / "builder.py"]) == [("train.py", 8)]
    assert warm([root]) == _dl203([root]) == [("train.py", 8)]


# -- loaders a class builds when it is constructed (``Holder.__init__`` as a factory) -------------

HOLDER = """\
import torch.utils.data


class PairedData(object):
    def __init__(self, data_loader, root):
        self.data_loader = data_loader
        self.root = root

    def __iter__(self):
        self.data_loader_iter = iter(self.data_loader)
        return self

    def __next__(self):
        return next(self.data_loader_iter)


class Holder(object):
    def __init__(self, root, workers=2):
        self.dataset = list(range(8))
        self.data_loader = torch.utils.data.DataLoader(self.dataset, batch_size=2, num_workers=workers)
        self.paired_data = PairedData(self.data_loader, root)

    def load_data(self):
        return self.paired_data

    def raw(self):
        return self.data_loader
"""
HOLDER_BUILDER = """\
def CreateHolder(root, workers):
    data_loader = None
    from data.holder import Holder
    data_loader = Holder(root, workers)
    return data_loader
"""
HOLDER_SCRIPT = """\
from data.builders import CreateHolder

data_loader = CreateHolder("/data", {workers})
dataset = data_loader.{getter}()
for epoch in range(2):
    for i, data in enumerate(dataset):
        pass
"""


def _holder_project(root: Path, holder: str = HOLDER, builder: str = HOLDER_BUILDER, script: str = HOLDER_SCRIPT, **fields) -> Path:
    files = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "data/__init__.py": "",
        "data/holder.py": holder,
        "data/builders.py": builder,
        "train.py": script.format(**{"workers": 2, "getter": "load_data", **fields}),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize("getter", ["load_data", "raw"])
def test_a_holder_built_by_a_builder_of_another_module_is_followed_to_the_script(tmp_path, getter):
    """The holder's ``__init__`` builds the loader; a builder of another module (binding None
    first, importing the class in its body) constructs it with its own parameters and returns it;
    the script iterates what a getter hands out: the loader itself, or a wrapper whose
    ``__iter__`` calls ``iter()`` on it. Every way of naming the files gives the one answer."""
    root = _holder_project(tmp_path, getter=getter)
    assert _dl203([root]) == [("train.py", 3)]
    for named in ("train.py", "data/builders.py", "data/holder.py"):
        assert _dl203([root / named]) == [("train.py", 3)], named
    message = next(d for d in lint_paths([root]).diagnostics if d.code == "DL203")
    assert message.message.startswith("CreateHolder(): ")
    assert "Holder()" in message.detail and "__init__" not in message.detail + message.message


def test_a_holder_constructed_by_the_script_is_named_by_its_class(tmp_path):
    script = "from data.holder import Holder\n\nholder = Holder('/data')\ndataset = holder.load_data()\nfor batch in dataset:\n    pass\n"
    root = _holder_project(tmp_path, script=script)
    found = [d for d in lint_paths([root]).diagnostics if d.code == "DL203"]
    assert [(Path(d.filename).name, d.location.row) for d in found] == [("train.py", 3)]
    assert found[0].message.startswith("Holder(): ") and "__init__" not in found[0].detail


@pytest.mark.parametrize(
    "workers, script_change",
    [
        (0, None),  # no workers at this call
        (2, ("for epoch in range(2):", "if __name__ == '__main__':")),  # iterated under the guard
        (2, ("    for i, data in enumerate(dataset):\n        pass", "    print(len(data_loader.dataset))")),  # never iterated
    ],
)
def test_holder_calls_that_start_no_worker_at_import_are_silent(tmp_path, workers, script_change):
    script = HOLDER_SCRIPT if script_change is None else HOLDER_SCRIPT.replace(*script_change)
    assert script_change is None or script != HOLDER_SCRIPT
    assert _dl203([_holder_project(tmp_path, script=script, workers=workers)]) == []


@pytest.mark.parametrize(
    "part, change",
    [
        # the wrapper's ``__iter__`` walks something else
        ("holder", ("iter(self.data_loader)", "iter([self.root])")),
        # the wrapper keeps the loader under two stores
        ("holder", ("        self.root = root\n", "        self.root = root\n        self.data_loader = None\n")),
        # the holder stores the loader attribute twice
        ("holder", ("    def raw(self):", "    def reset(self):\n        self.data_loader = None\n\n    def raw(self):")),
        # the builder constructs the holder on one path only
        ("builder", ("    data_loader = Holder(root, workers)", "    if workers:\n        data_loader = Holder(root, workers)")),
        # the builder returns something else
        ("builder", ("    return data_loader", "    return data_loader.dataset")),
    ],
)
def test_holder_shapes_not_followed_stay_silent(tmp_path, part, change):
    texts = {"holder": HOLDER, "builder": HOLDER_BUILDER}
    assert change[0] in texts[part]
    texts[part] = texts[part].replace(*change)
    root = _holder_project(tmp_path, holder=texts["holder"], builder=texts["builder"])
    assert _dl203([root]) == []


def test_a_warm_run_after_a_builder_edit_agrees_with_a_cold_one(tmp_path):
    root = _holder_project(tmp_path / "p", builder=HOLDER_BUILDER.replace("Holder(root, workers)", "Holder(root, 0)"))
    cache = tmp_path / "cache"

    def warm(paths):
        found = lint_paths(paths, cache=True, cache_dir=cache).diagnostics
        return sorted((Path(d.filename).name, d.location.row) for d in found if d.code == "DL203")

    assert warm([root]) == []
    (root / "data" / "builders.py").write_text(HOLDER_BUILDER)
    assert warm([root / "data" / "builders.py"]) == [("train.py", 3)]
    assert warm([root]) == _dl203([root]) == [("train.py", 3)]


@pytest.mark.parametrize("header", ["class Holder:", "class Holder(object):"])
def test_a_holder_constructed_in_its_own_module_is_a_call_site_there(tmp_path, header):
    """``class Holder:`` does not look like a call of ``Holder``, ``class Holder(object):`` does:
    either way the one construction in the class's own file is found, whether the run names
    the file or its folder."""
    script = textwrap.dedent(
        f"""\
        import torch.utils.data


        {header}
            def __init__(self, workers):
                self.loader = torch.utils.data.DataLoader(list(range(8)), num_workers=workers)

            def load_data(self):
                return self.loader


        holder = Holder(2)
        dataset = holder.load_data()
        for batch in dataset:
            pass
        """
    )
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "train.py").write_text(script)
    assert _dl203([tmp_path]) == _dl203([tmp_path / "train.py"]) == [("train.py", 12)]
