"""The `rust` export target: one module file (no_std-compatible, no crates, no alloc), a tokens demo, run-tokens."""
from __future__ import annotations

from ..automaton import Automaton
from . import export_common as common, render
from .expressions import CHECKED, source
from .target import Target, register



def _expr(expr, used: set) -> str:
    return source(expr, "rust", used)


def files(a: Automaton) -> dict[str, str]:
    common.check_char_offsets(a, "rust")
    common.check_pairs(a, "rust")
    ctx = common.common_context(a)
    mod = ctx["mod"]
    w = common.width_context(a)
    ctx.update(w)
    ctx["cp_type"] = f"u{w['cp_bits']}"
    ctx["state_type"] = f"u{w['state_bits']}"
    ctx["accept_type"] = "i16" if len(a.actions) >= 127 else "i8"
    plans, used = common.plans_context(a, "rust", _expr)
    ctx["plans"] = plans
    ctx["x_ops"] = sorted(CHECKED[op] for op in used)
    limits = common.wide_limits(a, w, f"{ctx['cp_type']} (CodePoint)", "REASON_WIDE", "REASON_LIMIT")
    ctx["header"] = common.header_lines(a, "rust", limits, [
        f"A module: `#[path = \"{mod}.rs\"] mod {mod};` (or copy it into src/).  It",
        "uses only `core` (no std, no alloc, no crates), so it also works in a",
        "#![no_std] crate.",
        f"{mod}::tokens(data) iterates over the tokens; {mod}::scan(data, pos)",
        f"gives the one at pos; {mod}::decode(data, out, replacement) writes every",
        "code point (errors and reserved runs as the replacement) into out,",
        "which needs room for data.len() entries, and returns (written, errors);",
        f"{mod}::step(state, byte, &mut acc) is the bare automaton step.",
        "./run-tokens < FILE prints the tokens as `encspec tokens` does;",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ])
    return {
        f"{mod}.rs": render("rust/module.rs.j2", **ctx),
        "tokens.rs": render("rust/tokens.rs.j2", **ctx),
        "run-tokens": render("rust/run-tokens.j2", **ctx),
    }


register(Target(
    name="rust",
    describe="a no_std-compatible Rust module (tables, step, tokens, decode), a tokens demo and run-tokens",
    files=files,
    supports=common.int64_support("rust"),
    int_bits=64,
    executables=("run-tokens",),
))
