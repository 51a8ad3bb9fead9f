"""Reading the files a spec refers to: mapping tables and encoder tables.

A mapping table is in the WHATWG Encoding Standard's index format ("Indexes":
lines split on LF, empty lines and lines starting with # dropped, each split on
TAB into a decimal pointer and a hexadecimal code point; other fields do not
count).  An encoder table (``encode-file``) has lines ``0xCODEPOINT<TAB>0xBYTES``,
or ``0xCODEPOINT<TAB>-`` for a code point the encoder refuses.  Every problem
is a :class:`SpecError` at the spec statement, naming the file and its line.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Optional

from .diagnostics import Loc, SpecError

MAX_POINTER = 1 << 24  # pointers a table may hold: a dense table of this many entries is 64 MiB at most


def resolve(spec_path: str, written: str, loc: Loc) -> Path:
    """The file *written* in a spec at *spec_path*: relative to the spec's folder."""
    base = Path(spec_path).parent if spec_path and not spec_path.startswith("<") else Path.cwd()
    got = (base / written)
    if not got.is_file():
        raise SpecError(f"no such table file '{written}' (looked in {base})", loc)
    return got


def _lines(file: Path, written: str, loc: Loc, seen: Callable[[bytes], None]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each of the file's lines (split on LF, the LF left out),
    read a line at a time and passed to *seen* (a hash's update): what a table costs in memory follows the
    entries its reader keeps, not the file's size (comments, blank lines)."""
    try:
        with file.open("rb") as f:
            for k, raw in enumerate(f, 1):
                seen(raw)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise SpecError(f"{written}:{k}: not UTF-8 text", loc) from None
                yield k, text.removesuffix("\n")
    except OSError as e:
        raise SpecError(f"cannot read table file '{written}': {e.strerror or e}", loc) from None


def _number(text: str, base: int, what: str, where: str, loc: Loc, limit: int) -> int:
    try:
        if base == 16:
            if not text.lower().startswith("0x"):
                raise ValueError
            value = int(text[2:], 16)
        else:
            if not text.isdigit():
                raise ValueError
            value = int(text)
    except ValueError:
        raise SpecError(f"{where}: {what} {text!r} is not a {'hexadecimal (0x…)' if base == 16 else 'decimal'} "
                        "number", loc) from None
    if value > limit:
        raise SpecError(f"{where}: {what} {text} is beyond {limit:#x}", loc)
    return value


def read_index(spec_path: str, written: str, loc: Loc) -> tuple[tuple[tuple[int, int], ...], str]:
    """((pointer, code point) in file order, SHA-256 of the file) of an index file."""
    file = resolve(spec_path, written, loc)
    sha = hashlib.sha256()
    out = []
    seen: dict[int, int] = {}
    for k, line in _lines(file, written, loc, sha.update):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            raise SpecError(f"{written}:{k}: expected a pointer, a TAB and a code point", loc)
        where = f"{written}:{k}"
        pointer = _number(fields[0].strip(), 10, "pointer", where, loc, MAX_POINTER - 1)
        cp = _number(fields[1].strip(), 16, "code point", where, loc, 0x10FFFF)
        if pointer in seen:
            raise SpecError(f"{where}: pointer {pointer} is given twice (first on line {seen[pointer]})", loc)
        seen[pointer] = k
        out.append((pointer, cp))
    if not out:
        raise SpecError(f"table file '{written}' has no entries", loc)
    return tuple(out), sha.hexdigest()


def read_encode_file(spec_path: str, written: str, loc: Loc) -> tuple[tuple[tuple[int, Optional[bytes]], ...], str]:
    """((code point, bytes or None), ...) of an encoder table, and its SHA-256."""
    file = resolve(spec_path, written, loc)
    sha = hashlib.sha256()
    out: list[tuple[int, Optional[bytes]]] = []
    for k, line in _lines(file, written, loc, sha.update):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        where = f"{written}:{k}"
        if len(fields) < 2:
            raise SpecError(f"{where}: expected a code point, a TAB and bytes (0x…) or -", loc)
        cp = _number(fields[0].strip(), 16, "code point", where, loc, 0x10FFFF)
        raw = fields[1].strip()
        if raw == "-":
            out.append((cp, None))
            continue
        if not raw.lower().startswith("0x") or len(raw) % 2 or len(raw) < 4:
            raise SpecError(f"{where}: bytes {raw!r} are not 0x and an even number of hex digits", loc)
        try:
            out.append((cp, bytes.fromhex(raw[2:])))
        except ValueError:
            raise SpecError(f"{where}: bytes {raw!r} are not hexadecimal", loc) from None
    return tuple(out), sha.hexdigest()
