"""The sequences of code points the encoder writes as one byte sequence (issue 30).

A sequence is writable where the spec's ``encode U+.. U+.. as ..`` (or an
encode-file line) says so, where a literal form's value is that sequence, or
where a mapping table's pointer holds it outside the pointers the encoder never
writes (``decode_only``: encode-skip, a later pointer of the same sequence),
spelled by the first table form that reads the table.  The same order as for a
single code point: encoder-only entries, then forms, then tables in form order;
a form's or a table's bytes count only if the automaton reads them back as that
sequence (an ill-formed pattern may override them).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ..spec.model import DigitSet, RangeSet, Spec
from .actions import Action, Lookup, Value
from .forms import Form, LiteralForm, TableForm
from .mapping import MappingTable


class Automaton(Protocol):
    """What this module reads of an automaton (encspec.automaton.Automaton, which
    imports this module: named here by its shape, not imported back)."""

    @property
    def starts(self) -> tuple[int, ...]: ...

    @property
    def n_states(self) -> int: ...

    @property
    def forms(self) -> Mapping[str, Form]: ...

    @property
    def tables(self) -> tuple[MappingTable, ...]: ...

    @property
    def undecodable(self) -> bool: ...

    def step(self, state: int, byte: int) -> int: ...

    def action_at(self, s: int) -> Action | None: ...

    def table_forms(self) -> list[TableForm]: ...


Sequence = tuple[tuple[int, ...], bytes]  # (code points, the bytes written for them)


def spelled(positions: tuple[tuple[tuple[int, int], ...], ...], raw: int,
            order: tuple[int, ...] | None) -> bytes | None:
    """The bytes of raw value *raw* in the digit alphabets *positions* (byte order),
    most significant digit first in *order* (None: byte order); None if they cannot hold it."""
    out = bytearray(len(positions))
    for k in reversed(order) if order else range(len(positions) - 1, -1, -1):
        digits = DigitSet(positions[k])
        raw, d = divmod(raw, digits.radix)
        out[k] = digits.byte_of(d)
    return bytes(out) if raw == 0 else None


def _reads(a: Automaton, data: bytes) -> Action | None:
    """The action the automaton ends in after *data* from its first start (None: none)."""
    s = a.starts[0]
    for b in data:
        s = a.step(s, b)
        if not 0 <= s < a.n_states:
            return None
    return a.action_at(s)


def writable(spec: Spec, a: Automaton) -> tuple[Sequence, ...]:
    """Every sequence the encoder writes, with its bytes (before ``bytes through``), in
    code point order."""
    chosen: dict[tuple[int, ...], bytes] = {}
    for e in spec.encodes:
        if isinstance(e.code_point, tuple) and e.bytes is not None:
            chosen.setdefault(e.code_point, e.bytes)
    for f in spec.forms:
        literal = a.forms[f.name]
        if isinstance(f.value, tuple) and not f.at_end and isinstance(literal, LiteralForm):
            act = _reads(a, literal.bytes)
            if a.undecodable or isinstance(act, Value) and act.value == f.value:
                chosen.setdefault(f.value, bytes(literal.bytes))
    for form in a.table_forms():
        table = a.tables[form.table]
        skip = RangeSet(table.decode_only)
        for p, v in table.overrides:
            if not isinstance(v, tuple) or v in chosen or skip.containing(p) is not None:
                continue
            data = spelled(form.positions, p, form.order)
            if data is None:
                continue
            act = _reads(a, data)
            if a.undecodable or isinstance(act, Lookup) and act.table == form.table:
                chosen[v] = data
    return tuple(sorted(chosen.items()))
