"""Issue 15, items 3, 7, 8 and 10: codecs the seeds name or describe.

3. Corrected UTF-8's C1 controls and surrogates in private use (corrected-utf-8.txt);
7. UTF-8-BOM, UTF-8-NOBOM and UTF-8N (encyclopedia article, "Naming");
8. reversible OPTU-8 (encyclopedia article, "PEP 383");
10. CPython's words for unencodable surrogates.

Every expected value is written here by hand from the quoted sentences; each test
runs on both backends (the codecs are built on ``load_backend(name, backend)``).
"""
from __future__ import annotations

import codecs
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, load_backend
from conftest import examples
from encspec import codec as codec_module
from encspec.runtime import optu8, private_use
from encspec.runtime.handlers import from_private_use, to_private_use

encspec.register()

BOM = bytes.fromhex("EF BB BF")


def search(name: str, backend: str, monkeypatch):
    """What the registered search function hands :mod:`codecs` for *name*, its
    modules loaded on *backend*."""
    real_load = codec_module.load
    with monkeypatch.context() as m:
        m.setattr(codec_module, "load", lambda n, *_: real_load(n, backend=backend))
        return codec_module._search(name)


# ============================================================ 3. private use
# corrected-utf-8.txt: "If there is a need to represent U+0080 through U+009F, perhaps
# for round-tripping historical documents, they can be mapped to some convenient
# private-use codepoints." ... "programs that need to represent actual surrogates
# (perhaps for the same reasons that motivated the creation of WTF-8) can map them
# into private-use space."
#
# The mapping (codegen/runtime/handlers.py): code point + U+100000.  By hand from the
# seed's table, row "F0 80 80 80 … F7 BF BF BF | 69 792 | 0001 10A0 … 0021 109F":
#   U+0085 -> U+100085; 0x100085 - 69792 = 0xEEFE5 = 011 101110 111111 100101
#             -> F3 AE BF A5
#   U+D800 -> U+10D800; 0x10D800 - 69792 = 0xFC760 = 011 111100 011101 100000
#             -> F3 BC 9D A0
#   U+DFFF -> U+10DFFF; 0x10DFFF - 69792 = 0xFCF5F = 011 111100 111101 011111
#             -> F3 BC BD 9F
C1_85 = bytes.fromhex("F3 AE BF A5")
SURROGATE_D800 = bytes.fromhex("F3 BC 9D A0")
SURROGATE_DFFF = bytes.fromhex("F3 BC BD 9F")

# Text Corrected UTF-8 encodes by itself, plus C1 controls and surrogates; the
# private-use stand-ins are left out (PEP 383's caveat, tested on its own).
STAND_INS = set(range(0x100080, 0x1000A0)) | set(range(0x10D800, 0x10E000))
texts = st.lists(st.one_of(st.integers(0x80, 0x9F), st.integers(0xD800, 0xDFFF),
                           st.sampled_from([0x0A, 0x41, 0x7F, 0xA0, 0xE000, 0xFFFF, 0x10000, 0x10FFFF]),
                           st.integers(0, 0x10FFFF).filter(lambda c: c not in STAND_INS)),
                 max_size=20).map(lambda cps: "".join(map(chr, cps)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_c1_and_surrogates_map_to_the_documented_private_use_code_points(backend, monkeypatch):
    cutf8 = load_backend("corrected-utf-8", backend)
    with pytest.raises(UnicodeEncodeError):
        cutf8.encode("\x85")                                   # "not encoded"
    want = b"a" + C1_85 + SURROGATE_D800 + SURROGATE_DFFF + b"z"
    assert cutf8.encode("a\x85\ud800\udfffz", "encspec.private_use") == want
    info = search("corrected-utf-8-pua", backend, monkeypatch)
    assert info.name == "corrected-utf-8-pua"
    assert info.encode("a\x85\ud800\udfffz") == (want, 5)
    assert info.decode(want) == ("a\x85\ud800\udfffz", len(want))
    # the handler pair's way back, and the raw decode it undoes
    assert cutf8.decode(want) == "a\U00100085\U0010d800\U0010dfffz"
    assert from_private_use(cutf8.decode(want)) == "a\x85\ud800\udfffz"
    assert to_private_use("\x7f\x80\x9f\xa0\ud7ff\ud800\udfff\ue000") == "\x7f\U00100080\U0010009f\xa0\ud7ff" \
                                                                          "\U0010d800\U0010dfff\ue000"


@pytest.mark.parametrize("backend", BACKENDS)
def test_private_use_round_trips_any_text(backend, monkeypatch):
    cutf8 = load_backend("corrected-utf-8", backend)
    info = search("cutf8-pua", backend, monkeypatch)          # an alias of corrected-utf-8, plus -pua

    @settings(max_examples=examples(200), deadline=None)
    @given(texts, st.integers(0, 20))
    def check(text, cut):
        data = info.encode(text)[0]
        assert info.decode(data)[0] == text
        assert cutf8.encode(text, "encspec.private_use") == data
        assert from_private_use(cutf8.decode(data)) == text
        dec = info.incrementaldecoder()
        assert "".join(dec.decode(data[i:i + 1]) for i in range(len(data))) + dec.decode(b"", True) == text
        enc = info.incrementalencoder()
        assert enc.encode(text[:cut]) + enc.encode(text[cut:], True) == data
    check()


@pytest.mark.parametrize("backend", BACKENDS)
def test_private_use_streams_and_files(backend, monkeypatch, tmp_path):
    info = search("corrected-utf-8-pua", backend, monkeypatch)
    sink = io.BytesIO()
    w = info.streamwriter(sink)
    w.write("a\x85")
    w.write("\ud800")
    w.reset()
    assert sink.getvalue() == b"a" + C1_85 + SURROGATE_D800
    assert info.streamreader(io.BytesIO(sink.getvalue())).read() == "a\x85\ud800"
    path = tmp_path / "t"
    with open(path, "w", encoding="corrected-utf-8-pua", errors="surrogatepass", newline="") as f:
        f.write("x\x9f\udc80\n")
    with open(path, encoding="corrected-utf-8-pua", newline="") as f:
        assert f.read() == "x\x9f\udc80\n"


def test_private_use_pep_383_caveat_and_limits():
    """A genuine stand-in reads back as what it stands for (PEP 383's caveat); the
    handler maps only C1 controls and surrogates, and only when encoding."""
    assert "\U00100085".encode("corrected-utf-8-pua").decode("corrected-utf-8-pua") == "\x85"
    with pytest.raises(UnicodeEncodeError):
        "\u20ac".encode("latin-1", "encspec.private_use")
    with pytest.raises(UnicodeDecodeError):
        b"\xff".decode("corrected-utf-8", "encspec.private_use")
    with pytest.raises(LookupError):
        codecs.lookup("utf-8-pua")        # only Corrected UTF-8 skips the C1 controls


# ============================================================ 7. BOM names
# Encyclopedia article, "Naming": "Unofficially, UTF-8-BOM and UTF-8-NOBOM are sometimes
# used to refer to text files which respectively contain and lack a byte order mark
# (BOM). In Japan especially, UTF-8 encoding without BOM is sometimes called "UTF-8N"."
# "Byte order mark": "the bytes 0xEF, 0xBB, 0xBF at the start of any document saved as
# UTF-8. This is the UTF-8 encoding of the Unicode byte order mark (BOM)".

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["UTF-8-BOM", "utf8-bom", "utf-8-with-bom"])
def test_utf_8_bom_files_contain_a_bom(name, backend, monkeypatch):
    info = search(name, backend, monkeypatch)
    assert info.name == "utf-8-bom"
    assert info.encode("x") == (BOM + b"x", 1)
    assert info.encode("\ufeffx") == (BOM + BOM + b"x", 2)
    assert info.decode(BOM + b"x") == ("x", 4)                  # the BOM is not text
    assert info.decode(BOM + BOM + b"x")[0] == "\ufeffx"         # only the first one
    assert info.decode(b"x") == ("x", 1)                         # a file without one still reads
    enc = info.incrementalencoder()
    assert enc.encode("x") + enc.encode("y", True) == BOM + b"xy"
    # the module API: the spec's encode writes the BOM only when asked
    module = load_backend("utf-8-bom", backend)
    assert module.encode("x") == b"x"
    assert module.encode("x", signature=True) == BOM + b"x"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["UTF-8-NOBOM", "utf8-nobom", "UTF-8N", "utf8n"])
def test_utf_8_nobom_and_utf_8n_files_lack_one(name, backend, monkeypatch):
    """A file that lacks a BOM has none to drop: a leading EF BB BF is U+FEFF, text."""
    info = search(name, backend, monkeypatch)
    assert info.name == "utf-8"                    # an alias of the utf-8 spec (specs/utf-8.encspec)
    assert info.encode("x") == (b"x", 1)
    assert info.encode("\ufeffx") == (BOM + b"x", 2)
    assert info.decode(BOM + b"x") == ("\ufeffx", 4)
    assert info.decode(b"\xc3\xa9\xff", "replace")[0] == "\xe9\ufffd"


def test_bom_names_through_codecs():
    assert "x".encode("UTF-8-BOM") == BOM + b"x"
    assert "x".encode("UTF-8-NOBOM") == b"x" == "x".encode("UTF-8N")
    assert (BOM + b"x").decode("UTF-8-BOM") == "x"
    assert (BOM + b"x").decode("UTF-8N") == "\ufeffx"
    assert "x".encode("utf-8-bom-sig") == BOM + b"x"             # the NAME-sig form still works


@pytest.mark.parametrize("args", [["encode", "UTF-8-BOM"], ["encode", "utf8-bom"],
                                  ["transcode", "--from", "utf-8", "--to", "UTF-8-BOM"]])
def test_bom_names_write_a_bom_on_the_command_line(args):
    """A name means one thing everywhere: the command line writes what the codec writes."""
    from click.testing import CliRunner

    from encspec.cli.main import cli
    got = CliRunner().invoke(cli, args, input=b"x\xc3\xa9")
    assert got.exit_code == 0, got.output
    assert got.stdout_bytes == "x\xe9".encode("UTF-8-BOM") == BOM + b"x\xc3\xa9"


@pytest.mark.parametrize("args, out", [
    (["encode", "UTF-8-NOBOM"], b"x"), (["encode", "utf-8"], b"x"),
    (["encode", "corrected-utf-8-sig"], "x".encode("corrected-utf-8-sig")),
    (["transcode", "--from", "utf-8", "--to", "corrected-utf-8-sig"], "x".encode("corrected-utf-8-sig")),
    (["encode", "corrected-utf-8"], b"x"),
])
def test_sig_and_nobom_names_on_the_command_line(args, out):
    from click.testing import CliRunner

    from encspec.cli.main import cli
    got = CliRunner().invoke(cli, args, input=b"x")
    assert got.exit_code == 0, got.output
    assert got.stdout_bytes == out
    assert out.endswith(b"x") and (out != b"x") == args[-1].endswith("-sig")


# ============================================================ 8. reversible OPTU-8
# Encyclopedia article, "PEP 383": "Another encoding called MirBSD OPTU-8/16 converts
# them to U+EF80...U+EFFF in a Private Use Area. In either approach, the byte value is
# encoded in the low eight bits of the output code point." ... "For the encoding to be
# reversible, the standard UTF-8 encodings of the code points used for erroneous bytes
# must be considered invalid." ... "When re-encoding it is necessary to be careful of
# sequences of error code points which convert back to valid UTF-8".
# U+EF80..U+EFFF in UTF-8 (Description table, 1110xxxx 10xxxxxx 10xxxxxx): EE BE 80 ..
# EE BF BF.

def reversible(backend, monkeypatch):
    return search("utf-8-optu8-strict", backend, monkeypatch)


@pytest.mark.parametrize("backend", BACKENDS)
def test_optu8_strict_every_ee_be_and_ee_bf_sequence(backend, monkeypatch):
    """All 512 three-byte EE BE xx / EE BF xx inputs: bytes in, the same bytes out;
    80..BF third bytes are erroneous bytes, each one escaped."""
    info = reversible(backend, monkeypatch)
    for second in (0xBE, 0xBF):
        for third in range(256):
            data = bytes([0xEE, second, third])
            text = info.decode(data)[0]
            assert info.encode(text)[0] == data, data.hex()
            if 0x80 <= third <= 0xBF:
                assert text == chr(0xEFEE) + chr(0xEF00 + second) + chr(0xEF00 + third)
            elif third < 0x80:
                assert text == chr(0xEFEE) + chr(0xEF00 + second) + chr(third)
    assert info.decode(b"\xee\xbd\xbf")[0] == "\uef7f"          # just below the block: a character
    assert info.decode(b"\xef\x80\x80")[0] == "\uf000"          # just above


@pytest.mark.parametrize("backend", BACKENDS)
def test_optu8_strict_decode_then_encode_is_the_identity_on_every_byte_string(backend, monkeypatch):
    info = reversible(backend, monkeypatch)
    interesting = st.sampled_from([0x41, 0x80, 0xBE, 0xBF, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0,
                                   0xEE, 0xEF, 0xF0, 0xF4, 0xFF])

    @settings(max_examples=examples(400), deadline=None)
    @given(st.lists(st.one_of(interesting, st.integers(0, 255)), max_size=40).map(bytes), st.integers(0, 40))
    def check(data, cut):
        text = info.decode(data)[0]
        assert info.encode(text)[0] == data
        dec = info.incrementaldecoder()
        assert dec.decode(data[:cut]) + dec.decode(data[cut:], True) == text
        enc = info.incrementalencoder()
        assert enc.encode(text[:cut]) + enc.encode(text[cut:], True) == data
    check()


@pytest.mark.parametrize("backend", BACKENDS)
def test_optu8_strict_refuses_escapes_that_spell_valid_utf_8(backend, monkeypatch):
    info = reversible(backend, monkeypatch)
    # C3 A9 is é: as escapes they would come back as a character, not as themselves
    with pytest.raises(UnicodeEncodeError) as e:
        info.encode("a\uefc3\uefa9b")
    assert (e.value.start, e.value.end, e.value.reason) == (1, 3, "OPTU-8 escapes spell valid UTF-8")
    assert info.encode("a\uefc3\uefa9b", "replace")[0] == b"a??b"
    assert info.encode("\uefee\uefbe\uef80")[0] == b"\xee\xbe\x80"   # erroneous bytes: fine
    enc = info.incrementalencoder()
    assert enc.encode("a\uefc3") == b"a\xc3"                 # written at once: nothing is held back
    state = enc.getstate()
    enc.reset()
    enc.setstate(state)
    with pytest.raises(UnicodeEncodeError) as e:                # C3 is out: A9 after it would spell é
        enc.encode("\uefa9")
    assert e.value.reason == "OPTU-8 escapes spell valid UTF-8 with those an earlier piece wrote"
    enc.reset()
    assert enc.encode("\uefa9") == b"\xa9"                    # a reset forgets what was written
    sink = io.BytesIO()
    w = info.streamwriter(sink)
    w.write("\uefc3")
    with pytest.raises(UnicodeEncodeError):
        w.write("\uefa9")
    sink = io.BytesIO()
    w = info.streamwriter(sink)
    w.write("\uefff")
    assert sink.getvalue() == b"\xff"


@pytest.mark.parametrize("backend", BACKENDS)
def test_optu8_strict_spec_and_the_old_codec(backend, monkeypatch):
    """The spec alone is UTF-8 with U+EF80..U+EFFF invalid; utf-8-optu8 stays as it was."""
    spec = load_backend("utf-8-optu8-strict", backend)
    assert spec.decode(b"\xee\xbe\x80", "replace") == "\ufffd" * 3
    assert not spec.is_valid(b"\xee\xbf\xbf") and spec.is_valid(b"\xee\xbd\xbf\xef\x80\x80")
    with pytest.raises(UnicodeEncodeError):
        spec.encode("\uef80")
    old = search("utf-8-optu8", backend, monkeypatch)
    assert old.decode(b"\xee\xbe\x80")[0] == "\uef80"
    assert old.encode("\uef80")[0] == b"\x80"
    assert search("utf-8-optu8-reversible", backend, monkeypatch).name == "utf-8-optu8-strict"


def test_optu8_strict_through_codecs(tmp_path):
    data = b"ok \xee\xbe\x80 \xff\xc3 \xe2\x82\xac end"
    path = tmp_path / "f"
    path.write_bytes(data)
    with open(path, encoding="utf-8-optu8-strict") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8-optu8-strict") as f:
        f.write(text)
    assert path.read_bytes() == data
    assert isinstance(codecs.lookup("utf-8-optu8-strict"), codecs.CodecInfo)
    assert optu8.STRICT_NAME == "utf-8-optu8-strict" and private_use.SUFFIX == "-pua"


# ============================================================ 10. CPython's reasons
# Issue 15, item 10: "the Python encoder says `code point not encodable in utf-8` where
# CPython says `surrogates not allowed` for the same span; for the `utf-8` spec use
# CPython's words, so code that matches on them keeps working."

def spans(encode, text):
    seen = []

    def record(exc):
        seen.append((exc.start, exc.end, exc.reason))
        return "?", exc.end
    codecs.register_error("test_seed_codecs.record", record)
    try:
        encode(text, "strict")
    except UnicodeEncodeError as e:
        seen.append(("strict", e.start, e.end, e.reason))
    encode(text, "test_seed_codecs.record")
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
def test_utf_8_unencodable_surrogates_say_what_cpython_says(backend):
    utf8 = load_backend("utf-8", backend)
    assert spans(utf8.encode, "a\ud800\udfffb\udc80") == [("strict", 1, 3, "surrogates not allowed"),
                                                          (1, 3, "surrogates not allowed"),
                                                          (4, 5, "surrogates not allowed")]

    @settings(max_examples=examples(200), deadline=None)
    @given(st.lists(st.one_of(st.integers(0xD800, 0xDFFF), st.integers(0, 0x10FFFF)), max_size=12)
           .map(lambda cps: "".join(map(chr, cps))))
    def check(text):
        assert spans(utf8.encode, text) == spans(lambda t, e: t.encode("utf-8", e), text)
    check()


@pytest.mark.parametrize("backend", BACKENDS)
def test_other_unencodable_code_points_keep_their_reason(backend):
    cutf8 = load_backend("corrected-utf-8", backend)
    assert spans(cutf8.encode, "\x85\ud800") == [("strict", 0, 2, "code point not encodable in corrected-utf-8"),
                                                (0, 2, "code point not encodable in corrected-utf-8")]
    assert spans(cutf8.encode, "\ud800") == [("strict", 0, 1, "surrogates not allowed"),
                                             (0, 1, "surrogates not allowed")]
    with pytest.raises(UnicodeEncodeError) as e:
        load_backend("utf-8", backend).encode([0x41, 0x110000])
    assert e.value.reason == "code point not encodable in utf-8"


def test_reversible_optu8_stream_writer_judges_a_run_across_writes():
    """The writer goes through the incremental encoder: escapes split across write()
    calls are judged together ("careful of sequences of error code points": C3 A9
    would decode as U+00E9), and since C3 is written at once, the run that brings
    A9 is the error ("replace": one "?" per character of its span)."""
    out = io.BytesIO()
    w = codecs.getwriter("utf-8-optu8-strict")(out, "replace")
    w.write("a\uefc3")
    assert out.getvalue() == b"a\xc3"         # written at once
    w.write("\uefa9")
    assert out.getvalue() == b"a\xc3?"
    w.write("\uef80")
    assert out.getvalue() == b"a\xc3?\x80"   # after the replacement: a run of its own
