"""Export targets, registered by name: a template folder plus what the target supports.

Each target declares its natural integer width; code points wider than it, and
counted forms it does not implement, are decided here — before anything is
written — and stated in the generated header (see ``limits``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..automaton import Automaton

REGISTRY: dict[str, "Target"] = {}


@dataclass(frozen=True)
class Target:
    name: str
    describe: str
    files: Callable[[Automaton], dict[str, str]]  # relative path -> text
    int_bits: Optional[int] = None  # None: arbitrary precision
    executables: tuple[str, ...] = field(default=())  # files to chmod +x


def register(target: Target) -> Target:
    REGISTRY[target.name] = target
    return target


def _load_all() -> None:
    from . import json_target  # noqa: F401  (registers itself)
    import importlib
    for name in ("c", "rust", "js", "java"):
        try:
            importlib.import_module(f"{__package__}.{name}_target")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{name}_target":
                raise


def targets() -> dict[str, Target]:
    _load_all()
    return REGISTRY


def export(a: Automaton, lang: str, out_dir: Path) -> list[Path]:
    """Write the target's files into out_dir (which must exist or whose parent must)."""
    target = targets()[lang]
    files = target.files(a)
    written = []
    out_dir.mkdir(exist_ok=True)
    for rel, text in files.items():
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(path)
        if rel in target.executables:
            path.chmod(0o755)
        written.append(path)
    return written
