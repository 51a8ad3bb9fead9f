"""Streaming over a generated codec module: chunks in, results out, memory bounded.

Each chunk goes through the module's own public incremental codecs, so its fast
path (and native extension) is used as is and every error handler is applied
by the module, never here: text through ``IncrementalDecoder`` (with
``surrogates=False`` for UTF-8 output, and a recording error handler to
validate), code points as ints through ``IncrementalCodePointDecoder``, bytes
through ``IncrementalEncoder``; :class:`Transcoder` hands the target's encoder
each chunk's text, and ints only for a chunk a ``str`` cannot hold.  The module
keeps only the bytes (and scan state) of an unfinished sequence between chunks.

Everything here is independent of processes: :mod:`encspec.io.parallel` runs
:class:`Scanner` over byte ranges, the commands wire these classes to files
(:func:`open_input`, :func:`atomic_output`, :func:`progress`).
"""
from __future__ import annotations

import codecs
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

CHUNK_SIZE = 1 << 20      # bytes read (and decoded) at a time
TEXT_CHUNK = 1 << 18      # bytes read at a time by transcode: each chunk's str and bytes stay below
                          # malloc's mmap threshold, so they reuse memory instead of faulting pages in
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


def hexbytes(data: bytes, limit: int | None = None) -> str:
    """``C0 AF``; with *limit*, longer data ends in ``…``."""
    shown = data if limit is None else data[:limit]
    text = shown.hex(" ").upper()
    return text + " …" if limit is not None and len(data) > limit else text


STDIN = "<stdin>"          # how every message names standard input (``-`` or no FILE in argv)


def shown(path) -> str:
    """*path* as messages name it: standard input (None or ``-``) is always ``<stdin>``."""
    return STDIN if path is None or path == "-" else str(path)


def os_error_message(path, exc: OSError) -> str:
    """The one-line message for a failed open, read or write, as cli.py words them."""
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
    from ..codec import register
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

    file: IO[bytes]
    name: str
    size: int | None
    close: bool = True


def open_input(path: str | None) -> Input:
    """The file at *path* (``-`` or None: standard input), read-only; InputError if it cannot be read."""
    if path is None or path == "-":
        if sys.stdin is None:   # started with standard input closed (<&-)
            raise InputError(f"{STDIN}: bad file descriptor")
        stream = sys.stdin.buffer
        try:
            st = os.fstat(stream.fileno())
            size = st.st_size if _is_regular(st.st_mode) else None
        except (OSError, ValueError, AttributeError):
            size = None
        return Input(stream, STDIN, size, close=False)
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
    return stat.S_ISREG(mode)


def read_chunks(inp: Input, size: int | None = None, bar=None):
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
class Terminated(BaseException):
    """SIGTERM or SIGHUP while a temporary output exists: raised so that unwinding removes
    the temporary file (as KeyboardInterrupt does for SIGINT); the command exits 128+signum."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def is_stdout(out) -> bool:
    """``-o -`` (or no ``-o``) means standard output, for every command."""
    return out is None or out == "-"


def _target(out) -> tuple[Path, os.stat_result | None]:
    """Where writing *out* lands — a symlink followed to its target, which may not exist
    yet — and that target's stat (None when there is nothing there).

    InputError for a symlink loop: ``realpath`` stops inside the loop and returns a link
    of it, which the rename would replace; writing through it cannot succeed."""
    real = Path(os.path.realpath(out))
    try:
        return real, os.stat(real)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise InputError(loop_message(out)) from None
        return real, None


def symlink_loop(path) -> bool:
    """Whether following *path* ends in a symbolic link loop (ELOOP)."""
    try:
        os.stat(path)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


def loop_message(path) -> str:
    """How every command refuses an output that is a symbolic link loop (one line, exit 2)."""
    return f"{path}: a symbolic link loop (too many levels of symbolic links)"


def check_output(out: str | None, inputs=(), parents: bool = False) -> None:
    """InputError if *out* cannot be written: a directory, an input, or a missing folder
    (created instead with *parents*, as ``mkdir -p``)."""
    if is_stdout(out):
        return
    real, st = _target(out)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(f"{out}: is a directory")
    if st is None:
        if parents:
            try:
                real.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise InputError(os_error_message(e.filename or real.parent, e)) from None
        elif not real.parent.is_dir():
            raise InputError(f"{out}: the folder that should hold it does not exist")
    for inp in inputs:
        if inp in (None, "-") or st is None:
            continue
        try:
            if os.path.samefile(real, inp):
                raise InputError(f"{out}: is the input file (the input is never modified; write elsewhere)")
        except OSError:
            pass


def _write_error(name: str, exc: OSError) -> InputError:
    """A failed write as one line: ``write error: …`` for standard output (as coreutils say it)."""
    if name == "<stdout>":
        return InputError(f"write error: {(exc.strerror or str(exc)).lower()}")
    return InputError(os_error_message(name, exc))


@contextmanager
def _written(f, name: str):
    """Yield *f*; a write that fails (no file name on the error: ours) becomes one InputError
    line.  A closed pipe stays BrokenPipeError: the command then ends as SIGPIPE says."""
    try:
        yield f
        f.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        if e.filename is not None:
            raise
        raise _write_error(name, e) from None


class _WholeWrites:
    """Each write writes all it is given.  Under ``python -u`` or PYTHONUNBUFFERED,
    ``sys.stdout.buffer`` is a raw file whose write may take only part (what a pipe had
    room for, or until a signal) and say so in its return value."""

    def __init__(self, f):
        self._f = f

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        while view:
            n = self._f.write(view)
            if n is None:   # a non-blocking stdout that is full
                raise BlockingIOError(11, "standard output would block")
            view = view[n:]
        return len(data)

    def flush(self):
        self._f.flush()

    def fileno(self):
        return self._f.fileno()


@contextmanager
def atomic_output(out: str | None):
    """A binary file to write *out* (``-`` or None: standard output).

    Only a regular file (or a new path) is written to a temporary file in the same
    folder and renamed over it when the block succeeds, so a failure leaves it
    untouched, and SIGTERM/SIGHUP remove the temporary file (:class:`Terminated`).
    A symlink is followed and its target written; a device or a FIFO is opened and
    written in place — replacing it would take the reader's data (or /dev/full) away.
    """
    if is_stdout(out):
        if sys.stdout is None:
            raise InputError("write error: bad file descriptor")
        with _written(_WholeWrites(sys.stdout.buffer), "<stdout>") as f:
            yield f
        return
    real, st = _target(out)
    assert out is not None  # None is standard output, handled above
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            f = open(real, "wb")
        except OSError as e:
            raise InputError(os_error_message(out, e)) from None
        try:
            with _written(f, out):
                yield f
        finally:
            _close(f)
        return
    import tempfile  # here, not above: it costs every command's start-up 3 ms (random, shutil)

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    except OSError as e:
        raise InputError(os_error_message(out, e)) from None
    with _unwind_on_signals():
        try:
            f = os.fdopen(fd, "wb")
            try:
                with _written(f, out):
                    yield f
                    f.flush()
                    os.fsync(f.fileno())
            finally:
                _close(f)
            try:
                mode = (st.st_mode if st is not None else 0o666 & ~_umask()) & 0o7777
                os.chmod(tmp, mode)
                os.replace(tmp, real)
            except OSError as e:
                raise InputError(os_error_message(out, e)) from None
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _close(f) -> None:
    """Close *f*; after a failed write its buffer would fail again, and that error is
    already told."""
    try:
        f.close()
    except OSError:
        pass


def write_output(out: str | None, data: bytes, parents: bool = False) -> None:
    """Write *data* to *out* as :func:`atomic_output` does (``-``: stdout), after
    :func:`check_output` (with *parents*, missing folders are created)."""
    check_output(out, parents=parents)
    with atomic_output(out) as f:
        f.write(data)


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


@contextmanager
def _unwind_on_signals():
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` in this process
    (not in a child forked meanwhile; not if the signal is ignored, as under nohup)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def handler(signum, frame):
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated(signum)

    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None or signal.getsignal(sig) == signal.SIG_IGN:
            continue
        try:
            saved[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, previous in saved.items():
            signal.signal(sig, previous)


# --------------------------------------------------------------- progress
class NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def progress(total: int | None, label: str, quiet: bool = False):
    """A tqdm bar on stderr (bytes, bytes/s) if stderr is a terminal and *total* is a few MB; else a no-op."""
    if quiet or total is None or total < PROGRESS_MIN:
        return NoBar()
    try:
        if not sys.stderr.isatty():
            return NoBar()
    except (AttributeError, ValueError):
        return NoBar()
    from tqdm import tqdm
    return tqdm(total=total, desc=label, unit="B", unit_scale=True, unit_divisor=1024,
                file=sys.stderr, leave=False, dynamic_ncols=True)


# -------------------------------------------------------------- decoding
class _Decoding:
    """A module's own incremental decoder, with absolute byte offsets for failures.

    The module keeps the bytes of an unfinished sequence (and where its scan got
    to) between chunks; here only the offset of the next chunk is counted.
    """

    def __init__(self, decoder):
        self._dec = decoder
        self.fed = 0              # bytes given to the decoder so far

    def _decode(self, data, final):
        base = self.fed - len(self._dec.getstate()[0])  # absolute offset of what the module decodes
        try:
            out = self._dec.decode(data, final)
        except UnicodeDecodeError as e:
            raise DecodeFailure(base + e.start, base + e.end, bytes(e.object[e.start:e.end]), e.reason) from None
        self.fed += len(data)
        return out


class CodePointDecoder(_Decoding):
    """Incremental decoding to code points as ints (any size: nothing is lost beyond
    U+10FFFF), by the module's ``IncrementalCodePointDecoder``."""

    def __init__(self, module, errors: str = "strict"):
        super().__init__(module.IncrementalCodePointDecoder(errors))
        self.module = module
        self.errors = errors

    def decode(self, data, final: bool = False) -> list:
        return self._decode(data, final)


class TextDecoder(_Decoding):
    """Incremental decoding to text that UTF-8 can hold, by the module's
    ``IncrementalDecoder(errors, surrogates=False)``: code points beyond U+10FFFF
    and surrogate code points (``module.SURROGATE_REASON``) go through the error
    handler, in document order."""

    def __init__(self, module, errors: str = "strict"):
        super().__init__(module.IncrementalDecoder(errors, surrogates=False))
        self.module = module
        self.errors = errors

    def decode(self, data, final: bool = False) -> str:
        return self._decode(data, final)


# -------------------------------------------------------------- encoding
class Encoder:
    """Incremental encoding of text or code points by the module's ``IncrementalEncoder``
    (``SignedIncrementalEncoder`` with the signature first).

    The module's encoder holds nothing back (so that open() loses nothing); this
    wrapper always ends with final=True, so where encoders join a lead and a
    trail surrogate code point (WTF-8) it keeps a lead surrogate that ends a
    chunk until the next chunk shows what follows it.
    """

    def __init__(self, module, errors: str = "strict", signature: bool = False):
        self.module = module
        self.errors = errors
        self.signature = signature
        # a byte order mark is written whether asked or not, as CPython's utf-16 does: the
        # codec's own incremental encoder is then the signed one
        self._enc = (module.SignedIncrementalEncoder if signature else module.getregentry().incrementalencoder)(errors)
        self._pairs = bool(getattr(module, "PAIR_ON_ENCODE", False))
        self._held = 0            # a lead surrogate that ended the last chunk, kept for the next (0: none)
        self.index = 0            # code points encoded so far (a held one is not)

    def encode(self, items: str | Iterable[int], final: bool = False) -> bytes:
        """*items*: a ``str`` or a list of code points (ints of any size)."""
        seq: str | list[int]
        if isinstance(items, str):
            seq = chr(self._held) + items if self._held else items
        else:
            seq = [self._held, *items] if self._held else list(items)
        held = 0
        if self._pairs and not final and len(seq):
            last = ord(seq[-1]) if isinstance(seq, str) else seq[-1]
            if 0xD800 <= last <= 0xDBFF:
                held, seq = last, seq[:-1]
        try:
            out: bytes = self._enc.encode(seq, final)
        except UnicodeEncodeError as e:
            c = seq[e.start]
            raise EncodeFailure(self.index + e.start, ord(c) if isinstance(c, str) else c, e.reason) from None
        self.index += len(seq)
        self._held = held
        return out


# ------------------------------------------------------------- transcoding
class _Wider(Exception):
    """A code point beyond U+10FFFF met while decoding to text: this chunk goes as ints."""


_WIDE_HANDLERS: dict = {}  # (handler name, reason) -> the name of its wide-aware wrapper


def _wide_aware(errors: str, reason: str) -> str:
    """The name of an error handler that raises _Wider for *reason* (a code point that
    a str cannot hold) and hands every other problem to handler *errors*, looked up at
    each call (so a handler registered again later is the one used)."""
    key = (errors, reason)
    if key not in _WIDE_HANDLERS:
        def handler(exc):
            if isinstance(exc, UnicodeDecodeError) and exc.reason == reason:
                raise _Wider
            return codecs.lookup_error(errors)(exc)
        name = f"encspec.transcode-{len(_WIDE_HANDLERS)}"
        codecs.register_error(name, handler)
        _WIDE_HANDLERS[key] = name
    return _WIDE_HANDLERS[key]


class Transcoder(_Decoding):
    """Decoding with *source*, encoding with *target*, chunk by chunk, the code points
    passing as a ``str``: the source module's ``IncrementalDecoder`` (its native loop
    when it has one) writes the chunk's text, the target's ``IncrementalEncoder`` (its
    native path) reads it, and no int per code point is ever made.

    A ``str`` holds every code point up to U+10FFFF, surrogates included; a chunk with
    a code point beyond (a counted form of Corrected UTF-8 or UTF-∞-8) is decoded again
    from the same state as ints by ``IncrementalCodePointDecoder``, as every chunk was
    before, and so are the next ones until one holds only code points text can hold.
    Both decoders apply *errors* in the module, so the bytes written and the failures
    are the same either way; for a source whose code points never pass U+10FFFF
    (``MAX_CODE_POINT``) the handler is *errors* itself, else a wrapper that hands
    everything but those code points to it (a handler with side effects may see a
    problem twice in a chunk that is decoded again).
    """

    def __init__(self, source, target, errors: str = "strict", signature: bool = False):
        top = getattr(source, "MAX_CODE_POINT", None)
        self.wide = top is None or top > 0x10FFFF  # code points a str cannot hold may come
        handler = _wide_aware(errors, source.BEYOND_REASON) if self.wide else errors
        super().__init__(source.IncrementalDecoder(handler))
        self._text = self._dec
        self._ints = source.IncrementalCodePointDecoder(errors) if self.wide else None
        self.encoder = Encoder(target, errors, signature)
        self.int_chunks = 0       # times a chunk had to go as ints (beyond U+10FFFF)

    def transcode(self, data, final: bool = False) -> bytes:
        """The target's bytes for the next *data* (all that is left with *final*)."""
        if self._dec is self._ints:
            items = self._decode(data, final)
            if items and max(items) <= 0x10FFFF:  # text can hold them again: back to it
                self._text.setstate(self._ints.getstate())
                self._dec = self._text
            return self.encoder.encode(items, final)
        state = self._text.getstate() if self.wide else None
        try:
            text = self._decode(data, final)
        except _Wider:  # from the state before this chunk, as ints
            assert self._ints is not None  # only a wide source raises _Wider
            self._text.setstate(state)
            self._ints.setstate(state)
            self._dec = self._ints
            self.int_chunks += 1
            return self.encoder.encode(self._decode(data, final), final)
        return self.encoder.encode(text, final)


# ------------------------------------------------------------- validation
# Problems are tuples, cheap to pickle: (kind, start, end, shown bytes, reason,
# newlines before it, characters since the last newline) — the last two relative
# to where the scan began; :func:`place` makes them a line and a column.
KIND, START, END, BYTES, REASON, NEWLINES, CHARS = range(7)


class _Recording(threading.local):
    """The problems an in-progress decode reports (one per thread: Dask may run tasks in threads)."""

    module: Any = None  # the generated module decoding (its names looked up as it runs)
    final = True
    found: list | None = None
    limit: int | None = None


_recording = _Recording()
RECORD = "encspec.stream-record"


def _record(exc):
    """An error handler that notes a problem and replaces it with nothing.

    A valid code point beyond U+10FFFF (which text cannot hold) is no problem:
    it becomes one placeholder character, so columns still count it.
    """
    rec = _recording
    kind = "error"
    if exc.reason in ("reserved sequence", rec.module.BEYOND_REASON):
        tok = rec.module.next_token(exc.object, exc.start, 0, rec.final)[0]
        if tok is not None and tok[0] == "char":
            return "\ufffd", exc.end
        if tok is not None and tok[0] == "reserved":
            kind = "reserved"
    rec.found.append((kind, exc.start, exc.end, exc.reason))
    if rec.limit is not None and len(rec.found) >= rec.limit:
        return "", len(exc.object)  # enough: skip the rest of this buffer
    return "", exc.end


codecs.register_error(RECORD, _record)


@contextmanager
def _recorder(module, final: bool, limit: int | None):
    """Record the problems *module* reports while the block decodes; yields their list."""
    rec = _recording
    saved = (rec.module, rec.final, rec.found, rec.limit)
    rec.module, rec.final, rec.found, rec.limit = module, final, [], limit
    try:
        yield rec.found
    finally:
        rec.module, rec.final, rec.found, rec.limit = saved


_NEWLINE_ALONE: dict = {}


def _newline_alone(module, state: int) -> bool:
    """Whether the module validates natively and, from scanner *state*, every byte
    0A of valid text is a newline (the module's newline_alone)."""
    key = (id(module), state)
    got = _NEWLINE_ALONE.get(key)
    if got is None:
        got = module.validates_natively() and module.newline_alone(state)
        _NEWLINE_ALONE[key] = got
    return got


class Scanner:
    """Finds the errors, reserved runs and signature of a stream, with positions.

    Each chunk is decoded once, by the module's own ``IncrementalDecoder`` with a
    recording error handler (the module keeps an unfinished sequence between
    chunks).  Lines and columns come from the decoded text: a chunk without
    problems only has its newlines counted; in a chunk with problems the clean
    spans between them are decoded again to place each one (spans end where
    tokens end, so they decode alone exactly as in place).  A problem counts as
    one character, the signature as none.

    Positions are relative to where the scan starts (``newlines``, ``chars``), so
    a scan can start wherever a token starts and be placed later
    (:mod:`encspec.io.parallel`).  With *limit*, the scan stops after that many
    problems (``done``).
    """

    def __init__(self, module, at_start: bool = True, offset: int = 0, limit: int | None = None):
        self.module = module
        self.offset = offset      # absolute offset of the next byte fed
        self.limit = limit
        self.newlines = 0
        self.chars = 0
        self.count = 0            # problems found (the signature is not one)
        self.done = False
        self._dec = module.IncrementalDecoder(RECORD)
        self._dec.setstate((b"", module.START if at_start else 0))
        self._spans = module.IncrementalDecoder(RECORD)
        self._flag = 0  # the scanner state of clean spans: the spec's own mode, no signature

    def feed(self, data, final: bool = False) -> list:
        if self.done:
            return []
        pending, state = self._dec.getstate()  # the scanner state where pending begins
        at_start = state == self.module.START
        if not final and _newline_alone(self.module, state):
            # the native validator first: a chunk without problems is not decoded, only
            # the characters after its last newline are counted
            buf = pending + bytes(data)
            consumed, after, problem = self.module.valid_until(buf, 0, state, False, False)
            if not problem:
                self.offset += len(data)
                if consumed:
                    state = self._flag = after
                self._count(buf, consumed)
                self._dec.setstate((buf[consumed:], state))
                return []
        base = self.offset - len(pending)   # absolute offset of what the module decodes now
        data = bytes(data)
        self.offset += len(data)
        limit = None if self.limit is None else self.limit - self.count
        with _recorder(self.module, final, limit) as found:
            text = self._dec.decode(data, final)
        left, state = self._dec.getstate()
        if state != self.module.START:
            self._flag = state  # the mode a signature chose, for _clean
        problems: list[tuple] = []  # (kind, start, end, bytes, reason, newlines, chars)
        buf = pending + data
        signature = 0  # where the signature that the decoder read ends (0: none)
        if at_start and state != self.module.START:
            tok = self.module.next_token(buf, 0, self.module.START, True)[0]
            signature = tok[2] if tok is not None and tok[0] == "signature" else 0
        if not found and not signature:
            self._advance(text)
            return problems
        del text
        consumed = len(buf) - len(left)
        prev = 0
        if signature:
            problems.append(("signature", base, base + signature, buf[:signature], None, self.newlines, self.chars))
            prev = signature
        for kind, start, end, reason in found:
            if start > prev:
                self._advance(self._clean(buf[prev:start]))
            problems.append((kind, base + start, base + end, buf[start:min(end, start + SHOWN_BYTES)],
                             reason, self.newlines, self.chars))
            self.chars += 1
            prev = end
        self.count += len(found)
        if self.limit is not None and self.count >= self.limit:
            self.done = True
            return problems
        if consumed > prev:
            self._advance(self._clean(buf[prev:consumed]))
        return problems

    def _count(self, buf: bytes, end: int):
        """Lines and columns over buf[:end], valid text in which every byte 0A is a
        newline: the newlines counted in the bytes, the characters after the last one
        decoded."""
        k = buf.count(b"\n", 0, end)
        if k:
            self.newlines += k
            self.chars = 0
            self._advance(self._clean(buf[buf.rfind(b"\n", 0, end) + 1:end]))
        else:
            self._advance(self._clean(buf[:end]))

    def _clean(self, span: bytes) -> str:
        """The text of a span without problems (it ends where a token ends)."""
        with _recorder(self.module, True, None):
            self._spans.setstate((b"", self._flag))
            return self._spans.decode(span, True)

    def _advance(self, text: str):
        k = text.count("\n")
        if k:
            self.newlines += k
            self.chars = len(text) - 1 - text.rfind("\n")
        else:
            self.chars += len(text)


def place(p: tuple, base_newlines: int = 0, base_chars: int = 0) -> Problem:
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
    reason: str | None
    line: int
    column: int

    def to_json(self) -> dict:
        return {"kind": self.kind, "offset": self.start, "end": self.end, "line": self.line,
                "column": self.column, "bytes": hexbytes(self.data), "reason": self.reason}


@dataclass
class Report:
    """What validating one file found."""

    path: str
    size: int | None = None
    problems: list = field(default_factory=list)   # errors and reserved runs, in order
    signature: Problem | None = None
    truncated: bool = False                          # stopped at the limit
    error: str | None = None                      # could not be read

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.kind == "error")

    @property
    def reserved(self) -> int:
        return sum(1 for p in self.problems if p.kind == "reserved")

    def valid(self, allow_reserved: bool = True) -> bool | None:
        """Whether the file is valid; None if it could not be read, or if the scan
        stopped at the limit with only reserved runs found (the unread rest decides).

        Reserved runs keep a file valid unless allow_reserved=False: decoders "MUST
        treat sequences beginning with FE or FF as reserved for future use ...
        rather than as invalid" (corrected-utf-8.txt).
        """
        if self.error is not None:
            return None
        if self.errors:
            return False
        if not allow_reserved and self.reserved:
            return False
        return None if self.truncated else True

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


def validate_stream(module, inp: Input, limit: int | None = None, chunk_size: int | None = None,
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
def convert(inp: Input, out: str | None, steps, finish, label: str, quiet: bool = False,
            size: int | None = None) -> None:
    """Read *inp* in chunks (of *size*, default CHUNK_SIZE), write ``steps(chunk)`` and then
    ``finish()`` (bytes) to *out* atomically (stdout if None); a failure leaves *out* untouched."""
    bar = progress(inp.size, label, quiet)
    try:
        with atomic_output(out) as w:
            for chunk in read_chunks(inp, size, bar=bar):
                w.write(steps(chunk))
            w.write(finish())
    finally:
        bar.close()
        if inp.close:
            inp.file.close()


def failure(exc: Exception, name: str, errors: str) -> tuple[str, int] | None:
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
