"""The Java package's encoder (issue 28) against the Python module.

Each spec is exported once (``encspec export --lang java``) and its ``run-encode``
driver run once per mode on many lines: the int[] entry (``XEncoder.encode``), the
Charset's encoder and ``String.getBytes`` (``--string``), and that encoder fed in
two pieces at every char offset and one char at a time into a small output buffer
(``--split``, which prints the whole text's answer only when every way agrees).
Every answer is compared with the Python module's ``encode`` (strict: the first
error's span in code points and its reason; replace), on the encode vectors and on
seeded random texts with unencodable code points, lone and paired surrogates and
values past U+10FFFF.  A missing javac or java skips naming it.
"""
from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

import tools
from conftest import ENCODE_SPECS, encode_texts, expected_encode_line, run_encode_line
from encspec import codec, pipeline
from encspec.emit import package_tests
from encspec.emit.export_common import class_name
from encspec.emit.java_target import default_package
from encspec.spec import registry

TIMEOUT = 600


def _others() -> list[str]:
    """A seeded sample of ten other built-ins that export."""
    from encspec.emit import targets
    java = targets.targets()["java"]
    names = [n for n in registry.builtin_names() if n not in ENCODE_SPECS]
    rng = random.Random(28)
    rng.shuffle(names)
    out = []
    for n in names:
        a = pipeline.load(n)[1]
        if java.supports(a) is None and not a.undecodable and not a.modes and a.digit_run is None:
            out.append(n)
        if len(out) == 10:
            break
    return out


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    made: dict[str, Path] = {}

    def get(spec: str) -> Path:
        if spec not in made:
            out = tmp_path_factory.mktemp(spec.replace("/", "_"))
            pipeline.export(pipeline.load(spec)[1], "java", out)
            made[spec] = out
        return made[spec]
    return get


def run_encode(folder: Path, lines: list[str], mode: str = "") -> list[str]:
    env = dict(os.environ, JAVAC=tools.need(tools.javac), JAVA=tools.need(tools.java))
    proc = subprocess.run([str(folder / "run-encode"), *([mode] if mode else [])], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert len(out) == len(lines), proc.stdout[-2000:]
    return out


def cases(spec: str, n: int = 80) -> list[tuple[str, list[int], bool]]:
    """(mode, code points, signature): the encode vectors, then seeded random texts (a few signed)."""
    a = pipeline.load(spec)[1]
    _, vectors = package_tests.encode_cases(a)
    texts = [v["code_points"] for v in vectors] + encode_texts(spec, n)
    out = []
    for k, cps in enumerate(texts):
        for mode in ("strict", "replace"):
            out.append((mode, cps, k % 7 == 3))
    return out


def representable(cps: list[int]) -> bool:
    """Whether a Java String holds these code points apart (run-encode --string prints skip otherwise)."""
    if any(c > 0x10FFFF for c in cps):
        return False
    return not any(0xD800 <= x <= 0xDBFF and 0xDC00 <= y <= 0xDFFF for x, y in zip(cps, cps[1:]))


def compare(spec: str, folder: Path, mode: str, chosen: list[tuple[str, list[int], bool]]) -> None:
    module = codec.load(spec)
    lines = [run_encode_line(m, cps, sig) for m, cps, sig in chosen]
    got = run_encode(folder, lines, mode)
    bad = []
    for line, (m, cps, sig), answer in zip(lines, chosen, got):
        want = expected_encode_line(module, m, cps, sig)
        ok = answer == want or (want == "error" and answer.startswith("error"))
        if not ok:
            bad.append(f"{line}\n  want {want}\n  got  {answer}")
    assert not bad, f"{spec} {mode or 'int[]'}: {len(bad)} of {len(lines)} differ:\n" + "\n".join(bad[:10])


SPECS = list(ENCODE_SPECS)


@pytest.mark.parametrize("spec", SPECS)
def test_int_array_entry_matches_module(spec, exports):
    compare(spec, exports(spec), "", cases(spec))


@pytest.mark.parametrize("spec", SPECS)
def test_charset_encoder_matches_module(spec, exports):
    chosen = [c for c in cases(spec) if representable(c[1])]
    compare(spec, exports(spec), "--string", chosen)


@pytest.mark.parametrize("spec", SPECS)
def test_streaming_at_every_split_matches_one_shot(spec, exports):
    chosen = [c for c in cases(spec, 30) if representable(c[1]) and len(c[1]) <= 8][:60]
    compare(spec, exports(spec), "--split", chosen)


@pytest.mark.slow
@pytest.mark.parametrize("spec", _others())
def test_sample_of_other_builtins_matches_module(spec, exports):
    chosen = cases(spec, 40)
    compare(spec, exports(spec), "", chosen)
    compare(spec, exports(spec), "--string", [c for c in chosen if representable(c[1])])


# Answers known independently of the code under test (CPython's codecs and the WTF-8 spec).
KNOWN = [
    ("utf-8", "strict", [0x41, 0xD800, 0xDFFF, 0x42], "error 1 3 surrogates not allowed"),  # a run: CPython's utf-8
    ("utf-8", "replace", [0x41, 0xD800, 0xDFFF, 0x42], "bytes 413F3F42"),
    ("utf-16", "strict", [0x41, 0xD800, 0xDFFF], "error 1 2 surrogates not allowed"),  # one code point at a time
    ("utf-16", "strict", [0xE9, 0x1F600], "bytes E9003DD800DE"),
    ("wtf-8", "strict", [0xD83D, 0xDE00], "bytes F09F9880"),  # 6.1: a lead and a trail in a row are joined
    ("wtf-8", "strict", [0xD800, 0x41], "bytes EDA08041"),
    ("cp1252", "strict", [0x20AC, 0x41], "bytes 8041"),
    ("cp1252", "replace", [0x3042], "bytes 3F"),
    ("big5hkscs", "strict", [0xCA, 0x304], "bytes 8862"),  # a sequence written as one (CPython's big5hkscs)
    ("big5hkscs", "strict", [0xCA], "bytes 8866"),
]


@pytest.mark.parametrize("spec, mode, cps, want", KNOWN)
def test_known_answers(spec, mode, cps, want, exports):
    assert run_encode(exports(spec), [run_encode_line(mode, cps)]) == [want]


def test_wtf16_refuses_a_trail_after_a_lead(exports):
    got = run_encode(exports("wtf-16"), [run_encode_line("strict", [0x41, 0xD800, 0xDC00])])
    assert got == ["error 2 3 a trail surrogate code point after a lead surrogate code point: "
                   "the two would read back as one supplementary code point"]


ROUND_TRIP = r"""
import java.nio.charset.Charset;
import java.util.Arrays;

public class RoundTrip {
    public static void main(String[] args) {
        Charset cs = Charset.forName(args[0]);
        StringBuilder given = new StringBuilder();
        for (int k = 1; k < args.length; k++) {
            given.appendCodePoint(Integer.parseInt(args[k], 16));
        }
        String text = given.toString();
        byte[] b = text.getBytes(cs);
        StringBuilder hex = new StringBuilder();
        for (byte x : b) {
            hex.append(String.format("%02X", x & 0xFF));
        }
        System.out.println(cs.name() + " " + cs.canEncode() + " " + hex + " " + new String(b, cs).equals(text));
    }
}
"""


@pytest.mark.parametrize("spec, alias, text, want", [
    ("cp1252", "x-encspec-cp1252", "h\u00e9", "68E9"),
    ("utf-16", "u16", "h\u00e9", "FFFE6800E900"),  # the byte order mark first, as CPython's utf-16 writes it
    ("shift_jis", "s_jis", "h\u3042", "6882A0"),
    ("big5hkscs", "hkscs", "\u00ca\u0304\u00ca", "88628866"),  # a sequence, then its starter alone
])
def test_charset_found_by_alias_round_trips(spec, alias, text, want, exports, tmp_path):
    folder = exports(spec)
    env = dict(os.environ, JAVAC=tools.need(tools.javac))
    subprocess.run([str(folder / "build-jar")], env=env, capture_output=True, timeout=TIMEOUT)
    classes = folder / "build" / "classes"
    assert (classes / "META-INF" / "services").is_dir()
    src = tmp_path / "RoundTrip.java"
    src.write_text(ROUND_TRIP)
    subprocess.run([tools.need(tools.javac), "-d", str(tmp_path), str(src)], check=True, timeout=TIMEOUT)
    proc = subprocess.run([tools.need(tools.java), "-cp", f"{classes}{os.pathsep}{tmp_path}", "RoundTrip", alias,
                           *(f"{ord(c):X}" for c in text)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    name, can, hexed, back = proc.stdout.split()
    module = codec.load(spec)
    assert (name, can, back) == (pipeline.load(spec)[1].name, "true", "true")
    assert hexed == module.encode(text).hex().upper() == want


def test_package_names_the_encoder(exports):
    a = pipeline.load("utf-8")[1]
    folder = exports("utf-8")
    pkg = default_package(a).replace(".", "/")
    cls = class_name(a)
    assert (folder / "src/main/java" / pkg / f"{cls}Encoder.java").is_file()
    assert "canEncode() is true" in (folder / "src/main/java" / pkg / f"{cls}Charset.java").read_text()


def test_whatwg_replacement_exports(exports):
    """The undecodable spec exports: its decoder gives one error per non-empty input (the
    module's tokens), its encoder writes the forms unverified, as the module's does."""
    folder = exports("whatwg-replacement")
    module = codec.load("whatwg-replacement")
    inputs = [b"", b"a", b"abc\xff", bytes(range(256)) * 2]
    env = dict(os.environ, JAVAC=tools.need(tools.javac), JAVA=tools.need(tools.java))
    proc = subprocess.run([str(folder / "run-tokens"), "--batch"], input="".join(d.hex() + "\n" for d in inputs),
                          capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, proc.stderr
    want = "".join("".join(f"{t[0]} {t[1]} {t[2]}\n" for t in module.tokens(d)) + "end\n" for d in inputs)
    assert proc.stdout == want
    assert want.startswith("end\nerror 0 1\nend\nerror 0 4\nend\nerror 0 512\nend")
    chosen = cases("whatwg-replacement")
    compare("whatwg-replacement", folder, "", chosen)
    compare("whatwg-replacement", folder, "--string", [c for c in chosen if representable(c[1])])


LINEAR = r"""
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;

public class Linear {
    static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

    // the text fed a char at a time into a 16-byte buffer, drained when full
    static long fed(Charset cs, String text) {
        CharsetEncoder enc = cs.newEncoder();
        ByteBuffer out = ByteBuffer.allocate(16);
        long n = 0;
        for (int k = 0; k <= text.length(); k++) {
            CharBuffer in = CharBuffer.wrap(text, Math.min(k, text.length()), Math.min(k + 1, text.length()));
            while (enc.encode(in, out, k == text.length()).isOverflow()) {
                n += out.position();
                out.clear();
            }
        }
        while (enc.flush(out).isOverflow()) {
            n += out.position();
            out.clear();
        }
        return n + out.position();
    }

    static long once(Charset cs, String text, int way) {
        long t = BEAN.getCurrentThreadCpuTime();
        long n = way == 0 ? text.getBytes(cs).length : fed(cs, text);
        if (n == 0) throw new IllegalStateException();
        return BEAN.getCurrentThreadCpuTime() - t;
    }

    public static void main(String[] args) {
        Charset cs = Charset.forName(args[0]);
        String unit = args[1];
        int small = Integer.parseInt(args[2]);
        String a = unit.repeat(small), b = unit.repeat(16 * small);
        for (int way = 0; way < 2; way++) {
            long bestA = Long.MAX_VALUE, bestB = Long.MAX_VALUE;
            for (int trial = 0; trial < 7; trial++) {
                bestA = Math.min(bestA, once(cs, a, way));
                bestB = Math.min(bestB, once(cs, b, way));
            }
            System.out.println(bestA + " " + bestB);
        }
    }
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("spec, unit", [("big5hkscs", "\u00ca\u0304\u00caa\u00ca"), ("utf-16", "h\u00e9\U0001F600")])
def test_charset_encoder_is_linear(spec, unit, exports, tmp_path):
    """16 times the text costs at most 40 times the CPU time (best of seven, one JVM), through
    getBytes and through the CharsetEncoder fed a char at a time into a 16-byte buffer."""
    folder = exports(spec)
    env = dict(os.environ, JAVAC=tools.need(tools.javac))
    subprocess.run([str(folder / "build-jar")], env=env, capture_output=True, timeout=TIMEOUT)
    classes = folder / "build" / "classes"
    src = tmp_path / "Linear.java"
    src.write_text(LINEAR)
    subprocess.run([tools.need(tools.javac), "-d", str(tmp_path), str(src)], check=True, timeout=TIMEOUT)
    alias = f"x-encspec-{spec}"
    proc = subprocess.run([tools.need(tools.java), "-cp", f"{classes}{os.pathsep}{tmp_path}", "Linear", alias,
                           unit, "20000"], capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    for way, line in zip(("getBytes", "fed a char at a time"), proc.stdout.splitlines()):
        small, large = map(int, line.split())
        assert large <= 40 * max(small, 1), f"{spec} {way}: {large / max(small, 1):.1f} times for 16 times the text"


ACTIONS = r"""
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

public class Actions {
    // REPORT: the bytes between problems in hex, each problem as M or U and its length
    static String report(CharsetEncoder enc, String text) {
        enc.onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer in = CharBuffer.wrap(text);
        ByteBuffer out = ByteBuffer.allocate(64);
        StringBuilder s = new StringBuilder();
        for (boolean flushing = false;;) {
            CoderResult r = flushing ? enc.flush(out) : enc.encode(in, out, true);
            for (int k = 0; k < out.position(); k++) s.append(String.format("%02X", out.get(k)));
            out.clear();
            if (r.isError()) {
                s.append(' ').append(r.isMalformed() ? "M" : "U").append(r.length()).append(' ');
                if (!flushing) in.position(in.position() + r.length());
                continue;
            }
            if (flushing) break;
            flushing = true;
        }
        return s.toString().trim();
    }

    static String with(CharsetEncoder enc, CodingErrorAction action, String text) throws Exception {
        enc.onMalformedInput(action).onUnmappableCharacter(action);
        ByteBuffer b = enc.encode(CharBuffer.wrap(text));
        StringBuilder s = new StringBuilder();
        while (b.hasRemaining()) s.append(String.format("%02X", b.get()));
        return s.toString();
    }

    public static void main(String[] args) throws Exception {
        Charset cs = Charset.forName(args[0]);
        String text = args[1].replace("S", "\uD800").replace("E", "\uD83D\uDE00");
        System.out.println(report(cs.newEncoder(), text));
        System.out.println(with(cs.newEncoder(), CodingErrorAction.IGNORE, text));
        System.out.println(with(cs.newEncoder(), CodingErrorAction.REPLACE, text));
        System.out.println(cs.newEncoder().canEncode(text));
    }
}
"""


@pytest.mark.parametrize("spec, text, want", [
    # a supplementary code point is unmappable for its two chars, a lone surrogate malformed for one
    ("cp1252", "aEbSc", ["61 U2 62 M1 63", "616263", "613F623F63", "false"]),
    ("utf-8", "aSb", ["61 M1 62", "6162", "613F62", "false"]),
    ("utf-8", "aEb", ["61F09F988062", "61F09F988062", "61F09F988062", "true"]),
    ("wtf-8", "aSb", ["61EDA08062", "61EDA08062", "61EDA08062", "true"]),  # WTF-8 writes a lone surrogate
    ("big5hkscs", "a\u00caE", ["618866 U2", "618866", "6188663F", "false"]),  # the held starter, then the error
])
def test_charset_encoder_actions(spec, text, want, exports, tmp_path):
    """REPORT's results have the right kind and length, and IGNORE and REPLACE act on them."""
    folder = exports(spec)
    env = dict(os.environ, JAVAC=tools.need(tools.javac))
    subprocess.run([str(folder / "build-jar")], env=env, capture_output=True, timeout=TIMEOUT)
    src = tmp_path / "Actions.java"
    src.write_text(ACTIONS)
    subprocess.run([tools.need(tools.javac), "-d", str(tmp_path), str(src)], check=True, timeout=TIMEOUT)
    proc = subprocess.run([tools.need(tools.java), "-cp", f"{folder / 'build' / 'classes'}{os.pathsep}{tmp_path}",
                           "Actions", f"x-encspec-{spec}", text], capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == want
