"""The exports' encoder description (encspec.emit.description) says what the core's encoder does.

Every export language's engine reads ``description.encoder(a)``: disjoint runs of code
points, each a way to write bytes.  Here each run's bytes, verified as the core verifies
them (decoding them back must give the code point as one token), equal the core's own
``encoded(a, cp)`` — the encoder every generated module runs — for every code point of
the BMP (sampled by default, all under ENCSPEC_SLOW) and a sample beyond, on a spec of
each kind: rows of digits, surrogate pairs, literal forms, encoder-only entries, index
and ranges tables with decode-only pointers and overrides, a byte permutation.
"""
from __future__ import annotations

import random

import pytest

from conftest import SLOW
from encspec import pipeline
from encspec.emit import description
from encspec.runtime.tables import bind, encoded, scan, tokens

KINDS = ("utf-8", "wtf-8", "cesu-8", "mutf-8", "utf-16", "utf-32", "wtf-16", "utf-1", "utf-ebcdic", "leb128",
         "cp1252", "cp037", "big5", "big5hkscs", "gb18030", "whatwg-gb18030", "shift_jis", "euc-jp",
         "whatwg-euc-kr", "whatwg-x-user-defined", "whatwg-replacement", "utf-inf-8")


def _code_points() -> list[int]:
    rng = random.Random(28)
    bmp = list(range(0x10000)) if SLOW else sorted(set(range(0, 0x10000, 3)) | set(range(0x80)) | set(range(0xD7F0, 0xE010)))
    return bmp + rng.sample(range(0x10000, 0x110000), 2000) + [0x10FFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF]


def _verified(a, e, cp: int) -> bytes | None:
    got, verify = description.proposed(e, cp)
    if got is None or not verify or e.undecodable:
        return got
    tok = scan(a, got, 0)  # the automaton from its start state, as the core checks: no signature
    ok = tok is not None and tok[0] == "char" and tok[1:3] == (0, len(got)) and tok[3] == cp
    return got if ok else None


@pytest.mark.parametrize("spec", KINDS)
def test_runs_write_what_the_core_encoder_writes(spec):
    a = pipeline.load(spec)[1]
    e = description.encoder(a)
    wrong = [(hex(cp), _verified(a, e, cp), encoded(a, cp)) for cp in _code_points()
             if _verified(a, e, cp) != encoded(a, cp)]
    assert wrong[:5] == []


@pytest.mark.parametrize("spec", KINDS)
def test_runs_are_disjoint_sorted_and_within_32_bits(spec):
    e = description.encoder(pipeline.load(spec)[1])
    assert e.runs, "every spec here encodes something"
    for r, s in zip(e.runs, e.runs[1:]):
        assert r.first <= r.last < s.first
    assert e.runs[-1].last <= description.CODE_POINT_LIMIT
    assert all(r.kind in ("bytes", "none", "digits", "pair", "pointer", "counted") for r in e.runs)
    assert all(0 <= r.positions < len(e.positions) for r in e.runs if r.kind in ("digits", "pair", "pointer"))


def test_a_table_with_decode_only_pointers_is_runs_not_points():
    """gb18030's 23,940 index entries and 207 ranges become about 10,000 runs: what the
    engines search (consecutive code points at consecutive pointers share one)."""
    e = description.encoder(pipeline.load("gb18030")[1])
    assert 2000 < len(e.runs) < 15000
    assert len({r.kind for r in e.runs}) >= 2


def test_sequences_are_listed_longest_first_per_starter():
    """big5hkscs: its 4 sequences, and the 64 encoder-only ones that reproduce CPython's
    low-16-bit pair check (issue 30), all starting with U+00CA or U+00EA."""
    e = description.encoder(pipeline.load("big5hkscs")[1])
    assert len(e.sequences) == 68
    assert e.starters == (0xCA, 0xEA)
    assert [cps for cps, _ in e.sequences if max(cps[1:]) < 0x10000] == [(0xCA, 0x304), (0xCA, 0x30C),
                                                                         (0xEA, 0x304), (0xEA, 0x30C)]
    assert dict(e.sequences)[(0xCA, 0x304)] == b"\x88\x62"


def test_the_facts_of_the_pair_rule_and_signatures():
    wtf8, wtf16, utf16, utf8 = (description.encoder(pipeline.load(s)[1]) for s in ("wtf-8", "wtf-16", "utf-16", "utf-8"))
    assert wtf8.pair_reads_as_one and wtf8.pair_on_encode
    assert wtf16.pair_reads_as_one and not wtf16.pair_on_encode
    assert not utf8.pair_reads_as_one
    assert utf16.writes_signature and utf16.signature in (b"\xff\xfe", b"\xfe\xff")
    assert not utf8.writes_signature
    assert utf8.group_runs and not utf16.group_runs


def test_a_counted_form_below_2_to_the_32_is_a_run_of_its_own(tmp_path):
    """Its code points are the engines' documented limit (COUNTED_REASON), below the
    rows that hold code points first, as the core consults them."""
    spec = tmp_path / "cv.encspec"
    spec.write_text("encoding cv-one\ncode-space U+0000..\n\nform 1: 0xxxxxxx\n"
                    "form long: FF B4{n} A0..AF{n+1} as nme 10xxxxxx{nme + 1} at U+80\n"
                    "           range 2 ** (6 * nme) .. 2 ** (6 * (nme + 2) - 6) - 1\n", "utf-8")
    e = description.encoder(pipeline.load(str(spec))[1])
    assert [(r.first, r.last, r.kind) for r in e.runs] == [(0, 0x7F, "digits"), (0x80, 0xFFFFFFFF, "counted")]
    assert description.proposed(e, 0x80) == (None, False)


def test_utf_inf_8s_counted_form_lies_beyond_the_encoders_code_points():
    e = description.encoder(pipeline.load("utf-inf-8")[1])
    assert e.runs[-1].last == description.CODE_POINT_LIMIT


@pytest.mark.parametrize("spec", ["hz", "whatwg-iso-2022-jp", "iso2022_jp", "iso2022_kr"])
def test_each_modes_runs_write_what_the_cores_mode_encoder_writes(spec):
    """description.mode_choice, which the JS, C and Java encoders read: mode k's runs,
    verified from the mode's start state, give the core's _mode_bytes(k, cp) (a form whose
    characters end the mode, `->`, is not written in it: iso2022_kr's LF after SO)."""
    a = pipeline.load(spec)[1]
    choice = description.mode_choice(a)
    core = bind(a)
    rng = random.Random(spec)
    ends = sorted({cp for r in choice.encoder.runs for cp in (r.first, r.last)})
    cps = sorted({*range(0x80), 0x3000, 0x4E00, 0xAC00, 0xFF61, 0x20AC, *rng.sample(ends, min(300, len(ends)))})
    wrong = []
    for k, start in enumerate(choice.starts):
        e = description.Encoder(**{**choice.encoder.__dict__, "runs": choice.mode_runs(k)})
        for cp in cps:
            got, verify = description.proposed(e, cp)
            if got is not None and verify:
                toks = tokens(a, got, start)
                got = got if toks[:1] and toks[0][:4] == ("char", 0, len(got), cp) and len(toks) == 1 else None
            if got != core._mode_bytes(k, cp):
                wrong.append((k, hex(cp), got, core._mode_bytes(k, cp)))
    assert wrong[:5] == []
    assert any(choice.mode_runs(k) for k in range(len(choice.starts)) if k)  # modes past the first write
