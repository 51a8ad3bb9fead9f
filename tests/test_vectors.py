"""`encspec vectors`: the conformance files in generated/vectors/ pass against the
generated modules and, independently, against the hand-written oracles."""
from __future__ import annotations

import codecs
import importlib
import json
import re
from pathlib import Path

import pytest

import encspec
from conftest import representative_builtins, single_byte_builtins
from encspec.analyse import vectors
from encspec.cli import main
from encspec.pipeline import load
from encspec.runtime.tables import tokens as run_tokens
from encspec.spec import registry
from oracles import whatwg_single_byte

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "generated" / "vectors"
SPECS = registry.builtin_names()
PER_SPEC = representative_builtins()  # the single-byte catalogue: its stand-ins (conftest)


def module_name(spec: str) -> str:
    return registry.module_name(load(spec)[1].name)


def read_jsonl(spec: str) -> list[dict]:
    return [json.loads(line) for line in (VECTORS / f"{module_name(spec)}.jsonl").read_text("utf-8").splitlines()]


def expected(case: dict) -> list[tuple]:
    return [(k, s, e, None if v is None else _value(v)) for k, s, e, v in case["tokens"]]


def _value(v):
    """A token's value as the vectors write it: hex, or CA+304 for a pointer of several code points
    ("" for a run of digits that holds none: UTF-7's "+" at the data's end)."""
    if not v:
        return ()
    return tuple(int(x, 16) for x in v.split("+")) if "+" in v else int(v, 16)


def test_every_builtin_spec_has_its_three_files():
    names = {module_name(s) for s in SPECS}
    assert {p.stem for p in VECTORS.glob("*.txt")} == names
    assert {p.stem for p in VECTORS.glob("*.jsonl") if not p.name.endswith(".encode.jsonl")} == names
    assert {p.name[:-len(".encode.jsonl")] for p in VECTORS.glob("*.encode.jsonl")} == names


@pytest.mark.parametrize("spec", PER_SPEC)
def test_vectors_pass_against_the_generated_module(spec):
    module = encspec.load(spec)
    cases = read_jsonl(spec)
    a = load(spec)[1]
    # a boundary of every row and pointer run: a single-byte code page has a handful, and an
    # undecodable spec's bytes are all one error, so only the corpora add more
    assert len(cases) > (3 if a.max_length == 1 or a.undecodable else 100)
    for case in cases:
        assert set(case) == {"bytes", "tokens", "note"}
        data = bytes.fromhex(case["bytes"])
        assert [tuple(t) for t in module.tokens(data)] == expected(case), case["note"]


WITH_ORACLE = [s for s in SPECS if (ROOT / "tests" / "oracles" / f"{module_name(s)}.py").exists()]
# The CPython variants' reference is CPython's codec of the same name itself.
CPYTHON = {"shift_jis": "shift_jis", "cp932": "cp932", "euc-jp": "euc_jp", "euc-kr": "euc_kr", "big5": "big5",
           "gb18030": "gb18030", "gb2312": "gb2312", "gbk": "gbk", "cp950": "cp950", "cp949": "cp949",
           "johab": "johab", "hz": "hz", "utf-7": "utf_7"}
CPYTHON.update((s, s) for s in single_byte_builtins() if not s.startswith("whatwg-"))  # the catalogue: every one
CPYTHON.update((s, s) for s in ("big5hkscs", "euc_jis_2004", "euc_jisx0213", "shift_jis_2004", "shift_jisx0213")
               if s in SPECS)  # issue 30's one-to-many codecs
CPYTHON.update((s, s) for s in ("iso2022_jp", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_kr", "iso2022_jp_2004",
                                 "iso2022_jp_3") if s in SPECS)  # issue 31's CPython ISO-2022 codecs (the escape cases: tests/test_modes_cpython.py)


def test_every_builtin_spec_has_a_reference():
    """An oracle of its own, CPython's codec of the same name, the WHATWG single-byte
    oracle (tests/test_whatwg_single_byte.py, with encoding_rs beside it), or for
    whatwg-replacement the standard's one rule (tests/test_whatwg_replacement.py)."""
    shared = set(whatwg_single_byte.NAMES) | {"whatwg-replacement"}
    assert sorted(set(SPECS) - set(WITH_ORACLE) - shared) == sorted(set(CPYTHON) | {"gb18030-2022"})


# utf-7's errors in a run follow the code points the run read before them, which a vector's
# error token does not carry: tests/test_utf7.py holds its decoding to CPython's directly.
# CPython's ISO-2022 codecs differ on escape sequences cut 14 bytes in (an error of the ESC
# alone): tests/test_modes_cpython.py holds them to CPython with those differences pinned.
ISO2022 = {"iso2022_jp", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_kr", "iso2022_jp_2004", "iso2022_jp_3"}


@pytest.mark.parametrize("spec", sorted(set(CPYTHON) - {"utf-7"} - ISO2022))
def test_vectors_pass_against_cpython(spec):
    """Each case decodes in CPython to the same characters, with errors at the same spans."""
    spans = []

    def record(e):
        spans.append((e.start, e.end))
        return ("\ufffd", e.end)

    codecs.register_error("test_vectors.record", record)
    failures = []
    for case in read_jsonl(spec):
        data = bytes.fromhex(case["bytes"])
        spans.clear()
        text = data.decode(CPYTHON[spec], "test_vectors.record")
        want = expected(case)
        want = [t for t in want if t[0] != "shift"]  # a shift sequence makes no character (hz's ~{)
        chars = "".join("\ufffd" if k != "char" else "".join(map(chr, v)) if isinstance(v, tuple) else chr(v)
                        for k, s, e, v in want)  # a tuple: a sequence of code points (CA+304)
        if (text, spans) != (chars, [(s, e) for k, s, e, v in want if k != "char"]):
            failures.append((case["note"], case["bytes"], text, spans[:], want))
    assert not failures, failures[:5]


@pytest.mark.parametrize("spec", WITH_ORACLE)
def test_vectors_pass_against_the_oracle(spec):
    """The oracles are written from the documents and never import encspec."""
    name = module_name(spec)
    oracle = importlib.import_module(f"oracles.{name}")
    failures = []
    for case in read_jsonl(spec):
        data = bytes.fromhex(case["bytes"])
        got = [tuple(t) for t in oracle.tokens(data)]
        if got != expected(case):
            failures.append((case["note"], case["bytes"], got, expected(case)))
    assert not failures, failures[:5]


@pytest.mark.parametrize("spec", PER_SPEC)
def test_text_and_jsonl_hold_the_same_cases(spec):
    text = vectors.parse_text((VECTORS / f"{module_name(spec)}.txt").read_text("utf-8"))
    cases = read_jsonl(spec)
    assert [(t[1], t[2]) for t in text] == [(bytes.fromhex(c["bytes"]), expected(c)) for c in cases]
    assert [t[0] for t in text] == [c["note"].split(" ", 1)[0] for c in cases]  # the same numbering


@pytest.mark.parametrize("spec", PER_SPEC)
def test_vector_inputs_are_the_files_inputs(spec):
    a = load(spec)[1]
    inputs = vectors.vector_inputs(a)
    assert inputs == [bytes.fromhex(c["bytes"]) for c in read_jsonl(spec)]
    assert len(set(inputs)) == len(inputs) and all(inputs)
    assert vectors.vector_inputs(a) == inputs  # deterministic


@pytest.mark.parametrize("spec", PER_SPEC)
def test_expected_tokens_are_the_reference_tokenizers(spec):
    a = load(spec)[1]
    for case in read_jsonl(spec)[::7]:
        data = bytes.fromhex(case["bytes"])
        assert [t[:4] for t in run_tokens(a, data)] == expected(case)


def _text_cases(spec: str) -> list[tuple[str, bytes, list[tuple]]]:
    """The .txt file's cases with each token's reason: (id, bytes, [(kind, start, end, value, reason)])."""
    ids = [c[0] for c in vectors.parse_text((VECTORS / f"{module_name(spec)}.txt").read_text("utf-8"))]
    out, data = [], None
    for line in (VECTORS / f"{module_name(spec)}.txt").read_text("utf-8").splitlines():
        m = re.match(r"\s+(bytes|tokens)  (.*)$", line)
        if not m:
            continue
        if m.group(1) == "bytes":
            data = None if m.group(2).strip().startswith("the input") else bytes.fromhex(m.group(2))
        elif data is not None:
            toks = []
            for part in m.group(2).split("; "):
                t = re.fullmatch(r"(\w+) (\d+) (\d+)(?: ([0-9A-F]+))?(?: \((.*)\))?", part)
                toks.append((t[1], int(t[2]), int(t[3]), None if t[4] is None else int(t[4], 16), t[5]))
            out.append((ids[len(out)], data, toks))
            data = None
    assert len(out) == len(ids)
    return out


_RECORDED: list = []


def _record(err: UnicodeDecodeError):
    _RECORDED.append((err.start, err.end, err.reason))
    return "\ufffd", err.end


def _cpython(data: bytes, codec: str) -> tuple[str, list[tuple[int, int, str]]]:
    """CPython's own decoding of *data*: the text (U+FFFD per error) and each error's (start, end, reason)."""
    codecs.register_error("test_vectors.record", _record)  # (again: a name is global to the process)
    _RECORDED.clear()
    return data.decode(codec, "test_vectors.record"), list(_RECORDED)


@pytest.mark.parametrize("spec, codec", [("utf-16be", "utf-16-be"), ("utf-16le", "utf-16-le"),
                                         ("utf-32be", "utf-32-be"), ("utf-32le", "utf-32-le")])
def test_unit_vectors_agree_with_cpython(spec, codec):
    """Every case's tokens, reasons included, are what CPython's codec says of its bytes:
    checked against CPython, not against encspec."""
    for cid, data, toks in _text_cases(spec):
        text, errors = _cpython(data, codec)
        assert errors == [(s, e, why) for kind, s, e, _, why in toks if kind == "error"], (cid, data.hex(" "))
        assert text == "".join("\ufffd" if k == "error" else chr(v) for k, _, _, v, _ in toks), cid


@pytest.mark.parametrize("spec, codec, order", [("utf-16be", "utf-16-be", "big"), ("utf-16le", "utf-16-le", "little")])
def test_utf16_vectors_hold_each_kind_of_error_with_cpythons_reasons(spec, codec, order):
    """A lone trail unit, a lead followed by a non-trail unit, a lead then a partial unit
    at the end, a partial unit alone: each is a case, and CPython's codec gives the
    case's bytes the reason and span the file states."""
    cases = _text_cases(spec)

    def unit(data, k):
        return int.from_bytes(data[2 * k:2 * k + 2], order)

    def lead(u):
        return 0xD800 <= u <= 0xDBFF

    def trail(u):
        return 0xDC00 <= u <= 0xDFFF

    kinds = {
        "lone trail unit": (lambda d: len(d) == 2 and trail(unit(d, 0)), (0, 2, "illegal encoding")),
        "lead, then a non-trail unit": (lambda d: len(d) == 4 and lead(unit(d, 0)) and not trail(unit(d, 1)),
                                        (0, 2, "illegal UTF-16 surrogate")),
        "lead, then a partial unit at the end": (lambda d: len(d) == 3 and lead(unit(d, 0)),
                                                 (0, 3, "unexpected end of data")),
        "a partial unit alone": (lambda d: len(d) == 1, (0, 1, "truncated data")),
    }
    for what, (shape, first_error) in kinds.items():
        found = [(cid, data, toks) for cid, data, toks in cases if shape(data)]
        assert found, f"{spec}: no case of a {what}"
        for cid, data, toks in found:
            _, errors = _cpython(data, codec)
            assert errors[0] == first_error, (what, cid, errors)
            assert (toks[0][0], *toks[0][1:3], toks[0][4]) == ("error", *first_error), (what, cid, toks)
    # a lead followed by each kind of non-trail unit: below the surrogates, another lead, above them
    after_lead = {"below" if u < 0xD800 else "lead" if lead(u) else "above"
                  for u in (unit(d, 1) for _, d, _ in cases if len(d) == 4 and lead(unit(d, 0)))
                  if not trail(u)}
    assert after_lead == {"below", "lead", "above"}


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


ENCODED = re.compile(r"^\S+ ((?:U\+[0-9A-F]+ )+)then (U\+[0-9A-F]+) alone: the encoder writes")


@pytest.mark.parametrize("spec", sorted(s for s in CPYTHON if s in
                                        ("big5hkscs", "euc_jis_2004", "euc_jisx0213", "shift_jis_2004",
                                         "shift_jisx0213")))
def test_sequence_vectors_encode_as_cpython(spec):
    """The cases "SEQUENCE then CP alone: the encoder writes ..." hold the bytes CPython's
    codec writes for that text (the longest match, then the code point alone)."""
    cases = [(m, case) for case in read_jsonl(spec) if (m := ENCODED.match(case["note"]))]
    assert cases, "no encoded sequences in the vectors"
    for m, case in cases:
        text = "".join(chr(int(u[2:], 16)) for u in (m.group(1).split() + [m.group(2)]))
        assert text.encode(CPYTHON[spec]) == bytes.fromhex(case["bytes"]), case["note"]
