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


def best_of(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
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


def run(specs: list[str], size: int, repeat: int, export_c: bool, invalid: bool,
        progress: Callable[[str], None] = lambda s: None) -> list[Row]:
    from ..spec import registry
    from ..runtime.codec import load
    from ..emit.native_build import NativeBuildError
    rows = []
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
            text = table_corpus(kind, size, module, nearest) if tables else corpus(kind, size)
            data = module.encode(text)
            codec, baseline_bytes = baseline(module.NAME, text, data, nearest)
            variants = [("strict", data, baseline_bytes)]
            if invalid:
                variants.append(("replace", corrupt(data), corrupt(baseline_bytes)))
            for errors, payload, base in variants:
                progress(f"{spec} {kind} {errors}")
                row = Row(spec, kind, errors, len(payload), baseline=f"cpython {codec}")
                mb = len(payload) / 1e6
                row.results[row.baseline] = len(base) / 1e6 / best_of(lambda: base.decode(codec, errors), repeat)
                row.results["python"] = mb / best_of(lambda: module.decode(payload, errors), repeat)
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
                row.peaks["python"] = peak_ratio(lambda: module.decode(payload, errors))
                if native is not None:
                    row.peaks["native"] = peak_ratio(lambda: native.decode(payload, errors))
                rows.append(row)
    return rows


def table(rows: list[Row]) -> str:
    """The rows as text: the baseline's codec and speed, then each decoder's, the ratios
    to the baseline, and the memory peaks."""
    columns = []
    for r in rows:
        for c in r.results:
            if c not in columns and c != r.baseline and not c.startswith("cpython "):
                columns.append(c)
    backends = [b for b in ("python", "native") if any(b in r.results for r in rows)]
    head = (["spec", "corpus", "errors", "MB", "cpython codec", "cpython MB/s"] + [f"{c} MB/s" for c in columns]
            + [f"{b}/cpython" for b in backends] + ["python/oracle"] + [f"{b} peak/result" for b in backends])
    lines = [head]
    for r in rows:
        base = r.results[r.baseline]
        cells = [r.spec, r.corpus, r.errors, f"{r.size / 1e6:.1f}", r.codec, f"{base:.1f}"]
        cells += [f"{r.results[c]:.1f}" if c in r.results else "-" for c in columns]
        cells += [f"{r.results[b] / base:.3f}" if b in r.results else "-" for b in backends]
        cells.append(f"{r.results['python'] / r.results['oracle']:.1f}x" if "oracle" in r.results else "-")
        cells += [f"{r.peaks[b]:.2f}" if b in r.peaks else "-" for b in backends]
        lines.append(cells)
    widths = [max(len(str(l[i])) for l in lines) for i in range(len(head))]
    return "\n".join("  ".join(str(c).rjust(w) for c, w in zip(l, widths)) for l in lines)


def as_json(rows: list[Row]) -> list[dict]:
    return [{"spec": r.spec, "corpus": r.corpus, "errors": r.errors, "bytes": r.size, "cpython_codec": r.codec,
             "mb_per_s": {k: round(v, 3) for k, v in r.results.items()},
             "ratio_to_cpython": {k: round(v / r.results[r.baseline], 4) for k, v in r.results.items()},
             "peak_memory_over_result": {k: round(v, 3) for k, v in r.peaks.items()}, "notes": r.notes} for r in rows]


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
