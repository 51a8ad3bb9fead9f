"""WTF-16 oracle: potentially ill-formed UTF-16, little-endian.

Source: wtf-8.txt (/work/shared/seeds), section 4 "Potentially ill-formed
UTF-16" ("Any sequence of 16-bit code units has an interpretation as
potentially ill-formed UTF-16"; WTF-16 is its shorter name), 4.1 Encoding
and 4.2 Decoding:
  4.2 step 2.1: a lead surrogate unit followed by a trail surrogate unit is
      consumed with it as the code point
      0x10000 + ((U - 0xD800) << 10) + (next - 0xDC00);
  4.2 step 2.2: otherwise the unit is the code point of its value (a lone
      surrogate unit is the surrogate code point).
  4.1 step 2.1: a supplementary code point is written as the two units
      ((P - 0x10000) >> 10) + 0xD800, ((P - 0x10000) & 0x3FF) + 0xDC00;
  4.1 step 2.2: a BMP code point (surrogates included) is one unit.

Project decisions (token contract of encspec issue 17): units are
serialised little-endian (as in Windows, where the name comes from); no
signature (FF FE is U+FEFF); every whole unit is well-formed, so the only
error is a trailing odd byte, "truncated data".  A lead unit followed only
by an odd byte is a char (the lead surrogate), then the error.

Encoding a surrogate code point PAIR (a lead surrogate code point followed
by a trail one): 4.1's note says "the conversion will be incorrect and the
resulting sequence will not represent the original code points.  This
situation should be considered an error" (the two units would read back,
4.2, as one supplementary code point); this oracle raises for the trail
surrogate (its index).  Code points above U+10FFFF are not encodable.

API: ``NAME``, ``tokens``, ``tokens_with_reasons`` (5-tuples), ``encode``.
"""
from ._driver import check_codepoint, unencodable

NAME = "wtf-16"
ORDER = "little"
TRUNCATED = "truncated data"


def tokens_with_reasons(data: bytes) -> list:
    data = bytes(data)
    out = []
    n = len(data)
    pos = 0
    while pos < n:
        if n - pos < 2:
            out.append(("error", pos, n, None, TRUNCATED))
            break
        u = int.from_bytes(data[pos:pos + 2], ORDER)
        if 0xD800 <= u <= 0xDBFF and n - pos >= 4:
            nxt = int.from_bytes(data[pos + 2:pos + 4], ORDER)
            if 0xDC00 <= nxt <= 0xDFFF:                     # 4.2 step 2.1
                out.append(("char", pos, pos + 4, 0x10000 + ((u - 0xD800) << 10) + (nxt - 0xDC00), None))
                pos += 4
                continue
        out.append(("char", pos, pos + 2, u, None))          # 4.2 step 2.2
        pos += 2
    return out


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = False) -> bytes:
    """4.1 Encoding, then each unit in 2 bytes, least significant first."""
    if signature:
        raise ValueError(f"{NAME} has no signature")
    units = []
    prev = None
    for k, p in enumerate(codepoints):
        check_codepoint(NAME, k, p)
        if p > 0x10FFFF:
            raise unencodable(NAME, k, p, "beyond U+10FFFF")
        if 0xDC00 <= p <= 0xDFFF and prev is not None and 0xD800 <= prev <= 0xDBFF:
            raise unencodable(NAME, k, p, "a surrogate code point pair (4.1: an error)")
        prev = p
        if p >= 0x10000:                                     # 4.1 step 2.1
            units.append(((p - 0x10000) >> 10) + 0xD800)
            units.append(((p - 0x10000) & 0x3FF) + 0xDC00)
        else:                                                # 4.1 step 2.2
            units.append(p)
    return b"".join(u.to_bytes(2, ORDER) for u in units)
