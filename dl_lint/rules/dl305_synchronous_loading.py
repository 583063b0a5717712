from dl_lint.model import Severity
from dl_lint.rules.base import Rule, describe, fires, no_workers


class SynchronousLoading(Rule):
    code = "DL305"
    name = "synchronous-loading"
    # A suggestion, not a defect: loading in the main process is correct (and right for tests,
    # notebooks and small in-memory datasets). Info, like DL304, and off by default, like
    # TorchFix's TOR4xx group.
    severity = Severity.INFO
    default_on = False
    summary = "num_workers is 0 (or not given): every batch is loaded in the main process, between training steps."
    references = (
        "TorchFix 0.7.0 (commit 0ee382c) TOR401, torchfix/visitors/performance/__init__.py: the same check on literal values",
        "torch/profiler/_pattern_matcher.py SynchronizedDataLoaderPattern",
        "https://pytorch.org/docs/stable/data.html#single-and-multi-process-data-loading",
    )
    doc = """
## What it does
Reports a DataLoader whose `num_workers` is 0 in every case dl-lint can see: not given, the
literal 0, or a value it resolves to 0 (a constant, an argparse default, a config value, a
variable assigned 0 earlier, the default of a function parameter at a call that relies on
it). It never fires where `num_workers` can be more than 0 or is unknown, and a constructor's
default read back through `self` (`__init__(self, num_workers=0)` ... `num_workers=self.num_workers`)
counts as unknown: whoever builds the object chooses. Off by default: enable it with `--select DL305` or `extend-select = ["DL305"]`.

This is TorchFix's TOR401 ("DataLoader running with synchronized implementation"), which judges
only literals and stays silent on `num_workers = 0; DataLoader(..., num_workers=num_workers)`;
dl-lint resolves the variable.

## Why is this bad?
With `num_workers=0` the main process reads, decodes, augments and collates every batch itself,
and the training step waits for it: the accelerator idles while data is prepared. Worker
processes prepare the next batches while the current step runs.

Workers are not free: each is a process with its own copy of the dataset, and holds up to
`prefetch_factor` batches in shared memory (W × P batches in flight). That is why this rule is
off by default: tests, notebooks, debugging sessions and small in-memory datasets rightly load
in the main process.

## Example
```python
loader = DataLoader(dataset, batch_size=32, shuffle=True)
```

## Use instead
Start small and measure (samples per second, GPU utilisation, host memory):
```python
loader = DataLoader(dataset, batch_size=32, shuffle=True,
                    num_workers=2, prefetch_factor=1)
```
then raise `num_workers` while the accelerator still waits for data and memory allows.

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        if call.value("num_workers").source == "parameter":
            # 0 only as the default of a parameter stored on self (``self.num_workers``, with
            # ``__init__(self, num_workers=0)``): the caller chooses, so it is unknown here.
            return
        found = fires(call, ("num_workers",), no_workers)
        if not found:
            return
        yield self.finding(
            call,
            "num_workers",
            f"{describe('num_workers', found)}: every batch is loaded in the main process, between training steps.",
            detail="Each training step waits while the next batch is read and collated. Worker processes would "
            "prepare batches while the step runs; each costs a process, a copy of "
            "the dataset and prefetch_factor batches of shared memory. Try num_workers=2, prefetch_factor=1 and "
            "measure throughput, then raise num_workers while the accelerator waits for data. Tests, notebooks and "
            "small in-memory datasets are fine without workers (this rule is off by default for them).",
            cite=(found, ("num_workers",)),
        )


RULE = SynchronousLoading()
