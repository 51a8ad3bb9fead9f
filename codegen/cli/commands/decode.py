"""``encspec decode``: bytes of an encoding to UTF-8 text, streaming."""
from __future__ import annotations

import os

import click

from ...io import stream
from ..common import Fail
from ..index import complete_spec

SPOOL_IN_MEMORY = 16 << 20   # --fallback keeps up to this much of a stdin in memory, the rest in a temp file


@click.command("decode")
@click.argument("spec", shell_complete=complete_spec)
@click.argument("file", required=False)
@click.option("--errors", default="strict", metavar="HANDLER",
              help="Error handler for ill-formed input (strict, replace, ignore, encspec.latin1, …).")
@click.option("--fallback", is_flag=False, flag_value="cp1252", default=None, metavar="[CODEC]",
              help="Validate first; if the input is not valid in SPEC, decode all of it with CODEC "
                   "(any Python codec; default cp1252) and say so on stderr.  Put it after FILE, "
                   "or write --fallback=CODEC.")
@click.option("--reject-reserved", is_flag=True,
              help="With --fallback: a reserved run makes the input invalid (by default it does not).")
@click.option("-o", "--output", "out", default=None, metavar="OUT", help="Write here instead of stdout (- : stdout).")
@click.option("-q", "--quiet", is_flag=True,
              help="Print nothing but errors (no progress bar, no note of what --fallback chose).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def command(spec: str, file: str | None, errors: str, fallback: str | None, reject_reserved: bool,
            out: str | None, quiet: bool, no_progress: bool) -> None:
    """Decode FILE (default: stdin) and write it as UTF-8 text.

    Code points UTF-8 cannot hold (beyond U+10FFFF, surrogates) go through the
    error handler like ill-formed sequences.  With strict, the first problem
    stops the command (exit 1) and OUT is left untouched.
    """
    from ...codec import load
    from ...io import fallback as fb
    if reject_reserved and fallback is None:
        raise Fail("--reject-reserved goes with --fallback")
    inp = None
    chosen = None   # with --fallback: (the encoding used, why)
    try:
        stream.check_handler(errors)
        legacy = None
        if fallback is not None:
            try:
                legacy = fb.legacy_codec(fallback)
            except LookupError as e:
                hint = (f"; '{fallback}' is a file: put FILE before --fallback, or write --fallback=CODEC"
                        if os.path.exists(fallback) else "")
                raise stream.InputError(f"{e}{hint}") from None
        module = load(spec)
        stream.check_output(out, [file])
        inp = stream.open_input(file)
        dec: stream.TextDecoder | _Legacy = stream.TextDecoder(module, errors)
        if legacy is not None:
            inp, start = _rewindable(inp)
            bar = stream.progress(inp.size, "validate", quiet or no_progress)
            try:
                problem = fb.first_problem(module, stream.read_chunks(inp, bar=bar), not reject_reserved)
            finally:
                bar.close()
            try:
                inp.file.seek(start)
            except OSError as e:
                raise stream.InputError(stream.os_error_message(inp.name, e)) from None
            if problem is None:
                chosen = (module.NAME, "valid")
            else:
                dec = _Legacy(legacy, errors)
                chosen = (legacy.name, fb.why_not(module, problem))

        def text(s: str) -> bytes:
            try:
                return s.encode("utf-8", "surrogateescape")  # U+DC80..U+DCFF from surrogateescape: the raw bytes
            except UnicodeEncodeError as e:
                raise stream.DataError(f"the error handler '{errors}' produced U+{ord(s[e.start]):04X}, "
                                        "which UTF-8 text cannot hold") from None

        stream.convert(inp, out, lambda chunk: text(dec.decode(chunk)), lambda: text(dec.decode(b"", True)),
                       "decode", quiet or no_progress)
    except (stream.InputError, stream.DataError, stream.DecodeFailure, TypeError) as e:
        got = stream.failure(e, inp.name if inp else stream.shown(file), errors)
        if got is None:
            raise
        message, code = got
        if chosen is not None and not isinstance(e, stream.InputError):
            message += f" (decoding as {chosen[0]}; {chosen[1]})"
        raise Fail(message, code) from None
    if chosen is not None and not quiet:
        click.echo(f"decoded as {chosen[0]} ({chosen[1]})", err=True)


def _rewindable(inp: stream.Input) -> tuple[stream.Input, int]:
    """*inp* and the offset to read it again from: a seekable file as it is, standard
    input or a pipe copied to a spooled temporary file first (two passes need it)."""
    if inp.name != stream.STDIN:
        try:
            if inp.file.seekable():
                return inp, inp.file.tell()
        except (OSError, ValueError):
            pass
    import tempfile  # only --fallback of a pipe needs it: not at start-up

    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
    try:
        for chunk in stream.read_chunks(inp):
            spool.write(chunk)
    except BaseException:
        spool.close()
        raise
    finally:
        if inp.close:
            inp.file.close()
    size = spool.tell()
    spool.seek(0)
    return stream.Input(spool, inp.name, size), 0


class _Legacy:
    """Incremental decoding with a Python codec, its failures at absolute byte offsets
    (like ``stream.TextDecoder``; a multibyte codec keeps an unfinished sequence)."""

    def __init__(self, info, errors: str):
        self._dec = info.incrementaldecoder(errors)
        self.fed = 0

    def decode(self, data: bytes, final: bool = False) -> str:
        state = self._dec.getstate()
        pending = state[0] if isinstance(state, tuple) and isinstance(state[0], bytes) else b""
        base = self.fed - len(pending)
        try:
            text = self._dec.decode(data, final)
        except UnicodeDecodeError as e:
            raise stream.DecodeFailure(base + e.start, base + e.end, bytes(e.object[e.start:e.end]),
                                       e.reason) from None
        self.fed += len(data)
        return text
