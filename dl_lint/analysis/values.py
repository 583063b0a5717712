"""The abstract value of an argument: known, one of a finite set, or unknown.

Each possibility carries where it came from (for messages such as "num_workers=0 (default of
--workers, train.py:12)") and the guards under which it holds (``2 if num_workers > 0 else
None`` is 2 *when num_workers > 0* and None otherwise). Rules never see syntax: they ask for the
consistent scenarios of the arguments they care about, and an error rule fires only when every
scenario crashes. Anything not proven stays unknown, and unknown means silence.
"""

from __future__ import annotations

import ast
import itertools
import operator
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from dl_lint.record import Record

__all__ = [
    "ABSENT",
    "Origin",
    "Guard",
    "Possible",
    "Value",
    "Instance",
    "FunctionRef",
    "Ref",
    "External",
    "ModuleRef",
    "DictValue",
    "scenarios",
]


# Value sources that make a value configurable: whatever its default, it may be 0 at run time.
CONFIGURABLE = frozenset({"parameter", "argparse", "config", "environment"})


class _Absent:
    """The argument is not passed at all (torch's default applies)."""

    _instance: Optional["_Absent"] = None

    def __new__(cls) -> "_Absent":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


class Origin(Record):
    """Where a possible value was written: ``what`` is read by humans ("literal", "default of
    --workers", "WORKERS in settings.py"); path and line point at the place."""

    __slots__ = ("what", "path", "line")

    def __init__(self, what: str, path: Optional[str] = None, line: Optional[int] = None) -> None:
        self.what = what
        self.path = path
        self.line = line

    def describe(self) -> str:
        """What set the value, in words ("default of --workers"): never its path, which the
        messages cite as a related location (``sites``), printed as reporters print paths."""
        return self.what

    def sites(self) -> Tuple[Tuple[Optional[str], int], ...]:
        """(path, line) of each place that sets the value (path None: the file being judged)."""
        return ((self.path, self.line),) if self.line else ()

    def located(self, relative_to: Optional[str] = None) -> str:
        """``what, path:line`` for a report that is not cached (``dl-lint estimate``): the path
        relative to ``relative_to`` (default: the working directory)."""
        import os

        if not self.line:
            return self.what
        where = f"line {self.line}"
        if self.path:
            where = f"{os.path.relpath(self.path, relative_to) if os.path.isabs(self.path) else self.path}:{self.line}"
        return f"{self.what}, {where}" if self.what else where


_COMPARE: Dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    "is": operator.is_,
    "is not": operator.is_not,
}
_NEGATED_OP = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "==", "is": "is not", "is not": "is"}


class Guard(Record):
    """A condition on another expression under which a possibility holds.

    ``subject`` is the normalized source text of the tested expression (``"args.workers"``);
    ``op`` is a comparison operator with ``rhs`` a constant, or ``"truthy"`` (rhs unused).
    A guard whose subject is not one of the loader's arguments is opaque: both outcomes are
    possible.
    """

    __slots__ = ("subject", "op", "rhs", "negated", "aliases")
    _uncompared = frozenset({"aliases"})

    def __init__(
        self,
        subject: str,
        op: str,
        rhs: Any = None,
        negated: bool = False,
        # Other source texts denoting the same subject (``nw`` for ``args.workers`` after
        # ``nw = args.workers``), so a guard matches however the argument was spelled.
        aliases: Tuple[str, ...] = (),
    ) -> None:
        self.subject = subject
        self.op = op
        self.rhs = rhs
        self.negated = negated
        self.aliases = aliases

    def negate(self) -> "Guard":
        if self.op in _NEGATED_OP:
            return Guard(self.subject, _NEGATED_OP[self.op], self.rhs, False, self.aliases)
        return Guard(self.subject, self.op, self.rhs, not self.negated, self.aliases)

    def holds(self, subject_value: Any) -> Optional[bool]:
        """Whether the guard holds when the subject has this value; None when undecidable."""
        try:
            if self.op == "truthy":
                result = bool(subject_value)
            else:
                if subject_value is None and self.op in (">", ">=", "<", "<="):
                    return None
                result = bool(_COMPARE[self.op](subject_value, self.rhs))
        except Exception:  # noqa: BLE001 - comparing unrelated constants is simply undecidable
            return None
        return (not result) if self.negated else result

    def describe(self) -> str:
        if self.op == "truthy":
            return f"not {self.subject}" if self.negated else self.subject
        return f"{self.subject} {self.op} {self.rhs!r}"


# Sources of an unknown count known to be at least 1: the machine's core count
# (``os.cpu_count()``), and a ``min``/``max`` of it that stays positive (``Resolver``); the rules
# that ask only whether there are workers read them (``rules.base.call_scenarios``).
POSITIVE_SOURCES = frozenset({"cpu-count", "positive"})
# An unknown machine-dependent integer with a known lower bound (``os.cpu_count() - 4`` is at
# least -3): the source "bound:N" (``resolve._bounded``).
BOUND = "bound:"


def source_lower_bound(source: Optional[str]) -> Optional[int]:
    """The least integer an unknown value of this source can be: 1 for the core count or a
    positive count, N for "bound:N"; None when it has none."""
    if source in POSITIVE_SOURCES:
        return 1
    if source and source.startswith(BOUND):
        return int(source[len(BOUND):])
    return None


class Instance(Record):
    """An instance of a class defined in the project: ``module`` is the dotted module name (or
    file path when the module name is unknown), ``name`` the class name."""

    __slots__ = ("module", "name", "line", "path", "local", "holds", "given", "views", "shape", "rngs")
    _uncompared = frozenset({"shape"})

    def __init__(
        self,
        module: str,
        name: str,
        line: int = 0,
        path: str = "",  # the defining file: module names can be ambiguous in a project
        local: bool = False,  # the class is defined inside a function (cannot be pickled)
        # DL202: (what, path, line) of a lambda or local function this construction hands the
        # object, which keeps it (``MyDataset(transform=lambda x: x)`` with ``self.transform =
        # transform``): it cannot be pickled with the object.
        holds: Optional[Tuple[str, str, int]] = None,
        # DL101: what this construction hands the parameters its ``__init__`` keeps on self, when
        # that fixes a sample's size: (parameter, an int or ("image", height, width, dtype) of a
        # fixed-size image transform).
        given: Tuple[Tuple[str, Any], ...] = (),
        # DL101: a multi-view transform of the project (``summary.view_fields``) built with
        # fixed-size image transforms: the (height, width, dtype) of each view it returns.
        views: Optional[Tuple[Tuple[Any, ...], ...]] = None,
        # DL202: which arguments the construction gives (``call_shape``), for what ``__init__``
        # keeps on the path a literal argument decides (``ClassFacts.held_none``). Not compared: two
        # constructions of a class are the same value whatever their arguments' spelling.
        shape: Optional["CallShape"] = None,
        # DL204: the attributes this construction fills with a random generator it builds and
        # hands to a parameter ``__init__`` keeps (``Dataset(rng=np.random.RandomState(seed))``
        # with ``self.rng = rng``): every worker gets a copy of its state.
        rngs: Tuple[str, ...] = (),
    ) -> None:
        self.rngs = rngs
        self.shape = shape
        self.views = views
        self.given = given
        self.module = module
        self.name = name
        self.line = line
        self.path = path
        self.local = local
        self.holds = holds


# (for each positional argument its mark; (keyword, mark) for each keyword; whether ``*args`` or
# ``**kwargs`` may give more). A mark says what a literal argument is: "none" (the literal None),
# "true" or "false" (another literal, by its truth: ``augment=False``, ``0``, ``"train"``), or ""
# (not a literal).
CallShape = Tuple[Tuple[str, ...], Tuple[Tuple[str, str], ...], bool]


def literal_mark(value: Optional[ast.AST]) -> str:
    """``CallShape``'s mark of an argument or a parameter's default."""
    if not isinstance(value, ast.Constant) or value.value is Ellipsis:
        return ""
    if value.value is None:
        return "none"
    return "true" if value.value else "false"


def call_shape(node: ast.Call) -> CallShape:
    """The arguments a call gives (``Instance.shape``)."""
    starred = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
    return tuple(literal_mark(a) for a in node.args), tuple((k.arg, literal_mark(k.value)) for k in node.keywords if k.arg is not None), starred


def given_mark(shape: Optional[CallShape], param: str, position: int) -> Optional[str]:
    """The mark of the argument a construction of ``shape`` certainly gives the parameter
    ``param`` (at ``position`` after self, -1 for keyword-only); None when it certainly leaves it
    out; "" when that cannot be told (``*args``/``**kwargs``, no shape)."""
    if shape is None or shape[2]:
        return ""
    positional, keywords, _ = shape
    for name, mark in keywords:
        if name == param:
            return mark
    if 0 <= position < len(positional):
        return positional[position]
    return None


def takes_path(shape: Optional[CallShape], param: str, position: int, test: str, default: str = "none") -> bool:
    """Whether a construction of ``shape`` certainly takes the path of ``__init__`` that a test
    of the parameter selects: ``test`` "none" (``if p is None:``), "falsy" (``if not p:``, the
    ``else`` of ``if p:``) or "truthy"; ``default``: the mark of the parameter's default, which
    holds when the construction leaves it out."""
    mark = given_mark(shape, param, position)
    if mark is None:
        mark = default
    if test == "none":
        return mark == "none"
    if test == "falsy":
        return mark in ("none", "false")
    return test == "truthy" and mark == "true"


def left_none(shape: Optional[CallShape], param: str, position: int) -> bool:
    """Whether a construction of ``shape`` certainly leaves the parameter ``param`` (at
    ``position`` after self, -1 for keyword-only) None, its default: not given, or given the
    literal None."""
    return takes_path(shape, param, position, "none")


def left_out(shape: Optional[CallShape], param: str, position: int) -> bool:
    """Whether a construction of ``shape`` certainly does not give the parameter ``param`` (at
    ``position`` after self, -1 for keyword-only): it then holds its default."""
    return given_mark(shape, param, position) is None


class FunctionRef(Record):
    """A callable passed as an argument. ``kind`` is "function" (module level), "nested",
    "lambda", "method", "class" (a class object), "local-class" or "partial"."""

    __slots__ = ("kind", "module", "name", "line", "path")

    def __init__(self, kind: str, module: str = "", name: str = "", line: int = 0, path: str = "") -> None:
        self.kind = kind
        self.module = module
        self.name = name
        self.line = line
        self.path = path


class Ref(Record):
    """A name imported from another module that the project index could not (yet) resolve."""

    __slots__ = ("module", "name", "attr_path")

    def __init__(self, module: str, name: str, attr_path: Tuple[str, ...] = ()) -> None:
        self.module = module
        self.name = name
        self.attr_path = attr_path


class External(Record):
    """Something defined outside the project, known by its qualified name
    (``torch.utils.data.DataLoader``)."""

    __slots__ = ("qualname",)

    def __init__(self, qualname: str) -> None:
        self.qualname = qualname


class Opaque(Record):
    """An object that certainly exists (an instance of a library class such as
    ``DistributedSampler(ds)``) but whose value is not known: it is not None, and that is all.
    For a dataset class of the library table (``dl_lint.analysis.libraries``), ``shards`` says
    whether this construction shards by worker (None: unknown, or not such a class). ``image``:
    the (height, width) a torchvision ``Compose`` ending in ``ToTensor`` makes of an image;
    ``sample``: (bytes, description) of one sample of a torchvision image dataset built with
    such a transform (DL101's batch bytes); ``holds``: a lambda or local function it keeps
    (``transforms.Lambda(lambda x: x)``); ``on_cpu``: see below; ``wraps``: the datasets a torch
    wrapper keeps (``Subset(ds, indices)``, ``ConcatDataset([a, b])``), as far as they are known
    (DL202: pickling the wrapper pickles them)."""

    __slots__ = ("qualname", "shards", "image", "sample", "holds", "on_cpu", "wraps")

    def __init__(
        self,
        qualname: str,
        shards: Optional[bool] = None,
        image: Optional[Tuple[int, int]] = None,
        sample: Optional[Tuple[int, str]] = None,
        holds: Optional[Tuple[str, str, int]] = None,  # DL202: as ``Instance.holds`` (a transform holding a lambda)
        on_cpu: bool = False,  # DL306: a TensorDataset of tensors certainly made on the CPU
        wraps: Tuple[Any, ...] = (),
    ) -> None:
        self.qualname = qualname
        self.shards = shards
        self.image = image
        self.sample = sample
        self.holds = holds
        self.on_cpu = on_cpu
        self.wraps = wraps


class ModuleRef(Record):
    """A name bound to a module of the project (``from . import settings``)."""

    __slots__ = ("module",)

    def __init__(self, module: str) -> None:
        self.module = module


class DictValue(Record):
    """A dict built from literals, ``dict(...)``, ``.update`` and item assignments: each key's
    Value may include ABSENT (the key is only set under some condition). ``complete`` is False
    when something we cannot see may add keys (then it must not be trusted for absent keys)."""

    __slots__ = ("entries", "complete")

    def __init__(self, entries: Tuple[Tuple[str, "Value"], ...], complete: bool = True) -> None:
        self.entries = entries
        self.complete = complete

    def get(self, key: str) -> Optional["Value"]:
        for k, v in self.entries:
            if k == key:
                return v
        return None


class Possible(Record):
    __slots__ = ("value", "origin", "guards")

    def __init__(self, value: Any, origin: Optional[Origin] = None, guards: Tuple[Guard, ...] = ()) -> None:
        self.value = value
        self.origin = origin
        self.guards = guards

    def with_guard(self, guard: Guard) -> "Possible":
        return Possible(self.value, self.origin, self.guards + (guard,))


class Value(Record):
    """``options`` None means unknown; ``source`` says why for unknowns ("parameter",
    "argparse", "config", "environment", "splat", "expression"), which DL011 uses to tell a
    configurable value from an arbitrary one. ``aliases`` are the source texts known to denote
    this value, so guards written against any of them can be matched."""

    __slots__ = ("options", "source", "aliases")
    _uncompared = frozenset({"aliases"})

    def __init__(
        self, options: Optional[Tuple[Possible, ...]], source: Optional[str] = None, aliases: Tuple[str, ...] = ()
    ) -> None:
        self.options = options
        self.source = source
        self.aliases = aliases

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def known(cls, value: Any, origin: Optional[Origin] = None) -> "Value":
        return cls((Possible(value, origin),))

    @classmethod
    def unknown(cls, source: Optional[str] = None) -> "Value":
        return cls(None, source)

    @classmethod
    def one_of(cls, options: Sequence[Possible]) -> "Value":
        return cls(tuple(options)) if options else cls.unknown()

    def with_aliases(self, *aliases: str) -> "Value":
        extra = tuple(a for a in aliases if a and a not in self.aliases)
        return Value(self.options, self.source, self.aliases + extra)

    # -- queries ------------------------------------------------------------------------------
    @property
    def is_unknown(self) -> bool:
        return self.options is None

    @property
    def values(self) -> Tuple[Any, ...]:
        return tuple(p.value for p in self.options or ())

    @property
    def single(self) -> Optional[Possible]:
        """The only possibility, when there is exactly one and it is unconditional."""
        if self.options is not None and len(self.options) == 1 and not self.options[0].guards:
            return self.options[0]
        return None


Scenario = Dict[str, Possible]


def scenarios(
    values: Mapping[str, Value],
    defaults: Mapping[str, Any] = {},
    extra_subjects: Mapping[str, str] = {},
    holds: Sequence[Guard] = (),
) -> Optional[List[Scenario]]:
    """Every consistent combination of the possibilities of ``values``.

    Returns None when any value is unknown (rules must then stay silent). A combination is
    dropped when one of its guards is decidably false for the value chosen for the guard's
    subject, where a subject matches an argument through that argument's aliases (or through
    ``extra_subjects``: source text -> argument name). ABSENT possibilities are replaced by
    ``defaults`` before guards are evaluated. ``holds``: guards true wherever the values are
    used (the ``if`` tests around a loader call, its early exits): a combination that makes one
    decidably false is dropped too.
    """
    names = list(values)
    if any(values[n].is_unknown for n in names):
        return None
    if not holds and all(len(values[n].options) == 1 and not values[n].options[0].guards for n in names):
        return [{n: values[n].options[0] for n in names}]  # one combination, nothing to test
    subject_to_name: Dict[str, str] = dict(extra_subjects)
    for name in names:
        for alias in values[name].aliases:
            subject_to_name.setdefault(alias, name)

    def concrete(name: str, p: Possible) -> Any:
        if p.value is ABSENT:
            return defaults.get(name)
        return p.value

    result: List[Scenario] = []
    for combo in itertools.product(*(values[n].options or () for n in names)):
        chosen = dict(zip(names, combo))
        if (
            _consistent(chosen, subject_to_name, concrete)
            and _holding(holds, chosen, subject_to_name, concrete)
            and not _contradicted(chosen, holds)
        ):
            result.append(chosen)
    return result


def _contradicted(chosen: Scenario, holds: Sequence[Guard]) -> bool:
    """Whether a value in ``chosen`` was bound under a test that a test holding at the use
    negates (``if use_wds: ds = pipeline`` … ``else: ds = folder``, then ``if use_wds:
    WebLoader(ds)``: the folder's value never reaches the loader), matched by the tested text
    or an alias of it, whatever it tests."""
    if not holds:
        return False
    for possible in chosen.values():
        for guard in possible.guards:
            names = {guard.subject, *guard.aliases} - {""}
            for held in holds:
                if (
                    held.op == guard.op
                    and held.rhs == guard.rhs
                    and held.negated != guard.negated
                    and names & {held.subject, *held.aliases}
                ):
                    return True
    return False


def _consistent(
    chosen: Scenario, subject_to_name: Mapping[str, str], concrete: Callable[[str, Possible], Any]
) -> bool:
    for name, possible in chosen.items():
        for guard in possible.guards:
            target = subject_to_name.get(guard.subject)
            for alias in guard.aliases:
                if target is not None:
                    break
                target = subject_to_name.get(alias)
            if target is None or target not in chosen:
                continue  # opaque guard: either outcome is possible
            if guard.holds(concrete(target, chosen[target])) is False:
                return False
    return True


def guard_target(guard: Guard, subject_to_name: Mapping[str, str]) -> Optional[str]:
    """The argument a guard tests, through its subject or one of its aliases (None: opaque)."""
    target = subject_to_name.get(guard.subject)
    for alias in guard.aliases:
        if target is not None:
            break
        target = subject_to_name.get(alias)
    return target


def _holding(
    holds: Sequence[Guard], chosen: Scenario, subject_to_name: Mapping[str, str], concrete: Callable[[str, Possible], Any]
) -> bool:
    for guard in holds:
        target = guard_target(guard, subject_to_name)
        if target is not None and target in chosen and guard.holds(concrete(target, chosen[target])) is False:
            return False
    return True


def iter_concrete(scenario: Scenario, defaults: Mapping[str, Any]) -> Iterator[Tuple[str, Any]]:
    for name, possible in scenario.items():
        yield name, defaults.get(name) if possible.value is ABSENT else possible.value
