"""A click group that imports a command's module only when that command runs.

click's "lazily loading subcommands" pattern: ``encspec --version`` or ``encspec
decode`` should not pay for importing every other command (export pulls in the
emitters and jinja2, chart and check the analyses).  Listing the commands costs
one directory listing; ``encspec --help`` and completing a command name import
them all, which is what showing their help lines needs.
"""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import click


def discover(package: ModuleType) -> dict[str, str]:
    """Command name → module path for every module of *package* (a module ``x_y``
    defines the command ``x-y``), found without importing any of them."""
    return {info.name.replace("_", "-"): f"{package.__name__}.{info.name}"
            for info in pkgutil.iter_modules(package.__path__)}


class LazyGroup(click.Group):
    """A group whose *lazy* commands (name → module defining ``command``) load on first use."""

    def __init__(self, *args: object, lazy: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy: dict[str, str] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            self.add_command(self._load(cmd_name))
        return super().get_command(ctx, cmd_name)

    def _load(self, name: str) -> click.Command:
        command = getattr(importlib.import_module(self.lazy[name]), "command", None)
        if not isinstance(command, click.Command) or command.name != name:
            raise RuntimeError(f"{self.lazy[name]} must define `command`, a click command named {name!r}")
        return command
