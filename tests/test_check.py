"""`encspec check`: properties a person can confirm from the documents, each
counterexample verified by decoding it with the generated module."""
from __future__ import annotations

import json

import pytest

import encspec
from encspec.analyse.properties import NAMES
from encspec.cli import main


def check_json(capsys, spec):
    rc = main(["check", spec, "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    return json.loads(out)


def chars(spec, data: bytes) -> list[tuple[int, int, int]]:
    """(start, end, code point) of each char token; errors are kept as (start, end, None)."""
    return [(s, e, v) for kind, s, e, v in encspec.load(spec).tokens(data)]


def is_one_valid_sequence(spec, data: bytes) -> bool:
    toks = list(encspec.load(spec).tokens(data))
    return len(toks) == 1 and toks[0][0] == "char" and toks[0][1:3] == (0, len(data))


def is_viable_prefix(spec, data: bytes) -> bool:
    """The bytes are a proper prefix of some valid sequence: decoding stops at the end of
    data with an error covering all of it (the maximal subpart), and some continuation
    byte makes the decoder read on."""
    toks = list(encspec.load(spec).tokens(data))
    if not (len(toks) == 1 and toks[0][0] == "error" and toks[0][1:3] == (0, len(data))):
        return False
    for b in range(256):
        t = list(encspec.load(spec).tokens(data + bytes([b])))
        if t[0][0] == "char" and t[0][2] == len(data) + 1:
            return True
        if t[0][2] > len(data):
            return True
    return False


def test_json_shape(capsys):
    for spec in ("utf-8", "utf-inf-8", "mutf-8"):
        d = check_json(capsys, spec)
        assert set(d) >= {"properties", "counterexamples", "max_length", "max_code_point", "lengths"}
        assert set(d["properties"]) == set(NAMES)
        assert all(isinstance(v, bool) for v in d["properties"].values())
        assert set(d["counterexamples"]) == {k for k, v in d["properties"].items() if not v}
        for _name, example in d["counterexamples"].items():
            assert isinstance(example, list) and example
            for x in example:
                bytes.fromhex(x)  # every counterexample is hex bytes a decoder can read
        assert d["max_length"] is None or isinstance(d["max_length"], int)
        assert d["max_code_point"] is None or isinstance(d["max_code_point"], int)
        for n, count in d["lengths"].items():
            assert n.isdigit() or n == "counted"
            assert isinstance(count, int) or n == "counted"
    assert check_json(capsys, "utf-8")["max_length"] == 4
    assert check_json(capsys, "utf-8")["max_code_point"] == 0x10FFFF
    assert check_json(capsys, "utf-8")["lengths"] == {"1": 128, "2": 1920, "3": 61440, "4": 1048576}
    inf = check_json(capsys, "utf-inf-8")
    assert inf["max_length"] is None and inf["max_code_point"] is None


@pytest.mark.parametrize("spec", ["utf-8", "corrected-utf-8", "wtf-8", "utf-8-bom", "utf-8-rfc2279"])
def test_all_properties_hold(capsys, spec):
    d = check_json(capsys, spec)
    assert all(d["properties"].values()), d
    assert d["counterexamples"] == {}


def test_text_output_lists_every_property(capsys):
    assert main(["check", "cesu-8"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        assert name in out
    assert "order_preserving     no   counterexample: EF BF BF / ED A0 80 ED B0 80" in out


def test_cesu8_not_order_preserving(capsys):
    d = check_json(capsys, "cesu-8")
    assert not d["properties"]["order_preserving"]
    assert all(v for k, v in d["properties"].items() if k != "order_preserving")
    b1, b2 = (bytes.fromhex(x) for x in d["counterexamples"]["order_preserving"])
    m = encspec.load("cesu-8")
    (c1,), (c2,) = m.decode_codepoints(b1), m.decode_codepoints(b2)
    # byte order and code point order disagree
    assert (b1 < b2) != (c1 < c2)
    # supplementary sequences sort like UTF-16: below U+E000..U+FFFF
    assert max(c1, c2) >= 0x10000 and 0xE000 <= min(c1, c2) <= 0xFFFF


@pytest.mark.parametrize("spec", ["utf-1", "fss-utf-1992", "mutf-8"])
def test_not_self_synchronizing(capsys, spec):
    d = check_json(capsys, spec)
    assert not d["properties"]["self_synchronizing"]
    whole, suffix = (bytes.fromhex(x) for x in d["counterexamples"]["self_synchronizing"])
    assert is_one_valid_sequence(spec, whole)
    assert len(suffix) < len(whole) and whole.endswith(suffix)
    first = chars(spec, suffix)[0]
    assert first[2] is not None and first[0] == 0 or is_viable_prefix(spec, suffix)


def test_self_synchronizing_counterexamples_are_false_matches(capsys):
    # UTF-1: A1 21 is U+0100, and its trail byte 21 alone is '!'
    d = check_json(capsys, "utf-1")
    assert d["counterexamples"]["self_synchronizing"] == ["A1 21", "21"]
    assert encspec.load("utf-1").decode_codepoints(b"\xa1\x21") == [0x100]
    assert encspec.load("utf-1").decode_codepoints(b"\x21") == [0x21]
    # FSS-UTF (1992): trail bytes are 1xxxxxxx, so 80 80 inside C0 80 80 is a 2-byte code
    d = check_json(capsys, "fss-utf-1992")
    whole, suffix = (bytes.fromhex(x) for x in d["counterexamples"]["self_synchronizing"])
    m = encspec.load("fss-utf-1992")
    assert len(m.decode_codepoints(whole)) == 1
    assert m.decode_codepoints(suffix[:2])  # a complete character from the middle


def test_utf1_ascii_bytes_inside_sequences(capsys):
    d = check_json(capsys, "utf-1")
    assert not d["properties"]["ascii_compatible"]
    (example,) = (bytes.fromhex(x) for x in d["counterexamples"]["ascii_compatible"])
    assert is_one_valid_sequence("utf-1", example)
    assert any(b < 0x80 for b in example[1:])


def test_mutf8_not_ascii_compatible_for_nul(capsys):
    d = check_json(capsys, "mutf-8")
    assert not d["properties"]["ascii_compatible"]
    assert d["counterexamples"]["ascii_compatible"] == ["00"]
    m = encspec.load("mutf-8")
    assert [t[0] for t in m.tokens(b"\x00")] == ["error"]       # 00 is not U+0000 here
    assert m.decode_codepoints(b"\xc0\x80") == [0]               # C0 80 is


def test_mutf8_other_counterexamples_decode_as_claimed(capsys):
    d = check_json(capsys, "mutf-8")
    m = encspec.load("mutf-8")
    short, long = (bytes.fromhex(x) for x in d["counterexamples"]["prefix_free"])
    assert long.startswith(short) and len(long) > len(short)
    assert is_one_valid_sequence("mutf-8", short) and is_one_valid_sequence("mutf-8", long)
    b1, b2 = (bytes.fromhex(x) for x in d["counterexamples"]["order_preserving"])
    (c1,), (c2,) = m.decode_codepoints(b1), m.decode_codepoints(b2)
    assert (b1 < b2) != (c1 < c2)


REPS = (0x00, 0x21, 0x7F, 0x80, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
        0xF0, 0xF4, 0xF8, 0xFC, 0xFE, 0xFF)


@pytest.mark.parametrize("spec", ["utf-8", "cesu-8", "utf-1", "fss-utf-1992", "corrected-utf-8"])
def test_self_synchronizing_agrees_with_brute_force_on_short_sequences(capsys, spec):
    """A brute-force search over valid sequences of up to 3 bytes (built from boundary
    bytes) for a proper suffix that decodes starting with a character: it finds one
    exactly where the analysis says the property fails within 3 bytes."""
    m = encspec.load(spec)
    seqs = [bytes([a]) for a in REPS] + [bytes([a, b]) for a in REPS for b in REPS]
    seqs += [bytes([a, b, c]) for a in REPS if a >= 0x80 for b in REPS for c in REPS]
    found = None
    for s in seqs:
        toks = list(m.tokens(s))
        if len(toks) == 1 and toks[0][0] == "char" and len(s) > 1:
            for k in range(1, len(s)):
                if next(iter(m.tokens(s[k:])))[0] == "char":
                    found = (s, s[k:])
                    break
        if found:
            break
    d = check_json(capsys, spec)
    assert d["properties"]["self_synchronizing"] == (found is None), found
