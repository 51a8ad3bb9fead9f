"""A target: one backend, one template folder, what it renders and what it supports.

Each ``*_target`` module registers one when imported; ``targets.py`` imports
them all and is what the rest of encspec uses.  ``supports(a)`` is None, or one
line saying why the target cannot take this automaton (the C and Rust 64-bit
limits, Java's long offsets), decided before anything is rendered or written.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..automaton import Automaton
from ..spec.diagnostics import SpecError

REGISTRY: dict[str, Target] = {}

Support = Callable[[Automaton], str | None]


class Unsupported(SpecError):
    """A target cannot take this spec: one line, raised before any file is written."""

    def __init__(self, a: Automaton, target: str, why: str):
        said = why if f"{target} target" in why else f"the {target} target does not support this spec: {why}"
        super().__init__(said, None, a.spec_file)
        self.target = target
        self.why = why


def everything(a: Automaton) -> str | None:
    """The support of a target without limits (it computes with exact integers)."""
    return None


def refusal(check: Callable[[Automaton], object]) -> Support:
    """A support test from a check that raises SpecError: its message is the reason."""
    def supports(a: Automaton) -> str | None:
        try:
            check(a)
        except SpecError as e:
            return e.message.splitlines()[0] if e.message else "refused"
        return None
    return supports


@dataclass(frozen=True)
class Target:
    name: str
    describe: str
    files: Callable[[Automaton], dict[str, str]]  # relative path -> text
    supports: Support = everything
    int_bits: int | None = None  # None: arbitrary precision
    executables: tuple[str, ...] = field(default=())  # files to chmod +x
    exported: bool = True  # offered by `encspec export --lang`
    options: tuple[str, ...] = ()  # keyword options files() takes (java: java_package)
    # reads real bytes through a spec's permutation (``bytes through``); else it refuses such a spec
    permutes: bool = False
    # exports a spec whose decoder reads no form (`undecodable`: its automaton already makes
    # any input one error); else it refuses such a spec
    undecodable: bool = False
    # takes a spec with modes (shift states: ISO-2022, HZ); else it refuses such a spec
    modes: bool = False
    # takes a spec with a run of digits (`run`, UTF-7's base64); else it refuses such a spec
    digits: bool = False
    # writes sequences of code points held by a mode (iso2022_jp_2004's JIS X 0213 pairs);
    # else it refuses a spec with modes that has them
    mode_sequences: bool = False


MODES_REFUSAL = ("modes (shift states: ISO-2022, HZ) are not in this target yet: the Python "
                 "module, the native extension, the JSON table and the C, JS, Rust and Java exports have them")


MODE_SEQUENCES_REFUSAL = ("sequences of code points in a spec with modes (iso2022_jp_2004's JIS X 0213 pairs) "
                          "are not in this target yet: the Python module, the native extension and the "
                          "JSON table have them")


DIGITS_REFUSAL = ("a run of digits (`run`: UTF-7's base64) is not in this target yet: the Python module, "
                  "the native extension, the C and JS exports have it")


def register(target: Target) -> Target:
    """Add *target* to ``REGISTRY`` under its name, and return it."""
    REGISTRY[target.name] = target
    return target
