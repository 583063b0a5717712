"""What every rule module provides, and the helpers rules share.

A rule is a small class with its code, name, severity, whether it is on by default, and its
documentation (Markdown, in fixed sections), plus ``check_call``. Rules judge facts from
``dl_lint.analysis``; they never read files, parse, or print.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple

from dl_lint.analysis.loaders import DEFAULTS
from dl_lint.analysis.values import ABSENT, Possible, Value, scenarios, source_lower_bound
from dl_lint.model import Edit, Fix, Location, Related, Severity
from dl_lint.record import Record

if TYPE_CHECKING:
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.analysis.values import Possible
    from dl_lint.rules.context import RuleContext


class Finding(Record):
    __slots__ = ("message", "location", "end_location", "fix", "severity", "detail", "related", "place")

    def __init__(
        self,
        message: str,  # one sentence: what is wrong and what happens at runtime
        location: Location,
        end_location: Location,
        fix: Optional[Fix] = None,
        severity: Optional[Severity] = None,  # overrides the rule's (DL202: error under spawn)
        detail: str = "",  # the rest: torch's error text, the numbers, what to write instead
        related: Tuple[Related, ...] = (),  # places the message cites (absolute paths)
        # Where to report instead of the call: (absolute path, row, column) of the config file
        # line that sets the deciding value; the call becomes a related location.
        place: Optional[Tuple[str, int, int]] = None,
    ) -> None:
        self.message = message
        self.location = location
        self.end_location = end_location
        self.fix = fix
        self.severity = severity
        self.detail = detail
        self.related = related
        self.place = place


class Rule:
    code: str = ""
    name: str = ""
    severity: Severity = Severity.WARNING
    default_on: bool = True
    summary: str = ""  # one line: what the rule reports
    doc: str = ""  # Markdown sections: What it does / Why is this bad? / Example / Use instead / ...
    fix_available: str = "No automatic fix."
    # Judged once per config file's run (``configs.runs.variants``), each run with its own values,
    # as the crash rules are; the other rules judge a call once over every value the runs give.
    per_run: bool = False
    # What the rule reports exists only on the path that builds it (DL206's DistributedSampler,
    # built for distributed runs): at a factory's call, a loader on one branch the call does
    # not decide is reported by itself, as a conditional sampler is at its own call; the other
    # rules need every branch to break them (``judge.judge_call_sites``).
    per_branch: bool = False
    references: tuple = (
        "torch/utils/data/dataloader.py (DataLoader.__init__ and its iterators), torch 2.13",
        "https://pytorch.org/docs/stable/data.html",
    )

    def check_call(self, call: LoaderCall, ctx: "RuleContext") -> Iterable[Finding]:
        return ()

    def finding(
        self,
        call: LoaderCall,
        at: Optional[str],
        message: str,
        fix: Optional[Fix] = None,
        severity: Optional[Severity] = None,
        *,
        detail: str = "",
        related: Sequence[Related] = (),
        place: Optional[Tuple[str, int, int]] = None,
        cite: Optional[Tuple[Sequence[dict], Sequence[str]]] = None,
    ) -> Finding:
        """``message``: one short sentence (the concise line: what is wrong, the numbers, what
        happens; at most ``MESSAGE_LIMIT`` characters); ``detail``: everything else the user needs
        (where the values come from, torch's error, the reasoning, what to write instead);
        ``related``: places cited, instead of paths written into the text. ``cite``: (scenarios,
        argument names) whose values' origins open the detail, each place where one is set a
        related location."""
        start, end = call.span(at)
        if cite is not None:
            text, places = origins(call, cite[0], cite[1])
            detail = f"{text} {detail}".strip() if text else detail
            related = (*places, *related)
        return Finding(message, start, end, fix, severity, detail, tuple(related), place)

    def markdown(self) -> str:
        head = f"# {self.name} ({self.code})\n\n"
        head += f"Severity: {self.severity}. {'On' if self.default_on else 'Off'} by default.\n\n"
        head += f"Fix: {self.fix_available}\n\n"
        refs = "\n".join(f"- {ref}" for ref in self.references)
        return head + self.doc.strip() + f"\n\n## References\n{refs}\n"


# -- shared helpers ---------------------------------------------------------------------------


def concrete(name: str, possible: Possible) -> Any:
    return DEFAULTS.get(name) if possible.value is ABSENT else possible.value


class AtLeastOne:
    """A worker count known only to be at least 1: the machine's core count (``os.cpu_count()``,
    ``len(os.sched_getaffinity(0))``), or a ``min``/``max`` of it that stays positive
    (``min(8, os.cpu_count())``). The analysis keeps such a value unknown (its source says
    "cpu-count" or "positive"); a rule that needs workers but not their number (DL202, DL203)
    sees it as one of these possibilities through ``call_scenarios(..., positive=True)``. It is
    not a number: no rule computes with it, and a guard comparing it is undecidable."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return self.what


POSITIVE_WORKERS = {
    "cpu-count": AtLeastOne("the core count"),
    "positive": AtLeastOne("a positive min/max of the core count"),
}
_DERIVED = AtLeastOne("a count derived from the core count")


def positive_workers(source: Optional[str]) -> Optional[AtLeastOne]:
    """The ``AtLeastOne`` of an unknown worker count's source: the core count, a positive
    min/max of it, or arithmetic on it with a lower bound of 1 or more ("bound:N",
    ``resolve._bounded``); None for any other source."""
    found = POSITIVE_WORKERS.get(source or "")
    if found is None and (source_lower_bound(source) or 0) >= 1:
        return _DERIVED
    return found


def call_scenarios(call: LoaderCall, *names: str, positive: bool = False) -> Optional[List[dict]]:
    """Consistent combinations of the named arguments (None if any is unknown). Several rules
    ask for the same names of the same call: the answer is kept for the last few calls (the
    entry holds the call itself, so an id is never taken for a later object's). ``positive``:
    a num_workers known only to be at least 1 is an ``AtLeastOne`` possibility instead of
    unknown (for rules that ask only whether there are workers)."""
    if positive:  # it changes the answer only for such a num_workers: else the same entry serves
        workers = call.value("num_workers") if "num_workers" in names else None
        positive = workers is not None and workers.is_unknown and positive_workers(workers.source) is not None
    key = (id(call), names, positive)
    kept = _SCENARIOS.get(key)
    if kept is not None and kept[0] is call:
        return None if kept[1] is None else list(kept[1])
    values = {n: call.value(n) for n in names}
    if positive:
        workers = values["num_workers"]
        values["num_workers"] = Value((Possible(positive_workers(workers.source)),), workers.source, workers.aliases)
    found = scenarios(values, DEFAULTS, holds=call.extra.get("holds", ()))
    if len(_SCENARIOS) >= 256:
        _SCENARIOS.clear()
    _SCENARIOS[key] = (call, found)
    return None if found is None else list(found)


_SCENARIOS: dict = {}  # (id(call), names) -> (call, scenarios): call_scenarios' answers


def excluded_by_site(call: LoaderCall, name: str, value: Any) -> bool:
    """Whether a condition that holds wherever the call runs (an ``if`` around it, an early
    exit before it) rules out ``value`` for the argument ``name``: ``if args.workers == 0:
    return`` before the call makes num_workers=0 impossible there. So does a division by the
    argument before the call (``total / (batch * num_workers)``: with Python numbers a 0 raises
    ZeroDivisionError there, and the call never sees it); asked only by claims that a value
    makes the program fail (DL011), which can only become quieter by it."""
    from dl_lint.analysis.values import guard_target

    argument = call.value(name)
    subjects = {alias: name for alias in argument.aliases}
    bound = call.args.get(name)
    if bound is not None:
        subjects.setdefault(bound.code, name)
    guards = (*call.extra.get("holds", ()), *call.extra.get("divided", ()))
    return any(guard_target(guard, subjects) == name and guard.holds(value) is False for guard in guards)


def every(found: Optional[Sequence[dict]], predicate) -> bool:
    """True when there is at least one scenario and the predicate holds in all of them."""
    return bool(found) and all(predicate(s) for s in found)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The concise line's bound (issue 27: ruff's are under 100 characters; dl-lint's ran 220-297):
# what is wrong, the numbers and what happens, location excluded. tests/test_messages.py holds
# every fixture diagnostic to it; bench/message_lengths.py measures real repositories.
MESSAGE_LIMIT = 120


def describe(name: str, scenarios_: Sequence[dict]) -> str:
    """``num_workers=0`` or ``prefetch_factor=2 or 4``: the values, for the concise line (where
    they come from is the detail's: ``origins``)."""
    seen: List[str] = []
    for scenario in scenarios_:
        text = repr(concrete(name, scenario[name]))
        if text not in seen:
            seen.append(text)
    return f"{name}=" + " or ".join(seen)


def origins(call: "LoaderCall", scenarios_: Sequence[dict], names: Sequence[str]) -> Tuple[str, Tuple[Related, ...]]:
    """Where the values of ``names`` come from: a sentence for the detail (``num_workers=0: not
    given, torch's default; prefetch_factor=2: default of parameter prefetch_factor.``) and a
    related location at each line that sets one (a value of this file without a path is at the
    call's file). No path is written into the text: reporters print a place's path in the form of
    the diagnostic's own."""
    import os

    items: List[str] = []
    places: List[Related] = []
    for name in names:
        for scenario in scenarios_:
            possible = scenario.get(name)
            if possible is None or possible.origin is None:
                continue
            value = f"{name}={concrete(name, possible)!r}"
            origin = possible.origin
            what = origin.describe()
            item = f"{value} ({what})" if what else ""
            if item and item not in items:
                items.append(item)
            for path, line in origin.sites():
                path = path or call.path
                if not path or not line:
                    continue
                note = f"{value} is set here" + (f" ({what})" if what else "")
                place = Related(os.path.abspath(path), line, 1, note)
                if place not in places:
                    places.append(place)
    text = ("Values: " + "; ".join(items) + ".") if items else ""
    return text, tuple(places)


def is_config_origin(origin) -> bool:
    """A value set in a config module (a yacs defaults file) or a config file of a run:
    reported at its line too."""
    from dl_lint.analysis.configs.runs import RunOrigin

    return isinstance(origin, RunOrigin)


def config_place(scenarios_: Sequence[dict], names: Sequence[str]) -> Optional[Tuple[str, int, int]]:
    """The config file line that decides a finding: for the first of ``names`` whose value in
    every scenario was read from one YAML line (a Hydra default), that line, as (absolute path,
    row, column); None when the values were written in Python."""
    for name in names:
        places = set()
        for scenario in scenarios_:
            origin = scenario[name].origin
            in_config = origin is not None and origin.path and (origin.path.endswith((".yaml", ".yml", ".json", ".toml")) or is_config_origin(origin))
            if not in_config or not origin.line:
                places = set()
                break
            places.add((origin.path, origin.line))
        if len(places) == 1:
            path, line = next(iter(places))
            return path, line, 1
    return None


def truthy(value: Any) -> bool:
    return bool(value)


def value_of(scenario: dict, name: str) -> Any:
    return concrete(name, scenario[name])


def workers_of(scenario: dict) -> Any:
    return concrete("num_workers", scenario["num_workers"])


def no_workers(scenario: dict) -> bool:
    """num_workers is 0 (torch compares with ==, so False counts too)."""
    workers = workers_of(scenario)
    return isinstance(workers, (int, float)) and workers == 0


def has_workers(scenario: dict) -> bool:
    workers = workers_of(scenario)
    if isinstance(workers, AtLeastOne):
        return True
    return isinstance(workers, (int, float)) and not isinstance(workers, bool) and workers > 0


# A name that says CUDA is in use (``args.cuda``, ``use_cuda``, ``use_gpu``, ``has_cuda``) or that
# it is not (``args.no_cuda``, ``use_cpu``, ``cpu_only``): the pytorch/examples idiom
# ``kwargs = {"num_workers": 1, "pin_memory": True} if args.cuda else {}`` names its condition so.
_CUDA_NAME = re.compile(r"(?:use_|has_|with_|is_|enable_|on_)?(?:cuda|gpus?)(?:_available|_enabled|_ok)?")
_CPU_NAME = re.compile(r"no_(?:cuda|gpus?)|(?:use_|only_|force_|on_)?cpu(?:_only)?")
_DEVICE_NAME = re.compile(r"(?:\w+_)?device(?:_type)?|type|accelerator")


def says_no_cuda(guard) -> bool:
    """Whether a possibility's guard says CUDA is not in use on its path: ``not args.cuda``,
    ``not torch.cuda.is_available()``, ``args.no_cuda``, ``device == "cpu"``,
    ``device.type != "cuda"``."""
    last = guard.subject.rsplit(".", 1)[-1]
    if guard.op == "truthy":
        if guard.subject.endswith("cuda.is_available()") or _CUDA_NAME.fullmatch(last):
            return guard.negated
        return bool(_CPU_NAME.fullmatch(last)) and not guard.negated
    if guard.op in ("==", "!=") and isinstance(guard.rhs, str) and _DEVICE_NAME.fullmatch(last):
        equal = (guard.op == "==") != guard.negated
        return guard.rhs == "cpu" if equal else guard.rhs == "cuda"
    return False


def on_cuda(found: Sequence[dict]) -> List[dict]:
    """The scenarios of paths where CUDA may be in use: those with no value set under a guard
    that says it is not (``says_no_cuda``: ``if not torch.cuda.is_available(): return {...}``)."""
    return [s for s in found if not any(says_no_cuda(g) for p in s.values() for g in p.guards)]


def workers_with_cuda(call: LoaderCall) -> Optional[List[str]]:
    """DL203's question when some paths give the loader no workers: is every such path one where
    CUDA is not in use (``says_no_cuda``) while another gives it workers? Then the loader has
    workers on every machine with CUDA. The conditions of the paths without workers, negated
    (``args.cuda``), else None."""
    found = call_scenarios(call, "num_workers")
    if not found or not any(has_workers(s) for s in found):
        return None
    conditions: List[str] = []
    for scenario in found:
        if has_workers(scenario):
            continue
        if not no_workers(scenario):
            return None
        guard = next((g for g in scenario["num_workers"].guards if says_no_cuda(g)), None)
        if guard is None:
            return None
        conditions.append(guard.negate().describe())
    return list(dict.fromkeys(conditions))


def core_count(found: Sequence[dict]) -> str:
    """The detail's sentence when a scenario's workers are only known to be at least 1."""
    for scenario in found:
        workers = workers_of(scenario)
        if isinstance(workers, AtLeastOne):
            return f"Its num_workers is {workers.what} (os.cpu_count()): at least 1 on every machine. "
    return ""


def dataset_class_of(ctx, found: Sequence[dict]):
    """The one project class every scenario's dataset is an instance of (else None)."""
    classes = {}
    for scenario in found:
        cls = ctx.dataset_class(scenario["dataset"].value)
        if cls is None:
            return None
        classes[(cls.module, cls.name, cls.path)] = cls
    return next(iter(classes.values())) if len(classes) == 1 else None


def fires(call: LoaderCall, names: Sequence[str], predicate, positive: bool = False) -> Optional[List[dict]]:
    """The scenarios of ``names`` when ``predicate`` holds in every one (else None);
    ``positive`` as ``call_scenarios``."""
    found = call_scenarios(call, *names, positive=positive)
    return found if every(found, predicate) else None


class ShmExcess(Record):
    """DL104: a loader's batches in /dev/shm over the container's shared memory. ``figure``:
    bytes in shared memory; ``batches``: how many batches that is; ``definition``: the run
    definition with the largest /dev/shm of the project (the most favourable)."""

    __slots__ = ("figure", "batches", "workers", "prefetch", "batch_bytes", "estimated", "pinned", "definition")

    def __init__(self, figure, batches, workers, prefetch, batch_bytes, estimated, pinned, definition) -> None:
        self.figure = figure
        self.batches = batches
        self.workers = workers
        self.prefetch = prefetch
        self.batch_bytes = batch_bytes
        self.estimated = estimated
        self.pinned = pinned
        self.definition = definition


def shm_excess(call: LoaderCall, ctx: "RuleContext") -> Optional[ShmExcess]:
    """DL104's question (DL101 asks it too, to leave such a loader to DL104): do this loader's
    batches in flight exceed the /dev/shm every container of the project leaves? None when the
    bytes of a batch, the workers or any container's /dev/shm are unknown, or it fits.

    Workers build each batch in /dev/shm; with the loop running, (W×P + 1) batches are there
    (the measured model of ``dl_lint.inflight``). With pin_memory possibly on, a thread copies
    batches out of shared memory as they arrive, so only one batch is certain to be there."""
    from dl_lint import inflight

    definitions = ctx.run_definitions()
    if not definitions or any(d.shm is None for d in definitions):
        return None
    definition = max(definitions, key=lambda d: d.shm)
    from dl_lint.analysis.batches import batch_figure

    figure_of = batch_figure(call, ctx)
    if figure_of.bytes is None:
        return None
    batch_bytes, estimated = figure_of.bytes, figure_of
    found = call_scenarios(call, "num_workers", "prefetch_factor")
    if not found:
        return None
    pin = call.value("pin_memory")  # unknown (``torch.cuda.is_available()``): it may pin
    pinned = pin.options is None or any(concrete("pin_memory", p) for p in pin.options)
    plans = []
    for scenario in found:
        workers = concrete("num_workers", scenario["num_workers"])
        prefetch = concrete("prefetch_factor", scenario["prefetch_factor"])
        if not is_int(workers) or workers <= 0 or not (prefetch is None or (is_int(prefetch) and prefetch > 0)):
            return None  # no workers (batches stay in the main process), or not a number
        batches = 1 if pinned else inflight.peak_batches(workers, prefetch)
        plans.append((batches * batch_bytes, batches, workers, prefetch, pinned))
    figure, batches, workers, prefetch, pinned = min(plans, key=lambda plan: plan[0])
    if figure <= definition.shm:
        return None
    return ShmExcess(figure, batches, workers, prefetch, batch_bytes, estimated, pinned, definition)


class Certainty(Record):
    """Whether workers certainly start with spawn or forkserver (DL202, DL203), and what says so.
    ``spawn``: the call's ``multiprocessing_context``, or ``set_start_method``/``get_context``
    in the loader's module or a module it imports; ``target``: else the project's Pythons or
    platforms (``pythons.StartMethodTarget``); ``why``: the phrase for the message (for an
    importer's evidence too, which keeps the warning: it is one entry point of possibly
    several); ``related``: the lines cited."""

    __slots__ = ("spawn", "target", "why", "related", "source", "where")

    def __init__(
        self, spawn: bool, target: Any, why: str, related: Tuple[Related, ...], source: str = "", where: str = ""
    ) -> None:
        self.spawn = spawn
        self.target = target
        self.why = why
        self.related = related
        self.source = source  # "call", "program", "target", "importer" or "" (nothing)
        self.where = where  # the call's context names, or "line 12" / "main.py:12"


_SPAWN = ("spawn", "forkserver")


def certainty(call: LoaderCall, ctx: "RuleContext", contexts: Sequence[Any]) -> Certainty:
    """How sure it is that ``call``'s workers start with spawn or forkserver, given the
    ``multiprocessing_context`` values its scenarios pass (``contexts``)."""
    import os

    here = os.path.abspath(call.path)
    if contexts and all(c in _SPAWN for c in contexts):
        names = " or ".join(sorted(set(contexts)))
        related: Tuple[Related, ...] = ()
        bound = call.args.get("multiprocessing_context")
        origin = None
        if bound is not None and bound.value.options and len(bound.value.options) == 1:
            origin = bound.value.options[0].origin
        if origin is not None and origin.path and origin.line:
            related = (Related(os.path.abspath(origin.path), origin.line, 1, f"multiprocessing_context={names}"),)
        elif bound is not None:
            related = (Related(here, bound.location.row, bound.location.column, f"multiprocessing_context={names}"),)
        return Certainty(True, None, f"with multiprocessing_context={names} its workers start that way", related, "call", names)
    if not all(c is None for c in contexts):
        return Certainty(False, None, "", ())  # the call names fork (or something unknown)
    evidence = ctx.evidence("spawn")
    caller = call.extra.get("caller")
    if caller and (evidence is None or evidence.scope == "importer"):
        # judged at a call in ``caller``'s program: its own request is the importer evidence
        # (whichever importer a search of the import graph meets first), and another importer
        # of the factory's module (a test's conftest importing the library) says nothing about
        # how this program starts
        from dl_lint.analysis.signals import Evidence

        line = call.extra.get("caller_spawn")
        evidence = Evidence("importer", caller, line) if line is not None and caller != here else None
    by_caller = bool(caller) and evidence is not None and evidence.path == caller
    cited: Tuple[Related, ...] = ()
    where = ""
    if evidence is not None:
        same = os.path.abspath(evidence.path) == here
        # no path in the text (it is a related location): "line 12", or which module it is in
        where = f"line {evidence.line}" if same else ("an imported module" if evidence.scope == "import" else "a module importing this one")
        if same and ctx.is_notebook:
            where = "this notebook"  # rows restart in every cell: the line would mislead
        else:
            note = "the start method is set to spawn/forkserver here"
            if evidence.scope == "importer" and not by_caller:
                note = "a module importing this one sets spawn/forkserver here (one entry point)"
            cited = (Related(os.path.abspath(evidence.path), evidence.line, 1, note),)
        if evidence.scope in ("module", "import"):
            return Certainty(True, None, f"this program starts workers with spawn/forkserver ({where})", cited, "program", where)
    target = ctx.start_method_target()
    if target is not None:
        related = cited
        if target.path is not None and target.line is not None:
            related = (Related(os.path.abspath(target.path), target.line, 1, f"{target.why}: no fork"),) + cited
        return Certainty(False, target, "", related, "target")
    if evidence is None:
        return Certainty(False, None, "", ())
    why = "a module importing this one (one entry point, maybe not the only one) asks for spawn/forkserver"
    if by_caller:  # the finding is reported in that module, at its call of the factory
        why = f"the calling module asks for spawn/forkserver (line {evidence.line})"
    return Certainty(False, None, why, cited, "importer", where)


# -- fixes --------------------------------------------------------------------------------------


def remove_arg(call: LoaderCall, name: str, message: str, applicability: str = "safe") -> Optional[Fix]:
    """Delete an argument written at the call (commas are tidied when the fix is finalized)."""
    bound = call.args.get(name)
    if bound is None or not bound.text:
        return None
    return Fix(applicability, message, (Edit("", bound.location, bound.end_location),))


def remove_worker_option(call: LoaderCall, name: str, message: str) -> Optional[Fix]:
    """Delete a workers-only option (prefetch_factor, persistent_workers, timeout,
    worker_init_fn, multiprocessing_context, in_order) from a call without workers. Unsafe, as
    in ruff's definition (a safe fix keeps the user's intent): the value was written for
    workers, and deleting it loses it the day num_workers is raised again (a developer who set
    ``num_workers=0`` to debug gets the tuned ``prefetch_factor=4`` back only from history)."""
    return remove_arg(call, name, message, applicability="unsafe")


def guard_worker_option(call: LoaderCall, name: str, form: str, message: str) -> Optional[Fix]:
    """Rewrite a workers-only option to a form guarded on the ``num_workers`` written at the
    call (``form`` takes ``{value}`` and ``{workers}``; ``message`` may name the new value as
    ``{new}`` and the whole argument as ``{option}``): safe, since nothing the user wrote is
    lost and the call does the same with workers. None when either is not a one-line text."""
    workers = workers_text(call)
    bound = call.args.get(name)
    if workers is None or bound is None or not bound.text or "\n" in bound.text:
        return None
    new = form.format(value=operand(bound.text), workers=operand(workers))
    return replace_value(call, name, new, message.format(new=new, option=f"{name}={new}"))


# Expressions that stay one operand inside ``x if w > 0 else None`` without parentheses.
_ATOMS = ("Name", "Attribute", "Constant", "Call", "Subscript", "List", "Dict", "Set", "JoinedStr")


def operand(text: str) -> str:
    """``text`` as an operand of a conditional expression: a conditional, lambda, named
    expression, comparison or other operator expression is parenthesised (``0 if [] else 0``
    written into ``... if 0 if [] else 0 > 0 else None`` did not parse; a lambda would swallow
    the guard)."""
    import ast

    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return f"({text})"
    return text if type(node).__name__ in _ATOMS else f"({text})"


def replace_value(call: LoaderCall, name: str, new: str, message: str, applicability: str = "safe") -> Optional[Fix]:
    """Replace an argument's value (keeping ``name=`` for keyword arguments)."""
    bound = call.args.get(name)
    if bound is None or not bound.text:
        return None
    content = f"{name}={new}" if bound.keyword else new
    return Fix(applicability, message, (Edit(content, bound.location, bound.end_location),))


def workers_text(call: LoaderCall) -> Optional[str]:
    """num_workers as written at the call, to build guarded forms (``x if <it> > 0 else None``)."""
    bound = call.args.get("num_workers")
    if bound is None or not bound.text or "\n" in bound.text:
        return None
    return bound.text


def workers_written_zero(call: LoaderCall) -> bool:
    """num_workers not given (and no splat could carry it), or written as a literal 0."""
    bound = call.args.get("num_workers")
    if bound is None:
        return "num_workers" not in call.opaque
    return bound.text.strip() == "0"
