"""Spec checks seen from every command, and ill-formed patterns of plain bytes.

test_spec_errors.py holds one small spec per mistake, reported by `describe`;
here the same reports come from the commands that used to go on regardless
(`export` wrote 0x-1 for an alphabet out of order, `check` double-counted
duplicate forms), and the spec-language page's own ill-formed pattern, written with
literal bytes and ranges, works in every command (it used to crash them all).
"""
from __future__ import annotations

import json

import pytest

import encspec
from conftest import representative_builtins
from encspec.cli import main
from test_spec_errors import expected_report, run

UNORDERED = ("encoding unordered\ncode-space U+0000..U+00FF\nalphabet d = 01, 00\n"
             "form 1: 0xxxxxxx\nform 2: 80 d at U+0080\n")
UNORDERED_MESSAGE = ("byte run 00 comes after 01 in alphabet 'd': list the runs in increasing byte order "
                     "(alphabet d = 00, 01)")
DUPLICATE = "encoding dup\ncode-space U+0000..U+10FFFF\nform 1: 0xxxxxxx\nform ascii-again: 00..7F\n"
DUPLICATE_MESSAGE = ("forms '1' and 'ascii-again' both accept 00 with the same value: "
                     "a byte sequence has one meaning; narrow or remove one of them")

# UTF-8 as in the README and the guide, plus ill-formed patterns written with fixed bytes,
# ranges, bit patterns and a repetition (each used to crash every command)
PATTERNS = """encoding surr
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx min U+0080
form 3: 1110xxxx 10xxxxxx{2} min U+0800
form 4: 11110xxx 10xxxxxx{3} min U+10000
ill-formed pattern surr: ED A0..BF 80..BF "surrogate"
ill-formed pattern beyond: 11110100 1001xxxx 10xxxxxx{2} "beyond U+10FFFF"
"""


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


def write(tmp_path, text, name="spec.encspec"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", ["json", "c", "rust", "js", "java"])
def test_export_refuses_an_alphabet_out_of_order(tmp_path, capsys, lang):
    path = write(tmp_path, UNORDERED)
    out = tmp_path / "out"
    rc, err = run(["export", str(path), "--lang", lang, "-o", str(out)], capsys)
    assert err == expected_report(path, UNORDERED, 3, 18, UNORDERED_MESSAGE)
    assert rc == 2
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("how", [["-o", "out"], ["--native"]])
def test_build_refuses_an_alphabet_out_of_order(tmp_path, capsys, how):
    """Before anything is written or compiled (--native used to show a failing compiler command)."""
    path = write(tmp_path, UNORDERED)
    how = [str(tmp_path / x) if x == "out" else x for x in how]
    rc, err = run(["build", str(path), *how], capsys)
    assert err == expected_report(path, UNORDERED, 3, 18, UNORDERED_MESSAGE)
    assert rc == 2
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_check_refuses_duplicate_forms(tmp_path, capsys):
    path = write(tmp_path, DUPLICATE)
    rc, err = run(["check", str(path)], capsys)
    assert err == expected_report(path, DUPLICATE, 4, 1, DUPLICATE_MESSAGE)
    assert rc == 2


def test_every_builtin_spec_passes_the_checks(capsys):
    for name in representative_builtins():
        rc, err = run(["describe", name], capsys)
        assert (rc, err) == (0, ""), name


# ------------------------------------------------ ill-formed patterns of bytes
def test_patterns_of_bytes_describe(tmp_path, capsys):
    path = write(tmp_path, PATTERNS)
    rc, err = run(["describe", "--json", str(path)], capsys)
    assert (rc, err) == (0, "")
    rc = main(["describe", str(path)])
    out = capsys.readouterr().out
    assert rc == 0
    # the rows of UTF-8: patterns add no valid sequence
    for row in ("00 … 7F", "C2 80 … DF BF", "E0 A0 80 … ED 9F BF", "EE 80 80 … EF BF BF",
                "F0 90 80 80 … F4 8F BF BF"):
        assert row in out, row


def test_patterns_of_bytes_check(tmp_path, capsys):
    path = write(tmp_path, PATTERNS)
    rc = main(["check", "--json", str(path)])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert all(d["properties"].values()), d["counterexamples"]
    # UTF-8's counts: 63488 three-byte values less the 2048 surrogates
    assert d["lengths"] == {"1": 128, "2": 1920, "3": 61440, "4": 1048576}


def test_patterns_of_bytes_tokens(tmp_path, capsys):
    path = write(tmp_path, PATTERNS)
    data = write(tmp_path, "", "data.bin")
    data.write_bytes(b"\xed\xa0\x80A\xf4\x90\x80\x80\xed\x9f\xbf")
    rc = main(["tokens", str(path), str(data)])
    assert rc == 0
    assert capsys.readouterr().out == "error 0 3\nchar 3 4 41\nerror 4 8\nchar 8 11 D7FF\n"


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_patterns_of_bytes_decode(tmp_path, backend):
    codec = encspec.load(str(write(tmp_path, PATTERNS)), backend=backend)
    with pytest.raises(UnicodeDecodeError) as e:
        codec.decode(b"A\xed\xa0\x80")
    assert (e.value.start, e.value.end, e.value.reason) == (1, 4, "surrogate")
    with pytest.raises(UnicodeDecodeError) as e:
        codec.decode(b"\xf4\x90\x80\x80")
    assert (e.value.start, e.value.end, e.value.reason) == (0, 4, "beyond U+10FFFF")
    assert codec.decode(b"\xed\xa0\x80A\xed\xbf\xbf", "replace") == "\ufffdA\ufffd"
