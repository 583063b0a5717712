from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, value_of


class DropLastWithoutBatching(Rule):
    code = "DL008"
    name = "drop-last-without-batching"
    severity = Severity.ERROR
    summary = "batch_size=None with a truthy drop_last and no batch_sampler: torch raises ValueError."
    torch_raises = (ValueError, "batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
    doc = """
## What it does
Reports `batch_size=None` (automatic batching off) with a truthy `drop_last` and no `batch_sampler`.

## Why is this bad?
With `batch_size=None` the loader yields single samples; there is no last batch to drop. The
constructor raises `ValueError: batch_size=None option disables auto-batching and is mutually
exclusive with drop_last`.

## Example
```python
loader = DataLoader(stream, batch_size=None, drop_last=True)
```

## Use instead
```python
loader = DataLoader(stream, batch_size=None)  # the dataset yields ready batches
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        if not (call.given("batch_size") and call.given("drop_last")):
            return
        found = fires(
            call,
            ("batch_size", "drop_last", "batch_sampler"),
            lambda s: value_of(s, "batch_size") is None
            and bool(value_of(s, "drop_last"))
            and value_of(s, "batch_sampler") is None,
        )
        if found:
            yield self.finding(
                call,
                "drop_last",
                "drop_last is set but batch_size=None turns automatic batching off: torch raises ValueError at "
                "construction.",
                detail="torch's error: \"batch_size=None option disables auto-batching and is mutually exclusive "
                "with drop_last\". Remove drop_last, or give a batch_size.",
            )


RULE = DropLastWithoutBatching()
