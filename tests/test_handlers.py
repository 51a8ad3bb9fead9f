"""The replacement policies of the encyclopedia article as error handlers (issue: error policies).

Each is checked against CPython's own utf-8 codec: the same handler must give
the same result through an encspec codec and through CPython's.
"""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings, strategies as st

import encspec

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
    """Decode with CPython, replacing each error span byte by byte with per_byte(b)."""
    out, pos = [], 0
    for start, end in error_spans(data):
        out.append(data[pos:start].decode("utf-8"))
        out.append("".join(per_byte(b) for b in data[start:end]))
        pos = end
    out.append(data[pos:].decode("utf-8"))
    return "".join(out)


def cp1252_char(b: int) -> str:
    return chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252")


@settings(max_examples=300, deadline=None)
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


@pytest.mark.parametrize("name", ["cesu-8", "wtf-8", "corrected-utf-8", "utf-1"])
def test_handlers_work_with_other_encspec_codecs(name):
    """Each error token's bytes are replaced one by one, whatever the encoding."""
    data = bytes.fromhex("41F0908080EDA080EDB080C0AFFE80FF21")
    m = encspec.load(name)
    expected = []
    for kind, start, end, value in m.tokens(data):
        expected.append(chr(value) if kind == "char" else data[start:end].decode("latin-1"))
    assert any(kind != "char" for kind, *_ in m.tokens(data))
    assert data.decode(name, "encspec.latin1") == "".join(expected)


def test_optu8_refuses_ascii_bytes_like_surrogateescape():
    m = encspec.load("mutf-8")   # byte 00 is ill-formed in Modified UTF-8
    with pytest.raises(UnicodeDecodeError):
        m.decode(b"\x00", "encspec.optu8")
    with pytest.raises(UnicodeDecodeError):
        m.decode(b"\x00", "surrogateescape")


@settings(max_examples=300, deadline=None)
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
