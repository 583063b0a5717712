"""Keyword-setting configs (minGPT's TrainerConfig: ``setattr(self, k, v)`` from ``**kwargs``)
and the trainer that keeps one (``self.config = config``), read at the script's call
(``analysis.configs.setattr_configs``, ``ModuleAnalysis._bind_construction``). Torch proofs:
fixtures/rules/resolve_setattr_configs.py and setattr_config_trainer (tests/test_oracle.py),
fixtures/spawn/*setattr_config* (tests/test_spawn.py)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.setattr_configs import setattr_shape


def _shape(source: str):
    cls = ast.parse(textwrap.dedent(source)).body[0]
    found = setattr_shape(cls)
    if found is None:
        return None
    mode, checked, fields, unknown = found
    return mode, checked, {name: ast.literal_eval(value) for name, value, _ in fields}, set(unknown) - {"__init__"}


KWARGS = """
class C:
    num_workers = 0
    batch_size = 4
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
"""


def test_the_shapes_read():
    assert _shape(KWARGS) == ("kwargs", False, {"num_workers": 0, "batch_size": 4}, set())
    checked = KWARGS.replace("            setattr(self, k, v)", "            if hasattr(self, k):\n                setattr(self, k, v)")
    assert _shape(checked) == ("kwargs", True, {"num_workers": 0, "batch_size": 4}, set())
    update = "class C:\n    num_workers = 0\n    def __init__(self, config):\n        self.__dict__.update(config)\n"
    assert _shape(update) == ("dict", False, {"num_workers": 0}, set())


@pytest.mark.parametrize(
    "old, new, unknown",
    [
        ("    def __init__", "    def tune(self):\n        self.num_workers = 2\n    def __init__", {"num_workers", "tune"}),
        ("            setattr(self, k, v)", "            setattr(self, k, v)\n        self.batch_size = 8", {"batch_size"}),
        ("    def __init__", "    @property\n    def batch_size(self):\n        return 2\n    def __init__", {"batch_size"}),
    ],
)
def test_other_setters_make_their_names_unknown(old, new, unknown):
    assert old in KWARGS
    mode, _checked, fields, left = _shape(KWARGS.replace(old, new))
    assert mode == "kwargs" and left == unknown and not (set(fields) & unknown)


@pytest.mark.parametrize(
    "source",
    [
        KWARGS.replace("class C:", "class C(Base):"),
        KWARGS.replace("class C:", "@dataclass\nclass C:"),
        KWARGS.replace("    def __init__", "    def set(self, k, v):\n        setattr(self, k, v)\n    def __init__"),
        KWARGS.replace("    def __init__", "    def __setattr__(self, k, v):\n        pass\n    def __init__"),
        KWARGS.replace("            setattr(self, k, v)", "            setattr(self, k.lower(), v)"),
        KWARGS.replace("            setattr(self, k, v)", "            setattr(self, k, v)\n        kwargs.clear()\n        self.reset()"),
    ],
)
def test_classes_that_are_not_read(source):
    assert _shape(source) is None


TRAINER = '''
from torch.utils.data import DataLoader


class TrainerConfig:
    max_epochs = 10
    batch_size = 64
    num_workers = 0

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)


class Trainer:
    def __init__(self, model, train_dataset, test_dataset, config):
        self.model = model
        self.train_dataset = train_dataset
        self.config = config

    def train(self):
        model, config = self.model, self.config

        def run_epoch(split):
            is_train = split == "train"
            loader = DataLoader(self.train_dataset, shuffle=True, batch_size=config.batch_size, num_workers=config.num_workers)
            pbar = tqdm(enumerate(loader), total=len(loader)) if is_train else enumerate(loader)
            for it, (x, y) in pbar:
                pass

        for epoch in range(config.max_epochs):
            run_epoch("train")
'''

SCRIPT = '''
from mingpt.trainer import Trainer, TrainerConfig

tconf = TrainerConfig(max_epochs=2, batch_size=4, num_workers=4)
trainer = Trainer(model, train_dataset, None, tconf)
trainer.train()
'''


def _project(tmp_path: Path, script: str, trainer: str = TRAINER) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "mingpt").mkdir()
    (tmp_path / "mingpt" / "__init__.py").write_text("")
    (tmp_path / "mingpt" / "trainer.py").write_text(trainer)
    (tmp_path / "run.py").write_text(script)
    return tmp_path


def _dl203(paths):
    return [(Path(d.filename).name, d.location.row) for d in lint_paths(paths).diagnostics if d.code == "DL203"]


def test_the_mingpt_trainer_is_dl203_at_the_unguarded_call_on_every_kind_of_run(tmp_path):
    """decision-transformer's DT-1: a full run, a run naming only the script, and a run naming
    only the trainer module (the finding rests on it) report the same finding."""
    root = _project(tmp_path, SCRIPT)
    assert _dl203([root]) == [("run.py", 6)]
    assert _dl203([root / "run.py"]) == [("run.py", 6)]
    assert _dl203([root / "mingpt" / "trainer.py"]) == [("run.py", 6)]


@pytest.mark.parametrize(
    "change",
    [
        ("batch_size=4, num_workers=4)", "batch_size=4)"),  # the class attribute: 0 workers
        ("num_workers=4)", "num_workers=0)"),
        ("trainer.train()", "tconf.num_workers = 0\ntrainer.train()"),  # edited after construction
        ("trainer.train()", "trainer.config.num_workers = 0\ntrainer.train()"),
        ("trainer.train()", "other = tconf\nother.num_workers = 0\ntrainer.train()"),
        ("trainer = Trainer(", "setup(tconf)\ntrainer = Trainer("),  # handed to something else
        ("trainer = Trainer(", "holder.config = tconf\ntrainer = Trainer("),
        ("trainer = Trainer(model, train_dataset, None, tconf)", "trainer = Trainer(model, train_dataset, None, tconf)\ntrainer = other"),
        ("trainer.train()", "if __name__ == '__main__':\n    trainer.train()"),
    ],
)
def test_silent_where_the_workers_or_the_iteration_are_not_certain(tmp_path, change):
    root = _project(tmp_path, SCRIPT.replace(*change))
    assert _dl203([root]) == []


@pytest.mark.parametrize(
    "change",
    [
        ("        for epoch in range(config.max_epochs):\n            run_epoch(\"train\")", "        if config.max_epochs:\n            run_epoch(\"train\")"),
        ("            run_epoch(\"train\")", "            run_epoch(\"train\")\n        self.run_epoch = run_epoch"),
        ("    def train(self):", "    def tune(self):\n        self.config = TrainerConfig()\n\n    def train(self):"),
        ("            pbar = tqdm(enumerate(loader), total=len(loader)) if is_train else enumerate(loader)", "            pbar = enumerate(loader) if is_train else []"),
    ],
)
def test_silent_where_the_trainer_may_not_run_the_loader_or_holds_another_config(tmp_path, change):
    assert change[0] in TRAINER
    root = _project(tmp_path, SCRIPT, TRAINER.replace(*change))
    assert _dl203([root]) == []


def test_a_progress_bar_or_the_loader_itself_on_either_branch_iterates_it(tmp_path):
    trainer = TRAINER.replace(
        "pbar = tqdm(enumerate(loader), total=len(loader)) if is_train else enumerate(loader)",
        "pbar = tqdm(loader) if is_train else loader",
    )
    root = _project(tmp_path, SCRIPT, trainer)
    assert _dl203([root]) == [("run.py", 6)]


WRAPPED = '''
from torch.utils.data import DataLoader

loader = DataLoader(range(8), batch_size=2, num_workers=2)
REBIND
bar = tqdm(enumerate(loader)) if verbose else loader
for i, batch in bar:
    pass
'''


@pytest.mark.parametrize("rebind, reported", [("", True), ("if private:\n    loader = make_private(loader)", False)])
def test_a_wrapper_of_the_loader_iterated_at_import(tmp_path, rebind, reported):
    """A name bound to the loader in wrappers (on each branch) iterates it; not when the
    loader's name is rebound on some path first (opacus' dcgan.py: ``dataloader =
    privacy_engine.make_private(...)`` under an ``if``), as for a plain second name."""
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "train.py").write_text(WRAPPED.replace("REBIND", rebind))
    assert _dl203([tmp_path]) == ([("train.py", 4)] if reported else [])


# -- the byte check that spares a parse (``prefilter.may_be_keyword_setter``) -------------------

from dl_lint.analysis.prefilter import may_be_keyword_setter  # noqa: E402


@pytest.mark.parametrize(
    "source",
    [
        KWARGS,
        KWARGS.replace("class C:", "class C(object):"),
        KWARGS.replace("class C:", "class C(\n    object,\n):"),
        KWARGS.replace("class C:", "class C():"),
        KWARGS.replace("def __init__(self, **kwargs):", "def __init__(\n        self,\n        **kwargs,\n    ):"),
        KWARGS.replace("def __init__(self, **kwargs):", "def __init__(self, **kwargs: Any) -> None:"),
        "class C:\n    num_workers = 0\n    def __init__(self, config):\n        self.__dict__.update(config)\n",
        "class C:\n    num_workers = 0\n    def __init__(self, config: Dict[str, int]):\n        self.__dict__.update(config)\n",
    ],
)
def test_the_byte_check_never_rules_out_a_class_that_is_read(source):
    assert _shape(source) is not None
    assert may_be_keyword_setter(textwrap.dedent(source).encode(), "C")


@pytest.mark.parametrize(
    "source",
    [
        KWARGS.replace("class C:", "class C(Base):"),
        KWARGS.replace("class C:", "class C(Base, metaclass=Meta):"),
        KWARGS.replace("def __init__(self, **kwargs):", "def __init__(self, device: str = 'cpu', **kwargs):"),
        KWARGS.replace("def __init__(self, **kwargs):", "def __init__(self, config=None):"),
        KWARGS.replace("    def __init__(self, **kwargs):\n", "    def setup(self, **kwargs):\n"),  # no __init__
    ],
)
def test_the_byte_check_rules_out_what_its_bytes_show(source):
    assert _shape(source) is None
    assert not may_be_keyword_setter(textwrap.dedent(source).encode(), "C")
    assert not may_be_keyword_setter(KWARGS.encode(), "D")  # no class of that name


CONFIG_MODULE = '''
class TrainerConfig(Base):
    max_epochs = 10
    batch_size = 64
    num_workers = 0

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
'''


def test_a_config_module_ruled_out_by_its_bytes_is_judged_again_when_they_change(tmp_path):
    """The trainer's module is judged with the config's module unparsed while its class names
    a base; the cached answer rests on those bytes: making the class a keyword setter (and back)
    changes the finding in a warm run."""
    script = SCRIPT.replace("from mingpt.trainer import Trainer, TrainerConfig",
                            "from mingpt.trainer import Trainer\nfrom mingpt.config import TrainerConfig")
    trainer = TRAINER.replace(TRAINER[TRAINER.index("class TrainerConfig:") : TRAINER.index("class Trainer:")], "")
    (tmp_path / "p").mkdir()
    root = _project(tmp_path / "p", script, trainer)
    config = root / "mingpt" / "config.py"
    config.write_text(CONFIG_MODULE)
    cache = tmp_path / "cache"

    def dl203():
        found = lint_paths([root], cache=True, cache_dir=cache).diagnostics
        return [(Path(d.filename).name, d.location.row) for d in found if d.code == "DL203"]

    assert dl203() == [] and dl203() == []  # cold, then warm
    config.write_text(CONFIG_MODULE.replace("(Base)", ""))
    assert dl203() == [("run.py", 7)]
    config.write_text(CONFIG_MODULE.replace("(Base)", "").replace("(self, **kwargs)", "(self, seed=0, **kwargs)"))
    assert dl203() == []


@pytest.mark.parametrize(
    "text, expected",
    [
        (b"def __init__(self, **kwargs):", True),
        (b"def __init__(self, seed=0):\n    pass\ndef __init__(self, config):", True),  # the second head
        (b"def __init__(self, seed=0)", False),
        (b"def __init__(self, a\n" * 1000, False),  # heads never closed: no ``)`` at all
        (b"def __init__(self, a\n" * 1000 + b"def __init__(self, x=1):", False),  # every ``)`` after an ``=``
        (b"def __init__(self, a\n" * 1000 + b")", True),  # the first head reaches ``)`` without ``=``
    ],
)
def test_the_defaults_free_head_search(text, expected):
    from dl_lint.analysis.prefilter import _defaultless_init

    assert _defaultless_init(text) is expected
