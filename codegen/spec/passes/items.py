"""A form's or pattern's positions: each a byte (or unit) set, an alphabet or a
sub-form, repeated; and the fixed length they spell."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..diagnostics import Loc, SpecError
from ..expr import Expr, Var
from ..model import DigitSet, Form, Item, SubForm, const, evaluate, is_const
from .counts import checked_expr, repeat_count, repeat_range

MAX_POSITIONS = 256  # bytes of a fixed-length form or pattern: the automaton's cost grows with its square


def unit_is_product(lo: int, hi: int, unit: int) -> bool:
    """Whether units lo..hi are every combination of per-byte ranges (D800..DBFF is;
    0041..0300 is not), so that the automaton can read them byte by byte."""
    for k in range(unit - 1, -1, -1):  # from the most significant byte
        a, b = (lo >> 8 * k) & 0xFF, (hi >> 8 * k) & 0xFF
        if a != b:
            low = (1 << 8 * k) - 1
            return lo & low == 0 and hi & low == low
    return True


def item(raw: Any, alphabets: Mapping[str, DigitSet], forms: Mapping[str, Form],
         unit: int = 1) -> tuple[Item, Expr | None]:
    """One position as the transformer wrote it, resolved against the alphabets and
    the forms defined so far, and checked against the spec's code unit."""
    _, loc, atom, repeat, field = raw
    digits = sub = None
    if atom[0] == "digits":
        digits, width = atom[2], atom[3]
        if width != unit and unit == 1 and len(atom) > 4:
            digits, width = atom[4], 1
        if width != unit:
            what = "a byte" if width == 1 else f"a {width * 8}-bit code unit"
            spec = "bytes" if unit == 1 else f"{unit * 8}-bit code units"
            hint = f" (declare 'code-unit {width * 8} big-endian' or little-endian)" if unit == 1 else ""
            raise SpecError(f"{what} in a spec of {spec}{hint}", atom[1])
        lo, hi = digits.runs[0]
        if unit > 1 and not unit_is_product(lo, hi, unit):
            raise SpecError(f"units {lo:0{2 * unit}X}..{hi:0{2 * unit}X} are not read byte by byte as one range "
                            "of each byte: split the range where its leading bytes change "
                            f"(e.g. at {(lo | 0xFF) + 1:0{2 * unit}X})", atom[1])
    elif atom[0] == "alphabet_ref":
        if unit > 1:
            raise SpecError("alphabets are byte alphabets: a spec of wider code units writes unit ranges", atom[1])
        if atom[2] not in alphabets:
            hint = f" (hex bytes are written in capitals: {atom[2].upper()})" if re.fullmatch(r"[0-9a-f]{2}", atom[2]) else ""
            raise SpecError(f"unknown alphabet '{atom[2]}'{hint}", atom[1])
        digits = alphabets[atom[2]]
    else:  # sub_form
        _, sloc, fname, rng = atom
        target = forms.get(fname)  # the forms defined so far, by name
        if target is None:
            raise SpecError(f"unknown form '{fname}' (a sub-form must be defined earlier)", sloc)
        if target.kind != "linear" or target.mapping != "direct":
            raise SpecError(f"form '{fname}' cannot be a sub-form: it must be a direct form of fixed length", sloc)
        if rng.hi is None:
            raise SpecError("a sub-form needs a closed code point range", rng.loc)
        if unit > 1 or target.digit_order != "big":
            raise SpecError("a sub-form must be a big-endian form of bytes (write the units of a pair with "
                            "bit patterns: 110110xxxxxxxxxx 110111xxxxxxxxxx)", sloc)
        sub = SubForm(fname, rng.lo, rng.hi)
    count, binds, upto = const(1), None, None
    if repeat is not None and repeat[0] == "repeat_range":
        m, upto = repeat_range(repeat[1], repeat[3], repeat[2])
        count = const(m)
    elif repeat is not None:
        expr = repeat[1]
        if isinstance(expr, Var):
            binds, count = expr.name, expr
        elif is_const(expr):
            count = const(repeat_count(expr, repeat[2]))
        else:
            count = checked_expr(expr, "a repetition count", repeat[2])
    field_name, shortest = None, False
    if field is not None:
        _, field_name, shortest, floc = field
        if sub is not None:
            raise SpecError("a sub-form cannot be a field", floc)
    if unit > 1 and (binds or field is not None or not is_const(count)):
        raise SpecError("counted forms need a spec of bytes (no 'code-unit' wider than 8)", loc)
    if upto is not None and (sub is not None or field is not None):
        raise SpecError("a range of counts repeats a byte position: not a sub-form or a field", repeat[2])
    return Item(loc=loc, digits=digits, sub=sub, count=count, binds=binds, field=field_name,
                shortest=shortest, upto=upto), (repeat[1] if repeat else None)


def length(items: Iterable[Item], forms: Mapping[str, Form], unit: int = 1) -> int:
    """The bytes a run of items spells: constant counts, and a sub-form's own length."""
    total = 0
    for i in items:
        if i.sub is not None:
            total += length(forms[i.sub.form].items, forms) if i.sub.form in forms else 0
        elif i.upto is not None:
            total += i.upto * unit
        elif not i.binds and is_const(i.count):
            total += evaluate(i.count, {}) * unit
    return total


def check_length(what: str, items: Iterable[Item], forms: Mapping[str, Form], loc: Loc, unit: int = 1) -> None:
    n = length(items, forms, unit)
    if n > MAX_POSITIONS:
        raise SpecError(f"{what} is {n} bytes long: a form or pattern has at most {MAX_POSITIONS} bytes of "
                        "fixed length (counted forms are the way to longer codes)", loc)
