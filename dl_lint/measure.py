"""``dl-lint measure``: run a real DataLoader and compare its memory with the estimate.

This is the one part of dl-lint that imports torch (the optional ``runtime`` extra) and runs
user code: it imports a function that returns a DataLoader, calls it, and iterates a few batches
while a background thread samples shared-memory use.

How shared memory is seen: on Linux torch's default sharing strategy, ``file_descriptor``, puts
every tensor a worker returns in a file created in /dev/shm (``torch_<pid>_<n>``) and unlinks it
at once; only file descriptors keep it alive. Unlinked tmpfs files still count in the file
system's used blocks, so ``statvfs('/dev/shm')`` sees them (checked on torch 2.13: the measured
peak is exactly (W×P + 1) batches). statvfs is system-wide, so as a process-specific cross-check
the sampler also sums the distinct /dev/shm files held open by this process and its worker
processes (``/proc/<pid>/fd``); with the ``file_system`` strategy no descriptors are kept and only
the statvfs figure applies.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

SHM_PATH = "/dev/shm"
SAMPLE_INTERVAL = 0.005  # seconds between /dev/shm samples


class MeasureError(Exception):
    """A one-line problem the CLI prints before exiting 2."""


# ----------------------------------------------------------------------------- system probes


def shm_stats(path: str = SHM_PATH) -> Optional[Tuple[int, int, int]]:
    """(total, available, used) bytes of the file system at ``path``; None when it cannot be read
    (not Linux, no /dev/shm)."""
    if not hasattr(os, "statvfs") or not os.path.isdir(path):
        return None
    try:
        st = os.statvfs(path)
    except OSError:
        return None
    return st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize, (st.f_blocks - st.f_bfree) * st.f_frsize


def shm_used(path: str = SHM_PATH) -> int:
    st = os.statvfs(path)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def child_pids(pid: Optional[int] = None) -> List[int]:
    """Direct children of ``pid`` (default: this process), from /proc/<pid>/task/*/children."""
    pid = os.getpid() if pid is None else pid
    found: List[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found.extend(int(p) for p in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def shm_held_by(pids: Iterable[int], prefix: str = SHM_PATH + "/") -> int:
    """Bytes of the distinct files under /dev/shm that ``pids`` hold open (deleted or not)."""
    seen: Dict[Tuple[int, int], int] = {}
    for pid in pids:
        fd_dir = f"/proc/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            link = f"{fd_dir}/{fd}"
            try:
                if not os.readlink(link).startswith(prefix):
                    continue
                st = os.stat(link)
            except OSError:
                continue
            seen[(st.st_dev, st.st_ino)] = st.st_size
    return sum(seen.values())


def _vm_status(field: str) -> Optional[int]:
    """A ``VmHWM``/``VmRSS`` line of /proc/self/status, in bytes (None when unavailable)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux ≥ 4.0: write 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def current_rss() -> Optional[int]:
    return _vm_status("VmRSS")


def peak_rss() -> int:
    """Peak RSS of this process in bytes: VmHWM, else getrusage (KiB on Linux, bytes on macOS)."""
    hwm = _vm_status("VmHWM")
    if hwm is not None:
        return hwm
    import resource

    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss if sys.platform == "darwin" else maxrss * 1024


class _Sampler(threading.Thread):
    """Samples /dev/shm use (statvfs, every ``interval``) and the /dev/shm files held open by
    this process and its children (every ``fd_every`` samples), keeping the peaks."""

    def __init__(self, interval: float = SAMPLE_INTERVAL, fd_every: int = 4) -> None:
        super().__init__(name="dl-lint-shm-sampler", daemon=True)
        self.interval = interval
        self.fd_every = fd_every
        self.peak_used = 0
        self.peak_held = 0
        self.samples = 0
        self._stop_event = threading.Event()

    def sample(self) -> None:
        self.peak_used = max(self.peak_used, shm_used())
        if self.samples % self.fd_every == 0:
            pids = [os.getpid(), *child_pids()]
            self.peak_held = max(self.peak_held, shm_held_by(pids))
        self.samples += 1

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
        self.sample()


# ------------------------------------------------------------------------------ measuring


@dataclass(frozen=True)
class Measurement:
    """What one run measured (bytes), next to the estimate for the loader's own settings."""

    num_workers: int
    prefetch_factor: Optional[int]  # as the loader reports it (None without workers)
    pin_memory: bool
    batch_bytes: int
    batches: int  # batches iterated
    pause: float
    step_time: float
    shm_baseline_bytes: int
    shm_prefetched_bytes: int  # /dev/shm use after the pause, before the first batch (delta)
    shm_peak_bytes: int  # peak /dev/shm use while iterating (delta from the baseline)
    held_fd_peak_bytes: Optional[int]  # peak of /dev/shm files held open by the loader's processes
    rss_baseline_bytes: Optional[int]
    rss_peak_delta_bytes: int  # main process peak RSS minus the baseline
    rss_peak_is_reset: bool  # False: the peak is since process start (clear_refs unavailable)
    sharing_strategy: str
    torch_version: str
    estimate_prefetched_bytes: int  # W × P × batch
    estimate_shm_bytes: int  # (W × P + 1) × batch, 0 without workers
    samples: int

    @property
    def shm_ratio(self) -> Optional[float]:
        """Measured peak over estimate (None when nothing was expected in /dev/shm)."""
        return self.shm_peak_bytes / self.estimate_shm_bytes if self.estimate_shm_bytes else None

    def as_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["shm_ratio"] = self.shm_ratio
        return data


def batch_nbytes(batch: Any) -> int:
    """Sum of tensor ``nbytes`` in a batch, through tuples, lists, dicts and dataclass-free
    containers; other objects count 0."""
    import torch

    if isinstance(batch, torch.Tensor):
        return batch.nbytes
    if isinstance(batch, dict):
        return sum(batch_nbytes(v) for v in batch.values())
    if isinstance(batch, (tuple, list)):
        return sum(batch_nbytes(v) for v in batch)
    return 0


def measure_loader(
    loader: Any,
    batches: int = 20,
    pause: float = 2.0,
    step_time: float = 0.2,
    progress: Optional[Callable[[int], None]] = None,
    note: Optional[Callable[[str], None]] = None,
    shm_baseline: Optional[int] = None,
    rss_baseline: Optional[Tuple[Optional[int], bool]] = None,
) -> Measurement:
    """Iterate ``loader`` for up to ``batches`` batches, holding each for ``step_time`` seconds
    (a stand-in for the training step, so prefetched batches queue up as they do while a GPU
    trains), after waiting ``pause`` seconds for the workers to finish prefetching.

    ``shm_baseline`` / ``rss_baseline`` are taken before the loader was created when given (the
    CLI does that); otherwise now.
    """
    import torch
    import torch.multiprocessing

    from dl_lint.estimate import LoaderPlan

    if shm_stats() is None:
        raise MeasureError(f"{SHM_PATH} is not available: this measurement needs Linux shared memory")
    if shm_baseline is None:
        shm_baseline = shm_used()
    if rss_baseline is None:
        reset = reset_peak_rss()
        rss_baseline = (current_rss() if reset else peak_rss(), reset)
    rss_base, rss_reset = rss_baseline

    num_workers = int(getattr(loader, "num_workers", 0) or 0)
    prefetch_factor = getattr(loader, "prefetch_factor", None) if num_workers > 0 else None
    sampler = _Sampler()
    say = note or (lambda _msg: None)
    first_bytes: Optional[int] = None
    seen = 0
    iterator = iter(loader)  # starts the workers (before the sampler thread: fork-safe)
    try:
        sampler.start()
        if pause > 0:
            say(f"waiting {pause:g} s for the workers to prefetch")
            time.sleep(pause)
        prefetched = shm_used() - shm_baseline
        batch = None
        for _ in range(batches):
            try:
                batch = next(iterator)
            except StopIteration:
                break
            if first_bytes is None:
                first_bytes = batch_nbytes(batch)
            seen += 1
            if progress is not None:
                progress(seen)
            if step_time > 0:
                time.sleep(step_time)
        del batch
    finally:
        sampler.stop()
        del iterator  # shuts the workers down
    if first_bytes is None:
        raise MeasureError("the DataLoader produced no batch")
    rss_peak = peak_rss()
    plan = LoaderPlan(num_workers, prefetch_factor, first_bytes)
    strategy = torch.multiprocessing.get_sharing_strategy() if num_workers > 0 else "none (no workers)"
    return Measurement(
        num_workers=num_workers,
        prefetch_factor=prefetch_factor,
        pin_memory=bool(getattr(loader, "pin_memory", False)),
        batch_bytes=first_bytes,
        batches=seen,
        pause=pause,
        step_time=step_time,
        shm_baseline_bytes=shm_baseline,
        shm_prefetched_bytes=max(prefetched, 0),
        shm_peak_bytes=max(sampler.peak_used - shm_baseline, 0),
        held_fd_peak_bytes=sampler.peak_held if strategy == "file_descriptor" else None,
        rss_baseline_bytes=rss_base,
        rss_peak_delta_bytes=max(rss_peak - (rss_base or 0), 0),
        rss_peak_is_reset=rss_reset,
        sharing_strategy=strategy,
        torch_version=str(torch.__version__),
        estimate_prefetched_bytes=plan.prefetched_bytes(),
        estimate_shm_bytes=plan.shm_bytes(),
        samples=sampler.samples,
    )


def require_torch() -> Any:
    try:
        import torch
    except ImportError:
        raise MeasureError(
            "dl-lint measure needs torch (dl-lint's `runtime` extra), which is not installed: pip install torch"
        ) from None
    return torch


def _constructed_at(factory: Callable[[], Any], loader_class: type) -> Tuple[Any, Optional[Tuple[str, int]]]:
    """Call ``factory``; with it, the (file, line) of the call that constructed the loader it
    returned: the caller of the first ``__init__`` run on that object (a subclass's own
    ``__init__`` comes first, then torch's, through ``super()``)."""
    first: Dict[int, Tuple[str, int]] = {}

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code.co_name != "__init__":
            return
        this = frame.f_locals.get("self")
        if isinstance(this, loader_class) and id(this) not in first and frame.f_back is not None:
            caller = frame.f_back
            first[id(this)] = (caller.f_code.co_filename, caller.f_lineno)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        loader = factory()
    finally:
        sys.setprofile(previous)
    return loader, first.get(id(loader))


def record_measurement(where: Optional[Tuple[str, int]], target: str, measurement: "Measurement") -> Tuple[Optional[str], str]:
    """Write the measured batch bytes for the loader call at ``where`` into its project's
    ``dl-lint-measured.json`` (``dl_lint.remember``): (the file written, or None, and what
    happened, in words)."""
    from pathlib import Path

    from dl_lint import remember
    from dl_lint.analysis.module import analyze_source
    from dl_lint.analysis.project import find_root

    if where is None:
        return None, "not recorded: the call that built the loader was not seen"
    path, line = where
    if not os.path.isfile(path) or not path.endswith(".py"):
        return None, f"not recorded: the loader was built in {path}, not a project file"
    root = find_root(Path(path))
    if root is None:
        return None, f"not recorded: no project root above {path} (a pyproject.toml, setup.py or .git)"
    root_text = os.fspath(Path(root).absolute())
    if not os.path.abspath(path).startswith(root_text + os.sep):
        return None, f"not recorded: {path} is outside the project {root_text}"
    from dl_lint.files import read_module
    from dl_lint.reading import Refused
    from dl_lint.source import decode

    try:
        source = decode(read_module(path, None))
    except (Refused, SyntaxError, UnicodeDecodeError, LookupError) as exc:
        return None, f"not recorded: cannot read {path}: {exc}"
    try:
        calls = analyze_source(source, path).every_call()
    except Exception:  # noqa: BLE001 - a file dl-lint cannot analyse
        calls = []
    call = next((c for c in calls if c.rows[0] <= line <= c.rows[1]), None)
    if call is None:
        return None, f"not recorded: dl-lint sees no loader call at {path}:{line}"
    relative = os.path.relpath(os.path.abspath(path), root_text).replace(os.sep, "/")
    import torch

    entry = {
        "path": relative,
        "line": call.location.row,
        "scope": call.scope,
        "fingerprint": remember.fingerprint(source.splitlines(), call.rows, call.scope),
        "batch_bytes": measurement.batch_bytes,
        "target": target,
        "torch": torch.__version__.split("+")[0],
    }
    try:
        written = remember.write(root_text, entry)
    except OSError as exc:
        return None, f"not recorded: {exc}"
    return written, f"recorded {measurement.batch_bytes} bytes a batch for {relative}:{call.location.row} in {written}"


def load_factory(target: str, paths: Sequence[str] = ()) -> Callable[[], Any]:
    """``"package.module:function"`` (or ``module:obj.attr``), imported with the current
    directory and ``paths`` on sys.path. Importing runs the module's top-level code."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise MeasureError(f"expected MODULE:FUNCTION such as train:make_loader, got {target!r}")
    for path in reversed([os.getcwd(), *paths]):
        path = os.path.abspath(path)
        if path not in sys.path:
            sys.path.insert(0, path)
    importlib.invalidate_caches()  # the module may have been written just now
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        if getattr(exc, "name", None) and module_name.startswith(exc.name):  # the module itself
            raise MeasureError(f"cannot import {module_name!r}: {exc} (add its folder with --path)") from None
        raise MeasureError(f"importing {module_name!r} failed: {type(exc).__name__}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - user code; say what failed in one line
        raise MeasureError(f"importing {module_name!r} failed: {type(exc).__name__}: {exc}") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise MeasureError(f"{module_name!r} has no attribute {attr!r}") from None
    if not callable(obj):
        raise MeasureError(f"{target} is not callable; expected a function that returns a DataLoader")
    return obj


def run(
    target: str,
    paths: Sequence[str] = (),
    batches: int = 20,
    pause: float = 2.0,
    step_time: float = 0.2,
    progress: Optional[Callable[[int], None]] = None,
    note: Optional[Callable[[str], None]] = None,
    constructed: Optional[list] = None,
) -> Measurement:
    """Import ``target``, call it, check it returned a DataLoader, and measure it. ``constructed``
    receives (file, line) of the call that built the loader (None when not seen)."""
    torch = require_torch()
    if shm_stats() is None:
        raise MeasureError(f"{SHM_PATH} is not available: this measurement needs Linux shared memory")
    factory = load_factory(target, paths)
    shm_baseline = shm_used()
    reset = reset_peak_rss()
    rss_baseline = (current_rss() if reset else peak_rss(), reset)
    try:
        loader, where = _constructed_at(factory, torch.utils.data.DataLoader)
    except Exception as exc:  # noqa: BLE001 - user code
        raise MeasureError(f"calling {target}() failed: {type(exc).__name__}: {exc}") from None
    if not isinstance(loader, torch.utils.data.DataLoader):
        raise MeasureError(f"{target}() returned {type(loader).__name__}, not a torch.utils.data.DataLoader")
    if constructed is not None:
        constructed.append(where)
    try:
        return measure_loader(loader, batches, pause, step_time, progress, note, shm_baseline, rss_baseline)
    except MeasureError:
        raise
    except Exception as exc:  # noqa: BLE001 - user code runs in the workers and the dataset
        raise MeasureError(f"iterating the DataLoader failed: {type(exc).__name__}: {exc}") from None
