"""Encoding a surrogate code point pair where its bytes would read back as one code point.

wtf-8.txt 4.1 ("To encode from code points to potentially ill-formed UTF-16"):
"If, on the other hand, the input contains a surrogate code point pair, the
conversion will be incorrect and the resulting sequence will not represent the
original code points.  This situation should be considered an error, but this
specification does not define how to handle it.  Possibilities include aborting
the conversion, or replacing one of the surrogate code points of the pair with a
replacement character."  encspec's decision: the trail surrogate is the error
(one code point, its exact position), strict raises, other handlers choose
(`replace` writes '?' as one code unit, as CPython's utf-16-le does), alike
within one call, across incremental calls and across `write()`s, on both
backends.  Modified UTF-8 (3-byte units, ED A0 80 ED B0 80 is U+10000) follows
the same rule; WTF-8 still joins the pair (6.1).  The lossless WTF-8 <-> WTF-16
conversions work on code units and are unaffected.
"""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, load_backend
from conftest import examples, run_cli

REASON = ("a trail surrogate code point after a lead surrogate code point: "
          "the two would read back as one supplementary code point")


def le(*units: int) -> bytes:
    """16-bit code units, least significant byte first (WTF-16 here)."""
    return b"".join(u.to_bytes(2, "little") for u in units)


def text(*cps: int) -> str:
    return "".join(map(chr, cps))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cps, start", [([0xD800, 0xDC00], 1), ([0x61, 0x62, 0xD800, 0xDC00], 3),
                                        ([0xD800, 0xD800, 0xDC00], 2), ([0xDBFF, 0xDFFF], 1),
                                        ([0x10000, 0xD83D, 0xDE00], 2)])
def test_strict_refuses_the_trail_surrogate_of_a_pair_at_its_position(backend, cps, start):
    codec = load_backend("wtf-16", backend)
    for given_as in (text(*cps), cps):
        with pytest.raises(UnicodeEncodeError) as e:
            codec.encode(given_as)
        assert (e.value.encoding, e.value.start, e.value.end, e.value.reason) == ("wtf-16", start, start + 1, REASON)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("errors, want", [
    ("replace", le(0xD800, 0x3F)),                        # '?' as one unit: "\udc00".encode("utf-16-le", "replace")
    ("ignore", le(0xD800)),
    ("backslashreplace", le(0xD800, *b"\\udc00")),
    ("xmlcharrefreplace", le(0xD800, *b"&#56320;")),
])
def test_other_handlers_choose_for_the_trail_surrogate(backend, errors, want):
    codec = load_backend("wtf-16", backend)
    assert codec.encode("\ud800\udc00", errors) == want
    assert codec.decode(want, errors) == codec.decode(want)  # what was written is well-formed


@pytest.mark.parametrize("backend", BACKENDS)
def test_what_is_not_a_pair_is_written_unit_by_unit(backend):
    codec = load_backend("wtf-16", backend)
    cases = [
        ([0x10000], [0xD800, 0xDC00]),                    # 4.1 step 2.1: the supplementary code point
        ([0xDC00, 0xD800], [0xDC00, 0xD800]),             # trail, then lead: no pair
        ([0xD800, 0x78, 0xDC00], [0xD800, 0x78, 0xDC00]),
        ([0xD800, 0xD800], [0xD800, 0xD800]),
        ([0xDFFF], [0xDFFF]),
        ([0x61] * 40 + [0xD800], [0x61] * 40 + [0xD800]),  # past the native block copies
    ]
    for cps, units in cases:
        assert codec.encode(text(*cps)) == codec.encode(cps) == le(*units)
        assert codec.decode(le(*units)) == text(*cps)   # and reads back as written (4.2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_replace_handles_each_pair_of_a_long_text(backend):
    codec = load_backend("wtf-16", backend)
    assert codec.encode(("x" * 50 + text(0xD800, 0xDC00)) * 3, "replace") == le(*(list(b"x" * 50) + [0xD800, 0x3F]) * 3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pair_split_across_incremental_calls_is_refused_alike(backend):
    codec = load_backend("wtf-16", backend)
    enc = codec.IncrementalEncoder()
    assert enc.encode("a\ud800") == le(0x61, 0xD800)     # the lead at once: nothing held back
    assert enc.encode("") == b""
    with pytest.raises(UnicodeEncodeError) as e:
        enc.encode("\udc00b")
    assert (e.value.start, e.value.end, e.value.reason) == (0, 1, REASON)
    enc = codec.IncrementalEncoder("replace")
    assert enc.encode("a\ud800") + enc.encode("\udc00b") == le(0x61, 0xD800, 0x3F, 0x62)
    enc = codec.IncrementalEncoder()
    assert enc.encode("\ud800") + enc.encode("x\udc00") == le(0xD800, 0x78, 0xDC00)


def _search(name: str):
    """open() takes codec names: encspec_wtf16_pairs_<backend> is wtf-16 on that backend."""
    for backend in BACKENDS:
        if name == f"encspec_wtf16_pairs_{backend}":
            return encspec.codec_info("wtf-16", backend=backend)
    return None


codecs.register(_search)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pair_split_across_writes_is_refused_alike(backend, tmp_path):
    load_backend("wtf-16", backend)  # the native backend's extension, or a skip naming it
    name = f"encspec_wtf16_pairs_{backend}"
    path = tmp_path / "out.txt"
    with open(path, "w", encoding=name, errors="replace", newline="") as f:
        f.write("a\ud800")
        f.write("\udc00b")
    assert path.read_bytes() == le(0x61, 0xD800, 0x3F, 0x62)
    with open(path, "w", encoding=name, newline="") as f:
        f.write("a\ud800")
        with pytest.raises(UnicodeEncodeError) as e:
            f.write("\udc00b")
        assert (e.value.start, e.value.reason) == (0, REASON)


SURROGATE_TEXT = st.lists(st.one_of(st.integers(0xD800, 0xDFFF), st.sampled_from([0x41, 0xD800, 0xDC00, 0x1F600])),
                          max_size=12).map(lambda cps: "".join(map(chr, cps)))


@settings(max_examples=examples(150), deadline=None)
@given(sample=SURROGATE_TEXT, cut=st.integers(0, 12))
def test_both_backends_and_one_shot_and_incremental_agree(sample, cut):
    python, native = load_backend("wtf-16", "python"), load_backend("wtf-16", "native")

    def outcome(encode):
        try:
            return encode()
        except UnicodeEncodeError as e:
            return (e.start, e.end, e.reason)

    for errors in ("strict", "replace", "ignore"):
        want = outcome(lambda errors=errors: python.encode(sample, errors))
        assert outcome(lambda errors=errors: native.encode(sample, errors)) == want
        for codec in (python, native):
            enc = codec.IncrementalEncoder(errors)
            got = outcome(lambda enc=enc: enc.encode(sample[:cut]) + enc.encode(sample[cut:], True))
            if isinstance(want, bytes) or isinstance(got, bytes):
                assert got == want
            else:  # the same error, placed in the piece that met it
                shift = want[0] - got[0]
                assert shift in (0, cut) and got == (want[0] - shift, want[1] - shift, want[2])


def test_the_encoder_finds_where_a_pair_reads_back_as_one():
    """The core derives the rule by encoding a pair and decoding it (no statement in the spec)."""
    flags = {n: (encspec.load(n).PAIR_READS_AS_ONE, encspec.load(n).PAIR_ON_ENCODE)
             for n in ("wtf-16", "mutf-8", "wtf-8", "utf-8", "utf-16le", "utf-8-rfc2279")}
    assert flags == {"wtf-16": (True, False), "mutf-8": (True, False), "wtf-8": (True, True),
                     "utf-8": (False, False), "utf-16le": (False, False), "utf-8-rfc2279": (False, False)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_modified_utf8_refuses_the_trail_of_a_pair_too(backend):
    codec = load_backend("mutf-8", backend)
    assert codec.encode("\U00010000") == bytes.fromhex("ED A0 80 ED B0 80")
    with pytest.raises(UnicodeEncodeError) as e:
        codec.encode("a\ud800\udc00")
    assert (e.value.start, e.value.end, e.value.reason) == (2, 3, REASON)
    assert codec.encode("a\ud800\udc00", "replace") == bytes.fromhex("61 ED A0 80 3F")


def test_wtf8_still_joins_a_pair_and_the_conversions_stay_lossless():
    wtf8 = encspec.load("wtf-8")
    assert wtf8.encode("\ud800\udc00") == bytes.fromhex("F0 90 80 80")      # 6.1 step 2.1
    units = [0xD800, 0xDC00, 0xD800, 0x41, 0xDC00, 0xDBFF]
    data = wtf8.from_wtf16(units)
    assert data == bytes.fromhex("F0 90 80 80 ED A0 80 41 ED B0 80 ED AF BF")
    assert wtf8.to_wtf16(data) == units


@settings(max_examples=examples(200), deadline=None)
@given(units=st.lists(st.one_of(st.integers(0, 0xFFFF), st.integers(0xD800, 0xDFFF)), max_size=12))
def test_wtf16_bytes_through_wtf8_and_back_are_unchanged(units):
    """Any 16-bit code units (4: all well-formed) decode to code points with no lead
    followed by a trail (4.2 step 2.1 takes them as one), so they encode back; and
    WTF-8's conversions of the same units agree with the codecs."""
    wtf16, wtf8 = encspec.load("wtf-16"), encspec.load("wtf-8")
    decoded = wtf16.decode(le(*units))
    assert wtf16.encode(decoded) == le(*units)
    assert wtf8.encode(decoded) == wtf8.from_wtf16(units)
    assert wtf16.encode(wtf8.decode(wtf8.from_wtf16(units))) == le(*units)


def test_transcode_refuses_a_pair_that_escaping_made(tmp_path, capsysbinary):
    """A lead surrogate, then a bad byte that surrogateescape carries as U+DC80: written
    unit by unit they would read back as U+10080, so the CLI stops with one clear line."""
    src = tmp_path / "in.wtf8"
    src.write_bytes(bytes.fromhex("ED A0 80 80"))
    rc, out, err = run_cli(capsysbinary, "transcode", "--from", "wtf-8", "--to", "wtf-16",
                           "--errors", "surrogateescape", src)
    assert rc != 0 and le(0xD800, 0xDC80) not in out
    assert err.decode().strip().splitlines() == [
        f"encspec: error: {src}: character 1 (U+DC80): {REASON}"]
