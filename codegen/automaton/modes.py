"""Modes: one automaton of several start states, a part per mode (ISO-2022, HZ).

Each mode is compiled as a spec of its own (the forms, patterns, shifts and
encoder entries of its section, and those before any section), and the parts'
tables are laid one after another, as the byte orders' are: a mode is a start
state, and a shift token names the mode the next token starts in.  Where a
shift right after a shift is an error (WHATWG's ISO-2022-JP "output" flag), each
mode has a twin part, entered by a shift, whose shifts are such errors: the
flag is a mode too, so the scanner's state stays one int.
"""
from __future__ import annotations

import heapq
from dataclasses import replace

from ..spec.model import Spec, evaluate


def mode_spec(spec: Spec, name: str, twin: bool) -> Spec:
    """The spec of mode *name* alone: its section and what every mode shares; in the
    *twin* (after a shift) its shifts are errors with the spec's reason."""
    def shifted(p):
        return replace(p, reason=spec.shift_after_shift or "") if twin and p.shift else p

    return replace(spec, forms=tuple(f for f in spec.forms if f.mode in (None, name)),
                   patterns=tuple(shifted(p) for p in spec.patterns if p.mode in (None, name)),
                   encodes=tuple(e for e in spec.encodes if e.mode == name), modes=(), encode_modes=(),
                   sticky=False, shift_after_shift=None)


def shift_paths(spec: Spec) -> tuple[tuple[bytes | None, ...], ...]:
    """Per mode, the shortest shift bytes into every mode (Dijkstra by length; between
    paths of one length, the one whose shifts come first in the spec): what the encoder
    writes to change mode."""
    names = spec.modes
    edges: list[list[tuple[int, bytes, int]]] = [[] for _ in names]
    for order, p in enumerate(spec.patterns):
        if p.shift is None:
            continue
        data = bytes(i.digits.runs[0][0] for i in p.items if i.digits is not None
                     for _ in range(evaluate(i.count, {})))
        for k, name in enumerate(names):
            if p.mode in (None, name):
                edges[k].append((names.index(p.shift), data, order))
    out = []
    for k in range(len(names)):
        best: list[bytes | None] = [None] * len(names)
        heap: list[tuple[int, tuple[int, ...], int, bytes]] = [(0, (), k, b"")]
        while heap:
            _, orders, m, path = heapq.heappop(heap)
            if best[m] is not None:
                continue
            best[m] = path
            for target, data, order in edges[m]:
                if best[target] is None:
                    heapq.heappush(heap, (len(path) + len(data), orders + (order,), target, path + data))
        out.append(tuple(best))
    return tuple(out)

