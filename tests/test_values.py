"""Focused tests of the value model and the resolver (the analysis layer, no rules)."""

from __future__ import annotations

import textwrap

from dl_lint.analysis.module import analyze_source
from dl_lint.analysis.values import ABSENT, Guard, Possible, Value, scenarios


def values(source: str, name: str, call: int = 0) -> Value:
    facts = analyze_source(textwrap.dedent(source), "m.py", "m")
    return facts.calls[call].value(name)


def concrete(value: Value):
    return sorted(repr(p.value) for p in value.options or ())


def test_guard_evaluation_and_negation():
    guard = Guard("num_workers", ">", 0)
    assert guard.holds(0) is False and guard.holds(4) is True
    assert guard.negate().holds(0) is True
    assert Guard("w", "truthy").holds(0) is False and Guard("w", "truthy").negate().holds(0) is True
    assert guard.holds(None) is None  # undecidable, so the possibility is kept


def test_scenarios_prune_inconsistent_guarded_possibilities():
    workers = Value.known(0).with_aliases("nw")
    prefetch = Value((Possible(2, None, (Guard("nw", ">", 0),)), Possible(None, None, (Guard("nw", "<=", 0),))))
    found = scenarios({"num_workers": workers, "prefetch_factor": prefetch})
    assert [s["prefetch_factor"].value for s in found] == [None]


def test_unknown_makes_scenarios_none():
    assert scenarios({"a": Value.unknown("parameter"), "b": Value.known(1)}) is None


def test_argparse_defaults_dest_and_actions():
    src = """
    import argparse
    from torch.utils.data import DataLoader
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", "-j", type=int, default="3")
    parser.add_argument("--nw", dest="loader_workers", default=5)
    parser.add_argument("--pin", action="store_true")
    parser.add_argument("--no-persist", dest="persist", action="store_false")
    args = parser.parse_args()
    DataLoader(ds, num_workers=args.workers, pin_memory=args.pin, persistent_workers=args.persist)
    DataLoader(ds, num_workers=args.loader_workers)
    DataLoader(ds, num_workers=args.missing)
    """
    workers = values(src, "num_workers")
    assert concrete(workers) == ["3"] and workers.source == "argparse"
    assert workers.options[0].origin.describe() == "default of --workers"  # the place is data, cited apart
    assert workers.options[0].origin.sites() == ((workers.options[0].origin.path, 5),)
    assert concrete(values(src, "pin_memory")) == ["False"]
    assert concrete(values(src, "persistent_workers")) == ["True"]
    assert concrete(values(src, "num_workers", call=1)) == ["5"]
    missing = values(src, "num_workers", call=2)
    assert missing.is_unknown and missing.source == "argparse"


def test_argparse_set_defaults_override_argument_defaults():
    # mae's pattern: --pin_mem (store_true) and --no_pin_mem (store_false) share a dest whose
    # parser-level default is True; argparse's set_defaults wins over the arguments' defaults.
    src = """
    import argparse
    from torch.utils.data import DataLoader
    parser = argparse.ArgumentParser()
    parser.add_argument("--pin_mem", action="store_true")
    parser.add_argument("--no_pin_mem", action="store_false", dest="pin_mem")
    parser.add_argument("--cache", action="store_true")
    parser.set_defaults(pin_mem=True)
    parser.set_defaults(cache=make_default())
    args = parser.parse_args()
    DataLoader(ds, pin_memory=args.pin_mem, persistent_workers=args.cache)
    """
    pin = values(src, "pin_memory")
    assert concrete(pin) == ["True"] and pin.options[0].origin.describe() == "set_defaults(pin_mem=...)"
    assert pin.options[0].origin.line == 8
    cache = values(src, "persistent_workers")  # a default set by a call: unknown, and configurable
    assert cache.is_unknown and cache.source == "argparse"


BOOL_HELPER = """
import argparse
from torch.utils.data import DataLoader
def add_bool_arg(parser, name, default=False, help=""):
    dest_name = name.replace("-", "_")
    group = parser.add_mutually_exclusive_group(required=False)
    group.add_argument("--" + name, dest=dest_name, action="store_true", help=help)
    group.add_argument("--no-" + name, dest=dest_name, action="store_false", help=help)
    parser.set_defaults(**{dest_name: default})
parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=0)
add_bool_arg(parser, "pin-mem", default=True)
add_bool_arg(parser, "persist")
CALLS
args = parser.parse_args()
DataLoader(ds, num_workers=args.workers, pin_memory=args.pin_mem, persistent_workers=args.persist)
"""


def test_set_defaults_of_a_bool_arg_helper_sets_only_its_keys():
    # timm's add_bool_arg: the key is computed from the helper's parameter at each call.
    src = BOOL_HELPER.replace("CALLS", "")
    pin = values(src, "pin_memory")
    assert concrete(pin) == ["True"] and pin.options[0].origin.describe() == "set_defaults(pin_mem=...)"
    assert pin.options[0].origin.line == 12  # the helper's call
    assert concrete(values(src, "persistent_workers")) == ["False"]  # the parameter's default
    assert concrete(values(src, "num_workers")) == ["0"]  # not replaced


def test_set_defaults_with_an_unknown_key_leaves_every_default_unknown():
    unknown = values(BOOL_HELPER.replace("CALLS", "add_bool_arg(parser, flag_name())"), "num_workers")
    assert unknown.is_unknown  # some call's key is unknown: any dest may change
    passed = values(BOOL_HELPER.replace("CALLS", "adders = [add_bool_arg]"), "num_workers")
    assert passed.is_unknown  # calls through another name are not seen
    starred = values(BOOL_HELPER.replace("CALLS", "add_bool_arg(*spec)"), "num_workers")
    assert starred.is_unknown
    computed = BOOL_HELPER.replace("**{dest_name: default}", "**{make_dest(name): default}").replace("CALLS", "")
    assert values(computed, "num_workers").is_unknown
    at_module = BOOL_HELPER.replace("CALLS", "parser.set_defaults(**{'workers': 2})")
    assert concrete(values(at_module, "num_workers")) == ["2"]
    unknown_value = values(BOOL_HELPER.replace("CALLS", "add_bool_arg(parser, 'persist', default=load())"), "persistent_workers")
    assert unknown_value.is_unknown  # the second call's default is not a literal: persist is unknown
    assert concrete(values(BOOL_HELPER.replace("CALLS", "add_bool_arg(parser, 'persist', default=load())"), "num_workers")) == ["0"]


def test_reaching_assignments():
    src = """
    from torch.utils.data import DataLoader
    def f(flag):
        nw = 1
        DataLoader(ds, num_workers=nw)
        nw = 2
        if flag:
            nw = 3
        DataLoader(ds, num_workers=nw)
        nw += 1
        DataLoader(ds, num_workers=nw)
    """
    assert concrete(values(src, "num_workers", 0)) == ["1"]
    assert concrete(values(src, "num_workers", 1)) == ["2", "3"]
    assert values(src, "num_workers", 2).is_unknown


def test_conditional_dict_keys_may_be_absent():
    src = """
    from torch.utils.data import DataLoader
    def f(use_cuda):
        kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
        DataLoader(ds, **kwargs)
    """
    value = values(src, "num_workers")
    assert sorted(repr(p.value) for p in value.options) == ["1", "ABSENT"]
    assert values(src, "prefetch_factor").values == (ABSENT,)


def test_opaque_splat_is_unknown():
    src = """
    from torch.utils.data import DataLoader
    def f(extra):
        DataLoader(ds, **extra)
    """
    assert values(src, "prefetch_factor").is_unknown


def test_parameters_are_configurable_unknowns():
    src = """
    from torch.utils.data import DataLoader
    def make(ds, num_workers=4):
        return DataLoader(ds, num_workers=num_workers)
    """
    value = values(src, "num_workers")
    assert value.is_unknown and value.source == "parameter"


def test_not_torch_loaders_are_not_found():
    """dgl's loaders are not in the table of library loaders: unknown, never bound as torch's."""
    src = """
    from dgl.dataloading import GraphDataLoader
    GraphDataLoader(ds, 32, True)
    """
    assert analyze_source(textwrap.dedent(src), "m.py", "m").calls == ()


def test_a_library_loader_is_bound_by_its_own_signature():
    """torch_geometric's DataLoader (from dl-lint's table): its third positional is shuffle, as
    torch's; follow_batch (4th) is not torch's sampler; the collate_fn it passes is given."""
    src = """
    from torch_geometric.loader import DataLoader
    DataLoader(ds, 32, True, ["x"])
    """
    (call,) = analyze_source(textwrap.dedent(src), "m.py", "m").calls
    assert call.value("batch_size").single.value == 32 and call.value("shuffle").single.value is True
    assert not call.given("sampler") and call.given("collate_fn") and call.value("collate_fn").is_unknown


DIVIDED = """
import argparse
import numpy as np
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=0)
parser.add_argument("--examples", type=int, default=1000)
args = parser.parse_args()


def get_loader(dataset):
    {before}
    return DataLoader(dataset, num_workers=args.workers, persistent_workers=True, collate_fn=lambda b: b)
"""


def _divided(before: str) -> set:
    from dl_lint import lint_source

    return {d.code for d in lint_source(DIVIDED.format(before=before), "train.py")}


def test_a_division_by_the_workers_before_the_call_rules_out_zero_for_crash_claims():
    """``total / args.workers`` raises ZeroDivisionError for 0 (Python numbers) before the loader
    is built: DL002's "torch raises" never happens there (diffusers' WebLoader script divides by
    its --dataloader_num_workers, default 0, first). Where the division may not run (under a
    conditional expression, a short-circuit) the crash is still reported."""
    assert "DL002" not in _divided("batches = args.examples // (8 * args.workers)")
    assert "DL002" not in _divided("share = args.examples % args.workers")
    assert "DL002" in _divided("batches = args.examples // args.workers if args.workers else 0")
    assert "DL002" in _divided("batches = args.workers and args.examples / args.workers")
    assert "DL002" in _divided("batches = args.examples / 8")


def test_a_division_by_the_workers_before_the_call_rules_out_zero_for_dl011():
    """DL011 says an unguarded ``persistent_workers=True`` raises once num_workers is set to 0;
    after ``total // (batch * num_workers)`` that setting fails first, with ZeroDivisionError,
    so the claim would be wrong (diffusers' ``Text2ImageDataset``, whose construction is judged
    with the script's ``--dataloader_num_workers``, default 1)."""
    from dl_lint import lint_source

    template = DIVIDED.replace("default=0)", "default=1)", 1).replace(", collate_fn=lambda b: b", "")
    assert "default=1)" in template and "lambda" not in template
    assert "DL011" in {d.code for d in lint_source(template.format(before="pass"), "train.py")}
    for before in ("batches = args.examples // (8 * args.workers)", "share = args.examples % args.workers"):
        assert "DL011" not in {d.code for d in lint_source(template.format(before=before), "train.py")}, before
    guarded = "batches = args.examples // args.workers if args.workers else 0"
    assert "DL011" in {d.code for d in lint_source(template.format(before=guarded), "train.py")}


def test_a_division_does_not_make_workers_certain_for_warnings():
    """NumPy and torch divide by zero without raising, so a warning that needs workers (DL202's
    lambda) stays silent while 0 is possible: the division is read by crash claims only."""
    assert "DL202" not in _divided("scale = np.ones(3) / args.workers")
    assert "DL202" not in _divided("batches = args.examples // args.workers")


def test_an_option_whose_default_cannot_be_read_is_unknown_not_a_marker(tmp_path):
    """``parser.set_defaults(**json.load(...))`` makes every default unknown: the option is
    unknown (configurable) for the rules, so DL011 stays silent about prefetch_factor (its
    message once showed the internal marker, ``prefetch_factor=<object object at 0x...>``)."""
    from dl_lint import lint_paths

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "train.py").write_text(
        "import argparse\nimport json\nfrom torch.utils.data import DataLoader\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--workers', type=int, default=4)\n"
        "parser.add_argument('--prefetch', type=int, default=2)\n"
        "parser.set_defaults(**json.load(open('cfg.json')))\nargs = parser.parse_args()\n\n\n"
        "def main():\n    loader = DataLoader([1, 2], num_workers=args.workers, prefetch_factor=args.prefetch)\n"
        "    for x in loader:\n        pass\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    found = lint_paths([str(tmp_path)]).diagnostics
    assert not any("object at 0x" in d.message or "object at 0x" in (d.detail or "") for d in found)
    assert [d.code for d in found] == []
