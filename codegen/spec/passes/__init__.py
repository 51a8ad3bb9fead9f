"""The checks of a spec, as named passes run in one fixed order.

The transformer (``spec/parse.py``) only builds statements; :func:`resolve` groups
them (:func:`~.draft.collect`), runs every pass in :data:`PASSES` in turn and builds
the :class:`~encspec.spec.model.Spec`. A pass takes the draft and returns its
problems, each located (``file:line:col``, the line, a caret): the first pass with
an error stops the run and its first error is raised, so a spec with several
mistakes is told the same one first every time; warnings are kept on the model.
A pass may also resolve what later passes read (the forms, the code unit), which
is why the order is fixed: a pass trusts everything the passes before it checked.
"""
from __future__ import annotations

import hashlib

from ..diagnostics import SpecError, SpecWarning
from ..model import Spec
from . import (
    claims,
    code_space,
    digits,
    encoder,
    forms,
    modes,
    patterns,
    profiles,
    signatures,
    statements,
    tables,
    units,
)
from .draft import Draft, Pass, Statement, collect

PASSES: tuple[Pass, ...] = (
    statements.declarations,    # each statement on its own: given once; alphabets, tables, encode files read
    statements.required,        # encoding, code-space, a form
    claims.claims,              # claimed properties exist
    code_space.excluded_ranges,  # ill-formed / skip ranges inside the code space, closed
    units.code_unit,            # the code unit (resolved); truncated-unit needs wide units
    signatures.signatures,      # each once; byte order only for wide units (resolved)
    units.permutation,          # bytes through: a permutation of 00..FF, for bytes without a signature
    forms.forms,                # each form: positions, options, table, length (resolved)
    code_space.skips,           # skip needs a packed form
    code_space.numbering,       # no code point numbered by two forms
    patterns.patterns,          # each ill-formed pattern and shift (resolved)
    modes.modes,                # modes declared once, named where used; what they cannot have yet
    digits.digit_runs,          # a run of digits: its alphabet, bits and unit (resolved)
    units.error_span,           # restore with through-failing-byte; spans need bytes
    encoder.encoder_entries,    # a code point given to the encoder once
    units.reserved,             # reserved lead bytes need bytes
    profiles.profile_rules,     # signature rules need a signature
    tables.unreachable,         # table entries no form reaches (warnings)
)


def run(draft: Draft) -> None:
    """Every pass in order; raise the first error of the first pass that finds one."""
    for check in PASSES:
        problems = check(draft)
        for p in problems:
            if isinstance(p, SpecError):
                raise p
        draft.warnings += [p for p in problems if isinstance(p, SpecWarning)]


def resolve(statements: list[Statement], text: str, path: str) -> Spec:
    """The model of a spec's *statements*, after every pass has accepted them."""
    draft = collect(statements, text, path)
    run(draft)
    sigs = draft.signatures
    return Spec(
        name=draft.values["encoding"], path=path, text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        code_space=draft.values["code-space"], forms=tuple(draft.forms), title=draft.values.get("title", ""),
        aliases=tuple(draft.aliases), source=draft.values.get("source", ""), claims=tuple(draft.claims),
        holes=tuple(draft.holes), skips=tuple(draft.skips), patterns=tuple(draft.patterns),
        reserved=tuple(draft.values.get("reserved", ())), reserved_loc=draft.seen.get("reserved"),
        signature=sigs[0].bytes if sigs else b"", signature_loc=sigs[0].loc if sigs else None,
        profiles=tuple(draft.profiles), unit=draft.unit, byte_order=draft.byte_order, signatures=tuple(sigs),
        reasons=tuple(sorted(draft.reasons.items())), tables=tuple(draft.tables.values()),
        encodes=tuple(draft.encodes), error_span=draft.values.get("error-span", ("maximal-subpart",))[0],
        restore=draft.values.get("error-span", ("", ()))[1], permutation=draft.permutation,
        undecodable=draft.values.get("undecodable"),
        modes=tuple(name for name, _ in draft.modes),
        encode_modes=tuple(n for n, _ in draft.values["encode-modes"][0]) if "encode-modes" in draft.values
        else tuple(name for name, _ in draft.modes),
        sticky=draft.values.get("encode-modes", ((), "first"))[1] == "sticky",
        cheapest=draft.values.get("encode-modes", ((), "first"))[1] == "cheapest",
        encode_end=tuple(n for n, _ in draft.values.get("encode-end", ())),
        shift_after_shift=draft.values.get("shift-after-shift"),
        unencodable_shifts=tuple(draft.unencodable_shifts),
        digit_run=draft.digit_run,
        warnings=tuple(draft.warnings),
    )
