"""Reading source files as Python does, and handing them to libcst without crashing.

libcst's native parser recurses on the C stack with no limit of its own: source nested a few
thousand levels deep (``not not not ...``, ``a and a and ...``, ``((((...))))``) kills the
process with SIGSEGV, and chains of a thousand binary operators, attributes or subscripts take
seconds to minutes (its cost grows with the cube of the depth). Its trees cost about 1 GB of
memory per MB of source. ``parse_module`` therefore measures the source with the standard
library's parser first and refuses what libcst cannot take, raising ``SourceRejected``; what it
accepts is parsed on a thread with a large stack.
"""

from __future__ import annotations

import _thread
import ast
import re
import warnings
from typing import Any, Callable, Optional

# Past about 350 levels libcst's own (Python) visitors raise RecursionError anyway, so refusing
# deeper source loses nothing that could be analysed, and bounds the parse to about a second.
MAX_NESTING = 500
# Larger files that construct a loader are not analysed (DL000): at about 1 GB of memory and
# 30-100 s per MB, a 30 MB file would exhaust a 24 GB machine.
MAX_PARSE_BYTES = 1 << 20
# For source CPython cannot parse (a syntax error, or syntax newer than this Python) the depth
# is unknown: libcst gets it only if it holds few tokens that can nest, on a big stack.
MAX_NESTING_TOKENS = 10_000
PARSER_STACK_BYTES = 256 << 20

_NESTING_MESSAGES = ("too many nested", "too complex", "too many levels", "too many indentation", "stack overflow")
_NESTING_TOKENS = re.compile(r"[-+*/%@&|^~<>.(\[{'\"]|\b(?:and|or|not|if|lambda|await)\b")
_STACK_LOCK = _thread.allocate_lock()  # threading itself is imported only to run libcst


def decode(data: bytes) -> str:
    """Decode like Python does: BOM, then a PEP 263 coding cookie, else UTF-8."""
    if not data.startswith(b"\xef\xbb\xbf"):
        # Neither a BOM nor the word of a cookie in the first two lines (where one must be):
        # UTF-8, without importing tokenize (and its regexes) before the first parse.
        second = data.find(b"\n", data.find(b"\n") + 1)
        if b"coding" not in (data if second < 0 else data[:second]):
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                pass  # tokenize says why, as it did
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


class SourceRejected(RecursionError):
    """Source that is not given to libcst: nested too deeply, or too large. ``reason`` is one
    line, ``row``/``column`` (1-based) where. A RecursionError so that every caller already
    guarding against parser exhaustion catches it."""

    def __init__(self, reason: str, row: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.row = max(row or 1, 1)
        self.column = max(column or 1, 1)


def check_parser_limits(source: str) -> None:
    """Raise SourceRejected for source that libcst must not parse."""
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_PARSE_BYTES:
        raise SourceRejected(
            f"file too large to analyse ({size / 2**20:.1f} MiB; dl-lint analyses files up to "
            f"{MAX_PARSE_BYTES / 2**20:g} MiB): exclude it, or split it"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (RecursionError, MemoryError):
        raise SourceRejected("expressions nested too deeply for the parser") from None
    except SyntaxError as exc:
        message = str(exc.msg or "")
        if any(marker in message for marker in _NESTING_MESSAGES):
            raise SourceRejected(
                "expressions nested too deeply for the parser", exc.lineno or 1, exc.offset or 1
            ) from None
        if len(_NESTING_TOKENS.findall(source)) > MAX_NESTING_TOKENS:
            # Too big to measure without parsing: report what CPython says instead.
            raise SourceRejected(" ".join(message.split()) or "invalid syntax", exc.lineno or 1, exc.offset or 1) from None
        return  # libcst reports the error (or knows syntax newer than this Python)
    except UnicodeError as exc:  # a lone surrogate (from a notebook's JSON, or the Python API)
        raise SourceRejected(f"the source holds a character UTF-8 cannot encode ({exc.reason})") from None
    except ValueError:  # NUL bytes before Python 3.12: libcst reports them
        return
    row, depth = _deepest(tree)
    if depth > MAX_NESTING:
        raise SourceRejected(f"expressions nested too deeply for the parser ({depth} levels; the limit is {MAX_NESTING})", row)


def _deepest(tree: ast.AST):
    """(row, depth) of the most deeply nested node, counting levels as libcst nests them:
    ``a and b and c`` is one node here but a chain there."""
    deepest, row = 0, 1
    stack = [(tree, 1, 1)]
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", line)
        if depth > deepest:
            deepest, row = depth, line
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + step, line))
    return row, deepest


def parse_module(source: str):
    """``libcst.parse_module(source)``, guarded: raises SourceRejected (see above), else what
    libcst raises (``ParserSyntaxError``)."""
    import libcst

    check_parser_limits(source)
    return _on_big_stack(libcst.parse_module, source)


def _on_big_stack(func: Callable[..., Any], *args: Any) -> Any:
    """``func(*args)`` on a thread with a PARSER_STACK_BYTES stack (native code recursing there
    does not depend on the caller's stack size); in this thread where threads cannot be made."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, func(*args)))
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller
            outcome.append((False, exc))

    import threading

    thread: "Optional[threading.Thread]" = None
    with _STACK_LOCK:
        try:
            previous = threading.stack_size(PARSER_STACK_BYTES)
        except (ValueError, RuntimeError):
            previous = None
        if previous is not None:
            try:
                thread = threading.Thread(target=run, name="dl-lint-parser", daemon=True)
                thread.start()
            except RuntimeError:  # cannot start a thread (resource limits)
                thread = None
            finally:
                threading.stack_size(previous)
    if thread is None:
        return func(*args)
    thread.join()
    ok, value = outcome[0]
    if ok:
        return value
    raise value


def python_syntax_error(source: str) -> Optional[SyntaxError]:
    """The SyntaxError this Python's own parser raises for ``source``, if any (libcst accepts
    some source CPython rejects, such as ``b'é'``, and analysing it can then fail)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source)
    except SyntaxError as exc:
        return exc
    except Exception:  # noqa: BLE001 - NUL bytes, nesting, lone surrogates: not a syntax error to report
        return None
    return None
