"""Program-wide signals read from raw bytes: does anything move batches to an accelerator?

DL102 (pin_memory without an accelerator) must be precise: in real projects the loader is built
in one module and moved to the GPU in another, so evidence anywhere in the run counts, and the
patterns are deliberately generous. Reading bytes (not parsing) keeps this cheap enough to run
over every file.
"""

from __future__ import annotations

import re
from typing import Optional

ACCELERATOR_EVIDENCE = (
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
    | ^\s*(?:from|import)\s+composer\b           # composer's Trainer moves every batch
    """,
    re.VERBOSE | re.MULTILINE,
)
# composer (mosaicml/composer 6405188805a0, read in its source): ``Trainer`` moves each batch
# with ``state.device.batch_to_device`` in its train and eval loops (trainer.py), on the GPU
# device whenever one is available.


# The program starts workers with spawn or forkserver (DL202 becomes an error, DL203 applies).
SPAWN_EVIDENCE = (rb"""set_start_method\s*\(\s*["'](?:spawn|forkserver)|get_context\s*\(\s*["'](?:spawn|forkserver)""", 0)

# The program asks for fork explicitly (then the platform's default does not decide the start
# method: DL202/DL203 are not certain).
FORK_EVIDENCE = (rb"""set_start_method\s*\(\s*["']fork["']|get_context\s*\(\s*["']fork["']""", 0)

# One process per accelerator: DDP, torchrun, accelerate, multi-device Lightning (DL301).
DISTRIBUTED_EVIDENCE = (
    rb"""
    \binit_process_group\b | \bDistributedSampler\b | \bAccelerator\s*\( | \bLOCAL_RANK\b
    | \bDistributedDataParallel\b | \bdestroy_process_group\b | \btorchrun\b
    | strategy\s*=\s*["'](?:ddp|fsdp|deepspeed)
    """,
    re.VERBOSE,
)

# The program changes torch's default device (then a tensor made without ``device=`` may be on
# the GPU: DL306 keeps exempting a TensorDataset of such tensors).
DEFAULT_DEVICE_EVIDENCE = (rb"""set_default_device\s*\(|set_default_tensor_type\s*\(|with\s+torch\.device\s*\(""", 0)

# Each signal is (pattern source, flags), compiled alternative by alternative when first asked
# for (``_Alternatives``); compiling the accelerator pattern as a whole cost 6 ms per process
# at import, for a regex that was never searched.
SIGNALS = {
    "accelerator": ACCELERATOR_EVIDENCE,
    "spawn": SPAWN_EVIDENCE,
    "fork": FORK_EVIDENCE,
    "distributed": DISTRIBUTED_EVIDENCE,
    "default-device": DEFAULT_DEVICE_EVIDENCE,
}


class _Alternatives:
    r"""``pattern.search(data) is not None``, answered alternative by alternative.

    These patterns run over every file of the project. Python's ``re`` tries every alternative
    at every byte when they begin with ``\b`` (about 0.2 s per MB for ACCELERATOR_EVIDENCE);
    an alternative that begins with a literal is found with a fast scan instead. So each
    top-level alternative ``\bword...`` is searched as ``word...`` and the boundary checked
    by hand (the byte before is not a word character), which is what ``\b`` means before a
    word character. Same answers; a pattern this cannot split is searched as it is.
    """

    def __init__(self, source: bytes, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self.whole: "Optional[re.Pattern[bytes]]" = None  # compiled only if it cannot be split
        self.parts = None
        try:
            parts = []
            for alternative in _split_alternatives(source, bool(flags & re.VERBOSE)):
                boundary = alternative.startswith(b"\\b") and re.match(rb"\\b[A-Za-z_]", alternative)
                body = alternative[2:] if boundary else alternative
                parts.append((re.compile(body, flags), bool(boundary)))
            self.parts = parts
        except (re.error, ValueError):
            self.parts = None

    def search(self, data: bytes) -> bool:
        if self.parts is None:
            if self.whole is None:
                self.whole = re.compile(self.source, self.flags)
            return self.whole.search(data) is not None
        for regex, boundary in self.parts:
            match = regex.search(data)
            while match is not None:
                start = match.start()
                if not boundary or start == 0 or not _is_word(data[start - 1]):
                    return True
                match = regex.search(data, start + 1)
        return False

    def first(self, data: bytes) -> Optional[int]:
        """The offset of the earliest match (None: none); asked only where a finding cites it."""
        if self.parts is None:
            if self.whole is None:
                self.whole = re.compile(self.source, self.flags)
            match = self.whole.search(data)
            return match.start() if match is not None else None
        found: Optional[int] = None
        for regex, boundary in self.parts:
            match = regex.search(data)
            while match is not None:
                start = match.start()
                if not boundary or start == 0 or not _is_word(data[start - 1]):
                    found = start if found is None else min(found, start)
                    break
                match = regex.search(data, start + 1)
        return found


def _is_word(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122  # re's \w for bytes (ASCII)


def _split_alternatives(source: bytes, verbose: bool):
    """The top-level alternatives of a pattern (comments and layout removed when verbose)."""
    parts, current, depth, i, in_class = [], bytearray(), 0, 0, False
    while i < len(source):
        c = source[i : i + 1]
        if c == b"\\":
            current += source[i : i + 2]
            i += 2
            continue
        if in_class:
            in_class = c != b"]"
        elif c == b"[":
            in_class = True
        elif verbose and c == b"#":
            while i < len(source) and source[i : i + 1] != b"\n":
                i += 1
            continue
        elif verbose and c.isspace():
            i += 1
            continue
        elif c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
        elif c == b"|" and depth == 0:
            parts.append(bytes(current))
            current = bytearray()
            i += 1
            continue
        current += c
        i += 1
    parts.append(bytes(current))
    if depth != 0 or in_class or not all(parts):
        raise ValueError("cannot split this pattern")
    return parts


_FAST: dict = {}  # kind -> _Alternatives, compiled when first asked for


# The answers for the last files asked about, by (id of the bytes, kind, question), with the
# bytes kept to check identity: every loader of a file asks, and each search reads the file.
_ASKED: dict = {}
_ASKED_MAX = 16  # entries keep their bytes alive: a few files, not a project


def _remembered(data: bytes, kind: str, question: str, answer):
    key = (id(data), kind, question)
    found = _ASKED.get(key)
    if found is not None and found[0] is data:
        return found[1]
    if len(_ASKED) >= _ASKED_MAX:
        _ASKED.clear()
    value = answer()
    _ASKED[key] = (data, value)
    return value


def has_signal(data: bytes, kind: str) -> bool:
    """Whether the bytes of one file show a program-wide signal ("accelerator", "spawn", "fork",
    "distributed")."""
    return _remembered(data, kind, "has", lambda: _fast(kind).search(data))


def _fast(kind: str) -> "_Alternatives":
    fast = _FAST.get(kind)
    if fast is None:
        fast = _FAST[kind] = _Alternatives(*SIGNALS[kind])
    return fast


def signal_line(data: bytes, kind: str) -> Optional[int]:
    """The line (1-based) of the first evidence of a signal in one file's bytes, None if none:
    the line a finding cites when the signal makes it certain (``set_start_method("spawn")``)."""

    def line() -> Optional[int]:
        at = _fast(kind).first(data)
        return None if at is None else data.count(b"\n", 0, at) + 1

    return _remembered(data, kind, "line", line)


class Evidence:
    """Where a program-wide signal was found for a module: ``scope`` is "module" (its own
    bytes), "import" (a module it imports) or "importer" (a module importing it, directly or
    not: one of possibly several entry points); ``path`` (absolute) and ``line``."""

    __slots__ = ("scope", "path", "line")

    def __init__(self, scope: str, path: str, line: int) -> None:
        self.scope = scope
        self.path = path
        self.line = line

    def __repr__(self) -> str:
        return f"Evidence({self.scope!r}, {self.path!r}, {self.line})"


def has_accelerator_evidence(data: bytes) -> bool:
    return has_signal(data, "accelerator")
