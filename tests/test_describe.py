"""`encspec describe` reproduces the documents' tables."""
from __future__ import annotations

import json
import re
import sys

import pytest

from conftest import excerpt, representative_builtins, run_cli
from encspec.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def seed_table():
    """The rows of corrected-utf-8.txt "Putting it all together", parsed from its excerpt."""
    rows = []
    for line in excerpt("corrected-utf-8-table.txt").splitlines():
        m = re.match(r"^([0-9A-F ]+) … ([0-9A-F ]+) \| ([\d ]+) \| ([0-9A-F ]+) … ([0-9A-F ]+) \|$", line)
        if m:
            first_b, last_b, off, first, last = (g.strip() for g in m.groups())
            rows.append({"first_bytes": first_b, "last_bytes": last_b,
                         "offset": int(off.replace(" ", "")), "first": int(first.replace(" ", ""), 16),
                         "last": int(last.replace(" ", ""), 16), "length": len(first_b.split())})
    return rows


def test_corrected_utf8_reproduces_the_seed_table_row_for_row(capsys):
    expected = seed_table()
    assert [r["offset"] for r in expected] == [0, 160, 2208, 4256, 69792, 2166944, 69275808]
    rc, out, _ = run(capsys, "describe", "corrected-utf-8", "--json")
    assert rc == 0
    assert json.loads(out)["rows"] == expected


def test_corrected_utf8_text_table_has_the_seed_rows(capsys):
    rc, out, _ = run(capsys, "describe", "corrected-utf-8")
    assert rc == 0
    lines = [line for line in out.splitlines() if "|" in line][2:]
    assert len(lines) == 7
    for line, row in zip(lines, seed_table()):
        seq, off, cps = (c.strip() for c in line.split("|"))
        assert seq.replace(" … ", "-") == f"{row['first_bytes']}-{row['last_bytes']}"
        assert int(off) == row["offset"]
        assert cps.replace(" ", "") == f"{row['first']:08X}…{row['last']:08X}"


# Unicode Standard, Table 3-7 "Well-Formed UTF-8 Byte Sequences" (the rows whose
# second byte is restricted): E0 A0..BF, ED 80..9F, F0 90..BF, F4 80..8F; every
# other lead takes 80..BF.
TABLE_3_7 = {"C2..DF": "80..BF", "E0": "A0..BF", "E1..EC, EE..EF": "80..BF", "ED": "80..9F",
             "F0": "90..BF", "F1..F3": "80..BF", "F4": "80..8F"}


def test_utf8_ill_formed_matches_table_3_7(capsys):
    rc, out, _ = run(capsys, "describe", "utf-8", "--ill-formed", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert (doc["name"], doc["counted_forms"]) == ("utf-8", [])
    rows = doc["ill_formed"]
    first = [r for r in rows if r["prefix"] == []]
    assert first == [{"prefix": [], "ill_formed": "80..C1, F5..FF", "well_formed": "00..7F, C2..F4"}]
    second = {r["prefix"][0]: r for r in rows if len(r["prefix"]) == 1}
    assert {lead: r["well_formed"] for lead, r in second.items()} == TABLE_3_7
    # the ill-formed set is exactly the complement of the well-formed one
    for r in rows:
        assert r["ill_formed"] and r["well_formed"]
    assert second["E0"]["ill_formed"] == "00..9F, C0..FF"
    assert second["ED"]["ill_formed"] == "00..7F, A0..FF"
    assert second["F4"]["ill_formed"] == "00..7F, 90..FF"
    # The proposal's Table 3.1b line 6 gives F0 then "00-9F, C0-FF", which contradicts
    # its own Table 3.1 (F0 90..BF: F0 90 80 80 is U+10000) and its D36; the rows follow
    # the rules, so F0 90..9F is well-formed (docs/pages/guide.md says so).
    assert second["F0"]["ill_formed"] == "00..8F, C0..FF"
    assert second["F0"]["well_formed"] == "90..BF"
    # later positions take 80..BF: Table 3.1b lines 8 to 10
    assert all(r["well_formed"] == "80..BF" for r in rows if len(r["prefix"]) >= 2)


def test_utf8_ill_formed_text_table(capsys):
    rc, out, _ = run(capsys, "describe", "utf-8", "--ill-formed")
    assert rc == 0
    assert "Table 3.1b" in out
    assert re.search(r"^\s+\d+\s+E0\s+00\.\.9F, C0\.\.FF\s+A0\.\.BF$", out, re.M)


def test_describe_json_fields_and_utf8_rows(capsys):
    rc, out, _ = run(capsys, "describe", "utf-8", "--json")
    rows = json.loads(out)["rows"]
    assert [(r["first"], r["last"]) for r in rows] == [
        (0, 0x7F), (0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF)]
    assert rows[2]["last_bytes"] == "ED 9F BF" and rows[3]["first_bytes"] == "EE 80 80"
    assert set(rows[0]) == {"length", "first_bytes", "last_bytes", "offset", "first", "last"}


def test_utf1_rows_follow_the_annex_table(capsys):
    """utf-8-encyclopedia-article.txt, History, table UTF-1: first and last code point of each row."""
    rc, out, _ = run(capsys, "describe", "utf-1", "--json")
    rows = json.loads(out)["rows"]
    assert [(r["first"], r["last"]) for r in rows] == [
        (0, 0x9F), (0xA0, 0xFF), (0x100, 0x4015), (0x4016, 0x38E2D), (0x38E2E, 0x7FFFFFFF)]
    assert [r["first_bytes"] for r in rows] == ["00", "A0 A0", "A1 21", "F6 21 21", "FC 21 21 21 21"]


def test_unbounded_row_of_utf_inf_8(capsys):
    rc, out, _ = run(capsys, "describe", "utf-inf-8", "--json")
    last = json.loads(out)["rows"][-1]
    # utf-inf-8.txt section 4: U+800000000000000000 = FF A0 A0 80 … (fourteen bytes)
    assert last == {"length": None, "first_bytes": "FF A0 A0" + " 80" * 11, "last_bytes": None,
                    "offset": 0, "first": 0x800000000000000000, "last": None}


def test_wtf8_ill_formed_has_the_proposals_line_11(capsys):
    """Unicode 3.1 proposal, Table 3.1b line 11: ED, A0-AF, XX, ED, B0-BF ("the sequence
    <ED, A0, 80, ED, B0, 80> is ill-formed because the first 5 bytes match line 11");
    wtf-8.txt 6: "a surrogate pair byte sequence is ill-formed", while ED A0 80 ED 80 80
    (U+D800 U+D000) is not."""
    rc, out, _ = run(capsys, "describe", "wtf-8", "--ill-formed", "--json")
    assert rc == 0
    doc = json.loads(out)
    rows = {tuple(r["prefix"]): r for r in (doc["ill_formed"] if isinstance(doc, dict) else doc)}
    line_11 = rows[("ED", "A0..AF", "80..BF", "ED")]
    assert line_11["ill_formed"] == "00..7F, B0..FF" and line_11["well_formed"] == "80..AF"
    assert not any(len(p) > 4 for p in rows)


# ------------------------------------------- describe from a generated description
@pytest.mark.parametrize("args", [[], ["--json"], ["--ill-formed"], ["--ill-formed", "--json"]])
def test_describe_of_a_builtin_reads_its_generated_description(args, capsys, monkeypatch):
    """Every built-in, every form of describe: what generated/tables/NAME.describe.json
    holds is what describe of the compiled spec prints, and describe reads it (the
    compiler is never loaded)."""
    from encspec.spec import registry
    main = sys.modules["encspec.cli.main"]   # the module (the package's `main` is its function)
    compiled = {}
    for path in map(registry.find_builtin, representative_builtins()):
        rc, out, _ = run(capsys, "describe", *args, str(path.resolve()))   # a path: compiled
        assert rc == 0, path
        compiled[path.stem] = out

    def refuse(*_a, **_k):
        raise AssertionError("describe of a built-in compiled its spec")
    monkeypatch.setattr(main, "load_spec", refuse)
    for name, out in compiled.items():
        assert run(capsys, "describe", *args, name) == (0, out, ""), name


def test_a_stale_or_missing_description_is_not_used(tmp_path, monkeypatch):
    from encspec.cli import index
    (tmp_path / "tables").mkdir()
    doc = json.loads((index.path().parent / "tables" / "utf_8.describe.json").read_text("utf-8"))
    doc["spec"]["sha256"] = "0" * 64
    (tmp_path / "tables" / "utf_8.describe.json").write_text(json.dumps(doc))
    monkeypatch.setattr(index, "path", lambda: tmp_path / "index.json")
    assert index.generated_description("utf-8") is None        # its spec changed since
    assert index.generated_description("wtf-8") is None        # no description at all


def test_a_users_spec_is_compiled_even_when_it_copies_a_builtin(tmp_path):
    from encspec.cli.index import generated_description
    from encspec.spec import registry
    spec = tmp_path / "mine.encspec"
    spec.write_text(registry.find("utf-8").read_text("utf-8"), "utf-8")
    assert generated_description(str(spec)) is None


def test_ill_formed_table_of_a_spec_with_no_ill_formed_sequence(capsys):
    """wtf-8.txt 4: any sequence of 16-bit code units is potentially ill-formed UTF-16, so
    WTF-16 has no row (a last odd byte is only cut short); it printed a traceback."""
    rc, out, _ = run(capsys, "describe", "wtf-16", "--ill-formed")
    assert rc == 0
    assert out.strip().endswith("none; every byte sequence can be continued to a well-formed one")
    rc, out, _ = run(capsys, "describe", "wtf-16", "--ill-formed", "--json")
    assert rc == 0 and json.loads(out)["ill_formed"] == []


@pytest.mark.parametrize("name", ["cp1252", "cp037", "koi8_r", "whatwg-windows-874"])
def test_describe_prints_a_single_byte_specs_code_page_as_cpython_or_the_standard_reads_it(capsys, name):
    """16 rows of 16 cells, each the code point its byte decodes to (---- for none), as
    CPython's codec of the name, or the WHATWG oracle, decodes it."""
    from oracles import whatwg_single_byte

    def reference(b: int) -> str:
        if name.startswith("whatwg-"):
            (kind, _, _, cp), = whatwg_single_byte.tokens(name, bytes([b]))
            return f"{cp:04X}" if kind == "char" else "----"
        try:
            return f"{ord(bytes([b]).decode(name)):04X}"
        except UnicodeDecodeError:
            return "----"
    rc, text, _ = run_cli(capsys, "describe", name)
    assert rc == 0
    out = text.splitlines()
    at = next(i for i, line in enumerate(out) if line.startswith("code page ("))
    header, grid = out[at + 1], out[at + 2:at + 18]
    assert header.split() == [f"_{c:X}" for c in range(16)]
    for r, line in enumerate(grid):
        label, *cells = line.split()
        assert label == f"{r:X}_" and len(cells) == 16
        for c, cell in enumerate(cells):
            assert cell == reference(16 * r + c), (name, f"{16 * r + c:02X}")


def test_describe_prints_no_code_page_for_a_multi_byte_spec(capsys):
    rc, text, _ = run_cli(capsys, "describe", "utf-8")
    assert rc == 0 and text.startswith("utf-8:") and "code page (" not in text
