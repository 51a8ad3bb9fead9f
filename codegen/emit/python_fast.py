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




def _horner(positions, start: int, subs: list[str]) -> str:
    expr = ""
    for k, runs in enumerate(positions):
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
    leads: dict[tuple, set] = {}
    first_row = {}
    for row, patterns in zip(a.rows, a.row_patterns):
        if row.length == 1 and all(p[0][0][0] in latin for p in patterns):
            continue
        action = _action_of(a, patterns[0])
        good = [p for p in patterns if action is not None and _ends_final(a, p, action)]
        alternatives += [_pattern_regex(p) for p in good]
        key = (row.form, row.length)
        for p in good:
            leads.setdefault(key, set()).update(b for lo, hi in p[0] for b in range(lo, hi + 1))
            first_row.setdefault(key, row)
    for key, lead_set in leads.items():
        row = first_row[key]
        branches.append(_branch(a, row, a.forms[row.form], _runs_of(lead_set), tables))
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


def _branch(a: Automaton, row, form, leads, tables) -> dict:
    cond = " or ".join(f"0x{lo:02X} <= b <= 0x{hi:02X}" if lo != hi else f"b == 0x{lo:02X}" for lo, hi in leads)
    head = f"if n == {row.length} and ({cond}):  # " + one_line(f"form {row.form} (spec line {row.line})")
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
    body = [f"raw = {_horner(form.positions, 0, tables)}"]
    same = [r for r in a.rows if r.form == row.form and r.length == row.length]
    if len({r.offset for r in same}) == 1:
        body.append(f"return raw + {row.offset}")
    else:
        for r in sorted(same, key=lambda r: r.raw_lo)[:-1]:
            body.append(f"if raw <= {r.raw_hi}:")
            body.append(f"    return raw + {r.offset}")
        body.append(f"return raw + {max(same, key=lambda r: r.raw_lo).offset}")
    return {"head": head, "body": body}
