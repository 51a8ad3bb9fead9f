"""The canonical state-transition table as JSON (generated/tables/NAME.json).

Documented field by field in the README; stable key order so diffs are readable.
"""
from __future__ import annotations

import json

from .. import __version__
from ..automaton import Automaton
from ..automaton.counted import _json_expr  # noqa: F401  (expressions are already JSON lists)


def table(a: Automaton) -> dict:
    return {
        "generator": f"encspec {__version__}",
        "generated": "do not edit; regenerate with `encspec build`",
        "spec": {"name": a.name, "file": a.spec_file, "sha256": a.spec_sha256, "title": a.title,
                 "aliases": list(a.aliases), "source": a.source},
        "code_space": {"first": a.code_space[0], "last": a.code_space[1],
                       "ill_formed": [list(r) for r in a.holes], "skipped": [list(r) for r in a.skips]},
        "signature": a.signature.hex().upper(),
        "reserved_leads": [f"{b:02X}" for b in a.reserved],
        "byte_classes": [{"first": f"{lo:02X}", "last": f"{hi:02X}", "class": c} for lo, hi, c in a.class_runs()],
        "n_classes": a.n_classes,
        "n_states": a.n_states,
        "states": [
            {
                "state": s,
                "spec_lines": list(a.state_lines[s]),
                "accept": a.accept[s],
                "next": list(a.next[s]),
                "ops": [None if op is None else list(op) for op in a.ops[s]],
            }
            for s in range(a.n_states)
        ],
        "actions": [dict(sorted(act.items())) for act in a.actions],
        "rows": [
            {"form": r.form, "spec_line": r.line, "length": r.length, "first": r.first, "last": r.last,
             "offset": r.offset, "raw_first": r.raw_lo, "raw_last": r.raw_hi}
            for r in a.rows
        ],
        "forms": {name: dict(sorted(f.items())) for name, f in a.forms.items()},
        "extensions": [dict(sorted(e.items())) for e in a.extensions],
        "profiles": list(a.profiles),
    }


def table_source(a: Automaton) -> str:
    """JSON text with one state per line block: deterministic bytes for `build --check`."""
    return json.dumps(table(a), indent=1, ensure_ascii=False) + "\n"
