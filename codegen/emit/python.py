"""The Python backend: a self-contained codec module per spec."""
from __future__ import annotations

from ..automaton import DEAD, Automaton
from ..spec.model import render as render_expr
from . import render
from .python_fast import fast_path




def _hex(v: int) -> str:
    return f"-0x{-v:02X}" if v < 0 else f"0x{v:02X}"


def _py_expr(expr) -> str:
    """An expression of the spec as a Python lambda over the environment dict ``e``."""
    return f"lambda e: {render_expr(_conv(expr))}"


def _count_solver(expr) -> str:
    """For a field's count ``var + c``: a function giving {var: digits - c} for encoding."""
    from ..automaton.counted import _solve
    solved = _solve(expr, 0)
    if solved is None:
        return _py_expr(expr)
    name, minus_c = solved
    return f'lambda e, digits=None: ({{"{name}": digits + ({minus_c})}} if e is None else {render_expr(_conv(expr))})'


def _conv(x):
    """Variables become lookups in the environment dict ``e``."""
    if x[0] == "int":
        return ("int", x[1])
    if x[0] == "var":
        return ("var", f'e["{x[1]}"]')
    return (x[0], _conv(x[1]), _conv(x[2]))


def state_comment(a: Automaton, s: int) -> str:
    if s == 0:
        return "state 0: start"
    lines = a.state_lines[s]
    where = f"spec line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}" if lines else ""
    acc = a.accept[s]
    what = ""
    if acc is not None:
        act = a.actions[acc]
        what = f"accepts {act['kind']} ({', '.join(act['forms'])})"
    return f"state {s}: " + "; ".join(x for x in (what, where) if x)


def action_tuple(act: dict) -> tuple[str, str]:
    if act["kind"] == "reserved":
        return '("reserved",)', "reserved run"
    if act["kind"] == "error":
        return f'("error", {act["reason"]!r})', f"ill-formed pattern {act['form']}"
    forms = ", ".join(act["forms"])
    if "value" in act:
        return f'("value", 0x{act["value"]:04X})', f"special sequence, form {forms}"
    if act.get("combine") == "surrogate-pair":
        return f'("pair", {act["split"]}, {act["offset"]})', f"surrogate pair, form {forms}"
    return f'("char", {act["offset"]})', f"form {forms}: code point = acc + {act['offset']}"


def row_tuple(a: Automaton, row) -> tuple[str, str]:
    form = a.forms[row.form]
    span = f"U+{row.first:04X}..U+{row.last:04X}"
    if form["kind"] == "literal":
        data = repr(bytes(form["bytes"]))
        return f'(0x{row.first:X}, 0x{row.last:X}, "literal", {data})', f"{span}: form {row.form} (spec line {row.line})"
    if form["kind"] == "composite":
        sub = a.forms[form["sub"]]
        pos = tuple(tuple(tuple(r) for r in runs) for runs in sub["positions"])
        return (f'(0x{row.first:X}, 0x{row.last:X}, "pair", ({sub["at"]}, {pos!r}))',
                f"{span}: form {row.form} (spec line {row.line})")
    pos = tuple(tuple(tuple(r) for r in runs) for runs in form["positions"])
    return (f'(0x{row.first:X}, 0x{row.last:X}, "digits", ({row.offset}, {pos!r}))',
            f"{span}: form {row.form}, offset {row.offset} (spec line {row.line})")


def module_source(a: Automaton) -> str:
    """The generated module's text: deterministic, so `build --check` can compare bytes."""
    states = []
    for s in range(a.n_states):
        states.append({
            "next": [str(t) for t in a.next[s]],
            "ops": ["None" if op is None else f"({op[0]}, {_hex(op[1])})" for op in a.ops[s]],
            "accept": "None" if a.accept[s] is None else str(a.accept[s]),
            "final": str(a.accept[s] is not None and all(t == DEAD for t in a.next[s])),
            "comment": state_comment(a, s),
        })
    actions = [dict(zip(("tuple", "comment"), action_tuple(act))) for act in a.actions]
    rows = [dict(zip(("tuple", "comment"), row_tuple(a, r))) for r in a.rows]
    extensions = []
    for e in a.extensions:
        items = []
        for it in e["items"]:
            runs = tuple(tuple(r) for r in it["runs"])
            count = "None" if it["count"] is None else (
                _count_solver(it["count"]) if it["field"] else _py_expr(it["count"]))
            items.append({"runs": repr(runs), "radix": it["radix"], "count": count, "binds": repr(it["binds"]),
                          "field": repr(it["field"]), "shortest": it["shortest"], "line": it["line"]})
        extensions.append({"form": e["form"], "line": e["line"], "prefix_bytes": repr(bytes(e["prefix_bytes"])),
                           "items": items, "min": e["min"], "offset": e["offset"],
                           "range_lo": _py_expr(e["range"][0]), "range_hi": _py_expr(e["range"][1])})
    return render(
        "python/module.py.j2",
        name=a.name, title=a.title, aliases=repr(tuple(a.aliases)), spec_file=a.spec_file, sha256=a.spec_sha256,
        signature=repr(a.signature), reserved=repr(tuple(a.reserved)),
        max_code_point=repr(a.max_code_point), pair_on_encode=a.pair_on_encode,
        profiles=[{"name": p["name"], "line": p["line"],
                   "rules": [{**r, "ranges": repr(tuple(tuple(x) for x in r["ranges"]))} for r in p["rules"]]}
                  for p in a.profiles],
        fast=fast_path(a), class_runs=a.class_runs(), n_classes=a.n_classes, n_states=a.n_states,
        states=states, actions=actions, rows=rows, extensions=extensions,
    )
