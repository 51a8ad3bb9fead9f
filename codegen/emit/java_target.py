"""The `java` export target: one class (no dependencies; BigInteger where values pass 63 bits), a tokens demo, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .targets import Target, register

MAX_LONG = (1 << 63) - 1


def _const(k: int) -> str:
    """A BigInteger constant."""
    return {0: "BigInteger.ZERO", 1: "BigInteger.ONE", 2: "BigInteger.TWO", 10: "BigInteger.TEN"}.get(
        k, f"BigInteger.valueOf({k}L)" if -MAX_LONG <= k <= MAX_LONG else f'new BigInteger("{k}")')


def _expr(expr) -> str:
    """A spec expression over BigInteger variables v_NAME (Python's // and **)."""
    def call(op, left, right):
        if op == "//":
            return f"floorDiv({left}, {right})"
        if op == "**":
            return f"pow({left}, {right})"
        return f"{left}.{ {'+': 'add', '-': 'subtract', '*': 'multiply'}[op] }({right})"
    return common.render_calls(expr, lambda v: f"v_{v}", _const, call)


def files(a: Automaton) -> dict[str, str]:
    ctx = common.common_context(a)
    cls = ctx["cls"]
    bound = common.value_bound(a)
    ctx["wide_dfa"] = bound is None or bound > MAX_LONG  # long may overflow: replay in BigInteger
    common.check_pairs(a, "java")
    for act in ctx["actions"]:
        if act["kind"] in ("char", "pair") and act["offset"] > MAX_LONG:
            raise common.SpecError(f"the java target needs offsets below 2**63 (form {act['comment']})",
                                   None, a.spec_file)
    exts = []
    for ext in a.extensions:
        items = []
        for it in ext["items"]:
            items.append({**it, "digits": common.digit_runs(it["runs"]),
                          "runs_text": common.runs_text([b for lo, hi in it["runs"] for b in range(lo, hi + 1)]),
                          "count_java": None if it["count"] is None else _expr(common._tuple(it["count"])),
                          "count_text": None if it["count"] is None else common.expr_text(common._tuple(it["count"]))})
        lo, hi = (common._tuple(e) for e in ext["range"])
        exts.append({"form": ext["form"], "line": ext["line"], "items": items,
                     "floor": _const(ext["min"] - ext["offset"]), "offset_java": _const(ext["offset"]),
                     "min": ext["min"], "offset": ext["offset"], "lo_java": _expr(lo), "hi_java": _expr(hi),
                     "range_text": f"{common.expr_text(lo)} .. {common.expr_text(hi)}",
                     "text": common.form_text(a, ext)})
    ctx["exts"] = exts
    limits = ["* Code points are longs up to Long.MAX_VALUE (2**63 - 1); beyond, a",
              "  token's value is -1 and its BigInteger `big` holds the code point, so",
              "  nothing differs from the reference."]
    if ctx["wide_dfa"]:
        limits += ["* The automaton accumulates in a long; a value that passes 2**63 - 1 is",
                   "  recomputed exactly with BigInteger from its bytes."]
    else:
        limits += ["* Every code point of this encoding fits in a long."]
    if a.extensions:
        limits += ["* Counted forms are computed with BigInteger exactly as the reference",
                   "  does (including its powers such as 16 ** (nme + 17)); a power whose",
                   "  exponent passes Integer.MAX_VALUE (the reference would need numbers of",
                   "  gigabytes) or is negative (not an integer) throws ArithmeticException."]
    ctx["header"] = common.header_lines(a, "java", limits, [
        f"{cls}.tokens(bytes) returns the tokens of a whole document;",
        f"{cls}.scan(bytes, pos) the one at pos; each has kind (CHAR, ERROR,",
        "RESERVED, SIGNATURE), start, end, value (the code point of a CHAR),",
        "big (the code point when it passes a long) and reason (why, for errors",
        f"and reserved runs).  {cls}.decode(bytes, out, replacement) writes every",
        "code point (errors and reserved runs as the replacement; the signature",
        "is skipped) into out (room for bytes.length entries) and returns how",
        "many it wrote.",
        "./run-tokens < FILE prints the tokens as `encspec tokens` does;",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ])
    return {
        f"{cls}.java": render("java/Codec.java.j2", **ctx),
        f"{cls}Tokens.java": render("java/Tokens.java.j2", **ctx),
        "run-tokens": render("java/run-tokens.j2", **ctx),
    }


register(Target(
    name="java",
    describe="one Java class without dependencies (BigInteger where values pass 63 bits), a tokens demo and run-tokens",
    files=files,
    int_bits=None,
    executables=("run-tokens",),
))
