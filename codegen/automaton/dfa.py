"""Byte patterns → a minimal deterministic automaton over byte classes.

Subset construction over the 256 byte values, Moore minimisation, then byte
classes (bytes that behave alike in every state), as in Höhrmann's UTF-8 DFA.
A transition carries the digit operation that accumulates the raw value; two
patterns that share a prefix must agree on it, or the spec is rejected.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..spec.diagnostics import Loc, SpecError
from .actions import Action
from .layout import Rule
from .minimise import STATE, refine

DEAD = -1


@dataclass
class _Nfa:
    arcs: list  # per state: list of (lo, hi, op, target, rule index)
    final: list  # per state: rule index or None
    ext: list  # per state: extension index entered on the extension's first bytes
    rule: list  # per final state: the rule whose pattern ends there (for messages)
    at_end: list  # per state: the action of a rule that accepts here only where the data ends

    def new(self) -> int:
        self.arcs.append([])
        self.at_end.append(None)
        self.final.append(None)
        self.ext.append(None)
        self.rule.append(None)
        return len(self.arcs) - 1


@dataclass(frozen=True)
class Dfa:
    """A minimal DFA on raw bytes: next[state][byte], op[state][byte], accept[state]."""

    next: tuple[tuple[int, ...], ...]  # DEAD, a state, or n_states + k for extension k
    op: tuple[tuple[tuple[int, int, int] | None, ...], ...]
    accept: tuple[int | None, ...]  # index into the action list
    lines: tuple[tuple[int, ...], ...]  # spec lines of the rules passing through each state
    at_end: tuple[int | None, ...] = ()  # the action where the data ends in this state (None: none)


def _hex(path: bytes) -> str:
    return " ".join(f"{b:02X}" for b in path)


def build(rules: list[Rule], rule_action: list[int | None], actions: list[Action], reserved: tuple[int, ...],
          ext_first: dict[int, set[int]], locs: dict[str | tuple[str, int], Loc | None]) -> Dfa:
    """The minimal DFA of *rules*; accept[state] indexes *actions* (the last is 'reserved').

    Subset construction works on byte *intervals*, not on the 256 byte values:
    a DFA state's arcs cut 00..FF into the few intervals where the same arcs
    apply, and each interval is one step.  So the cost is the size of the
    patterns (and of the DFA), whatever the number of bytes each arc spans."""
    nfa = _Nfa([], [], [], [], [])
    start = nfa.new()
    # A rule's patterns share their suffixes: one NFA state per (rule, the rest of the
    # pattern from here), built from the end.  The language is the same, and a long
    # form's many patterns (a min cut deep into 64 continuation bytes) converge at
    # once instead of making the subset construction follow each of them to the end.
    suffix: dict = {}
    for r_index, rule in enumerate(rules):
        end = nfa.new()
        if rule.ext is not None:
            nfa.ext[end] = rule.ext
        elif rule.at_end:
            nfa.at_end[end] = rule_action[r_index]
            nfa.rule[end] = r_index
        else:
            nfa.final[end] = rule_action[r_index]
            nfa.rule[end] = r_index
        for pattern in rule.patterns:
            state = end
            for position in reversed(pattern[1:]):
                key = (r_index, position, state)
                if key not in suffix:
                    suffix[key] = nfa.new()
                    nfa.arcs[suffix[key]] = [(lo, hi, op, state, r_index) for lo, hi, op in position]
                state = suffix[key]
            if pattern:
                nfa.arcs[start] += [(lo, hi, op, state, r_index) for lo, hi, op in pattern[0]]
            elif rule.ext is not None:  # an empty pattern ends where it starts
                nfa.ext[start] = rule.ext
            else:
                nfa.final[start] = rule_action[r_index]
                nfa.rule[start] = r_index

    def rule_name(r):
        return rules[r].action.form if r is not None and r < len(rules) else "reserved"

    def rule_line(r):
        return rules[r].line if r < len(rules) else getattr(locs.get("reserved"), "line", 0)

    starters = _byte_set(nfa.arcs[start])
    reserved_rule = None
    if reserved:
        clash = [b for b in reserved if starters[b]]
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
            starters[b] = True
        for lo, hi in _runs([not x for x in starters]):  # a reserved run goes on up to the next lead byte
            nfa.arcs[run].append((lo, hi, None, run, reserved_rule))
    sinks: dict[int, int] = {}  # extension -> its sink state
    for s, k in enumerate(nfa.ext):
        if k is not None:
            sinks.setdefault(k, nfa.new())
            for b in sorted(ext_first[k]):
                nfa.arcs[s].append((b, b, None, sinks[k], None))
    sink_ext = {v: k for k, v in sinks.items()}
    # per NFA state: the spec lines of the rules whose arcs leave it
    state_lines = [frozenset(rules[r].line for _, _, _, _, r in arcs if r is not None and r < len(rules))
                   for arcs in nfa.arcs]

    reached: dict = {}  # form -> None once it wins a state, else (the pattern overriding it, a path)
    sets = [frozenset([start])]
    index = {sets[0]: 0}
    parent: dict[int, tuple[int, int] | None] = {0: None}  # state -> (its parent, the byte from there)
    trans, accept, lines, at_end = [], [], [], []  # trans: per DFA state, (lo, hi, next, op) for its live intervals
    queue = deque([0])
    while queue:
        d = queue.popleft()
        members = sets[d]
        # every (rule, action) whose pattern ends here: all of them accept the same byte sequences
        ends = sorted({(nfa.rule[s], nfa.final[s]) for s in members if nfa.final[s] is not None},
                      key=lambda x: (rule_line(x[0]), x[0]))
        accept.append(_choose(ends, actions, lambda: _path(parent, d), locs, rule_name, reached))  # noqa: B023 - _choose calls it at once
        ends = sorted({(nfa.rule[s], nfa.at_end[s]) for s in members if nfa.at_end[s] is not None},
                      key=lambda x: (rule_line(x[0]), x[0]))
        at_end.append(_choose(ends, actions, lambda: _path(parent, d), locs, rule_name, reached))  # noqa: B023 - _choose calls it at once
        lines.append(tuple(sorted(frozenset().union(*(state_lines[s] for s in members)))))
        row: list[tuple[int, int, int | tuple[str, int], tuple[int, int, int] | None]] = []
        for lo, hi, moves in _intervals([a for s in members for a in nfa.arcs[s]]):
            targets = frozenset(t for _, _, _, t, _ in moves)
            wanted = {(op, r) for _, _, op, _, r in moves if op is not None}
            distinct = {op for op, _ in wanted}
            if len(distinct) > 1:
                by_op: dict[tuple[int, int, int], int] = {}  # each digit operation -> the first rule (in the spec) using it
                for op, r in sorted(wanted, key=lambda x: (rule_line(x[1]), x[1])):
                    by_op.setdefault(op, r)
                r1, r2 = sorted(by_op.values(), key=lambda r: (rule_line(r), r))[:2]
                path = _path(parent, d) + bytes([lo])
                raise SpecError(f"forms '{rule_name(r1)}' and '{rule_name(r2)}' both begin with {_hex(path)} "
                                f"but read {'it' if len(path) == 1 else 'its last byte'} as different digits",
                                locs.get(rule_name(r2)))
            ext_sinks = [t for t in targets if t in sink_ext]
            if ext_sinks:
                if len(targets) > 1:
                    path = _path(parent, d) + bytes([lo])
                    raise SpecError(f"a counted form and another form both continue with {_hex(path)}",
                                    locs.get(("ext", sink_ext[ext_sinks[0]])))
                row.append((lo, hi, ("ext", sink_ext[ext_sinks[0]]), None))
                continue
            if targets not in index:
                index[targets] = len(sets)
                sets.append(targets)
                parent[index[targets]] = (d, lo)
                queue.append(index[targets])
            row.append((lo, hi, index[targets], next(iter(distinct)) if distinct else None))
        trans.append(row)
    _check_reached(rules, reached, locs, rule_name)
    return _minimise(trans, accept, lines, at_end)


def _byte_set(arcs) -> list[bool]:
    out = [False] * 256
    for lo, hi, *_ in arcs:
        out[lo:hi + 1] = [True] * (hi - lo + 1)
    return out


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The runs lo..hi of bytes whose flag is set."""
    out: list[tuple[int, int]] = []
    for b, flag in enumerate(flags):
        if flag:
            if out and out[-1][1] == b - 1:
                out[-1] = (out[-1][0], b)
            else:
                out.append((b, b))
    return out


def _intervals(arcs):
    """(lo, hi, arcs covering it) for the maximal byte intervals on which the same arcs apply, in byte order.

    A sweep over the arcs' ends: bytes no arc covers are left out."""
    if not arcs:
        return
    arcs = sorted(arcs, key=lambda a: a[0])
    points = sorted({a[0] for a in arcs} | {a[1] + 1 for a in arcs})
    active: list = []
    i, n = 0, len(arcs)
    for x, end in zip(points, points[1:]):
        active = [a for a in active if a[1] >= x]
        while i < n and arcs[i][0] == x:
            active.append(arcs[i])
            i += 1
        if active:
            yield x, end - 1, active


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


def _minimise(trans, accept, lines, at_end) -> Dfa:
    """The minimal DFA of the subset construction's states (*trans*: live intervals per state).

    Bytes that no interval boundary separates behave alike in every state, so
    minimisation works on those byte classes, and only on the transitions that
    exist (:func:`~encspec.automaton.minimise.refine`)."""
    n = len(trans)
    cuts = sorted({0, 256}.union(*({lo, hi + 1} for row in trans for lo, hi, _, _ in row)))
    byte_class = [0] * 256
    for c, (lo, end) in enumerate(zip(cuts, cuts[1:])):
        byte_class[lo:end] = [c] * (end - lo)
    # a state's label: its action, and per run of byte classes the digit operation and
    # whether it leads to a state (which one is for the refinement) or into a counted form
    labels, edges = [], []
    for s, row in enumerate(trans):
        sig: list = []
        out: list = []
        for lo, hi, t, op in row:
            a, b = byte_class[lo], byte_class[hi]
            kind = t if isinstance(t, tuple) else STATE
            if sig and sig[-1][1] == a - 1 and sig[-1][2] == kind and sig[-1][3] == op:
                sig[-1][1] = b
            else:
                sig.append([a, b, kind, op])
            if kind is STATE:
                out += [(c, t) for c in range(a, b + 1)]
        labels.append((accept[s], at_end[s], tuple(map(tuple, sig))))
        edges.append(out)
    block = refine(labels, edges)
    # order blocks by BFS from the start state, so state 0 is the start
    order, seen = [], {block[0]}
    queue = deque([0])
    rep: dict = {}
    merged: dict = {}
    for s in range(n):
        rep.setdefault(block[s], s)
        merged.setdefault(block[s], set()).update(lines[s])
    while queue:
        s = queue.popleft()
        order.append(block[s])
        for _, _, t, _ in trans[s]:
            if not isinstance(t, tuple) and block[t] not in seen:
                seen.add(block[t])
                queue.append(rep[block[t]])
    new_id = {b: i for i, b in enumerate(order)}
    m = len(order)
    out_next, out_op, out_accept, out_lines, out_at_end = [], [], [], [], []
    for b in order:
        s = rep[b]
        nxt, ops = [DEAD] * 256, [None] * 256
        for lo, hi, t, op in trans[s]:
            nxt[lo:hi + 1] = [m + t[1] if isinstance(t, tuple) else new_id[block[t]]] * (hi - lo + 1)
            ops[lo:hi + 1] = [op] * (hi - lo + 1)
        out_next.append(tuple(nxt))
        out_op.append(tuple(ops))
        out_accept.append(accept[s])
        out_at_end.append(at_end[s])
        out_lines.append(tuple(sorted(merged[b])))
    return Dfa(tuple(out_next), tuple(out_op), tuple(out_accept), tuple(out_lines), tuple(out_at_end))


def concat(a: Dfa, b: Dfa) -> Dfa:
    """One table holding both machines: *b*'s states follow *a*'s (its start is ``len(a.next)``)."""
    n = len(a.next)
    shift = tuple(tuple(t if t == DEAD else t + n for t in row) for row in b.next)
    return Dfa(a.next + shift, a.op + b.op, a.accept + b.accept, a.lines + b.lines,
               (a.at_end or (None,) * n) + (b.at_end or (None,) * len(b.next)))


def byte_classes(dfa: Dfa) -> tuple[tuple[int, ...], list[int]]:
    """(class of each byte, a representative byte of each class): bytes alike in every state."""
    sig_to_class: dict = {}
    classes = []
    reps: list[int] = []
    # column b of every state's row, transposed in one go
    for b, sig in enumerate(zip(zip(*dfa.next), zip(*dfa.op)) if dfa.next else [((), ())] * 256):
        if sig not in sig_to_class:
            sig_to_class[sig] = len(reps)
            reps.append(b)
        classes.append(sig_to_class[sig])
    return tuple(classes), reps
