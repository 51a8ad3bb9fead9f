"""The code unit (8, 16 or 32 bits, a byte order) and what only a spec of bytes can say."""
from __future__ import annotations

from typing import Any

from ..diagnostics import SpecError
from ..index_files import read_permutation_file
from .draft import Draft, Problem, stops_at_first_error

UNIT_BITS = (8, 16, 32)


def unit_of(payload: Any) -> tuple[int, str]:
    """(bytes per unit, byte order) of a 'code-unit BITS [ORDER]' statement (none: bytes)."""
    if payload is None:
        return 1, "big"
    bits, loc, order, oloc = payload
    if bits not in UNIT_BITS:
        raise SpecError(f"a code unit has 8, 16 or 32 bits, not {bits}", loc)
    if bits == 8 and order is not None:
        raise SpecError("a code unit of 8 bits has no byte order: remove it", oloc)
    if bits > 8 and order is None:
        raise SpecError(f"{bits}-bit code units need a byte order: 'code-unit {bits} big-endian' or "
                        f"'code-unit {bits} little-endian'", loc)
    return bits // 8, order or "big"


@stops_at_first_error
def code_unit(draft: Draft) -> None:
    """The code unit's width and byte order, resolved into draft.unit and draft.byte_order;
    a reason for a truncated unit needs units wider than a byte."""
    draft.unit, draft.byte_order = unit_of(draft.values.get("code-unit"))
    if draft.unit == 1 and "truncated-unit" in draft.reasons:
        raise SpecError("'reason truncated-unit' needs code units wider than a byte ('code-unit 16' or 32)",
                        next(loc for kind, loc, p in draft.statements if kind == "reason" and p[0] == "truncated-unit"))


@stops_at_first_error
def permutation(draft: Draft) -> None:
    """``bytes through FILE``: read and checked to be a permutation of 00..FF (the file's
    own mistakes located in it), into draft.permutation; only for a spec of bytes
    without a signature."""
    payload, loc = draft.values.get("bytes-through"), draft.seen.get("bytes-through")
    if payload is None or loc is None:
        return
    if draft.unit > 1:
        raise SpecError("'bytes through' needs a spec of bytes (no 'code-unit' wider than 8)", loc)
    if draft.signatures:
        raise SpecError("a 'signature' cannot go with 'bytes through' (not supported yet)", draft.signatures[0].loc)
    written, wloc = payload
    draft.permutation = read_permutation_file(draft.path, written, wloc)


def error_span(draft: Draft) -> list[Problem]:
    """'restore' goes with through-failing-byte; a span other than maximal subparts needs bytes."""
    span, restore, span_loc = draft.values.get("error-span", ("maximal-subpart", (), None))
    if restore and span != "through-failing-byte":
        return [SpecError("'restore' goes with 'error-span through-failing-byte' (the other spans never take "
                          "the failing byte)", span_loc)]
    if span != "maximal-subpart" and draft.unit > 1:
        return [SpecError(f"'error-span {span}' needs a spec of bytes", span_loc)]
    return []


def reserved(draft: Draft) -> list[Problem]:
    """Reserved lead bytes are bytes."""
    if draft.values.get("reserved") and draft.unit > 1:
        return [SpecError("reserved lead bytes need a spec of bytes (no 'code-unit' wider than 8)",
                          draft.seen["reserved"])]
    return []
