"""Oracle for the 1992 FSS-UTF proposal (Prosser), written from
/work/shared/seeds/utf-8-encyclopedia-article.txt (section "History",
table "FSS-UTF proposal (1992)").

    bytes  code points             pattern
    1      U+0000..U+007F          0xxxxxxx
    2      U+0080..U+207F          10xxxxxx 1xxxxxxx
    3      U+2080..U+8207F         110xxxxx 1xxxxxxx 1xxxxxxx
    4      U+82080..U+208207F      1110xxxx 1xxxxxxx * 3
    5      U+2082080..U+7FFFFFFF   11110xxx 1xxxxxxx * 4

The x bits (lead byte's first) form a raw number; code point = raw + the
first code point of the row (a "bias": each length starts where the
previous one ended), so every byte sequence of a row encodes exactly one
code point.  The 5-byte row is capped at U+7FFFFFFF; longer raw values are
ill-formed.  Lead bytes F8..FF appear in no row.

Continuation bytes 80..FF overlap the lead bytes, so the encoding is not
self-synchronizing; ``tokens`` still follows the project's contract (the
well-formed sequence at i, else an error over the maximal subpart).  The
lead byte fixes the length, so forms are prefix-free.
"""

NAME = "fss-utf-1992"
CAP = 0x7FFFFFFF

# (lead marker, payload bits in the lead, continuation bytes, first code point)
_ROWS = ((0x80, 6, 1, 0x80), (0xC0, 5, 2, 0x2080),
         (0xE0, 4, 3, 0x82080), (0xF0, 3, 4, 0x2082080))


def _match(data, i):
    """(end, value): end of the longest viable prefix at i (> i); value if complete."""
    b = data[i]
    if b < 0x80:
        return i + 1, b
    for marker, bits, conts, base in _ROWS:  # noqa: B007 - the row is read after the break
        if b >> bits == marker >> bits:
            break
    else:                                       # F8..FF
        return i + 1, None
    raw = b & ((1 << bits) - 1)
    if base + (raw << 7 * conts) > CAP:         # smallest completion too big
        return i + 1, None
    j = i + 1
    for left in range(conts - 1, -1, -1):
        if j == len(data) or data[j] < 0x80:
            return j, None
        nxt = raw << 7 | (data[j] & 0x7F)
        if base + (nxt << 7 * left) > CAP:
            return j, None
        raw, j = nxt, j + 1
    return j, base + raw


def tokens(data):
    data = bytes(data)
    out = []
    i = 0
    while i < len(data):
        end, value = _match(data, i)
        out.append(("error" if value is None else "char", i, end, value))
        i = end
    return out


def _encode_one(cp):
    if cp < 0x80:
        return [cp]
    for marker, _bits, conts, base in reversed(_ROWS):
        if cp >= base:
            raw = cp - base
            return [marker | raw >> 7 * conts] + [
                0x80 | (raw >> 7 * k) & 0x7F for k in range(conts - 1, -1, -1)]
    raise AssertionError("unreachable")


def encode(codepoints, signature=False):
    """Encode an iterable of code points U+0000..U+7FFFFFFF.

    The proposal defines no signature, so ``signature=True`` is refused.
    """
    if signature:
        raise ValueError(f"{NAME}: the document defines no signature")
    out = bytearray()
    for index, cp in enumerate(codepoints):
        if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
            raise ValueError(f"{NAME}: cannot encode item {index}: {cp!r} is not a code point")
        if cp > CAP:
            raise ValueError(f"{NAME}: cannot encode code point U+{cp:04X} at index {index}: "
                             "above U+7FFFFFFF")
        out += bytes(_encode_one(cp))
    return bytes(out)
