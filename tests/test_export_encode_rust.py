"""The Rust crate's encoder equals the Python module's (issue 28 item 2).

run-encode (the exports' shared protocol: `strict|replace[ sig] HEX ...` a line,
`bytes HEX` or `error START END REASON` back; `|` between code points ends a
piece with --stream) drives the crate through `&[u32]` (`encode_into`, measured
then written), `&str` (--string) and its streaming `Encoder` (--stream).  The
expected answers are the Python module's `encode` and IncrementalEncoder, on the
spec's encode vectors and on seeded random texts (conftest.encode_texts: encodable
code points, unencodable ones, lone and paired surrogates, sequence starters and
values past U+10FFFF).  The crate's own `cargo test` runs the encode vectors and
clippy stays clean.  run-encode is built with rustc alone (no cargo).
"""
from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

import encspec
import tools
from conftest import (
    ENCODE_OTHERS,
    ENCODE_SPECS,
    encode_texts,
    expected_encode_line,
    exported_once,
    run_encode_line,
    run_encode_lines,
    spec_automaton,
    spec_encoder,
)
from encspec.emit import description, package_tests
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles Rust: ENCSPEC_SLOW=1 (CI) runs it

OTHERS = ENCODE_OTHERS
N_RANDOM = 200
TIMEOUT = 900


automaton, encoder = spec_automaton, spec_encoder


def rustc() -> str:
    return tools.need(lambda: tools.find("rustc", [f"{os.environ.get('CARGO_HOME', '~/.cargo')}/bin", "~/.cargo/bin"],
                                         "install Rust with rustup"))


@pytest.fixture(scope="module")
def crates(tmp_path_factory):
    """spec -> its exported crate's folder (exported once per module)."""
    return exported_once(tmp_path_factory, "rust")


def run_encode(folder: Path, lines: list[str], *args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "RUSTFLAGS"}
    env["RUSTC"] = rustc()
    return run_encode_lines(folder, lines, args, env, TIMEOUT)


def counted(spec: str, cp: int) -> bool:
    r = encoder(spec).run_of(cp)
    return r is not None and r.kind == "counted"


def texts(spec: str, n: int = N_RANDOM) -> list[list[int]]:
    """The encode vectors' code points, then seeded random texts (none with a counted
    form's code point: the engine refuses those by design, with REASON_COUNTED)."""
    _, cases = package_tests.encode_cases(automaton(spec))
    out = [c["code_points"] for c in cases] + encode_texts(spec, n)
    return [cps for cps in out if all(cp <= description.CODE_POINT_LIMIT and not counted(spec, cp) for cp in cps)]


def compare(spec: str, lines: list[str], got: list[str], want: list[str]) -> None:
    bad = [(line, g, w) for line, g, w in zip(lines, got, want) if g != w and not (w == "error" and g.startswith("error "))]
    assert not bad, f"{spec}: {len(bad)} of {len(lines)} differ, e.g.\n" + "\n".join(
        f"  {line}\n    Rust:   {g}\n    Python: {w}" for line, g, w in bad[:5])


def check(spec: str, crates, items: list[list[int]], *args: str, sig: bool = False) -> None:
    module = encspec.load(spec)
    lines = [run_encode_line(mode, cps, sig) for cps in items for mode in ("strict", "replace")]
    want = [expected_encode_line(module, mode, cps, sig) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(crates(spec), lines, *args), want)


@pytest.mark.parametrize("spec", list(ENCODE_SPECS) + OTHERS)
def test_rust_encode_equals_the_python_module(crates, spec):
    """`encode_into` (&[u32]) and `encode_str_into` (&str, for texts a str holds):
    strict (the first error's span and reason) and replace."""
    items = texts(spec)
    check(spec, crates, items)
    check(spec, crates, [cps for cps in items if in_a_str(cps)], "--string")


@pytest.mark.parametrize("spec", ["utf-16", "utf-32", "utf-8", "utf-ebcdic", "gb18030"])
def test_rust_encode_writes_the_signature_when_asked(crates, spec):
    check(spec, crates, texts(spec, 40)[:60], sig=True)


def held(enc) -> int:
    """How many code points the IncrementalEncoder holds back: getstate()'s bits 22 and
    up, 21 bits each (its docstring)."""
    state, n = enc.getstate() >> 22, 0
    while state:
        state, n = state >> 21, n + 1
    return n


def streamed(spec: str, pieces: list[list[int]], mode: str) -> str:
    """The Python module's IncrementalEncoder over *pieces*, then final, as run-encode
    prints it; an error's positions counted from the first code point fed (the
    exception's count from the held-back tail before the piece)."""
    enc = encspec.load(spec).IncrementalEncoder(mode)
    out, fed = b"", 0
    for k, piece in enumerate([*pieces, []]):
        base = fed - held(enc)
        try:
            out += enc.encode(piece, final=k == len(pieces))
        except UnicodeEncodeError as e:
            return f"error {base + e.start} {base + e.end} {e.reason}"
        fed += len(piece)
    return "bytes " + (out.hex().upper() or "-")


def piece_line(mode: str, pieces: list[list[int]]) -> str:
    return f"{mode} " + " | ".join(" ".join(f"{c:X}" for c in p) for p in pieces)


def in_a_str(cps: list[int]) -> bool:
    return all(cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF for cp in cps)


STREAM_SPECS = ["utf-8", "wtf-8", "wtf-16", "utf-16", "big5hkscs", "euc-jis-2004", "gb18030", "cp1252", "utf-ebcdic"]


@pytest.mark.parametrize("spec", STREAM_SPECS)
def test_rust_streaming_split_at_every_offset(crates, spec):
    """The streaming `Encoder`, each short text split in two at every offset and in three
    at random, equals the IncrementalEncoder fed the same pieces: bytes, and a strict
    error's span (from the first code point fed) and reason."""
    rng = random.Random(spec)
    cases = []
    for cps in texts(spec, 80)[:100]:
        splits = [(k,) for k in range(len(cps) + 1)] + [tuple(sorted(rng.sample(range(len(cps) + 1), 2)))
                                                       for _ in range(3) if cps]
        for cuts in splits:
            pieces = [cps[a:b] for a, b in zip((0, *cuts), (*cuts, len(cps)))]
            cases += [(cps, piece_line(mode, pieces), streamed(spec, pieces, mode)) for mode in ("strict", "replace")]
    compare(spec, [c[1] for c in cases], run_encode(crates(spec), [c[1] for c in cases], "--stream"),
            [c[2] for c in cases])
    chars = [c for c in cases if in_a_str(c[0])]
    compare(spec, [c[1] for c in chars], run_encode(crates(spec), [c[1] for c in chars], "--stream", "--string"),
            [c[2] for c in chars])


def test_rust_streaming_holds_back_the_start_of_a_sequence(crates):
    """big5hkscs writes U+00CA U+0304 as one: a piece ending with U+00CA holds it back
    until the next piece (or the end) decides."""
    module = encspec.load("big5hkscs")
    joined, alone = module.encode([0xCA, 0x304]), module.encode([0xCA])
    got = run_encode(crates("big5hkscs"), ["strict CA | 304", "strict CA |", "strict 41 CA | 42"], "--stream")
    assert got == ["bytes " + joined.hex().upper(), "bytes " + alone.hex().upper(),
                   "bytes " + module.encode([0x41, 0xCA, 0x42]).hex().upper()]


def test_rust_wtf8_joins_a_pair_and_wtf16_refuses_it(crates):
    """WTF-8 writes a lead then a trail as the one supplementary code point, but not
    across pieces; WTF-16 sends the trail to the handler."""
    assert run_encode(crates("wtf-8"), ["strict D83D DE00", "strict D83D | DE00"]) == [
        "bytes F09F9880", "bytes F09F9880"]
    assert run_encode(crates("wtf-8"), ["strict D83D | DE00"], "--stream") == [
        "error 1 2 a trail surrogate after a lead surrogate an earlier piece wrote: the pair can no longer be joined"]
    assert run_encode(crates("wtf-16"), ["strict D83D DE00", "replace D83D DE00"]) == [
        f"error 1 2 {description.PAIR_REASON}", "bytes 3DD83F00"]


def test_rust_run_encode_refuses_a_bad_line(crates):
    """A line that is not a case: one clear line on stderr and exit 2."""
    proc = subprocess.run([str(crates("utf-8") / "run-encode")], input="strict 41 XYZ\n", capture_output=True,
                          text=True, timeout=TIMEOUT, env=dict(os.environ, RUSTC=rustc()))
    assert proc.returncode == 2 and "not a code point in hex: \"XYZ\"" in proc.stderr


@pytest.mark.parametrize("spec", ["utf-8", "big5hkscs", "wtf-16", "utf-ebcdic", "whatwg-big5", "whatwg-replacement"])
def test_rust_cargo_test_runs_the_encode_vectors_and_clippy_is_clean(crates, spec, tmp_path):
    """The crate's own `cargo test` passes its encode cases (tests/encode.rs, the whole
    vectors file's cases) and `cargo clippy --all-targets -- -D warnings` is clean."""
    cargo = tools.need(lambda: tools.find("cargo", [f"{os.environ.get('CARGO_HOME', '~/.cargo')}/bin", "~/.cargo/bin"],
                                          "install Rust with rustup"))
    env = {k: v for k, v in os.environ.items() if k not in ("RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR")}
    env.update(PATH=str(Path(cargo).parent) + os.pathsep + os.environ.get("PATH", ""),
               CARGO_TARGET_DIR=str(tmp_path / "target"), CARGO_HOME=str(tmp_path / "home"), CARGO_NET_OFFLINE="true")
    folder = crates(spec)
    proc = subprocess.run([cargo, "test", "--test", "encode"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "test encode_vectors_strict ... ok" in proc.stdout and "6 passed" in proc.stdout
    n = (folder / "tests" / "encode.rs").read_text("utf-8").count("\n    (")
    _, cases = package_tests.encode_cases(automaton(spec))
    assert n == len(cases)
    found = tools.find("cargo-clippy", [str(Path(cargo).parent)], "rustup component add clippy")
    assert found
    proc = subprocess.run([cargo, "clippy", "--all-targets", "--", "-D", "warnings"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_rust_exports_whatwg_replacement(crates):
    """The undecodable spec exports: its decoder reads any non-empty input as one error
    (the Python module's span and reason), its encoder is the rows (UTF-8, unverified)."""
    folder = crates("whatwg-replacement")
    module = encspec.load("whatwg-replacement")
    env = dict(os.environ, RUSTC=rustc())
    proc = subprocess.run([str(folder / "run-tokens"), "--batch"], input="61FF62\n\n", capture_output=True,
                          text=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == "error 0 3\nend\nend\n"
    with pytest.raises(UnicodeDecodeError) as e:
        module.decode(b"a\xffb")
    assert (e.value.start, e.value.end) == (0, 3)
    check("whatwg-replacement", crates, texts("whatwg-replacement", 60))


@pytest.mark.parametrize("spec", ["utf-8", "cp1252", "utf-16", "big5"])
def test_rust_readme_encode_example_prints_the_python_modules_bytes(crates, spec, tmp_path):
    """The README's second example, built against the crate (feature alloc), prints
    encode("héllo") strict (where it succeeds), replace, and through an Encoder."""
    folder = crates(spec)
    text = (folder / "README.md").read_text("utf-8")
    blocks = re.findall(r"^```rust\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 2 and "encode_str(" in blocks[1]
    (tmp_path / "main.rs").write_text(blocks[1], "utf-8")
    name = registry.module_name(spec)
    subprocess.run([rustc(), "--edition", "2021", "--crate-type", "rlib", "--crate-name", name, "--cfg",
                    'feature="alloc"', "--out-dir", str(tmp_path), str(folder / "src" / "lib.rs")], check=True,
                   timeout=TIMEOUT)
    subprocess.run([rustc(), "--edition", "2021", "--extern", f"{name}={tmp_path / f'lib{name}.rlib'}", "-o",
                    str(tmp_path / "main"), str(tmp_path / "main.rs")], check=True, timeout=TIMEOUT)
    out = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True, timeout=TIMEOUT).stdout
    module = encspec.load(spec)
    replaced = module.encode("h\u00e9llo", "replace", signature=False).hex().upper()
    try:
        strict = [module.encode("h\u00e9llo", "strict", signature=False).hex().upper()]
    except UnicodeEncodeError:
        strict = []
    assert out.split("\n") == [*strict, replaced, replaced, ""]


def cpu_of(folder: Path, lines: list[str], *args: str) -> float:
    """The CPU time of one run-encode over *lines* (best of three)."""
    import resource
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run_encode(folder, lines, *args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return best


@pytest.mark.parametrize("spec", ["big5hkscs", "wtf-8"])
def test_rust_encode_is_linear(crates, spec):
    """10x the text costs about 10x (ratio of CPU times, wide margin): whole, through &str
    and streamed, with sequences, their starters, unencodable runs and surrogates."""
    rng = random.Random(spec)
    unit = [cp for cps in texts(spec, 200) for cp in cps if cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF]
    chars = [0xCA, 0x304, 0xCA, 0xEA, 0x30C, 0x41, 0x10FFFF, 0x10FFFF, 0x10FFFF] + unit
    small = [rng.choice(chars) for _ in range(20_000)]
    big = small * 10
    folder = crates(spec)
    run_encode(folder, ["replace 41"])  # built before timing
    for args in ((), ("--string",), ("--stream",)):
        sep = " | " if args == ("--stream",) else " "  # streamed: one code point a piece
        lines = ["replace " + sep.join(f"{c:X}" for c in cps) for cps in (small, big)]
        ratio = cpu_of(folder, lines[1:], *args) / max(cpu_of(folder, lines[:1], *args), 1e-3)
        assert ratio < 30, (args, ratio)
