"""The native backend on code units, byte orders, little-endian digits and the end of
the data: the 11 built-ins of issue 17 (utf-16le/be, utf-16, utf-32le/be, utf-32,
wtf-16, leb128, leb128-overlong, sqlite4-varint, git-offset-varint) and users'
specs with `end` forms.

The reference is the pure-Python decoder core (the same module with _NATIVE =
None): every test here decodes the same bytes on both backends under every
handler, as str and as code points, in one piece and incrementally, and the two
must give the same text or the same error.  For utf-16* and utf-32* CPython's
own codecs must agree too.  Inputs:

* exhaustive: every sequence of a few units drawn from the units that matter
  (surrogate edges, BOMs, U+10FFFF and beyond, bytes that begin or end varint
  groups), with a cut unit after it, alone and inside runs of valid units
  long enough for the extension's vector paths (at every alignment);
* random: long inputs of valid characters with bad units spliced in, and
  the corpora `encspec bench` times;
* the extension's own paths: a str widened from ASCII to 2 and 4 bytes a
  character, narrowed back, grown for replacements, dense problems;
* its `scan` and its `start` argument (the byte order a signature chose).

The loops specialised for code units are derived from the automaton when the
source is generated (encspec.emit.native.ext.unit_plan): their tests on units are
checked here against the core itself, unit by unit.
"""
from __future__ import annotations

import codecs
import itertools
import random
import shutil
import sys
from pathlib import Path

import pytest

import encspec
import tools
from codec_samples import native_extension_missing
from conftest import decode_in_chunks
from encspec.bench.run import corpus
from encspec.emit.native.ext import declared_digest, source_digest, unit_plan
from encspec.pipeline import load as load_automaton
from encspec.spec import registry

ROOT = Path(__file__).resolve().parents[1]

NEW = ["utf-16le", "utf-16be", "utf-16", "utf-32le", "utf-32be", "utf-32", "wtf-16",
       "leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]
# code-unit specs: (unit size, byte order of the data without a signature, CPython's codec or None)
UNITS = {
    "utf-16le": (2, "little", "utf-16-le"), "utf-16be": (2, "big", "utf-16-be"),
    "utf-16": (2, "little", "utf-16"), "wtf-16": (2, "little", None),
    "utf-32le": (4, "little", "utf-32-le"), "utf-32be": (4, "big", "utf-32-be"),
    "utf-32": (4, "little", "utf-32"),
}
VARINTS = ["leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "surrogatepass",
            "test_native_units.record"]

# the units that matter: ASCII, Latin-1, BMP, the surrogate edges, BOM and its reverse, the top
UNITS16 = [0x0000, 0x0041, 0x00E9, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
           0xFEFF, 0xFFFE, 0xFFFF]
UNITS32 = [0x0, 0x41, 0xE9, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFEFF, 0xFFFF, 0x1F600, 0x10FFFF,
           0x110000, 0xFFFE0000, 0xFFFFFFFF]
# bytes that begin, continue or end varint groups, and the edges of sqlite4's first byte
VARINT_BYTES = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xC0, 0xF0, 0xF1, 0xF8, 0xF9, 0xFA, 0xFE, 0xFF]

_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native_units.record", _record)


@pytest.fixture(autouse=True)
def _compiled():
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    why = native_extension_missing("utf-16le")
    if why is not None:
        tools.missing(why)


def backends(name):
    return encspec.load(name, backend="python"), encspec.load(name, backend="native")


def outcome(fn, data, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(data, errors), list(_SEEN))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def agree(py, nat, data, handlers=HANDLERS):
    """Both backends: the same str, code points or error, and the same handler calls."""
    for errors in handlers:
        want = outcome(py.decode, data, errors)
        assert outcome(nat.decode, data, errors) == want, (data.hex(" "), errors)
        want = outcome(py.decode_codepoints, data, errors)
        assert outcome(nat.decode_codepoints, data, errors) == want, (data.hex(" "), errors)


def unit_bytes(name, values):
    size, order, _ = UNITS[name]
    return b"".join(v.to_bytes(size, order) for v in values)


def representative(name):
    return UNITS16 if UNITS[name][0] == 2 else UNITS32


# ============================================================ it is there
@pytest.mark.parametrize("name", NEW)
def test_every_new_builtin_has_its_extension(name):
    import importlib
    mod = registry.module_name(name)
    ext = importlib.import_module(f"encspec.generated._native_{mod}")
    m = encspec.load(name, backend="native")
    assert m._NATIVE is ext and ext.SPEC_SHA256 == m.SPEC_SHA256
    source = (ROOT / "generated" / "native" / f"{mod}.c").read_text("utf-8")
    assert ext.SOURCE_SHA256 == declared_digest(source) == source_digest(source)


# ================================================ exhaustive, both backends
@pytest.mark.parametrize("name", sorted(UNITS))
def test_short_unit_sequences_exhaustively(name):
    """Every sequence of up to two of the units that matter, then nothing or a cut unit;
    three units from a smaller set."""
    py, nat = backends(name)
    size = UNITS[name][0]
    cuts = [b""] + [b"\x00\xd8\xdc"[:k] for k in range(1, size)] + [b"\xff"]
    units = representative(name)
    for k in range(3):
        for seq in itertools.product(units, repeat=k):
            for cut in cuts:
                agree(py, nat, unit_bytes(name, seq) + cut)
    few = [0x41, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFF] + ([0x110000, 0x1F600] if size == 4 else [])
    for seq in itertools.product(few, repeat=3):
        agree(py, nat, unit_bytes(name, seq), ["strict", "replace", "surrogateescape"])


@pytest.mark.parametrize("name", sorted(UNITS))
def test_short_sequences_inside_long_runs(name):
    """The same sequences with valid units around them, long enough for the vector
    paths, at every alignment of a vector: the extension must stop exactly there."""
    py, nat = backends(name)
    units = representative(name)
    fill = [0x61, 0x4E2D, 0x1F600] if UNITS[name][0] == 4 else [0x61, 0x4E2D]
    for before in (0, 1, 3, 7, 8, 9, 15):
        for seq in itertools.product(units, repeat=2):
            for f in fill:
                data = unit_bytes(name, [f] * before + list(seq) + [f] * 17)
                agree(py, nat, data, ["strict", "replace", "ignore", "test_native_units.record"])
                agree(py, nat, data + b"\x00", ["replace"])
    # pairs mixed with single units at every offset (UTF-16's vector path for pairs)
    if UNITS[name][0] == 2:
        pair = [0xD83D, 0xDE00]
        for a in range(20):
            for b in range(1, 4):
                seq = ([0x41] * a + pair) * b + [0x41] * (a % 5) + pair + [0xDC00] + [0x41] * 9
                agree(py, nat, unit_bytes(name, seq), ["strict", "replace"])
                agree(py, nat, unit_bytes(name, seq[:-10] + [0xD800] + [0x41] * 9), ["strict", "replace"])


@pytest.mark.parametrize("name", VARINTS)
def test_short_varints_exhaustively(name):
    py, nat = backends(name)
    for k in range(4):
        for seq in itertools.product(VARINT_BYTES, repeat=k):
            agree(py, nat, bytes(seq), ["strict", "replace", "ignore", "surrogateescape", "backslashreplace",
                                        "test_native_units.record"])


@pytest.mark.parametrize("name", VARINTS)
def test_every_varint_value_length(name):
    """Values of every bit length up to 64 and their edges, back to back (the
    flat table, the lead chains, weights up to 2**63, the 64-bit offsets)."""
    py, nat = backends(name)
    values = sorted({v for b in range(65) for v in (2 ** b - 1, 2 ** b, 2 ** b + 1) if v < 2 ** 64}
                    | {2 ** 64 - 1, 240, 241, 2287, 2288, 67823, 67824})
    enc = [(v, py.encode([v])) for v in values]
    data = b"".join(b for _, b in enc)
    assert nat.decode_codepoints(data) == py.decode_codepoints(data) == values
    for v, b in enc:
        assert nat._NATIVE.scan(b, 0, True) == py._scan(b, 0, True) == ("char", 0, len(b), v, None)
        # cut at every byte, and with a final byte that cannot be (overlong or beyond 64 bits)
        for k in range(1, len(b)):
            agree(py, nat, b[:k] + b"\x00" + b[:k], ["strict", "replace", "test_native_units.record"])
            agree(py, nat, b[:k], ["strict", "replace"])
            assert nat._NATIVE.scan(b[:k], 0, False) == py._scan(b[:k], 0, False)
    agree(py, nat, data, ["replace", "strict"])


# ================================================================ random
def random_units(rnd, name, n):
    size = UNITS[name][0]
    pool = representative(name)
    out = []
    for _ in range(n):
        r = rnd.random()
        if r < 0.5:
            out.append(rnd.randrange(0x20, 0x7F))
        elif r < 0.7:
            out.append(rnd.randrange(0x100, 0xD800))
        elif r < 0.85 and size == 2:
            out += [rnd.randrange(0xD800, 0xDC00), rnd.randrange(0xDC00, 0xE000)]
        elif r < 0.85:
            out.append(rnd.randrange(0x10000, 0x110000))
        else:
            out.append(rnd.choice(pool))
    return out


@pytest.mark.parametrize("name", sorted(UNITS))
def test_random_unit_inputs(name):
    rnd = random.Random(f"units-{name}")
    py, nat = backends(name)
    for _ in range(60):
        data = unit_bytes(name, random_units(rnd, name, rnd.randrange(1, 300)))
        if rnd.random() < 0.3:
            data += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, UNITS[name][0])))
        if rnd.random() < 0.3:  # a stray byte: every later unit is read off by one
            k = rnd.randrange(len(data) + 1)
            data = data[:k] + bytes([rnd.randrange(256)]) + data[k:]
        agree(py, nat, data)


@pytest.mark.parametrize("name", VARINTS)
def test_random_varint_inputs(name):
    rnd = random.Random(f"varints-{name}")
    py, nat = backends(name)
    for _ in range(60):
        values = [rnd.getrandbits(rnd.choice([7, 14, 21, 35, 56, 63, 64])) for _ in range(rnd.randrange(1, 80))]
        data = bytearray(py.encode(values))
        for _ in range(rnd.randrange(0, 4)):
            data[rnd.randrange(len(data))] = rnd.choice(VARINT_BYTES)
        agree(py, nat, bytes(data), ["strict", "replace", "ignore", "backslashreplace", "test_native_units.record"])


# ============================================================== CPython
@pytest.mark.parametrize("name", sorted(n for n in UNITS if UNITS[n][2]))
def test_both_backends_agree_with_cpython(name):
    if UNITS[name][2] in ("utf-16", "utf-32") and sys.byteorder != "little":
        pytest.skip("CPython's utf-16 and utf-32 read the machine's order without a BOM")
    codec = UNITS[name][2]
    py, nat = backends(name)
    rnd = random.Random(f"cpython-{name}")
    inputs = [unit_bytes(name, seq) + cut for k in range(3) for seq in itertools.product(representative(name), repeat=k)
              for cut in (b"", b"\xd8")]
    inputs += [unit_bytes(name, random_units(rnd, name, 200)) for _ in range(20)]
    if name in ("utf-16", "utf-32"):  # signatures: either order, at the start only
        bom_le, bom_be = ("\ufeff".encode(codec[:6] + "-le"), "\ufeff".encode(codec[:6] + "-be"))
        text = "a\u4e2d\U0001F600"
        inputs += [bom_le + text.encode(codec[:6] + "-le"), bom_be + text.encode(codec[:6] + "-be"),
                   bom_le + bom_le, bom_be[:-1], bom_le + b"\x00\xd8", bom_be + text.encode(codec[:6] + "-be") + b"\x00"]
    for data in inputs:
        for errors in HANDLERS[:-1]:
            want = outcome(lambda d, e: d.decode(codec, e), data, errors)[:4]
            assert outcome(py.decode, data, errors)[:4] == want, (data.hex(" "), errors)
            assert outcome(nat.decode, data, errors)[:4] == want, (data.hex(" "), errors)


@pytest.mark.parametrize("name", sorted(n for n in UNITS if UNITS[n][2]))
def test_incremental_decoding_agrees_with_cpython(name):
    if UNITS[name][2] in ("utf-16", "utf-32") and sys.byteorder != "little":
        pytest.skip("CPython's utf-16 and utf-32 read the machine's order without a BOM")
    codec = UNITS[name][2]
    py, nat = backends(name)
    text = "ab\u00e9\u4e2d\U0001F600" * 40
    data = text.encode(codec)  # utf-16 / utf-32: with CPython's BOM (FF FE)
    bad = data[:50] + b"\x00\xdc" + data[50:101]  # a lone trail unit, then one unit cut in two
    for chunk in (1, 2, 3, 5, 7, 64, 777):
        for blob in (data, bad):
            for errors in ("strict", "replace", "surrogateescape"):
                dec = codecs.getincrementaldecoder(codec)(errors)
                try:
                    want = "".join(dec.decode(blob[k:k + chunk]) for k in range(0, len(blob), chunk)) + \
                        dec.decode(b"", True)
                except UnicodeDecodeError as e:
                    want = (e.start, e.end, e.reason)
                got_py = decode_in_chunks(py, blob, errors, chunk)
                got_nat = decode_in_chunks(nat, blob, errors, chunk)
                assert got_nat == got_py, (chunk, errors)
                if isinstance(want, str):
                    assert got_py == want, (chunk, errors)
                else:  # positions of incremental errors are per chunk in CPython: compare the reason
                    assert isinstance(got_py, tuple) and got_py[2] == want[2], (chunk, errors)


@pytest.mark.parametrize("name", NEW)
def test_incremental_decoding_agrees_between_backends(name):
    rnd = random.Random(f"chunks-{name}")
    py, nat = backends(name)
    if name in UNITS:
        data = unit_bytes(name, random_units(rnd, name, 400)) + b"\x00"
    else:
        data = py.encode([rnd.getrandbits(rnd.choice([7, 21, 64])) for _ in range(300)]) + b"\xff\x80"
    for chunk in (1, 2, 3, 5, 64, 333):
        for errors in ("strict", "replace", "ignore", "backslashreplace"):
            assert decode_in_chunks(nat, data, errors, chunk) == decode_in_chunks(py, data, errors, chunk), \
                (chunk, errors)


# ====================================================== the extension's paths
@pytest.mark.parametrize("name", sorted(UNITS))
def test_the_str_is_widened_narrowed_and_grown_as_needed(name):
    """A str of code units starts as ASCII and is widened at the first character that
    does not fit (to the width it needs); it must come out canonical."""
    py, nat = backends(name)
    a, e, cjk, emoji = [0x61], [0xE9], [0x4E2D], ([0xD83D, 0xDE00] if UNITS[name][0] == 2 else [0x1F600])
    cases = {
        "ascii": a * 5000,
        "latin": a * 3000 + e + a * 3000,
        "bmp late": a * 70_000 + cjk,
        "astral late": a * 70_000 + emoji + a * 10,
        "astral after bmp": cjk * 5000 + emoji,
        "latin then astral": e * 100 + emoji * 100,
        "a replacement in ascii": a * 20_000 + [0xDC00] + a * 20_000,
        "replacements only": [0xDC00] * 5000,
        "a cut unit in ascii": a * 20_000 + [0xD800],
    }
    for case, values in cases.items():
        data = unit_bytes(name, values)
        agree(py, nat, data, ["strict", "replace", "ignore", "backslashreplace", "surrogateescape"])
        for errors in ("strict", "replace", "backslashreplace"):
            try:
                got, want = nat.decode(data, errors), py.decode(data, errors)
            except UnicodeDecodeError:
                continue
            assert got == want and sys.getsizeof(got) == sys.getsizeof(want), (case, errors)
            assert got.isascii() == want.isascii()


@pytest.mark.parametrize("name", sorted(UNITS))
def test_dense_problems(name):
    """A problem every few units: the extension is called again after each."""
    py, nat = backends(name)
    size = UNITS[name][0]
    bad = [0xDC00] if size == 2 else [0x110000]
    for gap in (1, 2, 7, 8, 9, 31):
        data = unit_bytes(name, ([0x4E2D] * gap + bad) * 200)
        agree(py, nat, data, ["replace", "ignore", "backslashreplace", "test_native_units.record", "strict"])


@pytest.mark.parametrize("name", sorted(UNITS))
def test_the_bench_corpora(name):
    py, nat = backends(name)
    for kind in ("ascii", "latin", "cjk", "emoji"):
        text = corpus(kind, 40_000)
        data = py.encode(text)
        assert nat.decode(data) == text
        assert nat.decode_codepoints(data) == [ord(c) for c in text]
        broken = bytearray(data)
        rnd = random.Random(kind)
        for _ in range(len(broken) // 100):
            broken[rnd.randrange(len(broken))] = rnd.choice((0xFF, 0xC0, 0x80, 0xD8, 0xDC, 0x00))
        agree(py, nat, bytes(broken), ["replace", "strict", "surrogateescape"])


def test_long_inputs_decode_without_the_gil_to_the_same_text():
    import threading
    nat = encspec.load("utf-16le", backend="native")
    text = ("\u4e2d\u6587 text \U0001F600 " * 40_000)
    data = text.encode("utf-16-le") + b"\x00\xdc"
    want = data.decode("utf-16-le", "replace")
    results = []
    threads = [threading.Thread(target=lambda: results.append(nat.decode(data, "replace"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


# ==================================================== scan and the start state
@pytest.mark.parametrize("name", NEW)
def test_scan_is_the_cores(name):
    rnd = random.Random(f"scan-{name}")
    py, nat = backends(name)
    if name in UNITS:
        data = unit_bytes(name, random_units(rnd, name, 100)) + b"\x00\xd8\x00"
    else:
        data = py.encode([rnd.getrandbits(64) for _ in range(40)]) + bytes([0x80, 0xFF, 0xFA])
    for pos in range(len(data)):
        for final in (True, False):
            assert nat._NATIVE.scan(data, pos, final) == py._scan(data, pos, final), (pos, final)


@pytest.mark.parametrize("name", ["utf-16", "utf-32"])
def test_every_start_state(name):
    """decode and scan take the start state a signature chose (the module's _decode
    passes none yet: the core uses the extension for the default order only)."""
    py, nat = backends(name)
    ext = nat._NATIVE
    rnd = random.Random(f"start-{name}")
    size = UNITS[name][0]
    for start in py._STARTS:
        for order in ("little", "big"):
            values = random_units(rnd, name, 300)
            data = b"".join(v.to_bytes(size, order) for v in values) + b"\xd8"
            for errors in ("strict", "replace", "ignore", "backslashreplace", "surrogateescape"):
                for want_str in (True, False):
                    out: list = []
                    stop = ext.decode(data, 0, errors, True, want_str, out, None, start)
                    got = "".join(out) if want_str else out
                    if stop < len(data):  # it stops only at a problem it leaves to the module
                        tok = py._scan(data, stop, True, start)
                        assert tok[0] != "char" or (want_str and tok[3] > 0x10FFFF), (start, errors, stop)
                    # up to there, exactly the core's decoding (tokens before stop end before it)
                    ref = py._decode(data[:stop], errors, True, start << 1, want_str, None, True)[0]
                    assert got == ("".join(ref) if want_str else ref), (start, order, errors)
            for pos in range(0, len(data), 7):
                assert ext.scan(data, pos, True, None, start) == py._scan(data, pos, True, start)
                assert ext.scan(data, pos, False, None, start) == py._scan(data, pos, False, start)
    with pytest.raises(ValueError):
        ext.decode(b"ab", 0, "strict", True, True, [], None, 10 ** 6)


# ========================================================== the unit plans
@pytest.mark.parametrize("name", ["utf-16le", "utf-16be", "utf-16", "wtf-16"])
def test_the_unit_plan_is_the_automatons_for_every_16_bit_unit(name):
    """What the specialised loop takes for a character on its own (or the first unit
    of a pair) is exactly what the core's _run says of each of the 65536 units."""
    py = encspec.load(name, backend="python")
    _, a = load_automaton(name)
    plan = unit_plan(a)
    size, order, _ = UNITS[name]
    assert plan["order"] == ("le" if order == "little" else "be")

    def inside(v, ranges):
        return any(lo <= v <= hi for lo, hi in ranges)

    two = plan["two"]
    lead_ranges, trail_ranges = two["lead_ranges"], two["trail_ranges"]
    for u in range(0x10000):
        b = u.to_bytes(2, order)
        tok = py._run(b, 0, True, 0, 0, 0, None)
        s = py._NEXT[0][py._CLASS[b[0]]]
        s = py._NEXT[s][py._CLASS[b[1]]] if 0 <= s < py._N_STATES else -1
        one = tok[:3] == ("char", 0, 2) and 0 <= s < py._N_STATES and py._FINAL[s]
        assert inside(u, plan["one_ranges"]) == bool(one), hex(u)
        if one:
            assert plan["alpha"] * u + plan["gamma"] == tok[3]
        if inside(u, lead_ranges):
            for t in (0xDC00, 0xDC01, 0xDEAD, 0xDFFF):
                assert inside(t, trail_ranges)
                pair = b + t.to_bytes(2, order)
                got = py._run(pair, 0, True, 0, 0, 0, None)
                assert got[:3] == ("char", 0, 4) and got[3] == two["k0"] * u + two["k1"] * t + two["c"]


@pytest.mark.parametrize("name", ["utf-32le", "utf-32be", "utf-32"])
def test_the_unit_plan_is_the_automatons_for_32_bit_units(name):
    py = encspec.load(name, backend="python")
    _, a = load_automaton(name)
    plan = unit_plan(a)
    size, order, _ = UNITS[name]
    rnd = random.Random(name)
    samples = set(UNITS32) | {rnd.getrandbits(32) for _ in range(3000)} | {rnd.getrandbits(21) for _ in range(3000)}
    for lo, hi in plan["one_ranges"]:
        samples |= {lo - 1, lo, hi, hi + 1}
    for u in sorted(s for s in samples if 0 <= s < 1 << 32):
        b = u.to_bytes(4, order)
        tok = py._run(b, 0, True, 0, 0, 0, None)
        one = tok[0] == "char" and tok[2] == 4
        assert any(lo <= u <= hi for lo, hi in plan["one_ranges"]) == one, hex(u)
        if one:
            assert plan["alpha"] * u + plan["gamma"] == tok[3]


def test_specs_without_code_units_get_no_plan():
    for name in ["utf-8", "leb128", "git-offset-varint"]:
        assert unit_plan(load_automaton(name)[1]) is None


# ===================================================== users' specs with `end`
END_SPECS = {
    "utf8-cut": """
encoding utf8-cut
title "UTF-8 where a sequence cut at the very end has a reason of its own"
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx              min U+0080
form 3: 1110xxxx 10xxxxxx{2}           min U+0800
form 4: 11110xxx 10xxxxxx{3}           min U+10000
ill-formed pattern cut2: 110xxxxx end "cut at the end"
ill-formed pattern cut3: 1110xxxx 10xxxxxx end "cut at the end"
""",
    "end-char": """
encoding end-char
title "a lone lead byte at the end is a character"
code-space U+0000..U+FFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx              min U+0080
form 9: 110xxxxx end  at U+F000
""",
    "u16cut": """
encoding u16cut
title "UTF-16LE where a lead unit at the very end has a reason of its own"
code-unit  16 little-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form bmp:  xxxxxxxxxxxxxxxx
form pair: 110110xxxxxxxxxx 110111xxxxxxxxxx at U+10000
ill-formed pattern cut: 110110xxxxxxxxxx end "a pair cut at the end"
reason invalid-start        "illegal encoding"
reason invalid-continuation "illegal UTF-16 surrogate"
""",
}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# each compiles a C extension: one by default, all three under ENCSPEC_SLOW=1 (CI)
@pytest.mark.parametrize("spec", [spec if spec == "end-char" else pytest.param(spec, marks=pytest.mark.slow)
                                  for spec in sorted(END_SPECS)])
def test_users_specs_with_end_forms(spec, tmp_path, cache):
    path = tmp_path / f"{spec}.encspec"
    path.write_text(END_SPECS[spec], "utf-8")
    py = encspec.load(str(path), backend="python")
    nat = encspec.load(str(path), backend="native")
    assert nat._NATIVE is not None and py._NATIVE is None
    assert any(x is not None for x in py._AT_END)
    if spec == "u16cut":
        pieces = [b"a\x00", b"\x2d\x4e", b"\x00\xd8", b"\x00\xdc", b"\x3d\xd8\x00\xde", b"\x41"]
    else:
        pieces = [b"a", b"\xc3", b"\xa9", b"\xe4", b"\xb8", b"\xad", b"\xf0\x9f\x98\x80", b"\xff"]
    for k in range(4):
        for seq in itertools.product(pieces, repeat=k):
            data = b"".join(seq)
            agree(py, nat, data, ["strict", "replace", "ignore", "backslashreplace", "test_native_units.record"])
            agree(py, nat, b"x\x00" * 20 + data, ["strict", "replace"])
            for pos in range(len(data)):
                assert nat._NATIVE.scan(data, pos, True) == py._scan(data, pos, True)
                assert nat._NATIVE.scan(data, pos, False) == py._scan(data, pos, False)
    # incrementally: the end is only the end when final
    data = b"".join(pieces) * 30 + pieces[2]
    for chunk in (1, 2, 3, 7):
        for errors in ("strict", "replace"):
            assert decode_in_chunks(nat, data, errors, chunk) == decode_in_chunks(py, data, errors, chunk)
