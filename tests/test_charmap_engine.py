"""The single-byte engine: a spec whose every token is one byte decodes and encodes
natively through CPython's charmap codec over its own tables (the core's _Charmap
hook), with no C of its own, and gives exactly what the pure-Python core gives:
the same text, the same error spans and reasons, the same handler calls.

The fixture specs (tests/data/charmap/) are four of CPython's single-byte codecs
written as specs (Latin, Cyrillic, Greek, Thai); CPython's codec is a third party
to every comparison.
"""
from __future__ import annotations

import codecs
import types
from pathlib import Path

import pytest

import encspec
from conftest import DATA, ROOT, code_points, decode_in_chunks
from encspec.cli.build import outputs
from encspec.pipeline import load as load_automaton
from encspec.runtime import charmap, tables

FIXTURES = {"cp1252": "Latin", "koi8_r": "Cyrillic", "iso8859_7": "Greek", "cp874": "Thai"}
HANDLERS = ("replace", "ignore", "surrogateescape", "backslashreplace")


def fixture(codec: str) -> str:
    return str(DATA / "charmap" / f"{codec}.encspec")


@pytest.fixture(scope="module", params=sorted(FIXTURES))
def pair(request):
    """(CPython's codec name, the native module, the pure-Python module) of a fixture."""
    path = fixture(request.param)
    native = encspec.load(path, backend="native")
    python = encspec.load(path, backend="python")
    assert type(native._NATIVE).__name__ == "_Charmap"
    assert python._NATIVE is None
    return request.param, native, python


def outcome(fn, *args):
    """What a call returns, or the (start, end, reason) of the Unicode error it raises."""
    try:
        return fn(*args)
    except (UnicodeDecodeError, UnicodeEncodeError) as e:
        return (type(e).__name__, e.start, e.end, e.reason)


def recording(calls: list):
    """A custom error handler (not one the engine applies itself) that records what it sees."""
    def handler(e):
        calls.append((type(e).__name__, e.start, e.end, e.reason))
        return ("<?>" if isinstance(e, UnicodeDecodeError) else "<!>", e.end)
    return handler


def test_decode_of_every_byte_equals_the_core_and_cpython(pair):
    codec, native, python = pair
    for b in range(256):
        data = b"ab" + bytes([b]) + b"cd"
        got = outcome(native.decode, data)
        assert got == outcome(python.decode, data), hex(b)
        want = outcome(codecs.decode, data, codec)
        assert got == want, hex(b)   # the fixture's reason is CPython's words


@pytest.mark.parametrize("errors", HANDLERS)
def test_decode_with_a_builtin_handler_equals_the_core(pair, errors):
    codec, native, python = pair
    data = bytes(range(256)) * 3 + b"\xff\x81"
    assert native.decode(data, errors) == python.decode(data, errors) == data.decode(codec, errors)
    assert native.decode_codepoints(data, errors) == python.decode_codepoints(data, errors)


def test_decode_with_a_custom_handler_sees_the_specs_reasons(pair):
    _, native, python = pair
    name = f"test-charmap-decode-{id(pair)}"
    calls_native: list = []
    calls_python: list = []
    data = bytes(range(256)) * 2
    codecs.register_error(name, recording(calls_native))
    got_native = native.decode(data, name)
    codecs.register_error(name, recording(calls_python))
    got_python = python.decode(data, name)
    assert got_native == got_python
    assert calls_native == calls_python
    assert all(end - start == 1 for _, start, end, _ in calls_native)


def test_the_codec_calls_the_charmap_codec_without_the_core_class(pair):
    """bytes.decode(name) and str.encode(name) reach CPython's charmap codec in one Python
    frame (a function, not the core's Codec method around _decode); the pure-Python twin
    keeps the Codec class."""
    _, native, python = pair
    info = native.getregentry()
    assert isinstance(info.decode, types.FunctionType) and isinstance(info.encode, types.FunctionType)
    assert isinstance(python.getregentry().decode, types.MethodType)


@pytest.mark.parametrize("errors", ("strict",) + HANDLERS + ("custom",))
def test_the_codec_decodes_and_encodes_as_the_core(pair, errors):
    """The codec's decode and encode (what the registry calls) answer as the pure-Python
    codec's: the same (result, length) or the same error, every byte and a sweep of code
    points, bytes, bytearray and memoryview, a custom handler seeing the same calls."""
    codec, native, python = pair
    info, ref = native.getregentry(), python.getregentry()
    name = errors
    calls_native: list = []
    calls_python: list = []
    if errors == "custom":
        name = f"test-charmap-codec-{codec}"
    data = bytes(range(256)) * 2
    text = "".join(map(chr, range(0x800))) + "\U0001F600 end"
    for kind in (bytes, bytearray, memoryview):
        for chunk in (b"plain ascii", bytes(range(0x80, 0x100)), data):
            if errors == "custom":
                codecs.register_error(name, recording(calls_native))
            got = outcome(info.decode, kind(chunk), name)
            if errors == "custom":
                codecs.register_error(name, recording(calls_python))
            assert got == outcome(ref.decode, kind(chunk), name), (kind, chunk[:4])
    for t in ("plain ascii", text, text[:0x100], [ord(c) for c in text[:0x100]]):
        if errors == "custom":
            codecs.register_error(name, recording(calls_native))
        got = outcome(info.encode, t, name)
        if errors == "custom":
            codecs.register_error(name, recording(calls_python))
        assert got == outcome(ref.encode, t, name), (type(t), str(t)[:8])
    assert calls_native == calls_python
    assert errors != "custom" or calls_native


def test_incremental_decoding_in_chunks_equals_the_core(pair):
    _, native, python = pair
    data = bytes(range(256)) * 2
    for size in (1, 7, 100):
        assert decode_in_chunks(native, data, "strict", size) == decode_in_chunks(python, data, "strict", size)
        assert decode_in_chunks(native, data, "replace", size) == decode_in_chunks(python, data, "replace", size)


def test_encode_of_every_code_point_equals_the_core_and_cpython(pair):
    codec, native, python = pair
    cps = code_points(surrogates=True)
    for cp in cps:
        text = "a" + chr(cp) + "b"
        got = outcome(native.encode, text)
        assert got == outcome(python.encode, text), hex(cp)
        if cp & 0x3F == 0 or cp < 0x3000:  # CPython's codec on a share, to keep the sweep quick
            assert got == outcome(codecs.encode, text, codec), hex(cp)


@pytest.mark.parametrize("errors", ("replace", "ignore", "backslashreplace", "xmlcharrefreplace", "custom"))
def test_encode_with_a_handler_equals_the_core(pair, errors):
    _, native, python = pair
    text = "".join(map(chr, range(0x3000))) + "\U0001F600 end"
    if errors != "custom":
        assert native.encode(text, errors) == python.encode(text, errors)
        assert native.encode([ord(c) for c in text], errors) == python.encode([ord(c) for c in text], errors)
        return
    name = f"test-charmap-encode-{id(pair)}"
    calls_native: list = []
    calls_python: list = []
    codecs.register_error(name, recording(calls_native))
    got_native = native.encode(text, name)
    codecs.register_error(name, recording(calls_python))
    got_python = python.encode(text, name)
    assert got_native == got_python
    assert calls_native == calls_python and calls_native


def test_code_points_beyond_unicode_go_to_the_core(pair):
    _, native, python = pair
    items = [0x41, 0x110000, 0x42, True]
    assert outcome(native.encode, items) == outcome(python.encode, items)
    assert native.encode(items, "replace") == python.encode(items, "replace")


# --------------------------------------------------------------- the rule
def rule_tables(spec_text: str, tmp_path: Path):
    path = tmp_path / "s.encspec"
    path.write_text(spec_text)
    return charmap.tables(tables.bind(load_automaton(str(path))[1]))


HEAD = "encoding s\ncode-space U+0000..U+10FFFF\n"


def test_every_form_one_byte_long_selects_the_engine(tmp_path):
    got = rule_tables(HEAD + "form ascii: 00..7F at U+0000\nform hi: 80 = U+20AC\n", tmp_path)
    assert got is not None
    decoding, encoding = got
    assert decoding[:0x81] == "".join(map(chr, range(0x80))) + "\u20ac"
    assert decoding[0x81:] == charmap.UNDEFINED * (256 - 0x81)
    assert encoding == decoding


def test_a_two_byte_form_does_not_select_it(tmp_path):
    assert rule_tables(HEAD + "form ascii: 00..7F at U+0000\nform two: C2 80..BF at U+0080\n", tmp_path) is None


def test_a_byte_decoding_to_u_fffe_does_not_select_it(tmp_path):
    assert rule_tables(HEAD + "form ascii: 00..7F at U+0000\nform odd: 80 = U+FFFE\n", tmp_path) is None


@pytest.mark.parametrize("name", ["utf-8", "cp932", "utf-16le", "leb128", "whatwg-big5"])
def test_multi_byte_builtins_keep_their_own_extension(name):
    path = ROOT / "specs" / f"{name}.encspec"
    automaton = load_automaton(str(path))[1]
    assert not charmap.single_byte(tables.bind(automaton))
    module = encspec.load(name, backend="python")
    assert module._CHARMAP is None


def test_two_bytes_to_one_code_point_encodes_the_one_the_core_writes(tmp_path):
    path = tmp_path / "dup.encspec"
    path.write_text(HEAD + "form ascii: 00..7F at U+0000\nform dup: 80 = U+0041\n")
    native = encspec.load(str(path), backend="native")
    python = encspec.load(str(path), backend="python")
    assert native.decode(b"\x41\x80") == python.decode(b"\x41\x80") == "AA"
    assert native.encode("AA") == python.encode("AA")


# ------------------------------------------------------- build and install
def test_build_writes_charmap_tables_and_no_c_for_a_single_byte_spec(tmp_path):
    files = {o.path.relative_to(tmp_path).as_posix(): o.text for o in outputs(fixture("cp1252"), tmp_path)}
    assert not any(rel.startswith("native/") for rel in files)
    module = files["fixture_cp1252.py"]
    assert "_CHARMAP = (_CHARMAP_DECODING, _CHARMAP_ENCODING)" in module
    space: dict = {"__name__": "fixture_cp1252", "__package__": ""}
    exec(compile(module, "fixture_cp1252.py", "exec"), space)
    assert space["_CHARMAP"][0] == bytes(range(256)).decode("cp1252", "replace").replace("\ufffd", "\ufffe")
    assert type(space["_NATIVE"]).__name__ == "_Charmap"   # a copied module is native on its own


def test_build_still_writes_c_for_a_multi_byte_spec(tmp_path):
    files = [o.path.relative_to(tmp_path).as_posix() for o in outputs(str(ROOT / "specs" / "utf-8.encspec"), tmp_path)]
    assert "native/utf_8.c" in files


def test_no_checked_in_extension_source_for_a_charmap_module():
    """setup.py compiles generated/native/*.c: a single-byte built-in adds none."""
    generated = ROOT / "generated"
    for module in generated.glob("*.py"):
        if "\n_CHARMAP = (_CHARMAP_DECODING" in module.read_text("utf-8"):
            assert not (generated / "native" / f"{module.stem}.c").exists(), module.stem


# built-ins of every shape the engine takes: Latin-1 and ASCII (CPython's own codecs of
# those tables), EBCDIC (no undefined byte), a page with 17 undefined bytes, one with one
BUILTINS = ("latin_1", "ascii", "cp037", "cp1253", "cp1251")


def builtin_pair(name: str):
    native, python = encspec.load(name, backend="native"), encspec.load(name, backend="python")
    assert type(native.native()).__name__ == "_Charmap" and python.native() is None
    return native, python


@pytest.mark.parametrize("name", BUILTINS)
def test_validation_finds_the_first_undefined_byte_as_the_core(name):
    """is_valid, first_error and valid_until of the engine (a byte search, or isascii)
    give what the pure-Python core's scan gives, for every byte at the start, the
    middle and the end of ASCII and non-ASCII text, and for bytes, bytearray, memoryview."""
    native, python = builtin_pair(name)
    for b in range(256):
        for data in (bytes([b]), b"plain text " + bytes([b]) + b" more", bytes(range(0x80, 0x100)) + bytes([b])):
            for kind in (bytes, bytearray, memoryview):
                assert native.is_valid(kind(data)) == python.is_valid(data), (hex(b), kind)
            assert native.first_error(data) == python.first_error(data), hex(b)
            pos = min(3, len(data))
            assert native.valid_until(data, pos) == python.valid_until(data, pos), hex(b)
            assert native.is_valid(data, allow_reserved=False) == python.is_valid(data, allow_reserved=False)
    assert native.is_valid(b"only ascii" * 100)


@pytest.mark.parametrize("name", BUILTINS)
def test_builtins_decode_encode_and_stream_as_the_core(name):
    """Latin-1 and ASCII go through CPython's latin_1 and ascii codecs, the others
    through charmap: every byte and code point below U+0800 as the core, with handlers,
    and the incremental decoder (the engine's feed) in chunks of 1, 7 and 100 bytes."""
    native, python = builtin_pair(name)
    data = bytes(range(256)) * 2
    text = "".join(map(chr, range(0x800)))
    for errors in ("strict", "replace", "surrogateescape", "backslashreplace"):
        assert outcome(native.decode, data, errors) == outcome(python.decode, data, errors)
        assert outcome(native.encode, text, errors) == outcome(python.encode, text, errors)
        info, ref = native.getregentry(), python.getregentry()
        assert outcome(info.decode, data, errors) == outcome(ref.decode, data, errors)
        assert outcome(info.encode, text, errors) == outcome(ref.encode, text, errors)
    clean = python.encode(text, "ignore")
    for size in (1, 7, 100):
        for chunked in (clean, data):
            for errors in ("strict", "replace"):
                assert outcome(decode_in_chunks, native, chunked, errors, size) == \
                    outcome(decode_in_chunks, python, chunked, errors, size)


def test_the_incremental_decoder_takes_the_engines_feed():
    native, _ = builtin_pair("cp1251")
    dec = native.IncrementalDecoder()
    assert dec.decode("Привет".encode("cp1251")) == "Привет" and dec._quick
    feed = native.native().feed
    assert feed(b"", "Привет".encode("cp1251"), "strict", False, 0, 0, True) == "Привет"
    assert feed(b"", b"a\x98", "strict", False, 0, 0, True) is None  # the core's to report
