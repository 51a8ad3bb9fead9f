"""The one encoder (runtime/core.py) and its state: the shape a stateful encoding needs.

* the incremental encoder's state (getstate/setstate) carries everything the next
  piece depends on, so a second encoder given it writes what the first would;
* every piece, final or not, ends with the flush (which writes nothing without
  modes) and holds nothing back before it;
* the analyses reach the same encoder through ``encspec.runtime.tables``: what
  ``encoded`` and ``row_bytes`` give is what the generated module writes.

Expected bytes come from CPython's codecs or are written out here, never from the
code under test.
"""
from __future__ import annotations

import codecs
from itertools import islice

import pytest

import encspec
from codec_samples import BACKENDS, oracle
from encspec import pipeline
from encspec.runtime.tables import counted_bytes, counted_levels, encoded, row_bytes

encspec.register()


def load(name, backend="python"):
    return encspec.load(name, backend=backend)


# ============================================================ getstate / setstate
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_second_encoder_given_the_state_refuses_the_trail_the_first_would(backend):
    """WTF-16: a lead's units then a trail's read back as one supplementary code point,
    so a trail right after a lead written by an earlier piece goes to the handler; the
    state alone tells a fresh encoder that the bytes so far end with a lead."""
    m = load("wtf-16", backend)
    first = m.IncrementalEncoder("strict")
    assert first.encode([0x61, 0xD800]) == "a\ud800".encode("utf-16-le", "surrogatepass")
    second = m.IncrementalEncoder("strict")
    assert second.encode([0xDC00]) == "\udc00".encode("utf-16-le", "surrogatepass")  # alone: written
    third = m.IncrementalEncoder("strict")
    third.setstate(first.getstate())
    with pytest.raises(UnicodeEncodeError) as e:
        third.encode([0xDC00])
    assert "read back as one" in e.value.reason
    third.errors = "replace"
    assert third.encode([0xDC00, 0x62]) == "?b".encode("utf-16-le")


@pytest.mark.parametrize("backend", BACKENDS)
def test_setstate_of_the_start_state_writes_the_signature_again(backend):
    """utf-8-bom writes its signature before the first output, as CPython's utf-8-sig."""
    m = load("utf-8-bom", backend)
    ours, theirs = m.SignedIncrementalEncoder(), codecs.getincrementalencoder("utf-8-sig")()
    start = ours.getstate()
    assert ours.encode("a") == theirs.encode("a") == b"\xef\xbb\xbfa"
    after = ours.getstate()
    assert after != start
    assert ours.encode("b") == b"b"
    ours.setstate(start)
    assert ours.encode("c") == b"\xef\xbb\xbfc"
    fresh = m.SignedIncrementalEncoder()
    fresh.setstate(after)
    assert fresh.encode("d") == b"d"
    fresh.reset()
    assert fresh.getstate() == start and fresh.encode("e") == b"\xef\xbb\xbfe"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_state_round_trips_through_getstate_and_setstate(backend):
    """At every cut of a text with a surrogate pair split between pieces, an encoder
    rebuilt from the state writes what the one it came from writes."""
    m = load("wtf-8", backend)
    cps = [0x41, 0xD83D, 0xDE00, 0xD800, 0x42, 0xDBFF]
    for k in range(len(cps) + 1):
        a = m.IncrementalEncoder("replace")
        head = a.encode(cps[:k])
        b = m.IncrementalEncoder("replace")
        b.setstate(a.getstate())
        assert b.getstate() == a.getstate()
        assert head + b.encode(cps[k:], True) == head + a.encode(cps[k:], True), k


# ============================================================ final=True
@pytest.mark.parametrize("name", ["utf-8", "utf-16", "shift_jis", "wtf-8", "gb18030", "utf-inf-8"])
def test_final_writes_nothing_held_back_and_nothing_more(name):
    """Every piece's bytes come out with the piece; the flush at the end adds none
    (no built-in spec has modes to return from), so the pieces' bytes are the text's."""
    m = load(name)
    text = "Aé€\U0001F600z" if name != "shift_jis" else "Aあ漢z"
    whole = m.encode(text, signature=False)
    for k in range(len(text) + 1):
        enc = m.IncrementalEncoder()
        head = enc.encode(text[:k])
        assert whole.startswith(head), k
        assert head + enc.encode(text[k:], final=True) == whole, k
        assert enc.encode("", final=True) == b"", k


def test_final_keeps_what_the_written_bytes_end_with():
    """A flush writes nothing and forgets nothing: the lead surrogate's bytes are out,
    so a trail in the next call is still too late to join."""
    enc = load("wtf-8").IncrementalEncoder()
    assert enc.encode([0xD800], final=True) == b"\xed\xa0\x80"
    with pytest.raises(UnicodeEncodeError) as e:
        enc.encode([0xDC00])
    assert "can no longer be joined" in e.value.reason


# ============================================================ the analyses' entry points
@pytest.mark.parametrize("name, cps", [
    ("utf-8", [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF]),
    ("utf-16", [0x41, 0xFFFD, 0x10000, 0x10FFFF]),
    ("shift_jis", [0x41, 0xA5, 0x3042, 0x6F22, 0xFF61]),
])
def test_encoded_is_what_the_codec_writes(name, cps):
    """CPython's codec of the same name is the reference (utf-16's units little-endian, no BOM)."""
    a = pipeline.load(name)[1]
    codec = {"utf-16": "utf-16-le"}.get(name, name)
    for cp in cps:
        assert encoded(a, cp) == chr(cp).encode(codec), hex(cp)


def test_encoded_is_none_where_the_encoding_has_no_bytes():
    a = pipeline.load("utf-8")[1]
    assert encoded(a, 0xD800) is None      # a surrogate: not in UTF-8 text
    assert encoded(a, 0x110000) is None    # beyond the code space
    assert encoded(pipeline.load("shift_jis")[1], 0x00E9) is None  # no Shift_JIS entry for é


def test_row_bytes_spells_a_redundant_longer_row_the_encoder_never_chooses():
    """leb128-overlong (protobuf's reader) accepts redundant groups: 1 through the
    two-byte form is 81 00, which reads back as 1; the encoder writes the shortest, 01."""
    a = pipeline.load("leb128-overlong")[1]
    rows = {r.length: r for r in a.rows if r.first <= 1 <= r.last}
    assert row_bytes(a, rows[1], 1) == b"\x01"
    assert row_bytes(a, rows[2], 1) == b"\x81\x00"
    assert row_bytes(a, rows[3], 1) == b"\x81\x80\x00"
    assert encoded(a, 1) == b"\x01"


def test_counted_levels_and_bytes_are_utf_inf_8s():
    """The counted form's lengths and bytes, against the oracle: each of the first
    levels' first and last code point is spelled as the oracle spells it, with as
    many bytes, and so is the code point after a level's last."""
    a = pipeline.load("utf-inf-8")[1]
    (ext,) = a.extensions
    ref = oracle("utf-inf-8")
    levels = list(islice(counted_levels(a, ext), 4))
    assert [first for _, _, first, _ in levels][:2] == [2 ** 71, levels[0][3] + 1]
    for _env, _digits, first, last in levels:
        b_first, b_last = counted_bytes(a, ext, first), counted_bytes(a, ext, last)
        assert b_first == ref.encode([first]) and b_last == ref.encode([last])
        assert len(b_first) == len(b_last) and counted_bytes(a, ext, last + 1) == ref.encode([last + 1])
    assert counted_bytes(a, ext, 2 ** 71 - 1) is None  # below the form's min: a row's code point
