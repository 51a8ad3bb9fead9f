"""WHATWG single-byte encodings and x-user-defined, written from the Encoding Standard's text.

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45), "Legacy single-byte
encodings" (the table naming each encoding's index: ISO-8859-8-I reads index
ISO-8859-8), "single-byte decoder", "single-byte encoder", "x-user-defined decoder"
and "x-user-defined encoder"; "Indexes" for the file format and *index pointer* (the
FIRST pointer of a code point).  The index files and the standard's list of
encodings (encodings.json) are read from specs/tables/whatwg/ as data: nothing here
imports ``codegen``, ``encspec`` or ``generated``.

A single-byte decoder never keeps state and never restores a byte, so every handler
result covers exactly the one byte it was given: a token is ``("char", i, i + 1, code
point)`` or ``("error", i, i + 1, None)``.  "replacement" mode writes U+FFFD for an
error; "fatal" mode stops at the first.  The encoders take scalar values; a surrogate
or a value beyond U+10FFFF (which the standard never hands an encoder) is refused like
a code point with no pointer.

API: ``NAMES`` (every spec name, ``whatwg-`` and the encoding's name in lower case),
``LABELS`` (spec name -> the standard's labels), ``tokens(name, data)``,
``decode_codepoints(name, data)`` (replacement mode), ``fatal_error(name, data)``
((start, end) of the error fatal mode stops at, or None) and
``encode_positions(name, code_points)`` -> (bytes, [indices of unencodable items]).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

INDEX_DIR = Path(__file__).resolve().parents[2] / "specs" / "tables" / "whatwg"
X_USER_DEFINED = "whatwg-x-user-defined"


@cache
def _encodings() -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """Spec name -> (index name or None for x-user-defined, labels)."""
    out: dict[str, tuple[str | None, tuple[str, ...]]] = {}
    for group in json.loads((INDEX_DIR / "encodings.json").read_text("utf-8")):
        for enc in group["encodings"]:
            name = enc["name"]
            if group["heading"] == "Legacy single-byte encodings":
                # "All but two single-byte encodings have a unique index": ISO-8859-8-I shares ISO-8859-8's
                index = "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()
                out["whatwg-" + name.lower()] = (index, tuple(enc["labels"]))
            elif name == "x-user-defined":
                out[X_USER_DEFINED] = (None, tuple(enc["labels"]))
    return out


NAMES = sorted(_encodings())
LABELS = {name: labels for name, (_, labels) in _encodings().items()}


@cache
def index_single_byte(name: str) -> dict[int, int]:
    """Index single-byte of *name*: pointer -> code point ("Indexes": each non-comment line
    split on U+0009 TAB, the pointer in decimal, the code point in hexadecimal)."""
    index = _encodings()[name][0]
    assert index is not None, name
    table: dict[int, int] = {}
    with open(INDEX_DIR / f"index-{index}.txt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            pointer, code_point = line.split("\t")[:2]
            table[int(pointer)] = int(code_point, 16)
    return table


@cache
def _index_pointers(name: str) -> dict[int, int]:
    """Code point -> its index pointer: "the first pointer corresponding to code point"."""
    out: dict[int, int] = {}
    for pointer, code_point in sorted(index_single_byte(name).items()):
        out.setdefault(code_point, pointer)
    return out


def _decode_byte(name: str, byte: int) -> int | None:
    """The decoder's handler for one byte: a code point, or None for error."""
    if byte < 0x80:                                   # "If byte is an ASCII byte"
        return byte
    if name == X_USER_DEFINED:
        return 0xF780 + byte - 0x80                   # "0xF780 + byte - 0x80"
    return index_single_byte(name).get(byte - 0x80)   # "index code point for byte - 0x80"


def _encode_code_point(name: str, code_point: int) -> int | None:
    """The encoder's handler for one scalar value: a byte, or None for error."""
    if code_point < 0x80:                             # "If codePoint is an ASCII code point"
        return code_point
    if name == X_USER_DEFINED:
        return code_point - 0xF780 + 0x80 if 0xF780 <= code_point <= 0xF7FF else None
    pointer = _index_pointers(name).get(code_point)   # "the index pointer for codePoint"
    return None if pointer is None else pointer + 0x80


def tokens(name: str, data: bytes) -> list[tuple[str, int, int, int | None]]:
    out: list[tuple[str, int, int, int | None]] = []
    for i, byte in enumerate(data):
        cp = _decode_byte(name, byte)
        out.append(("error", i, i + 1, None) if cp is None else ("char", i, i + 1, cp))
    return out


def decode_codepoints(name: str, data: bytes) -> list[int]:
    """"replacement" mode: U+FFFD for each error."""
    return [0xFFFD if value is None else value for _, _, _, value in tokens(name, data)]


def fatal_error(name: str, data: bytes) -> tuple[int, int] | None:
    """Where "fatal" mode stops: the first error's bytes, or None if there is none."""
    for kind, start, end, _ in tokens(name, data):
        if kind == "error":
            return (start, end)
    return None


def encode_positions(name: str, code_points: list[int]) -> tuple[bytes, list[int]]:
    """The bytes of every encodable item, and the indices of the others (each its own error)."""
    out = bytearray()
    refused: list[int] = []
    for k, cp in enumerate(code_points):
        byte = None if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF else _encode_code_point(name, cp)
        if byte is None:
            refused.append(k)
        else:
            out.append(byte)
    return bytes(out), refused
