"""Program-wide signals read from raw bytes: does anything move batches to an accelerator?

DL102 (pin_memory without an accelerator) must be precise: in real projects the loader is built
in one module and moved to the GPU in another, so evidence anywhere in the run counts, and the
patterns are deliberately generous. Reading bytes (not parsing) keeps this cheap enough to run
over every file.
"""

from __future__ import annotations

import re

ACCELERATOR_EVIDENCE = re.compile(
    rb"""
    \.cuda\s*\(                                  # tensor.cuda()
    | \btorch\.cuda\b | \bcuda\.is_available     # torch.cuda.*
    | ["']cuda                                   # "cuda", "cuda:0"
    | \btorch\.accelerator\b
    | \bnon_blocking\s*=\s*True
    | \.to\s*\([^)]*\bdevice\b                   # .to(device), .to(self.device)
    | \.to\s*\(\s*(?:args|cfg|config|opt|self)\.  # .to(args.gpu), .to(self.rank)
    | \bdevice\s*=\s*(?!\s*["']cpu["'])          # device=... anything but the literal "cpu"
    | \bpin_memory_device\s*=\s*["'](?!["'])     # an explicit pin device
    | \b(?:pytorch_)?lightning\b | \baccelerate\b | \bAccelerator\b
    | \bdeepspeed\b | \btorch_xla\b | \bxla\b | \bmps\b | \bxpu\b | \bnpu\b | \bhpu\b | \bmlu\b
    | \bDistributedDataParallel\b | \bDataParallel\b | \bFSDP\b | \bfully_shard\b
    """,
    re.VERBOSE,
)


# The program starts workers with spawn or forkserver (DL202 becomes an error, DL203 applies).
SPAWN_EVIDENCE = re.compile(rb"""set_start_method\s*\(\s*["'](?:spawn|forkserver)|get_context\s*\(\s*["'](?:spawn|forkserver)""")

# One process per accelerator: DDP, torchrun, accelerate, multi-device Lightning (DL301).
DISTRIBUTED_EVIDENCE = re.compile(
    rb"""
    \binit_process_group\b | \bDistributedSampler\b | \bAccelerator\s*\( | \bLOCAL_RANK\b
    | \bDistributedDataParallel\b | \bdestroy_process_group\b | \btorchrun\b
    | strategy\s*=\s*["'](?:ddp|fsdp|deepspeed)
    """,
    re.VERBOSE,
)

SIGNALS = {
    "accelerator": ACCELERATOR_EVIDENCE,
    "spawn": SPAWN_EVIDENCE,
    "distributed": DISTRIBUTED_EVIDENCE,
}


def has_accelerator_evidence(data: bytes) -> bool:
    return ACCELERATOR_EVIDENCE.search(data) is not None


def signals_in(data: bytes) -> frozenset:
    """Which program-wide signals the bytes of one file show."""
    return frozenset(kind for kind, pattern in SIGNALS.items() if pattern.search(data))
