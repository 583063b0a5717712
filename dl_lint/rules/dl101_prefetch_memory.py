from dl_lint import inflight as estimate
from dl_lint.analysis.batches import batch_figure
from dl_lint.model import Severity
from dl_lint.model import Edit, Fix
from dl_lint.analysis.values import CONFIGURABLE
from dl_lint.rules.base import (
    Rule,
    call_scenarios,
    concrete,
    is_int,
    replace_value,
    shm_excess,
    workers_text,
)


class PrefetchMemory(Rule):
    code = "DL101"
    name = "prefetch-memory"
    severity = Severity.WARNING
    summary = "Batches in flight (num_workers × prefetch_factor) over the memory budget, or over max-inflight-batches when a batch's bytes are unknown."
    fix_available = "Unsafe (throughput may change): lower prefetch_factor to the largest value within the limit, at least 1."
    references = ('The article this project grew from (prefetch memory of multi-process DataLoaders); measurements in README', 'https://pytorch.org/docs/stable/data.html#multi-process-data-loading')
    doc = """
## What it does
Computes the batches a DataLoader holds in shared memory before the first step,
`num_workers × prefetch_factor` (prefetch_factor is 2 when workers are used and it is not given).

When the bytes of one batch are known, the bytes decide: it reports when the peak,
`(W×P + 1) × batch_bytes`, exceeds `memory-budget` (8 GiB when not set), and prints the
estimate and where the bytes came from. They come from one source (`dl_lint/analysis/batches.py`,
shared with DL104, `dl-lint estimate` and the language server), in this order: a
`# dl-lint: batch-bytes=64MiB` comment on the call or the line above it; the figure
`dl-lint measure` recorded for this loader in the project's `dl-lint-measured.json` (a record whose
call changed since is stale: not used, and the detail says so); the `batch-bytes` setting; or an
estimate from the code: a known `batch_size` times one sample of a map-style dataset whose
`__getitem__` returns tensors of known shape and dtype (torch and numpy constructors of literal
shapes, fixed-length slices of a token array of known dtype, a tokenizer's fields padded to
`max_length`, what a fixed-size image transform kept on self makes of an `Image.open(...).convert("RGB")`)
and numbers; or a torchvision `ImageFolder`, `CIFAR10`/`CIFAR100` or `MNIST`/`FashionMNIST`
whose transform is a `Compose` of fixed output size ending in a tensor (`RandomResizedCrop(224)`,
`CenterCrop`, `RandomCrop`, `Resize((h, w))`; `ToTensor`, `PILToTensor`, v2's `ToImage` +
`ToDtype`; `Resize(256)` matches only the smaller edge, so the bytes stay unknown). docs/memory.md
lists every shape. Otherwise it reports only counts no reasonable configuration uses: more
than `max-inflight-batches` (default 64). Ten workers at the default prefetch_factor, 20 batches,
is the standard ImageNet recipe and is not reported.

## Why is this bad?
Each worker prefetches `prefetch_factor` batches, and workers build them in `/dev/shm`. Measured
on torch 2.13: exactly W×P batches exist before the first `next()`, and W×P + 1 while the loop
runs (the loop holds one). 16 workers × prefetch_factor 8 at 64 MiB a batch is 8.1 GiB of shared
memory before training starts, plus pinned copies when `pin_memory=True`; Docker's default
64 MiB `/dev/shm` fails with "DataLoader worker is killed by signal: Bus error". A larger
prefetch_factor is rarely faster: when disk, decode or the GPU is the bottleneck it only adds
memory.

## Example
```python
loader = DataLoader(dataset, batch_size=256, num_workers=16, prefetch_factor=8)
```

## Use instead
```python
loader = DataLoader(dataset, batch_size=256, num_workers=8, prefetch_factor=2)
```
Start at 2 workers × prefetch_factor 1 and grow while the GPU waits for data.

A loader that DL104 reports (its batches exceed the `/dev/shm` of the project's container
definitions) is left to DL104.

## Torch versions
torch ≥ 1.7 (prefetch_factor appeared in 1.7, default 2).
"""

    def check_call(self, call, ctx):
        found = call_scenarios(call, "num_workers", "prefetch_factor")
        if not found:
            return
        if "DL104" in ctx.enabled and shm_excess(call, ctx) is not None:
            return  # the container's /dev/shm is the tighter limit: DL104 reports this loader
        limit = ctx.settings.max_inflight_batches
        for scenario in found:  # without workers nothing is prefetched: no need for the bytes
            workers = concrete("num_workers", scenario["num_workers"])
            if not is_int(workers) or workers <= 0:
                return
        figure = batch_figure(call, ctx)  # the one source of a batch's bytes (analysis.batches)
        batch_bytes = figure.bytes
        budget = ctx.settings.memory_budget
        if budget is None and batch_bytes is not None:
            budget = DEFAULT_MEMORY_BUDGET
        plans = []
        for scenario in found:
            workers = concrete("num_workers", scenario["num_workers"])
            prefetch = concrete("prefetch_factor", scenario["prefetch_factor"])
            if not is_int(workers) or not (prefetch is None or is_int(prefetch)) or workers <= 0:
                return  # no workers (or not a number): nothing prefetched, or torch rejects it
            if prefetch is not None and prefetch <= 0:
                return  # DL004's business
            plans.append((estimate.inflight_batches(workers, prefetch), workers, prefetch, scenario))
        inflight, workers, prefetch, scenario = min(plans, key=lambda plan: plan[:3])  # the most favourable case
        peak = estimate.peak_bytes(workers, prefetch, batch_bytes) if batch_bytes else None
        # With a batch's bytes and a budget, the bytes decide; the count limit is for when the
        # bytes are unknown, and is set (64) above what reasonable configurations use.
        by_bytes = peak is not None and budget is not None
        over_limit = inflight > limit and not by_bytes
        over_budget = by_bytes and peak > budget
        if not over_limit and not over_budget:
            return
        from dl_lint.config import format_size

        shown = f"prefetch_factor {prefetch or 2}"
        peak_text = ""
        if peak is not None:
            peak_text = (
                f"At {format_size(batch_bytes)} a batch the peak is ({inflight} + 1) × "
                f"{format_size(batch_bytes)} = {format_size(peak)}"
            )
            if budget is not None:
                relation = "over" if over_budget else "within"
                peak_text += f", {relation} the memory budget of {format_size(budget)}"
            peak_text += " (the loop holds one batch more). "
        # The short message says what is over: the batch limit, else the memory budget (with its figures).
        if over_limit:
            message = (
                f"{workers} workers × {shown} = {inflight} batches held in shared memory before the first step; "
                f"limit {limit}."
            )
            detail = peak_text
        else:
            message = (
                f"{workers} workers × {shown} = {inflight} batches in shared memory: {format_size(peak)} at the "
                f"peak, over the {format_size(budget)} budget."
            )
            detail = peak_text + "With the bytes of a batch known, the memory budget decides, not max-inflight-batches. "
        if prefetch is None:
            detail = "prefetch_factor is not given: torch's default is 2. " + detail
        if figure.detail():
            detail = figure.detail() + " " + detail
        new_workers, new_prefetch = estimate.suggest(workers, limit, batch_bytes, budget)
        detail += "Every prefetched batch stays in /dev/shm until the loop takes it. "
        if new_workers == workers:
            detail += (
                f"Lower prefetch_factor: prefetch_factor={new_prefetch} keeps {workers} workers at "
                f"{workers * new_prefetch} batches in flight."
            )
        elif new_workers > 0:
            detail += f"Use fewer workers: num_workers={new_workers}, prefetch_factor=1."
        else:
            detail += "Even one prefetched batch does not fit: use num_workers=0 or smaller batches."
        at = "prefetch_factor" if call.given("prefetch_factor") else "num_workers"
        fix = None
        if new_workers == workers and new_prefetch < (prefetch or 2):
            fix = _fix(call, new_prefetch)
        yield self.finding(call, at, message, fix, detail=detail, cite=([scenario], ("num_workers",)))


# With the bytes of a batch known and no memory-budget set, the budget the in-flight bytes are
# compared with.
DEFAULT_MEMORY_BUDGET = 8 * 1024**3


def _fix(call, prefetch):
    message = f"Lower prefetch_factor to {prefetch} (unsafe: throughput may change)"
    value = str(prefetch)
    if call.value("num_workers").source in CONFIGURABLE:
        # num_workers can be 0 at run time: keep the option guarded (else DL011).
        workers = workers_text(call)
        if workers is None:
            return None
        value = f"{prefetch} if {workers} > 0 else None"
    if call.given("prefetch_factor"):
        return replace_value(call, "prefetch_factor", value, message, "unsafe")
    workers = call.args.get("num_workers")
    if workers is None or not workers.text or not workers.keyword:
        return None
    return Fix("unsafe", message, (Edit(f", prefetch_factor={value}", workers.end_location, workers.end_location),))


RULE = PrefetchMemory()
