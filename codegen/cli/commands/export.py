"""``encspec export``: tables and a small decoder in another language."""
from __future__ import annotations

from pathlib import Path

import click

from ...emit.targets import export, exports, require
from ..common import Fail, load_spec, require_parent


@click.command("export")
@click.argument("spec")
@click.option("--lang", required=True, help="Target language: json, c, rust, js, java.")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output folder.")
def command(spec, lang, out_dir):
    """Write the tables and a small dependency-free decoder for SPEC in another language.

    A spec the language cannot hold (C and Rust: 64-bit limits) is refused with
    one line before anything is written."""
    available = exports()
    if lang not in available:
        raise Fail(f"unknown language '{lang}' (available: {', '.join(sorted(available))})")
    out = Path(out_dir)
    require_parent(out)
    _, automaton = load_spec(spec)
    require(automaton, lang)
    for path in export(automaton, lang, out):
        click.echo(f"wrote {path}")
