"""Counted forms are linear and safe (issue 14), on the pure-Python backend and
the native one: an absurd header is answered from the bytes that exist, a wide
code point is encoded and decoded in time proportional to its bits, and the
caller's limit turns a long counted form into an error.

Expected tokens follow the UTF-∞-8 draft (tests/data/utf-inf-8-examples.txt is
its section 4) and the project's contract (maximal subparts, the reasons of
CPython's UTF-8 codec); timings are ratios between two sizes, never absolute.
"""
from __future__ import annotations

import random

import pytest

from codec_samples import BACKENDS, load_backend
from conftest import assert_linear, deadline, run_cli

END = "unexpected end of data"
CONT = "invalid continuation byte"
LIMIT = "counted form beyond this decoder's limits"

# FF, five B4, six Ax: NME = 0xFFFFFF, so the header promises 11,184,822 bytes.
ABSURD = bytes.fromhex("FFB4B4B4B4B4AFAFAFAFAFAF")


@pytest.fixture(params=BACKENDS)
def inf8(request):
    return load_backend("utf-inf-8", request.param)


def _tokens(module, data):
    return [(t[0], t[1], t[2], t[3], t[4]) for t in module._tokens(data)]


def test_absurd_header_is_an_error_where_the_bytes_run_out(inf8):
    data = ABSURD + b"\xbf" * 100
    assert _tokens(inf8, data) == [("error", 0, 112, None, END)]
    assert not inf8.is_valid(data)
    assert inf8.decode(data, "replace") == "\ufffd"


def test_absurd_headers_in_a_row(inf8):
    # each header ends at the next FF, which cannot be a value digit
    data = (ABSURD + b"\xbf\xbf") * 3
    assert _tokens(inf8, data) == [("error", k * 14, k * 14 + 14, None, CONT if k < 2 else END)
                                   for k in range(3)]


def test_field_beyond_64_bits_is_the_limit_error(inf8):
    # 21 field digits: NME = 16**21 - 1 > 2**62, so its count cannot be computed
    data = b"\xff" + b"\xb4" * 20 + b"\xaf" * 21 + b"\xbf" * 10
    toks = _tokens(inf8, data)
    assert toks[0] == ("error", 0, 42, None, LIMIT)
    assert [t[0] for t in toks[1:]] == ["error"] * 10


def test_a_range_failure_inside_a_truncated_form_is_exact(inf8):
    # FF A0: NME = 0, so 18 hex digits in 12 six-bit bytes (72 bits), and the value
    # must be at least 2**71 (section 3.5 starts above the 13-byte form's 71 bits):
    # a first byte 80 or 88 leaves bit 71 clear, so the error ends before it
    for first in (0x80, 0x88):
        data = bytes.fromhex("FFA0") + bytes([first]) + b"\x80" * 3
        assert _tokens(inf8, data)[0] == ("error", 0, 2, None, CONT)
    # with bit 71 set the same truncated form runs to the end of data
    data = bytes.fromhex("FFA0") + b"\xa0" + b"\x80" * 5
    assert _tokens(inf8, data) == [("error", 0, 8, None, END)]


def test_validate_cli_exits_1_at_once(tmp_path, capsys):
    path = tmp_path / "absurd.bin"
    path.write_bytes(ABSURD + b"\xbf" * 100)
    with deadline(60):  # a hang fails here; the ratio tests below measure the time
        code, out, err = run_cli(capsys, "validate", "utf-inf-8", path)
    assert code == 1, (out, err)


def _wide(bits: int, seed: int = 14) -> int:
    return random.Random(seed).getrandbits(bits) | 1 << (bits - 1)


@pytest.mark.parametrize("bits", [100_000, 1_000_000])
def test_wide_code_point_round_trip(inf8, bits):
    cp = _wide(bits)
    data = inf8.encode([cp])
    assert inf8.decode_codepoints(data) == [cp]
    # the length rule of section 3.5: NUD hex digits in (NUD + 2) // 3 * 2 bytes,
    # after FF, k B4 and k + 1 length digits
    nud = -(-bits // 4)
    nme = nud - 18
    k = len(f"{nme:X}") - 1
    assert len(data) == 1 + k + (k + 1) + (nud + 2) // 3 * 2
    assert data[:1 + k] == b"\xff" + b"\xb4" * k
    assert data[1 + k:2 + 2 * k] == bytes(0xA0 + int(c, 16) for c in f"{nme:X}")


def test_wide_code_points_cost_linear_time(inf8):
    small, large = _wide(100_000), _wide(1_000_000)
    e_small, e_large = inf8.encode([small]), inf8.encode([large])
    # ten times the bits: linear is about 10x, quadratic 100x
    assert_linear("encode, 100,000 and 1,000,000 bits", inf8.encode, [small], [large], scale=10)
    assert_linear("decode, 100,000 and 1,000,000 bits", inf8.decode_codepoints, e_small, e_large, scale=10)


def test_incremental_long_code_point_in_small_chunks_is_linear(inf8):
    def feed(data):
        dec = inf8.IncrementalCodePointDecoder()
        out = []
        for k in range(0, len(data), 64):
            out += dec.decode(data[k:k + 64])
        out += dec.decode(b"", final=True)
        return out

    small, large = _wide(60_000), _wide(600_000)
    e_small, e_large = inf8.encode([small]), inf8.encode([large])
    assert feed(e_small) == [small]
    assert_linear("a code point of 60,000 and 600,000 bits fed in 64-byte chunks", feed, e_small, e_large,
                  scale=10)


def test_absurd_headers_cost_linear_time(inf8):
    unit = ABSURD + b"\xbf" * 4
    small, large = unit * (65536 // len(unit)), unit * (1048576 // len(unit))
    assert_linear("64 KiB and 1 MiB of absurd headers", lambda data: inf8.decode(data, "replace"), small, large)
