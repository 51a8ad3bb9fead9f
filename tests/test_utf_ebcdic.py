"""UTF-EBCDIC (UTR #16) as bytes: the built-in spec, whose forms are the I8 sequence and
whose ``bytes through`` table is the report's byte conversion table, equals the
hand-written oracle (tests/oracles/utf_ebcdic.py) on both backends: every code point
encodes and decodes back, every single byte and the byte pairs give the oracle's tokens
and exact error spans; error handlers see the caller's own bytes; the incremental
decoder gives the one-shot result split at every offset.
"""
from __future__ import annotations

import codecs
import io

import pytest

from codec_samples import BACKENDS, load_backend
from conftest import byte_pairs, code_points, decode_in_chunks
from encspec.spec.parse import parse_file
from oracles import utf_ebcdic as oracle

SPEC = "specs/utf-ebcdic.encspec"


@pytest.fixture(scope="module", params=BACKENDS)
def module(request):
    return load_backend("utf-ebcdic", request.param)


def test_the_spec_table_is_the_reports_table():
    from conftest import ROOT
    assert parse_file(ROOT / SPEC).permutation == oracle.I8_TO_EBCDIC
    assert sorted(oracle.I8_TO_EBCDIC) == list(range(256))


@pytest.mark.parametrize("cp, i8", [
    # I8 sequences Perl's UTF-EBCDIC tests give (ext/XS-APItest/t/utf8.t), UTR #16's layout
    (0x9F, "9F"), (0xA0, "C5 A0"), (0x100, "C8 A0"), (0x3FF, "DF BF"), (0x400, "E1 A0 A0"),
    (0x3FFF, "EF BF BF"), (0x4000, "F0 B0 A0 A0"), (0xD7FF, "F1 B5 BF BF"), (0xE000, "F1 B8 A0 A0"),
    (0xFFFD, "F1 BF BF BD"), (0x10000, "F2 A0 A0 A0"), (0x40000, "F8 A8 A0 A0 A0"),
    (0x10FFFD, "F9 A1 BF BF BD"),
])
def test_the_oracle_writes_the_i8_sequences_of_the_report(cp, i8):
    assert oracle.i8_of(cp) == bytes.fromhex(i8)
    assert oracle.encode([cp]) == bytes.fromhex(i8).translate(oracle.I8_TO_EBCDIC)


def test_ebcdic_invariants_keep_their_single_byte_positions(module):
    # UTR #16's purpose: 'A' is C1, '0' is F0, space 40, as in EBCDIC (code page 1047)
    assert module.encode("A0 a") == bytes.fromhex("C1 F0 40 81")
    assert module.decode(bytes.fromhex("C1 F0 40 81")) == "A0 a"


def test_every_code_point_encodes_as_the_oracle_and_decodes_back(module):
    cps = code_points(surrogates=False)
    text = "".join(map(chr, cps))
    data = module.encode(text)
    assert data == oracle.encode(cps)
    assert module.decode(data) == text


def test_surrogates_are_unencodable(module):
    with pytest.raises(UnicodeEncodeError) as got:
        module.encode("a\ud800b")
    assert (got.value.start, got.value.end) == (1, 2)


def _same_tokens(module, inputs):
    bad = []
    for data in inputs:
        got = [t[:4] for t in module.tokens(data)]
        if got != oracle.tokens(data):
            bad.append((data.hex(" ").upper(), got, oracle.tokens(data)))
            if len(bad) > 5:
                break
    assert not bad, bad


def test_every_single_byte_gives_the_oracles_tokens(module):
    _same_tokens(module, [bytes([b]) for b in range(256)])


def test_byte_pairs_give_the_oracles_tokens(module):
    _same_tokens(module, byte_pairs(module._CLASS.translate(bytes(module._FROM_REAL))))


def _spans(data):
    return [(s, e) for kind, s, e, _ in oracle.tokens(data) if kind == "error"]


def test_strict_decoding_fails_at_the_oracles_first_error_span(module):
    for data in [bytes([b]) for b in range(256)] + [bytes.fromhex(h) for h in (
            "C1 80", "80 C1", "C1 DC 41 41", "DC 41 41 C1", "DD 73 66 73 C1", "B7 41 41 41 41", "FE 41")]:
        spans = _spans(data)
        if not spans:
            assert module.decode(data) == "".join(chr(t[3]) for t in oracle.tokens(data))
            continue
        with pytest.raises(UnicodeDecodeError) as got:
            module.decode(data)
        assert (got.value.start, got.value.end) == spans[0], data.hex(" ")


def test_error_handlers_see_the_callers_own_bytes(module):
    seen = []

    def record(exc):
        seen.append((exc.object, exc.start, exc.end))
        return "?", exc.end

    codecs.register_error("test-utf-ebcdic-record", record)
    data = bytes.fromhex("C1 80 C1 DC 41 41 F0")  # A, a lead cut by A, a four-byte lead cut, lone trails, 0
    toks = oracle.tokens(data)
    assert module.decode(data, "test-utf-ebcdic-record") == "".join(
        chr(v) if kind == "char" else "?" for kind, _, _, v in toks)
    assert seen == [(data, s, e) for s, e in _spans(data)] and len(seen) == 4
    # the native extension applies backslashreplace itself elsewhere: here it shows the real bytes
    assert module.decode(data, "backslashreplace") == "".join(
        chr(v) if kind == "char" else "".join(f"\\x{b:02x}" for b in data[s:e]) for kind, s, e, v in toks)


def test_surrogateescape_gives_back_the_bytes(module):
    data = bytes.fromhex("C1 80 C1 DC C1 F0 FF 97")  # errors of bytes 80 and up only (CPython's rule)
    text = module.decode(data, "surrogateescape")
    assert text == "A\udc80A\udcdcA0\x9fp"
    assert module.encode(text, "surrogateescape") == data


def test_incremental_decoding_split_at_every_offset(module):
    text = "A\n\u00e9\u20ac\U0001F600\x85z\u3fff\U0010FFFD"
    data = module.encode(text)
    bad = data[:5] + bytes.fromhex("80") + data[5:] + bytes.fromhex("DC 41")
    for k in range(len(bad) + 1):
        dec = module.IncrementalDecoder("replace")
        assert dec.decode(bad[:k]) + dec.decode(bad[k:], True) == module.decode(bad, "replace"), k
    assert decode_in_chunks(module, data, "strict", 1) == text
    got = decode_in_chunks(module, bad, "strict", 1)  # the error, and the text before it
    assert isinstance(got, tuple) and got[3] == module.decode(bad[:_spans(bad)[0][0]])


def test_incremental_encoding_and_streams(module):
    text = "A\u00e9\U0001F600" * 3
    enc = module.IncrementalEncoder()
    assert b"".join(enc.encode(ch) for ch in text) + enc.encode("", True) == oracle.encode(map(ord, text))
    stream = io.BytesIO()
    writer = module.StreamWriter(stream)
    for ch in text:
        writer.write(ch)
    assert stream.getvalue() == oracle.encode(map(ord, text))
    stream.seek(0)
    assert module.StreamReader(stream).read() == text


def test_a_target_without_a_permutation_seam_refuses_before_writing(tmp_path, monkeypatch):
    from encspec import pipeline
    from encspec.emit import target, targets
    fake = target.Target(name="fake", describe="a target that reads bytes as the automaton does",
                         files=lambda a: {"x.txt": "x"})
    monkeypatch.setitem(target.REGISTRY, "fake", fake)
    out = tmp_path / "out"
    with pytest.raises(target.Unsupported) as got:
        targets.export(pipeline.load("utf-ebcdic")[1], "fake", out)
    assert got.value.message == ("the fake target does not support 'bytes through' yet (its decoder reads the "
                                 "intermediate bytes: it has no byte permutation seam)")
    assert not out.exists()


def test_the_json_export_carries_the_permutation(tmp_path):
    import json

    from encspec import pipeline
    from encspec.emit.targets import render_files
    [text] = render_files(pipeline.load("utf-ebcdic")[1], "json").values()
    assert bytes.fromhex(json.loads(text)["permutation"]) == oracle.I8_TO_EBCDIC


def test_the_code_page_chart_shows_the_real_bytes():
    from encspec import pipeline
    from encspec.analyse.charts import codepage
    cells = {c["byte"]: c for c in codepage(pipeline.load("utf-ebcdic")[1])}
    assert sorted(cells) == list(range(256))
    # EBCDIC's letter A and line feed stay single bytes; 80 leads two bytes (I8 C5), 41 continues (I8 A0)
    assert (cells[0xC1]["kind"], cells[0xC1]["label"]) == ("single", "A")
    assert (cells[0x15]["kind"], cells[0x15]["label"]) == ("single", "LF")
    assert (cells[0x80]["kind"], cells[0x80]["label"]) == ("lead", "2")
    assert cells[0x41]["kind"] == "continuation"


def test_diff_refuses_specs_read_through_different_permutations(capsys):
    from conftest import run_cli
    code, out, err = run_cli(capsys, "diff", "utf-8", "utf-ebcdic")
    assert (code, out) == (2, "")
    assert err.strip() == ("encspec: error: cannot compare utf-8 and utf-ebcdic: they read their bytes through "
                           "different permutations ('bytes through'), and diff compares the bytes the automata read")
    code, out, _ = run_cli(capsys, "diff", "utf-ebcdic", "utf-ebcdic")
    assert code == 0 and "equivalent" in out


def test_first_error_and_validity_read_the_real_bytes(module):
    for data in (bytes.fromhex("C1 80 41 F0"), bytes.fromhex("C1 80 C1 DC 41"), bytes.fromhex("C1 F0 40 81")):
        spans = _spans(data)
        got = module.first_error(data)
        assert (got[:2] if got else None) == (spans[0] if spans else None), data.hex(" ")
        assert module.is_valid(data) == (not spans)
        assert module.is_valid(memoryview(data)) == (not spans)


def test_the_incremental_state_holds_the_callers_bytes(module):
    dec = module.IncrementalDecoder()
    assert dec.decode(b"\xc1\x80") == "A"  # 80 leads two bytes (I8 C5): held back
    assert dec.getstate()[0] == b"\x80"
    again = module.IncrementalDecoder()
    again.setstate(dec.getstate())
    assert again.decode(b"\x41", True) == "\u00a0"
