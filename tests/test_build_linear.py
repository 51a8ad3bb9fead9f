"""Every stage of ``encspec build`` grows linearly with the spec (issue 34).

Each stage (parsing and compiling, the Python module, the tables JSON, the
conformance vectors, the pictures, the native C source, the C, Rust, JS and Java
exports) is timed on a generated spec of N and of 8 N statements (forms, special
sequences, alphabets, skips, holes, ill-formed patterns, signature bytes, table
lines), and the large run may take at most 2.5 * 8 times the small one (a
quadratic stage takes 64 times): a ratio of CPU times, best of several runs
(conftest.linear_growth), never a timing.  The automaton's tables are states x
byte classes: up to 256 classes, their width grows with the spec too, so the
specs of many forms start with 256 sequences that make every byte a class
(conftest.EVERY_BYTE_A_CLASS), and the ratio measures the growth in states.  The default run measures the stages each kind of statement was found to
be quadratic in, at sizes that cost a few seconds; every kind through every stage
is the slow test.

Before the fixes: a 2,000-byte signature spent 9 s in the vectors and 30 s in the
C export (every cut of the signature was a case with a token per byte: quadratic
in its length); 2,000 forms spent 5 s in the Python module, of which the test of
which forms' pieces clash compared every pair of forms.
"""
from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from conftest import (
    linear_growth,
    spec_with_alphabets,
    spec_with_forms,
    spec_with_holes,
    spec_with_literals,
    spec_with_patterns,
    spec_with_ranged_patterns,
    spec_with_signature,
    spec_with_skips,
    spec_with_table,
)
from encspec.analyse import charts, vectors
from encspec.automaton import compile_spec
from encspec.emit.targets import targets
from encspec.pipeline import render_files
from encspec.spec.index_files import read_index
from encspec.spec.parse import parse_file

SCALE = 8


def _vectors(a) -> None:
    cases = vectors.sections(a)
    vectors.text(a, cases), vectors.jsonl(a, cases)


def _native(a) -> None:
    if targets()["native"].supports(a) is None:
        render_files(a, "native")


STAGES = {
    "python": lambda a: render_files(a, "python"),
    "json": lambda a: render_files(a, "json"),
    "vectors": _vectors,
    "pictures": lambda a: (charts.codepage_svg(a), charts.automaton_dot(a)),
    "native": _native,
    **{lang: (lambda a, lang=lang: render_files(a, lang)) for lang in ("c", "rust", "js", "java")},
}


def spec_file(folder: Path, kind: str, n: int) -> Path:
    """The generated spec of *kind* with n statements (n table lines), written in *folder*."""
    folder.mkdir()
    if kind == "table":
        return spec_with_table(folder, n)
    many_forms = {"forms": spec_with_forms, "literals": spec_with_literals, "alphabets": spec_with_alphabets}
    others = {"skips": spec_with_skips, "holes": spec_with_holes, "patterns": spec_with_patterns,
              "ranged-patterns": spec_with_ranged_patterns, "signature": spec_with_signature}
    text = many_forms[kind](n, every_byte_a_class=True) if kind in many_forms else others[kind](n)
    path = folder / f"{kind}.encspec"
    path.write_text(text, encoding="utf-8")
    return path


def compiled(path: Path):
    """Parse and compile (what ``encspec build`` does first), every call afresh."""
    return compile_spec(parse_file(str(path)))


def assert_stages_linear(tmp_path, kind: str, n: int, stages) -> None:
    small, large = spec_file(tmp_path / "small", kind, n), spec_file(tmp_path / "large", kind, SCALE * n)
    a_small, a_large = compiled(small), compiled(large)
    failures = []
    if "load" in stages:
        why = linear_growth(lambda: compiled(small), lambda: compiled(large), SCALE)
        if why:
            failures.append(f"load: {why}")
    for name in stages:
        if name != "load":
            stage = STAGES[name]
            why = linear_growth(lambda stage=stage: stage(a_small), lambda stage=stage: stage(a_large), SCALE)
            if why:
                failures.append(f"{name}: {why}")
    assert not failures, f"{kind}, N = {n}: " + "; ".join(failures)


# (kind, N, the stages measured by default): each was quadratic there, or is the
# stage that kind of statement weighs on
QUICK = [
    ("signature", 250, ["load", *STAGES]),
    ("forms", 40, ["load", "python"]),
    ("literals", 40, ["load", "python"]),
    ("table", 4000, ["load", "json", "python"]),
    ("holes", 100, ["load", "python", "vectors"]),
    ("skips", 100, ["load", "python", "vectors"]),
    ("patterns", 100, ["load", "python", "vectors"]),
    ("ranged-patterns", 20, ["load", "python"]),    # ranges of counts {0,60}: one byte sequence per count
]


@pytest.mark.parametrize("kind, n, stages", QUICK, ids=[q[0] for q in QUICK])
def test_build_stages_grow_linearly(tmp_path, kind, n, stages):
    assert_stages_linear(tmp_path, kind, n, stages)


# every stage for every kind: minutes of CPU
FULL = [("signature", 500), ("forms", 60), ("literals", 60), ("alphabets", 60), ("table", 20000), ("holes", 250),
        ("skips", 250), ("patterns", 250)]


@pytest.mark.slow
@pytest.mark.parametrize("kind, n", FULL, ids=[f[0] for f in FULL])
def test_every_build_stage_grows_linearly(tmp_path, kind, n):
    assert_stages_linear(tmp_path, kind, n, ["load", *STAGES])


def test_signature_cases_are_linear_in_its_length(tmp_path):
    """A 2,000-byte signature's vectors hold a bounded number of cuts, not 1,999."""
    a = compiled(spec_file(tmp_path / "sig", "signature", 2000))
    data = [case.data for section in vectors.sections(a) for case in section.cases]
    cuts = sorted(len(d) for d in data if len(d) < 2000 and d == b"\xef" * len(d))
    assert vectors.signature_cuts(2000) == [1, 2, 3, 4, 5, 6, 7, 8, 1000, 1999]
    assert 1000 in cuts and set(cuts) <= set(vectors.signature_cuts(2000))  # cases are deduplicated
    assert sum(map(len, data)) < 20 * 2000


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_short_signatures_are_cut_after_every_byte(n):
    """Real signatures (2 to 8 bytes) keep every cut: the checked-in vectors do not change."""
    assert vectors.signature_cuts(n) == list(range(1, n))


def read_peak(path: Path) -> int:
    """tracemalloc's peak while read_index reads *path* (the spec's loc is not used on success)."""
    tracemalloc.start()
    try:
        read_index(str(path), "t.txt", None)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_table_file_memory_follows_its_entries(tmp_path):
    """A table file is read a line at a time: 8 times the entries take about 8 times the
    memory, and 50 comment lines an entry add next to nothing (before: the whole file
    was read, decoded and split, several times its size)."""
    n = 5000
    base = read_peak(spec_with_table(_dir(tmp_path, "n"), n))
    eight = read_peak(spec_with_table(_dir(tmp_path, "8n"), SCALE * n))
    commented = read_peak(spec_with_table(_dir(tmp_path, "comments"), n, comments=50 * n))
    assert eight <= 1.5 * SCALE * base, (base, eight)
    assert commented <= 1.5 * base, (base, commented)


def _dir(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder
