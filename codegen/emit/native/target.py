"""The `native` target: the C source of a spec's CPython extension (built, not exported)."""
from __future__ import annotations

from ...spec import registry
from ..export_common import int64_support
from ..target import Target, register
from .ext import ext_source

register(Target(
    name="native",
    describe="the C source of the CPython extension that speeds up the Python module",
    files=lambda a: {f"native/{registry.module_name(a.name)}.c": ext_source(a)},
    supports=int64_support("native"),  # the extension is the C export plus glue
    mode_sequences=True,  # its modal encoder hands a sequence's starter to the module
    modes=True,  # its loops stop before a token that sets the mode: the module's _step takes it
    digits=True,  # its loops decode a run of digits; any run not plain is the module's _step
    int_bits=64,
    exported=False,
    permutes=True,  # it reads what the core hands it, already through the inverse permutation
))
