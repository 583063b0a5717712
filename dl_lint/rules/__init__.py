"""The rule registry. Each rule lives in its own module, documentation included.

Importing this package does not import libcst: ``dl-lint rules`` and ``dl-lint rule CODE``
stay fast.
"""

from __future__ import annotations

import importlib
from typing import Dict, List

from dl_lint.rules.base import Rule

# Module names, in code order. A new rule is one module plus fixtures.
RULE_MODULES = (
    "dl000_parse_error",
    "dl001_prefetch_without_workers",
    "dl011_unguarded_worker_option",
    "dl101_prefetch_memory",
    "dl102_pin_memory_without_accelerator",
    "dl201_unsharded_iterable_dataset",
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


def known_codes() -> Dict[str, bool]:
    """Code -> on by default (what config validation and selection need)."""
    return {code: rule.default_on for code, rule in all_rules().items()}


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
