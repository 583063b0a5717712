import os

from dl_lint import inflight
from dl_lint.model import Related, Severity
from dl_lint.rules.base import Rule, shm_excess


class ContainerSharedMemory(Rule):
    code = "DL104"
    name = "container-shared-memory"
    severity = Severity.WARNING
    summary = "A loader's batches in flight exceed the /dev/shm the project's container definitions leave (Docker's 64 MiB by default)."
    references = (
        "https://docs.docker.com/reference/cli/docker/container/run/ (docker/cli docs/reference/run.md, "
        "Runtime constraints on resources: --shm-size, \"If you omit the size entirely, the system uses 64m\")",
        "https://docs.docker.com/reference/compose-file/services/#shm_size (docker/docs content/reference/compose-file/services.md)",
        "https://github.com/pytorch/pytorch/issues/5040",
        "containerd's CRI plugin: defaultShmSize = int64(1024 * 1024 * 64), the /dev/shm of a Kubernetes pod",
    )
    doc = """
## What it does
Reports a DataLoader with workers whose batches in shared memory exceed the `/dev/shm` of the
containers the repository defines for its code, at the loader, with the estimate and the
container definition as a related location.

The containers are read at the project root (`dl_lint/analysis/containers.py`): compose files
(`docker-compose*.yml`, `compose*.yaml`; the service-level `shm_size` and `ipc`, not
`build.shm_size`), Kubernetes manifests (a pod's containers, and whether an `emptyDir` with
`medium: Memory` is mounted at `/dev/shm`, or `hostIPC: true`), `devcontainer.json` (`runArgs`;
comments allowed), and shell scripts and Makefiles (`Makefile`, `GNUmakefile`, `*.mk`) whose
commands or recipes call `docker run` (`docker container run`, `nvidia-docker run`, `podman run`;
`--shm-size`, `--ipc=host`), in the root and in `docker/`, `.devcontainer/`, `k8s/`,
`kubernetes/`, `deploy/` and `scripts/`. A Makefile's `$(VAR)` is the value the Makefile assigns
it once and unconditionally (`SHM = 8g`); one from the environment, the command line, `?=`, a
conditional or an `include` is unknown. Only definitions that run the project's code count (a
compose service that builds or mounts the repository or runs Python, a pod container or
`docker run` that runs Python or mounts the working folder, a devcontainer). Each leaves 64 MiB
unless it sets a size; `ipc: host`, a memory-backed mount at `/dev/shm`, or anything it cannot
read lifts the limit (silent). With
several definitions, the largest `/dev/shm` is compared.

The bytes are the memory estimator's: `(num_workers × prefetch_factor + 1) × batch bytes`, with
a batch's bytes from the one source DL101 and `dl-lint estimate` read (a `# dl-lint:
batch-bytes=` comment, a figure `dl-lint measure` recorded, the `batch-bytes` setting, or
estimated from the code; see DL101). With `pin_memory` possibly on, a thread copies batches out
of shared memory as they arrive, so only one batch is counted. It is silent when the bytes are
unknown, without workers, and when the repository has no such definition: a Dockerfile alone
cannot set shared memory. Where DL104 fires, DL101 does not report the same loader.

## Why is this bad?
Workers build every batch in shared memory (`/dev/shm` on Linux) and hand it to the main
process from there. Docker gives a container 64 MiB of it unless told otherwise ("If you omit
the size entirely, the system uses 64m", docker's run reference), and Kubernetes pods get the
container runtime's same 64 MiB. When the batches in flight do not fit, a worker fails: torch
2.13 raises "unable to allocate shared memory(shm) for file ...: No space left on device" in the
worker; older versions and other paths die with "DataLoader worker (pid N) is killed by signal:
Bus error" (pytorch/pytorch#5040 and many more), often only after the job was built and shipped.
Run with torch 2.13 in a 64 MiB /dev/shm (tests/test_shared_memory.py), the example's loader
fails that way, and runs with the size the message suggests.

## Example
```yaml
# docker-compose.yml
services:
  train:
    build: .
    command: python train.py
```
```python
# train.py: 4 workers × prefetch 2 of 64 × 3×224×224 float32 images (37 MiB)
loader = DataLoader(ImageFolder(root, transform=crop_to_tensor), batch_size=64, num_workers=4)
```

## Use instead
Give the container the shared memory the loader needs (or the host's):
```yaml
services:
  train:
    build: .
    shm_size: "1gb"      # or: ipc: host
```
`docker run --shm-size=1g` (or `--ipc=host`) in a script or a Makefile recipe; in Kubernetes an
`emptyDir` with `medium: Memory` mounted at `/dev/shm`; in devcontainer.json
`"runArgs": ["--shm-size=1g"]`.
Or hold fewer batches: fewer workers, `prefetch_factor=1`, smaller batches.

## Torch versions
All versions (workers share batches through shared memory).
"""

    def check_call(self, call, ctx):
        excess = shm_excess(call, ctx)
        if excess is None:
            return
        from dl_lint.config import format_size

        shm = excess.definition.shm
        definition = excess.definition
        least = "at least " if excess.estimated.lower else ""  # parts of the sample not sized: a lower bound
        batch = f"{least}{format_size(excess.batch_bytes)}"
        if excess.pinned:
            message = (
                f"One batch of {batch} does not fit the {format_size(shm)} of /dev/shm the container leaves: "
                "the workers fail."
            )
            held = f"one batch of {batch}"
        else:
            shown = "prefetch_factor 2" if excess.prefetch is None else f"prefetch_factor {excess.prefetch}"
            message = (
                f"{excess.workers} workers × {shown} hold {least}{format_size(excess.figure)} in /dev/shm, but the "
                f"container leaves {format_size(shm)}: the workers fail."
            )
            held = f"({excess.batches - 1} + 1) × {batch} = {least}{format_size(excess.figure)}"
        detail = []
        if excess.estimated.detail():
            detail.append(excess.estimated.detail())  # where the batch's bytes come from
        detail.append(
            f"The loader holds {held} in shared memory; {_label(definition)} (cited) leaves {format_size(shm)} "
            f"({definition.how}). DataLoader workers build every batch there, and one that runs out fails: "
            "\"unable to allocate shared memory(shm) ...: No space left on device\" (torch 2.13), or "
            "\"DataLoader worker (pid N) is killed by signal: Bus error\"."
        )
        if excess.pinned:
            detail.append("pin_memory may copy batches out of shared memory as they arrive, so only one is counted.")
        detail.append(f"Fix the container: {_container_fix(definition, excess.figure)}.")
        workers, prefetch = inflight.suggest(excess.workers, ctx.settings.max_inflight_batches, excess.batch_bytes, shm)
        if not excess.pinned and 0 < workers and (workers, prefetch) != (excess.workers, excess.prefetch or 2):
            needed = format_size(inflight.peak_bytes(workers, prefetch, excess.batch_bytes))
            detail.append(
                f"Or hold fewer batches: num_workers={workers}, prefetch_factor={prefetch} needs {needed}."
            )
        else:
            detail.append("Or use num_workers=0 (batches stay in the main process) or smaller batches.")
        note = f"{_label(definition)}: {format_size(shm)} of /dev/shm ({definition.how})"
        related = (Related(os.path.abspath(definition.path), definition.line, 1, note),)
        at = "num_workers" if call.given("num_workers") else None
        yield self.finding(call, at, message, detail=" ".join(detail), related=related)


def _label(definition) -> str:
    """The container definition in words, without its file (cited as a related location, whose
    path reporters print as they print paths): "service train", "docker run"."""
    name = os.path.basename(definition.path)
    for suffix in (f" of {name}", f" in {name}"):
        if definition.what.endswith(suffix):
            return definition.what[: -len(suffix)]
    return "the dev container" if name == "devcontainer.json" else "the container definition"


def _container_fix(definition, needed: int) -> str:
    """What to write in this kind of definition, with a size that fits (rounded up to 256 MiB)."""
    step = 256 * 1024**2
    size = -(-needed // step) * step
    mib = size // 1024**2
    text = f"{mib // 1024}g" if mib % 1024 == 0 else f"{mib}m"
    if definition.what.startswith("service "):
        return f'shm_size: "{text}" (or ipc: host) on the service'
    if definition.what.startswith("container "):
        return f"an emptyDir with medium: Memory (sizeLimit: {text.upper()}i) mounted at /dev/shm"
    if definition.what.startswith(("docker run", "podman run")):
        tool = definition.what.split()[0]
        return f"{tool} run --shm-size={text} (or --ipc=host)"
    return f'"runArgs": ["--shm-size={text}"] (or "--ipc=host")'


RULE = ContainerSharedMemory()
