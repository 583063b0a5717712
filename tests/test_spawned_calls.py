"""Functions started in other processes (dl_lint/analysis/spawns.py): what torch 2.13 and the
standard library really pass to them, and the call dl-lint reads from each spawning call."""

from __future__ import annotations

import ast
import json
import multiprocessing

import pytest

from dl_lint.analysis.spawns import INDEX, called_by_process


def record(*args, **kwargs):
    path = args[-1] if not kwargs else kwargs.pop("path")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump([list(args), kwargs], handle)


@pytest.mark.torch
def test_spawn_calls_the_function_with_the_process_index_then_args(tmp_path):
    torch = pytest.importorskip("torch")
    out = tmp_path / "spawned.json"
    torch.multiprocessing.spawn(record, args=(7, "x", str(out)), nprocs=1)
    assert json.loads(out.read_text()) == [[0, 7, "x", str(out)], {}]


def test_process_calls_its_target_with_args_and_kwargs_as_given(tmp_path):
    out = tmp_path / "process.json"
    process = multiprocessing.get_context("spawn").Process(target=record, args=(7, "x"), kwargs={"path": str(out)})
    process.start()
    process.join(60)
    assert json.loads(out.read_text()) == [[7, "x"], {}]


def _call(source: str) -> ast.Call:
    return ast.parse(source).body[0].value


def _read(source: str, qualname: str):
    made = called_by_process(_call(source), qualname)
    return None if made is None else ast.unparse(made)


@pytest.mark.parametrize(
    "source,qualname,expected",
    [
        ("mp.spawn(work, nprocs=2, args=(n, args))", "torch.multiprocessing.spawn", f"work({INDEX}, n, args)"),
        ("mp.spawn(work, (n,), 2)", "torch.multiprocessing.spawn", None),  # nprocs positionally: not read
        ("mp.spawn(work, (n,))", "torch.multiprocessing.spawn", f"work({INDEX}, n)"),
        ("mp.spawn(fn=work)", "torch.multiprocessing.spawn", f"work({INDEX})"),
        ("start_processes(work, args=[a], start_method='fork')", "torch.multiprocessing.start_processes", f"work({INDEX}, a)"),
        ("Process(target=work, args=(a,), kwargs={'b': 1})", "multiprocessing.Process", "work(a, b=1)"),
        ("Process(target=work, kwargs=extra)", "multiprocessing.Process", None),
        ("mp.spawn(work, args=params)", "torch.multiprocessing.spawn", None),
        ("mp.spawn(work, args=(*params,))", "torch.multiprocessing.spawn", None),
        ("mp.spawn(work, **options)", "torch.multiprocessing.spawn", None),
        ("pool.spawn(work, args=(a,))", "gevent.pool.Pool.spawn", None),  # another library's spawn
        ("mp.spawn(lambda i: i, args=())", "torch.multiprocessing.spawn", None),
    ],
)
def test_the_call_a_spawning_call_stands_for(source, qualname, expected):
    assert _read(source, qualname) == expected
