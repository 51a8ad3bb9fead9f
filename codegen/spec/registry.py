"""Built-in specs, found by name or alias the way Python normalises codec names."""
from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from .diagnostics import SpecError


def normalise(name: str) -> str:
    """``Corrected UTF-8`` → ``corrected_utf_8``, as ``encodings.normalize_encoding`` does."""
    return re.sub(r"[^0-9a-z.]+", "_", name.strip().lower()).strip("_")


def specs_dir() -> Path:
    """The folder of the built-in specs (the package ``encspec.specs``, found without
    importing it, as importlib.resources would, which costs a command's start-up a third
    again; nor naming it in an import, which the layout test would read as one of the
    top-level package)."""
    from importlib.util import find_spec
    found = find_spec("encspec.specs")
    assert found is not None and found.submodule_search_locations
    return Path(found.submodule_search_locations[0])


def builtin_paths() -> list[Path]:
    """The built-in spec files, sorted (a directory listing: every command that names a
    spec pays for it, so no glob)."""
    folder = specs_dir()
    return sorted(folder / name for name in os.listdir(folder) if name.endswith(".encspec"))


ALIASES_LINE = re.compile(r"^[ \t]*aliases[ \t]+(.*?)[ \t]*(?:#.*)?$", re.MULTILINE)


@cache
def _aliases() -> dict[str, Path]:
    table: dict[str, Path] = {}
    for path in builtin_paths():
        table[normalise(path.stem)] = path
        for m in ALIASES_LINE.finditer(path.read_text("utf-8")):
            for alias in m.group(1).split(","):
                table.setdefault(normalise(alias), path)
    return table


def builtin_names() -> list[str]:
    return [p.stem for p in builtin_paths()]


def file_sha256(path: Path) -> str:
    """The SHA-256 of a spec file's bytes, as generated files record it (``SPEC_SHA256``)."""
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find(name_or_path: str | os.PathLike[str]) -> Path:
    """The spec file for a built-in name or alias, or a path to a ``.encspec`` file."""
    name_or_path = os.fspath(name_or_path)
    p = Path(name_or_path)
    if "/" not in name_or_path and os.sep not in name_or_path and not name_or_path.startswith("."):
        named = specs_dir() / f"{name_or_path}.encspec"   # a built-in's own name: no reading every spec
        if named.is_file() and not p.is_file():
            return named
    hit = None if p.suffix == ".encspec" else _aliases().get(normalise(name_or_path))
    if hit is not None and not p.is_file():  # a folder named like a built-in is not a spec
        return hit
    if p.suffix == ".encspec" or p.exists():
        if p.is_dir():
            raise SpecError("is a directory, not a spec file", None, str(p))
        if not p.exists():
            raise SpecError("no such spec file", None, str(p))
        return p
    if hit is None:
        known = ", ".join(builtin_names())
        raise SpecError(f"unknown encoding (built-in: {known})", None, name_or_path)
    return hit


def find_builtin(name: str) -> Path:
    """The built-in spec for a normalised name or alias; KeyError if none."""
    return _aliases()[normalise(name)]


def module_name(name: str) -> str:
    """The generated module's name: dashes become underscores."""
    return normalise(name).replace(".", "_")
