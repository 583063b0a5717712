from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, remove_arg, value_of


class DeprecatedPinMemoryDevice(Rule):
    code = "DL303"
    name = "deprecated-pin-memory-device"
    severity = Severity.WARNING
    summary = "pin_memory_device is deprecated and ignored (torch ≥ 2.9)."
    fix_available = "Safe: remove the argument."
    doc = """
## What it does
Reports `pin_memory_device` (a non-empty string) together with `pin_memory=True`, when the
target torch version is 2.9 or newer.

## Why is this bad?
Since torch 2.9 the current accelerator is always used for pinning; the argument is ignored with
`UserWarning: pin_memory_device is deprecated, the current accelerator will be used as the
device, ignore pin_memory_device='cuda'`.

## Example
```python
loader = DataLoader(ds, pin_memory=True, pin_memory_device="cuda")
```

## Use instead
```python
loader = DataLoader(ds, pin_memory=True)
```

## Torch versions
torch ≥ 2.9 (set `target-version` to an older torch to silence it).
"""

    def check_call(self, call, ctx):
        if not call.given("pin_memory_device") or not ctx.torch_at_least(2, 9):
            return
        found = fires(
            call,
            ("pin_memory", "pin_memory_device"),
            lambda s: bool(value_of(s, "pin_memory")) and isinstance(value_of(s, "pin_memory_device"), str)
            and value_of(s, "pin_memory_device") != "",
        )
        if found:
            yield self.finding(
                call,
                "pin_memory_device",
                f"pin_memory_device={value_of(found[0], 'pin_memory_device')!r} is deprecated since torch 2.9 and "
                "ignored.",
                remove_arg(call, "pin_memory_device", "Remove pin_memory_device (ignored since torch 2.9)"),
                detail="Iterating warns (UserWarning) and pins for the current accelerator. Remove it.",
            )


RULE = DeprecatedPinMemoryDevice()
