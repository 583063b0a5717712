from dl_lint.model import Severity
from dl_lint.rules.base import Rule, describe, fires, has_workers, is_int, value_of, workers_of


def _negative(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0


class NegativeOption(Rule):
    code = "DL004"
    name = "negative-option"
    severity = Severity.ERROR
    summary = "num_workers, timeout or prefetch_factor negative, or prefetch_factor 0 with workers."
    torch_raises = (
        (ValueError, AssertionError),
        "should be non-negative|prefetch_factor must be greater than 0",
    )
    doc = """
## What it does
Reports `num_workers < 0`, `timeout < 0`, `prefetch_factor < 0` with workers, and
`prefetch_factor == 0` with workers.

## Why is this bad?
The first three raise `ValueError: ... should be non-negative` at construction. A prefetch_factor
of 0 is accepted at construction but fails at the first iteration with
`AssertionError: prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter`: no
batch could ever be prefetched.

## Example
```python
loader = DataLoader(dataset, num_workers=-1)
loader = DataLoader(dataset, num_workers=4, prefetch_factor=0)
```

## Use instead
```python
loader = DataLoader(dataset, num_workers=4, prefetch_factor=1)
```
`num_workers=-1` does not mean "all cores": compute it (`len(os.sched_getaffinity(0))`).

## Values from config files
A negative `DATALOADER.NUM_WORKERS` in a detectron2 YAML run (`get_cfg()`, `merge_from_file`,
then `build_detection_train_loader(cfg)` / `build_detection_test_loader(cfg, ...)`) is reported
at the YAML line: detectron2 hands it to torch, which raises when the builder makes the
DataLoader. A negative value from a yacs defaults module or its YAML files is reported at the
call, naming the line ([configuration](configuration.md)).

## Torch versions
All versions (prefetch_factor from 1.7).
"""

    def check_call(self, call, ctx):
        if call.given("num_workers"):
            found = fires(call, ("num_workers",), lambda s: _negative(workers_of(s)))
            if found:
                yield self.finding(
                    call,
                    "num_workers",
                    f"{describe('num_workers', found)} is negative: torch raises ValueError at construction.",
                    detail="torch's error: \"num_workers option should be non-negative\". Use num_workers=0 for "
                    "loading in the main process; -1 does not mean all cores.",
                    cite=(found, ("num_workers",)),
                )
                return
        if call.given("timeout"):
            found = fires(call, ("timeout",), lambda s: _negative(value_of(s, "timeout")))
            if found:
                yield self.finding(
                    call,
                    "timeout",
                    f"{describe('timeout', found)} is negative: torch raises ValueError at construction.",
                    detail="torch's error: \"timeout option should be non-negative\". Use timeout=0 (no timeout) or "
                    "a positive number of seconds.",
                    cite=(found, ("timeout",)),
                )
        if call.given("prefetch_factor"):
            names = ("num_workers", "prefetch_factor")
            negative = fires(call, names, lambda s: has_workers(s) and _negative(value_of(s, "prefetch_factor")))
            if negative:
                yield self.finding(
                    call,
                    "prefetch_factor",
                    f"{describe('prefetch_factor', negative)} is negative: torch raises ValueError at construction.",
                    detail="torch's error: \"prefetch_factor option should be non-negative\". Use a positive "
                    "number of batches per worker (2 is torch's default).",
                    cite=(negative, names),
                )
                return
            zero = fires(
                call,
                names,
                lambda s: has_workers(s) and is_int(value_of(s, "prefetch_factor")) and value_of(s, "prefetch_factor") == 0,
            )
            if zero:
                yield self.finding(
                    call,
                    "prefetch_factor",
                    "prefetch_factor=0 with workers fails at the first iteration: no batch can be prefetched.",
                    detail="The constructor accepts it; iterating raises \"AssertionError: prefetch_factor must be "
                    "greater than 0\". Use prefetch_factor=1 (the least memory) or leave it out (torch's default "
                    "is 2).",
                    cite=(zero, names),
                )


RULE = NegativeOption()
