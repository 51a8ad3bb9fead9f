"""The native backend's straight paths per form (emit/native_forms.py, nx_form).

* the plan derived from UTF-8's automaton has exactly the well-formed byte
  sequences of Unicode's Table 3-7 (RFC 3629 section 4) as its paths, written
  out here from the standard; MUTF-8's single-byte run is 01..7F (its U+0000 is
  C0 80, JVM spec 4.4.7), CESU-8's surrogate pair is one six-byte path (UTR #26
  section 2);
* the extension gives exactly what the pure-Python core gives on every input of
  one and two bytes and on sampled inputs of three, and on random documents
  built to reach the new paths (runs of single bytes of every length 0..33
  between longer tokens, cut at every position, bad bytes sprinkled), as str
  and as code points, under every handler, whole and fed in random chunks with
  final false, for every built-in spec without mapping tables; and on text made
  like CJK (runs of tokens of one length, spaces between) damaged at 1% and 10%.
"""
from __future__ import annotations

import codecs
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import load_backend
from conftest import byte_pairs, examples, representative_builtins
from encspec.emit.native.forms import form_plan
from encspec.emit.targets import targets
from encspec.pipeline import load as load_automaton

# the specs without tables the native target takes
SPECS = [n for n in representative_builtins()
         if not load_automaton(n)[1].tables and targets()["native"].supports(load_automaton(n)[1]) is None]
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "test_native_forms.record"]
_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native_forms.record", _record)


def _boxes(paths):
    """Each path cut into boxes of one byte range per position."""
    out = set()

    def cut(positions, prefix):
        if not positions:
            out.add(tuple(prefix))
            return
        for r in positions[0]:
            cut(positions[1:], prefix + [r])

    for positions, _ in paths:
        cut(list(positions), [])
    return out


# Unicode 15, Table 3-7 "Well-Formed UTF-8 Byte Sequences" (= RFC 3629 section 4's syntax)
TABLE_3_7 = {
    ((0x00, 0x7F),),
    ((0xC2, 0xDF), (0x80, 0xBF)),
    ((0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF)),
    ((0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF)),
    ((0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)),
}


def test_utf8_plan_is_table_3_7():
    plan = form_plan(load_automaton("utf-8")[1])
    assert _boxes(plan["paths"]) == TABLE_3_7
    assert plan["ascii"] == 2 and plan["most"] == 4
    # the code point ranges of the table's rows
    ranges = sorted((leaf.low, leaf.high) for _, leaf in plan["paths"])
    assert ranges == [(0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFF), (0x1000, 0xFFFF), (0xD000, 0xD7FF),
                      (0x10000, 0x3FFFF), (0x40000, 0xFFFFF), (0x100000, 0x10FFFF)]


def test_mutf8_single_bytes_exclude_00_and_c0_80_is_a_path():
    plan = form_plan(load_automaton("mutf-8")[1])
    assert plan["ascii"] == 1
    boxes = _boxes(plan["paths"])
    assert ((0x01, 0x7F),) in boxes and ((0xC0, 0xC0), (0x80, 0x80)) in boxes
    assert not any(box[0][0] == 0x00 for box in boxes)


def test_cesu8_surrogate_pair_is_one_six_byte_path():
    plan = form_plan(load_automaton("cesu-8")[1])
    pair = [(pos, leaf) for pos, leaf in plan["paths"] if leaf.kind == "pair"]
    assert len(pair) == 1
    assert _boxes(pair) == {((0xED, 0xED), (0xA0, 0xAF), (0x80, 0xBF), (0xED, 0xED), (0xB0, 0xBF), (0x80, 0xBF))}
    assert pair[0][1].low == 0x10000


def test_utf1_rows_of_annex_g():
    """UTF-1 (ISO/IEC 10646-1:1993 Annex G): the trail bytes T are 21..7E and A0..FF,
    whose digits (0..5D, 5E..BD) the extension reads from a table with the test."""
    t = ((0x21, 0x7E), (0xA0, 0xFF))
    plan = form_plan(load_automaton("utf-1")[1])
    rows = {tuple(pos): (leaf.low, leaf.high) for pos, leaf in plan["paths"]}
    assert rows[(((0x00, 0x9F),),)] == (0x0000, 0x009F)
    assert rows[(((0xA0, 0xA0),), ((0xA0, 0xFF),))] == (0x00A0, 0x00FF)
    assert rows[(((0xA1, 0xF5),), t)] == (0x0100, 0x4015)
    assert rows[(((0xF6, 0xFB),), t, t)] == (0x4016, 0x38E2D)
    assert plan["ascii"] == 2 and plan["digit_tables"]


def test_code_unit_and_table_specs_have_no_plan():
    assert form_plan(load_automaton("utf-16le")[1]) is None
    assert form_plan(load_automaton("shift_jis")[1]) is None


# ================================================= native == the core
def _outcome(fn, data, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(data, errors), list(_SEEN))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason)


@cache
def _backends(name):
    return load_backend(name, "python"), load_backend(name, "native")


def _agree(name, data, handlers=HANDLERS):
    py, nat = _backends(name)
    for errors in handlers:
        assert _outcome(nat.decode, data, errors) == _outcome(py.decode, data, errors), (data, errors)
        assert _outcome(nat.decode_codepoints, data, errors) == \
            _outcome(py.decode_codepoints, data, errors), (data, errors)


def _chunked(module, data, errors, cuts):
    dec = module.IncrementalDecoder(errors)
    out, at = [], 0
    _SEEN.clear()
    try:
        for c in cuts:
            out.append(dec.decode(data[at:c], False))
            at = c
        out.append(dec.decode(data[at:], True))
        return "".join(out), list(_SEEN)
    except UnicodeDecodeError as e:
        return (e.start, e.end, e.reason, "".join(out))


@pytest.mark.parametrize("name", SPECS)
def test_every_input_of_one_and_two_bytes(name):
    """Every byte alone; every two bytes under ENCSPEC_SLOW=1, by default those over the
    byte classes (conftest.byte_pairs)."""
    for b in range(256):
        _agree(name, bytes([b]))
    for data in byte_pairs(load_automaton(name)[1].classes):
        _agree(name, data, ("strict", "backslashreplace"))


@pytest.mark.parametrize("name", SPECS)
def test_sampled_inputs_of_three_bytes(name):
    rng = random.Random(name)
    for _ in range(3000):
        _agree(name, rng.getrandbits(24).to_bytes(3, "big"), ("strict", "backslashreplace", "surrogateescape"))


def _tokens(name):
    """Whole encodings of code points of every length the spec has (its own encoder
    makes the input; the expected output is the core's)."""
    py = _backends(name)[0]
    rng = random.Random(name)
    cps = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
           0x10FFFF, 0x3FFFF, 0x40000, 0x100000] + [rng.randrange(0x80, 0x110000) for _ in range(60)]
    out = set()
    for cp in cps:
        if 0xD800 <= cp < 0xE000:
            continue
        try:
            out.add(py.encode(chr(cp)))
        except (UnicodeEncodeError, ValueError):
            pass
    for pair in ("ED A0 80 ED B0 80", "ED AF BF ED BF BF", "ED A0 80", "ED B0 80", "C0 80"):
        out.add(bytes.fromhex(pair))  # surrogate pairs, lone surrogates (WTF-8, CESU-8), MUTF-8's NUL
    return sorted(out)


def _document(rng, tokens, bad):
    parts = []
    for _ in range(rng.randrange(1, 40)):
        parts.append(b"abcdefghijklmnopqrstuvwxyz0123456789"[:rng.randrange(34)])  # a run of 0..33
        parts.append(rng.choice(tokens))
        if bad and rng.random() < bad:
            parts.append(bytes([rng.randrange(256)]))
    return b"".join(parts)


@pytest.mark.parametrize("name", SPECS)
def test_random_documents(name):
    rng = random.Random("forms " + name)
    tokens = _tokens(name)
    py, nat = _backends(name)
    for k in range(60):
        data = _document(rng, tokens, (0, 0.02, 0.2)[k % 3])
        _agree(name, data)
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randrange(1, 6))))
        for errors in ("strict", "replace", "surrogateescape", "test_native_forms.record"):
            assert _chunked(nat, data, errors, cuts) == _chunked(py, data, errors, cuts), (data, cuts, errors)
    # truncation at every position of one document
    data = _document(rng, tokens, 0)
    for k in range(len(data) + 1):
        _agree(name, data[:k], ("strict", "replace", "surrogateescape"))
        assert _chunked(nat, data, "replace", [k]) == _chunked(py, data, "replace", [k])


@pytest.mark.parametrize("name", SPECS)
def test_long_runs_of_single_bytes_and_wide_kinds(name):
    """Past the 8-byte probes: long runs, a wider kind met late, a str that grows."""
    tokens = [t for t in _tokens(name) if len(t) > 1]
    for data in (b"x" * 1000 + tokens[-1] + b"y" * 1001, b"q" * 37 + b"".join(tokens) * 3 + b"\x00" * 20,
                 b"\xff" * 300 + b"z" * 17, b"\x00\x01" * 40):
        _agree(name, data)


@pytest.mark.parametrize("name", SPECS)
def test_runs_of_one_form_damaged(name):
    """Text the way CJK is written (runs of tokens of one length, a space between some
    of them) with bytes replaced at 1% and 10% by bad ones: the run loops of a str of 2
    and 4 bytes a character (a token after a token of its lead, the space between, an
    error replaced where it is met) give what the core gives."""
    rng = random.Random("runs " + name)
    by_len: dict = {}
    for t in _tokens(name):
        by_len.setdefault(len(t), []).append(t)
    for toks in by_len.values():
        for rate in (0, 0.01, 0.1):
            words = [b"".join(rng.choice(toks) for _ in range(rng.randrange(1, 9))) for _ in range(120)]
            data = bytearray(b"".join(w + rng.choice((b"", b" ", b" ", b"  ", b"x.")) for w in words))
            for _ in range(int(len(data) * rate)):
                data[rng.randrange(len(data))] = rng.choice((0xFF, 0xFE, 0xC0, 0x80, 0xF5, rng.randrange(256)))
            _agree(name, bytes(data), ("strict", "replace", "surrogateescape", "test_native_forms.record"))


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.binary(max_size=64))
def test_random_bytes(name, data):
    _agree(name, data, ("strict", "replace", "surrogateescape", "backslashreplace"))
