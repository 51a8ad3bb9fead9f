"""``encspec diff``: where two encodings disagree, computed on the product of their automata.

A byte sequence is *valid* in an encoding when its automaton, run from the start
state over exactly those bytes, stops in a state that accepts a character (one
well-formed sequence).  The product automaton runs both at once; each of its
states is labelled by what each side accepts there.  Three sets come out:

- valid only in A, valid only in B: read off the product after pruning states
  that lead to no such difference and minimising it as a Moore machine (states
  with the same label and equivalent successors merge), so the patterns come out
  as compact as the language allows: ``ED A0..BF 80..BF``;
- valid in both but decoded to different code points: on each path of the
  product to a state where both accept, each side's value is an affine function
  of the bytes (digit operations ``acc * radix + byte - sub``, then an offset or a
  surrogate-pair combination); the two are compared by their constants and
  slopes, so a pattern is reported when they differ somewhere, and marked when
  they agree at some of its points.

Counted forms (``extensions``) are not compared: only the bounded automaton is
(a note says so).  Signatures are compared as bytes.

Where either spec has mapping tables (or encoder-only entries, or an error-span
policy of its own), validity is a property of the pointer, not of the state, and
the errors themselves may differ: :mod:`encspec.analyse.tablediff` then compares
the two decoders' first tokens everywhere, table entries included, and the two
encoders code point by code point (sections ``errors`` and ``encoder``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..automaton import DEAD, Automaton
from ..automaton.bytesets import byte_runs as _runs
from ..automaton.minimise import moore_blocks
from ..runtime.tables import scan, sequences
from .tables import ranges_text


@dataclass
class Pattern:
    ranges: tuple[tuple[int, int], ...]
    example: bytes
    a: int | None = None      # code point in A (None: not valid in A)
    b: int | None = None
    everywhere: bool = True      # for "different": every sequence of the pattern differs

    @property
    def text(self) -> str:
        return ranges_text(self.ranges)

    def to_json(self) -> dict:
        out = {"pattern": self.text, "example": self.example.hex(" ").upper(), "a": self.a, "b": self.b}
        if self.a is not None and self.b is not None:
            out["everywhere"] = self.everywhere
        return out


@dataclass
class Diff:
    a: str
    b: str
    only_a: list = field(default_factory=list)
    only_b: list = field(default_factory=list)
    different: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    signature: tuple[str, str] | None = None
    tables: bool = False  # compared by the table engine (tablediff): errors and encoders too
    errors: list = field(default_factory=list)  # first tokens that differ where neither is a character
    tokens: list = field(default_factory=list)  # first tokens that differ, a character shorter than the sequence in one
    encoder: dict = field(default_factory=dict)  # only_a, only_b, different: EncoderRange lists
    sequences: list = field(default_factory=list)  # SequenceDiff: texts of several code points written apart
    sequence_texts: int = 0  # how many texts of several code points either spec knows

    @property
    def equivalent(self) -> bool:
        return not (self.only_a or self.only_b or self.different or self.signature or self.errors
                    or self.tokens or any(self.encoder.values()) or self.sequences)

    def to_json(self) -> dict:
        """``diff --json``; bytes as everywhere: ``"F0 90 80 80"``, patterns ``"F0 90..BF"``,
        a side without a signature null.  Where either spec has mapping tables, patterns
        also give their ``count`` and two keys follow: ``errors`` (patterns where neither
        reads a character and their first tokens differ) and ``encoder`` (code point
        runs encodable in one only, or written differently); where either spec knows a
        text of several code points, ``encoder`` also has ``sequences`` (those texts the
        two encoders write differently: ``{"code_points", "a", "b"}``, null: no bytes)."""
        out = {
            "a": self.a, "b": self.b, "equivalent": self.equivalent,
            "only_a": [p.to_json() for p in self.only_a], "only_b": [p.to_json() for p in self.only_b],
            "different": [p.to_json() for p in self.different],
            "signature": None if self.signature is None else {k: bytes.fromhex(v).hex(" ").upper() or None
                                                              for k, v in zip("ab", self.signature)},
            "notes": list(self.notes),
        }
        if self.tables:
            out["errors"] = [p.to_json() for p in self.errors]
            out["tokens"] = [p.to_json() for p in self.tokens]
            encoder = {k: [r.to_json() for r in v] for k, v in self.encoder.items()}
            if self.sequence_texts:
                encoder["sequences"] = [x.to_json() for x in self.sequences]
            out["encoder"] = encoder
        return out


# ---------------------------------------------------------------- the product

def _char(a: Automaton, s: int) -> bool:
    return a.accepts_char(s)


def _nxt(a: Automaton, s: int, b: int) -> int:
    if s == DEAD or s >= a.n_states:
        return DEAD
    t = a.next[s][a.classes[b]]
    return DEAD if t >= a.n_states else t  # counted forms: bounded part only


def _product(a: Automaton, b: Automaton):
    """Reachable pairs (sa, sb) with at least one side alive; transitions per product class."""
    pclass: dict[tuple[int, int], int] = {}
    classes = []
    for x in range(256):
        classes.append(pclass.setdefault((a.classes[x], b.classes[x]), len(pclass)))
    reps: list[list[int]] = [[] for _ in pclass]
    for x, c in enumerate(classes):
        reps[c].append(x)
    states = [(0, 0)]
    index = {(0, 0): 0}
    trans: list[list[int]] = []
    i = 0
    while i < len(states):
        sa, sb = states[i]
        row = []
        for c in range(len(reps)):
            x = reps[c][0]
            t = (_nxt(a, sa, x), _nxt(b, sb, x))
            if t == (DEAD, DEAD):
                row.append(-1)
                continue
            if t not in index:
                index[t] = len(states)
                states.append(t)
            row.append(index[t])
        trans.append(row)
        i += 1
    return states, trans, classes, reps


def _useful(wanted: list[bool], trans: list[list[int]]) -> list[bool]:
    """The states from which a wanted state can be reached."""
    useful = list(wanted)
    changed = True
    while changed:
        changed = False
        for s in range(len(useful)):
            if not useful[s] and any(t >= 0 and useful[t] for t in trans[s]):
                useful[s] = changed = True
    return useful


def _minimise(labels: list, trans: list[list[int]]) -> list[int]:
    """Moore minimisation after pruning: block of each state (-1: leads to no label)."""
    n = len(labels)
    useful = _useful([lab is not None for lab in labels], trans)
    pruned = [[t if t >= 0 and useful[t] else -1 for t in row] if useful[s] else [-1] * len(row)
              for s, row in enumerate(trans)]
    block = moore_blocks([labels[s] if useful[s] else "useless" for s in range(n)], pruned)
    ids: dict = {}
    return [ids.setdefault(block[s], len(ids)) if useful[s] else -1 for s in range(n)]


MAX_PATTERNS = 2000


def _only(a: Automaton, b: Automaton, states, trans, reps, which: str, notes: list) -> list[Pattern]:
    """Patterns of the sequences valid in one side only (which = 'a' or 'b')."""
    labels = []
    for sa, sb in states:
        ca, cb = _char(a, sa), _char(b, sb)
        labels.append(True if (ca and not cb if which == "a" else cb and not ca) else None)
    block = _minimise(labels, trans)
    nblocks = max(block) + 1 if block else 0
    # the quotient machine: block -> {target block: bytes}
    btrans: list[dict] = [dict() for _ in range(nblocks)]
    blabel = [False] * nblocks
    rep_state: list[int | None] = [None] * nblocks
    for s, k in enumerate(block):
        if k < 0 or rep_state[k] is not None:
            continue
        rep_state[k] = s
        blabel[k] = bool(labels[s])
        for c, t in enumerate(trans[s]):
            if t >= 0 and block[t] >= 0:
                btrans[k].setdefault(block[t], []).extend(reps[c])
    start = block[0]
    out: list[Pattern] = []
    if start < 0:
        return out
    side = a if which == "a" else b

    def walk(k, ranges, stack):
        if len(out) >= MAX_PATTERNS:
            return
        if blabel[k] and ranges:
            ex = bytes(lo for lo, _ in ranges)
            cp = _decode_one(side, ex)
            out.append(Pattern(tuple(ranges), ex, a=cp if which == "a" else None, b=cp if which == "b" else None))
        _descend(sorted(btrans[k].items(), key=lambda kv: min(kv[1])), ranges, stack, notes, walk)

    walk(start, [], {start})
    if len(out) >= MAX_PATTERNS:
        notes.append(f"more than {MAX_PATTERNS} patterns valid only in {side.name}: the list is cut")
    return out


def _descend(children, ranges: list, stack: set, notes: list, walk) -> None:
    """The product walk's one step down: each (target, bytes) child in order, a byte run
    at a time, a loop back into the path noted once (reserved runs) and not followed."""
    for t, bs in children:
        if t in stack:
            if "cycle" not in notes:
                notes.append("cycle")
            continue
        for run in _runs(bs):
            walk(t, ranges + [run], stack | {t})


def _decode_one(a: Automaton, data: bytes) -> int | None:
    """The code point *data* is as one whole token (the decoder core's answer), or None."""
    tok = scan(a, data, 0)
    return tok[3] if tok[0] == "char" and tok[1] == 0 and tok[2] == len(data) else None


def _affine(a: Automaton, ranges) -> tuple[int, tuple[int, ...]] | None:
    """(constant at the low corner, slope per position) of a's value on the box, if affine."""
    low = [lo for lo, _ in ranges]
    v0 = _decode_one(a, bytes(low))
    if v0 is None:  # not one code point there: not affine
        return None
    slopes = []
    for i, (lo, hi) in enumerate(ranges):
        if hi == lo:
            slopes.append(0)
            continue
        x = list(low)
        x[i] = lo + 1
        got = _decode_one(a, bytes(x))
        if got is None:
            return None
        slopes.append(got - v0)
    # check the prediction at the high corner and at a middle point
    for pick in (lambda lo, hi: hi, lambda lo, hi: (lo + hi) // 2):
        x = [pick(lo, hi) for lo, hi in ranges]
        predicted = v0 + sum(s * (xi - lo) for s, xi, (lo, _) in zip(slopes, x, ranges))
        if _decode_one(a, bytes(x)) != predicted:
            return None
    return v0, tuple(slopes)


def _different(a: Automaton, b: Automaton, states, trans, reps, notes: list) -> list[Pattern]:
    """Patterns valid in both whose code points differ."""
    both = [_char(a, sa) and _char(b, sb) for sa, sb in states]
    useful = _useful(both, trans)
    out: list[Pattern] = []

    def key(s, c):
        sa, sb = states[s]
        x = reps[c][0]
        return (trans[s][c], a.ops[sa][a.classes[x]] if sa >= 0 else None,
                b.ops[sb][b.classes[x]] if sb >= 0 else None)

    def walk(s, ranges, stack):
        if len(out) >= MAX_PATTERNS:
            return
        if both[s] and ranges:
            fa, fb = _affine(a, ranges), _affine(b, ranges)
            if fa is None or fb is None:
                _enumerate(ranges)
            elif fa != fb:
                everywhere = fa[1] == fb[1]
                ex = _differing_point(a, b, ranges)
                out.append(Pattern(tuple(ranges), ex, _decode_one(a, ex), _decode_one(b, ex), everywhere))
        groups: dict = {}
        for c, t in enumerate(trans[s]):
            if t >= 0 and useful[t]:
                groups.setdefault(key(s, c), []).extend(reps[c])
        _descend([(t, bs) for (t, _, _), bs in sorted(groups.items(), key=lambda kv: min(kv[1]))],
                 ranges, stack, notes, walk)

    def _enumerate(ranges):
        """A value that is not affine on the box (no built-in spec has one): try every point
        of a small box; report a large one as differing somewhere, with a note."""
        size = 1
        for lo, hi in ranges:
            size *= hi - lo + 1
        if size > 1 << 16:
            ex = bytes(lo for lo, _ in ranges)
            out.append(Pattern(tuple(ranges), ex, _decode_one(a, ex), _decode_one(b, ex), False))
            notes.append("values not compared point by point on " + out[-1].text)
            return
        differ = []
        for point in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges)):
            x = bytes(point)
            if _decode_one(a, x) != _decode_one(b, x):
                differ.append(x)
        if differ:
            ex = differ[0]
            out.append(Pattern(tuple(ranges), ex, _decode_one(a, ex), _decode_one(b, ex), len(differ) == size))

    walk(0, [], {0})
    return out


def _differing_point(a: Automaton, b: Automaton, ranges) -> bytes:
    for pick in (lambda lo, hi: lo, lambda lo, hi: hi, lambda lo, hi: (lo + hi) // 2):
        x = bytes(pick(lo, hi) for lo, hi in ranges)
        if _decode_one(a, x) != _decode_one(b, x):
            return x
    fa, fb = _affine(a, ranges), _affine(b, ranges)
    assert fa is not None and fb is not None  # the caller found both affine
    # move along the first position whose slopes differ
    low = [lo for lo, _ in ranges]
    for i, (lo, _hi) in enumerate(ranges):
        if fa[1][i] != fb[1][i]:
            y = list(low)
            y[i] = lo + 1
            return bytes(y)
    return bytes(low)


def _merge(patterns: list[Pattern]) -> list[Pattern]:
    """Join patterns equal but for adjacent ranges in one position (same kind of difference)."""
    changed = True
    while changed:
        changed = False
        for i, p in enumerate(patterns):
            for j in range(i + 1, len(patterns)):
                q = patterns[j]
                if len(p.ranges) != len(q.ranges) or p.everywhere != q.everywhere:
                    continue
                diffs = [k for k, (x, y) in enumerate(zip(p.ranges, q.ranges)) if x != y]
                if len(diffs) == 1:
                    k = diffs[0]
                    (l1, h1), (l2, h2) = p.ranges[k], q.ranges[k]
                    if h1 + 1 == l2 or h2 + 1 == l1:
                        merged = list(p.ranges)
                        merged[k] = (min(l1, l2), max(h1, h2))
                        first = p if l1 < l2 else q
                        patterns[i] = Pattern(tuple(merged), first.example, first.a, first.b,
                                              p.everywhere and q.everywhere)
                        del patterns[j]
                        changed = True
                        break
            if changed:
                break
    return patterns


def _uses_tables(a: Automaton, b: Automaton) -> bool:
    """Whether the table engine compares *a* and *b*: the product walk here reads each
    value as affine in the bytes, which a table, an encoder-only entry or a form of
    several code points is not."""
    from .tables import has_tables, several_values
    return (has_tables(a) or has_tables(b) or bool(a.encode_only) or bool(b.encode_only)
            or a.error_span != b.error_span or tuple(a.restore) != tuple(b.restore)
            or bool(sequences(a) or sequences(b) or several_values(a) or several_values(b)))


def table_diff(a: Automaton, b: Automaton) -> Diff:
    """The table engine (:mod:`encspec.analyse.tablediff`): every first token that differs."""
    from . import tablediff
    out = Diff(a.name, b.name, tables=True)
    found = tablediff.walk(a, b)
    pats = tablediff.patterns(a, b, found)
    out.only_a, out.only_b, out.different, out.errors, out.tokens = (
        pats["only_a"], pats["only_b"], pats["different"], pats["errors"], pats["tokens"])
    out.encoder = tablediff.encoder_diff(a, b)
    out.sequence_texts, out.sequences = tablediff.sequence_diff(a, b)
    if a.signature != b.signature:
        out.signature = (a.signature.hex().upper(), b.signature.hex().upper())
    notes = []
    if "ext" in found.notes:
        notes.append("counted forms of unbounded length: only the bounded automaton is compared "
                     "(bounded part only)")
    for note in found.notes:
        if isinstance(note, tuple) and note[0] == "pointwise":
            shown = ranges_text(note[1])
            notes.append(f"values not compared point by point on {shown}: reported as differing throughout")
    if "units" in found.notes:
        notes.append("code units wider than a byte: errors are not compared, only valid sequences and encoders")
    if "depth" in found.notes:
        notes.append(f"sequences longer than {tablediff.MAX_DEPTH} bytes (reserved runs) are not followed further")
    out.notes = notes
    return out


def diff(a: Automaton, b: Automaton):
    """Run *a* and *b* at once: the byte patterns valid in only one of them, and those
    valid in both but decoded differently (``encspec diff``).  Where either has mapping
    tables, an error-span policy of its own or encoder-only entries, the table engine
    compares everything the decoders and encoders do (:func:`table_diff`); where either
    has modes, they are compared mode by mode (:mod:`encspec.analyse.modediff`)."""
    if a.modes or b.modes:
        from .modediff import modal_diff
        return modal_diff(a, b)
    if _uses_tables(a, b):
        return table_diff(a, b)
    out = Diff(a.name, b.name)
    states, trans, _, reps = _product(a, b)
    notes: list = []
    order = lambda ps: sorted(ps, key=lambda p: p.ranges)  # noqa: E731
    out.only_a = order(_merge(_only(a, b, states, trans, reps, "a", notes)))
    out.only_b = order(_merge(_only(a, b, states, trans, reps, "b", notes)))
    out.different = order(_merge(_different(a, b, states, trans, reps, notes)))
    if a.signature != b.signature:
        out.signature = (a.signature.hex().upper(), b.signature.hex().upper())
    for x in (a, b):
        if x.extensions:
            forms = ", ".join(e.form for e in x.extensions)
            notes.append(f"{x.name} has counted forms ({forms}) of unbounded length: "
                         f"only the bounded automaton is compared (bounded part only)")
    if "cycle" in notes:
        notes.remove("cycle")
        notes.append("the product has loops (reserved runs): patterns list each loop once")
    out.notes = notes
    return out


def _cp(v: int | None) -> str:
    return "-" if v is None else f"U+{v:04X}"


SHOWN = 24  # patterns (and encoder runs) listed per section; --json lists every one


def _n(k: int) -> str:
    return f"{k:,}"


def _value(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, tuple):
        return "+".join(f"U+{c:04X}" for c in v)
    if isinstance(v, str):
        return v
    return f"U+{v:04X}"


def _table_text(d: Diff) -> str:
    if d.equivalent:
        return (f"{d.a} and {d.b} are equivalent: the same valid byte sequences, decoded alike, "
                "the same errors and the same encoders")
    pats = {"only_a": d.only_a, "only_b": d.only_b, "different": d.different, "errors": d.errors,
            "tokens": d.tokens}
    lines = _decoder_lines(d.a, d.b, pats) + _encoder_lines(d.a, d.b, d.encoder)
    if d.sequence_texts:
        lines += _sequence_lines(d)
    return "\n".join(lines + _tail_lines(d))


def _decoder_lines(a: str, b: str, pats: dict, indent: str = "", quiet: bool = False) -> list[str]:
    """The table engine's pattern sections (*quiet*: only those with patterns)."""
    lines: list[str] = []

    def section(title, found, what):
        if quiet and not found:
            return
        total = sum(p.count for p in found)
        lines.append(f"{indent}{title}: {_n(total)} sequence{'s' if total != 1 else ''} in "
                     f"{_n(len(found))} pattern{'s' if len(found) != 1 else ''}")
        shown = sorted(found, key=lambda p: (-p.count, p.ranges))[:SHOWN]
        shown.sort(key=lambda p: (len(p.ranges), p.ranges))
        width = max([len(p.text) for p in shown] + [0])
        cw = max([len(_n(p.count)) for p in shown] + [0])
        for p in shown:
            lines.append(f"{indent}  {p.text.ljust(width)}  {_n(p.count).rjust(cw)}  {what(p)}")
        if len(found) > len(shown):
            rest = found and sum(p.count for p in found) - sum(p.count for p in shown)
            lines.append(f"{indent}  … {_n(len(found) - len(shown))} more patterns ({_n(rest)} sequences): "
                         "--json lists all")

    ex = lambda p: p.example.hex(" ").upper()  # noqa: E731
    section(f"valid only in {a}", pats["only_a"], lambda p: f"e.g. {ex(p)} = {_value(p.a)}")
    section(f"valid only in {b}", pats["only_b"], lambda p: f"e.g. {ex(p)} = {_value(p.b)}")
    section(f"valid in both, decoded differently ({a} / {b})", pats["different"],
            lambda p: (f"{_value(p.a)} / {_value(p.b)}" if p.count == 1 else
                       f"e.g. {ex(p)} = {_value(p.a)} / {_value(p.b)}")
            + ("" if p.key[1] in ("varies", "several") or p.count == 1 else
               f"  (throughout A - B = {'-' if p.key[1] < 0 else ''}0x{abs(p.key[1]):X})"))
    section(f"ill-formed in both, errors differ ({a} / {b})", pats["errors"],
            lambda p: f"e.g. {ex(p)}: {p.a} / {p.b}" + ("  (where the data ends)" if p.end else ""))
    if pats.get("tokens"):
        section(f"a character in one, another token in the other ({a} / {b})", pats["tokens"],
                lambda p: f"e.g. {ex(p)}: {p.a} / {p.b}" + ("  (where the data ends)" if p.end else ""))
    if pats.get("shifts"):
        section(f"a shift in one, something else in the other ({a} / {b})", pats["shifts"],
                lambda p: f"e.g. {ex(p)}: {p.a} / {p.b}" + ("  (where the data ends)" if p.end else ""))
    return lines


def _encoder_lines(a: str, b: str, enc: dict, indent: str = "") -> list[str]:
    """The encoder sections: runs of code points encodable in one only, or written differently."""
    lines: list[str] = []
    for kind, title in (("only_a", f"encodable only in {a}"), ("only_b", f"encodable only in {b}"),
                        ("different", f"encoded differently ({a} / {b})")):
        runs = enc.get(kind, [])
        total = sum(r.count for r in runs)
        lines.append(f"{indent}{title}: {_n(total)} code point{'s' if total != 1 else ''} in "
                     f"{_n(len(runs))} run{'s' if len(runs) != 1 else ''}")
        shown = sorted(runs, key=lambda r: (-r.count, r.first))[:SHOWN]
        shown.sort(key=lambda r: r.first)
        for r in shown:
            cps = f"U+{r.first:04X}" + (f"..U+{r.last:04X}" if r.last > r.first else "")
            a_ = "-" if r.a is None else r.a.hex(" ").upper()
            b_ = "-" if r.b is None else r.b.hex(" ").upper()
            lines.append(f"{indent}  {cps.ljust(17)} {_n(r.count).rjust(9)}  {'e.g. ' if r.count > 1 else ''}"
                         f"{a_} / {b_}")
        if len(runs) > len(shown):
            lines.append(f"{indent}  … {_n(len(runs) - len(shown))} more runs: --json lists all")
    return lines


def _modal_text(d) -> str:
    """A :class:`~encspec.analyse.modediff.ModalDiff` as ``encspec diff`` prints it."""
    if d.equivalent:
        return (f"{d.a} and {d.b} are equivalent: in every pair of modes the same bytes reach, the same "
                "tokens (shifts, characters, errors), and the same encoders")
    lines = [f"modes compared: {len(d.pairs)} pair{'s' if len(d.pairs) != 1 else ''} the same bytes reach "
             f"({d.a} / {d.b})"]
    for p in d.pairs:
        after = "where the data starts" if not p.after else f"after {p.after.hex(' ').upper()}"
        if p.equivalent:
            lines.append(f"in {p.a} / {p.b} ({after}): the same tokens")
            continue
        lines.append(f"in {p.a} / {p.b} ({after}):")
        lines += _decoder_lines(d.a, d.b, p.patterns, "  ", quiet=True)
    lines.append("the encoders, each code point alone in a text (its shifts, and the shift home, included):")
    lines += _encoder_lines(d.a, d.b, d.encoder, "  ")
    return "\n".join(lines + [f"note: {n}" for n in d.notes])


def _sequence_lines(d: Diff) -> list[str]:
    """The texts of several code points the two encoders write differently, each whole."""
    n = d.sequence_texts
    lines = [f"sequences of code points encoded differently ({d.a} / {d.b}): {_n(len(d.sequences))} of "
             f"{_n(n)} sequence{'s' if n != 1 else ''}"]
    shown = [(" ".join(f"U+{c:04X}" for c in x.code_points), x) for x in d.sequences[:SHOWN]]
    width = max([len(t) for t, _ in shown] + [0])
    for t, x in shown:
        a_ = "-" if x.a is None else x.a.hex(" ").upper()
        b_ = "-" if x.b is None else x.b.hex(" ").upper()
        lines.append(f"  {t.ljust(width)}  {a_} / {b_}")
    if len(d.sequences) > len(shown):
        lines.append(f"  … {_n(len(d.sequences) - len(shown))} more sequences: --json lists all")
    return lines


def _tail_lines(d: Diff) -> list[str]:
    """The signature line and the notes, last in both reports."""
    lines = []
    if d.signature is not None:
        sa, sb = d.signature
        lines.append(f"signature: {d.a} {' '.join(sa[i:i + 2] for i in range(0, len(sa), 2)) or 'none'}, "
                     f"{d.b} {' '.join(sb[i:i + 2] for i in range(0, len(sb), 2)) or 'none'}")
    return lines + [f"note: {n}" for n in d.notes]


def text(d) -> str:
    """*d* (a :class:`Diff`, or a modal one) as ``encspec diff`` prints it."""
    if not isinstance(d, Diff):
        return _modal_text(d)
    if d.tables:
        return _table_text(d)
    lines = []
    if d.equivalent:
        lines.append(f"{d.a} and {d.b} are equivalent: the same valid byte sequences, decoded alike")
    for title, pats, show in ((f"valid only in {d.a}", d.only_a, "a"), (f"valid only in {d.b}", d.only_b, "b"),
                              (f"valid in both, decoded differently ({d.a} / {d.b})", d.different, "ab")):
        if not pats and d.equivalent:
            continue
        lines.append(f"{title}: {len(pats)} pattern{'s' if len(pats) != 1 else ''}")
        width = max([len(p.text) for p in pats] + [0])
        for p in pats:
            ex = p.example.hex(" ").upper()
            if show == "ab":
                what = f"e.g. {ex} = {_cp(p.a)} / {_cp(p.b)}" + ("" if p.everywhere else "  (some agree)")
            else:
                what = f"e.g. {ex} = {_cp(p.a if show == 'a' else p.b)}"
            lines.append(f"  {p.text.ljust(width)}   {what}")
    return "\n".join(lines + _tail_lines(d))
