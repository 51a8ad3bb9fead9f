"""``encspec bench``: throughput of the generated decoders and encoders next to CPython's own codec (utf-8, or the spec's: utf-16-le, shift_jis, ...), and what mapping tables take."""
from __future__ import annotations

import json
import platform
import sys

import click

from ..common import Fail


@click.command("bench")
@click.option("--spec", "specs", multiple=True, help="Spec to benchmark (repeatable; default utf-8 and corrected-utf-8).")
@click.option("--size", default="16MiB", show_default=True, help="Corpus size, e.g. 16MiB, 500KB.")
@click.option("--repeat", default=5, show_default=True, help="Best of N runs.")
@click.option("--export", "export", type=click.Choice(["c"]), default=None, help="Also time the exported C decoder.")
@click.option("--no-invalid", is_flag=True, help="Skip the 1%-invalid corpora decoded with errors='replace'.")
@click.option("--wide", "wide", type=click.IntRange(1), default=None, metavar="BITS",
              help="Instead: time encoding and decoding one random code point of BITS bits "
                   "(specs with counted forms; default utf-inf-8).")
@click.option("--no-encode", is_flag=True, help="Time decoding only.")
@click.option("--quick", is_flag=True,
              help="256 KiB corpora, best of 2, no damaged corpora, the pure-Python decoder on 64 KiB of a "
                   "table spec's text (--size and --repeat still win when given).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def command(ctx, specs, size, repeat, export, no_invalid, no_encode, quick, wide, as_json):
    """Time decoding and encoding of four seeded corpora against CPython's codec of the same text: its utf-16-le for utf-16le, shift_jis for shift_jis and whatwg-shift_jis, and so on, else utf-8; for a spec with mapping tables also what the tables take in memory (a benchmark, not a test)."""
    from ..bench import (QUICK, PY_TABLE_BYTES, as_json as to_json, memory_json, memory_table, ratio_table, run,
                         table, table_memory)
    given = {p for p in ("size", "repeat") if ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE}
    if quick:
        size = size if "size" in given else str(QUICK["size"])
        repeat = repeat if "repeat" in given else QUICK["repeat"]
        no_invalid = no_invalid or not QUICK["invalid"]
    if wide is not None:
        from ..bench import wide_rows
        rows = wide_rows(list(specs) or ["utf-inf-8"], wide, repeat)
        if as_json:
            click.echo(json.dumps({"machine": _machine(), "wide": rows}, indent=1))
        else:
            click.echo(f"# {_machine()}")
            for r in rows:
                click.echo(f"{r['spec']} {r['backend']}: one {r['bits']:,}-bit code point ({r['bytes']:,} bytes): "
                           f"encode {r['encode_ms']:.1f} ms, decode {r['decode_ms']:.1f} ms")
        return
    n = _size(size)
    if n is None:
        raise Fail(f"--size: cannot read '{size}' (e.g. 16MiB, 500KB, 1000000)")
    progress = (lambda s: click.echo(f"  timing {s} …", err=True)) if sys.stderr.isatty() and not as_json else (lambda s: None)
    names = list(specs) or ["utf-8", "corrected-utf-8"]
    rows = run(names, n, repeat, export == "c", not no_invalid, progress,
               py_table_bytes=QUICK["py_table_bytes"] if quick else PY_TABLE_BYTES, encode=not no_encode)
    mem = table_memory(names)
    if as_json:
        click.echo(json.dumps({"machine": _machine(), "rows": to_json(rows), "table_memory": memory_json(mem)},
                              indent=1))
    else:
        click.echo(f"# {_machine()}; corpora of {n:,} bytes, best of {repeat}")
        click.echo(table(rows))
        click.echo("\nNATIVE / CPYTHON (strict)")
        click.echo(ratio_table(rows))
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


def _machine() -> str:
    import os
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"
