"""The replacement policies of the encyclopedia article as error handlers (issue: error policies).

Each is checked against CPython's own utf-8 codec: the same handler must give
the same result through an encspec codec and through CPython's.
"""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, oracle
from conftest import examples

encspec.register()

malformed = st.lists(st.one_of(
    st.sampled_from([0x41, 0x80, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]),
    st.integers(0, 255)), max_size=30).map(bytes)


def error_spans(data: bytes) -> list[tuple[int, int]]:
    spans = []

    def record(exc):
        spans.append((exc.start, exc.end))
        return ("", exc.end)
    codecs.register_error("test.spans", record)
    data.decode("utf-8", "test.spans")
    return spans


def by_hand(data: bytes, per_byte) -> str:
    """Decode with CPython, replacing each error span byte by byte with per_byte(b).

    In UTF-8 this is the per-byte policy: after an error's first byte, the rest of
    its maximal subpart are continuation bytes, each an error of its own."""
    out, pos = [], 0
    for start, end in error_spans(data):
        out.append(data[pos:start].decode("utf-8"))
        out.append("".join(per_byte(b) for b in data[start:end]))
        pos = end
    out.append(data[pos:].decode("utf-8"))
    return "".join(out)


def cp1252_char(b: int) -> str:
    return chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252")


@settings(max_examples=examples(300), deadline=None)
@given(malformed)
def test_latin1_cp1252_optu8_per_byte_agree_with_cpython(data):
    utf8 = encspec.load("utf-8")
    expected = {
        "encspec.latin1": by_hand(data, lambda b: bytes([b]).decode("latin-1")),
        "encspec.cp1252": by_hand(data, cp1252_char),
        "encspec.optu8": by_hand(data, lambda b: chr(0xEF00 + b)),
        "encspec.replace_per_byte": by_hand(data, lambda b: "\ufffd"),
    }
    for handler, want in expected.items():
        assert data.decode("utf-8", handler) == want, handler      # CPython's codec
        assert utf8.decode(data, handler) == want, handler          # encspec's


def test_cp1252_maps_undefined_bytes_to_c1_and_0x80_to_euro():
    assert b"\x80\x81\x8d\x8f\x90\x9d\x9f".decode("utf-8", "encspec.cp1252") == "€\x81\x8d\x8f\x90\x9dŸ"


def test_per_byte_versus_maximal_subpart():
    """Encyclopedia article: "E1,A0,C0 is two errors (2 bytes in the first one)"; per byte, three."""
    assert b"\xe1\xa0\xc0".decode("utf-8", "replace") == "\ufffd\ufffd"
    assert b"\xe1\xa0\xc0".decode("utf-8", "encspec.replace_per_byte") == "\ufffd" * 3
    assert encspec.load("utf-8").decode(b"\xe1\xa0\xc0", "encspec.replace_per_byte") == "\ufffd" * 3


def per_byte_by_oracle(name: str, data: bytes, per_byte) -> str:
    """The article's per-byte policy, by hand from the spec's oracle: at each position
    the oracle's first token; a char (up to U+10FFFF) is kept, anything else has
    its first byte replaced with per_byte(b) and decoding resumes at the next byte."""
    tokens = oracle(name).tokens
    out, pos = [], 0
    while pos < len(data):
        kind, start, end, value = tokens(data[pos:])[0]
        if kind == "char" and value <= 0x10FFFF:
            out.append(chr(value))
            pos += end
        else:
            out.append(per_byte(data[pos]))
            pos += 1
    return "".join(out)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["cesu-8", "wtf-8", "corrected-utf-8", "utf-1", "fss-utf-1992"])
def test_handlers_work_with_other_encspec_codecs(name, backend):
    """One byte of an error is replaced and decoding resumes at the next, whatever the encoding."""
    data = bytes.fromhex("41F0908080EDA080EDB080C0AFFE80FF21E08090F62FE0")
    m = encspec.load(name, backend=backend)
    assert any(kind != "char" for kind, *_ in m.tokens(data))
    assert m.decode(data, "encspec.latin1") == per_byte_by_oracle(name, data, chr)
    assert m.decode(data, "encspec.replace_per_byte") == per_byte_by_oracle(name, data, lambda b: "\ufffd")


@pytest.mark.parametrize("backend", BACKENDS)
def test_per_byte_policies_resume_after_one_byte(backend):
    """Issue 13, defect 5: the bytes after the replaced one are decoded again.

    fss-utf-1992 E0 80 90: E0 80 is a truncated 3-byte form, but 80 90 is a
    2-byte form (U+0090), so per byte gives 'à' then U+0090 — not 'à' U+0080 U+0090.
    utf-1 F6 2F: F6 cannot start a sequence that 2F continues, and 2F is '/'.
    """
    fss = encspec.load("fss-utf-1992", backend=backend)
    assert fss.decode(b"\xe0\x80\x90", "encspec.latin1") == "\u00e0\u0090"
    assert fss.decode(b"\xe0\x80\x90", "encspec.cp1252") == "\u00e0\u0090"   # 90 is undefined in cp1252: C1
    assert fss.decode(b"\xe0\x80\x90", "encspec.optu8") == "\uefe0\u0090"
    assert fss.decode(b"\xe0\x80\x90", "encspec.replace_per_byte") == "\ufffd\u0090"
    utf1 = encspec.load("utf-1", backend=backend)
    assert utf1.decode(b"\xf6\x2f", "encspec.optu8") == "\ueff6/"
    assert utf1.decode(b"\xf6\x2f", "encspec.latin1") == "\u00f6/"
    assert utf1.decode(b"\xf6\x2f", "encspec.replace_per_byte") == "\ufffd/"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["cesu-8", "wtf-8", "utf-1", "fss-utf-1992", "mutf-8", "utf-8-rfc2279"])
def test_per_byte_policies_follow_the_oracle(name, backend):
    m = encspec.load(name, backend=backend)

    @settings(max_examples=examples(150), deadline=None)
    @given(malformed)
    def check(data):
        assert m.decode(data, "encspec.latin1") == per_byte_by_oracle(name, data, chr)
        assert m.decode(data, "encspec.cp1252") == per_byte_by_oracle(name, data, cp1252_char)
        assert m.decode(data, "encspec.replace_per_byte") == per_byte_by_oracle(name, data, lambda b: "\ufffd")
    check()


@pytest.mark.parametrize("backend", BACKENDS)
def test_per_byte_policies_in_incremental_decoding(backend):
    """Fed one byte at a time, the resume after one byte gives the one-shot result."""
    data = b"\xe0\x80\x90A\xe0\x80"
    m = encspec.load("fss-utf-1992", backend=backend)
    dec = m.IncrementalDecoder("encspec.latin1")
    text = "".join(dec.decode(data[i:i + 1]) for i in range(len(data))) + dec.decode(b"", True)
    assert text == per_byte_by_oracle("fss-utf-1992", data, chr) == "\u00e0\u0090A\u00e0\u0080"


@pytest.mark.parametrize("backend", BACKENDS)
def test_optu8_refuses_ascii_bytes_like_surrogateescape(backend):
    m = encspec.load("mutf-8", backend=backend)   # byte 00 is ill-formed in Modified UTF-8
    with pytest.raises(UnicodeDecodeError):
        m.decode(b"\x00", "encspec.optu8")
    with pytest.raises(UnicodeEncodeError):  # the policies replace bytes, never characters
        encspec.load("utf-8", backend=backend).encode("\udcff", "encspec.optu8")
    with pytest.raises(UnicodeDecodeError):
        m.decode(b"\x00", "surrogateescape")


@settings(max_examples=examples(300), deadline=None)
@given(malformed)
def test_utf_8_optu8_round_trips_any_bytes_without_genuine_ef80_efff(data):
    text = data.decode("utf-8-optu8")
    genuine = any(0xEF80 <= ord(c) <= 0xEFFF for c in data.decode("utf-8", "replace"))
    if not genuine:
        assert text.encode("utf-8-optu8") == data
    assert text == data.decode("utf-8", "encspec.optu8")


def test_utf_8_optu8_pep_383_caveat():
    """A genuine U+EF80 (EE BE 80) comes back as the raw byte 80: documented, as in PEP 383."""
    assert "\uef80".encode("utf-8") == b"\xee\xbe\x80"
    assert b"\xee\xbe\x80".decode("utf-8-optu8").encode("utf-8-optu8") == b"\x80"


def test_utf_8_optu8_incremental_and_files(tmp_path):
    data = b"ok \xff\xc3 \xe2\x82\xac \xed\xa0\x80 end"
    dec = codecs.getincrementaldecoder("utf-8-optu8")()
    text = "".join(dec.decode(data[i:i + 1]) for i in range(len(data))) + dec.decode(b"", final=True)
    assert text == data.decode("utf-8-optu8")
    path = tmp_path / "f"
    with open(path, "w", encoding="utf-8-optu8") as f:
        f.write(text)
    assert path.read_bytes() == data
