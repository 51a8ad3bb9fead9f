"""Table files are read strictly (issue 34, item 3): one file per mistake, each
located at its line and column in that file with the exact message and a caret;
what no form reaches is a warning with ``file:line`` wherever the spec is loaded
(``encspec check``, ``encspec build``, ``encspec.load``).

The files are written here by hand, so where each mistake is is known by construction.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import encspec
from conftest import assert_located_in_file, run_cli
from encspec.codec import SpecFileWarning
from encspec.spec.diagnostics import SpecError, TableFileError
from encspec.spec.parse import parse_file

# pointer = lead digit * 4 + trail digit: leads 81..82, trails 41..42 and A1..A2, pointers 0..7
SPEC = """\
encoding toy
code-space U+0000..U+10FFFF
table toy "toy.txt"{options}
alphabet trail = 41..42, A1..A2
form ascii:  00..7F
form double: 81..82 trail table toy
{extra}"""
GOOD = "# pointer TAB code point\n0\t0x4E00\t一\n1\t0x4E01\n7\t0x3042\n"


def write(folder: Path, index: str | bytes = GOOD, options: str = "", extra: str = "",
          files: dict[str, str] | None = None) -> Path:
    data = index.encode("utf-8") if isinstance(index, str) else index
    (folder / "toy.txt").write_bytes(data)
    for name, body in (files or {}).items():
        (folder / name).write_text(body, "utf-8")
    spec = folder / "toy.encspec"
    spec.write_text(SPEC.format(options=options, extra=extra), "utf-8")
    return spec


def table_error(folder: Path, **kw) -> SpecError:
    spec = write(folder, **kw)
    with pytest.raises(SpecError) as got:
        parse_file(spec)
    return got.value


INDEX_MISTAKES = [
    # (file, line, column, message)
    ("0\t0x4E00\n\u0661\u0662\t0x41\n", 2, 1,
     "pointer '\u0661\u0662' is not a decimal number (ASCII digits 0-9)"),          # Arabic-Indic digits
    ("0\t0x4E00\n\uff13\t0x41\n", 2, 1, "pointer '\uff13' is not a decimal number (ASCII digits 0-9)"),
    ("1_0\t0x41\n", 1, 1, "pointer '1_0' is not a decimal number (ASCII digits 0-9)"),   # int() takes it
    ("+1\t0x41\n", 1, 1, "pointer '+1' is not a decimal number (ASCII digits 0-9)"),
    ("\u00a01\t0x41\n", 1, 1, "pointer '\\xa01' is not a decimal number (ASCII digits 0-9)"),  # no-break space
    ("x\t0x41\n", 1, 1, "pointer 'x' is not a decimal number (ASCII digits 0-9)"),
    ("1\t0x\uff14\uff11\n", 1, 3, "code point '0x\uff14\uff11' is not a hexadecimal number (0x and ASCII hex digits)"),
    ("1\t0x4_1\n", 1, 3, "code point '0x4_1' is not a hexadecimal number (0x and ASCII hex digits)"),
    ("1\t41\n", 1, 3, "code point '41' is not a hexadecimal number (0x and ASCII hex digits)"),
    ("1\t  0xD800  \tlone surrogate\n", 1, 5, "code point 0xD800 is a surrogate, not a Unicode scalar value"),
    ("1\t0xDFFF\n", 1, 3, "code point 0xDFFF is a surrogate, not a Unicode scalar value"),
    ("1\t0x110000\n", 1, 3, "code point 0x110000 is beyond U+10FFFF"),
    ("16777216\t0x41\n", 1, 1, "pointer 16777216 is beyond a table's limit (16777215)"),
    ("0\t0x41\n# a comment\n0\t0x42\n", 3, 1, "pointer 0 is given twice (first on line 1)"),
    ("0 0x41\n", 1, 1, "expected a pointer, a TAB and a code point"),
    ("  # an indented comment is no comment\n", 1, 3, "expected a pointer, a TAB and a code point"),
    # a sequence of code points (issue 30): each checked at its own column
    ("2\t0x00CA  0x0304\n", 1, 10,
     "expected a code point after a space (code points of a sequence are separated by one space)"),
    ("2\t0x00CA 0xD800\n", 1, 10, "code point 0xD800 is a surrogate, not a Unicode scalar value"),
    ("2\t0x00CA 0x0304 0x110000\n", 1, 17, "code point 0x110000 is beyond U+10FFFF"),
    ("2\t0x00CA U+0304\n", 1, 10, "code point 'U+0304' is not a hexadecimal number (0x and ASCII hex digits)"),
]


@pytest.mark.parametrize("index, line, column, message", INDEX_MISTAKES)
def test_a_mistake_in_an_index_file_is_located_in_it(tmp_path, index, line, column, message):
    assert_located_in_file(table_error(tmp_path, index=index), tmp_path / "toy.txt", index, line, column, message)


def test_a_table_file_that_is_not_utf8_is_located_at_the_byte(tmp_path):
    e = table_error(tmp_path, index=b"0\t0x41\n1\t0x42 \xff\n")
    assert (e.path, e.loc.line, e.loc.column) == (str(tmp_path / "toy.txt"), 2, 8)
    assert e.message == "byte FF is not valid UTF-8 (a table file is UTF-8 text)"


def test_a_table_file_without_entries_is_an_error_at_the_statement(tmp_path):
    e = table_error(tmp_path, index="# nothing\n\n")
    assert (e.path, e.loc.line, e.loc.column) == (str(tmp_path / "toy.encspec"), 3, 11)
    assert e.message == "table file 'toy.txt' has no entries"


ENCODE_MISTAKES = [
    ("0x00A5\t0x5C\n0x\u0664\u0661\t0x41\n", 2, 1,
     "code point '0x\u0664\u0661' is not a hexadecimal number (0x and ASCII hex digits)"),
    ("0xD83D\t0x41\n", 1, 1, "code point 0xD83D is a surrogate, not a Unicode scalar value"),
    ("0x00A5\t0x5\n", 1, 8, "bytes '0x5' are not 0x and an even number of ASCII hex digits"),
    ("0x00A5\t0x5C 5D\n", 1, 8, "bytes '0x5C 5D' are not 0x and an even number of ASCII hex digits"),
    ("0x00A5\t0x\uff15C\n", 1, 8, "bytes '0x\uff15C' are not 0x and an even number of ASCII hex digits"),
    ("0x00A5\t0x5C\n0x00A5\t-\n", 2, 1, "U+00A5 is given twice (first on line 1)"),
    ("0x00A5\n", 1, 1, "expected a code point, a TAB and bytes (0x…) or -"),
    # a sequence of code points (issue 30): written, never refused; given once
    ("0x00CA 0x0304\t-\n", 1, 15,
     "a sequence cannot be refused ('-'): leave out a sequence the encoder does not write"),
    ("0x00CA 0x0304\t0x8862\n0x00CA 0x0304\t0x8863\n", 2, 1, "U+00CA U+0304 is given twice (first on line 1)"),
    ("0x00CA 0xDC00\t0x8862\n", 1, 8, "code point 0xDC00 is a surrogate, not a Unicode scalar value"),
]


@pytest.mark.parametrize("body, line, column, message", ENCODE_MISTAKES)
def test_a_mistake_in_an_encoder_file_is_located_in_it(tmp_path, body, line, column, message):
    e = table_error(tmp_path, extra='encode-file "enc.txt"\n', files={"enc.txt": body})
    assert isinstance(e, TableFileError)
    assert (e.path, e.loc.line, e.loc.column, e.message) == (str(tmp_path / "enc.txt"), line, column, message)


def test_a_good_table_file_gives_no_warning(tmp_path):
    assert parse_file(write(tmp_path)).warnings == ()


UNREACHABLE = "0\t0x4E00\n# pointers 8 and up: no form reaches them\n8\t0x41\n9\t0x42\n7\t0x3042\n12\t0x43\n"
UNREACHABLE_WARNING = ("pointer 8 is unreachable: form 'double' of table 'toy' reach pointers 0..7; so are 2 more "
                       "entries, the last on line 6")


def test_pointers_no_form_reaches_are_one_warning_at_the_first(tmp_path):
    spec = parse_file(write(tmp_path, index=UNREACHABLE))
    [w] = spec.warnings
    assert (w.path, w.loc.line, w.loc.column, w.message) == (str(tmp_path / "toy.txt"), 3, 1, UNREACHABLE_WARNING)
    assert w.render() == f"{tmp_path / 'toy.txt'}:3:1: warning: {UNREACHABLE_WARNING}\n    8 0x41\n    ^"


def test_a_table_no_form_reads_is_a_warning_at_its_statement(tmp_path):
    spec = write(tmp_path, options='\ntable spare "spare.txt"', files={"spare.txt": "0\t0x41\n1\t0x42\n"})
    [w] = parse_file(spec).warnings
    assert (w.path, w.loc.line, w.loc.column) == (str(spec), 4, 1)
    assert w.message == "table 'spare' is read by no form: none of its 2 entries is reachable"


def test_unreachable_says_the_pointers_are_known_to_be_beyond_the_forms(tmp_path):
    assert parse_file(write(tmp_path, index=UNREACHABLE, options=" unreachable 8..12")).warnings == ()
    [w] = parse_file(write(tmp_path, index=UNREACHABLE, options=" unreachable 8..9")).warnings
    assert (w.loc.line, w.message) == (6, ("pointer 12 is unreachable: form 'double' of table 'toy' reach "
                                           "pointers 0..7"))


def test_unreachable_over_pointers_a_form_reaches_is_an_error(tmp_path):
    e = table_error(tmp_path, index=UNREACHABLE, options=" unreachable 7..12")
    assert (e.path, e.loc.line, e.loc.column) == (str(tmp_path / "toy.encspec"), 3, 33)
    assert e.message == "pointer 7 is not unreachable: the forms of table 'toy' reach pointers 0..7"


def test_warnings_are_shown_by_check_and_build(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, index=UNREACHABLE)
    expected = f"toy.txt:3:1: warning: {UNREACHABLE_WARNING}\n    8 0x41\n    ^\n"
    rc, out, err = run_cli(capsys, "check", "toy.encspec")
    assert rc == 0 and err == expected and out
    rc, out, err = run_cli(capsys, "describe", "toy.encspec")
    assert rc == 0 and err == expected
    rc, out, err = run_cli(capsys, "build", "toy.encspec", "-o", tmp_path / "out")
    assert rc == 0 and err == expected and "wrote" in out


def test_errors_are_shown_by_the_cli_located_in_the_table_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, index="0\t0x4E00\n\u0661\t0x41\n")
    rc, out, err = run_cli(capsys, "check", "toy.encspec")
    assert (rc, out) == (2, "")
    assert err == ("toy.txt:2:1: pointer '\u0661' is not a decimal number (ASCII digits 0-9)\n"
                   "    \u0661 0x41\n    ^\n")


def test_load_warns_once_with_the_location(tmp_path):
    spec = write(tmp_path, index=UNREACHABLE + "# this spec only\n")
    with pytest.warns(SpecFileWarning) as got:
        m = encspec.load(str(spec), backend="python")
    assert len(got) == 1 and f"toy.txt:3:1: warning: {UNREACHABLE_WARNING}" in str(got[0].message)
    assert m.decode(b"\x81\x41") == "\u4e00"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert encspec.load(str(spec), backend="python") is m  # once: the spec is cached
