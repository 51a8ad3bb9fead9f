"""The native backend decodes UTF-∞-8's counted forms itself, in C.

* the extension never leaves a counted form to the module's Python scanner
  (``_scan_counted``) except while it is incomplete and more input may come;
  code points wider than 64 bits (counted, or the 71-bit thirteen-byte form)
  come out of a code point list as ints of any size, and are problems for a
  str exactly as the Python backend says;
* both backends agree on the seed's 17 worked examples, on code point lists
  with wide values, and on errors under every handler;
* adversarial headers return at once, and 16 times the input takes about 16
  times as long (a ratio, never an absolute time);
* the caller's limit (the module's ``COUNTED_LIMIT``, the optional 7th
  argument of the extension's ``decode``) makes a longer form an error.
"""
from __future__ import annotations

import codecs
import random
import re
import shutil

import pytest

import tools
from codec_samples import load_backend, native_extension_missing
from conftest import assert_linear, deadline, decode_in_chunks, excerpt

NAME = "utf-inf-8"
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "test_native_counted.record"]
LIMIT = "counted form beyond this decoder's limits"
END = "unexpected end of data"
CONT = "invalid continuation byte"
# FF, five B4 (n = 5), six length digits AF (NME = 0xFFFFFF): a header that claims
# 2**26 bits of value; then 100 value digits BF, and the data ends.
ADVERSARIAL_HEADER = bytes.fromhex("FFB4B4B4B4B4AFAFAFAFAFAF")
ADVERSARIAL = ADVERSARIAL_HEADER + b"\xbf" * 100

_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native_counted.record", _record)


@pytest.fixture(autouse=True)
def _compiled():
    """Skipped naming the tool without a C compiler or the compiled extension
    (failed under ENCSPEC_REQUIRE_TOOLS=1), as tests/test_native.py."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    why = native_extension_missing(NAME)
    if why is not None:
        tools.missing(why)


@pytest.fixture
def nat():
    return load_backend(NAME, "native")


@pytest.fixture
def py():
    return load_backend(NAME, "python")


@pytest.fixture
def no_python_scanner(nat, monkeypatch):
    """The native module with its Python scanner disabled: any call of the core's
    _scan_counted or _run (the module's exact path) fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the native backend handed a token to the Python scanner")
    monkeypatch.setattr(nat, "_scan_counted", refuse)
    monkeypatch.setattr(nat, "_run", refuse)
    return nat


def examples():
    """Section 4 of utf-inf-8.txt (tests/data), parsed as tests/test_seed_examples.py does."""
    section = excerpt("utf-inf-8-examples.txt")
    found = [(int(m.group(1), 16), bytes.fromhex(m.group(2)))
             for m in re.finditer(r"U\+([0-9A-F]+)\s*=\s*((?:[0-9A-F]{2}(?:\s+|$))+)", section)]
    assert "one hundred A's omitted" in section and "sixty-six AA's omitted" in section
    found.append((int("A" * 102, 16), bytes.fromhex("FFB4A5A4") + b"\xaa" * 68))
    assert len(found) == 17
    return found


def outcome(fn, *args):
    _SEEN.clear()
    try:
        return ("ok", fn(*args), list(_SEEN))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason)


def agree(nat, py, data):
    for errors in HANDLERS:
        assert outcome(nat.decode, data, errors) == outcome(py.decode, data, errors), errors
        assert outcome(nat.decode_codepoints, data, errors) == outcome(py.decode_codepoints, data, errors), errors


def wide_code_points(seed=14):
    rnd = random.Random(seed)
    cps = [2 ** 64 - 1, 2 ** 64, 2 ** 64 + 1, 2 ** 71 - 1, 2 ** 71, 2 ** 72, 16 ** 18 - 1, 16 ** 18,
           16 ** 33, 16 ** 34 - 1, 16 ** 34, 16 ** 100, 10 ** 120 - 1, 10 ** 120]
    cps += [rnd.getrandbits(bits) | 1 << (bits - 1) for bits in (65, 70, 71, 72, 100, 129, 1000, 4099, 20000)]
    return cps


# ======================================================== the seed's examples
def test_the_17_seed_examples_on_both_backends(nat, py, no_python_scanner):
    for cp, data in examples():
        assert nat.decode_codepoints(data) == py.decode_codepoints(data) == [cp], hex(cp)
        text = "\ufffd" if cp > 0x10FFFF else chr(cp)
        assert nat.decode(data, "replace") == py.decode(data, "replace") == text, hex(cp)
        assert nat._NATIVE.scan(data, 0, True) == ("char", 0, len(data), cp, None), hex(cp)


def test_the_17_seed_examples_under_every_handler(nat, py):
    for _cp, data in examples():
        agree(nat, py, data)
        agree(nat, py, b"ab" + data + b"\xc3\xa9" + data + data[:-1] + b"z")


def test_all_17_examples_in_one_input_stay_in_c(nat, py, no_python_scanner):
    cps = [cp for cp, _ in examples()]
    data = b"-".join(d for _, d in examples())
    want = [c for cp in cps for c in (cp, 0x2D)][:-1]
    assert nat.decode_codepoints(data) == want
    assert nat.decode(data, "replace") == "".join("\ufffd" if c > 0x10FFFF else chr(c) for c in want)


# ================================================================ wide values
def test_code_point_lists_with_wide_values(nat, py, no_python_scanner):
    cps = wide_code_points()
    data = py.encode(cps)
    assert nat.decode_codepoints(data) == cps
    for cp in cps:
        one = py.encode([cp])
        assert nat.decode_codepoints(one) == [cp], cp.bit_length()
        assert nat._NATIVE.scan(b"x" + one + b"y", 1, True) == ("char", 1, 1 + len(one), cp, None)


def test_wide_values_agree_with_the_python_backend(nat, py):
    cps = wide_code_points(seed=15)
    data = py.encode(cps)
    assert nat.decode_codepoints(data) == py.decode_codepoints(data) == cps
    agree(nat, py, data)


def test_a_100000_bit_code_point_decodes_in_c(nat, py, no_python_scanner):
    cp = random.Random(100_000).getrandbits(100_000) | 1 << 99_999
    data = py.encode([cp])
    assert nat.decode_codepoints(data) == [cp]
    assert nat.decode(data, "replace") == "\ufffd"
    assert nat.decode(b"a" + data + b"b", "ignore") == "ab"


def test_the_71_bit_thirteen_byte_form_is_wide_too(nat, py, no_python_scanner):
    """FF 100xxxxx 10xxxxxx{11}: a DFA form whose values pass 64 bits."""
    for cp in (2 ** 64 - 1, 2 ** 64, 2 ** 70 + 12345, 2 ** 71 - 1):
        data = py.encode([cp])
        assert len(data) == 13
        assert nat.decode_codepoints(data * 3) == [cp] * 3
        assert nat.decode(data, "replace") == "\ufffd"


def test_wide_values_in_a_str_are_problems_as_in_python(nat, py):
    """A str cannot hold them: "code point beyond U+10FFFF", through the handler."""
    for cp in (2 ** 64, 2 ** 71, 10 ** 120):
        data = b"a" + py.encode([cp]) + b"b"
        with pytest.raises(UnicodeDecodeError) as e:
            nat.decode(data)
        assert (e.value.start, e.value.end, e.value.reason) == (1, len(data) - 1, "code point beyond U+10FFFF")
        assert nat.decode(data, "backslashreplace") == py.decode(data, "backslashreplace")
        assert nat.decode(data, "surrogateescape") == py.decode(data, "surrogateescape")


# ====================================================================== errors
ERROR_CASES = {
    "the adversarial header": ADVERSARIAL,
    "the adversarial header, then text": ADVERSARIAL_HEADER + b"\xbf" * 3 + b"ok",
    "a header cut short": bytes.fromhex("FFB4B4A1"),
    "only B4s": b"\xff" + b"\xb4" * 40,
    "a leading zero length digit": bytes.fromhex("FFB4A0A180808080"),
    "a value digit that is not one": bytes.fromhex("FFB4A1A0") + b"\x80" * 5 + b"A" + b"\x80" * 30,
    "a value too small (overlong)": bytes.fromhex("FFB4A1A0") + b"\x80" * 24,
    "a value cut short": bytes.fromhex("FFB4A1A080") + b"\x80" * 10,
    "a long counted char cut short": bytes.fromhex("FFB4A5A4") + b"\xaa" * 67,
    "lead bytes everywhere": bytes.fromhex("FFB4FFA0FFB4B4FF") * 50,
    "every byte value": bytes(range(256)) * 4,
    "headers in a row": ADVERSARIAL_HEADER * 30,
    "a seed example with a byte dropped": bytes.fromhex("FFB4A1A080818080808080808080808080808080808080808080"),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_backends_agree_on_errors_under_every_handler(nat, py, case):
    with deadline(60):
        agree(nat, py, ERROR_CASES[case])
        agree(nat, py, b"text " + ERROR_CASES[case] + "\u4e2d".encode() + ERROR_CASES[case][:5])


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_under_the_standard_handlers_stay_in_c(no_python_scanner, case):
    data = ERROR_CASES[case]
    with deadline(60):
        for errors in ("replace", "ignore", "backslashreplace"):
            no_python_scanner.decode(data, errors)
            no_python_scanner.decode_codepoints(data, errors)


def test_the_adversarial_input_is_one_error_at_once(nat):
    with deadline(10):
        assert nat._NATIVE.scan(ADVERSARIAL, 0, True) == ("error", 0, 112, None, END)
        assert nat.decode(ADVERSARIAL, "replace") == "\ufffd"
        assert nat.decode_codepoints(ADVERSARIAL, "replace") == [0xFFFD]
        with pytest.raises(UnicodeDecodeError) as e:
            nat.decode(ADVERSARIAL)
        assert (e.value.start, e.value.end, e.value.reason) == (0, 112, END)
        assert not nat.is_valid(ADVERSARIAL)
        assert nat.first_error(ADVERSARIAL) == (0, 112, END)


def test_more_adversarial_headers_return_at_once(nat):
    with deadline(10):
        for n in range(1, 12):
            header = b"\xff" + b"\xb4" * n + b"\xaf" * (n + 1)
            for tail in (b"", b"\xbf", b"\xbf" * 1000, b"A"):
                data = header + tail
                tok = nat._NATIVE.scan(data, 0, True)
                assert tok == nat._scan(data, 0, True), (n, tail[:2])
                assert tok[0] == "error" or (n, tail) == (1, b"\xbf" * 1000)  # 182 digits: U+(2**1092 - 1)
                nat.decode(data, "replace")
                nat.decode_codepoints(data, "replace")


# ====================================================== final false (streams)
def test_an_incomplete_counted_form_is_left_and_only_then(nat, py):
    ext = nat._NATIVE
    cp = int("A" * 102, 16)
    data = py.encode([cp])
    for k in range(1, len(data)):
        out: list = []
        assert ext.decode(data[:k], 0, "replace", False, False, out) == 0 and out == [], k
        assert ext.scan(data[:k], 0, False) is None
    out = []
    assert ext.decode(data, 0, "replace", False, False, out) == len(data) and out == [cp]
    # an answer that no more input can change is given at once
    out = []
    bad = bytes.fromhex("FFB4A5A4") + b"\xaa" * 3 + b"A"
    assert ext.decode(bad, 0, "replace", False, False, out) == len(bad) and out == [0xFFFD, 0x41]
    assert ext.scan(bad, 0, False) == ("error", 0, 7, None, CONT)
    out = []
    assert ext.decode(ADVERSARIAL_HEADER + b"\x41", 0, "replace", False, True, out) == 13
    assert out == ["\ufffdA"]


def test_incremental_decoding_of_long_counted_code_points(nat, py):
    cps = [int("A" * 102, 16), 2 ** 71, random.Random(3).getrandbits(20_000) | 1 << 19_999]
    data = b"".join(b"x" + py.encode([cp]) for cp in cps) + ADVERSARIAL[:40]
    for errors in ("replace", "strict", "backslashreplace"):
        got = {}
        for backend, m in (("python", py), ("native", nat)):
            got[backend] = decode_in_chunks(m, data, errors, 97)
        assert got["python"] == got["native"], errors


# ===================================================================== ratios
PATTERNS = {
    "one header over everything": lambda size: ADVERSARIAL_HEADER + b"\xbf" * (size - len(ADVERSARIAL_HEADER)),
    "headers in a row": lambda size: (ADVERSARIAL_HEADER * (size // len(ADVERSARIAL_HEADER) + 1))[:size],
    "long counted code points": lambda size: (bytes.fromhex("FFB4A5A4") + b"\xaa" * 68) * (size // 72),
}


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_16_times_the_input_takes_at_most_25_times_as_long(nat, pattern):
    make = PATTERNS[pattern]
    small, big = make(64 << 10), make(1 << 20)
    assert_linear(f"{pattern}, decode", lambda d: nat.decode(d, "replace"), small, big)
    assert_linear(f"{pattern}, decode_codepoints", lambda d: nat.decode_codepoints(d, "replace"), small, big)


def test_a_wide_code_point_ten_times_longer_takes_at_most_25_times_as_long(nat, py):
    rnd = random.Random(7)
    small = py.encode([rnd.getrandbits(100_000) | 1 << 99_999])
    big = py.encode([rnd.getrandbits(1_000_000) | 1 << 999_999])
    assert_linear("a code point of 100,000 and 1,000,000 bits", nat.decode_codepoints, small, big, scale=10)


# ====================================================================== limit
SEED_102 = bytes.fromhex("FFB4A5A4") + b"\xaa" * 68  # header 4 bytes + 68 value digits = 72


def test_the_callers_limit_in_the_extension(nat):
    ext = nat._NATIVE
    cp = int("A" * 102, 16)
    for limit in (None, 72, 73, 10 ** 30):
        out: list = []
        assert ext.decode(SEED_102, 0, "replace", True, False, out, limit) == 72 and out == [cp], limit
        assert ext.scan(SEED_102, 0, True, limit) == ("char", 0, 72, cp, None)
    for limit in (71, 10, 0):
        assert ext.scan(SEED_102, 0, True, limit) == ("error", 0, 4, None, LIMIT), limit
        out = []
        # the header is the error; then each value digit is a byte that starts nothing
        assert ext.decode(SEED_102, 0, "replace", True, False, out, limit) == 72
        assert out == [0xFFFD] * 69
        out = []
        assert ext.decode(SEED_102, 0, "strict", True, False, out, limit) == 0 and out == []
    # the adversarial header is refused before any value digit is looked at
    assert ext.scan(ADVERSARIAL, 0, True, 1 << 20) == ("error", 0, 12, None, LIMIT)
    # the limit is per call: the next call without it decodes as before
    out = []
    assert ext.decode(SEED_102, 0, "replace", True, False, out) == 72 and out == [cp]
    assert ext.scan(SEED_102, 0, False, 10) == ("error", 0, 4, None, LIMIT)


def test_a_bad_limit_is_refused(nat):
    ext = nat._NATIVE
    with pytest.raises(ValueError, match="limit"):
        ext.decode(SEED_102, 0, "replace", True, False, [], -1)
    with pytest.raises(TypeError, match="limit"):
        ext.decode(SEED_102, 0, "replace", True, False, [], "10")
    with pytest.raises(ValueError, match="limit"):
        ext.scan(SEED_102, 0, True, -(10 ** 30))


def test_the_modules_counted_limit_on_both_backends(nat, py, monkeypatch):
    """COUNTED_LIMIT is the caller's: the core passes it to the extension."""
    assert nat.COUNTED_LIMIT is None and py.COUNTED_LIMIT is None
    data = b"a" + SEED_102 + b"b" + SEED_102[:30]
    for limit in (72, 71, 4):
        monkeypatch.setattr(nat, "COUNTED_LIMIT", limit)
        monkeypatch.setattr(py, "COUNTED_LIMIT", limit)
        agree(nat, py, data)
        with pytest.raises(UnicodeDecodeError) as e:
            nat.decode_codepoints(data)
        want = (1, 5, LIMIT) if limit < 72 else (74, 104, END)
        assert (e.value.start, e.value.end, e.value.reason) == want, limit


def test_calls_with_different_limits_at_once(nat):
    """The limit is the call's own (never a global the other threads see): long inputs
    decode without the GIL, in threads with and without a limit."""
    import threading
    ext = nat._NATIVE
    data = SEED_102 * 1000  # 72,000 bytes: decoded without the GIL
    cp = int("A" * 102, 16)
    want = {None: [cp] * 1000, 10: [0xFFFD] * 69 * 1000}
    failures = []

    def run(limit):
        for _ in range(20):
            out: list = []
            ext.decode(data, 0, "replace", True, False, out, limit)
            text: list = []
            ext.decode(data, 0, "replace", True, True, text, limit)
            if out != want[limit] or text != ["\ufffd" * len(want[limit])]:
                failures.append(limit)
    threads = [threading.Thread(target=run, args=(limit,)) for limit in (None, 10, None, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_scan_is_the_python_scanner_in_c(nat, py, monkeypatch):
    """The extension's scan(data, pos, final, limit) gives the core's _scan's token (or
    None) on mixtures of valid, cut and mutated encodings, with and without a limit."""
    from codec_samples import pieces
    rnd = random.Random(2024)
    ps = list(pieces(NAME)) + [py.encode([cp]) for cp in wide_code_points()[:12]]
    alphabet = [0xFF, 0xB4, 0xA0, 0xA1, 0xA5, 0xAF, 0x80, 0xBF, 0xAA, 0x41, 0xFE, 0xC2]
    for _ in range(3000):
        parts = []
        for _ in range(rnd.randint(1, 4)):
            p = rnd.choice(ps)
            r = rnd.random()
            if r < 0.3:
                p = p[:rnd.randint(1, len(p))]
            elif r < 0.6:
                k = rnd.randrange(len(p))
                p = p[:k] + bytes([rnd.choice(alphabet)]) + p[k + 1:]
            parts.append(p)
        data = b"".join(parts)
        limit = rnd.choice([None, 0, 5, 13, 20, 40, 72, 100])
        monkeypatch.setattr(py, "COUNTED_LIMIT", limit)
        for final in (True, False):
            for pos in {0, rnd.randrange(len(data))}:
                assert nat._NATIVE.scan(data, pos, final, limit) == py._scan(data, pos, final), \
                    (data.hex(), pos, final, limit)
