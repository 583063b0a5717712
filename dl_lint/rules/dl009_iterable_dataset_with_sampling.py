from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, value_of


class IterableDatasetWithSampling(Rule):
    code = "DL009"
    name = "iterable-dataset-with-sampling"
    severity = Severity.ERROR
    summary = "An IterableDataset with shuffle, a sampler or a batch_sampler: torch raises ValueError."
    torch_raises = (ValueError, "DataLoader with IterableDataset: expected unspecified")
    doc = """
## What it does
Reports a DataLoader whose dataset is (provably) a `torch.utils.data.IterableDataset` and that
passes a truthy `shuffle` (0 and False pass, as in torch), a `sampler` or a `batch_sampler`.

## Why is this bad?
An iterable dataset decides its own order; there are no indices to sample or shuffle. The
constructor raises `ValueError: DataLoader with IterableDataset: expected unspecified shuffle
option, but got shuffle=True` (or the same for sampler / batch_sampler).

## Example
```python
loader = DataLoader(LogStream(paths), batch_size=32, shuffle=True)
```

## Use instead
Shuffle inside the dataset (a shuffle buffer in `__iter__`), or make it a map-style Dataset.

## Torch versions
All versions. (DataPipes are exempt: torch applies their own shuffle settings.)
"""

    def check_call(self, call, ctx):
        if not any(call.given(n) for n in ("shuffle", "sampler", "batch_sampler")):
            return
        names = ("dataset", "shuffle", "sampler", "batch_sampler")

        def offending(s):
            if value_of(s, "shuffle") not in (False, None):
                return "shuffle"
            if value_of(s, "sampler") is not None:
                return "sampler"
            if value_of(s, "batch_sampler") is not None:
                return "batch_sampler"
            return None

        found = fires(call, names, lambda s: ctx.dataset_is_iterable(s["dataset"].value) and offending(s) is not None)
        if found:
            option = offending(found[0])
            cls = ctx.dataset_class(found[0]["dataset"].value)
            name = cls.name if cls is not None else "the dataset"
            yield self.finding(
                call,
                option,
                f"{name} is an IterableDataset, but {option} is given: torch raises ValueError at construction.",
                detail=f"torch's error: \"DataLoader with IterableDataset: expected unspecified {option} option\" "
                "(an IterableDataset decides its own order). Remove it; shuffle inside the dataset (a shuffle "
                "buffer in __iter__) if needed.",
            )


RULE = IterableDatasetWithSampling()
