"""``utf-8-optu8``: UTF-8 that keeps any byte string, MirBSD OPTU-8 style.

Decoding maps each byte of an ill-formed sequence to U+EF80..U+EFFF
(``encspec.optu8``); encoding maps those code points back to the raw bytes, so
decode then encode returns any input unchanged — as ``surrogateescape`` does
with U+DC80..U+DCFF (PEP 383).  The caveat is the same as PEP 383's, only
sharper: U+EF80..U+EFFF are valid private-use characters, so a *genuine* one in
the text comes back as a raw byte, and input holding the UTF-8 of one
(EE BE 80..EE BF BF) does not round-trip.
"""
from __future__ import annotations

import codecs

NAME = "utf-8-optu8"
HANDLER = "encspec.optu8"


def getregentry(utf8) -> codecs.CodecInfo:
    """The codec, built on the generated *utf8* module's own classes (its core decodes;
    only the error handler and the mapping of U+EF80..U+EFFF back to bytes are added)."""

    def encode(text, errors="strict"):
        out = bytearray()
        run_start = 0
        for i, ch in enumerate(text):
            if 0xEF80 <= ord(ch) <= 0xEFFF:
                out += utf8.encode(text[run_start:i], errors)
                out.append(ord(ch) - 0xEF00)
                run_start = i + 1
        out += utf8.encode(text[run_start:], errors)
        return bytes(out)

    class IncrementalDecoder(utf8.IncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(HANDLER)

    class StreamReader(utf8.StreamReader):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, HANDLER)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input, final=False):
            return encode(input, self.errors)

    class StreamWriter(codecs.StreamWriter):
        def encode(self, input, errors="strict"):
            return encode(input, errors), len(input)

    return codecs.CodecInfo(
        name=NAME,
        encode=lambda text, errors="strict": (encode(text, errors), len(text)),
        decode=lambda data, errors="strict": (utf8.decode(data, HANDLER), len(data)),
        incrementalencoder=IncrementalEncoder, incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader, streamwriter=StreamWriter,
    )
