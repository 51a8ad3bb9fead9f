"""Counted forms: the unbounded part of an encoding, kept as data beside the DFA.

A counted form is a bounded prefix (in the DFA), then items whose repetition
counts are expressions of earlier items: a free count (``B4{n}``), a field of
digits (``A0..AF{n+1} as nme shortest``) and the value digits
(``10xxxxxx{(nme + 20) // 3 * 2}``) bounded by ``range LOW .. HIGH``.
UTF-∞-8 is the example; nothing here knows about it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..spec.diagnostics import SpecError
from ..spec.expr import Expr, evaluate, is_const, solve_unit
from ..spec.model import DigitSet, Form, Spec
from .forms import Runs


@dataclass(frozen=True)
class CountedItem:
    """One item of a counted form's tail: a free count, the field, or the value digits."""

    runs: Runs
    radix: int
    count: Optional[Expr]  # None for a free count
    binds: Optional[str]  # a free count's variable (B4{n})
    field: Optional[str]  # the field's variable (A0..AF{n+1} as nme)
    shortest: bool
    line: int

    @property
    def role(self) -> str:
        return "free" if self.binds else "field" if self.field else "value"


@dataclass(frozen=True)
class Extension:
    """A counted form beyond the DFA: its fixed prefix, then its items."""

    form: str
    line: int
    prefix_bytes: bytes
    items: tuple[CountedItem, ...]
    first_bytes: tuple[int, ...]  # bytes that can follow the prefix
    min: int
    offset: int
    range: tuple[Expr, Expr]  # raw value bounds, expressions of the variables

    @property
    def field_item(self) -> CountedItem:
        return next(i for i in self.items if i.field)

    @property
    def value_item(self) -> CountedItem:
        return next(i for i in self.items if not i.binds and not i.field)


def extension_data(spec: Spec, form: Form) -> Extension:
    """The counted tail of *form* as plain data, after checking its shape."""
    items = list(form.items)
    k = 0
    while k < len(items) and not (items[k].binds or items[k].field or not is_const(items[k].count)):
        k += 1
    tail = items[k:]
    stage = 0  # 0: free counts, 1: fields, 2: value digits
    out_items = []
    fields = []
    for item in tail:
        if item.sub:
            raise SpecError("a counted form cannot contain sub-forms", item.loc)
        if item.binds:
            kind = 0
        elif item.field:
            kind = 1
            fields.append(item.field)
        else:
            kind = 2
        if kind < stage:
            raise SpecError("a counted form lists free counts, then fields, then value digits", item.loc)
        stage = kind
        out_items.append(CountedItem(
            runs=tuple(item.digits.runs), radix=item.digits.radix,
            count=None if item.binds else item.count, binds=item.binds,
            field=item.field, shortest=item.shortest, line=item.loc.line,
        ))
    if len(fields) != 1 or stage != 2:
        raise SpecError("a counted form needs exactly one field followed by value digits", form.loc)
    for a, b in zip(out_items, out_items[1:]):
        if a.binds and set(_bytes(a.runs)) & set(_bytes(b.runs)):
            raise SpecError("a free count must be followed by bytes it cannot contain", form.loc)
    first = set()
    for item in out_items:
        first |= set(_bytes(item.runs))
        if not item.binds:
            break
    if sum(1 for i in out_items if i.role == "value") != 1:
        raise SpecError("a counted form needs exactly one run of value digits", form.loc)
    prefix = []
    for item in items[:k]:
        if item.digits is None or item.digits.radix != 1:
            raise SpecError("the bounded prefix of a counted form must be fixed bytes", item.loc)
        prefix += [item.digits.runs[0][0]] * evaluate(item.count, {})
    ext = Extension(
        form=form.name, line=form.loc.line, prefix_bytes=bytes(prefix), items=tuple(out_items),
        first_bytes=tuple(sorted(first)), min=form.min or 0, offset=form.at or 0,
        range=tuple(form.value_range),
    )
    _check_levels(ext, form, tail)
    return ext


_TRIED_LEVELS = 16  # field values tried at compile time: 0, 1, 2, …


def _check_levels(ext: Extension, form: Form, tail) -> None:
    """Evaluate the counts and the range for the first field values, so that a
    count that cannot be solved or divides by zero, or a range empty at every
    length, is reported here rather than when (or forever while) encoding."""
    field_item = next(i for i in tail if i.field)
    try:
        solvable = _solve(field_item.count, 1) is not None
    except ZeroDivisionError:
        solvable = False
    if not solvable:
        raise SpecError(f"the count of field '{field_item.field}' must be a free count plus a number, "
                        "like {n+1}", field_item.loc)
    floor = ext.min - ext.offset
    found = False
    for f in range(_TRIED_LEVELS):
        name, n = _solve(field_item.count, len(_to_digits(f, field_item.digits.radix, None)))
        if n < 0:
            continue
        env = {field_item.field: f, name: n}
        shown = ", ".join(f"{k} = {v}" for k, v in env.items())
        values = [(i.count, i.loc, "count") for i in tail if not i.binds and not i.field]
        values += [(e, form.option_locs["range"], "range bound") for e in form.value_range]
        got = []
        for expr, loc, what in values:
            try:
                v = evaluate(expr, env)
            except ZeroDivisionError:
                raise SpecError(f"division by zero in a {what} (when {shown})", loc) from None
            if not isinstance(v, int) or v < 0:
                raise SpecError(f"a {what} must be a whole number, 0 or more; this one is {v} when {shown}", loc)
            got.append(v)
        found = found or max(got[-2], floor) <= got[-1]
    if not found:
        raise SpecError(f"form '{form.name}' can never match: its range is empty at every length "
                        f"(tried {field_item.field} = 0 .. {_TRIED_LEVELS - 1})", form.loc)


def _bytes(runs):
    return [b for lo, hi in runs for b in range(lo, hi + 1)]


def _solve(expr, target: int) -> Optional[tuple[str, int]]:
    """Solve ``var + c == target`` for the one variable in *expr* (None if it is not of that shape)."""
    got = solve_unit(expr)
    return None if got is None else (got[0], target - got[1])


def levels(ext: Extension):
    """Yield (env, field digits, first, last) for field values 0, 1, 2, …: one length each."""
    field_item = ext.field_item
    lo_e, hi_e = ext.range
    floor = ext.min - ext.offset
    f = 0
    while True:
        digits = _to_digits(f, field_item.radix, None)
        solved = _solve(field_item.count, len(digits))
        if solved is None:
            raise SpecError("cannot solve the field's count for encoding", None)
        env = {field_item.field: f, solved[0]: solved[1]}
        if solved[1] >= 0:
            lo, hi = max(evaluate(lo_e, env), floor), evaluate(hi_e, env)
            if lo <= hi:
                yield env, digits, lo + ext.offset, hi + ext.offset
        f += 1


def encode_counted(ext: Extension, cp: int) -> Optional[bytes]:
    """The shortest bytes of *cp* in this counted form, or None if it has none."""
    if cp < ext.min:
        return None
    for env, digits, first, last in levels(ext):
        if first > cp:
            return None
        if cp <= last:
            return encode_level(ext, env, digits, cp - ext.offset)
    return None


def encode_level(ext: Extension, env, digits, value) -> bytes:
    """The bytes of raw *value* at the length *env*/*digits* stand for."""
    out = bytearray(ext.prefix_bytes)
    for item in ext.items:
        if item.binds:
            out += bytes([DigitSet(item.runs).byte_of(0)]) * env[item.binds]
        elif item.field:
            out += bytes(DigitSet(item.runs).byte_of(d) for d in digits)
        else:
            n = evaluate(item.count, env)
            out += bytes(DigitSet(item.runs).byte_of(d) for d in _to_digits(value, item.radix, n))
    return bytes(out)


def _to_digits(v: int, radix: int, n: Optional[int]) -> list[int]:
    out = []
    while v or (n is None and not out) or (n is not None and len(out) < n):
        v, d = divmod(v, radix)
        out.append(d)
    return list(reversed(out))

