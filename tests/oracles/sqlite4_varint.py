"""SQLite4 varint oracle (values 0 .. 2**64 - 1 in 1 to 9 bytes, shortest form).

Source: sqlite.org/src4/doc/trunk/www/varint.wiki, "Variable-Length
Integers".  Bytes A0, A1, ... A8; the first byte gives the length:

  Decode                                          Encode (V)
  A0 0..240     V = A0                            V <= 240
  A0 241..248   V = 240 + 256*(A0-241) + A1       V <= 2287: A0 = (V-240)/256 + 241,
                                                             A1 = (V-240)%256
  A0 249        V = 2288 + 256*A1 + A2            V <= 67823: A1 = (V-2288)/256,
                                                              A2 = (V-2288)%256
  A0 250..255   V = A1.. as a big-endian integer  V <= 2**24-1: 250, 3 bytes;
                of 3, 4, 5, 6, 7, 8 bytes         <= 2**32-1: 251, 4; <= 2**40-1: 252, 5;
                                                  <= 2**48-1: 253, 6; <= 2**56-1: 254, 7;
                                                  otherwise 255, 8 bytes

  ("Other information": the largest value of 1..9 bytes is 240, 2287, 67823,
  2**24-1, 2**32-1, 2**40-1, 2**48-1, 2**56-1, 2**64-1.)

DISCREPANCY in the source: the wiki's decode rule for A0 = 249 reads
"2287+256*A1+A2", which contradicts its own encode rule (A1 = (V-2288)/256)
and its table (2 bytes hold up to 2287, so 3 bytes start at 2288); SQLite4's
src/varint.c says 2288 in the same comment and in sqlite4GetVarint64.
2288 is used here, as the token contract of encspec issue 17 says.

Well-formed here (the contract): a complete form from the table holding a
value that no shorter form holds -- shortest form only.  So a 250..255 form
needs at least 67824, 2**24, 2**32, 2**40, 2**48, 2**56 (the contract's
list), and likewise a 241..248 form needs at least 241: F1 00 decodes to
240, which the 1-byte form F0 holds, so F1 00 is not shortest and is
ill-formed (the contract states shortest-only, but lists minimums only for
250..255; this oracle applies the rule to F1 00 too).  249 forms are always
shortest (2288 and up).

Errors (maximal subpart): every byte can start a varint, so there is no
"invalid start byte"; a byte after which no completion can reach the form's
minimum gives an error of the bytes read before it, "invalid continuation
byte" (FA 00 -> error [0, 1): FA 00 xx xx is at most 0xFFFF < 67824; then
00 is the value 0); the data ending inside a form that could still be
well-formed gives an error to the end, "unexpected end of data".

API: ``NAME``, ``tokens``, ``tokens_with_reasons`` (5-tuples),
``encode(values, signature=False)`` (ValueError naming the index for a value
that is negative or above 2**64 - 1), ``BOUNDARIES``.
"""
from ._driver import check_codepoint, unencodable

NAME = "sqlite4-varint"
MAX = 2 ** 64 - 1
# "Other information": the largest value each length holds (1 .. 9 bytes)
LARGEST = (240, 2287, 67823, 2 ** 24 - 1, 2 ** 32 - 1, 2 ** 40 - 1, 2 ** 48 - 1, 2 ** 56 - 1, 2 ** 64 - 1)
# shortest form: a form of n bytes holds at least (largest of n-1 bytes) + 1
SMALLEST = (0,) + tuple(m + 1 for m in LARGEST[:-1])
BOUNDARIES = tuple(sorted({v + d for v in LARGEST for d in (-1, 0, 1) if 0 <= v + d <= MAX}
                          | {241, 495, 496, 2288}))

END = "unexpected end of data"
BAD_CONTINUATION = "invalid continuation byte"


def length(a0: int) -> int:
    """Decode: the first byte gives the length."""
    if a0 <= 240:
        return 1
    if a0 <= 248:
        return 2
    return a0 - 246          # 249 -> 3, 250 -> 4, ..., 255 -> 9


def value(seq: bytes) -> int:
    """Decode, for a complete form."""
    a0 = seq[0]
    if a0 <= 240:
        return a0
    if a0 <= 248:
        return 240 + 256 * (a0 - 241) + seq[1]
    if a0 == 249:
        return 2288 + 256 * seq[1] + seq[2]
    return int.from_bytes(seq[1:], "big")


def tokens_with_reasons(data: bytes) -> list:
    data = bytes(data)
    out = []
    n = len(data)
    pos = 0
    while pos < n:
        size = length(data[pos])
        least = SMALLEST[size - 1]
        k = 1
        while k < size and pos + k < n:
            # can the bytes read so far, with this one, still reach the minimum?
            # the largest completion pads with FF bytes (the value grows with each byte)
            best = value(data[pos:pos + k + 1] + b"\xFF" * (size - k - 1))
            if best < least:
                break
            k += 1
        if k == size:
            out.append(("char", pos, pos + size, value(data[pos:pos + size]), None))
        elif pos + k == n:
            out.append(("error", pos, n, None, END))
        else:
            out.append(("error", pos, pos + k, None, BAD_CONTINUATION))
        pos += k
    return out


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode_value(index: int, v: int) -> bytes:
    """The wiki's Encode algorithm."""
    check_codepoint(NAME, index, v)
    if v > MAX:
        raise unencodable(NAME, index, v, "beyond 2**64 - 1")
    if v <= 240:
        return bytes([v])
    if v <= 2287:
        return bytes([(v - 240) // 256 + 241, (v - 240) % 256])
    if v <= 67823:
        return bytes([249, (v - 2288) // 256, (v - 2288) % 256])
    for a0, size, largest in ((250, 3, 2 ** 24 - 1), (251, 4, 2 ** 32 - 1), (252, 5, 2 ** 40 - 1),
                              (253, 6, 2 ** 48 - 1), (254, 7, 2 ** 56 - 1), (255, 8, 2 ** 64 - 1)):
        if v <= largest:
            return bytes([a0]) + v.to_bytes(size, "big")
    raise AssertionError("unreachable")


def encode(values, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return b"".join(encode_value(k, v) for k, v in enumerate(values))
