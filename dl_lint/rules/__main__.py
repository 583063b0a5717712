"""``python -m dl_lint.rules``: print docs/rules.md, generated from the rule modules
(``python -m dl_lint.rules > docs/rules.md``; tests/test_docs.py keeps the committed file in sync)."""

import sys

from dl_lint.rules import rules_document

sys.stdout.write(rules_document())
