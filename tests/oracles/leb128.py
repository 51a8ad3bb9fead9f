"""Unsigned LEB128 oracle, shortest form only (values 0 .. 2**64 - 1).

Sources:
  * DWARF Debugging Information Format, Version 5, section 7.6 "Variable
    Length Data": an unsigned LEB128 number is its binary value cut into
    7-bit groups, least significant group first; each group is one byte
    whose high-order bit is set when more bytes follow and clear in the
    last byte (the section's table of unsigned LEB128 examples: 2 -> 02,
    127 -> 7F, 128 -> 80 01, 129 -> 81 01, 130 -> 82 01, 12857 -> B9 64).
    Its encoding algorithm stops when the remaining value is 0, so its
    output never ends in a redundant zero group.
  * Protocol Buffers, "Encoding", section "Base 128 Varints": the same
    layout (a continuation bit, then 7-bit groups least significant first)
    for unsigned 64-bit values "using anywhere between one and ten bytes"
    (ceil(64 / 7) = 10; 150 -> 96 01).

Well-formed here (token contract of encspec issue 17): 1 to 10 bytes, all
but the last with the high bit set; shortest form only, i.e. a final byte
00 after at least one continuation byte is ill-formed (the value would fit
in fewer bytes); a 10th byte carries bit 63 only, so it must be exactly 01
(00 would not be shortest, 02..7F would exceed 64 bits, 80..FF would need
an 11th byte).

Errors (maximal subpart, counted in bytes): every byte can start a varint
(00..7F are 1-byte values), so there is no "invalid start byte"; a byte
that cannot continue the sequence gives an error of the bytes read before
it, "invalid continuation byte" (80 00 -> error [0, 1), then 00 is the
value 0); the data ending inside a varint gives an error to the end,
"unexpected end of data".

API: ``NAME``, ``tokens(data)`` (char tokens carry the integer value),
``tokens_with_reasons(data)`` (5-tuples, the reason of an error last),
``encode(values, signature=False)`` (ValueError naming the index for a
value that is negative or above 2**64 - 1), ``BOUNDARIES`` (values where
the length changes).  ``scan_leb128`` is shared with ``leb128_overlong``.
"""
from ._driver import check_codepoint, unencodable

NAME = "leb128"
MAX = 2 ** 64 - 1
MAX_BYTES = 10
BOUNDARIES = tuple(sorted({0, 1, MAX} | {2 ** (7 * k) + d for k in range(1, 10) for d in (-1, 0, 1)}
                          | {2 ** 63 - 1, 2 ** 63}))

END = "unexpected end of data"
BAD_CONTINUATION = "invalid continuation byte"


def scan_leb128(data: bytes, shortest: bool) -> list:
    data = bytes(data)
    out = []
    n = len(data)
    pos = 0
    while pos < n:
        value = 0
        k = 0                       # index of the byte being read within the varint
        while True:
            if pos + k >= n:
                out.append(("error", pos, n, None, END))
                pos = n
                break
            b = data[pos + k]
            last = not b & 0x80
            if k == MAX_BYTES - 1:  # the 10th byte holds bit 63 and nothing above
                ok = last and b in ((0x01,) if shortest else (0x00, 0x01))
            else:
                ok = not (shortest and last and k > 0 and b == 0x00)
            if not ok:
                out.append(("error", pos, pos + k, None, BAD_CONTINUATION))
                pos += k
                break
            value |= (b & 0x7F) << (7 * k)
            k += 1
            if last:
                out.append(("char", pos, pos + k, value, None))
                pos += k
                break
    return out


def encode_value(name: str, index: int, v: int) -> bytes:
    """DWARF 5 section 7.6 / protobuf: 7-bit groups, least significant first."""
    check_codepoint(name, index, v)
    if v > MAX:
        raise unencodable(name, index, v, "beyond 2**64 - 1")
    out = bytearray()
    while True:
        group = v & 0x7F
        v >>= 7
        if v:
            out.append(0x80 | group)
        else:
            out.append(group)
            return bytes(out)


def tokens_with_reasons(data: bytes) -> list:
    return scan_leb128(data, shortest=True)


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(values, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return b"".join(encode_value(NAME, k, v) for k, v in enumerate(values))
