"""Properties of an encoding, decided on its automaton, each with a counterexample.

Definitions (the bounded automaton; counted forms are checked on their first levels):
- prefix_free: no valid sequence is a proper prefix of another.
- self_synchronizing: no proper suffix of a valid sequence is a prefix of a valid
  sequence, so a reader dropped at any offset skips bytes that cannot start one.
- order_preserving: byte-wise order of encodings equals code point order.
- ascii_compatible: 00..7F encode as themselves and occur in no longer sequence.
- bijective: no two valid sequences decode to the same code point.
- total: every code point of the code space that is not excluded is encodable.

Specs with mapping tables (table forms, encoder-only entries): a table form's
sequence is valid only where its pointer has an entry, so each counterexample the
walks over states propose is confirmed with bytes the decoder core reads so (and
the walk goes on when none exist).  Bijective also fails where an encoder-only
entry's bytes decode to another code point (WHATWG Shift_JIS: U+00A5 -> 5C, which
reads back as U+005C) or a pointer stands for several code points whose text
encodes to other bytes (Big5's four); total counts what the encoder writes (rows,
table entries outside ``decode_only``, encoder-only entries, less ``unencodable``
ones); order-preserving compares every valid sequence.  Tables are read as runs
of consecutive code points (``analyse.tables``), so the cost follows the tables'
size, never the code space's.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..automaton import DEAD, Automaton
from ..runtime.tables import counted_bytes, counted_levels, encoded, row_bytes, scan, tokens
from ..spec.model import RangeSet
from . import tables as _tables

NAMES = ("prefix_free", "self_synchronizing", "order_preserving", "ascii_compatible", "bijective", "total")


@dataclass
class Report:
    properties: dict = field(default_factory=dict)
    counterexamples: dict = field(default_factory=dict)
    max_length: int | None = None
    max_code_point: int | None = None
    lengths: dict = field(default_factory=dict)
    worst_skip: int | None = None
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
    reps: dict[int, int] = {}
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


def _complete(a: Automaton, s: int) -> bytes | None:
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
    if _tables.has_tables(a):
        return _prefix_free_tables(a)
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
    if _tables.has_tables(a):
        return _self_synchronizing_tables(a)
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
    if _tables.has_tables(a):
        return _ascii_compatible_tables(a)
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
    return _counted_ascii(a)


def _counted_ascii(a: Automaton):
    """A counted form reading an ASCII byte after its prefix breaks ASCII compatibility."""
    for ext in a.extensions:
        for item in ext.items:
            if any(lo < 0x80 for lo, hi in item.runs):
                return False, [bytes(ext.prefix_bytes) + bytes([item.runs[0][0]])]
    return True, []


def _sorted_rows(a: Automaton):
    return sorted(a.rows, key=lambda r: (r.first, r.last))


def bijective(a: Automaton):
    if _tables.has_tables(a) or a.encode_only:
        return _bijective_tables(a)
    rows = _sorted_rows(a)
    for r1, r2 in zip(rows, rows[1:]):
        if r2.first <= r1.last:
            cp = r2.first
            return False, [row_bytes(a, r1, cp), row_bytes(a, r2, cp)]
    for ext in a.extensions:
        for r in rows:
            if r.last >= ext.min:
                cp = max(r.first, ext.min)
                other = counted_bytes(a, ext, cp)
                if other is not None:
                    return False, [row_bytes(a, r, cp), other]
    return True, []


def total(a: Automaton):
    """The first code point of the code space that no row encodes and no hole or skip
    excludes, as the counterexample.

    Rows, holes and skips are merged into one ``RangeSet`` (sorted once), so the
    answer is one binary search: n log n in their number, where walking the list of
    exclusions for every gap took time in proportion to its square (4,000 one-code-point
    holes: 0.7 s).  A counted form covers every code point from its minimum up."""
    if _tables.has_tables(a) or a.encode_only:
        return _total_tables(a)
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
    if _tables.has_tables(a):
        return _order_preserving_tables(a)
    rows = _sorted_rows(a)
    points: list[tuple[int, bytes]] = []
    for r in rows:
        points += [(r.first, row_bytes(a, r, r.first)), (r.last, row_bytes(a, r, r.last))]
    # within a row the code point grows with the raw value and so do the bytes:
    # digit alphabets are in increasing byte order (the parser insists)
    from itertools import islice

    for ext in a.extensions:
        # the first levels of a counted form: each one's first and last value
        for _, _, first, last in islice(counted_levels(a, ext), 40):
            b_first, b_last = counted_bytes(a, ext, first), counted_bytes(a, ext, last)
            assert b_first is not None and b_last is not None  # a level's ends are its code points
            points += [(first, b_first), (last, b_last)]
    points.sort()
    for (c1, b1), (c2, b2) in zip(points, points[1:]):
        if c1 < c2 and not b1 < b2:
            return False, [b1, b2]
    return True, []


# ------------------------------------------------------------ table specs
# A table form's accepting state is a character only where its pointer has an entry,
# so the walks below over states propose candidates and a candidate counts only once
# bytes are found that the decoder core really reads so: each counterexample is
# checked by decoding it.  Bijective, total and order-preserving read the tables as
# runs of consecutive code points (linear in the tables, never in the code space).

WITNESS_TRIES = 20000  # points of a candidate's byte box tried in order, then as many at random


def _one_char(a: Automaton, data: bytes):
    """The value *data* decodes to as one character token (whole data), else None."""
    toks = list(tokens(a, data))
    if len(toks) == 1 and toks[0][0] == "char" and toks[0][1] == 0 and toks[0][2] == len(data):
        return toks[0][3]
    return None


def _witness(box, test) -> bytes | None:
    """The first point of *box* (a list of byte lists) that passes *test*: in order, then at random."""
    import itertools
    import random
    box = [sorted(set(bs)) for bs in box]
    if any(not bs for bs in box):
        return None
    size = 1
    for bs in box:
        size *= len(bs)
    for n, point in enumerate(itertools.product(*box)):
        if n >= WITNESS_TRIES:
            break
        x = bytes(point)
        if test(x):
            return x
    if size <= WITNESS_TRIES:
        return None
    rng = random.Random(0)
    for _ in range(WITNESS_TRIES):
        x = bytes(rng.choice(bs) for bs in box)
        if test(x):
            return x
    return None


def _class_paths(a: Automaton) -> dict[int, list[int]]:
    """A shortest path of byte classes from the start to every state."""
    paths: dict[int, list[int]] = {0: []}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        for c, t in enumerate(a.next[s]):
            if t != DEAD and t < a.n_states and t not in paths:
                paths[t] = paths[s] + [c]
                queue.append(t)
    return paths


def _completions(a: Automaton, s: int, limit: int = 8) -> list[list[int]]:
    """Up to *limit* shortest class paths from *s* (not empty) to a char-accepting state."""
    out: list[list[int]] = []
    queue: deque[tuple[int, list[int]]] = deque([(s, [])])
    seen_depth: dict = {}
    while queue and len(out) < limit:
        x, path = queue.popleft()
        if path and a.accepts_char(x):
            out.append(path)
            continue
        if len(path) > 16:
            continue
        for c, t in enumerate(a.next[x]):
            if t != DEAD and t < a.n_states and seen_depth.get((t, len(path) + 1), 0) < limit:
                seen_depth[(t, len(path) + 1)] = seen_depth.get((t, len(path) + 1), 0) + 1
                queue.append((t, path + [c]))
    return out


def _box(a: Automaton, classes) -> list[list[int]]:
    cb = a.class_bytes()
    return [cb[c] for c in classes]


def _prefix_free_tables(a: Automaton):
    paths = _class_paths(a)
    for s in sorted(paths, key=lambda s: (len(paths[s]), s)):
        if not a.accepts_char(s):
            continue
        for c, t in enumerate(a.next[s]):
            if t == DEAD or t >= a.n_states:
                continue
            tails: list[list[int]] = [[]] if a.accepts_char(t) else []
            tails += _completions(a, t)
            n = len(paths[s])
            for tail in tails:
                box = _box(a, paths[s] + [c] + tail)
                got = _witness(box, lambda x: _one_char(a, x[:n]) is not None and _one_char(a, x) is not None)  # noqa: B023 - _witness calls it at once
                if got is not None:
                    return False, [got[:n], got]
    return True, []


def _self_synchronizing_tables(a: Automaton):
    """As for other specs, each candidate confirmed with bytes the decoder reads so."""
    paths = _class_paths(a)
    can = _can_char(a)
    queue = deque((s, 0, paths[s], len(paths[s])) for s in sorted(paths, key=lambda s: len(paths[s]))
                  if s != 0 and s in can and len(paths[s]) % a.unit == 0)
    seen = set()
    weak = None
    while queue:
        s, t, whole, j = queue.popleft()
        if (s, t) in seen:
            continue
        seen.add((s, t))
        for c in range(a.n_classes):
            s2, t2 = a.next[s][c], a.next[t][c]
            if not (0 <= s2 < a.n_states and 0 <= t2 < a.n_states) or s2 not in can or t2 not in can:
                continue
            w = whole + [c]
            if a.accepts_char(t2):
                tails = [[]] if a.accepts_char(s2) else _completions(a, s2)
                for tail in tails:
                    n = len(w)
                    got = _witness(_box(a, w + tail), lambda x: _one_char(a, x) is not None
                                   and _one_char(a, x[j:n]) is not None)  # noqa: B023 - _witness calls it at once
                    if got is not None:
                        return False, [got, got[j:n]]
            if a.accepts_char(s2) and weak is None:
                tails = _completions(a, t2) if not a.accepts_char(t2) else [[]]
                for tail in tails:
                    n = len(w)
                    got = _witness(_box(a, w + tail), lambda x: _one_char(a, x[:n]) is not None  # noqa: B023 - _witness calls it at once
                                   and _one_char(a, x[j:]) is not None)  # noqa: B023 - _witness calls it at once
                    if got is not None:
                        weak = [got[:n], got[j:n]]
                        break
            queue.append((s2, t2, w, j))
    if weak is not None:
        return False, weak
    return True, []


def _ascii_compatible_tables(a: Automaton):
    for b in range(0x80):
        tok = scan(a, bytes([b]), 0)
        if tok[0] != "char" or tok[3] != b or tok[2] != 1:
            return False, [bytes([b])]
        s = a.step(0, b)
        if any(t != DEAD for t in a.next[s]):
            return False, [bytes([b])]
    for b in range(0x80):
        if encoded(a, b) != bytes([b]):
            return False, [f"U+{b:04X}", encoded(a, b) or b""]
    paths = _class_paths(a)
    for s, path in sorted(paths.items(), key=lambda kv: len(kv[1])):
        if s == 0:
            continue
        for b in range(0x80):
            t = a.step(s, b)
            if t == DEAD or t >= a.n_states:
                continue
            tails: list[list[int]] = ([[]] if a.accepts_char(t) else []) + _completions(a, t)
            for tail in tails:
                box = _box(a, path) + [[b]] + _box(a, tail)
                got = _witness(box, lambda x: _one_char(a, x) is not None)
                if got is not None:
                    return False, [got]
    return _counted_ascii(a)


def _decoded_pieces(a: Automaton):
    """Everything that decodes to one code point, as ``(first cp, last cp, bytes of(cp))``:
    the rows, and each table form's runs of consecutive code points."""
    out = []
    for r in a.rows:
        out.append((r.first, r.last, (lambda row: lambda cp: row_bytes(a, row, cp))(r)))
    for f in _tables.table_forms(a):
        for p, q, cp in _tables.form_entries(a, f):
            out.append((cp, cp + q - p, (lambda f, p, cp: lambda x: _tables.spell(f, p + x - cp))(f, p, cp)))  # noqa: B023 - f, p, cp are the outer lambda's own
    return out


def _bijective_tables(a: Automaton):
    """Two valid sequences of one code point (a row and a table entry, two table entries,
    two rows), or a pointer of several code points whose text encodes to other bytes,
    or an encoder-only entry whose bytes decode to something else."""
    pieces = sorted(_decoded_pieces(a), key=lambda x: (x[0], x[1]))
    top = None  # the piece reaching furthest so far
    for piece in pieces:
        if top is not None and piece[0] <= top[1]:
            cp = piece[0]
            b1, b2 = top[2](cp), piece[2](cp)
            if b1 != b2 and _one_char(a, b1) == cp and _one_char(a, b2) == cp:
                return False, sorted([b1, b2])
        if top is None or piece[1] > top[1]:
            top = piece
    for f in _tables.table_forms(a):
        for p, cps in _tables.multi_entries(a.tables[f.table]):
            data = _tables.spell(f, p)
            parts = [encoded(a, cp) for cp in cps]
            spelled = [x for x in parts if x is not None]
            if len(spelled) == len(parts) and b"".join(spelled) != data:
                return False, [data, b"".join(spelled)]
            if len(spelled) != len(parts):
                return False, [data, " ".join(f"U+{cp:04X}" for cp in cps) + " (not encodable)"]
    for cp, written in a.encode_only:
        if written is None:
            continue
        got = _one_char(a, written)
        if got != cp:
            shown = "not one character" if got is None else (
                " ".join(f"U+{c:04X}" for c in got) if isinstance(got, tuple) else f"U+{got:04X}")
            return False, [f"U+{cp:04X} -> {written.hex(' ').upper()}", f"{written.hex(' ').upper()} -> {shown}"]
    return True, []


def _encodable(a: Automaton) -> RangeSet:
    """The code points the encoder writes something for."""
    spans = [(r.first, r.last) for r in a.rows]
    for f in _tables.table_forms(a):
        t = a.tables[f.table]
        skip = RangeSet(t.decode_only)
        for p, q, cp in _tables.form_entries(a, f):
            for lo, hi in skip.cut(p, q):
                spans.append((cp + lo - p, cp + hi - p))
    spans += [(cp, cp) for cp, b in a.encode_only if b is not None]
    got = RangeSet(spans)
    refused = RangeSet([(cp, cp) for cp, b in a.encode_only if b is None])
    if refused:
        got = RangeSet([piece for lo, hi in zip(got.los, got.his) for piece in refused.cut(lo, hi)])
    return got


def _total_tables(a: Automaton):
    lo, hi = a.code_space
    covered = _encodable(a)
    excluded = RangeSet(list(a.holes) + list(a.skips))
    both = RangeSet(list(zip(covered.los, covered.his)) + list(zip(excluded.los, excluded.his)))
    got = both.containing(lo)
    cp = lo if got is None else got[1] + 1
    if hi is not None and cp > hi:
        return True, []
    if a.extensions and cp >= min(e.min for e in a.extensions):
        return True, []
    return False, [f"U+{cp:04X}"]


def _order_preserving_tables(a: Automaton):
    """All valid sequences by code point: each code point's sequences must sort after the
    last of the one below.  Rows and table runs are increasing inside (big-endian digits),
    so their ends suffice, plus a row's neighbours of every code point inside it."""
    pieces = _decoded_pieces(a)
    points = []
    for first, last, spell in pieces:
        points += [(first, spell(first)), (last, spell(last))]
    for f in _tables.table_forms(a):
        if not _tables.big_endian(f):
            for p, q, cp in _tables.form_entries(a, f):
                points += [(cp + k, _tables.spell(f, p + k)) for k in range(q - p + 1)]
    cps = sorted({c for c, _ in points})
    import bisect
    for first, last, spell in pieces:
        if last - first < 2:
            continue
        i = bisect.bisect_right(cps, first)
        while i < len(cps) and cps[i] < last:
            c = cps[i]
            points += [(c - 1, spell(c - 1)), (c, spell(c)), (c + 1, spell(c + 1))]
            i += 1
    points = sorted(set(points))
    for (c1, b1), (c2, b2) in zip(points, points[1:]):
        if c1 < c2 and not b1 < b2:
            if _one_char(a, b1) == c1 and _one_char(a, b2) == c2:
                return False, [b1, b2]
    return True, []


CHECKS = {
    "prefix_free": prefix_free, "self_synchronizing": self_synchronizing,
    "order_preserving": order_preserving, "ascii_compatible": ascii_compatible,
    "bijective": bijective, "total": total,
}


def check(a: Automaton, only: list[str] | None = None) -> Report:
    """Decide every property (or those named in *only*, from ``NAMES``), each failure
    with a counterexample: what ``encspec check`` prints."""
    report = Report()
    for name in only or NAMES:
        ok, example = CHECKS[name](a)
        report.properties[name] = ok
        if not ok:
            report.counterexamples[name] = example
    report.unbounded = bool(a.extensions)
    report.max_length = _tables.max_length(a)
    report.max_code_point = _tables.max_code_point(a)
    lengths: dict = {}
    for r in a.rows:
        lengths[r.length] = lengths.get(r.length, 0) + (r.last - r.first + 1)
    for f in _tables.table_forms(a):  # the pointers with an entry: each a valid sequence
        t = a.tables[f.table]
        lengths[f.length] = lengths.get(f.length, 0) + _tables.entries_count(t, 0, _tables.capacity(f) - 1)
    if a.extensions:
        lengths["counted"] = "unbounded"
    report.lengths = dict(sorted(lengths.items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))
    if report.properties.get("self_synchronizing") and report.max_length:
        report.worst_skip = report.max_length - 1
    return report
