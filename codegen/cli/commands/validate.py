"""``encspec validate``: is each file well-formed?  Where it is not, and why."""
from __future__ import annotations

import json
import os
import stat

import click

from ...io import stream
from ..common import Fail, exclusive
from ..index import complete_spec

SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


class ByteSize(click.ParamType):
    """``16M``, ``512K``, ``1000``."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().removesuffix("B").removesuffix("I")
        unit = text[-1:] if text[-1:] in SIZE_UNITS else ""
        try:
            n = int(text[:len(text) - len(unit)]) * SIZE_UNITS[unit]
        except ValueError:
            self.fail(f"'{value}' is not a size (like 16M, 512K or 4096)", param, ctx)
        if n < 1:
            self.fail(f"'{value}' is not a positive size", param, ctx)
        return n


def expand(paths):
    """``(shown path, kind)`` in argument order; directories become their files, recursively
    and sorted.  kind: "file" (regular), "stdin" (``-``, shown as ``<stdin>``), "stream" (a FIFO…),
    or an error message."""
    out = []
    for arg in paths:
        if arg == "-":
            out.append((stream.STDIN, "stdin"))
            continue
        try:
            st = os.stat(arg)
        except OSError as e:
            out.append((arg, stream.os_error_message(arg, e)))
            continue
        if stat.S_ISDIR(st.st_mode):
            before = len(out)
            for root, dirs, files in os.walk(arg, onerror=lambda e, a=arg: out.append(
                    (e.filename or a, stream.os_error_message(e.filename or a, e)))):
                dirs.sort()
                for name in sorted(files):
                    path = os.path.join(root, name)
                    try:
                        if stat.S_ISREG(os.stat(path).st_mode):
                            out.append((path, "file"))
                    except OSError:
                        pass  # a dangling link: not a file
            if len(out) == before:  # nothing to check is not "all valid"
                out.append((arg, f"{arg}: a directory with no files in it"))
        elif stat.S_ISREG(st.st_mode):
            out.append((arg, "file"))
        else:
            out.append((arg, "stream"))
    return out


def _plural(n, word, words=None):
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _summary(rep: stream.Report, allow_reserved: bool) -> str:
    parts = []
    if rep.errors:
        parts.append(_plural(rep.errors, "error"))
    if rep.reserved:
        parts.append(_plural(rep.reserved, "reserved run"))
    found = ", ".join(parts)
    valid = rep.valid(allow_reserved)
    if valid:
        return f"{rep.path}: valid" + (f" (with {found})" if found else "")
    if valid is None:  # only reserved runs before --max-errors stopped the scan
        return (f"{rep.path}: not known: {found} (stopped at --max-errors {len(rep.problems)}"
                " before the end: the rest was not read)")
    more = f" (stopped at --max-errors {len(rep.problems)}: there may be more)" if rep.truncated else ""
    why = " (--reject-reserved)" if not rep.errors else ""
    return f"{rep.path}: invalid: {found}{why}{more}"


def _lines(rep: stream.Report, allow_reserved: bool):
    if rep.signature is not None:
        s = rep.signature
        yield f"{rep.path}:{s.line}:{s.column}: signature: {stream.hexbytes(s.data)} (byte {s.start})"
    for p in rep.problems:
        shown = stream.hexbytes(p.data) + (" …" if p.end - p.start > len(p.data) else "")
        what = f"error: {p.reason}" if p.kind == "error" else "reserved"
        yield f"{rep.path}:{p.line}:{p.column}: {what}: {shown} (byte {p.start})"
    yield _summary(rep, allow_reserved)


def _json(rep: stream.Report, allow_reserved: bool) -> str:
    if rep.error is not None:
        return json.dumps({"path": rep.path, "valid": None, "error": rep.error})
    return json.dumps({
        "path": rep.path, "valid": rep.valid(allow_reserved), "size": rep.size,
        "errors": rep.errors, "reserved": rep.reserved, "truncated": rep.truncated,
        "signature": rep.signature.to_json() if rep.signature else None,
        "problems": [p.to_json() for p in rep.problems],
    })


@exclusive("quiet", "list_invalid", "as_json")
@click.command("validate")
@click.argument("spec", shell_complete=complete_spec)
@click.argument("paths", nargs=-1)
@click.option("--max-errors", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop reading a file after N problems (errors and reserved runs).")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per file.")
@click.option("--reject-reserved/--allow-reserved", "reject_reserved", default=False,
              help="Reserved runs make a file invalid (--allow-reserved: they are reported but keep it "
                   "valid, \"reserved for future use ... rather than as invalid\").")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: all cores).")
@click.option("--dask", "dask", default=None, metavar="ADDRESS",
              help="Run the tasks on a Dask scheduler (or 'local' for a local cluster).")
@click.option("--split-size", type=ByteSize(), default="16M", metavar="SIZE",
              help="Split files larger than this into chunks validated in parallel.")
@click.option("-q", "--quiet", "--silent", "quiet", is_flag=True,
              help="Print nothing but errors: the exit code says whether all are valid (like grep -q, cmp -s).")
@click.option("-l", "--list-invalid", "list_invalid", is_flag=True,
              help="Print only the names of files that are not valid, one a line (like grep -l).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def command(spec: str, paths: tuple[str, ...], max_errors: int | None, as_json: bool, reject_reserved: bool,
            jobs: int | None, dask: str | None, split_size: int, quiet: bool, list_invalid: bool,
            no_progress: bool) -> None:
    """Check that each file (directories: every file under them; - or none: stdin) is well-formed.

    Prints each problem as PATH:LINE:COLUMN (lines end at U+000A, columns count
    characters from 1, a problem counting as one) with its byte offset, bytes and
    reason, then whether the file is valid.  Reserved runs keep a file valid unless
    --reject-reserved.  -q prints nothing, -l only the names of files that are not
    valid.  Exit code 0: all valid, 1: some invalid (or not known, after
    --max-errors), 2: a file could not be read, a directory had no files (or a
    usage error).
    """
    from ...codec import load
    from ...io import parallel
    paths = paths or ("-",)   # no path: standard input, as decode and encode read it
    allow_reserved = not reject_reserved
    module = load(spec)
    entries = expand(paths)
    regular = [p for p, kind in entries if kind == "file"]
    sizes = {}
    for p in regular:
        try:
            sizes[p] = os.stat(p).st_size
        except OSError:
            pass
    total = sum(sizes.values())
    bar = stream.progress(total, "validate", quiet or no_progress)
    # With a bar on the terminal, results wait until it is complete and closed: a line
    # printed while it is open would be glued to it.  Without one they stream.
    held: list[stream.Report] | None = None if isinstance(bar, stream.NoBar) else []
    status = 0

    def show(rep):
        nonlocal status
        if rep.error is not None:
            click.echo(f"encspec: error: {rep.error}", err=True)
            status = 2
            if as_json:
                click.echo(_json(rep, allow_reserved))
            return
        valid = rep.valid(allow_reserved)
        if not valid:
            status = max(status, 1)
        if quiet:
            return
        if list_invalid:
            if not valid:
                click.echo(rep.path)
        elif as_json:
            click.echo(_json(rep, allow_reserved))
        else:
            for line in _lines(rep, allow_reserved):
                click.echo(line)

    try:
        reports = parallel.validate_files(spec, regular, jobs=jobs, limit=max_errors, split_size=split_size,
                                          dask=dask, bar=bar, sizes=sizes,
                                          cut_at=_cut_at(spec, sizes, split_size)) if regular else iter(())
        for path, kind in entries:
            if kind == "file":
                rep = next(reports)
            elif kind in ("stream", "stdin"):
                rep = _validate_stream(module, None if kind == "stdin" else path, max_errors, bar)
            else:
                rep = stream.Report(path, error=kind)
            if held is None:
                show(rep)
            else:
                held.append(rep)
    except stream.InputError as e:
        raise Fail(str(e)) from None
    finally:
        if held is not None:
            bar.update(max(0, total - bar.n))   # done: the bar shows 100% before it goes
            bar.refresh()
        bar.close()
    for rep in held or ():
        show(rep)
    if status:
        raise SystemExit(status)


def _validate_stream(module, path, limit, bar):
    """Validate a FIFO, a device or (*path* None) stdin sequentially."""
    path_shown = stream.shown(path)
    try:
        inp = stream.open_input(path)
    except stream.InputError as e:
        return stream.Report(path_shown, error=str(e))
    try:
        rep = stream.validate_stream(module, inp, limit=limit)
    except stream.InputError as e:
        return stream.Report(path_shown, error=str(e))
    finally:
        if inp.close:
            inp.file.close()
    rep.path = path_shown
    return rep


def _cut_at(spec: str, sizes: dict, split_size: int | None):
    """Where files of *spec* may be cut (None: nowhere), found only when a file is large enough
    to be split: an analysis of the automaton, which io.parallel takes as data."""
    if split_size is None or not any(size > split_size for size in sizes.values()):
        return None
    from ...analyse.split import cut_at
    from ...pipeline import load
    return cut_at(load(spec)[1])
