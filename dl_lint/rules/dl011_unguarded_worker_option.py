from dl_lint.analysis.values import ABSENT, CONFIGURABLE
from dl_lint.model import Severity
from dl_lint.rules.base import Rule, call_scenarios, concrete, every, excluded_by_site, operand, replace_value, workers_text

# option -> (is it active for this value?, what torch does with num_workers=0, torch's error,
# the guarded form)
_OPTIONS = {
    "prefetch_factor": (
        lambda v: v is not None,
        "torch then raises ValueError",
        'ValueError: "prefetch_factor option could only be specified in multiprocessing"',
        "prefetch_factor={value} if {workers} > 0 else None",
    ),
    "persistent_workers": (
        lambda v: bool(v),
        "torch then raises ValueError",
        'ValueError: "persistent_workers option needs num_workers > 0"',
        "persistent_workers={workers} > 0",
    ),
    "multiprocessing_context": (
        lambda v: v is not None,
        "torch then raises ValueError",
        'ValueError: "multiprocessing_context can only be used with multi-process loading"',
        "multiprocessing_context={value} if {workers} > 0 else None",
    ),
    "timeout": (
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0,
        "the first iteration then fails",
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
a command-line argument, a config value or an environment variable — and so can be 0, or while
`num_workers` is 0 on some of the paths that reach the call (`nw = 0` under `if args.debug:`,
`args.workers = 0` on one branch) and not on others.

An option made conditional by a test that does not look at num_workers counts on the path
where it is active (`persistent_workers=False if args.debug else True` beside `num_workers=0 if
args.debug else args.num_workers`: without `--debug` the option is True and `--num_workers 0`
crashes): the combinations that take one test both ways are not paths. A test counts as
num_workers' own when its text, or the expression its name was bound to (`use_workers =
args.workers > 0`), holds num_workers' text or the word "worker"; when num_workers' values are
not known (a parameter without a default), only a test its own expression does not take counts.

It is silent when num_workers is a known positive constant, when the option is already guarded
(`prefetch_factor=2 if num_workers > 0 else None`, `persistent_workers=num_workers > 0`, a
`kwargs.update(...)` inside `if num_workers > 0:`), when the option is computed from num_workers'
own value (`persistent_workers=bool(args.workers)`), and when every possible value already
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
        on_a_path = workers.source not in CONFIGURABLE
        if on_a_path and (workers.is_unknown or len(workers.options) < 2):
            return  # a known value: one that crashes is an error rule's, one that does not is fine
        if excluded_by_site(call, "num_workers", 0):
            return  # under ``if num_workers > 0:``, or after ``if num_workers == 0: return``
        # as written (one line) for the message and the guarded form it shows; the whitespace-free
        # key (``2ifnwelse0``) only when the text spans lines
        workers_code = (workers_text(call) or call.args["num_workers"].code) if call.given("num_workers") else "num_workers"
        for option, (active, failure, error, guarded) in _OPTIONS.items():
            if not call.given(option):
                continue
            value = call.value(option)
            if value.is_unknown or not value.options:
                continue
            if _derived_from_workers(value, workers):
                continue  # ``persistent_workers=bool(args.workers)``: it follows num_workers
            condition = None
            if not all(p.value is not ABSENT and active(p.value) and not p.guards for p in value.options):
                # guarded, conditional, or inactive in some case: reported only when it is active
                # on a path that an unrelated test chooses, where num_workers can be 0
                condition = _independent_path(call, option, value, active, workers, on_a_path)
                if condition is None:
                    continue
            if condition is not None:
                shown = condition[0]
                message = f"{option}={shown!r} is unguarded but num_workers can be 0: {failure}."
                detail = (
                    f"{option} is {shown!r} when `{condition[1]}`, a test that does not look at num_workers, and on "
                    f"that path num_workers (`{workers_code}`) {condition[2]}: then torch fails "
                    f"{'at the first iteration' if option == 'timeout' else 'at construction'}: {error}. "
                    f"Guard the option on num_workers itself: `{guarded.format(value=repr(shown), workers=operand(workers_code))}`."
                )
                yield self.finding(call, option, message, None, detail=detail)
                continue
            if not workers.is_unknown:
                found = call_scenarios(call, "num_workers", option)
                if every(found, lambda s: concrete("num_workers", s["num_workers"]) == 0):
                    continue  # always crashes: an error rule reports it
                if on_a_path and not any(concrete("num_workers", s["num_workers"]) == 0 for s in found or ()):
                    continue  # no path gives num_workers=0 here
            shown = value.options[0].value
            fix = guarded.format(value=repr(shown), workers=operand(workers_code))
            message = f"{option}={shown!r} is unguarded but num_workers can be 0: {failure}."
            when = "at the first iteration" if option == "timeout" else "at construction"
            if on_a_path:
                zero = [p for p in workers.options if p.value == 0]
                paths = " or ".join(sorted({g.describe() for p in zero for g in p.guards})) or "one of its paths"
                detail = (
                    f"num_workers (`{workers_code}`) is 0 on some paths (when {paths}), and on those torch fails "
                    f"{when}: {error}. Guard the option: `{fix}`."
                )
            elif not call.given("num_workers") and "num_workers" in call.extra.get("configured", ()):
                spread = call.extra.get("configured_from", "**config")
                detail = (
                    f"num_workers is not written at the call: `{spread}` may set it to 0 or leave it out "
                    f"(torch's default is 0), and then torch fails {when}: {error}. Guard the option: `{fix}`."
                )
            else:
                detail = (
                    f"num_workers (`{workers_code}`) comes from {_SOURCES[workers.source]}, so it can be set to 0, and "
                    f"then torch fails {when}: {error}. Setting num_workers=0 is the first step of debugging a loader, "
                    f"so guard the option: `{fix}`."
                )
            # Where num_workers' default is set (a Hydra default: the YAML line) is cited.
            cite = None if workers.is_unknown else ([{"num_workers": p} for p in workers.options or ()], ("num_workers",))
            yield self.finding(call, option, message, _fix(call, option, guarded), detail=detail, cite=cite)


def _derived_from_workers(value, workers) -> bool:
    """Whether the option's value was computed from num_workers' own configurable value
    (``persistent_workers=bool(args.workers)`` resolves to the flag's default, True, with that
    flag's origin): it changes with num_workers, so it is not passed whatever num_workers is."""
    if value.source not in CONFIGURABLE or workers.is_unknown:
        return False
    origins = {p.origin for p in workers.options if p.origin is not None}
    return any(p.origin in origins for p in value.options)


def _independent_path(call, option, value, active, workers, on_a_path):
    """For an option that is conditional (``persistent_workers=False if args.debug else True``):
    (its value, the test that makes it active, what num_workers is there) when, in a consistent
    combination of the two arguments, the option is active and num_workers is 0 or comes from a
    configurable source (a command-line default, a parameter), and every test the option depends
    on is unrelated to num_workers (not its text nor an alias of it, no "worker" in its words).
    Combinations that take one test both ways (``0 if args.debug else args.workers`` with the
    option's ``False if args.debug``) are not consistent. None otherwise."""
    written = call.args["num_workers"].code if call.given("num_workers") else None
    own = {written, *workers.aliases} - {"", None}
    tests = set()
    for possible in value.options:
        for guard in possible.guards:
            for text in (guard.subject, *guard.aliases):
                if "worker" in text.lower() or any(name in text for name in own):
                    return None
                tests.add(text)
    if workers.is_unknown:
        # a configurable count whose values are not known (a parameter without a default): only
        # when its own expression does not take the option's test (``0 if debug else workers``
        # pairs them, and which count the active path gets is not known)
        if on_a_path or any(test in text for text in own for test in tests):
            return None
        for possible in value.options:
            if possible.value is not ABSENT and active(possible.value) and possible.guards:
                test = " and ".join(g.describe() for g in possible.guards)
                return possible.value, test, f"comes from {_SOURCES[workers.source]}, so it can be set to 0"
        return None
    if not workers.options:
        return None
    found = [s for s in call_scenarios(call, "num_workers", option) or () if not _opposed(s["num_workers"], s[option])]
    crashes = [
        s[option].value is not ABSENT and active(s[option].value) and concrete("num_workers", s["num_workers"]) == 0 for s in found
    ]
    if found and all(crashes):
        return None  # every path crashes: an error rule reports it
    for scenario in found:
        workers_possible, option_possible = scenario["num_workers"], scenario[option]
        if option_possible.value is ABSENT or not active(option_possible.value) or not option_possible.guards:
            continue
        number = concrete("num_workers", workers_possible)
        if number == 0:
            there = "is 0"
        elif not on_a_path and workers_possible.origin is not None:
            there = f"comes from {_SOURCES[workers.source]}, so it can be set to 0"
        else:
            continue
        test = " and ".join(g.describe() for g in option_possible.guards)
        return option_possible.value, test, there
    return None


def _opposed(first, second) -> bool:
    """Whether two possibilities hold under one test taken both ways (the same text, op and
    constant, one negated): they never meet on one path."""
    for a in first.guards:
        names = {a.subject, *a.aliases} - {""}
        for b in second.guards:
            if a.op == b.op and a.rhs == b.rhs and a.negated != b.negated and names & {b.subject, *b.aliases}:
                return True
            if a.negated == b.negated and a.rhs == b.rhs and {a.op, b.op} in _OPPOSITE_OPS and names & {b.subject, *b.aliases}:
                return True
    return False


_OPPOSITE_OPS = ({">", "<="}, {"<", ">="}, {"==", "!="})


def _fix(call, option, guarded):
    workers = workers_text(call)
    value = call.args[option].text
    if workers is None or not value or "\n" in value:
        return None
    value, workers = operand(value), operand(workers)
    if option == "persistent_workers" and value.strip() != "True":
        new = f"{value} and {workers} > 0"
    else:
        new = guarded.format(value=value, workers=workers).split("=", 1)[1]
    return replace_value(call, option, new, f"Guard {option} on num_workers: `{option}={new}`")


RULE = UnguardedWorkerOption()
