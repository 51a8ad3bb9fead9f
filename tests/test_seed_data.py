"""tests/data holds what the tests need from outside documents; here it is
compared with its sources when ../shared is beside the checkout (CI has it).

Without ../shared these tests are skipped with that reason; every other test
reads tests/data and runs the same on a plain clone.
"""
from __future__ import annotations

import re

import pytest

from conftest import DATA, excerpt

EXCERPTS = ["corrected-utf-8-table.txt", "utf-inf-8-examples.txt"]
CORPORA = ["kuhn-UTF-8-test.txt", "kuhn-cases.json"]


def _source(name: str):
    """(seed file, first line, last line) from the excerpt's own note."""
    note = (DATA / name).read_text("utf-8").splitlines()[0]
    m = re.match(r"# Verbatim excerpt of shared/seeds/(\S+), lines (\d+)-(\d+):", note)
    assert m, f"{name}: the first line must say where the excerpt comes from"
    return m[1], int(m[2]), int(m[3])


@pytest.mark.parametrize("name", EXCERPTS)
def test_excerpt_is_the_seed_text_verbatim(shared, name):
    seed, first, last = _source(name)
    lines = (shared / "seeds" / seed).read_text("utf-8").splitlines(keepends=True)
    assert excerpt(name) == "".join(lines[first - 1:last])


@pytest.mark.parametrize("name", CORPORA)
def test_corpus_is_the_shared_file_byte_for_byte(shared, name):
    assert (DATA / name).read_bytes() == (shared / "corpora" / name).read_bytes()


@pytest.mark.parametrize("name", EXCERPTS)
def test_excerpt_notes_where_it_comes_from(name):
    seed, first, last = _source(name)
    assert seed.endswith(".txt") and 0 < first <= last
    assert excerpt(name).strip(), "the excerpt holds text"
