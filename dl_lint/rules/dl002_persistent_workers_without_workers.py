from dl_lint.model import Severity
from dl_lint.rules.base import (
    Rule,
    config_place,
    describe,
    fires,
    no_workers,
    remove_worker_option,
    replace_value,
    value_of,
    workers_text,
    workers_written_zero,
)


class PersistentWorkersWithoutWorkers(Rule):
    code = "DL002"
    name = "persistent-workers-without-workers"
    severity = Severity.ERROR
    summary = "persistent_workers is truthy while num_workers is 0: torch raises ValueError."
    torch_raises = (ValueError, "persistent_workers option needs num_workers > 0")
    fix_available = (
        "Safe with a num_workers variable: write `persistent_workers=<num_workers> > 0`. Unsafe with "
        "num_workers literally 0 or absent: remove persistent_workers (the setting written for workers is lost "
        "when they come back)."
    )
    doc = """
## What it does
Reports `persistent_workers` truthy while `num_workers` is 0 or not given (in every possible case).

## Why is this bad?
Persistent workers keep worker processes (and their dataset copies) alive between epochs; without
workers there is nothing to keep, and the constructor raises:

```
ValueError: persistent_workers option needs num_workers > 0
```

## Example
```python
loader = DataLoader(dataset, batch_size=64, persistent_workers=True)
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=64, num_workers=4, persistent_workers=True)
# or, with a configurable num_workers:
loader = DataLoader(dataset, num_workers=num_workers, persistent_workers=num_workers > 0)
```

## Values from config files
When num_workers comes from a config (where the command line can override it, the value written
there is judged as a default, like an argparse default): a Hydra YAML (`cfg.data.num_workers` in a `@hydra.main` function, or a
`_target_: torch.utils.data.DataLoader` node passed to `hydra.utils.instantiate`), a LightningCLI
config file beside the script, an mmengine `train_dataloader = dict(...)`, a yacs/fvcore
`CfgNode` defaults module and the YAML files merged over it, HF `TrainingArguments` (in Python, or
a JSON/YAML file read by `HfArgumentParser`). A crash such a value decides is reported at the
line that sets it (`num_workers: 0`), with the DataLoader (or the call that builds it) as related
location: that is the line to change (or guard the option at the call). `# noqa: DL002` works on
either line. For HF `TrainingArguments`, the Trainer passes `persistent_workers` to torch, which
raises when the Trainer builds its loader (the message says so).
Where dl-lint looks, and what stays unknown: [configuration](configuration.md).

## Torch versions
torch ≥ 1.7 (where persistent_workers appeared).
"""

    def check_call(self, call, ctx):
        if not call.given("persistent_workers"):
            return
        found = fires(call, ("num_workers", "persistent_workers"), lambda s: no_workers(s) and bool(value_of(s, "persistent_workers")))
        if found:
            yield self.finding(
                call,
                "persistent_workers",
                f"{describe('persistent_workers', found)} but {describe('num_workers', found)}: torch raises "
                "ValueError at construction.",
                _fix(call),
                detail="torch's error: \"persistent_workers option needs num_workers > 0\". " + _instead(call),
                place=config_place(found, ("num_workers", "persistent_workers")),
                cite=(found, ("num_workers", "persistent_workers")),
            )


def _instead(call) -> str:
    """What to write, in the names of this call: its num_workers as written, unless a literal 0."""
    workers = None if workers_written_zero(call) else workers_text(call)
    if workers is None:
        return "Remove it, or give the loader workers to keep (`num_workers=2`, say)."
    return f"Remove it, or write `persistent_workers={workers} > 0`."


def _fix(call):
    if workers_written_zero(call):
        return remove_worker_option(call, "persistent_workers", "Remove persistent_workers (there are no workers to keep)")
    workers = workers_text(call)
    if workers is None or call.args["persistent_workers"].text.strip() != "True":
        return None
    return replace_value(call, "persistent_workers", f"{workers} > 0", f"Write `persistent_workers={workers} > 0`")


RULE = PersistentWorkersWithoutWorkers()
