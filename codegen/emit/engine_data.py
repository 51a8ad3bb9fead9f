"""The spec's decoder constructs as neutral data for the exports' table-driven
decoder engines (C's source.c.j2, JavaScript's module.mjs.j2): what a spec
lacks is a neutral value (span 0, no restore byte, the identity permutation, no
signature rows), so one engine text reads every spec and no template needs a
per-construct switch."""
from __future__ import annotations

from ..automaton import Automaton
from ..spec.model import ERROR_SPANS


def decoder_data(a: Automaton, ctx: dict) -> None:
    """Adds to *ctx* (export_common.common_context's) the span policy's index in
    ERROR_SPANS ("span_index"), the restore set as 256 flags ("restore_flags"), the byte
    permutation ("real_bytes", the identity without one), the signatures packed
    into one array ("signature_rows": at, n, start, hex; "signature_bytes", never
    empty) and "permuted"."""
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
