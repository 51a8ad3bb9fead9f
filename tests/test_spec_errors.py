"""Bad specs: every problem is ``path:line:col: message``, the source line, a caret; exit 2.

Each case is a small spec with one mistake and the report a user should see,
written by hand: the message, and the line and column the caret points at.
The run is in-process (``encspec.cli.main``), so an exception escaping the CLI
fails the test instead of being hidden in a subprocess's stderr.
"""
from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from conftest import examples
from encspec.cli import main
from encspec.spec import registry

HEAD = "encoding bad\ncode-space U+0000..U+10FFFF\n"  # lines 1 and 2 of most cases
UTF8_FORMS = "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080\n"  # lines 3 and 4 after HEAD
COUNTED = "form long: FF B4{n} A0..AF{n+1} as nme 10xxxxxx{(nme + 20) // 3 * 2}\n"


def case(id, text, line, col, message):
    return pytest.param(text, line, col, message, id=id)


CASES = [
    # ---------------------------------------------------------------- syntax
    case("unexpected-token", HEAD + "form 1 0xxxxxxx\n",
         3, 8, "unexpected '0xxxxxxx', expected ':'"),
    case("unexpected-character", HEAD + "form 1: 0xxxxxxx $\n",
         3, 18, "unexpected character '$', expected 'as', 'end', '{', a byte position, a form option, "
                "a statement or end of file"),
    case("unexpected-end-of-file", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min\n# to be continued\n",
         4, 30, "unexpected end of file, expected a code point (U+0080)"),
    case("empty-item-list", HEAD + "form 1:\n",
         3, 8, "unexpected end of file, expected '<', a bit pattern (10xxxxxx), a hex byte (ED), a hex code unit (D800) or a name"),
    case("unterminated-string", 'encoding bad\ntitle "Bad UTF-8\ncode-space U+0000..U+10FFFF\nform 1: 0xxxxxxx\n',
         2, 7, "unterminated string (a string ends on the line it starts)"),
    case("lower-case-hex-byte", HEAD + "form 1: 0xxxxxxx min U+0001\nform nul: c0 80 = U+0000\n",
         4, 11, "unknown alphabet 'c0' (hex bytes are written in capitals: C0)"),
    # ------------------------------------------------------------ statements
    case("missing-encoding", "# a spec without a name\ncode-space U+0000..U+007F\nform 1: 0xxxxxxx\n",
         2, 1, "the spec has no 'encoding NAME' statement"),
    case("statement-twice", HEAD + "encoding other\nform 1: 0xxxxxxx\n",
         3, 1, "'encoding' is given twice (first at line 1)"),
    case("excluded-range-outside-code-space",
         "encoding bad\ncode-space U+0000..U+FFFF\nill-formed U+D800..U+10FFFF\nform 1: 0xxxxxxx\n",
         3, 12, "range U+D800..U+10FFFF reaches outside the code space U+0000..U+FFFF"),
    # ----------------------------------------------------------------- names
    case("unknown-alphabet", HEAD + "form 1: 00..7F\nform 2: C2..DF trail\n",
         4, 16, "unknown alphabet 'trail'"),
    case("unknown-sub-form", HEAD + UTF8_FORMS
         + "form pair: <3 U+D800..U+DBFF> <3 U+DC00..U+DFFF> combine surrogate-pair\n",
         5, 13, "unknown form '3' (a sub-form must be defined earlier)"),
    case("unknown-property", "encoding bad\nclaims prefix-free, bijektive\ncode-space U+0000..U+007F\nform 1: 0xxxxxxx\n",
         2, 21, "unknown property 'bijektive' (known: prefix-free, self-synchronizing, order-preserving, "
                "ascii-compatible, bijective, total)"),
    case("duplicate-form-name", HEAD + "form 1: 0xxxxxxx\nform 1: 110xxxxx 10xxxxxx min U+0080\n",
         4, 6, "form '1' is defined twice"),
    # ----------------------------------------------------------------- bytes
    case("bit-pattern-x-not-low", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxx0 10xxxxxx min U+0080\n",
         4, 9, "bit pattern 110xxxx0: the x bits must be the low-order bits"),
    case("empty-byte-range", HEAD + "form 1: 7F..00\n",
         3, 9, "empty byte range 7F..00"),
    case("repetition-count-zero", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx{0}\n",
         4, 26, "a repetition count must be at least 1"),
    case("count-range-backwards", HEAD + "form 1: 00..7F\nill-formed pattern p: 80 80..BF{3,1} \"bad\"\n",
         4, 32, "a range of counts {3,1} must not end below its start"),
    case("count-range-negative", HEAD + "form 1: 00..7F\nill-formed pattern p: 80 80..BF{1-2,1} \"bad\"\n",
         4, 32, "a range of counts {M,N} starts at 0 or more"),
    case("count-range-huge", HEAD + "form 1: 00..7F\nill-formed pattern p: 80 80..BF{0,65} \"bad\"\n",
         4, 32, "a repetition count must be at most 64"),
    case("count-range-name", HEAD + "form 1: 00..7F\nill-formed pattern p: 80 80..BF{0,n} \"bad\"\n",
         4, 32, "a range of counts {M,N} takes numbers, not names"),
    case("count-range-in-form", HEAD + "form 1: 00..7F\nform 2: 80 80..BF{1,2}\n",
         4, 18, "a range of counts {M,N} is an ill-formed pattern's: a form has one length (write a form per count)"),
    case("count-range-empty-pattern", HEAD + "form 1: 00..7F\nill-formed pattern p: 80..BF{0,2} \"bad\"\n",
         4, 23, "ill-formed pattern 'p' would match no bytes: give one position a count of at least 1"),
    case("count-range-in-shift", HEAD + "mode a\nform 1: 00..7F\nshift s: 1B 28{1,2} -> a\n",
         5, 13, "shift 's': a shift sequence is fixed bytes, one count each (the encoder writes it)"),
    case("count-ranges-multiply", HEAD + "form 1: 00..7F\nill-formed pattern p: 80..BF{0,64} C0..FF{0,64} "
         "80{1,64} \"bad\"\n", 4, 1, "ill-formed pattern 'p' expands to more than 4096 byte patterns (the "
         "sub-forms' ranges or the ranges of counts multiply): split it, or give its sub-forms ranges that are "
         "whole rows"),
    case("repetition-count-huge", HEAD + "form 1: 0xxxxxxx{1000000}\n",
         3, 17, "a repetition count must be at most 64"),
    case("alphabet-out-of-order", "encoding bad\ncode-space U+0000..U+00FF\nalphabet d = 01, 00\n"
         "form 1: 0xxxxxxx\nform 2: 80 d at U+0080\n",
         3, 18, "byte run 00 comes after 01 in alphabet 'd': list the runs in increasing byte order "
                "(alphabet d = 00, 01)"),
    case("alphabet-ranges-out-of-order", HEAD + "alphabet trail = A0..FF, 21..7E\nform 1: 00..7F\n",
         3, 26, "byte run 21..7E comes after A0..FF in alphabet 'trail': list the runs in increasing byte order "
                "(alphabet trail = 21..7E, A0..FF)"),
    case("alphabet-runs-overlap", HEAD + "alphabet d = 00..0F, 05\nform 1: 80..FF d\n",
         3, 22, "byte run 05 overlaps 00..0F in alphabet 'd': list each byte once"),
    # ------------------------------------------------ forms against each other
    case("overlap-with-different-value", HEAD + UTF8_FORMS + "form nul: C2 80 = U+0000\n",
         5, 1, "forms '2' and 'nul' both accept C2 80 with different values"
                ": a byte sequence has one meaning; narrow or remove one of them"),
    case("overlap-same-bytes-other-base", HEAD + "form 1: 00..7F\nform 2: 00..7F at U+0080\n",
         4, 1, "forms '1' and '2' both accept 00 with different values"
                ": a byte sequence has one meaning; narrow or remove one of them"),
    case("shared-prefix-read-differently", HEAD + UTF8_FORMS + "form 3: 11xxxxxx 10xxxxxx 10xxxxxx min U+0800\n",
         5, 1, "forms '2' and '3' both begin with C2 but read it as different digits"),
    case("reserved-byte-starts-a-form", HEAD + UTF8_FORMS + "reserved C2, FF\n",
         5, 1, "reserved lead byte C2 also starts form '2'"),
    case("duplicate-form-other-name", HEAD + "form 1: 0xxxxxxx\nform ascii-again: 00..7F\n",
         4, 1, "forms '1' and 'ascii-again' both accept 00 with the same value"
               ": a byte sequence has one meaning; narrow or remove one of them"),
    case("identical-two-byte-forms", HEAD + UTF8_FORMS + "form again: 110xxxxx 10xxxxxx min U+0080\n",
         5, 1, "forms '2' and 'again' both accept C2 80 with the same value"
               ": a byte sequence has one meaning; narrow or remove one of them"),
    case("form-overlapping-part-of-another", HEAD + UTF8_FORMS + "form cyrillic: 110xxxxx 10xxxxxx min U+0400\n",
         5, 1, "forms '2' and 'cyrillic' both accept D0 80 with the same value"
               ": a byte sequence has one meaning; narrow or remove one of them"),
    case("two-ill-formed-patterns-match-alike",
         HEAD + UTF8_FORMS + 'ill-formed pattern p: C2 80 "no"\nill-formed pattern q: C2 80..81 "no"\n',
         6, 1, "ill-formed patterns 'p' and 'q' both match C2 80: remove or narrow one of them"),
    case("ill-formed-pattern-hides-a-whole-form", HEAD + UTF8_FORMS + 'ill-formed pattern latin: C2..DF 80..BF "no"\n',
         5, 1, "form '2' can never match: ill-formed pattern 'latin' overrides all its sequences "
               "(the first is C2 80); narrow the pattern"),
    case("ill-formed-pattern-named-like-a-form", HEAD + UTF8_FORMS + 'ill-formed pattern 2: C0 80 "overlong"\n',
         5, 20, "'2' already names a form: give this ill-formed pattern a name of its own"),
    # ------------------------------------------------ options against each other
    case("skip-without-packed-forms", HEAD + "skip U+0080..U+009F\n" + UTF8_FORMS,
         3, 6, "'skip' only changes how packed forms number code points, and no form here is packed: "
               "write 'ill-formed U+0080..U+009F' to make these code points ill-formed, or 'numbering packed'"),
    case("at-with-min", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080 at U+0080\n",
         4, 41, "'at U+0080' and 'min U+0080' contradict each other: 'at' counts the form from its code point, "
                "'min' counts it from U+0000 and makes lower values overlong; keep one"),
    case("min-on-a-packed-form", HEAD + "numbering packed\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080\n",
         5, 31, "'min' does nothing on a packed form (packed forms have no overlong sequences): "
                "remove it, or write 'direct' to count the form from U+0000"),
    case("min-on-a-surrogate-pair-form",
         HEAD + "ill-formed U+D800..U+DFFF\n" + UTF8_FORMS + "form 3: 1110xxxx 10xxxxxx{2} min U+0800\n"
         "form pair: <3 U+D800..U+DBFF> <3 U+DC00..U+DFFF> combine surrogate-pair min U+10000\n",
         7, 77, "'min' makes no sense on a surrogate-pair form: its code points follow from the pair's; remove it"),
    case("packed-at-overlaps-an-earlier-form",
         HEAD + "numbering packed\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx at U+0040\n",
         5, 30, "form '2' numbers U+0040 from 'at U+0040', but form '1' already encodes it: "
                "remove 'at' or raise it to U+0080"),
    case("packed-after-a-direct-form", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx packed\n",
         4, 1, "form '2' numbers U+0000, which form '1' already encodes (packed numbering starts after the "
               "previous packed form): give it 'at U+0080'"),
    # -------------------------------------------------------- claimed properties
    case("claimed-bijective-false",
         "encoding bad\nclaims bijective\ncode-space U+0000..U+10FFFF\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx\n",
         2, 8, "claimed property 'bijective' does not hold: 00 and C0 80 both decode to U+0000"),
    case("claimed-self-synchronizing-false",
         "encoding bad\nclaims self-synchronizing\ncode-space U+0000..U+00FF\nform 1: 00..7F\nform 2: 80 00..7F at U+0080\n",
         2, 8, "claimed property 'self-synchronizing' does not hold: 80 00 is valid, "
               "and its tail 00 starts a valid sequence"),
    case("claimed-total-false",
         "encoding bad\nclaims ascii-compatible, total\ncode-space U+0000..U+00FF\nform 1: 0xxxxxxx\n",
         2, 26, "claimed property 'total' does not hold: U+0080 has no encoding"),
    # ------------------------------------------------------------ code space
    case("value-beyond-code-space", "encoding bad\ncode-space U+0000..U+007F\nform 1: 0xxxxxxx\nform 2: C2 80 = U+0080\n",
         4, 1, "form '2' encodes U+0080, beyond the code space U+0000..U+007F"),
    case("surrogate-pairs-beyond-code-space",
         "encoding bad\ncode-space U+0000..U+FFFF\n" + UTF8_FORMS + "form 3: 1110xxxx 10xxxxxx{2} min U+0800\n"
         "form pair: <3 U+D800..U+DBFF> <3 U+DC00..U+DFFF> combine surrogate-pair\n",
         6, 1, "form 'pair' encodes U+10000, beyond the code space U+0000..U+FFFF"),
    # ---------------------------------------------------- forms that never match
    case("never-matches-min-too-high", HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0800\n",
         4, 1, "form '2' can never match: it holds U+0000..U+07FF, all below its min U+0800"),
    case("never-matches-inside-hole",
         "encoding bad\ncode-space U+0000..U+10FFFF\nill-formed U+0080..U+07FF\n" + UTF8_FORMS,
         5, 1, "form '2' can never match: all it holds, U+0080..U+07FF, is ill-formed"),
    case("never-matches-code-space-used-up",
         "encoding bad\ncode-space U+0000..U+007F\nnumbering packed\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx\n",
         5, 1, "form '2' can never match: the forms before it already number the whole code space"),
    # ---------------------------------------------------------- counted forms
    case("count-with-unknown-name", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "form long: FF B4{n} A0..AF{m+1} as nme 10xxxxxx{nme}\n    range 0 .. 2 ** 10 - 1\n",
         4, 28, "unknown name 'm' in a repetition count"),
    case("counted-form-without-range", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n" + COUNTED,
         4, 1, "a counted form needs 'range LOW .. HIGH' bounding its value"),
    case("count-divides-by-zero", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "form long: FF B4{n} A0..AF{n+1} as nme 10xxxxxx{nme // 0}\n    range 0 .. 2 ** 10 - 1\n",
         4, 40, "division by zero in a count (when nme = 0, n = 0)"),
    case("field-count-not-solvable", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "form long: FF B4{n} A0..AF{n*2} as nme 10xxxxxx{nme}\n    range 0 .. 2 ** 10 - 1\n",
         4, 21, "the count of field 'nme' must be a free count plus a number, like {n+1}"),
    case("counted-range-always-empty", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n" + COUNTED
         + "    range 16 ** (nme + 18) .. 16 ** (nme + 17) - 1\n",
         4, 1, "form 'long' can never match: its range is empty at every length (tried nme = 0 .. 15)"),
    # a counted form's range is a range of bit lengths, so no decoder builds a bound
    case("counted-value-radix-not-power-of-two", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "alphabet d = 80..89\nform long: FF B4{n} A0..AF{n+1} as nme d{nme + 1}\n    range 0 .. 2 ** nme - 1\n",
         5, 40, "the value digits of a counted form need a power-of-two radix (2, 4, … 256), not 10: "
                "their range is checked from bit lengths"),
    case("counted-range-low-not-a-power", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n" + COUNTED
         + "    range 10 ** nme .. 16 ** (nme + 1) - 1\n",
         5, 5, "a counted form's range starts at 0 or at a power of two, written P ** E with P a power of two "
               "(so that it is a range of bit lengths)"),
    case("counted-range-high-not-a-power", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n" + COUNTED
         + "    range 0 .. 16 ** (nme + 1) - 2\n",
         5, 5, "a counted form's range ends at a power of two minus one, written P ** E - 1 with P a power of two "
               "(so that it is a range of bit lengths)"),
    case("counted-two-free-counts", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "form long: FE C0{a} D0{b} A0..A9{b + 1} as len shortest 1000xxxx{len // 2 + 3}\n"
         "    range 4 ** (2 * (len // 2 + 2)) .. 16 ** (len // 2 + 3) - 1\n",
         4, 21, "a counted form has at most one free count (the field's count determines it, "
                "so an encoder can write it)"),
    case("counted-lengths-shrink", "encoding bad\ncode-space U+0000..\nform 1: 0xxxxxxx\n"
         "form long: FF B4{n} A0..AF{n+1} as nme 10xxxxxx{20 - nme}\n    range 0 .. 2 ** (120 - 6 * nme) - 1\n",
         5, 5, "form 'long' holds shorter code points at nme = 1, n = 0 than at a smaller 'nme': "
               "the encoder searches its lengths in order"),
    # ------------------------------------------------- sequences of code points (issue 30)
    case("sequence-with-a-surrogate", HEAD + "form 1: 0xxxxxxx\nencode U+00CA U+D800 as 88 62\n",
         4, 15, "U+D800 in a sequence is not a Unicode scalar value (U+0000..U+10FFFF, no surrogates)"),
    case("sequence-value-beyond-unicode", HEAD + "form 1: 0xxxxxxx\nform x: 88 62 = U+00CA U+110000\n",
         4, 24, "U+110000 in a sequence is not a Unicode scalar value (U+0000..U+10FFFF, no surrogates)"),
    case("sequence-given-to-the-encoder-twice",
         HEAD + "form 1: 0xxxxxxx\nencode U+00CA U+0304 as 88 62\nencode U+00CA U+0304 as 88 63\n",
         5, 1, "U+00CA U+0304 is given to the encoder twice (first at line 4)"),
]


def expected_report(path, text: str, line: int, col: int, message: str) -> str:
    source = text.split("\n")[line - 1]
    return f"{path}:{line}:{col}: {message}\n    {source}\n    {' ' * (col - 1)}^\n"


def run(argv, capsys) -> tuple[int, str]:
    try:
        rc = main(argv)
    except BaseException as e:  # noqa: BLE001 - anything escaping main is the failure under test
        pytest.fail(f"{type(e).__name__} escaped encspec.cli.main: {e}")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return rc, err


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path_factory, monkeypatch):
    """Run from a folder that holds no spec, so paths are shown as given (absolute)."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.mark.parametrize("text, line, col, message", CASES)
def test_bad_spec_is_reported_with_position_and_caret(tmp_path, capsys, text, line, col, message):
    path = tmp_path / "bad.encspec"
    path.write_text(text, encoding="utf-8")
    rc, err = run(["describe", str(path)], capsys)
    assert err == expected_report(path, text, line, col, message)
    assert rc == 2


def test_at_least_fifteen_distinct_problems():
    assert len({message for _, _, _, message in (p.values for p in CASES)}) >= 15


def test_check_reports_a_bad_spec_the_same_way(tmp_path, capsys):
    text = HEAD + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0800\n"
    path = tmp_path / "bad.encspec"
    path.write_text(text, encoding="utf-8")
    rc, err = run(["check", str(path)], capsys)
    assert err == expected_report(path, text, 4, 1,
                                  "form '2' can never match: it holds U+0000..U+07FF, all below its min U+0800")
    assert rc == 2


def test_spec_that_is_not_utf_8(tmp_path, capsys):
    path = tmp_path / "bad.encspec"
    path.write_bytes(b"encoding bad\ntitle \"caf\xe9\"\n")
    rc, err = run(["describe", str(path)], capsys)
    assert err == (f"{path}:2:11: byte E9 is not valid UTF-8 (a spec is UTF-8 text)\n"
                   f"    title \"caf\ufffd\"\n"
                   f"              ^\n")
    assert rc == 2


def test_line_and_caret_follow_the_parser_around_form_feeds_and_tabs(tmp_path, capsys):
    # \f is whitespace to the parser but a line break to str.splitlines(); a tab is one column
    text = "encoding bad\fcode-space U+0000..U+10FFFF\nform 1:\t0xxxxxxx\tmin\n"
    path = tmp_path / "bad.encspec"
    path.write_text(text, encoding="utf-8")
    rc, err = run(["describe", str(path)], capsys)
    assert err == (f"{path}:2:21: unexpected end of file, expected a code point (U+0080)\n"
                   f"    form 1: 0xxxxxxx min\n"
                   f"                        ^\n")
    assert rc == 2


def test_relative_path_is_shown_as_given_by_parser_and_compiler_alike(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "syntax.encspec").write_text(HEAD + "form 1 0xxxxxxx\n", encoding="utf-8")
    (tmp_path / "layout.encspec").write_text(HEAD + "form 1: 0xxxxxxx min U+0080\n", encoding="utf-8")
    rc1, err1 = run(["describe", "syntax.encspec"], capsys)
    rc2, err2 = run(["describe", "layout.encspec"], capsys)
    assert (rc1, rc2) == (2, 2)
    assert err1.startswith("syntax.encspec:3:8: unexpected '0xxxxxxx'")
    assert err2.startswith("layout.encspec:3:1: form '1' can never match")


def test_missing_spec_file(tmp_path, capsys):
    path = tmp_path / "nope.encspec"
    rc, err = run(["describe", str(path)], capsys)
    assert err == f"encspec: error: {path}: no such spec file\n"
    assert rc == 2


def test_unknown_builtin_name(capsys):
    rc, err = run(["describe", "utf-9"], capsys)
    assert err.count("\n") == 1
    assert err.startswith("encspec: error: utf-9: unknown encoding (built-in: ")
    assert "utf-8" in err
    assert rc == 2


# ----------------------------------------------------------- mutation fuzzing
UTF8 = (registry.specs_dir() / "utf-8.encspec").read_text(encoding="utf-8")
WORDS = sorted(set(re.findall(r"\S+", UTF8))) + [
    "form", "ill-formed", "skip", "reserved", "signature", "alphabet", "numbering", "packed", "claims",
    "U+0000..", "U+FFFFFFFF", "U+", "..", ":", "=", "<", ">", "{", "}", "{0}", "{n}", "{64}", "{65}",
    "00..FF", "7F..00", "FF", "ff", "1x0xxxxx", "xxxxxxxx", "as", "at", "min", "range", "combine",
    '"', "#", "$", "\t", "\f", "\u2028", "é",
]
LOCATED = re.compile(r"^(.+):(\d+):(\d+): .+$")


@st.composite
def mutated_utf8(draw) -> str:
    text = UTF8
    if draw(st.booleans()):  # a whole token
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        a, b = draw(st.sampled_from(spans))
        op = draw(st.sampled_from(["delete", "duplicate", "replace"]))
        new = {"delete": "", "duplicate": text[a:b] + " " + text[a:b],
               "replace": draw(st.sampled_from(WORDS))}[op]
    else:  # one character
        a = draw(st.integers(0, len(text) - 1))
        b = a + 1
        op = draw(st.sampled_from(["delete", "duplicate", "replace"]))
        new = {"delete": "", "duplicate": text[a] * 2,
               "replace": draw(st.characters(exclude_categories=("Cs",)) | st.sampled_from(WORDS))}[op]
    return text[:a] + new + text[b:]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=mutated_utf8())
def test_mutated_spec_compiles_or_reports_cleanly(text, tmp_path_factory, capsys):
    note(repr(text))
    folder = tmp_path_factory.getbasetemp() / "mutants"
    folder.mkdir(exist_ok=True)
    # one file per text: the pipeline caches by path and modification time
    path = folder / f"m{hashlib.sha256(text.encode('utf-8')).hexdigest()[:20]}.encspec"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    rc, err = run(["describe", str(path)], capsys)
    if rc == 0:
        assert err == ""
        return
    assert rc == 2, err
    lines = err.split("\n")
    located = LOCATED.match(lines[0])
    assert located or re.match(r"^encspec: error: .+$", lines[0]), err
    if located:
        assert located.group(1) == str(path)
        line, col = int(located.group(2)), int(located.group(3))
        source = re.split(r"\r\n?|\n", text)[line - 1]  # read_text's universal newlines
        assert 1 <= col <= len(source) + 1, err
        shown = "".join(c if c.isprintable() else " " for c in source)
        assert lines[1:] == [f"    {shown}", f"    {' ' * (col - 1)}^", ""], err
