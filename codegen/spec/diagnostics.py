"""Spec errors carry a source position so every message can point at the line."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """A 1-based line and column in a spec file."""

    line: int
    column: int


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
        lines = self.text.split("\n")  # the parser counts lines by \n alone, not by splitlines()' \f or \u2028
        head = f"{self.path}:{self.loc.line}:{self.loc.column}: {self.message}"
        if 1 <= self.loc.line <= len(lines):
            # one column per character, as the parser counts: a tab or other control is shown as a space
            src = "".join(c if c.isprintable() else " " for c in lines[self.loc.line - 1])
            return f"{head}\n    {src}\n    {' ' * (self.loc.column - 1)}^"
        return head

    def __str__(self) -> str:
        return self.render()
