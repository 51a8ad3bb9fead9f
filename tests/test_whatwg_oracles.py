"""Tests of the WHATWG legacy CJK oracles (tests/oracles/whatwg_*.py) against the
standard's own worked facts and against two real TextDecoders.

Sources:
  * encoding.bs (whatwg/encoding at commit a985b62a9b45), the sections named in
    tests/oracles/whatwg_cjk.py; tests/data/whatwg_cjk_facts.txt holds facts copied
    from it and from the index files, each worked out by hand in its comments.
  * Chromium's TextDecoder (Debian's chromium, headless) and Node's, driven in batches
    by tests/browser_reference.py.  Where they differ from the standard, the
    difference is written down: tests/data/chromium_textdecoder_deviations.txt (a
    list, and two modelled rules) and tests/data/node_textdecoder_deviations.md (a
    predicate per class of inputs).  The tests check those documents both ways, so a
    change in either implementation, or a wrong oracle, fails them.

What is compared with a TextDecoder: the "replacement" text (as code points) and
whether the {fatal: true} decoder throws, for a fresh decoder per input.  Inputs:
every input of one and two bytes for each label; for gb18030 and gbk a first byte in
{81, 84, 8F, 90, E3, FE}, a digit 30..39, then any byte (3 bytes) or a byte in
{81, 9A, A5, D2, FE} and any byte (4 bytes, digits included); for euc-jp every
8F xx yy with xx in A1..FE; and (Chromium only) a few thousand seeded random inputs
of up to 40 bytes per label, weighted toward the encoding's lead and trail bytes.
Chromium and Node are each started once for the whole file (session fixtures).
"""
from __future__ import annotations

import random
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA, examples

# one import in two places, its names packed: import sorting would spread each over 13 lines
# isort: off
try:
    from tests.oracles import (whatwg_big5, whatwg_cjk, whatwg_euc_jp, whatwg_euc_kr,
                               whatwg_gb18030, whatwg_gbk, whatwg_shift_jis)
except ImportError:  # tests/ put on sys.path by pytest's rootdir insertion
    from oracles import (whatwg_big5, whatwg_cjk, whatwg_euc_jp, whatwg_euc_kr,
                         whatwg_gb18030, whatwg_gbk, whatwg_shift_jis)
# isort: on

import browser_reference

MODULES = [whatwg_shift_jis, whatwg_euc_jp, whatwg_euc_kr, whatwg_big5, whatwg_gb18030, whatwg_gbk]
ORACLE = {m.LABEL: m for m in MODULES}
LABELS = list(ORACLE)

FACTS = DATA / "whatwg_cjk_facts.txt"
CHROMIUM_DOC = DATA / "chromium_textdecoder_deviations.txt"
NODE_DOC = DATA / "node_textdecoder_deviations.md"


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def u(token: str) -> int:
    assert token.startswith("U+"), token
    return int(token[2:], 16)


# ====================================================================== inputs
GB_FIRST = [0x81, 0x84, 0x8F, 0x90, 0xE3, 0xFE]
GB_THIRD = [0x81, 0x9A, 0xA5, 0xD2, 0xFE]


@cache
def exhaustive(label: str) -> tuple:
    """The inputs every TextDecoder comparison covers for ``label``."""
    out = [bytes([a]) for a in range(256)]
    out += [bytes([a, b]) for a in range(256) for b in range(256)]
    if label in ("gb18030", "gbk"):
        out += [bytes([a, b, c]) for a in GB_FIRST for b in range(0x30, 0x3A) for c in range(256)]
        out += [bytes([a, b, c, d]) for a in GB_FIRST for b in range(0x30, 0x3A)
                for c in GB_THIRD for d in range(256)]
    if label == "euc-jp":
        out += [bytes([0x8F, b, c]) for b in range(0xA1, 0xFF) for c in range(256)]
    return tuple(out)


# Byte pools for the random inputs: each encoding's leads, trails and edge bytes.
POOLS = {
    "shift_jis": [range(0x81, 0xA0), range(0xE0, 0xFD), range(0x40, 0x7F), range(0x80, 0xFD),
                  range(0xA1, 0xE0), [0x80, 0xA0, 0xFD, 0xFE, 0xFF, 0xF0, 0xF9, 0xED, 0xEE, 0xFA]],
    "euc-jp": [range(0xA1, 0xFF), range(0xA1, 0xFF), [0x8E, 0x8F], range(0xA1, 0xE0),
               [0x80, 0xA0, 0xFF, 0xE0, 0xE5, 0xF3, 0xB0]],
    "euc-kr": [range(0x81, 0xFF), range(0x41, 0xFF), range(0xA1, 0xFF),
               [0x80, 0xFF, 0x8E, 0x8F, 0xA0, 0xC9, 0xFE, 0xC6, 0x52, 0x53]],
    "big5": [range(0x81, 0xFF), range(0xA1, 0xFF), range(0x40, 0x7F),
             [0x80, 0xFF, 0x88, 0x62, 0x64, 0xA3, 0xA5, 0xC6, 0xC7, 0xF9, 0xFE, 0xA0]],
    "gb18030": [range(0x81, 0xFF), range(0x40, 0xFF), range(0x30, 0x3A), range(0x30, 0x3A),
                [0x80, 0xFF, 0x7F, 0x81, 0x84, 0x8F, 0x90, 0xE3, 0xFE, 0xA5, 0xA6, 0xA8]],
}
POOLS["gbk"] = POOLS["gb18030"]

# Whole sequences spliced in now and then: the documented Chromium deviations (so that
# the random test exercises its models) and the four-byte boundaries of gb18030.
PIECES = {
    "shift_jis": ["81 40", "F0 40", "F9 FC", "ED 40", "FA 5C", "81 7F", "85 40"],
    "euc-jp": ["8F A1 41", "8F A1 80", "8F A1 8E", "8F A2 AF", "8F A1 A1", "8E A1", "B0 A1",
               "8F F3 A1", "A1 A1"],
    "euc-kr": ["81 41", "A1 A1", "C6 52", "C6 53", "A2 E6", "C9 A1"],
    "big5": ["88 62", "88 64", "88 A3", "88 A5", "88 63", "A1 40", "F9 FE", "A3 E1"],
    "gb18030": ["81 30 81 30", "81 35 F4 37", "84 31 A4 39", "84 31 A5 30", "90 30 81 30",
                "E3 32 9A 35", "E3 32 9A 36", "A3 A0", "A6 D9", "81 30 81", "81 30"],
}
PIECES["gbk"] = PIECES["gb18030"]
RANDOM_PER_LABEL = 2500


def random_inputs(label: str) -> list:
    """Seeded random inputs of 1..40 bytes for ``label`` (the same on every run)."""
    rng = random.Random(f"whatwg-{label}-2026")
    pools = POOLS[label]
    pieces = [h(p) for p in PIECES[label]]
    out = []
    for _ in range(RANDOM_PER_LABEL):
        n = rng.randint(1, 40)
        data = bytearray()
        while len(data) < n:
            r = rng.random()
            if r < 0.25:
                data.append(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0x00, 0x80)]))
            elif r < 0.35:
                data += rng.choice(pieces)
            else:
                data.append(rng.choice(rng.choice(pools)))
        out.append(bytes(data[:n]))
    return out


# ====================================================================== oracle side
_ORACLE_CACHE: dict = {}


def standard(label: str, data: bytes):
    """(code points, fatal throws) by the standard (the oracle), cached."""
    key = (label, data)
    got = _ORACLE_CACHE.get(key)
    if got is None:
        toks = ORACLE[label].tokens(data)
        got = (whatwg_cjk.replacement_output(toks), any(t[0] == "error" for t in toks))
        _ORACLE_CACHE[key] = got
    return got


# ====================================================================== the documents
def parse_side(text: str):
    words = text.split()
    throws = bool(words) and words[-1] == "throws"
    if throws:
        words = words[:-1]
    return ([u(w) for w in words], throws)


@cache
def chromium_doc():
    """{"decode": [(label, bytes, std, chromium, rule)], "state": [...], "rules": [...]}"""
    out = {"decode": [], "state": [], "rules": []}
    rule = None
    for line in CHROMIUM_DOC.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("rule "):
            rule = line.split()[1]
            out["rules"].append(rule)
            continue
        m = re.fullmatch(r"(decode|state) (\S+) (.+?) => (.+?) \| (.+)", line)
        assert m, f"unreadable line in {CHROMIUM_DOC.name}: {line!r}"
        kind, label, inputs, std, chrome = m.groups()
        std, chrome = parse_side(std), parse_side(chrome)
        if kind == "decode":
            out["decode"].append((label, h(inputs), std, chrome, rule))
        else:
            out["state"].append((label, [h(x) for x in inputs.split(";")], std, chrome))
    return out


def parse_token(text: str):
    words = text.split()
    kind, start, end = words[0], int(words[1]), int(words[2])
    if kind == "error":
        assert len(words) == 3, text
        return ("error", start, end, None)
    assert kind == "char" and len(words) in (4, 5), text
    cps = [u(w) for w in words[3:]]
    return ("char", start, end, cps[0] if len(cps) == 1 else tuple(cps))


def facts():
    out = []
    for n, line in enumerate(FACTS.read_text("utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = re.fullmatch(r"(decode|encode) (\S+) (.+?) => (.+)", line)
        assert m, f"{FACTS.name}:{n}: unreadable line {line!r}"
        kind, label, lhs, rhs = m.groups()
        assert label in ORACLE, f"{FACTS.name}:{n}: unknown label {label}"
        if kind == "decode":
            out.append(pytest.param("decode", label, h(lhs),
                                    [parse_token(t) for t in rhs.split(";")], id=f"{n}:{line}"))
        else:
            out.append(pytest.param("encode", label, u(lhs),
                                    None if rhs.strip() == "error" else h(rhs), id=f"{n}:{line}"))
    return out


FACTS_PARAMS = facts()


# ====================================================================== a. worked facts
@pytest.mark.parametrize("kind, label, given_, expected", FACTS_PARAMS)
def test_fact(kind, label, given_, expected):
    oracle = ORACLE[label]
    if kind == "decode":
        assert oracle.tokens(given_) == expected
        cps, throws = standard(label, given_)
        assert throws == any(t[0] == "error" for t in expected)
    elif expected is None:
        assert oracle.encode_positions([given_]) == (b"", [0])
        with pytest.raises(ValueError):
            oracle.encode([given_])
    else:
        assert oracle.encode_positions([given_]) == (expected, [])
        assert oracle.encode([given_]) == expected


def test_facts_cover_every_label_both_ways():
    seen = {(p.values[0], p.values[1]) for p in FACTS_PARAMS}
    assert seen == {(k, label) for k in ("decode", "encode") for label in LABELS}


def test_index_files_are_as_the_standard_describes():
    """"Indexes": 207 ranges in index gb18030 ranges; pointers unique (Index checks it);
    "If pointer is non-null, it is less than 8836" (EUC-JP encoder, on index jis0208);
    the four Big5 two-code-point pointers are not in index Big5."""
    assert len(whatwg_cjk.read_index_file("index-gb18030-ranges.txt")) == 207
    jis0208 = whatwg_cjk.index("jis0208")
    assert all(jis0208.pointer(cp) < 8836 for _, cp in jis0208.entries)
    big5 = whatwg_cjk.index("big5")
    assert all(big5.code_point(p) is None for p in (1133, 1135, 1164, 1166))


def test_encode_reports_every_unencodable_index():
    data, bad = whatwg_gbk.encode_positions([0x41, 0xE5E5, 0x20AC, 0x10000, 0xD800, 0x42])
    assert (data, bad) == (b"A\x80B", [1, 3, 4])
    with pytest.raises(ValueError, match="index 1"):
        whatwg_shift_jis.encode([0x41, 0xE000])
    with pytest.raises(ValueError):
        whatwg_big5.encode([0x110000])


@settings(max_examples=examples(300), deadline=None)
@given(label=st.sampled_from(LABELS), data=st.binary(max_size=24))
def test_tokens_tile_the_input(label, data):
    """Every byte is in exactly one token; chars are scalar values of 1..4 bytes."""
    toks = ORACLE[label].tokens_with_reasons(data)
    at = 0
    for kind, start, end, value, reason in toks:
        assert start == at and end > start
        at = end
        if kind == "char":
            assert end - start <= 4 and reason is None
            for cp in (value if isinstance(value, tuple) else (value,)):
                assert 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF
        else:
            assert kind == "error" and value is None and reason
    assert at == len(data)


# ====================================================================== Chromium
@pytest.fixture(scope="session")
def chromium_runs():
    """One Chromium run for everything: {label: {"exhaustive": [...], "random": [...],
    "documented": [...]}} of (code points, throws), and the inputs."""
    doc = chromium_doc()
    parts = {}
    jobs = {}
    for label in LABELS:
        documented = [x for lab, x, *_ in doc["decode"] if lab == label]
        parts[label] = {"exhaustive": list(exhaustive(label)), "random": random_inputs(label),
                        "documented": documented}
        jobs[label] = [x for part in parts[label].values() for x in part]
    answers = browser_reference.chromium_decode_many(jobs)
    out = {}
    for label in LABELS:
        got = iter(answers[label])
        out[label] = {name: (inputs, [next(got) for _ in inputs])
                      for name, inputs in parts[label].items()}
    return out


def test_chromium_exhaustive_deviations_are_exactly_the_documented_ones(chromium_runs):
    found = set()
    for label in LABELS:
        inputs, answers = chromium_runs[label]["exhaustive"]
        for x, got in zip(inputs, answers):
            want = standard(label, x)
            if got != want:
                found.add((label, x.hex(), str(want), str(got)))
    covered = {label: set(exhaustive(label)) for label in LABELS}
    documented = {(label, x.hex(), str(std), str(chrome))
                  for label, x, std, chrome, _rule in chromium_doc()["decode"]
                  if x in covered[label]}     # (the longer ones: the next test)
    assert found == documented


def test_chromium_documented_lines_hold(chromium_runs):
    """Each "decode" line: the standard side is the oracle's, the Chromium side Chromium's."""
    doc = chromium_doc()
    assert doc["decode"], "the document lists deviations"
    for label, x, std, chrome, _rule in doc["decode"]:
        inputs, answers = chromium_runs[label]["documented"]
        got = answers[inputs.index(x)]
        assert standard(label, x) == tuple(std), (label, x.hex())
        assert got == tuple(chrome), (label, x.hex())


def test_chromium_state_carried_between_decode_calls():
    """The "state" lines: one TextDecoder reused (as the standard allows) for several
    inputs; a fresh one for the last input alone agrees with the standard."""
    doc = chromium_doc()
    assert doc["state"]
    sequences = [inputs for _label, inputs, _s, _c in doc["state"]]
    labels = {label for label, *_ in doc["state"]}
    assert len(labels) == 1, "one Chromium run per label"
    label = labels.pop()
    reused = browser_reference.chromium_decode_sequences(
        label, sequences + [[seq[-1]] for seq in sequences])
    n = len(sequences)
    for (_, inputs, std, chrome), got, alone in zip(doc["state"], reused[:n], reused[n:]):
        assert standard(label, inputs[-1]) == tuple(std)
        assert got[-1] == tuple(chrome), [x.hex() for x in inputs]
        assert alone[0] == tuple(std), [x.hex() for x in inputs]


class ChromiumEUCJPDecoder(whatwg_cjk.EUCJPDecoder):
    """The standard's EUC-JP decoder with the deviation "euc-jp-jis0212-flag": step 5.5
    ("Set EUC-JP jis0212 to false") runs only when step 5.4 looked the pointer up."""

    def handler(self, io_queue, byte):
        lead = self.leading
        if (byte is not whatwg_cjk.END_OF_QUEUE and lead != 0x00
                and not (lead == 0x8E and 0xA1 <= byte <= 0xDF)
                and not (lead == 0x8F and 0xA1 <= byte <= 0xFE)
                and not (0xA1 <= lead <= 0xFE and 0xA1 <= byte <= 0xFE)):
            flag = self.jis0212
            result = super().handler(io_queue, byte)
            self.jis0212 = flag
            return result
        return super().handler(io_queue, byte)


def chromium_model(label: str, data: bytes):
    """What Chromium gives by the documented rules: the standard's output with each Big5
    two-code-point token replaced ("big5-pairs"), and EUC-JP by ChromiumEUCJPDecoder."""
    doc = chromium_doc()
    assert set(doc["rules"]) == {"big5-pairs", "euc-jp-jis0212-flag"}
    if label == "euc-jp":
        toks = whatwg_cjk.run_decoder(ChromiumEUCJPDecoder(), data)
    else:
        toks = ORACLE[label].tokens_with_reasons(data)
    pairs = {x: chrome[0] for lab, x, _std, chrome, rule in doc["decode"]
             if rule == "big5-pairs" and lab == label}
    out = []
    for kind, start, end, value, _reason in toks:
        if kind == "error":
            out.append(0xFFFD)
        elif data[start:end] in pairs:
            assert isinstance(value, tuple)
            out.extend(pairs[data[start:end]])
        else:
            out.extend(value if isinstance(value, tuple) else (value,))
    return (out, any(t[0] == "error" for t in toks))


def test_chromium_random_inputs_agree_with_the_standard_and_its_documented_deviations(
        chromium_runs):
    modelled = {label: 0 for label in LABELS}
    for label in LABELS:
        inputs, answers = chromium_runs[label]["random"]
        bad = []
        for x, got in zip(inputs, answers):
            want = chromium_model(label, x)
            if want != standard(label, x):
                modelled[label] += 1
            if got != want:
                bad.append((x.hex(), want, got))
        assert not bad, f"{label}: {len(bad)} random inputs disagree, e.g. {bad[:3]}"
    # the rules were exercised (the pieces splice in 88 62... and 8F A1 41 B0 A1-like runs)
    assert modelled["big5"] > 0 and modelled["euc-jp"] > 0
    assert all(modelled[label] == 0 for label in LABELS if label not in ("big5", "euc-jp"))


# ====================================================================== Node
C1 = set(range(0x80, 0x8E)) | set(range(0x90, 0xA0))
SJIS_LEAD = set(range(0x81, 0xA0)) | set(range(0xE0, 0xFD))
BIG5_OUTSIDE_LEADS = set(range(0x81, 0xA1)) | {0xC7, 0xC8} | set(range(0xFA, 0xFF))
GBK_2005_CELLS = ({0xA2E3, 0xA3A0, 0xA6EC, 0xA6ED, 0xA6F3, 0xA8BC, 0xA8BF}
                  | set(range(0xA6D9, 0xA6E0)) | set(range(0xA989, 0xA996))
                  | set(range(0xFE50, 0xFEA1)))


def _errors2(d, ts):
    return [(d[t[1]], d[t[1] + 1]) for t in ts if t[0] == "error" and t[2] - t[1] == 2]


def _chars2(d, ts):
    return [(d[t[1]], d[t[1] + 1], t[3]) for t in ts if t[0] == "char" and t[2] - t[1] == 2]


# Predicates over (input, the standard's tokens); keys as in node_textdecoder_deviations.md.
NODE_PREDICATES = {
    "shift_jis/ibm-control-swap": lambda d, ts: any(b in (0x1A, 0x1C, 0x7F) for b in d),
    "shift_jis/0x80-alone": lambda d, ts: any(
        t[0] == "char" and t[2] - t[1] == 1 and t[3] == 0x80 for t in ts),
    "shift_jis/trail-fd-ff": lambda d, ts: any(b >= 0xFD for _a, b in _errors2(d, ts)),
    "shift_jis/unmapped-ascii-trail": lambda d, ts: any(
        t[0] == "error" and t[2] - t[1] == 1 and d[t[1]] in SJIS_LEAD
        and t[2] < len(d) and 0x40 <= d[t[2]] <= 0x7E for t in ts),

    "euc-jp/c1-controls": lambda d, ts: any(b in C1 for b in d),
    "euc-jp/single-shift-as-trail": lambda d, ts: any(b in (0x8E, 0x8F) for _a, b in _errors2(d, ts)),
    "euc-jp/8e-e0-e2": lambda d, ts: any(a == 0x8E and 0xE0 <= b <= 0xE2 for a, b in _errors2(d, ts)),
    "euc-jp/8e-e5-fe": lambda d, ts: any(a == 0x8E and 0xE5 <= b <= 0xFE for a, b in _errors2(d, ts)),
    "euc-jp/8f-bad-third": lambda d, ts: any(
        t[0] == "error" and t[2] - t[1] >= 2 and d[t[1]] == 0x8F and 0xA1 <= d[t[1] + 1] <= 0xFE
        and t[1] + 2 < len(d) and not 0xA1 <= d[t[1] + 2] <= 0xFE for t in ts),
    "euc-jp/ibm-8f-f3": lambda d, ts: any(
        t[0] == "error" and t[2] - t[1] == 3 and d[t[1]:t[1] + 2] == b"\x8F\xF3"
        and (0xA1 <= d[t[1] + 2] <= 0xB4 or d[t[1] + 2] == 0xB7) for t in ts),

    "euc-kr/c1-controls": lambda d, ts: any(b in C1 for b in d),
    "euc-kr/uhc": lambda d, ts: any(
        0x81 <= a <= 0xA0 or 0x41 <= b <= 0xA0 for a, b, _cp in _chars2(d, ts)),
    "euc-kr/user-defined-rows": lambda d, ts: any(
        a in (0xC9, 0xFE) and 0xA1 <= b <= 0xFE for a, b in _errors2(d, ts)),
    "euc-kr/a2e6-a2e7": lambda d, ts: any(
        (a, b) in ((0xA2, 0xE6), (0xA2, 0xE7)) for a, b, _cp in _chars2(d, ts)),
    "euc-kr/single-shift-as-trail": lambda d, ts: any(b in (0x8E, 0x8F) for _a, b in _errors2(d, ts)),
    "euc-kr/lead-8e-8f-a0-ff": lambda d, ts: any(a in (0x8E, 0x8F, 0xA0) for a, _b in _errors2(d, ts)),

    "big5/80-ff": lambda d, ts: 0xFF in d or any(
        t[0] == "error" and t[2] - t[1] == 1 and d[t[1]] == 0x80 for t in ts),
    "big5/outside-big5": lambda d, ts: any(
        t[1] + 1 < len(d) and (
            d[t[1]] in BIG5_OUTSIDE_LEADS and (0x40 <= d[t[1] + 1] <= 0x7E or 0xA1 <= d[t[1] + 1] <= 0xFE)
            or d[t[1]] == 0xC6 and 0xA1 <= d[t[1] + 1] <= 0xFE) for t in ts),
    "big5/control-pictures": lambda d, ts: any(
        a == 0xA3 and 0xC0 <= b <= 0xE0 for a, b, _cp in _chars2(d, ts)),
    "big5/f9fe": lambda d, ts: any((a, b) == (0xF9, 0xFE) for a, b, _cp in _chars2(d, ts)),

    "gbk/ff": lambda d, ts: 0xFF in d,
    "gbk/four-byte": lambda d, ts: any(t[2] - t[1] >= 2 and 0x30 <= d[t[1] + 1] <= 0x39 for t in ts),
    "gbk/gb18030-2005-cells": lambda d, ts: any(
        (a << 8 | b) in GBK_2005_CELLS and not 0xE000 <= cp <= 0xF8FF for a, b, cp in _chars2(d, ts)),
}


@pytest.fixture(scope="session")
def node_runs():
    jobs = {label: list(exhaustive(label)) for label in LABELS}
    answers = browser_reference.node_decode_many(jobs)
    return {label: (jobs[label], answers[label]) for label in LABELS}


def test_node_deviation_document_names_every_predicate():
    text = NODE_DOC.read_text("utf-8")
    documented = set(re.findall(r"\*\*`([a-z0-9_-]+/[a-z0-9-]+)`\*\*", text))
    assert documented == set(NODE_PREDICATES)


@pytest.mark.parametrize("label", LABELS)
def test_node_disagrees_exactly_where_the_documented_predicates_say(node_runs, label):
    inputs, answers = node_runs[label]
    preds = {k: f for k, f in NODE_PREDICATES.items() if k.split("/")[0] == label}
    unexplained, wrongly_predicted = [], []
    hits = {k: 0 for k in preds}
    for x, got in zip(inputs, answers):
        toks = ORACLE[label].tokens(x)
        matched = [k for k, f in preds.items() if f(x, toks)]
        for k in matched:
            hits[k] += 1
        differs = got != standard(label, x)
        if differs and not matched:
            unexplained.append((x.hex(), standard(label, x), got))
        elif matched and not differs:
            wrongly_predicted.append((x.hex(), matched))
    assert not unexplained, f"{len(unexplained)} disagreements no predicate explains: {unexplained[:5]}"
    assert not wrongly_predicted, f"{len(wrongly_predicted)} agree though predicted: {wrongly_predicted[:5]}"
    assert all(hits.values()), f"predicates that match nothing: {[k for k, v in hits.items() if not v]}"
    if label == "gb18030":
        assert not preds


def test_node_examples_in_the_document(node_runs):
    """The examples the document (and the brief) give, read straight from Node."""
    def node(label, hexbytes):
        inputs, answers = node_runs[label]
        return answers[inputs.index(h(hexbytes))]
    assert node("euc-kr", "81 41") == ([0x81, 0x41], False)
    assert standard("euc-kr", h("81 41")) == ([0xAC02], False)
    assert node("shift_jis", "81 FF") == ([0xFFFD, 0xFFFD], True)
    assert standard("shift_jis", h("81 FF")) == ([0xFFFD], True)
    assert node("shift_jis", "80") == ([0xFFFD], True)
    assert standard("shift_jis", h("80")) == ([0x80], False)


# ====================================================================== e. encoders
def pointer_bytes(label: str, p: int) -> bytes:
    """The bytes a pointer is written as (the encoders' arithmetic, the decoders' inverse)."""
    if label == "shift_jis":
        lead, trail = p // 188, p % 188
        return bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])
    if label == "euc-jp":
        return bytes([p // 94 + 0xA1, p % 94 + 0xA1])
    if label == "euc-kr":
        return bytes([p // 190 + 0x81, p % 190 + 0x41])
    if label == "big5":
        trail = p % 157
        return bytes([p // 157 + 0x81, trail + (0x40 if trail < 0x3F else 0x62)])
    trail = p % 190                                     # gb18030, gbk
    return bytes([p // 190 + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])


def read_index(name):
    """pointer -> code point, read here independently of the oracle (same file format)."""
    out = {}
    for line in (whatwg_cjk.INDEX_DIR / f"index-{name}.txt").read_text("utf-8").split("\n"):
        if line and not line.startswith("#"):
            p, cp = line.split("\t")[:2]
            out[int(p)] = int(cp, 16)
    return out


def chosen_pointers(label: str, idx: dict) -> dict:
    """code point -> the pointer the standard's encoder writes it with ("Indexes")."""
    keep = {"shift_jis": lambda p: not 8272 <= p <= 8835,
            "big5": lambda p: p >= (0xA1 - 0x81) * 157}.get(label, lambda p: True)
    chosen = {}
    for p in sorted(idx):
        if keep(p):
            cp = idx[p]
            if label == "big5" and cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
                chosen[cp] = p                           # the LAST pointer
            else:
                chosen.setdefault(cp, p)                 # the first
    return chosen


INDEX_OF = {"shift_jis": "jis0208", "euc-jp": "jis0208", "euc-kr": "euc-kr", "big5": "big5",
            "gb18030": "gb18030", "gbk": "gb18030"}


@pytest.mark.parametrize("label", LABELS)
def test_encoder_writes_each_mapped_pointer_it_chooses(label):
    """For every pointer of the index: decode its bytes; encoding the result gives the
    same bytes exactly when the pointer is the one "index pointer" (or index Shift_JIS /
    Big5 pointer) chooses, else the chosen pointer's bytes; the exceptions are the
    standard's own and listed here."""
    oracle = ORACLE[label]
    idx = read_index(INDEX_OF[label])
    chosen = chosen_pointers(label, idx)
    limit = 94 * 94 if label == "euc-jp" else None      # EUC-JP has rows A1..FE only
    others = []
    for p, cp in idx.items():
        if limit is not None and p >= limit:
            continue
        x = pointer_bytes(label, p)
        assert oracle.tokens(x) == [("char", 0, 2, cp)], (label, p)
        data, bad = oracle.encode_positions([cp])
        if label == "gbk" and cp == 0x20AC:
            assert data == b"\x80"                       # GBK encoder step 4
        elif cp in chosen:
            assert not bad and data == pointer_bytes(label, chosen[cp]), (label, p, hex(cp))
            if chosen[cp] != p:
                others.append(p)
        else:
            assert bad == [0], (label, p, hex(cp))      # excluded pointers only
            assert label == "big5" and p < 5024
    if label == "shift_jis":                             # the NEC-selected IBM rows are never written
        assert set(range(8272, 8836)) & set(idx) <= set(others)
    if label == "big5":
        assert all(p in others for p in (5247, 5248, 5249, 5250, 5287, 5289))


@pytest.mark.parametrize("label", LABELS)
def test_every_scalar_value_of_the_bmp_encodes_to_bytes_that_decode_back(label):
    """encode then decode is the identity on what the encoder accepts, except the
    standard's encoder-only mappings, listed here from its text."""
    oracle = ORACLE[label]
    not_inverse = {
        # U+00A5 -> 5C, U+203E -> 7E, U+2212 -> the bytes of U+FF0D (encoder steps 3, 4, 6)
        "shift_jis": {0x00A5: 0x5C, 0x203E: 0x7E, 0x2212: 0xFF0D},
        "euc-jp": {0x00A5: 0x5C, 0x203E: 0x7E, 0x2212: 0xFF0D},
        "euc-kr": {}, "big5": {},
    }
    side = set(whatwg_cjk.GB18030_SIDE_TABLE)            # gb18030 encoder step 5
    accepted = 0
    for cp in list(range(0xD800)) + list(range(0xE000, 0x10000)):
        data, bad = oracle.encode_positions([cp])
        if bad:
            continue
        accepted += 1
        toks = oracle.tokens(data)
        assert len(toks) == 1 and toks[0][0] == "char" and toks[0][2] == len(data), (label, hex(cp))
        back = toks[0][3]
        if label in ("gb18030", "gbk") and cp in side:
            assert back != cp and len(data) == 2
        elif cp in not_inverse.get(label, {}):
            assert back == not_inverse[label][cp]
        else:
            assert back == cp, (label, hex(cp), data.hex())
    if label == "gb18030":                               # all but U+E5E5 and the surrogates
        assert accepted == 0x10000 - 0x800 - 1


def test_decoded_characters_the_encoders_refuse():
    """What decodes but does not encode: Shift_JIS's EUDC range, EUC-JP's jis0212-only
    characters, Big5's HKSCS-only characters below pointer 5024 and its four pairs,
    GBK's four-byte characters."""
    # Shift_JIS EUDC: pointers 8836..10715 decode to U+E000..U+E757, which no index has
    assert whatwg_shift_jis.encode_positions(range(0xE000, 0xE758))[1] == list(range(0x758))
    # EUC-JP: every 8F-sequence character not also in index jis0208 is refused, the rest
    # come back as two bytes
    jis0208 = set(read_index("jis0208").values())
    for _p, cp in read_index("jis0212").items():
        data, bad = whatwg_euc_jp.encode_positions([cp])
        assert (bad == [0]) == (cp >= 0x80 and cp not in jis0208 and cp not in (0x00A5, 0x203E, 0x2212)
                                and not 0xFF61 <= cp <= 0xFF9F)
        assert bad or len(data) <= 2
    # Big5: the pairs' first code points U+00CA/U+00EA are HKSCS-only (pointers 1137, 1168)
    big5 = read_index("big5")
    low_only = {cp for p, cp in big5.items() if p < 5024} - {cp for p, cp in big5.items() if p >= 5024}
    assert 0x00CA in low_only and 0x00EA in low_only
    assert whatwg_big5.encode_positions(sorted(low_only))[1] == list(range(len(low_only)))
    for pair in [(0x00CA, 0x0304), (0x00CA, 0x030C), (0x00EA, 0x0304), (0x00EA, 0x030C)]:
        assert whatwg_big5.encode_positions(pair)[1] == [0, 1]
    # GBK: the gb18030 four-byte forms decode, but GBK's encoder refuses them (step 8)
    for x in ["81 30 81 30", "81 35 F4 37", "84 31 A4 39", "90 30 81 30", "E3 32 9A 35"]:
        cp = whatwg_gbk.tokens(h(x))[0][3]
        assert whatwg_gbk.encode_positions([cp]) == (b"", [0])
        assert whatwg_gb18030.encode([cp]) == h(x)


def test_gb18030_four_byte_pointers_round_trip():
    """Every four-byte pointer of the BMP part (0..39419) and every 97th of the
    supplementary part (189000..1237575) plus its ends: decode, encode, same bytes --
    unless the code point also has a two-byte pointer, which the encoder prefers."""
    two_byte = set(read_index("gb18030").values())
    def four(p):
        return bytes([p // 12600 + 0x81, p // 1260 % 10 + 0x30, p // 10 % 126 + 0x81, p % 10 + 0x30])
    pointers = list(range(0, 39420)) + list(range(189000, 1237576, 97)) + [1237575]
    duplicates = 0
    for p in pointers:
        x = four(p)
        toks = whatwg_gb18030.tokens(x)
        assert len(toks) == 1 and toks[0][:3] == ("char", 0, 4), (p, toks)
        cp = toks[0][3]
        y = whatwg_gb18030.encode([cp])
        if y != x:
            duplicates += 1
            assert cp in two_byte and len(y) == 2, (p, hex(cp))
    assert duplicates > 0                                # e.g. the GB18030-2005 -> 2022 moves
    for p in (39420, 188999, 1237576):
        assert whatwg_gb18030.tokens(four(p)) == [("error", 0, 4, None)]
