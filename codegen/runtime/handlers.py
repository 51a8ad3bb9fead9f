"""The replacement policies of the encyclopedia article ("Invalid byte sequences",
"Byte-preserving extensions"), as Python error handlers, and Corrected UTF-8's
private-use mapping of the code points it does not encode (``encspec.private_use``).

They work with every encspec codec and with CPython's own codecs.  Each decode
policy is a per-byte policy: it replaces only the first byte of the error and resumes at
the next one ("turn each byte into an error ... back up when an error is
detected"), so the bytes after it are decoded again and may form a valid
sequence.  Replacing the whole span at once would lose those characters.
"""
from __future__ import annotations

import codecs
import re

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


# Corrected UTF-8 does not encode the C1 controls (U+0080..U+009F) or the surrogates
# (U+D800..U+DFFF); corrected-utf-8.txt: "they can be mapped to some convenient
# private-use codepoints".  The block: code point + U+100000, in plane 16's private
# use area (U+100080..U+10009F, U+10D800..U+10DFFF), clear of OPTU-8 (U+EF80..U+EFFF),
# surrogateescape (U+DC80..U+DCFF) and the BMP private use area the Under-ConScript
# Unicode Registry fills (the magic number's U+ED4E is one of its letters); the low
# 16 bits stay the original code point.  PEP 383's caveat holds: a genuine character
# of that block reads back as the C1 control or surrogate it stands for.
PRIVATE_USE_OFFSET = 0x100000
_TO_PRIVATE_USE = re.compile("[\x80-\x9f\ud800-\udfff]")
_FROM_PRIVATE_USE = re.compile("[\U00100080-\U0010009f\U0010d800-\U0010dfff]")


def _shift(by):
    return lambda m: chr(ord(m.group()) + by)


def to_private_use(text: str) -> str:
    """Each C1 control and surrogate becomes its private-use stand-in (code point + U+100000)."""
    return _TO_PRIVATE_USE.sub(_shift(PRIVATE_USE_OFFSET), text)


def from_private_use(text: str) -> str:
    """The way back after decoding: U+100080..U+10009F, U+10D800..U+10DFFF lose U+100000."""
    return _FROM_PRIVATE_USE.sub(_shift(-PRIVATE_USE_OFFSET), text)


def private_use(exc):
    """Encode handler: the C1 controls and surrogates of the error become their
    private-use stand-ins (up to the first other character, which fails)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    span = exc.object[exc.start:exc.end]
    mapped = to_private_use(span)
    k = next((i for i, (a, b) in enumerate(zip(span, mapped)) if a == b), len(span))
    if k == 0:
        raise exc
    return mapped[:k], exc.start + k


HANDLERS = {
    "encspec.latin1": latin1,
    "encspec.cp1252": cp1252,
    "encspec.optu8": optu8,
    "encspec.replace_per_byte": replace_per_byte,
    "encspec.private_use": private_use,
}


def register_handlers() -> None:
    for name, handler in HANDLERS.items():
        codecs.register_error(name, handler)
