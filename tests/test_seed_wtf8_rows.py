"""Issue 15, items 4 and 9: WTF-8 conversions that never fail, and Table 3.1b rows
that hold for every built-in spec.  Both run on both backends."""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codec_samples import BACKENDS, SPECS, load_backend, oracle
from conftest import examples
from encspec.analyse.describe import ill_formed
from encspec.automaton import DEAD
from encspec.pipeline import load as load_automaton


def h(text: str) -> bytes:
    return bytes.fromhex(text)


@pytest.fixture(params=BACKENDS)
def wtf8(request):
    return load_backend("wtf-8", request.param)


# ------------------------------------------------------------ item 4: wtf-8.txt 6.3 .. 6.5
# 6.3: "To convert from WTF-8 to potentially ill-formed UTF-16 ... Note: This conversion
# never fails and, if the input is well-formed in WTF-8, is lossless."
# 6.4: "To convert lossily from WTF-8 to UTF-8, replace any surrogate byte sequence with
# the sequence of three bytes <0xEF, 0xBF, 0xBD> ... Note: This conversion never fails
# but is lossy."
# 3: "The replacement character is the code point U+FFFD ... It is used as a substitute
# to replace ill-formed sub-sequences during a conversion."
PAIR = h("ED A0 80 ED B0 80")  # 3.3: a surrogate pair byte sequence (lead, then trail)


def test_surrogate_pair_byte_sequence_converts_to_two_surrogates(wtf8):
    """3.3 Table 1: ED A0 80 is the lead surrogate byte sequence of U+D800, ED B0 80 the
    trail one of U+DC00; each converts on its own (6.2, then 4.1)."""
    assert wtf8.to_wtf16(PAIR) == [0xD800, 0xDC00]
    assert wtf8.to_utf8(PAIR) == h("EF BF BD EF BF BD")  # each one replaced, in place
    with pytest.raises(UnicodeDecodeError):
        wtf8.to_wtf16(PAIR, strict=True)
    with pytest.raises(UnicodeDecodeError):
        wtf8.to_utf8(PAIR, strict=True)


def test_other_ill_formed_bytes_become_the_replacement_character(wtf8):
    """One U+FFFD per ill-formed subsequence (maximal subpart, as decode's "replace")."""
    assert wtf8.to_wtf16(b"a\x80b") == [0x61, 0xFFFD, 0x62]
    assert wtf8.to_wtf16(h("E1 80 41 C0")) == [0xFFFD, 0x41, 0xFFFD]
    assert wtf8.to_utf8(b"a\x80b") == b"a\xef\xbf\xbdb"
    assert wtf8.to_utf8(h("E1 80 41 ED A0 80")) == h("EF BF BD 41 EF BF BD")
    for f in (wtf8.to_wtf16, wtf8.to_utf8):
        with pytest.raises(UnicodeDecodeError) as e:
            f(b"a\x80b", strict=True)
        assert (e.value.start, e.value.end) == (1, 2)


def test_wtf16_examples(wtf8):
    """4.2 and 6.1: 0xD83D 0xDE00 is U+1F600 (F0 9F 98 80); an unpaired 0xD83D is
    ED A0 BD; 6.3 back: a lone trail surrogate stays one code unit."""
    assert wtf8.from_wtf16([0xD83D, 0xDE00]) == h("F0 9F 98 80")
    assert wtf8.from_wtf16([0xD83D]) == h("ED A0 BD")
    assert wtf8.to_wtf16(h("F0 9F 98 80 ED B8 80")) == [0xD83D, 0xDE00, 0xDE00]
    assert wtf8.to_wtf16(h("F0 9F 98 80 ED B8 80"), strict=True) == [0xD83D, 0xDE00, 0xDE00]


def test_lossy_and_strict_utf8(wtf8):
    """6.4: lossy replaces each surrogate byte sequence in place; strict: "If the input
    contains a surrogate byte sequence, return failure.  Otherwise, return the input
    unchanged."""
    data = h("41 ED A0 80 F0 9F 98 80 ED B8 80")
    assert wtf8.to_utf8(data) == h("41 EF BF BD F0 9F 98 80 EF BF BD")
    with pytest.raises(UnicodeDecodeError):
        wtf8.to_utf8(data, strict=True)
    utf8 = "h\u00e9\U0001F600".encode("utf-8")
    assert wtf8.to_utf8(utf8, strict=True) == utf8 == wtf8.to_utf8(utf8)


def test_concatenation_examples(wtf8):
    """6.5: a final lead surrogate byte sequence and an initial trail one become one
    supplementary code point; otherwise the byte sequences are concatenated."""
    assert wtf8.concat(h("41 ED A0 80"), h("ED B0 80 42")) == h("41 F0 90 80 80 42")
    assert wtf8.concat(h("ED B0 80"), h("ED A0 80")) == h("ED B0 80 ED A0 80")
    assert wtf8.concat(b"", h("ED B0 80")) == h("ED B0 80")


units16 = st.lists(st.one_of(st.integers(0, 0xFFFF), st.integers(0xD800, 0xDFFF)), max_size=10)
wtfish = st.lists(st.sampled_from([b"\xed", b"\xa0", b"\xb0", b"\x80", b"\xbf", b"A", b"\xc0",
                                   b"\xe1", b"\xf0", b"\xf4", b"\x90", b"\xff", b"\xc3"]),
                  max_size=14).map(b"".join)


@pytest.mark.parametrize("backend", BACKENDS)
def test_never_fails_on_arbitrary_bytes(backend):
    """Non-strict conversions never raise; lossy output is UTF-8 (CPython accepts it)
    and the code units are 16-bit."""
    wtf8 = load_backend("wtf-8", backend)

    @settings(max_examples=examples(400), deadline=None)
    @given(st.one_of(st.binary(max_size=24), wtfish))
    def run(data):
        units = wtf8.to_wtf16(data)
        assert all(0 <= u <= 0xFFFF for u in units)
        wtf8.to_utf8(data).decode("utf-8")  # well-formed UTF-8, or this raises

    run()


@pytest.mark.parametrize("backend", BACKENDS)
def test_well_formed_input_as_before_and_as_the_oracle(backend):
    """On well-formed WTF-8 nothing changed: strict and non-strict agree, and equal the
    hand-written oracle (tests/oracles/wtf_8.py); 6.5's note holds for the raw join."""
    wtf8, ref = load_backend("wtf-8", backend), oracle("wtf-8")

    @settings(max_examples=examples(300), deadline=None)
    @given(units16, units16)
    def run(a_units, b_units):
        a, b = wtf8.from_wtf16(a_units), wtf8.from_wtf16(b_units)
        assert a == ref.from_wtf16(a_units)
        assert wtf8.to_wtf16(a) == wtf8.to_wtf16(a, strict=True) == ref.to_wtf16(a) == a_units
        assert wtf8.to_utf8(a) == ref.to_utf8(a)
        # "equivalent to converting both strings to potentially ill-formed UTF-16,
        # concatenating ..., then converting the concatenation back to WTF-8"
        assert wtf8.concat(a, b) == ref.concat(a, b) == wtf8.from_wtf16(wtf8.to_wtf16(a + b))

    run()


# ------------------------------------------------------------ item 9: Table 3.1b rows
# unicode-3.1-ill-formed-utf-8-proposal.txt: "A byte sequence is ill-formed UTF-8 if and
# only if some sequence of those bytes matches one (or more) of the lines in Table 3.1b"
# and "the sequence <ED, A0, 80, ED, B0, 80> is ill-formed because the first 5 bytes
# match line 11" (line 11: ED, A0-AF, XX, ED, B0-BF).  Ill-formed here: no continuation
# makes the input well-formed (a truncated but completable input is not, as in the table).
# A row matches where a character (or an error) begins: the complement rows
# tests/test_describe.py keeps for utf-8 list 80..BF on their own, as Table 3-7 does.
DEPTH = 6  # every input of up to 6 bytes
CAP = 16  # held-back bytes beyond the longest bounded sequence (13): a counted form or reserved run


def _reserved_is_not_ill_formed(exc):
    """A reserved run is "reserved for future use ... rather than invalid"
    (corrected-utf-8.txt): skip it; any other error stays one."""
    if exc.reason == "reserved sequence":
        return ("", exc.end)
    raise exc


codecs.register_error("test-seed-rows", _reserved_is_not_ill_formed)


def _byte_set(text: str) -> frozenset:
    out = set()
    for part in text.split(", "):
        lo, _, hi = part.partition("..")
        out.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return frozenset(out)


class Scanner:
    """The generated decoder as a black box: what it still holds back after each byte,
    and whether some continuation makes the input well-formed."""

    def __init__(self, mod, a):
        self.mod, self.a = mod, a
        self.reps = [bs[0] for bs in a.class_bytes()]
        self._step, self._viable = {}, {}

    def step(self, pending: bytes, b: int):
        """The bytes held back after *b*, or None once an error is certain."""
        key = (pending, b)
        if key not in self._step:
            d = self.mod.IncrementalCodePointDecoder("test-seed-rows")
            d.setstate((pending, 0))
            try:
                d.decode(bytes([b]), False)
                self._step[key] = d.getstate()[0]
            except UnicodeDecodeError:
                self._step[key] = None
        return self._step[key]

    def counted(self, pending: bytes) -> bool:
        s = 0
        for b in pending:
            s = self.a.step(s, b)
            if s == DEAD:
                return False
            if s >= self.a.n_states:
                return True
        return False

    def ends_well(self, pending: bytes) -> bool:
        d = self.mod.IncrementalCodePointDecoder("test-seed-rows")
        d.setstate((pending, 0))
        try:
            d.decode(b"", True)
            return True
        except UnicodeDecodeError:
            return False

    def viable(self, pending: bytes) -> bool:
        """Some continuation ends well: depth first, stopping at the first that does."""
        return self._search(pending, set())[0]

    def _search(self, p: bytes, stack: set):
        if p in self._viable:
            return self._viable[p], False
        if self.ends_well(p):
            self._viable[p] = True
            return True, False
        stack.add(p)
        cut = False
        for b in self.reps:
            q = self.step(p, b)
            if q is None or len(q) > CAP or self.counted(q):
                continue
            if q in stack:
                cut = True
                continue
            ok, c = self._search(q, stack)
            cut |= c
            if ok:
                stack.discard(p)
                self._viable[p] = True
                return True, False
        stack.discard(p)
        if not cut:  # a verdict that does not depend on a search still under way
            self._viable[p] = False
        return False, cut


def rows_of(a):
    return [[_byte_set(c) for c in r["prefix"]] + [_byte_set(r["ill_formed"])] for r in ill_formed(a)]


@pytest.mark.slow  # an exhaustive sweep: ENCSPEC_SLOW=1 (CI) runs it
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_rows_match_exactly_the_ill_formed_inputs(name, backend):
    """Exhaustive over byte classes (every row byte set is a union of classes, so one
    byte per class stands for all): every ill-formed input of up to 6 bytes has a row
    where a character begins, and no input that can still be well-formed has one."""
    _, a = load_automaton(name)
    sc = Scanner(load_backend(name, backend), a)
    rows = rows_of(a)
    classes = [frozenset(bs) for bs in a.class_bytes()]
    for row in rows:
        for pos in row:
            assert all(c <= pos or not (c & pos) for c in classes), f"{name}: row cuts a class"
    problems, memo = [], set()

    by_first = [[r for r, row in enumerate(rows) if b in row[0]] for b in range(256)]

    def run(row, data: bytes):
        """(row, i) still matching after *data*, or True once the row matched."""
        for i, b in enumerate(data):
            if i == len(row) or b not in row[i]:
                return None
        return True if len(data) >= len(row) else len(data)

    def starts(data: bytes):
        return [tok[1] for tok in sc.mod.tokens(data)]

    def dfs(s: bytes, pending: bytes, matches, seen_row: bool):
        # matches: (row, i) begun at a character boundary at or before pending's start
        key = (pending, matches, seen_row, len(s))
        if key in memo or len(s) == DEPTH or len(problems) > 5:
            return
        memo.add(key)
        for b in sc.reps:
            t, data = s + bytes([b]), pending + bytes([b])
            nxt = sc.step(pending, b)
            if nxt is not None and (sc.counted(nxt) or len(nxt) > CAP):
                continue  # counted forms continue beyond the table
            hit, moved = False, set()
            for r, i in matches:
                if b in rows[r][i]:
                    if i + 1 == len(rows[r]):
                        hit = True
                    else:
                        moved.add((r, i + 1))
            ill = nxt is None or not sc.viable(nxt)
            # boundaries now known inside data: token starts of what was decided
            known = starts(data) if ill else [j for j in starts(data[:len(data) - len(nxt)]) if j]
            if not ill:
                known.append(len(data) - len(nxt))
            for j in set(known) - {0}:
                for r in (by_first[data[j]] if j < len(data) else range(len(rows))):
                    m = run(rows[r], data[j:])
                    if m is True:
                        hit = True
                    elif m is not None:
                        moved.add((r, m))
            if ill:
                if not (hit or seen_row):
                    problems.append(f"ill-formed, no row: {t.hex(' ')}")
                continue
            if hit:
                problems.append(f"a row in an input that can be well-formed: {t.hex(' ')}")
            dfs(t, nxt, frozenset(moved), seen_row or hit)

    dfs(b"", b"", frozenset((r, 0) for r in range(len(rows))), False)

    def instance(row, i, pending, s):
        """Instances of a row longer than 6 bytes are ill-formed too: every class at the
        last position, one byte per class set, in turn, at the others."""
        reps = sorted({sc.reps[a.classes[x]] for x in row[i]})
        if i < len(row) - 1:
            reps = [reps[len(s) % len(reps)]]
        for b in reps:
            nxt = sc.step(pending, b)
            t = s + bytes([b])
            if i + 1 == len(row):
                if nxt is not None and sc.viable(nxt):
                    problems.append(f"row instance can be well-formed: {t.hex(' ')}")
            elif nxt is not None and (pending, i, nxt) not in seen:
                seen.add((pending, i, nxt))
                instance(row, i + 1, nxt, t)

    for row in rows:
        if len(row) <= DEPTH:
            continue  # the search above saw every instance
        seen = set()
        instance(row, 0, b"", b"")
    assert not problems, f"{name}: " + "; ".join(problems)


def _matches(rows, mod, data: bytes) -> bool:
    """Some row matches where a character (or error) begins."""
    return any(all(k + i < len(data) and data[k + i] in row[i] for i in range(len(row)))
               for row in rows for _, k, _, _ in mod.tokens(data))


@pytest.mark.parametrize("backend", BACKENDS)
def test_wtf8_rows_line_11(backend):
    """ED A0 80 ED 80 80 is U+D800 U+D000 (valid); the surrogate pair byte sequence
    matches a row in its first 5 bytes, as line 11; <ED, A0, 80, 7F> "is well-formed"."""
    rows, mod = rows_of(load_automaton("wtf-8")[1]), load_backend("wtf-8", backend)
    assert not _matches(rows, mod, h("ED A0 80 ED 80 80"))
    assert _matches(rows, mod, h("ED A0 80 ED B0")) and _matches(rows, mod, PAIR)
    assert not _matches(rows, mod, h("ED A0 80 7F"))
    # the proposal's other examples hold in WTF-8 too: <E3, 80, C0>, <E3, FF, C0>
    assert _matches(rows, mod, h("E3 80 C0")) and _matches(rows, mod, h("E3 FF C0"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_mutf8_rows_pair_is_well_formed(backend):
    """Modified UTF-8 writes U+10000 as the pair ED A0 80 ED B0 80 (CESU-8 style): no row;
    ED A0 80 ED 80 80 (U+D800 U+D000) neither."""
    rows, mod = rows_of(load_automaton("mutf-8")[1]), load_backend("mutf-8", backend)
    assert not _matches(rows, mod, PAIR)
    assert not _matches(rows, mod, h("ED A0 80 ED 80 80"))
    assert _matches(rows, mod, h("ED A0 80 ED 41"))
