from dl_lint.model import Severity
from dl_lint.rules.base import Rule, describe, fires, value_of


def _bad_batch_size(value):
    if isinstance(value, bool) or isinstance(value, float):
        return True
    return isinstance(value, int) and value <= 0


class InvalidBatchSize(Rule):
    code = "DL010"
    name = "invalid-batch-size"
    severity = Severity.ERROR
    summary = "batch_size 0, negative, a bool or a float, or drop_last not a bool: torch raises ValueError."
    torch_raises = (ValueError, "batch_size should be a positive integer value|drop_last should be a boolean value")
    doc = """
## What it does
Reports a `batch_size` that is 0, negative, a bool or a float, and a `drop_last` that is not a
bool, when automatic batching is on (batch_size not None, no batch_sampler).

## Why is this bad?
torch builds a `BatchSampler`, which raises `ValueError: batch_size should be a positive integer
value, but got batch_size=0` or `ValueError: drop_last should be a boolean value, but got
drop_last=1`. A float such as `64.0` (from a division) is rejected too.

## Example
```python
loader = DataLoader(dataset, batch_size=total / 8)
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=total // 8)
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        names = ("batch_size", "batch_sampler", "drop_last")
        if call.given("batch_size"):
            found = fires(
                call,
                names,
                lambda s: value_of(s, "batch_sampler") is None and _bad_batch_size(value_of(s, "batch_size")),
            )
            if found:
                yield self.finding(
                    call,
                    "batch_size",
                    f"{describe('batch_size', found)} is not a positive integer: torch raises ValueError at "
                    "construction.",
                    detail="torch's error: \"batch_size should be a positive integer value\". Use a positive int "
                    "(// for integer division), or batch_size=None to turn automatic batching off.",
                    cite=(found, ("batch_size",)),
                )
                return
        if call.given("drop_last"):
            found = fires(
                call,
                names,
                lambda s: value_of(s, "batch_sampler") is None
                and value_of(s, "batch_size") is not None
                and not isinstance(value_of(s, "drop_last"), bool),
            )
            if found:
                yield self.finding(
                    call,
                    "drop_last",
                    f"{describe('drop_last', found)} is not a bool: torch raises ValueError at construction.",
                    detail="torch's error: \"drop_last should be a boolean value\". Write drop_last=True or "
                    "drop_last=False.",
                    cite=(found, ("drop_last",)),
                )


RULE = InvalidBatchSize()
