"""Stage 2: model → automaton, the plain data every emitter and analysis reads.

The automaton is a minimal DFA over byte classes whose transitions carry a digit
operation (``acc = acc * radix + byte - sub``) and whose accepting states carry
an action (which form, how the code point follows from ``acc``).  Longest match
with the last accepting state wins; a run that dies before accepting is an error
covering exactly the bytes read (Unicode's maximal subpart).  What a DFA cannot
hold — counted forms of unbounded length, signatures — is kept beside it as
data: ``extensions`` and ``signature``.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Optional

from ..spec.diagnostics import SpecError
from ..spec.model import Spec, evaluate, is_const
from . import dfa as _dfa
from .layout import Segment, positions, rules, segments

DEAD = _dfa.DEAD


@dataclass(frozen=True)
class Automaton:
    """Everything a backend needs, as plain values (see ``to_json`` for the layout)."""

    name: str
    title: str
    aliases: tuple[str, ...]
    source: str
    spec_file: str
    spec_sha256: str
    code_space: tuple[int, Optional[int]]
    holes: tuple[tuple[int, int], ...]
    skips: tuple[tuple[int, int], ...]
    signature: bytes
    reserved: tuple[int, ...]
    classes: tuple[int, ...]          # byte -> class
    next: tuple[tuple[int, ...], ...]  # state, class -> state | DEAD | n_states + extension
    ops: tuple[tuple[Optional[tuple[int, int]], ...], ...]  # state, class -> (radix, sub)
    accept: tuple[Optional[int], ...]  # state -> action index
    state_lines: tuple[tuple[int, ...], ...]
    actions: tuple[dict, ...]
    rows: tuple[Segment, ...]
    forms: dict                        # name -> {"line", "positions": [[[lo, hi], ...], ...]}
    extensions: tuple[dict, ...]
    claims: tuple[str, ...]
    pair_on_encode: bool = False  # encoders join lead + trail surrogate code points (WTF-8 6.1)
    profiles: tuple[dict, ...] = ()  # document profiles: {"name", "rules": [{severity, kind, ranges, message, line}]}
    row_patterns: tuple = ()  # per row: its byte patterns, each a tuple of positions of (lo, hi) runs

    def final(self, s: int) -> bool:
        """Accepting with no way on: a token that ends here ends at once."""
        return self.accept[s] is not None and all(t == DEAD for t in self.next[s])

    @property
    def n_states(self) -> int:
        return len(self.next)

    @property
    def n_classes(self) -> int:
        return max(self.classes) + 1

    @property
    def max_length(self) -> Optional[int]:
        return None if self.extensions else max(r.length for r in self.rows)

    @property
    def max_code_point(self) -> Optional[int]:
        return None if self.extensions else max(r.last for r in self.rows)

    def class_bytes(self) -> list[list[int]]:
        """The bytes of each class, in byte order."""
        out: list[list[int]] = [[] for _ in range(self.n_classes)]
        for b, c in enumerate(self.classes):
            out[c].append(b)
        return out

    def class_runs(self) -> list[tuple[int, int, int]]:
        """(first byte, last byte, class) for each run of equal classes."""
        runs = []
        for b, c in enumerate(self.classes):
            if runs and runs[-1][2] == c and runs[-1][1] == b - 1:
                runs[-1] = (runs[-1][0], b, c)
            else:
                runs.append((b, b, c))
        return runs

    def step(self, state: int, byte: int) -> int:
        return self.next[state][self.classes[byte]]

    def encode(self, cp: int) -> Optional[bytes]:
        """The bytes of *cp* by the first row that holds it (None if none does)."""
        for row in self.rows:
            if row.first <= cp <= row.last:
                return self._encode_row(row, cp)
        for ext in self.extensions:
            from .counted import encode_counted
            out = encode_counted(ext, cp)
            if out is not None:
                return out
        return None

    def _encode_row(self, row: Segment, cp: int) -> bytes:
        form = self.forms[row.form]
        if form["kind"] == "literal":
            return bytes(form["bytes"])
        if form["kind"] == "composite":
            sub = self.forms[form["sub"]]
            v = cp - 0x10000
            hi, lo = 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)
            return _digits_to_bytes(sub["positions"], hi - sub["at"]) + _digits_to_bytes(sub["positions"], lo - sub["at"])
        return _digits_to_bytes(form["positions"], cp - row.offset)


def _digits_to_bytes(pos, raw: int) -> bytes:
    out = []
    for runs in reversed(pos):
        radix = sum(hi - lo + 1 for lo, hi in runs)
        raw, d = divmod(raw, radix)
        for lo, hi in runs:
            if d <= hi - lo:
                out.append(lo + d)
                break
            d -= hi - lo + 1
    return bytes(reversed(out))


def _form_data(spec: Spec) -> dict:
    out = {}
    for f in spec.forms:
        entry = {"kind": f.kind, "line": f.loc.line}
        if f.kind == "linear":
            entry["positions"] = [list(d.runs) for d in positions(f)]
            entry["at"] = f.at or 0
        elif f.kind == "literal":
            entry["bytes"] = [d.runs[0][0] for d in positions(f)]
        elif f.kind == "composite":
            entry["sub"] = f.items[0].sub.form
        out[f.name] = entry
    return out


def compile_spec(spec: Spec) -> Automaton:
    """Build the automaton of a validated spec; SpecError for conflicts it reveals."""
    from .counted import extension_data

    rows = segments(spec)
    rule_list = rules(spec, rows)
    row_patterns = tuple(tuple(tuple(tuple((lo, hi) for lo, hi, _ in pos) for pos in pat) for pat in r.patterns)
                         for r in rule_list[:len(rows)])
    # actions are identified by what they compute, so forms that compute alike
    # share accepting states (UTF-8 then needs Höhrmann's handful of states)
    actions: list[dict] = []
    keys: list[tuple] = []
    rule_action = []
    for r in rule_list:
        if r.ext is not None:  # a counted form's prefix: it enters the extension, accepts nothing
            rule_action.append(None)
            continue
        key = tuple(sorted((k, v) for k, v in r.action.items() if k != "form"))
        if key not in keys:
            keys.append(key)
            actions.append({**dict(key), "forms": []})
        a = actions[keys.index(key)]
        if r.action["form"] not in a["forms"]:
            a["forms"].append(r.action["form"])
        rule_action.append(keys.index(key))
    for a in actions:
        a["form"] = a["forms"][0]
    if spec.reserved:
        actions.append({"kind": "reserved", "form": "reserved", "forms": ["reserved"]})
    extensions = [extension_data(spec, f) for f in spec.forms if f.kind == "counted"]
    ext_first = {k: set(e["first_bytes"]) for k, e in enumerate(extensions)}
    locs = {f.name: f.loc for f in spec.forms}
    locs.update({p.name: p.loc for p in spec.patterns})
    locs["reserved"] = spec.reserved_loc
    for k, f in enumerate(f for f in spec.forms if f.kind == "counted"):
        locs[("ext", k)] = f.loc
    machine = _dfa.build(rule_list, rule_action, actions, spec.reserved, ext_first, locs)
    classes, reps = _dfa.byte_classes(machine)
    nxt = tuple(tuple(row[b] for b in reps) for row in machine.next)
    ops = tuple(tuple(row[b] for b in reps) for row in machine.op)
    if not reps or all(t == DEAD for t in nxt[0]):
        raise SpecError("no byte can start a sequence", spec.forms[0].loc)
    if machine.accept[0] is not None:
        raise SpecError("a form accepts the empty byte sequence", spec.forms[0].loc)
    return Automaton(
        name=spec.name, title=spec.title, aliases=spec.aliases, source=spec.source,
        spec_file=spec.path, spec_sha256=spec.sha256,
        code_space=(spec.code_space.lo, spec.code_space.hi),
        holes=tuple((r.lo, r.hi) for r in spec.holes), skips=tuple((r.lo, r.hi) for r in spec.skips),
        signature=spec.signature, reserved=spec.reserved, classes=classes, next=nxt, ops=ops,
        accept=machine.accept, state_lines=machine.lines, actions=tuple(actions), rows=tuple(rows),
        forms=_form_data(spec), extensions=tuple(extensions), claims=tuple(c.name for c in spec.claims),
        pair_on_encode=any(p.combine for p in spec.patterns), row_patterns=row_patterns,
        profiles=tuple({"name": p.name, "line": p.loc.line,
                        "rules": [{"severity": r.severity, "kind": r.kind, "ranges": [list(x) for x in r.ranges],
                                   "message": r.message, "line": r.loc.line} for r in p.rules]}
                       for p in spec.profiles),
    )
