"""Oracle for UTF-∞-8, written from /work/shared/seeds/utf-inf-8.txt.

Section 3 of the draft (Bishop & Cook, 2009):

* 3.2  below U+80000000: the original 1-to-6-byte UTF-8 (RFC 2279), so
       surrogates are fine and only the shortest form is well-formed;
* 3.3  U+80000000..U+FFFFFFFFF: FE + 6 trailing bytes 80..BF (36 bits);
* 3.4  U+1000000000..U+7FFFFFFFFFFFFFFFFF: FF + 80..9F (5 bits) + 11
       trailing bytes (71 bits);
* 3.5  beyond: FF, then k B4 bytes and k + 1 "Ax" bytes A0..AF holding the
       hex digits of NME = NUD - 18 (NUD = number of hex digits of the code
       point), then ((NUD + 2) // 3) * 2 USV-storage bytes 80..BF, six bits
       each, the value padded on the left with zero nybbles.

Shortest form is the only well-formed one: a form may not hold a value a
shorter form can hold, NUD is exactly the digit count of the value, and
with several Ax bytes the first is not A0 (so their number is minimal).

``tokens`` follows the project's contract: the well-formed sequence at i
if there is one, else an error over the maximal subpart (the longest
prefix that some well-formed sequence starts with, at least one byte).
All forms are prefix-free, so walking forward while the prefix can still
be completed finds both.
"""

NAME = "utf-inf-8"

# (number of bytes, lead marker, first code point of that length), RFC 2279
# and section 3.3.  The length of a lead byte below FE is its count of
# leading one bits.
_SHORT = ((2, 0xC0, 0x80), (3, 0xE0, 0x800), (4, 0xF0, 0x10000),
          (5, 0xF8, 0x200000), (6, 0xFC, 0x4000000), (7, 0xFE, 0x80000000))


def _may_reach(known, known_bits, total_bits, lo, hi):
    """Can a total_bits-bit number whose top known_bits are ``known`` be in [lo, hi]?"""
    free = total_bits - known_bits
    return (known << free) <= hi and lo <= ((known + 1) << free) - 1


def _packed(data, j, acc, bits, slots, lo):
    """Walk the trailing bytes of a bit-packed form.

    ``acc``/``bits`` are the payload bits already taken from the lead
    byte(s) ending just before ``j``; ``slots`` lists (byte lo, byte hi,
    payload bits) for the remaining bytes; the value must be >= ``lo``.
    Returns (end of the longest viable prefix, value or None).
    """
    total = bits + sum(s[2] for s in slots)
    hi = (1 << total) - 1
    if not _may_reach(acc, bits, total, lo, hi):
        return j, None
    for byte_lo, byte_hi, width in slots:
        if j == len(data) or not byte_lo <= data[j] <= byte_hi:
            return j, None
        nxt = acc << width | (data[j] & ((1 << width) - 1))
        if not _may_reach(nxt, bits + width, total, lo, hi):
            return j, None
        acc, bits, j = nxt, bits + width, j + 1
    return j, acc


def _unbounded(data, i):
    """Section 3.5: FF, B4 * k, Ax * (k + 1), USV-storage bytes."""
    n = len(data)
    j = i + 1
    k = 0
    while j < n and data[j] == 0xB4:           # 3.5.2 / 3.5.5
        k, j = k + 1, j + 1
    nme = 0
    for d in range(k + 1):
        if j == n:
            return j, None
        b = data[j]
        if not 0xA0 <= b <= 0xAF or (d == 0 and k > 0 and b == 0xA0):
            # with B4s present the digits have no leading zero (3.5.5:
            # "as many as necessary"), so the first Ax cannot be A0
            return j, None
        nme, j = nme * 16 + (b - 0xA0), j + 1
    nud = nme + 18                             # 3.5.3
    pad = -nud % 3                             # 3.5.7: zero nybbles in front
    nbytes = (nud + pad) // 3 * 2              # == ((NUD + 2) / 3) * 2
    # Only the top (pad + 1) nybbles are constrained: the pad nybbles are
    # zero and the first digit is not (else NUD would be smaller).  With
    # NUD = 18 the value must also exceed the 13-byte range (>= 2**71), so
    # the first digit is 8..F.
    top_bits = 4 * (pad + 1)
    first_lo = 8 if nud == 18 else 1
    acc = 0
    for count in range(1, nbytes + 1):
        if j == n or not 0x80 <= data[j] <= 0xBF:
            return j, None
        acc = acc << 6 | (data[j] & 0x3F)
        known = 6 * count
        if known - 6 < top_bits:               # this byte holds top bits
            top = acc >> max(known - top_bits, 0)
            if not _may_reach(top, min(known, top_bits), top_bits, first_lo, 15):
                return j, None
        j += 1
    return j, acc


def _match(data, i):
    """(end, value): end of the longest viable prefix at i (> i); value if complete."""
    b = data[i]
    if b < 0x80:
        return i + 1, b
    if b < 0xC0:                               # a trailing byte cannot start
        return i + 1, None
    if b < 0xFF:
        for length, marker, first in _SHORT:
            lead_bits = max(7 - length, 0)
            if (b & ~((1 << lead_bits) - 1) & 0xFF) == marker:
                slots = [(0x80, 0xBF, 6)] * (length - 1)
                return _packed(data, i + 1, b & ((1 << lead_bits) - 1),
                               lead_bits, slots, first)
    # FF
    if i + 1 == len(data):
        return i + 1, None
    if 0x80 <= data[i + 1] <= 0x9F:            # 3.4
        slots = [(0x80, 0x9F, 5)] + [(0x80, 0xBF, 6)] * 11
        return _packed(data, i + 1, 0, 0, slots, 1 << 36)
    return _unbounded(data, i)


def tokens(data):
    data = bytes(data)
    out = []
    i = 0
    while i < len(data):
        end, value = _match(data, i)
        out.append(("error" if value is None else "char", i, end, value))
        i = end
    return out


def _cont(cp, count):
    """``count`` trailing bytes 10xxxxxx holding the low 6 * count bits."""
    return [0x80 | (cp >> 6 * (count - 1 - t)) & 0x3F for t in range(count)]


def _encode_one(cp):
    if cp < 0x80:
        return [cp]
    for length, marker, _first in _SHORT:
        lead_bits = max(7 - length, 0)
        if cp < 1 << (lead_bits + 6 * (length - 1)):
            return [marker | cp >> 6 * (length - 1)] + _cont(cp, length - 1)
    if cp < 1 << 71:                            # 3.4
        return [0xFF, 0x80 | cp >> 66] + _cont(cp, 11)
    digits = format(cp, "X")                    # 3.5
    nud = len(digits)
    length_digits = format(nud - 18, "X")
    head = [0xFF] + [0xB4] * (len(length_digits) - 1)
    head += [0xA0 + int(c, 16) for c in length_digits]
    return head + _cont(cp, (nud + 2) // 3 * 2)


def encode(codepoints, signature=False):
    """Encode an iterable of code points (ints of any size >= 0).

    UTF-∞-8 has no signature, so ``signature=True`` is refused.
    """
    if signature:
        raise ValueError(f"{NAME}: the document defines no signature")
    out = bytearray()
    for index, cp in enumerate(codepoints):
        if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
            raise ValueError(f"{NAME}: cannot encode item {index}: {cp!r} is not a code point")
        out += bytes(_encode_one(cp))
    return bytes(out)
