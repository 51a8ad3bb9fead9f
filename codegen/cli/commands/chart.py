"""``encspec chart``: pictures of an encoding (code page map, automaton)."""
from __future__ import annotations

from pathlib import Path

import click

from ..common import Fail, load_spec, require_parent


@click.command("chart")
@click.argument("spec")
@click.option("--codepage", "kind", flag_value="codepage", help="The 16×16 byte map, coloured by role (SVG).")
@click.option("--automaton", "kind", flag_value="automaton",
              help="The automaton: .dot (Graphviz source) or .svg (rendered with Graphviz's dot).")
@click.option("-o", "--out", "out_file", required=True, type=click.Path(dir_okay=False), help="Output file.")
def command(spec, kind, out_file):
    """Draw SPEC: --codepage -o FILE.svg, or --automaton -o FILE.svg|FILE.dot."""
    from ...analyse import charts
    if kind is None:
        raise Fail("say which picture: --codepage or --automaton")
    out = Path(out_file)
    require_parent(out)
    suffix = out.suffix.lower()
    _, a = load_spec(spec)
    if kind == "codepage":
        if suffix != ".svg":
            raise Fail(f"{out}: the code page chart is written as .svg")
        out.write_text(charts.codepage_svg(a), "utf-8")
    else:
        if suffix not in (".dot", ".gv", ".svg"):
            raise Fail(f"{out}: the automaton is written as .dot or .svg")
        source = charts.automaton_dot(a)
        if suffix == ".svg":
            try:
                out.write_bytes(charts.render_dot(source, "svg"))
            except (FileNotFoundError, RuntimeError) as e:
                raise Fail(str(e)) from None
        else:
            out.write_text(source, "utf-8")
    click.echo(f"wrote {out}")
