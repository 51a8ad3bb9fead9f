"""The JS package's encoder equals the Python module's (issue 28 item 2).

run-encode (the exports' shared protocol: `strict|replace[ sig] HEX ...` a line,
`bytes HEX` or `error START END REASON` back; `|` between code points ends a piece
with --stream) drives the package through `encodeCodePoints`, `encode(string)`
(--string) and its streaming `Encoder` (--stream).  The expected answers are the
Python module's `encode` and IncrementalEncoder, on the spec's encode vectors and
on seeded random texts (conftest.encode_texts); the package's own `node --test`
runs the encode vectors.
"""
from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

import encspec
import tools
from conftest import (
    ENCODE_OTHERS,
    ENCODE_SPECS,
    encode_texts,
    expected_encode_line,
    exported_once,
    run_encode_line,
    run_encode_lines,
    spec_automaton,
    spec_encoder,
)
from encspec.emit import description, package_tests

pytestmark = pytest.mark.slow  # runs node: ENCSPEC_SLOW=1 (CI) runs it

N_RANDOM = 200
TIMEOUT = 900


def node() -> str:
    return tools.need(lambda: tools.find("node", ["/usr/local/bin"], hint="it is in Debian's nodejs package"))


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """spec -> its exported npm package's folder (exported once per module)."""
    return exported_once(tmp_path_factory, "js")


def run_encode(folder: Path, lines: list[str], *args: str) -> list[str]:
    return run_encode_lines(folder, lines, args, dict(os.environ, NODE=node()), TIMEOUT)


def texts(spec: str, n: int = N_RANDOM) -> list[list[int]]:
    """The encode vectors' code points, then seeded random texts (none with a counted
    form's code point: the engine refuses those by design)."""
    _, cases = package_tests.encode_cases(spec_automaton(spec))
    e = spec_encoder(spec)

    def counted(cp: int) -> bool:
        r = e.run_of(cp)
        return r is not None and r.kind == "counted"
    out = [c["code_points"] for c in cases] + encode_texts(spec, n)
    return [cps for cps in out if all(cp <= description.CODE_POINT_LIMIT and not counted(cp) for cp in cps)]


def in_a_string(cps: list[int]) -> bool:
    """A JS string holds these as its code points (no lead right before a trail, nothing past U+10FFFF)."""
    return all(cp <= 0x10FFFF for cp in cps) and not any(
        0xD800 <= a <= 0xDBFF and 0xDC00 <= b <= 0xDFFF for a, b in zip(cps, cps[1:]))


def compare(spec: str, lines: list[str], got: list[str], want: list[str]) -> None:
    bad = [(line, g, w) for line, g, w in zip(lines, got, want)
           if g != w and g != "skip" and not (w == "error" and g.startswith("error "))]
    assert not bad, f"{spec}: {len(bad)} of {len(lines)} differ, e.g.\n" + "\n".join(
        f"  {line}\n    JS:     {g}\n    Python: {w}" for line, g, w in bad[:5])


def check(spec: str, packages, items: list[list[int]], *args: str, sig: bool = False) -> None:
    module = encspec.load(spec)
    lines = [run_encode_line(mode, cps, sig) for cps in items for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps, sig) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines, *args), want)


@pytest.mark.parametrize("spec", list(ENCODE_SPECS) + ENCODE_OTHERS)
def test_js_encode_equals_the_python_module(packages, spec):
    """`encodeCodePoints` and `encode(string)` (for texts a string holds): strict (the
    first error's span and reason) and replace."""
    items = texts(spec)
    check(spec, packages, items)
    check(spec, packages, [cps for cps in items if in_a_string(cps)], "--string")


@pytest.mark.parametrize("spec", ["utf-16", "utf-32", "utf-8", "utf-ebcdic"])
def test_js_encode_writes_the_signature_when_asked(packages, spec):
    check(spec, packages, texts(spec, 40)[:60], sig=True)


def _held(enc) -> int:
    state, n = enc.getstate() >> 22, 0
    while state:
        state, n = state >> 21, n + 1
    return n


def _streamed(spec: str, pieces: list[list[int]], mode: str) -> str:
    """The IncrementalEncoder over *pieces*, then final, as run-encode prints it (an
    error's positions from the first code point fed)."""
    enc = encspec.load(spec).IncrementalEncoder(mode)
    out, fed = b"", 0
    for k, piece in enumerate([*pieces, []]):
        base = fed - _held(enc)
        try:
            out += enc.encode(piece, final=k == len(pieces))
        except UnicodeEncodeError as e:
            return f"error {base + e.start} {base + e.end} {e.reason}"
        fed += len(piece)
    return "bytes " + (out.hex().upper() or "-")


@pytest.mark.parametrize("spec", ["utf-8", "wtf-8", "wtf-16", "big5hkscs", "euc-jis-2004", "gb18030"])
def test_js_streaming_split_at_every_offset(packages, spec):
    """The streaming `Encoder`, each short text split in two at every offset and in three
    at random, equals the IncrementalEncoder fed the same pieces."""
    rng = random.Random(spec)
    cases = []
    for cps in texts(spec, 60)[:80]:
        splits = [(k,) for k in range(len(cps) + 1)] + [tuple(sorted(rng.sample(range(len(cps) + 1), 2)))
                                                       for _ in range(2) if cps]
        for cuts in splits:
            pieces = [cps[a:b] for a, b in zip((0, *cuts), (*cuts, len(cps)))]
            line = "{} " + " | ".join(" ".join(f"{c:X}" for c in p) for p in pieces)
            cases += [(line.format(mode), _streamed(spec, pieces, mode)) for mode in ("strict", "replace")]
    compare(spec, [c[0] for c in cases], run_encode(packages(spec), [c[0] for c in cases], "--stream"),
            [c[1] for c in cases])


def test_js_wtf8_joins_a_pair_and_wtf16_refuses_it(packages):
    assert run_encode(packages("wtf-8"), ["strict D83D DE00"]) == ["bytes F09F9880"]
    assert run_encode(packages("wtf-16"), ["strict D83D DE00", "replace D83D DE00"]) == [
        f"error 1 2 {description.PAIR_REASON}", "bytes 3DD83F00"]


def test_js_exports_whatwg_replacement(packages):
    """The undecodable spec exports: any non-empty input one error; its encoder UTF-8's rows."""
    folder = packages("whatwg-replacement")
    proc = subprocess.run([str(folder / "run-tokens"), "--batch"], input="61FF62\n\n", capture_output=True,
                          text=True, timeout=TIMEOUT, env=dict(os.environ, NODE=node()))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == "error 0 3\nend\nend\n"
    check("whatwg-replacement", packages, texts("whatwg-replacement", 60))


@pytest.mark.parametrize("spec", ["utf-8", "big5hkscs", "wtf-16", "utf-ebcdic"])
def test_js_package_tests_run_the_encode_vectors(packages, spec):
    """`node --test` in the package: the decode and encode vectors pass."""
    folder = packages(spec)
    proc = subprocess.run([node(), "--test"], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "encode" in proc.stdout
