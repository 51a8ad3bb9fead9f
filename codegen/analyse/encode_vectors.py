"""Encode vectors: texts and what the encoder writes for them (issue 28).

The counterpart of :mod:`encspec.analyse.vectors` for encoders, read by every
exported package's own tests (``generated/vectors/NAME.encode.jsonl``).  The
texts come from walking the automaton's plain data — correct text, the first
and last code point of each row and of each table's runs, the encoder-only
entries, the sequences of code points (whole, cut, the starter alone), then
what cannot be encoded: surrogates alone and paired, code points past the code
space, a hole of the rows, runs of them, at the start, in the middle and at the
end.  The expected bytes and errors come from the core bound to the automaton
(``encode(code_points, errors, signature=False)``), never from the spec.

One JSON object a line: ``code_points`` (hex), ``strict`` (``{"bytes": HEX}`` or
``{"error": [start, end, reason]}``, code point indices), ``replace`` (the bytes
under errors="replace", or null where that raises too) and ``note``.
"""
from __future__ import annotations

import json

from ..automaton import Automaton
from ..runtime.tables import bind, encoded, sequences

LIMIT = 0xFFFFFFFF  # exported encoders take 32-bit code points
PER_TABLE = 6  # runs of a table whose ends are cases


def _u(cps) -> str:
    return " ".join(f"U+{c:04X}" for c in cps)


def _unencodable(a: Automaton, limit: int = 0x30000) -> list[int]:
    """A few code points the encoder refuses: surrogates, past the code space, a hole."""
    out = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0x7FFFFFFF, LIMIT]
    if a.max_code_point is not None and a.max_code_point < LIMIT:
        out.append(a.max_code_point + 1)
    found = 0
    for cp in range(0, limit):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        if encoded(a, cp) is None:
            out.append(cp)
            found += 1
            if found == 3:
                break
    return [c for c in dict.fromkeys(out) if encoded(a, c) is None]


def _texts(a: Automaton) -> list[tuple[tuple[int, ...], str]]:
    ok: list[tuple[int, str]] = []
    for r in a.encoding_rows():
        ok += [(r.first, f"first of row (spec line {r.line})"), (r.last, f"last of row (spec line {r.line})")]
    for t in a.tables:
        entries = list(t.entries()) if t.ranges else []
        if not t.ranges:
            mapped = [v for v in t.values if v >= 0]
            picks = [mapped[i * (len(mapped) - 1) // max(1, PER_TABLE - 1)] for i in range(PER_TABLE)] if mapped else []
            ok += [(cp, f"table {t.name}") for cp in picks]
        else:
            for first_p, last_p, first_cp in entries[:PER_TABLE // 2] + entries[-PER_TABLE // 2:]:
                ok += [(first_cp, f"table {t.name} run"), (first_cp + last_p - first_p, f"table {t.name} run end")]
    ok += [(cp, "encoder-only entry") for cp, _ in a.encode_only]
    good = [(cp, note) for cp, note in dict(ok).items() if cp <= LIMIT and encoded(a, cp) is not None]
    out: list[tuple[tuple[int, ...], str]] = []
    if good:
        out.append((tuple(cp for cp, _ in good[:8]), "correct text: " + ", ".join(n for _, n in good[:3])))
    out += [((cp,), note) for cp, note in good]
    for cps, _ in sequences(a):
        out.append((tuple(cps), "sequence of code points written as one"))
        out.append((tuple(cps[:1]), "a sequence's starter alone"))
        out.append((tuple(cps[:1]) + (0x41,) + tuple(cps[1:]), "a sequence's starter, then another code point"))
        out.append((tuple(cps) + tuple(cps), "a sequence twice"))
    bad = _unencodable(a)
    base = good[0][0] if good else 0x41
    for cp in bad:
        out.append(((cp,), "unencodable alone"))
        out.append(((base, cp, base), "unencodable between two encodable"))
    if len(bad) >= 2:
        out.append(((base, bad[0], bad[1], base), "a run of two unencodable code points"))
        out.append(((bad[0], bad[-1]), "unencodable at the start and the end"))
    out.append(((0xD800, 0xDC00), "a lead surrogate then a trail surrogate"))
    out.append(((base, 0xDBFF, 0xDFFF, base), "a surrogate pair of code points between two encodable"))
    out.append(((), "the empty text"))
    seen: set = set()
    return [(cps, note) for cps, note in out if not (cps in seen or seen.add(cps))]  # type: ignore[func-returns-value]


def cases(a: Automaton) -> list[dict]:
    """Every case as the jsonl line's object."""
    core = bind(a)
    out = []
    for cps, note in _texts(a):
        try:
            strict: dict = {"bytes": core.encode(list(cps), "strict", signature=False).hex().upper()}
        except UnicodeEncodeError as e:
            strict = {"error": [e.start, e.end, e.reason]}
        try:
            replace: str | None = core.encode(list(cps), "replace", signature=False).hex().upper()
        except UnicodeEncodeError:
            replace = None
        out.append({"code_points": [f"{c:X}" for c in cps], "strict": strict, "replace": replace,
                    "note": f"{note}: {_u(cps)}" if cps else note})
    return out


def jsonl(a: Automaton) -> str:
    return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases(a))
