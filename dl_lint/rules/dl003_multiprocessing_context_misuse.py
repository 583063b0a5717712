from dl_lint.model import Severity
from dl_lint.rules.base import (
    Rule,
    describe,
    fires,
    guard_worker_option,
    has_workers,
    no_workers,
    remove_worker_option,
    value_of,
    workers_written_zero,
)

START_METHODS = ("fork", "spawn", "forkserver")


class MultiprocessingContextMisuse(Rule):
    code = "DL003"
    name = "multiprocessing-context-misuse"
    severity = Severity.ERROR
    summary = "multiprocessing_context without workers, or a string that is not a start method."
    torch_raises = (
        ValueError,
        "multiprocessing_context can only be used with multi-process loading|"
        "multiprocessing_context option should specify a valid start method",
    )
    fix_available = (
        "Without workers: safe with a num_workers variable, `multiprocessing_context=<context> if <num_workers> > 0 "
        "else None`; unsafe with num_workers literally 0 or absent, remove the argument (the start method written "
        "for workers is lost when they come back). None for an unknown start method."
    )
    doc = """
## What it does
Reports `multiprocessing_context` (anything but None) while `num_workers` is 0 or not given, and
a string context that is not a start method (`fork`, `spawn`, `forkserver`) with workers.

## Why is this bad?
The context says how worker processes start; without workers torch raises
`ValueError: multiprocessing_context can only be used with multi-process loading (num_workers > 0)`,
and an unknown method name raises
`ValueError: multiprocessing_context option should specify a valid start method in [...]`.

## Example
```python
loader = DataLoader(dataset, multiprocessing_context="spawn")
loader = DataLoader(dataset, num_workers=4, multiprocessing_context="thread")
```

## Use instead
```python
loader = DataLoader(dataset, num_workers=4, multiprocessing_context="spawn")
```

## Torch versions
All versions with `multiprocessing_context` (1.2+). The valid methods are those of the platform:
fork, spawn and forkserver on Linux; spawn (and fork) on macOS; spawn on Windows.
"""

    def check_call(self, call, ctx):
        if not call.given("multiprocessing_context"):
            return
        names = ("num_workers", "multiprocessing_context")
        found = fires(call, names, lambda s: no_workers(s) and value_of(s, "multiprocessing_context") is not None)
        if found:
            yield self.finding(
                call,
                "multiprocessing_context",
                f"{describe('multiprocessing_context', found)} but {describe('num_workers', found)}: torch raises "
                "ValueError at construction.",
                _fix(call),
                detail="torch's error: \"multiprocessing_context can only be used with multi-process loading\". "
                "Remove it, or pass it only with workers.",
                cite=(found, names),
            )
            return
        bad = fires(
            call,
            names,
            lambda s: has_workers(s)
            and isinstance(value_of(s, "multiprocessing_context"), str)
            and value_of(s, "multiprocessing_context") not in START_METHODS,
        )
        if bad:
            yield self.finding(
                call,
                "multiprocessing_context",
                f"{describe('multiprocessing_context', bad)} is not a start method: torch raises ValueError at "
                "construction.",
                detail="torch's error: \"multiprocessing_context option should specify a valid start method\". "
                "Use \"spawn\", \"forkserver\" or \"fork\" (Linux).",
                cite=(bad, ("multiprocessing_context",)),
            )


def _fix(call):
    if workers_written_zero(call):
        return remove_worker_option(call, "multiprocessing_context", "Remove multiprocessing_context (no workers are started)")
    return guard_worker_option(
        call,
        "multiprocessing_context",
        "{value} if {workers} > 0 else None",
        "Pass multiprocessing_context only with workers: `{new}`",
    )


RULE = MultiprocessingContextMisuse()
