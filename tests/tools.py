"""Real implementations written by others, found on this machine and driven in batches.

The tests never install anything. Every function here returns a working tool
or raises ``ToolMissing`` saying what was searched and which package has it;
``need`` turns that into a skip naming the tool, or into a failure when
``ENCSPEC_REQUIRE_TOOLS=1`` (set by ``.ci/run``, which installs the tools).
Helper programs are compiled into a directory the caller owns (pytest's tmp
dir), and each is run once per batch of inputs: lines of hex on stdin, one
line of hex per input on stdout.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

TIMEOUT = 300  # seconds for one compile or one batch


class ToolMissing(RuntimeError):
    """A real implementation the tests need is not on this machine."""


def required() -> bool:
    """Whether a missing tool fails the test (ENCSPEC_REQUIRE_TOOLS set, not "0")."""
    return os.environ.get("ENCSPEC_REQUIRE_TOOLS", "") not in ("", "0")


def missing(why: str):
    """Skip the calling test with *why*, or fail it when tools are required."""
    import pytest
    if required():
        pytest.fail(f"ENCSPEC_REQUIRE_TOOLS is set and {why}")
    pytest.skip(why)


def need(get):
    """``get()`` (a tool path), or a skip/failure naming the missing tool."""
    try:
        return get()
    except ToolMissing as e:
        missing(str(e))


def _search_path(name: str, extra_dirs=()) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for directory in extra_dirs:
        candidate = Path(directory).expanduser() / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def find(name: str, extra_dirs=(), hint: str = "") -> str:
    """The path of executable ``name`` on PATH or in ``extra_dirs``, or ToolMissing."""
    found = _search_path(name, extra_dirs)
    if found is None:
        searched = ["PATH"] + [str(Path(d).expanduser()) for d in extra_dirs]
        raise ToolMissing(f"{name} not found (searched {', '.join(searched)})"
                          + (f"; {hint}" if hint else ""))
    return found


def java_dirs() -> list[str]:
    home = os.environ.get("JAVA_HOME")
    return [str(Path(home) / "bin")] if home else []


@cache
def node() -> str:
    return find("node", ["/usr/local/bin"], "install Node.js (v12 or later: TextDecoder is global)")


@cache
def rustc() -> str:
    cargo_home = os.environ.get("CARGO_HOME", "~/.cargo")
    return find("rustc", [f"{cargo_home}/bin", "~/.cargo/bin"], "install Rust with rustup")


@cache
def javac() -> str:
    return find("javac", java_dirs(), "it is in Debian's default-jdk-headless package")


@cache
def java() -> str:
    return find("java", java_dirs(), "it is in Debian's default-jdk-headless package")


@cache
def iconv() -> str:
    """The C library's iconv (Debian's libc-bin)."""
    return find("iconv", hint="it is in Debian's libc-bin package")


@cache
def uconv() -> str:
    """ICU's uconv (Debian's icu-devtools)."""
    return find("uconv", hint="it is in Debian's icu-devtools package")


@cache
def cargo() -> str:
    cargo_home = os.environ.get("CARGO_HOME", "~/.cargo")
    return find("cargo", [f"{cargo_home}/bin", "~/.cargo/bin"], "it is in Debian's cargo package, or install Rust with rustup")


DEBIAN_CARGO_REGISTRY = Path("/usr/share/cargo/registry")


@cache
def encoding_rs_source() -> Path:
    """The encoding_rs crate's source as Debian's librust-encoding-rs-dev installs it: a
    directory registry that cargo builds from offline."""
    found = sorted(DEBIAN_CARGO_REGISTRY.glob("encoding_rs-*"))
    if not found:
        raise ToolMissing(f"encoding_rs not found ({DEBIAN_CARGO_REGISTRY}/encoding_rs-*); "
                          "it is in Debian's librust-encoding-rs-dev package")
    return found[-1]


def compile_cargo_offline(project: Path, out_dir: Path) -> Path:
    """Build the cargo *project* (a folder with Cargo.toml and src/main.rs, one binary) in
    release mode inside *out_dir*: a copy of it, a CARGO_HOME whose config replaces
    crates-io by Debian's registry, the target dir, all there and offline.  The binary's path."""
    import re
    found = re.search(r'^name = "([^"]+)"', (project / "Cargo.toml").read_text("utf-8"), re.MULTILINE)
    assert found, f"{project}/Cargo.toml names no package"
    name = found[1]
    source, home = out_dir / "project", out_dir / "cargo-home"
    shutil.copytree(project, source, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    home.mkdir(parents=True)
    (home / "config.toml").write_text(
        '[source.crates-io]\nreplace-with = "debian"\n\n'
        f'[source.debian]\ndirectory = "{DEBIAN_CARGO_REGISTRY}"\n\n[net]\noffline = true\n')
    cargo_path = cargo()
    env = dict(os.environ, CARGO_HOME=str(home),
               PATH=str(Path(cargo_path).parent) + os.pathsep + os.environ.get("PATH", ""))
    proc = subprocess.run([cargo_path, "build", "--release", "--offline", "--quiet",
                           "--target-dir", str(out_dir / "target")],
                          cwd=source, capture_output=True, text=True, env=env, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"cargo build failed in {source}:\n{proc.stderr[-4000:]}")
    return out_dir / "target" / "release" / name


def run(cmd: list[str], stdin: bytes = b"", cwd: str | Path | None = None) -> bytes:
    """Run ``cmd`` once, feeding ``stdin``; its stdout, or AssertionError with its stderr."""
    proc = subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n"
                             + proc.stderr.decode("utf-8", "replace")[-4000:])
    return proc.stdout


def compile_rust(source: str, out_dir: Path, name: str) -> Path:
    """Compile one-file Rust ``source`` into ``out_dir/name``; the executable's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    src = out_dir / f"{name}.rs"
    src.write_text(source)
    exe = out_dir / name
    # rustc installed by rustup is a proxy that needs ~/.cargo/bin on PATH for its linker lookups
    rustc_path = rustc()
    env = dict(os.environ, PATH=str(Path(rustc_path).parent) + os.pathsep + os.environ.get("PATH", ""))
    proc = subprocess.run([rustc_path, "--edition", "2021", "-O", "-o", str(exe), str(src)],
                          capture_output=True, text=True, env=env, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"rustc failed on {src}:\n{proc.stderr}")
    return exe


def compile_java(source: str, out_dir: Path, class_name: str) -> list[str]:
    """Compile ``source`` (public class ``class_name``) into ``out_dir``; the command to run it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    src = out_dir / f"{class_name}.java"
    src.write_text(source)
    proc = subprocess.run([javac(), "-d", str(out_dir), str(src)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"javac failed on {src}:\n{proc.stderr}")
    return [java(), "-Xshare:auto", "-cp", str(out_dir), class_name]


# ------------------------------------------------------------ batch protocol
def hex_lines(items: list[bytes]) -> bytes:
    """One line of lower-case hex per input (an empty line for empty input)."""
    return "".join(item.hex() + "\n" for item in items).encode("ascii")


def parse_hex_lines(out: bytes, expected_count: int) -> list[bytes]:
    """The inverse of hex_lines, checking that the tool answered every input."""
    lines = out.decode("ascii").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != expected_count:
        raise AssertionError(f"tool answered {len(lines)} lines for {expected_count} inputs")
    return [bytes.fromhex(line) for line in lines]


# --------------------------------------------------------- helper programs
# Each reads lines of hex (bytes, or UTF-16 code units as 4 hex digits each)
# and writes one line of hex per input line, in order.

NODE_TEXTDECODER = r"""
const input = require("fs").readFileSync(0, "latin1");
const lines = input.split("\n");
if (lines.length && lines[lines.length - 1] === "") lines.pop();
// fatal: false (U+FFFD replacement); ignoreBOM: true keeps a leading U+FEFF, which the
// WHATWG decoder otherwise strips: a BOM is text to "utf-8", as to CPython's utf-8 codec
const dec = new TextDecoder("utf-8", { ignoreBOM: true });
const out = [];
for (const line of lines) {
  const text = dec.decode(Buffer.from(line, "hex"));
  out.push(Buffer.from(text, "utf8").toString("hex"));
}
process.stdout.write(out.map(l => l + "\n").join(""));
"""

NODE_UTF16_TO_UTF8 = r"""
const input = require("fs").readFileSync(0, "latin1");
const lines = input.split("\n");
if (lines.length && lines[lines.length - 1] === "") lines.pop();
const out = [];
for (const line of lines) {
  const units = [];
  for (let i = 0; i < line.length; i += 4) units.push(parseInt(line.slice(i, i + 4), 16));
  let s = "";
  for (const u of units) s += String.fromCharCode(u);
  if (s.length !== units.length) throw new Error("bad unit count in " + line);
  out.push(Buffer.from(s, "utf8").toString("hex"));
}
process.stdout.write(out.map(l => l + "\n").join(""));
"""

RUST_LOSSY = r"""
use std::io::{self, BufRead, Write};

fn unhex(line: &str) -> Vec<u8> {
    let b = line.as_bytes();
    assert!(b.len() % 2 == 0, "odd hex line");
    (0..b.len() / 2)
        .map(|i| u8::from_str_radix(&line[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.expect("read");
        let bytes = unhex(&line);
        let text = String::from_utf8_lossy(&bytes);
        for b in text.as_bytes() {
            write!(out, "{:02x}", b).unwrap();
        }
        writeln!(out).unwrap();
    }
}
"""

JAVA_MUTF8 = r"""
import java.io.*;
import java.nio.charset.StandardCharsets;

public class MUtf8 {
    // encode: lines of UTF-16 units (4 hex digits each) -> writeUTF bytes minus the length
    // decode: lines of bytes (hex) -> readUTF (length prepended here) -> UTF-16 units
    public static void main(String[] args) throws IOException {
        boolean encode = args[0].equals("encode");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (encode) {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < line.length(); i += 4)
                    s.append((char) Integer.parseInt(line.substring(i, i + 4), 16));
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                new DataOutputStream(buf).writeUTF(s.toString());
                byte[] b = buf.toByteArray();
                int declared = ((b[0] & 0xFF) << 8) | (b[1] & 0xFF);
                if (declared != b.length - 2) throw new IllegalStateException("length prefix");
                for (int i = 2; i < b.length; i++) out.append(String.format("%02x", b[i] & 0xFF));
            } else {
                int n = line.length() / 2;
                byte[] b = new byte[n + 2];
                b[0] = (byte) (n >> 8);
                b[1] = (byte) n;
                for (int i = 0; i < n; i++)
                    b[i + 2] = (byte) Integer.parseInt(line.substring(2 * i, 2 * i + 2), 16);
                String s = new DataInputStream(new ByteArrayInputStream(b)).readUTF();
                for (int i = 0; i < s.length(); i++) out.append(String.format("%04x", (int) s.charAt(i)));
            }
            out.append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
"""
