"""``encspec chart``: pictures of an encoding (code page map, automaton)."""
from __future__ import annotations

from pathlib import Path

import click

from ..common import Fail, exclusive, load_spec
from ..index import complete_spec


@exclusive("codepage", "automaton")
@click.command("chart")
@click.argument("spec", shell_complete=complete_spec)
@click.option("--codepage", is_flag=True, help="The 16×16 byte map, coloured by role (SVG).")
@click.option("--automaton", is_flag=True,
              help="The automaton: .dot (Graphviz source) or .svg (rendered with Graphviz's dot).")
@click.option("--ancestor", metavar="SPEC|none", default=None, shell_complete=complete_spec,
              help="Code page: show what red bytes meant in this spec (default: utf-8-rfc2279 "
                   "for utf-8 and its derivatives; none: no ancestor).")
@click.option("--mode", metavar="NAME", default=None,
              help="Code page of a spec with modes: the bytes as this mode reads them (default: the first).")
@click.option("-o", "--out", "out_file", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file (missing folders are created; - : stdout, the automaton as .dot).")
def command(spec, codepage, automaton, ancestor, mode, out_file):
    """Draw SPEC: --codepage -o FILE.svg, or --automaton -o FILE.svg|FILE.dot."""
    from ...analyse import charts
    from ...io import stream
    kind = "codepage" if codepage else "automaton" if automaton else None
    if kind is None:
        raise Fail("say which picture: --codepage or --automaton")
    to_stdout = stream.is_stdout(out_file)
    out = Path(out_file)
    suffix = out.suffix.lower() if not to_stdout else ".svg" if kind == "codepage" else ".dot"
    _, a = load_spec(spec)
    if ancestor is not None and kind != "codepage":
        raise Fail("--ancestor is for the code page chart (--codepage)")
    if mode is not None and kind != "codepage":
        raise Fail("--mode is for the code page chart (--codepage): the automaton shows every mode")
    try:
        part = charts.mode_part(a, mode)
    except ValueError as e:
        raise Fail(str(e)) from None
    if kind == "codepage":
        if suffix != ".svg":
            raise Fail(f"{out}: the code page chart is written as .svg")
        then = "auto" if ancestor is None else None if ancestor.lower() == "none" else load_spec(ancestor)[1]
        data = charts.codepage_svg(part, then).encode("utf-8")
    else:
        if suffix not in (".dot", ".gv", ".svg"):
            raise Fail(f"{out}: the automaton is written as .dot or .svg")
        source = charts.automaton_dot(a)
        if suffix == ".svg":
            try:
                data = charts.render_dot(source, "svg")
            except (FileNotFoundError, RuntimeError) as e:
                raise Fail(str(e)) from None
        else:
            data = source.encode("utf-8")
    try:
        stream.write_output(out_file, data, parents=True)
    except stream.InputError as e:
        raise Fail(str(e)) from None
    if not to_stdout:
        click.echo(f"wrote {out}")
