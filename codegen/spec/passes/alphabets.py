"""An alphabet's byte runs: each byte once, in increasing order."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from ..model import DigitSet


def run_text(lo: int, hi: int) -> str:
    return f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}"


def alphabet(name: str, runs: tuple[tuple[int, int, Loc], ...]) -> DigitSet:
    """The digit set of ``alphabet NAME = runs``: byte runs listed once each, in increasing order.

    A byte's digit is its place in the list, so a run listed before a lower one
    would number the alphabet out of byte order, which no exporter can express.
    """
    for k, (lo, hi, loc) in enumerate(runs):
        for a, b, _ in runs[:k]:
            if lo <= b and a <= hi:
                raise SpecError(f"byte run {run_text(lo, hi)} overlaps {run_text(a, b)} in alphabet '{name}': "
                                "list each byte once", loc)
        if k and lo < runs[k - 1][0]:
            fixed = ", ".join(run_text(a, b) for a, b, _ in sorted(runs))
            raise SpecError(f"byte run {run_text(lo, hi)} comes after {run_text(*runs[k - 1][:2])} in alphabet "
                            f"'{name}': list the runs in increasing byte order (alphabet {name} = {fixed})", loc)
    return DigitSet(tuple((lo, hi) for lo, hi, _ in runs))
