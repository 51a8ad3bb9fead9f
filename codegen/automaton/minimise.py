"""Moore's partition refinement: the one minimiser, for the automaton and for diff.

States start in blocks by label and split until every state of a block goes,
byte class by byte class, to the same blocks.  A transition target outside
``range(n)`` (DEAD, or the entry of a counted form) is a fixed value.
"""
from __future__ import annotations

from typing import Hashable, Sequence


def _renumber(keys: Sequence[Hashable]) -> list[int]:
    ids: dict = {}
    return [ids.setdefault(k, len(ids)) for k in keys]


def moore_blocks(labels: Sequence[Hashable], trans: Sequence[Sequence]) -> list[int]:
    """The block of each state in the coarsest partition that respects *labels* and *trans*;
    blocks are numbered in the order of their first state."""
    n = len(labels)

    def target(t, block):
        return block[t] if isinstance(t, int) and 0 <= t < n else ("fixed", t)

    block = _renumber(labels)
    count = len(set(block))
    while True:
        new = _renumber([(block[s], tuple(target(t, block) for t in trans[s])) for s in range(n)])
        new_count = len(set(new))
        if new_count == count:
            return new
        block, count = new, new_count
