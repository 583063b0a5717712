from dl_lint.model import Severity
from dl_lint.rules.base import Rule, call_scenarios, describe, fires, remove_arg, value_of


class SamplerWithShuffle(Rule):
    code = "DL006"
    name = "sampler-with-shuffle"
    severity = Severity.ERROR
    summary = "A sampler and a truthy shuffle: torch raises ValueError."
    fix_available = "Unsafe: remove `shuffle=True` (you may have meant a RandomSampler)."
    torch_raises = (ValueError, "sampler option is mutually exclusive with shuffle")
    doc = """
## What it does
Reports a `sampler` together with a truthy `shuffle`, whatever the dataset: torch raises
ValueError for a map-style dataset ("sampler option is mutually exclusive with shuffle") and for
an IterableDataset ("expected unspecified shuffle option"), so a dataset dl-lint cannot resolve (a
factory's result) does not keep it silent. A dataset known to be an IterableDataset is DL009's.

Torch checks only `sampler is not None`, so any sampler known not to be None counts: an instance
of a class (`RandomSampler(ds)`, `DistributedSampler(ds)`, a class of the project), a literal
(`[0, 1]`, `(0, 1)`), and the result of a call that never returns None: Python's `range`,
`list`, `tuple`, `set`, `frozenset`, `sorted`, `reversed`, `iter`, `enumerate`, `zip`, `map`,
`filter`, and torch's `randperm`, `arange`, `tensor`, `as_tensor`, `randint`, `multinomial`. A
sampler that may be None stays silent: another function's result (`sampler=get_sampler()`), or
a shuffle that depends on it (`shuffle=(sampler is None)`).

## Why is this bad?
The sampler decides the order of the samples; `shuffle=True` asks torch to build a
`RandomSampler` instead. The two cannot both apply, and the constructor raises
`ValueError: sampler option is mutually exclusive with shuffle`.

## Example
```python
loader = DataLoader(dataset, sampler=DistributedSampler(dataset), shuffle=True)
loader = DataLoader(dataset, sampler=torch.randperm(len(dataset)), shuffle=True)
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
        # Torch raises ValueError for every dataset: map-style with this rule's message; an
        # IterableDataset rejects the shuffle (or the sampler) first. So the dataset matters only
        # to leave a known IterableDataset to DL009 (one argument, one diagnostic); a dataset we
        # cannot resolve (a factory's result, a registry lookup) still crashes.
        datasets = call_scenarios(call, "dataset")
        if datasets and any(ctx.dataset_is_iterable(s["dataset"].value) for s in datasets):
            return
        found = fires(call, ("sampler", "shuffle"), _crashes)
        if found:
            known = bool(datasets) and all(ctx.dataset_class(s["dataset"].value) is not None for s in datasets)
            error = "torch's error: \"sampler option is mutually exclusive with shuffle\""
            if not known:
                error += " (for an IterableDataset: \"expected unspecified shuffle option\"; a ValueError either way)"
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
                detail=f"{error}. The sampler decides the order: remove shuffle, and shuffle in the sampler "
                "instead (DistributedSampler(..., shuffle=True), RandomSampler).",
                cite=(found, ("shuffle",)),
            )


def _crashes(s):
    return value_of(s, "sampler") is not None and bool(value_of(s, "shuffle"))


RULE = SamplerWithShuffle()
