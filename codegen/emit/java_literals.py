"""Java string literals that carry tables: what java_target and java_encoder share.

A class initialiser may not exceed 64 KiB of bytecode, so big tables travel as
string constants of UTF-16 code units, unpacked when the class loads.
"""
from __future__ import annotations

JAVA_CHUNK = 16384  # chars in one string constant: at most 3 bytes each in modified UTF-8, under 65535


def _java_unit(u: int) -> str:
    """One UTF-16 code unit inside a Java string literal, ASCII only (see java_string)."""
    c = chr(u)
    if c == '"' or c == "\\":
        return "\\" + c
    if 0x20 <= u < 0x7F:
        return c
    if u < 0x80:
        return f"\\{u:03o}"
    return f"\\u{u:04x}"


def java_chunks(units: list[int], per_line: int = 16) -> list[list[str]]:
    """String literals of the code units, *per_line* to a literal, grouped in chunks of at
    most JAVA_CHUNK units (each chunk one constant: its literals joined with +)."""
    chunks = []
    for c in range(0, len(units), JAVA_CHUNK):
        part = units[c:c + JAVA_CHUNK]
        chunks.append(['"' + "".join(map(_java_unit, part[k:k + per_line])) + '"'
                       for k in range(0, len(part), per_line)])
    return chunks or [['""']]


def java_ints(values: list[int]) -> list[int]:
    return [u for v in values for u in (v >> 16, v & 0xFFFF)]
