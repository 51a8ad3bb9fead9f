"""UTF-8 without U+EF80..U+EFFF oracle: the base of reversible OPTU-8.

Source: utf-8-encyclopedia-article.txt, "PEP 383": MirBSD OPTU-8 converts the
128 error bytes "to U+EF80...U+EFFF in a Private Use Area", and "For the
encoding to be reversible, the standard UTF-8 encodings of the code points used
for erroneous bytes must be considered invalid."  U+EF80..U+EFFF are
EE BE 80..EE BF BF (the Description table: 1110xxxx 10xxxxxx 10xxxxxx), so the
UTF-8 row EE..EF 80..BF 80..BF loses EE BE..BF; the rest is ``utf_8`` (written
from the same article).  Those bytes are then erroneous bytes, each its own
error (EE BE is no prefix of a valid sequence any more), as ED A0 80 is in
UTF-8.  The code points are unencodable.  No signature.
"""
from . import utf_8
from ._driver import check_codepoint, scan, unencodable

NAME = "utf-8-optu8-strict"

C = utf_8.C
ROWS = tuple(row for row in utf_8.ROWS if row[0] != (0xEE, 0xEF)) + (
    ((0xEE, 0xEE), (0x80, 0xBD), C),     # U+E000 .. U+EF7F
    ((0xEF, 0xEF), C, C),                # U+F000 .. U+FFFF
)


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=utf_8.value)


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    out = bytearray()
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        if 0xEF80 <= cp <= 0xEFFF:
            raise unencodable(NAME, k, cp, "OPTU-8 error code points are invalid")
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(NAME, k, cp, "surrogate code points are invalid")
        if cp > 0x10FFFF:
            raise unencodable(NAME, k, cp, "beyond U+10FFFF")
        out += utf_8.encode_one(cp)
    return bytes(out)
