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

from conftest import ROOT, run_cli

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


def have_whatwg_big5() -> str:
    path = ROOT / "specs" / "whatwg-big5.encspec"
    if not path.exists():
        pytest.skip("specs/whatwg-big5.encspec is not there")
    return "whatwg-big5"


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
def test_vectors_say_what_the_encoder_writes_for_a_sequence(tmp_path, capsys):
    """Pointer 2's text is U+00CA then U+0304, each of which has a pointer of its own
    (81 41, 81 42); neither U+00EA nor U+030C has one, so pointer 5's text has no bytes."""
    rc, out, _ = run_cli(capsys, "vectors", toy(tmp_path), "-o", "-")
    assert rc == 0
    text = re.sub(" +", " ", out)  # the columns' padding
    for want in ("pointer 2: U+00CA U+0304 (the encoder writes this text as 81 41 81 42)\n bytes 81 A1\n"
                 " tokens char 0 2 CA+304\n",
                 "pointer 5: U+00EA U+030C (the encoder cannot write this text)\n bytes 82 42\n"
                 " tokens char 0 2 EA+30C\n"):
        assert want in text, text[:3000]


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
    spec = have_whatwg_big5()
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
    # the four texts (CA 300, CA 304, EA 30C, 41 42): each encoder writes CA 304 as 81 41 81 42,
    # 41 42 as 41 42, and has no bytes for U+0300 nor U+00EA
    assert "sequences of code points encoded differently (toy / toy2): 0 of 4 sequences" in out.splitlines()
    rc, out, _ = run_cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert doc["only_a"] == [{"pattern": "82 42", "example": "82 42", "a": [0xEA, 0x30C], "b": None, "count": 1}]
    assert doc["different"] == [{"pattern": "81 A1", "example": "81 A1", "a": [0xCA, 0x304], "b": [0xCA, 0x300],
                                 "count": 1, "everywhere": True}]
    assert doc["encoder"]["sequences"] == []


def test_diff_shows_a_sequence_the_encoders_write_apart(tmp_path, capsys):
    """toy3 has no U+0304 alone (no index pointer 1): it cannot write U+00CA U+0304, which
    toy writes as 81 41 81 42 (81 42 alone in toy only)."""
    a = toy(tmp_path)
    b = toy(tmp_path, "toy3", index="0\t0x00CA\n3\t0x4E00\n")
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1
    assert ("sequences of code points encoded differently (toy / toy3): 1 of 2 sequences\n"
            "  U+00CA U+0304  81 41 81 42 / -") in out, out
    assert "valid only in toy: 1 sequence in 1 pattern\n  81 42  1  e.g. 81 42 = U+0304\n" in out
    rc, out, _ = run_cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert doc["encoder"]["sequences"] == [{"code_points": [0xCA, 0x304], "a": "81 41 81 42", "b": None}]


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
