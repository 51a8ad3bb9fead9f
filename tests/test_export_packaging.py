"""Exports are real packages (issue 28, item 4).

Each package has a README generated from the spec (what it is, how to build it,
how to run its tests, an example of decoding in its language); the Java package
has a pom.xml and its Charset answers to the spec's aliases; the regenerate line
of every exported file repeats how the export was made (a path stays that path,
a built-in stays its name); the C header sits in include/encspec/NAME.h and is
included as <encspec/NAME.h>.  The README examples are compiled and run, and
their output is compared with CPython's codecs (an independent decoder).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

import tools
from encspec import pipeline
from encspec.spec import registry

LANGS = ["c", "rust", "js", "java"]
# what each README must tell: its build and test commands (indented code lines)
COMMANDS = {"c": ["make", "make check", "make install PREFIX=/usr/local"], "rust": ["cargo build", "cargo test"],
            "js": ["npm install path/to/this/folder", "npm test"], "java": ["mvn package", "mvn test", "./build-jar"]}
FENCES = {"c": "c", "rust": "rust", "js": "js", "java": "java"}
POM = "{http://maven.apache.org/POM/4.0.0}"
TIMEOUT = 600
# the text each README example decodes (the codec's own bytes, then one bad byte in the middle)
SAMPLES = {"utf-8": ("utf-8", "h\u00e9llo \u2603 \U0001F600"), "big5": ("big5", "\u4e2d\u6587 Big5")}


@cache
def automaton(spec: str):
    return pipeline.load(spec)[1]


def render(spec: str, lang: str, **options) -> dict[str, str]:
    return pipeline.render_files(automaton(spec), lang, options or None)


def example(readme: str, lang: str, k: int = 0) -> str:
    """The README's example program: its fenced block *k* in the language (0 decodes, 1 encodes)."""
    blocks = re.findall(rf"^```{FENCES[lang]}\n(.*?)^```$", readme, re.M | re.S)
    assert 1 <= len(blocks) <= 2, readme
    return blocks[k]


def sample(spec: str) -> tuple[bytes, list[str]]:
    """Bytes with a bad byte inside, and the code points CPython decodes them to (errors="replace")."""
    codec, text = SAMPLES[spec]
    data = text[:3].encode(codec) + b"\xff" + text[3:].encode(codec)
    return data, [f"U+{ord(c):04X}" for c in data.decode(codec, "replace")]


def run(cmd, cwd=None, stdin: bytes = b"", env=None, ok: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, timeout=TIMEOUT, env=env)
    if ok:
        assert proc.returncode == 0, f"{cmd} exited {proc.returncode}:\n" \
            f"{proc.stdout.decode(errors='replace')[-3000:]}\n{proc.stderr.decode(errors='replace')[-3000:]}"
    return proc


# ------------------------------------------------------------------ README
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", ["utf-8", "big5", "shift_jis"])  # shift_jis: a `_` in a code span
def test_readme_names_the_spec_its_commands_and_an_example(spec, lang):
    a = automaton(spec)
    text = render(spec, lang)["README.md"]
    plain = text.replace("\\", "")  # Markdown's escapes off: the spec's own text
    assert a.title in plain and a.source in plain and all(alias in plain for alias in a.aliases)
    assert f"`encspec tokens {spec} FILE`" in text
    for command in COMMANDS[lang]:
        assert re.search(rf"^    {re.escape(command)}( |$)", text, re.M), command
    assert f"\n    encspec export {spec} --lang {lang} -o DIR\n" in text
    code = example(text, lang)
    mod = registry.module_name(spec)
    assert {"c": f"{mod}_decode(data", "rust": f"{mod}::decode(&data", "js": "decodeCodePoints(data",
            "java": "Charset.forName("}[lang] in code
    assert "issue" not in text.lower()  # it says what the package does, not what it may do


# ------------------------------------------------------------------ regenerate line
def exported_texts(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text("utf-8") for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("lang", LANGS)
def test_regenerate_line_repeats_a_path_as_given(tmp_path, monkeypatch, capsys, lang):
    """A spec given by a (relative, quoted) path: every file says that path, and running the
    line it says writes the same package again."""
    from encspec.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my specs").mkdir()
    (tmp_path / "my specs" / "x.encspec").write_text(registry.find("utf-8").read_text("utf-8"), "utf-8")
    assert main(["export", "./my specs/x.encspec", "--lang", lang, "-o", "first"]) == 0
    line = f"encspec export './my specs/x.encspec' --lang {lang} -o DIR"
    texts = exported_texts(tmp_path / "first")
    assert texts and not [name for name, text in texts.items() if line not in text]
    argv = shlex.split(line)[1:]
    assert main([*argv[:-1], "second"]) == 0
    assert exported_texts(tmp_path / "second") == texts
    capsys.readouterr()


@pytest.mark.parametrize("lang", LANGS)
def test_regenerate_line_names_a_builtin(tmp_path, lang):
    """A built-in given by an alias (U8): every file says the built-in's name; the Java package
    option is repeated."""
    from encspec.cli import main
    extra = ["--java-package", "com.example.text"] if lang == "java" else []
    assert main(["export", "U8", "--lang", lang, "-o", str(tmp_path / "p"), *extra]) == 0
    line = shlex.join(["encspec", "export", "utf-8", "--lang", lang, "-o", "DIR", *extra])
    texts = exported_texts(tmp_path / "p")
    assert not [name for name, text in texts.items() if line not in text]
    assert not [name for name, text in texts.items() if "export U8" in text]


def test_regenerate_line_without_the_argument():
    """The library call (no SPEC argument): a built-in's name, else the spec's path."""
    files = render("big5", "c")
    assert "regenerate with `encspec export big5 --lang c -o DIR`." in files["Makefile"]


# ------------------------------------------------------------------ C layout
@pytest.mark.parametrize("spec", ["utf-8", "big5"])
def test_c_header_is_included_as_encspec_name(spec):
    mod = registry.module_name(spec)
    files = render(spec, "c")
    assert f"include/encspec/{mod}.h" in files and not [n for n in files if n.endswith(".h") and "/" not in n]
    for name in ("tokens.c", "check.c", f"{mod}.c", "README.md"):
        assert f"#include <encspec/{mod}.h>" in files[name] and f'"{mod}.h"' not in files[name], name
    assert "Cflags: -I${includedir}\n" in files[f"encspec-{mod.replace('_', '-')}.pc.in"]
    assert "$(INSTALL) -m 644 $(HEADER) $(DESTDIR)$(INCLUDEDIR)/encspec/" in files["Makefile"]
    assert "codegen/" not in files[f"include/encspec/{mod}.h"]  # no path of encspec's source tree


@pytest.mark.parametrize("spec", ["utf-8", "big5"])
def test_c_readme_example_compiles_with_include(tmp_path, spec):
    """The README's decode.c, built as the README says (-I include), prints CPython's code points."""
    cc = tools.need(lambda: tools.find("cc", hint="it is in Debian's gcc package"))
    out = tmp_path / "pkg"
    pipeline.export(automaton(spec), "c", out)
    (out / "decode.c").write_text(example((out / "README.md").read_text("utf-8"), "c"), "utf-8")
    mod = registry.module_name(spec)
    run([cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", "include", "-o", "decode", "decode.c",
         f"{mod}.c"], cwd=out)
    data, want = sample(spec)
    proc = run([str(out / "decode")], cwd=out, stdin=data, ok=False)
    assert proc.stdout.decode("ascii").split() == want
    assert proc.returncode == 1 and proc.stderr == b"1 error(s)\n"


# ------------------------------------------------------------------ Java
@pytest.mark.parametrize("package, group", [(None, "org.encspec"), ("com.example.text", "com.example")])
def test_pom_is_valid_xml_with_the_artifact(package, group):
    from encspec.emit.java_target import JAVA_RELEASE
    pom = ET.fromstring(render("big5", "java", java_package=package)["pom.xml"].encode("utf-8"))
    assert pom.tag == f"{POM}project"
    fields = {k: pom.findtext(f"{POM}{k}") for k in ("modelVersion", "groupId", "artifactId", "packaging", "name")}
    assert fields == {"modelVersion": "4.0.0", "groupId": group, "artifactId": "encspec-big5", "packaging": "jar",
                      "name": "Big5 (CPython's big5 codec)"}
    assert pom.findtext(f"{POM}properties/{POM}maven.compiler.release") == str(JAVA_RELEASE)
    assert pom.findtext(f"{POM}properties/{POM}encspec.specSha256") == automaton("big5").spec_sha256


def test_pom_keeps_a_tricky_title_as_text(tmp_path):
    """A title with markup, `--` and a Maven property reference stays text (the XML parses)."""
    text = registry.find("utf-8").read_text("utf-8")
    text = re.sub(r"^title .*$", lambda m: 'title "a --> <b> & ${x} \u0085"', text, flags=re.M)
    path = tmp_path / "t.encspec"
    path.write_text(text, "utf-8")
    files = pipeline.render_files(pipeline.load(str(path))[1], "java")
    pom = ET.fromstring(files["pom.xml"].encode("utf-8"))
    assert pom.findtext(f"{POM}name") == "a --> <b> & $[U+007B]x} [U+0085]"


def test_charset_aliases_are_the_legal_spec_aliases():
    from encspec.emit.java_target import charset_aliases
    assert charset_aliases(automaton("big5")) == ["x-encspec-big5", "big5-tw", "csbig5"]
    assert charset_aliases(automaton("utf-8"))[:3] == ["x-encspec-utf-8", "utf8", "u8"]
    text = render("big5", "java")["src/main/java/org/encspec/big5/Big5Charset.java"]
    assert 'ALIASES = { "x-encspec-big5", "big5-tw", "csbig5" };' in text


NAMES = r"""
import java.nio.charset.Charset;
import java.nio.charset.UnsupportedCharsetException;

public class Names {
    public static void main(String[] args) {
        for (String name : args) {
            try {
                System.out.println(Charset.forName(name).getClass().getName());
            } catch (UnsupportedCharsetException e) {
                System.out.println("unsupported");
            }
        }
    }
}
"""


@pytest.fixture(scope="module")
def java_packages(tmp_path_factory):
    """utf-8 and big5 exported and built by build-jar (compiled for pom.xml's release), and Names."""
    from encspec.emit.java_target import JAVA_RELEASE
    javac, java = tools.need(tools.javac), tools.need(tools.java)
    root = tmp_path_factory.mktemp("java")
    env = dict(os.environ, JAVAC=javac, JAVACFLAGS=f"--release {JAVA_RELEASE} -Xlint:all -Werror",
               JAR=str(root / "no-jar"))  # build/classes is the class path, jar or not
    paths = {}
    for spec in SAMPLES:
        out = root / spec
        pipeline.export(automaton(spec), "java", out)
        run([str(out / "build-jar")], env=env, ok=False)
        classes = out / "build" / "classes"
        assert (classes / "META-INF/services/java.nio.charset.spi.CharsetProvider").is_file()
        paths[spec] = str(classes)
    (root / "Names.java").write_text(NAMES, "utf-8")
    run([javac, "-d", str(root / "names"), str(root / "Names.java")])
    return {"java": java, "javac": javac, "root": root, "paths": paths, "names": str(root / "names")}


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(SAMPLES))
def test_java_aliases_reach_charset_for_name(java_packages, spec):
    """Charset.forName(alias) is the export's Charset for each of the spec's aliases, except those
    the JDK alone already knows (its charset comes first, as for any provider)."""
    j = java_packages
    a = automaton(spec)
    names = [f"x-encspec-{spec}", *a.aliases, *(x.upper() for x in a.aliases)]
    ours = f"org.encspec.{spec.replace('-', '')}.{spec.replace('-', '').capitalize()}Charset"

    def lookup(cp: str) -> list[str]:
        return run([j["java"], "-cp", cp, "Names", *names]).stdout.decode().split()
    with_pkg = lookup(os.pathsep.join([j["names"], j["paths"][spec]]))
    jdk_only = lookup(j["names"])
    assert len(with_pkg) == len(jdk_only) == len(names)
    wrong = [(n, w, k) for n, w, k in zip(names, with_pkg, jdk_only) if (w == ours) != (k == "unsupported")]
    assert not wrong
    assert with_pkg[0] == ours and with_pkg.count(ours) >= 2  # x-encspec- and at least one spec alias
    assert {"utf-8": "u8", "big5": "big5-tw"}[spec] in [n for n, w in zip(names, with_pkg) if w == ours]


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(SAMPLES))
def test_java_readme_example_decodes(java_packages, spec):
    j = java_packages
    folder = j["root"] / f"example-{spec}"
    folder.mkdir()
    readme = (j["root"] / spec / "README.md").read_text("utf-8")
    (folder / "Decode.java").write_text(example(readme, "java"), "utf-8")
    cp = os.pathsep.join([j["paths"][spec], "."])
    run([j["javac"], "-cp", cp, "Decode.java"], cwd=folder)
    data, want = sample(spec)
    assert run([j["java"], "-cp", cp, "Decode"], cwd=folder, stdin=data).stdout.decode().split() == want


def maven(folder: Path, goal: str) -> subprocess.CompletedProcess:
    """`mvn -o GOAL` in *folder*; a skip naming it where Maven or its plugins are missing (the
    machine reaches no Maven repository: they must be in Maven's local one)."""
    mvn = tools.need(lambda: tools.find("mvn", hint="it is in Debian's maven package"))
    proc = run([mvn, "-o", "-B", goal], cwd=folder, ok=False)
    log = proc.stdout.decode(errors="replace")
    if proc.returncode != 0 and "offline mode" in log:
        # a plain skip even under ENCSPEC_REQUIRE_TOOLS: .ci/run installs Maven, but no registry this
        # project reaches serves Maven's plugins or JUnit (javac tests the same package without them)
        pytest.skip(f"Maven's plugins or JUnit are not in its local repository (mvn -o): {log[-300:]}")
    return proc


@pytest.mark.slow
def test_maven_tests_and_builds_the_jar(tmp_path):
    """`mvn -o package` runs the conformance vectors (JUnit) and builds target/ARTIFACT-VERSION.jar
    with the provider's service file."""
    out = tmp_path / "pkg"
    pipeline.export(automaton("big5"), "java", out)
    proc = maven(out, "package")
    log = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0" in log
    version = ET.parse(out / "pom.xml").getroot().findtext(f"{POM}version")
    jar = out / "target" / f"encspec-big5-{version}.jar"
    import zipfile
    with zipfile.ZipFile(jar) as z:
        names = set(z.namelist())
    assert {"META-INF/services/java.nio.charset.spi.CharsetProvider", "org/encspec/big5/Big5Charset.class",
            "org/encspec/big5/Big5CharsetProvider.class"} <= names


@pytest.mark.slow
def test_maven_test_fails_on_a_wrong_vector(tmp_path):
    out = tmp_path / "pkg"
    pipeline.export(automaton("utf-8"), "java", out)
    test = out / "src/test/java/org/encspec/utf8/Utf8VectorsTest.java"
    text = test.read_text("utf-8")
    assert '"char 0 2 3BA; char 2 4 3CC;' in text
    test.write_text(text.replace('"char 0 2 3BA;', '"char 0 2 3BB;', 1), "utf-8")
    proc = maven(out, "test")
    assert proc.returncode != 0 and "1 of " in proc.stdout.decode(errors="replace")


# ------------------------------------------------------------------ JS, Rust examples
@pytest.mark.slow
@pytest.mark.parametrize("spec", list(SAMPLES))
def test_js_readme_example_decodes(tmp_path, spec):
    node = tools.need(tools.node)
    out = tmp_path / "pkg"
    pipeline.export(automaton(spec), "js", out)
    app = tmp_path / "app"
    (app / "node_modules").mkdir(parents=True)
    (app / "node_modules" / f"encspec-{spec}").symlink_to(out, target_is_directory=True)
    (app / "decode.mjs").write_text(example((out / "README.md").read_text("utf-8"), "js"), "utf-8")
    data, want = sample(spec)
    assert run([node, "decode.mjs"], cwd=app, stdin=data).stdout.decode().split() == want


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(SAMPLES))
def test_rust_readme_example_decodes(tmp_path, spec):
    """A crate that depends on the export by path, its main.rs the README's example."""
    cargo = tools.need(lambda: tools.cargo())
    out = tmp_path / "pkg"
    pipeline.export(automaton(spec), "rust", out)
    app = tmp_path / "app"
    (app / "src").mkdir(parents=True)
    (app / "Cargo.toml").write_text(f'[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                    f'[dependencies]\nencspec-{spec} = {{ path = "../pkg" }}\n', "utf-8")
    (app / "src" / "main.rs").write_text(example((out / "README.md").read_text("utf-8"), "rust"), "utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR")}
    env.update(PATH=str(Path(cargo).parent) + os.pathsep + os.environ.get("PATH", ""),
               CARGO_HOME=str(tmp_path / "cargo-home"), CARGO_NET_OFFLINE="true")
    run([cargo, "build", "--offline", "--quiet"], cwd=app, env=env)
    data, want = sample(spec)
    proc = run([str(app / "target" / "debug" / "app")], cwd=app, stdin=data, ok=False)
    assert proc.stdout.decode().split() == want and proc.returncode == 1
    shutil.rmtree(app / "target", ignore_errors=True)
