"""Issue 13, "One semantics, written once": every way of running a codec gives the
same result.

For every built-in spec, on both backends, under every standard and encspec
error handler, on random inputs cut at random offsets:

* decoding: one-shot ``decode``, the codec's ``decode``, the IncrementalDecoder
  fed the pieces (then ``final=True``), and the StreamReader (``read()`` over the
  whole stream, and ``read(n)`` piece by piece then ``read()``) give the same
  text, or raise the same exception at the same absolute byte positions with the
  same reason;
* encoding (text with lone surrogates): one-shot ``encode``, the codec's
  ``encode``, the IncrementalEncoder fed the pieces (``final=True`` at the end, or
  not at all: it holds nothing back) and the StreamWriter writing the pieces give
  the same bytes, or raise at the same absolute position
  with the same reason (the *end* of an encode error is the end of the run of
  unencodable characters the encoder was handed, so a cut may shorten it, as in
  CPython's own incremental encoders).  Where encoders join surrogate pairs
  (WTF-8), no cut separates a lead from its trail: that one case is an error
  (test_python_codec_open.py), since the lead's bytes are out before the trail
  comes.

No path is the oracle: each is compared with the one-shot call, so the per-byte
policies may replace one byte or more, as long as every path does the same.

An exception raised inside an incremental or stream path carries the input that
path was working on (what it had been handed so far, less what it had already
finished with); its positions are made absolute by placing that object so it
ends at the last byte (character) handed over.  The per-backend classes come
from the loaded module's own ``getregentry()``, since the codecs registry
resolves a name to one backend; ``test_registered_codecs_agree`` checks that
route too.
"""
from __future__ import annotations

import codecs
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, SIGNATURES, SPECS, byte_strings, load_backend, texts_with_surrogates, unsplit_pairs
from conftest import examples

encspec.register()  # the encspec.* handlers

DECODE_HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace",
                   "encspec.latin1", "encspec.cp1252", "encspec.optu8", "encspec.replace_per_byte"]
ENCODE_HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace",
                   "xmlcharrefreplace"]


# ------------------------------------------------------------------ helpers
@st.composite
def cut(draw, whole):
    """*whole* cut at random offsets (empty pieces included): a non-empty list of pieces."""
    offsets = sorted(draw(st.lists(st.integers(0, len(whole)), max_size=6), label="cuts"))
    bounds = [0] + offsets + [len(whole)]
    return [whole[a:b] for a, b in zip(bounds, bounds[1:])]


def outcome(whole, path, with_end=True):
    """("ok", result) or ("raised", type, absolute start, [absolute end,] reason).

    *path* gets a dict and keeps in it ``fed``, how much of *whole* it has handed
    to the codec so far, or ``stream``, whose tell() says so."""
    progress = {"fed": 0}
    try:
        return ("ok", path(progress))
    except Exception as e:  # noqa: BLE001 - every exception is part of the outcome
        fed = progress["stream"].tell() if "stream" in progress else progress["fed"]
        if not isinstance(e, (UnicodeDecodeError, UnicodeEncodeError)):
            return ("raised", type(e).__name__, str(e))
        base = fed - len(e.object)
        if base < 0 or whole[base:fed] != e.object:
            return ("raised", type(e).__name__, "object is not the input handed over so far",
                    e.object, whole[:fed])
        where = (base + e.start, base + e.end) if with_end else (base + e.start,)
        return ("raised", type(e).__name__, *where, e.reason)


def check_all_agree(results, context):
    want = results["one-shot"]
    for path, got in results.items():
        assert got == want, f"{context}: {path} gives {got!r}, one-shot gives {want!r}"


# ------------------------------------------------------------------ decoding
def decode_outcomes(mod, whole, pieces, errors, last_final):
    info = mod.getregentry()

    def one_shot(p):
        p["fed"] = len(whole)
        return mod.decode(whole, errors)

    def codec_decode(p):
        p["fed"] = len(whole)
        text, consumed = info.decode(whole, errors)
        assert consumed == len(whole)
        return text

    def incremental(p):
        dec = info.incrementaldecoder(errors)
        out = []
        for k, piece in enumerate(pieces):
            p["fed"] += len(piece)
            out.append(dec.decode(piece, final=last_final and k == len(pieces) - 1))
        if not last_final:
            out.append(dec.decode(b"", final=True))
        return "".join(out)

    def reader(p):
        p["stream"] = stream = io.BytesIO(whole)
        return info.streamreader(stream, errors).read()

    def reader_in_pieces(p):
        p["stream"] = stream = io.BytesIO(whole)
        r = info.streamreader(stream, errors)
        return "".join([r.read(len(piece)) for piece in pieces] + [r.read()])

    paths = {"one-shot": one_shot, "getregentry().decode": codec_decode,
             "IncrementalDecoder": incremental, "StreamReader.read()": reader,
             "StreamReader.read(n) per piece": reader_in_pieces}
    return {name: outcome(whole, path) for name, path in paths.items()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_one_shot_incremental_and_stream_decoding_agree(name, backend, data):
    mod = load_backend(name, backend)
    whole = data.draw(byte_strings(name), label="bytes")
    pieces = data.draw(cut(whole), label="pieces")
    last_final = data.draw(st.booleans(), label="final with the last piece")
    for errors in DECODE_HANDLERS:
        check_all_agree(decode_outcomes(mod, whole, pieces, errors, last_final),
                        f"{name} ({backend}) errors={errors!r} pieces={pieces!r}")


# the reproductions of paths disagreeing, as inputs every path must agree on
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, whole, cuts", [
    ("wtf-8", bytes.fromhex("41 ED A0 80"), [2]),           # defect 3: a held-back lead surrogate
    ("mutf-8", bytes.fromhex("41 ED A9 8A"), [1]),          # defect 3
    ("wtf-8", bytes.fromhex("ED A0 BD ED B8 80"), [3]),     # a pair byte sequence cut between halves
    ("utf-8", bytes.fromhex("41 E4 B8"), [2]),              # cut short at the end of the stream
    ("corrected-utf-8", bytes.fromhex("EF B7 9D ED B2 AE 00"), [3]),  # most of the magic number
    ("fss-utf-1992", bytes.fromhex("E0 80 90"), [1]),       # defect 5's input
    ("utf-1", bytes.fromhex("F6 2F"), [1]),                 # defect 5's input (optu8 raises: 2F < 80)
])
def test_decoding_paths_agree_on_known_inputs(name, whole, cuts, backend):
    mod = load_backend(name, backend)
    bounds = [0] + cuts + [len(whole)]
    pieces = [whole[a:b] for a, b in zip(bounds, bounds[1:])]
    for errors in DECODE_HANDLERS:
        for last_final in (False, True):
            check_all_agree(decode_outcomes(mod, whole, pieces, errors, last_final),
                            f"{name} ({backend}) errors={errors!r} pieces={pieces!r}")


# ------------------------------------------------------------------ encoding
def encode_outcomes(mod, whole, pieces, errors, last_final, signature):
    info = mod.getregentry(signature=True) if signature else mod.getregentry()

    def one_shot(p):
        p["fed"] = len(whole)
        return mod.encode(whole, errors, signature=signature)

    def codec_encode(p):
        p["fed"] = len(whole)
        data, consumed = info.encode(whole, errors)
        assert consumed == len(whole)
        return data

    def incremental(p):
        enc = info.incrementalencoder(errors)
        out = []
        for k, piece in enumerate(pieces):
            p["fed"] += len(piece)
            out.append(enc.encode(piece, final=last_final and k == len(pieces) - 1))
        return b"".join(out)   # never final: nothing is held back

    def writer(p):
        sink = io.BytesIO()
        w = info.streamwriter(sink, errors)
        for piece in pieces:
            p["fed"] += len(piece)
            w.write(piece)
        return sink.getvalue()

    paths = {"one-shot": one_shot, "getregentry().encode": codec_encode,
             "IncrementalEncoder": incremental, "StreamWriter": writer}
    return {name: outcome(whole, path, with_end=False) for name, path in paths.items()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_one_shot_incremental_and_stream_encoding_agree(name, backend, data):
    mod = load_backend(name, backend)
    whole = data.draw(texts_with_surrogates, label="text")
    pieces = data.draw(cut(whole), label="pieces")
    if mod.PAIR_ON_ENCODE:
        pieces = unsplit_pairs(pieces)
    last_final = data.draw(st.booleans(), label="final with the last piece")
    for signature in ([False, True] if name in SIGNATURES else [False]):
        for errors in ENCODE_HANDLERS:
            check_all_agree(encode_outcomes(mod, whole, pieces, errors, last_final, signature),
                            f"{name} ({backend}) errors={errors!r} signature={signature} pieces={pieces!r}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, whole, cuts", [
    ("wtf-8", "a\ud83d", [2]),               # a lead surrogate that ends the text
    ("wtf-8", "\ud83d\ud83d\ude00", [1]),     # two leads, the second pairs
    ("cesu-8", "\ud83d\ude00", [1]),
    ("mutf-8", "\ud83d\ude00", [1]),
    ("utf-8", "a\ud83d\ude00b", [2]),         # unencodable in utf-8, run cut in two
    ("utf-8-bom", "\ufeffa", [0, 1]),
])
def test_encoding_paths_agree_on_known_inputs(name, whole, cuts, backend):
    mod = load_backend(name, backend)
    bounds = [0] + cuts + [len(whole)]
    pieces = [whole[a:b] for a, b in zip(bounds, bounds[1:])]
    for errors in ENCODE_HANDLERS:
        for last_final in (False, True):
            check_all_agree(encode_outcomes(mod, whole, pieces, errors, last_final, False),
                            f"{name} ({backend}) errors={errors!r} pieces={pieces!r}")


# ------------------------------------------------------------ the codecs route
# "utf-8" and "utf-8-sig" in the codecs registry are CPython's own codecs (its
# search function comes first), whose StreamReader drops a truncated last
# sequence at the end of the stream; encspec's utf-8 is reached by encspec.load.
REGISTERED = [name for name in SPECS if name != "utf-8"]


@pytest.mark.parametrize("name", REGISTERED)
@settings(max_examples=examples(10), deadline=None)
@given(data=st.data())
def test_registered_codecs_agree(name, data):
    """After encspec.register(), what codecs hands out (one backend per name) agrees
    with itself, for the name and, with a signature, the NAME-sig variant."""
    whole = data.draw(byte_strings(name), label="bytes")
    pieces = data.draw(cut(whole), label="pieces")
    text = data.draw(texts_with_surrogates, label="text")
    text_pieces = data.draw(cut(text), label="text pieces")
    if encspec.load(name).PAIR_ON_ENCODE:  # a pair split across pieces cannot be joined (docs: "Nothing held back")
        text_pieces = unsplit_pairs(text_pieces)
    for codec in [name] + ([name + "-sig"] if name in SIGNATURES else []):
        for errors in ["strict", "replace", "encspec.latin1"]:
            dec = codecs.getincrementaldecoder(codec)(errors)
            results = {
                "one-shot": outcome(whole, lambda p: (p.update(fed=len(whole)), codecs.decode(whole, codec, errors))[1]),
                "IncrementalDecoder": outcome(whole, lambda p: "".join(
                    [(p.update(fed=p["fed"] + len(x)), dec.decode(x))[1] for x in pieces] + [dec.decode(b"", True)])),
                "StreamReader": outcome(whole, lambda p: codecs.getreader(codec)(
                    p.setdefault("stream", io.BytesIO(whole)), errors).read()),
            }
            check_all_agree(results, f"{codec} errors={errors!r} pieces={pieces!r}")
        for errors in ["strict", "replace", "surrogateescape"]:
            enc = codecs.getincrementalencoder(codec)(errors)

            def writer(p, errors=errors):
                sink = io.BytesIO()
                w = codecs.getwriter(codec)(sink, errors)
                for x in text_pieces:
                    p["fed"] += len(x)
                    w.write(x)
                w.reset()
                return sink.getvalue()

            results = {
                "one-shot": outcome(text, lambda p: (p.update(fed=len(text)), codecs.encode(text, codec, errors))[1],
                                    with_end=False),
                "IncrementalEncoder": outcome(text, lambda p: b"".join(
                    [(p.update(fed=p["fed"] + len(x)), enc.encode(x))[1] for x in text_pieces]
                    + [enc.encode("", True)]), with_end=False),
                "StreamWriter": outcome(text, writer, with_end=False),
            }
            check_all_agree(results, f"{codec} errors={errors!r} pieces={text_pieces!r}")
