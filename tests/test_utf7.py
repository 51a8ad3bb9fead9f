"""UTF-7 (RFC 2152) as a built-in spec with a run of digits (issue 31 item 3), held to
CPython's utf_7 codec: CPython's C decides every expected answer here.

Decoding of every short combination of the bytes that matter and of random byte strings
under strict (exact spans and reasons) and CPython's handlers; encoding of every BMP code
point alone and of random text, byte for byte with the final "-"; incremental use split at
every offset equal to one-shot; the spec's `run` statement refused where it is wrong; one-shot
and incremental decoding of an unterminated base64 run linear.  The native extension (its
loop decodes a plain run itself and hands any other back to the module's _step) is held to
the same answers: decode under strict and the handlers, validation and the first error,
code points, incremental decoding split anywhere and in 4 KiB chunks.
"""
from __future__ import annotations

import codecs
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec.generated.utf_7 as utf7
from codec_samples import load_backend
from conftest import (
    ROOT,
    assert_linear,
    decoding_differences,
    examples,
    run_cli,
    strict_encode_outcome,
    unicode_outcome,
)
from encspec.emit.target import Unsupported
from encspec.emit.targets import render_files
from encspec.pipeline import load as load_spec
from encspec.runtime import tables
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_text

SPEC = ROOT / "specs" / "utf-7.encspec"
BOUND = tables.bind(load_spec(str(SPEC))[1])  # the core over the spec's automaton, no fast path
MODULES = pytest.mark.parametrize("module", [utf7, BOUND], ids=["generated", "bound"])

# the bytes that matter: the opening "+", the end "-", digits whose bits make ASCII, a high
# and a low surrogate and padding, a digit with non-zero low bits, direct bytes that end a
# run, a byte 80..FF, and whole runs
PIECES = [b"+", b"-", b"A", b"G", b"E", b"F", b"2", b"D", b"3", b"e", b"/", b"a", b".", b" ", b"\x80",
          b"\xff", b"~", b"\\", b"+AGE", b"+2D3eAA", b"+2AA", b"+3gA", b"+AGEAYQBh"]


def _combinations(n: int) -> list[bytes]:
    out = [b""]
    level = [b""]
    for _ in range(n):
        level = [x + p for x in level for p in PIECES]
        out += level
    return out


def test_utf7_decodes_every_short_combination_as_cpython():
    # every combination of up to 3 pieces (12,720 inputs), under strict, replace, ignore,
    # backslashreplace and surrogateescape
    assert decoding_differences(utf7, "utf_7", _combinations(3)) == []


@MODULES
def test_utf7_decodes_random_bytes_as_cpython(module):
    rng = random.Random(7)
    alphabet = b"+-AGEFQ2D3ea/.~ \x80" + bytes(range(0x20, 0x7F, 5))
    inputs = [bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(examples(3000))]
    assert decoding_differences(module, "utf_7", inputs) == []


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=40))
def test_utf7_decodes_any_bytes_as_cpython(data):
    assert decoding_differences(utf7, "utf_7", [data]) == []


@MODULES
def test_utf7_encodes_every_bmp_code_point_alone_as_cpython(module):
    bad = []
    for cp in range(0x10000):
        for text in (chr(cp), "a" + chr(cp) + "b", "\u00e9" + chr(cp), chr(cp) + "-"):
            want = text.encode("utf_7")
            if module.encode(text) != want:
                bad.append((text, module.encode(text), want))
        if len(bad) > 5:
            break
    assert bad == []


TEXT = st.text(st.sampled_from("aA+-/.~\\ \t\n\x00\x7f\u00e9\u20ac\ud800\udc00\U0001f600\U00010000"), max_size=30)


@settings(max_examples=examples(500), deadline=None)
@given(TEXT | st.text(max_size=20))
def test_utf7_encodes_random_text_as_cpython(text):
    want = strict_encode_outcome(lambda t: t.encode("utf_7"), text)
    assert strict_encode_outcome(utf7.encode, text) == want
    assert strict_encode_outcome(BOUND.encode, text) == want


@settings(max_examples=examples(200), deadline=None)
@given(TEXT.filter(lambda t: not any(0xD800 <= ord(c) <= 0xDFFF for c in t)))
def test_utf7_round_trips_through_cpython(text):
    # (a high surrogate and a low one written apart read back as one code point)
    assert utf7.decode(text.encode("utf_7")) == text
    assert utf7.encode(text).decode("utf_7") == text


def _split_decodes(data: bytes, errors: str, module=utf7) -> list[object]:
    """The incremental decoder's text for *data* split at each offset (then final)."""
    got = []
    for k in range(len(data) + 1):
        d = module.IncrementalDecoder(errors)
        try:
            got.append(d.decode(data[:k]) + d.decode(data[k:], final=True))
        except UnicodeDecodeError as e:
            got.append((e.start, e.end, e.reason))
    return got


@pytest.mark.parametrize("data", [b"+AGEAYQBh-x", b"a+2D3eAA-b", b"+AGEx-", b"+AGF-", b"+2AA", b"++-+",
                                  b"+AGEAYQBh\x80", b"+-+AOk.", b"+", b"+A", b"x+AOkA6QDp"])
def test_utf7_incremental_decoding_split_anywhere_equals_one_shot(data):
    for errors in ("replace", "ignore"):
        assert set(map(repr, _split_decodes(data, errors))) == {repr(data.decode("utf_7", errors))}
    # strict: where one-shot fails the error is located in the piece that holds it (the
    # first piece, or the second shifted), with one-shot's reason
    try:
        want = data.decode("utf_7")
    except UnicodeDecodeError as e:
        for got in _split_decodes(data, "strict"):
            assert isinstance(got, tuple) and got[2] == e.reason
    else:
        assert set(_split_decodes(data, "strict")) == {want}


@pytest.mark.parametrize("text", ["a\u00e9b", "\u00e9\u00e9\u00e9-", "\U0001f600x", "+\u20ac+a",
                                  "\u00e9a\u00e9.\u00e9", "\ud800\u00e9", "~\\"])
def test_utf7_incremental_encoding_split_anywhere_equals_one_shot(text):
    want = text.encode("utf_7")
    for k in range(len(text) + 1):
        e = utf7.IncrementalEncoder()
        first = e.encode(text[:k])
        state = e.getstate()
        e.reset()  # handed on: this one is done (an encoder dropped with bits pending warns)
        e2 = utf7.IncrementalEncoder()
        e2.setstate(state)  # the run and its pending bits travel in getstate()
        assert first + e2.encode(text[k:], final=True) == want


def test_utf7_encoder_dropped_with_bits_pending_warns():
    e = utf7.IncrementalEncoder()
    assert e.encode("\u00e9") == b"+AO"  # the last 4 bits wait for the next unit
    with pytest.warns(RuntimeWarning, match="the last bits of a run of digits"):
        e.__del__()
    e.reset()


def test_utf7_is_found_by_its_cpython_names():
    import encspec
    for name in ("utf-7", "utf7", "u7", "unicode-1-1-utf-7"):
        assert encspec.load(name).NAME == "utf-7"
    assert set(utf7.ALIASES) == {"utf7", "u7", "unicode-1-1-utf-7"}
    assert codecs.lookup("utf_7").name == "utf-7"  # CPython's own: encspec does not take it over


def test_utf7_targets_without_runs_refuse_in_one_line():
    """Rust and Java refuse a run of digits in one line; C, JS and the native extension
    take it (their answers: tests/test_export_digits.py, the native tests below)."""
    a = load_spec(str(SPEC))[1]
    for lang in ("c", "js", "native"):
        assert render_files(a, lang)
    for lang in ("rust", "java"):
        with pytest.raises(Unsupported) as e:
            render_files(a, lang)
        assert "run of digits" in str(e.value) and "\n" not in e.value.message


@pytest.mark.parametrize("line, message", [
    ("digits b = 41..50\nrun r: 2B b 6 bits 16 bit units", "6 bits a digit need 2**6 digits"),
    ("digits b = 41..44\nrun r: 2B b 2 bits 12 bit units", "a unit is 8, 16 or 32 bits"),
    ("digits b = 41..44\nrun r: 2B c 2 bits 16 bit units", "unknown digits 'c'"),
    ("digits b = 41..44\nrun r: 2B b 2 bits 16 bit units end 42", "the end byte 42 is also a digit"),
    ("digits b = 41..44, 42\nrun r: 2B b 2 bits 16 bit units", "byte 42 is listed twice"),
    ("digits b = 41..44\nrun r: 2B b 2 bits 8 bit units combine surrogate-pair", "needs 16-bit units"),
    ("digits b = 41..44", "'digits' needs a run of digits"),
])
def test_utf7_bad_run_statements_are_located(line, message):
    text = f"encoding x\ncode-space U+0000..U+FFFF\nform a: 00..7F\n{line}\n"
    with pytest.raises(SpecError) as e:
        parse_text(text, "x.encspec")
    assert message in str(e.value)
    assert "x.encspec:" in str(e.value)


def test_utf7_decode_of_an_unterminated_run_is_linear():
    run = b"+" + b"AGEAYQBh" * (1 << 13)  # 64 KiB of digits, the data's end inside the run
    assert_linear("utf-7 decode of an unterminated base64 run", lambda d: utf7.decode(d, "replace"), run,
                  b"+" + b"AGEAYQBh" * (1 << 17))


def test_utf7_incremental_decode_of_an_unterminated_run_is_linear():
    def feed(data: bytes) -> str:
        d = utf7.IncrementalDecoder("replace")
        return "".join(d.decode(data[k:k + 512]) for k in range(0, len(data), 512)) + d.decode(b"", final=True)

    assert_linear("utf-7 incremental decode of an unterminated run", feed, b"+" + b"AGEAYQBh" * (1 << 13),
                  b"+" + b"AGEAYQBh" * (1 << 17))


def test_utf7_encode_of_a_long_run_is_linear():
    assert_linear("utf-7 encode of one long run", utf7.encode, "\u00e9" * (1 << 14), "\u00e9" * (1 << 18))


def test_utf7_check_decides_its_properties_from_the_run():
    from encspec.analyse.properties import check
    a = load_spec(str(SPEC))[1]
    report = check(a)
    assert report.properties == {"prefix_free": False, "self_synchronizing": False, "order_preserving": False,
                                 "ascii_compatible": False, "bijective": False, "total": True}
    assert report.max_code_point == 0x10FFFF and report.max_length is None
    # each counterexample as CPython reads it: "a" spelt twice, a run's digits read alone
    direct, again = report.counterexamples["bijective"]
    assert direct.decode("utf_7") == again.decode("utf_7") and direct != again
    whole, tail = report.counterexamples["self_synchronizing"]
    assert whole.decode("utf_7") != tail.decode("utf_7") and whole.endswith(tail)
    short, longer = report.counterexamples["prefix_free"]
    assert longer.startswith(short) and len(short.decode("utf_7")) == 1 and len(longer.decode("utf_7")) == 2


def test_utf7_describe_names_the_run_and_diff_refuses_in_one_line(capsys):
    _, out, _ = run_cli(capsys, "describe", "utf-7")
    assert "run of digits 'shift': 2B then digits of 6 bits" in out
    code, _, err = run_cli(capsys, "diff", "utf-7", "ascii")
    assert code == 2 and "has a run of digits" in err and err.count("\n") == 1


def _native():
    """The built-in's native backend (skips, naming why, where the extension is not built)."""
    module = load_backend("utf-7", "native")
    assert module._NATIVE is not None
    return module


def _native_samples(count: int) -> list[bytes]:
    """Short combinations of the pieces, random bytes and CPython's UTF-7 of random text,
    some with one byte changed (runs ended early, bits left over, lone surrogates)."""
    rng = random.Random(31)
    alphabet = b"+-AGEFQ2D3ea/.~ \x80" + bytes(range(0x20, 0x7F, 5))
    out = _combinations(2)
    for _ in range(count):
        out.append(bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 24))))
        text = "".join(chr(rng.choice((rng.randrange(0x80), rng.randrange(0x100, 0x800), rng.randrange(0xD800),
                                       rng.randrange(0xD800, 0xE000), rng.randrange(0x10000, 0x110000))))
                       for _ in range(rng.randint(1, 6)))
        data = text.encode("utf_7", "surrogatepass")
        out.append(data)
        k = rng.randrange(len(data))
        out.append(data[:k] + bytes([rng.choice(alphabet)]) + data[k + 1:])
    return out


def test_utf7_native_decodes_as_cpython():
    native = _native()
    samples = _native_samples(examples(400))
    assert decoding_differences(native, "utf_7", samples) == []
    for data in samples:
        want = unicode_outcome(codecs.decode, data, "utf_7")
        failed = not isinstance(want, str)
        assert native.is_valid(data) is not failed, data
        assert native.first_error(data) == ((want[1], want[2], want[3]) if failed else None), data
        if not failed:
            assert native.decode_codepoints(data) == list(map(ord, want)), data


def test_utf7_native_incremental_decoding_split_anywhere_equals_one_shot():
    native = _native()
    for data in _native_samples(examples(40))[-120:]:
        for errors in ("replace", "ignore"):
            assert set(map(repr, _split_decodes(data, errors, native))) == {repr(data.decode("utf_7", errors))}


def test_utf7_native_decodes_long_runs_whole_and_in_chunks_as_cpython():
    # runs far longer than a 4 KiB chunk and the module's first window (CJK and emoji
    # text), between ASCII, as CPython's encoder writes them
    native = _native()
    rng = random.Random(7)
    text = "".join(rng.choice(("\u4e2d\u6587" * 3000, "\U0001f600x\u00e9", " ascii words ", "+-"))
                   for _ in range(40))
    data = text.encode("utf_7")
    assert native.decode(data) == text
    decoder = native.IncrementalDecoder()
    assert "".join(decoder.decode(data[k:k + 4096]) for k in range(0, len(data), 4096)) + \
        decoder.decode(b"", True) == text
    # a run cut by the data's end, and one with bits left over, far from the start
    assert unicode_outcome(native.decode, data + b"+AGE") == unicode_outcome(codecs.decode, data + b"+AGE", "utf_7")
    want = unicode_outcome(codecs.decode, data + b"+AGF-", "utf_7")
    assert native.first_error(data + b"+AGF-") == (len(data), len(data) + 5, want[3]) == want[1:]


@pytest.mark.parametrize("text", ["\u00e9\u20acA\ufffd", "\u65e5\u672c", "a\u00e9", "\U0001f600", "+\u00e9-"])
def test_utf7_stream_writer_ends_the_run_on_reset(text):
    """A StreamWriter written piece by piece ends the open run (its last bits as a digit,
    then "-") on reset, as one-shot encode does; it used to keep them (the fuzz corpus's
    e9 01 ac 41 41 fd ff 03: "+AOkgrA-A+//" without "0-")."""
    import io
    for k in range(len(text) + 1):
        sink = io.BytesIO()
        writer = utf7.getregentry().streamwriter(sink, "strict")
        writer.write(text[:k])
        writer.write(text[k:])
        writer.reset()
        assert sink.getvalue() == text.encode("utf-7"), k


@pytest.mark.parametrize("backend", ["python", "native"])
def test_utf7_stream_reader_keeps_a_long_run_read_in_small_pieces(backend):
    """A run longer than 256 bytes read a few bytes at a time: the incremental decoder holds
    such a token's later pieces aside until the input doubles, and the StreamReader took
    only its pending bytes for what was left, so those pieces were lost and the rest read
    as direct characters (the fuzz run's "+3A+" and 600 "/": "////…")."""
    import io
    m = load_backend("utf-7", backend)
    for data in (b"+3A+" + b"/" * 600, b"+" + b"AGE" * 3000 + b"-x", b"a+" + b"ZeVnLIqe" * 200):
        reader = m.getregentry().streamreader(io.BytesIO(data), "replace")
        got = "".join(reader.read(size) for size in (15, 53, 172, 37, 154)) + reader.read()
        assert got == data.decode("utf-7", "replace")
