"""Repetition counts and range bounds: the limits every stored expression meets."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from ..expr import (
    DIVISION_BY_ZERO,
    MAX_DEPTH,
    Expr,
    ExprLimitError,
    Var,
    check_constants,
    evaluate_bounded,
    too_deep,
    walk,
)

MAX_REPEAT = 64  # far beyond any real encoding; more only makes the automaton slow to build


def var_locs(expr: Expr, out: list[tuple[str, Loc | None]]) -> list[tuple[str, Loc | None]]:
    """(name, loc) of every name in *expr*, in reading order."""
    out += [(node.name, node.loc) for node in walk(expr) if isinstance(node, Var)]
    return out


def limit_error(e: ExprLimitError, what: str, fallback: Loc) -> SpecError:
    return SpecError(f"{e.message} (in {what})", e.node.loc or fallback)


def checked_expr(expr: Expr, what: str, loc: Loc) -> Expr:
    """*expr* after the limits every stored expression must meet: each constant
    part computes within CONST_BITS bits, and operators nest at most MAX_DEPTH deep."""
    try:
        check_constants(expr)
    except ExprLimitError as e:
        raise limit_error(e, what, loc) from None
    deep = too_deep(expr)
    if deep is not None:
        raise SpecError(f"{what} nests its operators more than {MAX_DEPTH} deep: simplify it", deep.loc or loc)
    return expr


def _count_value(expr: Expr, loc: Loc) -> int:
    """A constant count's value, computed within CONST_BITS bits."""
    try:
        return evaluate_bounded(expr)
    except ExprLimitError as e:
        if e.message == DIVISION_BY_ZERO:
            raise SpecError("division by zero in a repetition count", e.node.loc or loc) from None
        raise limit_error(e, "a repetition count", loc) from None


def repeat_range(lo: Expr, hi: Expr, loc: Loc) -> tuple[int, int]:
    """The bounds of a range of counts {M,N}: constants, 0 <= M <= N <= MAX_REPEAT, N >= 1."""
    if any(isinstance(node, Var) for e in (lo, hi) for node in walk(e)):
        raise SpecError("a range of counts {M,N} takes numbers, not names", loc)
    n = repeat_count(hi, loc)
    m = _count_value(lo, loc)
    if m < 0:
        raise SpecError("a range of counts {M,N} starts at 0 or more", loc)
    if m > n:
        raise SpecError(f"a range of counts {{{m},{n}}} must not end below its start", loc)
    return m, n


def repeat_count(expr: Expr, loc: Loc) -> int:
    """The value of a constant repetition count {N}, which must be 1 .. MAX_REPEAT.

    Computed within CONST_BITS bits (a power or product that would be wider is
    refused from its operands' sizes, before it is computed), iteratively."""
    n = _count_value(expr, loc)
    if n < 1:
        raise SpecError("a repetition count must be at least 1", loc)
    if n > MAX_REPEAT:
        raise SpecError(f"a repetition count must be at most {MAX_REPEAT}", loc)
    return n
