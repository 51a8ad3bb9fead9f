"""MirBSD OPTU-8 codecs: UTF-8 that keeps any byte string (encyclopedia article, "PEP 383").

Decoding maps each erroneous byte to U+EF00 + byte, U+EF80..U+EFFF
(``encspec.optu8``); encoding maps those code points back to the raw bytes —
as ``surrogateescape`` does with U+DC80..U+DCFF (PEP 383).

``utf-8-optu8-strict`` is the reversible form the article asks for: "For the
encoding to be reversible, the standard UTF-8 encodings of the code points used
for erroneous bytes must be considered invalid."  It decodes with the built-in
spec of that name (UTF-8 with U+EF80..U+EFFF a hole, so EE BE 80..EE BF BF are
erroneous bytes), hence decode + encode is the identity on every byte string.
Its encoder is also "careful of sequences of error code points which convert
back to valid UTF-8": a run of U+EF80..U+EFFF whose bytes would decode to
anything but the same run goes to the error handler (reason
``OPTU-8 escapes spell valid UTF-8``), so encode + decode is the identity on
whatever it encodes.

``utf-8-optu8`` (kept) decodes with plain UTF-8 and encodes without that care.
PEP 383's caveat, sharper: U+EF80..U+EFFF are valid private-use characters, so a
*genuine* one in the text comes back as a raw byte, and input holding the UTF-8
of one (EE BE 80..EE BF BF) does not round-trip.
"""
from __future__ import annotations

import codecs
import re

NAME = "utf-8-optu8"
STRICT_NAME = "utf-8-optu8-strict"
HANDLER = "encspec.optu8"
REASON = "OPTU-8 escapes spell valid UTF-8"
SPLIT_REASON = "OPTU-8 escapes spell valid UTF-8 with those an earlier piece wrote"
ESCAPES = re.compile("[\uef80-\uefff]+")


def _escaped(raw: bytes) -> str:
    """The escapes of raw bytes (U+EF00 + byte)."""
    return "".join(chr(0xEF00 + b) for b in raw)


def getregentry(base, name: str = NAME, reversible: bool = False) -> codecs.CodecInfo:
    """The codec, built on the generated *base* module's own classes (its core decodes;
    only the error handler and the mapping of U+EF80..U+EFFF back to bytes are added).

    *base* is the utf-8 module for ``utf-8-optu8`` and the utf-8-optu8-strict module,
    with *reversible* true, for ``utf-8-optu8-strict``."""
    from .handlers import register_handlers
    register_handlers()  # base.decode looks HANDLER up by name

    def plain(text, a, b, errors):
        """base's bytes for text[a:b], an error's span given in *text*."""
        try:
            return base.encode(text[a:b], errors)
        except UnicodeEncodeError as e:
            if e.object != text[a:b]:
                raise
            raise UnicodeEncodeError(name, text, a + e.start, a + e.end, e.reason) from None

    def encode(text, errors="strict", tail=b""):
        """(bytes, new tail).  *tail*: the raw bytes (the last three at most: a UTF-8
        sequence is four bytes at most) of the run of escapes that ended the bytes
        an earlier piece wrote.  A run that starts *text* is checked with them
        (reversible only): if together they spell valid UTF-8, the run goes to the
        error handler, since the tail's bytes are already out."""
        out = bytearray()
        pos, n = 0, len(text)
        if not n:
            return b"", tail
        ended = b""  # the raw bytes of a run of escapes written up to the end of text
        while pos < n:
            m = ESCAPES.search(text, pos)
            if m is None:
                out += plain(text, pos, n, errors)
                break
            out += plain(text, pos, m.start(), errors)
            raw = bytes(ord(c) - 0xEF00 for c in m.group())
            before = tail if m.start() == 0 else b""
            if reversible and base.decode(before + raw, HANDLER) != _escaped(before) + m.group():
                handler = codecs.lookup_error(errors)
                why = REASON if not before or base.decode(raw, HANDLER) != m.group() else SPLIT_REASON
                replacement, pos = handler(UnicodeEncodeError(name, text, m.start(), m.end(), why))
                out += replacement if isinstance(replacement, bytes) else plain(replacement, 0, len(replacement),
                                                                                 "strict")
                pos = pos + n if pos < 0 else pos
                if not 0 <= pos <= n:
                    raise IndexError(f"position {pos} from error handler out of bounds")
            else:
                out += raw
                pos = m.end()
                if pos == n:
                    ended = (before + raw)[-3:]
        return bytes(out), ended

    class IncrementalDecoder(base.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(HANDLER)

    class StreamReader(base.StreamReader):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, HANDLER)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        """Holds nothing back (a run of escapes split across pieces is checked whole:
        the raw bytes that ended the last piece are kept, not the text)."""

        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.tail = b""

        def encode(self, input, final=False):
            out, self.tail = encode(input, self.errors, self.tail)
            return out

        def reset(self):
            self.tail = b""

        def getstate(self):
            return int.from_bytes(b"\x01" + self.tail, "big") if self.tail else 0

        def setstate(self, state):
            self.tail = state.to_bytes((state.bit_length() + 7) // 8, "big")[1:]

    class StreamWriter(base.StreamWriter):
        """The base's writer on this codec's encoder."""

        _encoder = IncrementalEncoder

        def encode(self, input, errors="strict"):
            return encode(input, errors)[0], len(input)

    return codecs.CodecInfo(
        name=name,
        encode=lambda text, errors="strict": (encode(text, errors)[0], len(text)),
        decode=lambda data, errors="strict": (base.decode(data, HANDLER), len(data)),
        incrementalencoder=IncrementalEncoder, incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader, streamwriter=StreamWriter,
    )
