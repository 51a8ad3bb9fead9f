"""Modified UTF-8 (Java) oracle.

Source: utf-8-encyclopedia-article.txt, "Modified UTF-8" and "Overlong
encodings": U+0000 is the overlong C0 80 and a 00 byte never occurs (so it
is ill-formed); "All known Modified UTF-8 implementations also treat the
surrogate pairs as in CESU-8".  As Java's DataOutputStream.writeUTF without
its 2-byte length prefix: U+0001..U+007F one byte, U+0080..U+07FF two,
U+0800..U+FFFF three *including* surrogates (unpaired surrogates are
well-formed and encodable); a supplementary code point is its UTF-16
surrogate pair (wtf-8.txt 4.1), 3 bytes per unit.  No 4-byte forms.  Longest
match: ED A0 80 ED B0 80 is U+10000, ED A0 80 alone is U+D800.  So a lead
surrogate code point followed by a trail one would write 6 bytes that decode
as U+10000, not the two code points (wtf-8.txt 4.1 on the same units: "the
resulting sequence will not represent the original code points.  This
situation should be considered an error"): ``encode`` raises for the trail
surrogate (its index).  No signature: ``signature=True`` raises ValueError.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "mutf-8"

C = (0x80, 0xBF)
ROWS = (
    ((0x01, 0x7F),),                  # U+0001 .. U+007F
    ((0xC0, 0xC0), (0x80, 0x80)),     # U+0000 as C0 80
    ((0xC2, 0xDF), C),                # U+0080 .. U+07FF
    ((0xE0, 0xE0), (0xA0, 0xBF), C),  # U+0800 .. U+0FFF
    ((0xE1, 0xEF), C, C),             # U+1000 .. U+FFFF, surrogates included
    # U+10000 .. U+10FFFF: lead surrogate unit, then trail surrogate unit
    ((0xED, 0xED), (0xA0, 0xAF), C, (0xED, 0xED), (0xB0, 0xBF), C),
)


def _three(seq: bytes) -> int:
    return (seq[0] & 0x0F) << 12 | (seq[1] & 0x3F) << 6 | (seq[2] & 0x3F)


def value(seq: bytes) -> int:
    if len(seq) == 1:
        return seq[0]
    if len(seq) == 2:
        return (seq[0] & 0x1F) << 6 | (seq[1] & 0x3F)   # C0 80 -> 0
    if len(seq) == 3:
        return _three(seq)
    hi, lo = _three(seq[:3]), _three(seq[3:])
    return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value)


def _unit(u: int) -> bytes:
    if u == 0:
        return b"\xC0\x80"
    if u <= 0x7F:
        return bytes([u])
    if u <= 0x7FF:
        return bytes([0xC0 | u >> 6, 0x80 | u & 0x3F])
    return bytes([0xE0 | u >> 12, 0x80 | u >> 6 & 0x3F, 0x80 | u & 0x3F])


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    out = bytearray()
    prev = None
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        if cp > 0x10FFFF:
            raise unencodable(NAME, k, cp, "beyond U+10FFFF")
        if 0xDC00 <= cp <= 0xDFFF and prev is not None and 0xD800 <= prev <= 0xDBFF:
            raise unencodable(NAME, k, cp, "a surrogate code point pair: it would decode as one code point")
        prev = cp
        if cp <= 0xFFFF:
            out += _unit(cp)
        else:
            out += _unit(((cp - 0x10000) >> 10) + 0xD800)
            out += _unit(((cp - 0x10000) & 0x3FF) + 0xDC00)
    return bytes(out)
