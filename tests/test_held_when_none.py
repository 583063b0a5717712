"""DL202 for a lambda a dataset keeps only when an optional argument is left None (fastMRI's
``SliceDataset``: ``if raw_sample_filter is None: self.raw_sample_filter = lambda raw_sample:
True``): reported for a construction that leaves it None, silent for one that gives a value,
and silent whenever the class's ``__init__`` does not certainly keep it on that path
(``summary._held_when_none``, ``resolve.Resolver._kept_when_none``). The failure itself is
proven under forkserver by fixtures/spawn/dl202_dataset_lambda_when_none.py, the negative by
fixtures/spawn/ok_dataset_given_filter.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths

HEAD = "import torch\nfrom torch.utils.data import DataLoader, Dataset\n\n\ndef keep(x):\n    return True\n\n\n"
TAIL = "    def __len__(self):\n        return 8\n\n    def __getitem__(self, index):\n        return torch.tensor([index])\n\n\n"

IF_ELSE = """\
class D(Dataset):
    def __init__(self, root, flt=None):
        if flt is None:
            self.flt = lambda x: True
        else:
            self.flt = flt
"""
IF_ONLY = """\
class D(Dataset):
    def __init__(self, root, flt=None):
        self.flt = flt
        if flt is None:
            self.flt = lambda x: True
"""
NOT_NONE = """\
class D(Dataset):
    def __init__(self, root, flt=None):
        if flt is not None:
            self.flt = flt
        else:
            self.flt = lambda x: True
"""
OR = """\
class D(Dataset):
    def __init__(self, root, flt=None):
        self.flt = flt or (lambda x: True)
"""
IFEXP = """\
class D(Dataset):
    def __init__(self, root, flt=None):
        self.flt = flt if flt is not None else lambda x: True
"""
KWONLY = """\
class D(Dataset):
    def __init__(self, root, *, flt=None):
        if not flt:
            self.flt = lambda x: True
        else:
            self.flt = flt
"""


def _dl202(tmp_path: Path, cls: str, call: str):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    source = HEAD + textwrap.dedent(cls) + "\n" + TAIL + f"loader = DataLoader({call}, num_workers=2)\n"
    (tmp_path / "train.py").write_text(source)
    return [d for d in lint_paths([tmp_path / "train.py"], cache=False).diagnostics if d.code == "DL202"]


@pytest.mark.parametrize("cls", [IF_ELSE, IF_ONLY, NOT_NONE, OR, IFEXP], ids=["if-else", "if", "is-not-none", "or", "ifexp"])
@pytest.mark.parametrize("call", ['D("r")', 'D("r", None)', 'D("r", flt=None)', 'D(root="r")'])
def test_a_construction_that_leaves_the_argument_none_keeps_the_lambda(tmp_path, cls, call):
    found = _dl202(tmp_path, cls, call)
    assert len(found) == 1, found
    assert "keeps a lambda in self.flt (flt left None)" in found[0].message + found[0].detail
    assert any(r.row == found[0].related[0].row for r in found[0].related)  # the lambda's line is cited


def test_a_keyword_only_parameter(tmp_path):
    assert len(_dl202(tmp_path, KWONLY, 'D("r")')) == 1
    assert _dl202(tmp_path, KWONLY, 'D("r", flt=keep)') == []


@pytest.mark.parametrize("cls", [IF_ELSE, IF_ONLY, NOT_NONE, OR, IFEXP], ids=["if-else", "if", "is-not-none", "or", "ifexp"])
@pytest.mark.parametrize("call", ['D("r", keep)', 'D("r", flt=keep)', 'D("r", flt=unknown_thing)', 'D("r", *extra)', 'D("r", **extra)'])
def test_a_construction_that_gives_the_argument_or_may_is_silent(tmp_path, cls, call):
    assert _dl202(tmp_path, cls, call) == []


@pytest.mark.parametrize(
    "cls",
    [
        # the default is not None: the lambda path is not the one left alone
        IF_ELSE.replace("flt=None", "flt=keep"),
        # under another condition: it may not run
        IF_ELSE.replace("        if flt is None:", "        if root:\n          if flt is None:").replace(
            "        else:", "          else:"
        ).replace("            self.flt", "              self.flt"),
        # the attribute is set again afterwards, to something else
        IF_ELSE + "        self.flt = keep\n",
        # the other path keeps something else than the argument
        IF_ELSE.replace("            self.flt = flt", "            self.flt = print"),
        # __init__ may return before it
        IF_ELSE.replace("        if flt is None:", "        if root == 'x':\n            return\n        if flt is None:"),
        # the class decides what it pickles
        IF_ELSE + "\n    def __getstate__(self):\n        return {}\n",
        # a test of something else
        IF_ELSE.replace("if flt is None", "if root is None"),
    ],
    ids=["default-not-none", "nested", "reassigned", "other-value", "early-return", "getstate", "other-test"],
)
def test_a_class_that_does_not_certainly_keep_it_is_silent(tmp_path, cls):
    assert _dl202(tmp_path, cls, 'D("r")') == []


def test_a_name_bound_to_none_is_not_read(tmp_path):
    """Only a literal None (or no argument) leaves the parameter None for the rule: a name is
    not resolved at every construction of a class (it cost accelerate 8.5% more instructions
    when it was), so ``D('r', flt=NOTHING)`` stays silent even with ``NOTHING = None``."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    source = HEAD + IF_ELSE + "\n" + TAIL + "NOTHING = None\nloader = DataLoader(D('r', flt=NOTHING), num_workers=2)\n"
    (tmp_path / "train.py").write_text(source)
    assert [d for d in lint_paths([tmp_path / "train.py"], cache=False).diagnostics if d.code == "DL202"] == []


def test_the_class_in_another_module(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "data.py").write_text("import torch\nfrom torch.utils.data import Dataset\n\n\n" + IF_ELSE + "\n" + TAIL)
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\n\nfrom data import D\n\n\n"
        "def main():\n    for batch in DataLoader(D('r'), num_workers=4):\n        print(batch)\n"
    )
    found = [d for d in lint_paths([tmp_path / "train.py"], cache=False).diagnostics if d.code == "DL202"]
    assert len(found) == 1 and Path(found[0].related[0].path).name == "data.py" and found[0].related[0].row == 8


def test_a_module_name_two_packages_share_is_the_root_package_for_a_script_of_neither(tmp_path):
    """fastMRI has ``fastmri/`` at the root and ``banding_removal/fastmri/``; its
    ``fastmri_examples/unet/`` script imports ``fastmri.data``: the root package (what an install
    of the project finds), not the one that sorts first (``Project._choose``)."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    keeps = "import torch\nfrom torch.utils.data import Dataset\n\n\n" + IF_ELSE + "\n" + TAIL
    plain = keeps.replace("            self.flt = lambda x: True", "            self.flt = print")
    for folder, text in (("fastmri/data", keeps), ("banding_removal/fastmri/data", plain)):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text(text)
        (tmp_path / folder).parent.joinpath("__init__.py").write_text("")
    (tmp_path / "examples/unet").mkdir(parents=True)
    (tmp_path / "examples/unet/run.py").write_text(
        "from torch.utils.data import DataLoader\n\nfrom fastmri.data import D\n\n\n"
        "def main():\n    for batch in DataLoader(D('r'), num_workers=4):\n        print(batch)\n"
    )
    found = [d for d in lint_paths([tmp_path], cache=False).diagnostics if d.code == "DL202"]
    assert [Path(d.filename).name for d in found] == ["run.py"]
    assert Path(found[0].related[0].path).relative_to(tmp_path).as_posix() == "fastmri/data/__init__.py"
