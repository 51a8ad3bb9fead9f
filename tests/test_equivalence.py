"""Every built-in spec's generated module against its hand-written oracle
(tests/oracles, written from the seeds; they never import encspec).

* ``list(m.tokens(b)) == oracle.tokens(b)`` on hypothesis bytes weighted toward
  each encoding's lead and continuation bytes, with whole valid encodings of
  boundary code points (from the oracle), their prefixes and one-byte
  mutations mixed with random bytes; exhaustively on every such piece, every
  prefix of it and every piece followed by every interesting byte;
* the decoders (``decode``, ``decode_codepoints``, strict errors, ``is_valid``,
  ``first_error``) agree with the oracle's token stream;
* ``m.encode(cps) == oracle.encode(cps)`` or both raise (at the same index),
  for hypothesis code points weighted toward boundaries (up to 10**120 for
  utf-inf-8), and ``m.decode_codepoints(m.encode(cps))`` gives the code points
  back;
* ``encspec tokens SPEC [FILE]`` prints the oracle's tokens, one per line.

Every test of a module runs on both backends (``backend``: the pure-Python
module, and the module decoding with its compiled extension).
"""
from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import (
    BACKENDS,
    COMMON_BYTES,
    EXTRA_BYTES,
    SIGNATURES,
    SPECS,
    boundary_cps,
    byte_strings,
    code_point_lists,
    cps_encodable,
    joined_pairs,
    oracle,
    pieces,
)
from conftest import encspec_command, examples


@cache
def load(name, backend):
    return encspec.load(name, backend=backend)


def as_tuples(toks):
    return [tuple(t) for t in toks]


# ==================================================================== tokens
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_tokens_match_the_oracle(name, backend, data):
    b = data.draw(byte_strings(name), label="bytes")
    assert as_tuples(load(name, backend).tokens(b)) == oracle(name).tokens(b)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_tokens_of_every_piece_its_prefixes_and_what_may_follow_it(name, backend):
    """Deterministic coverage: each whole encoding of a boundary code point, each of
    its prefixes, and each followed by every interesting byte."""
    m, o = load(name, backend), oracle(name)
    alphabet = sorted(set(COMMON_BYTES + EXTRA_BYTES.get(name, [])))
    bad = []
    for p in pieces(name):
        inputs = [p[:k] for k in range(1, len(p) + 1)] + [p + bytes([x]) for x in alphabet] \
            + [b"A" + p, p + p]
        for b in inputs:
            if as_tuples(m.tokens(b)) != o.tokens(b):
                bad.append((b.hex(" "), o.tokens(b), list(m.tokens(b))))
    assert not bad, bad[:5]


# ================================================================== decoding
def expected_decode(name, b):
    """From the oracle's tokens: (code points with U+FFFD per problem, str with U+FFFD
    per problem or code point beyond U+10FFFF, first problem for decode_codepoints,
    first problem for decode)."""
    cps, text = [], []
    first_cp = first_str = None
    for kind, start, end, value in oracle(name).tokens(b):
        if kind == "signature":
            continue
        if kind == "char":
            cps.append(value)
            if value <= 0x10FFFF:
                text.append(chr(value))
                continue
            reason = "code point beyond U+10FFFF"
        else:
            cps.append(0xFFFD)
            reason = "reserved sequence" if kind == "reserved" else None
            if first_cp is None:
                first_cp = (start, end, reason)
        text.append("\ufffd")
        if first_str is None:
            first_str = (start, end, reason)
    return cps, "".join(text), first_cp, first_str


def raised(fn, *args):
    try:
        fn(*args)
    except UnicodeDecodeError as e:
        return (e.start, e.end, e.reason)
    return None


def check_decoders(name, b, backend):
    m = load(name, backend)
    cps, text, first_cp, first_str = expected_decode(name, b)
    assert m.decode_codepoints(b, "replace") == cps
    assert m.decode(b, "replace") == text
    got = raised(m.decode_codepoints, b)
    if first_cp is None:
        assert got is None and m.decode_codepoints(b) == cps
    else:
        assert got is not None and got[:2] == first_cp[:2]
        assert first_cp[2] is None or got[2] == first_cp[2]
    got = raised(m.decode, b)
    if first_str is None:
        assert got is None and m.decode(b) == text
    else:
        assert got is not None and got[:2] == first_str[:2]
        assert first_str[2] is None or got[2] == first_str[2]
    assert m.is_valid(b, allow_reserved=False) is (first_cp is None)
    problems = [(s, e) for kind, s, e, _ in oracle(name).tokens(b) if kind == "error"]
    assert m.is_valid(b) is (not problems)   # reserved runs are not invalid by default
    fe = m.first_error(b, allow_reserved=False)
    assert (fe[:2] if fe else None) == (first_cp[:2] if first_cp else None)
    fe = m.first_error(b)
    assert (fe[:2] if fe else None) == (problems[0] if problems else None)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_decoders_agree_with_the_oracle_tokens(name, backend, data):
    check_decoders(name, data.draw(byte_strings(name), label="bytes"), backend)


@st.composite
def long_inputs(draw, name):
    """Hundreds of whole valid encodings (long runs for the decoder's fast path) with a
    few arbitrary byte strings of the encoding spliced in."""
    ps = pieces(name)
    parts = draw(st.lists(st.one_of(st.sampled_from(ps), st.sampled_from([b"a", b"Hello, ", b"\n"])),
                          min_size=100, max_size=500))
    for _ in range(draw(st.integers(0, 4))):
        parts.insert(draw(st.integers(0, len(parts))), draw(byte_strings(name, max_pieces=3)))
    return b"".join(parts)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(15), deadline=None)
@given(data=st.data())
def test_long_inputs_match_the_oracle(name, backend, data):
    b = data.draw(long_inputs(name), label="bytes")
    assert as_tuples(load(name, backend).tokens(b)) == oracle(name).tokens(b)
    check_decoders(name, b, backend)


# ================================================================== encoding
def round_trip_expectation(name, cps, signature=False):
    """What decode_codepoints(encode(cps)) gives back: the code points, surrogate pairs
    joined for wtf-8 (mutf-8 refuses them), minus a leading signature's code points when the
    encoding of cps itself starts with the signature (a signature is not text)."""
    want = joined_pairs(cps) if name == "wtf-8" else list(cps)
    if not signature and name == "utf-8-bom" and want[:1] == [0xFEFF]:
        want = want[1:]
    if not signature and name == "corrected-utf-8" and want[:4] == [0x10E7D, 0xED4E, 0x0, 0xA]:
        want = want[4:]
    return want


def first_unencodable(name, cps):
    """Where the oracle first refuses: an unencodable code point, or (mutf-8) the trail
    surrogate of a surrogate pair of code points."""
    return next(k for k in range(len(cps)) if not cps_encodable(name, cps[:k + 1]))


def check_encode(name, cps, backend):
    m, o = load(name, backend), oracle(name)
    try:
        want = o.encode(cps)
    except ValueError:
        want = None
    if want is None:
        with pytest.raises(UnicodeEncodeError) as e:
            m.encode(cps)
        assert e.value.start == first_unencodable(name, cps)
        return
    got = m.encode(cps)
    assert got == want
    assert m.decode_codepoints(got) == round_trip_expectation(name, cps)
    if all(0 <= c <= 0x10FFFF for c in cps):
        assert m.encode("".join(map(chr, cps))) == want
    if name in SIGNATURES:
        signed = m.encode(cps, signature=True)
        assert signed == o.encode(cps, signature=True) == SIGNATURES[name] + want
        assert m.decode_codepoints(signed) == round_trip_expectation(name, cps, signature=True)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_encode_matches_the_oracle_and_round_trips(name, backend, data):
    check_encode(name, data.draw(code_point_lists(name), label="code points"), backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_encode_every_boundary_code_point(name, backend):
    for cp in boundary_cps(name) + [-1]:
        check_encode(name, [cp], backend)
        check_encode(name, [0x41, cp, 0x42], backend)


@pytest.mark.parametrize("cps, want", [
    # wtf-8.txt 6.1: a lead surrogate code point followed by a trail surrogate code
    # point is encoded as the supplementary code point they pair to.
    ([0xD83D, 0xDE00], "F0 9F 98 80"),
    ([0xD800, 0xDC00], "F0 90 80 80"),
    ([0xDBFF, 0xDFFF], "F4 8F BF BF"),
    ([0x61, 0xD800, 0xD800, 0xDC00, 0x62], "61 ED A0 80 F0 90 80 80 62"),
    ([0xDC00, 0xD800], "ED B0 80 ED A0 80"),  # trail then lead: no pair
    ([0xD800], "ED A0 80"),
])
@pytest.mark.parametrize("backend", BACKENDS)
def test_wtf_8_encode_joins_a_surrogate_pair(cps, want, backend):
    m = load("wtf-8", backend)
    assert oracle("wtf-8").encode(cps) == bytes.fromhex(want)
    assert m.encode(cps) == bytes.fromhex(want)
    assert m.encode("".join(map(chr, cps))) == bytes.fromhex(want)
    assert m.is_valid(m.encode(cps))
    assert m.decode_codepoints(m.encode(cps)) == joined_pairs(cps)


# ======================================================================= CLI
def cli_lines(toks) -> str:
    out = []
    for kind, start, end, value in toks:
        out.append(f"char {start} {end} {value:X}" if kind == "char" else f"{kind} {start} {end}")
    return "".join(line + "\n" for line in out)


class _Stdin:
    def __init__(self, data):
        self.buffer = io.BytesIO(data)


def run_cli_in_process(args, stdin=b""):
    from encspec.cli import main
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = _Stdin(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_cli_tokens_prints_the_oracle_tokens(name, data):
    b = data.draw(byte_strings(name), label="bytes")
    code, out, err = run_cli_in_process(["tokens", name], stdin=b)
    assert (code, out, err) == (0, cli_lines(oracle(name).tokens(b)), "")


SAMPLE = b"A\xc3\xa9\xed\xa0\x80\xed\xb0\x80\xc0\xaf\xfe\x80\x80\xef\xb7\x9d\xed\xb2\xae\x00\n" \
         b"\xf4\x90\x80\x80\xff\xb4\xa1" + bytes(range(0x78, 0x88))


@pytest.mark.parametrize("name", SPECS)
def test_cli_tokens_file(name, tmp_path):
    """In this process (the installed command is run by the tests below)."""
    for data in (SAMPLE, SIGNATURES.get(name, b"") + SAMPLE, b""):
        f = tmp_path / "input.bin"
        f.write_bytes(data)
        assert run_cli_in_process(["tokens", name, str(f)]) == (0, cli_lines(oracle(name).tokens(data)), "")


@pytest.mark.parametrize("name", ["corrected-utf-8", "utf-inf-8"])
def test_cli_tokens_reads_stdin_without_a_file(name):
    data = SIGNATURES.get(name, b"") + SAMPLE
    proc = subprocess.run(encspec_command() + ["tokens", name], input=data, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("ascii") == cli_lines(oracle(name).tokens(data))


def test_cli_tokens_missing_file(tmp_path):
    missing = tmp_path / "nope.bin"
    proc = subprocess.run(encspec_command() + ["tokens", "utf-8", str(missing)], capture_output=True,
                          timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode() == f"encspec: error: {missing}: no such file\n"
    # relative path, as typed
    proc = subprocess.run(encspec_command() + ["tokens", "wtf-8", "nope.bin"], capture_output=True,
                          timeout=120, cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr.decode()) == (2, b"", "encspec: error: nope.bin: no such file\n")
