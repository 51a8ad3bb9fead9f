"""`encspec export --lang rust|c` writes packages that their own tools accept.

Rust: the crate of every built-in spec passes `cargo test` (its conformance
vectors) and `cargo clippy --all-targets -- -D warnings`, offline, with one
CARGO_TARGET_DIR and a CARGO_HOME in the test's temp dir (cargo writes there).
C: `make` and `make check` pass for every built-in spec with warnings as
errors; `make install DESTDIR=... PREFIX=/usr` installs the header, the library
and the .pc, and a small program built with `pkg-config --cflags --libs`
against that staged install prints what the spec says.  The package tests are
shown to fail on a wrong vector, so they check something.  Missing tools
(cargo, clippy, cc, make, pkg-config) skip naming the tool, or fail under
ENCSPEC_REQUIRE_TOOLS=1.
"""
from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
import tomllib

import tools
from conftest import builtins_for_exports
from encspec import pipeline
from encspec.emit import package_tests
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles and runs outside toolchains: ENCSPEC_SLOW=1 (CI) runs it

SPECS = builtins_for_exports()  # the table specs: test_export_tables.py (one stands for them here)
# a spec with modes too: its crate's own tests walk tokens from the mode each starts in
# (the rest of the modal crates' checks: tests/test_export_modes.py)
CARGO_SPECS = [*SPECS, "hz"]
C_WARNINGS = "-O2 -Wall -Wextra -pedantic -Werror"
TIMEOUT = 600


def crate_name(spec: str) -> str:
    return "encspec-" + registry.module_name(spec).replace("_", "-")


@cache
def automaton(spec: str):
    return pipeline.load(spec)[1]


def export(spec: str, lang: str, out: Path) -> Path:
    from encspec.pipeline import export as write
    write(automaton(spec), lang, out)
    return out


def run(cmd, cwd, env=None, ok=True) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if ok and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} in {cwd} exited {proc.returncode}:\n"
                             f"{proc.stdout[-3000:]}\n{proc.stderr[-4000:]}")
    return proc


# ------------------------------------------------------------------ rust
def _cargo_dirs() -> list[str]:
    return [f"{os.environ.get('CARGO_HOME', '~/.cargo')}/bin", "~/.cargo/bin"]


@cache
def cargo() -> str:
    return tools.find("cargo", _cargo_dirs(), "install Rust with rustup")


@cache
def clippy() -> str:
    found = tools.find("cargo-clippy", _cargo_dirs() + [str(Path(cargo()).parent)],
                       "install it with `rustup component add clippy`")
    return found


@pytest.fixture(scope="session")
def cargo_env(tmp_path_factory) -> dict[str, str]:
    """cargo on PATH (rustup's proxies need it), target and home in a temp dir, no stray flags."""
    exe = tools.need(cargo)
    root = tmp_path_factory.mktemp("cargo")
    env = {k: v for k, v in os.environ.items() if k not in ("RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_TARGET_DIR")}
    env.update(PATH=str(Path(exe).parent) + os.pathsep + os.environ.get("PATH", ""),
               CARGO_TARGET_DIR=str(root / "target"), CARGO_HOME=str(root / "home"), CARGO_NET_OFFLINE="true")
    return env


@pytest.fixture(scope="session")
def crates(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("crates")
    for spec in CARGO_SPECS:
        export(spec, "rust", root / spec)
    return root


@pytest.mark.parametrize("spec", SPECS)
def test_crate_layout(crates, spec):
    """Cargo.toml names the package after the spec, 2021 edition, no dependencies; the library is no_std."""
    crate = crates / spec
    manifest = tomllib.loads((crate / "Cargo.toml").read_text("utf-8"))
    assert manifest["package"]["name"] == crate_name(spec)
    assert manifest["package"]["edition"] == "2021"
    assert manifest["lib"]["name"] == registry.module_name(spec)
    assert manifest["lib"]["path"] == "src/lib.rs"
    assert manifest.get("dependencies", {}) == {}
    assert "dev-dependencies" not in manifest and "build-dependencies" not in manifest
    lib = (crate / "src" / "lib.rs").read_text("utf-8")
    assert re.search(r"^#!\[no_std\]$", lib, re.M)
    # alloc only behind the default feature (wide_value's Vec): without it, core alone
    assert "extern crate std" not in lib
    assert re.findall(r"^.*\n.*extern crate alloc;$", lib, re.M) == ['#[cfg(feature = "alloc")]\nextern crate alloc;']
    assert manifest["features"] == {"default": ["alloc"], "alloc": []}
    for rel in ("tests/vectors.rs", "examples/tokens.rs", "run-tokens"):
        assert (crate / rel).is_file(), rel


@pytest.mark.parametrize("spec", CARGO_SPECS)
def test_cargo_test_and_clippy(crates, cargo_env, spec):
    """`cargo test` (the vectors) and `cargo clippy --all-targets -- -D warnings` pass, offline."""
    crate = crates / spec
    proc = run([cargo(), "test", "--offline"], crate, cargo_env)
    passed = sum(int(n) for n in re.findall(r"test result: ok\. (\d+) passed", proc.stdout))
    assert passed >= 6, proc.stdout  # tests/vectors.rs has six tests
    # without the default feature the library uses core alone (no wide_value, wide_value_into stays)
    run([cargo(), "build", "--offline", "--no-default-features"], crate, cargo_env)
    tools.need(clippy)
    run([cargo(), "clippy", "--offline", "--all-targets", "--", "-D", "warnings"], crate, cargo_env)


def test_cargo_test_fails_on_a_wrong_vector(tmp_path, cargo_env):
    """The crate's tests check the decoder: one wrong expected value fails `cargo test`."""
    crate = export("utf-8", "rust", tmp_path / "utf-8")
    tests = crate / "tests" / "vectors.rs"
    text = tests.read_text("utf-8")
    # 1.1: the Greek word kosme starts with U+03BA, CE BA (written by hand from the spec's layout)
    assert "0xCE, 0xBA, 0xCF, 0x8C" in text and "(Kind::Char, 0, 2, 0x3BA, &[])" in text
    tests.write_text(text.replace("(Kind::Char, 0, 2, 0x3BA, &[])", "(Kind::Char, 0, 2, 0x3BB, &[])", 1), "utf-8")
    proc = run([cargo(), "test", "--offline"], crate, cargo_env, ok=False)
    assert proc.returncode != 0
    assert "vectors differ" in proc.stdout + proc.stderr


def test_vectors_say_where_they_come_from(tmp_path):
    """A built-in's crate checks the checked-in vectors; a user's spec gets them computed (and says so)."""
    builtin = export("utf-8", "rust", tmp_path / "builtin")
    assert "generated/vectors/utf_8.jsonl" in (builtin / "tests" / "vectors.rs").read_text("utf-8")
    spec = tmp_path / "my-utf-8.encspec"
    spec.write_text(registry.find("utf-8").read_text("utf-8").replace("encoding utf-8", "encoding my-utf-8"),
                    "utf-8")
    from encspec.pipeline import export as write
    user = tmp_path / "user"
    write(pipeline.load(str(spec))[1], "rust", user)
    text = (user / "tests" / "vectors.rs").read_text("utf-8")
    assert "computed at export time" in text and "generated/vectors" not in text
    assert 'name = "encspec-my-utf-8"' in (user / "Cargo.toml").read_text("utf-8")


def test_wide_code_points_are_expected_as_wide_tokens(crates):
    """UTF-∞-8's vectors include chars beyond 64 bits: the crate expects Kind::Wide tokens there,
    with the code point's bytes (checked through wide_value_into)."""
    text = (crates / "utf-inf-8" / "tests" / "vectors.rs").read_text("utf-8")
    # 2.8.4: U+7FFFFFFFFFFFFFFFFF is FF 9F then eleven BF (7 + 11 * 6 = 73 bits): one wide char over 13 bytes
    case = re.search(r'"2\.8\.4 [^"]*",\s*&\[([^\]]*)\],\s*&\[(.*)\],\n', text)
    assert case, "case 2.8.4 missing"
    assert case.group(1) == "0xFF, 0x9F" + ", 0xBF" * 11
    assert case.group(2) == "(Kind::Wide, 0, 13, 0x0, &[0x7F" + ", 0xFF" * 8 + "])"
    assert not re.search(r"Kind::Char, \d+, \d+, 0x[0-9A-F]{17,},", text)


# ------------------------------------------------------------------ c
@cache
def make() -> str:
    return tools.find("make", hint="it is in Debian's make package")


@cache
def cc() -> str:
    return tools.find("cc", hint="it is in Debian's gcc package")


@cache
def pkg_config() -> str:
    return tools.find("pkg-config", hint="it is in Debian's pkgconf package")


def make_cmd(*args) -> list[str]:
    return [tools.need(make), f"CC={tools.need(cc)}", f"CFLAGS={C_WARNINGS}", *args]


@pytest.mark.parametrize("spec", SPECS)
def test_make_and_make_check(tmp_path, spec):
    """`make` builds the static library and the demo; `make check` passes every vector."""
    out = export(spec, "c", tmp_path / spec)
    mod = registry.module_name(spec)
    run(make_cmd(), out)
    assert (out / f"lib{crate_name(spec)}.a").is_file() and os.access(out / "tokens", os.X_OK)
    proc = run(make_cmd("check"), out)
    m = re.search(r"(\d+) of (\d+) vectors passed", proc.stdout)
    # every vector the package keeps (a few of each subsection): at least 10, or all of
    # the spec's where it has fewer (a code page's handful of edges)
    kept = len(package_tests.vectors(pipeline.load(spec)[1])[1])
    shipped = (Path(__file__).resolve().parents[1] / "generated" / "vectors" / f"{mod}.jsonl").read_text("utf-8").count("\n")
    assert m and m.group(1) == m.group(2) == str(kept) and kept >= min(10, shipped), proc.stdout
    # the demo built by make prints what `encspec tokens` prints (hand-written: U+0041 is A in
    # the byte encodings, C1 in UTF-EBCDIC (EBCDIC's A), 00 41 / 41 00 in UTF-16 BE / LE, and four
    # bytes in UTF-32)
    _, a = pipeline.load(spec)
    units = {1: b"A", 2: b"\x00A" if "be" in spec else b"A\x00", 4: b"\x00\x00\x00A" if "be" in spec
             else b"A\x00\x00\x00"}
    data = b"\xC1" if spec == "utf-ebcdic" else units[a.unit]
    proc = subprocess.run([str(out / "tokens")], input=data, capture_output=True, timeout=TIMEOUT)
    assert proc.stdout == f"char 0 {len(data)} 41\n".encode(), (mod, proc.stdout)


def test_make_check_fails_on_a_wrong_vector(tmp_path):
    """check.c checks the library: one wrong expected token fails `make check`."""
    out = export("utf-8", "c", tmp_path / "utf-8")
    check = out / "check.c"
    text = check.read_text("utf-8")
    assert '"char 0 2 3BA; char 2 4 3CC;' in text
    check.write_text(text.replace('"char 0 2 3BA;', '"char 0 2 3BB;', 1), "utf-8")
    proc = run(make_cmd("check"), out, ok=False)
    assert proc.returncode != 0 and "FAIL 1.1" in proc.stdout


APP = r"""
#include <stdio.h>
#include <encspec/utf_8_bom.h>

int main(void)
{
    static const unsigned char data[] = {0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0xA9, 0xFF, 0xF0, 0x9F, 0x98, 0x80};
    utf_8_bom_cp out[sizeof data];
    size_t errors = 0, n = utf_8_bom_decode(data, sizeof data, out, 0xFFFD, &errors), k;
    for (k = 0; k < n; k++)
        printf("%lX ", (unsigned long)out[k]);
    printf("| %lu %s\n", (unsigned long)errors, UTF_8_BOM_NAME);
    return 0;
}
"""


def test_make_install_and_pkg_config(tmp_path):
    """A staged install (DESTDIR, PREFIX=/usr) holds the header, library and .pc; a program
    built with `pkg-config --cflags --libs` against it links and runs."""
    out = export("utf-8-bom", "c", tmp_path / "pkg")
    dest = tmp_path / "dest"
    run(make_cmd("install", f"DESTDIR={dest}", "PREFIX=/usr"), out)
    name = crate_name("utf-8-bom")
    pc = dest / "usr/lib/pkgconfig" / f"{name}.pc"
    assert (dest / "usr/include/encspec/utf_8_bom.h").is_file()
    assert (dest / f"usr/lib/lib{name}.a").is_file()
    fields = dict(line.split("=", 1) for line in pc.read_text("utf-8").splitlines()
                  if re.match(r"^\w+=", line))
    assert fields["prefix"] == "/usr" and fields["libdir"] == "/usr/lib"
    env = dict(os.environ, PKG_CONFIG_PATH=str(pc.parent), PKG_CONFIG_LIBDIR=str(pc.parent),
               PKG_CONFIG_SYSROOT_DIR=str(dest),  # the staged tree stands for /
               PKG_CONFIG_ALLOW_SYSTEM_CFLAGS="1", PKG_CONFIG_ALLOW_SYSTEM_LIBS="1")
    flags = run([tools.need(pkg_config), "--cflags", "--libs", name], tmp_path, env).stdout.split()
    assert f"-l{name}" in flags
    src = tmp_path / "app.c"
    src.write_text(APP, "ascii")
    exe = tmp_path / "app"
    run([tools.need(cc), "-std=c99", "-Wall", "-Werror", "-o", str(exe), str(src), *flags], tmp_path)
    # hand-written: the signature is skipped, FF is one error, F0 9F 98 80 is U+1F600
    assert run([str(exe)], tmp_path).stdout == "41 E9 FFFD 1F600 | 1 utf-8-bom\n"
    run(make_cmd("uninstall", f"DESTDIR={dest}", "PREFIX=/usr"), out)
    assert not pc.exists() and not (dest / f"usr/lib/lib{name}.a").exists()


# ------------------------------------------------------------------ escaping
# A title is free text: in Cargo.toml, a Makefile and a .pc file it must not
# end a string or comment, expand a variable or continue a line.
TRICKY_TITLE = "Tricky */ \\\\ $(PREFIX) ${x} # \u2028 \u0085 \u221e %s \\\\"


@pytest.fixture(scope="module")
def tricky(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tricky") / "odd #$ dir"
    folder.mkdir()
    text = registry.find("utf-8").read_text("utf-8")
    text = re.sub(r"^title .*$", lambda m: f'title "{TRICKY_TITLE}"', text, flags=re.M)
    text = re.sub(r"^aliases .*$", "", text, flags=re.M).replace("encoding utf-8", "encoding tricky")
    path = folder / "tricky $x.encspec"
    path.write_text(text, "utf-8")
    a = pipeline.load(str(path))[1]
    assert a.title == TRICKY_TITLE
    return a


def test_tricky_title_crate(tmp_path, tricky, cargo_env):
    from encspec.pipeline import export as write
    crate = tmp_path / "crate"
    write(tricky, "rust", crate)
    manifest = tomllib.loads((crate / "Cargo.toml").read_text("utf-8"))
    # what is not printable shows as [U+XXXX] (cargo silently drops a DEL from a manifest's strings)
    shown = "Tricky */ \\\\ $(PREFIX) ${x} # [U+2028] [U+0085] \u221e %s \\\\"
    assert manifest["package"]["description"] == f"Decoder for {shown}, generated by encspec"
    run([cargo(), "test", "--offline"], crate, cargo_env)
    tools.need(clippy)
    run([cargo(), "clippy", "--offline", "--all-targets", "--", "-D", "warnings"], crate, cargo_env)


def test_tricky_title_make_and_pc(tmp_path, tricky):
    from encspec.pipeline import export as write
    out = tmp_path / "pkg"
    write(tricky, "c", out)
    dest = tmp_path / "dest"
    run(make_cmd("check"), out)
    run(make_cmd("install", f"DESTDIR={dest}", "PREFIX=/usr"), out)
    env = dict(os.environ, PKG_CONFIG_PATH=str(dest / "usr/lib/pkgconfig"),
               PKG_CONFIG_LIBDIR=str(dest / "usr/lib/pkgconfig"))
    listed = run([tools.need(pkg_config), "--print-errors", "--list-all"], tmp_path, env).stdout
    # what survives: the text up to `${`; `#` and unprintables are spelled [U+XXXX]
    assert "Decoder for Tricky */ \\\\ $(PREFIX) $[U+007B]x} [U+0023] [U+2028] [U+0085]" in listed
    assert listed.rstrip().endswith("%s \\\\, generated by encspec")
