from dl_lint.model import Severity
from dl_lint.rules.base import Rule, describe, fires, remove_arg, value_of


class SamplerWithShuffle(Rule):
    code = "DL006"
    name = "sampler-with-shuffle"
    severity = Severity.ERROR
    summary = "A sampler and a truthy shuffle: torch raises ValueError."
    fix_available = "Unsafe: remove `shuffle=True` (you may have meant a RandomSampler)."
    torch_raises = (ValueError, "sampler option is mutually exclusive with shuffle")
    doc = """
## What it does
Reports a `sampler` together with a truthy `shuffle`.

## Why is this bad?
The sampler decides the order of the samples; `shuffle=True` asks torch to build a
`RandomSampler` instead. The two cannot both apply, and the constructor raises
`ValueError: sampler option is mutually exclusive with shuffle`.

## Example
```python
loader = DataLoader(dataset, sampler=DistributedSampler(dataset), shuffle=True)
```

## Use instead
```python
sampler = DistributedSampler(dataset, shuffle=True)
loader = DataLoader(dataset, sampler=sampler)
# and call sampler.set_epoch(epoch) every epoch
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        if not (call.given("sampler") and call.given("shuffle")):
            return
        found = fires(call, ("sampler", "shuffle", "dataset"), _crashes(ctx))
        if found:
            yield self.finding(
                call,
                "shuffle",
                f"{describe('shuffle', found)} with a sampler: torch raises ValueError at construction.",
                remove_arg(
                    call,
                    "shuffle",
                    "Remove shuffle (unsafe: if you meant a shuffled order, use a RandomSampler or a "
                    "sampler with shuffle=True instead)",
                    applicability="unsafe",
                ),
                detail="torch's error: \"sampler option is mutually exclusive with shuffle\". The sampler decides "
                "the order: remove shuffle, and shuffle in the sampler instead (DistributedSampler(..., "
                "shuffle=True), RandomSampler).",
            )


def _crashes(ctx):
    def predicate(s):
        if ctx.dataset_is_iterable(s["dataset"].value):
            return False  # torch rejects the sampler itself first: DL009
        return value_of(s, "sampler") is not None and bool(value_of(s, "shuffle"))

    return predicate


RULE = SamplerWithShuffle()
