"""The native backend's straight paths: each form as direct code, from the automaton.

For a start state, ``form_plan`` derives the decision tree the extension's
``nx_form`` (native/templates/forms.c.j2) emits as nested range checks: from
the start state, the bytes grouped by the state they lead to (and the digit
operation they do), down to a FINAL accepting state whose action is a char, a
fixed value or a surrogate pair.  Each node is a range check on the byte at a
fixed position after the lead and a digit operation with constant multiplier,
weight and (per range) subtrahend, which the C compiler folds into shifts and
adds; the offset is added at the leaf.  What the tree does not take — a counted
form, a state beyond ``MAX_DEPTH`` bytes, an accepting state with a way on
(longest match), an error or reserved run, a table form, the data's end — is
left to the exact path (nx_token and the flat table) from the token's start,
so the straight paths only decide well-formed tokens the automaton would
decide the same way, and every error, back-off and end of data stays the
core's.

``paths`` lists the same tree as byte patterns (per position its byte
ranges): UTF-8's are exactly the well-formed sequences of Unicode's Table 3-7.
The single-byte characters that stand for themselves (``ascii``: 00..7F, or
01..7F where 00 is not one, as MUTF-8's) are the run the extension probes 8
bytes at a time.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...automaton import DEAD, Automaton
from ...automaton.actions import Char, Pair, Reserved, Value

MAX_DEPTH = 8  # bytes in a straight path at most (longer tokens: the table walk)
_NODE_BUDGET = 512  # nodes in one tree (more: the deepest paths are left to the walk)
_VALUE_LIMIT = 1 << 63  # a leaf's value below this on every path (uint64 arithmetic stays exact)


@dataclass(frozen=True)
class Leaf:
    """A final accepting state's action: code point acc + offset ("char"), a fixed
    value ("value"), or a surrogate pair acc = high * split + low ("pair")."""

    kind: str
    offset: int = 0
    value: int = 0
    split: int = 0
    low: int = 0  # the least and the greatest code point it can give
    high: int = 0


@dataclass(frozen=True)
class Step:
    """The bytes that take a node to one child with one multiplier and weight:
    acc = acc * mul + (byte - sub) * weight, sub constant on each run of *subs*."""

    ranges: tuple[tuple[int, int], ...]
    subs: tuple[tuple[int, int, int], ...]  # (lo, hi, sub), in byte order
    mul: int
    weight: int
    node: Node


@dataclass(frozen=True)
class Node:
    state: int
    depth: int  # the position (from the lead, 0) of the byte its steps test
    steps: tuple[Step, ...]
    leaf: Leaf | None  # a final state: the token ends here
    most: int  # the longest path below, in bytes from the lead
    dead: tuple[tuple[int, int], ...] = ()  # bytes on which no way goes on: an error of *depth* bytes


def _runs(bytes_: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for b in sorted(bytes_):
        if out and out[-1][1] + 1 == b:
            out[-1] = (out[-1][0], b)
        else:
            out.append((b, b))
    return out


def _leaf(a: Automaton, s: int, ops: tuple) -> Leaf | None:
    """The leaf of final state *s* reached by the digit operations *ops* ((mul, weight,
    least digit, greatest digit) per byte), when uint64 arithmetic gives its code point
    exactly (never below 0, below 2**63)."""
    act = a.action_at(s)
    if isinstance(act, Value):  # a sequence of code points (a tuple) is the core's to write
        v = act.value
        return Leaf("value", value=v, low=v, high=v) if isinstance(v, int) and 0 <= v < _VALUE_LIMIT else None
    coefs, m = [], 1  # each byte's digit's weight in the final acc
    for mul, weight, d0, d1 in reversed(ops):
        coefs.append((weight * m, d0, d1))
        m *= mul
    lo = sum(c * d0 for c, d0, _ in coefs)
    hi = sum(c * d1 for c, _, d1 in coefs)
    if lo < 0 or hi >= _VALUE_LIMIT:
        return None
    if isinstance(act, Char):
        low, high = lo + act.offset, hi + act.offset
        return Leaf("char", offset=act.offset, low=low, high=high) if 0 <= low and high < _VALUE_LIMIT else None
    if isinstance(act, Pair):
        split = act.split
        # the digits below the split make the low half when they cannot carry into the high one
        lows = [(c, d0, d1) for c, d0, d1 in coefs if c % split]
        l0, l1 = sum(c * d0 for c, d0, _ in lows), sum(c * d1 for c, _, d1 in lows)
        if 0 <= l0 and l1 < split:
            h0 = sum(c // split * d0 for c, d0, _ in coefs if not c % split)
            h1 = sum(c // split * d1 for c, _, d1 in coefs if not c % split)
        else:
            h0, h1, l0, l1 = lo // split, hi // split, 0, split - 1
        low = 0x10000 + ((h0 + act.offset - 0xD800) << 10) + (l0 + act.offset - 0xDC00)
        high = 0x10000 + ((h1 + act.offset - 0xD800) << 10) + (l1 + act.offset - 0xDC00)
        if low < 0 or high >= _VALUE_LIMIT:
            return None
        return Leaf("pair", offset=act.offset, split=split, low=low, high=high)
    return None


def _tree(a: Automaton, start: int) -> Node | None:
    cbytes = a.class_bytes()
    budget = [_NODE_BUDGET]

    def node(s: int, depth: int, ops: tuple, accepted: bool) -> Node | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if depth and a.final(s):
            leaf = _leaf(a, s, ops)
            return Node(s, depth, (), leaf, depth) if leaf is not None else None
        if depth == MAX_DEPTH:
            return None
        groups: dict = {}
        for c in range(a.n_classes):
            t = a.next[s][c]
            if t == DEAD or t >= a.n_states:  # dead, or a counted form: the walk's
                continue
            op = a.ops[s][c]
            mul, sub, weight = op if op is not None else (1, 0, 0)
            for b in cbytes[c]:
                groups.setdefault((t, mul, weight), []).append((b, sub))
        steps = []
        for (t, mul, weight), members in sorted(groups.items(), key=lambda kv: min(kv[1])):
            if mul < 0 or weight < 0:
                continue
            digits = [b - sub for b, sub in members]
            child = node(t, depth + 1, ops + ((mul, weight, min(digits), max(digits)),),
                         accepted or a.accept[s] is not None)
            if child is None:
                continue
            subs: list[tuple[int, int, int]] = []
            for b, sub in sorted(members):
                if subs and subs[-1][1] + 1 == b and subs[-1][2] == sub:
                    subs[-1] = (subs[-1][0], b, sub)
                else:
                    subs.append((b, b, sub))
            steps.append(Step(tuple(_runs([b for b, _ in members])), tuple(subs), mul, weight, child))
        # the error _run makes when the automaton dies here with no accepting state
        # passed: the maximal subpart, the bytes read (other error spans: the walk's)
        dead = () if not depth or accepted or a.accept[s] is not None or a.error_span != "maximal-subpart" \
            else tuple(_runs([b for b in range(256) if a.step(s, b) == DEAD]))
        if not steps:
            # no way on the tree takes (a counted form's prefix, UTF-∞-8's FF): still its
            # errors here, the byte at *depth* read
            return Node(s, depth, (), None, depth + 1, dead) if dead else None
        return Node(s, depth, tuple(steps), None, max(st.node.most for st in steps), dead)

    return node(start, 0, (), False)


def _paths(root: Node) -> list[tuple[tuple[tuple[tuple[int, int], ...], ...], Leaf]]:
    """Every way down the tree: (per position its byte ranges, the leaf)."""
    out = []

    def walk(n: Node, prefix):
        if n.leaf is not None:
            out.append((tuple(prefix), n.leaf))
        for st in n.steps:
            walk(st.node, prefix + [st.ranges])

    walk(root, [])
    return out


def _identity(a: Automaton, start: int) -> set[int]:
    """The bytes that are, from *start*, a one-byte character standing for itself."""
    out = set()
    for b in range(256):
        t = a.step(start, b)
        if t == DEAD or t >= a.n_states or not a.final(t):
            continue
        act = a.action_at(t)
        op = a.ops[start][a.classes[b]]
        acc = (b - op[1]) * op[2] if op is not None else 0
        if isinstance(act, Char) and acc + act.offset == b:
            out.add(b)
    return out


def _reserved_runs(a: Automaton, start: int) -> list[dict]:
    """The leads from *start* that begin a reserved run: the lead's state accepts as
    reserved and goes on only to itself (Corrected UTF-8's FE, FF, then bytes 80..BF),
    so the token is the lead and the bytes that keep it there, the longest match."""
    by_state: dict = {}
    for b in range(256):
        t = a.step(start, b)
        if t == DEAD or t >= a.n_states or not isinstance(a.action_at(t), Reserved):
            continue
        if all(a.step(t, x) in (t, DEAD) for x in range(256)):
            by_state.setdefault(t, []).append(b)
    out = []
    for t, leads in sorted(by_state.items()):
        more = _runs([x for x in range(256) if a.step(t, x) == t])
        out.append({"test": _test(_runs(leads), "b0"), "text": _text(_runs(leads)),
                    "more": _test(more, "c") if more else "0", "more_text": _text(more) or "nothing"})
    return out


def _test(ranges, var: str) -> str:
    """A C expression: whether the byte *var* (an unsigned) is in *ranges*."""
    parts = []
    for lo, hi in ranges:
        if lo == 0 and hi == 0xFF:
            return "1"
        if lo == hi:
            parts.append(f"{var} == 0x{lo:02X}u")
        elif lo == 0:
            parts.append(f"{var} <= 0x{hi:02X}u")
        elif hi == 0xFF:
            parts.append(f"{var} >= 0x{lo:02X}u")
        else:
            parts.append(f"{var} - 0x{lo:02X}u <= 0x{hi - lo:02X}u")
    return " | ".join(f"({p})" for p in parts) if len(parts) > 1 else parts[0]  # no branch per range


def _sub(subs, var: str) -> str:
    """A C expression: the subtrahend of byte *var*, constant on each run of *subs*."""
    cuts: list[tuple[int, int]] = []  # (first byte, sub) where the sub changes
    for lo, _, sub in subs:
        if not cuts or cuts[-1][1] != sub:
            cuts.append((lo, sub))
    expr = f"{cuts[-1][1]}u"
    for (lo, _), (_, sub) in zip(reversed(cuts[1:]), reversed(cuts[:-1])):
        expr = f"({var} < 0x{lo:02X}u ? {sub}u : {expr})"
    return expr


def _text(ranges) -> str:
    return ",".join(f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}" for lo, hi in ranges)


def _bitmap(ranges, var: str, sets: list) -> str:
    """A C expression: whether *var* is in *ranges*, read from a 256-bit set (one load,
    no branch per range: a trail byte of UTF-1 is in either of two runs at random)."""
    words = [0, 0, 0, 0]
    for lo, hi in ranges:
        for b in range(lo, hi + 1):
            words[b >> 6] |= 1 << (b & 63)
    key = tuple(words)
    if key not in [s["words"] for s in sets]:
        sets.append({"id": len(sets), "words": key, "text": _text(ranges),
                     "hex": [f"UINT64_C(0x{w:016X})" for w in words]})
    k = [s["words"] for s in sets].index(key)
    return f"(nx_set{k}[{var} >> 6] >> ({var} & 63) & 1)"


def _cps(leaf: Leaf) -> str:
    return f"U+{leaf.low:04X}" + (f"..U+{leaf.high:04X}" if leaf.high != leaf.low else "")


def _digits(subs, var: str, sets: list) -> str:
    """A C expression: whether *var* is one of the bytes of *subs*, its digit (byte - sub)
    left in g: one load where the subtrahend changes from run to run (UTF-1's trail
    bytes: 21..7E are 00..5D, A0..FF are 5E..BD)."""
    table = [0xFF] * 256
    for lo, hi, sub in subs:
        for b in range(lo, hi + 1):
            table[b] = b - sub
    key = ("digits", tuple(table))
    if key not in [s["words"] for s in sets]:
        sets.append({"id": len(sets), "words": key, "text": ",".join(f"{lo:02X}..{hi:02X} - {sub}" for lo, hi, sub in subs),
                     "digits": [", ".join(f"0x{v:02X}" for v in table[k:k + 16]) for k in range(0, 256, 16)]})
    k = [s["words"] for s in sets].index(key)
    return f"(g = nx_dig{k}[{var}]) != 0xFFu"


def _c_node(n: Node, sets: list) -> dict:
    """The template's view of a node: C expressions for its steps (*sets*: the byte sets
    tested by bitmap, gathered)."""
    var = f"b{n.depth}"
    steps = []
    for st in n.steps:
        digit = None
        if st.weight == 0:
            update = "acc" if st.mul == 1 else f"acc * {st.mul}u"
        else:
            if n.depth and len({sub for _, _, sub in st.subs}) > 1 and \
                    all(0 <= lo - sub and hi - sub < 0xFF for lo, hi, sub in st.subs):
                digit = "(uint64_t)g"  # the digit read from a table with the test (_digits)
            else:
                sub = _sub(st.subs, var)
                digit = f"(uint64_t){var}" if sub == "0u" else f"((uint64_t){var} - {sub})"
            term = digit if st.weight == 1 else f"{digit} * {st.weight}u"
            update = term if n.depth == 0 else \
                (f"acc + {term}" if st.mul == 1 else f"acc * {st.mul}u + {term}")
        if n.depth == 0 and st.weight == 0:
            update = "0"
        if digit == "(uint64_t)g":
            test = _digits(st.subs, var, sets)
        else:
            test = _test(st.ranges, var) if len(st.ranges) == 1 or n.depth == 0 else _bitmap(st.ranges, var, sets)
        steps.append({"test": test, "acc": update, "text": _text(st.ranges), "node": _c_node(st.node, sets)})
    leaf = None
    if n.leaf is not None:
        lf = n.leaf
        if lf.kind == "char":
            value = "acc" if lf.offset == 0 else f"acc + UINT64_C({lf.offset})"
        elif lf.kind == "value":
            value = f"UINT64_C({lf.value})"
        else:
            off = f" + UINT64_C({lf.offset})" if lf.offset else ""
            value = (f"UINT64_C(0x10000) + ((acc / {lf.split}u{off} - 0xD800u) << 10)"
                     f" + (acc % {lf.split}u{off} - 0xDC00u)")
        leaf = {"value": value, "len": n.depth, "text": _cps(lf), "low": lf.low, "high": lf.high}
    dead = None
    if n.dead:
        dead = _test(n.dead, var) if len(n.dead) == 1 else _bitmap(n.dead, var, sets)
    return {"depth": n.depth, "var": var, "steps": steps, "leaf": leaf, "most": n.most, "dead": dead,
            "dead_text": _text(n.dead)}


def form_plan(a: Automaton, start: int = 0) -> dict | None:
    """The straight paths from *start* for the template, or None (code units wider
    than a byte, mapping tables — their own loops — or no path)."""
    if a.unit != 1 or a.tables or start not in a.starts:
        return None
    root = _tree(a, start)
    if root is None:
        return None
    ident = _identity(a, start)
    ascii = 2 if ident >= set(range(0x80)) else 1 if ident >= set(range(1, 0x80)) else 0
    paths = _paths(root)
    dead = _runs([b for b in range(256) if a.step(start, b) == DEAD])
    sets: list = []
    leads = [{"index": k, "test": st["test"], "text": st["text"], "acc": st["acc"], "node": st["node"],
              "most": st["node"]["most"], "low": min((leaf.low for _, leaf in _paths(step.node)), default=None)}
             for k, (st, step) in enumerate(zip(_c_node(root, sets)["steps"], root.steps))]
    return {
        "start": start,
        "root": root,
        "paths": paths,
        "leads": leads,
        "most": root.most,
        "sets": [t for t in sets if "hex" in t],
        "digit_tables": [t for t in sets if "digits" in t],
        "ascii": ascii,
        "reserved": _reserved_runs(a, start) if a.accept[start] is None else [],
        # the str kinds that get a run loop of their own (nx_forms_KIND): 2 and 4 bytes a
        # character, whose top is a constant (1 byte: its limit is the caller's)
        "kinds": [{"name": "ucs2", "type": "Py_UCS2", "top": 0xFFFF, "size": 2},
                  {"name": "ucs4", "type": "Py_UCS4", "top": 0x10FFFF, "size": 4}],
        "dead": _test(dead, "(unsigned)(b)") if dead else None,  # bytes no token starts with: an error of one byte
        "dead_text": _text(dead),  # 2: bytes 00..7F stand for themselves; 1: 01..7F (00 does not); 0: neither
        "path_text": [" ".join(_text(p) for p in pos) + "  ->  " + _cps(leaf)
                      + ("" if leaf.kind == "char" else f" ({leaf.kind})") for pos, leaf in paths],
    }
