"""Every backend is a registered target that declares what it supports (issue 13, "Layout").

A spec a target cannot hold is refused with one line and a non-zero exit
before anything is written: by `encspec export`, `encspec build` and
`encspec build --native`.  The refused spec below is written here by hand: a
form placed beyond 2**64 (C, Rust and the native extension hold offsets in 64
bits, Java in 63).  A counted form whose range is not a power of two used to be
refused by some targets only; it is now a spec error for all of them
(tests/test_spec_errors.py), since every backend decides counted forms from bit
lengths.
"""
from __future__ import annotations

import dataclasses

import pytest

from conftest import representative_builtins
from encspec import pipeline
from encspec.cli import main
from encspec.emit import targets as T
from encspec.spec import registry

BUILTIN = representative_builtins()
ALL = {"python", "native", "c", "rust", "js", "java", "json"}

BIG_OFFSET = """encoding big-offset
title    "a two-byte form placed beyond 2**63"
code-space U+0000..

form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx      at U+100000000000000000
"""

# spec -> the targets that must refuse it (all others must take it)
REFUSED = {"big.encspec": {"c", "rust", "native", "java"}}


@pytest.fixture
def specs(tmp_path):
    (tmp_path / "big.encspec").write_text(BIG_OFFSET, "utf-8")
    return tmp_path


def run(capsys, *args):
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_failure(rc, err):
    assert rc != 0
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("encspec: error: ")


def test_every_backend_is_a_registered_target():
    found = T.targets()
    assert set(found) == ALL
    assert set(T.exports()) == {"c", "rust", "js", "java", "json"}  # python and native are built, not exported
    for name, target in found.items():
        assert target.name == name and callable(target.supports) and target.describe


@pytest.mark.parametrize("spec", BUILTIN)
def test_every_builtin_spec_is_supported_by_python_and_json(spec):
    _, a = pipeline.load(spec)
    for name in ("python", "json"):
        assert T.targets()[name].supports(a) is None, name
    stem = registry.module_name(a.name)
    python = T.render_files(a, "python")
    assert list(python) == [f"{stem}.py"] and "def decode(" in python[f"{stem}.py"]
    table = T.render_files(a, "json")
    assert list(table) == [f"{stem}.json"] and table[f"{stem}.json"].lstrip().startswith("{")


@pytest.mark.parametrize("spec", sorted(REFUSED))
def test_support_is_declared_and_agrees_with_rendering(specs, spec):
    """supports() says no exactly where rendering the files would fail, with one line naming the target."""
    _, a = pipeline.load(str(specs / spec))
    for name, target in T.targets().items():
        why = target.supports(a)
        if name in REFUSED[spec]:
            assert isinstance(why, str) and "\n" not in why and f"{name} target" in why, (name, why)
            with pytest.raises(T.Unsupported) as e:
                pipeline.render_files(a, name)
            assert e.value.target == name and len(e.value.render().splitlines()) == 1
        else:
            assert why is None, (name, why)
            assert pipeline.render_files(a, name)


@pytest.mark.parametrize("spec,lang", [("big.encspec", "rust"), ("big.encspec", "java"), ("big.encspec", "c")])
def test_export_refuses_an_unsupported_spec_and_writes_nothing(specs, capsys, spec, lang):
    fresh = specs / "fresh"
    rc, out, err = run(capsys, "export", specs / spec, "--lang", lang, "-o", fresh)
    one_line_failure(rc, err)
    assert f"the {lang} target" in err and spec in err and out == ""
    assert not fresh.exists()
    existing = specs / "existing"
    existing.mkdir()
    rc, out, err = run(capsys, "export", specs / spec, "--lang", lang, "-o", existing)
    one_line_failure(rc, err)
    assert list(existing.iterdir()) == []


def test_export_of_a_supported_target_still_writes(specs, capsys):
    rc, out, err = run(capsys, "export", specs / "big.encspec", "--lang", "js", "-o", specs / "js")
    assert (rc, err) == (0, "")
    assert (specs / "js" / "big_offset.mjs").is_file()


def test_build_native_refuses_before_compiling(specs, capsys, monkeypatch):
    cache = specs / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    rc, out, err = run(capsys, "build", "--native", specs / "big.encspec")
    one_line_failure(rc, err)
    assert "the native target" in err
    assert not cache.exists()


def test_build_leaves_out_a_native_backend_it_cannot_have(specs, capsys):
    rc, out, err = run(capsys, "build", specs / "big.encspec", "-o", specs / "out")
    assert (rc, err) == (0, "")
    assert (specs / "out" / "big_offset.py").is_file() and (specs / "out" / "tables" / "big_offset.json").is_file()
    assert not (specs / "out" / "native").exists()


def test_build_refuses_when_a_required_target_does(specs, capsys, monkeypatch):
    """build needs the python target: a refusal stops it before the first file."""
    python = T.targets()["python"]
    monkeypatch.setitem(T.REGISTRY, "python", dataclasses.replace(python, supports=lambda a: "no reason at all"))
    rc, out, err = run(capsys, "build", "utf-8", "-o", specs / "out")
    one_line_failure(rc, err)
    assert "the python target does not support this spec: no reason at all" in err
    assert not (specs / "out").exists()
