"""Typed Argument Parser (``tap``) classes: ``class Args(Tap): num_workers: int = 4`` then
``args = Args().parse_args()``; each class variable is a command-line option whose default is
the value written in the class body.

Facts, read by running typed-argument-parser 1.12.0 (PyPI; Python 3.10+; the test extra pins
it, and tests/test_tap_arguments.py runs the fixtures through it and torch):

- every class variable of the class and of its ``Tap`` bases is an option, annotated or not
  (``plain = 7`` is ``--plain``, 7 by default); a subclass's value overrides its base's; a
  variable annotated without a value is a required option (unknown here);
- ``parse_args()`` returns the object itself with the command line's values set over the
  defaults (``known_only=True`` ignores unknown options and changes nothing else); given
  ``args=[...]`` it parses that list instead (unknown here);
- ``configure()`` may change an option (``self.add_argument("--num_workers", default=9)`` makes
  the default 9): the options it names (``self.NAME``, a string holding NAME) are options whose
  default is unknown; ``process_args()`` runs after parsing and may set any attribute
  (``self.num_workers = 0``): the options it names are unknown, not even settable; an
  ``__init__`` of the project's, or ``config_files=`` (defaults read from files) and other
  arguments of the construction, make every option unknown.

A default is configurable (the command line may set it), as an argparse default is: crash rules
judge the default as the value the script runs with, ``DL011`` asks for the guard.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Tuple

TAP_CLASSES = frozenset({"tap.Tap", "tap.tap.Tap"})
# Keywords of ``Tap(...)`` that leave the options and their defaults alone.
HARMLESS_KEYWORDS = frozenset({"underscores_to_dashes", "explicit_bool", "description", "prog", "add_help", "formatter_class", "epilog"})
# Methods that may change an option's default or value (the options they name are unknown).
_CHANGING = ("configure", "process_args")


def class_options(cls: ast.ClassDef) -> Optional[Tuple[List[Tuple[str, Optional[ast.expr], int]], Dict[str, str]]]:
    """(options, changed) of one class body: each class variable as (name, default expression
    or None when required, line), and the names ``configure`` ("configure") or
    ``process_args`` ("process_args") mention. None when the class defines ``__init__``
    (anything may happen to any option)."""
    options: List[Tuple[str, Optional[ast.expr], int]] = []
    unknown: Dict[str, str] = {}
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name == "__init__":
                return None
            if statement.name in _CHANGING:
                for name in _named(statement):
                    if unknown.get(name) != "process_args":
                        unknown[name] = statement.name
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            annotation = ast.unparse(statement.annotation) if hasattr(ast, "unparse") else ""
            if "ClassVar" in annotation:
                continue
            options.append((statement.target.id, statement.value, statement.lineno))
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            options.append((statement.targets[0].id, statement.value, statement.lineno))
    return options, unknown


def _named(function: ast.AST) -> Set[str]:
    """The names a method may set or redefine: ``self.NAME`` and the words of its strings
    (``"--num_workers"``, ``"num_workers"``)."""
    found: Set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value.lstrip("-").replace("-", "_"))
    return found


def merged(levels: List[Tuple[List[Tuple[str, Optional[ast.expr], int]], Dict[str, str], str]]) -> Dict[str, Tuple[Optional[ast.expr], int, str, str]]:
    """The options of a class from its levels, base first (each: options, changed names, the
    class's name): name -> (default, line, class, the method that may change it or "");
    a subclass's value overrides."""
    out: Dict[str, Tuple[Optional[ast.expr], int, str]] = {}
    changed: Dict[str, str] = {}
    for options, unknown, name in levels:
        for option, default, line in options:
            out[option] = (default, line, name)
        for option, method in unknown.items():
            if changed.get(option) != "process_args":
                changed[option] = method
    return {k: (d, line, n, changed.get(k, "")) for k, (d, line, n) in out.items()}
