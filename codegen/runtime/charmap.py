"""The single-byte rule: which specs CPython's table-driven C codec serves natively.

A spec whose every token is one byte long (from its one start state, each byte
class either ends a token at once or is an error on its own; no signature,
counted form or code unit wider than a byte) decodes like a 256-entry table and
encodes like its inverse.  CPython's ``codecs.charmap_decode`` and
``charmap_encode`` run exactly such tables in C (they are its cp1252, koi8_r, ...
codecs), so for these specs they are the native backend: the generated module
carries the two tables (``_CHARMAP``) and the core's ``_Charmap`` hook drives
them, handing every byte or code point they stop at back to the core, which
reports the spec's own reason and span.  No C is generated or compiled per spec.

The tables are read off the core bound to the automaton (it decodes each byte
and encodes each decoded code point), so they are the spec's by construction.
"""
from __future__ import annotations

import types

UNDEFINED = "\ufffe"  # charmap_decode's and charmap_build's "no entry"


def single_byte(bound: types.ModuleType) -> bool:
    """Whether every token of the bound core's automaton is exactly one byte long."""
    ns = bound.__dict__
    if len(ns["_STARTS"]) != 1 or ns["SIGNATURES"] or ns["_UNIT"] != 1 or ns["_EXTENSIONS"]:
        return False
    if ns["PAIR_ON_ENCODE"] or ns["PAIR_READS_AS_ONE"] or any(x is not None for x in ns["_AT_END"]):
        return False
    start = ns["_STARTS"][0]
    n_states, final = ns["_N_STATES"], ns["_FINAL"]
    return all(t < 0 or (t < n_states and final[t]) for t in ns["_NEXT"][start])


def tables(bound: types.ModuleType) -> tuple[str, str] | None:
    """``(decoding, encoding)``: per byte the code point it decodes to and the one
    that encodes to it (UNDEFINED where none does, or where it is for the core to
    decide), or None when the spec is not single-byte or a byte's value does not
    fit a charmap table (several code points, or U+FFFE itself)."""
    if not single_byte(bound):
        return None
    decoding = []
    for b in range(256):
        try:
            text = bound.decode(bytes([b]), "strict")
        except UnicodeDecodeError as e:  # the core's to report (a code point beyond U+10FFFF too)
            if (e.start, e.end) != (0, 1):
                return None
            text = UNDEFINED
        else:
            if len(text) != 1 or text == UNDEFINED:  # several code points, or U+FFFE itself
                return None
        decoding.append(text)
    encoding = [UNDEFINED] * 256
    for b, ch in enumerate(decoding):
        if ch == UNDEFINED:
            continue
        try:
            written = bound.encode(ch, "strict")
        except (UnicodeEncodeError, ValueError):
            continue
        if written == bytes([b]):
            encoding[b] = ch
    return "".join(decoding), "".join(encoding)
