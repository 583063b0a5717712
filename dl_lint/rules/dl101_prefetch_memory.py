from dl_lint import inflight as estimate
from dl_lint.analysis.batches import ESTIMATED, batch_figure
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
    per_run = True  # each config file's run judged with its own values, never one file's mixed with another's
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
shapes, also filled by element writes, `data[0, :, :] = wind_u`, transposed, or copied by
`torch.Tensor(data)`, their dims literals, module-level ints or `__init__` defaults; fixed-length slices of a token array of known dtype, a tokenizer's fields padded to
`max_length`, what a fixed-size image transform kept on self makes of an `Image.open(...).convert("RGB")`,
what a wrapper takes of the samples of the dataset it keeps, `self.dataset[i]["image"]`; a
multi-view transform's views, `[self.transform(x), self.transform(x)]`)
and numbers; or a torchvision `ImageFolder`, `CIFAR10`/`CIFAR100` or `MNIST`/`FashionMNIST`
whose transform is a `Compose` of fixed output size ending in a tensor (`RandomResizedCrop(224)`,
`CenterCrop`, `RandomCrop`, `Resize((h, w))`; `ToTensor`, `PILToTensor`, v2's `ToImage` +
`ToDtype`; `Resize(256)` matches only the smaller edge, so the bytes stay unknown), its steps
written in the call or listed by name (`steps = [...]`, then `steps.append(...)` in the same
block; a step added under an `if` leaves the pipeline unknown). docs/memory.md
lists every shape. Parts of a sample whose size the code does not fix, beside a part it does (a
label looked up in a dict, `return image, self.labels[index]`; a file name; an image whose
transform is unknown beside a fixed-size one), count as 0 bytes: the figure is then a lower
bound, and the message says "at least" (a batch holds every part, so it is never smaller). A
sample of which no part is sized has no figure.

When the dataset, batch_size or workers depend on a condition (`batch_size=512 if args.big else
256`, a dataset picked by a flag), each consistent path of (num_workers, prefetch_factor,
batch_size, dataset) is judged with its own batch's bytes: the rule reports only when every path
is over the budget, and cites the smallest peak (what every path at least holds). One path whose
bytes are unknown leaves the call to the count limit below. When the values come from config
files the command line picks (one run per file, `dl_lint/analysis/configs/runs.py`), each run is
judged with its own values together, never one file's batch_size with another's num_workers: a
run over the budget is reported at its file's `num_workers` line (else `prefetch_factor`, else
`batch_size`), the loader a related location, and a run within the budget is silent.

Otherwise it reports only counts no reasonable configuration uses: more
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
        if figure.bytes is None:
            paths = _paths(call, ctx)
            if paths is not None:  # the dataset or batch_size depends on a condition: each path's bytes
                yield from self._every_path(call, ctx, paths, limit)
                return
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
        least = "at least " if figure.lower else ""  # parts of the sample not sized: a lower bound
        peak_text = ""
        if peak is not None:
            peak_text = (
                f"{'At least' if least else 'At'} {format_size(batch_bytes)} a batch the peak is ({inflight} + 1) × "
                f"{format_size(batch_bytes)} = {least}{format_size(peak)}"
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
                f"{workers} workers × {shown} = {inflight} batches in shared memory: {least}{format_size(peak)} at the "
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
        cited = [scenario]
        size = call.value("batch_size").single
        if figure.source == ESTIMATED and size is not None:  # the batch_size the figure was estimated with
            cited = [{**scenario, "batch_size": size}]
        yield self.finding(
            call, at, message, fix, detail=detail, cite=(cited, ("num_workers", "batch_size")), place=_run_place(cited)
        )

    def _every_path(self, call, ctx, paths, limit):
        """The dataset or batch_size (and maybe the workers) depend on a condition, and the bytes
        of every path's batch are known: report only when every path's peak exceeds the budget,
        citing the smallest (what every path at least holds)."""
        from dl_lint.config import format_size

        budget = ctx.settings.memory_budget
        if budget is None:
            budget = DEFAULT_MEMORY_BUDGET
        plans = []
        for scenario, figure in paths:
            workers = concrete("num_workers", scenario["num_workers"])
            prefetch = concrete("prefetch_factor", scenario["prefetch_factor"])
            if not is_int(workers) or not (prefetch is None or is_int(prefetch)) or workers <= 0:
                return  # a path without workers prefetches nothing
            if prefetch is not None and prefetch <= 0:
                return  # DL004's business
            peak = estimate.peak_bytes(workers, prefetch, figure.bytes)
            if peak <= budget:
                return  # this path fits: not every path exceeds
            plans.append((peak, estimate.inflight_batches(workers, prefetch), workers, prefetch, scenario, figure))
        peak, inflight, workers, prefetch, scenario, figure = min(plans, key=lambda plan: plan[:3])
        batch_bytes = figure.bytes
        shown = f"prefetch_factor {prefetch or 2}"
        least = "at least " if any(plan[5].lower for plan in plans) else ""
        message = (
            f"{workers} workers × {shown} = {inflight} batches in shared memory: {least}{format_size(peak)} at the "
            f"peak, over the {format_size(budget)} budget."
        )
        if len(plans) > 1:
            message = (
                f"{workers} workers × {shown} = {inflight} batches: at least {format_size(peak)} at the peak on every "
                f"path, over the {format_size(budget)} budget."
            )
        detail = ""
        if prefetch is None:
            detail = "prefetch_factor is not given: torch's default is 2. "
        if figure.detail():
            detail += figure.detail() + " "
        detail += (
            f"{'At least' if least else 'At'} {format_size(batch_bytes)} a batch the peak is ({inflight} + 1) × {format_size(batch_bytes)} = "
            f"{least}{format_size(peak)}, over the memory budget of {format_size(budget)} (the loop holds one batch more). "
        )
        if len(plans) > 1:
            detail += (
                f"The dataset, batch_size or workers depend on a condition: each of the {len(plans)} paths exceeds "
                "the budget, and this is the smallest. "
            )
        detail += "With the bytes of a batch known, the memory budget decides, not max-inflight-batches. "
        detail += "Every prefetched batch stays in /dev/shm until the loop takes it. "
        # One prefetch_factor for every path: the smallest of what each path's workers allow.
        suggested = [estimate.suggest(plan[2], limit, plan[5].bytes, budget) for plan in plans]
        given = {plan[3] or 2 for plan in plans}
        fix = None
        if all(new_workers == plan[2] for (new_workers, _), plan in zip(suggested, plans)):
            new_prefetch = min(new for _, new in suggested)
            detail += f"Lower prefetch_factor: prefetch_factor={new_prefetch} keeps every path within the budget."
            if len(given) == 1 and new_prefetch < given.pop():
                fix = _fix(call, new_prefetch)
        else:
            detail += "Even prefetch_factor=1 does not fit on some path: use fewer workers or smaller batches."
        at = "prefetch_factor" if call.given("prefetch_factor") else "num_workers"
        scenarios_ = [plan[4] for plan in plans]
        yield self.finding(
            call,
            at,
            message,
            fix,
            detail=detail,
            cite=(scenarios_, ("num_workers", "prefetch_factor", "batch_size")),
            place=_run_place(scenarios_),
        )


# With the bytes of a batch known and no memory-budget set, the budget the in-flight bytes are
# compared with.
DEFAULT_MEMORY_BUDGET = 8 * 1024**3


# At most this many combinations of (num_workers, prefetch_factor, batch_size, dataset) are
# judged one by one; a call with more stays with the count limit.
MAX_PATHS = 64


def _paths(call, ctx):
    """[(scenario, BatchFigure)] for each consistent combination of num_workers,
    prefetch_factor, batch_size and dataset, when there are several and the bytes of every
    path's batch are known (else None: one unknown path leaves the call to the count limit)."""
    names = ("num_workers", "prefetch_factor", "batch_size", "dataset")
    count = 1
    for name in names:
        options = call.value(name).options
        if options is None:
            return None
        count *= len(options)
    if count > MAX_PATHS:
        return None
    found = call_scenarios(call, *names)
    if not found or len(found) < 2:
        return None
    figures = {}
    paths = []
    for scenario in found:
        key = (id(scenario["dataset"]), id(scenario["batch_size"]))
        figure = figures.get(key)
        if figure is None:
            figure = figures[key] = batch_figure(call, ctx, {"dataset": scenario["dataset"], "batch_size": scenario["batch_size"]})
        if figure.bytes is None or figure.source != ESTIMATED:
            return None
        paths.append((scenario, figure))
    return paths


def _run_place(scenarios_):
    """The config file line of a run (``configs.runs``) that sets num_workers, else
    prefetch_factor, else batch_size in every scenario: a finding judged on one config file's run
    is reported there, with the loader as related location (as DL001's)."""
    from dl_lint.analysis.configs.runs import RunOrigin

    for name in ("num_workers", "prefetch_factor", "batch_size"):
        places = set()
        for scenario in scenarios_:
            possible = scenario.get(name)
            origin = None if possible is None else possible.origin
            if not isinstance(origin, RunOrigin) or not origin.path or not origin.line or len(origin.places) != 1:
                places = set()
                break
            places.add((origin.path, origin.line))
        if len(places) == 1:
            path, line = places.pop()
            return path, line, 1
    return None


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
