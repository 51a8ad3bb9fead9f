"""The native encoder: the extension's ``encode_memo`` (templates/native/ext.c.j2),
the C loop of the module's ``_encode_native`` (encspec/runtime/core.py).

The loop writes what the module's memo holds (per BMP code point its bytes) and
stops at the first character it does not; the module decides that one.  So a
module backed by its extension must encode exactly as the pure-Python module
does, and as CPython's codec where the spec is one of CPython's: the same bytes,
or the same UnicodeEncodeError (start, end, reason), and the same calls to an
error handler, under strict, replace, ignore, backslashreplace,
xmlcharrefreplace, surrogateescape, surrogatepass and a custom handler that
records its calls; on ASCII, Latin-1, CJK (the spec's own script for a spec with
mapping tables: ``encspec bench``'s corpus), astral and mixed texts, runs of
characters the spec cannot write, texts past 64 KiB, with a cold memo and a warm
one; piece by piece (IncrementalEncoder) and through a StreamWriter.  And the C
function itself: its contract, character width by character width (a str of
1, 2 and 4 bytes a character), ASCII copied as it is only while the memo says
so, a memo longer than the BMP, the optional `refused` bytes, and that every
built extension has it.

Last, a decoding check made with the same changes to the extension: GB 18030's
four-byte form, which the extension reads in its loop of table pairs and looks
up through an index of its ranges table, decodes as in pure Python at every
run's edges, every override and a sample of pointers.

A missing extension skips (a failure under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import codecs
import io
import random
import sys
from functools import cache

import pytest

import encspec
import tools
from codec_samples import native_extension_missing
from conftest import code_points, examples, native_builtin, representative_builtins
from encspec.bench.run import corpus, table_codec, table_corpus
from encspec.spec import registry

# spec -> CPython's codec of the same encoding (None: CPython has none)
SPECS = {
    "utf-8": "utf-8",
    "corrected-utf-8": None,
    "cesu-8": None,
    "mutf-8": None,
    "utf-16le": "utf-16-le",
    "utf-32": "utf-32" if sys.byteorder == "little" else None,  # CPython writes the machine's order
    "leb128": None,  # code points as numbers: any str is encodable, the loop must still agree
    "shift_jis": "shift_jis",
    "cp932": "cp932",
    "euc-kr": "euc_kr",
    "gb18030": "gb18030",
    "whatwg-big5": None,
    "whatwg-gb18030": None,
}

_SEEN: list = []


def _record(exc):
    _SEEN.append((type(exc).__name__, exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


def _record_skip(exc):
    """Records, writes nothing and goes one character past the error's end (a handler may)."""
    _SEEN.append((type(exc).__name__, exc.start, exc.end, exc.reason))
    return ("", min(exc.end + 1, len(exc.object)))


codecs.register_error("test_native_encode.record", _record)
codecs.register_error("test_native_encode.skip", _record_skip)

HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace", "surrogateescape",
            "surrogatepass", "test_native_encode.record", "test_native_encode.skip"]


@cache
def backends(spec: str):
    """(pure-Python module, native-backed module); skips when the extension is not built."""
    why = native_extension_missing(registry.module_name(spec))
    if why is not None:
        tools.missing(why)
    py, nat = encspec.load(spec, backend="python"), encspec.load(spec, backend="native")
    assert py._NATIVE is None and nat._NATIVE is not None
    return py, nat


def outcome(fn, text, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(text, errors), list(_SEEN))
    except UnicodeEncodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def cpython_outcome(codec, text, errors):
    _SEEN.clear()
    try:
        return ("ok", text.encode(codec, errors), list(_SEEN))
    except UnicodeEncodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def cold(module):
    """Forget the module's native memo, so the next encode fills it again."""
    assert hasattr(module, "_MEMO_LENS"), "the core's native memo is not _MEMO_BYTES/_MEMO_LENS any more"
    module._MEMO_BYTES = module._MEMO_LENS = None


def agree(spec, text, handlers=HANDLERS, cpython=True):
    py, nat = backends(spec)
    codec = SPECS[spec] if cpython else None
    for errors in handlers:
        want = outcome(py.encode, text, errors)
        got = outcome(nat.encode, text, errors)
        assert got == want, (spec, errors, text[:40], len(text))
        if codec is not None:
            assert cpython_outcome(codec, text, errors) == want, (spec, codec, errors, text[:40], len(text))


# ------------------------------------------------------------------ texts
@cache
def script_text(spec: str, size: int) -> str:
    """Text of the spec's script for a spec with mapping tables (``encspec bench``'s
    corpus), else random CJK of the BMP."""
    py = encspec.load(spec, backend="python")
    if getattr(py, "_TABLES", ()):
        return table_corpus("cjk", size, py, table_codec(py))
    return corpus("cjk", size)


def texts(spec: str) -> dict[str, str]:
    rnd = random.Random(f"native-encode:{spec}")
    cjk = script_text(spec, 6000)

    def pick(alphabet, n):
        return "".join(rnd.choice(alphabet) for _ in range(n))

    latin1 = "".join(map(chr, range(0x20, 0x7F))) + "".join(map(chr, range(0xA0, 0x100)))
    astral = [chr(c) for c in range(0x1F300, 0x1F650)] + [chr(0x20000 + k) for k in range(0, 0x500, 7)]
    out = {
        "empty": "",
        "ascii": corpus("ascii", 3000),
        "ascii-controls": "".join(map(chr, range(0x80))) * 3,
        "latin-1": pick(latin1, 2000),
        "cjk": cjk,
        "astral": pick(astral, 500),
        "mixed": "".join(rnd.choice((lambda: pick(latin1, 3), lambda: cjk[rnd.randrange(len(cjk) - 8):][:8],
                                     lambda: pick(astral, 2), lambda: corpus("ascii", 20)))()
                         for _ in range(300)),
        # runs the spec may not write: lone surrogates, private use, noncharacters, astral
        "unencodable-runs": "".join(rnd.choice((lambda: cjk[rnd.randrange(len(cjk) - 6):][:6],
                                                lambda: pick("\ud800\udbff\udc80\udcff\udfff", rnd.randint(1, 4)),
                                                lambda: pick("\ue000\uf8ff\ufffe\uffff\u0378", rnd.randint(1, 3)),
                                                lambda: pick(astral, rnd.randint(1, 3)),
                                                lambda: "ab"))()
                                    for _ in range(300)),
        "surrogateescape": "ab\udc80\udcff\udc41c" + cjk[:20] + "\udcfe",
        "lone-surrogate-end": cjk[:30] + "\ud83d",
    }
    return out


# ============================================================ it is there
@pytest.mark.parametrize("spec", sorted(SPECS))
def test_every_built_extension_has_encode_memo(spec):
    """The module's extension is this spec's and has the loop, and the module uses it."""
    py, nat = backends(spec)
    assert nat._NATIVE.SPEC_SHA256 == nat.SPEC_SHA256
    assert hasattr(nat._NATIVE, "encode_memo"), f"{nat._NATIVE.__name__} was built without encode_memo"
    calls = []
    real = nat._NATIVE

    class Spy:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def encode_str(*args):
            calls.append(0)
            return real.encode_str(*args)

        @staticmethod
        def encode_memo(*args):
            calls.append(args[1])
            return real.encode_memo(*args)

    saved = nat._NATIVE
    nat._NATIVE = Spy()
    try:
        text = "abc\xe9\u3042"  # not ASCII: a module may write ASCII without the loop
        # the incremental encoder: the module's own encode is the extension's builtin where the
        # extension has entry points (test_native_entry), which calls its loops without _NATIVE
        assert nat.IncrementalEncoder("replace").encode(text, True) == py.IncrementalEncoder("replace").encode(text, True)
    finally:
        nat._NATIVE = saved
    assert calls and calls[0] == 0, "the native-backed module does not call its extension's encoder"


# ===================================================== the same as Python
@pytest.mark.parametrize("kind", ["empty", "ascii", "ascii-controls", "latin-1", "cjk", "astral", "mixed",
                                  "unencodable-runs", "surrogateescape", "lone-surrogate-end"])
@pytest.mark.parametrize("spec", sorted(SPECS))
def test_encode_agrees(spec, kind):
    """Native-backed == pure Python == CPython, every handler, memo cold then warm."""
    py, nat = backends(spec)
    text = texts(spec)[kind]
    cold(nat)
    agree(spec, text)
    agree(spec, text)  # warm: the memo holds what the first pass met


@pytest.mark.parametrize("spec", sorted(SPECS))
def test_random_texts(spec):
    """Seeded short texts drawn from every kind of character, every handler."""
    rnd = random.Random(f"native-encode-random:{spec}")
    pool = "".join(texts(spec).values())
    for _ in range(150):
        n = rnd.randrange(0, 40)
        text = "".join(rnd.choice(pool) for _ in range(n))
        agree(spec, text)


@pytest.mark.parametrize("spec", sorted(SPECS))
def test_every_bmp_code_point(spec):
    """Every BMP code point alone, in one text (a cold memo meets each once)."""
    py, nat = backends(spec)
    text = "".join(map(chr, range(0x10000)))
    cold(nat)
    for errors in ("replace", "test_native_encode.record"):
        assert outcome(nat.encode, text, errors) == outcome(py.encode, text, errors), (spec, errors)
    assert outcome(nat.encode, text, "strict") == outcome(py.encode, text, "strict")


@pytest.mark.parametrize("spec", sorted(SPECS))
def test_long_texts(spec):
    """Past 64 KiB: clean, and with an unencodable character every few hundred (the
    loop stops at each and starts again)."""
    py, nat = backends(spec)
    text = script_text(spec, 300_000) + corpus("latin", 70_000)
    assert len(text.encode("utf-8", "surrogatepass")) > 1 << 16
    rnd = random.Random(f"native-encode-long:{spec}")
    damaged = list(text)
    for _ in range(len(damaged) // 300):
        damaged[rnd.randrange(len(damaged))] = rnd.choice(["\udc80", "\ud800", "\U0001F600", "\ue000", "\uffff"])
    damaged = "".join(damaged)
    for t in (text, damaged):
        cold(nat)
        agree(spec, t, handlers=["strict", "replace", "backslashreplace", "surrogateescape",
                                 "test_native_encode.record"])


# ============================================== piece by piece, and streams
def _pieces(text, rnd):
    i, out = 0, []
    while i < len(text):
        n = rnd.choice((1, 2, 3, 7, 64, 1000))
        out.append(text[i:i + n])
        i += n
    return out


@pytest.mark.parametrize("spec", sorted(SPECS))
def test_incremental_encoder(spec):
    """The codec's incremental encoder, fed in pieces of every size: the same bytes
    from both backends (and CPython's incremental encoder where it has one)."""
    py, nat = backends(spec)
    rnd = random.Random(f"native-encode-incremental:{spec}")
    for kind, text in texts(spec).items():
        pieces = _pieces(text, rnd)
        for errors in ("strict", "replace", "backslashreplace", "test_native_encode.record"):
            results = []
            encoders = [m.getregentry().incrementalencoder(errors) for m in (py, nat)]
            if SPECS[spec] is not None:
                encoders.append(codecs.getincrementalencoder(SPECS[spec])(errors))
            for enc in encoders:
                _SEEN.clear()
                try:
                    got = b"".join(enc.encode(p) for p in pieces) + enc.encode("", True)
                    results.append(("ok", got, list(_SEEN)))
                except UnicodeEncodeError as e:
                    results.append(("error", e.reason, list(_SEEN)))
            assert results[1] == results[0], (spec, kind, errors)
            if len(results) > 2 and results[0][0] == "ok":
                assert results[2][:2] == results[0][:2], (spec, kind, errors)


@pytest.mark.parametrize("spec", sorted(SPECS))
def test_stream_writer(spec):
    py, nat = backends(spec)
    rnd = random.Random(f"native-encode-stream:{spec}")
    text = texts(spec)["mixed"] + texts(spec)["cjk"]
    pieces = _pieces(text, rnd)
    got = []
    for m in (py, nat):
        buf = io.BytesIO()
        w = m.getregentry().streamwriter(buf, "replace")
        for p in pieces:
            w.write(p)
        w.reset()
        got.append(buf.getvalue())
    assert got[1] == got[0] == py.getregentry().encode(text, "replace")[0]


# ========================================================= the C function
def _memo(entries: dict):
    mb, ml = bytearray(4 << 16), bytearray(1 << 16)
    for cp, b in entries.items():
        if b is None:
            ml[cp] = 5
        else:
            mb[4 * cp:4 * cp + len(b)] = b
            ml[cp] = len(b)
    return mb, ml


@pytest.fixture(scope="module")
def native():
    return backends("utf-8")[1]._NATIVE


def test_encode_memo_contract(native):
    f = native.encode_memo
    ascii_memo = {c: bytes([c]) for c in range(0x80)}
    mb, ml = _memo({**ascii_memo, 0xE9: b"\xc3\xa9", 0x3042: b"\xe3\x81\x82", 0x41: b"A", 0x100: None,
                    0xFFFF: b"\x01\x02\x03\x04"})
    for text, want_stop, want in [
        ("", 0, b""),
        ("abc", 3, b"abc"),
        ("a\xe9b", 3, b"a\xc3\xa9b"),  # UCS1
        ("a\u3042\xe9", 3, b"a\xe3\x81\x82\xc3\xa9"),  # UCS2
        ("a\u3042\U0001F600b", 4, b"a\xe3\x81\x82\xf0\x9f\x98\x80b"),  # UCS4: beyond the BMP, utf-8's form 4
        ("ab\u0100cd", 2, b"ab"),  # an entry that is not written natively
        ("ab\u0101cd", 5, b"ab\xc4\x81cd"),  # an entry not known yet: utf-8's form 2 (and now in the memo)
        ("\uffff\uffff", 2, b"\x01\x02\x03\x04" * 2),  # four bytes: the memo first
        ("x" * 1000 + "\xe9" + "y" * 1001 + "\u0100", 2002, b"x" * 1000 + b"\xc3\xa9" + b"y" * 1001),
        ("ab\ud800cd", 2, b"ab"),  # a surrogate: in no segment of utf-8's
    ]:
        out = bytearray(b"prefix")
        assert f(text, 0, mb, ml, out) == want_stop, text[:20]
        assert out == b"prefix" + want, text[:20]
        out.extend(b"!")  # still an ordinary bytearray
        assert out == b"prefix" + want + b"!"
    # from a position; at the end
    assert ml[0x101] == 2 and mb[4 * 0x101:4 * 0x101 + 2] == b"\xc4\x81"
    out = bytearray()
    assert f("\u0100abc", 1, mb, ml, out) == 4 and out == b"abc"
    assert f("abc", 3, mb, ml, out) == 3 and out == b"abc"
    with pytest.raises(IndexError):
        f("abc", 4, mb, ml, bytearray())
    with pytest.raises(IndexError):
        f("abc", -1, mb, ml, bytearray())
    with pytest.raises(TypeError):
        f(b"abc", 0, mb, ml, bytearray())
    with pytest.raises(TypeError):
        f("abc", 0, mb, ml, b"")


def test_encode_memo_ascii_runs(native):
    """Runs of ASCII copied 16 at a time (utf-8's form 1 writes them as they are; the
    module never marks them otherwise in its memo), and a character the memo marks
    not written here stops the loop at every position of a block."""
    f = native.encode_memo
    rnd = random.Random(1)
    text = "".join(rnd.choice("abcdefgh \n") for _ in range(5000)) + "\xe9" + "tail" * 9
    identity = {c: bytes([c]) for c in range(0x80)}
    mb, ml = _memo({**identity, 0xE9: b"\xe9"})
    out = bytearray()
    assert f(text, 0, mb, ml, out) == len(text) and out == text.encode("latin-1")
    # every stop position within a run of 8
    for k in range(40):
        t = "a" * k + "\u0100" + "a" * 40
        out = bytearray()
        mb, ml = _memo({**identity, 0x100: None})
        assert f(t, 0, mb, ml, out) == k and out == b"a" * k


@pytest.mark.parametrize("width", [1, 2, 4])
def test_encode_memo_each_kind(native, width):
    """The same answers from the loop of each str kind (a wider character at the end
    makes the str wider; the loop stops before it)."""
    f = native.encode_memo
    rnd = random.Random(width)
    wide = {1: "", 2: "\u3000", 4: "\U0001F600"}[width]
    cps = [c for c in range(0x20, 0x100) if c != 0x7F]
    entries = {c: bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 4))) for c in cps}
    unknown = {0xB5, 0xD7}  # not written here
    mb, ml = _memo({c: (None if c in unknown else b) for c, b in entries.items()})
    text = "".join(chr(rnd.choice(cps)) for _ in range(3000)) + wide + "ab" + "\xb5"
    want_stop = next(i for i, ch in enumerate(text) if ord(ch) in unknown)
    out = bytearray(b"..")
    assert f(text, 0, mb, ml, out) == want_stop
    # the wide character has no entry: utf-8's own form writes it (and the memo keeps it if in the BMP)
    assert out == b".." + b"".join(entries[ord(ch)] if ord(ch) in entries else ch.encode() for ch in text[:want_stop])


def test_encode_memo_ascii_text(native):
    """A str of ASCII only is copied as it is, whatever the memo holds for it (utf-8's
    form 1 writes it so), from any position."""
    f = native.encode_memo
    text = corpus("ascii", 5000) + "\x00\x7f"
    identity = {c: bytes([c]) for c in range(0x80)}
    for memo, stop, want in [
        (identity, len(text), text.encode()),
        ({c: b for c, b in identity.items() if c != 0x20}, len(text), text.encode()),  # utf-8's form 1
    ]:
        mb, ml = _memo(memo)
        out = bytearray(b">")
        assert f(text, 0, mb, ml, out) == stop
        assert out == b">" + want
    mb, ml = _memo(identity)
    out = bytearray()
    assert f(text, 7, mb, ml, out) == len(text) and out == text[7:].encode()


def test_encode_memo_longer_memo(native):
    """A memo the module made longer than the BMP (to U+10FFFF): astral characters
    with an entry are written too."""
    f = native.encode_memo
    mb, ml = bytearray(4 * 0x110000), bytearray(0x110000)
    for cp, b in [(0x61, b"a"), (0x1F600, b"\xf0\x9f\x98\x80"), (0x10FFFF, b"\x01")]:
        mb[4 * cp:4 * cp + len(b)] = b
        ml[cp] = len(b)
    ml[0x1F601] = 5
    out = bytearray()
    assert f("a\U0001F600a\U0010FFFF\U0001F601a", 0, mb, ml, out) == 4
    assert out == b"a\xf0\x9f\x98\x80a\x01"


def test_encode_memo_refused(native):
    """With refused, each character marked 6 is written as those bytes (a module whose
    handler replaces every refused character alike); without it, it stops the loop."""
    f = native.encode_memo
    mb, ml = _memo({0x61: b"a", 0x3042: b"\x82\xa0", 0xE000: None})
    ml[0xD800] = ml[0x1F6] = 6
    text = "a\ud800\u3042\ud800\ud800a\u01f6" * 500 + "\ue000a"
    for refused in (b"?", b"", b"\x00?", b"1234"):
        out = bytearray(b"<")
        assert f(text, 0, mb, ml, out, refused) == len(text) - 2
        assert out == b"<" + (b"a" + refused + b"\x82\xa0" + refused * 2 + b"a" + refused) * 500
    out = bytearray()
    assert f(text, 0, mb, ml, out) == 1 and out == b"a"
    assert f(text, 0, mb, ml, bytearray(), None) == 1
    for bad in (b"12345", "?", 1):
        with pytest.raises(TypeError):
            f(text, 0, mb, ml, bytearray(), bad)


def test_encode_memo_short_memo(native):
    """A memo shorter than the BMP stops at the code points it has no room for."""
    f = native.encode_memo
    mb, ml = bytearray(4 * 0x200), bytearray(0x180)
    for c in range(0x180):
        mb[4 * c] = c & 0xFF
        ml[c] = 1
    out = bytearray()
    assert f("ab\u017f\u0180\ud800", 0, mb, ml, out) == 4 and out == b"ab\x7f\xc6\x80"  # beyond it: utf-8's form 2


def test_encode_memo_does_not_keep_a_buffer_it_cannot_resize(native):
    """out with an export (a memoryview) cannot grow: an error, nothing written."""
    mb, ml = _memo({0x61: b"a"})
    out = bytearray(b"x")
    view = memoryview(out)
    with pytest.raises(BufferError):
        native.encode_memo("aaa", 0, mb, ml, out)
    view.release()
    assert out == b"x"


# ================================= decoding: the four-byte form of a ranges table
# (the extension reads GB 18030's four-byte form in its loop of table pairs and looks
# ranges tables up through an index of buckets: native_ext.quad_plans, range_plans)
@pytest.mark.parametrize("spec", ["gb18030", "gb18030-2022", "whatwg-gb18030", "whatwg-gbk"])
def test_ranges_table_pointers_decode_alike(spec):
    """Every run's first and last pointer and those just outside, every override and its
    neighbours, every bucket's first pointer and a seeded sample: the same str (or
    error) natively as in pure Python, each pointer between ASCII and two-byte text."""
    from encspec import pipeline
    from encspec.runtime.tables import digits_bytes
    py, nat = backends(spec)
    a = pipeline.load(spec)[1]
    (form,) = [f for f in a.forms.values() if getattr(f, "kind", "") == "table" and a.tables[f.table].ranges]
    t = a.tables[form.table]
    top = max(t.lasts)
    pointers = set()
    for s, last in zip(t.starts, t.lasts):
        pointers |= {s - 1, s, s + 1, last - 1, last, last + 1}
    for p, _ in getattr(t, "overrides", ()):
        pointers |= {p - 1, p, p + 1}
    pointers |= set(range(0, top + 2, 256))
    rnd = random.Random(f"ranges:{spec}")
    pointers |= {rnd.randrange(top + 2) for _ in range(3000)}
    limit = 1
    for runs in form.positions:
        limit *= sum(hi - lo + 1 for lo, hi in runs)
    pointers = sorted(p for p in pointers if 0 <= p < limit)
    two = py.encode(script_text(spec, 2000)[:3])
    for k in range(0, len(pointers), 400):
        doc = b"".join(b"a" + digits_bytes(form.positions, p, form.order) + two for p in pointers[k:k + 400])
        for errors in ("strict", "replace", "test_native_encode.record"):
            want = decode_outcome(py.decode, doc, errors)
            assert decode_outcome(nat.decode, doc, errors) == want, (spec, errors, pointers[k])


def decode_outcome(fn, data, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(data, errors), list(_SEEN))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


# ===================================== every built-in spec, every code point
# The extension writes most code points itself, by straight-line code per form
# (codegen/emit/native_encode.py: segments of the rows proven to decode back) and
# a memo it fills from them; the rest (mapping tables, counted forms, encoder-only
# entries, unencodable code points) the module decides.  Both must give exactly
# the pure-Python module's bytes and errors.
ALL_SPECS = [n for n in representative_builtins() if native_builtin(n)]


def _record_outcome(fn, items, errors="test_native_encode.record"):
    _SEEN.clear()
    try:
        return ("ok", fn(items, errors), list(_SEEN))
    except UnicodeEncodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def _every_code_point(py):
    """U+0000..U+10FFFF under ENCSPEC_SLOW=1 (conftest.code_points); for a spec with
    mapping tables, whose code points the module itself decides (the extension only
    replays its memo), and by default, the BMP and every 61st astral code point with
    both ends: a million unencodable code points would each cost a call of the
    recording handler in both backends."""
    return code_points(sampled=True) if py._TABLES else code_points()


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_every_code_point(spec):
    """U+0000..U+10FFFF (surrogates included) in one str of 4 bytes a character, under a
    handler that records every error (start, end, reason) and goes on; the same code
    points as a list of ints and as an array('I'); then strict, which stops at the first."""
    from array import array
    py, nat = backends(spec)
    cps = list(_every_code_point(py))
    text = "".join(map(chr, cps))
    cold(nat)
    want = _record_outcome(py.encode, text)
    assert _record_outcome(nat.encode, text) == want, spec
    assert _record_outcome(nat.encode, text) == want, spec  # warm memo
    assert _record_outcome(nat.encode, cps)[1:] == want[1:] or want[0] != "ok", spec
    if want[0] == "ok":
        assert nat.encode(cps, "test_native_encode.record") == want[1]
        assert nat.encode(array("I", cps), "test_native_encode.record") == want[1]
        assert nat.encode(memoryview(array("I", cps)), "test_native_encode.record") == want[1]
    assert _record_outcome(nat.encode, text, "strict") == _record_outcome(py.encode, text, "strict")


@pytest.mark.parametrize("width", [1, 2, 4])
@pytest.mark.parametrize("spec", ALL_SPECS)
def test_every_code_point_of_each_str_kind(spec, width):
    """The code points a str of 1 or 2 bytes a character holds, each in such a str (the
    extension's loop per kind; 4: the BMP with one astral character), under a handler
    that records every error, surrogateescape and strict."""
    py, nat = backends(spec)
    top = {1: 0x100, 2: 0x10000, 4: 0x10000}[width]
    text = "".join(map(chr, range(top))) + ("\U0001F600" if width == 4 else "")
    cold(nat)
    for errors in ("test_native_encode.record", "surrogateescape", "strict"):
        assert _record_outcome(nat.encode, text, errors) == _record_outcome(py.encode, text, errors), (spec, errors)


def _wide_samples(py) -> list[int]:
    """Code points beyond U+10FFFF the spec may write: every row's edges and a seeded
    sample inside, up to 2**64 and a little beyond (the extension reads 64 bits)."""
    rnd = random.Random(f"wide:{py.NAME}")
    out = {0x110000, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, 1 << 70, -1}
    for first, last, _, _ in py._ROWS:
        for cp in (first - 1, first, first + 1, last - 1, last, last + 1):
            out.add(cp)
        for _ in range(50):
            out.add(rnd.randint(first, last))
    top = py.MAX_CODE_POINT
    return sorted(cp for cp in out if cp > 0x10FFFF and (top is None or cp <= top + 2) and cp < 1 << 80) + [-1]


@pytest.mark.parametrize("spec", [s for s in ALL_SPECS if (encspec.load(s, backend="python").MAX_CODE_POINT or 1 << 90)
                                  > 0x10FFFF])
def test_code_points_beyond_unicode(spec):
    """Lists of code points beyond U+10FFFF (and one negative), alone and among others:
    the same bytes or errors natively (64-bit values in C, wider ones in the module)."""
    from array import array
    py, nat = backends(spec)
    cps = _wide_samples(py)
    rnd = random.Random(f"beyond:{spec}")
    mixed = [rnd.choice((rnd.choice(cps), rnd.randrange(0x80), rnd.randrange(0x10000))) for _ in range(3000)]
    for seq in (cps, mixed, [c for c in cps if 0 <= c < 1 << 64]):
        for errors in ("strict", "replace", "test_native_encode.record"):
            want = _record_outcome(py.encode, seq, errors)
            assert _record_outcome(nat.encode, seq, errors) == want, (spec, errors)
        ok = [c for c in seq if 0 <= c < 1 << 64]
        for errors in ("replace", "test_native_encode.record"):
            want = _record_outcome(py.encode, ok, errors)
            assert _record_outcome(nat.encode, array("Q", ok), errors) == want, (spec, errors)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_mixed_kinds_and_sequences(spec):
    """Texts that mix ASCII runs of every length around a block of 16, Latin-1, BMP and
    astral characters and unencodable ones (the str's kind is its widest), as str, list
    of ints, array('I'), memoryview and a generator: one answer."""
    from array import array
    py, nat = backends(spec)
    rnd = random.Random(f"kinds:{spec}")
    pool = ["a" * n for n in (1, 7, 15, 16, 17, 31, 33)] + ["\x00", "\xe9\xff", "\u3042\u00e9", "\ud800",
                                                            "\udcff", "\U0001F600", "\U00010000\U0010FFFF",
                                                            "\ufffd", script_text(spec, 200)[:5]]
    for _ in range(200):
        text = "".join(rnd.choice(pool) for _ in range(rnd.randrange(12)))
        cps = [ord(c) for c in text]
        for errors in ("strict", "replace", "surrogateescape", "test_native_encode.record"):
            want = _record_outcome(py.encode, text, errors)
            assert _record_outcome(nat.encode, text, errors) == want, (spec, errors, text)
            for seq in (cps, array("I", cps), memoryview(array("I", cps)), iter(cps)):
                got = _record_outcome(nat.encode, seq, errors)
                assert got[0] == want[0] and (got[1] == want[1] if want[0] == "ok" else got[1:4] == want[1:4]), \
                    (spec, errors, text, type(seq))


def test_code_points_the_loop_does_not_read():
    """Items of a list that are ints to int() but not to the extension (bools, a subclass
    of int, a str of digits as the pure-Python module takes them): written by the module,
    each once (the loop stops at them and goes on after)."""
    py, nat = backends("utf-8")

    class Int(int):
        pass

    for items in ([True, 0x41, False, Int(0xE9), Int(0x1F600), "66", 0x42] * 50, [Int(0x3042)] * 1000):
        assert nat.encode(items) == py.encode(items)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_incremental_encoder_every_spec(spec):
    """Pieces of every size through both backends' incremental encoders (a lead surrogate
    at a piece's end waits where encoders join pairs), as str and as code point lists."""
    py, nat = backends(spec)
    rnd = random.Random(f"incremental-all:{spec}")
    text = "".join(rnd.choice(["ab", "\ud83d", "\ude00", "\U0001F600", "\xe9", "\u3042", "\x00", "a" * 20,
                               script_text(spec, 100)[:3]]) for _ in range(400))
    for errors in ("strict", "replace", "test_native_encode.record"):
        for as_list in (False, True):
            pieces = _pieces(text, rnd)
            results = []
            for m in (py, nat):
                enc = m.getregentry().incrementalencoder(errors)
                _SEEN.clear()
                try:
                    got = b"".join(enc.encode([ord(c) for c in p] if as_list else p) for p in pieces)
                    results.append(("ok", got + enc.encode("", True), list(_SEEN)))
                except UnicodeEncodeError as e:
                    results.append(("error", e.reason, list(_SEEN)))
            assert results[1] == results[0], (spec, errors, as_list)


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:
    @settings(max_examples=examples(60), deadline=None)
    @given(st.sampled_from(ALL_SPECS), st.text(min_size=0, max_size=120),
           st.sampled_from(["strict", "replace", "surrogateescape", "backslashreplace", "test_native_encode.record"]))
    def test_random_text_hypothesis(spec, text, errors):
        """Random text (surrogates and astral characters included), random spec and handler."""
        py, nat = backends(spec)
        assert _record_outcome(nat.encode, text, errors) == _record_outcome(py.encode, text, errors)
        cps = [ord(c) for c in text]
        want = _record_outcome(py.encode, cps, errors)
        assert _record_outcome(nat.encode, cps, errors) == want


def test_straight_line_segments_are_proven():
    """The plan leaves out what the automaton does not decode back: utf-8's surrogates
    (a hole), wtf-8's (encoders join them), the encoder-only entries of a table spec;
    and writes utf-16le's BMP as code units."""
    from encspec import pipeline
    from encspec.emit.native import encode as native_encode
    def segs(name, key="l"):
        return [(s["lo"], s["hi"]) for s in native_encode.context(pipeline.load(name)[1], {})["enc_segments"][key]]
    assert not any(lo <= 0xD800 <= hi for lo, hi in segs("utf-8"))
    assert not any(lo <= 0xDC00 <= hi for lo, hi in segs("wtf-8"))
    py = encspec.load("whatwg-gb18030", backend="python")
    for cp in py._ENCODE_ONLY:
        assert not any(lo <= cp <= hi for lo, hi in segs("whatwg-gb18030")), cp
    ctx = native_encode.context(pipeline.load("utf-16le")[1], {})
    assert ctx["enc_unit"]["width"] == 2 and ctx["enc_unit"]["order"] == "le"
    assert ctx["enc_ascii"] is None
    assert native_encode.context(pipeline.load("mutf-8")[1], {})["enc_ascii"] == "nonzero"
    # wtf-16's form "high: E000..FFFF at U+E000" is its units too (the offset is the run's place)
    wtf16 = native_encode.context(pipeline.load("wtf-16")[1], {})["enc_unit"]
    assert wtf16["text"] == "U+0000..U+D7FF, U+E000..U+FFFF"


# ====================================================== the error path in C
# The extension applies handlers itself (encode_memo's errors) to the code points the
# module marks refused: codecs' own handlers written in C, any other called from C.
# Specs: UTF-8 and friends (surrogates are refused), code units, a permutation, table
# specs, and those whose tables hold sequences (issue 30: a starter ends a run).
ERROR_SPECS = ["utf-8", "corrected-utf-8", "cesu-8", "utf-16le", "utf-32", "utf-ebcdic", "gb18030", "euc-kr",
               "big5hkscs", "shift_jis_2004"]


def _refused_pool(py) -> list[str]:
    """Characters *py* cannot write: surrogates (escapable and not), and others from a few scripts."""
    pool = ["\udc80", "\udcff", "\udcc3", "\ud800", "\udbff", "\udfff"]
    for cp in (0xE9, 0x3B1, 0x430, 0x5D0, 0x627, 0xE01, 0x3042, 0x4E00, 0xAC00, 0xE000, 0xFFFF,
               0x1F600, 0x10FFFF, 0x20000):
        try:
            py.encode(chr(cp))
        except UnicodeEncodeError:
            pool.append(chr(cp))
    return pool


def _starters(py) -> str:
    """A few of *py*'s sequences (issue 30) and their starters alone, as text."""
    seqs = getattr(py, "_SEQUENCES", {})
    out = []
    for first, alts in list(seqs.items())[:6]:
        out.append(chr(first))
        out.append(chr(first) + "".join(map(chr, alts[0][0])))
    return "".join(out)


def _damaged_texts(spec: str) -> list[str]:
    """Texts with characters the spec cannot write: alone, in runs, at the start and the
    end, between starters of sequences, at 1% and 10%."""
    py, _ = backends(spec)
    rnd = random.Random(f"native-encode-errors:{spec}")
    refused = _refused_pool(py)
    clean = script_text(spec, 3000) + corpus("ascii", 1500)
    starters = _starters(py)
    out = []
    for rate in (0.01, 0.1, 0.5):
        chars = list(clean)
        for _ in range(int(len(chars) * rate)):
            chars[rnd.randrange(len(chars))] = "".join(rnd.choice(refused) for _ in range(rnd.choice((1, 1, 2, 5))))
        out.append("".join(chars))
    for _ in range(40):
        parts = [rnd.choice((lambda: rnd.choice(refused), lambda: clean[rnd.randrange(len(clean) - 5):][:5],
                             lambda: starters[rnd.randrange(len(starters)):][:3] if starters else "a",
                             lambda: "".join(rnd.choice(refused) for _ in range(rnd.randint(2, 6)))))()
                 for _ in range(rnd.randint(1, 12))]
        out.append("".join(parts))
    out += [refused[0] + clean[:50], clean[:50] + refused[-1], "".join(refused), refused[3] * 3, refused[0]]
    return out


@pytest.mark.parametrize("spec", ERROR_SPECS)
def test_error_path_agrees_with_python(spec):
    """Every handler (codecs' own, surrogatepass, two custom ones that record their calls)
    on damaged texts: the native-backed module writes the pure-Python module's bytes and
    makes its calls, raises its errors; cold memo, then warm."""
    py, nat = backends(spec)
    cold(nat)
    for warm in (False, True):
        for text in _damaged_texts(spec):
            for errors in HANDLERS:
                assert outcome(nat.encode, text, errors) == outcome(py.encode, text, errors), \
                    (spec, warm, errors, text[:30])


@pytest.mark.parametrize("spec", ["utf-8", "gb18030", "big5hkscs"])
def test_error_path_is_in_c(spec, monkeypatch):
    """With the extension, a handler is applied without the module's _encode loop."""
    py, nat = backends(spec)
    assert nat._NATIVE_ERRORS
    text = _damaged_texts(spec)[1]
    for errors in HANDLERS[1:5] + ["test_native_encode.record"]:
        nat.encode(text, errors)  # the memo learns what is refused
    want = {errors: outcome(py.encode, text, errors) for errors in HANDLERS[1:5] + ["test_native_encode.record"]}

    def no(*args):
        raise AssertionError("the module's _encode loop was used")

    monkeypatch.setattr(nat, "_encode", no)
    for errors, expected in want.items():
        assert outcome(nat.encode, text, errors) == expected, errors


@pytest.mark.parametrize("spec", ["utf-8", "corrected-utf-8", "gb18030"])
def test_strict_error_attributes(spec):
    """strict raises the module's exact error: encoding, object, start, end (the whole run), reason."""
    py, nat = backends(spec)
    for text in ("ab\udc80\udc81\ud800cd", "\udc80", "x" * 1000 + "\ud800\udfff"):
        errors = []
        for m in (py, nat):
            with pytest.raises(UnicodeEncodeError) as e:
                m.encode(text)
            errors.append((e.value.encoding, e.value.object, e.value.start, e.value.end, e.value.reason))
        assert errors[0] == errors[1]
        if spec == "utf-8":
            with pytest.raises(UnicodeEncodeError) as e:
                text.encode("utf-8")
            assert (e.value.start, e.value.end, e.value.reason) == errors[0][2:]


def _any_outcome(fn, text, errors):
    """outcome, and an IndexError or TypeError (a handler's bad position) as its message."""
    try:
        return outcome(fn, text, errors)
    except (IndexError, TypeError) as e:
        return (type(e).__name__, str(e))


def _returning(result):
    def handler(exc):
        return result(exc) if callable(result) else result
    return handler


@pytest.mark.parametrize("spec", ["utf-8", "utf-16le", "gb18030", "big5hkscs"])
def test_custom_handler_results(spec):
    """What a handler may return, each written (or refused) as the pure-Python module does:
    characters the memo has not met, a starter, an unencodable character, bytes (whole
    code units or not), a position from the end, backwards, out of bounds; and a handler
    that encodes with the same module (the memo may grow under the loop)."""
    py, nat = backends(spec)
    results = {
        "cjk": lambda e: ("\u4e2d\u6587\u00e9", e.end),
        "starter": lambda e: ("\u00ca\u00ea\u304b", e.end),
        "refused": lambda e: ("a\ud800", e.end),
        "bytes": lambda e: (b"\x00\x01", e.end),
        "odd-bytes": lambda e: (b"\x01", e.end),
        "from-end": lambda e: ("<>", e.end - len(e.object) if e.end < len(e.object) else e.end),
        "back": lambda e: ("!", e.start + 1 if e.start + 1 < e.end else e.end),
        "far": lambda e: ("?", len(e.object) + 5),
        "list": lambda e: ["[]", e.end],
        "bool": lambda e: ("b", True if e.start == 0 else e.end),
        "nested": lambda e: (nat.encode(e.object[e.start:e.end], "xmlcharrefreplace").decode("latin-1")
                             + "\U0002f800" * 3, e.end),
    }
    for name, result in results.items():
        codecs.register_error(f"test_native_encode.{name}", _returning(result))
        for text in ("ab\udc80\ud800cd\u3042", "\udc80", "\ud800\udc80x" * 300, "x\udcff"):
            cold(nat)
            errors = f"test_native_encode.{name}"
            want = _any_outcome(py.encode, text, errors)
            assert _any_outcome(nat.encode, text, errors) == want, (spec, name, text[:10])
            assert _any_outcome(nat.encode, text, errors) == want, (spec, name, "warm")


def test_encode_memo_errors_argument(native):
    """errors must be the module's tuple; a bad one is a TypeError or ValueError, not a crash."""
    mb, ml = _memo({0x61: b"a"})
    ml[0xD800] = 6
    fine = (1, True, 1, codecs.replace_errors, "utf-8", ("s", "o"), None, lambda *a: (b"", 0))
    out = bytearray()
    assert native.encode_memo("a\ud800a", 0, mb, ml, out, None, fine) == 3 and out == b"a?a"
    for bad, exc in ((1, TypeError), ((1, True), TypeError), ((9,) + fine[1:], ValueError),
                     (fine[:6] + (b"short",) + fine[7:], ValueError), (fine[:7] + (None,), ValueError)):
        with pytest.raises(exc):
            native.encode_memo("a\ud800a", 0, mb, ml, bytearray(), None, bad)


# ================================= code units in the other byte order (swapped stores)
UNIT_SPECS = {"utf-32be": "utf-32-be", "utf-32le": "utf-32-le", "utf-16be": "utf-16-be", "utf-16le": "utf-16-le"}
UNIT_ALPHABETS = {  # one str kind each: 1, 2 and 4 bytes a character
    "ascii": "abcxyz 09~\x00\x7f",
    "latin-1": "\x80\xa0\xe9\xff a",
    "bmp": "\u0100\u4e2d\uabcd\ue000\uffff\u07ff",
    "astral": "\U00010000\U0001F600\U0010FFFF\u4e2d",
}


@pytest.mark.parametrize("alphabet", sorted(UNIT_ALPHABETS))
@pytest.mark.parametrize("spec", sorted(UNIT_SPECS))
def test_code_units_agree_at_block_edges(spec, alphabet):
    """Runs of code units are written 32 characters a block, swapped in a register where
    the spec's byte order is not the machine's: every length around the block edges, and
    a lone surrogate (unencodable) at every offset near them, equal pure Python and CPython."""
    py, nat = backends(spec)
    rnd = random.Random(f"units:{spec}:{alphabet}")
    chars = UNIT_ALPHABETS[alphabet]
    for n in [*range(0, 4), *range(29, 36), *range(61, 68), *range(94, 100), 1000]:
        text = "".join(rnd.choice(chars) for _ in range(n))
        for errors in ("strict", "replace"):
            want = outcome(py.encode, text, errors)
            assert outcome(nat.encode, text, errors) == want, (spec, n, errors)
            assert cpython_outcome(UNIT_SPECS[spec], text, errors) == want, (spec, n, errors)
    base = "".join(rnd.choice(chars) for _ in range(100))
    for k in [*range(0, 3), *range(30, 35), *range(62, 67), 99]:
        text = base[:k] + "\udc80" + base[k + 1:]
        for errors in ("strict", "replace", "backslashreplace", "surrogatepass"):
            want = outcome(py.encode, text, errors)
            assert outcome(nat.encode, text, errors) == want, (spec, k, errors)
            assert cpython_outcome(UNIT_SPECS[spec], text, errors) == want, (spec, k, errors)


def test_wtf16_private_use_and_specials_stay_in_the_unit_blocks():
    """WTF-16's U+E000..U+FFFF (full-width punctuation, private use) are code units
    like the rest of the BMP: around every block edge, with a lone surrogate (a unit of
    its own) or a lead then trail surrogate (refused) at each offset, native equals pure
    Python, and CPython's utf-16-le with surrogatepass where no pair is formed."""
    py, nat = backends("wtf-16")
    rnd = random.Random("wtf16-units")
    chars = "\ue000\uff0c\uffff\ufffe\uf8ff\u4e2d a\u00e9"
    base = "".join(rnd.choice(chars) for _ in range(100))
    texts_ = [base[:n] for n in (*range(29, 36), *range(61, 68), 100)]
    for k in (*range(0, 3), *range(30, 35), *range(62, 67), 98):
        texts_.append(base[:k] + "\ud800" + base[k + 1:])
        texts_.append(base[:k] + "\udfff" + base[k + 1:])
        texts_.append(base[:k] + "\ud83d\ude00" + base[k + 2:])
    for text in texts_:
        for errors in ("strict", "replace", "backslashreplace"):
            want = outcome(py.encode, text, errors)
            assert outcome(nat.encode, text, errors) == want, (text, errors)
        if "\ud83d" not in text:
            assert nat.encode(text) == text.encode("utf-16-le", "surrogatepass")
