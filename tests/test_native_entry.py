"""The native entry points (native/templates/entry.c.j2, the core's ``_NATIVE.entry``):
the codec's decode and encode (what ``bytes.decode`` and ``str.encode`` call) and the
module's own are the extension's builtin functions, which finish a call in C where it
needs nothing of the core and pass any other on to the Python function.

So they must be taken (the callables are builtins of the extension, not Python
functions) and must answer exactly as the core does: the same str or bytes, the
same UnicodeDecodeError or UnicodeEncodeError (start, end, reason), the same calls
to a custom handler, with strict, replace, ignore, surrogateescape and
backslashreplace, signatures (byte order marks) read and written, odd inputs
(bytearray, memoryview, an int, a list) and keyword calls.  The reference is the
same spec's pure-Python module, which has no extension and so no entry points.

A missing extension skips (a failure under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import array
import codecs
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import load_backend
from conftest import examples, extension_builtins, unicode_outcome

# the CPython counterparts of the small-call goal, and specs of other shapes
# (a signature that writes itself, counted forms, surrogates as text)
SPECS = ["utf-8", "utf-16", "utf-32", "utf-16be", "big5", "euc-kr", "gb18030", "shift_jis",
         "utf-8-bom", "corrected-utf-8", "leb128", "cesu-8"]
HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace"]


def both(name: str):
    """(native module, pure-Python module) of a built-in spec."""
    return load_backend(name, "native"), encspec.load(name, backend="python")


def recorder(calls: list):
    """A custom handler that records what it is given and replaces with "<?>"."""
    def handle(e):
        calls.append((type(e).__name__, e.start, e.end, e.reason))
        return ("<?>" if isinstance(e, UnicodeDecodeError) else "?"), e.end
    return handle


@pytest.mark.parametrize("name", extension_builtins())
def test_the_codec_and_module_calls_are_the_extensions_builtins(name):
    native, python = both(name)
    ext = native.native()
    info = native.getregentry()
    callables = [native.decode, native.encode, info.decode, info.encode]
    if native.SIGNATURE:
        callables += [native.getregentry(signature=True).encode]
    if native.__dict__.get("_FROM_REAL") is not None:  # bytes through a permutation: the core's
        assert all(isinstance(f, types.MethodType | types.FunctionType) for f in callables)
        return
    for f in callables:
        assert type(f) is types.BuiltinFunctionType and f.__module__ == ext.__name__, (name, f)
    # the pure-Python module keeps its Python functions
    assert isinstance(python.decode, types.FunctionType)
    assert isinstance(python.getregentry().decode, types.MethodType)


def texts(name: str):
    """Bytes to decode: random ones, and the spec's own bytes of random text (with a
    signature at times), so that both errors and long valid runs come."""
    python = encspec.load(name, backend="python")
    valid = st.builds(lambda t, sig: (python.SIGNATURE if sig else b"") + python.encode(t, "replace"),
                      st.text(max_size=40), st.booleans())
    return st.one_of(st.binary(max_size=40), valid, st.builds(lambda a, b: a + b, valid, st.binary(max_size=3)))


@pytest.mark.parametrize("name", SPECS)
def test_the_codec_decodes_as_the_core(name):
    native, python = both(name)
    info, ref = native.getregentry(), python.getregentry()

    @settings(max_examples=examples(200), deadline=None)
    @given(texts(name))
    def check(data):
        for errors in HANDLERS:
            assert unicode_outcome(info.decode, data, errors) == unicode_outcome(ref.decode, data, errors), errors
            assert unicode_outcome(native.decode, data, errors) == unicode_outcome(python.decode, data, errors)
        assert unicode_outcome(info.decode, memoryview(data)) == unicode_outcome(ref.decode, data)
        assert unicode_outcome(native.decode, data, "strict", False) == \
            unicode_outcome(python.decode, data, "strict", False)
        got: list = []
        want: list = []
        codecs.register_error("test_native_entry.record", recorder(got))
        codecs.register_error("test_native_entry.record_ref", recorder(want))
        a = unicode_outcome(info.decode, data, "test_native_entry.record")
        b = unicode_outcome(ref.decode, data, "test_native_entry.record_ref")
        assert (a, got) == (b, want)
    check()


@pytest.mark.parametrize("name", SPECS)
def test_the_codec_encodes_as_the_core(name):
    native, python = both(name)
    info, ref = native.getregentry(), python.getregentry()

    @settings(max_examples=examples(200), deadline=None)
    @given(st.text(max_size=40))
    def check(text):
        for errors in HANDLERS + ["xmlcharrefreplace"]:
            assert unicode_outcome(info.encode, text, errors) == unicode_outcome(ref.encode, text, errors), errors
        for signature in (None, True, False):
            assert unicode_outcome(native.encode, text, "replace", signature) == \
                unicode_outcome(python.encode, text, "replace", signature)
        if native.SIGNATURE:
            signed, signed_ref = native.getregentry(signature=True), python.getregentry(signature=True)
            assert unicode_outcome(signed.encode, text) == unicode_outcome(signed_ref.encode, text)
    check()


@pytest.mark.parametrize("name", ["utf-8", "big5", "utf-16"])
def test_calls_the_fast_path_does_not_read_answer_as_the_core(name):
    native, python = both(name)
    info, ref = native.getregentry(), python.getregentry()
    data = python.encode("añ字\U0001f600", "replace") + b"\xff"
    for call in (lambda i: i.decode(input=data), lambda i: i.decode(data, errors="replace"),
                 lambda i: i.decode(bytearray(data), "ignore"), lambda i: i.decode(3),
                 lambda i: i.decode([65, 66]), lambda i: i.decode(array.array("H", [0x4142])),
                 lambda i: i.decode("text"), lambda i: i.decode(data, "replace", "extra"),
                 lambda i: i.encode(input="añ"), lambda i: i.encode([0x41, 0x42]), lambda i: i.encode(b"x"),
                 lambda i: i.encode("a\udc80", errors="surrogateescape")):
        assert unicode_outcome_or_type(call, info) == unicode_outcome_or_type(call, ref)
    for call in (lambda m: m.decode(data, surrogates=0), lambda m: m.decode(data=data),
                 lambda m: m.decode(data, "replace", surrogates=False), lambda m: m.encode("añ", signature=1),
                 lambda m: m.encode([0x61, 0xF1]), lambda m: m.encode("añ", errors="strict", signature=True)):
        assert unicode_outcome_or_type(call, native) == unicode_outcome_or_type(call, python)


def unicode_outcome_or_type(call, target):
    """What *call(target)* returns, or the Unicode error's outcome, or another exception's type."""
    try:
        return unicode_outcome(call, target)
    except (TypeError, ValueError) as e:
        return type(e).__name__


def test_a_standard_handler_registered_over_is_called():
    """The extension applies replace itself only while "replace" is the standard handler."""
    native = load_backend("utf-8", "native")
    info = native.getregentry()
    data = b"a\xffb"
    assert info.decode(data, "replace") == ("a\ufffdb", 3)
    calls: list = []
    codecs.register_error("replace", recorder(calls))
    try:
        assert info.decode(data, "replace") == ("a<?>b", 3)
        assert native.decode(data, "replace") == "a<?>b"
    finally:
        codecs.register_error("replace", codecs.replace_errors)
    assert calls == [("UnicodeDecodeError", 1, 2, "invalid start byte")] * 2
    assert info.decode(data, "replace") == ("a\ufffdb", 3)


def test_a_strict_error_has_the_cores_position_and_reason():
    info = load_backend("utf-8", "native").getregentry()
    with pytest.raises(UnicodeDecodeError) as e:
        info.decode(b"abc\xe2\x82def")
    assert (e.value.start, e.value.end, e.value.reason) == (3, 5, "invalid continuation byte")
    assert e.value.object == b"abc\xe2\x82def"
