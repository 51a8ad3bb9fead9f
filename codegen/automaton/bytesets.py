"""Byte sets as a reader writes them: runs (80..BF) rather than lists of values."""
from __future__ import annotations


def byte_runs(byte_set) -> list[tuple[int, int]]:
    """{0x80, …, 0xBF, 0xC2} → [(0x80, 0xBF), (0xC2, 0xC2)]."""
    runs: list[list[int]] = []
    for b in sorted(byte_set):
        if runs and runs[-1][1] == b - 1:
            runs[-1][1] = b
        else:
            runs.append([b, b])
    return [(lo, hi) for lo, hi in runs]


def runs_text(byte_set, sep: str = ", ") -> str:
    """{0x80, …, 0xBF, 0xC2} → '80..BF, C2'."""
    return sep.join(f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}" for lo, hi in byte_runs(byte_set))
