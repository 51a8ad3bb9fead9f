"""The JS export reads code units, byte orders, little-endian digits and the end of
the data exactly as the reference decoder core does (issue 17).

Every spec of issue 17 (utf-16le/be, utf-16, utf-32le/be, utf-32, wtf-16,
leb128, leb128-overlong, sqlite4-varint, git-offset-varint) and four small
specs written here (`end`: an action taken only where the data ends, with
16-bit and with 8-bit units; reasons of a spec's own; little-endian digits
whose weights pass 2**64) are exported to a temporary folder and driven by
one node process per spec: lines of hex in, one JSON line per input out (the
tokens with their reasons and the type of each value, the decoded string, and
scan's answer at each token's start).  Expected tokens are hand-written for
the cases below (from the units contract: CPython's spans and reasons) and
are the reference's (`encspec tokens`, the Python module) for the conformance
vectors and seeded random inputs.  UTF-16LE and UTF-16BE decode to the same
strings as Node's own TextDecoder, in replacement mode (one U+FFFD per error)
and in fatal mode (an error exactly where there is an error token).

A missing node skips naming it ("node not found"); ENCSPEC_REQUIRE_TOOLS=1
makes that a failure.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

import encspec
import tools
from encspec import pipeline
from encspec.pipeline import export
from encspec.spec import registry

TIMEOUT = 300
N_RANDOM = 300

SPECS = ["utf-16le", "utf-16be", "utf-16", "utf-32le", "utf-32be", "utf-32", "wtf-16",
         "leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]

# `end` (an action only where the data ends) is in no built-in spec: two made here.
AT_END_SPECS = {
    # 16-bit units: a lone lead unit at the very end is an error of its own reason
    "u16end": """
encoding u16end
title    "UTF-16LE whose lone lead unit at the end has a reason of its own"
code-unit  16 little-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form bmp:  xxxxxxxxxxxxxxxx
form pair: 110110xxxxxxxxxx 110111xxxxxxxxxx at U+10000
ill-formed pattern lead: 110110xxxxxxxxxx end "lone lead at the end"
reason invalid-start        "illegal encoding"
reason invalid-continuation "illegal UTF-16 surrogate"
""",
    # bytes: a lead at the end is an error; E0..FF at the end is a char (acc + offset)
    "u8end": """
encoding u8end
title    "two-byte sequences, and sequences that count only at the end"
code-space U+0000..U+81F
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx
form 3: 111xxxxx end at U+800
ill-formed pattern lead: 110xxxxx end "lead at the end"
""",
    # reasons of its own, the truncated unit's too
    "end-units": """
encoding end-units
code-unit 16 little-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form bmp: xxxxxxxxxxxxxxxx
form pair: 110110xxxxxxxxxx 110111xxxxxxxxxx at U+10000
ill-formed pattern lone: 110110xxxxxxxxxx end "a lead at the end"
reason truncated-unit "half a unit"
reason invalid-continuation "not a trail"
""",
    # little-endian digits whose weights pass 2**64 (BigInt), two forms only at the end
    "wide-end": """
encoding wide-end
code-space U+0000..
form 1: 0xxxxxxx
form le: FE 10xxxxxx{11} little-endian
form tail: FD 10xxxxxx{11} end
form tail-le: FC 10xxxxxx{12} end at U+FFFFFFFFFFFFFFF0 little-endian
""",
}

LE_BE = {"utf-16": ("utf-16le", "utf-16be"), "utf-32": ("utf-32le", "utf-32be")}
DECODER_LABEL = {"utf-16le": "utf-16le", "utf-16be": "utf-16be"}  # Node's TextDecoder labels

HARNESS = r"""
// node harness.mjs MODULE_URL [TEXTDECODER_LABEL] < lines of hex
// One JSON line per input: {t: tokens [kind, start, end, value hex | null, typeof value, reason],
// d: decode(data) as UTF-16 code units (hex), s: whether scan at each token's start (from the
// start state the signature chose) gives that token, n / f: Node's TextDecoder (replacement
// mode, ignoreBOM) as code units, and whether its fatal mode throws}.
import { readFileSync } from "node:fs";
const codec = await import(process.argv[2]);
const label = process.argv[3];
const lax = label ? new TextDecoder(label, { ignoreBOM: true }) : null;
const fatal = label ? new TextDecoder(label, { ignoreBOM: true, fatal: true }) : null;
const units = (s) => Array.from({ length: s.length }, (_, k) => s.charCodeAt(k).toString(16).padStart(4, "0")).join("");
const same = (a, b) => a.kind === b.kind && a.start === b.start && a.end === b.end && a.value === b.value
  && a.reason === b.reason;
const lines = readFileSync(0, "latin1").split("\n");
if (lines.length && lines[lines.length - 1] === "") lines.pop();
const out = [];
for (const line of lines) {
  const data = Uint8Array.from(Buffer.from(line, "hex"));
  const toks = [...codec.tokens(data)];
  const sig = codec.SIGNATURES.find((s) => data.length >= s.bytes.length && s.bytes.every((b, k) => data[k] === b));
  const options = sig === undefined ? undefined : { start: sig.start };
  const scanned = toks.every((t) => t.kind === "signature" || same(codec.scan(data, t.start, options), t));
  const row = {
    t: toks.map((t) => [t.kind, t.start, t.end, t.value === null ? null : t.value.toString(16).toUpperCase(),
      typeof t.value, t.reason]),
    d: units(codec.decode(data)),
    s: scanned,
  };
  if (label) {
    row.n = units(lax.decode(data));
    try {
      fatal.decode(data);
      row.f = false;
    } catch (e) {
      row.f = e instanceof TypeError;
    }
  }
  out.push(JSON.stringify(row));
}
process.stdout.write(out.map((l) => l + "\n").join(""));
"""

# (spec, input hex, expected tokens: (kind, start, end, value, reason)), hand-written
TARGETED = [
    ("utf-16be", "D80041", [("error", 0, 3, None, "unexpected end of data")]),
    ("utf-16be", "D8000041", [("error", 0, 2, None, "illegal UTF-16 surrogate"), ("char", 2, 4, 0x41, None)]),
    ("utf-16be", "DC00", [("error", 0, 2, None, "illegal encoding")]),
    ("utf-16be", "D800DC00", [("char", 0, 4, 0x10000, None)]),
    ("utf-16be", "D800DC", [("error", 0, 3, None, "unexpected end of data")]),
    ("utf-16be", "004100", [("char", 0, 2, 0x41, None), ("error", 2, 3, None, "truncated data")]),
    ("utf-16be", "FEFF", [("char", 0, 2, 0xFEFF, None)]),
    ("utf-16le", "3DD800DE", [("char", 0, 4, 0x1F600, None)]),
    ("utf-16le", "00D84100", [("error", 0, 2, None, "illegal UTF-16 surrogate"), ("char", 2, 4, 0x41, None)]),
    ("utf-16le", "FFFE4100", [("char", 0, 2, 0xFEFF, None), ("char", 2, 4, 0x41, None)]),
    ("utf-16", "FEFF0041", [("signature", 0, 2, None, None), ("char", 2, 4, 0x41, None)]),
    ("utf-16", "FFFE4100", [("signature", 0, 2, None, None), ("char", 2, 4, 0x41, None)]),
    ("utf-16", "4100", [("char", 0, 2, 0x41, None)]),
    ("utf-16", "FEFFD83DDE00D800", [("signature", 0, 2, None, None), ("char", 2, 6, 0x1F600, None),
                                    ("error", 6, 8, None, "unexpected end of data")]),
    ("utf-16", "FEFFFEFF", [("signature", 0, 2, None, None), ("char", 2, 4, 0xFEFF, None)]),
    ("utf-16", "FE", [("error", 0, 1, None, "truncated data")]),
    ("utf-32", "FFFE0000410000000000", [("signature", 0, 4, None, None), ("char", 4, 8, 0x41, None),
                                        ("error", 8, 10, None, "truncated data")]),
    ("utf-32", "FFFE00004100000000", [("signature", 0, 4, None, None), ("char", 4, 8, 0x41, None),
                                      ("error", 8, 9, None, "truncated data")]),
    ("utf-32", "0000FEFF00000041", [("signature", 0, 4, None, None), ("char", 4, 8, 0x41, None)]),
    ("utf-32", "FFFE", [("error", 0, 2, None, "truncated data")]),
    ("utf-32", "0000FEFF0000D800", [("signature", 0, 4, None, None),
                                    ("error", 4, 8, None, "code point in surrogate code point range(0xd800, 0xe000)")]),
    ("utf-32be", "00110000", [("error", 0, 4, None, "code point not in range(0x110000)")]),
    ("utf-32le", "00001100", [("error", 0, 4, None, "code point not in range(0x110000)")]),
    ("utf-32le", "00F80100", [("char", 0, 4, 0x1F800, None)]),
    ("wtf-16", "00D8", [("char", 0, 2, 0xD800, None)]),
    ("wtf-16", "00D800DC00DC", [("char", 0, 4, 0x10000, None), ("char", 4, 6, 0xDC00, None)]),
    ("wtf-16", "41", [("error", 0, 1, None, "truncated data")]),
    ("leb128", "E58E26", [("char", 0, 3, 624485, None)]),
    ("leb128", "8000", [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0, None)]),
    ("leb128", "FF" * 9 + "01", [("char", 0, 10, 2 ** 64 - 1, None)]),
    ("leb128", "FF" * 9 + "02", [("error", 0, 9, None, "invalid continuation byte"), ("char", 9, 10, 2, None)]),
    ("leb128", "80" * 9 + "01", [("char", 0, 10, 2 ** 63, None)]),
    ("leb128", "FFFF", [("error", 0, 2, None, "unexpected end of data")]),
    ("leb128-overlong", "8000", [("char", 0, 2, 0, None)]),
    ("leb128-overlong", "FF" * 9 + "01", [("char", 0, 10, 2 ** 64 - 1, None)]),
    ("sqlite4-varint", "F0", [("char", 0, 1, 240, None)]),
    ("sqlite4-varint", "F101", [("char", 0, 2, 241, None)]),
    ("sqlite4-varint", "FF" * 9, [("char", 0, 9, 2 ** 64 - 1, None)]),
    ("git-offset-varint", "8000", [("char", 0, 2, 128, None)]),
]

# the hand-written expectations of the `end` specs (read from their definitions)
TARGETED_AT_END = [
    ("u16end", "410000D8", [("char", 0, 2, 0x41, None), ("error", 2, 4, None, "lone lead at the end")]),
    ("u16end", "00D8", [("error", 0, 2, None, "lone lead at the end")]),
    ("u16end", "00D800", [("error", 0, 3, None, "unexpected end of data")]),  # a partial unit follows
    ("u16end", "00D84100", [("error", 0, 2, None, "illegal UTF-16 surrogate"), ("char", 2, 4, 0x41, None)]),
    ("u16end", "00D800DC", [("char", 0, 4, 0x10000, None)]),
    ("u8end", "C2", [("error", 0, 1, None, "lead at the end")]),
    ("u8end", "41E1", [("char", 0, 1, 0x41, None), ("char", 1, 2, 0x801, None)]),
    ("u8end", "C280E5", [("char", 0, 2, 0x80, None), ("char", 2, 3, 0x805, None)]),
    ("u8end", "FF", [("char", 0, 1, 0x81F, None)]),
    ("u8end", "C241", [("error", 0, 1, None, "invalid continuation byte"), ("char", 1, 2, 0x41, None)]),
    ("end-units", "00D841", [("error", 0, 3, None, "unexpected end of data")]),
    ("end-units", "00D84100", [("error", 0, 2, None, "not a trail"), ("char", 2, 4, 0x41, None)]),
    ("end-units", "410041", [("char", 0, 2, 0x41, None), ("error", 2, 3, None, "half a unit")]),
    ("end-units", "00D8", [("error", 0, 2, None, "a lead at the end")]),
    ("wide-end", "FD" + "BF" * 11, [("char", 0, 12, 2 ** 66 - 1, None)]),
    ("wide-end", "FD" + "BF" * 11 + "41",
     [("error", 0, 12, None, "invalid continuation byte"), ("char", 12, 13, 0x41, None)]),
    ("wide-end", "FC" + "80" * 11 + "81", [("char", 0, 13, (1 << 66) + 2 ** 64 - 16, None)]),
    ("wide-end", "FE81" + "80" * 10, [("char", 0, 12, 1, None)]),
    ("wide-end", "FE" + "80" * 10 + "BF", [("char", 0, 12, 63 << 60, None)]),
]

# pieces of the test specs' random documents
TEST_PIECES = {
    "u16end": ["4100", "00D8", "00DC", "3DD800DE", "FFFF", "41", "D8"],
    "u8end": ["41", "C2", "C280", "DFBF", "E5", "FF", "80"],
    "end-units": ["4100", "00D8", "00DC", "3DD800DE", "FFFF", "41", "D8"],
    "wide-end": ["41", "FE", "FD", "FC", "BF", "80", "81", "FE" + "BF" * 11, "FD" + "BF" * 11,
                 "FC" + "BF" * 12, "FD" + "80" * 11, "FC" + "81" * 12, "FE" + "80" * 10 + "81"],
}


# ------------------------------------------------------------- inputs
def module(spec: str):
    return _module(AT_END_SPEC_PATHS.get(spec, spec))


@cache
def _module(path: str):
    return encspec.load(path)


def _bits_value(rng, bits: int) -> int:
    return rng.randrange(1 << (bits - 1), 1 << bits) if bits else 0


def _random_body(spec: str, rng) -> bytes:
    """One piece of a document: an encoding of a code point or value, damaged sometimes."""
    a = automaton(spec)
    if a.unit == 1:  # the varints: values of every bit length up to 64
        seq = module(spec).encode([_bits_value(rng, rng.randrange(0, 65))])
    else:
        cp = rng.choice([rng.randrange(0x80), rng.randrange(0x10000), rng.randrange(0x10000, 0x110000),
                         rng.randrange(0xD800, 0xE000), 0xFEFF, 0xFFFE, 0xFFFF, 0x10FFFF])
        if 0xD800 <= cp < 0xE000 and spec != "wtf-16":
            seq = cp.to_bytes(a.unit, "little")  # a lone surrogate unit (an error)
        else:
            seq = module(spec).encode([cp])
    r = rng.random()
    if r < 0.55 or not seq:
        return seq
    if r < 0.7:
        return seq[:rng.randrange(len(seq))]
    if r < 0.85:
        k = rng.randrange(len(seq))
        return seq[:k] + bytes([rng.randrange(256)]) + seq[k + 1:]
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))


def random_inputs(spec: str, n: int = N_RANDOM) -> list[bytes]:
    rng = random.Random(f"units:{spec}")
    a = automaton(spec)
    out = []
    for _ in range(n):
        body_spec = spec
        doc = bytearray()
        if spec in LE_BE:
            r = rng.random()
            sigs = [sig for sig, _ in a.signatures]
            if r < 0.35:  # big-endian, after its signature
                doc += sigs[1]
                body_spec = LE_BE[spec][1]
            elif r < 0.6:
                doc += sigs[0]
                body_spec = LE_BE[spec][0]
            elif r < 0.7:
                sig = rng.choice(sigs)
                doc += sig[:rng.randrange(1, len(sig))]  # a partial signature is data
            if body_spec == spec:
                body_spec = LE_BE[spec][0]  # without a (whole) signature: little-endian
        for _ in range(rng.randrange(0, 8)):
            doc += _random_body(body_spec, rng)
        out.append(bytes(doc))
    return out


def exhaustive_inputs() -> list[bytes]:
    """Every input of up to 4 bytes over an alphabet that reaches each `end` state of AT_END_SPECS."""
    alphabet = [0x00, 0x41, 0x80, 0xC2, 0xD8, 0xDC, 0xE5, 0xFF]
    out = [b""]
    for _ in range(4):
        out += [x + bytes([b]) for x in out if len(x) == len(out[-1]) for b in alphabet]
    return list(dict.fromkeys(out))


def end_spec_docs(spec: str, n: int = N_RANDOM) -> list[bytes]:
    rng = random.Random(f"units-end:{spec}")
    pieces = [bytes.fromhex(h) for h in TEST_PIECES[spec]]
    return [b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 6))) for _ in range(n)]


def vector_inputs(spec: str) -> list[bytes]:
    path = Path(__file__).resolve().parents[1] / "generated" / "vectors" / f"{registry.module_name(spec)}.jsonl"
    if not path.is_file():
        return []
    return [bytes.fromhex(json.loads(line)["bytes"]) for line in path.read_text("utf-8").splitlines() if line]


# ------------------------------------------------------------- the reference
def expected(spec: str, data: bytes) -> list[tuple]:
    """The reference's tokens (kind, start, end, value, reason); reason None for chars and signatures."""
    return [(k, s, e, v, r if k in ("error", "reserved") else None) for k, s, e, v, r in module(spec)._tokens(data)]


def expected_units(spec: str, data: bytes) -> str:
    """What decode gives: chars (U+FFFD beyond U+10FFFF), U+FFFD per error, as UTF-16 code units in hex."""
    text = "".join(chr(v) if k == "char" and v <= 0x10FFFF else "\ufffd"
                   for k, _, _, v, _ in expected(spec, data) if k != "signature")
    raw = text.encode("utf-16-be", "surrogatepass")
    return "".join(f"{int.from_bytes(raw[i:i + 2], 'big'):04x}" for i in range(0, len(raw), 2))


# ------------------------------------------------------------- the export
def automaton(spec: str):
    return _automaton(AT_END_SPEC_PATHS.get(spec, spec))


@cache
def _automaton(path: str):
    return pipeline.load(path)[1]


AT_END_SPEC_PATHS: dict[str, str] = {}


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """spec -> {input hex: its row}: each spec's inputs run by one node process, once."""
    node = tools.need(tools.node)
    root = tmp_path_factory.mktemp("units-js")
    for name, text in AT_END_SPECS.items():
        path = root / f"{name}.encspec"
        path.write_text(text.lstrip(), "utf-8")
        AT_END_SPEC_PATHS[name] = str(path)
    (root / "harness.mjs").write_text(HARNESS, "utf-8")
    results: dict[str, dict[str, dict]] = {}

    def rows(spec: str) -> dict[str, dict]:
        if spec in results:
            return results[spec]
        out = root / spec
        export(automaton(spec), "js", out)
        mod = out / f"{registry.module_name(automaton(spec).name)}.mjs"
        items = [bytes.fromhex(h) for s, h, _ in TARGETED + TARGETED_AT_END if s == spec]
        if spec in SPECS:
            items += vector_inputs(spec) + random_inputs(spec)
        else:
            items += exhaustive_inputs() + end_spec_docs(spec)
        items = list(dict.fromkeys(items))
        cmd = [node, str(root / "harness.mjs"), mod.as_uri()] + ([DECODER_LABEL[spec]] if spec in DECODER_LABEL else [])
        proc = subprocess.run(cmd, input="".join(x.hex() + "\n" for x in items).encode("ascii"),
                              capture_output=True, timeout=TIMEOUT)
        assert proc.returncode == 0 and not proc.stderr, proc.stderr.decode(errors="replace")[-3000:]
        lines = proc.stdout.decode("utf-8").splitlines()
        assert len(lines) == len(items), f"{len(lines)} answers for {len(items)} inputs"
        results[spec] = {x.hex().upper(): json.loads(line) for x, line in zip(items, lines)}
        return results[spec]

    return rows


def _tokens_of(row) -> list[tuple]:
    return [(k, s, e, None if v is None else int(v, 16), r) for k, s, e, v, _, r in row["t"]]


# ------------------------------------------------------------- tests
@pytest.mark.parametrize("spec, hexdata, want", TARGETED + TARGETED_AT_END,
                         ids=[f"{s}-{h[:24]}" for s, h, _ in TARGETED + TARGETED_AT_END])
def test_the_contract_cases(driver, spec, hexdata, want):
    """Hand-written spans and reasons; the reference says the same."""
    row = driver(spec)[hexdata]
    assert _tokens_of(row) == want
    assert expected(spec, bytes.fromhex(hexdata)) == want
    assert row["s"], "scan at a token's start differs from tokens"


def test_values_past_2_53_are_bigints_and_smaller_ones_numbers(driver):
    rows = driver("leb128")
    assert rows["E58E26"]["t"][0][3:5] == ["98765", "number"]
    assert rows["FF" * 9 + "01"]["t"][0][3:5] == ["FFFFFFFFFFFFFFFF", "bigint"]
    assert rows["80" * 9 + "01"]["t"][0][3:5] == ["8000000000000000", "bigint"]
    assert driver("sqlite4-varint")["FF" * 9]["t"][0][4] == "bigint"
    assert driver("utf-16")["FEFF0041"]["t"][1][4] == "number"


@pytest.mark.parametrize("spec", SPECS)
def test_vectors_and_random_inputs_match_the_reference(driver, spec):
    """The conformance vectors and seeded random inputs: tokens (with reasons) and decode."""
    rows = driver(spec)
    items = vector_inputs(spec) + random_inputs(spec)
    assert len(items) >= N_RANDOM
    bad = []
    for data in items:
        row = rows[data.hex().upper()]
        want = expected(spec, data)
        if _tokens_of(row) != want or row["d"] != expected_units(spec, data) or not row["s"]:
            bad.append(f"{data.hex(' ').upper() or '(empty)'}\n  want {want}\n  got  {row}")
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:8])


def test_the_random_inputs_reach_every_kind_of_token():
    """The random inputs hit what this is about: both byte orders, truncated units, unit errors."""
    seen = set()
    for spec in ("utf-16", "utf-32"):
        for data in random_inputs(spec):
            toks = expected(spec, data)
            seen |= {(spec, k, r) for k, _, _, _, r in toks}
            if toks and toks[0][0] == "signature":
                seen.add((spec, "order", data[:2].hex()))
    for spec in ("utf-16", "utf-32"):
        assert {(spec, "order", "fffe"), (spec, "signature", None), (spec, "error", "truncated data")} <= seen
    assert ("utf-16", "order", "feff") in seen and ("utf-32", "order", "0000") in seen
    assert ("utf-16", "error", "illegal UTF-16 surrogate") in seen
    assert ("utf-16", "error", "unexpected end of data") in seen


@pytest.mark.parametrize("spec", sorted(DECODER_LABEL))
def test_decode_equals_nodes_own_textdecoder(driver, spec):
    """decode(data) is new TextDecoder(label, {ignoreBOM: true}).decode(data): one U+FFFD per
    error; the fatal TextDecoder throws exactly where there is an error token."""
    rows = driver(spec)
    bad = []
    for data in vector_inputs(spec) + random_inputs(spec):
        row = rows[data.hex().upper()]
        has_error = any(t[0] == "error" for t in row["t"])
        if row["d"] != row["n"] or row["f"] != has_error:
            bad.append(f"{data.hex(' ').upper()}: ours {row['d']} node {row['n']} fatal threw {row['f']}")
    assert not bad, "\n".join(bad[:8])


@pytest.mark.parametrize("spec", sorted(AT_END_SPECS))
def test_end_actions_match_the_reference_exhaustively(driver, spec):
    """`end` sequences (an action where the data ends, in units of 2 bytes and of 1), the
    spec's own reasons, weights past 2**64: every input of up to 4 bytes over the specs'
    interesting bytes, and seeded documents of their sequences."""
    rows = driver(spec)
    items = exhaustive_inputs() + end_spec_docs(spec)
    assert len(items) > 4000
    bad = []
    for data in items:
        row = rows[data.hex().upper()]
        want = expected(spec, data)
        if _tokens_of(row) != want or row["d"] != expected_units(spec, data) or not row["s"]:
            bad.append(f"{data.hex(' ').upper() or '(empty)'}\n  want {want}\n  got  {row}")
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:8])


def _engine(text: str) -> str:
    """The module's decoder engine: the steps, the token scanner, tokens and
    decodeCodePoints, without the module-level data between them (`const ...`)
    and with the literals the engine spells its flags with (`/* NAME */ value`)
    as their names (the counted forms' own scanners are left out: they are
    generated from each form's expressions)."""
    def part(first: str, last: str) -> str:
        return text[text.index(first):text.index(last)]
    code = part("function token(", "// ------------------------------------------------------------ counted forms") + \
        part("function act(", "export function decode(")
    code = "\n".join(line for line in code.split("\n") if not line.startswith("const "))
    return re.sub(r"/\* (\w+) \*/ [\w.]+", r"\1", code)


def test_the_module_names_the_spec_reasons_and_weights_as_data():
    """Reasons come from the spec (utf-16's); the decoder engine is one text for every spec,
    which it reads as data: a weight-1, byte-unit spec differs in its folded flags (WEIGHTED
    false), its UNIT (1) and its end-of-data actions (all -1), not in its code; so do specs
    with mapping tables, counted forms and table entries of several code points."""
    from encspec.emit.targets import targets
    js = targets()["js"]
    text = js.files(pipeline.load("utf-16")[1])["utf_16.mjs"]
    for reason in ("illegal encoding", "illegal UTF-16 surrogate", "unexpected end of data", "truncated data"):
        assert f'"{reason}"' in text
    assert '"invalid start byte"' not in text and "/* WEIGHTED */ true ?" in text
    assert "{ bytes: new Uint8Array([0xFE, 0xFF]), start: 6 }" in text
    dts = js.files(pipeline.load("utf-16")[1])["utf_16.d.ts"]
    assert 'REASON_START: "illegal encoding"' in dts
    narrow = js.files(pipeline.load("utf-8")[1])["utf_8.mjs"]
    assert "/* WEIGHTED */ false ?" in narrow and "% /* UNIT */ 1;" in narrow and "% /* UNIT */ 2;" in text
    at_end = narrow[narrow.index("const AT_END"):].split("\n", 1)[0]
    assert set(re.findall(r"-?\d+", at_end.split("[", 1)[1])) == {"-1"}
    assert _engine(narrow) == _engine(text)
    for spec in ("shift_jis", "utf-inf-8", "whatwg-big5"):  # tables, counted forms, entries of several
        other = js.files(pipeline.load(spec)[1])[f"{registry.module_name(spec)}.mjs"]
        assert _engine(other) == _engine(narrow), spec
    assert "acc = acc * RADIX[k] + (/* WEIGHTED */ false ? (b - SUB[k]) * WEIGHT[k] : b - SUB[k]);" in narrow


TS_CONSUMER = """
import { tokens, scan, decode, SIGNATURES, UNIT, REASON_TRUNCATED, REASON_START, type Token, type CodePoint,
         type Signature, type Options } from "PKG";
const data: Uint8Array = new Uint8Array([0xFE, 0xFF, 0x00, 0x41]);
const all: Token[] = [...tokens(data)];
const sig: Signature | undefined = SIGNATURES.find((s) => s.bytes.every((b, k) => data[k] === b));
const options: Options = { start: sig === undefined ? 0 : sig.start, countedLimit: null };
const t: Token = scan(data, 2, options);
if (t.kind === "char") { const v: CodePoint = t.value; void v; }
const u: number = UNIT;
const reasons: string[] = [REASON_TRUNCATED, REASON_START];
const s: string = decode(data);
void all; void u; void reasons; void s;
"""


@pytest.mark.parametrize("spec", ["utf-16", "leb128", "utf-32le"])
def test_types_check_with_tsc(tmp_path, spec):
    """The .d.ts of unit specs (SIGNATURES, options.start, UNIT, the reasons) compiles under tsc --strict."""
    tsc = tools.need(lambda: tools.find("tsc", hint="install TypeScript (npm install -g typescript); not attempted"))
    out = tmp_path / "pkg"
    export(pipeline.load(spec)[1], "js", out)
    name = json.loads((out / "package.json").read_text("utf-8"))["name"]
    app = tmp_path / "app"
    (app / "node_modules").mkdir(parents=True)
    (app / "node_modules" / name).symlink_to(out, target_is_directory=True)
    (app / "main.mts").write_text(TS_CONSUMER.replace("PKG", name), "utf-8")
    proc = subprocess.run([tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
                           "--target", "es2022", "main.mts"], cwd=app, capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
