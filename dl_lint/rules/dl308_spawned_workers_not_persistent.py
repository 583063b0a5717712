from dl_lint.analysis.libraries import LIGHTNING_HOOK_CLASSES, LIGHTNING_HOOKS
from dl_lint.model import Severity
from dl_lint.rules.base import Rule, describe, fires, has_workers, value_of


class SpawnedWorkersNotPersistent(Rule):
    code = "DL308"
    name = "spawned-workers-not-persistent"
    severity = Severity.WARNING
    summary = "A Lightning hook's loader starts spawn workers without persistent_workers: they are spawned again every epoch."
    references = (
        "Lightning 2.6.2 (commit 7f0c343) src/lightning/pytorch/trainer/connectors/data_connector.py, "
        "_worker_check: the run-time warning this rule reports before the run",
        "https://pytorch.org/docs/stable/data.html#multi-process-data-loading",
    )
    doc = """
## What it does
Reports a DataLoader returned from a `train_dataloader`, `val_dataloader`, `test_dataloader` or
`predict_dataloader` method of a Lightning `LightningModule` or `LightningDataModule` when it
has workers, its `multiprocessing_context` is `"spawn"` and `persistent_workers` is off, every
value proven. Lightning warns about exactly this at run time ("Consider setting
`persistent_workers=True` in 'train_dataloader' to speed up the dataloader worker
initialization."). A loader without an explicit context is not judged: its start method is the
platform's (spawn on macOS and Windows, fork or forkserver on Linux), which only the run knows.

## Why is this bad?
Lightning iterates the loader again every epoch (and every validation run), and without
persistent workers each iteration starts all its workers afresh. Under spawn every worker is a
new Python interpreter that re-imports the training script and unpickles the dataset before the
first batch, which can take seconds per epoch and dominates short epochs.

## Example
```python
class Data(L.LightningDataModule):
    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=64, num_workers=8, multiprocessing_context="spawn")
```

## Use instead
```python
        return DataLoader(self.train_set, batch_size=64, num_workers=8,
                          multiprocessing_context="spawn", persistent_workers=True)
```
Persistent workers keep their dataset copy and state between epochs (host memory held for the
whole run).

## Torch versions
All versions (persistent_workers from 1.7).
"""

    def check_call(self, call, ctx):
        if not call.returned or not call.given("multiprocessing_context"):
            return
        owner, _, hook = call.scope.partition(".")
        if hook not in LIGHTNING_HOOKS:
            return
        names = ("num_workers", "multiprocessing_context", "persistent_workers")
        found = fires(
            call,
            names,
            lambda s: has_workers(s)
            and value_of(s, "multiprocessing_context") == "spawn"
            and not value_of(s, "persistent_workers"),
        )
        if not found or not ctx.class_derives(owner, LIGHTNING_HOOK_CLASSES):
            return
        yield self.finding(
            call,
            "multiprocessing_context",
            f"{owner}.{hook}() spawns {describe('num_workers', found)} without persistent_workers: again every epoch.",
            detail=f"The loader {owner}.{hook}() returns has multiprocessing_context='spawn' and no "
            "persistent_workers, and Lightning iterates it every epoch, so every epoch spawns its workers again. "
            "Each spawned worker is a new interpreter that re-imports the script and unpickles the dataset "
            "before the first batch; Lightning warns \"Consider setting `persistent_workers=True`\" at run time. "
            "Write persistent_workers=True (the workers and their dataset copies then stay for the whole run).",
            cite=(found, names),
        )


RULE = SpawnedWorkersNotPersistent()
