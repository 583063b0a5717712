"""`dl-lint measure` against real torch: the measured /dev/shm peak is the model's (W×P + 1) batches.

These tests run real DataLoaders with worker processes and read /dev/shm with statvfs. They need
Linux shared memory; without it they fail (they must not silently skip: the memory model that
DL101 and `dl-lint estimate` use is only proven here).
"""

from __future__ import annotations

import json
import os
import textwrap

import pytest

from dl_lint.measure import MeasureError, shm_stats

MiB = 1024**2
TOLERANCE = 0.10

LOADERS = textwrap.dedent(
    """\
    import torch
    from torch.utils.data import DataLoader, Dataset


    class TensorBatches(Dataset):
        '''Each item is a fresh tensor of ``nbytes`` bytes: with batch_size=None, one batch.'''

        def __init__(self, n, nbytes):
            self.n, self.nbytes = n, nbytes

        def __len__(self):
            return self.n

        def __getitem__(self, i):
            return torch.empty(self.nbytes, dtype=torch.uint8).fill_(1)


    def make():
        return DataLoader(TensorBatches(40, {nbytes}), batch_size=None, num_workers={workers}, prefetch_factor={prefetch})


    def not_a_loader():
        return [1, 2, 3]
    """
)

# (num_workers, prefetch_factor, batch bytes): at most (2×1 + 1) × 32 MiB = 96 MiB of /dev/shm.
CONFIGS = [(1, 2, 16 * MiB), (2, 2, 16 * MiB), (2, 1, 32 * MiB), (4, 1, 8 * MiB)]
MOST_SHM = max((w * p + 1) * b for w, p, b in CONFIGS)


@pytest.fixture(scope="module", autouse=True)
def shared_memory_is_there():
    """Fail loudly (not skip) when /dev/shm cannot hold the biggest configuration twice over."""
    stats = shm_stats()
    assert stats is not None, "/dev/shm is not available: the measured memory model cannot be checked"
    _total, available, _used = stats
    assert available >= 2 * MOST_SHM, f"/dev/shm has only {available} bytes free; need {2 * MOST_SHM}"


@pytest.fixture(autouse=True)
def one_measurement_at_a_time():
    """statvfs sees the whole machine's /dev/shm: under pytest-xdist, two measurements at once
    count each other's batches (the text test read 1.8 × its estimate beside another). A lock
    file shared by the xdist workers runs them one after another."""
    import fcntl
    import tempfile

    with open(os.path.join(tempfile.gettempdir(), "dl-lint-tests-measure.lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.fixture
def in_process(tmp_path, monkeypatch):
    """Run ``dl_lint.measure.run`` in this process from ``tmp_path``, undoing its sys.path and
    sys.modules changes afterwards."""
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name in ("no_workers_loader", "errs_loader"):
            del sys.modules[name]


def _write_loaders(tmp_path, workers, prefetch, nbytes, name="loaders_under_test"):
    (tmp_path / f"{name}.py").write_text(LOADERS.format(workers=workers, prefetch=prefetch, nbytes=nbytes))
    return name


def _within(measured, expected):
    return abs(measured - expected) <= TOLERANCE * expected


def _measure_json(run_cli, target):
    # Each batch is held 0.2 s, longer than a worker needs to build one: the GPU-bound case in
    # which the "+1" batch exists (see the README's measured table).
    result = run_cli(
        "measure", target, "--batches", "4", "--pause", "1.5", "--step-time", "0.2", "--output-format", "json"
    )
    assert result.returncode == 0, result.stderr
    assert "measure: batch 4/4" in result.stderr  # progress goes to stderr, JSON alone to stdout
    return json.loads(result.stdout)


@pytest.mark.parametrize("workers, prefetch, nbytes", CONFIGS[:-1], ids=lambda v: str(v))
@pytest.mark.torch
def test_measured_shm_peak_matches_the_estimate(run_cli, tmp_path, workers, prefetch, nbytes):
    module = _write_loaders(tmp_path, workers, prefetch, nbytes)
    expected_peak = (workers * prefetch + 1) * nbytes
    data = _measure_json(run_cli, f"{module}:make")
    if not _within(data["shm_peak_bytes"], expected_peak) and _within(
        data["held_fd_peak_bytes"], expected_peak
    ):
        # statvfs sees the whole machine: when only it is off, another program used /dev/shm
        # meanwhile. Measure once more; the assertions below still apply to the new run.
        data = _measure_json(run_cli, f"{module}:make")
    assert (data["num_workers"], data["prefetch_factor"]) == (workers, prefetch)
    assert data["batch_bytes"] == nbytes
    assert data["batches"] == 4
    assert data["sharing_strategy"] == "file_descriptor"
    assert data["estimate_shm_bytes"] == expected_peak
    assert data["estimate_prefetched_bytes"] == workers * prefetch * nbytes
    # The measurement: statvfs('/dev/shm') sampled every 5 ms, minus the use before the loader.
    assert _within(data["shm_peak_bytes"], expected_peak), data
    assert _within(data["shm_prefetched_bytes"], workers * prefetch * nbytes), data  # before the 1st step
    # The process-specific cross-check: /dev/shm files held open by the loader's processes.
    assert _within(data["held_fd_peak_bytes"], expected_peak), data
    assert 0.9 <= data["shm_ratio"] <= 1.1, data


@pytest.mark.torch
def test_text_output_puts_measurement_next_to_estimate(run_cli, tmp_path):
    workers, prefetch, nbytes = CONFIGS[-1]  # 4 workers × 1 at 8 MiB: (4 + 1) × 8 MiB = 40 MiB
    module = _write_loaders(tmp_path, workers, prefetch, nbytes)
    result = run_cli("measure", f"{module}:make", "--batches", "4", "--pause", "1.5", "--step-time", "0.2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "num_workers=4, prefetch_factor=1" in out
    assert "batch    8 MiB" in out
    before = next(line for line in out.splitlines() if line.startswith("/dev/shm before the first batch"))
    assert before.split()[-7:] == ["MiB", "32", "MiB", "W×P", "=", "4", "batches"], before
    peak = next(line for line in out.splitlines() if line.startswith("/dev/shm peak"))
    assert "40 MiB  (W×P + 1) = 5 batches; measured/estimate" in peak, peak
    ratio = float(peak.rsplit(" ", 1)[1])
    assert 0.9 <= ratio <= 1.1, out
    assert "held open by the loader's processes" in out
    assert "main process peak RSS increase" in out


@pytest.mark.torch
def test_without_workers_nothing_goes_to_shared_memory(tmp_path, in_process):
    from dl_lint.measure import run

    _write_loaders(tmp_path, 0, None, 8 * MiB, name="no_workers_loader")
    m = run("no_workers_loader:make", batches=3, pause=0, step_time=0)
    assert (m.num_workers, m.prefetch_factor, m.batch_bytes) == (0, None, 8 * MiB)
    assert m.estimate_shm_bytes == 0 and m.shm_ratio is None
    assert m.shm_peak_bytes < 8 * MiB  # not one batch: the main process loads into private memory


@pytest.mark.torch
def test_batch_nbytes_walks_containers():
    import torch
    from dl_lint.measure import batch_nbytes

    batch = {
        "image": torch.zeros(2, 3, dtype=torch.float32),
        "meta": [torch.zeros(4, dtype=torch.int64), ("x", 3)],
    }
    assert batch_nbytes(batch) == 2 * 3 * 4 + 4 * 8
    assert batch_nbytes((torch.zeros(5, dtype=torch.uint8),)) == 5
    assert batch_nbytes("text") == 0


@pytest.mark.parametrize(
    "target, message",
    [
        ("no_colon", "expected MODULE:FUNCTION"),
        ("surely_not_a_module_xyz:make", "cannot import 'surely_not_a_module_xyz'"),
        ("errs_loader:make", "calling errs_loader:make() failed: ValueError: prefetch_factor"),
        ("errs_loader:not_a_loader", "returned list, not a torch.utils.data.DataLoader"),
        ("errs_loader:missing", "has no attribute 'missing'"),
    ],
)
@pytest.mark.torch
def test_bad_targets_raise_one_line_errors(tmp_path, in_process, target, message):
    from dl_lint.measure import run

    _write_loaders(tmp_path, 0, 2, MiB, name="errs_loader")  # torch rejects prefetch_factor without workers
    with pytest.raises(MeasureError) as info:
        run(target, batches=1, pause=0, step_time=0)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_without_torch_says_how_to_install_it(run_cli, tmp_path):
    fake = tmp_path / "no_torch" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'torch'\")\n")
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(fake.parent), os.environ.get("PYTHONPATH")]))}
    result = run_cli("measure", "anything:make", env=env)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "dl-lint: error: dl-lint measure needs torch (dl-lint's `runtime` extra), which is not installed: "
        "pip install torch"
    )
