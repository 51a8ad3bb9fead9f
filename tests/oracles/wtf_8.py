"""WTF-8 oracle.

Source: wtf-8.txt.  Section 5 (generalized UTF-8, Table 3: one to four
bytes, U+0000..U+10FFFF, surrogate code points allowed), section 6 (a
surrogate pair byte sequence -- lead surrogate byte sequence ED A0..AF 80..BF
immediately followed by trail surrogate byte sequence ED B0..BF 80..BF,
section 3.3 Table 1 -- is ill-formed), 6.1 encoding, 6.2 decoding, 6.3
conversions to/from potentially ill-formed UTF-16 (4.1/4.2), 6.4
conversions to UTF-8, 6.5 concatenation.

Project decision: the whole 6-byte surrogate pair byte sequence is ONE error
token; if the six bytes are not all present the lead surrogate is a char.
No signature: ``encode(..., signature=True)`` raises ValueError.

The seed's 6.3 lists no steps (only the notes survived); ``from_wtf16`` is
4.2 decoding followed by 6.1 encoding and ``to_wtf16`` is 6.2 decoding
followed by 4.1 encoding.  6.2/6.3/6.4 are only defined for well-formed
WTF-8 ("deliberately not defined for arbitrary byte sequences"), so
``to_wtf16`` and ``to_utf8`` raise ValueError on ill-formed input.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "wtf-8"

C = (0x80, 0xBF)
ROWS = (  # Table 3. Well-formed byte sequences representing a single code point
    ((0x00, 0x7F),),                     # U+0000   .. U+007F
    ((0xC2, 0xDF), C),                   # U+0080   .. U+07FF
    ((0xE0, 0xE0), (0xA0, 0xBF), C),     # U+0800   .. U+0FFF
    ((0xE1, 0xEF), C, C),                # U+1000   .. U+FFFF (surrogates too)
    ((0xF0, 0xF0), (0x90, 0xBF), C, C),  # U+10000  .. U+3FFFF
    ((0xF1, 0xF3), C, C, C),             # U+40000  .. U+FFFFF
    ((0xF4, 0xF4), (0x80, 0x8F), C, C),  # U+100000 .. U+10FFFF
)
LEAD_SURROGATE = ((0xED, 0xED), (0xA0, 0xAF), C)   # Table 1
TRAIL_SURROGATE = ((0xED, 0xED), (0xB0, 0xBF), C)  # Table 1
ILL_FORMED = (LEAD_SURROGATE + TRAIL_SURROGATE,)   # surrogate pair byte sequence


def value(seq: bytes) -> int:
    """6.2 Decoding."""
    b = seq[0]
    if b <= 0x7F:
        return b
    if 0xC2 <= b <= 0xDF:
        return ((b & 0x1F) << 6) + (seq[1] & 0x3F)
    if 0xE0 <= b <= 0xEF:
        return ((b & 0x0F) << 12) + ((seq[1] & 0x3F) << 6) + (seq[2] & 0x3F)
    return (((b & 0x07) << 18) + ((seq[1] & 0x3F) << 12)
            + ((seq[2] & 0x3F) << 6) + (seq[3] & 0x3F))


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value, ill_formed=ILL_FORMED)


def _encode_cp(p: int) -> bytes:
    """6.1 step 2.2."""
    if p <= 0x7F:
        return bytes([p])
    if p <= 0x7FF:
        return bytes([0xC0 | (p >> 6), 0x80 | (p & 0x3F)])
    if p <= 0xFFFF:
        return bytes([0xE0 | (p >> 12), 0x80 | ((p >> 6) & 0x3F), 0x80 | (p & 0x3F)])
    return bytes([0xF0 | (p >> 18), 0x80 | ((p >> 12) & 0x3F),
                  0x80 | ((p >> 6) & 0x3F), 0x80 | (p & 0x3F)])


def encode(codepoints, signature: bool = False) -> bytes:
    """6.1 Encoding: a lead surrogate followed by a trail surrogate is combined."""
    if signature:
        raise ValueError(f"{NAME} has no signature")
    cps = list(codepoints)
    for k, cp in enumerate(cps):
        check_codepoint(NAME, k, cp)
        if cp > 0x10FFFF:
            raise unencodable(NAME, k, cp, "beyond U+10FFFF")
    out = bytearray()
    k = 0
    while k < len(cps):
        p = cps[k]
        if 0xD800 <= p <= 0xDBFF and k + 1 < len(cps) and 0xDC00 <= cps[k + 1] <= 0xDFFF:
            p = 0x10000 + ((p - 0xD800) << 10) + (cps[k + 1] - 0xDC00)
            k += 1  # consume the next code point
        out += _encode_cp(p)
        k += 1
    return bytes(out)


def _decode_well_formed(data: bytes) -> list:
    cps = []
    for kind, start, _end, cp in tokens(data):
        if kind != "char":
            raise ValueError(f"{NAME}: input is not well-formed WTF-8 at byte {start}")
        cps.append(cp)
    return cps


def from_wtf16(units) -> bytes:
    """6.3: potentially ill-formed UTF-16 -> WTF-8 (4.2 decode, 6.1 encode)."""
    units = list(units)
    for k, u in enumerate(units):
        if isinstance(u, bool) or not isinstance(u, int) or not 0 <= u <= 0xFFFF:
            raise ValueError(f"{NAME}: item {k} ({u!r}) is not a 16-bit code unit")
    cps = []
    k = 0
    while k < len(units):  # 4.2 Decoding
        u = units[k]
        if 0xD800 <= u <= 0xDBFF and k + 1 < len(units) and 0xDC00 <= units[k + 1] <= 0xDFFF:
            cps.append(0x10000 + ((u - 0xD800) << 10) + (units[k + 1] - 0xDC00))
            k += 1
        else:
            cps.append(u)
        k += 1
    return encode(cps)


def to_wtf16(data: bytes) -> list:
    """6.3: WTF-8 -> potentially ill-formed UTF-16 (6.2 decode, 4.1 encode)."""
    result = []
    for p in _decode_well_formed(data):
        if p >= 0x10000:
            result.append(((p - 0x10000) >> 10) + 0xD800)
            result.append(((p - 0x10000) & 0x3FF) + 0xDC00)
        else:
            result.append(p)
    return result


def to_utf8(data: bytes, strict: bool = False) -> bytes:
    """6.4: lossy (each surrogate byte sequence -> EF BF BD, in place) or strict."""
    data = bytes(data)
    out = bytearray(data)
    for kind, start, end, cp in tokens(data):
        if kind != "char":
            raise ValueError(f"{NAME}: input is not well-formed WTF-8 at byte {start}")
        if 0xD800 <= cp <= 0xDFFF:
            if strict:
                raise ValueError(f"{NAME}: surrogate byte sequence at byte {start}"
                                 f" (U+{cp:04X}); strict conversion to UTF-8 fails")
            out[start:end] = b"\xEF\xBF\xBD"
    return bytes(out)


def _is(seq: bytes, pattern) -> bool:
    return len(seq) == len(pattern) and all(lo <= b <= hi for b, (lo, hi) in zip(seq, pattern))


def concat(a: bytes, b: bytes) -> bytes:
    """6.5 Concatenating WTF-8 strings."""
    a, b = bytes(a), bytes(b)
    if _is(a[-3:], LEAD_SURROGATE) and _is(b[:3], TRAIL_SURROGATE):
        lead, trail = value(a[-3:]), value(b[:3])
        supplementary = _encode_cp(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00))
        return a[:-3] + supplementary + b[3:]
    return a + b
