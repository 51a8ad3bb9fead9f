"""The replacement policies of the encyclopedia article ("Invalid byte sequences",
"Byte-preserving extensions"), as Python error handlers.

They work with every encspec codec and with CPython's own codecs.  Each is a
per-byte policy: it replaces only the first byte of the error and resumes at
the next one ("turn each byte into an error ... back up when an error is
detected"), so the bytes after it are decoded again and may form a valid
sequence.  Replacing the whole span at once would lose those characters.
"""
from __future__ import annotations

import codecs

# Windows-1252's five undefined bytes become the C1 code points, as browsers do.
CP1252 = tuple(chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252", errors="strict")
               for b in range(256))


def first_byte(exc: UnicodeError) -> int:
    """The error's first byte: the one a per-byte policy replaces (only decode errors have bytes)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start]


def latin1(exc):
    """The error's first byte becomes the code point of the same value (ISO-8859-1)."""
    return chr(first_byte(exc)), exc.start + 1


def cp1252(exc):
    """The error's first byte becomes its Windows-1252 character (81, 8D, 8F, 90, 9D: C1)."""
    return CP1252[first_byte(exc)], exc.start + 1


def optu8(exc):
    """MirBSD OPTU-8: the error's first byte 80..FF becomes U+EF80..U+EFFF (a byte below 80 cannot)."""
    b = first_byte(exc)
    if b < 0x80:
        raise exc
    return chr(0xEF00 + b), exc.start + 1


def replace_per_byte(exc):
    """One U+FFFD for the error's first byte, instead of one per maximal subpart."""
    first_byte(exc)
    return "\ufffd", exc.start + 1


HANDLERS = {
    "encspec.latin1": latin1,
    "encspec.cp1252": cp1252,
    "encspec.optu8": optu8,
    "encspec.replace_per_byte": replace_per_byte,
}


def register_handlers() -> None:
    for name, handler in HANDLERS.items():
        codecs.register_error(name, handler)
