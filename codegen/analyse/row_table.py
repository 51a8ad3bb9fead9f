"""The row table ``encspec describe`` prints, from its JSON document alone.

Both a compiled spec (:func:`encspec.analyse.describe.table`) and a built-in's
generated table (``generated/tables/NAME.json``, :func:`from_table`) give that
document, so describing a built-in needs no compiling when its table holds all
that describe shows.  This module imports nothing of the compiler.
"""
from __future__ import annotations

from typing import Any

ROW_KEYS = ("length", "first_bytes", "last_bytes", "offset", "first", "last")


def code_point(cp: int | None) -> str:
    """``0010 FFFF``: the hex digits in groups of four, as the seeds print them."""
    if cp is None:
        return "…"
    digits = f"{cp:08X}"
    digits = digits.rjust((len(digits) + 3) // 4 * 4, "0")
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def from_table(doc: dict[str, Any]) -> dict[str, Any] | None:
    """``describe --json``'s document from a generated table document, or None when the
    description needs more than the rows (mapping tables, encoder-only entries, an
    error-span policy, counted forms, `end` forms, or a table written before rows had
    their bytes):
    then the spec is compiled."""
    if (doc.get("tables") or doc.get("encode_only") or doc.get("extensions")
            or doc.get("error_span", {}).get("kind") != "maximal-subpart"
            or any(state.get("at_end") for state in doc.get("states", []))):   # `end` forms: rows do not say which
        return None
    rows = sorted(doc["rows"], key=lambda r: (r["first"], r["length"]))
    if any("first_bytes" not in r for r in rows):
        return None
    signature = bytes.fromhex(doc["signature"])
    return {"name": doc["spec"]["name"], "title": doc["spec"]["title"] or None,
            "rows": [{k: r[k] for k in ROW_KEYS} for r in rows],
            "reserved_leads": list(doc["reserved_leads"]),
            "signature": signature.hex(" ").upper() if signature else None}


def lines(doc: dict[str, Any]) -> list[str]:
    """The text of the row table: a heading, the rows, the reserved leads, the signature."""
    out = [f"{doc['name']}: {doc['title']}" if doc["title"] else doc["name"]]
    data = []
    for row in doc["rows"]:
        first = row["first_bytes"]
        last = row["last_bytes"] if row["last_bytes"] else "(unbounded)"
        seq = first if first == last else f"{first} … {last}"
        cps = (code_point(row["first"]) if row["first"] == row["last"]
               else f"{code_point(row['first'])} … {code_point(row['last'])}")
        if row.get("at_end") or row.get("end"):   # an `end` form's row (compiled rows / describe --json)
            cps += "  (end: only where the data ends; never encoded)"
        data.append((seq, f"{row['offset']}", cps))
    w0 = max([len("Byte Sequence Range")] + [len(d[0]) for d in data])
    w1 = max([len("Offset")] + [len(d[1]) for d in data])
    out.append(f"{'Byte Sequence Range'.ljust(w0)} | {'Offset'.rjust(w1)} | Codepoint Range")
    out.append(f"{'-' * w0}-|-{'-' * w1}-|-{'-' * 15}")
    for seq, off, cps in data:
        out.append(f"{seq.ljust(w0)} | {off.rjust(w1)} | {cps}")
    if doc["reserved_leads"]:
        out.append(f"reserved runs: {', '.join(doc['reserved_leads'])} and the bytes that cannot start a sequence")
    if doc["signature"]:
        out.append(f"signature: {doc['signature']}")
    return out
