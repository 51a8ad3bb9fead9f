"""What an accepting state does: the actions of the automaton.

An action is identified by what it computes, not by the form that wrote it
(``forms`` does not take part in equality), so forms that compute alike share
accepting states: UTF-8 then minimises to Höhrmann's handful of states.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


def _forms() -> tuple[str, ...]:
    return field(default=(), compare=False)


class _Action:
    forms: tuple[str, ...]  # the forms (or ill-formed patterns) that produce it: a field of each action

    @property
    def form(self) -> str:
        """The first form (or ill-formed pattern) that produces this action, for messages."""
        return self.forms[0] if self.forms else ""


@dataclass(frozen=True)
class Char(_Action):
    """A code point: the raw value accumulated along the path plus ``offset``."""

    offset: int
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "char"
    then: str | None = None  # `-> MODE`: the next token starts in this mode

    def code_point(self, acc: int) -> int:
        return acc + self.offset


@dataclass(frozen=True)
class Value(_Action):
    """A special sequence that stands for one fixed code point (MUTF-8's C0 80), or for a
    fixed sequence of code points (a tuple)."""

    value: int | tuple[int, ...]
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "char"
    then: str | None = None  # `-> MODE`: the next token starts in this mode

    def code_point(self, acc: int) -> int | tuple[int, ...]:
        return self.value


@dataclass(frozen=True)
class Pair(_Action):
    """A surrogate pair of two sub-values: ``acc = high * split + low``, each plus ``offset``."""

    split: int
    offset: int
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "char"
    combine: ClassVar[str] = "surrogate-pair"

    def code_point(self, acc: int) -> int:
        high, low = divmod(acc, self.split)
        return 0x10000 + ((high + self.offset - 0xD800) << 10) + (low + self.offset - 0xDC00)


@dataclass(frozen=True)
class Lookup(_Action):
    """A table form: the raw value is a pointer into mapping table ``table``; a pointer
    without an entry is an error (the spec's ``unmapped`` reason)."""

    table: int
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "char"
    then: str | None = None  # `-> MODE`: the next token (after a character) starts in this mode


@dataclass(frozen=True)
class Error(_Action):
    """An ill-formed pattern: the sequence is one error with the pattern's reason."""

    reason: str
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "error"


@dataclass(frozen=True)
class Shift(_Action):
    """A shift sequence: no character; the next token starts in mode ``mode``.  With a
    ``reason`` (a shift right after a shift, WHATWG's ISO-2022-JP) it is an error
    that still enters the mode."""

    mode: str
    reason: str | None = None
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "shift"


@dataclass(frozen=True)
class Reserved(_Action):
    """A reserved run (Corrected UTF-8's FE/FF up to the next lead byte)."""

    forms: tuple[str, ...] = field(default=("reserved",), compare=False)
    kind: ClassVar[str] = "reserved"
    reason: ClassVar[str] = "reserved sequence"


@dataclass(frozen=True)
class Enter(_Action):
    """A counted form's bounded prefix ends here: continue in extension ``extension``.

    Only byte patterns carry it; it never labels an accepting state."""

    extension: int
    forms: tuple[str, ...] = _forms()
    kind: ClassVar[str] = "extension"


Action = Char | Value | Pair | Lookup | Error | Reserved | Shift


def named(action, form: str):
    """The same action with *form* among its forms."""
    from dataclasses import replace
    return action if form in action.forms else replace(action, forms=action.forms + (form,))
