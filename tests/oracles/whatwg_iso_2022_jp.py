"""WHATWG ISO-2022-JP oracle: the Encoding Standard's "ISO-2022-JP decoder" and
"ISO-2022-JP encoder", transcribed step for step from its text.

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); index jis0208 and index
ISO-2022-JP katakana are read from specs/tables/whatwg/ (nothing here imports
``codegen``, ``encspec`` or ``generated``).  The I/O queue, *restore*, "replacement"
mode and the indexes are whatwg_cjk.py's.

The decoder keeps ISO-2022-JP decoder state, output state, leading and the output flag
(an escape right after an escape is an error, the state still changes); the encoder
keeps its state (ASCII, Roman, jis0208), *restores* the code point after writing an
escape sequence, and writes ESC ( B at end-of-queue where it is not in ASCII.

API: ``tokens(data)`` -> ``(kind, start, end, value)``: a token per handler result
(its bytes: those consumed since the previous token, net of restores), and a
``shift`` token (no value) where an escape sequence sets the state and the handler
returns continue; ``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode_positions(codepoints)`` -> (bytes, indices of the code points the encoder
returned error for; the bytes written around them are kept, as "replacement" would
keep them with nothing in their place) and ``encode(codepoints)`` (ValueError at the
first error).
"""
from __future__ import annotations

from ._driver import check_codepoint, unencodable
from .whatwg_cjk import CONTINUE, END_OF_QUEUE, FINISHED, Error, IOQueue, index, read_index_file

NAME = "whatwg-iso-2022-jp"
LABEL = "iso-2022-jp"

ASCII, ROMAN, KATAKANA, LEAD, TRAIL, ESCAPE_START, ESCAPE = range(7)
JIS0208 = LEAD  # the encoder's third state


class Decoder:
    def __init__(self):
        self.state = ASCII
        self.output_state = ASCII
        self.leading = 0x00
        self.output = False
        self.shifted = False  # the last step set the state by an escape sequence (tokens())
        self.escape_read = False  # the last step read an ESC after a lead byte (tokens())

    def handler(self, io_queue, byte):
        s = self.state
        if s in (ASCII, ROMAN, KATAKANA, LEAD):
            # the first and the end-of-queue case of each of these four states' switch
            if byte == 0x1B:
                self.state = ESCAPE_START
                return CONTINUE
            if byte is END_OF_QUEUE:
                return FINISHED
            self.output = False  # every other case of the four sets it false first
        if s in (ASCII, ROMAN):
            if s == ROMAN and byte == 0x5C:
                return (0x00A5,)
            if s == ROMAN and byte == 0x7E:
                return (0x203E,)
            if byte <= 0x7F and byte not in (0x0E, 0x0F):
                return (byte,)
            return Error("byte")
        if s == KATAKANA:
            if 0x21 <= byte <= 0x5F:
                return (0xFF61 - 0x21 + byte,)
            return Error("byte")
        if s == LEAD:
            if 0x21 <= byte <= 0x7E:
                self.leading = byte
                self.state = TRAIL
                return CONTINUE
            return Error("byte")
        if s == TRAIL:
            if byte == 0x1B:
                self.state = ESCAPE_START
                self.escape_read = True  # for tokens(): the error is the lead; the ESC starts an escape
                return Error("trail")
            if byte is not END_OF_QUEUE and 0x21 <= byte <= 0x7E:
                self.state = LEAD
                pointer = (self.leading - 0x21) * 94 + byte - 0x21
                code_point = index("jis0208").code_point(pointer)
                if code_point is None:
                    return Error("unmapped")
                return (code_point,)
            self.state = LEAD
            return Error("trail")
        if s == ESCAPE_START:
            if byte in (0x24, 0x28):                                         # 1.
                self.leading = byte
                self.state = ESCAPE
                return CONTINUE
            if byte is not END_OF_QUEUE:                                     # 2.
                io_queue.restore([byte])
            self.output = False                                              # 3.
            self.state = self.output_state
            return Error("escape")
        # Escape
        leading = self.leading                                               # 1.
        self.leading = 0x00
        state = None                                                         # 2.
        if leading == 0x28 and byte == 0x42:                                 # 3.
            state = ASCII
        if leading == 0x28 and byte == 0x4A:                                 # 4.
            state = ROMAN
        if leading == 0x28 and byte == 0x49:                                 # 5.
            state = KATAKANA
        if leading == 0x24 and byte in (0x40, 0x42):                         # 6.
            state = LEAD
        if state is not None:                                                # 7.
            self.state = self.output_state = state
            output = self.output
            self.output = True
            self.shifted = True  # for tokens(): the escape sequence is a token of its own
            return CONTINUE if not output else Error("escape after escape")
        if byte is END_OF_QUEUE:                                             # 8.
            io_queue.restore([leading])
        else:
            io_queue.restore([leading, byte])
        self.output = False                                                  # 9.
        self.state = self.output_state
        return Error("escape")


def tokens(data) -> list:
    """*process a queue* in "replacement" mode, a token per result and per escape sequence."""
    data = bytes(data)
    queue = IOQueue(data)
    decoder = Decoder()
    out: list = []
    start = 0
    while True:
        decoder.shifted = decoder.escape_read = False
        result = decoder.handler(queue, queue.read())
        if result is FINISHED:
            return out
        if result is CONTINUE and not decoder.shifted:
            continue
        # the standard returns the error of a lead byte once it has read the ESC after it,
        # which begins the escape sequence its state now reads (encoding_rs: the error is
        # the lead byte alone, the ESC's own error or escape sequence comes next)
        end = queue.consumed - 1 if decoder.escape_read else queue.consumed
        if result is CONTINUE:
            out.append(("shift", start, end, None))
        elif isinstance(result, Error):
            out.append(("error", start, end, None))
        else:
            out.append(("char", start, end, result[0]))
        start = end


def decode_codepoints(data) -> list:
    """What "replacement" mode outputs: the code points, U+FFFD for each error."""
    return [0xFFFD if kind == "error" else value for kind, _s, _e, value in tokens(data) if kind != "shift"]


def fatal_throws(data) -> bool:
    """Whether "fatal" mode returns an error (some token is one)."""
    return any(kind == "error" for kind, *_ in tokens(data))


_KATAKANA = dict(read_index_file("index-iso-2022-jp-katakana.txt"))


class Encoder:
    def __init__(self):
        self.state = ASCII

    def handler(self, queue, code_point):
        """One step; *queue* is a list the step may restore the code point to (front)."""
        if code_point is END_OF_QUEUE and self.state != ASCII:                # 1.
            self.state = ASCII
            return b"\x1b(B"
        if code_point is END_OF_QUEUE:                                        # 2.
            return FINISHED
        if self.state in (ASCII, ROMAN) and code_point in (0x0E, 0x0F, 0x1B):  # 3.
            return Error(0xFFFD)
        if self.state == ASCII and code_point <= 0x7F:                        # 4.
            return bytes([code_point])
        if self.state == ROMAN and ((code_point <= 0x7F and code_point not in (0x5C, 0x7E))
                                    or code_point in (0xA5, 0x203E)):         # 5.
            if code_point <= 0x7F:
                return bytes([code_point])
            return b"\x5c" if code_point == 0xA5 else b"\x7e"
        if code_point <= 0x7F:                                                # 6. (state is not ASCII)
            queue.insert(0, code_point)
            self.state = ASCII
            return b"\x1b(B"
        if code_point in (0xA5, 0x203E) and self.state != ROMAN:              # 7.
            queue.insert(0, code_point)
            self.state = ROMAN
            return b"\x1b(J"
        if code_point == 0x2212:                                              # 8.
            code_point = 0xFF0D
        if 0xFF61 <= code_point <= 0xFF9F:                                    # 9.
            code_point = _KATAKANA[code_point - 0xFF61]
        pointer = index("jis0208").pointer(code_point)                        # 10.
        if pointer is None:                                                   # 11.
            if self.state == JIS0208:
                queue.insert(0, code_point)
                self.state = ASCII
                return b"\x1b(B"
            return Error(code_point)
        if self.state != JIS0208:                                             # 12.
            queue.insert(0, code_point)
            self.state = JIS0208
            return b"\x1b$B"
        return bytes([pointer // 94 + 0x21, pointer % 94 + 0x21])             # 13.-15.


def encode_positions(codepoints):
    """(bytes, indices of the code points the encoder returned error for)."""
    encoder = Encoder()
    out = bytearray()
    bad = []
    items = list(codepoints)
    for k, cp in enumerate(items):
        check_codepoint(NAME, k, cp)
        if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
            bad.append(k)
            continue
        queue = [cp]
        while queue:
            result = encoder.handler(queue, queue.pop(0))
            if isinstance(result, Error):
                bad.append(k)
            else:
                out += result
    while (result := encoder.handler([], END_OF_QUEUE)) is not FINISHED:
        out += result
    return bytes(out), bad


def encode(codepoints, signature=False) -> bytes:
    if signature:
        raise ValueError(f"{NAME} has no signature")
    codepoints = list(codepoints)
    data, bad = encode_positions(codepoints)
    if bad:
        raise unencodable(NAME, bad[0], codepoints[bad[0]], "the ISO-2022-JP encoder returns error")
    return data
