"""Git pack OFS_DELTA offset oracle (a bijective base-128 varint, values 0 .. 2**64 - 1).

Source: git, Documentation/technical/pack-format.txt (gitformat-pack),
"offset encoding": "n bytes with MSB set in all but the last one.  The
offset is then the number constructed by concatenating the lower 7 bit of
each byte, and for n >= 2 adding 2^7 + 2^14 + ... + 2^(7*(n-1)) to the
result."  The groups are most significant first (big-endian).  Because of
the added sum, every value has exactly one encoding (1 byte: 0..127,
2 bytes: 128..16511, 3 bytes: 16512..2113663, ...) -- there are no overlong
forms.  Encoding follows git's writer (builtin/pack-objects.c):
    dheader[pos] = ofs & 127;  while (ofs >>= 7) dheader[--pos] = 128 | (--ofs & 127);

Well-formed here (token contract of encspec issue 17): a complete code
whose value is at most 2**64 - 1.  9 bytes hold at most
2**63 + 2**56 + ... + 2**7 - 1 < 2**64, so only some 10-byte codes are
well-formed and no 11-byte code is.

Errors (maximal subpart): every byte can start a code, so there is no
"invalid start byte"; a byte after which every completion exceeds
2**64 - 1 (longer codes are larger, so the smallest completion is the
prefix followed by one 00 byte) gives an error of the bytes read before it,
"invalid continuation byte"; the data ending inside a code gives an error
to the end, "unexpected end of data".

API: ``NAME``, ``tokens``, ``tokens_with_reasons`` (5-tuples),
``encode(values, signature=False)``, ``BOUNDARIES``.
"""
from ._driver import check_codepoint, unencodable

NAME = "git-offset-varint"
MAX = 2 ** 64 - 1

END = "unexpected end of data"
BAD_CONTINUATION = "invalid continuation byte"


def first_of_length(n: int) -> int:
    """The smallest value of an n-byte code: 2^7 + 2^14 + ... + 2^(7*(n-1))."""
    return sum(2 ** (7 * j) for j in range(1, n))


BOUNDARIES = tuple(sorted({v + d for v in [first_of_length(n) for n in range(1, 11)] + [MAX]
                           for d in (-1, 0, 1) if 0 <= v + d <= MAX}))


def value_of_groups(groups) -> int:
    """pack-format.txt: concatenate the 7-bit groups, then add the sum for n >= 2."""
    v = 0
    for g in groups:
        v = v << 7 | g
    return v + first_of_length(len(groups))


def tokens_with_reasons(data: bytes) -> list:
    data = bytes(data)
    out = []
    n = len(data)
    pos = 0
    while pos < n:
        groups = []
        k = 0
        while True:
            if pos + k >= n:
                out.append(("error", pos, n, None, END))
                pos = n
                break
            b = data[pos + k]
            more = bool(b & 0x80)
            smallest = value_of_groups(groups + [b & 0x7F] + ([0] if more else []))
            if smallest > MAX:
                out.append(("error", pos, pos + k, None, BAD_CONTINUATION))
                pos += k
                break
            groups.append(b & 0x7F)
            k += 1
            if not more:
                out.append(("char", pos, pos + k, value_of_groups(groups), None))
                pos += k
                break
    return out


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode_value(index: int, ofs: int) -> bytes:
    """git's writer (pack-objects): last byte first, subtracting 1 before each earlier group."""
    check_codepoint(NAME, index, ofs)
    if ofs > MAX:
        raise unencodable(NAME, index, ofs, "beyond 2**64 - 1")
    out = [ofs & 127]
    ofs >>= 7
    while ofs:
        ofs -= 1
        out.append(128 | (ofs & 127))
        ofs >>= 7
    return bytes(reversed(out))


def encode(values, signature: bool = False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    return b"".join(encode_value(k, v) for k, v in enumerate(values))
