"""CPython's codecs with several code points for one pointer, as built-in specs equal to CPython's.

specs/big5hkscs, euc_jis_2004, euc_jisx0213, shift_jis_2004 and shift_jisx0213.encspec
describe CPython 3.11's codecs of those names (Modules/cjkcodecs/_codecs_hk.c and
_codecs_jp.c) with tables read back from CPython (specs/tables/cpython/extract.py), whose
entries may hold a sequence of code points (Big5-HKSCS's 88 62 = U+00CA U+0304, JIS X
0213's 25 pairs such as U+304B U+309A).  On both backends (the generated module alone, and
with its compiled extension) each decodes like CPython, strictly (the same text, or a
UnicodeDecodeError with the same start, end and reason), with "replace" and with "ignore":
every input of one and two bytes (all 65,536 pairs: each is a pointer or an error of its
own), every 8F xx yy of the EUC forms, every three-byte input over the byte edges, and
hypothesis's inputs mixing edges, any byte and CPython's bytes for characters and
sequences; and it decodes incrementally as CPython's IncrementalDecoder does.  It encodes
every code point of `code_points()` as CPython does (strict errors with their position and
reason), every sequence the tables and encode files hold (alone, around a lone base, twice,
and inside hypothesis's random text, strictly and with "replace"), and incrementally:
split at every offset, the IncrementalEncoder writes what CPython's one-shot encoder and
its IncrementalEncoder write (a base that ends a piece is held back until the next one),
and its StreamWriter, fed three pieces, has written what CPython's has after each.
The sequences come from the spec's table files; every expected value comes from CPython.
"""
from __future__ import annotations

import codecs
import io
import random
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import BACKENDS, load_backend
from conftest import (
    ROOT,
    CPythonIncremental,
    decode_in_chunks,
    decoding_differences,
    encode_recording_calls,
    encode_sweep,
    examples,
    strict_encode_outcome,
)

# spec (CPython's codec of the same name) -> the bytes where behaviour changes: the edges of
# every form's byte ranges, of the rows each table leaves empty, and the sequences' bytes
JIS_EUC = [0x00, 0x41, 0x7F, 0x80, 0x8D, 0x8E, 0x8F, 0x90, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA9, 0xAB, 0xAE,
           0xAF, 0xB0, 0xC0, 0xC4, 0xCF, 0xD4, 0xDF, 0xE0, 0xEE, 0xF4, 0xF7, 0xFA, 0xFD, 0xFE, 0xFF]
JIS_SJIS = [0x00, 0x3F, 0x40, 0x5C, 0x5D, 0x62, 0x7E, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x86, 0x87, 0x88, 0x97,
            0x98, 0x9E, 0x9F, 0xA0, 0xA1, 0xA5, 0xDF, 0xE0, 0xEA, 0xEF, 0xF0, 0xF5, 0xF8, 0xFC, 0xFD, 0xFF]
EDGES = {
    "big5hkscs": [0x00, 0x3F, 0x40, 0x62, 0x64, 0x66, 0x7E, 0x7F, 0x80, 0x81, 0x86, 0x87, 0x88, 0xA0, 0xA1,
                  0xA3, 0xA5, 0xA7, 0xC6, 0xC7, 0xC8, 0xC9, 0xF9, 0xFA, 0xFE, 0xFF],
    "euc_jis_2004": JIS_EUC,
    "euc_jisx0213": JIS_EUC,
    "shift_jis_2004": JIS_SJIS,
    "shift_jisx0213": JIS_SJIS,
}
SPECS = sorted(EDGES)
CASES = [(spec, backend) for spec in SPECS for backend in BACKENDS]
TABLES = ROOT / "specs" / "tables" / "cpython"


@cache
def sequences(spec: str, encode_file: bool = True) -> tuple[str, ...]:
    """Every sequence of code points the spec's tables (and, unless told otherwise, its encode
    file) hold, as text: the second field of a table line, the first of an encode-file line,
    where it has spaces."""
    out = set()
    for path in sorted(TABLES.glob(f"{spec}-*.txt")):
        column = 0 if path.name.endswith("-encode.txt") else 1
        if column == 0 and not encode_file:
            continue
        for line in path.read_text("utf-8").splitlines():
            if line and not line.startswith("#"):
                field = line.split("\t")[column]
                if " " in field:
                    out.add("".join(chr(int(cp, 16)) for cp in field.split()))
    return tuple(sorted(out))


def some_sequences(spec: str) -> tuple[str, ...]:
    """The tables' sequences, and the encode file's in the BMP and in plane 1 (the others are
    theirs with the second code point 0x10000 further: CPython reads its low 16 bits)."""
    return tuple(s for s in sequences(spec) if s in sequences(spec, False) or ord(s[1]) < 0x20000)


def starters(spec: str) -> list[str]:
    return sorted({s[0] for s in sequences(spec)})


def marks(spec: str) -> list[str]:
    """The BMP code points that follow a starter in some sequence (U+0000 among them for
    JIS X 0213)."""
    return sorted({s[1] for s in sequences(spec) if s[1] < "\U00010000"})


def test_the_sequences_are_there():
    """The inputs below are the real ones: Big5-HKSCS's four (and their second code point
    0x10000 .. 0x100000 further), JIS X 0213's 25 pairs and their 21 starters followed by
    U+0000 (the same 17 times)."""
    assert sequences("big5hkscs", False) == ("\u00ca\u0304", "\u00ca\u030c", "\u00ea\u0304", "\u00ea\u030c")
    assert len(sequences("big5hkscs")) == 4 * 17 and "\u00ca\U00010304" in sequences("big5hkscs")
    for spec in SPECS[1:]:
        assert len(sequences(spec, False)) == 25 and "\u304b\u309a" in sequences(spec)
        assert len(sequences(spec)) == (25 + 21) * 17 and len(starters(spec)) == 21
        assert {"\u304b\x00", "\u304b\U00010000", "\u304b\U0001309a"} <= set(sequences(spec))
        assert len(some_sequences(spec)) == (25 + 21) * 2


# ----------------------------------------------------------------------------- decoding


@pytest.mark.parametrize("spec, backend", CASES)
def test_every_input_of_one_and_two_bytes(spec, backend):
    module = load_backend(spec, backend)
    inputs = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(256) for b in range(256)]
    bad = decoding_differences(module, spec, inputs)
    assert not bad, bad


@pytest.mark.parametrize("spec, backend", [c for c in CASES if c[0].startswith("euc")])
def test_every_plane_2_input(spec, backend):
    """8F and any two bytes (JIS X 0213 plane 2, JIS X 0212 where plane 2 is empty, and
    CPython's three-byte length), then 8F and two bytes before more data."""
    module = load_backend(spec, backend)
    inputs = [bytes([0x8F, b, c]) for b in range(256) for c in range(256)]
    inputs += [bytes([0x8F, b, c, 0x41]) for b in (0x41, 0xA1, 0xFD, 0xFE) for c in range(256)]
    bad = decoding_differences(module, spec, inputs)
    assert not bad, bad


@pytest.mark.parametrize("spec, backend", CASES)
def test_three_byte_inputs_over_the_byte_edges(spec, backend):
    module = load_backend(spec, backend)
    bs = EDGES[spec]
    bad = decoding_differences(module, spec, [bytes([a, b, c]) for a in bs for b in bs for c in bs])
    assert not bad, bad


def _cpython_bytes(codec: str, text: str) -> bytes:
    """CPython's bytes for *text* (b"" where it refuses any of it)."""
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return b""


@pytest.mark.parametrize("spec, backend", CASES)
def test_random_inputs(spec, backend):
    """Up to 24 pieces: a byte at an edge, any byte, CPython's bytes for a random character
    (the BMP or plane 2, where these codecs write HKSCS and JIS X 0213 characters) or for a
    sequence the tables hold."""
    module = load_backend(spec, backend)
    character = st.one_of(st.integers(0x80, 0xFFFF), st.integers(0x20000, 0x2FFFF)).filter(
        lambda cp: not 0xD800 <= cp <= 0xDFFF).map(lambda cp: _cpython_bytes(spec, chr(cp)))
    piece = st.one_of(st.sampled_from(EDGES[spec]).map(lambda b: bytes([b])),
                      st.integers(0, 255).map(lambda b: bytes([b])), character,
                      st.sampled_from(sequences(spec, False)).map(lambda s: _cpython_bytes(spec, s)))

    @settings(max_examples=examples(400), deadline=None)
    @given(st.lists(piece, min_size=1, max_size=24).map(b"".join))
    def check(data: bytes) -> None:
        bad = decoding_differences(module, spec, [data])
        assert not bad, bad
    check()


@pytest.mark.parametrize("spec, backend", CASES)
def test_incremental_decoding_in_chunks(spec, backend):
    """1,000 seeded inputs of 1..12 bytes (edges, any byte, a sequence's bytes) fed 1, 2 and 3
    bytes at a time, strictly and with "replace": the same text, or the same error (start,
    end, reason, text so far), as CPython's IncrementalDecoder."""
    module = load_backend(spec, backend)
    rnd = random.Random(f"one-to-many chunks {spec}")
    pieces = [bytes([b]) for b in EDGES[spec]] + [_cpython_bytes(spec, s) for s in sequences(spec, False)]
    inputs = [b"".join(rnd.choice(pieces) if rnd.random() < 0.75 else bytes([rnd.randrange(256)])
                       for _ in range(rnd.randint(1, 8)))[:12] for _ in range(1000)]
    theirs = CPythonIncremental(spec)
    bad = [(data.hex(" ").upper(), size, errors) for data in inputs for size in (1, 2, 3)
           for errors in ("strict", "replace")
           if decode_in_chunks(module, data, errors, size) != decode_in_chunks(theirs, data, errors, size)]
    assert not bad, bad[:5]


# ----------------------------------------------------------------------------- encoding

@pytest.mark.parametrize("spec, backend", CASES)
def test_every_code_point_encodes_alike(spec, backend):
    """Every BMP code point but the surrogates, between two ASCII letters, strictly: CPython's
    bytes, or its UnicodeEncodeError over the code point alone (start 1, end 2).  Above the
    BMP the code points of `code_points()` run together, with an error handler: the same
    bytes (plane 2's HKSCS and JIS X 0213 characters) and the same calls to it."""
    module = load_backend(spec, backend)
    bad, written, refused, (want_bytes, want_calls), (got_bytes, got_calls) = encode_sweep(spec, module)
    assert not bad, bad
    assert written > 11000 and refused > 40000  # the sweep met both kinds
    assert len(want_bytes) > len(want_calls) + 2  # some of plane 2 is written
    assert got_bytes == want_bytes
    assert got_calls == want_calls


def _contexts(spec: str, seq: str) -> list[str]:
    """Texts around one sequence: alone, between letters, twice, after its own starter, its
    starter alone (at the end, before a letter, before every other sequence's second code
    point), and its second code point alone."""
    base, mark = seq[0], seq[1:]
    out = [seq, "a" + seq + "b", seq + seq, base + seq, base, base + "b", "a" + base, mark, "a" + mark,
           seq + base, base + base + mark, seq + mark]
    out += [base + other for other in marks(spec)]
    return out


@pytest.mark.parametrize("spec, backend", CASES)
def test_every_sequence_encodes_alike(spec, backend):
    """Each sequence of the tables and encode files in every context of `_contexts`: strictly
    the same bytes or the same error (start, end, reason), and with "replace" the same bytes."""
    module = load_backend(spec, backend)
    bad = []
    texts = [seq for seq in sequences(spec)] + [t for seq in some_sequences(spec) for t in _contexts(spec, seq)]
    for text in texts:
        want = strict_encode_outcome(lambda t: t.encode(spec), text)
        got = strict_encode_outcome(module.encode, text)
        if got != want or module.encode(text, "replace") != text.encode(spec, "replace"):
            bad.append((ascii(text), got, want))
    assert not bad, bad[:10]
    # the sequences were written as one, not character by character
    assert all(module.encode(s) != module.encode(s[0]) + module.encode(s[1:], "replace")
               for s in sequences(spec, False))


def _texts(spec: str) -> st.SearchStrategy[str]:
    """Text mixing the spec's sequences, their starters and second code points, U+0000,
    ASCII, any BMP or plane 2 character and one no codec here writes."""
    piece = st.one_of(st.sampled_from(sequences(spec)), st.sampled_from(starters(spec)),
                      st.sampled_from(marks(spec)), st.sampled_from(["\x00", "a", "\u3042", "\U0010ffff"]),
                      st.integers(0x80, 0xFFFF).filter(lambda cp: not 0xD800 <= cp <= 0xDFFF).map(chr),
                      st.integers(0x20000, 0x2FFFF).map(chr))
    return st.lists(piece, min_size=1, max_size=16).map("".join)


@pytest.mark.parametrize("spec, backend", CASES)
def test_sequences_inside_random_text(spec, backend):
    """Strictly the same bytes or the same error (start, end, reason); with "replace" and with
    an error handler that records its calls, the same bytes and the same calls."""
    module = load_backend(spec, backend)

    @settings(max_examples=examples(400), deadline=None)
    @given(_texts(spec))
    def check(text: str) -> None:
        assert strict_encode_outcome(module.encode, text) == strict_encode_outcome(lambda t: t.encode(spec), text)
        assert module.encode(text, "replace") == text.encode(spec, "replace")
        assert encode_recording_calls(module.encode, text) == encode_recording_calls(lambda t, e: t.encode(spec, e), text)
    check()


def _in_two(make: Callable[[], codecs.IncrementalEncoder], text: str, k: int) -> object:
    """The bytes an incremental encoder writes for text[:k], then text[k:] with final=True,
    or the error it raises as (its type's name, reason)."""
    encoder = make()
    try:
        return encoder.encode(text[:k]) + encoder.encode(text[k:], True)
    except UnicodeEncodeError as e:
        return ("UnicodeEncodeError", e.reason)


def _split_everywhere(module, spec: str, text: str, errors: str) -> list[tuple[str, int, object, object]]:
    """Where *module*'s IncrementalEncoder, fed *text* in two pieces split at offset k, writes
    otherwise than CPython's one-shot encoder and its IncrementalEncoder split alike."""
    one_shot = strict_encode_outcome(lambda t: t.encode(spec, errors), text)
    if not isinstance(one_shot, bytes):
        one_shot = ("UnicodeEncodeError", one_shot[3])  # type: ignore[index]
    bad = []
    for k in range(len(text) + 1):
        ours = _in_two(lambda: module.IncrementalEncoder(errors), text, k)
        theirs = _in_two(lambda: codecs.getincrementalencoder(spec)(errors), text, k)
        if not ours == theirs == one_shot:
            bad.append((ascii(text), k, ours, theirs))
    return bad


@pytest.mark.parametrize("spec, backend", CASES)
def test_incremental_encoding_split_at_every_offset(spec, backend):
    """Texts of sequences and lone starters (at a piece's end the encoder must hold a starter
    back), split at every offset: the same bytes as CPython's one-shot encoder and its
    IncrementalEncoder, strictly and with "replace"."""
    module = load_backend(spec, backend)
    bad = []
    for seq in some_sequences(spec):
        base, mark = seq[0], seq[1:]
        for text in (seq, "a" + seq + "b" + seq, base + seq + base, base + "b" + base, seq + mark + base + mark):
            for errors in ("strict", "replace"):
                bad += _split_everywhere(module, spec, text, errors)
    assert not bad, bad[:5]


@pytest.mark.parametrize("spec, backend", CASES)
def test_incremental_encoding_of_random_text(spec, backend):
    """hypothesis's texts (as test_sequences_inside_random_text's), split at every offset,
    with "replace": the same bytes as CPython's one-shot and incremental encoders."""
    module = load_backend(spec, backend)

    @settings(max_examples=examples(200), deadline=None)
    @given(_texts(spec))
    def check(text: str) -> None:
        bad = _split_everywhere(module, spec, text, "replace")
        assert not bad, bad[:3]
    check()


@pytest.mark.parametrize("spec", SPECS)
def test_refused_code_points_after_a_starter_are_an_error_each(spec):
    """A starter, then two refused code points: CPython writes the starter alone and raises
    over the first refused one alone (its codec returns 1), and so does the spec; with an
    error handler, one call each."""
    module = load_backend(spec, "python")
    text = "a" + starters(spec)[0] + "\U0010FFFE\U0010FFFDc"
    ours = strict_encode_outcome(module.encode, text)
    assert ours == strict_encode_outcome(lambda t: t.encode(spec), text)
    assert isinstance(ours, tuple) and ours[1:3] == (2, 3)
    calls = encode_recording_calls(module.encode, text)
    assert calls == encode_recording_calls(lambda t, e: t.encode(spec, e), text)
    assert calls[1] == [(2, 3, "illegal multibyte sequence"), (3, 4, "illegal multibyte sequence")]


def _written(writer_class: Callable[[io.BytesIO], codecs.StreamWriter], pieces: list[str]) -> list[bytes]:
    """What a StreamWriter has written after each piece, and after reset() (which writes
    what it held back)."""
    out = io.BytesIO()
    writer = writer_class(out)
    seen = []
    for piece in pieces:
        writer.write(piece)
        seen.append(out.getvalue())
    writer.reset()
    return seen + [out.getvalue()]


@pytest.mark.parametrize("spec, backend", CASES)
def test_stream_writer_holds_back_as_cpythons(spec, backend):
    """Texts of sequences and lone starters written in three pieces (split at every pair of
    offsets, with "replace"): after each write and after reset() the module's StreamWriter
    has written what CPython's has."""
    module = load_backend(spec, backend)
    bad = []
    for seq in some_sequences(spec)[:24]:
        text = "a" + seq + seq[0] + seq[0] + seq[1:]
        for i in range(len(text) + 1):
            for j in range(i, len(text) + 1):
                pieces = [text[:i], text[i:j], text[j:]]
                ours = _written(lambda f: module.StreamWriter(f, "replace"), pieces)
                theirs = _written(lambda f: codecs.getwriter(spec)(f, "replace"), pieces)
                if ours != theirs:
                    bad.append((ascii(text), i, j, ours, theirs))
    assert not bad, bad[:3]
