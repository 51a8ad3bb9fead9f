"""The `c` export target: NAME.h / NAME.c (C99, no allocation, no dependencies), a tokens demo, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .expressions import CHECKED, source
from .target import Target, register



def _expr(mod: str):
    return lambda expr, used: source(expr, "c", used, prefix=mod)


def files(a: Automaton) -> dict[str, str]:
    common.check_char_offsets(a, "c")
    common.check_pairs(a, "c")
    ctx = common.common_context(a)
    mod, MOD = ctx["mod"], ctx["MOD"]
    w = common.width_context(a)
    ctx.update(w)
    ctx["cp_type"] = f"uint{w['cp_bits']}_t"
    ctx["state_type"] = f"uint{w['state_bits']}_t"
    ctx["accept_type"] = "int16_t" if len(a.actions) >= 127 else "int8_t"
    plans, used = common.plans_context(a, "c", _expr(mod))
    ctx["plans"] = plans
    ctx["x_ops"] = sorted(CHECKED[op] for op in used)
    limits = common.wide_limits(a, w, f"{ctx['cp_type']} ({mod}_cp)", f"{MOD}_REASON_WIDE", f"{MOD}_REASON_LIMIT")
    ctx["header"] = common.header_lines(a, "c", limits, [
        f"#include \"{mod}.h\"; compile {mod}.c with any C99 compiler.",
        f"{mod}_next(data, len, &pos, &tok) walks the tokens (pos = 0 first);",
        f"{mod}_decode(data, len, out, replacement, &errors) writes every code point",
        "(errors and reserved runs as the replacement) into out, which needs",
        "room for len entries; the signature is skipped.",
        f"{mod}_step(state, byte, &acc) is the bare automaton step (Hoehrmann style).",
        "./run-tokens < FILE prints the tokens as `encspec tokens` does;",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ])
    return {
        f"{mod}.h": render("c/header.h.j2", **ctx),
        f"{mod}.c": render("c/source.c.j2", **ctx),
        "tokens.c": render("c/tokens.c.j2", **ctx),
        "run-tokens": render("c/run-tokens.j2", **ctx),
    }


register(Target(
    name="c",
    describe="C99 tables, a step function and a token decoder (NAME.h, NAME.c), a tokens demo and run-tokens",
    files=files,
    supports=common.int64_support("c"),
    int_bits=64,
    executables=("run-tokens",),
))
