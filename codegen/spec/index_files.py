"""Reading the files a spec refers to: mapping tables and encoder tables.

A mapping table is in the WHATWG Encoding Standard's index format ("Indexes":
lines split on LF, empty lines and lines starting with # dropped, each split on
TAB into a decimal pointer and a hexadecimal code point; other fields do not
count).  Where one pointer stands for several code points (Big5-HKSCS's 88 62,
U+00CA U+0304), the code point field holds them separated by single spaces.  An
encoder table (``encode-file``) has lines ``0xCODEPOINT<TAB>0xBYTES``, or
``0xCODEPOINT<TAB>-`` for a code point the encoder refuses; its key may be a
sequence of code points too (written, never refused).  Read strictly:
ASCII digits only, code points that are Unicode scalar values; a mistake is a
:class:`TableFileError` at its line and column in the file (a missing or
unreadable file: a :class:`SpecError` at the spec statement).  A file is read a line
at a time, so what it costs in memory follows the entries kept, not its comments.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Loc, SpecError, TableFileError

MAX_POINTER = 1 << 24  # pointers a table may hold: a dense table of this many entries is 64 MiB at most


def resolve(spec_path: str, written: str, loc: Loc) -> Path:
    """The file *written* in a spec at *spec_path*: relative to the spec's folder."""
    base = Path(spec_path).parent if spec_path and not spec_path.startswith("<") else Path.cwd()
    got = (base / written)
    if not got.is_file():
        raise SpecError(f"no such table file '{written}' (looked in {base})", loc)
    return got


def _lines(file: Path, written: str, loc: Loc, seen: Callable[[bytes], None]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each of the file's lines (split on LF, the LF left out), read
    a line at a time and passed to *seen* (a hash's update)."""
    try:
        with file.open("rb") as f:
            for k, raw in enumerate(f, 1):
                seen(raw)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    col = len(raw[:e.start].decode("utf-8")) + 1
                    raise TableFileError(f"byte {raw[e.start]:02X} is not valid UTF-8 (a table file is UTF-8 text)",
                                         Loc(k, col), written, _text(file)) from None
                yield k, text.removesuffix("\n")
    except OSError as e:
        raise SpecError(f"cannot read table file '{written}': {e.strerror or e}", loc) from None


def _text(file: Path) -> str:
    """The whole of a table file, for an error's excerpt (read only when there is one)."""
    try:
        return file.read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


# ASCII digits only: Python's int() also reads other scripts' digits (Arabic-Indic ١٢) and "_".
DECIMAL = re.compile(r"[0-9]+", re.ASCII)
HEXADECIMAL = re.compile(r"0[xX][0-9A-Fa-f]+", re.ASCII)
GOOD_INDEX_LINE = re.compile(r" *([0-9]+) *\t *0[xX]([0-9A-Fa-f]+) *(?:\t[^\r]*)?\r?", re.ASCII)  # fullmatch'd
ONE_BYTE = re.compile(r"0[xX][0-9A-Fa-f]{2}", re.ASCII)
HEX_BYTES = re.compile(r"0[xX](?:[0-9A-Fa-f]{2})+", re.ASCII)


class Line:
    """One entry line of a table file: its first two fields, trimmed of ASCII spaces (any
    other white space stays, so the number check names it), and the line as written."""

    __slots__ = ("fields", "number", "raw")

    def __init__(self, number: int, raw: str):
        self.number, self.raw = number, raw
        self.fields = [f.strip(" ") for f in raw.split("\t", 2)[:2]]

    def column(self, field: int) -> int:
        """Where field *field* (or the last there is) starts, 1-based, past its spaces."""
        parts = self.raw.split("\t")
        field = min(field, len(parts) - 1)
        before = sum(len(p) + 1 for p in parts[:field])
        return before + len(parts[field]) - len(parts[field].lstrip(" ")) + 1


def _entry_lines(lines: Iterator[tuple[int, str]]) -> Iterator[Line]:
    """The lines that hold entries: not empty (or spaces), not a # comment."""
    for k, line in lines:
        line = line.removesuffix("\r")
        if not line.strip(" ") or line.startswith("#"):
            continue
        yield Line(k, line)


def _fail(message: str, line: Line, field: int, written: str, file: Path) -> TableFileError:
    return TableFileError(message, Loc(line.number, line.column(field)), written, _text(file))


def _pointer(line: Line, written: str, file: Path) -> int:
    raw = line.fields[0]
    if not DECIMAL.fullmatch(raw):
        raise _fail(f"pointer {raw!r} is not a decimal number (ASCII digits 0-9)", line, 0, written, file)
    value = int(raw)
    if value >= MAX_POINTER:
        raise _fail(f"pointer {raw} is beyond a table's limit ({MAX_POINTER - 1})", line, 0, written, file)
    return value


def _code_point(line: Line, field: int, written: str, file: Path, raw: str | None = None, shift: int = 0) -> int:
    """The code point of field *field* (or of *raw*, the part of it *shift* characters in)."""
    raw = line.fields[field] if raw is None else raw

    def fail(message: str) -> TableFileError:
        return TableFileError(message, Loc(line.number, line.column(field) + shift), written, _text(file))

    if not HEXADECIMAL.fullmatch(raw):
        raise fail(f"code point {raw!r} is not a hexadecimal number (0x and ASCII hex digits)")
    value = int(raw, 16)  # the pattern took 0x and ASCII hex digits only
    if value > 0x10FFFF:
        raise fail(f"code point {raw} is beyond U+10FFFF")
    if 0xD800 <= value <= 0xDFFF:
        raise fail(f"code point {raw} is a surrogate, not a Unicode scalar value")
    return value


def _code_points(line: Line, field: int, written: str, file: Path) -> int | tuple[int, ...]:
    """The code point of field *field*, or the code points it holds separated by single
    spaces (a sequence), each checked at its own column."""
    raw = line.fields[field]
    if " " not in raw:
        return _code_point(line, field, written, file)
    out, shift = [], 0
    for part in raw.split(" "):
        if not part:
            raise TableFileError("expected a code point after a space (code points of a sequence are separated "
                                 "by one space)", Loc(line.number, line.column(field) + shift), written, _text(file))
        out.append(_code_point(line, field, written, file, part, shift))
        shift += len(part) + 1
    return tuple(out)


@dataclass(frozen=True)
class IndexFile:
    """An index file as read: its entries in file order, the line of each, its SHA-256."""

    entries: tuple[tuple[int, int], ...]  # (pointer, code point)
    lines: tuple[int, ...]  # the line of each entry
    sha256: str
    sequences: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (pointer, code points): several for one pointer


def read_index(spec_path: str, written: str, loc: Loc) -> IndexFile:
    """The entries of an index file, each checked (TableFileError at its line)."""
    file = resolve(spec_path, written, loc)
    sha = hashlib.sha256()
    entries, numbers = [], []
    sequences: list[tuple[int, tuple[int, ...]]] = []
    seen: dict[int, int] = {}
    good = GOOD_INDEX_LINE.fullmatch
    for k, raw in _lines(file, written, loc, sha.update):
        m = good(raw)
        if m is not None:  # the common case, decided by one pattern; anything else is looked at closely
            pointer, cp = int(m[1]), int(m[2], 16)
            if pointer < MAX_POINTER and cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF and pointer not in seen:
                seen[pointer] = k
                entries.append((pointer, cp))
                numbers.append(k)
                continue
        raw = raw.removesuffix("\r")
        if not raw.strip(" ") or raw.startswith("#"):
            continue
        line = Line(k, raw)
        if len(line.fields) < 2:
            raise _fail("expected a pointer, a TAB and a code point", line, 0, written, file)
        pointer = _pointer(line, written, file)
        value = _code_points(line, 1, written, file)
        if pointer in seen:
            raise _fail(f"pointer {pointer} is given twice (first on line {seen[pointer]})", line, 0, written, file)
        seen[pointer] = line.number
        if isinstance(value, tuple):
            sequences.append((pointer, value))
            continue
        entries.append((pointer, value))
        numbers.append(line.number)
    if not entries and not sequences:
        raise SpecError(f"table file '{written}' has no entries", loc)
    return IndexFile(tuple(entries), tuple(numbers), sha.hexdigest(), tuple(sequences))


def read_permutation_file(spec_path: str, written: str, loc: Loc) -> bytes:
    """The real byte of each intermediate byte 00..FF (``bytes through``): lines
    ``0xINTERMEDIATE<TAB>0xREAL``, every byte once on each side (a one-to-one map, so a
    decoder's offsets are the same in both)."""
    file = resolve(spec_path, written, loc)
    real: dict[int, int] = {}
    first_line: dict[int, int] = {}  # intermediate byte -> its line
    taken: dict[int, int] = {}  # real byte -> the line that took it
    for line in _entry_lines(_lines(file, written, loc, lambda _raw: None)):
        if len(line.fields) < 2:
            raise _fail("expected an intermediate byte, a TAB and a real byte (0xHH each)", line, 0, written, file)
        pair = []
        for k in (0, 1):
            raw = line.fields[k]
            if not ONE_BYTE.fullmatch(raw):
                raise _fail(f"byte {raw!r} is not 0x and two ASCII hex digits", line, k, written, file)
            pair.append(int(raw[2:], 16))
        mid, out = pair
        if mid in first_line:
            raise _fail(f"intermediate byte {mid:02X} is given twice (first on line {first_line[mid]})",
                        line, 0, written, file)
        if out in taken:
            raise _fail(f"real byte {out:02X} is given twice (first on line {taken[out]}): not a permutation",
                        line, 1, written, file)
        first_line[mid], taken[out] = line.number, line.number
        real[mid] = out
    missing = [b for b in range(256) if b not in real]
    if missing:
        shown = " ".join(f"{b:02X}" for b in missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise SpecError(f"table file '{written}' is not a permutation of 00..FF: no entry for "
                        f"{len(missing)} intermediate byte(s): {shown}", loc)
    return bytes(real[b] for b in range(256))


def line_text(spec_path: str, written: str) -> str:
    """The text of a table file already read (for a warning's excerpt; "" if it is gone)."""
    try:
        return (Path(spec_path).parent if spec_path and not spec_path.startswith("<") else Path.cwd()
                ).joinpath(written).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


EncodeKey = int | tuple[int, ...]  # a code point, or a sequence of them


def read_encode_file(spec_path: str, written: str, loc: Loc
                     ) -> tuple[tuple[tuple[EncodeKey, bytes | None], ...], str]:
    """((code point or sequence, bytes or None), ...) of an encoder table, each line
    checked, and its SHA-256."""
    file = resolve(spec_path, written, loc)
    sha = hashlib.sha256()
    out: list[tuple[EncodeKey, bytes | None]] = []
    seen: dict[EncodeKey, int] = {}
    for line in _entry_lines(_lines(file, written, loc, sha.update)):
        if len(line.fields) < 2:
            raise _fail("expected a code point, a TAB and bytes (0x…) or -", line, 0, written, file)
        cp = _code_points(line, 0, written, file)
        if cp in seen:
            raise _fail(f"{_shown(cp)} is given twice (first on line {seen[cp]})", line, 0, written, file)
        seen[cp] = line.number
        raw = line.fields[1]
        if raw == "-" and isinstance(cp, tuple):
            raise _fail("a sequence cannot be refused ('-'): leave out a sequence the encoder does not write",
                        line, 1, written, file)
        if raw == "-":
            out.append((cp, None))
        elif HEX_BYTES.fullmatch(raw):
            out.append((cp, bytes.fromhex(raw[2:])))
        else:
            raise _fail(f"bytes {raw!r} are not 0x and an even number of ASCII hex digits", line, 1, written, file)
    return tuple(out), sha.hexdigest()


def _shown(key: EncodeKey) -> str:
    return " ".join(f"U+{c:04X}" for c in (key if isinstance(key, tuple) else (key,)))
