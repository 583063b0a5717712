"""HuggingFace TrainingArguments (dl_lint.analysis.configs.transformers): the dataloader_* fields
written in Python, parsed by HfArgumentParser from the command line or a JSON/YAML file, judged by
DL001/DL002/DL011; and real transformers + torch agreeing with what dl-lint reports."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.configs.transformers import TRAINING_FIELDS, candidate

from conftest import FIXTURES
from test_configs import _found, _project

HF = FIXTURES / "rules" / "transformers_args"

EXPECTED = [
    ("examples/persistent_without_workers.json", 4, "DL002"),
    ("examples/prefetch_without_workers.json", 6, "DL001"),
    ("train_python.py", 13, "DL001"),
    ("train_python.py", 18, "DL002"),
    ("train_python.py", 23, "DL011"),
    ("train_subclass.py", 10, "DL002"),
]


def test_the_fixture_reports_at_the_line_that_sets_the_deciding_value():
    assert _found(HF) == EXPECTED


def test_messages_say_which_library_raises_and_when():
    by_row = {(Path(d.filename).name, d.location.row): d for d in lint_paths([HF]).diagnostics}
    dl001 = by_row[("train_python.py", 13)]
    assert dl001.message.endswith("transformers raises ValueError before training.")
    assert "transformers raises in TrainingArguments.__post_init__" in dl001.detail
    assert "--dataloader_prefetch_factor can only be set" in dl001.detail
    dl002 = by_row[("train_python.py", 18)]
    assert dl002.message.endswith(": trainer.train() raises ValueError.")
    assert "torch raises when the Trainer builds its DataLoader" in dl002.detail
    assert [r.note for r in dl002.related] == ["Seq2SeqTrainingArguments(...) built here"]
    json_finding = by_row[("prefetch_without_workers.json", 6)]
    assert [(Path(r.path).name, r.row, r.note) for r in json_finding.related] == [("run_clm.py", 26, "parser.parse_json_file() reads this file")]
    assert json_finding.fix is None
    dl011 = by_row[("train_python.py", 23)]
    assert "dataloader_prefetch_factor=2 if args.workers > 0 else None" in dl011.detail


HEADER = "from transformers import TrainingArguments, HfArgumentParser\n"


@pytest.mark.parametrize(
    "source",
    [
        # library defaults only
        HEADER + "a = TrainingArguments(output_dir='o')\n",
        # **kwargs or a later edit of the fields the Trainer reads
        HEADER + "kw = {}\na = TrainingArguments(output_dir='o', dataloader_persistent_workers=True, **kw)\n",
        HEADER + "a = TrainingArguments(output_dir='o', dataloader_persistent_workers=True)\na.dataloader_num_workers = 4\n",
        HEADER + "a = TrainingArguments(output_dir='o', dataloader_persistent_workers=True)\na.set_dataloader(num_workers=4)\n",
        # not transformers' class
        "class TrainingArguments:\n    def __init__(self, **kw): pass\na = TrainingArguments(dataloader_persistent_workers=True)\n",
        # a subclass with its own __post_init__
        HEADER + "from dataclasses import dataclass\n@dataclass\nclass A(TrainingArguments):\n"
        "    dataloader_persistent_workers: bool = True\n    def __post_init__(self):\n        super().__post_init__()\n"
        "p = HfArgumentParser(A)\n(a,) = p.parse_args_into_dataclasses()\n",
        # the command line sets the arguments
        HEADER + "from dataclasses import dataclass\n@dataclass\nclass A(TrainingArguments):\n"
        "    dataloader_persistent_workers: bool = True\np = HfArgumentParser(A)\n(a,) = p.parse_args_into_dataclasses(args=['--x'])\n",
    ],
)
def test_what_is_not_read_is_silent(tmp_path, source):
    root = _project(tmp_path, {"train.py": source})
    assert _found(root) == []


@pytest.mark.parametrize(
    "after",
    [
        "configure(a)\n",  # handed to a function that may set the fields
        "def later(x):\n    x.dataloader_num_workers = 2\n",  # some code sets a field
        "b = a\n",
    ],
)
def test_a_persistent_crash_needs_every_use_seen(tmp_path, after):
    source = HEADER + "a = TrainingArguments(output_dir='o', dataloader_persistent_workers=True)\n" + after
    root = _project(tmp_path, {"train.py": source.replace("b = a", "a = TrainingArguments(output_dir='o')")})
    assert _found(root) == []


def test_a_trainer_and_a_log_leave_the_arguments_alone(tmp_path):
    source = HEADER + (
        "from transformers import Trainer\nimport logging\n"
        "a = TrainingArguments(output_dir='o', dataloader_persistent_workers=True)\n"
        "logging.info(a)\nTrainer(model=None, args=a).train()\n"
        "Trainer(model=None, args=TrainingArguments(output_dir='o', dataloader_persistent_workers=True))\n"
    )
    root = _project(tmp_path, {"train.py": source})
    assert _found(root) == [("train.py", 4, "DL002"), ("train.py", 7, "DL002")]


def test_an_edited_instance_is_still_judged_at_construction(tmp_path):
    source = HEADER + "a = TrainingArguments(output_dir='o', dataloader_prefetch_factor=2)\na.dataloader_num_workers = 4\n"
    root = _project(tmp_path, {"train.py": source})
    assert _found(root) == [("train.py", 2, "DL001")]  # __post_init__ raised before the edit


PARSER = HEADER + (
    "from dataclasses import dataclass, field\n"
    "@dataclass\nclass ModelArguments:\n    model_name_or_path: str\n"
    "def main():\n"
    "    parser = HfArgumentParser((ModelArguments, TrainingArguments))\n"
    "    return parser.{call}\n"
)


def test_literal_json_and_yaml_paths(tmp_path):
    root = _project(tmp_path, {
        "train.py": PARSER.format(call="parse_json_file('configs/a.json')"),
        "configs/a.json": '{"model_name_or_path": "m",\n "dataloader_persistent_workers": true}\n',
        "tune.py": PARSER.format(call="parse_yaml_file(yaml_file='configs/b.yaml')"),
        "configs/b.yaml": "model_name_or_path: m\ndataloader_num_workers: 0  # noqa: DL001\ndataloader_prefetch_factor: 2\n",
        "other.py": PARSER.format(call="parse_yaml_file('configs/c.yaml')"),
        "configs/c.yaml": "model_name_or_path: m\ndataloader_prefetch_factor: 2\n",
    })
    assert _found(root) == [("configs/a.json", 2, "DL002"), ("configs/c.yaml", 2, "DL001")]


def test_a_json_file_the_script_cannot_parse_is_not_a_run(tmp_path):
    root = _project(tmp_path, {
        "train.py": PARSER.format(call="parse_json_file(sys.argv[1])").replace(HEADER, HEADER + "import sys\n"),
        "missing_required.json": '{"dataloader_persistent_workers": true}\n',
        "unknown_key.json": '{"model_name_or_path": "m", "zzz": 1, "dataloader_persistent_workers": true}\n',
        "nested/run.json": '{"model_name_or_path": "m", "dataloader_persistent_workers": true}\n',
    })
    assert _found(root) == [("nested/run.json", 1, "DL002")]


def test_broken_json_is_dl000_not_a_traceback(tmp_path):
    root = _project(tmp_path, {
        "train.py": PARSER.format(call="parse_json_file('a.json')"),
        "a.json": '{"model_name_or_path": "m", "dataloader_persistent_workers": tru\n',
    })
    assert [code for _, _, code in _found(root)] == ["DL000"]


def test_the_byte_gate():
    assert candidate(b"from transformers import TrainingArguments\nTrainingArguments(dataloader_num_workers=2)")
    assert candidate(b"TrainingArguments ... parser.parse_json_file(p)")
    assert not candidate(b"from transformers import TrainingArguments\nTrainingArguments(output_dir='x')")
    assert not candidate(b"from torch.utils.data import DataLoader\ndataloader_num_workers = 2")


# -- the real thing -----------------------------------------------------------------------------


def _transformers():
    """transformers 4.57.6, in the test extra for Python >= 3.10 (torch 2.13's range): the tests
    that read it are marked ``torch`` (deselected on 3.9 with the others, never skipped)."""
    import transformers

    assert transformers.__version__ == "4.57.6"  # the version configs/transformers.py was read at
    return transformers


@pytest.mark.torch
def test_the_field_table_is_transformers_own():
    transformers = _transformers()
    import dataclasses

    names = {f.name for f in dataclasses.fields(transformers.Seq2SeqTrainingArguments) if f.init}
    assert names == TRAINING_FIELDS


def _trainer_loader(transformers, args):
    """What trainer.train() does first: the Trainer builds its training DataLoader (and we
    iterate it)."""
    import torch

    if sys.version_info < (3, 11):
        pytest.importorskip("accelerate")  # the Trainer needs it; accelerate 1.16 needs Python >= 3.11

    class Squares(torch.utils.data.Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return {"x": torch.tensor([float(i)]), "labels": torch.tensor([float(i * i)])}

    class Tiny(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(1, 1)

        def forward(self, x, labels=None):
            out = self.linear(x)
            return {"loss": torch.nn.functional.mse_loss(out, labels), "logits": out}

    trainer = transformers.Trainer(model=Tiny(), args=args, train_dataset=Squares())
    loader = trainer.get_train_dataloader()
    return [batch for batch in loader]


def _run(transformers, build, codes, tmp_path):
    """DL001: building the arguments raises; DL002: the Trainer's loader raises; no crash
    reported: builds, and the Trainer's loader iterates."""
    from dl_lint.rules import all_rules

    rules = all_rules()
    if "DL001" in codes:
        with pytest.raises(ValueError, match="dataloader_prefetch_factor can only be set"):
            build()
        return
    args = build()
    if "DL002" in codes:
        exc, text = rules["DL002"].torch_raises
        with pytest.raises(exc, match=text):
            _trainer_loader(transformers, args)
        return
    assert len(_trainer_loader(transformers, args)) == 1  # 8 samples, per_device_train_batch_size 8


@pytest.mark.torch
def test_transformers_and_torch_agree_with_the_python_fixture(tmp_path):
    transformers = _transformers()
    path = HF / "train_python.py"
    reported = {}
    for d in lint_paths([HF]).diagnostics:
        if Path(d.filename).name == path.name:
            reported.setdefault(d.location.row, set()).add(d.code)
    tree = ast.parse(path.read_text())
    built = [n.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and n.value.keywords]
    assert len(built) == 5
    for call in built:
        cls = getattr(transformers, call.func.id)
        codes = set().union(*(reported.get(k.lineno, set()) for k in call.keywords))
        for workers in (0, 2):  # args.workers: the command line's choice
            kwargs = {}
            for k in call.keywords:
                text = ast.unparse(k.value).replace("args.workers", str(workers))
                kwargs[k.arg] = eval(text) if k.arg != "output_dir" else str(tmp_path)  # noqa: S307 - literals of the fixture
            kwargs.update(per_device_train_batch_size=8, report_to="none", use_cpu=True)
            expected = set(codes)
            if "DL011" in codes:  # unguarded: crashes exactly when the configurable workers is 0
                expected = {"DL001"} if workers == 0 else set()
            _run(transformers, lambda: cls(**kwargs), expected, tmp_path)


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(f"hf_fixture_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.torch
def test_the_parser_reads_the_json_files_as_dl_lint_does(tmp_path):
    """Every JSON file of the example folder, parsed by the script's own HfArgumentParser:
    those dl-lint judges raise as reported (or build and iterate), those it does not take as
    runs of the script are rejected by the parser itself."""
    transformers = _transformers()
    script = _import(HF / "examples" / "run_clm.py")
    parser = transformers.HfArgumentParser((script.ModelArguments, script.DataTrainingArguments, transformers.TrainingArguments))
    reported = {Path(d.filename).name: d.code for d in lint_paths([HF]).diagnostics}
    files = sorted((HF / "examples").glob("*.json"))
    assert len(files) == 4
    for path in files:
        data = json.loads(path.read_text())
        data.update(output_dir=str(tmp_path), per_device_train_batch_size=8, report_to="none", use_cpu=True)
        keys = set(data) - {"output_dir", "per_device_train_batch_size", "report_to", "use_cpu"}
        if not keys <= TRAINING_FIELDS | {"model_name_or_path", "dataset_name", "block_size"}:
            assert path.name not in reported
            with pytest.raises(ValueError, match="Some keys are not used by the HfArgumentParser"):
                parser.parse_dict(data)
            continue
        codes = {reported[path.name]} if path.name in reported else set()
        _run(transformers, lambda: parser.parse_dict(data)[2], codes, tmp_path)


@pytest.mark.torch
def test_the_subclass_defaults_parsed_from_the_command_line(tmp_path):
    transformers = _transformers()
    module = _import(HF / "train_subclass.py")
    parser = transformers.HfArgumentParser(module.MyTrainingArguments)
    common = ["--output_dir", str(tmp_path), "--per_device_train_batch_size", "8", "--report_to", "none", "--use_cpu"]
    assert _found(HF)[-1] == ("train_subclass.py", 10, "DL002")
    (defaults,) = parser.parse_args_into_dataclasses(args=common)
    _run(transformers, lambda: defaults, {"DL002"}, tmp_path)
    (workers,) = parser.parse_args_into_dataclasses(args=[*common, "--dataloader_num_workers", "2"])
    _run(transformers, lambda: workers, set(), tmp_path)


# -- simple_parsing -----------------------------------------------------------------------------

SIMPLE = FIXTURES / "rules" / "simple_parsing_configs"


def test_simple_parsing_fields_are_configurable_defaults():
    assert _found(SIMPLE) == [("train.py", 31, "DL001"), ("train.py", 38, "DL011")]


@pytest.mark.parametrize(
    "call",
    [
        "simple_parsing.parse(DataConfig, config_path='c.yaml')",
        "simple_parsing.parse(DataConfig, default=DataConfig(num_workers=2))",
        "simple_parsing.parse(DataConfig, args='--num_workers 2')",
    ],
)
def test_simple_parsing_values_from_elsewhere_are_unknown(tmp_path, call):
    source = (SIMPLE / "train.py").read_text().replace("simple_parsing.parse(DataConfig)", call)
    root = _project(tmp_path, {"train.py": source})
    # the default is not known to crash: only the guard is asked for
    assert [(row, code) for _, row, code in _found(root)] == [(31, "DL011"), (38, "DL011")]


def test_simple_parsing_add_arguments_with_a_default_instance_is_unknown(tmp_path):
    source = (SIMPLE / "train.py").read_text().replace('dest="data")', 'dest="data", default=WorkerConfig(num_workers=0))')
    root = _project(tmp_path, {"train.py": source})
    assert [(row, code) for _, row, code in _found(root)] == [(31, "DL001"), (38, "DL011")]
    # (the workers are unknown now: DL011 still asks for the guard, without citing a default)
    (diag,) = [d for d in lint_paths([root]).diagnostics if d.code == "DL011"]
    assert "by default" not in diag.detail


@pytest.mark.torch
def test_simple_parsing_and_torch_agree(monkeypatch):
    """The fixture's functions run with a real command line: the crashing default raises as
    DL001 says; the unguarded option constructs and iterates at its default and raises when
    the command line sets num_workers 0, which the guarded loader survives."""
    from importlib.metadata import version

    assert version("simple_parsing") == "0.1.9"  # the version configs/dataclasses.py was read at
    from dl_lint.rules import all_rules

    module = _import(SIMPLE / "train.py")
    rules = all_rules()
    monkeypatch.setattr(sys, "argv", ["train.py"])
    exc, text = rules["DL001"].torch_raises
    with pytest.raises(exc, match=text):
        module.main_parse()
    assert len(list(module.main_add_arguments())) == 8
    assert len(list(module.main_guarded())) == 8
    monkeypatch.setattr(sys, "argv", ["train.py", "--num_workers", "0"])
    exc, text = rules["DL002"].torch_raises
    with pytest.raises(exc, match=text):
        module.main_add_arguments()
    assert len(list(module.main_guarded())) == 8
    monkeypatch.setattr(sys, "argv", ["train.py", "--num_workers", "2"])
    assert len(list(module.main_parse())) == 2  # batch_size 4: the default's crash was the workers


def test_noqa_on_the_parse_call_silences_a_json_finding(tmp_path):
    files = {
        "train.py": PARSER.format(call="parse_json_file('a.json')  # noqa: DL002"),
        "a.json": '{"model_name_or_path": "m", "dataloader_persistent_workers": true}\n',
    }
    assert _found(_project(tmp_path, files)) == []
    files["train.py"] = PARSER.format(call="parse_json_file('a.json')")
    assert _found(_project(tmp_path, files)) == [("a.json", 1, "DL002")]
