"""The model: what a spec says, as immutable data, before any automaton exists.

Every object keeps the :class:`Loc` it came from so that later passes can point
at the spec line that caused a problem.  Terms follow the source documents:
a *form* is one shape of byte sequence (lead byte plus continuation bytes), its
*raw value* is the mixed-radix number its byte positions spell, and a *mapping*
turns raw values into code points (direct, or packed with derived offsets).
"""
from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

from .diagnostics import Loc, SpecWarning

# ---------------------------------------------------------------- expressions
# Repetition counts and ranges are expressions: see expr.py.
from .expr import Expr, Int, const, evaluate, is_const, variables  # noqa: F401


# ------------------------------------------------------------------ positions
@dataclass(frozen=True)
class DigitSet:
    """An ordered digit alphabet: a byte's digit is its index in these runs.

    A fixed byte is a one-symbol alphabet (radix 1), a range ``80..BF`` or a bit
    pattern ``10xxxxxx`` one run, UTF-1's trail symbols ``21..7E, A0..FF`` two.
    """

    runs: tuple[tuple[int, int], ...]

    @property
    def radix(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.runs)

    def digit_of(self, byte: int) -> int | None:
        base = 0
        for lo, hi in self.runs:
            if lo <= byte <= hi:
                return base + byte - lo
            base += hi - lo + 1
        return None

    def byte_of(self, digit: int) -> int:
        for lo, hi in self.runs:
            if digit <= hi - lo:
                return lo + digit
            digit -= hi - lo + 1
        raise ValueError("digit out of range")

    def bytes_for(self, first: int, last: int) -> tuple[tuple[int, int, int], ...]:
        """Byte runs holding digits first..last, each as (lo, hi, sub) with digit = byte - sub."""
        out = []
        base = 0
        for lo, hi in self.runs:
            size = hi - lo + 1
            a, b = max(first, base), min(last, base + size - 1)
            if a <= b:
                out.append((lo + a - base, lo + b - base, lo - base))
            base += size
        return tuple(out)


@dataclass(frozen=True)
class SubForm:
    """A reference to another form's byte sequences whose value lies in lo..hi."""

    form: str
    lo: int
    hi: int


@dataclass(frozen=True)
class Item:
    """One byte position of a form, repeated ``count`` times.

    ``binds`` names a repetition whose count is free (``B4{n}``: any number,
    remembered as n); ``field`` names a run of digits that is not part of the
    code point but a number used by later counts (UTF-∞-8's length digits).
    ``upto`` makes ``count`` the least of a range of counts (``{0,13}``, an ill-formed
    pattern's): the position repeats any number of times from count to upto.
    """

    loc: Loc
    digits: DigitSet | None = None
    sub: SubForm | None = None
    count: Expr = Int(1)
    binds: str | None = None
    field: str | None = None
    shortest: bool = False
    upto: int | None = None


@dataclass(frozen=True)
class CodeRange:
    lo: int
    hi: int | None  # None: open-ended
    loc: Loc


@dataclass(frozen=True)
class Form:
    """One form: its byte positions and how its raw value becomes a code point."""

    name: str
    loc: Loc
    items: tuple[Item, ...]
    mapping: str = "direct"  # "direct" or "packed"
    min: int | None = None
    at: int | None = None
    value: int | tuple[int, ...] | None = None  # a special sequence with one fixed code point (or a sequence of them)
    combine: str | None = None  # "surrogate-pair"
    value_range: tuple[Expr, Expr] | None = None
    option_locs: dict = field(default_factory=dict, compare=False, hash=False)
    max: int | None = None  # the highest code point (higher values are ill-formed)
    digit_order: str = "big"  # "little": the value's digits come least significant first (LEB128)
    unit: int = 1  # bytes per code unit: each position is one unit (the spec's code-unit)
    byte_order: str = "big"  # the order of a unit's bytes
    at_end: bool = False  # counts only where the data ends
    table: str | None = None  # the mapping table its value (a pointer) is looked up in
    mode: str | None = None  # the mode whose section holds it (None: every mode's)
    then: str | None = None  # `-> MODE`: after its character the next token starts in this mode

    @property
    def kind(self) -> str:
        if self.table is not None:
            return "table"
        if self.value is not None:
            return "literal"
        if self.combine is not None:
            return "composite"
        if any(i.binds or not is_const(i.count) or i.field for i in self.items):
            return "counted"
        return "linear"


@dataclass(frozen=True)
class Pattern:
    """A byte pattern that makes otherwise valid sequences ill-formed (WTF-8's pair)."""

    name: str
    loc: Loc
    items: tuple[Item, ...]
    reason: str
    combine: str | None = None  # encoders join the two code points instead (WTF-8 6.1)
    unit: int = 1
    byte_order: str = "big"
    at_end: bool = False  # counts only where the data ends
    mode: str | None = None  # the mode whose section holds it (None: every mode's)
    shift: str | None = None  # a shift sequence: no character, the next token starts in this mode


@dataclass(frozen=True)
class ProfileRule:
    """One rule of a document profile: which code points (or which absence) and how bad."""

    severity: str  # "error" or "warning"
    kind: str  # "chars", "missing-signature" or "last-not"
    ranges: tuple[tuple[int, int], ...]
    message: str
    loc: Loc


@dataclass(frozen=True)
class Profile:
    name: str
    rules: tuple[ProfileRule, ...]
    loc: Loc


@dataclass(frozen=True)
class Signature:
    """Bytes recognised at the start of a document; ``byte_order`` the order of
    the units after it (None: the spec's own)."""

    bytes: bytes
    byte_order: str | None
    loc: Loc


@dataclass(frozen=True)
class Table:
    """A mapping table: pointer -> code point, read from a file in the WHATWG index
    format.  ``ranges`` tables (WHATWG's index gb18030 ranges) hold run starts:
    pointer p maps to the code point of the last entry at or below it, plus the
    distance.  ``extra`` entries (the file's pointers of several code points, then the
    spec's ``with``) come after the file's single ones; the encoder skips
    ``encode_skip`` pointers and writes ``encode_last`` code points with their last
    pointer (else the first, as WHATWG's "index pointer")."""

    name: str
    loc: Loc
    path: str  # as the spec writes it
    sha256: str  # of the file's bytes
    entries: tuple[tuple[int, int], ...]  # (pointer, code point), in file order
    ranges: bool = False
    extra: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (first, last pointer, code points)
    encode_skip: tuple[tuple[int, int], ...] = ()
    encode_last: tuple[int, ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False, repr=False)  # the file line of each entry
    unreachable: tuple[tuple[int, int, Loc], ...] = field(default=(), compare=False)  # pointers no form
    # reaches, said so in the spec (a file shared with another encoding): no warning for their entries


@dataclass(frozen=True)
class EncodeRule:
    """What the encoder writes for one code point before any form does (None: nothing),
    or for a sequence of code points (a tuple: written where the text holds it, the
    longest first; never None)."""

    code_point: int | tuple[int, ...]
    bytes: bytes | None
    loc: Loc
    mode: str | None = None  # the mode it writes in (None: a spec without modes)


# How far an error reaches where no ill-formed pattern says: Unicode's maximal
# subpart, one code unit (CPython's CJK codecs), or through the byte that proved
# the sequence bad, up to a byte of the restore set (WHATWG's legacy decoders).
ERROR_SPANS = ("maximal-subpart", "one-unit", "through-failing-byte")

# The decoder's reasons where no ill-formed pattern gives one (CPython's for UTF-8).
REASONS: dict[str, str | None] = {
    "invalid-start": "invalid start byte",
    "invalid-continuation": "invalid continuation byte",
    "unexpected-end": "unexpected end of data",
    "truncated-unit": "truncated data",
    "unmapped": "no code point for this pointer",
    "unencodable": None,  # the encoder's: CPython's utf-8 words unless the spec gives its own
    # a run of digits (`run`): CPython's utf-7 words
    "partial-unit": "partial character in shift sequence",
    "nonzero-padding": "non-zero padding bits in shift sequence",
    "unterminated-run": "unterminated shift sequence",
}


@dataclass(frozen=True)
class DigitRun:
    """A run of digits whose bits make code units (RFC 2152's base64 in UTF-7).

    The opening byte starts it where a digit (or the data's end) follows; each digit
    gives *bits* bits, most significant first; every *unit_bits* bits are a code
    unit.  Any other byte ends it (the end byte is absorbed); the bits left over
    must be fewer than a digit's and zero.  *digits*: the alphabet's bytes in the
    order of their values; *direct*: the code points the encoder writes as
    themselves out of a run.
    """

    name: str
    opener: int
    digits: bytes
    bits: int
    unit_bits: int
    end: int | None
    pairs: bool  # `combine surrogate-pair`: a high and a low surrogate unit are one code point
    direct: tuple[tuple[int, int], ...]
    loc: Loc = field(compare=False)


@dataclass(frozen=True)
class Claim:
    name: str
    loc: Loc


PROPERTIES = (
    "prefix-free",
    "self-synchronizing",
    "order-preserving",
    "ascii-compatible",
    "bijective",
    "total",
)


@dataclass(frozen=True)
class Spec:
    """A whole encoding spec, validated."""

    name: str
    path: str
    text: str
    sha256: str
    code_space: CodeRange
    forms: tuple[Form, ...]
    title: str = ""
    aliases: tuple[str, ...] = ()
    source: str = ""
    claims: tuple[Claim, ...] = ()
    holes: tuple[CodeRange, ...] = ()
    skips: tuple[CodeRange, ...] = ()
    patterns: tuple[Pattern, ...] = ()
    reserved: tuple[int, ...] = ()
    reserved_loc: Loc | None = None
    signature: bytes = b""
    signature_loc: Loc | None = None
    profiles: tuple[Profile, ...] = ()
    unit: int = 1  # bytes per code unit (1, 2 or 4)
    byte_order: str = "big"  # of a unit's bytes, where no signature says otherwise
    signatures: tuple[Signature, ...] = ()  # the first is the one encoders write (= signature)
    reasons: tuple[tuple[str, str], ...] = ()  # (kind, text): the spec's own for REASONS' kinds
    tables: tuple[Table, ...] = ()
    encodes: tuple[EncodeRule, ...] = ()  # encoder-only mappings and refusals, in spec order
    error_span: str = "maximal-subpart"  # one of ERROR_SPANS
    restore: tuple[tuple[int, int], ...] = ()  # byte runs an error never takes after its first byte
    # ``bytes through``: the real byte of each intermediate byte the forms describe (UTF-EBCDIC)
    permutation: bytes | None = None
    warnings: tuple[SpecWarning, ...] = field(default=(), compare=False)  # what its files hold that is unused
    undecodable: str | None = None  # the decoder's reason when it reads no form (any input is one error)
    # modes (ISO-2022, HZ): their names, the first where data starts; the encoder's modes in the order
    # it prefers them (the first where a text ends), whether it stays in a mode that holds the next
    # character, and the reason for a shift right after a shift (None: no such error)
    modes: tuple[str, ...] = ()
    encode_modes: tuple[str, ...] = ()
    sticky: bool = False
    cheapest: bool = False  # the encoder takes the mode its shifts reach with the fewest bytes
    encode_end: tuple[str, ...] = ()  # the modes a text may end in (empty: the first encode mode)
    shift_after_shift: str | None = None
    unencodable_shifts: tuple[tuple[str, str], ...] = ()  # (mode, where the encoder goes before an error)
    digit_run: DigitRun | None = None  # units assembled from digits (UTF-7's base64 runs)

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)

    def reason(self, kind: str) -> str | None:
        return dict(self.reasons).get(kind, REASONS[kind])

    def form(self, name: str) -> Form:
        """The form named *name* (by a dictionary built on first use: specs may have thousands)."""
        index = self.__dict__.get("_form_index")
        if index is None:
            index = {}
            for f in self.forms:
                index.setdefault(f.name, f)
            object.__setattr__(self, "_form_index", index)  # a cache, not a field: frozen stays frozen
        return index[name]

    @property
    def max_code_point(self) -> int | None:
        return self.code_space.hi

    def excluded(self, cp: int) -> bool:
        return any(r.hi is not None and r.lo <= cp <= r.hi for r in self.holes + self.skips)


class RangeSet:
    """A set of code points as sorted, disjoint, non-adjacent closed ranges.

    What holes and skips become for the passes that cut rows by them: each
    question is a binary search, so thousands of 'ill-formed' or 'skip'
    statements cost time in proportion to their number, not its square."""

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()):
        merged: list[list[int]] = []
        for lo, hi in sorted(ranges):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self.los = [lo for lo, _ in merged]
        self.his = [hi for _, hi in merged]

    def __bool__(self) -> bool:
        return bool(self.los)

    def containing(self, cp: int) -> tuple[int, int] | None:
        """The range holding *cp*, or None."""
        k = bisect_right(self.los, cp) - 1
        return (self.los[k], self.his[k]) if k >= 0 and self.his[k] >= cp else None

    def next_start(self, cp: int) -> int | None:
        """The first range start above *cp*, or None."""
        k = bisect_right(self.los, cp)
        return self.los[k] if k < len(self.los) else None

    def cut(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """lo..hi without the set: its maximal ranges, in order."""
        out = []
        k = bisect_left(self.his, lo)  # the first range that ends at lo or later
        cp = lo
        while cp <= hi and k < len(self.los) and self.los[k] <= hi:
            if self.los[k] > cp:
                out.append((cp, self.los[k] - 1))
            cp = max(cp, self.his[k] + 1)
            k += 1
        if cp <= hi:
            out.append((cp, hi))
        return out

    def first_outside(self, lo: int, hi: int) -> int | None:
        """The first code point of lo..hi outside the set (None: there is none)."""
        if lo > hi:
            return None
        got = self.containing(lo)
        cp = lo if got is None else got[1] + 1
        return cp if cp <= hi else None

    def add(self, lo: int, hi: int) -> None:
        """Add lo..hi, merging it with the ranges it overlaps or touches."""
        a = bisect_left(self.his, lo - 1)  # the first range that ends at lo - 1 or later
        b = bisect_right(self.los, hi + 1)  # past the last range that starts at hi + 1 or earlier
        if a < b:
            lo, hi = min(lo, self.los[a]), max(hi, self.his[b - 1])
        self.los[a:b] = [lo]
        self.his[a:b] = [hi]

    def overlaps(self, lo: int, hi: int) -> Iterable[tuple[int, int]]:
        """The parts of lo..hi inside the set, in order."""
        k = bisect_left(self.his, lo)
        while k < len(self.los) and self.los[k] <= hi:
            yield max(lo, self.los[k]), min(hi, self.his[k])
            k += 1


@contextmanager
def paused_gc():
    """Pause Python's cyclic garbage collector for a compile step.

    Parsing and compiling allocate many small objects that form no cycles, and
    each full collection walks them all again: with the collector on, a spec
    with 16 times the statements took up to 30 times as long.  Reference
    counting still frees everything; cycles wait for the next collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
