"""Detect, then fall back: decode with a spec when the input is valid in it, else
decode all of it with a legacy encoding.

The encyclopedia article: "Software can check for UTF-8 correctness, and if that
fails assume the input to be in the legacy encoding."  The check is the spec's
own validity rule, the one ``encspec validate`` applies: an error makes the input
invalid; a signature at the start does not; a reserved run does not either
(corrected-utf-8.txt: reserved "rather than as invalid") unless
``allow_reserved=False``.  Valid input may still hold what text cannot (a reserved
run, a code point beyond U+10FFFF): decoding it goes through *errors* like any
problem.  The legacy decode is all or nothing too: the whole input, with *errors*
for bytes the legacy codec does not define (Python's cp1252 leaves 81, 8D, 8F,
90 and 9D undefined; ``errors="encspec.cp1252"`` maps them to C1 controls as
browsers do).
"""
from __future__ import annotations

import codecs
from collections.abc import Iterable

DEFAULT = "cp1252"


def legacy_codec(name: str) -> codecs.CodecInfo:
    """The Python text codec called *name* (encspec's own registered too); LookupError
    with a one-line message when there is none or it is not a text encoding."""
    from ..codec import register
    register()
    try:
        info = codecs.lookup(name)
    except (LookupError, TypeError, ValueError):
        raise LookupError(f"unknown fallback encoding '{name}' (any Python text codec: "
                          "cp1252, latin-1, cp437, shift_jis, …)") from None
    if not getattr(info, "_is_text_encoding", True):
        raise LookupError(f"'{name}' is not a text encoding, so it cannot be a fallback")
    return info


def first_problem(module, chunks: Iterable[bytes], allow_reserved: bool = True) -> tuple[int, str] | None:
    """``(byte offset, reason)`` of the first sequence that makes the input invalid in
    *module* (a codec module), or None when it is valid.  One streaming pass that stops
    at the first problem; memory stays bounded (the module keeps an unfinished sequence)."""
    from .stream import KIND, REASON, START, Scanner
    scanner = Scanner(module)

    def bad(problems):
        for p in problems:
            if p[KIND] == "error" or (p[KIND] == "reserved" and not allow_reserved):
                return p[START], p[REASON]
        return None

    for chunk in chunks:
        found = bad(scanner.feed(chunk))
        if found:
            return found
    return bad(scanner.feed(b"", final=True))


def why_not(module, problem: tuple[int, str]) -> str:
    """``not valid utf-8: byte 3: invalid start byte``."""
    return f"not valid {module.NAME}: byte {problem[0]}: {problem[1]}"


def decode_or_fallback(data, spec="utf-8", fallback: str = DEFAULT, errors: str = "strict",
                       allow_reserved: bool = True) -> tuple[str, str]:
    """``(text, used)``: *data* decoded with *spec* (a name, a ``.encspec`` path or a loaded
    module) if it is valid there, else all of it with the Python codec *fallback*;
    *used* is the spec's name or the codec's canonical name (``windows-1252`` → ``cp1252``).
    An unknown *fallback* or *errors* raises LookupError before anything is decoded."""
    info = legacy_codec(fallback)
    codecs.lookup_error(errors)
    if isinstance(spec, str):
        from ..codec import load
        spec = load(spec)
    data = bytes(data)
    if first_problem(spec, [data], allow_reserved) is None:
        return spec.decode(data, errors), spec.NAME
    return info.decode(data, errors)[0], info.name
