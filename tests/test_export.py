"""`encspec export`: every target's decoder, built with the real toolchain, prints
exactly what `encspec tokens` prints, for every built-in spec.

Each (spec, target) pair is exported and built once per session (in parallel),
then run once in batch mode (`run-tokens --batch`: a line of hex per input, a
line `end` after each input's tokens) on the conformance inputs plus 200
random ones.  The expectation is computed in-process from
``encspec.load(spec).tokens``, and every target must print exactly that: C
and Rust hold code points in 64 bits, and a wider one (UTF-∞-8) is their WIDE
token, which run-tokens prints in full like any char (from NAME_wide_value /
wide_value).  A missing toolchain skips naming the tool (a failure under
ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import errno
import os
import random
import re
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

import conftest
import encspec
import tools
from conftest import builtins_for_exports, end_groups
from encspec import pipeline
from encspec.automaton import DEAD
from encspec.runtime.tables import counted_bytes, counted_levels, encoded, level_bytes
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

SPECS = builtins_for_exports()  # the table specs: test_export_tables.py (one stands for them here)
TARGETS = ["c", "rust", "js", "java"]
C_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
N_RANDOM = 200
TIMEOUT = 600


# ------------------------------------------------------------- toolchains
ToolMissing = tools.ToolMissing


def _package(name: str) -> str:
    return f"it is in Debian's {name} package"


@cache
def need_toolchain(lang: str) -> dict[str, str]:
    """The toolchain, or the test is skipped naming the tool (failed under ENCSPEC_REQUIRE_TOOLS)."""
    return tools.need(lambda: toolchain(lang))


def toolchain(lang: str) -> dict[str, str]:
    """Environment variables run-tokens reads to find the toolchain of *lang*."""
    if lang == "c":
        return {"CC": tools.find("cc", hint=_package("gcc"))}
    if lang == "rust":
        cargo = os.environ.get("CARGO_HOME", "~/.cargo")
        return {"RUSTC": tools.find("rustc", [f"{cargo}/bin", "~/.cargo/bin"], hint="install Rust with rustup")}
    if lang == "js":
        return {"NODE": tools.find("node", ["/usr/local/bin"], hint=_package("nodejs"))}
    if lang == "java":
        return {"JAVAC": tools.find("javac", tools.java_dirs(), hint=_package("default-jdk-headless")),
                "JAVA": tools.find("java", tools.java_dirs(), hint=_package("default-jdk-headless"))}
    raise KeyError(lang)


# ------------------------------------------------------------- inputs
@cache
def automaton(spec: str):
    return pipeline.load(spec)[1]


def fallback_inputs(a) -> list[bytes]:
    """Conformance inputs from the `encspec describe --json` rows: the first and
    last bytes of each row, their truncations, each with a wrong continuation
    byte, and some junk (used when encspec.analyse.vectors is not there)."""
    from encspec.analyse.describe import rows
    rng = random.Random(f"fallback:{a.name}")
    out: list[bytes] = [b""]
    wrong = [b for b in range(256) if all(a.step(s, b) == DEAD for s in range(1, a.n_states))] or [0xFF]
    for row in rows(a):
        for key in ("first_bytes", "last_bytes"):
            if not row[key]:
                continue
            seq = bytes.fromhex(row[key])
            out.append(seq)
            out.append(seq + seq)
            for k in range(1, len(seq)):
                out.append(seq[:k])
                out.append(seq[:k] + b"A")
                out.append(seq[:k] + bytes([rng.choice(wrong)]) + seq[k + 1:])
    if a.signature:
        out += [a.signature, a.signature + b"A", b"A" + a.signature, a.signature[:-1]]
    out += [bytes([b]) for b in range(256)]
    out += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24))) for _ in range(50)]
    return out


def conformance_inputs(a) -> list[bytes]:
    try:
        from encspec.analyse.vectors import vector_inputs
    except ImportError:
        return fallback_inputs(a)
    return list(vector_inputs(a))


def _boundary_values(a) -> list[int]:
    cps = set()
    for r in a.rows:
        for cp in (r.first, r.first + 1, r.last - 1, r.last, (r.first + r.last) // 2):
            if r.first <= cp <= r.last:
                cps.add(cp)
    for lo, hi in a.holes + a.skips:
        cps.update({lo - 1, lo, hi, hi + 1})
    return sorted(cp for cp in cps if cp >= 0)


def _counted_encodings(a, ext, rng) -> list[bytes]:
    """Boundary values of the first levels of a counted form, and the values just
    outside them spelled with the same header (too small, too big)."""
    out = []
    for k, (env, digits, first, last) in enumerate(counted_levels(a, ext)):
        if k > 3:
            break
        for cp in (first, first + 1, last, last - 1, rng.randrange(first, last + 1)):
            out.append(counted_bytes(a, ext, cp))
        for cp in (first - 1, first - 2, last + 1):
            out.append(level_bytes(a, ext, env, digits, cp - ext.offset))
    return out


def random_inputs(a, n: int = N_RANDOM, seed: int = 2024) -> list[bytes]:
    """Seeded inputs weighted to the spec's lead and continuation bytes and to
    valid encodings of boundary code points, whole, truncated or damaged."""
    rng = random.Random(f"{seed}:{a.name}")
    valid = [e for e in (encoded(a, cp) for cp in _boundary_values(a)) if e]
    for ext in a.extensions:
        valid += [e for e in _counted_encodings(a, ext, rng) if e]
        # counted headers: the free count and the field, then some value digits
        for _ in range(20):
            head = bytes(ext.prefix_bytes)
            for it in ext.items:
                alphabet = [b for lo, hi in it.runs for b in range(lo, hi + 1)]
                reps = rng.randrange(0, 3) if it.binds else rng.randrange(0, 5)
                head += bytes(rng.choice(alphabet) for _ in range(reps))
            valid.append(head)
    leads = [b for b in range(256) if a.step(0, b) != DEAD]
    conts = sorted({b for s in range(1, a.n_states) for b in range(256) if a.step(s, b) != DEAD}) or leads
    pieces = []
    for _ in range(n):
        doc = bytearray()
        if a.signature and rng.random() < 0.2:
            doc += a.signature if rng.random() < 0.7 else a.signature[:rng.randrange(1, len(a.signature))]
        for _ in range(rng.randrange(1, 9)):
            r = rng.random()
            seq = rng.choice(valid)
            if r < 0.4:
                doc += seq
            elif r < 0.55:
                doc += seq[:rng.randrange(0, len(seq))] if len(seq) > 1 else seq
            elif r < 0.7 and len(seq) > 1:
                k = rng.randrange(1, len(seq))
                doc += seq[:k] + bytes([rng.choice(conts + leads + [rng.randrange(256)])]) + seq[k + 1:]
            elif r < 0.8:
                doc.append(rng.choice(leads))
            elif r < 0.9:
                doc.append(rng.choice(conts))
            else:
                doc.append(rng.randrange(256))
        pieces.append(bytes(doc))
    return pieces


@cache
def inputs(spec: str) -> tuple[bytes, ...]:
    a = automaton(spec)
    return tuple(conformance_inputs(a) + random_inputs(a))


# ------------------------------------------------------------- expectations
def token_lines(spec: str, data: bytes) -> list[str]:
    """`encspec tokens` lines (a char of any width in hex; a table entry of several code
    points, a tuple, as its code points joined by "+")."""
    return conftest.token_lines(encspec.load(spec).tokens(data))


def run_batch(cmd: list[str], items, env=None) -> list[list[str]]:
    stdin = "".join(x.hex() + "\n" for x in items).encode("ascii")
    proc = subprocess.run(cmd, input=stdin, capture_output=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n{proc.stderr.decode(errors='replace')[-3000:]}"
    groups = end_groups(proc.stdout.decode("ascii"), len(items))
    if proc.stderr.strip():
        raise AssertionError(f"{cmd} wrote to stderr:\n{proc.stderr.decode(errors='replace')[-3000:]}")
    return groups


def compare(spec: str, lang: str, items, groups) -> None:
    bad = []
    for data, got in zip(items, groups):
        want = token_lines(spec, data)
        if got != want:
            bad.append(f"input {data.hex(' ').upper() or '(empty)'}\n  want {want}\n  got  {got}")
    assert not bad, f"{lang} export of {spec}: {len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:10])


# ------------------------------------------------------------- exports
def _env(lang: str) -> dict[str, str]:
    env = dict(os.environ, **toolchain(lang))
    if lang == "c":
        env["CFLAGS"] = " ".join(["-O2"] + C_WARNINGS)  # a warning fails the build
    if lang == "rust":
        env["RUSTFLAGS"] = "-D warnings -C overflow-checks=on -C debug-assertions=on"  # overflow panics
    if lang == "java":
        env["JAVACFLAGS"] = "-Xlint:all -Werror"
    return env


def _export_and_build(spec: str, lang: str, root: Path):
    from encspec.pipeline import export
    out = root / f"{spec}-{lang}"
    export(automaton(spec), lang, out)
    # building happens on the first run: an empty batch
    for attempt in range(20):
        try:
            proc = subprocess.run([str(out / "run-tokens"), "--batch"], input=b"", capture_output=True,
                                  timeout=TIMEOUT, env=_env(lang))
            break
        except OSError as e:
            # "Text file busy": another of the fixture's threads forked while this one still had
            # run-tokens open for writing, and its child holds the descriptor until it execs
            if e.errno != errno.ETXTBSY or attempt == 19:
                raise
            time.sleep(0.05)
    if proc.returncode != 0 or proc.stdout or proc.stderr:
        raise AssertionError(f"building the {lang} export of {spec} failed (exit {proc.returncode}):\n"
                             + proc.stderr.decode(errors="replace")[-4000:])
    return out


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """(spec, lang) -> export folder (built), or the exception that stopped it."""
    root = tmp_path_factory.mktemp("exports")
    results = {}
    jobs = {}
    for lang in TARGETS:
        try:
            toolchain(lang)
        except ToolMissing as e:
            for spec in SPECS:
                results[spec, lang] = e
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        for spec in SPECS:
            for lang in TARGETS:
                if (spec, lang) not in results:
                    jobs[spec, lang] = pool.submit(_export_and_build, spec, lang, root)
        for key, job in jobs.items():
            try:
                results[key] = job.result()
            except Exception as e:  # reported by the test of that pair
                results[key] = e
    return results


def _built(exports, spec, lang) -> Path:
    got = exports[spec, lang]
    if isinstance(got, ToolMissing):
        tools.missing(str(got))
    if isinstance(got, BaseException):
        raise got
    return got


# ------------------------------------------------------------- tests
@pytest.mark.parametrize("lang", TARGETS)
@pytest.mark.parametrize("spec", SPECS)
def test_run_tokens_matches_encspec_tokens(exports, spec, lang):
    """Conformance and random inputs, in one batch: token for token."""
    out = _built(exports, spec, lang)
    items = inputs(spec)
    groups = run_batch([str(out / "run-tokens"), "--batch"], items, _env(lang))
    compare(spec, lang, items, groups)


@pytest.mark.parametrize("lang", TARGETS)
@pytest.mark.parametrize("spec", SPECS)
def test_run_tokens_reads_stdin(exports, spec, lang):
    """The plain mode: one document on stdin (a signature first, when the spec has one)."""
    out = _built(exports, spec, lang)
    a = automaton(spec)
    data = a.signature + b"".join(inputs(spec)[:200])
    proc = subprocess.run([str(out / "run-tokens")], input=data, capture_output=True, timeout=TIMEOUT,
                          env=_env(lang))
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stdout.decode("ascii").splitlines() == token_lines(spec, data)


def test_wide_code_points_are_exercised():
    """UTF-∞-8's inputs hold code points beyond 64 bits (so C and Rust's WIDE tokens are tested)."""
    wide = [d for d in inputs("utf-inf-8")
            if any(k == "char" and v >= 1 << 64 for k, _, _, v in encspec.load("utf-inf-8").tokens(d))]
    assert len(wide) >= 10


@pytest.mark.parametrize("spec", SPECS)
def test_c_sanitizers(tmp_path, exports, spec):
    """The C export runs clean under AddressSanitizer and UBSan on the same inputs."""
    out = _built(exports, spec, "c")
    cc = need_toolchain("c")["CC"]
    mod = registry.module_name(spec)
    exe = tmp_path / "tokens-asan"
    cmd = [cc, *C_WARNINGS, "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
           "-fno-omit-frame-pointer", "-I", str(out / "include"), "-o", str(exe), str(out / "tokens.c"), str(out / f"{mod}.c")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"
    items = inputs(spec)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    compare(spec, "c", items, run_batch([str(exe), "--batch"], items, env))


@pytest.mark.parametrize("lang", TARGETS)
def test_export_is_deterministic_and_labelled(tmp_path, lang):
    from encspec.cli import main
    from encspec.emit.targets import targets
    a = automaton("corrected-utf-8")
    first = targets()[lang].files(a)
    assert first == targets()[lang].files(a)
    for rel, text in first.items():
        if rel == "run-tokens" or rel.startswith("tokens") or "Tokens" in rel:
            assert "do not edit" in text and a.spec_file in text, rel
            continue
        assert a.spec_sha256 in text and encspec.__version__ in text and "do not edit" in text, rel
        assert a.spec_file in text, rel
    assert main(["export", "corrected-utf-8", "--lang", lang, "-o", str(tmp_path / "x")]) == 0
    assert os.access(tmp_path / "x" / "run-tokens", os.X_OK)


def test_export_rejects_unknown_language(tmp_path, capsys):
    from encspec.cli import main
    assert main(["export", "utf-8", "--lang", "cobol", "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "unknown language 'cobol'" in err and "c, java, js, json, rust" in err


C_DECODE_HARNESS = r"""
/* For each line of hex: MOD_decode's code points and error count, and whether
   stepping MOD_step over each char token's bytes ends in a state accepting a char. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <encspec/MOD.h>

int main(void)
{
    static char line[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        size_t hex = strcspn(line, "\r\n"), n = hex / 2, k, pos = 0, errors = 0, bad_steps = 0;
        unsigned char *data = malloc(n + 1);
        MOD_cp *out = malloc((n + 1) * sizeof *out);
        MOD_token tok;
        for (k = 0; k < n; k++) {
            unsigned v;
            sscanf(line + 2 * k, "%2x", &v);
            data[k] = (unsigned char)v;
        }
        k = MOD_decode(data, n, out, 0xFFFD, &errors);
        printf("%lu", (unsigned long)errors);
        for (size_t j = 0; j < k; j++)
            printf(" %" PRIX64, (uint64_t)out[j]);
        unsigned start0 = UMOD_START;
        MOD_signature(data, n, &start0);  /* a byte order mark chooses the start state */
        while (MOD_next(data, n, &pos, &tok)) {
            unsigned state = start0;
            uint64_t acc = 0;
            size_t j;
            if (tok.kind != UMOD_CHAR)
                continue;
            for (j = tok.start; j < tok.end && state < UMOD_N_STATES; j++)
                state = MOD_step(state, data[j], &acc);
            if (state < UMOD_N_STATES && MOD_accepts(state) != UMOD_CHAR)
                bad_steps++;
        }
        printf(" | %lu\n", (unsigned long)bad_steps);
        free(data);
        free(out);
    }
    return 0;
}
"""


@pytest.mark.parametrize("spec", SPECS)
def test_c_decode_and_step(tmp_path, exports, spec):
    """NAME_decode writes what the tokens say (errors and WIDE tokens as the replacement, counted
    as errors) and NAME_step walks to accepting states."""
    out = _built(exports, spec, "c")
    mod = registry.module_name(spec)
    src = tmp_path / "harness.c"
    src.write_text(C_DECODE_HARNESS.replace("UMOD_", f"{mod.upper()}_").replace("MOD", mod), "ascii")
    exe = tmp_path / "harness"
    cc = need_toolchain("c")["CC"]
    cmd = [cc, *C_WARNINGS, "-O2", "-I", str(out / "include"), "-o", str(exe), str(src), str(out / f"{mod}.c")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    items = [x for x in inputs(spec) if len(x) < 30000]
    proc = subprocess.run([str(exe)], input="".join(x.hex() + "\n" for x in items).encode(), capture_output=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 0
    got = proc.stdout.decode().splitlines()
    module = encspec.load(spec)
    for data, line in zip(items, got, strict=True):
        cps, errors = [], 0
        for kind, _start, _end, value in module.tokens(data):
            if kind == "char" and isinstance(value, tuple):  # a table entry of several code points
                cps += [f"{v:X}" for v in value]
            elif kind == "char" and value < 1 << 64:
                cps.append(f"{value:X}")
            elif kind != "signature":
                cps.append("FFFD")
                errors += 1
        assert line == " ".join([str(errors)] + cps) + " | 0", data.hex()


@pytest.mark.parametrize("spec", SPECS)
def test_rust_module_is_no_std(tmp_path, exports, spec):
    """The crate's library is #![no_std] and compiles without warnings (core only, no alloc)."""
    out = _built(exports, spec, "rust")
    lib = out / "src" / "lib.rs"
    assert "\n#![no_std]\n" in lib.read_text("utf-8")
    cmd = [need_toolchain("rust")["RUSTC"], "--edition", "2021", "--crate-type", "rlib", "-D", "warnings",
           "--crate-name", registry.module_name(spec), "--out-dir", str(tmp_path), str(lib)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("spec", SPECS)
def test_js_module_is_browser_safe(exports, spec):
    """The ES module uses nothing of Node's: no imports, no require, Buffer or process."""
    out = _built(exports, spec, "js")
    text = (out / f"{registry.module_name(spec)}.mjs").read_text("utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    for word in ("import ", "require(", "Buffer", "process."):
        assert word not in code, word


@pytest.mark.parametrize("lang", ["c", "rust"])
def test_counted_form_limit(exports, lang):
    """Beyond ±2**62 for a count or an exponent, C and Rust give the documented error
    over the bytes read (the reference would need numbers of 2**62 bits: no answer to
    compare with); below it, they still answer exactly where Python cannot (nme = 2**40)."""
    out = _built(exports, "utf-inf-8", lang)
    beyond = b"\xff" + b"\xb4" * 15 + b"\xa1" + b"\xa0" * 15  # nme = 16**15 = 2**60
    within = b"\xff" + b"\xb4" * 10 + b"\xa1" + b"\xa0" * 10  # nme = 2**40: count = 4 * (2**40 + 20) // 6
    groups = run_batch([str(out / "run-tokens"), "--batch"],
                       [beyond, beyond + b"\x80A", within + b"\x80\x8f\xbf\xbf", within + b"\x80\x90",
                        within + b"\x80\x80", within + b"\xbf"], _env(lang))
    # the value has 4 * nme + 80 bits and lies in [2 ** (4 * nme + 68), 2 ** (4 * nme + 72) - 1]
    assert groups == [
        ["error 0 32"],
        ["error 0 32", "error 32 33", "char 33 34 41"],
        ["error 0 26"],                 # 80 8F: 10 leading zero bits, then 1: still valid, the data ends
        ["error 0 23", "error 23 24"],  # 80 90: 7 leading zeros only, beyond the upper bound
        ["error 0 23", "error 23 24"],  # 80 80: 12 leading zeros, below the lower bound
        ["error 0 22", "error 22 23"],  # BF: beyond the upper bound at once
    ]


@pytest.mark.parametrize("spec", SPECS)
def test_fallback_inputs(spec):
    """The fallback conformance inputs (for when encspec.analyse.vectors is absent) cover every row's ends."""
    from encspec.analyse.describe import rows
    a = automaton(spec)
    got = fallback_inputs(a)
    for row in rows(a):
        for key in ("first_bytes", "last_bytes"):
            if row[key]:
                seq = bytes.fromhex(row[key])
                assert seq in got and seq[:-1] in got
    assert all(isinstance(x, bytes) for x in got) and len(set(got)) > 100


JS_DECODE = r"""
import { readFileSync } from "node:fs";
const { decodeCodePoints, decode } = await import(process.argv[2]);
const lines = readFileSync(0, "latin1").split("\n");
lines.pop();
const out = [];
for (const line of lines) {
  const cps = decodeCodePoints(Buffer.from(line, "hex"));
  const text = decode(Buffer.from(line, "hex"));
  // compare UTF-16 code units: lone surrogates next to each other read as a pair in a string
  const units = Array.from({ length: text.length }, (_, k) => text.charCodeAt(k));
  const expect = String.fromCodePoint(...cps.map((v) => (v <= 0x10FFFF ? Number(v) : 0xFFFD)));
  if (units.join() !== Array.from({ length: expect.length }, (_, k) => expect.charCodeAt(k)).join()) throw new Error(`decode disagrees with decodeCodePoints on ${line}`);
  out.push(cps.map((v) => v.toString(16).toUpperCase()).join(" "));
}
process.stdout.write(out.map((l) => l + "\n").join(""));
"""


@pytest.mark.parametrize("spec", SPECS)
def test_js_decode_code_points(tmp_path, exports, spec):
    """decodeCodePoints gives what the tokens say (errors as U+FFFD; BigInt beyond 2**53); decode agrees."""
    out = _built(exports, spec, "js")
    script = tmp_path / "decode.mjs"
    script.write_text(JS_DECODE, "utf-8")
    items = inputs(spec)
    proc = subprocess.run([need_toolchain("js")["NODE"], str(script), (out / f"{registry.module_name(spec)}.mjs").as_uri()],
                          input="".join(x.hex() + "\n" for x in items).encode(), capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    module = encspec.load(spec)
    for data, line in zip(items, proc.stdout.decode().splitlines(), strict=True):
        want = []
        for k, _, _, v in module.tokens(data):
            if k == "char":
                want += [f"{c:X}" for c in v] if isinstance(v, tuple) else [f"{v:X}"]  # tuple: several code points
            elif k != "signature":
                want.append("FFFD")
        assert line == " ".join(want), data.hex()
