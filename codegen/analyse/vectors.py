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

Specs of wider code units (UTF-16, UTF-32, WTF-16: ``code-unit 16`` or ``32``) are walked
in units instead: each kind of unit (the runs of unit values that read alike from a
state) alone, after each kind and after each state inside a sequence; truncation at
every byte (a partial unit); surrogates and values beyond the code space as units; each
signature with what follows it in its byte order, or the byte order marks as characters.
Integer encodings (the varints' 64-bit code space) get values instead of text, each
form's digit extremes and runs of continuation bytes, and no surrogates.

Specs with mapping tables get, after the boundaries, a section per table form: mapped
pointers (the first and last of the longest runs of consecutive code points and of
runs spread over the table), pointers of several code points, decode-only pointers,
pointers without an entry (alone and followed by a safe byte), the error spans around
the form's leads (a following byte that continues or not, restored or not), each byte
that cannot follow and each cut of the form's first and last mapped sequences; then
the spec's encoder-only entries (their bytes, decoded; the note names the code point
the encoder writes them for).

Cases are deduplicated (the first occurrence wins), so the file's inputs are
``vector_inputs(automaton)``, in order.
"""
from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import prod
from typing import Literal, cast

from ..automaton import DEAD, Automaton
from ..automaton.actions import Error
from ..automaton.bytesets import runs_text as _runs
from ..automaton.counted import Extension
from ..runtime.tables import (
    bind,
    counted_bytes,
    counted_levels,
    digits_bytes,
    encoded,
    level_bytes,
    row_bytes,
    sequences,
)
from ..runtime.tables import tokens as run_tokens
from ..spec.model import DigitSet
from . import tables as _tables


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

def _boundaries(a: Automaton, rows, size, shown, sep: str = ", ") -> Section:
    """Each row's first, second, second to last and last code point, and the code points
    around each hole and skip; *size* says a row's length, *shown* adds a sequence's units."""
    s2 = Section("Boundary code points")
    for n, r in enumerate(rows, 1):
        sub = Section(f"Row {n}: form {r.form}, {size(r)}, {_u(r.first)}..{_u(r.last)}, offset {r.offset}")
        for cp, what in ((r.first, "first"), (r.first + 1, "second"), (r.last - 1, "second to last"),
                         (r.last, "last")):
            if r.first <= cp <= r.last:
                seq = row_bytes(a, r, cp)
                sub.cases.append(Case(seq, f"{what} code point of the row: {_u(cp)}{shown(seq)}"))
        s2.subsections.append(sub)
    gaps = [("hole", lo, hi) for lo, hi in a.holes] + [("skip", lo, hi) for lo, hi in a.skips]
    if gaps:
        sub = Section("Around holes and skips")
        for kind, lo, hi in sorted(gaps, key=lambda g: g[1]):
            for cp, what in ((lo - 1, f"just below the {kind} {_u(lo)}..{_u(hi)}"),
                             (hi + 1, f"just above the {kind} {_u(lo)}..{_u(hi)}")):
                b = encoded(a, cp) if cp >= 0 else None
                if b is not None:
                    sub.cases.append(Case(b, f"{_u(cp)}, {what}" + (sep + shown(b)[2:] if shown(b) else "")))
        s2.subsections.append(sub)
    return s2


ByteOrder = Literal["big", "little"]


def _counted(a: Automaton, ext: Extension, cp: int) -> bytes:
    """The bytes of *cp*, a code point the counted form holds (a level's first or last)."""
    got = counted_bytes(a, ext, cp)
    assert got is not None
    return got


CUTS = 8  # a signature is cut after each of its first bytes up to this many (real ones have 2 to 8)


def signature_cuts(n: int) -> list[int]:
    """Where the cases cut an n-byte signature: after each of its first CUTS bytes, its
    middle and its last but one.  Every cut of a long signature would make the vectors
    (and every target's tests built from them) quadratic in its length."""
    return sorted({*range(1, min(n, CUTS + 1)), n // 2, n - 1} - {0})


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


def _safe_byte(a: Automaton) -> int | None:
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
            "order": f.order,
        }
    return out


def _form_bytes(a: Automaton, cp: int) -> bytes | None:
    """The bytes a direct form would spell for *cp* (valid or not), shortest form first."""
    forms = _linear_forms(a)
    for _name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        if f["offset"] is None:
            continue
        raw = cp - f["offset"]
        if f["raw_lo"] <= raw <= f["raw_hi"] and raw < f["capacity"]:
            return digits_bytes(f["positions"], raw, f["order"])
    return None


def _describe_tokens(toks) -> str:
    return "; ".join(_token_text(t) for t in toks)


def _value_hex(value) -> str:
    """A code point in hex; several (a pointer of Big5's four) joined by + (CA+304), as `encspec tokens` prints."""
    return "+".join(f"{v:X}" for v in value) if isinstance(value, tuple) else f"{value:X}"


def _parse_value(text: str):
    if not text:
        return ()  # a run of digits that holds no code point (UTF-7's "+" at the end)
    return tuple(int(x, 16) for x in text.split("+")) if "+" in text else int(text, 16)


def _token_text(t) -> str:
    kind, start, end, value, reason = t
    if kind == "char":
        return f"char {start} {end} {_value_hex(value)}"
    if kind == "error" and reason:
        return f"error {start} {end} ({reason})"
    return f"{kind} {start} {end}"


# ---------------------------------------------------------------- the cases

def sections(a: Automaton) -> list[Section]:
    """The conformance file's sections, each case with its expected tokens.

    Three walks: byte-oriented (the UTF-8 family, Kuhn's own), in code units (specs whose
    unit is 2 or 4 bytes: UTF-16, UTF-32, WTF-16) and over integers (varints: a 64-bit
    code space, whose "code points" are numbers, not characters)."""
    if a.modes:
        out = _mode_sections(a)
    elif a.unit > 1:
        out = _unit_sections(a)
    else:
        out = _byte_sections(a, numbers=_numbers(a))
    if a.digit_run is not None:
        out.append(_run_section(a))
    _finish(a, out)
    return out


def _mode_sections(a: Automaton) -> list[Section]:
    """A section per mode the data reaches by shifts: the byte walk of the mode's own
    part, each case after the shortest shift bytes from the first mode into it (the
    encoder's own), its tokens read from the start of the data."""
    out = []
    for k, m in enumerate(a.modes):
        into = a.modes[0].shifts[k]
        if into is None:  # reached only by a character that ends a mode (ESC throughout)
            continue
        subs = _byte_sections(m.part)
        for case in _cases_of(subs):
            case.data = into + case.data
            if into:
                case.note = f"{case.note} (in mode {m.name}, after {_hex(into)})"
        where = "where the data starts" if not into else f"after the shift {_hex(into)}"
        out.append(Section(f"Mode {m.name} ({where})", subsections=subs))
    return out


def _run_section(a: Automaton) -> Section:
    """A run of digits' cases (UTF-7's base64): runs of one to four code units around the
    unit boundaries (the encoder's bytes, so every unit count leaves its own padding), a
    surrogate pair and lone surrogates, each run ended by the end byte, by a byte that is
    no digit and by the data's end; then runs cut one digit short, a digit long and with
    non-zero padding bits."""
    r = a.digit_run
    assert r is not None
    encode = bind(a).encode
    top = (1 << r.unit_bits) - 1
    edges = [0x00, 0x80, 0xE9, 0xFFFF & top, 0x7FF, 0x800] + ([0x10000, 0x10FFFF, 0xD800, 0xDC00] if r.pairs else [])
    out = Section(f"Runs of digits ('{r.name}')")
    ok = Section("Runs of one to four code units")
    other = next((b for b in range(0x20, 0x7F) if r.digits.find(bytes([b])) < 0 and b not in (r.end, r.opener)),
                 None)
    for k in range(1, 5):
        for cp in edges:
            body = encode([cp] * k)
            run = body[:-1] if r.end is not None and body.endswith(bytes([r.end])) else body
            ok.cases.append(Case(run, f"{k} x U+{cp:04X}, to the data's end"))
            if r.end is not None:
                ok.cases.append(Case(run + bytes([r.end]), f"{k} x U+{cp:04X}, then the end byte"))
            if other is not None:
                ok.cases.append(Case(run + bytes([other]), f"{k} x U+{cp:04X}, then {other:02X}"))
    bad = Section("Runs that end badly")
    d0, d1 = r.digits[0], r.digits[-1]
    for n in range(1, 2 * r.unit_bits // r.bits + 2):
        run = bytes([r.opener]) + bytes([d1]) * n
        bad.cases.append(Case(run, f"{n} digit(s) of all ones, to the data's end"))
        if r.end is not None:
            bad.cases.append(Case(run + bytes([r.end]), f"{n} digit(s) of all ones, then the end byte"))
        bad.cases.append(Case(bytes([r.opener]) + bytes([d0]) * n + bytes([r.end if r.end is not None else d0]),
                              f"{n} zero digit(s), then the end byte"))
    out.subsections = [ok, bad]
    return out


def _numbers(a: Automaton) -> bool:
    """Whether *a* encodes integers rather than characters: a bounded code space past 32
    bits (the varints' 0..2**64-1).  No character encoding's bounded code space needs
    more than 32 bits (UTF-8 as RFC 2279 and UTF-1 stop at U+7FFFFFFF, Corrected UTF-8
    at U+8421109F); UTF-∞-8's counted forms are unbounded."""
    hi = a.code_space[1]
    return hi is not None and hi > 0xFFFFFFFF and not a.extensions


def _byte_sections(a: Automaton, numbers: bool = False) -> list[Section]:
    """Kuhn's sections, walking bytes; *numbers*: values instead of text, no surrogates,
    and each length's digit extremes and runs of continuation bytes (the varints)."""
    cb = a.class_bytes()
    safe = _safe_byte(a)
    tail = bytes([safe]) if safe is not None else b""
    tail_note = f" then {safe:02X}" if safe is not None else ""
    mins, maxs = _min_paths(a), _max_paths(a)
    starts = _starts(a)
    forms = _linear_forms(a)
    rows = sorted(a.rows, key=lambda r: (r.first, r.length))
    out: list[Section] = []

    # 1 correct text (for integers: values)
    if numbers:
        s1 = _values_section(a)
    else:
        s1 = Section("Some correct text")
        for text, what in (("κόσμε", "Greek word 'kosme' (Kuhn 1)"),
                           ("A\u00e9\u20ac\U0001F600", "A, é, €, 😀")):
            parts = [encoded(a, ord(ch)) for ch in text]
            written = [p for p in parts if p is not None]
            if len(written) == len(parts):
                s1.cases.append(Case(b"".join(written), what + ": " + " ".join(_u(ord(ch)) for ch in text)))
    out.append(s1)

    # 2 boundaries
    s2 = _boundaries(a, rows, lambda r: f"{r.length} byte{'s' if r.length > 1 else ''}", lambda seq: "")
    for ext in a.extensions:
        sub = Section(f"Counted form {ext.form}: its first lengths")
        for _env, _digits, first, last in _levels(a, ext):
            for cp, what in ((first, "first"), (last, "last")):
                code = _counted(a, ext, cp)
                sub.cases.append(Case(code, f"{what} code point of {len(code)}-byte codes: {_u(cp)}"))
        s2.subsections.append(sub)
    out.append(s2)

    # 2b table forms: their pointers, mapped or not, and the error spans around them
    if _tables.has_tables(a):
        out += _table_sections(a, tail, tail_note)
    several = _sequence_section(a, tail, tail_note)
    if several.cases or several.subsections:
        out.append(several)

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
        used = _used(a)
        conts = [b for b in stray if b in used]  # continuation bytes (Kuhn 3.1)
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
    if numbers:  # LEB128's 128 leads read alike: the first and last of each run of a byte class
        ends = {b for lo, hi, _ in a.class_runs() for b in (lo, hi)}
        leads = [b for b in leads if b in ends]
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
            seq = row_bytes(a, r, cp)
            for k, state, classes in _cannot_follow(a, seq):
                for c in classes:
                    if (state, c, k) not in done:
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
            seq = row_bytes(a, r, cp)
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
        kuhn = (1, "next to smallest") if numbers else (0x2F, "'/' (Kuhn 4.1)")
        for raw, what in ((0, "smallest"), kuhn, (f["raw_lo"] - 1, "largest")):
            if 0 <= raw < f["raw_lo"]:
                sub.cases.append(Case(digits_bytes(f["positions"], raw, f["order"]),
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
                sub.cases.append(Case(digits_bytes(f["positions"], raw, f["order"]),
                                      f"form {name}: raw {raw:#x}, would be {_u(raw + off)}"))
    s5.subsections.append(sub)
    sub = Section("Gaps inside a form (holes)")
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        rs = f["rows"]
        for r1, r2 in zip(rs, rs[1:]):
            if r2.raw_lo > r1.raw_hi + 1:
                for raw in (r1.raw_hi + 1, r2.raw_lo - 1):
                    sub.cases.append(Case(digits_bytes(f["positions"], raw, f["order"]),
                                          f"form {name}: raw {raw:#x} (would be {_u(raw + r1.offset)})"))
    s5.subsections.append(sub)
    lo_cs, hi_cs = a.code_space
    if not numbers and lo_cs <= 0xD800 and (hi_cs is None or hi_cs >= 0xDFFF):
        spelt = {cp: _form_bytes(a, cp) for cp in (0xD800, 0xDB7F, 0xDB80, 0xDBFF, 0xDC00, 0xDF80, 0xDFFF)}
        sur = {cp: b for cp, b in spelt.items() if b}
        if len(sur) == len(spelt):
            sub = Section("Surrogates as three-byte sequences, single and paired (Kuhn 5.1, 5.2)")
            for cp, spelling in sur.items():
                sub.cases.append(Case(spelling, f"single surrogate {_u(cp)}"))
            for hi_, lo_ in ((0xD800, 0xDC00), (0xD800, 0xDFFF), (0xDB7F, 0xDC00), (0xDB7F, 0xDFFF),
                             (0xDB80, 0xDC00), (0xDB80, 0xDFFF), (0xDBFF, 0xDC00), (0xDBFF, 0xDFFF)):
                sub.cases.append(Case(sur[hi_] + sur[lo_], f"surrogate pair {_u(hi_)} {_u(lo_)}"))
            sub.cases.append(Case(sur[0xDC00] + sur[0xD800], "trail then lead surrogate (not a pair)"))
            sub.cases.append(Case(sur[0xD800] + sur[0xD800], "two lead surrogates"))
            sub.cases.append(Case(sur[0xD800] + sur[0xDC00][:-1], "lead surrogate, then a truncated trail"))
            s5.subsections.append(sub)
    errors = {s: act for s in mins if isinstance(act := a.action_at(s), Error)}
    if errors:
        sub = Section("The spec's ill-formed patterns")
        for s in sorted(errors, key=lambda s: mins[s]):
            why = errors[s].reason
            for p in (mins[s], maxs[s]):
                sub.cases.append(Case(p, f"{why}"))
                for k in range(1, len(p)):
                    sub.cases.append(Case(p[:k], f"{why}: cut after {k} of {len(p)} bytes"))
        s5.subsections.append(sub)
    out.append(s5)
    if numbers:
        out.append(Section("Lengths: each form's digit extremes, and runs of continuation bytes",
                           subsections=[_digit_extremes(a, forms), _continuation_runs(a, rows)]))

    # 6 reserved runs
    if a.reserved:
        s6 = Section("Reserved runs: a reserved lead and every following byte that cannot start a sequence")
        conts = [g for g in stray if g not in a.reserved]
        lead2 = next((e for e in (encoded(a, cp) for cp in (0x80, 0xA0, 0x100, 0x800)) if e and len(e) > 1), b"")
        for lead in a.reserved:
            s6.cases.append(Case(bytes([lead]), f"{lead:02X} alone"))
            if conts:
                s6.cases.append(Case(bytes([lead, conts[0]]), f"{lead:02X} {conts[0]:02X}"))
                s6.cases.append(Case(bytes([lead]) + bytes(conts[:6]) + tail, f"{lead:02X}, six bytes that cannot start a sequence{tail_note}"))
                s6.cases.append(Case(bytes([lead]) + bytes(conts), f"{lead:02X} then every byte that cannot start a sequence"))
            if tail:
                s6.cases.append(Case(bytes([lead]) + tail, f"{lead:02X}{tail_note}"))
            for r2 in a.reserved:
                s6.cases.append(Case(bytes([lead, r2]), f"{lead:02X} {r2:02X}: two runs"))
            if lead2:
                s6.cases.append(Case(bytes([lead]) + lead2, f"{lead:02X} then a valid sequence {_hex(lead2)}"))
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
        for k in signature_cuts(len(sig)):
            s7.cases.append(Case(sig[:k], f"the signature cut after {k} of {len(sig)} bytes"))
        out.append(s7)

    # 8 counted forms
    for ext in a.extensions:
        s8 = Section(f"Counted form {ext.form}: headers and values")
        field_item = next(i for i in ext.items if i.field)
        lv = _levels(a, ext)
        for _env, _digits, first, _last in (lv[0], lv[-1]):
            seq = _counted(a, ext, first)
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
            raw_lo = level_bytes(a, ext, env, digits, lo_raw - 1) if lo_raw > 0 else None
            if raw_lo is not None:
                sub.cases.append(Case(raw_lo, f"one below the first value of its length ({_u(first - 1)}): overlong"))
            n_val = len(_counted(a, ext, last))
            try:
                over = level_bytes(a, ext, env, digits, last - ext.offset + 1)
            except (ValueError, KeyError):
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
    return out


# ---------------------------------------------------------------- table forms
PICKS = 64  # runs (and gaps) shown per table form beyond the longest ones


def _cannot_follow(a: Automaton, seq: bytes) -> Iterator[tuple[int, int, list[int]]]:
    """The one walk along a valid sequence (a row's or a table form's): (k, state, classes)
    with the classes of byte that cannot follow its first k bytes, k = 1 .. len - 1,
    stopping where the walk leaves the bounded automaton."""
    state = 0
    for k in range(1, len(seq)):
        state = a.step(state, seq[k - 1])
        if state == DEAD or state >= a.n_states:
            return
        yield k, state, [c for c in range(a.n_classes) if a.next[state][c] == DEAD]


def _spread(items: list, n: int) -> list:
    """*n* of *items* spread evenly (all of them if there are no more), in order."""
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(k * step)] for k in range(n)]


def _gaps(a: Automaton, f) -> list[tuple[int, int]]:
    """The form's pointers without an entry, as intervals."""
    cap = _tables.capacity(f)
    out = []
    p = 0
    for lo, hi in _tables.mapped_intervals(a.tables[f.table], 0, cap - 1):
        if lo > p:
            out.append((p, lo - 1))
        p = hi + 1
    if p < cap:
        out.append((p, cap - 1))
    return out


def _table_sections(a: Automaton, tail: bytes, tail_note: str) -> list[Section]:
    """Per table form: mapped pointers (the first and last of runs of consecutive code
    points), pointers of several code points, decode-only pointers, pointers without an
    entry, and the error spans around them; then the spec's encoder-only entries."""
    cb = a.class_bytes()
    out = []
    for f in _tables.table_forms(a):
        t = a.tables[f.table]
        cap = _tables.capacity(f)
        spell = lambda p, f=f: _tables.spell(f, p)  # noqa: E731
        positions = " then ".join(_runs({b for lo, hi in runs for b in range(lo, hi + 1)}) for runs in f.positions)
        sec = Section(f"Table form {f.name} ({f.length} bytes: {positions}): pointers looked up in table {t.name}")
        runs = _tables.runs(t, 0, cap - 1)
        longest = sorted(runs, key=lambda r: (r[0] - r[1], r[0]))[:PICKS // 2]
        picked = sorted(set(longest) | set(_spread(runs, PICKS)))
        sub = Section(f"Mapped pointers: the first and last of runs of consecutive code points "
                      f"({len(picked)} of {len(runs)} runs: the longest and others spread over the table)")
        for p, q, cp in picked:
            for x, what in ((p, "first"), (q, "last")):
                sub.cases.append(Case(spell(x), f"pointer {x}: {_u(cp + x - p)}, the {what} of the run {p}..{q} "
                                                f"({_u(cp)}..{_u(cp + q - p)})" if q > p else
                                      f"pointer {x}: {_u(cp)} (a run of one)"))
        if runs:
            sub.cases.append(Case(b"".join(spell(p) for p, q, cp in picked[:16]) + tail,
                                  "the first pointers of these runs in a row" + tail_note))
        sec.subsections.append(sub)
        several = [(p, v) for p, v in _tables.multi_entries(t) if p < cap]
        if several:
            sub = Section("Pointers of several code points")
            for p, v in several:
                sub.cases.append(Case(spell(p), f"pointer {p}: " + " ".join(_u(c) for c in v)
                                      + f" ({_written(a, v, spell(p))})"))
                if tail:
                    sub.cases.append(Case(spell(p) + tail, f"pointer {p}{tail_note}"))
            sec.subsections.append(sub)
        only = [(lo, hi) for lo, hi in _tables.decode_only(t, 0, cap - 1)]
        if only:
            sub = Section(f"Decode-only pointers ({sum(hi - lo + 1 for lo, hi in only)} in {len(only)} ranges): "
                          "they decode, but the encoder writes their code points elsewhere, or not at all")
            big = sorted(only, key=lambda r: (r[0] - r[1], r[0]))[:PICKS // 4]
            for lo, hi in sorted(set(big) | set(_spread(only, PICKS // 2))):
                for x in sorted({lo, hi}):
                    value = t.lookup(x)
                    if value is None:
                        continue
                    if isinstance(value, tuple):
                        sub.cases.append(Case(spell(x), f"pointer {x}: " + " ".join(_u(c) for c in value)
                                              + ", decode-only"))
                        continue
                    enc = encoded(a, value)
                    where = f"written as {_hex(enc)}" if enc is not None else "not encodable"
                    sub.cases.append(Case(spell(x), f"pointer {x}: {_u(value)}, decode-only ({_u(value)} is {where})"))
            sec.subsections.append(sub)
        gaps = _gaps(a, f)
        if gaps:
            sub = Section(f"Pointers without an entry ({sum(hi - lo + 1 for lo, hi in gaps)} in {len(gaps)} runs): "
                          f"errors ('{a.reasons.unmapped}')")
            big = sorted(gaps, key=lambda r: (r[0] - r[1], r[0]))[:PICKS // 4]
            for lo, hi in sorted(set(big) | set(_spread(gaps, PICKS // 2))):
                for x in sorted({lo, hi}):
                    sub.cases.append(Case(spell(x), f"pointer {x}, no entry (of the run {lo}..{hi})"))
                    if tail:
                        sub.cases.append(Case(spell(x) + tail, f"pointer {x}, no entry{tail_note}"))
            sec.subsections.append(sub)
        sub = _span_cases(a, f, gaps, runs, tail, tail_note)
        if sub.cases:
            sec.subsections.append(sub)
        sub = Section("A byte that cannot follow, at every position of the form's first and last mapped sequence, "
                      "and every cut of them")
        ends = [runs[0][0], runs[-1][1]] if runs else []
        for x in ends:
            seq = spell(x)
            for k, _state, classes in _cannot_follow(a, seq):
                for c in classes:
                    sub.cases.append(Case(seq[:k] + bytes([cb[c][0]]), f"pointer {x} ({_hex(seq)}) with byte "
                                                                      f"{k + 1} replaced by {cb[c][0]:02X} "
                                                                      f"(of {_runs(cb[c])})"))
                sub.cases.append(Case(seq[:k], f"pointer {x} ({_hex(seq)}) cut after {k} of {len(seq)} bytes"))
                if tail:
                    sub.cases.append(Case(seq[:k] + tail, f"pointer {x} ({_hex(seq)}) cut after {k} of "
                                                          f"{len(seq)} bytes{tail_note}"))
        if sub.cases:
            sec.subsections.append(sub)
        out.append(sec)
    if a.encode_only:
        sec = Section("Encoder-only entries: what the encoder writes for these code points, decoded")
        for cp, data in a.encode_only:
            if data is None:
                continue
            sec.cases.append(Case(bytes(data), f"encoder-only: {_u(cp)} is written as {_hex(data)}"))
        if sec.cases:
            out.append(sec)
    return out


def _sequence_section(a: Automaton, tail: bytes, tail_note: str) -> Section:
    """Literal forms of several code points, and what the encoder writes for each sequence
    it writes as one: the sequence, then its first code point alone (the longest match
    gives way to the code point's own bytes where the rest does not follow)."""
    sec = Section("Sequences of code points")
    forms = [x for x in _tables.several_values(a) if x.pointer is None]
    if forms:
        sub = Section("Literal forms of several code points")
        for x in forms:
            sub.cases.append(Case(x.data, f"form {x.form}: " + " ".join(_u(c) for c in x.code_points)
                                  + f" ({_written(a, x.code_points, x.data)})"))
            if tail:
                sub.cases.append(Case(x.data + tail, f"form {x.form}{tail_note}"))
        sec.subsections.append(sub)
    written = sequences(a)
    if written:
        sub = Section("What the encoder writes for each sequence it writes as one, then for its first "
                      "code point alone, decoded")
        for cps, data in written:
            text = " ".join(_u(c) for c in cps)
            alone = _tables.text_bytes(a, cps + cps[:1])
            if alone is not None and alone.startswith(data):
                sub.cases.append(Case(alone, f"{text} then {_u(cps[0])} alone: the encoder writes {_hex(data)} "
                                             f"then {_hex(alone[len(data):])}"))
            else:  # the sequence twice: its bytes alone are already a case of the decoder's sections
                twice = _tables.text_bytes(a, cps + cps)
                why = f" ({_u(cps[0])} alone has no bytes)" if _tables.text_bytes(a, cps[:1]) is None else ""
                if twice is not None:
                    sub.cases.append(Case(twice, f"{text} twice: the encoder writes {_hex(twice)}{why}"))
        sec.subsections.append(sub)
    return sec


def _written(a: Automaton, cps: tuple[int, ...], data: bytes) -> str:
    """What the encoder writes for the text a pointer of several code points reads as."""
    back = _tables.text_bytes(a, cps)
    if back is None:
        return "the encoder cannot write this text"
    return "the encoder writes this text back as these bytes" if back == data else \
        f"the encoder writes this text as {_hex(back)}"


def _span_cases(a: Automaton, f, gaps, runs, tail: bytes, tail_note: str) -> Section:
    """Error spans around the form: a lead and each kind of byte after it (in the restore set or
    not, continuing or not), pointers without an entry whose later bytes are restored or not, a
    lead before a valid sequence."""
    restore: set[int] = set()
    for lo, hi in a.restore:
        restore.update(range(lo, hi + 1))
    title = {"one-unit": "every error one byte", "through-failing-byte":
             f"an error takes the failing byte unless it is in {_tables.restore_text(a)}",
             "maximal-subpart": "an error is the maximal subpart"}[a.error_span]
    sec = Section(f"Error spans ({a.error_span}: {title})")
    spell = lambda p: _tables.spell(f, p)  # noqa: E731
    leads = sorted({f.positions[0][0][0], f.positions[0][-1][1]})
    follow = sorted({f.positions[1][0][0], f.positions[1][-1][1]}) if len(f.positions) > 1 else []
    for lead in leads:
        s = a.step(0, lead)
        if s == DEAD or s >= a.n_states:
            continue
        tried = set()
        for b in range(256):
            t = a.step(s, b)
            kind = (t == DEAD, b in restore)
            if kind in tried:
                continue
            tried.add(kind)
            what = ("cannot follow" if t == DEAD else "can follow") + (", restored" if b in restore else "")
            sec.cases.append(Case(bytes([lead, b]) + tail, f"lead {lead:02X}, then {b:02X} ({what}){tail_note}"))
        if runs:
            seq = spell(runs[0][0])
            sec.cases.append(Case(bytes([lead]) + seq, f"lead {lead:02X}, then a valid sequence {_hex(seq)}"))
        for b in follow:
            sec.cases.append(Case(bytes([lead, b]), f"lead {lead:02X}, then {b:02X} at the end of the data"))
    picked: dict = {}
    for lo, hi in gaps:
        for x in (lo, hi):
            seq = spell(x)
            key = any(b in restore for b in seq[1:])
            if len(picked.setdefault(key, [])) < 3:
                picked[key].append(x)
    for key, xs in sorted(picked.items()):
        for x in xs:
            seq = spell(x)
            sec.cases.append(Case(seq + tail, f"pointer {x} ({_hex(seq)}), no entry: a later byte "
                                              f"{'is' if key else 'is not'} restored{tail_note}"))
    return sec


# ---------------------------------------------------------------- integers (varints)

def _values_section(a: Automaton) -> Section:
    """Values an integer encoding's users meet: each power of two's neighbours, the
    documents' worked examples, the largest value; each alone and all in a row."""
    lo_cs, hi_cs = a.code_space
    picks: list[tuple[int, str]] = [(0, "zero"), (1, "one")]
    for bits in (7, 8, 14, 16, 21, 24, 28, 32, 35, 42, 49, 56, 63, 64):
        picks += [((1 << bits) - 1, f"2**{bits} - 1"), (1 << bits, f"2**{bits}")]
    picks += [(240, "SQLite4's largest one-byte value"), (241, "SQLite4's first two-byte value"),
              (2287, "SQLite4's largest two-byte value"), (2288, "SQLite4's first three-byte value"),
              (67823, "SQLite4's largest three-byte value"), (67824, "SQLite4's first four-byte value"),
              (300, "300, protobuf's example (AC 02 in LEB128)"),
              (624485, "624485, the LEB128 example of DWARF and Wikipedia (E5 8E 26)")]
    sec = Section("Some values")
    row = b""
    for v, _what in sorted(dict(picks).items()):
        b = encoded(a, v) if lo_cs <= v and (hi_cs is None or v <= hi_cs) else None
        if b is not None:
            label = next(w for x, w in picks if x == v)
            sec.cases.append(Case(b, f"{label}: {v} = {_u(v)}"))
            row += b
    if len(sec.cases) > 1:
        sec.cases.append(Case(row, "all of these values in a row, smallest first"))
    return sec


def _digit_extremes(a: Automaton, forms: dict) -> Section:
    """Each linear form's raw values 0, 1 and its capacity's last two: its digits all
    smallest or all largest, whether or not its rows hold them (overlong, beyond)."""
    sec = Section("Each form's digits at their extremes: raw 0, 1, and the largest two it can spell")
    for name, f in sorted(forms.items(), key=lambda kv: kv[1]["length"]):
        off = f["offset"] if f["offset"] is not None else f["rows"][0].offset
        for raw, what in ((0, "all digits smallest"), (1, "raw 1"), (f["capacity"] - 2, "next to largest"),
                          (f["capacity"] - 1, "all digits largest")):
            if 0 <= raw < f["capacity"]:
                where = "in its rows" if any(r.raw_lo <= raw <= r.raw_hi for r in f["rows"]) else "outside its rows"
                sec.cases.append(Case(digits_bytes(f["positions"], raw, f["order"]),
                                      f"form {name} ({f['length']} bytes), {what}: raw {raw:#x}, "
                                      f"{_u(raw + off)} by its offset ({where})"))
    return sec


def _continuation_runs(a: Automaton, rows: list) -> Section:
    """Kuhn 3.1 for varints: runs of a byte that only ever continues a sequence (LEB128's
    1xxxxxxx), one to one more than the longest sequence, alone (the data ends) and
    then each final byte of a row's first and last sequence."""
    cb = a.class_bytes()
    conts = []
    for c in range(a.n_classes):
        targets = [row[c] for row in a.next if row[c] != DEAD]
        if targets and all(t < a.n_states and a.accept[t] is None for t in targets):
            conts += sorted({cb[c][0], cb[c][-1]})
    longest = max(r.length for r in rows)
    finals = sorted({row_bytes(a, r, cp)[-1] for r in rows for cp in (r.first, r.last)})
    sec = Section(f"Runs of continuation bytes (Kuhn 3.1): 1 to {longest + 1} of them, alone and then "
                  f"a final byte ({' or '.join(f'{b:02X}' for b in finals)})")
    for b in sorted(set(conts)):
        for n in range(1, longest + 2):
            sec.cases.append(Case(bytes([b]) * n, f"{n} x {b:02X}, then the data ends"))
            for f in finals:
                sec.cases.append(Case(bytes([b]) * n + bytes([f]), f"{n} x {b:02X}, then {f:02X} "
                                                                    f"({n + 1} bytes)"))
    return sec


# ---------------------------------------------------------------- code units

def _outcome(a: Automaton, state: int, data: bytes) -> tuple:
    """Where reading *data* from *state* leads: ("state", s), or ("dead", j) at its byte j."""
    for j, b in enumerate(data):
        t = a.step(state, b)
        if t == DEAD or t >= a.n_states:
            return ("dead", j)
        state = t
    return ("state", state)


def _unit_kinds(a: Automaton, state: int, order: ByteOrder) -> list[tuple[int, int, tuple]]:
    """The code units from *state*, as runs (lo, hi, outcome) of units that read alike, in
    unit order: the units' bytes split most significant first, a byte run at a time
    (a run whose units all read alike is one interval; else each of its bytes is split
    further), then equal neighbours joined.  Only byte classes are tried for the bytes
    not yet fixed, so four-byte units cost a few thousand steps."""
    unit = a.unit
    runs = a.class_runs()
    reps = [bs[0] for bs in a.class_bytes()]
    out: list[tuple[int, int, tuple]] = []

    def at(d: int) -> int:  # the d-th most significant byte's index in the unit's bytes
        return d if order == "big" else unit - 1 - d

    def alike(fixed: dict) -> tuple | None:
        """The one outcome of every unit with the bytes *fixed* (index -> byte), or None."""
        seen: set = set()

        def walk(i: int, s: int) -> bool:  # True: two outcomes found, stop
            if i == unit:
                seen.add(("state", s))
                return len(seen) > 1
            for b in ([fixed[i]] if i in fixed else reps):
                t = a.step(s, b)
                if t == DEAD or t >= a.n_states:
                    seen.add(("dead", i))
                elif walk(i + 1, t):
                    return True
                if len(seen) > 1:
                    return True
            return False

        walk(0, state)
        return next(iter(seen)) if len(seen) == 1 else None

    def add(lo: int, hi: int, o: tuple) -> None:
        if out and out[-1][2] == o and out[-1][1] == lo - 1:
            out[-1] = (out[-1][0], hi, o)
        else:
            out.append((lo, hi, o))

    def split(d: int, prefix: int, fixed: dict) -> None:
        shift = 8 * (unit - 1 - d)
        for lo, hi, _ in runs:
            o = alike({**fixed, at(d): lo})
            if o is not None:  # the class decides: every byte of the run reads alike
                add(prefix | lo << shift, prefix | ((hi + 1) << shift) - 1, o)
            else:
                for b in range(lo, hi + 1):
                    split(d + 1, prefix | b << shift, {**fixed, at(d): b})

    split(0, 0, {})
    return out


def _refine(kinds: list, alone: list) -> list[tuple[int, int, tuple, tuple]]:
    """*kinds* cut where the units' *alone* outcome (from the start) changes: (lo, hi, outcome, alone)."""
    out = []
    for lo, hi, o in kinds:
        for lo2, hi2, o2 in alone:
            a_, b_ = max(lo, lo2), min(hi, hi2)
            if a_ <= b_:
                out.append((a_, b_, o, o2))
    return out


def _inner_states(a: Automaton, start: int, order: ByteOrder) -> dict[int, bytes]:
    """Each state a sequence can be in between two of its units (not at its start), with
    the units leading there from *start* (fewest, then smallest)."""
    paths: dict[int, bytes] = {}
    queue = deque([(start, b"")])
    while queue:
        s, path = queue.popleft()
        for lo, _, o in _unit_kinds(a, s, order):
            if o[0] == "state" and any(t != DEAD for t in a.next[o[1]]):  # the sequence may go on
                t = o[1]
                if t not in paths and t != start:
                    paths[t] = path + lo.to_bytes(a.unit, order)
                    queue.append((t, paths[t]))
    return paths


def _safe_unit(a: Automaton, start: int, order: ByteOrder, inner: dict) -> int | None:
    """A one-unit character that can follow no unit inside a sequence: it ends any before it."""
    kinds = _unit_kinds(a, start, order)
    for u in [0x41, 0x20, 0x30] + [lo for lo, _, _ in kinds]:
        data = u.to_bytes(a.unit, order)
        o = _outcome(a, start, data)
        if o[0] != "state" or not a.accepts_char(o[1]) or not a.final(o[1]):
            continue
        if all(_outcome(a, s, data)[0] == "dead" for s in inner):
            return u
    return None


def _uhex(a: Automaton, u: int) -> str:
    return f"{u:0{2 * a.unit}X}"


def _units(a: Automaton, data: bytes, order: ByteOrder) -> str:
    """*data* as the spec writes it: its code units in hex, then any partial unit's bytes."""
    whole = len(data) - len(data) % a.unit
    us = [int.from_bytes(data[k:k + a.unit], order) for k in range(0, whole, a.unit)]
    parts = []
    if us:
        parts.append(("unit " if len(us) == 1 else "units ") + " ".join(_uhex(a, u) for u in us))
    if whole < len(data):
        parts.append(f"a partial unit {_hex(data[whole:])}")
    return " then ".join(parts) or "(empty)"


def _in_order(a: Automaton, data: bytes, order: ByteOrder) -> bytes:
    """*data*, written in the spec's own byte order, with its units' bytes in *order*."""
    if order == a.byte_orders[0]:
        return data
    return b"".join(data[k:k + a.unit][::-1] for k in range(0, len(data), a.unit))


def _does(a: Automaton, o: tuple, inside: bool) -> str:
    """What a unit with outcome *o* does, for a note."""
    if o[0] == "dead":
        return "cannot continue the sequence" if inside else "cannot start a sequence"
    act = a.action_at(o[1])
    if act is None:
        return "goes on to a longer sequence" if inside else "starts a longer sequence"
    if isinstance(act, Error):
        return f"ill-formed: {act.reason}"
    if act.kind != "char":
        return act.kind
    what = "completes a character" if inside else "a character"
    return what if a.final(o[1]) else what + ", or starts a longer sequence"


def _unit_sections(a: Automaton) -> list[Section]:
    """Kuhn's sections in code units: each kind of unit (the runs of units that read alike)
    alone, after one another and after each state inside a sequence; truncation at every
    byte (a partial unit); surrogates and values beyond the code space as units; byte
    order marks.  Notes write units as the spec does (unit DC00); bytes stay bytes."""
    unit = a.unit
    order = cast(ByteOrder, a.byte_orders[0])  # the grammar allows only these two
    start = a.starts[0]

    def ub(u: int, o: ByteOrder = order) -> bytes:
        return u.to_bytes(unit, o)

    def uh(u: int) -> str:
        return _uhex(a, u)

    def units(data: bytes, o: ByteOrder = order) -> str:
        return _units(a, data, o)

    kinds = _unit_kinds(a, start, order)
    inner = _inner_states(a, start, order)
    safe = _safe_unit(a, start, order, inner)
    tail = ub(safe) if safe is not None else b""
    safe_hex = uh(safe) if safe is not None else ""  # read where tail is not empty
    tail_note = f", then unit {safe_hex}" if safe is not None else ""
    filler = tail or ub(kinds[0][0])
    rows = sorted(a.rows, key=lambda r: (r.first, r.length))
    out: list[Section] = []

    # 1 correct text
    s1 = Section("Some correct text")
    for text_, what in (("κόσμε", "Greek word 'kosme' (Kuhn 1)"), ("A\u00e9\u20ac\U0001F600", "A, é, €, 😀")):
        parts = [encoded(a, ord(ch)) for ch in text_]
        written = [p for p in parts if p is not None]
        if len(written) == len(parts):
            s1.cases.append(Case(b"".join(written), what + ": " + " ".join(_u(ord(ch)) for ch in text_)))
    out.append(s1)

    # 2 boundaries
    s2 = _boundaries(a, rows, lambda r: f"{r.length // unit} unit{'s' if r.length > unit else ''}",
                     lambda seq: f", {units(seq)}", ": ")
    out.append(s2)

    # 3 malformed
    s3 = Section("Malformed sequences")
    sub = Section("Each kind of unit alone: the first and last unit of each run of units that read alike")
    for lo, hi, o in kinds:
        for u in sorted({lo, hi}):
            sub.cases.append(Case(ub(u), f"unit {uh(u)} alone (of {uh(lo)}..{uh(hi)}: {_does(a, o, False)})"))
    s3.subsections.append(sub)
    if tail:
        sub = Section(f"Each kind of unit followed by unit {safe_hex}")
        for lo, hi, o in kinds:
            for u in sorted({lo, hi}):
                sub.cases.append(Case(ub(u) + tail, f"unit {uh(u)} (of {uh(lo)}..{uh(hi)}: "
                                                    f"{_does(a, o, False)}){tail_note}"))
        s3.subsections.append(sub)
    sub = Section("Each kind of unit followed by each kind of unit (the first units of the runs, then the last)")
    for pick in (0, 1):
        for k1 in kinds:
            for k2 in kinds:
                u1, u2 = (k1[0], k2[0]) if pick == 0 else (k1[1], k2[1])
                sub.cases.append(Case(ub(u1) + ub(u2), f"unit {uh(u1)} (of {uh(k1[0])}..{uh(k1[1])}), then unit "
                                                       f"{uh(u2)} (of {uh(k2[0])}..{uh(k2[1])})"))
    sub.cases.append(Case(b"".join(ub(lo) for lo, _, _ in kinds), "the first unit of each run, in a row"))
    sub.cases.append(Case(b"".join(ub(hi) for _, hi, _ in kinds), "the last unit of each run, in a row"))
    s3.subsections.append(sub)
    sub = Section("A unit that cannot continue the sequence, at every unit position of each row's first and "
                  "last sequence")
    for r in rows:
        for cp in (r.first, r.last):
            seq = row_bytes(a, r, cp)
            for k in range(unit, len(seq), unit):
                o = _outcome(a, start, seq[:k])
                if o[0] != "state":
                    break
                for lo, hi, o1, o0 in _refine(_unit_kinds(a, o[1], order), kinds):
                    if o1[0] != "dead":
                        continue
                    for u in sorted({lo, hi}):
                        bad = seq[:k] + ub(u) + seq[k + unit:]
                        note = (f"{_u(cp)} ({units(seq)}) with unit {k // unit + 1} replaced by {uh(u)}, which "
                                f"cannot continue it (of {uh(lo)}..{uh(hi)}, alone: {_does(a, o0, False)})")
                        sub.cases.append(Case(bad, note))
                        if u == lo and tail and k + unit >= len(seq):
                            sub.cases.append(Case(bad + tail, note + tail_note))
    s3.subsections.append(sub)
    sub = Section("Each state inside a sequence followed by each kind of unit that cannot continue it")
    for s, path in sorted(inner.items(), key=lambda kv: (len(kv[1]), kv[1])):
        for lo, hi, o1, _o0 in _refine(_unit_kinds(a, s, order), kinds):
            if o1[0] == "dead":
                sub.cases.append(Case(path + ub(lo), f"{units(path)}, then unit {uh(lo)} (of {uh(lo)}..{uh(hi)}), "
                                                     "which cannot continue the sequence"))
    s3.subsections.append(sub)
    sub = Section("Truncated sequences: every proper prefix of each row's first and last sequence, "
                  "and of each kind of unit")
    cut_units, cut_bytes = [], []
    for r in rows:
        for cp in (r.first, r.last):
            seq = row_bytes(a, r, cp)
            for k in range(1, len(seq)):
                what = f"{_u(cp)} ({units(seq)}) cut after {k} of {len(seq)} bytes"
                sub.cases.append(Case(seq[:k], what))
                if tail and k % unit == 0:
                    sub.cases.append(Case(seq[:k] + tail, what + tail_note))
                if tail:  # not at the start of the data: the units are counted from the token's start
                    sub.cases.append(Case(tail + seq[:k], f"unit {safe_hex}, then {what}"))
            if cp == r.first:
                cut_bytes.append(seq[:-1])
                if len(seq) > unit:
                    cut_units.append(seq[:-unit])
    for lo, hi, _ in kinds:
        for u in sorted({lo, hi}):
            for k in range(1, unit):
                sub.cases.append(Case(ub(u)[:k], f"unit {uh(u)} ({_hex(ub(u))}) cut after {k} of {unit} bytes"))
    if cut_units:
        sub.cases.append(Case(b"".join(cut_units), "concatenation of each row's first sequence without its last unit"))
    sub.cases.append(Case(b"".join(cut_bytes), "concatenation of each row's first sequence without its last byte "
                                               "(the units after the first cut are read out of step)"))
    s3.subsections.append(sub)
    sub = Section("A partial unit at the end, after each kind of unit")
    for lo, hi, o in kinds:
        for k in range(1, unit):
            sub.cases.append(Case(ub(lo) + filler[:k], f"unit {uh(lo)} (of {uh(lo)}..{uh(hi)}: "
                                                       f"{_does(a, o, False)}), then {k} byte{'s' if k > 1 else ''} "
                                                       f"of a unit ({_hex(filler[:k])})"))
    s3.subsections.append(sub)
    out.append(s3)

    # 4 excluded values
    s4 = Section("Values the units can hold but the encoding excludes")
    lo_cs, hi_cs = a.code_space
    bmp_units = all(encoded(a, cp) == ub(cp) for cp in (0xD7FF, 0xE000) if cp < 1 << 8 * unit)
    if lo_cs <= 0xD800 and (hi_cs is None or hi_cs >= 0xDFFF) and bmp_units:
        sub = Section("Surrogate code points as units, single and paired (Kuhn 5.1, 5.2)")
        for cp in (0xD800, 0xDB7F, 0xDB80, 0xDBFF, 0xDC00, 0xDF80, 0xDFFF):
            sub.cases.append(Case(ub(cp), f"unit {uh(cp)}: a single surrogate {_u(cp)}"))
        for hi_, lo_ in ((0xD800, 0xDC00), (0xD800, 0xDFFF), (0xDB7F, 0xDC00), (0xDB7F, 0xDFFF),
                         (0xDB80, 0xDC00), (0xDB80, 0xDFFF), (0xDBFF, 0xDC00), (0xDBFF, 0xDFFF)):
            sub.cases.append(Case(ub(hi_) + ub(lo_),
                                  f"units {uh(hi_)} {uh(lo_)}: the surrogate pair {_u(hi_)} {_u(lo_)}"))
        sub.cases.append(Case(ub(0xDC00) + ub(0xD800), f"units {uh(0xDC00)} {uh(0xD800)}: trail then lead surrogate "
                                                       "(not a pair)"))
        sub.cases.append(Case(ub(0xD800) + ub(0xD800), f"units {uh(0xD800)} {uh(0xD800)}: two lead surrogates"))
        sub.cases.append(Case(ub(0xD800) + ub(0xD800) + ub(0xDC00),
                              f"units {uh(0xD800)} {uh(0xD800)} {uh(0xDC00)}: a lead surrogate, then a pair"))
        sub.cases.append(Case(ub(0xD800) + ub(0xDC00) + ub(0xDC00),
                              f"units {uh(0xD800)} {uh(0xDC00)} {uh(0xDC00)}: a pair, then a trail surrogate"))
        sub.cases.append(Case(ub(0xD800) + ub(0xDC00)[:-1], f"unit {uh(0xD800)}, then a truncated trail surrogate "
                                                             f"({_hex(ub(0xDC00)[:-1])})"))
        if tail:
            for cp in (0xD800, 0xDC00):
                sub.cases.append(Case(tail + ub(cp) + tail, f"unit {uh(cp)} (surrogate) between two units {safe_hex}"))
        s4.subsections.append(sub)
    top = (1 << 8 * unit) - 1
    if hi_cs is not None and top > hi_cs:
        sub = Section(f"Units above the code space ({_u(hi_cs)})")
        for u in sorted({hi_cs + 1, hi_cs + 2, 0x00FFFFFF, 0x01000000, 0x7FFFFFFF, 0x80000000, top - 1, top}):
            if hi_cs < u <= top:
                sub.cases.append(Case(ub(u), f"unit {uh(u)}"))
                if tail:
                    sub.cases.append(Case(ub(u) + tail, f"unit {uh(u)}{tail_note}"))
        s4.subsections.append(sub)
    out.append(s4)

    # 5 signatures, or byte order marks that are characters
    if a.signatures:  # data that begins with one is read after it: say so where a case does
        for case in _cases_of(out):
            sig = next((sig for sig, _ in a.signatures if case.data.startswith(sig)), None)
            if sig is not None:
                case.note += f" (at offset 0, {_hex(sig)} is the signature)"
        for sig, k in a.signatures:
            sig_order = cast(ByteOrder, a.byte_orders[k])
            st = a.starts[k]
            s5 = Section(f"Signature {_hex(sig)}: {sig_order}-endian units follow (recognised at offset 0 only)")
            s5.cases.append(Case(sig, "the signature alone"))
            sample = b"".join(encoded(a, ord(ch)) or b"" for ch in "A\u00e9\u20ac\U0001F600")
            body = _in_order(a, sample, sig_order)
            s5.cases.append(Case(sig + body, f"the signature, then A, é, €, 😀 {sig_order}-endian: {units(body, sig_order)}"))
            for lo, hi, oc in _unit_kinds(a, st, sig_order):
                s5.cases.append(Case(sig + ub(lo, sig_order), f"the signature, then unit {uh(lo)} {sig_order}-endian (of "
                                                      f"{uh(lo)}..{uh(hi)}: {_does(a, oc, False)})"))
            for j in range(1, unit):
                s5.cases.append(Case(sig + body[:j], f"the signature, then {j} byte{'s' if j > 1 else ''} of a unit"))
            s5.cases.append(Case(sig + sig, "the signature twice: the second is data"))
            for sig2, _k2 in a.signatures:
                if sig2 != sig:
                    s5.cases.append(Case(sig + sig2, f"the signature, then the other one ({_hex(sig2)}): data"))
            if tail:
                s5.cases.append(Case(tail + sig, f"unit {safe_hex}, then the signature (not at offset 0)"))
            for j in signature_cuts(len(sig)):
                s5.cases.append(Case(sig[:j], f"the signature cut after {j} of {len(sig)} bytes"))
            out.append(s5)
    elif (bom := encoded(a, 0xFEFF)) is not None:
        other = _in_order(a, bom, "little" if order == "big" else "big")
        s5 = Section(f"Byte order marks: {units(bom)} ({_hex(bom)}) is the character U+FEFF, no signature")
        s5.cases.append(Case(bom, f"{_hex(bom)} at offset 0: {units(bom)}, U+FEFF"))
        s5.cases.append(Case(other, f"{_hex(other)}, the mark in the other byte order: {units(other)}"))
        for b in (bom, other):
            if tail:
                s5.cases.append(Case(b + tail, f"{_hex(b)}{tail_note}"))
                s5.cases.append(Case(tail + b, f"unit {safe_hex}, then {_hex(b)}"))
            s5.cases.append(Case(b + b, f"{_hex(b)} twice"))
        s5.cases.append(Case(bom + other, f"{_hex(bom)}, then {_hex(other)}"))
        s5.cases.append(Case(other + bom, f"{_hex(other)}, then {_hex(bom)}"))
        for j in range(1, len(bom)):
            s5.cases.append(Case(bom[:j], f"{_hex(bom)} cut after {j} of {len(bom)} bytes"))
            s5.cases.append(Case(other[:j], f"{_hex(other)} cut after {j} of {len(other)} bytes"))
        out.append(s5)
    return out


def _levels(a: Automaton, ext: Extension) -> list[tuple[dict[str, int], list[int], int, int]]:
    """The first three lengths of a counted form, and the first whose count field is longer."""
    out: list[tuple[dict[str, int], list[int], int, int]] = []
    for level in counted_levels(a, ext):
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
            if a.permutation is not None:  # walked as intermediate bytes, written as real ones
                case.data = case.data.translate(a.permutation)
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
    # a run of digits' error holds the code points before it (the core's): not the token's value
    return [kind, start, end, None if value is None or kind == "error" else _value_hex(value)]


def jsonl(a: Automaton, secs: list[Section] | None = None) -> str:
    """One JSON object a line: {"bytes": hex, "tokens": [[kind, start, end, hex|null], ...], "note"}."""
    lines = []
    for c in _cases_of(secs if secs is not None else sections(a)):
        lines.append(json.dumps({"bytes": c.data.hex().upper(), "tokens": [_json_token(t) for t in c.tokens],
                                 "note": f"{c.id} {c.note}"}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def text(a: Automaton, secs: list[Section] | None = None) -> str:
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
        *(("Longest match; an error covers the maximal subpart (the longest prefix of a valid sequence, at",
           "least one byte).  Expected tokens come from the reference tokenizer over the automaton.")
          if a.error_span == "maximal-subpart" else
          ("Longest match; errors are the spec's: " + _tables.error_span_text(a) + ".",
           "Expected tokens come from the reference tokenizer over the automaton and its tables.")),
        f"{n_cases} cases.",
    ]
    if a.unit > 1:
        orders = " or ".join(f"{o}-endian" for o in a.byte_orders)
        head[-1:-1] = [
            f"Code units of {a.unit} bytes ({orders}): notes write units as the spec does (unit "
            f"{'DC00' if a.unit == 2 else '0000DC00'}),",
            "bytes stay in hex; errors cover whole units, and a unit cut by the end of the data is one error.",
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
                toks.append((kind, start, end, _parse_value(words[3] if len(words) > 3 else "") if kind == "char" else None))
            out.append((cur_id, data, toks))
            last_head = cur_id = data = None
    return out
