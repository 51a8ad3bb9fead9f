"""The `js` export target: one ES module (Node and browsers), a tokens demo for Node, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .targets import Target, register

MAX_SAFE = (1 << 53) - 1


def _expr(expr) -> str:
    """A spec expression over BigInt variables v_NAME; // is Python's floor division."""
    def call(op, left, right):
        if op == "//":
            return f"floorDiv({left}, {right})"
        return f"({left} {op} {right})"
    return common.render_calls(expr, lambda v: f"v_{v}", lambda k: f"{k}n", call)


def _uses_floor_div(expr) -> bool:
    if expr[0] in ("int", "var"):
        return False
    return expr[0] == "//" or _uses_floor_div(expr[1]) or _uses_floor_div(expr[2])


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
        items = []
        for it in ext["items"]:
            items.append({**it, "digits": common.digit_runs(it["runs"]),
                          "runs_text": common.runs_text([b for lo, hi in it["runs"] for b in range(lo, hi + 1)]),
                          "count_js": None if it["count"] is None else _expr(common._tuple(it["count"])),
                          "count_text": None if it["count"] is None else common.expr_text(common._tuple(it["count"]))})
            floor_div |= it["count"] is not None and _uses_floor_div(common._tuple(it["count"]))
        lo, hi = (common._tuple(e) for e in ext["range"])
        floor_div |= _uses_floor_div(lo) or _uses_floor_div(hi)
        exts.append({"form": ext["form"], "line": ext["line"], "items": items, "min": ext["min"],
                     "offset": ext["offset"], "lo_js": _expr(lo), "hi_js": _expr(hi),
                     "range_text": f"{common.expr_text(lo)} .. {common.expr_text(hi)}",
                     "text": common.form_text(a, ext)})
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
