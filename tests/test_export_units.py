"""The C and Rust exports on code units, byte order, little-endian digits and the end
of the data (issue 17).

The reference is the decoder core (``encspec.load(spec)._tokens``, what `encspec
tokens` prints, with the reasons).  One harness per language is compiled once for
all the specs below (every export in one C program, every crate linked into one
Rust program) and run once on every input, each line naming its spec: it prints
the signature the export finds (length, start state), then every token with its
reason, the code point of a char from the value writer, and whether the bare
step function walks a char's bytes from that start state into a state that
accepts a char.  Both must agree with the reference exactly on

* hand-picked cases (UTF-16BE's unit-based spans, a signature choosing UTF-16's
  big-endian machine, UTF-32's truncated unit, LEB128's weights up to 2**64 - 1);
* the conformance vectors and 300 seeded random inputs of each of the 11 new
  built-in specs, made of whole, truncated and damaged units and signatures;
* three test specs: sequences that count only where the data ends (`end`), in
  bytes and in 16-bit units with a reason of its own for a partial unit, and
  little-endian digit forms wider than 64 bits (weights of 2**64 and more).

The C harness runs under AddressSanitizer and UBSan, the Rust one with overflow
checks; both are compiled with warnings as errors.  Missing compilers skip naming
the tool (a failure under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import os
import random
import subprocess
from functools import cache
from pathlib import Path

import pytest

import encspec
import tools
from conftest import end_groups
from encspec import pipeline
from encspec.runtime.tables import encoded
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

LANGS = ["c", "rust"]
TIMEOUT = 600
N_RANDOM = 300
C_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
NEW_SPECS = ["utf-16le", "utf-16be", "utf-16", "utf-32le", "utf-32be", "utf-32", "wtf-16",
             "leb128", "leb128-overlong", "sqlite4-varint", "git-offset-varint"]

# ------------------------------------------------------------------ test specs
END_BYTES = """\
# A test spec: a form and a pattern that count only where the data ends.
encoding end-bytes
code-space U+0000..U+FFFF
form 1: 0xxxxxxx
form 2: 110xxxxx 10xxxxxx at U+80
form 3: 1110xxxx 10xxxxxx{2} at U+800
form last: C1 end = U+FFFD
ill-formed pattern cut: 1110xxxx 10xxxxxx end "cut at the end"
"""

END_UNITS = """\
# A test spec: 16-bit little-endian units; a lone lead unit at the end is an error of its own.
encoding end-units
code-unit 16 little-endian
code-space U+0000..U+10FFFF
ill-formed U+D800..U+DFFF
form bmp: xxxxxxxxxxxxxxxx
form pair: 110110xxxxxxxxxx 110111xxxxxxxxxx at U+10000
ill-formed pattern lone: 110110xxxxxxxxxx end "a lead at the end"
reason truncated-unit "half a unit"
reason invalid-continuation "not a trail"
"""

WIDE_END = """\
# A test spec: little-endian digit forms wider than 64 bits (the last one's
# weights reach 2**66), two of them only where the data ends.
encoding wide-end
code-space U+0000..
form 1: 0xxxxxxx
form le: FE 10xxxxxx{11} little-endian
form tail: FD 10xxxxxx{11} end
form tail-le: FC 10xxxxxx{12} end at U+FFFFFFFFFFFFFFF0 little-endian
"""

TEST_SPECS = {"end-bytes": END_BYTES, "end-units": END_UNITS, "wide-end": WIDE_END}


@pytest.fixture(scope="session")
def spec_paths(tmp_path_factory) -> dict[str, str]:
    """Spec name -> what encspec.load and pipeline.load take (a built-in name or a file)."""
    root = tmp_path_factory.mktemp("unit-specs")
    paths = {name: name for name in NEW_SPECS}
    for name, text in TEST_SPECS.items():
        path = root / f"{name}.encspec"
        path.write_text(text, "utf-8")
        paths[name] = str(path)
    return paths


# ------------------------------------------------------------------ harnesses
# Each export's part of the harness: MOD is the module name, UMOD_ its prefix in capitals.
C_PART = r"""
#include <encspec/MOD.h>

static void run_MOD(const unsigned char *data, size_t n, int at_end)
{
    size_t pos = 0, k, w, siglen;
    unsigned start = 0;
    unsigned char *value = malloc(n + 16);
    MOD_token tok;
    siglen = MOD_signature(data, n, &start);
    printf("sig %lu %u\n", (unsigned long)siglen, start);
    while (MOD_next(data, n, &pos, &tok)) {
        w = MOD_wide_value(data, n, &tok, value);
        if (tok.kind == UMOD_CHAR || tok.kind == UMOD_WIDE) {
            unsigned state = start;
            uint64_t acc = 0;
            printf("char %lu %lu ", (unsigned long)tok.start, (unsigned long)tok.end);
            put_value(value, w);
            if (tok.kind == UMOD_CHAR && (w > 8 || (w && value[0] == 0)))
                printf(" MISMATCH");
            for (k = tok.start; k < tok.end && state < UMOD_N_STATES; k++)
                state = MOD_step(state, data[k], &acc);
            if (!at_end && (state >= UMOD_N_STATES || MOD_accepts(state) != UMOD_CHAR))
                printf(" !step");
            printf("\n");
        } else if (tok.kind == UMOD_SIGNATURE) {
            printf("signature %lu %lu\n", (unsigned long)tok.start, (unsigned long)tok.end);
        } else {
            printf("%s %lu %lu|%s\n", tok.kind == UMOD_ERROR ? "error" : "reserved",
                   (unsigned long)tok.start, (unsigned long)tok.end, tok.reason ? tok.reason : "(null)");
        }
    }
    free(value);
}
"""

C_MAIN = r"""
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_value(const unsigned char *v, size_t n)
{
    size_t k = 0;
    while (k + 1 < n && v[k] == 0)
        k++;
    printf("%X", n ? (unsigned)v[k] : 0u);
    for (k++; k < n; k++)
        printf("%02X", (unsigned)v[k]);
}

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

PARTS

/* Each line: a spec's index, a space, the input in hex.  Its answer, then `end`. */
int main(void)
{
    size_t cap = 1 << 20, len = 0, got, start = 0;
    unsigned char *in = malloc(cap);
    while ((got = fread(in + len, 1, cap - len, stdin)) > 0)
        if ((len += got) == cap)
            in = realloc(in, cap *= 2);
    while (start < len) {
        size_t end = start, n = 0, k;
        int spec = 0;
        while (end < len && in[end] != '\n')
            end++;
        for (k = start; k < end && in[k] != ' '; k++)
            spec = spec * 10 + (in[k] - '0');
        for (k++; k + 1 < end; k += 2)
            in[start + n++] = (unsigned char)(hexval(in[k]) * 16 + hexval(in[k + 1]));
        switch (spec) {
CASES
        default:
            return 2;
        }
        printf("end\n");
        start = end + 1;
    }
    free(in);
    return 0;
}
"""

RUST_PART = r"""
fn run_MOD(out: &mut impl Write, data: &[u8], at_end: bool) {
    use MOD as codec;
    let (siglen, start) = codec::signature(data).unwrap_or((0, codec::START));
    writeln!(out, "sig {} {}", siglen, start).unwrap();
    for t in codec::tokens(data) {
        let v = codec::wide_value(data, &t);
        match t.kind {
            codec::Kind::Char | codec::Kind::Wide => {
                let mut state = start;
                let mut acc = 0u64;
                for &b in &data[t.start..t.end] {
                    if state >= codec::N_STATES {
                        break;
                    }
                    state = codec::step(state, b, &mut acc);
                }
                let bad_value = t.kind == codec::Kind::Char && (v.len() > 8 || v.first() == Some(&0));
                let bad_step = !at_end && (state >= codec::N_STATES || codec::accepts(state) != Some(codec::Kind::Char));
                writeln!(out, "char {} {} {}{}{}", t.start, t.end, hex(&v),
                         if bad_value { " MISMATCH" } else { "" }, if bad_step { " !step" } else { "" }).unwrap();
            }
            codec::Kind::Signature => writeln!(out, "signature {} {}", t.start, t.end).unwrap(),
            k => {
                let name = if k == codec::Kind::Error { "error" } else { "reserved" };
                writeln!(out, "{} {} {}|{}", name, t.start, t.end, t.reason).unwrap();
            }
        }
    }
}
"""

RUST_MAIN = r"""
use std::io::{self, BufRead, Write};

fn hex(v: &[u8]) -> String {
    let mut s = String::new();
    let k = v.iter().position(|&b| b != 0).unwrap_or(v.len().saturating_sub(1));
    for (j, b) in v[k..].iter().enumerate() {
        s += &if j == 0 { format!("{:X}", b) } else { format!("{:02X}", b) };
    }
    if s.is_empty() { "0".into() } else { s }
}

PARTS

// Each line: a spec's index, a space, the input in hex.  Its answer, then `end`.
fn main() {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        let (spec, text) = line.split_once(' ').unwrap();
        let data: Vec<u8> = (0..text.len() / 2).map(|k| u8::from_str_radix(&text[2 * k..2 * k + 2], 16).unwrap()).collect();
        match spec.parse::<usize>().unwrap() {
CASES
            _ => panic!("no such spec"),
        }
        writeln!(out, "end").unwrap();
    }
}
"""


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}:\n{proc.stderr.decode(errors='replace')[-4000:]}"
    return proc


@cache
def cc() -> str:
    return tools.find("cc", hint="it is in Debian's gcc package")


def _rust_env() -> dict[str, str]:
    rustc = tools.rustc()
    return dict(os.environ, PATH=str(Path(rustc).parent) + os.pathsep + os.environ.get("PATH", ""))


def build_harness(lang: str, specs: list[str], paths: dict[str, str], root: Path) -> Path:
    """Export every spec to *lang* under *root* and compile one harness for all of them."""
    from encspec.pipeline import export
    root.mkdir(parents=True, exist_ok=True)
    mods = []
    for spec in specs:
        a = pipeline.load(paths[spec])[1]
        mod = registry.module_name(a.name)
        export(a, lang, root / f"{mod}-{lang}")
        mods.append((mod, bool(a.at_end)))
    exe = root / f"harness-{lang}"
    if lang == "c":
        parts = "".join(C_PART.replace("UMOD_", f"{m.upper()}_").replace("MOD", m) for m, _ in mods)
        cases = "".join(f"        case {k}:\n            run_{m}(in + start, n, {int(e)});\n            break;\n"
                        for k, (m, e) in enumerate(mods))
        src = root / "harness.c"
        src.write_text(C_MAIN.replace("PARTS", parts).replace("CASES", cases), "utf-8")
        sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
        includes = [f"-I{root / f'{m}-c' / 'include'}" for m, _ in mods]
        sources = [str(root / f"{m}-c" / f"{m}.c") for m, _ in mods]
        _run([tools.need(cc), *C_WARNINGS, "-O1", "-g", *sanitize, *includes, "-o", str(exe), str(src), *sources])
    else:
        rustc = tools.need(tools.rustc)
        checks = ["-C", "overflow-checks=on", "-C", "debug-assertions=on", "-D", "warnings"]
        externs = []
        for m, _ in mods:
            _run([rustc, "--edition", "2021", "-O", *checks, "--crate-type", "rlib", "--crate-name", m,
                  "--cfg", 'feature="alloc"', "--out-dir", str(root / "build"),
                  str(root / f"{m}-rust" / "src" / "lib.rs")], env=_rust_env())
            externs += ["--extern", f"{m}={root / 'build' / f'lib{m}.rlib'}"]
        parts = "".join(RUST_PART.replace("MOD", m) for m, _ in mods)
        cases = "".join(f"            {k} => run_{m}(&mut out, &data, {'true' if e else 'false'}),\n"
                        for k, (m, e) in enumerate(mods))
        src = root / "harness.rs"
        src.write_text(RUST_MAIN.replace("PARTS", parts).replace("CASES", cases), "utf-8")
        _run([rustc, "--edition", "2021", "-O", *checks, *externs, "-o", str(exe), str(src)], env=_rust_env())
    return exe


ALL_SPECS = NEW_SPECS + list(TEST_SPECS)


@pytest.fixture(scope="session")
def harness(tmp_path_factory, spec_paths):
    """lang -> the harness of every spec in ALL_SPECS (compiled on first use)."""
    built: dict = {}
    root = tmp_path_factory.mktemp("unit-exports")

    def get(lang: str) -> Path:
        if lang not in built:
            built[lang] = build_harness(lang, ALL_SPECS, spec_paths, root / lang)
        return built[lang]
    return get


def run_harness(exe: Path, items: list[tuple[str, bytes]]) -> list[list[str]]:
    """Each (spec, data) through the harness: its lines (without the closing `end`)."""
    stdin = "".join(f"{ALL_SPECS.index(spec)} {data.hex()}\n" for spec, data in items).encode("ascii")
    proc = _run([str(exe)], input=stdin)
    assert not proc.stderr.strip(), proc.stderr.decode(errors="replace")[-3000:]
    return end_groups(proc.stdout.decode("utf-8"), len(items))


# ------------------------------------------------------------------ expectations
@cache
def module(path: str):
    return encspec.load(path)


def expected(path: str, data: bytes) -> list[str]:
    """What the harness must print: the reference's signature and tokens, with reasons."""
    m = module(path)
    sig = m._signature(data)
    out = [f"sig {sig[0]} {sig[1]}" if sig else "sig 0 0"]
    for kind, start, end, value, reason in m._tokens(data):
        if kind == "char":
            out.append(f"char {start} {end} {value:X}")
        elif kind == "signature":
            out.append(f"signature {start} {end}")
        else:
            out.append(f"{kind} {start} {end}|{reason}")
    return out


def compare(paths, items, groups) -> None:
    bad = []
    for (spec, data), got in zip(items, groups, strict=True):
        want = expected(paths[spec], data)
        if got != want:
            bad.append(f"{spec} {data.hex(' ').upper() or '(empty)'}\n  want {want}\n  got  {got}")
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:12])


def tokens_of(groups_entry: list[str]) -> list[str]:
    """The token lines of one answer (the `sig` line left out)."""
    return [line for line in groups_entry if not line.startswith("sig ")]


# ------------------------------------------------------------------ inputs
def _units(value: int, unit: int, order: str) -> bytes:
    return value.to_bytes(unit, order)


def special_pieces(a) -> list[bytes]:
    """Units that test the unit rules: surrogates, values beyond U+10FFFF, byte order marks,
    in both byte orders; for the varints, the longest forms and their neighbours."""
    out = []
    if a.unit == 2:
        for v in (0x0000, 0x0041, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF, 0xFFFE, 0xFFFF):
            out += [_units(v, 2, "little"), _units(v, 2, "big")]
    elif a.unit == 4:
        for v in (0, 0x41, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFEFF, 0xFFFE0000, 0x10FFFF, 0x110000,
                  0x7FFFFFFF, 0xFFFFFFFF, 0x0000FEFF):
            out += [_units(v, 4, "little"), _units(v, 4, "big")]
    else:
        out += [b"\xff" * 9 + b"\x01", b"\xff" * 9 + b"\x02", b"\x80" * 9 + b"\x00", b"\x80" * 9 + b"\x01",
                b"\xff" * 10, b"\x80\x00", b"\xff\x80\x00", b"\xff" * 9 + b"\x7f", bytes(range(0xF0, 0x100)),
                b"\xff" * 12, b"\xfa\x00\x00\x00", b"\xfa\x01\x08\xf0", b"\xff" + b"\x00" * 8]
    for sig, _ in a.signatures:
        out.append(sig)
    return out


def boundary_code_points(a) -> list[int]:
    cps = set()
    for r in a.rows:
        for cp in (r.first, r.first + 1, r.last - 1, r.last, (r.first + r.last) // 2):
            if r.first <= cp <= r.last:
                cps.add(cp)
    return sorted(cps)


def random_inputs(spec: str, a, n: int = N_RANDOM, seed: int = 17) -> list[bytes]:
    """Seeded documents of whole, truncated and damaged units, with or without a signature."""
    rng = random.Random(f"{seed}:{spec}")
    valid = [e for e in (encoded(a, cp) for cp in boundary_code_points(a)) if e]
    top = a.code_space[1] if a.code_space[1] is not None else 1 << 80
    for _ in range(40):
        e = encoded(a, rng.randrange(0, top + 1))
        if e:
            valid.append(e)
    special = special_pieces(a)
    docs = []
    for _ in range(n):
        doc = bytearray()
        if a.signatures and rng.random() < 0.35:
            sig = rng.choice(a.signatures)[0]
            doc += sig if rng.random() < 0.8 else sig[:rng.randrange(1, len(sig))]
        for _ in range(rng.randrange(0, 8)):
            r = rng.random()
            if r < 0.35:
                doc += rng.choice(valid)
            elif r < 0.6:
                doc += rng.choice(special)
            elif r < 0.72:
                seq = rng.choice(valid)
                doc += seq[:rng.randrange(0, len(seq))] if len(seq) > 1 else seq
            elif r < 0.84 and a.unit > 1:
                doc += bytes(rng.randrange(256) for _ in range(a.unit))
            elif r < 0.92:
                seq = bytearray(rng.choice(valid))
                seq[rng.randrange(len(seq))] = rng.randrange(256)
                doc += seq
            else:
                doc.append(rng.randrange(256))
        if a.unit > 1 and rng.random() < 0.3:
            doc += bytes(rng.randrange(256) for _ in range(rng.randrange(1, a.unit)))  # a partial last unit
        docs.append(bytes(doc))
    return docs


def spec_inputs(spec: str, path: str) -> list[bytes]:
    from encspec.analyse.vectors import vector_inputs
    a = pipeline.load(path)[1]
    return list(vector_inputs(a)) + random_inputs(spec, a)


# ------------------------------------------------------------------ hand-picked cases
HAND_PICKED = [
    # UTF-16BE: a lead unit, then a partial unit and the end: one error to the end
    ("utf-16be", "D8 00 41", ["error 0 3|unexpected end of data"]),
    # a lead unit followed by a complete non-trail unit: the lead alone
    ("utf-16be", "D8 00 00 41", ["error 0 2|illegal UTF-16 surrogate", "char 2 4 41"]),
    ("utf-16be", "DC 00 00 41", ["error 0 2|illegal encoding", "char 2 4 41"]),
    ("utf-16be", "D8 3D DE 00 41", ["char 0 4 1F600", "error 4 5|truncated data"]),
    ("utf-16le", "00 D8", ["error 0 2|unexpected end of data"]),
    ("utf-16le", "41", ["error 0 1|truncated data"]),
    ("utf-16le", "FF FE 41 00", ["char 0 2 FEFF", "char 2 4 41"]),  # no signature in utf-16le
    # utf-16: FE FF is a signature and chooses big-endian; FF FE little-endian; none: little-endian
    ("utf-16", "FE FF 00 41", ["signature 0 2", "char 2 4 41"]),
    ("utf-16", "FF FE 41 00", ["signature 0 2", "char 2 4 41"]),
    ("utf-16", "41 00 FE FF", ["char 0 2 41", "char 2 4 FFFE"]),
    ("utf-16", "FE FF D8 3D DE 00 D8", ["signature 0 2", "char 2 6 1F600", "error 6 7|truncated data"]),
    ("utf-16", "FE", ["error 0 1|truncated data"]),
    # utf-32: FF FE 00 00 little-endian, then a partial unit
    ("utf-32", "FF FE 00 00 41 00 00 00 00", ["signature 0 4", "char 4 8 41", "error 8 9|truncated data"]),
    ("utf-32", "00 00 FE FF 00 01 F6 00", ["signature 0 4", "char 4 8 1F600"]),
    ("utf-32", "FF FE", ["error 0 2|truncated data"]),  # not a complete signature
    ("utf-32be", "00 11 00 00 00 00 00 41",
     ["error 0 4|code point not in range(0x110000)", "char 4 8 41"]),
    ("utf-32le", "00 D8 00 00", ["error 0 4|code point in surrogate code point range(0xd800, 0xe000)"]),
    ("wtf-16", "00 D8 41 00 3D D8 00 DE", ["char 0 2 D800", "char 2 4 41", "char 4 8 1F600"]),
    # LEB128: weights (little-endian groups)
    ("leb128", "E5 8E 26", ["char 0 3 98765"]),
    ("leb128", "80 00", ["error 0 1|invalid continuation byte", "char 1 2 0"]),
    ("leb128", "FF FF FF FF FF FF FF FF FF 01", ["char 0 10 FFFFFFFFFFFFFFFF"]),
    ("leb128", "FF FF FF FF FF FF FF FF FF 02",
     ["error 0 9|invalid continuation byte", "char 9 10 2"]),
    ("leb128", "E5 8E", ["error 0 2|unexpected end of data"]),
    ("leb128-overlong", "80 00", ["char 0 2 0"]),
    ("leb128-overlong", "80 80 80 80 80 80 80 80 80 01", ["char 0 10 8000000000000000"]),
    ("git-offset-varint", "80 00", ["char 0 2 80"]),
    ("sqlite4-varint", "FF FF FF FF FF FF FF FF FF", ["char 0 9 FFFFFFFFFFFFFFFF"]),
    # the test specs: sequences that count only where the data ends
    ("end-bytes", "C1", ["char 0 1 FFFD"]),
    ("end-bytes", "C1 41", ["error 0 1|invalid continuation byte", "char 1 2 41"]),  # C1 can start form 2
    ("end-bytes", "E0 80", ["error 0 2|cut at the end"]),
    ("end-bytes", "E0 80 41", ["error 0 2|invalid continuation byte", "char 2 3 41"]),
    ("end-units", "00 D8", ["error 0 2|a lead at the end"]),
    ("end-units", "00 D8 41", ["error 0 3|unexpected end of data"]),
    ("end-units", "00 D8 41 00", ["error 0 2|not a trail", "char 2 4 41"]),
    ("end-units", "41 00 41", ["char 0 2 41", "error 2 3|half a unit"]),
    ("wide-end", "FD" + " BF" * 11, ["char 0 12 3FFFFFFFFFFFFFFFF"]),
    ("wide-end", "FD" + " BF" * 11 + " 41", ["error 0 12|invalid continuation byte", "char 12 13 41"]),
    ("wide-end", "FC" + " 80" * 11 + " 81", ["char 0 13 " + f"{(1 << 66) + 2 ** 64 - 16:X}"]),
    ("wide-end", "FE" + " 81" + " 80" * 10, ["char 0 12 1"]),
]


@pytest.mark.parametrize("lang", LANGS)
def test_hand_picked_cases(harness, spec_paths, lang):
    """The cases of the brief, spelled out: spans in whole units, reasons, signatures, weights."""
    items = [(spec, bytes.fromhex(text)) for spec, text, _ in HAND_PICKED]
    groups = run_harness(harness(lang), items)
    for (spec, text, want), got in zip(HAND_PICKED, groups, strict=True):
        assert tokens_of(got) == want, f"{lang} {spec} {text}"
    compare(spec_paths, items, groups)  # and the reference agrees, the signature line too


def test_hand_picked_cases_are_the_reference(spec_paths):
    """The expectations above are the decoder core's own (so a wrong one cannot hide a bug)."""
    for spec, text, want in HAND_PICKED:
        assert expected(spec_paths[spec], bytes.fromhex(text))[1:] == want, (spec, text)


@pytest.mark.parametrize("lang", LANGS)
def test_random_inputs_match_the_reference(harness, spec_paths, lang):
    """The conformance vectors and seeded random inputs of every spec, in one run of one program."""
    items = [(spec, data) for spec in ALL_SPECS for data in spec_inputs(spec, spec_paths[spec])]
    groups = run_harness(harness(lang), items)
    compare(spec_paths, items, groups)


def test_random_inputs_exercise_the_rules(spec_paths):
    """The inputs reach every rule the exports implement: unit-based spans, truncated units,
    both byte orders, at_end actions, values beyond 64 bits."""
    seen = set()
    for spec in ALL_SPECS:
        m = module(spec_paths[spec])
        a = pipeline.load(spec_paths[spec])[1]
        for data in spec_inputs(spec, spec_paths[spec]):
            toks = list(m._tokens(data))
            sig = m._signature(data)
            if sig and sig[1] != 0 and len(toks) > 1:
                seen.add("other start")
            for kind, start, end, value, reason in toks:
                if kind == "error" and a.unit > 1 and reason == a.reasons.invalid_continuation:
                    seen.add("units read before an error")  # the maximal subpart, in whole units
                if reason == a.reasons.truncated_unit and a.unit > 1:
                    seen.add("truncated")
                if reason == a.reasons.unexpected_end and a.unit > 1 and (end - start) % a.unit:
                    seen.add("end with a partial unit")
                if kind == "char" and value >= 1 << 64:
                    seen.add("wide")
                if a.at_end and end == len(data) and kind != "signature":
                    seen.add("at end")
    assert seen == {"other start", "units read before an error", "truncated", "end with a partial unit", "wide",
                    "at end"}


@pytest.mark.parametrize("lang", LANGS)
def test_exports_name_the_spec_reasons(tmp_path, spec_paths, lang):
    """The reasons come from the spec: utf-16's, and a truncated-unit reason only with units."""
    from encspec.emit.targets import targets
    files = targets()[lang].files(pipeline.load("utf-16")[1])
    text = files["utf_16.c" if lang == "c" else "src/lib.rs"]
    for reason in ("illegal encoding", "illegal UTF-16 surrogate", "unexpected end of data", "truncated data"):
        assert f'"{reason}"' in text
    assert '"invalid start byte"' not in text
    narrow = targets()[lang].files(pipeline.load("utf-8")[1])
    # C: the header is the API (the engine in utf_8.c is the same for every spec)
    name = "include/encspec/utf_8.h" if lang == "c" else "src/lib.rs"
    assert ("reason_truncated" if lang == "c" else "REASON_TRUNCATED") not in narrow[name]
    if lang == "c":
        assert "weight" not in narrow[name].split("Usage:")[-1]  # the API says nothing of weights
    # no multiply for weight-1 specs: the engine's flag the compiler folds is off
    assert "WEIGHTED 0" in narrow["utf_8.c"] if lang == "c" else "const WEIGHTED: bool = false;" in narrow[name]
    if lang == "c":
        assert "utf_16_reason_truncated[]" in files["include/encspec/utf_16.h"]
