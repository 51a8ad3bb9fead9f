"""`undecodable` and the WHATWG replacement encoding built with it.

The standard's replacement decoder returns error once, then finished: any non-empty
input is one error (one U+FFFD), empty input nothing; its output encoding is UTF-8.
Here, on both backends: the one error's span and reason under strict, replace,
tokens, first_error and an incremental decoder fed byte by byte; the encoder equal
to CPython's UTF-8 codec on every code point (surrogates refused); every export
language takes it (the JSON table is its automaton; the C, Rust, JS and Java packages'
runs: tests/test_export_encode_*.py); decoding
linear in the input, whole and in pieces.
"""
from __future__ import annotations

import codecs

import pytest

import encspec
from conftest import assert_linear, code_points, run_cli
from encspec.spec.diagnostics import SpecError

REASON = "the replacement encoding decodes any input to one error"
INPUTS = [b"\x00", b"a", b"\xff", b"hello", "h\u00e9llo \u20ac\U0001f600".encode("utf-8"), bytes(range(256)) * 3]


@pytest.fixture(scope="module", params=["python", "native"])
def module(request):
    return encspec.load("whatwg-replacement", request.param)


def test_empty_input_decodes_to_nothing(module):
    assert module.decode(b"") == "" and list(module.tokens(b"")) == [] and module.first_error(b"") is None


@pytest.mark.parametrize("data", INPUTS, ids=lambda d: d[:8].hex())
def test_any_input_is_one_error(module, data):
    assert module.decode(data, "replace") == "\ufffd"
    assert list(module.tokens(data)) == [("error", 0, len(data), None)]
    assert module.first_error(data) == (0, len(data), REASON)
    with pytest.raises(UnicodeDecodeError) as e:
        module.decode(data)
    assert (e.value.start, e.value.end, e.value.reason) == (0, len(data), REASON)


def test_every_byte_and_byte_pair(module):
    for a in range(256):
        assert module.decode(bytes([a]), "replace") == "\ufffd"
        for b in range(0, 256, 7):
            assert list(module.tokens(bytes([a, b]))) == [("error", 0, 2, None)]


def test_an_incremental_decoder_fed_byte_by_byte(module):
    data = "any text \u20ac".encode("utf-8") * 10
    decoder = module.getregentry().incrementaldecoder("replace")
    assert "".join(decoder.decode(data[i:i + 1]) for i in range(len(data))) == ""
    assert decoder.decode(b"", final=True) == "\ufffd"


def test_the_encoder_is_utf_8(module):
    cps = code_points(surrogates=False)
    text = "".join(map(chr, cps))
    assert module.encode(text) == text.encode("utf-8")
    with pytest.raises(UnicodeEncodeError) as e:
        module.encode("a\ud800b")
    assert (e.value.start, e.value.end) == (1, 2)
    assert module.encode("a\udfffb", "replace") == b"a?b"


def test_codecs_lookup_by_a_label():
    encspec.register("whatwg-iso-2022-kr")
    assert codecs.decode(b"\x1b$)C\x0e!!", "whatwg-iso-2022-kr", "replace") == "\ufffd"
    assert codecs.encode("\u20ac", "whatwg-hz-gb-2312") == b"\xe2\x82\xac"


@pytest.mark.parametrize("lang", ["c", "rust", "js", "java", "json"])
def test_every_export_language_takes_it(capsys, tmp_path, lang):
    """Its automaton reads any non-empty input as one error, so each language's decoder is
    faithful as it is (the packages' own runs: tests/test_export_encode_*.py)."""
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "export", "whatwg-replacement", "--lang", lang, "-o", str(out))
    assert code == 0, err
    assert any(out.iterdir())


def test_describe_says_the_rows_are_the_encoders(capsys):
    code, out, _ = run_cli(capsys, "describe", "whatwg-replacement")
    assert code == 0
    assert f"any input is one error ('{REASON}'); the rows are the encoder's" in out


def test_a_second_undecodable_statement_is_an_error(tmp_path):
    spec = tmp_path / "x.encspec"
    spec.write_text('encoding x\ncode-space U+0000..U+007F\nundecodable "a"\nundecodable "b"\nform 1: 0xxxxxxx\n')
    with pytest.raises(SpecError, match="'undecodable' is given twice"):
        encspec.load(str(spec))


def test_decoding_is_linear_whole_and_in_pieces(module):
    def whole(data: bytes) -> object:
        return module.decode(data, "replace")

    def pieces(data: bytes) -> object:
        decoder = module.getregentry().incrementaldecoder("replace")
        for i in range(0, len(data), 64):
            decoder.decode(data[i:i + 64])
        return decoder.decode(b"", final=True)

    small, large = b"x" * (1 << 14), b"x" * (1 << 18)
    assert_linear("replacement decode", whole, small, large)
    assert_linear("replacement decode in pieces", pieces, small, large)
