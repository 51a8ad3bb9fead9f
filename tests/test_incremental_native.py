"""The native incremental decoder (the extension's ``feed``: one call a chunk) and
encoder (``encode_str`` a piece) against the pure-Python backend and one-shot calls.

Split anywhere, under every handler the extension applies itself and those it leaves
to the module (strict, a custom one), the native IncrementalDecoder gives what the
pure-Python one gives chunk by chunk (the same text each call, the same getstate()
after it, an error at the same absolute offset with the same reason), and all of it
what one-shot decoding gives; a decoder made from another's getstate() mid-stream
goes on alike.  The expected values come from the pure-Python automaton (another
implementation) and from one-shot decoding, never from the feed itself.  Likewise
the native IncrementalEncoder gives the pure-Python one's bytes, getstate() and
errors piece by piece, and together one-shot encoding's bytes.
"""
from __future__ import annotations

import codecs
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from conftest import examples

# The UTF-8 family, code units (with and without a byte order mark), mapping tables,
# a spec whose tokens have no length limit (utf-inf-8), a counted one (leb128) and one
# whose bytes go through a permutation (utf-ebcdic: the decoder keeps its exact path),
# and one with sequences of code points (euc_jis_2004: the encoder holds their starts back).
SPECS = ["utf-8", "utf-8-bom", "cesu-8", "wtf-8", "utf-16", "utf-16le", "utf-32", "utf-32be",
         "gb18030", "shift_jis", "big5", "utf-inf-8", "leb128", "utf-ebcdic", "euc_jis_2004"]
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "test.feed-mark"]
TEXT = st.text(st.characters(codec="utf-8"), max_size=40)  # no surrogates: utf-8 cannot write them


def _mark(e: UnicodeError) -> tuple[str, int]:
    """A custom handler (the extension must leave its errors to the module): the bytes
    of the span, which are the same however the input was split."""
    assert isinstance(e, UnicodeDecodeError)
    return f"<{e.object[e.start:e.end].hex()}>", e.end


codecs.register_error("test.feed-mark", _mark)


@cache
def load(name: str, backend: str) -> ModuleType:
    return encspec.load(name, backend=backend)


@st.composite
def damaged(draw: st.DrawFn, name: str) -> bytes:
    """The bytes of some text the spec writes, with a few bytes replaced or inserted."""
    module = load(name, "python")
    text = "".join(ch for ch in draw(TEXT) if _writes(module, ch))
    data = bytearray(module.encode(text))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        byte = draw(st.sampled_from([0x00, 0x41, 0x80, 0x8E, 0xA1, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF5, 0xFE, 0xFF]))
        if draw(st.booleans()) and at < len(data):
            data[at] = byte
        else:
            data.insert(at, byte)
    return bytes(data)


def _writes(module: ModuleType, ch: str) -> bool:
    try:
        module.encode(ch)
        return True
    except UnicodeEncodeError:
        return False


def run(decoder: Any, pieces: list[bytes]) -> list[Any]:
    """What each call gives (its text and getstate() after it), until an error: its
    absolute (start, end, reason)."""
    steps: list[Any] = []
    fed = 0
    for k, piece in enumerate(pieces + [b""]):
        pending = decoder.getstate()[0]
        try:
            text = decoder.decode(piece, k == len(pieces))
        except UnicodeDecodeError as e:
            steps.append(("error", fed - len(pending) + e.start, fed - len(pending) + e.end, e.reason))
            return steps
        fed += len(piece)
        steps.append((text, decoder.getstate()))
    return steps


def cut(data: bytes, cuts: list[int]) -> list[bytes]:
    bounds = sorted({0, len(data), *(c for c in cuts if 0 < c < len(data))})
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


def one_shot(module: ModuleType, data: bytes, errors: str, surrogates: bool = True) -> object:
    try:
        return module.decode(data, errors, surrogates)
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason)


def check(name: str, data: bytes, cuts: list[int], errors: str, surrogates: bool = True) -> None:
    native, python = load(name, "native"), load(name, "python")
    pieces = cut(data, cuts)
    got = run(native.IncrementalDecoder(errors, surrogates), pieces)
    assert got == run(python.IncrementalDecoder(errors, surrogates), pieces)
    whole = one_shot(native, data, errors, surrogates)
    if isinstance(whole, str):
        assert "".join(step[0] for step in got) == whole
    else:
        assert got[-1] == whole


def test_every_spec_here_decodes_incrementally_through_the_feed() -> None:
    for name in SPECS:
        assert callable(getattr(load(name, "native").native(), "feed", None)), name


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_native_incremental_decoding_equals_python_and_one_shot(name: str, data: st.DataObject) -> None:
    b = data.draw(damaged(name), label="bytes")
    cuts = data.draw(st.lists(st.integers(0, len(b)), max_size=5), label="cuts")
    errors = data.draw(st.sampled_from(HANDLERS), label="errors")
    check(name, b, cuts, errors)


# Lone surrogates as each spec's form would write them (U+D800, then U+DC00).
LONE_SURROGATES = {"utf-8": b"\xed\xa0\x80", "wtf-8": b"\xed\xa0\x80", "cesu-8": b"\xed\xb0\x80",
                   "utf-16le": b"\x00\xd8", "utf-32": b"\x00\xdc\x00\x00"}


@pytest.mark.parametrize("name", ["utf-8", "wtf-8", "cesu-8", "utf-16le", "utf-32", "gb18030"])
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_native_incremental_decoding_of_text_for_utf8_equals_python(name: str, data: st.DataObject) -> None:
    """With surrogates=False (text that must be UTF-8: ``encspec decode``) a surrogate code
    point is an error, whether the chunk goes through the feed or not."""
    lone = LONE_SURROGATES.get(name, b"")
    b = data.draw(damaged(name), label="bytes")
    k = data.draw(st.integers(0, len(b)), label="at")
    b = b[:k] + lone + b[k:]
    cuts = data.draw(st.lists(st.integers(0, len(b)), max_size=5), label="cuts")
    errors = data.draw(st.sampled_from(HANDLERS), label="errors")
    check(name, b, cuts, errors, surrogates=False)


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_native_incremental_decoding_split_at_every_offset(name: str, data: st.DataObject) -> None:
    b = data.draw(damaged(name), label="bytes")[:24]
    errors = data.draw(st.sampled_from(HANDLERS), label="errors")
    for k in range(len(b) + 1):
        check(name, b, [k], errors)
    check(name, b, list(range(len(b) + 1)), errors)  # byte by byte


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_native_decoder_from_getstate_mid_stream_goes_on_alike(name: str, data: st.DataObject) -> None:
    b = data.draw(damaged(name), label="bytes")
    k = data.draw(st.integers(0, len(b)), label="split")
    errors = data.draw(st.sampled_from(["replace", "backslashreplace", "test.feed-mark"]), label="errors")
    module = load(name, "native")
    first = module.IncrementalDecoder(errors)
    head = first.decode(b[:k])
    state = first.getstate()
    second = module.IncrementalDecoder(errors)
    second.setstate(state)
    assert head + second.decode(b[k:], True) == module.decode(b, errors)
    first.reset()
    assert first.getstate() == module.IncrementalDecoder().getstate()
    assert first.decode(b, True) == module.decode(b, errors)


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_native_stream_reader_equals_python(name: str, data: st.DataObject) -> None:
    """codecs' StreamReader protocol (read(size) passes back what the last decode left)
    reads the same text on both backends, and what one-shot decoding gives."""
    import io
    b = data.draw(damaged(name), label="bytes")
    size = data.draw(st.integers(1, 9), label="read size")
    errors = data.draw(st.sampled_from(["replace", "backslashreplace", "test.feed-mark"]), label="errors")
    texts = []
    for backend in ("native", "python"):
        reader = load(name, backend).StreamReader(io.BytesIO(b), errors)
        parts = []
        while part := reader.read(size):
            parts.append(part)
        texts.append("".join(parts))
    assert texts[0] == texts[1] == load(name, "native").decode(b, errors)


@pytest.mark.parametrize("name, bom, codec", [("utf-8-bom", b"\xef\xbb\xbf", "utf-8"),
                                             ("utf-16", b"\xff\xfe", "utf-16-le")])
def test_signature_is_read_at_the_start_only(name: str, bom: bytes, codec: str) -> None:
    dec = load(name, "native").IncrementalDecoder()
    assert dec.decode(bom[:1]) == ""
    assert dec.decode(bom[1:] + "ab\u00e9".encode(codec)) == "ab\u00e9"
    assert dec.decode(bom) == "\ufeff"  # not at the start: a character
    assert dec.decode(b"", True) == ""
    assert dec.getstate() == (b"", 0)


def test_feed_returns_the_tail_or_where_the_module_goes_on() -> None:
    """The extension's feed: a str when all is decoded, (str, tail bytes) for a short
    unfinished character, (str, offset) for an error strict leaves to the module or a
    long unfinished token, None for an input that is not a buffer."""
    feed = load("utf-8", "native").native().feed
    assert feed(b"", b"abc\xc3\xa9", "strict", False, 0) == "abc\u00e9"
    assert feed(b"a", b"bc\xe2\x82", "strict", False, 0) == ("abc", b"\xe2\x82")
    assert feed(b"\xe2", b"\x82\xac", "strict", False, 0) == "\u20ac"
    assert feed(b"", b"ab\xffcd", "strict", False, 0) == ("ab", 2)
    assert feed(b"", b"ab\xffcd", "replace", False, 0) == "ab\ufffdcd"
    assert feed(b"", b"ab\xe2\x82", "strict", True, 0) == ("ab", 2)  # final: the truncation is an error
    assert feed(b"", [1, 2], "strict", False, 0) is None
    wtf8 = load("wtf-8", "native").native().feed  # lone surrogates are characters of WTF-8
    assert wtf8(b"", b"a\xed\xa0\x80b", "strict", False, 0) == "a\ud800b"
    assert wtf8(b"", b"a\xed\xa0\x80b", "strict", False, 0, None, False) is None  # not text for UTF-8
    assert wtf8(b"", b"a\xc3\xa9\xe2\x82\xac", "strict", False, 0, None, False) == "a\u00e9\u20ac"
    long = load("utf-inf-8", "native")
    token = long.encode([2 ** 600])  # one token longer than the tail kept as bytes
    assert len(token) > 64
    text, stop = long.native().feed(b"", b"A" + token[:-1], "replace", False, 0)
    assert (text, stop) == ("A", 1)


def test_errors_changed_mid_stream_take_effect() -> None:
    """The handler is read at every call: a custom one (which the extension leaves to the
    module) after a standard one, and an unfinished character across the change."""
    module = load("utf-8", "native")
    assert module.IncrementalDecoder("test.feed-mark").decode(b"a\xffb", True) == "a<ff>b"
    dec = module.IncrementalDecoder("replace")
    assert dec.decode(b"a\xff") == "a\ufffd"
    dec.errors = "test.feed-mark"
    assert dec.decode(b"\xffb\xe2\x82") == "<ff>b"
    assert dec.decode(b"\xac", True) == "\u20ac"


# ------------------------------------------------------------------ encoding
ENCODE_HANDLERS = ["strict", "replace", "ignore", "xmlcharrefreplace", "backslashreplace", "surrogateescape",
                   "test.feed-encode"]
ANY_TEXT = st.text(st.one_of(st.characters(max_codepoint=0x7F), st.characters(max_codepoint=0x3000),
                             st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), st.characters(),
                             st.sampled_from("\u304b\u309a\u00e6\u0300\u02e9\u02e5")),  # JIS X 0213 sequences
                   max_size=30)


def _encode_mark(e: UnicodeError) -> tuple[str, int]:
    """A custom encode handler: the code points of the span, whatever the pieces."""
    assert isinstance(e, UnicodeEncodeError)
    return "".join(f"<{ord(c):x}>" for c in e.object[e.start:e.end]), e.end


codecs.register_error("test.feed-encode", _encode_mark)


def encode_run(encoder: Any, pieces: list[str]) -> list[Any]:
    """Each call's bytes and getstate() after it, until an error: (start, end, reason)
    within its piece."""
    steps: list[Any] = []
    for k, piece in enumerate(pieces + [""]):
        try:
            got = encoder.encode(piece, k == len(pieces))
        except UnicodeEncodeError as e:
            steps.append(("error", k, e.start, e.end, e.reason))
            return steps
        steps.append((got, encoder.getstate()))
    return steps


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_native_incremental_encoding_equals_python_and_one_shot(name: str, data: st.DataObject) -> None:
    text = data.draw(ANY_TEXT, label="text")
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=4), label="cuts")))
    errors = data.draw(st.sampled_from(ENCODE_HANDLERS), label="errors")
    bounds = [0, *cuts, len(text)]
    pieces = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    native, python = load(name, "native"), load(name, "python")
    for signed in (False, True):
        if signed and not native.SIGNATURE:
            continue
        info = native.getregentry(signature=signed)
        got = encode_run(info.incrementalencoder(errors), pieces)
        assert got == encode_run(python.getregentry(signature=signed).incrementalencoder(errors), pieces)
        if got[-1][0] != "error" and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            # without surrogates (pairs a cut may split) every handler's text is per character
            assert b"".join(step[0] for step in got) == info.encode(text, errors)[0]


def test_incremental_encoder_writes_the_signature_once_and_after_reset() -> None:
    encoder = load("utf-8-bom", "native").getregentry(signature=True).incrementalencoder()
    assert encoder.encode("a") == b"\xef\xbb\xbfa"
    assert encoder.encode("\u00e9") == b"\xc3\xa9"
    assert encoder.getstate() == 0
    encoder.reset()
    assert encoder.encode("b", True) == b"\xef\xbb\xbfb"
    plain = load("utf-8", "native").IncrementalEncoder("replace")
    assert plain.encode("x\ud800y") == b"x?y"
    assert plain.encode("\U0001f600") == "\U0001f600".encode("utf-8")
