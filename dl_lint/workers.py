"""Worker processes for the analysis stage (see ``dl_lint.pipeline``).

The candidates are shared out by size (their parse dominates the cost) between this process
and ``jobs - 1`` forked children, in two rounds:

1. Each process parses its share and summarises every module of it (a summary needs nothing
   from other modules). The processes then exchange the summaries through pipes, so that a
   module one share imports from the other is never parsed twice.
2. Each process analyses and judges its share (the trees of round 1 are still in memory); a
   child sends back, pickled, what the run needs: each file's diagnostics, factory names and
   dependencies, the facts of files that define factories (for the call-site phase), and the
   summaries of modules it parsed on demand (for the results cache).

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
from typing import Any, Callable, Dict, List, Sequence, Tuple

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


class _Child:
    def __init__(self, pid: int, reader: int, writer: int, group: List[int]) -> None:
        self.pid = pid
        self.reader = reader
        self.writer = writer
        self.group = group


def analyse_in_workers(
    run: Any, candidates: Sequence[Any], jobs: int, out: List[Diagnostic], analyse_and_judge: Callable
) -> int:
    """Analyse and judge ``candidates`` in this process and ``jobs - 1`` children, with
    ``analyse_and_judge(project, run, files)`` (``dl_lint.pipeline``); how many processes took
    part (1, and nothing done, when processes cannot be forked here)."""
    if not fork_available():
        return 1
    groups = shares([len(f.data) for f in candidates], jobs)
    if len(groups) < 2:
        return 1
    project = run.project
    two_rounds = max(sum(len(candidates[i].data) for i in g) for g in groups) <= project.budget
    children: List[_Child] = []
    for group in groups[1:]:
        try:
            to_parent = os.pipe()
            to_child = os.pipe()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
        except OSError:
            groups[0].extend(group)  # cannot fork: this process takes the share
            continue
        if pid == 0:  # the child: its share, then exit without the interpreter's cleanup
            status = 1
            try:
                os.close(to_parent[0])
                os.close(to_child[1])
                _child(project, run, [candidates[i] for i in group], to_parent[1], to_child[0], two_rounds, analyse_and_judge)
                status = 0
            finally:
                os._exit(status)
        os.close(to_parent[1])
        os.close(to_child[0])
        children.append(_Child(pid, to_parent[0], to_child[1], group))
    own = [candidates[i] for i in sorted(groups[0])]
    if two_rounds and children:
        mine = _summarise(project, run, own)
        theirs = [_receive(child.reader) for child in children]
        for index, child in enumerate(children):
            others = dict(mine)
            for position, summaries in enumerate(theirs):
                if position != index and summaries is not None:
                    others.update(summaries)
            try:
                _send(child.writer, others)
            except OSError:  # the child is gone: its share is redone below
                pass
        for summaries in theirs:
            if summaries is not None:
                project.adopt(summaries, {})
    for child in children:
        os.close(child.writer)
    for local, diags, factories, seen, used in analyse_and_judge(project, run, own):
        out.extend(diags)
        run.finish(own[local], diags, factories, seen, used)
    for child in children:
        results = _receive(child.reader)
        os.close(child.reader)
        _, status = os.waitpid(child.pid, 0)
        mine_files = [candidates[i] for i in child.group]
        if status != 0 or results is None:  # a broken child: redo its share here
            for local, diags, factories, seen, used in analyse_and_judge(project, run, mine_files):
                out.extend(diags)
                run.finish(mine_files[local], diags, factories, seen, used)
            continue
        for local, diags, factories, seen, used, facts in results["files"]:
            file = mine_files[local]
            if facts is not None:
                file.facts = facts
            out.extend(diags)
            run.finish(file, diags, factories, set(seen), set(used))
        project.adopt(results["summaries"], results["parses"])
    return 1 + len(children)


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
    project: Any, run: Any, files: Sequence[Any], writer: int, reader: int, two_rounds: bool, analyse_and_judge: Callable
) -> None:
    if two_rounds:
        _send(writer, _summarise(project, run, files))
        others = _receive(reader)
        if others:
            project.adopt(others, {})
    os.close(reader)
    project.new_summaries = {}  # those of round 1 are the parent's already
    results = []
    for local, diags, factories, seen, used in analyse_and_judge(project, run, files):
        facts = files[local].facts if factories else None  # the call-site phase needs them
        results.append((local, diags, factories, sorted(seen), sorted(used), facts))
    _send(writer, {"files": results, "summaries": project.new_summaries, "parses": project.parses})
    os.close(writer)


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
