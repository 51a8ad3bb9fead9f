"""``encspec diff`` for specs with mapping tables: every way two decoders part, compactly.

The product of the two scanners is walked from a token start over byte ranges,
each side's state kept as the decoder core keeps it (``runtime/core.py``, ``_run``):
running (its state and its last accepting length) or done (the token it will
give).  A node of the walk is a *box* of byte ranges, one per position, on which
both sides pass through the same states with the same digit operations, so each
side's accumulated value (the raw value, or a table form's pointer) is affine on
the box.  At each node both sides' first token is known as a function of the
point — the data ending there, or for any continuation once both are done:

* a token of fixed kind and length (an error by the side's error-span policy, a
  reserved run, an ill-formed pattern, a fixed code point);
* a character whose value is linear in the point (a linear form);
* a table lookup: the code point of the pointer, or an error where the table has
  no entry (its span again by the policy).

The box is cut into segments on which both sides' values run through
consecutive raw values (or stay put), and each segment is compared piece by
piece of the tables (:func:`encspec.analyse.tables.pieces`): runs of consecutive
code points compare in one step, index arrays entry by entry, so the cost is the
size of the tables, not of the byte space (gb18030's 1.6 million four-byte
sequences are a few hundred runs).  Each point falls into one of:

* ``only_a`` / ``only_b``: the box's bytes, as the whole data, are one character
  in one side only;
* ``different``: one character in both, two values (grouped where they differ
  alike: the same difference between the two code points);
* ``errors``: neither reads a character there and their first tokens differ in
  kind or extent (``81 A0``: WHATWG's one two-byte error, CPython's two one-byte
  errors), either whatever follows or where the data ends (``end``).

Every input on which the two decoders' tokens differ has, at its first differing
token, one of these patterns (a byte sequence valid in one side only, decoded
differently, or erring differently): tests/test_diff_tables.py checks it on every
input of one and two bytes.  The encoders are compared code point by code point
in runs (:func:`encoder_diff`), and the texts of several code points either spec
knows (a table entry's, a sequence its encoder writes) text by text
(:func:`sequence_diff`).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from math import prod
from typing import Any

from ..automaton import DEAD, Automaton
from ..automaton.actions import Error, Lookup, Pair, Reserved, Shift, Value
from ..automaton.forms import DigitsForm
from ..automaton.mapping import NONE
from ..automaton.ranges import split
from ..runtime.tables import digits_bytes, row_bytes, sequences, start_after, table_inverse, table_pointer, tokens
from ..spec.model import RangeSet
from . import tables as _tables

MAX_DEPTH = 12  # positions walked beyond the longest sequence (reserved runs loop)


# ------------------------------------------------------------------ patterns
@dataclass
class TPattern:
    """A box of bytes where the two decoders differ alike."""

    ranges: tuple[tuple[int, int], ...]
    key: tuple  # ("only_a",) | ("only_b",) | ("different", delta) | ("errors", kA, nA, kB, nB, end)
    example: bytes = b""
    a: object = None  # the example's value (code point, or a token's description) in A
    b: object = None
    count: int = 0

    @property
    def text(self) -> str:
        return _tables.ranges_text(self.ranges)

    @property
    def end(self) -> bool:
        return self.key[0] in ("errors", "shifts", "tokens") and self.key[5]

    @property
    def everywhere(self) -> bool:
        return True

    def to_json(self) -> dict:
        out = {"pattern": self.text, "example": self.example.hex(" ").upper(), "a": _json_value(self.a),
               "b": _json_value(self.b), "count": self.count}
        if self.key[0] == "different":
            out["everywhere"] = True
        if self.key[0] in ("errors", "shifts", "tokens"):
            out["end"] = bool(self.key[5])
        return out


def _json_value(v):
    if isinstance(v, tuple):
        return list(v)
    return v


# ------------------------------------------------------------------ statuses
# A side's status: ("run", state, last) with last None or (length, action index);
# ("done", token) with token ("acc", length, action index) or ("err", length);
# ("ext",) inside a counted form (not compared).


def _restores(a: Automaton) -> bytes:
    out = bytearray(256)
    for lo, hi in a.restore:
        out[lo:hi + 1] = b"\x01" * (hi - lo + 1)
    return bytes(out)


class _Side:
    def __init__(self, a: Automaton):
        self.a = a
        self.span = a.error_span
        self.restore = _restores(a) if a.error_span == "through-failing-byte" else bytes(256)
        self.through = a.error_span == "through-failing-byte"

    def step(self, status, c: int, d: int, rflags: list) -> tuple:
        """The status after reading a byte of class *c* at position *d*; *rflags*: the
        restore flag of every position so far, this one included."""
        if status[0] != "run":
            return status
        _, s, last = status
        a = self.a
        t = a.next[s][c]
        if t >= a.n_states:
            return ("ext",)
        if t == DEAD:
            if last is not None:
                return ("done", ("acc",) + last)
            if self.span == "one-unit":
                return ("done", ("err", 1))
            if self.through:
                return ("done", ("err", _cut(rflags, d + 1)))
            return ("done", ("err", max(d, 1)))
        if a.accept[t] is not None:
            last = (d + 1, a.accept[t])
            if a.final(t):
                return ("done", ("acc",) + last)
        return ("run", t, last)

    def at_end(self, status, depth: int) -> tuple | None:
        """The token where the data ends after *depth* bytes."""
        if status[0] != "run":
            return status[1] if status[0] == "done" else None
        _, s, last = status
        if self.a.at_end and self.a.at_end[s] is not None:
            return ("acc", depth, self.a.at_end[s])
        if last is None:
            return ("err", depth)
        return ("acc",) + last


def _cut(rflags: list, end: int) -> int:
    """The error's length from a token start reaching *end*, cut before the first restored byte after its first."""
    for j in range(1, end):
        if rflags[j]:
            return j
    return end


# ------------------------------------------------------------------ token functions
# A side's first token over a box, as a function of the point:
#   ("tok", kind, length, value)           fixed
#   ("lin", length, offset, c, slopes)     a character: acc + offset
#   ("look", length, table, miss, c, slopes)  table lookup; miss: the error's length where unmapped
#   ("pair", length, action, c, slopes)    a surrogate pair (pointwise)
#   None                                    not compared (counted form)

def _token_fn(side: _Side, tok, ops: list, rflags: list):
    if tok is None:
        return None
    if tok[0] == "err":
        return ("tok", "error", tok[1], None)
    _, L, k = tok
    act = side.a.actions[k]
    if isinstance(act, Error) or isinstance(act, Shift) and act.reason:
        return ("tok", "error", L, None)
    if isinstance(act, Shift):  # which mode it enters is the pairing's business (modediff)
        return ("tok", "shift", L, None)
    if isinstance(act, Reserved):
        return ("tok", "reserved", L, None)
    if isinstance(act, Value):
        return ("tok", "char", L, act.value)
    c, slopes = _affine(ops[:L])
    if isinstance(act, Lookup):
        miss = 1 if side.span == "one-unit" else _cut(rflags, L) if side.through else L
        return ("look", L, side.a.tables[act.table], miss, c, slopes)
    if isinstance(act, Pair):
        return ("pair", L, act, c, slopes)
    return ("lin", L, act.offset, c, slopes)


def _affine(ops: list) -> tuple[int, list[int]]:
    """(value at the box's low corner, slope per position) of acc along *ops*: per position
    (lo, op) with op (mul, sub, weight) or None."""
    c = 0
    slopes: list[int] = []
    for lo, op in ops:
        if op is None:
            slopes.append(0)
            continue
        mul, sub, w = op[0], op[1], op[2] if len(op) > 2 else 1
        c = c * mul + (lo - sub) * w
        slopes = [s * mul for s in slopes] + [w]
    return c, slopes


# ------------------------------------------------------------------ comparing on a box
def _slopes(fn, n: int) -> list[int] | None:
    if fn is None or fn[0] == "tok":
        return None
    s = list(fn[-1])
    return s + [0] * (n - len(s))


def _pieces(fn, start: int, u: int, M: int) -> list:
    """*fn* over t = 0..M-1 (acc = start + u * t) as pieces (t0, t1, kind, data):
    ("tok", token), ("lin", value at t0, slope), ("arr", values), ("miss", None)."""
    if fn[0] == "tok":
        return [(0, M - 1, "tok", (fn[1], fn[2], fn[3]))]
    if fn[0] == "lin":
        return [(0, M - 1, "lin", (start + fn[2], u))]
    if fn[0] == "pair":
        from ..runtime.tables import value_of
        return [(0, M - 1, "arr", [value_of(fn[2], start + u * t) for t in range(M)])]
    table = fn[2]
    if u == 0:
        v = table.lookup(start)
        if v is None:
            return [(0, M - 1, "miss", None)]
        return [(0, M - 1, "tok", ("char", fn[1], v))]
    out: list[tuple[int, int, str, Any]] = []  # (first, last, kind, data): data follows kind
    for p0, p1, kind, data in _tables.pieces(table, start, start + M - 1):
        t0, t1 = p0 - start, p1 - start
        if kind == "none":
            out.append((t0, t1, "miss", None))
        elif kind == "linear":
            out.append((t0, t1, "lin", (data, 1)))
        else:
            out.append((t0, t1, "arr", data))
    return out


def _token_at(fn, piece, t: int):
    """(kind, length, value) of the token at t in *piece* of *fn*."""
    t0, t1, kind, data = piece
    if kind == "tok":
        return data
    if kind == "miss":
        return ("error", fn[3], None)
    if kind == "lin":
        return ("char", fn[1], data[0] + data[1] * (t - t0))
    v = data[t - t0]
    if v == NONE or v is None:
        return ("error", fn[3], None) if fn[0] == "look" else ("error", fn[1], None)
    return ("char", fn[1], v)


def _category(ta, tb, depth: int, end: bool):
    if ta == tb:
        return None
    if "shift" in (ta[0], tb[0]) and (ta[0] == "shift" and ta[1] == depth or tb[0] == "shift" and tb[1] == depth):
        return ("shifts", ta[0], ta[1], tb[0], tb[1], end)
    va = ta[0] == "char" and ta[1] == depth
    vb = tb[0] == "char" and tb[1] == depth
    if va and vb:
        if ta[2] == tb[2]:
            return None
        if isinstance(ta[2], int) and isinstance(tb[2], int):
            return ("different", ta[2] - tb[2])
        return ("different", "several")
    if va:
        return ("only_a",)
    if vb:
        return ("only_b",)
    if ta[0] != "char" and tb[0] != "char" and ta[:2] != tb[:2]:
        return ("errors", ta[0], ta[1], tb[0], tb[1], end)
    if ta[:2] != tb[:2] or ta[2] != tb[2] and _PLACEHOLDER not in (ta[2], tb[2]):
        # a character shorter than the box in one side, another token in the other: new
        # only where that character's side just stopped (see walk's evaluate)
        return ("tokens", ta[0], ta[1], tb[0], tb[1], end)
    return None


def _compare(fa, fb, start_a: int, ua: int, start_b: int, ub: int, M: int, depth: int, end: bool) -> list:
    """Categories over t = 0..M-1 as runs (t0, t1, key)."""
    pa, pb = _pieces(fa, start_a, ua, M), _pieces(fb, start_b, ub, M)
    out: list = []

    def put(t0, t1, key):
        if key is None:
            return
        if out and out[-1][2] == key and out[-1][1] == t0 - 1:
            out[-1] = (out[-1][0], t1, key)
        else:
            out.append((t0, t1, key))

    i = j = 0
    t = 0
    while t < M:
        A, B = pa[i], pb[j]
        hi = min(A[1], B[1])
        ka, kb = A[2], B[2]
        if ka != "arr" and kb != "arr":
            rise_a = A[3][1] if ka == "lin" else 0
            rise_b = B[3][1] if kb == "lin" else 0
            if rise_a == rise_b:
                # kinds and lengths are constant on the interval, and so is the difference of
                # two values rising alike: one category throughout
                put(t, hi, _category(_token_at(fa, A, t), _token_at(fb, B, t), depth, end))
            else:
                # values rising differently: equal at one point at most
                ta0, tb0 = _token_at(fa, A, t), _token_at(fb, B, t)
                va, vb = ta0[2], tb0[2]
                x = None
                if isinstance(va, int) and isinstance(vb, int) and (vb - va) % (rise_a - rise_b) == 0:
                    x = t + (vb - va) // (rise_a - rise_b)
                    if not t <= x <= hi:
                        x = None
                other = t if x != t else t + 1
                for lo_, hi_ in ((t, hi),) if x is None else ((t, x - 1), (x, x), (x + 1, hi)):
                    if lo_ > hi_:
                        continue
                    y = lo_ if (lo_, hi_) == (x, x) else other
                    key = _category(_token_at(fa, A, y), _token_at(fb, B, y), depth, end)
                    if key is not None and key[0] == "different" and (lo_, hi_) != (x, x):
                        key = ("different", "varies")
                    put(lo_, hi_, key)
        else:
            for x in range(t, hi + 1):
                put(x, x, _category(_token_at(fa, A, x), _token_at(fb, B, x), depth, end))
        t = hi + 1
        if A[1] < t:
            i += 1
        if B[1] < t:
            j += 1
    return out


_PLACEHOLDER = ("some code point",)  # a character whose value cannot matter (see _simplify)


def _whole(fn, depth: int) -> bool:
    """Whether *fn* may be a character covering the whole box."""
    return fn is not None and fn[0] != "tok" and fn[1] == depth or (
        fn is not None and fn[0] == "tok" and fn[1] == "char" and fn[2] == depth)


def _simplify(fa, fb, depth: int):
    """Drop what cannot change a category: a character's value matters only where both
    sides may be one character of the whole box (then the values are compared); else a
    linear or surrogate-pair character is a character of its length whatever its value.
    A table lookup keeps its point dependence (its pointer may have no entry)."""
    both = _whole(fa, depth) and _whole(fb, depth)
    if not both:
        if fa is not None and fa[0] in ("lin", "pair"):
            fa = ("tok", "char", fa[1], _PLACEHOLDER)
        if fb is not None and fb[0] in ("lin", "pair"):
            fb = ("tok", "char", fb[1], _PLACEHOLDER)
    return fa, fb


POINTWISE = 1 << 21  # points compared one by one on one box at most (else: a note)


def _node_runs(fa, fb, box: list, depth: int, end: bool, notes: list | None = None) -> tuple[list, int]:
    """The categories on a node's box, as (k0, k1, key) over the points of box[:f] in
    lexicographic order, and f (positions from f on do not matter)."""
    fa, fb = _simplify(fa, fb, depth)
    n = len(box)
    sa, sb = _slopes(fa, n), _slopes(fb, n)
    f = n
    while f > 0 and (sa is None or sa[f - 1] == 0) and (sb is None or sb[f - 1] == 0):
        f -= 1
    sizes = [hi - lo + 1 for lo, hi in box[:f]]
    weights = [prod(sizes[i + 1:]) for i in range(f)]

    def fits(s, m):  # acc on positions m..f-1: all constant (0) or consecutive (1), else None
        if s is None or all(x == 0 for x in s[m:f]):
            return 0
        if all(s[i] == weights[i] for i in range(m, f)):
            return 1
        return None

    m = 0
    while m < f and (fits(sa, m) is None or fits(sb, m) is None):
        m += 1
    ua, ub = fits(sa, m), fits(sb, m)
    M = prod(sizes[m:]) if f else 1
    outer = prod(sizes[:m])
    if outer > POINTWISE and (fa[0] in ("lin", "pair") or fb[0] in ("lin", "pair")):
        # two characters of the whole box whose values rise differently, on a box too large
        # to walk point by point: reported as differing throughout, with a note (they agree
        # on a hyperplane at most)
        if notes is not None:
            notes.append(("pointwise", tuple(box)))
        return [(0, prod(sizes) - 1, ("different", "varies"))], f
    ca = fa[-2] if fa[0] != "tok" else 0
    cb = fb[-2] if fb[0] != "tok" else 0
    out: list = []
    for o in range(outer):
        digits = []
        x = o
        for sz in reversed(sizes[:m]):
            x, d = divmod(x, sz)
            digits.append(d)
        digits.reverse()
        st_a = ca + (sum(s * d for s, d in zip(sa, digits)) if sa is not None else 0)
        st_b = cb + (sum(s * d for s, d in zip(sb, digits)) if sb is not None else 0)
        for t0, t1, key in _compare(fa, fb, st_a, ua, st_b, ub, M, depth, end):
            k0, k1 = o * M + t0, o * M + t1
            if out and out[-1][2] == key and out[-1][1] == k0 - 1:
                out[-1] = (out[-1][0], k1, key)
            else:
                out.append((k0, k1, key))
    return out, f


def _boxes(box: list, f: int, k0: int, k1: int) -> list:
    """Byte boxes spelling points k0..k1 of box[:f], each extended by box[f:]."""
    sizes = tuple(hi - lo + 1 for lo, hi in box[:f])
    rest = tuple(box[f:])
    out = []
    for digits in split(k0, k1, sizes):
        out.append(tuple((box[i][0] + dlo, box[i][0] + dhi) for i, (dlo, dhi) in enumerate(digits)) + rest)
    return out


# ------------------------------------------------------------------ the walk
def _product_runs(a: Automaton, b: Automaton, ra: bytes, rb: bytes) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    key = None
    for x in range(256):
        k = (a.classes[x], b.classes[x], ra[x], rb[x])
        if runs and k == key:
            runs[-1][1] = x
        else:
            runs.append([x, x])
            key = k
    return [(lo, hi) for lo, hi in runs]


@dataclass
class Found:
    patterns: dict = field(default_factory=lambda: defaultdict(list))  # key -> [ranges]
    notes: list = field(default_factory=list)


def walk(a: Automaton, b: Automaton, starts: tuple[int, int] = (0, 0)) -> Found:
    """Every difference of the two decoders' first tokens, as boxes per key, the tokens
    starting in the automaton states *starts* (two modes' starts; else 0 and 0)."""
    A, B = _Side(a), _Side(b)
    runs = _product_runs(a, b, A.restore, B.restore)
    found = Found()
    # Code units wider than a byte: what is valid is exact (a sequence is whole units), but
    # errors are counted in units, which this walk does not model: they are not compared.
    units = a.unit > 1 or b.unit > 1
    if units:
        found.notes.append("units")
    depth_cap = max((_tables.max_length(x) or 8) for x in (a, b)) + 2
    depth_cap = min(depth_cap, MAX_DEPTH)

    def op_of(side, status, c):
        if status[0] != "run":
            return None
        return side.a.ops[status[1]][c]

    def evaluate(box, sta, stb, ops_a, ops_b, rflags_a, rflags_b, fresh):
        depth = len(box)
        end = sta[0] == "run" or stb[0] == "run"
        ta, tb = A.at_end(sta, depth), B.at_end(stb, depth)
        if ta is None or tb is None:
            if "ext" not in found.notes:
                found.notes.append("ext")
            return
        fa = _token_fn(A, ta, ops_a, rflags_a)
        fb = _token_fn(B, tb, ops_b, rflags_b)
        runs_, f = _node_runs(fa, fb, box, depth, end, found.notes)
        for k0, k1, key in runs_:
            if key[0] == "errors" and units:
                continue
            if key[0] == "tokens" and not (key[1] == "char" and fresh[0] or key[3] == "char" and fresh[1]):
                # the character was its side's token on the shorter box too, where the
                # difference was found already (a pattern matching a prefix of this one)
                continue
            found.patterns[key].extend(_boxes(box, f, k0, k1))

    def rec(box, sta, stb, ops_a, ops_b, rf_a, rf_b, fresh=(False, False)):
        if box:
            evaluate(box, sta, stb, ops_a, ops_b, rf_a, rf_b, fresh)
        if sta[0] != "run" and stb[0] != "run":
            return
        if len(box) >= depth_cap:
            if "depth" not in found.notes:
                found.notes.append("depth")
            return
        d = len(box)
        children: list = []
        for lo, hi in runs:
            ca, cb = a.classes[lo], b.classes[lo]
            ra_, rb_ = A.restore[lo], B.restore[lo]
            na = A.step(sta, ca, d, rf_a + [ra_])
            nb = B.step(stb, cb, d, rf_b + [rb_])
            if na[0] == "ext" or nb[0] == "ext":
                if "ext" not in found.notes:
                    found.notes.append("ext")
                continue
            oa, ob = op_of(A, sta, ca), op_of(B, stb, cb)
            key = (na, nb, oa, ob, ra_ if sta[0] == "run" else 0, rb_ if stb[0] == "run" else 0)
            if children and children[-1][0] == key and children[-1][2] == lo - 1:
                children[-1][2] = hi
            else:
                children.append([key, lo, hi])
        for (na, nb, oa, ob, ra_, rb_), lo, hi in children:
            rec(box + [(lo, hi)], na, nb, ops_a + [(lo, oa)], ops_b + [(lo, ob)],
                rf_a + [ra_], rf_b + [rb_], (sta[0] == "run" and na[0] == "done", stb[0] == "run" and nb[0] == "done"))

    rec([], ("run", starts[0], None), ("run", starts[1], None), [], [], [], [])
    return found


# ------------------------------------------------------------------ merging and presenting
def merge_boxes(boxes: list) -> list:
    """Join boxes equal but for adjacent ranges in one position, until none are."""
    boxes = sorted(set(boxes))
    changed = True
    while changed:
        changed = False
        by_len: dict = defaultdict(list)
        for bx in boxes:
            by_len[len(bx)].append(bx)
        out = []
        for n, group in by_len.items():
            for i in range(n):
                buckets: dict = defaultdict(list)
                for bx in group:
                    buckets[bx[:i] + bx[i + 1:]].append(bx)
                new = []
                for _rest, members in buckets.items():
                    members.sort(key=lambda bx: bx[i])
                    cur = members[0]
                    for bx in members[1:]:
                        if bx[i][0] == cur[i][1] + 1:
                            cur = cur[:i] + ((cur[i][0], bx[i][1]),) + cur[i + 1:]
                            changed = True
                        else:
                            new.append(cur)
                            cur = bx
                    new.append(cur)
                group = new
            out += group
        boxes = sorted(out)
    return boxes


def _first_token(x: Automaton, data: bytes, start: int | None = None):
    toks = list(tokens(x, data, start))
    return toks[0] if toks else None


def _token_words(t, x: Automaton | None = None, data: bytes = b"", start: int | None = None) -> str:
    if t is None:
        return "-"
    n = t[2] - t[1]
    if t[0] == "shift" and x is not None:
        entered = start_after(x, data, start or 0, t[2])
        name = "?" if entered is None else _tables.mode_name(x, entered, twin=False)
        return f"shift to {name} of {n} byte{'s' if n != 1 else ''}"
    return f"{t[0]} of {n} byte{'s' if n != 1 else ''}"


def patterns(a: Automaton, b: Automaton, found: Found,
             starts: tuple[int, int] = (0, 0)) -> dict[str, list[TPattern]]:
    """The boxes of each kind merged into patterns, each with its count and an example."""
    out: dict[str, list[TPattern]] = {"only_a": [], "only_b": [], "different": [], "errors": [], "shifts": [],
                                      "tokens": []}
    sa, sb = starts if any(starts) or a.modes or b.modes else (None, None)
    for key, boxes in found.patterns.items():
        for ranges in merge_boxes(boxes):
            ex = bytes(lo for lo, _ in ranges)
            count = prod(hi - lo + 1 for lo, hi in ranges)
            p = TPattern(tuple(ranges), key, ex, count=count)
            if key[0] in ("errors", "shifts", "tokens"):
                p.a = _token_words(_first_token(a, ex, sa), a, ex, sa)
                p.b = _token_words(_first_token(b, ex, sb), b, ex, sb)
            else:
                p.a, p.b = _tables.one_char(a, ex, sa), _tables.one_char(b, ex, sb)
            out[key[0]].append(p)
    for k in out:
        out[k].sort(key=lambda p: (len(p.ranges), p.ranges))
    return out


# ------------------------------------------------------------------ encoders
def encoder_pieces(x: Automaton) -> list:
    """The encoder as sorted disjoint pieces (lo, hi, how): ("lin", positions, order, offset)
    (bytes = the digits of cp - offset) or ("pt", bytes or None)."""
    taken = RangeSet()
    out: list[tuple[int, int, tuple]] = []  # (lo, hi, how): how's shape follows its tag
    only = {cp: b for cp, b in x.encode_only}
    for r in x.encoding_rows():
        form = x.forms[r.form]
        if isinstance(form, DigitsForm):
            out.append((r.first, r.last, ("lin", form.positions, form.order, r.offset)))
        else:  # a literal or a surrogate pair of a sub-form: its bytes asked for when needed
            out.append((r.first, r.last, ("row", x, r, len(row_bytes(x, r, r.first)))))
        taken.add(r.first, r.last)
    for f in _tables.table_forms(x):
        t = x.tables[f.table]
        if t.ranges:
            skip = RangeSet(t.decode_only)
            for p, q, cp in _tables.form_entries(x, f):
                for plo, phi in skip.cut(p, q):
                    for lo, hi in taken.cut(cp + plo - p, cp + phi - p):
                        out.append((lo, hi, ("lin", f.positions, f.order, cp - p)))
                        taken.add(lo, hi)
            for p, v in _tables.overrides(t):
                if isinstance(v, int) and taken.containing(v) is None and table_pointer(x, f.table, v) == p:
                    out.append((v, v, ("pt", _tables.spell(f, p))))
                    taken.add(v, v)
        else:
            cap = _tables.capacity(f)
            for cp, p in sorted(table_inverse(x, f.table).items()):
                if p < cap and taken.containing(cp) is None:
                    out.append((cp, cp, ("pt", _tables.spell(f, p))))
                    taken.add(cp, cp)
    # encoder-only entries come first: they replace whatever else covers them
    cut = RangeSet([(cp, cp) for cp in only])
    kept: list[tuple[int, int, tuple]] = []
    for lo, hi, how in out:
        for a_, b_ in cut.cut(lo, hi):
            kept.append((a_, b_, how if how[0] == "pt" else (how[0], how[1], how[2], how[3])))
    kept += [(cp, cp, ("pt", b)) for cp, b in only.items()]
    kept.sort(key=lambda p: p[0])
    return kept


def _length(how) -> int:
    if how[0] == "pt":
        return len(how[1])
    if how[0] == "row":
        return how[3]
    return len(how[1])


def _bytes_of(how, cp: int) -> bytes | None:
    if how is None:
        return None
    if how[0] == "pt":
        return how[1]
    if how[0] == "row":
        return row_bytes(how[1], how[2], cp)
    return digits_bytes(how[1], cp - how[3], how[2])


def _equal_runs(ha, hb, lo: int, hi: int) -> list[tuple[int, int, bool]]:
    """lo..hi as runs (first, last, equal?) of whether the two linear spellings agree."""
    if ha == hb:
        return [(lo, hi, True)]
    if len(ha[1]) != len(hb[1]) or ha[2] or hb[2] or hi - lo < 64:
        if len(ha[1]) != len(hb[1]):
            return [(lo, hi, False)]
        return _pointwise(ha, hb, lo, hi)
    # big-endian digits: split where either side's first differing position changes
    return _split_equal(ha, hb, lo, hi, 0)


def _pointwise(ha, hb, lo, hi):
    out: list = []
    for cp in range(lo, hi + 1):
        eq = _bytes_of(ha, cp) == _bytes_of(hb, cp)
        if out and out[-1][2] == eq and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp, eq)
        else:
            out.append((cp, cp, eq))
    return out


def _split_equal(ha, hb, lo, hi, i):
    """Runs of lo..hi on which the spellings agree, given that positions before i agree."""
    n = len(ha[1])
    if i == n:
        return [(lo, hi, True)]
    wa = prod(sum(hi - lo + 1 for lo, hi in runs) for runs in ha[1][i + 1:])
    wb = prod(sum(hi - lo + 1 for lo, hi in runs) for runs in hb[1][i + 1:])
    out: list = []
    cp = lo
    while cp <= hi:
        # the byte at position i is constant until the next multiple on either side
        ea = cp + (wa - (cp - ha[3]) % wa) - 1
        eb = cp + (wb - (cp - hb[3]) % wb) - 1
        e = min(hi, ea, eb)
        if (e - cp) > 4096 and _bytes_of(ha, cp)[i] == _bytes_of(hb, cp)[i]:
            out += _split_equal(ha, hb, cp, e, i + 1)
        elif _bytes_of(ha, cp)[i] == _bytes_of(hb, cp)[i]:
            out += _pointwise(ha, hb, cp, e) if i + 1 < n else [(cp, e, True)]
        else:
            out.append((cp, e, False))
        cp = e + 1
    merged: list = []
    for r in out:
        if merged and merged[-1][2] == r[2] and merged[-1][1] == r[0] - 1:
            merged[-1] = (merged[-1][0], r[1], r[2])
        else:
            merged.append(r)
    return merged


@dataclass
class EncoderRange:
    first: int
    last: int
    kind: str  # only_a | only_b | different
    a: bytes | None
    b: bytes | None

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    def to_json(self) -> dict:
        h = lambda x: None if x is None else x.hex(" ").upper()  # noqa: E731
        return {"first": self.first, "last": self.last, "count": self.count, "a": h(self.a), "b": h(self.b)}


def encoder_diff(a: Automaton, b: Automaton) -> dict[str, list[EncoderRange]]:
    """Code points the two encoders treat differently, as runs: encodable in one only, or
    written as different bytes (the example is each run's first code point)."""
    pa, pb = encoder_pieces(a), encoder_pieces(b)
    cuts = sorted({p[0] for p in pa + pb} | {p[1] + 1 for p in pa + pb})
    ia = ib = 0
    out: dict[str, list[EncoderRange]] = {"only_a": [], "only_b": [], "different": []}

    def at(pieces, i, cp):
        while i < len(pieces) and pieces[i][1] < cp:
            i += 1
        if i < len(pieces) and pieces[i][0] <= cp:
            return i, pieces[i][2]
        return i, None

    def put(kind, lo, hi, ha, hb):
        lst = out[kind]
        if lst and lst[-1].last == lo - 1 and (kind != "different" or _alike(lst[-1], ha, hb, lo)):
            lst[-1].last = hi
        else:
            lst.append(EncoderRange(lo, hi, kind, _bytes_of(ha, lo), _bytes_of(hb, lo)))

    for lo, nxt in zip(cuts, cuts[1:]):
        hi = nxt - 1
        ia, ha = at(pa, ia, lo)
        ib, hb = at(pb, ib, lo)
        if ha is not None and ha[0] == "pt" and ha[1] is None:
            ha = None
        if hb is not None and hb[0] == "pt" and hb[1] is None:
            hb = None
        if ha is None and hb is None:
            continue
        if ha is None or hb is None:
            put("only_b" if ha is None else "only_a", lo, hi, ha, hb)
            continue
        if ha[0] == "lin" and hb[0] == "lin":
            for x0, x1, eq in _equal_runs(ha, hb, lo, hi):
                if not eq:
                    put("different", x0, x1, ha, hb)
            continue
        if _length(ha) != _length(hb):  # never the same bytes
            put("different", lo, hi, ha, hb)
            continue
        for cp in range(lo, hi + 1):
            if _bytes_of(ha, cp) != _bytes_of(hb, cp):
                put("different", cp, cp, ha, hb)
    return out


def _alike(prev: EncoderRange, ha, hb, cp: int) -> bool:
    """Whether *cp* continues the run *prev* alike: each side's bytes one past the previous."""
    ba, bb = _bytes_of(ha, cp), _bytes_of(hb, cp)
    pa_, pb_ = prev.a, prev.b
    n = cp - prev.first
    return (ba is not None and bb is not None and pa_ is not None and pb_ is not None
            and len(ba) == len(pa_) and len(bb) == len(pb_)
            and int.from_bytes(ba, "big") - int.from_bytes(pa_, "big") == n
            and int.from_bytes(bb, "big") - int.from_bytes(pb_, "big") == n)


# ------------------------------------------------------------------ sequences
@dataclass
class SequenceDiff:
    """A text of several code points the two encoders write differently (None: no bytes)."""

    code_points: tuple[int, ...]
    a: bytes | None
    b: bytes | None

    def to_json(self) -> dict:
        h = lambda x: None if x is None else x.hex(" ").upper()  # noqa: E731
        return {"code_points": list(self.code_points), "a": h(self.a), "b": h(self.b)}


def sequence_texts(x: Automaton) -> set[tuple[int, ...]]:
    """The texts of several code points *x* knows: what its table entries and literal
    forms read as, and the sequences its encoder writes as one."""
    return {v.code_points for v in _tables.several_values(x)} | {cps for cps, _ in sequences(x)}


def sequence_diff(a: Automaton, b: Automaton) -> tuple[int, list[SequenceDiff]]:
    """(how many texts of several code points either spec knows, those of them the two
    encoders write differently, as a whole text: each with its longest match)."""
    texts = sorted(sequence_texts(a) | sequence_texts(b))
    out = []
    for cps in texts:
        ba, bb = _tables.text_bytes(a, cps), _tables.text_bytes(b, cps)
        if ba != bb:
            out.append(SequenceDiff(cps, ba, bb))
    return len(texts), out
