"""The `js` export target: one ES module (Node and browsers), a tokens demo for Node, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .expressions import uses
from .target import Target, register

MAX_SAFE = (1 << 53) - 1


def _num(v: int) -> str:
    return str(v) if v <= MAX_SAFE else f"{v}n"


def files(a: Automaton) -> dict[str, str]:
    ctx = common.common_context(a)
    mod = ctx["mod"]
    bound = common.value_bound(a)
    ctx["wide_dfa"] = bound is None or bound > MAX_SAFE  # Number arithmetic may be inexact: replay in BigInt
    for act in ctx["actions"]:
        act["offset_js"] = _num(act["offset"])
        act["value_js"] = _num(act["value"])
    exts = []
    floor_div = False
    for ext in a.extensions:
        exts.append(common.counted_context(ext, "js"))
        floor_div |= any(uses(e, "//") for e in [it.count for it in ext.items if it.count is not None] + list(ext.range))
    ctx["exts"] = exts
    ctx["floor_div"] = floor_div
    limits = ["* Code points are Numbers up to Number.MAX_SAFE_INTEGER (2**53 - 1) and",
              "  BigInts beyond, so nothing differs from the reference."]
    if ctx["wide_dfa"]:
        limits += ["* The automaton accumulates in Numbers; a value that passes 2**53 - 1 is",
                   "  recomputed exactly with BigInt from its bytes."]
    else:
        limits += ["* Every code point of this encoding is a Number (below 2**53)."]
    if a.extensions:
        limits += ["* Counted forms are computed with BigInt exactly as the reference does",
                   "  (including its powers such as 16 ** (nme + 17)); an input whose bounds",
                   "  pass the engine's BigInt size limit (2**30 bits in V8: the reference",
                   "  decoder would need numbers of that size too) throws a RangeError.",
                   "  A count or bound that is not an integer (a negative power) throws too."]
    ctx["header"] = common.header_lines(a, "js", limits, [
        f"import {{ tokens, scan, decode, decodeCodePoints }} from \"./{mod}.mjs\";",
        "data is a Uint8Array (a Node Buffer is one).",
        "tokens(data) yields {kind, start, end, value, reason}: kind is \"char\",",
        "\"error\", \"reserved\" or \"signature\"; value is the code point of a char",
        "(else null); reason says why for errors and reserved runs.",
        "decodeCodePoints(data, replacement = 0xFFFD) returns the code points (errors",
        "and reserved runs as the replacement; the signature is skipped);",
        "decode(data) returns a string (U+FFFD for those and for code points",
        "beyond U+10FFFF).",
        "./run-tokens < FILE prints the tokens as `encspec tokens` does (Node);",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ])
    return {
        f"{mod}.mjs": render("js/module.mjs.j2", **ctx),
        "tokens.mjs": render("js/tokens.mjs.j2", **ctx),
        "run-tokens": render("js/run-tokens.j2", **ctx),
    }


register(Target(
    name="js",
    describe="one ES module for Node and browsers (BigInt where values pass 2**53), a tokens demo and run-tokens",
    files=files,
    int_bits=None,
    executables=("run-tokens",),
))
