"""The encoder as data: one description every export language renders (issue 28).

The core's encoder (:mod:`encspec.runtime.core`, ``_encode_cp``) consults, in
order, the encoder-only entries, the rows (bisected by code point), the counted
forms and the table forms (the first whose table has a pointer).  Here those
layers are merged once into disjoint runs of code points, each saying how its
code points become bytes, so that an export's engine is one binary search and
one digit writer, whatever the spec says.  The engines stay the core's port:
the bytes of a run marked ``verify`` count only if the export's own decoder
reads them back as that code point, as ``_encode_cp`` checks.

Exported encoders take code points as unsigned 32-bit values.  A counted form
whose code points start below 2**32 would need the core's big-integer search
(``_counted_find``) in every language: its code points are a run of kind
``counted``, which an engine reports as an error with :data:`COUNTED_REASON`, as
the exported decoders report a counted form beyond their limits (no built-in has
one: UTF-∞-8's start at 2**71).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from ..automaton import Automaton
from ..automaton.forms import CompositeForm, DigitsForm, LiteralForm
from ..runtime import tables as core_tables

CODE_POINT_LIMIT = 0xFFFFFFFF  # what an exported encoder's code points hold
COUNTED_REASON = "counted form beyond this encoder's limits"
PAIR_REASON = ("a trail surrogate code point after a lead surrogate code point: "
               "the two would read back as one supplementary code point")


@dataclass(frozen=True)
class Run:
    """Code points first..last and how each becomes bytes (see the module's text).

    kind ``bytes``: *literal* for the code point; ``none``: unencodable;
    ``counted``: a counted form's, an error with COUNTED_REASON;
    ``digits``: the digits of ``cp - a``; ``pair``: a UTF-16 surrogate pair, each
    half ``0xD800/0xDC00 + bits - a`` in the digits of *positions*; ``pointer``: the
    digits of pointer ``cp + a``.  *positions* and *order* index
    :attr:`Encoder.positions` and :attr:`Encoder.orders` (order -1: byte order)."""

    first: int
    last: int
    kind: str
    a: int = 0
    positions: int = -1
    order: int = -1
    literal: bytes = b""
    verify: bool = True


@dataclass(frozen=True)
class Encoder:
    name: str
    runs: tuple[Run, ...]
    positions: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    orders: tuple[tuple[int, ...], ...]
    sequences: tuple[tuple[tuple[int, ...], bytes], ...]  # longest first per starter; intermediate bytes
    signature: bytes
    writes_signature: bool  # encode(text) writes the signature unless told not to (byte order marks)
    permutation: bytes | None  # `bytes through`: every byte written goes through it last
    pair_reads_as_one: bool
    pair_on_encode: bool
    pair_reason: str
    group_runs: bool  # an error covers a run of unencodable code points (else one)
    unencodable: str | None  # the spec's reason; None: the core's two defaults
    undecodable: bool  # no decoder to verify with: runs are not verified
    max_code_point: int | None

    @property
    def starters(self) -> tuple[int, ...]:
        return tuple(sorted({cps[0] for cps, _ in self.sequences}))

    def run_bytes(self, r: Run) -> int:
        """The most bytes one code point of run *r* is written as (0: none)."""
        if r.kind == "bytes":
            return len(r.literal)
        if r.kind in ("digits", "pointer"):
            return len(self.positions[r.positions])
        if r.kind == "pair":
            return 2 * len(self.positions[r.positions])
        return 0

    @property
    def most_run_bytes(self) -> int:
        """The most bytes one code point's run writes (an engine's scratch buffer), at least 1."""
        return max([1] + [self.run_bytes(r) for r in self.runs])

    @property
    def most_bytes(self) -> int:
        """The most bytes one code point or one sequence of code points is written as."""
        return max([self.most_run_bytes] + [len(b) for _, b in self.sequences])

    def past_engines(self, cps) -> bool:
        """Whether the exported engines answer *cps* otherwise than the core, by design: a code
        point past 32 bits, or one in a counted run (COUNTED_REASON).  Package tests skip them."""
        return any(cp > CODE_POINT_LIMIT or ((r := self.run_of(cp)) is not None and r.kind == "counted")
                   for cp in cps)

    def run_of(self, cp: int) -> Run | None:
        """The run holding *cp*: what an engine's binary search finds."""
        k = bisect_right([r.first for r in self.runs], cp) - 1
        return self.runs[k] if k >= 0 and cp <= self.runs[k].last else None


class _Pool:
    """Positions and orders, each stored once."""

    def __init__(self) -> None:
        self.positions: dict[tuple, int] = {}
        self.orders: dict[tuple, int] = {}

    def position(self, p) -> int:
        key = tuple(tuple(tuple(r) for r in runs) for runs in p)
        return self.positions.setdefault(key, len(self.positions))

    def order(self, o) -> int:
        return -1 if o is None else self.orders.setdefault(tuple(o), len(self.orders))


def _row_runs(a: Automaton, pool: _Pool, leaving: frozenset = frozenset()) -> list[Run]:
    out = []
    for r in a.encoding_rows():
        if r.form in leaving:
            continue
        form = a.forms[r.form]
        if isinstance(form, LiteralForm):
            out += [Run(cp, cp, "bytes", literal=bytes(form.bytes)) for cp in range(r.first, r.last + 1)]
        elif isinstance(form, CompositeForm):
            sub = a.forms[form.sub]
            assert isinstance(sub, DigitsForm)  # a composite form is a pair of one digits form
            out.append(Run(r.first, r.last, "pair", sub.at, pool.position(sub.positions)))
        else:
            assert isinstance(form, DigitsForm)  # rows come from digits, literal and composite forms
            out.append(Run(r.first, r.last, "digits", r.offset, pool.position(form.positions), pool.order(form.order)))
    return out


def _linear(pairs: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(first, last, pointer - code point) runs of sorted (code point, pointer) pairs."""
    out: list[list[int]] = []
    for cp, p in pairs:
        if out and out[-1][1] == cp - 1 and out[-1][2] == p - cp:
            out[-1][1] = cp
        else:
            out.append([cp, cp, p - cp])
    return [(x[0], x[1], x[2]) for x in out]


def _skipped(p: int, skip) -> bool:
    return any(lo <= p <= hi for lo, hi in skip)


def table_runs(a: Automaton, k: int) -> list[tuple[int, int, int]]:
    """Table *k*'s encoder map as (first, last, pointer - code point) runs: exactly the
    core's ``_table_pointer`` (decode-only pointers left out; a ranges table's run is
    found by its first code point, its overrides first)."""
    t = a.tables[k]
    if not t.ranges:
        return _linear(sorted(core_tables.table_inverse(a, k).items()))
    over = {p: v for p, v in t.overrides if isinstance(v, int)}  # a ranges table's overrides are single
    runs = sorted(zip(t.firsts, t.starts, t.lasts))
    pieces: list[tuple[int, int, int]] = []  # (first, last, pointer - code point): the run bisect finds
    for i, (first, start, last) in enumerate(runs):
        end = first + last - start
        if i + 1 < len(runs):
            end = min(end, runs[i + 1][0] - 1)
        if end >= first:
            pieces.append((first, end, start - first))
    # taken away: pointers an override gives another code point, decode-only pointers,
    # and the overrides' own code points (looked up first)
    by_cp = {v: p for p, v in over.items()}
    gone: list[tuple[int, int]] = [(v, v) for v in by_cp]
    for first, end, delta in pieces:
        gone += [(p - delta, p - delta) for p, v in over.items() if first + delta <= p <= end + delta and v != p - delta]
        gone += [(max(lo, first + delta) - delta, min(hi, end + delta) - delta) for lo, hi in t.decode_only
                 if max(lo, first + delta) <= min(hi, end + delta)]
    gone = _union([], gone)
    out = [(lo, hi, delta) for first, end, delta in pieces for lo, hi in _cut(gone, first, end)]
    out += [(v, v, p - v) for v, p in by_cp.items() if not _skipped(p, t.decode_only)]
    out.sort()
    return _merge_linear(out)


def _merge_linear(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for r in runs:
        if out and out[-1][1] == r[0] - 1 and out[-1][2] == r[2]:
            out[-1] = (out[-1][0], r[1], r[2])
        else:
            out.append(r)
    return out


def _overlay(layers: list[list[Run]]) -> tuple[Run, ...]:
    """The runs of *layers* (each disjoint and sorted), the first layer holding a code
    point winning it, cut and merged into one disjoint sorted list."""
    taken: list[tuple[int, int]] = []  # disjoint, sorted: code points already decided
    out: list[Run] = []
    for layer in layers:
        free: list[Run] = []
        for r in layer:
            free += [Run(lo, hi, r.kind, r.a, r.positions, r.order, r.literal, r.verify)
                     for lo, hi in _cut(taken, r.first, r.last)]
        out += free
        taken = _union(taken, [(r.first, r.last) for r in free])
    return tuple(sorted(out, key=lambda r: r.first))


def _cut(taken: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """The parts of lo..hi outside *taken*."""
    out = []
    k = max(0, bisect_right(taken, (lo, 1 << 80)) - 1)
    cur = lo
    while k < len(taken) and taken[k][0] <= hi:
        a, b = taken[k]
        if b >= cur:
            if a > cur:
                out.append((cur, a - 1))
            cur = max(cur, b + 1)
        k += 1
    if cur <= hi:
        out.append((cur, hi))
    return out


def _union(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for lo, hi in sorted(a + b):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [(x[0], x[1]) for x in out]


def encoder(a: Automaton, leaving: frozenset = frozenset()) -> Encoder:
    """The encoder of *a* as data; *leaving*: forms it never writes (a mode's forms that
    leave it, `-> MODE`, as the core's mode encoders leave them out: tables.mode_values)."""
    pool = _Pool()
    only = [Run(cp, cp, "none" if b is None else "bytes", literal=b"" if b is None else bytes(b), verify=False)
            for cp, b in sorted(dict(a.encode_only).items())]
    layers = [only, _row_runs(a, pool, leaving)]
    layers += [[Run(max(e.min, e.offset), CODE_POINT_LIMIT, "counted", k, verify=False)]
               for k, e in enumerate(a.extensions) if max(e.min, e.offset) <= CODE_POINT_LIMIT]
    for f in a.table_forms():
        if f.name in leaving:
            continue
        p, o = pool.position(f.positions), pool.order(f.order)
        layers.append([Run(lo, hi, "pointer", d, p, o) for lo, hi, d in table_runs(a, f.table)])
    runs = tuple(r for r in _overlay(layers) if r.first <= CODE_POINT_LIMIT)
    runs = tuple(r if r.last <= CODE_POINT_LIMIT else Run(r.first, CODE_POINT_LIMIT, r.kind, r.a, r.positions,
                                                          r.order, r.literal, r.verify) for r in runs)
    seqs = tuple(sorted(((tuple(c), bytes(b)) for c, b in a.sequences), key=lambda s: (s[0][0], -len(s[0]), s[0])))
    return Encoder(
        name=a.name, runs=runs, positions=tuple(pool.positions), orders=tuple(pool.orders), sequences=seqs,
        signature=bytes(a.signature), writes_signature=any(k for _, k in a.signatures),
        permutation=None if a.permutation is None else bytes(a.permutation),
        pair_reads_as_one=core_tables.pair_reads_as_one(a), pair_on_encode=bool(a.pair_on_encode),
        pair_reason=PAIR_REASON, group_runs=a.unit == 1 and a.error_span == "maximal-subpart",
        unencodable=a.reasons.unencodable, undecodable=bool(a.undecodable), max_code_point=a.max_code_point)


def digits(e: Encoder, positions: int, raw: int, order: int = -1) -> bytes:
    """The bytes of *raw* in the mixed radix of ``e.positions[positions]``: the core's
    digit writer, which every engine spells."""
    return core_tables.digits_bytes(e.positions[positions], raw, None if order < 0 else e.orders[order])


def proposed(e: Encoder, cp: int) -> tuple[bytes | None, bool]:
    """(bytes the runs give *cp* before verification, whether to verify): the reference
    for the engines' run walk."""
    r = e.run_of(cp)
    if r is None or r.kind in ("none", "counted"):
        return None, False
    if r.kind == "bytes":
        return r.literal, r.verify
    if r.kind == "pair":
        v = cp - 0x10000
        return (digits(e, r.positions, 0xD800 + (v >> 10) - r.a)
                + digits(e, r.positions, 0xDC00 + (v & 0x3FF) - r.a)), True
    raw = cp + r.a if r.kind == "pointer" else cp - r.a
    return digits(e, r.positions, raw, r.order), True


@dataclass(frozen=True)
class ModeChoice:
    """The encoder's modes as data (issue 31), neutral without modes (one mode, no shifts).

    ``encoder``: every mode's runs one after another (mode k's are runs[run_from[k] ..
    run_from[k + 1] - 1], each part sorted and disjoint; positions and orders pooled),
    with the whole spec's other fields; ``starts[k]``: the decoder's start state that
    checks mode k's bytes; ``shifts[m][k]``: the shortest shift bytes from mode m into
    mode k (b"" into itself, None: none); ``order``: the modes the encoder writes in, by
    preference; ``sticky``: it stays in the current mode while that holds the next code
    point; ``cheapest``: of the modes that hold it, the one the shifts reach with the
    fewest bytes; ``ends``: the modes a text may end in (the cheapest shift home ends
    it); ``unencodable[m]``: the mode it shifts to before a code point it cannot write
    (-1: none).  The core's _encode_in_mode, _before_unencodable and _flush read it."""

    encoder: Encoder
    run_from: tuple[int, ...]
    starts: tuple[int, ...]
    shifts: tuple[tuple[bytes | None, ...], ...]
    order: tuple[int, ...]
    sticky: bool
    cheapest: bool
    ends: tuple[int, ...]
    unencodable: tuple[int, ...]

    def mode_runs(self, k: int) -> tuple[Run, ...]:
        return self.encoder.runs[self.run_from[k]:self.run_from[k + 1]]


def mode_choice(a: Automaton) -> ModeChoice:
    """The encoder of *a* with its modes as data (one mode, "no shifts", without)."""
    whole = encoder(a)
    if not a.modes:
        return ModeChoice(whole, (0, len(whole.runs)), (0,), ((b"",),), (0,), False, False, (0,), (-1,))
    runs: list[Run] = []
    positions: list = []
    orders: list = []
    run_from = [0]
    for m in a.modes:
        e = encoder(m.part, frozenset(m.leaving))
        runs += [Run(r.first, r.last, r.kind, r.a, r.positions + len(positions) if r.positions >= 0 else -1,
                     r.order + len(orders) if r.order >= 0 else -1, r.literal, r.verify) for r in e.runs]
        positions += e.positions
        orders += e.orders
        run_from.append(len(runs))
    joined = Encoder(**{**whole.__dict__, "runs": tuple(runs), "positions": tuple(positions),
                        "orders": tuple(orders)})
    return ModeChoice(joined, tuple(run_from), tuple(m.start for m in a.modes),
                      tuple(m.shifts for m in a.modes), tuple(a.encode_modes), a.sticky, a.cheapest,
                      tuple(a.encode_end), tuple(-1 if m.unencodable is None else m.unencodable for m in a.modes))
