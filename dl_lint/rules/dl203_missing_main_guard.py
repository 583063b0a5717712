from dl_lint.model import Severity
from dl_lint.rules.base import Rule, fires, has_workers


class MissingMainGuard(Rule):
    code = "DL203"
    name = "missing-main-guard"
    severity = Severity.WARNING
    summary = "A script iterates a loader with workers outside `if __name__ == \"__main__\":`."
    references = ('https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods', 'https://pytorch.org/docs/stable/data.html#platform-specific-behaviors')
    doc = """
## What it does
Reports a DataLoader with workers that a script iterates at module level, or inside a function
that module-level code calls, outside `if __name__ == "__main__":`. Calls are followed within
the module, four deep: module level calls `main()`, which calls `train()`, which builds the loader
and passes it to `run_epoch(loader)`, which loops over it; or a module-level loader is looped over
(through its global name) in a function an unguarded module-level epoch loop calls. It stays
silent when the call is under the main guard, when the module has no unguarded top-level call,
in notebooks, and for loaders without workers.

## Why is this bad?
Under the spawn and forkserver start methods (macOS, Windows, Linux from Python 3.14) each worker
starts a fresh interpreter that imports the main script. Without the guard, that import runs the
training loop again, which tries to start workers during bootstrapping:
`RuntimeError: An attempt has been made to start a new process before the current process has
finished its bootstrapping phase`, then `DataLoader worker (pid(s) ...) exited unexpectedly`.

## Example
```python
loader = DataLoader(ds, num_workers=4)
for batch in loader:
    train(batch)
```

## Use instead
```python
def main():
    loader = DataLoader(ds, num_workers=4)
    for batch in loader:
        train(batch)

if __name__ == "__main__":
    main()
```

## Torch versions
All versions; it breaks wherever the start method is spawn or forkserver.
"""

    def check_call(self, call, ctx):
        if ctx.is_notebook or call.unguarded_iteration is None:
            return
        if not fires(call, ("num_workers",), has_workers):
            return
        yield self.finding(
            call,
            None,
            f"this loader starts worker processes and is iterated by module-level code (line "
            f"{call.unguarded_iteration}), outside `if __name__ == \"__main__\":`: under spawn/forkserver every "
            "worker re-imports this script and fails.",
            detail="Spawn and forkserver are the start methods on macOS, Windows and Linux from Python 3.14; "
            "the error is \"RuntimeError: An attempt has been made to start a new process before the current "
            "process has finished its bootstrapping phase\". Move the loop into a function called under "
            "`if __name__ == \"__main__\":`.",
        )


RULE = MissingMainGuard()
