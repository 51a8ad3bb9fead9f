"""describe, check, chart, vectors and validate on specs with mapping tables (issue 18).

The expected facts are written by hand from the WHATWG Encoding Standard (encoding.bs,
whatwg/encoding at commit a985b62a9b45: "Shift_JIS decoder", "Shift_JIS encoder",
"index Shift_JIS pointer", "Big5 decoder", "gb18030 decoder"/"encoder", "EUC-KR") and
its index files, read here by a reader of our own (the format is "Indexes": a pointer
in decimal, TAB, a code point in hex); counterexamples and vectors are checked with
the hand-written oracles of tests/oracles/, which never import encspec.
"""
from __future__ import annotations

import importlib
import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, builtin_spec_file, cut_at, run_cli

WHATWG = ROOT / "specs" / "tables" / "whatwg"
SPECS = ROOT / "specs"
# the WHATWG specs with an oracle (tests/oracles/whatwg_*.py)
WITH_ORACLES = {"whatwg-shift_jis": "whatwg_shift_jis", "whatwg-big5": "whatwg_big5",
                "whatwg-euc-jp": "whatwg_euc_jp", "whatwg-euc-kr": "whatwg_euc_kr",
                "whatwg-gb18030": "whatwg_gb18030", "whatwg-gbk": "whatwg_gbk"}


def index_file(name: str) -> dict[int, int]:
    """pointer -> code point of specs/tables/whatwg/index-NAME.txt ("Indexes")."""
    out = {}
    for line in (WHATWG / f"index-{name}.txt").read_text("utf-8").split("\n"):
        if line and not line.startswith("#"):
            p, cp = line.split("\t")[:2]
            out[int(p)] = int(cp, 16)
    return out


def have(*specs: str) -> None:
    for s in specs:
        builtin_spec_file(s)


def oracle(spec: str):
    if spec not in WITH_ORACLES:
        pytest.skip(f"no oracle for {spec}")
    try:
        return importlib.import_module(f"oracles.{WITH_ORACLES[spec]}")
    except ImportError as e:  # another helper is writing them
        pytest.skip(f"oracle for {spec} not importable: {e}")


def automaton(spec: str):
    from encspec.pipeline import load
    return load(spec)[1]


def one_char(o, data: bytes):
    """What the oracle reads *data* as, when it is one character covering it (else None)."""
    toks = o.tokens(data)
    if len(toks) == 1 and toks[0][0] == "char" and toks[0][1:3] == (0, len(data)):
        return toks[0][3]
    return None


# --------------------------------------------------------------- the facts
# Shift_JIS decoder: lead 0x81..0x9F or 0xE0..0xFC; trail 0x40..0x7E or 0x80..0xFC;
# pointer (lead - offset) x 188 + byte - offset; 8836..10715 -> U+E000 - 8836 + pointer.
SJIS_LEADS = list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD))   # 31 + 29 = 60
SJIS_TRAILS = list(range(0x40, 0x7F)) + list(range(0x80, 0xFD))  # 63 + 125 = 188


def sjis_pointer(lead: int, trail: int) -> int:
    return (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 if trail < 0x7F else 0x41)


def sjis_table() -> dict[int, int]:
    got = dict(index_file("jis0208"))
    for p in range(8836, 10716):
        got[p] = 0xE000 - 8836 + p
    return got


def runs_of(entries: dict[int, int]) -> int:
    """Runs of consecutive pointers whose code points rise by one."""
    n = 0
    for p in sorted(entries):
        if not (p - 1 in entries and entries[p - 1] + 1 == entries[p]):
            n += 1
    return n


# --------------------------------------------------------------- describe
def test_describe_shift_jis_table_form(capsys):
    have("whatwg-shift_jis")
    jis = index_file("jis0208")
    assert len(jis) == 7724 and runs_of(jis) == 7103          # the index file, read here
    rc, out, err = run_cli(capsys, "describe", "whatwg-shift_jis")
    assert rc == 0 and err == ""
    # the rows, as before: single bytes 00..80 and A1..DF
    assert "00 … 80" in out and "A1 … DF" in out
    assert "table form double: 2 bytes, 81..9F, E0..FC then 40..7E, 80..FC" in out
    assert "pointer = byte 1 digit × 188 + byte 2 digit: 0..11279 (81 40 … FC FC)" in out
    assert "tables/whatwg/index-jis0208.txt" in out
    # 7,724 entries and the decoder's EUDC run 8836..10715 (1,880): one more run
    assert "pointers 0..11103: 9,604 entries in 7,104 runs" in out
    assert "8836..10715 = U+E000..U+E757 (F0 40 … F9 FC, 1,880)" in out
    # index Shift_JIS pointer: index jis0208 "excluding pointers in the range 8272 to 8835"
    assert "decode-only" in out and "8272..8" in out
    # the encoder's own rules: U+00A5 -> 0x5C, U+203E -> 0x7E, U+2212 -> U+FF0D (pointer 60: 81 7C)
    assert "U+00A5 -> 5C   (these bytes decode to U+005C)" in out
    assert "U+203E -> 7E   (these bytes decode to U+007E)" in out
    assert "U+2212 -> 81 7C   (these bytes decode to U+FF0D)" in out
    assert "errors: through-failing-byte" in out and "00..7F" in out


def test_describe_json_tables(capsys):
    have("whatwg-shift_jis")
    rc, out, _ = run_cli(capsys, "describe", "whatwg-shift_jis", "--json")
    doc = json.loads(out)
    assert list(doc)[:5] == ["name", "title", "rows", "reserved_leads", "signature"]
    (t,) = doc["tables"]
    table = sjis_table()
    mapped = sum(1 for lead in SJIS_LEADS for trail in SJIS_TRAILS if sjis_pointer(lead, trail) in table)
    assert (t["form"], t["length"], t["pointers"], t["kind"]) == ("double", 2, [0, 11279], "index")
    assert t["positions"] == ["81..9F, E0..FC", "40..7E, 80..FC"]
    assert t["entries"] == len(table) == 9604 and t["mapped"] == mapped and t["unmapped"] == 11280 - mapped
    assert t["runs"] == runs_of(table)
    covered = {p for lo, hi in t["decode_only"] for p in range(lo, hi + 1)}
    assert {p for p in range(8272, 8836) if p in table} <= covered
    assert {p for p in range(8836, 10716)} <= covered            # the encoder never writes EUDC
    assert doc["encode_only"] == [
        {"code_point": 0xA5, "bytes": "5C", "decodes_to": "U+005C"},
        {"code_point": 0x203E, "bytes": "7E", "decodes_to": "U+007E"},
        {"code_point": 0x2212, "bytes": "81 7C", "decodes_to": "U+FF0D"}]
    assert doc["errors"]["policy"] == "through-failing-byte" and doc["errors"]["restore"] == "00..7F"
    # a spec without tables keeps its documented shape
    rc, out, _ = run_cli(capsys, "describe", "utf-8", "--json")
    assert list(json.loads(out)) == ["name", "title", "rows", "reserved_leads", "signature"]


def test_describe_big5_several_code_points(capsys):
    """Big5 decoder: pointers 1133, 1135, 1164, 1166 are two code points each; pointer =
    (lead - 0x81) x 157 + byte - (0x40 if byte < 0x7F else 0x62): 1133 = 7 x 157 + 34 = 88 62."""
    have("whatwg-big5")
    rc, out, _ = run_cli(capsys, "describe", "whatwg-big5")
    for line in ("pointer 1133 (88 62) = U+00CA U+0304", "pointer 1135 (88 64) = U+00CA U+030C",
                 "pointer 1164 (88 A3) = U+00EA U+0304", "pointer 1166 (88 A5) = U+00EA U+030C"):
        assert line in out
    rc, out, _ = run_cli(capsys, "describe", "whatwg-big5", "--ill-formed")
    assert "table form double" in out and "no entry in table big5" in out


# --------------------------------------------------------------- check
def check_json(capsys, spec):
    rc, out, err = run_cli(capsys, "check", spec, "--json")
    assert rc == 0 and err == ""
    return json.loads(out)


def hexes(x: str) -> bytes:
    return bytes.fromhex(x)


def test_check_shift_jis(capsys):
    have("whatwg-shift_jis")
    o = oracle("whatwg-shift_jis")
    doc = check_json(capsys, "whatwg-shift_jis")
    p, ce = doc["properties"], doc["counterexamples"]
    # single bytes end at once and a lead needs its trail: no valid sequence prefixes another
    assert p["prefix_free"] is True
    # trail bytes 40..7E are ASCII characters on their own
    assert p["self_synchronizing"] is False and p["ascii_compatible"] is False
    whole, part = map(hexes, ce["self_synchronizing"])
    assert one_char(o, whole) is not None and one_char(o, part) is not None
    assert whole.find(part, 1) > 0          # it starts inside the valid sequence
    (seq,) = map(hexes, ce["ascii_compatible"])
    assert one_char(o, seq) is not None and any(b < 0x80 for b in seq[1:])
    # index jis0208 holds code points twice (NEC and IBM extensions): two sequences, one code point
    assert p["bijective"] is False
    x, y = ce["bijective"]
    if "->" in x:   # or an encoder-only entry: U+00A5 -> 5C, which reads back as U+005C
        assert x.startswith("U+") and "->" in y
    else:
        assert x != y and one_char(o, hexes(x)) == one_char(o, hexes(y)) is not None
    # the index is not in code point order: 81 4E (U+00A8) before 81 98 (U+00A7)
    assert p["order_preserving"] is False
    b1, b2 = map(hexes, ce["order_preserving"])
    assert one_char(o, b1) < one_char(o, b2) and b1 >= b2
    # U+0080 is 0x80 (the decoder's "ASCII byte or 0x80"), but the encoder writes nothing for U+0081
    assert p["total"] is False and ce["total"] == ["U+0081"]
    with pytest.raises(ValueError):
        o.encode([0x81])
    assert doc["max_length"] == 2 and doc["max_code_point"] == max(sjis_table().values())
    # 00..80 and A1..DF are 192 one-byte characters; 7,724 + 1,880 two-byte ones
    assert doc["lengths"] == {"1": 192, "2": 9604}


def test_check_bijective_and_total_read_the_tables(capsys):
    have("whatwg-gb18030", "whatwg-euc-kr")
    o = oracle("whatwg-gb18030")
    doc = check_json(capsys, "whatwg-gb18030")
    # gb18030 decoder: "If byte is 0x80, return code point U+20AC", and index gb18030 has U+20AC too
    assert doc["properties"]["bijective"] is False
    x, y = doc["counterexamples"]["bijective"]
    assert one_char(o, hexes(x)) == one_char(o, hexes(y)) == 0x20AC
    # U+E5E5 is refused ("If code point is U+E5E5, return error"), surrogates too: not total
    assert doc["properties"]["total"] is False
    cp = int(doc["counterexamples"]["total"][0][2:], 16)
    with pytest.raises(ValueError):
        o.encode([cp])
    assert doc["max_length"] == 4 and doc["max_code_point"] == 0x10FFFF
    # EUC-KR: index EUC-KR maps no code point twice and none below 0x80, so the decoder is
    # one to one; whether check agrees is read off the index file here
    euc = index_file("euc-kr")
    doc = check_json(capsys, "whatwg-euc-kr")
    assert doc["properties"]["bijective"] is (len(set(euc.values())) == len(euc)
                                              and min(euc.values()) >= 0x80)


def test_check_is_linear_in_the_tables():
    """gb18030's tables spell 1.1 million code points: the checks read runs, not points."""
    have("whatwg-gb18030")
    from encspec.analyse.properties import check
    a = automaton("whatwg-gb18030")
    start = time.process_time()  # CPU time: a busy machine's other processes do not count
    check(a)
    assert time.process_time() - start < 10


# --------------------------------------------------------------- chart
def test_codepage_chart_of_shift_jis(capsys, tmp_path):
    have("whatwg-shift_jis")
    from encspec.analyse.charts import codepage
    cells = codepage(automaton("whatwg-shift_jis"))
    kind = {c["byte"]: c["kind"] for c in cells}
    assert all(kind[b] == "table" for b in SJIS_LEADS)                 # lead bytes: shaded
    assert all(kind[b] == "single" for b in list(range(0x00, 0x81)) + list(range(0xA1, 0xE0)))
    assert kind[0xA0] == "continuation"                                  # a trail byte only
    assert all(kind[b] == "never" for b in (0xFD, 0xFE, 0xFF))
    # every trail byte is marked as continuing a sequence, the ASCII ones with their dot
    assert all(c["continues"] for c in cells if c["byte"] in SJIS_TRAILS)
    # occupancy: the share of each lead's 188 pointers with an entry, counted here from the index
    table = sjis_table()
    for c in cells:
        if c["kind"] == "table":
            lead = c["byte"]
            share = sum(1 for t in SJIS_TRAILS if sjis_pointer(lead, t) in table) / 188
            assert c["occupancy"] == round(share, 4), hex(lead)
    assert next(c for c in cells if c["byte"] == 0xF0)["occupancy"] == 1.0       # EUDC
    assert next(c for c in cells if c["byte"] == 0xEB)["occupancy"] == 0.0
    out = tmp_path / "sjis.svg"
    rc, _, err = run_cli(capsys, "chart", "whatwg-shift_jis", "--codepage", "-o", out)
    assert rc == 0 and err == ""
    svg = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    cell81 = next(g for g in svg.iter(f"{ns}g") if g.get("id") == "b81")
    assert "table" in cell81.get("class") and "fill:" in cell81.find(f"{ns}rect").get("style")
    assert "pointers have an entry" in cell81.find(f"{ns}title").text


# --------------------------------------------------------------- vectors
@pytest.mark.parametrize("spec", sorted(WITH_ORACLES))
def test_vectors_agree_with_the_oracles(spec):
    have(spec)
    o = oracle(spec)
    from encspec.analyse import vectors
    a = automaton(spec)
    cases = vectors.all_cases(a)
    bad = [(c.id, c.data.hex(" "), [t[:4] for t in c.tokens], o.tokens(c.data)) for c in cases
           if [tuple(t[:4]) for t in c.tokens] != [tuple(t) for t in o.tokens(c.data)]]
    assert not bad, bad[:5]
    notes = [c.note for c in cases]
    assert any("no entry" in n for n in notes)                        # unmapped pointers
    assert any("the first of the run" in n for n in notes)            # mapped runs
    for c in cases:   # encoder-only entries: the oracle's encoder writes exactly these bytes
        if c.note.startswith("encoder-only: U+"):
            assert o.encode([int(c.note.split()[1][2:], 16)]) == c.data, c.note


def test_vectors_cover_the_tables_cases():
    have("whatwg-shift_jis", "whatwg-big5")
    from encspec.analyse import vectors
    cases = {c.data: c for c in vectors.all_cases(automaton("whatwg-shift_jis"))}
    # the EUDC run's ends (pointers 8836 and 10715: F0 40 and F9 FC) and index jis0208's first entry
    assert cases[b"\xf0\x40"].tokens[0][3] == 0xE000 and cases[b"\xf9\xfc"].tokens[0][3] == 0xE757
    assert cases[b"\x81\x40"].tokens[0][3] == 0x3000
    # restore: a bad trail byte that is ASCII is read again ("81 20": one-byte error, then U+0020);
    # one that is not joins the error ("81 FD": one two-byte error)
    assert [t[:3] for t in cases[b"\x81\x00\x20"].tokens] == [("error", 0, 1), ("char", 1, 2), ("char", 2, 3)]
    assert [t[:3] for t in cases[b"\x81\xfd\x20"].tokens] == [("error", 0, 2), ("char", 2, 3)]
    # encoder-only: 5C is what U+00A5 is written as
    assert "encoder-only: U+00A5 is written as 5C" in cases[b"\x5c"].note or \
        any(c.note == "encoder-only: U+00A5 is written as 5C" for c in cases.values())
    big5 = {c.data: c for c in vectors.all_cases(automaton("whatwg-big5"))}
    assert big5[b"\x88\x62"].tokens[0][3] == (0xCA, 0x304)
    text = vectors.text(automaton("whatwg-big5"))
    assert "char 0 2 CA+304" in text
    parsed = {d: toks for _, d, toks in vectors.parse_text(text)}
    assert parsed[b"\x88\x62"][0] == ("char", 0, 2, (0xCA, 0x304))


# --------------------------------------------------------------- validate
def sjis_file(path: Path) -> bytes:
    import random
    rng = random.Random(7)
    good = ("日本語のテキスト、半角ｶﾀｶﾅ、ASCII。\n" * 400).encode("shift_jis")
    data = bytearray(good)
    for i in range(3, len(data), 211):
        data[i] = rng.choice([0x81, 0xA0, 0xFD, 0x85, 0x80, 0x0A, 0xEB])
    path.write_bytes(bytes(data))
    return bytes(data)


def test_validate_streams_table_specs(tmp_path, capsys):
    have("whatwg-shift_jis")
    o = oracle("whatwg-shift_jis")
    data = sjis_file(tmp_path / "a.txt")
    from encspec.codec import load
    from encspec.io import stream
    module = load("whatwg-shift_jis", backend="python")
    for chunk in (None, 1, 7, 4096):
        report = stream.validate_stream(module, stream.open_input(str(tmp_path / "a.txt")), chunk_size=chunk)
        assert [(p.start, p.end) for p in report.problems] == \
            [(s, e) for kind, s, e, _ in o.tokens(data) if kind == "error"]
    rc, out, _ = run_cli(capsys, "validate", "whatwg-shift_jis", tmp_path / "a.txt", "--json")
    assert rc == 1 and json.loads(out)["errors"] == sum(1 for t in o.tokens(data) if t[0] == "error")


def test_parallel_validate_table_specs(tmp_path):
    """Shift_JIS's trail bytes 40..7E are characters too: not self-synchronizing, so no cut
    is safe and a file is one task; the CJK table specs all are so.  Files still go in
    parallel, and the result is the sequential one."""
    have("whatwg-shift_jis")
    from encspec.codec import load
    from encspec.io import parallel, stream
    for spec in [s for s in ("whatwg-shift_jis", "shift_jis", "cp932", "whatwg-gb18030", "gb18030", "whatwg-big5",
                             "big5", "whatwg-euc-kr", "euc-kr", "whatwg-euc-jp", "euc-jp")
                 if (SPECS / f"{s}.encspec").exists()]:
        assert cut_at(spec) is None, spec
    paths = []
    for k in range(3):
        p = tmp_path / f"{k}.txt"
        sjis_file(p)
        paths.append(str(p))
    module = load("whatwg-shift_jis", backend="python")
    want = [stream.validate_stream(module, stream.open_input(p)) for p in paths]
    got = list(parallel.validate_files("whatwg-shift_jis", paths, jobs=2, split_size=1024,
                                      cut_at=cut_at("whatwg-shift_jis")))
    assert [r.problems for r in got] == [r.problems for r in want]


def test_splitting_is_refused_for_other_error_spans(tmp_path):
    """UTF-8 with one-unit errors is self-synchronizing, but a chunk that ends inside E2 82 makes
    one error to its end where the whole file has two one-byte errors: cutting there is unsound
    unless the stitch re-scans more than one token."""
    text = (SPECS / "utf-8.encspec").read_text("utf-8")
    text = text.replace("encoding utf-8", "encoding utf-8-one-unit").replace("code-space", "error-span one-unit\ncode-space", 1)
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("aliases", "claims")))
    spec = tmp_path / "u.encspec"
    spec.write_text(text, "utf-8")
    data = (b"abc\xe2\x82" + b"A" * 10 + b"\xe2\x82\xac\n") * 3
    (tmp_path / "f.txt").write_bytes(data)
    from encspec.codec import load
    from encspec.io import parallel, stream
    assert cut_at(str(spec)) is None  # refused: one task per file
    assert cut_at(str(SPECS / "utf-8.encspec")) is not None  # the same spec, split
    want = stream.validate_stream(load(str(spec)), stream.open_input(str(tmp_path / "f.txt")))
    assert [(p.start, p.end) for p in want.problems][:2] == [(3, 4), (4, 5)]  # E2 82: two one-byte errors
    got = list(parallel.validate_files(str(spec), [str(tmp_path / "f.txt")], jobs=2, split_size=4,
                                      cut_at=cut_at(str(spec))))
    assert got[0].problems == want.problems
