"""``encspec bench``: every operation side by side, in one run, on CPU time, best of N.

Four seeded corpora (ASCII prose; Latin with ~20% 2-byte characters in UTF-8;
CJK, mostly 3-byte; emoji-heavy, ~25% 4-byte), each encoded with the spec under
test, then six sections (SECTIONS), each a table whose columns are the
implementations that can do it:

* decode: strict, on valid text;
* incremental: the same, fed to an IncrementalDecoder in 4 KiB chunks (CHUNK, cut
  wherever they fall), as streams, ``open()`` and ``encspec transcode`` read;
* replace: decoding after 1% and 10% of the bytes are damaged (``corrupt``), with
  ``errors="replace"`` and ``"surrogateescape"``;
* validate: ``is_valid`` (CPython has no validator: its strict decode is the baseline);
* encode: the text to the spec's bytes (MB/s of the bytes written);
* unencodable: encoding after 1% and 10% of the characters are replaced by ones
  neither the spec nor CPython's codec can write (``unencodable_chars``: lone
  surrogates U+DC80..U+DCFF where both refuse them), with each of codecs' handlers
  and a custom one (UNENCODABLE_HANDLERS), against CPython's codec with the same handler;
* transcode: utf-8 -> spec and spec -> utf-8 the way ``encspec transcode`` streams
  (``transcode_stream``), against CPython's incremental codecs on the same chunks;
* small: ``bytes.decode(name)`` and ``str.encode(name)`` of the text's 8-, 20- and
  100-byte prefixes (SMALL), SMALL_CALLS calls a timing, through the codec registry
  both ways: the spec's codec under a name only it answers to, CPython's codec of
  the same text (what database fields and protocol messages cost).

The columns: CPython (the baseline, see below), the generated module with its
compiled extension ("native") and in pure Python ("python"), the straightforward
token loop (``token_loop``: what the pure-Python path must beat), the hand-written
oracle (from a checkout's tests/oracles), the exported C decoder (built when a C
compiler is found; ``bench/c.py``), ``iconv`` and Node's ``buffer.isUtf8`` and
``TextDecoder`` (``bench/tools.py``: where the tool is on this machine, else "n/a (no
node)").  Every figure is CPU time, and each ratio is a column's speed over
CPython's on the same text.  The slow columns (pure Python, the token loop, the
oracle) read a prefix of the payload (PY_BYTES, TOKEN_BYTES), which the table marks.

The baseline is CPython's own codec of the spec where CPython has one
(CPYTHON_CODECS: utf-16le is timed against ``bytes.decode("utf-16-le")`` on the
very bytes the spec's encoder wrote, so the ratio compares like with like);
a spec with mapping tables is timed against CPython's codec of the nearest
name (whatwg-shift_jis against shift_jis, euc-kr against euc_kr, gb18030-2022
against gb18030: the name or an alias, without a ``whatwg-`` prefix and then
without its last ``-`` parts, that ``codecs.lookup`` knows first), on
the bytes that codec writes for the same text; for any other spec it is
``bytes.decode("utf-8")`` of the same text.  iconv and Node's TextDecoder follow
the same rule: the spec's own name where they know it, else their UTF-8 on the UTF-8
bytes of the same text (said in the notes); ``isUtf8`` always reads UTF-8 bytes.

A spec with mapping tables cannot write every character of the corpora: its
"cjk" corpus is text of its own script instead (Japanese: kana and kanji;
Chinese: hanzi; Korean: hangul, chosen by the baseline codec's name), of
characters that both it and the baseline write in two bytes (the common ones:
a text of rare characters in three or four bytes would time something else);
for the codecs whose tables hold sequences of code points (JIS X 0213's, HKSCS)
it is running text of common words (``_prose``: Japanese dense with the kana
that start sequences, Cantonese with its HKSCS characters),
and the other corpora keep only the characters both can write.  Memory:
the peak traced by tracemalloc during one decode over the size of the str it
returns, per backend.  And for a spec with mapping tables, what the tables take:
the pure-Python module's table objects (sys.getsizeof of the str and tuples,
deep, each object once), the inverse maps and memo its encoder built for the
corpus, the extension's arrays (the C export's, TABLE_BYTES, and those it
derives at import, DERIVED_TABLE_BYTES) and its encoder's memo (two bytearrays).

``quick=True`` (``encspec bench --quick``): 256 KiB corpora, best of 2, the slow
columns on 64 KiB.  ``lean=True`` (``encspec bench --catalogue``, over ``catalogue()``:
every built-in spec with a CPython codec): CPython and native only, replace at 1%
only, so that some 130 specs run in minutes; a single-byte spec's "cjk" corpus is
then prose in its own letters (``code_page_text``).  A benchmark, not a test.
"""
from __future__ import annotations

import codecs
import importlib
import itertools
import random
import sys
import tracemalloc
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .tools import cpu_best

if TYPE_CHECKING:
    from .c import CDecoder

CORPORA = ("ascii", "latin", "cjk", "emoji")
PY_TABLE_BYTES = 512 << 10  # what the pure-Python decoder reads of a table spec's payload
QUICK = {"size": 256 << 10, "repeat": 2, "py_bytes": 64 << 10, "py_table_bytes": 64 << 10}
# Specs CPython decodes itself, with the name of its codec (CPython's utf-16 and utf-32
# read the machine's byte order without a BOM: see baseline()).
CPYTHON_CODECS = {
    "utf-8": "utf-8",
    "utf-16le": "utf-16-le", "utf-16be": "utf-16-be", "utf-16": "utf-16",
    "utf-32le": "utf-32-le", "utf-32be": "utf-32-be", "utf-32": "utf-32",
    "utf-7": "utf-7",
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


CHUNK = 4 << 10  # the incremental rows' chunk: what streams and open() read at a time


def chunks(data: bytes, size: int = CHUNK) -> list[bytes]:
    """*data* cut every *size* bytes (wherever that falls: inside a character too)."""
    return [data[i:i + size] for i in range(0, len(data), size)]


def chunked_decode(decoder: Any, pieces: list[bytes]) -> int:
    """Feed *pieces* to an incremental *decoder*, then final: how many characters came out."""
    decode = decoder.decode
    n = 0
    for piece in pieces:
        n += len(decode(piece))
    return n + len(decode(b"", True))


def chunked_text(decoder: Any, pieces: list[bytes]) -> str:
    """What *decoder* makes of *pieces*, then final (chunked_decode's text, to check it)."""
    return "".join([*map(decoder.decode, pieces), decoder.decode(b"", True)])


def corrupt(data: bytes, rate: float = 0.01, seed: int = 7) -> bytes:
    """About *rate* of the bytes replaced by bytes that are never valid in UTF-8."""
    rnd = random.Random(seed)
    out = bytearray(data)
    for _ in range(int(len(out) * rate)):
        out[rnd.randrange(len(out))] = rnd.choice((0xFF, 0xC0, 0x80, 0xF5))
    return bytes(out)


def unencodable_chars(module, codec: str) -> list[str]:
    """Characters neither *module* nor CPython's *codec* can write: lone surrogates that
    surrogateescape escapes (U+DC80..U+DCFF) where both refuse them, else characters of a
    few scripts and emoji; empty where every character is written (WTF-8)."""
    import codecs
    codecs.register_error("encspec-bench", _bench_handler)

    def refused(ch: str) -> bool:
        for encode in (module.encode, lambda t: t.encode(codec)):
            try:
                encode(ch)
                return False
            except UnicodeEncodeError:
                pass
        return True

    escapes = [c for c in ("\udc80", "\udcab", "\udcff") if refused(c)]
    return escapes or [c for c in ("\U0001F600", "\u0e01", "\u05d0", "\u0627", "\ud800") if refused(c)]


def _bench_handler(exc: UnicodeError) -> tuple[str | bytes, int]:
    """The bench's custom handler: replace's "?" per character, from a Python function."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "?" * (exc.end - exc.start), exc.end


def unencodable(text: str, chars: list[str], rate: float, seed: int = 11) -> str:
    """About *rate* of the characters of *text* replaced by one of *chars*."""
    rnd = random.Random(seed)
    out = list(text)
    for _ in range(int(len(out) * rate)):
        out[rnd.randrange(len(out))] = rnd.choice(chars)
    return "".join(out)


def _has_tables(module) -> bool:
    return module.memory()["tables"] > 0


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


# The script of a CJK codec's text, by the codec's name: random characters of its
# ranges (_SCRIPT_RANGES), or, for the codecs whose tables hold sequences of code
# points (JIS X 0213's, HKSCS), running text of common words (_SCRIPT_WORDS).
_SCRIPTS = {"ja": ("shift_jis", "cp932", "euc_jp", "euc-jp", "iso2022_jp"),
            "ja-text": ("shift_jis_2004", "euc_jis_2004", "shift_jisx0213", "euc_jisx0213", "iso2022_jp_2004",
                        "iso2022_jp_3"),
            "ko": ("euc_kr", "euc-kr", "cp949", "johab"),
            "zh": ("big5", "cp950", "gb2312", "gbk", "gb18030", "hz"),
            "yue": ("big5hkscs",)}
_SCRIPT_RANGES = {"ja": ((0x3041, 0x3093, 5), (0x30A1, 0x30F3, 1), (0x4E00, 0x9FA0, 4)),
                  "zh": ((0x4E00, 0x9FA5, 1),),
                  "ko": ((0xAC00, 0xD7A3, 1),)}
# Common words, written as prose is: Japanese with its particles and the kana that
# start JIS X 0213's sequences (か き く け こ カ セ ツ ト, each also written alone);
# Cantonese with its HKSCS characters (嘅 咗 佢 哋 冇 噉 啲 ...).
_SCRIPT_WORDS = {
    "ja-text": ("私 あなた 彼 彼女 これ それ あれ ここ そこ どこ 今日 明日 昨日 時間 会社 学校 先生 学生 "
                "日本 東京 大阪 電車 仕事 言葉 問題 世界 気持ち 家族 友達 子供 お金 天気 電話 手紙 写真 "
                "書く 聞く 行く 歩く 働く 着く 置く 続く 動く 開く 分かる 考える 見る 来る する できる "
                "思う 言う 話す 読む 買う 使う 待つ 持つ 作る 知る 帰る 始まる 大きい 小さい 新しい 古い "
                "高い 安い 早く 遅く 多く 少し とても もっと かなり きっと けれども しかし そして また "
                "から まで ことが ものを ところで ために ように ですか ました でした ません ください "
                "かもしれない 聞きました 書きました 行きました 確認 結果 計画 経験 研究 技術 機会 記事 "
                "カメラ テスト セット ツール トマト カード セーター ツアー トイレ コーヒー テキスト "
                "ネット データ システム サービス メール ページ センター チケット スケジュール").split(),
    "yue": ("我 你 佢 我哋 你哋 佢哋 嘅 咗 冇 噉 啲 係 唔係 喺 嘢 咁 啱 嚟 睇 乜嘢 嗰個 呢個 "
            "點解 邊度 幾多 而家 琴日 聽日 今日 香港 食飯 飲茶 返工 放工 屋企 朋友 知道 鍾意 唔該 "
            "多謝 好 都 就 同 畀 攞 搵 諗 講 做 話 啦 喇 呀 囉 咩 嘛 吖 㗎 咋 噃 嚿 叻 靚 癐 "
            "老細 公司 時間 地方 問題 事情 學校 老師 電話 巴士 地鐵 街市 茶餐廳 奶茶 菠蘿包 "
            "搞掂 傾偈 行街 瞓覺 食嘢 飲嘢 即刻 慢慢 成日 有時 真係 梗係 一齊 已經 可能 應該").split(),
}


def _writes(module, codec, ch: str, two: bool) -> bool:
    """Whether the spec and the baseline both write *ch* (*two*: in two bytes each, counted
    as what one more *ch* costs, so that a spec with modes, which shifts before the first
    and back after the last, is counted by its characters too)."""
    try:
        ours = len(module.encode(ch * 2)) - len(module.encode(ch))
        theirs = len((ch * 2).encode(codec)) - len(ch.encode(codec)) if codec else ours
    except UnicodeEncodeError:
        return False
    return not two or (ours == 2 and theirs == 2)


def code_page_text(size: int, module, codec: str | None, seed: int = 2026) -> str | None:
    """Prose in a single-byte spec's own script: its letters above 7F that the baseline
    writes too (Cyrillic for koi8_r, Greek for iso8859_7, Thai for cp874), as whole
    words where they are not Latin, else sprinkled into English words as the latin
    corpus does; None when the code page has no such letters (cp437's box drawing)."""
    import unicodedata
    letters = []
    for b in range(0x80, 0x100):
        try:
            ch = module.decode(bytes([b]))
        except UnicodeDecodeError:
            continue
        if len(ch) == 1 and ch.isalpha() and _writes(module, codec, ch, False):
            letters.append(ch)
    scripts = [unicodedata.name(ch, "?").split()[0] for ch in letters]
    if not letters:
        return None
    script = max(set(scripts), key=scripts.count)  # the page's own (µ, ª, º are not words)
    letters = [ch for ch, s in zip(letters, scripts) if s == script]
    latin = script == "LATIN"
    rnd = random.Random(f"own-{seed}")
    parts, total = [], 0
    while total < size:
        if latin:
            w = "".join(rnd.choice(letters) if rnd.random() < 0.2 else c for c in rnd.choice(_WORDS))
        else:
            w = "".join(rnd.choice(letters) for _ in range(rnd.randint(2, 10)))
        if rnd.random() < 0.08:
            w += rnd.choice(".,;!?") + ("\n" if rnd.random() < 0.3 else "")
        parts.append(w)
        total += len(w) + 1
    return " ".join(parts)


def table_corpus(kind: str, size: int, module, codec: str | None, seed: int = 2026) -> str:
    """The corpus *kind* for a spec with mapping tables (see above); a single-byte
    spec's "cjk" corpus is text of its own script (code_page_text)."""
    if kind == "cjk" and module.memory()["charmap"]:
        own = code_page_text(size, module, codec, seed)
        if own is not None:
            return own
    if kind != "cjk":
        text = corpus(kind, size, seed)
        keep = {ch for ch in set(text) if _writes(module, codec, ch, False)}
        return "".join(ch for ch in text if ch in keep)
    script = next((s for s, names in _SCRIPTS.items() if (codec or "").replace("-", "_") in
                   [n.replace("-", "_") for n in names]), "zh")
    if script in _SCRIPT_WORDS:
        return _prose(size, module, codec, script, seed)
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


def _prose(size: int, module, codec: str | None, script: str, seed: int) -> str:
    """Sentences of 3 to 12 of *script*'s common words (those both the spec and the
    baseline write in two bytes a character), with the script's own commas and stops."""
    words = [w for w in _SCRIPT_WORDS[script] if all(_writes(module, codec, ch, True) for ch in w)]
    comma, stop = ("、", "。") if script.startswith("ja") else ("，", "。")
    rnd = random.Random(f"cjk-{script}-{seed}")
    parts, total = [], 0
    while total < size:
        n = rnd.randint(3, 12)
        sentence = "".join(rnd.choice(words) + (comma if k < n - 1 and rnd.random() < 0.15 else "")
                           for k in range(n)) + stop
        parts.append(sentence + ("\n" if rnd.random() < 0.2 else ""))
        total += 2 * len(sentence) + 1
    return "".join(parts)


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
    python_tables: int  # the module's memory()["table_data"]: its tables and table forms
    python_encoder: int  # what its encoder built so far: memory()["encoder_data"]
    native_arrays: int | None  # the extension's TABLE_BYTES (None: no extension, or built before it)
    native_derived: int | None  # DERIVED_TABLE_BYTES
    native_memo: int | None  # the native encoder's memo: memory()["native_memo"]


def table_memory(specs: list[str]) -> list[TableMemory]:
    """What the mapping tables of each spec that has some take (see the module's
    docstring); the encoders' shares as they are now (after ``run``: after the corpora)."""
    from ..codec import load
    from ..emit.native.build import NativeBuildError
    out = []
    for spec in specs:
        module = load(spec, backend="python")
        if not _has_tables(module):
            continue
        try:
            native = load(spec, backend="native")
        except NativeBuildError:
            native = None
        mem = module.memory()
        seen: set = set()
        python_tables = sum(_deep_size(x, seen) for x in mem["table_data"])
        seen = set()
        python_encoder = sum(_deep_size(x, seen) for x in mem["encoder_data"])
        ext = native.native() if native is not None else None
        held = native.memory()["native_memo"] if native is not None else ()
        memo = sum(sys.getsizeof(x) for x in held) if held else None
        out.append(TableMemory(spec, mem["tables"], mem["entries"], python_tables, python_encoder,
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
    widths = [max(len(str(row[i])) for row in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(str(c).rjust(w) for c, w in zip(row, widths)) for row in lines)


def memory_json(mem: list[TableMemory]) -> list[dict]:
    return [dict(vars(m)) for m in mem]


class WideError(ValueError):
    """A spec cannot take the code point ``wide_rows`` asked for (one line, for the command to show)."""


def wide_rows(specs: list[str], bits: int, repeat: int) -> list[dict]:
    """One random code point of *bits* bits, encoded and decoded by each backend
    (best of *repeat*): what a counted form costs per bit."""
    from ..codec import load
    from ..emit.native.build import NativeBuildError
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
                raise WideError(f"{spec} cannot encode a {bits}-bit code point (it has no counted form that long)") from None
            if module.decode_codepoints(data) != [cp]:
                raise WideError(f"{spec} ({name}): the {bits}-bit code point does not decode to itself")
            rows.append({"spec": spec, "backend": name, "bits": bits, "bytes": len(data),
                         "encode_ms": 1000 * cpu_best(lambda: module.encode([cp]), repeat),
                         "decode_ms": 1000 * cpu_best(lambda: module.decode_codepoints(data), repeat)})
    return rows


# ------------------------------------------------------------------ the rows
# Every column any section may have, in the order the tables show them.
COLUMNS = ("cpython", "native", "python", "token loop", "oracle", "exported c", "exported c utf-8", "iconv",
           "node isUtf8", "node TextDecoder")
SECTIONS = {
    "decode": ("cpython", "native", "python", "token loop", "oracle", "exported c", "iconv", "node TextDecoder"),
    "incremental": ("cpython", "native", "python"),
    "encode": ("cpython", "native", "python", "exported c", "exported c utf-8", "iconv"),
    "unencodable": ("cpython", "native", "python"),
    "validate": ("cpython", "native", "python", "iconv", "node isUtf8"),
    "replace": ("cpython", "native", "python", "exported c", "node TextDecoder"),
    "transcode": ("cpython", "native", "python", "iconv"),
    "small": ("cpython", "native"),
}
LEAN = ("cpython", "native")                # the columns a --catalogue run times
SMALL = (8, 20, 100)                        # the small calls' inputs, in the spec's bytes
SMALL_CALLS = 200                           # calls per timing of a small call (a loop, not a lambda each)
DIRTY = (0.01, 0.10)                        # the share of damaged bytes of the replace rows
DIRTY_HANDLERS = ("replace", "surrogateescape")
UNENCODABLE = (0.01, 0.10)                  # the share of unencodable characters of the unencodable rows
# codecs' handlers, then a custom one (a Python function: what calling a handler costs)
UNENCODABLE_HANDLERS = ("replace", "ignore", "xmlcharrefreplace", "backslashreplace", "surrogateescape",
                        "encspec-bench")
UNENCODABLE_PY_CHARS = 64 << 10             # what the pure-Python backend encodes of a damaged text at most
PY_BYTES = 1 << 20                          # what the pure-Python backend reads of a payload at most
TOKEN_BYTES = 256 << 10                     # what the token loop reads at most
PEAK_BYTES = 4 << 20                        # a slow transcode's memory is traced on this much


@dataclass
class Row:
    """One operation on one payload: per column, the CPU seconds of one call and the
    bytes that call read (a prefix for the slow columns), or why there is no figure."""

    op: str                 # decode, encode, validate, replace or transcode
    spec: str               # for transcode "source -> target"
    corpus: str
    errors: str = "strict"  # replace rows: "replace 1%", "surrogateescape 10%"
    size: int = 0           # bytes of the payload (encode: bytes written)
    codec: str = "utf-8"    # CPython's codec, the baseline ("utf-8 -> utf-16-le" for transcode)
    seconds: dict = field(default_factory=dict)
    timed: dict = field(default_factory=dict)
    na: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)
    peaks: dict = field(default_factory=dict)  # backend -> peak traced memory / result size
    peak_kib: dict = field(default_factory=dict)  # backend -> peak traced memory of one call (transcode)

    def put(self, column: str, seconds: float, nbytes: int) -> None:
        self.seconds[column] = max(seconds, 1e-9)
        self.timed[column] = nbytes

    def mbps(self, column: str) -> float | None:
        if column not in self.seconds:
            return None
        return self.timed[column] / 1e6 / self.seconds[column]

    def ratio(self, column: str, to: str = "cpython") -> float | None:
        """column's speed over *to*'s (on CPU time, per byte: prefixes compare)."""
        a, b = self.mbps(column), self.mbps(to)
        return None if a is None or b is None else a / b


@dataclass
class Subject:
    """A spec under test: its modules, what it is compared with, what could not be built."""

    name: str
    module: types.ModuleType       # pure Python
    native: Any = None             # its extension twin (a module), or None
    why_native: str = ""
    oracle: Any = None             # CPython's codec to compare with (or None)
    c: CDecoder | None = None
    why_c: str = ""
    tables: bool = False
    nearest: str | None = None     # CPython's codec of the nearest name (table specs)

    def codec_names(self) -> list[str]:
        return [self.module.NAME, *getattr(self.module, "ALIASES", ()),
                *([self.nearest] if self.nearest else []), *([CPYTHON_CODECS[self.module.NAME]]
                                                           if self.module.NAME in CPYTHON_CODECS else [])]


def subject(spec: str, export_c: bool | None) -> Subject:
    """Load *spec*'s backends; with export_c None the exported C decoder is built when a
    C compiler is found, True makes a failure to build it an error."""
    from ..codec import load
    from ..emit.native.build import NativeBuildError
    from ..spec import registry
    module = load(spec, backend="python")
    s = Subject(spec, module)
    try:
        s.native = load(spec, backend="native")
    except NativeBuildError as e:
        s.why_native = f"no extension ({e})"
    s.oracle = _oracle(registry.module_name(module.NAME))
    s.tables = _has_tables(module) or module.memory()["charmap"]  # single-byte: its codepage
    s.nearest = table_codec(module) if s.tables else None
    if export_c is False:
        s.why_c = "not asked (--no-export)"
    else:
        from .c import CDecoder, compiler
        if compiler() is None and not export_c:
            s.why_c = "no cc"
        else:
            try:
                s.c = CDecoder(spec)
            except Exception as e:  # the export refuses the spec, or the compiler fails
                if export_c:
                    raise
                s.why_c = str(e).splitlines()[0]
    return s


@dataclass
class Payload:
    """One corpus for one spec: the text, the spec's bytes, CPython's baseline bytes."""

    kind: str
    text: str
    data: bytes
    codec: str
    base: bytes
    py: bytes           # what the pure-Python backend reads (a prefix of data, ending at a character)
    tokens: bytes       # what the token loop reads
    utf8: bytes

    @property
    def is_utf8(self) -> bool:
        """The spec writes this text as UTF-8 does: tools that know only UTF-8 compare on the same bytes."""
        return self.data == self.utf8


def payload(s: Subject, kind: str, size: int, py_bytes: int, lean: bool = False) -> Payload:
    """The corpus *kind* for *s*; *lean* (a --catalogue run, which times no pure-Python
    column) writes it with the native encoder and leaves the slow columns' prefixes empty."""
    text = table_corpus(kind, size, s.module, s.nearest) if s.tables else corpus(kind, size)
    data = (s.native if lean and s.native is not None else s.module).encode(text)
    codec, base = baseline(s.module.NAME, text, data, s.nearest)
    if lean:
        return Payload(kind, text, data, codec, base, b"", b"", text.encode("utf-8"))
    py = _prefix_bytes(s.module, text, py_bytes)
    return Payload(kind, text, data, codec, base, py, _prefix_bytes(s.module, text, min(py_bytes, TOKEN_BYTES)),
                   text.encode("utf-8"))


def token_loop(module, data: bytes) -> str:
    """The straightforward decoder: every char token's value, joined."""
    return "".join(chr(v) for kind, s, e, v in module.tokens(data) if kind == "char")


def transcode_stream(source, target, data: bytes, errors: str = "strict", keep: bool = True):
    """``encspec transcode``'s path in this process: *data* read TEXT_CHUNK bytes at a
    time; the bytes written, or with keep false only their number (each chunk's output
    dropped, as written to a file)."""
    from ..io import stream
    tc = stream.Transcoder(source, target, errors)
    step = stream.TEXT_CHUNK
    if not keep:
        n = sum(len(tc.transcode(data[i:i + step])) for i in range(0, len(data), step))
        return n + len(tc.transcode(b"", True))
    out = [tc.transcode(data[i:i + step]) for i in range(0, len(data), step)]
    out.append(tc.transcode(b"", True))
    return b"".join(out)


def peak_bytes(fn: Callable[[], object]) -> int:
    """Peak memory traced by tracemalloc while fn() runs (what it allocates, not its input)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def cpython_transcode(source: str, target: str, data: bytes) -> int:
    """CPython's incremental codecs, the same chunks: the bytes written."""
    import codecs

    from ..io import stream
    dec = codecs.getincrementaldecoder(source)()
    enc = codecs.getincrementalencoder(target)()
    step = stream.TEXT_CHUNK
    n = sum(len(enc.encode(dec.decode(data[i:i + step]))) for i in range(0, len(data), step))
    return n + len(enc.encode(dec.decode(b"", True), True))


_BENCH_CODECS: dict[str, codecs.CodecInfo] = {}  # the small calls' codec names (a search function)


def small_text(module, text: str, nbytes: int) -> str:
    """The longest prefix of *text* that *module* writes in at most *nbytes* bytes (one
    character at least), ending before a space where one is near: a field's worth."""
    k = min(len(text), nbytes)
    while k > 1 and len(module.encode(text[:k])) > nbytes:
        k -= 1
    return text[:k]


def _calls(call: Callable[[str], object], name: str, n: int = SMALL_CALLS) -> Callable[[], None]:
    """*n* calls of ``call(name)`` in one Python loop (a bound bytes.decode or str.encode)."""
    def run() -> None:
        for _ in itertools.repeat(None, n):
            call(name)
    return run


class Bench:
    """Runs the sections for the specs; its rows are the result."""

    def __init__(self, repeat: int, sections, progress: Callable[[str], None] = lambda s: None,
                 folder: Path | None = None, lean: bool = False):
        import tempfile
        self.repeat = repeat
        self.sections = tuple(sections)
        self.lean = lean  # --catalogue: CPython and native only, replace at 1% only
        self.dirty = DIRTY[:1] if lean else DIRTY
        self.handlers = DIRTY_HANDLERS[:1] if lean else DIRTY_HANDLERS
        self._names: dict[str, codecs.CodecInfo] = {}
        self.progress = progress
        self.rows: list[Row] = []
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="encspec-bench-")
            folder = Path(self._tmp.name)
        self.folder = folder
        self.empty = self.folder / "empty.bin"
        self.empty.write_bytes(b"")
        self._node_jobs: list[tuple[Row, str, dict]] = []
        self._files: dict[bytes, Path] = {}

    def close(self):
        if self._tmp is not None:
            self._tmp.cleanup()

    # ------------------------------------------------------------- helpers
    def skip(self, row: Row, column: str) -> bool:
        """In a lean run every column but CPython's and the native one says so."""
        if self.lean and column not in LEAN:
            row.na[column] = "not in --catalogue"
            return True
        return False

    def time(self, row: Row, column: str, fn: Callable[[], object], nbytes: int, repeat: int | None = None) -> None:
        if self.skip(row, column):
            return
        try:
            row.put(column, cpu_best(fn, self.repeat if repeat is None else repeat), nbytes)
        except (UnicodeError, ValueError, TypeError) as e:
            row.na[column] = "fails"
            why = getattr(e, "reason", None) or str(e)[:120]
            row.notes[column] = f"{type(e).__name__}: {why}"

    def file(self, data: bytes) -> Path:
        if data not in self._files:
            path = self.folder / f"payload-{len(self._files)}.bin"
            path.write_bytes(data)
            self._files[data] = path
        return self._files[data]

    def iconv(self, row: Row, source: str | None, target: str | None, data: bytes) -> None:
        from .tools import find_tool, iconv_seconds
        if self.skip(row, "iconv"):
            return
        if find_tool("iconv") is None:
            row.na["iconv"] = "no iconv"
            return
        if source is None or target is None:
            row.na["iconv"] = "iconv has no such encoding"
            return
        seconds, why = iconv_seconds(source, target, self.file(data), self.empty, self.repeat)
        if seconds is None:
            row.na["iconv"] = "iconv refuses"
            row.notes["iconv"] = why
        else:
            row.put("iconv", seconds, len(data))
            row.notes.setdefault("iconv", f"iconv -f {source} -t {target}")

    def node(self, row: Row, column: str, job: dict, data: bytes) -> None:
        """Queue a Node timing; flush_node runs the queue in one Node process."""
        if self.skip(row, column):
            return
        job = dict(job, id=str(len(self._node_jobs)), file=str(self.file(data)), repeat=self.repeat)
        self._node_jobs.append((row, column, job))
        row.timed[column] = len(data)

    def flush_node(self) -> None:
        from .tools import run_node
        jobs, self._node_jobs = self._node_jobs, []
        got = run_node([j for _, _, j in jobs], self.folder)
        for row, column, job in jobs:
            r = got.get(job["id"], {"na": "node gave no answer"})
            if "seconds" in r:
                row.put(column, r["seconds"], job["fallback_size"] if r.get("fallback") else row.timed[column])
                if r.get("fallback"):
                    row.notes[column] = (f"TextDecoder has no {row.spec}: its utf-8, on the UTF-8 bytes of "
                                         "the same text")
            else:
                row.timed.pop(column, None)
                row.na[column] = r["na"] if len(r["na"]) <= 24 else "node refuses"
                if len(r["na"]) > 24:
                    row.notes[column] = r["na"]
        for f in self._files.values():
            f.unlink(missing_ok=True)
        self._files = {}

    def iconv_input(self, row: Row, s: Subject, p: Payload, data: bytes, utf8: bytes) -> tuple[str, bytes]:
        """iconv's name of the spec and *data* (its bytes); where iconv has no such
        encoding, UTF-8 and *utf8*, the UTF-8 bytes of the same text (as the CPython
        baseline of a spec CPython does not know)."""
        from .tools import iconv_name
        name = iconv_name(s.codec_names())
        if name is not None:
            return name, data
        if data != utf8:
            row.notes["iconv"] = f"iconv has no {s.name}: its UTF-8, on the UTF-8 bytes of the same text"
        return "UTF-8", utf8

    def text_decoder(self, row: Row, s: Subject, p: Payload, data: bytes, utf8: bytes, fatal: bool) -> None:
        """Node's TextDecoder of the spec on *data*, or where it has none its utf-8 on *utf8*."""
        names = [n[len("whatwg-"):] if n.startswith("whatwg-") else n for n in s.codec_names()]
        self.node(row, "node TextDecoder", {"kind": "TextDecoder", "labels": names, "fatal": fatal,
                                            "fallback": str(self.file(utf8)), "fallback_size": len(utf8)}, data)

    # ------------------------------------------------------------ sections
    def spec(self, s: Subject, size: int, py_bytes: int, kinds=CORPORA) -> None:
        for kind in kinds:
            self.progress(f"{s.name} {kind} corpus")
            p = payload(s, kind, size, py_bytes, self.lean)
            for op in ("decode", "incremental", "replace", "validate", "encode", "unencodable", "small"):
                if op in self.sections:
                    self.progress(f"{s.name} {kind} {op}")
                    getattr(self, op)(s, p)
            self.flush_node()
            if "transcode" in self.sections:
                self.progress(f"{s.name} {kind} transcode")
                self.transcode(s, p)
                self.flush_node()

    def _row(self, op: str, s: Subject, p: Payload, errors: str = "strict", size: int | None = None) -> Row:
        row = Row(op, s.name, p.kind, errors, len(p.data) if size is None else size, p.codec)
        self.rows.append(row)
        return row

    def _no_native(self, row: Row, s: Subject) -> bool:
        if s.native is None:
            row.na["native"] = "no extension"
            row.notes["native"] = s.why_native
        return s.native is None

    def _c(self, row: Row, s: Subject, data: bytes) -> None:
        if self.skip(row, "exported c"):
            return
        if s.c is None:
            row.na["exported c"] = s.why_c if len(s.why_c) <= 24 else "cannot build"
            if len(s.why_c) > 24:
                row.notes["exported c"] = s.why_c
            return
        seconds, _, _ = s.c.run(data, self.repeat)
        row.put("exported c", seconds, len(data))

    def _c_encode(self, row: Row, s: Subject, p: Payload) -> None:
        """The exported C encoder, strict, checked against the module's bytes: NAME_encode32 on
        the code points ("exported c") and NAME_encode8 on the UTF-8 ("exported c utf-8")."""
        if s.c is None or self.lean:
            self._c(row, s, b"")  # says why there is no figure
            row.na["exported c utf-8"] = row.na["exported c"]
            return
        for column, utf8 in (("exported c", False), ("exported c utf-8", True)):
            seconds, data, status = s.c.encode(p.text, self.repeat, utf8)
            if status != 0 or data != p.data:
                raise AssertionError(f"{s.name}: the exported C encoder ({column}) disagrees with the pure-Python one")
            row.put(column, seconds, len(data))

    def decode(self, s: Subject, p: Payload) -> None:
        row = self._row("decode", s, p)
        self.time(row, "cpython", lambda: p.base.decode(p.codec), len(p.base))
        if not self._no_native(row, s):
            self.time(row, "native", lambda: s.native.decode(p.data), len(p.data))
            row.peaks["native"] = peak_ratio(lambda: s.native.decode(p.data))
        self.time(row, "python", lambda: s.module.decode(p.py), len(p.py))
        if not self.lean:
            row.peaks["python"] = peak_ratio(lambda: s.module.decode(p.py))
        self.time(row, "token loop", lambda: token_loop(s.module, p.tokens), len(p.tokens))
        if s.oracle is not None or self.lean:
            self.time(row, "oracle", lambda: s.oracle.tokens(p.tokens), len(p.tokens), repeat=1)
        else:
            row.na["oracle"] = "no oracle"
        self._c(row, s, p.data)
        name, data = self.iconv_input(row, s, p, p.data, p.utf8)
        self.iconv(row, name, "WCHAR_T", data)
        self.text_decoder(row, s, p, p.data, p.utf8, True)

    def incremental(self, s: Subject, p: Payload) -> None:
        """Strict decoding in CHUNK-byte pieces through an IncrementalDecoder (then final),
        against CPython's incremental decoder of the same codec on its own bytes, cut alike."""
        import codecs
        row = self._row("incremental", s, p)
        theirs = codecs.getincrementaldecoder(p.codec)
        self.time(row, "cpython", lambda: chunked_decode(theirs(), chunks(p.base)), len(p.base))
        row.notes.setdefault("cpython", f"{CHUNK:,}-byte chunks")
        for name, m, data in (("native", s.native, p.data), ("python", s.module, p.py)):
            if self.skip(row, name):
                continue
            if m is None:
                self._no_native(row, s)
                continue
            pieces = chunks(data)
            if name == "native" and chunked_text(m.IncrementalDecoder(), pieces) != p.text:
                raise AssertionError(f"{s.name}: the incremental decoder disagrees with the text")
            self.time(row, name, lambda: chunked_decode(m.IncrementalDecoder(), pieces), len(data))

    def replace(self, s: Subject, p: Payload) -> None:
        for rate in self.dirty:
            data, base, py = corrupt(p.data, rate), corrupt(p.base, rate), corrupt(p.py, rate)
            for errors in self.handlers:
                row = self._row("replace", s, p, f"{errors} {rate:.0%}", len(data))
                self.time(row, "cpython", lambda: base.decode(p.codec, errors), len(base))
                if not self._no_native(row, s):
                    self.time(row, "native", lambda: s.native.decode(data, errors), len(data))
                self.time(row, "python", lambda: s.module.decode(py, errors), len(py))
                if errors == "replace":
                    self._c(row, s, data)
                    self.text_decoder(row, s, p, data, corrupt(p.utf8, rate), False)
                else:
                    row.na["exported c"] = row.na["node TextDecoder"] = "U+FFFD only"

    def validate(self, s: Subject, p: Payload) -> None:
        row = self._row("validate", s, p)
        self.time(row, "cpython", lambda: p.base.decode(p.codec), len(p.base))
        row.notes["cpython"] = "a strict decode (CPython has no validator)"
        if not self._no_native(row, s):
            self.time(row, "native", lambda: s.native.is_valid(p.data), len(p.data))
        self.time(row, "python", lambda: s.module.is_valid(p.py), len(p.py))
        name, data = self.iconv_input(row, s, p, p.data, p.utf8)
        self.iconv(row, name, name, data)
        self.node(row, "node isUtf8", {"kind": "isUtf8"}, p.utf8)
        if not p.is_utf8 and not self.lean:
            row.notes["node isUtf8"] = "on the UTF-8 bytes of the same text"

    def encode(self, s: Subject, p: Payload) -> None:
        """Encoding the text: CPython's codec (utf-8 where its codec cannot write the
        text), the modules (each checked once against the pure-Python bytes), iconv from
        the machine's wide characters; MB/s of the bytes written."""
        row = self._row("encode", s, p)
        codec = p.codec
        try:
            theirs = p.text.encode(codec)
        except UnicodeEncodeError:
            codec = row.codec = "utf-8"
            theirs = p.utf8
        self.time(row, "cpython", lambda: p.text.encode(codec), len(theirs))
        if theirs != p.data:
            row.notes["cpython"] = f"CPython's {codec} writes other bytes for this text"
        for name, m in (("python", s.module), ("native", s.native)):
            if self.skip(row, name):
                continue
            if m is None:
                self._no_native(row, s)
                continue
            if m.encode(p.text) != p.data:
                raise AssertionError(f"{s.name}: the {name} encoder disagrees with the pure-Python one")
            self.time(row, name, lambda: m.encode(p.text), len(p.data))
        self._c_encode(row, s, p)
        wide = p.text.encode("utf-32-le" if sys.byteorder == "little" else "utf-32-be")
        name, written = self.iconv_input(row, s, p, p.data, p.utf8)
        self.iconv(row, "WCHAR_T", name, wide)
        if "iconv" in row.timed:
            row.timed["iconv"] = len(written)  # MB/s of the bytes written, as the other columns

    def unencodable(self, s: Subject, p: Payload) -> None:
        """Encoding text with 1% and 10% unencodable characters, each handler, against
        CPython's codec with the same handler (the bytes each writes; MB/s of them)."""
        codec = p.codec
        chars = unencodable_chars(s.module, codec)
        if not chars:
            return
        for rate in UNENCODABLE:
            text = unencodable(p.text, chars, rate)
            short = text[:UNENCODABLE_PY_CHARS]
            for errors in UNENCODABLE_HANDLERS:
                row = self._row("unencodable", s, p, f"{errors} {rate:.0%}", 0)
                try:
                    want = s.module.encode(short, errors)
                    row.size = len(s.native.encode(text, errors) if s.native is not None else want)
                except UnicodeEncodeError as e:  # surrogateescape where the characters are no escapes
                    for column in SECTIONS["unencodable"]:
                        row.na[column] = "raises"
                    row.notes["native"] = f"{errors}: {e.reason}"
                    continue
                self.time(row, "cpython", lambda: text.encode(codec, errors), len(text.encode(codec, errors)))
                if not self._no_native(row, s):
                    if s.native.encode(short, errors) != want:
                        raise AssertionError(f"{s.name}: the native encoder disagrees with the pure-Python one "
                                             f"under {errors}")
                    self.time(row, "native", lambda: s.native.encode(text, errors), row.size)
                self.time(row, "python", lambda: s.module.encode(short, errors), len(want))

    def small(self, s: Subject, p: Payload) -> None:
        """``bytes.decode(name)`` and ``str.encode(name)`` of SMALL-byte prefixes of the text,
        through the codec registry both ways: the spec's codec under a name of its own
        (CPython finds its own codecs first), against CPython's codec of the same text;
        SMALL_CALLS calls a timing, best of N; the ratio is per call."""
        info = s.native.getregentry() if s.native is not None else None
        name = self._codec_name(s, info) if info is not None else ""
        for nbytes in SMALL:
            text = small_text(s.native or s.module, p.text, nbytes)
            data = (s.native or s.module).encode(text)
            theirs = text.encode(p.codec)
            for op in ("decode", "encode"):
                row = self._row("small", s, p, f"{op} {nbytes} B", len(data))
                calls = len(data) * SMALL_CALLS
                if op == "decode":
                    self.time(row, "cpython", _calls(theirs.decode, p.codec), calls)
                else:
                    self.time(row, "cpython", _calls(text.encode, p.codec), calls)
                if self._no_native(row, s):
                    continue
                if data.decode(name) != text or text.encode(name) != data:
                    raise AssertionError(f"{s.name}: the registered codec disagrees with the module")
                self.time(row, "native", _calls(data.decode if op == "decode" else text.encode, name), calls)

    def _codec_name(self, s: Subject, info: codecs.CodecInfo) -> str:
        """A codec name only *s*'s native codec answers to (registered once per process)."""
        from ..spec import registry
        name = f"encspec_bench_{registry.module_name(s.name)}"
        if not _BENCH_CODECS:
            codecs.register(_BENCH_CODECS.get)
        _BENCH_CODECS[name] = info
        return name

    def transcode(self, s: Subject, p: Payload) -> None:
        """utf-8 -> spec and spec -> utf-8 (one row for utf-8 itself), the way ``encspec
        transcode`` streams, against CPython's incremental codecs and iconv on the same bytes."""
        utf8 = self._utf8()
        pairs = [(utf8, s), (s, utf8)] if s.name != utf8.name else [(utf8, utf8)]
        for a, b in pairs:
            src = p.utf8 if a is utf8 else p.data
            want = p.utf8 if b is utf8 else p.data
            codec_a = "utf-8" if a is utf8 else p.codec
            codec_b = "utf-8" if b is utf8 else p.codec
            src_cpython = p.utf8 if a is utf8 else p.base  # CPython reads its own bytes of the text
            row = Row("transcode", f"{a.name} -> {b.name}", p.kind, "strict", len(src), f"{codec_a} -> {codec_b}")
            self.rows.append(row)
            self.time(row, "cpython", lambda: cpython_transcode(codec_a, codec_b, src_cpython), len(src_cpython))
            if a.native is None or b.native is None:
                row.na["native"] = "no extension"
            else:
                got = transcode_stream(a.native, b.native, src)
                if got != want:
                    raise AssertionError(f"transcode {a.name} -> {b.name} writes other bytes than {b.name}'s encoder")
                self.time(row, "native", lambda: transcode_stream(a.native, b.native, src, keep=False), len(src))
                part = src
                if row.seconds.get("native", 0) > 1 and len(src) > PEAK_BYTES:  # slow under tracemalloc too
                    part = _prefix_bytes(a.module, p.text, PEAK_BYTES)
                    row.notes["native peak"] = f"traced on the first {len(part):,} bytes (slow)"
                row.peak_kib["native"] = peak_bytes(lambda: transcode_stream(a.native, b.native, part,
                                                                             keep=False)) / 1024
            py = p.py if a is s else _prefix_bytes(a.module, p.text, len(p.py))
            self.time(row, "python", lambda: transcode_stream(a.module, b.module, py, keep=False), len(py))
            name_a, data_a = self.iconv_input(row, a, p, src, p.utf8)
            name_b, _ = self.iconv_input(row, b, p, want, p.utf8)
            self.iconv(row, name_a, name_b, data_a)

    _UTF8: Subject | None = None

    def _utf8(self) -> Subject:
        if Bench._UTF8 is None:
            Bench._UTF8 = subject("utf-8", False)
        return Bench._UTF8


def catalogue() -> list[tuple[str, str]]:
    """Every built-in spec with a CPython counterpart, and that codec's name: CPYTHON_CODECS,
    else for a spec with mapping tables or a code page the codec of the nearest name
    (table_codec); the specs ``encspec bench --catalogue`` runs."""
    from ..codec import load
    from ..spec import registry
    out = []
    for name in registry.builtin_names():
        module = load(name, backend="python")
        codec = CPYTHON_CODECS.get(module.NAME)
        if codec is None and (_has_tables(module) or module.memory()["charmap"]):
            codec = table_codec(module)
        if codec is not None:
            out.append((name, codec))
    return out


def run(specs: list[str], size: int, repeat: int, export_c: bool | None = None, sections=tuple(SECTIONS),
        progress: Callable[[str], None] = lambda s: None, py_bytes: int = PY_BYTES,
        py_table_bytes: int = PY_TABLE_BYTES, lean: bool = False) -> list[Row]:
    """Every selected section for every spec, on the four corpora of about *size* bytes
    (*lean*: CPython and native only, replace at 1% only, as ``--catalogue`` runs)."""
    bench = Bench(repeat, sections, progress, lean=lean)
    try:
        for spec in specs:
            s = subject(spec, export_c)
            bench.spec(s, size, py_table_bytes if s.tables else py_bytes)
    finally:
        bench.close()
    for row in bench.rows:  # every column of the section has a figure or says why not
        for column in SECTIONS[row.op]:
            if column not in row.seconds and column not in row.na:
                row.na[column] = "not timed"
    return bench.rows
