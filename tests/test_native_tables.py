"""The native backend on specs with mapping tables (issue 18): the extension decodes
table forms itself (a lead byte, a state, a pointer, an array load) and must give
exactly what the pure-Python decoder core gives: the same str, the same code
points, the same errors (start, end, reason) and the same calls to the error
handler, under strict, replace, ignore, surrogateescape, backslashreplace and a
custom handler; incrementally, fed in chunks of any size; and its `scan` is the
core's `_scan` (Big5's entries of two code points are one token whose value is
a tuple).  Encoding is the module's (no backend compiles an encoder): the
native-backed module must still write the same bytes.

Inputs, per spec with a `table` statement:

* every lead byte followed by every byte (one document per lead, ending in the
  lead alone), and for three- and four-byte forms every live two-byte prefix
  followed by every byte: the table's every pointer, every error span (one
  unit, through the failing byte, cut before a restored byte), data ending
  inside a sequence;
* seeded random documents of valid sequences, truncated and damaged ones;
* long texts of the spec's script (`encspec bench`'s corpus, past the 64 KiB
  at which the extension lets go of the GIL), clean and with 1% damage, and
  texts that make the str ASCII, Latin-1, two and four bytes a character (the
  extension allocates one str from an estimate and widens, narrows or grows it).

A spec that does not compile (one being written) skips with its error; a
missing extension skips (a failure under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import codecs
import random
import re
import shutil
import sys
from functools import cache

import pytest

import encspec
import tools
from codec_samples import native_extension_missing
from conftest import decode_in_chunks, extension_builtins
from encspec import pipeline
from encspec.bench.run import table_codec, table_corpus
from encspec.runtime.tables import digits_bytes
from encspec.spec import registry
from encspec.spec.diagnostics import SpecError

HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace", "test_native_tables.record"]

_SEEN: list = []


def _record(exc):
    _SEEN.append((exc.start, exc.end, exc.reason))
    return (f"<{exc.start}>", exc.end)


codecs.register_error("test_native_tables.record", _record)


def table_specs() -> list[str]:
    return sorted(p.stem for p in map(registry.find_builtin, extension_builtins())
                  if re.search(r"^table\s", p.read_text("utf-8"), re.M))


SPECS = table_specs()


@cache
def automaton(spec: str):
    try:
        return pipeline.load(spec)[1]
    except SpecError as e:
        return e


@cache
def _backends(spec: str):
    return encspec.load(spec, backend="python"), encspec.load(spec, backend="native")


def backends(spec: str):
    a = automaton(spec)
    if isinstance(a, SpecError):
        pytest.skip(f"{spec} does not compile (being written?): {str(a).splitlines()[0]}")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        tools.missing("no C compiler (cc) on PATH: the native backend cannot be built")
    why = native_extension_missing(registry.module_name(a.name))
    if why is not None:
        tools.missing(why)
    py, nat = _backends(spec)
    assert nat._NATIVE is not None and py._NATIVE is None
    return py, nat


def outcome(fn, data, errors):
    _SEEN.clear()
    try:
        return ("ok", fn(data, errors), list(_SEEN))
    except (UnicodeDecodeError, UnicodeEncodeError) as e:
        return ("error", e.start, e.end, e.reason, list(_SEEN))


def agree(py, nat, data, handlers=HANDLERS):
    """Both backends: the same str, code points or error, and the same handler calls."""
    for errors in handlers:
        want = outcome(py.decode, data, errors)
        assert outcome(nat.decode, data, errors) == want, (data[:60].hex(" "), len(data), errors)
    want = outcome(py.decode_codepoints, data, "replace")
    assert outcome(nat.decode_codepoints, data, "replace") == want, (data[:60].hex(" "), len(data))


# ------------------------------------------------------------------ inputs
@cache
def script_text(spec: str, size: int) -> str:
    """`encspec bench`'s "cjk" corpus of the spec: text of its script, about *size* bytes."""
    py = _backends(spec)[0]
    return table_corpus("cjk", size, py, table_codec(py))


def lead_documents(a) -> list[bytes]:
    """Per byte b: b before every byte, then b alone; per live two-byte prefix of a longer
    form (a class's first byte): the prefix before every byte, then the prefix alone."""
    docs = [b"".join(bytes([b, x]) for x in range(256)) + bytes([b]) for b in range(0x80, 0x100)]
    members = a.class_bytes()
    for c0 in range(a.n_classes):
        s1 = a.next[0][c0]
        if not 0 <= s1 < a.n_states:
            continue
        for c1 in range(a.n_classes):
            s2 = a.next[s1][c1]
            if 0 <= s2 < a.n_states and any(0 <= t < a.n_states for t in a.next[s2]):
                prefix = bytes([members[c0][0], members[c1][-1]])
                docs.append(b"".join(prefix + bytes([x]) for x in range(256)) + prefix)
    return docs


@cache
def valid_pieces(spec: str) -> list[bytes]:
    """The bytes of (a sample of) every table form's entries."""
    a = automaton(spec)
    rnd = random.Random(f"pieces:{spec}")
    out = []
    for f in a.forms.values():
        if getattr(f, "kind", "") != "table":
            continue
        t = a.tables[f.table]
        if t.ranges:
            pointers = [s for s in t.starts] + [rnd.randrange(s, last + 1) for s, last in zip(t.starts, t.lasts)]
        else:
            pointers = [t.base + k for k, v in enumerate(t.values) if v >= 0]
        overrides = getattr(t, "overrides", None)
        if overrides is None:
            overrides = getattr(t, "sequences", ())
        pointers += [p for p, _ in overrides]
        out += [digits_bytes(f.positions, p, f.order) for p in pointers]
    return out


def random_documents(spec: str, n: int, longest: int) -> list[bytes]:
    rnd = random.Random(f"docs:{spec}")
    pieces = valid_pieces(spec) or [b"A"]
    docs = []
    for _ in range(n):
        doc = bytearray()
        while len(doc) < rnd.randrange(1, longest):
            r = rnd.random()
            seq = rnd.choice(pieces)
            if r < 0.6:
                doc += seq
            elif r < 0.75:
                doc += bytes(rnd.randrange(0x20, 0x7F) for _ in range(rnd.randrange(1, 6)))
            elif r < 0.85:
                doc += seq[:-1] if len(seq) > 1 else seq
            elif r < 0.95:
                damaged = bytearray(seq)
                damaged[rnd.randrange(len(damaged))] = rnd.randrange(256)
                doc += damaged
            else:
                doc.append(rnd.randrange(0x80, 0x100))
        docs.append(bytes(doc))
    return docs


# ============================================================ it is there
@pytest.mark.parametrize("spec", SPECS)
def test_the_extension_reads_the_tables_itself(spec):
    """The module's extension is this spec's, and it decodes a clean text of the spec's
    script without leaving a token to the module (it stops only at the end; with modes,
    it takes the shifts itself and says the state it ended in, besides)."""
    py, nat = backends(spec)
    assert nat._NATIVE.SPEC_SHA256 == nat.SPEC_SHA256
    text = script_text(spec, 20_000)
    data = py.encode(text)
    out: list = []
    stop = nat._NATIVE.decode(data, 0, "strict", True, True, out, None, 0)
    if nat._MODES:
        stop = stop[0]
    assert stop == len(data)
    assert "".join(out) == text


# ================================================== exhaustive, both backends
@pytest.mark.parametrize("spec", SPECS)
def test_every_lead_before_every_byte(spec):
    py, nat = backends(spec)
    for doc in lead_documents(automaton(spec)):
        agree(py, nat, doc)
        agree(py, nat, doc[-3:], ["strict", "replace"])  # data ending inside a sequence


@pytest.mark.parametrize("spec", SPECS)
def test_random_documents(spec):
    py, nat = backends(spec)
    for doc in random_documents(spec, 150, 400):
        agree(py, nat, doc)


# ====================================================== long texts, str kinds
@pytest.mark.parametrize("spec", SPECS)
def test_long_texts_of_the_script(spec):
    """Past 64 KiB (the extension decodes without the GIL), clean and damaged; the str
    comes out canonical (the same size as the module's)."""
    py, nat = backends(spec)
    text = script_text(spec, 70_000)
    data = py.encode(text)
    got = nat.decode(data)
    assert got == text and sys.getsizeof(got) == sys.getsizeof(text)
    assert nat.decode_codepoints(data) == [ord(c) for c in text]
    broken = bytearray(data)
    rnd = random.Random(f"broken:{spec}")
    for _ in range(len(broken) // 100):
        broken[rnd.randrange(len(broken))] = rnd.choice((0xFF, 0x80, 0xA0, 0x30, 0x0A, rnd.randrange(256)))
    agree(py, nat, bytes(broken), ["strict", "replace", "test_native_tables.record"])


@pytest.mark.parametrize("spec", SPECS)
def test_the_str_is_widened_narrowed_and_grown(spec):
    """The one str the extension makes for a table spec starts two bytes a character:
    ASCII and Latin-1 texts must come out narrowed, supplementary characters widen it,
    handlers' replacements grow it."""
    py, nat = backends(spec)
    a = automaton(spec)
    pieces = valid_pieces(spec)
    singles = [p for p in pieces if py.decode(p, "replace") and len(py.decode(p, "replace")) == 1]
    wide = [p for p in singles if ord(py.decode(p)) > 0xFFFF]
    latin = [bytes([b]) for b in range(0x80, 0x100) if py.decode(bytes([b]), "replace") in
             [chr(c) for c in range(0x80, 0x100)]]
    cjk = singles[len(singles) // 2:len(singles) // 2 + 1] or [b"A"]
    cases = {
        "ascii": b"abc" * 25_000,
        "ascii, one bad byte": b"abc" * 25_000 + b"\xff" + b"abc" * 10,
        "ascii, a cut sequence": b"abc" * 5000 + (pieces[0][:1] if pieces and len(pieces[0]) > 1 else b"\xff"),
        "latin-1": (latin[0] if latin else b"a") * 1000 + b"abc" * 1000,
        "two bytes": cjk[0] * 5000,
        "bad bytes only": b"\xff" * 2000 + b"\x80" * 2000,
    }
    if wide:
        cases["astral late"] = cjk[0] * 5000 + wide[0] + b"a"
        cases["astral first"] = wide[-1] * 100 + b"abc" * 100
    if a.error_span != "maximal-subpart":
        cases["dense errors"] = (b"a" + pieces[0][:1] + b"\xff") * 1000 if pieces else b"\xff" * 3000
    for case, data in cases.items():
        agree(py, nat, data, ["strict", "replace", "ignore", "backslashreplace", "surrogateescape"])
        for errors in ("strict", "replace"):
            try:
                got, want = nat.decode(data, errors), py.decode(data, errors)
            except UnicodeDecodeError:
                continue
            assert got == want and sys.getsizeof(got) == sys.getsizeof(want), (case, errors)


# =============================================================== incremental
@pytest.mark.parametrize("spec", SPECS)
def test_incremental_decoding_in_chunks(spec):
    py, nat = backends(spec)
    docs = random_documents(spec, 4, 3000)
    text = script_text(spec, 3000)
    docs.append(py.encode(text) + (valid_pieces(spec)[0][:1] if valid_pieces(spec) else b"\xff"))
    for data in docs:
        for chunk in (1, 2, 3, 5, 64, 333):
            for errors in ("strict", "replace", "ignore", "backslashreplace", "surrogateescape"):
                assert decode_in_chunks(nat, data, errors, chunk) == decode_in_chunks(py, data, errors, chunk), \
                    (chunk, errors)


# ======================================================================= scan
@pytest.mark.parametrize("spec", SPECS)
def test_scan_is_the_cores(spec):
    """At every position of random documents, with final true and false (an entry of
    several code points is a tuple, as the module's)."""
    py, nat = backends(spec)
    for data in random_documents(spec, 30, 200) + lead_documents(automaton(spec))[:8]:
        for pos in range(len(data)):
            for final in (True, False):
                assert nat._NATIVE.scan(data, pos, final) == py._scan(data, pos, final), (data.hex(" "), pos, final)
    for p in valid_pieces(spec)[:3000]:
        assert nat._NATIVE.scan(p, 0, True) == py._scan(p, 0, True), p.hex(" ")


# ===================================================================== encode
@pytest.mark.parametrize("spec", SPECS)
def test_encoding_is_the_same(spec):
    """Every table entry's code points, and the spec's script, encoded through the
    native-backed module (its encoder is the module's: the same bytes)."""
    py, nat = backends(spec)
    text = "".join(py.decode(p, "replace") for p in random.Random(spec).sample(valid_pieces(spec),
                                                                               min(4000, len(valid_pieces(spec)))))
    for errors in ("strict", "replace"):
        want = outcome(lambda t, e: py.encode(t, e), text, errors)
        assert outcome(lambda t, e: nat.encode(t, e), text, errors) == want
    corpus_text = script_text(spec, 20_000)
    assert nat.encode(corpus_text) == py.encode(corpus_text)
    assert nat.decode(nat.encode(corpus_text)) == corpus_text
    enc_n, enc_p = nat.IncrementalEncoder("replace"), py.IncrementalEncoder("replace")
    pieces = [corpus_text[k:k + 777] for k in range(0, len(corpus_text), 777)]
    assert b"".join(enc_n.encode(p) for p in pieces) == b"".join(enc_p.encode(p) for p in pieces)
