"""Every backend is a registered target: python, native, c, rust, js, java, json.

Importing this module registers them all (each ``*_target`` module declares its
target and what it supports).  ``require``, ``render_files`` and ``export``
refuse an unsupported spec with one line before anything is written, so
``encspec export`` and ``encspec build`` leave the output folder as it was.
"""
from __future__ import annotations

from pathlib import Path

from ..automaton import Automaton
from ..spec.diagnostics import SpecError
from . import c_target, description, java_target, js_target, json_target, python_target, rust_target  # noqa: F401
from .native import target as native_target  # noqa: F401
from .target import DIGITS_REFUSAL, MODE_SEQUENCES_REFUSAL, MODES_REFUSAL, REGISTRY, Target, Unsupported


def targets() -> dict[str, Target]:
    """Every registered target, by name."""
    return REGISTRY


def exports() -> dict[str, Target]:
    """The targets `encspec export --lang` offers."""
    return {name: t for name, t in targets().items() if t.exported}


def mode_sequences(a: Automaton) -> bool:
    """Whether a mode of *a* writes a sequence of code points as one (the shared mode
    choice, description.mode_choice, carries one mode's code points only)."""
    return any(description.encoder(m.part, m.leaving).sequences for m in a.modes)


def require(a: Automaton, name: str) -> Target:
    """The target, if it supports *a*; else Unsupported (one line, nothing written)."""
    target = targets()[name]
    if a.permutation is not None and not target.permutes:
        raise Unsupported(a, name, f"the {name} target does not support 'bytes through' yet (its decoder "
                                   "reads the intermediate bytes: it has no byte permutation seam)")
    why = target.supports(a)
    if why is None and a.modes and not target.modes:
        why = MODES_REFUSAL
    if why is None and a.modes and not target.mode_sequences and mode_sequences(a):
        why = MODE_SEQUENCES_REFUSAL
    if why is None and a.digit_run is not None and not target.digits:
        why = DIGITS_REFUSAL
    if why is None and a.undecodable and target.exported and not target.undecodable:
        why = "'undecodable' (a decoder that reads no form, any input one error) is not exported yet"
    if why is not None:
        raise Unsupported(a, name, why)
    return target


def render_files(a: Automaton, name: str, options: dict | None = None) -> dict[str, str]:
    """The target's files for *a*, in memory; Unsupported if the target refuses it.
    *options* are keyword options the target declares (``Target.options``)."""
    target = require(a, name)
    options = {k: v for k, v in (options or {}).items() if v is not None}
    unknown = sorted(set(options) - set(target.options))
    if unknown:
        raise ValueError(f"the {name} target takes no option {', '.join(unknown)}")
    try:
        return target.files(a, **options)
    except Unsupported:
        raise
    except SpecError as e:  # a limit its declaration missed: still refused before writing
        raise Unsupported(a, name, e.message.splitlines()[0]) from None


def export(a: Automaton, lang: str, out_dir: Path, options: dict | None = None) -> list[Path]:
    """Write the target's files into out_dir (which must exist or whose parent must).
    Every file is rendered before the first is written: a refusal writes nothing."""
    target = targets()[lang]
    files = render_files(a, lang, options)
    written = []
    out_dir.mkdir(exist_ok=True)
    for rel, text in files.items():
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(path)
        if rel in target.executables:
            path.chmod(0o755)
        written.append(path)
    return written
