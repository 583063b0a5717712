"""Batches in flight: the arithmetic of the host-memory model that DL101 and ``dl-lint estimate``
share (``dl_lint.estimate`` has the rest). Measured on torch 2.13 (see docs/memory.md): the
multiprocessing iterator sends ``num_workers * prefetch_factor`` index batches to the workers
when iteration starts and one more only when a batch is handed to the loop, so before the first
step exactly W×P batches sit in /dev/shm, and while the loop runs W×P + 1. Kept apart so that a
lint imports only this.
"""

from __future__ import annotations

from typing import Optional

DEFAULT_PREFETCH_FACTOR = 2  # torch's value when num_workers > 0 and prefetch_factor is None
HELD_BY_LOOP = 1


def effective_prefetch_factor(num_workers: int, prefetch_factor: Optional[int]) -> int:
    """What torch uses: 0 without workers (no prefetching), 2 when not given."""
    if num_workers <= 0:
        return 0
    return DEFAULT_PREFETCH_FACTOR if prefetch_factor is None else prefetch_factor


def inflight_batches(num_workers: int, prefetch_factor: Optional[int]) -> int:
    """Batches prefetched into shared memory before the first step: W × P."""
    return max(num_workers, 0) * effective_prefetch_factor(num_workers, prefetch_factor)


def peak_batches(num_workers: int, prefetch_factor: Optional[int], held: int = HELD_BY_LOOP) -> int:
    """Batches alive at once while the loop runs: W × P prefetched plus those the loop holds.
    Without workers the loop holds its batch and nothing is prefetched."""
    return inflight_batches(num_workers, prefetch_factor) + held


def peak_bytes(
    num_workers: int, prefetch_factor: Optional[int], batch_bytes: int, held: int = HELD_BY_LOOP
) -> int:
    return peak_batches(num_workers, prefetch_factor, held) * batch_bytes


def largest_prefetch_within(num_workers: int, limit: int) -> int:
    """The largest prefetch_factor keeping W × P within ``limit`` (at least 1)."""
    if num_workers <= 0:
        return 1
    return max(1, limit // num_workers)


def max_inflight(limit: int, batch_bytes: Optional[int] = None, budget: Optional[int] = None) -> int:
    """The most batches that may be in flight: the limit, and the budget less the held batch."""
    most = limit
    if batch_bytes and budget is not None:
        most = min(most, budget // batch_bytes - HELD_BY_LOOP)
    return max(most, 0)


def suggest(
    num_workers: int, limit: int, batch_bytes: Optional[int] = None, budget: Optional[int] = None
) -> "tuple[int, int]":
    """(num_workers, prefetch_factor) within the limits: keep the workers and lower
    prefetch_factor first (the article's order); when even prefetch_factor=1 is too much, fewer
    workers with prefetch_factor=1 (0 workers when nothing fits)."""
    most = max_inflight(limit, batch_bytes, budget)
    if num_workers > 0 and most >= num_workers:
        return num_workers, most // num_workers
    return most, 1
