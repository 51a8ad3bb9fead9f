"""The Rust crate's encoder (issue 28): the shared description (:mod:`encspec.emit.description`)
rendered as Rust statics for the one engine in ``templates/rust/encode.rs.j2``.

Everything a spec decides is a value here (a literal, an array, a boolean), so the
engine's text is the same for every spec: a spec without sequences renders empty
sequence arrays, one without a permutation the identity table.
"""
from __future__ import annotations

from ..automaton import Automaton
from . import package_tests, rust_string
from .description import COUNTED_REASON, encoder, mode_choice

KINDS = {"bytes": "BYTES", "none": "NONE", "counted": "COUNTED", "digits": "DIGITS", "pair": "PAIR",
         "pointer": "POINTER"}
# the core's reason for a trail surrogate after a lead an earlier piece wrote (its IncrementalEncoder)
SPLIT_PAIR_REASON = "a trail surrogate after a lead surrogate an earlier piece wrote: the pair can no longer be joined"


def _bytes(b: bytes) -> str:
    return "&[" + ", ".join(f"0x{x:02X}" for x in b) + "]"


def _u32s(values) -> str:
    return "&[" + ", ".join(f"0x{v:X}" for v in values) + "]"


def context(a: Automaton) -> dict:
    """The encoder's statics as Rust source text, for encode.rs.j2: every mode's runs
    and the mode choice (description.mode_choice: one mode, no shifts, without modes)."""
    choice = mode_choice(a)
    e = choice.encoder
    n_modes = len(choice.starts)
    longest_shift = max((len(path) for row in choice.shifts for path in row if path), default=0)
    runs = [f"Run {{ kind: {KINDS[r.kind]}, a: {r.a}, positions: {max(r.positions, 0)}, order: {r.order}, "
            f"literal: {_bytes(r.literal)}, verify: {'true' if r.verify else 'false'} }}" for r in e.runs]
    radix = [[sum(hi - lo + 1 for lo, hi in byte) for byte in p] for p in e.positions]
    positions = ["&[" + ", ".join("&[" + ", ".join(f"(0x{lo:02X}, 0x{hi:02X})" for lo, hi in byte) + "]"
                                  for byte in p) + "]" for p in e.positions]
    per_cp = e.most_run_bytes
    longest = max((len(cps) for cps, _ in e.sequences), default=0)
    # bytes a piece of n code points may need: each code point's, or a sequence's per code point
    per_item = max([per_cp] + [-(-len(b) // len(cps)) for cps, b in e.sequences])
    # a shift into the code point's mode; before an unencodable one, a shift and "?" after its own
    per_item += 2 * longest_shift
    to_real = list(range(256)) if e.permutation is None else list(e.permutation)
    default = "code point not encodable in " + e.name
    return {"enc": {
        "firsts": [f"0x{r.first:X}" for r in e.runs],
        "lasts": [f"0x{r.last:X}" for r in e.runs],
        "runs": runs,
        "positions": positions,
        "radix": ["&[" + ", ".join(map(str, r)) + "]" for r in radix],
        "orders": ["&[" + ", ".join(map(str, o)) + "]" for o in e.orders],
        "sequences": [f"({_u32s(cps)}, {_bytes(b)})" for cps, b in e.sequences],
        "seq_firsts": [f"0x{cps[0]:X}" for cps, _ in e.sequences],
        "starters": [f"0x{c:X}" for c in e.starters],
        "held": max(longest - 1, 0),
        "signature": _bytes(e.signature),
        "writes_signature": str(e.writes_signature).lower(),
        "permutes": str(e.permutation is not None).lower(),
        "to_real": to_real,
        "pair_reads_as_one": str(e.pair_reads_as_one).lower(),
        "pair_on_encode": str(e.pair_on_encode).lower(),
        "pair_reason": rust_string(e.pair_reason),
        "split_pair_reason": rust_string(SPLIT_PAIR_REASON),
        "counted_reason": rust_string(COUNTED_REASON),
        "group_runs": str(e.group_runs).lower(),
        "unencodable": "None" if e.unencodable is None else f"Some({rust_string(e.unencodable)})",
        "default_reason": rust_string(default),
        "undecodable": str(e.undecodable).lower(),
        "cp_bytes": max(per_cp, 8),  # room for a memoised code point's eight bytes
        "per_item": per_item,
        "n_modes": n_modes,
        "run_from": list(choice.run_from),
        "mode_starts": list(choice.starts),
        "shifts": ["[" + ", ".join("None" if path is None else f"Some({_bytes(path)})" for path in row) + "]"
                   for row in choice.shifts],
        "order": list(choice.order),
        "sticky": str(choice.sticky).lower(),
        "cheapest": str(choice.cheapest).lower(),
        "ends": list(choice.ends),
        "unencodable_to": list(choice.unencodable),
        "longest_shift": longest_shift,
    }}


def vectors(a: Automaton, computed: str | None) -> tuple[str, list[dict]]:
    """The encode vectors for the crate's tests/encode.rs, as Rust source pieces: a case
    with a code point in a counted run is left out (the engine refuses those by design)."""
    e = encoder(a)
    source, cases = package_tests.encode_cases(a, computed)
    out = []
    for c in cases:
        cps = c["code_points"]
        if e.past_engines(cps):
            continue
        strict = c["strict"]
        s = (f"Ok({_bytes(strict['bytes'])})" if "bytes" in strict else
             f"Err(({strict['error'][0]}, {strict['error'][1]}, {rust_string(strict['error'][2])}))")
        rep = "None" if c["replace"] is None else f"Some({_bytes(c['replace'])})"
        out.append({"note": rust_string(c["note"]), "cps": _u32s(cps), "strict": s, "replace": rep})
    return source, out
