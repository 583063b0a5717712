"""The memory model (dl_lint/estimate.py) and the `dl-lint estimate` command."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from dl_lint import estimate
from dl_lint.estimate import (
    DTYPE_ITEMSIZE,
    LoaderPlan,
    SampleField,
    batch_tensor_bytes,
    docker_shm_size,
    grid,
    next_power_of_two,
    parse_sample,
    recommend,
)

KiB, MiB, GiB = 1024, 1024**2, 1024**3


# ------------------------------------------------------------------------------- the model


def test_seed_example_four_workers_prefetch_two_at_64mib():
    """The article's worked example: 4 workers × prefetch 2 = 8 batches = 512 MiB prefetched."""
    plan = LoaderPlan(num_workers=4, prefetch_factor=2, batch_bytes=64 * MiB)
    assert plan.prefetched_batches() == 8
    assert plan.prefetched_bytes() == 512 * MiB
    assert plan.held_bytes() == 64 * MiB
    assert plan.pinned_bytes() == 0
    assert plan.total_bytes() == 576 * MiB
    assert plan.shm_batches() == 9  # measured: W×P + 1 while the loop runs
    assert plan.shm_bytes() == 576 * MiB


def test_prefetch_factor_none_means_torchs_two_and_nothing_without_workers():
    assert LoaderPlan(4, None, MiB).prefetched_batches() == 8
    assert LoaderPlan(4, None, MiB).effective_prefetch_factor == 2
    plan = LoaderPlan(0, None, 10 * MiB)
    assert plan.prefetched_batches() == 0
    assert plan.shm_bytes() == 0  # loaded in the main process: nothing in /dev/shm
    assert plan.total_bytes() == plan.held_bytes() == 10 * MiB


def test_plan_agrees_with_the_functions_dl101_uses():
    for workers, prefetch in [(1, None), (2, 1), (4, 2), (8, 4), (16, 8)]:
        plan = LoaderPlan(workers, prefetch, 3 * MiB)
        assert plan.prefetched_batches() == estimate.inflight_batches(workers, prefetch)
        assert plan.shm_bytes() == estimate.peak_bytes(workers, prefetch, 3 * MiB)


@pytest.mark.parametrize(
    "n, expected",
    [(0, 0), (1, 1), (2, 2), (3, 4), (4096, 4096), (4097, 8192), (19267584, 32 * MiB), (64 * MiB, 64 * MiB)],
)
def test_next_power_of_two(n, expected):
    assert next_power_of_two(n) == expected


def test_pinned_copies_round_each_tensor_up_to_a_power_of_two():
    # 32 images of 3x224x224 float32 (18.4 MiB) and 32 int64 labels (256 B).
    tensors = batch_tensor_bytes(32, [SampleField((3, 224, 224), "float32"), SampleField((), "int64")])
    assert tensors == (19267584, 256)
    plan = LoaderPlan.from_tensors(4, 2, tensors, pin_memory=True)
    assert plan.batch_bytes == 19267584 + 256
    assert plan.pinned_batch_bytes() == 32 * MiB + 256  # per tensor, not the sum rounded
    assert plan.pinned_batches() == 8  # up to one pinned copy per prefetched batch
    assert plan.pinned_bytes() == 8 * (32 * MiB + 256)
    assert plan.total_bytes() == 9 * plan.batch_bytes + plan.pinned_bytes()
    assert plan.shm_bytes() == 9 * plan.batch_bytes  # pinned memory is not in /dev/shm
    assert plan.replace(pin_memory=False).pinned_bytes() == 0


def test_single_tensor_assumed_when_only_batch_bytes_is_known():
    plan = LoaderPlan(1, 1, 3 * MiB + 1, pin_memory=True)
    assert plan.pinned_batch_bytes() == 4 * MiB


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(num_workers=-1, prefetch_factor=None, batch_bytes=1),
        dict(num_workers=2, prefetch_factor=0, batch_bytes=1),
        dict(num_workers=2, prefetch_factor=1, batch_bytes=-1),
        dict(num_workers=2, prefetch_factor=1, batch_bytes=10, tensor_bytes=(3, 4)),
    ],
)
def test_plan_rejects_impossible_values(kwargs):
    with pytest.raises(ValueError):
        LoaderPlan(**kwargs)


# --------------------------------------------------------------------------- sample specs


@pytest.mark.parametrize(
    "spec, shape, dtype",
    [
        ("3x224x224:float32", (3, 224, 224), "float32"),
        (":int64", (), "int64"),
        ("224x224", (224, 224), "float32"),
        ("10:uint8", (10,), "uint8"),
        ("2x2:torch.bfloat16", (2, 2), "bfloat16"),
        ("4:long", (4,), "int64"),
        (" 16 x 16 : Half ", (16, 16), "float16"),
    ],
)
def test_parse_sample(spec, shape, dtype):
    assert parse_sample(spec) == SampleField(shape, dtype)


@pytest.mark.parametrize("spec", ["", "3xAx2:float32", "3x3:float8", "3x-1:int8", "3,3:int8", "x3:int8"])
def test_parse_sample_rejects(spec):
    with pytest.raises(ValueError):
        parse_sample(spec)


def test_field_batch_bytes():
    assert parse_sample("3x224x224:float32").batch_bytes(32) == 32 * 3 * 224 * 224 * 4
    assert parse_sample(":int64").batch_bytes(32) == 256
    assert parse_sample("8:complex128").batch_bytes(2) == 2 * 8 * 16
    with pytest.raises(ValueError):
        batch_tensor_bytes(0, [parse_sample(":int64")])


@pytest.mark.torch
def test_dtype_sizes_match_torch():
    import torch  # an oracle like tests/test_oracle.py
    for name, size in DTYPE_ITEMSIZE.items():
        assert torch.empty((), dtype=getattr(torch, name)).element_size() == size, name


# ---------------------------------------------------------------------------------- grid


def test_grid_cells_and_marks():
    plan = LoaderPlan(4, 2, 64 * MiB)
    cells = grid(plan, budget=1 * GiB, shm_available=300 * MiB)
    assert [(c.num_workers, c.prefetch_factor) for c in cells] == [(0, None)] + [
        (w, p) for w in (1, 2, 4, 8, 16) for p in (1, 2, 4)
    ]
    by = {(c.num_workers, c.prefetch_factor): c for c in cells}
    assert by[(0, None)].total_bytes == 64 * MiB and by[(0, None)].shm_bytes == 0
    assert by[(0, None)].fits
    assert by[(2, 1)].total_bytes == 3 * 64 * MiB and by[(2, 1)].fits  # 192 MiB
    assert by[(4, 1)].fits_shm is False and by[(4, 1)].fits_budget is True  # 320 MiB of /dev/shm
    assert by[(16, 4)].total_bytes == 65 * 64 * MiB and by[(16, 4)].fits_budget is False
    assert not by[(16, 4)].fits


def test_grid_without_limits_marks_nothing():
    cells = grid(LoaderPlan(2, 2, MiB))
    assert all(c.fits_budget is None and c.fits_shm is None and c.fits for c in cells)


def test_grid_counts_pinned_copies():
    cells = grid(LoaderPlan(1, 1, 3 * MiB, pin_memory=True))
    by = {(c.num_workers, c.prefetch_factor): c for c in cells}
    assert by[(2, 2)].total_bytes == 5 * 3 * MiB + 4 * 4 * MiB


# ------------------------------------------------------------------------ recommendations


def test_recommend_without_limits_gives_the_balanced_start():
    rec = recommend(LoaderPlan(8, 4, 64 * MiB))
    assert rec.situation == "no-limits"
    assert (rec.num_workers, rec.prefetch_factor, rec.persistent_workers) == (2, 1, False)


def test_tight_lowers_prefetch_factor_first_and_keeps_the_workers():
    rec = recommend(LoaderPlan(4, 4, 64 * MiB), budget=400 * MiB)
    assert rec.situation == "tight"
    assert (rec.num_workers, rec.prefetch_factor) == (4, 1)
    assert rec.total_bytes == 320 * MiB
    assert "prefetch_factor" in rec.steps[0]


def test_tight_keeps_the_largest_prefetch_factor_that_fits():
    rec = recommend(LoaderPlan(4, 4, 64 * MiB), budget=600 * MiB)
    assert (rec.num_workers, rec.prefetch_factor) == (4, 2)  # 576 MiB


def test_tight_then_drops_pinning_when_the_budget_is_the_limit():
    plan = LoaderPlan(4, 1, 64 * MiB, pin_memory=True)  # 320 MiB + 4 pinned copies = 576 MiB
    rec = recommend(plan, budget=400 * MiB)
    assert (rec.num_workers, rec.prefetch_factor, rec.pin_memory) == (4, 1, False)
    assert any("pin_memory=False" in s for s in rec.steps)


def test_tight_then_fewer_workers_at_prefetch_one():
    rec = recommend(LoaderPlan(8, 2, 64 * MiB), budget=300 * MiB)
    assert (rec.num_workers, rec.prefetch_factor) == (3, 1)  # (3 + 1) × 64 MiB = 256 MiB
    assert rec.total_bytes <= 300 * MiB


def test_dockers_64mib_shm_leads_to_zero_workers_or_a_bigger_shm():
    rec = recommend(
        LoaderPlan(4, 2, 64 * MiB, persistent_workers=True), budget=8 * GiB, shm_available=64 * MiB
    )
    assert rec.situation == "tight"
    assert rec.num_workers == 0 and rec.shm_bytes == 0 and rec.persistent_workers is False
    assert any("--shm-size=720m" in s for s in rec.steps)


def test_when_even_one_batch_is_too_big_say_so():
    rec = recommend(LoaderPlan(2, 1, 64 * MiB), budget=32 * MiB)
    assert rec.num_workers == 0
    assert "smaller batch_size" in rec.steps[-1]


def test_headroom_starts_at_two_by_one_and_says_how_far_to_grow():
    plan = LoaderPlan(4, 1, 64 * MiB)  # 320 MiB: within half of each limit
    rec = recommend(plan, budget=4 * GiB, shm_available=1 * GiB)
    assert rec.situation == "headroom"
    assert (rec.num_workers, rec.prefetch_factor) == (2, 1)
    assert rec.grow_to == 15  # (15 + 1) × 64 MiB = 1 GiB of /dev/shm
    assert recommend(plan, budget=20 * GiB, shm_available=20 * GiB).grow_to == 16  # the grid's largest
    # Over half of the budget is no longer headroom.
    assert recommend(LoaderPlan(4, 2, 64 * MiB), budget=1 * GiB).situation == "fits"
    assert any("pin_memory=True is affordable" in s for s in rec.steps)


def test_fits_with_little_room_keeps_the_plan_and_questions_pinning():
    plan = LoaderPlan(4, 2, 32 * MiB, pin_memory=True, persistent_workers=True)  # 288 + 256 MiB
    rec = recommend(plan, budget=600 * MiB)
    assert rec.situation == "fits"
    assert (rec.num_workers, rec.prefetch_factor, rec.pin_memory) == (4, 2, True)
    assert any("pin_memory=True costs host memory" in s for s in rec.steps)
    assert any("persistent_workers=True keeps workers" in s for s in rec.steps)


def test_docker_shm_size():
    assert docker_shm_size(576 * MiB) == "720m"
    assert docker_shm_size(1 * GiB) == "2g"
    assert docker_shm_size(1) == "1m"


# ---------------------------------------------------------------------------------- CLI

SEED = ["estimate", "--batch-bytes", "64MiB", "--num-workers", "4", "--prefetch-factor", "2"]


def test_cli_text_seed_example(run_cli):
    result = run_cli(*SEED, "--shm", "2GiB", "--budget", "8GiB")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "8 batches (4 workers × prefetch_factor 2)  512 MiB" in out
    assert "1 batch" in out and "64 MiB" in out
    assert "9 batches ((4 × 2 + 1) × 64 MiB)" in out
    assert "576 MiB  available 2 GiB: fits" in out
    assert "budget 8 GiB: fits" in out
    assert "grid: total memory" in out and "recommendation (headroom" in out
    assert "Bus error" not in out


def test_cli_json_seed_example(run_cli):
    result = run_cli(*SEED, "--shm", "64MiB", "--output-format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"inputs", "breakdown", "grid", "recommendation", "notes"}
    assert data["inputs"]["batch_bytes"] == 64 * MiB and data["inputs"]["shm_available"] == 64 * MiB
    assert data["breakdown"]["prefetched_batches"] == 8
    assert data["breakdown"]["prefetched_bytes"] == 512 * MiB
    assert data["breakdown"]["shm_bytes"] == 576 * MiB and data["breakdown"]["fits_shm"] is False
    assert len(data["grid"]) == 16
    assert data["recommendation"]["situation"] == "tight"
    assert any("Bus error" in n and "--shm-size" in n for n in data["notes"])


def test_cli_defaults_two_workers_and_torchs_prefetch(run_cli):
    data = json.loads(run_cli("estimate", "--batch-bytes", "1MiB", "--output-format", "json").stdout)
    assert data["inputs"]["num_workers"] == 2
    assert data["inputs"]["prefetch_factor"] is None and data["inputs"]["effective_prefetch_factor"] == 2
    assert data["breakdown"]["prefetched_bytes"] == 4 * MiB


def test_cli_samples_and_pinning(run_cli):
    result = run_cli(
        "estimate",
        "--batch-size",
        "32",
        "--sample",
        "3x224x224:float32",
        "--sample",
        ":int64",
        "--num-workers",
        "4",
        "--pin-memory",
        "--persistent-workers",
        "--output-format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["inputs"]["tensor_bytes"] == [19267584, 256]
    assert data["breakdown"]["pinned_bytes"] == 8 * (32 * MiB + 256)
    assert any("persistent_workers" in n and "resident" in n for n in data["notes"])


def test_cli_text_warns_about_small_shm(run_cli):
    out = run_cli(*SEED, "--shm", "64MiB").stdout
    assert "available 64 MiB: OVER" in out
    assert "Bus error" in out and "--shm-size=720m" in out


def test_cli_file_mode(run_cli, tmp_path):
    (tmp_path / "train.py").write_text(
        textwrap.dedent(
            """\
            from torch.utils.data import DataLoader

            train = DataLoader(ds, batch_size=32, num_workers=4, prefetch_factor=2)  # dl-lint: batch-bytes=64MiB


            def make(workers):
                return DataLoader(ds, num_workers=workers)


            plain = DataLoader(ds, num_workers=2)
            """
        )
    )
    result = run_cli("estimate", "train.py", "--shm", "1GiB")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "train.py:3: DataLoader(num_workers=4, prefetch_factor=2" in out
    assert "8 batches (4 workers × prefetch_factor 2)  512 MiB" in out
    assert "train.py:7: DataLoader" in out and "num_workers: unknown (`workers`" in out
    assert "no estimate: num_workers not known statically" in out
    assert "train.py:10:" in out and "no estimate: batch bytes unknown" in out

    data = json.loads(run_cli("estimate", "train.py", "--output-format", "json").stdout)
    first, unknown, plain = data["loaders"]
    assert [first["line"], unknown["line"], plain["line"]] == [3, 7, 10]
    assert first["line"] == 3 and first["breakdown"]["prefetched_bytes"] == 512 * MiB
    assert first["inputs"]["batch_bytes_source"].startswith("# dl-lint")
    assert len(first["grid"]) == 16
    assert "num_workers" in unknown["unknown"] and "breakdown" not in unknown
    assert plain["values"]["num_workers"] == 2 and "breakdown" not in plain

    # The option fills in where the comment is missing; the comment still wins on line 3.
    data = json.loads(
        run_cli("estimate", "train.py", "--batch-bytes", "10MiB", "--output-format", "json").stdout
    )
    first, _, plain = data["loaders"]
    assert first["inputs"]["batch_bytes"] == 64 * MiB
    assert plain["inputs"]["batch_bytes"] == 10 * MiB and plain["breakdown"]["prefetched_bytes"] == 40 * MiB


def test_cli_file_mode_reads_batch_bytes_and_budget_from_config(run_cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dl-lint]\nbatch-bytes = "8MiB"\nmemory-budget = "16MiB"\n'
    )
    (tmp_path / "t.py").write_text("import torch\nl = torch.utils.data.DataLoader(ds, num_workers=2)\n")
    data = json.loads(run_cli("estimate", "t.py", "--output-format", "json").stdout)
    (loader,) = data["loaders"]
    assert (
        loader["inputs"]["batch_bytes"] == 8 * MiB
        and loader["inputs"]["batch_bytes_source"] == "batch-bytes setting"
    )
    assert loader["inputs"]["budget"] == 16 * MiB
    assert loader["breakdown"]["total_bytes"] == 40 * MiB and loader["breakdown"]["fits_budget"] is False
    assert loader["recommendation"]["situation"] == "tight"


def test_cli_file_without_loaders(run_cli, tmp_path):
    (tmp_path / "empty.py").write_text("x = 1\n")
    result = run_cli("estimate", "empty.py")
    assert result.returncode == 0 and "no DataLoader calls found" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--batch-bytes", "64XB"], "unknown size unit"),
        (["--batch-bytes", "-5MiB"], "negative"),
        (["--batch-bytes", "0"], "positive"),
        (["--batch-size", "32", "--sample", "3xZ:float32"], "bad shape"),
        (["--batch-size", "32", "--sample", "3x3:float8"], "unknown dtype"),
        (["--batch-size", "32"], "needs --sample"),
        (["--batch-size", "-3", "--sample", ":int64"], "--batch-size"),
        (["--batch-bytes", "1MiB", "--num-workers", "-1"], "--num-workers"),
        (["--batch-bytes", "1MiB", "--num-workers", "two"], "--num-workers"),
        (["--batch-bytes", "1MiB", "--prefetch-factor", "0"], "--prefetch-factor"),
        (
            ["--batch-bytes", "1MiB", "--num-workers", "0", "--prefetch-factor", "2"],
            "needs --num-workers > 0",
        ),
        (["--batch-bytes", "1MiB", "--budget", "-1GiB"], "negative"),
        (["--batch-bytes", "1MiB", "--shm", "lots"], "not a size"),
        (["--batch-bytes", "1MiB", "--batch-size", "2", "--sample", ":int8"], "not both"),
        ([], "give --batch-bytes"),
        (["--output-format", "yaml", "--batch-bytes", "1MiB"], "--output-format"),
        (["missing.py"], "missing.py: cannot read"),
        (["bad.py"], "bad.py: cannot parse"),
        (["ok.py", "--num-workers", "3"], "come from the source"),
    ],
)
def test_cli_errors_are_one_line_exit_2(run_cli, tmp_path, args, message):
    (tmp_path / "bad.py").write_text("def broken(:\n")
    (tmp_path / "ok.py").write_text("x = 1\n")
    result = run_cli("estimate", *args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dl-lint: error: "), result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_importing_the_cli_loads_neither_the_commands_nor_libcst_nor_torch():
    code = (
        "import sys, dl_lint.cli; "
        "print(sorted(m for m in ('dl_lint.estimator_cli', 'dl_lint.measure', 'libcst', 'torch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_estimate_command_loads_no_torch_or_libcst_without_files():
    code = (
        "import sys\n"
        "from dl_lint.cli import main\n"
        "try:\n"
        "    main(['estimate', '--batch-bytes', '1MiB'], standalone_mode=False)\n"
        "finally:\n"
        "    print(sorted(m for m in ('libcst', 'torch') if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_help_lists_the_commands_and_measure_warns_it_runs_code(run_cli):
    top = run_cli("--help").stdout
    assert "estimate" in top and "measure" in top
    help_text = run_cli("measure", "--help").stdout
    assert "IMPORTS AND RUNS YOUR CODE" in help_text
    assert "Needs torch (dl-lint's `runtime` extra): pip install torch." in " ".join(help_text.split())
    assert "--batch-bytes" in run_cli("estimate", "-h").stdout


def test_estimate_reads_a_function_returning_parse_known_args(tmp_path):
    """``args, _ = parser.parse_known_args(); return args`` in a project module: the summary's
    construction reader took the parse marker (a node with no line) for a construction and
    ``dl-lint estimate .`` ended in a traceback (apex's tests/L0/run_test.py)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "runner.py").write_text(
        "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--x', type=int, default=1)\n    args, _ = parser.parse_known_args()\n    return args\n"
    )
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\n\nloader = DataLoader([1.0] * 8, batch_size=4, num_workers=2)\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "dl_lint", "estimate", "."], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "train.py:3" in done.stdout
