"""Native validation: ``first_error`` and ``is_valid`` without a str (issue 19, item 3).

* the extension's ``validate`` finds where the first problem token starts, and the
  module takes its span and reason from its own _scan: the answers must be the
  pure-Python core's (backend="python") on every input of 1 and 2 bytes, sampled
  3-byte inputs, every sequence of 4 byte classes (sampled where there are many),
  and random documents with a problem at every offset modulo 64 around the SIMD
  blocks (16/32/64 bytes: first and last bytes of a block, sequences across
  blocks, truncation at the end), allow_reserved both ways, for every built-in
  spec, with each SIMD level forced (``simd_level``);
* the SIMD validator's tables are derived from the automaton
  (encspec/emit/native_simd.py): for UTF-8 they mean what the paper's do
  (Keiser and Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte",
  2021, the three lookup tables of their section 6, as simdutf ships them), and a
  spec the method does not fit (written here) gets none;
* linear time on adversarial input (CPU time at 1 MiB over 64 KiB, as test_dos).
"""
from __future__ import annotations

import itertools
import random
import shutil

import pytest

import encspec
import tools
from codec_samples import native_extension_missing
from conftest import byte_pairs, extension_builtins
from encspec.emit.native import simd as native_simd
from encspec.pipeline import load as load_automaton

ALL = sorted(extension_builtins())
SIMD = [n for n in ALL if native_simd.simd_plan(load_automaton(n)[1]) is not None]
LEVELS = [0, 1, 2]


@pytest.fixture(autouse=True)
def _compiled():
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    why = native_extension_missing("utf-8")
    if why is not None:
        tools.missing(why)


def backends(name):
    why = native_extension_missing(name)
    if why is not None:
        tools.missing(why)
    return encspec.load(name, backend="python"), encspec.load(name, backend="native")


def levels(nat):
    """The SIMD levels this machine has (0: the scalar validator)."""
    best = nat._NATIVE.simd_level()[1]
    return [k for k in LEVELS if k <= best]


def at_level(nat, level):
    got = nat._NATIVE.simd_level(level)
    assert got[0] == level
    return got


def agree(py, nat, docs, where):
    for doc in docs:
        for allow in (True, False):
            want = py.first_error(doc, allow)
            got = nat.first_error(doc, allow)
            assert got == want, f"{where}: {doc.hex(' ')} allow_reserved={allow}: native {got}, core {want}"
            assert nat.is_valid(doc, allow) == (want is None)


def test_the_simd_specs_are_the_utf8_like_ones():
    """The derivation accepts utf-8 and corrected-utf-8 (and utf-8-bom, utf-8 after its
    signature) and refuses the rest, each for a reason it names."""
    assert {"utf-8", "corrected-utf-8"} <= set(SIMD)
    for name in ("cesu-8", "mutf-8", "wtf-8", "utf-1", "utf-16", "big5", "utf-inf-8", "utf-8-rfc2279"):
        a = load_automaton(name)[1]
        assert native_simd.simd_plan(a) is None
        assert native_simd.refusal(a)


# ------------------------------------------------------------ short inputs
@pytest.mark.parametrize("name", ALL)
def test_every_input_of_one_and_two_bytes(name):
    py, nat = backends(name)
    docs = [bytes([b]) for b in range(256)] + byte_pairs(load_automaton(name)[1].classes)
    for level in levels(nat) if name in SIMD else [levels(nat)[-1]]:
        at_level(nat, level)
        agree(py, nat, docs, f"{name} level {level}")
    at_level(nat, levels(nat)[-1])


@pytest.mark.parametrize("name", ALL)
def test_three_byte_inputs_sampled_and_four_byte_classes(name):
    py, nat = backends(name)
    rnd = random.Random(name)
    a = load_automaton(name)[1]
    # one byte of each class, and for the SIMD tables every high and low nibble too
    reps = sorted({bs[0] for bs in a.class_bytes()} | {bs[-1] for bs in a.class_bytes()} |
                  ({h << 4 | lo for h in range(16) for lo in (0, 15)} if name in SIMD else set()))
    threes = [bytes(rnd.randrange(256) for _ in range(3)) for _ in range(3000)]
    threes += [bytes(t) for t in itertools.islice(itertools.product(reps, repeat=3), 20000)]
    # a sample of the four-byte combinations drawn by index, never listed: an ISO-2022
    # spec's ~100 representatives make 10^8 of them
    n = len(reps)
    picks = range(n ** 4) if n ** 4 <= 20000 else rnd.sample(range(n ** 4), 20000)
    fours = [bytes(reps[k // n ** p % n] for p in (3, 2, 1, 0)) for k in picks]
    docs = threes + fours
    for level in levels(nat) if name in SIMD else [levels(nat)[-1]]:
        at_level(nat, level)
        agree(py, nat, docs, f"{name} level {level}")
    at_level(nat, levels(nat)[-1])


# -------------------------------------------------------- long documents
def valid_tokens(py, rnd):
    """Char tokens of the spec, found by its own tokenizer in random bytes and in
    the encodings of some code points."""
    out = set()
    for _ in range(200):
        data = bytes(rnd.randrange(256) for _ in range(64))
        for kind, start, end, _ in py.tokens(data):
            if kind == "char":
                out.add(data[start:end])
    for cp in (0x41, 0x20, 0x0A, 0xE9, 0x3B1, 0x20AC, 0x4E2D, 0xFFFD, 0x1F600, 0x10FFFF):
        try:
            out.add(py.encode(chr(cp)))
        except (UnicodeError, ValueError):
            pass
    out.discard(b"")
    return sorted(out)


def documents(py, rnd, n_docs=400):
    """Valid text with one problem: a random byte at every offset modulo 64 (first
    and last bytes of 16/32/64-byte blocks), a token cut short there (straddling a
    block, or at the end), a byte left out."""
    toks = valid_tokens(py, rnd)
    docs = []
    for k in range(n_docs):
        body = b""
        while len(body) < 200:
            body += rnd.choice(toks)
        at = (k % 64) + 64 * rnd.randrange(3)
        what = k % 4
        if what == 0:
            doc = body[:at] + bytes([rnd.randrange(256)]) + body[at + 1:]
        elif what == 1:
            t = rnd.choice(toks)
            doc = body[:at] + t[:max(1, len(t) - 1)] + body[at:]
        elif what == 2:
            doc = body[:at]  # cut at any offset: maybe inside a token
        else:
            doc = body[:at] + body[at + 1:]
        docs.append(doc)
        docs.append(body)
    return docs


@pytest.mark.parametrize("name", ALL)
def test_random_documents_with_problems_near_block_boundaries(name):
    py, nat = backends(name)
    rnd = random.Random("docs " + name)
    docs = documents(py, rnd)
    for level in levels(nat) if name in SIMD else [levels(nat)[-1]]:
        at_level(nat, level)
        agree(py, nat, docs, f"{name} level {level}")
    at_level(nat, levels(nat)[-1])


@pytest.mark.parametrize("name", SIMD)
def test_problems_after_long_valid_runs_and_dense_problems(name):
    """A problem after kilobytes of valid text (found from the flagged block, not from
    the start), many problems and reserved runs in a row (allowed: the scan goes on)."""
    py, nat = backends(name)
    rnd = random.Random("long " + name)
    toks = valid_tokens(py, rnd)
    bad = [b"\x80", b"\xc0", b"\xff", b"\xfe", b"\xe0\x80", b"\xed\xa0\x80", b"\xf4\x90"]
    docs = []
    for _k in range(200):
        body = b"".join(rnd.choice(toks) for _ in range(rnd.randrange(100, 3000)))
        cut = rnd.randrange(len(body))
        docs.append(body[:cut] + rnd.choice(bad) + body[cut:])
        docs.append(b"".join(rnd.choice(toks + bad) for _ in range(300)))
    for level in levels(nat):
        at_level(nat, level)
        agree(py, nat, docs, f"{name} level {level}")


@pytest.mark.parametrize("name", ["utf-8-bom", "corrected-utf-8", "utf-16", "utf-32"])
def test_signatures_choose_the_start_state(name):
    py, nat = backends(name)
    sig = py.SIGNATURES[0][0] if py.SIGNATURES else b""
    rnd = random.Random("sig " + name)
    docs = [sig + d for d in documents(py, rnd, 100)]
    for s, _ in py.SIGNATURES:
        docs += [s + d for d in (b"", b"\x00\x41", b"\x41\x00\xd8\x00", b"\xff\xfe\x00\xd8")]
    agree(py, nat, docs, name)


def test_counted_limit_is_the_modules():
    py, nat = backends("utf-inf-8")
    data = bytes.fromhex("FFB4A1") + b"\x80" * 3 + b"A"
    for limit in (None, 2, 6, 100):
        py.COUNTED_LIMIT = nat.COUNTED_LIMIT = limit
        try:
            assert nat.first_error(data) == py.first_error(data)
        finally:
            py.COUNTED_LIMIT = nat.COUNTED_LIMIT = None


def test_bytearray_and_memoryview():
    py, nat = backends("utf-8")
    data = "héllo".encode() * 20 + b"\xc3" + b"x"
    for d in (bytearray(data), memoryview(data)):
        assert nat.first_error(d) == py.first_error(data) == (120, 121, "invalid continuation byte")


# ------------------------------------------------------------- the tables
# Keiser and Lemire (2021), section 6 (and simdutf, utf8_lookup4_algorithm.h): the
# error classes and the three tables, previous byte's high nibble, its low
# nibble, current byte's high nibble.
TOO_SHORT, TOO_LONG, OVERLONG_3, TOO_LARGE = 1 << 0, 1 << 1, 1 << 2, 1 << 3
SURROGATE, OVERLONG_2, TOO_LARGE_1000, OVERLONG_4, TWO_CONTS = 1 << 4, 1 << 5, 1 << 6, 1 << 6, 1 << 7
CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
PAPER_BYTE_1_HIGH = [TOO_LONG] * 8 + [TWO_CONTS] * 4 + [
    TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4]
PAPER_BYTE_1_LOW = [CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
                    CARRY | TOO_LARGE] + [CARRY | TOO_LARGE | TOO_LARGE_1000] * 8 + [
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000]
PAPER_BYTE_2_HIGH = [TOO_SHORT] * 8 + [
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE] + [TOO_SHORT] * 4


def classes(t1, t2, t3):
    """Per byte pair: (an error class other than two continuations, two continuations)."""
    return {(p, c): (bool(t1[p >> 4] & t2[p & 15] & t3[c >> 4] & 0x7F),
                     bool(t1[p >> 4] & t2[p & 15] & t3[c >> 4] & 0x80))
            for p in range(256) for c in range(256)}


def test_utf8_tables_mean_the_papers():
    """The tables derived for utf-8 flag exactly the byte pairs the paper's flag, with
    the continuation-pair bit on the same pairs, and the must-be-continuation
    thresholds are the paper's (third byte after E0.., fourth after F0..)."""
    plan = native_simd.simd_plan(load_automaton("utf-8")[1])
    assert plan is not None
    assert len(PAPER_BYTE_1_HIGH) == len(PAPER_BYTE_1_LOW) == len(PAPER_BYTE_2_HIGH) == 16
    derived = classes(plan["t1"], plan["t2"], plan["t3"])
    paper = classes(PAPER_BYTE_1_HIGH, PAPER_BYTE_1_LOW, PAPER_BYTE_2_HIGH)
    differ = [(hex(p), hex(c)) for (p, c) in paper if paper[(p, c)] != derived[(p, c)]]
    assert not differ, differ[:20]
    assert plan["thresholds"] == [0xE0, 0xF0]
    assert plan["conts"] == list(range(0x80, 0xC0))


def test_the_check_flags_exactly_invalid_utf8():
    """The plan's check, byte by byte (check_flags), against CPython's UTF-8 decoder on
    every input of up to 3 bytes from a set of bytes covering every nibble."""
    plan = native_simd.simd_plan(load_automaton("utf-8")[1])
    reps = sorted({h << 4 | lo for h in range(16) for lo in (0, 1, 4, 5, 0xD, 0xF)} | {0xC2, 0xF4, 0xF5, 0xED})
    for k in (1, 2, 3):
        for t in itertools.product(reps, repeat=k):
            data = bytes(t)
            try:
                data.decode("utf-8")
                valid = True
            except UnicodeDecodeError:
                valid = False
            assert (not any(native_simd.check_flags(plan, data))) == valid, data.hex(" ")


# UTF-8 with U+0800..U+083F ill-formed: E0 A0 can no longer start a character, but
# E0 A1..AF still can, and the current byte's high nibble (A) cannot tell them apart.
NOT_NIBBLE_ALIGNED = """\
encoding test-refused
title "UTF-8 without U+0800..U+083F"
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
ill-formed U+0800..U+083F
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx              min U+0080
form 3: 1110xxxx 10xxxxxx{2}           min U+0800
form 4: 11110xxx 10xxxxxx{3}           min U+10000
"""


def test_a_spec_the_method_does_not_fit_gets_none(tmp_path):
    """Written here: a spec whose byte pairs and lead distances cannot say what is
    valid gets no plan (the scalar validator), with the reason."""
    path = tmp_path / "refused.encspec"
    path.write_text(NOT_NIBBLE_ALIGNED)
    a = load_automaton(str(path))[1]
    assert a.step(a.step(0, 0xE0), 0xA0) != a.step(a.step(0, 0xE0), 0xA1)  # the spec says what the test means
    assert native_simd.simd_plan(a) is None
    assert native_simd.refusal(a)


def test_refusal_where_the_forbidden_pairs_are_not_nibble_aligned():
    """utf-8-rfc2279's overlong checks cut a high nibble (F8 followed by 80..87, not
    88..8F): no three nibble tables say that, and the verification finds it."""
    a = load_automaton("utf-8-rfc2279")[1]
    assert native_simd.simd_plan(a) is None
    assert "flag" in native_simd.refusal(a) or "pad" in native_simd.refusal(a)


# --------------------------------------------------------------- linear
def test_validation_is_linear_on_adversarial_input():
    """Problems in every block (reserved runs, allowed: the scan goes on through them),
    long reserved runs, and valid multi-byte text: CPU time at 1 MiB / 64 KiB."""
    from test_dos import BIG, SMALL, assert_linear
    _, cutf = backends("corrected-utf-8")
    _, utf8 = backends("utf-8")
    _, cesu = backends("cesu-8")

    def fill(piece, size):
        return piece * (size // len(piece))  # whole pieces

    cases = [
        ("corrected-utf-8 FE 41 allowed", lambda d: cutf.first_error(d, True), b"\xfe\x41"),
        ("corrected-utf-8 FE 80.. allowed", lambda d: cutf.first_error(d, True), b"\xfe" + b"\x80" * 61 + b"a"),
        ("corrected-utf-8 a reserved byte per block", lambda d: cutf.first_error(d, True), b"\xff" + "é".encode() * 31),
        ("utf-8 valid 4-byte text", utf8.is_valid, "😀é".encode()),
        ("cesu-8 valid pairs", cesu.is_valid, bytes.fromhex("EDA080EDB080") + "é".encode()),
    ]
    for label, fn, piece in cases:
        small, big = fill(piece, SMALL), fill(piece, BIG)
        assert fn(big) in (None, True), label  # nothing stops it early
        assert_linear(label, fn, small, big)


# ------------------------------------------------------------- encspec validate
STREAM_SPECS = ["utf-8", "corrected-utf-8", "cesu-8", "mutf-8", "wtf-8", "utf-1", "big5", "gb18030", "utf-16le",
                "utf-8-bom"]


@pytest.mark.parametrize("name", STREAM_SPECS)
def test_validate_stream_is_the_decoding_scanners(name):
    """encspec validate's scan (validate_stream, whose Scanner parallel.py runs per
    chunk) with the native validator gives the report the decoding scan gives (the
    python backend), problems with their lines and columns, at any chunk size."""
    import io

    from encspec.io.stream import Input, validate_stream
    py, nat = backends(name)
    rnd = random.Random("stream " + name)
    toks = valid_tokens(py, rnd)
    lines = [py.encode("\n")]
    for k in range(30):
        parts = [rnd.choice(toks + lines * 5) for _ in range(rnd.randrange(50, 600))]
        doc = b"".join(parts)
        if k % 3:
            cut = rnd.randrange(len(doc) + 1)
            doc = doc[:cut] + bytes([rnd.randrange(256)]) + doc[cut:]
        for chunk in (7, 64, 1000):
            reports = [validate_stream(m, Input(io.BytesIO(doc), "doc", len(doc)), None, chunk) for m in (py, nat)]
            assert reports[0].key() == reports[1].key(), f"{name} chunk {chunk}: {doc.hex(' ')}"


def test_the_source_compiles_without_simd(tmp_path):
    """Where there is no x86-64 SIMD (the guard, forced here with NX_NO_SIMD), the
    extension compiles without warnings with the scalar validator only."""
    import subprocess
    import sysconfig
    from pathlib import Path
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        tools.missing("no C compiler (cc) on PATH")
    src = Path(__file__).resolve().parents[1] / "generated" / "native" / "utf_8.c"
    cmd = [cc, "-fsyntax-only", "-Wall", "-Werror", "-DNX_NO_SIMD", "-I", sysconfig.get_paths()["include"], str(src)]
    got = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert got.returncode == 0, got.stderr[-2000:]
