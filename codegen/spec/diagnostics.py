"""Spec errors carry a source position so every message can point at the line.

A mistake inside a table file the spec reads is located in that file
(:class:`TableFileError`); what the reader sets aside without failing is a
:class:`SpecWarning`, shown by the commands that load the spec.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath


@dataclass(frozen=True)
class Loc:
    """A 1-based line and column in a spec file."""

    line: int
    column: int


def excerpt(head: str, loc: Loc, text: str) -> str:
    """*head*, then the line of *text* at *loc* and a caret under its column."""
    lines = text.split("\n")  # the parser counts lines by \n alone, not by splitlines()' \f or \u2028
    if 1 <= loc.line <= len(lines):
        # one column per character, as the parser counts: a tab or other control is shown as a space
        src = "".join(c if c.isprintable() else " " for c in lines[loc.line - 1])
        return f"{head}\n    {src}\n    {' ' * (loc.column - 1)}^"
    return head


def beside(spec_path: str, written: str) -> str:
    """A file the spec at *spec_path* names as *written*, shown as the spec is (its folder)."""
    if not spec_path or spec_path.startswith("<"):
        return written
    return str(PurePath(spec_path).parent / written)


class SpecError(Exception):
    """A problem in a spec: rendered as ``path:line:col: message``, the line and a caret."""

    def __init__(self, message: str, loc: Loc | None = None, path: str = "<spec>", text: str = ""):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.path = path
        self.text = text

    def located(self, path: str, text: str) -> SpecError:
        """The same error, attached to the spec file it came from."""
        return SpecError(self.message, self.loc, path, text)

    def render(self) -> str:
        if self.loc is None:
            return f"{self.path}: {self.message}"
        return excerpt(f"{self.path}:{self.loc.line}:{self.loc.column}: {self.message}", self.loc, self.text)

    def __str__(self) -> str:
        return self.render()


class TableFileError(SpecError):
    """A mistake on a line of a table file: located in that file (*text*), which the
    spec names as *written*; attaching it to the spec only tells where that file is."""

    def __init__(self, message: str, loc: Loc, written: str, text: str, spec_path: str = "<spec>"):
        super().__init__(message, loc, beside(spec_path, written), text)
        self.written = written

    def located(self, path: str, text: str) -> SpecError:
        return TableFileError(self.message, self.loc, self.written, self.text, path)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SpecWarning:
    """Something the spec's files hold that no decoder or encoder will use (a table
    line no form reaches): rendered as ``path:line:col: warning: message`` and a caret.

    *written* is set for a table file (as the spec names it), "" for the spec itself."""

    message: str
    loc: Loc
    path: str
    text: str = ""
    written: str = ""

    def located(self, spec_path: str, spec_text: str) -> SpecWarning:
        """The same warning, for the spec shown as *spec_path*."""
        if self.written:
            return SpecWarning(self.message, self.loc, beside(spec_path, self.written), self.text, self.written)
        return SpecWarning(self.message, self.loc, spec_path, spec_text)

    def render(self) -> str:
        return excerpt(f"{self.path}:{self.loc.line}:{self.loc.column}: warning: {self.message}",
                       self.loc, self.text)

    def __str__(self) -> str:
        return self.render()
