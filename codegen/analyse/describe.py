"""``encspec describe``: the encoding's table, as the seeds print theirs.

The row table follows Corrected UTF-8's "Putting it all together"; the
``--ill-formed`` table follows Table 3.1b of the Unicode 3.1 proposal: each row
is a prefix of some valid sequence followed by the bytes that cannot come next.
"""
from __future__ import annotations

from ..automaton import DEAD, Automaton
from ..automaton.counted import encode_counted
from ..automaton.bytesets import runs_text as _runs


def _hex(b: bytes | None) -> str:
    return "" if b is None else " ".join(f"{x:02X}" for x in b)


def _cp(cp: int | None) -> str:
    if cp is None:
        return "…"
    digits = f"{cp:08X}"
    digits = digits.rjust((len(digits) + 3) // 4 * 4, "0")
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def rows(a: Automaton) -> list[dict]:
    """The JSON rows: length, first/last bytes, offset, first/last code point."""
    out = []
    for r in sorted(a.rows, key=lambda r: (r.first, r.length)):
        out.append({
            "length": r.length, "first_bytes": _hex(a.encode_row(r, r.first)).replace(" ", ""),
            "last_bytes": _hex(a.encode_row(r, r.last)).replace(" ", ""),
            "offset": r.offset, "first": r.first, "last": r.last, "form": r.form,
        })
    for ext in a.extensions:
        first = encode_counted(ext, ext.min)
        out.append({"length": None, "first_bytes": _hex(first).replace(" ", ""), "last_bytes": None,
                    "offset": ext.offset, "first": ext.min, "last": None, "form": ext.form})
    return out


def table(a: Automaton) -> str:
    lines = [f"{a.name}: {a.title}" if a.title else a.name]
    data = []
    for row in rows(a):
        first = _hex(bytes.fromhex(row["first_bytes"]))
        last = _hex(bytes.fromhex(row["last_bytes"])) if row["last_bytes"] else "(unbounded)"
        seq = first if first == last else f"{first} … {last}"
        cps = _cp(row["first"]) if row["first"] == row["last"] else f"{_cp(row['first'])} … {_cp(row['last'])}"
        data.append((seq, f"{row['offset']}", cps))
    w0 = max(len("Byte Sequence Range"), *(len(d[0]) for d in data))
    w1 = max(len("Offset"), *(len(d[1]) for d in data))
    lines.append(f"{'Byte Sequence Range'.ljust(w0)} | {'Offset'.rjust(w1)} | Codepoint Range")
    lines.append(f"{'-' * w0}-|-{'-' * w1}-|-{'-' * 15}")
    for seq, off, cps in data:
        lines.append(f"{seq.ljust(w0)} | {off.rjust(w1)} | {cps}")
    if a.reserved:
        lines.append(f"reserved runs: {', '.join(f'{b:02X}' for b in a.reserved)} and the bytes that cannot start a sequence")
    if a.signature:
        lines.append(f"signature: {_hex(a.signature)}")
    return "\n".join(lines)



def ill_formed(a: Automaton) -> list[dict]:
    """Table 3.1b rows: a prefix (one byte set per position) and the bytes that end it."""
    out = []

    def walk(state: int, prefix: list[str], on_path: set[int]):
        acc = a.accept[state]
        live = {b: a.step(state, b) for b in range(256) if a.step(state, b) != DEAD}
        if acc is None:
            dead = set(range(256)) - set(live)
            if dead:
                out.append({"prefix": list(prefix), "ill_formed": _runs(dead), "well_formed": _runs(live)})
        by_target: dict[int, set[int]] = {}
        for b, t in live.items():
            by_target.setdefault(t, set()).add(b)
        for t, bs in sorted(by_target.items(), key=lambda kv: min(kv[1])):
            if t >= a.n_states or t in on_path:
                continue
            walk(t, prefix + [_runs(bs)], on_path | {t})

    walk(0, [], {0})
    return out


def ill_formed_table(a: Automaton) -> str:
    rows_ = ill_formed(a)
    width = max(len(r["prefix"]) for r in rows_) + 1
    cols = [max([len(f"byte {i + 1}")] + [len((r["prefix"] + [r["ill_formed"]])[i])
                                           for r in rows_ if len(r["prefix"]) >= i])
            for i in range(width)]
    head = "  #  " + "  ".join(f"byte {i + 1}".ljust(cols[i]) for i in range(width)) + "  well-formed instead"
    lines = [f"{a.name}: ill-formed byte sequences (in the style of Unicode 3.1 Table 3.1b)", head]
    for n, r in enumerate(rows_, 1):
        cells = r["prefix"] + [r["ill_formed"]]
        text = "  ".join(c.ljust(cols[i]) for i, c in enumerate(cells))
        pad = "  ".join(" " * cols[i] for i in range(len(cells), width))
        lines.append(f"{n:3}  {text}{'  ' + pad if pad else ''}  {r['well_formed']}".rstrip())
    if a.extensions:
        lines.append("counted forms continue beyond the table: " + ", ".join(e.form for e in a.extensions))
    return "\n".join(lines)
