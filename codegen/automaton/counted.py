"""Counted forms: the unbounded part of an encoding, kept as data beside the DFA.

A counted form is a bounded prefix (in the DFA), then items whose repetition
counts are expressions of earlier items: a free count (``B4{n}``), a field of
digits (``A0..AF{n+1} as nme shortest``) and the value digits
(``10xxxxxx{(nme + 20) // 3 * 2}``) bounded by ``range LOW .. HIGH``.
UTF-∞-8 is the example; nothing here knows about it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spec.diagnostics import SpecError
from ..spec.expr import BinOp, Expr, Int, evaluate, evaluate_checked, is_const, solve_unit
from ..spec.model import Form, Spec
from .forms import Runs


@dataclass(frozen=True)
class CountedItem:
    """One item of a counted form's tail: a free count, the field, or the value digits."""

    runs: Runs
    radix: int
    count: Expr | None  # None for a free count
    binds: str | None  # a free count's variable (B4{n})
    field: str | None  # the field's variable (A0..AF{n+1} as nme)
    shortest: bool
    line: int

    @property
    def role(self) -> str:
        return "free" if self.binds else "field" if self.field else "value"


@dataclass(frozen=True)
class Extension:
    """A counted form beyond the DFA: its fixed prefix, then its items.

    The range is a range of bit lengths, so that no backend ever builds a bound
    as a number: ``lo = 2 ** lo_exp`` (or 0), ``hi = 2 ** hi_exp - 1``, and
    ``min - offset = 2 ** min_exp`` (or 0), the exponents being expressions of
    the variables (``min_exp`` a number); the value digits have ``shift`` bits.
    """

    form: str
    line: int
    prefix_bytes: bytes
    items: tuple[CountedItem, ...]
    first_bytes: tuple[int, ...]  # bytes that can follow the prefix
    min: int
    offset: int
    range: tuple[Expr, Expr]  # raw value bounds, expressions of the variables, as written
    shift: int = 0
    lo_exp: Expr | None = None
    hi_exp: Expr | None = None
    min_exp: int | None = None

    @property
    def field_item(self) -> CountedItem:
        return next(i for i in self.items if i.field)

    @property
    def value_item(self) -> CountedItem:
        return next(i for i in self.items if not i.binds and not i.field)


def checked(expr: Expr, env: dict) -> int:
    """*expr* in the decoders' arithmetic: exact, every step within +-2**62
    (OverflowError beyond; ZeroDivisionError for // 0), so every backend computes
    it in 64-bit integers and none builds a big number from a header."""
    return evaluate_checked(expr, env)



def _pow2(v: int) -> int | None:
    return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None


def _exponent_of(expr: Expr) -> Expr | None:
    """For ``P ** E`` (P a power of two) or a constant power of two: the exponent's expression."""
    if isinstance(expr, Int):
        k = _pow2(expr.value)
        return None if k is None else Int(k)
    if isinstance(expr, BinOp) and expr.op == "**" and isinstance(expr.left, Int):
        k = _pow2(expr.left.value)
        if k is None:
            return None
        if k == 0:
            return Int(0)
        return expr.right if k == 1 else BinOp("*", Int(k), expr.right)
    return None


def _bit_range(form: Form, value_radix: int, loc_value) -> tuple[int, Expr | None, Expr, int | None]:
    """(shift, lo_exp, hi_exp, min_exp) of a counted form, or a SpecError saying what is not a power of two."""
    shift = _pow2(value_radix)
    if not shift:
        raise SpecError(f"the value digits of a counted form need a power-of-two radix (2, 4, … 256), "
                        f"not {value_radix}: their range is checked from bit lengths", loc_value)
    where = form.option_locs.get("range", form.loc)
    assert form.value_range is not None  # parse requires a range of a counted form
    lo_e, hi_e = form.value_range
    lo_exp = None if lo_e == Int(0) else _exponent_of(lo_e)
    if lo_exp is None and lo_e != Int(0):
        raise SpecError("a counted form's range starts at 0 or at a power of two, written P ** E with P "
                        "a power of two (so that it is a range of bit lengths)", where)
    hi_exp = (_exponent_of(hi_e.left) if isinstance(hi_e, BinOp) and hi_e.op == "-" and hi_e.right == Int(1)
              else None)
    if hi_exp is None:
        raise SpecError("a counted form's range ends at a power of two minus one, written P ** E - 1 with P "
                        "a power of two (so that it is a range of bit lengths)", where)
    floor = (form.min or 0) - (form.at or 0)
    min_exp = None
    if floor > 0:
        min_exp = _pow2(floor)
        if min_exp is None:
            raise SpecError("a counted form's min, less its offset, must be a power of two "
                            "(so that it is a bit length)", form.option_locs.get("min", form.loc))
    if not 0 <= (form.at or 0) < 1 << 63:
        raise SpecError("a counted form's offset must be in 0 .. 2**63 - 1", form.option_locs.get("at", form.loc))
    return shift, lo_exp, hi_exp, min_exp


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
        assert item.digits is not None  # a position is digits or a sub-form
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
    frees = [i for i in tail if i.binds]
    if len(frees) > 1:
        raise SpecError("a counted form has at most one free count (the field's count determines it, "
                        "so an encoder can write it)", frees[1].loc)
    if len(fields) != 1 or stage != 2:
        raise SpecError("a counted form needs exactly one field followed by value digits", form.loc)
    for a, b in zip(out_items, out_items[1:]):
        if a.binds and set(_bytes(a.runs)) & set(_bytes(b.runs)):
            raise SpecError("a free count must be followed by bytes it cannot contain", form.loc)
    first = set()
    for counted_item in out_items:
        first |= set(_bytes(counted_item.runs))
        if not counted_item.binds:
            break
    if sum(1 for i in out_items if i.role == "value") != 1:
        raise SpecError("a counted form needs exactly one run of value digits", form.loc)
    prefix = []
    for item in items[:k]:
        if item.digits is None or item.digits.radix != 1:
            raise SpecError("the bounded prefix of a counted form must be fixed bytes", item.loc)
        prefix += [item.digits.runs[0][0]] * evaluate(item.count, {})
    value_item = next(i for i in tail if not i.binds and not i.field)
    assert value_item.digits is not None and form.value_range is not None  # both checked above
    shift, lo_exp, hi_exp, min_exp = _bit_range(form, value_item.digits.radix, value_item.loc)
    ext = Extension(
        form=form.name, line=form.loc.line, prefix_bytes=bytes(prefix), items=tuple(out_items),
        first_bytes=tuple(sorted(first)), min=form.min or 0, offset=form.at or 0,
        range=form.value_range, shift=shift, lo_exp=lo_exp, hi_exp=hi_exp, min_exp=min_exp,
    )
    _check_levels(ext, form, tail)
    return ext


_TRIED_LEVELS = 16  # field values tried at compile time: 0, 1, 2, …


def _check_levels(ext: Extension, form: Form, tail) -> None:
    """Evaluate the counts and the range's exponents for the first field values, so
    that a count that cannot be solved, divides by zero or leaves 64 bits, a range
    empty at every length, or lengths that shrink as the field grows (the encoder
    searches them) is reported here rather than when (or forever while) encoding."""
    field_item = next(i for i in tail if i.field)
    try:
        solvable = _solve(field_item.count, 1) is not None
    except ZeroDivisionError:
        solvable = False
    if not solvable:
        raise SpecError(f"the count of field '{field_item.field}' must be a free count plus a number, "
                        "like {n+1}", field_item.loc)
    value_item = next(i for i in tail if not i.binds and not i.field)
    range_loc = form.option_locs.get("range", form.loc)
    found = False
    widest = None
    for f in range(_TRIED_LEVELS):
        solved = _solve(field_item.count, len(_to_digits(f, field_item.digits.radix, None)))
        assert solved is not None  # solvable: a free count plus a number, checked above
        name, n = solved
        if n < 0:
            continue
        env = {field_item.field: f, name: n}
        shown = ", ".join(f"{k} = {v}" for k, v in env.items())
        got: list[int | None] = []
        for expr, loc, what in ((value_item.count, value_item.loc, "count"),
                                (ext.hi_exp, range_loc, "range bound's exponent"),
                                (ext.lo_exp, range_loc, "range bound's exponent")):
            if expr is None:
                got.append(None)
                continue
            try:
                v = checked(expr, env)
            except ZeroDivisionError:
                raise SpecError(f"division by zero in a {what} (when {shown})", loc) from None
            except OverflowError:
                raise SpecError(f"a {what} leaves -2**62 .. 2**62 (when {shown}): "
                                "decoders compute it in 64-bit integers", loc) from None
            if v < 0:
                raise SpecError(f"a {what} must be a whole number, 0 or more; this one is {v} when {shown}", loc)
            got.append(v)
        count, hi_exp, lo_exp = got
        assert count is not None and hi_exp is not None  # the value's count and hi_exp are always given
        low, high = _bit_lengths(ext, count, hi_exp, lo_exp)
        found = found or low <= high
        if widest is not None and high < widest:
            raise SpecError(f"form '{form.name}' holds shorter code points at {shown} than at a smaller "
                            f"'{field_item.field}': the encoder searches its lengths in order", range_loc)
        widest = high
    if not found:
        raise SpecError(f"form '{form.name}' can never match: its range is empty at every length "
                        f"(tried {field_item.field} = 0 .. {_TRIED_LEVELS - 1})", form.loc)


def _bit_lengths(ext: Extension, count: int, hi_exp: int, lo_exp: int | None) -> tuple[int, int]:
    """The fewest and most bits a raw value of this length can have (low > high: none)."""
    floors = [e for e in (lo_exp, ext.min_exp) if e is not None]
    low = max(floors) + 1 if floors else 0
    return low, min(hi_exp, count * ext.shift)


def _bytes(runs):
    return [b for lo, hi in runs for b in range(lo, hi + 1)]


def _solve(expr, target: int) -> tuple[str, int] | None:
    """Solve ``var + c == target`` for the one variable in *expr* (None if it is not of that shape)."""
    got = solve_unit(expr)
    return None if got is None else (got[0], target - got[1])


def _to_digits(v: int, radix: int, n: int | None) -> list[int]:
    out: list[int] = []
    while v or (n is None and not out) or (n is not None and len(out) < n):
        v, d = divmod(v, radix)
        out.append(d)
    return list(reversed(out))
