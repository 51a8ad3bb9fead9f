"""The `python` target: a self-contained codec module, as in generated/ (built, not exported)."""
from __future__ import annotations

from ..spec import registry
from .python import module_source
from .target import Target, register

register(Target(
    name="python",
    describe="a self-contained codec module (standard library only), as in generated/",
    files=lambda a: {f"{registry.module_name(a.name)}.py": module_source(a)},
    exported=False,
    permutes=True,  # the core translates (runtime/core.py: _intermediate, _real)
    mode_sequences=True,  # the core encodes each mode with its own sequences
    modes=True,  # the core's step and encoder carry the mode
    digits=True,  # the core's step reads a run of digits as one token (_scan_digits)
))
