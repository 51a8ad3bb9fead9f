"""UTF-16LE oracle (code units of 16 bits, least significant byte first).

Sources: The Unicode Standard, chapter 3 "Conformance":
  * D91 UTF-16 encoding form: a code point U+0000..U+FFFF other than a
    surrogate is one 16-bit code unit of the same value; a supplementary
    code point U+10000..U+10FFFF is a surrogate pair, a lead (high)
    surrogate unit D800..DBFF followed by a trail (low) surrogate unit
    DC00..DFFF (Table 3-5, UTF-16 Bit Distribution: 000uuuuuxxxxxxyyyyyyyyyy
    -> 110110wwwwxxxxxx 110111yyyyyyyyyy with wwww = uuuuu - 1).  A lone
    surrogate unit is ill-formed (D91: "Because surrogate code points are
    not Unicode scalar values, isolated UTF-16 code units in the range
    D800..DFFF are ill-formed").
  * D97 UTF-16LE encoding scheme: the units serialised least significant
    byte first; no signature (a leading FF FE is U+FEFF, "ZERO WIDTH
    NO-BREAK SPACE").
  * 3.9 "U+FFFD Substitution of Maximal Subparts", counted in whole units
    (the token contract of encspec issue 17).

Token rules (the contract, reasons as CPython's utf-16 decoder gives them):
  * fewer than 2 bytes left: error to the end, "truncated data";
  * a non-surrogate unit: a char of 2 bytes;
  * a lead unit followed by a trail unit: one char of 4 bytes;
  * a trail unit alone: error of 2 bytes, "illegal encoding";
  * a lead unit followed by a complete non-trail unit: error of the lead
    unit only, "illegal UTF-16 surrogate";
  * a lead unit with nothing, or only a partial unit, after it: error to
    the end of the data, "unexpected end of data" (the partial unit is never
    judged: UTF-16BE D8 00 41 is one error of 3 bytes).

API (as every oracle): ``NAME``, ``tokens(data)`` -> list of
``(kind, start, end, value)``, ``encode(codepoints, signature=False)``.
Also ``tokens_with_reasons(data)`` -> list of ``(kind, start, end, value,
reason)`` with reason None except for errors.  ``scan_utf16`` is the loop
shared with utf_16be / utf_16 (they only change the byte order).
"""
from ._driver import check_codepoint, unencodable

NAME = "utf-16le"
ORDER = "little"

TRUNCATED = "truncated data"
END = "unexpected end of data"
LONE_TRAIL = "illegal encoding"
LONE_LEAD = "illegal UTF-16 surrogate"


def scan_utf16(data: bytes, order: str, pos: int = 0) -> list:
    """5-tuple tokens of UTF-16 ``data[pos:]`` with units in byte ``order``."""
    out = []
    n = len(data)
    while pos < n:
        if n - pos < 2:
            out.append(("error", pos, n, None, TRUNCATED))
            break
        u = int.from_bytes(data[pos:pos + 2], order)
        if not 0xD800 <= u <= 0xDFFF:                      # D91: one unit
            out.append(("char", pos, pos + 2, u, None))
            pos += 2
        elif u >= 0xDC00:                                  # isolated trail unit
            out.append(("error", pos, pos + 2, None, LONE_TRAIL))
            pos += 2
        elif n - pos < 4:                                  # lead unit, data ends
            out.append(("error", pos, n, None, END))
            pos = n
        else:
            v = int.from_bytes(data[pos + 2:pos + 4], order)
            if 0xDC00 <= v <= 0xDFFF:                      # surrogate pair
                cp = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00)
                out.append(("char", pos, pos + 4, cp, None))
                pos += 4
            else:                                          # lead, then not a trail
                out.append(("error", pos, pos + 2, None, LONE_LEAD))
                pos += 2
    return out


def units_of(codepoints, name: str) -> list:
    """D91: the UTF-16 code units of the code points (ValueError naming the index)."""
    units = []
    for k, cp in enumerate(codepoints):
        check_codepoint(name, k, cp)
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(name, k, cp, "surrogate code points are not encodable")
        if cp > 0x10FFFF:
            raise unencodable(name, k, cp, "beyond U+10FFFF")
        if cp <= 0xFFFF:
            units.append(cp)
        else:                                              # Table 3-5
            units.append(((cp - 0x10000) >> 10) + 0xD800)
            units.append(((cp - 0x10000) & 0x3FF) + 0xDC00)
    return units


def serialise(units, order: str) -> bytes:
    return b"".join(u.to_bytes(2, order) for u in units)


def tokens_with_reasons(data: bytes) -> list:
    return scan_utf16(bytes(data), ORDER)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return serialise(units_of(codepoints, NAME), ORDER)
