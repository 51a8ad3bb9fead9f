"""Signatures: each given once, a byte order only for wide units."""
from __future__ import annotations

from ..diagnostics import SpecError
from ..model import Signature
from .draft import Draft, stops_at_first_error


@stops_at_first_error
def signatures(draft: Draft) -> None:
    """Each signature once; a byte order only in a spec of 16- or 32-bit units.
    Resolved into draft.signatures, the first being the one encoders write."""
    sigs = draft.signatures
    for loc, (data, order) in draft.raw_signatures:
        if order is not None and draft.unit == 1:
            raise SpecError("a signature can choose a byte order only in a spec of 16- or 32-bit code units",
                            order[1])
        if any(s.bytes == data for s in sigs):
            raise SpecError(f"signature {data.hex(' ').upper()} is given twice", loc)
        sigs.append(Signature(data, order[0] if order else None, loc))

