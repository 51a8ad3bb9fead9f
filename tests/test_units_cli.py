"""The command line on specs of wider code units: validate, decode, encode, transcode.

Expected bytes come from CPython's own codecs (utf-16-be, utf-16, utf-32) or from
the hand-written oracles (tests/oracles/wtf_8.py, wtf_16.py, written from the
WTF-8 document's sections 4 and 6), never from encspec.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from conftest import run_cli as run

try:
    from tests.oracles import wtf_8, wtf_16
except ImportError:  # tests/ put on sys.path by pytest's rootdir insertion
    from oracles import wtf_8, wtf_16


def test_validate_utf16be_reports_units_with_cpythons_reasons(tmp_path, capsys):
    f = tmp_path / "t.txt"
    # 'A', a lone trail unit, 'B', a lead unit then 'C', a lead unit and one byte at the end
    f.write_bytes(bytes.fromhex("0041 DC00 0042 D800 0043 D800 41"))
    rc, out, err = run(capsys, "validate", "utf-16be", f)
    assert (rc, err) == (1, "")
    assert out.splitlines() == [
        f"{f}:1:2: error: illegal encoding: DC 00 (byte 2)",
        f"{f}:1:4: error: illegal UTF-16 surrogate: D8 00 (byte 6)",
        f"{f}:1:6: error: unexpected end of data: D8 00 41 (byte 10)",
        f"{f}: invalid: 3 errors",
    ]


def test_validate_with_jobs_on_units_matches_one_job(tmp_path, capsys):
    text = ("añ€😀\n" * 40000).encode("utf-16-le")
    data = text[:100000] + b"\x00\xdc" + text[100000:] + b"\x41"  # a lone trail unit, an odd byte
    f = tmp_path / "big.txt"
    f.write_bytes(data)
    one = run(capsys, "validate", "utf-16le", f)
    many = run(capsys, "validate", "utf-16le", "--jobs", "2", f)
    assert one == many and one[0] == 1


def test_decode_utf16_follows_the_byte_order_mark(tmp_path, capsysbinary):
    f = tmp_path / "be.txt"
    f.write_bytes("Grüße 😀\n".encode("utf-16"))  # CPython writes FF FE then little-endian
    assert run(capsysbinary, "decode", "utf-16", f) == (0, "Grüße 😀\n".encode(), b"")
    f.write_bytes(b"\xfe\xff" + "Grüße 😀\n".encode("utf-16-be"))
    assert run(capsysbinary, "decode", "utf-16", f) == (0, "Grüße 😀\n".encode(), b"")


def test_encode_utf16_and_utf32_write_cpythons_bytes(tmp_path, capsysbinary):
    f = tmp_path / "in.txt"
    f.write_bytes("añ€😀\n".encode())
    for name in ("utf-16", "utf-16le", "utf-16be", "utf-32", "utf-32le", "utf-32be"):
        python_name = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
                       "utf-32le": "utf-32-le", "utf-32be": "utf-32-be"}.get(name, name)
        assert run(capsysbinary, "encode", name, f) == (0, "añ€😀\n".encode(python_name), b""), name


code_points = st.lists(st.one_of(st.integers(0, 0x7F), st.integers(0xD800, 0xDFFF),
                                 st.integers(0, 0x10FFFF)), max_size=40)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cps=code_points)
def test_transcode_wtf8_to_wtf16_and_back_is_lossless(tmp_path, capsysbinary, cps):
    """WTF-8 seed 4.1 / 4.2 and 6.x: well-formed WTF-8 to potentially ill-formed UTF-16
    and back gives the same bytes."""
    src = tmp_path / "in.wtf8"
    src.write_bytes(wtf_8.encode(cps))  # 6.1 joins a lead and a trail surrogate into one code point
    rc, out, err = run(capsysbinary, "transcode", "--from", "wtf-8", "--to", "wtf-16", src)
    assert (rc, err) == (0, b"")
    assert out == wtf_16.encode([t[3] for t in wtf_8.tokens(src.read_bytes())], signature=False) \
        if "signature" in wtf_16.encode.__code__.co_varnames else out == wtf_16.encode(
            [t[3] for t in wtf_8.tokens(src.read_bytes())])
    mid = tmp_path / "mid.wtf16"
    mid.write_bytes(out)
    rc, back, err = run(capsysbinary, "transcode", "--from", "wtf-16", "--to", "wtf-8", mid)
    assert (rc, back, err) == (0, src.read_bytes(), b"")


def test_validate_utf16_counts_lines_in_the_order_the_mark_chose(tmp_path, capsys):
    f = tmp_path / "be.txt"
    f.write_bytes(b"\xfe\xff" + "a\nb".encode("utf-16-be") + b"\xdc\x00" + "c".encode("utf-16-be"))
    rc, out, err = run(capsys, "validate", "utf-16", f)
    assert (rc, err) == (1, "")
    assert out.splitlines() == [
        f"{f}:1:1: signature: FE FF (byte 0)",
        f"{f}:2:2: error: illegal encoding: DC 00 (byte 8)",
        f"{f}: invalid: 1 error",
    ]
