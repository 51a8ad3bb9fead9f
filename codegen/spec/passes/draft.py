"""What the passes read and fill: the spec's statements, grouped by kind, and the
model pieces resolved so far.

The transformer (``spec/parse.py``) builds the statements; :func:`collect` groups
them without judging them; each pass then checks one subject and resolves what
later passes read (an alphabet's digit set, a form's :class:`Form`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from ..diagnostics import Loc, SpecError, SpecWarning
from ..model import Claim, CodeRange, DigitRun, DigitSet, EncodeRule, Form, Pattern, Profile, Signature, Table

Statement = tuple[str, Loc, Any]  # (keyword, position, payload as the transformer built it)
Problem = SpecError | SpecWarning
Pass = Callable[["Draft"], list[Problem]]

# statements a spec gives at most once
SINGLE = frozenset({"encoding", "title", "source", "code-space", "numbering", "reserved", "code-unit", "error-span",
                    "bytes-through", "undecodable", "encode-modes", "encode-end", "shift-after-shift",
                    "digits", "run", "encode-direct"})


@dataclass
class Draft:
    """A spec on its way to the model: its statements, then what each pass resolved."""

    text: str
    path: str
    statements: list[Statement]
    # grouped by collect(), unjudged
    values: dict[str, Any] = field(default_factory=dict)  # a single statement's payload (the first given)
    claims: list[Claim] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    holes: list[CodeRange] = field(default_factory=list)
    skips: list[CodeRange] = field(default_factory=list)
    raw_forms: list[tuple[Loc, Any]] = field(default_factory=list)
    raw_patterns: list[tuple[Loc, Any]] = field(default_factory=list)
    raw_signatures: list[tuple[Loc, Any]] = field(default_factory=list)
    # resolved by the passes, in PASSES order
    seen: dict[str, Loc] = field(default_factory=dict)  # where each single statement is given
    alphabets: dict[str, DigitSet] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    encodes: list[EncodeRule] = field(default_factory=list)
    profiles: list[Profile] = field(default_factory=list)
    unit: int = 1
    byte_order: str = "big"
    signatures: list[Signature] = field(default_factory=list)
    permutation: bytes | None = None  # ``bytes through``: the real byte of each intermediate byte
    forms: list[Form] = field(default_factory=list)
    patterns: list[Pattern] = field(default_factory=list)
    warnings: list[SpecWarning] = field(default_factory=list)
    # modes: each declared (name, where), and the mode of each statement after a `mode` (by position)
    modes: list[tuple[str, Loc]] = field(default_factory=list)
    section: dict[Loc, str] = field(default_factory=dict)
    unencodable_shifts: list[tuple[str, str]] = field(default_factory=list)  # (mode, the mode it goes to first)
    digit_run: DigitRun | None = None  # units assembled from digits (UTF-7)

    @property
    def first(self) -> Loc:
        """Where a missing statement is reported: the spec's first statement."""
        return self.statements[0][1] if self.statements else Loc(1, 1)

    @property
    def by_name(self) -> dict[str, Form]:
        return {f.name: f for f in self.forms}


def collect(statements: list[Statement], text: str, path: str) -> Draft:
    """The statements grouped by kind, in spec order; nothing is judged here."""
    draft = Draft(text, path, statements)
    mode = None
    for kind, loc, payload in statements:
        if kind == "mode":
            mode = payload[0]
            draft.modes.append(payload)
        elif mode is not None and kind in ("form", "pattern", "encode", "unencodable", "encode-file",
                                           "unencodable-shift"):
            draft.section[loc] = mode
        if kind in SINGLE:
            draft.values.setdefault(kind, payload)
        if kind == "aliases":
            draft.aliases += payload
        elif kind == "claims":
            draft.claims += payload
        elif kind == "ill-formed":
            draft.holes += payload
        elif kind == "skip":
            draft.skips += payload
        elif kind == "form":
            draft.raw_forms.append((loc, payload))
        elif kind == "pattern":
            draft.raw_patterns.append((loc, payload))
        elif kind == "signature":
            draft.raw_signatures.append((loc, payload))
    return draft


def stops_at_first_error(check: Callable[[Draft], None]) -> Pass:
    """A pass written as a check that raises its first error (what it would look at
    next depends on what it just found wrong), returned as the pass's problems."""

    @wraps(check)
    def run(draft: Draft) -> list[Problem]:
        try:
            check(draft)
        except SpecError as e:
            return [e]
        return []

    return run
