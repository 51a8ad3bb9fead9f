"""encspec's generated codecs against real implementations written by others.

* utf-8 replacement decoding vs Node's TextDecoder and Rust's
  String::from_utf8_lossy (both implement the maximal-subpart rule);
* mutf-8 vs Java's DataOutputStream.writeUTF / DataInputStream.readUTF;
* cesu-8 vs ICU's CESU-8 converter (uconv), both directions;
* wtf-8's UTF-16 conversions (hypothesis) and, against Node, that WTF-8 is
  UTF-8 except at unpaired surrogates.

Every tool is found or installed by ``tools``; a missing one fails the tests.
Each tool sees one batch of inputs per test (one process), never one per input.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from conftest import DATA, examples

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

try:
    from tests import tools
except ImportError:  # tests/ is on sys.path (conftest, pytest's rootdir insertion)
    import tools

UTF8 = encspec.load("utf-8")
MUTF8 = encspec.load("mutf-8")
CESU8 = encspec.load("cesu-8")
WTF8 = encspec.load("wtf-8")

SEED = 20240611
SHOW = 8  # mismatches listed in a failure message


def mismatches_message(what: str, bad: list[str], total: int) -> str:
    return (f"{len(bad)} of {total} inputs differ ({what}); first {min(SHOW, len(bad))}:\n"
            + "\n".join(bad[:SHOW]))


def show_cps(cps) -> str:
    return " ".join(f"U+{c:04X}" for c in cps)


def show_text(text: str) -> str:
    return show_cps(ord(c) for c in text)


# ------------------------------------------------------------ random inputs
INTERESTING = [0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
               0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF]
# code points at the edges of the UTF-8 rows and of the surrogate hole
EDGE_CPS = [0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF,
            0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF,
            0x100000, 0x10FFFF]


def random_scalar(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.3:
        return rng.choice(EDGE_CPS)
    low, high = rng.choice([(0x00, 0x7F), (0x80, 0x7FF), (0x800, 0xD7FF),
                            (0xE000, 0xFFFF), (0x10000, 0x10FFFF)])
    return rng.randint(low, high)


def utf8_piece(rng: random.Random) -> bytes:
    """A valid sequence, a truncated one, an interesting byte, ASCII, or anything."""
    r = rng.random()
    if r < 0.35:
        return bytes([rng.choice(INTERESTING)])
    if r < 0.45:
        return bytes([rng.randint(0x20, 0x7E)])
    if r < 0.50:
        return bytes([rng.randint(0, 255)])
    seq = chr(random_scalar(rng)).encode("utf-8")
    if r < 0.75 or len(seq) == 1:
        return seq
    if r < 0.92:
        return seq[:rng.randint(1, len(seq) - 1)]  # truncated
    # a valid lead with a broken continuation, or an encoded surrogate / overlong
    return rng.choice([seq[:-1] + bytes([rng.choice(INTERESTING)]),
                       chr(0xD800 + rng.randint(0, 0x7FF)).encode("utf-8", "surrogatepass"),
                       bytes([0xC0 | rng.randint(0, 1), rng.randint(0x80, 0xBF)]),
                       bytes([0xE0, rng.randint(0x80, 0x9F), rng.randint(0x80, 0xBF)]),
                       bytes([0xF0, rng.randint(0x80, 0x8F), 0x80, 0x80]),
                       bytes([0xF4, rng.randint(0x90, 0xBF), 0x80, 0x80])])


def malformed_inputs(n: int = 2000) -> list[bytes]:
    rng = random.Random(SEED)
    inputs = [b""]
    while len(inputs) < n:
        inputs.append(b"".join(utf8_piece(rng) for _ in range(rng.randint(1, 12))))
    return inputs


# ----------------------------------------------------------- tool fixtures
@pytest.fixture(scope="session")
def real_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("real")


@pytest.fixture(scope="session")
def rust_lossy(real_dir):
    tools.need(tools.rustc)
    exe = tools.compile_rust(tools.RUST_LOSSY, real_dir / "rust", "lossy")
    return lambda items: tools.parse_hex_lines(tools.run([str(exe)], tools.hex_lines(items)),
                                               len(items))


@pytest.fixture(scope="session")
def node_textdecoder(real_dir):
    node = tools.need(tools.node)
    return lambda items: tools.parse_hex_lines(
        tools.run([node, "-e", tools.NODE_TEXTDECODER], tools.hex_lines(items)), len(items))


@pytest.fixture(scope="session")
def java_mutf8(real_dir):
    tools.need(tools.javac)
    tools.need(tools.java)
    return tools.compile_java(tools.JAVA_MUTF8, real_dir / "java", "MUtf8")


LOSSY_DECODERS = ["node_textdecoder", "rust_lossy"]


@pytest.mark.parametrize("name", ["node", "rustc", "javac", "java", "uconv"])
def test_tool_is_available(name):
    """Each tool the comparisons need answers --version (missing: skipped naming it,
    or failed under ENCSPEC_REQUIRE_TOOLS=1)."""
    path = tools.need(getattr(tools, name))
    assert tools.run([path, "--version"] if name != "java" else [path, "-version"]) is not None


# ------------------------------------------------ 1. utf-8, maximal subparts
def compare_lossy(decoder, inputs: list[bytes], label: str):
    outputs = decoder(inputs)
    bad = []
    for data, out in zip(inputs, outputs):
        real = out.decode("utf-8")  # a real implementation's output is always valid UTF-8
        ours = UTF8.decode(data, "replace")
        if ours != real:
            bad.append(f"  {data.hex(' ')}: {label} {show_text(real)}; encspec {show_text(ours)}")
    assert not bad, mismatches_message(f"utf-8 replace vs {label}", bad, len(inputs))
    return outputs


@pytest.mark.parametrize("decoder_name", LOSSY_DECODERS)
def test_utf8_replacement_matches_real_decoders(decoder_name, request):
    decoder = request.getfixturevalue(decoder_name)
    inputs = malformed_inputs()
    outputs = compare_lossy(decoder, inputs, decoder_name)
    # the batch really exercises errors and every sequence length
    decoded = [o.decode("utf-8") for o in outputs]
    assert sum("\ufffd" in d for d in decoded) > len(inputs) // 3
    assert sum(any(ord(c) >= 0x10000 for c in d) for d in decoded) > 100
    assert sum(not UTF8.is_valid(i) for i in inputs) > len(inputs) // 3


@pytest.mark.parametrize("decoder_name", LOSSY_DECODERS)
def test_utf8_kuhn_corpus_matches_real_decoders(decoder_name, request):
    decoder = request.getfixturevalue(decoder_name)
    corpora = DATA
    whole = (corpora / "kuhn-UTF-8-test.txt").read_bytes()
    cases = json.loads((corpora / "kuhn-cases.json").read_text())
    inputs = [whole] + [bytes.fromhex(c["hex"]) for c in cases]
    assert len(whole) > 20000 and len(cases) > 50
    outputs = decoder(inputs)
    real = outputs[0].decode("utf-8")
    ours = UTF8.decode(whole, "replace")
    if ours != real:
        at = next((i for i, (a, b) in enumerate(zip(ours, real)) if a != b), min(len(ours), len(real)))
        pytest.fail(f"Kuhn file differs from {decoder_name} at character {at}: "
                    f"{decoder_name} {show_text(real[max(0, at - 5):at + 10])}; "
                    f"encspec {show_text(ours[max(0, at - 5):at + 10])}")
    assert real.count("\ufffd") > 100  # the file is full of malformed sequences
    compare_lossy(decoder, inputs[1:], decoder_name)


# ------------------------------------------------------ 2. mutf-8 vs Java
def random_utf16(rng: random.Random, max_len: int = 12) -> list[int]:
    """UTF-16 code units: U+0000, ASCII, BMP, proper pairs and unpaired surrogates."""
    units: list[int] = []
    for _ in range(rng.randint(0, max_len)):
        r = rng.random()
        if r < 0.12:
            units.append(0)
        elif r < 0.30:
            units.append(rng.randint(1, 0x7F))
        elif r < 0.50:
            units.append(rng.choice([rng.randint(0x80, 0x7FF), rng.randint(0x800, 0xD7FF),
                                     rng.randint(0xE000, 0xFFFF), 0xFFFF, 0x7FF, 0x800]))
        elif r < 0.72:
            cp = rng.choice([0x10000, 0x10FFFF, rng.randint(0x10000, 0x10FFFF)]) - 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        elif r < 0.86:
            units.append(rng.choice([0xD800, 0xDBFF, rng.randint(0xD800, 0xDBFF)]))  # lone lead
        else:
            units.append(rng.choice([0xDC00, 0xDFFF, rng.randint(0xDC00, 0xDFFF)]))  # lone trail
    return units


def units_to_codepoints(units: list[int]) -> list[int]:
    """What a Java string means: a proper pair is one code point, anything else a unit."""
    cps, i = [], 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            cps.append(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00))
            i += 2
        else:
            cps.append(u)
            i += 1
    return cps


def units_hex(units: list[int]) -> str:
    return "".join(f"{u:04x}" for u in units)


def mutf8_strings(n: int = 1500) -> list[list[int]]:
    rng = random.Random(SEED + 2)
    strings = [[], [0], [0xD800], [0xDC00], [0xD800, 0xDC00], [0xDBFF, 0xDFFF], [0xDC00, 0xD800]]
    while len(strings) < n:
        strings.append(random_utf16(rng))
    return strings


def java_batch(cmd: list[str], mode: str, lines: list[str]) -> list[str]:
    out = tools.run(cmd + [mode], "".join(line + "\n" for line in lines).encode("ascii"))
    got = out.decode("ascii").split("\n")
    if got and got[-1] == "":
        got.pop()
    assert len(got) == len(lines), f"java answered {len(got)} lines for {len(lines)} inputs"
    return got


def test_mutf8_encode_matches_java_writeutf(java_mutf8):
    strings = mutf8_strings()
    outputs = java_batch(java_mutf8, "encode", [units_hex(u) for u in strings])
    bad = []
    for units, out in zip(strings, outputs):
        java_bytes = bytes.fromhex(out)
        cps = units_to_codepoints(units)
        ours = MUTF8.encode(cps)
        if ours != java_bytes:
            bad.append(f"  units {units_hex(units)} ({show_cps(cps)}): Java {java_bytes.hex(' ')}; "
                       f"encspec {ours.hex(' ')}")
            continue
        back = MUTF8.decode_codepoints(java_bytes)
        if back != cps:
            bad.append(f"  decode_codepoints({java_bytes.hex(' ')}) = {show_cps(back)}; "
                       f"expected {show_cps(cps)}")
    assert not bad, mismatches_message("mutf-8 vs DataOutputStream.writeUTF", bad, len(strings))
    everything = b"".join(bytes.fromhex(o) for o in outputs)
    assert 0 not in everything and b"\xc0\x80" in everything and b"\xed\xa0\x80" in everything


def test_mutf8_java_readutf_reads_encspec(java_mutf8):
    strings = mutf8_strings()
    encoded = [MUTF8.encode(units_to_codepoints(u)) for u in strings]
    outputs = java_batch(java_mutf8, "decode", [e.hex() for e in encoded])
    bad = [f"  encspec {e.hex(' ')} read by Java as {out}; expected {units_hex(u)}"
           for u, e, out in zip(strings, encoded, outputs) if out != units_hex(u)]
    assert not bad, mismatches_message("DataInputStream.readUTF of mutf-8", bad, len(strings))


# ------------------------------------------------------ 3. cesu-8 vs ICU
def random_text(rng: random.Random, max_len: int = 16) -> str:
    """Valid text without newlines: ASCII, U+0000, BMP and supplementary characters."""
    cps = []
    for _ in range(rng.randint(0, max_len)):
        cp = random_scalar(rng)
        while cp in (0x0A, 0x0D) or 0xD800 <= cp <= 0xDFFF:
            cp = random_scalar(rng)
        cps.append(cp)
    return "".join(map(chr, cps))


def cesu8_texts(n: int = 1500) -> list[str]:
    rng = random.Random(SEED + 3)
    texts = ["", "\x00", "\U00010000", "\U0010FFFF", "\uffff", "a\U0001F600b"]
    while len(texts) < n:
        texts.append(random_text(rng))
    return texts


@pytest.fixture(scope="session")
def uconv():
    return tools.need(tools.uconv)


def uconv_lines(uconv, tmp_path, src: str, dst: str, lines: list[bytes]) -> list[bytes]:
    """All lines through one uconv process (a file, newline-separated), split back."""
    path = tmp_path / f"in.{src}"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    out = tools.run([uconv, "--from-callback", "stop", "--to-callback", "stop",
                     "-f", src, "-t", dst, str(path)])
    got = out.split(b"\n")
    assert got[-1] == b"", "uconv output does not end with a newline"
    got.pop()
    assert len(got) == len(lines), f"uconv answered {len(got)} lines for {len(lines)} inputs"
    return got


def test_cesu8_encode_matches_icu(uconv, tmp_path):
    texts = cesu8_texts()
    # a leading U+FEFF would be a BOM to uconv; the first text is "" so none leads
    icu = uconv_lines(uconv, tmp_path, "utf-8", "cesu-8", [t.encode("utf-8") for t in texts])
    bad = [f"  {show_text(t)}: ICU {i.hex(' ')}; encspec {CESU8.encode(t).hex(' ')}"
           for t, i in zip(texts, icu) if CESU8.encode(t) != i]
    assert not bad, mismatches_message("cesu-8 encode vs uconv -t cesu-8", bad, len(texts))
    assert sum(any(ord(c) >= 0x10000 for c in t) for t in texts) > 300


def test_cesu8_icu_decodes_encspec(uconv, tmp_path):
    texts = cesu8_texts()
    ours = [CESU8.encode(t) for t in texts]
    back = uconv_lines(uconv, tmp_path, "cesu-8", "utf-8", ours)
    bad = [f"  encspec {o.hex(' ')} read by ICU as {b.hex(' ')}; expected {show_text(t)}"
           for t, o, b in zip(texts, ours, back) if b.decode("utf-8", "replace") != t]
    assert not bad, mismatches_message("uconv -f cesu-8 of encspec's cesu-8", bad, len(texts))


# --------------------------------------------------------------- 4. wtf-8
units16 = st.lists(st.one_of(st.integers(0, 0xFFFF),
                             st.integers(0xD800, 0xDFFF),
                             st.sampled_from([0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800,
                                              0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF])),
                   max_size=12)


@settings(max_examples=examples(400), deadline=None)
@given(units16)
def test_wtf8_roundtrips_utf16(units):
    data = WTF8.from_wtf16(units)
    assert WTF8.is_valid(data), data.hex(" ")
    assert WTF8.to_wtf16(data) == units, data.hex(" ")


@settings(max_examples=examples(400), deadline=None)
@given(units16, units16)
def test_wtf8_concat_is_utf16_concatenation(a_units, b_units):
    a, b = WTF8.from_wtf16(a_units), WTF8.from_wtf16(b_units)
    joined = WTF8.concat(a, b)
    assert joined == WTF8.from_wtf16(WTF8.to_wtf16(a) + WTF8.to_wtf16(b)), \
        f"concat({a.hex(' ')}, {b.hex(' ')}) = {joined.hex(' ')}"
    assert WTF8.is_valid(joined)


def test_wtf8_concat_pairs_split_surrogates():
    lead, trail = WTF8.from_wtf16([0xD83D]), WTF8.from_wtf16([0xDE00])
    assert lead + trail == bytes.fromhex("eda0bdedb880")  # ill-formed as WTF-8
    assert WTF8.concat(lead, trail) == "\U0001F600".encode("utf-8")


def test_wtf8_is_utf8_except_unpaired_surrogates_node():
    """Node's Buffer.from(s, "utf8") writes EF BF BD for an unpaired surrogate,
    so it must equal WTF-8 with each surrogate sequence replaced (to_utf8), and
    equal WTF-8 itself whenever the units are well-formed UTF-16."""
    rng = random.Random(SEED + 4)
    batch = [[], [0xD800], [0xDFFF], [0xD83D, 0xDE00], [0xDE00, 0xD83D], [0xD800, 0xD800, 0xDC00]]
    while len(batch) < 1500:
        batch.append(random_utf16(rng))
    out = tools.run([tools.need(tools.node), "-e", tools.NODE_UTF16_TO_UTF8],
                    "".join(units_hex(u) + "\n" for u in batch).encode("ascii"))
    node_bytes = tools.parse_hex_lines(out, len(batch))
    bad, unpaired = [], 0
    for units, nb in zip(batch, node_bytes):
        ours = WTF8.from_wtf16(units)
        lone = any(0xD800 <= c <= 0xDFFF for c in units_to_codepoints(units))
        unpaired += lone
        # equal to Node's UTF-8 where the units are well-formed, and exactly the
        # unpaired surrogates (as surrogate code points) where they differ
        if (WTF8.to_utf8(ours) != nb or (not lone and ours != nb)
                or WTF8.decode_codepoints(ours) != units_to_codepoints(units)):
            bad.append(f"  units {units_hex(units)}: Node {nb.hex(' ')}; wtf-8 {ours.hex(' ')} "
                       f"(to_utf8 {WTF8.to_utf8(ours).hex(' ')})")
    assert not bad, mismatches_message("wtf-8 vs Node Buffer.from(s, 'utf8')", bad, len(batch))
    assert 200 < unpaired < len(batch) - 200
