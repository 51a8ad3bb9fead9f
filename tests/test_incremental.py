"""Incremental and stream decoding (and encoding) of every built-in spec.

Feeding the input in pieces, split anywhere, must give exactly what one-shot
decoding gives: the same text under "replace" and, under "strict", an error at
the same absolute position with the same reason — including errors, reserved
runs, signatures and long (utf-inf-8) sequences that straddle a split. For
utf-8 the result is also compared with CPython's own incremental decoder and
StreamReader. ``codecs.iterdecode``/``iterencode`` and the StreamReader
(io.BytesIO read in small chunks) give the same text; expected texts of the
fixed cases come from the oracles.
"""
from __future__ import annotations

import codecs
import io
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import (
    BACKENDS,
    BOM,
    MAGIC,
    SIGNATURES,
    SPECS,
    boundary_cps,
    byte_strings,
    cps_encodable,
    encodable,
    oracle,
    pieces,
    unsplit_pairs,
)
from conftest import examples

encspec.register()


@cache
def load(name, backend="auto"):
    return encspec.load(name, backend=backend)


def oracle_text(name, data):
    """The text of data under errors="replace", from the oracle's tokens: one U+FFFD per
    error, reserved run or code point beyond U+10FFFF; a signature is dropped."""
    out = []
    for kind, _, _, value in oracle(name).tokens(data):
        if kind == "char":
            out.append(chr(value) if value <= 0x10FFFF else "\ufffd")
        elif kind != "signature":
            out.append("\ufffd")
    return "".join(out)


def chunks_at(data, cuts):
    cuts = sorted(set(cuts))
    bounds = [0] + [c for c in cuts if 0 < c < len(data)] + [len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])] or [data[:0]]


def feed(decoder, pieces_, final_separately=True):
    """Text from feeding pieces_ to decoder (then final=True): under strict, the
    exception's absolute (start, end, reason) and the text returned before it."""
    out = []
    fed = 0
    steps = [(p, False) for p in pieces_] + [(b"", True)] if final_separately \
        else [(p, k == len(pieces_) - 1) for k, p in enumerate(pieces_)]
    for piece, final in steps:
        pending = decoder.getstate()[0]
        try:
            out.append(decoder.decode(piece, final))
        except UnicodeDecodeError as e:
            base = fed - len(pending)
            assert e.object[e.start:e.end] == (pending + piece)[e.start:e.end]
            return ("error", base + e.start, base + e.end, e.reason, "".join(out))
        fed += len(piece)
    return ("ok", "".join(out))


def one_shot(m, data):
    try:
        return ("ok", m.decode(data))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason)


def check_split(name, data, cuts, backend):
    """Incremental == one-shot for one way of splitting data."""
    m = load(name, backend)
    whole = m.decode(data, "replace")
    parts = chunks_at(data, cuts)
    assert feed(m.IncrementalDecoder("replace"), parts) == ("ok", whole)
    assert feed(m.IncrementalDecoder("replace"), parts, final_separately=False) == ("ok", whole)
    want = one_shot(m, data)
    got = feed(m.IncrementalDecoder("strict"), parts)
    if want[0] == "ok":
        assert got == want
    else:
        assert got[:4] == want
        assert whole.startswith(got[4])          # what came out before the error is right
    return got


def check_every_split(name, data, backend):
    for k in range(len(data) + 1):
        check_split(name, data, [k], backend)
    check_split(name, data, range(len(data) + 1), backend)   # byte by byte


@pytest.mark.parametrize("backend", BACKENDS)
# =========================================================== hypothesis splits
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_incremental_decoder_at_random_splits_equals_one_shot(name, data, backend):
    b = data.draw(byte_strings(name, max_pieces=8), label="bytes")
    cuts = data.draw(st.lists(st.integers(0, len(b)), max_size=6), label="cuts")
    check_split(name, b, cuts, backend)
    if len(b) <= 12:
        check_every_split(name, b, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(15), deadline=None)
@given(data=st.data())
def test_incremental_decoder_long_input_in_small_chunks(name, data, backend):
    ps = pieces(name)
    b = b"".join(data.draw(st.lists(st.one_of(st.sampled_from(ps), byte_strings(name, max_pieces=2)),
                                    min_size=100, max_size=400), label="parts"))
    step = data.draw(st.integers(1, 9), label="chunk size")
    check_split(name, b, range(0, len(b), step), backend)


# =============================================================== fixed cases
STRADDLE = {
    "utf-8": [b"A\xf0\x90\x80", b"\xf0\x90\x80A", b"\xe0\x80\xbf", b"\xed\xa0\x80\xed\xbf\xbf",
              b"\xf4\x90\x80\x80", b"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", b"\xef\xbb\xbfA"],
    "utf-8-bom": [BOM + b"x", BOM[:2] + b"x", BOM + BOM, b"x" + BOM, BOM, BOM[:1], BOM[:2],
                  BOM[:2] + b"\xbf\xbf"],
    "corrected-utf-8": [MAGIC + b"hi", MAGIC[:5] + b"A", MAGIC[:7], MAGIC[:1], b"x" + MAGIC, MAGIC + MAGIC,
                        MAGIC + b"\xfe\x80", b"\xfe\x80\x80\x80A", b"A\xff\x80\x80", b"\xfe\x80",
                        b"\xc0\xaf\xfe\xbf\xc0\xaf", b"\xfc\x80\x80\x80\x80\x80", b"\xfc\x80\x80\x80\x80",
                        MAGIC[:3] + b"\xfe"],
    "wtf-8": [b"\xed\xa0\x80\xed\xb0\x80", b"\xed\xa0\x80\xed\xb0", b"\xed\xa0\x80A", b"\xed\xaf\xbf\xed\xbf\xbfZ",
              b"\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80"],
    "cesu-8": [b"\xed\xa0\x80\xed\xb0\x80", b"\xed\xa0\x80\xed\xb0", b"\xed\xa0\x80A", b"\xf0\x90\x80\x80"],
    "mutf-8": [b"\xed\xa0\x80\xed\xb0\x80", b"\xed\xa0\x80\xed\xb0", b"\xed\xa0\x80A", b"\xc0\x80\x00",
               b"\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80"],
    "utf-8-rfc2279": [b"\xfd\xbf\xbf\xbf\xbf\xbf", b"\xfc\x84\x80\x80\x80", b"\xf8\x88\x80\x80\x80A",
                      b"\xf4\x90\x80\x80"],
    "utf-inf-8": [oracle("utf-inf-8").encode([c]) for c in (2 ** 36, 2 ** 71, 16 ** 18, 16 ** 40, 10 ** 120)]
                 + [oracle("utf-inf-8").encode([16 ** 40])[:-1] + b"A", b"\xff\xb4\xb4\xa1", b"\xff\x9f"],
    "utf-1": [b"\xa0\xa0", b"\xa0\x41", b"\xf6\x21\x21", b"\xfc\x21\x21\x21\x21", b"\xf6\x21", b"\xfe\x21\x21"],
    "fss-utf-1992": [b"\xe0\x80\x80\x80", b"\xf0\x80\x80\x80\x80", b"\xf7\xff\xff\xff\xff", b"\x80\x80A",
                     b"\xc0\x80"],
}
CASES = [(name, data) for name, datas in STRADDLE.items() for data in datas]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, data", CASES, ids=[f"{n}-{d.hex()[:24]}" for n, d in CASES])
def test_incremental_decoder_straddling_every_split(name, data, backend):
    m = load(name, backend)
    assert m.decode(data, "replace") == oracle_text(name, data)
    for tail in (b"", b"A", b"\x80"):
        check_every_split(name, data + tail, backend)
        check_every_split(name, b"z" + data + tail, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_incremental_decoder_every_piece_split_everywhere(name, backend):
    """Every whole encoding of a boundary code point, alone, between letters and
    followed by a prefix of itself, split at every position."""
    for p in pieces(name):
        check_every_split(name, p, backend)
        check_split(name, b"A" + p + p[:len(p) // 2], range(0, len(p) + 2, 2), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_incremental_signature_only_at_the_start_of_the_stream(backend):
    m = load("corrected-utf-8", backend)
    four = "\U00010e7d\ued4e\x00\n"
    d = m.IncrementalDecoder()
    assert d.decode(MAGIC[:4]) == ""
    assert d.decode(MAGIC[4:] + b"hi") == "hi"
    assert d.decode(MAGIC) == four                         # not at the start any more
    assert d.decode(b"", True) == ""
    d = m.IncrementalDecoder()
    assert d.decode(b"x") + d.decode(MAGIC, True) == "x" + four
    # a prefix of the signature that turns out not to be one
    d = m.IncrementalDecoder("replace")
    out = d.decode(MAGIC[:5]) + d.decode(b"A", True)
    assert out == oracle_text("corrected-utf-8", MAGIC[:5] + b"A")


# ========================================================= utf-8 vs CPython
def cpython_utf8_decoder(errors):
    return codecs.getincrementaldecoder("utf-8")(errors)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_utf_8_incremental_like_cpythons_incremental_decoder(data, backend):
    b = data.draw(byte_strings("utf-8", max_pieces=8), label="bytes")
    parts = chunks_at(b, data.draw(st.lists(st.integers(0, len(b)), max_size=6), label="cuts"))
    m = load("utf-8", backend)
    assert feed(m.IncrementalDecoder("replace"), parts) == feed(cpython_utf8_decoder("replace"), parts)
    got, want = feed(m.IncrementalDecoder("strict"), parts), feed(cpython_utf8_decoder("strict"), parts)
    # CPython keeps a truncated ED A0..BF back (for surrogatepass), so its error may come
    # one call later: compare the absolute position and the reason, not the text so far.
    assert got[:4] == want[:4]


@pytest.mark.parametrize("backend", BACKENDS)
# ================================================== state: getstate / reset
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_getstate_setstate_carries_a_split_sequence(name, data, backend):
    b = data.draw(byte_strings(name, max_pieces=8), label="bytes")
    k = data.draw(st.integers(0, len(b)), label="split")
    m = load(name, backend)
    first = m.IncrementalDecoder("replace")
    head = first.decode(b[:k])
    second = m.IncrementalDecoder("replace")
    second.setstate(first.getstate())
    assert head + second.decode(b[k:], True) == m.decode(b, "replace")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_reset_forgets_pending_bytes_and_expects_a_signature_again(name, backend):
    m = load(name, backend)
    sig = SIGNATURES.get(name, b"")
    data = sig + oracle(name).encode([0x41, 0xE9, 0x42, 0x0A])
    d = m.IncrementalDecoder("strict")
    d.decode(data + oracle(name).encode([0x10000])[:1])       # leaves a pending lead byte
    d.reset()
    assert d.decode(data, True) == "A\u00e9B\n"


# ============================================================ StreamReader
def read_all(reader, size=-1, chars=-1):
    """Read until the reader returns nothing: read(size) asks the stream for size bytes
    at a time and returns about size characters."""
    got = []
    while True:
        text = reader.read(size, chars)
        if not text:
            return "".join(got)
        got.append(text)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_stream_reader_in_small_chunks(name, data, backend):
    """A final newline ends any sequence (the end of the stream is tested in test_core.py)."""
    b = data.draw(byte_strings(name, max_pieces=8), label="bytes") + b"\n"
    m = load(name, backend)
    want = m.decode(b, "replace")
    for size in (1, 2, 3, 7):
        assert read_all(m.StreamReader(io.BytesIO(b), "replace"), size) == want, size
    assert read_all(m.StreamReader(io.BytesIO(b), "replace"), 3, 1) == want
    assert m.StreamReader(io.BytesIO(b), "replace").read() == want
    r = m.StreamReader(io.BytesIO(b), "replace")
    assert "".join(iter(r.readline, "")) == want


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(200), deadline=None)
@given(byte_strings("utf-8", max_pieces=8), st.sampled_from([1, 2, 3, 5, -1]))
def test_utf_8_stream_reader_like_cpythons(backend, b, size):
    """Like CPython's one-shot decoding, including a truncated sequence at the very end,
    which CPython's own StreamReader (never passing final=True) leaves undecoded."""
    r = load("utf-8", backend).StreamReader(io.BytesIO(b), "replace")
    assert read_all(r, size) == b.decode("utf-8", "replace")
    truncated = codecs.getincrementaldecoder("utf-8")("replace")
    truncated.decode(b)
    if not truncated.getstate()[0]:
        c = codecs.getreader("utf-8")(io.BytesIO(b), "replace")
        assert read_all(load("utf-8", backend).StreamReader(io.BytesIO(b), "replace"), size) == read_all(c, size)


def test_utf_8_bom_stream_reader_seek_0_like_cpythons_utf_8_sig():
    """seek(0) resets the reader: the BOM is a signature again and nothing stale remains."""
    data = BOM + b"ab\xc3\xa9\n"
    r = load("utf-8-bom").StreamReader(io.BytesIO(data), "replace")
    c = codecs.getreader("utf-8-sig")(io.BytesIO(data), "replace")
    assert r.read(5, 1) == c.read(5, 1) == "a"
    r.seek(0)
    c.seek(0)
    assert r.read() == c.read() == "ab\u00e9\n"


def test_corrected_utf_8_stream_reader_seek_0_decodes_from_the_start_again():
    data = MAGIC + b"A\xc0\xafB\n"
    r = load("corrected-utf-8").StreamReader(io.BytesIO(data), "strict")
    assert r.read(10, 1) == "A"              # 10 bytes: the magic number, A, and half of C0 AF
    r.seek(0)
    assert r.read() == oracle_text("corrected-utf-8", data) == "A\u00cfB\n"


def test_codecs_open_seek_0_reads_the_same_text_again(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(MAGIC + oracle("corrected-utf-8").encode(map(ord, "x\u00cfy\n")))
    with codecs.open(path, "r", "corrected-utf-8") as f:
        first = f.read()
        f.seek(0)
        assert (first, f.read()) == ("x\u00cfy\n", "x\u00cfy\n")


# ====================================================== iterdecode / iterencode
def codec_name(name):
    """utf-8 is CPython's under its own name, so reach the module's codec another way."""
    return "encspec-test-" + name if name == "utf-8" else name


def _search(name):
    if name.replace("-", "_") == "encspec_test_utf_8":
        return load("utf-8").getregentry()
    return None


codecs.register(_search)


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_iterdecode(name, data):
    b = data.draw(byte_strings(name, max_pieces=8), label="bytes")
    parts = chunks_at(b, data.draw(st.lists(st.integers(0, len(b)), max_size=5), label="cuts"))
    assert codecs.lookup(codec_name(name)).incrementaldecoder is load(name).IncrementalDecoder
    assert "".join(codecs.iterdecode(iter(parts), codec_name(name), "replace")) == load(name).decode(b, "replace")


def encodable_text_cps(name):
    """Lists of code points a str can hold and the encoding can encode (the oracle
    decides), with adjacent surrogate pairs where the oracle encodes them."""
    ok = lambda c: c <= 0x10FFFF and encodable(name, c)  # noqa: E731
    single = st.one_of(st.sampled_from([c for c in boundary_cps(name) if ok(c)]),
                       st.integers(0, 0x10FFFF).filter(ok)).map(lambda c: [c])
    parts = [single, single]
    if cps_encodable(name, [0xD800, 0xDC00]):
        parts.append(st.tuples(st.integers(0xD800, 0xDBFF), st.integers(0xDC00, 0xDFFF)).map(list))
    # two single draws can still meet as a lead then a trail, which Modified UTF-8 and
    # WTF-16 refuse as a whole (the oracle decides, as for one code point)
    return st.lists(st.one_of(*parts), max_size=8).map(lambda groups: [c for g in groups for c in g]) \
        .filter(lambda cps: cps_encodable(name, cps))


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_iterencode_equals_encoding_the_whole_text(name, data):
    cps = data.draw(encodable_text_cps(name), label="cps")
    text = "".join(map(chr, cps))
    parts = chunks_at(text, data.draw(st.lists(st.integers(0, len(text)), max_size=4), label="cuts"))
    if load(name).PAIR_ON_ENCODE:  # a pair split across pieces cannot be joined (the test above)
        parts = unsplit_pairs(parts)
    # the codec name utf-8-bom writes the BOM (utf-8-encyclopedia-article.txt: "UTF-8-BOM"
    # names files that contain one); every other codec name writes none
    want = oracle(name).encode(cps, signature=(name == "utf-8-bom"))
    assert b"".join(codecs.iterencode(iter(parts), codec_name(name))) == want


def test_wtf_8_incremental_encoder_writes_a_lead_at_once_and_refuses_its_trail_next():
    """wtf-8.txt 6.1 within a piece; across pieces the lead's bytes are already out
    (nothing is held back: open() never says final), so a trail that starts the
    next piece goes to the error handler rather than into a pair byte sequence."""
    want = oracle("wtf-8").encode([0x61, 0xD83D, 0xDE00, 0x62])
    assert want == b"a\xf0\x9f\x98\x80b"
    assert b"".join(codecs.iterencode(["a\ud83d\ude00", "b"], "wtf-8")) == want
    enc = codecs.getincrementalencoder("wtf-8")()
    assert enc.encode("a\ud83d") == b"a\xed\xa0\xbd"          # alone, at once
    with pytest.raises(UnicodeEncodeError) as e:
        enc.encode("\ude00b")
    assert (e.value.start, e.value.end, e.value.object) == (0, 1, "\ude00b")
    enc = codecs.getincrementalencoder("wtf-8")("ignore")
    assert enc.encode("a\ud83d") + enc.encode("\ude00b") == b"a\xed\xa0\xbdb"
    enc = codecs.getincrementalencoder("wtf-8")()
    assert enc.encode("a\ud83d") + enc.encode("b\ude00") == b"a\xed\xa0\xbdb\xed\xb8\x80"


def test_signed_incremental_encoder_writes_the_signature_once():
    cps = [0x41, 0xCF, 0x0A, 0x42]
    got = b"".join(codecs.iterencode(["A\u00cf", "\n", "B"], "corrected-utf-8-sig"))
    assert got == oracle("corrected-utf-8").encode(cps, signature=True)
