"""encspec.register(*names_or_paths) and encspec.codec_info(): a user's own spec becomes a
Python codec without a hand-written search function.

codecs caches every lookup that succeeds, process-wide, so each test gives its spec
a name of its own (from the test's name); a name that only ever fails is never cached.
"""
from __future__ import annotations

import codecs
import subprocess
import sys
from pathlib import Path

import pytest

import encspec
from encspec.spec.diagnostics import SpecError

SPEC = """\
encoding {name}
title    "UTF-8 under another name"
aliases  {name}-alias, {name}x
{signature}
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF

form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx              min U+0080
form 3: 1110xxxx 10xxxxxx{{2}}           min U+0800
form 4: 11110xxx 10xxxxxx{{3}}           min U+10000
"""

TEXT = "Caf\u00e9 \u20ac \U0001f600\nline two"


@pytest.fixture
def name(request):
    """A codec name no other test (and no earlier lookup) has used."""
    return "enctest-" + request.node.name.replace("_", "-").replace("[", "-").strip("]-").lower()


def write_spec(tmp_path: Path, name: str, signature: str = "") -> Path:
    path = tmp_path / f"{name}.encspec"
    path.write_text(SPEC.format(name=name, signature=f"signature {signature}" if signature else ""), "utf-8")
    return path


def test_a_user_spec_registered_by_path_is_a_python_codec(tmp_path, name):
    path = write_spec(tmp_path, name)
    with pytest.raises(LookupError):
        codecs.lookup(name)                              # not before it is registered
    encspec.register(str(path))
    info = codecs.lookup(name)
    assert info.name == name
    assert codecs.lookup(f"{name}-alias").name == name   # its aliases too, any spelling
    assert codecs.lookup(f"  {name.upper()}X ").name == name
    data = TEXT.encode("utf-8")
    assert data.decode(name) == TEXT
    assert TEXT.encode(name) == data
    assert b"ab\xffc".decode(name, "replace") == "ab\ufffdc"
    with pytest.raises(UnicodeDecodeError) as e:
        b"ab\xc3".decode(name)
    assert (e.value.encoding, e.value.start) == (name, 2)
    with pytest.raises(UnicodeEncodeError):
        "\ud800".encode(name)
    # open(), writing and reading
    with open(tmp_path / "out.txt", "w", encoding=name, newline="") as f:
        f.write(TEXT)
    assert (tmp_path / "out.txt").read_bytes() == data
    with open(tmp_path / "out.txt", encoding=f"{name}-alias", newline="") as f:
        assert f.read() == TEXT
    # an incremental decoder fed one byte at a time
    decoder = codecs.getincrementaldecoder(name)()
    pieces = [decoder.decode(data[i:i + 1]) for i in range(len(data))] + [decoder.decode(b"", final=True)]
    assert "".join(pieces) == TEXT
    assert pieces[data.index(b"\xe2")] == ""            # the euro sign waits for its last byte
    assert codecs.getincrementalencoder(name)().encode(TEXT, final=True) == data


def test_a_path_object_and_registering_twice_are_harmless(tmp_path, name):
    path = write_spec(tmp_path, name)
    encspec.register(path)
    first = codecs.lookup(name)
    encspec.register(path)
    encspec.register(str(path), str(path))
    encspec.register()
    assert codecs.lookup(name) is first
    assert "\u00e9".encode(name) == b"\xc3\xa9"


def test_the_sig_variant_of_a_user_spec_with_a_signature(tmp_path, name):
    path = write_spec(tmp_path, name, "EF BB BF")
    encspec.register(str(path))
    assert codecs.lookup(f"{name}-sig").name == f"{name}-sig"
    assert codecs.lookup(f"{name}-alias-sig").name == f"{name}-sig"
    assert "A\u00e9".encode(f"{name}-sig") == b"\xef\xbb\xbfA\xc3\xa9"
    assert "A\u00e9".encode(name) == b"A\xc3\xa9"        # the plain name writes none
    assert b"\xef\xbb\xbfA\xc3\xa9".decode(f"{name}-sig") == "A\u00e9"
    with open(tmp_path / "signed.txt", "w", encoding=f"{name}-sig") as f:
        f.write("one")
        f.write("two")
    assert (tmp_path / "signed.txt").read_bytes() == b"\xef\xbb\xbfonetwo"   # written once
    info = encspec.codec_info(str(path), signature=True)
    assert info.name == f"{name}-sig"
    assert info.encode("x") == (b"\xef\xbb\xbfx", 1)


def test_no_sig_variant_without_a_signature(tmp_path, name):
    path = write_spec(tmp_path, name)
    encspec.register(str(path))
    with pytest.raises(LookupError):
        codecs.lookup(f"{name}-sig")
    with pytest.raises(ValueError, match="no signature"):
        encspec.codec_info(str(path), signature=True)


def test_an_unknown_name_fails_with_one_clear_line():
    with pytest.raises(LookupError) as e:
        encspec.register("enctest-no-such-encoding")
    message = str(e.value)
    assert "\n" not in message
    assert "unknown encoding 'enctest-no-such-encoding'" in message and "wtf-8" in message
    assert ".encspec" in message                      # says how to give a spec of one's own
    with pytest.raises(LookupError, match="unknown encoding"):
        encspec.codec_info("enctest-no-such-encoding")


def test_a_bad_spec_path_raises_spec_error(tmp_path):
    with pytest.raises(SpecError, match="no such spec file"):
        encspec.register(str(tmp_path / "missing.encspec"))
    bad = tmp_path / "bad.encspec"
    bad.write_text("encoding enctest-bad\nform 1: 0xxxxxxx 10\n", "utf-8")
    with pytest.raises(SpecError):
        encspec.register(str(bad))
    with pytest.raises(LookupError):
        codecs.lookup("enctest-bad")


def test_nothing_is_registered_when_one_argument_fails(tmp_path, name):
    path = write_spec(tmp_path, name)
    with pytest.raises(LookupError):
        encspec.register(str(path), "enctest-no-such-encoding")
    with pytest.raises(LookupError):
        codecs.lookup(name)


def test_a_name_already_taken_is_refused(tmp_path, name):
    wtf = tmp_path / "wtf.encspec"
    wtf.write_text(SPEC.format(name="wtf-8", signature=""), "utf-8")
    with pytest.raises(ValueError, match="'wtf-8' is a built-in"):
        encspec.register(str(wtf))
    python_own = tmp_path / "latin.encspec"
    python_own.write_text(SPEC.format(name="latin-1", signature=""), "utf-8")
    with pytest.raises(ValueError, match="'latin-1' is a built-in"):
        encspec.register(str(python_own))
    encspec.register(str(write_spec(tmp_path, name)))
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(ValueError, match="already registered"):
        encspec.register(str(write_spec(other, name)))


def test_codec_info_follows_the_codecs_conventions(tmp_path, name):
    path = write_spec(tmp_path, name)
    info = encspec.codec_info(str(path))                 # nothing registered
    assert isinstance(info, codecs.CodecInfo) and info.name == name
    assert info.encode("\u00e9") == (b"\xc3\xa9", 1)
    assert info.decode(b"\xc3\xa9!") == ("\u00e9!", 3)
    assert info.incrementaldecoder().decode(b"\xc3") == ""
    with pytest.raises(LookupError):
        codecs.lookup(name)
    assert encspec.codec_info("corrected-utf-8", signature=True).name == "corrected-utf-8-sig"
    assert encspec.codec_info("wtf-8", backend="python").decode(b"\xed\xa0\x80") == ("\ud800", 3)
    with pytest.raises(ValueError, match="no signature"):
        encspec.codec_info("wtf-8", signature=True)
    with pytest.raises(ValueError, match="unknown backend"):
        encspec.codec_info("wtf-8", backend="fortran")
    # by hand, the way register() does it
    codecs.register(lambda n: info if n == name.replace("-", "_") else None)
    assert "\u00e9".encode(name) == b"\xc3\xa9"


def test_built_ins_by_name_register_only_those(tmp_path):
    """In a fresh process: register("wtf-8") leaves cesu-8 unknown until register()."""
    code = """
import codecs, encspec
encspec.register("wtf-8", "corrected-utf-8-sig")
print(codecs.lookup("wtf-8").name, codecs.lookup("corrected-utf-8").name, codecs.lookup("cutf8-sig").name)
try:
    codecs.lookup("cesu-8")
except LookupError:
    print("no cesu-8")
encspec.register()
print(codecs.lookup("cesu-8").name)
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n") == ["wtf-8 corrected-utf-8 corrected-utf-8-sig", "no cesu-8", "cesu-8", ""]
