"""``encspec playground``: build the in-browser playground as a static site."""
from __future__ import annotations

from pathlib import Path

import click

from ..common import Fail, output_folder


@click.command("playground")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder to write the site into (created; serve it with python3 -m http.server -d DIR).")
def command(out_dir: str) -> None:
    """Build the playground: a static page running encspec in the browser (Pyodide),
    from a source checkout's web/ folder (npm ci there when node_modules is missing)."""
    from ...io import playground as web
    try:
        web.source_root()   # run from an installed copy: a usage error (2), before any folder is made
    except web.BuildError as e:
        raise Fail(str(e)) from None
    out = Path(out_dir)
    output_folder(out)
    try:
        written = web.build(out)
    except web.BuildError as e:
        raise Fail(str(e), 1) from None
    size = sum(p.stat().st_size for p in written)
    click.echo(f"wrote {len(written)} files ({size / 1e6:.1f} MB) into {out}; "
               f"open it with: python3 -m http.server -d {out}")
