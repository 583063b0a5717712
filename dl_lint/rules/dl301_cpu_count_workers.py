from dl_lint.model import Severity
from dl_lint.rules.base import Rule


class CpuCountWorkers(Rule):
    code = "DL301"
    name = "cpu-count-workers"
    severity = Severity.WARNING
    summary = "num_workers=os.cpu_count() in a program that runs one process per GPU: ranks × cores workers."
    references = ('torch/utils/data/dataloader.py (_check_worker_number_rationality)',)
    doc = """
## What it does
Reports `num_workers` taken from `os.cpu_count()`, `multiprocessing.cpu_count()` or
`len(os.sched_getaffinity(0))`, undivided, in a program that runs one process per GPU
(`init_process_group`, `DistributedSampler`, accelerate's `Accelerator`, DDP, `LOCAL_RANK`, a
Lightning strategy such as "ddp"), found in the loader's module or a module connected to it by
imports.

## Why is this bad?
Every rank builds its own loader, so 8 ranks on a 64-core machine start 8 × 64 = 512 worker
processes, each with a copy of the dataset and W×P prefetched batches: host memory and CPU
contention explode. torch's "excessive worker" warning counts one loader at a time, so it never
fires for this.

## Example
```python
loader = DataLoader(ds, sampler=DistributedSampler(ds), num_workers=os.cpu_count())
```

## Use instead
```python
workers = len(os.sched_getaffinity(0)) // torch.cuda.device_count()
loader = DataLoader(ds, sampler=DistributedSampler(ds), num_workers=min(workers, 8))
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        workers = call.value("num_workers")
        if workers.source != "cpu-count" or not ctx.signal("distributed"):
            return
        yield self.finding(
            call,
            "num_workers",
            "num_workers is the core count, but this program runs one process per GPU: each rank starts that many workers.",
            detail="On 8 GPUs with 64 cores, 8 ranks × 64 cores = 512 worker processes, each with a dataset copy and prefetched batches. "
            "Divide by the processes per node: len(os.sched_getaffinity(0)) // torch.cuda.device_count().",
        )


RULE = CpuCountWorkers()
