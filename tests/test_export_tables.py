"""The C, Rust, JS and Java exports of every spec with mapping tables (issue 18) give
exactly the tokens of the reference, the decoder core (`encspec tokens`, the Python
module's ``_tokens``): the table forms' pointers looked up (Big5's entries of two
code points printed `char START END CA+304`), the error spans (maximal subpart,
one unit, through the failing byte up to a restored byte) and the unmapped
reason's spans.

Each export is written once per spec and driven through its own ``run-tokens
--batch`` (one build and one process per spec and language, all of them run side
by side; C with -Wall -Wextra -pedantic -Werror, Rust with -D warnings, Java
with -Xlint:all -Werror, every spec's classes compiled by one javac), on, per
spec:

* every input of one and of two bytes;
* where the spec has longer forms, every sequence of three and four byte classes
  that the automaton does not reject before its last byte (each class by one of
  its bytes, two ways);
* the bytes of every pointer of every table form's index (and the pointers just
  outside it), and for a ranges table the edges of every run and seeded random
  pointers, each alone and followed by a byte;
* a few thousand seeded random documents of valid sequences, truncated and
  damaged ones, ASCII and stray bytes.

The Java export's java.nio Charset (which the run-tokens above do not use)
decodes the random documents and a long text of the spec's script, whole and
fed three bytes at a time, to what the module's decode(data, "replace") gives.
The Java package's encoder is tests/test_export_encode_java.py's (on big5,
gb18030, shift_jis, euc-jp, big5hkscs, cp1252 among others); the native
extension's decoding is tests/test_native_tables.py's.  Each table's data
carries a comment naming it, its spec line, its file and the file's SHA-256:
checked here in every language's source.

A missing compiler or runtime skips that language naming it (cc, rustc, node,
javac); ENCSPEC_REQUIRE_TOOLS=1 makes that a failure.  A table spec that does not
compile (one being written) skips its cases with the spec's error.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

import conftest
import encspec
import tools
from encspec import pipeline
from encspec.pipeline import export
from encspec.runtime.tables import digits_bytes
from encspec.spec import registry
from encspec.spec.diagnostics import SpecError

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

ROOT = Path(__file__).resolve().parents[1]
LANGS = ["c", "rust", "js", "java"]
N_RANDOM = 3000
TIMEOUT = 600


def table_specs() -> list[str]:
    """Every representative built-in spec (conftest) with a `table` statement, but those with
    modes, which the exports refuse by name (tests/test_modes.py)."""
    out = []
    for path in map(registry.find_builtin, conftest.representative_builtins()):
        if re.search(r"^table\s", path.read_text("utf-8"), re.M) and not conftest.has_modes(path.stem):
            out.append(path.stem)
    return sorted(out)


SPECS = table_specs()


@cache
def cc() -> str:
    return tools.find("cc", hint="it is in Debian's gcc package")


TOOLS = {"c": cc, "rust": tools.rustc, "js": tools.node, "java": tools.javac}


@cache
def automaton(spec: str):
    """The spec's automaton, or the SpecError that says why it does not compile."""
    try:
        return pipeline.load(spec)[1]
    except SpecError as e:
        return e


def need_automaton(spec: str):
    a = automaton(spec)
    if isinstance(a, SpecError):
        pytest.skip(f"{spec} does not compile (being written?): {str(a).splitlines()[0]}")
    return a


# ------------------------------------------------------------------ inputs
def class_inputs(a, rng: random.Random) -> list[bytes]:
    """Sequences of three and four byte classes that the automaton does not reject
    before their last byte, each class spelled by a random byte of it and by its
    first or last byte."""
    members = a.class_bytes()
    out = []
    layer = [((), 0)]  # (classes so far, state after them)
    for length in range(1, 5):
        nxt = []
        for classes, state in layer:
            for c in range(a.n_classes):
                t = a.next[state][c]
                seq = classes + (c,)
                if length >= 3:
                    out.append(seq)
                if 0 <= t < a.n_states:
                    nxt.append((seq, t))
        layer = nxt
        if length >= 2 and not layer:
            break
    items = []
    for seq in out:
        items.append(bytes(rng.choice(members[c]) for c in seq))
        items.append(bytes(members[c][0] if rng.random() < 0.5 else members[c][-1] for c in seq))
    return items


def table_form_inputs(a, rng: random.Random) -> tuple[list[bytes], list[bytes]]:
    """(every pointer's bytes of every table form, with neighbours; the valid ones)."""
    items, valid = [], []
    for f in a.forms.values():
        if getattr(f, "kind", "") != "table":
            continue
        t = a.tables[f.table]
        size = 1
        for runs in f.positions:
            size *= sum(hi - lo + 1 for lo, hi in runs)
        if t.ranges:
            pointers = set()
            for s, last in zip(t.starts, t.lasts):
                pointers.update((s - 1, s, s + 1, last - 1, last, last + 1))
            pointers.update(rng.randrange(size) for _ in range(300))
        else:
            pointers = set(range(t.base - 1, t.base + len(t.values) + 1))
        overrides = getattr(t, "overrides", None)
        if overrides is None:
            overrides = getattr(t, "sequences", ())
        pointers.update(p for p, _ in overrides)
        for p in sorted(pointers):
            if 0 <= p < size:
                seq = digits_bytes(f.positions, p, f.order)
                items.append(seq)
                if t.lookup(p) is not None:
                    valid.append(seq)
        for seq in rng.sample(items, min(len(items), 2000)):
            items.append(seq + bytes([rng.randrange(256)]))
    return items, valid


def random_inputs(a, valid: list[bytes], rng: random.Random, n: int = N_RANDOM) -> list[bytes]:
    pieces = valid or [b"A"]
    docs = []
    for _ in range(n):
        doc = bytearray()
        for _ in range(rng.randrange(1, 9)):
            r = rng.random()
            seq = rng.choice(pieces)
            if r < 0.4:
                doc += seq
            elif r < 0.55:
                doc += bytes(rng.randrange(0x20, 0x7F) for _ in range(rng.randrange(1, 4)))
            elif r < 0.7:
                doc += seq[:rng.randrange(len(seq))] if len(seq) > 1 else seq
            elif r < 0.85:
                damaged = bytearray(seq)
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
                doc += damaged
            else:
                doc.append(rng.randrange(0x80, 0x100))
        docs.append(bytes(doc))
    return docs


@cache
def spec_inputs(spec: str) -> list[bytes]:
    a = need_automaton(spec)
    rng = random.Random(f"tables:{spec}")
    items = [bytes([b]) for b in range(256)] + [bytes([x, y]) for x in range(256) for y in range(256)]
    items += class_inputs(a, rng)
    pointers, valid = table_form_inputs(a, rng)
    items += pointers
    items += random_inputs(a, valid, rng)
    return items


# ------------------------------------------------------------------ reference
def token_lines(module, data: bytes) -> list[str]:
    """The reference's tokens, as `encspec tokens` prints them."""
    return conftest.token_lines(t[:4] for t in module._tokens(data))


@cache
def expected(spec: str) -> list[list[str]]:
    module = encspec.load(spec, backend="python")
    return [token_lines(module, data) for data in spec_inputs(spec)]


# ------------------------------------------------------------------ exports
def export_dir(lang: str, spec: str, root: Path) -> Path:
    """Export *spec* to *lang* under *root*: its folder."""
    a = automaton(spec)
    out = root / f"{registry.module_name(a.name)}-{lang}"
    out.parent.mkdir(parents=True, exist_ok=True)
    export(a, lang, out)
    return out


def run_export(lang: str, spec: str, root: Path, exported: bool = False) -> list[list[str]]:
    """Export *spec* to *lang* under *root* (unless *exported*), and its run-tokens --batch's
    answer to every input."""
    a = automaton(spec)
    out = root / f"{registry.module_name(a.name)}-{lang}"
    if not exported:
        export_dir(lang, spec, root)
    env = dict(os.environ)
    if lang == "rust":  # rustup's rustc needs its folder on PATH (its linker lookups)
        env["PATH"] = str(Path(tools.rustc()).parent) + os.pathsep + env.get("PATH", "")
        env["RUSTC"] = tools.rustc()
        env["RUSTFLAGS"] = "-D warnings"
    elif lang == "js":
        env["NODE"] = tools.node()
    elif lang == "java":
        env["JAVAC"], env["JAVA"] = tools.javac(), tools.java()
    elif lang == "c":
        env["CC"] = cc()
        env["CFLAGS"] = "-O2 -Wall -Wextra -pedantic -Werror"
    stdin = tools.hex_lines(spec_inputs(spec))
    proc = subprocess.run([str(out / "run-tokens"), "--batch"], input=stdin, capture_output=True,
                          timeout=TIMEOUT, env=env)
    if proc.returncode != 0:
        raise AssertionError(f"{lang} run-tokens of {spec} exited {proc.returncode}:\n"
                             + proc.stderr.decode("utf-8", "replace")[-4000:])
    return conftest.end_groups(proc.stdout.decode("ascii"))


def run_java(specs: list[str], root: Path, futures: dict) -> None:
    """The Java exports: every spec's classes compiled by one javac (each export's
    build/tokens is that one folder, so its run-tokens finds them up to date and only
    runs them), then each spec's run-tokens; each answer (or failure) into its future."""
    try:
        outs = [export_dir("java", spec, root) for spec in specs]
        classes = root / "classes"
        sources = [str(f) for out in outs for f in sorted((out / "src" / "main" / "java").rglob("*.java"))]
        tools.run([tools.javac(), "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", str(classes), *sources])
        for out in outs:
            (out / "build").mkdir(exist_ok=True)
            (out / "build" / "tokens").symlink_to(classes, target_is_directory=True)
    except BaseException as e:  # every spec's test reports it
        for spec in specs:
            futures[spec].set_exception(e)
        return
    for spec in specs:
        try:
            futures[spec].set_result(run_export("java", spec, root, exported=True))
        except BaseException as e:
            futures[spec].set_exception(e)


def _available(lang: str) -> bool:
    try:
        TOOLS[lang]()
        if lang == "java":
            tools.java()
        return True
    except tools.ToolMissing:
        return False


EXPORTS: dict = {}  # "root": the folder the exports are written under (root / lang / MODULE-lang)


@pytest.fixture(scope="session")
def answers(tmp_path_factory):
    """(lang, spec) -> a future of its run-tokens answers: every export built and run
    side by side, started on first use."""
    root = tmp_path_factory.mktemp("table-exports")
    EXPORTS["root"] = root
    pool = ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2)))
    jobs = {}
    ok_specs = [s for s in SPECS if not isinstance(automaton(s), SpecError)]
    for spec in ok_specs:
        spec_inputs(spec)  # made here, once, not in the threads
    # the slowest (Java, Rust) first, so that they overlap the rest
    if _available("java"):
        futures = {spec: Future() for spec in ok_specs}
        jobs.update({("java", spec): f for spec, f in futures.items()})
        pool.submit(run_java, ok_specs, root / "java", futures)
    for lang in ["rust", "js", "c"]:
        if _available(lang):
            for spec in ok_specs:
                jobs[lang, spec] = pool.submit(run_export, lang, spec, root / lang)
    yield jobs
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", LANGS)
def test_run_tokens_agree_with_the_reference(lang, spec, answers):
    tools.need(TOOLS[lang])
    if lang == "java":
        tools.need(tools.java)
    need_automaton(spec)
    got = answers[lang, spec].result()
    items = spec_inputs(spec)
    want = expected(spec)
    assert len(got) == len(items), f"{len(got)} answers for {len(items)} inputs"
    bad = [f"{data.hex(' ').upper()}\n  want {w}\n  got  {g}"
           for data, w, g in zip(items, want, got) if w != g]
    assert not bad, f"{lang} {spec}: {len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:10])


def test_the_inputs_reach_every_kind_of_token():
    """The inputs hold entries of several code points (Big5), unmapped pointers and
    errors cut before a restored byte, where the specs have them."""
    seen = set()
    for spec in SPECS:
        a = automaton(spec)
        if isinstance(a, SpecError):
            continue
        for data, lines in zip(spec_inputs(spec), expected(spec)):
            for line in lines:
                kind, start, end, *value = line.split()
                if value and "+" in value[0]:
                    seen.add("several")
                if kind == "error" and a.error_span == "through-failing-byte" and int(end) < len(data) \
                        and int(end) - int(start) > 1:
                    seen.add("through")
    if "whatwg-big5" in SPECS and not isinstance(automaton("whatwg-big5"), SpecError):
        assert "several" in seen
    if any(not isinstance(automaton(s), SpecError) and automaton(s).error_span == "through-failing-byte"
           for s in SPECS):
        assert "through" in seen


@pytest.mark.parametrize("spec", SPECS)
def test_every_table_is_named_in_every_language(spec):
    """Each table's data says which table it is: its name, spec line, file and SHA-256."""
    from encspec.pipeline import render_files
    a = need_automaton(spec)
    for lang in LANGS:
        text = "\n".join(render_files(a, lang).values())
        for t in a.tables:
            assert f"table {t.name} (spec line {t.line}): {t.source}, SHA-256 {t.sha256}" in text, (lang, t.name)


# ------------------------------------------------------------ the Java Charset
CHARSETS = r"""
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Each line: a charset's index (its class among the arguments), a space, hex bytes.  Prints the
    UTF-16 units of new String(bytes, charset), a space, those of a CharsetDecoder fed 3 bytes at a time. */
public class TableCharsets {
    static String units(CharSequence s) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < s.length(); k++) {
            b.append(String.format("%04x", (int) s.charAt(k)));
        }
        return b.toString();
    }

    public static void main(String[] args) throws Exception {
        Charset[] cs = new Charset[args.length];
        for (int k = 0; k < args.length; k++) {
            cs[k] = (Charset) Class.forName(args[k]).getField("INSTANCE").get(null);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            int sp = line.indexOf(' ');
            Charset c = cs[Integer.parseInt(line.substring(0, sp))];
            String hex = line.substring(sp + 1);
            byte[] data = new byte[hex.length() / 2];
            for (int k = 0; k < data.length; k++) {
                data[k] = (byte) Integer.parseInt(hex.substring(2 * k, 2 * k + 2), 16);
            }
            String whole = new String(data, c);
            CharsetDecoder dec = c.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            ByteBuffer bb = ByteBuffer.allocate(data.length + 8);
            CharBuffer cb = CharBuffer.allocate(2 * data.length + 16);
            for (int k = 0; k < data.length; k += 3) {
                bb.put(data, k, Math.min(3, data.length - k));
                bb.flip();
                dec.decode(bb, cb, false);
                bb.compact();
            }
            bb.flip();
            dec.decode(bb, cb, true);
            dec.flush(cb);
            cb.flip();
            out.append(units(whole)).append(' ').append(units(cb)).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
"""


def test_java_charset_decodes_as_the_module_replaces(answers, tmp_path):
    from encspec.bench.run import table_codec, table_corpus
    from encspec.emit import export_common
    from encspec.emit.java_target import default_package
    tools.need(tools.javac)
    tools.need(tools.java)
    specs = [s for s in SPECS if not isinstance(automaton(s), SpecError)]
    if not specs:
        pytest.skip("no table spec compiles")
    for spec in specs:
        answers["java", spec].result()  # built: its classes are in build/tokens
    classes, names, items, want = [EXPORTS["root"] / "java" / "classes"], [], [], []
    for k, spec in enumerate(specs):
        a = automaton(spec)
        module = encspec.load(spec, backend="python")
        names.append(f"{default_package(a)}.{export_common.class_name(a)}Charset")
        docs = spec_inputs(spec)[-400:]
        docs.append(module.encode(table_corpus("cjk", 20_000, module, table_codec(module))))
        for data in docs:
            items.append(f"{k} {data.hex()}")
            units = module.decode(data, "replace").encode("utf-16-be", "surrogatepass").hex()
            want.append(f"{units} {units}")
    cmd = tools.compile_java(CHARSETS, tmp_path / "harness", "TableCharsets")
    cmd[cmd.index("-cp") + 1] += os.pathsep + os.pathsep.join(map(str, classes))
    got = tools.run(cmd + names, ("\n".join(items) + "\n").encode("ascii")).decode("ascii").splitlines()
    assert len(got) == len(items)
    bad = [f"{item[:80]}\n  want {w[:120]}\n  got  {g[:120]}" for item, w, g in zip(items, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:8])
