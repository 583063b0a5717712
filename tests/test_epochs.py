"""DL206's facts (dl_lint.analysis.epochs): a loader's DistributedSampler, its epoch loop, the
set_epoch calls, and every way the loader or the sampler leaves the code that can be read."""

from __future__ import annotations

import textwrap

import pytest

from dl_lint.analysis.module import analyze_source

HEADER = """
import lightning.pytorch as pl
from accelerate import Accelerator
from torch.utils.data import DataLoader, DistributedSampler
"""


def facts(body: str):
    source = HEADER + textwrap.dedent(body)
    (call,) = [c for c in analyze_source(source, "train.py", "train").calls if c.sampler_epochs is not None]
    return call.sampler_epochs


def test_an_epoch_loop_around_the_iteration_and_no_set_epoch():
    found = facts(
        """
        def train(ds, epochs, model):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            print(len(loader), len(sampler), len(loader.dataset))
            for epoch in range(epochs):
                for step, batch in enumerate(loader):
                    model(batch)
        """
    )
    assert found.escape is None and found.set_epoch is None
    assert (found.epoch.epoch_row, found.epoch.iteration_row) == (10, 11)
    assert found.samplers[0].shuffle.single.value is True and found.samplers[0].seed_constant


@pytest.mark.parametrize(
    "epoch_body",
    ["sampler.set_epoch(epoch)", "loader.sampler.set_epoch(epoch)", "loader.batch_sampler.sampler.set_epoch(epoch)"],
)
def test_set_epoch_on_the_sampler_or_through_the_loader(epoch_body):
    found = facts(
        f"""
        def train(ds, epochs):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                {epoch_body}
                for batch in loader:
                    pass
        """
    )
    assert found.set_epoch == 10 and found.escape is None


@pytest.mark.parametrize(
    "use, reason",
    [
        ("trainer = pl.Trainer()\n            trainer.fit(None, loader)", "Lightning's Trainer calls set_epoch"),
        # rebound in straight-line code: the read in the rebinding's own value is the first loader's
        ("loader = Accelerator().prepare(loader)", "accelerate's prepared loader calls set_epoch"),
        ("loader = wrap(loader)", "the loader is passed to wrap()"),
        ("accelerator = Accelerator()\n            other = accelerator.prepare(loader)", "accelerate's prepared loader calls set_epoch"),
        ("engine.run(loader)", "passed to engine.run()"),
        ("return loader", "the loader train() returns goes to callers not read"),
        ("return loader, sampler", "the loader train() returns goes to callers not read"),
        # a name holding a bar over the loader on one binding and something else on another
        ("pbar = tqdm(loader)\n            pbar = engine", "the loader is wrapped on line"),
        ("batches = loader.sampler", "loader.sampler is used on line"),
        ("helper(sampler)", "the sampler is used on line"),
    ],
)
def test_a_loader_or_sampler_out_of_sight_is_unknown(use, reason):
    found = facts(
        f"""
        def train(ds, epochs, engine):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            {use}
            for epoch in range(epochs):
                for batch in loader:
                    pass
        """
    )
    assert found.escape is not None and reason in found.escape, found.escape


def test_a_returned_loader_is_followed_into_the_callers_that_bind_it():
    found = facts(
        """
        def make(ds):
            sampler = DistributedSampler(ds) if ds.distributed else None
            loader = DataLoader(ds, sampler=sampler, shuffle=sampler is None)
            return loader, ds, None

        def train(ds, epochs):
            train_loader, valset, collate_fn = make(ds)
            for epoch in range(epochs):
                for batch in enumerate(train_loader):
                    pass
        """
    )
    assert found.escape is None and found.set_epoch is None and found.returned == "make"
    assert (found.epoch.epoch_row, found.epoch.iteration_row) == (13, 14)


@pytest.mark.parametrize(
    "caller, reason",
    [
        ("loader, _, _ = make(ds)\n    for e in range(9):\n        loader.sampler.set_epoch(e)\n        for b in loader: pass", None),
        ("_, _, sampler = make(ds)\n    sampler.set_epoch(0)\n    loader = make(ds)[0]", "not bound to one name"),
        ("for e in range(9):\n        loader, _, _ = make(ds)\n        for b in loader: pass", "called in a loop"),
        ("val_loader, _, _ = make(ds)\n    for e in range(9):\n        for b in val_loader: pass", "for evaluation"),
        ("loader, _ = make(ds)", "not bound to one name"),
        ("loader, _, _ = make(ds)\n    engine.run(loader)", "passed to engine.run()"),
    ],
)
def test_a_returned_loader_with_callers_that_cannot_be_read_or_call_set_epoch(caller, reason):
    found = facts(
        "def make(ds):\n"
        "    sampler = DistributedSampler(ds)\n"
        "    loader = DataLoader(ds, sampler=sampler)\n"
        "    return loader, ds, sampler\n"
        "\n"
        "def train(ds, engine):\n"
        f"    {caller}\n"
    )
    if reason is None:  # the caller calls set_epoch through the loader
        assert found.escape is None and found.set_epoch == 13 and found.epoch is not None
    else:
        assert found.escape is not None and reason in found.escape, found.escape


def test_a_sampler_returned_beside_the_loader_takes_the_callers_set_epoch():
    found = facts(
        """
        def make(ds):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            return loader, len(ds), sampler

        def train(ds, epochs):
            loader, length, train_sampler = make(ds)
            for epoch in range(epochs):
                train_sampler.set_epoch(epoch)
                for batch in loader:
                    pass
        """
    )
    assert found.escape is None and found.set_epoch == 14 and found.epoch is not None


def test_helpers_of_the_module_are_followed_and_single_passes_have_no_epoch_loop():
    found = facts(
        """
        def run(loader):
            for batch in loader:
                pass

        def train(ds, epochs):
            loader = DataLoader(ds, sampler=DistributedSampler(ds, shuffle=False, seed=7))
            run(loader)
            for _ in range(1):
                run(loader)
            while epochs:
                run(loader)
        """
    )
    assert found.epoch.epoch_row == 15 and found.epoch.through == "run"
    assert found.samplers[0].shuffle.single.value is False and found.samplers[0].seed == "7"


def test_a_set_epoch_on_a_narrower_condition_leaves_the_other_paths_without_it():
    found = facts(
        """
        def train(ds, epochs, args):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                if args.distributed and epoch > 0:
                    sampler.set_epoch(epoch)
                for batch in loader:
                    pass
        """
    )
    assert found.set_epoch is None and found.narrow == (11, "args.distributedandepoch>0")


@pytest.mark.parametrize(
    "built, guard",
    [
        ("sampler = DistributedSampler(ds) if args.distributed else None", "args.distributed"),
        ("sampler = DistributedSampler(ds)", "sampler is not None"),
        ("sampler = DistributedSampler(ds)", "hasattr(loader.sampler, 'set_epoch')"),
    ],
)
def test_a_set_epoch_under_the_samplers_own_condition_is_no_narrower(built, guard):
    found = facts(
        f"""
        def train(ds, epochs, args):
            {built}
            loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                if {guard}:
                    sampler.set_epoch(epoch)
                for batch in loader:
                    pass
        """
    )
    assert found.narrow is None and found.set_epoch == 11


def test_a_sampler_rebuilt_on_every_pass():
    found = facts(
        """
        def train(ds, epochs):
            for epoch in range(epochs):
                sampler = DistributedSampler(ds)
                loader = DataLoader(ds, sampler=sampler)
                for batch in loader:
                    pass
        """
    )
    assert found.rebuilt and found.escape is None and found.epoch.epoch_row == 7


def test_the_epoch_function_of_another_module_is_followed_whatever_files_are_named(tmp_path):
    """Issue 26: engine.py's train_one_epoch() is read through the project index when only the
    script is named; an edit of engine.py (it calls set_epoch now) changes the cached answer."""
    from dl_lint import lint_paths

    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "engine.py").write_text("def train_one_epoch(model, data_loader):\n    for batch in data_loader:\n        model(batch)\n")
    (tmp_path / "main.py").write_text(
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "from engine import train_one_epoch\n\n\n"
        "def main(ds, model, epochs):\n"
        "    sampler = DistributedSampler(ds)\n"
        "    loader = DataLoader(ds, sampler=sampler)\n"
        "    for epoch in range(epochs):\n"
        "        train_one_epoch(model, loader)\n"
    )
    whole = [(d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    alone = [(d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in lint_paths([tmp_path / "main.py"]).diagnostics]
    assert whole == alone == [("main.py", 7, "DL206")]
    cache = tmp_path / "cache"
    assert [d.code for d in lint_paths([tmp_path / "main.py"], cache=True, cache_dir=cache).diagnostics] == ["DL206"]
    (tmp_path / "engine.py").write_text(
        "def train_one_epoch(model, data_loader, epoch=0):\n"
        "    data_loader.sampler.set_epoch(epoch)\n"
        "    for batch in data_loader:\n"
        "        model(batch)\n"
    )
    assert lint_paths([tmp_path / "main.py"], cache=True, cache_dir=cache).diagnostics == []


@pytest.mark.parametrize(
    "rebinding, use, escapes",
    [
        ("loader = tqdm(loader)", "loader.set_description('loss')", False),
        ("loader = tqdm(loader, total=len(loader))", "loader.set_postfix(loss=1.0)", False),
        ("loader = tqdm(loader)", "loader.sampler.set_epoch(0)", False),  # still a set_epoch: silences
        ("loader = tqdm(loader)", "print(loader.n)", False),
        ("loader = tqdm(loader)", "loader.collate_fn", True),  # not the bar's: the loader is used
        ("loader = Prefetcher(loader)", "loader.set_description('loss')", True),  # not a progress bar
        ("loader = tqdm(loader, loader)", "print(0)", True),  # the loader in another argument too
    ],
)
def test_a_progress_bar_over_the_parameter_is_the_loader(rebinding, use, escapes):
    """``if primary: loader = tqdm(loader)`` in the epoch function (vq-vae-2-pytorch's train()):
    the name holds the loader or a bar iterating it, and the bar's own methods are not uses of
    the sampler."""
    found = facts(
        f"""
        def run(loader, primary):
            if primary:
                {rebinding}
            for batch in loader:
                {use}

        def train(ds, epochs):
            sampler = DistributedSampler(ds)
            loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                run(loader, epoch == 0)
        """
    )
    assert (found.escape is not None) == escapes, found.escape
    if not escapes and "set_epoch" not in use:
        assert found.set_epoch is None and found.epoch.through == "run"


KEPT = """
class Trainer:
    def __init__(self, train_loader, epochs, hooks=()):
        self.train_loader = train_loader
        self.epochs = epochs
        self.hooks = hooks

    def run_epoch(self, epoch):
        for step, batch in enumerate(self.train_loader):
            pass

    def train(self):
        for epoch in range(self.epochs):
            {in_loop}
            self.run_epoch(epoch)
{more}

def main(ds, epochs):
    loader = DataLoader(ds, sampler=DistributedSampler(ds))
    {build}
"""


def kept(in_loop="pass", more="", build="trainer = Trainer(loader, epochs)\n    trainer.train()"):
    (call,) = [
        c
        for c in analyze_source(HEADER + KEPT.format(in_loop=in_loop, more=more, build=build), "train.py", "train").calls
        if c.sampler_epochs is not None
    ]
    return call.sampler_epochs


def test_a_loader_kept_by_a_constructor_is_followed_into_the_methods_of_its_class():
    found = kept()
    assert found.escape is None and found.set_epoch is None
    assert (found.epoch.epoch_row, found.epoch.iteration_row, found.epoch.through) == (17, 19, "run_epoch")  # the call of the method that iterates it
    assert found.kept == "Trainer.train_loader"


@pytest.mark.parametrize(
    "in_loop, more, build, reason",
    [
        ("self.train_loader.sampler.set_epoch(epoch)", "", None, None),
        ("for hook in self.hooks: hook(self)", "", None, "the object is handed on on line 18"),
        ("pass", "class Other(Trainer):\n    pass", None, "Trainer has a subclass (Other)"),
        ("pass", "", "trainer = Trainer(loader, epochs)\n    trainer.train_loader = None", "is used on line"),
        ("pass", "", "trainer = Trainer(loader, epochs)\n    trainer.train_loader.sampler.set_epoch(0)", "is used on line"),
        ("pass", "", "run(Trainer(loader, epochs))", "is handed on"),
        ("pass", "", "trainer = Trainer(loader, epochs)\n    run(trainer)", "is used on line"),
        ("pass", "", "trainer = Trainer(loader, epochs)\n    trainer.train()\n    other.train_loader = None", "used outside its class"),
        ("pass", "", "trainer = Trainer(loader, epochs)\n    trainer.train()\n    print(getattr(other, 'train_loader'))", "is named on line"),
        ("self.sampler.set_epoch(epoch)", "", None, "Trainer calls set_epoch on something not followed"),
    ],
)
def test_a_kept_loader_that_something_else_may_reach_is_unknown(in_loop, more, build, reason):
    found = kept(in_loop, more, build) if build is not None else kept(in_loop, more)
    if reason is None:
        assert found.set_epoch is not None and found.escape is None
    else:
        assert reason in (found.escape or ""), found.escape


@pytest.mark.parametrize(
    "body, reason",
    [
        ("self.sampler = DistributedSampler(ds)\n        self.sampler = DistributedSampler(ds, shuffle=False)\n        self.loader = DataLoader(ds, sampler=self.sampler)", None),
        ("self.sampler = DistributedSampler(ds)\n        self.loader = DataLoader(ds, sampler=self.sampler)\n        self.sampler.set_epoch(0)", None),
        ("self.sampler = DistributedSampler(ds)\n        self.loader = DataLoader(ds, sampler=self.sampler)\n        print(getattr(self, 'sampler'))", None),
        ("sampler = DistributedSampler(ds)\n        self.sampler = sampler\n        self.loader = DataLoader(ds, sampler=sampler)", "the sampler is used"),
        ("self.loader = DataLoader(ds, sampler=DistributedSampler(ds))\n        self.loader = self.loader", "assigned again"),
        ("self.val_loader = DataLoader(ds, sampler=DistributedSampler(ds))", "says it evaluates"),
    ],
)
def test_a_loader_built_in_a_method_is_followed_in_its_class(body, reason):
    source = HEADER + textwrap.dedent(
        """
        class Learner:
            def __init__(self, ds, epochs):
                {body}
                self.epochs = epochs

            def fit(self):
                for epoch in range(self.epochs):
                    for batch in self.loader:
                        pass
        """
    ).replace("{body}", body)
    calls = [c for c in analyze_source(source, "train.py", "train").calls if c.sampler_epochs is not None]
    if reason is None:
        assert calls == []  # a kept sampler stored twice, given set_epoch, or named by a string: not read (silent)
        return
    assert reason in (calls[0].sampler_epochs.escape or ""), calls[0].sampler_epochs.escape


def test_a_sampler_kept_once_on_the_object_is_read_when_nothing_names_set_epoch():
    source = HEADER + textwrap.dedent(
        """
        class Learner:
            def __init__(self, ds, epochs, distributed):
                self.sampler = DistributedSampler(ds) if distributed else None
                self.loader = DataLoader(ds, sampler=self.sampler)
                self.epochs = epochs

            def fit(self):
                for epoch in range(self.epochs):
                    for batch in self.loader:
                        pass
        """
    )
    calls = [c for c in analyze_source(source, "train.py", "train").calls if c.sampler_epochs is not None]
    assert len(calls) == 1
    found = calls[0].sampler_epochs
    assert found.escape is None and found.set_epoch is None and found.epoch is not None
    # read on another object in the module: it may be given set_epoch there
    outside = source + "\n\ndef hook(learner):\n    return learner.sampler\n"
    assert [c for c in analyze_source(outside, "train.py", "train").calls if c.sampler_epochs is not None] == []


def test_a_loader_built_in_a_method_and_iterated_in_the_epoch_loop():
    found = facts(
        """
        class Learner:
            def __init__(self, ds, epochs):
                self.loader = DataLoader(ds, sampler=DistributedSampler(ds))
                self.epochs = epochs

            def one_epoch(self):
                for batch in tqdm(self.loader):
                    pass

            def fit(self):
                for epoch in range(self.epochs):
                    self.one_epoch()
        """
    )
    assert found.escape is None and found.set_epoch is None
    assert (found.epoch.epoch_row, found.epoch.iteration_row) == (16, 17)  # the call of one_epoch()


@pytest.mark.parametrize("more, reason", [("", None), ("class Other(Runner):\n    pass", "Runner has a subclass (Other)")])
def test_a_loader_handed_to_a_method_of_its_own_class(more, reason):
    source = HEADER + textwrap.dedent(
        """
        class Runner:
            def run_epoch(self, loader):
                for batch in loader:
                    pass

            def fit(self, ds, epochs):
                loader = DataLoader(ds, sampler=DistributedSampler(ds))
                for epoch in range(epochs):
                    self.run_epoch(loader)
        """
    ) + more
    (call,) = [c for c in analyze_source(source, "train.py", "train").calls if c.sampler_epochs is not None]
    found = call.sampler_epochs
    if reason is None:
        assert found.escape is None and found.epoch.epoch_row == 13 and found.epoch.through == "run_epoch"
    else:
        assert "passed to self.run_epoch()" in (found.escape or ""), found.escape  # not followed: an override may differ


@pytest.mark.parametrize("run_epoch, set_epoch", [("", False), ("loader.sampler.set_epoch(epoch)", True)])
def test_a_loader_a_method_returns_into_an_attribute_of_its_class(run_epoch, set_epoch):
    """minGPT-ddp's Trainer: ``self.train_loader = self._prepare_dataloader(train_dataset)``,
    handed to ``self._run_epoch(epoch, self.train_loader)`` in the epoch loop."""
    found = facts(
        f"""
        class Trainer:
            def __init__(self, train_dataset, epochs):
                self.train_loader = self._prepare_dataloader(train_dataset)
                self.epochs = epochs

            def _prepare_dataloader(self, dataset):
                return DataLoader(dataset, batch_size=8, sampler=DistributedSampler(dataset))

            def _run_epoch(self, epoch, loader):
                {run_epoch or "pass"}
                for batch in loader:
                    pass

            def train(self):
                for epoch in range(self.epochs):
                    self._run_epoch(epoch, self.train_loader)
        """
    )
    assert found.escape is None and found.kept == "Trainer.train_loader" and found.returned == "_prepare_dataloader"
    assert (found.set_epoch is not None) == set_epoch and found.epoch.epoch_row == 20


SIMPLE_FACTORY = "return DataLoader(dataset, batch_size=8, sampler=DistributedSampler(dataset))"
KEEPING_FACTORY = (
    "sampler = DistributedSampler(dataset)\n" + " " * 16 + "kept.append(sampler)\n" + " " * 16
    + "return DataLoader(dataset, batch_size=8, sampler=sampler)"
)


@pytest.mark.parametrize(
    "binding, factory, reason",
    [
        ("self.test_loader = self._prepare_dataloader(train_dataset, None)", SIMPLE_FACTORY, "for evaluation"),
        ("loader = self._prepare_dataloader(train_dataset, None)", SIMPLE_FACTORY, "goes to callers not read"),
        (
            "for _ in range(2):\n" + " " * 20 + "self.train_loader = self._prepare_dataloader(train_dataset, None)",
            SIMPLE_FACTORY,
            "goes to callers not read",
        ),
        ("self.train_loader = self._prepare_dataloader(train_dataset, [])", KEEPING_FACTORY, "the sampler is used on line"),
    ],
)
def test_a_loader_a_method_returns_kept_another_way_is_unknown(binding, factory, reason):
    found = facts(
        f"""
        class Trainer:
            def __init__(self, train_dataset, epochs):
                {binding}

            def _prepare_dataloader(self, dataset, kept):
                {factory}

            def train(self):
                for epoch in range(self.epochs):
                    for batch in self.train_loader:
                        pass
        """
    )
    assert reason in (found.escape or ""), found.escape


def test_a_trainer_of_another_module_is_followed_whatever_files_are_named(tmp_path):
    """trainer.py's Trainer keeps the loader and iterates it; read through the project index
    when only the script is named, and an edit of trainer.py (it calls set_epoch now) changes
    the cached answer."""
    from dl_lint import lint_paths

    trainer = (
        "class Trainer:\n"
        "    def __init__(self, model, train_loader, epochs):\n"
        "        self.model, self.epochs = model, epochs\n"
        "        self.train_loader = train_loader\n\n"
        "    def train(self):\n"
        "        for epoch in range(self.epochs):\n"
        "            {set_epoch}\n"
        "            for batch in self.train_loader:\n"
        "                self.model(batch)\n"
    )
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "trainer.py").write_text(trainer.replace("{set_epoch}", "pass"))
    (tmp_path / "main.py").write_text(
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "from trainer import Trainer\n\n\n"
        "def main(ds, model, epochs):\n"
        "    loader = DataLoader(ds, sampler=DistributedSampler(ds))\n"
        "    Trainer(model, loader, epochs).train()\n"
    )
    whole = [(d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in lint_paths([tmp_path]).diagnostics]
    alone = [(d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in lint_paths([tmp_path / "main.py"]).diagnostics]
    assert whole == alone == [("main.py", 6, "DL206")]
    cache = tmp_path / "cache"
    assert [d.code for d in lint_paths([tmp_path / "main.py"], cache=True, cache_dir=cache).diagnostics] == ["DL206"]
    (tmp_path / "trainer.py").write_text(trainer.replace("{set_epoch}", "self.train_loader.sampler.set_epoch(epoch)"))
    assert lint_paths([tmp_path / "main.py"], cache=True, cache_dir=cache).diagnostics == []


def test_a_loader_handed_to_a_static_method_of_its_own_class():
    """A staticmethod gets no object: the loader lands in its first parameter."""
    found = facts(
        """
        class Runner:
            @staticmethod
            def run_epoch(loader, scale=1):
                for batch in loader:
                    pass

            def fit(self, ds, epochs):
                loader = DataLoader(ds, sampler=DistributedSampler(ds))
                for epoch in range(epochs):
                    self.run_epoch(loader)
        """
    )
    assert found.escape is None and found.epoch.through == "run_epoch" and found.epoch.epoch_row == 14


def test_a_loader_rebound_after_an_arm_that_returns_is_bound_once_on_its_path():
    """The name the distributed path binds is rebound only in an ``if`` body that returns first
    (catalyst-bubble-detection's ``get_dataloaders``): that binding's reads are all in its arm."""
    found = facts(
        """
        def train(ds, world_size, epochs, model):
            if world_size is None:
                loader = DataLoader(ds, shuffle=True)
                return
            sampler = DistributedSampler(ds, num_replicas=world_size)
            loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                for batch in loader:
                    model(batch)
        """
    )
    assert found.escape is None and found.set_epoch is None and found.epoch.epoch_row == 12


def test_a_loader_bound_in_an_arm_that_returns_is_not_the_later_binding():
    found = facts(
        """
        def train(ds, distributed, epochs, model):
            if distributed:
                sampler = DistributedSampler(ds)
                loader = DataLoader(ds, sampler=sampler)
                for epoch in range(epochs):
                    for batch in loader:
                        model(batch)
                return
            loader = DataLoader(ds, shuffle=True)
            loader.sampler.set_epoch(0)
        """
    )
    assert found.escape is None and found.set_epoch is None and found.epoch.epoch_row == 10


@pytest.mark.parametrize(
    "arm_end, reported",
    [("return train_loader", True), ("pass", False)],
    ids=["the arm returns", "the arm falls through: rebound on one path"],
)
def test_arm_exit_decides_whether_the_rebinding_is_followed(arm_end, reported):
    found = facts(
        f"""
        def train(ds, world_size, epochs, model):
            if world_size is None:
                train_loader = DataLoader(ds, shuffle=True)
                {arm_end}
            sampler = DistributedSampler(ds, num_replicas=world_size)
            train_loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                for batch in train_loader:
                    model(batch)
        """
    )
    assert (found.escape is None and found.epoch is not None) is reported


def _factory_project(tmp_path, epoch_body: str):
    (tmp_path / "pyproject.toml").write_text("[tool.dl-lint]\n")
    (tmp_path / "data.py").write_text(
        "from torch.utils.data import DataLoader, DistributedSampler\n\n\n"
        "def get_loaders(ds, world_size, rank):\n"
        "    if world_size is None or rank is None:\n"
        "        train_loader = DataLoader(ds, shuffle=True)\n"
        "        valid_loader = DataLoader(ds)\n"
        "        return train_loader, valid_loader\n"
        "    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)\n"
        "    train_loader = DataLoader(ds, sampler=sampler)\n"
        "    valid_loader = DataLoader(ds)\n"
        "    return train_loader, valid_loader\n"
    )
    (tmp_path / "train.py").write_text(
        "from data import get_loaders\n\n\n"
        "def train_epoch(model, loader):\n"
        "    for batch in loader:\n"
        "        model(batch)\n\n\n"
        "def main(ds, model, args):\n"
        "    world_size, rank = (args.world_size, args.rank) if args.mp else (None, None)\n"
        "    train_loader, valid_loader = get_loaders(ds, world_size, rank)\n"
        "    for epoch in range(args.epochs):\n"
        f"        {epoch_body}\n"
        "        train_epoch(model, train_loader)\n"
    )


@pytest.mark.parametrize(
    "epoch_body, expected",
    [("pass", [("train.py", 11, "DL206")]), ("train_loader.sampler.set_epoch(epoch)", [])],
    ids=["no set_epoch", "set_epoch through the loader"],
)
def test_a_factorys_distributed_branch_is_judged_at_its_call_by_itself(tmp_path, epoch_body, expected):
    """At a factory's call that does not decide its ``if``, DL206 reports the loader of the
    branch that builds the DistributedSampler although the other branch builds none (a per-branch
    rule, ``Rule.per_branch``); other rules still need every branch to break them."""
    from dl_lint import lint_paths

    _factory_project(tmp_path, epoch_body)
    # the finding rests on data.py too (the loader it cites): naming either file shows it
    for named in ([tmp_path], [tmp_path / "train.py"], [tmp_path / "data.py"]):
        found = [(d.filename.rsplit("/", 1)[-1], d.location.row, d.code) for d in lint_paths(named).diagnostics]
        assert found == expected


@pytest.mark.parametrize(
    "steps, epoch_row",
    [
        # made again when it runs out, inside the step loop: that loop is the epoch loop
        ("""
         data_iter = iter(loader)
         for step in range(steps):
             try:
                 batch = next(data_iter)
             except StopIteration:
                 data_iter = iter(loader)
                 batch = next(data_iter)
         """, 9),
        # made once: a single pass
        ("""
         data_iter = iter(loader)
         for step in range(steps):
             batch = next(data_iter)
         """, None),
        # one batch from a fresh iterator each step is not a pass (DL302's question)
        ("""
         for step in range(steps):
             batch = next(iter(loader))
         """, "escape"),
    ],
)
def test_an_iterator_made_again_in_a_step_loop_is_an_epoch(steps, epoch_row):
    body = textwrap.indent(textwrap.dedent(steps).strip(), "    ")
    found = facts("def train(ds, steps):\n    sampler = DistributedSampler(ds)\n    loader = DataLoader(ds, sampler=sampler)\n" + body + "\n")
    if epoch_row == "escape":
        assert found.escape is not None
        return
    assert found.escape is None and found.set_epoch is None
    assert (found.epoch.epoch_row if found.epoch is not None else None) == epoch_row


@pytest.mark.parametrize("guard, narrow", [("not args.webdataset", None), ("not (not args.webdataset)", "args.webdataset")])
def test_a_negated_test_is_the_other_arm_of_the_samplers_condition(guard, narrow):
    # Hephaestus (held-out set 48): the sampler is built in the ``else`` arm of ``if
    # args.webdataset:`` and set_epoch runs under ``if not args.webdataset:``, the same paths
    found = facts(
        f"""
        def train(ds, epochs, args):
            if args.webdataset:
                loader = DataLoader(ds)
            else:
                sampler = DistributedSampler(ds)
                loader = DataLoader(ds, sampler=sampler)
            for epoch in range(epochs):
                if {guard}:
                    sampler.set_epoch(epoch)
                for batch in loader:
                    pass
        """
    )
    assert (found.narrow[1] if found.narrow else None) == narrow
