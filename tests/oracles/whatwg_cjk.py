"""The WHATWG Encoding Standard's legacy CJK decoders and encoders, written from its text.

Source: the Encoding Standard (whatwg/encoding, encoding.bs at commit a985b62a9b45, beside
the checkout in ../shared/tables/whatwg/); its index files are read from
specs/tables/whatwg/ (a data folder: nothing here imports ``codegen``, ``encspec`` or
``generated``).  Each algorithm below is a step-for-step transcription; the step
numbers in the comments are the standard's.  Sections implemented:

  * "Terminology": an I/O queue ends with end-of-queue, which *read* returns without
    removing; *restore* "insert[s] those items, in the given order, before the first
    item in the queue".
  * "Encoders and decoders": *process a queue* and *process an item* — a handler
    returns finished, one or more items, error, or continue; in "replacement" mode an
    error pushes U+FFFD and processing goes on, in "fatal" mode it stops.
  * "Indexes": the index file format ("splitting each item in lines on U+0009 TAB. The
    first subitem is the pointer (as a decimal number) and the second is the
    corresponding code point (as a hexadecimal number)"); *index code point*; *index
    pointer*, which is the FIRST pointer of a code point; *index gb18030 ranges code
    point* and *index gb18030 ranges pointer*; *index Shift_JIS pointer* (index
    jis0208 without pointers 8272..8835); *index Big5 pointer* (index Big5 without
    pointers below (0xA1 - 0x81) x 157, and the LAST pointer for U+2550, U+255E, U+2561,
    U+256A, U+5341 and U+5345).
  * "gb18030 decoder" / "gb18030 encoder" (with its *is GBK* flag and its side table of
    18 Private Use code points), "GBK decoder" (gb18030's) / "GBK encoder" (gb18030's
    with is GBK set), "Big5 decoder" (with the four pointers that decode to two code
    points) / "Big5 encoder", "EUC-JP decoder" / "EUC-JP encoder", "Shift_JIS
    decoder" / "Shift_JIS encoder", "EUC-KR decoder" / "EUC-KR encoder".

Tokens (the project's contract), from one run of *process a queue* in "replacement"
mode over the whole input followed by end-of-queue:

  * ``("char", start, end, value, None)`` for each handler result that is items: it
    covers the bytes consumed since the previous token ended; ``value`` is the code
    point, or for Big5's pointers 1133, 1135, 1164 and 1166 the tuple of the two.
  * ``("error", start, end, None, reason)`` for each handler error: it covers the bytes
    consumed since the previous token ended, *net of restores* — bytes the handler
    restored to the queue are read again and belong to the next token.  An error at
    end-of-queue covers the bytes still pending.  ``reason`` is a short word of this
    module's own (the standard has none; the spans are what matter).

Fatal mode stops at the first error, so "fatal throws" is "some token is an error".

Encoders take scalar values.  The standard never hands a surrogate to an encoder
("Assert: ... item is not a surrogate", *process an item*); here a surrogate, or a value
beyond U+10FFFF, is reported as unencodable rather than run through the handler (the
gb18030 ranges arithmetic would otherwise give a surrogate a pointer that belongs to
another code point).
"""
from __future__ import annotations

import bisect
from collections import deque
from functools import cache
from pathlib import Path

from ._driver import check_codepoint, unencodable

INDEX_DIR = Path(__file__).resolve().parents[2] / "specs" / "tables" / "whatwg"


# ------------------------------------------------------------------ results
class _Marker:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


END_OF_QUEUE = _Marker("end-of-queue")
FINISHED = _Marker("finished")
CONTINUE = _Marker("continue")


class Error:
    """A handler's *error* (a decoder's carries our reason word, an encoder's the code point)."""
    __slots__ = ("reason",)

    def __init__(self, reason):
        self.reason = reason


# Reason words (ours; the standard's handlers just return "error").
END = "unexpected end of data"          # end-of-queue while a sequence is pending
BAD_LEAD = "invalid lead byte"           # a byte no sequence starts with
UNMAPPED = "unmapped"                    # a complete sequence whose pointer has no code point
BAD_TRAIL = "invalid trail byte"         # the byte after a lead (or third byte) cannot follow


def is_ascii_byte(byte) -> bool:
    """Infra: an ASCII byte is a byte in the range 0x00 (NUL) to 0x7F (DEL), inclusive."""
    return 0x00 <= byte <= 0x7F


# ------------------------------------------------------------------ I/O queue
class IOQueue:
    """An I/O queue of bytes in immediate mode ("Terminology").

    The items are the input's bytes followed by end-of-queue.  ``consumed`` counts the
    bytes read net of those restored; because a handler only ever restores bytes it
    has just read, in their order, the queue is always ``data[consumed:]`` followed by
    end-of-queue — ``restore`` checks that, so the token spans below are exactly the
    standard's reprocessing.
    """

    def __init__(self, data: bytes):
        self._data = bytes(data)
        self._items = deque(self._data)
        self._items.append(END_OF_QUEUE)
        self.consumed = 0

    def read(self):
        """read: end-of-queue is returned, not removed; any other item is removed."""
        item = self._items[0]
        if item is END_OF_QUEUE:
            return END_OF_QUEUE
        self._items.popleft()
        self.consumed += 1
        return item

    def restore(self, items):
        """restore: insert ``items``, in the given order, before the first item."""
        items = list(items)
        assert END_OF_QUEUE not in items
        self._items.extendleft(reversed(items))
        k = len(items)
        assert list(self._data[self.consumed - k:self.consumed]) == items, \
            "a handler restored bytes other than the last ones it read"
        self.consumed -= k


def run_decoder(decoder, data) -> list:
    """*process a queue* in "replacement" mode, recording a token per handler result."""
    data = bytes(data)
    queue = IOQueue(data)
    out = []
    start = 0
    while True:
        item = queue.read()
        result = decoder.handler(queue, item)
        if result is FINISHED:
            break
        if result is CONTINUE:
            continue
        end = queue.consumed
        assert end > start, "a token must cover at least one byte"
        if isinstance(result, Error):
            out.append(("error", start, end, None, result.reason))
        else:
            value = result[0] if len(result) == 1 else tuple(result)
            out.append(("char", start, end, value, None))
        start = end
    assert start == len(data)
    return out


def replacement_output(tokens) -> list:
    """The code points "replacement" mode pushes to the output: U+FFFD for each error."""
    out = []
    for kind, _s, _e, value, *_ in tokens:
        if kind == "error":
            out.append(0xFFFD)
        elif isinstance(value, tuple):
            out.extend(value)
        else:
            out.append(value)
    return out


def run_encoder(encoder, codepoints, name: str):
    """*process a queue* of scalar values with ``encoder``: (bytes, indices of errors).

    Every code point is processed; one the handler returns *error* for adds nothing to
    the bytes and its index to the list ("fatal" mode would stop at the first).
    """
    out = bytearray()
    bad = []
    for k, cp in enumerate(codepoints):
        check_codepoint(name, k, cp)
        if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
            bad.append(k)                               # not a scalar value
            continue
        result = encoder.handler(None, cp)
        if isinstance(result, Error):
            bad.append(k)
        else:
            out += result
    assert encoder.handler(None, END_OF_QUEUE) is FINISHED
    return bytes(out), bad


def encode_strict(encoder, codepoints, name: str) -> bytes:
    """The bytes of ``codepoints``, or ValueError naming the first unencodable one ("fatal")."""
    codepoints = list(codepoints)
    data, bad = run_encoder(encoder, codepoints, name)
    if bad:
        k = bad[0]
        cp = codepoints[k]
        why = ("not a scalar value" if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF
               else f"the {name} encoder returns error")
        raise unencodable(name, k, cp, why)
    return data


# ------------------------------------------------------------------ indexes
class Index:
    """An index ("Indexes"): ordered entries (pointer, code point)."""

    def __init__(self, entries):
        self.entries = list(entries)
        self._by_pointer = {}
        for p, cp in self.entries:
            assert p not in self._by_pointer, "within an index pointers are unique"
            self._by_pointer[p] = cp
        self._first = {}
        self._last = {}
        for p, cp in self.entries:
            self._first.setdefault(cp, p)
            self._last[cp] = p

    def code_point(self, pointer):
        """index code point: the code point of ``pointer``, or None."""
        return self._by_pointer.get(pointer)

    def pointer(self, code_point):
        """index pointer: the FIRST pointer of ``code_point``, or None."""
        return self._first.get(code_point)

    def last_pointer(self, code_point):
        return self._last.get(code_point)

    def excluding(self, keep):
        """This index without the entries whose pointer fails ``keep``."""
        return Index((p, cp) for p, cp in self.entries if keep(p))


def read_index_file(name: str) -> list:
    """The entries of an index file, as "Indexes" says to find them."""
    text = (INDEX_DIR / name).read_text("utf-8")
    lines = [line for line in text.split("\n") if line != "" and not line.startswith("#")]
    entries = []
    for line in lines:
        sub = line.split("\t")
        entries.append((int(sub[0], 10), int(sub[1], 16)))   # int() ignores the padding spaces
    return entries


@cache
def index(name: str) -> Index:
    """index jis0208, jis0212, EUC-KR, Big5 or gb18030 (file index-NAME.txt)."""
    return Index(read_index_file(f"index-{name}.txt"))


@cache
def shift_jis_index() -> Index:
    """index Shift_JIS pointer's index: index jis0208 excluding pointers 8272..8835."""
    return index("jis0208").excluding(lambda p: not 8272 <= p <= 8835)


@cache
def big5_encoder_index() -> Index:
    """index Big5 pointer's index: index Big5 excluding pointers below (0xA1 - 0x81) x 157."""
    return index("big5").excluding(lambda p: not p < (0xA1 - 0x81) * 157)


BIG5_LAST_POINTER = (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)


def index_shift_jis_pointer(code_point):
    """index Shift_JIS pointer (section "Indexes")."""
    return shift_jis_index().pointer(code_point)


def index_big5_pointer(code_point):
    """index Big5 pointer (section "Indexes")."""
    idx = big5_encoder_index()
    if code_point in BIG5_LAST_POINTER:
        return idx.last_pointer(code_point)
    return idx.pointer(code_point)


@cache
def _ranges():
    entries = read_index_file("index-gb18030-ranges.txt")
    by_pointer = sorted(entries)
    by_code_point = sorted(entries, key=lambda e: e[1])
    return ([p for p, _ in by_pointer], by_pointer,
            [cp for _, cp in by_code_point], by_code_point)


def index_gb18030_ranges_code_point(pointer):
    """index gb18030 ranges code point (section "Indexes")."""
    # 1. greater than 39419 and less than 189000, or greater than 1237575: null
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    # 2.
    if pointer == 7457:
        return 0xE7C7
    # 3. the last pointer in the index that is <= pointer, and its code point
    pointers, by_pointer, _, _ = _ranges()
    offset, code_point_offset = by_pointer[bisect.bisect_right(pointers, pointer) - 1]
    # 4.
    return code_point_offset + pointer - offset


def index_gb18030_ranges_pointer(code_point):
    """index gb18030 ranges pointer (section "Indexes")."""
    # 1.
    if code_point == 0xE7C7:
        return 7457
    # 2. the last code point in the index that is <= code point, and its pointer
    _, _, code_points, by_code_point = _ranges()
    pointer_offset, offset = by_code_point[bisect.bisect_right(code_points, code_point) - 1]
    # 3.
    return pointer_offset + code_point - offset


# ------------------------------------------------------------------ gb18030 / GBK
class GB18030Decoder:
    """gb18030 decoder (also GBK's decoder: section "GBK decoder")."""

    def __init__(self):
        self.first = 0x00
        self.second = 0x00
        self.third = 0x00

    def handler(self, io_queue, byte):
        # 1.
        if byte is END_OF_QUEUE and self.first == self.second == self.third == 0x00:
            return FINISHED
        # 2.
        if byte is END_OF_QUEUE:
            self.first = self.second = self.third = 0x00
            return Error(END)
        # 3.
        if self.third != 0x00:
            if not 0x30 <= byte <= 0x39:
                io_queue.restore([self.second, self.third, byte])
                self.first = self.second = self.third = 0x00
                return Error(BAD_TRAIL)
            code_point = index_gb18030_ranges_code_point(
                (self.first - 0x81) * (10 * 126 * 10)
                + (self.second - 0x30) * (10 * 126)
                + (self.third - 0x81) * 10 + byte - 0x30)
            self.first = self.second = self.third = 0x00
            if code_point is None:
                return Error(UNMAPPED)
            return (code_point,)
        # 4.
        if self.second != 0x00:
            if 0x81 <= byte <= 0xFE:
                self.third = byte
                return CONTINUE
            io_queue.restore([self.second, byte])
            self.first = self.second = 0x00
            return Error(BAD_TRAIL)
        # 5.
        if self.first != 0x00:
            if 0x30 <= byte <= 0x39:
                self.second = byte
                return CONTINUE
            leading = self.first
            self.first = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - offset)
            code_point = None if pointer is None else index("gb18030").code_point(pointer)
            if code_point is not None:
                return (code_point,)
            if is_ascii_byte(byte):
                io_queue.restore([byte])
            return Error(UNMAPPED if pointer is not None else BAD_TRAIL)
        # 6.
        if is_ascii_byte(byte):
            return (byte,)
        # 7.
        if byte == 0x80:
            return (0x20AC,)
        # 8.
        if 0x81 <= byte <= 0xFE:
            self.first = byte
            return CONTINUE
        # 9.
        return Error(BAD_LEAD)


GB18030_SIDE_TABLE = {
    0xE78D: b"\xA6\xD9", 0xE78E: b"\xA6\xDA", 0xE78F: b"\xA6\xDB", 0xE790: b"\xA6\xDC",
    0xE791: b"\xA6\xDD", 0xE792: b"\xA6\xDE", 0xE793: b"\xA6\xDF", 0xE794: b"\xA6\xEC",
    0xE795: b"\xA6\xED", 0xE796: b"\xA6\xF3", 0xE81E: b"\xFE\x59", 0xE826: b"\xFE\x61",
    0xE82B: b"\xFE\x66", 0xE82C: b"\xFE\x67", 0xE832: b"\xFE\x6D", 0xE843: b"\xFE\x7E",
    0xE854: b"\xFE\x90", 0xE864: b"\xFE\xA0",
}


class GB18030Encoder:
    """gb18030 encoder; with ``is_gbk`` the GBK encoder (section "GBK encoder")."""

    def __init__(self, is_gbk=False):
        self.is_gbk = is_gbk

    def handler(self, _unused, code_point):
        # 1.
        if code_point is END_OF_QUEUE:
            return FINISHED
        # 2.
        if code_point <= 0x7F:
            return bytes([code_point])
        # 3.
        if code_point == 0xE5E5:
            return Error(code_point)
        # 4.
        if self.is_gbk and code_point == 0x20AC:
            return b"\x80"
        # 5.
        if code_point in GB18030_SIDE_TABLE:
            return GB18030_SIDE_TABLE[code_point]
        # 6.
        pointer = index("gb18030").pointer(code_point)
        # 7.
        if pointer is not None:
            leading = pointer // 190 + 0x81
            trailing = pointer % 190
            offset = 0x40 if trailing < 0x3F else 0x41
            return bytes([leading, trailing + offset])
        # 8.
        if self.is_gbk:
            return Error(code_point)
        # 9.-16.
        pointer = index_gb18030_ranges_pointer(code_point)
        byte1 = pointer // (10 * 126 * 10)
        pointer = pointer % (10 * 126 * 10)
        byte2 = pointer // (10 * 126)
        pointer = pointer % (10 * 126)
        byte3 = pointer // 10
        byte4 = pointer % 10
        return bytes([byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30])


# ------------------------------------------------------------------ Big5
BIG5_TWO_CODE_POINTS = {
    1133: (0x00CA, 0x0304),
    1135: (0x00CA, 0x030C),
    1164: (0x00EA, 0x0304),
    1166: (0x00EA, 0x030C),
}


class Big5Decoder:
    """Big5 decoder."""

    def __init__(self):
        self.leading = 0x00

    def handler(self, io_queue, byte):
        # 1.
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return Error(END)
        # 2.
        if byte is END_OF_QUEUE and self.leading == 0x00:
            return FINISHED
        # 3.
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x62
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 157 + (byte - offset)
            if pointer in BIG5_TWO_CODE_POINTS:
                return BIG5_TWO_CODE_POINTS[pointer]
            code_point = None if pointer is None else index("big5").code_point(pointer)
            if code_point is not None:
                return (code_point,)
            if is_ascii_byte(byte):
                io_queue.restore([byte])
            return Error(UNMAPPED if pointer is not None else BAD_TRAIL)
        # 4.
        if is_ascii_byte(byte):
            return (byte,)
        # 5.
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        # 6.
        return Error(BAD_LEAD)


class Big5Encoder:
    """Big5 encoder."""

    def handler(self, _unused, code_point):
        if code_point is END_OF_QUEUE:                       # 1.
            return FINISHED
        if code_point <= 0x7F:                               # 2.
            return bytes([code_point])
        pointer = index_big5_pointer(code_point)             # 3.
        if pointer is None:                                  # 4.
            return Error(code_point)
        leading = pointer // 157 + 0x81                      # 5.
        trailing = pointer % 157                             # 6.
        offset = 0x40 if trailing < 0x3F else 0x62           # 7.
        return bytes([leading, trailing + offset])           # 8.


# ------------------------------------------------------------------ EUC-JP
class EUCJPDecoder:
    """EUC-JP decoder."""

    def __init__(self):
        self.jis0212 = False
        self.leading = 0x00

    def handler(self, io_queue, byte):
        # 1.
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return Error(END)
        # 2.
        if byte is END_OF_QUEUE and self.leading == 0x00:
            return FINISHED
        # 3.
        if self.leading == 0x8E and 0xA1 <= byte <= 0xDF:
            self.leading = 0x00
            return (0xFF61 - 0xA1 + byte,)
        # 4.
        if self.leading == 0x8F and 0xA1 <= byte <= 0xFE:
            self.jis0212 = True
            self.leading = byte
            return CONTINUE
        # 5.
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            code_point = None
            mapped = False
            if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
                mapped = True
                code_point = index("jis0212" if self.jis0212 else "jis0208").code_point(
                    (leading - 0xA1) * 94 + byte - 0xA1)
            self.jis0212 = False
            if code_point is not None:
                return (code_point,)
            if is_ascii_byte(byte):
                io_queue.restore([byte])
            return Error(UNMAPPED if mapped else BAD_TRAIL)
        # 6.
        if is_ascii_byte(byte):
            return (byte,)
        # 7.
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        # 8.
        return Error(BAD_LEAD)


class EUCJPEncoder:
    """EUC-JP encoder (index jis0208 only; jis0212 is decode-only)."""

    def handler(self, _unused, code_point):
        if code_point is END_OF_QUEUE:                       # 1.
            return FINISHED
        if code_point <= 0x7F:                               # 2.
            return bytes([code_point])
        if code_point == 0x00A5:                             # 3.
            return b"\x5C"
        if code_point == 0x203E:                             # 4.
            return b"\x7E"
        if 0xFF61 <= code_point <= 0xFF9F:                   # 5.
            return bytes([0x8E, code_point - 0xFF61 + 0xA1])
        if code_point == 0x2212:                             # 6.
            code_point = 0xFF0D
        pointer = index("jis0208").pointer(code_point)       # 7.
        if pointer is None:                                  # 8.
            return Error(code_point)
        leading = pointer // 94 + 0xA1                       # 9.
        trailing = pointer % 94 + 0xA1                       # 10.
        return bytes([leading, trailing])                    # 11.


# ------------------------------------------------------------------ Shift_JIS
class ShiftJISDecoder:
    """Shift_JIS decoder."""

    def __init__(self):
        self.leading = 0x00

    def handler(self, io_queue, byte):
        # 1.
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return Error(END)
        # 2.
        if byte is END_OF_QUEUE and self.leading == 0x00:
            return FINISHED
        # 3.
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            leading_offset = 0x81 if leading < 0xA0 else 0xC1
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
                pointer = (leading - leading_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:
                return (0xE000 - 8836 + pointer,)          # EUDC
            code_point = None if pointer is None else index("jis0208").code_point(pointer)
            if code_point is not None:
                return (code_point,)
            if is_ascii_byte(byte):
                io_queue.restore([byte])
            return Error(UNMAPPED if pointer is not None else BAD_TRAIL)
        # 4.
        if is_ascii_byte(byte) or byte == 0x80:
            return (byte,)
        # 5.
        if 0xA1 <= byte <= 0xDF:
            return (0xFF61 - 0xA1 + byte,)
        # 6.
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
            self.leading = byte
            return CONTINUE
        # 7.
        return Error(BAD_LEAD)


class ShiftJISEncoder:
    """Shift_JIS encoder."""

    def handler(self, _unused, code_point):
        if code_point is END_OF_QUEUE:                       # 1.
            return FINISHED
        if code_point <= 0x7F or code_point == 0x0080:       # 2.
            return bytes([code_point])
        if code_point == 0x00A5:                             # 3.
            return b"\x5C"
        if code_point == 0x203E:                             # 4.
            return b"\x7E"
        if 0xFF61 <= code_point <= 0xFF9F:                   # 5.
            return bytes([code_point - 0xFF61 + 0xA1])
        if code_point == 0x2212:                             # 6.
            code_point = 0xFF0D
        pointer = index_shift_jis_pointer(code_point)        # 7.
        if pointer is None:                                  # 8.
            return Error(code_point)
        leading = pointer // 188                             # 9.
        leading_offset = 0x81 if leading < 0x1F else 0xC1    # 10.
        trailing = pointer % 188                             # 11.
        offset = 0x40 if trailing < 0x3F else 0x41           # 12.
        return bytes([leading + leading_offset, trailing + offset])   # 13.


# ------------------------------------------------------------------ EUC-KR
class EUCKRDecoder:
    """EUC-KR decoder."""

    def __init__(self):
        self.leading = 0x00

    def handler(self, io_queue, byte):
        # 1.
        if byte is END_OF_QUEUE and self.leading != 0x00:
            self.leading = 0x00
            return Error(END)
        # 2.
        if byte is END_OF_QUEUE and self.leading == 0x00:
            return FINISHED
        # 3.
        if self.leading != 0x00:
            leading = self.leading
            self.leading = 0x00
            pointer = None
            if 0x41 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - 0x41)
            code_point = None if pointer is None else index("euc-kr").code_point(pointer)
            if code_point is not None:
                return (code_point,)
            if is_ascii_byte(byte):
                io_queue.restore([byte])
            return Error(UNMAPPED if pointer is not None else BAD_TRAIL)
        # 4.
        if is_ascii_byte(byte):
            return (byte,)
        # 5.
        if 0x81 <= byte <= 0xFE:
            self.leading = byte
            return CONTINUE
        # 6.
        return Error(BAD_LEAD)


class EUCKREncoder:
    """EUC-KR encoder."""

    def handler(self, _unused, code_point):
        if code_point is END_OF_QUEUE:                       # 1.
            return FINISHED
        if code_point <= 0x7F:                               # 2.
            return bytes([code_point])
        pointer = index("euc-kr").pointer(code_point)        # 3.
        if pointer is None:                                  # 4.
            return Error(code_point)
        leading = pointer // 190 + 0x81                      # 5.
        trailing = pointer % 190 + 0x41                      # 6.
        return bytes([leading, trailing])                    # 7.


# ------------------------------------------------------------------ per-encoding API
class Oracle:
    """The oracle API for one encoding: its decoder and encoder classes, fresh per call."""

    def __init__(self, name, label, decoder, encoder):
        self.name = name
        self.label = label
        self._decoder = decoder
        self._encoder = encoder

    def tokens_with_reasons(self, data) -> list:
        return run_decoder(self._decoder(), data)

    def tokens(self, data) -> list:
        return [t[:4] for t in self.tokens_with_reasons(data)]

    def decode_codepoints(self, data) -> list:
        """What "replacement" mode outputs: code points, U+FFFD for each error."""
        return replacement_output(self.tokens_with_reasons(data))

    def fatal_throws(self, data) -> bool:
        """Whether "fatal" mode returns an error (some token is an error)."""
        return any(t[0] == "error" for t in self.tokens_with_reasons(data))

    def encode_positions(self, codepoints):
        return run_encoder(self._encoder(), list(codepoints), self.name)

    def encode(self, codepoints, signature=False) -> bytes:
        if signature:
            raise ValueError(f"{self.name} has no signature")
        return encode_strict(self._encoder(), codepoints, self.name)


SHIFT_JIS = Oracle("whatwg-shift_jis", "shift_jis", ShiftJISDecoder, ShiftJISEncoder)
EUC_JP = Oracle("whatwg-euc-jp", "euc-jp", EUCJPDecoder, EUCJPEncoder)
EUC_KR = Oracle("whatwg-euc-kr", "euc-kr", EUCKRDecoder, EUCKREncoder)
BIG5 = Oracle("whatwg-big5", "big5", Big5Decoder, Big5Encoder)
GB18030 = Oracle("whatwg-gb18030", "gb18030", GB18030Decoder, GB18030Encoder)
GBK = Oracle("whatwg-gbk", "gbk", GB18030Decoder, lambda: GB18030Encoder(is_gbk=True))

ALL = [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GB18030, GBK]
