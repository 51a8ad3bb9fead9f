"""The decoder core: the whole run-time algorithm of an encspec codec, once.

Everything below the marker line reads module-level tables (``_CLASS_RUNS``,
``_NEXT``, ``_OPS``, ``_ACCEPT``, ``_FINAL``, ``_ACTIONS``, ``_ROWS``,
``_EXTENSIONS``, ``SIGNATURE``, ``PROFILES``, the fast path's ``_LATIN_CLASS``,
``_PIECES`` and ``_piece_value``, the ``_NATIVE`` hook, ...) and nothing else.
``encspec build`` copies that text verbatim into every generated module after
the spec's tables (as lark's standalone generator ships its own source), so a
module stays standard-library only; :func:`encspec.runtime.tables.bind` runs
the same text over an automaton's tables for the analyses.  The placeholder
tables above the marker (ASCII, one byte a character) only let this file
import and be tested on its own.
"""
from typing import Any

# The placeholder automaton: bytes 00..7F stand for themselves, 80..FF are errors.
# Each table is annotated with the type the generated modules' tables have.
NAME = "encspec-core"
ALIASES = ()
SPEC_FILE = "codegen/runtime/core.py"
SPEC_SHA256 = ""
SIGNATURE = b""
RESERVED_LEADS = ()
MAX_CODE_POINT = 0x7F
PAIR_ON_ENCODE = False
_CLASS_RUNS = ((0x00, 0x7F, 0), (0x80, 0xFF, 1))
_N_CLASSES = 2
_N_STATES = 2
_NEXT = ((1, -1), (-1, -1))
_OPS = (((128, 0x00, 1), None), (None, None))
_ACCEPT = (None, 0)
_FINAL = (False, True)
_ACTIONS = (("char", 0),)
_ROWS = ((0x0, 0x7F, "digits", (0, (((0x00, 0x7F),),), None)),)
_EXTENSIONS: tuple[dict[str, Any], ...] = ()
_UNIT = 1
_AT_END = ()
_STARTS = (0,)
SIGNATURES: tuple[tuple[bytes, int], ...] = ()  # (bytes, start state)
_REASONS = ("invalid start byte", "invalid continuation byte", "unexpected end of data", "truncated data",
            "no code point for this pointer")
_SPAN = 0  # how far an error reaches: 0 maximal subpart, 1 one unit, 2 through the failing byte
_UNENCODABLE = None  # the encoder's reason for a code point it cannot write (None: CPython's utf-8 words)
_RESTORE = b""  # per byte, 1 if an error never takes it after its first byte (with _SPAN 2)
_UNDECODABLE = False  # the decoder reads no form (`undecodable`): the forms alone are the encoder
_TABLES = ()  # mapping tables: see _lookup
_ENCODE_ONLY: dict[int, bytes | None] = {}  # code point -> bytes (None: refused), before any form
_TABLE_FORMS = ()  # (table, positions, order) of each table form, for the encoder, in spec order
# Sequences of code points written as one: first code point (a starter) -> ((the code points after it,
# bytes), ...), longest first.  Only a spec with sequences lists it (see _SEQ_TEXT below).
_SEQUENCES: dict[int, tuple[tuple[tuple[int, ...], bytes], ...]] = {}
_ERROR_NAMES: dict[int, str] = {}
PROFILES: dict[str, Any] = {}
_LATIN_CLASS: bytes | None = None
_CODEC: str | None = None
_CODEC_LATIN = False
_CODEC_PIECES: tuple[bytes, ...] = ()
_PIECES: tuple[bytes, ...] = ()
_PERMUTATION: bytes | None = None  # ``bytes through``: the real byte of each intermediate byte (UTF-EBCDIC)
# Modes (ISO-2022, HZ): per mode (start state, start after a shift or -1), and per mode the
# encoder's (rows, row firsts, table forms, encoder-only entries, shift bytes into each mode,
# the mode it goes to before a code point it cannot write or -1, its sequences as _SEQUENCES);
# the modes the encoder writes in, by preference, and whether it stays in one that holds the
# next character.  Only a spec with modes lists them (see the derived tables below).
_MODES: tuple[tuple[int, int], ...] = ()
_MODE_ENCODERS: tuple = ()
_MODE_ORDER: tuple[int, ...] = ()
_STICKY = False
_CHEAPEST = False  # the encoder takes the mode its shifts reach with the fewest bytes
_MODE_ENDS: tuple[int, ...] = ()  # the modes a text may end in
# A run of digits (`run`, UTF-7's base64): (opening byte, per byte its digit value or FF, bits per
# digit, bits per unit, end byte or -1, surrogate pairs combine, the alphabet in value order, the
# encoder's direct code point runs, the three reasons).  Only a spec with one lists it.
_DIGITS: Any = None


def _piece_value(p):
    raise ValueError(p)


_NATIVE: Any = None  # the native twin (an extension module: its functions are looked up by name)
# A single-byte spec's (decoding, encoding) tables for CPython's charmap codec (see _Charmap).
_CHARMAP: tuple[str, str] | None = None

# ---- encspec core: copied verbatim into every generated module ----
import codecs  # noqa: E402
import re  # noqa: E402
from array import array  # noqa: E402
from bisect import bisect_right  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from itertools import chain  # noqa: E402

# ------------------------------------------------------------- derived tables
_CLASS = bytearray(256)
for _lo, _hi, _c in _CLASS_RUNS:
    _CLASS[_lo:_hi + 1] = bytes([_c]) * (_hi - _lo + 1)
_CLASS = bytes(_CLASS)  # type: ignore[assignment]  # filled, it is frozen: bytes
_ROW_FIRSTS = tuple(r[0] for r in _ROWS)
_SEQUENCES = globals().get("_SEQUENCES") or {}  # a module without sequences does not list them
_MODES = globals().get("_MODES") or ()  # nor a module without modes its modes
_MODE_ENCODERS = globals().get("_MODE_ENCODERS") or ()
_MODE_ORDER = globals().get("_MODE_ORDER") or ()
_STICKY = globals().get("_STICKY") or False
_CHEAPEST = globals().get("_CHEAPEST") or False
_MODE_ENDS = globals().get("_MODE_ENDS") or _MODE_ORDER[:1]
_BASE = {twin: start for start, twin in _MODES if twin >= 0}  # a twin's start -> its mode's
_DIGITS = globals().get("_DIGITS")  # a run of digits (UTF-7's base64): see _scan_digits
# a twin run by encspec.load: the loader chose its hook, before anything below reads it
_NATIVE = globals().get("_NATIVE_GIVEN", _NATIVE)
if _NATIVE is not None and getattr(_NATIVE, "SPEC_SHA256", None) != SPEC_SHA256:
    _NATIVE = None  # an extension built from another spec
if _MODES and not getattr(_NATIVE, "CARRIES_MODES", 0):
    _NATIVE = None  # an extension that stops at every shift (an older build): the module is faster


class _Charmap:
    """The native hook of a single-byte spec (encspec.runtime.charmap's rule):
    CPython's own table-driven C codec over the spec's tables, _CHARMAP.  It stops
    where a table has no entry (strict, or a handler it does not apply itself),
    and the core reports that byte or code point with the spec's reason and span.
    Every error is one byte, so replace, ignore, surrogateescape and
    backslashreplace give what the core would: charmap_decode applies them."""

    SPEC_SHA256 = SPEC_SHA256

    def __init__(self, decoding, encoding):
        self.table = decoding
        self.map = codecs.charmap_build(encoding)
        # (data, errors, table) -> (result, consumed): charmap_decode and charmap_encode,
        # but for the Latin-1 and ASCII tables CPython's own codecs of them, which copy
        # where the charmap walks a table (20 times as fast): no table is Latin-1's
        # for charmap_decode and charmap_encode, and ASCII has codecs of its own.
        self.decode_call, self.encode_call = codecs.charmap_decode, codecs.charmap_encode
        latin_1 = "".join(map(chr, range(256)))
        if decoding == latin_1 == encoding:
            self.table = None
            self.encode_call = _latin_1_encode
        elif decoding == encoding == latin_1[:128] + "\ufffe" * 128:
            self.decode_call, self.encode_call = _ascii_decode, _ascii_encode
        self._bad: dict[bool, tuple[tuple[bytes, ...], Any, bool]] = {}

    def feed(self, pending, data, errors, final, start, limit, surrogates):
        """The incremental decoder's chunk, as the extension's feed: its str where every
        byte is defined (a single-byte spec holds nothing back), else None (the core's path)."""
        if pending or not surrogates:
            return None
        try:
            return self.decode_call(data, "strict", self.table)[0]
        except UnicodeDecodeError:
            return None

    def validate(self, data, pos, allow_reserved, final, limit, mode):
        """Where the first byte that is not a valid token alone is, or -1 when there is
        none: the extension's validate for one-byte tokens.  ASCII text is valid at once
        where every such byte is above 7F (isascii); else a byte search each (memchr,
        some 6 GB/s), or where they are many one regex pass."""
        got = self._bad.get(allow_reserved)
        if got is None:
            kinds = ("error",) if allow_reserved else ("error", "reserved")
            bad = tuple(bytes([b]) for b in range(256) if _scan(bytes([b]), 0, True, START >> 1)[0] in kinds)
            pattern = re.compile(b"[" + b"".join(map(re.escape, bad)) + b"]") if bad else None
            got = self._bad[allow_reserved] = (bad, pattern, all(b[0] > 0x7F for b in bad))
        bad, pattern, high = got
        if data.__class__ is memoryview:
            data = data.tobytes()
        if not bad or high and data.isascii():
            return -1
        if len(bad) > 48:  # many: one pass of a regex class rather than a pass per byte
            m = pattern.search(data, pos)
            return m.start() if m else -1
        stop = len(data)
        for b in bad:
            k = data.find(b, pos, stop)
            if k >= 0:
                stop = k
        return stop if stop < len(data) else -1

    def decode(self, data, pos, errors, final, want_str, out, limit=None, start=0):
        view = memoryview(data)[pos:] if pos else data
        try:
            text = self.decode_call(view, errors, self.table)[0]
            stop = len(data)
        except UnicodeDecodeError as e:
            text = self.decode_call(view[:e.start], "strict", self.table)[0]
            stop = pos + e.start
        if want_str:
            out.append(text)
        else:
            out.extend(map(ord, text))
        return stop

    def whole(self, data, errors):
        """All of *data* decoded in one call, or None where the core must report an error."""
        if errors != "strict" and (errors not in _NATIVE_HANDLERS or
                                   codecs.lookup_error(errors) is not _NATIVE_HANDLERS[errors]):
            return None
        try:
            return self.decode_call(data, errors, self.table)[0]
        except UnicodeDecodeError:
            return None

    def encode_str(self, text, memo_bytes, memo_lens, signature=None):
        try:
            got = self.encode_call(text, "strict", self.map)[0]
            return got if signature is None else signature + got
        except UnicodeEncodeError as e:
            done = self.encode_call(text[:e.start], "strict", self.map)[0]
            return (done if signature is None else signature + done), e.start

    def encode_memo(self, text, pos, memo_bytes, memo_lens, out):
        """Write *text* from *pos* into *out*, through the memo where the map has no
        entry; the number of characters written (the core decides the next one)."""
        n = len(text)
        while pos < n:
            try:
                out += self.encode_call(text[pos:] if pos else text, "strict", self.map)[0]
                return n
            except UnicodeEncodeError as e:
                stop = pos + e.start
                out += self.encode_call(text[pos:stop], "strict", self.map)[0]
            cp = ord(text[stop])
            size = memo_lens[cp] if cp < len(memo_lens) else 0
            if not size:
                return stop
            out += memo_bytes[_MEMO_WIDTH * cp:_MEMO_WIDTH * cp + size]
            pos = stop + 1
        return n

    def encode_cps(self, items, pos, memo_bytes, memo_lens, out):
        """encode_memo for code points as ints: those before the first that is not
        a plain int within Unicode, which the core decides."""
        k = pos
        n = len(items)
        while k < n and type(items[k]) is int and 0 <= items[k] <= 0x10FFFF:
            k += 1
        return pos + self.encode_memo("".join(map(chr, items[pos:k])), 0, memo_bytes, memo_lens, out)


def _ascii_decode(data, errors, table):
    return codecs.ascii_decode(data, errors)


def _ascii_encode(text, errors, table):
    return codecs.ascii_encode(text, errors)


def _latin_1_encode(text, errors, table):
    return codecs.latin_1_encode(text, errors)


if _NATIVE is None and _CHARMAP is not None and not _SEQUENCES and not globals().get("_PYTHON_ONLY"):
    _NATIVE = _Charmap(*_CHARMAP)
# Byte order marks (a signature that chooses the start state): encoders write the
# first, and errors name the byte order they were found in, as CPython's utf-16
# does ("utf-16-be"), so that its surrogatepass handler reads the right units.
_WRITES_SIGNATURE = any(k for _, k in SIGNATURES)
BEYOND_REASON = "code point beyond U+10FFFF"
SURROGATE_REASON = "surrogate code point (not in UTF-8 text)"
_SURROGATE = re.compile("[\ud800-\udfff]")
# The handlers the native extension applies itself, by name: only while they are these
# (and, through a permutation, only those that do not show the bytes it reads).
_NATIVE_HANDLERS = {name: codecs.lookup_error(name) for name in
                    ("replace", "ignore") + (() if _PERMUTATION else ("surrogateescape", "backslashreplace"))}
# The extension's incremental decoding of one chunk (IncrementalDecoder.decode), or None.
_FEED = getattr(_NATIVE, "feed", None)
# A permutation (``bytes through``): the automaton reads intermediate bytes, so decoders
# translate what they are given (real bytes) through its inverse and encoders what they
# write through it; one byte for one, so every offset is the same in both.
_TO_REAL = _PERMUTATION
_FROM_REAL = bytes.maketrans(_PERMUTATION, bytes(range(256))) if _PERMUTATION else None


def _intermediate(data):
    """*data* (real bytes) as the automaton reads them: itself, or through the inverse permutation."""
    return data if _FROM_REAL is None else bytes(data).translate(_FROM_REAL)


def _real(data):
    """What an encoder wrote (intermediate bytes) as real bytes."""
    return data if _TO_REAL is None else data.translate(_TO_REAL)


# ------------------------------------------------------------------ scanning
def _digit(runs, b):
    base = 0
    for lo, hi in runs:
        if lo <= b <= hi:
            return base + b - lo
        base += hi - lo + 1
    return None


def _byte(runs, d):
    for lo, hi in runs:
        if d <= hi - lo:
            return lo + d
        d -= hi - lo + 1
    raise ValueError(d)


# ------------------------------------------------------------- counted forms
# Counts, field values and exponents are exact integers kept within +-2**62
# (as in every export's 64-bit arithmetic); beyond is LIMIT_REASON.
LIMIT_REASON = "counted form beyond this decoder's limits"
COUNTED_LIMIT = None  # the most bytes one counted form may have (None: no limit); the caller's to set
_X_LIMIT = 1 << 62


def _xc(v):
    if -_X_LIMIT <= v <= _X_LIMIT:
        return v
    raise OverflowError("beyond +-2**62")


def _x_add(a, b):
    return _xc(a + b)


def _x_sub(a, b):
    return _xc(a - b)


def _x_mul(a, b):
    return _xc(a * b)


def _x_div(a, b):
    if b == 0:
        raise OverflowError("division by zero")
    return _xc(a // b)


def _x_pow(a, b):
    if b < 0:
        raise OverflowError("a negative power")
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return -1 if b % 2 else 1
    if b >= 63:
        raise OverflowError("beyond +-2**62")
    return _xc(a ** b)


def _byte_class(runs):
    """A compiled ``[runs]*``: how far a run of these bytes goes, at C speed."""
    return re.compile(b"[" + b"".join(re.escape(bytes([lo])) + b"-" + re.escape(bytes([hi]))
                                      for lo, hi in runs) + b"]*")


def _counted_tables(ext):
    """What the scanner derives from a counted form's table once: byte-run patterns,
    the value digits' byte -> digit translation and digit -> byte table, and the
    digits' binary text."""
    runs, count, shortest = ext["value"]
    shift = ext["shift"]
    to_digit = bytearray(256)
    for d in range(1 << shift):
        to_digit[_byte(runs, d)] = d
    return {
        "frees": tuple((var, _byte_class(r)) for var, r in ext["frees"]),
        "digits": _byte_class(runs),
        "to_digit": bytes(to_digit),
        "from_bits": {format(d, f"0{shift}b"): _byte(runs, d) for d in range(1 << shift)},
        "bits": tuple(format(d, f"0{shift}b") for d in range(1 << shift)),
    }


for _ext in _EXTENSIONS:
    _ext["tables"] = _counted_tables(_ext)


def _scan_counted(ext, data, pos, i, final):
    """A counted form's token from data[i:] on (its bounded prefix began at pos), or
    None when more input could change it (final false).

    Linear, and no number is built from the header: the counts come first, the
    bytes they promise are read as they come, and whether a valid value is still
    reachable is a comparison of bit lengths (the range is 2**lo_exp ..
    2**hi_exp - 1).  Once the first nonzero digit has passed that test the rest
    can only fail by not being digits, so they are matched in one step, and the
    value is made from their binary text in one conversion."""
    tables = ext["tables"]
    n = len(data)
    env = {}
    for var, run in tables["frees"]:
        end = run.match(data, i).end()
        env[var] = end - i
        i = end
        if i == n:
            return None if not final else ("error", pos, i, None, "unexpected end of data")
    var, runs, radix, count, shortest = ext["field"]
    try:
        k = count(env)
    except (OverflowError, ZeroDivisionError):
        return ("error", pos, i, None, LIMIT_REASON)
    value = 0
    over = False
    for j in range(k):
        if i == n:
            return None if not final else ("error", pos, i, None, "unexpected end of data")
        d = _digit(runs, data[i])
        if d is None or (shortest and j == 0 and d == 0 and k > 1):
            return ("error", pos, max(i, pos + 1), None, "invalid continuation byte")
        if not over:
            value = value * radix + d
            over = value > _X_LIMIT
        i += 1
    env[var] = value
    runs, count, shortest = ext["value"]
    shift, min_exp, lo_f = ext["shift"], ext["min_exp"], ext["lo_exp"]
    try:
        if over:
            raise OverflowError("field")
        k = count(env)
        total = _x_mul(k, shift)
        hi_exp = ext["hi_exp"](env)
        lo_exp = lo_f(env) if lo_f is not None else None
    except (OverflowError, ZeroDivisionError):
        return ("error", pos, i, None, LIMIT_REASON)
    bad_bound = hi_exp < 0 or (lo_exp is not None and lo_exp < 0 and min_exp is None)
    if min_exp is not None:
        lo_exp = min_exp if lo_exp is None else max(lo_exp, min_exp)
    if COUNTED_LIMIT is not None and (i - pos) + k > COUNTED_LIMIT:
        return ("error", pos, i, None, LIMIT_REASON)
    start = i
    bits = 0
    for j in range(k):
        if i == n:
            return None if not final else ("error", pos, i, None, "unexpected end of data")
        d = _digit(runs, data[i])
        if d is None or (shortest and j == 0 and d == 0 and k > 1):
            return ("error", pos, max(i, pos + 1), None, "invalid continuation byte")
        bits = bits + shift if bits else d.bit_length()
        s = total - shift * (j + 1)
        if bad_bound:
            return ("error", pos, i, None, LIMIT_REASON)
        if (bits and bits + s > hi_exp) or (lo_exp is not None and lo_exp >= s and bits <= lo_exp - s):
            return ("error", pos, i, None, "invalid continuation byte")
        i += 1
        if bits:
            # bits + s stays as it is from here: the high test cannot fail again, the
            # low one fails at the first digit with s <= lo_exp if bits + s <= lo_exp;
            # the digits before that only have to be digits.
            last = start + k
            fail = None
            if lo_exp is not None and bits + s <= lo_exp:
                fail = i + -(-(s - lo_exp) // shift) - 1
                if fail >= last:
                    fail = None
            target = last if fail is None else fail
            upto = min(target, n)
            end = tables["digits"].match(data, i, upto).end()
            if end < upto:
                return ("error", pos, end, None, "invalid continuation byte")
            if n < target + (fail is not None):  # the deciding byte is still to come
                return None if not final else ("error", pos, end, None, "unexpected end of data")
            if fail is not None:
                return ("error", pos, fail, None, "invalid continuation byte")
            i = end
            break
    digits = data[start:i].translate(tables["to_digit"])
    if shift == 8:
        value = int.from_bytes(digits, "big")
    else:
        value = int("".join(map(tables["bits"].__getitem__, digits)) or "0", 2)
    return ("char", pos, i, value + ext["offset"], None)


def _run(data, pos, final, state, acc, i, last):
    """The automaton from data[i:] on, in *state* with *acc*, for the token that began
    at *pos*; *last* is (end, action, acc) of its last accepting state so far.

    Longest match: the token ends at the last accepting state once the automaton
    dies; with none, it is an error covering the bytes read (the maximal subpart),
    at least one.  Returns the token (kind, start, end, value, reason), or, when
    the data ends first and *final* is false, (None, state, acc, i, last) to go on
    from later (state -1: inside a counted form, which starts again from *pos*).
    """
    n = len(data)
    whole = n - (n - pos) % _UNIT  # the data's whole code units: a part of one is never read
    while True:
        if i == whole:
            if not final:
                return (None, state, acc, i, last)
            if _AT_END and whole == n and _AT_END[state] is not None:
                return _token(_ACTIONS[_AT_END[state]], pos, n, acc, data)
            if last is None:  # the data ends inside a sequence (or inside its first unit)
                return ("error", pos, n, None, _REASONS[3] if whole == pos else _REASONS[2])
            break
        b = data[i]
        c = _CLASS[b]
        nxt = _NEXT[state][c]
        if nxt < 0:
            if last is None:  # the maximal subpart, in whole units: at least one
                k = i - pos - (i - pos) % _UNIT
                end = pos + (k or _UNIT) if not _SPAN else pos + _UNIT if _SPAN == 1 else _restored(data, pos, i + 1)
                return ("error", pos, end, None, _REASONS[1] if k else _REASONS[0])
            break
        if nxt >= _N_STATES:
            got = _scan_counted(_EXTENSIONS[nxt - _N_STATES], data, pos, i, final)
            if got is None:
                return (None, -1, 0, pos, None)
            if got[0] == "char" or last is None:
                return got
            break
        op = _OPS[state][c]
        if op is not None:
            acc = acc * op[0] + (b - op[1]) * op[2]
        state = nxt
        i += 1
        a = _ACCEPT[state]
        if a is not None:
            last = (i, a, acc)
            if _FINAL[state]:
                break
    end, a, acc = last
    return _token(_ACTIONS[a], pos, end, acc, data)


def _restored(data, pos, end):
    """Where an error from *pos* that would take the bytes up to *end* ends: before
    the first byte after its first that the spec restores (WHATWG: "If byte is an
    ASCII byte, restore byte to ioQueue")."""
    for j in range(pos + 1, end):
        if _RESTORE[data[j]]:
            return j
    return end


def _lookup(k, pointer):
    """The code point (or tuple of code points) of *pointer* in mapping table *k*, or None.

    A table is (ranges, base, values, none, overrides, decode-only ranges, starts,
    firsts, lasts): overrides first (pointer -> code point or tuple of them); an
    index's values are a str, one character per pointer from base (*none* where it
    has no entry); a ranges table's runs map starts[i] .. lasts[i] to firsts[i]
    onwards."""
    t = _TABLES[k]
    if t[4] and pointer in t[4]:
        return t[4][pointer]
    if t[0]:
        i = bisect_right(t[6], pointer) - 1
        if i < 0 or pointer > t[8][i]:
            return None
        return t[7][i] + pointer - t[6][i]
    i = pointer - t[1]
    if 0 <= i < len(t[2]):
        cp = t[2][i]
        if cp != t[3]:
            return ord(cp)
    return None


def _token(action, pos, end, acc, data=b""):
    """The token an accepting state's action makes of the raw value *acc*."""
    kind = action[0]
    if kind == "char":
        return ("char", pos, end, acc + action[1], None) if len(action) == 2 else \
            ("char", pos, end, acc + action[1], None, action[2])  # then mode action[2] (_mode_after)
    if kind == "lookup":
        cp = _lookup(action[1], acc)
        if cp is not None:
            return ("char", pos, end, cp, None) if len(action) == 2 else ("char", pos, end, cp, None, action[2])
        end = pos + 1 if _SPAN == 1 else _restored(data, pos, end) if _SPAN == 2 else end
        return ("error", pos, end, None, _REASONS[4])
    if kind == "value":
        return ("char", pos, end, action[1], None) if len(action) == 2 else ("char", pos, end, action[1], None,
                                                                            action[2])
    if kind == "pair":
        hi, lo = divmod(acc, action[1])
        hi += action[2]
        lo += action[2]
        return ("char", pos, end, 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), None)
    if kind == "error":
        return ("error", pos, end, None, action[1])
    if kind == "shift":  # no character: the next token starts in mode action[2] (_mode_after)
        return ("shift", pos, end, None, action[1], action[2])
    return ("reserved", pos, end, None, "reserved sequence")


def _scan(data, pos, final=True, start=0):
    """The token at data[pos:]: (kind, start, end, value, reason), or None if more input could change it."""
    tok = _run(data, pos, final, start, 0, pos, None)
    return tok if tok[0] is not None else None


def _signature(data, pos=0):
    """(length, start state) of the signature data[pos:] begins with, or None.  A
    signature may choose the byte order of what follows (utf-16's FE FF)."""
    for sig, k in SIGNATURES:
        if data[pos:pos + len(sig)] == sig:
            return len(sig), _STARTS[k]
    return None


def _signature_prefix(data):
    """Whether *data* could still grow into a signature (the decoder waits)."""
    return any(len(data) < len(sig) and sig.startswith(data) for sig, _ in SIGNATURES)


# ------------------------------------------------------------ scanner state
# The scanner's state between two tokens is one int (IncrementalDecoder.getstate
# gives it as it is): the mode << 1, plus 1 while a signature may still come
# (before the first token).  The mode is the automaton state the next token
# starts in: 0, the spec's own byte order, unless a token before set another
# (utf-16's signature FE FF: big-endian).  _step is the one place that reads
# and sets it; every loop over tokens goes through it.
START = 1  # the state at the start of the data: mode 0, a signature may come


def _step(data: bytes, pos: int, state: int, final: bool = True, resume: tuple | None = None) -> tuple[tuple, int]:
    """The token at data[pos:] in scanner state *state*, and the state after it.

    Returns ``(token, state)``: token (kind, start, end, value, reason); or, when
    the data ends first and *final* is false, the scanner's place inside it, (None,
    automaton state, acc, bytes read, last accepting) as _run gives it, with
    *state* unchanged (the token still starts in it), which the caller passes
    back as *resume* once more data has come.  Before the first token a
    signature is a token of its own (kind "signature", no value, no character)
    that sets the mode of the next; a prefix of one waits for more data.
    """
    if _DIGITS is not None and (resume is None or resume[0] < 0) and pos < len(data) and data[pos] == _DIGITS[0]:
        tok = _scan_digits(data, pos, final)
        if tok is not None:  # a run of digits opens here: one token, the state stays the start's
            return tok, state & ~1 if tok[0] is not None else state
    if resume is None and not state & 1:  # every token but the first and a resumed one
        tok = _run(data, pos, final, state >> 1, 0, pos, None)
    else:
        if resume is not None and resume[0] >= 0:
            at, acc, k, last = resume
            tok = _run(data, pos, final, at, acc, pos + k, None if last is None else (pos + last[0], last[1], last[2]))
        else:
            got = _signature_token(data, pos, state, final) if SIGNATURES and state & 1 else None
            if got is not None:
                return got
            tok = _run(data, pos, final, state >> 1, 0, pos, None)
        if tok[0] is not None:
            state &= ~1  # a token is read: no signature may come
    if _MODES and tok[0] is not None:  # a shift sets the mode of the next token
        return _mode_after(tok, state)
    return tok, state


def _scan_digits(data: bytes, pos: int, final: bool) -> tuple | None:
    """The run of digits data[pos] opens (UTF-7's "+" and base64) as one token, or None
    where no digit (nor the data's end) follows the opening byte: the forms read it.

    The token is a character token whose value is the run's code point (a tuple where
    it holds several or none), ending past the end byte where that ends the run, else before
    the byte that does; or an error token from the opening byte (CPython's
    startinpos) whose value is the code points before the error: bits left over
    that make a digit or more (_DIGITS' first reason) or are not zero (its second),
    taking the byte that ends the run; the data's end inside a unit or after a high
    surrogate (its third).  A high surrogate not followed by a low one is a code
    point of its own; at the run's end it is kept where the byte after the run
    starts a form (CPython writes it only before a byte it decodes directly).
    Where the data ends in the run and *final* is false the token waits, (None, -1,
    0, pos, None): it is read again, from its start, once more data has come (the
    incremental decoder waits until that has doubled, so it stays linear).
    """
    _, values, bits, width, end_byte, pairs, _, _, reasons = _DIGITS
    n = len(data)
    i = pos + 1
    if i < n and values[data[i]] == 0xFF:
        return None
    j = i
    while j < n and values[data[j]] != 0xFF:
        j += 1
    if j == n and not final:
        return (None, -1, 0, pos, None)
    cps: list[int] = []
    buf = nbits = high = 0
    for k in range(i, j):
        buf = (buf << bits) | values[data[k]]
        nbits += bits
        if nbits >= width:
            nbits -= width
            unit = buf >> nbits
            buf &= (1 << nbits) - 1
            if high:
                if 0xDC00 <= unit <= 0xDFFF:
                    cps.append(0x10000 + ((high - 0xD800) << 10) + unit - 0xDC00)
                    high = 0
                    continue
                cps.append(high)
                high = 0
            if pairs and 0xD800 <= unit <= 0xDBFF:
                high = unit
            else:
                cps.append(unit)
    if j == n:
        if high or nbits >= bits or buf:
            return ("error", pos, n, tuple(cps), reasons[2])
        return ("char", pos, n, cps[0] if len(cps) == 1 else tuple(cps), None)
    if nbits >= bits:
        return ("error", pos, j + 1, tuple(cps), reasons[0])
    if buf:
        return ("error", pos, j + 1, tuple(cps), reasons[1])
    if high and _NEXT[0][_CLASS[data[j]]] >= 0:
        cps.append(high)
    return ("char", pos, j + 1 if data[j] == end_byte else j, cps[0] if len(cps) == 1 else tuple(cps), None)


def _mode_after(tok: tuple, state: int) -> tuple[tuple, int]:
    """The token and scanner state after *tok* in a spec with modes.  A shift enters
    its mode: the mode's twin where a shift right after a shift is an error (a twin's
    shifts carry that reason: the token is then that error, and still shifts).  Any
    other token leaves a twin for its mode."""
    if tok[0] == "shift":
        start, twin = _MODES[tok[5]]
        after = (twin if twin >= 0 else start) << 1
        return (("error", tok[1], tok[2], None, tok[4]) if tok[4] else tok[:5]), after
    if len(tok) > 5:  # a character that ends its mode (`-> MODE`)
        return tok[:5], _MODES[tok[5]][0] << 1
    base = _BASE.get(state >> 1)
    return tok, state if base is None else base << 1


def _signature_token(data: bytes, pos: int, state: int, final: bool) -> tuple[tuple, int] | None:
    """_step's answer where a signature may come (state & 1) and is, or may be once
    more data has come (the caller waits); None where none can be at *pos*."""
    got = _signature(data, pos)
    if got is not None:
        return ("signature", pos, pos + got[0], None, None), got[1] << 1
    if not final and _signature_prefix(data[pos:]):
        return (None, -1, 0, pos, None), state
    return None


def next_token(data: bytes, pos: int = 0, state: int = START, final: bool = True) -> tuple[tuple | None, int]:
    """The token at data[pos:] in scanner *state* and the state after it: ``((kind,
    start, end, value, reason), state)``, or ``(None, state)`` when *final* is
    false and more data could change it (ask again from *pos* with more).

    The scanner's one step, public: a reader that starts a scan in the middle
    of a stream (io's parallel validation) passes the state it got there.
    """
    tok, after = _step(_intermediate(data), pos, state, final)
    return (tok, after) if tok[0] is not None else (None, state)


def _tokens(data: bytes, pos: int = 0, final: bool = True, state: int = START) -> Iterator[tuple]:
    """Yield 5-tuples (kind, start, end, value, reason); stops early (final=False) where input runs out."""
    data = _intermediate(data)
    n = len(data)
    while pos < n:
        tok, state = _step(data, pos, state, final)
        if tok[0] is None:
            return
        yield tok
        pos = tok[2]


def tokens(data):
    """Iterate over ``(kind, start, end, value)``: kind is char, error, reserved or signature.
    An error's value is None (a run of digits' error also follows the code points the run read
    before it, which decode gives)."""
    data = bytes(data)
    for kind, start, end, value, _ in _tokens(data):
        yield (kind, start, end, None if kind == "error" else value)


def first_error(data, allow_reserved=True):
    """``(start, end, reason)`` of the first ill-formed sequence, or None.

    A reserved run is "reserved for future use ... rather than invalid"
    (corrected-utf-8.txt), so it is returned only with allow_reserved=False.
    The native extension, when there is one, finds where that token starts
    without making a str (valid_until); its span and reason are then _step's.
    """
    data = _intermediate(data)
    if _NATIVE is None or data.__class__ not in (bytes, bytearray, memoryview):
        data = bytes(data)
    at, state, problem = _valid_until(data, 0, START, True, allow_reserved)
    if not problem:
        return None
    tok = _step(bytes(data) if data.__class__ is memoryview else data, at, state)[0]
    return (tok[1], tok[2], tok[4])


def validates_natively() -> bool:
    """Whether valid_until runs in the native extension (no str is made): a reader
    may then check a chunk of valid text without decoding it."""
    return _NATIVE is not None and hasattr(_NATIVE, "validate")


def valid_until(data: bytes, pos: int = 0, state: int = START, final: bool = True,
                allow_reserved: bool = True) -> tuple[int, int, bool]:
    """How far data[pos:] is valid from scanner *state*: ``(end, state, problem)``.

    *end* is where the first ill-formed token starts (*problem* true; a reserved
    run is one with allow_reserved false), else where the data ends or, with
    *final* false, where a token more data could change starts; *state* is the
    scanner's there.  The native extension runs within one mode, from the first
    token that no signature can be on: it stops at the first problem token.
    """
    return _valid_until(_intermediate(data), pos, state, final, allow_reserved)


def _valid_until(data, pos, state, final, allow_reserved):
    """valid_until over *data* as the automaton reads it (through the inverse permutation)."""
    n = len(data)
    if not SIGNATURES:
        state &= ~1
    native = _NATIVE is not None and data.__class__ in (bytes, bytearray, memoryview) and hasattr(_NATIVE, "validate")
    if native:
        if state & 1 and pos < n and _signature_token(data, pos, state, final) is None:
            state &= ~1  # no signature here: the extension from the first token on
        while not state & 1:
            # the extension within one mode; a token that changes the mode (it stops there) is _step's
            base = _BASE.get(state >> 1, state >> 1)  # a twin's tokens but shifts are its mode's
            at = _NATIVE.validate(data, pos, allow_reserved, final, COUNTED_LIMIT, base)
            stop = at if at >= 0 else n if at == -1 else -2 - at
            if stop > pos:
                state = base << 1
            if at >= 0:
                return at, state, True
            if not (_MODES or _DIGITS) or stop >= n:  # else it stopped at a token _step takes
                return stop, state, False
            tok, after = _step(data, stop, state, final)
            if tok[0] is None:
                return stop, state, False
            if tok[0] == "error" or (tok[0] == "reserved" and not allow_reserved):
                return stop, state, True
            pos, state = tok[2], after
    step = _step
    slow_until = misses = 0
    while pos < n:
        if native and not state & 1:  # past the signature
            return _valid_until(data, pos, state, final, allow_reserved)
        if _FAST and not state and pos >= slow_until:
            # the regex fast path's runs are runs of whole valid tokens (see _decode): skipped
            # at C speed; where it finds none, the step alone for a while, longer each time
            end = min(n, pos + _WINDOW)
            m = _CODEC_RUN.match(data, pos, end) if _CODEC_RUN is not None else None
            if m is None and _RUN is not None:
                m = _RUN.match(data, pos, end)
            if m is not None:
                pos = m.end()
                misses = 0
                continue
            misses = min(misses + 1, 10)
            slow_until = pos + min(1 << misses, _SKIP_MAX)
        tok, after = step(data, pos, state, final)
        kind = tok[0]
        if kind == "char":
            pos = tok[2]
            state = after
        elif kind is None:
            break
        elif kind == "error" or (kind == "reserved" and not allow_reserved):
            return pos, state, True
        else:
            pos, state = tok[2], after
    return pos, state, False


def newline_alone(state: int) -> bool:
    """Whether, from scanner *state*, byte 0A is always a token of its own, U+000A
    (it starts one as that and continues none), so that valid text has as many
    newlines as 0A bytes: encspec validate then counts lines without decoding.
    Not while a signature may still come (it may choose another mode)."""
    if state & 1 and SIGNATURES:
        return False
    start = state >> 1
    c = _CLASS[0x0A]
    return _PERMUTATION is None and start in _STARTS and not _EXTENSIONS and _scan(b"\n", 0, True, start) == ("char", 0, 1, 0x0A, None) \
        and all(_NEXT[s][c] < 0 for s in range(_N_STATES) if s not in _STARTS)


def is_valid(data, allow_reserved=True):
    """True if *data* has no ill-formed sequence; allow_reserved=False also rejects reserved runs."""
    if _NATIVE is None or data.__class__ not in (bytes, bytearray, memoryview):
        data = bytes(data)
    return not valid_until(data, 0, START, True, allow_reserved)[2]


# ---------------------------------------------------------- document profiles
def lint(data, profile=None):
    """Check a whole document against a profile of the spec.

    Returns ``[(severity, byte offset, line, column, message)]`` in document order;
    lines end at U+000A, columns count code points from 1.  Ill-formed sequences
    are errors, reserved runs warnings, whatever the profile says.  The code
    points of a complete signature later in the document are exempt from the
    "chars" rules (corrected-utf-8.txt: U+0000 "MUST NOT appear ... except as
    part of the magic number"); there it is text, reported by the profile's
    "misplaced signature" rule if it has one.
    """
    if not PROFILES:
        raise LookupError(f"{NAME} defines no document profile")
    rules = PROFILES[profile if profile is not None else next(iter(PROFILES))]
    data = bytes(data)
    found = []
    line = col = 1
    last = None
    signed = False
    inside = -1  # end of the signature found after the start, while its code points go by
    for kind, start, end, value, reason in _tokens(data):
        if kind == "signature":
            signed = True
            continue
        if kind == "char" and start >= inside and SIGNATURE and data.startswith(SIGNATURE, start):
            inside = start + len(SIGNATURE)
            found += [(severity, start, line, col, message)
                      for severity, rule, _, message in rules if rule == "misplaced-signature"]
        if kind != "char":
            severity, message = ("error", "ill-formed sequence: " + reason) if kind == "error" \
                else ("warning", "reserved sequence")
            found.append((severity, start, line, col, message))
            col += 1
            continue
        for severity, rule, ranges, message in rules:
            if rule == "chars" and end > inside and any(lo <= value <= hi for lo, hi in ranges):
                found.append((severity, start, line, col, message))
        last = (start, line, col, value)
        if value == 0x0A:
            line, col = line + 1, 1
        else:
            col += 1
    for severity, rule, ranges, message in rules:
        if rule == "missing-signature" and not signed:
            found.append((severity, 0, 1, 1, message))
        elif rule == "last-not" and last is not None and not any(lo <= last[3] <= hi for lo, hi in ranges):
            found.append((severity, last[0], last[1], last[2], message))
    return sorted(found, key=lambda f: f[1])


# ----------------------------------------------------------------- fast path
# Sequences that always end a token on their own (their path ends in a final
# state), so runs of them can be cut by a regex without changing the longest
# match: bytes that stand for themselves (decoded by the latin-1 codec), pieces
# CPython's codec _CODEC decodes as they are (runs of them decoded by it in one
# call), and the other multi-byte pieces (_PIECES), valued by the module's
# _piece_value through a memo that lives as long as one call.  Anything else goes
# through the automaton (_run).  No state outlives a call: one text does not
# change how fast (or how) the next decodes.
_LATIN_RUN = [_LATIN_CLASS + b"+"] if _LATIN_CLASS else []
_CODEC_ALTERNATIVES = ((_LATIN_RUN if _CODEC_LATIN else []) + list(_CODEC_PIECES)) if _CODEC else []
_CODEC_RUN = re.compile(b"(?:" + b"|".join(_CODEC_ALTERNATIVES) + b")+") if _CODEC_ALTERNATIVES else None
# The memo's runs: where a piece the codec does not decode starts one, it goes on
# through the codec's pieces too (to the window's end), so that text where both
# alternate often (cesu-8's emoji) does not go back and forth every few bytes.
_MEMO_ALTERNATIVES = list(_PIECES) + (list(_CODEC_PIECES) if _PIECES else [])
_PIECE_ALTERNATIVES = ([] if _CODEC_RUN is not None and _CODEC_LATIN and not _PIECES else _LATIN_RUN) + \
    _MEMO_ALTERNATIVES
_PIECE = re.compile(b"|".join(_PIECE_ALTERNATIVES)) if _PIECE_ALTERNATIVES else None
_RUN = re.compile(b"(?:" + b"|".join(_PIECE_ALTERNATIVES) + b")+") if _PIECE_ALTERNATIVES else None
_FAST = _RUN is not None or _CODEC_RUN is not None
_ALL_LATIN = re.compile(_LATIN_CLASS + b"*") if _LATIN_CLASS else None
_LATIN_BYTES = frozenset(b"".join(re.findall(_LATIN_CLASS, bytes(range(256))))) if _LATIN_CLASS else frozenset()
_LATIN_HAS_ASCII = _LATIN_BYTES.issuperset(range(0x80))
_WINDOW = 1 << 14  # bytes per findall or codec run: bounds the memory the pieces (and the regex) take
_MEMO_MAX = 1 << 16  # pieces one call's memo holds at most
_SKIP_MAX = 1 << 10  # the most bytes the automaton takes alone after fast path misses


class _Beyond(Exception):
    """A piece the text cannot hold as it is (beyond U+10FFFF, or a surrogate where
    those are errors): the automaton path reports it."""


class _StrMemo(dict):
    """piece -> str, for one call; long latin runs are decoded, not stored."""

    __slots__ = ("surrogates",)

    def __init__(self, surrogates):
        super().__init__()
        self.surrogates = surrogates

    def __missing__(self, piece):
        if _LATIN_CLASS and piece[0] in _LATIN_BYTES:
            text = piece.decode("latin-1")
            if len(piece) <= 8 and len(self) < _MEMO_MAX:
                self[piece] = text
            return text
        cp = _piece_value(piece)
        if cp > 0x10FFFF or (not self.surrogates and 0xD800 <= cp <= 0xDFFF):
            raise _Beyond
        text = chr(cp)
        if len(self) < _MEMO_MAX:
            self[piece] = text
        return text


class _CodeMemo(dict):
    """piece -> list of code points, for one call."""

    __slots__ = ()

    def __missing__(self, piece):
        if _LATIN_CLASS and piece[0] in _LATIN_BYTES:
            cps = list(piece)
            if len(piece) <= 8 and len(self) < _MEMO_MAX:
                self[piece] = cps
            return cps
        cps = [_piece_value(piece)]
        if len(self) < _MEMO_MAX:
            self[piece] = cps
        return cps


# ------------------------------------------------------------------ decoding
def _decode(data, errors, final, state, want_str, resume=None, surrogates=True, given=None, pos=0):
    """Decode *data* from scanner *state*: ``(pieces, consumed, suspended, state)``.

    *pieces* are str (want_str) or code points; *consumed* is len(data) unless
    *final* is false and the last token may still grow; then *suspended* is the
    scanner's place in that token, (automaton state, acc, bytes read, last
    accepting) relative to *consumed*, which the next call passes back as
    *resume* to go on where this one stopped instead of scanning the token
    again; the state returned is the scanner's at *consumed*.  With surrogates
    false, surrogate code points are errors (text for UTF-8).  Every problem
    goes to the error handler here, and only here.  Tokens come from _step (a
    signature may set the mode); between them the native extension runs from
    any mode, the regex fast path only in mode 0.  *given*: the caller's
    bytes where *data* is already through the inverse permutation (the incremental
    decoder's long token), else None.  *pos*: where to begin, past a signature
    (the native feed stopped there: the token there takes the exact path).
    """
    out = []
    append = out.append
    handler = None
    went_on = pos  # the feed's stop: its token takes _step
    n = len(data)
    if given is None:
        given = data  # what error handlers see: the caller's bytes
        if _FROM_REAL is not None:
            data = data.translate(_FROM_REAL)
    if not SIGNATURES:
        state &= ~1
    elif state & 1 and resume is None and n:
        # past a signature, or out of the state where one may come, before the
        # fast paths (while one may still come, _step waits below)
        got = _signature_token(data, 0, state, final)
        if got is None:
            state &= ~1
        elif got[0][0] is not None:
            pos, state = got[0][2], got[1]
    start = state >> 1
    fast = state == 0
    if want_str and resume is None and _ALL_LATIN is not None and _NATIVE is None and fast:
        if _LATIN_HAS_ASCII and not pos:
            try:
                return [data.decode("ascii")], n, None, 0  # one pass; stops at the first byte above 7F
            except UnicodeDecodeError:
                pass
        if _ALL_LATIN.match(data, pos).end() == n:
            return [data[pos:].decode("latin-1")], n, None, 0
    memo = None  # this call's: made at the first piece that needs it
    view = memoryview(data) if _CODEC_RUN is not None else None
    native_errors = None
    window = n
    suspended = None
    slow_until = max(state & 1, went_on + 1 if went_on else 0)  # a signature may come: _step decides
    clean = _CODEC_RUN is None  # no problem lately: try a whole window in one findall
    misses = 0  # fast path attempts that found nothing, in a row
    while pos < n:
        if resume is None:
            if _NATIVE is not None and pos >= slow_until:
                # the C automaton, as far as it goes on its own: the token it stops at (a
                # problem for strict or a custom handler, more input needed) takes the path
                # below.  After such a stop it gets a window twice as long as it went, so
                # that dense problems do not make it read the rest of the data each time.
                if native_errors is None:
                    native_errors = errors if errors in _NATIVE_HANDLERS and \
                        codecs.lookup_error(errors) is _NATIVE_HANDLERS[errors] else "strict"
                mark = len(out)
                if pos + window >= n:
                    stop = _NATIVE.decode(data, pos, native_errors, final, want_str, out, COUNTED_LIMIT, start)
                else:
                    stop = _NATIVE.decode(memoryview(data)[:pos + window], pos, native_errors, False, want_str, out,
                                          COUNTED_LIMIT, start)
                if _MODES:  # it carries the mode across shifts: (stop, the state there)
                    stop, carried = stop
                window = max(2 * (stop - pos), 1 << 12)
                if not surrogates and want_str and len(out) > mark and _SURROGATE.search(out[-1]):
                    del out[mark:]  # a surrogate to send to the handler: this stretch in Python
                    slow_until = max(stop, pos + 1)
                    continue
                if _MODES:
                    start = carried
                    state = start << 1
                    fast = state == 0
                pos = stop
                slow_until = pos + 1
                continue
            if _FAST and pos >= slow_until and fast:
                went = pos
                if _CODEC_RUN is not None:
                    m = _CODEC_RUN.match(data, pos, min(n, pos + _WINDOW))  # the regex's memory grows with a run
                    if m is not None:  # a run the codec decodes as the automaton would
                        stop = m.end()
                        text = str(view[pos:stop], _CODEC)
                        if want_str:
                            append(text)
                        else:
                            out.extend(map(ord, text))
                        pos = stop
                        misses = 0
                        continue
                if _RUN is not None:
                    end = min(n, pos + _WINDOW)
                    pieces = _PIECE.findall(data, pos, end) if clean else None
                    whole = pieces is not None and sum(map(len, pieces)) == end - pos
                    if not whole:
                        # a problem (or a sequence cut by the window) ahead: take the exact run
                        m = _RUN.match(data, pos, end)
                        end = m.end() if m is not None else pos
                        pieces = _PIECE.findall(data, pos, end) if end > pos else ()
                        clean = _CODEC_RUN is None and end - pos > _WINDOW // 2
                    if pieces:
                        if memo is None:
                            memo = (_StrMemo(surrogates) if want_str else _CodeMemo()).__getitem__
                        values = map(memo, pieces)
                        try:
                            if want_str:
                                append("".join(values))
                            else:
                                out.extend(chain.from_iterable(values))
                        except _Beyond:
                            slow_until = end  # this run holds a code point the text cannot hold
                            continue
                        pos = end
                if pos > went:
                    misses = 0
                    continue
                if _NATIVE is None:
                    # nothing here for the fast path (a table form, an error): after a few
                    # misses in a row the automaton goes on alone for a while, twice as
                    # long after each, so text the fast path cannot take pays it little
                    misses += 1
                    if misses > 4:
                        slow_until = pos + min(1 << (misses - 4), _SKIP_MAX)
        tok, after = _step(data, pos, state, final, resume)
        resume = None
        kind = tok[0]
        if kind is None:
            last = tok[4]
            suspended = (tok[1], tok[2], tok[3] - pos, None if last is None else (last[0] - pos, last[1], last[2]))
            break
        end = tok[2]
        if after != state:  # the token set the mode of the next (a signature)
            state = after
            start = state >> 1
            fast = state == 0
        if kind == "char":
            value = tok[3]
            if value.__class__ is tuple:  # a pointer that stands for several code points (Big5's four), a run
                if not want_str:
                    out.extend(value)
                    pos = end
                    continue
                if surrogates or not any(0xD800 <= v <= 0xDFFF for v in value):
                    append("".join(map(chr, value)))
                    pos = end
                    continue
                reason = SURROGATE_REASON  # a run of digits holding a surrogate: an error as a whole
            if not want_str:
                append(value)
                pos = end
                continue
            if value <= 0x10FFFF and (surrogates or not 0xD800 <= value <= 0xDFFF):
                append(chr(value))
                pos = end
                continue
            reason = BEYOND_REASON if value > 0x10FFFF else SURROGATE_REASON
        else:
            reason = tok[4]
            if reason is None:  # neither a character nor a problem: it sets the mode (a signature)
                pos = end
                continue
            if tok[3]:  # a run of digits' error: its code points before the error come first
                if not want_str:
                    out.extend(tok[3])
                elif surrogates or not any(0xD800 <= v <= 0xDFFF for v in tok[3]):
                    append("".join(map(chr, tok[3])))
        if handler is None:
            handler = codecs.lookup_error(errors)
        replacement, at = handler(UnicodeDecodeError(_ERROR_NAMES.get(start, NAME), given, pos, end, reason))
        if want_str:
            append(replacement)
        else:
            out.extend(map(ord, replacement))
        at = at + n if at < 0 else at
        if not 0 <= at <= n:
            raise IndexError(f"position {at} from error handler out of bounds")
        pos = at
    return out, pos, suspended, state & ~1 if final else state


def decode_codepoints(data, errors="strict"):
    """The code points of *data* as ints (any size); errors go through the handler."""
    return _decode(bytes(data), errors, True, START, False)[0]


def decode(data, errors="strict", surrogates=True):
    """Decode *data* to ``str``; code points beyond U+10FFFF go through the handler,
    and so do surrogate code points with surrogates=False (text for UTF-8)."""
    if _NATIVE.__class__ is _Charmap and surrogates and data.__class__ in (bytes, bytearray):
        text = _NATIVE.whole(data, errors)
        if text is not None:
            return text
    return "".join(_decode(bytes(data), errors, True, START, True, None, surrogates)[0])


# ------------------------------------------------------------------ encoding
def _encode_digits(positions, raw, order=None):
    """The bytes of raw value *raw*: digits in byte order, or most significant first in *order*."""
    out = bytearray(len(positions))
    for k in reversed(order) if order else range(len(positions) - 1, -1, -1):
        runs = positions[k]
        radix = 0
        for lo, hi in runs:
            radix += hi - lo + 1
        raw, d = divmod(raw, radix)
        out[k] = _byte(runs, d)
    return bytes(out)


def _counted_level(ext, f):
    """(env, field digits, fewest bits, most bits) of a counted form's field value
    *f*, or None if that value gives no length within the limits."""
    var, runs, radix, count, shortest = ext["field"]
    digits = []
    v = f
    while True:
        v, d = divmod(v, radix)
        digits.append(d)
        if not v:
            break
    digits.reverse()
    env = count(None, len(digits))
    if min(env.values(), default=0) < 0:
        return None
    env[var] = f
    try:
        total = _x_mul(ext["value"][1](env), ext["shift"])
        hi_exp = ext["hi_exp"](env)
        lo_exp = ext["lo_exp"](env) if ext["lo_exp"] is not None else None
    except (OverflowError, ZeroDivisionError):
        return None
    floors = [e for e in (lo_exp, ext["min_exp"]) if e is not None]
    return env, digits, max(floors) + 1 if floors else 0, min(hi_exp, total)


def _counted_find(ext, width):
    """The level (env, field digits, fewest bits, most bits) of the first field value
    whose length holds *width* bits, or None past the limits.  Found by doubling,
    then halving, the field value (lengths never shrink as it grows: checked when
    the spec is compiled), so a code point of a million bits costs a few dozen
    small evaluations."""
    def holds(f):
        got = _counted_level(ext, f)
        return got is not None and got[3] >= width

    lo, hi = -1, 0
    while not holds(hi):
        lo, hi = hi, 2 * hi + 1
        if hi > _X_LIMIT:
            return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return _counted_level(ext, hi)


def _counted_bytes(ext, env, digits, value):
    """The bytes of raw *value* at the length *env* and the field *digits* stand for
    (its value digits from its binary text)."""
    out = bytearray(ext["prefix"])
    for var, runs in ext["frees"]:
        out += bytes([_byte(runs, 0)]) * env[var]
    out += bytes(_byte(ext["field"][1], d) for d in digits)
    shift = ext["shift"]
    total = ext["value"][1](env) * shift
    text = format(value, "b").zfill(total) if value else "0" * total
    out += bytes(map(ext["tables"]["from_bits"].__getitem__, (text[k:k + shift] for k in range(0, total, shift))))
    return bytes(out)


def _encode_counted(ext, cp):
    """The shortest bytes of *cp* in a counted form, or None."""
    if cp < ext["min"] or cp < ext["offset"]:
        return None
    value = cp - ext["offset"]
    got = _counted_find(ext, value.bit_length())
    if got is None or value.bit_length() < got[2]:
        return None
    return _counted_bytes(ext, got[0], got[1], value)


def _row_bytes(row, cp):
    """The bytes row *row* (first, last, kind, data) gives *cp*, one of its code points."""
    kind, data = row[2], row[3]
    if kind == "digits":
        return _encode_digits(data[1], cp - data[0], data[2])
    if kind == "literal":
        return data
    at, positions = data
    v = cp - 0x10000
    return _encode_digits(positions, 0xD800 + (v >> 10) - at) + _encode_digits(positions, 0xDC00 + (v & 0x3FF) - at)


def _encode_row(cp, rows=_ROWS, firsts=_ROW_FIRSTS):
    """The bytes the first row (or counted form) holding *cp* gives it, or None."""
    k = bisect_right(firsts, cp) - 1
    if k >= 0 and cp <= rows[k][1]:
        return _row_bytes(rows[k], cp)
    for ext in _EXTENSIONS:
        got = _encode_counted(ext, cp)
        if got is not None:
            return got
    return None


_INVERSE: dict = {}  # table -> {code point: pointer}, made on first use


def _table_pointer(k, cp):
    """The pointer the encoder writes for *cp* from table *k*, or None: its one pointer
    outside the table's decode-only ranges (the automaton chose them)."""
    t = _TABLES[k]
    skip = t[5]
    if t[0]:
        runs = _INVERSE.get(k)
        if runs is None:  # (first code point, first pointer, last pointer) in code point order
            runs = _INVERSE[k] = (sorted(zip(t[7], t[6], t[8])), {v: p for p, v in t[4].items()})
        p = runs[1].get(cp)
        if p is None:
            i = bisect_right(runs[0], (cp, 1 << 62)) - 1
            if i < 0:
                return None
            first, start, last = runs[0][i]
            p = start + cp - first
            if p > last or t[4].get(p, cp) != cp:
                return None
        return None if any(lo <= p <= hi for lo, hi in skip) else p
    return _table_inverse(k).get(cp)


def _table_inverse(k):
    """Index table *k*'s code point -> the pointer the encoder writes: each entry's
    pointer outside the table's decode-only ranges, made on first use."""
    inverse = _INVERSE.get(k)
    if inverse is None:
        t = _TABLES[k]
        base, values, none = t[1], t[2], t[3]
        kept = bytearray(b"\x01") * len(values)
        for lo, hi in t[5]:
            lo, hi = max(lo, base), min(hi, base + len(values) - 1)
            if lo <= hi:
                kept[lo - base:hi - base + 1] = bytes(hi - lo + 1)
        inverse = {ord(ch): base + i for i, ch in enumerate(values) if ch != none and kept[i]}
        _INVERSE[k] = inverse
    return inverse


def _encode_cp(cp):
    """The bytes of one code point, or None if the encoding has none.

    The spec's encoder-only entries come first.  Otherwise the forms propose and
    the automaton decides: the bytes count only if decoding them gives exactly
    this code point as one token, so an ill-formed pattern, a hole or a reserved
    run is never written.
    """
    if _MODES:  # the first mode that holds it, by the encoder's preference
        for m in _MODE_ORDER:
            got = _mode_bytes(m, cp)
            if got is not None:
                return got
        return None
    return _encode_with(cp, _ENCODE_ONLY, _ROWS, _ROW_FIRSTS, _TABLE_FORMS, 0)


def _encode_with(cp, only, rows, firsts, table_forms, start):
    """_encode_cp over one set of encoder tables (a spec's, or one mode's), the bytes
    checked by decoding them from automaton state *start*."""
    if cp in only:
        return only[cp]
    got = _encode_row(cp, rows, firsts)
    if got is None:
        for k, positions, order in table_forms:
            p = _table_pointer(k, cp)
            if p is not None:
                got = _encode_digits(positions, p, order)
                break
    if got is None or _UNDECODABLE:
        return got
    tok = _run(got, 0, True, start, 0, 0, None)
    if tok[0] == "char" and tok[2] == len(got) and tok[3] == cp:
        return got
    return None


_MODE_MEMO: dict = {}  # (mode, code point) -> its bytes in that mode, or None


def _mode_bytes(m, cp):
    """The bytes of *cp* in mode *m* (no shift), or None where that mode has none."""
    key = (m, cp)
    if key not in _MODE_MEMO:
        rows, firsts, table_forms, only = _MODE_ENCODERS[m][:4]
        _MODE_MEMO[key] = _encode_with(cp, only, rows, firsts, table_forms, _MODES[m][0])
    return _MODE_MEMO[key]


def _pair_reads_as_one():
    """Whether the bytes of a lead surrogate code point followed by those of a trail
    one read back as one token, found by decoding them: the pair form (WTF-16,
    where 4.1 says "the resulting sequence will not represent the original code
    points") or an ill-formed pattern (WTF-8).  The first and the last pair stand
    for the rest (the surrogates are two ranges of one shape); a token still
    unfinished after both counts as one too (what follows decides)."""
    for lead, trail in ((0xD800, 0xDC00), (0xDBFF, 0xDFFF)):
        first, second = _encode_cp(lead), _encode_cp(trail)
        if first is not None and second is not None:
            tok = _scan(first + second, 0, False, _STARTS[0])
            if tok is None or tok[2] > len(first):
                return True
    return False


# encoders never write a lead's bytes and a trail's in a row where this holds
PAIR_READS_AS_ONE = _pair_reads_as_one()


def _unencodable_reason(cp):
    """The spec's words (``reason unencodable``), else CPython's for a surrogate (code that
    matches on them keeps working), else ours."""
    if _UNENCODABLE is not None:
        return _UNENCODABLE
    if 0xD800 <= cp <= 0xDFFF:
        return "surrogates not allowed"
    return "code point not encodable in " + NAME


# ------------------------------------------------------------- encoder state
# The encoder's state is an int: what the bytes written so far tell the next code
# point.  Bits 0..20: the lead surrogate whose bytes end them where a trail's bytes
# would read back with them as one token (PAIR_READS_AS_ONE), else 0; bit 21 is the
# incremental encoder's "nothing written yet"; a mode (a shift state) would take
# bits of its own.  Apart from getstate()'s bits 22 and up (the start of a sequence
# an incremental encoder holds back: _held_state), it holds facts about bytes
# already written, never bytes still to write (docs: "Nothing held back"): _flush
# writes what returns to the start mode at the end of every text and every
# incremental piece, final or not, so no piece leaves a mode for the next
# (without modes it writes nothing).
_ENCODE_START = 0
_LEAD_BITS = (1 << 21) - 1
_FIRST_BIT = 1 << 21
_MODE_SHIFT = 22  # bits 22..29: the mode the bytes written so far leave the encoder in
_MODE_MASK = 0xFF << _MODE_SHIFT
_HELD_SHIFT = 30  # getstate()'s bits 30 and up: code points held back (_held_state)


def _encode_in(state, cp, bytes_of=None):
    """(bytes, next state) of code point *cp* written in encoder state *state*; bytes
    None where it cannot follow there (unencodable, or a trail surrogate after a
    lead's bytes).  Without modes the bytes depend on the code point alone, so
    *bytes_of* (a code point's bytes or None; default _encode_cp) is memoised by
    code point; a spec with modes would key it by (mode, code point)."""
    if _MODES:
        return _encode_in_mode(state, cp)
    if state & _LEAD_BITS and 0xDC00 <= cp <= 0xDFFF:
        return None, state
    b = (bytes_of or _encode_cp)(cp)
    if b is None:
        return None, state
    return b, (state & ~_LEAD_BITS) | (cp if PAIR_READS_AS_ONE and 0xD800 <= cp <= 0xDBFF else 0)


def _encode_in_mode(state, cp):
    """_encode_in for a spec with modes: *cp* in the current mode where the encoder is
    sticky and the mode holds it, else in the first mode (by the encoder's preference)
    that holds it, after the shortest shift bytes into that mode."""
    m = (state & _MODE_MASK) >> _MODE_SHIFT
    if _STICKY:
        b = _mode_bytes(m, cp)
        if b is not None:
            return b, state
    if _CHEAPEST:
        return _encode_cheapest(state, m, cp)
    for k in _MODE_ORDER:
        b = _mode_bytes(k, cp)
        if b is None:
            continue
        if k == m:
            return b, state
        path = _MODE_ENCODERS[m][4][k]
        if path is not None:
            return path + b, (state & ~_MODE_MASK) | (k << _MODE_SHIFT)
    return None, state


def _cheapest(m, modes):
    """The mode of *modes* the shifts from mode *m* reach with the fewest bytes (the first
    listed among equals), and those bytes; (None, None) where none is reached."""
    best = None
    for k in modes:
        path = _MODE_ENCODERS[m][4][k]
        if path is not None and (best is None or len(path) < len(best[1])):
            best = (k, path)
    return best if best is not None else (None, None)


def _encode_cheapest(state, m, cp):
    """_encode_in_mode with `cheapest`: of the modes that hold *cp*, the one its shifts
    reach from mode *m* with the fewest bytes (the current one costs none)."""
    k, path = _cheapest(m, [k for k in _MODE_ORDER if _mode_bytes(k, cp) is not None])
    if k is None:
        return None, state
    return path + _mode_bytes(k, cp), (state & ~_MODE_MASK) | (k << _MODE_SHIFT)


def _before_unencodable(state):
    """(bytes, next state) the encoder writes before a code point it cannot write: the
    shift into the mode the spec says (`unencodable -> MODE`), else nothing."""
    if _MODES:
        m = (state & _MODE_MASK) >> _MODE_SHIFT
        k = _MODE_ENCODERS[m][5]
        if k >= 0 and k != m:
            return _MODE_ENCODERS[m][4][k] or b"", (state & ~_MODE_MASK) | (k << _MODE_SHIFT)
    return b"", state


def _flush(state):
    """(bytes, next state) that end a text written in encoder state *state*: the shift
    into a mode a text may end in, the fewest bytes (nothing without modes, or there)."""
    if _MODES:
        m = (state & _MODE_MASK) >> _MODE_SHIFT
        if m not in _MODE_ENDS:
            k, path = _cheapest(m, _MODE_ENDS)
            if k is not None:
                return path, (state & ~_MODE_MASK) | (k << _MODE_SHIFT)
    return b"", state


def _after_bytes(state, data):
    """The encoder state after *data*, bytes a handler (or an earlier piece) wrote: only
    the bytes tell which lead surrogate they end with."""
    return (state & ~_LEAD_BITS) | (_lead_at_end(data) if PAIR_READS_AS_ONE and data else 0)


def _encode(cps, text, errors, start=0, stop=None, final=True, modes=None):
    """Encode a list of code points: ``(bytes, position reached)``; *text* is the str
    handed to error handlers.  With *stop*, only cps[start:] up to the first position
    at or after *stop* that a handler leaves it at.  (An incremental encoder holds back
    a tail that may still grow into a sequence before it calls this: _held_start.)

    At each position the longest sequence of _SEQUENCES the text holds there is
    written as one; else the code point alone (issue 30, CPython's multibytecodec:
    a base character without its combining mark is written alone).

    Each code point is written in the encoder state the bytes before it leave
    (_encode_in).  Where a lead surrogate's bytes followed by a trail surrogate's
    read back as one token (PAIR_READS_AS_ONE), a trail surrogate never follows
    the bytes of a lead directly: where encoders join pairs (PAIR_ON_ENCODE,
    WTF-8), the two become one supplementary code point (6.1, and 6.5 when a
    handler dropped what was between them), so the bytes never hold the pair byte
    sequence the decoder rejects; elsewhere (WTF-16, whose pair form would read
    them back as that code point: 4.1, "the resulting sequence will not represent
    the original code points") the trail goes to the error handler (_PAIR_REASON).
    *modes*: a spec with modes' incremental encoder, a one-item list holding the
    encoder state to start from; the state reached is put back there, and the
    shift home is written only where *final*.
    """
    out = bytearray()
    handler = None
    state = _ENCODE_START if modes is None else modes[0]
    seqs = _SEQUENCES
    # code point -> bytes or None, for this call; a starter's None sends it to the sequences
    # below, so that a spec without them does no extra work per code point
    known = dict.fromkeys(seqs)

    def bytes_of(c):
        if c not in known:
            known[c] = _encode_cp(c)
        return known[c]

    def put(c):
        """Write *c* after what out holds; False where it cannot follow there."""
        nonlocal state
        b, nxt = _encode_in(state, c, bytes_of)
        if b is None and PAIR_ON_ENCODE and state & _LEAD_BITS and bytes_of(c) is not None:
            lead = state & _LEAD_BITS
            joined = bytes_of(0x10000 + ((lead - 0xD800) << 10) + (c - 0xDC00))
            if joined is not None:  # within a call, the lead's bytes are still ours to rewrite
                del out[len(out) - len(bytes_of(lead)):]
                b, nxt = joined, state & ~_LEAD_BITS
            else:
                b, nxt = bytes_of(c), state & ~_LEAD_BITS
        if b is None:
            return False
        out.extend(b)
        state = nxt
        return True

    def put_alone(c):
        """Write starter *c* alone (no sequence follows it); False where it has no bytes."""
        nonlocal state
        if c not in seqs:
            return False
        if _MODES:  # in a mode that holds it, after the shift there
            b, nxt = _encode_in_mode(state, c)
            if b is None:
                return False
            out.extend(b)
            state = nxt
            return True
        b = _starter_alone(c)
        if b is None:
            return False
        out.extend(b)
        state &= ~_LEAD_BITS
        return True

    i = start
    n = len(cps)
    while i < n:
        if stop is not None and i >= stop:
            if modes is not None:
                modes[0] = state
            return bytes(out), i
        if (not _MODES or cps[i] not in seqs) and put(cps[i]):  # with modes put() would write a starter
            i += 1
            continue
        if seqs and cps[i] in seqs:
            if _MODES:
                got = _mode_sequence_at(state, cps, i, n)
                if got is not None:
                    out += got[1]
                    state = got[2]
                    i += got[0]
                    continue
            else:
                got = _sequence_at(cps, i, n)
                if got is not None:
                    out += got[1]
                    state &= ~_LEAD_BITS
                    i += got[0]
                    continue
            if put_alone(cps[i]):
                i += 1
                continue
        b = bytes_of(cps[i])
        j = i + 1
        # a run is one error where errors are maximal subparts of bytes (CPython's utf-8);
        # one code point at a time otherwise (its utf-16 and CJK codecs, WHATWG's encoders);
        # a run stops before a starter (what follows it decides)
        while b is None and _UNIT == 1 and not _SPAN and j < n and bytes_of(cps[j]) is None and \
                cps[j] not in seqs:
            j += 1
        if b is None and errors == "surrogateescape" and _UNIT == 1:
            # as CPython's encoders do: escape what can be, hand the rest to the handler
            while i < j and 0xDC80 <= cps[i] <= 0xDCFF:
                out += _intermediate(bytes([cps[i] - 0xDC00]))  # the byte it escaped, as written
                state &= ~_LEAD_BITS
                i += 1
            if i == j:
                continue
        if _MODES and b is None:  # the mode to report it from (WHATWG's ISO-2022-JP: ASCII)
            before, state = _before_unencodable(state)
            out += before
        if handler is None:
            handler = codecs.lookup_error(errors)
        exc = UnicodeEncodeError(NAME, text, i, j, _unencodable_reason(cps[i]) if b is None else _PAIR_REASON)
        replacement, at = handler(exc)
        if isinstance(replacement, str):
            for ch in replacement:
                if not put(ord(ch)) and not put_alone(ord(ch)):
                    raise UnicodeEncodeError(NAME, text, i, j, exc.reason)
        elif replacement:
            if len(replacement) % _UNIT:  # not whole code units: refused, as CPython's utf-16 does
                raise exc
            out += _intermediate(replacement)
            state = _after_bytes(state, out)  # the handler's bytes may end with a lead
        i = at + n if at < 0 else at
        if not 0 <= i <= n:
            raise IndexError(f"position {at} from error handler out of bounds")
    if modes is None or final:
        end, state = _flush(state)
        out += end
    if modes is not None:
        modes[0] = state
    return bytes(out), i


# ------------------------------------------------------------- sequences (issue 30)
_SEQ_LONGEST = max((1 + len(rest) for alts in _SEQUENCES.values() for rest, _ in alts), default=0)
# proper prefixes of the sequences: the tail an incremental encoder holds back
_SEQ_PREFIXES = frozenset((first,) + rest[:k] for first, alts in _SEQUENCES.items()
                          for rest, _ in alts for k in range(len(rest)))
# each sequence as text, and one pattern finding them longest first (alternatives are tried in order)
_SEQ_TEXT = {chr(first) + "".join(map(chr, rest)): b for first, alts in _SEQUENCES.items() for rest, b in alts}
_SEQ_RE = re.compile("|".join(re.escape(t) for t in sorted(_SEQ_TEXT, key=len, reverse=True))) if _SEQ_TEXT \
    else None
_SEQ_SPLIT = re.compile("(" + _SEQ_RE.pattern + ")") if _SEQ_RE is not None else None
_ALONE: dict = {}  # starter -> its bytes alone (never in _ENCODE_MEMO: what follows it decides)


def _starter_alone(cp):
    """The bytes of starter *cp* written alone (no sequence follows it), or None."""
    if cp not in _ALONE:
        _ALONE[cp] = _encode_cp(cp)
    return _ALONE[cp]


def _sequence_at(cps, i, n):
    """(length, bytes) of the longest sequence cps[i:n] begins with, or None."""
    for rest, b in _SEQUENCES[cps[i]]:
        k = len(rest)
        if i + k < n and tuple(cps[i + 1:i + 1 + k]) == rest:
            return k + 1, b
    return None


def _mode_sequence_at(state, cps, i, n):
    """(length, bytes, next state) of the longest sequence cps[i:n] begins with that a mode
    of the encoder's holds, after the shift into that mode (of the modes holding it: the
    current one where sticky, the cheapest to reach with `cheapest`, else the first by
    the encoder's preference); None where no mode holds one."""
    m = (state & _MODE_MASK) >> _MODE_SHIFT
    longest, holders = 0, []
    for k in _MODE_ORDER:
        for rest, b in _MODE_ENCODERS[k][6].get(cps[i], ()):
            size = len(rest) + 1
            if size >= longest and i + size <= n and tuple(cps[i + 1:i + size]) == rest:
                if size > longest:
                    longest, holders = size, []
                holders.append((k, b))
                break
    if not holders:
        return None
    if _STICKY and any(k == m for k, _ in holders):
        k = m
    elif _CHEAPEST:
        k = _cheapest(m, [k for k, _ in holders])[0]
    else:
        k = next((k for k, _ in holders if _MODE_ENCODERS[m][4][k] is not None), None)
    if k is None:
        return None
    return longest, _MODE_ENCODERS[m][4][k] + dict(holders)[k], (state & ~_MODE_MASK) | (k << _MODE_SHIFT)


def _starter_at(items, i):
    """(length, bytes) a one-shot encoder writes for the starter at items[i] (a str or
    code points): its longest sequence there (_sequence_at), else it alone; None where
    it alone has no bytes (the handler's).  Reads only the code points a sequence can
    reach, so a stop of the native loop at a starter costs no copy of the text."""
    window = items[i:i + _SEQ_LONGEST]
    cps = [ord(c) for c in window] if isinstance(window, str) else [int(c) for c in window]
    got = _sequence_at(cps, 0, len(cps))
    if got is not None:
        return got
    b = _starter_alone(cps[0])
    return None if b is None else (1, b)


def _sequence_text(items):
    """*items* as a str (one character per item, so positions agree), or None for code
    points no str holds (beyond U+10FFFF, not ints)."""
    if isinstance(items, str):
        return items
    try:
        return "".join(map(chr, items))
    except (ValueError, TypeError, OverflowError):
        return None


def _held_start(items):
    """Where the tail an incremental encoder holds back starts in *items* (a str or a
    list of code points; len(items): nothing held): the first place the longest-match
    parse reaches whose rest is a proper prefix of a sequence.  Sequences that start
    _SEQ_LONGEST or more before the end lie wholly in *items*, so the pattern's
    matches settle the parse up to there; the rest is parsed here."""
    n = len(items)
    lo = max(0, n - _SEQ_LONGEST + 1)
    text = _sequence_text(items)
    i = lo if text is not None else 0
    if text is not None:
        for m in _SEQ_RE.finditer(text):
            if m.end() > lo:
                i = min(m.start(), lo)
                break
    cps = [ord(c) for c in items[i:]] if isinstance(items, str) else list(items[i:])
    k, m = 0, len(cps)
    while k < m:
        if cps[k] in _SEQUENCES:
            if tuple(cps[k:]) in _SEQ_PREFIXES:
                return i + k
            got = _sequence_at(cps, k, m)
            if got is not None:
                k += got[0]
                continue
        k += 1
    return n


def _held_state(held):
    """The held-back code points as getstate()'s bits 30 and up (21 bits each, plus one)."""
    out = 0
    for cp in reversed(held):
        out = (out << 21) | (cp + 1)
    return out << _HELD_SHIFT


def _held_of(state):
    """The code points _held_state put in *state*."""
    out = []
    state >>= _HELD_SHIFT
    while state:
        out.append((state & 0x1FFFFF) - 1)
        state >>= 21
    return tuple(out)


# The reason for a trail surrogate after a lead's bytes where the two would read back as one
# supplementary code point (wtf-8.txt 4.1: "This situation should be considered an error").
_PAIR_REASON = ("a trail surrogate code point after a lead surrogate code point: "
                "the two would read back as one supplementary code point")


def _as_text(cps):
    return "".join(chr(c) if 0 <= c <= 0x10FFFF else "\ufffd" for c in cps)


class _Slow(Exception):
    """Not for the fast path: unencodable, or a surrogate an encoder must watch (PAIR_READS_AS_ONE)."""


class _EncodeMemo(dict):
    """char (or code point) -> bytes, filled on first use (so checked once per character):
    keyed by the code point alone, what its bytes depend on without modes (the
    surrogates whose bytes depend on the lead before them are never kept); code
    points wider than 32 bits are not kept (each could hold a long counted form)."""

    def __missing__(self, key):
        cp = ord(key) if isinstance(key, str) else key
        if PAIR_READS_AS_ONE and 0xD800 <= cp <= 0xDFFF:
            raise _Slow
        if cp in _SEQUENCES:  # a starter (where no sequence follows it): alone, never kept here
            b = _starter_alone(cp)
            if b is None:
                raise _Slow
            return b
        b = _encode_cp(cp)
        if b is None:
            raise _Slow
        if len(self) < 65536 and cp >> 32 == 0:
            self[key] = b
        return b


_ENCODE_MEMO = _EncodeMemo()


class _BetweenMemo(_EncodeMemo):
    """_EncodeMemo for the code points between the sequences _encode_fast_sequences found:
    there a starter is alone, so its bytes alone are kept too (in this memo only)."""

    def __missing__(self, key):
        cp = ord(key) if isinstance(key, str) else key
        if cp not in _SEQUENCES:
            return _EncodeMemo.__missing__(self, key)
        b = _starter_alone(cp)
        if b is None:
            raise _Slow
        self[key] = b
        return b


_BETWEEN_MEMO = _BetweenMemo()
_ASCII_IDENTITY = all(_encode_cp(c) == bytes([c]) for c in range(0x80)) and not any(c < 0x80 for c in _SEQUENCES)


def _encode_fast(items):
    """Bytes of a str or list of code points, or None where the exact path is needed."""
    if _MODES:  # a code point's bytes depend on the mode before it
        return None
    if _ASCII_IDENTITY and isinstance(items, str) and items.isascii():
        return items.encode("ascii")
    try:
        if _SEQ_RE is not None:
            return _encode_fast_sequences(items, _BETWEEN_MEMO.__getitem__)
        get = _ENCODE_MEMO.__getitem__
        return b"".join([b"".join(map(get, items[i:i + 65536])) for i in range(0, len(items), 65536)])
    except _Slow:
        return None


def _encode_fast_sequences(items, get):
    """_encode_fast where the spec has sequences: each the pattern finds (longest first,
    leftmost: the longest-match rule) is written as one, the code points between alone."""
    text = _sequence_text(items)
    if text is None:
        raise _Slow
    parts = _SEQ_SPLIT.split(text)  # the text between sequences, then a sequence, ...: in C
    seq = _SEQ_TEXT
    return b"".join([b"".join(map(get, part)) if k % 2 == 0 else seq[part] for k, part in enumerate(parts)])


# The native encoder's memo, shared with the C loops: per code point below its
# length (the BMP; further once a code point beyond it needs it) its bytes
# (_MEMO_WIDTH a code point, padded) and their number (0: not known yet).  The
# loops read it first and fill it from the spec's straight-line code; the core
# puts in it what only it decides (mapping tables, counted forms, encoder-only
# entries) as the text needs it.
_MEMO_BYTES = None
_MEMO_LENS = None
# The native loops write a row's code points (the spec's straight-line code) without asking the
# memo's maker: where a starter lies in a row they would write it alone, so there the core
# encodes, unless the extension says it stops at starters itself (STOPS_AT_STARTERS).
# Not with modes: a code point's bytes depend on the mode before it (the core's _encode_in_mode);
# there the extension's encode_modes writes (_NATIVE_MODES). Not with a run of digits (UTF-7).
_NATIVE_ENCODE = not _MODES and _DIGITS is None and _NATIVE is not None and hasattr(_NATIVE, "encode_str") and (
    getattr(_NATIVE, "STOPS_AT_STARTERS", False) or not any(_encode_row(c) is not None for c in _SEQUENCES))
_MEMO_WIDTH = _NATIVE.memo_width() if _NATIVE_ENCODE and hasattr(_NATIVE, "memo_width") else 4  # bytes an entry


def _memo():
    """Make the memo (the BMP's) on first use."""
    global _MEMO_BYTES, _MEMO_LENS
    if _MEMO_LENS is None:
        _MEMO_BYTES, _MEMO_LENS = bytearray(_MEMO_WIDTH << 16), bytearray(1 << 16)


def _memo_room(cp):
    """Make the memo long enough to hold *cp*; False beyond Unicode."""
    if not 0 <= cp < 0x110000:
        return False
    _memo()
    if cp >= len(_MEMO_LENS):
        _MEMO_BYTES.extend(bytes(_MEMO_WIDTH * 0x110000 - len(_MEMO_BYTES)))
        _MEMO_LENS.extend(bytes(0x110000 - len(_MEMO_LENS)))
    return True


def _memo_put(cp, b):
    """Put *b* in the memo for *cp* if it fits (at most an entry's bytes, cp within Unicode)."""
    if len(b) > _MEMO_WIDTH or not _memo_room(cp):
        return False
    _MEMO_BYTES[_MEMO_WIDTH * cp:_MEMO_WIDTH * cp + len(b)] = b
    _MEMO_LENS[cp] = len(b)
    return True


# The extension applies error handlers itself (encode_memo's errors, encode.c.j2's error path)
# to the code points the memo marks refused (_REFUSED, put there by _learn_run), where an entry
# is four bytes (an entry of eight would read the mark as a length) and no encoder state is
# kept (PAIR_READS_AS_ONE); codecs' own handlers are written there, others called from there.
_REFUSED = 6
_NATIVE_ERRORS = _NATIVE_ENCODE and getattr(_NATIVE, "ENCODE_ERRORS", 0) == 1 and _MEMO_WIDTH == 4 and \
    not PAIR_READS_AS_ONE
# codecs' own handlers by identity (a name may be registered again), as the extension's modes
_ENCODE_MODES = {codecs.lookup_error(name): mode for mode, name in
                 enumerate(("replace", "ignore", "xmlcharrefreplace", "backslashreplace", "surrogateescape"), 1)}


def _learn_run(text, pos):
    """Put in the memo what the extension needs to apply a handler at text[pos] itself:
    the unencodable code points of the run from there (refused) and the bytes of the
    one that ends it; whether anything went in (else the core applies the handler)."""
    new = False
    for k in range(pos, len(text)):
        cp = ord(text[k])
        known = _MEMO_LENS[cp] if cp < len(_MEMO_LENS) else 0
        if known == _REFUSED:
            continue
        if known or _paired(cp) or cp in _SEQUENCES:
            break
        b = _encode_cp(cp)
        if b is not None:
            return _memo_put(cp, b) or new
        if not _memo_room(cp):
            break
        _MEMO_LENS[cp] = _REFUSED
        new = True
    return new


def _handled(text, start, end, exc, got):
    """(bytes, position) for handler result *got* of the error text[start:end] (*exc*):
    what _encode writes for it (each character of a str alone; without encoder state,
    as _NATIVE_ERRORS has none), or its exception; the extension's error path asks
    for what it does not write itself."""
    replacement, at = got
    out = bytearray()
    if isinstance(replacement, str):
        for ch in replacement:
            c = ord(ch)
            b = _starter_alone(c) if c in _SEQUENCES else _encode_cp(c)
            if b is None:
                raise UnicodeEncodeError(NAME, text, start, end, exc.reason)
            out += b
    elif replacement:
        if len(replacement) % _UNIT:  # not whole code units: refused, as in _encode
            raise exc
        out += _intermediate(replacement)
    n = len(text)
    i = at + n if at < 0 else at
    if not 0 <= i <= n:
        raise IndexError(f"position {at} from error handler out of bounds")
    return bytes(out), int(i)


def _errors_context(errors):
    """What encode_memo reads to apply handler *errors* itself (see _NATIVE_ERRORS)."""
    handler = codecs.lookup_error(errors)
    mode = _ENCODE_MODES.get(handler, 6)  # 6: called
    if mode == 5 and _UNIT != 1:  # surrogateescape's bytes are not whole code units: called, refused
        mode = 6
    return (mode, _UNIT == 1 and not _SPAN, _UNIT, handler, NAME,
            (_unencodable_reason(0xD800), _unencodable_reason(0)), _FROM_REAL, _handled)


def _paired(cp):
    """Whether encoders must watch *cp*'s neighbour (a surrogate, with PAIR_READS_AS_ONE)."""
    return PAIR_READS_AS_ONE and 0xD800 <= cp <= 0xDFFF


def _encode_native(items, errors, first=None):
    """The bytes of a str (or a list, array or memoryview of code points) through
    the native loops; what they stop at (a code point neither the spec's straight-line
    code nor the memo writes) is decided here: put in the memo, written here, or, where
    it is unencodable (or a surrogate an encoder must watch), the run up to the next
    code point that is neither goes to _encode.  *first*: encode_str's answer, given."""
    is_str = isinstance(items, str)
    _memo()
    if is_str:
        got = _NATIVE.encode_str(items, _MEMO_BYTES, _MEMO_LENS) if first is None else first
        if type(got) is bytes:
            return got
        out, pos = bytearray(got[0]), got[1]
        step = _NATIVE.encode_memo
    else:
        out, pos = bytearray(), 0
        step = _NATIVE.encode_cps
    decide = is_str  # whether the loop stopped at pos
    n = len(items)
    cps = None
    ctx = None  # the handler the extension applies (_errors_context), from the first error on
    declined = False  # whether the loop stopped at pos with ctx (it could not apply the handler there)
    window = 1 << 8  # code points handed to the loop at once: grows while it gets through, so
    while True:      # that frequent stops cost in proportion to what the loop did, not to the text
        if decide and pos < n:
            c = items[pos]
            cp = ord(c) if is_str else int(c)
            try:
                b = None if _paired(cp) or cp in _SEQUENCES else _ENCODE_MEMO[c if is_str else cp]
            except _Slow:
                b = None
            seq = _starter_at(items, pos) if b is None and cp in _SEQUENCES and not _paired(cp) else None
            if seq is not None:  # where the loop stopped at a starter (the end of its piece): decided here
                out += seq[1]
                pos += seq[0]
            elif b is not None:
                # into the memo, unless longer than its four bytes, beyond Unicode, or an item
                # the loop does not read as an int (a bool, an int subclass): written here
                if not ((is_str or type(c) is int) and _memo_put(cp, b)):
                    out += b
                    pos += 1
            else:
                if ctx is None and is_str and _NATIVE_ERRORS and errors != "strict":
                    ctx = _errors_context(errors)
                if ctx is not None and (_learn_run(items, pos) or not declined):
                    pass  # the extension applies the handler there now
                else:
                    if cps is None:
                        cps = [ord(ch) for ch in items] if is_str else [int(c) for c in items]
                        text = items if is_str else _as_text(cps)
                    stop = pos + 1
                    while stop < n and (_paired(cps[stop]) or cps[stop] in _SEQUENCES or
                                        _encode_cp(cps[stop]) is None):
                        stop += 1
                    if stop >= n:
                        out += _encode(cps, text, errors, pos)[0]
                        return bytes(out)
                    got, pos = _encode(cps, text, errors, pos, stop)
                    out += got
        if pos >= n:
            return bytes(out)
        if ctx is not None:  # the whole text: the handler's positions are in it
            got = step(items, pos, _MEMO_BYTES, _MEMO_LENS, out, None, ctx)
            declined = got == pos
            pos = got
            decide = True
            continue
        piece = items if pos == 0 and window >= n else items[pos:pos + window]
        got = step(piece, 0, _MEMO_BYTES, _MEMO_LENS, out)
        if got < 0:  # not a sequence the loop reads: a list of its ints
            items = [int(c) for c in items]
            decide = False
            continue
        if piece is not items:
            window = min(window * 2, 1 << 20) if got == len(piece) else max(1 << 8, 2 * got)
        decide = got < len(piece)  # else the window ended there, not a stop
        pos += got


_RUN_MEMO: dict[int, tuple[bytes | None, bool]] = {}  # code point -> _run_own's answer, the first 4096


def _run_own(cp: int) -> tuple[bytes | None, bool]:
    """(the bytes the encoder writes for *cp* by its form, None where it goes into a run;
    whether it is an `encode-direct` code point, which ends a run), remembered."""
    got = _RUN_MEMO.get(cp)
    if got is not None:
        return got
    direct = any(lo <= cp <= hi for lo, hi in _DIGITS[7])
    own = _encode_cp(cp) if 0 <= cp <= MAX_CODE_POINT else None
    if own is not None and not (direct or own[:1] == bytes((_DIGITS[0],))):
        own = None
    if len(_RUN_MEMO) < 4096:
        _RUN_MEMO[cp] = (own, direct)
    return own, direct


def _encode_run(cps: list[int], text: str, errors: str, state: int = 0, final: bool = True) -> tuple[bytes, int]:
    """The bytes of *cps* for a spec with a run of digits (UTF-7, as CPython's encoder
    writes it), from encoder *state* and the state after them: in a run (bit 0), the
    bits not yet written as a digit (bits 1..3 their count, 4 and up their value).

    Out of a run, an `encode-direct` code point is written by its form, and so is one
    whose form starts with the opening byte ("+-"); any other opens a run and goes
    into it as units (a surrogate pair beyond U+FFFF).  In a run, a direct code point
    ends it: the last bits as a digit (zero-padded), the end byte where the code
    point's bytes start with a digit or the end byte (else the run ends implicitly),
    then its bytes.  The text ends out of a run (the end byte written, always) where
    *final*; otherwise the state carries the run to the next piece.  A code point no
    unit can hold goes to the error handler."""
    opener, values, bits, width, end_byte, pairs, alphabet, _, _ = _DIGITS
    out = bytearray()
    in_run, nbits, buf = state & 1, (state >> 1) & 7, state >> 4
    mask = (1 << bits) - 1
    handler = None
    i, n = 0, len(cps)
    while i < n:
        cp = cps[i]
        own, direct = _run_own(cp)
        if own is not None and (direct or not in_run):
            if in_run:
                if nbits:
                    out.append(alphabet[(buf << (bits - nbits)) & mask])
                    buf = nbits = 0
                in_run = 0
                if end_byte >= 0 and (values[own[0]] != 0xFF or own[0] == end_byte):
                    out.append(end_byte)
            out += own
            i += 1
            continue
        if cp > (0x10FFFF if pairs else (1 << width) - 1) or cp < 0:
            if handler is None:
                handler = codecs.lookup_error(errors)
            replacement, at = handler(UnicodeEncodeError(NAME, text, i, i + 1, _UNENCODABLE or "code point not in range"))
            if not isinstance(replacement, str):
                raise UnicodeEncodeError(NAME, text, i, i + 1, "the handler's bytes cannot be written in a run")
            at = at + n if at < 0 else at
            cps = cps[:i] + [ord(c) for c in replacement] + cps[at:]
            text = text[:i] + replacement + text[at:]
            n = len(cps)
            if any(ord(c) > (0x10FFFF if pairs else (1 << width) - 1) for c in replacement):
                raise UnicodeEncodeError(NAME, text, i, i + 1, "the handler's replacement cannot be written")
            continue
        if not in_run:
            out.append(opener)
            in_run = 1
        units = (0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + (cp & 0x3FF)) if cp > 0xFFFF else (cp,)
        for unit in units:
            buf = (buf << width) | unit
            nbits += width
            while nbits >= bits:
                nbits -= bits
                out.append(alphabet[buf >> nbits])
                buf &= (1 << nbits) - 1
        i += 1
    if final and in_run:
        if nbits:
            out.append(alphabet[(buf << (bits - nbits)) & mask])
        if end_byte >= 0:
            out.append(end_byte)
        in_run = nbits = buf = 0
    return bytes(out), in_run | nbits << 1 | buf << 4


# A spec with modes: the extension's encode_modes (the C export's engine over
# description.mode_choice) writes from an encoder state, and stops where _encode
# decides (a code point it cannot write, a trailing start of a sequence).
_NATIVE_MODES = bool(_MODES) and _NATIVE is not None and hasattr(_NATIVE, "encode_modes")


def _replaces(errors):
    """Whether *errors* is codecs' own replace handler (the extension writes its "?")."""
    return errors == "replace" and _ENCODE_MODES.get(codecs.lookup_error(errors)) == 1


def _encode_modes_native(text, cps, errors, state, final):
    """(bytes, state) of str *text* (whose code points are *cps*, or None: made when
    needed) from encoder state *state*, as _encode with *modes* gives them: the
    extension writes up to where it stops, _encode takes the code point there (its
    handler, from the state reached), and the extension goes on after it."""
    out = []
    pos, n = 0, len(text)
    replace = _replaces(errors)
    while True:
        got, pos, state = _NATIVE.encode_modes(text, pos, state, final, replace)
        out.append(got)
        if pos >= n:
            return b"".join(out), state
        if cps is None:
            cps = [ord(ch) for ch in text]
        box = [state]
        got, pos = _encode(cps, text, errors, pos, pos + 1, final, box)
        out.append(got)
        state = box[0]
        if pos >= n:
            return b"".join(out), state


def _encode_items(items, errors):
    """The bytes of a str or code points: the native loops or the fast path, else _encode."""
    if _DIGITS is not None:
        cps = [ord(ch) for ch in items] if isinstance(items, str) else [int(c) for c in items]
        return _encode_run(cps, items if isinstance(items, str) else _as_text(cps), errors)[0]
    if _NATIVE_MODES and isinstance(items, str):
        return _encode_modes_native(items, None, errors, _ENCODE_START, True)[0]
    if isinstance(items, str):
        if _NATIVE_ENCODE:
            return _encode_native(items, errors)
        body = _encode_fast(items)
        if body is not None:
            return body
        return _encode([ord(ch) for ch in items], items, errors)[0]
    if _NATIVE_ENCODE:
        if not isinstance(items, (list, array, memoryview)):
            items = [int(c) for c in items]
        return _encode_native(items, errors)
    cps = [int(c) for c in items]
    body = _encode_fast(cps)
    if body is not None:
        return body
    return _encode(cps, _as_text(cps), errors)[0]


def encode(text_or_codepoints, errors="strict", signature=None):
    """Encode a ``str`` or an iterable of code points (ints of any size) to bytes; the
    signature first with signature=True (None: where the spec's signatures are byte
    order marks, as CPython's utf-16 writes its BOM)."""
    signed = _WRITES_SIGNATURE if signature is None else signature
    if _NATIVE_MODES and type(text_or_codepoints) is str and not signed:  # one call where nothing stops it
        got, pos, _ = _NATIVE.encode_modes(text_or_codepoints, 0, _ENCODE_START, True, _replaces(errors))
        if pos == len(text_or_codepoints):
            return got if _TO_REAL is None else got.translate(_TO_REAL)
    if _NATIVE_ENCODE and type(text_or_codepoints) is str:
        if _MEMO_LENS is None:
            _memo()
        # the signature written by the loop, before the text: not a second copy of the bytes
        got = _NATIVE.encode_str(text_or_codepoints, _MEMO_BYTES, _MEMO_LENS, SIGNATURE) if signed else \
            _NATIVE.encode_str(text_or_codepoints, _MEMO_BYTES, _MEMO_LENS)
        return _real(got if type(got) is bytes else _encode_native(text_or_codepoints, errors, got))
    body = _encode_items(text_or_codepoints, errors)
    return _real((SIGNATURE + body) if signed else body)


# ------------------------------------------- potentially ill-formed UTF-16
if PAIR_ON_ENCODE:
    # The conversions of wtf-8.txt, section 6.3 to 6.5, for 16-bit code units as ints.
    def from_wtf16(units):
        """Code units (potentially ill-formed UTF-16) to bytes: 4.2 decoding, then 6.1 encoding."""
        units = list(units)
        cps = []
        i = 0
        while i < len(units):
            u = units[i]
            if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
                cps.append(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00))
                i += 2
            else:
                cps.append(u)
                i += 1
        return encode(cps)

    def _pair_halves(data, start, end):
        """The lead and trail surrogate code points of an error token that is a surrogate
        pair byte sequence (each half decodes alone, 6.2), else None."""
        for k in range(start + 1, end):
            a = list(_tokens(data[start:k], 0, True, 0))
            b = list(_tokens(data[k:end], 0, True, 0))
            if (len(a) == 1 == len(b) and a[0][0] == "char" == b[0][0]
                    and 0xD800 <= a[0][3] <= 0xDBFF and 0xDC00 <= b[0][3] <= 0xDFFF):
                return [a[0][3], b[0][3]]
        return None

    def _wtf8_items(data, strict):
        """(start, end, code points, ill-formed) per token; ill-formed input "never fails"
        (6.3, 6.4): a surrogate pair byte sequence gives its two surrogates, any other
        ill-formed subsequence U+FFFD; strict raises UnicodeDecodeError instead."""
        for kind, start, end, value, reason in _tokens(data):
            if kind == "char":
                yield start, end, [value], False
            elif kind == "signature":
                continue
            elif strict:
                raise UnicodeDecodeError(NAME, data, start, end, reason or "reserved sequence")
            else:
                pair = _pair_halves(data, start, end) if kind == "error" else None
                yield start, end, pair or [0xFFFD], True

    def to_wtf16(data, strict=False):
        """6.3: bytes to 16-bit code units (6.2 decoding, then 4.1 encoding).  Never fails:
        lossless for well-formed WTF-8; strict=True raises on ill-formed input instead."""
        data = bytes(data)
        units = []
        for _start, _end, cps, _bad in _wtf8_items(data, strict):
            for cp in cps:
                if cp >= 0x10000:
                    units += [((cp - 0x10000) >> 10) + 0xD800, ((cp - 0x10000) & 0x3FF) + 0xDC00]
                else:
                    units.append(cp)
        return units

    def to_utf8(data, strict=False):
        """6.4: UTF-8 bytes.  Lossy (never fails): each surrogate byte sequence, paired or
        not, becomes EF BF BD in place, any other ill-formed subsequence EF BF BD too;
        strict=True fails on a surrogate byte sequence and on ill-formed input."""
        data = bytes(data)
        out = bytearray()
        for start, end, cps, bad in _wtf8_items(data, strict):
            if bad or 0xD800 <= cps[0] <= 0xDFFF:
                if strict:
                    raise UnicodeDecodeError(NAME, data, start, end, "surrogate code point")
                out += b"\xef\xbf\xbd" * len(cps)
            else:
                out += data[start:end]
        return bytes(out)

    def concat(left, right):
        """6.5: join two byte strings, pairing a final lead surrogate with an initial trail surrogate."""
        left, right = bytes(left), bytes(right)
        last = None
        for tok in _tokens(left):
            last = tok
        first = next(_tokens(right), None)
        if (last and first and last[0] == "char" and first[0] == "char"
                and 0xD800 <= last[3] <= 0xDBFF and 0xDC00 <= first[3] <= 0xDFFF):
            joined = _encode_cp(0x10000 + ((last[3] - 0xD800) << 10) + (first[3] - 0xDC00))
            if joined is not None:
                return left[:last[1]] + joined + right[first[2]:]
        return left + right


# ----------------------------------------------------------- codec classes
class Codec(codecs.Codec):
    def encode(self, input, errors="strict"):
        return encode(input, errors), len(input)

    def decode(self, input, errors="strict"):
        data = bytes(input)
        return "".join(_decode(data, errors, True, START, True)[0]), len(data)


_SPLIT_PAIR = "a trail surrogate after a lead surrogate an earlier piece wrote: the pair can no longer be joined"


def _first_trail(items, start):
    """The index of the first trail surrogate in items[start:] (a str or ints), or -1."""
    if isinstance(items, str):
        m = _TRAIL.search(items, start)
        return m.start() if m else -1
    return next((k for k in range(start, len(items)) if 0xDC00 <= items[k] <= 0xDFFF), -1)


_TRAIL = re.compile("[\udc00-\udfff]")


def _lead_at_end(data):
    """The lead surrogate whose bytes end *data* (PAIR_READS_AS_ONE), or 0."""
    n = len(_encode_cp(0xD800))
    if len(data) < n:
        return 0
    tok = _scan(data[-n:], 0)
    return tok[3] if tok[0] == "char" and tok[2] == n and 0xD800 <= tok[3] <= 0xDBFF else 0


def _encode_slice(items, start, stop, errors):
    """The bytes of items[start:stop]; an error is placed in the whole of *items*."""
    if start == 0 and stop == len(items):
        return _encode_items(items, errors)
    try:
        return _encode_items(items[start:stop], errors)
    except UnicodeEncodeError as e:
        text = items if isinstance(items, str) else _as_text(items)
        raise UnicodeEncodeError(e.encoding, text, e.start + start, e.end + start, e.reason) from None


class IncrementalEncoder(codecs.IncrementalEncoder):
    """Encodes a str (or a list of code points) piece by piece, holding back only the
    start of a sequence (issue 30).

    Where the spec has sequences of code points written as one (_SEQUENCES), a piece
    that ends with a proper prefix of one (a trailing U+304B in euc_jis_2004) keeps
    it until the next piece (or final=True, or StreamWriter.reset()) decides, as
    CPython's multibytecodec does; getstate() holds it in bits 22 and up.  Otherwise
    every call returns all the bytes of its piece, final or not: TextIOWrapper
    (open()) and codecs.open never pass final=True nor flush an encoder, so
    what an encoder held would never reach the file (docs: "Nothing held
    back").  Where a lead surrogate's bytes followed by a trail's read back as
    one token (PAIR_READS_AS_ONE), a lead surrogate that ends a piece is written
    at once, and a trail surrogate whose bytes would follow it directly when the
    next piece starts goes to the error handler, as within a piece: where
    encoders join a lead and a trail (PAIR_ON_ENCODE, WTF-8 6.1) with reason
    _SPLIT_PAIR (the lead's bytes are out, the two can no longer be joined),
    elsewhere (WTF-16) with _PAIR_REASON.  getstate() is the encoder state (see
    _encode_in: the lead surrogate whose bytes end what was written, the mode)
    with _FIRST_BIT while nothing is written yet.  Every piece, final or not, ends
    with _flush, the bytes that return to the start mode: the next piece (and
    the state getstate() gives) starts from it.
    """

    write_signature = False
    _quick: bool  # the next str goes straight to the extension's encode_str (_settle)

    def __init__(self, errors="strict"):
        super().__init__(errors)
        self.reset()

    def encode(self, input, final=False):
        if _MODES:
            return self._encode_modes(input, final)
        if _DIGITS is not None:  # the run and its bits go on into the next piece
            cps = [ord(c) for c in input] if isinstance(input, str) else [int(c) for c in input]
            out, self._state = _encode_run(cps, input if isinstance(input, str) else _as_text(cps),
                                              self.errors, self._state & ~_FIRST_BIT, final)
            return out
        if self._quick and input.__class__ is str:
            # nothing before this piece changes its bytes: the module's encode of a str
            if _MEMO_LENS is None:
                _memo()
            got = _NATIVE.encode_str(input, _MEMO_BYTES, _MEMO_LENS)
            if got.__class__ is not bytes:
                got = _encode_native(input, self.errors, got)
            self._state = _ENCODE_START
            return got if _TO_REAL is None else got.translate(_TO_REAL)  # _real, without a call
        if not isinstance(input, str):
            input = [int(c) for c in input]
        if self._held:
            held = self._held
            input = ("".join(map(chr, held)) if isinstance(input, str) else list(held)) + input
        self._held = ()
        if _SEQUENCES and not final:
            k = _held_start(input)
            if k < len(input):
                self._held = tuple(map(ord, input[k:])) if isinstance(input, str) else tuple(input[k:])
                input = input[:k]
        out, at = b"", 0
        while self._state & _LEAD_BITS and not out:
            # a trail surrogate whose bytes would follow the lead's directly: the first
            # thing this piece writes (what stood before it, a handler dropped)
            i = _first_trail(input, at)
            if i < 0 or _encode_slice(input, at, i, self.errors):
                break
            out, at = self._split_pair(input, i)
        out += _encode_slice(input, at, len(input), self.errors)
        if self.write_signature and self._state & _FIRST_BIT:
            out = SIGNATURE + out
        self._state = _after_bytes(self._state & ~_FIRST_BIT, out) if out else self._state & ~_FIRST_BIT
        end, self._state = _flush(self._state)  # final or not: nothing is held back
        self._settle()
        return _real(out + end)

    def _encode_modes(self, input, final):
        """encode() for a spec with modes: the piece from the mode the last one left,
        the shift home only where *final* (so pieces equal the whole text, as CPython's
        ISO-2022 and HZ encoders give it); a trailing start of a sequence is held back
        with the mode (getstate()'s bits 30 and up), and written before the shift home."""
        cps = [ord(c) for c in input] if isinstance(input, str) else [int(c) for c in input]
        whole = isinstance(input, str) and not self._held
        cps, self._held = list(self._held) + cps, ()
        if _SEQUENCES and not final:  # a trailing start of a sequence waits for what follows
            k = _held_start(cps)
            whole = whole and k == len(cps)
            cps, self._held = cps[:k], tuple(cps[k:])
        text = input if whole else _as_text(cps)
        box = [self._state & ~_FIRST_BIT]
        if _NATIVE_MODES and isinstance(input, str):  # text holds cps as they are
            out, box[0] = _encode_modes_native(text, cps, self.errors, box[0], final)
        else:
            out = _encode(cps, text, self.errors, modes=box, final=final)[0]
        if self.write_signature and self._state & _FIRST_BIT:
            out = SIGNATURE + out
        self._state = box[0] if out or not self._state & _FIRST_BIT else box[0] | _FIRST_BIT
        return _real(out)

    def _settle(self) -> None:
        """Whether the next piece may go straight to the extension: a native encoder whose
        bytes never depend on what was written before (no pair of surrogates reads as one,
        no mode, no sequence whose start is held back) and no signature still to write."""
        self._quick = (_NATIVE_ENCODE and not PAIR_READS_AS_ONE and not _SEQUENCES
                       and self._state & ~_FIRST_BIT == _ENCODE_START
                       and not (self.write_signature and self._state & _FIRST_BIT))

    def _split_pair(self, input, i):
        """The handler's bytes for the trail surrogate at input[i], and where to go on."""
        text = input if isinstance(input, str) else _as_text(input)
        exc = UnicodeEncodeError(NAME, text, i, i + 1, _SPLIT_PAIR if PAIR_ON_ENCODE else _PAIR_REASON)
        replacement, at = codecs.lookup_error(self.errors)(exc)
        at = at + len(input) if at < 0 else at
        if not 0 <= at <= len(input):
            raise IndexError(f"position {at} from error handler out of bounds")
        if isinstance(replacement, str):
            if replacement[:1] and 0xDC00 <= ord(replacement[0]) <= 0xDFFF:
                raise exc
            try:
                replacement = _encode_items(replacement, "strict")
            except UnicodeEncodeError:
                raise exc from None
        elif len(replacement) % _UNIT:  # not whole code units: refused, as in _encode
            raise exc
        else:
            replacement = _intermediate(replacement)
        return bytes(replacement), at

    def reset(self):
        self._state = _ENCODE_START | _FIRST_BIT
        self._held = ()
        self._settle()

    def getstate(self):
        return self._state | _held_state(self._held)

    def setstate(self, state):
        self._state = state & ((1 << _HELD_SHIFT) - 1)
        self._held = _held_of(state)
        self._settle()

    def __del__(self):
        """Code points held back and never written are lost, so say so: builtin open()'s
        TextIOWrapper never finishes its encoder (CPython's own multibyte codecs lose them
        there silently)."""
        held = getattr(self, "_held", ())
        # a run of digits' last bits, not yet a whole digit (UTF-7): the last code point's
        bits = _DIGITS is not None and (getattr(self, "_state", 0) >> 1) & 7
        if held or bits:
            what = f"{len(held)} code point(s) held back as the start of a sequence" if held else \
                "the last bits of a run of digits"
            try:
                import warnings
                warnings.warn(f"{NAME}: {what} were never written: the encoder was not finished with "
                              "final=True (open()'s TextIOWrapper never finishes it; end the text with a "
                              "newline or use encspec's streams)", RuntimeWarning, stacklevel=2)
            except Exception:  # at interpreter exit: nothing left to warn with
                pass


class SignedIncrementalEncoder(IncrementalEncoder):
    """Writes the signature before the first output, like CPython's utf-8-sig."""

    write_signature = True


class IncrementalDecoder(codecs.IncrementalDecoder):
    """Keeps the bytes of an unfinished sequence (or signature) until more arrive.

    The scanner's state in an unfinished token is kept too, so a token longer than
    many inputs (a long reserved run) is read once, not again with each input; a
    counted form's token is scanned again only once the input has doubled.  With
    surrogates=False, surrogate code points are errors (SURROGATE_REASON), for text
    that must be UTF-8.  getstate() is (pending bytes, the scanner state where
    they begin: START before anything is read, else the mode << 1).
    """

    _want_str = True
    _pending: bytes | bytearray  # the bytes of an unfinished token (or signature)
    _resume: tuple | None  # the scanner's place in it (see _decode), or None
    _wait: int  # a long counted token: the pending size to wait for, else 0
    _quick: bool  # the next chunk goes to the extension's feed (_settle)
    _start: int  # the mode every token starts in

    def __init__(self, errors="strict", surrogates=True):
        super().__init__(errors)
        self.surrogates = surrogates
        self.reset()

    def decode(self, input, final=False):
        if self._quick:
            # the extension's feed: the whole chunk in one call (see _settle)
            got = _FEED(self._pending, input, self.errors, final, self._start, COUNTED_LIMIT, self.surrogates)
            if _MODES and got is not None:  # and the state where it ends or stops (a shift sets it)
                got, self._start = got
            if got.__class__ is str:
                self._pending = b""
                self._state = self._start << 1
                return got
            if got is not None:
                text, rest = got
                self._state = self._start << 1
                if rest.__class__ is bytes:  # a short unfinished token: scanned again with more input
                    self._pending = rest
                    return text
                return text + "".join(self._go_on(self._pending + bytes(input), final, rest))
        out = self._feed(bytes(input), final)
        return "".join(out) if self._want_str else out

    def _settle(self) -> None:
        """Whether the next chunk may go to the extension's feed: a str decoder with no
        permutation, no signature still to come, no long token whose scan resumes or
        waits, nothing held, pending bytes as bytes (with surrogates false, a chunk whose
        text holds one takes the exact path: feed says None)."""
        self._start = self._state >> 1
        self._quick = (_FEED is not None and self._want_str and _FROM_REAL is None
                       and not (SIGNATURES and self._state & 1)
                       and self._resume is None
                       and not self._wait and not self._held and self._pending.__class__ is bytes)

    def _feed(self, input, final):
        if not final and self._wait:
            # waiting for a long token: keep the pieces, join them once there are enough
            self._held.append(input)
            self._size += len(input)
            if self._size < self._wait:
                return []
            input = b"".join(self._held)
            self._held = []
            self._size = 0
        elif self._held:
            input = b"".join(self._held) + input
            self._held = []
            self._size = 0
        if self._resume is not None and len(self._pending) >= 4096:
            # inside a long token whose scan resumes: grow it in place (amortised
            # linear), rather than copying it with every input
            if not isinstance(self._pending, bytearray):
                self._pending = bytearray(self._pending)
            self._pending += input
            data = self._pending
            if _FROM_REAL is not None:
                # and its intermediate twin, grown alike: translating the whole token again
                # with every input would cost its length each time
                twin = self._twin
                if twin is None or twin[0] is not data or len(twin[1]) != len(data) - len(input):
                    twin = (data, bytearray(data.translate(_FROM_REAL)))
                else:
                    twin[1].extend(input.translate(_FROM_REAL))
                self._twin = twin
        else:
            data = bytes(self._pending) + input if self._pending else input
        return self._go_on(data, final)

    def _go_on(self, data: bytes | bytearray, final: bool, pos: int = 0) -> list:
        """Decode *data* (the pending bytes and the input) from *pos*, as _decode does."""
        twin = self._twin if _FROM_REAL is not None and self._twin is not None and self._twin[0] is data else None
        out, consumed, suspended, self._state = _decode(data if twin is None else twin[1], self.errors, final,
                                                        self._state, self._want_str, self._resume,
                                                        self.surrogates, None if twin is None else data, pos)
        self._pending = data if not consumed and isinstance(data, bytearray) else bytes(data[consumed:])
        self._resume = None
        self._wait = 0
        if suspended is not None and suspended[0] < 0:
            # a counted form is scanned from its start each time: a long one waits
            # until the input has doubled, so that it costs linear time
            if len(self._pending) >= 256:
                self._wait = len(self._pending)
        else:
            self._resume = suspended
        self._settle()
        return out

    def reset(self):
        self.setstate((b"", START))

    def getstate(self):
        # the scanner state where the pending bytes begin (START: nothing read yet)
        return (bytes(self._pending) + b"".join(self._held), self._state)

    def setstate(self, state):
        self._pending, self._state = state
        self._twin = None  # (the pending bytearray, its bytes through the inverse permutation)
        self._held = []
        self._size = 0
        self._resume = None
        self._wait = 0
        self._settle()


class IncrementalCodePointDecoder(IncrementalDecoder):
    """An IncrementalDecoder whose decode() gives code points as ints (any size:
    nothing is lost beyond U+10FFFF)."""

    _want_str = False


class StreamWriter(Codec, codecs.StreamWriter):
    """Encodes through an IncrementalEncoder, which holds nothing back but the start of
    a sequence: each write() puts all its other bytes in the stream, so nothing else
    waits for a close() that codecs.open's StreamReaderWriter never passes on;
    reset() writes what is held (as CPython's multibytecodec StreamWriter does)."""

    _encoder = IncrementalEncoder

    def __init__(self, stream, errors="strict"):
        codecs.StreamWriter.__init__(self, stream, errors)
        self._incremental = self._encoder(errors)

    def write(self, object):
        self._incremental.errors = self.errors
        data = self._incremental.encode(object)
        if data:
            self.stream.write(data)

    def reset(self):
        state = self._incremental.getstate()
        # a mode to leave, code points held back, or a run of digits to end (UTF-7: bit 0)
        if state >> _MODE_SHIFT or (_DIGITS is not None and state & 1):
            self._incremental.errors = self.errors
            data = self._incremental.encode("", final=True)
            if data:
                self.stream.write(data)
        self._incremental.reset()

    def seek(self, offset, whence=0):
        self.stream.seek(offset, whence)
        if whence == 0 and offset == 0:
            self._incremental.reset()
        else:
            self._incremental.setstate(0)


class SignedStreamWriter(StreamWriter):
    """Writes the signature first (again after reset(), like CPython's utf-8-sig)."""

    _encoder = SignedIncrementalEncoder


class StreamReader(Codec, codecs.StreamReader):
    """Decodes through an IncrementalDecoder, so signatures and split sequences work.

    codecs.StreamReader.read never says final: at the end of the stream it passes
    back, with nothing new, the bytes this decode left.  That is taken as the end:
    they are decoded as one-shot decoding would (a character held back for a
    longer match comes out, a truncated sequence is an error), where CPython's
    own StreamReader would leave them undecoded.
    """

    def __init__(self, stream, errors="strict"):
        codecs.StreamReader.__init__(self, stream, errors)
        self._incremental = IncrementalDecoder(errors)
        self._left = b""

    def decode(self, input, errors="strict", final=False):
        data = bytes(input)
        dec = self._incremental
        dec.errors = errors
        pending = dec.getstate()[0]  # what it has not decoded: pending bytes and those held for a long token
        if not final and self._left and data == self._left:
            text = dec.decode(b"", True)  # the end of the stream
        else:
            if pending and not data.startswith(pending):  # not what this reader left: start afresh
                dec.setstate((b"", dec._state))
                pending = b""
            text = dec.decode(data[len(pending):], final)  # the extension's feed where it can
        self._left = dec.getstate()[0]
        return text, len(data) - len(self._left)

    def reset(self):
        codecs.StreamReader.reset(self)
        self._incremental.reset()
        self._left = b""


# --------------------------------------------------- public surface for tools
# What encspec's own io, codec and bench read of a module: these, never its private names.
def native():
    """The native backend this module decodes (and encodes) with: its compiled extension, the
    hook onto CPython's charmap codec (a single-byte spec), or None when it runs in pure Python
    (``encspec.load(..., backend=...)`` chooses)."""
    return _NATIVE


def memory() -> dict:
    """What the mapping tables and the encoder hold now, for ``encspec bench``'s memory table:
    ``tables`` (how many), ``entries`` (the pointers they map), ``table_data`` (the objects the
    tables and the encoder's table forms are), ``encoder_data`` (what the encoder has built so
    far), ``native_memo`` (the native encoder's memo buffers, empty before its first use) and
    ``charmap`` (whether it carries a single-byte code page for CPython's charmap codec)."""
    entries = 0
    tables: tuple[Any, ...] = _TABLES  # (ranges?, ..., chars, none, extra, ..., firsts, ..., lasts): see _lookup
    for t in tables:
        entries += (sum(last - first + 1 for first, last in zip(t[6], t[8])) if t[0]
                    else sum(ch != t[3] for ch in t[2])) + len(t[4])
    return {"tables": len(_TABLES), "entries": entries, "table_data": (_TABLES, _ENCODE_ONLY, _TABLE_FORMS),
            "encoder_data": (_INVERSE, _ENCODE_MEMO, _BETWEEN_MEMO, _ALONE),
            "native_memo": () if _MEMO_LENS is None else (_MEMO_BYTES, _MEMO_LENS),
            "charmap": _CHARMAP is not None}


def getregentry(signature=False):
    """The :class:`codecs.CodecInfo` of this encoding; with signature=True the
    ``NAME-sig`` variant, whose encoders write the signature first."""
    if signature:
        return codecs.CodecInfo(
            name=NAME + "-sig",
            encode=_SIGNED_CODEC_ENCODE,
            decode=_CODEC_DECODE,
            incrementalencoder=SignedIncrementalEncoder,
            incrementaldecoder=IncrementalDecoder,
            streamreader=StreamReader,
            streamwriter=SignedStreamWriter,
        )
    return codecs.CodecInfo(  # byte order marks are written as CPython's utf-16 writes its BOM
        name=NAME,
        encode=_CODEC_ENCODE,
        decode=_CODEC_DECODE,
        incrementalencoder=SignedIncrementalEncoder if _WRITES_SIGNATURE else IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=SignedStreamWriter if _WRITES_SIGNATURE else StreamWriter,
    )


# ------------------------------------------------------ native entry points
# The codec's decode and encode (what bytes.decode and str.encode call) and the
# module's own: with the extension, its builtin functions (_NATIVE.entry), which
# finish in C a call that needs nothing of this core (a whole buffer decoded with
# strict or a handler the extension applies itself, a str its loops write whole),
# so that a short call pays no Python frame, and pass any other call on, as it
# came, to the Python function below, which decides it as before.
def _signed_codec_encode(input, errors="strict"):
    return encode(input, errors, signature=True), len(input)


_CODEC_DECODE = Codec().decode
_CODEC_ENCODE = Codec().encode
_SIGNED_CODEC_ENCODE = _signed_codec_encode
if _NATIVE is not None and hasattr(_NATIVE, "entry") and _FROM_REAL is None:
    def _entry(kind, fallback, prefix):
        return _NATIVE.entry(kind, fallback, globals(), tuple((sig, _STARTS[k]) for sig, k in SIGNATURES),
                             _NATIVE_HANDLERS, prefix, SIGNATURE, _encode_native)

    _CODEC_DECODE = _entry("codec_decode", _CODEC_DECODE, None)
    _CODEC_ENCODE = _entry("codec_encode", _CODEC_ENCODE, SIGNATURE if _WRITES_SIGNATURE else None)
    _SIGNED_CODEC_ENCODE = _entry("codec_encode", _signed_codec_encode, SIGNATURE)
    decode = _entry("decode", decode, None)  # the same call, in C
    encode = _entry("encode", encode, SIGNATURE if _WRITES_SIGNATURE else None)
elif _NATIVE.__class__ is _Charmap and _FROM_REAL is None:
    # A single-byte spec: the codec calls CPython's charmap codec straight away, as
    # CPython's own code pages do (one Python frame), strict whatever *errors* is (no
    # handler is called where nothing is undefined), and the core only where it stops:
    # an undefined byte or code point, which the core gives the handler or reports as
    # the spec's.
    def _CODEC_DECODE(input, errors="strict"):
        try:
            return _charmap_decode(input, "strict", _CHARMAP_DECODING)
        except UnicodeDecodeError:
            data = bytes(input)
            return decode(data, errors), len(data)

    def _CODEC_ENCODE(input, errors="strict"):
        try:
            return _charmap_encode(input, "strict", _CHARMAP_ENCODING)
        except (UnicodeEncodeError, TypeError):  # TypeError: code points, not a str
            return encode(input, errors), len(input)

    _charmap_decode, _charmap_encode = _NATIVE.decode_call, _NATIVE.encode_call
    _CHARMAP_DECODING, _CHARMAP_ENCODING = _NATIVE.table, _NATIVE.map
