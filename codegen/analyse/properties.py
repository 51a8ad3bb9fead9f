"""Properties of an encoding, decided on its automaton, each with a counterexample.

Definitions (the bounded automaton; counted forms are checked on their first levels):
- prefix_free: no valid sequence is a proper prefix of another.
- self_synchronizing: no proper suffix of a valid sequence is a prefix of a valid
  sequence, so a reader dropped at any offset skips bytes that cannot start one.
- order_preserving: byte-wise order of encodings equals code point order.
- ascii_compatible: 00..7F encode as themselves and occur in no longer sequence.
- bijective: no two valid sequences decode to the same code point.
- total: every code point of the code space that is not excluded is encodable.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Optional

from ..automaton import DEAD, Automaton
from ..runtime.tables import scan
from ..spec.model import RangeSet

NAMES = ("prefix_free", "self_synchronizing", "order_preserving", "ascii_compatible", "bijective", "total")


@dataclass
class Report:
    properties: dict = field(default_factory=dict)
    counterexamples: dict = field(default_factory=dict)
    max_length: Optional[int] = None
    max_code_point: Optional[int] = None
    lengths: dict = field(default_factory=dict)
    worst_skip: Optional[int] = None
    unbounded: bool = False

    def to_json(self) -> dict:
        return {
            "properties": dict(self.properties),
            "counterexamples": {k: [b.hex(" ").upper() if isinstance(b, bytes) else b for b in v]
                                for k, v in self.counterexamples.items()},
            "max_length": self.max_length, "max_code_point": self.max_code_point,
            "lengths": {str(k): v for k, v in sorted(self.lengths.items(),
                                                      key=lambda kv: (isinstance(kv[0], str), kv[0]))},
            "worst_skip": self.worst_skip, "unbounded": self.unbounded,
        }


def _reps(a: Automaton) -> list[int]:
    reps = {}
    for b, c in enumerate(a.classes):
        reps.setdefault(c, b)
    return [reps[c] for c in range(a.n_classes)]


def _live(a: Automaton, t: int) -> bool:
    return t != DEAD


def _paths(a: Automaton) -> dict[int, bytes]:
    """A shortest byte path from the start to every state."""
    reps = _reps(a)
    paths = {0: b""}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        for c, t in enumerate(a.next[s]):
            if t != DEAD and t < a.n_states and t not in paths:
                paths[t] = paths[s] + bytes([reps[c]])
                queue.append(t)
    return paths


def _complete(a: Automaton, s: int) -> Optional[bytes]:
    """Shortest bytes taking state s to an accepting char state."""
    reps = _reps(a)
    seen = {s: b""}
    queue = deque([s])
    while queue:
        x = queue.popleft()
        if a.accepts_char(x) and x != s:
            return seen[x]
        if x == s and a.accepts_char(x) and seen[x]:
            return seen[x]
        for c, t in enumerate(a.next[x]):
            if t != DEAD and t < a.n_states and t not in seen:
                seen[t] = seen[x] + bytes([reps[c]])
                queue.append(t)
    return None


def _is_char(a: Automaton, s: int) -> bool:
    return a.accepts_char(s)


def prefix_free(a: Automaton):
    paths = _paths(a)
    reps = _reps(a)
    for s in sorted(paths, key=lambda s: (len(paths[s]), s)):
        if _is_char(a, s):
            for c, t in enumerate(a.next[s]):
                if t != DEAD and t < a.n_states:
                    tail = _complete(a, t)
                    if tail is not None or _is_char(a, t):
                        long = paths[s] + bytes([reps[c]]) + (tail or b"")
                        return False, [paths[s], long]
    return True, []


def _can_char(a: Automaton) -> set[int]:
    """States from which a valid (char) sequence can still be completed: a walk back
    from the char states over reversed transitions, each edge once."""
    back: list[list[int]] = [[] for _ in range(a.n_states)]
    for s in range(a.n_states):
        for t in set(a.next[s]):
            if 0 <= t < a.n_states:
                back[t].append(s)
    good = {s for s in range(a.n_states) if _is_char(a, s)}
    queue = deque(good)
    while queue:
        t = queue.popleft()
        for s in back[t]:
            if s not in good:
                good.add(s)
                queue.append(s)
    return good


def self_synchronizing(a: Automaton):
    """Walk pairs (state inside a valid sequence, state of a sequence started at that unit).

    A counterexample is a valid sequence S and a proper suffix of it that begins a
    valid sequence: preferably a complete one (a false match), else a prefix.
    """
    paths = _paths(a)
    reps = _reps(a)
    can = _can_char(a)
    # suffixes start at code unit boundaries (UTF-16 resynchronises on units)
    queue = deque((s, 0, paths[s], b"") for s in sorted(paths, key=lambda s: len(paths[s]))
                  if s != 0 and s in can and len(paths[s]) % a.unit == 0)
    seen = set()
    weak = None
    while queue:
        s, t, whole, suffix = queue.popleft()
        if (s, t) in seen:
            continue
        seen.add((s, t))
        for c, rep in enumerate(reps):
            s2, t2 = a.next[s][c], a.next[t][c]
            # the suffix must stay a prefix of a *valid* sequence: a live state that
            # can only end in an ill-formed pattern or a reserved run does not count
            if not (0 <= s2 < a.n_states and 0 <= t2 < a.n_states) or s2 not in can or t2 not in can:
                continue
            w, x = whole + bytes([rep]), suffix + bytes([rep])
            if _is_char(a, t2):
                full = w if _is_char(a, s2) else w + (_complete(a, s2) or b"")
                return False, [full, full[len(whole) - len(suffix):]]
            if _is_char(a, s2) and weak is None:
                weak = [w, x]
            queue.append((s2, t2, w, x))
    if weak is not None:
        return False, weak
    return True, []


def ascii_compatible(a: Automaton):
    for b in range(0x80):
        tok = scan(a, bytes([b]), 0)
        if tok[0] != "char" or tok[3] != b or tok[2] != 1:
            return False, [bytes([b])]
        s = a.step(0, b)
        if any(t != DEAD for t in a.next[s]):
            return False, [bytes([b])]
    paths = _paths(a)
    for s, path in sorted(paths.items(), key=lambda kv: len(kv[1])):
        if s == 0:
            continue
        for b in range(0x80):
            if a.step(s, b) != DEAD:
                longer = path + bytes([b])
                t = a.step(s, b)
                if t < a.n_states:
                    longer += _complete(a, t) or b""
                return False, [longer]
    for ext in a.extensions:
        for item in ext.items:
            if any(lo < 0x80 for lo, hi in item.runs):
                return False, [bytes(ext.prefix_bytes) + bytes([item.runs[0][0]])]
    return True, []


def _sorted_rows(a: Automaton):
    return sorted(a.rows, key=lambda r: (r.first, r.last))


def bijective(a: Automaton):
    rows = _sorted_rows(a)
    for r1, r2 in zip(rows, rows[1:]):
        if r2.first <= r1.last:
            cp = r2.first
            return False, [a.encode_row(r1, cp), a.encode_row(r2, cp)]
    from ..automaton.counted import encode_counted
    for ext in a.extensions:
        for r in rows:
            if r.last >= ext.min:
                cp = max(r.first, ext.min)
                other = encode_counted(ext, cp)
                if other is not None:
                    return False, [a.encode_row(r, cp), other]
    return True, []


def total(a: Automaton):
    """The first code point of the code space that no row encodes and no hole or skip
    excludes, as the counterexample.

    Rows, holes and skips are merged into one ``RangeSet`` (sorted once), so the
    answer is one binary search: n log n in their number, where walking the list of
    exclusions for every gap took time in proportion to its square (4,000 one-code-point
    holes: 0.7 s).  A counted form covers every code point from its minimum up."""
    lo, hi = a.code_space
    covered = RangeSet([(r.first, r.last) for r in a.rows] + list(a.holes) + list(a.skips))
    got = covered.containing(lo)
    cp = lo if got is None else got[1] + 1  # not in the set: its ranges are non-adjacent
    if hi is not None and cp > hi:
        return True, []
    if a.extensions and cp >= min(e.min for e in a.extensions):
        return True, []
    return False, [f"U+{cp:04X}"]


def order_preserving(a: Automaton):
    rows = _sorted_rows(a)
    points = []
    for r in rows:
        points += [(r.first, a.encode_row(r, r.first)), (r.last, a.encode_row(r, r.last))]
    # within a row the code point grows with the raw value and so do the bytes:
    # digit alphabets are in increasing byte order (the parser insists)
    from itertools import islice

    from ..automaton.counted import encode_counted, levels
    for ext in a.extensions:
        # the first levels of a counted form: each one's first and last value
        for _, _, first, last in islice(levels(ext), 40):
            points += [(first, encode_counted(ext, first)), (last, encode_counted(ext, last))]
    points.sort()
    for (c1, b1), (c2, b2) in zip(points, points[1:]):
        if c1 < c2 and not b1 < b2:
            return False, [b1, b2]
    return True, []


CHECKS = {
    "prefix_free": prefix_free, "self_synchronizing": self_synchronizing,
    "order_preserving": order_preserving, "ascii_compatible": ascii_compatible,
    "bijective": bijective, "total": total,
}


def check(a: Automaton, only: Optional[list[str]] = None) -> Report:
    """Decide every property (or those named in *only*, from ``NAMES``), each failure
    with a counterexample: what ``encspec check`` prints."""
    report = Report()
    for name in only or NAMES:
        ok, example = CHECKS[name](a)
        report.properties[name] = ok
        if not ok:
            report.counterexamples[name] = example
    report.unbounded = bool(a.extensions)
    report.max_length = a.max_length
    report.max_code_point = a.max_code_point
    lengths: dict = {}
    for r in a.rows:
        lengths[r.length] = lengths.get(r.length, 0) + (r.last - r.first + 1)
    if a.extensions:
        lengths["counted"] = "unbounded"
    report.lengths = dict(sorted(lengths.items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))
    if report.properties.get("self_synchronizing") and a.max_length:
        report.worst_skip = a.max_length - 1
    return report
