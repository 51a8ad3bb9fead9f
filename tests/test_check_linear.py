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

from conftest import BIG_SPACE, UTF8_FORMS, assert_linear, run_cli, spec_with_holes, spec_with_skips
from encspec.analyse.properties import NAMES, check
from encspec.pipeline import load

N = 250          # the small spec; the large one has 16 N = 4,000 statements
RATIO = 25       # 16 times the statements may take at most 25 times as long
MIN_MEASURE = 0.02   # seconds: a small run repeats the analysis until it takes about this long
GUARD = 60.0     # seconds (wall clock): a run longer than this is a hang

def automaton(tmp_path, name: str, text: str):
    """The automaton of *text* written to tmp_path/name, loaded as ``encspec check`` loads it."""
    path = tmp_path / f"{name}.encspec"
    path.write_text(text, encoding="utf-8")
    return load(str(path))[1]


@pytest.mark.parametrize("make", [spec_with_holes, spec_with_skips], ids=lambda f: f.__name__)
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
    text = spec_with_holes(16 * N, UTF8_FORMS.split("form 4:")[0])
    report = check(automaton(tmp_path, "gap", text), only=["total"])
    assert report.properties == {"total": False}
    assert report.counterexamples == {"total": ["U+10001"]}


def test_total_steps_over_adjacent_holes_and_rows(tmp_path):
    """Holes that touch each other and the rows' ends merge into one run: the gap is after all of them."""
    text = (BIG_SPACE + "".join(f"ill-formed U+{0x10000 + i:04X}\n" for i in range(16 * N))
            + UTF8_FORMS.split("form 4:")[0])
    report = check(automaton(tmp_path, "adjacent", text), only=["total"])
    assert report.counterexamples == {"total": [f"U+{0x10000 + 16 * N:04X}"]}


def test_check_command_on_many_holes(tmp_path, capsys):
    path = tmp_path / "holes.encspec"
    path.write_text(spec_with_holes(16 * N), encoding="utf-8")
    rc, out, err = run_cli(capsys, "check", path)
    assert (rc, err) == (0, "")
    assert out.splitlines()[NAMES.index("total")].split() == ["total", "yes"]
