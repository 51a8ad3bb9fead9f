"""`encspec export --lang js|java` writes packages that drop into their ecosystems.

JS: an npm package whose own `node --test` suite passes for every built-in spec,
importable by its name from another folder through its `exports` map, with a
.d.ts declaring every export (checked with tsc when it is on the machine).
Java: a package (`--java-package`, default org.encspec.<name>) with a
java.nio Charset registered through a CharsetProvider, so `Charset.forName`
finds it on the class path; decoding follows the tokens' maximal subparts.
Expected outputs are hand-written, or the reference tokenizer's (Python).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

import encspec
import tools
from conftest import builtins_for_exports
from encspec import pipeline
from encspec.emit import package_tests
from encspec.pipeline import export
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

SPECS = builtins_for_exports()  # the table specs: test_export_tables.py (one stands for them here)
TIMEOUT = 600


@cache
def automaton(spec: str):
    return pipeline.load(spec)[1]


def run(cmd, cwd=None, stdin: bytes = b"", env=None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n{proc.stdout.decode(errors='replace')[-3000:]}" \
                                 f"\n{proc.stderr.decode(errors='replace')[-3000:]}"
    return proc.stdout.decode("utf-8")


# ------------------------------------------------------------------ js
def _node() -> str:
    return tools.need(tools.node)


@pytest.mark.parametrize("spec", SPECS)
def test_js_package_own_tests_pass(tmp_path, spec):
    """`node --test` in the exported folder runs the package's suite, and it passes."""
    node = _node()
    out = tmp_path / "pkg"
    export(automaton(spec), "js", out)
    text = run([node, "--test"], cwd=out)
    assert re.search(r"^# pass [1-9]", text, re.M) and re.search(r"^# fail 0$", text, re.M), text[-2000:]


@pytest.mark.parametrize("spec", SPECS)
def test_js_package_json_and_types_declare_every_export(tmp_path, spec):
    a = automaton(spec)
    out = tmp_path / "pkg"
    export(a, "js", out)
    mod = registry.module_name(spec)
    pkg = json.loads((out / "package.json").read_text("utf-8"))
    assert pkg["name"] == "encspec-" + mod.replace("_", "-")
    assert pkg["type"] == "module" and pkg["types"] == f"./{mod}.d.ts"
    assert list(pkg["exports"]["."]) == ["types", "default"]  # TypeScript needs types first
    assert pkg["exports"]["."]["default"] == f"./{mod}.mjs"
    assert all((out / f).is_file() for f in pkg["files"])
    assert pkg["encspec"]["specSha256"] == a.spec_sha256
    module = (out / f"{mod}.mjs").read_text("utf-8")
    exported = set(re.findall(r"^export (?:const|function\*?) (\w+)", module, re.M))
    assert {"tokens", "scan", "decode", "decodeCodePoints", "step", "NAME", "SIGNATURE"} <= exported
    dts = (out / f"{mod}.d.ts").read_text("utf-8")
    declared = set(re.findall(r"^export (?:const|function) (\w+)", dts, re.M))
    assert declared == exported
    assert a.spec_sha256 in dts and "do not edit" in dts


CONSUMER = r"""
import { decode, decodeCodePoints, NAME } from "PKG";
const data = Uint8Array.from(process.argv[2].match(/../g) || [], (h) => parseInt(h, 16));
console.log(NAME, decodeCodePoints(data).map((v) => v.toString(16).toUpperCase()).join(" "));
console.log(Array.from(decode(data), (c) => c.codePointAt(0).toString(16).toUpperCase()).join(" "));
try {
  await import("PKG/tokens.mjs");
  console.log("tokens.mjs importable");
} catch (e) {
  console.log(e.code);
}
"""


@pytest.mark.parametrize("spec, hexdata, cps", [
    ("utf-8", "41C3A9E28241F09F9880", "41 E9 FFFD 41 1F600"),
    ("corrected-utf-8", "EFB79DEDB2AE000AC080FE", "A0 FFFD"),
    ("wtf-8", "EDA08041", "D800 41"),
])
def test_js_package_imports_by_name(tmp_path, spec, hexdata, cps):
    """Another folder imports the package by its name (node_modules/NAME is a symlink):
    the exports map gives the module and keeps the demo private."""
    node = _node()
    out = tmp_path / "pkg"
    export(automaton(spec), "js", out)
    name = json.loads((out / "package.json").read_text("utf-8"))["name"]
    app = tmp_path / "app"
    (app / "node_modules").mkdir(parents=True)
    (app / "node_modules" / name).symlink_to(out, target_is_directory=True)
    (app / "main.mjs").write_text(CONSUMER.replace("PKG", name), "utf-8")
    lines = run([node, "main.mjs", hexdata], cwd=app).splitlines()
    assert lines[0] == f"{spec} {cps}"
    assert lines[1] == cps
    assert lines[2] == "ERR_PACKAGE_PATH_NOT_EXPORTED"


TS_CONSUMER = """
import { tokens, startStates, decode, decodeCodePoints, scan, step, NAME, SIGNATURE, MODES, type Token, type CodePoint } from "PKG";
const data: Uint8Array = new Uint8Array([0x41, 0xC3, 0xA9]);
const all: Token[] = [...tokens(data)];
for (const t of all) {
  if (t.kind === "char") { const v: CodePoint = t.value; void v; } else if (t.kind === "error" || t.kind === "reserved") { const r: string = t.reason; void r; }
}
const s: string = decode(data);
const cps: CodePoint[] = decodeCodePoints(data);
const first: Token = scan(data, 0);
const [state, acc]: [number, number] = step(0, 0x41, 0);
const n: string = NAME;
const sig: Uint8Array = SIGNATURE;
const starts: number[] = startStates(data);
const mode: number = MODES[0].start;
void s; void cps; void first; void state; void acc; void n; void sig; void starts; void mode;
"""


@pytest.mark.parametrize("spec", ["utf-8", "utf-inf-8", "corrected-utf-8", "hz"])
def test_js_types_check_with_tsc(tmp_path, spec):
    """The .d.ts compiles under tsc --strict with Node's module resolution (tsc only if installed)."""
    tsc = tools.need(lambda: tools.find("tsc", hint="install TypeScript (npm install -g typescript); not attempted"))
    out = tmp_path / "pkg"
    export(automaton(spec), "js", out)
    name = json.loads((out / "package.json").read_text("utf-8"))["name"]
    app = tmp_path / "app"
    (app / "node_modules").mkdir(parents=True)
    (app / "node_modules" / name).symlink_to(out, target_is_directory=True)
    (app / "main.mts").write_text(TS_CONSUMER.replace("PKG", name), "utf-8")
    run([tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
         "--target", "es2022", "main.mts"], cwd=app)


# ------------------------------------------------------------------ java
CHECK = r"""
package check;

import java.io.*;
import java.nio.*;
import java.nio.charset.*;
import java.util.*;

/** Lines "? NAME" (what Charset.forName gives) or "NAME HEX" (whole|chunked|report). */
public final class Check {
    static String units(CharSequence s) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < s.length(); k++) b.append(k > 0 ? " " : "").append(String.format("%04X", (int) s.charAt(k)));
        return b.toString();
    }

    /** One byte at a time in, two chars at a time out: every held-back and overflow path. */
    static String chunked(Charset cs, byte[] data) throws Exception {
        CharsetDecoder d = cs.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        ByteBuffer in = ByteBuffer.allocate(data.length + 1);
        in.flip();
        CharBuffer out = CharBuffer.allocate(2);
        StringBuilder got = new StringBuilder();
        for (int k = 0; k <= data.length; k++) {
            boolean end = k == data.length;
            if (!end) { in.compact(); in.put(data[k]); in.flip(); }
            for (;;) {
                CoderResult r = d.decode(in, out, end);
                out.flip(); got.append(out); out.clear();
                if (r.isUnderflow()) break;
                if (!r.isOverflow()) throw new IllegalStateException(r.toString());
            }
        }
        for (;;) {
            CoderResult r = d.flush(out);
            out.flip(); got.append(out); out.clear();
            if (r.isUnderflow()) break;
            if (!r.isOverflow()) throw new IllegalStateException(r.toString());
        }
        return units(got);
    }

    /** REPORT: every problem's kind and length (M malformed, U unmappable), skipped, in order. */
    static String report(Charset cs, byte[] data) throws Exception {
        CharsetDecoder d = cs.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(data);
        CharBuffer out = CharBuffer.allocate(2 * data.length + 2);
        List<String> parts = new ArrayList<>();
        for (boolean flushing = false;;) {
            CoderResult r = flushing ? d.flush(out) : d.decode(in, out, true);
            out.flip();
            if (out.hasRemaining()) parts.add(units(out));
            out.clear();
            if (r.isError()) {
                parts.add((r.isMalformed() ? "M" : "U") + r.length());
                if (!flushing) in.position(in.position() + r.length());
                continue;
            }
            if (r.isOverflow()) throw new IllegalStateException("overflow");
            if (flushing) break;
            flushing = true;
        }
        return String.join(" ", parts);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, "US-ASCII"));
        StringBuilder out = new StringBuilder();
        for (String line; (line = lines.readLine()) != null;) {
            String[] f = line.split(" ", -1);
            if (f[0].equals("?")) {
                Charset cs = Charset.forName(f[1]);
                String enc;
                try {
                    cs.newEncoder();
                    enc = "encodes";
                } catch (UnsupportedOperationException e) {
                    enc = "decode-only";
                }
                out.append(cs.getClass().getName()).append(' ').append(cs.name()).append(' ').append(cs.canEncode())
                   .append(' ').append(enc).append(' ').append(Charset.isSupported(f[1])).append('\n');
                continue;
            }
            Charset cs = Charset.forName(f[0]);
            byte[] data = new byte[f[1].length() / 2];
            for (int k = 0; k < data.length; k++) data[k] = (byte) Integer.parseInt(f[1].substring(2 * k, 2 * k + 2), 16);
            out.append(units(new String(data, cs))).append('|').append(chunked(cs, data)).append('|')
               .append(report(cs, data)).append('\n');
        }
        System.out.print(out);
    }
}
"""

JAVA_SPECS = ["utf-8", "corrected-utf-8", "wtf-8", "cesu-8", "mutf-8", "utf-8-bom", "utf-inf-8"]

# (charset name, input) -> (new String's UTF-16 units, REPORT's units and problems); written by hand
HAND = {
    ("x-encspec-utf-8", "41C3A9E282ACF09F9880"): ("0041 00E9 20AC D83D DE00", "0041 00E9 20AC D83D DE00"),
    ("x-encspec-utf-8", "C0AF41"): ("FFFD FFFD 0041", "M1 M1 0041"),
    ("x-encspec-utf-8", "E28241"): ("FFFD 0041", "M2 0041"),
    ("x-encspec-utf-8", "F09F98"): ("FFFD", "M3"),
    ("x-encspec-utf-8", "EDA080"): ("FFFD FFFD FFFD", "M1 M1 M1"),
    ("x-encspec-utf-8", "F4908080"): ("FFFD FFFD FFFD FFFD", "M1 M1 M1 M1"),
    ("corrected-utf-8", "C080"): ("00A0", "00A0"),  # packed: 2-byte codes start after U+009F (C1 skipped)
    ("corrected-utf-8", "E08080"): ("08A0", "08A0"),
    ("corrected-utf-8", "41FE42"): ("0041 FFFD 0042", "0041 U1 0042"),  # FE: reserved
    ("corrected-utf-8", "F08080"): ("FFFD", "M3"),
    ("corrected-utf-8", "EFB79DEDB2AE000A41"): ("0041", "0041"),  # the signature
    ("corrected-utf-8", "EFB79D"): ("D803 DE7D", "D803 DE7D"),  # a signature's prefix is a char
    ("corrected-utf-8", "EFB79DEDB2"): ("D803 DE7D FFFD", "D803 DE7D M2"),
    ("corrected-utf-8", "F880808080"): ("FFFD", "U5"),  # U+2110A0: beyond UTF-16
    ("wtf-8", "EDA080"): ("D800", "D800"),
    ("wtf-8", "EDA08041"): ("D800 0041", "D800 0041"),
    ("wtf-8", "EDA080EDB080"): ("FFFD", "M6"),  # a surrogate pair is one ill-formed sequence
    ("wtf-8", "EDA080ED"): ("D800 FFFD", "D800 M1"),
    ("wtf-8", "F09F9880"): ("D83D DE00", "D83D DE00"),
    ("x-encspec-cesu-8", "EDA0BDEDB880"): ("D83D DE00", "D83D DE00"),
    ("x-encspec-cesu-8", "F09F9880"): ("FFFD FFFD FFFD FFFD", "M1 M1 M1 M1"),
    ("x-encspec-cesu-8", "EDA0BD41"): ("FFFD 0041", "M3 0041"),
    ("mutf-8", "C080"): ("0000", "0000"),
    ("mutf-8", "00"): ("FFFD", "M1"),
    ("mutf-8", "EDA0BDEDB880"): ("D83D DE00", "D83D DE00"),
    ("mutf-8", "EDA0BD"): ("D83D", "D83D"),
    ("mutf-8", "EDA0BDED"): ("D83D FFFD", "D83D M1"),
    ("mutf-8", "F09F9880"): ("FFFD FFFD FFFD FFFD", "M1 M1 M1 M1"),
    ("utf-8-bom", "EFBBBF41"): ("0041", "0041"),
    ("utf-8-bom", "EFBB"): ("FFFD", "M2"),
    ("utf-8-bom", "41EFBBBF"): ("0041 FEFF", "0041 FEFF"),
}


def _java_tools() -> dict[str, str]:
    return {"javac": tools.need(tools.javac), "java": tools.need(tools.java)}


@pytest.fixture(scope="module")
def java_check(tmp_path_factory):
    """The JAVA_SPECS exported (default packages), built with build-jar (classes + META-INF
    when jar is missing), and the Check program compiled in its own package."""
    t = _java_tools()
    root = tmp_path_factory.mktemp("java")
    env = dict(os.environ, JAVAC=t["javac"], JAVACFLAGS="-Xlint:all -Werror")
    try:
        env["JAR"] = tools.find("jar", [str(Path(t["javac"]).parent)])
        have_jar = True
    except tools.ToolMissing:
        env["JAR"] = str(root / "no-jar")
        have_jar = False
    path = []
    for spec in JAVA_SPECS:
        out = root / spec
        export(automaton(spec), "java", out)
        proc = subprocess.run([str(out / "build-jar")], capture_output=True, timeout=TIMEOUT, env=env)
        jar = out / "build" / f"encspec-{registry.module_name(spec).replace('_', '-')}.jar"
        if have_jar:
            assert proc.returncode == 0 and jar.is_file(), proc.stderr.decode(errors="replace")
            path.append(str(jar))
        else:
            assert proc.returncode == 1 and b"not found" in proc.stderr
            path.append(str(out / "build" / "classes"))
    (root / "check").mkdir()
    (root / "check" / "Check.java").write_text(CHECK, "utf-8")
    run([t["javac"], "-d", str(root / "check-classes"), str(root / "check" / "Check.java")])
    cp = os.pathsep.join([str(root / "check-classes")] + path)
    return lambda lines: run([t["java"], "-cp", cp, "check.Check"],
                             stdin="".join(x + "\n" for x in lines).encode("ascii")).splitlines()


def test_java_charset_for_name(java_check):
    """Charset.forName finds each export's Charset through its provider (by name and by
    x-encspec- alias); the JDK's own utf-8 and cesu-8 come first for those names."""
    names = ["corrected-utf-8", "x-encspec-corrected-utf-8", "wtf-8", "mutf-8", "x-encspec-utf-8",
             "x-encspec-cesu-8", "utf-8", "X-ENCSPEC-UTF-INF-8"]
    got = java_check([f"? {n}" for n in names])
    assert got[:6] == [
        "org.encspec.correctedutf8.CorrectedUtf8Charset corrected-utf-8 true encodes true",
        "org.encspec.correctedutf8.CorrectedUtf8Charset corrected-utf-8 true encodes true",
        "org.encspec.wtf8.Wtf8Charset wtf-8 true encodes true",
        "org.encspec.mutf8.Mutf8Charset mutf-8 true encodes true",
        "org.encspec.utf8.Utf8Charset utf-8 true encodes true",
        "org.encspec.cesu8.Cesu8Charset cesu-8 true encodes true",
    ]
    assert not got[6].startswith("org.encspec.") and got[6].endswith("encodes true")  # the JDK's UTF-8
    assert got[7] == "org.encspec.utfinf8.UtfInf8Charset utf-inf-8 true encodes true"


def test_java_charset_decodes_hand_written_inputs(java_check):
    """new String(bytes, charset): one U+FFFD per maximal subpart; REPORT gives each span;
    decoding a byte at a time (two chars of room at a time) gives the same string."""
    keys = list(HAND)
    got = java_check([f"{name} {data}" for name, data in keys])
    bad = []
    for (name, data), line in zip(keys, got, strict=True):
        whole, report = HAND[name, data]
        if line != f"{whole}|{whole}|{report}":
            bad.append(f"{name} {data}: want {whole}|{whole}|{report}, got {line}")
    assert not bad, "\n".join(bad)


def _expect(spec: str, data: bytes) -> tuple[str, str]:
    """From the reference tokens: new String's units, and REPORT's units and problems."""
    units, report = [], []
    for kind, start, end, value in encspec.load(spec).tokens(data):
        if kind == "signature":
            continue
        if kind == "char" and value <= 0x10FFFF:
            u = [f"{value:04X}"] if value < 0x10000 else [
                f"{0xD800 + ((value - 0x10000) >> 10):04X}", f"{0xDC00 + ((value - 0x10000) & 0x3FF):04X}"]
            units += u
            report += u
        else:
            units.append("FFFD")
            report.append(f"{'M' if kind == 'error' else 'U'}{end - start}")
    # REPORT prints the chars between problems as one group: same words either way
    return " ".join(units), " ".join(report)


@pytest.mark.parametrize("spec", JAVA_SPECS)
def test_java_charset_follows_the_conformance_vectors(java_check, spec):
    """Every kept conformance vector, decoded through Charset.forName("x-encspec-NAME"),
    whole and a byte at a time, agrees with the reference tokens."""
    _, vectors = package_tests.vectors(automaton(spec))
    items = [v["data"] for v in vectors] + [b"A" + v["data"] + b"A" for v in vectors]
    got = java_check([f"x-encspec-{spec} {d.hex().upper()}" for d in items])
    bad = []
    for data, line in zip(items, got, strict=True):
        whole, report = _expect(spec, data)
        if line != f"{whole}|{whole}|{report}":
            bad.append(f"{data.hex(' ').upper()}: want {whole}|{whole}|{report}, got {line}")
    assert not bad, f"{len(bad)} of {len(items)} differ:\n" + "\n".join(bad[:10])


def test_java_package_option(tmp_path, capsys):
    """--java-package puts the sources under that package; a bad name is one line, exit 2, nothing written."""
    from encspec.cli import main
    assert main(["export", "utf-8", "--lang", "java", "--java-package", "com.example.text", "-o",
                 str(tmp_path / "x")]) == 0
    src = tmp_path / "x" / "src" / "main" / "java" / "com" / "example" / "text"
    assert sorted(p.name for p in src.iterdir()) == ["Utf8.java", "Utf8Charset.java", "Utf8CharsetProvider.java",
                                                     "Utf8Encode.java", "Utf8Encoder.java", "Utf8Tokens.java"]
    assert all(p.read_text("utf-8").count("\npackage com.example.text;\n") == 1 for p in src.iterdir())
    services = tmp_path / "x" / "src/main/resources/META-INF/services/java.nio.charset.spi.CharsetProvider"
    assert services.read_text("utf-8").splitlines()[-1] == "com.example.text.Utf8CharsetProvider"
    capsys.readouterr()
    for bad in ["com.example.int", "9lives", "a..b", "com.example.", "a-b"]:
        assert main(["export", "utf-8", "--lang", "java", "--java-package", bad, "-o", str(tmp_path / bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not a Java package name" in err, err
        assert not (tmp_path / bad).exists()
    assert main(["export", "utf-8", "--lang", "js", "--java-package", "a.b", "-o", str(tmp_path / "y")]) == 2
    assert "--java-package applies to --lang java only" in capsys.readouterr().err


def test_java_default_package_names():
    from encspec.emit.java_target import default_package
    assert [default_package(automaton(s)) for s in ["utf-8", "corrected-utf-8", "utf-inf-8", "utf-8-bom"]] == [
        "org.encspec.utf8", "org.encspec.correctedutf8", "org.encspec.utfinf8", "org.encspec.utf8bom"]
