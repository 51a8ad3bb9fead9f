"""The exports take specs with modes (issue 31 item 5): hz and whatwg-iso-2022-jp exported
to JS, C, Rust and Java decode token for token and encode byte for byte as the Python module does
(Java: one javac and one JVM per spec, test_modal_java_export_equals_module).

Decoding: run-tokens --batch over the conformance vectors' inputs and seeded random
modal inputs (shift sequences, each mode's characters as the Python module writes them,
cut and damaged, shifts right after shifts, stray bytes) against the module's tokens.
Encoding: run-encode (strict and replace) on the encode vectors and random texts drawn
from every mode's runs, and its --stream mode split at every offset against the
module's IncrementalEncoder, which carries the mode from piece to piece.
"""
from __future__ import annotations

import os
import random
import subprocess

import pytest

import encspec
import tools
from conftest import (
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
from encspec.emit.description import mode_choice
from encspec.spec import registry

pytestmark = pytest.mark.slow  # runs node, cc and rustc: ENCSPEC_SLOW=1 (CI) runs it

SPECS = ["hz", "whatwg-iso-2022-jp"]
LANGS = ["js", "c", "rust"]  # Java: test_modal_java_export_equals_module, one JVM per spec
N_RANDOM = 400
TIMEOUT = 600


def env(lang: str) -> dict[str, str]:
    """The environment an export's run-tokens / run-encode needs: its tool found (or the
    test skipped naming it)."""
    if lang == "js":
        return dict(os.environ, NODE=tools.need(tools.node))
    if lang == "rust":  # run-tokens and run-encode build with rustc alone, each once per crate
        return dict({k: v for k, v in os.environ.items() if k != "RUSTFLAGS"}, RUSTC=tools.need(tools.rustc))
    return dict(os.environ, CC=tools.need(lambda: tools.find("cc", hint="it is in Debian's gcc package")))


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """lang -> (spec -> its exported package's folder)."""
    return {lang: exported_once(tmp_path_factory, lang) for lang in [*LANGS, "java"]}


def mode_texts(spec: str, n: int, seed: str = "modes") -> list[list[int]]:
    """Seeded texts mixing every mode's code points (drawn from each mode's runs),
    unencodable ones and line feeds (where HZ and ISO-2022 encoders go home)."""
    choice = mode_choice(spec_automaton(spec))
    runs = [r for r in choice.encoder.runs if r.kind not in ("none", "counted")]
    rng = random.Random(f"{spec}:{seed}")
    out = []
    for _ in range(n):
        text: list[int] = []
        for _ in range(rng.randrange(0, 12)):
            roll = rng.random()
            if roll < 0.75:
                r = rng.choice(runs)
                text.append(rng.randint(r.first, min(r.last, r.first + 0x3FF)))
            elif roll < 0.85:
                text.append(0x0A)
            else:
                text.append(rng.choice([0xD800, 0xE000, 0x20AC, 0x10FFFF, rng.randint(0, 0x10FFFF)]))
        out.append(text)
    return out


def mode_inputs(spec: str, n: int = N_RANDOM) -> list[bytes]:
    """Seeded byte inputs: the Python module's bytes of random texts, cut, damaged and
    joined with every shift sequence (twice in a row too) and stray bytes."""
    module = encspec.load(spec)
    choice = mode_choice(spec_automaton(spec))
    shifts = sorted({b for row in choice.shifts for b in row if b})
    pieces = [module.encode(t, "replace") for t in mode_texts(spec, 60, "pieces")]
    rng = random.Random(f"{spec}:inputs")
    out = [b""] + shifts + [a + b for a in shifts for b in shifts]
    for _ in range(n):
        doc = bytearray()
        for _ in range(rng.randrange(1, 8)):
            roll = rng.random()
            piece = rng.choice(pieces)
            if roll < 0.3:
                doc += piece
            elif roll < 0.5 and piece:
                doc += piece[:rng.randrange(len(piece))]
            elif roll < 0.75:
                doc += rng.choice(shifts)[:rng.randrange(1, 4)]
            elif roll < 0.85:
                doc.append(rng.choice([0x1B, 0x7E, 0x0A, 0x0E, 0x0F]))
            else:
                doc.append(rng.randrange(256))
        out.append(bytes(doc))
    return out


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", LANGS)
def test_modal_export_decodes_token_for_token(packages, lang, spec):
    """Conformance inputs and random modal inputs: the export's tokens are the module's."""
    module = encspec.load(spec)
    items = [c["data"] for c in package_tests.vectors(spec_automaton(spec), None)[1]] + mode_inputs(spec)
    assert any(b"\x1b" in x or b"~{" in x for x in items)  # shifts are exercised
    got = run_token_batch([str(packages[lang](spec) / "run-tokens"), "--batch"], items, env(lang), TIMEOUT)
    bad = [(x, g, w) for x, g in zip(items, got) if g != (w := token_lines(module.tokens(x)))]
    assert not bad, f"{lang} {spec}: {len(bad)} of {len(items)} differ, e.g.\n" + "\n".join(
        f"  {x.hex(' ').upper()}\n    export: {g}\n    Python: {w}" for x, g, w in bad[:5])


def _compare(lang: str, spec: str, lines: list[str], got: list[str], want: list[str]) -> None:
    bad = [(line, g, w) for line, g, w in zip(lines, got, want) if g != w and not (w == "error" and
                                                                                g.startswith("error "))]
    assert not bad, f"{lang} {spec}: {len(bad)} of {len(lines)} differ, e.g.\n" + "\n".join(
        f"  {line}\n    export: {g}\n    Python: {w}" for line, g, w in bad[:5])


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", LANGS)
def test_modal_export_encodes_byte_for_byte(packages, lang, spec):
    """The encode vectors and random texts of every mode, strict and replace: the shifts
    (the reference's preference, sticky or not), the shift before an unencodable code
    point, the shift home at the end."""
    module = encspec.load(spec)
    _, cases = package_tests.encode_cases(spec_automaton(spec))
    items = [c["code_points"] for c in cases] + mode_texts(spec, N_RANDOM)
    lines = [run_encode_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps) for cps in items for mode in ("strict", "replace")]
    assert sum(w.startswith("bytes ") and len(set(w)) > 3 for w in want) > N_RANDOM // 2
    _compare(lang, spec, lines, run_encode_lines(packages[lang](spec), lines, (), env(lang), TIMEOUT), want)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", LANGS)
def test_modal_export_streams_carry_the_mode(packages, lang, spec):
    """The streaming encoder, each text split in two at every offset (and in three at
    random), equals the IncrementalEncoder fed the same pieces, and the one-shot bytes:
    the mode a piece leaves is where the next starts, and only the last goes home."""
    lines, want = stream_cases(spec, mode_texts(spec, 40, "stream"))
    assert any("1B" in w or "7E7B" in w for w in want)
    _compare(lang, spec, lines, run_encode_lines(packages[lang](spec), lines, ("--stream",), env(lang), TIMEOUT),
             want)


@pytest.mark.parametrize("spec", SPECS)
def test_modal_c_export_runs_clean_under_sanitizers(tmp_path, packages, spec):
    """The C tokens demo and run_encode built with AddressSanitizer and UBSan: the modal
    inputs' tokens are the module's, and the encoder's answers (one-shot, from UTF-8,
    streamed) are the plain build's."""
    folder = packages["c"](spec)
    cc = env("c")["CC"]
    mod = registry.module_name(spec)
    flags = [cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O1", "-g", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-I", str(folder / "include")]
    san = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    tokens_exe, encode_exe = tmp_path / "tokens-asan", tmp_path / "run_encode-asan"
    for exe, main in ((tokens_exe, "tokens.c"), (encode_exe, "run_encode.c")):
        proc = subprocess.run([*flags, "-o", str(exe), str(folder / main), str(folder / f"{mod}.c")],
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == 0, proc.stderr[-3000:]
    module = encspec.load(spec)
    items = mode_inputs(spec, 150)
    got = run_token_batch([str(tokens_exe), "--batch"], items, san, TIMEOUT)
    assert got == [token_lines(module.tokens(data)) for data in items]
    texts = mode_texts(spec, 150, "sanitizers")
    lines = [run_encode_line(mode, cps) for cps in texts for mode in ("strict", "replace")]
    streamed = [mode + " " + " | ".join(" ".join(f"{c:X}" for c in p) for p in (cps[:len(cps) // 2], cps[len(cps) // 2:]))
                for cps in texts for mode in ("strict", "replace")]
    for args, batch in (((), lines), (("--string",), lines), (("--stream",), streamed)):
        got = subprocess.run([str(encode_exe), *args], input="".join(x + "\n" for x in batch), capture_output=True,
                             text=True, timeout=TIMEOUT, env=san)
        assert got.returncode == 0, got.stderr[-3000:]
        assert got.stdout.split("\n")[:-1] == run_encode_lines(folder, batch, args, env("c"), TIMEOUT)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", LANGS)
def test_modal_export_encodes_strings(packages, lang, spec):
    """The string entry points (JS `encode(string)`, C `NAME_encode8` from UTF-8, Rust
    `encode_str_into`) equal the module on the random texts of every mode (those
    without surrogates: a string's)."""
    module = encspec.load(spec)
    items = [cps for cps in mode_texts(spec, 200, "strings") if not any(0xD800 <= c <= 0xDFFF for c in cps)]
    lines = [run_encode_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps) for cps in items for mode in ("strict", "replace")]
    _compare(lang, spec, lines, run_encode_lines(packages[lang](spec), lines, ("--string",), env(lang), TIMEOUT), want)


# ------------------------------------------------------------------ Java
# One javac and one JVM per spec: the driver runs the package's own tokens and encode
# drivers on sections of its input (each's output then a line `== end`), and decodes
# through the Charset itself.
JAVA_DRIVER = r"""
import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

public class ModesDriver {
    static String cps(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> b.append(b.length() > 0 ? " " : "").append(Integer.toHexString(c).toUpperCase()));
        return b.toString();
    }

    // new String(data, cs), and the Charset's decoder fed data in two pieces at every offset
    static String decoded(Charset cs, byte[] data) throws Exception {
        String whole = new String(data, cs);
        for (int cut = 0; cut <= data.length; cut++) {
            CharsetDecoder dec = cs.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            CharBuffer out = CharBuffer.allocate(4 * data.length + 16);
            ByteBuffer first = ByteBuffer.wrap(data, 0, cut);
            dec.decode(first, out, false);
            byte[] rest = new byte[first.remaining() + data.length - cut];
            first.get(rest, 0, first.remaining());
            System.arraycopy(data, cut, rest, rest.length - (data.length - cut), data.length - cut);
            dec.decode(ByteBuffer.wrap(rest), out, true);
            dec.flush(out);
            out.flip();
            if (!out.toString().equals(whole)) {
                return "differs " + cut + " " + cps(out.toString());
            }
        }
        return "chars " + cps(whole);
    }

    public static void main(String[] args) throws Exception {
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        Charset cs = Charset.forName(args[1]);
        String all = new String(System.in.readAllBytes(), StandardCharsets.US_ASCII);
        for (String section : all.split("== ", -1)) {
            if (section.isEmpty()) {
                continue;
            }
            int eol = section.indexOf('\n');
            String[] head = section.substring(0, eol).trim().split(" +");
            byte[] body = section.substring(eol + 1).getBytes(StandardCharsets.US_ASCII);
            String[] rest = Arrays.copyOfRange(head, 1, head.length);
            if (head[0].equals("decode")) {
                StringBuilder out = new StringBuilder();
                for (String line : new String(body, StandardCharsets.US_ASCII).split("\n")) {
                    byte[] data = new byte[line.length() / 2];
                    for (int k = 0; k < data.length; k++) {
                        data[k] = (byte) Integer.parseInt(line.substring(2 * k, 2 * k + 2), 16);
                    }
                    out.append(decoded(cs, data)).append('\n');
                }
                stdout.write(out.toString().getBytes(StandardCharsets.US_ASCII));
            } else {
                System.setIn(new ByteArrayInputStream(body));
                Class.forName(args[0] + head[0]).getMethod("main", String[].class).invoke(null, (Object) rest);
            }
            stdout.write("== end\n".getBytes(StandardCharsets.US_ASCII));
            stdout.flush();
        }
    }
}
"""


def java_sections(folder, spec: str, sections: list[tuple[str, list[str]]], tmp_path) -> list[list[str]]:
    """The output lines of each section (`Tokens --batch`, `Encode [--string|--split]`,
    `decode`: the driver's own) of one JVM run over the package compiled once."""
    from encspec.emit.export_common import class_name
    from encspec.emit.java_target import charset_aliases, default_package
    javac, java = tools.need(tools.javac), tools.need(tools.java)
    a = spec_automaton(spec)
    (tmp_path / "ModesDriver.java").write_text(JAVA_DRIVER)
    classes = tmp_path / "classes"
    sources = sorted(str(p) for p in (folder / "src" / "main" / "java").rglob("*.java"))
    quick = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]  # the C1 compiler alone: less CPU for short runs
    proc = subprocess.run([javac, *(f"-J{x}" for x in quick), "-encoding", "UTF-8", "-d", str(classes), str(tmp_path / "ModesDriver.java"),
                           *sources], capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    resources = folder / "src" / "main" / "resources"
    stdin = "".join(f"== {head}\n" + "".join(x + "\n" for x in lines) for head, lines in sections)
    proc = subprocess.run([java, *quick, "-cp", os.pathsep.join([str(classes), str(resources)]), "ModesDriver",
                           f"{default_package(a)}.{class_name(a)}", charset_aliases(a)[0]],
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out: list[list[str]] = [[]]
    for line in proc.stdout.splitlines():
        if line == "== end":
            out.append([])
        else:
            out[-1].append(line)
    assert out.pop() == [] and len(out) == len(sections), proc.stdout[-2000:]
    return out


def _java_string(cps: list[int]) -> bool:
    """Whether a Java String holds these code points apart (run-encode --string prints skip otherwise)."""
    return all(c <= 0x10FFFF for c in cps) and not any(0xD800 <= x <= 0xDBFF and 0xDC00 <= y <= 0xDFFF
                                                       for x, y in zip(cps, cps[1:]))


@pytest.mark.parametrize("spec", [*SPECS, "iso2022_kr"])  # iso2022_kr: `cheapest`, two end modes, `->` forms
def test_modal_java_export_equals_module(packages, spec, tmp_path):
    """The Java package, in one JVM: its tokens of the conformance and random modal
    inputs; new String(bytes, cs) and the Charset's decoder fed the bytes in two pieces
    at every offset; its encoder's int[] entry on the encode vectors and random texts
    (strict and replace); the Charset's encoder and String.getBytes; and that encoder
    fed the text in two pieces at every char offset and a char at a time into a small
    buffer (--split): each equals the Python module (the decoder carries the mode from
    call to call, the encoder too, and its flush writes the shift home)."""
    module = encspec.load(spec)
    inputs = [c["data"] for c in package_tests.vectors(spec_automaton(spec), None)[1]] + mode_inputs(spec)
    _, cases = package_tests.encode_cases(spec_automaton(spec))
    texts = [c["code_points"] for c in cases] + mode_texts(spec, N_RANDOM)
    strings = [cps for cps in texts if _java_string(cps)]
    short = [cps for cps in mode_texts(spec, 60, "stream") if _java_string(cps) and len(cps) <= 8]
    runs = [(texts, ""), (strings, "--string"), (short, "--split")]
    lines = {args: [run_encode_line(mode, cps) for cps in items for mode in ("strict", "replace")]
             for items, args in runs}
    folder = packages["java"](spec)
    got = java_sections(folder, spec, [("Tokens --batch", [x.hex() for x in inputs]),
                                       ("decode", [x.hex() for x in inputs]),
                                       *((f"Encode {args}", lines[args]) for _, args in runs)], tmp_path)
    bad = [(x, g, w) for x, g in zip(inputs, end_groups("\n".join(got[0]) + "\n", len(inputs)))
           if g != (w := token_lines(module.tokens(x)))]
    assert not bad, f"java {spec}: {len(bad)} of {len(inputs)} differ, e.g.\n" + "\n".join(
        f"  {x.hex(' ').upper()}\n    export: {g}\n    Python: {w}" for x, g, w in bad[:5])
    want = ["chars " + " ".join(f"{ord(c):X}" for c in module.decode(x, "replace")) for x in inputs]
    assert [g.rstrip() for g in got[1]] == [w.rstrip() for w in want]
    for (items, args), answers in zip(runs, got[2:]):
        want = [expected_encode_line(module, mode, cps) for cps in items for mode in ("strict", "replace")]
        _compare(f"java {args}", spec, lines[args], answers, want)
    assert sum(len(set(w)) > 3 for w in got[2]) > N_RANDOM // 2 and any("1B" in w or "7E7B" in w for w in got[4])
