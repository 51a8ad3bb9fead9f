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
from .minimise import moore_blocks

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
        return rules[r].action.form if r is not None and r < len(rules) else "reserved"

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

    reached: dict = {}  # form -> None once it wins a state, else (the pattern overriding it, a path)
    sets = [frozenset([start])]
    index = {sets[0]: 0}
    parent = {0: None}
    trans, ops, accept, lines = [], [], [], []
    queue = deque([0])
    while queue:
        d = queue.popleft()
        members = sets[d]
        # every (rule, action) whose pattern ends here: all of them accept the same byte sequences
        ends = sorted({(nfa.rule[s], nfa.final[s]) for s in members if nfa.final[s] is not None},
                      key=lambda x: (rule_line(x[0]), x[0]))
        accept.append(_choose(ends, actions, lambda: _path(parent, d), locs, rule_name, reached))
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
    _check_reached(rules, reached, locs, rule_name)
    return _minimise(trans, ops, accept, lines)


def _path(parent, d) -> bytes:
    out = []
    while parent[d] is not None:
        d, b = parent[d]
        out.append(b)
    return bytes(reversed(out))


def _choose(ends, actions, path, locs, rule_name, reached):
    """The accepting action of a DFA state, from the (rule, action) pairs ending in it.

    Every rule ending in one state accepts the same byte sequences (path() is the
    first of them), so two forms ending together overlap, whether or not they
    compute the same value: an error naming both.  An ill-formed pattern
    overrides forms (that is what it is for); *reached* records, per form, the
    state it wins, or the pattern that overrode it, for :func:`_check_reached`.
    """
    if not ends:
        return None
    errors = [(r, a) for r, a in ends if actions[a].kind == "error"]
    chars = [(r, a) for r, a in ends if actions[a].kind != "error"]
    if len({rule_name(r) for r, _ in errors}) > 1:
        (r1, _), (r2, _) = errors[:2]
        raise SpecError(f"ill-formed patterns '{rule_name(r1)}' and '{rule_name(r2)}' both match {_hex(path())}: "
                        "remove or narrow one of them", locs.get(rule_name(r2)))
    if errors:
        for r, _ in chars:
            reached.setdefault(rule_name(r), (errors[0][0], path()))
        return errors[0][1]
    names = {}
    for r, a in chars:
        names.setdefault(rule_name(r), (r, a))
    if len(names) > 1:
        (r1, a1), (r2, a2) = list(names.values())[:2]
        same = "the same value" if a1 == a2 else "different values"
        raise SpecError(f"forms '{rule_name(r1)}' and '{rule_name(r2)}' both accept {_hex(path())} with {same}: "
                        "a byte sequence has one meaning; narrow or remove one of them", locs.get(rule_name(r2)))
    r, a = chars[0]
    reached[rule_name(r)] = None
    return a


def _check_reached(rules, reached, locs, rule_name):
    """A form whose every sequence an ill-formed pattern overrides can never match."""
    for r, rule in enumerate(rules):
        if rule.ext is not None or rule.action.kind == "error":
            continue
        why = reached.get(rule_name(r))
        if why is not None:
            pattern, path = why
            raise SpecError(f"form '{rule_name(r)}' can never match: ill-formed pattern '{rule_name(pattern)}' "
                            f"overrides all its sequences (the first is {_hex(path)}); narrow the pattern",
                            locs.get(rule_name(pattern)))


def _minimise(trans, ops, accept, lines) -> Dfa:
    n = len(trans)
    # states of a block accept alike and read each byte class with the same digit operation
    block = moore_blocks([(accept[s], tuple(ops[s])) for s in range(n)], trans)
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
