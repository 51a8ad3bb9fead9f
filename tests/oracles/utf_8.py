"""UTF-8 oracle (RFC 3629 / Unicode Table 3-7).

Source: utf-8-encyclopedia-article.txt, "Description" (bit layout, 1 to 4
bytes, U+0000..U+10FFFF), "Overlong encodings", "Invalid byte sequences"
(maximal-subpart replacement: "the error ends as soon as a disallowed byte is
encountered") and "Invalid code points" (U+D800..U+DFFF and > U+10FFFF are
invalid); the well-formed byte ranges are wtf-8.txt section 5 Table 3 with
the surrogate row E0..EF split so that ED A0..BF is excluded (Unicode
Table 3-7).  No signature: ``encode(..., signature=True)`` raises ValueError.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "utf-8"

C = (0x80, 0xBF)  # continuation byte 10xxxxxx
ROWS = (
    ((0x00, 0x7F),),                     # U+0000   .. U+007F
    ((0xC2, 0xDF), C),                   # U+0080   .. U+07FF
    ((0xE0, 0xE0), (0xA0, 0xBF), C),     # U+0800   .. U+0FFF
    ((0xE1, 0xEC), C, C),                # U+1000   .. U+CFFF
    ((0xED, 0xED), (0x80, 0x9F), C),     # U+D000   .. U+D7FF (no surrogates)
    ((0xEE, 0xEF), C, C),                # U+E000   .. U+FFFF
    ((0xF0, 0xF0), (0x90, 0xBF), C, C),  # U+10000  .. U+3FFFF
    ((0xF1, 0xF3), C, C, C),             # U+40000  .. U+FFFFF
    ((0xF4, 0xF4), (0x80, 0x8F), C, C),  # U+100000 .. U+10FFFF
)


def value(seq: bytes) -> int:
    """Bits of a well-formed sequence (Description table)."""
    if len(seq) == 1:
        return seq[0]                                        # 0xxxxxxx
    if len(seq) == 2:
        return (seq[0] & 0x1F) << 6 | (seq[1] & 0x3F)       # 110xxxxx 10xxxxxx
    if len(seq) == 3:
        return (seq[0] & 0x0F) << 12 | (seq[1] & 0x3F) << 6 | (seq[2] & 0x3F)
    return ((seq[0] & 0x07) << 18 | (seq[1] & 0x3F) << 12
            | (seq[2] & 0x3F) << 6 | (seq[3] & 0x3F))        # 11110xxx + 3


def encode_one(cp: int) -> bytes:
    """Shortest form per the Description table; caller checks the range."""
    if cp <= 0x7F:
        return bytes([cp])
    if cp <= 0x7FF:
        return bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F])
    if cp <= 0xFFFF:
        return bytes([0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
    return bytes([0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F,
                  0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value)


def encode_body(codepoints, name: str = NAME) -> bytes:
    out = bytearray()
    for k, cp in enumerate(codepoints):
        check_codepoint(name, k, cp)
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(name, k, cp, "surrogate code points are invalid")
        if cp > 0x10FFFF:
            raise unencodable(name, k, cp, "beyond U+10FFFF")
        out += encode_one(cp)
    return bytes(out)


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature (use utf-8-bom)")
    return encode_body(codepoints)
