"""The scanner state and its one step (``next_token``), on both backends.

A signature is a token of its own at offset 0 that sets the mode of the next
token (utf-16's FF FE: little-endian); the state between tokens is one int,
which ``IncrementalDecoder.getstate`` carries across any chunk boundary.
Expected texts and error offsets come from CPython's own utf-16 and utf-8-sig
codecs, never from the module under test.
"""
from __future__ import annotations

import codecs
import pickle

import pytest

import encspec
from encspec.io.stream import Scanner

BACKENDS = ("python", "native")
TEXT = "héllo\n😀 wörld\n中"


def module(name: str, backend: str):
    return encspec.load(name, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_signature_is_a_token_that_sets_the_mode_of_the_next(backend):
    m = module("utf-16", backend)
    data = codecs.BOM_UTF16_BE + b"\x00A"
    tok, state = m.next_token(data, 0, m.START)
    assert tok == ("signature", 0, 2, None, None)
    assert state not in (m.START, 0) and state & 1 == 0  # past the start, in a mode of its own
    assert m.next_token(data, 2, state)[0] == ("char", 2, 4, 0x41, None)
    # the same bytes in the spec's own mode (little-endian, as without a signature)
    assert m.next_token(data, 2, 0)[0] == ("char", 2, 4, 0x4100, None)
    assert m.next_token(codecs.BOM_UTF16_LE + b"A\x00", 0, m.START) == (("signature", 0, 2, None, None), 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tokens_report_the_signature_at_offset_0_only(backend):
    m = module("utf-8-bom", backend)
    bom = codecs.BOM_UTF8
    assert list(m.tokens(bom + b"A")) == [("signature", 0, 3, None), ("char", 3, 4, 0x41)]
    assert [t[0] for t in m.tokens(b"A" + bom)] == ["char", "char"]  # U+FEFF later is text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_signature_prefix_waits_unless_final(backend):
    m = module("utf-16", backend)
    assert m.next_token(b"\xff", 0, m.START, False) == (None, m.START)
    tok, _ = m.next_token(b"\xff", 0, m.START, True)
    assert tok is not None and tok[0] == "error" and tok[1:3] == (0, 1)
    # where no signature may come, FF FE is U+FEFF, text (little-endian, the own mode)
    assert m.next_token(b"\xff\xfe", 0, 0)[0] == ("char", 0, 2, 0xFEFF, None)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bom,encoding", [(b"", "utf-16-le"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                                          (codecs.BOM_UTF16_BE, "utf-16-be")])
def test_getstate_carries_the_mode_across_every_split(backend, bom, encoding):
    """Decode data[:k], hand getstate() (pickled) to a fresh decoder, decode the rest."""
    m = module("utf-16", backend)
    data = bom + TEXT.encode(encoding)
    whole = TEXT
    states = set()
    for k in range(len(data) + 1):
        first = m.IncrementalDecoder()
        head = first.decode(data[:k])
        state = pickle.loads(pickle.dumps(first.getstate()))
        assert isinstance(state[0], bytes) and isinstance(state[1], int)
        second = m.IncrementalDecoder()
        second.setstate(state)
        assert head + second.decode(data[k:], True) == whole, k
        states.add(state[1])
    # nothing read yet, then one mode for the rest of the data
    assert m.START in states and len(states) == 2


BOMS = [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]


def lone_trail(encoding: str) -> bytes:
    return b"\x00\xdc" if encoding == "utf-16-le" else b"\xdc\x00"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bom,encoding", BOMS)
def test_the_mode_survives_many_small_pieces(backend, bom, encoding):
    m = module("utf-16", backend)
    data = bom + TEXT.encode(encoding) + lone_trail(encoding) + "A".encode(encoding)
    expected = codecs.decode(data, "utf-16", "replace")
    assert expected == TEXT + "\ufffdA"
    dec = m.IncrementalDecoder("replace")
    assert "".join(dec.decode(data[i:i + 3]) for i in range(0, len(data), 3)) + dec.decode(b"", True) == expected


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bom,encoding", BOMS)
def test_valid_until_stops_at_the_first_problem_in_the_mode_a_signature_chose(backend, bom, encoding):
    m = module("utf-16", backend)
    data = bom + TEXT.encode(encoding) + lone_trail(encoding) + "A".encode(encoding)
    with pytest.raises(UnicodeDecodeError) as cpython:
        codecs.decode(data, "utf-16")
    at, state, problem = m.valid_until(data)
    assert (at, problem) == (cpython.value.start, True)
    assert m.next_token(data, 0)[1] == state  # the mode the signature set
    assert m.first_error(data)[0] == cpython.value.start
    # not final: a unit cut in half is no problem yet, and the scan stops before it
    assert m.valid_until(data[:5], 0, m.START, False) == (4, state, False)
    assert m.valid_until(data[:5]) == (4, state, True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_newline_alone_waits_for_the_signature(backend):
    m = module("utf-8-bom", backend)
    assert not m.newline_alone(m.START)  # a signature may still come
    assert m.newline_alone(0)
    assert not module("utf-16", backend).newline_alone(0)  # 0A is half of a unit


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bom,encoding", BOMS)
def test_stream_scanner_places_a_problem_after_a_signature(backend, bom, encoding):
    m = module("utf-16", backend)
    data = bom + "ab\ncd".encode(encoding) + lone_trail(encoding) + "e".encode(encoding)
    scanner = Scanner(m)
    found = []
    for i in range(len(data)):
        found += scanner.feed(data[i:i + 1])
    found += scanner.feed(b"", final=True)
    kinds = [(p[0], p[1], p[2], p[5], p[6]) for p in found]
    # the signature, then the lone trail surrogate: one newline before it, after "cd"
    assert kinds == [("signature", 0, 2, 0, 0), ("error", 12, 14, 1, 2)]


@pytest.mark.parametrize("bad", [b"\xff", b"\xed\xa0\x80", b"\xe4\xb8"])
@pytest.mark.parametrize("at", [0, 1, 16383, 16384, 16385, 40000])
def test_python_valid_until_skips_runs_but_never_a_problem(bad, at):
    """The pure-Python valid_until skips the fast path's runs of valid tokens; the first
    problem is where CPython's utf-8 finds it, around a window's edge too."""
    m = module("utf-8", "python")
    text = ("é中😀a" * 20000).encode()
    cut = text.decode()[:at].encode()  # whole characters: the problem starts a token
    data = cut + bad + text[:100]
    with pytest.raises(UnicodeDecodeError) as cpython:
        data.decode("utf-8")
    assert m.first_error(data)[:2] == (cpython.value.start, cpython.value.end)
    assert m.valid_until(data) == (len(cut), 0, True)
    assert m.valid_until(cut + "中".encode()[:2], 0, m.START, False) == (len(cut), 0, False)
