"""The automaton for utf-8 accepts exactly what CPython's strict utf-8 codec accepts.

Error spans are Unicode's maximal subparts, which CPython's UnicodeDecodeError
start/end report; this checks the automaton itself, through the reference
tokenizer that walks its plain data (encspec.automaton.run).
"""
from __future__ import annotations

import codecs
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from encspec.pipeline import load
from encspec.runtime.tables import tokens


def cpython_tokens(data: bytes) -> list[tuple]:
    """(kind, start, end, value, reason) from CPython's utf-8 decoder, via an error handler."""
    spans = []

    def record(exc):
        spans.append((exc.start, exc.end, exc.reason))
        return ("\ufffd", exc.end)

    codecs.register_error("test.record", record)
    text = data.decode("utf-8", "test.record")
    out, pos, spans_iter, chars = [], 0, iter(spans), iter(text)
    pending = next(spans_iter, None)
    while pos < len(data):
        if pending and pending[0] == pos:
            out.append(("error", pos, pending[1], None, pending[2]))
            next(chars)
            pos = pending[1]
            pending = next(spans_iter, None)
            continue
        ch = next(chars)
        n = len(ch.encode("utf-8"))
        out.append(("char", pos, pos + n, ord(ch), None))
        pos += n
    return out


@pytest.fixture(scope="module")
def utf8():
    return load("utf-8")[1]


def test_all_one_and_two_byte_inputs(utf8):
    for n in (1, 2):
        for t in itertools.product(range(256), repeat=n):
            data = bytes(t)
            assert list(tokens(utf8, data)) == cpython_tokens(data), data.hex()


def _class_boundaries(a) -> list[int]:
    """Each class's boundary bytes: the first and last byte of every run of a class."""
    return sorted({b for lo, hi, _ in a.class_runs() for b in (lo, hi)})


def test_three_byte_inputs_with_class_boundaries(utf8):
    reps = _class_boundaries(utf8)
    assert 0x7F in reps and 0x80 in reps and 0xBF in reps and 0xC0 in reps
    for first in range(256):
        for rest in itertools.product(reps, repeat=2):
            data = bytes((first,) + rest)
            assert list(tokens(utf8, data)) == cpython_tokens(data), data.hex()


@pytest.mark.slow  # an exhaustive sweep: ENCSPEC_SLOW=1 (CI) runs it
def test_four_byte_inputs_with_class_representatives(utf8):
    one_per_class = {}
    for b, c in enumerate(utf8.classes):
        one_per_class.setdefault(c, b)
    reps = sorted(set(one_per_class.values()) | {0x8F, 0x90, 0xBF})
    for first in range(256):
        for rest in itertools.product(reps, repeat=3):
            data = bytes((first,) + rest)
            assert list(tokens(utf8, data)) == cpython_tokens(data), data.hex()


interesting = st.sampled_from([0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                               0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFE, 0xFF])


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.one_of(interesting, st.integers(0, 255)), max_size=24).map(bytes))
def test_random_bytes_match_cpython(data):
    a = load("utf-8")[1]
    assert list(tokens(a, data)) == cpython_tokens(data)


def test_kuhn_stress_test_file_matches_cpython(corpora, utf8):
    data = (corpora / "kuhn-UTF-8-test.txt").read_bytes()
    assert len(data) == 22781
    assert list(tokens(utf8, data)) == cpython_tokens(data)


def test_utf8_is_hoehrmann_sized(utf8):
    """Actions are identified by what they compute, so UTF-8 needs 9 states like Höhrmann's DFA."""
    assert utf8.n_states == 9
    assert utf8.next[0][utf8.classes[0xC0]] == -1 and utf8.next[0][utf8.classes[0xF5]] == -1


def test_corrected_utf8_reserved_run_absorbs_continuation_bytes():
    """corrected-utf-8.txt: FE/FF sequences extend until the next recognized lead byte."""
    a = load("corrected-utf-8")[1]
    assert list(tokens(a, bytes.fromhex("FE8080BF41FF"))) == [
        ("reserved", 0, 4, None, "reserved sequence"), ("char", 4, 5, 0x41, None),
        ("reserved", 5, 6, None, "reserved sequence")]
