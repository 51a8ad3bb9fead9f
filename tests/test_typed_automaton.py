"""The automaton is immutable typed data, and everything derives validity from it.

Expected values here are written by hand from UTF-8's definition (RFC 3629):
two-byte sequences C2 80 .. DF BF spell U+0080 .. U+07FF, 1920 code points.
"""
from __future__ import annotations

import dataclasses
import json
import types

import pytest

from conftest import representative_builtins
from encspec.automaton import Automaton
from encspec.automaton.minimise import moore_blocks
from encspec.cli import main
from encspec.pipeline import load
from encspec.spec import registry
from encspec.spec.expr import BinOp, Int, Var, evaluate, text

BUILTINS = representative_builtins()
UTF8 = (registry.specs_dir() / "utf-8.encspec").read_text("utf-8")


def _without_claims(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("claims"))


def _spec(tmp_path, body: str, name: str = "variant") -> str:
    path = tmp_path / f"{name}.encspec"
    path.write_text(body, "utf-8")
    return str(path)


# ------------------------------------------------------------- typed data
def _walk(value, where: str):
    """Every value reachable from the automaton must be immutable."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return
    if isinstance(value, tuple):
        for k, v in enumerate(value):
            _walk(v, f"{where}[{k}]")
        return
    if isinstance(value, types.MappingProxyType):
        for k, v in value.items():
            _walk(v, f"{where}[{k!r}]")
        return
    assert dataclasses.is_dataclass(value), f"{where} is a {type(value).__name__}, not a dataclass"
    assert type(value).__dataclass_params__.frozen, f"{where}: {type(value).__name__} is not frozen"
    for f in dataclasses.fields(value):
        _walk(getattr(value, f.name), f"{where}.{f.name}")


@pytest.mark.parametrize("name", BUILTINS)
def test_the_automaton_is_frozen_dataclasses_all_the_way_down(name):
    automaton = load(name)[1]
    assert isinstance(automaton, Automaton)
    _walk(automaton, name)


@pytest.mark.parametrize("name", BUILTINS)
def test_no_automaton_object_is_read_like_a_dict(name):
    automaton = load(name)[1]
    for obj in list(automaton.actions) + list(automaton.forms.values()) + list(automaton.extensions):
        with pytest.raises(TypeError):
            obj["kind"]


def test_actions_are_identified_by_what_they_compute():
    # UTF-8's four forms all compute "acc + 0": one action, named by all four
    automaton = load("utf-8")[1]
    assert len(automaton.actions) == 1
    assert automaton.actions[0].forms == ("1", "2", "3", "4")
    assert automaton.n_states == 9  # Höhrmann's DFA


def test_expressions_are_data_with_one_evaluator():
    e = BinOp("*", BinOp("//", BinOp("+", Var("nme"), Int(20)), Int(3)), Int(2))
    assert evaluate(e, {"nme": 1}) == 14  # (1 + 20) // 3 * 2, UTF-∞-8's digit count
    assert text(e) == "(((nme + 20) // 3) * 2)"


def test_one_minimiser_serves_the_automaton_and_diff():
    # states 1 and 2 both accept and go nowhere: one block; state 0 differs by label
    assert moore_blocks(["start", "end", "end"], [[1, 2], [-1, -1], [-1, -1]]) == [0, 1, 1]
    # same labels, different targets: they split
    assert moore_blocks(["x", "x", "y"], [[2], [1], [2]]) == [0, 1, 2]


# -------------------------------------------- validity from the automaton
LATIN1_PATTERN = 'ill-formed pattern bad: <2 U+0080..U+00FF> "latin-1 range"\n'


def test_an_ill_formed_pattern_removes_its_code_points_from_every_analysis(tmp_path, capsys):
    path = _spec(tmp_path, _without_claims(UTF8) + "\n" + LATIN1_PATTERN)
    assert main(["check", path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["lengths"]["2"] == 1920 - 128
    assert report["properties"]["total"] is False
    assert report["counterexamples"]["total"] == ["U+0080"]
    assert report["properties"]["bijective"] is True
    assert main(["describe", path]) == 0
    rows = capsys.readouterr().out
    assert "C4 80 … DF BF" in rows and "0000 0100 … 0000 07FF" in rows
    assert "C2 80" not in rows


def test_the_encoder_never_writes_what_the_decoder_rejects(tmp_path):
    import encspec
    module = encspec.load(_spec(tmp_path, _without_claims(UTF8) + "\n" + LATIN1_PATTERN), backend="python")
    with pytest.raises(UnicodeEncodeError) as got:
        module.encode([0x80])
    assert got.value.start == 0
    with pytest.raises(UnicodeDecodeError) as bad:
        module.decode(b"\xc2\x80")
    assert bad.value.reason == "latin-1 range"
    assert module.encode([0x7F, 0x100]) == b"\x7f\xc4\x80"


def test_a_pattern_over_several_characters_needs_combine(tmp_path, capsys):
    body = _without_claims(UTF8) + '\nill-formed pattern ab: 41 42 "AB"\n'
    path = _spec(tmp_path, body)
    assert main(["describe", path]) == 2
    err = capsys.readouterr().err
    line = len(body.splitlines())
    assert err.splitlines()[0] == (
        f"{path}:{line}:1: ill-formed pattern 'ab' spans several characters (41 is already one), so an "
        "encoder writing them one by one would produce it: add `combine surrogate-pair` (encoders then join "
        "the two) or match within one form")
    assert err.splitlines()[2].strip() == "^"
