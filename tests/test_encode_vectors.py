"""The encode vectors (generated/vectors/NAME.encode.jsonl) every export's tests read.

They are computed by the core; here they are checked against an implementation that
is not encspec: CPython's codec of the same name, for every built-in that has one
(bytes or the first error's start, end and reason under strict, and the bytes under
replace).  The texts are CPython strs, so code points beyond U+10FFFF are left out
of that comparison; a BOM-writing codec is compared with its signature taken off.
"""
from __future__ import annotations

import encodings
import json
from pathlib import Path

import pytest

from conftest import ROOT
from encspec.spec import registry

VECTORS = ROOT / "generated" / "vectors"
SPECS = sorted(p.stem for p in (ROOT / "specs").glob("*.encspec"))


def _cases(spec: str) -> list[dict]:
    path = VECTORS / f"{registry.module_name(spec)}.encode.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").split("\n") if line.strip()]


def _cpython(spec: str) -> str | None:
    """CPython's own codec of that name (its encodings package, not a codec encspec or a
    test registered under the name), or None."""
    if spec.startswith("whatwg-"):
        return None
    info = encodings.search_function(spec.replace("-", "_"))
    return None if info is None else info.name


CPYTHON = [s for s in SPECS if _cpython(s) is not None]
BOM = {"utf-16": 2, "utf-32": 4}


def _outcome(name: str, text: str, errors: str, bom: int) -> object:
    try:
        return text.encode(name, errors)[bom:].hex().upper()
    except UnicodeEncodeError as e:
        return [e.start, e.end, e.reason]


def test_every_spec_has_cases_of_both_outcomes_where_it_has_both():
    for spec in SPECS:
        cases = _cases(spec)
        assert any("bytes" in c["strict"] and c["code_points"] for c in cases), spec
        assert {"code_points", "strict", "replace", "note"} == set(cases[0])


@pytest.mark.parametrize("spec", CPYTHON)
def test_encode_vectors_equal_cpythons_codec(spec):
    name = _cpython(spec)
    compared = 0
    for case in _cases(spec):
        cps = [int(c, 16) for c in case["code_points"]]
        if any(c > 0x10FFFF for c in cps):
            continue
        text = "".join(map(chr, cps))
        bom = BOM.get(spec, 0)  # CPython writes it for the empty text too
        strict = case["strict"].get("bytes", case["strict"].get("error"))
        assert _outcome(name, text, "strict", bom) == strict, case["note"]
        replace = _outcome(name, text, "replace", bom)
        assert (replace if isinstance(replace, str) else None) == case["replace"], case["note"]
        compared += 1
    assert compared >= 10


def test_the_vectors_hold_errors_for_every_spec_that_refuses_a_surrogate():
    """Every UTF-8-family, table and code-unit spec refuses U+D800 alone (WTF-8, WTF-16,
    CESU-8's and MUTF-8's own rules aside): its vectors say where and why."""
    for spec in ("utf-8", "utf-16", "big5", "cp1252", "gb18030", "shift_jis"):
        errors = [c for c in _cases(spec) if c["code_points"] == ["D800"]]
        assert errors and "error" in errors[0]["strict"], spec
        assert errors[0]["strict"]["error"][:2] == [0, 1]


def test_exported_packages_read_the_same_cases():
    from encspec import pipeline
    from encspec.emit.package_tests import encode_cases
    a = pipeline.load("big5hkscs")[1]
    source, cases = encode_cases(a)
    assert "big5hkscs.encode.jsonl" in source
    assert len(cases) == len(_cases("big5hkscs"))
    seq = next(c for c in cases if c["code_points"] == [0xCA, 0x304])
    assert seq["strict"] == {"bytes": b"\x88\x62"}


def test_a_spec_given_by_path_gets_computed_cases(tmp_path: Path):
    from encspec import pipeline
    from encspec.analyse import encode_vectors
    from encspec.emit.package_tests import encode_cases
    spec = tmp_path / "mine.encspec"
    spec.write_text((ROOT / "specs" / "utf-8.encspec").read_text("utf-8").replace("encoding utf-8", "encoding mine", 1))
    a = pipeline.load(str(spec))[1]
    with pytest.raises(ValueError, match="no checked-in encode vectors"):
        encode_cases(a)
    source, cases = encode_cases(a, encode_vectors.jsonl(a))
    assert "computed at export time" in source
    assert any(c["strict"] == {"error": (0, 1, "surrogates not allowed")} for c in cases if c["code_points"] == [0xD800])
