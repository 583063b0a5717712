"""``dl-lint server``: a Language Server (LSP over stdio) for editors, built on pygls.

It lints when a Python document is opened, changed (full text sync) or saved: the open documents
of the project, their unsaved text replacing the files, against the rest of the project as the
CLI reads it (the results cache keeps that warm between edits), with the settings of the nearest
``[tool.dl-lint]`` configuration; and publishes, for each open document whose findings changed
(an edit of a factory's default in one file changes a call site's findings in another): 0-based ranges, LSP severities, the rule code, source ``dl-lint`` and a
link to the rule's documentation. Diagnostics that carry a fix are offered as quick-fix code
actions. Closing a document clears its diagnostics.

pygls is optional (the ``lsp`` extra, or ``pip install pygls``); this module imports it only when the server
starts, and the conversions below are plain functions over dl-lint's model.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import click

from dl_lint import __version__
from dl_lint.model import Diagnostic, Location, Severity

__all__ = ["create_server", "server"]

SOURCE = "dl-lint"
# URI schemes of notebook cells sent as documents (VS Code's notebooks).
NOTEBOOK_CELL_SCHEMES = ("vscode-notebook-cell:",)
# dl-lint is not on a package index, so `pip install 'dl-lint[lsp]'` would fail: name the package.
INSTALL_HINT = "dl-lint: error: `dl-lint server` needs pygls (dl-lint's `lsp` extra): pip install 'pygls>=1.3'"


@click.command("server", context_settings={"help_option_names": ["-h", "--help"]})
def server() -> None:
    """Run the language server on stdin/stdout (for an editor to start)."""
    try:
        ls = create_server()
    except ImportError:
        click.echo(INSTALL_HINT, err=True)
        sys.exit(2)
    ls.start_io()


# -- positions -------------------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> List[str]:
    """The document's lines as LSP counts them (only \\n, \\r\\n and \\r end a line)."""
    return _LINE_BREAK.split(text)


def _units(text: str, encoding: str) -> int:
    """Length of ``text`` in the negotiated position encoding's code units (LSP default UTF-16)."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_position(location: Location, lines: Sequence[str], encoding: str = "utf-16") -> Tuple[int, int]:
    """dl-lint's 1-based (row, column in characters) as LSP's 0-based (line, character)."""
    line = max(location.row - 1, 0)
    column = max(location.column - 1, 0)
    text = lines[line] if line < len(lines) else ""
    return line, _units(text[:column], encoding)


# -- the server --------------------------------------------------------------------------------------


class _State:
    def __init__(self) -> None:
        self.settings_cache: Dict = {}
        self.diagnostics: Dict[str, List[Diagnostic]] = {}  # uri -> the last lint's diagnostics
        self.documentation_url: Dict[str, Optional[str]] = {}  # uri -> where its rules are documented


def create_server() -> Any:
    """The pygls server with dl-lint's features (raises ImportError without pygls)."""
    from lsprotocol import types as lsp

    try:
        from pygls.lsp.server import LanguageServer  # pygls >= 2
    except ImportError:  # pragma: no cover - pygls 1.x
        from pygls.server import LanguageServer

    ls_server = LanguageServer("dl-lint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
    state = _State()

    @ls_server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: Any) -> None:
        _lint_and_publish(ls, state, params.text_document.uri)

    @ls_server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: Any) -> None:
        _lint_and_publish(ls, state, params.text_document.uri)

    @ls_server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: Any, params: Any) -> None:
        # A save can change what other files' configuration or imports say: lint again.
        state.settings_cache.clear()
        _lint_and_publish(ls, state, params.text_document.uri)

    @ls_server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: Any) -> None:
        state.diagnostics.pop(params.text_document.uri, None)
        state.documentation_url.pop(params.text_document.uri, None)
        _publish(ls, params.text_document.uri, [], None)

    @ls_server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_action(ls: Any, params: Any) -> List[Any]:
        return _code_actions(ls, state, params)

    return ls_server


def _encoding(ls: Any) -> str:
    encoding = getattr(ls.workspace, "position_encoding", None)
    return str(getattr(encoding, "value", encoding) or "utf-16")


def _publish(ls: Any, uri: str, diagnostics: List[Any], version: Optional[int]) -> None:
    from lsprotocol import types as lsp

    if hasattr(ls, "text_document_publish_diagnostics"):  # pygls >= 2
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )
    else:  # pragma: no cover - pygls 1.x
        ls.publish_diagnostics(uri, diagnostics, version=version)


def _lint(state: _State, path: str, text: str) -> List[Diagnostic]:
    """A document alone (not a file on disk: an untitled buffer), against the project around it."""
    from dl_lint.analysis.project import find_root
    from dl_lint.config import settings_for_dir
    from dl_lint.engine import lint_source
    from dl_lint.rules import known_codes

    file = Path(path).absolute()
    settings = settings_for_dir(file.parent, known_codes(), state.settings_cache)
    return lint_source(text, str(file), settings, project_root=find_root(file))


def _documentation_url(state: _State, path: str) -> Optional[str]:
    """Where the rules of the document at ``path`` are documented (None: nowhere)."""
    from dl_lint.config import documentation_url, settings_for_dir
    from dl_lint.rules import known_codes

    return documentation_url(settings_for_dir(Path(path).absolute().parent, known_codes(), state.settings_cache))


def _lint_open_documents(ls: Any) -> Dict[str, List[Diagnostic]]:
    """uri -> diagnostics, for every open Python document that is a file on disk: each
    project's open documents linted together, their unsaved text replacing the files (for
    them and for every module the analysis reads), as the CLI would report them after a save;
    the results cache keeps the rest of the project's analysis warm between edits."""
    import os

    from dl_lint.analysis.project import find_root
    from dl_lint.engine import lint_paths

    by_root: Dict[str, Dict[str, Tuple[str, str]]] = {}  # root -> path -> (uri, text)
    for uri, document in list(ls.workspace.text_documents.items()):
        path = document.path or ""
        if uri.startswith(NOTEBOOK_CELL_SCHEMES) or not path or not os.path.isfile(path):
            continue
        if not _is_python(path, getattr(document, "language_id", None)):
            continue
        path = os.path.abspath(path)
        by_root.setdefault(os.fspath(find_root(Path(path))), {})[path] = (uri, document.source)
    out: Dict[str, List[Diagnostic]] = {}
    for root, documents in by_root.items():
        result = lint_paths(
            sorted(documents), cache=True, overlays={p: text for p, (_, text) in documents.items()}, jobs=1
        )
        found: Dict[str, List[Diagnostic]] = {p: [] for p in documents}
        for diag in result.diagnostics:
            key = os.path.abspath(diag.filename)
            if key in found:
                found[key].append(diag)
        for path, (uri, _) in documents.items():
            out[uri] = found[path]
    return out


def _lint_and_publish(ls: Any, state: _State, uri: str) -> None:
    """Lint after ``uri`` changed: every open document of the project is published again when
    what it shows changed (an edit of a factory's default changes a call site's findings)."""
    from lsprotocol import types as lsp

    from dl_lint.config import ConfigError
    from dl_lint.discovery import DiscoveryError

    document = ls.workspace.get_text_document(uri)
    path = document.path or uri
    if not _is_python(path, getattr(document, "language_id", None)):
        return
    if uri.startswith(NOTEBOOK_CELL_SCHEMES):
        # One cell of a notebook (VS Code sends each as a document of its own): alone it is not
        # the program (names come from earlier cells; DL203 would take it for a script). The
        # notebook is linted as a whole by `dl-lint nb.ipynb`; say nothing here.
        _publish(ls, uri, [], document.version)
        return
    try:
        linted = _lint_open_documents(ls)
        if uri not in linted:  # an untitled buffer: only its own text
            linted[uri] = _lint(state, path, document.source)
    except (ConfigError, DiscoveryError) as exc:
        state.diagnostics[uri] = []
        problem = lsp.Diagnostic(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            message=f"dl-lint configuration error: {exc}",
            severity=lsp.DiagnosticSeverity.Error,
            source=SOURCE,
        )
        _publish(ls, uri, [problem], document.version)
        return
    except Exception as exc:  # noqa: BLE001 - a linter bug must not take the editor's server down
        _log(ls, f"dl-lint: internal error while linting {path}: {type(exc).__name__}: {exc}")
        return
    encoding = _encoding(ls)
    for other, diagnostics in linted.items():
        if other != uri and state.diagnostics.get(other) == diagnostics:
            continue  # unchanged: not published again
        state.diagnostics[other] = diagnostics
        shown = ls.workspace.get_text_document(other)
        docs = state.documentation_url[other] = _documentation_url(state, shown.path or other)
        lines = _lines(shown.source)
        _publish(ls, other, [to_lsp_diagnostic(d, lines, encoding, docs) for d in diagnostics], shown.version)


def _is_python(path: str, language_id: Optional[str]) -> bool:
    if language_id:
        return language_id == "python"
    return path.endswith((".py", ".pyi", ".pyw"))


def _log(ls: Any, message: str) -> None:
    from lsprotocol import types as lsp

    if hasattr(ls, "window_log_message"):
        ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=message))
    else:  # pragma: no cover - pygls 1.x
        ls.show_message_log(message, lsp.MessageType.Error)


def _range(start: Location, end: Location, lines: Sequence[str], encoding: str) -> Any:
    from lsprotocol import types as lsp

    a, b = to_position(start, lines, encoding), to_position(end, lines, encoding)
    return lsp.Range(
        start=lsp.Position(line=a[0], character=a[1]), end=lsp.Position(line=b[0], character=b[1])
    )


def to_lsp_diagnostic(
    diag: Diagnostic, lines: Sequence[str], encoding: str = "utf-16", documentation_url: Optional[str] = None
) -> Any:
    """The LSP diagnostic; ``codeDescription`` (the rule's link) only with a documentation URL."""
    from lsprotocol import types as lsp

    from dl_lint.model import rule_url

    severity = {
        Severity.ERROR: lsp.DiagnosticSeverity.Error,
        Severity.WARNING: lsp.DiagnosticSeverity.Warning,
        Severity.INFO: lsp.DiagnosticSeverity.Information,
    }.get(Severity(diag.severity), lsp.DiagnosticSeverity.Error)
    # The short sentence first (editors that show one line show it), the detail below it.
    message = f"{diag.message}\n{diag.detail}" if diag.detail else diag.message
    url = rule_url(diag.code, documentation_url)
    related = None
    if diag.related:
        from pathlib import Path

        related = [
            lsp.DiagnosticRelatedInformation(
                location=lsp.Location(
                    uri=Path(place.path).absolute().as_uri(),
                    range=lsp.Range(
                        start=lsp.Position(line=max(place.row - 1, 0), character=max(place.column - 1, 0)),
                        end=lsp.Position(line=max(place.row - 1, 0), character=max(place.column - 1, 0)),
                    ),
                ),
                message=place.note,
            )
            for place in diag.related
            if not place.path.startswith("<")
        ] or None
    return lsp.Diagnostic(
        range=_range(diag.location, diag.end_location, lines, encoding),
        message=message,
        severity=severity,
        code=diag.code,
        code_description=lsp.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related,
        data={"name": diag.name, "fixable": diag.fix is not None},
    )


def _code_actions(ls: Any, state: _State, params: Any) -> List[Any]:
    from lsprotocol import types as lsp

    uri = params.text_document.uri
    diagnostics = state.diagnostics.get(uri)
    if not diagnostics:
        return []
    document = ls.workspace.get_text_document(uri)
    lines = _lines(document.source)
    encoding = _encoding(ls)
    first, last = params.range.start.line, params.range.end.line
    actions = []
    for diag in diagnostics:
        if diag.fix is None or not diag.fix.edits:
            continue
        if diag.end_location.row - 1 < first or diag.location.row - 1 > last:
            continue  # not on the lines the editor asks about
        edits = [
            lsp.TextEdit(range=_range(e.location, e.end_location, lines, encoding), new_text=e.content)
            for e in diag.fix.edits
        ]
        title = diag.fix.message or f"Fix {diag.code} ({diag.name})"
        actions.append(
            lsp.CodeAction(
                title=f"{title} ({diag.code})" if diag.code not in title else title,
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[to_lsp_diagnostic(diag, lines, encoding, state.documentation_url.get(uri))],
                edit=lsp.WorkspaceEdit(changes={uri: edits}),
                is_preferred=diag.fix.applicability == "safe",
            )
        )
    return actions
