"""The native extension of a spec with modes (hz, whatwg-iso-2022-jp): its decode loop
takes the tokens that set the mode itself (a shift, a character whose form says
``-> MODE``) and carries the start state from token to token (a shift enters its mode's
twin where a shift right after a shift is an error; any other token leaves the twin),
returning where it stopped and the state there, which the module keeps.  Everything it
gives equals the pure-Python module's: decode under strict (span and reason), the
handlers it applies itself and a custom one the module calls, incremental decoding split
at every offset, validation and the first error, the scanner's tokens.  Its encoder
(encode_modes: the C export's modal engine) carries the mode from code point to code
point and call to call and equals CPython's codecs (and the Encoding Standard's
algorithm): every BMP code point, random text under handlers, incremental splits."""
from __future__ import annotations

import codecs
import random

import pytest

import encspec
from codec_samples import load_backend
from conftest import assert_linear, examples, strict_encode_outcome, unicode_outcome

SPECS = ("hz", "whatwg-iso-2022-jp")

# pieces the random byte strings are made of: each mode's shifts, cut shifts, lone
# escape bytes, characters of each mode, bytes no mode reads, newlines
PIECES = {
    "hz": (b"~{", b"~}", b"~~", b"~\n", b"~", b"A", b" ", b"\n", b"\x21\x21", b"\x30\x21", b"\x7f", b"\x80",
           b"\x21", b"\xa1\xa1", b"~{~}"),
    "whatwg-iso-2022-jp": (b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$B", b"\x1b$@", b"\x1b", b"\x1b(", b"\x1b$",
                           b"A", b"\x0e", b"\x0f", b"\x21\x21", b"\x30\x21", b"\x5c", b"\x7e", b"\n", b"\x80",
                           b"\x21", b"\x60", b"\x1b(B\x1b$B"),
}
HANDLERS = ("replace", "ignore", "backslashreplace", "surrogateescape")


def _backends(spec):
    native = load_backend(spec, "native")
    python = encspec.load(spec, backend="python")
    assert native._NATIVE is not None and python._NATIVE is None
    return native, python


def _strict(module, data, errors="strict"):
    """The text, or the error's span and reason (surrogateescape raises on a byte below 80)."""
    return unicode_outcome(module.decode, data, errors)


def _samples(spec, count, most=14, seed=31):
    rng = random.Random(f"{spec}-{seed}")
    pieces = PIECES[spec]
    return [b"".join(rng.choice(pieces) for _ in range(rng.randrange(most + 1))) for _ in range(count)]


def _text(spec):
    """Japanese (or Chinese) text with ASCII between, as CPython's codec writes it: a
    shift every few bytes."""
    words = ["日本語", "東京", "テキスト", "かな", "漢字", "中文", "文字"] if spec != "hz" else ["中文", "文字", "汉字", "你好"]
    rng = random.Random(spec)
    text = " ".join(rng.choice(words) + rng.choice(["", " abc", ", 12", "\n"]) for _ in range(400))
    return text.encode("iso2022_jp" if spec != "hz" else "hz")


@pytest.mark.parametrize("spec", SPECS)
def test_native_decode_equals_python_on_random_shifts(spec):
    native, python = _backends(spec)
    for data in _samples(spec, 1500):
        assert _strict(native, data) == _strict(python, data), data
        for errors in HANDLERS:
            assert _strict(native, data, errors) == _strict(python, data, errors), (data, errors)
        assert native.decode_codepoints(data, "replace") == python.decode_codepoints(data, "replace"), data


def _marked(err):
    """A custom handler (the module calls it): the span's bytes in brackets, resuming one
    byte into the span, so that the next token starts inside it."""
    return "<" + err.object[err.start:err.end].hex() + ">", err.start + 1


codecs.register_error("encspec-test-marked", _marked)


@pytest.mark.parametrize("spec", SPECS)
def test_native_decode_with_a_custom_handler_equals_python(spec):
    native, python = _backends(spec)
    for data in _samples(spec, 800, seed=11):
        assert _strict(native, data, "encspec-test-marked") == _strict(python, data, "encspec-test-marked"), data


@pytest.mark.parametrize("spec", SPECS)
def test_native_decode_takes_shifts_in_one_call(spec):
    """Text with a shift every few bytes is one call of the extension, which says the
    state it ended in: the state the module's own tokens end in."""
    native, python = _backends(spec)
    data = _text(spec)
    out: list = []
    stop, state = native._NATIVE.decode(data, 0, "strict", True, True, out, None, 0)
    assert stop == len(data) and "".join(out) == python.decode(data)
    assert state << 1 == _end_state(python, data)
    # stopped at a problem for strict: the state the token there starts in (a twin's)
    bad = (b"~{!!~{" if spec == "hz" else b"\x1b$B!!\x1b(B\x1b$B") + b"\xff"
    stop, state = native._NATIVE.decode(bad, 0, "strict", True, True, [], None, 0)
    tok, after = python._step(bad, 0, python.START)
    pos, want = tok[2], after
    while pos < stop:
        tok, want = python._step(bad, pos, want)
        pos = tok[2]
    assert pos == stop < len(bad) and state << 1 == want


def _end_state(module, data):
    state, pos = module.START & ~1, 0
    while pos < len(data):
        tok, state = module._step(data, pos, state)
        pos = tok[2]
    return state


def _split_decode(module, errors, data, k):
    dec = module.IncrementalDecoder(errors)
    return dec.decode(data[:k]) + dec.decode(data[k:], True)


@pytest.mark.parametrize("spec", SPECS)
def test_native_incremental_under_handlers_equals_python(spec):
    """Split at every offset under the handlers the extension applies and a custom one:
    the mode crosses the cut in the decoder's state."""
    native, python = _backends(spec)
    for data in _samples(spec, 60, most=9, seed=17):
        for errors in ("ignore", "backslashreplace", "encspec-test-marked"):
            want = _strict(python, data, errors)
            for k in range(len(data) + 1):
                got = unicode_outcome(_split_decode, native, errors, data, k)
                assert got == want, (data, k, errors)


@pytest.mark.parametrize("spec", SPECS)
def test_native_validate_equals_python(spec):
    native, python = _backends(spec)
    for data in _samples(spec, 1500, seed=7) + [_text(spec)]:
        assert native.first_error(data) == python.first_error(data), data
        assert native.is_valid(data) == python.is_valid(data), data
        for cut in (len(data) // 3, len(data)):
            for final in (True, False):
                got = native.valid_until(data[:cut], 0, native.START, final)
                assert got == python.valid_until(data[:cut], 0, python.START, final), (data[:cut], final)


@pytest.mark.parametrize("spec", SPECS)
def test_native_text_decodes_as_cpython(spec):
    """Text with a shift every few bytes: the extension's stretches between shifts and the
    module's shifts make CPython's text."""
    native, _ = _backends(spec)
    data = _text(spec)
    assert native.decode(data) == data.decode("iso2022_jp" if spec != "hz" else "hz")
    assert native.is_valid(data)


@pytest.mark.parametrize("spec", SPECS)
def test_native_incremental_split_at_every_offset_equals_one_shot(spec):
    native, python = _backends(spec)
    for data in _samples(spec, 150, most=10, seed=3):
        for errors in ("replace", "strict"):
            want = _strict(python, data, errors)
            for k in range(len(data) + 1):
                dec = native.IncrementalDecoder(errors)
                try:
                    got = dec.decode(data[:k]) + dec.decode(data[k:], True)
                except UnicodeDecodeError as e:  # its offsets are within the piece it came in
                    assert isinstance(want, tuple) and e.reason == want[3], (data, k, e)
                    continue
                assert got == want, (data, k, errors)
                # the state at the cut travels through getstate/setstate
                first = native.IncrementalDecoder("replace")
                head = first.decode(data[:k])
                again = native.IncrementalDecoder("replace")
                again.setstate(first.getstate())
                assert head + again.decode(data[k:], True) == python.decode(data, "replace"), (data, k)


@pytest.mark.parametrize("spec", SPECS)
def test_native_tokens_of_a_shift_carry_the_mode(spec):
    """The extension's scan gives a shift as the module's _scan does: no character, the
    mode after it as the 6th item (the core's _mode_after reads it)."""
    native, python = _backends(spec)
    shift = b"~{" if spec == "hz" else b"\x1b$B"
    assert native._NATIVE.scan(shift + b"\x21\x21", 0, True) == python._scan(shift + b"\x21\x21", 0)
    assert native._NATIVE.scan(shift, 0, True)[0] == "shift"
    for data in _samples(spec, 300, seed=5):
        for start in {s for s, _ in native._MODES}:
            for pos in range(len(data)):
                assert native._NATIVE.scan(data, pos, True, None, start) == python._scan(data, pos, True, start)


# The encoder: the extension's encode_modes (the C export's engine over description.mode_choice)
# against CPython's codec of the same name, or, for WHATWG's ISO-2022-JP, the Encoding
# Standard's algorithm (tests/oracles) and the pure-Python module (tested equal to it).
ENCODE_SPECS = ("hz", "whatwg-iso-2022-jp", "iso2022_jp", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_kr")
WHATWG = "whatwg-iso-2022-jp"
_ENCODE_ALPHABET = ("a~\\\n\x1b\x0e\x0f\u00a5\u203e\u00e9\u3042\u4e00\u4e02\u4e9c\u4eb9\ucafe\uac00\uff61\uff9f"
                    "\u2212\u00a9\U0001f600\u6587\u5b57\u4f60\u597d")
_HANDLERS = ("strict", "replace", "xmlcharrefreplace")


def _encoder(spec):
    native = load_backend(spec, "native")
    assert native._NATIVE_MODES and native._NATIVE_ENCODE is False  # encode_modes, not the memo loops
    return native


def _reference(spec, errors="strict"):
    """encode(text, errors) of what the native encoder must equal: CPython's codec, but for
    WHATWG's and, under xmlcharrefreplace, the pure-Python module (CPython's hz, after a
    replacement at a text's start, leaves out the `~{` before GB2312 that follows `~~`)."""
    if spec == WHATWG or errors == "xmlcharrefreplace":
        return encspec.load(spec, backend="python").encode
    return lambda text, errors="strict": text.encode(spec, errors)


def _stops(native, text):
    """(bytes, stops) of the extension's encode_modes alone over *text*, resumed one code
    point after each stop from the state there (what the ignore handler writes)."""
    out, stops, pos, state = [], [], 0, 0
    while True:
        got, pos, state = native._NATIVE.encode_modes(text, pos, state, True, False)
        out.append(got)
        if pos == len(text):
            return b"".join(out), stops
        stops.append(pos)
        pos += 1


def _bmp_text() -> str:
    """Every BMP code point (no surrogate) after an "a": each one from the first mode."""
    return "".join("a" + chr(cp) for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF)


@pytest.mark.parametrize("spec", [s for s in ENCODE_SPECS if s != WHATWG])
def test_native_encoder_writes_every_bmp_code_point_as_cpython(spec):
    """Strict (where the extension stops, and its bytes between) and replace ("?" written
    by the extension itself), each in one pass over the whole BMP."""
    native = _encoder(spec)
    text = _bmp_text()
    refused: list[int] = []

    def record(err):
        refused.extend(range(err.start, err.end))
        return "", err.end

    codecs.register_error("encspec-test-refused", record)
    assert text.encode(spec, "encspec-test-refused") == text.encode(spec, "ignore")
    assert _stops(native, text) == (text.encode(spec, "ignore"), refused)
    assert native._NATIVE.encode_modes(text, 0, 0, True, True)[:2] == (text.encode(spec, "replace"), len(text))


def test_native_whatwg_encoder_writes_every_bmp_code_point_as_the_standard():
    from oracles import whatwg_iso_2022_jp as oracle
    native = _encoder(WHATWG)
    text = _bmp_text()
    want, bad = oracle.encode_positions(map(ord, text))
    assert _stops(native, text) == (want, bad)


@pytest.mark.parametrize("spec", ENCODE_SPECS)
def test_native_encoder_equals_its_reference_on_random_text_under_handlers(spec):
    native = _encoder(spec)
    rng = random.Random(f"{spec}-encode")
    texts = ["".join(rng.choice(_ENCODE_ALPHABET) for _ in range(rng.randrange(12))) for _ in range(examples(400))]
    # one code point in 97 of the BMP, after an "a": the module's handlers between the extension's stretches
    texts.append("".join("a" + chr(cp) for cp in range(0x20, 0xD800, 97)))
    for text in texts:
        for errors in _HANDLERS:
            want = strict_encode_outcome(lambda t, e=errors: _reference(spec, e)(t, e), text)
            assert strict_encode_outcome(lambda t, e=errors: native.encode(t, e), text) == want, (text, errors)
            assert strict_encode_outcome(lambda t, e=errors: native.Codec().encode(t, e)[0], text) == want


def test_native_iso2022_kr_shifts_in_before_a_line_feed():
    """A line feed leaves KS X 1001 (its form there says `-> MODE`): SI before it, as CPython
    writes, never the line feed in the shifted mode (description.mode_choice leaves the
    forms that leave a mode out of its encoder, as the core does)."""
    text = "\u5b57\n\u5b57"
    assert _encoder("iso2022_kr").encode(text) == text.encode("iso2022_kr") == b"\x1b$)C\x0em.\x0f\n\x0em.\x0f"


@pytest.mark.parametrize("spec", ENCODE_SPECS)
def test_native_incremental_encoder_equals_one_shot_at_every_split(spec):
    """The mode crosses the cut in the encoder's state, through getstate/setstate too;
    the shift home only at the end."""
    native = _encoder(spec)
    rng = random.Random(f"{spec}-split")
    for _ in range(examples(160)):
        text = "".join(rng.choice(_ENCODE_ALPHABET) for _ in range(rng.randrange(9)))
        for errors in ("replace", "xmlcharrefreplace"):
            want = _reference(spec, errors)(text, errors)
            for k in range(len(text) + 1):
                enc = native.IncrementalEncoder(errors)
                head = enc.encode(text[:k])
                again = native.IncrementalEncoder(errors)
                again.setstate(enc.getstate())
                assert head + again.encode(text[k:], True) == want, (text, k, errors)


@pytest.mark.parametrize("spec", ENCODE_SPECS)
def test_native_encoder_writes_text_in_one_call(spec):
    """Text with a shift every few characters: the extension writes all of it and says the
    state it ends in (the mode it is in where not final: the next call's)."""
    native = _encoder(spec)
    data = _text("hz" if spec == "hz" else WHATWG)
    text = data.decode("hz" if spec == "hz" else "iso2022_jp")
    want = _reference(spec)(text)
    assert native._NATIVE.encode_modes(text, 0, 0, True, False)[:2] == (want, len(text))
    more = text + "\u4e00"  # ends in a mode that is not home: the state says it, final writes the shift
    head, stop, state = native._NATIVE.encode_modes(more, 0, 0, False, False)
    assert stop == len(more) and state >> 22 != 0
    assert head + native._NATIVE.encode_modes("", 0, state, True, False)[0] == _reference(spec)(more)
    enc = native.IncrementalEncoder()
    pieces = [enc.encode(text[k:k + 7]) for k in range(0, len(text), 7)] + [enc.encode("", True)]
    assert b"".join(pieces) == want


@pytest.mark.parametrize("spec", ("hz", "iso2022_jp"))
def test_native_encoder_is_linear(spec):
    """Text (a shift every few characters), and unencodable code points each handed to the
    module's handler between calls of the extension."""
    native = _encoder(spec)
    text = _text(spec if spec == "hz" else WHATWG).decode(spec)
    refused = "\u0e01a" * 400  # Thai: in neither
    assert_linear(f"{spec} native encode of text", native.encode, text, text * 16)
    assert_linear(f"{spec} native encode of refused code points, xmlcharrefreplace",
                  lambda t: native.encode(t, "xmlcharrefreplace"), refused, refused * 16)


@pytest.mark.parametrize("spec", SPECS)
def test_native_decode_is_linear_in_escape_floods(spec):
    """Shifts taken in the extension's loop (and, for validation, by the module between
    its stretches): linear in the shifts, strict, replace and validation alike."""
    native, _ = _backends(spec)
    flood = (b"~{~}" if spec == "hz" else b"\x1b$B!!\x1b(BA") * 2000  # valid: a shift every 2 to 3 bytes
    errors = (b"~{~{" if spec == "hz" else b"\x1b(B\x1b$B") * 2000  # WHATWG's: each escape after an escape
    dense = _text(spec) + b"A"  # copies joined: a character between the shift home and the next shift
    alternating = (b"~{!!~}A" if spec == "hz" else b"\x1b$B!!\x1b(BA\x1b(J\\\x1b(I1") * 2000
    for label, fn in (("decode", native.decode), ("replace", lambda d: native.decode(d + b"\x80", "replace")),
                      ("validate", native.is_valid)):
        assert_linear(f"{spec} {label} of an escape flood", fn, flood, flood * 16)
        assert_linear(f"{spec} {label} of text", fn, dense, dense * 16)
        assert_linear(f"{spec} {label} of alternating shifts", fn, alternating, alternating * 16)
    assert_linear(f"{spec} replace of escapes in error", lambda d: native.decode(d, "replace"), errors, errors * 16)
    assert native.decode(flood) == encspec.load(spec, backend="python").decode(flood)
