"""``encspec diff`` for specs with modes: the two decoders compared mode by mode.

A modal decoder's next token depends on the mode the bytes before it chose, so
the two specs are compared on *pairs* of modes, one of each, that the same bytes
reach: the pair of their first modes (where the data starts), then, from each
pair, every shift of either side (and every character that ends its mode) read
by both sides as whole tokens.  A spec without modes is one mode (its start).

On each pair the table engine (:mod:`encspec.analyse.tablediff`) compares the
first tokens from the two modes' starts, shifts included: a byte sequence that
is a shift in one and anything else in the other (a character, an error, a
shift of another length) is a ``shifts`` pattern.  Which mode a shift enters is
what the pairing follows, so two shifts of one length compare alike there.

The encoders choose modes of their own (``encode-modes``), so they are compared
as whole texts: each code point either can write, alone in a text, with the
shifts before it and the shift home after it (the core's encoder, bound to each
automaton).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..automaton import DEAD, Automaton
from ..runtime.tables import start_after
from ..spec.model import RangeSet
from . import tablediff
from .tables import mode_name, text_bytes

MAX_PAIRS = 256  # pairs of modes followed at most (a note says where more were reachable)


@dataclass
class ModePair:
    """Two modes the same bytes reach, and where their decoders' first tokens differ."""

    a: str
    b: str
    after: bytes  # the shortest bytes from the data's start reaching the pair (b"": the start)
    patterns: dict  # kind -> [TPattern]: only_a, only_b, different, errors, shifts

    @property
    def equivalent(self) -> bool:
        return not any(self.patterns.values())

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "after": self.after.hex(" ").upper(),
                **{k: [p.to_json() for p in v] for k, v in self.patterns.items()}}


@dataclass
class ModalDiff:
    a: str
    b: str
    pairs: list[ModePair] = field(default_factory=list)
    encoder: dict = field(default_factory=dict)  # only_a, only_b, different: EncoderRange lists (whole texts)
    notes: list[str] = field(default_factory=list)

    @property
    def equivalent(self) -> bool:
        return all(p.equivalent for p in self.pairs) and not any(self.encoder.values())

    def to_json(self) -> dict:
        """``diff --json`` for specs with modes: ``modes``, one object per pair of modes
        (``a``, ``b``, ``after``: the bytes reaching it, and the pattern lists of the
        table engine, plus ``shifts``), and ``encoder`` (runs of code points written
        differently alone in a text, shifts included)."""
        return {"a": self.a, "b": self.b, "equivalent": self.equivalent,
                "modes": [p.to_json() for p in self.pairs],
                "encoder": {k: [r.to_json() for r in v] for k, v in self.encoder.items()},
                "notes": list(self.notes)}


def _starts(x: Automaton) -> int:
    return x.modes[0].start if x.modes else 0


def _shift_examples(x: Automaton, start: int) -> list[tuple[bytes, int]]:
    """(data, end) per path from *start* to a token that changes the mode (a shift, or a
    character whose form ends its mode): data[:end] is the path (the first byte of each
    byte class), then a byte on which the automaton stops, where there is one, so the
    path is the whole token."""
    wanted = [False] * x.n_states
    for s in range(x.n_states):
        k = x.accept[s]
        if k is not None:
            act = x.actions[k]
            wanted[s] = act.kind == "shift" or getattr(act, "then", None) is not None
    reps: dict[int, int] = {}
    for byte in range(256):
        reps.setdefault(x.classes[byte], byte)
    # the states from which a wanted state can be reached: the walk visits nothing else
    useful = list(wanted)
    changed = True
    while changed:
        changed = False
        for s in range(x.n_states):
            if not useful[s] and any(0 <= t < x.n_states and useful[t] for t in x.next[s]):
                useful[s] = changed = True
    out: list[tuple[bytes, int]] = []
    seen: set[int] = set()
    todo = deque([(start, b"")])
    while todo:
        s, path = todo.popleft()
        if s in seen:
            continue
        seen.add(s)
        if path and wanted[s]:
            stop = [byte for c, byte in reps.items() if x.next[s][c] == DEAD]
            out.append((path + bytes(stop[:1]), len(path)))
        for c, byte in reps.items():
            t = x.next[s][c]
            if 0 <= t < x.n_states and useful[t] and t not in seen:
                todo.append((t, path + bytes([byte])))
    return out


def _pairs(a: Automaton, b: Automaton, notes: list[str]) -> list[tuple[int, int, bytes]]:
    """The pairs of start states the same bytes reach, each with the bytes that first did."""
    first = (_starts(a), _starts(b))
    found = {first: b""}
    todo = deque([first])
    while todo:
        sa, sb = todo.popleft()
        after = found[(sa, sb)]
        for data, end in _shift_examples(a, sa) + _shift_examples(b, sb):
            na, nb = start_after(a, data, sa, end), start_after(b, data, sb, end)
            if na is None or nb is None or (na, nb) in found:
                continue
            if len(found) >= MAX_PAIRS:
                notes.append(f"more than {MAX_PAIRS} pairs of modes are reachable: the first {MAX_PAIRS} are compared")
                return [(x, y, d) for (x, y), d in found.items()]
            found[(na, nb)] = after + data[:end]
            todo.append((na, nb))
    return [(x, y, d) for (x, y), d in found.items()]


def _encodable(x: Automaton) -> RangeSet:
    """The code points some mode the encoder writes in may hold (a spec without modes:
    one mode, whose pieces are exact)."""
    out = RangeSet()
    for part in [x.modes[k].part for k in x.encode_modes] or [x]:
        for lo, hi, how in tablediff.encoder_pieces(part):
            if not (how[0] == "pt" and how[1] is None):
                out.add(lo, hi)
    return out


def _encoder(a: Automaton, b: Automaton) -> dict:
    """Code points the two encoders write differently alone in a text, as runs: those
    both can write compared one by one, those only one can as whole runs."""
    ea, eb = _encodable(a), _encodable(b)
    cuts = sorted({*ea.los, *eb.los} | {hi + 1 for hi in (*ea.his, *eb.his)})
    out: dict[str, list[tablediff.EncoderRange]] = {"only_a": [], "only_b": [], "different": []}

    def put(kind: str, lo: int, hi: int, ba: bytes | None, bb: bytes | None) -> None:
        runs = out[kind]
        last = runs[-1] if runs else None
        if last is not None and last.last == lo - 1 and _shape(last.a, ba) and _shape(last.b, bb):
            last.last = hi
        else:
            runs.append(tablediff.EncoderRange(lo, hi, kind, ba, bb))

    for lo, nxt in zip(cuts, cuts[1:]):
        in_a, in_b = ea.containing(lo) is not None, eb.containing(lo) is not None
        if in_a != in_b and not (a if in_a else b).modes:  # a spec without modes: its pieces are exact
            got = text_bytes(a if in_a else b, [lo])
            put("only_a" if in_a else "only_b", lo, nxt - 1, got if in_a else None, None if in_a else got)
            continue
        for cp in range(lo, nxt) if in_a or in_b else ():
            ba, bb = text_bytes(a, [cp]), text_bytes(b, [cp])
            if ba != bb:
                put("only_b" if ba is None else "only_a" if bb is None else "different", cp, cp, ba, bb)
    return out


def _shape(x: bytes | None, y: bytes | None) -> bool:
    """Whether two texts' bytes are alike enough to share a run: none, or of one length."""
    return (x is None) == (y is None) and (x is None or y is None or len(x) == len(y))


def modal_diff(a: Automaton, b: Automaton) -> ModalDiff:
    """Compare *a* and *b*, either with modes, on every pair of modes the same bytes reach."""
    out = ModalDiff(a.name, b.name)
    for sa, sb, after in _pairs(a, b, out.notes):
        found = tablediff.walk(a, b, (sa, sb))
        pats = tablediff.patterns(a, b, found, (sa, sb))
        out.pairs.append(ModePair(mode_name(a, sa), mode_name(b, sb), after, pats))
        for note in found.notes:
            if note == "depth" and not any("longer than" in n for n in out.notes):
                out.notes.append(f"sequences longer than {tablediff.MAX_DEPTH} bytes are not followed further")
    out.encoder = _encoder(a, b)
    return out
