from dl_lint.model import Severity
from dl_lint.rules.base import (
    Rule,
    describe,
    fires,
    guard_worker_option,
    no_workers,
    remove_worker_option,
    value_of,
    workers_written_zero,
)


class TimeoutWithoutWorkers(Rule):
    code = "DL005"
    name = "timeout-without-workers"
    severity = Severity.ERROR
    summary = "timeout > 0 while num_workers is 0: the first iteration fails."
    torch_raises = (AssertionError, "_SingleProcessDataLoaderIter requires timeout == 0")
    fix_available = (
        "Safe with a num_workers variable: `timeout=T if <num_workers> > 0 else 0`. Unsafe with num_workers "
        "literally 0 or absent: remove the timeout (the value written for workers is lost when they come back)."
    )
    doc = """
## What it does
Reports `timeout > 0` while `num_workers` is 0 or not given.

## Why is this bad?
`timeout` bounds how long the main process waits for a batch from a worker. Without workers the
constructor accepts it, but the first `iter(loader)` fails:
`AssertionError: _SingleProcessDataLoaderIter requires timeout == 0`.

## Example
```python
loader = DataLoader(dataset, timeout=120)
```

## Use instead
```python
loader = DataLoader(dataset, num_workers=4, timeout=120)
# or, with a configurable num_workers:
loader = DataLoader(dataset, num_workers=num_workers, timeout=120 if num_workers > 0 else 0)
```

## Torch versions
All versions.
"""

    def check_call(self, call, ctx):
        if not call.given("timeout"):
            return
        def crashes(s):
            timeout = value_of(s, "timeout")
            return no_workers(s) and isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0
        found = fires(call, ("num_workers", "timeout"), crashes)
        if found:
            yield self.finding(
                call,
                "timeout",
                f"{describe('timeout', found)} but {describe('num_workers', found)}: the first iteration fails.",
                _fix(call),
                detail="The loader constructs, then iterating raises \"AssertionError: _SingleProcessDataLoaderIter "
                "requires timeout == 0\" (timeout bounds the wait for a worker's batch). Remove timeout, or pass "
                "it only with workers.",
                cite=(found, ("num_workers", "timeout")),
            )


def _fix(call):
    if workers_written_zero(call):
        return remove_worker_option(call, "timeout", "Remove timeout (it only bounds waits for worker processes)")
    return guard_worker_option(
        call, "timeout", "{value} if {workers} > 0 else 0", "Wait for workers only when there are some: `{new}`"
    )


RULE = TimeoutWithoutWorkers()
