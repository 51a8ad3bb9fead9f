"""The `c` export target: NAME.h / NAME.c (C99, no allocation, no dependencies), a tokens demo, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import native, render
from .targets import Target, register

OPS = {"+": "add", "-": "sub", "*": "mul", "//": "div", "**": "pow"}


def _expr(mod: str, expr, used: set) -> str:
    def call(op, left, right):
        used.add(OPS[op])
        return f"{mod}_x_{OPS[op]}({left}, {right}, &ov)"
    return native.render_calls(expr, lambda v: f"v_{v}", lambda k: f"INT64_C({k})", call)


def limits(a: Automaton, ctx: dict) -> list[str]:
    out = [f"* Code points are {ctx['cp_type']} ({ctx['mod']}_cp); the accumulator is uint64_t."]
    if ctx["wide"]:
        out += ["* A code point wider than 64 bits cannot be returned: it comes out as an",
                "  ERROR token with exactly the char's span and the reason",
                f'  "{ctx["reason_wide"]}" ({ctx["MOD"]}_REASON_WIDE); `tokens` prints it as',
                "  `error START END`.  Nothing else differs from the reference."]
    else:
        out += ["* Every code point of this encoding fits: no difference from the reference."]
    if a.extensions:
        out += ["* Counted forms: the value is never built as a big number.  Its digits",
                "  have a power-of-two radix and the range bounds are powers of two, so",
                "  \"a valid value is still reachable\" (run.scan_counted's test) is an",
                "  exact comparison of bit lengths and exponents, kept in int64_t.",
                "  Counts and exponents are computed exactly and checked to stay within",
                "  +-2**62; an input that needs more (the reference decoder would have to",
                "  build numbers of more than 2**62 bits, so it has no answer either) is",
                "  an ERROR token covering the bytes read so far, with the reason",
                f'  "{ctx["reason_limit"]}" ({ctx["MOD"]}_REASON_LIMIT).',
                "  Negative exponents (bounds that are not integers) are treated the same."]
    return out


def files(a: Automaton) -> dict[str, str]:
    native.check_char_offsets(a, "c")
    native.check_pairs(a, "c")
    ctx = native.common_context(a)
    mod = ctx["mod"]
    mcp = a.max_code_point
    ctx["cp_type"] = "uint32_t" if mcp is not None and mcp <= 0xFFFFFFFF else "uint64_t"
    # wide_dfa: the automaton's accumulator can pass 64 bits (checks in the hot loop);
    # wide: some code point cannot be returned (the DFA's, or a counted form's)
    ctx["wide_dfa"] = ctx["cp_type"] == "uint64_t" and native.needs_wide_checks(a, 64)
    ctx["wide"] = ctx["wide_dfa"] or bool(a.extensions)
    big_state = a.n_states + len(a.extensions) >= 255
    ctx["state_type"] = "uint16_t" if big_state else "uint8_t"
    ctx["dead"] = 0xFFFF if big_state else 0xFF
    ctx["accept_type"] = "int16_t" if len(a.actions) >= 127 else "int8_t"
    ctx["reason_wide"] = "code point wider than 64 bits"
    ctx["reason_limit"] = "counted form beyond this decoder's limits"
    used: set = set()
    plans = []
    for p in native.counted_plan(a, "c"):
        used.update({"add", "mul"})
        v = p["value"]
        plans.append({
            **p,
            "bind_digits": [native.digit_runs(b["runs"]) for b in p["binds"]],
            "field_digits": native.digit_runs(p["field"]["runs"]),
            "value_digits": native.digit_runs(v["runs"]),
            "field_count": _expr(mod, p["field"]["count"], used),
            "value_count": _expr(mod, v["count"], used),
            "lo_expr": None if p["lo_exp"] is None else _expr(mod, p["lo_exp"], used),
            "hi_expr": _expr(mod, p["hi_exp"], used),
            "field_count_text": native.expr_text(p["field"]["count"]),
            "value_count_text": native.expr_text(v["count"]),
            "lo_text": None if p["lo_exp"] is None else native.expr_text(p["lo_exp"]),
            "hi_text": native.expr_text(p["hi_exp"]),
        })
    ctx["plans"] = plans
    ctx["x_ops"] = sorted(used)
    ctx["header"] = native.header_lines(a, "c", limits(a, ctx), [
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
    int_bits=64,
    executables=("run-tokens",),
))
