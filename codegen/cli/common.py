"""What the ``encspec`` commands share: the one-line failure, loading a spec,
reading input and checking where output goes.

``main.py`` and ``commands/*`` import this module and it imports neither, so
the commands no longer reach into ``main`` (an import cycle) for its private
helpers.
"""
from __future__ import annotations

from pathlib import Path

EXIT_USAGE = 2


class Fail(Exception):
    """A user-facing error: printed as one line, exit code *code*."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


def load_spec(spec: str):
    """(Spec, Automaton) for a built-in name or a spec path; a bad spec raises SpecError
    (main prints it as one located message), and its warnings (table lines no form
    reaches) are printed on stderr, each located with a caret, before the command runs."""
    import click

    from ..pipeline import load
    got = load(spec)
    for warning in got[0].warnings:
        click.echo(warning.render(), err=True)
    return got


def read_input(file) -> bytes:
    """FILE's bytes (None or "-": stdin), or Fail with one line naming it as every command
    does (stdin: ``<stdin>``)."""
    from ..io import stream
    try:
        inp = stream.open_input(file)
        try:
            return b"".join(stream.read_chunks(inp))
        finally:
            if inp.close:
                inp.file.close()
    except stream.InputError as e:
        raise Fail(str(e)) from None


def output_folder(out: Path) -> None:
    """Create the folder *out* and any missing parents (``mkdir -p``); Fail with one line
    if it cannot be, or if *out* is ``-`` (a folder of files has no place on stdout)."""
    from ..io import stream
    if str(out) == "-":
        raise Fail("-o -: this command writes a folder of files, which standard output cannot hold")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        if stream.symlink_loop(out):
            raise Fail(stream.loop_message(out)) from None
        raise Fail(f"{out}: exists and is not a directory") from None
    except OSError as e:
        raise Fail(stream.os_error_message(e.filename or out, e)) from None


def exclusive(*names: str):
    """Put above ``@click.command``: the options named (their parameter names) cannot be
    given together.  The parser rejects the pair (one line, exit 2) rather than letting
    one silently win, as grep and coreutils do for conflicting modes."""
    import click
    from click.core import ParameterSource

    def apply(command):
        parse = command.parse_args

        def parse_args(ctx, args):
            rest = parse(ctx, args)
            given = [p for p in command.params
                     if p.name in names and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE]
            if len(given) > 1:
                shown = [next((o for o in p.opts if o.startswith("--")), p.opts[0]) for p in given]
                raise click.UsageError(f"{shown[0]} and {shown[1]} cannot be used together", ctx)
            return rest

        command.parse_args = parse_args
        return command
    return apply


def require_parent(out: Path) -> None:
    """An output (file or folder) goes into a folder that exists: nothing is created above it;
    a symbolic link loop is refused."""
    from ..io import stream
    if stream.symlink_loop(out):
        raise Fail(stream.loop_message(out))
    if not out.parent.exists():
        raise Fail(f"{out}: the folder that should hold it does not exist")
