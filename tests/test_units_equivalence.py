"""The generated modules of the code-unit and varint encodings (encspec issue 17)
against their hand-written oracles (tests/oracles, which never import encspec)
and, for utf-16* / utf-32*, against CPython's own codecs.

For each of utf-16le, utf-16be, utf-16, utf-32le, utf-32be, utf-32, wtf-16,
leb128, leb128-overlong, sqlite4-varint, git-offset-varint, on both backends:

* ``list(m.tokens(b)) == oracle.tokens(b)``: exhaustively on short inputs over
  bytes that make the interesting units / varint bytes, on every whole
  encoding of a boundary value with its prefixes and what may follow it, and
  on hypothesis inputs;
* every error goes to the handler with the oracle's span and reason
  (``oracle.tokens_with_reasons``), ``decode_codepoints``, ``first_error``
  and ``is_valid`` agree with the oracle;
* ``m.encode`` equals ``oracle.encode`` or raises UnicodeEncodeError at the
  first item the oracle refuses (for wtf-16 also the trail surrogate of a
  surrogate code point pair, wtf-8.txt 4.1), and decoding gives the values back;
* the incremental decoders, fed every split of small inputs into 1..3 pieces,
  give what one-shot decoding gives;
* utf-16* / utf-32*: ``m.decode(b, errors)`` for strict, replace, ignore,
  surrogatepass, surrogateescape and backslashreplace is CPython's result
  (the same str, or the same exception type, start, end and reason);
  ``m.encode(text, errors)`` for strict, surrogatepass and replace is
  CPython's; the incremental decoder equals CPython's incremental decoder.

These tests expect the modules the contract describes; until the compiler
builds them they fail (``encspec.load`` cannot find the spec).
"""
from __future__ import annotations

import codecs
import itertools
import sys
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import BACKENDS, load_backend, oracle, texts_with_surrogates
from conftest import examples

UTF16 = ["utf-16le", "utf-16be", "utf-16"]
UTF32 = ["utf-32le", "utf-32be", "utf-32"]
UNIT_NAMES = UTF16 + UTF32
VARINTS = ["leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]
NAMES = UNIT_NAMES + ["wtf-16"] + VARINTS
CPYTHON = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "utf-16": "utf-16",
           "utf-32le": "utf-32-le", "utf-32be": "utf-32-be", "utf-32": "utf-32"}
DECODE_HANDLERS = ["strict", "replace", "ignore", "surrogatepass", "surrogateescape", "backslashreplace"]
ENCODE_HANDLERS = ["strict", "surrogatepass", "replace"]


@cache
def load(name, backend):
    return load_backend(name, backend)


def needs_little_endian(name):
    """CPython's utf-16 / utf-32 codecs use the machine's byte order where the contract
    fixes little-endian: they are the reference only on a little-endian machine."""
    if name in ("utf-16", "utf-32") and sys.byteorder != "little":
        pytest.skip(f"CPython's {name} is big-endian on this machine; the contract fixes little-endian")


# ================================================================== inputs
# Bytes that make, in either order, the UTF-16 units 0000 0041 00FF D7FF D800 DBFF DC00 DFFF
# E000 FEFF FFFE FFFF and the UTF-32 units 0010FFFF 00110000 FFFFFFFF 0000D800 0000FEFF
# FFFE0000 (tests/test_oracles_units.py explains the choice).
UNIT_ALPHABET = [0x00, 0x01, 0x10, 0x11, 0x41, 0xD7, 0xD8, 0xDB, 0xDC, 0xDF, 0xE0, 0xFE, 0xFF]
UNITS16 = [0x0000, 0x0041, 0x00FF, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF, 0xFFFE, 0xFFFF]
UNITS32 = [0x00000000, 0x00000041, 0x0000D7FF, 0x0000D800, 0x0000DFFF, 0x0000E000, 0x0000FEFF,
           0x0000FFFF, 0x00010000, 0x0010FFFF, 0x00110000, 0xFFFE0000, 0xFFFFFFFF]
SIGNATURES = [b"\xFF\xFE", b"\xFE\xFF", b"\xFF\xFE\x00\x00", b"\x00\x00\xFE\xFF"]
# Varint bytes: the continuation bit's edges, 00 / 01 (a final group that is redundant or holds
# bit 63), sqlite4's lead byte classes (F0 F1 F8 F9 FA..FF) and what their minimums turn on.
VARINT_ALPHABET = {
    "leb128": [0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFE, 0xFF],
    "leb128-overlong": [0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFE, 0xFF],
    "sqlite4-varint": [0x00, 0x01, 0x07, 0x08, 0xEF, 0xF0, 0xF1, 0xF8, 0xF9, 0xFA, 0xFB, 0xFF],
    "git-offset-varint": [0x00, 0x01, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF],
}
U64_EDGES = sorted({0, 1, 2 ** 64 - 1, 2 ** 64} | {2 ** k + d for k in range(1, 65) for d in (-1, 0)})


def alphabet(name):
    return VARINT_ALPHABET.get(name, UNIT_ALPHABET)


def unit_size(name):
    return 4 if name in UTF32 else 2 if name in UTF16 or name == "wtf-16" else 1


def boundary_values(name):
    """Code points (unit encodings) or values (varints) at the edges of the forms."""
    if name in VARINTS:
        return sorted(set(getattr(oracle(name), "BOUNDARIES", ())) | set(U64_EDGES))
    return [0, 0x41, 0x7F, 0x80, 0xFF, 0x100, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF,
            0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0xFFFFF, 0x100000, 0x10FFFF, 0x110000]


def encodable(name, v):
    return values_encodable(name, [v])


def values_encodable(name, values):
    try:
        oracle(name).encode(values)
    except ValueError:
        return False
    return True


def body(name, values):
    """The oracle's encoding without a signature (utf-16 / utf-32 write one by default)."""
    o = oracle(name)
    return o.encode(values, signature=False) if name in ("utf-16", "utf-32") else o.encode(values)


@cache
def pieces(name):
    """Whole encodings of boundary values, signatures and (WTF-16 / UTF-16) lone surrogates."""
    out = {body(name, [v]) for v in boundary_values(name) if encodable(name, v)}
    if name in ("utf-16", "utf-32"):
        out |= {s for s in SIGNATURES if len(s) == unit_size(name)}
    if name in UTF16 + ["wtf-16"]:
        order = "big" if name == "utf-16be" else "little"
        out |= {u.to_bytes(2, order) for u in UNITS16}
    if name in UTF32:
        order = "big" if name == "utf-32be" else "little"
        out |= {u.to_bytes(4, order) for u in UNITS32}
    if name in VARINTS:
        out |= {b"\x80" * 9 + b"\x01", b"\x80" * 9 + b"\x00", b"\x80\x00", b"\xFF\x80\x00", b"\xF1\x00",
                b"\xFA\x01\x08\xEF", b"\x81" + b"\x80" * 8 + b"\x00"}
    return tuple(sorted(out, key=lambda b: (len(b), b)))


def byte_strings(name, max_size=64):
    size = unit_size(name)
    ps = pieces(name)
    piece = st.sampled_from(ps)
    prefix = piece.flatmap(lambda p: st.integers(1, len(p)).map(lambda k: p[:k]))
    parts = [piece, piece, prefix,
             st.sampled_from(alphabet(name)).map(lambda b: bytes([b])),
             st.binary(min_size=1, max_size=size)]
    if size > 1:
        units = UNITS32 if size == 4 else UNITS16
        parts.append(st.tuples(st.sampled_from(units), st.sampled_from(["little", "big"])).map(
            lambda uo: uo[0].to_bytes(size, uo[1])))
        parts.append(st.sampled_from(SIGNATURES))
    return st.lists(st.one_of(*parts), max_size=24).map(lambda ps_: b"".join(ps_)[:max_size])


def short_inputs(name, max_len=3):
    for n in range(max_len + 1):
        for combo in itertools.product(alphabet(name), repeat=n):
            yield bytes(combo)


# ================================================================= oracle view
def as_tuples(toks):
    return [tuple(t) for t in toks]


def oracle_errors(name, data):
    return [(s, e, r) for kind, s, e, _v, r in oracle(name).tokens_with_reasons(data) if kind == "error"]


def oracle_values(name, data):
    """Code points / values with 0xFFFD per error (decode_codepoints(data, "replace"))."""
    return [v if kind == "char" else 0xFFFD
            for kind, _s, _e, v in oracle(name).tokens(data) if kind != "signature"]


_SPANS: list = []


def _record(exc):
    _SPANS.append((exc.start, exc.end, exc.reason))
    return ("\ufffd", exc.end)


codecs.register_error("units-equivalence-record", _record)


def recorded(decode, data):
    _SPANS.clear()
    decode(data, "units-equivalence-record")
    return list(_SPANS)


def check_against_oracle(name, backend, data):
    m = load(name, backend)
    assert as_tuples(m.tokens(data)) == oracle(name).tokens(data)
    errors = oracle_errors(name, data)
    assert recorded(m.decode_codepoints, data) == errors
    assert m.decode_codepoints(data, "replace") == oracle_values(name, data)
    assert m.first_error(data) == (errors[0] if errors else None)
    assert m.is_valid(data) is (not errors)
    try:
        got = m.decode_codepoints(data)
    except UnicodeDecodeError as e:
        assert errors and (e.start, e.end, e.reason) == errors[0]
    else:
        assert not errors and got == oracle_values(name, data)


# ==================================================================== tokens
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_every_short_input_matches_the_oracle(name, backend):
    bad = []
    for data in short_inputs(name):
        try:
            check_against_oracle(name, backend, data)
        except AssertionError as e:
            bad.append((data.hex(" "), str(e)[:300]))
    assert not bad, bad[:5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_every_piece_its_prefixes_and_what_may_follow_it(name, backend):
    bad = []
    for p in pieces(name):
        inputs = [p[:k] for k in range(1, len(p) + 1)] + [p + bytes([x]) for x in alphabet(name)] + [p + p]
        for data in inputs:
            try:
                check_against_oracle(name, backend, data)
            except AssertionError as e:
                bad.append((data.hex(" "), str(e)[:300]))
    assert not bad, bad[:5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_random_inputs_match_the_oracle(name, backend, data):
    check_against_oracle(name, backend, data.draw(byte_strings(name), label="bytes"))


# ============================================================ against CPython
def decoded(decode, data, errors):
    """The result of a decode call, or the identity of the exception it raised."""
    try:
        return ("ok", decode(data, errors))
    except UnicodeError as e:
        return (type(e).__name__, e.start, e.end, e.reason)


def encoded(encode, text, errors):
    """The result of an encode call, or the exception type and span (not the reason)."""
    try:
        return ("ok", encode(text, errors))
    except UnicodeError as e:
        return (type(e).__name__, e.start, e.end)


def cpython_decode(name):
    return lambda data, errors: data.decode(CPYTHON[name], errors)


def cpython_encode(name):
    return lambda text, errors: text.encode(CPYTHON[name], errors)


@pytest.mark.parametrize("errors", DECODE_HANDLERS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", UNIT_NAMES)
def test_decode_every_short_input_like_cpython(name, backend, errors):
    needs_little_endian(name)
    m = load(name, backend)
    bad = []
    for data in short_inputs(name):
        want, got = decoded(cpython_decode(name), data, errors), decoded(m.decode, data, errors)
        if want != got:
            bad.append((data.hex(" "), want, got))
    assert not bad, bad[:5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", UNIT_NAMES)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_decode_random_inputs_like_cpython_under_every_handler(name, backend, data):
    needs_little_endian(name)
    b = data.draw(byte_strings(name), label="bytes")
    m = load(name, backend)
    for errors in DECODE_HANDLERS:
        assert decoded(m.decode, b, errors) == decoded(cpython_decode(name), b, errors), errors
    assert recorded(m.decode, b) == recorded(cpython_decode(name), b)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, data, want", [
    # after a big-endian signature CPython's exception names utf-16-be / utf-32-be, so
    # surrogatepass reads the unit in that order (with "utf-16" it would read it
    # little-endian, find no surrogate and raise)
    ("utf-16", b"\xFE\xFF\xDC\x00", "\udc00"),
    ("utf-16", b"\xFE\xFF\xD8\x00\x00\x41", "\ud800A"),
    ("utf-16", b"\xFF\xFE\x00\xD8\x41\x00", "\ud800A"),
    ("utf-16", b"\x00\xDC", "\udc00"),
    ("utf-32", b"\x00\x00\xFE\xFF\x00\x00\xD8\x00", "\ud800"),
    ("utf-32", b"\xFF\xFE\x00\x00\x00\xD8\x00\x00", "\ud800"),
    ("utf-16be", b"\xD8\x00\xDC\x00\xDC\x00", "\U00010000\udc00"),
    ("utf-32le", b"\x00\xD8\x00\x00\x00\xDC\x00\x00", "\ud800\udc00"),   # no pairing in UTF-32
], ids=lambda x: x.hex() if isinstance(x, bytes) else None)
def test_surrogatepass_reads_units_in_the_signatures_order(name, data, want, backend):
    needs_little_endian(name)
    assert data.decode(CPYTHON[name], "surrogatepass") == want
    assert load(name, backend).decode(data, "surrogatepass") == want


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", UNIT_NAMES)
@settings(max_examples=examples(150), deadline=None)
@given(text=texts_with_surrogates)
def test_encode_like_cpython(name, backend, text):
    """utf-16le/be, utf-32le/be as CPython; utf-16 / utf-32 write FF FE (00 00) and
    little-endian units, as CPython on a little-endian machine."""
    needs_little_endian(name)
    m = load(name, backend)
    for errors in ENCODE_HANDLERS:
        assert encoded(m.encode, text, errors) == encoded(cpython_encode(name), text, errors), errors


# ================================================================== encoding
def value_lists(name):
    if name in VARINTS:
        one = st.one_of(st.sampled_from(boundary_values(name)), st.integers(0, 2 ** 64 - 1),
                        st.integers(0, 2 ** 70), st.integers(0, 300), st.just(-1))
    else:
        one = st.one_of(st.sampled_from(boundary_values(name)), st.integers(0, 0x10FFFF),
                        st.integers(0xD800, 0xDFFF), st.just(-1), st.integers(0, 2 ** 32))
    return st.lists(one, max_size=8)


def check_encode(name, backend, values):
    m, o = load(name, backend), oracle(name)
    try:
        want = o.encode(values)
    except ValueError:
        want = None
    if want is None:
        with pytest.raises(UnicodeEncodeError) as e:
            m.encode(values)
        assert e.value.start == next(k for k in range(len(values)) if not values_encodable(name, values[:k + 1]))
        return
    assert m.encode(values) == want
    assert m.decode_codepoints(want) == list(values)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_encode_matches_the_oracle_and_round_trips(name, backend, data):
    check_encode(name, backend, data.draw(value_lists(name), label="values"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_encode_every_boundary_value(name, backend):
    for v in boundary_values(name) + [-1]:
        check_encode(name, backend, [v])
        check_encode(name, backend, [0x41, v, 0x42])


# =============================================================== incremental
def splits(data):
    """Every way to cut data into 1, 2 or 3 pieces (empty pieces included)."""
    n = len(data)
    seen = set()
    for a in range(n + 1):
        for b in range(a, n + 1):
            for cuts in ((), (a,), (a, b)):
                if cuts not in seen:
                    seen.add(cuts)
                    bounds = (0,) + cuts + (n,)
                    yield [data[x:y] for x, y in zip(bounds, bounds[1:])]


def feed(decoder, parts):
    """What feeding parts (then final=True) gives: ("ok", output) or, when it raises,
    ("error", absolute start, absolute end, reason, output so far)."""
    out = []
    fed = 0
    steps = [(p, False) for p in parts] + [(b"", True)]
    for piece, final in steps:
        pending = decoder.getstate()[0]
        try:
            out.append(decoder.decode(piece, final))
        except UnicodeDecodeError as e:
            # positions count from the start of the bytes held back plus this piece
            assert e.object[e.start:e.end] == (pending + piece)[e.start:e.end], (e.object, pending + piece)
            base = fed - len(pending)
            return ("error", base + e.start, base + e.end, e.reason, join(out))
        fed += len(piece)
    return ("ok", join(out))


def join(out):
    if all(isinstance(x, str) for x in out):
        return "".join(out)
    return [v for x in out for v in x]


def one_shot(decode, data):
    try:
        return ("ok", decode(data))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason)


def check_incremental(name, backend, data):
    m = load(name, backend)
    values = m.decode_codepoints(data, "replace")
    strict_values = one_shot(m.decode_codepoints, data)
    unit = name in UNIT_NAMES
    if unit:
        text = m.decode(data, "replace")
        strict_text = one_shot(m.decode, data)
        cpython = None
        if cpython_incremental_applies(name, data):
            cpython = codecs.getincrementaldecoder(CPYTHON[name])
    for parts in splits(data):
        assert feed(m.IncrementalCodePointDecoder("replace"), parts) == ("ok", values), parts
        got = feed(m.IncrementalCodePointDecoder("strict"), parts)
        assert got[:4] == strict_values[:4], parts
        if unit:
            assert feed(m.IncrementalDecoder("replace"), parts) == ("ok", text), parts
            got = feed(m.IncrementalDecoder("strict"), parts)
            assert got[:4] == strict_text[:4], parts
            assert text.startswith(got[4] if got[0] == "error" else got[1])
            if cpython is not None:
                assert feed(cpython("replace"), parts) == ("ok", text), parts
                assert got[:4] == feed(cpython("strict"), parts)[:4], parts


def cpython_incremental_applies(name, data):
    """CPython's incremental utf-16 / utf-32 decoders (and StreamReaders) refuse data that
    does not start with a byte order mark ("UTF-16 stream does not start with BOM"), where
    its one-shot decode reads the machine's order; the contract follows the one-shot
    decode, so they are the reference only for data that starts with a signature."""
    if name == "utf-16":
        return data[:2] in (b"\xFF\xFE", b"\xFE\xFF")
    if name == "utf-32":
        return data[:4] in (b"\xFF\xFE\x00\x00", b"\x00\x00\xFE\xFF")
    return True


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_incremental_every_split_equals_one_shot(name, backend, data):
    if name in ("utf-16", "utf-32"):
        needs_little_endian(name)
    check_incremental(name, backend, data.draw(byte_strings(name, max_size=9), label="bytes"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, data, text", [
    ("utf-16", b"A\x00B\x00", "AB"),
    ("utf-32", b"A\x00\x00\x00", "A"),
])
def test_incremental_decoder_reads_unmarked_data_little_endian(name, data, text, backend):
    """Where CPython's incremental decoder raises UnicodeError (no BOM), the contract's
    decoder reads little-endian, as the one-shot decode does, split anywhere."""
    needs_little_endian(name)
    with pytest.raises(UnicodeError, match="does not start with BOM"):
        codecs.getincrementaldecoder(CPYTHON[name])().decode(data, True)
    assert data.decode(CPYTHON[name]) == text
    m = load(name, backend)
    for parts in splits(data):
        assert feed(m.IncrementalDecoder("strict"), parts) == ("ok", text)


STRADDLE = {
    "utf-16le": [b"\x3D\xD8\x00\xDE", b"\x00\xD8\x41", b"\x00\xD8\x41\x00", b"\x00\xDC\x41"],
    "utf-16be": [b"\xD8\x3D\xDE\x00", b"\xD8\x00\x41", b"\xD8\x00\x00\x41", b"\xD8\x00\xD8\x00\xDC\x00"],
    "utf-16": [b"\xFE\xFF\x00\x41\xD8\x00", b"\xFF\xFE\x3D\xD8\x00\xDE", b"\xFE\xFF\xDC\x00", b"\xFF",
               b"\xFF\xFE", b"\xFE\xFF\xFE\xFF", b"\xFE\x00\x41"],
    "utf-32le": [b"\x00\x00\x11\x00\x41", b"\xFF\xFF\x10\x00", b"\x00\xD8\x00"],
    "utf-32be": [b"\x00\x10\xFF\xFF\x00", b"\x00\x00\xD8\x00\x41"],
    "utf-32": [b"\x00\x00\xFE\xFF\x00\x00\x00\x41", b"\xFF\xFE\x00", b"\xFF\xFE\x00\x00\xFF\xFE\x00",
               b"\xFF\xFE\x00\x00\x41"],
    "wtf-16": [b"\x3D\xD8\x00\xDE", b"\x3D\xD8\x3D\xD8\x00\xDE", b"\x00\xD8\x41"],
    "leb128": [b"\x80" * 9 + b"\x01", b"\xFF\x80\x00", b"\x80" * 9 + b"\x02\x41"],
    "leb128-overlong": [b"\x80" * 9 + b"\x00", b"\xFF\x80\x00", b"\x80" * 10],
    "sqlite4-varint": [b"\xFF" * 9, b"\xFA\x01\x08\xEF", b"\xF1\x00\xF9\x00", b"\xFF\x01\x00"],
    "git-offset-varint": [b"\x80" + b"\xFE" * 8 + b"\x7F", b"\x81" + b"\x80" * 8 + b"\x00", b"\x80\x80\x00"],
}
STRADDLE_CASES = [(name, data) for name, datas in STRADDLE.items() for data in datas]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, data", STRADDLE_CASES, ids=[f"{n}-{d.hex()}" for n, d in STRADDLE_CASES])
def test_incremental_straddling_cases(name, data, backend):
    if name in ("utf-16", "utf-32"):
        needs_little_endian(name)
    check_against_oracle(name, backend, data)
    check_incremental(name, backend, data)
