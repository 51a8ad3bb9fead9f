"""The C export's encoder: the shared encoder description (:mod:`.description`) as the
flat arrays the one engine, templates/c/encode.c.j2, reads.

Every array gets one unused last element, so a spec without (say) sequences still
renders legal C99 (no empty initialisers) and the engine's loops simply find nothing:
the template has no per-construct branches.  Nothing here decides semantics; it only
lays the description out (pools of bytes, digits and code points, with offsets).
"""
from __future__ import annotations

from ..automaton import Automaton
from . import description
from .native.encode import proven_rows

KINDS = {"none": 0, "bytes": 1, "digits": 2, "pair": 3, "pointer": 4, "counted": 5}


def _hex(values, per_line: int = 16) -> list[str]:
    """Array lines of hex numbers."""
    return [", ".join(f"0x{v:X}" for v in values[k:k + per_line]) + "," for k in range(0, len(values), per_line)]


_UNIT_RANGES = 4  # the most ranges the engine's code unit test compares with


def _unit_shape(e: description.Encoder, r: description.Run) -> tuple[int, str] | None:
    """(width, "le" | "be") where run *r* writes each code point as its own number in one
    code unit of 1, 2 or 4 bytes: a digits run of the code point itself whose bytes are
    whole 00..FF (the leading ones 00, the most significant other one 00..m, m large
    enough for the run's last code point); else None."""
    if r.kind != "digits" or r.a != 0 or e.permutation is not None:
        return None
    p = e.positions[r.positions]
    n = len(p)
    sig = list(range(n)) if r.order < 0 else list(e.orders[r.order])
    if n not in (1, 2, 4) or sorted(sig) != list(range(n)) or any(len(p[k]) != 1 or p[k][0][0] != 0 for k in sig):
        return None
    top = 0
    while top < n - 1 and p[sig[top]][0][1] == 0:
        top += 1
    if any(p[k][0][1] != 0xFF for k in sig[top + 1:]) or r.last >> (8 * (n - 1 - top)) > p[sig[top]][0][1]:
        return None
    if sig == list(range(n)):
        return n, "be"
    return (n, "le") if sig == list(range(n - 1, -1, -1)) else None


def unit_plan(a: Automaton, e: description.Encoder) -> tuple[int, str, list[tuple[int, int]]]:
    """Where the engine may copy code points as code units without its run walk: (width,
    byte order, at most _UNIT_RANGES ranges), width 0 where nowhere.  The ranges are
    digits runs of :func:`_unit_shape` inside rows whose read-back is proven
    (:func:`proven_rows`, or a spec without a decoder, which verifies nothing), so the
    read-back the run's ``verify`` asks for always succeeds; surrogates and sequence
    starters are left out (the engine's pair and sequence rules decide them)."""
    proven = [(0, description.CODE_POINT_LIMIT)] if e.undecodable else proven_rows(a)
    found: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for r in e.runs:
        shape = _unit_shape(e, r)
        if shape is not None and any(lo <= r.first and r.last <= hi for lo, hi in proven):
            found.setdefault(shape, []).append((r.first, r.last))
    if not found:
        return 0, "le", []
    (width, order), ranges = max(found.items(), key=lambda kv: sum(hi - lo + 1 for lo, hi in kv[1]))
    holes = [(0xD800, 0xDFFF)] + [(c, c) for c in e.starters]
    for lo, hi in holes:
        ranges = [piece for first, last in ranges for piece in _outside(first, last, lo, hi)]
    ranges = sorted(sorted(ranges, key=lambda x: x[0] - x[1])[:_UNIT_RANGES])
    return width, order, ranges


def _outside(first: int, last: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """first..last without lo..hi."""
    if hi < first or lo > last:
        return [(first, last)]
    return [x for x in ((first, lo - 1), (hi + 1, last)) if x[0] <= x[1]]


_MEMO_ROW = 8  # the most bytes a memo row beyond the BMP holds (more: the memo stops at the BMP)


def memo_plan(e: description.Encoder) -> tuple[int, int]:
    """(code points the engine's memo holds, the most bytes a row holds): the BMP, and
    up to the last encodable code point (at most U+10FFFF) where the rows need no more
    than _MEMO_ROW bytes (about 9 MB of static storage at most, touched only where
    used); a row holds at least 1 byte and at most 250."""
    def most(top: int) -> int:
        return min(max([e.run_bytes(r) for r in e.runs if r.first < top] + [1]), 250)
    last = max([r.last for r in e.runs if r.kind not in ("none", "counted")] + [0])
    top = min(last, 0x10FFFF) + 1
    if top > 0x10000 and most(top) <= _MEMO_ROW:
        return top, most(top)
    return 0x10000, most(0x10000)


def context(a: Automaton) -> dict:
    """The template context of encode.c.j2 / encode.h.j2 (keys start with ``enc_``): the
    runs of every mode (description.mode_choice; one mode without modes) and the mode
    choice, the shifts' bytes in the pool."""
    choice = description.mode_choice(a)
    e = choice.encoder
    pool = bytearray()  # literal and sequence bytes (intermediate: the engine permutes)
    runs: list[dict] = []
    for r in e.runs:
        at = len(pool)
        pool += r.literal
        runs.append({"first": r.first, "last": r.last, "kind": KINDS[r.kind], "kind_name": r.kind,
                     "verify": int(r.verify and not e.undecodable), "a": r.a,
                     "positions": max(r.positions, 0), "order": r.order, "at": at, "len": len(r.literal)})
    alphabets: list[tuple[int, int]] = []
    digits: list[tuple[int, int, int]] = []
    ranges: list[tuple[int, int]] = []
    for p in e.positions:
        alphabets.append((len(digits), len(p)))
        for byte_runs in p:
            digits.append((len(ranges), len(byte_runs), sum(hi - lo + 1 for lo, hi in byte_runs)))
            ranges += byte_runs
    orders: list[tuple[int, int]] = []
    order_index: list[int] = []
    for o in e.orders:
        orders.append((len(order_index), len(o)))
        order_index += o
    seqs: list[dict] = []
    seq_cps: list[int] = []
    for cps, b in e.sequences:
        seqs.append({"first": cps[0], "cps_at": len(seq_cps) + 1, "n": len(cps) - 1, "at": len(pool), "len": len(b),
                     "text": " ".join(f"U+{c:04X}" for c in cps)})
        seq_cps += cps[1:]
        pool += b
    n_modes = len(choice.starts)
    shifts: list[tuple[int, int]] = []  # per (mode, mode): where its shift bytes are in the pool, how many (-1: none)
    for row in choice.shifts:
        for path in row:
            shifts.append((len(pool), -1 if path is None else len(path)))
            pool += path or b""
    longest_shift = max((len(path) for row in choice.shifts for path in row if path), default=0)
    q = description.proposed(e, 0x3F)[0]
    most = max([e.run_bytes(r) for r in e.runs] + [len(b) for _, b in e.sequences] + [len(q or b"")], default=0)
    memo_cps, memo = memo_plan(e)
    most += 2 * longest_shift  # a shift into its mode; the shift before an unencodable one, or home
    most = max(most, description.digit_run(a).most_bytes)  # a code point in a run of digits
    starters = e.starters
    reason = e.unencodable
    # code units copied without the run walk know no modes: a spec with modes has none
    width, order, units = unit_plan(a, e) if n_modes == 1 else (0, "le", [])
    return {
        "enc_unit_width": width, "enc_unit_ranges": units, "enc_n_unit_ranges": len(units),
        "enc_unit_le": int(order == "le"),
        "enc_ascii_copy": int(width == 1 and any(lo == 0 and hi >= 0x7F for lo, hi in units)),
        "enc_runs": runs, "enc_pool": _hex(list(pool) or [0]), "enc_pool_len": max(len(pool), 1),
        "enc_alphabets": alphabets or [(0, 0)], "enc_digits": digits or [(0, 0, 1)], "enc_ranges": ranges or [(0, 0)],
        "enc_orders": orders or [(0, 0)], "enc_order_index": order_index or [0],
        "enc_seqs": seqs, "enc_seq_cps": _hex(seq_cps or [0]), "enc_starters": _hex(list(starters) or [0]),
        "enc_n_starters": len(starters), "enc_longest": max((len(c) for c, _ in e.sequences), default=0),
        "enc_to_real": _hex(list(e.permutation if e.permutation is not None else range(256))),
        "enc_signature": list(e.signature), "enc_writes_signature": int(e.writes_signature),
        "enc_pair_reads_as_one": int(e.pair_reads_as_one), "enc_pair_on_encode": int(e.pair_on_encode),
        "enc_pair_reason": e.pair_reason, "enc_group_runs": int(e.group_runs),
        "enc_has_reason": int(reason is not None), "enc_reason": reason or "",
        "enc_default_reason": f"code point not encodable in {e.name}",
        "enc_counted_reason": description.COUNTED_REASON,
        "enc_split_reason": "a trail surrogate after a lead surrogate an earlier piece wrote: "
                            "the pair can no longer be joined",
        "enc_n_modes": n_modes, "enc_run_from": list(choice.run_from), "enc_mode_starts": list(choice.starts),
        "enc_shifts": shifts, "enc_order": list(choice.order), "enc_sticky": int(choice.sticky),
        "enc_cheapest": int(choice.cheapest), "enc_ends": list(choice.ends),
        "enc_unencodable_to": list(choice.unencodable),
        "enc_most": max(most, 1), "enc_memo_most": memo, "enc_memo_cps": memo_cps, "enc_undecodable": int(e.undecodable),
    }
