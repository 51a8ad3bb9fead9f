"""``encspec encode``: UTF-8 text to the bytes of an encoding, streaming."""
from __future__ import annotations

import codecs

import click

from ...io import stream
from ..common import Fail
from ..index import complete_spec


class _Utf8Input:
    """UTF-8 text in chunks (strict), remembering where each chunk's text began in bytes."""

    def __init__(self, name: str):
        self.name = name
        self.dec = codecs.getincrementaldecoder("utf-8")("strict")
        self.fed = 0            # bytes given to the decoder
        self.text_start = 0     # byte offset of the last text's first character

    def decode(self, chunk: bytes, final: bool = False) -> str:
        start = self.fed - len(self.dec.getstate()[0])
        self.fed += len(chunk)
        try:
            text = self.dec.decode(chunk, final)
        except UnicodeDecodeError as e:
            bad = e.object[e.start:e.end]
            raise stream.DataError(f"{self.name}: byte {start + e.start}: not UTF-8 text: {e.reason}: "
                                    f"{stream.hexbytes(bad)}") from None
        self.text_start = start
        return text


@click.command("encode")
@click.argument("spec", shell_complete=complete_spec)
@click.argument("file", required=False)
@click.option("--signature", is_flag=True, help="Write the encoding's signature first.")
@click.option("--errors", default="strict", metavar="HANDLER",
              help="Error handler for characters the encoding cannot hold (strict, replace, …).")
@click.option("-o", "--output", "out", default=None, metavar="OUT", help="Write here instead of stdout (- : stdout).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors (no progress bar).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def command(spec: str, file: str | None, signature: bool, errors: str, out: str | None, quiet: bool,
            no_progress: bool) -> None:
    """Read UTF-8 text from FILE (default: stdin) and write it in SPEC's encoding."""
    from ...codec import load_named
    inp = None
    try:
        stream.check_handler(errors)
        module, signed = load_named(spec)
        signature = signature or signed
        if signature and not module.SIGNATURE:
            raise stream.InputError(f"{spec}: the encoding has no signature")
        stream.check_output(out, [file])
        inp = stream.open_input(file)
        src = _Utf8Input(inp.name)
        enc = stream.Encoder(module, errors, signature)

        def step(chunk: bytes, final: bool = False) -> bytes:
            text = src.decode(chunk, final)
            before = enc.index
            try:
                return enc.encode(text, final)
            except stream.EncodeFailure as e:
                at = src.text_start + len(text[:e.index - before].encode("utf-8"))
                raise stream.DataError(f"{inp.name}: byte {at}: U+{e.cp:04X}: {e.reason}") from None

        stream.convert(inp, out, step, lambda: step(b"", True), "encode", quiet or no_progress)
    except (stream.InputError, stream.DataError, TypeError) as e:
        got = stream.failure(e, inp.name if inp else stream.shown(file), errors)
        if got is None:
            raise
        raise Fail(*got) from None
