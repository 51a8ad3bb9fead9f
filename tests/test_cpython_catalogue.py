"""CPython's single-byte codecs as built-in specs, under CPython's names and aliases."""
from __future__ import annotations

import subprocess
import sys

import pytest

from encspec.pipeline import load
from encspec.spec import registry
from encspec.spec.diagnostics import SpecError


def test_aliases_may_start_with_a_digit_or_hold_dots(tmp_path):
    """CPython's aliases include 1252 and ansi_x3.4_1968: the spec language says them."""
    spec = tmp_path / "toy.encspec"
    spec.write_text("encoding toy\naliases 1252, windows-1252, ansi_x3.4_1968\n"
                    "code-space U+0000..U+007F\nform ascii: 00..7F\n", "utf-8")
    assert load(str(spec))[0].aliases == ("1252", "windows-1252", "ansi_x3.4_1968")
    spec.write_text("encoding toy\naliases 1252, Windows\ncode-space U+0000..U+007F\nform ascii: 00..7F\n", "utf-8")
    with pytest.raises(SpecError) as e:
        load(str(spec))
    assert "2:15" in str(e.value) and "expected a name (1252, latin-1)" in str(e.value)


def test_an_alias_never_shadows_another_builtins_name(tmp_path):
    """A spec naming another's name as its alias, before it and after it in file order: the
    name wins (a fresh interpreter: the registry reads the specs' folder once)."""
    (tmp_path / "aaa.encspec").write_text("encoding aaa\naliases bbb, ccc\n", "utf-8")
    (tmp_path / "bbb.encspec").write_text("encoding bbb\n", "utf-8")
    (tmp_path / "zzz.encspec").write_text("encoding zzz\naliases bbb, aaa\n", "utf-8")
    code = ("import sys, pathlib\nfrom encspec.spec import registry\n"
            "registry.specs_dir = lambda: pathlib.Path(sys.argv[1])\n"
            "print(*(registry.find_builtin(n).stem for n in ('bbb', 'aaa', 'CCC', 'zzz')))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["bbb", "aaa", "aaa", "zzz"]
