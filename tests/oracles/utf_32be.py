"""UTF-32BE oracle (code units of 32 bits, most significant byte first).

Sources: The Unicode Standard, chapter 3: D90 UTF-32 encoding form (see
``utf_32le``), D99 UTF-32BE encoding scheme (most significant byte first;
no signature: 00 00 FE FF is U+FEFF).  Token rules and reasons: see
``utf_32le`` (the loop is shared; only the byte order differs).
"""
from . import utf_32le

NAME = "utf-32be"
ORDER = "big"


def tokens_with_reasons(data: bytes) -> list:
    return utf_32le.scan_utf32(bytes(data), ORDER)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return utf_32le.serialise(utf_32le.units_of(list(codepoints), NAME), ORDER)
