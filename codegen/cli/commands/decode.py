"""``encspec decode``: bytes of an encoding to UTF-8 text, streaming."""
from __future__ import annotations

import click

from ...io import stream
from ..common import Fail


@click.command("decode")
@click.argument("spec")
@click.argument("file", required=False)
@click.option("--errors", default="strict", metavar="HANDLER",
              help="Error handler for ill-formed input (strict, replace, ignore, encspec.latin1, …).")
@click.option("-o", "--output", "out", default=None, metavar="OUT", help="Write here (atomically) instead of stdout.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def command(spec, file, errors, out, quiet):
    """Decode FILE (default: stdin) and write it as UTF-8 text.

    Code points UTF-8 cannot hold (beyond U+10FFFF, surrogates) go through the
    error handler like ill-formed sequences.  With strict, the first problem
    stops the command (exit 1) and OUT is left untouched.
    """
    from ...runtime.codec import load
    inp = None
    try:
        stream.check_handler(errors)
        module = load(spec)
        stream.check_output(out, [file])
        inp = stream.open_input(file)
        dec = stream.TextDecoder(module, errors)

        def text(s: str) -> bytes:
            try:
                return s.encode("utf-8", "surrogateescape")  # U+DC80..U+DCFF from surrogateescape: the raw bytes
            except UnicodeEncodeError as e:
                raise stream.DataError(f"the error handler '{errors}' produced U+{ord(s[e.start]):04X}, "
                                        "which UTF-8 text cannot hold") from None

        stream.convert(inp, out, lambda chunk: text(dec.decode(chunk)), lambda: text(dec.decode(b"", True)),
                       "decode", quiet)
    except (stream.InputError, stream.DataError, stream.DecodeFailure, TypeError) as e:
        got = stream.failure(e, inp.name if inp else file, errors)
        if got is None:
            raise
        raise Fail(*got) from None
