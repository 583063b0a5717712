from dl_lint.analysis.libraries import LIGHTNING_EVAL_HOOKS, LIGHTNING_HOOK_CLASSES, RANDOM_SAMPLERS
from dl_lint.model import Severity
from dl_lint.rules.base import Rule, call_scenarios, describe, every, replace_value, value_of


class ShuffledEvalLoader(Rule):
    code = "DL307"
    name = "shuffled-eval-loader"
    severity = Severity.WARNING
    summary = "A shuffled loader returned from a Lightning val_dataloader, test_dataloader or predict_dataloader hook."
    fix_available = "Unsafe: write `shuffle=False` (the order of evaluation and of predictions changes)."
    references = (
        "Lightning 2.6.2 (commit 7f0c343) src/lightning/pytorch/trainer/connectors/data_connector.py, "
        "_process_dataloader: the run-time warning this rule reports before the run",
        "Lightning 2.6.2 src/lightning/pytorch/utilities/data.py, _is_dataloader_shuffled",
    )
    doc = """
## What it does
Reports `shuffle=True` (any truthy value dl-lint can prove), or a `RandomSampler` with no
`shuffle` argument, on a DataLoader returned from the `val_dataloader`, `test_dataloader` or
`predict_dataloader` method of a class that derives from Lightning's `LightningModule` or
`LightningDataModule` (`lightning`, `lightning.pytorch` or `pytorch_lightning`; through the
project's own base classes too). `train_dataloader` is never reported. The loader counts as
returned when it is the `return` value, an element of a returned list, tuple or dict, or a
local name bound only to loaders and returned.

Lightning warns about exactly this at run time, once the trainer reaches the loop: "Your
`val_dataloader`'s sampler has shuffling enabled, it is strongly recommended that you turn
shuffling off for val/test dataloaders." dl-lint says it before the run, at the argument to
change.

## Why is this bad?
Evaluation visits every sample once whatever the order, so shuffling buys nothing and costs
reproducibility: with `limit_val_batches` or `limit_test_batches` below the full set, each run
scores a different random subset, so metrics from two epochs or two runs are not comparable;
images or predictions logged from the first batches change every time; `trainer.predict`
returns predictions in the shuffled order, which no longer lines up with the dataset's indices.
Under a distributed strategy Lightning also passes `shuffle=True` on to the
`DistributedSampler` it injects.

## Example
```python
class MNISTData(L.LightningDataModule):
    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=256, shuffle=True)
```

## Use instead
```python
    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=256, shuffle=False)
```

## Fix safety
The fix writes `shuffle=False`. It is unsafe: the samples a limited evaluation sees, and the
order of predictions, change (which is the point, but a test that relied on them changes too).

## Torch versions
All versions; Lightning warns since its 1.x releases.
"""

    def check_call(self, call, ctx):
        if not call.returned:
            return
        owner, _, hook = call.scope.partition(".")
        if hook not in LIGHTNING_EVAL_HOOKS:
            return  # also rules out nested functions ("Data.val_dataloader.make")
        if call.given("shuffle"):
            found = call_scenarios(call, "shuffle")
            if not every(found, lambda s: bool(value_of(s, "shuffle"))):
                return
            what, at = describe("shuffle", found), "shuffle"
            fix = replace_value(
                call, "shuffle", "False", "Turn shuffling off: `shuffle=False` (unsafe: the evaluation order changes)",
                applicability="unsafe",
            )
        elif "shuffle" not in call.opaque and _random_sampler(call):
            what, at, fix = "sampler=RandomSampler(...)", "sampler", None
        else:
            return
        datasets = call_scenarios(call, "dataset") or []
        if any(ctx.dataset_is_iterable(s["dataset"].value) for s in datasets):
            return  # an IterableDataset with shuffle or a sampler raises in torch: DL009's
        if not ctx.class_derives(owner, LIGHTNING_HOOK_CLASSES):
            return
        yield self.finding(
            call,
            at,
            f"{owner}.{hook}() returns a loader with {what}: Lightning evaluates it shuffled.",
            fix,
            detail="Lightning warns at run time that shuffling should be off for val/test loaders. "
            "Evaluation visits every sample whatever the order, so shuffling only makes runs differ: with "
            "limit_val_batches/limit_test_batches each run scores a different subset, logged samples change, and "
            "trainer.predict returns predictions out of the dataset's order. Write shuffle=False (or leave shuffle "
            "and the RandomSampler out).",
            cite=(found, ("shuffle",)) if at == "shuffle" else None,
        )


def _random_sampler(call) -> bool:
    found = call_scenarios(call, "sampler")
    return every(found, lambda s: getattr(value_of(s, "sampler"), "qualname", None) in RANDOM_SAMPLERS)


RULE = ShuffledEvalLoader()
