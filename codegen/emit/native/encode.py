"""The native encoder's plan: straight-line C per form, from the automaton's rows.

The decoder core's ``_encode_cp`` gives a code point the bytes of the first row
holding it (after the spec's encoder-only entries) and keeps them only if the
automaton decodes them back to that code point as one token.  The extension's
encoder (``native/templates/encode.c.j2``) writes those bytes itself for every
code point of a *segment*: a range of code points within one row of the
``digits``, ``literal`` or ``pair`` kind whose bytes are proven here to decode
back (a walk of the automaton over every class path of the row's digit boxes,
the accumulated value compared with the row's as affine functions of the
bytes), minus the encoder-only entries and, where a lead surrogate's bytes and a
trail's read back as one token (PAIR_READS_AS_ONE: encoders join the two, or
refuse the trail), the surrogates.  A segment is a range test, then the digits
by divisions by the constant radices (folded by the C compiler), most
significant last.  The C loops read the module's memo first (per code point its
bytes: one load, no branch on the character, faster than any chain of range
tests on mixed text) and fill it from the segments; what a segment writes in
more than the memo's four bytes, or beyond it, comes from the segments.
Everything else (table forms, counted forms, encoder-only entries, what the
proof does not cover, unencodable code points) is the module's to decide.

Two block copies come from the same rows: ASCII, where 00..7F (or 01..7F, as
in MUTF-8) are proven to stand for themselves, 16 characters at a time; and
code units (``_unit_plan``: UTF-16's and UTF-32's forms, whose bytes are the
code point's number in one byte order), 32 characters at a time.
"""
from __future__ import annotations

from ...automaton import Automaton
from ...runtime import tables
from ...runtime.tables import ScannerTables, bind, encoded, row_value, scanner_tables

_LEAF_BUDGET = 1 << 16  # class paths walked per row (more: the row is left to the memo)
_MAX_SEGMENTS = 48  # range tests in the chain (more: the rest is left to the memo)
_MEMO = 4  # the bytes a memo entry holds
_ASCII_EXCEPT = 2  # ASCII bytes a block copy tests for and leaves to the loop (more: no block copy)


_STARTER_BYTES = 16  # the most bytes a sequence written by the loops takes (more: the module's)


def _sequences(a: Automaton) -> tuple:
    """The spec's writable sequences ((code points, bytes), in code point order)."""
    read = getattr(tables, "sequences", None)  # the core's (issue 30)
    return tuple(read(a)) if read is not None else ()


def _starter_holes(a: Automaton) -> list[tuple[int, int]]:
    """The starters as holes in the segments: the loops decide them, never a segment."""
    return sorted({(cps[0], cps[0]) for cps, _ in _sequences(a)})


class _Unproven(Exception):
    pass


def _runs_radix(runs) -> int:
    return sum(hi - lo + 1 for lo, hi in runs)


def _digit_boxes(radices, lo, hi):
    """The values lo..hi in mixed radix (*radices* most significant first) as boxes:
    per digit an interval (dlo, dhi)."""
    n = len(radices)
    places = [1] * n
    for k in range(n - 2, -1, -1):
        places[k] = places[k + 1] * radices[k + 1]

    def rec(k, lo, hi):
        if k == n:
            return [()]
        place = places[k]
        dlo, rlo = divmod(lo, place)
        dhi, rhi = divmod(hi, place)
        if dlo == dhi:
            return [((dlo, dlo),) + b for b in rec(k + 1, rlo, rhi)]
        out = []
        if rlo:
            out += [((dlo, dlo),) + b for b in rec(k + 1, rlo, place - 1)]
            dlo += 1
        tail = []
        if rhi != place - 1:
            tail = [((dhi, dhi),) + b for b in rec(k + 1, 0, rhi)]
            dhi -= 1
        if dlo <= dhi:
            out += [((dlo, dhi),) + b for b in rec(k + 1, 0, place - 1)]
        return out + tail

    return rec(0, lo, hi)


def _pieces(runs, dlo, dhi, classes):
    """Digits dlo..dhi of a position (digit alphabet *runs*) as byte intervals of one
    class each: (first byte, last byte, class, digit of the first byte)."""
    out = []
    base = 0
    for lo, hi in runs:
        a, b = max(dlo, base), min(dhi, base + hi - lo)
        if a <= b:
            start = lo + a - base
            end = lo + b - base
            x = start
            while x <= end:
                y = x
                while y < end and classes[y + 1] == classes[x]:
                    y += 1
                out.append((x, y, classes[x], a + x - start))
                x = y + 1
        base += hi - lo + 1
    return out


def _box_positions(positions, order, box):
    """A box of digits (most significant first) as per byte position its interval."""
    n = len(positions)
    sig = list(order) if order else list(range(n))
    per = [None] * n
    for j, k in enumerate(sig):
        per[k] = box[j]
    return per


class _Walk:
    """The automaton's walk (the core's _run from the start state) over byte intervals."""

    def __init__(self, tables: ScannerTables):
        self.c = tables
        self.leaves = 0

    def paths(self, pieces_per_position):
        """Per class path: (action, acc as (coefficients per position, constant), pieces),
        where the bytes of the pieces decode as one token ending at the last byte."""
        c = self.c
        n = len(pieces_per_position)
        if n % c.unit:
            raise _Unproven("not whole code units")

        def rec(k, state, coefs, const, chosen):
            if k == n:
                self.leaves += 1
                if self.leaves > _LEAF_BUDGET:
                    raise _Unproven("too many class paths")
                act = None
                if c.at_end and c.at_end[state] is not None:
                    act = c.actions[c.at_end[state]]
                elif c.accept[state] is not None:
                    act = c.actions[c.accept[state]]
                if act is None:
                    raise _Unproven("does not end in an accepting state")
                yield act, (coefs, const), chosen
                return
            for piece, nxt in self.merged(state, pieces_per_position[k]):
                cls = piece[2]
                if k + 1 < n and c.accept[nxt] is not None and c.final[nxt]:
                    raise _Unproven("a token ends before the last byte")
                op = c.ops[state][cls]
                cf, ct = coefs, const
                if op is not None:
                    mul, sub, weight = op
                    cf = [x * mul for x in coefs]
                    cf[k] += weight
                    ct = const * mul - sub * weight
                yield from rec(k + 1, nxt, cf, ct, chosen + (piece,))

        yield from rec(0, 0, [0] * n, 0, ())


    def merged(self, state, pieces):
        """(piece, next state) per piece, adjacent pieces that the automaton reads alike
        from *state* (same next state and digit operation, digits continuing) made one."""
        c = self.c
        out = []
        for piece in pieces:
            lo, hi, cls, d0 = piece
            nxt = c.next[state][cls]
            if nxt < 0 or nxt >= c.n_states:
                raise _Unproven("dies or enters a counted form")
            if out:
                (plo, phi, pcls, pd0), pn = out[-1]
                if (pn == nxt and phi + 1 == lo and pd0 + hi - plo == d0 + hi - lo
                        and c.ops[state][pcls] == c.ops[state][cls]):
                    out[-1] = ((plo, hi, pcls, pd0), pn)
                    continue
            out.append((piece, nxt))
        return out


def _raw_affine(positions, order, chosen):
    """The row's raw value (digits in mixed radix) as (coefficients per position, constant)."""
    n = len(positions)
    sig = list(order) if order else list(range(n))
    place = 1
    coefs = [0] * n
    const = 0
    for k in reversed(sig):
        lo, _, _, d0 = chosen[k]
        coefs[k] = place  # digit = byte - lo + d0
        const += place * (d0 - lo)
        place *= _runs_radix(positions[k])
    return coefs, const


def _same(f, g, chosen) -> bool:
    """Whether two affine functions of the bytes agree on every point of the pieces."""
    for k, (lo, hi, _, _) in enumerate(chosen):
        if lo < hi and f[0][k] != g[0][k]:
            return False
    at = [p[0] for p in chosen]
    return (sum(x * b for x, b in zip(f[0], at)) + f[1]) == (sum(x * b for x, b in zip(g[0], at)) + g[1])


def _prove_digits(walk, positions, order, raw_lo, raw_hi, offset):
    radices = [_runs_radix(positions[k]) for k in (order or range(len(positions)))]
    classes = walk.c.classes
    for box in _digit_boxes(radices, raw_lo, raw_hi):
        per = _box_positions(positions, order, box)
        pieces = [_pieces(positions[k], per[k][0], per[k][1], classes) for k in range(len(positions))]
        for act, acc, chosen in walk.paths(pieces):
            if act[0] != "char":
                raise _Unproven("not a plain character")
            want = _raw_affine(positions, order, chosen)
            # the code point: acc + the action's offset == raw + the row's offset
            if not _same((acc[0], acc[1] + act[1]), (want[0], want[1] + offset), chosen):
                raise _Unproven("another value")


def _prove_pair(walk, at, positions, first, last):
    if first & 0x3FF or (last & 0x3FF) != 0x3FF:
        raise _Unproven("not whole lead surrogates")
    hi_lo, hi_hi = 0xD800 + ((first - 0x10000) >> 10), 0xD800 + ((last - 0x10000) >> 10)
    radices = [_runs_radix(r) for r in positions]
    n = len(positions)
    classes = walk.c.classes
    for box_h in _digit_boxes(radices, hi_lo - at, hi_hi - at):
        for box_l in _digit_boxes(radices, 0xDC00 - at, 0xDFFF - at):
            pieces = [_pieces(positions[k], *box_h[k], classes) for k in range(n)]
            pieces += [_pieces(positions[k], *box_l[k], classes) for k in range(n)]
            for act, acc, chosen in walk.paths(pieces):
                if act[0] != "pair":
                    raise _Unproven("not a pair")
                split, off = act[1], act[2]
                h = _raw_affine(positions, None, chosen[:n])
                lo_ = _raw_affine(positions, None, chosen[n:])
                # acc == (H - off) * split + (L - off), with 0 <= L - off < split on the box
                want = ([x * split for x in h[0]] + lo_[0], (h[1] + at - off) * split + lo_[1] + at - off)
                if not _same(acc, want, chosen):
                    raise _Unproven("another value")
                low = [(x * p[0], x * p[1]) for x, p in zip(lo_[0], chosen[n:])]
                smallest = lo_[1] + at - off + sum(min(v) for v in low)
                largest = lo_[1] + at - off + sum(max(v) for v in low)
                if smallest < 0 or largest >= split:
                    raise _Unproven("the trail's value leaves its part")


def _prove(a: Automaton, core, row, value) -> bool:
    """Whether every code point of *row* decodes back from the bytes the row gives it."""
    first, last, kind, data = value
    try:
        if kind == "literal":
            return first == last and encoded(a, first) == data
        walk = _Walk(scanner_tables(a))
        if kind == "pair":
            _prove_pair(walk, data[0], data[1], first, last)
        else:
            _prove_digits(walk, data[1], data[2], first - data[0], last - data[0], data[0])
        return True
    except _Unproven:
        return False


def proven_rows(a: Automaton) -> list[tuple[int, int]]:
    """The code point ranges of the digits rows whose bytes are proven, as above, to
    decode back to their code points (one plain character token over all of them):
    an engine may skip reading such a code point's bytes back."""
    out = []
    for row in a.encoding_rows():
        value = row_value(a, row)
        if value[2] == "digits" and _prove(a, None, row, value):
            out.append((value[0], value[1]))
    return out


def _cut(lo, hi, holes):
    """lo..hi without the code points in *holes* (sorted, disjoint ranges)."""
    out = []
    for a, b in holes:
        if b < lo or a > hi:
            continue
        if a > lo:
            out.append((lo, a - 1))
        lo = b + 1
        if lo > hi:
            return out
    out.append((lo, hi))
    return out


def _plus(expr: str, k: int) -> str:
    """expr + k in unsigned arithmetic (k may be negative: the byte is cut to 8 bits)."""
    return expr if not k else f"{expr} + 0x{k:X}u" if k > 0 else f"{expr} - 0x{-k:X}u"


def _byte_expr(runs, d: str) -> str:
    """The C expression of the byte of digit *d* in the alphabet *runs*."""
    bases = []
    base = 0
    for lo, hi in runs:
        bases.append(base)
        base += hi - lo + 1
    expr = _plus(d, runs[-1][0] - bases[-1])
    for k in range(len(runs) - 2, -1, -1):
        expr = f"({d} < 0x{bases[k + 1]:X}u ? {_plus(d, runs[k][0] - bases[k])} : {expr})"
    return expr


def _digit_lines(positions, order, var: str, at: int = 0) -> list[str]:
    """C statements writing the digits of *var* (a uint64_t the statements consume) to w[at...]."""
    n = len(positions)
    sig = list(order) if order else list(range(n))
    lines = []
    for j, k in enumerate(reversed(sig)):
        radix = _runs_radix(positions[k])
        last = j == n - 1
        if radix == 1:
            lines.append(f"w[{at + k}] = (char)0x{positions[k][0][0]:X}u;")
            continue
        d = var if last else f"({var} % {radix}u)"
        if len(positions[k]) == 1:
            lines.append(f"w[{at + k}] = (char)({_plus(d, positions[k][0][0])});")
        else:
            lines.append(f"{{ const uint64_t d_ = {d}; w[{at + k}] = (char)({_byte_expr(positions[k], 'd_')}); }}")
        if not last:
            lines.append(f"{var} /= {radix}u;")
    return lines


def _segment_code(value, lo: int, hi: int) -> dict:
    first, last, kind, data = value
    if kind == "literal":
        lines = [f"w[{k}] = (char)0x{b:02X}u;" for k, b in enumerate(data)]
        length = len(data)
        what = "literal"
    elif kind == "pair":
        at, positions = data
        n = len(positions)
        lines = [f"uint64_t h_ = {_plus('(((uint64_t)c - 0x10000u) >> 10)', 0xD800 - at)};",
                 f"uint64_t l_ = {_plus('((uint64_t)c & 0x3FFu)', 0xDC00 - at)};"]
        lines += _digit_lines(positions, None, "h_")
        lines += _digit_lines(positions, None, "l_", at=n)
        length = 2 * n
        what = "a pair of " + str(n) + "-byte halves"
    else:
        offset, positions, order = data
        digits = _digit_lines(positions, order, "r_")
        # a form of fixed bytes reads no digit of the value: no r_ (an unused variable)
        lines = [f"uint64_t r_ = {_plus('(uint64_t)c', -offset)};"] * any("r_" in x for x in digits) + digits
        length = len(positions)
        what = "digits"
    return {"lo": lo, "hi": hi, "length": length, "lines": lines, "what": what}


def _segments(a: Automaton, core) -> list[dict]:
    holes = sorted([(cp, cp) for cp, _ in a.encode_only] + _starter_holes(a))
    if core.PAIR_READS_AS_ONE:
        holes = sorted(holes + [(0xD800, 0xDFFF)])
    merged: list[tuple[int, int]] = []
    for lo, hi in holes:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    out = []
    for row in a.encoding_rows():
        value = row_value(a, row)
        if value[1] >= 1 << 64 and value[0] >= 1 << 64:
            continue
        if not _prove(a, core, row, value):
            continue
        for lo, hi in _cut(value[0], min(value[1], (1 << 64) - 1), merged):
            seg = _segment_code(value, lo, hi)
            seg["comment"] = f"U+{lo:04X}..U+{hi:04X}: form {row.form} (spec line {row.line}), {seg['what']}"
            out.append(seg)
    return out[:_MAX_SEGMENTS]


def _limited(segments, top: int) -> list[dict]:
    out = []
    for s in segments:
        if s["lo"] <= top:
            out.append(dict(s, hi=min(s["hi"], top)))
    return out


def _most(segments, top: int) -> int:
    """The most bytes a code point up to *top* takes: a segment's, or the memo's."""
    covered = 0
    most = 0
    for s in _limited(segments, top):
        most = max(most, s["length"])
        covered += s["hi"] - s["lo"] + 1
    return most if covered == top + 1 else max(most, _MEMO)


def _unit_plan(a: Automaton, core) -> dict | None:
    """Where the bytes of a code point are its number in code units (UTF-16's and
    UTF-32's forms): the rows whose positions are whole bytes 00..FF (the most
    significant one a run l..m, its offset l's place: WTF-16's E000..FFFF at
    U+E000) with the code point itself as the raw value, proven as above, of one
    width and byte order: their ranges, for copying blocks of characters as units."""
    found: dict[tuple[int, str], list[tuple[int, int]]] = {}  # (width, byte order) -> ranges
    for row in a.encoding_rows():
        first, last, kind, data = row_value(a, row)
        if kind != "digits" or len(data[1]) not in (2, 4):
            continue
        positions, order = data[1], data[2]
        n = len(positions)
        sig = list(order) if order else list(range(n))
        if any(len(positions[k]) != 1 for k in sig):
            continue
        top = 0
        while top < n - 1 and positions[sig[top]][0] == (0, 0):  # leading digits always 00
            top += 1
        if any(positions[k][0] != (0, 0xFF) for k in sig[top + 1:]):
            continue
        if data[0] != positions[sig[top]][0][0] << 8 * (n - 1 - top):  # the raw unit is not the code point
            continue
        if sig == list(range(n)):
            byte_order = "be"
        elif sig == list(range(n - 1, -1, -1)):
            byte_order = "le"
        else:
            continue
        if not _prove(a, core, row, (first, last, kind, data)):
            continue
        found.setdefault((n, byte_order), []).append((first, min(last, 0x10FFFF)))
    if not found:
        return None
    (width, byte_order), ranges = max(found.items(), key=lambda kv: sum(hi - lo + 1 for lo, hi in kv[1]))
    holes = sorted([(cp, cp) for cp, _ in a.encode_only] + _starter_holes(a))
    if core.PAIR_READS_AS_ONE:
        holes.append((0xD800, 0xDFFF))
    cut = []
    for lo, hi in sorted(ranges):
        cut += _cut(lo, hi, sorted(holes))
    if len(cut) > 4:
        return None
    test = " | ".join(f"((uint32_t)(c) <= 0x{hi:X}u)" if lo == 0 else f"((uint32_t)(c) - 0x{lo:X}u <= 0x{hi - lo:X}u)"
                      for lo, hi in cut)
    shifts = [8 * (width - 1 - k) if byte_order == "be" else 8 * k for k in range(width)]
    astral = any(lo <= 0x10000 and hi >= 0x10FFFF for lo, hi in cut)
    return {"width": width, "order": byte_order, "test": test, "shifts": shifts, "astral": astral,
            "text": ", ".join(f"U+{lo:04X}..U+{hi:04X}" for lo, hi in cut)}


def _ranges_test(cps: set[int], var: str) -> str | None:
    """A C expression: whether *var* is one of *cps* (None: too many ranges to test)."""
    ranges: list[list[int]] = []
    for cp in sorted(cps):
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    if len(ranges) > 8:
        return None
    return " || ".join(f"(uint64_t)({var}) == 0x{lo:X}u" if lo == hi else
                       f"(uint64_t)({var}) - 0x{lo:X}u <= 0x{hi - lo:X}u" for lo, hi in ranges)


def _second_test(seconds: set[int]) -> dict:
    """How the loops tell that a code point after a starter may complete a sequence
    (a necessary test: the search decides): its ranges where they are few; else the
    ranges of its low 16 bits (JIS X 0213's seconds come again in every plane, as
    CPython's codec compares only those); else a bitmap of the low 16 bits."""
    low = {c & 0xFFFF for c in seconds}
    test = _ranges_test(seconds, "c2") or _ranges_test(low, "c2 & 0xFFFFu")
    if test is not None:
        return {"second_test": test, "second_bits": None}
    bits = [0] * 2048
    for c in low:
        bits[c >> 5] |= 1 << (c & 31)
    return {"second_test": "nx_seq_second_bits[(c2 & 0xFFFFu) >> 5] >> (c2 & 31u) & 1u", "second_bits": bits}


def _starters(a: Automaton, core, memo_width: int) -> dict | None:
    """The loops' sequence plan: per starter (in code point order) its sequences,
    longest first (the core's order), and its bytes alone (a memo entry: empty where
    it has none or they do not fit one, then the module decides it alone); the
    sequences' code points after the first, flat; a test for a second code point
    (a starter not followed by one is written alone without a search).  Starters
    whose neighbours encoders watch (surrogates, PAIR_READS_AS_ONE) and sequences
    of more than _STARTER_BYTES stay the module's: such a starter gets no entry."""
    by_first: dict[int, list[tuple[tuple[int, ...], bytes]]] = {}
    for cps, data in _sequences(a):
        by_first.setdefault(cps[0], []).append((tuple(cps), bytes(data)))
    if not by_first:
        return None
    starters: list[dict] = []
    seqs: list[dict] = []
    rest: list[int] = []
    seconds: set[int] = set()
    most = 0
    for first in sorted(by_first):
        group = sorted(by_first[first], key=lambda s: -len(s[0]))
        if (core.PAIR_READS_AS_ONE and 0xD800 <= first <= 0xDFFF) or first > 0x10FFFF \
                or any(len(d) > _STARTER_BYTES or max(c) >> 32 for c, d in group):
            continue
        alone = encoded(a, first) or b""
        if len(alone) > memo_width:
            alone = b""
        starters.append({"cp": first, "seq": len(seqs), "count": len(group), "alone": list(alone)})
        for cps, data in group:
            seqs.append({"n": len(cps), "at": len(rest), "bytes": list(data),
                         "text": " ".join(f"U+{c:04X}" for c in cps) + " -> " + data.hex(" ").upper()})
            rest += cps[1:]
            seconds.add(cps[1])
            most = max(most, -(-len(data) // len(cps)))
    if not starters:
        return None
    return {"starters": starters, "seqs": seqs, "rest": rest or [0],
            **_second_test(seconds),
            "most": most}


def context(a: Automaton, ctx: dict) -> dict:
    """What encode.c.j2 renders: per code point limit (the str kinds, 64-bit ints) the
    segments in code point order, the most bytes a character takes, and how the
    ASCII fast path tests a block (00..7F all themselves, or all but 00)."""
    core = bind(a)
    segments = _segments(a, core)
    selfs = set()
    for s in segments:
        if s["length"] == 1:
            for cp in range(s["lo"], min(s["hi"], 0x7F) + 1):
                if encoded(a, cp) == bytes([cp]):
                    selfs.add(cp)
    ascii_mode = "all" if selfs == set(range(0x80)) else "nonzero" if selfs == set(range(1, 0x80)) else None
    others = sorted(set(range(0x80)) - selfs)
    if ascii_mode is None and len(others) <= _ASCII_EXCEPT:  # Shift_JIS-2004's 5C and 7E: ¥ and ‾
        ascii_mode = "except"
    limits = {"1": 0xFF, "2": 0xFFFF, "4": 0x10FFFF, "l": (1 << 64) - 1}
    # a memo entry holds every segment's bytes up to U+10FFFF that fit in 8 (CESU-8's pairs)
    memo_width = 8 if 4 < max([s["length"] for s in _limited(segments, 0x10FFFF)] + [4]) <= 8 else 4
    starters = _starters(a, core, memo_width)
    return {
        "enc_segments": {k: _limited(segments, top) for k, top in limits.items()},
        # room a code point: a segment's, the memo's, or a sequence's bytes over its code points
        "enc_most": {k: max(_most(segments, top), starters["most"] if starters else 0) for k, top in limits.items()},
        "enc_starters": starters,
        "enc_stops_at_starters": bool(_starter_holes(a)),
        "enc_ascii": ascii_mode,
        "enc_ascii_except": others,
        "enc_ascii_except_text": " and ".join(f"{b:02X}" for b in others),
        "enc_pair_reads_as_one": core.PAIR_READS_AS_ONE,
        "enc_unit": None if ascii_mode else _unit_plan(a, core),
        "enc_memo_width": memo_width,
    }
