"""The forms as the automaton keeps them: enough to encode and to describe.

A form's byte sequences are in the transition tables; what encoders and
analyses also need is how a code point becomes bytes: the digit alphabet of
each position (a linear form), the fixed bytes (a special sequence), the
sub-form a surrogate pair is made of, or a counted form's extension.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

Runs = tuple[tuple[int, int], ...]  # a digit alphabet: byte runs in digit order


@dataclass(frozen=True)
class DigitsForm:
    """Fixed length; each position a digit alphabet; raw value = digits in mixed radix."""

    name: str
    line: int
    positions: tuple[Runs, ...]  # in byte order
    at: int  # the code point of raw value 0 (direct numbering)
    order: tuple[int, ...] | None = None  # positions from the most significant digit (None: byte order)
    kind: ClassVar[str] = "linear"

    @property
    def length(self) -> int:
        return len(self.positions)


@dataclass(frozen=True)
class LiteralForm:
    """A special sequence: fixed bytes for one code point."""

    name: str
    line: int
    bytes: bytes
    kind: ClassVar[str] = "literal"


@dataclass(frozen=True)
class CompositeForm:
    """Two sequences of form ``sub`` for the halves of a surrogate pair (CESU-8)."""

    name: str
    line: int
    sub: str
    kind: ClassVar[str] = "composite"


@dataclass(frozen=True)
class CountedForm:
    """Unbounded length: the automaton holds its prefix, ``extension`` the rest."""

    name: str
    line: int
    extension: int
    kind: ClassVar[str] = "counted"


@dataclass(frozen=True)
class TableForm:
    """Fixed length; its raw value (digits as in a DigitsForm) is a pointer into ``table``."""

    name: str
    line: int
    positions: tuple[Runs, ...]
    table: int  # index into Automaton.tables
    order: tuple[int, ...] | None = None
    kind: ClassVar[str] = "table"

    @property
    def length(self) -> int:
        return len(self.positions)


Form = DigitsForm | LiteralForm | CompositeForm | CountedForm | TableForm


@dataclass(frozen=True)
class ProfileRule:
    """One rule of a document profile (``encspec lint``)."""

    severity: str  # "error" or "warning"
    kind: str  # "chars", "missing-signature" or "last-not"
    ranges: tuple[tuple[int, int], ...]
    message: str
    line: int


@dataclass(frozen=True)
class Profile:
    name: str
    line: int
    rules: tuple[ProfileRule, ...]
