"""The conformance vectors an exported package's own tests check (C `make check`, Rust `cargo test`).

For a built-in spec they are the checked-in ``generated/vectors/NAME.jsonl``,
which other tests cross-check against independent implementations; for any
other spec (or an install without those files) they are what ``encspec
vectors`` computes from the spec now, which the caller passes in
(:func:`encspec.pipeline.render_files`: emit never runs an analysis).  Either way the package's code is
checked against the reference tokenizer's answers, not against itself.  A
few cases of each numbered subsection are kept, so every kind of case
(correct text, boundaries, malformed, overlong, excluded, counted) is there
and the test stays small.
"""
from __future__ import annotations

import hashlib
import json
from importlib import resources

from ..automaton import Automaton
from ..spec import registry

PER_GROUP = 4  # cases kept per subsection: its first two and last two


def checked_in(a: Automaton, suffix: str = ".jsonl") -> str | None:
    """The checked-in vectors' text when *a* is a built-in spec (same bytes) and the file is there
    (*suffix* ``.encode.jsonl``: the encode vectors)."""
    try:
        builtin = registry.find_builtin(a.name)
        if hashlib.sha256(builtin.read_bytes()).hexdigest() != a.spec_sha256:
            return None
        path = resources.files("encspec.generated") / "vectors" / f"{registry.module_name(a.name)}{suffix}"
        return path.read_text("utf-8") if path.is_file() else None
    except (KeyError, OSError, ModuleNotFoundError, TypeError):
        return None


def _text(a: Automaton, suffix: str, computed: str | None, what: str, made: str) -> tuple[str, str]:
    """(where they come from, the jsonl text): the checked-in file of a built-in, else *computed*."""
    text = checked_in(a, suffix)
    if text is not None:
        return f"generated/vectors/{registry.module_name(a.name)}{suffix} (checked-in {what})", text
    if computed is not None:
        return made, computed
    raise ValueError(f"{a.name}: no checked-in {what}, and none given (encspec.pipeline.render_files computes them)")


def vectors(a: Automaton, bits: int | None = None, computed: str | None = None) -> tuple[str, list[dict]]:
    """(where they come from, [{"note", "data": bytes, "tokens": [(kind, start, end, value)]}]).

    *computed*: ``encspec vectors --format jsonl`` of *a*, for a spec with no
    checked-in vectors.  With *bits*, a char wider than that is the documented
    error token of the 64-bit targets (same span, value 0); other tokens' value is 0 too."""
    source, text = _text(a, ".jsonl", computed, "conformance vectors",
                         "`encspec vectors` of this spec, computed at export time by the reference tokenizer")
    groups: dict[str, list[dict]] = {}
    for line in text.split("\n"):  # not splitlines: notes may hold U+2028
        if not line.strip():
            continue
        case = json.loads(line)
        key = ".".join(case["note"].split()[0].split(".")[:2])
        if any(value is not None and ("+" in str(value) or value == "") for _, _, _, value in case["tokens"]):
            continue  # a table entry of several code points (CA+304), a run of digits of none: run-tokens' tests have those
        toks = []
        for kind, start, end, value in case["tokens"]:
            v = 0 if value is None else int(value, 16)
            if kind == "char" and bits is not None and v >= 1 << bits:
                kind, v = "error", 0
            toks.append((kind, start, end, v if kind == "char" else 0))
        groups.setdefault(key, []).append({"note": case["note"], "data": bytes.fromhex(case["bytes"]),
                                           "tokens": toks})
    out = []
    for cases in groups.values():
        half = PER_GROUP // 2
        out += cases if len(cases) <= PER_GROUP else cases[:half] + cases[-half:]
    return source, out


def token_text(tokens) -> str:
    """The tokens as `encspec tokens` prints them, joined by '; ' (the C check compares this)."""
    parts = []
    for kind, start, end, value in tokens:
        parts.append(f"char {start} {end} {value:X}" if kind == "char" else f"{kind} {start} {end}")
    return "; ".join(parts)


def encode_cases(a: Automaton, computed: str | None = None) -> tuple[str, list[dict]]:
    """(where they come from, the encode vectors): each ``{"code_points": [int], "strict":
    {"bytes": bytes} | {"error": (start, end, reason)}, "replace": bytes | None, "note"}``.

    The checked-in ``generated/vectors/NAME.encode.jsonl`` of a built-in, else *computed*
    (``encspec.analyse.encode_vectors.jsonl`` of *a*, which the pipeline passes in)."""
    source, text = _text(a, ".encode.jsonl", computed, "encode vectors",
                         "the encode vectors of this spec, computed at export time by the reference encoder")
    out = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        case = json.loads(line)
        strict = case["strict"]
        out.append({
            "code_points": [int(c, 16) for c in case["code_points"]],
            "strict": {"bytes": bytes.fromhex(strict["bytes"])} if "bytes" in strict
            else {"error": (strict["error"][0], strict["error"][1], strict["error"][2])},
            "replace": None if case["replace"] is None else bytes.fromhex(case["replace"]),
            "note": case["note"],
        })
    return source, out
