"""The cheap stages must never skip a file that constructs a loader (a superset is fine)."""

import pytest

from dl_lint.analysis.prefilter import may_construct_loader, mentions_loader

CONSTRUCTS = {
    "plain": "from torch.utils.data import DataLoader\nDataLoader(ds)\n",
    "attribute": "import torch\ntorch.utils.data.DataLoader(ds)\n",
    "alias": "from torch.utils.data import DataLoader as DL\nDL(ds)\n",
    "assigned": "from torch.utils.data import DataLoader\nloader_cls = DataLoader\nloader_cls(ds)\n",
    "chained": "from torch.utils.data import DataLoader\na = DataLoader\nb = a\nb(ds)\n",
    "partial": "import functools\nfrom torch.utils.data import DataLoader\nmk = functools.partial(DataLoader, num_workers=2)\nmk(ds)\n",
    "conditional": "from torch.utils.data import DataLoader\n(DataLoader if c else Other)(ds)\n",
    "subclass": "from torch.utils.data import DataLoader\nclass Mine(DataLoader):\n    pass\nMine(ds)\n",
    "local subclass chain": "from torch.utils.data import DataLoader\nclass _BaseLoader(DataLoader):\n    pass\nclass FastLoader(_BaseLoader):\n    pass\nFastLoader(ds)\n",
    "imported subclass": "from utils import InfiniteDataLoader\nInfiniteDataLoader(ds)\n",
    "local base of an imported loader": "from utils import InfiniteDataLoader\nclass Mine(InfiniteDataLoader):\n    pass\nMine(ds)\n",
    "class name rebound": "class DataLoaderIter:\n    pass\nDataLoaderIter = load()\nDataLoaderIter(ds)\n",
    "class name is also a parameter": "class DataLoaderIter:\n    pass\ndef f(DataLoaderIter):\n    return DataLoaderIter(ds)\n",
    "factory defined here": "from torch.utils.data import DataLoader\ndef make_loader(ds):\n    return DataLoader(ds)\nmake_loader(ds)\n",
    "attribute of another object": "from torch.utils.data import DataLoader\ndef f():\n    pass\nloaders.FastLoader(ds)\n",
    "alias in a tuple": "from torch.utils.data import DataLoader\nA, B = DataLoader, dict\nA(ds)\n",
    "annotated alias": "from torch.utils.data import DataLoader\nL: type = DataLoader\nL(ds)\n",
    "conditional alias": "from torch.utils.data import DataLoader\nL = (DataLoader if c else Other)\nL(ds)\n",
    "else alias": "from torch.utils.data import DataLoader\nL = Other if c else DataLoader\nL(ds)\n",
    "call on the next line": "import torch\nloader = torch.utils.data.DataLoader\\\n(ds)\n",
    "syntax error": "from torch.utils.data import DataLoader\nDataLoader(\n",
}
ONLY_MENTIONS = {
    "docstring": '"""Wraps a DataLoader."""\nx = 1\n',
    "import only": "from torch.utils.data import DataLoader\n\ndef f(loader: DataLoader) -> int:\n    return len(loader)\n",
    # torch/utils/data/dataloader.py: iterator classes named like loaders, deriving from object
    "local iterator classes": (
        "class DataLoader:\n    def _get_iterator(self):\n        return _SingleProcessDataLoaderIter(self)\n"
        "class _BaseDataLoaderIter:\n    pass\nclass _SingleProcessDataLoaderIter(_BaseDataLoaderIter):\n    pass\n"
    ),
    "local functions and methods": (
        "from torch.utils.data import DataLoader\ndef is_dataloader_function(x):\n    return x\n"
        "class P:\n    def is_dataloader_frame(self, x):\n        return self.is_dataloader_frame(is_dataloader_function(x))\n"
    ),
    "isinstance": "from torch.utils.data import DataLoader\nisinstance(x, DataLoader)\n",
    # Lightning's hooks: lower-case names ending in "dataloader" are functions, not classes.
    "doctest and comments": (
        'def f():\n    """\n    >>> loader = torch.utils.data.DataLoader(range(9))\n    ... DataLoader(x)\n    """\n'
        "# DataLoader(ds) would be wrong here\nx = 1  # DataLoader(ds)\n"
    ),
    "hook calls": "from torch.utils.data import DataLoader\nloader: DataLoader = model.train_dataloader()\n",
    "type hints in brackets": "from torch.utils.data import DataLoader\nx: Optional[DataLoader] = None\ny: Union[DataLoader, List[DataLoader]]\n",
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_calls_are_kept(name):
    data = CONSTRUCTS[name].encode()
    assert mentions_loader(data) and may_construct_loader(data)


@pytest.mark.parametrize("name", sorted(ONLY_MENTIONS))
def test_mentions_without_calls_are_skipped(name):
    data = ONLY_MENTIONS[name].encode()
    assert mentions_loader(data) and not may_construct_loader(data)


def test_extra_loader_names():
    data = b"from pkg.loaders import FastLoader\nFastLoader (ds)\n"
    assert not mentions_loader(data)
    assert mentions_loader(data, ["pkg.loaders.FastLoader"])
    assert may_construct_loader(data, ["pkg.loaders.FastLoader"])


def test_a_call_of_a_class_named_like_a_loader_is_a_mention():
    """A project subclass imported from another module (``WorkerLoader(ds)``) or a library
    loader (torch_geometric's ``GraphSAINTRandomWalkSampler``) in a file that never says
    DataLoader."""
    assert mentions_loader(b"from loaders import WorkerLoader\nloader = WorkerLoader(ds)\n")
    assert mentions_loader(b"from torch_geometric.loader import GraphSAINTRandomWalkSampler as S\n")
    assert not mentions_loader(b"import yaml\ncfg = yaml.load(f, Loader=yaml.SafeLoader)\n")


@pytest.mark.parametrize("source", [
    "from torch.utils.data import DataLoader\nif False:\n    DataLoader(ds)\n",
    "from torch.utils.data import DataLoader\nwhile 0:\n    DataLoader(ds)\n",
    "def f():\n    from torch.utils.data import DataLoader\n    return lambda: DataLoader(ds)\n",
    "class A:\n    def m(self):\n        return torch.utils.data.DataLoader(ds)\n",
    "def f():\n    return 1\n    DataLoader(ds)\n",
    # compile() rejects what ast.parse accepts: the ast stage decides
    "from torch.utils.data import DataLoader\nreturn DataLoader(ds)\n",
    "from torch.utils.data import DataLoader\nx = '\\d'\nDataLoader(ds)\n",
])
def test_code_names_stage_keeps_calls(source):
    data = source.encode()
    assert mentions_loader(data) and may_construct_loader(data)


def test_code_names_stage_skips_mentions_in_strings_and_comments():
    data = b'"""Use a DataLoader."""\n# DataLoader(ds) in a comment\nx = "DataLoader(ds)"\nprint(x)\n'
    assert mentions_loader(data) and not may_construct_loader(data)
