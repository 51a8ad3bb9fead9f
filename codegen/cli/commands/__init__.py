"""Commands beyond the core ones in main.py: each module here defines ``command``
(a click command) and is added to ``encspec`` automatically, in name order."""
from __future__ import annotations

import importlib
import pkgutil


def all_commands():
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        yield module.command
