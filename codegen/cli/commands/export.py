"""``encspec export``: tables and a small decoder in another language."""
from __future__ import annotations

from pathlib import Path

import click

from ...emit.targets import export, targets


@click.command("export")
@click.argument("spec")
@click.option("--lang", required=True, help="Target language: json, c, rust, js, java.")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder.")
def command(spec, lang, out_dir):
    """Write the tables and a small dependency-free decoder for SPEC in another language."""
    from ..main import Fail, _load
    available = targets()
    if lang not in available:
        raise Fail(f"unknown language '{lang}' (available: {', '.join(sorted(available))})")
    out = Path(out_dir)
    if not out.parent.exists():
        raise Fail(f"{out}: the folder that should hold it does not exist")
    _, automaton = _load(spec)
    for path in export(automaton, lang, out):
        click.echo(f"wrote {path}")
