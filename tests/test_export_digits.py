"""The C and JS exports take a run of digits (issue 31 item 5, issue 28): utf-7 exported
decodes and encodes as the Python module does, through the one description of the run
(encspec.emit.description.DigitRunData) each language renders.

Decoding: run-tokens --batch over the conformance vectors' inputs and seeded random
inputs (the module's bytes of random texts, cut and damaged, runs that end on every
kind of byte, stray "+", "-" and bytes 80..FF) against the module's tokens; and a small
driver per language against the module's decode, strict (the first error's span and
reason) and "replace" (the code points a run read before its error come first).
Encoding: run-encode (strict and replace, code points and strings) on the encode
vectors and random texts, and --stream split at every offset against the module's
IncrementalEncoder, which carries the run's bits from piece to piece.  The C
programs also run under AddressSanitizer and UBSan.  One build and one run per
language and kind of case.
"""
from __future__ import annotations

import os
import random
import subprocess

import pytest

import encspec
import tools
from conftest import (
    children_cpu_time,
    end_groups,
    expected_encode_line,
    exported_once,
    run_encode_line,
    run_encode_lines,
    run_token_batch,
    spec_automaton,
    stream_cases,
    token_lines,
)
from encspec.emit import package_tests

pytestmark = pytest.mark.slow  # runs node and cc: ENCSPEC_SLOW=1 (CI) runs it

SPEC = "utf-7"
LANGS = ["js", "c"]
N_RANDOM = 300
TIMEOUT = 600

# what each driver prints per input (hex a line): the first error as `error START END
# REASON` (or `ok`), then `cps HEX ...`, the code points decoded with U+FFFD, then `end`
JS_DRIVER = """
import { readFileSync } from "node:fs";
import { tokens, decodeCodePoints } from "./utf_7.mjs";
const out = [];
for (const line of readFileSync(0, "latin1").split("\\n").slice(0, -1)) {
  const data = Buffer.from(line, "hex");
  const bad = [...tokens(data)].find((t) => t.kind === "error" || t.kind === "reserved");
  out.push(bad ? `error ${bad.start} ${bad.end} ${bad.reason}` : "ok");
  out.push(["cps", ...decodeCodePoints(data, 0xFFFD).map((v) => v.toString(16).toUpperCase())].join(" "), "end");
}
process.stdout.write(out.map((x) => x + "\\n").join(""));
"""

C_DRIVER = r"""
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <encspec/utf_7.h>

static int hexval(char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

int main(void)
{
    static char line[1 << 23];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strcspn(line, "\n") / 2, k, pos = 0, got;
        unsigned char *data = malloc(n ? n : 1);
        utf_7_cp *out = malloc((n + 1) * sizeof *out);
        utf_7_token tok;
        int said = 0;
        for (k = 0; k < n; k++)  /* not sscanf: glibc's measures the rest of the line each call */
            data[k] = (unsigned char)(hexval(line[2 * k]) << 4 | hexval(line[2 * k + 1]));
        while (!said && utf_7_next(data, n, &pos, &tok))
            if (tok.kind == UTF_7_ERROR || tok.kind == UTF_7_RESERVED) {
                printf("error %zu %zu %s\n", tok.start, tok.end, tok.reason);
                said = 1;
            }
        if (!said)
            printf("ok\n");
        got = utf_7_decode(data, n, out, 0xFFFD, NULL);
        printf("cps");
        for (k = 0; k < got; k++)
            printf(" %" PRIX64, (uint64_t)out[k]);
        printf("\nend\n");
        free(data);
        free(out);
    }
    return 0;
}
"""

SAN_FLAGS = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]


def env(lang: str) -> dict[str, str]:
    if lang == "js":
        return dict(os.environ, NODE=tools.need(tools.node))
    return dict(os.environ, CC=tools.need(lambda: tools.find("cc", hint="it is in Debian's gcc package")))


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """lang -> the exported utf-7 package's folder."""
    return {lang: exported_once(tmp_path_factory, lang)(SPEC) for lang in LANGS}


@pytest.fixture(scope="module")
def drivers(packages, tmp_path_factory):
    """(lang, sanitized) -> the decode driver's command; ("c", True) also "tokens" and
    "run_encode" built with AddressSanitizer and UBSan."""
    out: dict = {("js", False): [env("js")["NODE"], str(packages["js"] / "decode-driver.mjs")]}
    (packages["js"] / "decode-driver.mjs").write_text(JS_DRIVER, "utf-8")
    folder, where = packages["c"], tmp_path_factory.mktemp("digits-c")
    (where / "driver.c").write_text(C_DRIVER, "utf-8")
    base = [env("c")["CC"], "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", str(folder / "include")]
    builds = [("driver", where / "driver.c", []), ("driver-asan", where / "driver.c", SAN_FLAGS),
              ("tokens-asan", folder / "tokens.c", SAN_FLAGS), ("run_encode-asan", folder / "run_encode.c", SAN_FLAGS)]
    for exe, main, flags in builds:
        proc = subprocess.run([*base, *flags, "-o", str(where / exe), str(main), str(folder / "utf_7.c")],
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == 0, proc.stderr[-3000:]
    out[("c", False)] = [str(where / "driver")]
    out[("c", True)] = {name: [str(where / f"{name}-asan")] for name in ("driver", "tokens", "run_encode")}
    return out


SAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")


def texts(n: int, seed: str) -> list[list[int]]:
    """Seeded texts: direct characters, "+" and "-" and digits (where a run must end with
    "-"), characters that open a run (BMP, beyond it, lone surrogates), line feeds."""
    rng = random.Random(f"{SPEC}:{seed}")
    pools = [[0x41, 0x7A, 0x30, 0x20, 0x2E, 0x3F], [0x2B], [0x2D], [0x0A, 0x09],
             [0x7E, 0x5C, 0x00, 0x80, 0xE9, 0x20AC, 0x65E5, 0xFFFF],
             [0x1F600, 0x10000, 0x10FFFF], [0xD800, 0xDBFF, 0xDC00, 0xDFFF]]
    out = []
    for _ in range(n):
        out.append([rng.choice(rng.choice(pools)) if rng.random() < 0.8 else rng.randint(0, 0x10FFFF)
                    for _ in range(rng.randrange(0, 12))])
    return out


def inputs(n: int = N_RANDOM) -> list[bytes]:
    """Seeded byte inputs: the module's bytes of random texts, whole, cut and damaged,
    joined with stray "+", "-", digits, bytes that end a run, 80..FF and any byte."""
    module = encspec.load(SPEC)
    pieces = [module.encode(t, "replace") for t in texts(80, "pieces")]
    rng = random.Random(f"{SPEC}:inputs")
    out = [b"", b"+", b"+-", b"+A", b"+AA", b"+AAA", b"+AAA-", b"+2D3eAA-", b"+2D3e-", b"+2D3e\x80", b"+2D3e.",
           b"+ZeV-x", b"+ZeVn", b"+\x80", b"+2D3eAAA"]
    for _ in range(n):
        doc = bytearray()
        for _ in range(rng.randrange(1, 6)):
            roll = rng.random()
            piece = rng.choice(pieces)
            if roll < 0.35:
                doc += piece
            elif roll < 0.55 and piece:
                doc += piece[:rng.randrange(len(piece))]
            elif roll < 0.7 and piece:
                k = rng.randrange(len(piece))
                doc += piece[:k] + bytes([rng.randrange(256)]) + piece[k + 1:]
            elif roll < 0.9:
                doc += rng.choice([b"+", b"-", b"A", b"/", b".", b"\x80", b"\xff", b"\n", b"+/v8"])
            else:
                doc.append(rng.randrange(256))
        out.append(bytes(doc))
    return out


def expected_decode(module, data: bytes) -> list[str]:
    """The driver's lines for *data*: the module's strict error (or ok), its replace decode."""
    try:
        module.decode(data)
        first = "ok"
    except UnicodeDecodeError as e:
        first = f"error {e.start} {e.end} {e.reason}"
    return [first, " ".join(["cps", *(f"{ord(c):X}" for c in module.decode(data, "replace"))])]


def decode_cases() -> list[bytes]:
    items = [c["data"] for c in package_tests.vectors(spec_automaton(SPEC), None)[1]] + inputs()
    assert sum(b"+" in x for x in items) > N_RANDOM // 2  # runs are exercised
    return items


def run_driver(cmd, items: list[bytes], run_env: dict[str, str]) -> list[list[str]]:
    proc = subprocess.run(cmd, input="".join(x.hex() + "\n" for x in items), capture_output=True, text=True,
                          timeout=TIMEOUT, env=run_env, cwd=os.path.dirname(cmd[-1]))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return end_groups(proc.stdout, len(items))


def _differ(lang: str, items, got, want) -> str:
    bad = [(x, g, w) for x, g, w in zip(items, got, want) if g != w]
    return f"{lang}: {len(bad)} of {len(items)} differ, e.g.\n" + "\n".join(
        f"  {x!r}\n    export: {g}\n    Python: {w}" for x, g, w in bad[:5])


@pytest.mark.parametrize("lang", LANGS)
def test_digits_export_decodes_token_for_token(packages, lang):
    """The vectors' inputs and random ones: the export's tokens are the module's (a run
    of digits one token, its code points joined by +, none where it holds none)."""
    module = encspec.load(SPEC)
    items = decode_cases()
    got = run_token_batch([str(packages[lang] / "run-tokens"), "--batch"], items, env(lang), TIMEOUT)
    want = [token_lines(module.tokens(x)) for x in items]
    assert any("+" in line for lines in want for line in lines)  # runs of several code points
    assert got == want, _differ(lang, items, got, want)


@pytest.mark.parametrize("lang", LANGS)
def test_digits_export_decodes_strict_and_replace(drivers, lang):
    """The same inputs: the first error's span and reason are the module's strict
    decode's, and the code points with U+FFFD its replace decode's (a run's error
    after the code points it read)."""
    module = encspec.load(SPEC)
    items = decode_cases()
    got = run_driver(drivers[(lang, False)], items, env(lang))
    want = [expected_decode(module, x) for x in items]
    assert sum(w[0] != "ok" for w in want) > N_RANDOM // 4
    assert any(w[0].endswith(r) for w in want for r in spec_automaton(SPEC).digit_reasons)
    assert got == want, _differ(lang, items, got, want)


def _compare(lang: str, lines: list[str], got: list[str], want: list[str]) -> None:
    bad = [(line, g, w) for line, g, w in zip(lines, got, want) if g != w]
    assert not bad, f"{lang}: {len(bad)} of {len(lines)} differ, e.g.\n" + "\n".join(
        f"  {line}\n    export: {g}\n    Python: {w}" for line, g, w in bad[:5])


def encode_items() -> list[list[int]]:
    _, cases = package_tests.encode_cases(spec_automaton(SPEC))
    return [c["code_points"] for c in cases] + texts(N_RANDOM, "encode") + [[0x41, 0x110000, 0x42], [0xFFFFFFFF]]


@pytest.mark.parametrize("lang", LANGS)
def test_digits_export_encodes_byte_for_byte(packages, lang):
    """The encode vectors and random texts, strict and replace, as code points and (those
    without surrogates) as strings: where a run opens, ends with "-" or without, "+-",
    the padded last digit at the end; a code point no unit holds is an error."""
    module = encspec.load(SPEC)
    items = encode_items()
    lines = [run_encode_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps) for cps in items for mode in ("strict", "replace")]
    assert sum(w.startswith("bytes 2B") or "2B" in w[6:] for w in want) > N_RANDOM // 2
    assert any(w.startswith("error ") for w in want)
    _compare(lang, lines, run_encode_lines(packages[lang], lines, (), env(lang), TIMEOUT), want)
    strings = [cps for cps in items if not any(0xD800 <= c <= 0xDFFF or c > 0x10FFFF for c in cps)]
    lines = [run_encode_line(mode, cps) for cps in strings for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps) for cps in strings for mode in ("strict", "replace")]
    _compare(lang, lines, run_encode_lines(packages[lang], lines, ("--string",), env(lang), TIMEOUT), want)


@pytest.mark.parametrize("lang", LANGS)
def test_digits_export_streams_carry_the_run(packages, lang):
    """The streaming encoder, each text split at every offset, equals the
    IncrementalEncoder fed the same pieces (and the one-shot bytes): a run and its
    bits not yet a digit go on into the next piece, and only the last ends it."""
    lines, want = stream_cases(SPEC, texts(40, "stream"))
    assert sum("2B" in w for w in want) > len(want) // 3
    _compare(lang, lines, run_encode_lines(packages[lang], lines, ("--stream",), env(lang), TIMEOUT), want)


def test_digits_c_export_runs_clean_under_sanitizers(packages, drivers):
    """tokens, the decode driver and run_encode built with AddressSanitizer and UBSan
    give the module's answers on the random inputs and texts."""
    module = encspec.load(SPEC)
    san = drivers[("c", True)]
    items = inputs(120)
    assert run_token_batch([*san["tokens"], "--batch"], items, SAN_ENV, TIMEOUT) == [token_lines(module.tokens(x)) for x in items]
    assert run_driver(san["driver"], items, SAN_ENV) == [expected_decode(module, x) for x in items]
    cases = texts(120, "sanitizers")
    lines = [run_encode_line(mode, cps) for cps in cases for mode in ("strict", "replace")]
    streamed = [mode + " " + " | ".join(" ".join(f"{c:X}" for c in p) for p in (cps[:len(cps) // 2], cps[len(cps) // 2:]))
                for cps in cases for mode in ("strict", "replace")]
    for args, batch in (((), lines), (("--stream",), streamed)):
        got = subprocess.run([*san["run_encode"], *args], input="".join(x + "\n" for x in batch), capture_output=True,
                             text=True, timeout=TIMEOUT, env=SAN_ENV)
        assert got.returncode == 0, got.stderr[-3000:]
        assert got.stdout.split("\n")[:-1] == run_encode_lines(packages["c"], batch, args, env("c"), TIMEOUT)


def _cpu(cmd, stdin: str, run_env: dict[str, str]) -> float:
    """The best of three runs' CPU seconds (the children's: a busy machine does not count)."""
    best = float("inf")
    for _ in range(3):
        t0 = children_cpu_time()
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT, env=run_env,
                              cwd=os.path.dirname(cmd[-1]))
        best = min(best, children_cpu_time() - t0)
        assert proc.returncode == 0, proc.stderr[-3000:]
    return best


@pytest.mark.parametrize("lang", LANGS)
def test_digits_export_long_runs_are_linear(packages, drivers, lang):
    """An unterminated run decoded (tokens, strict and replace) and a long run encoded,
    16 times longer: at most 25 times the CPU time (a quadratic cost is 256 times), the
    program's start included (which only lowers the ratio)."""
    run = b"AGEAYQBh"
    small, large = b"+" + run * (1 << 12), b"+" + run * (1 << 16)
    decode = drivers[(lang, False)]
    ratio = _cpu(decode, large.hex() + "\n", env(lang)) / max(_cpu(decode, small.hex() + "\n", env(lang)), 1e-3)
    assert ratio < 25, f"{lang} decode of an unterminated run: {ratio:.1f}x for 16x the bytes"
    encode = [str(packages[lang] / "run-encode")]
    lines = ["strict " + " ".join(["E9"] * n) + "\n" for n in (1 << 13, 1 << 17)]
    ratio = _cpu(encode, lines[1], env(lang)) / max(_cpu(encode, lines[0], env(lang)), 1e-3)
    assert ratio < 25, f"{lang} encode of one long run: {ratio:.1f}x for 16x the code points"
