"""The C and Rust exports beyond 64 bits (issue 14, item 3): WIDE tokens, offsets of
2**63 and more, and the caller's limit on counted forms.

A small harness per language (C under AddressSanitizer and UBSan, Rust with
overflow checks) walks the tokens of each input (lines of hex on stdin) with
the export's own API and prints every token with its reason; a
char's code point comes from NAME_wide_value / wide_value (for a CHAR token it
must agree with tok.value), so values wider than 64 bits are read through the
value writer.  The expectation is the Python module's (``encspec.load``) tokens:
the C and Rust exports must agree with it exactly, on

* all 17 worked examples of the UTF-∞-8 seed (8 of them wider than 64 bits);
* a Git-style offset varint spec (one form per length, an ``at`` offset each;
  the 10-byte form's offset is above 2**63), itself checked against Git's own
  decoding, and its variant capped at 2**64 - 1 where every code point fits;
* a counted form with an offset, where value + offset carries past the digits;
* the caller's limit: a long counted form becomes the LIMIT error over its
  header, and a 1,000,000-bit code point is written in well under a second.

Missing compilers skip naming the tool (a failure under ENCSPEC_REQUIRE_TOOLS=1).
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
from conftest import children_cpu_time, end_groups
from encspec import pipeline
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

LANGS = ["c", "rust"]
TIMEOUT = 600
LIMIT_REASON = "counted form beyond this decoder's limits"
C_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]


# ------------------------------------------------------------------ specs
def git_varint_spec(name: str = "git-offset-varint", code_space: str = "U+0000..") -> str:
    """Git's offset encoding as a spec: one form per length, each with its offset."""
    lines = [
        "# Git's pack \"offset encoding\" (Documentation/technical/pack-format.txt, in",
        "# git/git): n bytes, each 1xxxxxxx but the last (0xxxxxxx), big-endian 7-bit",
        "# groups, and each continuation adds one before the shift: value = ((v0 + 1)",
        "# << 7 | v1) ..., so the n-byte codes start after the (n-1)-byte ones, at",
        "# 128 + 128**2 + ... + 128**(n-1).  The 10-byte form's offset is above 2**63.",
        f"encoding {name}",
        f"code-space {code_space}",
        "form 1: 0xxxxxxx",
    ]
    for n in range(2, 11):
        offset = sum(128 ** k for k in range(1, n))
        lead = "1xxxxxxx" if n == 2 else f"1xxxxxxx{{{n - 1}}}"
        lines.append(f"form {n}: {lead} 0xxxxxxx at U+{offset:X}")
    return "\n".join(lines) + "\n"


def git_offset_decode(data: bytes, pos: int = 0) -> tuple[int, int]:
    """(value, end): Git's own loop (builtin/index-pack.c, get_delta_base), unbounded."""
    c = data[pos]
    pos += 1
    ofs = c & 127
    while c & 128:
        ofs += 1
        c = data[pos]
        pos += 1
        ofs = (ofs << 7) + (c & 127)
    return ofs, pos


def git_offset_encode(ofs: int) -> bytes:
    """Git's writer (builtin/pack-objects.c, write_no_reuse_object): the offset's bytes."""
    out = [ofs & 127]
    ofs >>= 7
    while ofs:
        ofs -= 1
        out.append(128 | (ofs & 127))
        ofs >>= 7
    return bytes(reversed(out))


# A counted form with an offset: value + offset can carry past the value digits.
COUNTED_OFFSET = """\
# A test spec: UTF-inf-8's counted header, NME + 1 value digits of 6 bits, offset 2**63 - 1.
encoding counted-offset
code-space U+0000..
form 1: 0xxxxxxx
form long: FF B4{n} A0..AF{n+1} as nme shortest 10xxxxxx{nme + 1} at U+7FFFFFFFFFFFFFFF
           range 0 .. 64 ** (nme + 1) - 1
"""


# Bounded forms wider than 64 bits: 240 bits of digits (beyond the 2**200 that value_bound
# looks at), and a radix-190 alphabet whose offset 2**64 - 5 takes most values past 64 bits.
BIG_DFA = """\
# A test spec: bounded forms whose code points pass 64 bits.
encoding big-dfa
code-space U+0000..
alphabet trail = 21..7E, A0..FF
form 1: 0xxxxxxx
form 2: FF 10xxxxxx{40} at U+80
form 3: FE 80..BF trail{3} at U+FFFFFFFFFFFFFFFB
"""


@pytest.fixture(scope="session")
def spec_paths(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("wide-specs")
    texts = {"git": git_varint_spec(),
             "git-64": git_varint_spec("git-offset-varint-64", "U+0000..U+FFFFFFFFFFFFFFFF"),
             "counted-offset": COUNTED_OFFSET, "big-dfa": BIG_DFA}
    paths = {"utf-inf-8": "utf-inf-8"}
    for key, text in texts.items():
        path = root / f"{key}.encspec"
        path.write_text(text, "utf-8")
        paths[key] = str(path)
    return paths


# ------------------------------------------------------------------ harnesses
C_HARNESS = r"""
/* For each line of hex on stdin: every token, then `end`.  argv[1]: the counted-form
   limit ("-": the default).  A char's value is MOD_wide_value's bytes in hex.
     char START END HEX | wide START END HEX BITS | error START END|REASON | ... */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <encspec/MOD.h>

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void put_value(const unsigned char *v, size_t n)
{
    size_t k = 0;
    while (k + 1 < n && v[k] == 0)
        k++;
    printf("%X", n ? (unsigned)v[k] : 0u);
    for (k++; k < n; k++)
        printf("%02X", (unsigned)v[k]);
}

int main(int argc, char **argv)
{
    size_t cap = 1 << 20, len = 0, got, start = 0;
    unsigned char *in = malloc(cap);
    (void)argc;
#ifdef HAS_LIMIT
    if (argc > 1 && strcmp(argv[1], "-") != 0)
        MOD_counted_limit = (size_t)strtoull(argv[1], NULL, 10);
#else
    (void)argv;
#endif
    while ((got = fread(in + len, 1, cap - len, stdin)) > 0)
        if ((len += got) == cap)
            in = realloc(in, cap *= 2);
    while (start < len) {
        size_t end = start, n = 0, k, pos = 0;
        unsigned char *value;
        MOD_token tok;
        while (end < len && in[end] != '\n')
            end++;
        for (k = start; k + 1 < end; k += 2)
            in[start + n++] = (unsigned char)(hexval(in[k]) * 16 + hexval(in[k + 1]));
        value = malloc(n + 9);
        while (MOD_next(in + start, n, &pos, &tok)) {
            const char *kind[] = {"char", "error", "reserved", "signature", "wide"};
            size_t w = MOD_wide_value(in + start, n, &tok, value);
            printf("%s %lu %lu", kind[tok.kind], (unsigned long)tok.start, (unsigned long)tok.end);
            if (tok.kind == UMOD_CHAR) {
                uint64_t v = 0;
                for (k = 0; k < w; k++)
                    v = v << 8 | value[k];
                if (v != (uint64_t)tok.value || tok.bits != 0 || w > 8 || (w && value[0] == 0))
                    printf(" MISMATCH %" PRIX64, (uint64_t)tok.value);
                printf(" ");
                put_value(value, w);
            } else if (tok.kind == UMOD_WIDE) {
                if (w != (tok.bits + 7) / 8 || tok.value != 0 || tok.reason != NULL
                        || (value[0] >> ((tok.bits - 1) % 8)) != 1)
                    printf(" MISMATCH");
                printf(" ");
                put_value(value, w);
                printf(" %lu", (unsigned long)tok.bits);
            } else {
                if (w != 0 || tok.bits != 0)
                    printf(" MISMATCH");
                if (tok.reason)
                    printf("|%s", tok.reason);
            }
            printf("\n");
        }
        printf("end\n");
        free(value);
        start = end + 1;
    }
    free(in);
    return 0;
}
"""

RUST_HARNESS = r"""
// For each line of hex on stdin: every token, then `end`.  The first argument: the
// counted-form limit ("-": the default).  A char's value is wide_value's bytes in hex.
use std::io::{self, BufRead, Write};

use MOD as codec;
use codec::Kind;

fn hex(v: &[u8]) -> String {
    let mut s = String::new();
    let k = v.iter().position(|&b| b != 0).unwrap_or(v.len().saturating_sub(1));
    for (j, b) in v[k..].iter().enumerate() {
        s += &if j == 0 { format!("{:X}", b) } else { format!("{:02X}", b) };
    }
    if s.is_empty() { "0".into() } else { s }
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "-".into());
    let limit: Option<usize> = if arg == "-" { None } else { Some(arg.parse().unwrap()) };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        let data: Vec<u8> = (0..line.len() / 2).map(|k| u8::from_str_radix(&line[2 * k..2 * k + 2], 16).unwrap()).collect();
        let toks: Vec<codec::Token> = match limit {
            None => codec::tokens(&data).collect(),
            #[allow(unused_variables)]
            Some(l) => TOKENS_WITH_LIMIT,
        };
        for t in toks {
            let v = codec::wide_value(&data, &t);
            let mut into = vec![0u8; codec::wide_value_len(&t)];
            assert_eq!(codec::wide_value_into(&data, &t, &mut into), into.len());
            assert_eq!(into, v);
            match t.kind {
                Kind::Char => {
                    let mut x: u64 = 0;
                    for b in &v {
                        x = x << 8 | *b as u64;
                    }
                    let bad = x != t.value as u64 || t.bits != 0 || v.len() > 8 || v.first() == Some(&0);
                    writeln!(out, "char {} {}{} {}", t.start, t.end, if bad { " MISMATCH" } else { "" }, hex(&v)).unwrap();
                }
                Kind::Wide => {
                    let bad = v.len() != (t.bits + 7) / 8 || t.value != 0 || !t.reason.is_empty()
                        || (v[0] >> ((t.bits - 1) % 8)) != 1;
                    writeln!(out, "wide {} {}{} {} {}", t.start, t.end, if bad { " MISMATCH" } else { "" }, hex(&v), t.bits).unwrap();
                }
                k => {
                    let name = match k { Kind::Error => "error", Kind::Reserved => "reserved", _ => "signature" };
                    let bad = !v.is_empty() || t.bits != 0;
                    let reason = if t.reason.is_empty() { String::new() } else { format!("|{}", t.reason) };
                    writeln!(out, "{} {} {}{}{}", name, t.start, t.end, if bad { " MISMATCH" } else { "" }, reason).unwrap();
                }
            }
        }
        writeln!(out, "end").unwrap();
    }
}
"""


@cache
def cc() -> str:
    return tools.find("cc", hint="it is in Debian's gcc package")


def _rust_env() -> dict[str, str]:
    rustc = tools.rustc()
    return dict(os.environ, PATH=str(Path(rustc).parent) + os.pathsep + os.environ.get("PATH", ""))


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}:\n{proc.stderr.decode(errors='replace')[-4000:]}"
    return proc


def build_harness(spec: str, lang: str, root: Path) -> Path:
    """Export *spec* to *lang* under *root* and compile the harness against it."""
    from encspec.pipeline import export
    a = pipeline.load(spec)[1]
    mod = registry.module_name(a.name)
    out = root / f"{mod}-{lang}"
    export(a, lang, out)
    exe = out / "harness"
    if lang == "c":
        src = out / "harness.c"
        src.write_text(C_HARNESS.replace("UMOD_", f"{mod.upper()}_").replace("MOD", mod), "ascii")
        flags = ["-DHAS_LIMIT"] if a.extensions else []
        sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
        _run([tools.need(cc), *C_WARNINGS, "-O1", "-g", *sanitize, *flags, "-I", str(out / "include"), "-o", str(exe),
              str(src), str(out / f"{mod}.c")])
    else:
        rustc = tools.need(tools.rustc)
        limited = "codec::tokens_with_limit(&data, l).collect()" if a.extensions else "codec::tokens(&data).collect()"
        src = out / "harness.rs"
        src.write_text(RUST_HARNESS.replace("TOKENS_WITH_LIMIT", limited).replace("MOD", mod), "utf-8")
        checks = ["-C", "overflow-checks=on", "-C", "debug-assertions=on", "-D", "warnings"]
        _run([rustc, "--edition", "2021", "-O", *checks, "--crate-type", "rlib", "--crate-name", mod,
              "--cfg", 'feature="alloc"', "--out-dir", str(out / "build"), str(out / "src" / "lib.rs")],
             env=_rust_env())
        _run([rustc, "--edition", "2021", "-O", *checks, "--extern", f"{mod}={out / 'build' / f'lib{mod}.rlib'}",
              "-o", str(exe), str(src)], env=_rust_env())
    return exe


@pytest.fixture(scope="session")
def harnesses(tmp_path_factory, spec_paths):
    built: dict = {}
    root = tmp_path_factory.mktemp("wide-exports")

    def get(key: str, lang: str) -> Path:
        if (key, lang) not in built:
            built[key, lang] = build_harness(spec_paths[key], lang, root)
        return built[key, lang]
    return get


def run_harness(exe: Path, items, limit=None) -> list[list[str]]:
    stdin = "".join(x.hex() + "\n" for x in items).encode("ascii")
    proc = _run([str(exe), "-" if limit is None else str(limit)], input=stdin)
    return end_groups(proc.stdout.decode("ascii"), len(items))


# ------------------------------------------------------------------ expectations
def expected(spec: str, data: bytes, shift: int = 0) -> list[str]:
    """The Python module's tokens as the harness prints them (an error's reason left out)."""
    out = []
    for kind, start, end, value in encspec.load(spec).tokens(data):
        start, end = start + shift, end + shift
        if kind == "char" and value >> 64:
            out.append(f"wide {start} {end} {value:X} {value.bit_length()}")
        elif kind == "char":
            out.append(f"char {start} {end} {value:X}")
        else:
            out.append(f"{kind} {start} {end}")
    return out


def without_reasons(lines: list[str]) -> list[str]:
    return [line.split("|")[0] for line in lines]


def compare(spec: str, items, groups) -> None:
    bad = []
    for data, got in zip(items, groups, strict=True):
        want = expected(spec, data)
        if without_reasons(got) != want:
            bad.append(f"input {data.hex(' ').upper() or '(empty)'}\n  want {want}\n  got  {got}")
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:10])


def utf_inf_8_examples() -> list[tuple[int, bytes]]:
    from test_seed_examples import utf_inf_8_examples as examples
    return examples()


def utf_inf_8_counted(cp: int) -> bytes:
    """UTF-∞-8's counted form of cp (section 3.5), written from the seed's rules: FF, B4 × n,
    n + 1 length digits Ax holding NME = NUD - 18, then (NME + 20) // 3 * 2 six-bit digits."""
    nud = (cp.bit_length() + 3) // 4
    nme = nud - 18
    assert nme >= 0
    length = f"{nme:X}"
    count = (nme + 20) // 3 * 2
    bits = f"{cp:0{6 * count}b}"  # linear, unlike shifting a big int once per digit
    digits = [int(bits[k:k + 6], 2) for k in range(0, 6 * count, 6)]
    return bytes([0xFF] + [0xB4] * (len(length) - 1) + [0xA0 + int(c, 16) for c in length]
                 + [0x80 | d for d in digits])


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("lang", LANGS)
def test_utf_inf_8_seed_examples(harnesses, lang):
    """All 17 worked examples decode exactly as the Python module does; the 8 wider than
    64 bits are WIDE tokens whose value comes out of the value writer in full."""
    examples = utf_inf_8_examples()
    assert len(examples) == 17 and sum(cp >> 64 != 0 for cp, _ in examples) == 8
    items = [data for _, data in examples]
    items.append(b"".join(items))  # one after the other in one document
    groups = run_harness(harnesses("utf-inf-8", lang), items)
    compare("utf-inf-8", items, groups)
    for (cp, data), got in zip(examples, groups):
        kind = "wide" if cp >> 64 else "char"
        assert got == [f"{kind} 0 {len(data)} {cp:X}" + (f" {cp.bit_length()}" if cp >> 64 else "")]


def _git_inputs(rng: random.Random) -> list[bytes]:
    values = [0, 1, 127, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 2, 2 ** 64 - 1]
    for n in range(1, 11):
        first = sum(128 ** k for k in range(1, n))
        last = first + 128 ** n - 1
        values += [first, first + 1, last - 1, last, rng.randrange(first, last + 1)]
    values += [rng.randrange(2 ** 64) for _ in range(40)]
    items = [git_offset_encode(v) for v in values]
    # 10-byte codes of every size: beyond 2**64 too (70 bits of digits plus the offset)
    items += [bytes([rng.randrange(128, 256) for _ in range(9)] + [rng.randrange(128)]) for _ in range(40)]
    items += [b"\xff" * 9 + b"\x7f", b"\x80" * 9 + b"\x00", b"\xff" * 10 + b"\x7f", b"\x81" + b"\x80" * 8 + b"\x00"]
    # truncated, damaged, glued together
    items += [x[:-1] for x in items if len(x) > 1][:20]
    items += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) for _ in range(40)]
    items.append(b"".join(items[:30]))
    return items


def test_git_varint_spec_is_gits_offset_encoding(spec_paths):
    """The spec says what Git's own decoder and writer do (so the exports are compared with Git)."""
    rng = random.Random(14)
    m = encspec.load(spec_paths["git"])
    for data in _git_inputs(rng):
        pos = 0
        for kind, start, end, value in m.tokens(data):
            assert start == pos
            if kind == "char":
                assert (value, end) == git_offset_decode(data, start), data.hex()
            pos = end
    for v in [0, 127, 128, 16511, 16512, 2 ** 63, 2 ** 64 - 1, 2 ** 64, rng.randrange(2 ** 70)]:
        data = git_offset_encode(v)
        if len(data) <= 10:
            assert list(m.tokens(data)) == [("char", 0, len(data), v)]
    a = pipeline.load(spec_paths["git"])[1]
    assert max(act.offset for act in a.actions) > 2 ** 63


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", ["git", "git-64"])
def test_git_varint_offsets_beyond_2_63(harnesses, spec_paths, key, lang):
    """An offset above 2**63 is exported (no longer refused) and decodes exactly as the Python
    module: value + offset up to 2**64 - 1 is a CHAR, beyond it a WIDE token."""
    items = _git_inputs(random.Random(2024))
    groups = run_harness(harnesses(key, lang), items)
    compare(spec_paths[key], items, groups)
    kinds = {line.split()[0] for got in groups for line in got}
    if key == "git":
        assert {"char", "wide", "error"} <= kinds
        assert any(line.startswith("char ") and len(line.split()[3]) == 16 and line.split()[3] >= "8"
                   for got in groups for line in got)  # chars of 2**63 and more
    else:
        assert "wide" not in kinds and "char" in kinds  # capped at 2**64 - 1: every code point fits


@pytest.mark.parametrize("lang", LANGS)
def test_counted_form_with_an_offset(harnesses, spec_paths, lang):
    """value + offset past 64 bits: one bit longer exactly when the carry runs through the digits."""
    head = {n: bytes([0xFF, 0xA0 + n]) if n < 16 else bytes([0xFF, 0xB4, 0xA0 + n // 16, 0xA0 + n % 16])
            for n in range(0, 40)}
    items = [
        head[11] + b"\xbf" * 12,              # 72 one bits + (2**63 - 1): 73 bits
        head[10] + b"\xbf" * 11,              # 66 one bits: the carry runs through them, 67 bits
        head[10] + b"\xaf" + b"\xbf" * 10,    # a carry out of the low 64 bits, but 10 above: 66 bits
        head[10] + b"\x80" * 11,              # 0 + offset: a char
        head[10] + b"\x8f" + b"\xbf" * 10,    # 2**64 - 1 + offset: 65 bits
        head[10] + b"\x87" + b"\xbf" * 10,    # 2**63 - 1 + offset = 2**64 - 2: a char
        head[10] + b"\x88" + b"\x80" * 10,    # 2**63 + offset = 2**64 - 1: a char
        head[10] + b"\x88" + b"\x80" * 9 + b"\x81",  # 2**63 + 1 + offset = 2**64: 65 bits
        head[10] + b"\x8f" + b"\xbf" * 9,     # the data ends
        head[20] + bytes(random.Random(5).randrange(0x80, 0xC0) for _ in range(21)),
    ]
    items.append(b"A".join(items))
    groups = run_harness(harnesses("counted-offset", lang), items)
    compare(spec_paths["counted-offset"], items, groups)
    assert [g[0].split()[0] for g in groups[:8]] == ["wide", "wide", "wide", "char", "wide", "char", "char", "wide"]
    assert [g[0].split()[-1] for g in groups[:8] if g[0].startswith("wide")] == ["73", "67", "66", "65", "65"]
    assert groups[6] == ["char 0 13 FFFFFFFFFFFFFFFF"]


@pytest.mark.parametrize("lang", LANGS)
def test_bounded_forms_wider_than_64_bits(harnesses, spec_paths, lang):
    """A bounded form's WIDE value is accumulated again from its bytes (any radix, plus the offset)."""
    rng = random.Random(240)
    trail = [b for b in range(0x21, 0x7F)] + [b for b in range(0xA0, 0x100)]
    items = [b"\xff" + b"\x80" * 40, b"\xff" + b"\xbf" * 40, b"\xff" + b"\x80" * 29 + b"\x81" + b"\x80" * 10,
             b"\xfe\x80!!!", b"\xfe\x80!!&", b"\xfe\x80!!%", b"\xfe\xbf\xff\xff\xff"]
    for _ in range(40):
        items.append(b"\xff" + bytes(rng.randrange(0x80, 0xC0) for _ in range(40)))
        items.append(b"\xfe" + bytes([rng.randrange(0x80, 0xC0)] + [rng.choice(trail) for _ in range(3)]))
    items += [x[:rng.randrange(1, len(x))] + bytes([rng.randrange(256)]) + x for x in items[:20]]
    items.append(b"A".join(items))
    groups = run_harness(harnesses("big-dfa", lang), items)
    compare(spec_paths["big-dfa"], items, groups)
    assert groups[0] == ["char 0 41 80"]  # raw 0 + 0x80, after 240 bits of zeros
    assert groups[1] == [f"wide 0 41 {2 ** 240 - 1 + 0x80:X} 241"]
    assert groups[3:6] == [["char 0 5 FFFFFFFFFFFFFFFB"], ["wide 0 5 10000000000000000 65"],
                           ["char 0 5 FFFFFFFFFFFFFFFF"]]  # raw 0, 5 and 4 plus 2**64 - 5


@pytest.mark.parametrize("lang", LANGS)
def test_counted_limit(harnesses, lang):
    """The caller's limit: a counted form's token longer than L bytes is the LIMIT error over its
    header (pos..i), and decoding goes on after it; at L bytes it decodes; bounded forms ignore it."""
    exe = harnesses("utf-inf-8", lang)
    examples = dict((cp, data) for cp, data in utf_inf_8_examples())
    long = examples[int("A" * 102, 16)]    # FF B4 A5 A4 + 68 value bytes: header 4 bytes
    short = examples[0x800000000000000000]  # FF A0 + 12 value bytes: header 2 bytes
    bounded = examples[0x7FFFFFFFFFFFFFFFFF]  # 13 bytes, FF 9F ...: not a counted form
    assert (len(long), len(short), len(bounded)) == (72, 14, 13)
    doc = short + long + bounded
    cases = {
        None: expected("utf-inf-8", doc),
        72: expected("utf-inf-8", doc),
        71: expected("utf-inf-8", short) + [f"error 14 18|{LIMIT_REASON}"]
        + expected("utf-inf-8", long[4:] + bounded, 18),
        14: expected("utf-inf-8", short) + [f"error 14 18|{LIMIT_REASON}"]
        + expected("utf-inf-8", long[4:] + bounded, 18),
        13: [f"error 0 2|{LIMIT_REASON}"] + expected("utf-inf-8", short[2:], 2)
        + [f"error 14 18|{LIMIT_REASON}"] + expected("utf-inf-8", long[4:] + bounded, 18),
        0: [f"error 0 2|{LIMIT_REASON}"] + expected("utf-inf-8", short[2:], 2)
        + [f"error 14 18|{LIMIT_REASON}"] + expected("utf-inf-8", long[4:] + bounded, 18),
    }
    for limit, want in cases.items():
        got = run_harness(exe, [doc, bounded], limit)
        assert without_reasons(got[0]) == without_reasons(want), limit
        assert [line for line in got[0] if LIMIT_REASON in line] == [line for line in want if "|" in line], limit
        assert got[1] == expected("utf-inf-8", bounded), limit  # 13 bytes, whatever the limit
    # a header that promises more than the limit, with the bytes absent: refused at once
    got = run_harness(exe, [b"\xff\xb4\xb4\xb4\xb4\xaf\xaf\xaf\xaf\xaf" + b"\xbf" * 3], 1000)
    assert got[0][0] == f"error 0 10|{LIMIT_REASON}"


@pytest.mark.parametrize("lang", LANGS)
def test_million_bit_code_point(harnesses, lang):
    """A 1,000,000-bit code point (166,678 bytes) comes out whole, and fast: the value writer
    packs the digits in one pass (a quadratic one would take minutes)."""
    rng = random.Random(1_000_000)
    small = rng.getrandbits(2_000) | 1 << 1_999
    assert list(encspec.load("utf-inf-8").tokens(utf_inf_8_counted(small))) == \
        [("char", 0, len(utf_inf_8_counted(small)), small)]  # the helper writes what the spec reads
    cp = rng.getrandbits(1_000_000) | 1 << 999_999
    data = utf_inf_8_counted(cp)
    exe = harnesses("utf-inf-8", lang)
    t0 = children_cpu_time()
    got = run_harness(exe, [data, data + data[:-1]])
    elapsed = children_cpu_time() - t0  # the harness's CPU time: a busy machine does not count
    assert got[0] == [f"wide 0 {len(data)} {cp:X} 1000000"]
    assert got[1][0] == got[0][0] and got[1][1] == f"error {len(data)} {2 * len(data) - 1}|unexpected end of data"
    assert elapsed < 5, f"{elapsed:.1f} s of CPU"
    # the limit: one byte short of the token
    got = run_harness(exe, [data], len(data) - 1)
    assert got[0][0] == f"error 0 10|{LIMIT_REASON}"
