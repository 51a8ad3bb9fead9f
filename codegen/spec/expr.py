"""Integer expressions of a spec (repetition counts and ranges of counted forms).

``{n + 1}``, ``{(nme + 20) // 3 * 2}``, ``range 0 .. 16 ** (nme + 17) - 1``: a
tiny language of whole numbers, variables bound by earlier items, and the
operators + - * // **.  An expression is immutable data; :func:`fold` is the one
walk over it, which evaluation, the spec notation and every target's source
(:mod:`encspec.spec.expressions`) are written with.

Every walk here is iterative (an explicit stack), so an expression as deep as a
spec file can make it (a sum of 100,000 terms) costs time, never Python's
recursion limit.  Numbers are bounded before they are computed:

* :func:`evaluate_bounded` is the compiler's arithmetic on constants: every
  intermediate value has at most :data:`CONST_BITS` bits, and a ``*`` or ``**``
  whose result would be wider is refused from its operands' bit lengths, before
  anything is multiplied (``9 ** 9 ** 9``, ``2 ** 2 ** 28``).
* :func:`evaluate_checked` is the decoders' arithmetic: every value within
  +-2**62 (:data:`CHECKED_LIMIT`), so every backend can compute it in 64-bit
  integers.

A node may carry the :class:`~encspec.spec.diagnostics.Loc` it was parsed at
(``loc``; the operator's position for a :class:`BinOp`): it takes no part in
equality, hashing or ``repr``, so expressions built by hand and parsed ones
compare alike.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from .diagnostics import Loc

OPERATORS = ("+", "-", "*", "//", "**")

#: The widest constant a spec may compute, in bits (any intermediate value of a
#: constant expression, and any number written in it).  4096 bits hold every
#: bound a real encoding needs many times over, keep each operation to
#: microseconds, and stay below the 4300 decimal digits Python will convert.
CONST_BITS = 4096

#: The most decimal digits a number written in a spec can have and still fit
#: CONST_BITS (10 ** 1233 < 2 ** 4096 < 10 ** 1234).
CONST_DIGITS = 1234

#: The decoders' arithmetic (counts, field values, exponents): within +-2**62.
CHECKED_LIMIT = 1 << 62

#: How deeply a stored expression may nest its operators (a count of a counted
#: form, a range bound).  Generated decoders write expressions as nested source
#: (Python's parser allows 200 nested parentheses); constant counts are folded
#: to their value first, so this limit does not apply to them.
MAX_DEPTH = 64


def _loc_field():
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Int:
    value: int
    loc: Loc | None = _loc_field()


@dataclass(frozen=True)
class Var:
    name: str
    loc: Loc | None = _loc_field()


@dataclass(frozen=True)
class BinOp:
    op: str  # one of OPERATORS
    left: Expr
    right: Expr
    loc: Loc | None = _loc_field()  # the operator's position


Expr = Int | Var | BinOp
T = TypeVar("T")


def fold(expr: Expr, number: Callable[[int], T], var: Callable[[str], T],
         op: Callable[[str, T, T], T]) -> T:
    """Combine an expression bottom-up: *number* and *var* at the leaves, *op* at each operator.

    The callbacks are called in the order a recursive walk would call them
    (left operand, right operand, then the operator), with an explicit stack."""
    out: list = []
    stack: list = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if isinstance(node, Int):
            out.append(number(node.value))
        elif isinstance(node, Var):
            out.append(var(node.name))
        elif ready:
            b = out.pop()
            out.append(op(node.op, out.pop(), b))
        else:
            stack.append((node, True))
            stack.append((node.right, False))
            stack.append((node.left, False))
    return out[0]


def walk(expr: Expr):
    """Every node of *expr*, parents before children, left before right (iterative)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, BinOp):
            stack.append(node.right)
            stack.append(node.left)


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
    """The value of *expr* with its variables taken from *env* (unbounded: for
    expressions already checked, such as a form's constant counts)."""
    return fold(expr, lambda v: v, env.__getitem__, _apply)


# ------------------------------------------------------------ bounded arithmetic
class ExprLimitError(ArithmeticError):
    """A constant expression the compiler refuses to compute; ``node`` is the
    operator (or number) at fault, whose ``loc`` says where it is written."""

    def __init__(self, message: str, node: Expr):
        super().__init__(message)
        self.message = message
        self.node = node


DIVISION_BY_ZERO = "division by zero"


def _too_wide(what: str, bits: int) -> str:
    return f"{what} would make a number wider than {bits} bits, the limit for a number in a spec"


def bounded_op(op: str, a: int, b: int, bits: int = CONST_BITS) -> int:
    """``a op b`` if every value stays within *bits* bits, decided before any
    large number is built; else ValueError (the message), ZeroDivisionError for ``// 0``."""
    if op == "**":
        if b < 0:
            shown = f" ({b})" if b.bit_length() <= 64 else ""
            raise ValueError(f"'**' with a negative exponent{shown} has no whole-number value")
        if b == 0:
            return 1
        if a in (0, 1):
            return a
        if a == -1:
            return -1 if b & 1 else 1
        # |a| >= 2 ** (bl - 1), so |a| ** b has at least (bl - 1) * b + 1 bits
        if (abs(a).bit_length() - 1) * b + 1 > bits:
            raise ValueError(_too_wide("this '**'", bits))
        v = a ** b  # at most bl * b <= 2 * bits bits
    elif op == "*":
        if a and b and a.bit_length() + b.bit_length() - 1 > bits:
            raise ValueError(_too_wide("this '*'", bits))
        v = a * b
    elif op == "//":
        if b == 0:
            raise ZeroDivisionError("division by zero")
        v = a // b
    elif op == "+":
        v = a + b
    else:
        v = a - b
    if v.bit_length() > bits:
        raise ValueError(_too_wide(f"this '{op}'", bits))
    return v


def _postorder(expr: Expr):
    """The nodes of *expr* in post-order (operands before their operator), with an explicit stack."""
    stack: list = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if isinstance(node, BinOp) and not ready:
            stack.append((node, True))
            stack.append((node.right, False))
            stack.append((node.left, False))
        else:
            yield node


def evaluate_bounded(expr: Expr, env: dict[str, int] | None = None, bits: int = CONST_BITS) -> int:
    """The value of *expr* with every intermediate value within *bits* bits.

    Raises :class:`ExprLimitError` naming the node at fault: a number too wide,
    a ``*`` or ``**`` whose result would be too wide (refused before it is
    computed), a division by zero, a negative exponent, or an unknown name."""
    env = env or {}
    out: list[int] = []
    for node in _postorder(expr):
        if isinstance(node, Int):
            if node.value.bit_length() > bits:
                raise ExprLimitError(f"a number wider than {bits} bits, the limit for a number in a spec", node)
            out.append(node.value)
        elif isinstance(node, Var):
            if node.name not in env:
                raise ExprLimitError(f"unknown name '{node.name}'", node)
            out.append(env[node.name])
        else:
            b = out.pop()
            a = out.pop()
            try:
                out.append(bounded_op(node.op, a, b, bits))
            except ZeroDivisionError:
                raise ExprLimitError(DIVISION_BY_ZERO, node) from None
            except ValueError as e:
                raise ExprLimitError(str(e), node) from None
    return out[0]


def check_constants(expr: Expr, bits: int = CONST_BITS) -> None:
    """Evaluate every constant part of *expr* (each operator whose operands have
    no names) within *bits* bits; :class:`ExprLimitError` at the first that fails.
    Parts with names are left alone: their values depend on the input."""
    out: list = []  # per finished node: its value, or None if it has a name
    for node in _postorder(expr):
        if isinstance(node, Int):
            if node.value.bit_length() > bits:
                raise ExprLimitError(f"a number wider than {bits} bits, the limit for a number in a spec", node)
            out.append(node.value)
        elif isinstance(node, Var):
            out.append(None)
        else:
            b = out.pop()
            a = out.pop()
            if a is None or b is None:
                out.append(None)
                continue
            try:
                out.append(bounded_op(node.op, a, b, bits))
            except ZeroDivisionError:
                raise ExprLimitError(DIVISION_BY_ZERO, node) from None
            except ValueError as e:
                raise ExprLimitError(str(e), node) from None


def too_deep(expr: Expr, limit: int = MAX_DEPTH) -> BinOp | None:
    """The first operator (in reading order) nested more than *limit* deep, or None."""
    stack = [(expr, 0)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, BinOp):
            d += 1
            if d > limit:
                return node
            stack.append((node.right, d))
            stack.append((node.left, d))
    return None


def _checked(v: int) -> int:
    if -CHECKED_LIMIT <= v <= CHECKED_LIMIT:
        return v
    raise OverflowError("beyond +-2**62")


def checked_op(op: str, a: int, b: int) -> int:
    """``a op b`` in the decoders' arithmetic: exact, the result within +-2**62
    (OverflowError beyond, and for ``**`` with a negative exponent),
    ZeroDivisionError for ``// 0``.  Never builds a number much wider than 2**62."""
    if op == "**":
        if b < 0:
            raise OverflowError("a negative power")
        if b == 0:
            return 1
        if a in (0, 1):
            return a
        if a == -1:
            return -1 if b & 1 else 1
        # |a| >= 2: |a| ** b >= 2 ** b, and >= 2 ** ((bl - 1) * b)
        if b > 62 or (abs(a).bit_length() - 1) * b > 62:
            raise OverflowError("beyond +-2**62")
        return _checked(a ** b)
    if op == "//":
        if b == 0:
            raise ZeroDivisionError("division by zero")
        return _checked(a // b)
    if op == "*":
        return _checked(a * b)
    return _checked(a + b if op == "+" else a - b)


def evaluate_checked(expr: Expr, env: dict[str, int]) -> int:
    """*expr* in the decoders' arithmetic: exact integers, every number written in
    it, every value taken from *env* and every intermediate result within
    +-2**62 (:data:`CHECKED_LIMIT`).  OverflowError beyond (and for ``**`` with a
    negative exponent), ZeroDivisionError for ``//`` by zero.  Iterative."""
    return fold(expr, _checked, lambda name: _checked(env[name]), checked_op)


# ------------------------------------------------------------------- queries
def variables(expr: Expr) -> set[str]:
    return {node.name for node in walk(expr) if isinstance(node, Var)}


def is_const(expr: Expr) -> bool:
    return not any(isinstance(node, Var) for node in walk(expr))


def const(value: int) -> Expr:
    return Int(value)


def text(expr: Expr) -> str:
    """The spec's own notation, fully parenthesised (for comments and messages)."""
    return fold(expr, str, str, lambda op, a, b: f"({a} {op} {b})")


def to_json(expr: Expr) -> list:
    """``["int", 3]``, ``["var", "n"]``, ``["+", left, right]``: the table format's notation."""
    return fold(expr, lambda v: ["int", v], lambda n: ["var", n], lambda op, a, b: [op, a, b])


def solve_unit(expr: Expr) -> tuple[str, int] | None:
    """For ``var + c`` (one variable, slope 1): ``(var, c)``; else None.

    A field's count must have this shape so that an encoder can find the field's
    value from the number of digits it writes.  Evaluated in the decoders'
    arithmetic, so a count like ``n ** n ** n ** n ** n`` is None, not a hang."""
    names = variables(expr)
    if len(names) != 1:
        return None
    name = next(iter(names))
    try:
        base = evaluate_checked(expr, {name: 0})
        if evaluate_checked(expr, {name: 1}) - base != 1 or evaluate_checked(expr, {name: 2}) - base != 2:
            return None
    except (ZeroDivisionError, OverflowError, ValueError):
        return None
    return name, base
