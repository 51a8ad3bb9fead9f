"""The WHATWG single-byte specs and x-user-defined equal the Encoding Standard's algorithms.

The oracle (tests/oracles/whatwg_single_byte.py) transcribes encoding.bs's single-byte
and x-user-defined decoders and encoders and reads the index files itself.  Each of
the 29 specs, on the Python and the native backend: every byte decoded alone and
between ASCII (tokens, replacement output, the exact span of the strict error), all
256 bytes in one input, the encoder on every code point (sampled by default:
conftest.code_points) with each refused code point its own error, and random inputs
and texts from hypothesis.
"""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given
from hypothesis import strategies as st

import encspec
from conftest import code_points
from oracles import whatwg_single_byte as oracle

BACKENDS = ["python", "native"]


@pytest.fixture(scope="module", params=[(n, b) for n in oracle.NAMES for b in BACKENDS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def spec(request):
    name, backend = request.param
    return name, encspec.load(name, backend)


def _strict_span(module, data: bytes) -> tuple[int, int] | None:
    try:
        module.decode(data)
    except UnicodeDecodeError as e:
        return (e.start, e.end)
    return None


def _record(errors: list[int]):
    def handler(e: UnicodeEncodeError) -> tuple[str, int]:
        errors.extend(range(e.start, e.end))
        return ("", e.end)
    return handler


def test_there_are_the_standards_29():
    assert len(oracle.NAMES) == 29  # 28 single-byte encodings and x-user-defined


def test_every_byte_alone_and_between_ascii(spec):
    name, module = spec
    for b in range(256):
        for data in (bytes([b]), b"A" + bytes([b]) + b"BC"):
            assert list(module.tokens(data)) == oracle.tokens(name, data), data.hex()
            assert [ord(c) for c in module.decode(data, "replace")] == oracle.decode_codepoints(name, data)
            assert _strict_span(module, data) == oracle.fatal_error(name, data), data.hex()


def test_all_bytes_in_one_input(spec):
    name, module = spec
    data = bytes(range(256)) * 2
    assert [ord(c) for c in module.decode(data, "replace")] == oracle.decode_codepoints(name, data)
    assert list(module.tokens(data)) == oracle.tokens(name, data)


def test_the_encoder_on_every_code_point(spec):
    """Every code point but the surrogates: the same bytes, and each unencodable code point
    an error of its own (the standard's encoder returns error with codePoint)."""
    name, module = spec
    cps = code_points(surrogates=False)
    want, refused = oracle.encode_positions(name, cps)
    got_refused: list[int] = []
    codecs.register_error("encspec-test-single-byte", _record(got_refused))
    assert module.encode("".join(map(chr, cps)), "encspec-test-single-byte") == want
    assert got_refused == refused


@given(data=st.binary(max_size=64))
def test_random_inputs(spec, data):
    name, module = spec
    assert list(module.tokens(data)) == oracle.tokens(name, data)
    assert [ord(c) for c in module.decode(data, "replace")] == oracle.decode_codepoints(name, data)
    assert _strict_span(module, data) == oracle.fatal_error(name, data)


@given(text=st.text(st.characters(blacklist_categories=["Cs"]), max_size=32)
       | st.text(st.sampled_from("aZ\x80\xa0\xe9\u0416\u20ac\u0e01\uf780\uf7ff\U0001f600"), max_size=32))
def test_random_texts(spec, text):
    name, module = spec
    cps = [ord(c) for c in text]
    want, refused = oracle.encode_positions(name, cps)
    got_refused: list[int] = []
    codecs.register_error("encspec-test-single-byte", _record(got_refused))
    assert module.encode(text, "encspec-test-single-byte") == want
    assert got_refused == refused
