"""Names unpacked from a project function that hands a parameter back (``x, y = helper(ds, 2)``,
``Resolver._unpacking``): the unpacking statement is found from one walk per scope, not one walk
of the scope per binding (3,000 such lines at module level took 39 s)."""

from __future__ import annotations

import time

from dl_lint import lint_paths


def test_many_unpacked_calls_of_a_helper_handing_back_a_parameter_stay_linear(tmp_path):
    lines = ["from torch.utils.data import DataLoader", "from helpers import helper", "ds = list(range(10))"]
    for i in range(3000):
        lines.append(f"x{i}, y{i} = helper(ds, 2)")
        lines.append(f"l{i} = DataLoader(x{i}, batch_size=4)")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    (tmp_path / "helpers.py").write_text("def helper(a, b):\n    return a, b\n")
    (tmp_path / "train.py").write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    result = lint_paths([tmp_path])
    assert time.monotonic() - started < 8
    assert not [d for d in result.diagnostics if d.code == "DL000"]
