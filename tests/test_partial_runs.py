"""One answer however it is run (issue 26): a run naming some files reports in them what a full
run reports there, and also the findings that rest on them (a changed factory default, a config
value, a constant); settings apply at the file a finding is reported in."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

LOADER = """\
from torch.utils.data import DataLoader


def make(ds, num_workers=4, prefetch_factor=2):
    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)
"""
MAIN = "from pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=0)\n"


def _project(root: Path, files: dict, config: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.dl-lint]\n" + textwrap.dedent(config))
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def _two_modules(tmp_path: Path, config: str = "", loader: str = LOADER, main: str = MAIN) -> Path:
    return _project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/loader.py": loader, "main.py": main}, config)


def _found(run_cli, root: Path, *args: str) -> list:
    done = run_cli("--no-cache", "--output-format", "json", *args, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))


CALL_SITE = [("main.py", 3, "DL001")]


@pytest.mark.parametrize("named", [["."], ["main.py"], ["pkg/loader.py"], ["main.py", "pkg/loader.py"], ["pkg"]])
def test_a_call_site_finding_whichever_file_is_named(tmp_path, run_cli, named):
    """The issue's first case: reported at the call in main.py when main.py is named (its
    factory lives in another module) and when pkg/loader.py is (the finding rests on it)."""
    root = _two_modules(tmp_path)
    assert _found(run_cli, root, *named) == CALL_SITE


def test_a_changed_factory_default(tmp_path, run_cli):
    """A commit that changes only the factory's default makes the crash at a call site that
    relies on it: naming the factory's file reports it, at the call."""
    root = _two_modules(tmp_path, main="from pkg.loader import make\n\nloader = make([1, 2, 3])\n")
    assert _found(run_cli, root, "pkg/loader.py") == []
    (root / "pkg/loader.py").write_text(LOADER.replace("num_workers=4", "num_workers=0"))
    assert _found(run_cli, root, "pkg/loader.py") == CALL_SITE
    assert _found(run_cli, root, "main.py") == CALL_SITE
    assert _found(run_cli, root, ".") == CALL_SITE


def test_a_constant_of_another_module(tmp_path, run_cli):
    """A finding whose value comes from a constant of another module is reported when that
    module is named (the edit that introduced the crash), at the loader."""
    root = _project(tmp_path / "proj", {
        "settings.py": "WORKERS = 0\n",
        "train.py": "from torch.utils.data import DataLoader\nfrom settings import WORKERS\n\n"
                    "loader = DataLoader([1], num_workers=WORKERS, persistent_workers=True)\n",
        "other.py": "x = 1\n",
    })
    full = _found(run_cli, root, ".")
    assert full == [("train.py", 4, "DL002")]
    assert _found(run_cli, root, "settings.py") == full
    assert _found(run_cli, root, "train.py") == full
    assert _found(run_cli, root, "other.py") == []


def test_a_parser_of_a_helper_module(tmp_path, run_cli):
    """Issue 25 §3: a namespace returned by a helper module's ``parse_args`` carries that
    module's defaults; the finding at the script's loader rests on the helper's module, so naming
    either reports it, and an edit of the helper's default alone changes what naming it reports."""
    helper = (
        "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--workers', type=int, default=WORKERS)\n    return parser.parse_args()\n"
    )
    root = _project(tmp_path / "proj", {
        "utils/__init__.py": "",
        "utils/args.py": helper.replace("WORKERS", "0"),
        "train.py": "from torch.utils.data import DataLoader\nfrom utils.args import parse_args\n\n"
                    "args = parse_args()\nloader = DataLoader([1], num_workers=args.workers, persistent_workers=True)\n",
    })
    full = _found(run_cli, root, ".")
    assert full == [("train.py", 5, "DL002")]
    assert _found(run_cli, root, "utils/args.py") == full
    assert _found(run_cli, root, "train.py") == full
    (root / "utils/args.py").write_text(helper.replace("WORKERS", "4"))
    assert _found(run_cli, root, "utils/args.py") == [("train.py", 5, "DL011")]


def test_a_worker_callable_made_by_a_factory_of_another_module(tmp_path, run_cli):
    """DL202 through ``worker_init_fn=get_seed_worker(seed)`` of another module: the finding at the
    loader rests on the factory's module (the nested function is its related location), so naming
    the factory's file reports it, and an edit that makes the factory return a module-level
    function removes it."""
    local = "def get_seed_worker(seed):\n    def seed_worker(worker_id):\n        return seed\n\n    return seed_worker\n"
    plain = "def seed_worker(worker_id):\n    return 0\n\n\ndef get_seed_worker(seed):\n    return seed_worker\n"
    root = _project(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/seeding.py": local,
        "train.py": "from torch.utils.data import DataLoader\nfrom pkg.seeding import get_seed_worker\n\n\n"
                    "def main():\n    return DataLoader([1], num_workers=2, worker_init_fn=get_seed_worker(0))\n",
    })
    full = _found(run_cli, root, ".")
    assert full == [("train.py", 6, "DL202")]
    assert _found(run_cli, root, "pkg/seeding.py") == full
    assert _found(run_cli, root, "train.py") == full
    (root / "pkg/seeding.py").write_text(plain)
    assert _found(run_cli, root, "pkg/seeding.py") == []


FACTORY = "from torch.utils.data import DataLoader\n\n\ndef make(ds, workers):\n    return DataLoader(ds, num_workers=workers)\n"
SCRIPT = (
    "from pkg.loaders import make\n\ntrain_loader = make([1, 2], 4)\n\n\ndef train():\n"
    "    for batch in train_loader:\n        print(batch)\n\n\ntrain()\n"
)


@pytest.mark.parametrize("named", [["."], ["train.py"], ["pkg/loaders.py"], ["pkg"]])
def test_a_factory_loader_iterated_at_import_of_another_module(tmp_path, run_cli, named):
    """DL203 across files: the factory of pkg/loaders.py returns the loader, train.py iterates
    what its module-level call returns in a function its module-level code calls. Reported at the
    call (the factory's loader is its related location) whichever file is named; guarding the
    script's call removes it, and so does a factory that builds no workers."""
    root = _project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/loaders.py": FACTORY, "train.py": SCRIPT})
    assert _found(run_cli, root, *named) == [("train.py", 3, "DL203")]
    (root / "train.py").write_text(SCRIPT.replace("\ntrain()\n", "\nif __name__ == '__main__':\n    train()\n"))
    assert _found(run_cli, root, *named) == []
    (root / "train.py").write_text(SCRIPT.replace("4)", "0)"))
    assert _found(run_cli, root, *named) == []


WALKER = (
    "import torch\nfrom torch.utils.data import DataLoader\n\n\nclass Walker(torch.nn.Module):\n"
    "    def __init__(self, num_nodes):\n        super().__init__()\n        self.num_nodes = num_nodes\n\n"
    "    def loader(self, **kwargs):\n        return DataLoader(range(self.num_nodes), **kwargs)\n"
)
WALK = (
    "from pkg.walker import Walker\n\nmodel = Walker(100).to('cpu')\n"
    "loader = model.loader(batch_size=8, shuffle=True, num_workers=6)\n\n\n"
    "def train():\n    for batch in loader:\n        print(batch)\n\n\nfor epoch in range(2):\n    train()\n"
)


@pytest.mark.parametrize("named", [["."], ["walk.py"], ["pkg/walker.py"]])
def test_a_loader_method_forwarding_kwargs_of_another_module(tmp_path, run_cli, named):
    """Issue 25 §3: ``model.loader(..., num_workers=6)`` on an instance of a project class whose
    method forwards ``**kwargs`` to DataLoader (pytorch_geometric's MetaPath2Vec.loader): DL203 at
    the call of the script whichever file is named; without workers, or on a method that does
    not forward them, nothing."""
    root = _project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/walker.py": WALKER, "walk.py": WALK})
    assert _found(run_cli, root, *named) == [("walk.py", 4, "DL203")]
    (root / "walk.py").write_text(WALK.replace("num_workers=6", "num_workers=0"))
    assert _found(run_cli, root, *named) == []
    (root / "walk.py").write_text(WALK)
    (root / "pkg/walker.py").write_text(WALKER.replace("**kwargs)\n", "batch_size=8)\n"))
    assert _found(run_cli, root, *named) == []


def test_a_yaml_line_finding_from_either_side(tmp_path, run_cli):
    root = _project(tmp_path / "proj", {
        "train.py": """\
            import hydra
            from torch.utils.data import DataLoader


            @hydra.main(version_base=None, config_path="conf", config_name="config")
            def main(cfg):
                return DataLoader(range(8), num_workers=cfg.data.num_workers, persistent_workers=True)
            """,
        "conf/config.yaml": "data:\n  num_workers: 0\n",
        "notes.py": "x = 1\n",
    })
    expected = [("conf/config.yaml", 2, "DL002")]
    assert _found(run_cli, root, ".") == expected
    assert _found(run_cli, root, "conf/config.yaml") == expected
    assert _found(run_cli, root, "train.py") == expected  # the script reads it: the finding rests on it
    assert _found(run_cli, root, "notes.py") == []


def test_per_file_ignores_match_the_reported_file(tmp_path, run_cli):
    root = _two_modules(tmp_path, config='[tool.dl-lint.per-file-ignores]\n"main.py" = ["DL001"]\n')
    assert _found(run_cli, root, ".") == []
    assert _found(run_cli, root, "pkg/loader.py") == []
    root = _two_modules(tmp_path / "b", config='[tool.dl-lint.per-file-ignores]\n"pkg/*" = ["DL001"]\n')
    assert _found(run_cli, root, ".") == CALL_SITE
    assert _found(run_cli, root, "main.py") == CALL_SITE


def test_exclude_decides_where_findings_are_reported(tmp_path, run_cli):
    """An excluded file is still read as a dependency of a reported one; its own findings, and
    those located in it, are not shown."""
    root = _two_modules(tmp_path)
    assert _found(run_cli, root, "--exclude", "pkg", ".") == CALL_SITE
    assert _found(run_cli, root, "--extend-exclude", "pkg/loader.py", "main.py") == CALL_SITE
    assert _found(run_cli, root, "--exclude", "main.py", ".") == []
    assert _found(run_cli, root, "--exclude", "main.py", "pkg/loader.py") == []


def test_noqa_at_a_related_location(tmp_path, run_cli):
    """``# noqa`` at the reported line, or at the loader the call configures (a related location)."""
    root = _two_modules(tmp_path, loader=LOADER.replace("prefetch_factor)\n", "prefetch_factor)  # noqa: DL001\n"))
    assert _found(run_cli, root, ".") == []
    assert _found(run_cli, root, "main.py") == []
    root = _two_modules(tmp_path / "b", loader=LOADER.replace("prefetch_factor)\n", "prefetch_factor)  # noqa: DL002\n"))
    assert _found(run_cli, root, "main.py") == CALL_SITE  # another code: not silenced
    root = _two_modules(tmp_path / "c", main=MAIN.replace("num_workers=0)", "num_workers=0)  # noqa: DL001"))
    assert _found(run_cli, root, "pkg/loader.py") == []


def test_show_settings_agrees_with_what_is_reported(tmp_path, run_cli):
    root = _two_modules(tmp_path, config='[tool.dl-lint.per-file-ignores]\n"main.py" = ["DL001"]\n')
    shown = run_cli("--show-settings", "main.py", cwd=root).stdout
    enabled = next(line for line in shown.splitlines() if line.startswith("enabled for this file"))
    assert '"DL001"' not in enabled
    assert _found(run_cli, root, "main.py") == []
    root = _two_modules(tmp_path / "b", config='[tool.dl-lint.per-file-ignores]\n"pkg/*" = ["DL001"]\n')
    enabled = next(line for line in run_cli("--show-settings", "main.py", cwd=root).stdout.splitlines() if line.startswith("enabled"))
    assert '"DL001"' in enabled
    assert _found(run_cli, root, "main.py") == CALL_SITE


def test_a_named_file_shows_nothing_a_full_run_does_not(tmp_path, run_cli):
    root = _two_modules(tmp_path)
    (root / "tests").mkdir()
    (root / "tests/test_x.py").write_text("from torch.utils.data import DataLoader\nDataLoader([1], timeout=3)\n")
    full = _found(run_cli, root, ".")
    for name in ("main.py", "pkg/loader.py", "tests/test_x.py", "pkg/__init__.py"):
        part = _found(run_cli, root, name)
        assert set(part) <= set(full)
        assert [f for f in part if f[0] == name] == [f for f in full if f[0] == name]


def test_a_stray_script_outside_any_project_is_linted_alone(tmp_path, run_cli):
    """Without a project marker the run does not walk the script's folder for dependencies."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/a.py").write_text("from torch.utils.data import DataLoader\nDataLoader([1], timeout=3)\n")
    (tmp_path / "scripts/huge").mkdir()
    for i in range(5):
        (tmp_path / f"scripts/huge/m{i}.py").write_text("import a\n")
    done = run_cli("--no-cache", "--output-format", "json", "a.py", cwd=tmp_path / "scripts")
    assert [d["filename"] for d in json.loads(done.stdout)] == ["a.py"]


def test_a_module_named_setup_py_in_a_package_is_no_project_root(tmp_path, run_cli):
    """dinov2 has ``dinov2/eval/setup.py`` (the module ``dinov2.eval.setup``): a run naming
    ``dinov2/eval/knn.py`` must see the repository's project, not one rooted at ``dinov2/eval``,
    or the factory its calls reach (``dinov2/data/loaders.py``) is not read."""
    root = _project(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/data/__init__.py": "from .loaders import make\n",
        "pkg/data/loaders.py": LOADER,
        "pkg/eval/__init__.py": "",
        "pkg/eval/setup.py": "def get_args_parser():\n    return None\n",
        "pkg/eval/knn.py": "from pkg.data import make\n\nloader = make([1], num_workers=0)\n",
    })
    from dl_lint.roots import find_root

    assert find_root(root / "pkg/eval/knn.py") == root
    assert _found(run_cli, root, "pkg/eval/knn.py") == _found(run_cli, root, ".") == [("pkg/eval/knn.py", 3, "DL001")]


def test_a_cold_run_on_a_package_module_reads_the_project_and_a_lone_script_its_neighbourhood(tmp_path):
    """Without cached imports, a run naming a module of a package reads every project file
    (its neighbourhood is most of the project, and the import graph alone cost more than the
    difference); a run naming a script outside packages reads only its neighbourhood."""
    import os
    from types import SimpleNamespace

    from dl_lint.analysis.project import Project
    from dl_lint.engine import _dependencies

    root = _two_modules(tmp_path)
    (root / "other.py").write_text("print('unrelated')\n")
    every = {os.path.abspath(root / name) for name in ("pkg/__init__.py", "pkg/loader.py", "main.py", "other.py")}

    def read_for(name: str, store=None) -> set:
        named = [SimpleNamespace(key=os.path.abspath(root / name), errors=())]
        return _dependencies(Project(root), named, (), str(root), store) | {named[0].key}

    assert read_for("pkg/loader.py") == every
    neighbourhood = {os.path.abspath(root / "main.py"), os.path.abspath(root / "pkg/loader.py")}
    assert read_for("main.py") == neighbourhood
    cached = SimpleNamespace(imports={"held": []})  # a results cache that holds imports: the graph is cheap
    assert read_for("pkg/loader.py", cached) == neighbourhood


def test_a_run_on_a_package_module_agrees_with_and_without_cached_imports(tmp_path, run_cli):
    root = _two_modules(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    run_cli(*cache, ".", cwd=root)  # fills the cache's imports
    warm = run_cli(*cache, "--output-format", "json", "pkg/loader.py", cwd=root)
    found = sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(warm.stdout))
    assert found == _found(run_cli, root, "pkg/loader.py") == CALL_SITE


# Issue 25 §3 and §5 together (CLIP4Clip's shape): the entry script's namespace reaches a factory
# chosen through a dict of another module, whose dataset keeps an object (a third module) whose
# method returns a list holding a lambda.
DISPATCH = {
    "pkg/__init__.py": "",
    "pkg/extract.py": """\
        class FramesCV2:
            def __init__(self, size=4):
                self.transform = self._transform(size)

            def _transform(self, size):
                return [lambda frame: frame * size]


        Frames = FramesCV2
        """,
    "pkg/loaders.py": """\
        from torch.utils.data import DataLoader, Dataset

        from pkg.extract import Frames


        class Videos(Dataset):
            def __init__(self):
                self.frames = Frames(size=2)

            def __len__(self):
                return 8

            def __getitem__(self, index):
                return index


        def videos_train(args):
            return DataLoader(Videos(), num_workers=args.workers)


        LOADERS = {}
        LOADERS["videos"] = {"train": videos_train, "val": None}
        """,
    "main.py": """\
        import argparse

        from pkg.loaders import LOADERS


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--data", default="videos")
            parser.add_argument("--workers", type=int, default=2)
            args = parser.parse_args()
            return LOADERS[args.data]["train"](args)
        """,
}


@pytest.mark.parametrize("named", [["."], ["main.py"], ["pkg/loaders.py"], ["pkg/extract.py"]])
def test_a_dispatched_factory_and_an_attribute_object_whichever_file_is_named(tmp_path, run_cli, named):
    """Reported at the call in main.py; it rests on pkg/loaders.py (the DataLoader, cited) and
    on pkg/extract.py (the lambda, cited): naming any of them reports it."""
    root = _project(tmp_path / "proj", DISPATCH)
    assert _found(run_cli, root, *named) == [("main.py", 11, "DL202")]


RUNNER = (
    "from torch.utils.data import DataLoader\n\n\nclass Runner:\n    def __init__(self, workers):\n"
    "        self.workers = workers\n\n    def train(self):\n"
    "        loader = DataLoader(range(8), batch_size=2, num_workers=WORKERS)\n"
    "        for batch in loader:\n            pass\n\n    def maybe(self):\n        if self.workers:\n"
    "            loader = DataLoader(range(8), batch_size=2, num_workers=2)\n"
    "            for batch in loader:\n                pass\n\n    def keep(self):\n"
    "        self.loader = DataLoader(range(8), batch_size=2, num_workers=2)\n"
)
RUN = "from pkg.runner import Runner\n\nrunner = Runner(2)\nrunner.train()\nrunner.maybe()\nrunner.keep()\n"


@pytest.mark.parametrize("named", [["."], ["run.py"], ["pkg/runner.py"]])
@pytest.mark.parametrize(
    "workers, reported",
    # ``self.workers``: what ``runner = Runner(2)`` hands ``__init__`` (issue 25 §3); ``self.count``
    # is set nowhere: unknown
    [("4", True), ("0", False), ("self.workers", True), ("self.count", False)],
)
def test_a_method_building_its_own_loader_runs_it_at_the_call(tmp_path, run_cli, named, workers, reported):
    """DIG's GraphAug runners: ``runner.train()`` at module level of a script runs
    ``Runner.train`` of another module, which builds a loader with workers from nothing of the
    call's and loops over it (or with workers its construction passes): DL203 at the call,
    whichever file is named. Not when the workers are 0 or unknown, on a branch the object decides (``maybe``), for a loader only stored
    (``keep``), nor under the main guard."""
    root = _project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/runner.py": RUNNER.replace("WORKERS", workers), "run.py": RUN})
    assert _found(run_cli, root, *named) == ([("run.py", 4, "DL203")] if reported else [])
    if reported:
        (root / "run.py").write_text(RUN.replace("runner = ", "if __name__ == '__main__':\n    runner = ").replace("\nrunner.", "\n    runner."))
        assert _found(run_cli, root, *named) == []


def test_a_bool_arg_helper_of_a_helper_module(tmp_path, run_cli):
    """A set_defaults(**{dest_name: default}) of an add_bool_arg helper in the module that builds
    the parser sets the keys its calls name, whichever file the run names."""
    helper = (
        "import argparse\n\n\ndef add_bool_arg(parser, name, default=False):\n"
        "    dest_name = name.replace('-', '_')\n"
        "    parser.add_argument('--' + name, dest=dest_name, action='store_true')\n"
        "    parser.set_defaults(**{dest_name: default})\n\n\n"
        "def parse_args():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--workers', type=int, default=0)\n"
        "    add_bool_arg(parser, 'persistent-workers', default=True)\n    return parser.parse_args()\n"
    )
    root = _project(tmp_path / "proj", {
        "utils/__init__.py": "",
        "utils/args.py": helper,
        "train.py": "from torch.utils.data import DataLoader\nfrom utils.args import parse_args\n\n"
                    "args = parse_args()\nloader = DataLoader([1], num_workers=args.workers, persistent_workers=args.persistent_workers)\n",
    })
    full = _found(run_cli, root, ".")
    assert full == [("train.py", 5, "DL002")]
    assert _found(run_cli, root, "utils/args.py") == full
    assert _found(run_cli, root, "train.py") == full


def test_an_option_class_of_other_modules(tmp_path, run_cli):
    """``opt = TrainOptions().parse()`` (pix2pix's option classes, a base in another module): the
    flags of the chain's classes, whichever file the run names."""
    base = (
        "import argparse\n\n\nclass BaseOptions:\n    def initialize(self, parser):\n"
        "        parser.add_argument('--nThreads', type=int, default=WORKERS)\n        return parser\n\n"
        "    def parse(self):\n        parser = self.initialize(argparse.ArgumentParser())\n"
        "        opt = parser.parse_args()\n        opt.isTrain = self.isTrain\n        return opt\n"
    )
    train = (
        "from .base_options import BaseOptions\n\n\nclass TrainOptions(BaseOptions):\n"
        "    def initialize(self, parser):\n        parser = BaseOptions.initialize(self, parser)\n"
        "        parser.add_argument('--persist', default=True)\n        self.isTrain = True\n        return parser\n"
    )
    root = _project(tmp_path / "proj", {
        "options/__init__.py": "",
        "options/base_options.py": base.replace("WORKERS", "0"),
        "options/train_options.py": train,
        "train.py": "from torch.utils.data import DataLoader\nfrom options.train_options import TrainOptions\n\n"
                    "opt = TrainOptions().parse()\nloader = DataLoader([1], num_workers=opt.nThreads, persistent_workers=opt.persist)\n",
    })
    full = _found(run_cli, root, ".")
    assert full == [("train.py", 5, "DL002")]
    assert _found(run_cli, root, "train.py") == full
    assert _found(run_cli, root, "options/base_options.py") == full
    (root / "options/base_options.py").write_text(base.replace("WORKERS", "4"))
    assert _found(run_cli, root, "options/base_options.py") == [("train.py", 5, "DL011")]  # 4 by default, 0 settable


def test_the_call_count_by_substring_search_is_the_call_regex_count():
    """``pipeline._call_count`` (a ``bytes.find`` per factory name) counts what ``_CALLED.findall``
    finds for that name, on random texts of identifiers, parentheses, spaces, continuations and
    non-ASCII bytes (the call-site search uses either, by the number of names)."""
    import random

    from dl_lint.pipeline import _CALLED, _call_count

    pieces = [b"foo", b"bar", b"foo_", b"xfoo", b"(", b" ", b"\n", b"\\\n", b"\t", b".", b"1", b"\xc3\xa9", b"_", b"=", b"foo(", b"foo (", b"#"]
    rng = random.Random(7)
    checked = 0
    for _ in range(5000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        for called in (b"foo", b"bar", b"foo_"):
            assert _call_count(data, called) == _CALLED.findall(data).count(called), (data, called)
            checked += _call_count(data, called)
    assert checked > 1000  # the texts hold calls, not only misses


def test_a_partial_run_does_not_leave_a_call_site_record_that_hides_other_callers(tmp_path):
    """A run naming one caller searches its neighbourhood only; the call-site record it leaves
    must not tell a later run naming another caller (or the factory) that nothing else calls
    the factory: each run reports what the full run reports there (pix2pixHD's train.py DL203
    went missing after a run naming encode_features.py)."""
    from dl_lint import lint_paths

    root = _project(tmp_path / "p", {"pkg/__init__.py": "", "pkg/loader.py": LOADER, "a.py": MAIN, "b.py": MAIN})
    cache = tmp_path / "cache"

    def found(*paths):
        result = lint_paths([root / p for p in paths], cache=True, cache_dir=cache)
        return sorted((Path(d.filename).name, d.code) for d in result.diagnostics)

    assert found(".") == [("a.py", "DL001"), ("b.py", "DL001")]
    assert found("a.py") == [("a.py", "DL001")]
    assert found("b.py") == [("b.py", "DL001")]
    assert found("pkg/loader.py") == [("a.py", "DL001"), ("b.py", "DL001")]  # the factory: both calls
    assert found(".") == [("a.py", "DL001"), ("b.py", "DL001")]


# -- the call-site record, caller by caller --------------------------------------------------------
def _callers_project(tmp_path: Path) -> Path:
    """A factory, a module of constants, and three callers: a.py and b.py crash (num_workers=0
    with prefetch_factor), c.py takes its workers from conf.py."""
    return _project(
        tmp_path / "p",
        {
            "pkg/__init__.py": "",
            "pkg/loader.py": LOADER,
            "conf.py": "WORKERS = 2\n",
            "a.py": MAIN,
            "b.py": MAIN,
            "c.py": "from conf import WORKERS\nfrom pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=WORKERS)\n",
        },
    )


def _warm_run(root: Path, cache: Path, monkeypatch, *paths: str):
    """(file, row, code) of a warm run naming ``paths`` (checked against a cold run of the same
    paths), and the files it parsed."""
    from dl_lint import engine, lint_paths

    monkeypatch.setattr(engine, "RETAINED", [])
    named = [root / p for p in paths]
    warm = lint_paths(named, cache=True, cache_dir=cache, jobs=1)
    project, _files = engine.RETAINED[-1]
    parsed = sorted(Path(p).relative_to(root).as_posix() for p in project.parses)
    cold = lint_paths(named, jobs=1)

    def rows(result):
        return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)

    assert rows(warm) == rows(cold)
    return rows(warm), parsed


def test_an_edited_caller_is_judged_again_alone(tmp_path, monkeypatch):
    """The call-site record keeps what each caller's judgement rested on: after an edit of one
    caller, a warm run judges that caller again and keeps the others' findings without
    parsing them."""
    root = _callers_project(tmp_path)
    cache = tmp_path / "cache"
    both = [("a.py", 3, "DL001"), ("b.py", 3, "DL001")]
    assert _warm_run(root, cache, monkeypatch, ".")[0] == both
    (root / "a.py").write_text(MAIN.replace("num_workers=0", "num_workers=2"))
    found, parsed = _warm_run(root, cache, monkeypatch, ".")
    assert found == [("b.py", 3, "DL001")]
    assert "b.py" not in parsed and "c.py" not in parsed and "a.py" in parsed
    (root / "a.py").write_text(MAIN)  # and back: the record made from parts holds the same way
    found, parsed = _warm_run(root, cache, monkeypatch, "a.py")
    assert found == [("a.py", 3, "DL001")]
    assert _warm_run(root, cache, monkeypatch, ".")[0] == both


def test_an_edited_factory_judges_every_caller_again(tmp_path, monkeypatch):
    root = _callers_project(tmp_path)
    cache = tmp_path / "cache"
    assert _warm_run(root, cache, monkeypatch, ".")[0] == [("a.py", 3, "DL001"), ("b.py", 3, "DL001")]
    (root / "pkg/loader.py").write_text(LOADER.replace("prefetch_factor=2", "prefetch_factor=None"))
    found, parsed = _warm_run(root, cache, monkeypatch, ".")
    assert found == []
    assert {"a.py", "b.py", "c.py"} <= set(parsed)


def test_a_caller_whose_imported_value_changed_is_judged_again(tmp_path, monkeypatch):
    """c.py's call rests on conf.py (read through its summary): an edit there that changes
    WORKERS judges c.py again, and only c.py; an edit that leaves the summary alone (a
    comment) judges none again."""
    root = _callers_project(tmp_path)
    cache = tmp_path / "cache"
    _warm_run(root, cache, monkeypatch, ".")
    (root / "conf.py").write_text("WORKERS = 2  # a comment\n")
    found, parsed = _warm_run(root, cache, monkeypatch, ".")
    assert found == [("a.py", 3, "DL001"), ("b.py", 3, "DL001")]
    assert not {"a.py", "b.py", "c.py"} & set(parsed)
    (root / "conf.py").write_text("WORKERS = 0\n")
    found, parsed = _warm_run(root, cache, monkeypatch, ".")
    assert found == [("a.py", 3, "DL001"), ("b.py", 3, "DL001"), ("c.py", 4, "DL001")]
    assert "c.py" in parsed and "a.py" not in parsed and "b.py" not in parsed


def test_a_partial_run_keeps_the_parts_of_files_it_does_not_read(tmp_path, monkeypatch):
    """A run naming one caller keeps the record's parts for the files outside it, so that the
    next run naming another caller still has them (and still reports what a cold run does)."""
    root = _callers_project(tmp_path)
    cache = tmp_path / "cache"
    _warm_run(root, cache, monkeypatch, ".")
    (root / "a.py").write_text(MAIN + "# edited\n")
    assert _warm_run(root, cache, monkeypatch, "a.py")[0] == [("a.py", 3, "DL001")]
    found, parsed = _warm_run(root, cache, monkeypatch, "b.py")
    assert found == [("b.py", 3, "DL001")]
    assert "b.py" not in parsed
    assert _warm_run(root, cache, monkeypatch, "pkg/loader.py")[0] == [("a.py", 3, "DL001"), ("b.py", 3, "DL001")]


HOLDER = """\
from torch.utils.data import DataLoader, DistributedSampler


class Holder(object):
    def __init__(self, dataset, distributed):
        if distributed:
            self.train_sampler = DistributedSampler(dataset)
        else:
            self.train_sampler = None
        self.data = DataLoader(dataset, batch_size=2, sampler=self.train_sampler, num_workers=2)
"""
HOLDING = """\
from data.holder import Holder


def train(epochs):
    holder = Holder(list(range(8)), True)
    for epoch in range(epochs):
        for batch in holder.data:
            pass
"""


@pytest.mark.parametrize("named", [["."], ["train.py"], ["data/holder.py"]])
def test_a_loader_an_object_of_another_module_keeps(tmp_path, run_cli, named):
    """DL206 through an object that keeps the loader (``holder.data``, surface_normal_uncertainty's
    ``NyuLoader(args, 'train').data``): reported at the loader whichever file is named, the
    epoch loop of train.py being its evidence; with the cache, a set_epoch added to train.py
    alone removes it, from a run that names either file."""
    root = _project(tmp_path / "proj", {"data/__init__.py": "", "data/holder.py": HOLDER, "train.py": HOLDING})
    done = run_cli("--output-format", "json", *named, cwd=root)
    assert sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout)) == [("data/holder.py", 10, "DL206")]
    (root / "train.py").write_text(HOLDING.replace("        for batch", "        holder.train_sampler.set_epoch(epoch)\n        for batch"))
    done = run_cli("--output-format", "json", *named, cwd=root)
    assert json.loads(done.stdout) == [], done.stdout


COPYING_CONFIG = """\
import argparse


class Config(object):
    def __init__(self):
        parser, args = self.parse()
        for k, v in args.__dict__.items():
            self.__setattr__(k, v)

    def parse(self):
        parser = argparse.ArgumentParser()
        parser.add_argument("--num_workers", type=int, default=0)
        args = parser.parse_args()
        return parser, args
"""
COPYING_SCRIPT = """\
from torch.utils.data import DataLoader

from config import Config

cfg = Config()
loader = DataLoader([1, 2, 3], num_workers=cfg.num_workers, prefetch_factor=2)
"""


def test_a_namespace_copied_by_a_config_class_of_another_module(tmp_path, run_cli):
    """cfg.num_workers of a config object whose class copies a parsed namespace onto itself
    (DeepCAD's ConfigLGAN) is the parser's option: DL001 in train.py, whichever way it is run;
    with the cache, a new default written in config.py alone is read by a run naming
    train.py."""
    root = _project(tmp_path / "proj", {"config.py": COPYING_CONFIG, "train.py": COPYING_SCRIPT})

    def cached(*named: str) -> list:
        done = run_cli("--output-format", "json", *named, cwd=root)
        assert done.returncode in (0, 1), done.stderr
        return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))

    assert cached(".") == [("train.py", 6, "DL001")]
    assert cached("train.py") == [("train.py", 6, "DL001")]
    (root / "config.py").write_text(COPYING_CONFIG.replace("default=0", "default=2"))
    assert cached("train.py") == [("train.py", 6, "DL011")]  # configurable: it can be 0


NAMESPACE_STORE = '''import argparse


class HyperParameters:
    def parse(self):
        parser = argparse.ArgumentParser()
        parser.add_argument("--num_workers", type=int, default=0)
        self.args = vars(parser.parse_args())

    def __getitem__(self, key):
        return self.args[key]

    def __setitem__(self, key, value):
        self.args[key] = value
'''

NAMESPACE_STORE_SCRIPT = '''from torch.utils.data import DataLoader
from util.hyper_para import HyperParameters

para = HyperParameters()
para.parse()
loader = DataLoader(list(range(8)), num_workers=para["num_workers"], prefetch_factor=2)
'''

KEYWORD_STORE = '''class HParams:
    def __init__(self, **kwargs):
        self.data = {}
        for key, value in kwargs.items():
            self.data[key] = value

    def __getattr__(self, key):
        return self.data[key]

    def set_hparam(self, key, value):
        self.data[key] = value


hparams = HParams(num_workers=0, batch_size=8)
'''

KEYWORD_STORE_SCRIPT = '''from torch.utils.data import DataLoader
from hparams import hparams

loader = DataLoader(list(range(8)), batch_size=hparams.batch_size, num_workers=hparams.num_workers, prefetch_factor=2)
'''


@pytest.mark.parametrize("named", [".", "train.py", "util/hyper_para.py"])
def test_a_namespace_store_of_another_module(tmp_path, run_cli, named):
    """para["num_workers"] of an object whose class parses the command line into a dict it
    answers reads from (STCN's HyperParameters) is the parser's option: DL001 in train.py,
    also when only the class's module is named (its default is the finding's origin)."""
    root = _project(tmp_path / "proj", {"util/__init__.py": "", "util/hyper_para.py": NAMESPACE_STORE, "train.py": NAMESPACE_STORE_SCRIPT})
    done = run_cli("--output-format", "json", "--no-cache", named, cwd=root)
    assert done.returncode == 1, done.stderr
    assert sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout)) == [("train.py", 6, "DL001")]


def test_a_store_written_by_a_later_edit_of_the_script_alone(tmp_path, run_cli):
    """With the cache: a write of the key added to train.py alone (``para["num_workers"] = 2``
    through ``__setitem__``; ``hparams.set_hparam("num_workers", 2)``) makes the value unknown
    in a run naming train.py: the configurable warning replaces the crash."""
    root = _project(tmp_path / "ns", {"util/__init__.py": "", "util/hyper_para.py": NAMESPACE_STORE, "train.py": NAMESPACE_STORE_SCRIPT})
    kw = _project(tmp_path / "kw", {"hparams.py": KEYWORD_STORE, "train.py": KEYWORD_STORE_SCRIPT})

    def cached(where, *named: str) -> list:
        done = run_cli("--output-format", "json", *named, cwd=where)
        assert done.returncode in (0, 1), done.stderr
        return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))

    assert cached(root, ".") == [("train.py", 6, "DL001")]
    (root / "train.py").write_text(NAMESPACE_STORE_SCRIPT.replace("para.parse()\n", 'para.parse()\npara["num_workers"] = 2\n'))
    assert cached(root, "train.py") == [("train.py", 7, "DL011")]
    assert cached(kw, ".") == [("train.py", 4, "DL001")]
    (kw / "train.py").write_text(KEYWORD_STORE_SCRIPT + 'hparams.set_hparam("num_workers", 2)\n')
    assert cached(kw, "train.py") == [("train.py", 4, "DL011")]
    (kw / "train.py").write_text(KEYWORD_STORE_SCRIPT + 'hparams.set_hparam("batch_size", 2)\n')
    assert cached(kw, "train.py") == [("train.py", 4, "DL001")]  # another key: still known


EVALUATE = "def evaluate(loader):\n    for batch in loader:\n        print(batch)\n"
INLINE = "from torch.utils.data import DataLoader\n\nfrom pkg.engine import evaluate\n\nevaluate(DataLoader([1, 2, 3], num_workers=2))\n"


@pytest.mark.parametrize("named", [["."], ["run.py"], ["pkg/engine.py"]])
def test_a_loader_built_in_the_call_of_a_function_of_another_module(tmp_path, run_cli, named):
    """DL203: ``evaluate(DataLoader(..., num_workers=2))`` at import, ``evaluate`` looping over
    its parameter in another module: reported at the loader whichever file is named (the loop
    is its related location); a function that does not iterate it, or the main guard, is
    silent."""
    root = _project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/engine.py": EVALUATE, "run.py": INLINE})
    assert _found(run_cli, root, *named) == [("run.py", 5, "DL203")]
    (root / "pkg/engine.py").write_text("def evaluate(loader):\n    return len(loader)\n")
    assert _found(run_cli, root, *named) == []
    (root / "pkg/engine.py").write_text(EVALUATE)
    (root / "run.py").write_text(INLINE.replace("\nevaluate(", "\nif __name__ == '__main__':\n    evaluate("))
    assert _found(run_cli, root, *named) == []
