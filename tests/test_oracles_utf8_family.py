"""Tests of the hand-written UTF-8-family oracles themselves.

Every expectation comes from a source document in /work/shared/seeds/ (the
section is cited in each docstring), from Markus Kuhn's stress-test cases in
/work/shared/corpora/, or from CPython's own codecs used as an independent
reference (utf-8 / utf-8-sig with error spans recorded by a custom error
handler, utf-16 with surrogatepass for the WTF-16 / CESU-8 routes).
"""
import codecs
import itertools
import json
import re
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples

try:
    from tests.oracles import cesu_8, corrected_utf_8, mutf_8, utf_8, utf_8_bom, utf_8_rfc2279, wtf_8
except ImportError:  # tests/ put on sys.path by pytest's rootdir insertion
    from oracles import cesu_8, corrected_utf_8, mutf_8, utf_8, utf_8_bom, utf_8_rfc2279, wtf_8

CORPORA = Path(__file__).resolve().parent / "data"  # copied from shared/corpora (tests/data/README.md)
KUHN_CASES = {c["id"]: c for c in json.loads((CORPORA / "kuhn-cases.json").read_text())}
ALL = [utf_8, utf_8_bom, corrected_utf_8, wtf_8, cesu_8, mutf_8, utf_8_rfc2279]


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def char(start, end, cp):
    return ("char", start, end, cp)


def err(start, end):
    return ("error", start, end, None)


def chars(toks):
    return [t[3] for t in toks if t[0] == "char"]


def assert_covers(toks, data):
    pos = 0
    for kind, start, end, value in toks:
        assert kind in ("char", "error", "reserved", "signature")
        assert start == pos and end > start
        assert (value is not None) == (kind == "char")
        pos = end
    assert pos == len(data)


# --------------------------------------------------------------------------
# CPython reference token stream for UTF-8 (maximal subparts)

_SPANS = []


def _record(exc):
    _SPANS.append((exc.start, exc.end))
    return ("\ufffd", exc.end)


codecs.register_error("oracles-utf8-family-record", _record)


def cpython_tokens(data: bytes):
    """CPython's utf-8 decoder as a token stream: error spans come from the
    error handler, the chars in between are re-measured with CPython's encoder."""
    _SPANS.clear()
    data.decode("utf-8", "oracles-utf8-family-record")
    spans = list(_SPANS)
    toks, pos = [], 0
    for start, end in spans + [(len(data), len(data))]:
        for ch in data[pos:start].decode("utf-8"):
            n = len(ch.encode("utf-8"))
            toks.append(char(pos, pos + n, ord(ch)))
            pos += n
        assert pos == start
        if start < end:
            toks.append(err(start, end))
        pos = end
    return toks


def as_replaced_string(toks):
    """Tokens rendered like errors='replace' (signature dropped)."""
    out = []
    for kind, _s, _e, value in toks:
        if kind == "char":
            out.append(chr(value))
        elif kind == "error":
            out.append("\ufffd")
    return "".join(out)


INTERESTING = [0x00, 0x0A, 0x2F, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9D, 0x9F,
               0xA0, 0xAE, 0xAF, 0xB0, 0xB2, 0xB7, 0xBB, 0xBD, 0xBF, 0xC0, 0xC1,
               0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4,
               0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF]
SMALL = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF,
         0xF0, 0xF4, 0xF5, 0xFF]
byte_strings = st.one_of(
    st.binary(max_size=40),
    st.lists(st.sampled_from(INTERESTING), max_size=40).map(bytes),
)


# ==========================================================================
# UTF-8


def test_utf8_equals_cpython_on_all_one_and_two_byte_inputs():
    """utf-8-encyclopedia-article "Invalid byte sequences": maximal-subpart
    errors, as CPython's decoder (corpora README)."""
    for a in range(256):
        data = bytes([a])
        assert utf_8.tokens(data) == cpython_tokens(data), data.hex(" ")
    for a in range(256):
        for b in range(256):
            data = bytes([a, b])
            assert utf_8.tokens(data) == cpython_tokens(data), data.hex(" ")


def test_utf8_equals_cpython_on_boundary_bytes_three_and_four_long():
    """Table 3-7 boundaries (wtf-8.txt section 5 Table 3 minus surrogates):
    every 3-byte string over boundary bytes, every 4-byte one over fewer."""
    for combo in itertools.product(INTERESTING, repeat=3):
        data = bytes(combo)
        assert utf_8.tokens(data) == cpython_tokens(data), data.hex(" ")
    for combo in itertools.product(SMALL, repeat=4):
        data = bytes(combo)
        assert utf_8.tokens(data) == cpython_tokens(data), data.hex(" ")


@pytest.mark.parametrize("case_id", sorted(KUHN_CASES))
def test_utf8_equals_cpython_on_kuhn_cases(case_id):
    """Kuhn's UTF-8 decoder stress test, numbered cases (corpora README:
    a maximal-subpart decoder decodes each exactly as CPython)."""
    data = h(KUHN_CASES[case_id]["hex"])
    assert utf_8.tokens(data) == cpython_tokens(data)


def test_utf8_equals_cpython_on_whole_kuhn_file():
    """Kuhn's UTF-8-test.txt read as bytes, as a whole."""
    data = (CORPORA / "kuhn-UTF-8-test.txt").read_bytes()
    assert utf_8.tokens(data) == cpython_tokens(data)


@settings(max_examples=examples(1000))
@given(byte_strings)
def test_utf8_equals_cpython_on_random_bytes(data):
    """"Invalid byte sequences": maximal subpart, as CPython errors='replace'."""
    toks = utf_8.tokens(data)
    assert toks == cpython_tokens(data)
    assert as_replaced_string(toks) == data.decode("utf-8", "replace")


@pytest.mark.parametrize("cp, hexbytes", [
    (0x24, "24"), (0xA2, "C2 A2"), (0x939, "E0 A4 B9"), (0x20AC, "E2 82 AC"),
    (0xD55C, "ED 95 9C"), (0x10348, "F0 90 8D 88"),
])
def test_utf8_article_examples(cp, hexbytes):
    """utf-8-encyclopedia-article "Examples" table ($, ¢, ह, €, 한, 𐍈)."""
    data = h(hexbytes)
    assert utf_8.encode([cp]) == data
    assert utf_8.tokens(data) == [char(0, len(data), cp)]


def test_utf8_error_length_examples():
    """"Invalid byte sequences": with the best practice "E1,A0,C0 is two
    errors (2 bytes in the first one)"; an error is never longer than 3 bytes;
    "Overlong encodings": F0 82 82 AC (the padded euro sign) is not UTF-8."""
    assert utf_8.tokens(h("E1 A0 C0")) == [err(0, 2), err(2, 3)]
    assert utf_8.tokens(h("F0 82 82 AC")) == [err(0, 1), err(1, 2), err(2, 3), err(3, 4)]
    assert utf_8.tokens(h("F0 90 80 41")) == [err(0, 3), char(3, 4, 0x41)]


def test_utf8_encode_rejects_invalid_code_points():
    """"Invalid code points": surrogates and code points after U+10FFFF."""
    with pytest.raises(ValueError, match=r"U\+D800.*index 1|index 1.*U\+D800"):
        utf_8.encode([0x41, 0xD800])
    with pytest.raises(ValueError, match=r"U\+110000"):
        utf_8.encode([0x110000])
    with pytest.raises(ValueError):
        utf_8.encode([-1])
    with pytest.raises(ValueError):
        utf_8.encode([0x41], signature=True)
    assert utf_8.encode([0xD7FF, 0xE000, 0x10FFFF]) == h("ED 9F BF EE 80 80 F4 8F BF BF")


def test_unicode31_proposal_examples():
    """unicode-3.1-ill-formed-utf-8-proposal, Table 3.1b examples: <E3 80 C0>
    and <E3 FF C0> are ill-formed in UTF-8; <ED A0 80 ED B0 80> is ill-formed
    (line 11).  The proposal's <ED A0 80 7F> "is well-formed" reflects
    Unicode 3.1, which still allowed unpaired surrogates: current UTF-8 (RFC
    3629, article "Invalid code points") rejects it, WTF-8 accepts it."""
    for data in (h("E3 80 C0"), h("E3 FF C0"), h("ED A0 80 ED B0 80")):
        assert any(t[0] == "error" for t in utf_8.tokens(data))
    assert wtf_8.tokens(h("ED A0 80 ED B0 80")) == [err(0, 6)]
    assert wtf_8.tokens(h("ED A0 80 7F")) == [char(0, 3, 0xD800), char(3, 4, 0x7F)]
    assert any(t[0] == "error" for t in utf_8.tokens(h("ED A0 80 7F")))


# ==========================================================================
# UTF-8 with BOM


def test_utf8_bom_signature_only_at_start():
    """article "Byte order mark": EF BB BF at the start of a document."""
    assert utf_8_bom.tokens(h("EF BB BF 41")) == [("signature", 0, 3, None), char(3, 4, 0x41)]
    assert utf_8_bom.tokens(h("41 EF BB BF")) == [char(0, 1, 0x41), char(1, 4, 0xFEFF)]
    assert utf_8_bom.tokens(h("EF BB BF EF BB BF")) == [("signature", 0, 3, None),
                                                         char(3, 6, 0xFEFF)]
    assert utf_8_bom.tokens(h("EF BB")) == [err(0, 2)]
    assert utf_8_bom.tokens(b"") == []
    assert utf_8_bom.encode([0x41], signature=True) == h("EF BB BF 41")
    assert utf_8_bom.encode([0x41]) == b"A"


@settings(max_examples=examples(500))
@given(byte_strings, st.booleans())
def test_utf8_bom_equals_cpython_utf8_sig(data, with_bom):
    """"Byte order mark", as CPython's utf-8-sig decoder (BOM dropped only
    at offset 0)."""
    if with_bom:
        data = b"\xEF\xBB\xBF" + data
    toks = utf_8_bom.tokens(data)
    assert_covers(toks, data)
    assert as_replaced_string(toks) == data.decode("utf-8-sig", "replace")


# ==========================================================================
# Corrected UTF-8

CORRECTED_TABLE = [  # "Putting it all together": first, last, offset, first cp, last cp
    ("00", "7F", 0, 0x0000, 0x007F),
    ("C0 80", "DF BF", 160, 0x00A0, 0x089F),
    ("E0 80 80", "EC BD 9F", 2208, 0x08A0, 0xD7FF),
    ("EC BD A0", "EF BF BF", 4256, 0xE000, 0x1109F),
    ("F0 80 80 80", "F7 BF BF BF", 69792, 0x110A0, 0x21109F),
    ("F8 80 80 80 80", "FB BF BF BF BF", 2166944, 0x2110A0, 0x421109F),
    ("FC 80 80 80 80 80", "FD BF BF BF BF BF", 69275808, 0x42110A0, 0x8421109F),
]


def raw_bits(seq: bytes) -> int:
    """The x bits of 0xxxxxxx / 110xxxxx 10xxxxxx / ... (test-local)."""
    n = len(seq)
    raw = seq[0] & (0x7F if n == 1 else 0xFF >> (n + 1))
    for b in seq[1:]:
        raw = raw << 6 | b & 0x3F
    return raw


@pytest.mark.parametrize("first, last, offset, first_cp, last_cp", CORRECTED_TABLE)
def test_corrected_table_rows(first, last, offset, first_cp, last_cp):
    """corrected-utf-8.txt "Putting it all together": each row's first and
    last byte sequences, their code points, and code point = bits + offset."""
    for hexbytes, cp in ((first, first_cp), (last, last_cp)):
        data = h(hexbytes)
        assert corrected_utf_8.tokens(data) == [char(0, len(data), cp)]
        assert corrected_utf_8.encode([cp]) == data
        assert cp - raw_bits(data) == offset
    assert corrected_utf_8.encode([first_cp, last_cp]) == h(first) + h(last)


def test_corrected_offsets_between_rows():
    """"Putting it all together": rows are contiguous; the skipped ranges are
    the C1 controls and the surrogates ("Not encoding C1 controls or
    surrogates"); the highest code point is U+8421109F ("Removing the
    artificial upper limit")."""
    gaps = [(a[4], b[3]) for a, b in zip(CORRECTED_TABLE, CORRECTED_TABLE[1:])]
    assert gaps == [(0x7F, 0xA0), (0x89F, 0x8A0), (0xD7FF, 0xE000), (0x1109F, 0x110A0),
                    (0x21109F, 0x2110A0), (0x421109F, 0x42110A0)]


def test_corrected_c0_af_is_u00cf():
    """"Eliminating overlength encodings": C0 AF becomes the unique encoding
    of U+00CF; 2F stays U+002F; E0 80 AF is U+002F + 2208 (the 3-byte offset)."""
    assert corrected_utf_8.tokens(h("C0 AF")) == [char(0, 2, 0xCF)]
    assert corrected_utf_8.encode([0xCF]) == h("C0 AF")
    assert corrected_utf_8.tokens(h("2F")) == [char(0, 1, 0x2F)]
    assert corrected_utf_8.tokens(h("E0 80 AF")) == [char(0, 3, 0x2F + 2208)]
    # Kuhn 4.1.x (overlong slashes) are all distinct characters here
    values = [chars(corrected_utf_8.tokens(h(KUHN_CASES[f"4.1.{k}"]["hex"]))) for k in range(1, 6)]
    assert values == [[0xCF], [0x8CF], [0x110CF], [0x2110CF], [0x42110CF]]


def test_corrected_every_two_and_three_byte_pattern_is_a_distinct_code_point():
    """"Eliminating overlength encodings": "every possible sequence is the
    unique encoding of a single codepoint" (checked for all 2- and 3-byte
    patterns), skipping U+0080..U+009F and U+D800..U+DFFF."""
    conts = range(0x80, 0xC0)
    two = [bytes([a, b]) for a in range(0xC0, 0xE0) for b in conts]
    cps = []
    for seq in two:
        toks = corrected_utf_8.tokens(seq)
        assert toks[0][0] == "char" and len(toks) == 1
        assert corrected_utf_8.encode([toks[0][3]]) == seq
        cps.append(toks[0][3])
    assert cps == list(range(0xA0, 0x8A0))
    three = [bytes([a, b, c]) for a in range(0xE0, 0xF0) for b in conts for c in conts]
    cps = []
    for seq in three:
        toks = corrected_utf_8.tokens(seq)
        assert len(toks) == 1 and toks[0][0] == "char"
        cps.append(toks[0][3])
    assert cps == list(range(0x8A0, 0xD800)) + list(range(0xE000, 0x110A0))


def test_corrected_unencodable_code_points():
    """"Not encoding C1 controls or surrogates"; "Removing the artificial
    upper limit" (highest encodable code point U+8421109F)."""
    for bad in (0x80, 0x9F, 0xD800, 0xDFFF, 0x842110A0):
        with pytest.raises(ValueError, match="index 1") as info:
            corrected_utf_8.encode([0x41, bad])
        assert f"U+{bad:04X}" in str(info.value)
    assert corrected_utf_8.encode([0x7F, 0xA0, 0xD7FF, 0xE000, 0x8421109F]) == h(
        "7F C0 80 EC BD 9F EC BD A0 FD BF BF BF BF BF")


MAGIC = h("EF B7 9D ED B2 AE 00 0A")


def test_corrected_magic_number_is_signature_at_start():
    """"Putting it all together": the magic number at the beginning of a file
    "should not be considered part of the text"."""
    assert corrected_utf_8.tokens(MAGIC) == [("signature", 0, 8, None)]
    assert corrected_utf_8.tokens(MAGIC + b"hi\n") == [
        ("signature", 0, 8, None), char(8, 9, 0x68), char(9, 10, 0x69), char(10, 11, 0x0A)]
    assert corrected_utf_8.encode([0x41], signature=True) == MAGIC + b"A"
    assert corrected_utf_8.encode([], signature=True) == MAGIC


def test_corrected_magic_number_elsewhere_is_four_code_points():
    """"Putting it all together": the magic number "is the Corrected encoding
    of the four-codepoint sequence U+10E7D U+ED4E U+0000 U+000A"."""
    assert corrected_utf_8.encode([0x10E7D, 0xED4E, 0x0000, 0x000A]) == MAGIC
    assert corrected_utf_8.tokens(b"A" + MAGIC) == [
        char(0, 1, 0x41), char(1, 4, 0x10E7D), char(4, 7, 0xED4E),
        char(7, 8, 0x0000), char(8, 9, 0x000A)]
    assert corrected_utf_8.tokens(MAGIC + MAGIC)[1:] == [
        char(8, 11, 0x10E7D), char(11, 14, 0xED4E), char(14, 15, 0), char(15, 16, 0x0A)]
    # incomplete magic number at the start: no signature, just the characters
    assert corrected_utf_8.tokens(MAGIC[:7]) == [
        char(0, 3, 0x10E7D), char(3, 6, 0xED4E), char(6, 7, 0)]


def test_corrected_magic_number_as_traditional_utf8():
    """"Putting it all together": "If interpreted as traditional UTF-8, it
    instead encodes U+FDDD U+DCAE U+0000 U+000A" -- forbidden (U+DCAE is a
    surrogate): generalized UTF-8 (WTF-8) reads it so, UTF-8 rejects ED B2 AE."""
    assert chars(wtf_8.tokens(MAGIC)) == [0xFDDD, 0xDCAE, 0x0000, 0x000A]
    assert chars(utf_8_rfc2279.tokens(MAGIC)) == [0xFDDD, 0xDCAE, 0x0000, 0x000A]
    assert utf_8.tokens(MAGIC) == [char(0, 3, 0xFDDD), err(3, 4), err(4, 5), err(5, 6),
                                   char(6, 7, 0), char(7, 8, 0x0A)]


@pytest.mark.parametrize("hexbytes, expected", [
    ("FE", [("reserved", 0, 1, None)]),
    ("FF", [("reserved", 0, 1, None)]),
    ("FF 80 BF 80", [("reserved", 0, 4, None)]),
    ("FE 80 41", [("reserved", 0, 2, None), char(2, 3, 0x41)]),
    ("FE FE FF FF", [("reserved", k, k + 1, None) for k in range(4)]),
    ("FF 80 FE BF", [("reserved", 0, 2, None), ("reserved", 2, 4, None)]),
    ("FE BF C0 80", [("reserved", 0, 2, None), char(2, 4, 0xA0)]),
    ("FE 80 80 80 80 80 80 80 80 F0 80 80 80",
     [("reserved", 0, 9, None), char(9, 13, 0x110A0)]),
    ("41 FF", [char(0, 1, 0x41), ("reserved", 1, 2, None)]),
])
def test_corrected_reserved_runs(hexbytes, expected):
    """"Removing the artificial upper limit": decoders MUST treat sequences
    beginning with FE or FF as reserved "and as extending until the next
    recognized lead byte, rather than as invalid"."""
    assert corrected_utf_8.tokens(h(hexbytes)) == expected


@pytest.mark.parametrize("hexbytes, expected", [
    ("80", [err(0, 1)]),
    ("BF 41", [err(0, 1), char(1, 2, 0x41)]),
    ("C0", [err(0, 1)]),
    ("E0 80 41", [err(0, 2), char(2, 3, 0x41)]),
    ("FD BF BF BF BF", [err(0, 5)]),                     # Kuhn 3.3.10
    ("FC 80 80 80 80 80 80", [char(0, 6, 0x42110A0), err(6, 7)]),
    ("C0 C0 80", [err(0, 1), char(1, 3, 0xA0)]),
])
def test_corrected_truncated_and_stray_bytes(hexbytes, expected):
    """"Putting it all together": only whole patterns from the table are
    characters; a truncated pattern is one error (maximal subpart), a stray
    continuation byte is one error each."""
    assert corrected_utf_8.tokens(h(hexbytes)) == expected


# ==========================================================================
# WTF-8


@pytest.mark.parametrize("hexbytes, cp", [
    ("ED A0 80", 0xD800), ("ED AF BF", 0xDBFF),   # lead surrogate byte sequence
    ("ED B0 80", 0xDC00), ("ED BF BF", 0xDFFF),   # trail surrogate byte sequence
])
def test_wtf8_table1_surrogate_byte_sequences(hexbytes, cp):
    """wtf-8.txt 3.3 Table 1: surrogate byte sequences are well-formed WTF-8
    when unpaired, and ill-formed UTF-8."""
    data = h(hexbytes)
    assert wtf_8.tokens(data) == [char(0, 3, cp)]
    assert wtf_8.encode([cp]) == data
    assert all(t[0] == "error" for t in utf_8.tokens(data))


TABLE3 = [  # wtf-8.txt 5, Table 3: first and last sequence of each row
    (0x0000, "00"), (0x007F, "7F"),
    (0x0080, "C2 80"), (0x07FF, "DF BF"),
    (0x0800, "E0 A0 80"), (0x0FFF, "E0 BF BF"),
    (0x1000, "E1 80 80"), (0xFFFF, "EF BF BF"),
    (0x10000, "F0 90 80 80"), (0x3FFFF, "F0 BF BF BF"),
    (0x40000, "F1 80 80 80"), (0xFFFFF, "F3 BF BF BF"),
    (0x100000, "F4 80 80 80"), (0x10FFFF, "F4 8F BF BF"),
]


@pytest.mark.parametrize("cp, hexbytes", TABLE3)
def test_wtf8_table3_rows(cp, hexbytes):
    """wtf-8.txt 5 Table 3 (generalized UTF-8) and 6.1 / 6.2."""
    data = h(hexbytes)
    assert wtf_8.tokens(data) == [char(0, len(data), cp)]
    assert wtf_8.encode([cp]) == data


@pytest.mark.parametrize("hexbytes", ["C0 80", "C1 BF", "E0 9F BF", "F0 8F BF BF",
                                      "F4 90 80 80", "F5 80 80 80", "80", "FE", "FF"])
def test_wtf8_outside_table3_is_ill_formed(hexbytes):
    """wtf-8.txt 5: well-formed iff the sequence is in Table 3."""
    assert all(t[0] == "error" for t in wtf_8.tokens(h(hexbytes)))


def test_wtf8_surrogate_pair_byte_sequence_is_one_error():
    """wtf-8.txt 6: "a surrogate pair byte sequence is ill-formed" (project
    decision: one 6-byte error); incomplete pairs leave the lead as a char."""
    assert wtf_8.tokens(h("ED A0 80 ED B0 80")) == [err(0, 6)]
    assert wtf_8.tokens(h("ED AF BF ED BF BF 41")) == [err(0, 6), char(6, 7, 0x41)]
    assert wtf_8.tokens(h("ED A0 80 ED B0")) == [char(0, 3, 0xD800), err(3, 5)]
    assert wtf_8.tokens(h("ED A0 80 ED A0 80 ED B0 80")) == [char(0, 3, 0xD800), err(3, 9)]
    assert wtf_8.tokens(h("ED B0 80 ED A0 80")) == [char(0, 3, 0xDC00), char(3, 6, 0xD800)]
    for k in range(1, 9):  # Kuhn 5.2.x: paired UTF-16 surrogates
        data = h(KUHN_CASES[f"5.2.{k}"]["hex"])
        assert wtf_8.tokens(data) == [err(0, 6)]


def test_wtf8_encode_combines_surrogate_code_point_pairs():
    """wtf-8.txt 6.1 step 2.1 and its note: a surrogate code point pair is
    encoded as the supplementary code point."""
    assert wtf_8.encode([0xD800, 0xDC00]) == h("F0 90 80 80")
    assert wtf_8.encode([0xDBFF, 0xDFFF, 0xD800]) == h("F4 8F BF BF ED A0 80")
    assert wtf_8.encode([0xDC00, 0xD800]) == h("ED B0 80 ED A0 80")
    assert wtf_8.encode([0xD800, 0xD800, 0xDC00]) == h("ED A0 80 F0 90 80 80")
    with pytest.raises(ValueError, match=r"index 2.*U\+110000|U\+110000.*index 2"):
        wtf_8.encode([0, 1, 0x110000])


def wtf16_reference(units) -> bytes:
    """Independent route: CPython utf-16 with surrogatepass (paired units
    combine, unpaired stay), then utf-8 with surrogatepass."""
    raw = struct.pack(f"<{len(units)}H", *units)
    return raw.decode("utf-16-le", "surrogatepass").encode("utf-8", "surrogatepass")


units16 = st.lists(st.one_of(st.integers(0, 0xFFFF), st.integers(0xD800, 0xDFFF),
                             st.sampled_from([0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800,
                                              0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF])),
                   max_size=30)


@settings(max_examples=examples(500))
@given(units16)
def test_wtf8_wtf16_round_trip(units):
    """wtf-8.txt 6.3: potentially ill-formed UTF-16 -> WTF-8 "never fails and
    is lossless"; WTF-8 -> UTF-16 is lossless on well-formed WTF-8."""
    data = wtf_8.from_wtf16(units)
    assert data == wtf16_reference(units)
    assert all(t[0] == "char" for t in wtf_8.tokens(data))
    assert wtf_8.to_wtf16(data) == units


def test_wtf8_to_wtf16_examples():
    """wtf-8.txt 6.3 (via 4.1 / 4.2)."""
    assert wtf_8.from_wtf16([0xD83D, 0xDE00]) == h("F0 9F 98 80")
    assert wtf_8.from_wtf16([0xD83D]) == h("ED A0 BD")
    assert wtf_8.to_wtf16(h("F0 9F 98 80 ED B8 80")) == [0xD83D, 0xDE00, 0xDE00]
    with pytest.raises(ValueError):
        wtf_8.to_wtf16(h("ED A0 80 ED B0 80"))  # ill-formed WTF-8


def test_wtf8_to_utf8():
    """wtf-8.txt 6.4: lossy conversion replaces each surrogate byte sequence
    in place with EF BF BD; strict conversion fails on one."""
    data = h("41 ED A0 80 F0 9F 98 80 ED BF BF")
    assert wtf_8.to_utf8(data) == h("41 EF BF BD F0 9F 98 80 EF BF BD")
    with pytest.raises(ValueError):
        wtf_8.to_utf8(data, strict=True)
    utf8 = "a€𐍈".encode()
    assert wtf_8.to_utf8(utf8, strict=True) == utf8 == wtf_8.to_utf8(utf8)


@settings(max_examples=examples(300))
@given(units16)
def test_wtf8_to_utf8_matches_utf16_replace(units):
    """wtf-8.txt 6.4 lossy conversion equals decoding the UTF-16 with each
    unpaired surrogate replaced by U+FFFD (CPython utf-16 'replace')."""
    raw = struct.pack(f"<{len(units)}H", *units)
    expected = raw.decode("utf-16-le", "replace").encode("utf-8")
    assert wtf_8.to_utf8(wtf_8.from_wtf16(units)) == expected


@settings(max_examples=examples(500))
@given(units16, units16)
def test_wtf8_concat_equals_utf16_route(left, right):
    """wtf-8.txt 6.5 note: concatenation "is equivalent to converting both
    strings to potentially ill-formed UTF-16, concatenating ..., then
    converting the concatenation back to WTF-8"."""
    a, b = wtf_8.from_wtf16(left), wtf_8.from_wtf16(right)
    joined = wtf_8.concat(a, b)
    assert joined == wtf_8.from_wtf16(wtf_8.to_wtf16(a) + wtf_8.to_wtf16(b))
    assert joined == wtf16_reference(left + right)
    assert all(t[0] == "char" for t in wtf_8.tokens(joined))


def test_wtf8_concat_example():
    """wtf-8.txt 6.5 step 1: lead at the end + trail at the start -> 4 bytes."""
    assert wtf_8.concat(h("41 ED A0 80"), h("ED B0 80 42")) == h("41 F0 90 80 80 42")
    assert wtf_8.concat(h("ED B0 80"), h("ED A0 80")) == h("ED B0 80 ED A0 80")
    assert wtf_8.concat(b"", h("ED B0 80")) == h("ED B0 80")


# ==========================================================================
# CESU-8


def cesu8_reference(cps) -> bytes:
    """Article "CESU-8": each UTF-16 code unit in its own UTF-8 form."""
    s = "".join(map(chr, cps))
    units = struct.unpack(f">{len(s.encode('utf-16-be')) // 2}H", s.encode("utf-16-be"))
    return b"".join(chr(u).encode("utf-8", "surrogatepass") for u in units)


def test_cesu8_examples():
    """utf-8-encyclopedia-article "CESU-8" (UTR #26): supplementary code
    points take six bytes, BMP code points are as in UTF-8."""
    assert cesu_8.encode([0x10400]) == h("ED A0 81 ED B0 80")        # UTR #26
    assert cesu_8.encode([0x10000, 0x10FFFF]) == h("ED A0 80 ED B0 80 ED AF BF ED BF BF")
    assert cesu_8.encode([0x41, 0xE9, 0x20AC, 0xFFFF]) == "Aé€\uffff".encode("utf-8")
    assert cesu_8.tokens(h("ED A0 81 ED B0 80")) == [char(0, 6, 0x10400)]
    for k in range(1, 9):  # Kuhn 5.2.x: paired surrogates are CESU-8 characters
        data = h(KUHN_CASES[f"5.2.{k}"]["hex"])
        toks = cesu_8.tokens(data)
        assert len(toks) == 1 and toks[0][0] == "char"
        assert chr(toks[0][3]).encode("utf-16-be") == data.decode("utf-8", "surrogatepass") \
            .encode("utf-16-be", "surrogatepass")


@pytest.mark.parametrize("hexbytes, expected", [
    ("F0 90 80 80", [err(0, 1), err(1, 2), err(2, 3), err(3, 4)]),  # no 4-byte forms
    ("ED A0 80 41", [err(0, 3), char(3, 4, 0x41)]),                  # unpaired lead
    ("ED B0 80", [err(0, 1), err(1, 2), err(2, 3)]),                 # unpaired trail
    ("ED A0 80 ED B0", [err(0, 5)]),
    ("ED A0 80 ED A0 80 ED B0 80", [err(0, 4), err(4, 5), err(5, 6), err(6, 7),
                                    err(7, 8), err(8, 9)]),
    ("C0 80", [err(0, 1), err(1, 2)]),
    ("ED 9F BF", [char(0, 3, 0xD7FF)]),
])
def test_cesu8_ill_formed(hexbytes, expected):
    """Article "CESU-8": four-byte forms and unpaired surrogate sequences are
    not CESU-8 (maximal-subpart errors per the project contract)."""
    assert cesu_8.tokens(h(hexbytes)) == expected


def test_cesu8_encode_rejects_surrogates():
    """CESU-8 maps UTF-16 code units (wtf-8.txt 2.1: unpaired surrogate byte
    sequences are ill-formed in CESU-8), so surrogate code points are refused."""
    with pytest.raises(ValueError, match=r"index 0.*U\+DC00|U\+DC00.*index 0"):
        cesu_8.encode([0xDC00])
    with pytest.raises(ValueError):
        cesu_8.encode([0x110000])


@given(st.lists(st.one_of(st.integers(0, 0xD7FF), st.integers(0xE000, 0x10FFFF)), max_size=20))
def test_cesu8_encode_matches_utf16_route(cps):
    """Article "CESU-8": each half of a UTF-16 surrogate pair in 3 bytes."""
    assert cesu_8.encode(cps) == cesu8_reference(cps)


# ==========================================================================
# Modified UTF-8


def mutf8_reference(cps) -> bytes:
    """Java DataOutputStream.writeUTF body: per UTF-16 code unit, 0 as C0 80."""
    out = b""
    for cp in cps:
        if cp >= 0x10000:
            units = [((cp - 0x10000) >> 10) + 0xD800, ((cp - 0x10000) & 0x3FF) + 0xDC00]
        else:
            units = [cp]
        for u in units:
            out += b"\xC0\x80" if u == 0 else chr(u).encode("utf-8", "surrogatepass")
    return out


def test_mutf8_examples():
    """utf-8-encyclopedia-article "Modified UTF-8": U+0000 is C0 80, byte 00
    never occurs; surrogate pairs as in CESU-8."""
    assert mutf_8.encode([0]) == h("C0 80")
    assert mutf_8.tokens(h("C0 80")) == [char(0, 2, 0)]
    assert mutf_8.tokens(h("00")) == [err(0, 1)]
    assert mutf_8.tokens(h("41 00 42")) == [char(0, 1, 0x41), err(1, 2), char(2, 3, 0x42)]
    assert mutf_8.tokens(h("ED A0 80 ED B0 80")) == [char(0, 6, 0x10000)]
    assert mutf_8.tokens(h("ED A0 80")) == [char(0, 3, 0xD800)]
    assert mutf_8.tokens(h("ED B0 80 ED A0 80")) == [char(0, 3, 0xDC00), char(3, 6, 0xD800)]
    assert mutf_8.tokens(h("ED A0 80 ED B0")) == [char(0, 3, 0xD800), err(3, 5)]
    assert mutf_8.encode([0x10000]) == h("ED A0 80 ED B0 80")
    assert mutf_8.encode([0xD800]) == h("ED A0 80")
    # a lead surrogate code point then a trail one would write the bytes of U+10000
    # (wtf-8.txt 4.1 on the same units: "should be considered an error"): refused
    with pytest.raises(ValueError, match="U\\+DC00 at index 1"):
        mutf_8.encode([0xD800, 0xDC00])
    assert mutf_8.encode([0xDC00, 0xD800]) == h("ED B0 80 ED A0 80")


@pytest.mark.parametrize("hexbytes", ["F0 90 80 80", "C0 81", "C1 80", "E0 80 80",
                                      "E0 9F BF", "F4 8F BF BF", "FE", "FF"])
def test_mutf8_ill_formed(hexbytes):
    """"Modified UTF-8": only the overlong C0 80 is allowed; no 4-byte forms."""
    assert all(t[0] == "error" for t in mutf_8.tokens(h(hexbytes)))


@given(st.lists(st.integers(0, 0x10FFFF), max_size=20))
def test_mutf8_encode_matches_java_route(cps):
    """"Modified UTF-8" (as Java writeUTF): per UTF-16 unit, 0 as C0 80."""
    assert mutf_8.encode(cps) == mutf8_reference(cps)


# ==========================================================================
# UTF-8 as in RFC 2279


def kuhn_value(case_id):
    m = re.search(r"U[-+]([0-9A-Fa-f]{4,8})", KUHN_CASES[case_id]["note"])
    return int(m.group(1), 16)


@pytest.mark.parametrize("case_id", [f"2.{g}.{k}" for g in (1, 2) for k in range(1, 7)]
                         + [f"5.1.{k}" for k in range(1, 8)] + ["2.3.5"])
def test_rfc2279_kuhn_boundaries_are_characters(case_id):
    """Article "FSS-UTF (1992) / UTF-8 (1993)" table: 1 to 6 bytes up to
    U+7FFFFFFF; surrogates predate RFC 3629 ("Invalid code points")."""
    data = h(KUHN_CASES[case_id]["hex"])
    cp = kuhn_value(case_id)
    assert utf_8_rfc2279.tokens(data) == [char(0, len(data), cp)]
    assert utf_8_rfc2279.encode([cp]) == data


@pytest.mark.parametrize("case_id", [f"4.{g}.{k}" for g, n in ((1, 5), (2, 5), (3, 5))
                                     for k in range(1, n + 1)])
def test_rfc2279_overlongs_are_errors(case_id):
    """History: "only the shortest possible encoding is allowed" (Kuhn 4.x)."""
    toks = utf_8_rfc2279.tokens(h(KUHN_CASES[case_id]["hex"]))
    assert toks and all(t[0] == "error" for t in toks)


@pytest.mark.parametrize("first, last, lead_bits", [
    (0x0, 0x7F, "0"), (0x80, 0x7FF, "110"), (0x800, 0xFFFF, "1110"),
    (0x10000, 0x1FFFFF, "11110"), (0x200000, 0x3FFFFFF, "111110"),
    (0x4000000, 0x7FFFFFFF, "1111110"),
])
def test_rfc2279_table_rows(first, last, lead_bits):
    """Article "FSS-UTF (1992) / UTF-8 (1993)" table: byte count, lead byte
    pattern and 10xxxxxx continuation bytes for each row's first/last."""
    n = max(1, len(lead_bits) - 1)
    for cp in (first, last):
        data = utf_8_rfc2279.encode([cp])
        assert len(data) == n
        assert format(data[0], "08b").startswith(lead_bits)
        assert all(0x80 <= b <= 0xBF for b in data[1:])
        assert utf_8_rfc2279.tokens(data) == [char(0, n, cp)]
        bits = int("".join(format(b, "08b")[len(lead_bits) if i == 0 else 2:]
                           for i, b in enumerate(data)), 2)
        assert bits == cp


def test_rfc2279_limits():
    """FE and FF "were never defined" (article "Codepage layout");
    nothing beyond U+7FFFFFFF."""
    assert utf_8_rfc2279.tokens(h("FE FF")) == [err(0, 1), err(1, 2)]
    assert utf_8_rfc2279.tokens(h("FD BF BF BF BF")) == [err(0, 5)]
    with pytest.raises(ValueError, match=r"U\+80000000"):
        utf_8_rfc2279.encode([0x80000000])


# ==========================================================================
# Every oracle: encode/tokens round trip, coverage, per-token re-encoding


def combine_pairs(cps):
    """wtf-8.txt 4.2 / 6.1: a lead surrogate followed by a trail surrogate
    code point stands for the supplementary code point."""
    out, k = [], 0
    while k < len(cps):
        p = cps[k]
        if 0xD800 <= p <= 0xDBFF and k + 1 < len(cps) and 0xDC00 <= cps[k + 1] <= 0xDFFF:
            p = 0x10000 + ((p - 0xD800) << 10) + (cps[k + 1] - 0xDC00)
            k += 1
        out.append(p)
        k += 1
    return out


def no_surrogates(cp):
    return not 0xD800 <= cp <= 0xDFFF


SPECS = {  # name: (oracle, max code point, encodable?, expected decode of encode(cps))
    "utf-8": (utf_8, 0x10FFFF, no_surrogates, list),
    "utf-8-bom": (utf_8_bom, 0x10FFFF, no_surrogates, list),
    "corrected-utf-8": (corrected_utf_8, 0x8421109F,
                        lambda cp: no_surrogates(cp) and not 0x80 <= cp <= 0x9F, list),
    "wtf-8": (wtf_8, 0x10FFFF, lambda cp: True, combine_pairs),
    "cesu-8": (cesu_8, 0x10FFFF, no_surrogates, list),
    "mutf-8": (mutf_8, 0x10FFFF, lambda cp: True, combine_pairs),
    "utf-8-rfc2279": (utf_8_rfc2279, 0x7FFFFFFF, lambda cp: True, list),
}
BOUNDARIES = [0, 1, 0x0A, 0x7F, 0x80, 0x9F, 0xA0, 0xFF, 0x7FF, 0x800, 0x89F, 0x8A0,
              0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
              0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1109F, 0x110A0, 0x3FFFF,
              0x40000, 0xFFFFF, 0x100000, 0x10FFFF, 0x1FFFFF, 0x200000, 0x21109F,
              0x2110A0, 0x3FFFFFF, 0x4000000, 0x421109F, 0x42110A0, 0x7FFFFFFF,
              0x8421109F]


def codepoint_lists(name):
    _oracle, top, ok, _expect = SPECS[name]
    bounds = [cp for cp in BOUNDARIES if cp <= top and ok(cp)]
    one = st.one_of(st.sampled_from(bounds), st.integers(0, 0x7FF).filter(ok),
                    st.integers(0, top).filter(ok))
    return st.lists(one, max_size=16)


@pytest.mark.parametrize("name", sorted(SPECS))
@settings(max_examples=examples(300))
@given(data=st.data())
def test_round_trip_every_oracle(name, data):
    """Each document's encoding rules: encode then tokens gives back the code
    points (after 6.1-style pair combining for WTF-8 / Modified UTF-8)."""
    oracle, _top, _ok, expect = SPECS[name]
    assert oracle.NAME == name
    cps = data.draw(codepoint_lists(name))
    signature = getattr(oracle, "SIGNATURE", b"")
    if signature:
        signed = oracle.encode(cps, signature=True)
        toks = oracle.tokens(signed)
        assert signed.startswith(signature)
        assert toks[0] == ("signature", 0, len(signature), None)
        assert [t[3] for t in toks[1:]] == expect(cps)
        if oracle.encode(cps).startswith(signature):
            # unsigned text beginning with the signature's code points reads
            # as a signature (as CPython's utf-8-sig does for U+FEFF)
            assert oracle.tokens(oracle.encode(cps))[0][0] == "signature"
            return
    else:
        with pytest.raises(ValueError):
            oracle.encode(cps, signature=True)
    if name == "mutf-8" and combine_pairs(cps) != cps:
        # a lead surrogate then a trail one would read back as one code point: refused
        # (wtf-8.txt 4.1, as potentially ill-formed UTF-16 does), where WTF-8 joins them
        with pytest.raises(ValueError, match="surrogate code point pair"):
            oracle.encode(cps)
        return
    encoded = oracle.encode(cps)
    toks = oracle.tokens(encoded)
    assert_covers(toks, encoded)
    assert all(t[0] == "char" for t in toks)
    assert [t[3] for t in toks] == expect(cps)


@pytest.mark.parametrize("name", sorted(SPECS))
@settings(max_examples=examples(300))
@given(data=byte_strings)
def test_tokens_cover_input_and_chars_reencode(name, data):
    """Token contract: tokens cover the input in order; each char token is
    the encoding of its code point (shortest form / bijective tables)."""
    oracle = SPECS[name][0]
    toks = oracle.tokens(data)
    assert_covers(toks, data)
    for kind, start, end, value in toks:
        if kind == "char":
            assert oracle.encode([value]) == data[start:end]
        if kind == "signature":
            assert start == 0
        if kind == "reserved":
            assert name == "corrected-utf-8" and data[start] in (0xFE, 0xFF)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_encode_error_names_index_and_code_point(name):
    """Project API: ValueError naming the index and the code point."""
    oracle, top, _ok, _expect = SPECS[name]
    with pytest.raises(ValueError) as info:
        oracle.encode([0x41, 0x42, top + 1])
    assert "index 2" in str(info.value) and f"U+{top + 1:04X}" in str(info.value)
