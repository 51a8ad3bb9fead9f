"""``encspec vectors``: a conformance test file for an encoding."""
from __future__ import annotations

from pathlib import Path

import click

from ..common import Fail, load_spec
from ..index import complete_spec


@click.command("vectors")
@click.argument("spec", shell_complete=complete_spec)
@click.option("-o", "--out", "out_file", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file (missing folders are created; - : stdout).")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default=None,
              help="text (numbered sections, like Kuhn's stress test) or jsonl (one case a line); "
                   "default: from the suffix, .jsonl is JSON lines.")
def command(spec, out_file, fmt):
    """Write conformance test vectors: boundary code points and every ill-formed class,
    each with its expected tokens."""
    from ...analyse import vectors
    from ...io import stream
    out = Path(out_file)
    if fmt is None:
        fmt = "jsonl" if out.suffix.lower() == ".jsonl" else "text"
    _, a = load_spec(spec)
    source = vectors.jsonl(a) if fmt == "jsonl" else vectors.text(a)
    try:
        stream.write_output(out_file, source.encode("utf-8"), parents=True)
    except stream.InputError as e:
        raise Fail(str(e)) from None
    if not stream.is_stdout(out_file):
        click.echo(f"wrote {out} ({len(vectors.vector_inputs(a))} cases)")
