"""Sequences of code points in a spec with modes (issue 31 on issue 30): a form whose
value is several code points decodes to all of them in its mode; the encoder applies
the longest match over the modes it writes in, after the shift into the mode that
holds the sequence; an incremental encoder holds a trailing starter back together
with the mode, and a final piece writes it, then the shift home.

The expectations are worked out by hand from the small specs below (not from the
code under test); splits are held to the same module's one-shot bytes, which the
hand-written cases pin.
"""
from __future__ import annotations

import io
import json
import random

import pytest

from conftest import assert_linear, run_cli
from encspec.automaton import compile_spec
from encspec.runtime import tables
from encspec.spec.parse import parse_text

# mode one: bytes 00..0D and 10..7F are themselves; 0E shifts to two.  Mode two: 21 is
# か゚ (U+304B U+309A), 22 is か alone, 23..7E are U+3100 up; 0F shifts back to one.
SPEC = """encoding seqmodal
code-space U+0000..U+10FFFF
mode one
form a: 00..0D
form a2: 10..7F at U+0010
shift in: 0E -> two
mode two
form pair: 21 = U+304B U+309A
form ka: 22 = U+304B
form b: 23..7E at U+3100
shift out: 0F -> one
"""
KA, MARK, GRAVE = "\u304b", "\u309a", "\u0300"


@pytest.fixture(scope="module")
def m():
    return tables.bind(compile_spec(parse_text(SPEC + "encode-modes one, two\n")))


def test_a_form_of_several_code_points_decodes_to_all_of_them_in_its_mode(m):
    assert m.decode(b"A\x0e\x21\x22\x23\x0fB") == "A" + KA + MARK + KA + "\u3100B"
    assert m.decode(b"\x21") == "!"  # in mode one, 21 is itself


@pytest.mark.parametrize("text, want", [
    ("A" + KA + MARK + KA + "B", b"A\x0e\x21\x22\x0fB"),   # the pair, then か alone, then back to one
    (KA, b"\x0e\x22\x0f"),                                 # a starter with nothing after it: alone
    (KA + MARK, b"\x0e\x21\x0f"),                          # the shift, then the pair's one byte
    ("\u3100" + KA + MARK + "x", b"\x0e\x23\x21\x0fx"),    # already in two: no shift before the pair
    (KA + KA + MARK, b"\x0e\x22\x21\x0f"),                 # longest match from the left
])
def test_the_encoder_shifts_into_the_mode_that_holds_a_sequence(m, text, want):
    assert m.encode(text) == want
    assert m.decode(want) == text


def test_a_mark_without_its_starter_goes_to_the_handler(m):
    assert m.encode(MARK + KA, "replace") == b"?\x0e\x22\x0f"
    with pytest.raises(UnicodeEncodeError) as e:
        m.encode("a" + MARK)
    assert (e.value.start, e.value.end) == (1, 2)


# a third mode, entered by 0D from one (no longer a character there), holding a longer sequence (か゚̀) and the pair at another byte
THREE = SPEC.replace("form a: 00..0D\nform a2: 10..7F at U+0010\nshift in: 0E -> two\n",
                     "form a: 00..0C\nform a2: 10..7F at U+0010\nshift in: 0E -> two\nshift three: 0D -> three\n") + """mode three
form tri: 21 = U+304B U+309A U+0300
form pair3: 22 = U+304B U+309A
form c: 23..7E at U+3200
shift back: 0F -> one
"""


def test_the_longest_sequence_of_any_mode_wins_and_sticky_keeps_the_current_mode():
    first = tables.bind(compile_spec(parse_text(THREE + "encode-modes one, two, three\n")))
    sticky = tables.bind(compile_spec(parse_text(THREE + "encode-modes one, two, three sticky\n")))
    assert first.encode(KA + MARK + GRAVE) == b"\x0d\x21\x0f"          # only three holds all three
    assert first.encode(KA + MARK) == b"\x0e\x21\x0f"                  # two comes first for the pair
    assert first.encode("\u3200" + KA + MARK) == b"\x0d\x23\x0f\x0e\x21\x0f"
    assert sticky.encode("\u3200" + KA + MARK) == b"\x0d\x23\x22\x0f"  # three holds it: stay
    for module, data in ((first, b"\x0d\x23\x0f\x0e\x21\x0f"), (sticky, b"\x0d\x23\x22\x0f")):
        assert module.decode(data) == "\u3200" + KA + MARK


def test_the_incremental_encoder_holds_a_starter_with_the_mode(m):
    enc = m.IncrementalEncoder()
    assert enc.encode("A" + KA) == b"A"                 # か may start the pair: held, still in one
    state = enc.getstate()
    assert state >> 30 == ord(KA) + 1 and (state >> 22) & 0xFF == 0
    assert enc.encode(MARK) == b"\x0e\x21"              # the pair; the mode stays two
    assert enc.encode("\u3100" + KA) == b"\x23"         # か held again, now in mode two
    state = enc.getstate()
    assert state >> 30 == ord(KA) + 1 and (state >> 22) & 0xFF == 1
    other = m.IncrementalEncoder()
    other.setstate(state)
    assert other.encode("", final=True) == b"\x22\x0f"  # the held か, then the shift home
    assert enc.encode("", final=True) == b"\x22\x0f"
    assert enc.getstate() == 0


def test_the_stream_writer_writes_the_held_starter_then_the_shift_home_on_reset(m):
    raw = io.BytesIO()
    writer = m.StreamWriter(raw)
    writer.write("A" + KA)
    assert raw.getvalue() == b"A"
    writer.reset()
    assert raw.getvalue() == b"A\x0e\x22\x0f"


PIECES = ["A", KA, MARK, "\u3100", "\n", "\u00e9", KA + MARK]


@pytest.mark.parametrize("errors", ["strict", "replace", "ignore"])
def test_incremental_encoding_split_at_every_offset_equals_one_shot(m, errors):
    rng = random.Random(f"modal-seq-{errors}")
    for _ in range(300):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(9)))
        try:
            want = m.encode(text, errors)
        except UnicodeEncodeError:
            continue
        for k in range(len(text) + 1):
            for items in (text, [ord(c) for c in text]):
                enc = m.IncrementalEncoder(errors)
                assert enc.encode(items[:k]) + enc.encode(items[k:], True) == want, (text, k)
        enc = m.IncrementalEncoder(errors)
        assert b"".join(enc.encode(c) for c in text) + enc.encode("", True) == want, text


def test_incremental_decoding_split_at_every_offset_equals_one_shot(m):
    rng = random.Random("modal-seq-decode")
    pieces = [b"\x0e", b"\x0f", b"\x21", b"\x22", b"\x23", b"A", b"\x0e\x21", b"\x80"]
    for _ in range(300):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(10)))
        want = m.decode(data, "replace")
        for k in range(len(data) + 1):
            dec = m.IncrementalDecoder("replace")
            assert dec.decode(data[:k]) + dec.decode(data[k:], True) == want, (data, k)


def test_encoding_starters_and_shifts_is_linear(m):
    # every position a starter, a shift each way, and a pair: the longest-match and mode work per code point
    text = "A" + KA + MARK + KA + "x"
    assert_linear("modal sequences encode", m.encode, text * (1 << 10), text * (1 << 14))

    def pieces(t: str) -> bytes:
        enc = m.IncrementalEncoder()
        return b"".join(enc.encode(t[k:k + 7]) for k in range(0, len(t), 7)) + enc.encode("", True)
    assert_linear("modal sequences incremental encode", pieces, text * (1 << 8), text * (1 << 12))


# SPEC with a third mode holding the same forms as two (reached from two by 0E)
TWINS = SPEC.replace("shift out: 0F -> one\n", "shift out: 0F -> one\nshift on: 0E -> three\n") + """mode three
form pair3: 21 = U+304B U+309A
form ka3: 22 = U+304B
form b3: 23..7E at U+3100
shift back: 0F -> one
"""


def test_check_counts_the_byte_sequences_of_each_mode_apart(capsys, tmp_path):
    """Mode one reads 00..0D and 10..7F (126); two and three each read 21 (one sequence of
    code points), 22 and 23..7E (92): 93 code points and 1 sequence, not 2 summed."""
    path = tmp_path / "three.encspec"
    path.write_text(TWINS)
    code, out, _ = run_cli(capsys, "check", path)
    assert code == 0
    tail = out[out.index("mode one:"):]
    assert tail.splitlines() == [
        "mode one:", "    1 bytes: 126 code points",
        "mode two:", "    1 bytes: 93 code points and 1 sequence of code points",
        "mode three:", "    1 bytes: 93 code points and 1 sequence of code points"]
    code, out, _ = run_cli(capsys, "check", path, "--json")
    doc = json.loads(out)
    assert doc["modes"]["three"] == {"lengths": {"1": 94}, "sequences": {"1": 1}}


def test_describe_prints_a_modes_sequences_once_and_names_the_mode_that_has_them(capsys, tmp_path):
    path = tmp_path / "three.encspec"
    path.write_text(TWINS)
    code, out, _ = run_cli(capsys, "describe", path)
    assert code == 0
    assert out.count("sequences of code points the encoder writes as one (1;") == 1
    three = out[out.index("mode three"):]
    assert "sequences of code points the encoder writes as one: those of mode two" in three


@pytest.mark.parametrize("lang", ["c", "js", "rust", "java"])
def test_exports_refuse_sequences_held_by_a_mode_in_one_line(capsys, tmp_path, lang):
    """The exports' shared mode choice carries no mode's sequences yet: they refuse
    iso2022_jp_2004 (JIS X 0213's pairs in table entries) before writing anything,
    rather than write か゚ without the shift into JIS X 0213 (the C export wrote 24 77)."""
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "export", "iso2022_jp_2004", "--lang", lang, "-o", out)
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and "sequences of code points in a spec with modes" in err
