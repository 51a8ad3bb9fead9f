"""The seeds' worked examples, run through the generated modules."""
from __future__ import annotations

import re

import pytest

import encspec
import encspec.spec.registry
from conftest import excerpt


def utf_inf_8_examples():
    """Section 4 of utf-inf-8.txt, parsed from its excerpt (tests/data): (code point, bytes)."""
    section = excerpt("utf-inf-8-examples.txt")
    found = []
    for m in re.finditer(r"U\+([0-9A-F]+)\s*=\s*((?:[0-9A-F]{2}(?:\s+|$))+)", section):
        found.append((int(m.group(1), 16), bytes.fromhex(m.group(2))))
    # The last example abbreviates both sides; expanded as its own text says:
    # "U+A...(one hundred A's omitted)...A = FF B4 A5 A4 AA ... (sixty-six AA's omitted) ... AA"
    assert "one hundred A's omitted" in section and "sixty-six AA's omitted" in section
    found.append((int("A" * 102, 16), bytes.fromhex("FFB4A5A4") + b"\xaa" * 68))
    return found


def test_all_seventeen_utf_inf_8_examples_both_directions():
    m = encspec.load("utf-inf-8")
    examples = utf_inf_8_examples()
    assert len(examples) == 17
    for cp, data in examples:
        assert m.encode([cp]) == data, hex(cp)
        assert list(m.tokens(data)) == [("char", 0, len(data), cp)], hex(cp)
        assert m.decode_codepoints(data) == [cp]


def test_utf_inf_8_prose_discrepancy_is_noted():
    """The 51-A example's prose says 34 bytes; its bytes (and the rules) give 38."""
    cp = int("A" * 51, 16)
    assert len(encspec.load("utf-inf-8").encode([cp])) == 38
    assert "thirty-four bytes" in excerpt("utf-inf-8-examples.txt")
    assert "38" in (encspec.spec.registry.specs_dir() / "utf-inf-8.encspec").read_text()


@pytest.mark.parametrize("data, span", [
    ("FF B4 A0 A1", (0, 2)),      # A0 cannot be the first of two length digits (3.5.5)
    ("FF A0 80 80", (0, 2)),      # NUD = 18 needs a first digit of 8..F: U+8000… is the first 14-byte code
    ("FF A1 80 80", (0, 3)),      # NUD = 19 leaves one zero nybble of padding, then a non-zero digit
    ("FF 80 80 80 80 80 80", (0, 6)),  # a 13-byte code below U+1000000000 is overlong: 6th byte decides
    ("FE 81", (0, 1)),            # U+40000000 fits in 6 bytes: FE 81 is overlong at once
])
def test_utf_inf_8_error_spans_are_maximal_subparts(data, span):
    m = encspec.load("utf-inf-8")
    first = next(m.tokens(bytes.fromhex(data) + b"!"))
    assert first[0] == "error" and first[1:3] == span


def test_corrected_utf_8_c0_af_is_u00cf():
    """corrected-utf-8.txt, "Eliminating overlength encodings": C0 AF is U+00CF (Ï)."""
    assert encspec.load("corrected-utf-8").decode(b"\xc0\xaf") == "\u00cf"


def test_magic_number_in_corrected_utf_8_and_in_utf_8():
    """corrected-utf-8.txt: the magic number is U+10E7D U+ED4E U+0000 U+000A in Corrected
    UTF-8 and U+FDDD U+DCAE U+0000 U+000A in traditional (generalized) UTF-8."""
    magic = bytes.fromhex("EFB79DEDB2AE000A")
    assert "EF B7 9D ED B2 AE 00 0A" in excerpt("corrected-utf-8-table.txt")
    cutf8 = encspec.load("corrected-utf-8")
    assert list(cutf8.tokens(magic)) == [("signature", 0, 8, None)]
    assert cutf8.decode_codepoints(b"x" + magic) == [0x78, 0x10E7D, 0xED4E, 0, 0x0A]
    assert cutf8.decode(magic + b"x") == "x"
    assert cutf8.encode([0x10E7D, 0xED4E, 0, 0x0A]) == magic
    utf8 = encspec.load("utf-8")
    assert utf8.decode(magic, "surrogatepass") == "\ufddd\udcae\x00\n" == magic.decode("utf-8", "surrogatepass")
    assert encspec.load("wtf-8").decode_codepoints(magic) == [0xFDDD, 0xDCAE, 0, 0x0A]
    with pytest.raises(UnicodeDecodeError) as e:
        utf8.decode(magic)
    assert (e.value.start, e.value.end, e.value.reason) == (3, 4, "invalid continuation byte")


def test_corrected_utf_8_sig_codec_writes_the_magic_number():
    encspec.register()
    magic = bytes.fromhex("EFB79DEDB2AE000A")
    assert "Ï\n".encode("corrected-utf-8-sig") == magic + b"\xc0\xaf\n"
    assert (magic + b"\xc0\xaf").decode("corrected-utf-8-sig") == "Ï"
    assert "Ï".encode("corrected-utf-8") == b"\xc0\xaf"


def test_utf_8_bom_matches_cpython_utf_8_sig_on_decode():
    m = encspec.load("utf-8-bom")
    for data in [b"\xef\xbb\xbfabc", b"abc\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xef\xbb", b""]:
        assert m.decode(data, "replace") == data.decode("utf-8-sig", "replace")


def test_wtf_8_surrogate_pair_byte_sequence_is_one_error():
    """wtf-8.txt 6: a surrogate pair byte sequence is ill-formed (one 6-byte error, our decision)."""
    m = encspec.load("wtf-8")
    data = bytes.fromhex("EDA080EDB080")
    assert list(m.tokens(data)) == [("error", 0, 6, None)]
    assert m.first_error(data) == (0, 6, "surrogate pair byte sequence")
    assert list(m.tokens(data[:5])) == [("char", 0, 3, 0xD800), ("error", 3, 5, None)]
    assert m.encode([0xD800, 0xDC00]) == bytes.fromhex("F0908080")  # 6.1


def test_corrected_utf_8_lint_reports_the_documents_rules(tmp_path):
    """corrected-utf-8.txt, "Other legacy control characters"."""
    m = encspec.load("corrected-utf-8")
    doc = m.encode("a\x00b\r\nc\u2028\u2029\x07\nend")
    assert m.lint(doc) == [
        ("warning", 0, 1, 1, "the file does not begin with the magic number"),
        ("error", 1, 1, 2, "U+0000 must not appear outside the magic number"),
        ("warning", 3, 1, 4, "U+000D (CR) should not appear: lines end with U+000A alone"),
        ("warning", 6, 2, 2, "U+2028 (LINE SEPARATOR) should not appear"),
        ("warning", 9, 2, 3, "U+2029 (PARAGRAPH SEPARATOR) should not appear"),
        ("warning", 12, 2, 4, "C0 control character should not appear"),
        ("warning", 16, 3, 3, "the last character is not U+000A (LF)"),
    ]
    assert m.lint(m.encode("fine\n", signature=True)) == []
    # the magic number's U+0000 is not text: no error; elsewhere it is one
    assert [f[0] for f in m.lint(m.encode("x\n", signature=True) + m.encode("\x00\n"))] == ["error"]
