"""The replacement policies of the encyclopedia article ("Invalid byte sequences",
"Byte-preserving extensions"), as Python error handlers.

They work with every encspec codec and with CPython's own codecs: each maps the
bytes of one decode error, so the error's span decides how many replacements
appear (maximal subpart: one per error; ``replace_per_byte``: one per byte).
"""
from __future__ import annotations

import codecs

# Windows-1252's five undefined bytes become the C1 code points, as browsers do.
_CP1252 = {b: bytes([b]).decode("cp1252", errors="strict") if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else chr(b)
           for b in range(256)}


def _error_bytes(exc: UnicodeError) -> bytes:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start:exc.end]


def latin1(exc):
    """Each byte of the error becomes the code point of the same value (ISO-8859-1)."""
    return "".join(map(chr, _error_bytes(exc))), exc.end


def cp1252(exc):
    """Each byte of the error becomes its Windows-1252 character (81, 8D, 8F, 90, 9D: C1)."""
    return "".join(_CP1252[b] for b in _error_bytes(exc)), exc.end


def optu8(exc):
    """MirBSD OPTU-8: each byte 80..FF of the error becomes U+EF80..U+EFFF (bytes below 80 cannot)."""
    data = _error_bytes(exc)
    if any(b < 0x80 for b in data):
        raise exc
    return "".join(chr(0xEF00 + b) for b in data), exc.end


def replace_per_byte(exc):
    """One U+FFFD per byte of the error, instead of one per maximal subpart."""
    return "\ufffd" * len(_error_bytes(exc)), exc.end


HANDLERS = {
    "encspec.latin1": latin1,
    "encspec.cp1252": cp1252,
    "encspec.optu8": optu8,
    "encspec.replace_per_byte": replace_per_byte,
}


def register_handlers() -> None:
    for name, handler in HANDLERS.items():
        codecs.register_error(name, handler)
