"""The spec language's mapping tables, error spans and encoder entries (issue 18).

Every expected value is written by hand from a small table this file writes
itself (so what each pointer means is known by construction), or from the
WHATWG Encoding Standard's text (encoding.bs: the Shift_JIS decoder's
"restore byte to ioQueue", index gb18030 ranges' limits).
"""
import pytest

from encspec.automaton import compile_spec
from encspec.runtime import tables
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_file

# pointer = lead digit * 4 + trail digit; leads 81..82, trails 41..42 and A1..A2
INDEX = """\
# a toy index in the WHATWG format: pointer TAB code point TAB anything
0\t0x4E00\t一
1\t0x4E01
3\t0x4E03
4\t0x4E00\tthe same code point again
7\t0x3042
"""

SPEC = """\
encoding toy
code-space U+0000..U+10FFFF
{span}
table toy "toy.txt"{table_options}
alphabet trail = 41..42, A1..A2
form ascii:  00..7F
form double: 81..82 trail table toy
reason unmapped "not in the toy table"
{extra}
"""


def bound(tmp_path, span="", table_options="", extra="", index=INDEX):
    (tmp_path / "toy.txt").write_text(index, "utf-8")
    spec = tmp_path / "toy.encspec"
    spec.write_text(SPEC.format(span=span, table_options=table_options, extra=extra), "utf-8")
    return tables.bind(compile_spec(parse_file(spec)))


def toks(m, hexdata):
    return [(k, s, e, v, r) for k, s, e, v, r in m._tokens(bytes.fromhex(hexdata))]


def test_a_table_form_looks_its_pointer_up(tmp_path):
    m = bound(tmp_path)
    assert toks(m, "8141 8142 81A2 82A2") == [
        ("char", 0, 2, 0x4E00, None), ("char", 2, 4, 0x4E01, None), ("char", 4, 6, 0x4E03, None),
        ("char", 6, 8, 0x3042, None)]
    assert m.decode(bytes.fromhex("8141 41 8241")) == "\u4e00A\u4e00"


@pytest.mark.parametrize("span, cases", [
    # maximal subpart: an unmapped pointer is an error of its whole sequence; a bad trail
    # ends the error before it
    ("", {"81A1": [("error", 0, 2, None, "not in the toy table")],
          "8120": [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0x20, None)],
          "81FF": [("error", 0, 1, None, "invalid continuation byte"), ("error", 1, 2, None, "invalid start byte")]}),
    # one unit (CPython's CJK codecs): every error is one byte
    ("error-span one-unit", {
        "81A1": [("error", 0, 1, None, "not in the toy table"), ("error", 1, 2, None, "invalid start byte")],
        "8120": [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0x20, None)]}),
    # WHATWG: the failing byte joins the error unless it is an ASCII byte (restored)
    ("error-span through-failing-byte restore 00..7F", {
        "81A1": [("error", 0, 2, None, "not in the toy table")],
        "8142": [("char", 0, 2, 0x4E01, None)],
        "8241": [("char", 0, 2, 0x4E00, None)],
        "8141 8241": [("char", 0, 2, 0x4E00, None), ("char", 2, 4, 0x4E00, None)],
        "81FF": [("error", 0, 2, None, "invalid continuation byte")],
        "8120": [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0x20, None)]}),
])
def test_error_spans(tmp_path, span, cases):
    m = bound(tmp_path, span=span)
    for data, want in cases.items():
        assert toks(m, data) == want, data


def test_an_unmapped_pointer_with_an_ascii_trail_leaves_the_trail(tmp_path):
    index = INDEX.replace("1\t0x4E01\n", "")  # pointer 1 is 81 42: unmapped, its trail is ASCII
    m = bound(tmp_path, span="error-span through-failing-byte restore 00..7F", index=index)
    assert toks(m, "8142") == [("error", 0, 1, None, "not in the toy table"), ("char", 1, 2, 0x42, None)]


def test_data_ending_inside_a_sequence_is_one_error_to_the_end(tmp_path):
    for span in ("", "error-span one-unit", "error-span through-failing-byte restore 00..7F"):
        m = bound(tmp_path, span=span)
        assert toks(m, "41 81") == [("char", 0, 1, 0x41, None), ("error", 1, 2, None, "unexpected end of data")]


def test_the_encoder_writes_the_first_pointer_and_the_spec_entries_first(tmp_path):
    m = bound(tmp_path, extra="encode U+00A5 as 5C\nunencodable U+3042")
    assert m.encode("\u4e00\u4e01") == bytes.fromhex("8141 8142")   # U+4E00: pointer 0 before 4
    assert m.encode("\xa5") == b"\\"                                 # an encoder-only entry
    with pytest.raises(UnicodeEncodeError) as e:
        m.encode("A\u3042")
    assert (e.value.start, e.value.end) == (1, 2)


def test_encode_skip_and_encode_last_choose_the_pointer(tmp_path):
    assert bound(tmp_path, table_options=" encode-skip 0..0").encode("\u4e00") == bytes.fromhex("8241")
    assert bound(tmp_path, table_options=" encode-last U+4E00").encode("\u4e00") == bytes.fromhex("8241")
    m = bound(tmp_path, table_options=" encode-skip 7..7")
    with pytest.raises(UnicodeEncodeError):
        m.encode("\u3042")
    assert m.decode(bytes.fromhex("82A2")) == "\u3042"  # decode-only, not gone


def test_with_adds_entries_ranges_and_several_code_points(tmp_path):
    m = bound(tmp_path, table_options=" with 2 = U+00CA U+0304, 5..6 = U+E000")
    assert toks(m, "81A1") == [("char", 0, 2, (0xCA, 0x304), None)]
    assert m.decode(bytes.fromhex("81A1 8242 82A1")) == "\xca\u0304\ue000\ue001"
    assert m.decode_codepoints(bytes.fromhex("81A1")) == [0xCA, 0x304]
    assert m.encode("\ue001") == bytes.fromhex("82A1")
    assert m.encode("\xca\u0304") == bytes.fromhex("81A1")  # a sequence is written as one (issue 30)
    assert bound(tmp_path, table_options=" with 2 = U+00CA U+0304 encode-skip 2").encode(
        "\xca\u0304", "replace") == b"??"  # ... unless encode-skip keeps it decode-only


def test_a_ranges_table_runs_to_the_next_pointer_or_code_point(tmp_path):
    (tmp_path / "ranges.txt").write_text("0\t0x0080\n10\t0x0100\n12\t0x0090\n", "utf-8")
    spec = tmp_path / "r.encspec"
    spec.write_text("encoding r\ncode-space U+0000..U+10FFFF\n"
                    "table r \"ranges.txt\" ranges with 5 = U+E7C7\n"
                    "form four: 81 30..39 30..39 table r\n", "utf-8")
    a = compile_spec(parse_file(spec))
    t = a.tables[0]
    # run 0: pointers 0..9 (the next entry's pointer); run 10: 10..11 (the next code point is
    # lower, so only its pointer ends the run); run 12: up to U+10FFFF
    assert [t.lookup(p) for p in (0, 4, 5, 9, 10, 11, 12, 13)] == [0x80, 0x84, 0xE7C7, 0x89, 0x100, 0x101,
                                                                   0x90, 0x91]
    m = tables.bind(a)
    assert toks(m, "81 30 35") == [("char", 0, 3, 0xE7C7, None)]
    assert m.encode("\ue7c7\x89") == bytes.fromhex("813035 813039")
    assert t.lookup(12 + 0x10FFFF - 0x90) == 0x10FFFF and t.lookup(12 + 0x10FFFF - 0x90 + 1) is None


def test_a_ranges_run_ends_before_the_next_runs_code_point(tmp_path):
    # index gb18030 ranges: 39394 -> U+FFE6, then 189000 -> U+10000, so 39420..188999 have none
    (tmp_path / "ranges.txt").write_text("39394\t0xFFE6\n189000\t0x10000\n", "utf-8")
    spec = tmp_path / "r.encspec"
    spec.write_text("encoding r\ncode-space U+0000..U+10FFFF\ntable r \"ranges.txt\" ranges\n"
                    "form four: 81..FE 30..39 81..FE 30..39 table r\n", "utf-8")
    t = compile_spec(parse_file(spec)).tables[0]
    assert (t.lookup(39419), t.lookup(39420), t.lookup(188999), t.lookup(189000)) == (0xFFFF, None, None, 0x10000)
    assert (t.lookup(1237575), t.lookup(1237576)) == (0x10FFFF, None)


def test_encode_file(tmp_path):
    (tmp_path / "enc.txt").write_text("# code point TAB bytes\n0x00A5\t0x5C\n0x4E01\t-\n", "utf-8")
    m = bound(tmp_path, extra='encode-file "enc.txt"')
    assert m.encode("\xa5") == b"\\"
    with pytest.raises(UnicodeEncodeError):
        m.encode("\u4e01")


# ---------------------------------------------------- located spec errors
def spec_error(tmp_path, text, files=None):
    for name, body in (files or {"toy.txt": INDEX}).items():
        (tmp_path / name).write_text(body, "utf-8")
    spec = tmp_path / "t.encspec"
    spec.write_text(text, "utf-8")
    with pytest.raises(SpecError) as got:
        compile_spec(parse_file(spec))
    return got.value


HEAD = "encoding x\ncode-space U+0000..\n"


@pytest.mark.parametrize("text, files, line, col, message", [
    (HEAD + 'table t "missing.txt"\nform d: 81 41 table t\n', None, 3, 9, "no such table file 'missing.txt'"),
    (HEAD + 'table t "toy.txt"\nform d: 81 41 table u\n', None, 4, 21,
     "unknown table 'u' (define it with a 'table' statement)"),
    (HEAD + 'table t "toy.txt"\ntable t "toy.txt"\nform d: 81 41 table t\n', None, 4, 7,
     "table 't' is defined twice"),
    (HEAD + 'table t "toy.txt"\nform d: 81 41 table t at U+0100\n', None, 4, 26,
     "'at' makes no sense on a table form: the table gives its code points"),
    (HEAD + 'error-span one-unit restore 00..7F\nform 1: 00..7F\n', None, 3, 12,
     "'restore' goes with 'error-span through-failing-byte' (the other spans never take the failing byte)"),
    (HEAD + 'form 1: 00..7F\nencode U+00A5 as 5C\nunencodable U+00A5\n', None, 5, 13,
     "U+00A5 is given to the encoder twice (first at line 4)"),
    (HEAD + 'table t "toy.txt" with 3..2 = U+0041\nform d: 81 41 table t\n', None, 3, 24,
     "empty pointer range 3..2"),
])
def test_bad_table_specs_are_located(tmp_path, text, files, line, col, message):
    e = spec_error(tmp_path, text, files)
    assert (e.loc.line, e.loc.column) == (line, col)
    assert e.message.startswith(message), e.message


def test_builtin_table_specs_cite_their_tables():
    """Every built-in table spec names its source and reads a table shipped beside it."""
    from encspec.spec import registry
    found = 0
    for name in registry.builtin_names():
        spec = parse_file(registry.find_builtin(name))
        for t in spec.tables:
            found += 1
            assert spec.source and t.path.startswith("tables/"), (name, t.path)
    assert found >= 6
