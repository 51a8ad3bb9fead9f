"""``encspec bench``: decode, incremental decode, replace, validate, encode, transcode and 8/20/100-byte codec calls of seeded corpora, per spec, next to CPython's own codec, iconv and Node, on CPU time; and what mapping tables take."""
from __future__ import annotations

import json
import sys

import click

from ..common import Fail

SECTION_NAMES = ("decode", "incremental", "replace", "validate", "encode", "unencodable", "transcode", "small")
CATALOGUE = {"size": 256 << 10, "repeat": 3}  # --catalogue's defaults: ~130 specs in minutes


@click.command("bench")
@click.option("--spec", "specs", multiple=True, help="Spec to benchmark (repeatable; default utf-8 and corrected-utf-8).")
@click.option("--size", default="16MiB", show_default=True, help="Corpus size, e.g. 16MiB, 500KB.")
@click.option("--repeat", default=5, show_default=True, type=click.IntRange(1), help="Best of N runs.")
@click.option("--section", "sections", multiple=True, type=click.Choice(SECTION_NAMES),
              help="Only this section (repeatable; default all).")
@click.option("--export", "export", type=click.Choice(["c"]), default=None,
              help="Require the exported C decoder (by default it is timed when a C compiler is found).")
@click.option("--no-export", is_flag=True, help="Do not build and time the exported C decoder.")
@click.option("--no-invalid", is_flag=True, help="Skip the replace section (damaged corpora).")
@click.option("--no-encode", is_flag=True, help="Skip the encode section.")
@click.option("--wide", "wide", type=click.IntRange(1), default=None, metavar="BITS",
              help="Instead: time encoding and decoding one random code point of BITS bits "
                   "(specs with counted forms; default utf-inf-8).")
@click.option("--quick", is_flag=True,
              help="256 KiB corpora, best of 2, the pure-Python backend, the token loop and the oracle on "
                   "64 KiB (--size and --repeat still win when given).")
@click.option("--catalogue", is_flag=True,
              help="Every built-in spec with a CPython codec (or those of --spec), CPython and native only: decode, "
                   "incremental, replace at 1%, validate, encode and small calls; 256 KiB corpora, best of 3 "
                   "(--size and --repeat still win when given).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def command(ctx, specs, size, repeat, sections, export, no_export, no_invalid, no_encode, quick, wide, catalogue,
            as_json):
    """Time decoding (strict, and with replace and surrogateescape on 1% and 10% damaged bytes), validation, encoding, transcoding and 8/20/100-byte bytes.decode/str.encode calls through the codec registry of four seeded corpora: CPython's codec of the same text (its utf-16-le for utf-16le, shift_jis for shift_jis, else utf-8), the native and pure-Python modules, the straightforward token loop, the exported C decoder, iconv and Node's buffer.isUtf8 and TextDecoder where they exist; CPU time, best of N, ratios to CPython; the machine described first.  A benchmark, not a test."""
    from ...bench.report import as_json as to_json
    from ...bench.report import table
    from ...bench.run import PY_BYTES, PY_TABLE_BYTES, QUICK, memory_json, memory_table, run, table_memory
    from ...bench.tools import machine, machine_line
    if export and no_export:
        raise Fail("--export c and --no-export cannot be used together")
    given = {p for p in ("size", "repeat") if ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE}
    if quick or catalogue:
        defaults = QUICK if quick else CATALOGUE
        size = size if "size" in given else str(defaults["size"])
        repeat = repeat if "repeat" in given else defaults["repeat"]
    if wide is not None:
        from ...bench.run import WideError, wide_rows
        try:
            rows = wide_rows(list(specs) or ["utf-inf-8"], wide, repeat)
        except WideError as e:
            raise Fail(str(e)) from None
        if as_json:
            click.echo(json.dumps({"machine": machine(), "wide": rows}, indent=1))
        else:
            click.echo(f"# {machine_line(machine())}")
            for r in rows:
                click.echo(f"{r['spec']} {r['backend']}: one {r['bits']:,}-bit code point ({r['bytes']:,} bytes): "
                           f"encode {r['encode_ms']:.1f} ms, decode {r['decode_ms']:.1f} ms")
        return
    n = _size(size)
    if n is None or n <= 0:
        raise Fail(f"--size: cannot read '{size}' (e.g. 16MiB, 500KB, 1000000)")
    chosen = [s for s in (sections or [s for s in SECTION_NAMES if not (catalogue and s in ("transcode", "unencodable"))])
              if not (no_invalid and s == "replace") and not (no_encode and s in ("encode", "unencodable"))]
    if not chosen:
        raise Fail("no section left to run (--no-invalid and --no-encode removed them)")
    from ...codec import load
    if catalogue and not specs:
        from ...bench.run import catalogue as catalogue_specs
        names = [name for name, _ in catalogue_specs()]
    else:
        names = list(specs) or ["utf-8", "corrected-utf-8"]
    for name in names:
        load(name)  # an unknown name fails here, in one line, before any timing
    progress = (lambda s: click.echo(f"  timing {s} …", err=True)) if sys.stderr.isatty() and not as_json else (lambda s: None)
    rows = run(names, n, repeat, False if catalogue or no_export else (True if export else None), chosen, progress,
               py_bytes=QUICK["py_bytes"] if quick else PY_BYTES,
               py_table_bytes=QUICK["py_table_bytes"] if quick else PY_TABLE_BYTES, lean=catalogue)
    mem = table_memory(names)
    if as_json:
        click.echo(json.dumps({"machine": machine(), "size": n, "repeat": repeat, "sections": chosen,
                               "rows": to_json(rows), "table_memory": memory_json(mem)}, indent=1))
        return
    click.echo(f"# {machine_line(machine())}")
    click.echo(f"# corpora of {n:,} bytes, best of {repeat}, CPU time\n")
    click.echo(table(rows, summary_only=catalogue))
    if mem:
        click.echo("\nTABLE MEMORY (the encoders' after the corpora)")
        click.echo(memory_table(mem))


def _size(text: str):
    units = {"": 1, "b": 1, "kb": 1000, "kib": 1024, "mb": 1000 ** 2, "mib": 1024 ** 2, "gb": 1000 ** 3, "gib": 1024 ** 3}
    t = text.strip().lower()
    num = t.rstrip("abcdefghijklmnopqrstuvwxyz")
    try:
        return int(float(num) * units[t[len(num):]])
    except (ValueError, KeyError):
        return None
