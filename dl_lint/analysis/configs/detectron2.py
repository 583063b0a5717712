"""detectron2's own loader builders, in a project that uses detectron2 as a library::

    cfg = get_cfg()                          # detectron2.config
    cfg.merge_from_file(args.config_file)    # configs/x.yaml, with _BASE_: "Base-RCNN-FPN.yaml"
    cfg.merge_from_list(args.opts)
    loader = build_detection_train_loader(cfg)   # detectron2.data

The builder is one DataLoader whose ``num_workers`` is ``cfg.DATALOADER.NUM_WORKERS``: detectron2's
default 4, or what a YAML config of the project sets (each YAML file one run, as for yacs
defaults modules: ``configs.yacs``), the command line over both (a configurable default).

Checked in detectron2 02b5c4e (facebookresearch/detectron2, not pip-installable: it builds C++
extensions; ``tests/test_yacs_configs.py`` mirrors the DataLoader arguments below with real torch
and merges the fixture's runs with real fvcore):

- ``detectron2/config/config.py``: ``get_cfg()`` is ``_C.clone()`` of ``config/defaults.py``
  (:94-103); ``CfgNode`` subclasses fvcore's (:12); ``merge_from_file`` (:37-84) loads the file
  with fvcore's ``load_yaml_with_base`` (``_BASE_`` first, the file merged over it), then reads
  its ``VERSION``: none is guessed by ``compat.guess_version`` (``compat.py:82-113``: 1 when
  ``MODEL.WEIGHT`` or ``TEST.AUG_ON`` is set, else 2); a version below 2 is upgraded by renaming
  keys (not followed: no run), 2 is merged with ``merge_from_other_cfg`` (yacs' key and type
  checks).
- ``config/defaults.py``: ``_C.DATALOADER.NUM_WORKERS = 4`` (:115); the top-level keys of the
  tree are ``TOP_KEYS`` (:26-655, ``_C.X = ...`` at module level).
- ``config/config.py:224-262`` ``configurable``: called with a ``CfgNode`` first (or ``cfg=``),
  the builder's arguments are ``from_config(cfg, ...)``'s; a keyword the ``from_config`` does not
  take is added on top (``ret.update(extra_kwargs)``), so ``num_workers=`` written at the call
  replaces the config's.
- ``data/build.py``: ``_train_loader_from_config`` (``cfg, mapper=None, *, dataset=None,
  sampler=None``) returns ``num_workers=cfg.DATALOADER.NUM_WORKERS`` (:516), and
  ``build_batch_data_loader`` gives torch ``prefetch_factor`` only when ``num_workers > 0``,
  ``persistent_workers=False`` and ``pin_memory=False`` unless passed (:304-306, :366, :384);
  ``_test_loader_from_config`` (``cfg, dataset_name, mapper=None``) returns
  ``num_workers=cfg.DATALOADER.NUM_WORKERS`` (:611) and the test loader passes torch
  ``num_workers`` alone (:675-682). With the config's values, the only crash is a negative
  ``NUM_WORKERS``: torch's ``ValueError('num_workers option should be non-negative')``. So these
  loaders are judged by DL004 only.

Followed: a call of ``build_detection_train_loader`` / ``build_detection_test_loader`` imported
from ``detectron2.data`` (or ``detectron2.data.build``) whose first argument is the name ``cfg``,
in a project one of whose files calls detectron2's ``get_cfg()`` (its bytes import it from
``detectron2.config``). Unknown (silent): a call with ``num_workers=``, ``**kwargs``, ``*args``
or a keyword the builder does not document; ``NUM_WORKERS`` set anywhere in the project's Python
(``cfg.DATALOADER.NUM_WORKERS = 0``, a ``"DATALOADER.NUM_WORKERS"`` string, ``merge_from_other_cfg``,
a ``DATALOADER`` node replaced); a YAML file with a top-level key detectron2's tree lacks (a
project's ``add_xxx_config`` may add top-level keys: such files are not runs), a ``VERSION``
other than 2 or a v1 guess, a ``_BASE_`` that cannot be read, a string value. YAML runs need
``merge_from_file`` somewhere in the project, as for yacs.

Cost: only files whose bytes call a builder and name detectron2 are parsed for this
(``candidate``); the project's YAML files are read once per run, the first time such a call is
found, and not at all when its Python sets ``NUM_WORKERS``.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from dl_lint.analysis.values import Possible, Value

ModuleAnalysis = Any  # dl_lint.analysis.module.ModuleAnalysis

__all__ = ["candidate", "loader_calls", "JUDGED_BY", "Detectron2Index"]

BUILDERS = {
    "detectron2.data.build_detection_train_loader": "build_detection_train_loader",
    "detectron2.data.build.build_detection_train_loader": "build_detection_train_loader",
    "detectron2.data.build_detection_test_loader": "build_detection_test_loader",
    "detectron2.data.build.build_detection_test_loader": "build_detection_test_loader",
}
# Keywords the builders take besides the config's (02b5c4e data/build.py: the from_config
# parameters, and the builder's own that do not reach torch's num_workers check first).
_KEYWORDS = {
    "build_detection_train_loader": frozenset({"mapper", "dataset", "sampler", "total_batch_size", "aspect_ratio_grouping", "collate_fn"}),
    "build_detection_test_loader": frozenset({"dataset_name", "mapper", "sampler", "batch_size", "collate_fn"}),
}
JUDGED_BY = frozenset({"DL004"})
KEY = ("DATALOADER", "NUM_WORKERS")
DEFAULT_WORKERS = 4  # 02b5c4e detectron2/config/defaults.py:115
TOP_KEYS = frozenset(
    {"VERSION", "MODEL", "INPUT", "DATASETS", "DATALOADER", "SOLVER", "TEST", "OUTPUT_DIR", "SEED", "CUDNN_BENCHMARK", "VIS_PERIOD", "GLOBAL"}
)  # 02b5c4e detectron2/config/defaults.py:26-655
VERSION = 2  # 02b5c4e defaults.py:26

_CALL = re.compile(rb"\bbuild_detection_(?:train|test)_loader\b")
_GET_CFG = re.compile(rb"^[ \t]*from[ \t]+detectron2\.config[ \t]+import[^\n]*\bget_cfg\b", re.M)
# Python that may set NUM_WORKERS besides the YAML and the command line.
_EDITS = re.compile(
    rb"NUM_WORKERS\s*[-+*/]?=(?!=)|\.DATALOADER\s*=(?!=)|[\"'](?:DATALOADER\.)?NUM_WORKERS[\"']|merge_from_other_cfg|\bset_new_allowed\b"
)


def candidate(data: bytes) -> bool:
    """From bytes: whether a file may call one of detectron2's loader builders."""
    return b"build_detection_t" in data and b"detectron2" in data and _CALL.search(data) is not None


def outside_detectron2(script: str) -> bool:
    """Whether a file that calls the builders is outside a tree that holds detectron2 itself (a
    folder above it with ``detectron2/data/build.py``): in detectron2's repository (its tools/
    and projects/, DensePose's own project root included) and in projects that vendor it,
    ``from detectron2.data import ...`` is the project's own module, never the library's builder
    read here, so those files are not parsed for it (11 files of detectron2 02b5c4e)."""
    import os

    return not _holds_detectron2(os.path.dirname(os.path.abspath(script)))


@lru_cache(maxsize=256)
def _holds_detectron2(folder: str) -> bool:
    import os

    if os.path.isfile(os.path.join(folder, "detectron2", "data", "build.py")):
        return True
    parent = os.path.dirname(folder)
    return parent != folder and _holds_detectron2(parent)


def forget_folders() -> None:
    """Forget which folders were found to hold detectron2 (a long-running process: ``--watch``)."""
    _holds_detectron2.cache_clear()


def loader_calls(analysis: ModuleAnalysis) -> list:
    """The DataLoaders this module's builder calls make from detectron2's config."""
    from dl_lint.analysis.loaders import BoundArg, LoaderCall

    out = []
    for call, site, scope_name, _cls in analysis.index.calls:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in _KEYWORDS:
            continue
        target = analysis.resolver.resolve(func, site).single
        builder = BUILDERS.get(getattr(target.value if target is not None else None, "qualname", None) or "")
        if builder is None or not _reads_config(call, builder):
            continue
        value = analysis.resolver.project.detectron2_workers(analysis.path) if hasattr(analysis.resolver.project, "detectron2_workers") else None
        if value is None:
            continue
        start, end = analysis.text.span(call)
        arg = BoundArg("num_workers", value.with_aliases("num_workers"), "cfg.DATALOADER.NUM_WORKERS", start, end, True, "")
        out.append(
            LoaderCall(
                analysis.path,
                "torch.utils.data.DataLoader",
                start,
                end,
                {"num_workers": arg},
                scope=scope_name,
                extra={"detectron2": builder, "reader": f"detectron2's {builder}, which reads this value"},
            )
        )
    return out


def _reads_config(call: ast.Call, builder: str) -> bool:
    """Whether the call passes ``cfg`` first (or as ``cfg=``), and no keyword that changes
    num_workers or that is not followed."""
    keywords = [k.arg for k in call.keywords]
    if None in keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "cfg"), None)
    if not (isinstance(first, ast.Name) and first.id == "cfg"):
        return False
    return all(k == "cfg" or k in _KEYWORDS[builder] for k in keywords)


class Detectron2Index:
    """The project's detectron2 runs: built once per lint run when a builder call is found."""

    def __init__(self, paths: Sequence[str], read_bytes, read_yaml, root: Optional[str]) -> None:
        self.paths = tuple(paths)
        self.uses_get_cfg = False
        self.merges_files = False
        self.edited = False
        for path in paths:
            data = read_bytes(path)
            if b"detectron2" in data and b"get_cfg" in data and _GET_CFG.search(data):
                self.uses_get_cfg = True
            if b"merge_from_file" in data:
                self.merges_files = True
            if not self.edited and (b"NUM_WORKERS" in data or b"DATALOADER" in data or b"merge_from_other_cfg" in data or b"set_new_allowed" in data):
                self.edited = _EDITS.search(data) is not None
        self._read_yaml = read_yaml
        self.root = root
        self._value: Optional[Tuple[Optional[Value], Tuple[str, ...]]] = None

    def workers(self, near: str) -> Tuple[Optional[Value], Tuple[str, ...]]:
        """The possible values of ``cfg.DATALOADER.NUM_WORKERS`` (None: not followed), and the
        YAML files that answer rests on."""
        if self._value is None:
            self._value = self._compute()
        return self._value

    def _compute(self) -> Tuple[Optional[Value], Tuple[str, ...]]:
        from dl_lint.analysis.configs.yacs import DEFAULTS_RUN, YacsOrigin, _NOT_CONFIG, _yaml_files, merged_yaml
        from dl_lint.analysis.configs.yamlfile import UNKNOWN

        if not self.uses_get_cfg or self.edited:
            return None, ()
        dotted = ".".join(KEY)
        places: Dict[Tuple[Any, str, int], set] = {(DEFAULT_WORKERS, "", 0): {DEFAULTS_RUN}}
        read: Tuple[str, ...] = ()
        if self.merges_files and self.root is not None:
            for path in _yaml_files(self.root):
                merged, files = merged_yaml(path, self._read_yaml, TOP_KEYS, True)
                read += files
                if merged is _NOT_CONFIG or merged is None:
                    continue  # not a config of detectron2's tree, or a base that cannot be read
                version = merged.get(("VERSION",))
                if version is not None and (version.value != VERSION or isinstance(version.value, bool)):
                    continue  # upgraded from an older version (keys renamed): not followed
                if version is None and (("MODEL", "WEIGHT") in merged or ("TEST", "AUG_ON") in merged):
                    continue  # guessed to be a v1 config (compat.guess_version)
                leaf = merged.get(KEY)
                if leaf is None:
                    if any(k[:1] == KEY[:1] and len(k) == 1 for k in merged):
                        continue  # DATALOADER given a value: yacs rejects the run
                    places[(DEFAULT_WORKERS, "", 0)].add(path)
                    continue
                value = leaf.value
                if value is UNKNOWN or not isinstance(value, int) or isinstance(value, bool):
                    continue  # a string (literal_eval-ed), another type (yacs rejects it), a tag
                places.setdefault((value, leaf.path, leaf.line), set()).add(path)
        grouped: Dict[Any, List[Tuple[str, str, int, FrozenSet[str]]]] = {}
        for (value, where, row), runs in places.items():
            what = f"detectron2's default, {dotted}, overridable" if not where else f"{dotted}, overridable"
            grouped.setdefault(value, []).append((what, where, row, frozenset(runs)))
        options = []
        for value, found in grouped.items():
            what = found[0][0] if len(found) == 1 else f"{dotted} in {len(found)} config files, overridable"
            options.append(Possible(value, YacsOrigin(what, found[0][1], found[0][2], tuple(found))))
        return Value(tuple(options), "config"), read


def rephrase(finding, call):
    """DL004's message for a builder: torch raises when detectron2 builds the DataLoader."""
    builder = call.extra["detectron2"]
    message = finding.message.replace(
        "torch raises ValueError at construction.",
        f"torch raises ValueError when detectron2's {builder}(cfg) builds the DataLoader.",
    )
    detail = (
        finding.detail
        + f" {builder}(cfg) passes cfg.DATALOADER.NUM_WORKERS to torch's DataLoader as num_workers (detectron2"
        " 02b5c4e data/build.py); set DATALOADER.NUM_WORKERS to 0 or more in the YAML, or on the command line"
        " (DATALOADER.NUM_WORKERS 0)."
    )
    return finding.replace(message=message, detail=detail)
