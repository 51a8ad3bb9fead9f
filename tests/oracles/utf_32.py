"""UTF-32 oracle (the encoding scheme with an optional byte order mark).

Sources: The Unicode Standard, chapter 3, D101 UTF-32 encoding scheme (a
leading byte order mark 00 00 FE FF (big-endian) or FF FE 00 00
(little-endian) gives the order and is not part of the text) and D90 for the
units (see ``utf_32le``).

Project decision (token contract of encspec issue 17), deliberately not
D101, which says unmarked text is big-endian: WITHOUT a signature the data
is little-endian, as CPython's ``utf-32`` codec on a little-endian machine.
A signature only counts at offset 0 and when complete (4 bytes: FF FE alone
is "truncated data", not a signature).

``encode(codepoints, signature=True)``: the default writes FF FE 00 00 and
then little-endian units (as CPython's ``utf-32`` encoder);
``signature=False`` writes the units alone.  ``byte_order(data)`` says
which order the tokens use ("little" or "big").
"""
from . import utf_32le

NAME = "utf-32"
SIGNATURE = b"\xFF\xFE\x00\x00"                                       # what encode writes
SIGNATURES = {b"\xFF\xFE\x00\x00": "little", b"\x00\x00\xFE\xFF": "big"}


def byte_order(data: bytes) -> str:
    return SIGNATURES.get(bytes(data[:4]), "little")


def tokens_with_reasons(data: bytes) -> list:
    data = bytes(data)
    if data[:4] in SIGNATURES:
        return [("signature", 0, 4, None, None)] + utf_32le.scan_utf32(data, SIGNATURES[data[:4]], 4)
    return utf_32le.scan_utf32(data, "little")


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = True) -> bytes:
    body = utf_32le.serialise(utf_32le.units_of(list(codepoints), NAME), "little")
    return SIGNATURE + body if signature else body
