"""Mapping tables as the automaton keeps them: compact, typed, ready to emit.

A table form's bytes give a pointer (its digits in mixed radix, as any form's
raw value); the table gives the code point.  Two kinds, after the WHATWG
Encoding Standard's indexes:

* an *index*: one entry per pointer (``values``, dense from ``base``, NONE where
  there is no entry), plus pointers that stand for several code points
  (``overrides``: Big5's four);
* *ranges* (index gb18030 ranges): each entry starts a run, pointer p mapping to
  the entry's code point plus p minus its pointer.  A run ends before the next
  entry's pointer or before the next entry's code point (where that is higher),
  whichever comes first,
  and the last at the code space's end: that is the standard's "greater than
  39419 and less than 189000" and "greater than 1237575" without naming them.

What the encoder writes is decided here, once: ``decode_only`` lists the pointer
ranges it never writes (the spec's ``encode-skip``, and every pointer of a code
point that another pointer writes: the first, or the last for ``encode-last``;
of a sequence of code points, the first).
The encoder's pointer of a code point is then its only pointer not in them.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from ..spec.model import RangeSet, Spec, Table

NONE = -1  # no entry at this pointer


@dataclass(frozen=True)
class MappingTable:
    name: str
    line: int  # the spec line of its 'table' statement
    source: str  # the file, as the spec writes it
    sha256: str  # of that file
    ranges: bool
    base: int  # index: the pointer of values[0]
    values: tuple[int, ...]  # index: the code point per pointer from base, NONE where none
    overrides: tuple[tuple[int, int | tuple[int, ...]], ...]  # (pointer, value) looked up first: an index's pointers of
    # several code points (a tuple), a ranges table's single entries (`with 7457 = U+E7C7`)
    starts: tuple[int, ...]  # ranges: the first pointer of each run
    firsts: tuple[int, ...]  # ranges: its code point
    lasts: tuple[int, ...]  # ranges: its last pointer
    decode_only: tuple[tuple[int, int], ...]  # pointer ranges the encoder never writes

    def lookup(self, pointer: int) -> None | int | tuple[int, ...]:
        """The code point (or code points) of *pointer*, None if it has none."""
        for p, value in self.overrides:
            if p == pointer:
                return value
        if self.ranges:
            k = bisect_right(self.starts, pointer) - 1
            if k < 0 or pointer > self.lasts[k]:
                return None
            return self.firsts[k] + pointer - self.starts[k]
        k = pointer - self.base
        if 0 <= k < len(self.values) and self.values[k] != NONE:
            return self.values[k]
        return None

    def entries(self):
        """(pointer, code point) of every single-code-point entry, in pointer order
        (for ranges tables: runs, as (first pointer, last pointer, first code point))."""
        if self.ranges:
            return tuple(zip(self.starts, self.lasts, self.firsts))
        return tuple((self.base + k, v) for k, v in enumerate(self.values) if v != NONE)

    @property
    def max_code_point(self) -> int:
        """The highest code point an entry gives."""
        got = [max(v) if isinstance(v, tuple) else v for _, v in self.overrides]
        if self.ranges:
            got += [f + b - a for a, b, f in zip(self.starts, self.lasts, self.firsts)]
        else:
            got.append(max(self.values, default=NONE))
        return max(got, default=0)

    @property
    def size(self) -> int:
        """Entries (index) or pointers covered (ranges)."""
        if self.ranges:
            return sum(b - a + 1 for a, b in zip(self.starts, self.lasts))
        return sum(v != NONE for v in self.values) + len(self.overrides)


def _merge(points: list[int]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for p in sorted(set(points)):
        if out and p == out[-1][1] + 1:
            out[-1][1] = p
        else:
            out.append([p, p])
    return tuple((a, b) for a, b in out)


def build(table: Table, spec: Spec) -> MappingTable:
    """The compact table of a spec's 'table' statement."""
    single: dict[int, int] = dict(table.entries)
    several: dict[int, int | tuple[int, ...]] = {}
    for lo, hi, cps in table.extra:
        if len(cps) > 1 or (table.ranges and lo == hi):
            several[lo] = cps if len(cps) > 1 else cps[0]
            single.pop(lo, None)
        else:
            for p in range(lo, hi + 1):
                single[p] = cps[0] + p - lo
    skip = RangeSet(table.encode_skip)
    if table.ranges:
        starts = sorted(single)
        cap = spec.code_space.hi if spec.code_space.hi is not None else 0x10FFFF
        firsts = [single[p] for p in starts]
        lasts = []
        for k, p in enumerate(starts):
            end = p + cap - firsts[k]
            if k + 1 < len(starts):
                end = min(end, starts[k + 1] - 1)
                if firsts[k + 1] > firsts[k]:  # code points rise with pointers: a run stops below the next's
                    end = min(end, p + firsts[k + 1] - firsts[k] - 1)
            lasts.append(end)
        return MappingTable(table.name, table.loc.line, table.path, table.sha256, True, 0, (),
                            tuple(sorted(several.items())), tuple(starts), tuple(firsts), tuple(lasts),
                            tuple(table.encode_skip))
    base = min(single) if single else 0
    top = max(single) if single else -1
    values = [NONE] * (top - base + 1)
    for p, cp in single.items():
        values[p - base] = cp
    last_wanted = set(table.encode_last)
    chosen: dict[int, int] = {}
    for p in sorted(single):
        if skip.containing(p) is not None:
            continue
        cp = single[p]
        if cp not in chosen or cp in last_wanted:
            chosen[cp] = p
    keep = set(chosen.values())
    first_of: dict[int | tuple[int, ...], int] = {}  # a sequence's first pointer outside encode-skip
    for p in sorted(several):
        if skip.containing(p) is None:
            first_of.setdefault(several[p], p)
    decode_only = _merge([p for p in single if p not in keep] + [p for p in several if first_of.get(several[p]) != p])
    return MappingTable(table.name, table.loc.line, table.path, table.sha256, False, base, tuple(values),
                        tuple(sorted(several.items())), (), (), (), decode_only)
