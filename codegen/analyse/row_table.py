"""The row table ``encspec describe`` prints, from its JSON document alone (the rows
with their bytes, the reserved leads, the signature): one rendering for every spec,
:func:`encspec.analyse.describe.table` gives it the compiled spec's rows."""
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
