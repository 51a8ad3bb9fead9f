"""CESU-8 oracle (Unicode Technical Report #26).

Source: utf-8-encyclopedia-article.txt, "CESU-8": "each half of a UTF-16
surrogate pair is encoded as its own three-byte UTF-8 encoding, resulting in
six-byte sequences rather than four bytes for characters outside the Basic
Multilingual Plane".  BMP code points except surrogates are encoded as in
UTF-8 ("Description", shortest form, 1 to 3 bytes); a supplementary code
point U+10000..U+10FFFF is its UTF-16 surrogate pair (wtf-8.txt 4.1), each
unit in 3 bytes: ED A0..AF 80..BF ED B0..BF 80..BF.  Four-byte UTF-8 forms
(F0..F4) and unpaired surrogate sequences are ill-formed; surrogate code
points are not encodable.  No signature: ``signature=True`` raises ValueError.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "cesu-8"

C = (0x80, 0xBF)
ROWS = (
    ((0x00, 0x7F),),                  # U+0000 .. U+007F
    ((0xC2, 0xDF), C),                # U+0080 .. U+07FF
    ((0xE0, 0xE0), (0xA0, 0xBF), C),  # U+0800 .. U+0FFF
    ((0xE1, 0xEC), C, C),             # U+1000 .. U+CFFF
    ((0xED, 0xED), (0x80, 0x9F), C),  # U+D000 .. U+D7FF
    ((0xEE, 0xEF), C, C),             # U+E000 .. U+FFFF
    # U+10000 .. U+10FFFF: lead surrogate unit, then trail surrogate unit
    ((0xED, 0xED), (0xA0, 0xAF), C, (0xED, 0xED), (0xB0, 0xBF), C),
)


def _three(seq: bytes) -> int:
    return (seq[0] & 0x0F) << 12 | (seq[1] & 0x3F) << 6 | (seq[2] & 0x3F)


def value(seq: bytes) -> int:
    if len(seq) == 1:
        return seq[0]
    if len(seq) == 2:
        return (seq[0] & 0x1F) << 6 | (seq[1] & 0x3F)
    if len(seq) == 3:
        return _three(seq)
    hi, lo = _three(seq[:3]), _three(seq[3:])          # UTF-16 decoding
    return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value)


def _unit(u: int) -> bytes:
    """One 16-bit value in the UTF-8 bit layout (1 to 3 bytes, shortest)."""
    if u <= 0x7F:
        return bytes([u])
    if u <= 0x7FF:
        return bytes([0xC0 | u >> 6, 0x80 | u & 0x3F])
    return bytes([0xE0 | u >> 12, 0x80 | u >> 6 & 0x3F, 0x80 | u & 0x3F])


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    out = bytearray()
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(NAME, k, cp, "surrogate code points are not encodable")
        if cp > 0x10FFFF:
            raise unencodable(NAME, k, cp, "beyond U+10FFFF")
        if cp <= 0xFFFF:
            out += _unit(cp)
        else:
            out += _unit(((cp - 0x10000) >> 10) + 0xD800)
            out += _unit(((cp - 0x10000) & 0x3FF) + 0xDC00)
    return bytes(out)
