from dl_lint.model import Severity
from dl_lint.rules.base import (
    Rule,
    call_scenarios,
    config_place,
    concrete,
    describe,
    every,
    guard_worker_option,
    remove_worker_option,
    workers_text,
    workers_written_zero,
)


class PrefetchWithoutWorkers(Rule):
    code = "DL001"
    name = "prefetch-without-workers"
    severity = Severity.ERROR
    summary = "prefetch_factor is passed while num_workers is 0: torch raises ValueError."
    fix_available = (
        "Safe with a num_workers variable: rewrite prefetch_factor to `prefetch_factor=P if <num_workers> > 0 "
        "else None`. Unsafe with num_workers literally 0 or absent: remove prefetch_factor (the value written "
        "for workers is lost when they come back)."
    )
    # What torch 2.13 raises (checked by tests/test_oracle.py on every positive fixture).
    torch_raises = (ValueError, "prefetch_factor option could only be specified in multiprocessing")
    doc = """
## What it does
Reports a DataLoader that passes `prefetch_factor` (anything but `None`) while `num_workers` is
0 or not given.

## Why is this bad?
`prefetch_factor` is the number of batches *each worker* loads ahead. Without workers there is
nothing to prefetch, and since torch 2.0 the constructor raises:

```
ValueError: prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.
```

A common way to hit it: the standard debugging step "set num_workers=0 to see whether
multiprocessing is the cause" turns a working script into a crashing one.

## Example
```python
loader = DataLoader(dataset, batch_size=32, prefetch_factor=4)
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=32, num_workers=4, prefetch_factor=4)
# or, when num_workers is configurable:
loader = DataLoader(dataset, num_workers=num_workers,
                    prefetch_factor=4 if num_workers > 0 else None)
```

## Values from config files
When num_workers comes from a config (where the command line can override it, the value written
there is judged as a default, like an argparse default): a Hydra YAML (`cfg.data.num_workers` in a `@hydra.main` function, or a
`_target_: torch.utils.data.DataLoader` node passed to `hydra.utils.instantiate`), a LightningCLI
config file beside the script, an mmengine `train_dataloader = dict(...)`, a yacs/fvcore
`CfgNode` defaults module and the YAML files merged over it, HF `TrainingArguments` (in Python, or
a JSON/YAML file read by `HfArgumentParser`). A crash such a value decides is reported at the
line that sets it (`num_workers: 0`), with the DataLoader (or the call that builds it) as related
location: that is the line to change (or guard the option at the call). `# noqa: DL001` works on
either line. For HF `TrainingArguments`, transformers itself raises in `__post_init__`, when the
arguments are built (the message says so).
Where dl-lint looks, and what stays unknown: [configuration](configuration.md).

## Torch versions
torch ≥ 2.0: any value other than `None` without workers raises. torch 1.7–1.13 raised only for
values other than 2 (`prefetch_factor=None` raised there instead). Passing it only when
`num_workers > 0` works on every version. The rule fires only when every possible value of
`num_workers` is 0 and every possible `prefetch_factor` is not `None`.
"""

    def check_call(self, call, ctx):
        if not call.given("prefetch_factor"):
            return
        found = call_scenarios(call, "num_workers", "prefetch_factor")
        if ctx.torch_at_least(2, 0):
            crashes = lambda s: _workers(s) == 0 and _prefetch(s) is not None  # noqa: E731
            version = "torch >= 2.0"
        else:
            crashes = lambda s: _workers(s) == 0 and _prefetch(s) != 2  # noqa: E731
            version = f"torch {ctx.settings.target_version}"
        if not call.given("prefetch_factor") or not every(found, crashes):
            return
        if ctx.torch_at_least(2, 0):
            # Advice in the names of this call: its num_workers as written, if it is not a literal 0.
            workers = None if workers_written_zero(call) else workers_text(call)
            value = call.args["prefetch_factor"].text if call.given("prefetch_factor") else "P"
            if workers is not None and value and "\n" not in value:
                instead = (
                    "Remove prefetch_factor, or pass it only with workers: "
                    f"`prefetch_factor={value} if {workers} > 0 else None`."
                )
            else:
                instead = "Remove prefetch_factor, or give the loader workers to prefetch with (`num_workers=2`, say)."
        else:
            instead = (
                "Before torch 2.0 even prefetch_factor=None raises without workers: leave the argument out "
                "unless num_workers > 0 (build the keyword arguments conditionally)."
            )
        message = (
            f"{describe('prefetch_factor', found)} is passed but {describe('num_workers', found)}: "
            f"{version} raises ValueError at construction."
        )
        detail = (
            "torch's error: \"prefetch_factor option could only be specified in multiprocessing\" "
            f"(prefetch_factor is the batches each worker loads ahead; without workers there are none). {instead}"
        )
        place = config_place(found, ("num_workers", "prefetch_factor"))
        yield self.finding(
            call,
            "prefetch_factor",
            message,
            _fix(call, ctx),
            detail=detail,
            place=place,
            cite=(found, ("num_workers", "prefetch_factor")),
        )


def _fix(call, ctx):
    if workers_written_zero(call):
        return remove_worker_option(call, "prefetch_factor", "Remove prefetch_factor (there are no workers to prefetch)")
    if not ctx.torch_at_least(2, 0):
        return None  # before 2.0 even None raises without workers: no guarded form exists
    return guard_worker_option(
        call,
        "prefetch_factor",
        "{value} if {workers} > 0 else None",
        "Pass prefetch_factor only with workers: `{new}`",
    )


def _workers(scenario):
    return concrete("num_workers", scenario["num_workers"])


def _prefetch(scenario):
    return concrete("prefetch_factor", scenario["prefetch_factor"])


RULE = PrefetchWithoutWorkers()
