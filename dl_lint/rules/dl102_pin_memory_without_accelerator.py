from dl_lint.model import Severity
from dl_lint.model import Edit, Fix, Location
from dl_lint.rules.base import Rule, call_scenarios, concrete, every


class PinMemoryWithoutAccelerator(Rule):
    code = "DL102"
    name = "pin-memory-without-accelerator"
    severity = Severity.WARNING
    summary = "pin_memory=True where nothing in the program moves batches to an accelerator."
    fix_available = "Safe: write `pin_memory=torch.cuda.is_available()`, adding `import torch` when missing."
    references = ('https://pytorch.org/docs/stable/data.html#memory-pinning',)
    doc = """
## What it does
Reports `pin_memory=True` when nothing in the files of the run shows that batches ever reach an
accelerator: no `.cuda()`, no `.to(device)` / `device=` with a device that can be a GPU, no
`torch.device("cuda")`, `torch.cuda.*`, `non_blocking=True`, `torch.accelerator`, and no trainer
framework (Lightning, accelerate, DeepSpeed, XLA, an import of composer) in the loader's module,
in what it imports (transitively), in a module that imports it, or in what those importers
import (a script importing the loader's module and the training module whose `train()` moves
the batches). A module whose short name several files share (two `utils/data_val.py` in folders
without `__init__.py`, both `data_val`) is also found by its own dotted name from the project
root, which its importers write (`from utils.data_val import get_loader`).

## Why is this bad?
Pinning copies every batch into page-locked host memory so that host-to-GPU copies can be
asynchronous. It never reduces CPU memory: each pinned batch is extra host memory (torch's
caching host allocator rounds each tensor up to a power of two), up to W×P more batches. Without
a GPU target that is pure cost; on a machine without an accelerator torch only warns at the
first iteration and switches pinning off.

Precision matters more than recall here: a loader is often built in one module and moved to the
GPU in another, so evidence anywhere in the run silences the rule.

## Example
```python
loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
for batch in loader:
    model(batch)          # stays on the CPU
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=64, num_workers=4,
                    pin_memory=torch.cuda.is_available())
```
and move batches with `.to(device, non_blocking=True)` when a GPU is used.

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        found = call_scenarios(call, "pin_memory")
        if not every(found, lambda s: concrete("pin_memory", s["pin_memory"]) is True):
            return
        if ctx.has_accelerator_evidence(call):
            return
        message = "pin_memory=True but nothing moves the batches to an accelerator: each is copied to pinned memory for nothing."
        detail = (
            "dl-lint found no .cuda(), .to(device), torch.device('cuda'), non_blocking=True or trainer framework "
            "in this module or the modules connected to it, so every batch is copied into page-locked host memory "
            "that nothing uses. On a GPU machine the pinned copies cost host memory and a copy per batch; without a "
            "GPU torch warns and ignores the option. Write pin_memory=torch.cuda.is_available(), or pin_memory=False."
        )
        yield self.finding(call, "pin_memory", message, _fix(call, ctx), detail=detail, cite=(found, ("pin_memory",)))


def _fix(call, ctx):
    bound = call.args.get("pin_memory")
    if bound is None or bound.text.strip() != "True":
        return None
    torch = ctx.torch_name or "torch"
    content = f"pin_memory={torch}.cuda.is_available()" if bound.keyword else f"{torch}.cuda.is_available()"
    edits = [Edit(content, bound.location, bound.end_location)]
    if ctx.torch_name is None:
        at = Location(ctx.import_row, 1)
        edits.insert(0, Edit("import torch\n", at, at))
    return Fix("safe", "Pin only when CUDA is available: `pin_memory=torch.cuda.is_available()`", tuple(edits))


RULE = PinMemoryWithoutAccelerator()
