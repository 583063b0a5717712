"""Write DL202's table of torchvision's datasets (``TORCHVISION_KEEPING`` in
``dl_lint/analysis/libraries.py``) from torchvision's own source.

    python bench/torchvision_keeping.py DIR            # rewrite the table from DIR/torchvision
    python bench/torchvision_keeping.py DIR --check    # exit 1 when the table differs

DIR holds an unpacked torchvision wheel (``unzip torchvision-0.28.0-...whl -d DIR``); nothing of
it is imported or run. Its ``torchvision`` package is indexed as a project
(``dl_lint.analysis.project.Project``) and each class ``torchvision.datasets`` exports is asked
what dl-lint asks of a project class (``SummaryModule.kept_parameters``): which constructor
parameters an instance keeps as attributes, so pickles with itself (``VisionDataset.__init__``
stores ``transforms``, ``transform`` and ``target_transform``; a class passing them on to
``super().__init__`` keeps them at its own positions; ``DatasetFolder`` also keeps ``loader``).
The classes that keep a transform are written, with the version read from ``version.py``.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE_FILE = HERE.parent / "dl_lint" / "analysis" / "libraries.py"
sys.path.insert(0, str(HERE.parent))

_BEGIN = "# fmt: off\nTORCHVISION_KEPT = {\n"
_END = "}\n# fmt: on\n"
TRANSFORMS = {"transform", "target_transform", "transforms"}


def read(source: Path):
    """(version, rows): rows map a class name to (module, ((parameter, position), ...))."""
    from dl_lint.analysis.project import Project

    package = source / "torchvision"
    version = re.search(r"__version__ = '([^']+)'", (package / "version.py").read_text()).group(1)
    init = ast.parse((package / "datasets" / "__init__.py").read_text())
    exported = {}
    for node in init.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                exported[alias.asname or alias.name] = node.module
    project = Project(package)
    rows = {}
    for name, module in sorted(exported.items()):
        summary = project.summary(f"datasets.{module}")
        if summary is None:
            continue
        kept = summary.kept_parameters(name)
        if any(param in TRANSFORMS for param, _ in kept):
            rows[name] = (module, tuple(sorted(kept, key=lambda k: (k[1] < 0, k[1], k[0]))))
    return version.split("+")[0], rows


def render(version: str, rows) -> str:
    lines = [_BEGIN.rstrip("\n")]
    for name, (module, kept) in sorted(rows.items()):
        lines.append(f"    {name!r}: ({module!r}, {kept!r}),")
    lines.append(_END.rstrip("\n"))
    return f"# torchvision {version}\n" + "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args()
    version, rows = read(options.source)
    text = TABLE_FILE.read_text(encoding="utf-8")
    start = text.index("# torchvision ", text.index("-- torchvision: what a dataset keeps"))
    end = text.index(_END, start) + len(_END)
    new = text[:start] + render(version, rows) + text[end:]
    if options.check:
        if new != text:
            print("torchvision_keeping: the table differs from the source", file=sys.stderr)
            return 1
        return 0
    TABLE_FILE.write_text(new, encoding="utf-8")
    print(f"{len(rows)} classes of torchvision {version}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
