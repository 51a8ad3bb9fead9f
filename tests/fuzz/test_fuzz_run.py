"""run.py, the sanitized time-budgeted fuzz run that .ci/run calls: a short run of one
spec ends clean and says what it covered, and the sanitizer runtime it preloads does
report a memory error (so a clean run means something).  Slow: it compiles the
extension and the C export with the sanitizers."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import encspec
import run  # tests/fuzz/run.py (pytest puts this folder on sys.path)
import tools

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.slow


def _libasan() -> str:
    found = run.libasan()
    if found is None:
        tools.missing("gcc's libasan.so not found (cc -print-file-name=libasan.so); it is in Debian's gcc package")
    assert found is not None  # missing() skipped or failed the test
    return found


def test_a_short_run_ends_clean_and_counts_its_inputs(tmp_path):
    _libasan()
    proc = subprocess.run([sys.executable, str(HERE / "run.py"), "utf-8", "--seconds", "6",
                           "--reports", str(tmp_path)], check=False, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("ok   utf-8:"))
    counted = re.search(r"(\d+) sanitized", line)
    assert counted is not None, line
    sanitized = int(counted.group(1))
    assert sanitized > len(run.corpus.entries("utf-8")), line
    assert "0 with findings" in proc.stdout


def test_the_preloaded_sanitizer_reports_a_use_after_free(tmp_path):
    """The environment the fuzz stage runs in turns a memory error into a report and a failure."""
    env = run.fuzz_env(tmp_path, _libasan())
    code = ("import ctypes; libc = ctypes.CDLL(None); libc.malloc.restype = ctypes.c_void_p; "
            "p = libc.malloc(16); libc.free(ctypes.c_void_p(p)); ctypes.string_at(p, 8)")
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode != 0
    assert "ERROR: AddressSanitizer: heap-use-after-free" in proc.stderr, proc.stderr[-2000:]


def test_the_c_comparison_reports_a_difference(tmp_path, monkeypatch):
    """compare_c (run-tokens and the MOD_decode driver against the Python module) is clean
    on the real module and names both a token and a decoding that differ."""
    tools.need(lambda: tools.find("cc", hint="it is in Debian's gcc package"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # build() compiles the extension too
    run.build("utf-8", tmp_path)
    python = encspec.load("utf-8", backend="python")
    cases = [b"", b"A\xFF", b"\xE2\x82\xAC\xE2\x82", b"\xF0\x9F\x98\x80"]
    assert run.compare_c("utf-8", tmp_path, python, cases) == []

    class OffByOne:
        @staticmethod
        def tokens(data):
            return [(k, s, e, v + 1 if k == "char" else v) for k, s, e, v in python.tokens(data)]
    found = run.compare_c("utf-8", tmp_path, OffByOne, cases)
    assert any(c == b"A\xFF" and f.startswith("C tokens") for c, f in found), found
    assert any(c == b"A\xFF" and f.startswith("C decode 1 41 FFFD") for c, f in found), found
