"""``encspec bench``: decoding throughput side by side, in one run, best of N.

Four seeded corpora (ASCII prose; Latin with ~20% 2-byte characters in UTF-8;
CJK, mostly 3-byte; emoji-heavy, ~25% 4-byte), each encoded with the spec under
test, then timed: CPython decoding the same text (the baseline), the generated
module in pure Python ("python") and with its compiled extension ("native",
when it is built), the hand-written oracle (from a checkout's tests/oracles, on
a slice: it is slow) and, with ``--export c``, the exported C decoder.

The baseline is CPython's own codec of the spec where CPython has one
(CPYTHON_CODECS: utf-16le is timed against ``bytes.decode("utf-16-le")`` on the
very bytes the spec's encoder wrote, so the ratio compares like with like);
a spec with mapping tables is timed against CPython's codec of the nearest
name (whatwg-shift_jis against shift_jis, euc-kr against euc_kr, gb18030-2022
against gb18030: the name or an alias, without a ``whatwg-`` prefix and then
without its last ``-`` parts, that ``codecs.lookup`` knows first), on
the bytes that codec writes for the same text; for any other spec it is
``bytes.decode("utf-8")`` of the same text.

A spec with mapping tables cannot write every character of the corpora: its
"cjk" corpus is text of its own script instead (Japanese: kana and kanji;
Chinese: hanzi; Korean: hangul, chosen by the baseline codec's name), of
characters that both it and the baseline write in two bytes (the common ones:
a text of rare characters in three or four bytes would time something else),
and the other corpora keep only the characters both can write.  Memory:
the peak traced by tracemalloc during one decode over the size of the str it
returns, per backend.  A benchmark, not a test.

The pure-Python decoder reads text of a table spec's script at about 1 MB/s: for
such a spec it is timed (and its memory traced) on the first PY_TABLE_BYTES of
each payload only (the bytes of the corpus's first characters; the row says so).

Encoding is timed too (``encode`` rows, after the decode rows): the generated
module's encode (pure Python, and backed by its extension, whose loop writes the
characters the module has met before: timed once warm, that is after a first
call) against CPython's codec of the same name, on the same text, each in MB/s
of the bytes written.  And for a spec with mapping tables, what the tables take:
the pure-Python module's table objects (sys.getsizeof of the str and tuples,
deep, each object once), the inverse maps and memo its encoder built for the
corpus, the extension's arrays (the C export's, TABLE_BYTES, and those it
derives at import, DERIVED_TABLE_BYTES) and its encoder's memo (two bytearrays).

``quick=True`` (``encspec bench --quick``): 256 KiB corpora, best of 2, no
damaged corpora, the pure-Python decoder on 64 KiB of a table spec's text.
"""
from __future__ import annotations

import importlib
import random
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

CORPORA = ("ascii", "latin", "cjk", "emoji")
PY_TABLE_BYTES = 512 << 10  # what the pure-Python decoder reads of a table spec's payload
QUICK = {"size": 256 << 10, "repeat": 2, "invalid": False, "py_table_bytes": 64 << 10}
# Specs CPython decodes itself, with the name of its codec (CPython's utf-16 and utf-32
# read the machine's byte order without a BOM: see baseline()).
CPYTHON_CODECS = {
    "utf-8": "utf-8",
    "utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "utf-16": "utf-16",
    "utf-32le": "utf-32-le", "utf-32be": "utf-32-be", "utf-32": "utf-32",
}
_WORDS = ("the of and to in is was for that with as on by at from this which but not are have had be it "
          "one all their there were been has when who will more no if out so said what up its about into "
          "than them can only other new some could time these two may then do first any my now such like").split()
_LATIN = "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœ"


def corpus(kind: str, size: int, seed: int = 2026) -> str:
    """Seeded text of about *size* UTF-8 bytes."""
    rnd = random.Random(f"{kind}-{seed}")
    parts, total = [], 0
    while total < size:
        if kind == "ascii":
            w = rnd.choice(_WORDS)
        elif kind == "latin":  # ~20% of characters take 2 bytes
            w = "".join(rnd.choice(_LATIN) if rnd.random() < 0.2 else c for c in rnd.choice(_WORDS))
        elif kind == "cjk":  # mostly 3-byte, a few ASCII spaces and digits
            w = "".join(chr(rnd.randint(0x4E00, 0x9FFF)) for _ in range(rnd.randint(2, 12)))
        else:  # emoji-heavy: ~25% 4-byte
            w = "".join(chr(rnd.randint(0x1F300, 0x1F64F)) if rnd.random() < 0.25 else c
                        for c in rnd.choice(_WORDS) + "   "[: rnd.randint(0, 2)])
        if rnd.random() < 0.08:
            w += rnd.choice(".,;!?") + ("\n" if rnd.random() < 0.3 else "")
        parts.append(w)
        total += len(w.encode("utf-8")) + 1
    return " ".join(parts)


def corrupt(data: bytes, rate: float = 0.01, seed: int = 7) -> bytes:
    """About *rate* of the bytes replaced by bytes that are never valid in UTF-8."""
    rnd = random.Random(seed)
    out = bytearray(data)
    for _ in range(int(len(out) * rate)):
        out[rnd.randrange(len(out))] = rnd.choice((0xFF, 0xC0, 0x80, 0xF5))
    return bytes(out)


BUDGET = 3.0  # seconds: a timing repeated past this (best of fewer) says so in its row's notes


def best_of(fn: Callable[[], object], repeat: int, budget: float | None = None) -> float:
    """The best time of *repeat* calls; with *budget*, no call starts after that many
    seconds (at least one does)."""
    best = float("inf")
    begun = time.perf_counter()
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        if budget is not None and time.perf_counter() - begun > budget:
            break
    return best


@dataclass
class Row:
    spec: str
    corpus: str
    errors: str
    size: int
    results: dict = field(default_factory=dict)  # column -> MB/s
    notes: dict = field(default_factory=dict)
    peaks: dict = field(default_factory=dict)  # backend -> peak traced memory / result size
    baseline: str = "cpython utf-8"  # the column the backends are compared with
    op: str = "decode"  # or "encode" (size: the bytes written)

    @property
    def codec(self) -> str:
        return self.baseline.split(" ", 1)[1]


def _has_tables(module) -> bool:
    return bool(getattr(module, "_TABLES", ()))


def table_codec(module) -> str | None:
    """CPython's codec of the nearest name for a spec with mapping tables: its name
    (without a ``whatwg-`` prefix) or one of its aliases, as ``codecs.lookup`` knows
    it; None when CPython has none."""
    import codecs
    names = []
    for name in [module.NAME, *getattr(module, "ALIASES", ())]:
        if name.startswith("whatwg-"):
            name = name[len("whatwg-"):]
        while name:  # gb18030-2022, then gb18030
            names.append(name)
            name = name.rpartition("-")[0]
    for name in names:
        try:
            return codecs.lookup(name).name
        except LookupError:
            continue
    return None


# The script of a CJK codec's text, by the codec's name.
_SCRIPTS = {"ja": ("shift_jis", "cp932", "euc_jp", "euc-jp", "iso2022_jp", "shift_jis_2004", "euc_jis_2004"),
            "ko": ("euc_kr", "euc-kr", "cp949", "johab"),
            "zh": ("big5", "big5hkscs", "cp950", "gb2312", "gbk", "gb18030", "hz")}
_SCRIPT_RANGES = {"ja": ((0x3041, 0x3093, 5), (0x30A1, 0x30F3, 1), (0x4E00, 0x9FA0, 4)),
                  "zh": ((0x4E00, 0x9FA5, 1),),
                  "ko": ((0xAC00, 0xD7A3, 1),)}


def _writes(module, codec, ch: str, two: bool) -> bool:
    try:
        ours = module.encode(ch)
        theirs = ch.encode(codec) if codec else ours
    except UnicodeEncodeError:
        return False
    return not two or (len(ours) == 2 and len(theirs) == 2)


def table_corpus(kind: str, size: int, module, codec: str | None, seed: int = 2026) -> str:
    """The corpus *kind* for a spec with mapping tables (see above)."""
    if kind != "cjk":
        text = corpus(kind, size, seed)
        keep = {ch for ch in set(text) if _writes(module, codec, ch, False)}
        return "".join(ch for ch in text if ch in keep)
    script = next((s for s, names in _SCRIPTS.items() if (codec or "").replace("-", "_") in
                   [n.replace("-", "_") for n in names]), "zh")
    pools = []
    for lo, hi, weight in _SCRIPT_RANGES[script]:
        pool = [chr(c) for c in range(lo, hi + 1) if _writes(module, codec, chr(c), True)]
        if pool:
            pools.append((pool, weight))
    if not pools:
        return corpus("ascii", size, seed)
    rnd = random.Random(f"{kind}-{script}-{seed}")
    choices = [p for p, w in pools for _ in range(w)]
    parts, total = [], 0
    while total < size:  # runs of 2 to 12 characters, a space or a punctuation mark between
        w = "".join(rnd.choice(rnd.choice(choices)) for _ in range(rnd.randint(2, 12)))
        if rnd.random() < 0.08:
            w += rnd.choice(".,;!?") + ("\n" if rnd.random() < 0.3 else "")
        parts.append(w)
        total += 2 * len(w) + 1
    return " ".join(parts)


def baseline(name: str, text: str, data: bytes, codec: str | None = None) -> tuple[str, bytes]:
    """(CPython's codec, the bytes it decodes) for the baseline of spec *name*: its own
    codec on the spec's own bytes *data* when CPython has one that reads them as
    *text* (utf-16 without a BOM is the machine's order for CPython: on a big-endian
    machine its own encoding, BOM included, is timed instead); else utf-8 of *text*."""
    codec = codec or CPYTHON_CODECS.get(name)
    if codec is None:
        return "utf-8", text.encode("utf-8")
    try:
        if data.decode(codec) == text:
            return codec, data
    except UnicodeDecodeError:
        pass
    return codec, text.encode(codec)


def _oracle(name: str):
    root = Path(__file__).resolve().parents[2] / "tests"
    if not (root / "oracles").is_dir():
        return None
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(f"oracles.{name}")
    except ImportError:
        return None
    finally:
        sys.path.remove(str(root))


def peak_ratio(decode: Callable[[], str]) -> float:
    """Peak traced memory during decode() over the size of the str it returns."""
    tracemalloc.start()
    try:
        result = decode()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / max(1, sys.getsizeof(result))


def _prefix_bytes(module, text: str, limit: int) -> bytes:
    """The spec's bytes of the longest prefix of *text* (cut at a space when there is
    one) whose bytes are at most about *limit*."""
    data = module.encode(text)
    if len(data) <= limit:
        return data
    k = max(1, len(text) * limit // len(data))
    cut = text.rfind(" ", 0, k)
    return module.encode(text[:cut if cut > 0 else k])


def run(specs: list[str], size: int, repeat: int, export_c: bool, invalid: bool,
        progress: Callable[[str], None] = lambda s: None, py_table_bytes: int = PY_TABLE_BYTES,
        encode: bool = True) -> list[Row]:
    """Decode rows (per corpus, strict and, with *invalid*, replace on 1% damage),
    then with *encode* one encode row per corpus."""
    from ..spec import registry
    from ..runtime.codec import load
    from ..emit.native_build import NativeBuildError
    rows, encode_rows = [], []
    c_decoder = None
    for spec in specs:
        module = load(spec, backend="python")
        try:
            native, why = load(spec, backend="native"), ""
        except NativeBuildError as e:
            native, why = None, str(e)
        oracle = _oracle(registry.module_name(module.NAME))
        if export_c:
            from .bench_c import CDecoder
            c_decoder = CDecoder(spec)
        tables = _has_tables(module)
        nearest = table_codec(module) if tables else None
        for kind in CORPORA:
            progress(f"{spec} {kind} corpus")
            text = table_corpus(kind, size, module, nearest) if tables else corpus(kind, size)
            data = module.encode(text)
            codec, baseline_bytes = baseline(module.NAME, text, data, nearest)
            # the pure-Python decoder of a table spec reads a prefix only (it is slow on CJK)
            short = _prefix_bytes(module, text, py_table_bytes) if tables else data
            variants = [("strict", data, baseline_bytes, short)]
            if invalid:
                variants.append(("replace", corrupt(data), corrupt(baseline_bytes), corrupt(short)))
            for errors, payload, base, py_payload in variants:
                progress(f"{spec} {kind} {errors}")
                row = Row(spec, kind, errors, len(payload), baseline=f"cpython {codec}")
                mb = len(payload) / 1e6
                row.results[row.baseline] = len(base) / 1e6 / best_of(lambda: base.decode(codec, errors), repeat)
                row.results["python"] = len(py_payload) / 1e6 / best_of(lambda: module.decode(py_payload, errors),
                                                                        repeat)
                if len(py_payload) < len(payload):
                    row.notes["python"] = f"timed on the first {len(py_payload)} bytes"
                if native is not None:
                    row.results["native"] = mb / best_of(lambda: native.decode(payload, errors), repeat)
                else:
                    row.notes["native"] = why
                if oracle is not None:
                    part = payload[: min(len(payload), 1 << 20)]
                    row.results["oracle"] = len(part) / 1e6 / best_of(lambda: oracle.tokens(part), 1)
                    row.notes["oracle"] = f"timed on the first {len(part)} bytes"
                if c_decoder is not None:
                    row.results["exported c"] = c_decoder.throughput(payload, repeat)
                row.peaks["python"] = peak_ratio(lambda: module.decode(py_payload, errors))
                if native is not None:
                    row.peaks["native"] = peak_ratio(lambda: native.decode(payload, errors))
                rows.append(row)
            if encode:
                progress(f"{spec} {kind} encode")
                encode_rows.append(_encode_row(spec, kind, text, data, module, native, why, codec, repeat))
    return rows + encode_rows


def _encode_row(spec, kind, text, data, module, native, why, codec, repeat) -> Row:
    """Encoding *text*: CPython's *codec*, the module in pure Python and backed by its
    extension (each called once first, so that its memo holds the text's characters:
    the steady state is timed), in MB/s of the bytes written."""
    row = Row(spec, kind, "strict", len(data), baseline=f"cpython {codec}", op="encode")
    try:
        theirs = text.encode(codec)
    except UnicodeEncodeError:  # not one of CPython's codecs for this text: utf-8 instead
        codec, row.baseline = "utf-8", "cpython utf-8"
        theirs = text.encode(codec)
    row.results[row.baseline] = len(theirs) / 1e6 / best_of(lambda: text.encode(codec), repeat)
    backends = [("python", module)] + ([("native", native)] if native is not None else [])
    for name, m in backends:
        t = time.perf_counter()
        if m.encode(text) != data:
            raise AssertionError(f"{spec}: the {name} encoder disagrees with the pure-Python one")
        took = time.perf_counter() - t
        if took > BUDGET:  # slow: characters the module decides one by one, at every call
            row.notes[name] = f"slow: one call only ({took:.1f} s), its first"
            row.results[name] = len(data) / 1e6 / took
        else:
            row.results[name] = len(data) / 1e6 / best_of(lambda: m.encode(text), repeat, BUDGET)
    if native is None:
        row.notes["native"] = why
    elif not hasattr(native._NATIVE, "encode_memo"):
        row.notes["native"] = "the extension has no encode_memo (built before it): the module's own encoder"
    if theirs != data:
        row.notes["cpython"] = f"CPython's {codec} writes other bytes ({len(theirs)}) for this text"
    return row


def _deep_size(obj, seen: set) -> int:
    """sys.getsizeof of obj and of everything in it (str, tuples, dicts, lists), each object once."""
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, (tuple, list, set, frozenset)):
        size += sum(_deep_size(x, seen) for x in obj)
    return size


@dataclass
class TableMemory:
    spec: str
    tables: int
    entries: int
    python_tables: int  # the module's _TABLES, _ENCODE_ONLY and _TABLE_FORMS
    python_encoder: int  # what its encoder built so far: _INVERSE, _ENCODE_MEMO
    native_arrays: int | None  # the extension's TABLE_BYTES (None: no extension, or built before it)
    native_derived: int | None  # DERIVED_TABLE_BYTES
    native_memo: int | None  # the native encoder's memo (_MEMO_BYTES, _MEMO_LENS)


def table_memory(specs: list[str]) -> list[TableMemory]:
    """What the mapping tables of each spec that has some take (see the module's
    docstring); the encoders' shares as they are now (after ``run``: after the corpora)."""
    from ..runtime.codec import load
    from ..emit.native_build import NativeBuildError
    out = []
    for spec in specs:
        module = load(spec, backend="python")
        if not _has_tables(module):
            continue
        try:
            native = load(spec, backend="native")
        except NativeBuildError:
            native = None
        seen: set = set()
        python_tables = sum(_deep_size(getattr(module, n, ()), seen) for n in ("_TABLES", "_ENCODE_ONLY", "_TABLE_FORMS"))
        seen = set()
        python_encoder = sum(_deep_size(getattr(module, n, {}), seen) for n in ("_INVERSE", "_ENCODE_MEMO"))
        entries = 0
        for t in module._TABLES:
            entries += (sum(last - first + 1 for first, last in zip(t[6], t[8])) if t[0]
                        else sum(ch != t[3] for ch in t[2])) + len(t[4])
        ext = native._NATIVE if native is not None else None
        memo = None
        if native is not None and getattr(native, "_MEMO_LENS", None) is not None:
            memo = sys.getsizeof(native._MEMO_BYTES) + sys.getsizeof(native._MEMO_LENS)
        out.append(TableMemory(spec, len(module._TABLES), entries, python_tables, python_encoder,
                               getattr(ext, "TABLE_BYTES", None), getattr(ext, "DERIVED_TABLE_BYTES", None), memo))
    return out


def memory_table(mem: list[TableMemory]) -> str:
    head = ["spec", "tables", "entries", "python tables", "python encoder", "native arrays", "native derived",
            "native encode memo"]
    lines = [head]

    def kib(v):
        return "-" if v is None else f"{v / 1024:,.1f} KiB"

    for m in mem:
        lines.append([m.spec, str(m.tables), f"{m.entries:,}", kib(m.python_tables), kib(m.python_encoder),
                      kib(m.native_arrays), kib(m.native_derived), kib(m.native_memo)])
    return _columns(lines)


def _columns(lines: list[list[str]]) -> str:
    widths = [max(len(str(l[i])) for l in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(str(c).rjust(w) for c, w in zip(l, widths)) for l in lines)


def table(rows: list[Row]) -> str:
    """The decode rows, then the encode rows, as text: the baseline's codec and speed,
    then each backend's, the ratios to the baseline, and the memory peaks (decode);
    then the notes (slices, missing backends)."""
    parts = []
    for op in ("decode", "encode"):
        some = [r for r in rows if r.op == op]
        if some:
            parts.append(f"{op.upper()}\n" + _op_table(some))
    notes = []
    for r in rows:
        for k, v in r.notes.items():
            if v.startswith("timed on the first"):
                continue  # the tables' footnote says it
            line = f"  {r.spec} ({r.op}, {k}): {v}"
            if line not in notes:
                notes.append(line)
    if notes:
        parts.append("notes\n" + "\n".join(notes))
    return "\n\n".join(parts)


def _op_table(rows: list[Row]) -> str:
    columns = []
    for r in rows:
        for c in r.results:
            if c not in columns and c != r.baseline and not c.startswith("cpython "):
                columns.append(c)
    backends = [b for b in ("python", "native") if any(b in r.results for r in rows)]
    decode = rows[0].op == "decode"
    head = (["spec", "corpus", "errors", "MB", "cpython codec", "cpython MB/s"] + [f"{c} MB/s" for c in columns]
            + [f"{b}/cpython" for b in backends])
    if decode:
        head += ["python/oracle"] + [f"{b} peak/result" for b in backends]
    lines = [head]
    for r in rows:
        base = r.results[r.baseline]
        cells = [r.spec, r.corpus, r.errors, f"{r.size / 1e6:.1f}", r.codec, f"{base:.1f}"]
        cells += [f"{r.results[c]:.1f}" + ("*" if c in r.notes and "first" in r.notes[c] else "")
                  if c in r.results else "-" for c in columns]
        cells += [f"{r.results[b] / base:.3f}" if b in r.results else "-" for b in backends]
        if decode:
            cells.append(f"{r.results['python'] / r.results['oracle']:.1f}x" if "oracle" in r.results else "-")
            cells += [f"{r.peaks[b]:.2f}" if b in r.peaks else "-" for b in backends]
        lines.append(cells)
    text = _columns(lines)
    cut = {}
    for r in rows:
        for k, v in r.notes.items():
            if v.startswith("timed on the first"):
                cut[k] = max(cut.get(k, 0), int(v.split()[4]))
    if cut:
        text += "\n  * timed on a prefix of the payload: " + "; ".join(
            f"{k} on at most {n:,} bytes" + (" (a spec with mapping tables: it is slow on CJK)" if k == "python" else "")
            for k, n in cut.items())
    return text


def ratio_table(rows: list[Row]) -> str:
    """Per spec, native over CPython: decode (strict, then replace) and encode, per corpus."""
    specs = list(dict.fromkeys(r.spec for r in rows))
    kinds = list(dict.fromkeys(r.corpus for r in rows))
    head = ["spec", "cpython codec"] + [f"{op} {k}" for op in ("decode", "encode") for k in kinds]
    lines = [head]
    for spec in specs:
        cells = [spec, next(r.codec for r in rows if r.spec == spec)]
        for op in ("decode", "encode"):
            for k in kinds:
                got = [r for r in rows if r.spec == spec and r.op == op and r.corpus == k and r.errors == "strict"]
                cells.append(f"{got[0].results['native'] / got[0].results[got[0].baseline]:.2f}x"
                             if got and "native" in got[0].results else "-")
        lines.append(cells)
    return _columns(lines)


def as_json(rows: list[Row]) -> list[dict]:
    return [{"op": r.op, "spec": r.spec, "corpus": r.corpus, "errors": r.errors, "bytes": r.size,
             "cpython_codec": r.codec,
             "mb_per_s": {k: round(v, 3) for k, v in r.results.items()},
             "ratio_to_cpython": {k: round(v / r.results[r.baseline], 4) for k, v in r.results.items()},
             "peak_memory_over_result": {k: round(v, 3) for k, v in r.peaks.items()}, "notes": r.notes} for r in rows]


def memory_json(mem: list[TableMemory]) -> list[dict]:
    return [dict(vars(m)) for m in mem]


def wide_rows(specs: list[str], bits: int, repeat: int) -> list[dict]:
    """One random code point of *bits* bits, encoded and decoded by each backend
    (best of *repeat*): what a counted form costs per bit."""
    from .common import Fail
    from ..runtime.codec import load
    from ..emit.native_build import NativeBuildError
    cp = random.Random(2026).getrandbits(bits) | 1 << (bits - 1)
    rows = []
    for spec in specs:
        backends = [("python", load(spec, backend="python"))]
        try:
            backends.append(("native", load(spec, backend="native")))
        except NativeBuildError:
            pass
        for name, module in backends:
            try:
                data = module.encode([cp])
            except UnicodeEncodeError:
                raise Fail(f"{spec} cannot encode a {bits}-bit code point (it has no counted form that long)")
            if module.decode_codepoints(data) != [cp]:
                raise Fail(f"{spec} ({name}): the {bits}-bit code point does not decode to itself")
            rows.append({"spec": spec, "backend": name, "bits": bits, "bytes": len(data),
                         "encode_ms": 1000 * best_of(lambda: module.encode([cp]), repeat),
                         "decode_ms": 1000 * best_of(lambda: module.decode_codepoints(data), repeat)})
    return rows
