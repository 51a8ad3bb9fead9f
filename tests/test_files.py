"""Working with files: validate, decode, encode, transcode — output, exit codes, errors, streaming."""
from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import encspec
from conftest import examples, feed_stdin
from conftest import run_cli as run
from encspec.io import stream
from encspec.spec import registry

CLI = [sys.executable, "-c", "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"]
BUILTIN = ", ".join(registry.builtin_names())


def reference(module, data: bytes):
    """(signature, problems) counted the obvious way from the module's own tokens:
    problems are (kind, start, end, reason, line, column); a problem is one column."""
    sig, problems = None, []
    line = col = 1
    for kind, start, end, value, reason in module._tokens(data, 0, True, True):
        if kind == "signature":
            sig = (start, end, line, col)
        elif kind == "char":
            line, col = (line + 1, 1) if value == 10 else (line, col + 1)
        else:
            problems.append((kind, start, end, reason, line, col))
            col += 1
    return sig, problems


def scanned(rep):
    sig = rep.signature
    return ((sig.start, sig.end, sig.line, sig.column) if sig else None,
            [(p.kind, p.start, p.end, p.reason, p.line, p.column) for p in rep.problems])


def validate_bytes(module, data: bytes, chunk_size=None, limit=None):
    import io
    return stream.validate_stream(module, stream.Input(io.BytesIO(data), "x", len(data)), limit, chunk_size)


CUTF8 = encspec.load("corrected-utf-8")
SAMPLE = (CUTF8.encode("Café\nab", signature=True) + b"\xc0x\xfe\x80\x80yz\n"
          + b"\xe1\x80A" + CUTF8.encode("日本\n") + b"\x80")


# ----------------------------------------------------------------- validate
def test_validate_reports_each_problem_with_line_column_bytes_and_reason(tmp_path, capsys):
    f = tmp_path / "sample.txt"
    f.write_bytes(SAMPLE)
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f)
    assert (rc, err) == (1, "")
    assert out.splitlines() == [
        f"{f}:1:1: signature: EF B7 9D ED B2 AE 00 0A (byte 0)",
        f"{f}:2:3: error: invalid continuation byte: C0 (byte 16)",
        f"{f}:2:5: reserved: FE 80 80 (byte 18)",
        f"{f}:3:1: error: invalid continuation byte: E1 80 (byte 24)",
        f"{f}:4:1: error: invalid start byte: 80 (byte 34)",
        f"{f}: invalid: 3 errors, 1 reserved run",
    ]
    assert reference(CUTF8, SAMPLE) == scanned(validate_bytes(CUTF8, SAMPLE))


def test_validate_valid_file_and_allowed_reserved_runs(tmp_path, capsys):
    ok = tmp_path / "ok.txt"
    ok.write_bytes(CUTF8.encode("fine\n"))
    rc, out, err = run(capsys, "validate", "corrected-utf-8", ok)
    assert (rc, out, err) == (0, f"{ok}: valid\n", "")
    res = tmp_path / "res.txt"
    res.write_bytes(b"a\xfe\x80b\xff\n")
    # corrected-utf-8.txt: FE/FF runs are "reserved for future use ... rather than as invalid"
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", res)
    assert rc == 0 and out.splitlines() == [f"{res}:1:2: reserved: FE 80 (byte 1)",
                                            f"{res}:1:4: reserved: FF (byte 4)",
                                            f"{res}: valid (with 2 reserved runs)"]
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", res, "--reject-reserved")
    assert rc == 1 and out.splitlines()[-1] == f"{res}: invalid: 2 reserved runs (--reject-reserved)"


def test_validate_json_one_object_per_file(tmp_path, capsys):
    (tmp_path / "a.txt").write_bytes(SAMPLE)
    (tmp_path / "b.txt").write_bytes(b"plain\n")
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", "--json", tmp_path)
    assert rc == 1
    a, b = [json.loads(line) for line in out.splitlines()]
    assert b == {"path": str(tmp_path / "b.txt"), "valid": True, "size": 6, "errors": 0, "reserved": 0,
                 "truncated": False, "signature": None, "problems": []}
    assert a["valid"] is False and (a["errors"], a["reserved"], a["truncated"]) == (3, 1, False)
    assert a["signature"] == {"kind": "signature", "offset": 0, "end": 8, "line": 1, "column": 1,
                              "bytes": "EF B7 9D ED B2 AE 00 0A", "reason": None}
    assert a["problems"][0] == {"kind": "error", "offset": 16, "end": 17, "line": 2, "column": 3,
                                "bytes": "C0", "reason": "invalid continuation byte"}
    assert [p["kind"] for p in a["problems"]] == ["error", "reserved", "error", "error"]


def test_validate_max_errors_stops_early(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"\x80" * 100)
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", f, "--max-errors", "3")
    assert rc == 1
    assert out.splitlines() == [f"{f}:1:{k}: error: invalid start byte: 80 (byte {k - 1})" for k in (1, 2, 3)] + [
        f"{f}: invalid: 3 errors (stopped at --max-errors 3: there may be more)"]
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f, "--max-errors", "0")
    assert (rc, out) == (2, "") and err.startswith("encspec: error: Invalid value for '--max-errors'")


def test_validate_directories_recursively_in_order_and_stdin(tmp_path, capsys, monkeypatch):
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "b.txt").write_bytes(b"ok\n")
    (tmp_path / "d" / "a.txt").write_bytes(b"\xff")
    (tmp_path / "d" / "sub" / "c.txt").write_bytes(b"x\n")
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xc0\n")))
    rc, out, _ = run(capsys, "validate", "utf-8", tmp_path / "d", "-")
    d = tmp_path / "d"
    assert rc == 1
    assert out.splitlines() == [
        f"{d}/a.txt:1:1: error: invalid start byte: FF (byte 0)", f"{d}/a.txt: invalid: 1 error",
        f"{d}/b.txt: valid", f"{d}/sub/c.txt: valid",
        "<stdin>:1:1: error: invalid start byte: C0 (byte 0)", "<stdin>: invalid: 1 error"]


def test_validate_reads_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = CUTF8.encode("streamed\n") * 1000 + b"\x80"

    def writer():
        with open(fifo, "wb") as w:
            w.write(data)
    t = threading.Thread(target=writer)
    t.start()
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", fifo)
    t.join()
    assert rc == 1 and out.splitlines() == [f"{fifo}:1001:1: error: invalid start byte: 80 (byte 9000)",
                                            f"{fifo}: invalid: 1 error"]


def test_validate_io_errors_exit_2_and_other_files_still_checked(tmp_path, capsys, monkeypatch):
    ok = tmp_path / "ok.txt"
    ok.write_bytes(b"fine\n")
    locked = tmp_path / "locked.txt"
    locked.write_bytes(b"secret\n")
    missing = tmp_path / "missing.txt"
    rc, out, err = run(capsys, "validate", "utf-8", missing, ok)
    assert (rc, out, err) == (2, f"{ok}: valid\n", f"encspec: error: {missing}: no such file\n")

    real_open = open

    def deny(path, *a, **k):  # tests run as root: chmod 000 would not stop us
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **k)
    from encspec.io import parallel
    monkeypatch.setattr(parallel, "open", deny, raising=False)
    monkeypatch.setattr(stream, "open", deny, raising=False)
    rc, out, err = run(capsys, "validate", "utf-8", "-j", "1", locked, ok)
    assert (rc, out, err) == (2, f"{ok}: valid\n", f"encspec: error: {locked}: permission denied\n")
    rc, out, err = run(capsys, "validate", "utf-8", "-j", "1", "--json", locked)
    assert rc == 2 and json.loads(out) == {"path": str(locked), "valid": None, "error": f"{locked}: permission denied"}


def test_validate_unknown_spec_and_bad_options(tmp_path, capsys, monkeypatch):
    f = tmp_path / "x.txt"
    f.write_bytes(b"x")
    rc, out, err = run(capsys, "validate", "bogus", f)
    assert (rc, out, err) == (2, "", f"encspec: error: bogus: unknown encoding (built-in: {BUILTIN})\n")
    rc, out, err = run(capsys, "validate", "utf-8", f, "--split-size", "lots")
    assert rc == 2 and err.startswith("encspec: error: Invalid value for '--split-size': 'lots' is not a size")
    assert len(err.splitlines()) == 1
    feed_stdin(monkeypatch, b"x\n")   # no PATH is standard input (issue 33), not a usage error
    assert run(capsys, "validate", "utf-8") == (0, "<stdin>: valid\n", "")


# ------------------------------------------------------------------- decode
def test_decode_writes_utf8_text_like_the_module(tmp_path, capsysbinary):
    f = tmp_path / "in.bin"
    f.write_bytes(SAMPLE)
    for handler in ("replace", "ignore", "encspec.latin1", "backslashreplace", "encspec.replace_per_byte"):
        rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f, "--errors", handler)
        assert (rc, err) == (0, b"")
        encspec.register()
        assert out == CUTF8.decode(SAMPLE, handler).encode("utf-8")
    out_file = tmp_path / "out.txt"
    rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f, "--errors", "replace", "-o", out_file)
    assert (rc, out, err) == (0, b"", b"")
    assert out_file.read_text("utf-8") == "Café\nab\ufffdx\ufffdyz\n\ufffdA日本\n\ufffd"


def test_decode_strict_failure_leaves_no_output(tmp_path, capsysbinary):
    f = tmp_path / "in.bin"
    f.write_bytes(b"ok\n" * 10 + b"\xc0\xaf" + b"\xe1\x80")
    out_file = tmp_path / "out.txt"
    out_file.write_bytes(b"previous")
    rc, out, err = run(capsysbinary, "decode", "utf-8", f, "-o", out_file)
    assert (rc, out, err) == (1, b"", f"encspec: error: {f}: byte 30: invalid start byte: C0\n".encode())
    assert out_file.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin", "out.txt"]  # no temporary file left
    rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f)
    assert rc == 1 and err == f"encspec: error: {f}: byte 32: unexpected end of data: E1 80\n".encode()


def test_decode_beyond_u10ffff_and_surrogates_go_through_the_handler(tmp_path, capsysbinary):
    big = CUTF8.encode([0x41, 0x110000, 0x42])
    f = tmp_path / "big.bin"
    f.write_bytes(big)
    rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f)
    seq = CUTF8.encode([0x110000]).hex(" ").upper()
    assert seq == "F3 BE BD A0"                 # 4 bytes in Corrected UTF-8 (U+110000 - 69792)
    assert rc == 1 and err == f"encspec: error: {f}: byte 1: code point beyond U+10FFFF: {seq}\n".encode()
    rc, out, _ = run(capsysbinary, "decode", "corrected-utf-8", f, "--errors", "replace")
    assert (rc, out) == (0, "A\ufffdB".encode())
    wtf = tmp_path / "wtf.bin"
    wtf.write_bytes(b"a\xed\xa0\x80b")          # an unpaired surrogate: fine in WTF-8, not in UTF-8 text
    rc, out, err = run(capsysbinary, "decode", "wtf-8", wtf)
    assert rc == 1 and err == f"encspec: error: {wtf}: byte 1: surrogate code point (not in UTF-8 text): ED A0 80\n".encode()
    rc, out, _ = run(capsysbinary, "decode", "wtf-8", wtf, "--errors", "replace")
    assert (rc, out) == (0, "a\ufffdb".encode())
    rc, out, _ = run(capsysbinary, "decode", "wtf-8", wtf, "--errors", "surrogateescape")
    assert (rc, out) == (0, b"a\xed\xa0\x80b")   # the bytes themselves


def test_decode_and_encode_errors(tmp_path, capsysbinary):
    f = tmp_path / "in.bin"
    f.write_bytes(b"x")
    missing = tmp_path / "nope.bin"
    cases = [
        (["decode", "utf-8", missing], f"{missing}: no such file"),
        (["decode", "utf-8", tmp_path], f"{tmp_path}: is a directory"),
        (["decode", "bogus", f], f"bogus: unknown encoding (built-in: {BUILTIN})"),
        (["decode", "utf-8", f, "--errors", "bogus"],
         "unknown error handler 'bogus' (for example: strict, replace, ignore, surrogateescape, backslashreplace, "
         "encspec.latin1, encspec.cp1252, encspec.optu8, encspec.replace_per_byte)"),
        (["decode", "utf-8", f, "-o", tmp_path / "no" / "out.txt"],
         f"{tmp_path / 'no' / 'out.txt'}: the folder that should hold it does not exist"),
        (["decode", "utf-8", f, "-o", f], f"{f}: is the input file (the input is never modified; write elsewhere)"),
        (["decode", "utf-8", f, "-o", tmp_path], f"{tmp_path}: is a directory"),
        (["encode", "utf-8", missing], f"{missing}: no such file"),
        (["encode", "utf-8", f, "--signature"], "utf-8: the encoding has no signature"),
        (["encode", "utf-8", f, "--errors", "nope"],
         "unknown error handler 'nope' (for example: strict, replace, ignore, surrogateescape, backslashreplace, "
         "encspec.latin1, encspec.cp1252, encspec.optu8, encspec.replace_per_byte)"),
        (["encode", "utf-8", f, "-o", tmp_path / "no" / "x"], f"{tmp_path / 'no' / 'x'}: the folder that should hold it does not exist"),
        (["transcode", "--from", "utf-8", "--to", "bogus", f], f"bogus: unknown encoding (built-in: {BUILTIN})"),
        (["transcode", "--from", "utf-8", "--to", "wtf-8", tmp_path / "no.bin"], f"{tmp_path / 'no.bin'}: no such file"),
        (["transcode", "--from", "utf-8", "--to", "wtf-8", f, "--errors", "xmlcharrefreplace"],
         "error handler 'xmlcharrefreplace' cannot be used here (don't know how to handle UnicodeDecodeError "
         "in error callback)"),
        (["transcode", "--from", "utf-8", "--to", "wtf-8", f, "-o", tmp_path / "no" / "x"],
         f"{tmp_path / 'no' / 'x'}: the folder that should hold it does not exist"),
    ]
    for argv, message in cases:
        if "xmlcharrefreplace" in argv:
            f.write_bytes(b"\xff")
        rc, out, err = run(capsysbinary, *argv)
        assert (rc, out, err.decode()) == (2, b"", f"encspec: error: {message}\n"), argv


def test_decode_unreadable_file(tmp_path, capsysbinary, monkeypatch):
    f = tmp_path / "in.bin"
    f.write_bytes(b"x")

    def deny(path, *a, **k):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(stream, "open", deny, raising=False)
    for argv in (["decode", "utf-8", f], ["encode", "utf-8", f], ["transcode", "--from", "utf-8", "--to", "cesu-8", f]):
        rc, out, err = run(capsysbinary, *argv)
        assert (rc, out, err) == (2, b"", f"encspec: error: {f}: permission denied\n".encode())


# ------------------------------------------------------------------- encode
def test_encode_reads_utf8_and_writes_the_encoding(tmp_path, capsysbinary):
    text = "Grüße, 日本 \U0001F600\n"
    f = tmp_path / "in.txt"
    f.write_text(text, "utf-8")
    rc, out, err = run(capsysbinary, "encode", "corrected-utf-8", f, "--signature")
    assert (rc, out, err) == (0, CUTF8.encode(text, signature=True), b"")
    o = tmp_path / "out.bin"
    rc, out, _ = run(capsysbinary, "encode", "cesu-8", f, "-o", o)
    assert (rc, out) == (0, b"") and o.read_bytes() == encspec.load("cesu-8").encode(text)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc\xff")
    rc, out, err = run(capsysbinary, "encode", "utf-8", bad, "-o", o)
    assert (rc, err) == (1, f"encspec: error: {bad}: byte 3: not UTF-8 text: invalid start byte: FF\n".encode())


def test_encode_unencodable_character_reports_its_byte(tmp_path, capsysbinary):
    spec = tmp_path / "bmp-only.encspec"
    spec.write_text("encoding bmp-only\ncode-space U+0000..U+FFFF\nill-formed U+D800..U+DFFF\n"
                    "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080\nform 3: 1110xxxx 10xxxxxx{2} min U+0800\n")
    f = tmp_path / "in.txt"
    f.write_text("aé\U0001F600z", "utf-8")
    rc, out, err = run(capsysbinary, "encode", spec, f)
    assert rc == 1 and err == f"encspec: error: {f}: byte 3: U+1F600: code point not encodable in bmp-only\n".encode()
    rc, out, err = run(capsysbinary, "encode", spec, f, "--errors", "replace")
    assert (rc, out) == (0, "aé?z".encode())


# ---------------------------------------------------------------- transcode
def test_transcode_keeps_code_points_beyond_u10ffff(tmp_path, capsysbinary):
    cps = [0x41, 0x110000, 0x7FFFFFFF, 0x8421109F, 0x0A]
    src = tmp_path / "big.cutf8"
    src.write_bytes(CUTF8.encode(cps))
    inf = encspec.load("utf-inf-8")
    rc, out, err = run(capsysbinary, "transcode", "--from", "corrected-utf-8", "--to", "utf-inf-8", src)
    assert (rc, err) == (0, b"") and inf.decode_codepoints(out) == cps
    rc, out, err = run(capsysbinary, "transcode", "--from", "corrected-utf-8", "--to", "utf-8", src)
    assert rc == 1 and err == (f"encspec: error: {src}: character 1 (U+110000): "
                               "code point not encodable in utf-8\n").encode()
    rc, out, err = run(capsysbinary, "transcode", "--from", "corrected-utf-8", "--to", "utf-8", src, "--errors", "replace")
    assert (rc, out) == (0, b"A???\n")


def test_transcode_between_spec_paths_with_signature(tmp_path, capsysbinary):
    mine = tmp_path / "mine.encspec"
    mine.write_text((registry.specs_dir() / "utf-8.encspec").read_text("utf-8").replace("encoding utf-8", "encoding mine")
                    .replace("aliases  utf8, u8, cp65001", "aliases  my-utf8"))
    f = tmp_path / "in.bin"
    f.write_bytes("añb\n".encode())
    o = tmp_path / "out.bin"
    rc, out, err = run(capsysbinary, "transcode", "--from", mine, "--to", "corrected-utf-8", "--signature", f, "-o", o)
    assert (rc, out, err) == (0, b"", b"")
    assert o.read_bytes() == CUTF8.encode("añb\n", signature=True)
    rc, out, err = run(capsysbinary, "transcode", "--from", "corrected-utf-8", "--to", mine, o)
    assert (rc, out) == (0, "añb\n".encode())  # the signature is read, not decoded


def test_transcode_surrogateescape_round_trip_keeps_bad_bytes(tmp_path, capsysbinary):
    data = b"ok \xc0\xaf \xfe\x80\x80 \xe1\x80 caf\xc3\xa9\n\x80"
    src = tmp_path / "in.bin"
    src.write_bytes(data)
    mid, back = tmp_path / "mid.bin", tmp_path / "back.bin"
    assert run(capsysbinary, "transcode", "--from", "corrected-utf-8", "--to", "utf-8", "--errors",
               "surrogateescape", src, "-o", mid)[0] == 0
    assert run(capsysbinary, "transcode", "--from", "utf-8", "--to", "corrected-utf-8", "--errors",
               "surrogateescape", mid, "-o", back)[0] == 0
    assert back.read_bytes() == data


def test_transcode_joins_surrogate_pairs_across_chunks(tmp_path, capsysbinary, monkeypatch):
    monkeypatch.setattr(stream, "TEXT_CHUNK", 3)
    src = tmp_path / "pairs.cesu"
    cesu = encspec.load("cesu-8")
    text = "a\U0001F600b\U00010000"
    src.write_bytes(cesu.encode(text))
    rc, out, _ = run(capsysbinary, "transcode", "--from", "cesu-8", "--to", "wtf-8", src)
    assert (rc, out) == (0, text.encode("utf-8"))
    lone = tmp_path / "lone.wtf8"
    lone.write_bytes(b"\xed\xa0\x80a\xed\xa0\x80\xed\xb0\x80")  # lead, 'a', then a pair written separately
    mutf = encspec.load("mutf-8")
    rc, out, _ = run(capsysbinary, "transcode", "--from", "mutf-8", "--to", "wtf-8", lone)
    assert (rc, out) == (0, encspec.load("wtf-8").encode(mutf.decode_codepoints(lone.read_bytes())))


# ----------------------------------------------------------------- streaming
SPECS = ["utf-8", "corrected-utf-8", "wtf-8", "cesu-8", "mutf-8", "utf-inf-8", "utf-1", "fss-utf-1992", "utf-8-bom"]
MODULES = {name: encspec.load(name) for name in SPECS}


@st.composite
def documents(draw):
    """Text in the encoding with bad bytes, newlines, reserved leads and signatures mixed in."""
    name = draw(st.sampled_from(SPECS))
    m = MODULES[name]
    parts = []
    if m.SIGNATURE and draw(st.booleans()):
        parts.append(m.SIGNATURE)
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            cps = draw(st.lists(st.one_of(st.integers(0, 0x7F), st.integers(0x80, 0x10FFFF),
                                          st.sampled_from([10, 0xD800, 0xDC00, 0x10FFFF])), max_size=6))
            parts.append(m.encode(cps, "ignore"))
        elif kind == 1:
            parts.append(draw(st.binary(max_size=6)))
        elif kind == 2:
            parts.append(bytes(draw(st.lists(st.sampled_from([0x0A, 0x80, 0xBF, 0xC0, 0xE1, 0xED, 0xF4, 0xFE, 0xFF]),
                                             max_size=5))))
        else:
            parts.append(m.SIGNATURE or b"\n")
    return name, b"".join(parts)


def chunked(data: bytes, sizes):
    out, i, k = [], 0, 0
    while i < len(data):
        n = sizes[k % len(sizes)] if sizes else len(data)
        out.append(data[i:i + n])
        i += n
        k += 1
    return out


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.lists(st.integers(1, 9), min_size=1, max_size=4))
def test_scanner_in_any_chunks_matches_the_tokens(doc, sizes):
    name, data = doc
    m = MODULES[name]
    rep = validate_bytes(m, data, chunk_size=sizes[0])
    assert scanned(rep) == reference(m, data)
    scanner = stream.Scanner(m)
    found = []
    for piece in chunked(data, sizes):
        found += scanner.feed(piece)
    found += scanner.feed(b"", True)
    assert [stream.place(p) for p in found if p[0] != "signature"] == rep.problems


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.lists(st.integers(1, 9), min_size=1, max_size=4),
       st.sampled_from(["strict", "replace", "ignore", "surrogateescape", "encspec.latin1"]))
def test_incremental_decoders_in_any_chunks_match_whole_decoding(doc, sizes, errors):
    encspec.register()
    name, data = doc
    m = MODULES[name]

    def whole(fn):
        try:
            return ("ok", fn())
        except UnicodeDecodeError as e:
            return ("fail", e.start, e.reason)

    def pieces(dec, join):
        try:
            got = [dec.decode(p) for p in chunked(data, sizes)] + [dec.decode(b"", True)]
            return ("ok", join(got))
        except stream.DecodeFailure as e:
            return ("fail", e.start, e.reason)

    assert pieces(stream.CodePointDecoder(m, errors), lambda g: [c for x in g for c in x]) == \
        whole(lambda: m.decode_codepoints(data, errors))
    # text: the module's decode, with surrogates also sent to the handler
    expected = whole(lambda: m.decode(data, errors, surrogates=False))
    assert pieces(stream.TextDecoder(m, errors), "".join) == expected


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(["wtf-8", "utf-8", "corrected-utf-8", "utf-inf-8"]),
       st.lists(st.one_of(st.integers(0, 0x10FFFF), st.integers(0xD800, 0xDFFF)), max_size=30),
       st.lists(st.integers(1, 5), min_size=1, max_size=3))
def test_encoder_in_any_chunks_matches_whole_encoding(name, cps, sizes):
    m = MODULES[name]
    enc = stream.Encoder(m, "replace", signature=bool(m.SIGNATURE))
    out, i, k = b"", 0, 0
    while i < len(cps):
        n = sizes[k % len(sizes)]
        out += enc.encode(cps[i:i + n])
        i, k = i + n, k + 1
    out += enc.encode([], True)
    assert out == m.encode(cps, "replace", signature=bool(m.SIGNATURE))


def test_long_unfinished_sequences_cost_linear_time():
    """A reserved run of 1 MiB read in 512-byte chunks: the module's decoder goes on where
    its scan stopped (the time ratio is tested in test_core.py)."""
    m = CUTF8
    data = b"a\xfe" + b"\x80" * (1 << 20) + b"b"
    scanner = stream.Scanner(m)
    found = []
    for piece in chunked(data, [512]):
        found += scanner.feed(piece)
    found += scanner.feed(b"", True)
    assert [(p[0], p[1], p[2]) for p in found] == [("reserved", 1, 2 + (1 << 20))]


# ------------------------------------------------------------------ progress
def test_progress_bar_only_on_a_terminal_for_large_inputs(monkeypatch):
    class Tty:
        def isatty(self):
            return True

        def write(self, s):
            pass

        def flush(self):
            pass
    assert isinstance(stream.progress(100 << 20, "x"), stream.NoBar)          # stderr is not a terminal here
    monkeypatch.setattr(sys, "stderr", Tty())
    assert isinstance(stream.progress(1 << 20, "x"), stream.NoBar)            # small
    assert isinstance(stream.progress(100 << 20, "x", quiet=True), stream.NoBar)
    bar = stream.progress(100 << 20, "x")
    assert type(bar).__module__.startswith("tqdm")
    bar.close()


def test_progress_bar_shows_bytes_per_second_on_a_tty(tmp_path):
    import fcntl
    import pty
    import struct
    import termios
    f = tmp_path / "five.txt"
    f.write_bytes(b"0123456789abcde\n" * (5 << 16))
    out = []
    for quiet in ([], ["--quiet"]):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 columns wide
        proc = subprocess.run(CLI + ["decode", "utf-8", str(f), "-o", str(tmp_path / "o.txt")] + quiet,
                              stderr=slave, stdout=subprocess.DEVNULL, timeout=120)
        os.close(slave)
        got = b""
        while True:
            try:
                piece = os.read(master, 65536)
            except OSError:
                break
            if not piece:
                break
            got += piece
        os.close(master)
        assert proc.returncode == 0
        out.append(got.decode("utf-8", "replace"))
    assert "B/s" in out[0] and "decode" in out[0]
    assert out[1] == ""


# ------------------------------------------------------------- a large file
def generate(path: Path, size: int, seed: int = 7):
    """Mostly ASCII lines, some multi-byte text, errors scattered at known places.
    Returns [(offset, end, reason, line, column)] of the errors."""
    rnd = random.Random(seed)
    words = ["lorem", "ipsum", "dolor", "sit", "amet", "encoding", "stream", "chunk", "parallel", "0123456789"]
    multi = ["café", "naïve", "Grüße", "日本語", "Ελληνικά", "emoji \U0001F600", "€100", "Ωmega", "ŝtono"]
    lines = []
    for _ in range(4000):
        ws = [rnd.choice(words) for _ in range(rnd.randint(3, 14))]
        if rnd.random() < 0.15:
            ws[rnd.randrange(len(ws))] = rnd.choice(multi)
        lines.append(CUTF8.encode(" ".join(ws) + "\n"))
    bad = [(b"\x80", "invalid start byte"), (b"\xe1\x80", "invalid continuation byte"),
           (b"\xc3", "invalid continuation byte"), (b"\xf8\x88\x80", "invalid continuation byte")]
    expected = []
    written = newlines = 0
    with open(path, "wb") as f:
        block = []
        while written < size:
            if rnd.random() < 0.001:
                b, reason = rnd.choice(bad)
                piece = b"ab" + b + b"c\n"
                expected.append((written + 2, written + 2 + len(b), reason, newlines + 1, 3))
            else:
                piece = lines[rnd.randrange(len(lines))]
            block.append(piece)
            written += len(piece)
            newlines += 1
            if len(block) >= 4096:
                f.write(b"".join(block))
                block = []
        f.write(b"".join(block))
    return expected


MEASURE = """
import json, resource, subprocess, sys
commands, out = json.loads(sys.argv[1]), sys.argv[2]
procs, prev = [], None
for k, args in enumerate(commands):
    last = k == len(commands) - 1
    p = subprocess.Popen(args, stdin=prev.stdout if prev else subprocess.DEVNULL,
                         stdout=open(out, "wb") if last else subprocess.PIPE)
    if prev:
        prev.stdout.close()
    procs.append(p)
    prev = p
codes = [p.wait() for p in procs]
print(json.dumps([codes, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))
"""


def measured(out: Path, *commands):
    """Run commands (piped one into the next) from a fresh process, the last one's stdout to *out*:
    (exit codes, peak resident memory in KiB of the largest process among them and their workers)."""
    got = subprocess.run([sys.executable, "-c", MEASURE, json.dumps([[str(a) for a in c] for c in commands]),
                          str(out)], capture_output=True, text=True, timeout=1800)
    assert got.returncode == 0, got.stderr
    codes, peak = json.loads(got.stdout)
    return codes, peak


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@pytest.mark.slow
def test_100_mb_file_validate_and_round_trip_in_bounded_memory(tmp_path):
    big = tmp_path / "big.cutf8"
    expected = generate(big, 100_000_000)
    assert len(expected) > 1000
    small = tmp_path / "small.txt"
    small.write_bytes(b"tiny\n")
    _, baseline = measured(tmp_path / "base.out", CLI + ["validate", "corrected-utf-8", small])

    # in parallel (the file is split in chunks at sync bytes), then sequentially: the same report
    report = tmp_path / "report.json"
    codes, peak = measured(report, CLI + ["validate", "corrected-utf-8", "--json", big])
    assert codes == [1]
    rep = json.loads(report.read_text())
    assert rep["errors"] == len(expected) and rep["reserved"] == 0
    assert [(p["offset"], p["end"], p["reason"], p["line"], p["column"]) for p in rep["problems"]] == expected
    assert peak - baseline < 100 * 1024, (peak, baseline)
    seq = tmp_path / "report-seq.json"
    codes, peak = measured(seq, CLI + ["validate", "corrected-utf-8", "--json", "-j", "1", big])
    assert codes == [1] and json.loads(seq.read_text()) == rep
    assert peak - baseline < 100 * 1024, (peak, baseline)

    # corrected-utf-8 → utf-8 → corrected-utf-8, streaming through a pipe: the same bytes
    back = tmp_path / "back.cutf8"
    codes, peak = measured(back, CLI + ["transcode", "--from", "corrected-utf-8", "--to", "utf-8",
                                        "--errors", "surrogateescape", big],
                           CLI + ["transcode", "--from", "utf-8", "--to", "corrected-utf-8",
                                  "--errors", "surrogateescape"])
    assert codes == [0, 0]
    assert peak - baseline < 100 * 1024, (peak, baseline)
    assert back.stat().st_size == big.stat().st_size and sha256(back) == sha256(big)
