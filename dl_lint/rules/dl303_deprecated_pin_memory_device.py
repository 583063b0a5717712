from dl_lint.model import Severity
from dl_lint.rules.base import Rule, call_scenarios, describe, every, on_cuda, remove_arg, value_of


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

The values may come from a dict spread into the call, also one a project function returns
(`DataLoader(ds, **get_dataloader_args(train=True))`, read through each of its `return`s), and
from an f-string whose parts are known (`f"cuda:{CUDA_DEVICE}"`). When some paths pass no device
because CUDA is not in use on them (`if not torch.cuda.is_available(): return {...}`, `if
args.cuda:`), it is reported when every other path passes one: "(with CUDA)". A device passed on
some paths for another reason (`if old_torch: kw["pin_memory_device"] = "cuda"`) is not reported.

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
        found = call_scenarios(call, "pin_memory", "pin_memory_device")
        cuda = on_cuda(found) if found else found
        if every(cuda, _passes_device):
            narrowed = len(cuda) < len(found)
            yield self.finding(
                call,
                "pin_memory_device",
                f"{describe('pin_memory_device', cuda)} is deprecated since torch 2.9 and "
                + ("ignored (with CUDA)." if narrowed else "ignored."),
                remove_arg(call, "pin_memory_device", "Remove pin_memory_device (ignored since torch 2.9)"),
                detail="Iterating warns (UserWarning) and pins for the current accelerator. "
                + ("It is passed on every path where CUDA may be in use (the others pass no device). " if narrowed else "")
                + "Remove it.",
            )


def _passes_device(scenario) -> bool:
    device = value_of(scenario, "pin_memory_device")
    return bool(value_of(scenario, "pin_memory")) and isinstance(device, str) and device != ""


RULE = DeprecatedPinMemoryDevice()
