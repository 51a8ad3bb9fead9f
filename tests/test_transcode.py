"""``encspec transcode`` through a str chunk: the same bytes and failures as decoding
to code points and encoding them, for several pairs of specs, every standard error
handler, and chunks that cut sequences anywhere; code points beyond U+10FFFF still
pass (as ints, for the chunks that hold them); memory stays flat with the input's size.

The references are the pure-Python modules: ``encode(decode_codepoints(data, errors),
errors)`` in one call where the handler does not give up, and for ``strict`` (and
``surrogateescape`` on what is no escaped byte) the
int-list streaming path (``CodePointDecoder`` then ``Encoder``, chunk by chunk) that
``transcode`` used before, which fails at the same place with the same message.
"""
from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

import encspec
from encspec.cli import main
from encspec.io import stream

PAIRS = [
    ("utf-8", "corrected-utf-8"), ("corrected-utf-8", "utf-8"), ("wtf-8", "utf-8"), ("utf-8", "wtf-8"),
    ("cesu-8", "wtf-8"), ("corrected-utf-8", "utf-inf-8"), ("utf-inf-8", "corrected-utf-8"),
    ("mutf-8", "cesu-8"), ("utf-16le", "utf-8"), ("utf-8", "utf-16be"), ("utf-1", "corrected-utf-8"),
]
HANDLERS = ["replace", "ignore", "surrogateescape", "backslashreplace"]
CHUNKS = [1, 2, 3, 5, 64, 1 << 20]
PY = {}


def python(name):
    """The pure-Python module (the reference)."""
    if name not in PY:
        PY[name] = encspec.load(name, backend="python")
    return PY[name]


def sample(name: str, seed: int) -> bytes:
    """Bytes of spec *name*: pieces of text it can write (ASCII, Latin, CJK, emoji, a
    surrogate, a code point beyond U+10FFFF where it has one), with ill-formed bytes
    between some of them."""
    mod = python(name)
    rnd = random.Random(f"{name}-{seed}")
    pool = [0x41, 0x20, 0x0A, 0xE9, 0x4E2D, 0x1F600, 0x10000, 0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0xFFFD, 0x110000,
            0x7FFFFFFF, 0x8421109F, 1 << 40, 0]
    out = bytearray()
    for _ in range(60):
        if rnd.random() < 0.15:
            out += rnd.choice([b"\xff", b"\xc0", b"\x80", b"\xe1\x80", b"\xed\xa0", b"\xf5", b"\x00", b"\xfe\x80"])
            continue
        cp = rnd.choice(pool)
        try:
            out += mod.encode([cp])
        except UnicodeEncodeError:
            out += mod.encode("x")
    return bytes(out)


def streamed(make, data: bytes, size: int):
    """The bytes a streaming converter *make()* writes for *data* fed *size* bytes at a
    time, or the failure it stops at (type, and its message)."""
    conv = make()
    out = bytearray()
    try:
        for i in range(0, len(data), size):
            out += conv(data[i:i + size], False)
        out += conv(b"", True)
    except (stream.DecodeFailure, stream.EncodeFailure) as e:
        return type(e).__name__, str(e)
    return bytes(out)


def transcoder(source, target, errors, backend="auto"):
    def make():
        tc = stream.Transcoder(encspec.load(source, backend=backend), encspec.load(target, backend=backend), errors)
        return tc.transcode
    return make


def int_path(source, target, errors):
    """The int-list streaming path transcode used before (pure Python)."""
    def make():
        dec = stream.CodePointDecoder(python(source), errors)
        enc = stream.Encoder(python(target), errors)
        return lambda chunk, final: enc.encode(dec.decode(chunk, final), final)
    return make


def one_shot(source, target, data, errors):
    return python(target).encode(python(source).decode_codepoints(data, errors), errors)


@pytest.mark.parametrize("source,target", PAIRS)
@pytest.mark.parametrize("errors", HANDLERS)
def test_same_bytes_as_decode_then_encode(source, target, errors):
    for seed in range(3):
        data = sample(source, seed)
        try:
            expected = one_shot(source, target, data, errors)
        except UnicodeError:  # surrogateescape refuses what is no escaped byte: it fails as before
            expected = None   # (which failure comes first depends on where the chunks end)
        for size in CHUNKS:
            want = expected if expected is not None else streamed(int_path(source, target, errors), data, size)
            assert streamed(transcoder(source, target, errors), data, size) == want, (seed, size)
        want = expected if expected is not None else streamed(int_path(source, target, errors), data, 7)
        assert streamed(transcoder(source, target, errors, "python"), data, 7) == want, seed


@pytest.mark.parametrize("source,target", PAIRS)
def test_strict_fails_where_the_int_path_fails(source, target):
    for seed in range(4):
        data = sample(source, seed)
        for size in (1, 3, 64, 1 << 20):
            got = streamed(transcoder(source, target, "strict"), data, size)
            assert got == streamed(int_path(source, target, "strict"), data, size), (seed, size)
        # well-formed: what decodes, re-encoded (ignore: a lead and a trail surrogate the
        # decoder's ignore made neighbours are a pair mutf-8 refuses to write)
        clean = python(source).encode(python(source).decode_codepoints(data, "ignore"), "ignore")
        got = streamed(transcoder(source, target, "strict"), clean, 5)
        assert got == streamed(int_path(source, target, "strict"), clean, 5), seed


def test_text_path_makes_no_ints_for_a_source_within_u10ffff(monkeypatch):
    """utf-8's code points never pass U+10FFFF: the code-point decoder is never made."""
    def refuse(*a, **k):
        raise AssertionError("a code-point decoder was made")
    src = encspec.load("utf-8")
    monkeypatch.setattr(src, "IncrementalCodePointDecoder", refuse)
    tc = stream.Transcoder(src, encspec.load("corrected-utf-8"), "replace")
    text = "añ日\U0001F600\n" * 1000
    assert tc.transcode(text.encode() + b"\xff", True) == python("corrected-utf-8").encode(text + "\ufffd")


def test_chunks_beyond_u10ffff_go_as_ints_and_the_rest_as_text():
    """Code points beyond U+10FFFF in a few chunks of a long stream: those chunks pass
    ints (counted), the text before and after passes as text, nothing is lost."""
    cu = python("corrected-utf-8")
    cps = [0x61] * 5000 + [0x110000, 0x7FFFFFFF] + [0xE9] * 5000 + [0x8421109F] + [0x4E2D] * 5000
    data = cu.encode(cps)
    for errors in ("strict", "replace", "surrogateescape"):
        tc = stream.Transcoder(encspec.load("corrected-utf-8"), encspec.load("utf-inf-8"), errors)
        out = b"".join(tc.transcode(data[i:i + 1000]) for i in range(0, len(data), 1000)) + tc.transcode(b"", True)
        assert python("utf-inf-8").decode_codepoints(out) == cps
        assert 1 <= tc.int_chunks <= 3
        assert tc._dec is tc._text  # back to text after the last of them


def test_beyond_u10ffff_fails_or_is_replaced_as_before(tmp_path, capsysbinary):
    """corrected-utf-8 to utf-8: a code point beyond U+10FFFF is the encoder's to refuse,
    named by its index in the code points, in the middle of text decoded as text."""
    cu = python("corrected-utf-8")
    f = tmp_path / "in.cutf8"
    f.write_bytes(cu.encode("é" * 70000 + "\n") + cu.encode([0x110005]) + cu.encode("z\n"))
    rc = main(["transcode", "--from", "corrected-utf-8", "--to", "utf-8", str(f), "-o", str(tmp_path / "o")])
    out, err = capsysbinary.readouterr()
    assert (rc, out) == (1, b"")
    assert err == f"encspec: error: {f}: character 70001 (U+110005): code point not encodable in utf-8\n".encode()
    rc = main(["transcode", "--from", "corrected-utf-8", "--to", "utf-8", "--errors", "replace", str(f)])
    out, err = capsysbinary.readouterr()
    assert (rc, out, err) == (0, ("é" * 70000 + "\n?z\n").encode(), b"")


def test_decode_failure_offset_across_chunks(tmp_path, capsysbinary, monkeypatch):
    """An ill-formed sequence cut by a chunk boundary is reported at its absolute offset,
    and the output file is not written."""
    monkeypatch.setattr(stream, "TEXT_CHUNK", 4)
    f, o = tmp_path / "in.txt", tmp_path / "out.bin"
    f.write_bytes(b"abcdefg\xe1\x80zz")
    rc = main(["transcode", "--from", "utf-8", "--to", "corrected-utf-8", str(f), "-o", str(o)])
    out, err = capsysbinary.readouterr()
    assert (rc, out, o.exists()) == (1, b"", False)
    assert err == f"encspec: error: {f}: byte 7: invalid continuation byte: E1 80\n".encode()


def test_custom_handler_sees_each_problem_on_the_text_path():
    """A handler registered by name is applied by the module on the text path (not only
    the built-in ones the native loop knows), beyond-capable source included."""
    import codecs
    codecs.register_error("test-transcode.star", lambda e: ("*" * (e.end - e.start), e.end))
    for source in ("utf-8", "corrected-utf-8"):
        data = b"a\xffb\xc0\xafc"
        tc = stream.Transcoder(encspec.load(source), encspec.load("utf-8"), "test-transcode.star")
        assert tc.transcode(data, True) == one_shot(source, "utf-8", data, "test-transcode.star")


MEMORY = textwrap.dedent("""
    import sys, tracemalloc
    import encspec
    from encspec.io import stream
    source, target, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
    src, dst = encspec.load(source), encspec.load(target)
    block = src.encode(("Grüße, 日本語 \\U0001F600 text " * 20000)[:1 << 16])
    tc = stream.Transcoder(src, dst, "replace")
    tc.transcode(block)  # warm: the modules' memos
    tracemalloc.start()
    written = 0
    for _ in range(-(-(mib << 20) // len(block))):
        written += len(tc.transcode(block))
    written += len(tc.transcode(b"", True))
    print(tracemalloc.get_traced_memory()[1], written)
""")


@pytest.mark.parametrize("source,target", [("utf-8", "corrected-utf-8"), ("corrected-utf-8", "utf-8")])
def test_memory_is_flat_with_the_input_size(source, target):
    """Peak traced memory of the streaming path for 16 MiB of input is about that for
    1 MiB (each chunk's str and bytes are dropped before the next)."""
    peaks = {}
    for mib in (1, 16):
        got = subprocess.run([sys.executable, "-c", MEMORY, source, target, str(mib)], capture_output=True,
                             text=True, timeout=600)
        assert got.returncode == 0, got.stderr
        peak, written = map(int, got.stdout.split())
        assert written >= mib << 20
        peaks[mib] = peak
    assert peaks[16] < 2 * peaks[1] + (64 << 10), peaks
