"""``encspec vectors``: a conformance test file for an encoding."""
from __future__ import annotations

from pathlib import Path

import click


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
    from ..main import Fail, _load
    out = Path(out_file)
    if not out.parent.exists():
        raise Fail(f"{out}: the folder that should hold it does not exist")
    if fmt is None:
        fmt = "jsonl" if out.suffix.lower() == ".jsonl" else "text"
    _, a = _load(spec)
    source = vectors.jsonl(a) if fmt == "jsonl" else vectors.text(a)
    out.write_text(source, "utf-8")
    click.echo(f"wrote {out} ({len(vectors.vector_inputs(a))} cases)")
