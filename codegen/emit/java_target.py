"""The `java` export target: one class (no dependencies; BigInteger where values pass 63 bits), a tokens demo, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .expressions import MAX_LONG, java_const
from .target import Target, refusal, register



def check_limits(a: Automaton) -> None:
    """Java computes counted forms with BigInteger but holds offsets in a long."""
    common.check_pairs(a, "java")
    for act in common.common_context(a)["actions"]:
        if act["kind"] in ("char", "pair") and act["offset"] > MAX_LONG:
            raise common.SpecError(f"the java target needs offsets below 2**63 (form {act['comment']})",
                                   None, a.spec_file)


def files(a: Automaton) -> dict[str, str]:
    ctx = common.common_context(a)
    cls = ctx["cls"]
    bound = common.value_bound(a)
    ctx["wide_dfa"] = bound is None or bound > MAX_LONG  # long may overflow: replay in BigInteger
    check_limits(a)
    exts = []
    for ext in a.extensions:
        exts.append({**common.counted_context(ext, "java"), "floor": java_const(ext.min - ext.offset),
                     "offset_java": java_const(ext.offset)})
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
    supports=refusal(check_limits),
    int_bits=None,
    executables=("run-tokens",),
))
