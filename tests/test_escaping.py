"""Spec strings reach generated source intact: every target compiles and says them back.

A spec's title, source, pattern reasons and profile messages are free text (a
string is anything but a double quote or a line break), and its file path is
whatever the user chose.  Written into C, Rust, JavaScript, Java or Python
source, a backslash (``\\x``, ``\\N``, ``\\u0022``), ``*/``, a trigraph, a
Unicode line separator or non-ASCII text must neither end a string or comment
early nor be read as an escape.  Each export is compiled with the real
toolchain (the flags test_export.py uses: a warning fails) and a small harness
prints the reason of the token for ED A0 80, which must be the spec's, byte for
byte.  A missing toolchain skips its test, naming the tool, unless
ENCSPEC_REQUIRE_TOOLS=1 (then it fails).

Two specs go through every target: the escape traps, and every control
character a string can hold with the Unicode line breaks and every comment end
(issue 34).  Beyond the harnesses: the JSON table, the C Makefile, the Rust
crate through cargo (test, doc with warnings as errors; slow), package.json,
the charts (the code page SVG as XML, the automaton through Graphviz) and the
native extension (slow) say the strings back.  A NUL is refused where it is.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import encspec
import tools
from encspec import emit
from encspec.pipeline import export
from tools import find, java, javac, node, rustc

# Every trap at once.  Python reads the spec as UTF-8 text; the reason is what
# the harness must print back.
REASON = ("bad \\x41 \\N{DASH} \\u0022 \\u000a */ /* ??/ ?? ' < > & % $ {} "
          "caf\u00e9 \u221e \U0001F600 \u2028\u0085\t tail \\")
TITLE = "Nasty */ /* \\x \\N \\u000a ??/ \u2028 UTF-\u221e-8 \\"
SPEC = """encoding nasty
title "{title}"
source "{source}"
aliases nasty-alias, n_2
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx min U+0080
form 3: 1110xxxx 10xxxxxx{{2}} min U+0800
form 4: 11110xxx 10xxxxxx{{3}} min U+10000
ill-formed pattern surrogate: ED A0..BF 80..BF "{reason}"
reason invalid-start "{reason}"
reason unexpected-end "{reason}"
profile document:
    warning U+0000 "{reason}"
"""
# Every control character a spec string can hold (any but NUL, a line break and a
# quote; CR would end the line when the file is read), C1 controls, the Unicode
# line breaks (a raw U+2028 ends a JavaScript line comment in old engines and is
# illegal in JSON-in-JS before ES2019), a BOM, non-BMP and tag characters, and every
# comment or string end of the targets' languages: C/Java/Rust */, HTML -->, CDATA
# ]]>, Python \'\'\', shell ` and ${}, Java \\u escapes, a final backslash.
CONTROLS = ("".join(chr(c) for c in range(1, 0x20) if c not in (0x0A, 0x0D)) + "\x7f\x80\x85\x9f\xa0"
            "\u2028\u2029\ufeff\U0001F600\U000E0001 \\ \\\\ */ /* --> <!-- ]]> \'\'\' ` ${x} {{y}} %s #{z} "
            "\\u0022 \\x41 \\N{DASH} \\u000a ??/ </script> <b>&amp; end\\")
CASES = {
    "traps": {"title": TITLE, "source": "https://example.org/*/\\x00/\u00e9", "reason": REASON},
    "controls": {"title": "T " + CONTROLS, "source": "S " + CONTROLS, "reason": CONTROLS},
}
C_FLAGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
TIMEOUT = 600


def run(cmd, cwd=None, env=None) -> str:
    proc = subprocess.run(cmd, capture_output=True, cwd=cwd, env=env, timeout=TIMEOUT)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}:\n{proc.stderr.decode(errors='replace')[-4000:]}"
    return proc.stdout.decode("ascii")


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request) -> dict:
    """The spec's strings: the escape traps, or every control character."""
    return CASES[request.param]


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory, case) -> Path:
    # a folder ending in '*' puts '*/' into the path that headers quote
    folder = tmp_path_factory.mktemp("escaping") / "odd*"
    folder.mkdir()
    path = folder / "nasty \u2028 ??.encspec"
    path.write_text(SPEC.format(**case), encoding="utf-8", newline="")
    return path


@pytest.fixture(scope="module")
def automaton(spec_path):
    from encspec import pipeline
    return pipeline.load(str(spec_path))[1]


@pytest.fixture(scope="module")
def want(case) -> str:
    """What each harness prints: the pattern's reason as UTF-8, in hex."""
    return case["reason"].encode("utf-8").hex()


def exported(automaton, lang: str, tmp_path: Path) -> Path:
    out = tmp_path / lang
    export(automaton, lang, out)
    return out


def test_the_spec_says_what_the_test_expects(automaton, case):
    """The traps reach the automaton unchanged (else the tests below prove little)."""
    assert automaton.title == case["title"]
    assert [act.reason for act in automaton.actions if act.kind == "error"] == [case["reason"]]


def test_c(tmp_path, automaton, want):
    cc = tools.need(lambda: find("cc", hint="install gcc"))
    out = exported(automaton, "c", tmp_path)
    (out / "harness.c").write_text(
        '#include <stdio.h>\n#include <encspec/nasty.h>\n'
        "int main(void)\n{\n"
        "    static const unsigned char data[] = {0xED, 0xA0, 0x80};\n"
        "    size_t pos = 0;\n    const char *p;\n    nasty_token tok;\n"
        "    if (!nasty_next(data, sizeof data, &pos, &tok) || tok.kind != NASTY_ERROR || tok.end != 3)\n"
        "        return 1;\n"
        "    for (p = tok.reason; *p; p++)\n        printf(\"%02x\", (unsigned)(unsigned char)*p);\n"
        "    return 0;\n}\n", encoding="ascii")
    exe = out / "harness"
    run([cc, *C_FLAGS, "-I", str(out / "include"), "-o", str(exe), str(out / "harness.c"), str(out / "nasty.c")])
    assert run([str(exe)]) == want
    # the demo and its script build too
    env = dict(os.environ, CC=cc, CFLAGS=" ".join(["-O2"] + C_FLAGS))
    assert run([str(out / "run-tokens")], env=env) == ""


def test_rust(tmp_path, automaton, want):
    rc = tools.need(rustc)
    out = exported(automaton, "rust", tmp_path)
    (out / "harness.rs").write_text(
        "use nasty as codec;\n\n"
        "fn main() {\n"
        "    let t = codec::tokens(&[0xED, 0xA0, 0x80]).next().unwrap();\n"
        "    assert!(t.kind == codec::Kind::Error && t.end == 3);\n"
        "    for b in t.reason.bytes() {\n        print!(\"{:02x}\", b);\n    }\n}\n", encoding="ascii")
    env = dict(os.environ, PATH=str(Path(rc).parent) + os.pathsep + os.environ.get("PATH", ""))
    run([rc, "--edition", "2021", "-D", "warnings", "--crate-type", "rlib", "--crate-name", "nasty",
         "--out-dir", str(out), str(out / "src" / "lib.rs")], env=env)
    run([rc, "--edition", "2021", "-D", "warnings", "--extern", f"nasty={out / 'libnasty.rlib'}",
         "-o", str(out / "harness"), str(out / "harness.rs")], env=env)
    assert run([str(out / "harness")]) == want
    env["RUSTC"], env["RUSTFLAGS"] = rc, "-D warnings"
    assert run([str(out / "run-tokens")], env=env) == ""


def test_js(tmp_path, automaton, want):
    nd = tools.need(node)
    out = exported(automaton, "js", tmp_path)
    (out / "harness.mjs").write_text(
        'import { scan } from "./nasty.mjs";\n'
        "const t = scan(new Uint8Array([0xED, 0xA0, 0x80]), 0);\n"
        'if (t.kind !== "error" || t.end !== 3) process.exit(1);\n'
        'process.stdout.write(Buffer.from(t.reason, "utf8").toString("hex"));\n', encoding="ascii")
    assert run([nd, str(out / "harness.mjs")]) == want
    assert run([str(out / "run-tokens")], env=dict(os.environ, NODE=nd)) == ""


def test_java(tmp_path, automaton, want):
    jc, jv = tools.need(javac), tools.need(java)
    out = exported(automaton, "java", tmp_path)
    sources = sorted((out / "src" / "main" / "java").rglob("*.java"))
    package = next(line for line in sources[0].read_text("utf-8").splitlines() if line.startswith("package "))
    package = package.split()[1].rstrip(";")
    (out / "Harness.java").write_text(
        "import java.nio.charset.StandardCharsets;\n"
        f"import {package}.Nasty;\n\n"
        "public final class Harness {\n"
        "    public static void main(String[] args) {\n"
        "        Nasty.Token t = Nasty.tokens(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}).get(0);\n"
        "        if (t.kind != Nasty.Kind.ERROR || t.end != 3) System.exit(1);\n"
        "        StringBuilder s = new StringBuilder();\n"
        "        for (byte b : t.reason.getBytes(StandardCharsets.UTF_8)) s.append(String.format(\"%02x\", b & 0xFF));\n"
        "        System.out.print(s);\n    }\n}\n", encoding="ascii")
    classes = out / "classes"
    # no -encoding: the generated sources must not depend on the platform's
    env = dict(os.environ, LC_ALL="C", LANG="C")
    run([jc, "-Xlint:all", "-Werror", "-d", str(classes), str(out / "Harness.java")] + [str(p) for p in sources],
        env=env)
    assert run([jv, "-cp", str(classes), "Harness"]) == want
    env = dict(os.environ, JAVAC=jc, JAVA=jv, JAVACFLAGS="-Xlint:all -Werror")
    assert run([str(out / "run-tokens")], env=env) == ""


def test_python_module_imports_and_says_the_reason(spec_path, case):
    codec = encspec.load(str(spec_path), backend="python")
    with pytest.raises(UnicodeDecodeError) as e:
        codec.decode(b"\xed\xa0\x80")
    assert (e.value.start, e.value.end, e.value.reason) == (0, 3, case["reason"])
    assert codec.__doc__.startswith(case["title"] + ": a codec generated by encspec")


def test_json_says_every_string(tmp_path, automaton, case):
    table = json.loads((exported(automaton, "json", tmp_path) / "nasty.json").read_text("utf-8"))
    assert (table["spec"]["title"], table["spec"]["source"]) == (case["title"], case["source"])
    assert table["spec"]["aliases"] == ["nasty-alias", "n_2"]
    assert [act["reason"] for act in table["actions"] if act["kind"] == "error"] == [case["reason"]]
    assert table["reasons"]["invalid_start"] == table["reasons"]["unexpected_end"] == case["reason"]
    assert table["profiles"][0]["rules"][0]["message"] == case["reason"]


def test_c_makefile_builds(tmp_path, automaton):
    """The Makefile and pkg-config file carry the title in comments and values: `make` builds."""
    cc = tools.need(lambda: find("cc", hint="install gcc"))
    mk = tools.need(lambda: find("make", hint="it is in Debian's make package"))
    out = exported(automaton, "c", tmp_path)
    run([mk, "-C", str(out), f"CC={cc}", "CFLAGS=" + " ".join(["-O1"] + C_FLAGS)])
    assert (out / "tokens").is_file()
    pc = (out / "encspec-nasty.pc.in").read_text("utf-8").splitlines()
    [description] = [line for line in pc if line.startswith("Description: ")]
    assert description.endswith(", generated by encspec") and description.isprintable()


@pytest.mark.slow
def test_rust_crate_tests_and_documents_with_cargo(tmp_path, automaton, case):
    """cargo reads the manifest (the title in its description), tests the crate, and
    documents it with warnings as errors (rustdoc reads the header as Markdown)."""
    tools.need(rustc)
    cargo = tools.need(lambda: find("cargo", [f"{os.environ.get('CARGO_HOME', '~/.cargo')}/bin", "~/.cargo/bin"],
                                    "install Rust with rustup"))
    out = exported(automaton, "rust", tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("RUSTFLAGS", "CARGO_BUILD_TARGET")}
    env.update(PATH=str(Path(cargo).parent) + os.pathsep + os.environ.get("PATH", ""),
               CARGO_TARGET_DIR=str(tmp_path / "target"), CARGO_HOME=str(tmp_path / "home"),
               CARGO_NET_OFFLINE="true", RUSTDOCFLAGS="-D warnings")
    proc = subprocess.run([cargo, "metadata", "--offline", "--no-deps", "--format-version", "1"], cwd=out, env=env,
                          capture_output=True, timeout=TIMEOUT, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    meta = json.loads(proc.stdout.decode("utf-8"))
    shown = "".join(c if c.isprintable() else f"[U+{ord(c):04X}]" for c in case["title"])  # cargo drops a DEL
    assert meta["packages"][0]["description"] == f"Decoder for {shown}, generated by encspec"
    run([cargo, "test", "--offline", "--quiet"], cwd=out, env=env)
    run([cargo, "doc", "--offline", "--no-deps", "--quiet"], cwd=out, env=env)


def test_js_package_json_says_the_title(tmp_path, automaton, case):
    nd = tools.need(node)
    out = exported(automaton, "js", tmp_path)
    script = ('const p = require(process.argv[1]); '
              'process.stdout.write(Buffer.from(p.description, "utf8").toString("hex"))')
    got = run([nd, "-e", script, str(out / "package.json")])
    assert bytes.fromhex(got).decode("utf-8") == f"{case['title']}: a decoder and encoder generated by encspec {encspec.__version__}"


def test_charts_are_well_formed(tmp_path, automaton, case):
    """The code page SVG is XML; the automaton's dot source renders, its error state
    labelled with the reason (backslashes as written, the rest shown as [U+XXXX])."""
    import xml.etree.ElementTree as ET

    from encspec.analyse import charts
    ET.fromstring(charts.codepage_svg(automaton, None))
    dot = charts.automaton_dot(automaton)
    assert all(line.isprintable() for line in dot.split("\n"))
    if charts.dot_binary() is None:
        tools.missing("Graphviz dot not found (searched PATH); it is in Debian's graphviz package")
    svg = ET.fromstring(charts.render_dot(dot, "svg"))
    shown = "".join(c if c.isprintable() else f"[U+{ord(c):04X}]" for c in case["reason"])
    assert f"error: {shown}" in ["".join(e.itertext()) for e in svg.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.slow
def test_native_extension_says_the_reason(spec_path, case, tmp_path, monkeypatch):
    """The native backend, compiled into a cache of the test's own, gives the same reason."""
    tools.need(lambda: find("cc", hint="install gcc"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    codec = encspec.load(str(spec_path), backend="native")
    assert codec._NATIVE is not None
    with pytest.raises(UnicodeDecodeError) as e:
        codec.decode(b"ok\xed\xa0\x80")
    assert (e.value.start, e.value.end, e.value.reason) == (2, 5, case["reason"])
    with pytest.raises(UnicodeDecodeError) as e:
        codec.decode(b"\x80")
    assert e.value.reason == case["reason"]


@pytest.mark.parametrize("statement", ['title "a\x00b"', 'source "a\x00b"', 'reason invalid-start "a\x00b"'])
def test_a_nul_in_a_string_is_refused_at_its_column(tmp_path, statement):
    from encspec.spec.diagnostics import SpecError
    from encspec.spec.parse import parse_file
    path = tmp_path / "nul.encspec"
    path.write_text(f"encoding nul\ncode-space U+0000..U+007F\n{statement}\nform 1: 00..7F\n", "utf-8")
    with pytest.raises(SpecError) as e:
        parse_file(path)
    assert (e.value.loc.line, e.value.loc.column) == (3, statement.index("\x00") + 1)
    assert e.value.message == "a string cannot hold U+0000 (NUL): C reads a string only up to it"
    assert e.value.render().splitlines()[2] == "    " + " " * statement.index("\x00") + "^"


def test_a_nul_in_a_pattern_reason_or_message_is_refused_too(tmp_path):
    from encspec.spec.diagnostics import SpecError
    from encspec.spec.parse import parse_file
    for tail in ('ill-formed pattern p: C0 80..BF "x\x00"', 'profile d:\n    warning U+0000 "\x00"'):
        column = tail.split("\n")[-1].index("\x00") + 1
        path = tmp_path / "nul.encspec"
        path.write_text(f"encoding nul\ncode-space U+0000..U+07FF\nform 1: 00..7F\n{tail}\n", "utf-8")
        with pytest.raises(SpecError) as e:
            parse_file(path)
        assert (e.value.loc.line, e.value.loc.column) == (4 + tail.count("\n"), column)


# ------------------------------------------------------------------ the filters
def test_filters_by_example():
    """Hand-written expectations: the escapes each language documents."""
    assert emit.c_string('a"b\\c?\u00e9\t') == '"a\\"b\\\\c\\?\\303\\251\\t"'
    assert emit.rust_string('a"b\\c\u00e9\U0001F600\t') == '"a\\"b\\\\c\\u{e9}\\u{1f600}\\t"'
    assert emit.js_string('a"b\\c\u00e9\u2028') == '"a\\"b\\\\c\\u00e9\\u2028"'
    assert emit.java_string('a"b\\u0022\u00e9\U0001F600\x01\t') == '"a\\"b\\\\u0022\\u00e9\\ud83d\\ude00\\001\\t"'
    assert emit.comment("a */ b /* c\u2028d\te") == "a * / b / * c[U+2028]d[U+0009]e"
    assert emit.c_comment("what???/") == "what? ? ?/"
    assert emit.java_comment("\\u002a/ \\\\u0041 \u221e") == "\\\\u002a/ \\\\u0041 \\u221e"


@given(st.text())
def test_comment_filters_leave_no_way_out(text):
    for out in (emit.comment(text), emit.c_comment(text), emit.java_comment(text)):
        assert "*/" not in out and "/*" not in out
        assert out.isprintable()
    assert "??" not in emit.c_comment(text)
    java = emit.java_comment(text)
    assert java.isascii()
    # javac decodes a backslash-u preceded by an even number of backslashes, even in a
    # comment: only the filter's own escapes of non-ASCII characters may be such
    for m in re.finditer(r"(\\+)u+([0-9a-fA-F]{4})?", java):
        if len(m.group(1)) % 2:
            assert m.group(2) and int(m.group(2), 16) >= 0x80, (text, java)


@given(st.text())
def test_string_filters_read_back(text):
    """Each literal, read by a reader of that language's escapes, gives the text back."""
    import json

    assert json.loads(emit.js_string(text)) == text
    rust = emit.rust_string(text)[1:-1]
    assert rust.isascii()
    back = re.sub(r'\\(u\{([0-9a-f]+)\}|[nrt"\\])',
                  lambda m: chr(int(m.group(2), 16)) if m.group(2) else
                  {"n": "\n", "r": "\r", "t": "\t"}.get(m.group(1), m.group(1)), rust)
    assert back == text
    c = emit.c_string(text)[1:-1]
    assert c.isascii() and "??" not in c.replace("\\?", "")
    java = emit.java_string(text)[1:-1]
    assert java.isascii()
    units = re.sub(r'\\(u[0-9a-f]{4}|[0-7]{3}|[nrtbf"\\])',
                   lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" else
                   chr(int(m.group(1), 8)) if len(m.group(1)) == 3 else
                   {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}.get(m.group(1), m.group(1)), java)
    assert units.encode("utf-16-be", "surrogatepass").decode("utf-16-be") == text
    raw = re.sub(rb'\\([0-7]{3}|[nrt"\\?])',
                 lambda m: bytes([int(m.group(1), 8)]) if len(m.group(1)) == 3 else
                 {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(m.group(1), m.group(1)), c.encode("ascii"))
    assert raw == text.encode("utf-8")
