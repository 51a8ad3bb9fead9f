"""The native backend: each spec's automaton compiled to a CPython extension.

* it is REQUIRED here: every built-in spec's extension must have been built by
  ``pip install -e .`` (setup.py) from the checked-in generated/native/ source
  it was generated from; ``encspec.load(name, backend="native")`` uses it and
  ``backend="python"`` does not;
* on top of the oracle tests (test_equivalence, test_python_codec,
  test_incremental run every decoding test on both backends), the two backends
  agree with each other on long inputs under every handler, through every
  path of the extension (a kind widened or narrowed after the fact, a string
  grown, the GIL released, an ASCII-only copy);
* a user's spec: ``encspec build --native PATH`` compiles into the cache, a
  second call reuses it, ``encspec.load(PATH, backend="native")`` decodes with
  it; without a C compiler the build fails with one line and the Python path
  still decodes; a generated module copied on its own decodes too.
"""
from __future__ import annotations

import codecs
import importlib
import os
import shutil
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
import tools
from codec_samples import SPECS, byte_strings, native_extension_missing, oracle, pieces
from conftest import assert_linear, decode_in_chunks, examples
from encspec.emit.native import build as native_build
from encspec.emit.native.ext import declared_digest, source_digest
from encspec.spec import registry


@pytest.fixture(autouse=True)
def _compiled():
    """The native backend needs a C compiler at install time (and to build user specs):
    without it every test here is skipped naming it (failed under ENCSPEC_REQUIRE_TOOLS=1)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    why = native_extension_missing("utf-8")
    if why is not None:
        tools.missing(why)

ROOT = Path(__file__).resolve().parents[1]
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "test_native.record"]

_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native.record", _record)


def module_name(name: str) -> str:
    return registry.module_name(name)


# ============================================================ it is there
@pytest.mark.parametrize("name", SPECS)
def test_every_builtin_has_its_compiled_extension(name):
    """pip install -e . compiled every built-in's extension (the fixture above has
    skipped these tests when there is no C compiler or no extension at all)."""
    mod = module_name(name)
    try:
        ext = importlib.import_module(f"encspec.generated._native_{mod}")
    except ImportError as e:
        pytest.fail(f"encspec.generated._native_{mod} is not built ({e}) though _native_utf_8 is")
    m = encspec.load(name, backend="native")
    assert m._NATIVE is ext
    assert m is importlib.import_module(f"encspec.generated.{mod}")  # the installed module, not a copy
    assert ext.SPEC_SHA256 == m.SPEC_SHA256 and ext.NAME == m.NAME
    source = (ROOT / "generated" / "native" / f"{mod}.c").read_text("utf-8")
    # built from the checked-in source as it is now (else: pip install -e . again)
    assert ext.SOURCE_SHA256 == declared_digest(source) == source_digest(source)
    out: list = []
    assert ext.decode(b"plain text", 0, "strict", True, True, out) == 10 and out == ["plain text"]


@pytest.mark.parametrize("name", SPECS)
def test_the_python_backend_does_not_use_it(name):
    native, python = encspec.load(name, backend="native"), encspec.load(name, backend="python")
    assert python._NATIVE is None and native._NATIVE is not None
    assert python is not native and python.SPEC_SHA256 == native.SPEC_SHA256
    assert encspec.load(name, backend="python") is python  # made once
    assert encspec.load(name) is native  # "auto": the extension when there is one


def test_an_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="unknown backend 'rust'"):
        encspec.load("utf-8", backend="rust")


# ================================================= both backends agree
def outcome(fn, *args):
    _SEEN.clear()
    try:
        return ("ok", fn(*args), list(_SEEN))
    except UnicodeDecodeError as e:
        return ("error", e.start, e.end, e.reason, e.object == args[0])


def agree(name, data):
    py, nat = encspec.load(name, backend="python"), encspec.load(name, backend="native")
    for errors in HANDLERS:
        assert outcome(nat.decode, data, errors) == outcome(py.decode, data, errors), errors
        assert outcome(nat.decode_codepoints, data, errors) == outcome(py.decode_codepoints, data, errors), errors


@st.composite
def long_mixed(draw, name):
    """Long valid runs (ASCII, then the spec's pieces) with bad bytes spliced in."""
    ps = pieces(name)
    parts = draw(st.lists(st.one_of(st.sampled_from(ps), st.sampled_from([b"a" * 40, b"Hello, ", b"\n"])),
                          min_size=50, max_size=400))
    for _ in range(draw(st.integers(0, 6))):
        parts.insert(draw(st.integers(0, len(parts))), draw(byte_strings(name, max_pieces=3)))
    return b"".join(parts)


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_backends_agree_on_long_inputs_under_every_handler(name, data):
    agree(name, data.draw(long_mixed(name), label="bytes"))


# the extension's own paths: (spec, bytes) built to reach each of them
UTF8_CASES = {
    "ascii only (copied)": b"plain ascii " * 9000,
    "ascii then one emoji (the kind widened at the end)": b"x" * 100_000 + "\U0001F600".encode(),
    "a 4-byte lead that comes to nothing (narrowed)": b"a" * 5000 + b"\xf0" + b"b" * 5000,
    "a 3-byte lead that comes to nothing": b"a" * 5000 + b"\xe4\xb8" + b"b" * 5000,
    "stray continuation bytes (the string grown)": b"\x80" * 70_000 + b"ok",
    "latin-1 range only": "caf\u00e9 \u00ff".encode() * 20_000,
    "errors everywhere": bytes(range(256)) * 300,
    "a sequence cut at the end": "\u4e2d".encode() * 30_000 + b"\xe4\xb8",
    "surrogates (ill-formed in utf-8)": b"a\xed\xa0\x80b" * 20_000,
    "empty": b"",
    # a 4-byte-a-character str only where 4-byte leads are at least 1 in 64 characters
    "stray 4-byte leads in ascii (2 bytes a character, not 4)": b"".join(
        b"a" * 97 + bytes([0xF0 + k % 5]) + b"b" * 30 for k in range(800)),
    "stray 4-byte leads at every offset around 64-byte block edges": b"".join(
        b"q" * k + bytes([lead]) + b"r" * (200 - k) for k in range(56, 72) for lead in (0xF0, 0xF4)),
    "a few emoji among damaged ascii (widened from 2 bytes)": (b"ab\xf3cd" + b"z" * 500) * 40
    + "\U0001F600".encode() + b"\xff" + b"y" * 3000 + "\U0010FFFF".encode(),
    "emoji just under the share of 1 in 64": ("x" * 64 + "\U0001F600").encode() * 2000,
    "emoji just over the share of 1 in 64": ("x" * 62 + "\U0001F600").encode() * 2000,
}


@pytest.mark.parametrize("case", sorted(UTF8_CASES))
@pytest.mark.parametrize("name", ["utf-8", "corrected-utf-8", "wtf-8", "cesu-8", "utf-inf-8", "utf-8-bom",
                                  "utf-8-rfc2279", "utf-8-optu8-strict"])
def test_backends_agree_on_the_extension_paths(name, case):
    agree(name, UTF8_CASES[case])


@pytest.mark.parametrize("case", sorted(UTF8_CASES))
def test_native_utf8_equals_cpython_on_the_extension_paths(case):
    """The str's width decided from the leads (stray 4-byte leads: 2 bytes a character,
    widened when an emoji comes) gives CPython's text, in its canonical kind."""
    nat, data = encspec.load("utf-8", backend="native"), UTF8_CASES[case]
    for errors in ("replace", "surrogateescape", "ignore"):
        got, want = nat.decode(data, errors), data.decode("utf-8", errors)
        assert got == want and max(map(ord, got), default=0) == max(map(ord, want), default=0)
        assert sys.getsizeof(got) == sys.getsizeof(want), errors


@pytest.mark.parametrize("name", SPECS)
def test_backends_agree_incrementally_on_a_long_input(name):
    data = b"".join(pieces(name)) * 20 + b"\xff\xc0\x80" + b"".join(pieces(name))
    for errors in ("replace", "strict", "surrogateescape"):
        got = {}
        for backend in ("python", "native"):
            got[backend] = decode_in_chunks(encspec.load(name, backend=backend), data, errors, 777)
        assert got["python"] == got["native"], errors


def test_backends_agree_on_dense_problems_under_every_handler():
    """A problem every few bytes: after each one the extension gets a bounded window
    (the windowed path), and must still give exactly the core's results."""
    for name in ("utf-8", "wtf-8", "corrected-utf-8"):
        agree(name, (b"x" * 97 + b"\xff") * 600 + (b"ab\xc3\xa9\xe4\xb8" * 50 + b"\xed\xa0\x80") * 40)


def test_dense_problems_under_a_custom_handler_cost_linear_time():
    """16 times the input (and the problems) take about 16 times as long, not 256."""
    m = encspec.load("utf-8", backend="native")
    assert_linear("utf-8 [native], a problem in every 64 bytes, a custom handler",
                  lambda data: m.decode(data, "test_native.record"),
                  (b"x" * 63 + b"\xff") * 1024, (b"x" * 63 + b"\xff") * 16384, bound=40)


@pytest.mark.parametrize("name", ["wtf-8", "cesu-8", "mutf-8"])
def test_backends_agree_with_surrogates_as_errors(name):
    """surrogates=False (UTF-8 text): the extension's text holds surrogates, so the
    module decodes that stretch itself; the result must be the Python backend's."""
    data = (b"A" * 50 + b"\xed\xa0\x80" + b"B\xed\xb0\x80\xc0\x80" + b"\xff") * 30
    py, nat = encspec.load(name, backend="python"), encspec.load(name, backend="native")
    for errors in HANDLERS:
        assert outcome(lambda d, e: nat.decode(d, e, surrogates=False), data, errors) == \
            outcome(lambda d, e: py.decode(d, e, surrogates=False), data, errors), errors


def test_a_handler_registered_over_a_standard_name_is_used_by_both_backends():
    """The extension applies replace & co. itself only while they are CPython's own."""
    original = codecs.lookup_error("replace")
    codecs.register_error("replace", lambda exc: ("#", exc.end))
    try:
        for backend in ("python", "native"):
            assert encspec.load("utf-8", backend=backend).decode(b"a\xffb" * 3, "replace") == "a#b" * 3
    finally:
        codecs.register_error("replace", original)
    assert encspec.load("utf-8", backend="native").decode(b"a\xff", "replace") == "a\ufffd"


def test_the_result_is_a_canonical_str():
    """The extension writes the str itself: its kind must be the narrowest, as CPython's
    own strings are (else equal strings compare unequal)."""
    m = encspec.load("utf-8", backend="native")
    for text in ["abc", "caf\u00e9", "\u4e2d\u6587", "\U0001F600", "a" * 70_000 + "\u00e9"]:
        got = m.decode(text.encode())
        assert got == text and got.isascii() == text.isascii()
        assert sys.getsizeof(got) == sys.getsizeof(text)
    got = m.decode(b"a" * 70_000 + b"\xf0", "ignore")
    assert got == "a" * 70_000 and got.isascii() and sys.getsizeof(got) == sys.getsizeof("a" * 70_000)


def test_decoding_in_threads_gives_the_same_text():
    """Long inputs decode without the GIL."""
    m = encspec.load("utf-8", backend="native")
    data = ("\u4e2d\u6587 text \U0001F600 " * 40_000).encode() + b"\xff"
    want = data.decode("utf-8", "replace")
    results = []
    threads = [threading.Thread(target=lambda: results.append(m.decode(data, "replace"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


@pytest.mark.parametrize("text", ["ascii words " * 100_000, "\u4e2d\u6587\u5b57 " * 100_000,
                                  "caf\u00e9 na\u00efve " * 100_000, "\U0001F600 hi " * 100_000])
def test_peak_memory_is_at_most_twice_the_result(text):
    m = encspec.load("utf-8", backend="native")
    data = text.encode()
    tracemalloc.start()
    try:
        got = m.decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == text
    assert peak <= 2 * sys.getsizeof(got)


# ============================================================ a user's spec
@pytest.fixture
def cache(tmp_path, monkeypatch):
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home / "encspec" / "native"


@pytest.fixture
def user_spec(tmp_path):
    spec = tmp_path / "mine.encspec"
    spec.write_text((ROOT / "specs" / "corrected-utf-8.encspec").read_text("utf-8")
                    .replace("encoding corrected-utf-8", "encoding my-cutf8"), "utf-8")
    return spec


def run_encspec(*args, env=None):
    code = "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


def test_build_native_compiles_a_users_spec_into_the_cache_once(user_spec, cache):
    r = run_encspec("build", "--native", str(user_spec))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("built ") and r.stderr == ""
    path = Path(r.stdout.split(" ", 1)[1].strip())
    assert path.parent.parent == cache and path.name.startswith("_native_my_cutf8.")
    stamp = path.stat().st_mtime_ns
    again = run_encspec("build", "--native", str(user_spec))
    assert again.returncode == 0 and again.stdout == f"cached {path}\n"
    assert path.stat().st_mtime_ns == stamp
    assert [p.name for p in cache.iterdir()] == [path.parent.name]  # nothing half-built left behind

    m = encspec.load(str(user_spec), backend="native")
    assert m._NATIVE is not None and Path(m._NATIVE.__file__) == path
    assert m._NATIVE_ENCODE  # the hook was in place when the core chose its encoder
    py = encspec.load(str(user_spec), backend="python")
    assert py._NATIVE is None and not py._NATIVE_ENCODE
    text = "a\u00e9\u4e2d\U0001F600" * 40
    assert m.encode(text) == py.encode(text)
    data = b"".join(pieces("corrected-utf-8")) * 50 + b"\xfe\x80\xc0\xaf\xff"
    for errors in HANDLERS:
        assert outcome(m.decode, data, errors) == outcome(py.decode, data, errors)
    assert m.decode(data, "replace") == oracle_text("corrected-utf-8", data)
    # "auto" finds what the build put in the cache
    assert encspec.load(str(user_spec))._NATIVE is not None


def oracle_text(name, data):
    out = []
    for kind, _, _, value in oracle(name).tokens(data):
        if kind == "char":
            out.append(chr(value) if value <= 0x10FFFF else "\ufffd")
        elif kind != "signature":
            out.append("\ufffd")
    return "".join(out)


@pytest.mark.slow  # compiles a C extension: ENCSPEC_SLOW=1 (CI) runs it; the test above compiles one by default
def test_load_native_builds_on_demand(user_spec, cache):
    m = encspec.load(str(user_spec), backend="native")
    assert m._NATIVE is not None and Path(m._NATIVE.__file__).parent.parent == cache
    assert m.decode(m.encode("\u4e2d\U0001F600")) == "\u4e2d\U0001F600"


def test_without_a_compiler_the_python_path_still_decodes(user_spec, cache, monkeypatch):
    r = run_encspec("build", "--native", str(user_spec), env={"CC": "false"})
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("encspec: error: my-cutf8: the C compiler failed") and r.stderr.count("\n") == 1
    r = run_encspec("build", "--native", str(user_spec), env={"CC": "no-such-compiler-here"})
    assert r.returncode == 1 and "cannot run the C compiler 'no-such-compiler-here'" in r.stderr
    assert not cache.exists() or not any(p.name.startswith("_native") for p in cache.rglob("*"))

    monkeypatch.setenv("CC", "false")
    with pytest.raises(native_build.NativeBuildError, match="the C compiler failed"):
        encspec.load(str(user_spec), backend="native")
    m = encspec.load(str(user_spec))  # auto: nothing in the cache, pure Python
    assert m._NATIVE is None
    assert m.decode(b"\xc0\xaf/\xfe\x80", "replace") == "\u00cf/\ufffd"


def test_a_builtin_without_its_extension_decodes_in_python(tmp_path):
    """As on a machine where pip had no compiler: the import of the extension fails."""
    code = (
        "import sys; sys.modules['encspec.generated._native_utf_8'] = None\n"  # makes the import fail
        "import encspec\n"
        "m = encspec.load('utf-8')\n"
        "assert m._NATIVE is None\n"
        "print(m.decode(b'caf\\xc3\\xa9 \\xff', 'replace'))\n"
        "from encspec.emit.native.build import NativeBuildError\n"
        "try:\n"
        "    encspec.load('utf-8', backend='native')\n"
        "except NativeBuildError as e:\n"
        "    print('no native:', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "CC": "false", "XDG_CACHE_HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "caf\u00e9 \ufffd"
    assert lines[1].startswith("no native: utf-8: the C compiler failed")


def test_a_generated_module_copied_alone_decodes(tmp_path):
    shutil.copy(ROOT / "generated" / "utf_8.py", tmp_path / "utf_8.py")
    code = "import utf_8; assert utf_8._NATIVE is None; print(utf_8.decode(b'\\xe4\\xb8\\xad\\xff', 'replace'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert r.stdout == "\u4e2d\ufffd\n"
