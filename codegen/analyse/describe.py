"""``encspec describe``: the encoding's table, as the seeds print theirs.

The row table follows Corrected UTF-8's "Putting it all together"; the
``--ill-formed`` table follows Table 3.1b of the Unicode 3.1 proposal: each row
is a prefix of some valid sequence followed by the bytes that cannot come next.

A table form has no rows: after them ``describe`` prints its byte structure, how
its bytes make the pointer, and its table summarised (entries, runs of
consecutive code points, pointers without an entry, decode-only pointers,
pointers of several code points), then the encoder-only entries, the literal
forms of several code points and the sequences the encoder writes as one, and the
error-span policy.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..automaton import DEAD, Automaton
from ..automaton.bytesets import runs_text as _runs
from ..runtime import charmap
from ..runtime.tables import bind, counted_bytes, row_bytes, sequences
from . import tables as _tables

ROW_KEYS = ("length", "first_bytes", "last_bytes", "offset", "first", "last")


def _code_point(cp: int | None) -> str:
    """``0010 FFFF``: the hex digits in groups of four, as the seeds print them."""
    if cp is None:
        return "…"
    digits = f"{cp:08X}"
    digits = digits.rjust((len(digits) + 3) // 4 * 4, "0")
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def _row_lines(doc: dict[str, Any]) -> list[str]:
    """The text of the row table from its document (:func:`_rows_doc`): a heading, the
    rows, the reserved leads, the signature."""
    out = [f"{doc['name']}: {doc['title']}" if doc["title"] else doc["name"]]
    data = []
    for row in doc["rows"]:
        first = row["first_bytes"]
        last = row["last_bytes"] if row["last_bytes"] else "(unbounded)"
        seq = first if first == last else f"{first} … {last}"
        cps = (_code_point(row["first"]) if row["first"] == row["last"]
               else f"{_code_point(row['first'])} … {_code_point(row['last'])}")
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


def _hex(b: bytes | None) -> str:
    return "" if b is None else " ".join(f"{x:02X}" for x in b)


def rows(a: Automaton) -> list[dict]:
    """The rows: length, first/last bytes (``"C2 80"``, as every ``--json`` writes bytes),
    offset, first/last code point; a counted form's row has no length or last."""
    out = []
    for r in sorted(a.rows, key=lambda r: (r.first, r.length)):
        out.append({
            "length": r.length, "first_bytes": _hex(row_bytes(a, r, r.first)),
            "last_bytes": _hex(row_bytes(a, r, r.last)),
            "offset": r.offset, "first": r.first, "last": r.last, "form": r.form, "at_end": r.at_end,
        })
    for ext in a.extensions:
        first = counted_bytes(a, ext, ext.min)
        out.append({"length": None, "first_bytes": _hex(first), "last_bytes": None,
                    "offset": ext.offset, "first": ext.min, "last": None, "form": ext.form, "at_end": False})
    return out


def to_json(a: Automaton) -> dict[str, Any]:
    """``describe --json``: everything the text table shows, as one document (an `end`
    form's row says ``"end": true``).  A spec
    with mapping tables adds ``tables`` (one object per table form), ``encode_only``
    and ``errors`` (the error-span policy)."""
    out = _rows_doc(a)
    out["rows"] = [{**{k: r[k] for k in ROW_KEYS}, **({"end": True} if r["at_end"] else {})} for r in out["rows"]]
    if _table_part(a):
        out["tables"] = [table_form(a, f) for f in _tables.table_forms(a)]
        out["encode_only"] = encode_only(a)
        out["errors"] = {"policy": a.error_span, "restore": _tables.restore_text(a) or None,
                         "unmapped_reason": a.reasons.unmapped if _tables.has_tables(a) else None}
    if _has_sequences(a):
        out["several_forms"] = several_forms(a)
        out["sequences"] = written_sequences(a)
    if a.undecodable:  # the rows are the encoder's: the decoder reads none of them
        out["undecodable"] = a.reasons.unexpected_end
    if a.modes:  # the rows above are the first mode's: each mode as its own spec's, and its shifts
        out["modes"] = [{"name": m.name, **{k: v for k, v in to_json(m.part).items() if k not in ("name", "title")},
                         "shifts": {a.modes[j].name: _hex(p) for j, p in enumerate(m.shifts) if j != k and p}}
                        for k, m in enumerate(a.modes)]
        out["encode_modes"] = [a.modes[k].name for k in a.encode_modes]
        out["sticky"] = a.sticky
        out["cheapest"] = a.cheapest
        out["encode_end"] = [a.modes[k].name for k in a.encode_end]
    return out


# ------------------------------------------------------------ table forms
def _decoded(a: Automaton, data: bytes) -> str:
    """What *data*, alone, decodes to: ``U+005C``, ``U+00CA U+0304``, or the tokens' kinds."""
    from ..runtime.tables import tokens
    toks = list(tokens(a, data))
    if len(toks) == 1 and toks[0][0] == "char" and toks[0][2] == len(data):
        v = toks[0][3]
        return " ".join(f"U+{c:04X}" for c in (v if isinstance(v, tuple) else (v,)))
    return " ".join(f"{t[0]} {t[1]}..{t[2]}" for t in toks)


def encode_only(a: Automaton) -> list[dict]:
    """The spec's encoder-only entries, each with what its bytes decode to."""
    return [{"code_point": cp, "bytes": None if b is None else _hex(b),
             "decodes_to": None if b is None else _decoded(a, b)} for cp, b in a.encode_only]


LARGEST_RUNS = 5
SHOWN_ONLY = 40  # encoder-only entries listed by the text table


def table_form(a: Automaton, f) -> dict:
    """One table form: its bytes, how they make the pointer, and its table summarised
    (entries, runs of consecutive mappings, pointers without an entry, decode-only
    pointers, pointers of several code points)."""
    t = a.tables[f.table]
    cap = _tables.capacity(f)
    span = _tables.entry_range(t)
    runs_ = _tables.runs(t)
    in_form = _tables.entries_count(t, 0, cap - 1)
    largest = sorted(runs_, key=lambda r: (-(r[1] - r[0]), r[0]))[:LARGEST_RUNS]
    only = _tables.decode_only(t)
    several = _tables.multi_entries(t)

    def spelled(p):
        return _hex(_tables.spell(f, p)) if 0 <= p < cap else None

    return {
        "form": f.name, "length": f.length,
        "positions": [_runs({b for lo, hi in runs for b in range(lo, hi + 1)}) for runs in f.positions],
        "pointer": _tables.formula(f), "pointers": [0, cap - 1],
        "first_bytes": spelled(0), "last_bytes": spelled(cap - 1),
        "table": t.name, "source": t.source, "kind": "ranges" if t.ranges else "index",
        "entries": _tables.entries_count(t), "entry_pointers": list(span) if span else None,
        "runs": len(runs_),
        "largest_runs": [{"first": p, "last": q, "first_code_point": cp, "last_code_point": cp + q - p,
                          "first_bytes": spelled(p), "last_bytes": spelled(q)} for p, q, cp in largest],
        "mapped": in_form, "unmapped": cap - in_form,
        "outside_form": _tables.entries_count(t) - in_form,
        "decode_only": [[lo, hi] for lo, hi in only],
        "several": [{"pointer": p, "bytes": spelled(p), "code_points": list(v)} for p, v in several],
    }


def _num(n: int) -> str:
    return f"{n:,}"


def _cps(cp: int) -> str:
    return f"U+{cp:04X}"


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def _bytes_range(d: dict, lo: str, hi: str) -> str:
    return lo if lo == hi else f"{lo} … {hi}"


def table_lines(a: Automaton, with_sequences: bool = True) -> list[str]:
    """The text ``describe`` prints after the rows for a spec with mapping tables (the
    sequences of code points last, unless *with_sequences* is false)."""
    lines = []
    for d in (table_form(a, f) for f in _tables.table_forms(a)):
        lines.append("")
        lines.append(f"table form {d['form']}: {d['length']} byte{'s' if d['length'] > 1 else ''}, "
                     + " then ".join(d["positions"]))
        lines.append(f"  pointer = {d['pointer']}: {_range(*d['pointers'])} "
                     f"({_bytes_range(d, d['first_bytes'], d['last_bytes'])})")
        lines.append(f"  table {d['table']} ({d['kind']}, {d['source']})")
        if d["entry_pointers"] is None:
            lines.append("    no entries")
            continue
        lo, hi = d["entry_pointers"]
        unit = "pointers" if d["kind"] == "ranges" else "entries"
        lines.append(f"    pointers {_range(lo, hi)}: {_num(d['entries'])} {unit} in {_num(d['runs'])} "
                     f"run{'s' if d['runs'] != 1 else ''} of consecutive code points")
        lines.append(f"    {_num(d['mapped'])} of the form's {_num(d['pointers'][1] + 1)} pointers have an entry; "
                     f"{_num(d['unmapped'])} have none (errors: '{a.reasons.unmapped}')"
                     + (f"; {_num(d['outside_form'])} entries lie beyond the form's pointers"
                        if d["outside_form"] else ""))
        if d["largest_runs"]:
            lines.append("    largest runs: " + "; ".join(
                f"{_range(r['first'], r['last'])} = {_cps(r['first_code_point'])}"
                + (f"..{_cps(r['last_code_point'])}" if r["last"] > r["first"] else "")
                + (f" ({_bytes_range(d, r['first_bytes'], r['last_bytes'])}, {_num(r['last'] - r['first'] + 1)})"
                   if r["first_bytes"] else "")
                for r in d["largest_runs"]))
        only = d["decode_only"]
        if only:
            big = sorted(sorted(only, key=lambda r: r[0] - r[1])[:6])
            big = [(lo, hi) for lo, hi in big if hi - lo + 1 >= 16]
            small = sum(hi - lo + 1 for lo, hi in only if (lo, hi) not in big)
            parts = [f"{_range(lo, hi)}" for lo, hi in big]
            if small:
                parts.append(f"{_num(small)} {'more ' if big else ''}pointer{'s' if small != 1 else ''} "
                             f"in {_num(len(only) - len(big))} range{'s' if len(only) - len(big) != 1 else ''}")
            total = sum(hi - lo + 1 for lo, hi in only)
            lines.append(f"    decode-only ({_num(total)} pointers the encoder never writes): " + ", ".join(parts))
        for s in d["several"]:
            lines.append(f"    pointer {s['pointer']} ({s['bytes']}) = "
                         + " ".join(_cps(c) for c in s["code_points"]) + " (several code points)")
    only = encode_only(a)
    if only:
        lines.append("")
        lines.append(f"encoder-only entries ({len(only)}, written before any form):")
        for e in only[:SHOWN_ONLY]:
            if e["bytes"] is None:
                lines.append(f"  {_cps(e['code_point'])} -> refused (unencodable)")
            else:
                lines.append(f"  {_cps(e['code_point'])} -> {e['bytes']}   (these bytes decode to {e['decodes_to']})")
        if len(only) > SHOWN_ONLY:
            lines.append(f"  … {len(only) - SHOWN_ONLY} more (--json lists them all)")
    if with_sequences:
        lines += sequence_lines(a)
    if a.digit_run is not None:
        r = a.digit_run
        lines.append("")
        lines.append(f"run of digits '{r.name}': {r.opener:02X} then digits of {r.bits} bits "
                     f"({_hex(r.digits[:4])} … {_hex(r.digits[-2:])}), every {r.unit_bits} bits a code unit"
                     + (" (surrogate pairs combine)" if r.pairs else "")
                     + (f"; ends at any other byte, {r.end:02X} absorbed" if r.end is not None else
                        "; ends at any other byte"))
    lines.append("")
    lines.append("errors: " + _tables.error_span_text(a))
    return lines


# ------------------------------------------------------------ sequences of code points
def _has_sequences(a: Automaton) -> bool:
    return bool(sequences(a)) or any(x.pointer is None for x in _tables.several_values(a))


def several_forms(a: Automaton) -> list[dict]:
    """The literal forms whose value is several code points (a table's are under its form)."""
    return [{"form": x.form, "bytes": _hex(x.data), "code_points": list(x.code_points)}
            for x in _tables.several_values(a) if x.pointer is None]


def written_sequences(a: Automaton) -> list[dict]:
    """The sequences of code points the encoder writes as one, each with what its bytes
    decode to."""
    return [{"code_points": list(cps), "bytes": _hex(data), "decodes_to": _decoded(a, data)}
            for cps, data in sequences(a)]


def sequence_lines(a: Automaton) -> list[str]:
    """The literal forms of several code points, then the sequences the encoder writes."""
    return literal_form_lines(a) + written_lines(a)


def literal_form_lines(a: Automaton) -> list[str]:
    """The literal forms whose value is several code points."""
    forms = several_forms(a)
    if not forms:
        return []
    return ["", "literal forms of several code points:", *(
        f"  form {f['form']}: {f['bytes']} = " + " ".join(_cps(c) for c in f["code_points"]) for f in forms)]


def written_lines(a: Automaton) -> list[str]:
    """The sequences of code points the encoder writes as one, with their bytes."""
    written = written_sequences(a)
    if not written:
        return []
    lines = ["", f"sequences of code points the encoder writes as one ({len(written)}; "
                 "at each position the longest the text holds):"]
    for w in written[:SHOWN_ONLY]:
        text = " ".join(_cps(c) for c in w["code_points"])
        back = "" if w["decodes_to"] == text else f"   (these bytes decode to {w['decodes_to']})"
        lines.append(f"  {text} -> {w['bytes']}{back}")
    if len(written) > SHOWN_ONLY:
        lines.append(f"  … {len(written) - SHOWN_ONLY} more (--json lists them all)")
    return lines


def _rows_doc(a: Automaton) -> dict[str, Any]:
    """What the row table shows, as :func:`_row_lines` takes it (the rows with their form)."""
    return {"name": a.name, "title": a.title or None, "rows": rows(a),
            "reserved_leads": [f"{b:02X}" for b in a.reserved],
            "signature": _hex(a.signature) if a.signature else None}


def _table_part(a: Automaton) -> bool:
    """Whether describe says more than the rows: table forms, encoder-only entries or an
    error-span policy of the spec's own."""
    return (_tables.has_tables(a) or bool(a.encode_only) or a.error_span != "maximal-subpart"
            or _has_sequences(a))


def code_page_lines(a: Automaton) -> list[str]:
    """A single-byte spec's code page, 16 by 16 as code pages are printed: the code point
    each byte decodes to (``----``: none, an error), or [] for any other spec."""
    bound = bind(a)
    got = charmap.tables(bound) if charmap.single_byte(bound) else None
    if got is None:
        return []
    decoding = got[0]
    lines = ["", "code page (row: first hex digit of the byte, column: second; ---- decodes to nothing):",
             "    " + " ".join(f"  _{c:X}" for c in range(16))]
    for r in range(16):
        cells = (decoding[16 * r + c] for c in range(16))
        lines.append(f"{r:X}_  " + " ".join("----" if ch == charmap.UNDEFINED else f"{ord(ch):04X}" for ch in cells))
    return lines


def _shift_lines(a: Automaton, k: int) -> list[str]:
    """Mode *k*'s way to each other mode: the shortest shift bytes (the shift graph)."""
    m = a.modes[k]
    ways = [f"{_hex(p)} -> {a.modes[j].name}" for j, p in enumerate(m.shifts) if j != k and p]
    return ["shifts: " + ("; ".join(ways) if ways else "none leave this mode")]


def mode_lines(a: Automaton) -> list[str]:
    """A spec with modes: each mode's rows and table forms (as its own spec's), and its
    shifts; then the encoder's modes."""
    lines = [f"{a.name}: {a.title}" if a.title else a.name,
             f"{len(a.modes)} modes; the data starts in {a.modes[0].name}"]
    first_with: dict[tuple[str, ...], str] = {}  # sequence lines -> the first mode printing them
    for k, m in enumerate(a.modes):
        part = replace(m.part, name=f"mode {m.name}", title="")
        lines += ["", *_row_lines(_rows_doc(part))]
        if _table_part(part):
            written = tuple(written_lines(part))
            lines += table_lines(part, with_sequences=False) + literal_form_lines(part)
            if written and written in first_with:
                lines += ["", f"sequences of code points the encoder writes as one: those of mode "
                              f"{first_with[written]}"]
            else:
                lines += written
                first_with.setdefault(written, m.name)
        lines += _shift_lines(a, k)
        if m.leaving:
            lines.append(f"characters that end the mode (never encoded): {', '.join(m.leaving)}")
        if m.unencodable is not None:
            lines.append(f"before a code point it cannot write, the encoder goes to {a.modes[m.unencodable].name}")
    order = ", ".join(a.modes[k].name for k in a.encode_modes)
    how = ("staying in a mode while it holds the next character" if a.sticky else
           "the one its shifts reach with the fewest bytes" if a.cheapest else "the first that holds each")
    ends = " or ".join(a.modes[k].name for k in a.encode_end)
    lines += ["", f"encoder: {order} ({how}); every text ends in {ends}"]
    return lines


def table(a: Automaton) -> str:
    """The row table as ``encspec describe`` prints it (then, for a spec with mapping
    tables, encoder-only entries or an error-span policy, what :func:`table_lines` adds,
    and a single-byte spec's 16 by 16 code page); a spec with modes, mode by mode."""
    if a.modes:
        return "\n".join(mode_lines(a))
    lines = _row_lines(_rows_doc(a))
    if _table_part(a):
        lines += table_lines(a)
    lines += code_page_lines(a)
    if a.undecodable:
        lines += ["", f"the decoder reads no form (undecodable): any input is one error "
                      f"('{a.reasons.unexpected_end}'); the rows are the encoder's"]
    return "\n".join(lines)


_ILL, _EXT = "ill", "ext"  # configurations: no way to well-formed text; inside a counted form
_START = (0, None, ())


def _is_error(a: Automaton, action) -> bool:
    return action is not None and a.actions[action].kind == "error"


def _feed(a: Automaton, cfg, c: int):
    """The scanner's configuration after one more byte of class *c*: ``(state, action of
    the last accepting state of the token being read, classes read since)``, _ILL once
    an error token is certain, _EXT inside a counted form.  Longest match: when the
    automaton dies, the last accepting state's token ends and the bytes read since are
    read again from the start."""
    q, acc, pend = cfg
    t = a.next[q][c]
    if t >= a.n_states:
        return _EXT
    if t != DEAD:
        if a.accept[t] is not None:
            if a.final(t):
                return _ILL if _is_error(a, a.accept[t]) else _START
            return (t, a.accept[t], ())
        return (t, acc, pend + (c,) if acc is not None else ())
    if acc is None or _is_error(a, acc):
        return _ILL
    cfg = _START
    for x in pend + (c,):
        cfg = _feed(a, cfg, x)
        if cfg in (_ILL, _EXT):
            break
    return cfg


def _ends_well(a: Automaton, cfg) -> bool:
    """Whether the input may end in *cfg*: every token read is well-formed."""
    while True:
        if cfg == _START or cfg == _EXT:
            return True
        if cfg == _ILL:
            return False
        q, acc, pend = cfg
        if a.accept[q] is not None:
            return not _is_error(a, a.accept[q])
        if acc is None or _is_error(a, acc):
            return False
        cfg = _START
        for x in pend:
            cfg = _feed(a, cfg, x)


# Configurations walked at most: one holds the bytes read past the last accepting state,
# so long ill-formed patterns with a fallback (CPython's ISO-2022 escape sequences: up to
# 14 such bytes) make their number grow with the byte classes to that power.
MAX_CONFIGURATIONS = 10_000  # the built-ins without such patterns reach 26 at most


class TooManyConfigurations(Exception):
    """The walk behind Table 3.1b would exceed MAX_CONFIGURATIONS."""


def _configurations(a: Automaton):
    """Every configuration reachable from the start, its successors per class, and the
    block of each under "the same continuations keep the input well-formed" (minimal)."""
    succ: dict = {}
    todo = [_START]
    while todo:
        cfg = todo.pop()
        if cfg in succ:
            continue
        if len(succ) >= MAX_CONFIGURATIONS:
            raise TooManyConfigurations
        if cfg in (_ILL, _EXT):
            succ[cfg] = (cfg,) * a.n_classes
            continue
        succ[cfg] = tuple(_feed(a, cfg, c) for c in range(a.n_classes))
        todo.extend(t for t in succ[cfg] if t not in succ)
    viable = {c for c in succ if c != _ILL and _ends_well(a, c)}
    grew = True
    while grew:  # viable: some continuation ends well
        grew = False
        for c, ts in succ.items():
            if c not in viable and c != _ILL and any(t in viable for t in ts):
                viable.add(c)
                grew = True
    block: dict = {c: (c == _EXT, c in viable) for c in succ}  # then c -> its block's number
    while True:  # Moore's refinement
        sig = {c: (block[c], tuple(block[t] for t in succ[c])) for c in succ}
        ids = {k: i for i, k in enumerate(sorted(set(sig.values()), key=repr))}
        new = {c: ids[sig[c]] for c in succ}
        if len(set(new.values())) == len(set(block.values())):
            return succ, viable, new
        block = new


def ill_formed(a: Automaton) -> list[dict]:
    """Table 3.1b rows: a prefix (one byte set per position) and the bytes that end it.

    A row's instances are the shortest inputs, from a token boundary, that no
    continuation makes well-formed (the proposal's line 11: WTF-8's ``ED A0..AF
    80..BF ED B0..BF``), so an input of the bounded forms is ill-formed if and only if
    it contains a row.  The walk follows the scanner, longest match and fallback
    included, one token at a time: a token that ends starts again at row 1.  Bytes
    after a complete token that a fresh start rejects are left to row 1.
    """
    succ, viable, block = _configurations(a)
    out = []

    def walk(cfg, prefix: list[str], on_path: set):
        q = cfg[0]
        ends_here = a.accept[q] is not None and not _is_error(a, a.accept[q])
        ill, live = set(), set()
        groups: dict = {}
        for b in range(256):
            c = a.classes[b]
            t = succ[cfg][c]
            raw = a.next[q][c]
            if t not in viable:
                if not (ends_here and raw == DEAD):
                    ill.add(b)
                continue
            live.add(b)
            if t != _EXT and raw != DEAD and not a.final(raw):  # the token goes on
                groups.setdefault(block[t], (t, set()))[1].add(b)
        if ill:
            out.append({"prefix": list(prefix), "ill_formed": _runs(ill), "well_formed": _runs(live)})
        for blk, (t, bs) in sorted(groups.items(), key=lambda kv: min(kv[1][1])):
            if blk not in on_path:
                walk(t, prefix + [_runs(bs)], on_path | {blk})

    walk(_START, [], {block[_START]})
    return out


def ill_formed_table(a: Automaton) -> str:
    """The Table 3.1b rows as ``encspec describe --ill-formed`` prints them."""
    try:
        rows_ = ill_formed(a)
    except TooManyConfigurations:
        return (f"{a.name}: ill-formed byte sequences (in the style of Unicode 3.1 Table 3.1b): not "
                f"computed: the scanner's fallback reaches more than {MAX_CONFIGURATIONS:,} configurations "
                "(long ill-formed patterns; `encspec tokens` shows any input's errors)")
    if not rows_:   # WTF-16: any sequence of units is well-formed, and a cut one can be completed
        return (f"{a.name}: ill-formed byte sequences (in the style of Unicode 3.1 Table 3.1b): none; "
                "every byte sequence can be continued to a well-formed one")
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
    for u in unmapped(a):
        lines.append(f"table form {u['form']}: its bytes are well-formed above, but {_num(u['unmapped'])} of its "
                     f"{_num(u['pointers'])} pointers have no entry in table {u['table']} and are errors too "
                     "(see describe)")
    return "\n".join(lines)


def unmapped(a: Automaton) -> list[dict]:
    """Per table form: how many of its pointers have no entry (errors the rows above cannot show)."""
    out = []
    for f in _tables.table_forms(a):
        cap = _tables.capacity(f)
        t = a.tables[f.table]
        out.append({"form": f.name, "table": t.name, "pointers": cap,
                    "unmapped": cap - _tables.entries_count(t, 0, cap - 1)})
    return out


def ill_formed_json(a: Automaton) -> dict[str, Any]:
    """``describe --ill-formed --json``: the Table 3.1b rows, the counted forms they leave
    out and, for table forms, the pointers without an entry."""
    try:
        rows_: list[dict] | None = ill_formed(a)
    except TooManyConfigurations:  # null, with the reason
        rows_ = None
    doc: dict[str, Any] = {"name": a.name, "title": a.title or None, "ill_formed": rows_,
                           "counted_forms": [e.form for e in a.extensions]}
    if rows_ is None:
        doc["note"] = f"not computed: more than {MAX_CONFIGURATIONS:,} configurations"
    if a.tables:  # a table form's pointers without an entry are errors the rows cannot show
        doc["unmapped"] = unmapped(a)
    return doc


def document(a: Automaton, generator: str) -> str:
    """Every form of describe's output, as ``encspec build`` keeps it for a built-in
    (``generated/tables/NAME.describe.json``), so describing a built-in reads one file
    instead of compiling its spec; stamped with the spec file's SHA-256, which the reader
    compares with the spec as it is now."""
    import json
    doc = {"generator": generator, "generated": "do not edit; regenerate with `encspec build`",
           "spec": {"file": a.spec_file, "sha256": a.spec_sha256},
           "table": table(a), "json": to_json(a),
           "ill_formed_table": ill_formed_table(a), "ill_formed_json": ill_formed_json(a)}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
