"""`encspec diff` between specs with mapping tables, against brute force.

For each pair of table specs present, both specs' Python modules tokenise every input
of one and two bytes; wherever their tokens differ, the first differing token must
begin a byte sequence that one of the report's patterns matches (valid in one only,
decoded differently, or erring differently), and no pattern may claim a difference
that is not there.  Two pairs are made here so that the exact report is known by
construction: WHATWG Shift_JIS against itself with a few table entries changed
(`with`), and against itself with CPython's one-byte errors (`error-span one-unit`).
"""
from __future__ import annotations

import itertools
import json
import os

import pytest

from conftest import ROOT, builtin_spec_file, run_cli

SPECS = ROOT / "specs"
PAIRS = [("whatwg-shift_jis", "shift_jis"), ("cp932", "whatwg-shift_jis"), ("big5", "whatwg-big5"),
         ("gb18030", "whatwg-gb18030"), ("gb18030", "gb18030-2022"), ("whatwg-gbk", "whatwg-gb18030"),
         ("euc-kr", "whatwg-euc-kr"), ("euc-jp", "whatwg-euc-jp"), ("utf-8", "whatwg-shift_jis")]
KINDS = ("only_a", "only_b", "different", "errors")


def index_file(name: str) -> dict[int, int]:
    out = {}
    for line in (SPECS / "tables" / "whatwg" / f"index-{name}.txt").read_text("utf-8").split("\n"):
        if line and not line.startswith("#"):
            p, cp = line.split("\t")[:2]
            out[int(p)] = int(cp, 16)
    return out


def spec_path(name: str):
    return str(builtin_spec_file(name))


def variant(tmp_path, name: str, old: str, new: str) -> str:
    """specs/whatwg-shift_jis.encspec with *old* replaced by *new*, in tmp_path (its tables beside it)."""
    text = (SPECS / "whatwg-shift_jis.encspec").read_text("utf-8")
    assert old in text
    text = text.replace(old, new).replace("encoding whatwg-shift_jis", f"encoding {name}")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("aliases"))
    if not (tmp_path / "tables").exists():
        os.symlink(SPECS / "tables", tmp_path / "tables")
    path = tmp_path / f"{name}.encspec"
    path.write_text(text + "\n", "utf-8")
    return str(path)


def compare(a_ref: str, b_ref: str):
    """(diff, A's module, B's module) for two spec references."""
    import encspec
    from encspec.analyse.diff import diff
    from encspec.pipeline import load
    a, b = load(a_ref)[1], load(b_ref)[1]
    return diff(a, b), encspec.load(a_ref, backend="python"), encspec.load(b_ref, backend="python")


def matches(p, rest: bytes) -> bool:
    if len(p.ranges) > len(rest) or (p.key[0] == "errors" and p.end and len(p.ranges) != len(rest)):
        return False
    return all(lo <= x <= hi for x, (lo, hi) in zip(rest, p.ranges))


def brute_force(d, ma, mb) -> int:
    """Check the report against every input of one and two bytes; the number that differ."""
    assert d.tables
    patterns = [p for k in KINDS for p in getattr(d, k)]
    by_first: dict = {}
    for p in patterns:
        for x in range(p.ranges[0][0], p.ranges[0][1] + 1):
            by_first.setdefault(x, []).append(p)
    missing = []
    differ = 0
    inputs = itertools.chain((bytes([x]) for x in range(256)),
                             (bytes([x, y]) for x in range(256) for y in range(256)))
    for data in inputs:
        ta, tb = list(ma.tokens(data)), list(mb.tokens(data))
        if ta == tb:
            continue
        differ += 1
        i = 0
        while i < len(ta) and i < len(tb) and ta[i] == tb[i]:
            i += 1
        pos = ta[i][1] if i < len(ta) else tb[i][1]
        rest = data[pos:]
        if not any(matches(p, rest) for p in by_first.get(rest[0], ())):
            missing.append((data.hex(" "), ta, tb))
    assert not missing, missing[:5]
    # no pattern claims a difference that is not there (every point of up to two bytes)
    for p in patterns:
        if len(p.ranges) > 2:
            continue
        for point in itertools.product(*(range(lo, hi + 1) for lo, hi in p.ranges)):
            s = bytes(point)
            ta, tb = list(ma.tokens(s)), list(mb.tokens(s))
            one_a = len(ta) == 1 and ta[0][0] == "char" and ta[0][2] == len(s)
            one_b = len(tb) == 1 and tb[0][0] == "char" and tb[0][2] == len(s)
            kind = p.key[0]
            ok = {"only_a": one_a and not one_b, "only_b": one_b and not one_a,
                  "different": one_a and one_b and ta[0][3] != tb[0][3],
                  "errors": ta[0][0] != "char" and tb[0][0] != "char" and ta[0][:3] != tb[0][:3]}[kind]
            assert ok, (kind, p.text, s.hex(" "), ta, tb)
            if kind == "errors" and not p.end and len(s) == 1:   # whatever follows
                for y in (0x00, 0x41, 0x81, 0xA1, 0xFF):
                    assert list(ma.tokens(s + bytes([y])))[0] == ta[0]
                    assert list(mb.tokens(s + bytes([y])))[0] == tb[0]
    # the encoders, on every code point of the BMP: each difference in exactly one run of its kind
    kinds = {}
    for kind, runs in d.encoder.items():
        for r in runs:
            for cp in range(r.first, min(r.last, 0xFFFF) + 1):
                kinds[cp] = kind
            if r.first <= 0xFFFF:
                assert (encode(ma, r.first), encode(mb, r.first)) == (r.a, r.b)
    wrong = []
    for cp in range(0x10000):
        ea, eb = encode(ma, cp), encode(mb, cp)
        kind = None if ea == eb else "only_a" if eb is None else "only_b" if ea is None else "different"
        if kinds.get(cp) != kind:
            wrong.append((f"U+{cp:04X}", ea, eb, kinds.get(cp)))
    assert not wrong, wrong[:5]
    return differ


def encode(module, cp: int):
    try:
        return module.encode([cp])
    except UnicodeEncodeError:
        return None


@pytest.mark.parametrize("a,b", PAIRS, ids=["/".join(p) for p in PAIRS])
def test_builtin_pairs_against_brute_force(a, b):
    d, ma, mb = compare(spec_path(a), spec_path(b))
    differ = brute_force(d, ma, mb)
    assert (differ == 0) == (not (d.only_a or d.only_b or d.different or d.errors))


def sjis_pointer(lead: int, trail: int) -> int:
    return (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + trail - (0x40 if trail < 0x7F else 0x41)


def test_changed_entries_give_exactly_their_report(tmp_path, capsys):
    """B is WHATWG Shift_JIS with: EUDC on lead F0 only (pointers 8836..9023), pointer 0
    (81 40) = U+3001, pointers 1..2 (81 41..42) = U+FF10..U+FF11 and pointer 11104 (FC 4C,
    past index jis0208's last entry, 11103) = U+4E00."""
    jis = index_file("jis0208")
    assert (jis[0], jis[1], jis[2]) == (0x3000, 0x3001, 0x3002) and 11104 not in jis and max(jis) == 11103
    firsts = {}
    for p in sorted(jis):
        firsts.setdefault(jis[p], p)
    assert firsts[0xFF10] == sjis_pointer(0x82, 0x4F) and firsts[0xFF11] == sjis_pointer(0x82, 0x50)
    assert firsts[0x4E00] == sjis_pointer(0x88, 0xEA) < 11104
    assert sorted(p for p, cp in jis.items() if cp in (0x3000, 0x3001, 0x3002, 0xFF10, 0xFF11)) == [0, 1, 2, 203, 204]
    b = variant(tmp_path, "sjis-changed", "with 8836..10715 = U+E000",
                "with 8836..9023 = U+E000\n      with 0 = U+3001\n      with 1..2 = U+FF10\n"
                "      with 11104 = U+4E00")
    a = spec_path("whatwg-shift_jis")
    d, ma, mb = compare(a, b)
    assert [(p.text, p.count) for p in d.only_a] == [("F1..F9 40..7E", 9 * 63), ("F1..F9 80..FC", 9 * 125)]
    assert [(p.text, p.count, p.b) for p in d.only_b] == [("FC 4C", 1, 0x4E00)]
    assert [(p.text, p.count, p.a, p.b) for p in d.different] == [("81 40", 1, 0x3000, 0x3001),
                                                                   ("81 41..42", 2, 0x3001, 0xFF10)]
    assert d.errors == []
    enc = d.encoder
    assert [(r.first, r.last, r.a) for r in enc["only_a"]] == [(0x3000, 0x3000, b"\x81\x40"),
                                                              (0x3002, 0x3002, b"\x81\x42")]
    assert enc["only_b"] == []
    assert [(r.first, r.last, r.a, r.b) for r in enc["different"]] == [
        (0x3001, 0x3001, b"\x81\x41", b"\x81\x40"), (0xFF10, 0xFF11, b"\x82\x4f", b"\x81\x41")]
    assert brute_force(d, ma, mb) > 0
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1
    assert "valid only in whatwg-shift_jis: 1,692 sequences in 2 patterns" in out
    assert "81 41..42  2  e.g. 81 41 = U+3001 / U+FF10" in out
    assert "FC 4C  1  e.g. FC 4C = U+4E00" in out
    rc, out, _ = run_cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert list(doc) == ["a", "b", "equivalent", "only_a", "only_b", "different", "signature", "notes",
                         "errors", "tokens", "encoder"]
    assert doc["different"][0] == {"pattern": "81 40", "example": "81 40", "a": 0x3000, "b": 0x3001, "count": 1,
                                   "everywhere": True}
    assert doc["encoder"]["different"][1] == {"first": 0xFF10, "last": 0xFF11, "count": 2, "a": "82 4F", "b": "81 41"}


def test_error_spans_alone(tmp_path, capsys):
    """B reads WHATWG Shift_JIS with one-byte errors.  The first tokens differ exactly where
    WHATWG's error takes a second byte: a lead, then a byte that is no ASCII byte and either
    cannot follow (FD..FF) or makes a pointer without an entry (80..FC)."""
    b = variant(tmp_path, "sjis-one-unit", "error-span through-failing-byte restore 00..7F", "error-span one-unit")
    a = spec_path("whatwg-shift_jis")
    d, ma, mb = compare(a, b)
    table = set(index_file("jis0208")) | set(range(8836, 10716))
    leads = list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD))
    expected = 3 * len(leads) + sum(1 for lead in leads for t in range(0x80, 0xFD) if sjis_pointer(lead, t) not in table)
    assert d.only_a == d.only_b == d.different == [] and not any(d.encoder.values())
    assert sum(p.count for p in d.errors) == expected
    assert {(p.a, p.b) for p in d.errors} == {("error of 2 bytes", "error of 1 byte")}
    assert all(len(p.ranges) == 2 and not p.end for p in d.errors)
    brute_force(d, ma, mb)
    rc, out, _ = run_cli(capsys, "diff", a, b)
    assert rc == 1 and f"errors differ (whatwg-shift_jis / sjis-one-unit): {expected:,} sequences" in out


def test_a_table_spec_is_equivalent_to_itself(capsys):
    a = spec_path("whatwg-shift_jis")
    rc, out, _ = run_cli(capsys, "diff", a, "whatwg-shift_jis")
    assert rc == 0 and "are equivalent" in out
    rc, out, _ = run_cli(capsys, "diff", "whatwg-shift_jis", "whatwg-shift_jis", "--json")
    doc = json.loads(out)
    assert doc["equivalent"] and doc["errors"] == [] and doc["encoder"] == {"only_a": [], "only_b": [],
                                                                           "different": []}
