"""Shared test helpers: the test data (tests/data), the source documents when
they are beside the checkout, and the native backend's precondition."""
from __future__ import annotations

import os
import shutil
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "tests"))


def builtins_for_exports():
    """The built-in specs the per-spec export and package suites build: every spec
    without mapping tables, and whatwg-big5 standing for the table specs (its tables
    are the widest, 32-bit, and it has tokens of several code points).  Every table
    spec's exports are checked in tests/test_export_tables.py, batched."""
    from encspec import pipeline
    from encspec.spec import registry
    return [n for n in registry.builtin_names() if not pipeline.load(n)[1].tables] + ["whatwg-big5"]


def shared_dir():
    """../shared beside the checkout (CI clones main with shared/ beside it), or None."""
    env = os.environ.get("ENCSPEC_SHARED")
    for candidate in ([Path(env)] if env else []) + [ROOT.parent / "shared", ROOT / "shared"]:
        if (candidate / "seeds").is_dir():
            return candidate
    return None


def run_cli(cap, *argv):
    """(exit code, stdout, stderr) of ``encspec ARGV`` run in this process (capsys or capfd)."""
    from encspec.cli import main
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:
        rc = e.code
    out = cap.readouterr()
    return rc, out.out, out.err


def feed_stdin(monkeypatch, data: bytes):
    """Make *data* the process's standard input (what ``-`` reads)."""
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def excerpt(name: str) -> str:
    """A seed excerpt from tests/data without its '# ' source note."""
    lines = (DATA / name).read_text("utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("# "))


@pytest.fixture(scope="session")
def shared() -> Path:
    """The shared/ folder, for cross-checks only; skipped (with the reason) when absent."""
    found = shared_dir()
    if found is None:
        pytest.skip("../shared (the source documents) is not beside the checkout; "
                    "the same facts are checked from tests/data")
    return found


@pytest.fixture(scope="session")
def corpora() -> Path:
    """Markus Kuhn's stress test and its cases (tests/data, copied from shared/corpora)."""
    return DATA


@pytest.fixture(autouse=True)
def _native_backend_needs_its_extension(request):
    """A test parametrized with backend="native" needs the compiled extension (a C
    compiler at `pip install`): without it the test is skipped saying so, or fails
    under ENCSPEC_REQUIRE_TOOLS=1."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("backend") == "native":
        from codec_samples import native_extension_missing
        why = native_extension_missing("utf-8")
        if why is not None:
            import tools
            tools.missing(why)


def pytest_collection_modifyitems(config, items):
    """Tests marked slow run only with ENCSPEC_SLOW=1 (CI) or an explicit -m: they are
    deselected, not skipped, so the default run stays short and says how many it left out."""
    if os.environ.get("ENCSPEC_SLOW", "") not in ("", "0") or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


class Hang(BaseException):
    """A guarded block ran past its deadline (BaseException: nothing under test swallows it)."""


@contextmanager
def deadline(seconds):
    """Raise Hang in this (the main) thread after *seconds*, so that a hang fails the
    test instead of the run (where there is no SIGALRM, a hang is a hang)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum, frame):
        raise Hang(f"did not return within {seconds} s")
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def decode_in_chunks(module, data: bytes, errors: str, size: int):
    """The text *module*'s IncrementalDecoder makes of *data* fed *size* bytes at a time,
    or (start, end, reason, text so far) of the UnicodeDecodeError it raises."""
    dec = module.IncrementalDecoder(errors)
    out = []
    try:
        for k in range(0, len(data), size):
            out.append(dec.decode(data[k:k + size]))
        out.append(dec.decode(b"", True))
        return "".join(out)
    except UnicodeDecodeError as e:
        return (e.start, e.end, e.reason, "".join(out))


def encspec_command() -> list[str]:
    """The installed ``encspec`` command: the one beside this Python (a venv's, even when
    the venv is not activated, as the README's test command runs it), else PATH's."""
    beside = Path(sys.executable).with_name("encspec")
    found = str(beside) if beside.exists() else shutil.which("encspec")
    assert found, "the encspec command is not installed (pip install -e .)"
    return [found]


def best_cpu_time(fn, repeat: int = 3, inner: int = 1) -> float:
    """The least CPU time of this process (time.process_time) per call of *fn*, over
    *repeat* runs of *inner* calls, garbage collected before each run and the collector
    off during it: CPU time, so that the other processes of a loaded machine do not count."""
    import gc
    import time
    enabled = gc.isenabled()
    best = float("inf")
    try:
        for _ in range(repeat):
            gc.collect()
            gc.disable()
            start = time.process_time()
            for _ in range(inner):
                fn()
            best = min(best, time.process_time() - start)
            gc.enable()
    finally:
        if enabled:
            gc.enable()
    return best / inner


def linear_growth(small, large, scale: int, *, ratio: float | None = None,
                  fast_enough: float = 0.01, retries: int = 2) -> str | None:
    """None when large() takes at most *ratio* (2.5 * *scale* by default: a quadratic cost
    takes *scale* times that) times the CPU time of small(), best of 3 small runs and one
    large run, retried *retries* times while the bound is exceeded by less than 2x (noise
    can do that, a quadratic cost is beyond it every time); else what was measured.
    A large run faster than *fast_enough* seconds passes: it measures noise, not the algorithm."""
    bound = ratio if ratio is not None else 2.5 * scale
    t_small, t_large = best_cpu_time(small), best_cpu_time(large, repeat=1)
    for _ in range(retries):
        if t_large <= bound * t_small or t_large <= fast_enough or t_large > 2 * bound * t_small:
            break
        t_small = min(t_small, best_cpu_time(small, repeat=1))
        t_large = min(t_large, best_cpu_time(large, repeat=1))
    if t_large <= bound * t_small or t_large <= fast_enough:
        return None
    return (f"{t_small * 1e3:.1f} ms of CPU at N, {t_large * 1e3:.1f} ms at {scale} N: "
            f"{t_large / max(t_small, 1e-9):.1f}x (bound {bound:.0f}x)")


# ------------------------------------------- generated specs that grow with n (ratio tests)
BIG_SPACE = "encoding big\ncode-space U+0000..U+10FFFF\n"
UTF8_FORMS = ("form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx min U+0080\n"
              "form 3: 1110xxxx 10xxxxxx{2} min U+0800\nform 4: 11110xxx 10xxxxxx{3} min U+10000\n")


def spec_with_holes(n: int, forms: str = UTF8_FORMS) -> str:
    """UTF-8 with n one-code-point holes, one in every 257 code points of the 4-byte range."""
    return BIG_SPACE + "".join(f"ill-formed U+{0x10000 + 257 * i:04X}\n" for i in range(n)) + forms


def spec_with_skips(n: int) -> str:
    """Packed UTF-8-like forms with n skipped code points in the 3-byte range."""
    return (BIG_SPACE + "numbering packed\n" + "".join(f"skip U+{0x1000 + 2 * i:04X}\n" for i in range(n))
            + "form 1: 00..7F\nform 2: C2..DF 80..BF\nform 3: E0..EF 80..BF 80..BF\n"
              "form 4: F0..F4 80..BF 80..BF 80..BF\n")


# 256 two-byte special sequences FE 00..FE FF: every byte a byte class of its own, so that
# the automaton's tables (states x byte classes, at most 256) are as wide at N as at 8 N and
# a ratio measures the growth in states, which is the spec's
EVERY_BYTE_A_CLASS = "".join(f"form s{b}: FE {b:02X} = U+{0xF0000 + b:05X}\n" for b in range(256))


def spec_with_literals(n: int, every_byte_a_class: bool = False) -> str:
    """n special sequences of three fixed bytes (after EVERY_BYTE_A_CLASS if asked)."""
    return BIG_SPACE + "form 1: 0xxxxxxx\n" + EVERY_BYTE_A_CLASS * every_byte_a_class + "".join(
        f"form l{i}: {0x80 + (i >> 8):02X} {i & 0xFF:02X} 80 = U+{0x1000 + i:04X}\n" for i in range(n))


def spec_with_forms(n: int, every_byte_a_class: bool = False) -> str:
    """n three-byte forms of 64 code points each (after EVERY_BYTE_A_CLASS if asked)."""
    return BIG_SPACE + "form 1: 0xxxxxxx\n" + EVERY_BYTE_A_CLASS * every_byte_a_class + "".join(
        f"form f{i}: {0x80 + (i >> 8):02X} {i & 0xFF:02X} 80..BF at U+{0x10000 + 64 * i:04X}\n" for i in range(n))


def spec_with_patterns(n: int) -> str:
    """UTF-8 with n ill-formed patterns, each one 4-byte sequence of U+40000 and above."""
    return BIG_SPACE + UTF8_FORMS + "".join(
        f"ill-formed pattern p{i}: F1 {0x80 | i >> 12 & 63:02X} {0x80 | i >> 6 & 63:02X} {0x80 | i & 63:02X} "
        f'"pattern {i}"\n' for i in range(n))


def spec_with_alphabets(n: int, every_byte_a_class: bool = False) -> str:
    """n one-byte alphabets, each the middle byte of a three-byte form of its own (after
    EVERY_BYTE_A_CLASS if asked)."""
    return BIG_SPACE + "form 1: 0xxxxxxx\n" + EVERY_BYTE_A_CLASS * every_byte_a_class + "".join(
        f"alphabet a{i} = {i & 0xFF:02X}\nform f{i}: {0x80 + (i >> 8):02X} a{i} 80..BF at U+{0x10000 + 64 * i:04X}\n"
        for i in range(n))


def spec_with_signature(n: int) -> str:
    """UTF-8 with an n-byte signature (real ones have 2 to 8)."""
    return BIG_SPACE + "signature " + " ".join(["EF"] * n) + "\n" + UTF8_FORMS


def spec_with_table(folder: Path, n: int, comments: int = 0) -> Path:
    """A spec in *folder* whose form 80..FF 00..FF 00..FF looks its pointer up in a
    table file of n entries (pointer p to U+10000 + p), after *comments* comment lines."""
    with open(folder / "t.txt", "w", encoding="utf-8") as f:
        f.writelines("# a comment line that the reader must not keep\n" for _ in range(comments))
        f.writelines(f"{p}\t0x{0x10000 + p:04X}\n" for p in range(n))
    path = folder / "table.encspec"
    path.write_text(BIG_SPACE + 'table t "t.txt"\nalphabet b = 00..FF\nform 1: 00..7F\n'
                    "form x: 80..FF b b table t\n", encoding="utf-8")
    return path
