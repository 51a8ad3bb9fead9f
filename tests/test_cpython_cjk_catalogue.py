"""CPython's gb2312, gbk, cp950, cp949 and johab codecs as built-in specs, equal to CPython's own.

specs/gb2312, gbk, cp950, cp949 and johab.encspec describe CPython 3.11's codecs of
those names (Modules/cjkcodecs/_codecs_cn.c, _codecs_tw.c, _codecs_kr.c) with tables
read back from CPython (specs/tables/cpython/extract.py).  On both backends (the
generated module alone, and with its compiled extension) each decodes like CPython,
strictly (the same text, or a UnicodeDecodeError with the same start, end and
reason), with "replace" and with "ignore": every input of one and two bytes (all
65,536 pairs in every run: a two-byte table form's every pointer is a pair, and
bytes of one automaton class still look up different pointers, so the sampled
`byte_pairs` would leave most of the table unchecked; the whole sweep takes a
fraction of a second), every three-byte input over the byte edges of each codec's
forms, and hypothesis's inputs of up to 24 bytes mixing those edges, any byte and
CPython's bytes for random characters.  Each encodes every code point of
`code_points()` but the surrogates to CPython's bytes or its error: in the BMP each
alone between two ASCII letters, strictly (the same UnicodeEncodeError: start, end,
reason), above it all in one text, with the same calls to an error handler.  And
each decodes incrementally, fed in chunks, as CPython's IncrementalDecoder does.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import BACKENDS, load_backend
from conftest import (
    CPythonIncremental,
    code_points,
    decode_in_chunks,
    decoding_differences,
    encode_sweep,
    examples,
    strict_encode_outcome,
)

# spec (CPython's codec of the same name) -> the bytes where behaviour changes: the edges
# of every form's byte ranges and of the rows CPython leaves out
EDGES = {
    "gb2312": [0x00, 0x41, 0x7F, 0x80, 0xA0, 0xA1, 0xA9, 0xAA, 0xAF, 0xB0, 0xD7, 0xF7, 0xF8, 0xFE, 0xFF],
    "gbk": [0x00, 0x3F, 0x40, 0x44, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xA1, 0xA4, 0xA7, 0xA8, 0xAA, 0xAF, 0xB0,
            0xF7, 0xF8, 0xFE, 0xFF],
    "cp950": [0x00, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0xA0, 0xA1, 0xA2, 0xC6, 0xC7, 0xC8, 0xC9, 0xF9, 0xFA, 0xFE,
              0xFF],
    "cp949": [0x00, 0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x80, 0x81, 0xA0, 0xA1, 0xA4, 0xC8, 0xC9,
              0xD4, 0xFD, 0xFE, 0xFF],
    "johab": [0x00, 0x30, 0x31, 0x41, 0x7E, 0x7F, 0x80, 0x81, 0x83, 0x84, 0x88, 0x90, 0x91, 0xA1, 0xD3, 0xD4,
              0xD7, 0xD8, 0xD9, 0xDA, 0xDE, 0xDF, 0xE0, 0xF9, 0xFA, 0xFE, 0xFF],
}
SPECS = sorted(EDGES)
CASES = [(spec, backend) for spec in SPECS for backend in BACKENDS]


@pytest.mark.parametrize("spec, backend", CASES)
def test_every_input_of_one_and_two_bytes(spec, backend):
    module = load_backend(spec, backend)
    inputs = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(256) for b in range(256)]
    bad = decoding_differences(module, spec, inputs)
    assert not bad, bad


@pytest.mark.parametrize("spec, backend", CASES)
def test_three_byte_inputs_over_the_byte_edges(spec, backend):
    module = load_backend(spec, backend)
    bs = EDGES[spec]
    bad = decoding_differences(module, spec, [bytes([a, b, c]) for a in bs for b in bs for c in bs])
    assert not bad, bad


def _characters(codec: str) -> st.SearchStrategy[bytes]:
    """CPython's bytes for a random BMP character it encodes (b"" where it refuses it)."""
    def encoded(cp: int) -> bytes:
        try:
            return chr(cp).encode(codec)
        except UnicodeEncodeError:
            return b""
    return st.integers(0x80, 0xFFFF).filter(lambda cp: not 0xD800 <= cp <= 0xDFFF).map(encoded)


@pytest.mark.parametrize("spec, backend", CASES)
def test_random_inputs(spec, backend):
    """Up to 24 pieces: a byte at an edge, any byte, or a whole character as CPython writes it."""
    module = load_backend(spec, backend)
    piece = st.one_of(st.sampled_from(EDGES[spec]).map(lambda b: bytes([b])),
                      st.integers(0, 255).map(lambda b: bytes([b])), _characters(spec))

    @settings(max_examples=examples(400), deadline=None)
    @given(st.lists(piece, min_size=1, max_size=24).map(b"".join))
    def check(data: bytes) -> None:
        bad = decoding_differences(module, spec, [data])
        assert not bad, bad
    check()


@pytest.mark.parametrize("spec, backend", CASES)
def test_incremental_decoding_in_chunks(spec, backend):
    """1,000 seeded inputs of 1..12 bytes fed 1, 2 and 3 bytes at a time, strictly and with
    "replace": the same text, or the same error (start, end, reason, text so far), as
    CPython's IncrementalDecoder (a lead byte at a chunk's end waits for the next chunk)."""
    module = load_backend(spec, backend)
    rnd = random.Random(f"cjk-catalogue chunks {spec}")
    bs = EDGES[spec]
    inputs = [bytes(rnd.choice(bs) if rnd.random() < 0.75 else rnd.randrange(256) for _ in range(rnd.randint(1, 12)))
              for _ in range(1000)]
    theirs = CPythonIncremental(spec)
    bad = [(data.hex(" ").upper(), size, errors) for data in inputs for size in (1, 2, 3)
           for errors in ("strict", "replace")
           if decode_in_chunks(module, data, errors, size) != decode_in_chunks(theirs, data, errors, size)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("spec, backend", CASES)
def test_every_code_point_encodes_alike(spec, backend):
    """Every BMP code point but the surrogates, between two ASCII letters, strictly: CPython's
    bytes, or its UnicodeEncodeError over the code point alone (start 1, end 2).  Above the
    BMP (which all five refuse, `c > 0xFFFF`) the code points of `code_points()` run
    together, with an error handler: the same calls to it as CPython makes, one each."""
    module = load_backend(spec, backend)
    bad, written, refused, (want_bytes, want_calls), (got_bytes, got_calls) = encode_sweep(spec, module)
    assert not bad, bad
    assert written > 7000 and refused > 40000  # the sweep met both kinds (gb2312 writes the fewest)
    assert len(want_calls) == sum(1 for cp in code_points(surrogates=False) if cp >= 0x10000)
    assert got_bytes == want_bytes
    assert got_calls == want_calls


@pytest.mark.parametrize("spec", SPECS)
def test_a_run_of_refused_code_points_is_an_error_each(spec):
    """Two refused code points in a row: CPython raises over the first alone (its codec
    returns 1, one character), and so does the spec (`error-span one-unit`)."""
    module = load_backend(spec, "python")
    text = "ab\U0010FFFE\U0010FFFDc"
    assert strict_encode_outcome(module.encode, text) == strict_encode_outcome(lambda t: t.encode(spec), text)
    assert strict_encode_outcome(module.encode, text)[1:3] == (2, 3)  # type: ignore[index]
