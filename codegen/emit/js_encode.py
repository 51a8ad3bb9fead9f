"""The npm package's encoder (issue 28): the shared description (:mod:`encspec.emit.description`)
rendered as JS data for the one engine in ``templates/js/encode.mjs.j2``.

Everything a spec decides is a value here (base64 numbers, a literal array, a
boolean), so the engine's text is the same for every spec: a spec without
sequences renders an empty sequence array, one without a permutation the identity.
"""
from __future__ import annotations

import base64
import json
import struct

from ..automaton import Automaton
from . import package_tests
from .description import COUNTED_REASON, Encoder, encoder, mode_choice

# a run's kind, as the engine's META numbers hold it (bits 0..2)
KINDS = {"bytes": 0, "none": 1, "counted": 2, "digits": 3, "pair": 4, "pointer": 5}
# the core's reason for a trail surrogate after a lead an earlier piece wrote (its IncrementalEncoder)
SPLIT_PAIR_REASON = "a trail surrogate after a lead surrogate an earlier piece wrote: the pair can no longer be joined"
WIDTH = 96


def _lines(raw: bytes) -> list[str]:
    """*raw* in base64, in lines of WIDTH characters (JSON string literals)."""
    text = base64.b64encode(raw).decode("ascii").rstrip("=")
    return [json.dumps(text[k:k + WIDTH]) for k in range(0, len(text), WIDTH)] or ['""']


def _u32(values) -> list[str]:
    return _lines(b"".join(struct.pack("<I", v) for v in values))


def runs_data(e: Encoder) -> dict[str, list[str]]:
    """The runs as four base64 arrays: first and last code points (Uint32), a (Float64:
    a bytes run's holds where its literal is, offset * 256 + length, in LITERALS) and
    META (kind | verify << 3 | positions << 4 | (order + 1) << 18)."""
    literals = bytearray()
    a, meta = [], []
    for r in e.runs:
        if r.kind == "bytes":
            a.append(len(literals) * 256 + len(r.literal))
            literals += r.literal
        else:
            a.append(r.a)
        verify = r.verify and not e.undecodable
        meta.append(KINDS[r.kind] | verify << 3 | max(r.positions, 0) << 4 | (r.order + 1) << 18)
    assert len(e.positions) < 1 << 14 and len(e.orders) < (1 << 14) - 1
    return {"firsts": _u32(r.first for r in e.runs), "lasts": _u32(r.last for r in e.runs),
            "a": _lines(b"".join(struct.pack("<d", v) for v in a)), "meta": _u32(meta),
            "literals": _lines(bytes(literals))}


def context(a: Automaton) -> dict:
    """The encoder's data as JS source text, for encode.mjs.j2: its runs (every mode's,
    one after another) and the mode choice (description.mode_choice)."""
    choice = mode_choice(a)
    e = choice.encoder
    radix = [[sum(hi - lo + 1 for lo, hi in byte) for byte in p] for p in e.positions]
    longest = max((len(cps) for cps, _ in e.sequences), default=0)
    to_real = list(range(256)) if e.permutation is None else list(e.permutation)
    return {"enc": {
        **runs_data(e),
        "positions": json.dumps([[[list(r) for r in byte] for byte in p] for p in e.positions]),
        "radix": json.dumps(radix),
        "orders": json.dumps([list(o) for o in e.orders]),
        "sequences": [json.dumps([list(cps), list(b)]) for cps, b in e.sequences],
        "starters": json.dumps(list(e.starters)),
        "held": max(longest - 1, 0),
        "signature": json.dumps(list(e.signature)),
        "writes_signature": json.dumps(e.writes_signature),
        "to_real": [", ".join(map(str, to_real[k:k + 16])) for k in range(0, 256, 16)],
        "pair_reads_as_one": json.dumps(e.pair_reads_as_one),
        "pair_on_encode": json.dumps(e.pair_on_encode),
        "pair_reason": json.dumps(e.pair_reason),
        "split_pair_reason": json.dumps(SPLIT_PAIR_REASON),
        "counted_reason": json.dumps(COUNTED_REASON),
        "group_runs": json.dumps(e.group_runs),
        "unencodable": json.dumps(e.unencodable),
        "default_reason": json.dumps("code point not encodable in " + e.name),
        "run_from": json.dumps(list(choice.run_from)),
        "mode_starts": json.dumps(list(choice.starts)),
        "shifts": json.dumps([[None if b is None else list(b) for b in row] for row in choice.shifts]),
        "order": json.dumps(list(choice.order)),
        "sticky": json.dumps(choice.sticky),
        "cheapest": json.dumps(choice.cheapest),
        "ends": json.dumps(list(choice.ends)),
        "unencodable_to": json.dumps(list(choice.unencodable)),
    }}


def vectors(a: Automaton, computed: str | None) -> tuple[str, list[str]]:
    """The encode vectors for the package's test, each a line of JSON: a case with a code
    point in a counted run is left out."""
    e = encoder(a)
    source, cases = package_tests.encode_cases(a, computed)
    out = []
    for c in cases:
        if e.past_engines(c["code_points"]):
            continue
        strict = c["strict"]
        want = ({"bytes": strict["bytes"].hex().upper()} if "bytes" in strict else
                {"error": list(strict["error"])})
        rep = None if c["replace"] is None else c["replace"].hex().upper()
        out.append(json.dumps([c["note"], [f"{cp:X}" for cp in c["code_points"]], want, rep]))
    return source, out
