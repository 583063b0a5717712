"""One source of a batch's bytes (dl_lint/analysis/batches.py): `dl-lint estimate` and the rules
agree on every fixture of tests/data/batches, each estimate kind is checked against the bytes of a
batch built with real torch, and the negatives stay unknown. A measured figure is remembered in
dl-lint-measured.json and goes stale when the loader call changes.

torchvision, timm and librosa are not installed beside torch 2.13 here (torchvision from PyPI
does not run with it), so for their image fixtures the batch is built with torch as the transforms'
documented output: ToTensor a float32 C×H×W, PILToTensor/ToImage the image's uint8, ToDtype the
dtype asked; RandomResizedCrop/CenterCrop/Resize of a pair the (h, w) given; timm's
create_transform ends in ToTensor + Normalize at input_size. albumentations 2.0.8 is installed (a
test dependency): the pipelines a dataset builds in ``__init__`` run for real; the
albumentations_pipeline fixture is written in the 1.x spelling (``RandomResizedCrop(height=,
width=)``, which 2.x no longer takes), so its batch is the documented output: Normalize makes
float32 and ToTensorV2 C×H×W. The tokenizer fixture gets a stand-in returning a tokenizer's documented output for
padding="max_length", return_tensors="pt" (a (1, max_length) int64 per field). The numpy, token-slice and tensor fixtures run their own
dataset classes through a real DataLoader."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from dl_lint.config import format_size
from dl_lint.engine import lint_paths

DATA = Path(__file__).parent / "data" / "batches"
FIXTURES = Path(__file__).parent.parent / "fixtures" / "rules"
KNOWN = ["rand_tensor", "numpy_arrays", "token_slices", "tokenizer_padded", "image_transform", "image_v2", "timm_transform", "albumentations_pipeline", "collate_padded", "audio_crops", "albumentations_init", "wrapper_dataset", "multi_view"]


def _project(tmp_path, *names, budget="1B"):
    for name in names:
        shutil.copy(DATA / f"{name}.py", tmp_path / f"{name}.py")
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "demo"\n\n[tool.dl-lint]\nmemory-budget = "{budget}"\n')
    return tmp_path


def _estimates(run_cli, *args):
    result = run_cli("estimate", *args, "--output-format", "json", "--shm", "1TiB")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["loaders"]


def _batch_bytes(batch) -> int:
    import torch

    if isinstance(batch, torch.Tensor):
        return batch.element_size() * batch.nelement()
    if isinstance(batch, dict):
        return sum(_batch_bytes(v) for v in batch.values())
    if isinstance(batch, (list, tuple)):
        return sum(_batch_bytes(v) for v in batch)
    raise AssertionError(f"not a tensor: {type(batch)}")


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _first_batch(loader):
    """The first batch of the loader's dataset, collated as the loader does, in this process."""
    from torch.utils.data import DataLoader

    return next(iter(DataLoader(loader.dataset, batch_size=loader.batch_size, collate_fn=loader.collate_fn)))


def _torch_bytes(name: str, tmp_path: Path) -> list:
    """The bytes of a batch of each loader of a fixture, with real torch (see the module doc)."""
    import numpy as np
    import torch

    if name in ("rand_tensor", "numpy_arrays", "collate_padded"):
        return [_batch_bytes(_first_batch(_import(tmp_path / f"{name}.py").make()))]
    if name == "wrapper_dataset":  # the wrappers built on the real inner dataset, collated by torch
        module = _import(tmp_path / f"{name}.py")
        return [_batch_bytes(_first_batch(module.make())), _batch_bytes(_first_batch(module.make_pairs()))]
    if name == "albumentations_init":
        return _albumentations_init_bytes(tmp_path)
    if name == "token_slices":
        np.arange(10_000, dtype=np.uint16).tofile(tmp_path / "train.bin")
        module = _import(tmp_path / f"{name}.py")
        return [_batch_bytes(_first_batch(make(str(tmp_path / "train.bin")))) for make in (module.make, module.make_default)]
    if name == "tokenizer_padded":
        class Tokenizer:  # a tokenizer's documented output for padding="max_length", return_tensors="pt"
            def __call__(self, text, padding, max_length, truncation, return_tensors):
                ids = torch.zeros(1, max_length, dtype=torch.long)
                return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}

        return [_batch_bytes(_first_batch(_import(tmp_path / f"{name}.py").make(Tokenizer())))]
    # torchvision / timm: tensors of the transforms' documented output shapes and dtypes
    documented = {
        "image_transform": [[torch.empty(64, 3, 224, 224)]],
        "image_v2": [[torch.empty(16, 1, 240, 300, dtype=torch.float16)], [torch.empty(16, 1, 64, 64, dtype=torch.uint8)]],
        "timm_transform": [[torch.empty(32, 3, 192, 256), torch.zeros(32, dtype=torch.long)]],
        # A.Normalize gives float32 H×W×C, ToTensorV2 transposes to C×H×W; the index collates to int64
        "albumentations_pipeline": [[torch.empty(24, 3, 256, 320), torch.zeros(24, dtype=torch.long)]],
        # a multi-view transform's list of views collates to a list of B×C×H×W tensors (each
        # view ToTensor's float32 at its crop's size), the label to int64
        "multi_view": [
            [torch.empty(256, 3, 32, 32), torch.empty(256, 3, 32, 32), torch.zeros(256, dtype=torch.long)],
            [torch.empty(64, 3, 32, 32), torch.empty(64, 3, 32, 32), torch.zeros(64, dtype=torch.long)],
            [torch.empty(32, 3, 224, 224), torch.empty(32, 3, 224, 224), torch.empty(32, 3, 96, 96), torch.zeros(32, dtype=torch.long)],
        ],
        # librosa.load returns a float32 mono waveform (librosa/core/audio.py, commit 001cd58d): a
        # crop of N samples collates to (batch, N) float32; the index to int64
        "audio_crops": [[torch.empty(16, 32000)], [torch.empty(8, 22050 * 3), torch.zeros(8, dtype=torch.long)]],
    }
    return [_batch_bytes(b) for b in documented[name]]


@contextlib.contextmanager
def _albumentations():
    """The real albumentations (2.0.8, a test dependency since DL202 reads its ``Lambda``),
    without its update check against PyPI at import."""
    import os

    saved = os.environ.get("NO_ALBUMENTATIONS_UPDATE")
    os.environ["NO_ALBUMENTATIONS_UPDATE"] = "1"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["NO_ALBUMENTATIONS_UPDATE"]
        else:
            os.environ["NO_ALBUMENTATIONS_UPDATE"] = saved


def _images(tmp_path: Path, height: int, width: int, labels: int):
    """Three images (RGB, L and RGBA: the mode check converts the last two) and label maps."""
    import numpy as np
    from PIL import Image

    images, maps = [], []
    for n, mode in enumerate(("RGB", "L", "RGBA")):
        image = tmp_path / f"image{n}.png"
        Image.fromarray(np.random.randint(0, 256, (height + n, width, 3), dtype=np.uint8)).convert(mode).save(image)
        label_map = tmp_path / f"labels{n}.png"
        Image.fromarray(np.random.randint(0, labels, (height, width + n), dtype=np.uint8)).save(label_map)
        images.append(str(image))
        maps.append(str(label_map))
    return images, maps


def _albumentations_init_bytes(tmp_path: Path) -> list:
    images, maps = _images(tmp_path, 300, 280, 7)  # labels under every n_labels of the fixture
    with _albumentations():
        loaders = _import(tmp_path / "albumentations_init.py").make(images * 2, maps * 2)
        return [_batch_bytes(_first_batch(loader)) for loader in loaders]


@pytest.mark.torch  # a real sample of the fixture, collated by torch
def test_an_albumentations_one_hot_goes_over_the_default_budget(tmp_path, run_cli, monkeypatch):
    """fixtures/rules/dl101_albumentations.py (the taming-transformers family): DL101 reports the
    taming-like loader with the estimated figure, `dl-lint estimate` gives the same bytes, and
    they are batch_size × the bytes of a sample default_collate builds from the fixture's own
    numpy code (a real batch of 12 would take 1.1 GiB: two samples are collated)."""
    from torch.utils.data import default_collate

    from dl_lint.config import parse_size

    shutil.copy(FIXTURES / "dl101_albumentations.py", tmp_path / "dl101_albumentations.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    monkeypatch.chdir(tmp_path)
    estimates = {e["line"]: e for e in _estimates(run_cli, "dl101_albumentations.py")}
    [diag] = lint_paths(["dl101_albumentations.py"], overrides={"select": ["DL101"]}).diagnostics
    assert "53 GiB at the peak, over the 8 GiB budget" in diag.message
    assert "256×256×3 float32 + 256×256×183 float64" in diag.detail
    taming_like = estimates[diag.location.row]
    assert taming_like["batch_bytes"] == 12 * (256 * 256 * 3 * 4 + 256 * 256 * 183 * 8)
    assert _FIGURE.search(diag.detail).group(1) == format_size(taming_like["batch_bytes"])
    assert [e["batch_bytes"] is None for e in estimates.values()] == [False, False, True]
    images, maps = _images(tmp_path, 300, 280, 183)
    with _albumentations():
        module = _import(tmp_path / "dl101_albumentations.py")
        for size, line in ((256, diag.location.row), (64, diag.location.row + 2)):
            dataset = module.Segmentations(images, maps, size=size)
            two = _batch_bytes(default_collate([dataset[0], dataset[1]]))
            assert estimates[line]["batch_bytes"] == 12 * two // 2
    assert parse_size("8GiB") < 49 * taming_like["batch_bytes"]


@pytest.mark.torch  # the estimates are checked against batches torch builds
@pytest.mark.parametrize("name", KNOWN)
def test_each_estimate_kind_matches_a_real_batch_within_one_percent(name, tmp_path, run_cli, monkeypatch):
    project = _project(tmp_path, name)
    monkeypatch.chdir(project)
    estimates = _estimates(run_cli, f"{name}.py")
    expected = _torch_bytes(name, project)
    assert len(estimates) == len(expected)
    for est, real in zip(estimates, expected):
        assert est["batch_bytes_kind"] == "estimated", est
        assert abs(est["batch_bytes"] - real) <= 0.01 * real, (est["batch_bytes"], real)


def test_negatives_stay_unknown(tmp_path, run_cli, monkeypatch):
    project = _project(tmp_path, "unknown")
    monkeypatch.chdir(project)
    estimates = _estimates(run_cli, "unknown.py")
    assert len(estimates) == 26
    for est in estimates:
        assert est["batch_bytes"] is None and est["batch_bytes_kind"] is None, est
        assert est["batch_bytes_unknown_because"]
    # and the rules say nothing about bytes they do not know (budget 1 byte)
    result = lint_paths([str(project / "unknown.py")], overrides={"select": ["DL101"]})
    assert result.diagnostics == []


@pytest.mark.torch  # the fixture's own multi-view transform class, run by torch's collation
def test_a_multi_view_transform_makes_one_tensor_per_view(tmp_path):
    """The TwoCropTransform of tests/data/batches/multi_view.py, given a stand-in for the
    torchvision transform that returns ToTensor's documented output (a float32 3×H×W), makes a
    sample default_collate turns into the bytes the estimate adds up (two views and a label)."""
    import torch
    from torch.utils.data import default_collate

    source = (DATA / "multi_view.py").read_text()
    classes = source[source.index("class TwoCropTransform") : source.index("class Images")]
    namespace: dict = {}
    exec(compile(classes, "multi_view.py", "exec"), namespace)

    def crop(size):
        return lambda image: torch.empty(3, size, size)

    two = namespace["TwoCropTransform"](crop(32))
    batch = default_collate([(two(object()), 0) for _ in range(64)])
    assert _batch_bytes(batch) == 64 * (2 * 3 * 32 * 32 * 4 + 8)
    three = namespace["GlobalLocal"](crop(224), crop(96))
    batch = default_collate([(three(object()), 0) for _ in range(32)])
    assert _batch_bytes(batch) == 32 * (2 * 3 * 224 * 224 * 4 + 3 * 96 * 96 * 4 + 8)


@pytest.mark.parametrize("name,count", [("wrapper_unknown", 7), ("views_unknown", 7)])
def test_wrappers_that_change_or_add_to_their_inner_dataset_stay_unknown(name, count, tmp_path, run_cli, monkeypatch):
    """tests/data/batches/wrapper_unknown.py: a wrapper setting the inner dataset's transform or calling a method of it, a key the inner
    sample lacks, a slice, a key of a tuple sample, an inner dataset of unknown samples.
    views_unknown.py: a view that is the untransformed image, views made in a comprehension, a
    __call__ doing more, a view of Resize(256) (the smaller edge only), a RandomApply of a crop."""
    project = _project(tmp_path, name)
    monkeypatch.chdir(project)
    estimates = _estimates(run_cli, f"{name}.py")
    assert len(estimates) == count
    for est in estimates:
        assert est["batch_bytes"] is None and est["batch_bytes_unknown_because"], est
    assert lint_paths([f"{name}.py"], overrides={"select": ["DL101"]}).diagnostics == []


_FIGURE = re.compile(r"At (?:least )?([0-9.]+ [KMG]?i?B) a batch")


@pytest.mark.parametrize("name", KNOWN + ["unknown", "wrapper_unknown", "views_unknown", "lower_bounds"])
def test_estimate_and_the_rules_agree(name, tmp_path, run_cli, monkeypatch):
    """DL101 with a 1-byte budget reports every loader whose bytes are known, with the figure; the
    estimate command gives the same figure, and none where the rule is silent."""
    project = _project(tmp_path, name)
    monkeypatch.chdir(project)
    estimates = {e["line"]: e for e in _estimates(run_cli, f"{name}.py")}
    result = lint_paths([f"{name}.py"], overrides={"select": ["DL101"]})
    reported = {}
    for diag in result.diagnostics:
        match = _FIGURE.search(diag.detail)
        assert match, diag.detail
        reported[diag.location.row] = match.group(1)
    for line, est in estimates.items():
        if est["batch_bytes"] is None:
            assert not any(est["line"] <= row <= est["line"] + 2 for row in reported), (line, reported)
        else:
            row = next(r for r in reported if line <= r <= line + 2)
            assert reported[row] == format_size(est["batch_bytes"])
    assert len(reported) == sum(1 for e in estimates.values() if e["batch_bytes"] is not None)


@pytest.mark.torch  # dl-lint measure runs the loader
def test_a_measured_figure_is_used_then_reported_stale_when_the_call_changes(tmp_path, run_cli, monkeypatch):
    project = _project(tmp_path, "rand_tensor")
    monkeypatch.chdir(project)
    result = run_cli("measure", "rand_tensor:make", "--batches", "1", "--pause", "0", "--step-time", "0", "--output-format", "json")
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout)
    record = json.loads((project / "dl-lint-measured.json").read_text())
    [entry] = record["loaders"]
    assert entry["path"] == "rand_tensor.py" and entry["line"] == 15 and entry["batch_bytes"] == measured["batch_bytes"]
    # lines added above the call do not matter: the fingerprint finds it
    source = (project / "rand_tensor.py").read_text()
    (project / "rand_tensor.py").write_text("# a comment\n\n" + source)
    [est] = _estimates(run_cli, "rand_tensor.py")
    assert est["batch_bytes_kind"] == "measured" and est["batch_bytes"] == measured["batch_bytes"]
    [diag] = lint_paths(["rand_tensor.py"], overrides={"select": ["DL101"]}).diagnostics
    assert "as measured" in diag.detail and format_size(measured["batch_bytes"]) in diag.detail
    # another batch_size: the record is stale, the estimate from the code is used and says so
    (project / "rand_tensor.py").write_text(source.replace("batch_size=128", "batch_size=64"))
    [est] = _estimates(run_cli, "rand_tensor.py")
    assert est["batch_bytes_kind"] == "estimated" and est["batch_bytes"] == 64 * (3 * 224 * 224 * 4 + 8)
    assert "changed since it was measured" in est["stale"]
    [diag] = lint_paths(["rand_tensor.py"], overrides={"select": ["DL101"]}).diagnostics
    assert "changed since it was measured" in diag.detail


def test_parts_of_unknown_size_give_a_lower_bound(tmp_path, run_cli, monkeypatch):
    """tests/data/batches/lower_bounds.py: a label looked up in a list beside a fixed-size image, a
    wrapper's field of unknown size beside the inner dataset's image. Those parts count as 0
    bytes: the figure is the known parts' (a lower bound), the estimate says so, and DL101 says
    "at least" (1-byte budget)."""
    project = _project(tmp_path, "lower_bounds")
    monkeypatch.chdir(project)
    estimates = _estimates(run_cli, "lower_bounds.py")
    assert [(e["batch_bytes"], e["batch_bytes_lower_bound"]) for e in estimates] == [
        (8 * 3 * 224 * 224 * 4, True),
        (8 * 3 * 64 * 64 * 4, True),
    ]
    result = lint_paths(["lower_bounds.py"], overrides={"select": ["DL101"]})
    assert len(result.diagnostics) == 2
    assert all("at least" in d.message and "not counted: the figure is a lower bound" in d.detail for d in result.diagnostics)


def test_a_subclass_built_without_arguments_keeps_its_bases_estimate(tmp_path, run_cli, monkeypatch):
    """The negatives' SameBlocks(n=32) and RenamedBlocks(50) stay unknown (their arguments reach
    Blocks's __init__ through a signature not read: Blocks's default n=64 would be a wrong
    figure); SameBlocks() built without arguments is Blocks's default sample."""
    project = _project(tmp_path, "unknown")
    (project / "unknown.py").write_text((project / "unknown.py").read_text() + "\nt = DataLoader(SameBlocks(), batch_size=8, num_workers=2)\n")
    monkeypatch.chdir(project)
    estimates = _estimates(run_cli, "unknown.py")
    assert [e["batch_bytes"] for e in estimates if e["batch_bytes"] is not None] == [8 * 64 * 4]


def test_estimate_over_a_folder_prints_one_row_per_loader(tmp_path, run_cli, monkeypatch):
    project = _project(tmp_path, "rand_tensor", "unknown")
    monkeypatch.chdir(project)
    out = run_cli("estimate", ".", "--shm", "1GiB").stdout
    rows = [line for line in out.splitlines() if re.match(r"\S+\.py:\d+ ", line)]
    assert len(rows) == 27
    assert any("73.5 MiB" in r and "661.5 MiB" in r and "estimated" in r for r in rows)
    assert "1 of 27 loaders with workers have known batch bytes" in out


def test_the_results_cache_redoes_a_loader_when_its_measured_figure_changes(tmp_path, monkeypatch):
    from dl_lint import remember

    project = _project(tmp_path, "rand_tensor")
    monkeypatch.chdir(project)
    lines = (project / "rand_tensor.py").read_text().splitlines()
    entry = {"path": "rand_tensor.py", "line": 15, "scope": "make", "batch_bytes": 3 * 2**20, "target": "", "torch": ""}
    entry["fingerprint"] = remember.fingerprint(lines, (15, 15), "make")

    def figure():
        [diag] = lint_paths(["rand_tensor.py"], overrides={"select": ["DL101"]}, cache=True).diagnostics
        return _FIGURE.search(diag.detail).group(1)

    assert figure() == "73.5 MiB"  # estimated
    remember.write(str(project), entry)
    assert figure() == "3 MiB"  # measured, though the Python file did not change
    remember.write(str(project), {**entry, "batch_bytes": 5 * 2**20})
    assert figure() == "5 MiB"


def test_an_albumentations_pipeline_listing_another_many_times_is_read_once_per_attribute(tmp_path, run_cli, monkeypatch):
    """self.p2 = Compose([self.p1] * 200), self.p1 = Compose([self.p0] * 200): each attribute's
    step is run once per state, not once per path to it (was 200² runs of p0's step, each
    walking the class: 60 s for a 4.5 KB file)."""
    import time

    def listing(attr):
        return ", ".join([attr] * 200)

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    (tmp_path / "train.py").write_text(
        "import albumentations\n"
        "import numpy as np\n"
        "from PIL import Image\n"
        "from torch.utils.data import DataLoader, Dataset\n\n\n"
        "class Crops(Dataset):\n"
        "    def __init__(self, paths):\n"
        "        self.paths = paths\n"
        "        self.p0 = albumentations.Compose([albumentations.CenterCrop(height=64, width=64)])\n"
        f"        self.p1 = albumentations.Compose([{listing('self.p0')}])\n"
        f"        self.p2 = albumentations.Compose([{listing('self.p1')}])\n\n"
        "    def __len__(self):\n"
        "        return len(self.paths)\n\n"
        "    def __getitem__(self, i):\n"
        "        image = np.array(Image.open(self.paths[i]).convert('RGB')).astype(np.uint8)\n"
        "        return {'image': (self.p2(image=image)['image'] / 127.5 - 1.0).astype(np.float32)}\n\n\n"
        "loader = DataLoader(Crops([]), batch_size=12, num_workers=24)\n"
    )
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    [estimate] = _estimates(run_cli, "train.py")
    assert time.monotonic() - started < 15
    assert estimate["batch_bytes"] == 12 * 64 * 64 * 3 * 4


_PEAK = re.compile(r"= (\d+) batches(?: in shared memory)?[,:] (?:at least )?([0-9.]+ [KMG]?i?B) at the peak")


def _two_sample_bytes(dataset, batch_size: int) -> int:
    """The bytes of a batch of ``batch_size`` samples, from two samples collated by torch."""
    from torch.utils.data import default_collate

    return batch_size * _batch_bytes(default_collate([dataset[0], dataset[1]])) // 2


@pytest.mark.torch  # every path's batch is built by torch from the fixture's own dataset classes
def test_every_path_of_a_conditional_dataset_or_batch_size_is_judged_with_its_own_bytes(monkeypatch):
    """fixtures/rules/dl101_every_path.py: DL101 reports a loader only when the real peak of every
    flag combination is over 8 GiB, and the figure it cites is the smallest of them; the loaders it
    leaves silent have a combination within the budget (or a dataset whose bytes are unknown)."""
    from dl_lint import inflight

    path = FIXTURES / "dl101_every_path.py"
    diags = {d.location.row: d for d in lint_paths([str(path)], overrides={"select": ["DL101"]}).diagnostics}
    rows = {name: n for n, line in enumerate(path.read_text().splitlines(), 1) for name in [line.split(" = DataLoader(")[0]] if " = DataLoader(" in line}
    peaks: dict = {}
    for flags in ([], ["--big"], ["--debug"], ["--big", "--debug"]):
        monkeypatch.setattr(sys, "argv", ["train.py", *flags])
        module = _import(path)
        for name in rows:
            loader = getattr(module, name)
            if type(loader.dataset).__name__ == "Unknown":
                peaks.setdefault(name, []).append(None)
                continue
            bytes_ = _two_sample_bytes(loader.dataset, loader.batch_size)
            peaks.setdefault(name, []).append(inflight.peak_bytes(loader.num_workers, loader.prefetch_factor, bytes_))
    budget = 8 * 2**30
    for name, row in rows.items():
        real = peaks[name]
        if row in diags:
            assert None not in real and min(real) > budget, (name, real)
            assert _PEAK.search(diags[row].message).group(2) == format_size(min(real)), (name, diags[row].message)
        else:
            assert None in real or min(real) <= budget, (name, real)
    assert sorted(diags) == sorted(rows[n] for n in ("both_over", "two_datasets"))


@pytest.mark.torch  # each run's batch is built by torch from the fixture's dataset
@pytest.mark.parametrize("fixture,module,dataset", [("dl101_config_runs", "data/datasets.py", "Images"), ("dl101_config_runs_script", "train.py", "Crops")])
def test_each_config_run_is_judged_with_its_own_values(fixture, module, dataset):
    """fixtures/rules/dl101_config_runs*: DL101 reports exactly the config files whose own
    (batch_size, num_workers, prefetch_factor) peak, with a batch torch builds, is over 8 GiB, at
    that file's line, with the figure of that file's values (never another file's mixed in)."""
    import yaml

    from dl_lint import inflight

    root = FIXTURES / fixture
    built = getattr(_import(root / module), dataset)()
    over = {}
    for config in sorted((root / "configs").glob("*.y*ml")):
        values = yaml.safe_load(config.read_text())
        workers = values["num_workers"]
        peak = inflight.peak_bytes(workers, values.get("prefetch_factor"), _two_sample_bytes(built, values["batch_size"]))
        if workers > 0 and peak > 8 * 2**30:
            over[config.name] = peak
    diags = lint_paths([str(root)]).diagnostics
    assert sorted(Path(d.filename).name for d in diags) == sorted(over) and len(over) >= 2
    for diag in diags:
        assert _PEAK.search(diag.message).group(2) == format_size(over[Path(diag.filename).name])
        assert any("DataLoader" in r.note and r.path.endswith(".py") for r in diag.related)  # the loader
        # the batch_size this run's figure used is cited at this file's own line
        assert any(r.path == str(Path(diag.filename).resolve()) and r.note.startswith("batch_size=") for r in diag.related)


def test_a_transform_chosen_by_a_condition_is_read_when_every_choice_makes_the_same_tensors(tmp_path, run_cli, monkeypatch):
    """tests/data/batches/chosen_transform.py: two ``Compose`` pipelines chosen by ``--aug``, each
    cropping to 224 and ending in ToTensor (a float32 3×224×224, torchvision's documented output):
    the ImageFolder sample is known whichever runs; a choice between 224 and 96 stays unknown."""
    shutil.copy(DATA / "chosen_transform.py", tmp_path / "chosen_transform.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    monkeypatch.chdir(tmp_path)
    same, different = _estimates(run_cli, "chosen_transform.py")
    assert same["batch_bytes"] == 256 * (3 * 224 * 224 * 4 + 8), same
    assert different["batch_bytes"] is None and different["batch_bytes_unknown_because"], different


@pytest.mark.torch  # the fixture's dataset runs through a real DataLoader
def test_an_array_filled_by_element_writes_keeps_its_shape(tmp_path, run_cli, monkeypatch):
    """tests/data/batches/numpy_filled.py: ``data = np.empty((2, T, LAT, LON + 2 * edge))``
    filled by ``data[0, :, :, edge:-edge] = ...``, its sizes module constants and a constructor
    default, then ``np.transpose``d and copied by ``torch.Tensor(data).float()``, under the same
    name each time. The estimate is the data tensor's bytes exactly (the label beside it is not
    sized: a lower bound), which a batch torch collates holds, plus the label."""
    project = _project(tmp_path, "numpy_filled")
    monkeypatch.chdir(project)
    [estimate] = _estimates(run_cli, "numpy_filled.py")
    data, label = _first_batch(_import(project / "numpy_filled.py").make())
    assert (estimate["batch_bytes"], estimate["batch_bytes_lower_bound"]) == (data.nbytes, True)
    assert tuple(data.shape) == (4, 6, 12, 24, 2) and data.dtype.itemsize == 4
    assert _batch_bytes((data, label)) > estimate["batch_bytes"]
