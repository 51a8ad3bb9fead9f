"""The pure-Python decoder's fast path (codegen/emit/python_fast.py and the core's
decoding section) against the core's exact path, for every built-in spec.

* No state outlives a call: decoding a large text (Latin, CJK, as str, as code
  points, incrementally) leaves every module-level container of the module as it
  was, so one text cannot slow (or change) the next.
* ``decode`` / ``decode_codepoints`` (strict, replace, surrogates=False,
  incrementally in chunks) give what the core's token loop (``_tokens``, one
  token at a time through the automaton) gives, on the bench's corpora (clean and
  1% damaged) and on hypothesis documents of whole sequences and damage; and the
  oracle's tokens where a spec has one.
* The pieces the build hands to a CPython codec (``_CODEC_PIECES``) decode with it
  to the automaton's code point, at the corners of each pattern and on random
  sequences of it; the enumeration the build checks them with gives every
  sequence of a pattern once, in order.
"""
from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import SPECS, oracle
from conftest import decodable_builtins, examples, representative_builtins
from encspec.bench.run import corpus, corrupt
from encspec.codec import load
from encspec.emit import python_fast

BUILTIN = representative_builtins()


def python_module(name):
    return load(name, backend="python")


def text_for(m, kind: str, size: int) -> str:
    """The bench's corpus of *kind*, keeping the characters the spec can write."""
    text = corpus(kind, size)
    can = set()
    for c in set(text):
        try:
            m.encode(c)
            can.add(c)
        except (UnicodeEncodeError, ValueError):
            pass
    return "".join(c for c in text if c in can)


def exact(m, data: bytes, want_str=True, surrogates=True):
    """What the core's token loop gives: each token through the automaton, each
    problem replaced by U+FFFD (after the code points a run of digits read before its
    error, UTF-7's; with surrogates false a run holding a surrogate loses them)."""
    out = []
    for kind, _start, _end, value, _ in m._tokens(data):
        if kind in ("signature", "shift"):  # no character: it sets the mode of the next token
            continue
        if kind == "error" and value:
            if not want_str:
                out += list(value)
            elif surrogates or not any(0xD800 <= v <= 0xDFFF for v in value):
                out.append("".join(map(chr, value)))
        if kind == "char":
            values = value if isinstance(value, tuple) else (value,)
            if not want_str:
                out += list(values)
                continue
            if all(v <= 0x10FFFF and (surrogates or not 0xD800 <= v <= 0xDFFF) for v in values):
                out.append("".join(map(chr, values)))
                continue
        out.append("\ufffd" if want_str else 0xFFFD)
    return "".join(out) if want_str else out


def snapshot(m) -> dict:
    """Every module-level container of *m* and its size."""
    return {name: len(v) for name, v in vars(m).items() if isinstance(v, (dict, list, set, bytearray))}


# ------------------------------------------------------------- no growth
@pytest.mark.parametrize("name", decodable_builtins())
def test_decoding_leaves_no_state_behind(name):
    m = python_module(name)
    latin = m.encode(text_for(m, "latin", 1 << 17))
    cjk = m.encode(text_for(m, "cjk", 1 << 12))
    before = snapshot(m)
    assert m.decode(latin) and m.decode(cjk)
    m.decode(latin, surrogates=False)
    m.decode_codepoints(latin)
    m.decode(corrupt(latin), "replace")
    dec = m.IncrementalDecoder("replace")
    for k in range(0, len(latin), 4099):
        dec.decode(latin[k:k + 4099])
    dec.decode(b"", True)
    after = snapshot(m)
    grew = {k: (before.get(k), after[k]) for k in after if after[k] != before.get(k)}
    assert not grew, f"module-level containers grew while decoding: {grew}"


# ------------------------------------------------------- the exact path
@pytest.mark.parametrize("name", decodable_builtins())
def test_corpora_decode_as_the_token_loop(name):
    m = python_module(name)
    for kind in ("ascii", "latin", "cjk", "emoji"):
        data = m.encode(text_for(m, kind, 1 << 13))
        for payload in (data, corrupt(data), corrupt(data, 0.1)):
            assert m.decode(payload, "replace") == exact(m, payload), kind
            assert m.decode(payload, "replace", surrogates=False) == exact(m, payload, surrogates=False), kind
            assert m.decode_codepoints(payload, "replace") == exact(m, payload, want_str=False), kind
        assert m.decode(data) == exact(m, data)


@pytest.mark.parametrize("name", [n for n in BUILTIN if n in SPECS])
def test_corpora_tokens_match_the_oracle(name):
    m = python_module(name)
    o = oracle(name)
    for kind in ("latin", "cjk", "emoji"):
        data = corrupt(m.encode(text_for(m, kind, 1 << 13)))
        chars = [(s, e, v) for kind_, s, e, v in o.tokens(data) if kind_ == "char"]
        got = [(s, e, v) for kind_, s, e, v, _ in m._tokens(data) if kind_ == "char"]
        assert got == chars
        assert m.decode_codepoints(data, "replace") == exact(m, data, want_str=False)


@st.composite
def documents(draw, name):
    """Whole sequences the spec writes (runs of them, as the fast path meets them),
    with damage: random bytes and cut sequences spliced in."""
    m = python_module(name)
    pool = [c for c in ("a", " ", "\n", "é", "ÿ", "Ā", "߿", "ࠀ", "中", "\ud7ff", "\ue000", "\uffff",
                        "\U00010000", "😀", "\U0010ffff", "\x00", "\x7f", "\x80", "\x9f", "\xa0")]
    cps = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=300))
    parts = []
    for c in cps:
        try:
            parts.append(m.encode(c))
        except (UnicodeEncodeError, ValueError):
            pass
    for _ in range(draw(st.integers(0, 5))):
        junk = draw(st.binary(min_size=1, max_size=4))
        if parts and draw(st.booleans()):
            whole = draw(st.sampled_from(parts))
            junk = whole[:draw(st.integers(0, len(whole) - 1))] + junk[:1]
        parts.insert(draw(st.integers(0, len(parts))), junk)
    return b"".join(parts)


@pytest.mark.parametrize("name", BUILTIN)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_documents_decode_as_the_token_loop(name, data):
    m = python_module(name)
    b = data.draw(documents(name), label="bytes")
    assert m.decode(b, "replace") == exact(m, b)
    assert m.decode(b, "replace", surrogates=False) == exact(m, b, surrogates=False)
    assert m.decode_codepoints(b, "replace") == exact(m, b, want_str=False)
    try:
        want = m.decode(b)
    except UnicodeDecodeError as e:
        first = next(t for t in m._tokens(b) if t[0] not in ("char", "signature", "shift")
                     or (t[0] == "char" and not isinstance(t[3], tuple) and t[3] > 0x10FFFF))
        assert e.start == first[1]
    else:
        assert want == exact(m, b)
    cut = data.draw(st.integers(1, 64), label="chunk")
    dec = m.IncrementalDecoder("replace")
    got = "".join(dec.decode(b[k:k + cut]) for k in range(0, len(b), cut)) + dec.decode(b"", True)
    assert got == exact(m, b)


# --------------------------------------------------- the codec's pieces
def sequences(pattern: bytes):
    """The runs of each position of a piece regex (as the emitter writes them)."""
    return [[(int(lo, 16), int(hi or lo, 16)) for lo, hi in re.findall(rb"\\x([0-9a-f]{2})(?:-\\x([0-9a-f]{2}))?", pos)]
            for pos in re.findall(rb"\[(.*?)\]", pattern)]


@pytest.mark.parametrize("name", BUILTIN)
def test_codec_pieces_decode_to_the_automatons_code_points(name):
    m = python_module(name)
    if not m._CODEC:
        assert not m._CODEC_PIECES
        return
    rnd = random.Random(name)
    for pattern in m._CODEC_PIECES:
        runs = sequences(pattern)
        bytes_at = [[b for lo, hi in pos for b in range(lo, hi + 1)] for pos in runs]
        samples = [bytes(pos[0] for pos in bytes_at), bytes(pos[-1] for pos in bytes_at)]
        samples += [bytes(rnd.choice(pos) for pos in bytes_at) for _ in range(200)]
        for seq in samples:
            tok = m._scan(seq + b"\x00" * 4, 0)
            assert tok[:3] == ("char", 0, len(seq)), (pattern, seq)
            assert seq.decode(m._CODEC) == chr(tok[3]), (pattern, seq)
    if m._CODEC_LATIN:
        for b in range(256):
            if re.fullmatch(m._LATIN_CLASS, bytes([b])):
                assert bytes([b]).decode(m._CODEC) == chr(b)


def test_the_utf_family_decodes_its_multi_byte_forms_by_codec():
    """What the build finds (a test that the search finds something)."""
    assert python_module("utf-8")._CODEC == "utf-8" and not python_module("utf-8")._PIECES
    assert python_module("utf-16le")._CODEC == "utf-16-le" and not python_module("utf-16le")._PIECES
    assert python_module("corrected-utf-8")._CODEC is None  # its values are shifted: no codec's
    wtf8 = python_module("wtf-8")
    assert wtf8._CODEC == "utf-8" and all(p.startswith(b"[\\xed]") for p in wtf8._PIECES)  # trail surrogates


def test_box_gives_every_sequence_once_in_order():
    part = (((0x41, 0x42), (0x50, 0x50)), ((0x80, 0x81),), ((0x00, 0x02),))
    data, columns, count = python_fast._box(part)
    want = [bytes(t) for t in itertools.product([0x41, 0x42, 0x50], [0x80, 0x81], [0, 1, 2])]
    assert count == len(want) and data == b"".join(want)
    assert columns == [bytes(s[k] for s in want) for k in range(3)]
    terms = [(0, bytes(range(256)), 1000), (2, bytes(range(256)), 1)]
    assert python_fast._values(7, terms, columns, count) == "".join(chr(7 + s[0] * 1000 + s[2]) for s in want)


def test_a_codec_that_disagrees_anywhere_is_not_used():
    """One sequence of a pattern decoding otherwise than the value keeps the whole
    pattern off the codec (and its halves are looked at)."""
    part = (((0xC2, 0xDF),), ((0x80, 0xBF),))
    right = (-0xC0 * 64 - 0x80, [(0, bytes(range(256)), 64), (1, bytes(range(256)), 1)])  # (b0 - C0) * 64 + b1 - 80
    assert python_fast._decodes("utf-8", part, right)
    wrong = (right[0] + 1, right[1])
    assert not python_fast._decodes("utf-8", part, wrong)
    assert python_fast._split("utf-8", part, wrong) == [(part, False)]
