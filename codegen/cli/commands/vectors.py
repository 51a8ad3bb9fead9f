"""``encspec vectors``: a conformance test file for an encoding."""
from __future__ import annotations

from pathlib import Path

import click

from ..common import load_spec, require_parent


@click.command("vectors")
@click.argument("spec")
@click.option("-o", "--out", "out_file", required=True, type=click.Path(dir_okay=False), help="Output file.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default=None,
              help="text (numbered sections, like Kuhn's stress test) or jsonl (one case a line); "
                   "default: from the suffix, .jsonl is JSON lines.")
def command(spec, out_file, fmt):
    """Write conformance test vectors: boundary code points and every ill-formed class,
    each with its expected tokens."""
    from ...analyse import vectors
    out = Path(out_file)
    require_parent(out)
    if fmt is None:
        fmt = "jsonl" if out.suffix.lower() == ".jsonl" else "text"
    _, a = load_spec(spec)
    source = vectors.jsonl(a) if fmt == "jsonl" else vectors.text(a)
    out.write_text(source, "utf-8")
    click.echo(f"wrote {out} ({len(vectors.vector_inputs(a))} cases)")
