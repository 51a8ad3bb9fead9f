"""UTF-16BE oracle (code units of 16 bits, most significant byte first).

Sources: The Unicode Standard, chapter 3: D91 UTF-16 encoding form and
Table 3-5 (as in ``utf_16le``), D96 UTF-16BE encoding scheme (units
serialised most significant byte first; no signature: a leading FE FF is
U+FEFF).  Token rules and reasons: see ``utf_16le`` (the loop is shared;
only the byte order differs).  E.g. D8 00 41 <end> is one error [0, 3)
"unexpected end of data": the partial unit 41 is never judged.
"""
from . import utf_16le

NAME = "utf-16be"
ORDER = "big"


def tokens_with_reasons(data: bytes) -> list:
    return utf_16le.scan_utf16(bytes(data), ORDER)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return utf_16le.serialise(utf_16le.units_of(codepoints, NAME), ORDER)
