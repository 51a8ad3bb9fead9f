"""The whole pipeline behind one call: parse → model → automaton, claims verified."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from . import registry
from .analyse.properties import check
from .automaton import Automaton, compile_spec
from .diagnostics import SpecError
from .model import Spec
from .parse import parse_file


def load(name_or_path: str) -> tuple[Spec, Automaton]:
    """Spec and automaton for a built-in name or a spec path."""
    path = registry.find(name_or_path)
    return _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _load(path: str, _mtime: int) -> tuple[Spec, Automaton]:
    spec = parse_file(path)
    shown = _shown_path(path)
    spec = _relabel(spec, shown)
    try:
        automaton = compile_spec(spec)
        verify_claims(spec, automaton)
    except SpecError as e:
        raise e.located(shown, spec.text) from None
    return spec, automaton


def _shown_path(path: str) -> str:
    """Built-in specs are named ``specs/NAME.encspec`` so output does not depend on the checkout."""
    p = Path(path)
    if p.parent == registry.specs_dir().resolve():
        return f"specs/{p.name}"
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)


def _relabel(spec: Spec, path: str) -> Spec:
    from dataclasses import replace
    return replace(spec, path=path)


def verify_claims(spec: Spec, automaton: Automaton) -> None:
    """Every property the spec claims must hold; else a SpecError with a counterexample."""
    if not spec.claims:
        return
    names = [c.name.replace("-", "_") for c in spec.claims]
    report = check(automaton, names)
    for claim, name in zip(spec.claims, names):
        if not report.properties[name]:
            example = " / ".join(x.hex(" ").upper() if isinstance(x, bytes) else str(x)
                                 for x in report.counterexamples[name])
            raise SpecError(f"claimed property '{claim.name}' does not hold: {example}", claim.loc)
