"""Reading source files as Python does."""

from __future__ import annotations

import io
import tokenize


def decode(data: bytes) -> str:
    """Decode like Python does: BOM, then a PEP 263 coding cookie, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text
