"""The encoder's own entries: each code point given once."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from .draft import Draft, Problem


def encoder_entries(draft: Draft) -> list[Problem]:
    """'encode', 'unencodable' and encode-file lines give a code point at most once."""
    seen: dict[tuple[str | None, int | tuple[int, ...]], Loc] = {}
    for e in draft.encodes:
        key = (e.mode, e.code_point)
        if key in seen:
            shown = " ".join(f"U+{c:04X}" for c in (e.code_point if isinstance(e.code_point, tuple)
                                                     else (e.code_point,)))
            return [SpecError(f"{shown} is given to the encoder twice (first at line "
                              f"{seen[key].line})", e.loc)]
        seen[key] = e.loc
    return []
