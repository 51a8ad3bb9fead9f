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
ESCAPES = re.compile("[\uef80-\uefff]+")


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

    def encode(text, errors="strict", final=True):
        """(bytes, held): with final false a run of escapes ending *text* is held back,
        since the next piece may extend it (reversible only)."""
        out = bytearray()
        pos, n = 0, len(text)
        while pos < n:
            m = ESCAPES.search(text, pos)
            if m is None:
                out += plain(text, pos, n, errors)
                break
            out += plain(text, pos, m.start(), errors)
            if reversible and not final and m.end() == n:
                return bytes(out), m.group()
            raw = bytes(ord(c) - 0xEF00 for c in m.group())
            if reversible and base.decode(raw, HANDLER) != m.group():
                handler = codecs.lookup_error(errors)
                replacement, pos = handler(UnicodeEncodeError(name, text, m.start(), m.end(), REASON))
                out += replacement if isinstance(replacement, bytes) else plain(replacement, 0, len(replacement),
                                                                                 "strict")
                pos = pos + n if pos < 0 else pos
                if not 0 <= pos <= n:
                    raise IndexError(f"position {pos} from error handler out of bounds")
            else:
                out += raw
                pos = m.end()
        return bytes(out), ""

    class IncrementalDecoder(base.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(HANDLER)

    class StreamReader(base.StreamReader):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, HANDLER)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        """Holds a run of escapes at the end of a piece until the next (reversible)."""

        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.held = ""

        def encode(self, input, final=False):
            out, self.held = encode(self.held + input, self.errors, final)
            return out

        def reset(self):
            self.held = ""

        def getstate(self):
            return int.from_bytes(b"\x01" + bytes(ord(c) - 0xEF00 for c in self.held), "big") if self.held else 0

        def setstate(self, state):
            self.held = "".join(chr(0xEF00 + b) for b in state.to_bytes((state.bit_length() + 7) // 8, "big")[1:])

    class StreamWriter(base.StreamWriter):
        """The base's writer (what the encoder holds is written by reset(), close() and
        leaving a ``with`` block) on this codec's encoder."""

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
