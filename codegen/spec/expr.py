"""Integer expressions of a spec (repetition counts and ranges of counted forms).

``{n + 1}``, ``{(nme + 20) // 3 * 2}``, ``range 0 .. 16 ** (nme + 17) - 1``: a
tiny language of whole numbers, variables bound by earlier items, and the
operators + - * // **.  An expression is immutable data; :func:`fold` is the one
walk over it, which evaluation, the spec notation and every target's source
(:mod:`encspec.emit.expressions`) are written with.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar, Union

OPERATORS = ("+", "-", "*", "//", "**")


@dataclass(frozen=True)
class Int:
    value: int


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class BinOp:
    op: str  # one of OPERATORS
    left: "Expr"
    right: "Expr"


Expr = Union[Int, Var, BinOp]
T = TypeVar("T")


def fold(expr: Expr, number: Callable[[int], T], var: Callable[[str], T],
         op: Callable[[str, T, T], T]) -> T:
    """Combine an expression bottom-up: *number* and *var* at the leaves, *op* at each operator."""
    if isinstance(expr, Int):
        return number(expr.value)
    if isinstance(expr, Var):
        return var(expr.name)
    return op(expr.op, fold(expr.left, number, var, op), fold(expr.right, number, var, op))


def _apply(op: str, a: int, b: int) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "//":
        return a // b
    return a ** b


def evaluate(expr: Expr, env: dict[str, int]) -> int:
    """The value of *expr* with its variables taken from *env*."""
    return fold(expr, lambda v: v, env.__getitem__, _apply)


def variables(expr: Expr) -> set[str]:
    return fold(expr, lambda v: set(), lambda n: {n}, lambda op, a, b: a | b)


def is_const(expr: Expr) -> bool:
    return not variables(expr)


def const(value: int) -> Expr:
    return Int(value)


def text(expr: Expr) -> str:
    """The spec's own notation, fully parenthesised (for comments and messages)."""
    return fold(expr, str, str, lambda op, a, b: f"({a} {op} {b})")


def to_json(expr: Expr) -> list:
    """``["int", 3]``, ``["var", "n"]``, ``["+", left, right]``: the table format's notation."""
    return fold(expr, lambda v: ["int", v], lambda n: ["var", n], lambda op, a, b: [op, a, b])


def solve_unit(expr: Expr) -> Union[tuple[str, int], None]:
    """For ``var + c`` (one variable, slope 1): ``(var, c)``; else None.

    A field's count must have this shape so that an encoder can find the field's
    value from the number of digits it writes."""
    names = variables(expr)
    if len(names) != 1:
        return None
    name = next(iter(names))
    try:
        base = evaluate(expr, {name: 0})
        if evaluate(expr, {name: 1}) - base != 1 or evaluate(expr, {name: 2}) - base != 2:
            return None
    except (ZeroDivisionError, ValueError):
        return None
    return name, base

