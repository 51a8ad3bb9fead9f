"""Issue 34: `end` forms, and encode never writing what decode rejects.

An `end` form's sequences count only where the data ends: the decoder reads
them there, describe and check show them, and encoders never write them (an
encoder handed text piece by piece cannot know where it ends).  The three
regressions: (a) with no ill-formed pattern the encoder wrote an `end` form in
the middle of a text; (b) an ill-formed pattern anywhere made the `end` forms
vanish from describe, check and the encoder while the decoder still read them;
(c) a spec whose only forms are `end` forms died with a ValueError in check and
load.  Then the property, for every built-in spec and for generated specs
combining constructs: whatever encode writes, decode reads.
"""
from __future__ import annotations

import itertools
import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
import tools
from codec_samples import BACKENDS, SPECS, boundary_cps, encodable, joined_pairs, load_backend
from conftest import decodable_builtins, examples, run_cli, with_backends

END_FORM = """\
encoding t-end
code-space U+0000..U+00FF
form 1: 0xxxxxxx
form last: 10xxxxxx end at U+0080
"""
PATTERN = 'ill-formed pattern bad: 11xxxxxx "a byte C0..FF"\n'


def write(tmp_path, text, name="t.encspec"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def checked_and_loaded(capsys, path, top):
    """The codec of *path*, after `encspec check` found its highest code point *top*."""
    rc, out, err = run_cli(capsys, "check", path)
    assert rc == 0, err
    assert f"max_code_point       {top}" in out
    return encspec.load(str(path), backend="python")


# ------------------------------------------------------------------ (a)
def test_an_end_form_is_never_written_in_the_middle_of_a_text(tmp_path):
    """(a): encode("A\\x81") wrote 41 81, which the decoder rejects (81 only counts at the end)."""
    codec = encspec.load(str(write(tmp_path, END_FORM)), backend="python")
    assert codec.decode(b"A\x81") == "A\x81"          # where the data ends: the end form
    with pytest.raises(UnicodeDecodeError):
        codec.decode(b"\x81A")                        # anywhere else: an error
    with pytest.raises(UnicodeEncodeError) as e:
        codec.encode("A\x81B")
    assert (e.value.start, e.value.end) == (1, 2)
    assert codec.encode("A\x81B", "replace") == b"A?B"


# ------------------------------------------------------------------ (b)
def test_an_ill_formed_pattern_leaves_the_end_forms_in_describe_check_and_decoding(tmp_path, capsys):
    """(b): with a pattern anywhere, describe showed only 00..7F, check's max_code_point
    was U+007F, and the encoder refused U+0081, while the decoder read 81 at the end."""
    path = write(tmp_path, END_FORM + PATTERN)
    rc, out, err = run_cli(capsys, "describe", path)
    assert rc == 0, err
    assert "80 … BF" in out and "0000 0080 … 0000 00BF  (end" in out
    rc, out, err = run_cli(capsys, "describe", "--json", path)
    assert rc == 0, err
    assert json.loads(out)["rows"][1] == {"length": 1, "first_bytes": "80", "last_bytes": "BF", "offset": 128,
                                          "first": 128, "last": 191, "end": True}
    codec = checked_and_loaded(capsys, path, "U+00BF")
    assert codec.decode(b"A\x81") == "A\x81"
    with pytest.raises(UnicodeDecodeError):
        codec.decode(b"A\xc1")                        # the pattern
    # the end form is described as the spec says, and encoded as without the pattern: never
    plain = encspec.load(str(write(tmp_path, END_FORM, "plain.encspec")), backend="python")
    for text in ("A", "\x81", "A\x81"):
        for errors in ("replace", "ignore"):
            assert codec.encode(text, errors) == plain.encode(text, errors)


def test_the_native_encoder_never_writes_an_end_form_either(tmp_path, monkeypatch):
    """The compiled extension's encoder loops read the same rows: U+0081 (only an
    end form) is unencodable there too, with and without a pattern."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for k, text in enumerate((END_FORM, END_FORM + PATTERN)):
        path = write(tmp_path, text.replace("t-end", f"t-end-{k}"), f"native{k}.encspec")
        py, nat = encspec.load(str(path), backend="python"), encspec.load(str(path), backend="native")
        assert nat._NATIVE is not None
        assert nat.decode(b"A\x81") == "A\x81"
        for cps in ([0x41, 0x81, 0x42], [0x81], list(range(0x100)) * 3):
            for errors in ("replace", "ignore", "backslashreplace"):
                got = nat.encode(cps, errors)
                assert got == py.encode(cps, errors)
                assert b"\x81" not in got and nat.decode(got) == py.decode(got)
            with pytest.raises(UnicodeEncodeError):
                nat.encode(cps)
        assert nat.encode("A" * 1000 + "\x81B", "replace") == b"A" * 1000 + b"?B"


# ------------------------------------------------------------------ (c)
def test_a_spec_of_end_forms_only_is_checked_and_loaded(tmp_path, capsys):
    """(c): only `end` forms (and a pattern): check and load died with
    "ValueError: max() arg is an empty sequence"."""
    path = write(tmp_path, "encoding t-end-only\ncode-space U+0000..U+00FF\n"
                           "form last: 0xxxxxxx end\n" + PATTERN.replace("11xxxxxx", "1xxxxxxx"))
    codec = checked_and_loaded(capsys, path, "U+007F")
    assert codec.decode(b"A") == "A"
    with pytest.raises(UnicodeDecodeError):
        codec.decode(b"AA")
    with pytest.raises(UnicodeEncodeError):
        codec.encode("A")                             # an end form is never written


# ------------------------------------------ encode never writes what decode rejects
def never_rejected(codec, cps):
    """Whatever *codec* writes for *cps* (strict, and with "replace"), it decodes, and
    strictly as written: each code point's bytes read alone as within the text (`encode
    U+00A5 as 5C` need not come back as U+00A5), a surrogate pair of code points joined
    first only where encoders join pairs (WTF-8 6.1) -- never read back as another code
    point (WTF-16, Modified UTF-8: wtf-8.txt 4.1, "should be considered an error")."""
    for errors in ("strict", "replace"):
        try:
            data = codec.encode(cps, errors)
        except (UnicodeEncodeError, ValueError, OverflowError):
            continue
        got = codec.decode_codepoints(data)           # raises where the decoder rejects a byte
        if errors == "strict":
            written = joined_pairs(cps) if codec.PAIR_ON_ENCODE else cps
            assert got == [d for c in written for d in _alone(codec, c)]


def _alone(codec, c):
    """What *c*'s bytes read as within a text: alone, except U+FEFF, whose bytes alone are
    the signature of a spec that has one (utf-8-bom's EF BB BF), read as none."""
    got = codec.decode_codepoints(codec.encode([c]))
    return [0xFEFF] if c == 0xFEFF and got == [] else got


@pytest.mark.parametrize("name, backend", with_backends(decodable_builtins(), BACKENDS))
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_encode_never_writes_what_decode_rejects_for_built_in_specs(name, backend, data):
    codec = load_backend(name, backend)
    cps = data.draw(st.lists(st.one_of(st.sampled_from(boundary_cps(name)), st.integers(0, 0x10FFFF),
                                       st.integers(0xD800, 0xDFFF)), max_size=8), label="cps")
    never_rejected(codec, cps)


# The specs with an oracle that encode a lone surrogate (the oracle decides); for them,
# lists dense in surrogates, so that a lead followed by a trail comes up in most examples.
SURROGATE_SPECS = [n for n in SPECS + ["wtf-16"] if encodable(n, 0xD800) and encodable(n, 0xDC00)]
SURROGATE_DENSE = st.lists(st.one_of(st.integers(0xD800, 0xDBFF), st.integers(0xDC00, 0xDFFF),
                                     st.sampled_from([0x41, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x10000])),
                           max_size=10)


def test_the_surrogate_specs_include_those_whose_pairs_read_back_as_one():
    assert {"wtf-16", "mutf-8", "wtf-8"} <= set(SURROGATE_SPECS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SURROGATE_SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(cps=SURROGATE_DENSE)
def test_encode_never_writes_a_surrogate_pair_that_decode_reads_as_another_code_point(name, backend, cps):
    never_rejected(load_backend(name, backend), cps)


# Constructs a generated byte spec may combine: each is a few lines, on top of a 1-byte form.
CONSTRUCTS = {
    "two-byte": "form 2: 110xxxxx 10xxxxxx min U+0080\n",
    "end": "form last: 10xxxxxx end at U+0800\nform lit: FE end = U+0900\n",
    "pattern": 'ill-formed pattern bad: 1101xxxx 10xxxxxx "bad"\nill-formed pattern cut: 110xxxxx end "cut"\n',
    "encode": "encode U+00A5 as 5C\nunencodable U+0041\n",
    "signature": "signature EF BB BF\n",
    "table": "form tab: F0..F3 80..BF table ideographs\n",
}
TABLE_LINE = 'table ideographs "t.txt" encode-skip 4..9\n'  # before the forms
TABLE = "".join(f"{k}\t0x{0x4E00 + 3 * k:04X}\n" for k in range(0, 256, 2))


def byte_spec(chosen) -> str:
    return ("encoding t-gen\ncode-space U+0000..U+FFFF\n" + (TABLE_LINE if "table" in chosen else "")
            + "form 1: 0xxxxxxx\n" + "".join(CONSTRUCTS[c] for c in chosen))


UNIT_SPEC = """\
encoding t-gen-units
code-unit 16 big-endian
code-space U+0000..U+FFFF
form low: 0xxxxxxxxxxxxxxx
"""
UNIT_CONSTRUCTS = {
    "end": "form high: 1xxxxxxxxxxxxxxx end at U+8000\n",
    "pattern": 'ill-formed pattern odd: 0111111111111111 "not this one"\n',
    "signature": "signature FE FF\n",
}
GENERATED = ([("bytes", c) for k in range(len(CONSTRUCTS) + 1) for c in itertools.combinations(CONSTRUCTS, k)]
             + [("units", c) for k in range(len(UNIT_CONSTRUCTS) + 1)
                for c in itertools.combinations(UNIT_CONSTRUCTS, k)])
_GENERATED_CODECS: dict = {}
GENERATED_CPS = [0, 0x41, 0x5C, 0x7F, 0x80, 0xA5, 0xBF, 0x7FF, 0x800, 0x83F, 0x900, 0x4E00, 0x4E03, 0x4E06,
                 0x7FFF, 0x8000, 0xFFFF, 0xD800, 0xDC00]


@pytest.mark.parametrize("family, chosen", GENERATED, ids=["-".join((f,) + c) for f, c in GENERATED])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_encode_never_writes_what_decode_rejects_for_generated_specs(family, chosen, data, tmp_path_factory):
    text = byte_spec(chosen) if family == "bytes" else UNIT_SPEC + "".join(UNIT_CONSTRUCTS[c] for c in chosen)
    if text not in _GENERATED_CODECS:  # compiled once, not once per example
        folder = tmp_path_factory.mktemp("gen")
        (folder / "t.txt").write_text(TABLE, "utf-8")
        _GENERATED_CODECS[text] = encspec.load(str(write(folder, text)), backend="python")
    codec = _GENERATED_CODECS[text]
    cps = data.draw(st.lists(st.one_of(st.sampled_from(GENERATED_CPS), st.integers(0, 0xFFFF)), max_size=8),
                    label="cps")
    never_rejected(codec, cps)
