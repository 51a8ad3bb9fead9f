"""Mixed-radix range splitting: a raw-value interval as byte-position ranges.

The generalisation of the classic "UTF-8 ranges" construction (RE2, Rust's
utf8-ranges) to any radices: [lo, hi] becomes a short list of digit-range
sequences whose union spells exactly the numbers lo..hi.
"""
from __future__ import annotations

from math import prod


def split(lo: int, hi: int, radices: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Digit-range sequences (most significant first) covering exactly lo..hi."""
    if not radices:
        return [()] if lo == hi == 0 else []
    weight = prod(radices[1:])
    rest = radices[1:]
    dlo, rlo = divmod(lo, weight)
    dhi, rhi = divmod(hi, weight)
    if dlo == dhi:
        return [((dlo, dlo),) + tail for tail in split(rlo, rhi, rest)]
    out = []
    if rlo != 0:
        out += [((dlo, dlo),) + tail for tail in split(rlo, weight - 1, rest)]
        dlo += 1
    last = []
    if rhi != weight - 1:
        last = [((dhi, dhi),) + tail for tail in split(0, rhi, rest)]
        dhi -= 1
    if dlo <= dhi:
        out.append(((dlo, dhi),) + tuple((0, r - 1) for r in rest))
    return out + last
