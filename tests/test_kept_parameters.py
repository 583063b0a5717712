"""DL202's kept constructor parameters (``SummaryModule.kept_parameters``) are one answer per
class, however the run reached the question."""

from __future__ import annotations

CHAIN = """\
from torch.utils.data import Dataset


class Base(Dataset):
    def __init__(self, root, transform=None):
        self.root = root
        self.transform = transform


class Middle(Base):
    pass


class Leaf(Middle):
    pass
"""


def test_kept_parameters_do_not_depend_on_the_first_question(tmp_path):
    # A class's kept parameters were memoized by name whatever the depth of the chain reading
    # that asked first: asked from deep in a chain (the chain cut short), the answer stayed short
    # for every later question from the start. Which question came first differed between one
    # process and two (pytorch_geometric's renet.py lost its two DL202 lines in some -j2 runs).
    from dl_lint.analysis.project import Project

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "data.py").write_text(CHAIN)
    full = Project(tmp_path).summary("data", str(tmp_path / "data.py")).kept_parameters("Leaf")
    assert full == (("root", 0), ("transform", 1))
    project = Project(tmp_path)
    summary = project.summary("data", str(tmp_path / "data.py"))
    assert summary.kept_parameters("Leaf", 8) == ()  # from the middle of a long chain: cut short
    assert summary.kept_parameters("Leaf") == full
