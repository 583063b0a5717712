from dl_lint.analysis.values import FunctionRef, Instance
from dl_lint.model import Severity
from dl_lint.rules.base import Rule, call_scenarios, every, has_workers, value_of

_SPAWN = ("spawn", "forkserver")


class UnpicklableWorkerCallable(Rule):
    code = "DL202"
    name = "unpicklable-worker-callable"
    severity = Severity.WARNING
    summary = "A lambda, nested function or local class given to workers: pickling fails under spawn/forkserver."
    torch_raises = ((AttributeError, TypeError, Exception), "Can't pickle|Can't get local object|cannot pickle|pickle")
    references = (
        "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
        "https://docs.python.org/3.14/whatsnew/3.14.html (Incompatible changes: forkserver by default on POSIX but macOS)",
        "https://pytorch.org/docs/stable/data.html#platform-specific-behaviors",
    )
    doc = """
## What it does
Reports a lambda, a function defined inside another function, or an instance of a class defined
inside a function, passed as `collate_fn`, `worker_init_fn` or `dataset` to a DataLoader with
workers. It is an **error** when the start method is certainly spawn or forkserver: a
`multiprocessing_context` on the call, `set_start_method("spawn")` / `get_context("spawn")` in
the program, or a target where no Python defaults to fork: every Python the project allows is
3.14 or later (`requires-python` in pyproject.toml, or the `target-python` setting), or its
`Operating System ::` classifiers name only macOS and Windows. It is a warning otherwise, and
when the program asks for fork itself (`set_start_method("fork")`, `get_context("fork")`).

## Why is this bad?
Under spawn and forkserver the DataLoader pickles the dataset, the collate_fn and the
worker_init_fn to send them to each worker. Lambdas and local objects cannot be pickled: the
first iteration fails with `AttributeError: Can't pickle local object 'main.<locals>.<lambda>'`
(or `PicklingError`). Linux uses fork up to Python 3.13, so the code works there and breaks on
macOS and Windows (spawn) and on Python 3.14 (forkserver by default).
`functools.partial(top_level_function, ...)` pickles fine.

## Example
```python
loader = DataLoader(ds, num_workers=4, collate_fn=lambda batch: pad(batch, 0))
```

## Use instead
```python
def collate(batch, pad_value=0):
    return pad(batch, pad_value)

loader = DataLoader(ds, num_workers=4, collate_fn=functools.partial(collate, pad_value=0))
```

## Start methods
CPython's defaults: Windows has only spawn; macOS defaults to spawn from Python 3.8 (bpo-33725);
other platforms default to fork up to Python 3.13 and to forkserver from Python 3.14 ("What's
new in Python 3.14", Incompatible changes). `requires-python = ">=3.14"` therefore makes the
failure certain on every platform; `">=3.10"` leaves Linux with fork, and stays a warning.
Proven with torch 2.13: a lambda `collate_fn` under forkserver raises `AttributeError: Can't
pickle local object` at the first iteration (tests/test_spawn.py).

## Torch versions
All versions; the default start method depends on the platform and Python version.
"""

    def check_call(self, call, ctx):
        for option in ("collate_fn", "worker_init_fn", "dataset"):
            if not call.given(option):
                continue
            found = call_scenarios(call, "num_workers", option, "multiprocessing_context")
            if not every(found, lambda s: has_workers(s) and _local(value_of(s, option)) is not None):
                continue
            what = _local(value_of(found[0], option))
            contexts = [value_of(s, "multiprocessing_context") for s in found]
            spawn = all(c in _SPAWN for c in contexts) or ctx.signal("spawn")
            # The platform's default decides only where the call names no start method.
            target = ctx.start_method_target() if all(c is None or c in _SPAWN for c in contexts) else None
            if spawn:
                when = "This program starts its workers with spawn or forkserver: then"
            elif target is not None:
                when = f"On {target.why} workers start with {target.methods}. {target.detail} Under {target.methods}"
            else:
                when = (
                    "It works with fork (Linux up to Python 3.13); under spawn (macOS, Windows) and forkserver "
                    "(Linux from Python 3.14)"
                )
            yield self.finding(
                call,
                option,
                f"{option} is {what}, which cannot be pickled: spawn/forkserver workers fail.",
                severity=Severity.ERROR if spawn or target is not None else None,
                detail=f"{when} every worker receives it pickled, and the first iteration raises \"AttributeError: Can't "
                "pickle local object\". Define it at module level (use functools.partial(top_level_function, "
                "...) to bind arguments).",
                cite=(found, ("num_workers", "multiprocessing_context")),
            )


def _local(value):
    if isinstance(value, FunctionRef) and value.kind == "lambda":
        return "a lambda"
    if isinstance(value, FunctionRef) and value.kind == "nested":
        return f"the nested function {value.name}"
    if isinstance(value, FunctionRef) and value.kind == "local-class":
        return f"the local class {value.name}"
    if isinstance(value, Instance) and value.local:
        return f"an instance of the local class {value.name}"
    return None


RULE = UnpicklableWorkerCallable()
