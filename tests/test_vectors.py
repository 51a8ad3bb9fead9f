"""`encspec vectors`: the conformance files in generated/vectors/ pass against the
generated modules and, independently, against the hand-written oracles."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

import encspec
from encspec.spec import registry
from encspec.analyse import vectors
from encspec.runtime.tables import tokens as run_tokens
from encspec.cli import main
from encspec.pipeline import load

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "generated" / "vectors"
SPECS = registry.builtin_names()


def module_name(spec: str) -> str:
    return registry.module_name(load(spec)[1].name)


def read_jsonl(spec: str) -> list[dict]:
    return [json.loads(line) for line in (VECTORS / f"{module_name(spec)}.jsonl").read_text("utf-8").splitlines()]


def expected(case: dict) -> list[tuple]:
    return [(k, s, e, None if v is None else int(v, 16)) for k, s, e, v in case["tokens"]]


def test_every_builtin_spec_has_both_files():
    names = {module_name(s) for s in SPECS}
    assert {p.stem for p in VECTORS.glob("*.txt")} == names
    assert {p.stem for p in VECTORS.glob("*.jsonl")} == names


@pytest.mark.parametrize("spec", SPECS)
def test_vectors_pass_against_the_generated_module(spec):
    module = encspec.load(spec)
    cases = read_jsonl(spec)
    assert len(cases) > 100
    for case in cases:
        assert set(case) == {"bytes", "tokens", "note"}
        data = bytes.fromhex(case["bytes"])
        assert [tuple(t) for t in module.tokens(data)] == expected(case), case["note"]


@pytest.mark.parametrize("spec", SPECS)
def test_vectors_pass_against_the_oracle(spec):
    """The oracles are written from the documents and never import encspec."""
    name = module_name(spec)
    if not (ROOT / "tests" / "oracles" / f"{name}.py").exists():
        pytest.skip(f"no hand-written oracle for {spec}")
    oracle = importlib.import_module(f"oracles.{name}")
    failures = []
    for case in read_jsonl(spec):
        data = bytes.fromhex(case["bytes"])
        got = [tuple(t) for t in oracle.tokens(data)]
        if got != expected(case):
            failures.append((case["note"], case["bytes"], got, expected(case)))
    assert not failures, failures[:5]


@pytest.mark.parametrize("spec", SPECS)
def test_text_and_jsonl_hold_the_same_cases(spec):
    text = vectors.parse_text((VECTORS / f"{module_name(spec)}.txt").read_text("utf-8"))
    cases = read_jsonl(spec)
    assert [(t[1], t[2]) for t in text] == [(bytes.fromhex(c["bytes"]), expected(c)) for c in cases]
    assert [t[0] for t in text] == [c["note"].split(" ", 1)[0] for c in cases]  # the same numbering


@pytest.mark.parametrize("spec", SPECS)
def test_vector_inputs_are_the_files_inputs(spec):
    a = load(spec)[1]
    inputs = vectors.vector_inputs(a)
    assert inputs == [bytes.fromhex(c["bytes"]) for c in read_jsonl(spec)]
    assert len(set(inputs)) == len(inputs) and all(inputs)
    assert vectors.vector_inputs(a) == inputs  # deterministic


@pytest.mark.parametrize("spec", SPECS)
def test_expected_tokens_are_the_reference_tokenizers(spec):
    a = load(spec)[1]
    for case in read_jsonl(spec)[::7]:
        data = bytes.fromhex(case["bytes"])
        assert [t[:4] for t in run_tokens(a, data)] == expected(case)


def test_utf8_vectors_agree_with_cpython():
    for case in read_jsonl("utf-8"):
        data = bytes.fromhex(case["bytes"])
        rendered = "".join("\ufffd" if k == "error" else chr(v) for k, _, _, v in expected(case))
        assert data.decode("utf-8", "replace") == rendered, case["note"]


def _error_shapes(a, inputs):
    """(class of the first byte, length, reason) of every error token."""
    shapes = set()
    for data in inputs:
        for kind, start, end, _, why in run_tokens(a, data):
            if kind == "error":
                shapes.add((a.classes[data[start]], end - start, why))
    return shapes


def test_utf8_vectors_cover_every_kind_of_error_in_kuhns_test(corpora):
    a = load("utf-8")[1]
    kuhn = [bytes.fromhex(c["hex"]) for c in json.loads((corpora / "kuhn-cases.json").read_text("utf-8"))]
    ours = _error_shapes(a, vectors.vector_inputs(a))
    assert _error_shapes(a, kuhn) <= ours


def test_utf8_vectors_hold_the_classic_cases():
    inputs = set(vectors.vector_inputs(load("utf-8")[1]))
    for hx in ("00", "7F", "C280", "DFBF", "E0A080", "EFBFBF", "F0908080", "F48FBFBF",  # boundaries
               "ED9FBF", "EE8080",                                                   # around the hole
               "80", "BF", "C0", "C1", "F5", "FE", "FF",                            # stray and impossible
               "C0AF", "E080AF", "F08080AF", "C1BF", "E09FBF", "F08FBFBF",           # overlongs (Kuhn 4)
               "EDA080", "EDBFBF", "EDA080EDB080", "EDAFBFEDBFBF",                   # surrogates (Kuhn 5)
               "F4908080", "F7BFBFBF",                                               # beyond U+10FFFF
               "E080", "E0A0", "F09080", "C2", "E0A020"):                            # truncations
        assert bytes.fromhex(hx) in inputs, hx
    # every lead byte starts a case, and every byte occurs in one
    assert {d[0] for d in inputs} >= set(range(0xC0, 0x100))
    assert {x for d in inputs for x in d} >= set(range(0x80, 0x100))


def test_other_specs_cover_their_own_features():
    cutf8 = set(vectors.vector_inputs(load("corrected-utf-8")[1]))
    sig = bytes.fromhex("EFB79DEDB2AE000A")
    assert sig in cutf8 and b" " + sig in cutf8 and sig[:3] in cutf8          # signature at 0, after 0, cut
    assert b"\xfe" in cutf8 and b"\xfe\x80" in cutf8 and b"\xff\xfe" in cutf8  # reserved runs
    inf = vectors.vector_inputs(load("utf-inf-8")[1])
    assert any(d.startswith(b"\xff\xb4") for d in inf)                         # counted-form headers
    assert any(d.startswith(b"\xff\xa0") for d in inf)
    wtf8 = set(vectors.vector_inputs(load("wtf-8")[1]))
    assert bytes.fromhex("EDA080EDB080") in wtf8                                # the ill-formed pair
    mutf8 = set(vectors.vector_inputs(load("mutf-8")[1]))
    assert b"\x00" in mutf8 and b"\xc0\x80" in mutf8


def test_the_command_writes_both_formats(tmp_path, capsys):
    assert main(["vectors", "utf-8", "-o", str(tmp_path / "v.jsonl")]) == 0
    assert (tmp_path / "v.jsonl").read_text("utf-8") == (VECTORS / "utf_8.jsonl").read_text("utf-8")
    assert main(["vectors", "utf-8", "-o", str(tmp_path / "v.txt")]) == 0
    assert (tmp_path / "v.txt").read_text("utf-8") == (VECTORS / "utf_8.txt").read_text("utf-8")
    assert main(["vectors", "utf-8", "-o", str(tmp_path / "v.out"), "--format", "jsonl"]) == 0
    json.loads((tmp_path / "v.out").read_text("utf-8").splitlines()[0])
    # like mkdir -p, the folder that holds the output is made
    assert main(["vectors", "utf-8", "-o", str(tmp_path / "no" / "v.txt")]) == 0
    assert (tmp_path / "no" / "v.txt").read_text("utf-8") == (VECTORS / "utf_8.txt").read_text("utf-8")


def test_the_text_file_reads_like_kuhns():
    text = (VECTORS / "utf_8.txt").read_text("utf-8")
    assert text.startswith("utf-8: conformance test vectors\n")
    assert "\n1  Some correct text\n" in text and "\n4  Overlong sequences\n" in text
    assert "       bytes   C0 AF\n" in text
    assert "tokens  error 0 1 (invalid start byte); error 1 2 (invalid start byte)" in text
