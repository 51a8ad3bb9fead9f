"""``encspec chart``: pictures of an encoding, read off the automaton.

``codepage`` classifies the 256 byte values the way the encyclopedia article's
"Codepage layout" colours UTF-8's: single-byte codes (blue), continuation bytes
(orange, with a large dot), lead bytes labelled with the sequence length and the
lowest code point they start (white), lead bytes of which only some continuation
sequences are valid (pink), bytes that never appear in a valid sequence (red) —
plus the spec's reserved leads (grey).  A byte with two roles (UTF-1's 21..7E are
characters and trail digits) gets the colour of its role at the start of a
sequence and the continuation dot.  ``codepage_svg`` draws it (SVG written by a
template, deterministic); ``automaton_dot`` writes the automaton for Graphviz.

Two things come from outside the automaton, both declared here as data: the
Unicode block names the article's table writes in UTF-8's lead cells
(``ARTICLE_BLOCKS``), and an *ancestor* spec whose meaning a red byte had
(``ANCESTORS``: UTF-8 and its derivatives descend from RFC 2279's 1-to-6-byte
UTF-8, where F8..FD were 5- and 6-byte leads).
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..automaton import DEAD, Automaton
from ..automaton.actions import Lookup, Pair, Shift, Value
from ..automaton.bytesets import runs_text
from ..runtime.tables import row_bytes, scan
from ..spec.model import DigitSet
from . import tables as _tables

KINDS = {
    "single": ("#9fc5e8", "single-byte code"),
    "continuation": ("#f6b26b", "continuation byte (+ the value its digit adds)"),
    "lead": ("#ffffff", "lead byte: sequence length, lowest code point"),
    "partial": ("#f4cccc", "lead byte: only some continuations are valid"),
    "reserved": ("#b7b7b7", "reserved lead (a run of its own)"),
    "table": ("#93c47d", "lead byte of a table form: the darker, the more of its pointers have an entry"),
    "never": ("#e06666", "never valid (would-be length, lowest value)"),
    "shift": ("#c9a0dc", "begins a shift sequence (→ the mode it enters)"),
}

# The lead cells of the "Codepage layout" table of UTF-8 in the encyclopedia
# article (utf-8-encyclopedia-article.txt): "The text shows the Unicode blocks
# encoded by sequences starting with this byte, and the hexadecimal code point
# shown in the cell is the lowest character value encoded using that leading
# byte."  byte: (the block label as the article writes it, the code point it
# shows).  A spec's lead cell gets the label only where it starts at that same
# code point, i.e. where the byte means what it means in UTF-8.  F1 and F2 have
# no label: the article shows the unassigned characters U+40000 and U+80000
# themselves there, not a block name.
ARTICLE_BLOCKS = {
    0xC2: ("Latin", 0x0080), 0xC3: ("Latin", 0x00C0), 0xC4: ("Latin", 0x0100), 0xC5: ("Latin", 0x0140),
    0xC6: ("Latin", 0x0180), 0xC7: ("Latin", 0x01C0), 0xC8: ("Latin", 0x0200), 0xC9: ("IPA", 0x0240),
    0xCA: ("IPA", 0x0280), 0xCB: ("IPA", 0x02C0), 0xCC: ("accents", 0x0300), 0xCD: ("accents", 0x0340),
    0xCE: ("Greek", 0x0380), 0xCF: ("Greek", 0x03C0),
    0xD0: ("Cyril", 0x0400), 0xD1: ("Cyril", 0x0440), 0xD2: ("Cyril", 0x0480), 0xD3: ("Cyril", 0x04C0),
    0xD4: ("Cyril", 0x0500), 0xD5: ("Armeni", 0x0540), 0xD6: ("Hebrew", 0x0580), 0xD7: ("Hebrew", 0x05C0),
    0xD8: ("Arabic", 0x0600), 0xD9: ("Arabic", 0x0640), 0xDA: ("Arabic", 0x0680), 0xDB: ("Arabic", 0x06C0),
    0xDC: ("Syriac", 0x0700), 0xDD: ("Arabic", 0x0740), 0xDE: ("Thaana", 0x0780), 0xDF: ("N'Ko", 0x07C0),
    0xE0: ("Indic", 0x0800), 0xE1: ("Misc.", 0x1000), 0xE2: ("Symbol", 0x2000), 0xE3: ("Kana", 0x3000),
    0xE4: ("CJK", 0x4000), 0xE5: ("CJK", 0x5000), 0xE6: ("CJK", 0x6000), 0xE7: ("CJK", 0x7000),
    0xE8: ("CJK", 0x8000), 0xE9: ("CJK", 0x9000), 0xEA: ("Asian", 0xA000), 0xEB: ("Hangul", 0xB000),
    0xEC: ("Hangul", 0xC000), 0xED: ("Hangul", 0xD000), 0xEE: ("PUA", 0xE000), 0xEF: ("Forms", 0xF000),
    0xF0: ("SMP…", 0x10000), 0xF3: ("SSP…", 0xC0000), 0xF4: ("SPU…", 0x100000),
}

# spec name: the spec a red byte's historical meaning is read from.  The article's
# red F5..FD cells show "4 140000" … "6 40000000": what those leads meant in
# FSS-UTF (1992) / UTF-8 (1993), RFC 2279's 1-to-6-byte UTF-8, before RFC 3629
# "ending at U+10FFFF removed ... all five- and six-byte sequences".  The
# derivatives of UTF-8 descend from the same UTF-8.
ANCESTORS = {
    "utf-8": "utf-8-rfc2279",
    "utf-8-bom": "utf-8-rfc2279",
    "wtf-8": "utf-8-rfc2279",
    "cesu-8": "utf-8-rfc2279",
    "mutf-8": "utf-8-rfc2279",
}

CONTROLS = ("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI "
            "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US").split()


def _hex_cp(cp: int) -> str:
    return f"{cp:04X}"


def _char_label(cp: int) -> str:
    if cp < 0x20:
        return CONTROLS[cp]
    if cp == 0x20:
        return "SP"
    if cp == 0x7F:
        return "DEL"
    if 0x80 <= cp <= 0x9F:
        return "C1"
    ch = chr(cp) if cp <= 0x10FFFF else ""
    return ch if ch.isprintable() and not (0xD800 <= cp <= 0xDFFF) else "·"


def _can_char(a: Automaton) -> set[int]:
    good = {s for s in range(a.n_states) if a.accepts_char(s)}
    changed = True
    while changed:
        changed = False
        for s in range(a.n_states):
            if s not in good and any(0 <= t < a.n_states and t in good or t >= a.n_states for t in a.next[s]):
                good.add(s)
                changed = True
    return good


def _is_char(a: Automaton, s: int) -> bool:
    return a.accepts_char(s)


def _layers(a: Automaton, depth: int):
    """fwd[i]: states at depth i; back[n][i]: states at depth i that reach a char at depth n."""
    fwd = [{0}]
    for _ in range(depth):
        fwd.append({t for s in fwd[-1] for t in a.next[s] if 0 <= t < a.n_states})
    back = {}
    for n in range(1, depth + 1):
        layer: list[set[int]] = [set() for _ in range(n + 1)]
        layer[n] = {s for s in fwd[n] if _is_char(a, s)}
        for i in range(n - 1, -1, -1):
            layer[i] = {s for s in fwd[i] if any(0 <= t < a.n_states and t in layer[i + 1] for t in a.next[s])}
        if 0 in layer[0]:
            back[n] = layer
    return fwd, back


def _continuation_sets(a: Automaton, back) -> dict[int, set[int]]:
    """For each length n: the bytes at positions 2..n of valid sequences of length n."""
    out = {}
    for n, layer in back.items():
        ks = set()
        for i in range(1, n):
            for s in layer[i]:
                for b in range(256):
                    t = a.step(s, b)
                    if 0 <= t < a.n_states and t in layer[i + 1]:
                        ks.add(b)
        out[n] = ks
    return out


def _full(a: Automaton, t: int, n: int, ks: set[int]) -> bool:
    """Every sequence of n-1 bytes from ks after the lead is valid."""
    states = {t}
    for _ in range(n - 1):
        nxt = set()
        for s in states:
            for b in ks:
                u = a.step(s, b)
                if u == DEAD or u >= a.n_states:
                    return False
                nxt.add(u)
        states = nxt
    return all(_is_char(a, s) for s in states)


def _lowest(a: Automaton, b: int) -> int | None:
    """The lowest code point whose (first) encoding starts with byte b."""
    best = None
    for r in a.rows:
        first, last = row_bytes(a, r, r.first), row_bytes(a, r, r.last)
        if not first[0] <= b <= last[0]:
            continue
        lo, hi = r.first, r.last
        while lo < hi:  # the first code point of the row whose lead is >= b
            mid = (lo + hi) // 2
            if row_bytes(a, r, mid)[0] >= b:
                hi = mid
            else:
                lo = mid + 1
        if row_bytes(a, r, lo)[0] == b and (best is None or lo < best):
            best = lo
    for ext in a.extensions:
        if ext.prefix_bytes and ext.prefix_bytes[0] == b and (best is None or ext.min < best):
            best = ext.min
    return best


def _would_be(a: Automaton, b: int) -> tuple[int, int] | None:
    """(length, lowest value) of the linear form whose first position holds b, as if valid."""
    for f, rows in a.digit_forms():
        pos = f.positions
        d = DigitSet(pos[0]).digit_of(b)
        if d is None or len(pos) < 2:
            continue
        weight = 1
        for runs in pos[1:]:
            weight *= sum(hi - lo + 1 for lo, hi in runs)
        return len(pos), d * weight + min(r.offset for r in rows)
    return None


def ancestor_of(a: Automaton) -> Automaton | None:
    """The automaton of *a*'s ancestor in ``ANCESTORS``, or None."""
    name = ANCESTORS.get(a.name)
    return None if name is None else _builtin(name)


@lru_cache(maxsize=8)
def _builtin(name: str) -> Automaton:
    """A built-in spec's automaton, compiled by the stages before analyse (not pipeline, which
    is after it: only the cells are drawn, so its claims need no verifying here)."""
    from ..automaton import compile_spec
    from ..spec import registry
    from ..spec.parse import parse_file
    return compile_spec(parse_file(str(registry.find_builtin(name))))


def codepage(a: Automaton, ancestor: Automaton | None = None) -> list[dict]:
    """The 256 cells: byte, kind, label, sub (second line), title (tooltip), continues, lengths,
    block (the article's block name, or ""), then (the ancestor whose meaning a red cell shows, or None).

    A red byte that is a character or a lead in *ancestor* shows that cell's label and
    lowest code point (the article's "5 200000" for F8 in UTF-8); other red bytes the
    length and lowest value they would have in *a*'s own forms.
    """
    old = codepage(ancestor) if ancestor is not None else None
    table_leads = table_occupancy(a)
    several = sequence_notes(a)
    depth = _tables.max_length(a) or max(r.length for r in a.rows)
    fwd, back = _layers(a, depth)
    ks = _continuation_sets(a, back)
    can = _can_char(a)
    # bytes that continue a sequence that can still become valid, and their digit value
    reach = set().union(*fwd)
    cont: dict[int, int | None] = {}
    for s in sorted(reach - {0}):
        if s not in can:
            continue
        for b in range(256):
            c = a.classes[b]
            t = a.next[s][c]
            if t != DEAD and (t >= a.n_states or t in can) and cont.get(b) is None:
                op = a.ops[s][c]  # None where the value does not matter (a fixed sequence)
                cont[b] = None if op is None else b - op[1]
    for ext in a.extensions:
        for item in ext.items:
            for lo, hi in item.runs:
                for b in range(lo, hi + 1):
                    cont.setdefault(b, DigitSet(item.runs).digit_of(b))
    shifts = _shift_leads(a)
    cells: list[dict[str, Any]] = []  # one cell's fields, for the SVG template
    for b in range(256):
        t = a.step(0, b)
        cell: dict[str, Any] = {"byte": b, "continues": b in cont, "lengths": [], "lowest": None, "block": "", "then": None}
        if b in a.reserved:
            cell.update(kind="reserved", label="res.", sub="run",
                        title="reserved lead: it and every following byte that cannot start a sequence")
        elif _is_char(a, t) and all(u == DEAD for u in a.next[t]):
            tok = scan(a, bytes([b]), 0)
            cp = tok[3]
            if cp is None:  # a single-byte table form's pointer without an entry: a code page's hole
                cell.update(kind="never", label="", sub="", title=f"never valid: {tok[4]}")
            else:
                cell.update(kind="single", label=_char_label(cp), sub=_hex_cp(cp), lengths=[1], lowest=cp,
                            title=f"U+{cp:04X} in one byte")
        elif t != DEAD and (t >= a.n_states or t in can):
            lengths = sorted(n for n, layer in back.items() if t < a.n_states and t in layer[1])
            counted = t >= a.n_states or any(
                u >= a.n_states for s in {t} | _after(a, t) for u in a.next[s])
            if _is_char(a, t):
                lengths = [1] + [n for n in lengths if n != 1]
            full = not counted and bool(lengths) and all(
                _full(a, t, n, ks[n]) for n in lengths if n > 1)
            low = _lowest(a, b)
            label = ",".join(str(n) for n in lengths) + ("+" if counted else "")
            cell.update(kind="lead" if full else "partial", label=label,
                        sub=_hex_cp(low) if low is not None else "", lengths=lengths, lowest=low,
                        title=(f"lead of {label}-byte sequences from U+{low:04X}" if low is not None
                               else f"lead of {label}-byte sequences")
                        + ("" if full else "; only some continuations are valid"))
        elif b in cont:
            d = cont[b]
            cell.update(kind="continuation", label=f"+{d:02X}" if d is not None else "cont.", sub="",
                        title="continuation byte" + (f" (digit {d:#x})" if d is not None else ""))
        elif b in shifts:
            cell.update(kind="shift", label="shift", sub="→ " + shifts[b][0] + ("…" if len(shifts[b]) > 1 else ""),
                        title=f"begins shift sequences (to {', '.join(shifts[b])})")
        elif old is not None and ancestor is not None and old[b]["kind"] in ("single", "lead", "partial"):
            prev = old[b]
            cell.update(kind="never", label=prev["label"], sub=prev["sub"], then=ancestor.name,
                        title=f"never valid in {a.name}; in {ancestor.name}: {prev['title']}")
        else:
            would = _would_be(a, b)
            cell.update(kind="never", label=str(would[0]) if would else "", sub=_hex_cp(would[1]) if would else "",
                        title="never valid" + (f" (would start {would[0]}-byte sequences from U+{would[1]:04X})"
                                               if would else ""))
        block = ARTICLE_BLOCKS.get(b)
        if block and cell["kind"] in ("lead", "partial") and cell["lowest"] == block[1]:
            cell["block"] = block[0]
        occupancy = table_leads.get(b)
        if occupancy is not None and cell["kind"] in ("lead", "partial"):
            mapped, total, lowest, names = occupancy
            low = min(x for x in (cell["lowest"], lowest) if x is not None) if lowest is not None else cell["lowest"]
            share = mapped / total if total else 0.0
            cell.update(kind="table", sub=_hex_cp(low) if low is not None else "", lowest=low,
                        occupancy=round(share, 4), block=f"{share:.0%}" if mapped < total else "100%",
                        fill=_shade(share), shaded=True,
                        title=f"lead of {cell['label']}-byte sequences"
                              + (f" from U+{low:04X}" if low is not None else "")
                              + f"; table form{'s' if len(names) > 1 else ''} {', '.join(names)}: "
                              f"{mapped:,} of its {total:,} pointers have an entry ({share:.1%})")
        if b in several and cell["kind"] in ("lead", "partial", "table"):
            cell["title"] += several[b]
        if b in shifts and cell["kind"] != "shift":
            cell["title"] += f"; also begins shift sequences (to {', '.join(shifts[b])})"
        cells.append(cell)
    real = a.permutation
    if real is not None:  # walked as intermediate bytes: each real byte shows its intermediate byte's cell
        cells.sort(key=lambda cell: real[cell["byte"]])
        for cell in cells:
            cell["byte"] = real[cell["byte"]]
    return cells


def _shift_leads(a: Automaton) -> dict[int, list[str]]:
    """Per byte that begins a shift sequence from the start, the modes its shifts enter."""
    out: dict[int, list[str]] = {}
    for b in range(256):
        t = a.step(0, b)
        if t == DEAD or t >= a.n_states:
            continue
        for s in {t} | _after(a, t):
            k = a.accept[s]
            act = a.actions[k] if k is not None else None
            if isinstance(act, Shift) and act.mode not in out.setdefault(b, []):
                out[b].append(act.mode)
        if not out.get(b):
            out.pop(b, None)
    return out


def _shade(share: float) -> str:
    """The fill of a table lead: from pale (no pointer has an entry) to KINDS' green (all do)."""
    lo, hi = (0xf1, 0xf7, 0xee), (0x6a, 0xa8, 0x4f)
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(lo, hi))


def table_occupancy(a: Automaton) -> dict[int, tuple[int, int, int | None, list[str]]]:
    """Per lead byte of a table form: (pointers with an entry, pointers, the lowest code point
    among them, the forms) over every table form it leads.  A lead's pointers are those whose
    first byte it is: with big-endian digits, one interval per form."""
    out: dict = {}
    for f in _tables.table_forms(a):
        t = a.tables[f.table]
        first = f.positions[0]
        digit = 0
        rs = _tables.radices(f)
        weight = 1
        for r in rs[1:]:
            weight *= r
        for lo, hi in first:
            for b in range(lo, hi + 1):
                if _tables.big_endian(f):
                    p0, p1 = digit * weight, (digit + 1) * weight - 1
                    pieces = _tables.pieces(t, p0, p1)
                    mapped = sum((q - p + 1) if k == "linear" else sum(v != -1 for v in d) if k == "array" else 0
                                 for p, q, k, d in pieces)
                    cps = [d for p, q, k, d in pieces if k == "linear"]
                    cps += [min((v if isinstance(v, int) else v[0]) for v in d if v != -1)
                            for p, q, k, d in pieces if k == "array" and any(v != -1 for v in d)]
                    lowest = min(cps) if cps else None
                else:  # digits least significant first: the lead's pointers one by one
                    looked = [t.lookup(q) for q in range(_tables.capacity(f)) if _tables.spell(f, q)[0] == b]
                    vals = [v if isinstance(v, int) else v[0] for v in looked if v is not None]
                    mapped, lowest = len(vals), (min(vals) if vals else None)
                m, n, low, names = out.get(b, (0, 0, None, []))
                lows = [x for x in (low, lowest) if x is not None]
                out[b] = (m + mapped, n + weight, min(lows) if lows else None, names + [f.name])
                digit += 1
    return out


def sequence_notes(a: Automaton, shown: int = 4) -> dict[int, str]:
    """Per lead byte of sequences that read as several code points (a table form's
    pointers, a literal form): the words its title ends with, naming the first *shown*."""
    found: dict[int, list[str]] = {}
    for x in _tables.several_values(a):
        found.setdefault(x.data[0], []).append(x.data.hex(" ").upper() + " = "
                                               + " ".join(f"U+{c:04X}" for c in x.code_points))
    out = {}
    for b, items in found.items():
        more = f" and {len(items) - shown} more" if len(items) > shown else ""
        out[b] = (f"; {len(items)} of them stand{'s' if len(items) == 1 else ''} for several code points: "
                  + ", ".join(items[:shown]) + more)
    return out


def _after(a: Automaton, t: int) -> set[int]:
    seen, todo = set(), [t]
    while todo:
        s = todo.pop()
        for u in a.next[s]:
            if 0 <= u < a.n_states and u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


# ---------------------------------------------------------------- SVG

CELL_W, CELL_H, MARGIN = 58, 46, 28


def mode_part(a: Automaton, mode: str | None) -> Automaton:
    """The automaton a chart of one mode draws: the mode's own part (default: the first
    mode, where the data starts), named after it; *a* itself for a spec without modes."""
    if not a.modes:
        if mode is not None:
            raise ValueError(f"{a.name} has no modes (--mode is for a spec with modes)")
        return a
    names = [m.name for m in a.modes]
    if mode is not None and mode not in names:
        raise ValueError(f"{a.name} has no mode {mode!r} (its modes: {', '.join(names)})")
    m = a.modes[names.index(mode) if mode is not None else 0]
    return replace(m.part, name=f"{a.name}, mode {m.name}")


def codepage_svg(a: Automaton, ancestor="auto") -> str:
    """The code page chart as SVG.  *ancestor*: "auto" (``ANCESTORS``), None, or an automaton.
    Of a spec with modes, chart :func:`mode_part` (a mode's tokens read other bytes)."""
    a = mode_part(a, None) if a.modes else a
    import jinja2  # analyse's own templates (analyse/templates/svg): it never imports emit
    env = jinja2.Environment(loader=jinja2.PackageLoader("encspec.analyse", "templates"), keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, autoescape=False)
    if isinstance(ancestor, str):
        ancestor = ancestor_of(a)
    cells = codepage(a, ancestor)
    present = [k for k in KINDS if any(c["kind"] == k for c in cells)]
    dual = any(c["continues"] and c["kind"] not in ("continuation",) for c in cells)
    then = ancestor.name if any(c["then"] for c in cells) else None
    legend: list[dict[str, Any]] = [{"kind": k, "fill": KINDS[k][0],
               "text": f"never valid (length, lowest value as in {then}, or would-be)"
               if k == "never" and then else KINDS[k][1]} for k in present]
    for item in legend:
        if item["kind"] == "table":
            shares = [c["occupancy"] for c in cells if c["kind"] == "table"]
            item["text"] = f"table lead, darker: more pointers mapped ({min(shares):.0%}..{max(shares):.0%})"
    notes = []
    if any(c["block"] and c["kind"] != "table" for c in cells):
        notes.append("block names as in the encyclopedia article's UTF-8 code page table")
    if then:
        notes.append(f"red cells: what the byte meant in {then}")
    if "table" in present:
        notes.append("table leads: the share of their pointers with an entry at the top right")
    width = MARGIN + 16 * CELL_W + 8
    legend_y = MARGIN + 16 * CELL_H + 24
    height = legend_y + 22 * ((len(legend) + 1) // 2) + (22 if dual else 0) + 34 + (16 if notes else 0)
    for c in cells:
        c["x"] = MARGIN + (c["byte"] & 15) * CELL_W
        c["y"] = MARGIN + (c["byte"] >> 4) * CELL_H
        c["fill"] = c.get("fill") or KINDS[c["kind"]][0]
        c["hex"] = f"{c['byte']:02X}"
        c["dot"] = c["continues"]
        c["label_size"] = 15 if len(c["label"]) <= 3 else 12 if len(c["label"]) <= 5 else 10
        c.setdefault("shaded", False)
    for i, item in enumerate(legend):
        item["x"] = MARGIN + (i % 2) * 8 * CELL_W
        item["y"] = legend_y + 22 * (i // 2)
    summary = {k: sum(1 for c in cells if c["kind"] == k) for k in present}
    return env.get_template("svg/codepage.svg.j2").render(a=a, cells=cells, legend=legend, width=width, height=height,
                  cw=CELL_W, ch=CELL_H, m=MARGIN, fills=[(k, v[0]) for k, v in KINDS.items()], dual=dual, dual_y=legend_y + 22 * ((len(legend) + 1) // 2),
                  notes="; ".join(notes),
                  summary=summary, heads=[f"_{d:X}" for d in range(16)], rows=[f"{d:X}_" for d in range(16)])


# ---------------------------------------------------------------- Graphviz



def _action_label(action) -> str:
    if action.kind == "char":
        if isinstance(action, Value):
            values = action.value if isinstance(action.value, tuple) else (action.value,)
            return "= " + " ".join(f"U+{v:04X}" for v in values)
        if isinstance(action, Pair):
            return "surrogate pair"
        if isinstance(action, Lookup):
            return f"table {action.table}"
        return f"char +{action.offset}" if action.offset else "char"
    if action.kind == "error":
        return f"error: {_dot_text(action.reason)}"
    if action.kind == "shift":
        return f"shift to {_dot_text(action.mode)}" + (" (error)" if action.reason else "")
    return "reserved run"


def _q(s: str) -> str:
    """A dot string; labels hold no backslash but the line breaks written as backslash-n
    and the backslashes :func:`_dot_text` doubled."""
    return '"' + s.replace('"', '\\"') + '"'


def _dot_text(text: str) -> str:
    """A spec's text (a reason) for a dot label: a backslash doubled (Graphviz reads \\N as
    the node's name, and a last one would escape the closing quote), & as &amp; (Graphviz
    reads entities: "&amp;" would show as "&"), and what is not printable, line breaks
    included, shown as [U+XXXX]."""
    shown = "".join(c if c.isprintable() else f"[U+{ord(c):04X}]" for c in text)
    return shown.replace("\\", "\\\\").replace("&", "&amp;")


def automaton_dot(a: Automaton) -> str:
    """The automaton in Graphviz's dot language: byte-range edges, accepting states
    marked (double circle) with their action; deterministic."""
    lines = [f"// {a.name}: the automaton encspec compiles {_dot_text(a.spec_file)} into; generated, do not edit",
             f"digraph {_q(a.name)} {{",
             "  rankdir=LR;",
             '  node [shape=circle, fontname="Helvetica", fontsize=11, width=0.4];',
             '  edge [fontname="Helvetica", fontsize=9];',
             f"  label={_q(a.name + ': ' + str(a.n_states) + ' states, ' + str(a.n_classes) + ' byte classes')};",
             "  labelloc=t;",
             '  start [shape=point, width=0.1];',
             "  start -> s0;"]
    for m in a.modes[1:]:  # a spec with modes: each mode's tokens start in a state of their own
        lines.append(f"  start_{m.start} [shape=plaintext, label={_q('mode ' + _dot_text(m.name))}];")
        lines.append(f"  start_{m.start} -> s{m.start};")
    for s in range(a.n_states):
        acc = a.accept[s]
        if acc is None:
            lines.append(f"  s{s} [label={_q(str(s))}];")
        else:
            action = a.actions[acc]
            color = {"char": "#d9ead3", "error": "#f4cccc", "reserved": "#d9d9d9", "shift": "#cfe2f3"}[action.kind]
            lines.append(f"  s{s} [shape=doublecircle, style=filled, fillcolor={_q(color)}, "
                         f"label={_q(str(s) + chr(92) + 'n' + _action_label(action))}];")
    for k, ext in enumerate(a.extensions):
        lines.append(f"  x{k} [shape=box, style=rounded, label={_q('counted form ' + ext.form + chr(92) + 'n(continues as data)')}];")
    for s in range(a.n_states):
        by_target: dict[int, list[int]] = {}
        for b in range(256):
            t = a.step(s, b)
            if t != DEAD:
                by_target.setdefault(t, []).append(b)
        for t, bs in sorted(by_target.items(), key=lambda kv: min(kv[1])):
            target = f"s{t}" if t < a.n_states else f"x{t - a.n_states}"
            label = _q(runs_text(bs, sep="\\n"))
            lines.append(f"  s{s} -> {target} [label={label}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_binary() -> str | None:
    return shutil.which("dot")


def render_dot(source: str, fmt: str = "svg") -> bytes:
    dot = dot_binary()
    if dot is None:
        raise FileNotFoundError("the Graphviz `dot` program is not installed (Debian: apt-get install graphviz)")
    r = subprocess.run([dot, f"-T{fmt}"], input=source.encode("utf-8"), capture_output=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"dot failed: {r.stderr.decode('utf-8', 'replace').strip()}")
    return r.stdout
