"""The spec's decoder constructs as neutral data for the exports' table-driven
decoder engines (C's source.c.j2, JavaScript's module.mjs.j2): what a spec
lacks is a neutral value (span 0, no restore byte, the identity permutation, no
signature rows), so one engine text reads every spec and no template needs a
per-construct switch."""
from __future__ import annotations

from ..automaton import Automaton
from ..spec.model import ERROR_SPANS
from .description import digit_run


def decoder_data(a: Automaton, ctx: dict) -> None:
    """Adds to *ctx* (export_common.common_context's) the span policy's index in
    ERROR_SPANS ("span_index"), the restore set as 256 flags ("restore_flags"), the byte
    permutation ("real_bytes", the identity without one), the signatures packed
    into one array ("signature_rows": at, n, start, hex; "signature_bytes", never
    empty), "permuted", and the modes (mode_data)."""
    ctx["span_index"] = ERROR_SPANS.index(a.error_span)
    restore = [0] * 256
    for lo, hi in a.restore:
        restore[lo:hi + 1] = [1] * (hi - lo + 1)
    ctx["restore_flags"] = restore
    ctx["permuted"] = a.permutation is not None
    ctx["real_bytes"] = ctx["from_real"] or list(range(256))
    sig_bytes: list[int] = []
    ctx["signature_rows"] = []
    for sig in ctx["signatures"]:
        ctx["signature_rows"].append({"at": len(sig_bytes), "n": len(sig["bytes"]), "start": sig["start"],
                                      "hex": sig["hex"]})
        sig_bytes += sig["bytes"]
    ctx["signature_bytes"] = sig_bytes or [0]
    mode_data(a, ctx)
    ctx["run"] = digit_run(a)


def mode_data(a: Automaton, ctx: dict) -> None:
    """Adds to *ctx* the modes as the engines' start-state data (issue 31), neutral for a
    spec without modes: "mode_rows" (name, start state, its twin's or -1; one row,
    "default", 0, without),
    "start_states" (every state a token may start in: the byte orders', the modes' and
    their twins'), "base" (per state, the start the token after an ordinary token starts
    in: a twin's mode's start, else the state itself) and, per action, "then_state" (the
    start state the next token starts in after it: a shift's mode, or its twin where a
    shift right after a shift is an error; a `-> MODE` character's mode; -1: base)."""
    base = list(range(a.n_states))
    for m in a.modes:
        if m.after_shift is not None:
            base[m.after_shift] = m.start
    ctx["base"] = base
    ctx["mode_rows"] = [{"name": m.name, "start": m.start, "twin": -1 if m.after_shift is None else m.after_shift}
                        for m in a.modes] or [{"name": "default", "start": 0, "twin": -1}]
    ctx["start_states"] = sorted({*a.starts, *(m.start for m in a.modes),
                                  *(m.after_shift for m in a.modes if m.after_shift is not None)})
    for act in ctx["actions"]:
        k = act["then"]
        if k < 0:
            act["then_state"] = -1
        elif act["kind"] == "shift" and a.modes[k].after_shift is not None:
            act["then_state"] = a.modes[k].after_shift
        else:
            act["then_state"] = a.modes[k].start
