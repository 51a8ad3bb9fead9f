"""The Java package's encoder (issue 28): the shared description
(:func:`encspec.emit.description.encoder`) spelled as Java data for the one engine
in ``templates/java/Encoder.java.j2``.

Every table is a flat ``int[]`` (or a byte pool) unpacked from string constants when
the class is initialised, as the decoder's mapping tables are, so that no spec's
size reaches the JVM's 64 KiB limit on a method, and so that the template renders
every spec the same way: a spec without sequences has an empty sequence table, and
the engine's loop finds nothing in it."""
from __future__ import annotations

from ..automaton import Automaton
from . import description, java_string
from .java_literals import java_chunks, java_ints

# Run kinds as the engine numbers them (Encoder.java.j2's K_* constants)
KINDS = {"bytes": 0, "none": 1, "digits": 2, "pair": 3, "pointer": 4, "counted": 5}
U32 = 0xFFFFFFFF


def _call(fn: str, units: list[int]) -> str:
    """The Java expression fn("..." + "...", "...") holding *units* (UTF-16 code units)."""
    chunks = java_chunks(units)
    parts = ["\n            " + " +\n            ".join(chunk) for chunk in chunks]
    return f"{fn}({','.join(parts)})"


def ints(values: list[int]) -> str:
    """An int[] initialiser: each value's low 32 bits (-1 is 0xFFFFFFFF)."""
    return _call("ints", java_ints([v & U32 for v in values]))


def byte_pool(data: bytes) -> str:
    """A byte[] initialiser: one char a byte."""
    return _call("bytes", list(data))


def context(a: Automaton) -> dict:
    """The template's ``enc``: the description's tables (every mode's runs one after
    another, and the mode choice: description.mode_choice, one mode without shifts for
    a spec without modes) as Java initialisers and its facts as literals."""
    choice = description.mode_choice(a)
    e = choice.encoder
    pool = bytearray()
    runs: list[int] = []
    for r in e.runs:
        shift = r.a % (1 << 64)
        runs += [r.first, r.last, KINDS[r.kind], shift >> 32, shift & U32, r.positions, r.order,
                 len(pool), len(r.literal), int(r.verify)]
        pool += r.literal
    positions: list[int] = []
    positions_at: list[int] = []
    for p in e.positions:
        positions_at.append(len(positions))
        positions.append(len(p))
        for alphabet in p:
            positions.append(len(alphabet))
            for lo, hi in alphabet:
                positions += [lo, hi]
    orders: list[int] = []
    orders_at: list[int] = []
    for o in e.orders:
        orders_at.append(len(orders))
        orders += [len(o), *o]
    starters = list(e.starters)
    starter_from: list[int] = []
    seqs: list[int] = []
    seqs_at: list[int] = []
    for s in starters:
        starter_from.append(len(seqs_at))
        for cps, b in e.sequences:  # longest first per starter (the description's order)
            if cps[0] == s:
                seqs_at.append(len(seqs))
                seqs += [len(cps), *cps, len(pool), len(b)]
                pool += b
    starter_from.append(len(seqs_at))
    shift_at: list[int] = []  # SHIFTS[m][k] as (place in POOL, length; -1: none), row by row
    for row in choice.shifts:
        for path in row:
            shift_at += [len(pool), -1 if path is None else len(path)]
            pool += path or b""
    longest_shift = max((len(path) for row in choice.shifts for path in row if path is not None), default=0)
    longest = max((len(cps) for cps, _ in e.sequences), default=0)
    most = e.most_bytes
    one = description.proposed(e, 0x61)[0]
    return {
        "runs": ints(runs), "n_runs": len(e.runs),
        "positions": ints(positions), "positions_at": ints(positions_at),
        "orders": ints(orders), "orders_at": ints(orders_at),
        "starters": ints(starters), "starter_from": ints(starter_from),
        "sequences": ints(seqs), "sequences_at": ints(seqs_at), "longest": longest,
        "pool": byte_pool(bytes(pool)), "signature": byte_pool(e.signature),
        "permutation": byte_pool(e.permutation or b""),
        "writes_signature": "true" if e.writes_signature else "false",
        "pair_reads_as_one": "true" if e.pair_reads_as_one else "false",
        "pair_on_encode": "true" if e.pair_on_encode else "false",
        "group_runs": "true" if e.group_runs else "false",
        "undecodable": "true" if e.undecodable else "false",
        "unencodable": "null" if e.unencodable is None else java_string(e.unencodable),
        "pair_reason": java_string(e.pair_reason), "counted_reason": java_string(description.COUNTED_REASON),
        "run_from": ints(list(choice.run_from)), "mode_starts": ints(list(choice.starts)),
        "n_modes": len(choice.starts), "shift_at": ints(shift_at), "mode_order": ints(list(choice.order)),
        "mode_ends": ints(list(choice.ends)), "unencodable_to": ints(list(choice.unencodable)),
        "sticky": "true" if choice.sticky else "false", "cheapest": "true" if choice.cheapest else "false",
        # bytes per char at most: a code point's bytes (one char at least), the signature before
        # them, and up to three shifts (before an unencodable one, into "?"'s mode, home at the end)
        "max_bytes": float(most + len(e.signature) + 3 * longest_shift),
        "average_bytes": float(min(len(one), most) if one else 1),
    }


def vector_row(case: dict) -> dict:
    """One encode vector as the package's test holds it: the note, the code points in hex,
    strict's answer and replace's, each a run-encode line (`bytes HEX`, `error S E REASON`;
    replace None: "?" cannot be written, the answer is any error)."""
    strict = case["strict"]
    if "bytes" in strict:
        want = "bytes " + (strict["bytes"].hex().upper() or "-")
    else:
        start, end, reason = strict["error"]
        want = f"error {start} {end} {reason}"
    replace = case["replace"]
    return {"note": case["note"], "cps": " ".join(f"{c:X}" for c in case["code_points"]), "strict": want,
            "replace": "error" if replace is None else "bytes " + (replace.hex().upper() or "-")}


def vectors_text(rows: list[dict]) -> str:
    """The encode vectors as one Java string expression, text(...): a row a line, its
    fields (note, code points, strict, replace) separated by tabs (string constants,
    not an array initialiser, whose code would pass the 64 KiB limit on a method)."""
    lines = []
    for v in rows:
        note = " ".join(v["note"].split())
        lines.append("\t".join([note, v["cps"], v["strict"], v["replace"]]))
    return _call("text", [u for c in "\n".join(lines) for u in _utf16(c)])


def _utf16(c: str) -> list[int]:
    b = c.encode("utf-16-be", "surrogatepass")
    return [b[k] << 8 | b[k + 1] for k in range(0, len(b), 2)]
