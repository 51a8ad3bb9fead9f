"""Properties of an encoding, decided on its automaton, each with a counterexample.

Definitions (the bounded automaton; counted forms are checked on their first levels):
- prefix_free: no valid sequence is a proper prefix of another.
- self_synchronizing: no proper suffix of a valid sequence is a prefix of a valid
  sequence, so a reader dropped at any offset skips bytes that cannot start one.
- order_preserving: byte-wise order of encodings equals code point order.
- ascii_compatible: 00..7F encode as themselves and occur in no longer sequence.
- bijective: no two valid sequences decode to the same code point.
- total: every code point of the code space that is not excluded is encodable.

One walk per property, whatever kind of forms the spec has.  The walks over
states propose class paths, and each counterexample is confirmed with bytes the
decoder core reads so: a table form's accepting state is a character only where
its pointer has an entry (without tables the first bytes tried always are).
Bijective, total and order-preserving walk *pieces*: rows and table runs of
consecutive code points alike (``analyse.tables``), so the cost follows the rows'
and tables' size, never the code space's.  Bijective also fails where an
encoder-only entry's bytes decode to another code point (WHATWG Shift_JIS: U+00A5
-> 5C, which reads back as U+005C), or where a pointer stands for a sequence of
code points whose text other bytes read as too: what the encoder writes for the
text (its longest match), or the code points' own bytes one after another (Ê's
bytes then the mark's, where the mark alone is encodable, even though the encoder
writes the pair's pointer), or where the encoder writes a sequence of code points
as bytes that read back as something else.  A sequence whose text the encoder cannot write at all
(WHATWG Big5's four: U+00CA is not encodable) is no counterexample here: the
encoder has no other bytes for its text, and what it cannot write is ``total``'s
concern.  Total counts what the encoder writes (rows, table entries outside ``decode_only``,
encoder-only entries, less ``unencodable`` ones).
"""
from __future__ import annotations

import bisect
import itertools
import random
from collections import deque
from dataclasses import dataclass, field

from ..automaton import DEAD, Automaton
from ..runtime.tables import bind, counted_bytes, counted_levels, encoded, row_bytes, scan, sequences, tokens
from ..spec.model import RangeSet
from . import tables as _tables
from .tables import one_char

NAMES = ("prefix_free", "self_synchronizing", "order_preserving", "ascii_compatible", "bijective", "total")


@dataclass
class Report:
    properties: dict = field(default_factory=dict)
    counterexamples: dict = field(default_factory=dict)
    max_length: int | None = None
    max_code_point: int | None = None
    lengths: dict = field(default_factory=dict)
    sequences: dict = field(default_factory=dict)  # of lengths' counts: those of several code points
    mode_lengths: dict = field(default_factory=dict)  # a spec with modes: mode -> (lengths, sequences)
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
            "sequences": {str(k): v for k, v in sorted(self.sequences.items())},
            "worst_skip": self.worst_skip, "unbounded": self.unbounded,
            **({"modes": {name: {"lengths": {str(k): v for k, v in lengths.items()},
                                 "sequences": {str(k): v for k, v in sorted(several.items())}}
                          for name, (lengths, several) in self.mode_lengths.items()}}
               if self.mode_lengths else {}),
        }


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
    """Up to *limit* shortest class paths from *s* (not empty) to a char-accepting state,
    the lexicographically least first (breadth first, classes in order)."""
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


def _can_char(a: Automaton) -> set[int]:
    """States from which a valid (char) sequence can still be completed: a walk back
    from the char states over reversed transitions, each edge once."""
    back: list[list[int]] = [[] for _ in range(a.n_states)]
    for s in range(a.n_states):
        for t in set(a.next[s]):
            if 0 <= t < a.n_states:
                back[t].append(s)
    good = {s for s in range(a.n_states) if a.accepts_char(s)}
    queue = deque(good)
    while queue:
        t = queue.popleft()
        for s in back[t]:
            if s not in good:
                good.add(s)
                queue.append(s)
    return good


# ------------------------------------------------------------ confirming with bytes
# A state accepts a character, but a table form's accepting state is a character only
# where its pointer has an entry: so every walk below proposes class paths, and a path
# counts only once bytes along it are found that the decoder core really reads so.
# Where acceptance is by state alone (no tables), the first point tried — each class's
# lowest byte — is such bytes, so the walks cost what a walk over states costs.

WITNESS_TRIES = 20000  # points of a candidate's byte box tried in order, then as many at random


def _witness(box, test) -> bytes | None:
    """The first point of *box* (a list of byte lists) that passes *test*: in order, then at random."""
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


def _box(a: Automaton, classes) -> list[list[int]]:
    cb = a.class_bytes()
    return [cb[c] for c in classes]


# ------------------------------------------------------------ the walks over states
def prefix_free(a: Automaton):
    """A valid sequence that is a proper prefix of a valid sequence: each char state's
    successors, completed by the shortest class paths, confirmed with bytes."""
    paths = _class_paths(a)
    for s in sorted(paths, key=lambda s: (len(paths[s]), s)):
        if not a.accepts_char(s):
            continue
        for c, t in enumerate(a.next[s]):
            if t == DEAD or t >= a.n_states:
                continue
            tails = _completions(a, t)
            if a.accepts_char(t):
                tails = tails[:1] + [[]] + tails[1:]
            n = len(paths[s])
            for tail in tails:
                box = _box(a, paths[s] + [c] + tail)
                got = _witness(box, lambda x: one_char(a, x[:n]) is not None and one_char(a, x) is not None)  # noqa: B023 - _witness calls it at once
                if got is not None:
                    return False, [got[:n], got]
    return True, []


def self_synchronizing(a: Automaton):
    """Walk pairs (state inside a valid sequence, state of a sequence started at that unit).

    A counterexample is a valid sequence S and a proper suffix of it that begins a
    valid sequence: preferably a complete one (a false match), else a prefix.  A spec
    with modes never is (_modes_counterexample).
    """
    if a.modes:
        return False, _modes_counterexample(a)
    paths = _class_paths(a)
    can = _can_char(a)
    # suffixes start at code unit boundaries (UTF-16 resynchronises on units)
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
            # the suffix must stay a prefix of a *valid* sequence: a live state that
            # can only end in an ill-formed pattern or a reserved run does not count
            if not (0 <= s2 < a.n_states and 0 <= t2 < a.n_states) or s2 not in can or t2 not in can:
                continue
            w = whole + [c]
            n = len(w)
            if a.accepts_char(t2):
                for tail in [[]] if a.accepts_char(s2) else _completions(a, s2):
                    got = _witness(_box(a, w + tail), lambda x: one_char(a, x) is not None
                                   and one_char(a, x[j:n]) is not None)  # noqa: B023 - _witness calls it at once
                    if got is not None:
                        return False, [got, got[j:n]]
            if a.accepts_char(s2) and weak is None:
                for tail in _completions(a, t2):
                    got = _witness(_box(a, w + tail), lambda x: one_char(a, x[:n]) is not None  # noqa: B023 - _witness calls it at once
                                   and one_char(a, x[j:]) is not None)  # noqa: B023 - _witness calls it at once
                    if got is not None:
                        weak = [got[:n], got[j:n]]
                        break
            queue.append((s2, t2, w, j))
    if weak is not None:
        return False, weak
    return True, []


def _modes_counterexample(a: Automaton) -> list[bytes]:
    """[a shift into a mode followed by one character of that mode, that character's bytes]
    where the bytes alone, read from the first mode, are not that character: what a byte
    means depends on a shift any distance before it.  One or two bytes of each class are
    tried after each mode's shortest shift from the first."""
    reps = [bs[0] for bs in a.class_bytes()]
    for k in range(1, len(a.modes)):
        path = a.modes[0].shifts[k]
        if not path:
            continue
        for y in [bytes([b]) for b in reps] + [bytes([b, c]) for b in reps for c in reps]:
            toks = [t for t in tokens(a, path + y) if t[0] != "shift"]
            if len(toks) == 1 and toks[0][0] == "char" and toks[0][1] == len(path):
                alone = [t[:1] + t[3:4] for t in tokens(a, y)]
                if alone != [("char", toks[0][3])]:
                    return [path + y, y]
    return []


def ascii_compatible(a: Automaton):
    """00..7F decode and encode as themselves, alone, and occur in no longer sequence."""
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
            if t == DEAD:
                continue
            if t >= a.n_states:  # into a counted form: its own check below
                return False, [bytes(x[0] for x in _box(a, path)) + bytes([b])]
            tails: list[list[int]] = ([[]] if a.accepts_char(t) else []) + _completions(a, t)
            for tail in tails:
                box = _box(a, path) + [[b]] + _box(a, tail)
                got = _witness(box, lambda x: one_char(a, x) is not None)
                if got is not None:
                    return False, [got]
    return _counted_ascii(a)


def _counted_ascii(a: Automaton):
    """A counted form reading an ASCII byte after its prefix breaks ASCII compatibility."""
    for ext in a.extensions:
        for item in ext.items:
            if any(lo < 0x80 for lo, hi in item.runs):
                return False, [bytes(ext.prefix_bytes) + bytes([item.runs[0][0]])]
    return True, []


# ------------------------------------------------------------ the walks over code points
# Rows and table runs of consecutive code points are one kind of piece: a code point
# range and the bytes of each of its code points, increasing inside (big-endian digits).
# Bijective, total and order-preserving walk the pieces, so their cost follows the
# rows' and the tables' size, never the code space's.

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


def bijective(a: Automaton):
    """Two valid sequences of one code point (two rows, a row and a table entry, two table
    entries, a row and a counted form), or a pointer or literal form of several code
    points whose text other bytes read as too, or an encoder-only entry or a sequence the
    encoder writes whose bytes decode to something else."""
    pieces = sorted(_decoded_pieces(a), key=lambda x: (x[0], x[1]))
    top = None  # the piece reaching furthest so far
    for piece in pieces:
        if top is not None and piece[0] <= top[1]:
            cp = piece[0]
            b1, b2 = top[2](cp), piece[2](cp)
            if b1 != b2 and one_char(a, b1) == cp and one_char(a, b2) == cp:
                return False, sorted([b1, b2])
        if top is None or piece[1] > top[1]:
            top = piece
    for ext in a.extensions:
        for r in sorted(a.rows, key=lambda r: (r.first, r.last)):
            if r.last >= ext.min:
                cp = max(r.first, ext.min)
                other = counted_bytes(a, ext, cp)
                if other is not None:
                    return False, [row_bytes(a, r, cp), other]
    for x in _tables.several_values(a):
        pair = _other_spelling(a, x.code_points, x.data)
        if pair is not None:
            return False, pair
    for cps, data in sequences(a):  # what the encoder writes for a sequence must read back as it
        got = one_char(a, data)
        if got != cps:
            return False, [f"{_cps(cps)} -> {data.hex(' ').upper()}",
                           f"{data.hex(' ').upper()} -> {_shown(got)}"]
    for cp, only in a.encode_only:
        if only is None:
            continue
        got = one_char(a, only)
        if got != cp:
            return False, [f"U+{cp:04X} -> {only.hex(' ').upper()}", f"{only.hex(' ').upper()} -> {_shown(got)}"]
    return True, []


def _cps(cps: tuple[int, ...]) -> str:
    return " ".join(f"U+{c:04X}" for c in cps)


def _shown(value: int | tuple[int, ...] | None) -> str:
    """What bytes read as, in a counterexample."""
    if value is None:
        return "not one character"
    return _cps(value) if isinstance(value, tuple) else f"U+{value:04X}"


def _other_spelling(a: Automaton, cps: tuple[int, ...], data: bytes) -> list[bytes] | None:
    """[data, other bytes] where other bytes read as the text *cps* that *data* reads as:
    what the encoder writes for the text (longest match), else its code points' own bytes one
    after another (each reading back as its code point); None where there are none."""
    back = _tables.text_bytes(a, cps)
    if back is not None and back != data:
        return [data, back]
    parts = [encoded(a, cp) for cp in cps]
    if all(x is not None and one_char(a, x) == cp for x, cp in zip(parts, cps)):
        alone = b"".join(x for x in parts if x is not None)
        if alone != data:
            return [data, alone]
    return None


def _encodable(a: Automaton) -> RangeSet:
    """The code points the encoder writes something for: rows, table entries outside
    ``decode_only``, encoder-only entries, less ``unencodable`` ones."""
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


def total(a: Automaton):
    """The first code point of the code space that nothing encodes and no hole or skip
    excludes, as the counterexample.

    What is encodable and what is excluded are merged into one ``RangeSet`` (sorted
    once), so the answer is one binary search: n log n in their number, where walking
    the list of exclusions for every gap took time in proportion to its square (4,000
    one-code-point holes: 0.7 s).  A counted form covers every code point from its minimum up."""
    lo, hi = a.code_space
    covered = _encodable(a)
    both = RangeSet(list(zip(covered.los, covered.his)) + list(a.holes) + list(a.skips))
    got = both.containing(lo)
    cp = lo if got is None else got[1] + 1  # not in the set: its ranges are non-adjacent
    if hi is not None and cp > hi:
        return True, []
    if a.extensions and cp >= min(e.min for e in a.extensions):
        return True, []
    return False, [f"U+{cp:04X}"]


def order_preserving(a: Automaton):
    """All valid sequences by code point: each code point's sequences must sort after the
    last of the one below.  Pieces are increasing inside (digit alphabets are in increasing
    byte order: the parser insists), so their ends suffice, plus a piece's neighbours of
    every code point inside it, and each counted form's first levels."""
    pieces = _decoded_pieces(a)
    points = []
    for first, last, spell in pieces:
        points += [(first, spell(first)), (last, spell(last))]
    for f in _tables.table_forms(a):
        if not _tables.big_endian(f):
            for p, q, cp in _tables.form_entries(a, f):
                points += [(cp + k, _tables.spell(f, p + k)) for k in range(q - p + 1)]
    for ext in a.extensions:
        for _, _, first, last in itertools.islice(counted_levels(a, ext), 40):
            b_first, b_last = counted_bytes(a, ext, first), counted_bytes(a, ext, last)
            assert b_first is not None and b_last is not None  # a level's ends are its code points
            points += [(first, b_first), (last, b_last)]
    cps = sorted({c for c, _ in points})
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
            if one_char(a, b1) == c1 and one_char(a, b2) == c2:
                return False, [b1, b2]
    return True, []


CHECKS = {
    "prefix_free": prefix_free, "self_synchronizing": self_synchronizing,
    "order_preserving": order_preserving, "ascii_compatible": ascii_compatible,
    "bijective": bijective, "total": total,
}


def _lengths(a: Automaton) -> tuple[dict, dict]:
    """How many valid byte sequences of each length *a* reads (rows, table entries, literal
    forms), and how many of those stand for several code points."""
    lengths: dict = {}
    several: dict = {}
    for r in a.rows:
        lengths[r.length] = lengths.get(r.length, 0) + (r.last - r.first + 1)
    for f in _tables.table_forms(a):  # the pointers with an entry: each a valid sequence
        t = a.tables[f.table]
        lengths[f.length] = lengths.get(f.length, 0) + _tables.entries_count(t, 0, _tables.capacity(f) - 1)
    for x in _tables.several_values(a):
        n = len(x.data)
        if x.pointer is None:  # a literal form of several code points is no row
            lengths[n] = lengths.get(n, 0) + 1
        several[n] = several.get(n, 0) + 1
    return _sorted_lengths(lengths), several


def _sorted_lengths(lengths: dict) -> dict:
    return dict(sorted(lengths.items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))


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
    if a.modes:  # the same bytes are other characters in another mode: counted mode by mode
        for m in a.modes:
            report.mode_lengths[m.name] = _lengths(m.part)
        lengths, report.sequences = report.mode_lengths[a.modes[0].name]
        lengths = dict(lengths)
    else:
        lengths, report.sequences = _lengths(a)
    if a.extensions:
        lengths["counted"] = "unbounded"
    report.lengths = _sorted_lengths(lengths)
    if a.digit_run is not None:
        _run_properties(a, report)
    if report.properties.get("self_synchronizing") and report.max_length:
        report.worst_skip = report.max_length - 1
    return report


def _run_bytes(a: Automaton, cps: list[int]) -> bytes:
    """*cps* written in one run of digits (the opening byte, the units' digits, the last
    zero-padded, the end byte), whatever the encoder would choose."""
    r = a.digit_run
    assert r is not None
    buf = nbits = 0
    out = bytearray([r.opener])
    for cp in cps:
        units = (0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + (cp & 0x3FF)) if cp > 0xFFFF else (cp,)
        for unit in units:
            buf, nbits = (buf << r.unit_bits) | unit, nbits + r.unit_bits
            while nbits >= r.bits:
                nbits -= r.bits
                out.append(r.digits[buf >> nbits])
                buf &= (1 << nbits) - 1
    if nbits:
        out.append(r.digits[(buf << (r.bits - nbits)) & ((1 << r.bits) - 1)])
    return bytes(out) + (bytes([r.end]) if r.end is not None else b"")


def _run_properties(a: Automaton, report: Report) -> None:
    """The properties a run of digits (UTF-7's base64) decides beside the forms, each
    counterexample confirmed by the core: a run holds any code unit, has no bound on its
    length, spells again what a form spells, and reads otherwise from its second byte."""
    r = a.digit_run
    assert r is not None
    bound = bind(a)
    top = min(0x10FFFF if r.pairs else (1 << r.unit_bits) - 1, a.code_space[1] or 0x10FFFF)
    report.max_code_point = top
    report.max_length = None
    report.unbounded = True
    report.lengths["run"] = "unbounded"
    report.properties["total"] = a.code_space[1] is not None and top >= a.code_space[1]
    if not report.properties["total"]:
        report.counterexamples["total"] = [f"U+{top + 1:04X}"]
    else:
        report.counterexamples.pop("total", None)
    one, two = _run_bytes(a, [0x80]), _run_bytes(a, [0x80, 0x80])
    cut = len(one) - (r.end is not None)
    if two.startswith(one[:cut]):  # an unended run of one unit is a prefix of one of two
        report.properties["prefix_free"] = False
        report.counterexamples["prefix_free"] = [one[:cut], two[:len(two) - (r.end is not None)]]
    if bound.decode_codepoints(one[1:], "replace") != [0x80]:  # its digits alone read as other text
        report.properties["self_synchronizing"] = False
        report.counterexamples["self_synchronizing"] = [one, one[1:]]
    for row in sorted(a.rows, key=lambda row: row.first):  # a form's code point spelt again in a run
        again = _run_bytes(a, [row.first])
        if bound.decode_codepoints(again) == [row.first] and again != row_bytes(a, row, row.first):
            report.properties["bijective"] = False
            report.counterexamples["bijective"] = [row_bytes(a, row, row.first), again]
            break
    written = [(cp, bound.encode([cp])) for cp in (0x00, 0x7F, 0x80, 0xFFFF, top)]
    for (c1, b1), (c2, b2) in zip(written, written[1:]):
        if b1 > b2:
            report.properties["order_preserving"] = False
            report.counterexamples["order_preserving"] = [f"U+{c1:04X} -> {b1.hex(' ').upper()}",
                                                         f"U+{c2:04X} -> {b2.hex(' ').upper()}"]
            break
