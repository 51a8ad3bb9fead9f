"""One fuzz case, every operation, two backends: what the native extension and the
pure-Python module do with the same input must be the same, and incremental use
split anywhere must equal one-shot use.

A case is one bytes value (what a corpus file holds, what a fuzzer mutates), so
that any finding is reproduced from one file:

* decoding reads it as it is;
* encoding reads code points from it, each an unsigned LEB128 number (so a byte
  below 80 is an ASCII character, and three bytes reach every code point,
  surrogates included); a ``str`` takes each modulo 0x110000, a list of ints
  keeps them as they are (beyond U+10FFFF);
* a second text is the case decoded with "replace" (the spec's own characters,
  and U+FFFD, which some specs cannot encode);
* the split offsets of incremental and stream use come from a generator seeded
  with the case's SHA-256 (an encoder's never between a lead and a trail
  surrogate where the spec joins them: see ``whole_pairs``).

Incremental and stream use go through the codec's ``getregentry()`` classes (what
``codecs`` and ``open()`` use: the signature-writing encoder where the spec writes one).

``check`` returns the findings (empty: none), one line each.  An exception other
than UnicodeError from any operation is a finding too: bad input never gives a
traceback.
"""
from __future__ import annotations

import hashlib
import io
import random
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from types import ModuleType
from typing import Any

DECODE_HANDLERS = ("strict", "replace", "ignore", "surrogateescape", "backslashreplace")
ENCODE_HANDLERS = ("strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace",
                   "surrogateescape", "surrogatepass")
INT_HANDLERS = ("strict", "replace", "ignore")  # lists of ints: the handlers that need no str
MAX_CASE = 1 << 15  # bytes of a case read (a fuzzer's longer inputs are cut)


def outcome(call: Callable[[], Any]) -> tuple:
    """What *call* did, comparable across backends: ("ok", value), or the
    UnicodeError's type, start, end and reason, or ("CRASH", …) for any other
    exception (a finding wherever it appears)."""
    try:
        return ("ok", call())
    except UnicodeError as e:
        return (type(e).__name__, getattr(e, "start", None), getattr(e, "end", None), getattr(e, "reason", str(e)))
    except Exception as e:  # noqa: BLE001 - any other exception is a finding, reported by check
        return ("CRASH", type(e).__name__, str(e)[:200])


def code_points(case: bytes) -> list[int]:
    """The case read as unsigned LEB128 numbers (an unfinished last one ends there)."""
    out, value, shift = [], 0, 0
    for b in case:
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80 or shift >= 35:
            out.append(value)
            value, shift = 0, 0
    if shift:
        out.append(value)
    return out


def splits(case: bytes, length: int, salt: str) -> list[int]:
    """Sorted cut offsets in 0..length (a few, some repeated: empty pieces too)."""
    rng = random.Random(hashlib.sha256(salt.encode() + case).digest())
    return sorted(rng.randrange(length + 1) for _ in range(rng.randrange(1, 6)))


def pieces(seq, cuts: list[int]) -> list:
    bounds = [0, *cuts, len(seq)]
    return [seq[a:b] for a, b in pairwise(bounds)]


def incremental_decode(module: ModuleType, data: bytes, errors: str, cuts: list[int]) -> str:
    dec = module.getregentry().incrementaldecoder(errors)
    return "".join(dec.decode(p) for p in pieces(data, cuts)) + dec.decode(b"", True)


def incremental_encode(module: ModuleType, text, errors: str, cuts: list[int]) -> bytes:
    enc = module.getregentry().incrementalencoder(errors)
    return b"".join(enc.encode(p) for p in pieces(text, cuts)) + enc.encode(text[:0], True)


def stream_read(module: ModuleType, data: bytes, sizes: list[int]) -> str:
    """StreamReader.read in the given sizes, then to the end ("replace")."""
    reader = module.getregentry().streamreader(io.BytesIO(data), "replace")
    out = [reader.read(size) for size in sizes]
    return "".join(out) + reader.read()


def stream_write(module: ModuleType, text: str, cuts: list[int]) -> bytes:
    """StreamWriter.write piece by piece, then close ("replace")."""
    sink = io.BytesIO()
    writer = module.getregentry().streamwriter(sink, "replace")
    for p in pieces(text, cuts):
        writer.write(p)
    writer.reset()
    return sink.getvalue()


def _is_trail(item: str | int) -> bool:
    cp = ord(item) if isinstance(item, str) else item
    return 0xDC00 <= cp <= 0xDFFF


def whole_pairs(seq, cuts: list[int]) -> list[int]:
    """*cuts* moved so that no piece starts with a trail surrogate: where an encoder
    joins a lead and a trail (PAIR_ON_ENCODE), a lead ending a piece is written at once
    and a trail starting the next goes to the error handler instead (the documented
    price of holding nothing back), so one-shot use is the reference only for the rest."""
    out = []
    for k in cuts:
        while k < len(seq) and _is_trail(seq[k]):
            k += 1
        out.append(k)
    return out


def _call(method: str, *args: Any, **kwargs: Any) -> Callable[[ModuleType], Any]:
    """``module.METHOD(*args, **kwargs)`` for whichever module it is given."""
    return lambda m: getattr(m, method)(*args, **kwargs)


def _with(function: Callable[..., Any], *args: Any) -> Callable[[ModuleType], Any]:
    """``function(module, *args)`` for whichever module it is given."""
    return lambda m: function(m, *args)


def _tokens(m: ModuleType, data: bytes) -> list[tuple]:
    return [tuple(t) for t in m.tokens(data)]


def operations(case: bytes, module_for_text: ModuleType) -> dict[str, Callable[[ModuleType], Any]]:
    """Every operation on *case*: name -> a call of one module."""
    data = case[:MAX_CASE]
    cps = code_points(data)
    text = "".join(chr(c % 0x110000) for c in cps)
    own = module_for_text.decode(data, "replace")
    pairs = whole_pairs if module_for_text.PAIR_ON_ENCODE else (lambda seq, cuts: cuts)
    ops: dict[str, Callable[[ModuleType], Any]] = {}
    for h in DECODE_HANDLERS:
        ops[f"decode {h}"] = _call("decode", data, h)
        cuts = splits(data, len(data), h)
        ops[f"IncrementalDecoder {h} at {cuts}"] = _with(incremental_decode, data, h, cuts)
    ops["decode_codepoints strict"] = _call("decode_codepoints", data)
    ops["decode_codepoints replace"] = _call("decode_codepoints", data, "replace")
    ops["tokens"] = _with(_tokens, data)
    ops["is_valid"] = _call("is_valid", data)
    ops["is_valid allow_reserved=False"] = _call("is_valid", data, allow_reserved=False)
    ops["first_error"] = _call("first_error", data)
    sizes = [max(1, b - a) for a, b in pairwise([0, *splits(data, len(data), "read")])]
    ops[f"StreamReader.read {sizes}"] = _with(stream_read, data, sizes)
    for name, t in (("text", text), ("own text", own)):
        for h in ENCODE_HANDLERS:
            ops[f"encode {name} {h}"] = _call("encode", t, h)
        for h in ("strict", "replace"):
            cuts = pairs(t, splits(data, len(t), name + h))
            ops[f"IncrementalEncoder {name} {h} at {cuts}"] = _with(incremental_encode, t, h, cuts)
        cuts = pairs(t, splits(data, len(t), name + "write"))
        ops[f"StreamWriter {name} at {cuts}"] = _with(stream_write, t, cuts)
    for h in INT_HANDLERS:
        ops[f"encode ints {h}"] = _call("encode", cps, h)
    cuts = pairs(cps, splits(data, len(cps), "ints"))
    ops[f"IncrementalEncoder ints replace at {cuts}"] = _with(incremental_encode, cps, "replace", cuts)
    return ops


# operations whose result must equal another's (the one-shot one)
def _same_as_one_shot(results: dict[str, tuple]) -> list[str]:
    out = []
    for op, got in results.items():
        word = op.split(" ", 1)[0]
        if word == "IncrementalDecoder":
            h = op.split()[1]
            want = results[f"decode {h}"]
        elif word == "StreamReader.read":
            want = results["decode replace"]
        elif word in ("IncrementalEncoder", "StreamWriter"):
            rest = op.split(" at ")[0].split(" ", 1)[1]
            if word == "StreamWriter":
                rest += " replace"
            want = results[f"encode {rest}"]
        else:
            continue
        if got[0] == "ok" and want[0] == "ok":
            if got != want:
                out.append(f"{op}: {_short(got)} but one-shot gives {_short(want)}")
        elif (got[0] == "ok") != (want[0] == "ok") or got[0] != want[0] or got[3:] != want[3:]:
            # an error in both: the same kind and reason (offsets are the piece's)
            out.append(f"{op}: {_short(got)} but one-shot gives {_short(want)}")
    return out


def _short(result: tuple) -> str:
    text = repr(result)
    return text if len(text) < 300 else text[:300] + "…"


def check(case: bytes, native: ModuleType | None, python: ModuleType) -> list[str]:
    """Findings on *case*: a crash, a difference between the backends (when *native*
    is given), a difference between incremental and one-shot use (each backend)."""
    findings = []
    ops = operations(case, python)
    for label, module in (("python", python), ("native", native)):
        if module is None:
            continue
        results = {op: outcome(partial(call, module)) for op, call in ops.items()}
        findings += [f"{label} {op}: {r}" for op, r in results.items() if r[0] == "CRASH"]
        findings += [f"{label} {line}" for line in _same_as_one_shot(results)]
        if label == "python":
            reference = results
        else:
            findings += [f"native {op}: {_short(r)} but python gives {_short(reference[op])}"
                         for op, r in results.items() if r != reference[op]]
    return findings
