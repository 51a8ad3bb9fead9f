"""Sequences of code points written as one byte sequence (issue 30, /work/SEQ.md's core):
decoding them, the encoder's longest match, error handlers around them, the incremental
encoder's hold-back and the StreamWriter, on a small spec written here.

Every expected byte string is written by hand from the spec below (pointer = lead digit * 4
+ trail digit, leads 81..82, trails 41 42 A1 A2), and the hypothesis tests compare with
REFERENCE, a plain longest-match encoder over those hand-written bytes: never with the code
under test.
"""
from __future__ import annotations

import codecs
import io
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
import tools
from conftest import assert_linear, examples
from encspec import pipeline
from encspec.automaton import compile_spec
from encspec.runtime import tables
from encspec.spec.parse import parse_file

INDEX = """\
# pointer TAB code point(s)
0\t0x4E00
1\t0x00CA
2\t0x00CA 0x0304\tÊ̄ (Big5-HKSCS's 88 62)
3\t0x304B 0x309A\tか゚ (JIS X 0213's A4 F7)
4\t0x304B
5\t0x0041 0x0301 0x0302
6\t0x0041 0x0301
7\t0x0304
"""
SPEC = """\
encoding seqtoy
code-space U+0000..U+10FFFF
error-span one-unit
table toy "toy.txt"
alphabet trail = 41..42, A1..A2
form ascii:  00..7F
form double: 81..82 trail table toy
form accent: 83 41 = U+0065 U+0301
encode U+0078 U+0079 as 84
encode U+01B0 U+0300 as 85
encode-file "enc.txt"
"""
ENCODE_FILE = "# code points TAB bytes\n0x304B 0x0304\t0x86\n0x00A5\t0x5C\n"
# What the encoder writes, by hand: single code points, then sequences
SINGLE = {**{chr(c): bytes([c]) for c in range(0x80)}, "\u4e00": b"\x81\x41", "\u00ca": b"\x81\x42",
          "\u304b": b"\x82\x41", "\u0304": b"\x82\xa2", "\u00a5": b"\x5c"}
SEQUENCES = {"\u00ca\u0304": b"\x81\xa1", "\u304b\u309a": b"\x81\xa2", "A\u0301\u0302": b"\x82\x42",
             "A\u0301": b"\x82\xa1", "e\u0301": b"\x83\x41", "xy": b"\x84", "\u01b0\u0300": b"\x85",
             "\u304b\u0304": b"\x86"}
ALPHABET = "\u00a5Axye\u0301\u0302\u0304\u00ca\u304b\u309a\u4e00\u01b0\u0300\u0303"


def reference(text: str, sequences: dict[str, bytes] = SEQUENCES) -> bytes:
    """Longest match over the hand-written tables; '?' for what has no bytes (errors="replace")."""
    out, i = bytearray(), 0
    while i < len(text):
        for k in (3, 2):
            if text[i:i + k] in sequences and len(text[i:i + k]) == k:
                out += sequences[text[i:i + k]]
                i += k
                break
        else:
            out += SINGLE.get(text[i], b"?")
            i += 1
    return bytes(out)


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("seqtoy")
    (folder / "toy.txt").write_text(INDEX, "utf-8")
    (folder / "enc.txt").write_text(ENCODE_FILE, "utf-8")
    (folder / "seqtoy.encspec").write_text(SPEC, "utf-8")
    return folder / "seqtoy.encspec"


@pytest.fixture(scope="module", params=["module", "core"])
def m(request, spec_path):
    """The generated module (fast path and all, compiled now) and the core bound to the automaton."""
    if request.param == "module":
        return encspec.load(str(spec_path), backend="python")
    return tables.bind(compile_spec(parse_file(spec_path)))


def test_sequences_are_read_from_every_format(spec_path):
    a = compile_spec(parse_file(spec_path))
    assert tables.sequences(a) == (
        ((0x41, 0x301), b"\x82\xa1"), ((0x41, 0x301, 0x302), b"\x82\x42"), ((0x65, 0x301), b"\x83\x41"),
        ((0x78, 0x79), b"\x84"), ((0xCA, 0x304), b"\x81\xa1"), ((0x1B0, 0x300), b"\x85"),
        ((0x304B, 0x304), b"\x86"), ((0x304B, 0x309A), b"\x81\xa2"))


def test_sequence_values_decode(m):
    data = bytes.fromhex("81A1 81A2 8242 8341 8142 41")
    assert m.decode(data) == "\u00ca\u0304\u304b\u309aA\u0301\u0302e\u0301\u00caA"
    assert m.decode_codepoints(bytes.fromhex("81A1 8341")) == [0xCA, 0x304, 0x65, 0x301]


@pytest.mark.parametrize("text, expected", [
    ("\u00ca\u0304", "81A1"),              # the sequence
    ("\u00ca", "8142"),                    # its base alone
    ("\u00ca\u4e00", "8142 8141"),         # a base, then no mark
    ("\u304b\u0304", "86"),               # an encode-file sequence
    ("A\u0301\u0302", "8242"),             # the longer of two sequences
    ("A\u0301\u0304", "82A1 82A2"),        # the shorter where the longer does not follow
    ("A\u0304", "41 82A2"),               # a base followed by a mark that makes no sequence with it
    ("B\u304b\u309a", "42 81A2"),          # a sequence at the end of the text
    ("\u304b\u309a\u304b", "81A2 8241"),   # ... and a base at the end
    ("xyx", "84 78"),                      # an encoder-only sequence
    ("e\u0301e", "8341 65"),               # a literal form's sequence
])
def test_the_longest_sequence_the_text_holds_is_written(m, text, expected):
    assert m.encode(text) == bytes.fromhex(expected)
    assert m.encode([ord(c) for c in text]) == bytes.fromhex(expected)


def test_code_point_lists_beyond_unicode_go_to_the_handler_alone(m):
    assert m.encode([0x41, 0x301, 0x110000, 0x304B, 0x309A], "replace") == bytes.fromhex("82A1 3F 81A2")


def test_strict_errors_name_the_code_point_alone(m):
    with pytest.raises(UnicodeEncodeError) as e:
        m.encode("A\u0301\u4e00\u0302")
    assert (e.value.start, e.value.end, e.value.reason) == (3, 4, "code point not encodable in seqtoy")
    with pytest.raises(UnicodeEncodeError) as e:   # a starter that has no bytes alone
        m.encode("x\u01b0\u0301")
    assert (e.value.start, e.value.end) == (1, 2)


def test_a_code_point_inside_a_would_be_sequence_goes_to_the_handler_alone(m):
    seen = []

    def handler(exc):
        seen.append((exc.start, exc.end))
        return ("?", exc.end)

    codecs.register_error("test_sequences.record", handler)
    assert m.encode("\u01b0\u0301\u01b0\u0300", "test_sequences.record") == b"??\x85"
    assert seen == [(0, 1), (1, 2)]


@pytest.mark.parametrize("errors, text, expected", [
    ("replace", "\u00ca\u0302\u00ca\u0304", b"\x81\x42?\x81\xa1"),
    ("replace", "\u01b0\u0301\u01b0", b"???"),
    ("xmlcharrefreplace", "\u01b0\u0301x", b"&#432;&#769;x"),
    ("xmlcharrefreplace", "\u00ca\u0303\u0304", b"\x81\x42&#771;\x82\xa2"),
    ("ignore", "A\u0303\u0301", b"A"),  # the handler's position is past the mark: the sequence is not rejoined
])
def test_error_handlers_around_sequences(m, errors, text, expected):
    assert m.encode(text, errors) == expected


@settings(max_examples=examples(300), deadline=None)
@given(st.text(ALPHABET, max_size=12))
def test_encode_equals_the_reference_longest_match(m, text):
    assert m.encode(text, "replace") == reference(text)
    assert m.encode([ord(c) for c in text], "replace") == reference(text)


SPLIT = ["A\u0301\u0302", "xA\u0301\u0304", "\u00ca\u0304\u304b\u309a\u304b", "e\u0301xy\u00ca", "\u01b0\u0300\u01b0",
         "\u304b\u304b\u309a"]


@pytest.mark.parametrize("text", SPLIT)
def test_incremental_encode_split_at_every_offset_equals_one_shot(m, text):
    for k in range(len(text) + 1):
        for cut in (lambda s: s, lambda s: [ord(c) for c in s]):
            enc = m.IncrementalEncoder("replace")
            assert enc.encode(cut(text[:k])) + enc.encode(cut(text[k:]), final=True) == reference(text), k


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(ALPHABET, max_size=5), max_size=5))
def test_incremental_encode_in_pieces_equals_the_reference(m, pieces):
    enc = m.IncrementalEncoder("replace")
    got = b"".join(enc.encode(p) for p in pieces) + enc.encode("", final=True)
    assert got == reference("".join(pieces))
    got = b""
    for p in pieces:  # each piece by a new encoder given the last one's state (held code points and all)
        state = enc.getstate()
        enc = m.IncrementalEncoder("replace")
        enc.setstate(state)
        got += enc.encode(p)
    assert got + enc.encode("", final=True) == reference("".join(pieces))


def test_the_start_of_a_sequence_is_held_back_in_getstate(m):
    enc = m.IncrementalEncoder()
    assert enc.encode("x\u304b") == b"x"          # U+304B may start U+304B U+309A
    state = enc.getstate()
    assert isinstance(state, int)
    other = m.IncrementalEncoder()
    other.setstate(state)
    assert other.encode("\u309a", final=True) == b"\x81\xa2"
    assert enc.encode("", final=True) == b"\x82\x41"   # alone at the end
    assert enc.encode("A\u0301") == b""            # two held: A U+0301 U+0302 may follow
    assert enc.encode("\u0304", final=True) == b"\x82\xa1\x82\xa2"
    enc.encode("\u00ca")
    enc.reset()                                    # reset drops what is held
    assert enc.encode("", final=True) == b""
    enc.encode("\u00ca")
    enc.setstate(0)
    assert enc.encode("4", final=True) == b"4"


def test_the_stream_writer_holds_a_starter_until_what_follows_or_reset(m):
    stream = io.BytesIO()
    w = m.StreamWriter(stream)
    w.write("x\u304b")
    assert stream.getvalue() == b"x"
    w.write("\u309aA")
    assert stream.getvalue() == b"x\x81\xa2"
    w.write("\u0301\u0302\u00ca")
    assert stream.getvalue() == b"x\x81\xa2\x82\x42"
    w.reset()
    assert stream.getvalue() == b"x\x81\xa2\x82\x42\x81\x42"


def test_whatwg_big5_never_writes_its_sequences():
    """Its four pointers of two code points (1133, 1135, 1164, 1166) are encode-skip'd: the
    WHATWG Big5 encoder writes no pointer below (0xA1 - 0x81) * 157, so U+00CA has no bytes."""
    a = pipeline.load("whatwg-big5")[1]
    assert tables.sequences(a) == ()
    m = encspec.load("whatwg-big5", backend="python")
    assert m.decode(bytes.fromhex("8862 8864")) == "\u00ca\u0304\u00ca\u030c"
    assert m.encode("\u00ca\u0304", "replace") == b"??"
    assert m.encode("\u00ca\u030c\u4e00", "replace") == b"??\xa4\x40"


SHAPES = {  # text of n pieces: starters everywhere, sequences, bases alone, unencodables
    "sequences": "A\u0301\u0302\u304b\u309a",
    "bases alone": "\u304bA\u0301\u0304\u00ca",
    "unencodable": "\u01b0\u0301\u0303A",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_encoding_with_sequences_is_linear(m, shape):
    piece = SHAPES[shape]
    # both past the caches (a 10,000-character text fits them, which alone made 16x the input
    # cost 27-29x on a loaded machine): 8x the input, where a quadratic cost is 64x
    small, large = piece * 8000, piece * 64000
    assert_linear(f"encode {shape}", lambda t: m.encode(t, "replace"), small, large)

    def pieces(t):
        enc = m.IncrementalEncoder("replace")
        for i in range(0, len(t), 7):
            enc.encode(t[i:i + 7])
        enc.encode("", final=True)

    assert_linear(f"incremental encode {shape}, 7 at a time", pieces, small, large)
    assert_linear(f"incremental encode {shape}, one piece", lambda t: m.IncrementalEncoder("replace").encode(t),
                  small, large)


NATIVE_INDEX = "".join(line + "\n" for line in INDEX.splitlines() if "0x0041" not in line)


@pytest.mark.parametrize("extra", ["", "encode U+0078 U+0079 as 84\n"], ids=["table starters", "a row's starter"])
def test_the_native_backend_writes_sequences_as_the_core_does(tmp_path, monkeypatch, extra):
    """The native loops stop at a starter the core never puts in their memo (a table's
    Ê, か); where a starter lies in a row they would write themselves (x), the core
    encodes. Either way the bytes are the reference's."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "toy.txt").write_text(NATIVE_INDEX, "utf-8")
    spec = SPEC.replace("seqtoy", f"seqtoy-native{len(extra)}").replace("form accent: 83 41 = U+0065 U+0301\n", "")
    spec = spec.replace("encode U+0078 U+0079 as 84\n", extra).replace('encode-file "enc.txt"\n', "")
    (tmp_path / "n.encspec").write_text(spec, "utf-8")
    m = encspec.load(str(tmp_path / "n.encspec"), backend="native")
    assert m.native() is not None
    singles = {k: v for k, v in SEQUENCES.items() if k in ("\u00ca\u0304", "\u304b\u309a", "\u01b0\u0300")}
    if extra:
        singles["xy"] = b"\x84"
    rng = random.Random(30)
    for _ in range(examples(400)):
        text = "".join(rng.choice("xyA\u00ca\u0304\u304b\u309a\u4e00\u01b0\u0300\u0303") for _ in range(rng.randrange(12)))
        expected = reference(text, singles)
        assert m.encode(text, "replace") == expected, text
        assert m.encode([ord(c) for c in text], "replace") == expected, text
        k = rng.randrange(len(text) + 1)
        enc = m.IncrementalEncoder("replace")
        assert enc.encode(text[:k]) + enc.encode(text[k:], final=True) == expected, (text, k)
    # (bytes, lengths per code point): a starter's entry is never a plain length (the
    # loops mark it, NX_MEMO_STARTER and up, and decide what follows it)
    memo = m.memory()["native_memo"]
    assert memo or extra  # with a row's starter the core encodes: the memo may stay unmade
    assert not memo or not any(1 <= memo[1][cp] <= 8 for cp in (0xCA, 0x304B, 0x1B0) + ((0x78,) if extra else ()))


def test_an_encoder_dropped_with_held_code_points_warns():
    """open()'s TextIOWrapper never finishes its encoder: a held starter is not lost silently."""
    import gc
    import warnings

    module = encspec.load("euc_jis_2004")
    name = "test-sequences-held-euc-jis-2004"  # CPython's own codec answers to the spec's name
    codecs.register(lambda n: module.getregentry() if n == name.replace("-", "_") or n == name else None)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        buffer = io.BytesIO()
        text = io.TextIOWrapper(buffer, encoding=name)
        text.write("\u304b")  # KA starts KA + SEMI-VOICED MARK: held back
        text.flush()
        assert buffer.getvalue() == b""
        text.detach()
        del text
        gc.collect()
    assert any(issubclass(w.category, RuntimeWarning) and "never written" in str(w.message) for w in seen)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        enc = codecs.getincrementalencoder(name)()
        assert enc.encode("\u304b") == b"" and enc.encode("", final=True) == b"\xa4\xab"
        del enc
        gc.collect()
    assert not [w for w in seen if "never written" in str(w.message)]
