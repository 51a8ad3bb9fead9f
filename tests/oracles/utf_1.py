"""Oracle for UTF-1, written from /work/shared/seeds/utf-8-encyclopedia-article.txt
(section "History", table "UTF-1", derived from the ISO 10646 draft annex).

    bytes  code points            byte 1   following bytes
    1      U+0000..U+009F         00..9F
    2      U+00A0..U+00FF         A0       A0..FF (equal to the code point)
    2      U+0100..U+4015         A1..F5   one trail
    3      U+4016..U+38E2D        F6..FB   two trails
    5      U+38E2E..U+7FFFFFFF    FC..FF   four trails

Trail bytes are the 190 symbols 21..7E, A0..FF, read as base-190 digits
(digit = position in that list).  The annex arithmetic, e.g. for 3 bytes:
y = cp - 0x4016, lead = F6 + y // 190**2, then T(y // 190 % 190), T(y % 190)
with T(z) = z + 0x21 if z < 94 else z + 0x42.

Code points above U+7FFFFFFF are not encodable and their byte sequences are
ill-formed: so the 5-byte form only reaches lead FD (U+7FFFFFFF is
FD xx xx xx xx), and FE, FF never start a well-formed sequence although the
table lists them.

``tokens``: the well-formed sequence at i if any, else an error over the
maximal subpart.  The lead byte fixes the length, so the forms are
prefix-free and walking forward while the prefix is viable finds both.
Trail bytes overlap ASCII (21..7E) and lead bytes (A0..FF): UTF-1 is not
self-synchronizing, but the tokens are still unique.
"""

NAME = "utf-1"
CAP = 0x7FFFFFFF

# (first lead, last lead, number of trails, first code point)
_MULTI = ((0xA1, 0xF5, 1, 0x100), (0xF6, 0xFB, 2, 0x4016), (0xFC, 0xFF, 4, 0x38E2E))


def _t(z):
    """Base-190 digit -> trail byte."""
    return z + 0x21 if z < 94 else z + 0x42


def _u(b):
    """Trail byte -> base-190 digit, or None if ``b`` is not a trail byte."""
    if 0x21 <= b <= 0x7E:
        return b - 0x21
    if 0xA0 <= b <= 0xFF:
        return b - 0x42
    return None


def _match(data, i):
    """(end, value): end of the longest viable prefix at i (> i); value if complete."""
    b = data[i]
    if b <= 0x9F:
        return i + 1, b
    if b == 0xA0:
        if i + 1 < len(data) and data[i + 1] >= 0xA0:
            return i + 2, data[i + 1]
        return i + 1, None
    for first, last, trails, base in _MULTI:  # noqa: B007 - the row is read after the break
        if first <= b <= last:
            break
    y = b - first                   # digits so far, most significant first
    left = trails
    if base + y * 190 ** left > CAP:            # lead alone already too big
        return i + 1, None
    j = i + 1
    while left:
        d = _u(data[j]) if j < len(data) else None
        if d is None or base + (y * 190 + d) * 190 ** (left - 1) > CAP:
            return j, None
        y, left, j = y * 190 + d, left - 1, j + 1
    return j, base + y


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
    if cp <= 0x9F:
        return [cp]
    if cp <= 0xFF:
        return [0xA0, cp]
    for first, _last, trails, base in reversed(_MULTI):
        if cp >= base:
            y = cp - base
            return [first + y // 190 ** trails] + [
                _t(y // 190 ** k % 190) for k in range(trails - 1, -1, -1)]
    raise AssertionError("unreachable")


def encode(codepoints, signature=False):
    """Encode an iterable of code points U+0000..U+7FFFFFFF.

    UTF-1 has no signature, so ``signature=True`` is refused.
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
