"""Partition refinement: the one minimiser, for the automaton and for diff.

The result is Moore's: the coarsest partition of the states in which states of
a block have the same label and go, symbol by symbol, to the same blocks.  A
transition target outside ``range(n)`` (DEAD, or the entry of a counted form)
is a fixed value, compared as itself.  It is computed with Hopcroft's algorithm
("process the smaller half") over the transitions that exist, O(m log n) for m
transitions, so a long chain of alike states (``10xxxxxx{64}``) costs one pass,
not one round per state as Moore's rounds would, and a sparse automaton costs
its transitions, not states times symbols.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence

STATE = "state"  # in a label: this symbol leads to a state (which one is for the refinement)


def _renumber(keys: Sequence[Hashable]) -> list[int]:
    ids: dict = {}
    return [ids.setdefault(k, len(ids)) for k in keys]


def moore_blocks(labels: Sequence[Hashable], trans: Sequence[Sequence]) -> list[int]:
    """The block of each state in the coarsest partition that respects *labels* and *trans*;
    blocks are numbered in the order of their first state."""
    n = len(labels)

    def internal(t) -> bool:
        return type(t) is int and 0 <= t < n

    full = [(labels[s], tuple(STATE if internal(t) else ("fixed", t) for t in trans[s])) for s in range(n)]
    edges = [[(c, t) for c, t in enumerate(row) if internal(t)] for row in trans]
    return refine(full, edges)


def refine(labels: Sequence[Hashable], edges: Sequence[Sequence[tuple[Hashable, int]]]) -> list[int]:
    """The coarsest partition of states 0 .. n-1 that respects *labels* and in
    which states of a block go, symbol by symbol, to the same blocks; blocks
    numbered in the order of their first state.

    *edges* lists each state's transitions to states as (symbol, target), at
    most one per symbol; the labels must already tell apart states that differ
    in which symbols have such a transition (and in anything else about a
    symbol, such as a fixed target)."""
    n = len(labels)
    if n == 0:
        return []
    block = _renumber(labels)
    members: list[set] = [set() for _ in range(max(block) + 1)]
    for s, b in enumerate(block):
        members[b].add(s)
    into: list[list] = [[] for _ in range(n)]  # state -> its incoming transitions, as (symbol, source)
    for s, out in enumerate(edges):
        for c, t in out:
            into[t].append((c, s))
    # Blocks wait to split others by every symbol at once (a block waits for all
    # symbols or none).  The whole set counts as processed (the labels already
    # separate states by which symbols lead to a state), so every initial block
    # but the largest is a splitter.
    largest = max(range(len(members)), key=lambda b: len(members[b]))
    stack = [b for b in range(len(members)) if b != largest]
    waiting = set(stack)
    while stack:
        splitter = stack.pop()
        waiting.discard(splitter)
        by_symbol: dict = {}  # symbol -> the states with that transition into the splitter
        for t in members[splitter]:
            for c, s in into[t]:
                by_symbol.setdefault(c, []).append(s)
        for sources in by_symbol.values():
            touched: dict = {}  # block -> its states among the sources
            for s in sources:
                touched.setdefault(block[s], []).append(s)
            for b, hit in touched.items():
                whole = members[b]
                if len(hit) == len(whole):
                    continue
                hit_set = set(hit)
                if 2 * len(hit_set) <= len(whole):  # the new block is the smaller part, found in O(its size)
                    new = hit_set
                    whole.difference_update(hit_set)
                else:
                    new = whole - hit_set
                    members[b] = hit_set
                nb = len(members)
                members.append(new)
                for s in new:
                    block[s] = nb
                # if b still waits both parts must; else the smaller part is enough:
                # either way the new block
                waiting.add(nb)
                stack.append(nb)
    return _renumber(block)
