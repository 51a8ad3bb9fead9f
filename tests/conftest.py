"""Shared test helpers: the test data (tests/data), the source documents when
they are beside the checkout, and the native backend's precondition."""
from __future__ import annotations

import functools
import gc
import os
import re
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "tests"))


Input = TypeVar("Input")

SLOW = os.environ.get("ENCSPEC_SLOW", "") not in ("", "0")
"""ENCSPEC_SLOW=1 (CI, .ci/run): the slow tests run, and the sampled ones go exhaustive."""

# Hypothesis budgets: CI's are the tests' own; the default run (a contributor's check
# before a commit) takes a quarter, which still finds what a broken spec or backend
# gets wrong at once, and CI keeps looking for the rare case.
DEFAULT_SHARE = 4
# database=None: hypothesis would otherwise keep failing examples in .hypothesis/ under the
# working directory, and the tests write nothing outside temporary folders.
settings.register_profile("encspec-ci", max_examples=100, database=None)
settings.register_profile("encspec-default", max_examples=100 // DEFAULT_SHARE, database=None)
settings.load_profile("encspec-ci" if SLOW else "encspec-default")


def examples(n: int) -> int:
    """A hypothesis test's budget: *n* examples under ENCSPEC_SLOW=1, a quarter of them
    (at least 10) in the default run."""
    return n if SLOW else max(10, n // DEFAULT_SHARE)


def sample(population: list[Input], k: int, seed: int = 0) -> list[Input]:
    """*population* under ENCSPEC_SLOW=1 (exhaustive); by default *k* of it in a fixed
    random choice, its first and last always included, in their order."""
    if SLOW or len(population) <= k:
        return list(population)
    import random
    picked = set(random.Random(seed).sample(range(1, len(population) - 1), k - 2)) | {0, len(population) - 1}
    return [population[i] for i in sorted(picked)]


def code_points(surrogates: bool = True, *, sampled: bool = not SLOW) -> list[int]:
    """The code points a sweep encodes: U+0000..U+10FFFF under ENCSPEC_SLOW=1; by
    default (or *sampled*) the BMP and every 61st code point above it, U+10FFFF
    included (every row of every built-in spec above the BMP holds one of them)."""
    if sampled:
        cps = [*range(0x10000), *range(0x10000, 0x110000, 61), 0x10FFFF]
    else:
        cps = list(range(0x110000))
    return cps if surrogates else [cp for cp in cps if not 0xD800 <= cp <= 0xDFFF]


def byte_pairs(classes: Sequence[int], extra: int = 2048) -> list[bytes]:
    """The two-byte inputs a sweep decodes: all 65,536 under ENCSPEC_SLOW=1; by default
    every byte before the first and the last byte of each byte class (*classes*: the
    automaton's class of each byte value; bytes of one class take the same transitions
    in every state), the same the other way round, and *extra* more in a fixed random
    choice (their value bits differ)."""
    if SLOW:
        return [bytes([a, b]) for a in range(256) for b in range(256)]
    ends: dict[int, list[int]] = {}
    for b, c in enumerate(classes):
        ends.setdefault(c, []).append(b)
    reps = sorted({bs[0] for bs in ends.values()} | {bs[-1] for bs in ends.values()})
    pairs = {(a, b) for a in range(256) for b in reps} | {(a, b) for a in reps for b in range(256)}
    pairs |= set(sample([(a, b) for a in range(256) for b in range(256)], extra))
    return [bytes(p) for p in sorted(pairs)]


# The single-byte catalogue's stand-ins, one of each shape: ascii (a form, no table: 80..FF
# never decode), latin_1 (one form over every byte), cp1252 (ASCII, then a table with
# holes), iso8859_3 (00..9F as themselves, then a table with holes), koi8_r (ASCII, then a
# full table), cp037 (EBCDIC: one table over every byte), mac_arabic (an encode file: CPython
# writes U+0020 as A0), and WHATWG's windows-1252 where it is built in.
SINGLE_BYTE_STAND_INS = ("ascii", "latin_1", "cp1252", "iso8859_3", "koi8_r", "cp037", "mac_arabic",
                         "whatwg-windows-1252")


@functools.cache
def single_byte_builtins() -> frozenset[str]:
    """The built-ins whose every sequence is one byte: the single-byte catalogue.  Read from
    their generated descriptions (generated/tables/NAME.describe.json: the rows' and table
    forms' lengths), as compiling every spec would cost each test file seconds."""
    import json

    from encspec.spec import registry
    out = set()
    for name in registry.builtin_names():
        path = ROOT / "generated" / "tables" / f"{registry.module_name(name)}.describe.json"
        described = json.loads(path.read_text("utf-8"))["json"]
        lengths = [r["length"] for r in described["rows"]] + [t["length"] for t in described.get("tables", [])]
        if lengths and all(n == 1 for n in lengths):
            out.add(name)
    return frozenset(out)


def has_modes(name: str) -> bool:
    """Whether the built-in spec declares modes (a `mode` statement: ISO-2022, HZ)."""
    import re
    return re.search(r"^mode ", builtin_spec_file(name).read_text("utf-8"), re.M) is not None


def has_sequences(name: str) -> bool:
    """Whether the built-in's encoder writes sequences of code points as one (so that its
    incremental encoder holds back a character that may start one), read from its
    generated description as single_byte_builtins does."""
    import json

    from encspec.spec import registry
    path = ROOT / "generated" / "tables" / f"{registry.module_name(name)}.describe.json"
    return "sequences" in json.loads(path.read_text("utf-8"))["json"]


def native_builtin(name: str) -> bool:
    """Whether the built-in has a native backend: its C extension (generated/native/), or
    CPython's charmap codec for a single-byte spec (a spec with modes too: its loops stop
    before a shift, which the module's _step takes; tests/test_native_modes.py)."""
    from codec_samples import has_extension
    return has_extension(name) or name in single_byte_builtins()


def with_backends(names: Sequence[str], backends: Sequence[str]) -> list[tuple[str, str]]:
    """(name, backend) for each built-in and backend it has: "native" only where
    native_builtin says so."""
    return [(n, b) for n in names for b in backends if b != "native" or native_builtin(n)]


def representative_builtins() -> list[str]:
    """The built-ins a suite that runs per spec runs over: every one but the single-byte
    catalogue's (~100 code pages alike but for their tables, which
    tests/test_cpython_catalogue.py and the WHATWG tests check one by one), plus
    SINGLE_BYTE_STAND_INS, one of each shape.  In registry order."""
    from encspec.spec import registry
    single = single_byte_builtins()
    return [n for n in registry.builtin_names() if n not in single or n in SINGLE_BYTE_STAND_INS]


def extension_builtins() -> list[str]:
    """The representative built-ins that have a C extension of their own (generated/native/
    MODULE.c): suites of the extension's own paths (its validator, its table scans).  A
    single-byte spec has none: CPython's charmap codec is its native backend."""
    from codec_samples import has_extension
    return [n for n in representative_builtins() if has_extension(n)]


def unicode_outcome(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or the Unicode error it raises as (its type's name, start, end, reason):
    comparable with a reference codec's outcome, exceptions included."""
    try:
        return fn(*args)
    except (UnicodeDecodeError, UnicodeEncodeError) as e:
        return (type(e).__name__, e.start, e.end, e.reason)


def builtins_for_exports():
    """The built-in specs the per-spec export and package suites build: every
    representative one without mapping tables, and whatwg-big5 standing for the table
    specs (its tables are the widest, 32-bit, and it has tokens of several code points).
    Every representative table spec's exports are checked in tests/test_export_tables.py,
    batched.  The undecodable spec (whatwg-replacement) has tests of its own: the C and
    Java exports' in tests/test_export_encode_c.py and _java.py, the others' refusal in
    tests/test_whatwg_replacement.py.  A spec with a run of digits (utf-7) has tests of its
    own: the C and JS exports' in tests/test_export_digits.py, the others' refusal in
    tests/test_utf7.py."""
    from encspec import pipeline
    return [n for n in representative_builtins()
            if not pipeline.load(n)[1].tables and not pipeline.load(n)[1].undecodable
            and pipeline.load(n)[1].digit_run is None] + ["whatwg-big5"]


UNDECODABLE_LINE = re.compile(r"^[ \t]*undecodable[ \t]", re.MULTILINE)


def decodable_builtins() -> list[str]:
    """The representative built-ins but those whose decoder reads no form (`undecodable`:
    WHATWG's replacement, where nothing encoded decodes back): the specs of round-trip tests."""
    from encspec.spec import registry
    return [n for n in representative_builtins()
            if not UNDECODABLE_LINE.search(registry.find_builtin(n).read_text("utf-8"))]


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


def token_lines(tokens) -> list[str]:
    """Tokens (kind, start, end, value) as `encspec tokens` and every export's run-tokens
    print them: a char's value in hex, a value of several code points joined by "+"."""
    out = []
    for kind, start, end, value in tokens:
        if kind == "char":
            text = "+".join(f"{v:X}" for v in value) if isinstance(value, tuple) else f"{value:X}"
            out.append(f"char {start} {end} {text}")
        else:
            out.append(f"{kind} {start} {end}")
    return out


def assert_located_in_file(e, path, text: str, line: int, column: int, message: str) -> None:
    """*e* is a TableFileError at line:column of the table file *path* (whose text is *text*)
    with *message*, rendered as ``path:line:column: message``, the line, and a caret under it."""
    from encspec.spec.diagnostics import TableFileError
    assert isinstance(e, TableFileError)
    assert (e.path, e.loc.line, e.loc.column, e.message) == (str(path), line, column, message)
    head, src, caret = e.render().split("\n")
    assert head == f"{path}:{line}:{column}: {message}"
    assert src.strip() == text.split("\n")[line - 1].replace("\t", " ").strip()
    assert caret == " " * (4 + column - 1) + "^"


def feed_stdin(monkeypatch, data: bytes):
    """Make *data* the process's standard input (what ``-`` reads)."""
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def without_bytecode(folder: Path) -> list[Path]:
    """Every path under *folder* except Python's bytecode caches: running a copy of the
    package writes __pycache__ into it unless PYTHONDONTWRITEBYTECODE is set, and a
    test that compares a folder before and after must pass in either environment."""
    return [p for p in folder.rglob("*") if "__pycache__" not in p.relative_to(folder).parts]


def builtin_spec_file(name: str) -> Path:
    """specs/NAME.encspec, or a skip where it is not there yet (a spec being written)."""
    import pytest
    path = ROOT / "specs" / f"{name}.encspec"
    if not path.exists():
        pytest.skip(f"specs/{name}.encspec is not there yet")
    return path


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked slow run only with ENCSPEC_SLOW=1 (CI) or an explicit -m: they are
    deselected, not skipped, so the default run stays short and says how many it left out
    (a skip would be a line each under -ra, and is not what the run did)."""
    if SLOW or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        workeroutput = getattr(config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: its deselections are not reported
            workeroutput["encspec_deselected"] = [item.nodeid for item in slow]


_DESELECTED_ON_WORKERS = pytest.StashKey[list[str]]()


def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist's controller: keep what the workers deselected (each worker collects the
    whole suite, so each deselects the same tests: the first to finish says it)."""
    ids = getattr(node, "workeroutput", {}).get("encspec_deselected")
    if ids is not None:
        node.config.stash.setdefault(_DESELECTED_ON_WORKERS, ids)


@dataclass
class DeselectedOnAWorker:
    """What the summary counts for a test an xdist worker deselected (its node id)."""
    nodeid: str


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Count the workers' deselected tests in the summary line ("N deselected"), which
    pytest-xdist leaves out: with -n 2 the run must say what it left out as without."""
    ids = config.stash.get(_DESELECTED_ON_WORKERS, None)
    if ids and not terminalreporter.stats.get("deselected"):
        terminalreporter.stats["deselected"] = [DeselectedOnAWorker(nodeid) for nodeid in ids]


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


# ------------------------------------------------------------------ linear time


def cpu_time(fn: Callable[[Input], object], arg: Input, loops: int, limit: float) -> tuple[float, float] | None:
    """(CPU seconds, wall seconds) per call of fn(arg) over *loops* calls, the garbage
    collector off as in timeit; None when stopped after *limit* wall seconds (a hang)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        with deadline(limit):
            c0, t0 = time.process_time(), time.perf_counter()
            for _ in range(loops):
                fn(arg)
            return (time.process_time() - c0) / loops, (time.perf_counter() - t0) / loops
    except Hang:
        return None
    finally:
        if enabled:
            gc.enable()


def children_cpu_time() -> float:
    """CPU seconds (user and system) used so far by this process's finished children:
    the difference across a subprocess run is what it cost, however busy the machine."""
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def assert_linear(label: str, fn: Callable[[Input], object], small: Input, large: Input, *,
                  scale: float | None = None, bound: float = 25, small_reps: int = 5, large_reps: int = 3,
                  fast_enough: float = 0.003, min_measure: float = 0.01, small_guard: float = 20.0,
                  large_guard_floor: float = 10.0) -> None:
    """Fail unless fn(large) takes at most *bound* times fn(small) (linear_failure)."""
    why = linear_failure(label, fn, small, large, scale=scale, bound=bound, small_reps=small_reps,
                         large_reps=large_reps, fast_enough=fast_enough, min_measure=min_measure,
                         small_guard=small_guard, large_guard_floor=large_guard_floor)
    if why is not None:
        pytest.fail(why, pytrace=False)


def linear_failure(label: str, fn: Callable[[Input], object], small: Input, large: Input, *,
                   scale: float | None = None, bound: float = 25, small_reps: int = 5, large_reps: int = 3,
                   fast_enough: float = 0.003, min_measure: float = 0.01, small_guard: float = 20.0,
                   large_guard_floor: float = 10.0) -> str | None:
    """None when fn(large) takes at most *bound* times fn(small), *large* being *scale*
    times *small* (by default the ratio of their lengths); else what was measured.

    Every ratio test of the suite measures through here, so that one rule decides them all:

    * CPU time of this process (time.process_time, system time included), never the
      wall clock: on a loaded machine a long run is preempted where a short one is not,
      which alone made wall-clock ratios of 30-50x for plainly linear C loops;
    * a warm-up call, then best of *small_reps* small runs (a short call repeated until
      it takes about *min_measure* seconds) and of *large_reps* large ones;
    * when the bound is exceeded by less than 2x (a busy sibling hyperthread or memory
      bus slows even CPU time by up to 2x), up to three more rounds of a small run and a
      large one back to back, any of which passes within the bound: a quadratic cost at
      16 times the input is 256x, beyond the bound (25x) in every round;
    * a large run faster than *fast_enough* seconds passes whatever the ratio (it then
      measures the allocator, not the algorithm);
    * a small call past *small_guard* wall seconds, or a large one past max(
      *large_guard_floor*, 2 * bound * the small one), is stopped and fails: a hang is a
      failure, not a hang."""
    what = f"{label}, the small input"
    first = cpu_time(fn, small, 1, small_guard)  # warm-up
    if first is None:
        pytest.fail(f"{what}: did not finish in {small_guard:.0f} s (stopped)", pytrace=False)
    loops = max(1, min(1000, int(min_measure / max(first[1], 1e-9))))
    if first[1] >= 0.05:
        small_reps = min(small_reps, 3)  # a small run this long is stable: best of 3 as for large ones

    def measure_small() -> tuple[float, float]:
        t = cpu_time(fn, small, loops, small_guard * loops)
        if t is None:
            pytest.fail(f"{what}: did not finish in {small_guard * loops:.0f} s (stopped)", pytrace=False)
        return t

    smalls = [measure_small() for _ in range(small_reps)]
    if scale is None:
        scale = len(large) / len(small)  # type: ignore[arg-type]
    large_loops = max(1, round(loops / scale))
    limit = max(large_guard_floor, 2 * bound * min(w for _, w in smalls) * large_loops)
    larges: list[tuple[float, float]] = []
    pairs: list[tuple[float, float]] = []  # (small, large) measured back to back, in the extra rounds
    paired = None
    while True:
        t = cpu_time(fn, large, large_loops, limit)
        if t is None:
            small_wall = min(w for _, w in smalls)
            pytest.fail(f"{label}: the large input did not finish in {limit:.1f} s (stopped), the small "
                        f"one took {small_wall * 1e3:.2f} ms: more than {limit / large_loops / small_wall:.0f}x "
                        f"for {scale:.0f}x the input", pytrace=False)
        larges.append(t)
        if paired is not None:
            pairs.append((paired[0], t[0]))
        t_small, t_large = max(min(c for c, _ in smalls), 1e-9), min(c for c, _ in larges)
        if t_large <= bound * t_small or t_large <= fast_enough or any(b <= bound * a for a, b in pairs):
            return None
        if t_large > 2 * bound * t_small or len(larges) >= large_reps + 3:
            break
        if len(larges) >= large_reps:
            # a burst of load elsewhere slows a large run more often than a short small one: go
            # on with a small run and a large one back to back, which see the same conditions
            time.sleep(0.2)
            paired = measure_small()
            smalls.append(paired)
    shown = "".join(f", {b / a:.1f}x" for a, b in pairs)
    return (f"{label}: the large input took {t_large * 1e3:.1f} ms of CPU, the small one "
            f"{t_small * 1e3:.2f} ms: {t_large / t_small:.1f}x for {scale:.0f}x the input (bound {bound:.0f}x; "
            f"best of {len(larges)} and of {len(smalls)}{'; back to back' + shown if pairs else ''}; "
            f"wall clock {min(w for _, w in larges) * 1e3:.1f} and {min(w for _, w in smalls) * 1e3:.2f} ms)")


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


def linear_growth(small: Callable[[], object], large: Callable[[], object], scale: int, *,
                  ratio: float | None = None, fast_enough: float = 0.01) -> str | None:
    """None when large() takes at most *ratio* (2.5 * *scale* by default: a quadratic cost
    takes *scale* times that) times the CPU time of small(); else what was measured.
    linear_failure measures, best of 3 small runs and one large one (a build stage on
    a large spec is long and stable), with its extra rounds when the bound is exceeded
    by less than 2x."""
    bound = ratio if ratio is not None else 2.5 * scale
    return linear_failure(f"{scale} N", lambda run: run(), small, large, scale=scale, bound=bound,
                          small_reps=3, large_reps=1, fast_enough=fast_enough)


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


def spec_with_ranged_patterns(n: int) -> str:
    """UTF-8 with n ill-formed patterns, each F5, two bytes of its own, then 0 to 60
    continuation bytes ({0,60}) and C0: sixty-one byte sequences each."""
    return BIG_SPACE + UTF8_FORMS + "".join(
        f"ill-formed pattern r{i}: F5 {0x80 | i >> 6 & 63:02X} {0x80 | i & 63:02X} 80..BF{{0,60}} C0 "
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


def cut_at(spec: str):
    """Where files of *spec* (a name or a path) may be cut for io.parallel, or None
    (analyse.split.cut_at of its automaton: the data encspec validate hands over)."""
    from encspec.analyse.split import cut_at as find
    from encspec.pipeline import load
    return find(load(spec)[1])


# ------------------------------------------------- equal to one of CPython's codecs

CPYTHON_HANDLERS = ("strict", "replace", "ignore")


def decode_outcome(decode: Callable[[bytes, str], str], data: bytes, errors: str) -> object:
    """decode(data, errors): the str, or ("UnicodeDecodeError", start, end, reason)."""
    try:
        return decode(data, errors)
    except UnicodeDecodeError as e:
        return ("UnicodeDecodeError", e.start, e.end, e.reason)


def decoding_differences(module: Any, codec: str, inputs: Sequence[bytes],
                         handlers: Sequence[str] = CPYTHON_HANDLERS) -> list[tuple[str, str, object, object]]:
    """The first few inputs that *module* decodes otherwise than CPython's *codec* under
    one of *handlers*: (the bytes, the handler, ours, CPython's); [] when all agree."""
    bad: list[tuple[str, str, object, object]] = []
    for data in inputs:
        for errors in handlers:
            want = decode_outcome(lambda d, e: d.decode(codec, e), data, errors)
            got = decode_outcome(module.decode, data, errors)
            if got != want:
                bad.append((data.hex(" ").upper(), errors, got, want))
        if len(bad) > 5:
            break
    return bad


def strict_encode_outcome(encode: Callable[[str], bytes], text: str) -> object:
    """encode(text): the bytes, or ("UnicodeEncodeError", start, end, reason)."""
    try:
        return encode(text)
    except UnicodeEncodeError as e:
        return ("UnicodeEncodeError", e.start, e.end, e.reason)


def encode_sweep(spec: str, module) -> tuple[list, int, int, tuple, tuple]:
    """Every code point of `code_points()` encoded by *module* and by CPython's codec *spec*:
    each BMP one alone between two ASCII letters, strictly, giving (the first differences,
    how many CPython writes, how many it refuses); the rest run together between the two
    letters with a recording error handler, giving CPython's and the module's (bytes, calls)."""
    bad: list = []
    written = refused = 0
    cps = code_points(surrogates=False)
    for cp in (cp for cp in cps if cp < 0x10000):
        text = "a" + chr(cp) + "b"
        want = strict_encode_outcome(lambda t: t.encode(spec), text)
        got = strict_encode_outcome(module.encode, text)
        if got != want:
            bad.append((f"U+{cp:04X}", got, want))
            if len(bad) > 5:
                break
        if isinstance(want, bytes):
            written += 1
        else:
            refused += 1
    text = "a" + "".join(chr(cp) for cp in cps if cp >= 0x10000) + "b"
    return (bad, written, refused, encode_recording_calls(lambda t, e: t.encode(spec, e), text),
            encode_recording_calls(module.encode, text))


class CPythonIncremental:
    """CPython's codec as decode_in_chunks drives a module: its IncrementalDecoder."""

    def __init__(self, codec: str) -> None:
        import codecs
        self.IncrementalDecoder = codecs.getincrementaldecoder(codec)


RECORDING_HANDLER = "encspec-tests.record"
_HANDLER_CALLS: list[tuple[int, int, str]] = []


def _record_encode_error(e: UnicodeError) -> tuple[str, int]:
    assert isinstance(e, UnicodeEncodeError)
    _HANDLER_CALLS.append((e.start, e.end, e.reason))
    return "?", e.end


def encode_recording_calls(encode: Callable[[str, str], bytes], text: str) -> tuple[bytes, list[tuple[int, int, str]]]:
    """encode(text, RECORDING_HANDLER): the bytes, and every call the handler got as (start,
    end, reason); it writes "?" for each.  The same for CPython's encoder and a module's
    shows that both call an error handler alike."""
    import codecs
    codecs.register_error(RECORDING_HANDLER, _record_encode_error)
    _HANDLER_CALLS.clear()
    out = encode(text, RECORDING_HANDLER)
    return out, list(_HANDLER_CALLS)


# --------------------------------------------- exported encoders (issue 28)
# Every export's `run-encode` (docs/pages/exports.md) reads `strict|replace[ sig] HEX HEX ...`
# lines and prints `bytes HEX` (`bytes -` for none) or `error START END REASON`; these build
# the lines, the random texts and the Python module's expected lines, once for all four.
ENCODE_SPECS = ("utf-8", "wtf-8", "cesu-8", "mutf-8", "utf-inf-8", "utf-16", "utf-32", "wtf-16", "utf-ebcdic",
                "cp1252", "big5", "gb18030", "shift_jis", "euc-jp", "big5hkscs", "whatwg-x-user-defined")


def encode_texts(spec: str, n: int, seed: int = 28, longest: int = 12) -> list[list[int]]:
    """*n* seeded random texts for *spec*'s encoder, as code points: mostly code points it
    writes (picked from its description's runs), with unencodable ones, lone and paired
    surrogates, and values past U+10FFFF (to 2**32 - 1) mixed in."""
    import random

    from encspec import pipeline
    from encspec.emit.description import CODE_POINT_LIMIT, encoder
    e = encoder(pipeline.load(spec)[1])
    rng = random.Random(f"{spec}:{seed}")
    runs = [r for r in e.runs if r.kind != "none"] or list(e.runs)
    starters = [cps for cps, _ in e.sequences]
    odd = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFE, 0x10FFFF, 0x110000, CODE_POINT_LIMIT, 0x7FFFFFFF]

    def one() -> list[int]:
        roll = rng.random()
        if roll < 0.6:
            r = rng.choice(runs)
            return [rng.randint(r.first, min(r.last, r.first + 0x3FF))]
        if roll < 0.7 and starters:
            return list(rng.choice(starters))[:rng.randint(1, 3)]
        if roll < 0.8:
            return [rng.choice(odd)]
        if roll < 0.9:
            return [rng.randint(0, 0x10FFFF)]
        return [rng.randint(0xD800, 0xDBFF), rng.randint(0xDC00, 0xDFFF)]

    out = []
    for _ in range(n):
        text: list[int] = []
        for _ in range(rng.randint(0, longest)):
            text += one()
        out.append(text)
    return out


def run_encode_line(mode: str, cps: Sequence[int], signature: bool = False) -> str:
    """The run-encode input line of one case."""
    return " ".join([mode + (" sig" if signature else "")] + [f"{c:X}" for c in cps])


def expected_encode_line(module: Any, mode: str, cps: Sequence[int], signature: bool = False) -> str:
    """What run-encode must print for one case: the Python module's encode of the code points."""
    try:
        got = module.encode(list(cps), mode, signature=signature)
    except UnicodeEncodeError as e:
        if mode != "strict":
            return "error"  # replace's "?" is itself unencodable: any error line will do
        return f"error {e.start} {e.end} {e.reason}"
    return "bytes " + (got.hex().upper() or "-")


def streamed_encode_line(spec: str, pieces: Sequence[Sequence[int]], mode: str) -> str:
    """The Python module's IncrementalEncoder over *pieces*, then final, as an export's
    `run-encode --stream` prints it (an error's positions from the first code point fed)."""
    import encspec
    enc = encspec.load(spec).IncrementalEncoder(mode)
    out, fed = b"", 0
    for k, piece in enumerate([*pieces, []]):
        try:
            out += enc.encode(list(piece), final=k == len(pieces))
        except UnicodeEncodeError as e:
            return f"error {fed + e.start} {fed + e.end} {e.reason}"
        fed += len(piece)
    return "bytes " + (out.hex().upper() or "-")


def stream_cases(spec: str, texts: Sequence[Sequence[int]]) -> tuple[list[str], list[str]]:
    """`run-encode --stream` lines of *texts*, each split in two at every offset (and in
    three twice at random), strict and replace, and the IncrementalEncoder's answers
    (a strict one equal to the one-shot encode's: checked here)."""
    import random

    import encspec
    module = encspec.load(spec)
    rng = random.Random(spec)
    lines, want = [], []
    for cps in texts:
        cuts_list = [(k,) for k in range(len(cps) + 1)] + [tuple(sorted(rng.sample(range(len(cps) + 1), 2)))
                                                           for _ in range(2) if cps]
        for cuts in cuts_list:
            pieces = [cps[a:b] for a, b in zip((0, *cuts), (*cuts, len(cps)))]
            for mode in ("strict", "replace"):
                lines.append(mode + " " + " | ".join(" ".join(f"{c:X}" for c in p) for p in pieces))
                streamed = streamed_encode_line(spec, pieces, mode)
                assert streamed == expected_encode_line(module, mode, cps) or mode == "replace"
                want.append(streamed)
    return lines, want


def _encode_others() -> list[str]:
    """Modes and runs of digits are left out: not every export takes them (the JS and C
    exports' modes: tests/test_export_modes.py; utf-7: tests/test_export_digits.py)."""
    from encspec.spec import registry
    names = set(registry.builtin_names()) - set(ENCODE_SPECS) - {"whatwg-replacement"}
    names = {n for n in names if not has_modes(n) and "\nrun " not in builtin_spec_file(n).read_text("utf-8")}
    return sorted(__import__("random").Random(28).sample(sorted(names), 10))


ENCODE_OTHERS = _encode_others()  # a seeded sample of 10 other built-ins for the export encoders' tests


@functools.cache
def spec_automaton(spec: str):
    """A built-in's automaton, loaded once per test process."""
    from encspec import pipeline
    return pipeline.load(spec)[1]


@functools.cache
def spec_encoder(spec: str):
    """A built-in's encoder description (encspec.emit.description), made once per test process."""
    from encspec.emit.description import encoder
    return encoder(spec_automaton(spec))


def exported_once(tmp_path_factory: pytest.TempPathFactory, lang: str) -> Callable[[str], Path]:
    """get(spec): the built-in *spec* exported to *lang* in a temporary folder, once
    (a module-scoped fixture's value in the export tests)."""
    from encspec import pipeline
    from encspec.spec import registry
    made: dict[str, Path] = {}

    def get(spec: str) -> Path:
        if spec not in made:
            out = tmp_path_factory.mktemp(registry.module_name(spec))
            pipeline.export(spec_automaton(spec), lang, out)
            made[spec] = out
        return made[spec]
    return get


def run_token_batch(cmd: Sequence[str], items: Sequence[bytes], env: dict[str, str] | None = None,
                    timeout: float = 900) -> list[list[str]]:
    """An export's `run-tokens --batch` (or a program speaking its protocol: one input a
    line in hex, each input's token lines then `end`) fed *items*: the token lines of each
    (a non-zero exit fails)."""
    import subprocess
    stdin = "".join(x.hex() + "\n" for x in items).encode("ascii")
    proc = subprocess.run(list(cmd), input=stdin, capture_output=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    return end_groups(proc.stdout.decode("ascii"), len(items))


def end_groups(out: str, count: int | None = None) -> list[list[str]]:
    """The batch protocol's answers: the lines before each `end` (*count*: how many there
    must be); output after the last `end` fails."""
    groups: list[list[str]] = [[]]
    for line in out.splitlines():
        if line == "end":
            groups.append([])
        else:
            groups[-1].append(line)
    tail = groups.pop()
    assert tail == [], f"output after the last `end`: {tail[:5]}"
    assert count is None or len(groups) == count, f"{len(groups)} answers for {count} inputs"
    return groups


def run_encode_lines(folder: Path, lines: list[str], args: Sequence[str], env: dict[str, str],
                     timeout: float = 900) -> list[str]:
    """An export's run-encode fed *lines*: one answer line each (a non-zero exit fails)."""
    import subprocess
    proc = subprocess.run([str(folder / "run-encode"), *args], input="".join(x + "\n" for x in lines),
                          capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout.split("\n")[:-1]
    assert len(out) == len(lines), proc.stderr[-3000:]
    return out


# How many "& @" skips in one escape sequence CPython's ISO-2022 specs spell out
# (specs/tables/cpython/iso2022.py): the JIS X 0208 extension's codecs two, iso2022_jp_2 one.
ISO2022_SKIPS = {"iso2022_jp": 2, "iso2022_jp_1": 2, "iso2022_jp_ext": 2, "iso2022_jp_2": 1, "iso2022_kr": 0,
                 "iso2022_jp_2004": 2, "iso2022_jp_3": 2}


def iso2022_unsaid(data: bytes, codec: str) -> bool:
    """Whether an ESC followed by $ & ( ) . in data starts what the specs cannot say (see
    test_iso2022_escape_without_a_final_within_16_bytes_is_not_said): no @ or A..Z within the
    16 bytes iso2022processesc reads, or more "& @" skips in one sequence than the spec spells
    out; or (iso2022_jp_2) what CPython fails on with a RuntimeError (ESC N with ESC . J in G2)."""
    if codec == "iso2022_jp_2":
        try:
            data.decode(codec, "replace")
        except RuntimeError:
            return True
    skip = ISO2022_SKIPS[codec] > 0
    if skip and re.search(rb"\x1b[$&().][^@A-Z]\x1b\$B", data.replace(b"\x1b&@\x1b$B", b"")):
        return True         # see test_iso2022_six_byte_escape_ending_in_esc_dollar_b_is_not_said
    for p in (k for k, b in enumerate(data) if b == 0x1B and data[k + 1:k + 2] in (b"$", b"&", b"(", b")", b".")):
        i, skips = 1, 0
        while i < 16 and p + i < len(data) and not (0x40 <= data[p + i] <= 0x5A):
            if skip and data[p + i] == 0x26 and p + i + 1 < len(data) and data[p + i + 1] == 0x40:
                i, skips = i + 2, skips + 1
            i += 1
        if (i >= 16 and p + 16 <= len(data)) or skips > ISO2022_SKIPS[codec]:
            return True
    return False
