"""A run of digits (`digits` and `run`, RFC 2152's base64 in UTF-7): an alphabet of
2**bits bytes, each once, and a run that names it and fits the code unit."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from ..model import DigitRun
from .draft import Draft, stops_at_first_error


def _alphabet(name: str, runs: tuple[tuple[int, int, Loc], ...]) -> bytes:
    """The alphabet's bytes in the order of their values; a byte listed twice is an error."""
    out = bytearray()
    for lo, hi, loc in runs:
        for b in range(lo, hi + 1):
            if b in out:
                raise SpecError(f"byte {b:02X} is listed twice in digits '{name}'", loc)
            out.append(b)
    return bytes(out)


@stops_at_first_error
def digit_runs(draft: Draft) -> None:
    """`run` names the `digits` given, whose count is 2**bits; units of 8, 16 or 32 bits
    wider than a digit; the end byte not a digit; no modes beside it
    (a run is the spec's one shift state); `encode-direct` only with a run."""
    given = draft.values.get("digits")
    run = draft.values.get("run")
    if run is None:
        for keyword in ("digits", "encode-direct"):
            if keyword in draft.values:
                raise SpecError(f"'{keyword}' needs a run of digits ('run NAME: ...')", draft.seen[keyword])
        return
    name, opener, (digits_name, dloc), (bits, bloc), (unit_bits, uloc), end, combine = run
    if given is None or given[0] != digits_name:
        raise SpecError(f"unknown digits '{digits_name}' (list them with 'digits {digits_name} = ...')", dloc)
    alphabet = _alphabet(given[0], given[1])
    if not 1 <= bits <= 8 or len(alphabet) != 1 << bits:
        raise SpecError(f"{bits} bits a digit need 2**{bits} digits; digits '{digits_name}' lists "
                        f"{len(alphabet)}", bloc)
    if unit_bits not in (8, 16, 32) or unit_bits <= bits:
        raise SpecError(f"a unit is 8, 16 or 32 bits, wider than a digit ({unit_bits} given)", uloc)
    if end is not None and end in alphabet:  # the opening byte may be one ("++" opens a run in UTF-7)
        raise SpecError(f"the end byte {end:02X} is also a digit of '{digits_name}'", draft.seen["run"])
    if combine is not None and unit_bits != 16:
        raise SpecError("combine surrogate-pair needs 16-bit units", draft.seen["run"])
    if draft.modes:
        raise SpecError("a run of digits cannot be used with modes yet", draft.seen["run"])
    direct = tuple((r.lo, r.lo if r.hi is None else r.hi) for r in draft.values.get("encode-direct", ()))
    draft.digit_run = DigitRun(str(name), opener, alphabet, bits, unit_bits, end, combine is not None, direct,
                               draft.seen["run"])
