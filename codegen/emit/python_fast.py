"""The Python backend's fast path: spec-specific code for the common case.

A byte pattern qualifies when every byte string it matches drives the
automaton into a *final* accepting state: such a sequence is a whole token
whatever follows, so a regex may cut runs of them without changing the
longest-match semantics.  Single bytes that stand for themselves decode with
the built-in latin-1 codec; other sequences get straight-line arithmetic per
form (Horner over the digit positions, then the row's offset).
"""
from __future__ import annotations

from ..automaton import DEAD, Automaton
from ..automaton.bytesets import byte_runs as _runs_of
from ..automaton.forms import CompositeForm, LiteralForm
from ..runtime.tables import scan


def one_line(text: str) -> str:
    """*text* fit for a comment: one line, every character printable (others escaped)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _cls(runs) -> str:
    return "[" + "".join(f"\\x{lo:02x}" if lo == hi else f"\\x{lo:02x}-\\x{hi:02x}" for lo, hi in runs) + "]"


def _pattern_regex(pattern) -> str:
    return "".join(_cls(pos) for pos in pattern)


def _ends_final(a: Automaton, pattern, action: int) -> bool:
    states = {0}
    for pos in pattern:
        nxt = set()
        for s in states:
            for lo, hi in pos:
                for b in range(lo, hi + 1):
                    t = a.step(s, b)
                    if t == DEAD or t >= a.n_states:
                        return False
                    nxt.add(t)
        states = nxt
    return all(a.final(s) and a.accept[s] == action for s in states)




def _horner(positions, start: int, subs: list[str], order=None) -> str:
    """Straight-line arithmetic for the raw value: the digits most significant first
    (in *order*, or byte order), each from its byte."""
    expr = ""
    for k in order or range(len(positions)):
        runs = positions[k]
        radix = sum(hi - lo + 1 for lo, hi in runs)
        if len(runs) == 1:
            digit = f"p[{start + k}] - 0x{runs[0][0]:02X}" if start + k else f"b - 0x{runs[0][0]:02X}"  # one run: sub = its first byte
        else:
            table = f"_DIGITS{len(subs)}"
            subs.append(repr(bytes(_digit_table(runs))))
            digit = f"{table}[p[{start + k}]]"
        expr = f"({digit})" if not expr else f"({expr}) * {radix} + ({digit})"
    return expr or "0"


def _digit_table(runs) -> list[int]:
    table = [0] * 256
    base = 0
    for lo, hi in runs:
        for b in range(lo, hi + 1):
            table[b] = base + b - lo
        base += hi - lo + 1
    return table


def fast_path(a: Automaton) -> dict:
    """Template context: latin byte class and piece regexes (as bytes literals), and
    _piece_value's source."""
    latin = set()
    for b in range(256):
        t = a.step(0, b)
        if 0 <= t < a.n_states and a.final(t):
            tok = scan(a, bytes([b]), 0)
            if tok[0] == "char" and tok[3] == b:
                latin.add(b)
    alternatives, branches, tables = [], [], []
    bytes_at: dict[tuple, list] = {}  # (form, length) -> per position, the bytes its pieces have there
    pieces: dict[tuple, list] = {}
    first_row = {}
    for row, patterns in zip(a.rows, a.row_patterns):
        if row.length == 1 and all(p[0][0][0] in latin for p in patterns):
            continue
        action = _action_of(a, patterns[0])
        good = [p for p in patterns if action is not None and _ends_final(a, p, action)]
        key = (row.form, row.length)
        for p in good:
            sets = bytes_at.setdefault(key, [set() for _ in p])
            for k, pos in enumerate(p):
                sets[k].update(b for lo, hi in pos for b in range(lo, hi + 1))
            pieces.setdefault(key, []).append(_pattern_regex(p))
            first_row.setdefault(key, row)
    # a piece's form is told by its length and its bytes: forms whose pieces share a
    # length and overlap at every position (WTF-16's units) cannot be, so they go
    # through the automaton instead
    keys = list(bytes_at)
    clash = {k for k in keys for j in keys if j != k and j[1] == k[1]
             and all(x & y for x, y in zip(bytes_at[k], bytes_at[j]))}
    for key in keys:
        if key in clash:
            continue
        alternatives += pieces[key]
        row = first_row[key]
        others = [bytes_at[j] for j in keys if j != key and j[1] == key[1] and j not in clash]
        branches.append(_branch(a, row, a.forms[row.form], bytes_at[key], others, tables))
    return {
        "latin": repr(_cls(_runs_of(latin)).encode("ascii")) if latin else "None",
        "pieces": [repr(p.encode("ascii")) for p in alternatives],
        "branches": branches,
        "digit_tables": tables,
    }


def _action_of(a: Automaton, pattern):
    s = 0
    for pos in pattern:
        s = a.step(s, pos[0][0])
        if s == DEAD or s >= a.n_states:
            return None
    return a.accept[s]


def _branch(a: Automaton, row, form, bytes_at, others, tables) -> dict:
    """One form's branch of _piece_value: told by the piece's length and its bytes at
    the first positions, as many as it takes to tell it from the other forms of that
    length (*others*: their bytes per position)."""
    conds = []
    for k, got in enumerate(bytes_at):
        if len(got) < 256:
            name = "b" if k == 0 else f"p[{k}]"
            conds.append(" or ".join(f"0x{lo:02X} <= {name} <= 0x{hi:02X}" if lo != hi else f"{name} == 0x{lo:02X}"
                                     for lo, hi in _runs_of(got)))
        others = [o for o in others if o[k] & got]
        if not others:
            break
    cond = " and ".join(f"({c})" for c in conds) if conds else "True"
    head = f"if n == {row.length} and {cond}:  # " + one_line(f"form {row.form} (spec line {row.line})")
    if isinstance(form, LiteralForm):
        return {"head": head, "body": [f"return 0x{row.first:X}"]}
    if isinstance(form, CompositeForm):
        sub = a.forms[form.sub]
        half = len(sub.positions)
        hi = _horner(sub.positions, 0, tables)
        lo = _horner(sub.positions, half, tables)
        return {"head": head, "body": [
            f"hi = {hi} + {sub.at}",
            f"lo = {lo} + {sub.at}",
            "return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)"]}
    body = [f"raw = {_horner(form.positions, 0, tables, form.order)}"]
    same = [r for r in a.rows if r.form == row.form and r.length == row.length]
    if len({r.offset for r in same}) == 1:
        body.append(f"return raw + {row.offset}")
    else:
        for r in sorted(same, key=lambda r: r.raw_lo)[:-1]:
            body.append(f"if raw <= {r.raw_hi}:")
            body.append(f"    return raw + {r.offset}")
        body.append(f"return raw + {max(same, key=lambda r: r.raw_lo).offset}")
    return {"head": head, "body": body}
