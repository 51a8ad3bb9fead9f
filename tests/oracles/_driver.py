"""Shared scanning loop for the oracles (the project's token contract).

Each oracle module writes out its own rules: an explicit table of the
well-formed byte sequences of its encoding (one *row* per pattern, a row
being a tuple of inclusive ``(lo, hi)`` byte ranges, one per byte position,
in the style of Unicode Table 3-7 / WTF-8 Table 3), its own arithmetic for
the value of a matched sequence, and optionally a signature, ill-formed
patterns and a reserved-run rule.  This module only matches rows against
bytes and walks the input:

1. signature (only at offset 0, only if complete);
2. longest match among the well-formed rows (and ill-formed rows, which
   produce an ``error`` token of their full length);
3. reserved run (the module's callable decides);
4. otherwise an error covering the maximal subpart: the longest prefix
   that matches the start of some well-formed row, at least one byte.
"""

Token = tuple  # (kind, start, end, value)


def matched(data: bytes, i: int, row) -> int:
    """How many bytes of ``data[i:]`` match the leading ranges of ``row``."""
    k = 0
    while k < len(row) and i + k < len(data):
        lo, hi = row[k]
        if not lo <= data[i + k] <= hi:
            break
        k += 1
    return k


def scan(data, *, rows, value, signature=b"", ill_formed=(), reserved=None):
    """Tokenize ``data``.

    rows       -- well-formed patterns (tuples of byte ranges)
    value      -- callable(bytes) -> code point, for a matched well-formed row
    signature  -- bytes recognised only at offset 0 (b"" for none)
    ill_formed -- patterns that, when they are the longest match, are errors
    reserved   -- callable(data, i) -> end or None (reserved-run rule)
    """
    data = bytes(data)
    n = len(data)
    out = []
    i = 0
    if signature and data.startswith(signature):
        out.append(("signature", 0, len(signature), None))
        i = len(signature)
    while i < n:
        best_len, best_bad = 0, False
        for row in rows:
            if len(row) > best_len and matched(data, i, row) == len(row):
                best_len, best_bad = len(row), False
        for row in ill_formed:
            if len(row) > best_len and matched(data, i, row) == len(row):
                best_len, best_bad = len(row), True
        if best_len:
            j = i + best_len
            if best_bad:
                out.append(("error", i, j, None))
            else:
                out.append(("char", i, j, value(data[i:j])))
            i = j
            continue
        end = reserved(data, i) if reserved is not None else None
        if end is not None:
            out.append(("reserved", i, end, None))
            i = end
            continue
        j = i + max(1, max(matched(data, i, row) for row in rows))
        out.append(("error", i, j, None))
        i = j
    return out


def check_codepoint(name: str, index: int, cp) -> int:
    """Reject non-integers and negative values with the standard message."""
    if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
        raise ValueError(f"{name}: cannot encode item {index}: {cp!r} is not a code point")
    return cp


def unencodable(name: str, index: int, cp: int, why: str) -> ValueError:
    return ValueError(f"{name}: cannot encode code point U+{cp:04X} at index {index}: {why}")
