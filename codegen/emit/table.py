"""The canonical state-transition table as JSON (generated/tables/NAME.json).

Documented field by field in docs/pages/table-format.md; stable key order so diffs are readable.
"""
from __future__ import annotations

import json

from ..automaton import Automaton
from ..automaton.actions import Lookup, Pair, Reserved, Shift, Value
from ..automaton.counted import Extension
from ..automaton.forms import CompositeForm, DigitsForm, LiteralForm, TableForm
from ..automaton.mapping import NONE
from ..runtime.tables import row_bytes
from ..spec.expr import to_json
from ..version import __version__


def _runs(runs) -> list:
    return [[lo, hi] for lo, hi in runs]


def _action(act) -> dict:
    out = {"form": act.form, "forms": list(act.forms), "kind": act.kind}
    if isinstance(act, Reserved):
        return out
    if getattr(act, "then", None) is not None:  # a character that ends its mode (`-> MODE`)
        out["then"] = act.then
    if isinstance(act, Shift):
        out.update(mode=act.mode, reason=act.reason)
    elif isinstance(act, Value):
        out["value"] = act.value
    elif isinstance(act, Pair):
        out.update(combine=act.combine, offset=act.offset, split=act.split)
    elif act.kind == "error":
        out["reason"] = act.reason
    elif isinstance(act, Lookup):
        out["table"] = act.table
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
    elif isinstance(f, TableForm):
        out.update(table=f.table, positions=[_runs(p) for p in f.positions],
                   order=None if f.order is None else list(f.order))
    return dict(sorted(out.items()))


_PACKED = "\u0000packed:{}\u0000"  # a placeholder for a long list written 16 numbers to a line


def _table(t, packed: list) -> dict:
    out = {"name": t.name, "line": t.line, "source": t.source, "sha256": t.sha256,
           "kind": "ranges" if t.ranges else "index", "decode_only": [list(r) for r in t.decode_only]}
    if t.ranges:
        out["overrides"] = [[p, v] for p, v in t.overrides]
        out["runs"] = [{"first_pointer": a, "last_pointer": b, "first_code_point": c} for a, b, c in t.entries()]
    else:
        packed.append([None if v == NONE else v for v in t.values])
        out.update(base=t.base, code_points=_PACKED.format(len(packed) - 1),
                   overrides=[[p, list(cps)] for p, cps in t.overrides])
    return out


def _unpack(text: str, packed: list) -> str:
    for k, values in enumerate(packed):
        lines = [", ".join(json.dumps(v) for v in values[i:i + 16]) for i in range(0, len(values), 16)]
        text = text.replace(json.dumps(_PACKED.format(k)), "[\n   " + ",\n   ".join(lines) + "\n  ]")
    return text


def _extension(e: Extension) -> dict:
    return {
        "first_bytes": list(e.first_bytes), "form": e.form,
        "items": [{"runs": _runs(i.runs), "radix": i.radix, "count": None if i.count is None else to_json(i.count),
                   "binds": i.binds, "field": i.field, "shortest": i.shortest, "line": i.line} for i in e.items],
        "line": e.line, "min": e.min, "offset": e.offset, "prefix_bytes": list(e.prefix_bytes),
        "range": [to_json(x) for x in e.range],
        "bit_range": {"shift": e.shift, "lo_exp": None if e.lo_exp is None else to_json(e.lo_exp),
                      "hi_exp": None if e.hi_exp is None else to_json(e.hi_exp), "min_exp": e.min_exp},
    }


def _profile(p) -> dict:
    return {"name": p.name, "line": p.line,
            "rules": [{"severity": r.severity, "kind": r.kind, "ranges": _runs(r.ranges), "message": r.message,
                       "line": r.line} for r in p.rules]}


def table(a: Automaton, packed: list | None = None) -> dict:
    """The JSON document; an index's code points go into *packed* (placeholders in the text)."""
    packed = [] if packed is None else packed
    return {
        "generator": f"encspec {__version__}",
        "generated": "do not edit; regenerate with `encspec build`",
        "spec": {"name": a.name, "file": a.spec_file, "sha256": a.spec_sha256, "title": a.title,
                 "aliases": list(a.aliases), "source": a.source,
                 # the decoder reads no form (its DFA accepts nothing): the rows are the encoder's
                 **({"undecodable": True} if a.undecodable else {})},
        "code_space": {"first": a.code_space[0], "last": a.code_space[1],
                       "ill_formed": [list(r) for r in a.holes], "skipped": [list(r) for r in a.skips]},
        "signature": a.signature.hex().upper(),
        "signatures": [{"bytes": sig.hex().upper(), "start": a.starts[k], "byte_order": a.byte_orders[k]}
                       for sig, k in a.signatures],
        "code_unit": {"bytes": a.unit, "byte_order": a.byte_orders[0]},
        "starts": list(a.starts),
        "reasons": {"invalid_start": a.reasons.invalid_start, "invalid_continuation": a.reasons.invalid_continuation,
                    "unexpected_end": a.reasons.unexpected_end, "truncated_unit": a.reasons.truncated_unit,
                    "unmapped": a.reasons.unmapped, "unencodable": a.reasons.unencodable},
        "error_span": {"kind": a.error_span, "restore": _runs(a.restore)},
        "permutation": None if a.permutation is None else a.permutation.hex(" ").upper(),
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
             "offset": r.offset, "raw_first": r.raw_lo, "raw_last": r.raw_hi,
             "first_bytes": row_bytes(a, r, r.first).hex(" ").upper(),
             "last_bytes": row_bytes(a, r, r.last).hex(" ").upper()}
            for r in a.rows
        ],
        "forms": {name: _form(f) for name, f in a.forms.items()},
        "extensions": [_extension(e) for e in a.extensions],
        "profiles": [_profile(p) for p in a.profiles],
        "tables": [_table(t, packed) for t in a.tables],
        "encode_only": [{"code_point": cp, "bytes": None if b is None else b.hex().upper()} for cp, b in a.encode_only],
        "sequences": [{"code_points": list(cps), "bytes": bytes(b).hex().upper()} for cps, b in a.sequences],
        # only a spec with modes lists them (a table stays as it was)
        **({"modes": _modes(a)} if a.modes else {}),
        **({"digit_run": _digit_run(a)} if a.digit_run is not None else {}),
    }


def _digit_run(a: Automaton) -> dict:
    """The run of digits (`run`, UTF-7's base64), read beside the DFA (table-format.md)."""
    r = a.digit_run
    assert r is not None
    return {"name": r.name, "opener": f"{r.opener:02X}", "digits": r.digits.hex(" ").upper(), "bits": r.bits,
            "unit_bits": r.unit_bits, "end": None if r.end is None else f"{r.end:02X}", "surrogate_pairs": r.pairs,
            "encode_direct": [[lo, hi] for lo, hi in r.direct], "reasons": list(a.digit_reasons)}


def _modes(a: Automaton) -> dict:
    """Each mode's start states and encoder, and the encoder's choice (table-format.md)."""
    return {
        "list": [{"name": m.name, "start": m.start, "after_shift": m.after_shift,
                  "shifts": [None if p is None else p.hex(" ").upper() for p in m.shifts],
                  "rows": [{"form": r.form, "first": r.first, "last": r.last,
                            "first_bytes": row_bytes(m.part, r, r.first).hex(" ").upper()}
                           for r in m.part.encoding_rows() if r.form not in m.leaving],
                  "table_forms": [f.name for f in m.part.table_forms() if f.name not in m.leaving],
                  "unencodable": None if m.unencodable is None else a.modes[m.unencodable].name,
                  "encode_only": [{"code_point": cp, "bytes": None if b is None else b.hex().upper()}
                                  for cp, b in m.part.encode_only]}
                 for m in a.modes],
        "encode": [a.modes[k].name for k in a.encode_modes],
        "sticky": a.sticky,
        "cheapest": a.cheapest,
        "end": [a.modes[k].name for k in a.encode_end],
    }


def table_source(a: Automaton) -> str:
    """JSON text with one state per line block: deterministic bytes for `build --check`."""
    packed: list = []
    text = json.dumps(table(a, packed), indent=1, ensure_ascii=False) + "\n"
    return _unpack(text, packed)
