"""HuggingFace ``TrainingArguments``: the loader settings a Trainer passes to torch, written in
Python (``TrainingArguments(output_dir=..., dataloader_num_workers=0)``, also
``Seq2SeqTrainingArguments`` and project ``@dataclass`` subclasses of them) or parsed by
``HfArgumentParser`` from the command line (``parse_args_into_dataclasses``) or from a JSON/YAML
file (``parse_json_file``/``parse_yaml_file``, with a literal path or the ``sys.argv[1]`` idiom of
the transformers example scripts). Facts only: each becomes a LoaderCall whose ``num_workers``,
``prefetch_factor`` and ``persistent_workers`` are the ``dataloader_*`` fields; DL001, DL002 and
DL011 judge it (``JUDGED_BY``) and ``rephrase`` words their findings for transformers.

Read in transformers 4.57.6 (the version the tests run; source as installed from PyPI):

- training_args.py:1161-1176, 1356-1364: ``dataloader_num_workers`` defaults to 0,
  ``dataloader_prefetch_factor`` to None, ``dataloader_persistent_workers`` to False (torch's
  own defaults), ``dataloader_pin_memory`` to True (not judged: not a crash).
- training_args.py:2104-2108 (``__post_init__``): ``dataloader_num_workers == 0`` with
  ``dataloader_prefetch_factor is not None`` raises ValueError ("--dataloader_prefetch_factor can
  only be set when data is loaded in a different process"): when TrainingArguments is built, so
  also inside ``HfArgumentParser.parse_*`` (which builds it), before any training.
- trainer.py:1098-1116 (``Trainer._get_dataloader``, used by ``get_train_dataloader`` and the
  eval/test loaders): ``num_workers``, ``pin_memory`` and ``persistent_workers`` always go to
  ``torch.utils.data.DataLoader``, ``prefetch_factor`` for map-style datasets. Nothing checks
  ``persistent_workers`` before: with 0 workers torch raises ValueError when the Trainer builds
  its loader (``trainer.train()`` -> ``get_train_dataloader``).
- training_args.py:3147-3154 ``set_dataloader(...)`` rewrites the fields: an instance it is
  called on (or whose fields are assigned) is judged only at construction (DL001).
- hf_argparser.py:272-356 ``parse_args_into_dataclasses``: every field is a command-line option
  whose default is the dataclass default (a configurable default); with ``look_for_args_file``
  (default) a ``<script>.args`` file next to the script is read too (then unknown here).
  :358-429 ``parse_dict``/``parse_json_file``/``parse_yaml_file``: the file's keys only, no
  command line; a key no dataclass has raises ValueError unless ``allow_extra_keys=True``.

A JSON file the ``sys.argv[1]`` idiom may read is any JSON file beside the script (or below its
folder) whose keys all name fields of the parser's dataclasses and that sets every field without a
default: one possible run. Unknown (silent): classes of other modules, subclasses with their own
``__init__``/``__post_init__``, ``**kwargs``, positional arguments past ``output_dir``.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, List, Optional, Tuple

from dl_lint.analysis.values import Origin, Possible, Value
from dl_lint.model import Location, Related

QUALNAME = "transformers.TrainingArguments"
ARGS_CLASSES = frozenset(
    {
        "transformers.TrainingArguments",
        "transformers.training_args.TrainingArguments",
        "transformers.Seq2SeqTrainingArguments",
        "transformers.training_args_seq2seq.Seq2SeqTrainingArguments",
    }
)
PARSERS = frozenset({"transformers.HfArgumentParser", "transformers.hf_argparser.HfArgumentParser"})
# field -> torch's parameter, TrainingArguments' default (4.57.6, training_args.py)
FIELDS = {
    "dataloader_num_workers": ("num_workers", 0),
    "dataloader_prefetch_factor": ("prefetch_factor", None),
    "dataloader_persistent_workers": ("persistent_workers", False),
}
PARAM_FIELD = {param: field for field, (param, _) in FIELDS.items()}
JUDGED_BY = frozenset({"DL001", "DL002", "DL011"})
_PARSE_FILE = {"parse_json_file": (".json",), "parse_yaml_file": (".yaml", ".yml")}
_PARSE_METHODS = frozenset({"parse_args_into_dataclasses", *_PARSE_FILE})
# An arguments file is a few hundred bytes; a larger JSON beside a script is data, never parsed.
_MAX_ARGS_FILE = 256 * 1024


def candidate(data: bytes) -> bool:
    """From bytes: whether a file may build TrainingArguments with loader settings worth reading
    (the ``dataloader_`` fields written, or a parser reading a file)."""
    return b"TrainingArguments" in data and (b"dataloader_" in data or b"parse_json_file" in data or b"parse_yaml_file" in data)


# Every field of TrainingArguments and Seq2SeqTrainingArguments in transformers 4.57.6
# (``dataclasses.fields``), to tell whether a JSON file's keys can all be parsed.
TRAINING_FIELDS = frozenset(
    """output_dir overwrite_output_dir do_train do_eval do_predict eval_strategy prediction_loss_only
    per_device_train_batch_size per_device_eval_batch_size per_gpu_train_batch_size per_gpu_eval_batch_size
    gradient_accumulation_steps eval_accumulation_steps eval_delay torch_empty_cache_steps learning_rate
    weight_decay adam_beta1 adam_beta2 adam_epsilon max_grad_norm num_train_epochs max_steps lr_scheduler_type
    lr_scheduler_kwargs warmup_ratio warmup_steps log_level log_level_replica log_on_each_node logging_dir
    logging_strategy logging_first_step logging_steps logging_nan_inf_filter save_strategy save_steps
    save_total_limit save_safetensors save_on_each_node save_only_model restore_callback_states_from_checkpoint
    no_cuda use_cpu use_mps_device seed data_seed jit_mode_eval bf16 fp16 fp16_opt_level half_precision_backend
    bf16_full_eval fp16_full_eval tf32 local_rank ddp_backend tpu_num_cores tpu_metrics_debug debug
    dataloader_drop_last eval_steps dataloader_num_workers dataloader_prefetch_factor past_index run_name
    disable_tqdm remove_unused_columns label_names load_best_model_at_end metric_for_best_model greater_is_better
    ignore_data_skip fsdp fsdp_min_num_params fsdp_config fsdp_transformer_layer_cls_to_wrap
    accelerator_config parallelism_config deepspeed label_smoothing_factor optim optim_args adafactor
    group_by_length length_column_name report_to project trackio_space_id ddp_find_unused_parameters
    ddp_bucket_cap_mb ddp_broadcast_buffers dataloader_pin_memory dataloader_persistent_workers
    skip_memory_metrics use_legacy_prediction_loop push_to_hub resume_from_checkpoint hub_model_id
    hub_strategy hub_token hub_private_repo hub_always_push hub_revision gradient_checkpointing
    gradient_checkpointing_kwargs include_inputs_for_metrics include_for_metrics eval_do_concat_batches
    fp16_backend push_to_hub_model_id push_to_hub_organization push_to_hub_token mp_parameters
    auto_find_batch_size full_determinism torchdynamo ray_scope ddp_timeout torch_compile
    torch_compile_backend torch_compile_mode include_tokens_per_second include_num_input_tokens_seen
    neftune_noise_alpha optim_target_modules batch_eval_metrics eval_on_start use_liger_kernel
    liger_kernel_config eval_use_gather_object average_tokens_across_devices
    sortish_sampler predict_with_generate generation_max_length generation_num_beams generation_config""".split()
)


class _Class:
    """A TrainingArguments class: the library's own (``node`` None) or a project ``@dataclass``
    subclass, with the dataloader field defaults its bodies set (nearest class first) and the
    names of every field its bodies declare."""

    def __init__(self, name: str, node: Optional[ast.ClassDef], defaults: Dict[str, Tuple[ast.expr, int]], names: frozenset, required: frozenset) -> None:
        self.name = name
        self.node = node
        self.defaults = defaults
        self.names = names
        self.required = required


def _is_dataclass(resolver, cls: ast.ClassDef) -> bool:
    from dl_lint.analysis.configs.dataclasses import DATACLASS_DECORATORS
    from dl_lint.analysis.scopes import END

    for decorator in cls.decorator_list:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        if resolver._qualname_of(func, END, 1) in DATACLASS_DECORATORS:
            return not (isinstance(decorator, ast.Call) and any(k.arg == "init" for k in decorator.keywords))
    return False


def _body_fields(cls: ast.ClassDef):
    """(defaults of the dataloader fields, every field name, the fields without a default) of a
    class body; None when it defines ``__init__``/``__post_init__`` or sets a dataloader field
    in a way not read here."""
    defaults: Dict[str, Tuple[ast.expr, int]] = {}
    names, required = set(), set()
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name in ("__init__", "__post_init__"):
            return None
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id in FIELDS for t in statement.targets):
            return None
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        name = statement.target.id
        names.add(name)
        value = statement.value
        if value is None:
            required.add(name)
            continue
        if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "field":
            given = {k.arg: k.value for k in value.keywords}
            if "default" not in given and "default_factory" not in given:
                required.add(name)
            value = given.get("default")
        if name in FIELDS:
            if value is None:
                return None  # default_factory or no default: not read here
            defaults[name] = (value, statement.lineno)
    return defaults, frozenset(names), frozenset(required)


def args_class(resolver, func: ast.AST, site, depth: int = 0) -> Optional[_Class]:
    """The TrainingArguments class ``func`` names: the library's, or a project subclass of it
    in this module; None for anything else (or a subclass not read here)."""
    qualname = resolver._qualname_of(func, site, depth + 1)
    if qualname in ARGS_CLASSES:
        return _Class(qualname.rsplit(".", 1)[1], None, {}, TRAINING_FIELDS, frozenset())
    if depth > 4:
        return None
    from dl_lint.analysis.values import FunctionRef

    found = resolver.resolve(func, site, depth + 1).single
    target = found.value if found is not None else None
    if not isinstance(target, FunctionRef) or target.kind != "class" or target.path != resolver.path:
        return None
    cls = next((c for c in resolver.index.module_classes if c.name == target.name and c.lineno == target.line), None)
    if cls is None or len(cls.bases) != 1 or cls.keywords or not _is_dataclass(resolver, cls):
        return None
    from dl_lint.analysis.scopes import END

    base = args_class(resolver, cls.bases[0], END, depth + 1)
    body = _body_fields(cls)
    if base is None or body is None:
        return None
    defaults, names, required = body
    return _Class(cls.name, cls, {**base.defaults, **defaults}, base.names | names, (base.required - names) | required)


def _project_dataclass_fields(resolver, func: ast.AST, site) -> Optional[Tuple[frozenset, frozenset]]:
    """(field names, required fields) of a ``@dataclass`` of this module without bases."""
    from dl_lint.analysis.values import FunctionRef

    found = resolver.resolve(func, site, 1).single
    target = found.value if found is not None else None
    if not isinstance(target, FunctionRef) or target.kind != "class" or target.path != resolver.path:
        return None
    cls = next((c for c in resolver.index.module_classes if c.name == target.name and c.lineno == target.line), None)
    if cls is None or cls.bases or not _is_dataclass(resolver, cls):
        return None
    body = _body_fields(cls)
    return None if body is None else (body[1], body[2])


def _location(node: ast.AST) -> Tuple[Location, Location]:
    return Location(node.lineno, node.col_offset + 1), Location(node.end_lineno or node.lineno, (node.end_col_offset or 0) + 1)


def _bound(param: str, value: Value, node: ast.AST):
    from dl_lint.analysis.loaders import BoundArg

    start, end = _location(node)
    shown = node.value if isinstance(node, ast.keyword) else node
    return BoundArg(param, value.with_aliases(param), ast.unparse(shown) if hasattr(ast, "unparse") else "", start, end, True, "")


def _defaults(resolver, cls: _Class, configurable: bool, skip=()) -> Dict[str, object]:
    """BoundArgs of the dataloader fields at their class defaults (a subclass's, else the
    library's); ``configurable``: the command line may set them (source "argparse")."""
    from dl_lint.analysis.loaders import BoundArg
    from dl_lint.analysis.scopes import END

    out = {}
    for field, (param, library_default) in FIELDS.items():
        if field in skip:
            continue
        settable = f", settable with --{field}" if configurable else ""
        if field in cls.defaults:
            expr, line = cls.defaults[field]
            value = resolver.resolve(expr, END, 1)
            if value.is_unknown:
                value = Value.unknown("argparse" if configurable else value.source)
            else:
                origin = Origin(f"default of {cls.name}.{field}{settable}", resolver.path, line)
                value = Value(tuple(Possible(p.value, origin, p.guards) for p in value.options or ()), "argparse" if configurable else value.source)
            out[param] = _bound(param, value, expr)
        elif configurable or param == "num_workers":
            origin = Origin(f"TrainingArguments' default{settable}")
            value = Value((Possible(library_default, origin),), "argparse" if configurable else None)
            out[param] = BoundArg(param, value.with_aliases(param), "", Location(0, 0), Location(0, 0), True, "")
    return out


def _edited(scope: ast.AST, name: str) -> bool:
    """``name.dataloader_x = ...``, ``name.set_dataloader(...)`` or ``name`` rebound, in scope."""
    assigned = 0
    for node in ast.walk(scope):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            if node.attr == "set_dataloader" or (node.attr in FIELDS and not isinstance(node.ctx, ast.Load)):
                return True
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            assigned += 1
        elif isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in node.args):
            func = node.func
            if getattr(func, "attr", getattr(func, "id", "")) == "replace":
                return True  # dataclasses.replace(args, ...)
    return assigned > 1


# Calls an arguments object may be handed to without being changed: the Trainer (its loader is
# the point) and printing or logging it.
_HARMLESS_USES = frozenset({"print", "str", "repr", "info", "debug", "warning", "log", "format"})


def _handed_over(scope: ast.AST, name: str) -> bool:
    """``name`` is passed to a call that may change it (anything but a Trainer or a log)."""
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call):
            continue
        values = list(node.args) + [k.value for k in node.keywords]
        if not any(isinstance(v, ast.Name) and v.id == name for v in values):
            continue
        func = node.func
        terminal = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if not (terminal.endswith("Trainer") or terminal in _HARMLESS_USES):
            return True
    return False


def _module_edits(tree: ast.AST) -> bool:
    """Some code of the module sets a ``dataloader_*`` field or calls ``set_dataloader``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
            (node.attr in FIELDS and not isinstance(node.ctx, ast.Load)) or node.attr == "set_dataloader"
        ):
            return True
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            return True
    return False


def _trainer_argument(scope: ast.AST, call: ast.Call) -> bool:
    """The construction is written as an argument of a ``...Trainer(...)`` call."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and any(v is call for v in list(node.args) + [k.value for k in node.keywords]):
            func = node.func
            terminal = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            return terminal.endswith("Trainer")
    return False


def _assigned_name(scope: ast.AST, call: ast.Call) -> Optional[str]:
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


def loader_calls(analysis) -> list:
    """The TrainingArguments constructions and HfArgumentParser parses of a module, as
    LoaderCalls (qualname ``QUALNAME``)."""

    resolver = analysis.resolver
    calls = []
    # Names a construction can be called by: the classes, their import aliases, this module's
    # classes (subclasses); every other call is left alone without being resolved.
    names = {name.rsplit(".", 1)[1] for name in ARGS_CLASSES} | {c.name for c in analysis.index.module_classes}
    for node in ast.walk(analysis.tree):
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname and a.name in names)
    parsing = "HfArgumentParser" in analysis.source
    for call, site, _scope_name, cls_name in analysis.index.calls:
        func = call.func
        terminal = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if terminal in _PARSE_METHODS and isinstance(func, ast.Attribute):
            if parsing:
                resolver.current_class = cls_name
                calls.extend(_parsed(analysis, call, site, site.scope if site.scope is not None else analysis.tree))
            continue
        if terminal not in names:
            continue
        scope = site.scope if site.scope is not None else analysis.tree
        resolver.current_class = cls_name
        found = args_class(resolver, call.func, site)
        if found is None:
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > 1 or any(k.arg is None for k in call.keywords):
            continue  # **kwargs or positions past output_dir: not read here
        keywords = {k.arg: k for k in call.keywords if k.arg in FIELDS}
        args = _defaults(resolver, found, False, skip=keywords)
        for field, keyword in keywords.items():
            param = FIELDS[field][0]
            args[param] = _bound(param, resolver.resolve(keyword.value, site), keyword)
        if not keywords and not found.defaults:
            continue  # the library's defaults: nothing to judge
        # Until the Trainer reads them, the fields can change: DL002/DL011 only for an object
        # whose every use is seen (DL001's __post_init__ raises at construction anyway).
        name = _assigned_name(scope, call)
        seen = (
            not _module_edits(analysis.tree)
            and (_trainer_argument(scope, call) if name is None else not (_edited(scope, name) or _handed_over(scope, name)))
        )  # fmt: skip
        judged = JUDGED_BY if seen else frozenset({"DL001"})
        start, end = _location(call)
        what = f"{found.name}(...)"
        calls.append(_call(analysis.path, start, end, args, what, "built here", judged, ""))
    return calls


def _call(path, start, end, args, what, note, judged, how):
    from dl_lint.analysis.loaders import LoaderCall, PARAMETERS

    opaque = frozenset(p for p in PARAMETERS if p not in args and p not in PARAM_FIELD)
    extra = {"transformers": what, "reader": f"{what} {note}", "judged": judged, "how": how}
    return LoaderCall(path, QUALNAME, start, end, args, opaque=opaque, extra=extra)


def _parser_types(analysis, call: ast.Call, scope) -> Optional[List[ast.expr]]:
    """The dataclass types of the ``HfArgumentParser`` the parse method is called on: the name
    is bound once, in the same scope, to ``HfArgumentParser(types)``."""
    owner = call.func.value if isinstance(call.func, ast.Attribute) else None
    if isinstance(owner, ast.Call):
        built = owner
    elif isinstance(owner, ast.Name):
        bindings = [
            node for node in ast.walk(scope)
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr))
            and any(isinstance(t, ast.Name) and t.id == owner.id for t in _targets(node))
        ]  # fmt: skip
        if len(bindings) != 1 or not isinstance(bindings[0], ast.Assign) or not isinstance(bindings[0].value, ast.Call):
            return None
        built = bindings[0].value
    else:
        return None
    if analysis.resolver._qualname_of(built.func, _site(analysis), 1) not in PARSERS or len(built.args) != 1 or built.keywords:
        return None
    types = built.args[0]
    return list(types.elts) if isinstance(types, (ast.Tuple, ast.List)) else [types]


def _targets(node):
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield from ast.walk(target)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)):
        yield from ast.walk(node.target)
    elif isinstance(node, ast.With):
        for item in node.items:
            if item.optional_vars is not None:
                yield from ast.walk(item.optional_vars)


def _site(analysis):
    from dl_lint.analysis.scopes import END

    return END


def _parsed(analysis, call: ast.Call, site, scope) -> list:
    resolver = analysis.resolver
    types = _parser_types(analysis, call, scope)
    if not types:
        return []
    training = [t for t in (args_class(resolver, t, site) for t in types) if t is not None]
    if len(training) != 1:
        return []
    found = training[0]
    method = call.func.attr
    start, end = _location(call)
    if method == "parse_args_into_dataclasses":
        if call.args or any(k.arg in ("args", "args_filename", "args_file_flag") for k in call.keywords):
            return []
        if os.path.exists(os.path.splitext(analysis.path)[0] + ".args"):
            return []  # read with the command line: not modelled
        if not found.defaults:
            return []  # the library's defaults: nothing crashes, nothing is unguarded
        args = _defaults(resolver, found, True)
        what = "parser.parse_args_into_dataclasses()"
        judged = frozenset({"DL001"}) if _module_edits(analysis.tree) else JUDGED_BY
        return [_call(analysis.path, start, end, args, what, "parses these settings", judged, "--dataloader_num_workers")]
    # parse_json_file / parse_yaml_file: the files it may read
    path_keyword = "json_file" if method == "parse_json_file" else "yaml_file"
    given = list(call.args) + [k.value for k in call.keywords if k.arg == path_keyword]
    if len(given) != 1 or any(k.arg not in ("allow_extra_keys", path_keyword) for k in call.keywords):
        return []
    allow_extra = any(k.arg == "allow_extra_keys" for k in call.keywords)  # (True or unknown: keys not checked)
    names = set(found.names)
    required = set(found.required)
    for t in types:
        if args_class(resolver, t, site) is not None:
            continue
        fields = _project_dataclass_fields(resolver, t, site)
        if fields is None:
            if not allow_extra:
                return []  # the keys cannot be checked
            continue
        names |= fields[0]
        required |= fields[1]
    suffixes = _PARSE_FILE[method]
    paths, named = _files(analysis, given[0], suffixes, resolver)
    out = []
    for path in paths:
        analysis.resolver.project.read_config_file(path)  # the answer rests on its bytes
        from dl_lint.analysis.configs.yamlfile import Leaf, Tree, YamlError
        from dl_lint.reading import Refused

        try:
            data = analysis.resolver.project.config_bytes(path)
        except Refused as exc:
            if not named or exc.outside or exc.missing:
                continue  # found by walking, or not the project's: unknown
            data, tree = None, YamlError(path, exc.reason if exc.size is None else "larger than 4 MiB: not read", 1, 1)
        if data is not None:
            if len(data) > _MAX_ARGS_FILE or b"dataloader_" not in data:
                continue  # large (a data file), or sets none of the judged fields: not parsed
            text, tree = analysis.resolver.project.config_file(path, "safe")  # yaml.safe_load / json
        if isinstance(tree, YamlError):
            analysis.resolver.project._config_errors.setdefault(os.path.abspath(analysis.path), set()).add(tree)
            # judged by no rule: it only lets the run report the file's DL000 (``judge._config_dl000``)
            out.append(_call(analysis.path, start, end, {}, f"parser.{method}()", "reads this file", frozenset(), ""))
            continue
        if not isinstance(tree, Tree):
            continue
        keys = {k for k, _ in tree.entries}
        if not keys & set(FIELDS) or not required <= keys or (not allow_extra and not keys <= names):
            continue
        args = _defaults(resolver, found, False, skip=keys)
        ok = True
        for field in FIELDS:
            node = tree.get(field)
            if node is None:
                continue
            if not isinstance(node, Leaf):
                ok = False
                break
            param = FIELDS[field][0]
            from dl_lint.analysis.configs.yamlfile import UNKNOWN
            from dl_lint.analysis.loaders import BoundArg

            kind = "JSON" if path.endswith(".json") else "YAML"
            origin = Origin(f"{field} in the {kind} file", path, node.line)
            value = Value.unknown("config") if node.value is UNKNOWN else Value((Possible(node.value, origin),), None)
            args[param] = BoundArg(param, value.with_aliases(param), "", start, end, True, "")
        if ok:
            what = f"parser.{method}()"
            judged = frozenset({"DL001"}) if _module_edits(analysis.tree) else JUDGED_BY
            out.append(_call(analysis.path, start, end, args, what, "reads this file", judged, ""))
    return out


def _files(analysis, expr: ast.AST, suffixes, resolver) -> Tuple[List[str], bool]:
    """The files a parse may read, and whether the code names them: a literal path (relative to
    the script's folder or the project root, exactly one existing), or, for ``sys.argv[...]``,
    every file with the suffix in the script's folder and below (a bounded walk)."""
    from dl_lint.analysis.scopes import END

    here = os.path.dirname(os.path.abspath(analysis.path))
    if any(isinstance(n, ast.Attribute) and n.attr == "argv" and getattr(n.value, "id", "") == "sys" for n in ast.walk(expr)):
        found = []
        for root, dirs, files in os.walk(here):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
            found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(suffixes))
            if root.count(os.sep) - here.count(os.sep) >= 2 or len(found) > 50:
                dirs[:] = []
        return found[:50], False
    single = resolver.resolve(expr, END, 1).single
    text = single.value if single is not None and isinstance(single.value, str) else None
    if not text or not text.endswith(suffixes):
        return [], True
    bases = [here]
    root = getattr(resolver.project, "root", None)
    if root is not None:
        bases.append(os.fspath(root))
    # lexists: a named pipe or a link to a device is named here, so reported (never opened blocking)
    found = {os.path.realpath(os.path.join(b, text)) for b in bases if os.path.lexists(os.path.join(b, text))}
    return (sorted(found) if len(found) == 1 else []), True


# -- wording --------------------------------------------------------------------------------------


def _shown(call, param: str, origins: bool = False) -> str:
    """The values of a field (``0 or 2``), or with where each comes from (the detail's)."""
    value = call.value(param)
    texts = []
    for p in value.options or ():
        text = repr(p.value if param != "num_workers" or p.value is not None else 0)
        where = p.origin.describe() if origins and p.origin is not None else ""
        if where:
            text += f" ({where})"
        if text not in texts:
            texts.append(text)
    return " or ".join(texts) or "unknown"


def _first(call, param: str):
    options = call.value(param).options or ()
    return options[0].value if options else None


def rephrase(finding, code: str, call):
    """A finding of DL001/DL002/DL011 on a TrainingArguments call, worded for transformers: the
    field names, and which library raises when."""
    built = call.extra["transformers"]
    workers = _shown(call, "num_workers")
    origin = f"dataloader_num_workers is {_shown(call, 'num_workers', origins=True)}. "
    how = call.extra.get("how") or "dataloader_num_workers"
    if code == "DL001":
        message = (
            f"dataloader_prefetch_factor={_first(call, 'prefetch_factor')!r} but dataloader_num_workers is {workers}: "
            "transformers raises ValueError before training."
        )
        detail = (
            f"{origin}transformers raises in TrainingArguments.__post_init__, when {built} builds the arguments: "
            "\"--dataloader_prefetch_factor can only be set when data is loaded in a different process\" (torch "
            "itself would refuse it too: \"prefetch_factor option could only be specified in multiprocessing\"). "
            "Set dataloader_num_workers > 0, or leave dataloader_prefetch_factor unset (None)."
        )
    elif code == "DL002":
        message = (
            f"dataloader_persistent_workers={_first(call, 'persistent_workers')!r} but dataloader_num_workers is "
            f"{workers}: trainer.train() raises ValueError."
        )
        detail = (
            f"{origin}TrainingArguments accepts it; torch raises when the Trainer builds its DataLoader: "
            "\"persistent_workers option needs num_workers > 0\" (the Trainer passes both to DataLoader as they "
            "are). Set dataloader_num_workers > 0, or dataloader_persistent_workers=False."
        )
    else:
        prefetch = finding.message.startswith("prefetch_factor")
        field = "dataloader_prefetch_factor" if prefetch else "dataloader_persistent_workers"
        param = "prefetch_factor" if prefetch else "persistent_workers"
        value = _first(call, param)
        then = "transformers then raises ValueError" if prefetch else "trainer.train() then raises ValueError"
        when = (
            "transformers raises ValueError when TrainingArguments is built"
            if prefetch
            else "torch raises ValueError when the Trainer builds its DataLoader"
        )
        code_text = call.args["num_workers"].code if "num_workers" in call.args and call.args["num_workers"].code else how
        guard = f"{value!r} if {code_text} > 0 else None" if prefetch else f"{code_text} > 0"
        message = f"{field}={value!r} is unguarded but dataloader_num_workers can be 0: {then}."
        default = origin if call.value("num_workers").options else ""
        detail = (
            f"{default}dataloader_num_workers (`{code_text}`) is configurable, and with 0 {when}. "
            f"Guard the option: `{field}={guard}`."
        )
    related = finding.related
    at = call.location
    if finding.place is None and (finding.location.row, finding.location.column) != (at.row, at.column):
        related = (Related(os.path.abspath(call.path), at.row, at.column, call.extra["reader"]), *related)
    location, end_location = finding.location, finding.end_location
    if location.row == 0:  # a library default bound without a place: report at the call
        location, end_location = call.location, call.end_location
    return finding.replace(message=message, detail=detail, fix=None, related=related, location=location, end_location=end_location)
