"""The spec language's code units, byte order, digit order, `max` and `end` (issue 17).

Expected values are written out by hand: UTF-16 from the Unicode Standard's
definition (3.9 D91: a supplementary code point is D800 + (v >> 10), DC00 +
(v & 0x3FF) with v = cp - 0x10000), LEB128's worked example from DWARF 5,
section 7.6 (Figure C.2: 624485 is E5 8E 26), CPython's UTF-16 error spans as
its codec reports them (checked against CPython itself in
tests/test_oracles_units.py).
"""
import pytest

from encspec.automaton import compile_spec
from encspec.runtime import tables
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_text

UTF16BE = """\
encoding utf-16be-test
code-unit  16 big-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form bmp:  xxxxxxxxxxxxxxxx
form pair: 110110xxxxxxxxxx 110111xxxxxxxxxx at U+10000
reason invalid-start        "illegal encoding"
reason invalid-continuation "illegal UTF-16 surrogate"
"""


def bound(text):
    return tables.bind(compile_spec(parse_text(text, "t.encspec")))


def toks(m, hexdata):
    return [(k, s, e, v, r) for k, s, e, v, r in m._tokens(bytes.fromhex(hexdata))]


def spec_error(text):
    with pytest.raises(SpecError) as got:
        compile_spec(parse_text(text, "t.encspec"))
    return got.value


# ------------------------------------------------------------- code units
def test_utf16be_errors_count_whole_units():
    m = bound(UTF16BE)
    assert toks(m, "DC00 0041") == [("error", 0, 2, None, "illegal encoding"), ("char", 2, 4, 0x41, None)]
    assert toks(m, "D800 0041") == [("error", 0, 2, None, "illegal UTF-16 surrogate"), ("char", 2, 4, 0x41, None)]
    # the data ends after a lead unit and one byte: one error to the end (the byte is never judged)
    assert toks(m, "D800 41") == [("error", 0, 3, None, "unexpected end of data")]
    assert toks(m, "0041 00") == [("char", 0, 2, 0x41, None), ("error", 2, 3, None, "truncated data")]
    # U+1F600: v = 0xF600, lead D800 + 0x3D = D83D, trail DC00 + 0x200 = DE00
    assert toks(m, "D83D DE00") == [("char", 0, 4, 0x1F600, None)]


def test_little_endian_units_swap_the_bytes_of_each_unit():
    m = bound(UTF16BE.replace("big-endian", "little-endian"))
    assert toks(m, "3DD8 00DE 4100") == [("char", 0, 4, 0x1F600, None), ("char", 4, 6, 0x41, None)]
    assert toks(m, "00DC") == [("error", 0, 2, None, "illegal encoding")]
    assert m.encode("\U0001F600A") == bytes.fromhex("3DD8 00DE 4100")


def test_a_signature_can_choose_the_byte_order():
    m = bound(UTF16BE.replace("big-endian", "little-endian") + "signature FF FE\nsignature FE FF big-endian\n")
    assert toks(m, "FEFF 0041") == [("signature", 0, 2, None, None), ("char", 2, 4, 0x41, None)]
    assert toks(m, "FFFE 4100") == [("signature", 0, 2, None, None), ("char", 2, 4, 0x41, None)]
    assert toks(m, "4100 FEFF") == [("char", 0, 2, 0x41, None), ("char", 2, 4, 0xFFFE, None)]
    assert m.decode(bytes.fromhex("FEFF D83D DE00")) == "\U0001F600"
    # an incremental decoder waits for the whole signature, then keeps its byte order
    d = m.IncrementalDecoder()
    assert [d.decode(b"\xfe"), d.decode(b"\xff\x00"), d.decode(b"\x41\xd8\x3d"), d.decode(b"\xde\x00", True)] \
        == ["", "", "A", "\U0001F600"]


def test_32_bit_units_and_ill_formed_unit_patterns():
    m = bound("""\
encoding utf-32be-test
code-unit  32 big-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form 1: 00000000..0010FFFF
ill-formed pattern surrogate: 0000D800..0000DFFF "surrogate"
ill-formed pattern beyond: 00110000..00FFFFFF "beyond"
""")
    assert toks(m, "0010FFFF 0000D800 00110000 FF000000 0000") == [
        ("char", 0, 4, 0x10FFFF, None), ("error", 4, 8, None, "surrogate"), ("error", 8, 12, None, "beyond"),
        ("error", 12, 16, None, "invalid start byte"), ("error", 16, 18, None, "truncated data")]


# ------------------------------------------------------------ digit order
LEB = """\
encoding leb-test
code-space U+0000..U+FFFFFFFF
form 1: 0xxxxxxx
form 2: 1xxxxxxx 0xxxxxxx         little-endian  min U+80
form 3: 1xxxxxxx{2} 0xxxxxxx      little-endian  min U+4000
"""


def test_little_endian_digits_leb128():
    m = bound(LEB)
    assert toks(m, "E5 8E 26") == [("char", 0, 3, 624485, None)]  # DWARF 5, 7.6
    assert m.encode([624485, 127, 128]) == bytes.fromhex("E58E26 7F 8001")
    # min keeps it shortest: a redundant final zero group cannot follow
    assert toks(m, "80 00") == [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0, None)]


def test_max_is_the_counterpart_of_min():
    m = bound("""\
encoding max-test
code-space U+0000..U+10FFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx   min U+0080 max U+00FF
""")
    assert toks(m, "C3 BF") == [("char", 0, 2, 0xFF, None)]
    assert toks(m, "C4 80") == [("error", 0, 1, None, "invalid start byte"),
                                ("error", 1, 2, None, "invalid start byte")]
    assert m.encode("\xff") == bytes.fromhex("C3 BF")


# -------------------------------------------------------------- the end
def test_end_makes_a_pattern_count_only_where_the_data_ends():
    m = bound(UTF16BE + 'ill-formed pattern cut: 110110xxxxxxxxxx end "lone lead at the end"\n')
    assert toks(m, "0041 D800") == [("char", 0, 2, 0x41, None), ("error", 2, 4, None, "lone lead at the end")]
    assert toks(m, "D800 0041") == [("error", 0, 2, None, "illegal UTF-16 surrogate"), ("char", 2, 4, 0x41, None)]
    assert toks(m, "D800 41") == [("error", 0, 3, None, "unexpected end of data")]
    errors = []

    def record(e):
        errors.append((e.start, e.end, e.reason))
        return ("?", e.end)

    import codecs
    codecs.register_error("encspec-test-record", record)
    d = m.IncrementalDecoder("encspec-test-record")
    # D8 00 is held back (more data would make it a pair or another error), then the end decides
    assert [d.decode(bytes.fromhex("0041D8")), d.decode(b"\x00"), d.decode(b"", True)] == ["A", "", "?"]
    assert errors == [(0, 2, "lone lead at the end")]


def test_end_on_a_form():
    m = bound("""\
encoding end-form-test
code-space U+0000..U+00FF
form 1: 0xxxxxxx
form last: FF end = U+00FF
""")
    assert toks(m, "41 FF") == [("char", 0, 1, 0x41, None), ("char", 1, 2, 0xFF, None)]
    # FF starts a sequence (one that needs the end) that 41 cannot continue: a maximal subpart
    assert toks(m, "FF 41") == [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0x41, None)]


# ---------------------------------------------------- located spec errors
@pytest.mark.parametrize("text, line, col, message", [
    ("encoding x\ncode-unit 12 big-endian\ncode-space U+0000..\nform 1: 00..7F\n", 2, 11,
     "a code unit has 8, 16 or 32 bits, not 12"),
    ("encoding x\ncode-unit 16\ncode-space U+0000..\nform 1: 0000..7FFF\n", 2, 11,
     "16-bit code units need a byte order: 'code-unit 16 big-endian' or 'code-unit 16 little-endian'"),
    ("encoding x\ncode-space U+0000..\nform 1: 0000..7FFF\n", 3, 9,
     "a 16-bit code unit in a spec of bytes (declare 'code-unit 16 big-endian' or little-endian)"),
    ("encoding x\ncode-unit 16 big-endian\ncode-space U+0000..\nform 1: 0041..0300\n", 4, 9,
     "units 0041..0300 are not read byte by byte as one range of each byte: split the range where its "
     "leading bytes change (e.g. at 0100)"),
    ("encoding x\ncode-space U+0000..\nform 1: 00..7F\nsignature FE FF big-endian\n", 4, 17,
     "a signature can choose a byte order only in a spec of 16- or 32-bit code units"),
    ("encoding x\ncode-space U+0000..\nform 1: 00..7F\nreason truncated-unit \"x\"\n", 4, 1,
     "'reason truncated-unit' needs code units wider than a byte ('code-unit 16' or 32)"),
    ("encoding x\ncode-space U+0000..\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0800 max U+0080\n", 4, 42,
     "max U+0080 lies below min U+0800"),
    ("encoding x\ncode-space U+0000..\nform 1: 0xxxxxxx packed max U+0040\n", 3, 29,
     "'max' needs a direct form of fixed length"),
])
def test_bad_unit_specs_are_located(text, line, col, message):
    e = spec_error(text)
    assert (e.loc.line, e.loc.column, e.message) == (line, col, message)


# ------------------------------------------------------ what reads the automaton
def test_check_decides_self_synchronisation_over_units():
    from encspec.analyse.properties import check
    a = compile_spec(parse_text(UTF16BE.replace("big-endian", "little-endian"), "t.encspec"))
    report = check(a)
    assert report.properties["self_synchronizing"] and report.properties["prefix_free"]
    assert report.properties["bijective"] and not report.properties["order_preserving"]
    lo, hi = report.counterexamples["order_preserving"]
    m = tables.bind(a)
    (x,), (y,) = m.decode_codepoints(lo), m.decode_codepoints(hi)
    assert x < y and lo > hi  # the lower code point's bytes sort after


def test_diff_utf16le_wtf16_is_exactly_the_unpaired_surrogates(capsys):
    from encspec.cli import main
    assert main(["diff", "utf-16le", "wtf-16"]) == 1  # they differ, as diff(1) says
    assert capsys.readouterr().out == (
        "valid only in utf-16le: 0 patterns\n"
        "valid only in wtf-16: 1 pattern\n"
        "  00..FF D8..DF   e.g. 00 D8 = U+D800\n"
        "valid in both, decoded differently (utf-16le / wtf-16): 0 patterns\n")
