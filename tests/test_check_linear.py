"""`encspec check` grows linearly with the number of holes and skips (issue 14).

``total`` used to walk the list of holes and skips for every code point it
stepped to, so a spec with 4,000 one-code-point ``ill-formed`` statements spent
0.7 s in it (and 1.2 s in ``encspec check``): 16 times the statements took
about 100 times as long.  Here the analysis ``encspec check`` runs
(``encspec.analyse.properties.check``, on the automaton of a spec written to a
tmp folder) is timed for N and 16 N statements, and the large run may take at
most 25 times the small one: a ratio of CPU times (time.process_time, the
garbage collector off, best of several runs: conftest.assert_linear), never a
timing.  A large run faster than 3 ms passes whatever the ratio (it then
measures noise, not the algorithm), and a run past its deadline fails instead
of hanging.
"""
from __future__ import annotations

import pytest

from conftest import assert_linear, run_cli
from encspec.analyse.properties import NAMES, check
from encspec.pipeline import load

N = 250          # the small spec; the large one has 16 N = 4,000 statements
RATIO = 25       # 16 times the statements may take at most 25 times as long
MIN_MEASURE = 0.02   # seconds: a small run repeats the analysis until it takes about this long
GUARD = 60.0     # seconds (wall clock): a run longer than this is a hang

SPACE = "encoding big\ncode-space U+0000..U+10FFFF\n"
UTF8 = ("form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080\n"
        "form 3: 1110xxxx 10xxxxxx{2} min U+0800\nform 4: 11110xxx 10xxxxxx{3} min U+10000\n")


def holes(n: int, forms: str = UTF8) -> str:
    """UTF-8 with n one-code-point holes, one in every 257 code points of the 4-byte range."""
    return SPACE + "".join(f"ill-formed U+{0x10000 + 257 * i:04X}\n" for i in range(n)) + forms


def skips(n: int) -> str:
    """Packed UTF-8-like forms with n skipped code points in the 3-byte range."""
    return (SPACE + "numbering packed\n" + "".join(f"skip U+{0x1000 + 2 * i:04X}\n" for i in range(n))
            + "form 1: 00..7F\nform 2: C2..DF 80..BF\nform 3: E0..EF 80..BF 80..BF\n"
              "form 4: F0..F4 80..BF 80..BF 80..BF\n")


def automaton(tmp_path, name: str, text: str):
    """The automaton of *text* written to tmp_path/name, loaded as ``encspec check`` loads it."""
    path = tmp_path / f"{name}.encspec"
    path.write_text(text, encoding="utf-8")
    return load(str(path))[1]


@pytest.mark.parametrize("make", [holes, skips], ids=lambda f: f.__name__)
def test_check_time_grows_linearly(tmp_path, make):
    small, large = automaton(tmp_path, "small", make(N)), automaton(tmp_path, "large", make(16 * N))
    assert len(large.holes) + len(large.skips) == 16 * N  # each statement is its own exclusion
    report = check(large)
    assert report.properties == {name: True for name in NAMES}
    assert_linear(f"{make.__name__}: check", check, small, large, scale=16, bound=RATIO,
                  min_measure=MIN_MEASURE, small_guard=GUARD, large_guard_floor=GUARD)


def test_total_names_the_first_gap_between_holes(tmp_path):
    """Without its 4-byte form, the code space's first unencodable code point is the one
    after the first hole (U+10000 is excluded); holes further up change nothing."""
    text = holes(16 * N, UTF8.split("form 4:")[0])
    report = check(automaton(tmp_path, "gap", text), only=["total"])
    assert report.properties == {"total": False}
    assert report.counterexamples == {"total": ["U+10001"]}


def test_total_steps_over_adjacent_holes_and_rows(tmp_path):
    """Holes that touch each other and the rows' ends merge into one run: the gap is after all of them."""
    text = (SPACE + "".join(f"ill-formed U+{0x10000 + i:04X}\n" for i in range(16 * N))
            + UTF8.split("form 4:")[0])
    report = check(automaton(tmp_path, "adjacent", text), only=["total"])
    assert report.counterexamples == {"total": [f"U+{0x10000 + 16 * N:04X}"]}


def test_check_command_on_many_holes(tmp_path, capsys):
    path = tmp_path / "holes.encspec"
    path.write_text(holes(16 * N), encoding="utf-8")
    rc, out, err = run_cli(capsys, "check", path)
    assert (rc, err) == (0, "")
    assert out.splitlines()[NAMES.index("total")].split() == ["total", "yes"]
