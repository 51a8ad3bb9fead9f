"""The `c` export target: include/encspec/NAME.h / NAME.c (C99, no allocation, no
dependencies), a tokens demo, run-tokens, and what makes it a package: a Makefile (static
library, `check` on the conformance vectors, `install` with PREFIX/DESTDIR), a pkg-config
file and a README.  The header sits where it installs, so every program (the package's
own, the README's example, an installed user's) includes it as <encspec/NAME.h>."""
from __future__ import annotations

from ..automaton import Automaton
from ..spec.diagnostics import SpecError
from ..spec.expressions import CHECKED, source
from . import c_encoder, c_string, description, package_tests, render
from . import export_common as common
from .engine_data import decoder_data
from .target import Target, refusal, register


def _expr(mod: str):
    return lambda expr, used: source(expr, "c", used, prefix=mod)


def _c_bytes(data: bytes) -> str:
    """A C string literal of arbitrary bytes: every byte as \\xHH, so none can extend an escape."""
    return '"' + "".join(f"\\x{b:02X}" for b in data) + '"'


def _pc_value(text: str) -> str:
    """A pkg-config value that says *text*: one line, and no `#` (a comment there) or `${`
    (a variable): those and unprintable characters as [U+XXXX]."""
    text = "".join(c if c.isprintable() and c != "#" else f"[U+{ord(c):04X}]" for c in text)
    return text.replace("${", "$[U+007B]")


def _vectors(a: Automaton, computed: str | None) -> tuple[str, list[dict], int]:
    """The conformance vectors as check.c states them (expected counts computed here)."""
    origin, cases = package_tests.vectors(a, computed=computed)
    out = []
    for case in cases:
        toks = case["tokens"]
        out.append({"note": case["note"], "data": case["data"], "data_c": _c_bytes(case["data"]),
                    "text": package_tests.token_text(toks),
                    "decoded": sum(k not in ("signature", "shift") for k, _, _, _ in toks),
                    # errors, reserved runs and WIDE tokens (chars beyond 64 bits) are replaced
                    "errors": sum(k in ("error", "reserved") or (k == "char" and v >> 64 != 0)
                                  for k, _, _, v in toks)})
    return origin, out, max((len(c["data"]) for c in cases), default=0)


def check_ops(a: Automaton, lang: str) -> None:
    """Digit operations in 64 bits: a radix below 2**32, a weight of at least 1
    (one of 2**64 or more is held as 0: a nonzero digit times it is beyond 64
    bits, a WIDE value, rebuilt from weight_bytes; see weight_context)."""
    for row in a.ops:
        for op in row:
            if op is not None and not (0 <= op[0] < 1 << 32 and op[2] >= 1):
                raise SpecError(f"the {lang} target needs digit operations with a radix "
                                "below 2**32 and a weight of at least 1", None, a.spec_file)


def weight_context(ctx: dict) -> None:
    """Adds to each op row of common_context "weight64" (the weight, or 0 for one
    of 2**64 or more) and, when there is such a weight ("huge_weights"), the
    weights as big-endian bytes ("weight_bytes", "weight_len" bytes each) for
    the WIDE value writer."""
    top = max(op["weight"] for op in ctx["ops"])
    ctx["huge_weights"] = top >= 1 << 64
    ctx["weight_len"] = (top.bit_length() + 7) // 8
    for op in ctx["ops"]:
        op["weight64"] = op["weight"] if op["weight"] < 1 << 64 else 0
        op["weight_bytes"] = list(op["weight"].to_bytes(ctx["weight_len"], "big"))


def _hex_lines(values, per_line: int = 16, first: int | None = None, rust: bool = False) -> list[str]:
    """C/Rust array lines of hex numbers, *per_line* to a line (with the first pointer
    of each line in a comment when *first* is given)."""
    out = []
    for k in range(0, len(values), per_line):
        line = ", ".join(f"0x{v:X}" for v in values[k:k + per_line]) + ","
        if first is not None:
            line += f"  // {first + k}" if rust else f"  /* {first + k} */"
        out.append(line)
    return out


def table_context(ctx: dict, a: Automaton, rust: bool = False) -> None:
    """Adds the C (or Rust) text of the mapping tables to *ctx*: per table its lines
    (c_lines, or c_starts/c_firsts/c_lasts for a ranges table), the restore set's test
    (restore_c, on a byte b) and its text."""
    for t in ctx["tables"]:
        if t["ranges"]:
            t["c_starts"] = _hex_lines(t["starts"], 8)
            t["c_firsts"] = _hex_lines(t["firsts"], 8)
            t["c_lasts"] = _hex_lines(t["lasts"], 8)
        else:
            t["c_lines"] = _hex_lines(t["values"], 16, t["base"], rust)
    ctx["restore_c"] = common.restore_test(a, "b", "rust" if rust else "c")
    ctx["restore_text"] = common.restore_text(a)


def engine_context(ctx: dict, a: Automaton) -> None:
    """The spec's constructs as data for the one decoder engine (source.c.j2), so
    that a construct the spec lacks is a neutral value, not a template switch:
    engine_data.decoder_data's, flags the C compiler folds ("flags": name -> 0/1),
    and the reasons every spec defines."""
    decoder_data(a, ctx)
    ctx["flags"] = {"WEIGHTED": int(ctx["weighted"]), "WIDE_DFA": int(ctx["wide_dfa"]), "HUGE_WEIGHTS": int(ctx["huge_weights"]),
                    "PERMUTED": int(a.permutation is not None)}
    ctx["wide_buffer"] = ctx["wide_bytes"] or 1
    for act in ctx["actions"]:  # one row shape: offset (CHAR, PAIR), code point (VALUE) or table (LOOKUP)
        act["number"] = {"value": act["value"], "lookup": act["table"]}.get(act["kind"], act["offset"])
        act["c_reason"] = f"{ctx['mod']}_reason_reserved" if act["kind"] == "reserved" else \
            c_string(act["reason"]) if act["reason"] else "0"  # an error's; a shift's right after a shift


def supports(lang: str):
    """C and Rust's declared support: export_common's 64-bit checks, and check_ops."""
    base = common.int64_support(lang)
    ops = refusal(lambda a: check_ops(a, lang))
    return lambda a: base(a) or ops(a)


def _encode_vectors(a: Automaton, computed: str | None) -> tuple[str, list[dict]]:
    """The encode vectors as check_encode.c states them: code points, the strict
    bytes or error, the replace bytes (None: "?" has no bytes).  Cases with a code
    point of a counted run are left out (the exported encoder's error there is
    COUNTED_REASON, the Python module's bytes)."""
    origin, cases = package_tests.encode_cases(a, computed)
    e = description.encoder(a)
    out = []
    for case in cases:
        cps = case["code_points"]
        if e.past_engines(cps):
            continue
        strict = case["strict"]
        out.append({"note": case["note"], "cps": cps,
                    "bytes": None if "bytes" not in strict else _c_bytes(strict["bytes"]),
                    "n_bytes": len(strict.get("bytes", b"")),
                    "error": strict.get("error"),
                    "replace": None if case["replace"] is None else _c_bytes(case["replace"]),
                    "n_replace": len(case["replace"] or b"")})
    return origin, out


def files(a: Automaton, vectors: str | None = None, spec_arg: str | None = None,
          encode_vectors: str | None = None, encoder: bool = True) -> dict[str, str]:
    """The package's files; *encoder* False: the decoder alone (the native extension's
    source, which encodes on its own)."""
    common.check_char_offsets(a, "c")
    common.check_pairs(a, "c")
    common.check_accumulator(a, "c")
    check_ops(a, "c")
    ctx = common.common_context(a)
    mod, MOD = ctx["mod"], ctx["MOD"]
    ctx["pkg"] = "encspec-" + mod.replace("_", "-")
    ctx["regenerate"] = common.regenerate_command(a, "c", spec_arg)
    ctx["header_path"] = f"include/encspec/{mod}.h"
    ctx["pc_description"] = _pc_value(f"Decoder for {ctx['title']}, generated by encspec")
    ctx["vectors_source"], ctx["vectors"], ctx["max_len"] = _vectors(a, vectors)
    w = common.width_context(a)
    ctx.update(w)
    ctx["cp_type"] = f"uint{w['cp_bits']}_t"
    ctx["state_type"] = f"uint{w['state_bits']}_t"
    ctx["accept_type"] = "int16_t" if len(a.actions) >= 127 else "int8_t"
    weight_context(ctx)
    if len(ctx["ops"]) == 1:
        # an unused second operation: with one, gcc -O2's -Warray-bounds flags the step's
        # (dead) ops[k] for k > 0 (an automaton with no digits: whatwg-replacement's)
        ctx["ops"].append({**ctx["ops"][0], "comment": "unused"})
    ctx["radix_type"] = "uint16_t" if max(op["radix"] for op in ctx["ops"]) <= 0xFFFF else "uint32_t"
    common.check_several(a, "c")
    table_context(ctx, a)
    engine_context(ctx, a)
    plans, used = common.plans_context(a, "c", _expr(mod))
    ctx["plans"] = plans
    ctx["x_ops"] = sorted(CHECKED[op] for op in used)
    limits = common.wide_limits(a, w, f"{ctx['cp_type']} ({mod}_cp)", {
        "wide": f"{MOD}_WIDE", "bits": "tok.bits", "value": f"{mod}_wide_value(data, len, &tok, out)",
        "decode": f"{mod}_decode", "reason": f"{MOD}_REASON_LIMIT",
        "limit": f"set the global {mod}_counted_limit"})
    ctx["header"] = common.header_lines(a, "c", limits, [
        f"A package ({ctx['pkg']}): `make` builds lib{ctx['pkg']}.a, `make check` runs",
        "the conformance vectors, `make install PREFIX=... [DESTDIR=...]` installs",
        f"the header (as include/encspec/{mod}.h), the library and {ctx['pkg']}.pc",
        f"(pkg-config).  Or compile {mod}.c with any C99 compiler and -I include.",
        f"Either way: #include <encspec/{mod}.h>.",
        f"{mod}_next(data, len, &pos, &tok) walks the tokens (pos = 0 first);",
        f"{mod}_wide_value(data, len, &tok, out) writes a WIDE (or CHAR) token's",
        "code point big-endian into out, (tok.bits + 7) / 8 bytes for a WIDE one;",
        f"{mod}_decode(data, len, out, replacement, &errors) writes every code point",
        "(errors, reserved runs and WIDE tokens as the replacement) into out, which",
        "needs room for len entries; the signature is skipped.",
        f"{mod}_step(state, byte, &acc) is the bare automaton step (Hoehrmann style).",
        "./run-tokens < FILE prints the tokens as `encspec tokens` does;",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ], ctx["regenerate"])
    ctx["encoder"] = encoder
    ctx.update(common.readme_context(a, "C", ctx["pkg"], spec_arg))
    ctx["example"] = render("c/decode.c.j2", **ctx).rstrip("\n")
    if not encoder:
        return {ctx["header_path"]: render("c/header.h.j2", **ctx), f"{mod}.c": render("c/source.c.j2", **ctx)}
    ctx.update(c_encoder.context(a))
    # the decoder's token is one code point (a table entry may stand for several)
    ctx["enc_single"] = "tok.n_values == 1" if ctx["several"] else "1"
    ctx["encode_source"], ctx["encode_vectors"] = _encode_vectors(a, encode_vectors)
    ctx["encode_example"] = render("c/encode_example.c.j2", **ctx).rstrip("\n")
    return {
        ctx["header_path"]: render("c/header.h.j2", **ctx),
        f"{mod}.c": render("c/source.c.j2", **ctx) + render("c/encode.c.j2", **ctx),
        "tokens.c": render("c/tokens.c.j2", **ctx),
        "run-tokens": render("c/run-tokens.j2", **ctx),
        "check.c": render("c/check.c.j2", **ctx),
        "check_encode.c": render("c/check_encode.c.j2", **ctx),
        "run_encode.c": render("c/run_encode.c.j2", **ctx),
        "run-encode": render("c/run-encode.j2", **ctx),
        "Makefile": render("c/Makefile.j2", **ctx),
        f"{ctx['pkg']}.pc.in": render("c/pc.in.j2", **ctx),
        "README.md": render("c/README.md.j2", **ctx),
    }


register(Target(
    name="c",
    describe="C99 tables, a step function and a token decoder (include/encspec/NAME.h, NAME.c), a tokens demo, "
             "run-tokens, a Makefile (library, check, install), a pkg-config file and a README",
    files=files,
    supports=supports("c"),
    int_bits=64,
    executables=("run-tokens", "run-encode"),
    options=("vectors", "spec_arg", "encode_vectors"),
    permutes=True,  # every byte read goes through NAME_from_real (source.c.j2's rd)
    undecodable=True,  # its automaton makes any input one error; the encoder skips verifying
    modes=True,  # _next carries the mode in the token (after); the encoder's modes (c_encoder, mode_choice)
    digits=True,  # the decoder reads a run of digits beside the automaton, the encoder writes one (description.digit_run)
))
