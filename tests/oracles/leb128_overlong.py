"""Unsigned LEB128 oracle accepting redundant groups, as protobuf's reader.

Sources: as ``leb128`` (DWARF 5 section 7.6; Protocol Buffers "Encoding",
"Base 128 Varints").  A protobuf varint reader takes the low 7 bits of
each byte, least significant group first, until a byte with the high bit
clear, for at most 10 bytes; it does not require the shortest form, so
80 00 is 0 and FF 80 00 is 127.

Well-formed here (token contract of encspec issue 17): any 1..10-byte
sequence, redundant zero groups allowed; the 10th byte must be 00 or 01
(protobuf masks a 10th byte's bits above bit 63 away; here values beyond
64 bits are errors, "invalid continuation byte", of the 9 bytes before it).
Errors otherwise as ``leb128``.  Encoding writes the shortest form.

API: ``NAME``, ``tokens``, ``tokens_with_reasons``, ``encode``, ``BOUNDARIES``.
"""
from . import leb128

NAME = "leb128-overlong"
MAX = leb128.MAX
BOUNDARIES = leb128.BOUNDARIES


def tokens_with_reasons(data: bytes) -> list:
    return leb128.scan_leb128(data, shortest=False)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(values, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return b"".join(leb128.encode_value(NAME, k, v) for k, v in enumerate(values))
