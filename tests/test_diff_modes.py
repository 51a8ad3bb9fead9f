"""`encspec diff` on specs with modes: pairs of modes the same bytes reach, each
compared by the table engine, and the encoders compared as whole texts; checked
against the references themselves (the Encoding Standard's ISO-2022-JP, by its
oracle, and CPython's iso2022_jp codec), never against the diff's own walk."""
from __future__ import annotations

import itertools
import json

import pytest

from conftest import run_cli
from oracles import whatwg_iso_2022_jp as whatwg

CPYTHON_JP = "iso2022_jp"  # CPython's iso2022_jp as a (built-in) spec
ALPHABET = bytes([0x00, 0x0A, 0x0E, 0x1B, 0x21, 0x24, 0x26, 0x28, 0x29, 0x40, 0x42, 0x49, 0x4A, 0x5C, 0x7E,
                  0x80, 0xFF])


@pytest.fixture(scope="module")
def jp_diff():
    from encspec.analyse.diff import diff
    from encspec.cli.common import load_spec
    d = diff(load_spec("whatwg-iso-2022-jp")[1], load_spec(CPYTHON_JP)[1])
    assert not d.equivalent
    return json.loads(json.dumps(d.to_json()))  # what `diff --json` prints


def _outcome_whatwg(data: bytes):
    toks = whatwg.tokens(data)
    first = next(((s, e) for kind, s, e, _ in toks if kind == "error"), None)
    return whatwg.decode_codepoints(data), first


def _outcome_cpython(data: bytes):
    try:
        data.decode("iso2022_jp")
        first = None
    except UnicodeDecodeError as e:
        first = (e.start, e.end)
    return [ord(c) for c in data.decode("iso2022_jp", "replace")], first


def _ranges(pattern: str) -> list[tuple[int, int]]:
    out = []
    for part in pattern.split():
        lo, _, hi = part.partition("..")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def _matches(ranges, data: bytes, whole: bool) -> bool:
    if len(data) < len(ranges) or whole and len(data) != len(ranges):
        return False
    return all(lo <= x <= hi for (lo, hi), x in zip(ranges, data))


@pytest.mark.parametrize("name", ["hz", "whatwg-iso-2022-jp"])
def test_a_spec_with_modes_is_equivalent_to_itself(capsys, name):
    rc, out, err = run_cli(capsys, "diff", name, name)
    assert rc == 0 and "equivalent" in out and not err


def test_diff_follows_the_shifts_into_every_mode_pair(jp_diff):
    pairs = {(p["a"], p["b"]) for p in jp_diff["modes"]}
    assert ("ascii", "ascii") in pairs                       # where the data starts
    assert ("jis0208 (after a shift)", "jis0208") in pairs   # ESC $ B in both
    assert ("katakana (after a shift)", "ascii") in pairs    # ESC ( I: WHATWG's katakana; CPython's error
    assert jp_diff["modes"][0]["after"] == ""


def test_each_reported_difference_is_one_between_the_references(jp_diff):
    """Every pattern of a pair reached by a plain shift (or none), at its corners, makes
    the two references' outputs or first errors differ."""
    checked = 0
    for pair in jp_diff["modes"]:
        after = bytes.fromhex(pair["after"])
        if after not in (b"", b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b$@"):
            continue
        for kind in ("only_a", "only_b", "different", "errors", "shifts"):
            for p in pair[kind]:
                ranges = _ranges(p["pattern"])
                for corner in (bytes(lo for lo, _ in ranges), bytes(hi for _, hi in ranges)):
                    data = after + corner
                    assert _outcome_whatwg(data) != _outcome_cpython(data), (pair["a"], pair["b"], kind, p)
                    checked += 1
    assert checked > 100


def test_every_difference_between_the_references_is_reported(jp_diff):
    """Every input of one to three bytes of a boundary alphabet on which the references
    differ has, at the first token where the two specs' decoders part, a pattern of the
    pair of modes they are in there (matching the bytes from there on)."""
    from encspec.analyse.tables import mode_name
    from encspec.cli.common import load_spec
    from encspec.runtime.tables import start_after, tokens
    a, b = load_spec("whatwg-iso-2022-jp")[1], load_spec(CPYTHON_JP)[1]
    kinds = ("only_a", "only_b", "different", "errors", "shifts", "tokens")
    found = {(pair["a"], pair["b"]): [(_ranges(p["pattern"]), p.get("end", False)) for k in kinds for p in pair[k]]
             for pair in jp_diff["modes"]}
    missed = []
    for n in (1, 2, 3):
        for data in map(bytes, itertools.product(ALPHABET, repeat=n)):
            if _outcome_whatwg(data) == _outcome_cpython(data):
                continue
            ta = [t[:4] for t in tokens(a, data)]
            tb = [t[:4] for t in tokens(b, data)]
            assert ta != tb, data.hex(" ")  # the specs equal their references (tests elsewhere)
            k = next(k for k, (x, y) in enumerate(itertools.zip_longest(ta, tb)) if x != y)
            at = (ta[k] if k < len(ta) else tb[k])[1]
            modes = tuple(mode_name(x, start_after(x, data, x.modes[0].start, at)) for x in (a, b))
            rest = data[at:]
            if not any(_matches(r, rest, end) for r, end in found.get(modes, [])):
                missed.append((data.hex(" "), modes))
    assert not missed, missed[:20]


def test_encoders_differ_exactly_where_the_references_do(jp_diff):
    """Each code point of the BMP alone in a text: the runs reported are the code points
    the two references write differently, with the references' bytes."""
    runs = [(kind, r) for kind, rs in jp_diff["encoder"].items() for r in rs]
    reported = {cp for _, r in runs for cp in range(r["first"], r["last"] + 1)}

    def whatwg_bytes(cp):
        try:
            return whatwg.encode([cp])
        except ValueError:  # the oracle's "cannot encode"
            return None

    def cpython_bytes(cp):
        try:
            return chr(cp).encode("iso2022_jp")
        except UnicodeEncodeError:
            return None

    differing = {cp for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF
                 and whatwg_bytes(cp) != cpython_bytes(cp)}
    assert differing == reported
    hexed = lambda b: None if b is None else b.hex(" ").upper()  # noqa: E731
    for kind, r in runs:
        assert (r["a"], r["b"]) == (hexed(whatwg_bytes(r["first"])), hexed(cpython_bytes(r["first"])))
        assert (r["a"] is None) == (kind == "only_b") and (r["b"] is None) == (kind == "only_a")


def test_diff_between_a_spec_with_modes_and_one_without(capsys):
    rc, out, err = run_cli(capsys, "diff", "hz", "gb2312")
    assert rc == 1 and not err
    assert "in ascii / (no modes) (where the data starts):" in out
    assert "in gb / (no modes) (after 7E 7B):" in out
