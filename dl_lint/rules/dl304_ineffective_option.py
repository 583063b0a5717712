from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, remove_arg, remove_worker_option, value_of

# Options that only act through worker processes; with num_workers=0 they are ignored. Torch's
# own defaults written out (in_order=True, worker_init_fn=None, prefetch_factor=None,
# persistent_workers=False, timeout=0) say nothing that does not happen, and are not reported;
# prefetch_factor, persistent_workers and timeout set to anything else are DL001, DL002, DL005.
_WORKER_ONLY = {
    "in_order": lambda v: v is False,
    "worker_init_fn": lambda v: v is not None,
}


class IneffectiveOption(Rule):
    code = "DL304"
    name = "ineffective-option"
    severity = Severity.INFO
    summary = "An option that does nothing here: a workers-only option with num_workers=0, pin_memory_device without pinning."
    fix_available = (
        "Unsafe for a workers-only option (`in_order`, `worker_init_fn`): remove it (what was written for workers "
        "is lost when they come back). Safe for `pin_memory_device`: remove it."
    )
    doc = """
## What it does
Reports options that have no effect as written: `in_order=False` or a `worker_init_fn` with
`num_workers` literally 0 (or not given), and `pin_memory_device` with `pin_memory` False.
Torch's defaults written out (`prefetch_factor=None`, `persistent_workers=False`, `timeout=0`,
`in_order=True`, `worker_init_fn=None`) are not reported: they say nothing that does not happen.
The other settings of those options crash or fail without workers, and are DL001, DL002 and
DL005 alone (one argument, one diagnostic).

## Why is this bad?
Nothing breaks, but the code says something that does not happen: a `worker_init_fn` that
shards or seeds never runs without workers, so the reader (or a later edit) may rely on it.

## Example
```python
loader = DataLoader(ds, worker_init_fn=seed_worker)
```

## Use instead
Remove the option, or give the loader workers.

## Torch versions
All versions (`in_order` from 2.6).
"""

    def check_call(self, call, ctx):
        # "Literally 0": not given, or written as the literal 0 at the call. A variable that is 0
        # here may be configurable elsewhere, and guarded forms must never be reported.
        written = call.args.get("num_workers")
        literal_zero = ("num_workers" not in call.opaque and written is None) or (
            written is not None and written.code == "0"
        )
        if literal_zero:
            for option, active in _WORKER_ONLY.items():
                bound = call.args.get(option)
                if bound is None:
                    continue
                if fires(call, (option,), lambda s: active(value_of(s, option))):
                    yield self.finding(
                        call,
                        option,
                        f"{option} has no effect with num_workers=0: it only acts in worker processes.",
                        remove_worker_option(call, option, f"Remove {option} (no effect without workers)"),
                        detail="Remove it, or give the loader workers.",
                    )
        if call.given("pin_memory_device") and fires(
            call,
            ("pin_memory", "pin_memory_device"),
            lambda s: not value_of(s, "pin_memory") and value_of(s, "pin_memory_device") not in ("", None),
        ):
            yield self.finding(
                call,
                "pin_memory_device",
                "pin_memory_device has no effect with pin_memory=False: nothing is pinned.",
                remove_arg(call, "pin_memory_device", "Remove pin_memory_device (nothing is pinned)"),
                detail="Remove it, or set pin_memory=True if you meant to pin.",
            )


RULE = IneffectiveOption()
