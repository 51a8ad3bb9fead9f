"""The six CPython CJK specs equal CPython's own codecs (CPython 3.11 is the reference).

specs/shift_jis, cp932, euc-jp, euc-kr, big5 and gb18030.encspec describe
CPython's codecs of those names (Modules/cjkcodecs/_codecs_*.c) with tables
read back from CPython (specs/tables/cpython/extract.py).  Here each spec's
Python codec module decodes like CPython: strictly (the same text, or a
UnicodeDecodeError with the same start, end and reason), with "replace" and
with "ignore" (the same text), on every input of one and two bytes, on
three-byte inputs over each encoding's byte classes, on every byte of the
longer sequences (EUC-JP's 8F, EUC-KR's make-up sequences, every class of
gb18030's four-byte sequences and every run of its ranges table) and on 20,000
seeded random inputs per encoding biased to its lead and trail bytes; and it
encodes every code point but the surrogates to the same bytes, or refuses it
where CPython does, with the same start and end.  Everything goes through the
module's own functions (no CLI), so the whole file takes seconds.
"""
from __future__ import annotations

import codecs
import random

import pytest

import encspec
from conftest import code_points

# spec -> (CPython's codec, the bytes where behaviour changes: range edges of every form and pattern)
SPECS = {
    "shift_jis": ("shift_jis", [0x00, 0x3F, 0x40, 0x5C, 0x7E, 0x7F, 0x80, 0x81, 0x84, 0x85, 0x88, 0x9F, 0xA0,
                                0xA1, 0xDF, 0xE0, 0xEA, 0xEB, 0xF0, 0xFC, 0xFD, 0xFF]),
    "cp932": ("cp932", [0x00, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x85, 0x87, 0x9F, 0xA0, 0xA1, 0xDF, 0xE0,
                        0xEA, 0xEB, 0xED, 0xEE, 0xEF, 0xF0, 0xF9, 0xFA, 0xFC, 0xFD, 0xFF]),
    "euc-jp": ("euc_jp", [0x00, 0x41, 0x7F, 0x80, 0x8D, 0x8E, 0x8F, 0x90, 0xA0, 0xA1, 0xA2, 0xB0, 0xC0, 0xDF,
                          0xE0, 0xF4, 0xF5, 0xFE, 0xFF]),
    "euc-kr": ("euc_kr", [0x00, 0x41, 0x7F, 0x80, 0xA0, 0xA1, 0xA3, 0xA4, 0xA5, 0xAD, 0xB0, 0xBE, 0xBF, 0xC8,
                          0xC9, 0xD3, 0xD4, 0xD5, 0xFD, 0xFE, 0xFF]),
    "big5": ("big5", [0x00, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0xA0, 0xA1, 0xA3, 0xC6, 0xC7, 0xC8, 0xC9, 0xF9,
                      0xFA, 0xFE, 0xFF]),
    "gb18030": ("gb18030", [0x00, 0x2F, 0x30, 0x39, 0x3A, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x84, 0x85, 0x8F,
                            0x90, 0xA1, 0xE3, 0xE4, 0xFE, 0xFF]),
}

ERRORS = ("strict", "replace", "ignore")


@pytest.fixture(scope="module", params=sorted(SPECS))
def pair(request):
    return encspec.load(request.param, backend="python"), SPECS[request.param][0]


def _outcome(decode, data: bytes, errors: str):
    try:
        return decode(data, errors)
    except UnicodeDecodeError as e:
        return ("UnicodeDecodeError", e.start, e.end, e.reason)


def _same_decoding(module, codec: str, inputs) -> None:
    """Every input decodes alike in CPython and in the spec, with each of ERRORS."""
    theirs = lambda data, errors: data.decode(codec, errors)  # noqa: E731
    bad = []
    for data in inputs:
        for errors in ERRORS:
            want = _outcome(theirs, data, errors)
            got = _outcome(module.decode, data, errors)
            if got != want:
                bad.append((data.hex(" ").upper(), errors, got, want))
        if len(bad) > 5:
            break
    assert not bad, bad


def test_every_input_of_one_and_two_bytes(pair):
    module, codec = pair
    _same_decoding(module, codec, [bytes([a]) for a in range(256)])
    _same_decoding(module, codec, [bytes([a, b]) for a in range(256) for b in range(256)])


def test_three_byte_inputs_over_the_byte_classes(pair):
    module, codec = pair
    bs = SPECS[module.NAME][1]
    _same_decoding(module, codec, [bytes([a, b, c]) for a in bs for b in bs for c in bs])


def test_random_inputs(pair):
    """20,000 seeded inputs of 1..16 bytes, most bytes from the encoding's byte classes."""
    module, codec = pair
    bs = SPECS[module.NAME][1]
    rnd = random.Random(f"cpython-cjk {module.NAME}")
    inputs = [bytes(rnd.choice(bs) if rnd.random() < 0.75 else rnd.randrange(256)
                    for _ in range(rnd.randint(1, 16))) for _ in range(20000)]
    _same_decoding(module, codec, inputs)


def test_euc_jp_every_jis0212_sequence():
    """8F and every second and third byte (JIS X 0212, and CPython's three-byte length)."""
    module = encspec.load("euc-jp", backend="python")
    _same_decoding(module, "euc_jp", [bytes([0x8F, b, c]) for b in range(256) for c in range(256)])
    _same_decoding(module, "euc_jp", [bytes([0x8F, b, c, 0x41]) for b in (0x41, 0xA1, 0xFE) for c in range(256)])


def test_euc_kr_make_up_sequences():
    """Every make-up pointer (A4 D4 A4 x A4 y A4 z), every byte in each of its positions, and
    A4 D4 followed by up to seven bytes: CPython asks for eight bytes before it looks."""
    module = encspec.load("euc-kr", backend="python")
    inputs = [bytes([0xA4, 0xD4, 0xA4, x, 0xA4, y, 0xA4, z]) for x in range(0xA1, 0xBF)
              for y in range(0xBF, 0xD4) for z in list(range(0xA1, 0xBF)) + [0xD4]]
    good = [0xA4, 0xD4, 0xA4, 0xA1, 0xA4, 0xBF, 0xA4, 0xD4]  # U+AC00
    for k in range(2, 8):  # each position in turn takes every byte
        for b in range(256):
            inputs.append(bytes(good[:k] + [b] + good[k + 1:]))
    for n in range(8):  # cut short, with good bytes or bad ones, at the end or before more data
        for tail in (bytes(good[2:2 + n]), b"A" * n, b"\xa4" * n):
            inputs += [b"\xa4\xd4" + tail, b"\xa4\xd4" + tail + b"AAAAAAAA", b"AB\xa4\xd4" + tail]
    _same_decoding(module, "euc_kr", inputs)


def test_gb18030_every_class_of_four_byte_sequences():
    """First bytes at the edges of the four-byte ranges and beyond, every second and fourth byte
    around 30..39, third bytes at the edges; every pointer of the BMP part (81..84) and the last
    row of the supplementary part (E3 32); both sides of every run of the ranges table."""
    module = encspec.load("gb18030", backend="python")
    firsts = [0x80, 0x81, 0x82, 0x84, 0x85, 0x8F, 0x90, 0x91, 0xE3, 0xE4, 0xFE, 0xFF]
    thirds = [0x30, 0x80, 0x81, 0x9A, 0x9B, 0xA4, 0xA5, 0xD2, 0xFE, 0xFF]
    fourths = list(range(0x2F, 0x3B)) + [0x81]
    inputs = [bytes([a, b, c, d]) for a in firsts for b in range(0x2F, 0x3B) for c in thirds for d in fourths]
    inputs += [bytes([a, b, c]) + tail for a in (0x80, 0x81, 0xE3, 0xFF) for b in (0x30, 0x39)
               for c in (0x20, 0x81, 0xFE) for tail in (b"", b"\x20", b"\x30", b"\x81", b"\xff")]
    _same_decoding(module, "gb18030", inputs)

    def seq(p):
        p, d = divmod(p, 10)
        p, c = divmod(p, 126)
        a, b = divmod(p, 10)
        return bytes([0x81 + a, 0x30 + b, 0x81 + c, 0x30 + d])
    every = [seq(p) for p in range(4 * 12600)]
    every += [bytes([0xE3, 0x32, c, d]) for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)]
    _same_decoding(module, "gb18030", every)
    from pathlib import Path
    table = Path(__file__).resolve().parents[1] / "specs" / "tables" / "cpython" / "gb18030-four.txt"
    starts = [int(line.split("\t")[0]) for line in table.read_text("utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    _same_decoding(module, "gb18030", [seq(p + k) for p in starts for k in (-1, 0, 1) if 0 <= p + k < 1587600])


_RECORDED: list = []


def _record(e: UnicodeEncodeError):
    _RECORDED.append((e.start, e.end))
    return "", e.end


codecs.register_error("test_cpython_cjk.record", _record)

# every code point but the surrogates (by default the BMP and every 61st above it)
CODE_POINTS = code_points(surrogates=False)


def test_every_code_point_encodes_alike(pair):
    """Every code point but the surrogates: the same bytes, or refused, each alone, as CPython does.

    CPython's bytes for each come from one call: the other code points joined by U+0000, which all
    six write as a lone 00 and which no multibyte sequence contains, so the output splits back into
    one piece per code point ("?" where it refuses one).  The spec's encoder then writes the
    encodable ones, so joined, strictly, and must give the same pieces; and the refused ones, run
    together, must all be refused: nothing written, the errors covering them all.  (Alone, between
    encodable characters, each is then an error over itself, as in CPython: test_strict_encode_errors.
    How a run of them is cut into errors differs: see test_a_run_of_refused_code_points.)"""
    module, codec = pair
    assert module.encode("\x00") == "\x00".encode(codec) == b"\x00"
    others = CODE_POINTS[1:]
    pieces = "\x00".join(map(chr, others)).encode(codec, "replace").split(b"\x00")
    assert len(pieces) == len(others)
    encodable = [(cp, b) for cp, b in zip(others, pieces) if b != b"?" or cp == 0x3F]
    refused = [cp for cp, b in zip(others, pieces) if b == b"?" and cp != 0x3F]

    text = "\x00".join(chr(cp) for cp, _ in encodable)
    try:
        got = module.encode(text).split(b"\x00")
    except UnicodeEncodeError as e:
        pytest.fail(f"U+{ord(text[e.start]):04X} is refused, CPython writes it")
    bad = [(f"U+{cp:04X}", g.hex(" ").upper(), w.hex(" ").upper())
           for (cp, w), g in zip(encodable, got) if g != w]
    assert not bad and len(got) == len(encodable), bad[:10]

    text = "".join(map(chr, refused))
    _RECORDED.clear()
    assert module.encode(text, "test_cpython_cjk.record") == b""
    ends = [0] + [end for _, end in _RECORDED]
    gap = next((k for k, (start, _) in enumerate(_RECORDED) if start != ends[k]), None)
    assert gap is None and ends[-1] == len(text), (  # the errors cover every refused code point
        f"U+{refused[ends[gap]]:04X} is written, CPython refuses it" if gap is not None else ends[-1])


def test_strict_encode_errors(pair):
    """Strictly, an unencodable code point raises UnicodeEncodeError where CPython's does."""
    module, codec = pair
    rnd = random.Random(f"cpython-cjk encode {module.NAME}")
    cps = [0x80, 0xA5, 0xFF, 0x203E, 0x3164, 0xE000, 0xE757, 0xE758, 0xF8F0, 0xF8F3, 0xFFFF, 0x10000, 0x10FFFF]
    cps += [rnd.choice([rnd.randrange(0x80, 0xD800), rnd.randrange(0xE000, 0x110000)]) for _ in range(300)]
    for cp in cps:
        text = "ab" + chr(cp) + "c"
        try:
            want = text.encode(codec)
        except UnicodeEncodeError as e:
            want = (e.start, e.end, e.reason)
        try:
            got = module.encode(text)
        except UnicodeEncodeError as e:
            got = (e.start, e.end, e.reason)
        assert got == want, f"U+{cp:04X}"


def test_a_run_of_refused_code_points(pair):
    """Two refused code points in a row: CPython raises over the first alone (start 2, end 3) and
    calls an error handler once for each (multibytecodec.c: the codec returns 1, one character).
    encspec does so too where errors are not maximal subparts (`error-span one-unit`).
    (gb18030 refuses only the surrogates.)"""
    module, codec = pair
    text = "ab\ud800\udfffc" if codec == "gb18030" else "ab\U0010FFFE\U0010FFFDc"
    with pytest.raises(UnicodeEncodeError) as theirs:
        text.encode(codec)
    with pytest.raises(UnicodeEncodeError) as ours:
        module.encode(text)
    assert (theirs.value.start, theirs.value.end) == (2, 3)
    assert (ours.value.start, ours.value.end) == (2, 3)
