"""The six WHATWG specs equal the hand-written oracles of the Encoding Standard.

The oracles (tests/oracles/whatwg_*.py) transcribe encoding.bs's decoder and
encoder algorithms step by step and never import encspec; they are themselves
checked against Chromium's and Node's TextDecoder in test_whatwg_oracles.py.
Here every spec's token stream (kind, start, end, value) equals its oracle's on
every input of one and two bytes, on three-byte inputs wherever the spec has
longer sequences, on every class of gb18030's four-byte sequences, and on
seeded random inputs; and its encoder equals the oracle's on every code point.
"""
import codecs
import random

import pytest

import encspec
from conftest import code_points
from oracles import whatwg_big5, whatwg_euc_jp, whatwg_euc_kr, whatwg_gb18030, whatwg_gbk, whatwg_shift_jis

ORACLES = {o.NAME: o for o in (whatwg_shift_jis, whatwg_euc_jp, whatwg_euc_kr, whatwg_big5, whatwg_gb18030,
                                whatwg_gbk)}
# bytes that lead, continue, or neither, per encoding (for three-byte and random inputs)
INTERESTING = {
    "whatwg-shift_jis": [0x00, 0x20, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x9F, 0xA0, 0xA1, 0xDF, 0xE0, 0xEF, 0xF0, 0xF9,
                         0xFA, 0xFC, 0xFD, 0xFF],
    "whatwg-euc-jp": [0x00, 0x41, 0x7F, 0x80, 0x8E, 0x8F, 0xA0, 0xA1, 0xB0, 0xDF, 0xE0, 0xF4, 0xFE, 0xFF],
    "whatwg-euc-kr": [0x00, 0x41, 0x5A, 0x7F, 0x80, 0x81, 0xA0, 0xA1, 0xC6, 0xC8, 0xFD, 0xFE, 0xFF],
    "whatwg-big5": [0x00, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x87, 0x88, 0xA0, 0xA1, 0xC6, 0xC8, 0xF9, 0xFE, 0xFF],
    "whatwg-gb18030": [0x00, 0x30, 0x39, 0x40, 0x7F, 0x80, 0x81, 0x84, 0x8F, 0x90, 0xA1, 0xA5, 0xD2, 0xE3, 0xFE,
                       0xFF],
}
INTERESTING["whatwg-gbk"] = INTERESTING["whatwg-gb18030"]


@pytest.fixture(scope="module", params=sorted(ORACLES))
def pair(request):
    return encspec.load(request.param), ORACLES[request.param]


def _same_tokens(module, oracle, inputs):
    bad = []
    for data in inputs:
        got = [t[:4] for t in module._tokens(data)]
        want = oracle.tokens(data)
        if got != want:
            bad.append((data.hex(" ").upper(), got, want))
            if len(bad) > 5:
                break
    assert not bad, bad


def test_every_input_of_one_and_two_bytes(pair):
    module, oracle = pair
    _same_tokens(module, oracle, [bytes([a]) for a in range(256)])
    _same_tokens(module, oracle, [bytes([a, b]) for a in range(256) for b in range(256)])


def test_three_byte_inputs_over_the_byte_classes(pair):
    module, oracle = pair
    bs = INTERESTING[module.NAME]
    _same_tokens(module, oracle, [bytes([a, b, c]) for a in bs for b in bs for c in bs])


def test_every_three_byte_jis0212_sequence():
    """EUC-JP's 8F lead: every second and third byte (index jis0212, and the errors around it)."""
    module, oracle = encspec.load("whatwg-euc-jp"), ORACLES["whatwg-euc-jp"]
    _same_tokens(module, oracle, [bytes([0x8F, b, c]) for b in range(0x80, 0x100) for c in range(256)])


@pytest.mark.parametrize("name", ["whatwg-gb18030", "whatwg-gbk"])
def test_every_class_of_four_byte_sequences(name):
    """First bytes at the edges of the ranges' runs and gaps, every second and fourth
    digit, third bytes at the edges: every pointer class of index gb18030 ranges,
    and the 39419/189000/1237575 limits."""
    module, oracle = encspec.load(name), ORACLES[name]
    firsts = [0x80, 0x81, 0x82, 0x84, 0x85, 0x8F, 0x90, 0x91, 0xE3, 0xE4, 0xFE, 0xFF]
    thirds = [0x30, 0x80, 0x81, 0x9A, 0x9B, 0xA4, 0xA5, 0xD2, 0xFE, 0xFF]
    inputs = [bytes([a, b, c, d]) for a in firsts for b in range(0x2F, 0x3B) for c in thirds
              for d in list(range(0x2F, 0x3B)) + [0x81]]
    inputs += [bytes([a, b, c]) + tail for a in (0x81, 0xE3) for b in (0x30, 0x39) for c in (0x81, 0xFE)
               for tail in (b"", b"\x20", b"\x80", b"\x81", b"\xff")]
    _same_tokens(module, oracle, inputs)


def test_seeded_random_inputs(pair):
    module, oracle = pair
    rng = random.Random(18)
    bs = INTERESTING[module.NAME]
    inputs = []
    for _ in range(3000):
        n = rng.randrange(1, 24)
        inputs.append(bytes(rng.choice(bs) if rng.random() < 0.5 else rng.randrange(256) for _ in range(n)))
    _same_tokens(module, oracle, inputs)


def test_the_encoder_on_every_code_point(pair):
    """Every code point but the surrogates (by default the BMP and every 61st above it:
    conftest.code_points): the same bytes, or unencodable in both."""
    module, oracle = pair
    cps = code_points(surrogates=False)
    want, refused = oracle.encode_positions(cps)
    got_refused = []

    def record(e):
        got_refused.extend(range(e.start, e.end))
        return ("", e.end)

    codecs.register_error("encspec-test-record", record)
    got = module.encode("".join(map(chr, cps)), "encspec-test-record")
    assert got_refused == refused
    assert got == want


def test_replacement_mode_and_fatal_mode(pair):
    """decode(errors="replace") is the standard's replacement output, "strict" its fatal mode."""
    module, oracle = pair
    rng = random.Random(180)
    for _ in range(500):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
        assert [ord(c) for c in module.decode(data, "replace")] == oracle.decode_codepoints(data), data.hex()
        try:
            module.decode(data)
            throws = False
        except UnicodeDecodeError:
            throws = True
        assert throws == oracle.fatal_throws(data), data.hex()


def test_the_shipped_indexes_are_the_standards(shared):
    """specs/tables/whatwg/ holds the standard's index files unchanged (cross-check with ../shared)."""
    from pathlib import Path
    ours = Path(__file__).resolve().parents[1] / "specs" / "tables" / "whatwg"
    files = sorted(p.name for p in ours.glob("index-*.txt"))
    assert len(files) == 7 + 27  # the CJK indexes (ISO-2022-JP katakana among them) and the single-byte ones
    for name in files + ["LICENSE", "encodings.json"]:
        assert (ours / name).read_bytes() == (shared / "tables" / "whatwg" / name).read_bytes(), name
