"""Byte patterns → a minimal deterministic automaton over byte classes.

Subset construction over the 256 byte values, Moore minimisation, then byte
classes (bytes that behave alike in every state), as in Höhrmann's UTF-8 DFA.
A transition carries the digit operation that accumulates the raw value; two
patterns that share a prefix must agree on it, or the spec is rejected.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Optional

from ..spec.diagnostics import SpecError
from .layout import Rule

DEAD = -1


@dataclass
class _Nfa:
    arcs: list  # per state: list of (lo, hi, op, target, rule index)
    final: list  # per state: rule index or None
    ext: list  # per state: extension index entered on the extension's first bytes
    rule: list  # per final state: the rule whose pattern ends there (for messages)

    def new(self) -> int:
        self.arcs.append([])
        self.final.append(None)
        self.ext.append(None)
        self.rule.append(None)
        return len(self.arcs) - 1


@dataclass(frozen=True)
class Dfa:
    """A minimal DFA on raw bytes: next[state][byte], op[state][byte], accept[state]."""

    next: tuple[tuple[int, ...], ...]  # DEAD, a state, or n_states + k for extension k
    op: tuple[tuple[Optional[tuple[int, int]], ...], ...]
    accept: tuple[Optional[int], ...]  # index into the action list
    lines: tuple[tuple[int, ...], ...]  # spec lines of the rules passing through each state


def _hex(path: bytes) -> str:
    return " ".join(f"{b:02X}" for b in path)


def build(rules: list[Rule], rule_action: list[int], actions: list[dict], reserved: tuple[int, ...],
          ext_first: dict[int, set[int]], locs: dict[str, object]) -> Dfa:
    """The minimal DFA of *rules*; accept[state] indexes *actions* (the last is 'reserved')."""
    nfa = _Nfa([], [], [], [])
    start = nfa.new()
    for r_index, rule in enumerate(rules):
        for pattern in rule.patterns:
            state = start
            for position in pattern:
                nxt = nfa.new()
                for lo, hi, op in position:
                    nfa.arcs[state].append((lo, hi, op, nxt, r_index))
                state = nxt
            if rule.ext is not None:
                nfa.ext[state] = rule.ext
            else:
                nfa.final[state] = rule_action[r_index]
                nfa.rule[state] = r_index

    def rule_name(r):
        return rules[r].action["form"] if r is not None and r < len(rules) else "reserved"

    def rule_line(r):
        return rules[r].line if r < len(rules) else getattr(locs.get("reserved"), "line", 0)

    starters = {b for lo, hi, _, _, _ in nfa.arcs[start] for b in range(lo, hi + 1)}
    reserved_rule = None
    if reserved:
        clash = starters & set(reserved)
        if clash:
            b = min(clash)
            r = next(r for lo, hi, _, _, r in nfa.arcs[start] if lo <= b <= hi)
            raise SpecError(f"reserved lead byte {b:02X} also starts form '{rule_name(r)}'", locs.get("reserved"))
        reserved_rule = len(rules)
        run = nfa.new()
        nfa.final[run] = len(actions) - 1
        nfa.rule[run] = reserved_rule
        for b in reserved:
            nfa.arcs[start].append((b, b, None, run, reserved_rule))
        starters |= set(reserved)
        for b in range(256):
            if b not in starters:
                nfa.arcs[run].append((b, b, None, run, reserved_rule))
    sinks = {}
    for s, k in enumerate(nfa.ext):
        if k is not None:
            sinks.setdefault(k, nfa.new())
            for b in sorted(ext_first[k]):
                nfa.arcs[s].append((b, b, None, sinks[k], None))
    sink_ext = {v: k for k, v in sinks.items()}

    # per NFA state: byte -> list of (op, target, rule)
    table = []
    for arcs in nfa.arcs:
        row = [[] for _ in range(256)]
        for lo, hi, op, target, r in arcs:
            for b in range(lo, hi + 1):
                row[b].append((op, target, r))
        table.append(row)

    sets = [frozenset([start])]
    index = {sets[0]: 0}
    parent = {0: None}
    trans, ops, accept, lines = [], [], [], []
    queue = deque([0])
    while queue:
        d = queue.popleft()
        members = sets[d]
        ends = {}  # action accepted here -> a rule ending in it
        for s in sorted(members):
            if nfa.final[s] is not None:
                ends.setdefault(nfa.final[s], nfa.rule[s])
        accept.append(_choose(ends, actions, d, parent, locs, rule_name, rule_line))
        line_set = set()
        for s in members:
            for row in table[s]:
                for _, _, r in row:
                    if r is not None and r < len(rules):
                        line_set.add(rules[r].line)
        lines.append(tuple(sorted(line_set)))
        row_next, row_op = [], []
        for b in range(256):
            moves = [m for s in members for m in table[s][b]]
            if not moves:
                row_next.append(DEAD)
                row_op.append(None)
                continue
            targets = frozenset(t for _, t, _ in moves)
            wanted = {(op, r) for op, _, r in moves if op is not None}
            distinct = {op for op, _ in wanted}
            if len(distinct) > 1:
                by_op = {}  # each digit operation -> the first rule (in the spec) using it
                for op, r in sorted(wanted, key=lambda x: (rule_line(x[1]), x[1])):
                    by_op.setdefault(op, r)
                r1, r2 = sorted(by_op.values(), key=lambda r: (rule_line(r), r))[:2]
                path = _path(parent, d) + bytes([b])
                raise SpecError(f"forms '{rule_name(r1)}' and '{rule_name(r2)}' both begin with {_hex(path)} "
                                f"but read {'it' if len(path) == 1 else 'its last byte'} as different digits",
                                locs.get(rule_name(r2)))
            ext_sinks = [t for t in targets if t in sink_ext]
            if ext_sinks:
                if len(targets) > 1:
                    path = _path(parent, d) + bytes([b])
                    raise SpecError(f"a counted form and another form both continue with {_hex(path)}",
                                    locs.get(("ext", sink_ext[ext_sinks[0]])))
                row_next.append(("ext", sink_ext[ext_sinks[0]]))
                row_op.append(None)
                continue
            if targets not in index:
                index[targets] = len(sets)
                sets.append(targets)
                parent[index[targets]] = (d, b)
                queue.append(index[targets])
            row_next.append(index[targets])
            row_op.append(next(iter(distinct)) if distinct else None)
        trans.append(row_next)
        ops.append(row_op)
    return _minimise(trans, ops, accept, lines)


def _path(parent, d) -> bytes:
    out = []
    while parent[d] is not None:
        d, b = parent[d]
        out.append(b)
    return bytes(reversed(out))


def _choose(ends, actions, d, parent, locs, rule_name, rule_line):
    """The accepting action of a DFA state; ill-formed patterns override forms.

    *ends* maps each action accepted here to a rule ending in it: an action is
    shared by forms that compute alike, so only the rule names the right form.
    """
    if not ends:
        return None
    if len(ends) == 1:
        return next(iter(ends))
    errors = [a for a in ends if actions[a]["kind"] == "error"]
    if len(errors) == 1:
        return errors[0]
    r1, r2 = sorted(ends.values(), key=lambda r: (rule_line(r), r))[:2]
    raise SpecError(f"forms '{rule_name(r1)}' and '{rule_name(r2)}' both accept {_hex(_path(parent, d))} "
                    f"with different values", locs.get(rule_name(r2)))


def _minimise(trans, ops, accept, lines) -> Dfa:
    n = len(trans)
    block = {}
    for s in range(n):
        block[s] = accept[s] if accept[s] is not None else -2
    # renumber
    def renumber(keys):
        ids = {}
        return {s: ids.setdefault(keys[s], len(ids)) for s in range(n)}
    block = renumber(block)
    while True:
        def target(t):
            return t if isinstance(t, tuple) or t == DEAD else block[t]
        sig = {s: (block[s], tuple((target(t), o) for t, o in zip(trans[s], ops[s]))) for s in range(n)}
        new = renumber(sig)
        if len(set(new.values())) == len(set(block.values())):
            block = new
            break
        block = new
    # order blocks by BFS from the start state, so state 0 is the start
    order, seen = [], {block[0]}
    queue = deque([0])
    rep = {}
    for s in range(n):
        rep.setdefault(block[s], s)
    while queue:
        s = queue.popleft()
        order.append(block[s])
        for t in trans[s]:
            if not isinstance(t, tuple) and t != DEAD and block[t] not in seen:
                seen.add(block[t])
                queue.append(rep[block[t]])
    new_id = {b: i for i, b in enumerate(order)}
    m = len(order)
    out_next, out_op, out_accept, out_lines = [], [], [], []
    for b in order:
        s = rep[b]
        row = []
        for t in trans[s]:
            if isinstance(t, tuple):
                row.append(m + t[1])
            elif t == DEAD:
                row.append(DEAD)
            else:
                row.append(new_id[block[t]])
        out_next.append(tuple(row))
        out_op.append(tuple(ops[s]))
        out_accept.append(accept[s])
        merged = set()
        for x in range(n):
            if block[x] == b:
                merged |= set(lines[x])
        out_lines.append(tuple(sorted(merged)))
    return Dfa(tuple(out_next), tuple(out_op), tuple(out_accept), tuple(out_lines))


def byte_classes(dfa: Dfa) -> tuple[tuple[int, ...], list[int]]:
    """(class of each byte, a representative byte of each class): bytes alike in every state."""
    sig_to_class: dict = {}
    classes = []
    reps = []
    for b in range(256):
        sig = tuple((dfa.next[s][b], dfa.op[s][b]) for s in range(len(dfa.next)))
        if sig not in sig_to_class:
            sig_to_class[sig] = len(reps)
            reps.append(b)
        classes.append(sig_to_class[sig])
    return tuple(classes), reps
