"""UTF-EBCDIC oracle (Unicode Technical Report #16, version 8, 2002).

Source: https://www.unicode.org/reports/tr16/tr16-8.html.  A code point (a Unicode
scalar value, U+0000..U+10FFFF without the surrogates) is first written as an I8
sequence by UTF-8-Mod: 00..9F stand for themselves; longer sequences have a lead
byte 110xxxxx (2 bytes), 1110xxxx (3), 11110xxx (4) or 111110xx (5) and
continuation bytes 101xxxxx (five bits each), shortest form only.  Each I8 byte then
goes one-to-one through the report's byte conversion table (I8_TO_EBCDIC below,
written out here as the report lays it out: row = high nibble, column = low
nibble).  Decoding reads the bytes back through the table and then the I8 rows,
longest match, an error covering the maximal subpart (as the Unicode Standard
says for UTF-8, 3.9 "U+FFFD Substitution of Maximal Subparts").
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "utf-ebcdic"

I8_TO_EBCDIC = bytes.fromhex(
    "00 01 02 03 37 2D 2E 2F 16 05 15 0B 0C 0D 0E 0F"  # 0_
    "10 11 12 13 3C 3D 32 26 18 19 3F 27 1C 1D 1E 1F"  # 1_
    "40 5A 7F 7B 5B 6C 50 7D 4D 5D 5C 4E 6B 60 4B 61"  # 2_
    "F0 F1 F2 F3 F4 F5 F6 F7 F8 F9 7A 5E 4C 7E 6E 6F"  # 3_
    "7C C1 C2 C3 C4 C5 C6 C7 C8 C9 D1 D2 D3 D4 D5 D6"  # 4_
    "D7 D8 D9 E2 E3 E4 E5 E6 E7 E8 E9 AD E0 BD 5F 6D"  # 5_
    "79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96"  # 6_
    "97 98 99 A2 A3 A4 A5 A6 A7 A8 A9 C0 4F D0 A1 07"  # 7_
    "20 21 22 23 24 25 06 17 28 29 2A 2B 2C 09 0A 1B"  # 8_
    "30 31 1A 33 34 35 36 08 38 39 3A 3B 04 14 3E FF"  # 9_
    "41 42 43 44 45 46 47 48 49 4A 51 52 53 54 55 56"  # A_
    "57 58 59 62 63 64 65 66 67 68 69 6A 70 71 72 73"  # B_
    "74 75 76 77 78 80 8A 8B 8C 8D 8E 8F 90 9A 9B 9C"  # C_
    "9D 9E 9F A0 AA AB AC AE AF B0 B1 B2 B3 B4 B5 B6"  # D_
    "B7 B8 B9 BA BB BC BE BF CA CB CC CD CE CF DA DB"  # E_
    "DC DD DE DF E1 EA EB EC ED EE EF FA FB FC FD FE"  # F_
)
EBCDIC_TO_I8 = bytes(I8_TO_EBCDIC.index(b) for b in range(256))

T = (0xA0, 0xBF)  # continuation byte 101xxxxx
ROWS = (  # well-formed I8 sequences, shortest form, surrogates left out
    ((0x00, 0x9F),),                          # U+0000   .. U+009F
    ((0xC5, 0xDF), T),                        # U+00A0   .. U+03FF
    ((0xE1, 0xEF), T, T),                     # U+0400   .. U+3FFF
    ((0xF0, 0xF0), (0xB0, 0xBF), T, T),       # U+4000   .. U+7FFF
    ((0xF1, 0xF1), (0xA0, 0xB5), T, T),       # U+8000   .. U+D7FF
    ((0xF1, 0xF1), (0xB8, 0xBF), T, T),       # U+E000   .. U+FFFF
    ((0xF2, 0xF7), T, T, T),                  # U+10000  .. U+3FFFF
    ((0xF8, 0xF8), (0xA8, 0xBF), T, T, T),    # U+40000  .. U+FFFFF
    ((0xF9, 0xF9), (0xA0, 0xA1), T, T, T),    # U+100000 .. U+10FFFF
)
LEAD_BITS = {1: 0xFF, 2: 0x1F, 3: 0x0F, 4: 0x07, 5: 0x03}
LEAD_MARK = {2: 0xC0, 3: 0xE0, 4: 0xF0, 5: 0xF8}
LIMITS = ((0x9F, 1), (0x3FF, 2), (0x3FFF, 3), (0x3FFFF, 4), (0x3FFFFF, 5))


def value(i8: bytes) -> int:
    """The code point of a well-formed I8 sequence: the lead's bits, then five per continuation."""
    cp = i8[0] & LEAD_BITS[len(i8)]
    for b in i8[1:]:
        cp = cp << 5 | (b & 0x1F)
    return cp


def i8_of(cp: int) -> bytes:
    """UTF-8-Mod: the shortest I8 sequence of *cp* (the caller checks the range)."""
    n = next(k for limit, k in LIMITS if cp <= limit)
    if n == 1:
        return bytes([cp])
    trail = [0xA0 | (cp >> 5 * k) & 0x1F for k in range(n - 2, -1, -1)]
    return bytes([LEAD_MARK[n] | cp >> 5 * (n - 1)] + trail)


def tokens(data: bytes):
    """(kind, start, end, value) of UTF-EBCDIC bytes; one byte for one, so spans hold as they are."""
    return scan(bytes(data).translate(EBCDIC_TO_I8), rows=ROWS, value=value)


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    out = bytearray()
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(NAME, k, cp, "surrogate code points are not scalar values")
        if cp > 0x10FFFF:
            raise unencodable(NAME, k, cp, "beyond U+10FFFF")
        out += i8_of(cp)
    return bytes(out).translate(I8_TO_EBCDIC)
