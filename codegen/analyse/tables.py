"""Mapping tables as the analyses read them: what a table form spells, summarised.

A table form has no rows: its bytes spell a *pointer* (the digits of its
positions in mixed radix) and its mapping table gives the code point.  What
``describe``, ``check``, ``diff``, ``chart`` and ``vectors`` need of it is here,
read from the automaton only (``Automaton.tables``, ``Automaton.forms``):

* :func:`pieces` — a table over a pointer interval as a few pieces: unmapped,
  linear (a run of consecutive code points) or an array of values, so that
  comparing two tables, or a table with a linear form, costs time in proportion
  to the tables, never to the code space;
* :func:`runs` — an index's maximal runs of consecutive mappings (describe);
* :func:`max_length`, :func:`max_code_point` — the automaton's own properties
  count rows only; these count table forms too.

Nothing here decodes: the decoder's word on a byte sequence is always the core's
(:func:`encspec.runtime.tables.tokens`; :func:`one_char` asks it).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from math import prod
from typing import Any, NamedTuple

from ..automaton import Automaton
from ..automaton.forms import LiteralForm, TableForm
from ..automaton.mapping import NONE, MappingTable
from ..runtime.tables import bind, digits_bytes, tokens

# A piece of a table: (first pointer, last pointer, kind, data), data's type following
# kind (None for "none", the first code point for "linear", the values for "array"):
# a tagged union mypy cannot narrow by the tag once unpacked, hence Any
Piece = tuple[int, int, str, Any]


# ------------------------------------------------------------------ the forms
def table_forms(a: Automaton) -> list[TableForm]:
    """The table forms, in spec order."""
    return [f for f in a.forms.values() if isinstance(f, TableForm)]


def has_tables(a: Automaton) -> bool:
    return bool(a.tables) and bool(table_forms(a))


def radices(form) -> list[int]:
    return [sum(hi - lo + 1 for lo, hi in runs) for runs in form.positions]


def capacity(form) -> int:
    """How many pointers the form spells: 0 .. capacity - 1."""
    return prod(radices(form))


def spell(form, pointer: int) -> bytes:
    """The bytes of *pointer* in *form*."""
    return digits_bytes(form.positions, pointer, form.order)


def pointer_of(form, data: bytes) -> int | None:
    """The pointer *data* spells in *form* (None: not the form's bytes)."""
    if len(data) != len(form.positions):
        return None
    digits = []
    for b, runs in zip(data, form.positions):
        base = 0
        for lo, hi in runs:
            if lo <= b <= hi:
                digits.append(base + b - lo)
                break
            base += hi - lo + 1
        else:
            return None
    order = form.order or range(len(digits))
    rs = radices(form)
    p = 0
    for k in order:
        p = p * rs[k] + digits[k]
    return p


def big_endian(form) -> bool:
    """Whether the pointer grows with the bytes (digits most significant first)."""
    return form.order is None or tuple(form.order) == tuple(range(len(form.positions)))


def formula(form) -> str:
    """How the form's bytes make the pointer, in words: ``byte 1 digit × 188 + byte 2 digit``."""
    rs = radices(form)
    order = list(form.order or range(len(rs)))
    terms = []
    for i, k in enumerate(order):
        weight = prod(rs[j] for j in order[i + 1:])
        if rs[k] == 1:
            continue
        terms.append(f"byte {k + 1} digit" + (f" × {weight:,}" if weight > 1 else ""))
    return " + ".join(terms) or "0"


# ----------------------------------------------------------------- the tables
def overrides(t: MappingTable) -> tuple:
    """(pointer, value) looked up before the rest: several code points (a tuple) or, in a
    ranges table, single entries."""
    return tuple(getattr(t, "overrides", None) or getattr(t, "sequences", None) or ())


def multi_entries(t: MappingTable) -> list[tuple[int, tuple[int, ...]]]:
    """The pointers that stand for several code points (WHATWG Big5's four)."""
    return [(p, v) for p, v in overrides(t) if isinstance(v, tuple)]


class Several(NamedTuple):
    """A valid byte sequence that reads as several code points: a table form's pointer
    (``pointer``) or a literal form (``pointer`` None)."""

    data: bytes
    code_points: tuple[int, ...]
    form: str
    pointer: int | None


def several_values(a: Automaton) -> list[Several]:
    """Every valid byte sequence that reads as several code points: each table form's
    pointers of several code points and the literal forms whose value is a sequence,
    in byte order."""
    out = []
    for f in table_forms(a):
        cap = capacity(f)
        out += [Several(spell(f, p), v, f.name, p) for p, v in multi_entries(a.tables[f.table]) if p < cap]
    for name, form in a.forms.items():
        if isinstance(form, LiteralForm):
            value = one_char(a, bytes(form.bytes))
            if isinstance(value, tuple):
                out.append(Several(bytes(form.bytes), value, name, None))
    return sorted(out, key=lambda x: x.data)


def text_bytes(a: Automaton, cps: tuple[int, ...] | list[int]) -> bytes | None:
    """The bytes the encoder writes for the text *cps* (with its longest-match rule for
    sequences of code points), or None where some code point has none: asked of the core
    bound to the automaton, never a second copy of the encoder."""
    try:
        return bytes(bind(a).encode(list(cps), "strict", False))
    except UnicodeEncodeError:
        return None


def pieces(t: MappingTable, lo: int, hi: int) -> list[Piece]:
    """Table *t* over pointers lo..hi as consecutive pieces ``(first, last, kind, data)``:
    ``none`` (no entry), ``linear`` (data: the code point of *first*; each next pointer the
    next code point) or ``array`` (data: the values of first..last, ``NONE`` where none, a
    tuple for several code points)."""
    if lo > hi:
        return []
    out: list[Piece] = []
    if t.ranges:
        k = max(bisect_right(t.starts, lo) - 1, 0)
        p = lo
        while p <= hi:
            if k < len(t.starts) and t.starts[k] <= p <= t.lasts[k]:
                end = min(hi, t.lasts[k])
                out.append((p, end, "linear", t.firsts[k] + p - t.starts[k]))
                p = end + 1
                k += 1
                continue
            while k < len(t.starts) and t.lasts[k] < p:
                k += 1
            nxt = t.starts[k] if k < len(t.starts) else hi + 1
            end = min(hi, nxt - 1)
            if end >= p:
                out.append((p, end, "none", None))
                p = end + 1
        extra = [(p, v) for p, v in overrides(t) if lo <= p <= hi]
        for p, v in sorted(extra):
            out = _put(out, p, v)
        return out
    base, values = t.base, t.values
    top = base + len(values) - 1
    if lo < base:
        out.append((lo, min(hi, base - 1), "none", None))
    a, b = max(lo, base), min(hi, top)
    if a <= b:
        arr = list(values[a - base:b - base + 1])
        for p, v in overrides(t):
            if a <= p <= b:
                arr[p - a] = v
        out.append((a, b, "array", arr))
    if hi > top:
        out.append((max(lo, top + 1), hi, "none", None))
    extra = [(p, v) for p, v in overrides(t) if lo <= p <= hi and not a <= p <= b]
    for p, v in sorted(extra):
        out = _put(out, p, v)
    return out


def _put(out: list[Piece], p: int, v: int | tuple[int, ...]) -> list[Piece]:
    """*out* with pointer *p* made an array piece of its own holding *v*."""
    new: list[Piece] = []
    for first, last, kind, data in out:
        if not first <= p <= last:
            new.append((first, last, kind, data))
            continue
        if kind == "array":
            arr = list(data)
            arr[p - first] = v
            new.append((first, last, kind, arr))
            continue
        if first < p:
            new.append((first, p - 1, kind, data))
        new.append((p, p, "array", [v]))
        if p < last:
            new.append((p + 1, last, kind, data + (p + 1 - first) if kind == "linear" else data))
    return new


def value_at(piece, p: int):
    """The value piece *piece* gives pointer *p* (NONE: no entry)."""
    first, last, kind, data = piece
    if kind == "none":
        return NONE
    if kind == "linear":
        return data + p - first
    return data[p - first]


def mapped_count(t: MappingTable, lo: int, hi: int) -> int:
    """How many of pointers lo..hi have an entry."""
    n = 0
    for first, last, kind, data in pieces(t, lo, hi):
        if kind == "linear":
            n += last - first + 1
        elif kind == "array":
            n += sum(1 for v in data if v != NONE)
    return n


def entry_range(t: MappingTable) -> tuple[int, int] | None:
    """The lowest and highest pointer with an entry."""
    ps = [p for p, _ in overrides(t)]
    if t.ranges:
        ps += [t.starts[0], t.lasts[-1]] if t.starts else []
    else:
        got = [k for k, v in enumerate(t.values) if v != NONE]
        if got:
            ps += [t.base + got[0], t.base + got[-1]]
    return (min(ps), max(ps)) if ps else None


def runs(t: MappingTable, lo: int | None = None, hi: int | None = None) -> list[tuple[int, int, int]]:
    """Maximal runs ``(first pointer, last pointer, first code point)`` of single entries
    whose code points rise by one with the pointer (a pointer of several code points is a
    run of its own, not listed)."""
    span = entry_range(t)
    if span is None:
        return []
    lo = span[0] if lo is None else max(lo, span[0])
    hi = span[1] if hi is None else min(hi, span[1])
    out: list[list[int]] = []
    for first, last, kind, data in pieces(t, lo, hi):
        if kind == "none":
            continue
        if kind == "linear":
            if out and out[-1][1] == first - 1 and out[-1][2] + first - out[-1][0] == data:
                out[-1][1] = last
            else:
                out.append([first, last, data])
            continue
        for i, v in enumerate(data):
            p = first + i
            if v == NONE or isinstance(v, tuple):
                continue
            if out and out[-1][1] == p - 1 and out[-1][2] + p - out[-1][0] == v:
                out[-1][1] = p
            else:
                out.append([p, p, v])
    return [(a, b, c) for a, b, c in out]


def entries_count(t: MappingTable, lo: int | None = None, hi: int | None = None) -> int:
    span = entry_range(t)
    if span is None:
        return 0
    return mapped_count(t, span[0] if lo is None else lo, span[1] if hi is None else hi)


def mapped_intervals(t: MappingTable, lo: int, hi: int) -> list[tuple[int, int]]:
    """The pointers of lo..hi with an entry, as merged intervals."""
    out: list[list[int]] = []

    def add(a, b):
        if out and out[-1][1] == a - 1:
            out[-1][1] = b
        else:
            out.append([a, b])

    for first, last, kind, data in pieces(t, lo, hi):
        if kind == "linear":
            add(first, last)
        elif kind == "array":
            for i, v in enumerate(data):
                if v != NONE:
                    add(first + i, first + i)
    return [(a, b) for a, b in out]


# --------------------------------------------------- the whole automaton's reach
def max_length(a: Automaton) -> int | None:
    """The longest sequence: rows and table forms (None: counted forms are unbounded)."""
    if a.extensions:
        return None
    got = [r.length for r in a.rows] + [f.length for f in table_forms(a)]
    return max(got) if got else a.max_length


def max_code_point(a: Automaton) -> int | None:
    """The highest code point a sequence decodes to: rows and table forms."""
    if a.extensions:
        return None
    got = [r.last for r in a.rows]
    for f in table_forms(a):
        t = a.tables[f.table]
        for first, last, kind, data in pieces(t, 0, capacity(f) - 1):
            if kind == "linear":
                got.append(data + last - first)
            elif kind == "array":
                got += [max(v) if isinstance(v, tuple) else v for v in data if v != NONE]
    return max(got) if got else a.max_code_point


def form_entries(a: Automaton, form) -> Iterator[tuple[int, int, int]]:
    """The form's mapped single code points as runs ``(first pointer, last pointer, first
    code point)`` (pointers the form spells only)."""
    t = a.tables[form.table]
    for first, last, kind, data in pieces(t, 0, capacity(form) - 1):
        if kind == "linear":
            yield first, last, data
        elif kind == "array":
            for i, v in enumerate(data):
                if v != NONE and not isinstance(v, tuple):
                    yield first + i, first + i, v


def decode_only(t: MappingTable, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    return [(max(a, lo), b if hi is None else min(b, hi)) for a, b in t.decode_only
            if b >= lo and (hi is None or a <= hi)]


def encode_only(a: Automaton) -> list[tuple[int, bytes | None]]:
    return list(a.encode_only)


def ranges_text(ranges, sep: str = " ") -> str:
    """Byte ranges as every report writes them: ``ED A0..BF`` (a pattern), ``80..BF, C0``."""
    return sep.join(f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}" for lo, hi in ranges)


def restore_text(a: Automaton) -> str:
    return ranges_text(a.restore, ", ")


def one_char(a: Automaton, data: bytes, start: int | None = None):
    """The value *data*, as a whole document, decodes to when it is one character token
    (the core's word, :func:`encspec.runtime.tables.tokens`), else None; read from
    automaton state *start* where given (a mode's start)."""
    toks = list(tokens(a, data, start))
    if len(toks) == 1 and toks[0][0] == "char" and toks[0][1] == 0 and toks[0][2] == len(data):
        return toks[0][3]
    return None


def mode_name(a: Automaton, start: int, twin: bool = True) -> str:
    """The mode whose tokens start in automaton state *start*, in words (*twin*: saying
    where it is the mode's twin, right after a shift)."""
    for m in a.modes:
        if m.start == start:
            return m.name
        if m.after_shift == start:
            return f"{m.name} (after a shift)" if twin else m.name
    return "(no modes)" if not a.modes else f"state {start}"


def error_span_text(a: Automaton) -> str:
    """The error-span policy in words."""
    if a.error_span == "one-unit":
        return ("one-unit: every error is one byte, except data that ends inside a sequence "
                "(one error to the end)")
    if a.error_span == "through-failing-byte":
        return (f"through-failing-byte: an error takes the byte that proved it bad, but ends before the "
                f"first byte after its first that is in {restore_text(a) or 'the restore set'} "
                "(read again); an unmapped pointer likewise")
    return "maximal-subpart: an error covers the bytes read before the one that failed (at least one)"
