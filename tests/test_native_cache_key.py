"""The native build cache is keyed by the compiler and its flags (issue 34, item 5):
an extension built with other ``CC``, ``CFLAGS`` or ``LDFLAGS`` (a sanitizer build)
is never reused where it may not load, and an unchanged environment finds its own.

Nothing is compiled here: the compilers are small scripts in tmp_path that only
answer ``--version``.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from encspec.emit.native import build as native_build

SPEC, SOURCE = "ab" * 32, "cd" * 32


def fake_compiler(folder: Path, name: str, version: str) -> Path:
    """An executable that prints *version* for ``--version``, as gcc and clang do."""
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{version}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A clean compiler environment: $CC a fake compiler, no $CFLAGS or $LDFLAGS."""
    for var in ("CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("CC", str(fake_compiler(tmp_path, "fakecc", "fakecc 1.0")))
    return monkeypatch


def key() -> str:
    return native_build.cache_key(SPEC, SOURCE)


def test_an_unchanged_environment_gives_the_same_key(env):
    assert key() == key()


@pytest.mark.parametrize("var, value", [("CFLAGS", "-fsanitize=address"), ("LDFLAGS", "-fsanitize=address"),
                                        ("CFLAGS", "-O0 -g")])
def test_each_flag_variable_changes_the_key(env, var, value):
    before = key()
    env.setenv(var, value)
    changed = key()
    assert changed != before
    env.delenv(var)
    assert key() == before  # and back again: the old build is found


def test_another_compiler_changes_the_key(env, tmp_path):
    before = key()
    env.setenv("CC", str(fake_compiler(tmp_path, "othercc", "fakecc 1.0")))
    assert key() != before


def test_the_same_compiler_path_with_another_version_changes_the_key(env, tmp_path):
    before = key()
    cc = Path(os.environ["CC"])
    cc.write_text("#!/bin/sh\necho 'fakecc 2.0 (a longer version line)'\n")  # an upgrade in place
    assert key() != before


def test_a_compiler_found_on_path_is_keyed_by_where_it_is(env, tmp_path):
    """$CC=name is looked up on PATH: two folders holding a compiler of that name differ."""
    first, second = tmp_path / "one", tmp_path / "two"
    for folder in (first, second):
        folder.mkdir()
        fake_compiler(folder, "cc-named", "same 1.0")
    env.setenv("CC", "cc-named")
    env.setenv("PATH", f"{first}{os.pathsep}{os.environ['PATH']}")
    one = key()
    env.setenv("PATH", f"{second}{os.pathsep}{os.environ['PATH']}")
    assert key() != one


def test_a_missing_compiler_still_gives_a_key(env):
    env.setenv("CC", "no-such-compiler-here")
    assert len(key()) == 64
