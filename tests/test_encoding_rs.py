"""Every whatwg- spec equals encoding_rs, Firefox's implementation of the Encoding Standard.

encoding_rs is built once per session by cargo, offline, from the crate source
Debian's librust-encoding-rs-dev installs (tests/encoding_rs: a driver reading
batches of inputs).  Missing cargo or encoding_rs skips these tests naming it, and
fails them under ENCSPEC_REQUIRE_TOOLS=1.  For each spec, on the Python backend:
decode with replacement (the text) and without (every error's byte span) of every
byte, every byte pair for the multi-byte encodings (every lead byte with every trail
byte), and seeded random inputs; encode of every code point (conftest.code_points),
where the standard's encoder errors are the code points encoding_rs reports
unmappable: the same bytes, and the same code points refused.  The replacement
decoder "returns error" once and then "finished", naming no span: encoding_rs reports
the error at the first byte and reads the rest in silence, whatwg-replacement's one
error covers the whole input, so there only where the error starts is compared.

The one exception: Debian's encoding_rs 0.8.31 predates the standard's adoption of
GB18030-2022 (whatwg/encoding commit 2c3853e461af, 2024-10-04), which gave 18
pointers of index gb18030 standard code points instead of Private Use ones.  Those
pointers are read from that commit's change to the index file
(tests/data/whatwg-index-gb18030-2022.diff); for whatwg-gb18030 and whatwg-gbk the
inputs holding their byte pairs, and the new code points on encode, are left out.
"""
from __future__ import annotations

import codecs
import random
import re
from functools import cache
from pathlib import Path

import pytest

import encspec
import tools
from conftest import DATA, code_points
from encspec.spec import registry
from oracles import whatwg_single_byte

ROOT = Path(__file__).resolve().parents[1]
WHATWG = sorted(n for n in registry.builtin_names() if n.startswith("whatwg-"))
GB = ("whatwg-gb18030", "whatwg-gbk")


def _label(name: str) -> str:
    """The standard's name of a whatwg- spec, which encoding_rs takes as a label."""
    return name.removeprefix("whatwg-")


@cache
def gb18030_2022_change() -> tuple[dict[int, int], dict[int, int]]:
    """(pointer -> code point before, pointer -> code point after) of commit 2c3853e's change."""
    before: dict[int, int] = {}
    after: dict[int, int] = {}
    for line in (DATA / "whatwg-index-gb18030-2022.diff").read_text("utf-8").splitlines():
        m = re.match(r"([-+])\s*(\d+)\t0x([0-9A-F]+)", line)
        if m:
            (before if m[1] == "-" else after)[int(m[2])] = int(m[3], 16)
    return before, after


def _gb_pair(pointer: int) -> bytes:
    """The two bytes of an index gb18030 pointer: lead 0x81 + pointer // 190, trail offset 0x40 or 0x41."""
    lead, trail = divmod(pointer, 190)
    return bytes([0x81 + lead, trail + (0x40 if trail < 0x3F else 0x41)])


def test_the_exception_is_18_pointers_now_in_the_shipped_index():
    before, after = gb18030_2022_change()
    assert sorted(before) == sorted(after) and len(after) == 18
    assert all(0xE000 <= cp <= 0xF8FF for cp in before.values())      # Private Use before
    assert not any(0xE000 <= cp <= 0xF8FF for cp in after.values())   # standard code points after
    index = (ROOT / "specs" / "tables" / "whatwg" / "index-gb18030.txt").read_text("utf-8")
    for pointer, cp in after.items():
        assert re.search(rf"^\s*{pointer}\t0x{cp:04X}\t", index, re.MULTILINE), pointer


@pytest.fixture(scope="session")
def encoding_rs(tmp_path_factory):
    """run(mode, spec name, inputs) -> encoding_rs's answer lines, split in two."""
    tools.need(tools.cargo)
    tools.need(tools.encoding_rs_source)
    exe = tools.compile_cargo_offline(ROOT / "tests" / "encoding_rs", tmp_path_factory.mktemp("encoding_rs"))

    def run(mode: str, name: str, inputs: list[bytes]) -> list[tuple[bytes, str]]:
        out = tools.run([str(exe), mode, _label(name)], tools.hex_lines(inputs)).decode("ascii")
        lines = out.split("\n")[:-1]
        assert len(lines) == len(inputs)
        return [(bytes.fromhex(a), b) for a, b in (line.split(" ") for line in lines)]
    return run


@cache
def _changed_pairs() -> tuple[bytes, ...]:
    return tuple(_gb_pair(p) for p in sorted(gb18030_2022_change()[1]))


def _excepted(name: str, data: bytes) -> bool:
    """Whether *data* holds a byte pair of one of the 18 changed pointers (gb18030 and GBK only)."""
    return name in GB and any(pair in data for pair in _changed_pairs())


@pytest.mark.parametrize("name", GB)
def test_the_exception_is_all_encoding_rs_differs_in(encoding_rs, name):
    """On the 18 pairs encoding_rs gives the code point before or after the change, nothing else."""
    before, after = gb18030_2022_change()
    answers = encoding_rs("decode", name, list(_changed_pairs()))
    for pointer, (text, spans) in zip(sorted(after), answers):
        assert spans == "" and text.decode("utf-8") in (chr(before[pointer]), chr(after[pointer])), pointer


def _assert_decodes_alike(encoding_rs, name: str, inputs: list[bytes]) -> None:
    module = encspec.load(name, "python")
    inputs = [data for data in inputs if not _excepted(name, data)]
    bad = []
    for data, (text, spans) in zip(inputs, encoding_rs("decode", name, inputs)):
        ours = module.decode(data, "replace").encode("utf-8", "surrogatepass")
        errors = [(s, e) for kind, s, e, _ in module.tokens(data) if kind == "error"]
        if name == "whatwg-replacement" and errors:  # where the one error starts: its end is ours
            errors = [(errors[0][0], errors[0][0] + 1)]
        our_spans = ",".join(f"{s}-{e}" for s, e in errors)
        if (ours, our_spans) != (text, spans):
            bad.append((data.hex(" "), ours.hex(), our_spans, text.hex(), spans))
            if len(bad) > 5:
                break
    assert not bad, bad


@pytest.mark.parametrize("name", WHATWG)
def test_decode_every_byte_and_byte_pair(encoding_rs, name):
    inputs = [bytes([b]) for b in range(256)] + [bytes(range(256))]
    if name not in whatwg_single_byte.NAMES:  # multi-byte: every lead byte with every trail byte
        inputs += [bytes([a, b]) for a in range(256) for b in range(256)]
    _assert_decodes_alike(encoding_rs, name, inputs)


@pytest.mark.parametrize("name", WHATWG)
def test_decode_random_inputs(encoding_rs, name):
    rng = random.Random(f"encoding_rs {name}")
    high = [0x30, 0x39, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0xA0, 0xA1, 0xDF, 0xE0, 0xFE, 0xFF]
    inputs = [bytes(rng.choice(high) if rng.random() < 0.6 else rng.randrange(256)
                    for _ in range(rng.randrange(1, 24))) for _ in range(3000)]
    _assert_decodes_alike(encoding_rs, name, inputs)


@pytest.mark.parametrize("name", WHATWG)
def test_encode_every_code_point(encoding_rs, name):
    """The same bytes, and the same code points refused (the standard's encoder errors)."""
    module = encspec.load(name, "python")
    changed = set(gb18030_2022_change()[1].values()) if name in GB else set()
    cps = [cp for cp in code_points(surrogates=False) if cp not in changed]
    text = "".join(map(chr, cps))
    [(want, refused)] = encoding_rs("encode", name, [text.encode("utf-8")])
    got_refused: list[int] = []

    def record(e: UnicodeEncodeError) -> tuple[str, int]:
        got_refused.extend(range(e.start, e.end))
        return ("", e.end)

    codecs.register_error("encspec-test-encoding-rs", record)
    assert module.encode(text, "encspec-test-encoding-rs") == want
    assert ",".join(map(str, got_refused)) == refused
