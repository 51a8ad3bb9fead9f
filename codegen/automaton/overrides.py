"""Which code points of a row the automaton does not decode as that row's char.

An ``ill-formed pattern`` overrides the form it overlaps: its sequences decode
as errors.  The rows (and so encoding, ``describe``, ``check`` and
``vectors``) must leave those code points out, or the encoder would write what
the decoder rejects.  This walks each row's byte patterns through the built
automaton and collects the raw values whose sequence ends in another action.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import product
from math import prod

from ..spec.diagnostics import SpecError
from .layout import Segment

MAX_PIECES = 1 << 12  # digit-interval products a pattern may cut a row into


def _groups(row_next, lo: int, hi: int):
    """Runs of consecutive bytes lo..hi that go to the same next state."""
    start = lo
    for b in range(lo + 1, hi + 2):
        if b > hi or row_next[b] != row_next[start]:
            yield start, b - 1, row_next[start]
            start = b


def _raw_ranges(intervals, radices) -> list[tuple[int, int]]:
    """The raw values whose digits lie in the given interval of each position."""
    k = len(intervals)
    j = k - 1
    while j > 0 and intervals[j] == (0, radices[j] - 1):
        j -= 1
    weights = [prod(radices[i + 1:]) for i in range(k)]
    if prod(b - a + 1 for a, b in intervals[:j]) > MAX_PIECES:
        raise OverflowError
    out = []
    for digits in product(*(range(a, b + 1) for a, b in intervals[:j])):
        base = sum(d * w for d, w in zip(digits, weights))
        a, b = intervals[j]
        out.append((base + a * weights[j], base + b * weights[j] + weights[j] - 1))
    return out


def overridden(machine, patterns, radices, accepted: int, order=None, at_end: bool = False) -> list[tuple[int, int]]:
    """Raw ranges of a linear row (its byte *patterns*) not ending in action *accepted*
    (where the data ends, for an `end` form's row: *at_end*); *order* lists the byte
    positions from the most significant digit (None: byte order)."""
    found: list[tuple[int, int]] = []
    accept = machine.at_end if at_end else machine.accept
    order = order or tuple(range(len(radices)))
    sig_radices = tuple(radices[k] for k in order)

    def walk(state, pattern, i, intervals):
        if i == len(pattern):
            if accept[state] != accepted:
                found.extend(_raw_ranges([intervals[k] for k in order], sig_radices))
            return
        for lo, hi, op in pattern[i]:
            for a, b, t in _groups(machine.next[state], lo, hi):
                if isinstance(t, int) and 0 <= t < len(machine.next):
                    walk(t, pattern, i + 1, intervals + [(a - op[1], b - op[1])])

    for pattern in patterns:
        walk(0, pattern, 0, [])
    return sorted(found)


def _ends(machine, patterns, at_end: bool = False) -> set:
    """The actions (indices) the sequences of *patterns* end in (where the data ends: *at_end*)."""
    found = set()
    accept = machine.at_end if at_end else machine.accept

    def walk(state, pattern, i):
        if i == len(pattern):
            found.add(accept[state])
            return
        for lo, hi, _ in pattern[i]:
            for _, _, t in _groups(machine.next[state], lo, hi):
                if isinstance(t, int) and 0 <= t < len(machine.next):
                    walk(t, pattern, i + 1)

    for pattern in patterns:
        walk(0, pattern, 0)
    return found


def cut_rows(rows, rule_list, rule_action, machine, positions_of, loc_of) -> list[Segment]:
    """*rows* without the code points whose sequences decode as something else."""
    out = []
    for row, rule, accepted in zip(rows, rule_list, rule_action):
        got = positions_of(row)
        positions, order = got if got is not None else (None, None)
        if positions is None:  # a special sequence or a surrogate pair: whole or nothing
            ends = _ends(machine, rule.patterns, row.at_end)
            if ends == {accepted}:
                out.append(row)
            elif accepted in ends:
                raise SpecError(f"an ill-formed pattern overrides part of form '{row.form}': "
                                "cover all of its sequences or none", loc_of(row.form))
            continue
        radices = tuple(sum(hi - lo + 1 for lo, hi in runs) for runs in positions)
        try:
            gone = overridden(machine, rule.patterns, radices, accepted, order, row.at_end)
        except OverflowError:
            raise SpecError(f"the ill-formed patterns cut form '{row.form}' into too many pieces "
                            f"(more than {MAX_PIECES}); write them as ranges of its code points "
                            "(<FORM U+LO..U+HI>)", loc_of(row.form)) from None
        lo = row.raw_lo
        for a, b in gone:
            if a > lo:
                out.append(_part(row, lo, a - 1))
            lo = max(lo, b + 1)
        if lo <= row.raw_hi:
            out.append(_part(row, lo, row.raw_hi))
    return out


def _part(row: Segment, raw_lo: int, raw_hi: int) -> Segment:
    return replace(row, raw_lo=raw_lo, raw_hi=raw_hi, first=raw_lo + row.offset, last=raw_hi + row.offset)


def first_inner_char(machine, patterns, is_char) -> bytes | None:
    """A proper prefix of a pattern's sequences that is already a whole character, if any.

    Such a pattern spans several characters: an encoder writing them one by one
    would produce it, so the spec must say what to write instead (``combine``).  Each
    (state, position) is walked once: paths that meet again find the same answer."""
    def walk(state, pattern, i, path):
        if (state, i) in seen:
            return None
        seen.add((state, i))
        if 0 < i < len(pattern):
            act = machine.accept[state]
            if act is not None and is_char(act):
                return bytes(path)
        if i == len(pattern):
            return None
        for lo, hi, _ in pattern[i]:
            for a, _, t in _groups(machine.next[state], lo, hi):
                if isinstance(t, int) and 0 <= t < len(machine.next):
                    got = walk(t, pattern, i + 1, path + [a])
                    if got is not None:
                        return got
        return None

    for pattern in patterns:
        seen: set[tuple[int, int]] = set()
        got = walk(0, pattern, 0, [])
        if got is not None:
            return got
    return None
