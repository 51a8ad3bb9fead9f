"""UTF-8 as in RFC 2279 (FSS-UTF 1992 / UTF-8 1993) oracle.

Source: utf-8-encyclopedia-article.txt, "History", table "FSS-UTF (1992) /
UTF-8 (1993)": 1 to 6 bytes, U+0000..U+7FFFFFFF, and Thompson's rule "that
only the shortest possible encoding is allowed" (also "Overlong
encodings").  Surrogates predate the RFC 3629 restriction ("Invalid code
points"), so they are well-formed and encodable.  FE and FF never occur.
No signature: ``signature=True`` raises ValueError.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "utf-8-rfc2279"

C = (0x80, 0xBF)
ROWS = (  # shortest form only: the second byte range excludes overlongs
    ((0x00, 0x7F),),                           # U+0000     .. U+007F
    ((0xC2, 0xDF), C),                         # U+0080     .. U+07FF
    ((0xE0, 0xE0), (0xA0, 0xBF), C),           # U+0800     .. U+0FFF
    ((0xE1, 0xEF), C, C),                      # U+1000     .. U+FFFF
    ((0xF0, 0xF0), (0x90, 0xBF), C, C),        # U+10000    .. U+3FFFF
    ((0xF1, 0xF7), C, C, C),                   # U+40000    .. U+1FFFFF
    ((0xF8, 0xF8), (0x88, 0xBF), C, C, C),     # U+200000   .. U+FFFFFF
    ((0xF9, 0xFB), C, C, C, C),                # U+1000000  .. U+3FFFFFF
    ((0xFC, 0xFC), (0x84, 0xBF), C, C, C, C),  # U+4000000  .. U+3FFFFFFF
    ((0xFD, 0xFD), C, C, C, C, C),             # U+40000000 .. U+7FFFFFFF
)
LEAD = {2: 0xC0, 3: 0xE0, 4: 0xF0, 5: 0xF8, 6: 0xFC}          # 110, 1110, ...
LEAD_MASK = {2: 0x1F, 3: 0x0F, 4: 0x07, 5: 0x03, 6: 0x01}     # its x bits


def value(seq: bytes) -> int:
    if len(seq) == 1:
        return seq[0]
    cp = seq[0] & LEAD_MASK[len(seq)]
    for b in seq[1:]:
        cp = cp << 6 | (b & 0x3F)
    return cp


def encode_one(cp: int) -> bytes:
    if cp <= 0x7F:
        return bytes([cp])
    n = 2 if cp <= 0x7FF else 3 if cp <= 0xFFFF else 4 if cp <= 0x1FFFFF \
        else 5 if cp <= 0x3FFFFFF else 6
    tail = [0x80 | (cp >> 6 * k) & 0x3F for k in range(n - 2, -1, -1)]
    return bytes([LEAD[n] | cp >> 6 * (n - 1)] + tail)


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value)


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    out = bytearray()
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        if cp > 0x7FFFFFFF:
            raise unencodable(NAME, k, cp, "beyond U+7FFFFFFF")
        out += encode_one(cp)
    return bytes(out)
