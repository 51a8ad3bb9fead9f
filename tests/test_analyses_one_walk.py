"""check and diff answer each question with one walk, table specs a case of it (issue 27).

Each counterexample and each reported difference of a table spec is checked here
against CPython's own codecs (``codecs``, independent of encspec): if the one walk
lost its table case (a state's acceptance taken for a character where the pointer
has no entry, a table run or an encoder-only entry left out), a claim would stop
holding in CPython.  The specs compared are those modelled on CPython's codecs.
"""
from __future__ import annotations

import pytest

from encspec.analyse.diff import diff
from encspec.analyse.properties import check
from encspec.pipeline import load

CPYTHON = {"big5": "big5", "shift_jis": "shift_jis", "cp932": "cp932", "euc-kr": "euc_kr",
           "euc-jp": "euc_jp", "gb18030": "gb18030", "utf-8": "utf-8"}


def one_char(codec: str, data: bytes) -> str | None:
    """The one character *data* is in CPython's *codec*, else None."""
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return text if len(text) == 1 else None


def written(codec: str, cp: int) -> bytes | None:
    try:
        return chr(cp).encode(codec)
    except UnicodeEncodeError:
        return None


def points(ranges, k: int = 3) -> list[bytes]:
    """The low corner, the high corner and the middle of a pattern's box."""
    picks = (lambda lo, hi: lo, lambda lo, hi: hi, lambda lo, hi: (lo + hi) // 2)[:k]
    return sorted({bytes(pick(lo, hi) for lo, hi in ranges) for pick in picks})


def covers(patterns, x: bytes) -> bool:
    """Whether one of *patterns* matches the byte sequence *x*."""
    return any(len(p.ranges) == len(x) and all(lo <= v <= hi for v, (lo, hi) in zip(x, p.ranges))
               for p in patterns)


@pytest.mark.parametrize("spec", ["big5", "shift_jis", "cp932", "euc-kr", "euc-jp", "gb18030"])
def test_check_counterexamples_of_table_specs_hold_in_cpython(spec):
    codec = CPYTHON[spec]
    report = check(load(spec)[1])
    ce = report.counterexamples
    # none of these six is self-synchronising: a trail byte is a lead or an ASCII byte
    assert report.properties["self_synchronizing"] is False
    whole, part = ce["self_synchronizing"]
    assert one_char(codec, whole) is not None
    assert whole.find(part, 1) > 0 and one_char(codec, part) is not None
    if not report.properties["order_preserving"]:
        b1, b2 = ce["order_preserving"]
        c1, c2 = one_char(codec, b1), one_char(codec, b2)
        assert c1 is not None and c2 is not None and ord(c1) < ord(c2) and b1 > b2
    if not report.properties["ascii_compatible"]:
        (seq,) = ce["ascii_compatible"]
        assert one_char(codec, seq) is not None and any(x < 0x80 for x in seq[1:])
    else:
        assert all(one_char(codec, bytes([x])) == chr(x) for x in range(0x80))
    if not report.properties["bijective"] and all(isinstance(x, bytes) for x in ce["bijective"]):
        b1, b2 = ce["bijective"]
        assert b1 != b2 and one_char(codec, b1) is not None and one_char(codec, b1) == one_char(codec, b2)
    if not report.properties["total"]:
        (cp,) = ce["total"]
        assert written(codec, int(cp[2:], 16)) is None


def test_check_order_of_shift_jis_and_big5():
    """Facts known beforehand: in Shift_JIS 81 98 is U+00A7 and 81 4E U+00A8 (order
    broken); in Big5, A2 CC and A4 51 are both U+5341."""
    sj = check(load("shift_jis")[1])
    assert sj.counterexamples["order_preserving"] == [b"\x81\x98", b"\x81\x4e"]
    assert "\x81\x98".encode("latin-1").decode("shift_jis") == "\u00a7"
    big5 = check(load("big5")[1])
    assert big5.counterexamples["bijective"] == [b"\xa2\xcc", b"\xa4\x51"]
    assert b"\xa2\xcc".decode("big5") == b"\xa4\x51".decode("big5") == "\u5341"


def assert_diff_holds(d, a_codec: str, b_codec: str) -> None:
    """Every pattern's example and corners, and every encoder run's first code point,
    mean in CPython what the report says."""
    for p in d.only_a:
        for x in points(p.ranges):
            assert one_char(a_codec, x) is not None and one_char(b_codec, x) is None, (p.text, x)
    for p in d.only_b:
        for x in points(p.ranges):
            assert one_char(b_codec, x) is not None and one_char(a_codec, x) is None, (p.text, x)
    for p in d.different:
        ca, cb = one_char(a_codec, p.example), one_char(b_codec, p.example)
        assert ca is not None and cb is not None and ca != cb, p.text
        assert (ord(ca), ord(cb)) == (p.a, p.b)
    for r in d.encoder["only_a"]:
        assert written(a_codec, r.first) == r.a and written(b_codec, r.first) is None
    for r in d.encoder["only_b"]:
        assert written(b_codec, r.first) == r.b and written(a_codec, r.first) is None
    for r in d.encoder["different"]:
        assert written(a_codec, r.first) == r.a != r.b == written(b_codec, r.first)


def test_diff_between_a_table_spec_and_a_digits_spec():
    """EUC-KR (a table form) against UTF-8 (digit forms): B0 A1 is U+AC00 in EUC-KR only,
    EA B0 80 is U+AC00 in UTF-8 only, and the encoders write U+AC00 differently."""
    d = diff(load("euc-kr")[1], load("utf-8")[1])
    assert d.tables
    assert_diff_holds(d, "euc_kr", "utf-8")
    assert covers(d.only_a, b"\xb0\xa1") and b"\xb0\xa1".decode("euc_kr") == "\uac00"
    assert covers(d.only_b, b"\xea\xb0\x80") and one_char("euc_kr", b"\xea\xb0\x80") is None
    assert any(r.first <= 0xAC00 <= r.last for r in d.encoder["different"])
    assert (written("euc_kr", 0xAC00), written("utf-8", 0xAC00)) == (b"\xb0\xa1", b"\xea\xb0\x80")
    assert not covers(d.only_a + d.only_b + d.different, b"A")  # ASCII alike in both


def test_diff_between_two_table_specs():
    """Shift_JIS against CP932 (both table specs): 81 60 is U+301C in one and U+FF5E in
    the other, 87 40 (U+2460, NEC's row 13) is CP932's only."""
    d = diff(load("shift_jis")[1], load("cp932")[1])
    assert_diff_holds(d, "shift_jis", "cp932")
    assert covers(d.different, b"\x81\x60")
    assert (b"\x81\x60".decode("shift_jis"), b"\x81\x60".decode("cp932")) == ("\u301c", "\uff5e")
    assert covers(d.only_b, b"\x87\x40") and b"\x87\x40".decode("cp932") == "\u2460"
    assert one_char("shift_jis", b"\x87\x40") is None
    # both write U+301C as 81 60 (CP932 decodes it as U+FF5E, which Shift_JIS cannot write)
    assert (written("shift_jis", 0x301C), written("cp932", 0x301C)) == (b"\x81\x60", b"\x81\x60")
    assert not any(r.first <= 0x301C <= r.last for kind in d.encoder.values() for r in kind)
    assert any(r.first <= 0xFF5E <= r.last for r in d.encoder["only_b"])
