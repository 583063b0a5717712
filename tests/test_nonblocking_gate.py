"""``Project.writes_non_blocking``: DL306 follows a returned loader into its callers' loops only
when some project file writes ``non_blocking=True`` (the only copy the rule counts), a bytes
search made once per run, so a project without one never loads the modules of the objects the
callers hand their batches to."""
from __future__ import annotations

import pytest

from dl_lint.analysis.project import Project


@pytest.mark.parametrize(
    "text, expected",
    [
        ("def to_gpu(x):\n    return x.cuda(non_blocking=True)\n", True),
        ("def to_gpu(x):\n    return x.cuda(non_blocking = (\n        # overlap\n        True))\n", True),
        ("def to_gpu(x, flag):\n    return x.cuda(non_blocking=flag)\n", False),
        ("class A:\n    def non_blocking(self):\n        return self.config.non_blocking\n", False),
        ("def to_gpu(x):\n    return x.cuda(non_blocking=Truthy)\n", False),
    ],
)
def test_writes_non_blocking(tmp_path, text, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text("from utils import to_gpu\n")
    (tmp_path / "utils.py").write_text(text)
    project = Project(tmp_path)
    assert project.writes_non_blocking() is expected
