"""Modes (issue 31): shift sequences set the mode of the next token; encoders choose modes.

HZ (specs/hz.encspec, CPython's hz codec: RFC 1843) is the first spec with
modes; its decoder and encoder are held to CPython's codec (which this suite does not
derive: CPython's C decides), whole, incrementally split at every offset, and under
every standard handler.  The spec language's new statements are held to their errors.
"""
from __future__ import annotations

import codecs
import json
import random
import re
from pathlib import Path

import pytest

from conftest import (
    CPYTHON_HANDLERS,
    assert_linear,
    code_points,
    decode_outcome,
    decoding_differences,
    examples,
    run_cli,
    strict_encode_outcome,
)
from encspec.automaton import compile_spec
from encspec.runtime import tables
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_file, parse_text

HZ = Path(__file__).parents[1] / "specs" / "hz.encspec"


@pytest.fixture(scope="module")
def hz():
    return tables.bind(compile_spec(parse_file(HZ)))


# Every way HZ's bytes can meet: the shifts, the tilde, a line feed, GB 2312 bytes
# (V P is U+4E2D, ! ! U+3000, ( & is in no row), an ASCII letter, DEL and bytes 80..FF.
PIECES = [b"~", b"{", b"}", b"\n", b"V", b"P", b"!", b"(", b"&", b"a", b"\x7f", b"\x80", b"\xff", b"~~", b"~{", b"~}"]


def _byte_strings(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10))) for _ in range(n)]


def test_hz_decodes_as_cpython_on_every_short_combination(hz):
    inputs = [a + b + c for a in PIECES for b in PIECES for c in PIECES[:9]]
    assert decoding_differences(hz, "hz", inputs) == []


def test_hz_decodes_as_cpython_on_random_strings(hz):
    assert decoding_differences(hz, "hz", _byte_strings(3000, 31)) == []


def test_hz_incremental_decoder_equals_one_shot_at_every_split(hz):
    for data in _byte_strings(400, 32):
        want = data.decode("hz", "replace")
        for k in range(len(data) + 1):
            dec = hz.IncrementalDecoder("replace")
            assert dec.decode(data[:k]) + dec.decode(data[k:], True) == want, (data, k)


def test_hz_decoder_state_carries_the_mode(hz):
    dec = hz.IncrementalDecoder()
    assert dec.decode(b"~{") == ""
    state = dec.getstate()
    other = hz.IncrementalDecoder()
    other.setstate(state)
    assert other.decode(b"VP", True) == "\u4e2d"  # in GB 2312: the mode came with the state


TEXT = "ab~\n\x7f\u4e2d\u6587\u00e9\U0001F600\u3000!"


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(TEXT) for _ in range(rng.randint(0, 9))) for _ in range(n)]


@pytest.mark.parametrize("errors", ("strict",) + CPYTHON_HANDLERS)
def test_hz_encodes_as_cpython(hz, errors):
    for text in _texts(800, 33):
        want = strict_encode_outcome(lambda t: t.encode("hz", errors), text)
        assert strict_encode_outcome(lambda t: hz.encode(t, errors), text) == want, text


def test_hz_encoder_shifts_and_returns_to_ascii_at_the_end(hz):
    # RFC 1843: "~{" enters GB, "~}" leaves it; "~" itself is "~~"
    assert hz.encode("a\u4e2d\u6587b") == b"a~{VPND~}b"
    assert hz.encode("\u4e2d") == b"~{VP~}"
    assert hz.encode("~") == b"~~"


def test_hz_incremental_encoder_carries_the_mode_and_resets_at_the_end(hz):
    enc = hz.IncrementalEncoder()
    assert enc.encode("\u4e2d") == b"~{VP"  # still in GB 2312: nothing shifts back yet
    assert enc.encode("\u6587") == b"ND"
    assert enc.encode("", final=True) == b"~}"
    for text in _texts(300, 34):
        want = text.encode("hz", "replace")
        for k in range(len(text) + 1):
            enc = hz.IncrementalEncoder("replace")
            assert enc.encode(text[:k]) + enc.encode(text[k:], True) == want, (text, k)


def test_hz_stream_writer_writes_the_final_shift_on_reset(hz, tmp_path):
    path = tmp_path / "hz.txt"
    with open(path, "wb") as raw:
        writer = hz.StreamWriter(raw)
        writer.write("a\u4e2d")
        writer.write("\u6587")
        writer.reset()
    assert path.read_bytes() == "a\u4e2d\u6587".encode("hz")


def test_hz_decoding_is_linear_in_shift_floods(hz):
    def flood(n: int) -> bytes:
        return b"~{VP~}a" * (n // 7)
    assert_linear("hz decode of alternating shifts", lambda d: hz.decode(d), flood(1 << 14), flood(1 << 18))


def test_hz_encoding_is_linear_in_alternating_modes(hz):
    assert_linear("hz encode alternating modes", lambda t: hz.encode(t), "a\u4e2d" * (1 << 12),
                  "a\u4e2d" * (1 << 16))


# --------------------------------------------------------------- the language
MODAL = """encoding m
code-space U+0000..U+10FFFF
mode one
form a: 00..0D
form a2: 10..7F at U+0010
shift in: 0E -> two
mode two
form b: 21..7E at U+3000
shift out: 0F -> one
"""


def test_shift_after_shift_is_an_error_that_still_shifts():
    m = tables.bind(compile_spec(parse_text(MODAL + 'ill-formed shift-after-shift "shift after shift"\n')))
    # 0E enters two; 0F right after it is an error, and still returns to one, so 41 is "A"
    assert decode_outcome(m.decode, b"\x0e\x0f\x41", "strict") == ("UnicodeDecodeError", 1, 2, "shift after shift")
    assert m.decode(b"\x0e\x0f\x41", "replace") == "\ufffdA"
    # a character between two shifts clears it: no error
    assert m.decode(b"\x0e\x21\x0f\x41") == "\u3000A"
    # without the statement the same bytes are two shifts
    plain = tables.bind(compile_spec(parse_text(MODAL)))
    assert plain.decode(b"\x0e\x0f\x41") == "A"


def test_encode_modes_sticky_stays_in_a_mode_that_holds_the_character():
    both = MODAL.replace("form b: 21..7E at U+3000", "form b: 21..7E at U+3000\nform c: 20 at U+0020")
    fixed = tables.bind(compile_spec(parse_text(both + "encode-modes one, two\n")))
    sticky = tables.bind(compile_spec(parse_text(both + "encode-modes one, two sticky\n")))
    # U+0020 is in both modes: after U+3001 the fixed order goes back to one, sticky stays in two
    assert fixed.encode("\u3001 ") == b"\x0e\x22\x0f\x20"
    assert sticky.encode("\u3001 ") == b"\x0e\x22\x20\x0f"


@pytest.mark.parametrize("text, line, column, message", [
    (MODAL.replace("-> two", "-> three"), 6, 17, "unknown mode 'three' (declare it with a 'mode' statement)"),
    (MODAL + "mode one\n", 10, 6, "mode 'one' is declared twice"),
    (MODAL + "encode-modes one, four\n", 10, 19, "unknown mode 'four' (declare it with a 'mode' statement)"),
    ("encoding m\ncode-space U+0000..U+10FFFF\nform a: 00..7F\nencode-modes a\n", 4, 1,
     "'encode-modes' needs modes (declare them with 'mode NAME')"),
    (MODAL + "signature EF BB BF\n", 3, 6, "a spec with modes cannot have a signature yet"),
    (MODAL.replace("shift in: 0E", "shift in: 0E..0F"), 6, 1, "shift 'in': a shift sequence is fixed bytes"),
])
def test_mode_statements_report_errors_at_their_place(text, line, column, message):
    with pytest.raises(SpecError) as got:
        parse_text(text, "m.encspec")
    assert (got.value.loc.line, got.value.loc.column, got.value.message) == (line, column, message)


def test_cpython_hz_is_the_reference_this_suite_reads():
    assert codecs.lookup("hz").name == "hz"  # CPython's own, not one encspec registered


# ------------------------------------------------- WHATWG ISO-2022-JP (the standard's oracle)
WHATWG_JP = Path(__file__).parents[1] / "specs" / "whatwg-iso-2022-jp.encspec"


@pytest.fixture(scope="module")
def whatwg_jp():
    return tables.bind(compile_spec(parse_file(WHATWG_JP)))


# escape sequences whole and cut, a lone ESC, bytes each mode reads or refuses
JP_PIECES = [b"\x1b", b"(", b"$", b"B", b"J", b"I", b"@", b"\x0e", b"\x0f", b"\n", b"0", b"!", b"A", b"\\", b"~",
             b"\x80", b"\x7f", b"\x1b(B", b"\x1b$B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"0!", b"\"t"]


def test_whatwg_iso_2022_jp_decodes_as_the_standard(whatwg_jp):
    from oracles import whatwg_iso_2022_jp as oracle
    rng = random.Random(35)
    for _ in range(examples(4000)):
        data = b"".join(rng.choice(JP_PIECES) for _ in range(rng.randint(0, 9)))
        assert [ord(c) for c in whatwg_jp.decode(data, "replace")] == oracle.decode_codepoints(data), data
        try:
            whatwg_jp.decode(data)
            throws = False
        except UnicodeDecodeError:
            throws = True
        assert throws == oracle.fatal_throws(data), data


def test_whatwg_iso_2022_jp_escape_after_escape_is_an_error_that_still_shifts(whatwg_jp):
    # encoding.bs, ISO-2022-JP decoder, "Escape" step 7: output flag set -> error, state set
    assert decode_outcome(whatwg_jp.decode, b"\x1b(J\x1b$B0!", "strict") == \
        ("UnicodeDecodeError", 3, 6, "an escape sequence right after another")
    assert whatwg_jp.decode(b"\x1b(J\x1b$B0!", "replace") == "\ufffd\u4e9c"  # 30 21: pointer 1410, U+4E9C
    assert whatwg_jp.decode(b"\x1b(J\\\x1b$B0!") == "\u00a5\u4e9c"  # a character between: no error


def test_whatwg_iso_2022_jp_encodes_as_the_standard(whatwg_jp):
    from oracles import whatwg_iso_2022_jp as oracle
    rng = random.Random(36)
    palette = [0x41, 0x5C, 0x7E, 0xA5, 0x203E, 0x0E, 0x1B, 0x3042, 0x2212, 0xFF61, 0xFF9F, 0x1F600, 0xE9, 0x0A, 0x4E00]
    for _ in range(examples(4000)):
        cps = [rng.choice(palette) for _ in range(rng.randint(0, 7))]
        want, bad = oracle.encode_positions(cps)
        got = strict_encode_outcome(whatwg_jp.encode, "".join(map(chr, cps)))
        if bad:
            assert got[:2] == ("UnicodeEncodeError", bad[0]), cps
        else:
            assert got == want, cps


def test_whatwg_iso_2022_jp_encodes_every_bmp_code_point_as_the_standard(whatwg_jp):
    from oracles import whatwg_iso_2022_jp as oracle
    for cp in code_points(surrogates=False):
        if cp > 0xFFFF:
            continue
        want, bad = oracle.encode_positions([cp])
        got = strict_encode_outcome(whatwg_jp.encode, chr(cp))
        assert (got[0] == "UnicodeEncodeError") if bad else (got == want), hex(cp)


def test_whatwg_iso_2022_jp_incremental_equals_one_shot(whatwg_jp):
    rng = random.Random(37)
    for _ in range(200):
        text = "".join(rng.choice("a\\~\u00a5\u203e\u3042\u4e00\uff61\n") for _ in range(rng.randint(0, 7)))
        whole = whatwg_jp.encode(text)
        for k in range(len(text) + 1):
            enc = whatwg_jp.IncrementalEncoder()
            assert enc.encode(text[:k]) + enc.encode(text[k:], True) == whole, (text, k)
        read = whatwg_jp.decode(whole)  # the text, but U+FF61 comes back full-width (U+3002)
        for k in range(len(whole) + 1):
            dec = whatwg_jp.IncrementalDecoder()
            assert dec.decode(whole[:k]) + dec.decode(whole[k:], True) == read, (whole, k)


def test_a_form_that_ends_its_mode_decodes_then_shifts_and_is_never_written():
    # CPython's ISO-2022 decoders: a line feed ends the shift (SO) state
    m = tables.bind(compile_spec(parse_text(MODAL.replace(
        "form b: 21..7E at U+3000", "form b: 21..7E at U+3000\nform lf: 0A at U+000A -> one") + "encode-modes one, two sticky\n")))
    assert m.decode(b"\x0e\x21\x0a\x21") == "\u3000\n!"  # after the line feed: mode one, 21 is "!"
    # sticky, yet U+000A is not written with the form that leaves mode two: mode one writes it
    assert m.encode("\u3000\n\u3000") == b"\x0e\x21\x0f\x0a\x0e\x21\x0f"


def test_unencodable_shift_goes_to_its_mode_before_the_error():
    # WHATWG's ISO-2022-JP encoder, "If pointer is null": from jis0208, ESC ( B, then the error
    text = MODAL + "unencodable -> one\n"  # in mode two's section
    m = tables.bind(compile_spec(parse_text(text)))
    assert m.encode("\u3001\u00e9", "ignore") == b"\x0e\x22\x0f"  # back in mode one before the error
    plain = tables.bind(compile_spec(parse_text(MODAL)))
    assert plain.encode("\u3001\u00e9", "ignore") == b"\x0e\x22\x0f"  # the final shift, written at the end
    assert m.encode("\u3001\u00e9\u3001", "ignore") == b"\x0e\x22\x0f\x0e\x22\x0f"
    assert plain.encode("\u3001\u00e9\u3001", "ignore") == b"\x0e\x22\x22\x0f"


@pytest.mark.parametrize("text, line, column, message", [
    ("encoding m\ncode-space U+0000..U+10FFFF\nform a: 00..7F\nunencodable -> a\n", 4, 1,
     "'unencodable -> MODE' belongs in a mode's section (after 'mode NAME')"),
    (MODAL + "unencodable -> nine\n", 10, 16, "unknown mode 'nine' (declare it with a 'mode' statement)"),
    (MODAL + "unencodable -> one\nunencodable -> one\n", 11, 1, "mode 'two' already has an 'unencodable -> MODE'"),
])
def test_unencodable_shift_errors_at_their_place(text, line, column, message):
    with pytest.raises(SpecError) as got:
        parse_text(text, "m.encspec")
    assert (got.value.loc.line, got.value.loc.column, got.value.message) == (line, column, message)


def test_a_spec_with_modes_is_not_self_synchronizing_with_a_counterexample():
    from encspec.analyse.properties import check
    report = check(compile_spec(parse_file(HZ)), ["self_synchronizing"])
    assert report.properties["self_synchronizing"] is False
    whole, suffix = report.counterexamples["self_synchronizing"]
    assert whole.endswith(suffix) and len(suffix) < len(whole)
    # CPython's hz: the suffix alone reads otherwise than inside the whole (after the shift)
    assert whole.decode("hz") != suffix.decode("hz", "replace")


def test_an_export_without_modes_refuses_a_spec_with_modes_in_one_line(capsys, monkeypatch):
    """A target that does not declare modes (the Rust one made so here: C, JS and Rust
    take them) refuses hz in one line before writing anything."""
    from dataclasses import replace

    from encspec.emit.targets import targets
    registry = targets()
    monkeypatch.setitem(registry, "rust", replace(registry["rust"], modes=False))
    code, out, err = run_cli(capsys, "export", "hz", "--lang", "rust", "-o", "/nonexistent/never-written")
    assert code == 2 and "modes (shift states: ISO-2022, HZ) are not in this target yet" in err
    assert len(err.strip().splitlines()) == 1


def test_describe_prints_each_mode_its_rows_and_its_shifts(capsys):
    code, out, _ = run_cli(capsys, "describe", "whatwg-iso-2022-jp")
    assert code == 0
    assert "4 modes; the data starts in ascii" in out
    roman = out[out.index("mode roman"):out.index("mode katakana")]
    assert "5C                  |    165 | 0000 00A5" in roman  # JIS X 0201 Roman's yen sign
    assert "shifts: 1B 28 42 -> ascii; 1B 28 49 -> katakana; 1B 24 42 -> jis0208" in roman
    assert "encoder: ascii, roman, jis0208 (staying in a mode while it holds the next character)" in out
    code, out, _ = run_cli(capsys, "describe", "hz", "--json")
    doc = json.loads(out)
    assert [(m["name"], m["shifts"]) for m in doc["modes"]] == [("ascii", {"gb": "7E 7B"}), ("gb", {"ascii": "7E 7D"})]
    assert doc["encode_modes"] == ["ascii", "gb"] and doc["sticky"] is False


@pytest.mark.parametrize("flood", [b"\x1b(B", b"\x1b(J\x1b$B", b"\x1b", b"\x1b$B0", b"\x1b(I!\x1b(B"])
def test_whatwg_iso_2022_jp_decoding_is_linear_in_escape_floods(whatwg_jp, flood):
    """Escapes right after escapes (each an error), lone ESCs (each read again), leads cut
    by an ESC, katakana and back: every operation stays linear."""
    def data(n: int) -> bytes:
        return flood * (n // len(flood))
    assert_linear(f"whatwg-iso-2022-jp decode of {flood!r} floods", lambda d: whatwg_jp.decode(d, "replace"),
                  data(1 << 13), data(1 << 17))


def test_a_pattern_may_start_with_a_character_that_ends_its_mode():
    # CPython's ISO-2022: ESC is a character that starts ESC throughout, yet "ESC ( A" is one
    # error; the encoder never writes ESC's form, so the pattern is no two written characters
    spec = """encoding m
code-space U+0000..U+10FFFF
mode one
form a: 00..1A
form a2: 1C..7F at U+001C
form esc: 1B = U+001B -> two
ill-formed pattern bad-escape: 1B 28 41 "not an escape sequence"
mode two
form b: 21..7E at U+3000
shift out: 0F -> one
"""
    m = tables.bind(compile_spec(parse_text(spec)))
    assert decode_outcome(m.decode, b"\x1b(A", "strict") == ("UnicodeDecodeError", 0, 3, "not an escape sequence")
    assert m.decode(b"\x1b!\x0f!") == "\x1b\u3000!"  # ESC, then mode two (21 is its U+3000)
    with pytest.raises(SpecError, match="spans several characters"):  # a character that stays still counts
        compile_spec(parse_text(spec.replace("= U+001B -> two", "= U+001B")))


def test_spanning_check_walks_each_state_once_per_position():
    # a chain of diamonds: at each position two byte runs lead to two states that both lead
    # on to the same pair, so a pattern has 2**n paths through only 2n states
    from types import SimpleNamespace

    from encspec.automaton.overrides import first_inner_char

    class Rows(list):
        visits = 0

        def __getitem__(self, k):
            Rows.visits += 1
            return super().__getitem__(k)

    n = 16
    nxt = Rows([[1 if b < 0x80 else 2 for b in range(256)]])
    for layer in range(n):
        after = [3 + 2 * layer if b < 0x80 else 4 + 2 * layer for b in range(256)]
        nxt += [after, after]
    nxt += [[-1] * 256, [-1] * 256]
    machine = SimpleNamespace(next=nxt, accept=[None] * len(nxt))
    pattern = [[(0x00, 0xFF, None)]] * (n + 1)
    assert first_inner_char(machine, [pattern], lambda act: act == "char") is None
    assert Rows.visits <= 4 * n + 4  # each state once, not each of the 2**16 paths
    machine.accept[2 * n] = "char"
    assert first_inner_char(machine, [pattern], lambda act: act == "char") is not None


def test_cheapest_takes_the_mode_the_fewest_shift_bytes_reach_and_encode_end_the_nearest_end():
    # three modes: one and two hold U+0020; from three, two is one byte away, one is three
    spec = """encoding m
code-space U+0000..U+10FFFF
mode one
form a: 20 at U+0020
shift to-three: 1B 41 -> three
mode two
form b: 20 at U+0020
shift two-three: 0E -> three
mode three
form c: 21..7E at U+3000
shift back: 0F -> two
shift home: 1B 42 43 -> one
"""
    first = tables.bind(compile_spec(parse_text(spec + "encode-modes one, two, three\n")))
    cheap = tables.bind(compile_spec(parse_text(spec + "encode-modes one, two, three cheapest\nencode-end one, two\n")))
    assert first.encode("\u3001 ") == b"\x1bA\x22\x1bBC\x20"   # back to one, the first that holds it
    assert cheap.encode("\u3001 ") == b"\x1bA\x22\x0f\x20"     # two, one byte away; and it may end there
    assert cheap.encode("\u3001") == b"\x1bA\x22\x0f"          # the nearest end mode


def test_vectors_read_each_mode_after_the_shift_into_it():
    """Each table case of hz's vectors (a note naming a pointer and its code point) is
    that code point for CPython's hz codec: the case's bytes start with the shift into
    the mode whose table it walks."""
    from encspec.analyse import vectors
    from encspec.cli.common import load_spec
    cases = vectors.all_cases(load_spec("hz")[1])
    named = [(c.data, int(m.group(1), 16)) for c in cases
             if (m := re.search(r"pointer \d+: U\+([0-9A-F]{4,6}),", c.note))]
    assert len(named) > 50
    assert all(data.startswith(b"~{") and data.decode("hz") == chr(cp) for data, cp in named), \
        [(d, hex(cp)) for d, cp in named if d.decode("hz", "replace") != chr(cp)][:5]


def test_code_page_chart_draws_one_mode_and_marks_the_bytes_that_begin_shifts(capsys, tmp_path):
    out = tmp_path / "jp.svg"
    code, _, err = run_cli(capsys, "chart", "whatwg-iso-2022-jp", "--codepage", "--mode", "jis0208", "-o", out)
    assert code == 0 and not err
    svg = out.read_text("utf-8")
    assert "whatwg-iso-2022-jp, mode jis0208: code page layout" in svg
    # the Encoding Standard's JIS X 0208 state: leads 21..7E, ESC begins the escapes
    leads = {int(m, 16) for m in re.findall(r'class="cell table[^"]*" id="b([0-9A-F]{2})"', svg)}
    assert leads == set(range(0x21, 0x7F))
    assert re.search(r'id="b1B" data-byte="1B"><title>1B: begins shift sequences \(to [a-z0-9, ]+\)', svg)
    code, _, err = run_cli(capsys, "chart", "whatwg-iso-2022-jp", "--codepage", "--mode", "kanji", "-o", out)
    assert code == 2 and "has no mode 'kanji' (its modes: ascii, roman, katakana, jis0208)" in err


def test_describe_says_when_the_ill_formed_table_is_too_large_to_walk(capsys):
    """CPython's ISO-2022 escape errors fall back over up to 14 bytes: the walk behind
    Table 3.1b would grow with the byte classes to that power, so describe says so."""
    code, out, err = run_cli(capsys, "describe", "iso2022_kr", "--ill-formed")
    assert code == 0 and not err
    assert "not computed: the scanner's fallback reaches more than 10,000 configurations" in out
    code, out, _ = run_cli(capsys, "describe", "iso2022_kr", "--ill-formed", "--json")
    doc = json.loads(out)
    assert doc["ill_formed"] is None and doc["note"].startswith("not computed")
    code, out, _ = run_cli(capsys, "describe", "hz", "--ill-formed", "--json")
    assert json.loads(out)["ill_formed"]  # a small one is still walked
