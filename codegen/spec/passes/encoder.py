"""The encoder's own entries: each code point given once."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from .draft import Draft, Problem


def encoder_entries(draft: Draft) -> list[Problem]:
    """'encode', 'unencodable' and encode-file lines give a code point at most once."""
    seen: dict[int, Loc] = {}
    for e in draft.encodes:
        if e.code_point in seen:
            return [SpecError(f"U+{e.code_point:04X} is given to the encoder twice (first at line "
                              f"{seen[e.code_point].line})", e.loc)]
        seen[e.code_point] = e.loc
    return []
