"""The ``encspec`` command.  Every failure is one line on stderr and a non-zero exit."""
from __future__ import annotations

import errno
import io
import os
import signal
import sys
from pathlib import Path

import click

from ..spec import registry
from ..spec.diagnostics import SpecError
from ..version import __version__
from . import commands
from .common import EXIT_USAGE, Fail, load_spec, read_input, require_parent
from .index import complete_spec
from .lazy import LazyGroup, discover


class _PipeClosed(Exception):
    """The reader of our output went away (EPIPE).  Raised instead of BrokenPipeError so that
    click does not turn it into exit 1, which validate and lint use for "invalid"."""


class _Group(LazyGroup):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _PipeClosed() from None


@click.group(cls=_Group, lazy=discover(commands),
             context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.version_option(__version__, prog_name="encspec")
def cli():
    """Compile declarative encoding specs into decoders, encoders and tables.

    SPEC is a built-in encoding name (see `encspec list`) or a path to a .encspec file.
    """


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document: a list of {name, title, aliases}.")
def list_cmd(as_json: bool) -> None:
    """List the built-in specs."""
    from . import index
    specs = index.builtins()
    if as_json:
        click.echo(_json_document([{"name": s["name"], "title": s["title"], "aliases": s["aliases"]}
                                   for s in specs]))
        return
    for spec in specs:
        aliases = f" (aliases: {', '.join(spec['aliases'])})" if spec["aliases"] else ""
        click.echo(f"{spec['name']:20} {spec['title'] or ''}{aliases}")


def _json_document(value) -> str:
    """The one JSON document of describe, check, diff and list (validate, lint and tokens
    write JSON Lines instead): indented, keys in a fixed order, so output is deterministic."""
    import json
    return json.dumps(value, indent=1)


@cli.command()
@click.argument("spec", shell_complete=complete_spec)
@click.option("--ill-formed", is_flag=True, help="List ill-formed byte patterns (Unicode 3.1 Table 3.1b style).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of a table.")
def describe(spec: str, ill_formed: bool, as_json: bool) -> None:
    """Print the table of byte-sequence ranges, offsets and code points."""
    from .index import generated_description
    doc = generated_description(spec)   # a built-in: what `encspec build` kept, no compiling
    if doc is not None:
        key = ("ill_formed_" if ill_formed else "") + ("json" if as_json else "table")
        click.echo(_json_document(doc[key]) if as_json else doc[key])
        return
    from ..analyse import describe as d
    _, a = load_spec(spec)
    if ill_formed and as_json:
        click.echo(_json_document(d.ill_formed_json(a)))
    elif ill_formed:
        click.echo(d.ill_formed_table(a))
    elif as_json:
        click.echo(_json_document(d.to_json(a)))
    else:
        click.echo(d.table(a))


@cli.command()
@click.argument("spec", shell_complete=complete_spec)
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON document.")
def check(spec, as_json):
    """Decide the encoding's properties, with a counterexample for each that fails."""
    from ..analyse.properties import NAMES
    from ..analyse.properties import check as run
    _, a = load_spec(spec)
    report = run(a)
    if as_json:
        doc = {"name": a.name, **report.to_json()}
        click.echo(_json_document(doc))
        return
    for name in NAMES:
        ok = report.properties[name]
        line = f"{name:20} {'yes' if ok else 'no'}"
        if not ok:
            ex = report.counterexamples[name]
            line += "   counterexample: " + " / ".join(x.hex(" ").upper() if isinstance(x, bytes) else str(x) for x in ex)
        if name == "self_synchronizing" and ok and report.worst_skip is not None:
            line += f"   (worst skip: {report.worst_skip} bytes)"
        click.echo(line)
    click.echo(f"{'max_length':20} {report.max_length if report.max_length is not None else 'unbounded'}")
    mcp = report.max_code_point
    click.echo(f"{'max_code_point':20} {f'U+{mcp:04X}' if mcp is not None else 'unbounded'}")
    if report.mode_lengths:  # the same bytes are other characters in another mode
        for mode, (lengths, several) in report.mode_lengths.items():
            click.echo(f"mode {mode}:")
            _echo_lengths(lengths, several, "  ")
    else:
        _echo_lengths(report.lengths, report.sequences, "")


def _echo_lengths(lengths: dict, several: dict, indent: str) -> None:
    """How many valid byte sequences of each length, as ``check`` prints them."""
    for n, count in lengths.items():
        k = several.get(n, 0)
        if isinstance(n, str):
            click.echo(f"{indent}  {n}: {count}")
        elif k:  # a pointer of several code points is one valid sequence, not a code point
            click.echo(f"{indent}  {n} bytes: {_count(count - k, 'code point')} and "
                       f"{_count(k, 'sequence')} of code points")
        else:
            click.echo(f"{indent}  {n} bytes: {_count(count, 'code point')}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@cli.command()
@click.argument("spec", required=False, shell_complete=complete_spec)
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), help="Output folder (for a user's spec).")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 if generated/ is stale.")
@click.option("--native", is_flag=True,
              help="Compile SPEC's native backend (a C extension) into the cache instead (every built-in without SPEC).")
def build(spec, out_dir, check_only, native):
    """Regenerate generated/ from specs/ (or build one SPEC into -o DIR)."""
    from . import build as b
    if native:
        if out_dir or check_only:
            raise Fail("--native takes neither -o nor --check: it compiles into the cache")
        _build_native([spec] if spec else [str(p) for p in registry.builtin_paths()])
        return
    if spec is None:
        target = Path(out_dir) if out_dir else b.generated_dir()
        expected = b.all_outputs(target)
    else:
        if not out_dir:
            raise Fail("building a single spec needs -o DIR")
        if out_dir == "-":
            raise Fail("-o -: build writes a folder of files, which standard output cannot hold")
        target = Path(out_dir)
        expected = b.outputs(spec, target)
    if check_only:
        problems = b.stale(expected, target if spec is None else None)
        for p in problems:
            click.echo(p, err=True)
        if problems:
            click.echo(f"encspec: generated files are out of date ({len(problems)}); run `encspec build`", err=True)
            sys.exit(1)
        click.echo(f"{len(expected)} generated files are up to date")
        return
    if spec is not None:
        require_parent(target)
    written = b.write(expected)
    for path in written:
        click.echo(f"wrote {b.shown(path)}")
    click.echo(f"{len(expected)} files, {len(written)} changed")


def _build_native(specs: list[str]) -> None:
    """`encspec build --native`: each spec's extension, compiled (or found) in the cache.
    Every spec is checked first, so an unsupported one stops the command before any compiling."""
    from ..emit.native import build as native_build
    from ..emit.targets import require
    automata = [load_spec(spec)[1] for spec in specs]
    for automaton in automata:
        require(automaton, "native")
    for automaton in automata:
        try:
            built = native_build.build(automaton)
        except native_build.NativeBuildError as e:
            raise Fail(str(e), 1) from None
        click.echo(f"{'cached' if built.cached else 'built'} {built.path}")


@cli.command()
@click.argument("spec", shell_complete=complete_spec)
@click.argument("file", required=False)
@click.option("--json", "as_json", is_flag=True,
              help="JSON Lines: one {kind, offset, end, bytes, code_point} object per token.")
def tokens(spec, file, as_json):
    """Print one token per line: char START END HEX | error START END | reserved … | signature …

    A pointer that stands for several code points (WHATWG Big5's four) prints them
    joined by + (CA+304)."""
    import json

    from ..codec import load
    module = load(spec)
    data = read_input(file)
    out = sys.stdout
    for kind, start, end, value in module.tokens(data):
        if as_json:
            out.write(json.dumps({"kind": kind, "offset": start, "end": end, "bytes": data[start:end].hex(" ").upper(),
                                  "code_point": value if kind == "char" else None}) + "\n")
        elif kind == "char":  # a pointer that stands for several code points: CA+304
            out.write(f"char {start} {end} {'+'.join(f'{v:X}' for v in value) if isinstance(value, tuple) else f'{value:X}'}\n")
        else:
            out.write(f"{kind} {start} {end}\n")


@cli.command()
@click.argument("spec", shell_complete=complete_spec)
@click.argument("file")
@click.option("--profile", default=None, help="Which profile of the spec (default: its first).")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per finding.")
def lint(spec, file, profile, as_json):
    """Check a document against the spec's profile; exit 1 if it has errors."""
    import json

    from ..codec import load
    module = load(spec)
    if not module.PROFILES:
        raise Fail(f"{spec}: the spec defines no document profile")
    if profile is not None and profile not in module.PROFILES:
        raise Fail(f"{spec}: no profile '{profile}' (has: {', '.join(module.PROFILES)})")
    findings = module.lint(read_input(file), profile)
    shown = "<stdin>" if file == "-" else file
    for severity, offset, line, col, message in findings:
        if as_json:
            click.echo(json.dumps({"path": shown, "severity": severity, "offset": offset, "line": line,
                                   "column": col, "message": message}))
        else:
            click.echo(f"{shown}:{line}:{col}: {severity}: {message} (byte {offset})")
    if any(f[0] == "error" for f in findings):
        sys.exit(1)


EXIT_SIGPIPE = 128 + 13   # what a shell reports for a process ended by SIGPIPE
_pipe_closed = False


def main(argv=None) -> int:
    """Run ``encspec ARGV``; the exit code.  Nothing escapes as a traceback: usage and I/O
    errors are one line on stderr and 2; a closed output pipe ends quietly with 141
    (:func:`entry` then dies by SIGPIPE itself, as coreutils do); SIGTERM/SIGHUP while
    an output is being written end with 128+signum, the temporary file removed."""
    from ..io import stream
    global _pipe_closed
    restore = _closed_stdout()
    try:
        code = _run(argv)
        if sys.stdout is not None:
            try:
                sys.stdout.flush()   # a full disk shows here, not as a traceback at exit
            except OSError:
                if code == 0:
                    raise
                _quiet_stdout()      # the command failed and said why; that is the one line
        return code
    except (_PipeClosed, BrokenPipeError):
        _pipe_closed = True
        _quiet_stdout()
        return EXIT_SIGPIPE
    except stream.Terminated as e:
        return 128 + e.signum
    except stream.InputError as e:
        click.echo(f"encspec: error: {e}", err=True)
        return EXIT_USAGE
    except OSError as e:
        if e.filename is None:   # a write to stdout (writes to files name their file)
            click.echo(f"encspec: error: write error: {(e.strerror or str(e)).lower()}", err=True)
            _quiet_stdout()
        else:
            click.echo(f"encspec: error: {stream.os_error_message(e.filename, e)}", err=True)
        return EXIT_USAGE
    finally:
        restore()


def _run(argv) -> int:
    try:
        cli.main(args=argv, prog_name="encspec", standalone_mode=False)
    except SpecError as e:
        click.echo(e.render() if e.loc else f"encspec: error: {e.path}: {e.message}", err=True)
        return EXIT_USAGE
    except Fail as e:
        click.echo(f"encspec: error: {e}", err=True)
        return e.code
    except getattr(click.exceptions, "NoArgsIsHelpError", ()) as e:
        click.echo(e.ctx.get_help(), err=True)
        return EXIT_USAGE
    except click.UsageError as e:
        hint = f" (see 'encspec {e.ctx.command_path.split(' ', 1)[1] + ' ' if e.ctx and ' ' in e.ctx.command_path else ''}--help')"
        click.echo(f"encspec: error: {e.format_message()}{hint}", err=True)
        return EXIT_USAGE
    except click.exceptions.Abort:
        click.echo("encspec: aborted", err=True)
        return 130
    except SystemExit as e:  # commands that decide their own exit code (build --check, lint, diff)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.exceptions.Exit as e:
        return e.exit_code
    return 0


class _ClosedOutput(io.RawIOBase):
    """Standard output of a command started with it closed (``>&-``): a write fails with
    EBADF, so the command says so (one line, exit 2) instead of writing nowhere."""

    failing = True

    def writable(self):
        return True

    def write(self, b):
        if self.failing:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return len(b)


def _closed_stdout():
    """If stdout is closed, a failing stand-in for ``sys.stdout`` (and /dev/null on fd 1, so
    that no file opened meanwhile becomes fd 1).  Returns what puts things back."""
    if sys.stdout is not None:
        return lambda: None
    try:
        os.fstat(1)
    except OSError:
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 1:
            os.dup2(fd, 1)
            os.close(fd)
    raw = _ClosedOutput()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")

    def restore():
        raw.failing = False   # what is still buffered goes nowhere, silently
        sys.stdout = None
    return restore


def _quiet_stdout() -> None:
    """After a write to stdout failed, point fd 1 at /dev/null: what is still buffered is
    flushed there at exit instead of failing again (a second message and exit 120)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def entry() -> None:
    code = main()
    if code == EXIT_SIGPIPE and _pipe_closed and hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # end as `cat` does when `head` has had enough
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(code)
