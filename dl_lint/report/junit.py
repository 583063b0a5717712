"""The ``junit`` format: JUnit XML for CI test-report viewers (GitLab, Jenkins, Azure, ...)::

    <testsuites name="dl-lint" tests="2" failures="1" errors="0">
      <testsuite name="dl-lint" tests="2" failures="1" errors="0" skipped="0">
        <testcase name="src/train.py" classname="src/train.py" file="src/train.py">
          <failure message="prefetch_factor=2 is passed ..." type="DL001">src/train.py:2:29: DL001 prefetch_factor=2 ...</failure>
        </testcase>
        <testcase name="src/data.py" classname="src/data.py" file="src/data.py" />
      </testsuite>
    </testsuites>

One test case per file: a file with problems fails with one ``<failure>`` per diagnostic; a clean
file passes (listed only when the caller passes the checked ``files``). ``tests`` and
``failures`` count test cases, so ``tests - failures`` is the number of clean files.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Sequence

from .. import printable
from ..model import Diagnostic
from ._common import sorted_diagnostics

__all__ = ["render"]

# Characters XML 1.0 cannot carry at all (even escaped): they are replaced with U+FFFD.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", text)


def _line(diag: Diagnostic) -> str:
    """The concise line (the failure's body; ruff 0.17 writes "line L, col C, message"): a test
    report lists failures one line each; the detail is the full format's, SARIF's and JSON's.
    The path and message are shown on one line (``dl_lint.printable``): the XML's text lines are
    printed as they are."""
    return f"{printable.path(diag.filename)}:{diag.location.row}:{diag.location.column}: {diag.code} {printable.text(diag.message)}"


def render(diagnostics: Sequence[Diagnostic], *, files: Optional[Sequence[str]] = None) -> str:
    """The XML document (with an XML declaration), indented, ending with a newline."""
    by_file: Dict[str, List[Diagnostic]] = {}
    for diag in sorted_diagnostics(diagnostics):
        by_file.setdefault(diag.filename, []).append(diag)
    names = sorted(set(by_file) | set(files or ()))
    failing = sum(1 for name in names if name in by_file)
    counts = {"tests": str(len(names)), "failures": str(failing), "errors": "0"}

    suites = ET.Element("testsuites", {"name": "dl-lint", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": "dl-lint", **counts, "skipped": "0"})
    for name in names:
        path = _clean(name)
        case = ET.SubElement(suite, "testcase", {"name": path, "classname": path, "file": path})
        for diag in by_file.get(name, ()):
            attributes = {"message": _clean(diag.message), "type": _clean(diag.code)}
            failure = ET.SubElement(case, "failure", attributes)
            failure.text = _clean(_line(diag))
    if hasattr(ET, "indent"):  # Python 3.9+
        ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
