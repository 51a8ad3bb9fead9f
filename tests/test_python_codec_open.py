"""Issue 34: nothing is lost through open().

Every codec name of every built-in spec (its -sig variant, utf-8-optu8 and
corrected-utf-8-pua too), on both backends, written through ``open()``, a
``TextIOWrapper`` over ``BytesIO``, ``codecs.open`` and a ``StreamWriter``, piece
by piece, then closed and read back: the bytes are those of one-shot encoding
and the text read is what one-shot decoding of them gives.  None of those
wrappers ever passes ``final=True`` to the encoder or flushes it, so this holds
only because no encoder holds anything back.

The expected bytes are the codec's own one-shot ``encode`` (whose agreement with
the oracles is tested in test_incremental.py, test_agreement.py and
test_seed_codecs.py): what is tested here is that the wrappers lose nothing of it.
"""
from __future__ import annotations

import codecs
import io
import itertools
import os

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import (
    BACKENDS,
    COMMON_CPS,
    SURROGATE_TEXT_CHARS,
    load_backend,
    unsplit_pairs,
)
from conftest import decodable_builtins, examples, has_modes, has_sequences, native_builtin

encspec.register()  # the encspec.* handlers, and utf-8-optu8 looks its own up by name


def _codec_names() -> list[tuple[str, str]]:
    """(codec name, the built-in spec behind it) for every codec encspec registers."""
    out = []
    for spec in decodable_builtins():
        out.append((spec, spec))
        if spec not in ("utf-8-bom", "utf-8-optu8-strict") and load_backend(spec, "python").SIGNATURE:
            out.append((spec + "-sig", spec))
    return out + [("utf-8-optu8", "utf-8"), ("corrected-utf-8-pua", "corrected-utf-8")]


CODECS = _codec_names()
MODAL = {c for c, spec in CODECS if has_modes(spec)}
# open() and codecs.open never finish their encoder: a character that may start a sequence
# of code points (JIS X 0213's U+00E6 before U+0300) is held back at a text's end, and lost
# there with a RuntimeWarning (docs: "Nothing held back"), so those texts end in a newline;
# so are a run of digits' last bits (utf-7: the newline ends the run)
HOLDING = {c for c, spec in CODECS if has_sequences(spec) or spec == "utf-7"}
_TEST_NAMES: dict[str, codecs.CodecInfo] = {}


def _search(name: str):
    return _TEST_NAMES.get(name)


codecs.register(_search)


def open_name(codec: str, backend: str) -> str:
    """A codec name of this test's own for *codec* on *backend* (open() takes names, and
    CPython's own utf-8, utf-16, big5 ... would answer to the plain ones)."""
    key = f"encspec_open_test_{backend}_{CODECS.index(next(c for c in CODECS if c[0] == codec))}"
    if key not in _TEST_NAMES:
        _TEST_NAMES[key] = encspec.codec_info(codec, backend=backend)
    return key


# ------------------------------------------------------------------ the paths
def through_open(name, pieces, tmp):
    path = os.path.join(tmp, "open.txt")
    with open(path, "w", encoding=name, newline="") as f:
        f.writelines(pieces)  # one write() per piece
    with open(path, encoding=name, newline="") as f:
        text = f.read()
    with open(path, "rb") as f:
        return f.read(), text


def through_text_io_wrapper(name, pieces, tmp):
    sink = io.BytesIO()
    t = io.TextIOWrapper(sink, encoding=name, newline="")
    for p in pieces:
        t.write(p)
    t.flush()
    data = sink.getvalue()
    t.close()
    return data, io.TextIOWrapper(io.BytesIO(data), encoding=name, newline="").read()


def through_codecs_open(name, pieces, tmp):
    path = os.path.join(tmp, "codecs_open.txt")
    with codecs.open(path, "w", encoding=name) as f:
        for p in pieces:
            f.write(p)
    with codecs.open(path, "r", encoding=name) as f:
        text = f.read()
    with open(path, "rb") as f:
        return f.read(), text


def through_stream_writer(name, pieces, tmp):
    sink = io.BytesIO()
    w = codecs.getwriter(name)(sink)
    for p in pieces:
        w.write(p)
    data = sink.getvalue()
    w.close()
    return data, codecs.getreader(name)(io.BytesIO(data)).read()


PATHS = [through_open, through_text_io_wrapper, through_codecs_open, through_stream_writer]


def check_written(codec, backend, pieces, tmp):
    """Every path writes the pieces as one-shot encoding writes their text, and reads back
    what one-shot decoding gives."""
    name = open_name(codec, backend)
    info = codecs.lookup(name)
    text = "".join(pieces)
    want = info.encode(text)[0]
    back = info.decode(want)[0]
    for path in PATHS:
        got = path(name, pieces, tmp)
        if codec in MODAL and got != (want, back):
            # a spec with modes: open() and codecs.open never finish their encoder, so the
            # shift back to the first mode that ends encode()'s bytes may be missing, as
            # with CPython's ISO-2022 and HZ codecs; every character is there
            assert want.startswith(got[0]) and got[1] == back, f"{codec} ({backend}) {path.__name__} {pieces!r}"
            continue
        assert got == (want, back), f"{codec} ({backend}) {path.__name__} {pieces!r}"
    return want


# ------------------------------------------------------- every held state
# What an encoder that held input would keep at the end of a text: a lead
# surrogate (WTF-8 pairs it with a trail), a run of OPTU-8 escapes (judged
# whole), the signature before anything is written, and nothing at all.
HELD_ENDINGS = {
    "wtf-8": ["A\ud800", "\udbff", "\ud83d\ude00\ud83d", "a\ud800b\udbff", "\udc00\ud800"],
    "utf-8-optu8-strict": ["a\uefc3", "\uefe2\uef82", "x\uefff", "\uef80\uefc3"],
    "utf-8-optu8": ["a\uefc3", "\uefe2\uef82"],
    "wtf-16": ["A\ud800", "\udbff"],
}


def held_cases():
    for codec, _spec in CODECS:
        for text in HELD_ENDINGS.get(codec, []) + ["", "A", "AB\n"]:
            yield codec, text


@pytest.mark.parametrize("codec, text, backend", [(c, t, b) for c, t in held_cases() for b in BACKENDS
                                                  if b != "native" or native_builtin(dict(CODECS)[c])])
def test_a_text_ending_in_a_held_state_reaches_the_file(codec, text, backend, tmp_path):
    load_backend(dict(CODECS)[codec], backend)  # the native backend's extension, or a skip naming it
    want = check_written(codec, backend, [text], str(tmp_path))
    if text and codec in HELD_ENDINGS:
        assert len(want) > len(codecs.lookup(open_name(codec, backend)).encode(text[:-1])[0])
        for k in range(len(text) + 1):  # written in two pieces, cut anywhere that splits no pair
            pieces = unsplit_pairs([text[:k], text[k:]])
            check_written(codec, backend, pieces, str(tmp_path))


def test_wtf_8_issue_reproduction_through_open(tmp_path):
    """The issue's case: f.write("A\\ud800") wrote 41; it writes 41 ED A0 80."""
    path = tmp_path / "f.txt"
    for errors in ("strict", "surrogatepass"):
        with open(path, "w", encoding="wtf-8", errors=errors) as f:
            f.write("A\ud800")
        assert path.read_bytes() == bytes.fromhex("41 ED A0 80") == "A\ud800".encode("wtf-8")
        with codecs.open(str(path), "w", encoding="wtf-8", errors=errors) as f:
            f.write("A\ud800")
        assert path.read_bytes() == bytes.fromhex("41 ED A0 80")


def test_a_pair_split_across_writes_is_an_error_never_a_pair_byte_sequence(tmp_path):
    """The lead's bytes are out when the trail comes: joining is no longer possible,
    and ED A0 BD ED B8 80 is what the decoder rejects, so the trail is refused."""
    path = tmp_path / "f.txt"
    with open(path, "w", encoding="wtf-8") as f:
        f.write("a\ud83d")
        with pytest.raises(UnicodeEncodeError) as e:
            f.write("\ude00")
    assert "can no longer be joined" in e.value.reason
    assert path.read_bytes() == b"a\xed\xa0\xbd"
    with open(path, "w", encoding="wtf-8", errors="replace") as f:
        f.write("a\ud83d")
        f.write("\ude00b")
    assert path.read_bytes() == b"a\xed\xa0\xbd?b"
    assert codecs.decode(path.read_bytes(), "wtf-8") == "a\ud83d?b"


# -------------------------------------------------------------- any text
CANDIDATES = [chr(c) for c in COMMON_CPS if c <= 0x10FFFF] + list(
    "A\n\r\u00e9\u00c0\u0410\u03b1\u3042\u30a2\u4e00\u9fa5\uac00\u20ac\u00a5\u203e\uff5e\u2225\ufffd"
    "\U00020000\U0001f600\uef80\uefc3\uefa9\uefff\u0085")


@pytest.mark.parametrize("codec, backend", [(c, b) for c, spec in CODECS for b in BACKENDS
                                            if b != "native" or native_builtin(spec)])
@settings(max_examples=examples(12), deadline=None)
@given(data=st.data())
def test_open_round_trips_every_text_encode_accepts(codec, backend, data):
    """Any text the codec's one-shot encode accepts, cut into pieces anywhere that
    splits no surrogate pair, comes back through every path; its bytes are
    one-shot encoding's."""
    import tempfile
    load_backend(dict(CODECS)[codec], backend)
    info = codecs.lookup(open_name(codec, backend))
    chars = data.draw(st.lists(st.one_of(SURROGATE_TEXT_CHARS, st.sampled_from(CANDIDATES)), max_size=12),
                      label="chars")
    text = "".join(ch for ch in chars if _encodes(info, ch)) + ("\n" if codec in HOLDING else "")
    try:
        info.encode(text)
    except UnicodeEncodeError:
        assume(False)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=4), label="cuts"))
    bounds = [0] + cuts + [len(text)]
    pieces = unsplit_pairs([text[a:b] for a, b in itertools.pairwise(bounds)])
    with tempfile.TemporaryDirectory() as tmp:
        check_written(codec, backend, pieces, tmp)


def _encodes(info, ch) -> bool:
    try:
        info.encode(ch)
    except UnicodeEncodeError:
        return False
    return True
