"""``corrected-utf-8-pua``: Corrected UTF-8 that carries C1 controls and surrogates.

corrected-utf-8.txt: the C1 controls "can be mapped to some convenient private-use
codepoints", and "programs that need to represent actual surrogates ... can map
them into private-use space".  Encoding maps U+0080..U+009F and U+D800..U+DFFF to
code point + U+100000 (handlers.to_private_use) before Corrected UTF-8 encodes;
decoding maps U+100080..U+10009F and U+10D800..U+10DFFF back
(handlers.from_private_use).  So any str round-trips, with PEP 383's caveat: a
genuine character of those two blocks comes back as the C1 control or surrogate
it stands for.  Surrogates are text here, so ``surrogateescape``'s U+DC80..U+DCFF
are written as U+10DC80..U+10DCFF, not as the bytes they escaped.
"""
from __future__ import annotations

import codecs

from .handlers import from_private_use, to_private_use

SUFFIX = "-pua"


def getregentry(base) -> codecs.CodecInfo:
    """The codec, built on the generated corrected-utf-8 module *base*'s own classes."""

    class IncrementalEncoder(base.IncrementalEncoder):
        def encode(self, input, final=False):
            return super().encode(to_private_use(input), final)

    class IncrementalDecoder(base.IncrementalDecoder):
        def decode(self, input, final=False):
            return from_private_use(super().decode(input, final))

    class StreamWriter(base.StreamWriter):
        _encoder = IncrementalEncoder

    class StreamReader(base.StreamReader):
        def decode(self, input, errors="strict", final=False):
            text, consumed = super().decode(input, errors, final)
            return from_private_use(text), consumed

    return codecs.CodecInfo(
        name=base.NAME + SUFFIX,
        encode=lambda text, errors="strict": (base.encode(to_private_use(text), errors), len(text)),
        decode=lambda data, errors="strict": (from_private_use(base.decode(data, errors)), len(data)),
        incrementalencoder=IncrementalEncoder, incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader, streamwriter=StreamWriter,
    )
