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
    "dl101_prefetch_memory",
    "dl102_pin_memory_without_accelerator",
    "dl103_copy_on_read_dataset",
    "dl201_unsharded_iterable_dataset",
    "dl202_unpicklable_worker_callable",
    "dl203_missing_main_guard",
    "dl204_shared_rng_in_workers",
    "dl205_cuda_in_worker",
    "dl301_cpu_count_workers",
    "dl302_loader_in_loop",
    "dl303_deprecated_pin_memory_device",
    "dl304_ineffective_option",
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
OFF_BY_DEFAULT = frozenset({"DL103"})


def code_of(module_name: str) -> str:
    """A rule module's name starts with its code: ``dl001_prefetch_without_workers``."""
    return module_name.split("_", 1)[0].upper()


def known_codes() -> Dict[str, bool]:
    """Code -> on by default (what config validation and selection need), in code order."""
    return {code_of(m): code_of(m) not in OFF_BY_DEFAULT for m in RULE_MODULES}


def checking_rules(codes) -> List[Rule]:
    return [rule for code, rule in all_rules().items() if code in codes and code != "DL000"]


def markdown_table() -> str:
    """The README's rule table, generated from the rule modules (a test keeps them in sync)."""
    lines = ["| code | name | severity | default | what it reports |", "|---|---|---|---|---|"]
    for rule in all_rules().values():
        lines.append(
            f"| {rule.code} | {rule.name} | {rule.severity} | {'on' if rule.default_on else 'off'} | {rule.summary} |"
        )
    return "\n".join(lines)
