"""`--json`: one documented shape per command (docs/pages/guide.md, "JSON output"), bytes written the
same way everywhere.  describe, check, diff and list write one JSON document; validate,
lint and tokens write JSON Lines."""
from __future__ import annotations

import json
import re

from encspec.cli import main

# the Corrected UTF-8 magic number, U+10E7D U+ED4E U+0000 U+000A
MAGIC = b"\xef\xb7\x9d\xed\xb2\xae\x00\x0a"
MAGIC_JSON = "EF B7 9D ED B2 AE 00 0A"
BYTES = re.compile(r"^[0-9A-F]{2}( [0-9A-F]{2})*$")


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def document(capsys, *argv, rc=0):
    """The one JSON document a command writes."""
    got, out, err = run(capsys, *argv)
    assert (got, err) == (rc, "")
    return json.loads(out)


def json_lines(capsys, *argv, rc=0):
    """The JSON Lines a command writes: each line a whole object on its own."""
    got, out, err = run(capsys, *argv)
    assert (got, err) == (rc, "")
    assert out.endswith("\n")
    return [json.loads(line) for line in out.splitlines()]


def test_describe_is_one_document_with_title_reserved_leads_and_signature(capsys):
    doc = document(capsys, "describe", "corrected-utf-8", "--json")
    assert list(doc) == ["name", "title", "rows", "reserved_leads", "signature"]
    assert (doc["name"], doc["title"]) == ("corrected-utf-8", "Corrected UTF-8")
    assert doc["reserved_leads"] == ["FE", "FF"]
    assert doc["signature"] == MAGIC_JSON
    # corrected-utf-8.txt, "Putting it all together", row 2
    assert doc["rows"][1] == {"length": 2, "first_bytes": "C0 80", "last_bytes": "DF BF", "offset": 160,
                              "first": 0xA0, "last": 0x89F}
    assert len(doc["rows"]) == 7


def test_describe_without_reserved_or_signature_says_null(capsys):
    doc = document(capsys, "describe", "utf-8", "--json")
    assert (doc["title"], doc["reserved_leads"], doc["signature"]) == ("UTF-8 (RFC 3629)", [], None)
    assert doc["rows"][0] == {"length": 1, "first_bytes": "00", "last_bytes": "7F", "offset": 0,
                              "first": 0, "last": 0x7F}


def test_describe_ill_formed_is_one_document(capsys):
    doc = document(capsys, "describe", "utf-8", "--ill-formed", "--json")
    assert list(doc) == ["name", "title", "ill_formed", "counted_forms"]
    assert doc["ill_formed"][0] == {"prefix": [], "ill_formed": "80..C1, F5..FF", "well_formed": "00..7F, C2..F4"}
    assert doc["counted_forms"] == []


def test_check_counterexamples_are_spaced_hex(capsys):
    doc = document(capsys, "check", "utf-1", "--json")
    assert list(doc) == ["name", "properties", "counterexamples", "max_length", "max_code_point", "lengths",
                         "sequences", "worst_skip", "unbounded"]
    assert doc["name"] == "utf-1"
    # A1 21 is U+0100 and its trail byte 21 alone is '!'
    assert doc["counterexamples"]["self_synchronizing"] == ["A1 21", "21"]


def test_diff_patterns_examples_and_signatures(capsys):
    doc = document(capsys, "diff", "utf-8", "wtf-8", "--json", rc=1)
    assert list(doc) == ["a", "b", "equivalent", "only_a", "only_b", "different", "signature", "notes"]
    assert doc["only_b"] == [{"pattern": "ED A0..BF 80..BF", "example": "ED A0 80", "a": None, "b": 0xD800}]
    assert doc["signature"] is None
    doc = document(capsys, "diff", "utf-8", "utf-8-bom", "--json", rc=1)
    assert doc["signature"] == {"a": None, "b": "EF BB BF"}


def test_list_is_one_document(capsys):
    doc = document(capsys, "list", "--json")
    assert isinstance(doc, list)
    by_name = {s["name"]: s for s in doc}
    assert by_name["corrected-utf-8"] == {"name": "corrected-utf-8", "title": "Corrected UTF-8",
                                          "aliases": ["cutf8", "cutf-8", "corrected-utf8"]}
    _, text, _ = run(capsys, "list")
    assert [s["name"] for s in doc] == [line.split()[0] for line in text.splitlines()]


def test_tokens_writes_one_object_per_token(tmp_path, capsys):
    f = tmp_path / "t.txt"
    f.write_bytes(MAGIC + b"A\xc0\xfe\x80")
    assert json_lines(capsys, "tokens", "corrected-utf-8", f, "--json") == [
        {"kind": "signature", "offset": 0, "end": 8, "bytes": MAGIC_JSON, "code_point": None},
        {"kind": "char", "offset": 8, "end": 9, "bytes": "41", "code_point": 0x41},
        {"kind": "error", "offset": 9, "end": 10, "bytes": "C0", "code_point": None},
        {"kind": "reserved", "offset": 10, "end": 12, "bytes": "FE 80", "code_point": None},
    ]


def test_lint_writes_one_object_per_finding(tmp_path, capsys):
    f = tmp_path / "doc.txt"
    f.write_bytes(b"A\x00B")
    assert json_lines(capsys, "lint", "corrected-utf-8", f, "--json", rc=1) == [
        {"path": str(f), "severity": "warning", "offset": 0, "line": 1, "column": 1,
         "message": "the file does not begin with the magic number"},
        {"path": str(f), "severity": "error", "offset": 1, "line": 1, "column": 2,
         "message": "U+0000 must not appear outside the magic number"},
        {"path": str(f), "severity": "warning", "offset": 2, "line": 1, "column": 3,
         "message": "the last character is not U+000A (LF)"},
    ]


def test_validate_writes_one_object_per_file(tmp_path, capsys):
    (tmp_path / "a.txt").write_bytes(MAGIC + b"A\xc0")
    (tmp_path / "b.txt").write_bytes(b"ok\n")
    a, b = json_lines(capsys, "validate", "corrected-utf-8", "--json", "--no-progress", tmp_path, rc=1)
    assert a["signature"]["bytes"] == MAGIC_JSON
    assert a["problems"] == [{"kind": "error", "offset": 9, "end": 10, "line": 1, "column": 2, "bytes": "C0",
                              "reason": "unexpected end of data"}]  # C0 leads C0 80 (U+00A0)
    assert (b["path"], b["valid"], b["problems"]) == (str(tmp_path / "b.txt"), True, [])


def test_every_command_writes_the_same_bytes_the_same_way(tmp_path, capsys):
    """The magic number, as describe, diff, tokens and validate write it: one string."""
    f = tmp_path / "m.txt"
    f.write_bytes(MAGIC + b"A\n")
    seen = {
        "describe": document(capsys, "describe", "corrected-utf-8", "--json")["signature"],
        "diff": document(capsys, "diff", "utf-8", "corrected-utf-8", "--json", rc=1)["signature"]["b"],
        "tokens": json_lines(capsys, "tokens", "corrected-utf-8", f, "--json")[0]["bytes"],
        "validate": json_lines(capsys, "validate", "corrected-utf-8", "--json", f)[0]["signature"]["bytes"],
    }
    assert seen == dict.fromkeys(seen, MAGIC_JSON)
    # and every byte-string field of every command has that form
    doc = document(capsys, "describe", "utf-inf-8", "--json")
    strings = [r[k] for r in doc["rows"] for k in ("first_bytes", "last_bytes") if r[k] is not None]
    doc = document(capsys, "check", "mutf-8", "--json")
    strings += [x for xs in doc["counterexamples"].values() for x in xs]
    doc = document(capsys, "diff", "utf-8", "cesu-8", "--json", rc=1)
    strings += [p["example"] for k in ("only_a", "only_b", "different") for p in doc[k]]
    assert len(strings) > 10 and all(BYTES.match(s) for s in strings), strings


def test_json_output_is_deterministic(capsys):
    for argv in (["describe", "corrected-utf-8", "--json"], ["check", "utf-8", "--json"], ["list", "--json"],
                 ["describe", "wtf-8", "--ill-formed", "--json"]):
        first = run(capsys, *argv)
        assert run(capsys, *argv) == first and first[0] == 0
