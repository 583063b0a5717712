"""Worker processes for the analysis stage (see ``dl_lint.pipeline``).

The candidates are shared out by size (their parse dominates the cost) between this process
and ``jobs - 1`` forked children. Each process analyses and judges its share with its own view
of the project index, inherited at the fork; a child sends back, pickled through a pipe, what
the run needs: each file's diagnostics, factory names and dependencies, the facts of files that
define factories (for the call-site phase), and the module summaries it made (for the results
cache). Forking needs no re-import and no re-reading of what the parent already holds; where
``fork`` is not available (Windows, or a platform where it is unsafe: macOS), the analysis runs
in this process.

A module that files in two shares both need is summarised in both processes: counted in
``Project.parses``, and the price of using both cores.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import Any, Dict, List, Sequence, Tuple

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


def analyse_in_workers(run: Any, candidates: Sequence[Any], jobs: int, out: List[Diagnostic]) -> int:
    """Analyse and judge ``candidates`` in this process and ``jobs - 1`` children; how many
    processes took part (1, and nothing done, when processes cannot be forked here)."""
    from dl_lint.pipeline import analyse_and_judge

    if not fork_available():
        return 1
    groups = shares([len(f.data) for f in candidates], jobs)
    if len(groups) < 2:
        return 1
    project = run.project
    children: List[Tuple[int, int, List[int]]] = []
    for group in groups[1:]:
        try:
            read_end, write_end = os.pipe()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
        except OSError:
            groups[0].extend(group)  # cannot fork: this process takes the share
            continue
        if pid == 0:  # the child: analyse the share, send the results, exit without cleanup
            status = 1
            try:
                os.close(read_end)
                _child(project, run, candidates, group, write_end)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        children.append((pid, read_end, group))
    own = groups[0]
    for local, diags, factories, seen, used in analyse_and_judge(project, run, [candidates[i] for i in own]):
        out.extend(diags)
        run.finish(candidates[own[local]], diags, factories, seen, used)
    for pid, read_end, group in children:
        payload = _read_all(read_end)
        _, status = os.waitpid(pid, 0)
        results = None
        if status == 0 and payload:
            try:
                results = pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a broken child: redo its share here
                results = None
        if results is None:
            for local, diags, factories, seen, used in analyse_and_judge(project, run, [candidates[i] for i in group]):
                out.extend(diags)
                run.finish(candidates[group[local]], diags, factories, seen, used)
            continue
        for local, diags, factories, seen, used, facts in results["files"]:
            file = candidates[group[local]]
            if facts is not None:
                file.facts = facts
            out.extend(diags)
            run.finish(file, diags, factories, set(seen), set(used))
        project.adopt(results["summaries"], results["parses"])
    return 1 + len(children)


def _child(project: Any, run: Any, candidates: Sequence[Any], group: List[int], write_end: int) -> None:
    from dl_lint.pipeline import analyse_and_judge

    project.new_summaries = {}
    project.parses = {}
    mine = [candidates[i] for i in group]
    files = []
    for local, diags, factories, seen, used in analyse_and_judge(project, run, mine):
        facts = mine[local].facts if factories else None  # the call-site phase needs them
        files.append((local, diags, factories, sorted(seen), sorted(used), facts))
    payload: Dict[str, Any] = {"files": files, "summaries": project.new_summaries, "parses": project.parses}
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(data)
    while view:
        written = os.write(write_end, view)
        view = view[written:]
    os.close(write_end)


def _read_all(fd: int) -> bytes:
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)
