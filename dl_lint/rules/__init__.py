"""The rule registry. Each rule lives in its own module, documentation included.

Importing this package does not import libcst: ``dl-lint rules`` and ``dl-lint rule CODE``
stay fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Dict, List

if TYPE_CHECKING:
    from dl_lint.rules.base import Rule

# Module names, in code order. A new rule is one module plus fixtures.
RULE_MODULES = (
    "dl000_parse_error",
    "dl001_prefetch_without_workers",
    "dl002_persistent_workers_without_workers",
    "dl003_multiprocessing_context_misuse",
    "dl004_negative_option",
    "dl005_timeout_without_workers",
    "dl006_sampler_with_shuffle",
    "dl007_batch_sampler_conflict",
    "dl008_drop_last_without_batching",
    "dl009_iterable_dataset_with_sampling",
    "dl010_invalid_batch_size",
    "dl011_unguarded_worker_option",
    "dl012_unused_noqa",
    "dl101_prefetch_memory",
    "dl102_pin_memory_without_accelerator",
    "dl103_copy_on_read_dataset",
    "dl104_container_shared_memory",
    "dl201_unsharded_iterable_dataset",
    "dl202_unpicklable_worker_callable",
    "dl203_missing_main_guard",
    "dl204_shared_rng_in_workers",
    "dl205_cuda_in_worker",
    "dl206_distributed_sampler_without_set_epoch",
    "dl301_cpu_count_workers",
    "dl302_loader_in_loop",
    "dl303_deprecated_pin_memory_device",
    "dl304_ineffective_option",
    "dl305_synchronous_loading",
    "dl306_non_blocking_without_pin_memory",
    "dl307_shuffled_eval_loader",
    "dl308_spawned_workers_not_persistent",
)

_RULES: Dict[str, Rule] = {}


def all_rules() -> Dict[str, Rule]:
    """Every rule, by code, in code order."""
    if not _RULES:
        for module_name in RULE_MODULES:
            module = importlib.import_module(f"dl_lint.rules.{module_name}")
            rule = module.RULE
            _RULES[rule.code] = rule
    return _RULES


def find_rule(text: str) -> "Rule | None":
    """The rule named by its code (any case) or its name. A code imports only its own module
    (module names start with the code), so `dl-lint rule DL001` stays fast."""
    wanted = text.strip()
    prefix = wanted.lower() + "_"
    for module_name in RULE_MODULES:
        if module_name.startswith(prefix):
            return importlib.import_module(f"dl_lint.rules.{module_name}").RULE
    return next((r for r in all_rules().values() if r.name == wanted.lower()), None)


# Rules that are off by default. Each module's ``default_on`` says the same (a test checks it);
# keeping it here lets settings be built without importing every rule module, which a run
# answered from the results cache never needs.
OFF_BY_DEFAULT = frozenset({"DL012", "DL103", "DL305"})


def code_of(module_name: str) -> str:
    """A rule module's name starts with its code: ``dl001_prefetch_without_workers``."""
    return module_name.split("_", 1)[0].upper()


def known_codes() -> Dict[str, bool]:
    """Code -> on by default (what config validation and selection need), in code order."""
    return {code_of(m): code_of(m) not in OFF_BY_DEFAULT for m in RULE_MODULES}


# Rules judged outside the loader calls: DL000 (files that cannot be read) by the engine, DL012
# (unused ``# noqa``) once every diagnostic of the run is known (dl_lint.unused_noqa).
NOT_CALL_RULES = frozenset({"DL000", "DL012"})


def checking_rules(codes) -> List[Rule]:
    return [rule for code, rule in all_rules().items() if code in codes and code not in NOT_CALL_RULES]


def markdown_table() -> str:
    """The README's rule table, generated from the rule modules (a test keeps them in sync)."""
    lines = ["| code | name | severity | default | what it reports |", "|---|---|---|---|---|"]
    for rule in all_rules().values():
        lines.append(
            f"| {rule.code} | {rule.name} | {rule.severity} | {'on' if rule.default_on else 'off'} | {rule.summary} |"
        )
    return "\n".join(lines)


DOCUMENT_HEADER = """\
# dl-lint rules

<!-- Generated from the rule modules by `python -m dl_lint.rules > docs/rules.md`: edit a rule's
`doc` in dl_lint/rules/, then regenerate. tests/test_docs.py fails when this file differs. -->

Every rule with its full documentation, as `dl-lint rule CODE` prints it. Where this page is
published and configured as `documentation-url`, each diagnostic's `url` (JSON) and each rule's
`helpUri` (SARIF) link to its section here (`#dl001`). Select rules with
`select`, `extend-select` and `ignore` (see [configuration](configuration.md)); error rules
claim a crash, so they fire only when every possible value crashes.
"""


def _demoted(markdown: str) -> str:
    """Headings one level down (outside code blocks): a rule's ``# name`` title becomes the
    page's ``##`` level, its ``## What it does`` sections ``###``."""
    out = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            line = "#" + line
        out.append(line)
    return "\n".join(out)


def rules_document() -> str:
    """docs/rules.md: the rule table (codes linking to their sections), then every rule's
    documentation under an anchor named by its code (``rules.md#dl001``, the rule URL)."""
    table = ["| code | name | severity | default | what it reports |", "|---|---|---|---|---|"]
    sections = []
    for rule in all_rules().values():
        anchor = rule.code.lower()
        table.append(
            f"| [{rule.code}](#{anchor}) | {rule.name} | {rule.severity} | "
            f"{'on' if rule.default_on else 'off'} | {rule.summary} |"
        )
        body = _demoted(rule.markdown().strip())
        # The title line "## name (CODE)" is replaced by one that starts with the code.
        body = body.split("\n", 1)[1].lstrip("\n")
        sections.append(f'<a id="{anchor}"></a>\n\n## {rule.code}: {rule.name}\n\n{body}\n')
    return DOCUMENT_HEADER + "\n" + "\n".join(table) + "\n\n" + "\n".join(sections)
