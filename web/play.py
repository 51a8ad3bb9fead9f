"""The playground's Python side: what the Web Worker asks of encspec, as JSON.

Pyodide runs this file after unpacking the wheels; every answer comes from the
functions the ``encspec`` commands call (``pipeline.load``, ``describe``,
``properties.check``, ``charts``, ``diff``, ``codec.load(...).tokens``),
never from a second implementation.  The spec being edited is written to a
file in a folder of its own, beside a link to the built-in tables, so a table
spec's ``"tables/..."`` paths resolve as they do next to ``specs/``.
It also runs under CPython (tests/test_playground.py imports it).
"""
from __future__ import annotations

import codecs
import json
import os
import re
import tempfile
from pathlib import Path

from encspec.analyse import charts, describe, properties
from encspec.analyse.diff import diff, text as diff_text
from encspec.pipeline import load
from encspec.codec import load as load_codec
from encspec.spec import registry
from encspec.spec.diagnostics import SpecError

SPEC_NAME = "spec.encspec"   # how errors name the spec being edited
OTHER_NAME = "other.encspec"  # the second spec of a diff
_HANDLER = "encspec.playground.collect"
_ROOT = Path(os.environ.get("ENCSPEC_PLAY_DIR") or tempfile.mkdtemp(prefix="encspec-play-"))
_writes = 0  # a new mtime per write, in whole seconds (Pyodide's file system keeps no
             # nanoseconds): pipeline.load caches by (path, mtime)


def _folder() -> Path:
    """The folder holding the edited specs, with ``tables`` linking to the built-in tables."""
    _ROOT.mkdir(parents=True, exist_ok=True)
    tables = _ROOT / "tables"
    if not tables.exists():
        try:
            tables.symlink_to(registry.specs_dir() / "tables", target_is_directory=True)
        except OSError:
            pass  # no symlinks here: table specs then name their missing file
    return _ROOT


def _write(name: str, text: str) -> str:
    """Write *text* as the spec file *name*; its path (relative: errors show ``spec.encspec``)."""
    global _writes
    path = _folder() / name
    path.write_text(text, "utf-8")
    _writes += 1
    os.utime(path, (_writes, _writes))
    return str(path)


_TITLE = re.compile(r'^\s*title\s+"([^"]*)"', re.M)


def examples() -> str:
    """The built-in specs, for the example menu: ``[{name, title, text}]``.  The title is
    read off the text, as the registry reads aliases: compiling all of them (the table
    specs' thousands of entries) would keep the page waiting."""
    out = []
    for path in registry.builtin_paths():
        text = path.read_text("utf-8")
        title = _TITLE.search(text)
        out.append({"name": path.stem, "title": title.group(1) if title else "", "text": text})
    return json.dumps(out)


def _error(e: SpecError) -> dict:
    loc = e.loc
    return {"line": loc.line if loc else None, "column": loc.column if loc else None,
            "message": e.message, "text": f"{SPEC_NAME}:{loc.line}:{loc.column}: {e.message}" if loc
            else f"{SPEC_NAME}: {e.message}"}


def _compile(name: str, text: str):
    """(spec, automaton, path) for spec *text*, or SpecError located in it."""
    path = _write(name, text)
    cwd = os.getcwd()
    os.chdir(_folder())  # pipeline names a spec by its path from the working folder
    try:
        spec, automaton = load(path)
    finally:
        os.chdir(cwd)
    return spec, automaton, path


def parse_input(value: str, mode: str, module) -> tuple[bytes | None, dict | None]:
    """The input's bytes: hex pairs (spaces, commas and 0x allowed), or text encoded with
    the spec; else None and where the input is wrong (``{index, message}``)."""
    if mode == "text":
        try:
            return module.encode(value), None
        except UnicodeEncodeError as e:
            return None, {"index": e.start, "message": f"character {e.start + 1} "
                          f"(U+{ord(value[e.start]):04X}) cannot be encoded: {e.reason}"}
    digits = []
    i = 0
    while i < len(value):
        c = value[i]
        if value[i:i + 2].lower() == "0x":
            i += 2
            continue
        if c in " \t\r\n,:-":
            i += 1
            continue
        if c not in "0123456789abcdefABCDEF":
            return None, {"index": i, "message": f"invalid hex digit {c!r} at character {i + 1}"}
        digits.append((i, c))
        i += 1
    if len(digits) % 2:
        return None, {"index": digits[-1][0], "message": f"odd number of hex digits ({len(digits)}): "
                      f"the last byte at character {digits[-1][0] + 1} has one digit"}
    return bytes.fromhex("".join(c for _, c in digits)), None


def _reasons(module, data: bytes) -> dict:
    """``{(start, end): reason}`` of every error the decoder reports, from its error handler."""
    found = {}

    def collect(e):
        found[(e.start, e.end)] = e.reason
        return "\ufffd", e.end
    codecs.register_error(_HANDLER, collect)
    try:
        module.decode(data, _HANDLER)
    except Exception as e:  # a decoder that cannot resume: its reason is still worth showing
        found[("failed",)] = str(e)
    return found


def _value(kind: str, value) -> str:
    if kind != "char":
        return ""
    return "+".join(f"{v:X}" for v in value) if isinstance(value, tuple) else f"{value:X}"


def tokens(module, data: bytes) -> list[dict]:
    """The tokens of *data* as ``encspec tokens`` prints them, with each error's reason."""
    reasons = _reasons(module, data)
    out = []
    for kind, start, end, value in module.tokens(data):
        shown = _value(kind, value)
        line = f"{kind} {start} {end}" + (f" {shown}" if shown else "")
        cp = None if kind != "char" or isinstance(value, tuple) else value
        out.append({"kind": kind, "start": start, "end": end, "bytes": data[start:end].hex(" ").upper(),
                    "value": shown, "line": line, "char": chr(cp) if cp is not None and cp < 0x110000 else "",
                    "reason": reasons.get((start, end), "")})
    return out


def _check(automaton) -> dict:
    report = properties.check(automaton)
    doc = report.to_json()
    doc["counterexamples"] = {name: [x.hex(" ").upper() if isinstance(x, bytes) else str(x) for x in ex]
                              for name, ex in report.counterexamples.items()}
    doc["names"] = list(properties.NAMES)
    return doc


def run(request: str) -> str:
    """One answer for the page: ``{error}`` or the spec's describe, check, chart, dot,
    tokens (or ``input_error``) and diff, as JSON.  *request* is JSON:
    ``{spec, input, mode, other, parts}``, *parts* naming the panels wanted."""
    req = json.loads(request)
    parts = set(req.get("parts") or ("describe", "check", "chart", "dot", "tokens", "diff"))
    try:
        spec, automaton, path = _compile(SPEC_NAME, req["spec"])
    except SpecError as e:
        return json.dumps({"error": _error(e)})
    out = {"name": automaton.name, "title": spec.title or ""}
    if "describe" in parts:
        out["describe"] = {"json": describe.to_json(automaton), "table": describe.table(automaton)}
    if "tokens" in parts:
        module = load_codec(path, backend="python")
        data, bad = parse_input(req.get("input", ""), req.get("mode", "hex"), module)
        if bad is not None:
            out["input_error"] = bad
        else:
            out["bytes"] = data.hex(" ").upper()
            out["tokens"] = tokens(module, data)
    if "check" in parts:
        out["check"] = _check(automaton)
    if "chart" in parts:
        out["chart"] = charts.codepage_svg(automaton)
    if "dot" in parts:
        out["dot"] = charts.automaton_dot(automaton)
    if "diff" in parts and req.get("other"):
        try:
            _, other, _ = _compile(OTHER_NAME, req["other"])
        except SpecError as e:
            out["diff"] = {"error": _error(e)["text"].replace(SPEC_NAME, OTHER_NAME, 1)}
        else:
            d = diff(automaton, other)
            out["diff"] = {"text": diff_text(d), "equivalent": d.equivalent}
    return json.dumps(out)
