"""Claims name properties the analyses know."""
from __future__ import annotations

from ..diagnostics import SpecError
from ..model import PROPERTIES
from .draft import Draft, Problem


def claims(draft: Draft) -> list[Problem]:
    """Each claimed property is one the analyses can check."""
    for c in draft.claims:
        if c.name not in PROPERTIES:
            return [SpecError(f"unknown property '{c.name}' (known: {', '.join(PROPERTIES)})", c.loc)]
    return []
