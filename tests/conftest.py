"""Shared test helpers: the test data (tests/data), the source documents when
they are beside the checkout, and the native backend's precondition."""
from __future__ import annotations

import os
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


def without_bytecode(folder: Path) -> list[Path]:
    """Every path under *folder* except Python's bytecode caches: running a copy of the
    package writes __pycache__ into it unless PYTHONDONTWRITEBYTECODE is set, and a
    test that compares a folder before and after must pass in either environment."""
    return [p for p in folder.rglob("*") if "__pycache__" not in p.relative_to(folder).parts]


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
