"""The `json` export target: the canonical table, as in generated/tables/."""
from __future__ import annotations

from ..spec import registry
from .table import table_source
from .target import Target, register

register(Target(
    name="json",
    describe="the canonical state-transition table (documented in docs/pages/table-format.md)",
    permutes=True,  # the table carries it ("permutation")
    undecodable=True,  # the table is its DFA: faithful
    mode_sequences=True,  # each mode's table lists its own
    modes=True,  # the table lists them ("modes")
    digits=True,  # and the run of digits ("digit_run")
    files=lambda a: {f"{registry.module_name(a.name)}.json": table_source(a)},
))
