"""Tests of the code-unit and varint oracles themselves (no encspec import).

The oracles (tests/oracles/utf_16le.py ... git_offset_varint.py) are written
from their documents; here they meet real implementations and values worked
by hand:

* UTF-16LE/BE/UTF-16 and UTF-32LE/BE/UTF-32 against CPython's codecs: the
  token stream, reasons included, is rebuilt from CPython's decoder with an
  error handler that records (start, end, reason) and returns U+FFFD;
  exhaustively on short inputs over bytes that make the interesting units in
  both byte orders, on every sequence of up to 3 interesting units, and on
  hypothesis inputs up to 64 bytes.  Encoding against CPython's encoders.
* UTF-16LE/BE against Node's TextDecoder (fatal and replacement), batched in
  one node process.
* WTF-16 against CPython's utf-16-le with surrogatepass.
* LEB128 against protobuf's Python varint reader and writer
  (google.protobuf.internal), when installed, and against a reader written
  here from the protobuf encoding documentation.
* SQLite4 and git varints against values worked by hand from the documents,
  with brute-force references built from the encoders.

Reasons: each oracle has ``tokens_with_reasons(data)``, the token list as
5-tuples ``(kind, start, end, value, reason)``; ``tokens(data)`` is the same
list cut to 4-tuples.
"""
from __future__ import annotations

import codecs
import itertools
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tools
from conftest import examples

# one import in two places, its names packed: import sorting would spread each over 13 lines
# isort: off
try:
    from tests.oracles import (git_offset_varint, leb128, leb128_overlong, sqlite4_varint, utf_16,
                               utf_16be, utf_16le, utf_32, utf_32be, utf_32le, wtf_16)
except ImportError:  # tests/ put on sys.path by pytest's rootdir insertion
    from oracles import (git_offset_varint, leb128, leb128_overlong, sqlite4_varint, utf_16,
                         utf_16be, utf_16le, utf_32, utf_32be, utf_32le, wtf_16)
# isort: on

ORACLES = {m.NAME: m for m in (utf_16le, utf_16be, utf_16, utf_32le, utf_32be, utf_32, wtf_16,
                               leb128, leb128_overlong, sqlite4_varint, git_offset_varint)}
CPYTHON = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "utf-16": "utf-16",
           "utf-32le": "utf-32-le", "utf-32be": "utf-32-be", "utf-32": "utf-32"}
UNIT_NAMES = list(CPYTHON)
UTF16 = ["utf-16le", "utf-16be", "utf-16"]
UTF32 = ["utf-32le", "utf-32be", "utf-32"]
VARINTS = ["leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]

END = "unexpected end of data"
TRUNCATED = "truncated data"
BAD = "invalid continuation byte"


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def char(start, end, value):
    return ("char", start, end, value, None)


def err(start, end, reason):
    return ("error", start, end, None, reason)


def assert_covers(toks, data):
    pos = 0
    for kind, start, end, value, reason in toks:
        assert kind in ("char", "error", "signature")
        assert start == pos and end > start
        assert (value is not None) == (kind == "char")
        assert (reason is not None) == (kind == "error")
        pos = end
    assert pos == len(data)


def replaced(toks) -> str:
    """Tokens rendered as errors="replace" does: one U+FFFD per error, signature dropped."""
    return "".join(chr(t[3]) if t[0] == "char" else "\ufffd" for t in toks if t[0] != "signature")


# ======================================================================
# CPython's decoders as token streams

_SPANS: list = []


def _record(exc):
    _SPANS.append((exc.start, exc.end, exc.reason))
    return ("\ufffd", exc.end)


codecs.register_error("oracles-units-record", _record)


def cpython_tokens(name: str, data: bytes) -> list:
    """CPython's decoding of data as 5-tuple tokens: error spans and reasons from the
    recording handler, the chars between them measured by their size in units (a
    supplementary char is 2 UTF-16 units), the signature from the byte order CPython's
    utf_16_ex_decode / utf_32_ex_decode report (0: no byte order mark consumed)."""
    _SPANS.clear()
    pos = 0
    toks = []
    if name == "utf-16":
        text, _consumed, order = codecs.utf_16_ex_decode(data, "oracles-units-record", 0, True)
        pos = 2 if order else 0
    elif name == "utf-32":
        text, _consumed, order = codecs.utf_32_ex_decode(data, "oracles-units-record", 0, True)
        pos = 4 if order else 0
    else:
        text = data.decode(CPYTHON[name], "oracles-units-record")
    if pos:
        toks.append(("signature", 0, pos, None, None))
    spans = list(_SPANS)
    chars = iter(text)
    for start, end, reason in spans + [(len(data), len(data), None)]:
        while pos < start:
            c = ord(next(chars))
            width = 4 if name in UTF32 or c > 0xFFFF else 2
            toks.append(char(pos, pos + width, c))
            pos += width
        assert pos == start, (data.hex(" "), spans)
        if end > start:
            assert next(chars) == "\ufffd"
            toks.append(err(start, end, reason))
            pos = end
    assert next(chars, None) is None
    return toks


# Bytes that make the interesting units in both byte orders:
#   UTF-16 units 0000 (00 00), 0041 (41 00 / 00 41), 00FF (FF 00 / 00 FF), D7FF (FF D7 /
#   D7 FF), D800 (00 D8 / D8 00), DBFF, DC00, DFFF, E000 (00 E0 / E0 00), FEFF (FF FE /
#   FE FF: the BOM both ways), FFFE, FFFF, plus 01xx / xx01 and 10xx / 11xx units;
#   UTF-32 units 0010FFFF (FF FF 10 00 / 00 10 FF FF), 00110000 (00 00 11 00 / 00 11 00 00),
#   FFFFFFFF, 0000D800 (00 D8 00 00 / 00 00 D8 00), 0000FEFF and FFFE0000 (the BOMs),
#   00010000 (00 00 01 00) and 00000041.
ALPHABET = [0x00, 0x01, 0x10, 0x11, 0x41, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xFE, 0xFF]
UNITS16 = [0x0000, 0x0041, 0x00FF, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF,
           0xFFFE, 0xFFFF]
UNITS32 = [0x00000000, 0x00000041, 0x0000D7FF, 0x0000D800, 0x0000DFFF, 0x0000E000, 0x0000FEFF,
           0x0000FFFF, 0x00010000, 0x0010FFFF, 0x00110000, 0xFFFE0000, 0xFFFFFFFF]
ORDER = {"utf-16le": "little", "utf-16be": "big", "utf-16": "little",
         "utf-32le": "little", "utf-32be": "big", "utf-32": "little"}


def small_inputs(alphabet, max_len):
    for n in range(max_len + 1):
        for combo in itertools.product(alphabet, repeat=n):
            yield bytes(combo)


@pytest.mark.parametrize("name", UNIT_NAMES)
def test_oracle_equals_cpython_on_every_short_input(name):
    """Every input of up to 4 bytes over ALPHABET: tokens, reasons and replaced text as
    CPython's decoder (Unicode ch. 3 D90/D91, D96..D101; reasons as CPython's)."""
    o = ORACLES[name]
    bad = []
    for data in small_inputs(ALPHABET, 4):
        toks = o.tokens_with_reasons(data)
        if toks != cpython_tokens(name, data):
            bad.append((data.hex(" "), toks, cpython_tokens(name, data)))
    assert not bad, bad[:5]


@pytest.mark.parametrize("name", UNIT_NAMES)
def test_oracle_equals_cpython_on_every_unit_sequence(name):
    """Every sequence of up to 3 (UTF-16) or 2 (UTF-32) interesting units, in the name's
    byte order, alone, followed by 1..U-1 stray bytes, and (utf-16 / utf-32) after
    either byte order mark."""
    o = ORACLES[name]
    size = 4 if name in UTF32 else 2
    units = UNITS32 if name in UTF32 else UNITS16
    repeat = 2 if name in UTF32 else 3
    if name == "utf-16":
        prefixes = [(b"", "little"), (b"\xFF\xFE", "little"), (b"\xFE\xFF", "big")]
    elif name == "utf-32":
        prefixes = [(b"", "little"), (b"\xFF\xFE\x00\x00", "little"), (b"\x00\x00\xFE\xFF", "big")]
    else:
        prefixes = [(b"", ORDER[name])]
    tails = [b""] + [b"\xD8\xDC\x00"[:k] for k in range(1, size)] \
        + [b"\x00\xDC\xD8"[:k] for k in range(1, size)]
    bad = []
    for prefix, order in prefixes:
        for n in range(repeat + 1):
            for seq in itertools.product(units, repeat=n):
                body = b"".join(u.to_bytes(size, order) for u in seq)
                for tail in tails:
                    data = prefix + body + tail
                    if o.tokens_with_reasons(data) != cpython_tokens(name, data):
                        bad.append(data.hex(" "))
    assert not bad, bad[:10]


@st.composite
def unit_inputs(draw, name, max_size=64):
    """Bytes up to max_size: interesting units in either byte order, byte order marks,
    random units and single random bytes."""
    size = 4 if name in UTF32 else 2
    units = UNITS32 if name in UTF32 else UNITS16
    part = st.one_of(
        st.tuples(st.sampled_from(units), st.sampled_from(["little", "big"])).map(
            lambda uo: uo[0].to_bytes(size, uo[1])),
        st.tuples(st.sampled_from(units), st.just(ORDER[name])).map(lambda uo: uo[0].to_bytes(size, uo[1])),
        st.sampled_from([b"\xFF\xFE", b"\xFE\xFF", b"\xFF\xFE\x00\x00", b"\x00\x00\xFE\xFF"]),
        st.binary(min_size=size, max_size=size),
        st.sampled_from(ALPHABET).map(lambda b: bytes([b])),
        st.binary(min_size=1, max_size=1),
    )
    return b"".join(draw(st.lists(part, max_size=40)))[:max_size]


@pytest.mark.parametrize("name", UNIT_NAMES)
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_oracle_equals_cpython_on_random_inputs(name, data):
    b = data.draw(unit_inputs(name), label="bytes")
    toks = ORACLES[name].tokens_with_reasons(b)
    assert_covers(toks, b)
    assert toks == cpython_tokens(name, b)
    assert replaced(toks) == b.decode(CPYTHON[name], "replace")


def test_contract_examples_utf16():
    """The contract's UTF-16 examples, each as CPython decodes it."""
    cases = {
        ("utf-16be", "D8 00 41"): [err(0, 3, END)],               # the partial unit is never judged
        ("utf-16be", "D8 00"): [err(0, 2, END)],
        ("utf-16be", "D8 00 DC"): [err(0, 3, END)],
        ("utf-16be", "D8 00 00 41"): [err(0, 2, "illegal UTF-16 surrogate"), char(2, 4, 0x41)],
        ("utf-16be", "D8 00 D8 00 DC 00"): [err(0, 2, "illegal UTF-16 surrogate"), char(2, 6, 0x10000)],
        ("utf-16be", "DC 00 41"): [err(0, 2, "illegal encoding"), err(2, 3, TRUNCATED)],
        ("utf-16le", "3D D8 00 DE"): [char(0, 4, 0x1F600)],            # U+1F600 = D83D DE00
        ("utf-16le", "FF FE 41 00"): [char(0, 2, 0xFEFF), char(2, 4, 0x41)],  # no signature
        ("utf-16", "FF FE 41 00"): [("signature", 0, 2, None, None), char(2, 4, 0x41)],
        ("utf-16", "FE FF 00 41"): [("signature", 0, 2, None, None), char(2, 4, 0x41)],
        ("utf-16", "FE FF FE FF"): [("signature", 0, 2, None, None), char(2, 4, 0xFEFF)],
        ("utf-16", "41 00"): [char(0, 2, 0x41)],                          # unmarked: little-endian
        ("utf-16", "FF"): [err(0, 1, TRUNCATED)],
        ("utf-16", "FE FF DC 00"): [("signature", 0, 2, None, None), err(2, 4, "illegal encoding")],
    }
    for (name, hexbytes), want in cases.items():
        data = h(hexbytes)
        assert ORACLES[name].tokens_with_reasons(data) == want, (name, hexbytes)
        assert cpython_tokens(name, data) == want, (name, hexbytes)


def test_contract_examples_utf32():
    sur = "code point in surrogate code point range(0xd800, 0xe000)"
    big = "code point not in range(0x110000)"
    cases = {
        ("utf-32le", "00 D8 00 00"): [err(0, 4, sur)],
        ("utf-32le", "00 00 11 00 41"): [err(0, 4, big), err(4, 5, TRUNCATED)],
        ("utf-32be", "FF FF FF FF"): [err(0, 4, big)],
        ("utf-32be", "00 10 FF FF"): [char(0, 4, 0x10FFFF)],
        ("utf-32le", "41 00 00"): [err(0, 3, TRUNCATED)],
        ("utf-32", "FF FE"): [err(0, 2, TRUNCATED)],                # an incomplete signature is not one
        ("utf-32", "FF FE 00"): [err(0, 3, TRUNCATED)],
        ("utf-32", "FF FE 00 00"): [("signature", 0, 4, None, None)],
        ("utf-32", "00 00 FE FF 00 00 00 41"): [("signature", 0, 4, None, None), char(4, 8, 0x41)],
        ("utf-32", "41 00 00 00"): [char(0, 4, 0x41)],
        ("utf-32le", "FF FE 00 00"): [char(0, 4, 0xFEFF)],
    }
    for (name, hexbytes), want in cases.items():
        data = h(hexbytes)
        assert ORACLES[name].tokens_with_reasons(data) == want, (name, hexbytes)
        assert cpython_tokens(name, data) == want, (name, hexbytes)


# ---------------------------------------------------------------- encoding
SCALARS = st.one_of(st.integers(0, 0xD7FF), st.integers(0xE000, 0x10FFFF),
                    st.sampled_from([0, 0x41, 0xD7FF, 0xE000, 0xFEFF, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF]))
BOMS = {"utf-16": codecs.BOM_UTF16_LE, "utf-32": codecs.BOM_UTF32_LE}


@pytest.mark.parametrize("name", UNIT_NAMES)
@settings(max_examples=examples(200), deadline=None)
@given(cps=st.lists(SCALARS, max_size=12))
def test_encode_equals_cpython(name, cps):
    """D90 / D91 and the schemes: as CPython's encoder; utf-16 / utf-32 write the
    little-endian byte order mark and little-endian units (CPython's utf-16 / utf-32
    on a little-endian machine)."""
    o = ORACLES[name]
    text = "".join(map(chr, cps))
    got = o.encode(cps)
    if name in BOMS:
        assert got == BOMS[name] + text.encode(CPYTHON[name] + "-le")
        if sys.byteorder == "little":
            assert got == text.encode(CPYTHON[name])
        assert o.encode(cps, signature=False) == text.encode(CPYTHON[name] + "-le")
        assert [t[3] for t in o.tokens(got)[1:]] == cps
    else:
        assert got == text.encode(CPYTHON[name])
        assert [t[3] for t in o.tokens(got)] == cps
        with pytest.raises(ValueError):
            o.encode(cps, signature=True)


@pytest.mark.parametrize("name", UNIT_NAMES)
@settings(max_examples=examples(100), deadline=None)
@given(cps=st.lists(SCALARS, max_size=5), bad=st.integers(0xD800, 0xDFFF), at=st.integers(0, 5))
def test_encode_refuses_surrogates_where_cpython_does(name, cps, bad, at):
    at = min(at, len(cps))
    cps = cps[:at] + [bad] + cps[at:]
    with pytest.raises(ValueError, match=f"index {at}"):
        ORACLES[name].encode(cps)
    with pytest.raises(UnicodeEncodeError) as info:
        "".join(map(chr, cps)).encode(CPYTHON[name])
    assert info.value.start == at


@pytest.mark.parametrize("name", UNIT_NAMES + ["wtf-16"])
def test_encode_refuses_beyond_u10ffff_and_non_code_points(name):
    o = ORACLES[name]
    with pytest.raises(ValueError, match=r"index 2.*U\+110000|U\+110000.*index 2"):
        o.encode([0x41, 0x42, 0x110000])
    with pytest.raises(ValueError):
        o.encode([-1])


# ======================================================================
# Node's TextDecoder (WHATWG Encoding "shared UTF-16 decoder")

NODE_UTF16 = r"""
const input = require("fs").readFileSync(0, "latin1");
const lines = input.split("\n");
if (lines.length && lines[lines.length - 1] === "") lines.pop();
// ignoreBOM: true keeps a leading FF FE / FE FF as U+FEFF: utf-16le / utf-16be have no
// signature (the WHATWG decoder otherwise drops a BOM of its own byte order).
const make = (label, fatal) => new TextDecoder(label, { fatal: fatal, ignoreBOM: true });
const decoders = [make("utf-16le", false), make("utf-16le", true),
                  make("utf-16be", false), make("utf-16be", true)];
const out = [];
for (const line of lines) {
  const bytes = Buffer.from(line, "hex");
  out.push(decoders.map(d => {
    try { return Buffer.from(d.decode(bytes), "utf16le").toString("hex"); }
    catch (e) { return "E"; }
  }).join(" "));
}
process.stdout.write(out.map(l => l + "\n").join(""));
"""


def node_inputs() -> list:
    """Every input of up to 3 bytes over ALPHABET, every sequence of up to 3 interesting
    units in either order with or without a stray byte, and 3000 seeded random inputs of up
    to 64 bytes built the same way."""
    inputs = list(small_inputs(ALPHABET, 3))
    for order in ("little", "big"):
        for n in range(1, 4):
            for seq in itertools.product(UNITS16, repeat=n):
                body = b"".join(u.to_bytes(2, order) for u in seq)
                inputs += [body, body + b"\xD8", body + b"\x00"]
    rng = random.Random(20240517)
    for _ in range(3000):
        parts = []
        for _ in range(rng.randrange(0, 33)):
            r = rng.random()
            if r < 0.6:
                parts.append(rng.choice(UNITS16).to_bytes(2, rng.choice(["little", "big"])))
            elif r < 0.8:
                parts.append(bytes([rng.choice(ALPHABET)]))
            else:
                parts.append(bytes([rng.randrange(256)]))
        inputs.append(b"".join(parts)[:64])
    return inputs


def test_utf16le_and_be_equal_node_textdecoder(tmp_path):
    """WHATWG Encoding, "shared UTF-16 decoder" as Node implements it: the text with
    replacement is the oracle's tokens with one U+FFFD per error token, and the fatal
    decoder throws exactly when the oracle has an error token.  (The WHATWG algorithm
    replaces a lead surrogate followed by a non-trail unit by one U+FFFD and then reads
    that unit again, and emits one U+FFFD for a lead surrogate or odd byte at the end:
    the contract's error tokens, one for one.)"""
    node = tools.need(tools.node)
    inputs = node_inputs()
    script = tmp_path / "utf16.js"
    script.write_text(NODE_UTF16)
    out = tools.run([node, str(script)], stdin=tools.hex_lines(inputs)).decode("ascii")
    lines = out.split("\n")
    assert lines[-1] == "" and len(lines) == len(inputs) + 1
    bad = []
    for data, line in zip(inputs, lines):
        fields = line.split(" ")
        for k, o in enumerate((utf_16le, utf_16be)):
            toks = o.tokens_with_reasons(data)
            want = replaced(toks)
            replacement, fatal = fields[2 * k], fields[2 * k + 1]
            if bytes.fromhex(replacement).decode("utf-16-le") != want:
                bad.append((o.NAME, "replacement", data.hex(" ")))
            want_fatal = "E" if any(t[0] == "error" for t in toks) else want
            got_fatal = fatal if fatal == "E" else bytes.fromhex(fatal).decode("utf-16-le")
            if got_fatal != want_fatal:
                bad.append((o.NAME, "fatal", data.hex(" ")))
    assert not bad, bad[:10]


# ======================================================================
# WTF-16 (wtf-8.txt 4.1 / 4.2) against CPython's utf-16-le with surrogatepass

_surrogatepass = codecs.lookup_error("surrogatepass")


def _wtf16_handler(exc):
    """surrogatepass (a lone surrogate unit is its code point), except for a trailing odd
    byte, which is recorded as the error it is in WTF-16."""
    if exc.reason == TRUNCATED:
        _SPANS.append((exc.start, exc.end, exc.reason))
        return ("\ufffd", exc.end)
    return _surrogatepass(exc)


codecs.register_error("oracles-units-wtf16", _wtf16_handler)


def cpython_wtf16_tokens(data: bytes) -> list:
    _SPANS.clear()
    text = data.decode("utf-16-le", "oracles-units-wtf16")
    toks, pos = [], 0
    for ch in text:
        if pos < len(data) and _SPANS and _SPANS[0][0] == pos:
            assert ch == "\ufffd"
            start, end, reason = _SPANS.pop(0)
            toks.append(err(start, end, reason))
            pos = end
            continue
        width = 4 if ord(ch) > 0xFFFF else 2
        toks.append(char(pos, pos + width, ord(ch)))
        pos += width
    assert pos == len(data) and not _SPANS
    return toks


def test_wtf16_equals_cpython_surrogatepass_on_every_short_input():
    for data in small_inputs(ALPHABET, 4):
        assert wtf_16.tokens_with_reasons(data) == cpython_wtf16_tokens(data), data.hex(" ")


@settings(max_examples=examples(200), deadline=None)
@given(data=unit_inputs("utf-16le"))
def test_wtf16_equals_cpython_surrogatepass_on_random_inputs(data):
    toks = wtf_16.tokens_with_reasons(data)
    assert_covers(toks, data)
    assert toks == cpython_wtf16_tokens(data)
    assert all(t[0] == "char" for t in toks[:-1])      # only a trailing odd byte is an error


def test_wtf16_examples():
    """wtf-8.txt 4.2: a pair is one supplementary code point, a lone surrogate its own
    code point; the contract: a trailing odd byte is "truncated data"."""
    assert wtf_16.tokens_with_reasons(h("3D D8 00 DE")) == [char(0, 4, 0x1F600)]
    assert wtf_16.tokens_with_reasons(h("3D D8")) == [char(0, 2, 0xD83D)]
    assert wtf_16.tokens_with_reasons(h("00 DC 00 D8")) == [char(0, 2, 0xDC00), char(2, 4, 0xD800)]
    assert wtf_16.tokens_with_reasons(h("00 D8 00 D8 00 DC")) == [char(0, 2, 0xD800), char(2, 6, 0x10000)]
    assert wtf_16.tokens_with_reasons(h("00 D8 41")) == [char(0, 2, 0xD800), err(2, 3, TRUNCATED)]
    assert wtf_16.tokens_with_reasons(h("FF FE")) == [char(0, 2, 0xFEFF)]
    assert wtf_16.encode([0xD83D]) == h("3D D8")
    assert wtf_16.encode([0x1F600]) == h("3D D8 00 DE")
    # 4.1: a surrogate code point pair "should be considered an error" (written unit by
    # unit it would read back as the supplementary code point, the bytes CPython's
    # surrogatepass writes): the trail surrogate is refused
    assert "\ud83d\ude00".encode("utf-16-le", "surrogatepass") == h("3D D8 00 DE")
    with pytest.raises(ValueError, match="U\\+DE00 at index 1"):
        wtf_16.encode([0xD83D, 0xDE00])
    assert wtf_16.encode([0xDE00, 0xD83D]) == h("00 DE 3D D8")  # trail, then lead: no pair
    with pytest.raises(ValueError):
        wtf_16.encode([0x41], signature=True)


@settings(max_examples=examples(200), deadline=None)
@given(cps=st.lists(st.one_of(st.integers(0, 0x10FFFF), st.integers(0xD800, 0xDFFF)), max_size=12))
def test_wtf16_encode_equals_cpython_surrogatepass(cps):
    """wtf-8.txt 4.1 (every code point, surrogates included, but no surrogate code point
    pair) and 4.2 back."""
    if any(0xD800 <= a <= 0xDBFF and 0xDC00 <= b <= 0xDFFF for a, b in itertools.pairwise(cps)):
        with pytest.raises(ValueError):
            wtf_16.encode(cps)
        return
    data = wtf_16.encode(cps)
    assert data == "".join(map(chr, cps)).encode("utf-16-le", "surrogatepass")
    assert [t[3] for t in wtf_16.tokens(data)] == [ord(c) for c in data.decode("utf-16-le", "surrogatepass")]


# ======================================================================
# Every oracle: coverage, char tokens re-encode, round trip

def reencode(name, data, value):
    o = ORACLES[name]
    if name == "utf-16":
        return {"little": utf_16le, "big": utf_16be}[o.byte_order(data)].encode([value])
    if name == "utf-32":
        return {"little": utf_32le, "big": utf_32be}[o.byte_order(data)].encode([value])
    return o.encode([value])


@pytest.mark.parametrize("name", sorted(ORACLES))
@settings(max_examples=examples(200), deadline=None)
@given(data=st.binary(max_size=40)
       | st.lists(st.sampled_from(ALPHABET + [0x7F, 0x80, 0xF0, 0xF1, 0xF9, 0xFA]), max_size=40).map(bytes))
def test_tokens_cover_input_and_chars_reencode(name, data):
    o = ORACLES[name]
    assert o.NAME == name
    toks = o.tokens_with_reasons(data)
    assert_covers(toks, data)
    assert o.tokens(data) == [t[:4] for t in toks]
    for kind, start, end, value, _ in toks:
        if kind == "char" and name == "leb128-overlong":   # redundant groups: read it back
            assert doc_read_varint(data[start:end], 0) == (value, end - start)
        elif kind == "char":
            assert reencode(name, data, value) == data[start:end]
        if kind == "signature":
            assert start == 0 and name in ("utf-16", "utf-32")


# ======================================================================
# LEB128 against protobuf

def protobuf_varint():
    """(reader, writer) from protobuf's Python package: decoder._DecodeVarint(buffer, pos)
    -> (value, new pos) and encoder._VarintBytes(value) -> bytes."""
    try:
        from google.protobuf.internal import decoder, encoder
    except ImportError:
        tools.missing("protobuf not installed (pip install protobuf: google.protobuf.internal "
                      "has the reference varint reader and writer)")
    return decoder._DecodeVarint, encoder._VarintBytes


class TooManyBytes(Exception):
    pass


def doc_read_varint(buffer, pos):
    """Written here from protobuf's "Encoding" documentation, "Base 128 Varints": drop
    the continuation (most significant) bit of each byte, the 7-bit payloads are
    little-endian (least significant group first); a varint is one to ten bytes.  Returns
    (value, new pos); IndexError when the data ends first, TooManyBytes past 10 bytes.
    Unlike protobuf's reader, nothing is masked: a 10th byte above 01 gives a value
    beyond 64 bits."""
    value, shift = 0, 0
    while True:
        b = buffer[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift >= 70:
            raise TooManyBytes()


def doc_write_varint(value):
    """The same document: 7 bits at a time, least significant first, continuation bit on
    all but the last byte."""
    out = bytearray()
    while value > 0x7F:
        out.append(0x80 | value & 0x7F)
        value >>= 7
    out.append(value)
    return bytes(out)


def reference(kind):
    if kind == "protobuf":
        return protobuf_varint()
    return doc_read_varint, doc_write_varint


def expected_leb128(read, write, data, shortest):
    """The token stream the contract asks for, from a real varint reader: a value it reads
    is a char, except a 10th byte above 01 (bits beyond 63, which protobuf masks off) and,
    for the shortest form, a varint the writer would not write (it ends in a redundant 00
    group: everything before that 00 can still be completed, e.g. by 01, so the error is
    those bytes).  A reader running out of data: "unexpected end of data"; a reader
    refusing an 11th byte: the 9 bytes before the 10th, which could not continue."""
    toks, pos = [], 0
    while pos < len(data):
        try:
            value, end = read(data, pos)
        except IndexError:
            toks.append(err(pos, len(data), END))
            break
        except Exception as e:  # protobuf's DecodeError / TooManyBytes: "Too many bytes"
            assert type(e).__name__ in ("DecodeError", "TooManyBytes"), repr(e)
            toks.append(err(pos, pos + 9, BAD))
            pos += 9
            continue
        if end - pos == 10 and data[pos + 9] > 0x01:
            toks.append(err(pos, pos + 9, BAD))
            pos += 9
        elif shortest and write(value) != data[pos:end]:
            assert data[end - 1] == 0x00
            toks.append(err(pos, end - 1, BAD))
            pos = end - 1
        else:
            toks.append(char(pos, end, value))
            pos = end
    return toks


VARINT_BYTES = [0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFE, 0xFF]
varint_data = st.one_of(
    st.lists(st.sampled_from(VARINT_BYTES), max_size=24).map(bytes),
    st.lists(st.one_of(st.sampled_from([b"\x80" * 9, b"\xFF" * 9, b"\x80" * 8, b"\xFF" * 10]),
                       st.sampled_from(VARINT_BYTES).map(lambda b: bytes([b]))), max_size=6).map(b"".join),
    st.binary(max_size=24),
)
U64 = st.one_of(st.integers(0, 2 ** 64 - 1), st.sampled_from(leb128.BOUNDARIES),
                st.integers(0, 64).map(lambda k: 2 ** k - 1 if k else 0))


@pytest.mark.parametrize("kind", ["protobuf", "documentation"])
@pytest.mark.parametrize("name", ["leb128", "leb128-overlong"])
@settings(max_examples=examples(200), deadline=None)
@given(data=varint_data)
def test_leb128_tokens_equal_a_real_varint_reader(name, kind, data):
    read, write = reference(kind)
    want = expected_leb128(read, write, data, shortest=(name == "leb128"))
    assert ORACLES[name].tokens_with_reasons(data) == want


@pytest.mark.parametrize("kind", ["protobuf", "documentation"])
@pytest.mark.parametrize("name", ["leb128", "leb128-overlong"])
@settings(max_examples=examples(200), deadline=None)
@given(v=U64)
def test_leb128_values_and_truncations_equal_a_real_varint(name, kind, v):
    """Encoding equals the real writer; the real reader reads it back; every proper prefix
    is, for the reader, data that ends too soon (IndexError), and for the oracle one
    "unexpected end of data" error."""
    read, write = reference(kind)
    o = ORACLES[name]
    data = o.encode([v])
    assert data == write(v)
    assert read(data, 0) == (v, len(data))
    assert o.tokens_with_reasons(data) == [char(0, len(data), v)]
    for k in range(1, len(data)):
        with pytest.raises(IndexError):
            read(data[:k], 0)
        assert o.tokens_with_reasons(data[:k]) == [err(0, k, END)]


# DWARF 5 section 7.6, the table of unsigned LEB128 examples; protobuf "Encoding",
# "Base 128 Varints" (1 -> 01, 150 -> 96 01: 150 = 1 * 128 + 22, 22 | 0x80 = 0x96).
LEB128_EXAMPLES = [(2, "02"), (127, "7F"), (128, "80 01"), (129, "81 01"), (130, "82 01"),
                   (12857, "B9 64"),   # 12857 = 100 * 128 + 57: 57 | 0x80 = B9, 100 = 64
                   (1, "01"), (150, "96 01"),
                   (0, "00"), (2 ** 63, "80 80 80 80 80 80 80 80 80 01"),  # bit 63: 10th group = 1
                   (2 ** 64 - 1, "FF FF FF FF FF FF FF FF FF 01")]


@pytest.mark.parametrize("value, hexbytes", LEB128_EXAMPLES)
def test_leb128_document_examples(value, hexbytes):
    for o in (leb128, leb128_overlong):
        assert o.encode([value]) == h(hexbytes)
        assert o.tokens_with_reasons(h(hexbytes)) == [char(0, len(h(hexbytes)), value)]


@pytest.mark.parametrize("hexbytes, shortest, overlong", [
    # the contract: 80 00 is not shortest -> the 80 is an error, then 00 is the value 0
    ("80 00", [err(0, 1, BAD), char(1, 2, 0)], [char(0, 2, 0)]),
    ("FF 80 00", [err(0, 2, BAD), char(2, 3, 0)], [char(0, 3, 127)]),
    ("80", [err(0, 1, END)], [err(0, 1, END)]),
    ("FF FF", [err(0, 2, END)], [err(0, 2, END)]),
    # 10 bytes: the 10th holds bit 63 only
    ("80 80 80 80 80 80 80 80 80 00", [err(0, 9, BAD), char(9, 10, 0)], [char(0, 10, 0)]),
    ("80 80 80 80 80 80 80 80 80 02", [err(0, 9, BAD), char(9, 10, 2)], [err(0, 9, BAD), char(9, 10, 2)]),
    ("FF FF FF FF FF FF FF FF FF 7F", [err(0, 9, BAD), char(9, 10, 0x7F)],
     [err(0, 9, BAD), char(9, 10, 0x7F)]),
    ("80 80 80 80 80 80 80 80 80 80", [err(0, 9, BAD), err(9, 10, END)], [err(0, 9, BAD), err(9, 10, END)]),
    ("41 80 01 00", [char(0, 1, 0x41), char(1, 3, 128), char(3, 4, 0)],
     [char(0, 1, 0x41), char(1, 3, 128), char(3, 4, 0)]),
])
def test_leb128_error_spans(hexbytes, shortest, overlong):
    assert leb128.tokens_with_reasons(h(hexbytes)) == shortest
    assert leb128_overlong.tokens_with_reasons(h(hexbytes)) == overlong


# ======================================================================
# SQLite4 varint: sqlite.org/src4/doc/trunk/www/varint.wiki

# Worked by hand from the wiki's Encode rules:
SQLITE4_EXAMPLES = [
    (0, "00"),
    (240, "F0"),                  # V <= 240: one byte
    (241, "F1 01"),               # V <= 2287: A0 = (241-240)/256 + 241 = 241, A1 = (241-240)%256 = 1
    (495, "F1 FF"),               # 495-240 = 255: A0 = 0 + 241, A1 = 255
    (496, "F2 00"),               # 496-240 = 256: A0 = 1 + 241 = 242, A1 = 0
    (2287, "F8 FF"),              # 2287-240 = 2047 = 7*256 + 255: A0 = 248, A1 = 255
    (2288, "F9 00 00"),           # V <= 67823: A0 = 249, (2288-2288) = 0 -> 00 00
    (2289, "F9 00 01"),
    (67823, "F9 FF FF"),          # 67823-2288 = 65535 = 255*256 + 255
    (67824, "FA 01 08 F0"),       # 250 and a 3-byte big-endian integer: 67824 = 0x0108F0
    (2 ** 24 - 1, "FA FF FF FF"),
    (2 ** 24, "FB 01 00 00 00"),  # 251: 4 bytes
    (2 ** 32 - 1, "FB FF FF FF FF"),
    (2 ** 32, "FC 01 00 00 00 00"),             # 252: 5 bytes
    (2 ** 40, "FD 01 00 00 00 00 00"),          # 253: 6 bytes
    (2 ** 48 - 1, "FD FF FF FF FF FF FF"),
    (2 ** 48, "FE 01 00 00 00 00 00 00"),       # 254: 7 bytes
    (2 ** 56, "FF 01 00 00 00 00 00 00 00"),    # 255: 8 bytes
    (2 ** 64 - 1, "FF FF FF FF FF FF FF FF FF"),
]


@pytest.mark.parametrize("value, hexbytes", SQLITE4_EXAMPLES)
def test_sqlite4_worked_examples(value, hexbytes):
    data = h(hexbytes)
    assert sqlite4_varint.encode([value]) == data
    assert sqlite4_varint.tokens_with_reasons(data) == [char(0, len(data), value)]


def test_sqlite4_largest_values_per_length():
    """The wiki's "Other information" table: the largest value of 1 .. 9 bytes."""
    largest = [240, 2287, 67823, 2 ** 24 - 1, 2 ** 32 - 1, 2 ** 40 - 1, 2 ** 48 - 1, 2 ** 56 - 1, 2 ** 64 - 1]
    for n, v in enumerate(largest, start=1):
        assert len(sqlite4_varint.encode([v])) == n
        if v < 2 ** 64 - 1:
            assert len(sqlite4_varint.encode([v + 1])) == n + 1


# the wiki's "Other information" table: n bytes hold up to 67823, 2**24-1, ..., 2**56-1, so the
# n+1-byte form (lead 250 .. 255) starts one above
SMALLEST_BY_LEAD = {250: 67824, 251: 2 ** 24, 252: 2 ** 32, 253: 2 ** 40, 254: 2 ** 48, 255: 2 ** 56}


def test_sqlite4_brute_force_short_forms():
    """Every input of 1 or 2 bytes and every 249-form: a char exactly when it is the
    encoding of its value (shortest form), and otherwise an error of the longest prefix
    shared with some encoding (maximal subpart) -- the reference built from encode alone,
    over every value of at most 3 bytes."""
    valid = {sqlite4_varint.encode([v]): v for v in range(0, 67824)}
    assert len(valid) == 67824                              # no two values share bytes
    prefixes = {seq[:k] for seq in valid for k in range(1, len(seq) + 1)}
    inputs = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(256) for b in range(256)]
    inputs += [bytes([249, a, b]) for a in range(256) for b in range(256)]
    for data in inputs:
        first = sqlite4_varint.tokens_with_reasons(data)[0]
        whole = [k for k in range(1, len(data) + 1) if data[:k] in valid]
        if whole:
            assert first == char(0, whole[0], valid[data[:whole[0]]])
        elif data[0] >= 250:
            # 4..9-byte forms, too many to list: by the wiki's property 3 (byte order is
            # numeric order) and the "Other information" table, the forms of one length are
            # the byte strings from encode(smallest value of that length) up to lead + FF..FF;
            # a prefix can be completed iff it is not below that smallest encoding's prefix
            lowest = sqlite4_varint.encode([SMALLEST_BY_LEAD[data[0]]])
            k = max(k for k in range(1, len(data) + 1) if data[:k] >= lowest[:k])
            assert first == (err(0, k, END) if k == len(data) else err(0, k, BAD)), data.hex(" ")
        elif data in prefixes:                              # the data ends inside a form
            assert first == err(0, len(data), END), data.hex(" ")
        else:
            k = max(k for k in range(1, len(data) + 1) if data[:k] in prefixes)
            assert first == err(0, k, BAD), data.hex(" ")


@settings(max_examples=examples(200), deadline=None)
@given(a=U64, b=U64)
def test_sqlite4_order_is_byte_order(a, b):
    """Wiki property 3: "Lexicographical and numeric ordering for varints are the same"
    (memcmp, shorter first: Python's bytes comparison); and every value round-trips."""
    ea, eb = sqlite4_varint.encode([a]), sqlite4_varint.encode([b])
    assert (a < b) == (ea < eb) and (a == b) == (ea == eb)
    assert sqlite4_varint.tokens(ea + eb) == [("char", 0, len(ea), a), ("char", len(ea), len(ea + eb), b)]


@pytest.mark.parametrize("hexbytes, want", [
    # F1 00 decodes to 240 + 256*0 + 0 = 240, which F0 holds: not shortest (see the oracle)
    ("F1 00", [err(0, 1, BAD), char(1, 2, 0)]),
    ("F1", [err(0, 1, END)]),
    ("F9 FF", [err(0, 2, END)]),
    # 250 needs >= 67824 = 01 08 F0: A1 = 00 leaves at most 0x00FFFF = 65535
    ("FA 00 00 00", [err(0, 1, BAD), char(1, 2, 0), char(2, 3, 0), char(3, 4, 0)]),
    # FA 01 07 xx is at most 0x0107FF = 67583 < 67824; then 07 is 7 and FF starts a 9-byte form
    ("FA 01 07 FF", [err(0, 2, BAD), char(2, 3, 7), err(3, 4, END)]),
    ("FA 01 08 EF", [err(0, 3, BAD), char(3, 4, 0xEF)]),     # 0x0108EF = 67823 < 67824
    ("FA 01 08", [err(0, 3, END)]),                          # could still be 01 08 F0..FF
    ("FB 00 41", [err(0, 1, BAD), char(1, 2, 0), char(2, 3, 0x41)]),   # 251 needs >= 2**24
    ("FC 00", [err(0, 1, BAD), char(1, 2, 0)]),              # 252 needs >= 2**32
    ("FD 00", [err(0, 1, BAD), char(1, 2, 0)]),              # 253 needs >= 2**40
    ("FE 00", [err(0, 1, BAD), char(1, 2, 0)]),              # 254 needs >= 2**48
    ("FF 00 FF", [err(0, 1, BAD), char(1, 2, 0), err(2, 3, END)]),     # 255 needs >= 2**56
    ("FF 01", [err(0, 2, END)]),
])
def test_sqlite4_error_spans(hexbytes, want):
    assert sqlite4_varint.tokens_with_reasons(h(hexbytes)) == want


def test_sqlite4_unencodable():
    with pytest.raises(ValueError, match="index 1"):
        sqlite4_varint.encode([0, 2 ** 64])
    with pytest.raises(ValueError):
        sqlite4_varint.encode([-1])


# ======================================================================
# git OFS_DELTA offsets: Documentation/technical/pack-format.txt

# Worked by hand from pack-format.txt ("concatenating the lower 7 bit of each byte, and for
# n >= 2 adding 2^7 + 2^14 + ... + 2^(7*(n-1))"):
GIT_EXAMPLES = [
    (0, "00"),
    (127, "7F"),
    (128, "80 00"),              # 0 + 2^7
    (129, "80 01"),
    (16511, "FF 7F"),            # 0x3FFF = 16383, + 128
    (16512, "80 80 00"),         # 0 + 2^7 + 2^14 = 16512
    (2113663, "FF FF 7F"),       # 2^21 - 1 + 2^7 + 2^14 = 2097151 + 16512
    (2113664, "80 80 80 00"),    # 2^7 + 2^14 + 2^21
    # 2**64 - 1 = 2^7 + ... + 2^63 (the 10-byte offset) + (2^63 - 1 - (2^7 + ... + 2^56)); in
    # groups, g0 = 0, g1..g8 = 127 - 1 = 126 = 7E, g9 = 127: bytes 80, FE x 8, 7F
    (2 ** 64 - 1, "80 FE FE FE FE FE FE FE FE 7F"),
    (sum(2 ** (7 * j) for j in range(1, 10)), "80 80 80 80 80 80 80 80 80 00"),  # smallest 10-byte
]


@pytest.mark.parametrize("value, hexbytes", GIT_EXAMPLES)
def test_git_worked_examples(value, hexbytes):
    data = h(hexbytes)
    assert git_offset_varint.encode([value]) == data
    assert git_offset_varint.tokens_with_reasons(data) == [char(0, len(data), value)]


def contract_git_value(data: bytes) -> int:
    """The contract's form of the same rule (git's reader, packfile.c get_delta_base):
    v = c & 127; while c & 128: v += 1; c = next; v = (v << 7) + (c & 127)."""
    v = data[0] & 127
    for c in data[1:]:
        v = ((v + 1) << 7) + (c & 127)
    return v


def test_git_brute_force_bijection():
    """Every 1- and 2-byte code is a distinct value, the 1-byte ones exactly 0..127 and the
    2-byte ones exactly 128..16511 ("no overlong forms"); both formulas agree; every
    3-byte input with a given third byte too."""
    ones = [git_offset_varint.tokens(bytes([a]))[0] for a in range(128)]
    assert [t[3] for t in ones] == list(range(128))
    twos = []
    for a in range(128, 256):
        for b in range(128):
            data = bytes([a, b])
            toks = git_offset_varint.tokens(data)
            assert toks == [("char", 0, 2, contract_git_value(data))]
            twos.append(toks[0][3])
    assert sorted(twos) == list(range(128, 16512))
    for a in range(128, 256):
        for b in range(128, 256):
            for c in (0x00, 0x7F):
                data = bytes([a, b, c])
                assert git_offset_varint.tokens(data) == [("char", 0, 3, contract_git_value(data))]
            assert git_offset_varint.tokens_with_reasons(bytes([a, b])) == [err(0, 2, END)]


@settings(max_examples=examples(200), deadline=None)
@given(v=st.one_of(st.integers(0, 2 ** 64 - 1), st.sampled_from(git_offset_varint.BOUNDARIES)))
def test_git_round_trip(v):
    data = git_offset_varint.encode([v])
    assert git_offset_varint.tokens_with_reasons(data) == [char(0, len(data), v)]
    assert contract_git_value(data) == v
    assert all(b & 0x80 for b in data[:-1]) and not data[-1] & 0x80


@pytest.mark.parametrize("hexbytes, want", [
    ("80", [err(0, 1, END)]),
    ("FF FF", [err(0, 2, END)]),
    # a 10-byte code needs g0 = 0 (a first group >= 1 puts bit 63 of the concatenation on,
    # and 2^63 + 2^7 + ... + 2^63 > 2^64 - 1): 81 then 8 more continuation bytes cannot be
    # completed; the 9th byte (the 8 before it form a prefix of a 9-byte code) is refused
    ("81 80 80 80 80 80 80 80 80 00", [err(0, 8, BAD), char(8, 10, 128)]),
    ("FF FF FF FF FF FF FF FF FF 7F", [err(0, 8, BAD), char(8, 10, 16511)]),
    # 80 FE x 7 FF: the 9th group 127 > 126 makes every 10-byte completion too big
    ("80 FE FE FE FE FE FE FE FF 00", [err(0, 8, BAD), char(8, 10, 16384)]),
    # the largest prefix, then a 10th byte asking for an 11th: the 9 bytes are the error
    ("80 FE FE FE FE FE FE FE FE FF", [err(0, 9, BAD), err(9, 10, END)]),
    ("80 FE FE FE FE FE FE FE FE 80 00", [err(0, 9, BAD), char(9, 11, 128)]),
])
def test_git_error_spans(hexbytes, want):
    assert git_offset_varint.tokens_with_reasons(h(hexbytes)) == want


def test_git_unencodable():
    with pytest.raises(ValueError, match="index 0"):
        git_offset_varint.encode([2 ** 64])
    with pytest.raises(ValueError):
        git_offset_varint.encode([-1])
