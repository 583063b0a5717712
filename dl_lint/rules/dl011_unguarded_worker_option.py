from dl_lint.analysis.values import ABSENT, CONFIGURABLE
from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule, call_scenarios, concrete, config_place, every, replace_value, workers_text

# option -> (is it active for this value?, what torch does with num_workers=0, torch's error,
# the guarded form)
_OPTIONS = {
    "prefetch_factor": (
        lambda v: v is not None,
        "raises ValueError at construction",
        'ValueError: "prefetch_factor option could only be specified in multiprocessing"',
        "prefetch_factor={value} if {workers} > 0 else None",
    ),
    "persistent_workers": (
        lambda v: bool(v),
        "raises ValueError at construction",
        'ValueError: "persistent_workers option needs num_workers > 0"',
        "persistent_workers={workers} > 0",
    ),
    "multiprocessing_context": (
        lambda v: v is not None,
        "raises ValueError at construction",
        'ValueError: "multiprocessing_context can only be used with multi-process loading"',
        "multiprocessing_context={value} if {workers} > 0 else None",
    ),
    "timeout": (
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0,
        "fails at the first iteration",
        'AssertionError: "_SingleProcessDataLoaderIter requires timeout == 0"',
        "timeout={value} if {workers} > 0 else 0",
    ),
}

_SOURCES = {
    "parameter": "a function parameter",
    "argparse": "a command-line argument",
    "config": "a config value",
    "environment": "an environment variable",
}


class UnguardedWorkerOption(Rule):
    code = "DL011"
    name = "unguarded-worker-option"
    severity = Severity.WARNING
    summary = "A workers-only option is passed unconditionally while num_workers is configurable and can be 0."
    fix_available = "Safe: rewrite the option to its guarded form (shown with the diagnostic)."
    doc = """
## What it does
Reports `prefetch_factor` (not None), `persistent_workers=True`, `multiprocessing_context` or
`timeout > 0` passed unconditionally while `num_workers` is configurable — a function parameter,
a command-line argument, a config value or an environment variable — and so can be 0.

It is silent when num_workers is a known positive constant, when the option is already guarded
(`prefetch_factor=2 if num_workers > 0 else None`, `persistent_workers=num_workers > 0`, a
`kwargs.update(...)` inside `if num_workers > 0:`), and when every possible value already
crashes (then DL001/DL002/DL003/DL005 report it as an error).

## Why is this bad?
These options only mean something with worker processes, and torch rejects them without:
`prefetch_factor`, `persistent_workers` and `multiprocessing_context` raise ValueError at
construction, `timeout > 0` fails at the first iteration. The first step of the standard
debugging recipe — set num_workers=0 to see whether multiprocessing is the cause — then crashes
before it can tell you anything.

## Example
```python
parser.add_argument("--workers", type=int, default=4)
loader = DataLoader(ds, num_workers=args.workers, prefetch_factor=4, persistent_workers=True)
```

## Use instead
```python
loader = DataLoader(
    ds,
    num_workers=args.workers,
    prefetch_factor=4 if args.workers > 0 else None,
    persistent_workers=args.workers > 0,
)
```

## Torch versions
prefetch_factor without workers raises from torch 2.0 (before, only values other than 2);
persistent_workers (1.7+), multiprocessing_context and timeout behave the same on all versions.
"""

    def check_call(self, call, ctx):
        workers = call.value("num_workers")
        if workers.source not in CONFIGURABLE:
            return
        workers_code = call.args["num_workers"].code if call.given("num_workers") else "num_workers"
        for option, (active, failure, error, guarded) in _OPTIONS.items():
            if not call.given(option):
                continue
            value = call.value(option)
            if value.is_unknown or not value.options:
                continue
            if not all(p.value is not ABSENT and active(p.value) and not p.guards for p in value.options):
                continue  # guarded, conditional, or inactive in some case
            if not workers.is_unknown:
                found = call_scenarios(call, "num_workers", option)
                if every(found, lambda s: concrete("num_workers", s["num_workers"]) == 0):
                    continue  # always crashes: an error rule reports it
            shown = value.options[0].value
            default = ""
            if not workers.is_unknown:
                defaults = []
                for p in workers.options or ():
                    text = repr(concrete("num_workers", p))
                    if p.origin is not None and p.origin.describe():
                        text += f" ({p.origin.describe()})"
                    if text not in defaults:
                        defaults.append(text)
                default = f"num_workers is {' or '.join(defaults)} by default. "
            fix = guarded.format(value=repr(shown), workers=workers_code)
            message = (
                f"{option}={shown!r} is passed unconditionally, but num_workers (`{workers_code}`) comes from "
                f"{_SOURCES[workers.source]} and can be set to 0: then torch {failure}."
            )
            detail = (
                f"{default}torch's error with num_workers=0: {error}. Setting num_workers=0 is the first step of "
                f"debugging a loader, so guard the option: `{fix}`."
            )
            related = ()
            if not workers.is_unknown:
                place = config_place([{"num_workers": p} for p in workers.options or ()], ("num_workers",))
                if place is not None:  # a Hydra default: cite the YAML line that sets it
                    related = (Related(place[0], place[1], place[2], "the default of num_workers"),)
            yield self.finding(call, option, message, _fix(call, option, guarded), detail=detail, related=related)


def _fix(call, option, guarded):
    workers = workers_text(call)
    value = call.args[option].text
    if workers is None or not value or "\n" in value:
        return None
    if option == "persistent_workers" and value.strip() != "True":
        new = f"{value} and {workers} > 0"
    else:
        new = guarded.format(value=value, workers=workers).split("=", 1)[1]
    return replace_value(call, option, new, f"Guard {option} on num_workers: `{option}={new}`")


RULE = UnguardedWorkerOption()
