"""``dl-lint estimate`` and ``dl-lint measure``: the memory model on the command line.

The arithmetic lives in :mod:`dl_lint.estimate` (shared with rule DL101); this module turns
options or source files into :class:`~dl_lint.estimate.LoaderPlan` objects and prints them.
Importing it is cheap: the analysis and torch are imported only inside the commands that need them.
"""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import click

from dl_lint import printable

from dl_lint.config import format_size, parse_size
from dl_lint.estimate import (
    DTYPE_ITEMSIZE,
    GRID_PREFETCH,
    LoaderPlan,
    SampleField,
    batch_tensor_bytes,
    docker_shm_size,
    grid,
    parse_sample,
    recommend,
)

EXIT_ERROR = 2
DOCKER_DEFAULT_SHM = 64 * 1024**2
WRAP = 100  # columns for notes and recommendation steps


class _OneLineError(click.ClickException):
    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"dl-lint: error: {self.format_message()}", err=True)


class _OneLineCommand(click.Command):
    """Bad options print one line (``dl-lint: error: ...``) and exit 2, with no usage block."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _OneLineError(f"{ctx.command_path}: {exc.format_message()}") from None


def _fail(message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
    raise _OneLineError(message)


class _Size(click.ParamType):
    name = "SIZE"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_size(value)
        except ValueError as exc:
            self.fail(f"{exc}; expected a size such as 64MiB, 8GiB, 100MB or a number of bytes", param, ctx)


SIZE = _Size()


# ------------------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class ShmInfo:
    available: Optional[int]  # bytes free for new batches; None = unknown
    total: Optional[int]
    source: str  # "--shm", "statvfs /dev/shm" or why it is unknown


def detect_shm(option: Optional[int]) -> ShmInfo:
    if option is not None:
        return ShmInfo(option, option, "--shm")
    from dl_lint.measure import SHM_PATH, shm_stats

    stats = shm_stats()
    if stats is None:
        return ShmInfo(None, None, f"unknown ({SHM_PATH} not found; give --shm)")
    total, available, _used = stats
    return ShmInfo(available, total, f"statvfs {SHM_PATH}")


@dataclass(frozen=True)
class BatchSpec:
    tensor_bytes: Tuple[int, ...]
    source: str  # human text: where the size came from
    batch_size: Optional[int] = None
    samples: Tuple[SampleField, ...] = ()

    @property
    def batch_bytes(self) -> int:
        return sum(self.tensor_bytes)

    def as_dict(self) -> Dict[str, Any]:
        return {
            "batch_bytes": self.batch_bytes,
            "tensor_bytes": list(self.tensor_bytes),
            "batch_bytes_source": self.source,
            "batch_size": self.batch_size,
            "samples": [str(s) for s in self.samples],
        }


def _parse_samples(specs: Sequence[str]) -> Tuple[SampleField, ...]:
    try:
        return tuple(parse_sample(s) for s in specs)
    except ValueError as exc:
        _fail(f"--sample: {exc}")


def batch_from_options(
    batch_bytes: Optional[int], batch_size: Optional[int], samples: Tuple[SampleField, ...]
) -> Optional[BatchSpec]:
    """The batch the options describe; None when they describe none."""
    if batch_bytes is not None and (batch_size is not None or samples):
        _fail("give either --batch-bytes or --batch-size with --sample, not both")
    if batch_bytes is not None:
        if batch_bytes <= 0:
            _fail("--batch-bytes: size must be positive")
        return BatchSpec((batch_bytes,), "--batch-bytes")
    if batch_size is not None and not samples:
        _fail('--batch-size needs --sample SHAPE:DTYPE (e.g. --sample 3x224x224:float32 --sample ":int64")')
    if samples and batch_size is not None:
        sizes = batch_tensor_bytes(batch_size, samples)
        return BatchSpec(sizes, f"--batch-size {batch_size} × --sample", batch_size, samples)
    return None


# ----------------------------------------------------------------------------- reports


def plan_report(
    plan: LoaderPlan, batch: BatchSpec, budget: Optional[int], shm: ShmInfo, persistent_workers: bool
) -> Dict[str, Any]:
    """Everything ``estimate`` prints for one plan, as JSON-ready data."""
    cells = grid(plan, budget, shm.available)
    rec = recommend(plan, budget, shm.available)
    fits_budget = None if budget is None else plan.total_bytes() <= budget
    fits_shm = None if shm.available is None else plan.shm_bytes() <= shm.available
    return {
        "inputs": {
            **batch.as_dict(),
            "num_workers": plan.num_workers,
            "prefetch_factor": plan.prefetch_factor,
            "effective_prefetch_factor": plan.effective_prefetch_factor,
            "pin_memory": plan.pin_memory,
            "persistent_workers": persistent_workers,
            "budget": budget,
            "shm_available": shm.available,
            "shm_total": shm.total,
            "shm_source": shm.source,
        },
        "breakdown": {
            **plan.breakdown(),
            "pinned_batch_bytes": plan.pinned_batch_bytes() if plan.pin_memory else 0,
            "fits_budget": fits_budget,
            "fits_shm": fits_shm,
        },
        "grid": [
            {
                "num_workers": c.num_workers,
                "prefetch_factor": c.prefetch_factor,
                "total_bytes": c.total_bytes,
                "shm_bytes": c.shm_bytes,
                "fits_budget": c.fits_budget,
                "fits_shm": c.fits_shm,
            }
            for c in cells
        ],
        "recommendation": rec.as_dict(),
        "notes": notes_for(plan, budget, shm, persistent_workers),
    }


def notes_for(plan: LoaderPlan, budget: Optional[int], shm: ShmInfo, persistent_workers: bool) -> List[str]:
    notes = []
    if shm.available is not None and plan.shm_bytes() > shm.available:
        notes.append(
            f"/dev/shm is too small: {format_size(plan.shm_bytes())} needed, {format_size(shm.available)} "
            'available. Workers then die with "DataLoader worker (pid N) is killed by signal: Bus error" '
            'or "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient '
            "shared memory (shm)\". Docker's default /dev/shm is 64 MiB: run the container with "
            f"--shm-size={docker_shm_size(plan.shm_bytes())} (or --ipc=host), or lower the in-flight batches."
        )
    elif shm.available is not None and plan.num_workers > 0 and plan.shm_bytes() > DOCKER_DEFAULT_SHM:
        notes.append(
            f"needs {format_size(plan.shm_bytes())} of /dev/shm: more than Docker's default 64 MiB, so in a "
            f"container run it with --shm-size={docker_shm_size(plan.shm_bytes())} (or --ipc=host)"
        )
    if plan.pin_memory and plan.num_workers > 0:
        notes.append(
            "pin_memory: the pin thread copies each prefetched batch into pinned host memory; torch's caching "
            f"host allocator rounds every tensor up to a power of two ({format_size(plan.pinned_batch_bytes())} "
            f"a batch for {format_size(plan.batch_bytes)}). Pinned memory is host memory: it never reduces "
            "CPU memory, and it only exists on a machine with an accelerator"
        )
    if persistent_workers and plan.num_workers > 0:
        notes.append(
            f"persistent_workers: the {plan.num_workers} worker processes and their copies of the dataset stay "
            "resident between epochs (not counted above)"
        )
    notes.append(
        "an order-of-magnitude model of the batches only: decode buffers, augmentation temporaries, "
        "collate_fn peaks and each worker's copy of the dataset come on top"
    )
    return notes


def _limit(fits: Optional[bool], what: str, limit: Optional[int]) -> str:
    if limit is None:
        return ""
    return f"{what} {format_size(limit)}: {'fits' if fits else 'OVER'}"


def _loader_line(inputs: Dict[str, Any]) -> str:
    prefetch = inputs["prefetch_factor"]
    if inputs["num_workers"] > 0 and prefetch is None:
        prefetch_text = "prefetch_factor=None (torch uses 2)"
    else:
        prefetch_text = f"prefetch_factor={prefetch}"
    return (
        f"num_workers={inputs['num_workers']}, {prefetch_text}, pin_memory={inputs['pin_memory']}, "
        f"persistent_workers={inputs['persistent_workers']}"
    )


def render_plan(report: Dict[str, Any], with_grid: bool = True) -> List[str]:
    i, b, rec = report["inputs"], report["breakdown"], report["recommendation"]
    W, P = i["num_workers"], i["effective_prefetch_factor"]
    batch = format_size(i["batch_bytes"])
    tensors = i["tensor_bytes"]
    batch_text = f"{batch} ({i['batch_bytes_source']}"
    if len(tensors) > 1:
        batch_text += "; tensors " + " + ".join(format_size(t) for t in tensors)
    batch_text += ")"
    rows: List[Tuple[str, str, str, str]] = []
    if W > 0:
        rows.append(
            (
                "prefetched",
                f"{b['prefetched_batches']} batches ({W} workers × prefetch_factor {P})",
                format_size(b["prefetched_bytes"]),
                "built ahead, in /dev/shm",
            )
        )
    else:
        rows.append(("prefetched", "none (num_workers=0: loaded in the main process)", "0 B", ""))
    rows.append(("held by the loop", "1 batch", format_size(b["held_bytes"]), ""))
    if i["pin_memory"] and W > 0:
        rows.append(
            (
                "pinned copies",
                f"up to {b['pinned_batches']} × {format_size(b['pinned_batch_bytes'])}",
                format_size(b["pinned_bytes"]),
                "power-of-two blocks, not in /dev/shm",
            )
        )
    else:
        why = "pin_memory=False" if not i["pin_memory"] else "no workers: the loop's batch is pinned in place"
        rows.append(("pinned copies", f"none ({why})", "0 B", ""))
    rows.append(("total", "", format_size(b["total_bytes"]), _limit(b["fits_budget"], "budget", i["budget"])))
    if W > 0:
        shm_what = f"{b['shm_batches']} batches (({W} × {P} + 1) × {batch})"
    else:
        shm_what = "none (no workers)"
    shm_limit = (
        _limit(b["fits_shm"], "available", i["shm_available"])
        if i["shm_available"] is not None
        else f"available: {i['shm_source']}"
    )
    rows.append(("/dev/shm needed", shm_what, format_size(b["shm_bytes"]), shm_limit))

    lines = [f"batch             {batch_text}", f"loader            {_loader_line(i)}", ""]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    for name, what, size, extra in rows:
        lines.append(f"{name.ljust(w0)}  {what.ljust(w1)}  {size.rjust(w2)}  {extra}".rstrip())
    if with_grid:
        lines += ["", *render_grid(report)]
    lines += ["", *render_recommendation(rec)]
    lines.append("")
    for note in report["notes"]:
        lines += textwrap.wrap(note, WRAP, initial_indent="note: ", subsequent_indent="      ")
    return lines


def render_grid(report: Dict[str, Any]) -> List[str]:
    i = report["inputs"]
    marks = []
    if i["budget"] is not None:
        marks.append(f"B = over the {format_size(i['budget'])} budget")
    if i["shm_available"] is not None:
        marks.append(f"S = over the {format_size(i['shm_available'])} of /dev/shm")
    legend = "; ".join(marks) if marks else "no budget or /dev/shm size to check against"
    head = ["num_workers", *(f"prefetch {p}" for p in GRID_PREFETCH)]
    by_cell = {(c["num_workers"], c["prefetch_factor"]): c for c in report["grid"]}
    table = [head]
    for w in sorted({c["num_workers"] for c in report["grid"]}):
        row = [str(w)]
        for p in GRID_PREFETCH:
            cell = by_cell.get((w, None if w == 0 else p))
            if cell is None or (w == 0 and p != GRID_PREFETCH[0]):
                row.append("-")
                continue
            flag = ("B" if cell["fits_budget"] is False else "") + ("S" if cell["fits_shm"] is False else "")
            row.append(
                f"{format_size(cell['total_bytes'])} {(flag or 'ok').ljust(2)}"
                if marks
                else format_size(cell["total_bytes"])
            )
        table.append(row)
    widths = [max(len(r[k]) for r in table) for k in range(len(head))]
    lines = [f"grid: total memory of num_workers × prefetch_factor ({legend}):"]
    for r in table:
        lines.append("  " + "  ".join(cell.rjust(wd) for cell, wd in zip(r, widths)).rstrip())
    return lines


_SITUATIONS = {
    "tight": "memory tight: lower prefetch_factor first, then fewer workers",
    "headroom": "headroom: start small and grow while the GPU waits",
    "fits": "fits, little to spare: do not grow",
    "no-limits": "no limits given",
}


def render_recommendation(rec: Dict[str, Any]) -> List[str]:
    prefetch = rec["prefetch_factor"]
    settings = f"num_workers={rec['num_workers']}"
    if rec["num_workers"] > 0:
        settings += f", prefetch_factor={2 if prefetch is None else prefetch}"
    settings += f", pin_memory={rec['pin_memory']}, persistent_workers={rec['persistent_workers']}"
    lines = [
        f"recommendation ({_SITUATIONS[rec['situation']]}):",
        f"  {settings}: {format_size(rec['total_bytes'])}, {format_size(rec['shm_bytes'])} of /dev/shm",
    ]
    for step in rec["steps"]:
        lines += textwrap.wrap(step, WRAP, initial_indent="  - ", subsequent_indent="    ")
    return lines


# ------------------------------------------------------------------------ source files


@dataclass
class CallEstimate:
    path: str
    line: int
    values: Dict[str, Any] = field(default_factory=dict)
    unknown: Dict[str, str] = field(default_factory=dict)  # name -> why
    origins: Dict[str, str] = field(default_factory=dict)  # name -> where a non-literal value came from
    problem: Optional[str] = None  # torch would reject the call
    batch: Optional[BatchSpec] = None
    report: Optional[Dict[str, Any]] = None
    kind: Optional[str] = None  # annotation, measured, setting, estimated, option; None: unknown
    why: str = ""  # why the batch bytes are unknown
    stale: Optional[str] = None  # a recorded figure that no longer applies
    dataset: Optional[str] = None  # path:line of the dataset class an estimate read
    lower: bool = False  # the batch's bytes are a lower bound (parts of the sample not sized)

    def as_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"path": self.path, "line": self.line, "values": self.values}
        data["batch_bytes"] = self.batch.batch_bytes if self.batch is not None else None
        data["batch_bytes_kind"] = self.kind
        data["batch_bytes_unknown_because"] = self.why or None
        data["batch_bytes_lower_bound"] = self.lower
        data["stale"] = self.stale
        data["dataset_class"] = self.dataset
        data["unknown"] = self.unknown
        data["origins"] = self.origins
        data["problem"] = self.problem
        if self.report is not None:
            data.update(self.report)
        elif self.batch is not None:
            data["inputs"] = self.batch.as_dict()
        return data


def _describe_unknown(call: Any, name: str) -> str:
    value = call.value(name)
    bound = call.args.get(name)
    code = f"`{bound.code}`" if bound is not None else "from **kwargs"
    if value.is_unknown:
        why = f", {value.source}" if value.source else ""
        return f"unknown ({code}{why})"
    shown = ", ".join(
        "torch's default" if _is_absent(p.value) else repr(p.value) for p in value.options or ()
    )
    return f"one of {shown} ({code}, depends on a condition)"


def _is_absent(value: Any) -> bool:
    from dl_lint.analysis.values import ABSENT

    return value is ABSENT


def _resolved(call: Any, name: str) -> Tuple[bool, Any]:
    """(known, value): torch's default for an absent argument."""
    from dl_lint.analysis.loaders import DEFAULTS

    single = call.value(name).single
    if single is None:
        return False, None
    return True, DEFAULTS.get(name) if _is_absent(single.value) else single.value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def estimate_call(
    call: Any,
    path: str,
    option_batch: Optional[BatchSpec],
    ctx: Any,
    samples: Tuple[SampleField, ...],
    budget: Optional[int],
    shm: ShmInfo,
) -> CallEstimate:
    """One loader's estimate; its batch bytes come from ``analysis.batches`` (the rules'
    source), the options filling in only where the call has no comment."""
    from dl_lint.analysis.batches import ANNOTATION, SETTING, batch_figure

    result = CallEstimate(path, call.location.row)
    figure = batch_figure(call, ctx)
    result.stale = figure.stale
    needs_batch_size = figure.source != ANNOTATION and option_batch is None and bool(samples)
    names = ["num_workers", "prefetch_factor", "pin_memory", "persistent_workers"]
    for name in names + (["batch_size"] if needs_batch_size else []):
        known, value = _resolved(call, name)
        if known:
            result.values[name] = value
            single = call.value(name).single
            if single is not None and single.origin is not None and not _is_absent(single.value):
                result.origins[name] = single.origin.located()
        else:
            result.unknown[name] = _describe_unknown(call, name)

    # The batch: the call's comment, then the options, then what the rules use.
    if figure.source == ANNOTATION:
        result.batch, result.kind = BatchSpec((figure.bytes,), "# dl-lint: batch-bytes comment"), ANNOTATION
    elif option_batch is not None:
        result.batch, result.kind = option_batch, "option"
    elif needs_batch_size and "batch_size" in result.values:
        size = result.values["batch_size"]
        size = 1 if size is None else size  # batch_size=None: every item is a batch
        if _is_int(size) and size > 0:
            result.batch = BatchSpec(
                batch_tensor_bytes(size, samples), f"batch_size={size} × --sample", size, samples
            )
            result.kind = "option"
    elif figure.known:
        text = "batch-bytes setting" if figure.source == SETTING else f"{figure.source}: {figure.how}"
        result.batch, result.kind = BatchSpec((figure.bytes,), text), figure.source
        result.lower = figure.lower
    if result.batch is None:
        result.why = figure.how
    if figure.where is not None:  # the dataset class the estimate read
        import os

        shown = os.path.relpath(figure.where[0])
        if shown.startswith(".."):
            shown = os.path.abspath(figure.where[0])
        result.dataset = f"{shown}:{figure.where[1]}"
        if result.batch is not None and result.kind == "estimated":
            result.batch = BatchSpec(result.batch.tensor_bytes, f"{result.batch.source} ({result.dataset})")
        elif result.batch is None:
            result.why += f" ({result.dataset})"

    if "num_workers" in result.unknown or "prefetch_factor" in result.unknown:
        return result  # say what is unknown; no guessing
    workers, prefetch = result.values["num_workers"], result.values["prefetch_factor"]
    if not _is_int(workers) or workers < 0:
        result.problem = f"num_workers={workers!r} is not a non-negative int: torch raises an error"
    elif prefetch is not None and not _is_int(prefetch):
        result.problem = f"prefetch_factor={prefetch!r} is not an int"
    elif workers == 0 and prefetch is not None:
        result.problem = "prefetch_factor without workers: torch ≥ 2.0 raises ValueError (DL001)"
    elif prefetch is not None and prefetch < 1:
        result.problem = f"prefetch_factor={prefetch}: torch fails at the first iter() (needs ≥ 1)"
    if result.problem or result.batch is None:
        return result
    pin = result.values.get("pin_memory") is True
    persistent = result.values.get("persistent_workers") is True
    plan = LoaderPlan.from_tensors(
        workers, prefetch, result.batch.tensor_bytes, pin_memory=pin, persistent_workers=persistent
    )
    result.report = plan_report(plan, result.batch, budget, shm, persistent)
    return result


def loader_contexts(paths: Sequence[str]):
    """(display path, loader call, rule context) of every loader call in the Python files under
    ``paths``, analysed as a lint analyses them (the project around them read through the same
    index), so that the figures are the rules' own."""
    import os
    from pathlib import Path

    from dl_lint.analysis.project import Project, absolute_path, find_root, module_name_for
    from dl_lint.config import ConfigError, settings_for_dir
    from dl_lint.discovery import discover
    from dl_lint.files import SourceFile, display_path, read
    from dl_lint.judge import analyse, context_for
    from dl_lint.config import enabled_codes
    from dl_lint.rules import checking_rules, known_codes

    codes = known_codes()
    configs: Dict = {}
    cwd = os.getcwd()
    files = []
    seen = set()
    try:
        first = settings_for_dir(Path(paths[0]).absolute().parent, codes, configs)
        for given in paths:
            if not os.path.exists(given):
                _fail(f"{given}: cannot read: no such file or folder")
            base = settings_for_dir(Path(given if os.path.isdir(given) else os.path.dirname(given) or ".").absolute(), codes, configs)
            found = discover([Path(given)], exclude=base.exclude, extend_exclude=base.extend_exclude,
                             respect_gitignore=base.respect_gitignore, suffixes=(".py", ".ipynb"))  # fmt: skip
            for path in found.files:
                key = absolute_path(os.fspath(path), cwd)
                if key not in seen:
                    seen.add(key)
                    settings = settings_for_dir(Path(os.path.dirname(key)), codes, configs)
                    files.append(SourceFile(path, display_path(path, key, cwd), module_name_for(key, absolute=True), settings, abspath=key))
    except ConfigError as exc:
        _fail(str(exc))
    project = Project(find_root(Path(paths[0])), first.extra_loaders, max_file_size=first.max_file_size)
    named = {absolute_path(p, cwd) for p in paths if not os.path.isdir(p)}
    for file in files:
        read(file)
        analyse(file, project)
        if file.errors and file.key in named:  # a file named on the command line: say why, exit 2
            error = file.errors[0]
            _fail(f"{given_name(file)}: {error.message}")
        if file.facts is None or not file.facts.calls:
            continue
        rules = checking_rules(enabled_codes(file.settings, codes))
        ctx = context_for(file, project, lambda call: False, rules)
        for call in sorted(file.facts.every_call(), key=lambda c: (c.location.row, c.location.column)):
            if os.path.abspath(call.path) == file.key:  # a loader a config builds is reported at its own file
                display = file.display
                if file.cell_map is not None:  # a notebook: the cell and the row in it, as a lint shows them
                    where = file.cell_map.locate(call.location.row)
                    if where is not None:
                        display = f"{file.display}:cell {where[0]}"
                        call = call.replace(location=call.location.replace(row=where[1]))
                yield display, file.settings, call, ctx


def given_name(file: Any) -> str:
    return file.display


def estimate_paths(
    paths: Sequence[str],
    option_batch: Optional[BatchSpec],
    samples: Tuple[SampleField, ...],
    budget: Optional[int],
    shm: ShmInfo,
) -> List[CallEstimate]:
    return [
        estimate_call(call, display, option_batch, ctx, samples, budget if budget is not None else settings.memory_budget, shm)
        for display, settings, call, ctx in loader_contexts(paths)
    ]


def render_rows(estimates: Sequence[CallEstimate]) -> List[str]:
    """One row per loader: workers, prefetch, batch bytes and their source (or why unknown),
    and the /dev/shm it needs."""
    rows = [("loader", "workers", "prefetch", "batch", "/dev/shm needed", "source")]
    for est in estimates:
        workers = est.values.get("num_workers", "?") if "num_workers" not in est.unknown else "?"
        prefetch = est.values.get("prefetch_factor") if "prefetch_factor" not in est.unknown else "?"
        if prefetch is None and _is_int(workers) and workers > 0:
            prefetch = "2 (default)"
        elif prefetch is None:
            prefetch = "-"
        batch = format_size(est.batch.batch_bytes) if est.batch is not None else "unknown"
        shm = format_size(est.report["breakdown"]["shm_bytes"]) if est.report is not None else "-"
        source = est.batch.source if est.batch is not None else ""
        if est.batch is None:
            source = est.why
        if est.stale:
            source += f" [stale: {est.stale}]"
        rows.append((f"{est.path}:{est.line}", str(workers), str(prefetch), batch, shm, source))
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r[:5], widths)) + "  " + r[5] for r in rows]


def coverage(estimates: Sequence[CallEstimate]) -> Dict[str, int]:
    """How many loaders with workers (a known num_workers > 0) have known batch bytes."""
    with_workers = [e for e in estimates if _is_int(e.values.get("num_workers")) and e.values["num_workers"] > 0]
    return {
        "loaders": len(estimates),
        "with_workers": len(with_workers),
        "with_workers_known": sum(1 for e in with_workers if e.batch is not None),
    }


def render_call(est: CallEstimate) -> List[str]:
    """The call's lines; each line on its own (``dl_lint.printable``: values from the project
    such as origins and reasons cannot break a line or start a workflow command)."""
    return [printable.line(printable.text(line)) for line in _call_lines(est)]


def _call_lines(est: CallEstimate) -> List[str]:
    head = f"{printable.path(est.path)}:{est.line}: DataLoader"
    known = ", ".join(f"{k}={v!r}" for k, v in est.values.items())
    lines = [f"{head}({known})" if known else head]
    for name, where in est.origins.items():
        lines.append(f"  {name}={est.values[name]!r}: {where}")
    if est.unknown:
        for name, why in est.unknown.items():
            lines.append(f"  {name}: {why}")
    if "num_workers" in est.unknown or "prefetch_factor" in est.unknown:
        missing = [n for n in ("num_workers", "prefetch_factor") if n in est.unknown]
        lines.append(f"  no estimate: {' and '.join(missing)} not known statically")
        return lines
    if est.problem:
        lines.append(f"  no estimate: {est.problem}")
        return lines
    if est.report is None:
        if est.why:
            lines.append(f"  batch bytes unknown: {est.why}")
        lines.append(
            "  no estimate: batch bytes unknown; add `# dl-lint: batch-bytes=64MiB` to the call, "
            "or give --batch-bytes (or --sample), or set batch-bytes in [tool.dl-lint]"
        )
        return lines
    lines += ["  " + line if line else "" for line in render_plan(est.report, with_grid=False)]
    return lines


# -------------------------------------------------------------------------------- commands

ESTIMATE_HELP = """Estimate the host memory a DataLoader configuration holds: prefetched batches,
the batch the loop holds, pinned copies, and the /dev/shm the workers need.

\b
  dl-lint estimate --batch-bytes 64MiB --num-workers 4 --prefetch-factor 2
  dl-lint estimate --batch-size 32 --sample 3x224x224:float32 --sample :int64 --budget 8GiB
  dl-lint estimate train.py        # every DataLoader call in a file, with its resolved values

The model (measured on torch 2.13): W × P batches are prefetched into /dev/shm before the first
step and W × P + 1 are there while the loop runs; pinned copies are rounded up to a power of two
per tensor. It counts batches only, not decode buffers or the dataset's own memory.
"""


@click.command("estimate", cls=_OneLineCommand, help=ESTIMATE_HELP)
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--batch-bytes", type=SIZE, metavar="SIZE", help="Bytes of one batch, e.g. 64MiB.")
@click.option("--batch-size", type=click.IntRange(min=1), help="Samples per batch (with --sample).")
@click.option(
    "--sample",
    "sample_specs",
    multiple=True,
    metavar="SHAPE:DTYPE",
    help=f"One tensor of a sample, e.g. 3x224x224:float32, or :int64 for a scalar; repeat per field. "
    f"dtypes: {', '.join(DTYPE_ITEMSIZE)}.",
)
@click.option("--num-workers", type=click.IntRange(min=0), help="num_workers (default 2).")
@click.option(
    "--prefetch-factor", type=click.IntRange(min=1), help="prefetch_factor (default: torch's 2 with workers)."
)
@click.option("--pin-memory/--no-pin-memory", default=None, help="Count pinned copies (default: no).")
@click.option(
    "--persistent-workers/--no-persistent-workers",
    default=None,
    help="Workers kept between epochs (default: no).",
)
@click.option(
    "--budget",
    type=SIZE,
    metavar="SIZE",
    help="Host memory the batches may use, e.g. 8GiB (default: memory-budget setting).",
)
@click.option(
    "--shm",
    "shm_size",
    type=SIZE,
    metavar="SIZE",
    help="Available /dev/shm (default: read from /dev/shm; try 64MiB for Docker's default).",
)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--details/--no-details", default=None, help="With files: each loader's breakdown below the table (default: with one file).")
def estimate(
    paths: Tuple[str, ...],
    batch_bytes: Optional[int],
    batch_size: Optional[int],
    sample_specs: Tuple[str, ...],
    num_workers: Optional[int],
    prefetch_factor: Optional[int],
    pin_memory: Optional[bool],
    persistent_workers: Optional[bool],
    budget: Optional[int],
    shm_size: Optional[int],
    output_format: str,
    details: Optional[bool],
) -> None:
    samples = _parse_samples(sample_specs)
    if details is None:
        import os

        details = len(paths) == 1 and not os.path.isdir(paths[0])
    if budget is not None and budget <= 0:
        _fail("--budget: size must be positive")
    shm = detect_shm(shm_size)
    if paths:
        given = [
            flag
            for flag, value in (
                ("--num-workers", num_workers),
                ("--prefetch-factor", prefetch_factor),
                ("--pin-memory", pin_memory),
                ("--persistent-workers", persistent_workers),
            )
            if value is not None
        ]
        if given:
            _fail(f"{', '.join(given)}: with files, the loader's settings come from the source")
        if batch_size is not None and not samples:
            _fail("--batch-size needs --sample SHAPE:DTYPE")
        option_batch = batch_from_options(batch_bytes, batch_size, samples)
        try:
            estimates = estimate_paths(paths, option_batch, samples, budget, shm)
        except (KeyboardInterrupt, click.exceptions.Exit, click.ClickException):
            raise
        except Exception as exc:  # noqa: BLE001 - never show a traceback; say what failed (as a lint does)
            _fail(f"internal error: {type(exc).__name__}: {printable.text(str(exc))}")
        if output_format == "json":
            click.echo(json.dumps({"loaders": [e.as_dict() for e in estimates], "coverage": coverage(estimates)}, indent=2))
            return
        if not estimates:
            click.echo(f"no DataLoader calls found in {', '.join(paths)}")
            return
        click.echo("\n".join(render_rows(estimates)))
        known = coverage(estimates)
        click.echo(
            f"\n{known['with_workers_known']} of {known['with_workers']} loaders with workers have known batch bytes"
        )
        if details:
            blocks = ["\n".join(render_call(e)) for e in estimates]
            click.echo("\n" + "\n\n".join(blocks))
        if any(e.report for e in estimates):
            click.echo("\n(--output-format json adds the num_workers × prefetch_factor grid for each call)")
        return

    batch = batch_from_options(batch_bytes, batch_size, samples)
    if batch is None:
        _fail("give --batch-bytes SIZE, or --batch-size N with --sample SHAPE:DTYPE, or a Python file")
    workers = 2 if num_workers is None else num_workers
    if workers == 0 and prefetch_factor is not None:
        _fail("--prefetch-factor needs --num-workers > 0 (torch ≥ 2.0 raises ValueError otherwise)")
    if workers == 0 and persistent_workers:
        _fail("--persistent-workers needs --num-workers > 0 (torch raises ValueError otherwise)")
    plan = LoaderPlan.from_tensors(
        workers,
        prefetch_factor,
        batch.tensor_bytes,
        pin_memory=bool(pin_memory),
        persistent_workers=bool(persistent_workers),
    )
    report = plan_report(plan, batch, budget, shm, bool(persistent_workers))
    if output_format == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo("\n".join(render_plan(report)))


MEASURE_HELP = """Run a real DataLoader and measure its memory next to the estimate.

TARGET is MODULE:FUNCTION, a function taking no arguments that returns a DataLoader, e.g.
train:make_loader. WARNING: this IMPORTS AND RUNS YOUR CODE (the module's top-level code, the
function, the dataset and its workers) - unlike `dl-lint check`, which never runs anything. Only
use it on code you trust. Needs torch (dl-lint's `runtime` extra): pip install torch.

It iterates --batches batches, holding each for --step-time seconds (a stand-in for the training
step) after a --pause that lets prefetching finish, and reports: the bytes of a batch (tensor
nbytes in the first batch), the peak /dev/shm use (statvfs, sampled every 5 ms, minus the use
before the loader was created; system-wide, so other programs using /dev/shm show up too), and
the main process's peak RSS increase; next to the estimate (W × P + 1) × batch bytes. Linux only.

The "+ 1" batch appears when a step lasts longer than a worker needs to build a batch (the
GPU-bound case, where prefetching matters); with a faster loop the peak is W × P. Raise
--step-time for big batches.
"""


@click.command("measure", cls=_OneLineCommand, help=MEASURE_HELP)
@click.argument("target", metavar="MODULE:FUNCTION")
@click.option(
    "--path",
    "paths",
    multiple=True,
    type=click.Path(path_type=str),
    help="Add a folder to sys.path (the current folder always is).",
)
@click.option(
    "--batches", type=click.IntRange(min=1), default=20, show_default=True, help="Batches to iterate."
)
@click.option(
    "--pause",
    type=click.FloatRange(min=0),
    default=2.0,
    show_default=True,
    help="Seconds to wait before the first batch, so prefetching completes.",
)
@click.option(
    "--step-time",
    type=click.FloatRange(min=0),
    default=0.2,
    show_default=True,
    help="Seconds the loop holds each batch (a simulated training step; make it longer than building a batch).",
)
@click.option(
    "--record/--no-record",
    default=True,
    show_default=True,
    help="Write the measured batch bytes for the loader's call into the project's dl-lint-measured.json, "
    "which DL101, DL104 and `dl-lint estimate` then use.",
)
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def measure(
    target: str, paths: Tuple[str, ...], batches: int, pause: float, step_time: float, record: bool, output_format: str
) -> None:
    from dl_lint.measure import MeasureError, run

    def note(message: str) -> None:
        click.echo(f"measure: {message}", err=True)

    stderr_tty = sys.stderr.isatty()

    def progress(done: int) -> None:
        if stderr_tty:
            click.echo(f"\rmeasure: batch {done}/{batches}", err=True, nl=False)
            if done == batches:
                click.echo("", err=True)
        elif done == 1 or done == batches or done % 10 == 0:
            click.echo(f"measure: batch {done}/{batches}", err=True)

    try:
        where: List[Any] = []
        result = run(target, paths, batches, pause, step_time, progress=progress, note=note, constructed=where)
    except MeasureError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        _fail("interrupted")
    data = {"target": target, **result.as_dict()}
    if record:
        from dl_lint.measure import record_measurement

        written, said = record_measurement(where[0] if where else None, target, result)
        note(said)
        data["recorded_in"] = written
    if output_format == "json":
        click.echo(json.dumps(data, indent=2))
        return
    click.echo("\n".join(render_measurement(target, result)))


def render_measurement(target: str, m: Any) -> List[str]:
    W, P = m.num_workers, m.prefetch_factor
    batch = format_size(m.batch_bytes)
    lines = [
        f"dl-lint measure {target}: torch {m.torch_version}, sharing strategy {m.sharing_strategy}",
        f"loader   num_workers={W}, prefetch_factor={P}, pin_memory={m.pin_memory}",
        f"batch    {batch} (tensor bytes of the first batch)",
        f"run      {m.batches} batches, {m.pause:g} s pause before the first, each held {m.step_time:g} s; "
        f"{m.samples} /dev/shm samples",
        "",
    ]
    if W > 0:
        wp = W * (P or 0)
        rows = [
            ("", "measured", "estimate", ""),
            (
                "/dev/shm before the first batch",
                format_size(m.shm_prefetched_bytes),
                format_size(m.estimate_prefetched_bytes),
                f"W×P = {wp} batches",
            ),
            (
                "/dev/shm peak",
                format_size(m.shm_peak_bytes),
                format_size(m.estimate_shm_bytes),
                f"(W×P + 1) = {wp + 1} batches; measured/estimate {m.shm_ratio:.2f}",
            ),
        ]
        if m.held_fd_peak_bytes is not None:
            rows.append(
                (
                    "  held open by the loader's processes",
                    format_size(m.held_fd_peak_bytes),
                    "",
                    "/proc/<pid>/fd",
                )
            )
    else:
        rows = [
            ("", "measured", "estimate", ""),
            ("/dev/shm peak", format_size(m.shm_peak_bytes), "0 B", "no workers: nothing in /dev/shm"),
        ]
    since = "" if m.rss_peak_is_reset else " (peak since process start)"
    rows.append(
        (
            "main process peak RSS increase",
            format_size(m.rss_peak_delta_bytes),
            "",
            f"includes the dataset it built{since}",
        )
    )
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    for name, measured, est, extra in rows:
        lines.append(
            f"{name.ljust(widths[0])}  {measured.rjust(widths[1])}  {est.rjust(widths[2])}  {extra}".rstrip()
        )
    return lines
