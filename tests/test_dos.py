"""Denial of service, decoding (issue 14, item 5).

For every built-in spec and both backends, adversarial inputs at 64 KiB and at
1 MiB, decoded one-shot (errors="replace", and the strict checks: ``tokens``,
``first_error``) and incrementally (an IncrementalDecoder fed 997-byte chunks,
and 7-byte chunks where one token spans the whole input): the 1 MiB run may
take at most 25 times the 64 KiB run.  That is a ratio of two times measured
here, never a timing: best of 5 small runs and of 3 large ones (5 when the
bound is exceeded narrowly, which noise can do, then paired back to back), in
CPU time of this process (see conftest.assert_linear: wall-clock ratios are skewed by
other processes on a loaded machine; both are in the failure messages), the
garbage collector off as in timeit, one warm-up run, short calls repeated so
that a measurement is never a few microseconds.  A large run that goes past
2x the bound, or a small run past SMALL_GUARD seconds, is stopped (SIGALRM on
the wall clock) and fails saying so: a hang is a failure, not a hang.

The inputs come from each spec's automaton (``encspec.pipeline.load``):

* ``run``: every byte value repeated, one byte per byte class (bytes of one
  class behave alike in every state, so a class stands for all its bytes).  For
  the pure-Python backend, classes whose runs give the same tokens (kind and
  length: the core does the same work for them) share one representative,
  which keeps the 1 MiB runs of the slow backend within the time budget;
* ``partial``: the longest form's first encoding without its last byte (a
  lead byte and partial continuations), repeated (the shorter forms' partials
  are lead bytes followed by fewer continuations; a lead byte alone is a
  ``run``);
* ``alternating``: every row's first code point, each followed by a byte that
  cannot start a sequence, repeated;
* ``valid-then-bad``: valid text up to the size, then one bad byte (the strict
  paths read it all before they fail);
* ``reserved-run``: a reserved lead byte and continuation bytes, one token as
  long as the input (Corrected UTF-8's FE/FF; runs of FE and FF alone are
  ``run`` inputs);
* counted forms (UTF-inf-8): absurd headers (``FF B4x5 AFx6`` then BF bytes:
  the value is 22 million bytes away), headers and truncated headers repeated,
  headers whose field overflows 2**62, one header as long as the input, a run
  of B4 length bytes, one valid code point as long as the input, and long code
  points repeated.

The counted forms' results are checked against the contract (below) at small
sizes in the default run; the ratio tests are marked slow (ENCSPEC_SLOW=1).
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import deque
from functools import cache

import pytest

from codec_samples import load_backend
from conftest import Hang, assert_linear, deadline, native_builtin, representative_builtins, run_cli

BACKENDS = ["python", "native"]
SMALL = 64 * 1024
BIG = 1024 * 1024
# The 1 MiB run may take at most 25 times the 64 KiB run, measured by conftest.assert_linear
# (its defaults: best of 5 and 3, a 1 MiB call under 3 ms passes whatever the ratio since
# it then measures the allocator, not the algorithm, and the guards below against a hang).
SMALL_GUARD = 20.0  # seconds: a 64 KiB run (or one call of a small case) longer than this is a hang
CHUNK = 997         # incremental decoding: chunk size (a prime, so chunks fall anywhere)
SMALL_CHUNK = 7

# The contract's reasons (issue 14, counted forms).
END = "unexpected end of data"
CONT = "invalid continuation byte"
LIMIT = "counted form beyond this decoder's limits"
START = "invalid start byte"

# UTF-inf-8's absurd header: FF, B4 x 5, then 6 length digits AF (NME = 0xFFFFFF): the
# value would be (NME + 20) // 3 * 2 = 11,184,822 bytes of 80..BF.
ABSURD = bytes.fromhex("FFB4B4B4B4B4AFAFAFAFAFAF")


# Specs that decode with the same automaton as another (the same byte classes,
# transitions, digit operations, actions and error spans; tables differing only in
# a few entries, which cannot change how long anything takes) are measured as that one.
DECODES_LIKE = {"whatwg-gbk": "whatwg-gb18030", "gb18030-2022": "gb18030"}


def all_specs():
    return sorted(n for n in representative_builtins() if n not in DECODES_LIKE)


ALL_SPECS = all_specs()


@cache
def automaton(name):
    from encspec import pipeline
    return pipeline.load(name)[1]


def test_the_specs_left_out_decode_like_the_one_measured():
    from encspec.runtime.tables import values
    for name, like in DECODES_LIKE.items():
        a, b = values(automaton(name)), values(automaton(like))
        for key in ("_CLASS_RUNS", "_NEXT", "_OPS", "_ACCEPT", "_FINAL", "_ACTIONS", "_AT_END", "_SPAN", "_RESTORE"):
            assert a[key] == b[key], (name, key)
        shape = [(t[0], t[1], len(t[2]), len(t[6])) for t in a["_TABLES"]]  # kind, base, sizes
        assert shape == [(t[0], t[1], len(t[2]), len(t[6])) for t in b["_TABLES"]], name


# ------------------------------------------------------------------ measuring
def guarded(fn, arg, seconds, what):
    """fn(arg), or pytest.fail when it does not return within *seconds*."""
    try:
        with deadline(seconds):
            return fn(arg)
    except Hang:
        pytest.fail(f"{what}: did not return within {seconds:.0f} s (stopped)", pytrace=False)


# --------------------------------------------------------------------- modes
def decode_replace(m):
    return lambda data: m.decode(data, "replace")


def strict_tokens(m):
    return lambda data: deque(m.tokens(data), 0)


def strict_first_error(m):
    return lambda data: m.first_error(data)


def strict_decode(m):
    def run(data):
        try:
            m.decode(data)
        except UnicodeDecodeError as e:
            return e.start
        return None
    return run


def incremental(m, chunk, errors="replace"):
    def run(data):
        dec = m.IncrementalDecoder(errors)
        out = [dec.decode(data[i:i + chunk]) for i in range(0, len(data), chunk)]
        out.append(dec.decode(b"", True))
        return "".join(out)
    return run


def codepoints(m):
    return lambda data: m.decode_codepoints(data, "replace")


MODES = {
    "decode": decode_replace,                        # one-shot, errors="replace"
    "tokens": strict_tokens,                         # every token (what is_valid/first_error/lint walk)
    "first-error": strict_first_error,               # strict validity
    "strict": strict_decode,                         # decode(errors="strict"): raises
    "incremental": lambda m: incremental(m, CHUNK),
    "incremental-7": lambda m: incremental(m, SMALL_CHUNK),
    "codepoints": codepoints,                        # decode_codepoints (values of any size)
}


def fill(piece, size):
    """*piece* repeated to exactly *size* bytes (the last copy cut)."""
    return (piece * (size // len(piece) + 1))[:size]


# ---------------------------------------------------------------- byte runs
def class_representatives(name):
    """One byte per byte class of the automaton (the smallest), in byte order."""
    a = automaton(name)
    reps = {}
    for b in range(256):
        reps.setdefault(a.classes[b], b)
    return sorted(reps.values())


def run_shape(m, b):
    """The tokens of a short run of byte *b* as (kind, length) with repeats counted."""
    shape = []
    for kind, start, end, _ in m.tokens(bytes([b]) * 48):
        if shape and shape[-1][0] == (kind, end - start):
            shape[-1][1] += 1
        else:
            shape.append([(kind, end - start), 1])
    return tuple((t, c) for t, c in shape)


def starts_nothing(name, b):
    """Whether byte *b* cannot start a sequence (the automaton dies on it in state 0)."""
    a = automaton(name)
    return not 0 <= a.next[0][a.classes[b]] < a.n_states + len(a.extensions)


def end_state(m, b):
    """The incremental decoder's state after a short run of byte *b*: its mode and pending bytes."""
    dec = m.IncrementalDecoder("replace")
    dec.decode(bytes([b]) * 48)
    return dec.getstate()


def run_representatives(name, backend, m):
    """The bytes whose runs are measured: a byte per class (native: cheap, but for a spec
    with modes), and for the pure-Python backend one byte per distinct token shape among those, bytes that start
    a sequence apart from those that cannot (a lead byte run and an invalid byte run
    give the same shape: one-byte errors)."""
    reps = class_representatives(name)
    modal = bool(automaton(name).modes)
    if backend == "native" and not modal:
        return reps
    seen = {}
    for b in reps:
        shape = guarded(lambda b: run_shape(m, b), b, SMALL_GUARD, f"{name} tokens of a run of {b:02X}")
        # with modes, most classes tell escape sequences' bytes apart (an ISO-2022 spec
        # has 54, 50 of them ASCII characters in a run): natively too, one per shape and
        # the state the run leaves (a run of ESC: ESC throughout)
        native_state = (end_state(m, b),) if backend == "native" else ()
        seen.setdefault((shape, starts_nothing(name, b)) + native_state, b)
    # and the first byte of each counted form (UTF-inf-8's FF), whatever its shape
    firsts = {ext.prefix_bytes[0] for ext in automaton(name).extensions if ext.prefix_bytes}
    return sorted(set(seen.values()) | firsts)


# tokens() and first_error() are the module's Python scanner whatever the backend, so they
# are measured on the python backend (and on both for the long-token kinds).
@cache
def has_tables(name):
    return bool(automaton(name).tables)


# Table specs run the same core paths as every other spec (the incremental and token
# walks are _run's, measured on the other 24 specs); what is theirs is the table
# lookup and the error span, which one-shot decoding on both backends measures (and
# incremental decoding on the native one, whose loop is its own).
def wanted(name, backend, mode):
    if mode == "tokens" and backend == "native":
        return False
    return not has_tables(name) or mode == "decode" or (mode == "incremental" and backend == "native")


BYTE_RUN_CASES = [(name, backend, mode) for name in ALL_SPECS for backend in BACKENDS
                  for mode in ("decode", "incremental", "tokens") if wanted(name, backend, mode)
                  and (backend != "native" or native_builtin(name))]


@pytest.mark.slow
@pytest.mark.parametrize("name,backend,mode", BYTE_RUN_CASES)
def test_byte_runs(name, backend, mode):
    """Each byte value repeated (one per byte class): 64 KiB vs 1 MiB."""
    m = load_backend(name, backend)
    failures = []
    reps = run_representatives(name, backend, m)
    if backend == "python" and mode != "decode":
        # On the slow backend (native: every class in every mode), a run of a byte that
        # cannot start a sequence is timed one-shot only: one-byte errors decided on the
        # byte alone, nothing pending between chunks, tokens() walking it as decode does.
        # Incrementally, a lead byte run too (one-byte errors, at most one byte pending:
        # the "partial" inputs hold more); the runs of longer tokens are all timed.
        reps = [b for b in reps if not starts_nothing(name, b)]
        if mode == "incremental":
            reps = [b for b in reps if {t for t, _ in run_shape(m, b)} != {("error", 1)}]
    for b in reps:
        label = f"{name} [{backend}] run of {b:02X}, {mode}"
        try:
            assert_linear(label, MODES[mode](m), bytes([b]) * SMALL, bytes([b]) * BIG)
        except pytest.fail.Exception as e:
            failures.append(str(e))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


# ------------------------------------------------------------ shaped inputs
def bad_byte(name):
    """A byte that cannot start a sequence (the automaton dies on it in state 0)."""
    dead = [b for b in range(256) if starts_nothing(name, b)]
    return next((b for b in dead if b >= 0x80), dead[0]) if dead else None


def first_code_points(name):
    """Each row's first code point, and each table form's first entry's."""
    a = automaton(name)
    out = [row.first for row in a.rows]
    for form in a.table_forms():
        entries = a.tables[form.table].entries()
        if entries:
            out.append(entries[0][2] if a.tables[form.table].ranges else entries[0][1])
    return out


def table_sequences(name):
    """Each table form's sequence of its first pointer with an entry."""
    from encspec.runtime.tables import digits_bytes
    a = automaton(name)
    out = []
    for form in a.table_forms():
        entries = a.tables[form.table].entries()
        if entries:
            out.append(digits_bytes(form.positions, entries[0][0], form.order))
    return out


def row_encodings(name, text_only=False):
    """The encoding of each row's first code point (rows the encoder writes; with
    *text_only*, those a str can hold), and of each table form's first entry."""
    m = load_backend(name, "python")
    out = []
    for first in first_code_points(name):
        if text_only and first > 0x10FFFF:
            continue
        try:
            out.append(m.encode([first]))
        except (ValueError, UnicodeError, TypeError):
            continue
    return out


def reserved_piece(name):
    """A reserved lead byte followed by a byte that keeps the run going, or None."""
    a = automaton(name)
    for lead in a.reserved:
        s = a.next[0][a.classes[lead]]
        if not 0 <= s < a.n_states:
            continue
        for b in range(0x80, 0x100):
            t = a.next[s][a.classes[b]]
            if 0 <= t < a.n_states and a.next[t][a.classes[b]] == t:
                return bytes([lead]), bytes([b])
    return None


def bad_piece(name):
    """Bytes that decode to an error: a byte that starts nothing (in a spec of bytes), else
    the shortest of a few sequences the encodings of wider units or varints reject (a
    lone trail unit, a unit beyond U+10FFFF, a redundant group), else one odd byte."""
    b = bad_byte(name)
    a = automaton(name)
    if b is not None and a.unit == 1:
        return bytes([b])
    m = load_backend(name, "python")
    candidates = [bytes([x]) * a.unit for x in (0xDC, 0xFF, 0x80)]
    candidates += [bytes([x]) * k + bytes([y]) for k in range(1, 11) for x in (0x80, 0xF1, 0xFA, 0xFF)
                   for y in (0x00, 0x02, 0x7F)]
    for c in sorted(candidates, key=len):
        if any(t[0] == "error" for t in m.tokens(c)):
            return c
    return b"\x80"


def row_sequences(name):
    """Each row's own first sequence (a longer form's too, where a shorter one also holds the code point)."""
    from encspec.runtime.tables import row_bytes
    a = automaton(name)
    return [row_bytes(a, r, r.first) for r in a.rows] + table_sequences(name)


def shaped_input(name, kind, size):
    if kind == "partial":
        longest = max(row_sequences(name), key=len)
        return fill(longest[:-1], size)
    if kind == "alternating":
        bad = bad_piece(name)
        return fill(b"".join(e + bad for e in row_encodings(name)), size)
    if kind == "valid-then-bad":
        block = b"".join(row_encodings(name, text_only=True))
        bad = bad_piece(name)
        data = block * ((size - len(bad)) // len(block))
        a = load_backend(name, "python").encode("A", signature=False)  # whole units
        return data + a * ((size - len(bad) - len(data)) // len(a)) + bad
    if kind == "reserved-run":
        lead, cont = reserved_piece(name)
        return lead + cont * (size - 1)
    raise ValueError(kind)


def shaped_cases():
    cases = []
    for name in ALL_SPECS:
        # a partial sequence needs a form longer than a byte; valid text ending in a bad piece
        # needs a bad piece (a total code page has none) and a decoder of the forms
        kinds = ("partial", "alternating") if max(map(len, row_sequences(name))) > 1 else ("alternating",)
        modes = [(kind, mode) for kind in kinds for mode in ("decode", "incremental", "tokens")]
        if not automaton(name).undecodable and any(
                t[0] == "error" for t in load_backend(name, "python").tokens(bad_piece(name))):
            modes += [("valid-then-bad", "strict"), ("valid-then-bad", "first-error")]
        if reserved_piece(name) is not None:
            modes += [("reserved-run", mode) for mode in ("decode", "incremental", "incremental-7", "tokens")]
        for kind, mode in modes:
            for backend in BACKENDS:
                if kind != "valid-then-bad" and not wanted(name, backend, mode):
                    continue
                if backend == "native" and not native_builtin(name):
                    continue
                if backend == "native" and mode in ("tokens", "first-error") and kind != "reserved-run":
                    continue
                cases.append((name, kind, mode, backend))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("name,kind,mode,backend", shaped_cases())
def test_shaped_inputs(name, kind, mode, backend):
    """Lead bytes with partial continuations, valid/invalid alternating, valid text with a
    bad last byte, long reserved runs: 64 KiB vs 1 MiB."""
    m = load_backend(name, backend)
    small, big = shaped_input(name, kind, SMALL), shaped_input(name, kind, BIG)
    if kind == "reserved-run":
        assert m.first_error(small, allow_reserved=False) == (0, SMALL, "reserved sequence")
    if kind == "valid-then-bad":
        bad = bad_piece(name)  # the data's end: its first error is the data's
        at = next(t[1] for t in load_backend(name, "python").tokens(bad) if t[0] == "error")
        assert strict_decode(m)(small) == len(small) - len(bad) + at
    assert_linear(f"{name} [{backend}] {kind}, {mode}", MODES[mode](m), small, big)


# ------------------------------------------------------- counted forms (UTF-inf-8)
def nme_digits(nme):
    """The length field: B4 x n, then n + 1 digits A0..AF (no leading A0)."""
    digits = f"{nme:X}"
    return b"\xb4" * (len(digits) - 1) + bytes(0xA0 + int(c, 16) for c in digits)


def header(nme):
    return b"\xff" + nme_digits(nme)


def value_count(nme):
    """How many value bytes (80..BF) a header with this NME announces (the contract)."""
    return (nme + 20) // 3 * 2


_PAIRS = [bytes([0x80 | (v >> 6), 0x80 | (v & 63)]) for v in range(4096)]


def long_char(nud, rng):
    """A valid long form of a random code point with *nud* hex digits (nud % 3 == 0, so
    that the value bytes hold exactly its digits): (bytes, code point)."""
    assert nud % 3 == 0 and nud >= 21
    cp = rng.getrandbits(4 * nud) | (1 << (4 * nud - 1))
    h = f"{cp:X}"
    assert len(h) == nud
    value = b"".join([_PAIRS[int(h[i:i + 3], 16)] for i in range(0, nud, 3)])
    assert len(value) == value_count(nud - 18)
    return header(nud - 18) + value, cp


def error(start, end, reason):
    return ("error", start, end, None, reason)


def repeated(piece, size, each, last):
    """*piece* repeated while it fits in *size*: tokens from each(start) for every copy but
    the last, last(start) for the last."""
    n = max(1, size // len(piece))
    data = piece * n
    return data, [t for k in range(n) for t in (each if k < n - 1 else last)(k * len(piece))]


def counted_input(kind, size):
    """(data, expected tokens as (kind, start, end, value, reason)) for a counted-form kind."""
    if kind == "absurd+BF":
        return ABSURD + b"\xbf" * (size - len(ABSURD)), [error(0, size, END)]
    if kind == "absurd-repeated":
        piece = ABSURD + b"\xbf" * 100
        return repeated(piece, size, lambda s: [error(s, s + len(piece), CONT)],
                        lambda s: [error(s, s + len(piece), END)])
    if kind == "headers-repeated":
        return repeated(ABSURD, size, lambda s: [error(s, s + len(ABSURD), CONT)],
                        lambda s: [error(s, s + len(ABSURD), END)])
    if kind == "truncated-headers":
        piece = ABSURD[:9]  # FF B4 x 5, then 3 of the 6 length digits
        return repeated(piece, size, lambda s: [error(s, s + 9, CONT)], lambda s: [error(s, s + 9, END)])
    if kind == "overflow-headers":
        # 16 length digits AF: NME = 2**64 - 1, beyond 2**62; one value byte after it
        h = header(16 ** 16 - 1)
        piece = h + b"\xbf"
        return repeated(piece, size, lambda s: [error(s, s + len(h), LIMIT), error(s + len(h), s + len(piece), START)],
                        lambda s: [error(s, s + len(h), LIMIT), error(s + len(h), s + len(piece), START)])
    if kind == "huge-header":
        k = (size - 3) // 2  # FF, B4 x k, AF x (k + 1), BF
        data = b"\xff" + b"\xb4" * k + b"\xaf" * (k + 1) + b"\xbf"
        return data, [error(0, len(data) - 1, LIMIT), error(len(data) - 1, len(data), START)]
    if kind == "B4-run":
        return b"\xff" + b"\xb4" * (size - 1), [error(0, size, END)]
    if kind == "one-long-char":
        rng = random.Random(size)
        nud = (size - 40) * 3 // 2 // 3 * 3  # about size bytes in all
        data, cp = long_char(nud, rng)
        return data, [("char", 0, len(data), cp, None)]
    if kind == "long-chars-repeated":
        rng = random.Random(7)
        chars = [long_char(nud, rng) for nud in (21, 102, 300, 999)]
        block = b"".join(c for c, _ in chars)
        n = max(1, size // len(block))
        expected, at = [], 0
        for _ in range(n):
            for c, cp in chars:
                expected.append(("char", at, at + len(c), cp, None))
                at += len(c)
        return block * n, expected
    raise ValueError(kind)


COUNTED_KINDS = ["absurd+BF", "absurd-repeated", "headers-repeated", "truncated-headers", "overflow-headers",
                 "huge-header", "B4-run", "one-long-char", "long-chars-repeated"]


def expected_text(expected):
    return "".join(chr(v) if k == "char" and v <= 0x10FFFF else "\ufffd" for k, _, _, v, _ in expected)


def first_problem(m, expected):
    for kind, start, end, value, reason in expected:
        if kind == "error":
            return (start, end, reason)
        if kind == "char" and value > 0x10FFFF:
            return (start, end, m.BEYOND_REASON)
    return None


def check_counted_results(m, backend, kind, data, expected):
    """The tokens, first_error, decode (replace and strict), decode_codepoints and the
    incremental decoders' text, each under a deadline."""
    where = f"utf-inf-8 [{backend}] {kind}, {len(data)} bytes"
    got = guarded(lambda d: list(m.tokens(d)), data, SMALL_GUARD, f"{where}: tokens")
    assert got == [(k, s, e, v) for k, s, e, v, _ in expected], f"{where}: tokens"
    errors = [(s, e, r) for k, s, e, _, r in expected if k == "error"]
    assert guarded(m.first_error, data, SMALL_GUARD, f"{where}: first_error") == \
        (errors[0] if errors else None), f"{where}: first_error"
    text = expected_text(expected)
    assert guarded(decode_replace(m), data, SMALL_GUARD, f"{where}: decode") == text, f"{where}: decode"
    cps = [v if k == "char" else 0xFFFD for k, _, _, v, _ in expected]
    assert guarded(codepoints(m), data, SMALL_GUARD, f"{where}: decode_codepoints") == cps, \
        f"{where}: decode_codepoints"
    problem = first_problem(m, expected)
    try:
        guarded(m.decode, data, SMALL_GUARD, f"{where}: strict decode")
    except UnicodeDecodeError as e:
        assert (e.start, e.end, e.reason) == problem, f"{where}: strict decode"
    else:
        assert problem is None, f"{where}: strict decode did not raise"
    for chunk in (CHUNK, SMALL_CHUNK):
        assert guarded(incremental(m, chunk), data, SMALL_GUARD, f"{where}: incremental ({chunk}-byte chunks)") \
            == text, f"{where}: incremental ({chunk}-byte chunks)"


@pytest.mark.parametrize("kind", COUNTED_KINDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_counted_results(backend, kind):
    """The contract's tokens for the adversarial counted-form inputs, at 4 KiB (and the
    absurd header at 64 KiB): fast, unmarked."""
    m = load_backend("utf-inf-8", backend)
    for size in (4096,) + ((SMALL,) if kind in ("absurd+BF", "B4-run", "huge-header") else ()):
        data, expected = counted_input(kind, size)
        check_counted_results(m, backend, kind, data, expected)


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8, 12])
@pytest.mark.parametrize("backend", BACKENDS)
def test_absurd_headers_end_of_data(backend, k):
    """FF, B4 x k, AF x (k + 1), then fewer value bytes than announced (all valid
    digits): one error from the FF to the end of data, "unexpected end of data"."""
    m = load_backend("utf-inf-8", backend)
    h = b"\xff" + b"\xb4" * k + b"\xaf" * (k + 1)
    need = value_count(16 ** (k + 1) - 1)
    for m_bytes in sorted({0, 1, 5, 100, min(4000, need - 1)}):
        data = h + b"\xbf" * m_bytes
        check_counted_results(m, backend, f"FF B4x{k} AFx{k + 1} BFx{m_bytes}", data, [error(0, len(data), END)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_issue_example_one_replacement(backend):
    """The issue's 112-byte input: one U+FFFD, one error token (0, 112), invalid."""
    m = load_backend("utf-inf-8", backend)
    data = ABSURD + b"\xbf" * 100
    assert len(data) == 112
    assert guarded(decode_replace(m), data, SMALL_GUARD, "decode") == "\ufffd"
    assert guarded(lambda d: list(m.tokens(d)), data, SMALL_GUARD, "tokens") == [("error", 0, 112, None)]
    assert guarded(m.is_valid, data, SMALL_GUARD, "is_valid") is False
    assert guarded(m.first_error, data, SMALL_GUARD, "first_error") == (0, 112, END)


@pytest.mark.parametrize("backend", BACKENDS)
def test_header_claims_rejected_in_header_time(backend):
    """A header alone claiming 2**40 value bytes is rejected as fast as one claiming 2**20
    (at most 5x: time proportional to the header, 22 vs 12 bytes), with the contract's
    token: one error over the whole header, "unexpected end of data"."""
    m = load_backend("utf-inf-8", backend)
    headers = {}
    for bits in (20, 40):
        nme = 3 * 2 ** (bits - 1) - 20
        assert value_count(nme) == 2 ** bits
        h = header(nme)
        check_counted_results(m, backend, f"header claiming 2**{bits} bytes", h, [error(0, len(h), END)])
        headers[bits] = h
    for mode in ("decode", "tokens", "first-error"):
        assert_linear(f"utf-inf-8 [{backend}] header claiming 2**40 vs 2**20 value bytes, {mode}",
                      MODES[mode](m), headers[20], headers[40], bound=5)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["absurd+BF", "headers-repeated", "huge-header", "B4-run"])
def test_counted_quick_ratio(backend, kind):
    """A quick ratio for the default run: 4 KiB vs 64 KiB, one-shot and tokens."""
    m = load_backend("utf-inf-8", backend)
    small, big = counted_input(kind, 4096)[0], counted_input(kind, SMALL)[0]
    for mode in ("decode", "tokens"):
        assert_linear(f"utf-inf-8 [{backend}] {kind}, {mode}", MODES[mode](m), small, big)


COUNTED_CASES = [(kind, mode) for kind in COUNTED_KINDS for mode in ("decode", "tokens", "incremental")] + \
    [(kind, "incremental-7") for kind in ("absurd+BF", "B4-run", "one-long-char")] + \
    [("one-long-char", "codepoints"), ("long-chars-repeated", "codepoints")]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,mode", COUNTED_CASES)
def test_counted_forms_linear(kind, mode, backend):
    """UTF-inf-8's counted forms, adversarial and valid: 64 KiB vs 1 MiB."""
    m = load_backend("utf-inf-8", backend)
    small, big = counted_input(kind, SMALL)[0], counted_input(kind, BIG)[0]
    assert_linear(f"utf-inf-8 [{backend}] {kind}, {mode}", MODES[mode](m), small, big)


# --------------------------------------------------------------------- the CLI
def test_cli_validate_absurd_header(capfd, tmp_path):
    """`encspec validate utf-inf-8` on the issue's 112-byte file exits 1, about as fast as on
    a valid file of the same size (at most 5x the CPU time, best of 3); `encspec tokens`
    prints the one error token (and exits 0: it lists tokens, it does not judge them)."""
    bad = tmp_path / "absurd.bin"
    bad.write_bytes(ABSURD + b"\xbf" * 100)
    good = tmp_path / "good.bin"
    good.write_bytes(b"A" * 112)

    def validate(path):
        t0 = time.process_time()
        rc, out, err = guarded(lambda p: run_cli(capfd, "validate", "-j", "1", "utf-inf-8", p), path,
                               10, f"encspec validate utf-inf-8 {path.name}")
        return time.process_time() - t0, rc, out

    validate(good)  # warm-up: imports, the module
    t_bad = []
    t_good = []
    for _ in range(3):
        t, rc, out = validate(bad)
        assert rc == 1, out
        assert "unexpected end of data" in out
        t_bad.append(t)
        t, rc, out = validate(good)
        assert rc == 0, out
        t_good.append(t)
    assert min(t_bad) <= 5 * min(t_good), \
        f"validate: {min(t_bad) * 1e3:.1f} ms on the absurd header, {min(t_good) * 1e3:.1f} ms on a valid file"
    rc, out, err = guarded(lambda p: run_cli(capfd, "tokens", "utf-inf-8", p), bad, 10, "encspec tokens")
    assert (rc, out) == (0, "error 0 112\n")  # tokens prints the tokens: its exit code is 0


def test_cli_validate_subprocess(tmp_path):
    """The same in a separate process (default options), which must exit 1 within 10 s."""
    bad = tmp_path / "absurd.bin"
    bad.write_bytes(ABSURD + b"\xbf" * 100)
    cli = "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", cli, "validate", "utf-inf-8", str(bad)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # its workers too
        proc.communicate()
        pytest.fail("encspec validate utf-inf-8 on the 112-byte absurd header did not exit within 10 s")
    assert proc.returncode == 1, (out, err)
    assert b"unexpected end of data" in out
