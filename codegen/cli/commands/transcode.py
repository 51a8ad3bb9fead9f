"""``encspec transcode``: from one encoding to another, a chunk of text at a time, streaming."""
from __future__ import annotations

import click

from ...io import stream
from ..common import Fail
from ..index import complete_spec


@click.command("transcode")
@click.option("-f", "--from", "source", required=True, metavar="SPEC", shell_complete=complete_spec,
              help="The input's encoding (name or spec path), as iconv -f.")
@click.option("-t", "--to", "target", required=True, metavar="SPEC", shell_complete=complete_spec,
              help="The output's encoding (name or spec path), as iconv -t.")
@click.argument("file", required=False)
@click.option("--errors", default="strict", metavar="HANDLER",
              help="Error handler for ill-formed input and for code points the target cannot hold.")
@click.option("--signature", is_flag=True, help="Write the target's signature first.")
@click.option("-o", "--output", "out", default=None, metavar="OUT", help="Write here instead of stdout (- : stdout).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors (no progress bar).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def command(source: str, target: str, file: str | None, errors: str, signature: bool, out: str | None,
            quiet: bool, no_progress: bool) -> None:
    """Re-encode FILE (default: stdin) from one encoding to another.

    Code points pass as text, a chunk at a time (the native decoder writes it, the
    native encoder reads it); a chunk with code points beyond U+10FFFF passes them as
    integers, so they survive whenever the target can encode them (Corrected UTF-8
    to UTF-∞-8).  The same error handler
    sees ill-formed input (UnicodeDecodeError) and code points the target cannot
    hold (UnicodeEncodeError): surrogateescape carries bad bytes across unchanged.
    """
    from ...codec import load_named
    inp = None
    try:
        stream.check_handler(errors)
        src, _ = load_named(source)
        dst, signed = load_named(target)
        signature = signature or signed
        if signature and not dst.SIGNATURE:
            raise stream.InputError(f"{target}: the encoding has no signature")
        stream.check_output(out, [file])
        inp = stream.open_input(file)
        tc = stream.Transcoder(src, dst, errors, signature)
        stream.convert(inp, out, tc.transcode, lambda: tc.transcode(b"", True), "transcode", quiet or no_progress,
                       stream.TEXT_CHUNK)
    except (stream.InputError, stream.DataError, stream.DecodeFailure, stream.EncodeFailure, TypeError) as e:
        got = stream.failure(e, inp.name if inp else stream.shown(file), errors)
        if got is None:
            raise
        raise Fail(*got) from None
