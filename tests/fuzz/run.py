"""The time-budgeted fuzz run (.ci/run calls it): every built-in spec, its native
extension and its exported C decoder built with AddressSanitizer and
UndefinedBehaviorSanitizer, fed the checked-in corpus and then new inputs for a
share of ``--seconds`` (default ``$ENCSPEC_FUZZ_SECONDS``, else 120) of fuzzing
(the sanitized builds come on top: about a minute on two cores).

    python tests/fuzz/run.py [--seconds N] [--jobs 2] [--seed S] [SPEC ...]

Per spec, in subprocesses of its own (a sanitizer report ends one, not the run):

1. build (no sanitizer runtime loaded): the spec is copied into a temporary
   folder, so that ``encspec.load(copy, backend="native")`` compiles its own
   extension into a temporary cache with ``CFLAGS``/``LDFLAGS`` set to the
   sanitizers (the installed extension is never touched); the C export is
   written there and its run-tokens built with the same flags;
2. guided, when atheris is installed, for half the spec's share: libFuzzer
   (atheris) grows a corpus from the checked-in one, coverage-guided by the
   pure-Python module's code, each input checked against the installed native
   extension (no sanitizer: gcc's libasan and libFuzzer's coverage hooks clash)
   with its scalar validator (ENCSPEC_SIMD=scalar; elsewhere the best SIMD one);
3. sanitized, with gcc's libasan preloaded (CPython itself is not instrumented)
   and ``PYTHONMALLOC=malloc`` (so that a read past a bytes object is a heap
   overflow ASan sees): the checked-in and the grown corpus are replayed, then
   seeded mutations of them and of the spec's conformance vectors fill the rest
   of the share; every input is checked by ``differential.check`` (native
   against Python, incremental and stream use against one-shot), then the C
   export's sanitized run-tokens (MOD_next) and a driver of MOD_decode
   (tests/fuzz/decode_driver.c: exact-size buffers) read them all in one batch
   each, and must give the Python module's tokens and code points (the C export
   decodes only: it has no encoder to compare).

Exit status 1 on any finding: a difference, a crash, a sanitizer report.  Each
failing input is written to the reports folder with its findings; adding it to
``tests/fuzz/corpus/SPEC/`` makes it a regression test (the corpus replay runs
in the default test suite).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import conftest  # noqa: E402  token_lines, shared with the export tests
import corpus  # noqa: E402
import differential  # noqa: E402

SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS = f"-O1 -g {SANITIZE}"
DEFAULT_SECONDS = 120
MAX_LEN = 1 << 14  # bytes of a generated input (most are far shorter)


# ------------------------------------------------------------- environment
def libasan() -> str | None:
    """gcc's ASan runtime (to preload into an uninstrumented python), or None."""
    cc = os.environ.get("CC", "cc")
    try:
        out = subprocess.run([cc, "-print-file-name=libasan.so"], check=False, capture_output=True, text=True,
                             timeout=60).stdout.strip()
    except OSError:
        return None
    return out if os.path.isabs(out) and os.path.exists(out) else None


def build_env(work: Path) -> dict[str, str]:
    return dict(os.environ, XDG_CACHE_HOME=str(work / "cache"), CFLAGS=CFLAGS, LDFLAGS=SANITIZE)


def fuzz_env(work: Path, asan: str) -> dict[str, str]:
    return dict(build_env(work), LD_PRELOAD=asan, PYTHONMALLOC="malloc",
                ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:allocator_may_return_null=1",
                UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


def copy_spec(spec: str, work: Path) -> Path:
    """The spec copied beside a link to the built-in tables (so it is not the built-in)."""
    from encspec.spec import registry
    source = registry.find(spec)
    folder = work / "specs"
    folder.mkdir(parents=True, exist_ok=True)
    try:   # specs are built two at a time in one work folder: the first makes the link
        (folder / "tables").symlink_to(source.parent / "tables")
    except FileExistsError:
        pass
    target = folder / source.name
    shutil.copyfile(source, target)
    return target


# ------------------------------------------------------------- one spec
def build(spec: str, work: Path) -> None:
    """Compile the sanitized extension (into the temporary cache) and the C export."""
    from encspec import pipeline
    from encspec.emit.native import build as native_build
    from encspec.emit.targets import Unsupported, require
    from encspec.pipeline import export
    from encspec.spec import registry
    a = pipeline.load(str(copy_spec(spec, work)))[1]
    native_build.build(a)
    try:
        require(a, "c")
    except Unsupported:
        return  # the C export refuses it (whatwg-replacement): the two backends are compared alone
    out = work / "c" / spec
    out.parent.mkdir(parents=True, exist_ok=True)
    export(a, "c", out)
    proc = subprocess.run([str(out / "run-tokens"), "--batch"], input=b"", check=False, capture_output=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"{spec}: the C export does not build:\n{proc.stderr.decode(errors='replace')}")
    mod = registry.module_name(a.name)
    driver = out / "decode_driver.c"
    driver.write_text((HERE / "decode_driver.c").read_text("ascii").replace("MOD", mod), "ascii")
    cmd = [os.environ.get("CC", "cc"), "-std=c99", *CFLAGS.split(), "-I", str(out / "include"), "-o",
           str(out / "build" / "decode-driver"), str(driver), str(out / f"{mod}.c")]
    built = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        raise SystemExit(f"{spec}: the decode driver does not build: {' '.join(cmd)}\n{built.stderr}")


def decode_line(module, data: bytes, bits: int, runs: bool = False) -> str:
    """What MOD_decode gives (the driver's line), from the Python module's tokens: a
    char's code points, nothing for the signature or a shift (a spec with modes), the
    replacement for anything else and for a char wider than MOD_cp (a WIDE token),
    counted as errors.  With a run of digits (*runs*, UTF-7) an erroring run also
    writes the code points it read before its error, as the module's decode does: the
    code points are then decode_codepoints's, the errors the error tokens."""
    if runs:
        errors = sum(1 for kind, *_ in module.tokens(data) if kind == "error")
        return " ".join([str(errors)] + [f"{v:X}" for v in module.decode_codepoints(data, "replace")])
    errors, out = 0, list[int]()
    for kind, _, _, value in module.tokens(data):
        values = value if isinstance(value, tuple) else (value,)
        if kind == "char" and all(v < 1 << bits for v in values):
            out += values
        elif kind not in ("signature", "shift"):
            errors += 1
            out.append(0xFFFD)
    return " ".join([str(errors)] + [f"{v:X}" for v in out])


def _c_run(exe: Path, cases: list[bytes]) -> tuple[list[str], str]:
    """The sanitized executable's stdout lines on *cases* (one line of hex each), or an error."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env.update(ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    stdin = "".join(c.hex() + "\n" for c in cases).encode()
    proc = subprocess.run([str(exe), "--batch"], input=stdin, check=False, capture_output=True, timeout=600,
                          env=env)
    if proc.returncode != 0 or proc.stderr.strip():
        return [], f"{exe.name} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-3000:]}"
    return proc.stdout.decode("ascii").splitlines(), ""


def compare_c(spec: str, work: Path, python, cases: list[bytes]) -> list[tuple[bytes, str]]:
    """(case, finding) for each case whose C tokens (run-tokens: MOD_next) or decoded
    code points (MOD_decode) differ from the Python module's."""
    build = work / "c" / spec / "build"
    lines, error = _c_run(build / "tokens", cases)
    if error:
        return [(b"", error)]
    try:
        groups = conftest.end_groups("\n".join(lines), len(cases))
    except AssertionError as e:
        return [(b"", f"C export's tokens: {e}")]
    out = [(c, f"C tokens {got[:6]} but python gives {want[:6]}")
           for c, got in zip(cases, groups) if got != (want := conftest.token_lines(python.tokens(c)))]
    lines, error = _c_run(build / "decode-driver", cases)
    if error or len(lines) != len(cases) + 1:
        return out + [(b"", error or f"decode driver answered {len(lines) - 1} of {len(cases)} inputs")]
    bits = int(lines[0].split()[1])
    from encspec import pipeline
    runs = pipeline.load(spec)[1].digit_run is not None
    out += [(c, f"C decode {got[:200]} but python gives {want[:200]}")
            for c, got in zip(cases, lines[1:]) if got != (want := decode_line(python, c, bits, runs))]
    return out


def mutate(rng: random.Random, pool: list[bytes], alphabet: bytes) -> bytes:
    """A corpus entry or vector, changed one to four times (byte, bit, insert from the
    spec's own bytes, delete, duplicate, splice, truncate, join, repeat a piece up to
    200 times)."""
    data = bytearray(rng.choice(pool))
    for _ in range(rng.randrange(1, 5)):
        k = rng.randrange(len(data) + 1)
        op = rng.randrange(9)
        if op == 0 and data and k < len(data):
            data[k] = rng.randrange(256)
        elif op == 1 and data and k < len(data):
            data[k] ^= 1 << rng.randrange(8)
        elif op == 2:
            data[k:k] = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 5)))
        elif op == 3:
            del data[k:k + rng.randrange(1, 5)]
        elif op == 4:
            data[k:k] = data[k:k + rng.randrange(1, 9)]
        elif op == 5:
            other = rng.choice(pool)
            j = rng.randrange(len(other) + 1)
            data[k:] = other[j:]
        elif op == 6:
            del data[k:]
        elif op == 7 or len(data) >= MAX_LEN // 8:
            data += rng.choice(pool)
        else:  # long inputs cross the native decoder's windows and the validator's blocks
            data[k:k] = data[k:k + rng.randrange(1, 65)] * rng.randrange(2, 200)
    return bytes(data[:MAX_LEN])


def fuzz(spec: str, work: Path, seconds: float, seed: int, report: Path) -> int:
    """Replay the corpus (and what atheris grew), then generate inputs by mutation for
    *seconds*, every input checked by the sanitized extension and, at the end, by the
    sanitized C export; the summary goes to *report*."""
    import encspec
    python = encspec.load(spec, backend="python")
    native = encspec.load(str(copy_spec(spec, work)), backend="native")
    current = report.with_suffix(".current")
    seen: list[bytes] = []
    findings: list[tuple[bytes, str]] = []

    def one(case: bytes) -> None:
        current.write_bytes(case)  # a sanitizer report kills the process: this names the input
        seen.append(case)
        findings.extend((case, f) for f in differential.check(case, native, python))

    replayed = corpus.entries(spec) + corpus.entries_in(work / "grown" / spec)
    for case in replayed:
        one(case)
    pool = replayed + corpus.vector_inputs(spec)
    alphabet = bytes(sorted({b for c in pool for b in c})) or bytes(range(256))
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(findings) < 20:
        one(mutate(rng, pool, alphabet))
    with_c = (work / "c" / spec).is_dir()  # built: the C export takes the spec
    if with_c:
        findings += compare_c(spec, work, python, seen)
    current.unlink(missing_ok=True)
    report.write_text(json.dumps({
        "spec": spec, "replayed": len(replayed), "inputs": len(seen), "c": with_c,
        "findings": [[c.hex(), f] for c, f in findings[:50]]}), "utf-8")
    return 1 if findings else 0


def guided(spec: str, work: Path, seconds: float, artifacts: str) -> None:
    """Coverage-guided generation, no sanitizer: libFuzzer (atheris) instruments the
    pure-Python module's functions and grows a corpus from the checked-in one; each
    input is checked against the installed native extension.  (gcc's libasan defines
    the coverage hooks libFuzzer needs, so the two cannot share a process: the grown
    corpus is replayed under the sanitizers afterwards.)  libFuzzer ends the process."""
    import types

    import atheris

    import encspec
    python = encspec.load(spec, backend="python")
    native = encspec.load(spec, backend="native")
    for value in list(vars(python).values()):
        if isinstance(value, types.FunctionType) and value.__module__ == python.__name__:
            setattr(python, value.__name__, atheris.instrument_func(value))

    def target(case: bytes) -> None:
        found = differential.check(case, native, python)
        if found:
            raise AssertionError("\n".join(found[:10]))

    grown = work / "grown" / spec
    grown.mkdir(parents=True, exist_ok=True)
    atheris.Setup([sys.argv[0], f"-max_total_time={max(1, round(seconds))}", "-max_len=4096",
                   f"-artifact_prefix={artifacts}", str(grown), str(corpus.folder(spec))], target)
    atheris.Fuzz()


def has_atheris() -> bool:
    import importlib.util
    return importlib.util.find_spec("atheris") is not None


# ------------------------------------------------------------- the run
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", help="built-in specs (default: all)")
    parser.add_argument("--seconds", type=float,
                        default=float(os.environ.get("ENCSPEC_FUZZ_SECONDS", DEFAULT_SECONDS)),
                        help="the fuzzing budget in wall seconds, shared by the specs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--reports", type=Path, default=None, help="where failing inputs go")
    parser.add_argument("--stage", choices=["build", "guided", "fuzz"], help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage == "build":
        build(args.specs[0], args.work)
        return 0
    if args.stage == "guided":
        guided(args.specs[0], args.work, args.seconds, str(args.reports))
        return 0
    if args.stage == "fuzz":
        return fuzz(args.specs[0], args.work, args.seconds, args.seed, args.reports)
    # the code pages' stand-ins for them all; the specs with modes too
    specs = args.specs or [s for s in conftest.representative_builtins() if conftest.native_builtin(s)]
    asan = libasan()
    if asan is None:
        print("run.py: gcc's libasan.so not found (cc -print-file-name=libasan.so): install gcc", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    work = Path(tempfile.mkdtemp(prefix="encspec-fuzz-"))
    reports = args.reports or Path(tempfile.mkdtemp(prefix="encspec-fuzz-reports-"))
    reports.mkdir(parents=True, exist_ok=True)
    share = args.seconds * args.jobs / len(specs)
    started = time.monotonic()
    me = [sys.executable, str(Path(__file__).resolve())]

    guided_share = share / 2 if has_atheris() else 0.0

    def one(spec: str) -> tuple[str, dict]:
        report = reports / f"{spec}.json"
        base = ["--work", str(work), "--reports", str(report)]
        proc = subprocess.run(me + [spec, "--stage", "build"] + base, check=False, capture_output=True, text=True,
                              env=build_env(work))
        if proc.returncode != 0:
            return spec, {"error": f"build failed: {proc.stderr[-3000:]}"}
        runs = 0
        if guided_share:
            prefix = str(reports / f"{spec}-")
            proc = subprocess.run(me + [spec, "--stage", "guided", "--seconds", str(guided_share),
                                        "--work", str(work), "--reports", prefix],
                                  check=False, capture_output=True, text=True, env=dict(os.environ, ENCSPEC_SIMD="scalar"))
            done = re.search(r"Done (\d+) runs", proc.stderr)
            if proc.returncode != 0 or done is None:
                return spec, {"error": f"atheris exited {proc.returncode} (inputs: {prefix}*)\n"
                                       f"{proc.stderr[-4000:]}"}
            runs = int(done.group(1))
        proc = subprocess.run(me + [spec, "--stage", "fuzz", "--seconds", str(share - guided_share),
                                    "--seed", str(seed)] + base,
                              check=False, capture_output=True, text=True, env=fuzz_env(work, asan))
        if not report.exists():
            current = report.with_suffix(".current")
            where = f"; the input: {current}" if current.exists() else ""
            return spec, {"error": f"exit {proc.returncode}{where}\n{proc.stderr[-4000:]}"}
        got = json.loads(report.read_text("utf-8"))
        got["guided"] = runs
        if proc.returncode != 0 and not got["findings"]:
            got["error"] = f"exit {proc.returncode}\n{proc.stderr[-4000:]}"
        return spec, got

    failed = total = total_guided = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for spec, got in pool.map(one, specs):
            if "error" in got or got.get("findings"):
                failed += 1
                print(f"FAIL {spec}: {got.get('error', '')}")
                for case, finding in got.get("findings", [])[:10]:
                    print(f"  input {case or '(C batch)'}: {finding}")
            else:
                print(f"ok   {spec}: {got['guided']} inputs coverage-guided (atheris, no sanitizer), "
                      f"{got['inputs']} sanitized ({got['replayed']} replayed): native, python "
                      f"{'and C ' if got.get('c', True) else '(the C export refuses it) '}agree")
                total_guided += got["guided"]
                total += got["inputs"]
    if failed:
        print("keep a failing input as a regression test: python tests/fuzz/corpus.py SPEC HEX-or-FILE")
    print(f"fuzz: {len(specs)} specs, {share:.1f} s each, seed {seed}, {time.monotonic() - started:.0f} s in all; "
          f"{total_guided} coverage-guided and {total} sanitized inputs; {failed} with findings (reports: {reports})")
    shutil.rmtree(work, ignore_errors=True)
    if not failed and args.reports is None:
        shutil.rmtree(reports, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
