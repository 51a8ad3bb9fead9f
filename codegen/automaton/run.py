"""A reference tokenizer that walks the automaton's plain data.

Slow and simple on purpose: analyses and ``encspec vectors`` use it to compute
expected tokens, and the generated decoders are tested against it and against
the hand-written oracles.  Longest match: remember the last accepting state and
fall back to it when the automaton dies; with none, the error covers the bytes
read (the maximal subpart), at least one.
"""
from __future__ import annotations

from typing import Iterator, Optional

from ..spec.model import evaluate
from . import DEAD, Automaton
from .counted import _digit, _tuple_expr

Token = tuple  # (kind, start, end, value, reason)


def value_of(action: dict, acc: int) -> int:
    if "value" in action:
        return action["value"]
    if action.get("combine") == "surrogate-pair":
        hi, lo = divmod(acc, action["split"])
        hi, lo = hi + action["offset"], lo + action["offset"]
        return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
    return acc + action["offset"]


def scan(a: Automaton, data: bytes, pos: int, final: bool = True) -> Optional[Token]:
    """The token at *pos*, or None when more data could change it (final=False)."""
    state, acc, i = 0, 0, pos
    last = None
    n = a.n_states
    while True:
        if i == len(data):
            if not final:
                return None
            why = "unexpected end of data"
            break
        b = data[i]
        c = a.classes[b]
        nxt = a.next[state][c]
        if nxt == DEAD:
            why = "invalid start byte" if i == pos else "invalid continuation byte"
            break
        if nxt >= n:
            got = scan_counted(a.extensions[nxt - n], data, pos, i, final)
            if got is None:
                return None
            if got[0] == "char" or last is None:
                return got
            break
        op = a.ops[state][c]
        if op is not None:
            acc = acc * op[0] + b - op[1]
        state, i = nxt, i + 1
        if a.accept[state] is not None:
            last = (i, a.accept[state], acc)
            if all(t == DEAD for t in a.next[state]):
                break
    if last is not None:
        end, index, acc = last
        action = a.actions[index]
        if action["kind"] == "char":
            return ("char", pos, end, value_of(action, acc), None)
        if action["kind"] == "error":
            return ("error", pos, end, None, action["reason"])
        return ("reserved", pos, end, None, "reserved sequence")
    return ("error", pos, max(i, pos + 1), None, why)


def scan_counted(ext: dict, data: bytes, pos: int, i: int, final: bool) -> Optional[Token]:
    """Continue a counted form at data[i:] (its bounded prefix began at pos)."""
    env: dict[str, int] = {}
    value = 0
    lo = hi = None

    def stop(at: int, why: str) -> Optional[Token]:
        if at == len(data) and not final:
            return None
        return ("error", pos, max(at, pos + 1), None, why)

    for item in ext["items"]:
        runs = item["runs"]
        if item["binds"]:
            k = 0
            while i < len(data) and _digit(runs, data[i]) is not None:
                i, k = i + 1, k + 1
            if i == len(data):
                return stop(i, "unexpected end of data")
            env[item["binds"]] = k
            continue
        count = evaluate(_tuple_expr(item["count"]), env)
        if item["field"] is None and lo is None:
            lo = max(evaluate(_tuple_expr(ext["range"][0]), env), ext["min"] - ext["offset"])
            hi = evaluate(_tuple_expr(ext["range"][1]), env)
        number = 0
        for j in range(count):
            if i == len(data):
                return stop(i, "unexpected end of data")
            d = _digit(runs, data[i])
            if d is None or (item["shortest"] and j == 0 and d == 0 and count > 1):
                return stop(i, "invalid continuation byte")
            number = number * item["radix"] + d
            if item["field"] is None:
                span = item["radix"] ** (count - j - 1)
                if number * span > hi or (number + 1) * span - 1 < lo:
                    return stop(i, "invalid continuation byte")
            i += 1
        if item["field"]:
            env[item["field"]] = number
        else:
            value = number
    return ("char", pos, i, value + ext["offset"], None)


def tokens(a: Automaton, data: bytes) -> Iterator[Token]:
    """Every token of *data* (a whole document): signature, chars, errors, reserved runs."""
    pos = 0
    if a.signature and data.startswith(a.signature):
        yield ("signature", 0, len(a.signature), None, None)
        pos = len(a.signature)
    while pos < len(data):
        tok = scan(a, data, pos)
        yield tok
        pos = tok[2]
