"""Where a file of an encoding may be cut, so that its chunks validate in parallel.

A file is cut only for a self-synchronizing encoding, at a *sync byte*: a byte
that can start a sequence (a live transition from state 0) and never continues
one (no live transition from any other state, no digit of a counted form).  The
sequential scan always starts a token at such a byte, so a chunk starting there
scans as the whole file does (``encspec.io.parallel`` explains the one token it
re-scans across each cut).  This is an analysis of the automaton: the caller
(``encspec validate``) computes it and hands ``io.parallel`` the result, data.
"""
from __future__ import annotations

import re

from ..automaton import DEAD, Automaton
from .properties import check

# (the sync bytes as a one-byte-class pattern, the signature a first cut must not split)
CutAt = tuple[re.Pattern[bytes], bytes]


def sync_bytes(automaton: Automaton) -> frozenset[int]:
    """Bytes that can start a sequence and never continue one (see the module docstring)."""
    cls = automaton.classes
    start = {b for b in range(256) if automaton.next[0][cls[b]] != DEAD}
    inner: set[int] = set()
    for s in range(1, automaton.n_states):
        row = automaton.next[s]
        inner.update(b for b in range(256) if row[cls[b]] != DEAD)
    for ext in automaton.extensions:
        for item in ext.items:
            for lo, hi in item.runs:
                inner.update(range(lo, hi + 1))
    return frozenset(start - inner)


def cut_at(automaton: Automaton) -> CutAt | None:
    """``(sync byte pattern, signature)`` if files of *automaton*'s encoding may be cut, else None
    (not self-synchronizing, no sync byte at all, code units wider than a byte, or modes)."""
    if automaton.unit > 1 or len(automaton.starts) > 1:
        return None  # a sync byte need not begin a code unit, and a signature may choose the byte order
    if automaton.modes:
        return None  # what a byte means depends on the shifts before it: a chunk cannot start alone
    if automaton.error_span != "maximal-subpart":
        # A chunk's last token may be cut by the chunk's end, and stitch() re-scans only that
        # token.  With maximal subparts an unfinished sequence is one error either way (to the
        # end, or up to the byte that kills it); with one-unit or through-failing-byte errors the
        # data's end makes one error of what the next byte would split into several tokens
        # (gb18030's 81 30 81 then 0A: one error of 3 bytes at a cut, four tokens in the file).
        return None
    if not check(automaton, ["self_synchronizing"]).properties["self_synchronizing"]:
        return None
    sync = sync_bytes(automaton)
    if not sync:
        return None
    pattern = re.compile(b"[" + b"".join(re.escape(bytes([b])) for b in sorted(sync)) + b"]")
    return pattern, automaton.signature
