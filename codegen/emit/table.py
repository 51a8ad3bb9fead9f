"""The canonical state-transition table as JSON (generated/tables/NAME.json).

Documented field by field in docs/pages/table-format.md; stable key order so diffs are readable.
"""
from __future__ import annotations

import json

from ..version import __version__
from ..automaton import Automaton
from ..automaton.actions import Pair, Reserved, Value
from ..automaton.counted import Extension
from ..automaton.forms import CompositeForm, DigitsForm, LiteralForm
from ..spec.expr import to_json


def _runs(runs) -> list:
    return [[lo, hi] for lo, hi in runs]


def _action(act) -> dict:
    out = {"form": act.form, "forms": list(act.forms), "kind": act.kind}
    if isinstance(act, Reserved):
        return out
    if isinstance(act, Value):
        out["value"] = act.value
    elif isinstance(act, Pair):
        out.update(combine=act.combine, offset=act.offset, split=act.split)
    elif act.kind == "error":
        out["reason"] = act.reason
    else:
        out["offset"] = act.offset
    return dict(sorted(out.items()))


def _form(f) -> dict:
    out = {"kind": f.kind, "line": f.line}
    if isinstance(f, DigitsForm):
        out.update(at=f.at, positions=[_runs(p) for p in f.positions],
                   order=None if f.order is None else list(f.order))
    elif isinstance(f, LiteralForm):
        out["bytes"] = list(f.bytes)
    elif isinstance(f, CompositeForm):
        out["sub"] = f.sub
    return dict(sorted(out.items()))


def _extension(e: Extension) -> dict:
    return {
        "first_bytes": list(e.first_bytes), "form": e.form,
        "items": [{"runs": _runs(i.runs), "radix": i.radix, "count": None if i.count is None else to_json(i.count),
                   "binds": i.binds, "field": i.field, "shortest": i.shortest, "line": i.line} for i in e.items],
        "line": e.line, "min": e.min, "offset": e.offset, "prefix_bytes": list(e.prefix_bytes),
        "range": [to_json(x) for x in e.range],
        "bit_range": {"shift": e.shift, "lo_exp": None if e.lo_exp is None else to_json(e.lo_exp),
                      "hi_exp": to_json(e.hi_exp), "min_exp": e.min_exp},
    }


def _profile(p) -> dict:
    return {"name": p.name, "line": p.line,
            "rules": [{"severity": r.severity, "kind": r.kind, "ranges": _runs(r.ranges), "message": r.message,
                       "line": r.line} for r in p.rules]}


def table(a: Automaton) -> dict:
    return {
        "generator": f"encspec {__version__}",
        "generated": "do not edit; regenerate with `encspec build`",
        "spec": {"name": a.name, "file": a.spec_file, "sha256": a.spec_sha256, "title": a.title,
                 "aliases": list(a.aliases), "source": a.source},
        "code_space": {"first": a.code_space[0], "last": a.code_space[1],
                       "ill_formed": [list(r) for r in a.holes], "skipped": [list(r) for r in a.skips]},
        "signature": a.signature.hex().upper(),
        "signatures": [{"bytes": sig.hex().upper(), "start": a.starts[k], "byte_order": a.byte_orders[k]}
                       for sig, k in a.signatures],
        "code_unit": {"bytes": a.unit, "byte_order": a.byte_orders[0]},
        "starts": list(a.starts),
        "reasons": {"invalid_start": a.reasons.invalid_start, "invalid_continuation": a.reasons.invalid_continuation,
                    "unexpected_end": a.reasons.unexpected_end, "truncated_unit": a.reasons.truncated_unit},
        "reserved_leads": [f"{b:02X}" for b in a.reserved],
        "byte_classes": [{"first": f"{lo:02X}", "last": f"{hi:02X}", "class": c} for lo, hi, c in a.class_runs()],
        "n_classes": a.n_classes,
        "n_states": a.n_states,
        "states": [
            {
                "state": s,
                "spec_lines": list(a.state_lines[s]),
                "accept": a.accept[s],
                "at_end": a.at_end[s] if a.at_end else None,
                "next": list(a.next[s]),
                "ops": [None if op is None else list(op) for op in a.ops[s]],
            }
            for s in range(a.n_states)
        ],
        "actions": [_action(act) for act in a.actions],
        "rows": [
            {"form": r.form, "spec_line": r.line, "length": r.length, "first": r.first, "last": r.last,
             "offset": r.offset, "raw_first": r.raw_lo, "raw_last": r.raw_hi}
            for r in a.rows
        ],
        "forms": {name: _form(f) for name, f in a.forms.items()},
        "extensions": [_extension(e) for e in a.extensions],
        "profiles": [_profile(p) for p in a.profiles],
    }


def table_source(a: Automaton) -> str:
    """JSON text with one state per line block: deterministic bytes for `build --check`."""
    return json.dumps(table(a), indent=1, ensure_ascii=False) + "\n"
