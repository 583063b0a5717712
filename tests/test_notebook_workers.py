"""DL202 on classes and functions a notebook defines, proven in a real Jupyter kernel.

A kernel's ``__main__`` has no file, so a spawn or forkserver worker cannot import what a cell
defines: unpickling the dataset (or the collate_fn, or the worker_init_fn) fails there with
"Can't get attribute ... on <module '__main__' (built-in)>". The fixture notebook sets
forkserver; each of its cells is run by nbclient in an ipykernel, and the cells that fail must be
exactly the cells where dl-lint reports DL202, each with that error. The notebook's other cells
(no workers, a dataset imported from a module beside it, torch's own collate) must run.
"""

from __future__ import annotations

import os

import pytest

from dl_lint import lint_paths

from conftest import FIXTURES

# Marked torch: deselected on Python 3.9 with the other torch tests; where torch is installed,
# the test extra installs ipykernel and nbclient beside it, and a missing one fails the test.
pytestmark = [pytest.mark.torch, pytest.mark.slow]  # a real Jupyter kernel and workers: `python -m pytest -m slow`

NOTEBOOK = FIXTURES / "notebooks" / "dl202_notebook_definitions.ipynb"


def _run(path):
    import nbclient
    import nbformat

    notebook = nbformat.read(str(path), as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(path.parent)}}
    )
    # ipykernel forwards what the workers write to stderr only outside pytest (it stops watching
    # the file descriptors when PYTEST_CURRENT_TEST is set): the kernel runs without it.
    client.execute(env={k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"})
    failed = {}
    streams = []  # the workers' stderr, forwarded by the kernel (to the cell running when it arrives)
    for number, cell in enumerate(notebook.cells, start=1):
        outputs = cell.get("outputs", ())
        streams.extend(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
        errors = [o for o in outputs if o.get("output_type") == "error"]
        if errors:
            failed[number] = (errors[0].get("ename", ""), errors[0].get("evalue", ""))
    return failed, "".join(streams)


def test_cells_with_dl202_fail_in_a_kernel_and_the_others_run():
    reported = {d.cell for d in lint_paths([NOTEBOOK], overrides={"select": ("DL202",)}).diagnostics if d.code == "DL202"}
    assert len(reported) == 4  # the dataset (alone and in a Subset), the collate_fn and the worker_init_fn
    failed, streams = _run(NOTEBOOK)
    assert set(failed) == reported, failed
    for ename, evalue in failed.values():
        assert ename == "RuntimeError" and "exited unexpectedly" in evalue
    for name in ("Squares", "collate", "init_worker"):  # why each worker died
        assert f"Can't get attribute '{name}' on <module '__main__' (built-in)>" in streams, streams[-3000:]
