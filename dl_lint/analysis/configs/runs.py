"""Runs: one copy of a loader call per config file that runs it, shared by the config sources.

A value read from config files that the command line picks among (yacs YAML runs, detectron2's
configs, the YAML/JSON files a script loads itself: ``configs.keypaths``) is not one value but one
per run. Its origin is a ``RunOrigin``: every place that sets the value, each with the runs (config
file paths, ``DEFAULTS_RUN`` for the defaults alone) that take it from there. ``variants`` makes
the copies of a call the crash rules judge, one per run, so a value that crashes in one run is
reported at the line of that run's file, while a safe value in another run stays silent.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from dl_lint.analysis.values import Origin, Possible, Value

__all__ = ["RunOrigin", "runs_value", "variants", "DEFAULTS_RUN"]

DEFAULTS_RUN = ""  # the run without a config file (yacs: the defaults alone)

Place = Tuple[str, str, int, FrozenSet[str]]  # (what, path, line, runs)


class RunOrigin(Origin):
    """Where a value was set (the first place), and every place that sets this value with
    the runs (config paths, ``DEFAULTS_RUN``) that take it from there: ``places`` is a tuple of
    (what, path, line, runs)."""

    __slots__ = ("places",)

    def __init__(self, what: str, path: str, line: int, places: Tuple[Place, ...]) -> None:
        super().__init__(what, path, line)
        self.places = places

    @property
    def runs(self) -> FrozenSet[str]:
        return frozenset().union(*(p[3] for p in self.places))

    def at(self, run: str) -> "RunOrigin":
        """The origin in one run: the place that run takes the value from."""
        for place in self.places:
            if run in place[3]:
                return RunOrigin(place[0], place[1], place[2], (place,))
        raise KeyError(run)

    def describe(self) -> str:
        return self.what

    def sites(self):
        """Every place that sets this value (several config files may)."""
        return tuple((place[1], place[2]) for place in self.places if place[1] and place[2])


def runs_value(dotted: str, places: Dict[Tuple[Any, str, int], Any], suffix: str = "", source: str = "config") -> Value:
    """The Value of a key over runs: ``places`` maps (value, path, line) to the runs taking that
    value from that line. One possibility per value (places grouped): a value written in many
    files stays one option, whose origin lists every file."""
    grouped: Dict[Tuple[type, Any], Tuple[Any, List[Place]]] = {}
    from dl_lint.analysis.values import ABSENT

    for (value, where, row), runs in places.items():
        entry = grouped.setdefault((type(value), _hashable(value)), (value, []))
        what = f"{dotted} not set{suffix}" if value is ABSENT else f"{dotted}{suffix}"  # a spread mapping without it
        entry[1].append((what, where, row, frozenset(runs)))
    options = []
    for value, found in grouped.values():
        what = found[0][0] if len(found) == 1 else f"{dotted} in {len(found)} config files{suffix}"
        options.append(Possible(value, RunOrigin(what, found[0][1], found[0][2], tuple(found))))
    return Value(tuple(options), source)


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def variants(call) -> Optional[List[list]]:
    """The copies of ``call`` to judge, one per distinct run of the config values its arguments
    read, in groups of copies with equal values (None when it reads none, or one value each): each
    copy's run arguments hold that run's value, from the place that run takes it from. A run some
    argument has no value in (a run the source rejects, or one this value is unknown in) is not
    judged."""
    run_args = {}
    runs: set = set()
    for name, arg in call.args.items():
        options = arg.value.options
        if not options or not all(isinstance(p.origin, RunOrigin) for p in options):
            continue
        run_args[name] = arg
        for option in options:
            runs |= option.origin.runs
    if not run_args or all(len(a.value.options) == 1 and len(a.value.options[0].origin.places) == 1 for a in run_args.values()):
        return None
    groups: Dict[tuple, Dict[tuple, Any]] = {}
    for run in sorted(runs):
        chosen = {}
        for name, arg in run_args.items():
            picked = [p for p in arg.value.options if run in p.origin.runs]
            if len(picked) != 1:
                break  # a run rejected, or one this value is unknown in: not judged
            chosen[name] = Possible(picked[0].value, picked[0].origin.at(run), picked[0].guards)
        else:
            values = tuple(sorted((n, id(arg.value.options), repr(p.value)) for n, p in chosen.items()))
            places = tuple(sorted((n, p.origin.path, p.origin.line) for n, p in chosen.items()))
            group = groups.setdefault(values, {})
            if places in group:
                continue
            args = dict(call.args)
            for name, option in chosen.items():
                arg = args[name]
                args[name] = arg.replace(value=Value((option,), "config", arg.value.aliases))
            group[places] = call.replace(args=args)
    return [list(group.values()) for group in groups.values()]
