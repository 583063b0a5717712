"""`dl-lint server`: a real LSP session over stdio with the installed entry point.

The client below is a minimal JSON-RPC 2.0 client speaking LSP's Content-Length framing over the
server process's pipes; a reader thread queues what the server sends, and every wait is bounded.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

from conftest import ROOT

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
GOOD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)\n"
TIMEOUT = 30.0


def _exe() -> List[str]:
    exe = Path(sys.executable).with_name("dl-lint")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]


class LspClient:
    def __init__(self, command: List[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: "queue.Queue[Optional[Dict[str, Any]]]" = queue.Queue()
        self.notifications: List[Dict[str, Any]] = []
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            headers: Dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: Dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def _next(self, deadline: float) -> Dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError("timed out waiting for the server")
        try:
            message = self.messages.get(timeout=remaining)
        except queue.Empty:
            raise AssertionError("timed out waiting for the server") from None
        if message is None:
            raise AssertionError(
                f"the server closed its output; stderr: {self.proc.stderr.read().decode()[-2000:]}"
            )
        if "method" in message and "id" in message:  # a request from the server: answer it
            self.send({"id": message["id"], "result": None})
        return message

    def request(self, method: str, params: Any, timeout: float = TIMEOUT) -> Any:
        self.next_id += 1
        request_id = self.next_id
        self.send({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self._next(deadline)
            if message.get("id") == request_id and "method" not in message:
                assert "error" not in message, message
                return message.get("result")
            if "method" in message and "id" not in message:
                self.notifications.append(message)

    def wait_notification(
        self, method: str, where: Callable[[Dict[str, Any]], bool] = lambda p: True, timeout: float = TIMEOUT
    ) -> Dict[str, Any]:
        for i, message in enumerate(self.notifications):
            if message["method"] == method and where(message["params"]):
                del self.notifications[: i + 1]
                return message["params"]
        deadline = time.monotonic() + timeout
        while True:
            message = self._next(deadline)
            if message.get("method") == method and "id" not in message and where(message["params"]):
                return message["params"]
            if "method" in message and "id" not in message:
                self.notifications.append(message)

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=TIMEOUT)
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()


@pytest.fixture
def client(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    env_client = LspClient(_exe() + ["server"], tmp_path)
    yield env_client
    if env_client.proc.poll() is None:
        env_client.proc.kill()
        env_client.close()


def _initialize(client: LspClient, root: Path) -> Dict[str, Any]:
    result = client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            "clientInfo": {"name": "dl-lint-tests"},
        },
    )
    client.notify("initialized", {})
    return result


def test_session_publishes_diagnostics_and_clears_them(client, tmp_path):
    path = tmp_path / "train.py"
    path.write_text(BAD)
    uri = path.as_uri()

    result = _initialize(client, tmp_path)
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "dl-lint"
    assert capabilities["codeActionProvider"]["codeActionKinds"] == ["quickfix"]
    assert capabilities["textDocumentSync"]["change"] == 1  # full sync

    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": BAD}},
    )
    published = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    assert published["version"] == 1
    [diag] = published["diagnostics"]
    # dl-lint reports 2:29-2:46 (1-based, end exclusive): `prefetch_factor=2`
    assert diag["range"] == {"start": {"line": 1, "character": 28}, "end": {"line": 1, "character": 45}}
    assert BAD.splitlines()[1][28:45] == "prefetch_factor=2"
    assert diag["code"] == "DL001"
    assert diag["severity"] == 1  # Error
    assert diag["source"] == "dl-lint"
    assert "codeDescription" not in diag  # no documentation URL configured: no link to nowhere
    assert diag["message"].startswith("prefetch_factor=2 is passed but num_workers=0")

    # Code actions: one quick fix per fixable diagnostic on the requested lines; DL001's fix
    # removes the argument (with its comma), and applying it gives code dl-lint accepts.
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": diag["range"],
            "context": {"diagnostics": [diag], "only": ["quickfix"]},
        },
    )
    [action] = actions
    assert action["kind"] == "quickfix"
    assert "DL001" in action["title"]
    assert action["diagnostics"][0]["code"] == "DL001"
    [edit] = action["edit"]["changes"][uri]
    assert edit == {
        "range": {"start": {"line": 1, "character": 26}, "end": {"line": 1, "character": 45}},
        "newText": "",
    }
    fixed_line = BAD.splitlines()[1][:26] + edit["newText"] + BAD.splitlines()[1][45:]
    assert fixed_line == "loader = DataLoader([1, 2])"
    elsewhere = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 5}},
            "context": {"diagnostics": []},
        },
    )
    assert elsewhere == []  # nothing to fix on line 1

    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": GOOD}]},
    )
    cleared = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    assert cleared == {"uri": uri, "version": 2, "diagnostics": []}

    # didSave lints what the editor holds again: back to the bad text, then saved.
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": BAD}]},
    )
    assert client.wait_notification("textDocument/publishDiagnostics", lambda p: p.get("version") == 3)[
        "diagnostics"
    ]
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    saved = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    assert [d["code"] for d in saved["diagnostics"]] == ["DL001"]

    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert (
        client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)["diagnostics"]
        == []
    )

    assert client.request("shutdown", None) is None
    client.notify("exit", None)
    assert client.close() == 0


def test_server_uses_project_config_and_noqa_and_utf16_columns(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'demo'\n\n[tool.dl-lint]\nignore = ['DL101']\n"
    )
    text = (
        "from torch.utils.data import DataLoader\n"
        "a = DataLoader([1, 2], num_workers=16, prefetch_factor=8)\n"  # DL101, ignored by config
        "b = DataLoader([1, 2], prefetch_factor=2)  # noqa: DL001\n"
        "c = DataLoader(['\U0001f600'], prefetch_factor=2)\n"  # an astral character before the span
    )
    uri = (tmp_path / "nested" / "t.py").as_uri()
    (tmp_path / "nested").mkdir()
    _initialize(client, tmp_path)
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 7, "text": text}},
    )
    published = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    [diag] = published["diagnostics"]
    assert diag["code"] == "DL001"
    # column 24 in characters; the emoji is two UTF-16 code units, so character 24 in LSP's units
    line = text.splitlines()[3]
    start = line.index("prefetch_factor")
    assert diag["range"]["start"] == {"line": 3, "character": start + 1}
    client.request("shutdown", None)
    client.notify("exit", None)
    assert client.close() == 0


def test_server_without_pygls_says_how_to_install(tmp_path):
    """In an environment without pygls (only dl-lint and its runtime dependencies on the path),
    `dl-lint server` prints one line and exits 2."""
    import click
    import libcst

    site = tmp_path / "site"
    site.mkdir()
    for module in (click, libcst):
        package = Path(module.__file__).parent
        (site / package.name).symlink_to(package)
    (site / "dl_lint").symlink_to(ROOT / "dl_lint")
    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import pygls"],
        env={"PYTHONPATH": str(site)},
        capture_output=True,
        timeout=60,
    )
    assert probe.returncode != 0  # pygls really is absent there
    result = subprocess.run(
        [sys.executable, "-S", "-m", "dl_lint", "server"],
        env={"PYTHONPATH": str(site), "PATH": os.environ.get("PATH", "")},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "dl-lint: error: `dl-lint server` needs pygls (dl-lint's `lsp` extra): pip install 'pygls>=1.3'\n"
    )


FACTORY = """\
from torch.utils.data import DataLoader


def make(ds, num_workers=4, prefetch_factor=2):
    return DataLoader(ds, num_workers=num_workers, prefetch_factor=prefetch_factor)
"""


def test_open_buffers_are_linted_against_the_project(client, tmp_path):
    """Issue 26: the server gives the CLI's answer. main.py's unsaved text (num_workers=0) makes
    the call site crash through a factory of another module; an unsaved edit of that factory's
    default (prefetch_factor=None) clears main.py's finding, published for main.py although the
    edit was in pkg/loader.py. Nothing is saved to disk."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/loader.py").write_text(FACTORY)
    main = tmp_path / "main.py"
    main.write_text("from pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=4)\n")
    _initialize(client, tmp_path)
    unsaved = "from pkg.loader import make\n\nloader = make([1, 2, 3], num_workers=0)\n"
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": main.as_uri(), "languageId": "python", "version": 1, "text": unsaved}},
    )
    published = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == main.as_uri())
    assert [d["code"] for d in published["diagnostics"]] == ["DL001"]
    assert published["diagnostics"][0]["range"]["start"]["line"] == 2
    related = published["diagnostics"][0]["relatedInformation"]
    assert related[0]["location"]["uri"] == (tmp_path / "pkg/loader.py").as_uri()

    loader_uri = (tmp_path / "pkg/loader.py").as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": loader_uri, "languageId": "python", "version": 1, "text": FACTORY}},
    )
    assert client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == loader_uri)["diagnostics"] == []
    edited = FACTORY.replace("prefetch_factor=2", "prefetch_factor=None")
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": loader_uri, "version": 2}, "contentChanges": [{"text": edited}]},
    )
    again = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == main.as_uri())
    assert again["diagnostics"] == []
    assert (tmp_path / "pkg/loader.py").read_text() == FACTORY and "num_workers=4" in main.read_text()
    client.request("shutdown", None)
    client.notify("exit", None)
    assert client.close() == 0


def test_server_shows_the_estimates_batch_bytes(client, tmp_path):
    """The language server's DL101 carries the figure `dl-lint estimate` gives for the same loader
    (one source of batch bytes: dl_lint/analysis/batches.py)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n\n[tool.dl-lint]\nmemory-budget = '1B'\n")
    source = (Path(__file__).parent / "data" / "batches" / "rand_tensor.py").read_text()
    path = tmp_path / "rand_tensor.py"
    path.write_text(source)
    estimate = json.loads(
        subprocess.run(
            _exe() + ["estimate", str(path), "--output-format", "json", "--shm", "1TiB"],
            cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
        ).stdout
    )
    [loader] = estimate["loaders"]
    from dl_lint.config import format_size

    _initialize(client, tmp_path)
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": source}},
    )
    published = client.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == path.as_uri())
    [diag] = [d for d in published["diagnostics"] if d["code"] == "DL101"]
    assert f"At {format_size(loader['batch_bytes'])} a batch" in diag["message"]
    client.request("shutdown", None)
    client.notify("exit", None)
    assert client.close() == 0
