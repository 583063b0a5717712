"""Issue 25 §3: a loader factory of another module called with a dict spread into it
(``prepare(**loader_args)``, Open-Sora's shape): its named parameters take the dict's entries and
its ``**kwargs`` the keywords left over (a dict whose keys are all known, empty when there are
none), so what the factory passes on with ``**kwargs`` (or ``**kwargs.copy()``) is known at the
call. Loaders on branches the call does not decide are alternatives: a rule is reported at the
call only when every one breaks it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from dl_lint import lint_paths

FACTORY = """\
from torch.utils.data import DataLoader


def get_seed_worker(seed):
    def seed_worker(worker_id):
        return seed

    return seed_worker


def prepare(dataset, batch_size=None, drop_last=False, seed=0, num_workers=0, process_group=None, **kwargs):
    _kwargs = kwargs.copy()
    EDIT
    if process_group is None:
        return DataLoader(dataset, batch_size=batch_size, drop_last=drop_last, num_workers=num_workers,
                          worker_init_fn=get_seed_worker(seed), **_kwargs)
    return DataLoader(dataset, batch_size=2, num_workers=num_workers, worker_init_fn=get_seed_worker(seed), **_kwargs)
"""
TRAIN = """\
from pkg.loaders import prepare


def main(cfg, group):
    args = dict(dataset=[1, 2], num_workers=cfg.get("num_workers", 4), drop_last=True, process_group=group EXTRA)
    return prepare(**args)
"""


def _lint(tmp_path: Path, edit: str = "pass", extra: str = "", named=(".",)):
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": "[tool.dl-lint]\n",
        "pkg/__init__.py": "",
        "pkg/loaders.py": FACTORY.replace("EDIT", edit),
        "train.py": TRAIN.replace(" EXTRA", extra),
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return lint_paths([root / n for n in named]).diagnostics


def _codes(diagnostics):
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in diagnostics)


def test_the_spread_dict_and_the_empty_kwargs_make_every_branch_judged_at_the_call(tmp_path):
    found = _lint(tmp_path)
    assert _codes(found) == [("train.py", 6, "DL202")]  # once, though both branches break it
    (diag,) = found
    notes = [r.note for r in diag.related]
    assert any("on another branch" in n for n in notes)
    assert "num_workers=4 (default of cfg.get('num_workers'))" in diag.detail


def test_a_rule_broken_on_one_undecided_branch_only_stays_silent(tmp_path):
    """drop_last with batch_size=None crashes only on the ``process_group is None`` branch, which
    an unknown group may not take: no DL008 (it was unknown before: ``**kwargs`` hid the sampler)."""
    assert "DL008" not in {d.code for d in _lint(tmp_path)}


def test_a_branch_the_call_decides_is_judged_alone(tmp_path):
    found = _lint(tmp_path, extra="")
    assert "DL008" not in {d.code for d in found}
    root = tmp_path / "proj"
    (root / "train.py").write_text(TRAIN.replace("process_group=group EXTRA", "process_group=None"))
    assert _codes(lint_paths([root]).diagnostics) == [("train.py", 6, "DL008"), ("train.py", 6, "DL202")]


def test_keywords_left_over_reach_the_loader_through_kwargs(tmp_path):
    """``multiprocessing_context="spawn"`` passed through the factory's ``**kwargs`` makes the
    start method certain: the finding becomes an error. Without it, a warning."""
    (plain,) = _lint(tmp_path)
    assert plain.severity == "warning"
    found = _lint(tmp_path, extra=', multiprocessing_context="spawn"')
    assert [(d.code, d.severity) for d in found if d.code == "DL202"] == [("DL202", "error")]
    assert "DL011" in {d.code for d in found}  # spawn asked for while cfg may set 0 workers


def test_a_factory_that_edits_its_kwargs(tmp_path):
    """Edits of the kwargs dict are read as for a local dict: an update that dominates the loader
    is seen, a ``pop`` or ``del`` makes what it carries unknown (then the start method may be
    anything it carries, and DL202 stays silent as it was before)."""
    found = _lint(tmp_path, edit='_kwargs.update(multiprocessing_context="spawn")')
    assert [(d.code, d.severity) for d in found if d.code == "DL202"] == [("DL202", "error")]
    for edit in ('_kwargs.pop("timeout", None)', 'del _kwargs["timeout"]'):
        assert _codes(_lint(tmp_path, edit=edit, extra=", timeout=5")) == [], edit
    # an item set in the factory reaches the loader: prefetch_factor=2 while cfg may set 0 workers
    assert _codes(_lint(tmp_path, edit='_kwargs["prefetch_factor"] = 2')) == [("train.py", 6, "DL011"), ("train.py", 6, "DL202")]


def test_a_dict_with_a_key_the_factory_cannot_take_is_not_bound(tmp_path):
    """A factory without ``**kwargs`` given a key it has no parameter for raises TypeError: the
    call is not judged (as before)."""
    root = tmp_path / "proj"
    _lint(tmp_path)
    (root / "pkg/loaders.py").write_text(FACTORY.replace(", **kwargs):", "):").replace("kwargs.copy()", "{}").replace("EDIT", "pass"))
    (root / "train.py").write_text(TRAIN.replace(" EXTRA", ", timeout=5"))
    assert _codes(lint_paths([root]).diagnostics) == []


def test_naming_only_the_factory_module_or_only_the_script_reports_the_same(tmp_path):
    full = _codes(_lint(tmp_path))
    assert full == [("train.py", 6, "DL202")]
    assert _codes(_lint(tmp_path, named=("pkg/loaders.py",))) == full
    assert _codes(_lint(tmp_path, named=("train.py",))) == full
