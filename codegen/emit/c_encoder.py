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

KINDS = {"none": 0, "bytes": 1, "digits": 2, "pair": 3, "pointer": 4, "counted": 5}


def _hex(values, per_line: int = 16) -> list[str]:
    """Array lines of hex numbers."""
    return [", ".join(f"0x{v:X}" for v in values[k:k + per_line]) + "," for k in range(0, len(values), per_line)]


def context(a: Automaton) -> dict:
    """The template context of encode.c.j2 / encode.h.j2 (keys start with ``enc_``)."""
    e = description.encoder(a)
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
    q = description.proposed(e, 0x3F)[0]
    most = max([e.run_bytes(r) for r in e.runs] + [len(b) for _, b in e.sequences] + [len(q or b"")], default=0)
    memo = max([e.run_bytes(r) for r in e.runs if r.first < 0x10000], default=0)
    starters = e.starters
    reason = e.unencodable
    return {
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
        "enc_most": max(most, 1), "enc_memo_most": min(max(memo, 1), 250), "enc_undecodable": int(e.undecodable),
    }
