"""`dl-lint server` driven by pygls' own language client (``pygls.lsp.client.LanguageClient``,
the client pygls' test suites use), over stdio with the installed entry point: what an editor's
generic LSP client sees (VS Code's, docs/integrations.md). tests/test_lsp.py drives the same
server byte by byte with a hand-written client.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Dict, List

from lsprotocol import types
from pygls.lsp.client import LanguageClient

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
# A cell alone looks like a script iterating a loader with workers outside a __main__ guard
# (DL203 for a .py file); in a notebook it is not.
CELL = (
    "from torch.utils.data import DataLoader\n"
    "for batch in DataLoader(range(8), num_workers=2, multiprocessing_context='spawn'):\n"
    "    pass\n"
)
PAGE = "https://github.com/OWNER/dl-lint/blob/main/docs/rules.md"
TIMEOUT = 60


def _exe() -> List[str]:
    exe = Path(sys.executable).with_name("dl-lint")
    return [str(exe), "server"] if exe.exists() else [sys.executable, "-m", "dl_lint", "server"]


async def _session(root: Path, documents: Dict[str, types.TextDocumentItem]) -> Dict[str, object]:
    """Open each document in one session; the diagnostics published for each, and the code
    actions offered on the first document's lines."""
    client = LanguageClient("dl-lint-tests", "1")
    published: Dict[str, asyncio.Future] = {uri: asyncio.get_running_loop().create_future() for uri in documents}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        future = published.get(params.uri)
        if future is not None and not future.done():
            future.set_result(params.diagnostics)

    command, *args = _exe()
    await client.start_io(command, *args, cwd=str(root))
    try:
        result = await asyncio.wait_for(
            client.initialize_async(
                types.InitializeParams(
                    process_id=None, root_uri=root.as_uri(), capabilities=types.ClientCapabilities()
                )
            ),
            TIMEOUT,
        )
        client.initialized(types.InitializedParams())
        for item in documents.values():
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        diagnostics = {uri: await asyncio.wait_for(future, TIMEOUT) for uri, future in published.items()}
        first = next(iter(documents))
        actions = await asyncio.wait_for(
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=first),
                    range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=5, character=0)),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
            TIMEOUT,
        )
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
    finally:
        await asyncio.wait_for(client.stop(), TIMEOUT)
    return {"server": result.server_info, "diagnostics": diagnostics, "actions": actions}


def _item(path: Path, text: str, uri: str = "") -> types.TextDocumentItem:
    return types.TextDocumentItem(uri=uri or path.as_uri(), language_id="python", version=1, text=text)


def test_a_generic_client_gets_diagnostics_links_and_quick_fixes(tmp_path):
    """With `documentation-url` set in the project, each diagnostic links its rule
    (codeDescription); its fix is offered as a quick fix."""
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "demo"\n\n[tool.dl-lint]\ndocumentation-url = "{PAGE}"\n')
    train = tmp_path / "train.py"
    train.write_text(BAD)
    session = asyncio.run(_session(tmp_path, {train.as_uri(): _item(train, BAD)}))
    assert session["server"].name == "dl-lint"
    [diag] = session["diagnostics"][train.as_uri()]
    assert diag.code == "DL001" and diag.source == "dl-lint"
    assert diag.severity == types.DiagnosticSeverity.Error
    assert diag.code_description.href == f"{PAGE}#dl001"
    [action] = session["actions"]
    assert action.kind == types.CodeActionKind.QuickFix and "DL001" in action.title
    assert action.is_preferred is False  # removing prefetch_factor written for workers: unsafe
    [edit] = action.edit.changes[train.as_uri()]
    assert edit.new_text == "" and edit.range.start.line == 1


def test_without_a_documentation_url_there_is_no_link(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    train = tmp_path / "train.py"
    train.write_text(BAD)
    session = asyncio.run(_session(tmp_path, {train.as_uri(): _item(train, BAD)}))
    [diag] = session["diagnostics"][train.as_uri()]
    assert diag.code == "DL001" and diag.code_description is None


def test_notebook_cells_sent_as_documents_are_not_linted_alone(tmp_path):
    """VS Code sends a notebook's cells as documents of their own (``vscode-notebook-cell:``),
    language "python". Alone, a cell is not the program: this one would be a DL203 as a file.
    The server publishes nothing for it; the same text as a file gets its DL203."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    notebook = tmp_path / "nb.ipynb"
    cell_uri = "vscode-notebook-cell:" + notebook.as_uri()[len("file:") :] + "#W0sZmlsZQ%3D%3D"
    script = tmp_path / "script.py"
    script.write_text(CELL)
    session = asyncio.run(
        _session(tmp_path, {script.as_uri(): _item(script, CELL), cell_uri: _item(notebook, CELL, cell_uri)})
    )
    assert list(session["diagnostics"][cell_uri]) == []
    assert [d.code for d in session["diagnostics"][script.as_uri()]] == ["DL203"]
