"""Corrected UTF-8 oracle.

Source: corrected-utf-8.txt (whole document).  Every byte pattern
0xxxxxxx, 110xxxxx 10xxxxxx, ..., 1111110x 10xxxxxx x5 is the unique
encoding of one code point: code point = raw bits + offset, offsets from
"Putting it all together":

    00 ... 7F                          0          U+0000     .. U+007F
    C0 80 ... DF BF                    160        U+00A0     .. U+089F
    E0 80 80 ... EC BD 9F              2 208      U+08A0     .. U+D7FF
    EC BD A0 ... EF BF BF              4 256      U+E000     .. U+1109F
    F0 80 80 80 ... F7 BF BF BF        69 792     U+110A0    .. U+21109F
    F8 80 80 80 80 ... FB BF BF BF BF  2 166 944  U+2110A0   .. U+421109F
    FC 80 x5 ... FD BF x5              69 275 808 U+42110A0  .. U+8421109F

C1 controls U+0080..U+009F and surrogates U+D800..U+DFFF are skipped, so
they cannot be encoded.  "Removing the artificial upper limit": FE and FF
are reserved and "extending until the next recognized lead byte": a
``reserved`` token is FE or FF plus all following 80..BF bytes.  The magic
number EF B7 9D ED B2 AE 00 0A at offset 0 is the ``signature``; elsewhere
it is U+10E7D U+ED4E U+0000 U+000A.  ``encode(..., signature=True)``
prepends the magic number.

Decision: the document rule "U+0000 MUST NOT appear ... except as part of
the magic number" (and the SHOULD rules on other controls) are document
rules, not byte-sequence rules; ``tokens`` decodes 00 as U+0000 and
``encode`` accepts U+0000.
"""
from ._driver import check_codepoint, scan, unencodable

NAME = "corrected-utf-8"
SIGNATURE = bytes.fromhex("EF B7 9D ED B2 AE 00 0A")

C = (0x80, 0xBF)  # continuation byte 10xxxxxx
ROWS = (
    ((0x00, 0x7F),),
    ((0xC0, 0xDF), C),
    ((0xE0, 0xEF), C, C),
    ((0xF0, 0xF7), C, C, C),
    ((0xF8, 0xFB), C, C, C, C),
    ((0xFC, 0xFD), C, C, C, C, C),
)
SPLIT_3 = bytes.fromhex("EC BD A0")  # first 3-byte sequence with offset 4256
LEAD = {1: 0x00, 2: 0xC0, 3: 0xE0, 4: 0xF0, 5: 0xF8, 6: 0xFC}
LEAD_MASK = {1: 0x7F, 2: 0x1F, 3: 0x0F, 4: 0x07, 5: 0x03, 6: 0x01}


def raw_bits(seq: bytes) -> int:
    """The x bits of the pattern, lead byte first."""
    raw = seq[0] & LEAD_MASK[len(seq)]
    for b in seq[1:]:
        raw = raw << 6 | (b & 0x3F)
    return raw


def offset(seq: bytes) -> int:
    n = len(seq)
    if n == 1:
        return 0
    if n == 2:
        return 160
    if n == 3:
        return 2208 if seq < SPLIT_3 else 4256
    if n == 4:
        return 69792
    if n == 5:
        return 2166944
    return 69275808


def value(seq: bytes) -> int:
    return raw_bits(seq) + offset(seq)


def reserved(data: bytes, i: int):
    """FE or FF plus every following continuation byte 80..BF."""
    if data[i] not in (0xFE, 0xFF):
        return None
    j = i + 1
    while j < len(data) and 0x80 <= data[j] <= 0xBF:
        j += 1
    return j


def tokens(data: bytes):
    return scan(data, rows=ROWS, value=value, signature=SIGNATURE, reserved=reserved)


def _pack(raw: int, n: int) -> bytes:
    tail = [0x80 | (raw >> 6 * k) & 0x3F for k in range(n - 2, -1, -1)]
    return bytes([LEAD[n] | raw >> 6 * (n - 1)] + tail)


def encode_one(cp: int):
    """(bytes) for an encodable code point, else None."""
    if cp <= 0x7F:
        return bytes([cp])
    if cp <= 0x9F:
        return None                      # C1 controls are skipped
    if cp <= 0x89F:
        return _pack(cp - 160, 2)
    if cp <= 0xD7FF:
        return _pack(cp - 2208, 3)
    if cp <= 0xDFFF:
        return None                      # surrogates are skipped
    if cp <= 0x1109F:
        return _pack(cp - 4256, 3)
    if cp <= 0x21109F:
        return _pack(cp - 69792, 4)
    if cp <= 0x421109F:
        return _pack(cp - 2166944, 5)
    if cp <= 0x8421109F:
        return _pack(cp - 69275808, 6)
    return None


def encode(codepoints, signature: bool = False) -> bytes:
    out = bytearray(SIGNATURE if signature else b"")
    for k, cp in enumerate(codepoints):
        check_codepoint(NAME, k, cp)
        seq = encode_one(cp)
        if seq is None:
            why = ("C1 controls are not encoded" if 0x80 <= cp <= 0x9F else
                   "surrogates are not encoded" if 0xD800 <= cp <= 0xDFFF else
                   "beyond U+8421109F")
            raise unencodable(NAME, k, cp, why)
        out += seq
    return bytes(out)
