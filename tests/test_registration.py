"""encspec.register(): the built-in specs as Python codecs (codecs.lookup, bytes.decode,
str.encode, open), encspec.load() of a spec that was never built, and a generated
module used on its own.

Expected texts and bytes come from the oracles (tests/oracles) and CPython.
"""
from __future__ import annotations

import codecs
import encodings
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import MAGIC, SPECS, byte_strings, oracle
from conftest import examples

encspec.register()

SPECS_DIR = Path(__file__).resolve().parents[1] / "specs"


def spec_aliases(name):
    """The aliases line of the spec file (specs/NAME.encspec)."""
    text = (SPECS_DIR / f"{name}.encspec").read_text("utf-8")
    m = re.search(r"^aliases\s+(.*?)\s*(#.*)?$", text, re.M)
    return [a.strip() for a in m.group(1).split(",")] if m else []


def cpython_knows(name):
    """True if CPython's own codec search finds name (then lookups never reach encspec)."""
    return encodings.search_function(encodings.normalize_encoding(name).lower()) is not None


def oracle_text(name, data):
    out = []
    for kind, _, _, value in oracle(name).tokens(data):
        if kind == "char":
            out.append(chr(value) if value <= 0x10FFFF else "\ufffd")
        elif kind != "signature":
            out.append("\ufffd")
    return "".join(out)


def is_encspec_codec(info, name):
    return info.name == name and info.incrementaldecoder is encspec.load(name).IncrementalDecoder


# =================================================================== lookup
OURS = [n for n in SPECS if not cpython_knows(n)]
SPELLINGS = [(n, s) for n in OURS
             for s in (n, n.upper(), n.replace("-", "_"), n.replace("-", " ").title(), f"  {n} ")]
ALIASES = [(n, a) for n in SPECS for a in spec_aliases(n) if not cpython_knows(a)]


def test_cpython_does_not_know_these_names_itself():
    assert OURS == [n for n in SPECS if n != "utf-8"]
    assert ("corrected-utf-8", "cutf8") in ALIASES and ("wtf-8", "wtf8") in ALIASES
    for name in OURS:
        assert is_encspec_codec(codecs.lookup(name), name)


@pytest.mark.parametrize("name, spelling", SPELLINGS)
def test_lookup_by_any_spelling(name, spelling):
    assert is_encspec_codec(codecs.lookup(spelling), name)


def test_lookup_by_title():
    assert is_encspec_codec(codecs.lookup("Corrected UTF-8"), "corrected-utf-8")
    assert is_encspec_codec(codecs.lookup("corrected utf 8"), "corrected-utf-8")


@pytest.mark.parametrize("name, alias", ALIASES)
def test_lookup_by_alias(name, alias):
    assert is_encspec_codec(codecs.lookup(alias), name)
    assert is_encspec_codec(codecs.lookup(alias.upper().replace("-", "_")), name)


@pytest.mark.parametrize("unknown", ["encspec-no-such-encoding", "corrected-utf-9", "wtf-8-sig", "utf-inf-9",
                                     "cutf9"])
def test_unknown_names_still_raise_lookup_error(unknown, tmp_path):
    with pytest.raises(LookupError):
        codecs.lookup(unknown)
    with pytest.raises(LookupError):
        b"x".decode(unknown)
    with pytest.raises(LookupError):
        "x".encode(unknown)
    with pytest.raises(LookupError):
        open(tmp_path / "f", "w", encoding=unknown)


def test_register_is_idempotent():
    encspec.register()
    encspec.register()
    assert is_encspec_codec(codecs.lookup("wtf-8"), "wtf-8")


# ========================================================= bytes.decode/str.encode
@settings(max_examples=examples(200), deadline=None)
@given(byte_strings("wtf-8"))
def test_bytes_decode_wtf_8_replace(data):
    assert data.decode("wtf-8", "replace") == oracle_text("wtf-8", data)
    assert data.decode("WTF8", errors="replace") == oracle_text("wtf-8", data)
    toks = oracle("wtf-8").tokens(data)
    bad = [t for t in toks if t[0] != "char"]
    if bad:
        with pytest.raises(UnicodeDecodeError) as e:
            data.decode("wtf-8")
        assert (e.value.start, e.value.end) == bad[0][1:3]
    else:
        assert data.decode("wtf-8") == "".join(chr(t[3]) for t in toks)


def test_bytes_decode_wtf_8_examples():
    assert b"\xed\xa0\x80".decode("wtf-8") == "\ud800"                     # README / wtf-8.txt
    assert b"a\xed\xa0\x80\xed\xb0\x80b".decode("wtf-8", "replace") == "a\ufffdb"   # pair: one error


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=12))
def test_str_encode_cesu_8(text):
    assert "x".encode("cesu-8") == b"x"
    want = oracle("cesu-8").encode([ord(c) for c in text])
    assert text.encode("cesu-8") == want
    assert want.decode("cesu-8") == text


def test_str_encode_cesu_8_supplementary_and_surrogates():
    assert "\U00010400".encode("cesu-8") == bytes.fromhex("ED A0 81 ED B0 80")   # TR #26's example
    with pytest.raises(UnicodeEncodeError) as e:
        "a\ud800".encode("cesu-8")
    assert (e.value.start, e.value.end) == (1, 2)
    assert "a\ud800b".encode("cesu-8", "replace") == b"a?b"


# ===================================================================== open()
TEXT = "plain ASCII\nLatin \u00cf \u00e9\nrows \u0800 \ud7ff \ue000 \U000110a0 \U0010ffff\nend\n"


def test_open_reads_a_file_written_by_encode(tmp_path):
    m = encspec.load("corrected-utf-8")
    path = tmp_path / "doc.txt"
    body = TEXT * 700                                  # more than one TextIOWrapper chunk
    for signature in (True, False):
        path.write_bytes(m.encode(body, signature=signature))
        assert path.read_bytes() == (MAGIC if signature else b"") + oracle("corrected-utf-8").encode(map(ord, body))
        with open(path, encoding="corrected-utf-8") as f:
            assert f.read() == body
        with open(path, encoding="Corrected UTF-8") as f:
            assert f.readline() == "plain ASCII\n"
            assert list(f)[-1] == "end\n"


def test_open_tell_and_seek(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(encspec.load("corrected-utf-8").encode(TEXT * 3, signature=True))
    with open(path, encoding="corrected-utf-8") as f:
        marks = []
        while True:
            marks.append(f.tell())
            if not f.read(1):
                break
        for k in range(0, len(marks) - 1, 5):
            f.seek(marks[k])
            assert f.read(4) == (TEXT * 3)[k:k + 4], k


def test_open_writes_with_an_encspec_encoding(tmp_path):
    path = tmp_path / "out.txt"
    with open(path, "w", encoding="corrected-utf-8", newline="") as f:
        f.write(TEXT[:20])
        f.write(TEXT[20:])
    assert path.read_bytes() == oracle("corrected-utf-8").encode(map(ord, TEXT))
    with open(path, "w", encoding="corrected-utf-8-sig", newline="") as f:
        f.write(TEXT)
    assert path.read_bytes() == oracle("corrected-utf-8").encode(map(ord, TEXT), signature=True)
    with open(path, encoding="corrected-utf-8") as f:
        assert f.read() == TEXT
    with open(path, "w", encoding="corrected-utf-8", errors="replace", newline="") as f:
        f.write("C1 \x85 skipped\n")
    assert path.read_bytes() == b"C1 ? skipped\n"
    with open(path, "w", encoding="wtf-8", newline="") as f:
        f.write("lone \ud800 surrogate\n")
    assert path.read_bytes() == oracle("wtf-8").encode(map(ord, "lone \ud800 surrogate\n"))
    with open(path, encoding="wtf-8") as f:
        assert f.read() == "lone \ud800 surrogate\n"


def test_open_read_strict_error_names_the_encoding(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\n\xfe\x80 reserved\n")
    with open(path, encoding="corrected-utf-8") as f:
        with pytest.raises(UnicodeDecodeError) as e:
            f.read()
    assert e.value.encoding == "corrected-utf-8" and e.value.reason == "reserved sequence"
    with open(path, encoding="corrected-utf-8", errors="replace") as f:
        assert f.read() == "ok\n\ufffd reserved\n"


COMMAND = "import encspec; encspec.register(); print(open('f', encoding='corrected-utf-8').read())"


def test_the_one_line_command_in_a_subprocess(tmp_path):
    text = "Caf\u00e9 \u00cf \U000110a0\nsecond line"
    (tmp_path / "f").write_bytes(encspec.load("corrected-utf-8").encode(text, signature=True))
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-c", COMMAND], cwd=tmp_path, capture_output=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (text + "\n").encode("utf-8")
    assert proc.stderr == b""


# ========================================================= load(path) of a user spec
def user_spec(tmp_path, name="my-utf-8", title="My UTF-8"):
    source = (SPECS_DIR / "utf-8.encspec").read_text("utf-8")
    source = re.sub(r"^encoding\s+utf-8\s*$", f"encoding {name}", source, flags=re.M)
    source = re.sub(r"^title\s+.*$", f'title    "{title}"', source, flags=re.M)
    source = re.sub(r"^aliases\s+.*$", "aliases  my-utf8", source, flags=re.M)
    assert f"encoding {name}" in source
    path = tmp_path / f"{name}.encspec"
    path.write_text(source, "utf-8")
    return path


def test_load_a_user_spec_that_was_never_built(tmp_path):
    path = user_spec(tmp_path)
    m = encspec.load(str(path))
    assert m.NAME == "my-utf-8"
    assert m is not encspec.load("utf-8")
    assert encspec.load(str(path)) is m                       # cached
    inputs = [bytes([a, b]) for a in range(256) for b in range(0, 256, 3)] + \
        [b"\xf0\x90\x80\x80", b"\xf4\x90\x80\x80", b"\xed\xa0\x80", b"\xef\xbb\xbfA"]
    for data in inputs:
        assert m.decode(data, "replace") == data.decode("utf-8", "replace"), data
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(b"ab\xc3")
    assert (e.value.encoding, e.value.start, e.value.end, e.value.reason) == ("my-utf-8", 2, 3, "unexpected end of data")
    assert m.encode("\u00e9\U0010ffff") == "\u00e9\U0010ffff".encode("utf-8")
    with pytest.raises(UnicodeEncodeError):
        m.encode("\ud800")


def test_load_a_changed_user_spec_compiles_it_again(tmp_path):
    path = user_spec(tmp_path, "my-utf-8b", "First title")
    first = encspec.load(str(path))
    user_spec(tmp_path, "my-utf-8b", "Second title")
    second = encspec.load(str(path))
    assert second is not first
    assert "Second title" in second.__doc__ and "First title" in first.__doc__
    assert encspec.load(str(path)) is second


# =================================================== a generated module on its own
CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)           # site's .pth hooks may have imported a few already
import {module} as m
data = bytes.fromhex(sys.argv[2])
print(ascii(m.decode(data, "replace")))
print(m.decode_codepoints(data, "replace"))
print(m.encode([int(c) for c in sys.argv[3].split(",")]).hex())
foreign = sorted(n for n in set(sys.modules) - before
                 if n.split(".")[0] not in sys.stdlib_module_names and n != "{module}")
print(foreign)
"""


@pytest.mark.parametrize("name", ["corrected-utf-8", "utf-inf-8", "wtf-8"])
def test_a_generated_module_copied_alone_works_with_python_isolated(name, tmp_path):
    source = Path(encspec.load(name).__file__)
    assert source.suffix == ".py" and source.parent.name == "generated"
    module = "copied_" + name.replace("-", "_")
    (tmp_path / f"{module}.py").write_bytes(source.read_bytes())
    data = (MAGIC if name == "corrected-utf-8" else b"") + b"A\xc0\xaf\xed\xa0\x80\xfe\x80" + \
        oracle(name).encode([0x10FFFF, 0x110000] if name != "wtf-8" else [0x10FFFF])
    cps = [0x41, 0xCF, 0x10FFFF] + ([2 ** 80] if name == "utf-inf-8" else [])
    proc = subprocess.run([sys.executable, "-I", "-c", CHILD.replace("{module}", module),
                           str(tmp_path), data.hex(), ",".join(map(str, cps))],
                          cwd=tmp_path, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    want_cps = [0xFFFD if kind in ("error", "reserved") else value
                for kind, _, _, value in oracle(name).tokens(data) if kind != "signature"]
    lines = proc.stdout.decode("ascii").splitlines()
    assert lines == [ascii(oracle_text(name, data)), str(want_cps), oracle(name).encode(cps).hex(), "[]"]
