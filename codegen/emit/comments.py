"""The comments every target writes beside its tables, pointing back to spec lines.

One wording for all targets, so a state or an action reads the same in the
Python module, the C header and the Java class.
"""
from __future__ import annotations

from ..automaton import Automaton
from ..automaton.actions import Lookup, Pair, Reserved, Value
from ..automaton.forms import DigitsForm


def state_comment(a: Automaton, s: int) -> str:
    """'state 3: accepts char (forms 1, 2); spec lines 19, 20'."""
    parts = []
    if s == 0:
        parts.append("start")
    acc = a.accept[s]
    if acc is not None:
        act = a.actions[acc]
        parts.append(f"accepts {act.kind} ({', '.join(act.forms)})" + (", final" if a.final(s) else ""))
    lines = a.state_lines[s]
    if lines:
        parts.append(f"spec line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}")
    return f"state {s}: " + ("; ".join(parts) if parts else "(continues)")


def action_comment(act) -> str:
    """What an action computes, and which forms (or pattern) it comes from."""
    forms = ", ".join(act.forms)
    if isinstance(act, Reserved):
        return "reserved run"
    if act.kind == "error":
        return f"ill-formed pattern {act.form}: {act.reason}"
    if act.kind == "shift":
        after = f" ({act.reason})" if act.reason else ""
        return f"shift{'s' if len(act.forms) > 1 else ''} {forms}: the next token in mode {act.mode}{after}"
    if isinstance(act, Value):
        values = act.value if isinstance(act.value, tuple) else (act.value,)
        return f"form {forms}: the fixed value {' '.join(f'U+{v:04X}' for v in values)}"
    if isinstance(act, Pair):
        return (f"form {forms}: a surrogate pair, hi = acc / {act.split} + {act.offset}, "
                f"lo = acc % {act.split} + {act.offset}")
    if isinstance(act, Lookup):
        return f"form{'s' if len(act.forms) > 1 else ''} {forms}: code point = table {act.table} at pointer acc"
    return f"form{'s' if len(act.forms) > 1 else ''} {forms}: code point = acc + {act.offset}"


def row_comment(a: Automaton, row) -> str:
    """'U+0800..U+FFFF: form 3, offset 0 (spec line 14)'."""
    span = f"U+{row.first:04X}..U+{row.last:04X}"
    if not isinstance(a.forms[row.form], DigitsForm):
        return f"{span}: form {row.form} (spec line {row.line})"
    return f"{span}: form {row.form}, offset {row.offset} (spec line {row.line})"
