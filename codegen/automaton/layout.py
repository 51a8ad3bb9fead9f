"""Forms → segments (code point rows) and byte patterns.

A *segment* is a run of raw values of one form that maps to code points with one
offset (code point = raw + offset): Corrected UTF-8's 3-byte form has two, split
where the surrogates are skipped.  Each segment becomes byte patterns: sequences
of byte runs, each run carrying the digit operation that accumulates the raw value.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import prod

from ..spec.diagnostics import SpecError
from ..spec.expr import const, evaluate, is_const
from ..spec.model import DigitSet, Form, Item, Pattern, RangeSet, Spec, SubForm
from .actions import Action, Char, Enter, Error, Lookup, Pair, Shift, Value
from .ranges import split

# An arc is one byte run at one position: (lo, hi, op); op = (mul, sub, weight)
# means acc = acc * mul + (byte - sub) * weight, or None where the value does not
# matter.  Big-endian digits are Horner's rule (mul = the radix, weight 1); digits
# that come least significant first (LEB128, little-endian units) carry weights.
Op = tuple[int, int, int]
Arc = tuple[int, int, Op | None]
BytePattern = tuple[tuple[Arc, ...], ...]


@dataclass(frozen=True)
class Segment:
    """One row of the encoding's table: a form's raw values raw_lo..raw_hi → first..last."""

    form: str
    line: int
    length: int
    raw_lo: int
    raw_hi: int
    offset: int
    first: int
    last: int
    at_end: bool = False  # an `end` form's row: it decodes only where the data ends, and is never encoded


@dataclass(frozen=True)
class Rule:
    """Byte patterns that all end in the same accepting action."""

    action: Action | Enter  # Enter for a counted form's prefix
    patterns: tuple[BytePattern, ...]
    line: int
    ext: int | None = None  # a counted form's bounded prefix: continue in extension ext
    at_end: bool = False  # accepts only where the data ends


def _sub(item: Item) -> SubForm:
    """The sub-form a position refers to (the caller knows it is one: a composite form's)."""
    assert item.sub is not None
    return item.sub


def _digits(item: Item) -> DigitSet:
    """The digit alphabet of a position that is not a sub-form."""
    assert item.digits is not None
    return item.digits


def _unit_bytes(digits: DigitSet, unit: int) -> list[DigitSet]:
    """A code unit position's bytes, most significant first (the parser checked
    that its range is one range of each byte)."""
    if unit == 1:
        return [digits]
    lo, hi = digits.runs[0]
    return [DigitSet((((lo >> 8 * k) & 0xFF, (hi >> 8 * k) & 0xFF),)) for k in range(unit - 1, -1, -1)]


def _expand(items, unit: int, byte_order: str) -> tuple[list[DigitSet], list[list[int]]]:
    """(byte positions in byte order, per unit the indices of its bytes most significant first)."""
    out: list[DigitSet] = []
    units: list[list[int]] = []
    for item in items:
        for _ in range(evaluate(item.count, {})):
            got = _unit_bytes(_digits(item), unit)
            index = list(range(len(out), len(out) + len(got)))
            if byte_order == "little":
                got, index = got[::-1], index[::-1]
            out += got
            units.append(index)
    return out, units


def positions(form: Form | Pattern) -> tuple[DigitSet, ...]:
    """The byte positions of a fixed-length form, repetitions and code units expanded, in byte order."""
    return tuple(_expand(form.items, form.unit, form.byte_order)[0])


def significance(form: Form) -> tuple[int, ...] | None:
    """The byte positions from the most significant digit to the least (None: in byte order)."""
    _, units = _expand(form.items, form.unit, form.byte_order)
    if form.digit_order == "little":
        units.reverse()
    order = tuple(k for unit in units for k in unit)
    return None if order == tuple(range(len(order))) else order


def weights(pos: tuple[DigitSet, ...], order: tuple[int, ...] | None) -> tuple[int, ...]:
    """Per byte position, the weight of its digit in the raw value."""
    order = order or tuple(range(len(pos)))
    out = [0] * len(pos)
    w = 1
    for k in reversed(order):
        out[k] = w
        w *= pos[k].radix
    return tuple(out)


def digit_ops(pos: tuple[DigitSet, ...], order: tuple[int, ...] | None) -> list[tuple[int, int]]:
    """Per byte position (mul, weight) such that acc = acc * mul + digit * weight after
    each byte leaves the raw value at the end.

    After each byte, acc holds the digits read so far divided by the smallest weight
    among them, so it stays as small as Horner's rule keeps it (for big-endian digits
    this is Horner's rule: mul = the radix, weight 1), and forms that share a prefix
    share its operations (UTF-16LE's first byte is a low byte, whatever the unit)."""
    w = weights(pos, order)
    out = []
    g = None
    for k, d in enumerate(pos):
        if g is None:
            g = w[k]
            out.append((d.radix, 1))
        else:
            new = min(g, w[k])
            out.append((g // new, w[k] // new))
            g = new
    return out


def segments(spec: Spec) -> list[Segment]:
    """Every bounded form's rows, in code point order."""
    cap = spec.code_space.hi
    # parse gives every excluded range an upper end
    holes = RangeSet((r.lo, r.hi) for r in spec.holes if r.hi is not None)
    skips = RangeSet((r.lo, r.hi) for r in spec.skips if r.hi is not None)
    excluded = RangeSet([(r.lo, r.hi) for r in spec.holes + spec.skips if r.hi is not None])
    cursor = spec.code_space.lo  # where the next packed form starts numbering
    rows: list[Segment] = []
    for form in spec.forms:
        if isinstance(form.value, tuple):  # a sequence of code points is no row: see sequence_rules
            continue
        if form.kind == "literal" and form.value is not None:
            n = sum(evaluate(i.count, {}) for i in form.items)
            rows.append(Segment(form.name, form.loc.line, n, 0, 0, form.value, form.value, form.value, form.at_end))
            continue
        if form.kind == "composite":
            lead, trail = _sub(form.items[0]), _sub(form.items[1])
            first = 0x10000 + ((lead.lo - 0xD800) << 10) + (trail.lo - 0xDC00)
            last = 0x10000 + ((lead.hi - 0xD800) << 10) + (trail.hi - 0xDC00)
            if lead.lo != lead.hi and (trail.lo, trail.hi) != (0xDC00, 0xDFFF):
                raise SpecError("a surrogate-pair form with several lead surrogates needs "
                                "the whole trail range U+DC00..U+DFFF", form.items[1].loc)
            n = 2 * len(positions(spec.form(lead.form)))
            rows.append(Segment(form.name, form.loc.line, n, 0, 0, 0, first, last))
            continue
        if form.kind in ("counted", "table"):  # a table form's code points are its table's
            continue
        pos = positions(form)
        size = prod(d.radix for d in pos)
        if form.mapping == "direct":
            base = form.at or 0
            if form.min is not None and form.min < base:
                raise SpecError(f"min U+{form.min:04X} lies below the form's base", form.option_locs["min"])
            top = base + size - 1
            lo = max(base, form.min if form.min is not None else base, spec.code_space.lo)
            hi = top if cap is None else min(top, cap)
            if form.max is not None:
                hi = min(hi, form.max)
            kept = excluded.cut(lo, hi) if lo <= hi else []
            if not kept:
                holds = f"it holds U+{base:04X}..U+{top:04X}, all"
                if form.min is not None and form.min > top:
                    why = f"{holds} below its min U+{form.min:04X}"
                elif form.min is not None and cap is not None and form.min > cap:
                    why = f"its min U+{form.min:04X} lies beyond the code space"
                elif form.max is not None and form.max < max(base, spec.code_space.lo):
                    why = f"{holds}, all above its max U+{form.max:04X}"
                elif lo > hi:
                    why = f"{holds} {'below' if top < spec.code_space.lo else 'beyond'} the code space"
                else:
                    what = ("ill-formed" if not holes.cut(lo, hi) else "skipped" if not skips.cut(lo, hi)
                            else "ill-formed or skipped")
                    why = f"all it holds, U+{lo:04X}..U+{hi:04X}, is {what}"
                raise SpecError(f"form '{form.name}' can never match: {why}", form.loc)
            for a, b in kept:
                rows.append(Segment(form.name, form.loc.line, len(pos), a - base, b - base, base, a, b, form.at_end))
            continue
        # packed: raw values number consecutive code points, jumping over skips
        cp = start = form.at if form.at is not None else cursor
        raw, before = 0, len(rows)
        while raw < size and (cap is None or cp <= cap):
            inside = skips.containing(cp)
            if inside:
                cp = inside[1] + 1
                continue
            nxt = skips.next_start(cp)
            n = size - raw
            if nxt is not None:
                n = min(n, nxt - cp)
            if cap is not None:
                n = min(n, cap - cp + 1)
            for a, b in holes.cut(cp, cp + n - 1):
                rows.append(Segment(form.name, form.loc.line, len(pos), a - (cp - raw), b - (cp - raw), cp - raw, a, b,
                                     form.at_end))
            raw += n
            cp += n
        if len(rows) == before:
            why = (f"all it numbers, U+{start:04X}..U+{cp - 1:04X}, is ill-formed" if raw else
                   f"its first code point U+{start:04X} lies beyond the code space" if form.at is not None else
                   "the forms before it already number the whole code space")
            raise SpecError(f"form '{form.name}' can never match: {why}", form.loc)
        cursor = cp
    space = f"U+{spec.code_space.lo:04X}.." + (f"U+{cap:04X}" if cap is not None else "")
    for r in rows:
        if cap is not None and r.last > cap:
            raise SpecError(f"form '{r.form}' encodes U+{max(r.first, cap + 1):04X}, beyond the code space {space}",
                            spec.form(r.form).loc)
        if r.first < spec.code_space.lo:
            raise SpecError(f"form '{r.form}' encodes U+{r.first:04X}, below the code space {space}",
                            spec.form(r.form).loc)
    return sorted(rows, key=lambda r: (r.first, r.length))


def byte_patterns(pos: tuple[DigitSet, ...], raw_lo: int, raw_hi: int, care: bool = True,
                  order: tuple[int, ...] | None = None) -> list[BytePattern]:
    """The byte patterns spelling raw values raw_lo..raw_hi in the digit alphabets *pos*
    (byte order), whose digits are most significant first in *order* (None: byte order)."""
    out = []
    sig = order or tuple(range(len(pos)))
    ops = digit_ops(pos, order)
    for digits in split(raw_lo, raw_hi, tuple(pos[k].radix for k in sig)):
        by_pos = [(0, 0)] * len(pos)  # each set below: sig orders every position
        for r, k in enumerate(sig):
            by_pos[k] = digits[r]
        pattern = []
        for ds, (a, b), (mul, w) in zip(pos, by_pos, ops):
            pattern.append(tuple((lo, hi, (mul, sub, w) if care else None)
                                 for lo, hi, sub in ds.bytes_for(a, b)))
        out.append(tuple(pattern))
    return out


def form_patterns(form: Form, raw_lo: int, raw_hi: int, care: bool = True) -> list[BytePattern]:
    """The byte patterns of a linear form's raw values raw_lo..raw_hi."""
    return byte_patterns(positions(form), raw_lo, raw_hi, care, significance(form))


def _sub_patterns(spec: Spec, item: Item, care: bool) -> list[BytePattern]:
    sub = _sub(item)
    form = spec.form(sub.form)
    base = form.at or 0
    size = prod(d.radix for d in positions(form))
    if sub.lo < base or sub.hi - base >= size:
        raise SpecError(f"form '{sub.form}' cannot hold U+{sub.lo:04X}..U+{sub.hi:04X}", item.loc)
    return form_patterns(form, sub.lo - base, sub.hi - base, care)


MAX_PATTERNS = 1 << 12  # byte patterns one form or ill-formed pattern may expand to


def _concat(parts: list[list[BytePattern]], what: str, loc) -> list[BytePattern]:
    """Every pattern of the first part, then one of the second, …; counted before it is built."""
    if prod(len(options) for options in parts) > MAX_PATTERNS:
        raise SpecError(f"{what} expands to more than {MAX_PATTERNS} byte patterns (the sub-forms' ranges "
                        "or the ranges of counts multiply): split it, or give its sub-forms ranges that are whole rows", loc)
    out: list[BytePattern] = [()]
    for options in parts:
        out = [p + q for p in out for q in options]
    return out


def rules(spec: Spec, rows: list[Segment]) -> list[Rule]:
    """The byte patterns of every row, ill-formed pattern and counted prefix."""
    out: list[Rule] = []
    for row in rows:
        form = spec.form(row.form)
        if form.kind == "literal" and form.value is not None:
            pat = tuple(((d.runs[0][0], d.runs[0][0], None),) for d in positions(form))
            out.append(Rule(Value(form.value, (form.name,), form.then), (pat,), row.line, at_end=form.at_end))
        elif form.kind == "composite":
            hi_item, lo_item = form.items
            pats = _concat([_sub_patterns(spec, hi_item, True), _sub_patterns(spec, lo_item, True)],
                           f"form '{form.name}'", form.loc)
            sub_form = spec.form(_sub(hi_item).form)
            size = prod(d.radix for d in positions(sub_form))
            out.append(Rule(Pair(size, sub_form.at or 0, (form.name,)), tuple(pats), row.line))
        else:
            pats = form_patterns(form, row.raw_lo, row.raw_hi)
            out.append(Rule(Char(row.offset, (form.name,), form.then), tuple(pats), row.line, at_end=form.at_end))
    table_index = {t.name: k for k, t in enumerate(spec.tables)}
    for form in spec.forms:
        if form.kind == "table" and form.table is not None:  # every sequence of its shape: the table decides, pointer by pointer
            pos = positions(form)
            pats = byte_patterns(pos, 0, prod(d.radix for d in pos) - 1, True, significance(form))
            out.append(Rule(Lookup(table_index[form.table], (form.name,), form.then), tuple(pats), form.loc.line,
                            at_end=form.at_end))
    out += sequence_rules(spec)
    for pattern in spec.patterns:
        parts = []
        for item in pattern.items:
            if item.sub:
                parts.append(_sub_patterns(spec, item, False))
            else:  # a range of counts {m,n}: one option per count (the NFA shares their suffixes)
                low = evaluate(item.count, {})
                options: list[BytePattern] = []
                for k in range(low, (low if item.upto is None else item.upto) + 1):
                    digits, _ = _expand([replace(item, count=const(k))], pattern.unit, pattern.byte_order)
                    options.append(tuple(tuple((lo, hi, None) for lo, hi in d.runs) for d in digits))
                parts.append(options)
        what = "shift" if pattern.shift else "ill-formed pattern"
        action = Shift(pattern.shift, pattern.reason or None, (pattern.name,)) if pattern.shift else \
            Error(pattern.reason, (pattern.name,))
        out.append(Rule(action, tuple(_concat(parts, f"{what} '{pattern.name}'", pattern.loc)), pattern.loc.line,
                        at_end=pattern.at_end))
    for k, form in enumerate(f for f in spec.forms if f.kind == "counted"):
        prefix: list[DigitSet] = []
        for item in form.items:
            if item.binds or item.field or not is_const(item.count):
                break
            prefix += [_digits(item)] * evaluate(item.count, {})
        if not prefix:
            raise SpecError("a counted form must start with at least one fixed-length position", form.loc)
        pats = byte_patterns(tuple(prefix), 0, prod(d.radix for d in prefix) - 1)
        out.append(Rule(Enter(k, (form.name,)), tuple(pats), form.loc.line, ext=k))
    return out


def sequence_rules(spec: Spec) -> list[Rule]:
    """The rules of literal forms whose value is a sequence of code points (``= U+.. U+..``):
    after the table forms' rules, before the ill-formed patterns'."""
    out = []
    for form in spec.forms:
        if isinstance(form.value, tuple):
            pat = tuple(((d.runs[0][0], d.runs[0][0], None),) for d in positions(form))
            out.append(Rule(Value(form.value, (form.name,), form.then), (pat,), form.loc.line, at_end=form.at_end))
    return out
