"""The decoder core (encspec/runtime/core.py): written once, carried verbatim.

* the single-core rule: the core's text after its marker line is, byte for byte,
  the end of every generated module;
* the defects the copies of the core used to cause, each with its reproduction:
  an encoder that wrote what its decoder rejects (issue 13, defect 1), a
  StreamReader that lost a held-back last character (3), a WTF-8 StreamWriter
  that did not join a pair split across writes (4), incremental decoding of a
  long reserved run in quadratic time (6, a time-ratio test, never absolute);
* what the streams need from the module: code points as ints incrementally,
  surrogates as errors for UTF-8 text.

Expected values come from the seeds (byte sequences written out here) and
CPython, never from the code under test.
"""
from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest

import encspec
from codec_samples import BACKENDS, oracle
from conftest import assert_linear

ROOT = Path(__file__).resolve().parents[1]
MARKER = "# ---- encspec core: copied verbatim into every generated module ----\n"

encspec.register()


def load(name, backend="auto"):
    return encspec.load(name, backend=backend)


# ============================================================ one core
def _after_marker(text: str, where: str) -> str:
    assert text.count(MARKER) == 1, f"{where}: the marker line must be there once"
    return text.split(MARKER, 1)[1]


def test_every_generated_module_ends_with_the_core_verbatim():
    core = _after_marker((ROOT / "codegen" / "runtime" / "core.py").read_text("utf-8"), "core.py")
    assert "def _decode(" in core and "class IncrementalDecoder(" in core
    modules = sorted(p for p in (ROOT / "generated").glob("*.py") if p.name != "__init__.py")
    assert len(modules) >= 10
    for path in modules:
        assert _after_marker(path.read_text("utf-8"), path.name) == core, path.name


def test_the_core_imports_on_its_own():
    """Its placeholder tables: ASCII, one byte a character, 80..FF errors."""
    from encspec.runtime import core
    assert core.decode(b"ok\x80!", "replace") == "ok\ufffd!"
    assert core.encode("ok") == b"ok"
    assert core.first_error(b"ab\xff") == (2, 3, "invalid start byte")


def test_bound_core_and_generated_module_agree():
    """The analyses' tokenizer (the core bound to the automaton's table values) is the
    module's, counted forms (whose tables hold code) included."""
    from encspec.pipeline import load as load_automaton
    from encspec.runtime.tables import bind, tokens
    a = load_automaton(ROOT / "specs" / "corrected-utf-8.encspec")[1]
    data = bytes.fromhex("EFB79DEDB2AE000A 41 C0AF FE8080 C0 E0 80 F8 88 80 80 80")
    m = load("corrected-utf-8", "python")
    assert list(tokens(a, data)) == list(m._tokens(data))
    a = load_automaton(ROOT / "specs" / "utf-inf-8.encspec")[1]
    cps = [0x41, 2 ** 36, 10 ** 30]
    data = oracle("utf-inf-8").encode(cps)
    bound = bind(a)
    assert bound.decode_codepoints(data) == cps == load("utf-inf-8", "python").decode_codepoints(data)
    assert bound.encode(cps) == data


# ======================================= defect 1: the encoder honours the automaton
UTF8_NO_LATIN = """encoding utf-8-no-latin
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx              min U+0080
form 3: 1110xxxx 10xxxxxx{2}           min U+0800
form 4: 11110xxx 10xxxxxx{3}           min U+10000
ill-formed pattern bad: <2 U+0080..U+00FF> "latin-1 range"
"""


@pytest.fixture(scope="module")
def no_latin(tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / "utf-8-no-latin.encspec"
    path.write_text(UTF8_NO_LATIN, "utf-8")
    return encspec.load(str(path), backend="python")


def test_encode_refuses_what_an_ill_formed_pattern_makes_invalid(no_latin):
    m = no_latin
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(b"\xc2\x80")
    assert (e.value.start, e.value.end, e.value.reason) == (0, 2, "latin-1 range")
    with pytest.raises(UnicodeEncodeError) as e:
        m.encode([0x80])                       # was C2 80
    assert (e.value.start, e.value.end) == (0, 1)
    seen = []

    def record(exc):
        seen.append((exc.start, exc.end))
        return "?", exc.end

    codecs.register_error("test_core.record", record)
    assert m.encode("a\x80\xff\u0100", "test_core.record") == b"a?\xc4\x80"   # str: the fast memo path
    assert m.encode([0x41, 0xE9], "test_core.record") == b"A?"                # code points
    assert seen == [(1, 3), (1, 2)]
    assert m.encode([0x7F, 0x100, 0x7FF]) == bytes.fromhex("7F C480 DFBF")   # the rest of form 2


# ============================================= defect 3: StreamReader at the end
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, data, text", [
    ("wtf-8", bytes.fromhex("41 ED A0 80"), "A\ud800"),
    ("mutf-8", bytes.fromhex("41 ED A9 8A"), "A\uda4a"),
])
def test_stream_reader_keeps_a_held_back_last_character(name, data, text, backend):
    m = load(name, backend)
    assert m.decode(data) == text
    assert codecs.getreader(name)(io.BytesIO(data)).read() == text
    for size in (1, 2, 3):
        r = m.StreamReader(io.BytesIO(data))
        got = ""
        while True:
            piece = r.read(size)
            if not piece:
                break
            got += piece
        assert got == text, size
    assert "".join(m.StreamReader(io.BytesIO(data + b"\n"))) == text + "\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_stream_reader_reports_a_truncated_last_sequence_as_decode_does(backend):
    """The end of the stream is final, as for one-shot decoding (CPython's own
    StreamReader, never passing final=True, would leave the bytes undecoded)."""
    for name, data, text in (("wtf-8", b"A\xed\xa0", "A\ufffd"), ("utf-8", b"A\xf0\x9f\x98", "A\ufffd"),
                             ("wtf-8", b"A\xed\xa0\x80\xed\xb0", "A\ud800\ufffd")):
        m = load(name, backend)
        assert m.StreamReader(io.BytesIO(data), "replace").read() == text   # a maximal subpart: one U+FFFD
        with pytest.raises(UnicodeDecodeError) as e:
            m.StreamReader(io.BytesIO(data)).read()
        assert e.value.reason == "unexpected end of data"


# ============================= defect 4: StreamWriter joins pairs, holds nothing
class Kept(io.BytesIO):
    """A BytesIO that remembers its bytes when closed."""

    def close(self):
        self.kept = self.getvalue()
        super().close()


def test_wtf_8_stream_writer_joins_a_pair_within_a_write_and_refuses_one_split_across_writes():
    """The lead's bytes are out when the next write() brings the trail: joining it is
    no longer possible, and ED A0 BD ED B8 80 is what the decoder rejects, so the
    trail is an encode error (the handler's: "replace" writes "?")."""
    want = oracle("wtf-8").encode([0x1F600])
    assert want == bytes.fromhex("F0 9F 98 80")
    out = io.BytesIO()
    w = codecs.getwriter("wtf-8")(out)
    w.write("\ud83d\ude00")
    assert out.getvalue() == want
    w.write("\ud83d")
    with pytest.raises(UnicodeEncodeError) as e:
        w.write("\ude00")
    assert (e.value.start, e.value.end) == (0, 1)
    assert "can no longer be joined" in e.value.reason
    assert out.getvalue() == want + b"\xed\xa0\xbd"      # nothing of the trail: no pair byte sequence
    w = codecs.getwriter("wtf-8")(out, "replace")
    w.write("\ud83d")
    w.write("\ude00b")
    assert out.getvalue().endswith(b"\xed\xa0\xbd?b")


def test_wtf_8_stream_writer_writes_a_lone_lead_surrogate_at_once():
    """Nothing waits for reset(), close() or the end of a with block, which
    codecs.open's StreamReaderWriter never passes on to the writer."""
    out = io.BytesIO()
    w = codecs.getwriter("wtf-8")(out)
    w.write("a\ud83d")
    assert out.getvalue() == b"a\xed\xa0\xbd"
    w.reset()
    w.write("\ude00")                              # after a reset: a lone trail, written alone
    assert out.getvalue() == b"a\xed\xa0\xbd\xed\xb8\x80"
    kept = Kept()
    with codecs.getwriter("wtf-8")(kept) as w:
        w.write("\ud83d")
    assert kept.kept == b"\xed\xa0\xbd"
    out = io.BytesIO()
    w = codecs.getwriter("wtf-8")(out)
    w.write("xyz\ud83d")
    w.seek(1)
    w.write("Q")
    assert out.getvalue() == b"xQz\xed\xa0\xbd"


def test_signed_stream_writer_writes_the_signature_once_and_again_after_seek_0():
    magic = bytes.fromhex("EF B7 9D ED B2 AE 00 0A")
    out = io.BytesIO()
    w = codecs.getwriter("corrected-utf-8-sig")(out)
    w.write("A")
    w.write("B")
    assert out.getvalue() == magic + b"AB"
    w.seek(0)
    w.write("C")
    assert out.getvalue() == magic + b"CB"


# =========================================== defect 6: long runs in linear time
def _feed_4k(m, data):
    d = m.IncrementalDecoder("replace")
    out = [d.decode(data[k:k + 4096]) for k in range(0, len(data), 4096)]
    out.append(d.decode(b"", True))
    return "".join(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_incremental_decoding_of_one_long_reserved_run_is_linear(backend):
    """corrected-utf-8: FE then N bytes 80, one reserved run, fed 4 KiB at a time.
    16 times the input must take about 16 times as long (quadratic: 256 times)."""
    m = load("corrected-utf-8", backend)
    small, big = b"\xfe" + b"\x80" * (64 << 10), b"\xfe" + b"\x80" * (1 << 20)
    assert _feed_4k(m, big) == m.decode(big, "replace") == "\ufffd"
    assert_linear(f"corrected-utf-8 [{backend}], one reserved run fed 4 KiB at a time",
                  lambda data: _feed_4k(m, data), small, big, bound=40)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_token_that_is_complete_comes_out_at_once(backend):
    m = load("corrected-utf-8", backend)
    d = m.IncrementalDecoder("replace")
    assert d.decode(b"x\xfe" + b"\x80" * 10000) == "x"
    assert d.decode(b"\x80" * 5) == ""
    assert d.decode(b"A") == "\ufffdA"             # the run ended at A, and A is whole
    assert d.getstate() == (b"", 0)


# ===================================================== what the streams use
@pytest.mark.parametrize("backend", BACKENDS)
def test_surrogates_false_sends_surrogate_code_points_to_the_handler(backend):
    m = load("wtf-8", backend)
    reason = "surrogate code point (not in UTF-8 text)"
    data = b"A" * 40 + bytes.fromhex("ED A0 80") + b"B" + bytes.fromhex("ED B0 80")
    assert m.decode(data) == "A" * 40 + "\ud800B\udc00"
    d = m.IncrementalDecoder("replace", surrogates=False)
    assert d.decode(data[:42]) + d.decode(data[42:], True) == "A" * 40 + "\ufffdB\ufffd"
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(data, surrogates=False)
    assert (e.value.start, e.value.end, e.value.reason) == (40, 43, reason)
    with pytest.raises(UnicodeDecodeError) as e:       # ill-formed in wtf-8 whatever the option
        m.decode(bytes.fromhex("ED A0 80 ED B0 80"), surrogates=False)
    assert (e.value.start, e.value.end, e.value.reason) == (0, 6, "surrogate pair byte sequence")
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(b"AB\xed\xa0\x80", surrogates=False)
    assert (e.value.start, e.value.end, e.value.reason) == (2, 5, reason)
    assert m.decode(b"\xed\xa0\x80", "surrogateescape", surrogates=False) == "\udced\udca0\udc80"


@pytest.mark.parametrize("backend", BACKENDS)
def test_incremental_code_point_decoder_keeps_code_points_beyond_u10ffff(backend):
    cps = [0x41, 2 ** 36, 0x10FFFF, 10 ** 30]
    data = oracle("utf-inf-8").encode(cps)
    d = load("utf-inf-8", backend).IncrementalCodePointDecoder("strict")
    got = []
    for k in range(0, len(data), 3):
        got += d.decode(data[k:k + 3])
    got += d.decode(b"", True)
    assert got == cps


def test_incremental_encoder_takes_code_points_and_writes_a_lead_surrogate_at_once():
    enc = load("wtf-8").IncrementalEncoder()
    assert enc.encode([0x61, 0xD83D]) == b"a\xed\xa0\xbd"
    assert enc.getstate() & 0x1FFFFF == 0xD83D          # the lead its bytes end with
    with pytest.raises(UnicodeEncodeError):
        enc.encode([0xDE00, 0x62])                      # too late to join
    assert enc.encode([0xD83D, 0xDE00, 0x62]) + enc.encode([], True) == b"\xf0\x9f\x98\x80b"
    assert enc.getstate() & 0x1FFFFF == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_wtf_8_joins_a_lead_and_a_trail_a_handler_brought_together(backend):
    """wtf-8.txt 6.5: when a handler drops what stood between a lead and a trail
    surrogate, writing their two sequences would make the pair byte sequence wtf-8
    rejects (ED A0 80 ED B0 80); they are joined, one-shot and within a piece.  Cut
    between them, the lead's bytes are out before the trail comes: the trail is
    then an error of its own (dropped by "ignore"), never a pair byte sequence."""
    m = load("wtf-8", backend)
    cps = [0x41, 0xD800, 0x110000, 0xDC00, 0x42]
    want = b"A" + oracle("wtf-8").encode([0x10000]) + b"B"
    assert want == bytes.fromhex("41 F0 90 80 80 42")
    assert m.encode(cps, "ignore") == want
    assert m.encode(cps, "replace") == bytes.fromhex("41 ED A0 80 3F ED B0 80 42")
    for k in range(len(cps) + 1):
        enc = m.IncrementalEncoder("ignore")
        got = enc.encode(cps[:k]) + enc.encode(cps[k:]) + enc.encode([], True)
        assert got == (want if k not in (2, 3) else bytes.fromhex("41 ED A0 80 42")), k
    enc = m.IncrementalEncoder("ignore")
    enc.encode(cps[:3])
    enc.errors = "strict"
    with pytest.raises(UnicodeEncodeError) as e:
        enc.encode(cps[3:])
    assert (e.value.start, e.value.end) == (0, 1) and "can no longer be joined" in e.value.reason
