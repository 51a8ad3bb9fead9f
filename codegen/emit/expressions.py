"""A spec expression as source text in each target language: the one converter.

Every target writes a variable ``n`` as ``v_n`` (Python: a lookup in the
environment dict ``e``) and keeps Python's meaning of ``//`` (floor division)
and ``**``.  C and Rust work in checked 64-bit integers (``x_add`` … report
overflow), JavaScript in BigInt and Java in BigInteger, so every value is the
reference's exactly or the target says it cannot compute it.
"""
from __future__ import annotations

from typing import Optional

from ..spec.expr import Expr, fold, text

# the checked-operation helpers of the C and Rust templates
CHECKED = {"+": "add", "-": "sub", "*": "mul", "//": "div", "**": "pow"}
MAX_LONG = (1 << 63) - 1


def java_const(k: int) -> str:
    """A BigInteger constant."""
    return {0: "BigInteger.ZERO", 1: "BigInteger.ONE", 2: "BigInteger.TWO", 10: "BigInteger.TEN"}.get(
        k, f"BigInteger.valueOf({k}L)" if -MAX_LONG <= k <= MAX_LONG else f'new BigInteger("{k}")')


def _java_op(op: str, a: str, b: str) -> str:
    if op == "//":
        return f"floorDiv({a}, {b})"
    if op == "**":
        return f"pow({a}, {b})"
    return f"{a}.{ {'+': 'add', '-': 'subtract', '*': 'multiply'}[op] }({b})"


def source(expr: Expr, lang: str, used: Optional[set] = None, prefix: str = "") -> str:
    """*expr* in *lang* ("python", "python-checked", "c", "rust", "js", "java" or "text", the spec's notation).

    *used* collects the operators a C or Rust expression calls (their helpers are
    emitted only when used); *prefix* is the C helpers' module prefix."""
    if lang == "text":
        return text(expr)
    if used is None:
        used = set()

    def checked(fmt: str):
        def op(o, a, b):
            used.add(o)
            return fmt.format(op=CHECKED[o], a=a, b=b)
        return op

    if lang == "python":
        return fold(expr, str, lambda n: f'e["{n}"]', lambda o, a, b: f"({a} {o} {b})")
    if lang == "python-checked":  # the core's checked helpers (_x_add ...), as C and Rust
        return fold(expr, str, lambda n: f'e["{n}"]', lambda o, a, b: f"_x_{CHECKED[o]}({a}, {b})")
    if lang == "c":
        return fold(expr, lambda k: f"INT64_C({k})", lambda n: f"v_{n}",
                    checked(prefix + "_x_{op}({a}, {b}, &ov)"))
    if lang == "rust":
        return fold(expr, lambda k: f"Some({k})", lambda n: f"v_{n}", checked("x_{op}({a}, {b})"))
    if lang == "js":
        return fold(expr, lambda k: f"{k}n", lambda n: f"v_{n}",
                    lambda o, a, b: f"floorDiv({a}, {b})" if o == "//" else f"({a} {o} {b})")
    if lang == "java":
        return fold(expr, java_const, lambda n: f"v_{n}", _java_op)
    raise ValueError(f"no expression syntax for {lang!r}")


def uses(expr: Expr, op: str) -> bool:
    """Whether *expr* applies operator *op* (a target then emits its helper)."""
    return fold(expr, lambda k: False, lambda n: False, lambda o, a, b: o == op or a or b)
