"""DL012 (unused-noqa), judged once every diagnostic of a run is known.

A ``# noqa`` directive is used when it silences a diagnostic, and a directive on one line may
silence a finding reported elsewhere (a loader built from a call's arguments is reported at the
call; a value set in a YAML config is reported at its YAML line but silenced on the DataLoader
call). So the judging stages keep what they silence when DL012 is enabled for the file whose
directive silences it, marked with ``Diagnostic.suppressed_at`` (where that directive is), instead
of dropping it; cached results keep the mark. This pass counts the marks, reports the dl-lint
codes that silenced nothing, and drops the marked diagnostics. A run without DL012 never marks
anything and never comes here.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Sequence, Set, Tuple

from dl_lint.files import SourceFile, decode_source, read
from dl_lint.model import Diagnostic, Edit, Fix, Location, Severity

CODE = "DL012"
NAME = "unused-noqa"


def enabled_somewhere(files: Iterable[SourceFile]) -> bool:
    """Whether any linted file's settings select DL012 (before per-file-ignores: cheap)."""
    from dl_lint.config import enabled_codes
    from dl_lint.rules import known_codes

    codes = known_codes()
    seen: Set[int] = set()
    for file in files:
        if id(file.settings) not in seen:
            seen.add(id(file.settings))
            if CODE in enabled_codes(file.settings, codes):
                return True
    return False


def report_unused(diagnostics: List[Diagnostic], files: Sequence[SourceFile]) -> List[Diagnostic]:
    """The diagnostics without those marked as silenced, plus a DL012 for each directive (in a
    Python file with DL012 enabled) that names dl-lint codes which silenced nothing."""
    from dl_lint.config import codes_for_file
    from dl_lint.rules import known_codes

    used: Set[Tuple[str, int, str]] = set()  # (absolute path, row, code or prefix as named)
    kept: List[Diagnostic] = []
    silenced: Dict[str, List[Diagnostic]] = {}
    for diag in diagnostics:
        if diag.suppressed_at is None:
            kept.append(diag)
        else:
            silenced.setdefault(diag.suppressed_at[0], []).append(diag)
    known = known_codes()
    for file in files:
        if file.is_notebook or file.errors and not file.source:
            continue
        enabled = codes_for_file(file.settings, known, file.path)
        if CODE not in enabled:
            continue
        source = _source(file)
        if source is None or "noqa" not in source.lower():
            continue
        from dl_lint.suppression import line_directives, parse_suppressions

        directives = line_directives(source)
        if not directives:
            continue
        suppressions = parse_suppressions(source)
        for diag in silenced.get(file.key, ()):
            first, last = diag.suppressed_at[1], diag.suppressed_at[2]
            for row, named in suppressions.matching(diag.replace(noqa_rows=(first, last))):
                used.add((file.key, row, named))
        lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for directive in directives:
            found = _unused(directive, file.key, used, enabled, known, file.settings.external)
            if found is None:
                continue
            diag = _diagnostic(file.display, directive, found, lines[directive.row - 1])
            if not suppressions.suppresses(diag):
                kept.append(diag)
    kept.sort(key=Diagnostic.sort_key)
    return kept


def _source(file: SourceFile):
    if file.source is None:
        if not file.data:
            read(file)
        if not file.data or not decode_source(file):
            return None
    return file.source


def _unused(directive, path: str, used, enabled: FrozenSet[str], known, external: Tuple[str, ...]):
    """(unused codes, non-enabled codes) of a directive, as named; None when every dl-lint code
    in it silenced something (or it names none)."""
    if directive.codes is None:
        return None  # a bare directive: any tool's
    unused: List[str] = []
    disabled: List[str] = []
    for named in directive.codes:
        if not any(code.startswith(named) for code in known):
            continue  # another tool's code (or one no dl-lint rule has): not ours to judge
        if any(named.startswith(prefix) for prefix in external) or CODE.startswith(named):
            continue  # declared as another tool's, or it names DL012 itself
        if (path, directive.row, named) in used:
            continue
        if any(code.startswith(named) for code in enabled):
            unused.append(named)
        else:
            disabled.append(named)
    return (unused, disabled) if unused or disabled else None


def _diagnostic(display: str, directive, found, line: str) -> Diagnostic:
    unused, disabled = found
    parts = [
        f"{kind}: {', '.join(codes)}"
        for kind, codes in (("unused", unused), ("non-enabled", disabled))
        if codes
    ]
    message = f"Unused `noqa` directive ({'; '.join(parts)}): it silences nothing here."
    gone = set(unused) | set(disabled)
    detail_parts = []
    if unused:
        detail_parts.append(f"No {_or(unused)} diagnostic is reported on the rows this directive covers")
    if disabled:
        detail_parts.append(
            f"{_or(disabled)} {'is' if len(disabled) == 1 else 'are'} not enabled for this file"
        )
    detail = (
        f"{'; '.join(detail_parts)}: the directive hides nothing today and would hide a new problem of "
        f"that code on this line. Remove {_and(sorted(gone))} from it (an unused code left on purpose: add `DL012` to the "
        "directive; another tool's code that looks like dl-lint's: list it in the `external` setting)."
    )
    location = Location(directive.row, directive.start)
    end = Location(directive.row, directive.end)
    return Diagnostic(
        code=CODE,
        name=NAME,
        severity=Severity.INFO,
        message=message,
        filename=display,
        location=location,
        end_location=end,
        fix=_fix(directive, gone, line),
        noqa_rows=(directive.row, directive.row),
        detail=detail,
    )


def _fix(directive, gone: Set[str], line: str) -> Fix:
    """Remove the unused codes; with none left, the directive and its reason (up to another
    ``#`` comment on the line), with the blanks before it."""
    left = [code for code in directive.codes if code not in gone]
    row = directive.row
    if left:
        start, end = directive.codes_start - 1, directive.end - 1
        content = " " + ", ".join(left)
        message = f"Remove the unused codes: `# noqa: {', '.join(left)}`"
        return Fix("safe", message, (Edit(content, Location(row, start + 1), Location(row, end + 1)),))
    start = directive.start - 1
    after = line.find("#", directive.end - 1)
    if after < 0:  # nothing after it: the directive, its reason and the blanks before it
        start, end = len(line[:start].rstrip()), len(line)
    else:  # another comment follows (``# noqa: DL001  # pylint: ...``): keep it
        end = after
    # A reason written after the codes (``# noqa: DL001 -- tuned on A100``) goes with the
    # directive: words the user wrote, so the fix is unsafe then (issue 27: removing comments).
    reason = line[directive.end - 1 : end].strip()
    applicability = "unsafe" if reason else "safe"
    edit = Edit("", Location(row, start + 1), Location(row, end + 1))
    return Fix(applicability, "Remove the unused `noqa` directive", (edit,))


def _or(codes: Sequence[str]) -> str:
    return codes[0] if len(codes) == 1 else ", ".join(codes[:-1]) + " or " + codes[-1]


def _and(codes: Sequence[str]) -> str:
    return codes[0] if len(codes) == 1 else ", ".join(codes[:-1]) + " and " + codes[-1]


__all__ = ["CODE", "enabled_somewhere", "report_unused"]
