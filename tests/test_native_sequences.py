"""The native encoder's sequences (emit/native/encode.py's ``_starters``, the
starter path of templates/native/encode.c.j2): where a spec's tables hold
sequences of code points (JIS X 0213's U+304B U+309A, HKSCS's U+00CA U+0304),
the extension's loops write a starter and what follows it themselves, by the
core's longest match, and stop where only the module can decide (the text's end,
an unencodable starter).  So the native-backed module must encode exactly as the
pure-Python one, and both as CPython's codec: random text dense with sequences
and lone starters (hypothesis) under strict (the error's positions) and
replace; a starter at the end of a text; a starter before an unencodable code
point; the memo (which marks starters) never stale from one call to the next;
incremental encoders split at every offset.  And the C functions' contract: at
a starter ending a whole text (encode_str) it writes it alone, at one ending the
module's window (encode_memo) it stops, else it writes the pair or it alone.  The
bench's corpora for these codecs: running text, dense with starters (Japanese)
and HKSCS characters (Cantonese).

A spec not written yet, or whose extension is not built, skips (a failure under
ENCSPEC_REQUIRE_TOOLS=1 for the extension).
"""
from __future__ import annotations

import codecs
import random
import shutil
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
import tools
from codec_samples import native_extension_missing
from conftest import examples
from encspec import pipeline
from encspec.bench.run import table_codec, table_corpus
from encspec.emit.native.ext import ext_source
from encspec.runtime.tables import sequences
from encspec.spec import registry

SPECS = ["big5hkscs", "euc_jis_2004", "euc_jisx0213", "shift_jis_2004", "shift_jisx0213"]
# text of each codec's script that every one writes (the sequences' starters and seconds are added)
COMMON = {"big5hkscs": "我哋嘅咗佢冇噉啲香港話aZ 1，。",
          "ja": "かきくけこカセツトあいう日本語の文字aZ 1、。"}
UNENCODABLE = "\U0001f600"

_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native_sequences.record", _record)
HANDLERS = ["strict", "replace", "test_native_sequences.record"]


@cache
def _spec(spec: str):
    if spec not in registry.builtin_names():
        pytest.skip(f"{spec} is not a built-in spec yet (being written?)")
    a = pipeline.load(spec)[1]
    why = native_extension_missing(registry.module_name(spec))
    if why is not None:
        tools.missing(why)
    py, nat = encspec.load(spec, backend="python"), encspec.load(spec, backend="native")
    assert py._NATIVE is None and nat._NATIVE is not None
    return a, py, nat


def backends(spec: str):
    return _spec(spec)[1:]


@cache
def alphabet(spec: str) -> list[str]:
    """The spec's starters and the code points that complete them, and common text."""
    a = _spec(spec)[0]
    seqs = sequences(a)
    assert seqs, f"{spec} has no sequences"
    chars = {chr(c) for cps, _ in seqs for c in cps}
    return sorted(chars) + list(COMMON["big5hkscs" if spec == "big5hkscs" else "ja"]) + [UNENCODABLE]


def outcome(fn, text, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(text, errors), list(_SEEN))
    except UnicodeEncodeError as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def agree(spec: str, text: str, handlers=HANDLERS) -> None:
    py, nat = backends(spec)
    for errors in handlers:
        want = outcome(py.encode, text, errors)
        assert outcome(nat.encode, text, errors) == want, (spec, errors, text)
        theirs = outcome(lambda t, e: t.encode(spec, e), text, errors)
        assert theirs[:2] == want[:2], (spec, errors, text)  # CPython's reasons are its own words


@pytest.mark.parametrize("spec", SPECS)
def test_random_text_with_sequences(spec):
    """Random text of starters, their seconds, common characters and an unencodable one."""
    chars = alphabet(spec)

    @settings(max_examples=examples(300), deadline=None)
    @given(st.lists(st.sampled_from(chars), max_size=40))
    def check(parts):
        agree(spec, "".join(parts))

    check()


@pytest.mark.parametrize("spec", SPECS)
def test_every_sequence_alone_at_the_end_and_inside(spec):
    a, py, nat = _spec(spec)
    for cps, data in sequences(a):
        seq = "".join(map(chr, cps))
        first = chr(cps[0])
        for text in (seq, "a" + seq + "a", seq + seq, first, "a" + first, first + "a", first + first,
                     first + UNENCODABLE, seq[:-1] + UNENCODABLE + seq[-1], first + seq):
            agree(spec, text)
        assert nat.encode(seq) == data


@pytest.mark.parametrize("spec", SPECS)
def test_memo_never_stale_across_calls(spec):
    """The memo marks a starter the first time the loop meets it: every later call,
    whatever came before, still joins and splits as the pure-Python module does."""
    a, py, nat = _spec(spec)
    cps, _ = sequences(a)[0]
    first, seq = chr(cps[0]), "".join(map(chr, cps))
    nat._MEMO_BYTES = nat._MEMO_LENS = None  # cold
    for text in (first, seq, first + "a", "a" + first, seq * 3, first * 3 + seq, first + UNENCODABLE,
                 seq[1:], first, seq + first):
        for errors in ("strict", "replace"):
            assert outcome(nat.encode, text, errors) == outcome(py.encode, text, errors), (spec, text)


@pytest.mark.parametrize("spec", SPECS)
def test_incremental_split_at_every_offset(spec):
    a, py, nat = _spec(spec)
    seqs = ["".join(map(chr, cps)) for cps, _ in sequences(a)[:6]]
    text = "a".join(seqs) + seqs[0][0] + "x" + seqs[-1][0]
    want = text.encode(spec)
    for k in range(len(text) + 1):
        for m in (py, nat):
            enc = m.getregentry().incrementalencoder("strict")
            got = enc.encode(text[:k]) + enc.encode(text[k:], True)
            assert got == want, (spec, k, m is nat)


@pytest.mark.parametrize("spec", SPECS)
def test_a_one_shot_end_is_final_a_window_end_is_not(spec):
    """On a fresh memo: encode_str (a whole text) writes a starter at its end alone,
    since nothing can follow it; encode_memo (given the module's window of a longer
    text) stops there, since the text's next character may complete a sequence.
    With its second after it, the pair's bytes; with a letter after it, it alone."""
    a, py, nat = _spec(spec)
    cps, data = next((c, d) for c, d in sequences(a) if len(c) == 2)
    first, seq = chr(cps[0]), "".join(map(chr, cps))
    fresh = (bytearray(nat._MEMO_WIDTH << 16), bytearray(1 << 16))
    assert nat._NATIVE.encode_str("ab" + first, *fresh) == ("ab" + first).encode(spec)
    assert nat._NATIVE.encode_str(seq + first, *fresh) == (seq + first).encode(spec)
    assert nat._NATIVE.encode_str("a" + seq, *fresh) == b"a" + data
    assert nat._NATIVE.encode_str(first + "a", *fresh) == (first + "a").encode(spec)
    out = bytearray()
    assert nat._NATIVE.encode_memo("ab" + first, 0, *fresh, out) == 2
    assert out == b"ab"


@pytest.mark.parametrize("spec", SPECS)
def test_bench_corpus_is_running_text_of_the_script(spec):
    py = backends(spec)[0]
    text = table_corpus("cjk", 20_000, py, table_codec(py))
    assert table_codec(py) == codecs.lookup(spec).name
    if spec == "big5hkscs":
        assert sum(text.count(ch) for ch in "嘅咗佢哋冇噉啲") > len(text) // 50
    else:
        assert sum(text.count(ch) for ch in "かきくけこカセツト") > len(text) // 20
    assert py.encode(text) == text.encode(spec)


@pytest.mark.parametrize("spec", SPECS)
def test_long_text_with_a_cold_memo(spec):
    """Past the loop's first windows (where it stops at every new character, starters
    at a window's end included) and ending with a starter: as pure Python and CPython."""
    a, py, nat = _spec(spec)
    cps, _ = sequences(a)[-1]
    text = table_corpus("cjk", 200_000, py, table_codec(py)) + "".join(map(chr, cps)) + chr(cps[0])
    nat._MEMO_BYTES = nat._MEMO_LENS = None
    want = text.encode(spec)
    assert nat.encode(text) == want
    assert nat.encode(text) == want  # warm
    assert py.encode(text) == want


@pytest.mark.parametrize("spec", SPECS)
def test_sequence_across_the_loops_piece(spec):
    """With a cold memo the loop stops at the first character and is then given the
    text 256 code points at a time: a sequence whose starter ends that piece is
    decided by the module, with what follows in the text."""
    a, py, nat = _spec(spec)
    for cps, _ in sequences(a):
        seq = "".join(map(chr, cps))
        text = ("香" if spec == "big5hkscs" else "日") + "a" * 254 + seq + "b"
        nat._MEMO_BYTES = nat._MEMO_LENS = None
        for errors in ("strict", "replace"):
            assert outcome(nat.encode, text, errors) == outcome(py.encode, text, errors), (spec, seq)
        assert nat.encode(text) == text.encode(spec)


@pytest.mark.parametrize("spec", ["shift_jis_2004", "shift_jisx0213"])
def test_ascii_blocks_around_bytes_that_are_not_themselves(spec):
    """Shift_JIS-2004 writes 5C and 7E for ¥ and ‾, so "\\" and "~" are not themselves:
    the loop copies ASCII 16 characters at a time only where a block holds neither
    (a str of 1, 2 and 4 bytes a character), and the two go to their own bytes or the
    handler at every offset of a block."""
    py, nat = backends(spec)
    base = "The quick brown fox jumps over the lazy dog 0123456789 " * 3
    for wide in ("", "\u3042", "\U00020b9f"):
        for k in range(40):
            for ch in ("\\", "~", "\u00a5", "\u203e"):
                text = base[:k] + ch + base[k:] + wide
                agree(spec, text, ["strict", "replace"])
                assert nat.encode(text, "replace") == text.encode(spec, "replace")


SECONDS = [0x0300 + 7 * k for k in range(10)] + [0x1F600]  # too many ranges to test: a bitmap


def test_many_second_code_points_and_an_ascii_starter(tmp_path, monkeypatch):
    """A user spec whose starter is ASCII "a" (no longer copied in blocks: the loop
    copies ASCII blocks without 61) and whose sequences' second code points are too
    many ranges to test one by one (the loops test a bitmap of their low 16 bits):
    native equals pure Python on random text, strict and replace, whole and in pieces."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forms = "".join(f"encode U+0061 U+{c:04X} as {0x80 + k:02X}\n" for k, c in enumerate(SECONDS))
    path = tmp_path / "manyseconds.encspec"
    (tmp_path / "two.txt").write_text("0\t0x4E00\n1\t0x4E01\n", "utf-8")  # a table: an extension, not a charmap
    path.write_text("encoding manyseconds\ncode-space U+0000..U+10FFFF\nerror-span one-unit\n"
                    'table two "two.txt"\nalphabet trail = 41..42\n'
                    "form ascii: 00..7F\nform double: 81 trail table two\n" + forms, "utf-8")
    a = pipeline.load(str(path))[1]
    assert "nx_seq_second_bits" in ext_source(a)
    py, nat = encspec.load(str(path), backend="python"), encspec.load(str(path), backend="native")
    assert nat._NATIVE is not None and py._NATIVE is None
    assert nat._NATIVE.STOPS_AT_STARTERS == 1  # so the module uses its loops, "a" lying in a row
    chars = ["a", "b", "\u4e00", "\u0301", "\U0001f601"] + [chr(c) for c in SECONDS] + ["a" * 20, "xyz" * 7]
    rng = random.Random(30)
    for _ in range(examples(300)):
        text = "".join(rng.choice(chars) for _ in range(rng.randrange(16)))
        for errors in ("strict", "replace"):
            assert outcome(nat.encode, text, errors) == outcome(py.encode, text, errors), text
        k = rng.randrange(len(text) + 1)
        enc = nat.IncrementalEncoder("replace")
        assert enc.encode(text[:k]) + enc.encode(text[k:], True) == py.encode(text, "replace"), (text, k)
    assert nat.encode("a" + chr(SECONDS[-1])) == bytes([0x80 + len(SECONDS) - 1])
    assert nat.encode("a\u0302b", "replace") == b"a?b"  # \u0302 (not a second) has no bytes
