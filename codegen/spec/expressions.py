"""A spec expression as source text in each target language: the one converter.

It lives in spec/, beside the expressions themselves (``expr.py``, whose ``text``
is the spec's own spelling), because both the run time (``runtime/tables.py``
binds the core with each expression's Python text) and the exporters (emit/)
read it, and the run time may not import emit.

Every target writes a variable ``n`` as ``v_n`` (Python: a lookup in the
environment dict ``e``) and keeps Python's meaning of ``//`` (floor division)
and ``**``.  Every target computes in the decoders' checked arithmetic (exact,
each step within +-2**62, else overflow): Python with the core's ``_x_add`` …,
C and Rust in 64-bit integers (``x_add`` … report overflow), JavaScript in
BigInt (``xAdd`` …, null on overflow) and Java in longs (``xAdd`` …, OVERFLOW),
so every value is the reference's exactly or the target says it cannot
compute it.
"""
from __future__ import annotations

from .expr import Expr, fold, text

# the checked-operation helpers of the C and Rust templates
CHECKED = {"+": "add", "-": "sub", "*": "mul", "//": "div", "**": "pow"}
# the same helpers in the JavaScript and Java templates
CAMEL = {"+": "xAdd", "-": "xSub", "*": "xMul", "//": "xDiv", "**": "xPow"}
MAX_LONG = (1 << 63) - 1
X_LIMIT = 1 << 62  # counts, field values and exponents stay within +-2**62


def source(expr: Expr, lang: str, used: set | None = None, prefix: str = "") -> str:
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
    if lang in ("js", "java"):
        def camel(o, a, b):
            used.add(o)
            return f"{CAMEL[o]}({a}, {b})"
        suffix, overflow = ("n", "null") if lang == "js" else ("L", "OVERFLOW")
        return fold(expr, lambda k: f"{k}{suffix}" if -X_LIMIT <= k <= X_LIMIT else overflow,
                    lambda n: f"v_{n}", camel)
    raise ValueError(f"no expression syntax for {lang!r}")


def uses(expr: Expr, op: str) -> bool:
    """Whether *expr* applies operator *op* (a target then emits its helper)."""
    def applies(o: str, a: bool, b: bool) -> bool:
        return o == op or a or b

    return fold(expr, lambda k: False, lambda n: False, applies)
