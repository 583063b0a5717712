"""From a read file to its diagnostics: analyse it (one parse, through the project index), apply
the selected rules to its loader calls, drop what ``# noqa`` suppresses; and, once every file's
factories are known, judge loaders built from a function's parameters at each call of it.
"""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from dl_lint.files import SourceFile, decode_source, dl000, has_cell_markers, one_line, read, split_message
from dl_lint.model import Diagnostic, Related, Severity

if TYPE_CHECKING:
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.analysis.module import ModuleAnalysis
    from dl_lint.analysis.project import Project
    from dl_lint.rules.context import RuleContext

Accelerator = Callable[["LoaderCall"], bool]
UNUSED_NOQA = "DL012"  # unused-noqa: judged once every diagnostic is known (dl_lint.unused_noqa)


def needs_analysis(file: SourceFile) -> bool:
    """Whether a read file can construct a loader at all, decided from its bytes (the parse
    decides the rest)."""
    return construct_evidence(file) is not None


def construct_evidence(file: SourceFile) -> "Optional[FrozenSet[str]]":
    """``prefilter.construct_evidence`` of a read file: None when it cannot construct a loader,
    else the class-like names that are its only evidence (empty: a loader name itself, or a
    config source that builds loaders: ``_config_source``)."""
    from dl_lint.analysis.prefilter import construct_evidence as evidence, mentions_loader

    if file.errors or not file.data:
        return None
    extra = file.settings.extra_loaders
    if not mentions_loader(file.data, extra):
        if not _config_source(file) or not decode_source(file):
            return None
        return frozenset()
    if not decode_source(file):
        return None  # a DL000 in file.errors: a file that mentions a loader must be readable
    found = evidence(file.data, extra)
    if found is None and _config_source(file):
        return frozenset()  # names a loader (a comment, a string) and builds loaders from a config
    return found


def _config_source(file: SourceFile) -> bool:
    """Whether a file's bytes may build loaders from a config without a loader call of its own:
    an mmengine config (a loader dict, or a ``_base_`` fragment), a Hydra instantiate, a
    LightningCLI script that may have config files, TrainingArguments, a detectron2 builder
    call. Such a file is parsed."""
    from dl_lint.analysis.configs import detectron2, hydra_target, instantiate, lightning_cli, mmengine, transformers

    data = file.data
    return (
        mmengine.candidate(data)
        or (detectron2.candidate(data) and detectron2.outside_detectron2(file.key))
        or mmengine.fragment_candidate(str(file.path), data)
        or mmengine.plain_candidate(data)  # a plain config Config.fromfile may load
        or hydra_target.candidate(data)
        or instantiate.candidate(data)  # OmegaConf-loaded nodes the project instantiates itself
        or transformers.candidate(data)
        or (lightning_cli.candidate(data) and lightning_cli.may_have_configs(file.key, file.settings.root, data))
    )


def parse_only(file: SourceFile, project: "Project", content_hash: Optional[str] = None) -> Optional["ModuleAnalysis"]:
    """Parse one read file (or take its parse from earlier in the run) and register its summary
    with the project. Problems become DL000 diagnostics in ``file.errors``."""
    from dl_lint.analysis.syntax import ParseFailure

    if file.errors or not decode_source(file):
        return None
    limit = file.settings.max_file_size
    if limit is not None and len(file.data) > limit:
        from dl_lint.config import format_size

        file.errors.append(
            dl000(
                file,
                f"cannot parse: file too large to analyse ({format_size(len(file.data))}; the limit is "
                f"{format_size(limit)}, set by max-file-size): exclude it, or raise the limit",
                1,
                1,
            )
        )
        return None
    analysis = project.parsed(file.path)
    tree = None
    if analysis is not None and analysis.source != file.source:
        analysis = None  # parsed from disk for an importer, but this is an unsaved buffer
    elif analysis is not None and analysis.extra_loaders != file.settings.extra_loaders:
        tree, analysis = analysis.tree, None  # read for an importer under other settings: the same tree
    try:
        if analysis is None:
            analysis = project.parse(
                str(file.path),
                file.module_name,
                file.source,
                is_package=file.path.name == "__init__.py",
                extra_loaders=file.settings.extra_loaders,
                tree=tree,
            )
        project.add(analysis, content_hash)
    except ParseFailure as exc:
        file.errors.append(dl000(file, f"cannot parse: {exc.reason}", exc.row, exc.column))
        return None
    except RecursionError:
        file.errors.append(dl000(file, "cannot parse: expressions nested too deeply for the analysis", 1, 1))
        return None
    return analysis


def analyse(file: SourceFile, project: "Project", content_hash: Optional[str] = None) -> Optional["ModuleAnalysis"]:
    """``parse_only``, then the file's facts when it may construct a loader. Problems become
    DL000 diagnostics in ``file.errors``."""
    analysis = parse_only(file, project, content_hash)
    if analysis is None:
        return None
    try:
        if analysis.constructs_loader:
            file.facts = analysis.facts()
    except RecursionError:
        file.errors.append(dl000(file, "cannot parse: expressions nested too deeply for the analysis", 1, 1))
        return None
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the run
        file.errors.append(
            dl000(file, f"internal error while analysing this file ({type(exc).__name__}: {one_line(exc)})", 1, 1)
        )
        return None
    return analysis


def accelerator_for(files: Sequence[SourceFile], project: "Project") -> Accelerator:
    """DL102's question for files linted together: does the loader's module reach an
    accelerator? The import graph reads project files from disk; linted files it cannot read
    there (notebooks, files outside the project root) are given to it."""
    by_path = {f.key: f for f in files}
    extra: Dict[str, bytes] = {}
    ready = []

    def accelerator(call: "LoaderCall") -> bool:
        if not ready:
            extra.update(_sources_off_disk(files, project))
            ready.append(True)
        file = by_path.get(os.path.abspath(call.path))
        if project.accelerator_reaches(file.module_name if file else "", extra):
            return True
        # evidence only ever silences DL102: also through the file itself when its module name
        # is ambiguous (two ``utils/data_val.py`` in folders without ``__init__.py``), whose
        # importers use its unique dotted name (``from utils.data_val import get_loader``)
        if file is None or project.root is None or file.is_notebook or file.key not in project.file_keys():
            return False
        return project.signal_reaches(file.module_name, "accelerator", extra, path=file.key)

    return accelerator


def _sources_off_disk(files: Sequence[SourceFile], project: "Project") -> Dict[str, bytes]:
    on_disk = project.file_keys() if project.root is not None else set()
    out: Dict[str, bytes] = {}
    for f in files:
        if f.errors or (f.key in on_disk and not f.is_notebook):
            continue
        if not f.data:
            read(f)
        if f.data:
            out[f.module_name] = f.data
    return out


def signal_for(project: "Project", file: SourceFile) -> Callable[[str], bool]:
    from dl_lint.analysis.signals import has_signal

    def signal(kind: str) -> bool:
        if file.data and has_signal(file.data, kind):
            return True
        if project.root is None:
            return False
        on_disk = file.key in project.file_keys() and not file.is_notebook
        if not on_disk:
            return project.signal_reaches(file.module_name, kind, {file.module_name: file.data})
        return project.signal_reaches(file.module_name, kind, path=file.key)

    return signal


def _setting_line(settings, key: str):
    """(absolute path, line) of the configuration file line that sets ``key``, if any."""
    path = settings.config_path
    if not path:
        return None
    path = os.path.join(settings.root, os.path.basename(path)) if settings.root else os.path.abspath(path)
    try:
        with open(path, "rb") as handle:  # the settings' own file, read when they were loaded
            lines = handle.read(1 << 20).split(b"\n")
    except OSError:
        return None
    for number, line in enumerate(lines, start=1):
        if line.strip().startswith(key.encode()):
            return path, number
    return None


def evidence_for(project: "Project", file: SourceFile):
    """Where a program-wide signal connected to ``file`` is (``Project.signal_evidence``),
    its own bytes first (an unsaved buffer, a notebook)."""
    from dl_lint.analysis.signals import Evidence, signal_line

    def evidence(kind: str):
        line = signal_line(file.data, kind) if file.data else None
        if line is not None:
            return Evidence("module", file.key, line)
        if project.root is None:
            return None
        on_disk = file.key in project.file_keys() and not file.is_notebook
        if not on_disk:
            return project.signal_evidence(file.module_name, kind, {file.module_name: file.data})
        return project.signal_evidence(file.module_name, kind, path=file.key)

    return evidence


def context_for(file: SourceFile, project: "Project", accelerator: Accelerator, rules=()) -> "RuleContext":
    from dl_lint.rules.context import RuleContext

    facts = file.facts
    return RuleContext(
        file.settings,
        file.module_name,
        str(file.path),
        project.datasets,
        accelerator,
        signal_for(project, file),
        evidence=evidence_for(project, file),
        python_lines=lambda: project.python_lines(file.key),
        setting_line=lambda key: _setting_line(file.settings, key),
        is_notebook=file.cell_map is not None,
        in_cells=has_cell_markers(file.data or b""),
        torch_name=facts.torch_name if facts is not None else "torch",
        import_row=facts.import_row if facts is not None else 1,
        python=lambda: project.python_metadata(file.key),
        containers=lambda: project.run_definitions(file.key),
        enabled=frozenset(rule.code for rule in rules),
        measured=measured_for(file, project),
    )


def measured_for(file: SourceFile, project: "Project"):
    """The recorded figure of a loader call of ``file`` (``remember.match``), read on demand."""
    lines: List[str] = []
    known: list = []  # (relative path, records), read at the first loader
    absolute: Dict[str, str] = {}  # call.path -> its absolute path (the same few paths, many loaders)

    def measured(call: "LoaderCall"):
        if file.cell_map is not None or not file.source or not call.path.endswith(".py"):
            return None
        key = absolute.get(call.path)
        if key is None:
            key = absolute[call.path] = os.path.abspath(call.path)
        if key != file.key:
            return None  # a loader another file's config builds: its record is not of this file
        if not known:
            known.append(project.measured(file.key))
        relative, records = known[0]
        if not records:
            return None
        if not lines:
            lines.extend(file.source.splitlines())
        from dl_lint.remember import match

        return match(records, relative, lines, call.rows, call.scope)

    return measured


def judge(files: Iterable[SourceFile], project: "Project", accelerator: Accelerator) -> List[Diagnostic]:
    """The diagnostics of analysed files: DL000s, and every selected rule on every loader call,
    minus what ``# noqa`` suppresses."""
    from dl_lint.config import enabled_codes
    from dl_lint.rules import checking_rules, known_codes

    codes = known_codes()
    out: List[Diagnostic] = []
    for file in files:
        out.extend(file.errors)
        if file.facts is None or not file.facts.calls:
            continue
        out.extend(_config_dl000(file, project))
        # per-file-ignores apply where a finding is reported (``engine.shown``), not here: a
        # finding of this file's loader may be reported in another file (a call site, a YAML line)
        enabled = enabled_codes(file.settings, codes)
        rules = checking_rules(enabled)
        ctx = context_for(file, project, accelerator, rules)
        keep = UNUSED_NOQA in enabled  # DL012 counts what each directive silences
        suppressions = None  # read only when there is something to suppress
        placed = set()  # (code, file, row): several runs of one LightningCLI may decide the same line

        def judged(call: "LoaderCall") -> bool:
            """The call's diagnostics added to ``out``; whether there were any (noqa aside)."""
            nonlocal suppressions
            found = False
            for diag in check(call, rules, ctx, file.display):
                found = True
                if diag.filename != file.display:
                    if call.extra.get("lightning_cli") or call.extra.get("instantiated"):
                        where = (diag.code, diag.filename, diag.location, call.path, call.location)
                        if where in placed:
                            continue
                        placed.add(where)
                    silenced = _suppressed_at_config(diag, project, file, call)
                    if silenced is None:
                        out.append(diag)
                    elif keep:
                        out.append(diag.replace(suppressed_at=silenced))
                    continue
                if suppressions is None:
                    from dl_lint.suppression import parse_suppressions

                    suppressions = parse_suppressions(file.source or "")
                if suppressions.suppresses(diag):
                    if keep:
                        out.append(diag.replace(suppressed_at=(file.key, *suppressions.rows_of(diag))))
                    continue
                if diag.fix is not None:
                    from dl_lint.fixes import normalize_fix

                    diag = diag.replace(fix=normalize_fix(file.source or "", diag.fix))
                out.append(diag)
            return found

        calls = file.facts.calls
        quiet = {position for position, call in enumerate(calls) if not judged(call)}
        # A twin (``ModuleAnalysis._twin_shapes``) differs from its first only in places: the
        # rules find nothing in it when they find nothing in the first, unless figures recorded
        # for lines of this file (``dl-lint measure``) may be read at its own rows.
        measured = bool(file.facts.twins) and bool(project.measured(file.key)[1])
        for first, row, column, end in file.facts.twins:
            if first not in quiet or measured:
                judged(calls[first].moved_to(row, column, end))
    out.sort(key=Diagnostic.sort_key)
    return out


def _spot(diag: Diagnostic, display: str):
    """Where a factory call's finding is: (code, location, the config file it is reported in,
    None for the caller's own file): two runs' files may set a value at the same row."""
    return (diag.code, diag.location, None if diag.filename == display else diag.filename)


def drop_covered_flows(found: List[Diagnostic]) -> List[Diagnostic]:
    """A DL203 that the interpretation of a script found at a loader (``import_flow``) is not
    repeated when another DL203 of the run cites that loader: the call of its factory in the
    script already reports it (``judge_call_sites``), where the script iterates it."""
    from dl_lint.rules.dl203_missing_main_guard import REACHED_FROM

    def reached(diag: Diagnostic) -> bool:
        return diag.code == "DL203" and any(r.note == REACHED_FROM for r in diag.related)

    cited = {(r.path, r.row, r.column) for d in found if d.code == "DL203" and not reached(d) for r in d.related}
    if not cited:
        return found
    return [d for d in found if not (reached(d) and (os.path.abspath(d.filename), d.location.row, d.location.column) in cited)]


def merge_repeats(found: List[Diagnostic]) -> List[Diagnostic]:
    """One diagnostic per problem: findings alike in all but their related locations and their
    detail (one call of a factory that builds three loaders, each iterated at import, maybe on
    its own line: one DL203 at the call, not three identical lines) become one, citing every
    related location; one detail is kept (the least, so the answer does not depend on the
    order the processes gave). Findings with a fix, or already silenced, stay apart. A DL203
    another DL203 already cites is dropped first (``drop_covered_flows``)."""
    first = {}
    merged: List[Diagnostic] = []
    for diag in drop_covered_flows(found):
        if diag.fix is not None or diag.suppressed_at is not None or not diag.related:
            merged.append(diag)
            continue
        key = (diag.code, diag.filename, diag.cell, diag.location, diag.end_location, diag.message)
        at = first.get(key)
        if at is None:
            first[key] = len(merged)
            merged.append(diag)
            continue
        kept = merged[at]
        related = kept.related + tuple(r for r in diag.related if r not in kept.related)
        evidence = tuple(sorted({*kept.evidence, *diag.evidence}))
        detail = kept.detail
        if diag.detail != detail:
            # the details differ in what is particular to each loader (the line a factory's
            # loader is iterated at): one is shown (the least, whatever order the processes
            # gave), the others are cited
            own = [d[: -len(_ALIKE)] if d and d.endswith(_ALIKE) else d for d in (detail, diag.detail)]
            detail = min(d or "" for d in own) + _ALIKE
        merged[at] = kept.replace(related=related, evidence=evidence, detail=detail)
    return merged


# Appended to a merged finding's detail when the findings' details differ (``merge_repeats``).
_ALIKE = " The other DataLoaders cited are judged alike."


def check(call: "LoaderCall", rules, ctx: "RuleContext", display: str) -> Iterable[Diagnostic]:
    """The rules' diagnostics on one call. A call reading yacs keys is judged by the crash rules
    once per run (the defaults, each YAML config: ``configs.yacs.variants``), each diagnostic
    once, and so is a rule whose figure combines several run values (``Rule.per_run``: DL101
    never multiplies one file's batch_size by another's num_workers); the other rules judge it
    once, over every value the runs give."""
    from dl_lint.analysis.configs.runs import variants

    runs = variants(call)
    if runs is None:
        yield from _check(call, rules, ctx, display)
        return
    crash = [rule for rule in rules if rule.severity == Severity.ERROR or rule.per_run]
    yield from _check(call, [rule for rule in rules if rule not in crash], ctx, display)
    seen = set()
    for group in runs:  # copies with equal values: the others are judged only when one finds something
        for index, run in enumerate(group):
            found = list(_check(run, crash, ctx, display))
            for diag in found:
                key = (diag.code, diag.filename, diag.location, diag.message)
                if key not in seen:
                    seen.add(key)
                    yield diag
            if index == 0 and not found:
                break


def _check(call: "LoaderCall", rules, ctx: "RuleContext", display: str) -> Iterable[Diagnostic]:
    extra = call.extra
    # a loader a config framework builds (mmengine, Hydra, LightningCLI, a Trainer, detectron2):
    # only some rules judge it, and their findings are placed at the config's lines
    special = any(extra.get(key) for key in _SPECIAL)
    divided = extra.get("divided")
    # A crash claim reads the divisions before the call too (``total / n`` raised for n == 0
    # already): it can only be quieter for them (``ModuleAnalysis._division_guards``).
    crash_call = call.replace(extra={**extra, "holds": (*extra.get("holds", ()), *divided)}) if divided else call
    for rule in rules:
        if special and not _judges(rule.code, call):
            continue
        try:
            findings = list(rule.check_call(crash_call if rule.severity == Severity.ERROR else call, ctx))
            if special:
                findings = _framework_findings(findings, rule.code, call)
        except Exception as exc:  # noqa: BLE001 - a bug in one rule must not stop the run
            findings = []
            message, detail = split_message(
                f"internal error in {rule.code} while checking this call ({type(exc).__name__}: "
                f"{one_line(exc)}); please report it"
            )
            yield Diagnostic(
                code="DL000",
                name="parse-error",
                severity=Severity.ERROR,
                message=message,
                detail=detail,
                filename=display,
                location=call.location,
                end_location=call.location,
                noqa_rows=call.rows,
            )
        for finding in findings:
            if finding.place is not None:
                diag = _at_config_line(rule, finding, call, ctx)
                yield diag.replace(evidence=evidence_of(call, diag))
                continue
            diag = Diagnostic(
                code=rule.code,
                name=rule.name,
                severity=finding.severity or rule.severity,
                message=finding.message,
                filename=display,
                location=finding.location,
                end_location=finding.end_location,
                fix=finding.fix,
                noqa_rows=call.rows,
                detail=finding.detail,
                related=finding.related,
            )
            yield diag.replace(evidence=evidence_of(call, diag))


# The ``LoaderCall.extra`` keys of a loader a config framework builds (``_check``).
_SPECIAL = ("mmengine", "hydra_target", "lightning_cli", "instantiated", "transformers", "detectron2")


def _judges(code: str, call: "LoaderCall") -> bool:
    """Whether the rule ``code`` judges a loader a config framework builds: the others read
    arguments the framework fills itself, or what its own file reports."""
    extra = call.extra
    if extra.get("transformers") and code not in extra["judged"]:
        return False  # the other rules read arguments the Trainer fills itself
    if extra.get("detectron2"):
        from dl_lint.analysis.configs.detectron2 import JUDGED_BY as BUILT_BY

        if code not in BUILT_BY:
            return False  # detectron2 fills the loader's other arguments itself
    if extra.get("mmengine"):
        from dl_lint.analysis.configs.mmengine import JUDGED_BY

        if code not in JUDGED_BY:
            return False  # the other rules read arguments mmengine fills itself
    elif extra.get("hydra_target"):
        from dl_lint.analysis.configs import hydra_target

        if code not in hydra_target.JUDGED_BY:
            return False  # the other rules read where the loader is built (inside Hydra) and used
    if extra.get("lightning_cli"):
        from dl_lint.analysis.configs.lightning_cli import JUDGED_BY as CLI_JUDGED

        if code not in CLI_JUDGED:
            return False  # the DataModule's own file reports what its Python decides
    if extra.get("instantiated"):
        from dl_lint.analysis.configs import instantiate

        if code not in instantiate.JUDGED_BY:
            return False  # the loader's own file reports what its Python decides
    return True


def _framework_findings(findings: List, code: str, call: "LoaderCall") -> List:
    """The rule ``code``'s findings on a loader a config framework builds, placed and worded for
    it (``_check``)."""
    extra = call.extra
    if extra.get("mmengine"):
        from dl_lint.analysis.configs.mmengine import relocate

        # a config file is not rewritten; a value set in a _base_ file is cited, not reported there
        findings = [relocate(f.replace(fix=None), call) for f in findings]
    elif extra.get("hydra_target"):
        from dl_lint.analysis.configs.hydra_target import relocate as at_node

        # the values are keys of a YAML node: not rewritten; reported at their line
        findings = [at_node(f.replace(fix=None), call) for f in findings]
    if extra.get("detectron2"):
        from dl_lint.analysis.configs import detectron2
        from dl_lint.analysis.configs.hydra_target import relocate as at_line

        # the value is a YAML line's (or detectron2's default): reported at that line
        findings = [detectron2.rephrase(at_line(f.replace(fix=None), call), call) for f in findings]
    if extra.get("lightning_cli"):  # one config file's run: only what a YAML value decides is new
        findings = [f for f in findings if f.place is not None]
    if extra.get("instantiated"):
        from dl_lint.analysis.configs.instantiate import relocate as at_value

        # one config file's run: only what a YAML value decides, at its line
        findings = [f for f in (at_value(f.replace(fix=None), call, code) for f in findings) if f is not None]
    if extra.get("transformers"):
        from dl_lint.analysis.configs.transformers import rephrase

        findings = [rephrase(f, code, call) for f in findings]  # worded for TrainingArguments fields
    return findings


def evidence_of(call: "LoaderCall", diag: Diagnostic, more: Iterable[str] = ()) -> tuple:
    """The files a finding about ``call`` rests on besides its own location: the loader's file,
    its related locations, and the files its argument values were written in (their origins).
    A run that names one of them reports the finding (issue 26: a change cannot hide its
    consequence in a file that was not named)."""
    found = set(more)
    if call.path:
        found.add(os.path.abspath(call.path))
    found.update(r.path for r in diag.related)
    for arg in call.args.values():
        for possible in arg.value.options or ():
            origin = possible.origin
            if origin is not None and origin.path:
                found.add(os.path.abspath(origin.path))
    found.discard(os.path.abspath(diag.filename))
    return tuple(sorted(found))


def _at_config_line(rule, finding, call: "LoaderCall", ctx: "RuleContext") -> Diagnostic:
    """A finding decided by a config file's value, reported at the line that sets it (the line
    a user edits), with the DataLoader call that reads it as a related location. Its fix (an
    edit of the Python call) is not attached: fixes apply to the reported file."""
    from pathlib import Path

    from dl_lint.files import display_path
    from dl_lint.model import Location

    path, row, column = finding.place
    # The line it is reported at is not cited again (the origins of the values cite it).
    cited = tuple(r for r in finding.related if (r.path, r.row) != (os.path.abspath(path), row))
    finding = finding.replace(related=cited)
    at = call.location
    loader = Related(os.path.abspath(call.path or ctx.path), at.row, at.column, call.extra.get("reader") or "the DataLoader that reads this value")
    detail = finding.detail
    if finding.fix is not None:
        advice = finding.fix.message
        detail += f" At the DataLoader: {advice[:1].lower()}{advice[1:]}."
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        severity=finding.severity or rule.severity,
        message=finding.message,
        filename=display_path(Path(path), path),
        location=Location(row, column),
        end_location=Location(row, column),
        noqa_rows=(row, row),
        detail=detail,
        related=(loader, *finding.related),
    )


def _config_dl000(file: SourceFile, project: "Project") -> List[Diagnostic]:
    """DL000 for each YAML config file the linted file reached that cannot be read: the
    values it would give stay unknown (silence), and the user learns why."""
    from pathlib import Path

    from dl_lint.files import display_path
    from dl_lint.model import Location

    out = []
    for error in project.config_errors(file.key):
        at = Location(error.line, error.column)
        kind = "JSON" if error.path.endswith(".json") else "YAML"
        message, detail = split_message(f"cannot parse this {kind} config: {error.message}")
        detail = f"{detail} The settings it holds are treated as unknown (the file that reads it is cited).".strip()
        out.append(
            Diagnostic(
                code="DL000",
                name="parse-error",
                severity=Severity.ERROR,
                message=message,
                filename=display_path(Path(error.path), error.path),
                location=at,
                end_location=at,
                noqa_rows=(error.line, error.line),
                detail=detail,
                related=(Related(file.key, 1, 1, f"this file reads the {kind} config"),),
                evidence=(file.key,),
            )
        )
    return out


def _suppressed_at_config(
    diag: Diagnostic, project: "Project", file: SourceFile, call: "LoaderCall"
) -> Optional[Tuple[str, int, int]]:
    """A diagnostic reported in a config file: ``# noqa`` on its YAML line, or on the
    DataLoader call that reads the value, silences it. Where the directive that does is
    (absolute path, rows), or None."""
    from dl_lint.suppression import parse_comment_suppressions, parse_suppressions

    yaml_path = os.path.abspath(diag.filename)
    text = project.config_file(yaml_path)[0] or ""
    if parse_comment_suppressions(text).suppresses(diag):
        return (yaml_path, diag.location.row, diag.location.row)
    source, owner_path = file.source or "", file.key
    if call.path and os.path.abspath(call.path) != file.key:  # a LightningCLI run of another module's loader
        owner = project.parsed(call.path)
        source, owner_path = (owner.source if owner is not None else ""), os.path.abspath(call.path)
    at_call = diag.replace(noqa_rows=call.rows)
    suppressions = parse_suppressions(source)
    if suppressions.suppresses(at_call):
        return (owner_path, *suppressions.rows_of(at_call))
    return None


def judge_call_sites(
    callers: List[SourceFile],
    factory_files: List[SourceFile],
    project: "Project",
    accelerator: Accelerator,
    callees: Optional[Set[str]] = None,
) -> List[Diagnostic]:
    """Loaders built from a function's parameters (in ``factory_files``, which carry their
    facts), judged once per call of that function in ``callers``, with the call's arguments (or
    the defaults it relies on). ``callees`` collects the factory files a call was judged
    against. (A factory's facts are made before its callers are judged: made in the middle
    of a caller's judgement, pytorch-image-models' ``create_naflex_loader`` lost the
    non-blocking copy that ``validate.py`` makes of its loader's batches, DL306.)"""
    from dl_lint.analysis.signals import signal_line
    from dl_lint.config import enabled_codes
    from dl_lint.rules import checking_rules, known_codes
    from dl_lint.rules.base import MESSAGE_LIMIT
    from dl_lint.suppression import parse_suppressions

    factories: Dict = {}
    for file in factory_files:
        if file.facts is None:
            continue
        for name, _params in file.facts.factories:
            factories[(file.key, name)] = file
    if not factories:
        return []
    # a method factory is called by its method's name; a dict of factories (``LOADERS[``) by
    # its subscripts
    names = {called_name(name) for _, name in factories if not name.endswith("[")}
    dicts = {name[:-1] for _, name in factories if name.endswith("[")}
    encoded = [n.encode() for n in names | dicts]
    if names & _HOOK_NAMES:  # a Trainer's run calls the hooks: ``trainer.fit(model, datamodule=dm)``
        encoded += [stage.encode() for stage in STAGE_HOOKS]
    codes = known_codes()
    out: List[Diagnostic] = []
    judged: Dict = {}
    placed_at: Dict = {}  # a config line's finding -> its place in ``out`` (several calls, one line)
    for caller in callers:
        if not caller.data or not any(n in caller.data for n in encoded):
            continue
        analysis = _analysis_of(caller, project)
        if analysis is None:
            continue
        in_cells = caller.is_notebook or has_cell_markers(caller.data or b"")  # read once per caller
        # the line of the caller's own spawn/forkserver request (``rules.base.certainty``)
        caller_spawn = signal_line(caller.data, "spawn") if caller.data and not caller.is_notebook else None
        suppressions = None
        for call, site, key, bound_call, how in _factory_calls(analysis, names, dicts):
            if key not in factories:
                continue
            callee_file = factories[key]
            if callees is not None:
                callees.add(callee_file.key)
            callee = _analysis_of(callee_file, project)
            function = callee.factory_node(key[1]) if callee is not None else None
            if function is None:
                continue
            factory = shown_factory(key[1])  # ``make`` or ``Walker.loader``: how the messages name it
            # In a loop over a literal table, every row runs: judge the call once per row.
            rows = analysis.loop_rows(call, site) or [(0, "", {})]
            reported: Dict = {}
            for number, row_text, row_env in rows:
                saved = analysis.resolver.param_env
                analysis.resolver.param_env = {**saved, **row_env}
                try:
                    env = callee.bind_parameters(bound_call, site, analysis, function)
                finally:
                    analysis.resolver.param_env = saved
                if env is None:
                    continue
                if callee_file.key not in judged:  # what the factory's own loaders already report
                    rules = checking_rules(enabled_codes(callee_file.settings, codes))
                    ctx = context_for(callee_file, project, accelerator, rules)
                    # (``calls``, not the twins: those are module-level loaders of no factory)
                    own = {(d.code, d.location, d.filename or None) for c in callee_file.facts.calls for d in check(c, rules, ctx, "")}
                    judged[callee_file.key] = (rules, ctx, own, {rule.code for rule in rules if rule.per_branch})
                rules, ctx, own, per_branch = judged[callee_file.key]
                undecided: Dict[int, tuple] = {}  # loader id -> its branch (``loader_calls_with``)
                # A function started in other processes runs there, not at this module's import
                # (an unguarded ``mp.spawn`` fails for a reason of its own): no DL203 at the call.
                started = how == "started"
                iterated = _iterated_from(analysis, call, site, started or in_cells, how == "hook")
                loaders = []
                for loader in callee.loader_calls_with(function, env, undecided, iterated, (analysis, call, site)):
                    # judged as part of the caller's program: its start-method evidence is the caller's
                    at_call = loader.replace(extra={**loader.extra, "caller": caller.key, "caller_spawn": caller_spawn})
                    if id(loader) in undecided:
                        undecided[id(at_call)] = undecided[id(loader)]
                    loaders.append(at_call)
                # Loaders under ``if``s this call does not decide are alternatives (one branch
                # of several may run): a rule is reported for them only when on every branch a
                # loader breaks it, once, citing each; a loader that certainly runs is judged alone.
                branches: Dict[str, List] = {}
                for loader in loaders:
                    found = list(check(loader, rules, ctx, caller.display))
                    if id(loader) in undecided:
                        for diag in found:
                            pairs = branches.setdefault(diag.code, [])
                            if not any(other is loader for other, _ in pairs):  # the first finding per loader
                                pairs.append((loader, diag))
                        continue
                    for diag in found:
                        # a finding at a config file's line is told apart by its file (two runs'
                        # files may set num_workers at the same row)
                        spot = _spot(diag, caller.display)
                        if spot not in own and spot not in reported:
                            reported[spot] = (loader, diag, number, row_text, ())
                alternatives = {undecided[id(loader)] for loader in loaders if id(loader) in undecided}
                for code, pairs in branches.items():
                    if {undecided[id(loader)] for loader, _ in pairs} != alternatives and code not in per_branch:
                        continue  # on some branch no loader breaks the rule
                    fresh = [(loader, diag) for loader, diag in pairs if _spot(diag, caller.display) not in own]
                    if not fresh or any(_spot(d, caller.display) in reported for _, d in fresh):
                        continue
                    loader, diag = fresh[0]
                    others = tuple(
                        Related(_built_in(other, callee_file), other.location.row, other.location.column, f"the DataLoader {factory}() builds on another branch")
                        for other, _ in pairs
                        if other is not loader
                    )
                    reported[_spot(diag, caller.display)] = (loader, diag, number, row_text, others)
            start, end = analysis.text.span(call)
            loop = " (row {} of the table it loops over: {})"
            for loader, diag, number, row_text, others in reported.values():
                if diag.filename != caller.display:
                    # decided by a config file's line (a config the caller loaded, through a
                    # helper, and handed to the factory): reported there, the loader cited, and
                    # every call that hands the factory such a config (one diagnostic per line)
                    call_at = Related(caller.key, start.row, start.column, f"a call of {factory}() that hands it the config")
                    key = (diag.filename, diag.location, diag.code, diag.message, loader.location, callee_file.key)
                    if key in placed_at:
                        index = placed_at[key]
                        first = out[index]
                        if call_at not in first.related:
                            evidence = tuple(sorted({*first.evidence, caller.key}))
                            out[index] = first.replace(related=(*first.related, call_at), evidence=evidence)
                        continue
                    placed = diag.replace(
                        detail=f"{diag.detail} The config reaches {factory}() through the call cited.",
                        related=(*diag.related, call_at),
                    )
                    placed = placed.replace(evidence=evidence_of(loader, placed, (*diag.evidence, caller.key)))
                    silenced = _suppressed_at_config(placed, project, callee_file, loader)
                    if silenced is None:
                        placed_at[key] = len(out)
                        out.append(placed)
                    elif UNUSED_NOQA in enabled_codes(caller.settings, codes):
                        out.append(placed.replace(suppressed_at=silenced))
                    continue
                at = loader.location
                # a relay (``get_loaders()`` calling ``build_loader()``): the builder is named
                builder = shown_factory(loader.extra.get("built_by") or factory)
                through = f", reached through {factory}()" if builder != factory else ""
                loader_at = Related(_built_in(loader, callee_file), at.row, at.column, f"the DataLoader {builder}() builds")
                which = loop.format(number, row_text) if number else ""
                # The concise line names the function; the detail says the values are this
                # call's and that the code it quotes is the function's (where to change it).
                if _takes_from_call(callee_file, loader):
                    detail = (
                        f"With the arguments of this call{which}, in the DataLoader {builder}() builds (cited){through}: "
                        f"{diag.detail} Code in backquotes goes in {builder}(), where it builds the DataLoader; "
                        "or change what this call passes."
                    )
                else:  # a loader of the function's own (``module._runs_loader_with_workers``)
                    detail = (
                        f"This call runs {factory}(), which builds the DataLoader (cited{through and ', in ' + builder + '()'}) "
                        f"and iterates or returns it. {diag.detail} Code in backquotes goes in {builder}(), where it "
                        "builds the DataLoader."
                    )
                shown = factory
                if len(f"{shown}(): {diag.message}") > MESSAGE_LIMIT:
                    shown = factory.rsplit(".", 1)[-1]  # ``initialize()``, as the call writes it
                moved = Diagnostic(
                    code=diag.code,
                    name=diag.name,
                    severity=diag.severity,
                    message=f"{shown}(): {diag.message}",
                    filename=caller.display,
                    location=start,
                    end_location=end,
                    noqa_rows=(start.row, end.row),
                    detail=detail,
                    related=(loader_at, *others, *diag.related),
                )
                # the factory's file is evidence also when the DataLoader is built in another
                # module (a wrapper class its builder makes): a change to the builder shows here
                moved = moved.replace(evidence=evidence_of(loader, moved, (*diag.evidence, callee_file.key)))
                if suppressions is None:
                    suppressions = parse_suppressions(caller.source or _decoded(caller))
                if not suppressions.suppresses(moved):
                    out.append(moved)
                elif UNUSED_NOQA in enabled_codes(caller.settings, codes):
                    out.append(moved.replace(suppressed_at=(caller.key, *suppressions.rows_of(moved))))
    return out


CallerRecord = Tuple[Set[str], Set[str], Set[str]]  # what one caller's judgement touched, used, and its callees


def judge_each(
    callers: List[SourceFile],
    factory_files: List[SourceFile],
    project: "Project",
    accelerator: Accelerator,
) -> Tuple[List[Diagnostic], Dict[str, CallerRecord]]:
    """``judge_call_sites`` one caller at a time, each recorded apart (``Project.record``): the
    diagnostics, and by caller what its judgement rested on (modules touched, what else it
    used, the factory files its calls reached), so that a later run judges again only the
    callers whose record no longer holds (``pipeline.Run.call_sites``). A config line's finding
    that several calls hand the same config comes once per caller here: ``merge_repeats``
    makes them one diagnostic citing every call, as for every repeated finding."""
    out: List[Diagnostic] = []
    records: Dict[str, CallerRecord] = {}
    for caller in callers:
        touched: Set[str] = set()
        uses: Set[str] = set()
        callees: Set[str] = set()
        project.record(touched, uses)
        try:
            out.extend(judge_call_sites([caller], factory_files, project, accelerator, callees))
        finally:
            project.stop_recording()
            project.release_dropped()
        records[caller.key] = (touched, uses, callees)
    return out, records


def _built_in(loader: "LoaderCall", callee_file: SourceFile) -> str:
    """The file a factory's DataLoader is built in: the factory's own, or another module's
    (a wrapper class whose ``initialize`` the builder calls, ``CustomDatasetDataLoader``)."""
    return os.path.abspath(loader.path) if loader.path else callee_file.key


def _takes_from_call(callee_file: SourceFile, loader: "LoaderCall") -> bool:
    """Whether the factory's loader at ``loader``'s place takes a value from its function's
    parameters (else the function builds it from its own values, and a call changes nothing)."""
    calls = callee_file.facts.calls
    kept = _CALLS_AT.get(id(calls))
    if kept is None or kept[0] is not calls:  # the file's loaders by place, once per file
        by_place: Dict[Any, Any] = {}
        for own in calls:
            by_place.setdefault(own.location, own)
        if len(_CALLS_AT) >= 64:
            _CALLS_AT.clear()
        kept = _CALLS_AT[id(calls)] = (calls, by_place)
    own = kept[1].get(loader.location)
    if own is None:
        return True
    return bool(own.opaque) or any(own.value(name).source == "parameter" for name in own.args)


# ``_takes_from_call``'s index: id of a file's loader list -> (the list, its loaders by place).
# A scan per loader asked was quadratic (3,000 method factories of one name in a file).
_CALLS_AT: Dict[int, Tuple[Any, Dict[Any, Any]]] = {}


def called_name(factory: str) -> str:
    """The name a call of a factory writes: a function's, a method's (``loader`` of
    ``Walker.loader``), a class's for one that builds its loader in ``__init__``."""
    if factory.endswith(".__init__"):
        return factory[: -len(".__init__")].rsplit(".", 1)[-1]
    return factory.rsplit(".", 1)[-1]


def shown_factory(factory: str) -> str:
    """A factory as messages name it: ``Holder`` for the ``__init__`` of ``Holder``."""
    return factory[: -len(".__init__")] if factory.endswith(".__init__") else factory


def _iterated_from(analysis: "ModuleAnalysis", call, site, notebook: bool, hook: bool = False):
    """DL203 at a call of a factory: where the calling module iterates the factory's loader at
    import, asked of the caller (``ModuleAnalysis.unguarded_use``), not of the factory's module
    (another call of the factory, iterated at import, says nothing about this one). A notebook
    is never re-imported by workers: None. ``hook``: the call is a Trainer's run that asks a
    hook for the loader it returns and iterates it before returning, so a returned loader is
    iterated where the run runs."""

    def iterated(use, key=None):
        if notebook:
            return None
        if hook and use == "returns":
            use = "runs"
        found = analysis.unguarded_use(call, site, use)
        if found is None and key is not None:  # the construction at ``key``, followed as it travels
            found = analysis.flow_iteration(call, site, key)
        return found

    return iterated


# The loader hooks a Lightning Trainer's run asks for, by run (Lightning 2.6.6:
# ``fit_loop.setup_data`` always asks for the training loaders; the validation loaders only when
# the model overrides ``validation_step``, which the run's call does not show: not counted here).
STAGE_HOOKS = {
    "fit": ("train_dataloader",),
    "validate": ("val_dataloader",),
    "test": ("test_dataloader",),
    "predict": ("predict_dataloader",),
}
_HOOK_NAMES = frozenset(hook for hooks in STAGE_HOOKS.values() for hook in hooks)


def _hook_calls(analysis: "ModuleAnalysis", call: ast.Call, site, names: Set[str]):
    """For ``trainer.fit(model, datamodule=dm)`` (the receiver a Lightning Trainer,
    ``ModuleAnalysis._builds_trainer``, as ``import_flow`` asks it): a call
    ``dm.train_dataloader()`` standing for the hook
    the run asks for, on the datamodule (or, without one, the model: its first argument or
    ``model=``), placed at the run's call."""
    stage = call.func.attr if isinstance(call.func, ast.Attribute) else None
    hooks = [hook for hook in STAGE_HOOKS.get(stage, ()) if hook in names]
    if not hooks or not analysis._builds_trainer(call.func.value, site):
        return
    from dl_lint.analysis.values import Instance

    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    receiver = keywords.get("datamodule")
    # ``trainer.fit(model, dm)``: a datamodule in the first loader slot is the datamodule
    # (Lightning 2.6.6 trainer.py: ``if isinstance(train_dataloaders, LightningDataModule)``)
    slot = call.args[1] if len(call.args) > 1 else keywords.get("train_dataloaders", keywords.get("dataloaders"))
    if receiver is None and slot is not None and not isinstance(slot, ast.Starred):
        single = analysis.resolver.resolve(slot, site).single
        if single is not None and isinstance(single.value, Instance) and not single.value.local:
            receiver = slot
    if receiver is None:
        receiver = keywords.get("model") or (call.args[0] if call.args else None)
    if receiver is None or isinstance(receiver, ast.Starred):
        return
    for hook in hooks:
        method = ast.copy_location(ast.Attribute(receiver, hook, ast.Load()), call)
        yield ast.copy_location(ast.Call(method, [], []), call)


def _factory_calls(analysis: "ModuleAnalysis", names: Set[str], dicts: Set[str]):
    """(call, site, (file, factory name), bound call, how) for each call in ``analysis`` that may
    call a factory: by name (``make_loader(args)``, ``model.loader(...)``: ``call_keys.factory_key``),
    through subscripts of a dict (``LOADERS[args.data]["train"](args)``): each function the dict
    holds at the subscripted place is a candidate, every one when a key is unknown
    (``dispatch.dispatched``), or started in other processes (``mp.spawn(main_worker,
    args=(n, args))``, ``Process(target=fn, args=...)``: ``spawns.called_by_process``). The bound
    call is the one whose arguments the factory's parameters take: the call itself, the call
    of the started function a spawning call stands for, or the hook call a Lightning Trainer's
    run stands for (``_hook_calls``). ``how``: "call", "started" or "hook"."""
    from dl_lint.analysis.call_keys import factory_key
    from dl_lint.analysis.dispatch import dispatched
    from dl_lint.analysis.spawns import NAMES
    from dl_lint.analysis.syntax import terminal

    aliases = analysis.import_aliases(names)  # ``from data import loaders as make_loaders``
    stages = set(STAGE_HOOKS) if names & _HOOK_NAMES else set()
    for call, site in analysis.calls_named(names | NAMES | aliases | stages, dicts):
        if isinstance(call.func, ast.Subscript):
            for ref in dispatched(analysis.resolver, call.func, site):
                yield call, site, (os.path.abspath(ref.path), ref.name), call, "call"
            continue
        if terminal(call.func) in stages:
            for hook_call in _hook_calls(analysis, call, site, names):
                key = factory_key(analysis, hook_call, site)
                if key is not None:
                    yield call, site, key, hook_call, "hook"
            if terminal(call.func) not in names and terminal(call.func) not in aliases:
                continue
        if terminal(call.func) in NAMES:
            started = _process_call(analysis, call, site)
            if started is not None:
                key = factory_key(analysis, started, site)
                if key is not None:
                    yield call, site, key, started, "started"
                continue
            if terminal(call.func) not in names and terminal(call.func) not in aliases:
                continue
        key = factory_key(analysis, call, site)
        if key is not None:
            yield call, site, key, call, "call"


def _process_call(analysis: "ModuleAnalysis", call, site):
    """The call of a function that ``call`` starts in other processes (``spawns``), or None."""
    from dl_lint.analysis.spawns import called_by_process
    from dl_lint.analysis.values import External

    found = analysis.resolver.resolve(call.func, site).single
    qualname = found.value.qualname if found is not None and isinstance(found.value, External) else None
    return called_by_process(call, qualname)


def _analysis_of(file: SourceFile, project: "Project") -> Optional["ModuleAnalysis"]:
    """The parse of a linted file, kept from its own analysis (or parsed again only if the
    memory budget dropped it)."""
    found = project.parsed(file.path)
    if found is not None and (file.source is None or found.source == file.source):
        return found
    if file.errors:
        return None
    if not file.data:
        read(file)
    if file.errors or not file.data or not decode_source(file):
        return None
    from dl_lint.analysis.syntax import ParseFailure

    try:
        return project.parse(str(file.path), file.module_name, file.source, extra_loaders=file.settings.extra_loaders)
    except (ParseFailure, RecursionError):
        return None


def _decoded(file: SourceFile) -> str:
    from dl_lint.source import decode

    try:
        return decode(file.data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return ""
