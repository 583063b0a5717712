"""The DataLoader host-memory model of ``dl-lint estimate`` (its arithmetic, shared with DL101,
is in ``dl_lint.inflight``).

Measured on torch 2.13 (see README): the multiprocessing iterator sends
``num_workers * prefetch_factor`` index batches to the workers when iteration starts and one
more only when a batch is handed to the loop. Workers build batches in shared memory, so before
the first step exactly W×P batches sit in /dev/shm, and while the loop runs W×P + 1 (the batch
the loop variable still holds).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from dl_lint.inflight import (  # noqa: F401 - the model's arithmetic, re-exported
    DEFAULT_PREFETCH_FACTOR,
    HELD_BY_LOOP,
    effective_prefetch_factor,
    inflight_batches,
    largest_prefetch_within,
    max_inflight,
    peak_batches,
    peak_bytes,
    suggest,
)


# ----------------------------------------------------------------------------- batch sizes
# Everything below is used by ``dl-lint estimate`` (and DL101 through the functions above). It is
# pure arithmetic: no torch, no libcst, no I/O.

DTYPE_ITEMSIZE: Dict[str, int] = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "int64": 8,
    "int32": 4,
    "int16": 2,
    "int8": 1,
    "uint8": 1,
    "bool": 1,
    "complex64": 8,
    "complex128": 16,
}
# torch's spellings of the same dtypes.
_DTYPE_ALIASES = {
    "double": "float64",
    "float": "float32",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "cfloat": "complex64",
    "cdouble": "complex128",
}


@dataclass(frozen=True)
class SampleField:
    """One tensor of a sample: its shape (``()`` for a scalar) and dtype name."""

    shape: Tuple[int, ...]
    dtype: str

    @property
    def itemsize(self) -> int:
        return DTYPE_ITEMSIZE[self.dtype]

    def batch_bytes(self, batch_size: int) -> int:
        """Bytes of this field for a whole batch (what default_collate stacks into one tensor)."""
        elements = 1
        for dim in self.shape:
            elements *= dim
        return batch_size * elements * self.itemsize

    def __str__(self) -> str:
        return f"{'x'.join(str(d) for d in self.shape)}:{self.dtype}"


def parse_sample(spec: str) -> SampleField:
    """``"3x224x224:float32"`` -> SampleField((3, 224, 224), "float32"); ``":int64"`` is a
    scalar; ``"3x224x224"`` without a dtype is float32 (torch's default dtype). ValueError, with
    a one-line message, on anything else."""
    text = spec.strip()
    shape_text, sep, dtype = text.partition(":")
    dtype = dtype.strip().lower().replace("torch.", "") if sep else "float32"
    dtype = _DTYPE_ALIASES.get(dtype, dtype)
    if dtype not in DTYPE_ITEMSIZE:
        raise ValueError(
            f"unknown dtype {dtype!r} in sample {spec!r}; expected one of {', '.join(DTYPE_ITEMSIZE)}"
        )
    shape_text = shape_text.strip()
    shape: Tuple[int, ...] = ()
    if shape_text:
        parts = [p.strip() for p in shape_text.lower().replace("×", "x").split("x")]
        if not all(p.isdigit() for p in parts):
            raise ValueError(
                f"bad shape {shape_text!r} in sample {spec!r}; expected dimensions such as 3x224x224 "
                "(or nothing before ':' for a scalar, as in ':int64')"
            )
        shape = tuple(int(p) for p in parts)
    elif not sep:
        raise ValueError(f"empty sample spec {spec!r}; expected SHAPE:DTYPE such as 3x224x224:float32")
    return SampleField(shape, dtype)


def batch_tensor_bytes(batch_size: int, fields: Sequence[SampleField]) -> Tuple[int, ...]:
    """Bytes of each tensor of one collated batch: one per field."""
    if batch_size <= 0:
        raise ValueError(f"batch size must be positive, got {batch_size}")
    return tuple(f.batch_bytes(batch_size) for f in fields)


def next_power_of_two(n: int) -> int:
    """The block torch's caching host allocator hands out for an ``n``-byte pinned tensor."""
    if n <= 1:
        return max(n, 0) if n <= 0 else 1
    return 1 << (n - 1).bit_length()


# ------------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class LoaderPlan:
    """The memory a DataLoader configuration needs, in the measured model.

    ``prefetch_factor`` None means torch's default (2 with workers). ``tensor_bytes`` are the
    bytes of each tensor of one batch (empty: a single tensor of ``batch_bytes``); they matter
    only for pinned memory, which is rounded up per tensor.
    """

    num_workers: int
    prefetch_factor: Optional[int]
    batch_bytes: int
    pin_memory: bool = False
    persistent_workers: bool = False
    tensor_bytes: Tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.num_workers < 0:
            raise ValueError(f"num_workers must not be negative, got {self.num_workers}")
        if self.prefetch_factor is not None and self.prefetch_factor < 1:
            raise ValueError(f"prefetch_factor must be at least 1, got {self.prefetch_factor}")
        if self.batch_bytes < 0:
            raise ValueError(f"batch bytes must not be negative, got {self.batch_bytes}")
        if self.tensor_bytes and sum(self.tensor_bytes) != self.batch_bytes:
            raise ValueError("tensor_bytes must add up to batch_bytes")

    @classmethod
    def from_tensors(
        cls, num_workers: int, prefetch_factor: Optional[int], tensor_bytes: Sequence[int], **kw
    ) -> "LoaderPlan":
        return cls(num_workers, prefetch_factor, sum(tensor_bytes), tensor_bytes=tuple(tensor_bytes), **kw)

    @property
    def effective_prefetch_factor(self) -> int:
        """0 without workers, else the given value or torch's default of 2."""
        return effective_prefetch_factor(self.num_workers, self.prefetch_factor)

    @property
    def tensors(self) -> Tuple[int, ...]:
        return self.tensor_bytes or (self.batch_bytes,)

    def prefetched_batches(self) -> int:
        """W × P: batches built ahead by the workers (in /dev/shm), 0 without workers."""
        return inflight_batches(self.num_workers, self.prefetch_factor)

    def prefetched_bytes(self) -> int:
        return self.prefetched_batches() * self.batch_bytes

    def held_bytes(self) -> int:
        """The batch the training loop holds (its loop variable)."""
        return HELD_BY_LOOP * self.batch_bytes

    def pinned_batch_bytes(self) -> int:
        """One pinned copy of a batch: each tensor rounded up to a power of two."""
        return sum(next_power_of_two(t) for t in self.tensors)

    def pinned_batches(self) -> int:
        """Pinned copies made by the pin-memory thread: up to one per prefetched batch."""
        return self.prefetched_batches() if self.pin_memory else 0

    def pinned_bytes(self) -> int:
        return self.pinned_batches() * self.pinned_batch_bytes()

    def shm_batches(self) -> int:
        """Batches in /dev/shm while the loop runs: W × P + 1 with workers, none without."""
        return self.prefetched_batches() + HELD_BY_LOOP if self.num_workers > 0 else 0

    def shm_bytes(self) -> int:
        return self.shm_batches() * self.batch_bytes

    def total_bytes(self) -> int:
        """Prefetched + held + pinned: the host memory of the batches (not the whole process)."""
        return self.prefetched_bytes() + self.held_bytes() + self.pinned_bytes()

    def fits(self, budget: Optional[int], shm_available: Optional[int]) -> bool:
        """Within the budget and /dev/shm (a limit that is None is not checked)."""
        return (budget is None or self.total_bytes() <= budget) and (
            shm_available is None or self.shm_bytes() <= shm_available
        )

    def roomy(self, budget: Optional[int], shm_available: Optional[int]) -> bool:
        """Fits in half of each known limit: room to spare for pinning, persistence, growth."""
        return (budget is None or 2 * self.total_bytes() <= budget) and (
            shm_available is None or 2 * self.shm_bytes() <= shm_available
        )

    def replace(self, **changes: object) -> "LoaderPlan":
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def breakdown(self) -> Dict[str, int]:
        return {
            "prefetched_batches": self.prefetched_batches(),
            "prefetched_bytes": self.prefetched_bytes(),
            "held_batches": HELD_BY_LOOP,
            "held_bytes": self.held_bytes(),
            "pinned_batches": self.pinned_batches(),
            "pinned_bytes": self.pinned_bytes(),
            "total_bytes": self.total_bytes(),
            "shm_batches": self.shm_batches(),
            "shm_bytes": self.shm_bytes(),
        }


# ------------------------------------------------------------------------- grid and advice

GRID_WORKERS: Tuple[int, ...] = (0, 1, 2, 4, 8, 16)
GRID_PREFETCH: Tuple[int, ...] = (1, 2, 4)


@dataclass(frozen=True)
class GridCell:
    num_workers: int
    prefetch_factor: Optional[int]  # None for num_workers=0 (torch rejects one)
    total_bytes: int
    shm_bytes: int
    fits_budget: Optional[bool]  # None: no budget given
    fits_shm: Optional[bool]  # None: /dev/shm size unknown

    @property
    def fits(self) -> bool:
        return self.fits_budget is not False and self.fits_shm is not False


def grid(
    plan: LoaderPlan,
    budget: Optional[int] = None,
    shm_available: Optional[int] = None,
    workers: Sequence[int] = GRID_WORKERS,
    prefetch: Sequence[int] = GRID_PREFETCH,
) -> List[GridCell]:
    """``plan`` (its batch, pinning) at every num_workers × prefetch_factor; one cell for 0 workers."""
    cells = []
    for w in workers:
        for p in (None,) if w == 0 else prefetch:
            cell_plan = plan.replace(
                num_workers=w, prefetch_factor=p, persistent_workers=plan.persistent_workers and w > 0
            )
            total, shm = cell_plan.total_bytes(), cell_plan.shm_bytes()
            cells.append(
                GridCell(
                    w,
                    p,
                    total,
                    shm,
                    None if budget is None else total <= budget,
                    None if shm_available is None else shm <= shm_available,
                )
            )
    return cells


@dataclass(frozen=True)
class Recommendation:
    """What to run, following the article's decision table.

    ``situation``: "tight" (the plan does not fit: lower prefetch_factor first, then workers),
    "headroom" (fits within half of each limit: start at 2 × 1 and grow), "fits" (fits with
    little to spare: do not grow), "no-limits" (no budget and no /dev/shm size known).
    ``grow_to`` is the most workers (at prefetch_factor 1) that still fit, when growing makes sense.
    """

    situation: str
    num_workers: int
    prefetch_factor: Optional[int]
    pin_memory: bool
    persistent_workers: bool
    total_bytes: int
    shm_bytes: int
    steps: Tuple[str, ...]
    grow_to: Optional[int] = None

    def as_dict(self) -> Dict[str, object]:
        return dataclasses.asdict(self)


def _most_workers_within(plan: LoaderPlan, budget: Optional[int], shm: Optional[int], ceiling: int) -> int:
    """The most workers in 1..ceiling that fit at prefetch_factor 1 with ``plan``'s batch (0 if none)."""
    best = 0
    for w in range(1, ceiling + 1):
        if plan.replace(num_workers=w, prefetch_factor=1).fits(budget, shm):
            best = w
        else:
            break  # memory grows with workers: no larger count fits either
    return best


def recommend(
    plan: LoaderPlan, budget: Optional[int] = None, shm_available: Optional[int] = None, max_workers: int = 16
) -> Recommendation:
    """The article's decision table, made concrete for ``plan``.

    - Memory tight: keep the workers and lower prefetch_factor first; then pin_memory off; then
      fewer workers at prefetch_factor 1; then num_workers=0; persistent_workers off throughout.
    - Headroom: start at num_workers=2, prefetch_factor=1 and grow workers while the GPU waits;
      pin_memory and persistent_workers are affordable.
    - Fits with little to spare: keep it, do not grow; pin_memory / persistent_workers only if
      they fit.
    """
    fmt = _fmt
    W = plan.num_workers

    def done(
        situation: str, p: LoaderPlan, steps: List[str], grow_to: Optional[int] = None
    ) -> Recommendation:
        if situation == "tight" and shm_available is not None and plan.shm_bytes() > shm_available:
            steps.append(
                f"or keep the plan and give it more shared memory: it needs {fmt(plan.shm_bytes())} of "
                f"/dev/shm (Docker: docker run --shm-size={docker_shm_size(plan.shm_bytes())}, or --ipc=host)"
            )
        return Recommendation(
            situation,
            p.num_workers,
            p.prefetch_factor,
            p.pin_memory,
            p.persistent_workers,
            p.total_bytes(),
            p.shm_bytes(),
            tuple(steps),
            grow_to,
        )

    if budget is None and shm_available is None:
        start = plan.replace(num_workers=2, prefetch_factor=1, persistent_workers=False)
        return done(
            "no-limits",
            start,
            [
                "no memory budget and no /dev/shm size: give --budget (and --shm) to check what fits",
                f"the article's balanced start: num_workers=2, prefetch_factor=1 ({fmt(start.total_bytes())}); "
                "grow num_workers while the GPU waits for data",
            ],
        )

    if not plan.fits(budget, shm_available):
        steps: List[str] = []
        current = plan.replace(persistent_workers=False)
        if plan.persistent_workers:
            steps.append(
                "persistent_workers=False: worker processes and their dataset copies are not kept between epochs"
            )
        if W > 0 and plan.effective_prefetch_factor > 1:
            for p in range(plan.effective_prefetch_factor - 1, 0, -1):
                current = current.replace(prefetch_factor=p)
                if current.fits(budget, shm_available):
                    break
            steps.append(
                f"lower prefetch_factor first: prefetch_factor={current.prefetch_factor} keeps {W} workers "
                f"({fmt(current.total_bytes())}{_still_over(current, budget, shm_available)})"
            )
            if current.fits(budget, shm_available):
                return done("tight", current, steps)
        if current.pin_memory and budget is not None and current.total_bytes() > budget:
            current = current.replace(pin_memory=False)
            steps.append(
                "pin_memory=False: pinned copies are extra host memory "
                f"({fmt(current.total_bytes())}{_still_over(current, budget, shm_available)})"
            )
            if current.fits(budget, shm_available):
                return done("tight", current, steps)
        if W > 0:
            fewer = _most_workers_within(current, budget, shm_available, W - 1)
            if fewer > 0:
                current = current.replace(num_workers=fewer, prefetch_factor=1)
                steps.append(
                    f"fewer workers: num_workers={fewer}, prefetch_factor=1 ({fmt(current.total_bytes())})"
                )
                return done("tight", current, steps)
            current = current.replace(num_workers=0, prefetch_factor=None)
            steps.append(
                f"num_workers=0: load in the main process, nothing prefetched ({fmt(current.total_bytes())}); "
                "if the GPU then waits, the batch is too big for more workers"
            )
        if not current.fits(budget, shm_available):
            steps.append(
                f"even one batch ({fmt(current.total_bytes())}) exceeds the budget: use a smaller batch_size "
                "or smaller samples"
            )
        return done("tight", current, steps)

    grow_to = _most_workers_within(plan.replace(persistent_workers=False), budget, shm_available, max_workers)
    if plan.roomy(budget, shm_available):
        start = plan.replace(num_workers=2, prefetch_factor=1)
        steps = [
            f"fits with headroom ({fmt(plan.total_bytes())}). If the GPU waits for data: start at "
            f"num_workers=2, prefetch_factor=1 and grow num_workers"
            + (f" (up to {grow_to} × 1 fits)" if grow_to else ""),
            "raise prefetch_factor only for bursty loading times: when disk, decode or the GPU is the "
            "bottleneck it only adds memory",
        ]
        if not plan.pin_memory:
            steps.append(
                "pin_memory=True is affordable on a GPU machine (with .to(device, non_blocking=True))"
            )
        if not plan.persistent_workers and W > 0:
            steps.append("persistent_workers=True is affordable if worker start-up per epoch is costly")
        if not start.fits(budget, shm_available):  # only when pinning/rounding make 2 × 1 too big
            start = plan
        return done("headroom", start, steps, grow_to)

    steps = [
        f"fits, with little to spare ({fmt(plan.total_bytes())}): do not add workers or raise prefetch_factor"
    ]
    if plan.pin_memory:
        steps.append(
            "pin_memory=True costs host memory here: keep it only if host→GPU copies are the bottleneck"
        )
    if plan.persistent_workers:
        steps.append("persistent_workers=True keeps workers and their dataset copies resident between epochs")
    return done("fits", plan, steps, grow_to)


def docker_shm_size(needed: int) -> str:
    """A ``docker run --shm-size`` value for ``needed`` bytes: 25% margin, whole MiB or GiB."""
    mib = -(-needed * 5 // 4 // 1024**2)  # ceil((needed * 1.25) / MiB)
    return f"{-(-mib // 1024)}g" if mib >= 1024 else f"{mib}m"


def _still_over(plan: LoaderPlan, budget: Optional[int], shm_available: Optional[int]) -> str:
    over = []
    if budget is not None and plan.total_bytes() > budget:
        over.append("the budget")
    if shm_available is not None and plan.shm_bytes() > shm_available:
        over.append("/dev/shm")
    return f", still over {' and '.join(over)}" if over else ""


def _fmt(n: int) -> str:
    from dl_lint.config import format_size

    return format_size(n)
