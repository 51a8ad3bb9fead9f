"""The analyses and the table export where a table entry is a sequence of code points
(issue 30): describe, tokens, vectors, check, diff, the code page chart, the JSON table.

A toy spec written here: pointer = lead digit x 4 + trail digit (leads 81..82, trails
41, 42, A1, A2), so pointer 0 is 81 41, 1 is 81 42, 2 is 81 A1, 3 is 81 A2, 4 is 82 41,
5 is 82 42.  Its index maps 0 to U+00CA, 1 to U+0304 (the mark alone) and 3 to U+4E00;
the spec adds pointer 2 = U+00CA U+0304 and pointer 5 = U+00EA U+030C.  Every expected
line below is written by hand from that table.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import builtin_spec_file, run_cli

INDEX = "0\t0x00CA\n1\t0x0304\n3\t0x4E00\n"

SPEC = """\
encoding {name}
code-space U+0000..U+10FFFF
table toy "toy.txt" with {entries}
alphabet trail = 41..42, A1..A2
form ascii:  00..7F
form double: 81..82 trail table toy
reason unmapped "not in the toy table"
"""

ENTRIES = "2 = U+00CA U+0304, 5 = U+00EA U+030C"


def toy(tmp_path: Path, name: str = "toy", entries: str = ENTRIES, index: str = INDEX) -> str:
    """The toy spec (named *name*, its sequence entries *entries*) in tmp_path/name, its path."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "toy.txt").write_text(index, "utf-8")
    path = folder / f"{name}.encspec"
    path.write_text(SPEC.format(name=name, entries=entries), "utf-8")
    return str(path)


def have_spec(name: str) -> str:
    """A built-in spec's name, or a skip where its spec file is not there yet."""
    builtin_spec_file(name)
    return name


# --------------------------------------------------------------- describe, tokens
def test_describe_names_each_pointer_of_several_code_points(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "describe", toy(tmp_path))
    assert rc == 0
    assert "    pointer 2 (81 A1) = U+00CA U+0304 (several code points)\n" in out
    assert "    pointer 5 (82 42) = U+00EA U+030C (several code points)\n" in out


def test_tokens_print_a_sequence_joined_by_plus(tmp_path, capsys):
    data = tmp_path / "in.bin"
    data.write_bytes(bytes.fromhex("81A1 41 8242"))
    rc, out, _ = run_cli(capsys, "tokens", toy(tmp_path), data)
    assert rc == 0
    assert out == "char 0 2 CA+304\nchar 2 3 41\nchar 3 5 EA+30C\n"
    rc, out, _ = run_cli(capsys, "tokens", "--json", toy(tmp_path), data)
    first = json.loads(out.splitlines()[0])
    assert first == {"kind": "char", "offset": 0, "end": 2, "bytes": "81 A1", "code_point": [0xCA, 0x304]}


# --------------------------------------------------------------- vectors
@pytest.mark.parametrize("skip, two, five", [
    ("", "the encoder writes this text back as these bytes", "the encoder writes this text back as these bytes"),
    (" encode-skip 2..2, 5..5", "the encoder writes this text as 81 41 81 42", "the encoder cannot write this text")])
def test_vectors_say_what_the_encoder_writes_for_a_sequence(tmp_path, capsys, skip, two, five):
    """Pointer 2's text is U+00CA U+0304: the encoder writes pointer 2 for it, or where the
    encoder skips pointer 2, U+00CA and U+0304 by their own pointers (81 41, 81 42).
    Neither U+00EA nor U+030C has a pointer, so skipping pointer 5 leaves its text none."""
    rc, out, _ = run_cli(capsys, "vectors", toy(tmp_path, entries=ENTRIES + skip), "-o", "-")
    assert rc == 0
    text = re.sub(" +", " ", out)  # the columns' padding
    for want in (f"pointer 2: U+00CA U+0304 ({two})\n bytes 81 A1\n tokens char 0 2 CA+304\n",
                 f"pointer 5: U+00EA U+030C ({five})\n bytes 82 42\n tokens char 0 2 EA+30C\n"):
        assert want in text, text[:3000]
    if not skip:  # the sequence, then U+00CA alone (81 41)
        assert ("U+00CA U+0304 then U+00CA alone: the encoder writes 81 A1 then 81 41\n bytes 81 A1 81 41\n"
                " tokens char 0 2 CA+304; char 2 4 CA\n") in text


def test_vectors_jsonl_keep_the_sequence(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "vectors", toy(tmp_path), "-o", "-", "--format", "jsonl")
    cases = [json.loads(line) for line in out.splitlines()]
    got = [c for c in cases if c["bytes"] == "81A1"]
    assert got and got[0]["tokens"] == [["char", 0, 2, "CA+304"]]


# --------------------------------------------------------------- check
def test_check_counts_a_sequence_as_one_valid_sequence(tmp_path, capsys):
    """Pointers 0, 1, 3 are code points; 2 and 5 are sequences: 5 two-byte sequences."""
    rc, out, _ = run_cli(capsys, "check", toy(tmp_path))
    assert rc == 0
    assert "  2 bytes: 3 code points and 2 sequences of code points\n" in out
    rc, out, _ = run_cli(capsys, "check", toy(tmp_path), "--json")
    doc = json.loads(out)
    assert doc["lengths"] == {"1": 128, "2": 5} and doc["sequences"] == {"2": 2}


def test_check_bijective_fails_where_the_code_points_alone_read_as_the_sequence(tmp_path, capsys):
    """81 41 81 42 (U+00CA, then U+0304 alone) reads as the text pointer 2 (81 A1) reads as."""
    rc, out, _ = run_cli(capsys, "check", toy(tmp_path), "--json")
    doc = json.loads(out)
    assert doc["properties"]["bijective"] is False
    assert doc["counterexamples"]["bijective"] == ["81 A1", "81 41 81 42"]


def test_check_bijective_holds_where_no_other_bytes_read_as_the_sequence(tmp_path, capsys):
    """Without U+0304 alone (index pointer 1), no other bytes read as U+00CA U+0304, and
    U+00EA U+030C has none at all: the sequences keep decoding one-to-one."""
    spec = toy(tmp_path, index="0\t0x00CA\n3\t0x4E00\n")
    rc, out, _ = run_cli(capsys, "check", spec, "--json")
    doc = json.loads(out)
    assert doc["properties"]["bijective"] is True, doc["counterexamples"]


def test_check_whatwg_big5_counts_its_four_sequences(capsys):
    """The Big5 decoder's four pointers 1133, 1135, 1164, 1166 (encoding.bs): two-byte
    sequences of two code points each; ASCII 00..7F is 128 one-byte sequences."""
    spec = have_spec("whatwg-big5")
    rc, out, _ = run_cli(capsys, "check", spec, "--json")
    doc = json.loads(out)
    assert doc["sequences"] == {"2": 4}
    assert doc["lengths"]["1"] == 128


# --------------------------------------------------------------- diff
def test_diff_shows_sequences_on_either_side(tmp_path, capsys):
    """toy2: pointer 2 = U+00CA U+0300 (another mark), pointer 4 = U+0041 U+0042 (new),
    pointer 5 gone."""
    a = toy(tmp_path)
    b = toy(tmp_path, "toy2", "2 = U+00CA U+0300, 4 = U+0041 U+0042")
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1
    for line in ("valid only in toy: 1 sequence in 1 pattern\n  82 42  1  e.g. 82 42 = U+00EA+U+030C\n",
                 "valid only in toy2: 1 sequence in 1 pattern\n  82 41  1  e.g. 82 41 = U+0041+U+0042\n",
                 "valid in both, decoded differently (toy / toy2): 1 sequence in 1 pattern\n"
                 "  81 A1  1  U+00CA+U+0304 / U+00CA+U+0300\n"):
        assert line in out, out
    # the four texts, each written whole: toy writes 41 42 as ASCII, toy2 as its pointer 4;
    # toy has no U+0300, toy2 writes pointer 2 for U+00CA U+0300; toy writes pointer 2 for
    # U+00CA U+0304, toy2 U+00CA and U+0304 alone; toy2 has no pointer for U+00EA
    assert ("sequences of code points encoded differently (toy / toy2): 4 of 4 sequences\n"
            "  U+0041 U+0042  41 42 / 82 41\n"
            "  U+00CA U+0300  - / 81 A1\n"
            "  U+00CA U+0304  81 A1 / 81 41 81 42\n"
            "  U+00EA U+030C  82 42 / -") in out, out
    rc, out, _ = run_cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert doc["only_a"] == [{"pattern": "82 42", "example": "82 42", "a": [0xEA, 0x30C], "b": None, "count": 1}]
    assert doc["different"] == [{"pattern": "81 A1", "example": "81 A1", "a": [0xCA, 0x304], "b": [0xCA, 0x300],
                                 "count": 1, "everywhere": True}]
    assert doc["encoder"]["sequences"][0] == {"code_points": [0x41, 0x42], "a": "41 42", "b": "82 41"}
    assert doc["encoder"]["sequences"][1] == {"code_points": [0xCA, 0x300], "a": None, "b": "81 A1"}


def test_diff_shows_a_sequence_only_one_encoder_writes(tmp_path, capsys):
    """toy3 has no U+0304 alone (no index pointer 1) and skips pointer 2 (encode-skip): it
    cannot write U+00CA U+0304, which toy writes as 81 A1."""
    a = toy(tmp_path)
    b = toy(tmp_path, "toy3", entries=ENTRIES + " encode-skip 2..2", index="0\t0x00CA\n3\t0x4E00\n")
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1
    assert ("sequences of code points encoded differently (toy / toy3): 1 of 2 sequences\n"
            "  U+00CA U+0304  81 A1 / -") in out, out
    assert "valid only in toy: 1 sequence in 1 pattern\n  81 42  1  e.g. 81 42 = U+0304\n" in out
    rc, out, _ = run_cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert doc["encoder"]["sequences"] == [{"code_points": [0xCA, 0x304], "a": "81 A1", "b": None}]


# --------------------------------------------------------------- chart, JSON table
def test_codepage_chart_names_the_sequences_of_a_lead(tmp_path, capsys):
    out_file = tmp_path / "toy.svg"
    rc, _, _ = run_cli(capsys, "chart", "--codepage", toy(tmp_path), "-o", out_file)
    assert rc == 0
    svg = out_file.read_text("utf-8")
    assert ("<title>81: lead of 2-byte sequences from U+00CA; table form double: 4 of its 4 pointers have an "
            "entry (100.0%); 1 of them stands for several code points: 81 A1 = U+00CA U+0304</title>") in svg
    assert "1 of them stands for several code points: 82 42 = U+00EA U+030C</title>" in svg


def test_json_table_export_carries_the_sequences(tmp_path, capsys):
    out_dir = tmp_path / "out"
    rc, _, _ = run_cli(capsys, "export", toy(tmp_path), "--lang", "json", "-o", out_dir)
    assert rc == 0
    doc = json.loads((out_dir / "toy.json").read_text("utf-8"))
    (table,) = doc["tables"]
    assert table["overrides"] == [[2, [0xCA, 0x304]], [5, [0xEA, 0x30C]]]


# --------------------------------------------------------------- forms and encoder lines
# A spec without tables: form ka's 90 41 reads as U+304B U+309A (ka, then the combining
# semi-voiced mark), form kb's 90 42 as U+304B alone, and the encoder writes 90 41 for
# U+0041 U+030A too (an encoder-only sequence whose bytes read back as something else).
LITERAL = """\
encoding {name}
code-space U+0000..U+10FFFF
form ascii: 00..7F
form ka: 90 41 = U+304B {mark}
form kb: 90 42 = U+304B
{extra}
"""


def literal(tmp_path: Path, name: str = "lit", mark: str = "U+309A",
            extra: str = "encode U+0041 U+030A as 90 41") -> str:
    path = tmp_path / f"{name}.encspec"
    path.write_text(LITERAL.format(name=name, mark=mark, extra=extra), "utf-8")
    return str(path)


def test_describe_lists_forms_and_written_sequences(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "describe", literal(tmp_path))
    assert rc == 0
    assert ("\nliteral forms of several code points:\n  form ka: 90 41 = U+304B U+309A\n\n"
            "sequences of code points the encoder writes as one (2; at each position the longest the text holds):\n"
            "  U+0041 U+030A -> 90 41   (these bytes decode to U+304B U+309A)\n"
            "  U+304B U+309A -> 90 41\n") in out, out
    rc, out, _ = run_cli(capsys, "describe", literal(tmp_path), "--json")
    doc = json.loads(out)
    assert doc["several_forms"] == [{"form": "ka", "bytes": "90 41", "code_points": [0x304B, 0x309A]}]
    assert doc["sequences"] == [
        {"code_points": [0x41, 0x30A], "bytes": "90 41", "decodes_to": "U+304B U+309A"},
        {"code_points": [0x304B, 0x309A], "bytes": "90 41", "decodes_to": "U+304B U+309A"}]


def test_tokens_of_a_literal_form_of_several_code_points(tmp_path, capsys):
    data = tmp_path / "in.bin"
    data.write_bytes(bytes.fromhex("9041 9042"))
    rc, out, _ = run_cli(capsys, "tokens", literal(tmp_path), data)
    assert (rc, out) == (0, "char 0 2 304B+309A\nchar 2 4 304B\n")


def test_check_an_encoder_line_whose_bytes_read_as_another_sequence(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "check", literal(tmp_path))
    assert "bijective            no   counterexample: U+0041 U+030A -> 90 41 / 90 41 -> U+304B U+309A\n" in out
    assert "  2 bytes: 1 code point and 1 sequence of code points\n" in out


def test_check_a_literal_form_written_back(tmp_path, capsys):
    """Without the encoder line, ka's text is written as 90 41 and no other bytes read as
    it (U+309A alone has none)."""
    rc, out, _ = run_cli(capsys, "check", literal(tmp_path, extra=""), "--json")
    doc = json.loads(out)
    assert doc["properties"]["bijective"] is True, doc["counterexamples"]
    assert doc["lengths"] == {"1": 128, "2": 2} and doc["sequences"] == {"2": 1}


def test_vectors_encode_each_sequence_then_its_first_code_point_alone(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "vectors", literal(tmp_path), "-o", "-")
    assert rc == 0
    text = re.sub(" +", " ", out)
    for want in ("form ka: U+304B U+309A (the encoder writes this text back as these bytes)\n bytes 90 41\n"
                 " tokens char 0 2 304B+309A\n",
                 "U+0041 U+030A then U+0041 alone: the encoder writes 90 41 then 41\n bytes 90 41 41\n"
                 " tokens char 0 2 304B+309A; char 2 3 41\n",
                 "U+304B U+309A then U+304B alone: the encoder writes 90 41 then 90 42\n bytes 90 41 90 42\n"
                 " tokens char 0 2 304B+309A; char 2 4 304B\n"):
        assert want in text, text[:2000]


def test_diff_of_literal_forms_of_several_code_points(tmp_path, capsys):
    """lit2: ka is U+304B U+3099 (the voiced mark) and there is no encoder line."""
    a = literal(tmp_path)
    b = literal(tmp_path, "lit2", mark="U+3099", extra="")
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1
    assert ("valid in both, decoded differently (lit / lit2): 1 sequence in 1 pattern\n"
            "  90 41  1  U+304B+U+309A / U+304B+U+3099\n") in out
    assert ("sequences of code points encoded differently (lit / lit2): 3 of 3 sequences\n"
            "  U+0041 U+030A  90 41 / -\n  U+304B U+3099  - / 90 41\n  U+304B U+309A  90 41 / -") in out


def test_codepage_chart_names_a_literal_form_of_several_code_points(tmp_path, capsys):
    out_file = tmp_path / "lit.svg"
    rc, _, _ = run_cli(capsys, "chart", "--codepage", literal(tmp_path), "-o", out_file)
    assert rc == 0
    assert ("<title>90: lead of 2-byte sequences from U+304B; 1 of them stands for several code points: "
            "90 41 = U+304B U+309A</title>") in out_file.read_text("utf-8")


# --------------------------------------------------------------- the built-in specs
# Big5-HKSCS: 88 62, 88 64, 88 A3, 88 A5 are U+00CA U+0304, U+00CA U+030C, U+00EA U+0304,
# U+00EA U+030C (HKSCS-2008's four compositions, as WHATWG Big5's pointers 1133, 1135,
# 1164, 1166); U+00CA alone is 88 66, U+00EA alone 88 A7.  CPython's big5hkscs writes them
# so, and reads only the low 16 bits of the mark: U+00CA U+10304 is 88 62 too, so each of
# the four has 17 spellings (planes 0 to 16), 68 sequences in all (checked below against
# the codec where Python has it).
HKSCS = [((0xCA, 0x304), "88 62"), ((0xCA, 0x30C), "88 64"), ((0xEA, 0x304), "88 A3"), ((0xEA, 0x30C), "88 A5")]


def test_hand_written_hkscs_facts_match_cpython():
    import codecs
    try:
        codecs.lookup("big5hkscs")
    except LookupError:
        pytest.skip("this Python has no big5hkscs codec")
    for cps, data in HKSCS:
        assert "".join(map(chr, cps)).encode("big5hkscs") == bytes.fromhex(data)
    assert "\xca".encode("big5hkscs") == bytes.fromhex("8866") and "\xea".encode("big5hkscs") == bytes.fromhex("88A7")
    assert "\xca\U00010304".encode("big5hkscs") == bytes.fromhex("8862")
    assert "\xea\U0010030c".encode("big5hkscs") == bytes.fromhex("88A5")


def test_describe_big5hkscs_lists_its_written_sequences(capsys):
    rc, out, _ = run_cli(capsys, "describe", have_spec("big5hkscs"))
    assert ("sequences of code points the encoder writes as one (68; at each position the longest the text holds):\n"
            "  U+00CA U+0304 -> 88 62\n  U+00CA U+030C -> 88 64\n"
            "  U+00CA U+10304 -> 88 62   (these bytes decode to U+00CA U+0304)\n") in out
    assert "  … 28 more (--json lists them all)\n" in out  # 40 shown


def test_vectors_big5hkscs_write_each_sequence_then_its_base_alone(capsys):
    rc, out, _ = run_cli(capsys, "vectors", have_spec("big5hkscs"), "-o", "-")
    text = re.sub(" +", " ", out)
    for want in ("U+00CA U+0304 then U+00CA alone: the encoder writes 88 62 then 88 66\n bytes 88 62 88 66\n"
                 " tokens char 0 2 CA+304; char 2 4 CA\n",
                 "U+00EA U+030C then U+00EA alone: the encoder writes 88 A5 then 88 A7\n bytes 88 A5 88 A7\n"
                 " tokens char 0 2 EA+30C; char 2 4 EA\n"):
        assert want in text


@pytest.mark.parametrize("old", ["big5", "whatwg-big5"])
def test_diff_big5_big5hkscs_lists_the_sequences(capsys, old):
    """Neither big5 (no U+00CA at all) nor WHATWG Big5 (U+00CA only in the pointers its
    encoder skips) writes any of the 68 texts: 24 listed, in code point order."""
    rc, out, _ = run_cli(capsys, "diff", have_spec(old), have_spec("big5hkscs"))
    assert rc == 1
    text = re.sub(" +", " ", out)  # the column's padding
    assert (f"sequences of code points encoded differently ({old} / big5hkscs): 68 of 68 sequences\n"
            " U+00CA U+0304 - / 88 62\n U+00CA U+030C - / 88 64\n U+00CA U+10304 - / 88 62\n") in text
    assert text.endswith(" … 44 more sequences: --json lists all\n"), out[-600:]
    rc, out, _ = run_cli(capsys, "diff", old, "big5hkscs", "--json")
    got = json.loads(out)["encoder"]["sequences"]
    assert len(got) == 68 and got[-1] == {"code_points": [0xEA, 0x10030C], "a": None, "b": "88 A5"}


def test_check_big5hkscs_counts_four_sequences(capsys):
    rc, out, _ = run_cli(capsys, "check", have_spec("big5hkscs"), "--json")
    assert json.loads(out)["sequences"] == {"2": 4}


def test_check_shift_jisx0213_finds_a_sequence_read_from_two_spellings(capsys):
    """JIS X 0213 has U+00E6 U+0300 as one pair and U+00E6, U+0300 each alone: decoding is
    not one-to-one.  The counterexample's two byte strings must read (in CPython's codec,
    where Python has it) as one text."""
    import codecs
    rc, out, _ = run_cli(capsys, "check", have_spec("shift_jisx0213"), "--json")
    doc = json.loads(out)
    assert doc["properties"]["bijective"] is False
    one, two = (bytes.fromhex(x) for x in doc["counterexamples"]["bijective"])
    assert one != two
    try:
        codecs.lookup("shift_jisx0213")
    except LookupError:
        return
    assert one.decode("shift_jisx0213") == two.decode("shift_jisx0213")
    assert len(one.decode("shift_jisx0213")) >= 2  # a sequence, not a duplicate code point


# --------------------------------------------------------------- exports
def test_json_table_export_lists_the_sequences_the_encoder_writes(tmp_path, capsys):
    out_dir = tmp_path / "out"
    rc, _, _ = run_cli(capsys, "export", literal(tmp_path), "--lang", "json", "-o", out_dir)
    assert rc == 0
    doc = json.loads((out_dir / "lit.json").read_text("utf-8"))
    assert doc["sequences"] == [{"code_points": [0x41, 0x30A], "bytes": "9041"},
                                {"code_points": [0x304B, 0x309A], "bytes": "9041"}]
    assert {"form": "ka", "forms": ["ka"], "kind": "char", "value": [0x304B, 0x309A]} in doc["actions"]


@pytest.mark.parametrize("lang", ["c", "rust", "js", "java"])
def test_exports_refuse_a_form_of_several_code_points_in_one_line(tmp_path, capsys, lang):
    """The exports' decoders give a literal form one code point (a table's entries of
    several code points they hold: tests/test_export_tables.py decodes WHATWG Big5's)."""
    out_dir = tmp_path / "out"
    rc, out, err = run_cli(capsys, "export", literal(tmp_path), "--lang", lang, "-o", out_dir)
    assert rc != 0 and out == ""
    assert err.strip().splitlines() == [
        f"encspec: error: {literal(tmp_path)}: the {lang} target cannot decode a form whose value is a sequence "
        "of code points yet (form ka: U+304B U+309A): a table entry can hold it"]
    assert not out_dir.exists() or not any(out_dir.iterdir())  # nothing written


def test_automaton_chart_labels_a_form_of_several_code_points(tmp_path, capsys):
    rc, out, _ = run_cli(capsys, "chart", "--automaton", literal(tmp_path), "-o", "-")
    assert rc == 0
    assert 'label="3\\n= U+304B U+309A"' in out and 'label="4\\n= U+304B"' in out


def test_build_leaves_the_native_source_out_for_a_form_of_several_code_points(tmp_path, capsys):
    """The native extension is the C export plus glue: where C refuses the spec, build
    writes everything else (the Python module runs it)."""
    out_dir = tmp_path / "out"
    rc, _, err = run_cli(capsys, "build", literal(tmp_path), "-o", out_dir)
    assert rc == 0, err
    assert (out_dir / "lit.py").is_file() and (out_dir / "tables" / "lit.json").is_file()
    assert (out_dir / "vectors" / "lit.txt").is_file() and not (out_dir / "native").exists()


def test_vectors_say_where_a_sequences_first_code_point_has_no_bytes_alone(tmp_path, capsys):
    """Form kc writes U+0100 U+0301 as 90 43; U+0100 alone is in no form."""
    spec = literal(tmp_path, extra="form kc: 90 43 = U+0100 U+0301")
    rc, out, _ = run_cli(capsys, "vectors", spec, "-o", "-")
    text = re.sub(" +", " ", out)
    assert ("U+0100 U+0301 twice: the encoder writes 90 43 90 43 (U+0100 alone has no bytes)\n bytes 90 43 90 43\n"
            " tokens char 0 2 100+301; char 2 4 100+301\n") in text
