"""Streaming over a generated codec module: chunks in, results out, memory bounded.

Each chunk goes through the module's own code, so any fast path in it is used
as is: text through its public ``IncrementalDecoder`` (``decode``, and
``validate`` with a recording error handler), code points as ints through its
private ``_decode(data, errors, final, at_start, want_str=False)`` (the module
has no incremental code-point API), bytes through ``encode``; ``_tokens(data,
pos, final, at_start)`` only where one token must be looked at again.  Only the
bytes of an unfinished sequence are kept between chunks.

Everything here is independent of processes: :mod:`encspec.parallel` runs
:class:`Scanner` over byte ranges, the commands wire these classes to files
(:func:`open_input`, :func:`atomic_output`, :func:`progress`).
"""
from __future__ import annotations

import codecs
import os
import re
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

CHUNK_SIZE = 1 << 20      # bytes read (and decoded) at a time
PROGRESS_MIN = 4 << 20    # inputs smaller than this never show a progress bar
SHOWN_BYTES = 32          # a problem keeps at most this many of its bytes (a reserved run can be long)


# ------------------------------------------------------------------- errors
class InputError(Exception):
    """A file that cannot be read or written: one line, exit code 2."""


class DataError(Exception):
    """The input cannot be converted as asked (a strict handler gave up): one line, exit code 1."""


class DecodeFailure(Exception):
    """The error handler gave up on ill-formed input (``strict``): where and why."""

    def __init__(self, start: int, end: int, data: bytes, reason: str):
        super().__init__(f"byte {start}: {reason} ({hexbytes(data)})")
        self.start, self.end, self.data, self.reason = start, end, data, reason


class EncodeFailure(Exception):
    """The error handler gave up on a code point the target cannot encode."""

    def __init__(self, index: int, cp: int, reason: str):
        super().__init__(f"character {index} (U+{cp:04X}): {reason}")
        self.index, self.cp, self.reason = index, cp, reason


def hexbytes(data: bytes, limit: Optional[int] = None) -> str:
    """``C0 AF``; with *limit*, longer data ends in ``…``."""
    shown = data if limit is None else data[:limit]
    text = shown.hex(" ").upper()
    return text + " …" if limit is not None and len(data) > limit else text


def os_error_message(path, exc: OSError) -> str:
    """The one-line message for a failed open or read, as cli.py words them."""
    if isinstance(exc, FileNotFoundError):
        why = "no such file"
    elif isinstance(exc, IsADirectoryError):
        why = "is a directory"
    elif isinstance(exc, PermissionError):
        why = "permission denied"
    else:
        why = (exc.strerror or str(exc)).lower()
    return f"{path}: {why}"


def check_handler(errors: str) -> None:
    """InputError unless *errors* names a registered error handler (encspec's included)."""
    from ..runtime.codec import register
    register()
    try:
        codecs.lookup_error(errors)
    except LookupError:
        raise InputError(f"unknown error handler '{errors}' (for example: strict, replace, ignore, "
                         "surrogateescape, backslashreplace, encspec.latin1, encspec.cp1252, "
                         "encspec.optu8, encspec.replace_per_byte)") from None


# ------------------------------------------------------------------ input
@dataclass
class Input:
    """An open input: its binary file, its name for messages and its size if known."""

    file: object
    name: str
    size: Optional[int]
    close: bool = True


def open_input(path: Optional[str]) -> Input:
    """The file at *path* (``-`` or None: standard input), read-only; InputError if it cannot be read."""
    if path is None or path == "-":
        stream = sys.stdin.buffer
        try:
            st = os.fstat(stream.fileno())
            size = st.st_size if _is_regular(st.st_mode) else None
        except (OSError, ValueError, AttributeError):
            size = None
        return Input(stream, "<stdin>", size, close=False)
    try:
        f = open(path, "rb")
    except OSError as e:
        raise InputError(os_error_message(path, e)) from None
    try:
        st = os.fstat(f.fileno())
    except OSError as e:
        f.close()
        raise InputError(os_error_message(path, e)) from None
    return Input(f, str(path), st.st_size if _is_regular(st.st_mode) else None)


def _is_regular(mode: int) -> bool:
    import stat
    return stat.S_ISREG(mode)


def read_chunks(inp: Input, size: Optional[int] = None, bar=None):
    """The bytes of *inp*, *size* (default CHUNK_SIZE) at a time (the last chunk may be shorter)."""
    size = size or CHUNK_SIZE
    try:
        while True:
            chunk = inp.file.read(size)
            if not chunk:
                return
            if bar is not None:
                bar.update(len(chunk))
            yield chunk
    except OSError as e:
        raise InputError(os_error_message(inp.name, e)) from None


# ----------------------------------------------------------------- output
def check_output(out: Optional[str], inputs=()) -> None:
    """InputError if *out* cannot be written atomically: a missing folder, a directory, an input."""
    if out is None or out == "-":
        return
    target = Path(out)
    parent = target.parent
    if not parent.is_dir():
        raise InputError(f"{out}: the folder that should hold it does not exist")
    if target.is_dir():
        raise InputError(f"{out}: is a directory")
    for inp in inputs:
        if inp in (None, "-"):
            continue
        try:
            if target.exists() and os.path.samefile(target, inp):
                raise InputError(f"{out}: is the input file (the input is never modified; write elsewhere)")
        except OSError:
            pass


@contextmanager
def atomic_output(out: Optional[str]):
    """A binary file to write; for a path, a temporary file in the same folder renamed
    over *out* only when the block succeeds (so a failure leaves *out* untouched)."""
    if out is None or out == "-":
        stream = sys.stdout.buffer
        yield stream
        stream.flush()
        return
    target = Path(out)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as e:
        raise InputError(os_error_message(out, e)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = target.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --------------------------------------------------------------- progress
class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def progress(total: Optional[int], label: str, quiet: bool = False):
    """A tqdm bar on stderr (bytes, bytes/s) if stderr is a terminal and *total* is a few MB; else a no-op."""
    if quiet or total is None or total < PROGRESS_MIN:
        return _NoBar()
    try:
        if not sys.stderr.isatty():
            return _NoBar()
    except (AttributeError, ValueError):
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, desc=label, unit="B", unit_scale=True, unit_divisor=1024,
                file=sys.stderr, leave=False, dynamic_ncols=True)


# ------------------------------------------------------- incremental base
class _Incremental:
    """Pending bytes, the document start and the signature, for any per-buffer step.

    ``_step(buf, final, at_start)`` returns ``(result, consumed)``.  A sequence
    that does not end within a chunk is kept and retried when more arrives; if
    nothing at all was consumed the next try waits for twice as many bytes, so a
    very long sequence (a reserved run, a counted code) costs linear time.
    """

    def __init__(self, module):
        self.module = module
        self.pending = b""
        self.at_start = True
        self.offset = 0          # absolute offset of pending[0]
        self._wait = 0

    def _feed(self, data, final, empty):
        buf = self.pending + bytes(data) if self.pending else bytes(data)
        sig = self.module.SIGNATURE
        if not final and (len(buf) < self._wait or (
                self.at_start and sig and len(buf) < len(sig) and sig.startswith(buf))):
            self.pending = buf
            return empty
        result, consumed = self._step(buf, final, self.at_start)
        if consumed or final:
            self.at_start = False
        self._wait = 0 if consumed or final else 2 * len(buf)
        self.pending = b"" if final else buf[consumed:]
        self.offset += len(buf) if final else consumed
        return result

    def _step(self, buf, final, at_start):  # pragma: no cover - abstract
        raise NotImplementedError


# -------------------------------------------------------------- decoding
class CodePointDecoder(_Incremental):
    """Incremental decoding to code points as ints (any size: nothing is lost beyond U+10FFFF)."""

    def __init__(self, module, errors: str = "strict"):
        super().__init__(module)
        self.errors = errors

    def decode(self, data, final: bool = False) -> list:
        return self._feed(data, final, [])

    def _step(self, buf, final, at_start):
        try:
            return self.module._decode(buf, self.errors, final, at_start, False)
        except UnicodeDecodeError as e:
            raise _failure(e, self.offset) from None


def _failure(e: UnicodeDecodeError, offset: int) -> DecodeFailure:
    return DecodeFailure(offset + e.start, offset + e.end, bytes(e.object[e.start:e.end]), e.reason)


_SURROGATE = re.compile("[\ud800-\udfff]")


class TextDecoder(_Incremental):
    """Incremental decoding to text that UTF-8 can hold.

    The module's ``IncrementalDecoder`` does the work (its fast path included) and
    already sends code points beyond U+10FFFF through the error handler; a chunk
    whose text holds a surrogate (or that failed) is decoded again token by token,
    so surrogate code points go through the handler too, in document order.
    """

    SURROGATE_REASON = "surrogate code point (not in UTF-8 text)"

    def __init__(self, module, errors: str = "strict"):
        super().__init__(module)
        self.errors = errors
        self._dec = module.IncrementalDecoder(errors)

    def decode(self, data, final: bool = False) -> str:
        return self._feed(data, final, "")

    def _step(self, buf, final, at_start):
        self._dec.setstate((b"", int(at_start)))
        try:
            text = self._dec.decode(buf, final)
            if not _SURROGATE.search(text):
                pending, _ = self._dec.getstate()
                return text, len(buf) - len(pending)
        except UnicodeDecodeError:
            pass
        try:
            return _decode_text_exact(self.module, buf, self.errors, final, at_start, self.SURROGATE_REASON)
        except UnicodeDecodeError as e:
            raise _failure(e, self.offset) from None


def _decode_text_exact(module, data, errors, final, at_start, surrogate_reason):
    """``(text, consumed)`` token by token (the module's reference semantics), with
    code points beyond U+10FFFF and surrogates sent through the error handler."""
    out = []
    handler = None
    pos = 0
    n = len(data)
    while True:
        stopped = pos
        for kind, start, end, value, reason in module._tokens(data, pos, final, at_start and pos == 0):
            stopped = end
            if kind == "char":
                if value > 0x10FFFF:
                    reason = "code point beyond U+10FFFF"
                elif 0xD800 <= value <= 0xDFFF:
                    reason = surrogate_reason
                else:
                    out.append(chr(value))
                    continue
            elif kind == "signature":
                continue
            if handler is None:
                handler = codecs.lookup_error(errors)
            replacement, resume = handler(UnicodeDecodeError(module.NAME, data, start, end, reason))
            out.append(replacement)
            resume = resume + n if resume < 0 else resume
            if not 0 <= resume <= n:
                raise IndexError(f"position {resume} from error handler out of bounds")
            if resume != end:
                pos = resume
                break
        else:
            return "".join(out), stopped
        at_start = False


# -------------------------------------------------------------- encoding
class Encoder:
    """Incremental encoding of text or code points, the signature first if asked.

    Encoders that join a lead and a trail surrogate code point (WTF-8) keep a
    final lead surrogate until the next chunk shows what follows it.
    """

    def __init__(self, module, errors: str = "strict", signature: bool = False):
        self.module = module
        self.errors = errors
        self.signature = signature
        self.index = 0            # code points encoded so far
        self._held = None

    def encode(self, items, final: bool = False) -> bytes:
        """*items*: a ``str`` or a list of code points (ints of any size)."""
        if self.module.PAIR_ON_ENCODE and not isinstance(items, str):
            items = list(items)
            if self._held is not None:
                items = [self._held] + items
                self._held = None
            if not final and items and 0xD800 <= items[-1] <= 0xDBFF:
                self._held = items.pop()
        first, self.signature = self.signature, False
        if not items and not first:
            return b""
        try:
            out = self.module.encode(items, self.errors, signature=first)
        except UnicodeEncodeError as e:
            cp = items[e.start] if not isinstance(items, str) else ord(items[e.start])
            raise EncodeFailure(self.index + e.start, cp, e.reason) from None
        self.index += len(items)
        return out


# ------------------------------------------------------------- validation
# Problems are tuples, cheap to pickle: (kind, start, end, shown bytes, reason,
# newlines before it, characters since the last newline) — the last two relative
# to where the scan began; :func:`place` makes them a line and a column.
KIND, START, END, BYTES, REASON, NEWLINES, CHARS = range(7)


class _Recording(threading.local):
    """The problems an in-progress decode reports (one per thread: Dask may run tasks in threads)."""

    module = None
    final = True
    found = None
    limit = None


_recording = _Recording()
RECORD = "encspec.stream-record"
BEYOND = "code point beyond U+10FFFF"


def _record(exc):
    """An error handler that notes a problem and replaces it with nothing.

    A valid code point beyond U+10FFFF (which text cannot hold) is no problem:
    it becomes one placeholder character, so columns still count it.
    """
    rec = _recording
    kind = "error"
    if exc.reason in ("reserved sequence", BEYOND):
        tok = next(rec.module._tokens(exc.object, exc.start, rec.final, False), None)
        if tok is not None and tok[0] == "char":
            return "\ufffd", exc.end
        if tok is not None and tok[0] == "reserved":
            kind = "reserved"
    rec.found.append((kind, exc.start, exc.end, exc.reason))
    if rec.limit is not None and len(rec.found) >= rec.limit:
        return "", len(exc.object)  # enough: skip the rest of this buffer
    return "", exc.end


codecs.register_error(RECORD, _record)


class Scanner(_Incremental):
    """Finds the errors, reserved runs and signature of a stream, with positions.

    Each chunk is decoded once, by the module's own ``IncrementalDecoder`` with a
    recording error handler.  Lines and columns come from the decoded text: a
    chunk without problems only has its newlines counted; in a chunk with
    problems the clean spans between them are decoded again to place each one
    (spans end where tokens end, so they decode alone exactly as in place).  A
    problem counts as one character, the signature as none.

    Positions are relative to where the scan starts (``newlines``, ``chars``), so
    a scan can start wherever a token starts and be placed later
    (:mod:`encspec.parallel`).  With *limit*, the scan stops after that many
    problems (``done``).
    """

    def __init__(self, module, at_start: bool = True, offset: int = 0, limit: Optional[int] = None):
        super().__init__(module)
        self.at_start = at_start
        self.offset = offset
        self.limit = limit
        self.newlines = 0
        self.chars = 0
        self.count = 0            # problems found (the signature is not one)
        self.done = False
        self._dec = module.IncrementalDecoder(RECORD)

    def feed(self, data, final: bool = False) -> list:
        if self.done:
            return []
        return self._feed(data, final, [])

    def _decode(self, buf, final, at_start, limit=None):
        """``(text, consumed, problems (kind, start, end, reason))`` of one buffer."""
        rec = _recording
        saved = (rec.module, rec.final, rec.found, rec.limit)
        rec.module, rec.final, rec.found, rec.limit = self.module, final, [], limit
        try:
            self._dec.setstate((b"", int(at_start)))
            text = self._dec.decode(buf, final)
            return text, len(buf) - len(self._dec.getstate()[0]), rec.found
        finally:
            rec.module, rec.final, rec.found, rec.limit = saved

    def _step(self, buf, final, at_start):
        sig = self.module.SIGNATURE
        problems = []
        first = 0
        if at_start and sig and buf[:len(sig)] == sig:
            problems.append(("signature", self.offset, self.offset + len(sig), sig, None,
                             self.newlines, self.chars))
            first = len(sig)
        text, consumed, found = self._decode(buf, final, at_start,
                                             None if self.limit is None else self.limit - self.count)
        if not found:
            self._advance(text)
            return problems, consumed
        del text
        prev = first
        for kind, start, end, reason in found:
            if start > prev:
                self._advance(self._decode(buf[prev:start], True, False)[0])
            problems.append((kind, self.offset + start, self.offset + end, buf[start:min(end, start + SHOWN_BYTES)],
                             reason, self.newlines, self.chars))
            self.chars += 1
            prev = end
        self.count += len(found)
        if self.limit is not None and self.count >= self.limit:
            self.done = True
            return problems, len(buf)
        if consumed > prev:
            self._advance(self._decode(buf[prev:consumed], True, False)[0])
        return problems, consumed

    def _advance(self, text: str):
        k = text.count("\n")
        if k:
            self.newlines += k
            self.chars = len(text) - 1 - text.rfind("\n")
        else:
            self.chars += len(text)


def place(p: tuple, base_newlines: int = 0, base_chars: int = 0) -> "Problem":
    """A scanned problem tuple at its line and column, given the position where its scan began."""
    if p[NEWLINES]:
        line, column = 1 + base_newlines + p[NEWLINES], 1 + p[CHARS]
    else:
        line, column = 1 + base_newlines, 1 + base_chars + p[CHARS]
    return Problem(p[KIND], p[START], p[END], p[BYTES], p[REASON], line, column)


@dataclass(frozen=True)
class Problem:
    """One reported sequence: an error, a reserved run or the signature."""

    kind: str
    start: int
    end: int
    data: bytes          # at most SHOWN_BYTES of its bytes
    reason: Optional[str]
    line: int
    column: int

    def to_json(self) -> dict:
        return {"kind": self.kind, "offset": self.start, "end": self.end, "line": self.line,
                "column": self.column, "bytes": hexbytes(self.data), "reason": self.reason}


@dataclass
class Report:
    """What validating one file found."""

    path: str
    size: Optional[int] = None
    problems: list = field(default_factory=list)   # errors and reserved runs, in order
    signature: Optional[Problem] = None
    truncated: bool = False                          # stopped at the limit
    error: Optional[str] = None                      # could not be read

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.kind == "error")

    @property
    def reserved(self) -> int:
        return sum(1 for p in self.problems if p.kind == "reserved")

    def valid(self, allow_reserved: bool = False) -> Optional[bool]:
        if self.error is not None:
            return None
        return self.errors == 0 and (allow_reserved or self.reserved == 0)

    def key(self):
        """Everything but the path: equal keys, equal results."""
        return (self.size, self.problems, self.signature, self.truncated, self.error)


def report_from(path: str, size, problems: list, truncated: bool) -> Report:
    """A Report from placed problems (the signature separated out)."""
    rep = Report(path, size, truncated=truncated)
    for p in problems:
        if p.kind == "signature":
            rep.signature = p
        else:
            rep.problems.append(p)
    return rep


def validate_stream(module, inp: Input, limit: Optional[int] = None, chunk_size: Optional[int] = None,
                    bar=None) -> Report:
    """Validate one input sequentially, chunk by chunk."""
    scanner = Scanner(module, limit=limit)
    found = []
    size = 0
    for chunk in read_chunks(inp, chunk_size, bar):
        size += len(chunk)
        found += scanner.feed(chunk)
        if scanner.done:
            break
    if not scanner.done:
        found += scanner.feed(b"", final=True)
    problems = [place(p) for p in found]
    return report_from(inp.name, inp.size if inp.size is not None else size, problems, scanner.done)


# ------------------------------------------------------------- conversion
def convert(inp: Input, out: Optional[str], steps, finish, label: str, quiet: bool = False) -> None:
    """Read *inp* in chunks, write ``steps(chunk)`` and then ``finish()`` (bytes) to *out*
    atomically (stdout if None); a failure leaves *out* untouched."""
    bar = progress(inp.size, label, quiet)
    try:
        with atomic_output(out) as w:
            for chunk in read_chunks(inp, bar=bar):
                w.write(steps(chunk))
            w.write(finish())
    finally:
        bar.close()
        if inp.close:
            inp.file.close()


def failure(exc: Exception, name: str, errors: str) -> Optional[tuple[str, int]]:
    """``(message, exit code)`` for what stopped a conversion, or None if it is not ours to word."""
    if isinstance(exc, InputError):
        return str(exc), 2
    if isinstance(exc, DataError):
        return str(exc), 1
    if isinstance(exc, DecodeFailure):
        return f"{name}: byte {exc.start}: {exc.reason}: {hexbytes(exc.data, SHOWN_BYTES)}", 1
    if isinstance(exc, EncodeFailure):
        return f"{name}: {exc}", 1
    if isinstance(exc, TypeError) and "error callback" in str(exc):
        return f"error handler '{errors}' cannot be used here ({exc})", 2
    return None
