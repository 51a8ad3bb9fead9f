"""``encspec vectors``: a conformance test file, in the spirit of Markus Kuhn's
UTF-8 decoder capability and stress test, computed from the automaton.

Every case is a byte string, a note for a person and the expected tokens, which
come from the decoder core bound to the automaton (``runtime.tables.tokens``) — never from the
spec.  The cases are chosen by walking the automaton's plain data:

1. correct text;
2. boundary code points of every row (first, last, next to them), around holes
   and skips, and the first levels of counted forms;
3. malformed sequences: bytes that cannot start a sequence, bytes that occur in
   no valid sequence, each lead byte with each class of byte that cannot follow
   it, each automaton state with each class that cannot follow it, truncations
   at every position, and concatenations of them;
4. overlong sequences (raw values below a form's minimum);
5. values the forms can spell but the encoding excludes: beyond the code space,
   holes (surrogates singly and paired), the spec's ill-formed patterns;
6. reserved runs; 7. signatures at and after offset 0; 8. counted-form headers.

Cases are deduplicated (the first occurrence wins), so the file's inputs are
``vector_inputs(automaton)``, in order.
"""
from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from math import prod
from typing import Optional

from ..automaton.bytesets import runs_text as _runs
from ..automaton import DEAD, Automaton
from ..automaton.counted import encode_counted, encode_level, levels
from ..spec.model import DigitSet
from ..runtime.tables import tokens as run_tokens


@dataclass
class Case:
    data: bytes
    note: str
    id: str = ""
    tokens: list = field(default_factory=list)  # (kind, start, end, value, reason)


@dataclass
class Section:
    title: str
    number: str = ""
    cases: list = field(default_factory=list)      # Case
    subsections: list = field(default_factory=list)  # Section


# ---------------------------------------------------------------- helpers

def _hex(b: bytes) -> str:
    return " ".join(f"{x:02X}" for x in b) if b else "(empty)"


def _u(cp: int) -> str:
    return f"U+{cp:04X}"






def _paths(a: Automaton, largest: bool) -> dict[int, bytes]:
    """Shortest, then byte-wise smallest (or largest), path from the start to every DFA state."""
    reps = [bs[-1] if largest else bs[0] for bs in a.class_bytes()]
    order = sorted(range(a.n_classes), key=lambda c: -reps[c] if largest else reps[c])
    paths = {0: b""}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        for c in order:
            t = a.next[s][c]
            if t != DEAD and t < a.n_states and t not in paths:
                paths[t] = paths[s] + bytes([reps[c]])
                queue.append(t)
    return paths


def _min_paths(a: Automaton) -> dict[int, bytes]:
    return _paths(a, largest=False)


def _max_paths(a: Automaton) -> dict[int, bytes]:
    return _paths(a, largest=True)


def _starts(a: Automaton) -> set[int]:
    """Bytes that can start a sequence (including counted forms and reserved runs)."""
    return {b for b in range(256) if a.step(0, b) != DEAD}


def _used(a: Automaton) -> set[int]:
    """Bytes that occur anywhere in some sequence the automaton reads."""
    cb = a.class_bytes()
    used = set()
    for row in a.next:
        for c, t in enumerate(row):
            if t != DEAD:
                used.update(cb[c])
    for ext in a.extensions:
        used.update(ext.prefix_bytes)
        for item in ext.items:
            for lo, hi in item.runs:
                used.update(range(lo, hi + 1))
    return used


def _safe_byte(a: Automaton) -> Optional[int]:
    """A one-byte character that can follow no other byte: it ends any sequence before it."""
    def ok(b):
        s = a.step(0, b)
        if s == DEAD or s >= a.n_states or a.accept[s] is None:
            return False
        if not a.accepts_char(s) or any(t != DEAD for t in a.next[s]):
            return False
        if any(a.step(x, b) != DEAD for x in range(1, a.n_states)):
            return False
        return not any(lo <= b <= hi for e in a.extensions for it in e.items for lo, hi in it.runs)
    for b in [0x20, 0x41, 0x30] + list(range(256)):
        if ok(b):
            return b
    return None


def _linear_forms(a: Automaton) -> dict[str, dict]:
    """Per linear form: capacity, its rows' raw span, and its one offset if it has one."""
    out = {}
    for f, rows in a.digit_forms():
        name = f.name
        cap = prod(sum(hi - lo + 1 for lo, hi in runs) for runs in f.positions)
        offsets = {r.offset for r in rows}
        out[name] = {
            "positions": f.positions, "capacity": cap, "rows": sorted(rows, key=lambda r: r.raw_lo),
            "raw_lo": min(r.raw_lo for r in rows), "raw_hi": max(r.raw_hi for r in rows),
            "offset": offsets.pop() if len(offsets) == 1 else None, "length": rows[0].length,
        }
    return out


def _raw_bytes(pos, raw: int) -> bytes:
    from ..automaton import digits_to_bytes as _digits_to_bytes
    return _digits_to_bytes(pos, raw)


def _form_bytes(a: Automaton, cp: int) -> Optional[bytes]:
    """The bytes a direct form would spell for *cp* (valid or not), shortest form first."""
    forms = _linear_forms(a)
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        if f["offset"] is None:
            continue
        raw = cp - f["offset"]
        if f["raw_lo"] <= raw <= f["raw_hi"] and raw < f["capacity"]:
            return _raw_bytes(f["positions"], raw)
    return None


def _describe_tokens(toks) -> str:
    return "; ".join(_token_text(t) for t in toks)


def _token_text(t) -> str:
    kind, start, end, value, reason = t
    if kind == "char":
        return f"char {start} {end} {value:X}"
    if kind == "error" and reason:
        return f"error {start} {end} ({reason})"
    return f"{kind} {start} {end}"


# ---------------------------------------------------------------- the cases

def sections(a: Automaton) -> list[Section]:
    """The conformance file's sections, each case with its expected tokens."""
    cb = a.class_bytes()
    safe = _safe_byte(a)
    tail = bytes([safe]) if safe is not None else b""
    tail_note = f" then {safe:02X}" if safe is not None else ""
    mins, maxs = _min_paths(a), _max_paths(a)
    starts = _starts(a)
    forms = _linear_forms(a)
    rows = sorted(a.rows, key=lambda r: (r.first, r.length))
    out: list[Section] = []

    # 1 correct text
    s1 = Section("Some correct text")
    for text, what in (("κόσμε", "Greek word 'kosme' (Kuhn 1)"), ("A\u00e9\u20ac\U0001F600", "A, é, €, 😀")):
        parts = [a.encode(ord(ch)) for ch in text]
        if all(p is not None for p in parts):
            s1.cases.append(Case(b"".join(parts), what + ": " + " ".join(_u(ord(ch)) for ch in text)))
    out.append(s1)

    # 2 boundaries
    s2 = Section("Boundary code points")
    for n, r in enumerate(rows, 1):
        sub = Section(f"Row {n}: form {r.form}, {r.length} byte{'s' if r.length > 1 else ''}, "
                      f"{_u(r.first)}..{_u(r.last)}, offset {r.offset}")
        for cp, what in ((r.first, "first"), (r.first + 1, "second"), (r.last - 1, "second to last"),
                         (r.last, "last")):
            if r.first <= cp <= r.last:
                sub.cases.append(Case(a.encode_row(r, cp), f"{what} code point of the row: {_u(cp)}"))
        s2.subsections.append(sub)
    gaps = [("hole", lo, hi) for lo, hi in a.holes] + [("skip", lo, hi) for lo, hi in a.skips]
    if gaps:
        sub = Section("Around holes and skips")
        for kind, lo, hi in sorted(gaps, key=lambda g: g[1]):
            for cp, what in ((lo - 1, f"just below the {kind} {_u(lo)}..{_u(hi)}"),
                             (hi + 1, f"just above the {kind} {_u(lo)}..{_u(hi)}")):
                b = a.encode(cp) if cp >= 0 else None
                if b is not None:
                    sub.cases.append(Case(b, f"{_u(cp)}, {what}"))
        s2.subsections.append(sub)
    for ext in a.extensions:
        sub = Section(f"Counted form {ext.form}: its first lengths")
        for env, digits, first, last in _levels(ext):
            for cp, what in ((first, "first"), (last, "last")):
                b = encode_counted(ext, cp)
                sub.cases.append(Case(b, f"{what} code point of {len(b)}-byte codes: {_u(cp)}"))
        s2.subsections.append(sub)
    out.append(s2)

    # 3 malformed
    s3 = Section("Malformed sequences")
    stray = sorted(set(range(256)) - starts)
    if stray:
        sub = Section(f"Bytes that cannot start a sequence ({_runs(stray)})")
        # the first and last byte of each run of one byte class (the automaton's classes)
        for lo, hi, c in a.class_runs():
            if lo in stray:
                sub.cases.append(Case(bytes([lo]), f"{lo:02X} alone (class {_runs(cb[c])})"))
                if hi != lo:
                    sub.cases.append(Case(bytes([hi]), f"{hi:02X} alone (class {_runs(cb[c])})"))
        conts = [b for b in stray if b in _used(a)]  # continuation bytes (Kuhn 3.1)
        if conts:
            pair = [conts[0], conts[-1]]
            for n in range(2, (a.max_length or 6) + 2):
                seq = bytes(pair[k % 2] for k in range(n))
                sub.cases.append(Case(seq, f"{n} continuation bytes in a row"))
            sub.cases.append(Case(bytes(conts) + tail, f"every continuation byte in a row{tail_note}"))
        sub.cases.append(Case(bytes(stray), "every byte that cannot start a sequence, in a row"))
        s3.subsections.append(sub)
    never = sorted(set(range(256)) - _used(a))
    if never:
        sub = Section(f"Bytes that occur in no valid sequence ({_runs(never)})")
        for b in never:
            sub.cases.append(Case(bytes([b]), f"{b:02X} alone"))
        sub.cases.append(Case(bytes(never), "all of them in a row"))
        s3.subsections.append(sub)
    leads = [b for b in sorted(starts) if a.step(0, b) < a.n_states and a.accept[a.step(0, b)] is None]
    if leads:
        sub = Section("Each lead byte followed by each class of byte that cannot follow it")
        for b in leads:
            s = a.step(0, b)
            for c in range(a.n_classes):
                if a.next[s][c] == DEAD:
                    sub.cases.append(Case(bytes([b, cb[c][0]]), f"lead {b:02X}, then {cb[c][0]:02X} "
                                                                f"(of {_runs(cb[c])}), which cannot follow it"))
        s3.subsections.append(sub)
    sub = Section("A byte that cannot follow, at every position of each row's first and last sequence")
    done = set()
    for r in rows:
        for cp in (r.first, r.last):
            seq = a.encode_row(r, cp)
            state = 0
            for k in range(1, len(seq)):
                state = a.step(state, seq[k - 1])
                if state == DEAD or state >= a.n_states:
                    break
                for c in range(a.n_classes):
                    if a.next[state][c] == DEAD and (state, c, k) not in done:
                        done.add((state, c, k))
                        sub.cases.append(Case(seq[:k] + bytes([cb[c][0]]),
                                              f"{_u(cp)} ({_hex(seq)}) with byte {k + 1} replaced by "
                                              f"{cb[c][0]:02X} (of {_runs(cb[c])})"))
    s3.subsections.append(sub)
    sub = Section("Each state inside a sequence followed by each class of byte that cannot follow it")
    for s in sorted(mins, key=lambda s: (len(mins[s]), mins[s])):
        if s == 0 or a.accept[s] is not None:
            continue
        for c in range(a.n_classes):
            if a.next[s][c] == DEAD:
                sub.cases.append(Case(mins[s] + bytes([cb[c][0]]),
                                      f"{_hex(mins[s])} then {cb[c][0]:02X} (of {_runs(cb[c])}), which cannot follow"))
    s3.subsections.append(sub)
    sub = Section("Truncated sequences: every proper prefix of each row's first and last sequence")
    cut_all = []
    for r in rows:
        for cp in (r.first, r.last):
            seq = a.encode_row(r, cp)
            for k in range(1, len(seq)):
                sub.cases.append(Case(seq[:k], f"{_u(cp)} ({_hex(seq)}) cut after {k} of {len(seq)} bytes"))
                if tail:
                    sub.cases.append(Case(seq[:k] + tail, f"{_u(cp)} ({_hex(seq)}) cut after {k} "
                                                          f"of {len(seq)} bytes{tail_note}"))
            if len(seq) > 1 and cp == r.first:
                cut_all.append(seq[:-1])
    if cut_all:
        sub.cases.append(Case(b"".join(cut_all), "concatenation of each row's first sequence without its last byte"))
    s3.subsections.append(sub)
    lone = [b for b in leads]
    if lone and tail:
        sub = Section("Lonely lead bytes, each followed by " + f"{safe:02X}")
        for b in lone:
            sub.cases.append(Case(bytes([b]) + tail, f"lead {b:02X}{tail_note}"))
        s3.subsections.append(sub)
    out.append(s3)

    # 4 overlong
    s4 = Section("Overlong sequences")
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        if f["raw_lo"] == 0:
            continue
        sub = Section(f"Form {name} ({f['length']} bytes): raw values below {f['raw_lo']:#x}")
        off = f["offset"] if f["offset"] is not None else f["rows"][0].offset
        for raw, what in ((0, "smallest"), (0x2F, "'/' (Kuhn 4.1)"), (f["raw_lo"] - 1, "largest")):
            if 0 <= raw < f["raw_lo"]:
                sub.cases.append(Case(_raw_bytes(f["positions"], raw),
                                      f"{what} overlong: would be {_u(raw + off)}"))
        s4.subsections.append(sub)
    out.append(s4)

    # 5 excluded values
    s5 = Section("Values the forms can spell but the encoding excludes")
    sub = Section("Beyond the forms' rows (above the code space)")
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        off = f["offset"] if f["offset"] is not None else f["rows"][-1].offset
        for raw in sorted({f["raw_hi"] + 1, f["capacity"] - 1}):
            if f["raw_hi"] < raw < f["capacity"]:
                sub.cases.append(Case(_raw_bytes(f["positions"], raw),
                                      f"form {name}: raw {raw:#x}, would be {_u(raw + off)}"))
    s5.subsections.append(sub)
    sub = Section("Gaps inside a form (holes)")
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        rs = f["rows"]
        for r1, r2 in zip(rs, rs[1:]):
            if r2.raw_lo > r1.raw_hi + 1:
                for raw in (r1.raw_hi + 1, r2.raw_lo - 1):
                    sub.cases.append(Case(_raw_bytes(f["positions"], raw),
                                          f"form {name}: raw {raw:#x} (would be {_u(raw + r1.offset)})"))
    s5.subsections.append(sub)
    lo_cs, hi_cs = a.code_space
    if lo_cs <= 0xD800 and (hi_cs is None or hi_cs >= 0xDFFF):
        sur = {cp: _form_bytes(a, cp) for cp in (0xD800, 0xDB7F, 0xDB80, 0xDBFF, 0xDC00, 0xDF80, 0xDFFF)}
        if all(sur.values()):
            sub = Section("Surrogates as three-byte sequences, single and paired (Kuhn 5.1, 5.2)")
            for cp, b in sur.items():
                sub.cases.append(Case(b, f"single surrogate {_u(cp)}"))
            for hi_, lo_ in ((0xD800, 0xDC00), (0xD800, 0xDFFF), (0xDB7F, 0xDC00), (0xDB7F, 0xDFFF),
                             (0xDB80, 0xDC00), (0xDB80, 0xDFFF), (0xDBFF, 0xDC00), (0xDBFF, 0xDFFF)):
                sub.cases.append(Case(sur[hi_] + sur[lo_], f"surrogate pair {_u(hi_)} {_u(lo_)}"))
            sub.cases.append(Case(sur[0xDC00] + sur[0xD800], "trail then lead surrogate (not a pair)"))
            sub.cases.append(Case(sur[0xD800] + sur[0xD800], "two lead surrogates"))
            sub.cases.append(Case(sur[0xD800] + sur[0xDC00][:-1], "lead surrogate, then a truncated trail"))
            s5.subsections.append(sub)
    errors = [s for s in mins if a.accept[s] is not None and a.actions[a.accept[s]].kind == "error"]
    if errors:
        sub = Section("The spec's ill-formed patterns")
        for s in sorted(errors, key=lambda s: mins[s]):
            why = a.actions[a.accept[s]].reason
            for p in (mins[s], maxs[s]):
                sub.cases.append(Case(p, f"{why}"))
                for k in range(1, len(p)):
                    sub.cases.append(Case(p[:k], f"{why}: cut after {k} of {len(p)} bytes"))
        s5.subsections.append(sub)
    out.append(s5)

    # 6 reserved runs
    if a.reserved:
        s6 = Section("Reserved runs: a reserved lead and every following byte that cannot start a sequence")
        conts = [g for g in stray if g not in a.reserved]
        lead2 = next((a.encode(cp) for cp in (0x80, 0xA0, 0x100, 0x800) if a.encode(cp) and len(a.encode(cp)) > 1), b"")
        for r in a.reserved:
            s6.cases.append(Case(bytes([r]), f"{r:02X} alone"))
            if conts:
                s6.cases.append(Case(bytes([r, conts[0]]), f"{r:02X} {conts[0]:02X}"))
                s6.cases.append(Case(bytes([r]) + bytes(conts[:6]) + tail, f"{r:02X}, six bytes that cannot start a sequence{tail_note}"))
                s6.cases.append(Case(bytes([r]) + bytes(conts), f"{r:02X} then every byte that cannot start a sequence"))
            if tail:
                s6.cases.append(Case(bytes([r]) + tail, f"{r:02X}{tail_note}"))
            for r2 in a.reserved:
                s6.cases.append(Case(bytes([r, r2]), f"{r:02X} {r2:02X}: two runs"))
            if lead2:
                s6.cases.append(Case(bytes([r]) + lead2, f"{r:02X} then a valid sequence {_hex(lead2)}"))
        out.append(s6)

    # 7 signatures
    if a.signature:
        sig = a.signature
        s7 = Section(f"Signature {_hex(sig)} (recognised at offset 0 only)")
        s7.cases.append(Case(sig, "the signature alone"))
        if tail:
            s7.cases.append(Case(sig + tail, f"the signature{tail_note}"))
            s7.cases.append(Case(tail + sig, f"{safe:02X}, then the signature (not at offset 0)"))
        s7.cases.append(Case(sig + sig, "the signature twice: the second is text"))
        for k in range(1, len(sig)):
            s7.cases.append(Case(sig[:k], f"the signature cut after {k} of {len(sig)} bytes"))
        out.append(s7)

    # 8 counted forms
    for ext in a.extensions:
        s8 = Section(f"Counted form {ext.form}: headers and values")
        field_item = next(i for i in ext.items if i.field)
        lv = _levels(ext)
        for env, digits, first, last in (lv[0], lv[-1]):
            seq = encode_counted(ext, first)
            what = "the shortest code" if first == lv[0][2] else "the shortest code with a longer count field"
            sub = Section(f"{what[0].upper()}{what[1:]}, {_hex(seq)} ({_u(first)}), cut at every position")
            for k in range(1, len(seq)):
                sub.cases.append(Case(seq[:k], f"cut after {k} of {len(seq)} bytes"))
            s8.subsections.append(sub)
            sub = Section(f"A wrong byte at every position of {what}")
            for k in range(1, len(seq)):
                wrong = tail if tail else b"\x00"
                sub.cases.append(Case(seq[:k] + wrong + seq[k + 1:], f"byte {k + 1} replaced by {wrong.hex().upper()}"))
            s8.subsections.append(sub)
        sub = Section("Values outside a length's range, and a field with a leading zero")
        for env, digits, first, last in lv:
            lo_raw = first - ext.offset
            raw_lo = encode_level(ext, env, digits, lo_raw - 1) if lo_raw > 0 else None
            if raw_lo is not None:
                sub.cases.append(Case(raw_lo, f"one below the first value of its length ({_u(first - 1)}): overlong"))
            n_val = len(encode_counted(ext, last))
            try:
                over = encode_level(ext, env, digits, last - ext.offset + 1)
            except ValueError:
                over = None
            if over is not None and len(over) == n_val:
                sub.cases.append(Case(over, f"one above the last value of its length ({_u(last + 1)})"))
        if field_item.shortest:
            env, digits, first, last = lv[-1]
            padded = [0] + list(digits)
            body = bytearray(ext.prefix_bytes)
            for item in ext.items:
                if item.binds:
                    body += bytes([DigitSet(item.runs).byte_of(0)]) * (env[item.binds] + 1)
                elif item.field:
                    body += bytes(DigitSet(item.runs).byte_of(d) for d in padded)
                    break
            sub.cases.append(Case(bytes(body), "a count field with a leading zero digit (not the shortest form)"))
        s8.subsections.append(sub)
        out.append(s8)

    _finish(a, out)
    return out


def _levels(ext: dict) -> list:
    """The first three lengths of a counted form, and the first whose count field is longer."""
    out = []
    for level in levels(ext):
        if len(out) < 3:
            out.append(level)
        elif len(level[1]) > len(out[0][1]):
            out.append(level)
            break
        if len(out) == 3 and len(level[1]) > 8:
            break
    return out


def _finish(a: Automaton, out: list[Section]) -> None:
    """Drop repeats (the first occurrence wins) and empty sections, number, compute tokens."""
    seen: set[bytes] = set()

    def prune(sec: Section) -> bool:
        kept = []
        for case in sec.cases:
            if case.data and case.data not in seen:
                seen.add(case.data)
                kept.append(case)
        sec.cases = kept
        sec.subsections = [sub for sub in sec.subsections if prune(sub)]
        return bool(sec.cases or sec.subsections)

    out[:] = [sec for sec in out if prune(sec)]

    def number(sec: Section, n: str):
        sec.number = n
        for k, case in enumerate(sec.cases, 1):
            case.id = f"{n}.{k}"
            case.tokens = list(run_tokens(a, case.data))
        for k, sub in enumerate(sec.subsections, len(sec.cases) + 1):
            number(sub, f"{n}.{k}")

    for k, sec in enumerate(out, 1):
        number(sec, str(k))


def _cases_of(secs: list[Section]) -> list[Case]:
    out: list[Case] = []

    def walk(sec):
        out.extend(sec.cases)
        for sub in sec.subsections:
            walk(sub)

    for sec in secs:
        walk(sec)
    return out


def all_cases(a: Automaton) -> list[Case]:
    return _cases_of(sections(a))


def vector_inputs(a: Automaton) -> list[bytes]:
    """The input byte strings of the conformance file: deduplicated, in file order."""
    return [c.data for c in all_cases(a)]


# ---------------------------------------------------------------- output

def _json_token(t) -> list:
    kind, start, end, value, _ = t
    return [kind, start, end, None if value is None else f"{value:X}"]


def jsonl(a: Automaton, secs: Optional[list[Section]] = None) -> str:
    """One JSON object a line: {"bytes": hex, "tokens": [[kind, start, end, hex|null], ...], "note"}."""
    lines = []
    for c in _cases_of(secs if secs is not None else sections(a)):
        lines.append(json.dumps({"bytes": c.data.hex().upper(), "tokens": [_json_token(t) for t in c.tokens],
                                 "note": f"{c.id} {c.note}"}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def text(a: Automaton, secs: Optional[list[Section]] = None) -> str:
    """The file a person reads: numbered sections and cases, like Kuhn's stress test."""
    secs = secs if secs is not None else sections(a)
    n_cases = len(_cases_of(secs))
    # behaviour only: no title or spec hash, so a metadata edit leaves the file alone
    head = [
        f"{a.name}: conformance test vectors",
        "",
        f"Generated by `encspec vectors` from {a.spec_file}; do not edit.",
        "In the spirit of Markus Kuhn's UTF-8 decoder capability and stress test: each case is",
        "a byte string decoded on its own, as a whole document.  For each:",
        "",
        "  N.N.N  note",
        "         bytes   the input, in hex",
        "         tokens  the expected tokens, as `encspec tokens` prints them, separated by ';':",
        "                 char START END HEX | error START END (reason) | reserved START END | signature START END",
        "",
        "Longest match; an error covers the maximal subpart (the longest prefix of a valid sequence, at",
        "least one byte).  Expected tokens come from the reference tokenizer over the automaton.",
        f"{n_cases} cases.",
    ]
    if a.extensions:
        head.append("Counted forms are unbounded: only their first lengths are covered.")
    lines = head + [""]

    def walk(sec: Section, depth: int):
        lines.append("")
        title = f"{sec.number}  {sec.title}"
        lines.append(title)
        if depth == 0:
            lines.append("=" * len(title))
        for c in sec.cases:
            lines.append("")
            lines.append(f"{c.id}  {c.note}")
            pad = " " * (len(c.id) + 2)
            lines.append(f"{pad}bytes   {_hex(c.data)}")
            lines.append(f"{pad}tokens  {_describe_tokens(c.tokens)}")
        for sub in sec.subsections:
            walk(sub, depth + 1)

    for sec in secs:
        walk(sec, 0)
    return "\n".join(lines).rstrip() + "\n"


def parse_text(source: str) -> list[tuple[str, bytes, list]]:
    """Read a text vector file back: (id, bytes, tokens as (kind, start, end, value|None))."""
    out = []
    last_head = cur_id = data = None
    for line in source.splitlines():
        stripped = line.strip()
        m = re.match(r"(\d+(?:\.\d+)+)  ", line)
        if m:
            last_head = m.group(1)
        elif stripped.startswith("bytes   ") and last_head is not None:
            cur_id = last_head
            h = stripped[len("bytes   "):]
            data = b"" if h == "(empty)" else bytes.fromhex(h)
        elif stripped.startswith("tokens  ") and cur_id is not None and data is not None:
            toks = []
            for part in stripped[len("tokens  "):].split(";"):
                words = part.split("(")[0].split()
                kind, start, end = words[0], int(words[1]), int(words[2])
                toks.append((kind, start, end, int(words[3], 16) if kind == "char" else None))
            out.append((cur_id, data, toks))
            last_head = cur_id = data = None
    return out
