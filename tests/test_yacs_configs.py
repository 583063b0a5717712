"""yacs configs (dl_lint.analysis.configs.yacs): a project's defaults module, YAML files merged over
it (fvcore's ``_BASE_``), the runs each YAML makes, reporting at the deciding line, and the verdict
of real yacs / fvcore and real torch on every run of the fixtures."""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.yacs import candidate

from conftest import FIXTURES
from test_configs import _found, _project

RULES = FIXTURES / "rules"
RESEARCH = RULES / "yacs_research"
FVCORE = RULES / "yacs_fvcore"

DEFAULTS = """\
from yacs.config import CfgNode as CN

_C = CN()
_C.DATA = CN()
_C.DATA.WORKERS = 0
_C.DATA.PERSISTENT = True
"""
LOADER = """\
from torch.utils.data import DataLoader


def build(cfg, dataset):
    return DataLoader(dataset, num_workers=cfg.DATA.WORKERS, persistent_workers=cfg.DATA.PERSISTENT)
"""
MAIN = "from defaults import _C\n\ncfg = _C.clone()\ncfg.merge_from_file('x.yaml')\n"


def _errors(tmp_path: Path, files: dict):
    """The crashes dl-lint reports in a project made of ``files`` (DL011's warnings left out)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    return [f for f in _found(_project(tmp_path, files)) if f[2] != "DL011"]


def test_candidate_needs_a_cfgnode_root():
    assert candidate(DEFAULTS.encode())
    assert not candidate(b"from yacs.config import CfgNode\n")
    assert not candidate(b"_C = CN()\n")


def test_research_fixture():
    assert _found(RESEARCH) == [
        ("config/defaults.py", 14, "DL002"),  # the defaults run: TEST.NUM_WORKERS 0 with persistent workers
        ("configs/debug.yaml", 3, "DL001"),  # prefetch_factor default, NUM_WORKERS: 0 in this run
        ("configs/debug.yaml", 3, "DL002"),
        # no DL011: debug_fixed.yaml passes persistent_workers False and prefetch_factor None
    ]
    (diag,) = [d for d in lint_paths([RESEARCH]).diagnostics if d.code == "DL002" and d.filename.endswith(".yaml")]
    assert [(Path(r.path).name, r.row, r.note) for r in diag.related] == [
        ("build.py", 10, "the DataLoader that reads this value"),
        ("defaults.py", 10, "persistent_workers=True is set here (DATALOADER.PERSISTENT_WORKERS, overridable)"),
    ]  # the reported line (debug.yaml:3, num_workers) is not cited again
    assert diag.message == "persistent_workers=True but num_workers=0: torch raises ValueError at construction."
    assert "num_workers=0 (DATALOADER.NUM_WORKERS, overridable)" in diag.detail


def test_fvcore_fixture_follows_base():
    assert _found(FVCORE) == [
        ("configs/Kinetics/Base-Zero.yaml", 2, "DL002"),  # once, for both configs inheriting it
        ("configs/Kinetics/SLOWFAST_debug.yaml", 3, "DL002"),
    ]


def test_the_defaults_alone_are_a_configurable_default(tmp_path):
    root = _project(tmp_path, {"defaults.py": DEFAULTS, "loader.py": LOADER})
    assert _found(root) == [("defaults.py", 5, "DL002")]


def test_a_yaml_run_that_fixes_it_does_not_silence_the_defaults_run(tmp_path):
    files = {"defaults.py": DEFAULTS, "loader.py": LOADER, "main.py": MAIN, "x.yaml": "DATA:\n  WORKERS: 2\n"}
    # and in the x.yaml run, workers the command line can set to 0: DL011's warning
    assert _found(_project(tmp_path, files)) == [("defaults.py", 5, "DL002"), ("loader.py", 5, "DL011")]


def test_yaml_runs_need_merge_from_file(tmp_path):
    defaults = DEFAULTS.replace("WORKERS = 0", "WORKERS = 2")
    files = {"defaults.py": defaults, "loader.py": LOADER, "x.yaml": "DATA:\n  WORKERS: 0\n"}
    assert _errors(tmp_path / "a", files) == []
    files["main.py"] = MAIN
    assert _errors(tmp_path / "b", files) == [("x.yaml", 2, "DL002")]


def test_yaml_of_another_tree_is_not_a_run(tmp_path):
    defaults = DEFAULTS.replace("WORKERS = 0", "WORKERS = 2")
    files = {
        "defaults.py": defaults,
        "loader.py": LOADER,
        "main.py": MAIN,
        "other.yaml": "DATA:\n  WORKERS: 0\nMODEL:\n  DEPTH: 3\n",  # MODEL is no key of this tree: KeyError
        "lower.yaml": "data:\n  WORKERS: 0\n",
    }
    assert _errors(tmp_path, files) == []


def test_python_edits_and_ambiguous_trees_are_unknown(tmp_path):
    edit = MAIN + "cfg.DATA.WORKERS = 2\n"
    assert _errors(tmp_path / "a", {"defaults.py": DEFAULTS, "loader.py": LOADER, "main.py": edit}) == []
    opts = MAIN + "cfg.merge_from_list(['DATA.WORKERS', 2])\n"
    assert _errors(tmp_path / "b", {"defaults.py": DEFAULTS, "loader.py": LOADER, "main.py": opts}) == []
    files = {"defaults.py": DEFAULTS, "other_defaults.py": DEFAULTS, "loader.py": LOADER}
    assert _errors(tmp_path / "c", files) == []


def test_non_literals_and_edits_in_functions_are_unknown(tmp_path):
    nonliteral = DEFAULTS.replace("WORKERS = 0", "WORKERS = int('0')")
    assert _errors(tmp_path / "a", {"defaults.py": nonliteral, "loader.py": LOADER}) == []
    twice = DEFAULTS + "\n\ndef debug():\n    _C.DATA.WORKERS = 0\n"
    assert _errors(tmp_path / "b", {"defaults.py": twice, "loader.py": LOADER}) == []


def test_noqa_on_the_yaml_line(tmp_path):
    defaults = DEFAULTS.replace("WORKERS = 0", "WORKERS = 2")
    files = {"defaults.py": defaults, "loader.py": LOADER, "main.py": MAIN, "x.yaml": "DATA:\n  WORKERS: 0  # noqa: DL002\n"}
    assert _errors(tmp_path, files) == []


def test_no_yacs_no_yaml_read(tmp_path, monkeypatch):
    """A project without a yacs defaults module reads no YAML for upper-case key chains."""
    from dl_lint.analysis.configs import yamlfile

    read = []
    real = yamlfile.read_yaml
    monkeypatch.setattr(yamlfile, "read_yaml", lambda path, *more: read.append(path) or real(path, *more))
    files = {"loader.py": LOADER, "main.py": MAIN, "x.yaml": "DATA:\n  WORKERS: 0\n"}
    assert _errors(tmp_path, files) == []
    assert read == []


# -- yacs, fvcore and torch agree ----------------------------------------------------------------


@contextlib.contextmanager
def _imported(root: Path):
    """The fixture project's own modules, imported from its root (and forgotten after); modules
    of the same names that other tests imported (``data``, ``config``) are set aside meanwhile."""
    names = {p.stem for p in root.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    aside = {n: sys.modules.pop(n) for n in list(sys.modules) if n.split(".")[0] in names}
    before = set(sys.modules)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module
    finally:
        sys.path.remove(str(root))
        for name in set(sys.modules) - before:
            del sys.modules[name]
        sys.modules.update(aside)


def _chain(path: Path):
    """A YAML file and its _BASE_ files, nearest first (fvcore's load_yaml_with_base order)."""
    import yaml

    out = []
    while path.is_file():
        out.append(path)
        base = (yaml.safe_load(path.read_text()) or {}).get("_BASE_")
        if not isinstance(base, str):
            break
        path = path.parent / base
    return out


def _yaml_keys(path: Path) -> dict:
    """line -> dotted key of each scalar the YAML file sets."""
    import yaml

    out = {}

    def walk(node, keys):
        for key, value in node.value:
            if isinstance(value, yaml.MappingNode):
                walk(value, keys + [key.value])
            else:
                out[value.start_mark.line + 1] = ".".join(keys + [key.value])

    walk(yaml.compose(path.read_text()), [])
    return out


def _sets(path: Path, key: str) -> bool:
    return key in _yaml_keys(path).values()


def _applies(diag, defaults: Path, run) -> bool:
    """Whether a diagnostic speaks of ``run`` (None: the defaults alone, else a YAML path): it is
    reported at a line of the run's YAML chain whose key no nearer file sets, or at a defaults
    line whose key no file of the chain sets."""
    chain = [p.resolve() for p in _chain(run)] if run is not None else []
    path = Path(diag.filename).resolve()
    row = diag.location.row
    if path == defaults.resolve():
        (target,) = ast.parse(defaults.read_text().splitlines()[row - 1].strip()).body[0].targets
        key = ast.unparse(target).split(".", 1)[1]
        return not any(_sets(p, key) for p in chain)
    if path in chain:
        key = _yaml_keys(path)[row]
        return not any(_sets(p, key) for p in chain[: chain.index(path)])
    return False


def _loader_of(diag) -> int:
    (row,) = [r.row for r in diag.related if r.note == "the DataLoader that reads this value"]
    return row


def _agree(root: Path, defaults: Path, make_cfg, loaders, merge_errors):
    """Every run (the defaults alone, each YAML under configs/), merged by the project's own code
    with the real library. A run the library rejects has no diagnostic in its own file. Otherwise:
    a loader no diagnostic of the run names constructs and iterates in torch; every loader that
    raises is named by a diagnostic of the run; every diagnostic names a loader that raises in
    some run it speaks of (a cross-key crash needs the run's other values too)."""
    diags = [d for d in lint_paths([root]).diagnostics if d.severity.name == "ERROR"]
    assert diags
    runs = [None, *sorted((root / "configs").rglob("*.yaml"))]
    rejected = 0
    confirmed = set()
    for run in runs:
        try:
            cfg = make_cfg(run)
        except merge_errors:
            rejected += 1
            assert not [d for d in diags if Path(d.filename).resolve() == run.resolve()], run
            continue
        named = {i: _loader_of(d) for i, d in enumerate(diags) if _applies(d, defaults, run)}
        for row, build in loaders.items():
            try:
                loader = build(cfg)
            except ValueError:
                assert row in named.values(), (run, row)
                confirmed.update(i for i, r in named.items() if r == row)
                continue
            for _ in loader:
                pass
    assert confirmed == set(range(len(diags)))
    assert rejected and len(runs) - rejected >= 4


@pytest.mark.torch
def test_research_runs_agree_with_yacs_and_torch():
    with _imported(RESEARCH) as load:
        train_net = load("train_net")
        build = load("data.build")

        def make_cfg(run):
            args = argparse.Namespace(config_file=str(run) if run else None, opts=[])
            if run is None:  # the defaults alone (setup with no file)
                cfg = load("config").get_cfg_defaults()
                cfg.EVAL.NUM_WORKERS = 2  # as setup() does after merging
                return cfg
            return train_net.setup(args)

        data = build.toy_dataset
        loaders = {
            10: lambda cfg: build.build_train_loader(cfg, data()),
            21: lambda cfg: build.build_test_loader(cfg, data()),
            30: lambda cfg: build.build_eval_loader(cfg, data()),
        }
        # yacs 0.1.8: KeyError for _BASE_ (no such key), ValueError for a value of another type
        _agree(RESEARCH, RESEARCH / "config" / "defaults.py", make_cfg, loaders, (KeyError, ValueError))


@pytest.mark.torch
def test_fvcore_runs_agree_with_fvcore_and_torch():
    with _imported(FVCORE) as load:
        run_net = load("tools.run_net")
        loader = load("slowfast.datasets.loader")

        def make_cfg(run):
            return run_net.load_config(argparse.Namespace(cfg_file=str(run) if run else None, opts=None))

        # fvcore: a missing _BASE_ file fails to open
        _agree(FVCORE, FVCORE / "slowfast" / "config" / "defaults.py", make_cfg, {7: loader.construct_loader}, (OSError,))


# -- detectron2: what its builders pass to torch ------------------------------------------------
# detectron2 is not pip-installable here (no wheel; it builds C++/CUDA extensions). Its YAML files
# are read by fvcore's CfgNode.load_yaml_with_base (detectron2 02b5c4e config/config.py:12
# subclasses fvcore's), and its loaders get, for a CfgNode (02b5c4e data/build.py):
# num_workers=cfg.DATALOADER.NUM_WORKERS (:516, :611; default 4, config/defaults.py:115),
# prefetch_factor=2 if num_workers > 0 else None, persistent_workers=False, pin_memory=False
# (:304-306, :366, :384); the test loader passes num_workers alone (:675-682). Only those
# arguments are mirrored below (with torch's DataLoader and a toy dataset).

DETECTRON2 = RULES / "yacs_detectron2"


def _detectron2_train_loader(num_workers):
    from torch.utils.data import DataLoader

    return DataLoader(
        list(range(8)),
        batch_size=2,
        drop_last=True,
        num_workers=num_workers,
        collate_fn=lambda batch: batch,
        prefetch_factor=2 if num_workers > 0 else None,
        persistent_workers=False,
        pin_memory=False,
    )


def _detectron2_test_loader(num_workers):
    """The DataLoader detectron2 02b5c4e build_detection_test_loader makes (data/build.py:675-682)."""
    from torch.utils.data import DataLoader, SequentialSampler

    data = list(range(4))
    return DataLoader(
        data,
        batch_size=1,
        sampler=SequentialSampler(data),
        drop_last=False,
        num_workers=num_workers,
        collate_fn=lambda batch: batch,
    )


def _detectron2_cfg(run):
    """A run of the fixture as detectron2 02b5c4e's get_cfg() + merge_from_file makes it
    (config/config.py:37-84): fvcore's load_yaml_with_base (``_BASE_`` first), the VERSION read
    or guessed (compat.py:82-113), then merge_from_other_cfg over the defaults. The defaults tree
    holds only detectron2's keys the fixture's files set (values of config/defaults.py)."""
    from fvcore.common.config import CfgNode

    defaults = CfgNode(
        {
            "VERSION": 2,
            "MODEL": {"META_ARCHITECTURE": "GeneralizedRCNN", "DEVICE": "cuda"},
            "DATASETS": {"TRAIN": (), "TEST": ()},
            "DATALOADER": {"NUM_WORKERS": 4},  # defaults.py:115
            "SOLVER": {"IMS_PER_BATCH": 16},
        }
    )
    cfg = defaults.clone()
    if run is not None:
        loaded = CfgNode(CfgNode.load_yaml_with_base(str(run), allow_unsafe=True))
        version = loaded.get("VERSION", None)
        if version is None:
            version = 1 if ("WEIGHT" in loaded.get("MODEL", {}) or "AUG_ON" in loaded.get("TEST", {})) else 2
        assert version == 2  # the fixture has no old-version file (dl-lint does not follow those)
        cfg.merge_from_other_cfg(loaded)
    return cfg


@pytest.mark.torch
def test_detectron2_runs_agree_with_fvcore_and_torch():
    """Each run of the detectron2-shaped fixture (detectron2's default alone, each YAML under
    configs/), merged with real fvcore, its NUM_WORKERS given to the DataLoader arguments each
    builder passes: a builder's loader raises exactly when dl-lint reports DL004 at the line that
    run takes NUM_WORKERS from, with that builder's call as related location."""
    diags = lint_paths([DETECTRON2]).diagnostics
    assert {d.code for d in diags} == {"DL004"}
    builders = {13: _detectron2_train_loader, 17: _detectron2_test_loader}  # train_net.py rows
    reported = set()
    for d in diags:
        (related,) = d.related
        assert Path(related.path).name == "train_net.py" and related.row in builders
        assert "when detectron2's build_detection_" in d.message
        reported.add((Path(d.filename).resolve(), d.location.row, related.row))
    raised = set()
    for run in [None, *sorted((DETECTRON2 / "configs").glob("*.yaml"))]:
        cfg = _detectron2_cfg(run)
        workers = cfg.DATALOADER.NUM_WORKERS
        # where this run takes NUM_WORKERS from: the nearest file of its chain that sets it
        where = next(((p.resolve(), row) for p in (_chain(run) if run else []) for row, key in _yaml_keys(p).items() if key == "DATALOADER.NUM_WORKERS"), None)
        for row, build in builders.items():
            try:
                for _ in build(workers):
                    pass
            except ValueError as exc:
                assert "num_workers option should be non-negative" in str(exc)
                assert where is not None and (*where, row) in reported, (run, row)
                raised.add((*where, row))
            else:
                assert where is None or not any(r[:2] == where for r in reported), (run, row)
    assert raised == reported and len(raised) == 2


DETECTRON2_MAIN = """\
from detectron2.config import get_cfg
from detectron2.data import build_detection_train_loader


def main(args):
    cfg = get_cfg()
    cfg.merge_from_file(args.config_file)
    cfg.merge_from_list(args.opts)
    loader = build_detection_train_loader(cfg)
"""


def test_detectron2_builder_reported_at_the_yaml_line(tmp_path):
    files = {"train_net.py": DETECTRON2_MAIN, "configs/a.yaml": "MODEL:\n  DEVICE: cpu\nDATALOADER:\n  NUM_WORKERS: -1\n"}
    root = _project(tmp_path, files)
    assert _found(root) == [("configs/a.yaml", 4, "DL004")]
    (diag,) = lint_paths([root]).diagnostics
    assert [(Path(r.path).name, r.row) for r in diag.related] == [("train_net.py", 9)]


@pytest.mark.parametrize(
    "change",
    [
        ("train_net.py", DETECTRON2_MAIN + "    cfg.DATALOADER.NUM_WORKERS = 2\n"),  # Python sets it
        ("train_net.py", DETECTRON2_MAIN + "    cfg.merge_from_list(['DATALOADER.NUM_WORKERS', 2])\n"),
        ("train_net.py", DETECTRON2_MAIN.replace("(cfg)", "(cfg, num_workers=2)")),  # replaces the config's
        ("train_net.py", DETECTRON2_MAIN.replace("(cfg)", "(cfg, **extra)")),
        ("train_net.py", DETECTRON2_MAIN.replace("(cfg)", "(config)")),  # not followed
        ("train_net.py", DETECTRON2_MAIN.replace("from detectron2.config import get_cfg", "from my_config import get_cfg")),
        ("train_net.py", DETECTRON2_MAIN.replace("from detectron2.data import", "from my_data import")),
        ("train_net.py", DETECTRON2_MAIN.replace("    cfg.merge_from_file(args.config_file)\n", "")),  # no YAML run
        ("configs/a.yaml", "MODEL:\n  WEIGHT: x.pkl\nDATALOADER:\n  NUM_WORKERS: -1\n"),  # guessed v1: upgraded
        ("configs/a.yaml", "VERSION: 1\nDATALOADER:\n  NUM_WORKERS: -1\n"),
        ("configs/a.yaml", "MY_PROJECT:\n  X: 1\nDATALOADER:\n  NUM_WORKERS: -1\n"),  # a key detectron2 lacks
        ("configs/a.yaml", "DATALOADER:\n  NUM_WORKERS: '-1'\n"),  # a string: literal_eval-ed
        ("configs/a.yaml", "_BASE_: missing.yaml\nDATALOADER:\n  NUM_WORKERS: -1\n"),
        ("configs/a.yaml", "DATALOADER:\n  NUM_WORKERS: -1  # noqa: DL004\n"),
    ],
)
def test_detectron2_builder_unknowns_are_silent(tmp_path, change):
    files = {"train_net.py": DETECTRON2_MAIN, "configs/a.yaml": "DATALOADER:\n  NUM_WORKERS: -1\n"}
    files[change[0]] = change[1]
    assert _found(_project(tmp_path, files)) == []


def test_detectron2_version_2_and_base_are_followed(tmp_path):
    files = {
        "train_net.py": DETECTRON2_MAIN,
        "configs/Base.yaml": "VERSION: 2\nDATALOADER:\n  NUM_WORKERS: -1\n",
        "configs/child.yaml": "_BASE_: Base.yaml\nSOLVER:\n  IMS_PER_BATCH: 2\n",
        "configs/fixed.yaml": "_BASE_: Base.yaml\nDATALOADER:\n  NUM_WORKERS: 2\n",
    }
    assert _found(_project(tmp_path, files)) == [("configs/Base.yaml", 3, "DL004")]  # once, for Base and child


def test_no_detectron2_builder_no_yaml_read(tmp_path, monkeypatch):
    """A project whose files do not call detectron2's builders reads no YAML for them."""
    from dl_lint.analysis.configs import yamlfile

    read = []
    real = yamlfile.read_yaml
    monkeypatch.setattr(yamlfile, "read_yaml", lambda path, *more: read.append(path) or real(path, *more))
    main = DETECTRON2_MAIN.replace("build_detection_train_loader", "DataLoader").replace("detectron2.data", "torch.utils.data")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _found(_project(tmp_path / "a", {"train_net.py": main, "configs/a.yaml": "DATALOADER:\n  NUM_WORKERS: -1\n"})) == []
    assert read == []
    assert _found(_project(tmp_path / "b", {"train_net.py": DETECTRON2_MAIN, "configs/a.yaml": "DATALOADER:\n  NUM_WORKERS: -1\n"}))
    assert read


def test_more_python_edits_are_unknown(tmp_path):
    for n, edit in enumerate([
        "setattr(cfg.DATA, 'WORKERS', 2)\n",
        "cfg['DATA']['WORKERS'] = 2\n",
        "cfg.DATA = other\n",
        "cfg.merge_from_other_cfg(other)\n",
    ]):
        files = {"defaults.py": DEFAULTS, "loader.py": LOADER, "main.py": MAIN + edit}
        assert _errors(tmp_path / str(n), files) == [], edit


def test_a_yaml_edit_invalidates_the_cached_diagnostics(tmp_path):
    defaults = DEFAULTS.replace("WORKERS = 0", "WORKERS = 2")
    root = _project(tmp_path, {"defaults.py": defaults, "loader.py": LOADER, "main.py": MAIN, "x.yaml": "DATA:\n  WORKERS: 2\n"})
    cache_dir = tmp_path / ".cache"
    assert [f for f in _found(root, cache=True, cache_dir=cache_dir) if f[2] != "DL011"] == []
    (root / "x.yaml").write_text("DATA:\n  WORKERS: 0\n")
    assert [f for f in _found(root, cache=True, cache_dir=cache_dir) if f[2] != "DL011"] == [("x.yaml", 2, "DL002")]
    # reported in the defaults module while linting loader.py: the warm run keeps its file
    (root / "x.yaml").write_text("DATA:\n  WORKERS: 2\n")
    (root / "defaults.py").write_text(DEFAULTS)
    cold = _found(root, cache=True, cache_dir=cache_dir)
    assert ("defaults.py", 5, "DL002") in cold and _found(root, cache=True, cache_dir=cache_dir) == cold


def test_detectron2_yaml_edit_invalidates_the_cached_diagnostics(tmp_path):
    (tmp_path / "p").mkdir()
    root = _project(tmp_path / "p", {"train_net.py": DETECTRON2_MAIN, "configs/a.yaml": "DATALOADER:\n  NUM_WORKERS: 2\n"})
    cache_dir = tmp_path / ".cache"
    assert _found(root, cache=True, cache_dir=cache_dir) == []
    (root / "configs" / "a.yaml").write_text("DATALOADER:\n  NUM_WORKERS: -1\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == [("configs/a.yaml", 2, "DL004")]
    (root / "configs" / "a.yaml").write_text("DATALOADER:\n  NUM_WORKERS: 0\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == []
    # a Python file that now sets NUM_WORKERS makes the value unknown: the cached finding goes
    (root / "configs" / "a.yaml").write_text("DATALOADER:\n  NUM_WORKERS: -1\n")
    (root / "other.py").write_text("def setup(cfg):\n    pass\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == [("configs/a.yaml", 2, "DL004")]
    (root / "other.py").write_text("def setup(cfg):\n    cfg.DATALOADER.NUM_WORKERS = 2\n")
    assert _found(root, cache=True, cache_dir=cache_dir) == []


def test_a_python_edit_elsewhere_invalidates_the_cached_diagnostics(tmp_path):
    """A yacs value rests on every project file: a file that now sets the key makes it unknown,
    and the cached finding of the loader's file goes (it was kept before: the loader's file and
    the defaults did not change)."""
    tune = "def tune(cfg):\n    pass\n"
    root = _project(tmp_path, {"defaults.py": DEFAULTS, "loader.py": LOADER, "main.py": MAIN, "tune.py": tune})
    cache_dir = tmp_path / ".cache"
    found = [f for f in _found(root, cache=True, cache_dir=cache_dir) if f[2] != "DL011"]
    assert ("defaults.py", 5, "DL002") in found
    (root / "tune.py").write_text(tune.replace("pass", "cfg.DATA.WORKERS = 4"))
    assert [f for f in _found(root, cache=True, cache_dir=cache_dir) if f[2] != "DL011"] == []
    assert [f for f in _found(root) if f[2] != "DL011"] == []  # what a cold run says
