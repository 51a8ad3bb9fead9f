"""UTF-32LE oracle (code units of 32 bits, least significant byte first).

Sources: The Unicode Standard, chapter 3 "Conformance":
  * D90 UTF-32 encoding form: each Unicode scalar value is one 32-bit code
    unit of the same value; "UTF-32 code units in the range
    0000D800..0000DFFF are ill-formed.  Any UTF-32 code unit greater than
    0010FFFF is ill-formed."
  * D100 UTF-32LE encoding scheme: units serialised least significant byte
    first; no signature (FF FE 00 00 is the char U+FEFF).

Token rules (the token contract of encspec issue 17; reasons as CPython's
utf-32 decoder gives them): 1 to 3 bytes left -> error to the end,
"truncated data"; a unit D800..DFFF -> error of 4 bytes, "code point in
surrogate code point range(0xd800, 0xe000)"; a unit above 10FFFF -> error
of 4 bytes, "code point not in range(0x110000)"; any other unit -> a char.
Every unit stands alone, so an error is always one unit (or the tail).

API: ``NAME``, ``tokens``, ``tokens_with_reasons`` (5-tuples, the last item
the reason of an error, else None), ``encode(codepoints, signature=False)``;
``scan_utf32`` is shared with utf_32be / utf_32.
"""
from ._driver import check_codepoint, unencodable

NAME = "utf-32le"
ORDER = "little"

TRUNCATED = "truncated data"
SURROGATE = "code point in surrogate code point range(0xd800, 0xe000)"
TOO_BIG = "code point not in range(0x110000)"


def scan_utf32(data: bytes, order: str, pos: int = 0) -> list:
    """5-tuple tokens of UTF-32 ``data[pos:]`` with units in byte ``order``."""
    out = []
    n = len(data)
    while pos < n:
        if n - pos < 4:
            out.append(("error", pos, n, None, TRUNCATED))
            break
        u = int.from_bytes(data[pos:pos + 4], order)
        if 0xD800 <= u <= 0xDFFF:
            out.append(("error", pos, pos + 4, None, SURROGATE))
        elif u > 0x10FFFF:
            out.append(("error", pos, pos + 4, None, TOO_BIG))
        else:
            out.append(("char", pos, pos + 4, u, None))
        pos += 4
    return out


def units_of(codepoints, name: str) -> list:
    """D90: the code units (the scalar values themselves; ValueError naming the index)."""
    for k, cp in enumerate(codepoints):
        check_codepoint(name, k, cp)
        if 0xD800 <= cp <= 0xDFFF:
            raise unencodable(name, k, cp, "surrogate code points are not encodable")
        if cp > 0x10FFFF:
            raise unencodable(name, k, cp, "beyond U+10FFFF")
    return list(codepoints)


def serialise(units, order: str) -> bytes:
    return b"".join(u.to_bytes(4, order) for u in units)


def tokens_with_reasons(data: bytes) -> list:
    return scan_utf32(bytes(data), ORDER)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return serialise(units_of(list(codepoints), NAME), ORDER)
