"""`encspec diff`: differences computed on the product automaton, checked against
the generated decoders by brute force on sequences built from boundary bytes."""
from __future__ import annotations

import itertools
import json

import pytest

import encspec
from encspec.cli import main


def run(capsys, *argv):
    try:
        rc = main(list(argv))
    except SystemExit as e:   # a non-zero verdict exits as `build --check` does
        rc = e.code
    out = capsys.readouterr()
    return rc, out.out, out.err


def diff_json(capsys, a, b):
    rc, out, _ = run(capsys, "diff", a, b, "--json")
    return rc, json.loads(out)


def test_utf8_wtf8_exactly_the_lone_surrogates(capsys):
    rc, d = diff_json(capsys, "utf-8", "wtf-8")
    assert rc == 1 and not d["equivalent"]
    assert d["only_a"] == [] and d["different"] == []
    assert [p["pattern"] for p in d["only_b"]] == ["ED A0..BF 80..BF"]
    assert d["only_b"][0]["example"] == "ED A0 80" and d["only_b"][0]["b"] == 0xD800
    rc, out, _ = run(capsys, "diff", "utf-8", "wtf-8")
    assert rc == 1
    assert "valid only in wtf-8: 1 pattern\n  ED A0..BF 80..BF" in out


def test_identical_specs_are_equivalent(capsys):
    rc, out, _ = run(capsys, "diff", "utf-8", "utf-8")
    assert rc == 0
    assert "equivalent" in out
    rc, d = diff_json(capsys, "utf-8", "utf8")   # an alias is the same spec
    assert rc == 0 and d["equivalent"]
    assert d["only_a"] == d["only_b"] == d["different"] == []


def test_utf8_cesu8_both_directions(capsys):
    rc, d = diff_json(capsys, "utf-8", "cesu-8")
    assert rc == 1
    assert [p["pattern"] for p in d["only_a"]] == [
        "F0 90..BF 80..BF 80..BF", "F1..F3 80..BF 80..BF 80..BF", "F4 80..8F 80..BF 80..BF"]
    assert [p["pattern"] for p in d["only_b"]] == ["ED A0..AF 80..BF ED B0..BF 80..BF"]
    assert d["different"] == []
    # the same code point on both sides of the difference: UTF-8's 4 bytes, CESU-8's 6
    assert d["only_a"][0]["a"] == d["only_b"][0]["b"] == 0x10000


def test_decoded_differently(capsys):
    rc, d = diff_json(capsys, "utf-8", "corrected-utf-8")
    assert rc == 1
    two = next(p for p in d["different"] if p["pattern"] == "C2..DF 80..BF")
    assert two["everywhere"] and two["a"] == 0x80 and two["b"] == 0x80 + 160
    assert "C0..C1 80..BF" in [p["pattern"] for p in d["only_b"]]   # no overlongs: packed
    assert d["signature"] == {"a": None, "b": "EF B7 9D ED B2 AE 00 0A"}


def test_signature_alone_is_a_difference(capsys):
    rc, d = diff_json(capsys, "utf-8", "utf-8-bom")
    assert rc == 1
    assert d["only_a"] == d["only_b"] == d["different"] == []
    assert d["signature"] == {"a": None, "b": "EF BB BF"}


def test_counted_forms_are_bounded_part_only(capsys):
    rc, out, _ = run(capsys, "diff", "utf-8-rfc2279", "utf-inf-8")
    assert rc == 1
    assert "bounded part only" in out
    assert "FE 82..BF 80..BF 80..BF 80..BF 80..BF 80..BF" in out


def test_unknown_spec_is_one_line(capsys):
    rc, out, err = run(capsys, "diff", "utf-8", "no-such-encoding")
    assert rc == 2 and err.count("\n") == 1


def matches(pattern: str, data: bytes) -> bool:
    parts = pattern.split()
    if len(parts) != len(data):
        return False
    for part, x in zip(parts, data):
        lo, _, hi = part.partition("..")
        if not int(lo, 16) <= x <= int(hi or lo, 16):
            return False
    return True


def one_char(module, data: bytes):
    toks = list(module.tokens(data))
    if len(toks) == 1 and toks[0][0] == "char" and toks[0][1:3] == (0, len(data)):
        return toks[0][3]
    return None


BYTES = (0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
         0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xF7, 0xF8, 0xFC, 0xFD, 0xFE, 0xFF)
CONT = (0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0x41, 0xC0)


def samples():
    yield from (bytes([x]) for x in BYTES)
    for x in BYTES:
        for n in range(1, 4):
            for tail in itertools.product(CONT, repeat=n):
                yield bytes([x, *tail])
    for hi in (0xA0, 0xAF, 0xB0):
        for lo in (0xB0, 0xBF, 0xA0):
            yield bytes([0xED, hi, 0x80, 0xED, lo, 0xBF])


@pytest.mark.parametrize("a,b", [("utf-8", "wtf-8"), ("utf-8", "cesu-8"), ("utf-8", "corrected-utf-8"),
                                 ("mutf-8", "cesu-8"), ("utf-8", "utf-8-rfc2279"), ("fss-utf-1992", "utf-8")])
def test_patterns_agree_with_the_decoders(capsys, a, b):
    _, d = diff_json(capsys, a, b)
    ma, mb = encspec.load(a), encspec.load(b)
    for data in samples():
        va, vb = one_char(ma, data), one_char(mb, data)
        in_a = any(matches(p["pattern"], data) for p in d["only_a"])
        in_b = any(matches(p["pattern"], data) for p in d["only_b"])
        differ = [p for p in d["different"] if matches(p["pattern"], data)]
        assert in_a == (va is not None and vb is None), data.hex()
        assert in_b == (vb is not None and va is None), data.hex()
        if va is not None and vb is not None and va != vb:
            assert differ, data.hex()
        if differ and all(p["everywhere"] for p in differ):
            assert va is not None and vb is not None and va != vb, data.hex()
    for p in d["only_a"] + d["only_b"] + d["different"]:
        ex = bytes.fromhex(p["example"])
        assert matches(p["pattern"], ex)
        assert one_char(ma, ex) == p["a"] and one_char(mb, ex) == p["b"]
