"""Worker processes for the analysis stage (see ``dl_lint.pipeline``).

The candidates are shared out between this process and ``jobs - 1`` forked children as they
go: every process takes the next one, largest first, from one queue (``_Queue``), so the
processes finish their shares together. Two rounds:

1. Each process parses the files it takes and summarises every module of them (a summary
   needs nothing from other modules); what it took is its share. The processes then exchange
   the summaries through pipes, so that a module one share imports from the other is never
   parsed twice.
2. Each process analyses and judges its share (the trees of round 1 are still in memory); a
   child sends back, pickled, what the run needs: each file's diagnostics, factory names and
   dependencies, the facts of files that define factories (for the call-site phase), and the
   summaries of modules it parsed on demand (for the results cache).

A module outside the shares that several processes need (a package's ``__init__``, a big
utilities module their files import) is summarised by the first process that asks, and read
by the others (``SharedSummaries``).

When a share is larger than the memory budget for kept trees, round 1 is skipped (each
process summarises what it needs as it goes; a module imported by both shares is then parsed
by both, counted in ``Project.parses``). Forking needs no re-import and no re-reading of what
the parent already holds; where ``fork`` is not available (Windows, or macOS where it is
unsafe), everything runs in this process.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from dl_lint.model import Diagnostic


def fork_available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux")


def shares(sizes: Sequence[int], jobs: int) -> List[List[int]]:
    """Indices split into ``jobs`` groups of about equal total size (largest first, each to the
    lightest group), each group in its original order."""
    groups: List[List[int]] = [[] for _ in range(jobs)]
    totals = [0] * jobs
    for index in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        lightest = totals.index(min(totals))
        groups[lightest].append(index)
        totals[lightest] += sizes[index]
    return [sorted(group) for group in groups if group]


def parse_cost(data: bytes) -> int:
    """What parsing and summarising a module costs, roughly: its punctuation (calls, arguments,
    assignments, attributes) predicts the time better than its size, which docstrings and
    comments inflate (on accelerate's candidates, shares equal in bytes differed by 20%)."""
    return data.count(b"(") + data.count(b",") + data.count(b"=") + data.count(b".") + data.count(b":")


class _Child:
    def __init__(self, pid: int, reader: int, writer: int) -> None:
        self.pid = pid
        self.reader = reader
        self.writer = writer
        self.keys: set = set()


class _Queue:
    """The candidates' indices, costliest first, in a pipe that every process reads: each read
    takes the next one, so a process that finishes a file early takes more (with shares fixed
    in advance, one process waited 10-90 ms for the other on accelerate and Lightning: the cost
    estimate misses by that much). A read of 4 bytes from a pipe that holds only whole 4-byte
    tokens takes one token (Linux reads a pipe under its lock). None when the pipe cannot hold
    them all: then the shares are fixed in advance."""

    TOKENS = 16000  # a pipe holds 64 KiB on Linux

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @classmethod
    def create(cls, order: Sequence[int]) -> "Optional[_Queue]":
        if len(order) > cls.TOKENS:
            return None
        try:
            reader, writer = os.pipe()
        except OSError:
            return None
        data = memoryview(struct.pack(f"<{len(order)}I", *order))
        try:
            os.set_blocking(writer, False)  # a smaller pipe must not block the run: fixed shares then
            while data:
                data = data[os.write(writer, data):]
        except OSError:
            os.close(reader)
            return None
        finally:
            os.close(writer)
        return cls(reader)

    def take(self) -> Optional[int]:
        try:
            token = os.read(self.fd, 4)
            while token and len(token) < 4:
                more = os.read(self.fd, 4 - len(token))
                if not more:
                    return None
                token += more
        except OSError:
            return None
        return struct.unpack("<I", token)[0] if token else None

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


class _Share:
    """What one process works on: the indices it takes from the queue as it goes, or a share
    fixed in advance; ``taken`` lists them in the order they were taken."""

    def __init__(self, queue: "Optional[_Queue]", fixed: Sequence[int] = ()) -> None:
        self.queue = queue
        self.fixed = list(fixed)
        self.taken: List[int] = []

    def __iter__(self):
        if self.queue is None:
            for index in self.fixed:
                self.taken.append(index)
                yield index
            return
        while True:
            index = self.queue.take()
            if index is None:
                return
            self.taken.append(index)
            yield index


def analyse_in_workers(
    run: Any, candidates: Sequence[Any], jobs: int, out: List[Diagnostic], analyse_and_judge: Callable
) -> int:
    """Analyse and judge ``candidates`` in this process and ``jobs - 1`` children, with
    ``analyse_and_judge(project, run, files)`` (``dl_lint.pipeline``); how many processes took
    part (1, and nothing done, when processes cannot be forked here)."""
    if not fork_available():
        return 1
    # The queue's order needs only the size (the processes even out what it misjudges); the
    # finer estimate, five counts over every byte (5 ms on accelerate, before the fork), is
    # for shares fixed in advance.
    sizes = [len(f.data) for f in candidates]
    queue = _Queue.create(sorted(range(len(candidates)), key=lambda i: -sizes[i]))
    groups = shares(sizes if queue is not None else [parse_cost(f.data) for f in candidates], jobs)
    if len(groups) < 2:
        if queue is not None:
            queue.close()
        return 1
    project = run.project
    two_rounds = max(sum(sizes[i] for i in g) for g in groups) <= project.budget
    project.shared = SharedSummaries.create()
    run.helpers = Helpers([], project)  # closed by the run, whatever happens here
    children: List[_Child] = []
    for group in groups[1:]:
        try:
            to_parent = os.pipe()
            to_child = os.pipe()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
        except OSError:
            if queue is None:
                groups[0].extend(group)  # cannot fork: this process takes the share
            continue
        if pid == 0:  # the child: its share, then exit without the interpreter's cleanup
            status = 1
            try:
                os.close(to_parent[0])
                os.close(to_child[1])
                _child(project, run, candidates, _Share(queue, group), to_parent[1], to_child[0], two_rounds, analyse_and_judge)
                status = 0
            finally:
                os._exit(status)
        os.close(to_parent[1])
        os.close(to_child[0])
        children.append(_Child(pid, to_parent[0], to_child[1]))
    share = _Share(queue, sorted(groups[0]))
    own: Sequence[Any] = _Files(candidates, share)
    indices = share.taken  # round 2's files, by position: taken as it goes (one round)
    if two_rounds and children:
        mine = _summarise(project, run, own)
        indices = sorted(share.taken)  # round 2 in the files' order, as in one process
        own = [candidates[i] for i in indices]
        theirs = [_receive(child.reader) for child in children]
        for index, child in enumerate(children):
            others = dict(mine)
            for position, answer in enumerate(theirs):
                if position != index and answer is not None:
                    others.update(answer["summaries"])
            try:
                _send(child.writer, others)
            except OSError:  # the child is gone: its share is redone below
                pass
        for answer in theirs:
            if answer is not None:
                project.adopt(answer["summaries"], {})
    done = set()
    for local, diags, factories, seen, used in analyse_and_judge(project, run, own):
        index = indices[local]
        done.add(index)
        out.extend(diags)
        run.finish(candidates[index], diags, factories, seen, used)
    if queue is not None:
        queue.close()
    helpers = []
    for child in children:
        results = _receive(child.reader)
        if results is None:  # a broken child: its share is redone below
            _end(child)
            continue
        for index, diags, factories, seen, used, facts in results["files"]:
            file = candidates[index]
            done.add(index)
            if facts is not None:
                file.facts = facts
            out.extend(diags)
            run.finish(file, diags, factories, set(seen), set(used))
            child.keys.add(file.key)
        project.adopt(results["summaries"], results["parses"], results.get("names") or {})
        helpers.append(child)  # it waits: it may judge the call sites of its share
    left = [candidates[i] for i in range(len(candidates)) if i not in done]
    for local, diags, factories, seen, used in analyse_and_judge(project, run, left):
        out.extend(diags)
        run.finish(left[local], diags, factories, seen, used)
    run.helpers.children = helpers
    return 1 + len(children)


class _Files:
    """The files of a ``_Share``, in the order it hands them out."""

    def __init__(self, candidates: Sequence[Any], share: _Share) -> None:
        self.candidates = candidates
        self.share = share

    def __iter__(self):
        return (self.candidates[index] for index in self.share)


class Helpers:
    """The children after round 2, each holding the trees of its share: the call-site phase
    (``dl_lint.judge.judge_call_sites``) judges the calls in a share where its trees are."""

    def __init__(self, children: List[_Child], project: Any = None) -> None:
        self.children = children
        self.project = project

    def share_of(self, key: str):
        return next((child for child in self.children if key in child.keys), None)

    def send(self, tasks: Dict[int, Tuple[List[str], List[str], Dict[str, Any]]]):
        """Send each child its callers (keys), the factory files (keys) and their facts, so that
        they judge while this process judges its own share; what ``collect`` takes."""
        sent, failed = [], []
        for child in self.children:
            task = tasks.get(id(child))
            if task is None:
                continue
            try:
                _send(child.writer, task)
                sent.append((child, task))
            except OSError:  # the child is gone
                failed.append(task)
        return sent, failed

    def collect(self, pending):
        """[(diagnostics, {caller: (touched, uses, callees)})] from the children that answered
        (``judge.judge_each``), and the tasks of those that did not (the caller does them)."""
        sent, failed = pending
        answers = []
        for child, task in sent:
            answer = _receive(child.reader)
            if answer is None:
                failed.append(task)
            else:
                each = {k: (set(t), set(u), set(c)) for k, (t, u, c) in answer["each"].items()}
                answers.append((answer["diags"], each))
        return answers, failed

    def close(self, wait: bool = True) -> None:
        """End the children (each has sent its last answer, or gets nothing more to do) and
        remove the shared summaries."""
        for child in self.children:
            _end(child, wait)
        self.children = []
        shared = getattr(self.project, "shared", None)
        if shared is not None:
            self.project.shared = None
            shared.remove()


class SharedSummaries:
    """Summaries of modules outside the shares, made once for all processes: without it, both
    processes parsed accelerate's 156 KB ``utils/dataclasses.py`` in round 2. A folder of the
    run (in /dev/shm where there is one, else the temporary folder; removed at the end), two
    files per module: ``NAME.claim``, created exclusively by the first process that needs the
    module (its pid inside), and ``NAME.summary``, the pickled summary (None: the module cannot
    be read or parsed), written whole and then renamed. A process that finds a claim waits for
    the summary; if the claimer is gone or takes longer than ``WAIT`` seconds, it parses the
    module itself (the same summary: only time is lost)."""

    WAIT = 5.0

    def __init__(self, folder: str) -> None:
        self.folder = folder

    @classmethod
    def create(cls) -> "Optional[SharedSummaries]":
        # os.mkdir with a random name, as tempfile.mkdtemp does: importing tempfile (and the
        # random and shutil modules it brings) cost 4 ms before the fork, a twentieth of a run.
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        if base is None:
            base = os.environ.get("TMPDIR") or "/tmp"
        for _ in range(10):
            folder = os.path.join(base, f"dl-lint-{os.getpid()}-{os.urandom(6).hex()}")
            try:
                os.mkdir(folder, 0o700)
                return cls(folder)
            except FileExistsError:
                continue
            except OSError:
                return None
        return None

    def _name(self, key: str, module: str) -> str:
        # Only forked processes share the folder, and they share the string hash's seed with
        # the parent: hash() names a module alike in all of them (no hashlib import).
        return os.path.join(self.folder, f"{hash(key) & 0xFFFFFFFFFFFFFFFF:016x}{hash(module) & 0xFFFFFFFF:08x}")

    def take(self, key: str, module: str) -> Tuple[bool, Any]:
        """(True, summary) when another process made it; (False, None) when this process is
        to make it (then ``give`` follows, whatever happens)."""
        name = self._name(key, module)
        made = self._read(name)
        if made is not None:
            return made
        try:
            fd = os.open(f"{name}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return self._wait(name)
        except OSError:
            return False, None
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)
        return False, None

    def _wait(self, name: str) -> Tuple[bool, Any]:
        import time

        deadline = time.monotonic() + self.WAIT
        delay = 0.0005
        while time.monotonic() < deadline:
            made = self._read(name)
            if made is not None:
                return made if made[0] else (False, None)
            if not _claimer_alive(f"{name}.claim"):
                return False, None
            time.sleep(delay)
            delay = min(delay * 2, 0.01)
        return False, None

    @staticmethod
    def _read(name: str) -> Optional[Tuple[bool, Any]]:
        """(True, summary) if it was published, (False, None) if it cannot be read, None if it
        is not there (yet)."""
        try:
            with open(f"{name}.summary", "rb") as handle:
                return True, pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - unreadable: make it here
            return False, None

    def give(self, key: str, module: str, summary: Any) -> None:
        name = self._name(key, module)
        temporary = f"{name}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as handle:
                pickle.dump(summary, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, f"{name}.summary")
        except Exception:  # noqa: BLE001 - the others make it themselves
            try:
                os.remove(temporary)
            except OSError:
                pass

    def remove(self) -> None:
        # One flat folder of files: removed without importing shutil (4 ms at the end of a run).
        try:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        pass
            os.rmdir(self.folder)
        except OSError:
            pass


def _claimer_alive(claim: str) -> bool:
    """Whether the process that claimed a module may still publish it (unknown: yes; a zombie
    counts as alive, and the wait's deadline covers it)."""
    try:
        with open(claim, "rb") as handle:
            text = handle.read()
        pid = int(text) if text else None
    except (OSError, ValueError):
        return True
    if pid is None:
        return True  # created, pid not written yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _end(child: _Child, wait: bool = True) -> None:
    """Tell a child there is nothing more, and (``wait``) wait for it to exit."""
    for fd in (child.writer, child.reader):
        try:
            os.close(fd)
        except OSError:
            pass
    if not wait:
        return
    try:
        os.waitpid(child.pid, 0)
    except OSError:
        pass


def _summarise(project: Any, run: Any, files: Sequence[Any]) -> Dict[str, Tuple[Any, Any]]:
    """Round 1: parse and summarise each file of the share (kept for round 2); the summaries."""
    from dl_lint.judge import parse_only

    made: Dict[str, Tuple[Any, Any]] = {}
    for file in files:
        analysis = parse_only(file, project, run.hashes.get(file.key))
        if analysis is not None:
            made[file.key] = (run.hashes.get(file.key), analysis.summary())
    return made


def _child(
    project: Any,
    run: Any,
    candidates: Sequence[Any],
    share: _Share,
    writer: int,
    reader: int,
    two_rounds: bool,
    analyse_and_judge: Callable,
) -> None:
    files: Sequence[Any] = _Files(candidates, share)
    indices = share.taken
    if two_rounds:
        summaries = _summarise(project, run, files)
        indices = sorted(share.taken)
        files = [candidates[i] for i in indices]
        _send(writer, {"summaries": summaries})
        others = _receive(reader)
        if others:
            project.adopt(others, {})
    project.new_summaries = {}  # those of round 1 are the parent's already
    results = []
    for local, diags, factories, seen, used in analyse_and_judge(project, run, files):
        index = indices[local]
        facts = candidates[index].facts if factories else None  # the call-site phase needs them
        results.append((index, diags, factories, sorted(seen), sorted(used), facts))
    if share.queue is not None:
        share.queue.close()
    _send(
        writer,
        {"files": results, "summaries": project.new_summaries, "parses": project.parses, "names": project.name_answers()},
    )
    task = _receive(reader)  # the call sites of this share, or the end (None)
    if task is not None:
        _send(writer, judge_share(project, run, *task))
    os.close(writer)
    os.close(reader)


def judge_share(project: Any, run: Any, callers: List[str], factory_keys: List[str], facts: Dict[str, Any]):
    """The call sites in ``callers`` (keys of files of this process), with the factories' facts
    from every process; the diagnostics and what they rest on."""
    from dl_lint.judge import accelerator_for, judge_each

    by_key = {f.key: f for f in run.files}
    for key, found in facts.items():
        if by_key[key].facts is None:
            by_key[key].facts = found
    diags, records = judge_each(
        [by_key[k] for k in callers], [by_key[k] for k in factory_keys], project, accelerator_for(run.files, project)
    )
    return {"diags": diags, "each": {k: [sorted(t), sorted(u), sorted(c)] for k, (t, u, c) in records.items()}}


def _send(fd: int, payload: Any) -> None:
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(struct.pack("<Q", len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _receive(fd: int) -> Any:
    """One message, or None when the other side is gone or sent something unreadable."""
    try:
        head = _read_exactly(fd, 8)
        if head is None:
            return None
        (length,) = struct.unpack("<Q", head)
        body = _read_exactly(fd, length)
        return pickle.loads(body) if body is not None else None
    except Exception:  # noqa: BLE001 - a broken worker: its share is redone here
        return None


def _read_exactly(fd: int, size: int):
    chunks = []
    remaining = size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)
