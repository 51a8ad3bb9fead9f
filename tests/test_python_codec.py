"""The generated Python codec modules (issue "Python backend").

* utf-8 against CPython's own codec: decode under every standard handler
  (exhaustive over all 1- and 2-byte inputs, every 3-byte input and, with a
  recording handler, every 4-byte input built from byte-class boundaries;
  hypothesis beyond), encode under every standard handler (the whole code space
  as one string, every surrogate, hypothesis strs with surrogates), and handlers
  registered with ``codecs.register_error`` that resume elsewhere than the
  error's end.
* corrected-utf-8 against its seed (corrected-utf-8.txt): the seven rows of
  "Putting it all together", C0 AF, skipped code points, reserved runs, the
  magic number.
* code points beyond U+10FFFF: ``decode`` routes them through the handler,
  ``decode_codepoints`` returns them.

Expected values come from CPython, the oracles (tests/oracles) or the seeds,
never from the module under test.
"""
from __future__ import annotations

import codecs
import itertools
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, MAGIC, oracle, texts_with_surrogates
from conftest import examples

DECODE_HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "surrogateescape"]
ENCODE_HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "surrogateescape",
                   "surrogatepass", "xmlcharrefreplace"]


@cache
def load(name, backend="auto"):
    return encspec.load(name, backend=backend)


def utf8(backend="auto"):
    return load("utf-8", backend)


def decoded(decode, data, errors):
    """The result of a decode call, or the identity of the exception it raised."""
    try:
        return ("ok", decode(data, errors))
    except UnicodeError as e:
        return (type(e).__name__, e.start, e.end, e.reason)


def encoded(encode, text, errors):
    """The result of an encode call, or the exception type and span (not the reason:
    CPython says "surrogates not allowed", a generic codec cannot know that)."""
    try:
        return ("ok", encode(text, errors))
    except UnicodeError as e:
        return (type(e).__name__, e.start, e.end)
    except IndexError:
        return ("IndexError",)


def cpython_decode(data, errors):
    return data.decode("utf-8", errors)


def cpython_encode(text, errors):
    return text.encode("utf-8", errors)


def module_decode(backend):
    """The decode function of the generated utf-8 module on *backend*."""
    return utf8(backend).decode


def module_encode(text, errors):
    return utf8().encode(text, errors)


def mismatches(inputs, expected, actual, limit=8):
    bad = []
    for x in inputs:
        e, a = expected(x), actual(x)
        if e != a:
            bad.append((x, e, a))
            if len(bad) >= limit:
                break
    return bad


# ================================================================ utf-8 decode
ONE_AND_TWO_BYTES = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(256) for b in range(256)]
# One byte of each class of Unicode Table 3-7 plus both ends of every range.
CLASS_EDGES = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
               0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]


assert len(ONE_AND_TWO_BYTES) == 65792

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("errors", DECODE_HANDLERS)
def test_decode_every_1_and_2_byte_input_like_cpython(errors, backend):
    bad = mismatches(ONE_AND_TWO_BYTES, lambda b: decoded(cpython_decode, b, errors),
                     lambda b: decoded(module_decode(backend), b, errors))
    assert not bad, bad


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("errors", DECODE_HANDLERS)
def test_decode_every_3_byte_class_edge_input_like_cpython(errors, backend):
    inputs = [bytes(t) for t in itertools.product(CLASS_EDGES, repeat=3)]
    bad = mismatches(inputs, lambda b: decoded(cpython_decode, b, errors),
                     lambda b: decoded(module_decode(backend), b, errors))
    assert not bad, bad


_SPANS: list = []


def _record(exc):
    _SPANS.append((type(exc).__name__, exc.start, exc.end, exc.reason))
    return ("\ufffd", exc.end)


codecs.register_error("test_python_codec.record", _record)


def recorded(decode, data):
    """(text, every error the handler saw) for a decode with the recording handler."""
    _SPANS.clear()
    text = decode(data, "test_python_codec.record")
    return text, list(_SPANS)


@pytest.mark.slow  # an exhaustive sweep: ENCSPEC_SLOW=1 (CI) runs it
@pytest.mark.parametrize("backend", BACKENDS)
def test_decode_every_4_byte_class_edge_input_reports_every_error_like_cpython(backend):
    inputs = [bytes(t) for t in itertools.product(CLASS_EDGES, repeat=4)]
    bad = mismatches(inputs, lambda b: recorded(cpython_decode, b), lambda b: recorded(module_decode(backend), b))
    assert not bad, bad


UTF8_INTERESTING = st.sampled_from(CLASS_EDGES + [0x0A, 0xBB, 0xBD, 0xA5, 0x87, 0x9D])
utf8_bytes = st.lists(st.one_of(
    UTF8_INTERESTING.map(lambda b: bytes([b])),
    st.integers(0, 255).map(lambda b: bytes([b])),
    st.sampled_from(["\x7f", "\x80", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\ufeff", "\uffff",
                     "\U00010000", "\U0010ffff"]).map(lambda s: s.encode("utf-8")),
    st.binary(max_size=4),
), max_size=16).map(b"".join)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(400), deadline=None)
@given(utf8_bytes)
def test_decode_random_bytes_like_cpython_under_every_handler(backend, data):
    for errors in DECODE_HANDLERS:
        assert decoded(module_decode(backend), data, errors) == decoded(cpython_decode, data, errors), errors
    assert recorded(module_decode(backend), data) == recorded(cpython_decode, data)


@st.composite
def long_utf8(draw):
    """Long text (long runs for the decoder's fast path) with a few bad bytes spliced in."""
    data = bytearray(draw(st.text(min_size=100, max_size=1500)).encode("utf-8"))
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                                            b"\x80", b"\xf0\x9f\x98"]))
    return bytes(data)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(60), deadline=None)
@given(long_utf8())
def test_decode_long_input_like_cpython(backend, data):
    for errors in DECODE_HANDLERS:
        assert decoded(module_decode(backend), data, errors) == decoded(cpython_decode, data, errors), errors
    assert recorded(module_decode(backend), data) == recorded(cpython_decode, data)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=20))
def test_decode_well_formed_text_like_cpython(backend, text):
    data = text.encode("utf-8")
    assert utf8(backend).decode(data) == text
    assert utf8(backend).decode_codepoints(data) == [ord(c) for c in text]


@pytest.mark.parametrize("backend", BACKENDS)
def test_decode_reports_cpython_reasons(backend):
    m = utf8(backend)
    for data, reason in [(b"\x80", "invalid start byte"), (b"\xff", "invalid start byte"),
                         (b"\xe0\x80", "invalid continuation byte"), (b"\xed\xa0\x80", "invalid continuation byte"),
                         (b"a\xe0\xa0", "unexpected end of data"), (b"\xf4\x90", "invalid continuation byte")]:
        with pytest.raises(UnicodeDecodeError) as got:
            m.decode(data)
        with pytest.raises(UnicodeDecodeError) as want:
            data.decode("utf-8")
        assert (got.value.start, got.value.end, got.value.reason) == \
            (want.value.start, want.value.end, want.value.reason) == (got.value.start, got.value.end, reason)
        assert got.value.encoding == "utf-8" and got.value.object == data


# ================================================================ utf-8 encode
ALL_CHARS = "".join(map(chr, range(0x110000)))


@pytest.mark.slow  # an exhaustive sweep: ENCSPEC_SLOW=1 (CI) runs it
@pytest.mark.parametrize("errors", ENCODE_HANDLERS)
def test_encode_the_whole_code_space_like_cpython(errors):
    """Every code point, surrogates included, as one string: the same bytes (or, for
    strict and surrogateescape, the same error span: the run U+D800..U+DFFF)."""
    assert encoded(module_encode, ALL_CHARS, errors) == encoded(cpython_encode, ALL_CHARS, errors)


@pytest.mark.parametrize("errors", ENCODE_HANDLERS)
def test_encode_every_surrogate_alone_and_between_letters_like_cpython(errors):
    inputs = [s for c in range(0xD800, 0xE000) for s in (chr(c), "a" + chr(c) + "b")]
    bad = mismatches(inputs, lambda s: encoded(cpython_encode, s, errors),
                     lambda s: encoded(module_encode, s, errors))
    assert not bad, bad


def test_encode_strict_error_spans_like_cpython():
    for text in ["\ud800", "ab\udfffcd", "\ud800\udc00", "x\ud800\ud801\udfffy\udc80", "\U0010ffff\udbff"]:
        with pytest.raises(UnicodeEncodeError) as got:
            utf8().encode(text)
        with pytest.raises(UnicodeEncodeError) as want:
            text.encode("utf-8")
        assert (got.value.start, got.value.end) == (want.value.start, want.value.end), text
        assert got.value.object == text


@settings(max_examples=examples(400), deadline=None)
@given(texts_with_surrogates)
def test_encode_random_text_with_surrogates_like_cpython(text):
    for errors in ENCODE_HANDLERS:
        assert encoded(module_encode, text, errors) == encoded(cpython_encode, text, errors), errors


def test_encode_surrogateescape_stops_at_the_first_unescapable_surrogate_like_cpython():
    """CPython escapes U+DC80 and raises for U+D800 alone: span (2, 3), not (1, 3)."""
    text = "a\udc80\ud800"
    assert encoded(cpython_encode, text, "surrogateescape") == ("UnicodeEncodeError", 2, 3)
    assert encoded(module_encode, text, "surrogateescape") == ("UnicodeEncodeError", 2, 3)


# ============================================= handlers that resume elsewhere
_SEEN: list = []
_CALLS = [0]


def _note(exc):
    _SEEN.append((type(exc).__name__, exc.start, exc.end))
    _CALLS[0] += 1


def _inside(exc):
    """Resume one past the start: inside a multi-byte error span (before its end)."""
    _note(exc)
    return (f"<{exc.start}>", exc.start + 1)


def _after(exc):
    """Resume two past the end (skipping good input too)."""
    _note(exc)
    return (f"<{exc.start}>", min(exc.end + 2, len(exc.object)))


def _back_once(exc):
    """The first time, go back before the error (input is decoded again); then the end."""
    _note(exc)
    return (f"<{exc.start}>", max(0, exc.start - 2) if _CALLS[0] == 1 else exc.end)


def _negative(exc):
    """The end as a negative index (counted from the end of the input)."""
    _note(exc)
    n = len(exc.object)
    return (f"<{exc.start}>", exc.end - n if exc.end < n else exc.end)


def _out_of_bounds(exc):
    _note(exc)
    return ("?", len(exc.object) + 5)


def _bytes_replacement(exc):
    """An encode handler may return bytes, inserted as they are."""
    _note(exc)
    if isinstance(exc, UnicodeEncodeError):
        return (b"<\xff>", exc.end)
    return ("<>", exc.end)


CUSTOM = {"inside": _inside, "after": _after, "back_once": _back_once, "negative": _negative,
          "out_of_bounds": _out_of_bounds, "bytes_replacement": _bytes_replacement}
for _name, _fn in CUSTOM.items():
    codecs.register_error(f"test_python_codec.{_name}", _fn)


def with_custom(fn, obj, name):
    _SEEN.clear()
    _CALLS[0] = 0
    result = fn(obj, f"test_python_codec.{name}")
    return result, list(_SEEN)


CUSTOM_DECODE_CASES = [b"\xe0\x80\x80A", b"\xf0\x90\x80", b"A\xf0\x90\x80BC", b"\xed\xa0\x80\xed\xbf\xbf",
                       b"ab\xff\xfecd\xc3", b"\xf4\x90\x80\x80xyz", b"\xe0\xa0\xe0\xa0\x80", b"\xc2\xc2\x80"]


def decode_with(decode, data, name):
    """(text, errors the handler saw), or the exception raised."""
    try:
        return ("ok", with_custom(decode, data, name))
    except UnicodeDecodeError as e:
        return ("UnicodeDecodeError", e.start, e.end, e.reason)
    except IndexError:
        return ("IndexError",)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CUSTOM))
@pytest.mark.parametrize("data", CUSTOM_DECODE_CASES, ids=lambda b: b.hex())
def test_decode_custom_handler_resume_like_cpython(name, data, backend):
    assert decode_with(module_decode(backend), data, name) == decode_with(cpython_decode, data, name)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(300), deadline=None)
@given(utf8_bytes)
def test_decode_random_bytes_custom_handlers_like_cpython(backend, data):
    for name in CUSTOM:
        assert decode_with(module_decode(backend), data, name) == decode_with(cpython_decode, data, name), name


CUSTOM_ENCODE_CASES = ["\ud800", "a\ud800b", "\ud800\udc00xy", "x\ud800\ud801\udfffyz", "ab\udcffcd\ud900e",
                       "\udc80\udc81\udc82"]


def encode_with(encode, text, name):
    try:
        return ("ok", with_custom(encode, text, name))
    except UnicodeEncodeError as e:
        return ("UnicodeEncodeError", e.start, e.end)
    except IndexError:
        return ("IndexError",)


@pytest.mark.parametrize("name", sorted(CUSTOM))
@pytest.mark.parametrize("text", CUSTOM_ENCODE_CASES, ids=ascii)
def test_encode_custom_handler_resume_like_cpython(name, text):
    assert encode_with(module_encode, text, name) == encode_with(cpython_encode, text, name)


@settings(max_examples=examples(200), deadline=None)
@given(texts_with_surrogates)
def test_encode_random_text_custom_handlers_like_cpython(text):
    for name in CUSTOM:
        assert encode_with(module_encode, text, name) == encode_with(cpython_encode, text, name), name


# ============================================================ corrected-utf-8
def cutf8(backend="auto"):
    return load("corrected-utf-8", backend)


# corrected-utf-8.txt, "Putting it all together": (first bytes, last bytes, offset, first, last)
SEED_ROWS = [
    ("00", "7F", 0, 0x0000, 0x007F),
    ("C0 80", "DF BF", 160, 0x00A0, 0x089F),
    ("E0 80 80", "EC BD 9F", 2208, 0x08A0, 0xD7FF),
    ("EC BD A0", "EF BF BF", 4256, 0xE000, 0x1109F),
    ("F0 80 80 80", "F7 BF BF BF", 69792, 0x110A0, 0x21109F),
    ("F8 80 80 80 80", "FB BF BF BF BF", 2166944, 0x2110A0, 0x421109F),
    ("FC 80 80 80 80 80", "FD BF BF BF BF BF", 69275808, 0x42110A0, 0x8421109F),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("first_bytes, last_bytes, offset, first, last", SEED_ROWS)
def test_corrected_utf_8_rows_of_the_seed_table(first_bytes, last_bytes, offset, first, last, backend):
    m = cutf8(backend)
    lo, hi = bytes.fromhex(first_bytes), bytes.fromhex(last_bytes)
    assert m.encode([first]) == lo and m.encode([last]) == hi
    assert m.decode_codepoints(lo) == [first] and m.decode_codepoints(hi) == [last]
    assert list(m.tokens(lo)) == [("char", 0, len(lo), first)]
    rng = random.Random(first)
    sample = {first, first + 1, last - 1, last} | {rng.randint(first, last) for _ in range(300)}
    for cp in sorted(sample):
        data = m.encode([cp])
        assert data == oracle("corrected-utf-8").encode([cp]), hex(cp)
        assert len(data) == len(lo), hex(cp)
        assert m.decode_codepoints(data) == [cp], hex(cp)
        if cp <= 0x10FFFF:
            assert m.encode(chr(cp)) == data and m.decode(data) == chr(cp), hex(cp)


@pytest.mark.parametrize("backend", BACKENDS)
def test_corrected_utf_8_round_trip_around_the_skipped_ranges(backend):
    m = cutf8(backend)
    around = [0x7E, 0x7F, 0xA0, 0xA1, 0x89F, 0x8A0, 0xD7FE, 0xD7FF, 0xE000, 0xE001, 0x1109F, 0x110A0]
    data = m.encode(around)
    assert data == oracle("corrected-utf-8").encode(around)
    assert m.decode_codepoints(data) == around
    # the 3-byte form splits in two at EC BD 9F / EC BD A0 (seed, "Not encoding ... surrogates")
    assert m.encode([0xD7FF, 0xE000]) == bytes.fromhex("EC BD 9F EC BD A0")


@pytest.mark.parametrize("backend", BACKENDS)
def test_corrected_utf_8_c0_af_is_u00cf(backend):
    """Seed: "C0 AF becomes the unique encoding of U+00CF"."""
    m = cutf8(backend)
    assert m.decode(b"\xc0\xaf") == "\u00cf"
    assert m.decode_codepoints(b"\xc0\xaf") == [0xCF]
    assert m.encode("\u00cf") == b"\xc0\xaf"
    assert m.encode("/") == b"\x2f"


SKIPPED = [0x80, 0x85, 0x9F, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x8421109F + 1, 0xFFFFFFFF, 2 ** 64]


@pytest.mark.parametrize("cp", SKIPPED, ids=hex)
def test_corrected_utf_8_skipped_code_points_raise_under_strict(cp):
    m = cutf8()
    with pytest.raises(UnicodeEncodeError) as e:
        m.encode([0x41, cp, 0x42])
    assert (e.value.start, e.value.end) == (1, 2)
    with pytest.raises(ValueError):
        oracle("corrected-utf-8").encode([cp])
    if cp <= 0x10FFFF:
        with pytest.raises(UnicodeEncodeError) as e:
            m.encode("A" + chr(cp) + "B")
        assert (e.value.start, e.value.end, e.value.object) == (1, 2, "A" + chr(cp) + "B")


def test_corrected_utf_8_a_run_of_skipped_code_points_is_one_error():
    with pytest.raises(UnicodeEncodeError) as e:
        cutf8().encode("x\x80\x9f\ud800y")
    assert (e.value.start, e.value.end) == (1, 4)


@pytest.mark.parametrize("errors", ["replace", "ignore", "backslashreplace", "xmlcharrefreplace"])
@pytest.mark.parametrize("cp", [0x80, 0x9F, 0xD800, 0xDFFF], ids=hex)
def test_corrected_utf_8_skipped_code_points_go_through_handlers(cp, errors):
    """The expected bytes: CPython's own handler applied to the error, the rest
    encoded by the oracle."""
    text = "Ab" + chr(cp) + "\u00cf"
    replacement, resume = codecs.lookup_error(errors)(UnicodeEncodeError("x", text, 2, 3, "r"))
    o = oracle("corrected-utf-8")
    want = o.encode([0x41, 0x62]) + o.encode(map(ord, replacement)) + o.encode([ord(c) for c in text[resume:]])
    assert cutf8().encode(text, errors) == want


@pytest.mark.parametrize("cp", [0x8421109F + 1, 2 ** 40], ids=hex)
def test_corrected_utf_8_code_points_beyond_its_limit_go_through_handlers(cp):
    m = cutf8()
    assert m.encode([0x41, cp, 0x42], "replace") == b"A?B"
    assert m.encode([0x41, cp, 0x42], "ignore") == b"AB"
    _SEEN.clear()
    _CALLS[0] = 0
    assert m.encode([0x41, cp, 0x42], "test_python_codec.after") == b"A<1>"
    assert _SEEN == [("UnicodeEncodeError", 1, 2)]


RESERVED_CASES = [
    # data, tokens (corrected-utf-8.txt: FE/FF runs extend until the next recognized lead byte)
    (b"\xfe", [("reserved", 0, 1, None)]),
    (b"\xff\x80\xbf\x80A", [("reserved", 0, 4, None), ("char", 4, 5, 0x41)]),
    (b"A\xfe\xff\x80", [("char", 0, 1, 0x41), ("reserved", 1, 2, None), ("reserved", 2, 4, None)]),
    (b"\xfe\x80\xc0\xaf", [("reserved", 0, 2, None), ("char", 2, 4, 0xCF)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("data, toks", RESERVED_CASES, ids=lambda x: x.hex() if isinstance(x, bytes) else "")
def test_corrected_utf_8_reserved_runs(data, toks, backend):
    m = cutf8(backend)
    assert oracle("corrected-utf-8").tokens(data) == toks      # the expectation agrees with the oracle
    assert list(m.tokens(data)) == toks
    want = [0xFFFD if kind == "reserved" else value for kind, _, _, value in toks]
    assert m.decode_codepoints(data, "replace") == want         # one U+FFFD per run
    assert m.decode(data, "replace") == "".join(map(chr, want))
    # reserved "rather than as invalid" (corrected-utf-8.txt): valid unless asked otherwise
    assert m.is_valid(data) is True
    assert m.is_valid(data, allow_reserved=False) is False
    first = next(t for t in toks if t[0] == "reserved")
    assert m.first_error(data, allow_reserved=False) == (first[1], first[2], "reserved sequence")
    assert m.first_error(data) is None
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(data)
    assert (e.value.start, e.value.end, e.value.reason) == (first[1], first[2], "reserved sequence")


@pytest.mark.parametrize("backend", BACKENDS)
def test_corrected_utf_8_first_error_prefers_the_earlier_problem(backend):
    m = cutf8(backend)
    # C0 then a byte that cannot continue it: CPython's reason for C2 FE
    with pytest.raises(UnicodeDecodeError) as e:
        b"\xc2\xfe".decode("utf-8")
    assert m.first_error(b"\xc0\xfe\x80") == (0, 1, e.value.reason)
    assert m.first_error(b"\xfe\x80\xc0", allow_reserved=True)[:2] == (2, 3)
    assert m.first_error(b"\xfe\x80\xc0", allow_reserved=False)[:2] == (0, 2)
    assert m.is_valid(b"\xc0\xaf\xef\xbf\xbf") is True


@pytest.mark.parametrize("backend", BACKENDS)
def test_corrected_utf_8_magic_number_is_a_signature_only_at_offset_0(backend):
    """Seed: EF B7 9D ED B2 AE 00 0A is the magic number at the start of a file and
    otherwise "the Corrected encoding of ... U+10E7D U+ED4E U+0000 U+000A"."""
    m = cutf8(backend)
    four = [0x10E7D, 0xED4E, 0x0000, 0x000A]
    assert m.encode(four) == MAGIC
    toks = list(m.tokens(MAGIC + b"hi"))
    assert toks[0] == ("signature", 0, 8, None)
    assert toks[1:] == [("char", 8, 9, 0x68), ("char", 9, 10, 0x69)]
    assert m.decode(MAGIC + b"hi") == "hi"
    assert m.decode_codepoints(MAGIC) == []
    assert m.decode_codepoints(b"x" + MAGIC) == [0x78] + four
    assert m.decode_codepoints(MAGIC + MAGIC) == four
    assert m.decode(b"x" + MAGIC) == "x" + "".join(map(chr, four))
    assert [t[0] for t in m.tokens(b"x" + MAGIC)] == ["char"] * 5
    assert m.is_valid(MAGIC) and m.first_error(MAGIC) is None


def test_corrected_utf_8_encode_with_signature_prepends_the_magic_number():
    m = cutf8()
    assert m.encode("hi\n", signature=True) == MAGIC + b"hi\n"
    assert m.encode([0xCF], signature=True) == MAGIC + b"\xc0\xaf"
    assert m.encode("", signature=True) == MAGIC
    assert m.encode("hi") == b"hi"
    assert m.decode(m.encode("\u00cf\n", signature=True)) == "\u00cf\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_utf_8_bom_signature(backend):
    m = load("utf-8-bom", backend)
    assert m.encode("a", signature=True) == codecs.BOM_UTF8 + b"a" == "a".encode("utf-8-sig")
    assert m.decode(codecs.BOM_UTF8 + codecs.BOM_UTF8 + b"a") == \
        (codecs.BOM_UTF8 + codecs.BOM_UTF8 + b"a").decode("utf-8-sig")


# ====================================================== beyond U+10FFFF in str
BEYOND = [
    # (spec, code point): encodings from the oracles
    ("utf-8-rfc2279", 0x110000), ("utf-8-rfc2279", 0x7FFFFFFF),
    ("utf-inf-8", 0x110000), ("utf-inf-8", 0x80000000), ("utf-inf-8", 2 ** 71), ("utf-inf-8", 10 ** 40),
    ("corrected-utf-8", 0x110000), ("corrected-utf-8", 0x8421109F),
    ("fss-utf-1992", 0x7FFFFFFF), ("utf-1", 0x110000),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, cp", BEYOND, ids=lambda x: hex(x) if isinstance(x, int) else x)
def test_decode_routes_code_points_beyond_u10ffff_through_the_handler(name, cp, backend):
    m = load(name, backend)
    seq = oracle(name).encode([cp])
    data = b"a" + seq + b"b"
    span = (1, 1 + len(seq))
    assert m.decode_codepoints(data) == [0x61, cp, 0x62]
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(data)
    assert (e.value.start, e.value.end, e.value.reason) == (*span, "code point beyond U+10FFFF")
    assert e.value.encoding == name and e.value.object == data
    assert m.decode(data, "replace") == "a\ufffdb"
    assert m.decode(data, "ignore") == "ab"
    assert m.decode(data, "backslashreplace") == "a" + "".join(f"\\x{b:02x}" for b in seq) + "b"
    _SPANS.clear()
    assert m.decode(data, "test_python_codec.record") == "a\ufffdb"
    assert _SPANS == [("UnicodeDecodeError", *span, "code point beyond U+10FFFF")]
    # the same through the incremental decoder, fed byte by byte
    dec = m.IncrementalDecoder("replace")
    assert "".join(dec.decode(data[k:k + 1]) for k in range(len(data))) + dec.decode(b"", True) == "a\ufffdb"
    # and a well-formed check does not call it an error: it is well-formed bytes
    assert m.is_valid(data) and m.first_error(data) is None
