from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, value_of


class BatchSamplerConflict(Rule):
    code = "DL007"
    name = "batch-sampler-conflict"
    severity = Severity.ERROR
    summary = "batch_sampler with batch_size other than 1, shuffle, sampler or drop_last: torch raises ValueError."
    torch_raises = (ValueError, "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last")
    doc = """
## What it does
Reports a `batch_sampler` together with a `batch_size` other than 1 (None counts as other), a
truthy `shuffle`, a `sampler`, or a truthy `drop_last`.

## Why is this bad?
A batch sampler yields whole batches of indices, so it owns batch size, order and dropping. The
constructor raises `ValueError: batch_sampler option is mutually exclusive with batch_size,
shuffle, sampler, and drop_last`.

## Example
```python
loader = DataLoader(dataset, batch_sampler=BucketSampler(dataset), batch_size=32)
```

## Use instead
```python
loader = DataLoader(dataset, batch_sampler=BucketSampler(dataset, batch_size=32))
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        if not call.given("batch_sampler"):
            return
        names = ("batch_sampler", "batch_size", "shuffle", "sampler", "drop_last", "dataset")

        def conflicts(s):
            found = []
            if value_of(s, "batch_size") != 1 or isinstance(value_of(s, "batch_size"), bool):
                found.append(f"batch_size={value_of(s, 'batch_size')!r}")
            if bool(value_of(s, "shuffle")):
                found.append(f"shuffle={value_of(s, 'shuffle')!r}")
            if value_of(s, "sampler") is not None:
                found.append("a sampler")
            if bool(value_of(s, "drop_last")):
                found.append(f"drop_last={value_of(s, 'drop_last')!r}")
            return found

        def crashes(s):
            if ctx.dataset_is_iterable(s["dataset"].value):
                return False  # DL009: torch rejects the batch_sampler itself first
            return value_of(s, "batch_sampler") is not None and bool(conflicts(s))

        found = fires(call, names, crashes)
        if found:
            parts = conflicts(found[0])
            at = "batch_size" if call.given("batch_size") and parts[0].startswith("batch_size") else "batch_sampler"
            yield self.finding(
                call,
                at,
                f"batch_sampler is combined with {', '.join(parts)}: torch raises ValueError at construction.",
                detail="torch's error: \"batch_sampler option is mutually exclusive with batch_size, shuffle, "
                "sampler, and drop_last\". A batch sampler yields whole batches: move batch size, shuffling and "
                "drop_last into it.",
            )


RULE = BatchSamplerConflict()
