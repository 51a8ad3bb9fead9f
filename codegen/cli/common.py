"""What the ``encspec`` commands share: the one-line failure, loading a spec,
reading input and checking where output goes.

``main.py`` and ``commands/*`` import this module and it imports neither, so
the commands no longer reach into ``main`` (an import cycle) for its private
helpers.
"""
from __future__ import annotations

import sys
from pathlib import Path

EXIT_USAGE = 2


class Fail(Exception):
    """A user-facing error: printed as one line, exit code *code*."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


def load_spec(spec: str):
    """(Spec, Automaton) for a built-in name or a spec path; a bad spec raises SpecError
    (main prints it as one located message)."""
    from ..pipeline import load
    return load(spec)


def read_input(file) -> bytes:
    """FILE's bytes (None or "-": stdin), or Fail with one line."""
    if file is None or file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except FileNotFoundError:
        raise Fail(f"{file}: no such file") from None
    except IsADirectoryError:
        raise Fail(f"{file}: is a directory") from None
    except PermissionError:
        raise Fail(f"{file}: permission denied") from None
    except OSError as e:
        raise Fail(f"{file}: {e.strerror or e}") from None


def require_parent(out: Path) -> None:
    """An output (file or folder) goes into a folder that exists: nothing is created above it."""
    if not out.parent.exists():
        raise Fail(f"{out}: the folder that should hold it does not exist")
