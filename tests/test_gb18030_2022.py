"""gb18030-2022: CPython's gb18030 (GB 18030-2000) with the 2005 swap and the 2022 changes.

The expected mappings are written out by hand from the sources the spec cites:
GB 18030-2005's A8 BC <-> U+1E3F / 81 35 F4 37 <-> U+E7C7 (WHATWG issue #22 and
the Encoding Standard's index gb18030), and GB 18030-2022's 18 two-byte
characters out of the Private Use Area with their four-byte sequences swapped
(eisoch/irg issue #53; Unicode L2/23-003r "Current Mappings"; ICU-22357).
Everything else must stay CPython's gb18030, checked against CPython itself.
"""

import pytest

import encspec

# (bytes, GB 18030-2022's code point, GB 18030-2000's = CPython's)
CHANGED = [
    ("A8BC", 0x1E3F, 0xE7C7), ("8135F437", 0xE7C7, 0x1E3F),                       # 2005
    ("A6D9", 0xFE10, 0xE78D), ("A6DA", 0xFE12, 0xE78E), ("A6DB", 0xFE11, 0xE78F),  # 2022: vertical forms
    ("A6DC", 0xFE13, 0xE790), ("A6DD", 0xFE14, 0xE791), ("A6DE", 0xFE15, 0xE792),
    ("A6DF", 0xFE16, 0xE793), ("A6EC", 0xFE17, 0xE794), ("A6ED", 0xFE18, 0xE795), ("A6F3", 0xFE19, 0xE796),
    ("FE59", 0x9FB4, 0xE81E), ("FE61", 0x9FB5, 0xE826), ("FE66", 0x9FB6, 0xE82B),  # 2022: row FE
    ("FE67", 0x9FB7, 0xE82C), ("FE6D", 0x9FB8, 0xE832), ("FE7E", 0x9FB9, 0xE843),
    ("FE90", 0x9FBA, 0xE854), ("FEA0", 0x9FBB, 0xE864),
    ("84318236", 0xE78D, 0xFE10), ("84318238", 0xE78E, 0xFE12), ("84318237", 0xE78F, 0xFE11),  # the swap
    ("84318239", 0xE790, 0xFE13), ("84318330", 0xE791, 0xFE14), ("84318331", 0xE792, 0xFE15),
    ("84318332", 0xE793, 0xFE16), ("84318333", 0xE794, 0xFE17), ("84318334", 0xE795, 0xFE18),
    ("84318335", 0xE796, 0xFE19),
    ("82359037", 0xE81E, 0x9FB4), ("82359038", 0xE826, 0x9FB5), ("82359039", 0xE82B, 0x9FB6),
    ("82359130", 0xE82C, 0x9FB7), ("82359131", 0xE832, 0x9FB8), ("82359132", 0xE843, 0x9FB9),
    ("82359133", 0xE854, 0x9FBA), ("82359134", 0xE864, 0x9FBB),
]


@pytest.fixture(scope="module")
def m():
    return encspec.load("gb18030-2022")


def test_the_changed_sequences(m):
    for hexdata, new, old in CHANGED:
        data = bytes.fromhex(hexdata)
        assert data.decode("gb18030") == chr(old), hexdata          # CPython's is the 2000 edition
        assert m.decode(data) == chr(new), hexdata
        assert m.encode(chr(new)) == data, hexdata                   # both directions: round-trip
    assert len({new for _, new, _ in CHANGED}) == len(CHANGED) == 38


def test_everything_else_is_cpythons_gb18030(m):
    changed = {bytes.fromhex(h) for h, _, _ in CHANGED}
    inputs = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(256) for b in range(256)]
    inputs += [bytes([a, b, c, d]) for a in (0x81, 0x82, 0x84, 0x8F, 0x90, 0xE3, 0xFE) for b in range(0x30, 0x3A)
               for c in (0x81, 0x90, 0x9A, 0xA5, 0xF4, 0xFE) for d in range(0x30, 0x3A)]
    inputs += [bytes.fromhex(h)[:-1] + bytes([x]) for h, _, _ in CHANGED for x in (0x30, 0x39, 0x41, 0xFF)]
    for data in inputs:
        if data in changed:
            continue
        want = data.decode("gb18030", "replace")
        assert m.decode(data, "replace") == want, data.hex()
    changed_cps = {new for _, new, _ in CHANGED}
    text = "".join(chr(cp) for cp in range(0x80, 0x10000) if not 0xD800 <= cp <= 0xDFFF and cp not in changed_cps)
    assert m.encode(text) == text.encode("gb18030")


def _expand(pattern):
    """The byte sequences of a diff pattern ('A6 DC..DF', '84 31 83 30..35')."""
    seqs = [b""]
    for part in pattern.split():
        lo, _, hi = part.partition("..")
        seqs = [s + bytes([b]) for s in seqs for b in range(int(lo, 16), int(hi or lo, 16) + 1)]
    return seqs


def test_diff_lists_exactly_the_changed_sequences_and_code_points(capsys):
    """`encspec diff gb18030 gb18030-2022` reports those 38 sequences and 38 code points, nothing else."""
    import json

    from conftest import run_cli
    rc, out, _ = run_cli(capsys, "diff", "gb18030", "gb18030-2022", "--json")
    report = json.loads(out)
    assert report["only_a"] == [] and report["only_b"] == [] and report["errors"] == []
    decoded = {s for d in report["different"] for s in _expand(d["pattern"])}
    assert decoded == {bytes.fromhex(h) for h, _, _ in CHANGED}
    encoded = {cp for d in report["encoder"]["different"] for cp in range(d["first"], d["last"] + 1)}
    assert encoded == {new for _, new, _ in CHANGED} | {old for _, _, old in CHANGED}
    assert report["encoder"]["only_a"] == [] and report["encoder"]["only_b"] == []
