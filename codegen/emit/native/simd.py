"""A SIMD validator derived from the automaton: the lookup method of Keiser and
Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte" (Software:
Practice and Experience, 2021), for any spec it fits.

Their validator checks each byte against the byte before it with three 16-entry
tables — the previous byte's high nibble, its low nibble, the current byte's
high nibble — whose entries are ANDed: a bit left set is an error class.  One
bit (their TWO_CONTS, 0x80) marks two continuation bytes in a row, which is
right exactly where the byte two or three before is a lead byte of a longer
form (their "must be 2/3 continuation" check, by saturating subtraction); the
two are XORed.  Their tables are written from UTF-8's error classes; here
everything is derived from the spec's automaton (:func:`simd_plan`):

* the language: valid text is a sequence of char tokens, each a word from the
  start state to a final state whose action makes a character; where the spec
  has a longest match that could end before a final state, code units, counted
  forms, mapping tables or actions where the data ends, there is no plan;
* the bytes: continuation bytes (read after a token's first byte), lead bytes
  (first bytes of a word; disjoint from them, each with one form length) and
  the rest (never in valid text);
* the byte pairs valid text (with a one-byte character before and after it,
  the "neutral" byte the vectors start from and the tail is padded with) has
  side by side; the forbidden ones, by the current byte's high nibble, less
  the continuation pairs (the 0x80 bit), covered by at most seven boxes
  (previous high nibbles x previous low nibbles x current high nibbles), one
  per bit, found by an exact search over maximal boxes;
* per distance k >= 2, the lead bytes of forms longer than k, as "byte >=
  threshold" (what saturating subtraction tests);
* then the check is VERIFIED: the product of the tokenizer (restarting after
  each char) and the checker (its state: the last bytes' table entries and
  threshold levels) is explored over every byte, and every reachable pair of
  states must agree on whether the text so far plus the pad is valid.  The
  same walk bounds how many bytes after the first bad byte the checker may
  flag (``delay``): the C code goes back that far, then to a lead byte, to find
  the exact first error with the scalar token loop.

A spec it does not fit gets None: the scalar validator only.
"""
from __future__ import annotations

from itertools import product

from ...automaton import DEAD, Automaton

CONT_BIT = 0x80  # the continuation-pair bit (Keiser and Lemire's TWO_CONTS)
_MAX_BOXES = 7   # the other seven bits
_MAX_LENGTH = 8  # form lengths the must-be-continuation check handles
_SEARCH_BUDGET = 200000  # nodes of the box-cover search


class _NoFit(Exception):
    pass


# ------------------------------------------------------------ the language
def _tokenizer(a: Automaton):
    """step(d, b) of the tokenizer over valid text: 0 between tokens, another state
    inside one, None once the text cannot be valid (the token died, or ended in an
    error, a reserved run or a state from which no character can be reached)."""
    for why, holds in (("code units of several bytes", a.unit != 1), ("counted forms", bool(a.extensions)),
                       ("mapping tables (a pointer's entry decides)", bool(a.tables)),
                       ("actions where the data ends", any(x is not None for x in a.at_end or ()))):
        if holds:
            raise _NoFit(why)
    n = a.n_states
    char = [a.final(s) and (act := a.action_at(s)) is not None and act.kind not in ("error", "reserved")
            for s in range(n)]
    for s in range(n):
        act = a.action_at(s)
        if act is not None and not a.final(s) and act.kind not in ("error", "reserved"):
            raise _NoFit("a char may end before a final state (longest match)")
    # states from which a char can be reached (without going through the start again)
    live = set(s for s in range(n) if char[s])
    changed = True
    while changed:
        changed = False
        for s in range(n):
            if s not in live and any(0 <= t < n and t in live for t in a.next[s]):
                live.add(s)
                changed = True
    if 0 not in live:
        raise _NoFit("no character at all")

    def step(d, b):
        t = a.next[d][a.classes[b]]
        if t == DEAD or t >= n or t not in live:
            return None
        return 0 if char[t] else t

    return step


def _bytes_of(a: Automaton, step):
    """(leads {byte: form length}, continuation bytes, inside states) of valid text."""
    todo = [0]
    seen = {0}
    conts = set()
    leads: dict = {}
    while todo:
        d = todo.pop()
        for b in range(256):
            t = step(d, b)
            if t is None:
                continue
            if d != 0:
                conts.add(b)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    inside = seen - {0}

    known: dict = {}

    def lengths(d, depth):
        """The lengths of the rest of a token from state d (depth bytes read)."""
        if depth > _MAX_LENGTH:
            raise _NoFit("forms longer than the check handles")
        if d not in known:
            out = set()
            for t in {step(d, b) for b in range(256)} - {None}:
                out |= {0} if t == 0 else {n + 1 for n in lengths(t, depth + 1)}
            known[d] = out
        return known[d]

    memo: dict = {}
    for b in range(256):
        t = step(0, b)
        if t is None:
            continue
        if t not in memo:
            memo[t] = {1} if t == 0 else {n + 2 for n in lengths(t, 2)}
        if len(memo[t]) != 1:
            raise _NoFit(f"lead byte {b:02X} starts forms of several lengths")
        leads[b] = next(iter(memo[t]))
    if set(leads) & conts:
        raise _NoFit("a byte both starts and continues a form")
    return leads, frozenset(conts), inside


# ------------------------------------------------------------------ tables
def _neutral(leads, thresholds):
    """The byte the vectors start from and the tail is padded with: a one-byte char
    below every threshold."""
    low = min(thresholds) if thresholds else 0x100
    for b in sorted(leads):
        if leads[b] == 1 and b < low:
            return b
    raise _NoFit("no one-byte character to pad with")


def _thresholds(leads, conts, longest):
    """Per distance k = 2 .. longest - 1, the byte t with: b >= t exactly for the lead
    bytes of forms longer than k (among leads and continuation bytes; other bytes are
    errors whatever this says)."""
    out = []
    for k in range(2, longest):
        longer = [b for b, n in leads.items() if n > k]
        t = min(longer)
        if t < 0x80 or any(b >= t for b in conts) or any(b >= t and n <= k for b, n in leads.items()):
            raise _NoFit(f"the leads of forms longer than {k} are not the bytes from some value up")
        out.append(t)
    return out


def _pairs(step, inside, z):
    """The byte pairs (previous, current) valid text has side by side, the text
    between neutral bytes."""
    seen = set()
    # (state before the previous byte, previous byte): every reachable one
    states = {0} | set(inside)
    for d in states:
        for p in range(256):
            t = step(d, p)
            if t is None:
                continue
            for c in range(256):
                if step(t, c) is not None:
                    seen.add((p, c))
    return seen


def _forbidden(seen, conts):
    """Cells (previous high, previous low, current high) no valid pair has, less the
    continuation pairs (the CONT bit's)."""
    cells = set()
    for p in range(256):
        for h in range(16):
            cs = range(h << 4, (h << 4) + 16)
            if p in conts and all(c in conts for c in cs):
                continue
            if not any((p, c) in seen for c in cs):
                cells.add((p >> 4, p & 15, h))
    return cells


def _intersections(sets):
    """*sets* closed under non-empty intersection: the candidate sides of maximal boxes."""
    closure = set(sets)
    changed = True
    while changed:
        changed = False
        for x in list(closure):
            for y in sets:
                z = x & y
                if z and z not in closure:
                    closure.add(z)
                    changed = True
        if len(closure) > 4096:
            raise _NoFit("too many box candidates")
    return closure


def _boxes(cells):
    """The maximal boxes (sets of previous high nibbles, previous low nibbles, current
    high nibbles) inside *cells*."""
    cur = {}
    for ph, pl, h in cells:
        cur.setdefault((ph, pl), set()).add(h)
    # candidate current-nibble sets: the intersection closure of the per-byte sets
    closure = _intersections({frozenset(v) for v in cur.values()})
    out = set()
    for a3 in closure:
        prev = {k for k, v in cur.items() if a3 <= v}
        rows: dict = {}
        for ph, pl in prev:
            rows.setdefault(ph, set()).add(pl)
        # maximal rectangles of prev: intersection closure of the rows' low-nibble sets
        for a2 in _intersections({frozenset(v) for v in rows.values()}):
            a1 = frozenset(ph for ph, v in rows.items() if a2 <= v)
            a3full = frozenset.intersection(*(frozenset(cur[(ph, pl)]) for ph in a1 for pl in a2))
            out.add((a1, a2, a3full))
    return sorted(out, key=lambda box: (-len(box[0]) * len(box[1]) * len(box[2]), sorted(box[0]),
                                        sorted(box[1]), sorted(box[2])))


def _cover(cells, boxes, most):
    """At most *most* boxes whose union is *cells*, or None: greedy (the box with the
    most cells not yet covered), then, if that takes too many, an exact search
    (branching on the first uncovered cell, bounded by the largest box)."""
    cell_sets = [frozenset(product(b[0], b[1], b[2])) for b in boxes]
    left = frozenset(cells)
    chosen = []
    while left and len(chosen) <= most:
        k = max(range(len(cell_sets)), key=lambda j: (len(cell_sets[j] & left), -j))
        chosen.append(k)
        left -= cell_sets[k]
    if len(chosen) <= most:
        return [boxes[k] for k in chosen]
    budget = [_SEARCH_BUDGET]

    def search(left, chosen, depth):
        if not left:
            return chosen
        biggest = max(len(cs & left) for cs in cell_sets)
        if depth == 0 or biggest * depth < len(left):
            return None
        budget[0] -= 1
        if budget[0] < 0:
            raise _NoFit("the box search is too long")
        first = min(left)
        for k, cs in enumerate(cell_sets):
            if first in cs:
                got = search(left - cs, chosen + [k], depth - 1)
                if got is not None:
                    return got
        return None

    got = search(frozenset(cells), [], most)
    return None if got is None else [boxes[k] for k in got]


def _tables(boxes, conts):
    t1, t2, t3 = [0] * 16, [0] * 16, [0] * 16
    for bit, (a1, a2, a3) in enumerate(boxes):
        for h in a1:
            t1[h] |= 1 << bit
        for lo in a2:
            t2[lo] |= 1 << bit
        for h in a3:
            t3[h] |= 1 << bit
    hs = sorted({b >> 4 for b in conts})
    for h in hs:
        t1[h] |= CONT_BIT
        t3[h] |= CONT_BIT
    for lo in range(16):
        t2[lo] |= CONT_BIT
    return t1, t2, t3


# ------------------------------------------------------------ the checker
def check_flags(plan, data: bytes) -> list:
    """Per position of data padded with one neutral byte, whether the checker flags
    it (the vectors' arithmetic, byte by byte: for the tests and the verification)."""
    t1, t2, t3, thr, z = plan["t1"], plan["t2"], plan["t3"], plan["thresholds"], plan["neutral"]
    far = len(thr) + 1
    text = bytes([z]) * far + bytes(data) + bytes([z])
    out = []
    for i in range(far, len(text)):
        p, c = text[i - 1], text[i]
        sc = t1[p >> 4] & t2[p & 15] & t3[c >> 4]
        must = any(text[i - k] >= t for k, t in enumerate(thr, 2))
        out.append((sc ^ (CONT_BIT if must else 0)) != 0)
    return out


def _verify(plan, step, states):
    """Explore the tokenizer x checker product over every byte (bytes alike to both
    sides once): every reachable pair of states must agree on whether the text so
    far, padded with the neutral byte, is valid.  Returns the delay: the most bytes
    after the first one that makes the text invalid before the checker flags one
    (the pad aside); raises _NoFit where they disagree or the checker may never flag."""
    t1, t2, t3, thr, z = plan["t1"], plan["t2"], plan["t3"], plan["thresholds"], plan["neutral"]
    far = len(thr)
    level = [sum(b >= t for t in thr) for b in range(256)]
    mask = [t1[b >> 4] & t2[b & 15] for b in range(256)]
    reps: dict = {}
    for b in range(256):
        key = (mask[b], t3[b >> 4], level[b], tuple(step(d, b) for d in sorted(states)))
        reps.setdefault(key, b)
    reps = sorted(reps.values())
    canon = {}
    for b in range(256):
        canon.setdefault((mask[b], level[b]), b)

    # the checker's state before a byte: the previous byte (by what the check reads
    # of it) and the levels of the bytes 2, 3, ... back
    def flag(k, c):
        p, levels = k
        sc = mask[p] & t3[c >> 4]
        must = any(levels[j] >= j + 1 for j in range(far))
        return (sc ^ (CONT_BIT if must else 0)) != 0

    def advance(k, c):
        p, levels = k
        return (canon[(mask[c], level[c])], ((level[p],) + levels)[:far])

    start = (0, advance((z, (0,) * far), z))
    seen = {start}
    todo = [start]
    bad = {}  # invalid text not flagged yet: node -> successors
    while todo:
        d, k = todo.pop()
        if d is None:
            if not flag(k, z):
                raise _NoFit("invalid text the pad does not flag")
        elif (d == 0) == flag(k, z):
            raise _NoFit("the pad disagrees with the tokenizer")
        succ = []
        for c in reps:
            d2 = None if d is None else step(d, c)
            if flag(k, c):
                if d2 is not None:
                    raise _NoFit(f"the checker flags byte {c:02X} in valid text")
                continue
            node = (d2, advance(k, c))
            if d is None:
                succ.append(node)
            if node not in seen:
                seen.add(node)
                todo.append(node)
        if d is None:
            bad[(d, k)] = succ
    # the longest run of unflagged bytes after the first bad one (no cycle allowed)
    depth: dict = {}

    def longest(node, path):
        if node in depth:
            return depth[node]
        if node in path:
            raise _NoFit("the checker may never flag some invalid text")
        path.add(node)
        got = 1 + max((longest(s, path) for s in bad[node]), default=0)
        path.discard(node)
        depth[node] = got
        return got

    return max((longest(n, set()) for n in bad), default=0)


def simd_plan(a: Automaton) -> dict | None:
    """The nibble tables, thresholds and neutral byte of the spec's SIMD validator
    (verified against the automaton), or None where the method does not fit."""
    try:
        return _plan(a)
    except _NoFit:
        return None


def refusal(a: Automaton) -> str | None:
    """Why :func:`simd_plan` gives None (None: it does not)."""
    try:
        _plan(a)
    except _NoFit as e:
        return str(e)
    return None


def _plan(a: Automaton) -> dict:
    step = _tokenizer(a)
    leads, conts, inside = _bytes_of(a, step)
    longest = max(leads.values())
    if longest < 2:
        raise _NoFit("one byte a character: nothing to check in pairs")
    thr = _thresholds(leads, conts, longest)
    z = _neutral(leads, thr)
    seen = _pairs(step, inside, z)
    cells = _forbidden(seen, conts)
    if conts and any(((h << 4) + j) not in conts for h in {b >> 4 for b in conts} for j in range(16)):
        raise _NoFit("the continuation bytes are not whole high-nibble rows")
    boxes = _cover(cells, _boxes(cells), _MAX_BOXES) if cells else []
    if boxes is None:
        raise _NoFit("the forbidden pairs need more than seven boxes")
    t1, t2, t3 = _tables(boxes, conts)
    plan = {"t1": t1, "t2": t2, "t3": t3, "thresholds": thr, "neutral": z, "longest": longest,
            "conts": sorted(conts),
            "ascii": all(leads.get(b) == 1 for b in range(0x80)),
            "boxes": [(sorted(b[0]), sorted(b[1]), sorted(b[2])) for b in boxes]}
    plan["delay"] = _verify(plan, step, {0} | set(inside))
    plan["comments"] = _comments(plan)
    return plan


def context(a: Automaton) -> dict:
    """The template's context (native/templates/validate.c.j2): ``simd``, the plan
    with the continuation bytes as rows of flags, or None; ``dfa``, the validating
    DFA's, or None."""
    plan = simd_plan(a)
    if plan is not None:
        conts = set(plan["conts"])
        plan["cont_rows"] = [[1 if r + k in conts else 0 for k in range(16)] for r in range(0, 256, 16)]
    return {"simd": plan, "dfa": dfa_plan(a)}


def _nibbles(xs):
    return ",".join(f"{x:X}" for x in xs)


def _comments(plan) -> list[str]:
    out = []
    for bit, (a1, a2, a3) in enumerate(plan["boxes"]):
        out.append(f"bit {bit}: previous byte high nibble {_nibbles(a1)}, low nibble {_nibbles(a2)}; "
                   f"current byte high nibble {_nibbles(a3)}")
    out.append(f"bit 7: two continuation bytes (high nibbles {_nibbles(sorted({b >> 4 for b in plan['conts']}))}),"
               f" right only where a lead byte before says so")
    return out


# ------------------------------------------------------ the validating DFA
# For every spec without mapping tables, the scalar validator first runs a DFA
# over bytes that only says where tokens end: state 0 between tokens, a state per
# (minimised) place inside one, and STOP for anything the token loop must decide
# (an error, a reserved run, a longest match that falls back, a counted form).
# With at most ten states it is a shift-based DFA (each byte's row a 64-bit word
# of six-bit fields, the state a shift: one shift per byte on the critical
# path); with more, the places where a token may end or go on, then the lead
# bytes of the longest forms (rare in text), go to STOP while that makes it fit;
# else a table of 16-bit entries.
_SHIFT_STATES = 10


def dfa_plan(a: Automaton) -> dict | None:
    """The validating DFA from start state 0 (see above), or None (mapping tables:
    every pointer needs its entry).  A state where a token may end or go on
    (longest match) is kept when the DFA still has few enough states for the shift
    form, else it is STOP too (the token loop's)."""
    if a.tables:
        return None
    got = _dfa(a, keep_longest=True)
    if not got["shift"] and any(a.accept[s] is not None and not a.final(s) for s in range(a.n_states)):
        other = _dfa(a, keep_longest=False)
        if other["shift"]:
            return other
    if not got["shift"]:
        # the longest forms (rare in text) left to the token loop, as few as make it fit:
        # their lead bytes go to STOP
        longest = _longest_from_start(a)
        for length in sorted({n for n in longest.values() if n >= 4}, reverse=True):
            cut = frozenset(c for c, n in longest.items() if n >= length)
            other = _dfa(a, keep_longest=True, cut=cut)
            if other["shift"]:
                other["cut"] = length
                return other
    return got


def _longest_from_start(a: Automaton) -> dict:
    """Per byte class a form can start with: the most bytes a token from it reads
    (counted forms and loops: a large number)."""
    n = a.n_states
    memo: dict = {}

    def most(s, depth):
        if depth > 64:
            return 1 << 20
        if s not in memo:
            best = 0
            for t in a.next[s]:
                if t == DEAD:
                    continue
                if t >= n:
                    best = max(best, 1 << 20)
                elif a.final(t):
                    best = max(best, 1)
                else:
                    best = max(best, 1 + most(t, depth + 1))
            memo[s] = best
        return memo[s]

    out = {}
    for c in range(a.n_classes):
        t = a.next[0][c]
        if t == DEAD:
            continue
        out[c] = 1 << 20 if t >= n else 1 if a.final(t) else 1 + most(t, 1)
    return out


def _dfa(a: Automaton, keep_longest: bool, cut=frozenset()) -> dict:
    n = a.n_states
    stop = "stop"

    def target(s, c):
        t = a.next[s][c]
        if t == DEAD or t >= n or (s == 0 and c in cut):
            return stop
        if a.final(t):
            act = a.action_at(t)
            return 0 if act is not None and act.kind in ("char", "value", "pair") else stop
        if a.accept[t] is not None and not keep_longest:
            return stop  # a token may end here or go on (longest match): the token loop's
        return t

    mids = []
    seen = {0}
    todo = [0]
    while todo:
        s = todo.pop()
        mids.append(s)
        for c in range(a.n_classes):
            t = target(s, c)
            if t != stop and t not in seen:
                seen.add(t)
                todo.append(t)
    mids.sort()
    states = mids + [stop]
    block = {s: (0 if s == 0 else 2 if s == stop else 1) for s in states}
    while True:
        sig = {s: (block[s],) + (() if s == stop else tuple(block[target(s, c)] for c in range(a.n_classes)))
               for s in states}
        ids: dict = {}
        new = {s: ids.setdefault(sig[s], len(ids)) for s in states}
        if len(ids) == len(set(block.values())):
            break
        block = new
    # number the blocks: 0 between tokens, STOP last
    order = [block[0]] + sorted({block[s] for s in states} - {block[0], block[stop]}) + [block[stop]]
    index = {b: k for k, b in enumerate(order)}
    count = len(order)
    rows = [[0] * count for _ in range(a.n_classes)]  # class -> per state the next state
    for s in mids:
        for c in range(a.n_classes):
            rows[c][index[block[s]]] = index[block[target(s, c)]]
    for c in range(a.n_classes):
        rows[c][count - 1] = count - 1
    shift = count <= _SHIFT_STATES
    per_byte = [rows[a.classes[b]] for b in range(256)]
    # bytes below 80 that are tokens of their own: runs of them are skipped 16 at a
    # time (2: all of 00..7F; 1: all of 01..7F, 00 not: zero bytes stop the skip)
    singles = {b for b in range(0x80) if per_byte[b][0] == 0}
    skip = 2 if len(singles) == 0x80 else 1 if singles >= set(range(1, 0x80)) else 0
    if shift:
        words = [sum((6 * nxt) << (6 * k) for k, nxt in enumerate(row)) for row in per_byte]
        return {"shift": True, "states": count, "stop": 6 * (count - 1), "skip": skip, "cut": None,
                "words": [f"UINT64_C(0x{w:016X})" for w in words]}
    return {"shift": False, "states": count, "stop": (count - 1) << 8, "skip": skip, "cut": None,
            "table": [[(nxt << 8) for nxt in (per_byte[b][k] for b in range(256))] for k in range(count)]}
